#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench ab: the statistics and the stopping rule on a stand-in command
# writing chosen rates (tests/ab_standin.sh), so every figure is known;
# the budget, Ctrl-C, a failing invocation, bad arguments.  A real short
# run of count-local (no BPF) whose files bench compare reads is checked
# in tests/noise_scripts.t, on run_ab_goal.sh's A/A runs.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
STANDIN=$TESTS_DIR/ab_standin.sh
# The commands below exec the stand-in: sh -c would fork it and wait, one
# process more for each of some 300 invocations, each a wait for a CPU on
# a busy machine (make test's other lane): that, not CPU, was this test's
# time

# rates <name> <rate>...: a stand-in's list, one per call
rates() {
	local f=$TEST_TMP/$1
	shift
	printf '%s\n' "$@" >"$f"
	rm -f "$f.pos"
}

ab() {	# ab <out> <args...>: bench ab, stdout in <out>, stderr in <out>.err
	local out=$1
	shift
	"$BENCH" ab "$@" >"$out" 2>"$out.err"
}

# the figure after a label on the report's line, e.g. field out "change: B vs A"
field() {
	sed -nE "s/^$2 ([-+]?[0-9.]+)%.*/\1/p" "$1"
}

# The bench ab runs of cases 1 to 4, which take the file's time, run side
# by side (lib.sh, par_start: stdout in $TEST_TMP/<case>, stderr in
# <case>.err).  The cases are independent: each has its own rate files
# (<case>-a and <case>-b, with their .pos counts) and result directory,
# and reads nothing of another's; none is signalled or watched (Ctrl-C's
# run, case 5, which mostly sleeps, starts before them on rate files of
# its own, see there).  Each is CPU work (some 300 stand-in invocations
# in all) or a stand-in's sleeps: two at once on 2 CPUs, and the budget
# case's and Ctrl-C's sleeps beside the others' work.  Each
# case's checks below start the case PAR_WIDTH - 1 places further on
# (ab_next), then par_wait for their own run: the test reads an ended run
# while the next ones run.  The comment on each case, with its figures,
# is with its checks.
# ab_start <case> [VAR=value...] <bench ab args...>: the case's run, on its
# own rate files; the VAR=value words go to the stand-ins' environment,
# CMD_A and CMD_B before A's and B's exec
ab_start() {
	local c=$1 env=()
	shift
	while [[ ${1:-} == [A-Z]*=* ]]; do
		env+=("$1")
		shift
	done
	par_start "$TEST_TMP/$c" env "${env[@]}" "$BENCH" ab "$@" -o "$TEST_TMP/$c.d" \
		--cmd-a "${CMD_A:-}exec $STANDIN $TEST_TMP/$c-a" --cmd-b "${CMD_B:-}exec $STANDIN $TEST_TMP/$c-b"
}
# start_case <case>: its rate files and its run
# shellcheck disable=SC2046 # yes | head: one rate a word
start_case() {
	local b g
	case $1 in
	clear | clearj)	# 1. a clear change, in text and in JSON
		rates "$1-a" $(yes 100 | head -12)
		rates "$1-b" 110 110 110.5 109.5 109.8 110.2 110.1 109.9 110.3 109.7 110 110
		if [ "$1" = clear ]; then
			ab_start clear --test rank --blocks 6
		else
			ab_start clearj --json --test rank --blocks 6
		fi
		;;
	same)	# 2. no change
		rates same-a $(yes 100 | head -12)
		rates same-b 101 99 102 98.5 98 101.5 100.5 99.8 99.4 100.9 100.2 99.7
		ab_start same --test t --blocks 6
		;;
	drift)	# 3. drift
		for b in 0 1 2 3 4 5; do
			g=$((4 * b))
			echo "$((100 + g))" >>"$TEST_TMP/drift-a"
			echo "$((100 + g + 3))" >>"$TEST_TMP/drift-a"
			awk -v g=$g 'BEGIN { printf "%.6f\n%.6f\n", 1.05 * (100 + g + 1), 1.05 * (100 + g + 2) }' >>"$TEST_TMP/drift-b"
		done
		ab_start drift --blocks 6 --no-early-stop
		;;
	starved)	# 3b. a starved invocation (each call also notes its side and $BENCH_AB_BLOCK)
		rates starved-a 100 50 100 100 100 100 100 100 100 100
		rates starved-b 110 110 110 110 110 110 110 110 110 110
		CMD_A="echo A\$BENCH_AB_BLOCK >>$TEST_TMP/starved.blocks; STANDIN_INVALID=2 " \
			CMD_B="echo B\$BENCH_AB_BLOCK >>$TEST_TMP/starved.blocks; " \
			ab_start starved --alpha 0.25 --blocks 3 --no-early-stop
		;;
	speed | speed20 | speedoff | noref)	# 3d. the machine's speed changed; 20% apart; the off switch; no reference in B's
		rates "$1-a" $(yes 100 | head -8)
		rates "$1-b" 102 178.5 102 102 102 102 102 102
		local ref_b="STANDIN_REF=700 STANDIN_REF_2=900 " opts=()
		[ "$1" = speed20 ] && ref_b="STANDIN_REF=700 STANDIN_REF_2=840 "
		[ "$1" = speedoff ] && opts=(--no-speed-check)
		[ "$1" = noref ] && ref_b=""
		CMD_A="STANDIN_METRIC=op_ns STANDIN_REF=700 " CMD_B="STANDIN_METRIC=op_ns $ref_b" \
			ab_start "$1" --metric op_ns --test t --alpha 0.25 --blocks 3 --no-early-stop "${opts[@]}"
		;;
	starved.*)	# 3c. a starved invocation that is not marked, three tests
		rates "$1-a" $(yes 100 | head -18)
		rates "$1-b" 100.5 99.6 100.2 99.9 0.44 100.3 99.7 100.1 100.4 99.8 100 100.2 99.9 100.1 99.5 100.6 100 99.9
		ab_start "$1" --test "${1#starved.}" --blocks 9 --no-early-stop
		;;
	budget)	# 4. the budget
		rates budget-a $(seq 100 140)
		rates budget-b $(seq 100 140)
		ab_start budget STANDIN_SLEEP=0.4 --budget 4
		;;
	esac
}
# the cases in the order of their checks
CASES=(clear clearj same drift starved speed speed20 speedoff noref starved.t starved.rank starved.trimmed budget)
NEXT=0
ab_next() {	# ab_next: start the next case not started yet, if any
	[ "$NEXT" -lt ${#CASES[@]} ] || return 0
	start_case "${CASES[NEXT]}"
	NEXT=$((NEXT + 1))
}

# 5. Ctrl-C (its checks are in their place, below, after case 4b): a run
# of stand-ins that sleep 0.3 s each, and so mostly waits, started first
# beside the cases, not after them (it took 2 s of the file's time alone).
# Its own rate files (int-a, int-b), so that the stand-ins it looks for
# at the end are its own; a subshell of the test sends it SIGINT a little
# after its first block, while the test reads the cases
rates int-a $(seq 100 140)
rates int-b $(seq 100 140)
STANDIN_SLEEP=0.3 "${SIG_DEFAULT[@]}" "$BENCH" ab -o "$TEST_TMP/int.d" --cmd-a "exec $STANDIN $TEST_TMP/int-a" \
	--cmd-b "exec $STANDIN $TEST_TMP/int-b" >"$TEST_TMP/int" 2>"$TEST_TMP/int.err" &
INT_PID=$!
watchdog $INT_PID
INT_WD=$WATCHDOG
(
	trap - EXIT
	for _ in $(seq 100); do
		grep -q '^ab: block 1:' "$TEST_TMP/int.err" && break
		sleep 0.1
	done
	sleep 0.15
	kill -INT $INT_PID
) &
INT_KILLER=$!

for ((i = 1; i < PAR_WIDTH; i++)); do
	ab_next
done

# 1. a clear change: A 100 throughout, B about 110, with --test rank.
# Blocks (A B B A) of log ratios: ln 1.10 = 0.0953102; (ln 1.105 + ln
# 1.095) / 2 = 0.0952998; (ln 1.098 + ln 1.102) / 2 = 0.0953085; ...
# all near 0.0953, +10.00%.  With --blocks 6 the first look (block 3) is
# at t = 0.5: O'Brien-Fleming spends 2 (2 - 2 Phi(2.2414 / sqrt 0.5)) =
# 0.00305, and below 2^(1 - n) no interval rests on the data: 0.00305
# needs 10 blocks (2^-9 = 0.00195), so blocks 3 to 5 give no interval
# ("too few pairs") and cannot decide.  At block 6 (the last, which spends
# what is left) six blocks all above 0 have signed-rank p = 2 / 2^6 =
# 0.03125 and the interval [W(1), W(21)] = [smallest, largest block]
# (P(T <= 0) = 1/64 <= level / 2): better, both ends about +10%.
# (its run: start_case, above)
ab_next
par_wait "$TEST_TMP/clear"
is $? 0 "a clear change: exit 0"
is "$(field "$TEST_TMP/clear" 'change: B vs A')" "+10.00" "the estimate is the blocks' Hodges-Lehmann estimate, +10.00%"
like "$TEST_TMP/clear" '^verdict: better \(significant: the interval leaves out 0; at least the 2% threshold\)$' "verdict: better"
like "$TEST_TMP/clear" '^used: 6 blocks, 12 pairs, 24 invocations, .*; stopped: decided$' \
	"decided at block 6, the first with an interval at its level"
like "$TEST_TMP/clear" 'repeated confidence interval \+(9\.9[0-9]|10\.00)% \.\. \+10\.0[0-9]%; signed-rank p 0\.0312 against ' \
	"the interval is [smallest, largest block], p 2/64"
like "$TEST_TMP/clear.err" '^ab: block 3: 6 pairs, 12 invocations, [0-9]+m[0-9]+s: B/A \+10\.00% \(too few pairs for a 95% RCI: 3 blocks, an interval at level 0\.00305 needs 10; ' \
	"block 3: the first look's level 0.00305 as worked out by hand, and no interval at it from 3 blocks"
is "$(grep -c '^ab: block [0-9]*: ' "$TEST_TMP/clear.err")" 6 "one progress line per block on stderr"
like "$TEST_TMP/clear" "^  that is the run's resolution, not a bound on the change: the change found, 10\.00%, is (larger|smaller) than it and significant" \
	"the smallest change detectable says what it means beside a change found"
is "$(find "$TEST_TMP/clear.d" -name 'pair-*.json' | wc -l)" 24 "every result file is kept"
is "$(cat "$TEST_TMP/clear-b.pos")" 12 "B ran exactly 12 times"
is "$(cat "$TEST_TMP/clear.d/ab.txt")" "$(tail -n +2 "$TEST_TMP/clear")" "the report is kept in the directory too"
# the report as JSON: ab.json beside ab.txt, with the text's verdict and figures
j=$TEST_TMP/clear.d/ab.json
is "$(jq -r '[.schema, .schema_version, .command, .verdict, .test, .blocks, .pairs, .invocations, .stopped] | join(" ")' "$j")" \
	"bench-cli 1 ab better rank 6 12 24 decided" "ab.json: the envelope, the verdict, the test and the counts as the text's"
is "$(jq -r '.change_pct * 100 | round / 100' "$j")" "10" "ab.json: the change, +10%"
jq -e '.interval_pct[0] > 0 and .interval_pct[1] >= .interval_pct[0] and .p < 0.05' "$j" >/dev/null
is $? 0 "ab.json: an interval above 0 and p below 0.05, as the verdict"
is "$(jq -r '.a.shell' "$j")" "exec $STANDIN $TEST_TMP/clear-a" "ab.json: A's command"
# which design ran (the interleaved one's words: tests/ab_interleaved.t)
like "$TEST_TMP/clear" '^ab: A and B in blocks of A B B A, result files in ' "the first line says the design: blocks"
like "$TEST_TMP/clear" '^design: blocks of A B B A, each block.s mean log\(B/A\) one observation; ' \
	"the design line says blocks"
is "$(jq -r '.design + " " + (.slice_ms | tostring)' "$j")" "blocks null" "ab.json: design blocks, no slice"
# the same case with --json
ab_next
par_wait "$TEST_TMP/clearj"
is $? 0 "--json: exit 0"
is "$(wc -l <"$TEST_TMP/clearj")" 1 "--json: stdout is one line"
is "$(jq -r '.verdict' "$TEST_TMP/clearj")" "better" "--json: the report as JSON"
is "$(jq -r '.design' "$TEST_TMP/clearj")" "blocks" "--json: the design, blocks"
like "$TEST_TMP/clearj.err" '^ab: block 6: ' "--json: the progress lines stay on stderr"
grep -q '^verdict:' "$TEST_TMP/clearj"
is $? 1 "--json: no text report on stdout"

# the same verdict everywhere: bench compare (the ratio of the means), compare
# --paired, compare --paired --rank and plot compare on ab's files
A_FILES=("$TEST_TMP"/clear.d/pair-*-A.json)
B_FILES=("$TEST_TMP"/clear.d/pair-*-B.json)
for how in "" "--paired" "--paired --rank" "--paired --trimmed"; do
	# shellcheck disable=SC2086
	is_exit 0 "compare $how reads ab's files" "$BENCH" compare --verbose $how "${A_FILES[@]}" -- "${B_FILES[@]}"
	like "$TEST_TMP/is_exit.out" '^hits \(M/s\) .* \+10\.0% +\[\+[0-9.]+, \+[0-9.]+\]% +<?[0-9.]+ +better$' \
		"compare $how: better, +10.0%, an interval above 0, as ab"
done
if command -v gnuplot >/dev/null; then
	for how in "--paired --rank" "--paired --trimmed"; do
		# shellcheck disable=SC2086
		is_exit 0 "plot compare $how draws them" \
			"$BENCH" plot compare $how "${A_FILES[@]}" -- "${B_FILES[@]}" -o "$TEST_TMP/clear.svg"
		like "$TEST_TMP/clear.svg" '>better<' "plot compare $how: better, as ab and compare"
	done
fi

# 2. no change: A/A with noise, --test t.  Six blocks: the interval of
# their mean at the last look lies inside ±2%: within
ab_next
par_wait "$TEST_TMP/same"
is $? 0 "no change: exit 0"
like "$TEST_TMP/same" '^verdict: within ±2%: no change of 2% or more' "verdict: within ±2%"
n=$(sed -nE 's/^used: ([0-9]+) blocks.*/\1/p' "$TEST_TMP/same")
want=$(head -n $((2 * n)) "$TEST_TMP/same-b" | awk -v n="$n" '{ s += log($1 / 100) } END { printf "%+.2f", (exp(s / (2 * n)) - 1) * 100 }')
is "$(field "$TEST_TMP/same" 'change: B vs A')" "$want" "the estimate is the mean log ratio of the $n blocks used ($want%)"
read -r lo hi < <(sed -nE 's/^change: .*interval ([-+][0-9.]+)% \.\. ([-+][0-9.]+)%.*/\1 \2/p' "$TEST_TMP/same")
assert "its interval $lo .. $hi lies inside ±2%" awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l > -2 && h < 2 && l < h) }'
like "$TEST_TMP/same" "^  a change of that size or more would have been found 4 times in 5" \
	"beside no change found, the smallest change detectable says what it means"

