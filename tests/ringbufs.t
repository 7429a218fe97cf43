#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rb-libbpf, rb-custom, pb-libbpf, pb-custom on the real kernel: the
# runner's consumer path.  Upstream's Iter and Summary lines, records
# that reach the consumer (hits) and those that found no room (drops),
# the hook that ran, where -a and --cons-affinity put the consumer, a
# consumer that never wakes up (drops only: the run fails as measuring
# nothing, and still ends), signals mid-run with the consumer blocked in
# epoll, refusals, and that nothing is left behind: no program, no cgroup.
# -w0 -d1 runs: behaviour, not speed.  In make vmtest's guests, whose
# kernels load fentry (BENCH_TEST_FENTRY=1), both programs run on
# upstream's hook; the rest is the host's (lib.sh's host_only).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROGS='bench_ringbuf[a-z_]*|bench_perfbuf[a-z_]*'
CG_PARENT=$(own_mem_cgroup)
NCPU=$(nproc)

left_behind() {
	local left=""

	[ "$(loaded_bench_progs "$PROGS")" -eq 0 ] || left+="program; "
	if [ -n "$CG_PARENT" ] && compgen -G "$CG_PARENT/bench-[rp]b-*" >/dev/null; then
		left+="memory cgroup; "
	fi
	printf '%s' "$left"
}
nothing_left() { [ -z "$(left_behind)" ]; }
check_clean() {	# check_clean <what>
	eventually nothing_left
	ok $? "$1: nothing left behind (no program, no cgroup)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "left: $(left_behind)"
}

# reporters.c's hits_drops lines, upstream's printf formats
N='[0-9]+\.[0-9]{3}'
ITER_RE="^Iter +[0-9]+ \\( *-?$N""us\\): hits +${N}M/s \\( *${N}M/prod\\), drops +${N}M/s, total operations +${N}M/s\$"
SUMMARY_RE="^Summary: hits +$N ± ${N}M/s \\( *${N}M/prod\\), drops +$N ± ${N}M/s, total operations +$N ± ${N}M/s\$"

# The runs below that neither the test signals nor one depends on another's
# output, side by side (lib.sh's par_start, each under a watchdog): all of
# them reaped before the first check of what is left loaded.  A signalled
# run starts in the foreground of its own check, with nothing beside it.
IN_VM=${BENCH_TEST_IN_VM:-0}
par_case rb-libbpf -c1 rb-libbpf
par_case pb-custom -c1 pb-custom
if [ "$IN_VM" != 1 ]; then
	par_case "rb-custom -a" -c1 -a rb-custom
	par_case "pb-libbpf --cons-affinity 0" -c1 --cons-affinity 0 pb-libbpf
	par_case "rb-custom --rb-b2b" -c1 rb-custom --rb-b2b
	par_case "pb-custom --rb-b2b --rb-sampled" -c1 pb-custom --rb-b2b --rb-sampled \
		--rb-batch-cnt 50 --rb-sample-rate 50
	# a consumer never woken, below
	par_watched "$TEST_TMP/asleep" "$BENCH" -w0 -d1 -c1 --json "$TEST_TMP/asleep.json" rb-libbpf \
		--rb-sampled --rb-sample-rate 1000000
	# a consumer that is not stopped in time (it waits in epoll, and the
	# join waits 0 ms), below
	par_watched "$TEST_TMP/stuck" env BENCH_TEST_CONSUMER_JOIN_MS=0 "$BENCH" -w0 -d1 -c1 \
		--json "$TEST_TMP/stuck.json" rb-libbpf --rb-sampled --rb-sample-rate 1000000
	# --rb-bench-producer --rb-overwrite, below
	par_watched "$TEST_TMP/overwrite" "$BENCH" -q -w0 -d1 -p1 rb-libbpf --rb-bench-producer --rb-overwrite
fi
# set-up alone, below
par_watched "$TEST_TMP/setup" env BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d30 -c1 pb-custom
par_wait_all

