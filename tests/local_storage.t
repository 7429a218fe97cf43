#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# local-storage-cache-seq-get, -int-get and -hashmap-control on the real
# kernel: the hook that ran (upstream's fentry where the kernel allows
# it, else the tracepoint), upstream's Iter and Summary formats, what the
# program's walk over the maps must count, the hash maps' memory,
# refusals, a signal mid-run, and that nothing is left behind.  The
# wrapper's table on the host.  -w0 -d1 runs: behaviour, not speed.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROGS='get_(local|hash)_[a-z]*'
CG_PARENT=$(own_mem_cgroup)
inner_maps() { bpftool map show 2>/dev/null | grep -Ec 'name (ls_task_storage|ls_hashmap) ' || true; }
left_behind() {
	local left=""

	[ "$(loaded_bench_progs "$PROGS")" -eq 0 ] || left+="program; "
	[ "$(inner_maps)" -eq 0 ] || left+="inner map; "
	if [ -n "$CG_PARENT" ] && compgen -G "$CG_PARENT/bench-local-storage-cache*" >/dev/null; then
		left+="memory cgroup; "
	fi
	printf '%s' "$left"
}
nothing_left() { [ -z "$(left_behind)" ]; }
check_clean() {	# check_clean <what>
	eventually nothing_left
	ok $? "$1: nothing left behind (no program, inner map or cgroup)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "left: $(left_behind)"
}

# upstream's printf formats
ITER_RE='^Iter +[0-9]+ \( *-?[0-9]+\.[0-9]{3}us\): hits +[0-9]+\.[0-9]{3}M/s important_hits +[0-9]+\.[0-9]{3}M/s$'
SUMMARY_RE='^Summary: hits throughput +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3} M ops/s, hits latency +[0-9]+\.[0-9]{3} ns/op, important_hits throughput +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3} M ops/s$'

# the hook auto must pick: fentry where it loads (make vmtest's guests
# must have it: BENCH_TEST_FENTRY=1), else the tracepoint
HOOK=tp/syscalls/sys_enter_getpgid
if BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d1 --nr_maps 1 --hook fentry \
	local-storage-cache-seq-get >/dev/null 2>&1; then
	HOOK=fentry/
fi
if [ "${BENCH_TEST_FENTRY:-}" = 1 ]; then
	is "$HOOK" fentry/ "--hook fentry loads on this kernel, as BENCH_TEST_FENTRY=1 says it must"
fi
diag "hook here: $HOOK"

# a trigger's gets and important gets over 17 maps: seq-get's 10000
# gets hit map 0 at indexes 0, 17, ... (589 of 10000); int-get adds a
# get of map 0 after every map whose index is a multiple of 3 (0, 3, ...,
# 15: 3530 more), so 4119 of 13530; hashmap-control over 1 map: all 10000
TRIGGER_SEQ="10000 589"
TRIGGER_INT="13530 4119"
TRIGGER_ONE="10000 10000"

# whole_triggers <json> <gets> <important gets>: the program adds a
# trigger's gets to hits and to important_hits in two stores, and the
# sampler reads the two counters one after the other, so a trigger that
# ends between its reads is split across two samples (seen once in a TCG
# guest).  Each sample still holds whole triggers' worth of each counter,
# and over the run the two counts of triggers differ by at most the two
# split at its ends: a split inside the run is made up by the next sample.
whole_triggers() {
	jq -e --argjson h "$2" --argjson i "$3" '
		[.samples[] | select(.warmup | not) |
		 [.counters.hits, (.metrics.important_hits * .interval_ns / 1000 | round)]] |
		length > 0 and all(.[0] % $h == 0 and .[1] % $i == 0) and
		((map(.[0]) | add) / $h - (map(.[1]) | add) / $i | fabs) <= 2' "$1" >/dev/null
}

