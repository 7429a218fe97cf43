// SPDX-License-Identifier: GPL-2.0
/*
 * The robust summaries, the rank test with the Hodges-Lehmann shift, the
 * ratio interval and the sequential boundaries, on data whose answers are
 * worked out by hand in the comments.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "results/sequential.h"
#include "stats.h"
#include "tap.h"

static void test_robust(void)
{
	const double odd[] = { 2, 4, 4, 4, 5, 5, 7, 9, 1 };
	const double even[] = { 10, 1, 7, 4 };
	const double flat[] = { NAN, 5, 5, 5, 5, 20 };
	struct outlier o[8];
	struct robust r;

	/*
	 * sorted 1 2 4 4 4 5 5 7 9 (n 9); type 7 puts quantile p at position
	 * (n - 1) p = 8p, 0-based: q1 at 2 -> 4, median at 4 -> 4, q3 at 6 -> 5,
	 * p90 at 7.2 -> 7 + 0.2 (9 - 7) = 7.4, p99 at 7.92 -> 7 + 0.92 * 2 = 8.84.
	 * iqr 1, fences 4 - 1.5 = 2.5 and 5 + 1.5 = 6.5.  |x - 4|: 2 0 0 0 1 1
	 * 3 5 3, sorted 0 0 0 1 1 2 3 3 5: MAD 1.  Outside the fences, in the
	 * input's order: 2 (index 0, 0.5 below, (4 - 2) / 1 = 2 IQRs below q1),
	 * 7 (index 6, 0.5 above, 2 IQRs above q3), 9 (index 7, 2.5 above, 4
	 * IQRs), 1 (index 8, 1.5 below, 3 IQRs).
	 */
	ok(!stats_robust(odd, 9, &r, o, 8), "robust: odd set computed");
	is_int(r.n, 9, "robust: n");
	is_near(r.median, 4, 1e-12, "robust: median");
	is_near(r.q1, 4, 1e-12, "robust: q1 (type 7)");
	is_near(r.q3, 5, 1e-12, "robust: q3 (type 7)");
	is_near(r.iqr, 1, 1e-12, "robust: iqr");
	is_near(r.p90, 7.4, 1e-12, "robust: p90 interpolates 7 .. 9 at 0.2");
	is_near(r.p99, 8.84, 1e-12, "robust: p99 interpolates 7 .. 9 at 0.92");
	is_near(r.mad, 1, 1e-12, "robust: MAD");
	is_near(r.min, 1, 0, "robust: min");
	is_near(r.max, 9, 0, "robust: max");
	is_near(r.low_fence, 2.5, 1e-12, "robust: low fence q1 - 1.5 iqr");
	is_near(r.high_fence, 6.5, 1e-12, "robust: high fence q3 + 1.5 iqr");
	is_int(r.outliers, 4, "robust: four values outside the fences, none dropped");
	is_int(o[0].index, 0, "outlier 1 is the first value (2)");
	ok(!o[0].high, "outlier 1 is below the low fence");
	is_near(o[0].beyond, 0.5, 1e-12, "outlier 1: 0.5 below the fence");
	is_near(o[0].iqrs, 2, 1e-12, "outlier 1: 2 IQRs below q1");
	is_int(o[1].index, 6, "outlier 2 is value 7 (index 6)");
	ok(o[1].high, "outlier 2 is above the high fence");
	is_near(o[2].beyond, 2.5, 1e-12, "outlier 3 (9): 2.5 above the fence");
	is_near(o[2].iqrs, 4, 1e-12, "outlier 3 (9): 4 IQRs above q3");
	is_int(o[3].index, 8, "outlier 4 is the last value (1)");
	is_near(o[3].iqrs, 3, 1e-12, "outlier 4 (1): 3 IQRs below q1");

	/*
	 * sorted 1 4 7 10: positions 3p; q1 at 0.75 -> 1 + 0.75 * 3 = 3.25, q3
	 * at 2.25 -> 7 + 0.25 * 3 = 7.75, p90 at 2.7 -> 9.1, p99 at 2.97 ->
	 * 9.91; |x - 5.5| 4.5 4.5 1.5 1.5: MAD 3; fences -3.5, 14.5: none out
	 */
	stats_robust(even, 4, &r, o, 8);
	is_near(r.median, 5.5, 1e-12, "even: median");
	is_near(r.q1, 3.25, 1e-12, "even: q1");
	is_near(r.q3, 7.75, 1e-12, "even: q3");
	is_near(r.p90, 9.1, 1e-12, "even: p90");
	is_near(r.p99, 9.91, 1e-12, "even: p99");
	is_near(r.mad, 3, 1e-12, "even: MAD");
	is_int(r.outliers, 0, "even: no outlier");

	/*
	 * NaN skipped but the index kept: 5 5 5 5 20, q1 = q3 = 5, iqr 0, so
	 * 20 (index 5) is 15 past the fence and infinitely many IQRs out
	 */
	stats_robust(flat, 6, &r, o, 8);
	is_int(r.n, 5, "flat: NaN skipped");
	is_near(r.iqr, 0, 0, "flat: iqr 0");
	is_int(r.outliers, 1, "flat: one outlier");
	is_int(o[0].index, 5, "flat: the outlier's index counts the NaN");
	is_near(o[0].beyond, 15, 1e-12, "flat: 15 past the fence");
	ok(isinf(o[0].iqrs), "flat: distance in IQRs is infinite when iqr is 0");

	stats_robust(flat, 0, &r, o, 8);
	is_int(r.n, 0, "empty: n 0");
	ok(isnan(r.median) && isnan(r.p99), "empty: no made-up quantiles");
}

