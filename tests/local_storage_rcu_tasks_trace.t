#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# local-storage-tasks-trace on the real kernel: the sleeper processes it
# forks and reaps, the hooks that ran (upstream's fentry on the syscall
# and on rcu_tasks_trace_pregp_step/postgp where the kernel allows it,
# else the tracepoint with the grace periods not timed, said on stderr
# and in JSON), upstream's SUMMARY lines or ours, the kthread's ticks,
# refusals, signals mid-run and that nothing is left behind: no program,
# no cgroup, no sleeper.  -w0 runs: behaviour, not speed.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

B=local-storage-tasks-trace
PROGS='get_local_[a-z]*|pregp_step|postgp'
CG_PARENT=$(own_mem_cgroup)
KTHREAD=$(pgrep -x 'rcu_tasks_trace(_kthread)?' | head -n1)
# the sleepers are forked copies of the run: its command line, with a mark of the test's own
sleepers() { pgrep -fc -- "--json $TEST_TMP/" || true; }
left_behind() {
	local left=""

	[ "$(loaded_bench_progs "$PROGS")" -eq 0 ] || left+="program; "
	[ "$(sleepers)" -eq 0 ] || left+="$(sleepers) sleeper processes; "
	if [ -n "$CG_PARENT" ] && compgen -G "$CG_PARENT/bench-$B*" >/dev/null; then
		left+="memory cgroup; "
	fi
	printf '%s' "$left"
}
nothing_left() { [ -z "$(left_behind)" ]; }
check_clean() {	# check_clean <what>
	eventually nothing_left
	ok $? "$1: nothing left behind (no program, sleeper or cgroup)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "left: $(left_behind)"
}

GP_SUMMARY_RE='^SUMMARY tasks_trace grace period latency	avg [0-9]+\.[0-9]{3} us	stddev [0-9]+\.[0-9]{3} us$'
TICKS_SUMMARY_RE='^SUMMARY ticks per tasks_trace grace period	avg [0-9]+\.[0-9]{3}	stddev [0-9]+\.[0-9]{3}$'
CHURN_SUMMARY_RE='^SUMMARY local storage get\+delete	avg [0-9]+\.[0-9]{3} M/s	stddev [0-9]+\.[0-9]{3} M/s$'

# one run with the kthread's ticks: 13 sleepers, two measured seconds
# (a guest under TCG may see one grace period a second)
out=$TEST_TMP/run
kt=()
[ -n "$KTHREAD" ] && kt=(--kthread_pid "$KTHREAD")
"$BENCH" -w0 -d2 --json "$out.json" $B --nr_procs 13 "${kt[@]}" >"$out" 2>"$out.err" &
pid=$!
watchdog "$pid"
wait_for "$out" '^Benchmark .* started' "$pid" 30
is "$(pgrep -c -P "$pid")" 13 "mid-run: the 13 sleepers run, children of the run"
reap "$pid"
is $? 0 "exit status 0"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
like "$out" "^Spun up 13 procs \\(our pid $pid\\)$" "upstream's line for the sleepers"
stderr_clean "$out.err"
ok $? "one hook line and one grace-periods line, well-formed"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
if grep -q '^grace periods: fentry/' "$out.err"; then
	GP=true
	like "$out" "$GP_SUMMARY_RE" "grace periods timed: upstream's latency SUMMARY"
	if [ -n "$KTHREAD" ]; then
		like "$out" "$TICKS_SUMMARY_RE" "grace periods timed: upstream's ticks SUMMARY"
	else
		skip "no rcu_tasks_trace kthread here" "grace periods timed: upstream's ticks SUMMARY"
	fi
	like "$out" '^Iter 1	 avg tasks_trace grace period latency	[0-9.na-]+ ns$' "upstream's Iter lines"
	jq -e '.summary.metrics.gp_latency.mean > 0 and .summary.metrics.grace_periods.mean > 0' \
		"$out.json" >/dev/null
	ok $? "grace periods timed: latency and rate in the JSON"
else
	GP=false
	like "$out" "$CHURN_SUMMARY_RE" "grace periods not timed: the churn's SUMMARY instead"
	assert "grace periods not timed: no grace-period figure printed" \
		eval "! grep -q 'grace period' '$out' && jq -e '.summary.metrics.gp_latency.n == 0' '$out.json' >/dev/null"
fi
if [ "${BENCH_TEST_FENTRY:-}" = 1 ]; then
	is "$GP" true "BENCH_TEST_FENTRY=1: the grace periods are timed on fentry here"
fi
jq -e --argjson gp "$GP" '.options.benchmark.grace_periods == $gp and .options.benchmark.nr_procs == 13 and
	(.options.benchmark.hook | IN("fentry", "tracepoint"))' "$out.json" >/dev/null
ok $? "the JSON options say whether the grace periods were timed, and the hook"
if [ -n "$KTHREAD" ]; then
	cmp_num "$(jq '.summary.metrics.kthread_ticks.mean' "$out.json")" '>=' 0 \
		"--kthread_pid: the kthread's ticks per second, in the JSON"
