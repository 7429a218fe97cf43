#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem for the preallocated flavour, then the BPF memory allocator
# flavour, one line per use case:
#
#   overwrite            per-prod-op: 93.56 ± 0.03k/s, avg mem: 1.23 ± 0.00MiB, peak mem: 1.24MiB
#
# RUN_BENCH    runner and common options (default "./bench -w3 -d10 -a",
#              relative to the source tree)
# PRODUCERS    producer count (default: the even number of available CPUs, 2..8)
# USE_CASES    use cases to run (default: all four)

set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

PRODUCERS=${PRODUCERS:-$(default_producers)}
USE_CASES=${USE_CASES:-overwrite batch_add_batch_del add_del_on_diff_cpu no_op}

htab_mem_line() {
	local name=$1 out=$2 s fails

	if ! s=$(summary_line "$out"); then
		printf '%-*s no Summary line in the output\n' "$NAME_WIDTH" "$name"
		BENCH_FAILURES=$((BENCH_FAILURES + 1))
		return
	fi
	# a failing allocator must not look fast: carry the bench's warning
	fails=$(grep '^Failures:' <<<"$out" | sed -E 's/^Failures: ([0-9]+) map updates and ([0-9]+) map deletes.*/, FAILED updates: \1, deletes: \2/')
	printf '%-*s per-prod-op: %s, avg mem: %s, peak mem: %s%s\n' "$NAME_WIDTH" "$name" \
		"$(field "$s" per-prod-op || echo '?')" \
		"$(field "$s" 'memory usage' || echo '?')" \
		"$(field "$s" 'peak memory usage' || echo '?')" \
		"$fails"
}

htab_mem_flavour() {
	local name out status

	for name in $USE_CASES; do
		out=$(run_bench htab-mem --use-case "$name" -p "$PRODUCERS" "$@")
		status=$?
		if [ "$status" -ne 0 ]; then
			bench_failed "$name" "$status"
			continue
		fi
		htab_mem_line "$name" "$out"
	done
}

header "preallocated"
htab_mem_flavour --preallocated

header "normal bpf ma"
htab_mem_flavour

finish
