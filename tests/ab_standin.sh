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
set -euo pipefail
rates=$1
pos=0
[ -f "$rates.pos" ] && pos=$(cat "$rates.pos")
pos=$((pos + 1))
echo "$pos" >"$rates.pos"
[ -z "${STANDIN_SLEEP:-}" ] || sleep "$STANDIN_SLEEP"
if [ "${STANDIN_FAIL:-0}" = "$pos" ]; then
	echo "stand-in: failing call $pos as asked" >&2
	exit 3
fi
r=$(sed -n "${pos}p" "$rates")
[ -n "$r" ] || { echo "stand-in: no rate on line $pos of $rates" >&2; exit 4; }
echo "stand-in: call $pos, rate $r"
validity='{"valid": true, "reason": null, "min_cpu_share": 0.8, "prod_cpu_share": [1]}'
[ "${STANDIN_INVALID:-0}" = "$pos" ] &&
	validity='{"valid": false, "reason": "producers starved: 1 of 1 ran less than 80% of their measured time (#0 10.0%)", "min_cpu_share": 0.8, "prod_cpu_share": [0.1]}'
cat >"$BENCH_AB_JSON" <<JSON
{"schema": "bench-result", "schema_version": 1, "benchmark": "standin",
 "options": {"runner": {"duration_sec": 1, "warmup_sec": 0, "producers": 1, "consumers": 0,
	     "affinity": false, "prod_affinity": [], "cons_affinity": []}, "benchmark": {}},
 "context": {"kernel_release": "standin", "nr_online_cpus": 1, "allowed_cpus": [0],
	     "cpu_model": "standin", "sysctl": {}, "libbpf_version": "-", "bench_version": "-",
	     "hypervisor": "none", "cgroup_mode": "none"},
 "memory_source": null,
 "samples": [{"iter": 0, "warmup": false, "interval_ns": 1000000000,
	      "counters": {"hits": 1, "drops": 0, "fails": 0, "mem_bytes": null},
	      "metrics": {"hits": $r}}],
 "summary": {"metrics": {"hits": {"unit": "M/s", "higher_is_better": true, "n": 1, "mean": $r,
				   "stddev": 0, "median": $r, "min": $r, "max": $r, "cv": 0,
				   "ci95": 0}},
	     "fails": 0, "peak_memory_bytes": null, "peak_memory_mib": null},
 "per_producer": null, "warnings": [], "validity": $validity}
JSON
