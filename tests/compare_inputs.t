#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench compare refuses result files it cannot trust, through the binary:
# a real count-local result (no BPF needed), damaged with jq the way a
# broken run, a hand edit or a corruption would, is one line on stderr
# naming the file and the field, nothing on stdout, exit 2 — with
# --fail-on-regression and --force too, so no script can pass on it.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

cd "$TEST_TMP" || exit 1
# -w1 -d3: the sample counts the damaged files below are checked against;
# the two runs are independent, so side by side (lib.sh, par_start)
par_start a.out "$BENCH" -q -w1 -d3 --json a.json count-local
par_start g.out "$BENCH" -q -w1 -d3 --json g.json count-global
par_wait a.out
is $? 0 "count-local --json: exits 0"
par_wait g.out
is $? 0 "count-global --json: exits 0"
"$BENCH" compare --verbose a.json a.json >same.out 2>same.err
is $? 0 "compare of a result with itself: exit 0"
# on a busy machine three samples may be too few or too noisy to bound the
# change (results/verdict.c, set_text()): all of its undecided forms are honest
like same.out '^hits \(M/s\) .* \+0\.00% .* (within ±2%|undecided: (too noisy: )?[0-9]+ samples a side( resolve only changes above [0-9.]+%|: too noisy to bound the change))$' "compare of a result with itself: no change, within or undecided"

# refused <name> <jq filter> <stderr regex>: also with --force unless NO_FORCE=1
refused() {
	local name=$1 filter=$2 want=$3 forced=--force opts rc lines

	[ -z "${NO_FORCE:-}" ] || forced=
	if [ -n "$filter" ]; then
		jq "$filter" a.json >"$name.json" || { ok 1 "$name: jq failed"; return; }
	fi
	for opts in "" --fail-on-regression $forced; do
		rc=0
		# shellcheck disable=SC2086
		"$BENCH" compare $opts a.json "$name.json" >"$name.out" 2>"$name.err" || rc=$?
		lines=$(grep -c . "$name.err")
		is "exit $rc, $lines line(s)" "exit 2, 1 line(s)" "$name${opts:+ $opts}: exit 2 with one line on stderr"
		is "$(grep -c . "$name.out")" 0 "$name${opts:+ $opts}: nothing on stdout"
	done
	like "$name.err" "$want" "$name: $(cat "$name.err")"
}

refused empty '.samples = []' \
	'^compare: empty\.json: samples: no measured sample \(0 warm-up, 0 in all\): the run measured nothing$'
refused all-warmup '.samples[].warmup = true' \
	'^compare: all-warmup\.json: samples: no measured sample \(4 warm-up, 4 in all\): the run measured nothing$'
refused short 'del(.samples[3])' \
	'^compare: short\.json: samples: 1 warm-up and 2 measured samples, but options\.runner says -w 1 -d 3$'
refused edited-summary '.summary.metrics.hits.mean *= 1.1' \
	'^compare: edited-summary\.json: summary\.metrics\.hits\.mean: [0-9.]+ in the file, [0-9.]+ from its samples: the file was edited or corrupted$'
refused edited-sample '.samples[2].metrics.hits *= 1.5' \
	'^compare: edited-sample\.json: summary\.metrics\.hits\.mean: [0-9.]+ in the file, [0-9.]+ from its samples: the file was edited or corrupted$'
refused edited-stddev '.summary.metrics.drops.stddev = 1' \
	'^compare: edited-stddev\.json: summary\.metrics\.drops\.stddev: 1 in the file, 0 from its samples: the file was edited or corrupted$'
refused edited-n '.summary.metrics.hits.n = 4' \
	'^compare: edited-n\.json: summary\.metrics\.hits\.n: 4 in the file, 3 values in its measured samples: the file was edited or corrupted$'
refused abc '.samples[3].metrics.hits = "abc"' \
	'^compare: abc\.json: samples\[3\]\.metrics\.hits: expected a finite number or null, got "abc"$'
refused hits-null '.samples[].metrics.hits = null' \
	'^compare: hits-null\.json: summary\.metrics\.hits\.n: 3 in the file, 0 values in its measured samples: the file was edited or corrupted$'
refused sample-missing 'del(.samples[2].metrics.hits)' \
	'^compare: sample-missing\.json: samples\[2\]\.metrics\.hits: expected a finite number or null, got nothing \(missing\)$'
NO_FORCE=1 refused missing-metric 'del(.summary.metrics.drops, .samples[].metrics.drops)' \
	'^compare: missing-metric\.json: summary\.metrics\.drops: missing, but a\.json has it \(--force compares the metrics both have\)$'
"$BENCH" compare --force a.json missing-metric.json >mm.out 2>mm.err
is $? 0 "a metric missing on one side, --force: exit 0, the others compared"
like mm.out '^warning: drops only in a\.json$' "a metric missing on one side, --force: named"
is "$(grep -c '^drops ' mm.out)" 0 "a metric missing on one side, --force: not in the table"
# one metric in two units: 182 K/s against 182 M/s was once "+0.00%"
NO_FORCE=1 refused other-unit '.summary.metrics.hits.unit = "K/s"' \
	'^compare: other-unit\.json: summary\.metrics\.hits\.unit: "K/s", but a\.json has "M/s": refusing to compare a metric in two units \(--force compares anyway\)$'
"$BENCH" compare --force a.json other-unit.json >ou.out 2>ou.err
is $? 0 "a metric in two units, --force: exit 0"
like ou.out '^warning: hits in M/s against K/s: ' "a metric in two units, --force: said"
"$BENCH" compare a.json other-unit.json -- a.json >ou.out 2>ou.err
is $? 2 "a metric in two units on one side: exit 2"
like ou.err '^compare: other-unit\.json: summary\.metrics\.hits\.unit: "K/s", but a\.json on the same \(base\) side has "M/s": one side is one unit$' \
	"a metric in two units on one side: one line naming both"
refused v3 '.schema_version = 3' \
	'^compare: v3\.json: schema_version: schema version 3 is not one this bench reads \(it reads 1\)$'
refused other '{hello: 1}' \
	'^compare: other\.json: schema: expected "bench-result", got nothing \(missing\): not a bench result$'
# JSON has no infinity; a number too large for a double is what a file can hold
sed '0,/"mean": [-0-9.e+]*/s//"mean": 1e999/' a.json >inf.json
refused inf '' '^compare: inf\.json: line [0-9]+, column [0-9]+: not valid JSON: real number overflow'
refused nosuch '' '^compare: failed to read nosuch\.json: No such file or directory$'
# a directory opens for reading; its read's error is EISDIR, not "Input/output error"
mkdir dir.json
refused dir '' '^compare: failed to read dir\.json: Is a directory$'
# a valid base, the damaged file first: the base side is checked as well
cp empty.json empty-base.json
"$BENCH" compare empty-base.json a.json >/dev/null 2>eb.err
is $? 2 "an emptied BASE: exit 2"
like eb.err '^compare: empty-base\.json: samples: no measured sample' "an emptied BASE: named"

# two benchmarks: refused unless --force (which is its purpose)
"$BENCH" compare a.json g.json >bench.out 2>bench.err
is $? 2 "two different benchmarks: exit 2"
like bench.err "^compare: g\\.json: benchmark: 'count-global', but a\\.json is 'count-local': refusing to compare different benchmarks \\(--force compares anyway\\)\$" \
	"two different benchmarks: names the file and the field"
is "$(grep -c . bench.out)" 0 "two different benchmarks: nothing on stdout"

done_testing
