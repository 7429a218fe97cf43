#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem under valgrind: no invalid access and no definite or indirect
# leak in our code.  libbpf's partially initialised bpf_attr is suppressed
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

vg() {	# vg <description> <args...>
	local desc=$1 rc
	shift
	timeout --kill-after=10 120 valgrind -q --fair-sched=yes --suppressions="$SUPP" --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		"$BENCH" "$@" >"$TEST_TMP/vg" 2>"$TEST_TMP/vg.err"
	rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		ok 1 "valgrind: $desc (timed out)"
	elif [ "$rc" -ne 99 ]; then
		ok 0 "valgrind: $desc"
	else
		ok 1 "valgrind: $desc"
		diag "$(grep '^==' "$TEST_TMP/vg.err" | head -40)"
	fi
}

vg "htab-mem add_del_on_diff_cpu" -w0 -d1 -p2 htab-mem --use-case add_del_on_diff_cpu
vg "htab-mem preallocated overwrite, value size 4096" -w0 -d1 -p2 htab-mem --preallocated \
	--value-size 4096
vg "htab-mem overwrite --latency, JSON" -w1 -d1 -p2 --latency --json "$TEST_TMP/lat.json" htab-mem
vg "hash-lookup --latency" -w0 -d1 hash-lookup --latency
vg "--latency refused" --latency trig-base
vg "htab-mem unknown use case" htab-mem --use-case nope
vg "trig-base" -w0 -d1 -p2 trig-base

done_testing
