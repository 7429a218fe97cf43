# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Temporary minimal run_common.sh for the lookup wrapper scripts; the
# real one comes with htab-mem and replaces this file when merged.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUN_BENCH=${RUN_BENCH:-"$BENCH_DIR/bench -w3 -d10 -a"}

header() {	# header <text>: a section title, underlined
	printf '\n%s\n' "$1"
	printf '%*s\n' "${#1}" '' | tr ' ' '='
}

hits() {	# hits <Summary line>: "mean ± stddevM/s" of the hits
	sed -nE 's/.*hits +([0-9.]+ ± [0-9.]+M\/s).*/\1/p' <<< "$1"
}

drops() {	# drops <Summary line>: "mean ± stddevM/s" of the drops
	sed -nE 's/.*drops +([0-9.]+ ± [0-9.]+M\/s).*/\1/p' <<< "$1"
}

summarize() {	# summarize <name> <bench output>: one line from its Summary
	local summary

	summary=$(grep '^Summary:' <<< "$2" | tail -n1)
	printf '%-20s %s (drops %s)\n' "$1" "$(hits "$summary")" "$(drops "$summary")"
}
