#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem at the seed's scale (-p8 -a, and -p16): every use case in both
# flavours runs, fails no map operation (batch_add_batch_del and
# add_del_on_diff_cpu add with BPF_NOEXIST, so slices that overlapped or a
# pair out of turn would fail), prints a per-producer line for each
# producer, each of which ran, keeps add_del_on_diff_cpu's pairs in step
# (adder and deleter within one operation of each other), and reads memory
# at every sample.  On this machine the producers share its CPUs; in an
# 8-vCPU guest (scripts/vmtest.sh -c 8 -- prove tests/htab_mem_scale.t,
# docs/testing.md) each has its own.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

CASES="no_op overwrite batch_add_batch_del add_del_on_diff_cpu"
RUNS=()
for p in 8 16; do
	for fl in prealloc bpf-ma; do
		opt=()
		[ "$fl" = prealloc ] && opt=(--preallocated)
		for u in $CASES; do
			# -p16 for the cases whose slices and pairs depend on the count
			[ "$p" = 16 ] && [ "$u" != batch_add_batch_del ] && [ "$u" != add_del_on_diff_cpu ] &&
				continue
			RUNS+=("$p $fl $u")
			par_case "p$p $fl $u" -a -p"$p" --per-producer --min-cpu-share 0 \
				htab-mem --use-case "$u" "${opt[@]}"
		done
	done
done
par_wait_all

for run in "${RUNS[@]}"; do
	read -r p fl u <<<"$run"
	name="-p$p $fl $u"
	out=$TEST_TMP/p${p}_${fl}_$u
	j=$out.json
	is "${PAR_STATUS[$out]}" 0 "$name: exits 0"
	[ -s "$j" ] || { diag "$(cat "$out.err")"; continue; }
	is "$(jq -r '.summary.fails' "$j")" 0 "$name: no failed map operation"
	is "$(jq -r '[.per_producer.producers[] | select(.count > 0)] | length' "$j")" "$p" \
		"$name: per_producer: $p producers, each of which ran"
	is "$(grep -cE '^  producer +[0-9]+ \(CPU +[0-9]+\): +[0-9.]+$' "$out")" "$p" \
		"$name: one per-producer line each"
	ok "$(jq -e --argjson p "$p" '[.samples[] | select(.warmup | not)] | length > 0 and
		all(.counters.prod_hits | length == $p) and all(.counters.mem_bytes != null) and
		all(.counters.mem_stat_bytes | (.memory_stat == null) or (.memory_stat >= 0))' \
		"$j" >/dev/null; echo $?)" "$name: every measured sample has each producer's hits and the memory"
	if [ "$u" = add_del_on_diff_cpu ]; then
		ok "$(jq -e '[.per_producer.producers | range(0; length; 2) as $i |
			(.[$i].count - .[$i + 1].count) | fabs <= 1] | all' "$j" >/dev/null; echo $?)" \
			"$name: each adder and its deleter within one operation of each other"
	fi
done

done_testing