# 3. drift cancels: every invocation 1% faster than the one before, B 5%
# above A.  In a block at a, A runs at a and a + 3, B at a + 1 and a + 2,
# so each block's two log ratios carry +1% and -1% of drift: the estimate
# stays at 5.00% (within 0.02%), where A B pairs alone would say about 6%.
ab_next
par_wait "$TEST_TMP/drift"
is $? 0 "a drifting machine: exit 0"
est=$(field "$TEST_TMP/drift" 'change: B vs A')
assert "the drift cancels: +5% estimated as $est%" awk -v e="$est" 'BEGIN { exit !(e >= 4.98 && e <= 5.02) }'
like "$TEST_TMP/drift" '^used: 6 blocks, 12 pairs, 24 invocations, .*; stopped: decided$' \
	"--no-early-stop runs every block, and decides at the last"
like "$TEST_TMP/drift" 'one look, at the end \(--no-early-stop\)' "and says it tested once"
like "$TEST_TMP/drift" '(against|level) 0\.05 of look 1\)$' "the one look is the fixed test at 0.05"

# 3b. a starved invocation: A's second call (the last of block 1) is
# marked invalid; the whole block is left out, its four files renamed
# invalid-pair-*, and it runs again as pairs 3 and 4; the rates used are
# A's calls 3-8 and B's 3-8, so the starved rate (50) moves nothing
# (--alpha 0.25: a test from 3 blocks, 2^-2 <= 0.25; at 0.05 it needs 6)
# (each call also notes its side and $BENCH_AB_BLOCK)
ab_next
par_wait "$TEST_TMP/starved"
is $? 0 "a starved invocation: exit 0"
is "$(tr '\n' ' ' <"$TEST_TMP/starved.blocks")" "A1 B1 B1 A1 A2 B2 B2 A2 A3 B3 B3 A3 A4 B4 B4 A4 " \
	"BENCH_AB_BLOCK: the four invocations of a block share its number; the re-run block gets a new one"
