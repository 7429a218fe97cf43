#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --repeat and --zero-seed without BPF (count-local), and compare on
# repeat means and on invocation (file) means: the output's shape, the
# JSON's repeat tags, several files per side, and bad input.  No check here depends on the machine's speed
# or quietness.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

# bad <status> <description> <stderr regex> <args...>: that exit status
# (README, "Exit status"), one line on stderr, nothing on stdout
bad() {
	local want=$1 desc=$2 re=$3 rc
	shift 3
	"$@" >"$TEST_TMP/bad.out" 2>"$TEST_TMP/bad.err"
	rc=$?
	is "$rc" "$want" "$desc: exit $want"
	cmp_ok "$(wc -l <"$TEST_TMP/bad.err")" -eq 1 "$desc: one line on stderr"
	like "$TEST_TMP/bad.err" "$re" "$desc: the message names the value"
	cmp_ok "$(wc -c <"$TEST_TMP/bad.out")" -eq 0 "$desc: nothing on stdout"
}

# The file's measured runs (count-local --repeat 2, the four runs compare
# takes per side, one run without repeats, one of count-global) go side by
# side: each writes files of its own, and no check compares one's figures
# with another's.  The first three start now, beside the refusals below
# (which run nothing), the others when their turn comes.
J=$TEST_TMP/r.json
C=$TEST_TMP
par_start "$TEST_TMP/r.out" "$BENCH" -q -w1 -d2 --repeat 2 --json "$J" count-local
for i in 1 2; do
	par_start "$TEST_TMP/c$i" "$BENCH" -q -w0 -d1 --repeat 2 --json "$TEST_TMP/c$i.json" count-local
done

bad 64 "--repeat 0" "invalid --repeat '0': expected an integer in 1\.\.1000" \
	"$BENCH" --repeat 0 count-local
bad 64 "huge --repeat" "invalid --repeat '1000000': expected an integer in 1\.\.1000" \
	"$BENCH" --repeat 1000000 count-local
bad 64 "--repeat x" "invalid --repeat 'x'" "$BENCH" --repeat x count-local
bad 1 "--repeat over a day" "invalid --repeat 2: 2 x \(-w 1 \+ -d 86400\) seconds is more than 86400" \
	"$BENCH" --repeat 2 -d 86400 count-local
bad 1 "--zero-seed without a hash map" "--zero-seed does not apply to benchmark 'count-local': it does not create the map it measures with BPF_F_ZERO_SEED" \
	"$BENCH" --zero-seed count-local
# a hash map, but not one it creates with the flag: the reason holds for it too
bad 1 "--zero-seed on local-storage-cache-hashmap-control" \
	"--zero-seed does not apply to benchmark 'local-storage-cache-hashmap-control': it does not create the map it measures with BPF_F_ZERO_SEED" \
	"$BENCH" --zero-seed local-storage-cache-hashmap-control
bad 1 "--zero-seed on trig-syscall-count" "--zero-seed does not apply to benchmark 'trig-syscall-count'" \
	"$BENCH" --zero-seed trig-syscall-count
# the list of benchmarks that accept --zero-seed is the table's: every
# benchmark named there passes the zero-seed check (and stops at the next
# one, repeats longer than a day: nothing runs), every other is refused
accepted=$("$BENCH" --zero-seed count-local 2>&1 | sed -n 's/.*accepted by: //p' | tr ' ' '\n' | sort)
passing=$(for b in $("$BENCH" -l | awk 'NR > 1 { print $1 }'); do
	"$BENCH" --zero-seed --repeat 2 -w0 -d 86400 "$b" 2>&1 | grep -q -- '--zero-seed does not apply' || echo "$b"
done | sort)
is "$accepted" "$passing" "--zero-seed's refusal lists exactly the benchmarks that accept it"
for b in bpf-hashmap-full-update hash-prealloc-update percpu-hash-prealloc-update hash-kmalloc-update \
	percpu-hash-kmalloc-update lru-hash-common-update lru-hash-percpu-update inner-lru-hash-update; do
	is "$(grep -cx -- "$b" <<<"$accepted")" 1 "--zero-seed's refusal names $b"
done
bad 1 "--repeat on bpf-hashmap-lookup" "--repeat 2 does not apply to benchmark 'bpf-hashmap-lookup'" \
	"$BENCH" --repeat 2 bpf-hashmap-lookup

