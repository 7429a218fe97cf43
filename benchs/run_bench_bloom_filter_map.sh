#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Upstream's sweep of the bloom filter benchmarks, in upstream's lines:
# bloom-lookup, bloom-update and bloom-false-positive for every value size,
# producer count, hash function count and entry count, then
# hashmap-without-bloom against hashmap-with-bloom at 8 producers:
#
#	value_size: 8 bytes, # threads: 1, # hashes: 3
#   10,000 entries -
#	Lookups, total operations:  11.574 ± 0.409M/s (drops 0.000 ± 0.000M/s)
#	Updates, total operations:  9.039 ± 4.219M/s (drops 0.000 ± 0.000M/s)
#	False positive rate:  2.87%
#
# and, at the end, the hook the runs ran on (upstream's fentry, or the
# syscall's tracepoint where this kernel refuses fentry).  Upstream's whole
# sweep is 2500 configurations of three runs and 500 of two: more than a
# day at the default RUN_BENCH.  Narrow it with:
#
# RUN_BENCH        runner and common options (default "./bench -w3 -d10 -a",
#                  relative to the source tree)
# VALUE_SIZES      --value_size values (default "2 4 8 16 40")
# THREADS          producer counts of the bloom runs (default "1 4 8 12 16")
# HASHES           --nr_hash_funcs values (default "1 2 3 4 5 6 7 8 9 10")
# ENTRIES          --nr_entries values (default upstream's ten, 10000..5000000)
# HASHMAP_THREADS  producer count of the hash map runs (default 8)
#
# A run that fails prints "NAME FAILED (exit N)" in its row and the script
# goes on; its exit status is then 1.

set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

if [ $# -gt 0 ]; then
	echo "run_bench_bloom_filter_map.sh: unknown option '$1' (it takes none but -h, --help: see its environment variables)" >&2
	exit 2
fi

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

VALUE_SIZES=${VALUE_SIZES:-2 4 8 16 40}
THREADS=${THREADS:-1 4 8 12 16}
HASHES=${HASHES:-1 2 3 4 5 6 7 8 9 10}
ENTRIES=${ENTRIES:-10000 50000 75000 100000 250000 500000 750000 1000000 2500000 5000000}
HASHMAP_THREADS=${HASHMAP_THREADS:-8}

ERR=$(mktemp "${TMPDIR:-/tmp}/bloom-filter-map.XXXXXX") || exit 1
trap 'rm -f "$ERR"' EXIT
HOOK=""

subtitle() {
	emit printf '\t%s\n' "$1"
}

# bloom_run <label> <what> <bench args...>: one run, one row; <what> picks
# the figure upstream's row shows: hits (and drops), percentage or total
bloom_run() {
	local label=$1 what=$2 out status s row
	shift 2

	emit printf '\t'
	out=$(run_bench "$@" 2>"$ERR")
	status=$?
	# the hook once, at the end, and other warnings as they come
	[ -n "$HOOK" ] || HOOK=$(grep -m1 '^hook: ' "$ERR")
	grep -v '^hook: ' "$ERR" >&2
	if [ "$status" -ne 0 ]; then
		bench_failed "$label" "$status"
		return
	fi
	s=$(summary_line "$out") || s=""
	case $what in
	hits)
		row=$(sed -nE 's/.*hits +([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*drops +([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1 (drops \2)/p' <<<"$s") ;;
	percentage)
		row=$(sed -nE 's/.*Percentage = +([0-9]+\.[0-9]+) %$/\1%/p' <<<"$s") ;;
	total)
		row=$(sed -nE 's/.*total operations +([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/p' <<<"$s") ;;
	esac
	if [ -z "$row" ]; then
		emit printf '%-*s no Summary line in the output\n' "$NAME_WIDTH" "$label"
		BENCH_FAILURES=$((BENCH_FAILURES + 1))
		return
	fi
	emit printf '%-*s %s\n' "$NAME_WIDTH" "$label" "$row"
}

header "Bloom filter map"
for v in $VALUE_SIZES; do
for t in $THREADS; do
for h in $HASHES; do
	subtitle "value_size: $v bytes, # threads: $t, # hashes: $h"
	for e in $ENTRIES; do
		emit printf "%'d entries -\n" "$e"
		opts=(--nr_hash_funcs "$h" --nr_entries "$e" --value_size "$v")
		bloom_run "Lookups, total operations: " hits -p "$t" "${opts[@]}" bloom-lookup
		bloom_run "Updates, total operations: " hits -p "$t" "${opts[@]}" bloom-update
		bloom_run "False positive rate: " percentage -p "$t" "${opts[@]}" bloom-false-positive
	done
	emit printf '\n'
done
done
done

header "Hashmap without bloom filter vs. hashmap with bloom filter (throughput, $HASHMAP_THREADS threads)"
for v in $VALUE_SIZES; do
for h in $HASHES; do
	subtitle "value_size: $v, # hashes: $h"
	for e in $ENTRIES; do
		emit printf "%'d entries -\n" "$e"
		opts=(--nr_hash_funcs "$h" --nr_entries "$e" --value_size "$v" -p "$HASHMAP_THREADS")
		bloom_run "Hashmap without bloom filter: " total "${opts[@]}" hashmap-without-bloom
		bloom_run "Hashmap with bloom filter: " total "${opts[@]}" hashmap-with-bloom
	done
	emit printf '\n'
done
done

emit printf '%s\n' "${HOOK:-hook: unknown (no run said)}"
finish
