#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --json of the commands (docs/results-and-json.md, "JSON of the
# commands"): bench compare, bench history list and show, bench -l print
# one JSON object in one envelope,
# {"schema": "bench-cli", "schema_version": 1, "command": ...}, with the
# verdicts CI reads; notes stay on stderr.  count-local runs, no
# BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - sqlite3 not installed (install-deps.sh installs it)"; exit 1; }
	skip_all "sqlite3 not installed (scripts/install-deps.sh installs it)"
}
cd "$TEST_TMP" || exit 1

# two invocations, independent of each other: side by side (lib.sh, par_start)
for i in 1 2; do
	par_start "a$i.out" "$BENCH" -q -w0 -d2 --min-cpu-share 0 --tag base --json "a$i.json" count-local
done
for i in 1 2; do
	par_wait "a$i.out"
	ok $? "count-local run $i: exit 0"
done
# a "new" side at half the rate: a regression compare must call worse
for i in 1 2; do
	scaled_hits "a$i.json" 0.5 "h$i.json"
done
envelope() {	# envelope <file> <command>
	is "$(jq -r '[.schema, .schema_version, .command] | join(" ")' "$1")" "bench-cli 1 $2" \
		"$2 --json: the envelope"
}

"$BENCH" compare --json a1.json a2.json -- a1.json a2.json >c.json 2>c.err
is $? 0 "compare --json of one configuration against itself: exit 0"
envelope c.json compare
is "$(jq -r '[.benchmark, .configuration, .unit, (.base | length), (.new | length), .worse, .exit_status] | join(" ")' c.json)" \
	"count-local default invocations 2 2 false 0" "compare --json: what was compared, the unit, no regression"
is "$(jq -r '.rows[0] | [.metric, .unit, .change_pct, .base.n, .new.n, (.base.mean | type), (.base.spread | type), .base.mean == .new.mean] | join("|")' c.json)" \
	"hits|M/s|0|2|2|number|number|true" "compare --json: a row with its metric, unit, change, and numbers per side"
like <(jq -r '.rows[0] | [.verdict, .verdict_text] | join("|")' c.json) '^(within\|within ±2%|undecided\|undecided: 2 runs a side resolve only changes above [0-9.]+%)$' \
	"compare --json: a change of 0 is within the threshold or undecided, never better or worse"
is "$(jq -r '.rows[0].ci95_pct | length' c.json)" 2 "compare --json: the interval as two numbers"

"$BENCH" compare --json --fail-on-regression a1.json a2.json -- h1.json h2.json >w.json 2>w.err
rc=$?
if jq -e '.rows[0].verdict == "worse"' w.json >/dev/null; then
	is "$rc $(jq -r '.worse, .exit_status' w.json | tr '\n' ' ')" "1 true 1 " \
		"compare --json --fail-on-regression of a halved rate: exit 1, worse, exit_status 1"
else
	is "$rc $(jq -r '.worse, .exit_status' w.json | tr '\n' ' ')" "0 false 0 " \
		"compare --json of a halved rate the test could not tell (verdict $(jq -r '.rows[0].verdict' w.json)): exit 0 and says so"
fi
is_exit 2 "compare --json --markdown: exit 2" "$BENCH" compare --json --markdown a1.json a2.json

DB=$TEST_TMP/h.db
"$BENCH" history add --db "$DB" a1.json a2.json >/dev/null 2>&1
ok $? "history add: exit 0"
"$BENCH" history list --db "$DB" --json >l.json 2>l.err
is $? 0 "history list --json: exit 0"
envelope l.json "history list"
is "$(jq -r '.runs | length' l.json) $(jq -r '.runs[0] | [.benchmark, .configuration, .config.producers, .tag, .metric] | join(" ")' l.json)" \
	"2 count-local default 1 base hits" "history list --json: every run with its configuration, tag and metric"
"$BENCH" history show --db "$DB" --json >s.json 2>s.err
is $? 0 "history show --json: exit 0"
envelope s.json "history show"
is "$(jq -r '.kernels | length' s.json) $(jq -r '.kernels[0] | [.runs, .base, (.run_ids | length)] | join(" ")' s.json)" \
	"1 2 true 2" "history show --json: one kernel build, its two runs, the base"

"$BENCH" -l --json - >bl.json 2>bl.err
is $? 0 "bench -l --json -: exit 0"
envelope bl.json list
is "$(jq -r '.benchmarks | map(.name) | index("htab-mem") != null' bl.json)" true "bench -l --json: the benchmarks"
is "$(jq -r '[.benchmarks[].name] | length' bl.json)" "$("$BENCH" -l | tail -n +2 | wc -l)" \
	"bench -l --json: as many benchmarks as bench -l lists"
is "$(jq -r '[.commands[].name] | join(" ")' bl.json)" "ab compare plot export history config import" "bench -l --json: the commands"
"$BENCH" -l --json nodir/x.json >/dev/null 2>blx.err
is "$? $(grep -c . blx.err)" "1 1" "bench -l --json to an unwritable file: exit 1, one line"

done_testing
