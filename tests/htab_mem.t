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
# shellcheck source=benchs/run_common.sh
source "$(dirname "$0")/../benchs/run_common.sh"

require_bpf

PROGS='htab_mem_[a-z_]*'

USE_CASES="overwrite batch_add_batch_del add_del_on_diff_cpu no_op"

CG_PARENT=$(own_mem_cgroup)
if [ -z "$CG_PARENT" ]; then
	diag "no memory cgroup on this machine: memory figures will read n/a"
fi

tracefs_mounts() {
	grep -c ' - tracefs ' /proc/self/mountinfo || true
}
if [ -n "${HTAB_MEM_T_MNTNS:-}" ]; then
	# start from "not mounted", so the bench has to mount and unmount it
	while [ "$(tracefs_mounts)" -gt 0 ] && umount /sys/kernel/tracing 2>/dev/null; do
		:
	done
else
	diag "no private mount namespace: tracefs checks may see other sessions' mounts"
fi
TRACEFS_BEFORE=$(tracefs_mounts)
diag "tracefs mounts at the start: $TRACEFS_BEFORE"

# watchdog <pid>: a hung run must fail its test, not stall the suite:
# SIGINT after 60 s (the bench cleans up), SIGKILL 15 s later
watchdog() {
	local pid=$1

	(
		sleep 60
		kill -INT "$pid" 2>/dev/null && echo "# watchdog: SIGINT to hung run $pid" >&2
		sleep 15
		kill -KILL "$pid" 2>/dev/null
	) </dev/null >/dev/null &
	WATCHDOG=$!
}

# reap <pid>: wait for a run under a watchdog; its status
reap() {
	local rc

	wait "$1"
	rc=$?
	kill "$WATCHDOG" 2>/dev/null
	wait "$WATCHDOG" 2>/dev/null
	return $rc
}

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
	if [ "$(loaded_bench_progs "$PROGS")" -ne 0 ]; then
		left="$left; BPF program: $(bpftool prog show | grep -E "name $PROGS")"
	fi
	if [ "$(tracefs_mounts)" -ne "$TRACEFS_BEFORE" ]; then
		left="$left; tracefs mounts $TRACEFS_BEFORE -> $(tracefs_mounts)"
	fi
	assert "$what: nothing left behind" [ -z "$left" ]
	[ -z "$left" ] || diag "left: $left"
}

num() {	# num <summary line> <label>
	field_num "$1" "$2" || echo "nan"
}

# awk is the calculator: cmp <a> <op> <b>
fcmp() {
	awk -v a="$1" -v b="$3" "BEGIN { exit !(a $2 b) }"
}

# check_summary <out> <name>: format byte for byte, and sane figures
check_summary() {
	local out=$1 name=$2 s op opsd mem memsd peak want iter bad

	if ! s=$(summary_line "$(cat "$out")"); then
		ok 1 "$name: Summary line"
		diag "$(cat "$out" "$out.err")"
		return
	fi
	op=$(field_num "$s" per-prod-op)
	opsd=$(field "$s" per-prod-op | awk '{ print $3 }' | tr -d 'k/s')
	mem=$(field_num "$s" 'memory usage')
	memsd=$(field "$s" 'memory usage' | awk '{ print $3 }' | tr -d 'MiB')
	peak=$(field_num "$s" 'peak memory usage')
	# reprint the numbers with upstream's printf formats: must be identical
	want=$(printf 'Summary: per-prod-op %7.2f \u00B1 %7.2fk/s, memory usage %7.2f \u00B1 %7.2fMiB, peak memory usage %7.2fMiB' \
		"$op" "$opsd" "$mem" "$memsd" "$peak" 2>/dev/null)
	assert "$name: Summary in upstream's format" [ "$s" = "$want" ]
	[ "$s" = "$want" ] || diag "got:  $s" "want: $want"

	bad=0
	while IFS= read -r iter; do
		op=$(sed -E 's/.*per-prod-op +([0-9.]+).*/\1/' <<<"$iter")
		mem=$(sed -E 's/.*memory usage +([0-9.]+).*/\1/' <<<"$iter")
		want=$(printf 'per-prod-op %7.2fk/s, memory usage %7.2fMiB' "$op" "$mem" 2>/dev/null)
		if ! grep -Eq '^Iter +[0-9]+ \( *-?[0-9]+\.[0-9]{3}us\): ' <<<"$iter" ||
		   [ "${iter#*: }" != "$want" ]; then
			bad=1
			diag "bad Iter line: $iter"
		fi
	done < <(grep '^Iter' "$out")
	ok "$bad" "$name: Iter lines in upstream's format"

	op=$(num "$s" per-prod-op)
	mem=$(num "$s" 'memory usage')
	peak=$(num "$s" 'peak memory usage')
	fcmp "$op" '>' 0
	ok $? "$name: per-prod-op is positive ($op k/s)"
	fcmp "$peak" '>' 0
	ok $? "$name: peak memory is positive ($peak MiB)"
	fcmp "$peak" '>=' "$mem"
	ok $? "$name: peak memory ($peak) is not below the average ($mem)"
	! grep -q '^Failures:' "$out"
	ok $? "$name: no map update or delete failed"
	grep '^Failures:' "$out" | while IFS= read -r l; do diag "$l"; done
}

