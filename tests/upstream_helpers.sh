# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The result extractors of upstream's wrapper scripts, re-typed here so the
# tests can run them on our output: they mirror the helpers hits(), drops(),
# total(), percentage(), summarize(), summarize_total() and
# summarize_percentage() of upstream's
# tools/testing/selftests/bpf/benchs/run_common.sh and htab_mem() and
# summarize_htab_mem() of its benchs/run_bench_htab_mem.sh.  Kept as
# upstream has them, quirks included: the output is passed unquoted, so
# every run of blanks (newlines too) becomes one space and "the last line"
# is the whole output, and sed prints its input unchanged when the pattern
# does not match, which is how a missing field shows up.
# Source it; the functions are prefixed up_ so they cannot shadow ours.

up_hits() {
	echo "$*" | sed -E "s/.*hits\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/"
}

up_drops() {
	echo "$*" | sed -E "s/.*drops\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/"
}

up_total() {
	echo "$*" | sed -E "s/.*total operations\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/"
}

up_percentage() {
	echo "$*" | sed -E "s/.*Percentage\s=\s+([0-9]+\.[0-9]+).*/\1/"
}

up_summarize() {
	local bench=$1 summary

	# shellcheck disable=SC2086
	summary=$(echo $2 | tail -n1)
	# shellcheck disable=SC2086
	printf "%-20s %s (drops %s)\n" "$bench" "$(up_hits $summary)" "$(up_drops $summary)"
}

up_summarize_total() {
	local bench=$1 summary

	# shellcheck disable=SC2086
	summary=$(echo $2 | tail -n1)
	# shellcheck disable=SC2086
	printf "%-20s %s\n" "$bench" "$(up_total $summary)"
}

up_summarize_percentage() {
	local bench=$1 summary

	# shellcheck disable=SC2086
	summary=$(echo $2 | tail -n1)
	# shellcheck disable=SC2086
	printf "%-20s %s%%\n" "$bench" "$(up_percentage $summary)"
}

up_htab_mem() {
	echo -n "per-prod-op : "
	echo -n "$*" | sed -E "s/.* per-prod-op\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+k\/s).*/\1/"
	echo -n -e ", avg mem: "
	echo -n "$*" | sed -E "s/.* memory usage\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+MiB).*/\1/"
	echo -n ", peak mem: "
	echo "$*" | sed -E "s/.* peak memory usage\s+([0-9]+\.[0-9]+MiB).*/\1/"
}

up_summarize_htab_mem() {
	local bench=$1 summary

	# shellcheck disable=SC2086
	summary=$(echo $2 | tail -n1)
	# shellcheck disable=SC2086
	printf "%-20s %s\n" "$bench" "$(up_htab_mem $summary)"
}
