#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench ab: the statistics and the stopping rule on a stand-in command
# writing chosen rates (tests/ab_standin.sh), so every figure is known;
# the budget, Ctrl-C, a failing invocation, bad arguments; then one real
# short run of count-local (no BPF) whose files bench compare reads.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
STANDIN=$(cd "$(dirname "$0")" && pwd)/ab_standin.sh

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

# 1. a clear change: A 100 throughout, B about 110.  Blocks (A B B A) of
# log ratios: ln 1.10 = 0.0953102; (ln 1.105 + ln 1.095) / 2 = 0.0952998;
# (ln 1.098 + ln 1.102) / 2 = 0.0953085; mean 0.0953062, +9.9996%.  With
# --blocks 6 the first look (block 3) is at t = 0.5: O'Brien-Fleming
# spends 2 (2 - 2 Phi(2.2414 / sqrt 0.5)) = 0.00305, and t on 2 df at that
# level is 18.06, far below these blocks' t: it stops at block 3.
rates a 100 100 100 100 100 100
rates b 110 110 110.5 109.5 109.8 110.2
ab "$TEST_TMP/clear" --blocks 6 -o "$TEST_TMP/clear.d" \
	--cmd-a "$STANDIN $TEST_TMP/a" --cmd-b "$STANDIN $TEST_TMP/b"
is $? 0 "a clear change: exit 0"
is "$(field "$TEST_TMP/clear" 'change: B vs A')" "+10.00" "the estimate is the mean block log ratio, +10.00%"
like "$TEST_TMP/clear" '^verdict: better \(significant; at least the 2% threshold\)$' "verdict: better"
like "$TEST_TMP/clear" '^used: 3 blocks, 6 pairs, 12 invocations, .*; stopped: decided$' \
	"stopped at the first look, block 3, after 12 invocations"
like "$TEST_TMP/clear" 'against 18\.06, the level 0\.00305 of look 1\)$' \
	"the first look's level (0.00305) and t bound (18.06) as worked out by hand"
is "$(grep -c '^ab: block [0-9]*: ' "$TEST_TMP/clear.err")" 3 "one progress line per block on stderr"
like "$TEST_TMP/clear.err" '^ab: block 3: 6 pairs, 12 invocations, [0-9]+m[0-9]+s: B/A \+10\.00% \(95% RCI \+9\.99% \.\. \+10\.01%; ' \
	"a progress line: n, estimate, interval"
is "$(find "$TEST_TMP/clear.d" -name 'pair-*.json' | wc -l)" 12 "every result file is kept"
is "$(cat "$TEST_TMP/b.pos")" 6 "B ran exactly 6 times"
is_exit 0 "bench compare reads the directory's files" \
	"$BENCH" compare "$TEST_TMP"/clear.d/pair-*-A.json -- "$TEST_TMP"/clear.d/pair-*-B.json
like "$TEST_TMP/is_exit.out" '^hits \(M/s\) .* \+10\.00% .* better$' "and finds the same +10.00%"
is "$(cat "$TEST_TMP/clear.d/ab.txt")" "$(tail -n +2 "$TEST_TMP/clear")" "the report is kept in the directory too"

# 2. no change: A/A with noise; the blocks' log ratios average near 0
# and the interval closes inside ±2% by the last look at the latest
rates a 100 100 100 100 100 100 100 100 100 100 100 100
rates b 101 99 102 98.5 98 101.5 100.5 99.8 99.4 100.9 100.2 99.7
ab "$TEST_TMP/same" --blocks 6 -o "$TEST_TMP/same.d" \
	--cmd-a "$STANDIN $TEST_TMP/a" --cmd-b "$STANDIN $TEST_TMP/b"
is $? 0 "no change: exit 0"
like "$TEST_TMP/same" '^verdict: within ±2%: no change of 2% or more' "verdict: within ±2%"
n=$(sed -nE 's/^used: ([0-9]+) blocks.*/\1/p' "$TEST_TMP/same")
want=$(head -n $((2 * n)) "$TEST_TMP/b" | awk -v n="$n" '{ s += log($1 / 100) } END { printf "%+.2f", (exp(s / (2 * n)) - 1) * 100 }')
is "$(field "$TEST_TMP/same" 'change: B vs A')" "$want" "the estimate is the mean log ratio of the $n blocks used ($want%)"
read -r lo hi < <(sed -nE 's/^change: .*interval ([-+][0-9.]+)% \.\. ([-+][0-9.]+)%.*/\1 \2/p' "$TEST_TMP/same")
assert "its interval $lo .. $hi lies inside ±2%" awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l > -2 && h < 2 && l < h) }'