# run_case <name>: par_case's run, checked
run_case() {
	local name=$1 out="$TEST_TMP/${1// /_}" rc

	rc=${PAR_STATUS[$out]-}
	is "$rc" 0 "$name: exit status 0"
	[ "$rc" = 0 ] || diag "$(cat "$out.err")"
	stderr_clean "$out.err" && grep -q '^hook: ' "$out.err" &&
		jq -e --arg h "$(sed -nE 's/^hook: ([^ ]+).*/\1/p' "$out.err")" \
			'(.options.benchmark.hook == "fentry") == ($h | startswith("fentry/"))' "$out.json" >/dev/null
	ok $? "$name: one hook line, the hook in the JSON options"
	if [ "${BENCH_TEST_FENTRY:-}" = 1 ]; then
		like "$out.err" '^hook: fentry/[a-z0-9_]*sys_getpgid$' "$name: upstream's fentry hook, as BENCH_TEST_FENTRY=1 says it must"
	fi
	like "$out" "$ITER_RE" "$name: upstream's Iter line"
	like "$out" "$SUMMARY_RE" "$name: upstream's Summary line"
	like "$out" '^Memory: ' "$name: where the memory went (Memory: line)"
	jq -e '.summary.metrics.hits.mean > 0 and (.summary.metrics.drops.mean >= 0) and
		.summary.metrics.memory.mean > 0 and .options.runner.consumers == 1' "$out.json" >/dev/null
	ok $? "$name: the consumer read records; hits, drops and memory are JSON metrics"
	schema_ok "$out.json" "$name: the JSON passes the schema check"
	check_clean "$name"
}

# where the consumer runs: upstream's placement, consumers first, then
# producers after the last consumer's CPU, also after an explicit set
placed() {	# placed <name>: consumer on CPU 0, producer on CPU 1
	is "$(jq -c '[.context.consumer_cpus, .context.producer_cpus]' "$TEST_TMP/${1// /_}.json" 2>&1)" \
		"[[0],[1]]" "$1: the consumer on CPU 0, the producer after it on CPU 1"
}

run_case rb-libbpf
run_case pb-custom
if host_only "rb-custom, pb-libbpf, the modes and the consumer's CPU"; then
	run_case "rb-custom -a"
	run_case "pb-libbpf --cons-affinity 0"
	if [ "$NCPU" -ge 2 ]; then
		placed "rb-custom -a"
		placed "pb-libbpf --cons-affinity 0"
	else
		skip "one CPU" "-a and --cons-affinity: the producer after the consumer"
	fi
	# back-to-back: the consumer triggers every batch after the first
	run_case "rb-custom --rb-b2b"
	run_case "pb-custom --rb-b2b --rb-sampled"
fi
jq -e '.options.benchmark == {"rb_b2b": false, "rb_batch_cnt": 500, "rb_sampled": false,
	"rb_sample_rate": 500, "rb_use_output": false, "rb_overwrite": false,
	"rb_bench_producer": false, "ringbuf_sz": 524288, "hook": .options.benchmark.hook}' \
	"$TEST_TMP/rb-libbpf.json" >/dev/null
ok $? "rb-libbpf: upstream's defaults in the JSON options"
# the configuration (result_config.c's table): upstream's defaults left out
if host_only "bench config of the runs"; then
	h=$(jq -r .options.benchmark.hook "$TEST_TMP/rb-libbpf.json")
	is "$("$BENCH" config "$TEST_TMP/rb-libbpf.json" 2>&1)" "consumers=1 hook=$h" \
		"bench config: rb-libbpf's defaults are not in its label"
	is "$("$BENCH" config "$TEST_TMP/pb-custom_--rb-b2b_--rb-sampled.json" 2>&1)" \
		"consumers=1 hook=$h rb_b2b rb_batch_cnt=50 rb_sample_rate=50 rb_sampled" \
		"bench config: the options set, and only those, in pb-custom's label"
