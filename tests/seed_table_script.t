#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_seed_table.sh on this machine (no -k): bad arguments
# refused with one line and status 2; a short run of two use cases gives
# one table per flavour, whose figures are the runs' own and add up (the
# average is stat + unstat, no_op's stat - no_op is 0), and -o keeps the
# result files.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

SCRIPT=$SRC_TOP/benchs/run_bench_seed_table.sh

# ---- bad arguments: status 2, one line naming the value, nothing run ----
bad() {	# bad <expected stderr regex> <args...>
	local want=$1

	shift
	"$SCRIPT" "$@" >"$TEST_TMP/bad" 2>"$TEST_TMP/bad.err"
	is "$?" 2 "$*: exit 2"
	is "$(wc -l <"$TEST_TMP/bad.err")" 1 "$*: one line on stderr"
	like "$TEST_TMP/bad.err" "$want" "$*: it names the value"
	is "$(wc -c <"$TEST_TMP/bad")" 0 "$*: nothing on stdout"
}
bad "invalid -k: 3 kernels given, at most 2 accepted" -k a -k b -k c
bad "invalid use case 'bogus' in -u: expected no_op, overwrite" -u "no_op bogus"
bad "invalid -c '0': expected an integer in 1..256" -c 0
bad "invalid -d 'x': expected an integer in 1..3600" -d x
bad "unknown option '-z'" -z
bad "invalid -o '/proc/nope': cannot write there" -o /proc/nope

# ---- a short run here ----
out=$TEST_TMP/table
BENCH=$BENCH "$SCRIPT" -w0 -d1 -p2 -u "no_op overwrite" -o "$TEST_TMP/keep" >"$out" 2>"$out.err"
is "$?" 0 "-w0 -d1 -p2 -u 'no_op overwrite': exit 0"
is "$(cd "$TEST_TMP/keep/local" && echo *.json)" \
	"bpf-ma-no_op.json bpf-ma-overwrite.json prealloc-no_op.json prealloc-overwrite.json" \
	"-o: the runs' result files kept"
is "$(grep -c '^| name | loop (k/s) | average memory (MiB) | peak memory (MiB) | stat (MiB) | unstat (MiB) | stat - no_op (MiB) | stat.s parts (MiB) |$' "$out")" 2 \
	"one table per flavour, the seed's columns and the split"
like "$out" '^this machine: preallocated$' "the preallocated table's title"
like "$out" '^this machine: normal bpf memory allocator$' "the BPF allocator's"
like "$out" '^Kernel [^;]+; -p2; [0-9]+ CPUs; -w0 -d1$' "each table says the kernel, -p and the CPUs"
for fl in prealloc bpf-ma; do
	for u in no_op overwrite; do
		j=$TEST_TMP/keep/local/$fl-$u.json
		row=$(jq -r '.summary.metrics | "\(.memory.mean * 100 | round)"' "$j")
		line=$(grep "^| $u | " "$out" | sed -n "$([ "$fl" = prealloc ] && echo 1 || echo 2)p")
		IFS='|' read -r _ _ _ avg _ stat unstat minus parts _ <<<"$line"
		avg=${avg%% ±*}
		c() { awk -v x="$1" 'BEGIN { printf "%d", (x < 0 ? x * 100 - 0.5 : x * 100 + 0.5) }'; }
		is "$(c "$avg")" "$row" "$fl $u: the average is the run's memory mean"
		d=$(( $(c "$stat") + $(c "$unstat") - $(c "$avg") ))
		ok "$([ "${d#-}" -le 1 ]; echo $?)" "$fl $u: stat + unstat is the average, to the last digit ($line)"
		like <(echo "$parts") '^ anon [0-9.]+ \+ file [0-9.]+ \+ (kmem|kernel) [0-9.]+' "$fl $u: the parts"
		[ "$u" = no_op ] && is "${minus// /}" 0.00 "$fl no_op: stat - no_op is 0.00"
	done
done
like "$out.err" '^no_op +per-prod-op: ' "the runs' own lines on stderr"

done_testing
