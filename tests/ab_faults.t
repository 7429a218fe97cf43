#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench ab under faults, on stand-ins (tests/ab_standin.sh): its result
# directory and its report always agree (a file named exists, a reused
# directory is refused, a full disk leaves no empty report and says why).

# its mounts (a full or read-only tmpfs) in a namespace of its own
# shellcheck disable=SC2034 # read by lib.sh
PRIVATE_MOUNTS=1

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP" || exit 1
STANDIN=$TESTS_DIR/ab_standin.sh

# rates <name>: a stand-in's list, 100 to 140, its count reset
rates() {
	seq 100 140 >"$1"
	rm -f "$1.pos"
}

# standin_ab <out> <bench ab args...>: A and B stand-ins on rate files
# <out>-a and <out>-b; stdout in <out>, stderr in <out>.err
standin_ab() {
	local out=$1

	shift
	rates "$out-a"
	rates "$out-b"
	"$BENCH" ab "$@" --cmd-a "exec $STANDIN $TEST_TMP/$out-a" \
		--cmd-b "exec $STANDIN $TEST_TMP/$out-b" >"$out" 2>"$out.err"
}

# ---- every file named exists; the compare hint matches only the pairs ----
# A's first call is starved: its block is left out, its files renamed
STANDIN_INVALID=1 standin_ab left --alpha 0.25 --blocks 3 -o left.d
is $? 0 "a starved first invocation: exit 0"
# (B's first call too, in the block after)
named=$(sed -n 's/^ab: left out \([^:]*\): invalid run: .*/\1/p' left.err | tr '\n' ' ')
is "$named" "$TEST_TMP/left.d/invalid-pair-001-A.json $TEST_TMP/left.d/invalid-pair-003-B.json " \
	"the left-out files are named by the names they keep"
for f in $named; do
	assert "the file named exists: $f" [ -f "$f" ]
done
assert "no pair-001-A.json is left" [ ! -e left.d/pair-001-A.json ]
hint=$(sed -n "s/^files: .*(bench compare \(.*\): the same test .*/\1/p" left)
ok "$([ -n "$hint" ]; echo $?)" "the report gives a bench compare of the pairs: $hint"
eval "set -- $hint"
is "$(($# - 4))" 12 "its globs match the 6 pairs tested, 12 files"
# every invocation starved: too many blocks left out, no pair
rates none-a
rates none-b
for side in a b; do
	# every call of this stand-in is starved (its $(...) for the stand-in's shell)
	# shellcheck disable=SC2016
	printf '#!/bin/bash\nSTANDIN_INVALID=$(( $(cat "%s.pos" 2>/dev/null || echo 0) + 1 )) exec %s %s\n' \
		"$TEST_TMP/none-$side" "$STANDIN" "$TEST_TMP/none-$side" >"none-$side.sh"
	chmod +x "none-$side.sh"
done
"$BENCH" ab --alpha 0.25 --blocks 3 -o none.d --cmd-a "exec $TEST_TMP/none-a.sh" \
	--cmd-b "exec $TEST_TMP/none-b.sh" >none 2>none.err
is $? 1 "every invocation starved: exit 1"
like none '^files: .* \(no pair finished: nothing for bench compare\)$' \
	"no pair: no bench compare hint whose globs match nothing"
is "$(find none.d -name 'pair-*' | wc -l)" 0 "and there is no pair-* file"

# ---- no test taken: ab.json's interval, p and level are null, never 0 ----
# (a budget too short for the first look: one block, then refused)
rates nt-a
rates nt-b
STANDIN_SLEEP=0.4 "$BENCH" ab --budget 2s --json -o nt.d --cmd-a "exec $STANDIN $TEST_TMP/nt-a" \
	--cmd-b "exec $STANDIN $TEST_TMP/nt-b" >nt.json 2>nt.err
is $? 2 "a budget too short for a test: exit 2"
is "$(jq -c '[.interval_pct, .p, .level, .verdict]' nt.d/ab.json)" '[[null,null],null,null,"undecided"]' \
	"no test taken: ab.json's interval_pct, p and level are null"
