#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every benchmark that triggers a BPF program, run inside its own pid
# namespace (as in a container): its program must recognise the producers
# there and report real, non-zero rates.  Then the runner's rule that a
# run which counted nothing fails (provoked with a seccomp filter that
# keeps the producers' syscalls from reaching the tracepoint), and two
# containers' runs side by side in one parent cgroup.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
command -v unshare >/dev/null || skip_all "unshare (util-linux) not installed"

in_ns() {	# in_ns <outfile> <bench args...>: the bench as pid 1 of a new pid namespace
	local out=$1
	shift
	unshare -p -f --mount-proc "$BENCH" "$@" >"$out" 2>"$out.err"
}
# par_in_ns <outfile> <bench args...>: in_ns's run, started by par_start
par_in_ns() {
	local out=$1
	shift
	par_start "$out" unshare -p -f --mount-proc "$BENCH" "$@"
}

check_rate() {	# check_rate <desc> <rc> <out> <sed -E expression printing the rate>
	local desc=$1 rc=$2 out=$3 rate

	rate=$(sed -nE "$4" "$out" | tail -n1)
	is "$rc" 0 "$desc: exit status 0"
	assert "$desc: nothing on stderr but noise warnings" stderr_clean "$out.err"
	cmp_num "$rate" '>' 0 "$desc: a positive rate"
	if [ "$rc" -ne 0 ] || [ "$TAP_LAST_FAILED" -ne 0 ]; then
		diag "rc $rc: $(cat "$out" "$out.err")"
	fi
}

HTAB_RATE='s/^Summary: per-prod-op +([0-9.]+) ±.*/\1/p'
HITS_RATE='s/^Summary: hits +([0-9.]+) ±.*/\1/p'

# the seccomp helper, for the runs below
DENY=$TEST_TMP/seccomp_deny_getpgid
DENY_BUILT=0
${CC:-cc} -Wall -Werror -o "$DENY" "$(dirname "$0")/seccomp_deny_getpgid.c" 2>"$TEST_TMP/cc.err" || DENY_BUILT=$?

# Every run up to the two containers' side by side (lib.sh's par_start, at
# most PAR_WIDTH at once): none depends on another's output, and each in a
# pid namespace has its own cgroup (bench-<name>.1.ns<inode>: the two
# containers' check below).  All are reaped before the first check of what
# is left loaded.
for uc in overwrite batch_add_batch_del add_del_on_diff_cpu no_op; do
	par_in_ns "$TEST_TMP/htab-$uc" -w0 -d1 -p2 htab-mem --use-case "$uc"
done
for b in hash-lookup trig-base; do
	par_in_ns "$TEST_TMP/$b" -w0 -d1 "$b"
done
par_in_ns "$TEST_TMP/hashmap" -w0 -d1 bpf-hashmap-lookup --nr_loops 100000
for b in htab-mem hash-lookup bpf-hashmap-lookup; do
	par_start "$TEST_TMP/deny-$b" "$DENY" "$BENCH" -w0 -d1 --json "$TEST_TMP/deny-$b.json" "$b"
done
par_start "$TEST_TMP/deny-trig" "$DENY" "$BENCH" -w0 -d1 trig-base
declare -A RC=()
for out in htab-{overwrite,batch_add_batch_del,add_del_on_diff_cpu,no_op} hash-lookup trig-base hashmap \
	   deny-{htab-mem,hash-lookup,bpf-hashmap-lookup,trig}; do
	par_wait "$TEST_TMP/$out"
	RC[$out]=$?
done

for uc in overwrite batch_add_batch_del add_del_on_diff_cpu no_op; do
	out=$TEST_TMP/htab-$uc
	rc=${RC[htab-$uc]}
	check_rate "htab-mem --use-case $uc -p2 in a pid namespace" "$rc" "$out" "$HTAB_RATE"
done

# the lookup benchmarks are one source file and one producer loop: one of them
for b in hash-lookup trig-base; do
	out=$TEST_TMP/$b
	rc=${RC[$b]}
	check_rate "$b in a pid namespace" "$rc" "$out" "$HITS_RATE"
done

out=$TEST_TMP/hashmap
rc=${RC[hashmap]}
check_rate "bpf-hashmap-lookup in a pid namespace" "$rc" "$out" 's/^cpu[0-9]+: lookup ([0-9.]+)M ±.*/\1/p'

# --- a run whose BPF program sees no producer trigger ---
if [ "$DENY_BUILT" -ne 0 ]; then
	ok 1 "build the seccomp test helper"
	diag "$(cat "$TEST_TMP/cc.err")"