# 3. drift cancels: every invocation 1% faster than the one before, B 5%
# above A.  In a block at a, A runs at a and a + 3, B at a + 1 and a + 2,
# so each block's two log ratios carry +1% and -1% of drift: the estimate
# stays at 5.00% (within 0.02%), where A B pairs alone would say about 6%.
rm -f "$TEST_TMP/a" "$TEST_TMP/b"
for b in 0 1 2 3; do
	g=$((4 * b))
	echo "$((100 + g))" >>"$TEST_TMP/a"
	echo "$((100 + g + 3))" >>"$TEST_TMP/a"
	awk -v g=$g 'BEGIN { printf "%.6f\n%.6f\n", 1.05 * (100 + g + 1), 1.05 * (100 + g + 2) }' >>"$TEST_TMP/b"
done
rm -f "$TEST_TMP"/[ab].pos
ab "$TEST_TMP/drift" --blocks 4 --no-early-stop -o "$TEST_TMP/drift.d" \
	--cmd-a "$STANDIN $TEST_TMP/a" --cmd-b "$STANDIN $TEST_TMP/b"
is $? 0 "a drifting machine: exit 0"
est=$(field "$TEST_TMP/drift" 'change: B vs A')
assert "the drift cancels: +5% estimated as $est%" awk -v e="$est" 'BEGIN { exit !(e >= 4.98 && e <= 5.02) }'
like "$TEST_TMP/drift" '^used: 4 blocks, 8 pairs, 16 invocations, .*; stopped: decided$' \
	"--no-early-stop runs every block, and decides at the last"
like "$TEST_TMP/drift" 'one look, at the end \(--no-early-stop\)' "and says it tested once"
like "$TEST_TMP/drift" 'the level 0\.05 of look 1\)$' "the one look is the fixed test at 0.05"

# 3b. a starved invocation: A's second call (the last of block 1) is
# marked invalid; the whole block is left out, its four files renamed
# invalid-pair-*, and it runs again as pairs 3 and 4; the rates used are
# A's calls 3-8 and B's 3-8, so the starved rate (50) moves nothing
rates a 100 50 100 100 100 100 100 100 100 100
rates b 110 110 110 110 110 110 110 110 110 110
ab "$TEST_TMP/starved" --blocks 3 --no-early-stop -o "$TEST_TMP/starved.d" \
	--cmd-a "STANDIN_INVALID=2 $STANDIN $TEST_TMP/a" --cmd-b "$STANDIN $TEST_TMP/b"
is $? 0 "a starved invocation: exit 0"
like "$TEST_TMP/starved.err" "^ab: left out $TEST_TMP/starved.d/pair-002-A.json: invalid run: producers starved" \
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

# 4. the budget: invocations of at least 0.4 s, a budget of 4 s.  A block
# starts when the time so far plus the mean block time fits: after block
# 1 (>= 1.6 s) one more may start, after block 2 (>= 3.2 s) none can, so
# at most 2 blocks whatever the machine's speed; undecided without a look
rates a $(seq 100 140)
rates b $(seq 100 140)
STANDIN_SLEEP=0.4 ab "$TEST_TMP/budget" --budget 4 -o "$TEST_TMP/budget.d" \
	--cmd-a "$STANDIN $TEST_TMP/a" --cmd-b "$STANDIN $TEST_TMP/b"
is $? 0 "a budget: exit 0"
like "$TEST_TMP/budget" '; stopped: the budget leaves no room for another block$' "stopped by the budget"
blocks=$(sed -nE 's/^used: ([0-9]+) blocks, .* of a 0m04s budget;.*/\1/p' "$TEST_TMP/budget")
cmp_ok "$blocks" -le 2 "no block started that the budget had no room for ($blocks blocks)"
like "$TEST_TMP/budget" '^smallest change detectable' "it says what it could have detected"

# 5. Ctrl-C: what it has so far is printed, the files stay, the child got
# SIGINT and was reaped
rates a $(seq 100 140)
rates b $(seq 100 140)
STANDIN_SLEEP=0.3 "${SIG_DEFAULT[@]}" "$BENCH" ab -o "$TEST_TMP/int.d" --cmd-a "$STANDIN $TEST_TMP/a" \
	--cmd-b "$STANDIN $TEST_TMP/b" >"$TEST_TMP/int" 2>"$TEST_TMP/int.err" &