like "$TEST_TMP/starved.err" "^ab: left out $TEST_TMP/starved.d/invalid-pair-002-A.json: invalid run: producers starved" \
	"ab names the invalid file and why"
like "$TEST_TMP/starved.err" '^ab: block of pairs 1-2 left out: .*; the block runs again$' "and leaves its block out"
like "$TEST_TMP/starved" '^left out: 1 block with an invalid invocation' "the report says so"
like "$TEST_TMP/starved" '^used: 3 blocks, 6 pairs, 16 invocations' "3 blocks tested, 16 invocations run"
is "$(field "$TEST_TMP/starved" 'change: B vs A')" "+10.00" "the starved rate (50) moves nothing"
is "$(find "$TEST_TMP/starved.d" -name 'invalid-pair-*.json' | wc -l)" 4 \
	"the left-out block's four files are renamed"
is "$(find "$TEST_TMP/starved.d" -name 'pair-*.json' | wc -l)" 12 "12 tested files keep their names"
is_exit 0 "bench compare --paired reads the tested pairs" \
	"$BENCH" compare --paired "$TEST_TMP"/starved.d/pair-*-A.json -- "$TEST_TMP"/starved.d/pair-*-B.json

# 3d. the machine's speed changed between A and B (op_ns, with the
# --latency reference loop): A's calls all time the reference at 700 ns
# (median 701.5, bucket [700, 704)), B's too but its second (pair 2 of
# block 1) at 900 ns (901.5, bucket [900, 904)): 901.5 / 701.5 = 1.2851,
# 1.29x, beyond 1.25x, so the block is left out once A's second
# call ends it and runs again as pairs 3 and 4.  B's second op_ns, 178.5
# (x1.75, a slow phase), then moves nothing: B/A is 102/100 in every pair
# used, +2.00%
ab_next
par_wait "$TEST_TMP/speed"
is $? 0 "the machine's speed changed: exit 0"
like "$TEST_TMP/speed.err" "^ab: block of pairs 1-2 left out: the machine's speed changed between A and B of pair 2: the reference loop took 701\.5 ns in A, 901\.5 ns in B \(the slower 1\.29x the faster, beyond 1\.25x; --no-speed-check keeps such blocks\); the block runs again$" \
	"one line names the pair, both references and why"