fi
NOTHING="measured nothing: its BPF program saw none of the producers' triggers in 1 measured sample \(likely causes: .*\)$"
cg_parent() {
	local p

	p=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	[ -n "$p" ] && [ -d "/sys/fs/cgroup/memory$p" ] && echo "/sys/fs/cgroup/memory$p"
}
CG=$(cg_parent || true)
nothing_loaded() {
	none_loaded 'htab_mem_overwr|hash_lookup|hashmap_lookup'
}
for b in htab-mem hash-lookup bpf-hashmap-lookup; do
	out=$TEST_TMP/deny-$b
	rc=${RC[deny-$b]}
	strip_hook_line "$out.err" >"$out.err.nohook"
	[ "$rc" -eq 1 ] && [ "$(wc -l < "$out.err.nohook")" -eq 1 ] &&
		grep -Eq "^$b $NOTHING" "$out.err.nohook"
	ok $? "$b, producers' syscalls denied by seccomp: exit 1 and one line saying nothing was measured"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$out.err")"
	! grep -q '^Summary' "$out" && [ ! -e "$out.json" ]
	ok $? "$b, nothing measured: no Summary, no JSON file"
	eventually nothing_loaded && { [ -z "$CG" ] || ! compgen -G "$CG/bench-*" >/dev/null; }
	ok $? "$b, nothing measured: no program or cgroup left behind"
done

# the rule does not misfire where userspace counts: trig-base's producers
# count their (denied) syscalls themselves
out=$TEST_TMP/deny-trig
rc=${RC[deny-trig]}
check_rate "trig-base with getpgid() denied (counted in userspace)" "$rc" "$out" "$HITS_RATE"

# --- two containers' runs in one parent cgroup, both pid 1 ---
if [ -z "$CG" ]; then
	skip "no cgroup v1 memory hierarchy for this process" "two pid namespaces: own cgroups"
else
	# a leftover from a run killed in some other namespace: empty, so stale
	mkdir "$CG/bench-htab-mem.7.ns1"
	# -d2: A outlasts B, which starts once A has started and measures 1 s
	in_ns "$TEST_TMP/ctrA" -w0 -d2 --json "$TEST_TMP/ctrA.json" htab-mem & a=$!
	# B starts once A is measuring, so both have their cgroup at once
	wait_for "$TEST_TMP/ctrA" "^Benchmark 'htab-mem' started" $a
	ok $? "two pid namespaces: the first run is measuring when the second starts"
	in_ns "$TEST_TMP/ctrB" -w0 -d1 --json "$TEST_TMP/ctrB.json" htab-mem & b=$!
	wait_for "$TEST_TMP/ctrB" "^Benchmark 'htab-mem' started" $b
	during=$(find "$CG" -maxdepth 1 -name 'bench-htab-mem.*' -printf '%f ')
	wait $a; rca=$?
	wait $b; rcb=$?
	diag "during: $during"
	is "$rca $rcb" "0 0" "two pid namespaces: both runs exit 0"
	! grep -q 'n/a' "$TEST_TMP/ctrA" && ! grep -q 'n/a' "$TEST_TMP/ctrB" &&
		! grep -q 'memory usage unavailable' "$TEST_TMP/ctrA.err" "$TEST_TMP/ctrB.err"
	ok $? "two pid namespaces: both runs have memory figures (no name collision)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$TEST_TMP/ctrA.err" "$TEST_TMP/ctrB.err")"
	fa=$(jq -r '.memory_source.current_file' "$TEST_TMP/ctrA.json" 2>/dev/null)
	fb=$(jq -r '.memory_source.current_file' "$TEST_TMP/ctrB.json" 2>/dev/null)
	[[ $fa =~ /bench-htab-mem\.1\.ns[0-9]+/ ]] && [[ $fb =~ /bench-htab-mem\.1\.ns[0-9]+/ ]] &&
		[ "$fa" != "$fb" ]
	ok $? "two pid namespaces: each run in its own bench-htab-mem.1.ns<inode>"
	diag "A: $fa"
	diag "B: $fb"
	grep -Eq '^Summary: .*peak memory usage +[0-9.]+MiB$' "$TEST_TMP/ctrA"
	ok $? "two pid namespaces: the longer run kept its cgroup to the end (peak read)"
	[ ! -e "$CG/bench-htab-mem.7.ns1" ]
	ok $? "two pid namespaces: an empty leftover of another namespace was removed"
	! compgen -G "$CG/bench-htab-mem.*" >/dev/null
	ok $? "two pid namespaces: no cgroup left behind"
	rmdir "$CG/bench-htab-mem.7.ns1" 2>/dev/null
fi

done_testing
