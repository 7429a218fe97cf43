#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lpm-trie-* on the real kernel: upstream's Summary lines, counts that
# add up (every lookup, update and delete finds its key, every insert
# into the empty trie succeeds, no failure at all), producers told apart
# in a pid namespace, a fresh trie per --repeat, --latency, JSON, compare
# and plot, refusals of bad values, and nothing left behind after a run,
# a refusal or a signal.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

NR=1000
PROGS='lpm_run_batch|lpm_free_start|lpm_free_end'
OPS='noop baseline lookup update insert delete free'
NUM='([0-9]+\.[0-9]{3})'
# upstream's ops_report_final and frac_second_report_final
WALL="^Summary: throughput +$NUM ± $NUM M ops/s \\( *${NUM}M ops/prod\\), latency +$NUM ns/op\$"
PASS="^Summary: throughput +$NUM ± $NUM ([MK]) ops/s \\( *${NUM}[MK] ops/prod\\), latency +$NUM (ns|ms)/op\$"

# the lines lpm-trie-* may print on stderr besides noise warnings
FREE_LINE='^lpm-trie-free: the freeing work is timed on the workqueue_execute_start/end raw tracepoints \(upstream: fentry/fexit on bpf_map_free_deferred, which needs BPF trampolines\)$'
BATCH_LINE='^lpm-trie-[a-z]+: this kernel has no batch updates for LPM tries \(.+\): tries are filled one key per syscall, outside the timed work$'
lpm_stderr_clean() {
	! grep -Ev -e '^warning: ' -e "$FREE_LINE" -e "$BATCH_LINE" "$1" | grep -q .
}

# "OPS FAILS" summed over every sample of a --json file, warm-up included
json_counts() {
	jq -r '[.samples[].counters] | "\(map(.hits) | add) \(map(.fails) | add)"' "$1"
}

# what every operation of a run must have done
declare -A EVERY=(
	[noop]="nothing failed" [baseline]="nothing failed"
	[lookup]="every lookup found its key" [update]="every update found its key"
	[insert]="every insert into the empty trie succeeded"
	[delete]="every delete found its key" [free]="nothing failed"
)

none_loaded() { [ "$(loaded_bench_progs "$PROGS")" -eq 0 ]; }

CG_PARENT=$(own_mem_cgroup)
# check_clean <pid> <what>: no program of ours loaded, no cgroup of the run left
check_clean() {
	eventually none_loaded
	ok $? "$2: nothing left loaded"
	if [ -n "$CG_PARENT" ]; then
		! compgen -G "$CG_PARENT/bench-lpm-trie-*.$1*" >/dev/null
		ok $? "$2: the run's cgroup is gone"
	fi
}

# ---- the runs the sections below check, started side by side ----
# Each is a -d1 (or --repeat 2) run of its own configuration, its own
# trie, cgroup and files, and nothing reads one run's output before
# another starts: they need not wait for one another (lib.sh's par_start,
# at most PAR_WIDTH at once).  They are queued in the order they are checked and
# started PAR_WIDTH ahead of their checks (par_take), so that the checks of
# one run go on while the next ones measure, rather than all of them measured
# before the first check (in make vmtest's guests, one at a time, all of
# them before the first check, as ever).  Every section's checks follow
# its run's par_take, in the order they had; those that look at the whole
# machine (nothing loaded, no cgroup left) come after the last run is
# reaped, and the signalled runs at the end start alone in the foreground.
for op in $OPS; do
	out=$TEST_TMP/$op
	par_queue par_start "$out" "$BENCH" -w0 -d1 --json "$out.json" "lpm-trie-$op" --nr_entries $NR
done
out=$TEST_TMP/inline
par_queue par_start "$out" "$BENCH" -w0 -d1 --json "$out.json" lpm-trie-lookup --nr_entries $NR --inline-loop
out=$TEST_TMP/own
par_queue par_start "$out" "$BENCH" -w0 -d1 -p2 -a --json "$out.json" lpm-trie-update --nr_entries $NR --own-cursor
for run in "lookup" "update --random"; do
	read -r op rnd <<<"$run"
	out=$TEST_TMP/$op-p2
	par_queue par_start "$out" "$BENCH" -w0 -d1 -p2 -a --json "$out.json" "lpm-trie-$op" --nr_entries $NR ${rnd:+"$rnd"}
