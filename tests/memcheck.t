#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The binary under valgrind: the exit status the run should have, no
# invalid access, no definite or indirect leak.  Producer threads still
# spin when the process exits, so their stacks show up as "possibly lost":
# that kind is not counted.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip_all "valgrind not installed"

# The runs go side by side (par_start), each with its own output files:
# every check is of one run's exit status and valgrind report.  compare's
# runs read the first run's result, so they start once it is checked.
# vg_start <key> <args...>: start the bench with <args...> under valgrind,
# its threads as started (lib.sh's AS_STARTED)
vg_start() {
	local key=$1
	shift
	par_start "$TEST_TMP/vg.$key" "${AS_STARTED[@]}" valgrind --fair-sched=yes --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect "$BENCH" "$@"
}

# vg <key> <expected exit status> <description>: the checks of the run
# vg_start started as <key> (vg_verdict reads $TEST_TMP/vg.err)
vg() {
	local key=$1 want=$2 desc=$3 rc
	par_wait "$TEST_TMP/vg.$key"
	rc=$?
	cp "$TEST_TMP/vg.$key.err" "$TEST_TMP/vg.err"
	vg_verdict $rc "$want" "$desc"
}

# a node of our own as root: a runner that replaced it must not take /dev/full
FULL=/dev/full
[ "$(id -u)" -ne 0 ] || ! mknod -m 666 "$TEST_TMP/full" c 1 7 || FULL="$TEST_TMP/full"
vg_start json -w1 -d1 -p2 -a --per-producer --json "$TEST_TMP/a.json" count-local
vg_start stdout -w0 -d1 --json - count-local
vg_start full -w0 -d1 --json "$FULL" count-local
vg_start cpus --prod-affinity 0-1,1 count-local
vg_start list -l

vg json 0 "count-local with --json and --per-producer"
vg_start compare compare "$TEST_TMP/a.json" "$TEST_TMP/a.json"
vg_start malformed compare "$TEST_TMP/a.json" /dev/null
jq '.samples[1].metrics.hits = "abc"' "$TEST_TMP/a.json" >"$TEST_TMP/abc.json"
vg_start damaged compare "$TEST_TMP/a.json" "$TEST_TMP/abc.json"
vg compare 0 "compare"
vg malformed 2 "compare of a malformed file"
vg damaged 2 "compare of a damaged result"
vg cpus 64 "bad CPU list"
vg list 0 "list"
vg stdout 0 "--json - (stdout)"
vg full 1 "--json onto /dev/full"

done_testing