for i in 3 4; do
	par_start "$TEST_TMP/c$i" "$BENCH" -q -w0 -d1 --repeat 2 --json "$TEST_TMP/c$i.json" count-local
done
par_start "$C/one.out" "$BENCH" -q -w0 -d2 --json "$C/one.json" count-local
par_start "$C/g.out" "$BENCH" -q -w0 -d1 --json "$C/g.json" count-global

# ---- a run with repeats ----
par_wait "$TEST_TMP/r.out"
is $? 0 "count-local --repeat 2: exit 0"
cmp_ok "$(grep -c '^Repeat [1-2]/2: Summary: hits ' "$TEST_TMP/r.out")" -eq 2 \
	"one prefixed Summary per repeat"
cmp_ok "$(grep -c '^Summary:' "$TEST_TMP/r.out")" -eq 0 \
	"no bare Summary line a script could take for the whole run"
like "$TEST_TMP/r.out" '^Repeats: hits [0-9.]+ ± [0-9.]+ M/s between 2 repeats \(CV [0-9.]+%\), within repeats ± [0-9.]+ M/s \(CV [0-9.]+%\)$' \
	"the two levels of hits"
schema_ok "$J" "the JSON follows the schema"
is "$(jq '.options.runner.repeat' "$J")" 2 "options.runner.repeat is 2"
is "$(jq '.options.runner.zero_seed' "$J")" false "options.runner.zero_seed is false"
is "$(jq -c '[.samples[].warmup]' "$J")" '[true,true,false,false,false,false]' \
	"6 samples: 2 warm-up then 4 measured"
is "$(jq -c '[.samples[].repeat]' "$J")" '[0,1,0,0,1,1]' "samples tagged by repeat"
is "$(jq '.summary.metrics.hits.repeats.means | length' "$J")" 2 "summary: 2 repeat means"
# each repeat's mean from its own samples, and their mean
jq_true() { jq -e "$@" >/dev/null; }
# shellcheck disable=SC2016 # jq variables
assert "repeat means are the means of each repeat's samples" jq_true '
	[.samples[] | select(.warmup | not)] as $m |
	[range(2) as $r | [$m[] | select(.repeat == $r) | .metrics.hits] | add / length] as $want |
	(.summary.metrics.hits.repeats.means | to_entries | all(.value - $want[.key] | fabs <= 1e-9 * (fabs + 1)))
	and ((.summary.metrics.hits.repeats.mean - ($want | add / 2)) | fabs <= 1e-9 * ($want | add))' "$J"

# a damaged repeat tag is refused
jq '.samples[3].repeat = 1' "$J" >"$TEST_TMP/bad-tag.json"
bad 2 "compare: a moved repeat tag" "samples\[3\]\.repeat: 1, but measured sample 1 belongs to repeat 0" \
	"$BENCH" compare "$TEST_TMP/bad-tag.json" "$J"
jq '.summary.metrics.hits.repeats.between_stddev *= 2' "$J" >"$TEST_TMP/bad-sd.json"
bad 2 "compare: an edited between-repeat stddev" "hits\.repeats\.between_stddev: .* the file was edited or corrupted" \
	"$BENCH" compare "$TEST_TMP/bad-sd.json" "$J"

# ---- compare on repeat means, and on invocation means ----
# (started above; checked as is_exit does, stderr shown on a failure)
for i in 1 2 3 4; do
	par_wait "$TEST_TMP/c$i"
	rc=$?
	is "$rc" 0 "same-configuration run $i: exit 0"
	[ "$rc" = 0 ] || [ ! -s "$TEST_TMP/c$i.err" ] || diag "stderr: $(head -c 1000 "$TEST_TMP/c$i.err")"
done
# the same repeats, split across the sides in different orders: whatever the
# machine did, both sides hold the same observations
run_bench "$C/cmp.out" compare --verbose "$C/c1.json" "$C/c2.json" "$C/c3.json" "$C/c4.json" -- \
	"$C/c3.json" "$C/c1.json" "$C/c4.json" "$C/c2.json"
