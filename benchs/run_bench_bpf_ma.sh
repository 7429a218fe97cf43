#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf_ma as its posted series measured it:
#	for i in 1 4 8; do ./bench -w3 -d10 bpf_ma -p${i} -a [--percpu]; done | grep Summary
# one line per producer count, kmalloc'ed objects first, then --percpu.
# RUN_BENCH overrides how bench is run (default "./bench -w3 -d10 -a"),
# PRODUCERS the producer counts (default "1 4 8"); any other arguments go
# to bpf_ma (e.g. --obj-size 256).
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

read -r -a producers <<<"${PRODUCERS:-1 4 8}"
for flavour in "" --percpu; do
	header "bpf_ma${flavour:+ $flavour}${*:+ $*}"
	for p in "${producers[@]}"; do
		name="-p$p"
		out=$(run_bench "-p$p" bpf_ma $flavour "$@") || { bench_failed "$name" $?; continue; }
		summarize "$name" "$out"
	done
done

finish