is "$(jq -c '[.interval_pct, .p, .level]' nt.json)" '[[null,null],null,null]' \
	"no test taken: --json's interval_pct, p and level are null too"

# ---- a reused -o: refused unless empty ----
standin_ab reuse -o left.d
is $? 2 "-o of an earlier run's directory: exit 2"
like reuse.err "^invalid --out 'left\.d': not empty \(it holds [^)]*\): .*give a new or empty directory$" \
	"it says why, naming a file there"
mkdir empty.d
standin_ab empty --alpha 0.25 --blocks 3 -o empty.d
is $? 0 "-o of an empty directory: exit 0"

# ---- a full file system ----
if [ -n "${BENCH_TEST_MNTNS:-}" ]; then
	mkdir full.d
	mount -t tmpfs -o size=64k tmpfs full.d
	head -c $((64 * 1024)) /dev/zero >full.d/filler 2>/dev/null
	mkdir full.d/run
	standin_ab full0 --alpha 0.25 --blocks 3 -o full.d/run
	is $? 2 "a full file system from the start: exit 2"
	like full0.err "^invalid --out 'full\.d/run': cannot write there: No space left on device$" \
		"it says so, with ENOSPC"
	is "$(find full.d/run -mindepth 1 | wc -l)" 0 "nothing written"
	# room for a few invocations' files, then full: an invocation fails
	rm full.d/filler
	head -c $((40 * 1024)) /dev/zero >full.d/filler 2>/dev/null
	standin_ab fullrun --alpha 0.25 --blocks 3 -o full.d/run
	is $? 1 "the disk full during the run: exit 1"
	like fullrun.err '^  \(nothing: the directory cannot be written: No space left on device\)$' \
		"the failed invocation's empty log: ab says the directory is full"
	like fullrun.err "^failed to write $TEST_TMP/full\.d/run/ab\.txt: No space left on device$" \
		"the report that cannot be written: said, with ENOSPC"
	assert "no empty ab.txt is left" [ ! -e full.d/run/ab.txt ]
	assert "no empty ab.json is left" [ ! -e full.d/run/ab.json ]
	is "$(find full.d -name '*.tmp.*' | wc -l)" 0 "no temporary file is left"
	umount full.d
else
	skip "needs root and a private mount namespace" "bench ab on a full file system"
fi

# ---- a hung invocation: --budget bounds it ----
# B never returns: at 1.25 x the budget it gets SIGTERM (then SIGKILL),
# its process group with it; ab says so and exits 1 (an invocation that
# did not finish), its directory holding no pair
SLEEPER="sleep 300.$$"
rates hung-a
timeout -k 5 60 "$BENCH" ab --budget 1s -o hung.d --cmd-a "exec $STANDIN $TEST_TMP/hung-a" \
	--cmd-b "$SLEEPER; true" >hung 2>hung.err
is $? 1 "a hung invocation at the budget's hard end: exit 1 (not killed by the watchdog)"
like hung.err "^ab: B of pair 1 was still running at the budget's hard end \(1\.25 s, 1\.25 x --budget\): stopped; its output is $TEST_TMP/hung\.d/stopped-pair-001-B\.log$" \
	"it says which invocation, when, and where its output is"
like hung "^used: 0 blocks, 0 pairs, 1 invocations, .*; stopped: the budget's hard end" \
	"the report counts the invocation that finished, and why it stopped"
is "$(jq -r '[.pairs, .invocations, .stopped_invocations, .unused_invocations] | join(" ")' hung.d/ab.json)" \
	"0 1 1 1" "ab.json: no pair, A counted, B stopped, A set aside"
is "$(cd hung.d && echo *)" "ab.json ab.txt stopped-pair-001-B.log unused-pair-001-A.json unused-pair-001-A.log" \
	"the directory holds what the report says"
is "$(pgrep -fc "$SLEEPER")" 0 "the hung invocation's process group is gone"

