#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench ab --interleave on the real kernel: A and B run at once and take
# turns on the producer's CPU slice by slice.  What is checked is what
# ran and in which order, and what the files say: the pair files hold
# both sides' slices, alternating, and their paired differences; the
# sides' result files say why their rates count half the time; the
# refusals; a side that fails; Ctrl-C; nothing left running or loaded.
# No timing is checked.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

SIDE=(-w0 -d1 -p1 htab-mem)
# three pairs of invocations: --blocks 3 needs --alpha 0.5 (2^(1-3) <= 0.5)
SHORT=(--interleave --alpha 0.5 --blocks 3)
PROGS='htab_mem_overwr|lat_calibrate'

# two runs side by side: a change (B's values twice as large), and sides
# whose runner options differ (found after the first pair)
par_watched "$TEST_TMP/run" "$BENCH" ab "${SHORT[@]}" --slice 1 -o "$TEST_TMP/run.d" \
	-- "${SIDE[@]}" -- "${SIDE[@]}" --value-size 16
par_watched "$TEST_TMP/diff" "$BENCH" ab "${SHORT[@]}" -o "$TEST_TMP/diff.d" \
	-- -w0 -d1 -p1 htab-mem -- -w0 -d1 -p2 htab-mem

# refused before anything runs: one line, exit 2
is_exit 2 "--interleave with --cmd-a/--cmd-b: exit 2" \
	"$BENCH" ab --interleave --cmd-a true --cmd-b true
like "$TEST_TMP/is_exit.err" 'invalid --interleave with --cmd-a/--cmd-b' \
	"--interleave with --cmd-a/--cmd-b: says why"
is_exit 2 "--interleave --metric per_prod_op: exit 2" \
	"$BENCH" ab --interleave --metric per_prod_op -- "${SIDE[@]}" -- "${SIDE[@]}"
like "$TEST_TMP/is_exit.err" "invalid --metric 'per_prod_op' with --interleave: a slice has op_ns" \
	"--interleave --metric per_prod_op: says which metrics a slice has"
is_exit 2 "--slice without --interleave: exit 2" \
	"$BENCH" ab --slice 2 -- "${SIDE[@]}" -- "${SIDE[@]}"
is_exit 2 "--slice 0.1: exit 2" \
	"$BENCH" ab --interleave --slice 0.1 -- "${SIDE[@]}" -- "${SIDE[@]}"
like "$TEST_TMP/is_exit.err" "invalid --slice '0.1': expected milliseconds in 0.5..100" \
	"--slice 0.1: names the range"

# a side outside ab: BENCH_AB_GATE that is no gate is refused
BENCH_AB_GATE=0 BENCH_AB_SIDE=A run_bench "$TEST_TMP/nogate" --latency "${SIDE[@]}" </dev/null
is $? 1 "BENCH_AB_GATE on a descriptor that is no gate: exit 1"
like "$TEST_TMP/nogate.err" "invalid BENCH_AB_GATE '0'" "BENCH_AB_GATE: says so"

par_wait "$TEST_TMP/run"
is $? 0 "interleaved run: exit 0"
out=$TEST_TMP/run
like "$out" '^ab: A and B interleaved in 1-ms slices' "interleaved run: the first line says the design"
like "$out" 'design: interleaved: A and B at once, taking turns in 1-ms slices' \
	"interleaved run: the design line says so"
like "$out" '^verdict: (better|worse|within|undecided)' "interleaved run: a verdict"
like "$out" '^speed check: none needed' "interleaved run: no speed check"
is "$(jq -r '.design + " " + (.slice_ms | tostring)' "$out.d/ab.json" 2>/dev/null)" "interleaved 1" \
	"interleaved run: ab.json's design and slice"
is "$(jq -r .blocks "$out.d/ab.json")" 3 "interleaved run: three pairs, one observation each"
pair=$out.d/pair-001.json
# the slices alternate: every neighbour by seq is the other side
jq -e '.slices as $s | ($s.seq | length) > 10 and
	([range(0; ($s.seq | length) - 1) | select($s.seq[. + 1] == $s.seq[.] + 1) |
	  $s.side[.:. + 1] != $s.side[. + 1:. + 2]] | all) and
	($s.side | test("^[AB]+$")) and ([$s.measured[] | select(.)] | length) > 4' "$pair" >/dev/null
ok $? "pair file: A's and B's slices alternate, seq by seq"
jq -e '.differences.log_ratio | length > 0 and all(type == "number")' "$pair" >/dev/null
ok $? "pair file: the paired differences"
jq -e '(.estimate.log_ratio - ([.differences.log_ratio[]] | sort |
	(length * 0.2 | floor) as $g | .[$g:length - $g] | add / length) | fabs) < 1e-9' "$pair" >/dev/null
ok $? "pair file: the estimate is the differences' 20% trimmed mean"
is "$(jq -r .first "$out.d/pair-001.json") $(jq -r .first "$out.d/pair-002.json")" "A B" \
	"pairs: the side that goes first alternates"
jq -r .validity.reason "$out.d/pair-001-B.json" >"$TEST_TMP/reason"
like "$TEST_TMP/reason" '^one side of an interleaved run \(bench ab --interleave\)' \
	"a side's result file: invalid for its rates, saying why"
schema_ok "$out.d/pair-001-A.json" "a side's result file: the schema holds"
is "$(jq -r .options.benchmark.value_size "$out.d/pair-001-B.json")" 16 "B's side ran B's options"

par_wait "$TEST_TMP/diff"
is $? 2 "runner options differ: exit 2 after the first pair"
like "$TEST_TMP/diff.err" 'invalid --interleave: A and B must run one benchmark with the same runner options .*producers 1 vs 2' \
	"runner options differ: names them"

# a side that fails (B's option refused): A stops waiting for it
run_bench "$TEST_TMP/fail" ab "${SHORT[@]}" -o "$TEST_TMP/fail.d" -- "${SIDE[@]}" \
	-- "${SIDE[@]}" --value-size 0
is $? 1 "a failing side: exit 1"
like "$TEST_TMP/fail.err" '^ab: B of pair 1 failed \(exit 64\)' "a failing side: named, with its status"
# A is stopped (SIGTERM) wherever it was, which may be before it printed anything
is "$(pgrep -fc "$TEST_TMP/fail.d" || true)" 0 "a failing side: the other is not left running"

# Ctrl-C during the slices: both sides get it and are reaped, what ab has is printed
"${SIG_DEFAULT[@]}" "$BENCH" ab --interleave -o "$TEST_TMP/int.d" -- -w0 -d5 -p1 htab-mem \
	-- -w0 -d5 -p1 htab-mem >"$TEST_TMP/int" 2>"$TEST_TMP/int.err" &
INT_PID=$!
watchdog $INT_PID
wait_for "$TEST_TMP/int.d/pair-001-B.log" "^Benchmark 'htab-mem' started" $INT_PID 30
ok $? "Ctrl-C: the sides started"
kill -INT $INT_PID
reap $INT_PID
is $? 130 "Ctrl-C: exit 130"
like "$TEST_TMP/int" '^used: 0 blocks, .*stopped: interrupted by SIGINT' "Ctrl-C: what it had is printed"
is "$(pgrep -fc "$TEST_TMP/int.d" || true)" 0 "Ctrl-C: no side left running"
eventually none_loaded "$PROGS"
ok $? "nothing left loaded"

done_testing
