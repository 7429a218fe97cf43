#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_ringbufs.sh with a stand-in for the bench (no BPF, no
# waiting): upstream's sections in upstream's order, the options each row
# passes, upstream's row format (its own summarize(), re-typed in
# upstream_helpers.sh, gives the same line), a failed run as a FAILED row,
# and the overwrite section ended by its first failure.  ringbufs.t runs
# the benchmarks themselves.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=tests/upstream_helpers.sh
source "$(dirname "$0")/upstream_helpers.sh"

SCRIPT=$SRC_TOP/benchs/run_bench_ringbufs.sh
STANDIN=$TEST_TMP/standin
SUMMARY='Summary: hits    5.578 ± 1.569M/s (  5.578M/prod), drops    4.993 ± 0.944M/s, total operations   10.571 ± 2.513M/s'

# logs its arguments; refuses --rb-overwrite as a kernel before 6.19 does
cat >"$STANDIN" <<EOF
#!/bin/bash
echo "\$*" >>"$TEST_TMP/calls"
case " \$* " in
*" --rb-overwrite "*) echo "rb-libbpf: --rb-overwrite: this kernel has no overwrite mode" >&2; exit 1 ;;
esac
echo "Iter   0 (1.000us): hits    5.578M/s (  5.578M/prod), drops    4.993M/s, total operations   10.571M/s"
echo "$SUMMARY"
EOF
chmod +x "$STANDIN"

out=$TEST_TMP/table
rc=0
(cd "$TEST_TMP" && RUN_BENCH="$STANDIN -w0 -d1" NR_PRODS="1 2" SAMPLE_RATES="1 50" "$SCRIPT") \
	>"$out" 2>"$out.err" || rc=$?
is "$rc" 1 "exit status 1: a run failed (the overwrite section's)"
is "$(sed -n '/^=/{x;p};h' "$out" | tr '\n' '|')" \
	"Single-producer, parallel producer|Single-producer, parallel producer, sampled notification|Single-producer, back-to-back mode|Ringbuf back-to-back, effect of sample rate|Perfbuf back-to-back, effect of sample rate|Ringbuf back-to-back, reserve+commit vs output|Ringbuf sampled, reserve+commit vs output|Single-producer, consumer/producer competing on the same CPU, low batch count|Ringbuf, multi-producer contention|Perfbuf, multi-producer|Ringbuf, multi-producer contention in overwrite mode, no consumer|" \
	"upstream's sections, in upstream's order"
is "$(grep -c '^rb-libbpf  ' "$out")" 4 "rb-libbpf: a row in each single-producer section"
is "$(grep -m1 '^rb-libbpf ' "$out")" "$(up_summarize rb-libbpf "$SUMMARY")" \
	"a row is what upstream's summarize() prints"
is "$(grep -c ' (drops 4\.993 ± 0\.944M/s)$' "$out")" 32 "32 rows of hits and drops (NR_PRODS and SAMPLE_RATES of 2)"
is "$(grep -c '^rb-prod nr_prod [12] ' "$out")" 1 "overwrite section: one FAILED row, then no more runs"
like "$out" '^rb-prod nr_prod 1    FAILED \(exit 1\)$' "the failed run: a FAILED row with its exit status"
like "$out" '^ +rb-libbpf: --rb-overwrite: this kernel has no overwrite mode$' "and the bench's last line on stderr"
calls=$TEST_TMP/calls
is "$(grep -c -- ' -c1 ' "$calls")" 32 "-c1 on every run but the producer-only ones"
is "$(grep -c -- '--rb-b2b --rb-batch-cnt 50 --rb-sampled --rb-sample-rate 50 pb-custom$' "$calls")" 1 \
	"the sample-rate rows: batch count = sample rate"
is "$(grep -c -- '--rb-batch-cnt 1 --rb-sample-rate 1 --prod-affinity 0 --cons-affinity 0 ' "$calls")" 4 \
	"the same-CPU rows pin both threads on CPU 0"
is "$(grep -c -- '^-w0 -d1 -p1 --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf$' "$calls")" 1 \
	"the overwrite rows: no consumer, producers only"
[ -s "$out.err" ] && diag "$(cat "$out.err")"

done_testing
