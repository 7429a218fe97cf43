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
#
# --markdown   print, per flavour, the table patch mails carry instead,
#              built from the runs' JSON results (needs jq):
#
#   | name                | loop (k/s) | average memory (MiB) | peak memory (MiB) |
#
# --json-dir DIR  keep every run's result file, DIR/FLAVOUR-USE_CASE.json
#              (FLAVOUR: prealloc, bpf-ma), so the table in a mail and the
#              pictures (bench plot) come from the same runs
#
# --repeat N   run each configuration's measured phase N times, each on a
#              fresh map (bench --repeat); the line then gives the mean of
#              the repeat means ± the spread between repeats, and the
#              spread within them:
#
#   overwrite            per-prod-op: 93.56 ± 1.20k/s (8 repeats; within ± 0.30k/s), avg mem: ...

set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

MARKDOWN=0
KEEP_DIR=""
REPEAT=1
JSON_DIR=""
while [ $# -gt 0 ]; do
	case "$1" in
	--markdown)
		MARKDOWN=1
		shift
		;;
	--repeat)
		if [ $# -lt 2 ] || ! [[ "$2" =~ ^[0-9]+$ ]] || [ "$2" -lt 1 ] || [ "$2" -gt 1000 ]; then
			echo "run_bench_htab_mem.sh: invalid --repeat '${2:-}': expected an integer in 1..1000" >&2
			exit 2
		fi
		REPEAT=$2
		shift 2
		;;
	--json-dir)
		if [ $# -lt 2 ] || [ -z "$2" ]; then
			echo "run_bench_htab_mem.sh: --json-dir needs a directory" >&2
			exit 2
		fi
		# before run_common.sh changes into the source tree
		case "$2" in
		/*) KEEP_DIR=$2 ;;
		*) KEEP_DIR=$PWD/$2 ;;
		esac
		shift 2
		;;
	*)
		echo "run_bench_htab_mem.sh: unknown option '$1' (accepted: --markdown, --json-dir DIR, --repeat N)" >&2
		exit 2
		;;
	esac
done
REPEAT_ARGS=()
[ "$REPEAT" -gt 1 ] && REPEAT_ARGS=(--repeat "$REPEAT")

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

if [ "$MARKDOWN" -eq 1 ]; then
	command -v jq >/dev/null || { echo "run_bench_htab_mem.sh: --markdown needs jq" >&2; exit 1; }
fi
if [ -n "$KEEP_DIR" ]; then
	if ! mkdir -p "$KEEP_DIR" || [ ! -w "$KEEP_DIR" ]; then
		echo "run_bench_htab_mem.sh: invalid --json-dir '$KEEP_DIR': cannot write there" >&2
		exit 2
	fi
	JSON_DIR=$KEEP_DIR
elif [ "$MARKDOWN" -eq 1 ]; then
	JSON_DIR=$(mktemp -d "${TMPDIR:-/tmp}/htab-mem.XXXXXX")
	trap 'rm -rf "$JSON_DIR"' EXIT
fi

PRODUCERS=${PRODUCERS:-$(default_producers)}
USE_CASES=${USE_CASES:-overwrite batch_add_batch_del add_del_on_diff_cpu no_op}

htab_mem_line() {
	local name=$1 out=$2 s fails

	if [ "$REPEAT" -gt 1 ]; then
		fails=$(grep -c '^Failures:' <<<"$out")
		[ "$fails" -gt 0 ] && fails=", FAILED map operations in $fails repeats" || fails=""
		s=$(summary_line "$out" "$REPEAT")
		emit printf '%-*s per-prod-op: %s, avg mem: %s, peak mem: %s%s\n' "$NAME_WIDTH" "$name" \
			"$(repeats_field "$out" per_prod_op || echo '?')" \
			"$(repeats_field "$out" memory || echo '?')" \
			"$(field "$s" 'peak memory usage' || echo '?')" \
			"$fails"
		return
	fi
	if ! s=$(summary_line "$out"); then
		emit printf '%-*s no Summary line in the output\n' "$NAME_WIDTH" "$name"
		BENCH_FAILURES=$((BENCH_FAILURES + 1))
		return
	fi
	# a failing allocator must not look fast: carry the bench's warning
	fails=$(grep '^Failures:' <<<"$out" | sed -E 's/^Failures: ([0-9]+) map updates and ([0-9]+) map deletes.*/, FAILED updates: \1, deletes: \2/')
	emit printf '%-*s per-prod-op: %s, avg mem: %s, peak mem: %s%s\n' "$NAME_WIDTH" "$name" \
		"$(field "$s" per-prod-op || echo '?')" \
		"$(field "$s" 'memory usage' || echo '?')" \
		"$(field "$s" 'peak memory usage' || echo '?')" \
		"$fails"
}

