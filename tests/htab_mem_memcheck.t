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

SUPP="$(cd "$(dirname "$0")" && pwd)/libbpf.supp"

vg() {	# vg <expected exit status> <description> <args...>
	local want=$1 desc=$2
	shift 2
	timeout --kill-after=10 120 valgrind --fair-sched=yes --suppressions="$SUPP" --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		"$BENCH" "$@" >"$TEST_TMP/vg" 2>"$TEST_TMP/vg.err"
	vg_verdict $? "$want" "$desc"
}

# The use case only picks the BPF program; in userspace there are two
# producer loops, the paired one (add_del_on_diff_cpu) and the plain one
# (every other use case), and each is run here.  The plain loop runs as
# no_op: under valgrind an overwrite run's producers sit in long syscalls
# and starve the sampler, so a one-second run takes 10 to 30 s and checks
# no more of our code.
vg 0 "htab-mem add_del_on_diff_cpu" -w0 -d1 -p2 htab-mem --use-case add_del_on_diff_cpu
vg 0 "htab-mem preallocated no_op, value size 4096" -w0 -d1 -p2 htab-mem --preallocated \
	--value-size 4096 --use-case no_op
vg 0 "htab-mem --latency, JSON, warm-up and ops per trigger" -w1 -d1 -p2 --latency \
	--json "$TEST_TMP/lat.json" htab-mem --use-case add_del_on_diff_cpu
vg 0 "hash-lookup --latency" -w0 -d1 hash-lookup --latency
vg 1 "--latency refused" --latency trig-base
vg 64 "htab-mem unknown use case" htab-mem --use-case nope
vg 0 "trig-base" -w0 -d1 -p2 trig-base

done_testing