is "$(grep -c 'left out' "$TEST_TMP/speed.err")" 1 "and only that block is left out"
like "$TEST_TMP/speed" '^left out: 1 block whose A and B ran at different machine speeds \(the slower reference loop beyond 1\.25x the faster\); their files are .*/invalid-pair-\*$' \
	"the report counts it apart from starved blocks"
grep -q '^left out: .*invalid invocation' "$TEST_TMP/speed"
is $? 1 "no starved block is counted"
like "$TEST_TMP/speed" '^used: 3 blocks, 6 pairs, 16 invocations' "the block ran again: 3 blocks tested, 16 invocations"
is "$(field "$TEST_TMP/speed" 'change: B vs A')" "+2.00" "the slow phase's op_ns (178.5) moves nothing: +2.00%"
is "$(find "$TEST_TMP/speed.d" -name 'invalid-pair-*.json' | wc -l)" 4 "the left-out block's four files are renamed"
is "$(jq -r '[.left_out_speed_blocks, .left_out_blocks, .speed_check, .speed_unchecked_pairs] | join(" ")' "$TEST_TMP/speed.d/ab.json")" \
	"1 0 true 0" "ab.json: one block left out for speed, none starved, the check on, every pair checked"
# 20% apart (840 ns: median 841.5, 841.5 / 701.5 = 1.1996) is kept
ab_next
par_wait "$TEST_TMP/speed20"
is $? 0 "references 20% apart: exit 0"
like "$TEST_TMP/speed20" '^used: 3 blocks, 6 pairs, 12 invocations' "references 20% apart: nothing left out"
# the off switch: the block is kept, and B's 178.5 moves the mean: blocks
# (ln 1.02 + ln 1.785) / 2 = 0.299611 and ln 1.02 twice, mean 0.113072: +11.97%
ab_next
par_wait "$TEST_TMP/speedoff"
is $? 0 "--no-speed-check: exit 0"
like "$TEST_TMP/speedoff" '^used: 3 blocks, 6 pairs, 12 invocations' "--no-speed-check: nothing left out"
like "$TEST_TMP/speedoff" '^speed check: off \(--no-speed-check\)' "--no-speed-check: the report says the check was off"
is "$(field "$TEST_TMP/speedoff" 'change: B vs A')" "+11.97" "--no-speed-check: the slow phase moves the estimate to +11.97%"
is "$(jq -r '[.left_out_speed_blocks, .speed_check] | join(" ")' "$TEST_TMP/speedoff.d/ab.json")" "0 false" \
	"--no-speed-check: ab.json says the check was off"
