#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A stand-in for a bench invocation in `bench ab`'s tests: writes a
# one-sample result file with a chosen rate to $BENCH_AB_JSON, so the
# statistics and the stopping rule can be checked on known numbers.
#
#   tests/ab_standin.sh RATES
#
# RATES holds one rate per line; each call takes the next one (the count
# so far is kept in RATES.pos).  STANDIN_SLEEP=SEC sleeps first;
# STANDIN_FAIL=N makes the N-th call fail with exit 3; STANDIN_INVALID=N marks
# the N-th call's result invalid (its producers starved).
# STANDIN_METRIC=op_ns names the rate op_ns (ns, lower is better) and adds
# a --latency block with no batch timed; in it STANDIN_REF_N=NS (else
# STANDIN_REF=NS, else none, as an older bench's file) is the N-th call's
# machine-speed reference: one reference loop of NS ns, whose median
# interpolated in its bucket [lo, hi) is lo - 1/2 + (hi - lo) / 2.
#
# Builtins only where it can (no cat, sed or a here-document's cat): ab.t
# runs it some 300 times, and on a busy machine every process started is a
# wait for a CPU.
set -euo pipefail
rates=$1
pos=0
[ -f "$rates.pos" ] && read -r pos <"$rates.pos"
pos=$((pos + 1))
echo "$pos" >"$rates.pos"
[ -z "${STANDIN_SLEEP:-}" ] || sleep "$STANDIN_SLEEP"
if [ "${STANDIN_FAIL:-0}" = "$pos" ]; then
	echo "stand-in: failing call $pos as asked" >&2
	exit 3
fi
mapfile -t lines <"$rates"
r=${lines[pos - 1]:-}
[ -n "$r" ] || { echo "stand-in: no rate on line $pos of $rates" >&2; exit 4; }
echo "stand-in: call $pos, rate $r"
validity='{"valid": true, "reason": null, "min_cpu_share": 0.8, "prod_cpu_share": [1]}'
[ "${STANDIN_INVALID:-0}" = "$pos" ] &&
	validity='{"valid": false, "reason": "producers starved: 1 of 1 ran less than 80% of their measured time (#0 10.0%)", "min_cpu_share": 0.8, "prod_cpu_share": [0.1]}'
metric=${STANDIN_METRIC:-hits}
unit=M/s better=true lat='' lat_trig=''
if [ "$metric" = op_ns ]; then
	unit=ns better=false lat_trig=', "latency_triggers": 0, "latency_edge_triggers": 0'
	ref_var=STANDIN_REF_$pos
	ref=${!ref_var:-${STANDIN_REF:-}}
	refjson=
	# the reference's bucket as progs/latency.h has it: 128 per power of two from 128 ns
	[ -z "$ref" ] || refjson=$(awk -v v="$ref" 'BEGIN {
		lo = v; w = 1
		if (v >= 128) { for (m = 128; m * 2 <= v; m *= 2); w = m / 128; lo = m + int((v - m) / w) * w }
		printf ", \"reference\": {\"steps\": 512, \"every\": 64, \"samples\": 1, \"p50_ns\": %.1f, \"buckets\": [{\"lo_ns\": %d, \"hi_ns\": %d, \"count\": 1}]}", lo - 0.5 + w / 2, lo, lo + w }')
	nulls='"p50": null, "p90": null, "p99": null, "p99_9": null, "max": null'
	lat=", \"latency\": {\"clock\": \"standin\", \"unit\": \"ns\", \"ops_per_trigger\": 64, \"triggers\": 0,
	\"overflow\": 0, \"overflow_from_ns\": 1073741824,
	\"timer_pair_ns\": {\"median\": 30, \"min\": 20, \"rounds\": 1, \"subtracted\": false},
	\"per_trigger\": {$nulls, \"p50_interpolated\": null}, \"per_op\": {$nulls, \"p50_interpolated\": null},
	\"buckets\": []$refjson}"
fi
IFS= read -r -d '' doc <<JSON || true
{"schema": "bench-result", "schema_version": 1, "benchmark": "standin",
 "options": {"runner": {"duration_sec": 1, "warmup_sec": 0, "producers": 1, "consumers": 0,
	     "affinity": false, "prod_affinity": [], "cons_affinity": []}, "benchmark": {}},
 "context": {"kernel_release": "standin", "nr_online_cpus": 1, "allowed_cpus": [0],
	     "cpu_model": "standin", "sysctl": {}, "libbpf_version": "-", "bench_version": "-",
	     "hypervisor": "none", "cgroup_mode": "none"},
 "memory_source": null,
 "samples": [{"iter": 0, "warmup": false, "interval_ns": 1000000000,
	      "counters": {"hits": 1, "drops": 0, "fails": 0, "mem_bytes": null$lat_trig},
	      "metrics": {"$metric": $r}}],
 "summary": {"metrics": {"$metric": {"unit": "$unit", "higher_is_better": $better, "n": 1, "mean": $r,
				   "stddev": 0, "median": $r, "min": $r, "max": $r, "cv": 0,
				   "ci95": 0}},
	     "fails": 0, "peak_memory_bytes": null, "peak_memory_mib": null},
 "per_producer": null, "warnings": [], "validity": $validity$lat}
JSON
printf '%s' "$doc" >"$BENCH_AB_JSON"
