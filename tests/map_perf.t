#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# map_perf_test's update tests on the real kernel: each runs, prints the
# sample's per-producer lines, and accounts for every operation (with the
# producers stopped, updates = failed + found-and-deleted, and nothing
# fails in a map with room for every producer); a map too small for the
# producers counts its failed updates; --repeat, --latency, a pid
# namespace, SIGINT, bad values, and nothing left loaded.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROGS='mp_[a-z_]*'
CG_PARENT=$(own_mem_cgroup)
nothing_loaded() { [ "$(loaded_bench_progs "$PROGS")" -eq 0 ]; }
no_cgroup() { [ -z "$CG_PARENT" ] || [ -z "$(find "$CG_PARENT" -maxdepth 1 -name "bench-*.$1*")" ]; }

# bench, its map_perf_test line label, operations per trigger, what a completed one is
TESTS=(
	"hash-prealloc-update|hash_map_perf pre-alloc|10|found and deleted"
	"percpu-hash-prealloc-update|percpu_hash_map_perf pre-alloc|10|found and deleted"
	"hash-kmalloc-update|hash_map_perf kmalloc|10|found and deleted"
	"percpu-hash-kmalloc-update|percpu_hash_map_perf kmalloc|10|found and deleted"
	"lru-hash-common-update|lru_hash_map_perf pre-alloc|1|done"
	"lru-hash-percpu-update|nocommon_lru_hash_map_perf pre-alloc|1|done"
	"lpm-kmalloc-lookup|lpm_perf kmalloc|32|hit"
	"inner-lru-hash-update|inner_lru_hash_map_perf pre-alloc|1|done"
)
COUNTS='^Counts: ([0-9]+) triggers, ([0-9]+) [a-z]+: ([0-9]+) failed, ([0-9]+) '

# counts_add_up <out> <ops per trigger> <completed label>: ops = triggers x
# ops per trigger = failed + completed, and some triggers were counted;
# prints "failed" on success
counts_add_up() {
	local line

	line=$(grep -E "$COUNTS$3\$" "$1") || return 1
	sed -E "s/$COUNTS.*/\\1 \\2 \\3 \\4/" <<<"$line" |
		awk -v k="$2" '{ if ($1 > 0 && $2 == $1 * k && $3 + $4 == $2) { print $3; exit 0 } exit 1 }'
}

# per_producer <out> <label> <producers>: one map_perf_test line per producer, rate > 0
per_producer() {
	local n

	n=$(grep -Ec "^[0-9]+:$2 [1-9][0-9]* events per sec\$" "$1")
	[ "$n" -eq "$3" ] && [ "$(grep -Ec "^[0-9]+:" "$1")" -eq "$3" ]
}

# run_bench_map_perf.sh 5 1 (checked below, on the host) runs tests 1 and
# 4, hash-prealloc-update and hash-kmalloc-update, with one producer: with
# RUN_BENCH "$BENCH -w0 -d1" those are the loop's runs of them, which take
# them from it (lib.sh's shared_runs: two -w0 -d1 runs fewer).  The
# script's checks are of its arguments and lines, which do not depend on
# the -a its other run keeps.
SCRIPT=$SRC_TOP/benchs/run_bench_map_perf.sh
SHARED=$TEST_TMP/shared
HOST=1
[ "${BENCH_TEST_IN_VM:-0}" != 1 ] || HOST=0

# The runs checked below, started side by side (lib.sh's par_start, at
# most 3 at once): each is its own configuration with its own maps and
# cgroup, and no check of one reads another's output (the Cgroup memory
# and Memory lines are checked for their form, not their figures).  The
# wrapper runs beside them as users run it; its two runs, independent of
# each other, start ahead side by side (lib.sh's shared_ahead) rather than
# one after the other.  They are queued in the order they are checked and
# started PAR_WIDTH ahead of their checks (par_take), so that the checks of
# one run go on while the next ones measure, rather than all of them
# measured before the first check (in make vmtest's guests, one at a
# time, all of them before the first check, as ever).  Every section's
# checks follow its run's par_take, in the order they had; SIGINT's run,
# watched and signalled, and the listings of what is loaded come after
# the last of them is reaped.
if [ "$HOST" = 1 ]; then
	RUN5=$(shared_runs "$SHARED" -w0 -d1)
	# the wrapper's runs, ahead, then the wrapper (after both are, so that
	# it finds them), which waits for them and prints their lines
	for b in hash-prealloc-update hash-kmalloc-update; do
		par_queue shared_ahead "$RUN5" -p 1 "$b"
	done
	par_queue par_start "$TEST_TMP/script5" env RUN_BENCH="$RUN5" "$SCRIPT" 5 1