static void test_rank(void)
{
	const double a[] = { 1, 2, 3, 4, 5 };
	const double b[] = { 2.5, 4.5, 6.5, 8.5, 10.5 };
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	const double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 3, 4 };
	struct rank_test r;

	/*
	 * U counts pairs with b_j > a_i: 2.5 beats 2 of a, 4.5 beats 4, the
	 * rest 5 each: U = 21 of 25.  No ties, so U is exact: the orderings
	 * with U = u are the partitions of u into at most 5 parts of at most
	 * 5, of C(10, 5) = 252 in all; P(U >= 21) = P(U <= 4) = (1 + 1 + 2 + 3
	 * + 5) / 252 = 12/252, two-sided p = 24/252 = 0.0952381.
	 * The 25 differences b_j - a_i sorted: -2.5 -1.5 -0.5 -0.5 0.5 0.5 1.5
	 * 1.5 1.5 2.5 2.5 3.5 3.5 3.5 4.5 4.5 5.5 5.5 5.5 6.5 6.5 7.5 7.5 8.5
	 * 9.5 (wait: 2.5 appears twice and 3.5 three times): the 13th, 3.5, is
	 * the Hodges-Lehmann shift.  Moses' k: the largest with P(U <= k - 1)
	 * <= 0.025; P(U <= 2) = 4/252 = 0.0159, P(U <= 3) = 7/252 = 0.0278,
	 * so k = 3 and the interval is [D(3), D(23)] = [-0.5, 7.5], covering
	 * with probability 1 - 8/252 = 0.968254.
	 */
	ok(!rank_test(a, 5, b, 5, 0.05, &r), "rank: exact case computed");
	ok(r.exact, "rank: no ties, 5 + 5: exact");
	is_near(r.u, 21, 0, "rank: U = 21");
	is_near(r.p, 24.0 / 252, 1e-12, "rank: exact two-sided p = 24/252");
	is_near(r.shift, 3.5, 1e-12, "rank: Hodges-Lehmann shift = median difference 3.5");
	is_near(r.lo, -0.5, 1e-12, "rank: Moses interval from D(3) = -0.5");
	is_near(r.hi, 7.5, 1e-12, "rank: to D(23) = 7.5");
	is_near(r.conf, 1 - 8.0 / 252, 1e-12, "rank: its coverage 1 - 8/252");

	/*
	 * 3 + 3 fully separated: U = 9, P(U = 9) = 1/C(6, 3) = 1/20, p = 0.1;
	 * P(U <= 0) = 0.05 > 0.025, so no k: no interval at 95%
	 */
	rank_test(a3, 3, b3, 3, 0.05, &r);
	is_near(r.p, 0.1, 1e-12, "rank: 3 + 3 separated, p = 2/20");
	ok(isnan(r.lo) && isnan(r.hi), "rank: 3 + 3 too small for a 95%% interval");
	is_near(r.shift, 3, 1e-12, "rank: 3 + 3 shift 3");

	/*
	 * Ties: a 1 2 2 3, b 2 3 3 4.  U: b=2 beats 1, ties two 2s: 1 + 1 = 2;
	 * each b=3 beats 1 2 2, ties 3: 3.5; b=4 beats all: 4; U = 13, mn/2 = 8.
	 * Pooled 1 2 2 2 3 3 3 4: two tie groups of 3, sum t^3 - t = 48; var =
	 * mn/12 ((N + 1) - 48 / (N (N - 1))) = 16/12 (9 - 48/56) = 10.857143,
	 * sd 3.295018.  Differences sorted: -1 0 0 0 0 1 1 1 1 1 1 2 2 2 2 3,
	 * median (1 + 1) / 2 = 1.  The test counts the differences on either
	 * side of 0, those at 0 on both (so that it agrees with the interval):
	 * 5 at or below 0, 15 at or above, T = 5; p = 2 Phi((5 + 0.5 - 8) /
	 * 3.295018) = 2 Phi(-0.758722) = 0.448021 (counting ties a half, as U
	 * does, T would be 3 and p 0.172 while the interval below holds 0).
	 * k = floor(8 + 0.5 - 1.959964 * 3.295018) = floor(2.0419) = 2:
	 * [D(2), D(15)] = [0, 2].
	 */
	rank_test(ta, 4, tb, 4, 0.05, &r);
	ok(!r.exact, "rank: ties: normal approximation");
	is_near(r.u, 13, 0, "rank: ties: U = 13");
	is_near(r.p, 0.448021, 1e-5, "rank: ties: p of the count on either side of 0, tie-corrected");
	is_near(r.shift, 1, 1e-12, "rank: ties: shift 1");
	is_near(r.lo, 0, 1e-12, "rank: ties: interval from D(2) = 0");
	is_near(r.hi, 2, 1e-12, "rank: ties: to D(15) = 2");

	rank_test(a, 5, a, 5, 0.05, &r);
	is_near(r.p, 1, 1e-12, "rank: identical sides: p = 1");
	is_near(r.shift, 0, 1e-12, "rank: identical sides: shift 0");
	ok(rank_test(a, 0, b, 5, 0.05, &r) == -EINVAL, "rank: an empty side is refused");
}