declare -A PEAK OP

# ---- every use case in both flavours ----
for flavour in preallocated bpf_ma; do
	opt=()
	[ "$flavour" = preallocated ] && opt=(--preallocated)
	for uc in $USE_CASES; do
		name="$uc/$flavour"
		out="$TEST_TMP/$uc.$flavour"
		run_htab "$out" -w0 -d1 -p2 -a htab-mem --use-case "$uc" "${opt[@]}"
		rc=$?
		ok $rc "$name: runs (exit $rc)"
		[ $rc -eq 0 ] || diag "$(cat "$out.err")"
		check_summary "$out" "$name"
		check_clean "$RUN_PID" "$name"
		s=$(summary_line "$(cat "$out")")
		PEAK[$name]=$(num "$s" 'peak memory usage')
		OP[$name]=$(num "$s" per-prod-op)
	done
done

# ---- value size: 4096-byte values need more memory than 8-byte ones ----
for flavour in bpf_ma preallocated; do
	opt=()
	[ "$flavour" = preallocated ] && opt=(--preallocated)
	out="$TEST_TMP/vs4096.$flavour"
	run_htab "$out" -w0 -d1 -p2 -a htab-mem --use-case overwrite --value-size 4096 "${opt[@]}"
	ok $? "overwrite/$flavour --value-size 4096: runs"
	peak=$(num "$(summary_line "$(cat "$out")")" 'peak memory usage')
	fcmp "$peak" '>' "${PEAK[overwrite/$flavour]}"
	ok $? "overwrite/$flavour: value size 4096 peaks higher ($peak MiB) than 8 (${PEAK[overwrite/$flavour]} MiB)"
	check_clean "$RUN_PID" "overwrite/$flavour --value-size 4096"
done

# ---- the baseline is the fastest ----
for flavour in preallocated bpf_ma; do
	fcmp "${OP[no_op/$flavour]}" '>' "${OP[overwrite/$flavour]}"
	ok $? "$flavour: no_op (${OP[no_op/$flavour]} k/s) is faster than overwrite (${OP[overwrite/$flavour]} k/s)"
done