fi
declare -A STARTED=()
for t in "${TESTS[@]}"; do
	IFS='|' read -r b _ <<<"$t"
	# on the host the wrapper's runs are these two's
	if [ "$HOST" = 1 ] && [[ $b = hash-prealloc-update || $b = hash-kmalloc-update ]]; then
		continue
	fi
	out=$TEST_TMP/$b
	par_queue par_start "$out" "$BENCH" -w0 -d1 --json "$out.json" "$b"
	STARTED[$b]=1
done
par_queue par_start "$TEST_TMP/lru-hash-percpu-update-p2" "$BENCH" -w0 -d1 -p2 -a lru-hash-percpu-update
# An update fails only while the other producer's key holds the one
# entry, so the two must run at once: at the tests' nice 15, beside the
# other lane's work, they seldom did, and one run on this machine counted
# 979030 updates and no failure.  Its threads run as started
# (AS_STARTED): pinned apart and at nice 0, each gets half a CPU or more.
out=$TEST_TMP/small
par_queue par_start "$out" "${AS_STARTED[@]}" "$BENCH" -w0 -d1 -p2 -a --json "$out.json" \
	hash-prealloc-update --nr_entries 1
par_queue par_start "$TEST_TMP/repeat" "$BENCH" -w0 -d1 -p2 --repeat 2 hash-kmalloc-update
par_queue par_start "$TEST_TMP/latency" "$BENCH" -w0 -d1 --latency lpm-kmalloc-lookup
UNSHARE=0
if command -v unshare >/dev/null; then
	UNSHARE=1
	par_queue par_start "$TEST_TMP/pidns" unshare -p -f --mount-proc "$BENCH" -w0 -d1 -p2 inner-lru-hash-update
fi
if [ "$HOST" = 1 ]; then
	par_queue par_start "$TEST_TMP/script" env RUN_BENCH="$BENCH -w0 -d1 -a" "$SCRIPT" 4 2 16384
fi
par_queue par_start "$TEST_TMP/zs" env BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d1 --zero-seed lru-hash-common-update
par_feed

if [ "$HOST" = 1 ]; then
	# the loop takes two of its runs: they and the wrapper must have ended
	par_take "$SHARED/-p_1_hash-prealloc-update.par"
	par_take "$SHARED/-p_1_hash-kmalloc-update.par"
	rc=0
	par_take "$TEST_TMP/script5" || rc=$?
	echo "$rc" >"$TEST_TMP/script5.rc"
fi

for t in "${TESTS[@]}"; do
	IFS='|' read -r b label ops done_label <<<"$t"
	out=$TEST_TMP/$b
	rc=0
	if shared_take "$SHARED/-p_1_$b" "$out"; then
		rc=$SHARED_RC
	elif [ -n "${STARTED[$b]:-}" ]; then
		par_take "$out" || rc=$?
	else
		run_bench "$out" -w0 -d1 --json "$out.json" "$b" || rc=$?
	fi
	[ "$rc" -eq 0 ] && stderr_clean "$out.err"
	ok $? "$b: exit status 0, nothing on stderr but noise warnings"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(head -c 1500 "$out.err")"
	like "$out" '^Summary: hits +[0-9]+\.[0-9]{3} ± ' "$b: a Summary line"
	assert "$b: map_perf_test's line, '0:$label N events per sec'" per_producer "$out" "$label" 1
	failed=$(counts_add_up "$out" "$ops" "$done_label")
	ok $? "$b: triggers x $ops = failed + $done_label"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(grep -E '^Counts' "$out")"
	is "$failed" 0 "$b: no operation failed"
	like "$out" '^Cgroup memory: usage [0-9.]+ ± [0-9.]+MiB, peak [0-9.]+MiB$' "$b: the run's memory"
	like "$out" '^Memory: ([0-9.]+ MiB = stat [0-9.]+ \(|[a-z]+ [0-9.]+ MiB)' "$b: the runner's line of where the memory went"
	is "$(jq -r '[.options.benchmark.nr_entries > 0, (.summary.metrics | has("memory") and has("failures"))] | all' \
		"$out.json")" true "$b: JSON has nr_entries and the memory and failures metrics"
	schema_ok "$out.json" "$b: JSON validates against the schema"
	# lkp-tests' parse on every member of the family (results_bpf.t: one of it)
	if host_only "$b: lkp-tests' parse"; then
		"$LKP_PARSE" "$out.json" >"$out.parsed" 2>"$out.parse.err"
		ok $? "$b: lkp-tests' parse exits 0"
		lkp_contract "$out.parsed" "$b"
	fi
