#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every sample knows its contention: each producer's on-CPU share and
# involuntary switches, the machine's steal time.  A run whose producer was
# starved (here: a CPU hog pinned on the producer's CPU) is marked invalid
# in its result file, with a warning naming the share, and compare, ab's
# reader, history and plot leave it out, saying so.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

cpu=$(awk '{ n = split($0, a, ","); split(a[n], r, "-"); print (r[2] != "" ? r[2] : r[1]) }' \
	/sys/devices/system/cpu/online)
hog_pid=""
stop_hog() { [ -n "$hog_pid" ] && kill "$hog_pid" 2>/dev/null; wait "$hog_pid" 2>/dev/null; hog_pid=""; }
trap 'stop_hog; rm -rf "$TEST_TMP"' EXIT

# a valid run: no threshold (lib.sh's default for tests)
good=$TEST_TMP/good.json
run_bench "$TEST_TMP/good" -w0 -d1 --json "$good" count-local
is $? 0 "count-local: exits 0"
schema_ok "$good"
is "$(jq -c '.validity | [.valid, .reason, .min_cpu_share]' "$good")" '[true,null,0]' \
	"--min-cpu-share 0: the run is valid whatever the load"
is "$(jq '[.samples[].contention.prod_cpu_share | length] | unique | .[]' "$good")" 1 \
	"every sample: one on-CPU share per producer"
jq -e '[.samples[].contention.prod_cpu_share[0]] | all(. != null and . > 0 and . <= 1.05)' \
	"$good" >/dev/null
is $? 0 "the share of a producer that ran is in (0, 1]"
jq -e '[.samples[].contention.prod_nivcsw[0]] | all(. != null and . >= 0)' "$good" >/dev/null
is $? 0 "involuntary context switches are counted per sample"
jq -e '[.samples[].contention.steal_share] | all(. == null or (. >= 0 and . <= 1))' "$good" >/dev/null
is $? 0 "the steal share is a share or null"

# a starved run: a hog on the CPU the producer is pinned to
taskset -c "$cpu" sh -c 'while :; do :; done' &
hog_pid=$!
starved=$TEST_TMP/starved.json
run_bench "$TEST_TMP/starved" -w0 -d1 --prod-affinity "$cpu" --min-cpu-share 95 --json "$starved" count-local
is $? 0 "a starved run still exits 0: its figures are kept, marked"
stop_hog
schema_ok "$starved"
is "$(jq '.validity.valid' "$starved")" false "validity.valid is false"
jq -r '.validity.reason' "$starved" >"$TEST_TMP/reason"
like "$TEST_TMP/reason" \
	'^producers starved: 1 of 1 ran less than 95% of their measured time \(#0 [0-9.]+%\)$' \
	"validity.reason names the producer, its share and the threshold"
like "$TEST_TMP/starved.err" \
	'warning: producers starved: 1 of 1 ran less than 95% .* marked invalid' \
	"stderr warns, naming the share"
is "$(jq '.warnings | map(select(startswith("producers starved"))) | length' "$starved")" 1 \
	"the warning is in the JSON too"

# the readers leave it out, saying so
"$BENCH" compare "$good" -- "$good" "$starved" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err"
is $? 0 "compare: one valid new file is enough"
like "$TEST_TMP/cmp.err" "compare: left out $starved: invalid run: producers starved" \
	"compare names the file it left out and why"
like "$TEST_TMP/cmp.err" 'compare: left out 0 of 1 base and 1 of 2 new files as invalid runs' \
	"compare counts what it left out"
"$BENCH" compare "$starved" -- "$good" >/dev/null 2>"$TEST_TMP/cmp2.err"
is $? 2 "compare: no valid base file is bad input (exit 2)"
like "$TEST_TMP/cmp2.err" 'compare: no valid base file left: nothing to compare' \
	"... saying so"
"$BENCH" compare --paired "$good" "$good" "$good" -- "$good" "$good" "$starved" >/dev/null 2>"$TEST_TMP/cmp3.err"
is $? 0 "compare --paired: two valid pairs are compared"
like "$TEST_TMP/cmp3.err" 'left out 1 of 3 base and 1 of 3 new files .*, whole pairs' \
	"compare --paired leaves out whole pairs"
