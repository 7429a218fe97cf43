#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem under valgrind: no invalid access and no definite or indirect
# leak in our code.  libbpf's partially initialised bpf_attr is suppressed
# (tests/libbpf.supp); spinning producers' stacks are "possibly lost" and
# not counted.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip_all "valgrind not installed"
require_bpf

SUPP="$(cd "$(dirname "$0")" && pwd)/libbpf.supp"

vg() {	# vg <description> <args...>
	local desc=$1 rc
	shift
	valgrind -q --suppressions="$SUPP" --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		"$BENCH" "$@" >"$TEST_TMP/vg" 2>"$TEST_TMP/vg.err"
	rc=$?
	if [ "$rc" -ne 99 ]; then
		ok 0 "valgrind: $desc"
	else
		ok 1 "valgrind: $desc"
		diag "$(grep '^==' "$TEST_TMP/vg.err" | head -40)"
	fi
}

vg "htab-mem add_del_on_diff_cpu" -w0 -d1 -p2 htab-mem --use-case add_del_on_diff_cpu
vg "htab-mem preallocated overwrite, value size 4096" -w0 -d1 -p2 htab-mem --preallocated \
	--value-size 4096
vg "htab-mem unknown use case" htab-mem --use-case nope
vg "trig-base" -w0 -d1 -p2 trig-base

done_testing
