#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench ab checks that each side's invocations share one configuration,
# as compare checks its sides: an A that alternates a count-local and a
# count-global result (or two option sets) is refused with one line naming
# both, exit 2 (README's table), instead of a verdict on the mix; so is
# a metric whose unit changes between invocations.  count-local and count-global runs, no BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
export LC_ALL=C
cd "$TEST_TMP" || exit 1

"$BENCH" -q -w0 -d1 --json local.json count-local >/dev/null 2>&1
ok $? "count-local run: exit 0"
"$BENCH" -q -w0 -d1 --json global.json count-global >/dev/null 2>&1
ok $? "count-global run: exit 0"
"$BENCH" -q -w0 -d1 -p2 --json local2.json count-local >/dev/null 2>&1
ok $? "count-local -p2 run: exit 0"

# alternate <counter> <first> <second>: a shell command writing <first>'s
# copy, then <second>'s, and so on
# shellcheck disable=SC2016 # for the shell ab runs
alternate() {
	printf 'n=$(cat %s 2>/dev/null || echo 0); echo $((n + 1)) >%s; ' "$TEST_TMP/$1" "$TEST_TMP/$1"
	printf 'if [ $((n %% 2)) = 0 ]; then cp %s "$BENCH_AB_JSON"; else cp %s "$BENCH_AB_JSON"; fi' \
		"$TEST_TMP/$2" "$TEST_TMP/$3"
}

rc=0
"$BENCH" ab --blocks 6 -o mixed.d --cmd-a "$(alternate na local.json global.json)" \
	--cmd-b "cp $TEST_TMP/local.json \"\$BENCH_AB_JSON\"" >out 2>err || rc=$?
is "$rc" 2 "A alternating count-local and count-global: exit 2"
like err "count-global default, but A's first invocation was count-local default: refusing to test a side of two configurations" \
	"A alternating: one line naming both configurations"
like out "a side's invocations are not of one configuration" "A alternating: the report says why it stopped"

rc=0
"$BENCH" ab --blocks 6 -o mixed-b.d --cmd-a "cp $TEST_TMP/local.json \"\$BENCH_AB_JSON\"" \
	--cmd-b "$(alternate nb local.json local2.json)" >out 2>err || rc=$?
is "$rc" 2 "B alternating -p1 and -p2: exit 2"
like err "count-local producers=2, but B's first invocation was count-local default" \
	"B alternating: one line naming both configurations"

# one metric in two units (182 K/s is not 182 M/s): B's hits in K/s
# against A's in M/s once gave a ratio of the numbers, a verdict on nothing
jq '.summary.metrics.hits.unit = "K/s"' local.json >local-ks.json
rc=0
"$BENCH" ab --blocks 6 -o units.d --cmd-a "cp $TEST_TMP/local.json \"\$BENCH_AB_JSON\"" \
	--cmd-b "cp $TEST_TMP/local-ks.json \"\$BENCH_AB_JSON\"" >out 2>err || rc=$?
is "$rc" 2 "B's metric in another unit: exit 2"
like err 'summary\.metrics\.hits\.unit: "K/s", but the invocations before had "M/s": refusing a ratio of two units' \
	"two units: one line naming both"
like out "stopped: the metric's unit is not one across the invocations" "two units: the report says why it stopped"
! grep -Eq '^change: [-+]' out
ok $? "two units: no change is reported"

# (a side of one configuration, as every run of tests/ab.t, is tested as before)

done_testing
