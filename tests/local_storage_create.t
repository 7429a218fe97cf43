#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# local-storage-create on the real kernel: both storage types, the hook
# that ran (upstream's lsm.s/socket_post_create where the kernel runs it,
# else cgroup/sock_create), upstream's Iter and Summary formats, the
# cross-check (creates + creation errors = the objects the producers made),
# a pid namespace, --repeat and --latency, signals mid-run, refusals, and
# that nothing is left behind: no program, no storage map, no cgroup.
# -w0 -d1 runs: behaviour, not speed.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

B=local-storage-create
PROGS='lsc_[a-z_]*'
CG_PARENT=$(own_mem_cgroup)
# the v2 hierarchy, where cgroup/sock_create's attach cgroup would be left
V2=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup2" { print $5; exit }' /proc/self/mountinfo)

storage_maps() { bpftool map show 2>/dev/null | grep -Ec 'name (sk_storage_map|task_storage_ma) ' || true; }
# what a run left behind, if anything (the BPF tests' lock keeps other runs out)
left_behind() {
	local left=""

	[ "$(loaded_bench_progs "$PROGS")" -eq 0 ] || left+="program; "
	[ "$(storage_maps)" -eq 0 ] || left+="storage map; "
	if [ -n "$CG_PARENT" ] && compgen -G "$CG_PARENT/bench-$B*" >/dev/null; then
		left+="memory cgroup; "
	fi
	if [ -n "$V2" ] && [ -n "$(find "$V2" -name "bench-$B*" -print -quit 2>/dev/null)" ]; then
		left+="cgroup v2 directory; "
	fi
	printf '%s' "$left"
}
nothing_left() { [ -z "$(left_behind)" ]; }
check_clean() {	# check_clean <what>
	eventually nothing_left
	ok $? "$1: nothing left behind (no program, storage map or cgroup)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "left: $(left_behind)"
}

# upstream's printf formats: "creates %8.3lfk/s (%7.3lfk/prod), %3.2lf kmallocs/create"
ITER_RE='^Iter +[0-9]+ \( *-?[0-9]+\.[0-9]{3}us\): creates +[0-9]+\.[0-9]{3}k/s \( *[0-9]+\.[0-9]{3}k/prod\), [0-9]+\.[0-9]{2} kmallocs/create$'
SUMMARY_RE='^Summary: creates +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}k/s \( *[0-9]+\.[0-9]{3}k/prod\), +[0-9]+\.[0-9]{2} kmallocs/create$'

# the cross-check, from the JSON: every object passed the hook once
counts_ok() {	# counts_ok <json>
	jq -e '.counts as $c | $c.objects > 0 and $c.creates > 0 and
		$c.creates + $c.create_errors == $c.objects and $c.kmallocs >= $c.producer_kmallocs and
		([.samples[].counters.hits] | add) <= $c.creates' "$1" >/dev/null
}

# which socket hook auto must pick: upstream's when it sets up here
HOOK_WHY=""
rc=0
BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d1 $B --socket-hook lsm >"$TEST_TMP/lsm" 2>"$TEST_TMP/lsm.err" || rc=$?
if [ "$rc" -eq 0 ]; then
	SOCKET_HOOK=lsm.s/socket_post_create
else
	SOCKET_HOOK=cgroup/sock_create
	HOOK_WHY=$(sed -n 's/^local-storage-create: //p' "$TEST_TMP/lsm.err" | tail -n1)
fi
diag "socket storage's hook here: $SOCKET_HOOK${HOOK_WHY:+ ($HOOK_WHY)}"

# cgroup/sock_create programs learnt bpf_get_ns_current_pid_tgid() in Linux
# 6.10: before, --socket-hook cgroup is refused in one line saying so
CG_RC=0
BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d1 $B --socket-hook cgroup >"$TEST_TMP/cg" 2>"$TEST_TMP/cg.err" || CG_RC=$?
# whether the runner's --latency sets up on this kernel at all (hash-lookup's, the reference)
LAT_RC=0
BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" --latency -w0 -d1 hash-lookup >"$TEST_TMP/latency.ref" 2>&1 || LAT_RC=$?

