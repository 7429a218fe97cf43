#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf-hashmap-lookup across key sizes, then across map sizes, one line
# per run: the lookup rate in M/s of each CPU that ran lookups (with the
# default pinned producer, one number).  RUN_BENCH overrides how bench is
# run, e.g. RUN_BENCH="./bench -w1 -d2 -a".
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

lookup() {	# lookup <label> <bpf-hashmap-lookup options...>
	local label=$1 out

	shift
	out=$(run_bench -q bpf-hashmap-lookup "$@") || { bench_failed "$label" $?; return; }
	# -q prints "cpuNN rate" per CPU, or the bare rate when pinned (-a)
	emit printf '%-40s %s M/s\n' "$label" "$(paste -sd, - <<<"$out" | sed 's/,/, /g')"
}

header "bpf-hashmap-lookup: key size (500 of 1000 entries filled)"
for key_size in 4 8 16 32 64 128; do
	lookup "key_size $key_size" --key_size "$key_size"
done

header "bpf-hashmap-lookup: entries (4-byte keys, map full)"
for nr_entries in 100 1000 10000 100000; do
	lookup "nr_entries $nr_entries, max_entries $nr_entries" \
		--nr_entries "$nr_entries" --max_entries "$nr_entries"
done

finish
