#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every command's --json, succeeding and refused, against
# docs/results-and-json.md, "JSON of the commands": one object on one
# line on stdout, every key it holds named in that section's description,
# the types of tests/cli_shape.jq; a refusal is an error object with
# stderr's message and the exit status, stderr keeping its line.
# count-local runs and ab's stand-in (tests/ab_standin.sh), no BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
export LC_ALL=C
SHAPE=$TESTS_DIR/cli_shape.jq
DOC=$SRC_TOP/docs/results-and-json.md
cd "$TEST_TMP" || exit 1

# every "name" the section's description quotes: the keys a document may hold
awk '/^## JSON of the commands/ { on = 1; next } on && /^## / { exit } on' "$DOC" |
	grep -o '"[a-z_0-9]*"' | tr -d '"' | sort -u >documented
[ "$(wc -l <documented)" -gt 40 ]
ok $? "the section describes the commands' keys ($(wc -l <documented) names)"

for i in 1 2; do
	"$BENCH" -q -w0 -d1 --json "a$i.json" count-local >/dev/null 2>&1
	ok $? "count-local run $i: exit 0"
done
"$BENCH" -q -w0 -d1 --json g.json count-global >/dev/null 2>&1
ok $? "count-global run: exit 0"
"$BENCH" history add --db h.db a1.json a2.json >/dev/null 2>&1
ok $? "history add: exit 0"
echo '{"schema": "bench-result"' >broken.json
for s in a b; do
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do echo 100; done >"ab-$s"
done

# shape <desc> <status> <bench args...>: run, then check the status, one
# line of JSON, its types, its keys against the description; a refusal's
# error against stderr
shape() {
	local desc=$1 want=$2 rc=0 bad keys
	shift 2
	"$BENCH" "$@" >out 2>err || rc=$?
	is "$rc" "$want" "$desc: exit $want"
	is "$(wc -l <out)" 1 "$desc: one line on stdout"
	bad=$(jq -r -f "$SHAPE" out 2>&1)
	is "$bad" "" "$desc: the documented types"
	# benchmark options (a configuration's keys) are the benchmarks', not the envelope's
	keys=$(jq -r 'walk(if type == "object" and has("config") then .config = {} else . end)
		| [paths | .[] | strings] | unique[]' out 2>&1 | grep -vxFf documented)
	is "$keys" "" "$desc: every key is named in docs/results-and-json.md"
	if [ "$want" != 0 ]; then
		is "$(jq -r .exit_status out)" "$want" "$desc: the error object's exit_status"
		grep -qxF -- "$(jq -r .error out)" err
		ok $? "$desc: the error is stderr's line"
		diag "$(head -c 300 out)"
	fi
}

shape "bench -l --json" 0 -l --json
is "$(jq -r '.command, (.benchmarks | map(.name) | index("htab-mem") != null)' out | tr '\n' ' ')" "list true " \
	"bench -l --json: lists htab-mem"
shape "bench -l --json -" 0 -l --json -
shape "bench config --json" 0 config --json a1.json g.json
is "$(jq -r '[.configs[] | .file + ":" + .benchmark] | join(" ")' out)" "a1.json:count-local g.json:count-global" \
	"bench config --json: one entry per file, in order"
shape "bench compare --json" 0 compare --json a1.json a2.json
shape "bench history list --json" 0 history list --json --db h.db
shape "bench history show --json" 0 history show --json --db h.db
shape "bench ab --json" 0 ab --json --test rank --blocks 6 -o ab.d \
	--cmd-a "exec $TESTS_DIR/ab_standin.sh $TEST_TMP/ab-a" --cmd-b "exec $TESTS_DIR/ab_standin.sh $TEST_TMP/ab-b"

shape "compare --json, a refused comparison" 2 compare --json a1.json -- g.json
shape "compare --json, a bad option" 2 compare --json --bogus a1.json a2.json
shape "compare --json, a file refused" 2 compare --json broken.json a1.json
shape "compare --json, a missing file" 2 compare --json missing.json a1.json
shape "config --json, no file" 2 config --json
shape "config --json, a file refused" 2 config --json broken.json
shape "history list --json, no database" 2 history list --json --db missing.db
shape "history --json, no command" 2 history --json
shape "ab --json, a bad option" 2 ab --json --bogus
shape "plot --json (no such option)" 2 plot timeline --json a1.json
shape "export --json (no such option)" 2 export kcidb --json a1.json
shape "a run with --json -, an unknown benchmark" 1 --json - nosuch
shape "a run with --json -, a bad value" 64 -d 0 --json - count-local
shape "bench -l --json, a bad option" 64 -l --bogus --json -

# --json naming a file: stdout is not JSON's, and stays empty
rc=0
"$BENCH" -l --json "$TEST_TMP/no/such/dir/l.json" >out 2>err || rc=$?
is "$rc $(wc -c <out)" "1 0" "bench -l --json into a missing directory: exit 1, nothing on stdout"
rc=0
"$BENCH" compare a1.json -- g.json >out 2>err || rc=$?
is "$rc $(wc -c <out)" "2 0" "compare without --json refused: exit 2, no JSON on stdout"

done_testing
