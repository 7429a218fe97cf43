#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lookup microbenchmarks on the real kernel: each runs, reports a
# positive hit rate with no drops, and leaves nothing loaded.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROGS='hash_lookup|array_lookup|pcpu_hash_lkup|pcpu_array_lkup|lru_hash_lookup'
BENCHS='hash-lookup array-lookup percpu-hash-lookup percpu-array-lookup lru-hash-lookup'
SUMMARY='^Summary: hits +([0-9]+\.[0-9]{3}) ± [0-9]+\.[0-9]{3}M/s \( *([0-9]+\.[0-9]{3})M/prod\), drops +([0-9]+\.[0-9]{3}) ± [0-9]+\.[0-9]{3}M/s, total operations +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s$'

# summary_ok <file> <producers>: hits > 0, hits/prod = hits/producers, no drops
summary_ok() {
	local line

	line=$(grep -E "$SUMMARY" "$1" | tail -n1)
	[ -n "$line" ] || return 1
	sed -E "s#$SUMMARY#\\1 \\2 \\3#" <<< "$line" |
		awk -v p="$2" '{ exit !($1 > 0 && $3 == 0 && ($1 / p - $2) ^ 2 < 0.0001) }'
}

# one run each, and two pinned producers on every map type that shares one
# map among CPUs (each of them runs with one producer in lookup_scripts.t,
# through run_bench_map_lookup.sh, and in results_bpf.t)
for b in $BENCHS; do
	case $b in
	hash-lookup | array-lookup) p=2 opts=(-p2 -a) ;;
	*) p=1 opts=() ;;
	esac
	out=$TEST_TMP/$b
	d="$b${opts[*]:+ ${opts[*]}}"
	rc=0
	run_bench "$out" -w0 -d1 "${opts[@]}" "$b" || rc=$?
	[ "$rc" -eq 0 ] && stderr_clean "$out.err"
	is $? 0 "$d: exit status 0, nothing on stderr but noise warnings"
	stderr_clean "$out.err" || diag "rc $rc: $(head -c 1000 "$out.err")"
	summary_ok "$out" "$p"
	ok $? "$d: positive hit rate, no drops, the per-producer rate is the total over $p"
	diag "$(grep Summary "$out")"
	like "$out" '^Iter +0 \(.*\): hits +[0-9]+\.[0-9]{3}M/s' "$d: a progress line per second"
done

eventually none_loaded "$PROGS"
ok $? "nothing left loaded after the runs"

# consumers are refused before anything is loaded
out=$TEST_TMP/cons
rc=0
run_bench "$out" -c 1 hash-lookup || rc=$?
isnt "$rc" 0 "-c 1 refused"
is "$(wc -l < "$out.err")" 1 "-c 1: one line on stderr"
is "$(wc -c < "$out")" 0 "-c 1: nothing on stdout"
assert "-c 1: nothing loaded" none_loaded "$PROGS"
diag "$(cat "$out.err")"

done_testing
