// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab --interleave's statistic of one pair of invocations: the
 * neighbouring slices of A and B it pairs, those it leaves out, and the
 * 20% trimmed mean of their log ratios, against values worked out by hand.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/ab_interleaved.h"
#include "tap.h"

/* seq k: side A on even k when A went first; op_ns v, 50 batches, measured */
static void slice(struct slice_rec *r, int seq, int side, double v)
{
	*r = (struct slice_rec){ .seq = seq, .side = side, .triggers = 50, .op_ns = v,
				 .p50_ns = v, .p99_ns = 2 * v, .measured = 1 };
}

/* A B A B A B, A at 100 ns and B at 102: five pairs, each log(1.02) */
static void test_constant(void)
{
	struct slice_rec r[6];
	struct ab_il_pair p;
	int i;

	for (i = 0; i < 6; i++)
		slice(&r[i], i, i % 2, i % 2 ? 102 : 100);
	is_int(ab_il_estimate(r, 6, "op_ns", &p), 0, "constant: estimated");
	is_int(p.used, 5, "constant: 5 neighbouring pairs (A1 B1, B1 A2, ...)");
	is_near(p.est, log(1.02), 1e-12, "constant: log(B/A) = log(1.02)");
	is_near(p.fig[0], 100, 1e-12, "constant: A's median slice 100");
	is_near(p.fig[1], 102, 1e-12, "constant: B's median slice 102");
	is_int(p.slices[0] + p.slices[1], 6, "constant: 6 measured slices");
	/* latency_p99 is each slice's p99: 200 and 204, the same ratio */
	is_int(ab_il_estimate(r, 6, "latency_p99", &p), 0, "constant p99: estimated");
	is_near(p.est, log(1.02), 1e-12, "constant p99: log(204 / 200)");
}

/*
 * A B A B A B A B: a slice of 19 batches (seq 2, A) takes its two pairs
 * (1-2, 2-3) with it, an unmeasured one (seq 5, B) its two (4-5, 5-6):
 * pairs 0-1, 3-4 and 6-7 stay
 */
static void test_left_out(void)
{
	struct slice_rec r[8];
	struct ab_il_pair p;
	int i;

	for (i = 0; i < 8; i++)
		slice(&r[i], i, i % 2, i % 2 ? 102 : 100);
	r[2].triggers = AB_IL_MIN_TRIGGERS - 1;
	r[5].measured = 0;
	is_int(ab_il_estimate(r, 8, "op_ns", &p), 0, "left out: estimated");
	is_int(p.used, 3, "left out: pairs 0-1, 3-4 and 6-7 only");
	is_int(p.slices[0], 4, "left out: A's 4 slices are measured");
	is_int(p.few[0], 1, "left out: one of them with too few batches");
	is_int(p.slices[1], 3, "left out: B's unmeasured slice is not counted");
	/* seq 0 1 2 4 5 6 7 9: a gap in seq (a lost record) is no neighbour either */
	r[3].seq = 9;
	is_int(ab_il_estimate(r, 8, "op_ns", &p), 0, "gap: estimated");
	is_int(p.used, 2, "gap: pairs 0-1 and 6-7 (seq 3 now 9, 4 without its neighbour)");
	for (i = 0; i < 8; i++)
		r[i].measured = 0;
	is_int(ab_il_estimate(r, 8, "op_ns", &p), -ENODATA, "nothing measured: -ENODATA");
	ok(isnan(p.est), "nothing measured: no estimate");
}

/* the records come in the order the sides claimed them, not by seq */
static void test_order(void)
{
	struct slice_rec r[6];
	struct ab_il_pair p;
	int i;

	for (i = 0; i < 6; i++)
		slice(&r[5 - i], i, i % 2, i % 2 ? 102 : 100);
	is_int(ab_il_estimate(r, 6, "op_ns", &p), 0, "reversed: estimated");
	is_int(p.used, 5, "reversed: sorted by seq, 5 pairs");
	is_near(p.est, log(1.02), 1e-12, "reversed: log(1.02)");
}

/*
 * A = B on a machine that slows by 1% a slice: v(k) = 100 (1 + 0.01 k).
 * Pair k (slices k, k + 1) gives log(B/A) = +log(v(k+1) / v(k)) when A
 * is first (k even) and -log(...) when B is (k odd): +0.00995033,
 * -0.00985230, +0.00975617, -0.00966191, +0.00956945, -0.00947874,
 * +0.00938974, -0.00930239, +0.00921666, -0.00913248 for k = 0..9.
 * Trimming 2 of 10 from each end leaves the three smallest magnitudes
 * of each sign: (0.00921666 + 0.00938974 + 0.00956945 - 0.00947874 -
 * 0.00930239 - 0.00913248) / 6 = 0.0000437, where pairs with A always
 * first would read +0.0095: the drift cancels.
 */
static void test_drift(void)
{
	struct slice_rec r[11];
	struct ab_il_pair p;
	int i;

	for (i = 0; i < 11; i++)
		slice(&r[i], i, i % 2, 100 * (1 + 0.01 * i));
	is_int(ab_il_estimate(r, 11, "op_ns", &p), 0, "drift: estimated");
	is_int(p.used, 10, "drift: 10 pairs");
	is_near(p.est, 0.0000437, 1e-7, "drift: cancels to 0.0000437");
}

int main(void)
{
	test_constant();
	test_left_out();
	test_order();
	test_drift();
	ok(ab_il_metric_ok("op_ns") && ab_il_metric_ok("latency_p50") &&
	   ab_il_metric_ok("latency_p99"), "metrics: a slice's three");
	ok(!ab_il_metric_ok("per_prod_op") && !ab_il_metric_ok("memory") && !ab_il_metric_ok(NULL),
	   "metrics: no rate, no memory");
	return done_testing();
}