done
PIDNS=0
if unshare -p -f --mount-proc true 2>/dev/null; then
	PIDNS=1
	out=$TEST_TMP/pidns
	par_queue par_start "$out" unshare -p -f --mount-proc "$BENCH" -w0 -d1 -p2 --json "$out.json" lpm-trie-update \
		--nr_entries $NR
fi
for op in insert delete; do
	out=$TEST_TMP/rep-$op
	par_queue par_start "$out" "$BENCH" -w0 -d1 --repeat 2 --json "$out.json" "lpm-trie-$op" --nr_entries $NR
done
for run in "lookup 10000" "free 1"; do
	read -r op each <<<"$run"
	out=$TEST_TMP/lat-$op
	par_queue par_start "$out" "$BENCH" -w0 -d1 --latency "lpm-trie-$op" --nr_entries $NR
done
par_feed

# ---- every operation, one producer: the format, the counts ----
# pre_start <op>: reap <op>'s run (par_take; its exit status in OP_RC[<op>]), then
# start the two CPU-bound readers of its result in the background, the
# schema's jq and (on the host, where host_only checks it) lkp-tests' parse
# (ruby): they run while the checks of the operation before go on, and
# each check below reads what they wrote once they are waited for
declare -A OP_RC=() SCHEMA_PID=() PARSE_PID=()
pre_start() {
	local out=$TEST_TMP/$1

	par_take "$out"
	OP_RC[$1]=$?
	jq -r -f "$SCHEMA_JQ" "$out.json" >"$out.schema" 2>&1 &
	SCHEMA_PID[$1]=$!
	if [ "${BENCH_TEST_IN_VM:-0}" != 1 ]; then
		"$LKP_PARSE" "$out.json" >"$out.parsed" 2>"$out.parse.err" &
		PARSE_PID[$1]=$!
	fi
}
read -r -a op_list <<<"$OPS"
pre_start "${op_list[0]}"
for i in "${!op_list[@]}"; do
	op=${op_list[$i]}
	[ $((i + 1)) -lt ${#op_list[@]} ] && pre_start "${op_list[$((i + 1))]}"
	b=lpm-trie-$op
	out=$TEST_TMP/$op
	rc=${OP_RC[$op]}
	[ "$rc" -eq 0 ] && lpm_stderr_clean "$out.err"
	ok $? "$b: exit status 0, nothing unexpected on stderr"
	[ "$rc" -eq 0 ] || diag "rc $rc: $(head -c 1000 "$out.err")"
	case $op in
	insert | delete | free) re=$PASS ;;
	*) re=$WALL ;;
	esac
	like "$out" "$re" "$b: upstream's Summary line"
	line=$(grep -E "$re" "$out")
	diag "$line"
	rate=$(sed -E "s#$re#\\1#" <<<"$line")
	if [ "$re" = "$WALL" ]; then
		lat=$(sed -E "s#$re#\\4#" <<<"$line")
	else
		lat=$(sed -E "s#$re#\\5#" <<<"$line")
	fi
	awk -v r="$rate" -v l="$lat" 'BEGIN { exit !(r > 0 && l > 0) }'
	ok $? "$b: positive throughput ($rate) and latency ($lat)"
	if [ "$re" = "$WALL" ]; then
		# upstream's latency is 1000 / throughput (ns, per producer), to
		# the rounding of both: the throughput printed as r (3 decimals)
		# was in [r - 0.0005, r + 0.0005], so the latency lies between 1000
		# over each end, give or take its own last digit.  (The first-order
		# bound 0.5 / r^2 falls short at slow rates: make vmtest's TCG guest
		# printed 0.269 M/s and 3724.391 ns, 1000 / 0.2685 = 3724.395.)
		awk -v r="$rate" -v l="$lat" 'BEGIN { lo = 1000 / (r + 0.0005) - 0.001
			hi = r > 0.0005 ? 1000 / (r - 0.0005) + 0.001 : l
			exit !(lo <= l && l <= hi) }'
		ok $? "$b: latency is 1000 / throughput ($lat ns, $rate M/s)"
	fi
	read -r ops fails <<<"$(json_counts "$out.json")"
	awk -v o="$ops" -v f="$fails" 'BEGIN { exit !(o > 0 && f == 0) }'
	ok $? "$b: ${EVERY[$op]} ($ops operations, $fails failed)"
	like "$out" '^Iter +0 \(.*\): hits +[0-9]+\.[0-9]{3}[MK]/s \( *[0-9]+\.[0-9]{3}[MK]/prod\)$' \
		"$b: upstream's progress line"
	# schema_ok's check, on the jq pre_start ran
	wait "${SCHEMA_PID[$op]}"
	rc=$?
	errs=$(cat "$out.schema")
	[ "$rc" -eq 0 ] || errs="jq failed (exit $rc): $errs"
	is "$errs" "" "$b: JSON validates against the schema"
	# lkp-tests' parse on every member of the family (results_bpf.t: one of it)
	if host_only "$b: lkp-tests' parse"; then
		wait "${PARSE_PID[$op]}"
		ok $? "$b: lkp-tests' parse exits 0"
		lkp_contract "$out.parsed" "$b"
	fi
