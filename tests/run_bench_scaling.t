#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_scaling.sh end to end with count-local (no BPF) and a
# short RUN_BENCH, started from another directory.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

SCRIPT=$SRC_TOP/benchs/run_bench_scaling.sh
out=$TEST_TMP/sweep

# The two sweeps go side by side (par_start): each writes a directory of
# its own (pts, pts3 and chart.txt), its runs one at a time, and no check
# reads a figure's size, only the table's shape and that its numbers are
# its own run's.
# -d2: the table's sample count (2) says RUN_BENCH's options reached the
# runs; nothing here reads a warm-up
par_start "$out" env -C "$TEST_TMP" RUN_BENCH="$BENCH -w0 -d2" "$SCRIPT" -P 4 -o pts count-local
# with --plot, and a MAX that is not a power of two
par_start "$out.3" env -C "$TEST_TMP" RUN_BENCH="$BENCH -w0 -d1" "$SCRIPT" -P 3 -o pts3 --plot chart.txt count-local

par_wait "$out"
is $? 0 "a sweep to -P 4 from another directory: exit 0"
is "$(cd "$TEST_TMP/pts" && echo p*.json)" "p1.json p2.json p4.json" "one result file per point: p1, p2, p4"
for p in 1 2 4; do
	jq -e ".options.runner.producers == $p and .options.runner.affinity == true" \
		"$TEST_TMP/pts/p$p.json" >/dev/null
	ok $? "p$p.json: $p producers, pinned"
done
like "$out" '^producers +per-producer \(M/s\) +stddev +total \(M/s\) +efficiency +samples$' \
	"the scaling table's header"
like "$out" '^ +1 +[0-9.]+ +± +[0-9.]+ +[0-9.]+ +100\.0% +2$' "1 producer: 100% efficiency"
for p in 2 4; do
	like "$out" "^ +$p +[0-9.]+ +± +[0-9.]+ +[0-9.]+ +[0-9.]+% +2\$" "$p producers: a row"
done
# the table's numbers are the JSON's
m=$(jq -r '.summary.metrics.hits_per_prod.mean' "$TEST_TMP/pts/p2.json")
like "$out" "^ +2 +$(printf '%.3f' "$m") " "the 2-producer rate is the run's mean ($m)"
like "$out.err" '^producers 4 +hits ' "each point's Summary on stderr"

# (the sweep with --plot: started above)
par_wait "$out.3"
is $? 0 "-P 3 --plot chart.txt: exit 0"
is "$(cd "$TEST_TMP/pts3" && echo p*.json)" "p1.json p2.json p3.json" "-P 3 runs 1, 2 and 3 producers"
if command -v gnuplot >/dev/null; then
	like "$TEST_TMP/chart.txt" 'count-local scaling: hits against producers' "--plot draws the chart"
else
	skip "gnuplot not installed" "--plot draws the chart"
fi

# bad input
"$SCRIPT" -P 1 count-local >/dev/null 2>"$out.bad"
is $? 2 "-P 1: exit 2"
like "$out.bad" "invalid -P '1': expected a producer count in 2..1024" "-P 1: says why"
"$SCRIPT" -P 2 >/dev/null 2>"$out.bad"
is $? 2 "no benchmark: exit 2"
"$SCRIPT" --bogus count-local >/dev/null 2>"$out.bad"
is $? 2 "an unknown option: exit 2"
(cd "$TEST_TMP" && RUN_BENCH="$BENCH -w0 -d1 --bogus" "$SCRIPT" -P 2 -o ptsx count-local) \
	>"$out.x" 2>"$out.x.err"
isnt $? 0 "failing runs make the sweep fail"
like "$out.x" '^producers 1 +FAILED \(exit [0-9]+\)$' "the failing point is named"

done_testing
