#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The binary under valgrind: no invalid access, no definite or indirect
# leak.  Producer threads still spin when the process exits, so their
# stacks show up as "possibly lost": that kind is not counted.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip_all "valgrind not installed"

vg() {	# vg <description> <args...>
	local desc=$1
	shift
	valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect "$BENCH" "$@" >"$TEST_TMP/vg" 2>"$TEST_TMP/vg.err"
	ok $(($? == 99)) "valgrind: $desc"
	grep -q '^==[0-9]*==' "$TEST_TMP/vg.err" && diag "$(grep '^==' "$TEST_TMP/vg.err" | head -40)"
}

vg "count-local with --json and --per-producer" -w1 -d1 -p2 -a --per-producer \
	--json "$TEST_TMP/a.json" count-local
vg "compare" compare "$TEST_TMP/a.json" "$TEST_TMP/a.json"
vg "compare of a malformed file" compare "$TEST_TMP/a.json" /dev/null
jq '.samples[1].metrics.hits = "abc"' "$TEST_TMP/a.json" >"$TEST_TMP/abc.json"
vg "compare of a damaged result" compare "$TEST_TMP/a.json" "$TEST_TMP/abc.json"
vg "bad CPU list" --prod-affinity 0-1,1 count-local
vg "list" -l
# a node of our own as root: a runner that replaced it must not take /dev/full
FULL=/dev/full
[ "$(id -u)" -ne 0 ] || ! mknod -m 666 "$TEST_TMP/full" c 1 7 || FULL="$TEST_TMP/full"
vg "--json - (stdout)" -w0 -d1 --json - count-local
vg "--json onto /dev/full" -w0 -d1 --json "$FULL" count-local

done_testing
