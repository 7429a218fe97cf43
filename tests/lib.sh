# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Minimal TAP producer for the integration tests.  Source it, then call
# the assertions; done_testing prints the plan.

# PRIVATE_MOUNTS=1 before sourcing: the test file runs again, as root, in
# a mount namespace of its own (mounts it makes, a full or read-only
# tmpfs, go with it), BENCH_TEST_MNTNS=1 saying so; here, before the
# temporary directory below, which the exec would leak
if [ -n "${PRIVATE_MOUNTS:-}" ] && [ -z "${BENCH_TEST_MNTNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
   unshare --mount --propagation private true 2>/dev/null; then
	export BENCH_TEST_MNTNS=1
	exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi

# this directory and the tree's top, absolute (a test may cd later), found
# once: a test file starts a few hundred processes, and on a busy machine
# each costs milliseconds (docs/testing.md)
TESTS_DIR=${BASH_SOURCE[0]%/*}
[ "$TESTS_DIR" != "${BASH_SOURCE[0]}" ] || TESTS_DIR=.
TESTS_DIR=$(cd "$TESTS_DIR" && pwd)
SRC_TOP=${TESTS_DIR%/*}
BENCH=${BENCH:-$SRC_TOP/bench}
# contrib/lkp-tests' parse reads documents with this bench's reader
export BENCH
TAP_N=0
TAP_FAILED=0
# Runs of the tests are judged on behaviour, not on the machine's load:
# make test runs two lanes of tests side by side, which takes a producer's
# CPU share below --min-cpu-share's default now and then.  A run is never
# marked invalid for that here; tests/contention.t sets its own threshold.
export BENCH_MIN_CPU_SHARE=0
# The producers and consumers of a run spin for its measured seconds
# whatever CPU they get, and the runs' rates are never checked, so they
# spin at nice 15, on what the two lanes' other work (set-ups, builds,
# valgrind, jq) leaves: at nice 0 they took an equal share from it and
# make test took 60 s more (docs/testing.md).  A producer still gets a few
# percent of a busy CPU, a few milliseconds in every measured second.
export BENCH_TEST_THREAD_NICE=15
# AS_STARTED <command...>: the command with its runs' threads at the nice
# they start with, for runs under valgrind: valgrind runs one thread at a
# time, holding its lock, so a producer at nice 15 that other work
# preempts stalls the whole run, its sampler too (a run on a CPU shared
# with one busy loop: 63 s at nice 15, 10 s at 0)
# shellcheck disable=SC2034 # for the test files
AS_STARTED=(env BENCH_TEST_THREAD_NICE=0)
TEST_TMP=$(mktemp -d /tmp/bench-test.XXXXXX)
trap 'rm -rf "$TEST_TMP"' EXIT

TAP_LAST_FAILED=0

ok() {	# ok <0|1 as exit status of a check> <description>
	local status=$1
	shift
	TAP_N=$((TAP_N + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $TAP_N - $*"
		TAP_LAST_FAILED=0
	else
		echo "not ok $TAP_N - $*"
		TAP_FAILED=$((TAP_FAILED + 1))
		TAP_LAST_FAILED=1
		echo "# failed: $TAP_N - $*" >&2
	fi
}

# diagnostics, "# " before each line: after a failed check they go to
# stderr, which prove shows (no sed: a process a call costs milliseconds
# on a busy machine)
diag() {
	local text="$*"

	text="# ${text//$'\n'/$'\n'# }"
	if [ "$TAP_LAST_FAILED" -eq 1 ]; then
		printf '%s\n' "$text" >&2
	else
		printf '%s\n' "$text"
	fi
}

skip() {	# skip <reason> <description>
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $2 # SKIP $1"
}

# host_only <description>: true on the host.  In make vmtest's guests
# (tests/vmtest_suite.sh sets BENCH_TEST_IN_VM=1) one skip line and false:
# for checks of userspace alone, the same on every kernel and cgroup
# hierarchy, which make test runs on the host.  Under TCG every process
# costs a fifth of a second or more, and make vmtest must stay under 10
# minutes.
host_only() {
	[ "${BENCH_TEST_IN_VM:-0}" = 1 ] || return 0
	skip "userspace alone: make test checks it on the host" "$1"
	return 1
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

# run <outfile> <args...>: run the bench, keep stdout+stderr apart, return rc
run_bench() {
	local out=$1
	shift
	"$BENCH" "$@" >"$out" 2>"$out.err"
}

# ---- independent runs side by side ----
# A -d N run measures for N seconds of wall time however much CPU it gets,
# so runs that do not depend on one another, started together, end
# together: a file's checks of several configurations take the time of
# one.  Their rates suffer, and no test checks rates.  At most PAR_WIDTH
# run at once (5).  Set-up is CPU-bound, but most of a run is its measured
# seconds, which overlap whatever the CPU: make test of the same code took
# 194-196 s with 3 at once and 174 s with 5 (interleaved, 2026-12-03), and
# beside a busy loop on one CPU 214 s with 3, 183 with 5 and 177 with 8.
# Every check passed at each width; 5 keeps most of the gain with fewer
# producers sharing the CPUs, for the checks that need a run's progress.
# They start with & and so, in a script, with SIGINT and SIGQUIT ignored:
# a run a test signals starts in the foreground of its own check instead.
# In make vmtest's guests one at a time: under TCG a guest's kernel, slowed
# further by runs beside it, once sat in a bpf() call past the soft-lockup
# watchdog (44 s) with three runs at once.
if [ "${BENCH_TEST_IN_VM:-0}" = 1 ]; then
	PAR_WIDTH=${PAR_WIDTH:-1}
else
	PAR_WIDTH=${PAR_WIDTH:-5}
fi
declare -A PAR_PID=() PAR_RC=() PAR_WD=()

# par_start <out> <command...>: start the command in the background, its
# stdout in <out> and its stderr in <out>.err, as soon as fewer than
# PAR_WIDTH of those par_start started are running
par_start() {
	local out=$1

	shift
	while _par_live && [ "${#PAR_LIVE[@]}" -ge "$PAR_WIDTH" ]; do
		_par_reap_one
	done
	"$@" >"$out" 2>"$out.err" &
	PAR_PID[$out]=$!
	unset 'PAR_RC[$!]'
}

# par_watched <out> <command...>: par_start, under a watchdog of its own (a
# hung run fails its check rather than stall the suite); par_wait waits
# for the watchdog too
par_watched() {
	par_start "$@"
	watchdog "$!"
	PAR_WD[$1]=$WATCHDOG
}

# par_case <name> <bench args...>: a -w0 -d1 run par_watched, its output
# in $TEST_TMP/<name with spaces as _>, its result file beside it (.json)
par_case() {
	local out="$TEST_TMP/${1// /_}"

	shift
	par_watched "$out" "$BENCH" -w0 -d1 --json "$out.json" "$@"
}

# par_wait_all: par_wait for every run started and not yet waited for;
# each exit status in PAR_STATUS[<out>]
declare -A PAR_STATUS=()
par_wait_all() {
	local out keys=("${!PAR_PID[@]}")

	for out in "${keys[@]}"; do
		par_wait "$out"
		# shellcheck disable=SC2034 # for the test files
		PAR_STATUS[$out]=$?
	done
}

# A queue of runs that start PAR_WIDTH ahead of the checks that take
# them, so that one run's checks go on while the next ones measure
# (started all at once, par_start would hold the first check back until
# the last run had begun).  par_queue <command...>: a command that starts
# one run with par_start (par_start itself, or a helper that calls it).
# par_feed: start queued commands until PAR_WIDTH runs are ahead of those
# taken; par_feed_all, and par_feed in make vmtest's guests, all of them now
# (in the guests one at a time, PAR_WIDTH 1, and before the first check,
# as their runs always were there).
# par_take <out> [<reaper>]: the queued commands started up to <out>'s if
# it was not, the run reaped (par_wait <out>, or <reaper> <out>), whose
# status par_take returns, then par_feed.
PAR_QUEUE=() PAR_QNEXT=0 PAR_QDONE=0
par_queue() {
	PAR_QUEUE+=("$(printf '%q ' "$@")")
}
_par_qstart() {
	eval "${PAR_QUEUE[$PAR_QNEXT]}"
	PAR_QNEXT=$((PAR_QNEXT + 1))
}
_par_feed() {	# _par_feed <1 for all>
	while [ "$PAR_QNEXT" -lt "${#PAR_QUEUE[@]}" ] &&
	      { [ "$1" = 1 ] || [ "${BENCH_TEST_IN_VM:-0}" = 1 ] ||
		[ $((PAR_QNEXT - PAR_QDONE)) -lt "$PAR_WIDTH" ]; }; do
		_par_qstart
	done
}
par_feed() {
	_par_feed 0
}
par_feed_all() {
	_par_feed 1
}
par_take() {
	local rc

	while [ -z "${PAR_PID[$1]:-}" ] && [ "$PAR_QNEXT" -lt "${#PAR_QUEUE[@]}" ]; do
		_par_qstart
	done
	"${2:-par_wait}" "$1"
	rc=$?
	PAR_QDONE=$((PAR_QDONE + 1))
	par_feed
	return "$rc"
}

# _par_live: the pids of par_start's runs not yet reaped, into PAR_LIVE
# (no subshell: par_start asks at every start).  A run whose process is
# gone has ended and bash has its status: it is reaped here, since bash
# may have dropped it from its jobs (_par_reap_one).
_par_live() {
	local k pid

	PAR_LIVE=()
	for k in "${!PAR_PID[@]}"; do
		pid=${PAR_PID[$k]}
		[ -z "${PAR_RC[$pid]+set}" ] || continue
		if kill -0 "$pid" 2>/dev/null; then
			PAR_LIVE+=("$pid")
		else
			wait "$pid"
			PAR_RC[$pid]=$?
		fi
	done
}

# _par_reap_one: wait for one of PAR_LIVE to end, its status into PAR_RC.
# Once a job has ended, bash may drop it from its jobs (it keeps its
# status for wait PID), and wait -n then passes it over ("no such job");
# with every one dropped, wait -n returns 127 and names none, so each is
# waited for by its pid.  (A pid left unnamed here once made the rest of
# a test's block of checks vanish without a word: bash abandons a command
# whose array subscript is empty.)
_par_reap_one() {
	local pid='' rc

	wait -n -p pid "${PAR_LIVE[@]}" 2>/dev/null
	rc=$?
	if [ -n "$pid" ]; then
		PAR_RC[$pid]=$rc
		return
	fi
	# anything but 127 (a trapped signal) is not a run's end: ask again
	[ "$rc" -eq 127 ] || return 0
	for pid in "${PAR_LIVE[@]}"; do
		wait "$pid"
		PAR_RC[$pid]=$?
	done
}

# par_wait <out>: wait for the run par_start started as <out>; its exit
# status is par_wait's, and its pid is in RUN_PID
par_wait() {
	local pid=${PAR_PID[$1]:-} rc

	if [ -z "$pid" ]; then
		diag "par_wait: no run was started as $1"
		return 255
	fi
	if [ -n "${PAR_RC[$pid]+set}" ]; then
		rc=${PAR_RC[$pid]}
	else
		wait "$pid"
		rc=$?
	fi
	if [ -n "${PAR_WD[$1]:-}" ]; then
		wait "${PAR_WD[$1]}" 2>/dev/null
		unset 'PAR_WD[$1]'
	fi
	unset 'PAR_PID[$1]' 'PAR_RC[$pid]'
	# shellcheck disable=SC2034 # for the test files
	RUN_PID=$pid
	return "$rc"
}

# shared_runs <dir> <bench options...>: a RUN_BENCH for a wrapper script
# (benchs/run_bench_*.sh) whose runs are configurations the test checks
# anyway, so that one run feeds both: each runs "$BENCH <bench options...>
# --json FILE <the script's arguments...>", passes its output and status on
# to the script, and keeps its stdout, stderr, JSON, pid and exit status
# as <dir>/<the script's arguments joined by _> for shared_take
shared_runs() {
	local dir=$1
	shift
	mkdir -p "$dir" || return 1
	{
		echo '#!/bin/bash'
		# shellcheck disable=SC2016 # the stand-in's own expansions
		echo 'k=$(dirname "$0")/$(IFS=_; echo "$*")'
		# a run shared_ahead started: its output, once it has ended
		# shellcheck disable=SC2016
		printf '%s\n' 'if [ -z "${SHARED_AHEAD:-}" ] && [ -e "$k.ahead" ]; then' \
			'	while [ ! -e "$k.rc" ]; do sleep 0.05; done' \
			'	cat "$k"; cat "$k.err" >&2; exit "$(cat "$k.rc")"' 'fi'
		printf '%q ' "$BENCH" "$@"
		# shellcheck disable=SC2016
		printf '%s\n' '--json "$k.json" "$@" >"$k" 2>"$k.err" &' 'echo $! >"$k.pid"' \
			'wait $!' 'rc=$?' 'echo $rc >"$k.rc.new"' 'mv "$k.rc.new" "$k.rc"' \
			'cat "$k"' 'cat "$k.err" >&2' 'exit $rc'
	} >"$dir/run" && chmod +x "$dir/run" && echo "$dir/run"
}

# shared_ahead <run> <the script's arguments...>: start now, side by side
# (par_start, as <dir>/<key>.par), the run a wrapper script will ask
# shared_runs' <run> for, so that the script's own call, one after
# another, only waits for it and passes on its output and status; for
# scripts whose runs are independent of each other.  par_wait_all reaps.
shared_ahead() {
	local run=$1 k
	shift
	k=$(dirname "$run")/$(IFS=_; echo "$*")
	: >"$k.ahead" || return 1
	par_start "$k.par" env SHARED_AHEAD=1 "$run" "$@"
}

# shared_take <dir>/<key> <out>: a run shared_runs kept, as <out>,
# <out>.err and <out>.json (none if it wrote none), its pid in RUN_PID and
# its exit status in SHARED_RC; fails when there is no such run
shared_take() {
	[ -e "$1.rc" ] && cp "$1" "$2" && cp "$1.err" "$2.err" && rm -f "$2.json" || return 1
	[ ! -e "$1.json" ] || cp "$1.json" "$2.json"
	# shellcheck disable=SC2034 # for the test files
	RUN_PID=$(cat "$1.pid")
	# shellcheck disable=SC2034
	SHARED_RC=$(cat "$1.rc")
}

# assert <description> <command...>: ok when the command succeeds
assert() {
	local what=$1
	shift
	if "$@"; then
		ok 0 "$what"
	else
		ok 1 "$what"
	fi
}

# like() <file> <extended regex> <description>
like() {
	if grep -Eq -- "$2" "$1"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "expected /$2/ in $1:"
		diag "$(head -c 2000 "$1")"
	fi
}

# Comparisons with a diagnostic: on failure they print what was got and
# what was expected, so a failed run says why without a rerun.

_tap_got_expected() {	# _tap_got_expected <got> <expected text>
	diag "     got: '$1'"
	diag "expected: $2"
}

# is <got> <expected> <description>: string equality
is() {
	local got=$1 want=$2
	shift 2
	if [ "$got" = "$want" ]; then
		ok 0 "$*"
	else
		ok 1 "$*"
		_tap_got_expected "$got" "'$want'"
	fi
}

# isnt <got> <unexpected> <description>: anything but <unexpected>
isnt() {
	local got=$1 want=$2
	shift 2
	if [ "$got" != "$want" ]; then
		ok 0 "$*"
	else
		ok 1 "$*"
		_tap_got_expected "$got" "anything but '$want'"
	fi
}

# cmp_ok <got> <op> <expected> <description>: op is one of test(1)'s
# integer comparisons (-eq -ne -lt -le -gt -ge; a non-integer operand
# fails) or a string comparison (== !=)
cmp_ok() {
	local got=$1 op=$2 want=$3 res=1
	shift 3
	case "$op" in
	-eq | -ne | -lt | -le | -gt | -ge)
		if [[ $got =~ ^-?[0-9]+$ && $want =~ ^-?[0-9]+$ ]]; then
			test "$got" "$op" "$want" && res=0
		fi
		;;
	==)
		[ "$got" = "$want" ] && res=0
		;;
	!=)
		[ "$got" != "$want" ] && res=0
		;;
	*)
		ok 1 "$*"
		diag "cmp_ok: unknown operator '$op'"
		return
		;;
	esac
	ok "$res" "$*"
	[ "$res" -eq 0 ] || _tap_got_expected "$got" "$op '$want'"
}

# Numeric assertions on decimals (rates, MiB, ratios).  A got or expected
# value that is not a number fails: an extraction that found nothing (an
# empty string, jq's null, a "nan" put in its place) never passes, where
# awk alone would take "" for 0 and compare "nan" as a string.

_tap_is_num() {	# _tap_is_num <value>: a decimal number, sign and exponent allowed
	[[ $1 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]
}

# cmp_num <got> <op> <expected> <description>: op is one of < <= > >= == !=
cmp_num() {
	local got=$1 op=$2 want=$3 res=1
	shift 3
	case "$op" in
	'<' | '<=' | '>' | '>=' | '==' | '!=') ;;
	*)
		ok 1 "$*"
		diag "cmp_num: unknown operator '$op'"
		return
		;;
	esac
	if _tap_is_num "$got" && _tap_is_num "$want" &&
	   awk -v a="$got" -v b="$want" "BEGIN { exit !(a + 0 $op b + 0) }"; then
		res=0
	fi
	ok "$res" "$*"
	[ "$res" -eq 0 ] || _tap_got_expected "$got" "$op $want"
}

# is_near <got> <expected> <tolerance> <description>: |got - expected| <=
# tolerance; a tolerance ending in % is relative to expected
is_near() {
	local got=$1 want=$2 tol=$3 res=1 abs
	shift 3
	abs=${tol%\%}
	if _tap_is_num "$got" && _tap_is_num "$want" && _tap_is_num "$abs" &&
	   awk -v a="$got" -v b="$want" -v t="$abs" -v rel="$([ "$abs" != "$tol" ] && echo 1)" \
		'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
			 exit !(d <= (rel ? t / 100 * m : t)) }'; then
		res=0
	fi
	ok "$res" "$*"
	[ "$res" -eq 0 ] || _tap_got_expected "$got" "'$want' within $tol"
}

# is_exit <status> <description> <command...>: run the command, its
# stdout into $TEST_TMP/is_exit.out, its stderr into $TEST_TMP/is_exit.err,
# and compare its exit status
is_exit() {
	local want=$1 desc=$2 rc=0
	shift 2
	"$@" >"$TEST_TMP/is_exit.out" 2>"$TEST_TMP/is_exit.err" || rc=$?
	is "$rc" "$want" "$desc"
	if [ "$rc" != "$want" ] && [ -s "$TEST_TMP/is_exit.err" ]; then
		diag "stderr: $(head -c 1000 "$TEST_TMP/is_exit.err")"
	fi
}

# bench_needs_opts <benchmark>: what a run of every listed benchmark in one
# loop must add for this one (lpm-trie-*: the trie's size, which has no
# default, and one producer for those whose passes change the trie; the
# ring buffer ones: their one consumer, which upstream's runs name too)
# contrib/lkp-tests' parse: bench's result document (the log lkp's run
# writes) in, lkp stats ("key: value") out
# shellcheck disable=SC2034 # for the test files that source this one
LKP_PARSE=$SRC_TOP/contrib/lkp-tests/programs/bpf-bench/parse

# lkp_contract <parsed> <benchmark>: contrib/lkp-tests' parse output, as
# lkp-tests' sbin/dump-stat takes it: one key, a colon and a finite number
# a line, keys without the job's parameters (no benchmark or configuration
# in them: lkp's result path has those), none twice
lkp_contract() {
	local parsed=$1 b=$2 bad

	cmp_ok "$(grep -c . "$parsed")" -ge 2 "$b: parse prints the run's metrics"
	bad=$(awk '
		!/^[a-z0-9_]+: [-+0-9.eE]+$/ { print "not key: number: " $0; next }
		{ v = $2 + 0; if (v != v || v - v != 0 || $2 !~ /[0-9]/) print "not finite: " $0 }
		' "$parsed")
	is "$bad" "" "$b: every line is one key of [a-z0-9_], a colon, a finite number"
	is "$(cut -d: -f1 "$parsed" | sort | uniq -d)" "" "$b: no key twice"
}

# bench_representatives: the benchmarks bench -l lists, but of the
# families that are one source file each (lpm-trie-*, map_perf_test's
# tests, the bloom filter five, local-storage-cache-*, the ring buffer
# four) the first member only; lpm_trie.t, map_perf.t,
# bloom_filter_map.t, local_storage.t and ringbufs.t run every member
bench_representatives() {
	"$BENCH" -l | awk 'NR > 1 {
		fam = $1 ~ /^lpm-trie-/ ? "lpm" : $2 == "map_perf_test" ? "perf" : $1 ~ /bloom/ ? "bloom" : ""
		if ($1 ~ /^local-storage-cache-/)
			fam = "lsc"
		if ($1 ~ /^(rb|pb)-(libbpf|custom)$/)
			fam = "ringbufs"
		if (fam == "" || !seen[fam]++)
			print $1
	}'
}

bench_needs_opts() {
	case $1 in
	lpm-trie-insert | lpm-trie-delete | lpm-trie-free) echo "--nr_entries 1000 -p1" ;;
	lpm-trie-*) echo "--nr_entries 1000" ;;
	# one producer, as upstream's; one 4M-entry hash map, a few sleepers
	local-storage-cache-hashmap-control) echo "-p1 --nr_maps 1 --hashmap_nr_keys_used 10" ;;
	local-storage-cache-*) echo "-p1 --nr_maps 17" ;;
	local-storage-tasks-trace) echo "-p1 --nr_procs 10" ;;
	rb-* | pb-*) echo "-c1" ;;
	esac
}

# refused <stderr regex> <bench args...>: the run is refused before set-up,
# with a non-zero exit and one line on stderr that matches
refused() {
	local want=$1 rc=0

	shift
	"$BENCH" "$@" >"$TEST_TMP/refused" 2>"$TEST_TMP/refused.err" || rc=$?
	[ "$rc" -ne 0 ] && [ "$(wc -l <"$TEST_TMP/refused.err")" -eq 1 ] &&
		grep -Eq -- "$want" "$TEST_TMP/refused.err" && ! grep -q 'Setting up' "$TEST_TMP/refused"
	ok $? "refused in one line: $*"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$TEST_TMP/refused.err")"
}

# Integration tests that load BPF: under CI=true, not being able to is a
# failure; elsewhere the whole file is skipped with the reason.
require_bpf() {
	local why=""

	if [ "$(id -u)" -ne 0 ]; then
		why="not root: loading BPF programs needs root (or CAP_BPF+CAP_PERFMON+CAP_SYS_ADMIN)"
	elif [ ! -r /sys/kernel/btf/vmlinux ]; then
		why="kernel has no BTF at /sys/kernel/btf/vmlinux"
	fi
	if [ -n "$why" ]; then
		if [ "${CI:-}" = "true" ]; then
			echo "1..1"
			echo "not ok 1 - cannot load BPF under CI: $why"
			exit 1
		fi
		skip_all "$why"
	fi
	bpf_test_lock
}

# bpf_test_lock: one BPF test file at a time on this machine, whichever
# checkout it comes from: the tests check that nothing of theirs is left
# loaded, attached or in a cgroup, and another checkout's run would be
# taken for a leftover.  The lock is held (fd 8, inherited by the runs)
# until the test file exits; BENCH_TEST_LOCK names another lock file.
bpf_test_lock() {
	[ -n "${BENCH_TEST_LOCKED:-}" ] && return 0
	command -v flock >/dev/null || return 0
	exec 8>>"${BENCH_TEST_LOCK:-/tmp/bench-bpf-tests.lock}" || return 0
	flock 8
	export BENCH_TEST_LOCKED=1
}

# own_mem_source: "v2 DIR" or "v1 DIR", the memory cgroup we run in,
# decided like cgroup_helpers.c does: the v2 cgroup when it delegates memory
# to its children, else the v1 memory one; nothing when there is neither
own_mem_source() {
	local v2mnt v1mnt path

	# mountinfo: ... mountpoint opts [optional fields] - fstype source superopts
	v2mnt=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup2" { print $5; exit }' \
		/proc/self/mountinfo)
	path=$(awk -F: '$1 == "0" && $2 == "" { print $3 }' /proc/self/cgroup)
	if [ -n "$v2mnt" ] && grep -qw memory "$v2mnt$path/cgroup.subtree_control" 2>/dev/null; then
		echo "v2 ${v2mnt}${path%/}"
		return
	fi
	v1mnt=$(awk '{ for (i = 7; $i != "-"; i++); }
		$(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/ { print $5; exit }' \
		/proc/self/mountinfo)
	path=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	if [ -n "$v1mnt" ] && [ -e "$v1mnt$path/memory.usage_in_bytes" ]; then
		echo "v1 ${v1mnt}${path%/}"
	fi
}

# own_mem_cgroup: the directory of own_mem_source
own_mem_cgroup() {
	local src

	src=$(own_mem_source)
	echo "${src#v? }"
}

# loaded_bench_progs <name regex>: how many loaded BPF programs have a name
# the regex matches; fails, printing nothing, when bpftool cannot list
# them or the regex is not one, so that "nothing left loaded" cannot pass
# on a failed listing
loaded_bench_progs() {
	local list l re="name ($1) " n=0

	[[ '' =~ $re ]]
	[ $? -ne 2 ] || return 1	# not a regex
	list=$(bpftool prog show 2>/dev/null) || return 1
	# counted in the shell: eventually asks every tenth of a second
	while IFS= read -r l; do
		[[ $l =~ $re ]] && n=$((n + 1))
	done <<<"$list"
	echo "$n"
}

# none_loaded <name regex>: the programs were listed, and none matches
none_loaded() {
	local n

	n=$(loaded_bench_progs "$1") && [ "$n" -eq 0 ]
}

# stderr_clean <file>: nothing on stderr but the runner's noise warnings
# ("warning: ..."), which depend on the machine's load, not on correctness,
# and the hook line (HOOK_LINE); blank lines at the end do not count
stderr_clean() {
	local l n

	_hook_lines "$1" || return 1
	n=${#HOOK_REST[@]}
	while [ "$n" -gt 0 ] && [ -z "${HOOK_REST[n - 1]}" ]; do
		n=$((n - 1))
	done
	for l in "${HOOK_REST[@]:0:n}"; do
		[[ $l == 'warning: '* || $l == 'note: the run has '*' a producer is judged against its fair share'* ]] ||
			return 1
	done
}

# the line bpf-hashmap-lookup and local-storage-create print on stderr to
# say which hook they ran on
HOOK_LINE='^hook: (fentry/[a-z0-9_]*sys_getpgid|tp/syscalls/sys_enter_getpgid \((fentry unavailable: .+|--hook tracepoint)\)'
HOOK_LINE+='|lsm\.s/socket_post_create|tp_btf/sched_process_fork'
HOOK_LINE+='|cgroup/sock_create \((lsm\.s/socket_post_create unavailable: .+|--socket-hook cgroup)\))$'

# local-storage-tasks-trace's second line: where its grace periods are timed
GP_LINE='^grace periods: (fentry/rcu_tasks_trace_pregp_step to fentry/rcu_tasks_trace_postgp|not measured \(.+\))$'

# _hook_lines <stderr file>: its lines but the "hook:" and "grace
# periods:" ones into HOOK_REST; fails when it cannot be read, has more
# than one hook line or a grace periods line more than hook lines, or one
# of them is malformed.  In the shell, without grep: stderr_clean runs
# after every run of the BPF tests.
_hook_lines() {
	local -a lines
	local l n=0 g=0

	HOOK_REST=()
	mapfile -t lines <"$1" || return 1
	for l in "${lines[@]}"; do
		case $l in
		'hook: '*)
			n=$((n + 1))
			[[ $l =~ $HOOK_LINE ]] || return 1
			;;
		'grace periods: '*)
			g=$((g + 1))
			[[ $l =~ $GP_LINE ]] || return 1
			;;
		*) HOOK_REST+=("$l") ;;
		esac
	done
	[ "$n" -le 1 ] && [ "$g" -le "$n" ]
}

# strip_hook_line <stderr file>: the file without the one well-formed
# "hook:" line (and "grace periods:" line); fails on several or on a
# malformed one
strip_hook_line() {
	_hook_lines "$1" || return 1
	[ "${#HOOK_REST[@]}" -eq 0 ] || printf '%s\n' "${HOOK_REST[@]}"
}

# eventually <command...>: true once the command succeeds within 3 s; the
# kernel frees a closed program's maps asynchronously
eventually() {
	local i

	for ((i = 1; i <= 30; i++)); do
		"$@" && return 0
		[ "$i" -lt 30 ] && nap 0.1
	done
	return 1
}

# bench plot's tests need gnuplot and xmllint: under CI=true their absence
# is a failure (install-deps.sh installs both), elsewhere a skip
require_plot_tools() {
	local t why=""

	for t in gnuplot xmllint; do
		command -v $t >/dev/null || why+="${why:+, }$t not installed"
	done
	[ -z "$why" ] && return 0
	why+=" (scripts/install-deps.sh installs gnuplot-nox and libxml2-utils)"
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - cannot test bench plot under CI: $why"
		exit 1
	fi
	skip_all "$why"
}

# ---- the machine: memory cgroups, tracefs, runs that hang ----

# tracefs_mounts: how many tracefs mounts this mount namespace has; fails,
# printing nothing, when the mount table cannot be read
tracefs_mounts() {
	grep -c ' - tracefs ' /proc/self/mountinfo
	# grep -c: 1 when it counted none, 2 when it could not read
	[ $? -le 1 ]
}

# "${SIG_DEFAULT[@]}" <command...> &: the command with SIGHUP, SIGINT,
# SIGQUIT, SIGTERM and SIGPIPE at their default action, for a test that
# signals it.  A test sets the dispositions it relies on: a background
# command of a non-interactive shell starts with SIGINT and SIGQUIT
# ignored, a test started by `make test &` from a script inherits them
# ignored, and bash cannot undo an ignore it inherited.  An array, not a
# function: `"${SIG_DEFAULT[@]}" cmd &` is one process, exec'd, so $! is
# the command's pid.  coreutils' env has --default-signal since 8.31;
# perl resets them where env cannot (a guest's busybox).
# shellcheck disable=SC2034,SC2054 # for the test files; env's list has commas
if env --default-signal=INT true 2>/dev/null; then
	SIG_DEFAULT=(env --default-signal=HUP,INT,QUIT,TERM,PIPE)
else
	# shellcheck disable=SC2016,SC2034 # perl's code, for the test files
	SIG_DEFAULT=(perl -e '$SIG{$_} = "DEFAULT" for qw(HUP INT QUIT TERM PIPE);
		exec { $ARGV[0] } @ARGV or die "failed to run $ARGV[0]: $!\n"')
fi

# sig_ignored <pid> <signal name>: the process ignores the signal (its
# SigIgn mask in /proc); fails when it does not or /proc cannot tell
sig_ignored() {
	local mask

	mask=$(awk '$1 == "SigIgn:" { print $2 }' "/proc/$1/status" 2>/dev/null) &&
		[ -n "$mask" ] && (((0x$mask >> ($(kill -l "$2") - 1)) & 1))
}

# nap <seconds>: sleep without starting a process: read's timeout on a
# FIFO this shell holds open at both ends, where nothing ever arrives (sleep
# where the FIFO could not be made).  A poller that starts a sleep every
# 0.2 s takes, in a TCG guest where a process costs a fifth of a second or
# more, a good part of a CPU from the run it watches.
NAP_FD=""
mkfifo "$TEST_TMP/nap" 2>/dev/null && exec {NAP_FD}<>"$TEST_TMP/nap"
nap() {
	if [ -n "$NAP_FD" ]; then
		read -r -t "$1" -u "$NAP_FD" || true
	else
		sleep "$1"
	fi
}

# watchdog <pid>: a hung run must fail its test, not stall the suite:
# SIGINT after 60 s (the bench cleans up), SIGKILL 15 s later.  It ends
# by itself once the run is reaped, so nothing has to kill it: a killed
# subshell could run the test's EXIT trap and remove $TEST_TMP.  It polls
# with builtins only (kill -0, nap) for the whole run: every 0.05 s for
# the first 5 s, where most runs end (reap waits for it to see the end),
# then every 0.2 s.
watchdog() {
	local pid=$1

	(
		trap - EXIT
		for ((i = 0; i < 375; i++)); do
			kill -0 "$pid" 2>/dev/null || exit 0
			if ((i < 100)); then nap 0.05; else nap 0.2; fi
		done
		kill -INT "$pid" 2>/dev/null && echo "# watchdog: SIGINT to hung run $pid" >&2
		for ((i = 0; i < 75; i++)); do
			kill -0 "$pid" 2>/dev/null || exit 0
			nap 0.2
		done
		kill -KILL "$pid" 2>/dev/null
	) </dev/null >/dev/null &
	WATCHDOG=$!
}

# reap <pid>: wait for a run under a watchdog; its status
reap() {
	local rc

	wait "$1"
	rc=$?
	wait "$WATCHDOG" 2>/dev/null
	return $rc
}

# wait_for <file> <extended regex> <pid> [seconds]: until the file has a
# line the regex matches, for up to 10 s or the seconds given (a guest
# under TCG is slower); fails at the limit or when the process has died
# without printing it: a test waits for the state it needs, not a guess
wait_for() {
	local i

	for ((i = 0; i < ${4:-10} * 10; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		if ! kill -0 "$3" 2>/dev/null; then
			grep -Eq -- "$2" "$1" 2>/dev/null
			return
		fi
		nap 0.1
	done
	return 1
}

# wait_iter <out> <pid> [seconds]: until the run has printed a sample
wait_iter() {
	wait_for "$1" '^Iter' "$2" "${3:-10}"
}

# ---- reading a run's output: the wrapper scripts' parser ----

RUN_COMMON=$SRC_TOP/benchs/run_common.sh

# run_common <function> <args...>: one of benchs/run_common.sh's helpers,
# its Summary parser (summary_line, field, field_num, repeats_field) so
# that the tests read the output as the wrapper scripts do; in a subshell,
# since sourcing it changes directory and defines a run_bench of its own
run_common() {
	# not followed: its globals, set in this subshell only, are not ours
	# shellcheck source=/dev/null
	(source "$RUN_COMMON" && "$@")
}

# last_summary <file>: the last "Summary:" line of a run's output; fails
# when there is none
last_summary() {
	run_common summary_line "$(cat "$1")"
}

# schema_ok <file> <description>: the result file validates against
# tests/schema.jq; a jq that fails (no file, not JSON) fails the check
# (the schema's path is fixed when lib.sh is sourced: a test may cd later)
SCHEMA_JQ=$TESTS_DIR/schema.jq
schema_ok() {
	local errs

	errs=$(jq -r -f "$SCHEMA_JQ" "$1" 2>&1) ||
		errs="jq failed (exit $?): $errs"
	is "$errs" "" "$2"
}

# ---- result files made up to a known ratio ----

# steady_and_halved <run.json> <steady.json> <halved.json>: the run with its
# hits made up (a real run's spread can hide even a halving): steady samples
# around 100, and the same halved.  compare checks the summary against the
# samples, so it is made to match; 4.3026... is Student's t for 95% and 2
# degrees of freedom (the run must have 3 measured samples).
steady_and_halved() {
	jq '.samples |= [to_entries[] | .value.metrics.hits = 99 + .key % 3 | .value] |
	    .summary.metrics.hits += {mean: 100, stddev: 1, median: 100, min: 99, max: 101,
				      cv: 0.01, ci95: (4.302652729911275 / (3 | sqrt)),
				      q1: 99.5, q3: 100.5, iqr: 1, mad: 1, p90: 100.8, p99: 100.98,
				      tukey: {low_fence: 98, high_fence: 102, outliers: []}}' "$1" >"$2" &&
	scaled_hits "$2" 0.5 "$3"
}

# scaled_hits <run.json> <factor> <out.json>: a run without repeats with
# every hits sample, and the summary's figures of them, times factor (the
# cv and the outliers' list stay what they are)
scaled_hits() {
	jq --argjson k "$2" '.samples |= map(.metrics.hits *= $k) |
	    .summary.metrics.hits |= with_entries(if .key | IN("mean", "stddev", "median", "min", "max", "ci95",
							       "q1", "q3", "iqr", "mad", "p90", "p99")
						  then .value |= (if . == null then null else . * $k end)
						  else . end) |
	    .summary.metrics.hits.tukey |= (.low_fence *= $k | .high_fence *= $k)' "$1" >"$3"
}

# ---- valgrind ----

# vg_verdict <status> <expected status> <description>: judge a run under
# valgrind (--error-exitcode=99, without -q, stderr in $TEST_TMP/vg.err):
# the bench's own exit status, then a report with no error, leaks of the
# kinds given to --errors-for-leak-kinds included.  A crash, a failed load
# or a timeout (124, 137) fails the first check.
vg_verdict() {
	local rc=$1 want=$2 desc=$3

	is "$rc" "$want" "valgrind: $desc: exit status"
	[ "$rc" = "$want" ] || diag "$(grep -v '^==[0-9]*==' "$TEST_TMP/vg.err" | head -20)"
	if grep -Eq '^==[0-9]+== ERROR SUMMARY: 0 errors from 0 contexts' "$TEST_TMP/vg.err"; then
		ok 0 "valgrind: $desc: ERROR SUMMARY: 0 errors"
	else
		ok 1 "valgrind: $desc: ERROR SUMMARY: 0 errors"
		diag "$(grep '^==[0-9]*== ' "$TEST_TMP/vg.err" | head -60)"
	fi
}

# ---- KCIDB: the report schema and a Draft-07 validator ----

# require_kcidb_validator: sets KCIDB_SCHEMA and KCIDB_VALIDATE.  The schema
# is vendored in tests/kcidb/ (its README says from where, under which
# licence); KCIDB_SCHEMA=FILE validates against another.  Under CI=true a
# missing validator is a failure, elsewhere a skip.
require_kcidb_validator() {
	local why=""

	KCIDB_VALIDATE=$TESTS_DIR/kcidb_validate.py
	KCIDB_SCHEMA=${KCIDB_SCHEMA:-$TESTS_DIR/kcidb/kcidb-io.schema.v5.3.json}
	export KCIDB_SCHEMA KCIDB_VALIDATE
	[ -r "$KCIDB_SCHEMA" ] || why="no KCIDB schema at $KCIDB_SCHEMA"
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
		why+="${why:+, }python3-jsonschema not installed (scripts/install-deps.sh installs it)"
	[ -z "$why" ] && return 0
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - cannot validate KCIDB reports under CI: $why"
		exit 1
	fi
	skip_all "$why"
}