# ---- signals: passed on, then SIGKILL to the process group ----
# wait_for <file>: until it exists (an invocation started), at most 20 s
wait_for() {
	local i

	for ((i = 0; i < 400; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# sig_ab <case> <signals...>: ab with a B that ignores INT, TERM and HUP;
# once B runs, each signal in turn (0.3 s apart); ab's status in SIG_RC
# and the time it took after the first signal in SIG_SECS
sig_ab() {
	local name=$1 start sig pid

	shift
	rates "$name-a"
	"${SIG_DEFAULT[@]}" "$BENCH" ab --budget 10m -o "$name.d" \
		--cmd-a "exec $STANDIN $TEST_TMP/$name-a" \
		--cmd-b "trap '' INT TERM HUP; $SLEEPER; true" >"$name" 2>"$name.err" &
	pid=$!
	wait_for "$name.d/pair-001-B.log" || diag "$name: B never started"
	start=$SECONDS
	for sig in "$@"; do
		kill -s "$sig" "$pid"
		sleep 0.3
	done
	# an ab that does not end fails the checks below rather than hang the test
	timeout 30 tail --pid="$pid" -f /dev/null || kill -KILL "$pid"
	wait "$pid"
	SIG_RC=$?
	SIG_SECS=$((SECONDS - start))
}

# Ctrl-C twice: the second escalates to SIGKILL at once
sig_ab int2 INT INT
is "$SIG_RC" 130 "SIGINT twice, B ignoring signals: ab ends, 130"
cmp_ok "$SIG_SECS" -le 3 "at once, not after the grace ($SIG_SECS s)"
is "$(pgrep -fc "$SLEEPER")" 0 "B and its sleep are gone"
like int2 '; stopped: interrupted by SIGINT$' "the report says it was interrupted"
assert "B's output is set aside as stopped" [ -f int2.d/stopped-pair-001-B.log ]
# one SIGTERM: SIGKILL follows after the grace (5 s)
sig_ab term TERM
is "$SIG_RC" 143 "one SIGTERM, B ignoring it: ab ends after the grace, 143"
is "$(pgrep -fc "$SLEEPER")" 0 "B and its sleep are gone"

# ---- an invocation that finishes as ab is interrupted is counted ----
# B ignores SIGINT and finishes its second of sleep: its file is whole,
# and pair 1 is a pair the report and ab.json count
rates fin-a
rates fin-b
"${SIG_DEFAULT[@]}" "$BENCH" ab --budget 10m -o fin.d --cmd-a "exec $STANDIN $TEST_TMP/fin-a" \
	--cmd-b "trap '' INT; STANDIN_SLEEP=1 exec $STANDIN $TEST_TMP/fin-b" >fin 2>fin.err &
pid=$!
wait_for fin.d/pair-001-B.log || diag "fin: B never started"
kill -INT "$pid"
wait "$pid"
is $? 130 "SIGINT while B finishes: 130"
is "$(jq -r '[.pairs, .invocations, .stopped_invocations] | join(" ")' fin.d/ab.json)" "1 2 0" \
	"ab.json: the finished B is counted, its pair too"
like fin '^used: 0 blocks, 1 pairs, 2 invocations' "the report counts it"
is "$(cd fin.d && echo pair-*.json)" "pair-001-A.json pair-001-B.json" "beside the pair's two files"
like fin "^files: .*bench compare " "and its compare hint matches them"

# ---- a reader of its output gone: SIGPIPE stops it like a signal ----
# stdout and stderr into a pipe whose reader leaves after the first line:
# the next progress line raises SIGPIPE, which ends ab as its other
# signals do (the report kept in ab.txt, 141), where it once died there
# without a report
rates pipe-a
rates pipe-b
{ "${SIG_DEFAULT[@]}" "$BENCH" ab --budget 10m -o pipe.d \
	--cmd-a "exec $STANDIN $TEST_TMP/pipe-a" --cmd-b "exec $STANDIN $TEST_TMP/pipe-b" 2>&1
  echo $? >pipe.rc; } | head -n 1 >/dev/null
is "$(cat pipe.rc)" 141 "its output's reader gone: 141"
like pipe.d/ab.txt '; stopped: a reader of its output went away \(SIGPIPE\)$' \
	"the report is kept in ab.txt, saying why it stopped"

done_testing