# The wrapper (its checks are below, on the host) runs, with NUM_KEYS=10
# NUM_MAPS=17 and RUN_BENCH "$BENCH -w0 -d1", the configurations of the
# runs here: hashmap-control with --nr_maps 1 --hashmap_nr_keys_used=10,
# seq-get and int-get with --nr_maps 17.  run_case takes the wrapper's run
# of its configuration (lib.sh's shared_runs: three -w0 -d1 runs fewer).
SHARED=$TEST_TMP/shared
WRAPPER=$(dirname "$0")/../benchs/run_bench_local_storage.sh
if [ "${BENCH_TEST_IN_VM:-0}" != 1 ]; then
	NUM_KEYS=10 NUM_MAPS=17 RUN_BENCH=$(shared_runs "$SHARED" -w0 -d1) "$WRAPPER" \
		>"$TEST_TMP/wrapper" 2>"$TEST_TMP/wrapper.err"
	echo $? >"$TEST_TMP/wrapper.rc"
fi

run_case() {	# run_case <name> "<gets> <important gets>" <bench args...>: one -w0 -d1 run, checked
	local name=$1 trigger=$2 out="$TEST_TMP/${1// /_}" rc=0 line
	shift 2

	# the wrapper's run of these arguments, when it ran above
	if shared_take "$SHARED/$(IFS=_; echo "$*")" "$out"; then
		rc=$SHARED_RC
	else
		"$BENCH" -w0 -d1 --json "$out.json" "$@" >"$out" 2>"$out.err" & RUN_PID=$!
		watchdog "$RUN_PID"
		reap "$RUN_PID" || rc=$?
	fi
	is "$rc" 0 "$name: exit status 0"
	[ "$rc" -eq 0 ] || diag "$(cat "$out.err")"
	line=$(grep '^hook: ' "$out.err")
	[[ $line == "hook: $HOOK"* ]] && stderr_clean "$out.err" &&
		jq -e --arg h "${HOOK%%/*}" '.options.benchmark.hook == ($h | sub("^tp$"; "tracepoint"))' \
			"$out.json" >/dev/null
	ok $? "$name: one hook line, $HOOK, as in the JSON options"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
	like "$out" "$ITER_RE" "$name: upstream's Iter line"
	like "$out" "$SUMMARY_RE" "$name: upstream's Summary line"
	# shellcheck disable=SC2086 # the trigger's two counts
	whole_triggers "$out.json" $trigger
	ok $? "$name: hits and important_hits count whole triggers of the walk's $trigger gets"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(jq -c '[.samples[] | [.counters.hits, .metrics.important_hits, .interval_ns]]' "$out.json")"
	schema_ok "$out.json" "$name: the JSON passes the schema check"
	check_clean "$name"
}

# results_bpf.t runs seq-get in make vmtest's guests; int-get is the same program
if host_only "seq-get's run (results_bpf.t runs it in the guests)"; then
	run_case "seq-get --nr_maps 17" "$TRIGGER_SEQ" --nr_maps 17 local-storage-cache-seq-get
fi
run_case "int-get --nr_maps 17" "$TRIGGER_INT" --nr_maps 17 local-storage-cache-int-get
jq -e '.options.benchmark == {"nr_maps": 17, "hook": .options.benchmark.hook}' \
	"$TEST_TMP/int-get_--nr_maps_17.json" >/dev/null
ok $? "int-get: its options in the JSON, defaults included"

