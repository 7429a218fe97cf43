#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem end to end with real BPF: every use case in both flavours, the
# memory figures from the run's own cgroup, clean-up after normal exit,
# SIGINT, SIGTERM and SIGKILL, concurrent runs and bad input.

# Other sessions on the machine mount and unmount tracefs as they please:
# in a private mount namespace, "no tracefs mount left behind" is ours to
# check.  (Before lib.sh, whose temporary directory exec would leak.)
if [ -z "${HTAB_MEM_T_MNTNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
   unshare --mount --propagation private true 2>/dev/null; then
	export HTAB_MEM_T_MNTNS=1
	exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

require_bpf

PROGS='htab_mem_[a-z_]*'

USE_CASES="overwrite batch_add_batch_del add_del_on_diff_cpu no_op"

CG_PARENT=$(own_mem_cgroup)
if [ -z "$CG_PARENT" ]; then
	diag "no memory cgroup on this machine: memory figures will read n/a"
fi

if [ -n "${HTAB_MEM_T_MNTNS:-}" ]; then
	# start from "not mounted", so the bench has to mount and unmount it
	while [ "$(tracefs_mounts)" -gt 0 ] && umount /sys/kernel/tracing 2>/dev/null; do
		:
	done
else
	diag "no private mount namespace: tracefs checks may see other sessions' mounts"
fi
TRACEFS_BEFORE=$(tracefs_mounts)
cmp_ok "$TRACEFS_BEFORE" -ge 0 "tracefs mounts at the start, counted (the clean-up checks compare with it)"

# run_htab <out> <args...>: run the bench, set RUN_PID, return its status
run_htab() {
	local out=$1 start rc
	shift
	start=$SECONDS
	"$BENCH" "$@" >"$out" 2>"$out.err" &
	RUN_PID=$!
	watchdog "$RUN_PID"
	reap "$RUN_PID"
	rc=$?
	if [ $((SECONDS - start)) -gt 30 ]; then
		diag "slow run ($((SECONDS - start)) s, exit $rc): $*" "$(cat "$out.err")"
	fi
	return $rc
}

# check_clean <pid> <what>: nothing of that run is left behind
check_clean() {
	local pid=$1 what=$2 left=""

	if [ -n "$CG_PARENT" ] && [ -e "$CG_PARENT/bench-htab-mem.$pid" ]; then
		left="cgroup $CG_PARENT/bench-htab-mem.$pid"
	fi
	# a listing that failed counts as something left: it cannot tell
	if ! none_loaded "$PROGS"; then
		left="$left; BPF program: $(bpftool prog show 2>&1 | grep -E "name $PROGS|rror")"
	fi
	if [ "$(tracefs_mounts)" != "$TRACEFS_BEFORE" ]; then
		left="$left; tracefs mounts $TRACEFS_BEFORE -> $(tracefs_mounts)"
	fi
	is "$left" "" "$what: nothing left behind"
}

# num <summary line> <label>: the figure after the label, as the wrapper
# scripts read it (nothing when there is none: the checks then fail)
num() {
	run_common field_num "$1" "$2"
}

# summary_nums <summary line>: per-prod-op, its ±, memory usage, its ±
# and peak, read by the wrapper scripts' own field_num ("-" for one that
# is missing, which fails the checks); inside run_common: one source of
# run_common.sh for all five, where a process costs a second under TCG
summary_nums() {
	local f

	for f in per-prod-op '±' 'memory usage' 'memory usage ±' 'peak memory usage'; do
		if [ "$f" = 'memory usage ±' ]; then
			field_num "${1#*memory usage}" '±' || echo -
		else
			field_num "$1" "$f" || echo -
		fi
	done | paste -sd ' '
}

# summary_facts <out>: the last Summary line (lib.sh's last_summary), then
# its summary_nums; fails when there is none.  Inside run_common: one
# source of run_common.sh for both.
summary_facts() {
	local s

	s=$(summary_line "$(cat "$1")") || return 1
	echo "$s"
	summary_nums "$s"
}

# check_summary <out> <name>: format byte for byte, and sane figures; the
# Summary's per-prod-op and peak in SUM_OP and SUM_PEAK
check_summary() {
	local out=$1 name=$2 facts s op opsd mem memsd peak want iter iters bad

	SUM_OP=- SUM_PEAK=-
	if ! facts=$(run_common summary_facts "$out"); then
		ok 1 "$name: Summary line"
		diag "$(cat "$out" "$out.err")"
		return
	fi
	s=${facts%%$'\n'*}
	read -r op opsd mem memsd peak <<<"${facts#*$'\n'}"
	SUM_OP=$op SUM_PEAK=$peak
	# reprint the numbers with upstream's printf formats: must be identical
	want=$(printf 'Summary: per-prod-op %7.2f \u00B1 %7.2fk/s, memory usage %7.2f \u00B1 %7.2fMiB, peak memory usage %7.2fMiB' \
		"$op" "$opsd" "$mem" "$memsd" "$peak" 2>/dev/null)
	is "$s" "$want" "$name: Summary in upstream's format"

	bad=0
	iters=0
	# the figures as sed -E 's/.*LABEL +([0-9.]+).*/\1/' reads them (the
	# whole line when there is none), by bash's own regex: no process
	while IFS= read -r iter; do
		iters=$((iters + 1))
		op=$iter mem=$iter
		[[ $iter =~ ^.*per-prod-op\ +([0-9.]+) ]] && op=${BASH_REMATCH[1]}
		[[ $iter =~ ^.*memory\ usage\ +([0-9.]+) ]] && mem=${BASH_REMATCH[1]}
		want=$(printf 'per-prod-op %7.2fk/s, memory usage %7.2fMiB' "$op" "$mem" 2>/dev/null)
		if ! [[ $iter =~ ^Iter\ +[0-9]+\ \(\ *-?[0-9]+\.[0-9]{3}us\):\  ]] ||
		   [ "${iter#*: }" != "$want" ]; then
			bad=1
			diag "bad Iter line: $iter"
		fi
	done < <(grep '^Iter' "$out")
	# -d1: one measured sample, one Iter line (a run without any passes nothing)
	is "$iters $bad" "1 0" "$name: one Iter line, in upstream's format"

	cmp_num "$op" '>' 0 "$name: per-prod-op is positive (k/s)"
	cmp_num "$peak" '>' 0 "$name: peak memory is positive (MiB)"
	cmp_num "$peak" '>=' "$mem" "$name: peak memory is not below the average"
	! grep -q '^Failures:' "$out"
	ok $? "$name: no map update or delete failed"
	grep '^Failures:' "$out" | while IFS= read -r l; do diag "$l"; done
}

declare -A PEAK OP PAR_T0 RC PID

# par_htab <out> <args...>: the bench, par_watched (under a watchdog of its
# own: a hung run must fail its check, not stall the suite)
par_htab() {
	local out=$1

	shift
	par_watched "$out" "$BENCH" "$@"
	PAR_T0[$out]=$SECONDS
}

# wait_htab <out>: par_wait for the run (and its watchdog); the run's
# exit status in RC[out], its pid in PID[out]
wait_htab() {
	local out=$1 rc

	par_wait "$out"
	rc=$?
	RC[$out]=$rc
	PID[$out]=$RUN_PID
	if [ $((SECONDS - ${PAR_T0[$out]})) -gt 30 ]; then
		diag "slow run ($((SECONDS - ${PAR_T0[$out]})) s from its start, exit $rc): $out" "$(cat "$out.err")"
	fi
}

# The measured runs of the next two sections side by side (lib.sh's
# par_start, PAR_WIDTH at once).  Each run measures its own cgroup
# (bench-htab-mem.<pid>), and what is checked of the figures is that
# they are positive, that the peak is not below the average and that
# 4096-byte values peak higher than 8-byte ones, which neighbours do not
# turn round; no rate is checked.  The two runs of "two runs at once"
# (checked below, in their section) start first, together: their set-ups
# and measured seconds overlap.  A use case's run is checked of its own
# output as soon as it is reaped, while the runs after it go on (its
# checks read its files alone); every check_clean waits until all are
# reaped: it looks for any htab-mem program left loaded and counts
# tracefs mounts, which a run beside the one checked would fail.

# check_run <out> <name>: a use case's run, of its own exit status and output
check_run() {
	local out=$1 name=$2 rc=${RC[$1]}

	is "$rc" 0 "$name: runs (exit status 0)"
	[ "$rc" -eq 0 ] || diag "$(cat "$out.err")"
	check_summary "$out" "$name"
	PEAK[$name]=$SUM_PEAK
	OP[$name]=$SUM_OP
}

# start_measured <key> <args...>: par_htab as $TEST_TMP/<key>, once the
# oldest of PAR_WIDTH running is reaped (wait_htab); that one, a use
# case's (<use case>.<flavour>), is then checked beside those running
QUEUE=()
start_measured() {
	local key=$1 old=""

	shift
	if [ "${#QUEUE[@]}" -ge "$PAR_WIDTH" ]; then
		old=${QUEUE[0]}
		QUEUE=("${QUEUE[@]:1}")
		wait_htab "$TEST_TMP/$old"
	fi
	par_htab "$TEST_TMP/$key" "$@"
	QUEUE+=("$key")
	check_reaped "$old"
}

# check_reaped <key>: check_run for a use case's run ("" and the others: nothing)
check_reaped() {
	case $1 in
	c[12] | vs4096.* | "") ;;
	*) check_run "$TEST_TMP/$1" "${1%.*}/${1#*.}" ;;
	esac
}

