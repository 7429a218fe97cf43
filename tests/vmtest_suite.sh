#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run TAP test files under prove inside VMs booted by scripts/vmtest.sh, as
# make vmtest does:
#
#   tests/vmtest_suite.sh [-j VMS] [-k KERNEL] [-t TIMEOUT] -- TEST...
#
# The files are dealt round-robin over VMS virtual machines (default 1)
# that run at once: each VM is a kernel of its own, so tests that check
# global state (loaded programs, cgroups, mounts) cannot see each other,
# and under TCG, where a test spends most of its time starting processes
# on one virtual CPU, two VMs take little more than half the time of one.
# List the files longest first.  The first VM's prove output streams; the
# others' follows when they are done.  CI=true and BENCH_TEST_IN_VM=1
# (lib.sh's host_only) inside.  BENCH, OUTPUT and BENCH_TEST_FENTRY are
# passed on.  Exit status: 0 when every VM's prove passed.
#
# A VM whose guest kernel locked up (vmtest.sh exits 125 and says "the
# guest kernel locked up") is booted once more with the same files, after
# the others, and the output says so: that is the emulator's or the guest
# kernel's failure, not a test's; a second lockup fails the suite.
# VMTEST overrides scripts/vmtest.sh (the suite's own tests use a stand-in).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VMTEST=${VMTEST:-$ROOT/scripts/vmtest.sh}
PROVE=${PROVE:-prove}

# The BPF LSM active whatever the guest kernel's CONFIG_LSM says, so that
# local-storage-create runs on upstream's hook (lsm.s/socket_post_create)
# there; VMTEST_APPEND set (even empty) replaces this.
export VMTEST_APPEND=${VMTEST_APPEND-lsm=lockdown,capability,landlock,yama,apparmor,bpf}

VMS=1
VMOPTS=()
while getopts ':j:k:t:' opt; do
	case $opt in
	j)
		[[ $OPTARG =~ ^[1-8]$ ]] || { echo "vmtest_suite.sh: bad VM count '$OPTARG' for -j (accepted: 1..8)" >&2; exit 2; }
		VMS=$OPTARG
		;;
	k | t) VMOPTS+=("-$opt" "$OPTARG") ;;
	*) echo "vmtest_suite.sh: unknown option '-$OPTARG' (accepted: -j VMS, -k KERNEL, -t TIMEOUT, then -- TEST...)" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "vmtest_suite.sh: no test files (usage: tests/vmtest_suite.sh [-j VMS] -- TEST...)" >&2; exit 2; }
[ "$VMS" -le $# ] || VMS=$#

declare -a GROUP
i=0
for t in "$@"; do
	GROUP[i % VMS]+=" $t"
	i=$((i + 1))
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vmtest-suite.XXXXXX") || exit 1
PIDS=()
# shellcheck disable=SC2317 # called by the traps below
stop() {	# stop <exit status>: end every VM (vmtest.sh kills its qemu)
	trap '' INT TERM HUP
	for p in "${PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	wait
	rm -rf "$TMP"
	exit "$1"
}
trap 'stop 130' INT
trap 'stop 143' TERM
trap 'stop 129' HUP

run_group() {	# run_group <n>: one VM running group n's files
	local -a files flags

	read -r -a files <<<"${GROUP[$1]}"
	read -r -a flags <<<"${PROVE_FLAGS:-}"
	# exec: the PID stop() signals is vmtest.sh's, which kills its VM
	exec "$VMTEST" "${VMOPTS[@]}" -e CI=true -e BENCH_TEST_IN_VM=1 -e BENCH -e OUTPUT -e PROVE_FLAGS \
		-e BENCH_TEST_FENTRY -- \
		"$PROVE" --exec '' "${flags[@]}" "${files[@]}"
}

locked_up() {	# locked_up <status> <log>: the guest kernel, not a test, failed
	[ "$1" -eq 125 ] && grep -q 'the guest kernel locked up' "$2"
}

for n in $(seq 1 $((VMS - 1))); do
	(run_group "$n") >"$TMP/vm$n.log" 2>&1 &
	PIDS+=($!)
done
# shown_group <n>: run_group n in the background, its output shown and
# logged; TEE is the tee's pid: wait for it too before reading the log,
# or a loaded machine reads it before the last lines (the lockup's) are in
shown_group() {
	local fd

	exec {fd}> >(tee "$TMP/vm$1.log")
	TEE=$!
	(run_group "$1") >&"$fd" 2>&1 &
	PIDS+=($!)
	exec {fd}>&-
}

echo "VM 1 of $VMS:${GROUP[0]}"
shown_group 0
declare -a RC
wait "${PIDS[-1]}"
RC[0]=$?
wait "$TEE"
for n in $(seq 1 $((VMS - 1))); do
	wait "${PIDS[n - 1]}"
	RC[n]=$?
	echo
	echo "VM $((n + 1)) of $VMS:${GROUP[n]}"
	cat "$TMP/vm$n.log"
done
rc=0
for n in $(seq 0 $((VMS - 1))); do
	if [ "${RC[n]}" -ne 0 ] && locked_up "${RC[n]}" "$TMP/vm$n.log"; then
		echo
		echo "vmtest_suite.sh: VM $((n + 1)): the guest kernel locked up; booting it again, once:${GROUP[n]}"
		PIDS=()
		shown_group "$n"
		wait "${PIDS[0]}"
		RC[n]=$?
		wait "$TEE"
		if locked_up "${RC[n]}" "$TMP/vm$n.log"; then
			echo "vmtest_suite.sh: VM $((n + 1)): the guest kernel locked up again"
		fi
	fi
	[ "${RC[n]}" -eq 0 ] || rc=1
done
wait
rm -rf "$TMP"
[ $rc -eq 0 ] && echo "vmtest_suite.sh: all $VMS VM(s) passed" || echo "vmtest_suite.sh: FAILED"
exit $rc
