// SPDX-License-Identifier: GPL-2.0
/*
 * compare with several files per side: the invocation (file) is the unit.
 * Each file's mean of its repeat means, their spread, the repeats' spread
 * inside a file, and Welch's test on the file means, on data whose answers
 * are worked out by hand in the comments.
 */
#include <math.h>

#include "stats.h"
#include "tap.h"

int main(void)
{
	/* three files of two repeats each: file means 11, 15, 12 */
	const double a[] = { 10, 12, 14, 16, 11, 13 };
	const int a_cnt[] = { 2, 2, 2 };
	/* three files of two equal repeats: file means 20, 22, 18 */
	const double b[] = { 20, 20, 22, 22, 18, 18 };
	const int b_cnt[] = { 2, 2, 2 };
	/* a file of one repeat next to one of two: file means 5 and 8 */
	const double one[] = { 5, 7, 9 };
	const int one_cnt[] = { 1, 2 };
	/* unequal repeat counts 3, 1, 2: file means 4, 10, 8 */
	const double uneq[] = { 2, 4, 6, 10, 7, 9 };
	const int uneq_cnt[] = { 3, 1, 2 };
	const double flat3[] = { 3, 3, 3, 3 }, flat4[] = { 4, 4, 4, 4 };
	const int flat_cnt[] = { 2, 2 };
	/* a file whose repeats have no value: left out, file means 6 and 10 */
	const double holes[] = { NAN, NAN, 5, 7, 9, 11 };
	const int holes_cnt[] = { 2, 2, 2 };
	const double lone[] = { NAN, 5 };
	const int lone_cnt[] = { 1, 1 };
	struct invocations ia, ib;
	struct stats ra, rb;
	double fm[3], t, df, p, pr;

	/*
	 * a: file means 11, 15, 12, mean 38/3; squared deviations
	 * (25 + 49 + 4) / 9 = 26/3 over 2 df: variance 13/3.  Inside each
	 * file the repeats sit 1 from their mean: 2 per file, 6 over 3 df,
	 * variance 2.
	 */
	stats_invocations(a, a_cnt, 3, &ia, fm);
	is_near(fm[0], 11, 1e-12, "file 1: mean of its repeat means");
	is_near(fm[1], 15, 1e-12, "file 2: mean of its repeat means");
	is_near(fm[2], 12, 1e-12, "file 3: mean of its repeat means");
	is_int(ia.means.n, 3, "three invocation means");
	is_near(ia.means.mean, 38.0 / 3, 1e-12, "mean of the file means");
	is_near(ia.means.stddev, sqrt(13.0 / 3), 1e-12, "stddev of the file means");
	is_near(ia.tl.between_sd, sqrt(13.0 / 3), 1e-12, "between-invocation stddev");
	is_near(ia.tl.within_sd, sqrt(2), 1e-12, "between-repeat stddev inside a file");
	is_near(ia.tl.between_cv, sqrt(13.0 / 3) / (38.0 / 3), 1e-12, "between-invocation CV");
	is_near(ia.tl.within_cv, sqrt(2) / (38.0 / 3), 1e-12, "between-repeat CV");

	/*
	 * a against b (file means 20, 22, 18: variance 4): standard errors
	 * 13/9 + 12/9 = 25/9, so t = (38/3 - 20) / (5/3) = -4.4 and Welch's
	 * df = (25/9)^2 / ((13/9)^2 / 2 + (12/9)^2 / 2) = 1250/313.
	 * Two-sided p, by numeric integration of t's density: 0.011691 at
	 * 4 df, 0.011733 at 1250/313.
	 */
	p = invocation_means_test(a, a_cnt, 3, b, b_cnt, 3, &ia, &ib, &t, &df);
	is_near(t, -4.4, 1e-12, "invocation means: t = -4.4");
	is_near(df, 1250.0 / 313, 1e-12, "invocation means: df 1250/313");
	is_near(p, t_pvalue(4.4, 1250.0 / 313), 1e-15, "invocation means: p from t and df");
	is_near(p, 0.011733, 1e-6, "invocation means: p = 0.011733");
	is_near(ib.means.mean, 20, 1e-12, "b: mean of the file means");
	is_near(ib.tl.within_sd, 0, 0, "b: equal repeats, no spread inside a file");
	/*
	 * The same repeat means pooled as 6 + 6 independent observations:
	 * the pseudo-replicated test, which overstates significance.
	 */
	stats_compute(a, 6, &ra);
	stats_compute(b, 6, &rb);
	pr = welch_pvalue(&ra, &rb);
	ok(pr < p / 10, "pooling the repeats would claim p = %.6f, ten times less", pr);

	/* a file of one repeat: its mean is that repeat, no within df */
	stats_invocations(one, one_cnt, 2, &ia, fm);
	is_near(fm[0], 5, 1e-12, "one repeat: the file mean is the repeat");
	is_near(ia.means.mean, 6.5, 1e-12, "one repeat: mean of the file means 5 and 8");
	is_near(ia.means.stddev, sqrt(4.5), 1e-12, "one repeat: stddev of 5 and 8");
	is_near(ia.tl.within_sd, sqrt(2), 1e-12,
		"one repeat: the between-repeat spread from the other file alone");

	/*
	 * unequal counts: every file weighs the same, mean 22/3 (not the
	 * pooled repeat mean 38/6); deviations (100 + 64 + 4) / 9 over 2 df:
	 * variance 28/3; inside files (4 + 0 + 4) + (1 + 1) over 2 + 1 df.
	 */
	stats_invocations(uneq, uneq_cnt, 3, &ia, fm);
	is_near(fm[0], 4, 1e-12, "unequal counts: file of 3 repeats");
	is_near(fm[1], 10, 1e-12, "unequal counts: file of 1 repeat");
	is_near(fm[2], 8, 1e-12, "unequal counts: file of 2 repeats");
	is_near(ia.means.mean, 22.0 / 3, 1e-12, "unequal counts: unweighted mean of file means");
	is_near(ia.means.stddev, sqrt(28.0 / 3), 1e-12, "unequal counts: stddev of file means");
	is_near(ia.tl.within_sd, sqrt(10.0 / 3), 1e-12, "unequal counts: within weighted by df");

	/* zero variance: equal means p = 1 with n + n - 2 df, different p = 0 */
	p = invocation_means_test(flat3, flat_cnt, 2, flat3, flat_cnt, 2, &ia, &ib, &t, &df);
	is_near(p, 1, 0, "zero variance, equal: p = 1");
	is_near(t, 0, 0, "zero variance, equal: t = 0");
	is_near(df, 2, 0, "zero variance: df 2 + 2 - 2");
	is_near(ia.tl.between_cv, 0, 0, "zero variance: between-invocation CV 0");
	p = invocation_means_test(flat3, flat_cnt, 2, flat4, flat_cnt, 2, &ia, &ib, &t, &df);
	is_near(p, 0, 0, "zero variance, 3 against 4: p = 0");
	ok(isinf(t), "zero variance, 3 against 4: t infinite");

	/* a file without a value is no observation, and its mean is NaN */
	stats_invocations(holes, holes_cnt, 3, &ia, fm);
	ok(isnan(fm[0]), "a file without a value: NaN, never 0");
	is_int(ia.means.n, 2, "a file without a value is left out");
	is_near(ia.means.mean, 8, 1e-12, "the other files' mean");
	is_near(ia.means.stddev, sqrt(8), 1e-12, "the other files' stddev");

	/* fewer than two files with a value on a side: no test */
	p = invocation_means_test(lone, lone_cnt, 2, a, a_cnt, 3, &ia, &ib, &t, &df);
	ok(isnan(p) && isnan(t) && isnan(df), "one file with a value: no test (NaN)");
	is_int(ia.means.n, 1, "one file with a value");
	p = invocation_means_test(a, a_cnt, 1, b, b_cnt, 3, &ia, &ib, &t, &df);
	ok(isnan(p), "one file on a side: no test");
	is_near(ia.means.mean, 11, 1e-12, "one file: its mean still given");

	stats_invocations(a, a_cnt, 0, &ia, NULL);
	is_int(ia.means.n, 0, "no file: no mean");
	ok(isnan(ia.means.mean), "no file: mean NaN");

	return done_testing();
}