# ---- every use case in both flavours ----
start_measured c1 -w0 -d1 -p2 htab-mem
start_measured c2 -w0 -d1 -p2 htab-mem
for flavour in preallocated bpf_ma; do
	opt=()
	[ "$flavour" = preallocated ] && opt=(--preallocated)
	for uc in $USE_CASES; do
		start_measured "$uc.$flavour" -w0 -d1 -p2 -a htab-mem --use-case "$uc" "${opt[@]}"
	done
	start_measured "vs4096.$flavour" -w0 -d1 -p2 -a htab-mem --use-case overwrite \
		--value-size 4096 --own-counter "${opt[@]}"
done
for key in "${QUEUE[@]}"; do
	wait_htab "$TEST_TMP/$key"
	check_reaped "$key"
done

# all reaped: nothing of any is left behind
for flavour in preallocated bpf_ma; do
	for uc in $USE_CASES; do
		check_clean "${PID[$TEST_TMP/$uc.$flavour]}" "$uc/$flavour"
	done
done

# ---- value size: 4096-byte values need more memory than 8-byte ones;
# these runs also take --own-counter (no op counter shared by the
# producers: the memory is the same), so that its program loads too ----
for flavour in bpf_ma preallocated; do
	out="$TEST_TMP/vs4096.$flavour"
	is "${RC[$out]}" 0 "overwrite/$flavour --value-size 4096 --own-counter: runs (exit status 0)"
	peak=$(num "$(last_summary "$out")" 'peak memory usage')
	cmp_num "$peak" '>' "${PEAK[overwrite/$flavour]}" \
		"overwrite/$flavour: value size 4096 peaks higher (MiB) than 8"
	check_clean "${PID[$out]}" "overwrite/$flavour --value-size 4096"