# hits latency is one figure: the Summary's, upstream's 1000 / the mean
# of hits, is the JSON's (which was the mean of each second's 1000 / hits,
# 2% above it on a noisy run); three seconds, so that they could differ
if host_only "hits latency: the Summary's figure in the JSON"; then
	out=$TEST_TMP/latency
	"$BENCH" -w0 -d3 --nr_maps 1 --json "$out.json" local-storage-cache-seq-get >"$out" 2>"$out.err" &
	RUN_PID=$!
	watchdog "$RUN_PID"
	reap "$RUN_PID"
	is $? 0 "a three-second run: exit 0"
	jq -e '.summary.metrics as $m | ($m.hits_latency.mean / (1000 / $m.hits.mean) - 1 | fabs) < 1e-9' \
		"$out.json" >/dev/null
	ok $? "the JSON's hits_latency is 1000 / the mean of hits"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(jq -c '.summary.metrics | [.hits.mean, .hits_latency.mean]' "$out.json")"
	is "$(sed -n 's/.*hits latency *\([0-9.]*\) ns\/op.*/\1/p' "$out")" \
		"$(jq -r '.summary.metrics.hits_latency.mean' "$out.json" | awk '{ printf "%.3f", $1 }')" \
		"the Summary prints the JSON's figure"
	check_clean "the three-second run"
fi

# its figures as lkp-tests and KCIDB read them (userspace alone)
if host_only "int-get's figures through lkp-tests' parse and export kcidb"; then
	j=$TEST_TMP/int-get_--nr_maps_17.json
	"$LKP_PARSE" "$j" >"$j.parsed" 2>&1
	ok $? "lkp-tests' parse exits 0"
	lkp_contract "$j.parsed" local-storage-cache-int-get
	# lkp's keys carry no benchmark or configuration: the job's parameters do
	is "$(sed -nE 's/^(hits|important_hits|hits_latency|peak_memory): [0-9.e+-]+$/\1/p' "$j.parsed" | sort | tr '\n' ' ')" \
		"hits hits_latency important_hits peak_memory " "lkp-tests' parse: hits, important_hits, hits_latency and peak memory"
	"$BENCH" export kcidb --origin lkp_test "$j" >"$j.kcidb" 2>"$j.kcidb.err"
	is $? 0 "export kcidb: exit status 0"
	jq -e --argjson m "$(jq '.summary.metrics.hits.mean' "$j")" '[.tests[] | select(.path | endswith(".hits"))][0] |
		.status == "DONE" and .number.unit == "op/s" and ((.number.value / ($m * 1e6)) - 1 | fabs) < 1e-9' \
		"$j.kcidb" >/dev/null
	ok $? "export kcidb: hits as a DONE test in op/s"
fi

# the control fills a preallocated 4M-entry hash map: minutes under TCG
if [ "${BENCH_TEST_IN_VM:-0}" = 1 ]; then
	skip "a 4M-entry hash map filled under TCG takes minutes: make test runs it" \
		"hashmap-control: one map of 4194304 entries"
else
	run_case "hashmap-control --nr_maps 1" "$TRIGGER_ONE" --nr_maps 1 --hashmap_nr_keys_used=10 \
		local-storage-cache-hashmap-control
	# 4194304 preallocated elements of at least 64 bytes: 256 MiB at least
	cmp_num "$(jq '.summary.peak_memory_mib' "$TEST_TMP/hashmap-control_--nr_maps_1.json")" '>=' 256 \
		"hashmap-control: the run's cgroup holds the 4M-entry map (peak memory >= 256 MiB)"
	like "$TEST_TMP/hashmap-control_--nr_maps_1" '^Memory: [0-9.]+ MiB = stat [0-9.]+ \(.*(kmem|kernel) [0-9.]+' \
		"hashmap-control: the Memory: breakdown after the Summary"
fi

# a signal mid-run: the program, its maps and the cgroup all go (the
# runner's teardown, the same on every kernel)
if host_only "SIGTERM mid-run"; then
	out=$TEST_TMP/sig
	"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 --json "$out.json" local-storage-cache-int-get --nr_maps 20 >"$out" 2>"$out.err" &
	pid=$!
	watchdog "$pid"
	wait_iter "$out" "$pid" 30
	ok $? "SIGTERM: the run got going"
	[ "$(loaded_bench_progs "$PROGS")" -eq 1 ] && [ "$(inner_maps)" -eq 20 ]
	ok $? "SIGTERM: mid-run, its program and its 20 task storage maps are loaded"
	kill -TERM "$pid"
	reap "$pid"
	is $? 143 "SIGTERM: exit status 143"
	assert "SIGTERM: no Summary, no JSON file" eval "! grep -q '^Summary' '$out' && [ ! -e '$out.json' ]"
	check_clean "SIGTERM"
