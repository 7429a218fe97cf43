#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# count-global and count-local through the real runner: the Iter and
# Summary formats, positive rates, sample counts, affinity and quiet mode.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

NUM='[0-9]+\.[0-9]{3}'
ITER_RE="^Iter +[0-9]+ \\( *-?$NUM+us\\): hits +${NUM}M/s \\( *${NUM}M/prod\\), drops +${NUM}M/s, total operations +${NUM}M/s\$"
SUMMARY_RE="^Summary: hits +$NUM ± ${NUM}M/s \\( *${NUM}M/prod\\), drops +$NUM ± ${NUM}M/s, total operations +$NUM ± ${NUM}M/s\$"

# run_out <bench> <producers> <extra args...>: where that run's output goes
run_out() {
	local name=$1 p=$2 out
	shift 2
	out="$TEST_TMP/$name-p$p$*"
	echo "${out// /}"
}

# start_run <bench> <producers> <extra args...>: start a -w0 -d1 run, or
# -w1 -d1 with WARMUP=1 (the warm-up's Iter line is printed too), beside
# the others: each run's checks read its own output alone, and none checks
# a rate's size
start_run() {
	local name=$1 p=$2
	shift 2
	par_start "$(run_out "$name" "$p" "$@")" "$BENCH" -w"${WARMUP:-0}" -d1 -p"$p" "$@" "$name"
}

# check_run <bench> <producers> <extra args...>: the checks of the run
# start_run started with the same arguments (and WARMUP)
check_run() {
	local name=$1 p=$2 out iters hits per_prod want=$((1 + ${WARMUP:-0}))
	shift 2
	out=$(run_out "$name" "$p" "$@")
	par_wait "$out"
	is $? 0 "$name -p$p $*: exit status 0"
	like "$out" "^Setting up benchmark '$name'\\.\\.\\.\$" "$name -p$p $*: set-up line"
	like "$out" "^Benchmark '$name' started\\.\$" "$name -p$p $*: started line"
	iters=$(grep -Ec "$ITER_RE" "$out")
	is "$iters" "$want" "$name -p$p $*: $want Iter lines in the upstream format for -w${WARMUP:-0} -d1"
	is "$(grep -c '^Iter' "$out")" "$iters" "$name -p$p $*: no malformed Iter line"
	like "$out" "^Iter +0 " "$name -p$p $*: iterations count from 0"
	like "$out" "$SUMMARY_RE" "$name -p$p $*: Summary in the upstream format"
	hits=$(sed -nE 's/^Summary: hits +([0-9.]+) .*/\1/p' "$out")
	per_prod=$(sed -nE 's/^Summary: .*\( *([0-9.]+)M\/prod\).*/\1/p' "$out")
	cmp_num "$hits" '>' 0 "$name -p$p $*: positive rate (M/s)"
	# the figures are rounded to 0.001: the quotient may be off by one unit
	is_near "$per_prod" "$(awk -v h="$hits" -v p="$p" 'BEGIN { if (h != "") print h / p }')" 0.0015 \
		"$name -p$p $*: per-producer figure is the total over $p"
	stderr_clean "$out.err"
	ok $? "$name -p$p $*: nothing on stderr but noise warnings"
}

# The runs whose reader goes away (their checks are at the end of the
# file): none is signalled by the test or watched, each ends when the
# kernel's SIGPIPE finds it, a second or two after its start, and each
# reports only its own exit status (its wrapper exits with the bench's,
# PIPESTATUS[0]) and stderr (<out>.err), so they wait beside the runs
# below, not one after another at the end.  They start once the first
# PAR_WIDTH configurations below are going, not before them: the checks,
# half a second a configuration, are what the runs wait for, and they
# can only begin when the first configuration (with its warm-up, 2 s)
# has ended, so the pipe runs take slots the checks leave idle.  The
# longest (2 s) first: stdout's reader gone after the first Iter line
start_pipes() {
	# shellcheck disable=SC2016 # the wrappers' own expansions
	par_start "$TEST_TMP/pipe-iter" bash -c 'timeout -k 5 40 "$@" | sed -n "/^Iter/q"; exit "${PIPESTATUS[0]}"' \
		pipe "$BENCH" -w0 -d30 count-local
	# stdout's reader gone at once (the wrapper prints the seconds the run
	# took, for a diagnostic)
	# shellcheck disable=SC2016
	par_start "$TEST_TMP/pipe-head" bash -c 's=$SECONDS; timeout -k 5 40 "$@" | head -c 10 >/dev/null
		rc=${PIPESTATUS[0]}; echo $((SECONDS - s)); exit "$rc"' pipe "$BENCH" -w0 -d30 count-local
	# stderr's reader gone, the warnings at the end meet EPIPE
	mkfifo "$TEST_TMP/err.fifo"
	# shellcheck disable=SC2016
	par_start "$TEST_TMP/pipe-err" bash -c 'head -c 0 <"$1" & timeout -k 5 40 "${@:2}" 2>"$1" >/dev/null
		rc=$?; wait; exit "$rc"' pipe "$TEST_TMP/err.fifo" \
		"$BENCH" -w0 -d1 --prod-affinity 0 -p "$(($(nproc) + 1))" count-local
}