done

# ---- the baseline against the real work, for the log: which is faster
# is a timing, not a pass/fail check ----
for flavour in preallocated bpf_ma; do
	diag "$flavour: no_op ${OP[no_op/$flavour]} k/s, overwrite ${OP[overwrite/$flavour]} k/s"
done

# ---- interrupted runs clean up ----
# One signal in a guest: the clean-up after it is the kernel's part, and it
# is the same for all four; the host tries each (lib.sh's host_only).
# The runs of the four signals side by side: each waits a second for its
# first Iter line, and one at a time that was four seconds of waiting.
# They measure nothing, and share nothing: each has its own cgroup
# (bench-htab-mem.<pid>) and its own mount namespace for tracefs, and
# the listing of programs is taken with all of them mid-run, so it must
# hold the chosen use case's program once a run and nothing else.  Every
# check_clean waits until all are reaped: it looks for any htab-mem
# program left loaded, which a run beside the one checked would fail.
SIGS=()
for sig in INT TERM HUP QUIT; do
	[ "$sig" = INT ] || host_only "SIG$sig mid-run: exit status and clean-up" || continue
	SIGS+=("$sig")
done
declare -A SIG_PID SIG_WD
for sig in "${SIGS[@]}"; do
	out="$TEST_TMP/sig$sig"
	"${SIG_DEFAULT[@]}" "$BENCH" -w1 -d30 -p2 htab-mem --use-case overwrite >"$out" 2>"$out.err" &
	SIG_PID[$sig]=$!
	watchdog "$!"
	SIG_WD[$sig]=$WATCHDOG
done
for sig in "${SIGS[@]}"; do
	pid=${SIG_PID[$sig]}
	# 30 s: four set-ups at once on a loaded machine
	wait_iter "$TEST_TMP/sig$sig" "$pid" 30
	ok $? "SIG$sig: the run got going"
	if [ -n "$CG_PARENT" ]; then
		[ -d "$CG_PARENT/bench-htab-mem.$pid" ]
		ok $? "SIG$sig: mid-run, the run's cgroup exists (so the clean-up check means something)"
	fi