fi

# a consumer that is never woken (the threshold is beyond the ring's
# size): every record is a drop, the run measured nothing and says so,
# and it ends although its consumer waits in epoll
if host_only "a consumer never woken"; then
	out=$TEST_TMP/asleep
	rc=${PAR_STATUS[$out]-}
	is "$rc" 1 "a consumer never woken: exit status 1"
	# drops above 0.000M/s, whatever their rate: it is the CPU the producer
	# got, and at nice 15 beside other runs (lib.sh) it once read 0.740M/s
	grep -Eq "^Iter +0 .*: hits +0\.000M/s .*drops +([1-9][0-9]*\.[0-9]{3}|0\.([1-9][0-9]{2}|0[1-9][0-9]|00[1-9]))M/s" "$out" &&
		grep -q '^rb-libbpf measured nothing: no record was received in 1 measured sample ' "$out.err" &&
		! grep -q 'failed to stop consumer' "$out.err" && [ ! -e "$out.json" ]
	ok $? "a consumer never woken: drops only, 'measured nothing', no JSON, the consumer stopped"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out" "$out.err")"
	check_clean "a consumer never woken"
fi

# a consumer that cannot be stopped voids the run: it is said, and no
# Summary that looks valid comes before the failure (once the Summary was
# printed, then "failed to stop consumer thread #0", exit 1)
if host_only "a consumer not stopped in time"; then
	out=$TEST_TMP/stuck
	is "${PAR_STATUS[$out]-}" 1 "a consumer not stopped in time: exit status 1"
	like "$out.err" '^failed to stop consumer thread #0 within 0 ms: .*: the run is void, nothing is reported$' \
		"a consumer not stopped in time: said once, with what it means"
	is "$(grep -c 'failed to stop consumer' "$out.err")" 1 "... once"
	grep -q '^Summary' "$out"
	is $? 1 "a consumer not stopped in time: no Summary"
	assert "a consumer not stopped in time: no result file" [ ! -e "$out.json" ]
	check_clean "a consumer not stopped in time"
fi