# files without the reference (an older bench, another binary): not
# checked, said once on stderr, counted in the report
ab_next
par_wait "$TEST_TMP/noref"
is $? 0 "no reference in B's files: exit 0"
like "$TEST_TMP/noref.err" "^ab: pair 1: B's file has no machine-speed reference \(latency\.reference: .*\): pairs without one are not speed-checked \(said once\)$" \
	"no reference: ab says the pairs are not checked"
is "$(grep -c 'no machine-speed reference' "$TEST_TMP/noref.err")" 1 "no reference: said once"
like "$TEST_TMP/noref" '^speed check: 6 pairs not checked: a file without the machine-speed reference' \
	"no reference: the report counts the 6 pairs not checked"
like "$TEST_TMP/noref" '^used: 3 blocks, 6 pairs, 12 invocations' "no reference: nothing left out"
# a throughput metric is not checked: the reference is for BPF-timed ones
grep -q '^speed check\|machine speeds' "$TEST_TMP/starved"
is $? 1 "hits (not timed in BPF): no speed check line"

# 3c. a starved invocation that is not marked (kept, e.g. with
# --min-cpu-share 1): A/A near 100, one B at 0.44 (its producer
# hardly ran).  Its pair's log ratio is ln 0.0044 = -5.43, its block's
# -2.7: the mean of 9 blocks moves by -0.30 (-26%), the Hodges-Lehmann
# estimate by one rank of the Walsh averages
for t in t rank trimmed; do
	ab_next
	par_wait "$TEST_TMP/starved.$t"
	is $? 0 "a starved invocation, --test $t: exit 0"