done
progs=$(bpftool prog show | grep -Eo "name $PROGS" | sort | tr '\n' ' ')
want=$(for sig in "${SIGS[@]}"; do printf 'name htab_mem_overwrite '; done)
for sig in "${SIGS[@]}"; do
	pid=${SIG_PID[$sig]}
	is "$progs" "$want" "SIG$sig: mid-run, only the chosen use case's program is loaded (once a run, ${#SIGS[@]} at once)"
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	wait "${SIG_WD[$sig]}" 2>/dev/null
	is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig: exit status 128 + SIG$sig"
done
for sig in "${SIGS[@]}"; do
	check_clean "${SIG_PID[$sig]}" "SIG$sig mid-run"
done

# ---- the reader of stdout goes away, a closed stdout, nohup ----
# These runs side by side too (the two readers' a second and two, nohup's
# two): none checks a program listing mid-run, and every check_clean, and
# the look for any bench-htab-mem.* cgroup, waits until all are reaped.
# (The readers and the closed stdout exit by themselves, nohup's run is
# sent its SIGHUP once it got going.)
#
# The reader of stdout goes away: clean-up, exit 128 + SIGPIPE, quietly.
# head -c 10 leaves after "Setting up", during set-up; the sed after the
# first Iter line, mid-run.  A named FIFO keeps the bench's pid.
declare -A PIPE_PID PIPE_WD PIPE_RPID PIPE_T0
READERS=()
for reader in "head -c 10" "sed -n /^Iter/q"; do
	[ "$reader" = "head -c 10" ] || host_only "stdout | $reader: exit 141, quietly, clean" || continue
	READERS+=("$reader")
	out="$TEST_TMP/pipe${#READERS[@]}"
	rm -f "$out.fifo"
	mkfifo "$out.fifo"
	# shellcheck disable=SC2086
	$reader <"$out.fifo" >"$out" &
	PIPE_RPID[$reader]=$!
	PIPE_T0[$reader]=$SECONDS
	"$BENCH" -w1 -d30 -p2 htab-mem --use-case overwrite >"$out.fifo" 2>"$out.err" &
	PIPE_PID[$reader]=$!
	watchdog "$!"
	PIPE_WD[$reader]=$WATCHDOG
done

# a stdout closed by the caller: refused before anything is set up
if host_only "stdout closed: refused before set-up"; then
	"$BENCH" -w1 -d30 -p2 htab-mem >&- 2>"$TEST_TMP/closed.err" &
	closed_pid=$!
	watchdog "$closed_pid"
	closed_wd=$WATCHDOG
fi

# under nohup a hang-up does not end the run
if host_only "SIGHUP under nohup: the run completes"; then
	out="$TEST_TMP/nohup"
	# -d2: the hang-up comes after the first Iter line, a second before the end
	(trap '' HUP; exec "$BENCH" -w0 -d2 -p2 htab-mem --use-case overwrite) >"$out" 2>"$out.err" &
	nohup_pid=$!
	watchdog "$nohup_pid"
	nohup_wd=$WATCHDOG
	wait_iter "$out" "$nohup_pid" 30
	ok $? "SIGHUP under nohup: the run got going"
	kill -HUP "$nohup_pid"
	wait "$nohup_pid"
	rc=$?
	wait "$nohup_wd" 2>/dev/null
	is "$rc" 0 "SIGHUP ignored by the caller (nohup): the run completes (exit status 0)"
	like "$out" '^Summary: ' "SIGHUP ignored by the caller: Summary printed"
fi

i=0
for reader in "${READERS[@]}"; do
	i=$((i + 1))
	out="$TEST_TMP/pipe$i"
	wait "${PIPE_PID[$reader]}"
	rc=$?
	wait "${PIPE_WD[$reader]}" 2>/dev/null
	wait "${PIPE_RPID[$reader]}"
	is "$rc" 141 "stdout | $reader: exit status 141"
	diag "stdout | $reader: exited after $((SECONDS - PIPE_T0[$reader])) s of 30"
	assert "stdout | $reader: nothing on stderr" stderr_clean "$out.err"
done
if [ -n "${closed_pid:-}" ]; then
	wait "$closed_pid"
	rc=$?
	wait "$closed_wd" 2>/dev/null
	is "$rc" 1 "stdout closed: exit status 1"
	like "$TEST_TMP/closed.err" '^failed to write standard output: Bad file descriptor$' "stdout closed: says so"
fi

# all reaped
for reader in "${READERS[@]}"; do
	check_clean "${PIPE_PID[$reader]}" "stdout | $reader"
	if [ -n "$CG_PARENT" ]; then
		left=$(find "$CG_PARENT" -maxdepth 1 -name 'bench-htab-mem.*' 2>&1) || left="find failed: $left"
		is "$left" "" "stdout | $reader: no bench-htab-mem.* cgroup at all"
	fi
