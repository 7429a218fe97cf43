#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lookup microbenchmarks, one line per map type: lookups per second
# (64 per getpgid()).  RUN_BENCH overrides how bench is run, e.g.
# RUN_BENCH="./bench -w1 -d2 -a".
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

header "Map lookups (64 per getpgid(), all hits)"
for bench in hash-lookup array-lookup percpu-hash-lookup percpu-array-lookup lru-hash-lookup; do
	out=$(run_bench "$bench") || { bench_failed "$bench" $?; continue; }
	if ! s=$(summary_line "$out"); then
		bench_failed "$bench" "no Summary"
		continue
	fi
	hits=$(field "$s" hits)
	emit printf '%-*s %s (drops %s)\n' "$NAME_WIDTH" "$bench" "${hits%% (*}" "$(field "$s" drops)"
done

finish