done
est=$(field "$TEST_TMP/starved.t" 'change: B vs A')
assert "the mean of the blocks moves by the starved one: $est%" awk -v e="$est" 'BEGIN { exit !(e < -20) }'
est=$(field "$TEST_TMP/starved.rank" 'change: B vs A')
assert "the Hodges-Lehmann estimate does not: $est%" awk -v e="$est" 'BEGIN { exit !(e > -1 && e < 1) }'
# its interval reaches far down (9 of the 45 Walsh averages hold the
# starved block): no false alarm, and not "within" either
like "$TEST_TMP/starved.rank" '^verdict: undecided' "and it raises no false alarm"
# the 20% trimmed mean of 9 blocks leaves out the lowest and the highest:
# the starved block is gone, and the interval closes inside ±2%
est=$(field "$TEST_TMP/starved.trimmed" 'change: B vs A')
assert "the trimmed mean does not move either: $est%" awk -v e="$est" 'BEGIN { exit !(e > -1 && e < 1) }'
like "$TEST_TMP/starved.trimmed" '^verdict: within ±2%' "and its interval says within ±2%"

# 4. the budget: invocations of at least 0.4 s, a budget of 4 s.  After
# the first block (>= 1.6 s) the 6 blocks a test at 0.05 needs cannot fit
# (>= 9.6 s): refused as a bad argument, with the budget it needs
ab_next
par_wait "$TEST_TMP/budget"
is $? 2 "a budget too short for a test: exit 2"
like "$TEST_TMP/budget.err" '^invalid --budget 0m04s: too short for the first look that can decide: the first block took [0-9.]+ s and a test at alpha 0\.05 needs 6 blocks; give --budget [0-9]+s or more$' \
	"it says the budget it needs"