fi
schema_ok "$out.json" "the JSON passes the schema check"
# its figures as lkp-tests and KCIDB read them: a figure not measured is no number
if host_only "the figures through lkp-tests' parse and export kcidb"; then
	"$LKP_PARSE" "$out.json" >"$out.parsed" 2>&1
	ok $? "lkp-tests' parse exits 0"
	lkp_contract "$out.parsed" $B
	"$BENCH" export kcidb --origin lkp_test "$out.json" >"$out.kcidb" 2>"$out.kcidb.err"
	is $? 0 "export kcidb: exit status 0"
	if [ "$GP" = true ]; then
		want_parse=1 want_status=DONE
	else
		want_parse=0 want_status=SKIP
	fi
	is "$(grep -c '\.gp_latency: ' "$out.parsed")" "$want_parse" "lkp-tests' parse: gp_latency only where measured"
	is "$(jq -r '.tests[] | select(.path | endswith(".gp_latency")) | .status' "$out.kcidb")" "$want_status" \
		"export kcidb: gp_latency $want_status"
	is "$(jq -r '.tests[] | select(.path | endswith(".hits")) | .status + " " + .number.unit' "$out.kcidb")" \
		"DONE op/s" "export kcidb: the churn (hits) DONE, in op/s"
fi
# plot and history draw and show what was measured: gp_latency where the
# grace periods were timed, else the churn's rate (hits), without --metric
[ "$GP" = true ] && want_metric=gp_latency || want_metric=hits
"$BENCH" plot timeline --text -o "$out.timeline.txt" "$out.json" >/dev/null 2>"$out.timeline.err"
is $? 0 "plot timeline --text of its result: exit 0"
like "$out.timeline.txt" "timeline: $want_metric per second" "plot timeline: draws $want_metric, the measured metric"
"$BENCH" history add --db "$TEST_TMP/lstt.db" "$out.json" >/dev/null 2>&1
is $? 0 "history add of its result: exit 0"
"$BENCH" history show --db "$TEST_TMP/lstt.db" >"$out.show" 2>"$out.show.err"
is $? 0 "history show of it without --metric: exit 0"
like "$out.show" ": $want_metric \\(" "history show: the measured metric, $want_metric"
check_clean "a run"

# a signal mid-run: the sleepers are killed and reaped with everything
# else (the runner's teardown, the same on every kernel)
if host_only "SIGINT mid-run"; then
	out=$TEST_TMP/sig
	"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 --json "$out.json" $B --nr_procs 7 >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid" 30
	ok $? "SIGINT: the run got going"
	kill -INT "$pid"
	reap "$pid"
	is $? 130 "SIGINT: exit status 130"
	assert "SIGINT: no SUMMARY, no JSON file" eval "! grep -q '^SUMMARY' '$out' && [ ! -e '$out.json' ]"
	check_clean "SIGINT"
fi

if host_only "bad values refused in one line; the wrapper"; then
	refused "invalid producer count 2: $B runs one producer \\(-p1\\)" -p2 $B
	refused "^invalid --nr_procs '150001': expected an integer in 1..150000$" --nr_procs 150001 $B
	refused "^invalid --nr_procs '0': expected an integer in 1..150000$" --nr_procs 0 $B
	refused "^invalid --kthread_pid '0': expected a process id" --kthread_pid 0 $B
	refused '^invalid --kthread_pid 2147483647: cannot read /proc/2147483647/stat: No such file or directory$' \
		--kthread_pid 2147483647 $B
	refused "^invalid --hook 'lsm': expected auto, fentry or tracepoint$" --hook lsm $B
	is_exit 64 "--nr_procs x: exit 64, as upstream's argp_usage()" "$BENCH" --nr_procs x $B
	is_exit 64 "--nr_procs 150001: out of range, exit 64 (README's table; upstream's validate() exits 1)" "$BENCH" --nr_procs 150001 $B

	# the wrapper, shortened: the kthread found, the SUMMARY lines, no Iter line
	out=$TEST_TMP/wrapper
	if [ -z "$KTHREAD" ]; then
		skip "no rcu_tasks_trace kthread here" "run_bench_local_storage_rcu_tasks_trace.sh"
	else
		NR_PROCS=5 DURATION=1 RUN_BENCH="$BENCH -w0 --json $TEST_TMP/wrapper.json" \
			"$(dirname "$0")/../benchs/run_bench_local_storage_rcu_tasks_trace.sh" >"$out" 2>"$out.err"
		is $? 0 "run_bench_local_storage_rcu_tasks_trace.sh: exit status 0"
		is "$(grep -c '^Iter' "$out")" 0 "run_bench_local_storage_rcu_tasks_trace.sh: quiet, no Iter line"
		is "$(grep -c '^SUMMARY ' "$out")" 2 "run_bench_local_storage_rcu_tasks_trace.sh: two SUMMARY lines"
		[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out" "$out.err")"
		jq -e '.options.benchmark.kthread_ticks and .options.benchmark.nr_procs == 5' \
			"$TEST_TMP/wrapper.json" >/dev/null
		ok $? "run_bench_local_storage_rcu_tasks_trace.sh: the kthread's pid and NR_PROCS passed on"
	fi
	check_clean "refusals and the wrapper"
fi

done_testing
