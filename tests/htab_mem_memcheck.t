#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem under valgrind: the exit status the run should have, no invalid
# access and no definite or indirect leak in our code.  libbpf's partially initialised bpf_attr is suppressed
# (tests/libbpf.supp); spinning producers' stacks are "possibly lost" and
# not counted.
#
# --fair-sched=yes: valgrind runs one thread at a time, and producers that
# loop on a syscall re-take its default (unfair) lock at once, starving the
# main thread's sampler for minutes.  timeout bounds a run regardless.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip_all "valgrind not installed"
require_bpf

SUPP="$TESTS_DIR/libbpf.supp"

# vg_start <key> <args...>: start the bench under valgrind, its stdout
# in $TEST_TMP/vg-<key> and its report in $TEST_TMP/vg-<key>.err.  The runs
# go side by side (lib.sh's par_start): their checks are per run, each on
# its own exit status and report, and valgrind runs one thread of a
# process at a time, so a second run uses the other CPU.
# The threads as started (lib.sh's AS_STARTED: valgrind's lock and nice
# 15); valgrind runs one thread at a time, so a run takes no more than a
# CPU either way.
vg_start() {
	local out=$TEST_TMP/vg-$1
	shift
	par_start "$out" "${AS_STARTED[@]}" timeout --kill-after=10 120 valgrind --fair-sched=yes --suppressions="$SUPP" \
		--error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		"$BENCH" "$@"
}

# vg_check <key> <expected exit status> <description>: the verdict on the
# run vg_start started as <key> (vg_verdict reads the report from vg.err)
vg_check() {
	local out=$TEST_TMP/vg-$1 rc

	par_wait "$out"
	rc=$?
	cp "$out.err" "$TEST_TMP/vg.err"
	vg_verdict "$rc" "$2" "$3"
}

# The use case only picks the BPF program; in userspace there are two
# producer loops, the paired one (add_del_on_diff_cpu) and the plain one
# (every other use case), and each is run here.  The plain loop runs as
# no_op: under valgrind an overwrite run's producers sit in long syscalls
# and starve the sampler, so a one-second run takes 10 to 30 s and checks
# no more of our code.
vg_start paired -w0 -d1 -p2 htab-mem --use-case add_del_on_diff_cpu
vg_start no_op -w0 -d1 -p2 htab-mem --preallocated --value-size 4096 --use-case no_op
vg_start latency -w1 -d1 -p2 --latency --json "$TEST_TMP/lat.json" htab-mem --use-case add_del_on_diff_cpu
vg_start hash-lookup -w0 -d1 hash-lookup --latency
vg_start refused --latency trig-base
vg_start unknown htab-mem --use-case nope
vg_start trig-base -w0 -d1 -p2 trig-base

vg_check paired 0 "htab-mem add_del_on_diff_cpu"
vg_check no_op 0 "htab-mem preallocated no_op, value size 4096"
vg_check latency 0 "htab-mem --latency, JSON, warm-up and ops per trigger"
vg_check hash-lookup 0 "hash-lookup --latency"
vg_check refused 1 "--latency refused"
vg_check unknown 64 "htab-mem unknown use case"
vg_check trig-base 0 "trig-base"

done_testing
