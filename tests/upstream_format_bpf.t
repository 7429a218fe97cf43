#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream_format.t for BPF benchmarks: upstream's extractors
# (tests/upstream_helpers.sh) on a map lookup benchmark's hits/drops output
# and on htab-mem's, which keeps upstream's htab-mem format.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=tests/upstream_helpers.sh
source "$(dirname "$0")/upstream_helpers.sh"
require_bpf

NUM='[0-9]+\.[0-9]+'

out=$TEST_TMP/hash
run_bench "$out" -w0 -d2 hash-lookup
is $? 0 "hash-lookup: exit status 0"
s=$(grep '^Summary:' "$out")
diag "$s"
h=$(sed -nE "s/^Summary: hits +($NUM ± ${NUM}M\\/s) .*/\\1/p" <<<"$s")
dr=$(sed -nE "s/.*, drops +($NUM ± ${NUM}M\\/s), .*/\\1/p" <<<"$s")
t=$(sed -nE "s/.*, total operations +($NUM ± ${NUM}M\\/s)\$/\\1/p" <<<"$s")
is "hits ${h:+found}, drops ${dr:+found}, total ${t:+found}" "hits found, drops found, total found" \
	"hash-lookup: Summary has hits, drops and total operations"
is "$(up_summarize hash-lookup "$(cat "$out")")" "$(printf '%-20s %s (drops %s)' hash-lookup "$h" "$dr")" \
	"hash-lookup: upstream's summarize() extracts our hits and drops"
is "$(up_summarize_total hash-lookup "$(cat "$out")")" "$(printf '%-20s %s' hash-lookup "$t")" \
	"hash-lookup: upstream's summarize_total() extracts our total operations"

out=$TEST_TMP/htab
run_bench "$out" -w1 -d2 -p1 htab-mem --use-case overwrite
is $? 0 "htab-mem: exit status 0"
s=$(grep '^Summary:' "$out")
diag "$s"
op=$(sed -nE "s/^Summary: per-prod-op +($NUM) ± +($NUM)k\\/s, .*/\\1 ± \\2k\\/s/p" <<<"$s")
mem=$(sed -nE "s/.*, memory usage +($NUM) ± +($NUM)MiB, .*/\\1 ± \\2MiB/p" <<<"$s")
peak=$(sed -nE "s/.*, peak memory usage +($NUM)MiB\$/\\1MiB/p" <<<"$s")
is "per-prod-op ${op:+found}, memory ${mem:+found}, peak ${peak:+found}" "per-prod-op found, memory found, peak found" \
	"htab-mem: Summary has per-prod-op, memory usage and peak memory usage"
is "$(up_summarize_htab_mem overwrite "$(cat "$out")")" \
	"$(printf '%-20s per-prod-op : %s, avg mem: %s, peak mem: %s' overwrite "$op" "$mem" "$peak")" \
	"htab-mem: upstream's summarize_htab_mem() extracts our figures"

done_testing