"$BENCH" history add --db "$TEST_TMP/h.db" "$starved" >/dev/null 2>"$TEST_TMP/h.err"
is $? 2 "history add of an invalid run alone: nothing added (exit 2)"
like "$TEST_TMP/h.err" 'history add: left out 1 of 1 files as invalid runs' \
	"history add says what it left out"
"$BENCH" history add --db "$TEST_TMP/h.db" "$good" "$starved" >"$TEST_TMP/h2" 2>"$TEST_TMP/h2.err"
is $? 0 "history add: the valid file is added"
like "$TEST_TMP/h2" "$good: added as run" "... and only it"
"$BENCH" plot timeline -o "$TEST_TMP/t.svg" "$starved" >/dev/null 2>"$TEST_TMP/p.err"
is $? 2 "plot: no valid file (exit 2)"
like "$TEST_TMP/p.err" 'plot: left out 1 of 1 files as invalid runs' "plot says what it left out"
[ ! -e "$TEST_TMP/t.svg" ]
is $? 0 "plot wrote no picture"

# the threshold's refusals
run_bench "$TEST_TMP/bad" -w0 -d1 --min-cpu-share 101 count-local
is $? 64 "--min-cpu-share 101: refused as a usage error"
is "$(cat "$TEST_TMP/bad.err")" "invalid --min-cpu-share '101': expected a percentage in 0..100" \
	"... in one line naming the value and what is accepted"
BENCH_MIN_CPU_SHARE=x run_bench "$TEST_TMP/bad2" -w0 -d1 count-local
is $? 64 "BENCH_MIN_CPU_SHARE=x: refused as a usage error"
is "$(cat "$TEST_TMP/bad2.err")" "invalid BENCH_MIN_CPU_SHARE 'x': expected a percentage in 0..100" \
	"... in one line"

# BENCH_TEST_THREAD_NICE (lib.sh gives every test 15): the producer and
# consumer threads at that nice value, the main thread (sampling) as started
BENCH_TEST_THREAD_NICE=20 run_bench "$TEST_TMP/bad3" -w0 -d1 count-local
is $? 64 "BENCH_TEST_THREAD_NICE=20: refused as a usage error"
is "$(cat "$TEST_TMP/bad3.err")" "invalid BENCH_TEST_THREAD_NICE '20': expected a nice value in 0..19" \
	"... in one line"
"${SIG_DEFAULT[@]}" env BENCH_TEST_THREAD_NICE=7 "$BENCH" -w0 -d30 -p2 count-local \
	>"$TEST_TMP/nice" 2>"$TEST_TMP/nice.err" &
pid=$!
watchdog "$pid"
wait_iter "$TEST_TMP/nice" "$pid"
ok $? "BENCH_TEST_THREAD_NICE=7: the run samples"
# field 19 of a task's stat is its nice value (the name, "bench", has no space)
is "$(for t in /proc/"$pid"/task/*; do
	[ "${t##*/}" = "$pid" ] && echo "main $(cut -d' ' -f19 "$t/stat")" || echo "thread $(cut -d' ' -f19 "$t/stat")"
done | sort | uniq -c | awk '{ $1 = $1; print }' | paste -sd,)" "1 main 0,2 thread 7" \
	"BENCH_TEST_THREAD_NICE=7: the two producers at nice 7, the main thread at 0"
kill -INT "$pid"
reap "$pid"
is $? 130 "BENCH_TEST_THREAD_NICE=7: SIGINT ends the run (130)"

# a reader refuses an invalid mark without its reason
jq '.validity = {valid: false, reason: null, min_cpu_share: 0.8, prod_cpu_share: [0.1]}' "$good" \
	>"$TEST_TMP/noreason.json"
"$BENCH" compare "$TEST_TMP/noreason.json" "$good" >/dev/null 2>"$TEST_TMP/nr.err"
is $? 2 "a file marked invalid without a reason is refused"
like "$TEST_TMP/nr.err" 'validity.reason: expected why the run is invalid' "... naming the field"

done_testing