# The measured runs below that the test does not signal, side by side
# (lib.sh's par_start, each under a watchdog): none depends on another's
# output, each counts its own producers' objects (by their pids: the pid
# namespace runs check that too) in its own cgroup, and all are reaped
# before the first check of what is left loaded.
par_case "socket -p1" -p1 $B
par_case "socket -p2 --batch-size 16" -p2 $B --storage-type socket --batch-size 16
par_case "task -p2 --batch-size 64" -p2 $B --storage-type task --batch-size 64
[ "$CG_RC" -ne 0 ] || par_case "socket --socket-hook cgroup" -p2 $B --socket-hook cgroup
[ "$SOCKET_HOOK" != lsm.s/socket_post_create ] || par_case "socket --socket-hook lsm" -p2 $B --socket-hook lsm
for t in socket task; do
	par_watched "$TEST_TMP/ns-$t" unshare -p -f --mount-proc "$BENCH" -w0 -d1 -p2 --json "$TEST_TMP/ns-$t.json" \
		$B --storage-type "$t"
done
par_watched "$TEST_TMP/repeat" "$BENCH" -w0 -d1 --repeat 2 --json "$TEST_TMP/repeat.json" $B --storage-type task
[ "$LAT_RC" -ne 0 ] || par_watched "$TEST_TMP/latency" "$BENCH" -w0 -d1 --latency --json "$TEST_TMP/latency.json" $B
par_watched "$TEST_TMP/setup" env BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d30 -p2 $B
par_wait_all

run_case() {	# run_case <name> <expected hook>: par_case's run, checked
	local name=$1 hook=$2 out="$TEST_TMP/${1// /_}" rc line

	rc=${PAR_STATUS[$out]-}
	is "$rc" 0 "$name: exit status 0"
	[ "$rc" = 0 ] || diag "$(cat "$out.err")"
	line=$(grep '^hook: ' "$out.err")
	[[ $line == "hook: $hook"* ]] && stderr_clean "$out.err" &&
		jq -e --arg h "$hook" '.options.benchmark.hook == $h' "$out.json" >/dev/null
	ok $? "$name: one hook line, $hook, as in the JSON options"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
	like "$out" "$ITER_RE" "$name: upstream's Iter line"
	like "$out" "$SUMMARY_RE" "$name: upstream's Summary line"
	counts_ok "$out.json"
	ok $? "$name: creates + creation errors = objects made ($(jq -c .counts "$out.json" 2>/dev/null))"
	[ "$(jq -r -f "$(dirname "$0")/schema.jq" "$out.json" | wc -l)" -eq 0 ]
	ok $? "$name: the JSON passes the schema check"
	check_clean "$name"
}

run_case "socket -p1" "$SOCKET_HOOK"
run_case "socket -p2 --batch-size 16" "$SOCKET_HOOK"
run_case "task -p2 --batch-size 64" tp_btf/sched_process_fork
# --socket-hook cgroup: its run, or its refusal (the probe above)
rc=$CG_RC
if [ "$rc" -eq 0 ]; then
	run_case "socket --socket-hook cgroup" cgroup/sock_create
else
	[ "$(wc -l <"$TEST_TMP/cg.err")" -eq 1 ] &&
		grep -q "^local-storage-create: this kernel's cgroup/sock_create programs may not call bpf_get_ns_current_pid_tgid() (Linux 6.10 and later allow it)" "$TEST_TMP/cg.err"
	ok $? "--socket-hook cgroup on $(uname -r): refused (rc $rc) in one line naming the missing helper"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$TEST_TMP/cg.err")"
	check_clean "--socket-hook cgroup refused"