static void test_ratio(void)
{
	struct stats a = { .n = 10, .mean = 10, .stddev = 1, .cv = 0.1 };
	struct stats b = { .n = 10, .mean = 12, .stddev = 2, .cv = 2.0 / 12 };
	struct stats c = { .n = 3, .mean = 10, .stddev = 1, .cv = 0.1 };
	struct stats d = { .n = 3, .mean = 0.5, .stddev = 2, .cv = 4 };
	double lo, hi;

	/*
	 * cv_a^2 / n = 0.001, cv_b^2 / n = (1/6)^2 / 10 = 0.0027778: se of the
	 * log ratio sqrt(0.0037778) = 0.0614636, Welch df 0.0037778^2 /
	 * ((0.001^2 + 0.0027778^2) / 9) = 14.7365, t(0.975, 14.74) = 2.1348
	 * (between 2.1448 at 14 and 2.1314 at 15): 1.2 exp(-+0.131213) =
	 * 1.05244 .. 1.36825
	 */
	ok(!ratio_ci(&a, &b, 0.05, &lo, &hi), "ratio: computed");
	is_near(lo, 1.05244, 2e-4, "ratio: lower bound 1.0524");
	is_near(hi, 1.36825, 2e-4, "ratio: upper bound 1.3683");
	is_near(lo * hi, 1.2 * 1.2, 1e-9, "ratio: symmetric on the log scale around 1.2");
	/* a mean difference interval would reach 0.5 - 9.5 = far below 0; a ratio stays above */
	ok(!ratio_ci(&c, &d, 0.05, &lo, &hi) && lo > 0, "ratio: a noisy drop stays above -100%%");
	d.mean = -1;
	ok(ratio_ci(&c, &d, 0.05, &lo, &hi) == -EDOM, "ratio: a mean that is not positive is refused");
}