# markdown_row <name> <json>: one table row from a run's JSON results; with
# --repeat, the mean of the repeats ± their standard deviation
markdown_row() {
	jq -r --arg name "$1" '
		def f: if . == null then "n/a" else (. * 100 | round / 100 | tostring
			| if test("\\.") then . else . + ".0" end
			| if test("\\.[0-9]$") then . + "0" else . end) end;
		def v: if .repeats then "\(.repeats.mean | f) ± \(.repeats.between_stddev | f)" else .mean | f end;
		"| \($name | . + " " * (19 - length)) | \(.summary.metrics.per_prod_op | v | . + " " * (10 - length)) | \(.summary.metrics.memory | v | . + " " * (20 - length)) | \(.summary.peak_memory_mib | f | . + " " * (17 - length)) |"
		+ (if .summary.fails > 0 then " FAILED operations: \(.summary.fails)" else "" end)' "$2"
}

# markdown_kernel <json>: the line above a table: the kernel the runs ran
# on (release, build, tag), -p and the CPU count, from a run's JSON
markdown_header() {
	emit echo "| name                | loop (k/s) | average memory (MiB) | peak memory (MiB) |"
	emit echo "| --                  | --         | --                   | --                |"
}

htab_mem_flavour() {
	local flavour=$1 name out status json=()

	shift
	local rows=""
	for name in $USE_CASES; do
		# a failed run must not leave the last run's file looking like its own
		[ -n "$JSON_DIR" ] && rm -f "$JSON_DIR/$flavour-$name.json"
		[ -n "$KEEP_DIR" ] && json=(--json "$JSON_DIR/$flavour-$name.json")
		if [ "$MARKDOWN" -eq 1 ]; then
			# the run's warnings go under the table, not between its rows
			json=(--json "$JSON_DIR/$flavour-$name.json")
			out=$(run_bench "${REPEAT_ARGS[@]}" "${json[@]}" htab-mem --use-case "$name" -p "$PRODUCERS" "$@" \
				2>"$JSON_DIR/$flavour-$name.err")
		else
			out=$(run_bench "${REPEAT_ARGS[@]}" "${json[@]}" htab-mem --use-case "$name" -p "$PRODUCERS" "$@")
		fi
		status=$?
		if [ "$MARKDOWN" -eq 1 ]; then
			[ "$status" -ne 0 ] && cat "$JSON_DIR/$flavour-$name.err" >&2
			rm -f "$JSON_DIR/$flavour-$name.err"
		fi
		if [ "$status" -ne 0 ]; then
			bench_failed "$name" "$status"
			continue
		fi
		if [ "$MARKDOWN" -eq 1 ]; then
			rows+=$(markdown_row "$name" "$JSON_DIR/$flavour-$name.json")$'\n' ||
				bench_failed "$name" "$? from jq"
		else
			htab_mem_line "$name" "$out"
		fi
	done
	if [ "$MARKDOWN" -eq 1 ]; then
		local warnings="" w first=""
		for name in $USE_CASES; do
			[ -f "$JSON_DIR/$flavour-$name.json" ] && { first=$JSON_DIR/$flavour-$name.json; break; }
		done
		[ -z "$first" ] || emit printf '%s\n\n' "$(markdown_kernel "$first")"
		markdown_header
		[ -z "$rows" ] || emit printf '%s' "$rows"
		for name in $USE_CASES; do
			[ -f "$JSON_DIR/$flavour-$name.json" ] || continue
			w=$(jq -r --arg n "$name" '.warnings[] | "warning (\($n)): \(.)"' \
				"$JSON_DIR/$flavour-$name.json")
			[ -z "$w" ] || warnings+="$w"$'\n'
		done
		[ -z "$warnings" ] || emit printf '\n%s' "$warnings"
	fi
}

if [ "$MARKDOWN" -eq 1 ]; then
	emit printf '(1) preallocated\nOPTS=--preallocated\n\n'
	htab_mem_flavour prealloc --preallocated
	emit printf '\n(2) bpf memory allocator\nOPTS=\n\n'
	htab_mem_flavour bpf-ma
else
	header "preallocated"
	htab_mem_flavour prealloc --preallocated

	header "normal bpf ma"
	htab_mem_flavour bpf-ma
fi

finish
