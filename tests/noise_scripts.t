#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The measurement scripts of issue 19 on tiny runs of count-local (no
# BPF): benchs/run_noise_sources.sh (where the spread comes from) and
# benchs/run_ab_goal.sh (bench ab's goal).  Formats and exit statuses
# only: their figures belong to a quiet machine's closing note.  The goal's
# A/A runs are real bench ab runs: tests/ab.t's checks of one live here.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$SRC_TOP
NOISE=$ROOT/benchs/run_noise_sources.sh
GOAL=$ROOT/benchs/run_ab_goal.sh

# Where the time goes: run_ab_goal.sh's two A/A runs of bench ab, 12
# invocations of -w0 -d1 each (about 13 s a run), and the noise scripts'
# three calls (about 15 s).  Each script runs its benches one at a time
# into a directory of its own, and no check here reads a figure's size,
# so they all go side by side (par_start), PAR_WIDTH at once.  run_ab_goal.sh
# runs its A/A runs one after the other, as a user measuring noise wants
# them; they are independent, so the test starts both ahead, side by
# side, with the very arguments the script gives bench ab, and the
# script, run once they have ended, gets a stand-in bench that hands each
# of its calls the output and exit status of the run started with the
# same arguments (a call with any other arguments fails, saying so): the
# file takes about the time of one A/A run.
# bench ab refuses a budget too short for a test (6 blocks at alpha 0.05):
# alpha 0.25 tests from 3 blocks (2^-2 <= 0.25), and --blocks 3 keeps it short
AHEAD=$TEST_TMP/ab-ahead
mkdir -p "$AHEAD" "$TEST_TMP/goal"
cat >"$AHEAD/bench" <<'EOF'
#!/bin/bash
# the bench ab run started ahead with these arguments: its output and status
a=$(printf '%q ' "$@")
for k in "$(dirname "$0")"/*.args; do
	[ "$(cat "$k")" = "$a" ] || continue
	k=${k%.args}
	cat "$k"
	cat "$k.err" >&2
	exit "$(cat "$k.rc")"
done
echo "no bench ab run was started ahead with: $a" >&2
exit 1
EOF
chmod +x "$AHEAD/bench"
# what run_ab_goal.sh's ab() runs for A/A run N of "-o DIR -b 30s aa" with
# the environment it is given below: bench ab --budget 30s -o DIR/aa-N
# --alpha $ALPHA $AB_OPTS -- $ARGS -- $ARGS
for i in 1 2; do
	ab_args=(ab --budget 30s -o "$TEST_TMP/goal/aa-$i" --alpha 0.25 --blocks 3
		-- -w0 -d1 count-local -- -w0 -d1 count-local)
	printf '%q ' "${ab_args[@]}" >"$AHEAD/$i.args"
	par_start "$AHEAD/$i" "$BENCH" "${ab_args[@]}"
done
# -d 2: the shortest invocation with a second after the first, which the
# rows of seconds 2.. need (the default, 3, is for a quiet machine's figures)
par_start "$TEST_TMP/noise.out" env RUN_BENCH="$BENCH" "$NOISE" -r 2 -d 2 -o "$TEST_TMP/noise" -c base,noaslr -w count-local
# the repeats' line needs one process of 4 repeats: one round (4 s, not 8),
# of 1 s each (-d 1: the first repeat against the others needs no second second)
par_start "$TEST_TMP/noise-rep.out" env RUN_BENCH="$BENCH" "$NOISE" -r 1 -d 1 -o "$TEST_TMP/noise-rep" -c repeat -w count-local
# its own default runner (no RUN_BENCH), from the top directory: "unpinned"
# runs without -a, base with it (the script adds -a whatever the runner:
# base's file is the first run's); -d 1: only the file's options are checked
par_start "$TEST_TMP/noise-pin.out" env -C "$ROOT" -u RUN_BENCH "$NOISE" -r 1 -d 1 -o "$TEST_TMP/noise-pin" -c unpinned -w count-local

par_wait "$TEST_TMP/noise.out"
ok $? "run_noise_sources.sh, 2 rounds: exit 0"
diag "$(cat "$TEST_TMP/noise.out")"
is "$(find "$TEST_TMP/noise" -name "*.json" | wc -l)" 4 "one result file per condition and round"
par_wait "$TEST_TMP/noise-rep.out"
ok $? "run_noise_sources.sh -c repeat, 1 round: exit 0"
diag "$(cat "$TEST_TMP/noise-rep.out")"
for c in "base (-w0 -d2, all 2 s)" "base, first second only" "base, after the first second" \
	"noaslr (seconds 2..2)"; do
	like "$TEST_TMP/noise.out" "^$(printf '%s' "$c" | sed 's/[().]/\\&/g') +count-local +2 invocations  mean +[0-9.]+  between-invocation CV +[0-9.]+%$" \
		"a line for $c"
done
like "$TEST_TMP/noise-rep.out" '^repeat \(--repeat 4\) +count-local  between-repeat CV [0-9.]+% in one process .*; first repeat [-+][0-9.]+% against the others$' \
	"a line for the repeats of one process"
like "$TEST_TMP/noise.out" '^\| condition \| workload \| invocations \| mean \| between-invocation CV \|$' \
	"the markdown table"
ok "$(jq -e '.context.command_line[0] | test("bench$")' "$TEST_TMP"/noise/noaslr-count-local-1.json >/dev/null; echo $?)" \
	"noaslr ran the bench itself under setarch"
# (its own default runner: started above)
par_wait "$TEST_TMP/noise-pin.out"
ok $? "run_noise_sources.sh with its default runner: exit 0"
is "$(jq -r '.options.runner.affinity' "$TEST_TMP/noise/base-count-local-1.json") $(jq -r '.options.runner.affinity' "$TEST_TMP/noise-pin/unpinned-count-local-1.json")" \
	"true false" "base pinned, unpinned (default runner) not"
is_exit 2 "run_noise_sources.sh: an unknown condition is refused" "$NOISE" -c nope
is_exit 2 "run_noise_sources.sh: a bad round count is refused" "$NOISE" -r 0
is_exit 2 "run_noise_sources.sh: a bad duration is refused" "$NOISE" -d 0

# (the A/A runs: started at the top; the script, now, gets them)
for i in 1 2; do
	par_wait "$AHEAD/$i"
	echo $? >"$AHEAD/$i.rc"
done
env BENCH="$AHEAD/bench" ARGS="-w0 -d1 count-local" ALPHA=0.25 AB_OPTS="--blocks 3" \
	"$GOAL" -o "$TEST_TMP/goal" -n 2 -b 30s aa >"$TEST_TMP/goal.out" 2>"$TEST_TMP/goal.out.err"
ok $? "run_ab_goal.sh aa, 2 A/A runs: exit 0"
diag "$(cat "$TEST_TMP/goal.out")"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$TEST_TMP"/goal/aa-*.err)"
is "$(grep -cE '^A/A [12]: (better|worse|within|undecided) ' "$TEST_TMP/goal.out")" 2 "one line per A/A run"
like "$TEST_TMP/goal.out" '^A/A: [0-2] false positive\(s\) in 2 runs of bench ab --budget 30s \(expected about 0\.5 at alpha 0\.25\)$' \
	"the false-positive count"
ok "$(test -s "$TEST_TMP/goal/aa-1/ab.txt"; echo $?)" "each run's files are kept"
# the first A/A run is bench ab's real short run (tests/ab.t runs stand-ins):
# its report, one file per invocation, and compare reads them
real=$TEST_TMP/goal/aa-1.out
like "$real" '^A: bench -w0 -d1 count-local$' "bench ab, a real run: it names A"
like "$real" '^metric: hits \(M/s, higher is better\)' "bench ab, a real run: it tests count-local's hits"
like "$real" '^verdict: (better|worse|within|undecided)' "bench ab, a real run: it gives a verdict"
like "$real" '^used: [0-9]+ blocks, [0-9]+ pairs, [0-9]+ invocations, ' "bench ab, a real run: it says what it used"
n=$(find "$TEST_TMP/goal/aa-1" -name 'pair-*.json' | wc -l)
inv=$(sed -nE 's/^used: .*, ([0-9]+) invocations,.*/\1/p' "$real")
is "$n" "$inv" "bench ab, a real run: one result file per invocation ($n)"
is_exit 0 "bench ab, a real run: bench compare reads its files" \
	"$BENCH" compare "$TEST_TMP"/goal/aa-1/pair-*-A.json -- "$TEST_TMP"/goal/aa-1/pair-*-B.json
is_exit 0 "bench ab, a real run: bench compare --paired reads them as pairs" \
	"$BENCH" compare --verbose --paired "$TEST_TMP"/goal/aa-1/pair-*-A.json -- "$TEST_TMP"/goal/aa-1/pair-*-B.json
like "$TEST_TMP/is_exit.out" "^  hits: paired t-test on $((n / 2)) pairs of invocation means" \
	"bench ab, a real run: compare --paired takes every pair ab ran as one observation"
is_exit 2 "run_ab_goal.sh: an unknown step is refused" "$GOAL" nope
is_exit 2 "run_ab_goal.sh: no step is refused" "$GOAL"
done_testing