static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static void test_sequential(void)
{
	/* Lan-DeMets O'Brien-Fleming type, 5 equal looks, two-sided 0.05 (published) */
	const double obf5[] = { 4.877, 3.357, 2.680, 2.290, 2.031 };
	struct seq_test s;
	double c[20], nom, total = 0;
	int k, sim, hits = 0, looks = 20, nsim = 4000;

	/* one look at t = 1 is the fixed test: z(0.975) */
	seq_init(&s, SEQ_OBRIEN_FLEMING, 0.05);
	is_near(seq_look(&s, 1, 1, &nom), 1.959964, 1e-5, "sequential: one look is z(0.975)");
	is_near(nom, 0.05, 1e-9, "sequential: at nominal 0.05");

	seq_init(&s, SEQ_OBRIEN_FLEMING, 0.05);
	for (k = 0; k < 5; k++)
		is_near(seq_look(&s, k + 1, (k + 1) / 5.0, &nom), obf5[k], 5e-3,
			"sequential: O'Brien-Fleming look %d of 5: %.3f", k + 1, obf5[k]);
	is_near(s.spent, 0.05, 1e-12, "sequential: the five looks spend alpha");
	ok(isnan(seq_look(&s, 5, 1, &nom)), "sequential: a look without new information is refused");

	/*
	 * Pocock type: the first look spends 0.05 log(1 + (e - 1) / 5) =
	 * 0.0147697, so its bound is z(1 - 0.0073849) = 2.437977
	 */
	seq_init(&s, SEQ_POCOCK, 0.05);
	is_near(seq_look(&s, 1, 0.2, &nom), 2.437977, 1e-5, "sequential: Pocock's first of 5 looks");

	/*
	 * The false-positive rate over 20 looks at unequal information, by
	 * simulation: 4000 paths of N(0, 1) observations, one to three per
	 * look, rejected when any look's |z| crosses its bound.  0.05 with a
	 * standard error of 0.0034: 0.040 .. 0.060 holds unless the bounds
	 * are wrong (a fixed 1.96 at every look gives about 0.25).
	 */
	seq_init(&s, SEQ_OBRIEN_FLEMING, 0.05);
	{
		int info = 0, step[20];

		for (k = 0; k < looks; k++) {
			step[k] = 1 + k % 3;
			total += step[k];
		}
		for (k = 0; k < looks; k++) {
			info += step[k];
			c[k] = seq_look(&s, info, info / total, &nom);
		}
		for (sim = 0; sim < nsim; sim++) {
			double sum = 0;
			int n = 0, j;

			for (k = 0; k < looks; k++) {
				for (j = 0; j < step[k]; j++, n++)
					sum += gauss();
				if (fabs(sum / sqrt(n)) >= c[k]) {
					hits++;
					break;
				}
			}
		}
	}
	ok(hits >= 0.040 * nsim && hits <= 0.060 * nsim,
	   "sequential: false positives over 20 looks %d of %d (%.3f), within 0.040 .. 0.060",
	   hits, nsim, (double)hits / nsim);
}

/*
 * The paired log ratio against values worked out by hand: log ratios 1, 2
 * and 3 have mean 2, stddev 1, se 1/sqrt(3), t = 2 sqrt(3) = 3.4641 on 2
 * df, whose two-sided p is 1 - t / sqrt(2 + t^2) = 1 - 3.4641 / 3.7417 =
 * 0.07418; t(0.975, 2) = 4.30265, so the interval is exp(2 -+ 2.48414):
 * 0.61623 .. 88.6005.  A pair with a 0 is left out and counted.
 */
