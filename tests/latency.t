#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --latency on the real kernel: the histogram counts every trigger the
# benchmark counted, in each sample (give or take the one trigger per
# producer in flight at a sample edge), the Summary has its Latency line,
# the JSON its latency block, and nothing stays loaded.  No timing is
# checked: only counts and the relations between figures.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

LAT_LINE='^Latency: per-op p50 [0-9.]+ ns, p90 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, max [0-9.]+ \([0-9]+ triggers, '
PROGS='htab_mem_overwr|htab_mem_batch_|htab_mem_add_de|htab_mem_no_op|hash_lookup|hashmap_lookup|hashmap_fentry|lat_calibrate|bench_128'

# counts_match <json> <hits per trigger> <producers>: every sample's timed
# triggers are its counted ones, give or take one in-flight trigger per
# producer and the triggers that ended while the sampler read the two
# counts (latency_edge_triggers, this tick's and the previous one's)
counts_match() {
	jq -e --argjson div "$2" --argjson p "$3" '
		.samples | length > 0 and all(range(0; length) as $i | .[$i].counters as $c |
			(if $i > 0 then .[$i - 1].counters.latency_edge_triggers else 0 end) as $prev |
			($c.latency_triggers - $c.hits / $div) as $d |
			$d <= $p + $c.latency_edge_triggers and $d >= -($p + $prev) and
			$c.hits > 0 and $c.latency_edge_triggers >= 0; .)' "$1" >/dev/null
}

# the run's block: buckets add up to the triggers, which are the measured
# samples' triggers, percentiles ordered, per-op = per-trigger / ops, and
# latency_p50's resolution is the width of p50's bucket, per op
block_ok() {
	jq -e --argjson ops "$2" '
		.latency as $l |
		($l.buckets | map(.count) | add) == $l.triggers and $l.triggers > 0 and
		([.samples[] | select(.warmup | not) | .counters.latency_triggers] | add) == $l.triggers and
		$l.ops_per_trigger == $ops and $l.overflow == 0 and
		$l.per_trigger.p50 <= $l.per_trigger.p90 and $l.per_trigger.p90 <= $l.per_trigger.p99 and
		$l.per_trigger.p99 <= $l.per_trigger.p99_9 and $l.per_trigger.p99_9 <= $l.per_trigger.max and
		(if $ops > 0 then ($l.per_op.p50 * $ops - $l.per_trigger.p50 | fabs) < 1e-6
		 else $l.per_op.p50 == $l.per_trigger.p50 end) and
		$l.timer_pair_ns.median > 0 and $l.timer_pair_ns.subtracted == false and
		.summary.metrics.latency_p50.higher_is_better == false and
		([$l.buckets[] | select(.lo_ns <= $l.per_trigger.p50 and .hi_ns > $l.per_trigger.p50) |
		  (.hi_ns - .lo_ns) / (if $ops > 0 then $ops else 1 end)] ==
		 [.summary.metrics.latency_p50.resolution]) and
		.summary.metrics.latency_p99.unit == "ns" and
		.options.runner.latency == true' "$1" >/dev/null
}

# the machine-speed reference (progs/latency.h): LAT_REF_STEPS (512) empty
# bpf_loop() steps after 1 batch in 64, some timed, its median within its
# buckets, and each measured sample's median where one ran; plausible: an
# empty step costs more than 0.1 ns and the whole loop less than 10 ms
ref_ok() {
	jq -e '.latency.reference as $r |
		$r.steps == 512 and $r.every == 64 and $r.samples > 0 and
		($r.buckets | map(.count) | add) == $r.samples and
		$r.p50_ns > $r.steps * 0.1 and $r.p50_ns < 1e7 and
		$r.p50_ns >= $r.buckets[0].lo_ns and $r.p50_ns <= $r.buckets[-1].hi_ns and
		all(.samples[]; .contention | has("reference_ns")) and
		any(.samples[] | select(.warmup | not); .contention.reference_ns > 0)' "$1" >/dev/null
}

# lat_start <name> <producers> <bench args...>: start a -w0 -d1 run, or
# as $LAT_TIME says (the first run has a warm-up, so two samples, each
# checked on its own: the histogram starts afresh after the warm-up, and
# per sample).  The runs go side by side (lib.sh's par_start): each
# program counts its own run's producers only, the checks are per run,
# and no timing is checked.
lat_start() {
	local name=$1 p=$2 out=$TEST_TMP/$1 t
	shift 2
	read -r -a t <<<"${LAT_TIME:--w0 -d1}"
	par_start "$out" "$BENCH" "${t[@]}" -p "$p" --latency --json "$out.json" "$@"
}