done

# two pinned producers: a line each (hash-kmalloc-update's two lines are
# checked on the --repeat 2 -p2 run below, and on the host on
# run_bench_map_perf.sh 4 2's)
b=lru-hash-percpu-update
out=$TEST_TMP/$b-p2
rc=0
par_take "$out" || rc=$?
is "$rc" 0 "$b -p2 -a: exit status 0"
label=$(grep -Eo '^0:[a-z_]+ [a-z-]+' "$out" | cut -d: -f2)
assert "$b -p2 -a: two per-producer lines ($label)" per_producer "$out" "$label" 2

# a map with one entry for two producers: updates fail, and each is counted
out=$TEST_TMP/small
rc=0
par_take "$out" || rc=$?
is "$rc" 0 "--nr_entries 1 -p2: exit status 0"
failed=$(counts_add_up "$out" 10 "found and deleted")
ok $? "--nr_entries 1 -p2: triggers x 10 = failed + found and deleted"
diag "$(grep -E '^(Counts|Failures)' "$out")"
cmp_ok "${failed:-0}" -gt 0 "--nr_entries 1 -p2: updates failed"
like "$out" "^Failures: $failed of [0-9]+ updates failed \\(max_entries 1: " "--nr_entries 1 -p2: a Failures line with that count"
cmp_ok "$(jq '[.samples[].counters.fails] | add' "$out.json")" -le "${failed:-0}" \
	"--nr_entries 1 -p2: the JSON samples' failures are within the counted ones"

# --repeat: a fresh map per repeat, each repeat's lines prefixed
out=$TEST_TMP/repeat
rc=0
par_take "$out" || rc=$?
is "$rc" 0 "--repeat 2: exit status 0"
like "$out" '^Repeat 2/2: fresh state$' "--repeat 2: fresh state"
is "$(grep -Ec '^Repeat [12]/2: [01]:hash_map_perf kmalloc [0-9]+ events per sec$' "$out")" 4 \
	"--repeat 2: each repeat's per-producer lines, prefixed"
counts_add_up "$out" 10 "found and deleted" >/dev/null
ok $? "--repeat 2: the counts add up"

# --latency: each trigger's operations timed
out=$TEST_TMP/latency
rc=0
par_take "$out" || rc=$?
# the runner's timer calibration, not this benchmark, is refused by some kernels (6.1: EACCES)
if [ "$rc" -ne 0 ] && grep -q '^failed to load the --latency calibration program' "$out.err"; then
	skip "this kernel refuses --latency's calibration program: $(tail -n1 "$out.err")" "--latency"
else
	is "$rc" 0 "--latency: exit status 0"
	like "$out" '^Latency: per-op p50 [0-9.]+ ns, .*\([0-9]+ triggers, 32 ops each\)$' "--latency: a Latency line, 32 lookups a trigger"
fi

# a pid namespace, as in a container
if [ "$UNSHARE" = 1 ]; then
	out=$TEST_TMP/pidns
	rc=0
	par_take "$out" || rc=$?
	[ "$rc" -eq 0 ] && stderr_clean "$out.err" && per_producer "$out" "inner_lru_hash_map_perf pre-alloc" 2
	ok $? "inner-lru-hash-update -p2 in a pid namespace: exit 0, both producers counted"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$out" "$out.err")"
