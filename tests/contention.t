#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every sample knows its contention: each producer's on-CPU share and
# involuntary switches, the machine's steal time.  A run whose producer was
# starved (here: a CPU hog pinned on the producer's CPU) is marked invalid
# in its result file, with a warning naming the share, and compare, ab's
# reader, history and plot leave it out, saying so, or keep it marked with
# --include-invalid.  A run that asks for more threads than it has CPUs is
# judged against each producer's fair share.
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
"$BENCH" plot scaling --table "$starved" "$starved" >/dev/null 2>"$TEST_TMP/p.err"
is $? 2 "plot scaling: no valid file (exit 2)"
like "$TEST_TMP/p.err" 'plot: left out 2 of 2 files as invalid runs .*--include-invalid keeps them' \
	"plot says what it left out, and how to keep it"
like "$TEST_TMP/starved.err" \
	'marked invalid .*--include-invalid keeps it in compare, plot, history add and export' \
	"the starvation warning says how to keep such a run"

# --include-invalid: kept, and marked wherever it shows (--force: the starved
# run was pinned, the good one not)
"$BENCH" compare --verbose --force --include-invalid "$good" "$starved" >"$TEST_TMP/ci" 2>"$TEST_TMP/ci.err"
is $? 0 "compare --include-invalid: the invalid run is compared (exit 0)"
like "$TEST_TMP/ci.err" "compare: kept $starved \\(--include-invalid\\), marked as an invalid run: producers starved" \
	"... named on stderr with its reason"
like "$TEST_TMP/ci" '^hits \(M/s\) .* \(!\) ' "... its side's column marked (!)"
like "$TEST_TMP/ci" "^\\(!\\) new run $starved is marked invalid, kept by --include-invalid: producers starved" \
	"... and the mark explained under the table"
"$BENCH" compare --force --json --include-invalid "$good" "$starved" >"$TEST_TMP/cj" 2>/dev/null
is $? 0 "compare --json --include-invalid: exit 0"
is "$(jq -c '[.invalid_runs[] | [.side, .file == "'"$starved"'", (.reason | startswith("producers starved"))]]' "$TEST_TMP/cj")" \
	'[["new",true,true]]' "compare --json: invalid_runs names the side, the file and the reason"
"$BENCH" compare --markdown --include-invalid "$starved" -- "$starved" >"$TEST_TMP/cm" 2>/dev/null
is $? 0 "compare --markdown --include-invalid: exit 0"
like "$TEST_TMP/cm" '\(!\) new run .* is marked invalid' "compare --markdown: the mark explained"
"$BENCH" history add --db "$TEST_TMP/hi.db" --include-invalid "$starved" >"$TEST_TMP/hi" 2>"$TEST_TMP/hi.err"
is $? 0 "history add --include-invalid: the invalid run is added (exit 0)"
like "$TEST_TMP/hi" "$starved: added as run 1 \\(!\\) \\(marked invalid\\)" "... marked in add's output"
"$BENCH" history list --db "$TEST_TMP/hi.db" >"$TEST_TMP/hl" 2>/dev/null
is $? 0 "history list of it: exit 0"
like "$TEST_TMP/hl" '^ +1 .*\(!\) invalid run$' "history list marks it"
"$BENCH" history list --json --db "$TEST_TMP/hi.db" >"$TEST_TMP/hlj" 2>/dev/null
is "$(jq -c '[.runs[].invalid]' "$TEST_TMP/hlj")" '[true]' "history list --json: invalid true"
"$BENCH" history show --db "$TEST_TMP/hi.db" >"$TEST_TMP/hs" 2>/dev/null
is $? 0 "history show of it: exit 0"
like "$TEST_TMP/hs" ' 1\(!\) +-$' "history show marks its run id (the base: no verdict after it)"
"$BENCH" export kcidb --origin bench_test --include-invalid "$starved" >"$TEST_TMP/k.json" 2>/dev/null
is $? 0 "export kcidb --include-invalid: exit 0"
is "$(jq -r '[.tests[].status] | unique | join(" ")' "$TEST_TMP/k.json") $(jq '[.tests[] | select(.number and .misc.invalid)] | length > 0' "$TEST_TMP/k.json")" \
	"ERROR true" "export kcidb --include-invalid: status ERROR, the figures kept with misc.invalid"
"$BENCH" export kcidb --origin bench_test "$starved" >"$TEST_TMP/k0.json" 2>/dev/null
is "$(jq '[.tests[] | select(.number)] | length' "$TEST_TMP/k0.json")" 0 \
	"export kcidb without it: no figure of an invalid run"
