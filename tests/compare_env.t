#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs know where they ran: the JSON context names the hypervisor (with
# the evidence) and the cgroup mode as this machine shows them, and
# `bench compare` warns when either differs, loudly when a side ran under
# TCG, without refusing or changing its exit status.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

base=$TEST_TMP/base.json
run_bench "$TEST_TMP/base" -w0 -d2 --json "$base" count-local
is $? 0 "count-local --json: exits 0"

# what this machine shows, read here the way the bench reads it
if grep -qw kvm-clock /sys/devices/system/clocksource/clocksource0/available_clocksource 2>/dev/null; then
	want_hv=kvm
elif grep -qx QEMU /sys/devices/virtual/dmi/id/sys_vendor 2>/dev/null &&
     grep -q '^flags' /proc/cpuinfo; then
	want_hv=tcg
elif grep -q '^flags.* hypervisor\( \|$\)' /proc/cpuinfo || [ -s /sys/hypervisor/type ]; then
	want_hv=other
elif grep -q '^flags' /proc/cpuinfo; then
	want_hv=none
else
	want_hv=""	# not x86 and no other evidence: other or unknown
fi
v1=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup"' /proc/self/mountinfo | wc -l)
v2=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup2"' /proc/self/mountinfo | wc -l)
if [ "$v1" -gt 0 ] && [ "$v2" -gt 0 ]; then
	want_mode=hybrid
elif [ "$v2" -gt 0 ]; then
	want_mode=v2
elif [ "$v1" -gt 0 ]; then
	want_mode=v1
else
	want_mode=none
fi

got_hv=$(jq -r '.context.hypervisor' "$base")
if [ -n "$want_hv" ]; then
	is "$got_hv" "$want_hv" "context.hypervisor is '$want_hv'"
else
	assert "context.hypervisor is other or unknown off x86 (got '$got_hv')" \
		[ "$got_hv" = other ] || [ "$got_hv" = unknown ]
fi
diag "hypervisor: $got_hv ($(jq -r '.context.hypervisor_evidence' "$base"))"
got_mode=$(jq -r '.context.cgroup_mode' "$base")
is "$got_mode" "$want_mode" "context.cgroup_mode is '$want_mode'"

# Same place: nothing differs; a run under TCG still gets the loud
# warning, naming both runs.
rc=0
"$BENCH" compare "$base" "$base" >"$TEST_TMP/same.out" 2>&1 || rc=$?
is "$rc" 0 "same place: compare exits 0"
is "$(grep -Eci 'hypervisor|cgroup mode' "$TEST_TMP/same.out")" 0 \
	"same place: no hypervisor or cgroup mode warning"
if [ "$got_hv" = tcg ]; then
	like "$TEST_TMP/same.out" '^warning: TIMINGS NOT COMPARABLE TO HARDWARE: the base and new runs ran under TCG' \
		"same place, under TCG: the loud warning names both runs"
else
	is "$(grep -c TCG "$TEST_TMP/same.out")" 0 "same place, not under TCG: no TCG warning"
fi

# the edits below start from a run off TCG, so TCG comes only from them
if [ "$got_hv" = tcg ]; then
	jq '.context.hypervisor = "kvm"' "$base" > "$TEST_TMP/hw.json"
	base=$TEST_TMP/hw.json
	got_hv=kvm
fi

# cmp <name> <jq edit of the new side>: compare base with an edited copy
cmp() {
	local name=$1 new=$TEST_TMP/$1.json

	jq "$2" "$base" > "$new"
	CMP_RC=0
	"$BENCH" compare "$base" "$new" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" || CMP_RC=$?
	CMP_OUT=$TEST_TMP/$name.out
}

other_hv=$([ "$got_hv" = none ] && echo other || echo none)
cmp hv ".context.hypervisor = \"$other_hv\""
is "$CMP_RC" 0 "different hypervisor: compare still exits 0"
like "$CMP_OUT" "^warning: hypervisor differs: $got_hv vs $other_hv$" \
	"different hypervisor: warned, naming both"
is "$(grep -c TCG "$CMP_OUT")" 0 "different hypervisor, no TCG: no TCG warning"

other_mode=$([ "$got_mode" = v2 ] && echo v1 || echo v2)
cmp mode ".context.cgroup_mode = \"$other_mode\""
is "$CMP_RC" 0 "different cgroup mode: compare still exits 0"
like "$CMP_OUT" "^warning: cgroup mode differs: $got_mode vs $other_mode$" \
	"different cgroup mode: warned, naming both"

for side in new base both; do
	case $side in
	new)	jq '.context.hypervisor = "tcg"' "$base" > "$TEST_TMP/a.json"
		a=$base b=$TEST_TMP/a.json want="new run" ;;
	base)	a=$TEST_TMP/a.json b=$base want="base run" ;;
	both)	a=$TEST_TMP/a.json b=$TEST_TMP/a.json want="base and new runs" ;;
	esac
	rc=0
	"$BENCH" compare "$a" "$b" >"$TEST_TMP/tcg.out" 2>"$TEST_TMP/tcg.err" || rc=$?
	is "$rc" 0 "TCG on the $side side(s): compare exits 0"
	like "$TEST_TMP/tcg.out" "^warning: TIMINGS NOT COMPARABLE TO HARDWARE: the $want ran under TCG" \
		"TCG on the $side side(s): the loud warning names the $want"
done
diag "$(grep TCG "$TEST_TMP/tcg.out")"

done_testing
