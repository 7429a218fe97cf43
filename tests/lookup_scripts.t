#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lookup wrapper scripts end to end with a short RUN_BENCH, run from
# another directory: one line per configuration, each with a rate.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

BENCHS_DIR=$SRC_TOP/benchs
cd "$TEST_TMP" || exit 1

# The scripts run their configurations one after another; the runs are
# independent, so each is started ahead, side by side (lib.sh's
# shared_ahead), and the scripts, run as they are, get each run's output
# and status from shared_runs' stand-in.  The configurations are the ones
# the checks below name; one the script asks for and none started ahead
# simply runs then.
# 20000 lookups a trigger, not the default million: in make vmtest's
# emulated guests one program run of a million over a 100000-entry map
# could outlast the 1-s run on a busy host, and the kernel's lockup limit
HASH_RUN=$(shared_runs "$TEST_TMP/hashmap.d" -w0 -d1 -a --nr_loops 20000)
MAP_RUN=$(shared_runs "$TEST_TMP/map.d" -w0 -d1 -a)
for ks in 4 8 16 32 64 128; do
	shared_ahead "$HASH_RUN" -q bpf-hashmap-lookup --key_size "$ks"
done
for n in 100 1000 10000 100000; do
	shared_ahead "$HASH_RUN" -q bpf-hashmap-lookup --nr_entries "$n" --max_entries "$n"
done
for b in hash-lookup array-lookup percpu-hash-lookup percpu-array-lookup lru-hash-lookup; do
	shared_ahead "$MAP_RUN" "$b"
done
par_start "$TEST_TMP/hashmap" env RUN_BENCH="$HASH_RUN" "$BENCHS_DIR/run_bench_bpf_hashmap_lookup.sh"
par_start "$TEST_TMP/map" env RUN_BENCH="$MAP_RUN" "$BENCHS_DIR/run_bench_map_lookup.sh"

out=$TEST_TMP/hashmap
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "run_bench_bpf_hashmap_lookup.sh: exit status 0"
[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$out.err")"
diag "$(cat "$out")"
for ks in 4 8 16 32 64 128; do
	like "$out" "^key_size $ks +[0-9]+\\.[0-9]{3} M/s\$" "key_size $ks: one rate"
done
for n in 100 1000 10000 100000; do
	like "$out" "^nr_entries $n, max_entries $n +[0-9]+\\.[0-9]{3} M/s\$" "nr_entries $n: one rate"
done
is "$(grep -c ' M/s$' "$out")" 10 "exactly 10 result lines"
is "$(awk '/ M\/s$/ && $(NF - 1) > 0 { n++ } END { print n + 0 }' "$out")" 10 "every rate positive"

out=$TEST_TMP/map
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "run_bench_map_lookup.sh: exit status 0"
[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$out.err")"
diag "$(cat "$out")"
for b in hash-lookup array-lookup percpu-hash-lookup percpu-array-lookup lru-hash-lookup; do
	like "$out" "^$b +[0-9]+\\.[0-9]{3} ± [0-9]+\\.[0-9]{3}M/s \\(drops 0\\.000 ± 0\\.000M/s\\)\$" \
		"$b: one line with a hit rate and no drops"
done
is "$(grep -c 'M/s (drops' "$out")" 5 "exactly 5 result lines"
is "$(awk '/M\/s \(drops/ && $2 > 0 { n++ } END { print n + 0 }' "$out")" 5 "every rate positive"

# a failing bench fails the script instead of printing an empty line
for s in run_bench_bpf_hashmap_lookup.sh run_bench_map_lookup.sh; do
	rc=0
	RUN_BENCH="$BENCH -w0 -d1 -c 1" "$BENCHS_DIR/$s" >"$out" 2>"$out.err" || rc=$?
	isnt "$rc" 0 "$s: a failing bench fails the script"
	like "$out.err" consumers "$s: the bench's reason passes through"
done

# a write to stdout that fails (a full disk) fails the script, saying so,
# even when every bench succeeded (a stand-in bench: no BPF needed here)
for script in run_bench_map_lookup.sh run_bench_bpf_hashmap_lookup.sh; do
	RUN_BENCH="echo Summary: hits 1.000 ± 0.000M/s (1.000M/prod), drops 0.000 ± 0.000M/s" \
		"$BENCHS_DIR/$script" >/dev/null 2>"$TEST_TMP/ok.err"
	is $? 0 "$script with a stand-in bench: exit 0 (so the next check means something)"
	RUN_BENCH="echo Summary: hits 1.000 ± 0.000M/s (1.000M/prod), drops 0.000 ± 0.000M/s" \
		"$BENCHS_DIR/$script" >/dev/full 2>"$TEST_TMP/full.err"
	isnt $? 0 "$script >/dev/full: non-zero exit"
	like "$TEST_TMP/full.err" "^$script: failed to write standard output: the results are incomplete\$" \
		"$script >/dev/full: says so"
done
# the runs started ahead (their statuses reached the scripts above)
par_wait_all

done_testing
