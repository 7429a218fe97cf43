#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A producer sweep: run one benchmark pinned (-a) at 1, 2, 4, ... producers
# up to MAX (and MAX itself), keep one result file per point, print the
# scaling table and, with --plot, draw the scaling chart.
#
#   run_bench_scaling.sh [-P MAX] [-o DIR] [--plot FILE] BENCH [BENCH OPTIONS]
#
#   -P MAX        largest producer count (default: the CPUs this process may use)
#   -o DIR        where the result files go, pN.json per point (default: a new
#                 directory under $TMPDIR, named at the end)
#   --plot FILE   also draw the chart: .svg, .png, .txt, or - for text
#
# RUN_BENCH    runner and common options (default "./bench -w3 -d10 -a",
#              relative to the source tree), as for the other wrappers
#
#   producers    per-producer (k/s)      stddev     total (k/s)  efficiency  samples
#           1                54.123  ±    1.234          54.123      100.0%       10

set -uo pipefail

usage() {
	echo "usage: run_bench_scaling.sh [-P MAX] [-o DIR] [--plot FILE] BENCH [BENCH OPTIONS]" >&2
	exit 2
}

abspath() {
	case "$1" in
	/* | -) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}

MAX=""
DIR=""
PLOT=""
while [ $# -gt 0 ]; do
	case "$1" in
	-P)
		[ $# -ge 2 ] || usage
		MAX=$2
		shift 2
		;;
	-o)
		[ $# -ge 2 ] || usage
		DIR=$(abspath "$2")
		shift 2
		;;
	--plot)
		[ $# -ge 2 ] || usage
		PLOT=$(abspath "$2")
		shift 2
		;;
	-h | --help)
		sed -n '4,19{ s/^# \{0,1\}//p }' "$0"
		exit 0
		;;
	-*)
		echo "run_bench_scaling.sh: unknown option '$1' (accepted: -P MAX, -o DIR, --plot FILE)" >&2
		exit 2
		;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
BENCH_NAME=$1
shift

if [ -z "$MAX" ]; then
	MAX=$(nproc 2>/dev/null || echo 1)
fi
if ! [[ "$MAX" =~ ^[0-9]+$ ]] || [ "$MAX" -lt 2 ] || [ "$MAX" -gt 1024 ]; then
	echo "run_bench_scaling.sh: invalid -P '$MAX': expected a producer count in 2..1024 (a sweep needs two points)" >&2
	exit 2
fi

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

if [ -z "$DIR" ]; then
	DIR=$(mktemp -d "${TMPDIR:-/tmp}/scaling-$BENCH_NAME.XXXXXX") || exit 1
elif ! mkdir -p "$DIR"; then
	echo "run_bench_scaling.sh: cannot create the output directory '$DIR'" >&2
	exit 2
fi

# the bench that draws: the runner RUN_BENCH names, whatever wraps it
plot_bench() {
	local -a cmd
	local w

	read -r -a cmd <<<"$RUN_BENCH"
	for w in "${cmd[@]}"; do
		if [ "$(basename -- "$w")" = bench ] && [ -x "$w" ]; then
			echo "$w"
			return
		fi
	done
	echo ./bench
}

counts=()
for ((p = 1; p < MAX; p *= 2)); do
	counts+=("$p")
done
counts+=("$MAX")

files=()
for p in "${counts[@]}"; do
	json="$DIR/p$p.json"
	rm -f "$json"
	out=$(run_bench --json "$json" -a -p "$p" "$BENCH_NAME" "$@")
	status=$?
	if [ "$status" -ne 0 ]; then
		bench_failed "producers $p" "$status"
		continue
	fi
	s=$(summary_line "$out") || s="(no Summary line)"
	printf 'producers %-4s %s\n' "$p" "${s#Summary: }" >&2
	files+=("$json")
done

if [ ${#files[@]} -lt 2 ]; then
	echo "run_bench_scaling.sh: fewer than two points measured: no scaling table" >&2
	exit 1
fi

PLOT_BENCH=$(plot_bench)
header "$BENCH_NAME${*:+ $*} scaling, pinned (-a), result files in $DIR"
"$PLOT_BENCH" plot scaling --table "${files[@]}" || BENCH_FAILURES=$((BENCH_FAILURES + 1))
if [ -n "$PLOT" ]; then
	"$PLOT_BENCH" plot scaling "${files[@]}" -o "$PLOT" || BENCH_FAILURES=$((BENCH_FAILURES + 1))
fi

finish