# a lone invalid run's timeline: drawn, the reason as its banner
"$BENCH" plot timeline --text -o "$TEST_TMP/t.txt" "$starved" >/dev/null 2>"$TEST_TMP/p.err"
is $? 0 "plot timeline --text of a lone invalid run: drawn (exit 0)"
like "$TEST_TMP/t.txt" 'INVALID RUN \(no figure of the kernel\): producers' "... with the reason as a banner"
like "$TEST_TMP/p.err" 'every file is an invalid run: drawn with its reason' "... saying so on stderr"
"$BENCH" plot timeline -o "$TEST_TMP/t.svg" "$starved" >/dev/null 2>/dev/null
is $? 0 "plot timeline -o t.svg of a lone invalid run: exit 0"
grep -q 'INVALID RUN' "$TEST_TMP/t.svg"
is $? 0 "... the SVG carries the banner"
"$BENCH" plot timeline --text -o "$TEST_TMP/t2.txt" "$good" "$starved" >/dev/null 2>"$TEST_TMP/p2.err"
is $? 0 "plot timeline of a valid and an invalid run: exit 0"
like "$TEST_TMP/p2.err" 'plot: left out 1 of 2 files as invalid runs' "... the invalid one left out"
"$BENCH" plot timeline --include-invalid --text -o "$TEST_TMP/t3.txt" "$good" "$starved" >/dev/null 2>/dev/null
is $? 0 "plot timeline --include-invalid of both: exit 0"
like "$TEST_TMP/t3.txt" 'INVALID RUN' "... the invalid one drawn under its banner"

# more threads than allowed CPUs, asked for by the run itself: each producer
# is judged against its fair share (here 2 producers pinned to the one CPU
# taskset allows: half a CPU each), with a note, not "the machine was busy"
fair=$TEST_TMP/fair.json
taskset -c "$cpu" "$BENCH" -w0 -d1 -p2 -a --min-cpu-share 80 --json "$fair" count-local \
	>"$TEST_TMP/fair" 2>"$TEST_TMP/fair.err"
is $? 0 "-p2 -a on one allowed CPU: exits 0"
schema_ok "$fair"
is "$(jq -c '.validity.fair_cpu_share' "$fair")" '[0.5,0.5]' \
	"validity.fair_cpu_share: half a CPU each (2 producers on 1 CPU)"
like "$TEST_TMP/fair.err" \
	'^note: the run has 2 threads \(2 producers, 0 consumers\) on 1 allowed CPU: a producer is judged against its fair share of a CPU \(down to 50%\)' \
	"a note says why, on stderr"
like <(jq -r '.validity.note' "$fair") 'judged against its fair share' "... and in validity.note"
# the verdict is the threshold times the fair share, whatever the load was
is "$(jq '.validity | .valid == ([.prod_cpu_share, .fair_cpu_share] | transpose
	| all(.[0] == null or .[0] >= 0.8 * .[1]))' "$fair")" true \
	"valid exactly when every producer ran 80% of its fair share"
if [ "$(jq '.validity.valid' "$fair")" = false ]; then
	like <(jq -r '.validity.reason' "$fair") 'ran less than 80% of their fair share \(50% of a CPU\)' \
		"starved below its fair share: the reason says so"
else
	! grep -q 'machine was busy' "$TEST_TMP/fair.err"
	ok $? "kept valid: no word of a busy machine"
fi
is "$(jq -c '.validity | [.fair_cpu_share, .note]' "$good")" '[[1],null]' \
	"one producer, one CPU: a fair share of a whole CPU, no note"

# decimals, and an empty BENCH_MIN_CPU_SHARE (the default, as unset)
run_bench "$TEST_TMP/dec" -w0 -d1 --min-cpu-share 80.5 --json "$TEST_TMP/dec.json" count-local
is $? 0 "--min-cpu-share 80.5: accepted"
is "$(jq '.validity.min_cpu_share' "$TEST_TMP/dec.json")" 0.805 "... the threshold is 80.5%"
BENCH_MIN_CPU_SHARE='' run_bench "$TEST_TMP/empty" -w0 -d1 --json "$TEST_TMP/empty.json" count-local
is $? 0 "BENCH_MIN_CPU_SHARE= (empty): accepted"
is "$(jq '.validity.min_cpu_share' "$TEST_TMP/empty.json")" 0.8 "... as unset: the default 80%"
BENCH_MIN_CPU_SHARE=12.25 run_bench "$TEST_TMP/envdec" -w0 -d1 --json "$TEST_TMP/envdec.json" count-local
is "$(jq '.validity.min_cpu_share' "$TEST_TMP/envdec.json")" 0.1225 "BENCH_MIN_CPU_SHARE=12.25: decimals"

# the threshold's refusals
run_bench "$TEST_TMP/bad" -w0 -d1 --min-cpu-share 101 count-local
is $? 64 "--min-cpu-share 101: refused as a usage error"
is "$(cat "$TEST_TMP/bad.err")" "invalid --min-cpu-share '101': expected a percentage in 0..100, decimals allowed" \
	"... in one line naming the value and what is accepted"
BENCH_MIN_CPU_SHARE=x run_bench "$TEST_TMP/bad2" -w0 -d1 count-local
is $? 64 "BENCH_MIN_CPU_SHARE=x: refused as a usage error"
is "$(cat "$TEST_TMP/bad2.err")" "invalid BENCH_MIN_CPU_SHARE 'x': expected a percentage in 0..100, decimals allowed" \
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
