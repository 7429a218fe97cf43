#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The binary under valgrind: the exit status the run should have, no
# invalid access, no definite or indirect leak.  Producer threads still
# spin when the process exits, so their stacks show up as "possibly lost":
# that kind is not counted.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip_all "valgrind not installed"

vg() {	# vg <expected exit status> <description> <args...>
	local want=$1 desc=$2
	shift 2
	valgrind --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$BENCH" "$@" >"$TEST_TMP/vg" 2>"$TEST_TMP/vg.err"
	vg_verdict $? "$want" "$desc"
}

vg 0 "count-local with --json and --per-producer" -w1 -d1 -p2 -a --per-producer \
	--json "$TEST_TMP/a.json" count-local
vg 0 "compare" compare "$TEST_TMP/a.json" "$TEST_TMP/a.json"
vg 2 "compare of a malformed file" compare "$TEST_TMP/a.json" /dev/null
jq '.samples[1].metrics.hits = "abc"' "$TEST_TMP/a.json" >"$TEST_TMP/abc.json"
vg 2 "compare of a damaged result" compare "$TEST_TMP/a.json" "$TEST_TMP/abc.json"
vg 64 "bad CPU list" --prod-affinity 0-1,1 count-local
vg 0 "list" -l
# a node of our own as root: a runner that replaced it must not take /dev/full
FULL=/dev/full
[ "$(id -u)" -ne 0 ] || ! mknod -m 666 "$TEST_TMP/full" c 1 7 || FULL="$TEST_TMP/full"
vg 0 "--json - (stdout)" -w0 -d1 --json - count-local
vg 1 "--json onto /dev/full" -w0 -d1 --json "$FULL" count-local

done_testing