static void test_paired(void)
{
	const double a[] = { 1, 1, 1, 0, 1, 2 }, b[] = { M_E, M_E * M_E, M_E * M_E * M_E, 5, 2, 4 };
	struct paired_ratio pr;

	is_int(paired_log_ratio(a, b, 4, 0.05, &pr), 0, "paired: three usable pairs");
	is_int(pr.n, 3, "paired: n 3");
	is_int(pr.skipped, 1, "paired: the pair with a 0 skipped");
	is_near(pr.mean_log, 2, 1e-12, "paired: mean log ratio 2");
	is_near(pr.sd_log, 1, 1e-12, "paired: stddev 1");
	is_near(pr.ratio, exp(2), 1e-9, "paired: ratio e^2");
	is_near(pr.t, 3.464102, 1e-6, "paired: t 2 sqrt(3)");
	is_near(pr.df, 2, 0, "paired: df 2");
	is_near(pr.p, 0.074180, 1e-5, "paired: p 0.07418 (t on 2 df)");
	is_near(pr.lo, 0.61623, 1e-4, "paired: interval low 0.61623");
	is_near(pr.hi, 88.6005, 1e-3, "paired: interval high 88.6005");
	ok(pr.lo > 0, "paired: the interval of a ratio stays above 0 (%g)", pr.lo);
	/* every pair the same ratio: no spread, p 0, the interval a point */
	is_int(paired_log_ratio(a + 4, b + 4, 2, 0.05, &pr), 0, "paired: equal ratios");
	is_near(pr.ratio, 2, 1e-12, "paired: ratio 2");
	is_near(pr.p, 0, 0, "paired: p 0 with no spread and a shift");
	is_near(pr.lo, 2, 1e-12, "paired: interval a point");
	is_int(paired_log_ratio(a + 3, b + 3, 2, 0.05, &pr), -EDOM, "paired: one usable pair: -EDOM");
	is_near(pr.ratio, 2, 1e-12, "paired: ... its ratio still given");
}

/*
 * Wilcoxon's signed-rank test and the Hodges-Lehmann estimate, by hand.
 * d = -1 2 3 4 5 (n 5): the 15 Walsh averages (d_i + d_j) / 2, i <= j,
 * sorted: -1 0.5 1 1.5 2 2 2.5 3 3 3.5 3.5 4 4 4.5 5; the 8th, 3, is the
 * Hodges-Lehmann estimate.  One is at or below 0, 14 at or above: T = 1
 * (Wilcoxon's T-, the rank of |-1|).  Under no change the 32 sign
 * patterns of ranks 1..5 have rank sum 0 once, 1 once: P(T <= 1) = 2/32,
 * p = 0.125.  P(T <= 0) = 1/32 = 0.03125 > 0.025: no k, no 95% interval
 * from 5 values; at 90% k = 1 (0.03125 <= 0.05 < 2/32): [W(1), W(15)] =
 * [-1, 5], covering 1 - 2/32 = 0.9375.
 * d = 1..6: every Walsh average above 0, T = 0, p = 2/64 = 0.03125; k = 1
 * (1/64 <= 0.025 < 2/64): [1, 6], coverage 62/64; the averages are
 * symmetric about 3.5, the estimate.
 * d = 1 2 3: Walsh 1 1.5 2 2 2.5 3, estimate 2; add a starved -100: the 10
 * averages -100 -49.5 -49 -48.5 1 1.5 2 2 2.5 3, estimate (1 + 1.5) / 2 =
 * 1.25, where the mean goes from 2 to -23.5.
 */