like "$TEST_TMP/budget" '^used: 1 blocks, .*; stopped: the budget is too short for a test$' "after one block"
is_exit 2 "bench options: a short budget is refused before anything runs" \
	"$BENCH" ab --budget 10 -o "$TEST_TMP/short.d" -- -w1 -d2 count-local -- -w1 -d2 count-local
is "$(cat "$TEST_TMP/is_exit.err")" "invalid --budget 0m10s: too short for the first look that can decide: 6 blocks of 4 invocations of at least 3 s each (repeats x (-w + -d)) need 72 s and their set-up; give --budget 90s or more" \
	"the least it needs, from -w and -d: 6 x 4 x 3 s"
assert "nothing ran" [ ! -e "$TEST_TMP/short.d/pair-001-A.json" ]

# 4b. --metric that does not exist: the metrics that do; the default
# directory is a new one under TMPDIR, not the current one
rates a $(seq 100 140)
rates b $(seq 100 140)
mkdir "$TEST_TMP/cwd"
(cd "$TEST_TMP/cwd" && TMPDIR="$TEST_TMP" "$BENCH" ab --metric bogus \
	--cmd-a "exec $STANDIN $TEST_TMP/a" --cmd-b "exec $STANDIN $TEST_TMP/b" >"$TEST_TMP/metric" 2>"$TEST_TMP/metric.err")
is $? 2 "--metric bogus: exit 2"
like "$TEST_TMP/metric.err" "^invalid --metric 'bogus': .*pair-001-A\.json has no such metric; it has: hits$" \
	"it lists the metrics there are"