fi

if host_only "bad values refused in one line; the wrapper's table"; then
	refused 'invalid producer count 2: local-storage-cache-seq-get runs one producer \(-p1\)' \
		-p2 local-storage-cache-seq-get
	refused "^invalid --nr_maps '1001': expected an integer in 1..1000$" --nr_maps 1001 local-storage-cache-int-get
	refused "^invalid --nr_maps '0': expected an integer in 1..1000$" --nr_maps 0 local-storage-cache-seq-get
	refused "^invalid --hashmap_nr_keys_used '4194305': expected an integer in 1..4194304$" \
		--hashmap_nr_keys_used 4194305 local-storage-cache-hashmap-control
	refused "^invalid --hook 'kprobe': expected auto, fentry or tracepoint$" --hook kprobe \
		local-storage-cache-seq-get
	is_exit 64 "--nr_maps x: exit 64, as upstream's argp_usage()" "$BENCH" --nr_maps x local-storage-cache-seq-get
	is_exit 64 "--nr_maps 1001: out of range, exit 64 (README's table; upstream's validate() exits 1)" "$BENCH" --nr_maps 1001 local-storage-cache-seq-get
	# 1000 maps of 4M entries (upstream's default) do not fit here: refused before anything is made
	if [ "$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)" -lt 320000 ]; then
		refused '^invalid --nr_maps 1000 for local-storage-cache-hashmap-control: 1000 hash maps of 4194304 entries need about 320000 MiB, more than the [0-9]+ MiB available' \
			local-storage-cache-hashmap-control
	fi
	check_clean "refusals"

	# the wrapper: upstream's headers, subtitles and rows (its run is
	# above, before the run_case runs that take its runs; hashmap-control's
	# row is also read from its run_case's output by the same parser)
	out=$TEST_TMP/wrapper
	is "$(cat "$out.rc")" 0 "run_bench_local_storage.sh: exit status 0"
	ROW_RE='hits throughput: [0-9.]+ ± [0-9.]+ M ops/s, hits latency: [0-9.]+ ns/op, important_hits throughput: [0-9.]+ ± [0-9.]+ M ops/s$'
	is "$(grep -Ec "^local_storage cache (sequential |interleaved) get:  $ROW_RE" "$out")" 2 \
		"run_bench_local_storage.sh: upstream's two rows"
	is "$(grep -cE '^(Hashmap Control|Local Storage)$|^	num_maps: 17$' "$out")" 3 \
		"run_bench_local_storage.sh: upstream's headers and subtitle"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out" "$out.err")"
	if [ -e "$TEST_TMP/hashmap-control_--nr_maps_1" ]; then
		is "$(run_common summarize_local_storage "hashmap (control) sequential    get: " \
			"$(cat "$TEST_TMP/hashmap-control_--nr_maps_1")" | grep -Ec "^hashmap \(control\) sequential    get:  $ROW_RE")" 1 \
			"summarize_local_storage: hashmap-control's row"
	fi
	# a run that fails is a FAILED row and a failing script, never a row of numbers
	NUM_KEYS=10 NUM_MAPS=17 RUN_BENCH="$BENCH -w0 -d1 -p2" "$WRAPPER" \
		>"$out.fail" 2>/dev/null
	is $? 1 "run_bench_local_storage.sh: a failing run fails the script"
	is "$(grep -c 'FAILED (exit 1)$' "$out.fail")" 3 "run_bench_local_storage.sh: each failed run is a FAILED row"
	check_clean "the wrapper"
fi

done_testing