static void test_signed_rank(void)
{
	const double d5[] = { 3, -1, 5, 2, 4 }, d6[] = { 6, 5, 4, 3, 2, 1 };
	const double d3[] = { 1, 2, 3, -100 };
	struct signed_rank sr;

	is_int(signed_rank_test(d5, 5, 0.05, &sr), 0, "signed rank: 5 values");
	ok(sr.exact, "signed rank: exact");
	is_near(sr.shift, 3, 1e-12, "signed rank: Hodges-Lehmann 3, the 8th of 15 Walsh averages");
	is_near(sr.t, 1, 0, "signed rank: T = 1");
	is_near(sr.p, 0.125, 1e-12, "signed rank: p = 4/32");
	ok(isnan(sr.lo) && isnan(sr.hi), "signed rank: 5 values have no 95%% interval");
	signed_rank_test(d5, 5, 0.10, &sr);
	is_near(sr.lo, -1, 1e-12, "signed rank: 90%% interval from W(1) = -1");
	is_near(sr.hi, 5, 1e-12, "signed rank: to W(15) = 5");
	is_near(sr.conf, 0.9375, 1e-12, "signed rank: coverage 1 - 2/32");
	signed_rank_test(d6, 6, 0.05, &sr);
	is_near(sr.p, 0.03125, 1e-12, "signed rank: 1..6: p = 2/64");
	is_near(sr.lo, 1, 1e-12, "signed rank: 1..6: interval [1,");
	is_near(sr.hi, 6, 1e-12, "signed rank: 1..6: ... 6]");
	is_near(sr.conf, 62.0 / 64, 1e-12, "signed rank: 1..6: coverage 62/64");
	is_near(sr.shift, 3.5, 1e-12, "signed rank: 1..6: estimate 3.5");
	signed_rank_test(d3, 3, 0.05, &sr);
	is_near(sr.shift, 2, 1e-12, "signed rank: 1 2 3: estimate 2");
	signed_rank_test(d3, 4, 0.05, &sr);
	is_near(sr.shift, 1.25, 1e-12, "signed rank: a starved -100 moves it to 1.25 only (the mean: -23.5)");
	is_int(signed_rank_test(d3, 0, 0.05, &sr), -EINVAL, "signed rank: no value refused");
}

/*
 * Welch on logs: a = 1, e^2 (logs 0, 2), b = e^2, e^4 (logs 2, 4): means
 * 1 and 3, variances 2 each, est 2, se = sqrt(2/2 + 2/2) = sqrt 2, df =
 * 2^2 / (1 + 1) = 2, t = sqrt 2, p = 1 - t / sqrt(2 + t^2) = 1 - 1/sqrt 2
 * = 0.292893; interval exp(2 -+ 4.302653 sqrt 2) = 0.016825 .. 3244.997.
 * Yuen's trimmed t of 1 2 3 4 100 at 20%: g = 1, trimmed mean of 2 3 4 =
 * 3; winsorized 2 2 3 4 4, variance 4/4 = 1; se = 1 / (0.6 sqrt 5) =
 * 0.745356, df 5 - 2 - 1 = 2, t = 4.024922, p = 1 - t / sqrt(2 + t^2) =
 * 0.056544; interval 3 -+ 4.302653 x 0.745356 = -0.207008 .. 6.207008.
 */
static void test_log_change(void)
{
	const double a[] = { 1, M_E * M_E }, b[] = { M_E * M_E, M_E * M_E * M_E * M_E };
	const double y[] = { 4, 1, 100, 3, 2 }, neg[] = { 1, 0 };
	struct log_change c;

	is_int(welch_log(a, 2, b, 2, 0.05, &c), 0, "welch_log: computed");
	is_near(c.ratio, exp(2), 1e-9, "welch_log: ratio of geometric means e^2");
	is_near(c.se, sqrt(2), 1e-12, "welch_log: se sqrt 2");
	is_near(c.df, 2, 1e-12, "welch_log: df 2");
	is_near(c.p, 0.292893, 1e-6, "welch_log: p 0.292893");
	is_near(c.lo, 0.016825, 1e-6, "welch_log: interval low exp(2 - 6.084952)");
	is_near(c.hi, 3244.997, 1e-2, "welch_log: interval high exp(2 + 6.084952)");
	is_int(welch_log(neg, 2, b, 2, 0.05, &c), -EDOM, "welch_log: a value not above 0 refused");
	is_int(trimmed_t(y, 5, 0.2, 0.05, &c), 0, "trimmed: computed");
	is_near(c.est, 3, 1e-12, "trimmed: mean of 2 3 4");
	is_near(c.se, 0.745356, 1e-6, "trimmed: se from the winsorized sd");
	is_near(c.df, 2, 0, "trimmed: df 2");
	is_near(c.p, 0.056544, 1e-6, "trimmed: p 0.056544");
	is_near(c.lo, -0.207008, 1e-6, "trimmed: interval low");
	is_near(c.hi, 6.207008, 1e-6, "trimmed: interval high");
	is_int(trimmed_t(y + 2, 1, 0.2, 0.05, &c), -EDOM, "trimmed: one value: no test");
	is_near(c.est, 100, 0, "trimmed: ... but its estimate (bench ab's first block)");
	is_int(min_obs_for_level(0.05), 6, "support: 95%% needs 6 pairs (2^-5 = 0.031)");
	is_int(min_obs_for_level(0.00305), 10, "support: level 0.00305 needs 10 (2^-9 = 0.00195)");
}

