#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Upstream's local storage table: hash map lookups (the control) for a
# growing number of keys used, then task storage gets, sequential and
# interleaved, for a growing number of maps:
#
#   Local Storage
#   =============
#           num_maps: 17
#   local_storage cache sequential  get:  hits throughput: 4.046 ± 0.102 M ops/s, hits latency: 247.142 ns/op, important_hits throughput: 0.238 ± 0.006 M ops/s
#
# RUN_BENCH  runner and common options (default "./bench", upstream's
#            defaults -w1 -d5 unpinned, relative to the source tree)
# NUM_KEYS   --hashmap_nr_keys_used values (default "10 1000 10000 100000 4194304";
#            empty: no hash map runs)
# NUM_MAPS   --nr_maps values (default "1 10 16 17 24 32 100 1000")
#
# Each hashmap-control run fills a 4M-entry hash map first (about 320 MiB).

set -uo pipefail

RUN_BENCH=${RUN_BENCH:-./bench}
# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

NUM_KEYS=${NUM_KEYS-10 1000 10000 100000 4194304}
NUM_MAPS=${NUM_MAPS-1 10 16 17 24 32 100 1000}

# row <name> <bench args...>: one run, its row or its failure
row() {
	local name=$1 out status

	shift
	out=$(run_bench "$@")
	status=$?
	if [ "$status" -ne 0 ]; then
		bench_failed "$name" "$status"
		return
	fi
	summarize_local_storage "$name" "$out"
}

header "Hashmap Control"
for i in $NUM_KEYS; do
	subtitle "num keys: $i"
	row "hashmap (control) sequential    get: " --nr_maps 1 --hashmap_nr_keys_used="$i" \
		local-storage-cache-hashmap-control
	emit printf '\n'
done

header "Local Storage"
for i in $NUM_MAPS; do
	subtitle "num_maps: $i"
	row "local_storage cache sequential  get: " --nr_maps "$i" local-storage-cache-seq-get
	row "local_storage cache interleaved get: " --nr_maps "$i" local-storage-cache-int-get
	emit printf '\n'
done

finish