done
# a pass over all the keys ends with the trie emptied or refilled, each
# checked key by key: the passes must have happened for that to mean anything
for op in insert delete; do
	read -r ops _ <<<"$(json_counts "$TEST_TMP/$op.json")"
	cmp_ok "$ops" -ge $((2 * NR)) "lpm-trie-$op: two passes or more, so a refill was checked"
done
is "$(grep -cE "$FREE_LINE" "$TEST_TMP/free.err")" 1 "lpm-trie-free: says once on stderr what it times instead of upstream's fentry"
jq -e '.summary.metrics.throughput.unit == "K/s" and .summary.metrics.latency.unit == "ms"' \
	"$TEST_TMP/free.json" >/dev/null
ok $? "lpm-trie-free: JSON throughput in K/s, latency in ms"
# KCIDB gets lpm-trie-free's rate in op/s: K/s times 1000, ms times 1e-3
if host_only "lpm-trie-free: export kcidb's units"; then
	"$BENCH" export kcidb --origin bench_test "$TEST_TMP/free.json" >"$TEST_TMP/free.kcidb"
	ok $? "lpm-trie-free: export kcidb exits 0"
	is "$(jq -c '[.tests[] | select(.path | test("\\.(throughput|latency)$")) | [.number.value, .number.unit]]' "$TEST_TMP/free.kcidb")" \
		"$(jq -c '[[.summary.metrics.throughput.mean * 1000, "op/s"], [.summary.metrics.latency.mean * 0.001, "s"]]' "$TEST_TMP/free.json")" \
		"lpm-trie-free: export kcidb: throughput K/s x 1000 in op/s, latency ms x 0.001 in s"
fi
jq -e '.summary.metrics.bpf_ns_per_op.mean > 0 and .summary.metrics.memory.n > 0' \
	"$TEST_TMP/lookup.json" >/dev/null
ok $? "lpm-trie-lookup: JSON has the in-BPF time per op and the cgroup's memory"

# ---- --inline-loop: the lean harness, an option the result records ----
jq -e '.options.benchmark.inline_loop == false' "$TEST_TMP/lookup.json" >/dev/null
ok $? "lpm-trie-lookup: by default the loop is upstream's (options: inline_loop false)"
out=$TEST_TMP/inline
par_take "$out"
ok $? "lpm-trie-lookup --inline-loop: exit status 0"
jq -e '.options.benchmark.inline_loop == true' "$out.json" >/dev/null
ok $? "lpm-trie-lookup --inline-loop: options: inline_loop true"
is "$(json_counts "$out.json" | cut -d' ' -f2)" 0 "lpm-trie-lookup --inline-loop: ${EVERY[lookup]}"

jq -e '.options.benchmark.own_cursor == false' "$TEST_TMP/lookup.json" >/dev/null
ok $? "lpm-trie-lookup: by default one cursor for all producers, as upstream's (options: own_cursor false)"
out=$TEST_TMP/own
par_take "$out"
ok $? "lpm-trie-update -p2 -a --own-cursor: exit status 0"
jq -e '.options.benchmark.own_cursor == true' "$out.json" >/dev/null
ok $? "lpm-trie-update --own-cursor: options: own_cursor true"
read -r ops fails <<<"$(json_counts "$out.json")"
is "$fails" 0 "lpm-trie-update -p2 -a --own-cursor: ${EVERY[update]}"

