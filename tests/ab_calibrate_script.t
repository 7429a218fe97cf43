#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_ab_calibrate.sh's refusals and usage, and htab-mem's
# --extra-work, the known cost it adds (the power runs themselves are a
# benchmark script's, not a test's: they take minutes).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SCRIPT=$(cd "$(dirname "$0")/.." && pwd)/benchs/run_ab_calibrate.sh
require_bpf

refuse() {	# refuse <description> <expected stderr regex> <args...>
	local what=$1 re=$2
	shift 2
	BENCH=$BENCH "$SCRIPT" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	is $? 2 "$what: exit 2"
	like "$TEST_TMP/err" "$re" "$what: says why"
	is "$(wc -l <"$TEST_TMP/err")" 1 "$what: one line"
}

refuse "no size" "one change size expected" 
refuse "a size of 0" "bad change size '0' \(accepted: a percentage in 0.1..50\)" 0
refuse "a size of 60" "bad change size '60'" 60
refuse "a bad hog mode" "bad hog mode 'x' for -H \(accepted: none, on, toggle\)" -H x 2
refuse "a bad round count" "bad round count '0' for -n" -n 0 2
refuse "a bad change round count" "bad round count '3,x' for -n \(accepted: AA or AA,CHANGE" -n 3,x 2
ARGS="-w0 -d1 count-local" refuse "a benchmark without --extra-work" "ARGS must run htab-mem" 2
for h in -h --help; do
	"$SCRIPT" $h >"$TEST_TMP/usage" 2>&1
	is $? 0 "$h: exit 0"
	like "$TEST_TMP/usage" '^  benchs/run_ab_calibrate.sh \[-o DIR\]' "$h: prints the usage"
	isnt "$(head -1 "$TEST_TMP/usage")" "SPDX-License-Identifier: GPL-2.0" "$h: not the SPDX line"
done

# --extra-work: refused out of range, recorded only when set
run_bench "$TEST_TMP/bad" -w0 -d1 htab-mem --extra-work -1
is $? 64 "--extra-work -1: a usage error"
is "$(cat "$TEST_TMP/bad.err")" "invalid --extra-work '-1': expected an integer in 0..1000000" "... in one line"
run_bench "$TEST_TMP/on" -w0 -d1 --json "$TEST_TMP/on.json" htab-mem --extra-work 100
is $? 0 "htab-mem --extra-work 100: exit 0"
is "$(jq '.options.benchmark.extra_work' "$TEST_TMP/on.json")" 100 "the loop is in the configuration"
run_bench "$TEST_TMP/off" -w0 -d1 --json "$TEST_TMP/off.json" htab-mem
is "$(jq '.options.benchmark | has("extra_work")' "$TEST_TMP/off.json")" false \
	"without it the configuration is as before --extra-work existed"
done_testing
