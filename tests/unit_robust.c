// SPDX-License-Identifier: GPL-2.0
/*
 * The robust summaries, the rank test with the Hodges-Lehmann shift, the
 * ratio interval and the sequential boundaries, on data whose answers are
 * worked out by hand in the comments.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "sequential.h"
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
	 * sd 3.295018; z = (|13 - 8| - 0.5) / 3.295018 = 1.365698, p = 2 Phi(-z)
	 * = 0.172034.  Differences sorted: -1 0 0 0 0 1 1 1 1 1 1 2 2 2 2 3,
	 * median (1 + 1) / 2 = 1; k = floor(8 + 0.5 - 1.959964 * 3.295018) =
	 * floor(2.0419) = 2: [D(2), D(15)] = [0, 2].
	 */
	rank_test(ta, 4, tb, 4, 0.05, &r);
	ok(!r.exact, "rank: ties: normal approximation");
	is_near(r.u, 13, 0, "rank: ties: U = 13");
	is_near(r.p, 0.172034, 1e-5, "rank: ties: tie- and continuity-corrected p");
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

int main(void)
{
	test_robust();
	test_rank();
	test_ratio();
	test_sequential();
	test_paired();
	return done_testing();
}