else
	skip "unshare (util-linux) not installed" "a pid namespace"
fi

# run_bench_map_perf.sh: map_perf_test's arguments, its lines.  The
# wrapper is userspace alone, and the benchmarks it runs ran above: the
# host checks it
if host_only "run_bench_map_perf.sh: its arguments and lines"; then
	out=$TEST_TMP/script
	rc=0
	par_take "$out" || rc=$?
	is "$rc" 0 "run_bench_map_perf.sh 4 2 16384: exit status 0"
	is "$(grep -Ec '^[01]:hash_map_perf kmalloc [1-9][0-9]* events per sec$' "$out")|$(wc -l <"$out")" "2|2" \
		"run_bench_map_perf.sh 4 2 16384: test 4's line for each of 2 producers, nothing else"
	# its run is above, before the loop's
	out=$TEST_TMP/script5
	rc=$(cat "$out.rc")
	is "$rc|$(grep -Eo '^0:hash_map_perf [a-z-]+' "$out" | tr '\n' ' ')" "0|0:hash_map_perf pre-alloc 0:hash_map_perf kmalloc " \
		"run_bench_map_perf.sh 5 1: tests 1 and 4, in map_perf_test's order"
	is_exit 2 "run_bench_map_perf.sh with a fourth argument: refused" "$SCRIPT" 4 8 16384 1000000
	is_exit 2 "run_bench_map_perf.sh x: refused" "$SCRIPT" x
	# a mask with no known test bit ran nothing and exited 0: refused, naming the bits accepted
	for m in 2048 2049; do
		is_exit 2 "run_bench_map_perf.sh $m: refused" "$SCRIPT" "$m" 1
		is "$(grep -c . "$TEST_TMP/is_exit.err") $(wc -c <"$TEST_TMP/is_exit.out")" "1 0" \
			"run_bench_map_perf.sh $m: one line on stderr, nothing on stdout"
		like "$TEST_TMP/is_exit.err" "invalid TEST_MASK '$m': no test for bit\\(s\\) 2048; accepted: 0 \\(every test\\) or a sum of 1 hash-prealloc-update, .*, 1024 lru-hash-lookup$" \
			"run_bench_map_perf.sh $m: the bad bit named, with the accepted ones"
	done
fi

# --zero-seed: for the hash maps, not the trie.  The flag is the map's, set
# when the map is made: set-up alone shows it is taken
out=$TEST_TMP/zs
rc=0
par_take "$out" || rc=$?
is "$rc" 0 "--zero-seed lru-hash-common-update: exit status 0"

# bad values: one line, nothing set up (userspace alone: the host checks them)
if host_only "bad values refused in one line"; then
	is_exit 1 "--zero-seed lpm-kmalloc-lookup: refused (exit 1, as the README's table)" "$BENCH" -w0 -d1 --zero-seed lpm-kmalloc-lookup
	refused "invalid --nr_entries '0': expected an integer in 1..16777216" -w0 -d1 hash-kmalloc-update --nr_entries 0
	refused "invalid --nr_entries '16777217'" -w0 -d1 hash-kmalloc-update --nr_entries 16777217
	refused "invalid --nr_entries '1x'" -w0 -d1 lru-hash-common-update --nr_entries 1x
	refused "at least 513" -w0 -d1 lpm-kmalloc-lookup --nr_entries 512
	refused "does not apply" -w0 -d1 count-local --nr_entries 10
	refused "no consumers" -w0 -d1 -c 1 hash-kmalloc-update
fi

# SIGINT mid-run: exit 130, nothing loaded, no cgroup
out=$TEST_TMP/sigint
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d30 -p2 hash-kmalloc-update >"$out" 2>"$out.err" &
pid=$!
watchdog "$pid"
wait_iter "$out" "$pid" 30
kill -INT "$pid"
reap "$pid"
is $? 130 "SIGINT: exit status 130"
eventually nothing_loaded
ok $? "SIGINT: nothing left loaded"
assert "SIGINT: no cgroup left" no_cgroup "$pid"

eventually nothing_loaded
ok $? "nothing left loaded after the runs"
nothing_loaded || diag "$(bpftool prog show | grep -E "name ($PROGS) ")"

done_testing