fi
if [ "$SOCKET_HOOK" = lsm.s/socket_post_create ]; then
	run_case "socket --socket-hook lsm" lsm.s/socket_post_create
else
	grep -qxF "hook: cgroup/sock_create (lsm.s/socket_post_create unavailable: $HOOK_WHY)" \
		"$TEST_TMP/socket_-p1.err"
	ok $? "auto: cgroup/sock_create, saying why lsm.s/socket_post_create is unavailable"
fi
jq -e '.options.benchmark == {"storage_type": "task", "batch_size": 64, "hook": "tp_btf/sched_process_fork"}' \
	"$TEST_TMP/task_-p2_--batch-size_64.json" >/dev/null
ok $? "task: storage type, batch size and hook in the JSON options"
jq -e '.options.benchmark.batch_size == 32 and .options.benchmark.storage_type == "socket"' \
	"$TEST_TMP/socket_-p1.json" >/dev/null
ok $? "defaults: socket storage, batch size 32 (upstream's)"

# a pid namespace, as in a container: ids seen by BPF are global ones
for t in socket task; do
	out=$TEST_TMP/ns-$t
	rc=${PAR_STATUS[$out]-}
	[ "$rc" = 0 ] && stderr_clean "$out.err" && counts_ok "$out.json"
	ok $? "$t in a pid namespace: exit 0, creates + errors = objects made"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$out.err")"
	check_clean "$t in a pid namespace"
done

# --repeat: a fresh storage map per repeat, the producers stopped over the switch
out=$TEST_TMP/repeat
rc=${PAR_STATUS[$out]-}
[ "$rc" = 0 ] && grep -q '^Repeat 2/2: fresh state$' "$out" && counts_ok "$out.json" &&
	[ "$(grep -c '^Repeat [12]/2: Summary: creates ' "$out")" -eq 2 ]
ok $? "--repeat 2: fresh state, a Summary per repeat, the counts add up over both"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$out" "$out.err")"

# --latency: one timed storage creation per trigger, where the runner's
# --latency sets up on this kernel at all (hash-lookup's, the reference)
out=$TEST_TMP/latency
if [ "$LAT_RC" -ne 0 ]; then
	skip "the runner's --latency does not set up on $(uname -r) ($(grep -m1 'failed' "$out.ref"))" \
		"--latency: a Latency line, every timed trigger one storage creation"
else
	rc=${PAR_STATUS[$out]-}
	[ "$rc" = 0 ] && grep -Eq '^Latency: per-op p50 [0-9]+ ns, .*\([0-9]+ triggers, 1 ops each\)$' "$out" &&
		jq -e '.latency.triggers > 0 and .latency.triggers <= .counts.creates + .counts.create_errors' \
			"$out.json" >/dev/null
	ok $? "--latency: a Latency line, every timed trigger one storage creation"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$out" "$out.err")"
fi

# a signal mid-run: the run's programs, maps and cgroups all go
for sig in INT TERM; do
	[ $sig = INT ] && t=socket || t=task
	out=$TEST_TMP/sig-$sig
	"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 -p2 --json "$out.json" $B --storage-type "$t" >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid" 30
	ok $? "SIG$sig, $t: the run got going"
	[ "$(loaded_bench_progs "$PROGS")" -eq 2 ] && [ "$(storage_maps)" -eq 1 ]
	ok $? "SIG$sig, $t: mid-run, its two programs and its storage map are loaded"
	kill -"$sig" "$pid"
	reap "$pid"
	rc=$?
	[ $sig = INT ] && want=130 || want=143
	is "$rc" "$want" "SIG$sig, $t: exit status $want"
	assert "SIG$sig, $t: no Summary, no JSON file" eval "! grep -q '^Summary' '$out' && [ ! -e '$out.json' ]"
	check_clean "SIG$sig, $t"
done