is $? 0 "compare 4 files per side: exit 0"
like "$C/cmp.out" '^hits \(M/s\) .* \+0\.00% +(\[[-+][0-9.]+, [-+][0-9.]+\]%|-|unbounded) +1\.0000  (within ±2%|undecided: 4 runs a side( resolve only changes above [0-9.]+%|: too noisy to bound the change))$' "hits: no change, p = 1: within or undecided, never better or worse"
# several files on both sides: the invocation is the unit, so each file's
# 2 repeats make one observation, 4 per side
like "$C/cmp.out" "^  hits: Welch's t-test on 4 \+ 4 invocation means \(the invocation is the unit: each file's mean of its 2 repeat means\), df 6\.0; between-invocation CV [0-9.]+% / [0-9.]+%, between-repeat CV [0-9.]+% / [0-9.]+%, within-repeat CV [0-9.]+% / [0-9.]+%$" \
	"4 files per side: Welch's test on 4 + 4 invocation means, the three levels"
like "$C/cmp.out" '^Test: the per-invocation means are the observations \(the invocation, one result file, is the unit' \
	"the test's unit is said"
cmp_ok "$(grep -c '^Not covered' "$C/cmp.out")" -eq 0 \
	"invocations are the unit: no line that they are not covered"
cmp_ok "$(grep -Ec ' (better|worse)$' "$C/cmp.out")" -eq 0 "no metric better or worse"
# the base column is mean ± stddev of the 4 files' means of repeat means
want=$(jq -rs '[.[].summary.metrics.hits.repeats.mean] | (add / length) as $m |
	"\($m) \(([.[] | (. - $m) * (. - $m)] | add / (length - 1)) | sqrt)"' \
	"$C/c1.json" "$C/c2.json" "$C/c3.json" "$C/c4.json")
read -r got_mean got_sd < <(awk '/^hits \(M\/s\)/ { print $3, $5 }' "$C/cmp.out")
read -r want_mean want_sd <<<"$want"
is_near "$got_mean" "$want_mean" 0.0006 "the base column's mean is the mean of the file means"
is_near "$got_sd" "$want_sd" 0.0006 "the base column's ± is the stddev of the file means"
run_bench "$C/cmpp.out" compare --power "$C/c1.json" "$C/c2.json" "$C/c3.json" "$C/c4.json" -- \
	"$C/c3.json" "$C/c1.json" "$C/c4.json" "$C/c2.json"
is $? 0 "compare --power, 4 files per side: exit 0"
like "$C/cmpp.out" '^power: hits: ([0-9]+ invocations per side of 2 repeats at -w0 -d1 detect a 2\.00% change .* \(between-invocation stddev [0-9.e+-]+ / [0-9.e+-]+ M/s\); that is about [0-9]+ s of runs per side, set-up between repeats not counted|more than 1000 invocations per side to detect 2\.00%)' \
	"--power with files per side: invocations per side"
like "$C/cmpp.out" '^power: hits: in 5 minutes of runs \(75 invocations per side, each 2 x 1 s = 2 s; set-up between repeats not counted\) the smallest change detectable at p < 0\.05 with 80% power is [0-9.]+%$' \
	"--power with files per side: what 5 minutes of invocations detect"
cmp_ok "$(grep -c 'repeats per side' "$C/cmpp.out")" -eq 0 "--power with files per side: no repeats-per-side figure"
# one file with repeats against another: repeat means too
run_bench "$C/cmp2.out" compare --power "$C/c1.json" "$C/c2.json"
is $? 0 "compare two repeat files: exit 0"
like "$C/cmp2.out" "^  hits: Welch's t-test on 2 \+ 2 repeat means" "two repeats per file are two observations"
like "$C/cmp2.out" '^Test: the per-repeat means are the observations' "the test's unit is said"
like "$C/cmp2.out" '^Not covered: the spread between invocations\.  Runs of one configuration minutes apart can differ by more than their repeats show; interleave several invocations per side \(A B A B \.\.\.\) and give them all' \
	"one file per side: the spread between invocations is not covered"
cmp_ok "$(grep -c '^Not covered' "$C/cmp2.out")" -eq 1 "said once, not per metric"
like "$C/cmp2.out" '^power: hits: ([0-9]+ repeats per side detect a 2\.00% change|more than 1000 repeats)' \
	"--power estimates repeats per side"
like "$C/cmp2.out" '^power: hits: in 5 minutes of runs \(150 repeats per side of 1 s\) the smallest change detectable at p < 0\.05 with 80% power is [0-9.]+%$' \
	"--power: what 5 minutes of runs detect"
# one run per side: the p-value's limits are said
# (started above)
par_wait "$C/one.out"
is $? 0 "count-local without repeats: exit 0"
run_bench "$C/cmp1.out" compare --verbose "$C/one.json" "$C/one.json"
is $? 0 "compare one run per side: exit 0"
like "$C/cmp1.out" 'variance between runs is unknown here, so the p-value covers within-run noise only' \
	"one run per side: between-run variance unknown"
cmp_ok "$(grep -c '^Not covered' "$C/cmp1.out")" -eq 0 "one run per side: its own wording only"
# one repeat on a side against several: the other side's spread is assumed
run_bench "$C/cmp3.out" compare --verbose "$C/one.json" -- "$C/c1.json" "$C/c2.json"
is $? 0 "one run against four repeats: exit 0"
like "$C/cmp3.out" "^  hits: t-test assuming the single-repeat side has the other side's between-repeat spread on 1 \+ 4 repeat means" \
	"one run against repeats: the assumption is said"
like "$C/cmp3.out" '^Not covered: the spread between invocations' \
	"one file against two: the spread between invocations is not covered"
# files with and without repeats on both sides: a file without repeats is
# one observation, its mean over samples; the same files on both sides
run_bench "$C/cmp4.out" compare --verbose "$C/one.json" "$C/c1.json" -- "$C/c1.json" "$C/one.json"
is $? 0 "mixed files per side: exit 0"
like "$C/cmp4.out" "^  hits: Welch's t-test on 2 \+ 2 invocation means \(the invocation is the unit: each file's mean of its repeat means, 1 to 2 per file; a file without repeats: its mean over samples\), df 2\.0;" \
	"mixed files per side: the file means are said"
like "$C/cmp4.out" '^hits \(M/s\) .* \+0\.00% +(\[[-+][0-9.]+, [-+][0-9.]+\]%|-|unbounded) +1\.0000  (within ±2%|undecided: 2 runs a side( resolve only changes above [0-9.]+%|: too noisy to bound the change))$' "mixed files, the same on both sides: within or undecided"
run_bench "$C/cmp5.out" compare --verbose "$C/one.json" "$C/one.json" -- "$C/one.json" "$C/one.json"
is $? 0 "files without repeats on both sides: exit 0"
like "$C/cmp5.out" "^  hits: Welch's t-test on 2 \+ 2 invocation means \(the invocation is the unit: each file's mean over its per-second samples\), df 2\.0; between-invocation CV 0\.00% / 0\.00%, within-invocation CV [0-9.]+% / [0-9.]+%$" \
	"files without repeats: a file's mean over its samples, no between-repeat level"

bad 2 "compare: empty new side" "compare: no NEW result file after '--'" \
	"$BENCH" compare "$C/c1.json" --
bad 2 "compare: empty base side" "compare: no BASE result file before '--'" \
	"$BENCH" compare -- "$C/c1.json"
# (started above)
par_wait "$C/g.out"
is $? 0 "count-global: exit 0"
bad 2 "compare: mixed benchmarks on one side" "benchmark 'count-global', but .*c1\.json on the same \(new\) side is 'count-local'" \
	"$BENCH" compare "$C/c1.json" -- "$C/c1.json" "$C/g.json"
jq '.options.runner.zero_seed = true' "$C/c2.json" >"$C/z.json"
bad 2 "compare: zero-seed against seeded" "options\.runner\.zero_seed true, but .*c1\.json has false: refusing to compare zero-seed and seeded" \
	"$BENCH" compare "$C/c1.json" "$C/z.json"
bad 2 "compare: zero-seed and seeded on one side" "zero_seed true, but .*c1\.json on the same \(base\) side has false" \
	"$BENCH" compare "$C/c1.json" "$C/z.json" -- "$C/c3.json"
run_bench "$C/zf.out" compare --force "$C/c1.json" "$C/z.json"
ok $? "--force compares zero-seed against seeded"
like "$C/zf.out" '^warning: one side used --zero-seed' "with a warning"

done_testing
