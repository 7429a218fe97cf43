#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What --latency costs: the primary rate with and without it, runs
# interleaved (off, on, off, on, ...) so that drift of the machine hits
# both alike, for htab-mem overwrite (both flavours) and hash-lookup.
# Prints, per benchmark, each run's rate, the ratio of the means (on/off)
# and, from the rounds as pairs (each "on" run against the "off" run just
# before it, so that drift over minutes cancels), the geometric mean of the
# per-round ratios with its 95% confidence interval (Student's t on the
# logarithms of the ratios; needs ROUNDS >= 2):
#
#   htab-mem overwrite bpf-ma   off 93.10 93.40 93.30  on 91.20 91.50 91.00  ratio 0.978  paired 0.978 (95% CI 0.972..0.984, 3 rounds)
#
# An interval that contains 1 means the rounds could not tell the overhead
# from the machine's noise at that size: run more rounds.
#
# RUN_BENCH    runner and common options (default "./bench -w3 -d10 -a",
#              relative to the source tree)
# ROUNDS       off/on pairs per benchmark (default 3)
# LOCK         if set, a file each bench run is wrapped in flock(1) on

set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

ROUNDS=${ROUNDS:-3}

# one run's primary rate (the mean of its measured samples) from its JSON
rate() {	# rate <json> <metric>
	jq -r --arg m "$2" '.summary.metrics[$m].mean' "$1"
}

one() {	# one <json> <args...>
	local out=$1
	shift
	if [ -n "${LOCK:-}" ]; then
		# shellcheck disable=SC2086
		flock "$LOCK" $RUN_BENCH -q --json "$out" "$@" >/dev/null
	else
		# shellcheck disable=SC2086
		$RUN_BENCH -q --json "$out" "$@" >/dev/null
	fi
}

measure() {	# measure <name> <metric> <bench args...>
	local name=$1 metric=$2 tmp i off="" on="" status
	shift 2
	tmp=$(mktemp -d /tmp/lat-overhead.XXXXXX)
	for i in $(seq "$ROUNDS"); do
		one "$tmp/off$i.json" "$@" || { bench_failed "$name" $?; rm -rf "$tmp"; return; }
		one "$tmp/on$i.json" --latency "$@" || { bench_failed "$name" $?; rm -rf "$tmp"; return; }
		off="$off $(rate "$tmp/off$i.json" "$metric")"
		on="$on $(rate "$tmp/on$i.json" "$metric")"
	done
	if ! status=$(awk -v off="$off" -v on="$on" -f "$BENCH_ROOT/benchs/paired_ratio.awk"); then
		bench_failed "$name" 1
		rm -rf "$tmp"
		return
	fi
	emit printf '%-28s %s\n' "$name" "$status"
	rm -rf "$tmp"
}

header "--latency overhead: primary rate with / without (interleaved, $ROUNDS rounds)"
measure "htab-mem overwrite bpf-ma" per_prod_op htab-mem --use-case overwrite
measure "htab-mem overwrite prealloc" per_prod_op htab-mem --use-case overwrite --preallocated
measure "hash-lookup" hits hash-lookup
finish