pid=$!
watchdog $pid
for _ in $(seq 100); do
	grep -q '^ab: block 1:' "$TEST_TMP/int.err" && break
	sleep 0.1
done
sleep 0.15
kill -INT $pid
reap $pid
is $? 130 "SIGINT: exit 130"
like "$TEST_TMP/int" '; stopped: interrupted by SIGINT$' "the report says it was interrupted"
like "$TEST_TMP/int" '^verdict: undecided' "and that nothing was decided"
cmp_ok "$(find "$TEST_TMP/int.d" -name 'pair-*.json' | wc -l)" -ge 4 "the result files stay"
is "$(pgrep -f "$TEST_TMP/[a]" | wc -l)" 0 "no stand-in is left running"

# 6. a failing invocation ends it with exit 1, naming its output: the
# second call of each side fails, and B's comes first (A B B A)
rates a $(seq 100 140)
rates b $(seq 100 140)
STANDIN_FAIL=2 ab "$TEST_TMP/fail" -o "$TEST_TMP/fail.d" \
	--cmd-a "$STANDIN $TEST_TMP/a" --cmd-b "$STANDIN $TEST_TMP/b"
is $? 1 "a failed invocation: exit 1"
like "$TEST_TMP/fail.err" "^ab: B of pair 2 failed \(exit 3\); its output, .*/pair-002-B\.log, ends:$" \
	"it names the invocation and its log"
like "$TEST_TMP/fail.err" 'failing call 2 as asked' "and shows the log's tail"

# 7. bad arguments: exit 2 and one line, nothing run
for args in "" "--budget 0 --cmd-a true --cmd-b true" "--budget 5x --cmd-a true --cmd-b true" \
	"--blocks 2 --cmd-a true --cmd-b true" "--cmd-a true" "-- -w0 -d1 count-local --" \
	"--cmd-a true --cmd-b true -- -d1 count-local -- -d1 count-local" "--spending wald --cmd-a true --cmd-b true"; do
	# shellcheck disable=SC2086
	is_exit 2 "bench ab $args: exit 2" "$BENCH" ab -o "$TEST_TMP/bad.d" $args
	is "$(wc -l <"$TEST_TMP/is_exit.err")" 1 "bench ab $args: one line: $(head -1 "$TEST_TMP/is_exit.err")"
done
ok "$(! test -e "$TEST_TMP/bad.d/pair-001-A.json"; echo $?)" "bad arguments ran nothing"
mkdir "$TEST_TMP/used.d" && touch "$TEST_TMP/used.d/pair-001-A.json"
is_exit 2 "a directory that holds results is refused" "$BENCH" ab -o "$TEST_TMP/used.d" --cmd-a true --cmd-b true

# 8. a real short run: count-local against itself
ab "$TEST_TMP/real" --budget 16s -o "$TEST_TMP/real.d" -- -w0 -d1 count-local -- -w0 -d1 count-local
is $? 0 "a real run of count-local: exit 0"
diag "$(cat "$TEST_TMP/real")"
like "$TEST_TMP/real" '^A: bench -w0 -d1 count-local$' "it names A"
like "$TEST_TMP/real" '^metric: hits \(M/s, higher is better\)' "it tests count-local's hits"
like "$TEST_TMP/real" '^verdict: (better|worse|within|undecided)' "it gives a verdict"
like "$TEST_TMP/real" '^used: [0-9]+ blocks, [0-9]+ pairs, [0-9]+ invocations, ' "it says what it used"
n=$(find "$TEST_TMP/real.d" -name 'pair-*.json' | wc -l)
inv=$(sed -nE 's/^used: .*, ([0-9]+) invocations,.*/\1/p' "$TEST_TMP/real")
is "$n" "$inv" "one result file per invocation ($n)"
is_exit 0 "bench compare reads them" \
	"$BENCH" compare "$TEST_TMP"/real.d/pair-*-A.json -- "$TEST_TMP"/real.d/pair-*-B.json
is_exit 0 "bench compare --paired reads them as pairs" \
	"$BENCH" compare --paired "$TEST_TMP"/real.d/pair-*-A.json -- "$TEST_TMP"/real.d/pair-*-B.json
like "$TEST_TMP/is_exit.out" "^  hits: paired t-test on $((n / 2)) pairs of invocation means" \
	"compare --paired: every pair ab ran is one observation"
done_testing
