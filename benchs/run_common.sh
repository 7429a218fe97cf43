# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers shared by the benchs/run_bench_*.sh wrapper scripts.  Source it
# first thing:
#
#	source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"
#
# It sets BENCH_ROOT to the source tree and changes into it, so a relative
# command in RUN_BENCH (the default "./bench -w3 -d10 -a", or one the user
# gives) means the tree's binary whatever directory the script is run from.
#
#   RUN_BENCH                the runner and its common options; the wrapper
#                            appends the benchmark name and its options
#   run_bench ARGS...        run $RUN_BENCH ARGS...; stdout is the bench's
#                            output, stderr passes through
#   header TITLE             a blank line, TITLE, and a line of '=' under it
#   subtitle TITLE           a tab and TITLE, as upstream's
#   default_producers        the even number of CPUs available, 2..8
#
# The parser of a bench's output, the one every wrapper script (and the
# tests) reads it with:
#
#   summary_line OUTPUT [R]  the last "Summary:" line of a bench's output; with
#                            R, that of repeat R of a --repeat run ("Repeat R/N:
#                            Summary: ...", the prefix taken off); fails
#                            (status 1) when there is none
#   field LINE LABEL         the text after "LABEL" up to the next comma, blanks
#                            squeezed: field "$s" per-prod-op -> "93.56 ± 0.03k/s",
#                            field "$s" 'total operations' -> "27.538 ± 0.698M/s"
#   field_num LINE LABEL     the first number after "LABEL": -> "93.56"
#   repeats_field OUTPUT METRIC  a --repeat run's two levels of METRIC, from its
#                            "Repeats: METRIC ..." line: "93.56 ± 1.20k/s (8
#                            repeats; within ± 0.30k/s)"; fails when there is none
#
#   summarize_local_storage NAME OUTPUT  upstream's row for local-storage-cache-*:
#                            "NAME hits throughput: X ± Y M ops/s, hits latency:
#                            Z ns/op, important_hits throughput: X ± Y M ops/s"
#
#   bench_failed NAME STATUS print "NAME<pad> FAILED (exit STATUS)" and remember
#                            it; finish returns non-zero afterwards
#   emit CMD ARGS...         run CMD (printf, echo) that writes to stdout; a
#                            failed write (a full disk, /dev/full) ends the
#                            script with status 1, saying so: a table cut
#                            short never exits 0
#   finish                   the script's exit status: 1 if any bench failed
#
# A wrapper sourcing it before it reads its arguments answers -h and --help
# (its first argument: a file sourced without arguments sees the caller's)
# with its usage, the comment at its top from the line after the SPDX one,
# and exits 0 before running anything; one that reads them first says so
# itself, the same way.

case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "${BASH_SOURCE[1]}"; exit 0 ;; esac
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$BENCH_ROOT" || exit 1

RUN_BENCH=${RUN_BENCH:-./bench -w3 -d10 -a}
BENCH_FAILURES=0

# width of the name column in one-line results
NAME_WIDTH=20

run_bench() {
	local -a cmd

	read -r -a cmd <<<"$RUN_BENCH"
	"${cmd[@]}" "$@"
}

emit() {
	"$@" && return 0
	echo "$(basename "$0"): failed to write standard output: the results are incomplete" >&2
	exit 1
}

header() {
	local title=$1

	emit printf '\n%s\n%s\n' "$title" "$(printf '%*s' "${#title}" '' | tr ' ' '=')"
}

default_producers() {
	local n

	n=$(nproc 2>/dev/null || echo 2)
	n=$((n - n % 2))
	if [ "$n" -lt 2 ]; then
		n=2
	elif [ "$n" -gt 8 ]; then
		n=8
	fi
	echo "$n"
}

summary_line() {
	local line

	if [ $# -ge 2 ]; then
		line=$(grep "^Repeat $2/[0-9]*: Summary: " <<<"$1" | tail -n1)
		line=${line#Repeat "$2"/*: }
	else
		line=$(grep '^Summary:' <<<"$1" | tail -n1)
	fi
	[ -n "$line" ] || return 1
	echo "$line"
}

field() {
	local line=$1 label=$2

	case "$line" in
	*"$label "*) ;;
	*) return 1 ;;
	esac
	line=${line#*"$label "}
	line=${line%%,*}
	# squeeze blanks: the bench pads numbers for its own columns
	# shellcheck disable=SC2086
	set -- $line
	echo "$*"
}

field_num() {
	local v

	v=$(field "$1" "$2") || return 1
	v=$(grep -Eo -- '-?[0-9]+(\.[0-9]+)?' <<<"$v" | head -n1)
	[ -n "$v" ] || return 1
	echo "$v"
}

# "Repeats: METRIC X ± Y UNIT between N repeats (CV ..), within repeats ± W UNIT (CV ..)"
repeats_field() {
	grep "^Repeats: $2 " <<<"$1" | tail -n1 |
		sed -nE 's/^Repeats: [a-z_]+ ([0-9.]+) ± ([0-9.]+) ([^ ]+) between ([0-9]+) repeats \(CV [0-9.]+%\), within repeats ± ([0-9.]+) [^ ]+ .*/\1 ± \2\3 (\4 repeats; within ± \5\3)/p' |
		grep .
}

subtitle() {
	emit printf '\t%s\n' "$1"
}

# summarize <name> <output>: one table row, the run's Summary without its
# label; a run without one counts as a failure
summarize() {
	local name=$1 s

	if ! s=$(summary_line "$2"); then
		emit printf '%-*s no Summary line in the output\n' "$NAME_WIDTH" "$name"
		BENCH_FAILURES=$((BENCH_FAILURES + 1))
		return 1
	fi
	emit printf '%-*s %s\n' "$NAME_WIDTH" "$name" "${s#Summary: }"
}

summarize_local_storage() {
	local name=$1 s

	if ! s=$(summary_line "$2"); then
		emit printf '%-*s no Summary line in the output\n' "$NAME_WIDTH" "$name"
		BENCH_FAILURES=$((BENCH_FAILURES + 1))
		return 1
	fi
	emit printf '%-*s hits throughput: %s, hits latency: %s, important_hits throughput: %s\n' \
		"$NAME_WIDTH" "$name" "$(field "$s" 'hits throughput')" "$(field "$s" 'hits latency')" \
		"$(field "$s" 'important_hits throughput')"
}

bench_failed() {
	emit printf '%-*s FAILED (exit %s)\n' "$NAME_WIDTH" "$1" "$2"
	BENCH_FAILURES=$((BENCH_FAILURES + 1))
}

finish() {
	[ "$BENCH_FAILURES" -eq 0 ]
}

# markdown_kernel <json>: the line above a --markdown table: the kernel (release,
# build, tag), -p, the CPUs and the repeats behind each row's ±
markdown_kernel() {
	jq -r '.context as $c | "Kernel \($c.kernel_release)"
		+ (if $c.kernel_build_id then ", build \($c.kernel_build_id[0:12])"
		   elif $c.kernel_version then ", \($c.kernel_version)" else "" end)
		+ (if $c.tag then ", tag \($c.tag)" else "" end)
		+ "; -p\(.options.runner.producers); \($c.nr_online_cpus) CPUs"
		+ (if .options.runner.repeat > 1 then "; \(.options.runner.repeat) repeats a row (mean ± stddev between them)" else "" end)' "$1"
}