# every run of the checks below is started PAR_WIDTH at a time; the
# signalled runs further down start once the last of them has started
# the configurations, once: "<warm-up seconds> <bench> <producers> [args...]"
CONFIGS=()
for b in count-local count-global; do
	CONFIGS+=("1 $b 1" "0 $b 2" "0 $b 1 -a" "0 $b 2 -a")
done
CONFIGS+=("0 count-local 2 --prod-affinity 0")
# config <i> <start_run|check_run>: that configuration's start or checks
config() {
	local w args

	read -r w args <<<"${CONFIGS[$1]}"
	# shellcheck disable=SC2086 # a configuration's words
	WARMUP=$w "$2" $args
}
# The checks of a configuration come PAR_WIDTH - 1 starts after its own,
# in the configurations' order: the test reads a run that has ended while
# the next ones run (the checks take about half a run's second), rather
# than all of them after the last start, when every run but the last few
# has long ended
LAG=$((PAR_WIDTH - 1))
for ((i = 0; i < ${#CONFIGS[@]}; i++)); do
	config "$i" start_run
	((i != LAG)) || start_pipes
	((i < LAG)) || config $((i - LAG)) check_run
done
par_start "$TEST_TMP/quiet" "$BENCH" -q -w0 -d1 count-local

# The runs signalled further down (SIGHUP, SIGQUIT, SIGTERM, then SIGINT)
# start together: each only has to print its first sample, a second after
# its start, before its signal, and four such seconds side by side take
# one second, not four.  They start here, beside the last configurations'
# runs, so that this second passes while the test reads those (about a
# second and a half of checks) rather than after them; their spinning, at
# nice 15 like the rest, only slows the others' rates, which no check reads
declare -A SIG_PID SIG_WD
for sig in HUP QUIT TERM; do
	"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d30 count-local >"$TEST_TMP/sig.$sig" 2>"$TEST_TMP/sig.$sig.err" &
	SIG_PID[$sig]=$!
	watchdog "${SIG_PID[$sig]}"
	SIG_WD[$sig]=$WATCHDOG
done

# The SIGQUIT case again under a parent that ignores SIGINT and SIGQUIT, as
# every test's is when `make test &` runs from a script (perl sets the
# ignore: bash cannot).  The run starts with SIGQUIT's default action and
# ends 131; the same parent's plain `cmd &` starts a command with both
# ignored, which is what SIG_DEFAULT undoes.  It starts beside the runs
# above: like them, it signals its own run alone, once it printed a sample.
cat >"$TEST_TMP/ignoring-parent.sh" <<'EOF'
# shellcheck source=tests/lib.sh
source "$1"
out=$2
sleep 30 &
sig_ignored $! INT && sig_ignored $! QUIT
echo "plain &: ignores SIGINT and SIGQUIT: $?" >"$out.plain"
kill $!
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d30 count-local >"$out" 2>"$out.err" &
pid=$!
wait_iter "$out" $pid || { kill -KILL $pid; exit 90; }
if sig_ignored $pid QUIT || sig_ignored $pid INT; then
	kill -KILL $pid
	exit 91
fi
kill -s QUIT $pid
wait $pid
EOF
BENCH=$BENCH perl -e '$SIG{INT} = $SIG{QUIT} = "IGNORE"; exec @ARGV or die "exec: $!\n"' \
	bash "$TEST_TMP/ignoring-parent.sh" "$TESTS_DIR/lib.sh" "$TEST_TMP/ign" &
IGN_PID=$!
# the SIGINT case's run (its checks below)
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d30 count-local >"$TEST_TMP/int" 2>"$TEST_TMP/int.err" &
INT_PID=$!

for ((i = ${#CONFIGS[@]} - LAG; i < ${#CONFIGS[@]}; i++)); do
	((i < 0)) || config "$i" check_run
done

par_wait "$TEST_TMP/quiet"
is $? 0 "-q: exit status 0"
is "$(grep -vc '^Summary:' "$TEST_TMP/quiet")" 0 "-q: only the Summary is printed"
like "$TEST_TMP/quiet" "$SUMMARY_RE" "-q: Summary format"
# the pipe runs too (their checks stay at the end): each status in
# PAR_STATUS
par_wait_all

# Ctrl-C in the middle: a clean, reported exit and no Summary.  Every run
# a test signals starts with the signal's default action (SIG_DEFAULT), not
# with whatever the test inherited.  (The run: started above.)
pid=$INT_PID
wait_iter "$TEST_TMP/int" $pid
ok $? "SIGINT: the run got going (a sample printed)"
! sig_ignored $pid INT && ! sig_ignored $pid QUIT
ok $? "SIGINT: the run does not ignore SIGINT or SIGQUIT (started through SIG_DEFAULT)"
kill -INT $pid
wait $pid
rc=$?
is "$rc" 130 "SIGINT: exit status 130"
like "$TEST_TMP/int.err" "^interrupted by Interrupt: cleaning up\$" "SIGINT: says so"
is "$(grep -c '^Summary' "$TEST_TMP/int")" 0 "SIGINT: no Summary from a partial run"

# every signal that ends a run ends it the same way: 128 + the signal
declare -A SIGNAME=([HUP]=Hangup [QUIT]=Quit [TERM]=Terminated)
# The signal goes to the bench itself, not through timeout(1): a caller
# that blocks SIGQUIT (CI's runner does) hands timeout a mask under which
# it never relays it.  (The runs were started above.)
for sig in HUP QUIT TERM; do
	pid=${SIG_PID[$sig]}
	wait_iter "$TEST_TMP/sig.$sig" "$pid"
	ok $? "SIG$sig: the run got going (a sample printed)"
	kill -s "$sig" "$pid"
	WATCHDOG=${SIG_WD[$sig]}
	reap "$pid"
	rc=$?
	is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig: exit status 128 + SIG$sig"
	like "$TEST_TMP/sig.$sig.err" "^interrupted by ${SIGNAME[$sig]}: cleaning up\$" "SIG$sig: says so"
	is "$(grep -c '^Summary' "$TEST_TMP/sig.$sig")" 0 "SIG$sig: no Summary from a partial run"
done

# The SIGQUIT case again under a parent ignoring SIGINT and SIGQUIT
# (started above)
wait "$IGN_PID"
rc=$?
is "$(cat "$TEST_TMP/ign.plain")" "plain &: ignores SIGINT and SIGQUIT: 0" \
	"parent ignoring SIGINT and SIGQUIT: a plain background command inherits both ignored"
is "$rc" 131 "parent ignoring SIGINT and SIGQUIT: the run started through SIG_DEFAULT ends 131 on SIGQUIT (90: it never got going, 91: it ignored a signal)"
like "$TEST_TMP/ign.err" "^interrupted by Quit: cleaning up\$" "parent ignoring SIGINT and SIGQUIT: SIGQUIT: says so"

# the reader of stdout goes away: exit 141 at once, no hang, no message
# (the runs started at the top)
is "${PAR_STATUS[$TEST_TMP/pipe-head]}" 141 "stdout | head -c 10: exit status 141"
diag "stdout | head -c 10: exited after $(cat "$TEST_TMP/pipe-head") s of 30"
assert "stdout | head -c 10: nothing on stderr" stderr_clean "$TEST_TMP/pipe-head.err"
is "${PAR_STATUS[$TEST_TMP/pipe-iter]}" 141 "stdout | reader gone after the first Iter line: exit status 141"
# stderr's reader gone: the warnings at the end meet EPIPE, the run still ends 141
is "${PAR_STATUS[$TEST_TMP/pipe-err]}" 141 "stderr's reader gone, warnings to print: exit status 141"

# stdout closed by the caller: refused before the run, not written into
# whatever file the run opens next
timeout -k 5 40 "$BENCH" -w0 -d30 count-local >&- 2>"$TEST_TMP/closed.err"
rc=$?
is "$rc" 1 "stdout closed: exit status 1"
like "$TEST_TMP/closed.err" '^failed to write standard output: Bad file descriptor$' "stdout closed: says so"
timeout -k 5 40 "$BENCH" -w0 -d1 count-local >/dev/full 2>"$TEST_TMP/full.err"
rc=$?
is "$rc" 1 "stdout on /dev/full: exit status 1"
like "$TEST_TMP/full.err" '^failed to write standard output: No space left on device$' "stdout on /dev/full: says so"

done_testing