/* a rate near 100 with a log-normal-ish spread, now and then starved or tied */
static double rate(double shift)
{
	double u = uniform(), z = 0;
	int i;

	for (i = 0; i < 12; i++)
		z += uniform();
	z -= 6;
	if (u < 0.03)
		return 0.5;	/* a starved invocation */
	if (u < 0.10)
		return round(100 * (1 + shift));	/* ties */
	return 100 * (1 + shift) * exp(0.05 * z);
}

/* significant <=> the interval of the ratio leaves out 1 */
static int nsig, ntested;

static bool agrees(const struct log_change *c, double alpha)
{
	bool sig = c->p < alpha, out = c->lo > 1 || c->hi < 1;

	nsig += sig;
	ntested++;

	return sig == out && (!isnan(c->lo) || !sig);
}

/*
 * No verdict contradicts its interval: over many random inputs (small and
 * large n, ties, starved values, shifts of 0 to 10%, levels 0.05 and a
 * sequential look's 0.003), every test's p < alpha exactly when its
 * interval of the ratio leaves out 1.
 */
static void test_duality(void)
{
	static const double alphas[] = { 0.05, 0.003 };
	int bad[5] = {}, runs = 0, i, j, n, k;
	double a[80], b[80];
	struct log_change c;
	struct rank_test r;

	for (i = 0; i < 4000; i++) {
		n = 2 + (int)(uniform() * (i % 10 ? 20 : 70));
		for (j = 0; j < n; j++) {
			a[j] = rate(0);
			b[j] = rate((i % 6) * 0.02);
		}
		for (k = 0; k < 2; k++) {
			double al = alphas[k];

			runs++;
			if (!welch_log(a, n, b, n - i % 2, al, &c) && !agrees(&c, al))
				bad[0]++;
			if (!paired_log_t(a, b, n, al, &c) && !agrees(&c, al))
				bad[1]++;
			if (!paired_log_hl(a, b, n, al, &c) && !agrees(&c, al))
				bad[2]++;
			for (j = 0; j < n; j++)
				a[j] = log(a[j]), b[j] = log(b[j]);
			if (!rank_test(a, n, b, n - i % 3, al, &r)) {
				c.p = r.p;
				c.lo = exp(r.lo);
				c.hi = exp(r.hi);
				if (!agrees(&c, al))
					bad[3]++;
			}
			for (j = 0; j < n; j++)
				b[j] -= a[j];
			if (!trimmed_t(b, n, 0.2, al, &c)) {
				c.lo = exp(c.lo);
				c.hi = exp(c.hi);
				if (!agrees(&c, al))
					bad[4]++;
			}
			for (j = 0; j < n; j++)
				b[j] = exp(b[j] + a[j]), a[j] = exp(a[j]);
		}
	}
	is_int(bad[0], 0, "duality: Welch on logs, %d inputs: p < alpha <=> interval leaves out 1", runs);
	is_int(bad[1], 0, "duality: paired t on log ratios, %d inputs", runs);
	is_int(bad[2], 0, "duality: signed rank and Hodges-Lehmann of log ratios, %d inputs", runs);
	is_int(bad[3], 0, "duality: Mann-Whitney and Moses' interval on logs, ties included, %d inputs", runs);
	is_int(bad[4], 0, "duality: 20%% trimmed mean of log ratios, %d inputs", runs);
	ok(nsig > ntested / 5 && nsig < ntested * 4 / 5,
	   "duality: both verdicts were tried: %d significant of %d tests", nsig, ntested);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Hodges-Lehmann's sets are ranked without being stored: checked against
 * the definition (every difference sorted) on values with ties, and on
 * the longest runs there are (86,400 samples a side: 7.5e9 differences,
 * which as an array failed "Cannot allocate memory" after 13 s)
 */
static void test_rank_long(void)
{
	enum { M = 37, N = 53, LONG = 86400 };
	double a[M], b[N], d[M * N], *la, *lb, mid, lo, hi;
	struct signed_rank sr;
	struct rank_test r;
	int i, j, k = 0, lf, ll, hf, hl;

	for (i = 0; i < M; i++)
		a[i] = (i * 7) % 11;
	for (j = 0; j < N; j++)
		b[j] = (j * 5) % 13 + 0.5 * (j % 2);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			d[k++] = b[j] - a[i];
	qsort(d, M * N, sizeof(*d), cmp_dbl);
	/* (M N - 1) / 2 = 980: the 981st of 1961, no interpolation */
	mid = d[980];
	is_int(rank_test(a, M, b, N, 0.05, &r), 0, "rank, 37 + 53 with ties: computed");
	is_near(r.shift, mid, 0, "rank: the shift is the median of the sorted differences");
	/*
	 * Moses' interval: the k-th smallest and the k-th largest difference,
	 * for one k.  The 0-based places of lo's value in d are [lf, ll], of
	 * hi's [hf, hl]: some k has k - 1 in the first and M N - k in the
	 * second.
	 */
	for (lf = 0; lf < M * N && d[lf] < r.lo; lf++)
		;
	for (ll = lf; ll + 1 < M * N && d[ll + 1] == r.lo; ll++)
		;
	for (hl = M * N - 1; hl >= 0 && d[hl] > r.hi; hl--)
		;
	for (hf = hl; hf > 0 && d[hf - 1] == r.hi; hf--)
		;
	ok(lf < M * N && d[lf] == r.lo && hl >= 0 && d[hl] == r.hi,
	   "rank: the interval's ends are differences");
	ok(fmax(lf + 1, M * N - hl) <= fmin(ll + 1, M * N - hf),
	   "rank: the k-th smallest and the k-th largest, for one k");
	ok(r.lo <= r.shift && r.shift <= r.hi, "rank: the interval holds the shift");

	la = malloc(LONG * sizeof(*la));
	lb = malloc(LONG * sizeof(*lb));
	if (!la || !lb) {
		ok(0, "rank, 86400 + 86400: memory for the values");
		free(la);
		free(lb);
		return;
	}
	/*
	 * b = a + 0.5: the differences are j - i + 0.5, symmetric about 0.5,
	 * and b[j] > a[i] exactly when j >= i: U = n (n + 1) / 2
	 */
	for (i = 0; i < LONG; i++) {
		la[i] = i;
		lb[i] = i + 0.5;
	}
	is_int(rank_test(la, LONG, lb, LONG, 0.05, &r), 0, "rank, 86400 + 86400: computed");
	is_near(r.u, (double)LONG * (LONG + 1) / 2, 0, "rank, 86400 + 86400: U = n (n + 1) / 2");
	is_near(r.shift, 0.5, 0, "rank, 86400 + 86400: the shift is 0.5");
	lo = r.lo;
	hi = r.hi;
	ok(lo < 0.5 && hi > 0.5 && lo + hi == 1.0, "rank, 86400 + 86400: the interval is symmetric about it");
	ok(r.p > 0.05, "rank, 86400 + 86400: no shift of 0.5 in a spread of 86400 is significant");
	/* the one-sample set: Walsh averages of -43199.5 .. 43199.5, median 0 */
	for (i = 0; i < LONG; i++)
		la[i] = i - (LONG - 1) / 2.0;
	is_int(signed_rank_test(la, LONG, 0.05, &sr), 0, "signed rank, 86400 values: computed");
	is_near(sr.shift, 0, 0, "signed rank, 86400 values: the median Walsh average is 0");
	ok(sr.lo == -sr.hi && sr.hi > 0, "signed rank, 86400 values: a symmetric interval");
	free(la);
	free(lb);
}

int main(void)
{
	test_robust();
	test_rank();
	test_ratio();
	test_sequential();
	test_paired();
	test_signed_rank();
	test_rank_long();
	test_log_change();
	test_duality();
	return done_testing();
}
