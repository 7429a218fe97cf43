#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# local-storage-create for socket storage, then task storage, one line per
# batch size (16, 32, 64), with the hook each storage type ran on:
#
#   batch 16             creates: 30.456 ± 0.507k/s (30.456k/prod), kmallocs/create: 6.08
#
# RUN_BENCH      runner and common options (default "./bench -w3 -d10 -a",
#                relative to the source tree)
# PRODUCERS      producer count (default 1, as the allocator series ran it)
# BATCH_SIZES    batch sizes to run (default "16 32 64")
# STORAGE_TYPES  storage types to run (default "socket task")
#
# --markdown     print, per storage type, the table patch mails carry
#                instead, built from the runs' JSON results (needs jq):
#
#   | batch | creates (k/s) | per producer (k/s) | kmallocs/create | peak memory (MiB) |
#
# --json-dir DIR keep every run's result file, DIR/TYPE-BATCH.json
#                (socket-16.json, task-64.json, ...)

set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

MARKDOWN=0
KEEP_DIR=""
JSON_DIR=""
while [ $# -gt 0 ]; do
	case "$1" in
	--markdown)
		MARKDOWN=1
		shift
		;;
	--json-dir)
		if [ $# -lt 2 ] || [ -z "$2" ]; then
			echo "run_bench_local_storage_create.sh: --json-dir needs a directory" >&2
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
		echo "run_bench_local_storage_create.sh: unknown option '$1' (accepted: --markdown, --json-dir DIR)" >&2
		exit 2
		;;
	esac
done

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

if [ "$MARKDOWN" -eq 1 ]; then
	command -v jq >/dev/null || { echo "run_bench_local_storage_create.sh: --markdown needs jq" >&2; exit 1; }
fi
if [ -n "$KEEP_DIR" ]; then
	if ! mkdir -p "$KEEP_DIR" || [ ! -w "$KEEP_DIR" ]; then
		echo "run_bench_local_storage_create.sh: invalid --json-dir '$KEEP_DIR': cannot write there" >&2
		exit 2
	fi
	JSON_DIR=$KEEP_DIR
else
	# every run writes its result: the hook it ran on is read from there
	JSON_DIR=$(mktemp -d "${TMPDIR:-/tmp}/local-storage-create.XXXXXX")
	trap 'rm -rf "$JSON_DIR"' EXIT
fi

PRODUCERS=${PRODUCERS:-1}
BATCH_SIZES=${BATCH_SIZES:-16 32 64}
STORAGE_TYPES=${STORAGE_TYPES:-socket task}

# "Summary: creates   30.456 ± 0.507k/s ( 30.456k/prod), 6.08 kmallocs/create"
# -> "creates: 30.456 ± 0.507k/s (30.456k/prod), kmallocs/create: 6.08"
lsc_line() {
	local name=$1 out=$2 s creates kmallocs errs

	if ! s=$(summary_line "$out"); then
		emit printf '%-*s no Summary line in the output\n' "$NAME_WIDTH" "$name"
		BENCH_FAILURES=$((BENCH_FAILURES + 1))
		return
	fi
	creates=$(field "$s" creates | sed 's/( /(/')
	kmallocs=$(grep -Eo '[0-9.]+ kmallocs/create$' <<<"$s" | cut -d' ' -f1)
	# creation errors must not go unseen: carry upstream's errors line
	errs=$(grep -E '^[a-z_]+\(\) errors [0-9]+ create_errs [0-9]+$' <<<"$out" | sed 's/^/, FAILED: /')
	emit printf '%-*s creates: %s, kmallocs/create: %s%s\n' "$NAME_WIDTH" "$name" \
		"${creates:-?}" "${kmallocs:-?}" "$errs"
}

# markdown_row <batch> <json>: one table row from a run's JSON results;
# kmallocs/create is upstream's ratio of the measured samples' sums
markdown_row() {
	jq -r --arg b "$1" '
		def f: if . == null then "n/a" else (. * 100 | round / 100 | tostring
			| if test("\\.") then . else . + ".0" end
			| if test("\\.[0-9]$") then . + "0" else . end) end;
		def pad($n): . + " " * ($n - length);
		[.samples[] | select(.warmup | not)] as $s |
		(([$s[] | .metrics.kmallocs_per_create * .counters.hits] | add) /
		 ([$s[] | .counters.hits] | add)) as $k |
		"| \($b | pad(5)) | \(.summary.metrics.creates.mean | f | pad(13)) | \(.summary.metrics.creates_per_prod.mean | f | pad(18)) | \($k | f | pad(15)) | \(.summary.peak_memory_mib | f | pad(17)) |"
		+ (if .counts.create_errors + .counts.object_errors > 0 then
			" FAILED: \(.counts.object_errors) object and \(.counts.create_errors) storage creations" else "" end)' "$2"
}

markdown_header() {
	emit echo "| batch | creates (k/s) | per producer (k/s) | kmallocs/create | peak memory (MiB) |"
	emit echo "| --    | --            | --                 | --              | --                |"
}

# the hook of the first run of a storage type that has a result file
hook_of() {
	local b

	for b in $BATCH_SIZES; do
		[ -f "$JSON_DIR/$1-$b.json" ] || continue
		jq -r '.options.benchmark.hook' "$JSON_DIR/$1-$b.json"
		return
	done
	echo "?"
}

lsc_storage_type() {
	local type=$1 b out status json

	local rows="" first=""

	for b in $BATCH_SIZES; do
		json=$JSON_DIR/$type-$b.json
		# a failed run must not leave the last run's file looking like its own
		rm -f "$json"
		# the hook line and warnings go under the table, not between its rows
		out=$(run_bench --json "$json" local-storage-create -p "$PRODUCERS" \
			--storage-type "$type" --batch-size "$b" 2>"$JSON_DIR/$type-$b.err")
		status=$?
		grep -v '^hook: ' "$JSON_DIR/$type-$b.err" >&2
		rm -f "$JSON_DIR/$type-$b.err"
		if [ "$status" -ne 0 ]; then
			bench_failed "batch $b" "$status"
			continue
		fi
		if [ "$MARKDOWN" -eq 1 ]; then
			[ -n "$first" ] || first=$json
			rows+=$(markdown_row "$b" "$json")$'\n' || bench_failed "batch $b" "$? from jq"
		else
			lsc_line "batch $b" "$out"
		fi
	done
	if [ "$MARKDOWN" -eq 1 ]; then
		# the kernel line needs a run's result: the table follows the runs
		[ -z "$first" ] || emit printf '%s\n\n' "$(markdown_kernel "$first")"
		markdown_header
		[ -z "$rows" ] || emit printf '%s' "$rows"
		emit echo
	fi
	emit printf '%s storage on %s, %s producer(s)\n' "$type" "$(hook_of "$type")" "$PRODUCERS"
}

n=0
for type in $STORAGE_TYPES; do
	n=$((n + 1))
	if [ "$MARKDOWN" -eq 1 ]; then
		[ "$n" -gt 1 ] && emit echo
		emit printf '(%d) --storage-type %s\n\n' "$n" "$type"
	else
		header "$type storage"
	fi
	lsc_storage_type "$type"
done

finish