# a signal mid-run, with the consumer busy and with it blocked in epoll:
# 128 + the signal, no Summary, the consumer joined, nothing left.  The
# runs start with the signals' default action (lib.sh's SIG_DEFAULT), all
# three at once, so that their first samples come together rather than
# one after another; each is checked and signalled on its own, and what
# is left on the machine is looked at once all of them are reaped.
declare -A SIGNAME=([INT]=Interrupt [QUIT]=Quit [TERM]=Terminated) SIG_PID=() SIG_WD=()
SIG_RUNS=()
for run in INT:busy TERM:asleep QUIT:asleep; do
	sig=${run%:*} mode=${run#*:}
	[ "$sig" = TERM ] || host_only "SIG$sig mid-run" || continue
	[ "$mode" = asleep ] && extra=(--rb-sampled --rb-sample-rate 1000000) || extra=()
	out=$TEST_TMP/sig-$sig-$mode
	"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 -c1 --json "$out.json" \
		rb-custom "${extra[@]}" >"$out" 2>"$out.err" &
	SIG_PID[$run]=$!
	watchdog "$!"
	SIG_WD[$run]=$WATCHDOG
	SIG_RUNS+=("$run")
done
for run in "${SIG_RUNS[@]}"; do
	sig=${run%:*} mode=${run#*:} pid=${SIG_PID[$run]}
	out=$TEST_TMP/sig-$sig-$mode
	wait_iter "$out" "$pid" 30
	ok $? "SIG$sig, consumer $mode: the run got going"
	kill -s "$sig" "$pid"
	WATCHDOG=${SIG_WD[$run]}	# reap's: this run's watchdog
	reap "$pid"
	rc=$?
	is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig, consumer $mode: exit status 128 + SIG$sig"
	grep -qx "interrupted by ${SIGNAME[$sig]}: cleaning up" "$out.err" &&
		! grep -q 'failed to stop consumer' "$out.err" && ! grep -q '^Summary' "$out" &&
		[ ! -e "$out.json" ]
	ok $? "SIG$sig, consumer $mode: says so, the consumer stopped, no Summary, no JSON"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
done
for run in "${SIG_RUNS[@]}"; do
	check_clean "SIG${run%:*}, consumer ${run#*:}"
done

# --rb-bench-producer: the producer alone, in overwrite mode where the
# kernel has it (6.19), else refused in one line saying so
if host_only "--rb-bench-producer --rb-overwrite"; then
	out=$TEST_TMP/overwrite
	rc=${PAR_STATUS[$out]-}
	if [ "$rc" = 0 ]; then
		like "$out" "$SUMMARY_RE" "--rb-bench-producer --rb-overwrite: upstream's Summary line"
	else
		is "$rc:$(wc -l <"$out.err")" "1:1" "--rb-bench-producer --rb-overwrite on $(uname -r): refused (exit 1) in one line"
		like "$out.err" '^rb-libbpf: --rb-overwrite: this kernel has no overwrite mode for ring buffers' \
			"--rb-bench-producer --rb-overwrite: the line names the missing mode"
	fi
	check_clean "--rb-bench-producer --rb-overwrite"
fi

# set-up alone: everything attached, then all of it undone
out=$TEST_TMP/setup
is "${PAR_STATUS[$out]-}" 0 "exit after set-up: exit status 0"
is "$(strip_hook_line "$out.err")" "exiting after set-up (BENCH_TEST_EXIT_AFTER_SETUP=1): nothing measured" \
	"exit after set-up: says so"
check_clean "exit after set-up"

# upstream's checks of option combinations (exit 1) and bad values (64)
if host_only "bad values and combinations refused"; then
	refused '^rb-libbpf: benchmarks without --rb-bench-producer require exactly one consumer \(-c1\)$' \
		-w0 -d1 rb-libbpf
	refused '^rb-custom: benchmarks without --rb-bench-producer require exactly one consumer' \
		-w0 -d1 -c2 rb-custom
	refused '^rb-libbpf: back-to-back mode makes sense only for single-producer case \(-p1\)$' \
		-w0 -d1 -c1 -p2 rb-libbpf --rb-b2b
	refused '^pb-libbpf: sample rate 500 is too high for given batch count 50 ' \
		-w0 -d1 -c1 pb-libbpf --rb-batch-cnt 50
	refused '^rb-custom: --rb-bench-producer only works with rb-libbpf$' \
		-w0 -d1 rb-custom --rb-bench-producer
	refused '^rb-libbpf: overwrite mode only works with --rb-bench-producer for now$' \
		-w0 -d1 -c1 rb-libbpf --rb-overwrite
	refused '^rb-libbpf: no consumer is needed for --rb-bench-producer \(use -c0\)$' \
		-w0 -d1 -c1 rb-libbpf --rb-bench-producer
	refused "^invalid --rb-batch-cnt '0': expected an integer in 1\\.\\.4000\$" \
		-w0 -d1 -c1 rb-libbpf --rb-batch-cnt 0
	refused "^invalid --rb-batch-cnt '4001': expected an integer in 1\\.\\.4000\$" \
		-w0 -d1 -c1 rb-libbpf --rb-batch-cnt 4001
	refused "^invalid --rb-sample-rate 'x': expected an integer in 1\\.\\.1000000\$" \
		-w0 -d1 -c1 pb-custom --rb-sample-rate x
	refused "^invalid --hook 'kprobe': expected auto, fentry or tracepoint\$" \
		-w0 -d1 -c1 rb-custom --hook kprobe
	is_exit 64 "a bad value: exit 64, as upstream's argp_usage()" \
		"$BENCH" -w0 -d1 -c1 rb-libbpf --rb-batch-cnt 0
	check_clean "refusals"
fi

done_testing
