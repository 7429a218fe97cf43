#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Upstream's run_bench_ringbufs.sh: the BPF ring buffer against perf
# buffers, each read by libbpf's consumer and by a hand-written one, in
# upstream's sections and rows, one line per run, hits (records the
# consumer read) and drops (records that found no room), as upstream's:
#
#   rb-libbpf            5.578 ± 1.569M/s (drops 4.993 ± 0.944M/s)
#
# RUN_BENCH     runner and common options (default "./bench -w3 -d10 -a",
#               relative to the source tree); -c1 is added where upstream's is
# NR_PRODS      producer counts of the multi-producer sections (default
#               upstream's "1 2 3 4 8 12 ... 52")
# SAMPLE_RATES  batch counts = sample rates of the back-to-back sections
#               (default upstream's "1 5 10 25 50 100 250 500 1000 2000 3000")
#
# The last section needs a ring buffer's overwrite mode (Linux 6.19 and
# later): on an older kernel its first row says why and the rest is skipped.
# Exit status 1 if any run failed.

set -uo pipefail

# shellcheck source=benchs/run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

NR_PRODS=${NR_PRODS:-1 2 3 4 8 12 16 20 24 28 32 36 40 44 48 52}
SAMPLE_RATES=${SAMPLE_RATES:-1 5 10 25 50 100 250 500 1000 2000 3000}

# row <name> <bench args...>: one run, upstream's row of its Summary; a
# failed run is a FAILED row with its exit status, then stderr's last line
row() {
	local name=$1 out err s hits rc=0

	shift
	err=$(mktemp) || exit 1
	out=$(run_bench "$@" 2>"$err") || rc=$?
	if [ "$rc" -ne 0 ]; then
		bench_failed "$name" "$rc"
		emit printf '%-*s %s\n' "$NAME_WIDTH" "" "$(tail -n1 "$err")"
	elif s=$(summary_line "$out"); then
		hits=$(field "$s" hits)
		emit printf '%-*s %s (drops %s)\n' "$NAME_WIDTH" "$name" "${hits%% (*}" \
			"$(field "$s" drops)"
	else
		summarize "$name" "$out"
		rc=1
	fi
	rm -f "$err"
	return "$rc"
}

ALL="rb-libbpf rb-custom pb-libbpf pb-custom"

header "Single-producer, parallel producer"
for b in $ALL; do
	row "$b" -c1 "$b"
done

header "Single-producer, parallel producer, sampled notification"
for b in $ALL; do
	row "$b" -c1 --rb-sampled "$b"
done

header "Single-producer, back-to-back mode"
for b in $ALL; do
	row "$b" -c1 --rb-b2b "$b"
	row "$b-sampled" -c1 --rb-sampled --rb-b2b "$b"
done

header "Ringbuf back-to-back, effect of sample rate"
for r in $SAMPLE_RATES; do
	row "rb-sampled-$r" -c1 --rb-b2b --rb-batch-cnt "$r" --rb-sampled --rb-sample-rate "$r" rb-custom
done
header "Perfbuf back-to-back, effect of sample rate"
for r in $SAMPLE_RATES; do
	row "pb-sampled-$r" -c1 --rb-b2b --rb-batch-cnt "$r" --rb-sampled --rb-sample-rate "$r" pb-custom
done

header "Ringbuf back-to-back, reserve+commit vs output"
row "reserve" -c1 --rb-b2b rb-custom
row "output" -c1 --rb-b2b --rb-use-output rb-custom

header "Ringbuf sampled, reserve+commit vs output"
row "reserve-sampled" -c1 --rb-sampled rb-custom
row "output-sampled" -c1 --rb-sampled --rb-use-output rb-custom

header "Single-producer, consumer/producer competing on the same CPU, low batch count"
for b in $ALL; do
	row "$b" -c1 --rb-batch-cnt 1 --rb-sample-rate 1 --prod-affinity 0 --cons-affinity 0 "$b"
done

header "Ringbuf, multi-producer contention"
for p in $NR_PRODS; do
	row "rb-libbpf nr_prod $p" -c1 -p"$p" --rb-batch-cnt 50 rb-libbpf
done

header "Perfbuf, multi-producer"
for p in $NR_PRODS; do
	row "pb-libbpf nr_prod $p" -c1 -p"$p" --rb-batch-cnt 50 --rb-sample-rate 50 pb-libbpf
done

header "Ringbuf, multi-producer contention in overwrite mode, no consumer"
for p in $NR_PRODS; do
	# a failed run ends the section: a kernel without the mode refuses them all
	row "rb-prod nr_prod $p" -p"$p" --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf ||
		break
done

finish