# ---- two producers where upstream allows them; each is counted ----
for run in "lookup" "update --random"; do
	read -r op rnd <<<"$run"
	b=lpm-trie-$op
	out=$TEST_TMP/$op-p2
	par_take "$out"
	ok $? "$b -p2 -a${rnd:+ $rnd}: exit status 0"
	line=$(grep -E "$WALL" "$out")
	awk -v r="$(sed -E "s#$WALL#\\1#" <<<"$line")" -v p="$(sed -E "s#$WALL#\\3#" <<<"$line")" \
		'BEGIN { exit !(r > 0 && (r / 2 - p) ^ 2 < 0.0001) }'
	ok $? "$b -p2 -a: per-producer throughput is half ($line)"
	jq -e '[.samples[].counters.prod_hits] | transpose | map(add) | length == 2 and all(. > 0)' \
		"$out.json" >/dev/null
	ok $? "$b -p2 -a: both producers did operations"
	read -r ops fails <<<"$(json_counts "$out.json")"
	is "$fails" 0 "$b -p2 -a${rnd:+ $rnd}: ${EVERY[$op]}"
done

# ---- in a pid namespace: producers are told apart all the same ----
if [ "$PIDNS" = 1 ]; then
	out=$TEST_TMP/pidns
	par_take "$out"
	ok $? "unshare -p: lpm-trie-update -p2: exit status 0"
	jq -e '[.samples[].counters.prod_hits] | transpose | map(add) | all(. > 0)' "$out.json" >/dev/null
	ok $? "unshare -p: both producers did operations"
	is "$(json_counts "$out.json" | cut -d' ' -f2)" 0 "unshare -p: every update found its key"
else
	skip "unshare -p -f --mount-proc does not work here" "unshare -p: lpm-trie-update -p2"
fi

# ---- --repeat: a fresh trie per repeat ----
for op in insert delete; do
	out=$TEST_TMP/rep-$op
	par_take "$out"
	ok $? "lpm-trie-$op --repeat 2: exit status 0"
	is "$(grep -c '^Repeat [12]/2: Summary: throughput' "$out")" 2 "lpm-trie-$op --repeat 2: a Summary per repeat"
	is "$(json_counts "$out.json" | cut -d' ' -f2)" 0 "lpm-trie-$op --repeat 2: ${EVERY[$op]}, in both tries"
done

# ---- --latency: the timed batches ----
for run in "lookup 10000" "free 1"; do
	read -r op each <<<"$run"
	out=$TEST_TMP/lat-$op
	par_take "$out"
	ok $? "lpm-trie-$op --latency: exit status 0"
	[ -s "$out.err" ] && diag "$(head -c 600 "$out.err")"
	like "$out" "^Latency: per-op p50 [0-9.]+ ns, .* \\([0-9]+ triggers, $each ops each\\)\$" \
		"lpm-trie-$op --latency: per-op percentiles of timings of $each operations"
done

# ---- compare and plot read the results (userspace alone: the host checks them) ----
if host_only "compare and plot of lpm-trie-lookup runs"; then
	cp "$TEST_TMP/lookup.json" "$TEST_TMP/lookup2.json"
	"$BENCH" compare --verbose "$TEST_TMP/lookup.json" "$TEST_TMP/lookup2.json" >"$TEST_TMP/cmp" 2>&1
	ok $? "compare of an lpm-trie-lookup run with itself: exit status 0"
	like "$TEST_TMP/cmp" '^throughput \(M/s\) ' "compare: a throughput verdict"
	like "$TEST_TMP/cmp" '^latency \(ns\) ' "compare: a latency verdict"
	"$BENCH" compare "$TEST_TMP/lookup.json" "$TEST_TMP/delete.json" >/dev/null 2>&1
	is $? 2 "compare of lookup against delete: refused without --force"
	if command -v gnuplot >/dev/null; then
		"$BENCH" plot timeline "$TEST_TMP/lookup.json" "$TEST_TMP/lookup2.json" --text \
			>"$TEST_TMP/plot" 2>/dev/null
		ok $? "plot timeline of lpm-trie-lookup runs: exit status 0"
		like "$TEST_TMP/plot" 'lpm-trie-lookup timeline: throughput per second' "plot: the title"
	elif [ "${CI:-}" = true ]; then
		ok 1 "plot: gnuplot is missing under CI (scripts/install-deps.sh installs it)"
	else
		skip "gnuplot not installed" "plot timeline of two lpm-trie-lookup runs"
	fi
fi

