#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_ab_calibrate.sh's refusals and usage, and htab-mem's options
# for bench ab: --extra-work, the known cost it adds, and --key-offset,
# which picks the bucket layout A and B share (the power runs themselves
# are a benchmark script's, not a test's: they take minutes).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SCRIPT=$SRC_TOP/benchs/run_ab_calibrate.sh
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
refuse "-L with -I" "-L and -I are two designs" -L -I 2
SLICE=x refuse "a bad SLICE" "bad SLICE 'x' \(accepted: milliseconds, bench ab's --slice\)" -I 2
LOOPS=0 refuse "a bad LOOPS" "bad LOOPS '0' \(accepted: 1\.\.9999999, a size line's loop count\)" -I 2
refuse "-R with a change size" "-R reads files and runs nothing: no change size with it; got '2'" -R "$TEST_TMP" 2
refuse "-R on a directory without pair files" "no pair files of an -I run in '$TEST_TMP' for -R" -R "$TEST_TMP"

# -R: the interference read from two hand-made pairs of invocations of an
# A/A run (A B A B: slice pairs A B, B A, A B).  Pair 1 (A first, estimate
# 0.02) has log ratios 0.02, 0, 0.04: A B 0.03, B A 0; pair 2 (B first,
# estimate 0.04) has 0.01, 0.03, 0.01: A B 0.01, B A 0.03.  Means: the
# estimates 0.03 (+3.05%), A first 0.02 (+2.02%), B first 0.04 (+4.08%);
# slice pairs A B 0.02 (+2.02%), B A 0.015 (+1.51%), B A - A B -0.005
# (-0.50%).  (Trimming 20% of two keeps both.)
mkdir -p "$TEST_TMP/rr/aa-01"
pairfile() {	# pairfile N FIRST ESTIMATE D1 D2 D3
	printf '{"pair":%d,"first":"%s","slices":{"seq":[0,1,2,3],"side":"ABAB"},"differences":{"first_seq":[0,1,2],"log_ratio":[%s,%s,%s]},"estimate":{"log_ratio":%s}}\n' \
		"$1" "$2" "$4" "$5" "$6" "$3" >"$TEST_TMP/rr/aa-01/pair-00$1.json"
}
pairfile 1 A 0.02 0.02 0 0.04
pairfile 2 B 0.04 0.01 0.03 0.01
"$SCRIPT" -R "$TEST_TMP/rr" >"$TEST_TMP/rr.out" 2>"$TEST_TMP/rr.err"
is $? 0 "-R: exit 0"
like "$TEST_TMP/rr.out" '^interference \(A = B\): 2 pairs of invocations, mean log\(B/A\) \+3\.05% .*; A first \+2\.02% .*, B first \+4\.08% ' \
	"-R: the pairs' estimates, all and by the side that went first"
like "$TEST_TMP/rr.out" '^slice order \(A = B\): 2 pairs of invocations, slice pairs A B \+2\.02% .*, B A \+1\.51% .*; B A - A B -0\.50% ' \
	"-R: the slice pairs by their order, and the difference"
is "$(wc -l <"$TEST_TMP/rr.out")" 2 "-R: an A/A run only: two lines"

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

# --key-offset: refused out of range, recorded only when set, and the
# map's keys really start there (read from the live map with bpftool)
run_bench "$TEST_TMP/koff-bad" -w0 -d1 htab-mem --key-offset 1000000001
is $? 64 "--key-offset 1000000001: a usage error"
is "$(cat "$TEST_TMP/koff-bad.err")" "invalid --key-offset '1000000001': expected an integer in 0..1000000000" \
	"... in one line"
"$BENCH" -w0 -d2 -p2 --zero-seed --json "$TEST_TMP/koff.json" htab-mem --key-offset 999999000 \
	>"$TEST_TMP/koff" 2>&1 &
pid=$!
wait_for "$TEST_TMP/koff" '^Iter +0 ' "$pid" 10
# the newest map named htab is this run's (BPF tests run one at a time);
# keys are dumped as little-endian hex bytes
id=$(bpftool -j map show | jq '[.[] | select(.name == "htab") | .id] | max // 0')
bpftool -j map dump id "$id" 2>/dev/null | jq -r '.[].key | reverse | map(ltrimstr("0x")) | join("")' |
	while read -r h; do echo $((16#$h)); done | sort -n |
	awk 'NR == 1 { min = $1 } { max = $1 } END { print NR, min, max }' >"$TEST_TMP/keys"
wait "$pid"
is $? 0 "htab-mem -p2 --zero-seed --key-offset 999999000: exit 0"
is "$(cat "$TEST_TMP/keys")" "128 999999000 999999127" \
	"the live map holds the two producers' 128 keys from 999999000 on"
is "$(jq '.options.benchmark.key_offset' "$TEST_TMP/koff.json")" 999999000 "the offset is in the configuration"
is "$(jq '.options.benchmark | has("key_offset")' "$TEST_TMP/off.json")" false \
	"without it the configuration is as before --key-offset existed"
done_testing