done
[ -z "${closed_pid:-}" ] || check_clean "$closed_pid" "stdout closed"
[ -z "${nohup_pid:-}" ] || check_clean "$nohup_pid" "SIGHUP under nohup"

# ---- a run killed with SIGKILL leaves its cgroup; the next run removes it ----
if [ -n "$CG_PARENT" ]; then
	out="$TEST_TMP/kill"
	"$BENCH" -w1 -d30 -p2 htab-mem >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid"
	ok $? "SIGKILL: the run got going"
	kill -KILL "$pid"
	reap "$pid" 2>/dev/null
	[ -d "$CG_PARENT/bench-htab-mem.$pid" ]
	ok $? "SIGKILL: the killed run's cgroup is left behind"
	# the killed run could not unmount tracefs: do it for it
	if [ "$(tracefs_mounts)" -gt "$TRACEFS_BEFORE" ]; then
		umount /sys/kernel/tracing
	fi
	# set-up is where the leftover goes: no need to measure
	BENCH_TEST_EXIT_AFTER_SETUP=1 run_htab "$out.next" -w0 -d1 -p2 htab-mem
	is $? 0 "SIGKILL: the next run succeeds (exit status 0)"
	[ ! -e "$CG_PARENT/bench-htab-mem.$pid" ]
	ok $? "SIGKILL: the next run removed the dead run's cgroup"
	check_clean "$RUN_PID" "run after SIGKILL"
fi

# ---- two runs at once ----
# (started together at the top, first of the measured runs: their set-ups
# and measured seconds overlap, no warm-up is needed for them to run at
# the same time)
r1=${RC[$TEST_TMP/c1]} r2=${RC[$TEST_TMP/c2]} p1=${PID[$TEST_TMP/c1]} p2=${PID[$TEST_TMP/c2]}
is "$r1 $r2" "0 0" "concurrent: both runs succeed (exit statuses)"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "run 1:" "$(cat "$TEST_TMP/c1" "$TEST_TMP/c1.err")" \
	"run 2:" "$(cat "$TEST_TMP/c2" "$TEST_TMP/c2.err")"
like "$TEST_TMP/c1" '^Summary: per-prod-op' "concurrent: first run has a Summary"
like "$TEST_TMP/c2" '^Summary: per-prod-op' "concurrent: second run has a Summary"
check_clean "$p1" "concurrent run 1"
check_clean "$p2" "concurrent run 2"

# ---- bad input: one line, non-zero exit, nothing created ----
bad_input() {	# bad_input <what> <stderr regex> <args...>
	local what=$1 re=$2 out="$TEST_TMP/bad" rc
	shift 2

	run_htab "$out" "$@"
	isnt $? 0 "$what: refused (non-zero exit)"
	is "$(wc -l <"$out.err")" 1 "$what: one line on stderr"
	is "$(wc -c <"$out")" 0 "$what: nothing on stdout"
	like "$out.err" "$re" "$what: the message names the problem"
	check_clean "$RUN_PID" "$what"
}
# option checks are userspace alone: the host checks them
if host_only "bad input refused"; then
	bad_input "unknown use case" \
		"'foo'.*overwrite, batch_add_batch_del, add_del_on_diff_cpu, no_op" \
		htab-mem --use-case foo
	bad_input "odd producers for add_del_on_diff_cpu" "add_del_on_diff_cpu.*even.*-p 3" \
		-p3 htab-mem --use-case add_del_on_diff_cpu
	bad_input "--value-size 0" "value size '0'.*1\.\.4096" htab-mem --value-size 0
	bad_input "--value-size 4097" "value size '4097'.*1\.\.4096" htab-mem --value-size 4097
	bad_input "--value-size abc" "value size 'abc'.*1\.\.4096" htab-mem --value-size abc
fi

# ---- tracefs that was mounted before the run stays mounted ----
if [ -n "${HTAB_MEM_T_MNTNS:-}" ] && [ "$TRACEFS_BEFORE" -eq 0 ]; then
	mount -t tracefs tracefs /sys/kernel/tracing
	TRACEFS_BEFORE=$(tracefs_mounts)
	BENCH_TEST_EXIT_AFTER_SETUP=1 run_htab "$TEST_TMP/premounted" -w0 -d1 -p2 htab-mem --use-case no_op
	is $? 0 "tracefs mounted beforehand: the run succeeds (exit status 0)"
	check_clean "$RUN_PID" "tracefs mounted beforehand (still mounted after)"
	umount /sys/kernel/tracing
fi

done_testing