# lat_check <name> <hits per trigger> <ops per trigger> <producers>: the
# checks of the run lat_start started as <name>
lat_check() {
	local name=$1 div=$2 ops=$3 p=$4 out=$TEST_TMP/$1 rc=0
	par_wait "$out" || rc=$?
	[ "$rc" -eq 0 ] && stderr_clean "$out.err"
	is $? 0 "$name: exit status 0, nothing on stderr but noise warnings"
	stderr_clean "$out.err" || diag "rc $rc: $(head -c 1000 "$out.err")"
	if [ "$ops" -gt 0 ]; then
		like "$out" "$LAT_LINE$ops ops each\\)\$" "$name: Latency line, $ops ops each"
	else
		like "$out" '^Latency: per-trigger p50 [0-9.]+ ns, .*\(([0-9]+) triggers, no map operations\)$' \
			"$name: Latency line, per trigger (empty batch)"
	fi
	like "$out" '^Latency: a bpf_ktime_get_ns\(\) pair costs [0-9]+ ns .*not subtracted$' \
		"$name: the timer's cost is stated, not subtracted"
	counts_match "$out.json" "$div" "$p"
	ok $? "$name: each sample's histogram counts the triggers the benchmark counted"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(jq -c '[.samples[].counters | [.hits, .latency_triggers, .latency_edge_triggers]]' "$out.json")"
	block_ok "$out.json" "$ops"
	ok $? "$name: JSON latency block consistent with the samples"
	ref_ok "$out.json"
	ok $? "$name: JSON has the machine-speed reference, 512 steps, a plausible median"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(jq -c '.latency.reference | del(.buckets)' "$out.json")"
	like "$out" '^Latency: machine speed: a 512-step empty bpf_loop\(\) took [0-9.]+ ns \(median of [1-9][0-9]*, run after 1 batch in 64, outside its timing\)$' \
		"$name: the Summary states the machine-speed reference"
	schema_ok "$out.json" "$name: JSON conforms to the schema"
	"$BENCH" compare --verbose "$out.json" "$out.json" >"$out.cmp" 2>&1
	ok $? "$name: compare loads and validates the result"
	like "$out.cmp" '^latency_p99 \(ns\) ' "$name: compare has a latency_p99 row"
}

LAT_TIME="-w1 -d1" lat_start "htab-mem overwrite" 2 -a htab-mem --use-case overwrite
lat_start "htab-mem overwrite preallocated" 2 -a htab-mem --use-case overwrite --preallocated
lat_start "htab-mem batch_add_batch_del" 2 htab-mem --use-case batch_add_batch_del
lat_start "htab-mem add_del_on_diff_cpu" 2 htab-mem --use-case add_del_on_diff_cpu
lat_start "htab-mem no_op" 1 htab-mem --use-case no_op
lat_start "hash-lookup" 2 hash-lookup
lat_start "bpf_ma" 2 bpf_ma
# bpf-hashmap-lookup: a trigger is --nr_loops lookups, timed by the benchmark
# itself, which tells the warm-up's timings from the rest on its own (-w1;
# one measured second: the edge between two samples is the warm-up's)
par_start "$TEST_TMP/hml" "$BENCH" -w1 -d1 --latency --json "$TEST_TMP/hml.json" bpf-hashmap-lookup --nr_loops 1000
# and a run without --latency
par_start "$TEST_TMP/off" "$BENCH" -w0 -d1 --json "$TEST_TMP/off.json" htab-mem

lat_check "htab-mem overwrite" 1 64 2
lat_check "htab-mem overwrite preallocated" 1 64 2
lat_check "htab-mem batch_add_batch_del" 2 128 2
lat_check "htab-mem add_del_on_diff_cpu" 1 64 2
lat_check "htab-mem no_op" 1 0 1
lat_check "hash-lookup" 64 64 2
# a trigger allocates and frees a batch of 64 objects, and hits count the objects
lat_check "bpf_ma" 64 128 2

# bpf-hashmap-lookup
out=$TEST_TMP/hml
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "bpf-hashmap-lookup --latency: exit status 0"
diag "$(head -c 500 "$out.err")"
like "$out" "${LAT_LINE}1000 ops each\\)\$" "bpf-hashmap-lookup: Latency line, nr_loops ops each"
counts_match "$out.json" 1000 1
ok $? "bpf-hashmap-lookup: each sample's histogram counts the triggers the benchmark counted"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(jq -c '[.samples[].counters | [.hits, .latency_triggers, .latency_edge_triggers]]' "$out.json")"
block_ok "$out.json" 1000
ok $? "bpf-hashmap-lookup: JSON latency block consistent with the samples"
ref_ok "$out.json"
ok $? "bpf-hashmap-lookup: JSON has the machine-speed reference"

# without --latency: no line, no block, no metric, no histogram map
out=$TEST_TMP/off
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "htab-mem without --latency: exit status 0"
! grep -q '^Latency' "$out"
ok $? "without --latency: no Latency line"
jq -e '.latency == null and .summary.metrics.latency_p50 == null and .options.runner.latency == null
	and all(.samples[]; .counters.latency_triggers == null and (.contention | has("reference_ns") | not))' "$out.json" >/dev/null
ok $? "without --latency: nothing about latency in the JSON"

# the latency chart: drawn from a --latency run, refused for another
# (gnuplot is a dependency scripts/install-deps.sh installs)
"$BENCH" plot latency "$TEST_TMP/htab-mem overwrite.json" "$TEST_TMP/htab-mem overwrite preallocated.json" \
	--force --text >"$TEST_TMP/plot" 2>"$TEST_TMP/plot.err"
is $? 0 "plot latency: two runs overlaid, exit status 0"
like "$TEST_TMP/plot" 'latency: per-op time by percentile' "plot latency: the chart's title"
like "$TEST_TMP/plot" 'percentile \(log scale of 1/\(1 - p\)\)' "plot latency: the percentile axis, 1/(1 - p)"
like "$TEST_TMP/plot" 'latency \(ns per op, log scale\)' "plot latency: log-scaled per-op axis"
rc=0
"$BENCH" plot latency "$TEST_TMP/off.json" --text >"$TEST_TMP/plot" 2>"$TEST_TMP/plot.err" || rc=$?
is "$rc" 2 "plot latency of a run without --latency: exit status 2"
like "$TEST_TMP/plot.err" 'has no latency histogram: record the run with --latency' \
	"plot latency: the refusal says why"

eventually none_loaded "$PROGS"
ok $? "nothing left loaded after the runs"

done_testing
