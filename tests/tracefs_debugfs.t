#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# With debugfs mounted, as on most distributions, walking through
# /sys/kernel/debug/tracing makes the kernel automount tracefs in the
# walker's mount namespace.  A BPF run must leave the caller's mount table
# exactly as it found it: no tracefs, no anything, also when killed.
#
# debugfs is mounted in a private mount namespace of this test (before
# lib.sh, whose temporary directory exec would leak), so the machine's own
# mount table is never touched and other sessions' mounts do not show up.
if [ -z "${TRACEFS_DEBUGFS_T_MNTNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
   unshare --mount --propagation private true 2>/dev/null; then
	export TRACEFS_DEBUGFS_T_MNTNS=1
	exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

if [ -z "${TRACEFS_DEBUGFS_T_MNTNS:-}" ]; then
	why="no private mount namespace (unshare --mount failed): cannot mount debugfs without changing the machine's mount table"
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - $why"
		exit 1
	fi
	skip_all "$why"
fi

DEBUGFS=/sys/kernel/debug

# mountpoint and filesystem type of every mount in this namespace, sorted
mount_table() {
	awk '{ for (i = 7; $i != "-"; i++); print $5, $(i + 1) }' /proc/self/mountinfo | sort
}

# unmount every tracefs of this (private) namespace, innermost first
unmount_tracefs() {
	local mp

	while read -r mp; do
		umount "$mp" || return 1
	done < <(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "tracefs" { print $5 }' \
		 /proc/self/mountinfo | sort -r)
}

if ! grep -q " $DEBUGFS .* - debugfs " /proc/self/mountinfo; then
	mount -t debugfs none "$DEBUGFS"
	ok $? "debugfs mounted at $DEBUGFS in the test's private namespace"
else
	ok 0 "debugfs already mounted at $DEBUGFS (as on a distribution)"
fi
unmount_tracefs
ok $? "no tracefs mounted in the test's namespace to start with"

# The hazard is real: a plain walk, in a child namespace of its own, mounts
# tracefs there.  If it did not, the checks below could not fail.
n=$(unshare --mount --propagation private sh -c \
	'ls /sys/kernel/debug/tracing/events >/dev/null 2>&1; grep -c " - tracefs " /proc/self/mountinfo')
cmp_ok "$n" -gt 0 "walking $DEBUGFS/tracing/events automounts tracefs (mounts in that namespace)"
cmp_ok "$(tracefs_mounts)" -eq 0 "that walk, in its own namespace, left ours alone"

# same_table <what> <before file>: the mount table is what it was
same_table() {
	local what=$1 before=$2

	mount_table > "$before.after"
	if diff -u "$before" "$before.after" > "$before.diff"; then
		ok 0 "$what: mount table unchanged"
	else
		ok 1 "$what: mount table unchanged"
		diag "$(cat "$before.diff")"
	fi
}

# Each run starts from the same state: no tracefs, or only the one at
# /sys/kernel/tracing with PREMOUNTED=yes.  A tracefs an earlier run left
# automounted under debugfs would hide the next run's.
PREMOUNTED=no
reset_mounts() {
	unmount_tracefs || return 1
	if [ "$PREMOUNTED" = yes ]; then
		mount -t tracefs tracefs /sys/kernel/tracing || return 1
	fi
}

# check_run <what> <bench args...>: the run succeeds, the table is unchanged.
# Mounting and the libbpf walks that automount are the run's set-up (its
# needs and attachment; kernel_env.c), and their undoing its tear-down:
# BENCH_TEST_EXIT_AFTER_SETUP=1 does both without a measured second
check_run() {
	local what=$1 out=$TEST_TMP/run rc=0

	shift
	reset_mounts
	ok $? "$what: start from the same mounts"
	mount_table > "$out.before"
	BENCH_TEST_EXIT_AFTER_SETUP=1 run_bench "$out" "$@" || rc=$?
	is "$rc" 0 "$what: exit status 0"
	[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$out.err")"
	same_table "$what" "$out.before"
}

for PREMOUNTED in no yes; do
	# tracefs at its own place does not stop libbpf from looking under
	# debugfs, which it prefers whenever that directory exists
	sfx=""
	[ $PREMOUNTED = yes ] && sfx=" (tracefs premounted at /sys/kernel/tracing)"
	check_run "htab-mem$sfx" -w0 -d1 -p2 htab-mem
	check_run "htab-mem --preallocated$sfx" -w0 -d1 htab-mem --preallocated --use-case no_op
	check_run "bpf-hashmap-lookup$sfx" -w0 -d1 bpf-hashmap-lookup --nr_loops 20000
	check_run "hash-lookup$sfx" -w0 -d1 hash-lookup
done
PREMOUNTED=no

# a run killed with SIGKILL cannot clean up: its namespace must do it
out=$TEST_TMP/kill
reset_mounts
ok $? "SIGKILL: start from the same mounts"
mount_table > "$out.before"
"$BENCH" -w1 -d30 htab-mem >"$out" 2>"$out.err" &
pid=$!
wait_iter "$out" "$pid" 20
ok $? "SIGKILL: the run got as far as sampling"
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
same_table "SIGKILL mid-run" "$out.before"
# the killed run's cgroup is the next htab-mem run's to remove
check_run "the run after SIGKILL" -w0 -d1 htab-mem --use-case no_op

done_testing
