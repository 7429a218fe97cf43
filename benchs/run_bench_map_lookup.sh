#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lookup microbenchmarks, one line per map type: lookups per second
# (64 per getpgid()).  RUN_BENCH overrides how bench is run, e.g.
# RUN_BENCH="./bench -w1 -d2 -a".
set -eufo pipefail

# shellcheck source-path=SCRIPTDIR
# shellcheck source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

read -r -a run_bench <<< "$RUN_BENCH"

header "Map lookups (64 per getpgid(), all hits)"
for bench in hash-lookup array-lookup percpu-hash-lookup percpu-array-lookup lru-hash-lookup; do
	# assigned first: set -e does not see a failure inside an argument
	out=$("${run_bench[@]}" "$bench")
	summarize "$bench" "$out"
done
