#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# samples/bpf/map_perf_test's command line on bench's benchmarks:
#
#   run_bench_map_perf.sh [TEST_MASK [PRODUCERS [NR_ENTRIES]]]
#
# TEST_MASK selects tests by bit as map_perf_test's does (4: the hash map
# with BPF_F_NO_PREALLOC; 0 or none: every test; a bit with no test is
# refused), PRODUCERS is its number
# of processes (default 8), NR_ENTRIES the measured maps' max_entries
# (default: each map's own).  Each update test prints map_perf_test's
# lines, one per producer ("0:hash_map_perf kmalloc 302508 events per
# sec"); the lookup tests their Summary.  map_perf_test's fourth argument,
# the syscalls per process, has no equivalent: the runs last RUN_BENCH's
# -d seconds.  RUN_BENCH overrides how bench is run (default
# "./bench -w3 -d10 -a"), e.g. RUN_BENCH="./bench -w1 -d2 -a".
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

# map_perf_test's tests by bit: the benchmark, and whether it takes --nr_entries
TESTS=(hash-prealloc-update percpu-hash-prealloc-update hash-kmalloc-update
	percpu-hash-kmalloc-update lru-hash-common-update lru-hash-percpu-update
	lpm-kmalloc-lookup hash-lookup array-lookup inner-lru-hash-update lru-hash-lookup)
FIXED_SIZE=" hash-lookup array-lookup lru-hash-lookup "

usage() {
	echo "usage: $(basename "$0") [TEST_MASK [PRODUCERS [NR_ENTRIES]]]: $1" >&2
	exit 2
}

uint_arg() {	# uint_arg <name> <value> <max>: a decimal integer in 0..max
	if ! [[ $2 =~ ^[0-9]{1,10}$ ]] || [ "$2" -gt "$3" ]; then
		usage "invalid $1 '$2': expected an integer in 0..$3"
	fi
}

[ $# -le 3 ] || usage "no fourth argument: map_perf_test's syscall count is a duration here (-d in RUN_BENCH)"
mask=${1:-0}
producers=${2:-0}
entries=${3:-0}
uint_arg TEST_MASK "$mask" 4294967295
uint_arg PRODUCERS "$producers" 1024
uint_arg NR_ENTRIES "$entries" 16777216
# as map_perf_test: 0 means every test, and 8 processes; a bit with no
# test would select nothing, or less than was asked for: refused
all=$(((1 << ${#TESTS[@]}) - 1))
if [ $((mask & ~all)) -ne 0 ]; then
	known=
	for bit in "${!TESTS[@]}"; do
		known+="${known:+, }$((1 << bit)) ${TESTS[$bit]}"
	done
	usage "invalid TEST_MASK '$mask': no test for bit(s) $((mask & ~all)); accepted: 0 (every test) or a sum of $known"
fi
[ "$mask" -eq 0 ] && mask=$all
[ "$producers" -eq 0 ] && producers=8

for bit in "${!TESTS[@]}"; do
	[ $((mask >> bit & 1)) -eq 1 ] || continue
	bench=${TESTS[$bit]}
	opts=()
	if [ "$entries" -gt 0 ]; then
		case $FIXED_SIZE in
		*" $bench "*) emit echo "# $bench: its map has a fixed size, NR_ENTRIES does not apply" ;;
		*) opts=(--nr_entries "$entries") ;;
		esac
	fi
	out=$(run_bench -p "$producers" "$bench" "${opts[@]}") || { bench_failed "$bench" $?; continue; }
	lines=$(grep -E '^[0-9]+:|^Failures:' <<<"$out")
	if [ -n "$lines" ]; then
		emit printf '%s\n' "$lines"
	else
		summarize "$bench" "$out"
	fi
done

finish