# set-up alone: everything attached, then all of it undone
out=$TEST_TMP/setup
is "${PAR_STATUS[$out]-}" 0 "exit after set-up: exit status 0"
is "$(strip_hook_line "$out.err")" "exiting after set-up (BENCH_TEST_EXIT_AFTER_SETUP=1): nothing measured" \
	"exit after set-up: says so"
check_clean "exit after set-up"

# bad input: one line naming the value and what is accepted, nothing created
refuse() {	# refuse <what> <stderr regex> <bench args...>
	local what=$1 re=$2 out="$TEST_TMP/bad" rc=0
	shift 2

	"$BENCH" -w0 -d1 "$@" >"$out" 2>"$out.err" & pid=$!
	wait "$pid" || rc=$?
	[ "$rc" -ne 0 ] && [ "$(wc -l <"$out.err")" -eq 1 ] && [ ! -s "$out" ] && grep -Eq "$re" "$out.err"
	ok $? "$what: refused (exit $rc) in one line naming the value and what is accepted"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
	check_clean "$what"
}
# option checks and reading the files are userspace alone: a guest need not repeat them
if host_only "bad values refused; compare and plot of the runs"; then
	refuse "--storage-type cgroup" "storage type 'cgroup': expected socket or task$" $B --storage-type cgroup
	refuse "--batch-size 0" "batch size '0': expected an integer in 1\.\.65536$" $B --batch-size 0
	refuse "--batch-size 65537" "batch size '65537': expected an integer in 1\.\.65536$" $B --batch-size 65537
	refuse "--batch-size 8k" "batch size '8k': expected an integer in 1\.\.65536$" $B --batch-size 8k
	refuse "--socket-hook fentry" "socket hook 'fentry': expected auto, lsm or cgroup$" $B --socket-hook fentry
	refuse "--socket-hook with task storage" "socket hook 'cgroup' for --storage-type task" \
		$B --storage-type task --socket-hook cgroup
	refuse "more sockets than RLIMIT_NOFILE" "batch size 65536: 1024 producers x 65536 sockets need [0-9]+ open files" \
		-p1024 $B --batch-size 65536

	# compare: runs on different hooks are different configurations
	a=$TEST_TMP/socket_-p2_--batch-size_16.json
	jq '.options.benchmark.hook = "lsm.s/socket_post_create/other"' "$a" >"$TEST_TMP/other_hook.json"
	rc=0
	"$BENCH" compare "$a" "$TEST_TMP/other_hook.json" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err" || rc=$?
	[ "$rc" -eq 2 ] && grep -q 'refusing to compare runs with different options: hook ' "$TEST_TMP/cmp.err"
	ok $? "compare: runs on different hooks refused (rc $rc), naming the hook"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$TEST_TMP/cmp.err")"
	rc=0
	"$BENCH" compare --verbose --force "$a" "$TEST_TMP/other_hook.json" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err" || rc=$?
	[ "$rc" -eq 0 ] && grep -q '^warning: options differ: hook ' "$TEST_TMP/cmp" &&
		grep -q '^kmallocs_per_create (kmallocs/create) ' "$TEST_TMP/cmp"
	ok $? "compare --force: compares (rc $rc), kmallocs per create among the metrics"

	# plot: the two socket runs at -p1 and -p2 (batch sizes differ: forced)
	rc=0
	"$BENCH" plot scaling --table --force "$TEST_TMP/socket_-p1.json" "$TEST_TMP/socket_-p2_--batch-size_16.json" \
		>"$TEST_TMP/scaling" 2>"$TEST_TMP/scaling.err" || rc=$?
	[ "$rc" -eq 0 ] && grep -Eq '^ +2 +[0-9.]+ ' "$TEST_TMP/scaling"
	ok $? "plot scaling --table: creates per producer at 1 and 2 producers (rc $rc)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$TEST_TMP/scaling" "$TEST_TMP/scaling.err")"
fi

done_testing
