#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_latency_overhead.sh's arithmetic, with a stand-in for
# the runner that writes known rates: the ratio of the means and the paired
# ratio with its interval, checked against values computed by hand.  No BPF,
# no timing.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

SCRIPT=$SRC_TOP/benchs/run_bench_latency_overhead.sh
STUB=$TEST_TMP/fake-bench
RATES=$TEST_TMP/rates

# fake-bench -q --json FILE [--latency] ARGS...: the next rate from $RATES
# (one per line, consumed in order) as the run's per_prod_op and hits
cat >"$STUB" <<'STUB'
#!/bin/bash
out=""
while [ $# -gt 0 ]; do
	[ "$1" = --json ] && { out=$2; shift; }
	shift
done
r=$(head -n1 "$RATES") || exit 1
[ -n "$r" ] || { echo "fake-bench: no rate left" >&2; exit 3; }
sed -i 1d "$RATES"
[ "$r" = fail ] && exit 4
printf '{"summary":{"metrics":{"per_prod_op":{"mean":%s},"hits":{"mean":%s}}}}\n' "$r" "$r" >"$out"
STUB
chmod +x "$STUB"
export RATES

# three benchmarks x 3 rounds x (off, on), in the order the script runs them
printf '%s\n' 93.10 91.20 93.40 91.50 93.30 91.00 \
	100 100 100 100 100 100 \
	10 9 20 19 30 27 >"$RATES"
ROUNDS=3 RUN_BENCH="$STUB" "$SCRIPT" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
is $? 0 "three benchmarks measured: exit 0"
like "$TEST_TMP/out" '^htab-mem overwrite bpf-ma +off 93\.10 93\.40 93\.30  on 91\.20 91\.50 91\.00  ratio 0\.978  paired 0\.978 \(95% CI 0\.972\.\.0\.984, 3 rounds\)$' \
	"ratios 0.97959, 0.97966, 0.97535: geometric mean 0.978, t(0.975, 2) = 4.303 on the logs"
like "$TEST_TMP/out" '^htab-mem overwrite prealloc +off 100\.00 100\.00 100\.00  on 100\.00 100\.00 100\.00  ratio 1\.000  paired 1\.000 \(95% CI 1\.000\.\.1\.000, 3 rounds\)$' \
	"identical rates: ratio 1, an interval of width 0"
# ratio of the means 55/60; per round 0.9, 0.95, 0.9: the pairing, not the means
like "$TEST_TMP/out" '^hash-lookup +off 10\.00 20\.00 30\.00  on 9\.00 19\.00 27\.00  ratio 0\.917  paired 0\.916 \(95% CI 0\.848\.\.0\.990, 3 rounds\)$' \
	"the paired ratio weighs every round alike, the ratio of means does not"
is "$(wc -l <"$RATES")" 0 "every rate consumed: 18 runs"


# a failed run: that benchmark FAILED, the others still measured, exit 1
printf '%s\n' 10 fail 10 10 10 10 >"$RATES"
rc=0
ROUNDS=1 RUN_BENCH="$STUB" "$SCRIPT" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || rc=$?
is "$rc" 1 "a run that failed: exit 1"
like "$TEST_TMP/out" '^htab-mem overwrite bpf-ma +FAILED \(exit 4\)$' "its benchmark is marked FAILED with the runner's status"
like "$TEST_TMP/out" '^htab-mem overwrite prealloc +off 10\.00  on 10\.00  ratio 1\.000  paired 1\.000 \(1 round: no interval\)$' \
	"the next benchmark still measured"
like "$TEST_TMP/out" '^hash-lookup +off 10\.00  on 10\.00  ratio 1\.000  paired 1\.000 \(1 round: no interval\)$' \
	"one round: a ratio, and no interval"

done_testing