# ---- interrupted runs clean up ----
# wait_iter <out> <pid>: until the run has printed a sample (or died)
wait_iter() {
	for _ in $(seq 1 100); do
		grep -q '^Iter' "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

for sig in INT TERM; do
	out="$TEST_TMP/sig$sig"
	"$BENCH" -w1 -d30 -p2 htab-mem --use-case overwrite >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid"
	ok $? "SIG$sig: the run got going"
	if [ -n "$CG_PARENT" ]; then
		[ -d "$CG_PARENT/bench-htab-mem.$pid" ]
		ok $? "SIG$sig: mid-run, the run's cgroup exists (so the clean-up check means something)"
	fi
	progs=$(bpftool prog show | grep -Eo "name $PROGS" | sort | tr '\n' ' ')
	assert "SIG$sig: mid-run, only the chosen use case's program is loaded ($progs)" \
		[ "$progs" = "name htab_mem_overwrite " ]
	kill -s "$sig" "$pid"
	reap "$pid"
	rc=$?
	want=130
	[ "$sig" = TERM ] && want=143
	assert "SIG$sig: exit status $rc (want $want)" [ "$rc" -eq "$want" ]
	check_clean "$pid" "SIG$sig mid-run"
done

# ---- a run killed with SIGKILL leaves its cgroup; the next run removes it ----
if [ -n "$CG_PARENT" ]; then
	out="$TEST_TMP/kill"
	"$BENCH" -w1 -d30 -p2 htab-mem >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid"
	kill -KILL "$pid"
	reap "$pid" 2>/dev/null
	[ -d "$CG_PARENT/bench-htab-mem.$pid" ]
	ok $? "SIGKILL: the killed run's cgroup is left behind"
	# the killed run could not unmount tracefs: do it for it
	if [ "$(tracefs_mounts)" -gt "$TRACEFS_BEFORE" ]; then
		umount /sys/kernel/tracing
	fi
	run_htab "$out.next" -w0 -d1 -p2 htab-mem
	ok $? "SIGKILL: the next run succeeds"
	[ ! -e "$CG_PARENT/bench-htab-mem.$pid" ]
	ok $? "SIGKILL: the next run removed the dead run's cgroup"
	check_clean "$RUN_PID" "run after SIGKILL"
fi

# ---- two runs at once ----
start=$SECONDS
"$BENCH" -w1 -d1 -p2 htab-mem >"$TEST_TMP/c1" 2>"$TEST_TMP/c1.err" &
p1=$!
watchdog "$p1"
w1=$WATCHDOG
"$BENCH" -w1 -d1 -p2 htab-mem >"$TEST_TMP/c2" 2>"$TEST_TMP/c2.err" &
p2=$!
watchdog "$p2"
reap "$p2"
r2=$?
WATCHDOG=$w1
reap "$p1"
r1=$?
diag "concurrent runs took $((SECONDS - start)) s"
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ]; then
	ok 0 "concurrent: both runs succeed"
else
	ok 1 "concurrent: both runs succeed ($r1, $r2)"
	diag "run 1:" "$(cat "$TEST_TMP/c1" "$TEST_TMP/c1.err")" \
		"run 2:" "$(cat "$TEST_TMP/c2" "$TEST_TMP/c2.err")"
fi
like "$TEST_TMP/c1" '^Summary: per-prod-op' "concurrent: first run has a Summary"
like "$TEST_TMP/c2" '^Summary: per-prod-op' "concurrent: second run has a Summary"
check_clean "$p1" "concurrent run 1"
check_clean "$p2" "concurrent run 2"

# ---- bad input: one line, non-zero exit, nothing created ----
bad_input() {	# bad_input <what> <stderr regex> <args...>
	local what=$1 re=$2 out="$TEST_TMP/bad" rc
	shift 2

	run_htab "$out" "$@"
	rc=$?
	assert "$what: refused (exit $rc)" [ $rc -ne 0 ]
	assert "$what: one line on stderr" [ "$(wc -l <"$out.err")" -eq 1 ]
	assert "$what: nothing on stdout" [ ! -s "$out" ]
	like "$out.err" "$re" "$what: the message names the problem"
	check_clean "$RUN_PID" "$what"
}
bad_input "unknown use case" \
	"'foo'.*overwrite, batch_add_batch_del, add_del_on_diff_cpu, no_op" \
	htab-mem --use-case foo
bad_input "odd producers for add_del_on_diff_cpu" "add_del_on_diff_cpu.*even.*-p 3" \
	-p3 htab-mem --use-case add_del_on_diff_cpu
bad_input "--value-size 0" "value size '0'.*1\.\.4096" htab-mem --value-size 0
bad_input "--value-size 4097" "value size '4097'.*1\.\.4096" htab-mem --value-size 4097
bad_input "--value-size abc" "value size 'abc'.*1\.\.4096" htab-mem --value-size abc

# ---- tracefs that was mounted before the run stays mounted ----
if [ -n "${HTAB_MEM_T_MNTNS:-}" ] && [ "$TRACEFS_BEFORE" -eq 0 ]; then
	mount -t tracefs tracefs /sys/kernel/tracing
	TRACEFS_BEFORE=$(tracefs_mounts)
	run_htab "$TEST_TMP/premounted" -w0 -d1 -p2 htab-mem --use-case no_op
	ok $? "tracefs mounted beforehand: the run succeeds"
	check_clean "$RUN_PID" "tracefs mounted beforehand (still mounted after)"
	umount /sys/kernel/tracing
fi

done_testing