# ---- set-up alone, for every operation: the exit-after-setup switch is
# userspace, and the runs above set every operation up on this kernel ----
if host_only "set-up alone, for every operation"; then
	# nothing measured, a trie each: side by side too, all reaped
	# before check_clean below looks at the machine
	for op in $OPS; do
		par_start "$TEST_TMP/eas-$op" env BENCH_TEST_EXIT_AFTER_SETUP=1 \
			"$BENCH" "lpm-trie-$op" --nr_entries $NR
	done
	for op in $OPS; do
		par_wait "$TEST_TMP/eas-$op"
		ok $? "lpm-trie-$op: set-up loads, and exits 0 with BENCH_TEST_EXIT_AFTER_SETUP=1"
	done
fi
check_clean "" "after the runs"

# ---- bad values: one line naming it, non-zero, nothing started ----
# Each refusal is a run of its own, checked on its own output and exit
# status, nothing started: they go side by side (par_start), each in files
# of its own, and are all reaped before check_clean looks at the machine.
REFUSALS=()
refuse() {	# refuse <description> <args...>: started as refusal number N
	local out=$TEST_TMP/bad-${#REFUSALS[@]}

	REFUSALS+=("$1")
	shift
	par_start "$out" "$BENCH" "$@"
}
refused_all() {	# the checks of every refuse, in order
	local i out rc

	for i in "${!REFUSALS[@]}"; do
		out=$TEST_TMP/bad-$i
		rc=0
		par_wait "$out" || rc=$?
		[ "$rc" -ne 0 ] && [ "$(wc -l <"$out.err")" -eq 1 ] && [ ! -s "$out" ]
		ok $? "${REFUSALS[$i]}: refused in one line (rc $rc: $(cat "$out.err"))"
	done
}
# option checks are userspace alone: a guest need not repeat them
if host_only "bad values refused in one line"; then
	refuse "--nr_entries 0" lpm-trie-lookup --nr_entries 0
	refuse "--nr_entries 12x" lpm-trie-lookup --nr_entries 12x
	refuse "--nr_entries above the trie's capacity" lpm-trie-lookup --nr_entries 100000001
	refuse "no --nr_entries" lpm-trie-lookup
	PL33=$TEST_TMP/bad-${#REFUSALS[@]}	# its message is checked below too
	refuse "--prefix_len 33" lpm-trie-lookup --nr_entries $NR --prefix_len 33
	refuse "--prefix_len 0" lpm-trie-lookup --nr_entries $NR --prefix_len 0
	refuse "--prefix_len too small for --nr_entries" lpm-trie-lookup --nr_entries $NR --prefix_len 9
	for op in insert delete free; do
		refuse "lpm-trie-$op -p2" -p2 "lpm-trie-$op" --nr_entries $NR
		refuse "lpm-trie-$op --random" "lpm-trie-$op" --nr_entries $NR --random
	done
	refuse "lpm-trie-free --inline-loop" lpm-trie-free --nr_entries $NR --inline-loop
	refuse "-c 1" -c 1 lpm-trie-lookup --nr_entries $NR
	refuse "bpf-hashmap-lookup's --key_size" lpm-trie-lookup --nr_entries $NR --key_size 8
	refused_all
	# the --prefix_len 33 refusal's message: the run above, shared
	like "$PL33.err" "^invalid --prefix_len '33': expected an integer in 1\\.\\.32" \
		"--prefix_len 33: the message names the value and what is accepted"
	# --nr_entries is also bpf-hashmap-lookup's: each benchmark gets its own
	BENCH_TEST_EXIT_AFTER_SETUP=1 run_bench "$TEST_TMP/hl" bpf-hashmap-lookup --nr_entries 100
	ok $? "bpf-hashmap-lookup --nr_entries still goes to bpf-hashmap-lookup"
fi
check_clean "" "after the refusals"

# ---- signals end a run cleanly ----
for run in "INT update -p2" "TERM free"; do
	read -r sig op prods <<<"$run"
	out=$TEST_TMP/sig$sig
	"${SIG_DEFAULT[@]}" "$BENCH" -w1 -d30 ${prods:+"$prods"} "lpm-trie-$op" --nr_entries $NR >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid" 60
	ok $? "SIG$sig lpm-trie-$op: the run got going"
	[ "$(loaded_bench_progs "$PROGS")" -ge 1 ]
	ok $? "SIG$sig lpm-trie-$op: mid-run, its program is loaded (so the clean-up check means something)"
	kill -s "$sig" "$pid"
	reap "$pid"
	rc=$?
	is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig lpm-trie-$op: exit status 128 + signal"
	check_clean "$pid" "SIG$sig lpm-trie-$op"
done

done_testing