is "$(find "$TEST_TMP/cwd" -mindepth 1 | wc -l)" 0 "nothing written in the current directory"
is "$(find "$TEST_TMP" -maxdepth 1 -name 'bench-ab-*' -type d | wc -l)" 1 "the results went to a new directory under TMPDIR"
like "$TEST_TMP/metric" "^ab: A and B in blocks of A B B A, result files in $TEST_TMP/bench-ab-" "and it says where"

# 5. Ctrl-C: what it has so far is printed, the files stay, the child got
# SIGINT and was reaped.  (The run and its SIGINT: at the top.)
par_wait_all
wait $INT_KILLER
WATCHDOG=$INT_WD
reap $INT_PID
is $? 130 "SIGINT: exit 130"
like "$TEST_TMP/int" '; stopped: interrupted by SIGINT$' "the report says it was interrupted"
like "$TEST_TMP/int" '^verdict: undecided' "and that nothing was decided"
cmp_ok "$(find "$TEST_TMP/int.d" -name 'pair-*.json' | wc -l)" -ge 4 "the result files stay"
is "$(pgrep -f "$TEST_TMP/[i]nt-[ab]" | wc -l)" 0 "no stand-in is left running"

# 6. a failing invocation ends it with exit 1, naming its output: the
# second call of each side fails, and B's comes first (A B B A)
rates a $(seq 100 140)
rates b $(seq 100 140)
STANDIN_FAIL=2 ab "$TEST_TMP/fail" -o "$TEST_TMP/fail.d" \
	--cmd-a "exec $STANDIN $TEST_TMP/a" --cmd-b "exec $STANDIN $TEST_TMP/b"
is $? 1 "a failed invocation: exit 1"
like "$TEST_TMP/fail.err" "^ab: B of pair 2 failed \(exit 3\); its output, .*/failed-pair-002-B\.log, ends:$" \
	"it names the invocation and its log"
like "$TEST_TMP/fail.err" 'failing call 2 as asked' "and shows the log's tail"

# 7. bad arguments: exit 2 and one line, nothing run
for args in "" "--budget 0 --cmd-a true --cmd-b true" "--budget 5x --cmd-a true --cmd-b true" \
	"--blocks 2 --cmd-a true --cmd-b true" "--cmd-a true" "-- -w0 -d1 count-local --" \
	"--cmd-a true --cmd-b true -- -d1 count-local -- -d1 count-local" "--spending wald --cmd-a true --cmd-b true" \
	"--test mean --cmd-a true --cmd-b true" "--blocks 4 --cmd-a true --cmd-b true" \
	"-w1 -d2 count-local -- -w1 count-local -- -w1 count-local"; do
	# shellcheck disable=SC2086
	is_exit 2 "bench ab $args: exit 2" "$BENCH" ab -o "$TEST_TMP/bad.d" $args
	is "$(wc -l <"$TEST_TMP/is_exit.err")" 1 "bench ab $args: one line: $(head -1 "$TEST_TMP/is_exit.err")"
done
ok "$(! test -e "$TEST_TMP/bad.d/pair-001-A.json"; echo $?)" "bad arguments ran nothing"
is_exit 2 "a run's option before '--'" "$BENCH" ab -w1 -d2 htab-mem
like "$TEST_TMP/is_exit.err" "^ab: '-w1' is not an option of ab: the runs' options go after '--'" "... says where the options go"
"$BENCH" ab --help >"$TEST_TMP/help"
like "$TEST_TMP/help" "Where the options go:" "ab --help says where the options go"
mkdir "$TEST_TMP/used.d" && touch "$TEST_TMP/used.d/pair-001-A.json"
is_exit 2 "a directory that holds results is refused" "$BENCH" ab -o "$TEST_TMP/used.d" --cmd-a true --cmd-b true

# 8. a real short run, count-local against itself: tests/noise_scripts.t
# checks it on the A/A runs of benchs/run_ab_goal.sh, which are that run
# (bench ab --alpha 0.25 --blocks 3 -- -w0 -d1 count-local -- -w0 -d1 count-local)
done_testing
