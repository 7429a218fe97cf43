// SPDX-License-Identifier: GPL-2.0
/*
 * The two-level statistics of --repeat and the power estimate of compare,
 * on data whose answers are worked out by hand in the comments.
 */
#include <math.h>

#include "stats.h"
#include "tap.h"

int main(void)
{
	/* repeats {1,2,3} and {4,5,6} */
	const double equal[] = { 1, 2, 3, 4, 5, 6 };
	const int equal_cnt[] = { 3, 3 };
	/* repeats {1,3} and {4,5,6,7,8}: unequal counts */
	const double unequal[] = { 1, 3, 4, 5, 6, 7, 8 };
	const int unequal_cnt[] = { 2, 5 };
	const double one[] = { 2, 4 };
	const int one_cnt[] = { 2 };
	const double flat[] = { 5, 5, 5, 5 };
	const int flat_cnt[] = { 2, 2 };
	const double holes[] = { NAN, 1, 3 };
	const int holes_cnt[] = { 1, 2 };
	struct two_level tl;
	struct stats a, b;
	double means[2], t, df;
	int n;

	/*
	 * Means 2 and 5: their mean 3.5, their stddev sqrt(1.5^2 + 1.5^2) =
	 * sqrt(4.5); within: squared deviations 2 + 2 over 2 + 2 df = 1.
	 */
	stats_two_level(equal, equal_cnt, 2, &tl, means);
	is_int(tl.repeats, 2, "equal: 2 repeats");
	is_int(tl.n, 6, "equal: 6 values");
	is_near(means[0], 2, 1e-12, "equal: repeat 1 mean");
	is_near(means[1], 5, 1e-12, "equal: repeat 2 mean");
	is_near(tl.mean, 3.5, 1e-12, "equal: mean of repeat means");
	is_near(tl.between_sd, sqrt(4.5), 1e-12, "equal: between-repeat stddev");
	is_near(tl.within_sd, 1, 1e-12, "equal: pooled within-repeat stddev");
	is_near(tl.between_cv, sqrt(4.5) / 3.5, 1e-12, "equal: between-repeat CV");
	is_near(tl.within_cv, 1 / 3.5, 1e-12, "equal: within-repeat CV");

	/*
	 * Means 2 and 6: each repeat weighs the same, so the mean is 4, not
	 * the pooled 34 / 7; between sqrt(2^2 + 2^2) = sqrt(8); within:
	 * (2 + 10) / (1 + 4) df.
	 */
	stats_two_level(unequal, unequal_cnt, 2, &tl, means);
	is_near(tl.mean, 4, 1e-12, "unequal counts: mean of repeat means, not of values");
	is_near(tl.between_sd, sqrt(8), 1e-12, "unequal counts: between-repeat stddev");
	is_near(tl.within_sd, sqrt(12.0 / 5), 1e-12, "unequal counts: within weighted by df");

	stats_two_level(one, one_cnt, 1, &tl, NULL);
	is_int(tl.repeats, 1, "one repeat: 1 repeat");
	is_near(tl.mean, 3, 1e-12, "one repeat: its mean");
	is_near(tl.between_sd, 0, 0, "one repeat: between stddev 0, not NaN");
	is_near(tl.within_sd, sqrt(2), 1e-12, "one repeat: within stddev is the sample stddev");

	stats_two_level(flat, flat_cnt, 2, &tl, NULL);
	is_near(tl.between_sd, 0, 0, "zero variance: between 0");
	is_near(tl.within_sd, 0, 0, "zero variance: within 0");
	is_near(tl.between_cv, 0, 0, "zero variance: CV 0");

	stats_two_level(holes, holes_cnt, 2, &tl, means);
	is_int(tl.repeats, 1, "a repeat without values is not counted");
	ok(isnan(means[0]), "its mean is NaN, never 0");
	is_near(tl.mean, 2, 1e-12, "the other repeat's mean");

	stats_two_level(holes, holes_cnt, 0, &tl, NULL);
	is_int(tl.repeats, 0, "no repeat: 0 repeats");
	ok(isnan(tl.mean), "no repeat: mean NaN");

	/* Welch: means 10 vs 12, sd 1 and 2, n 10 each: t = -2.828, df = 13.24 */
	a = (struct stats){ .n = 10, .mean = 10, .stddev = 1 };
	b = (struct stats){ .n = 10, .mean = 12, .stddev = 2 };
	welch_test(&a, &b, &t, &df);
	is_near(t, -2 / sqrt(0.5), 1e-9, "Welch t statistic");
	is_near(df, 0.25 / (0.01 / 9 + 0.16 / 9), 1e-9, "Welch-Satterthwaite df");
	is_near(t_crit(0.05, 10), 2.2281, 1e-3, "t_crit(0.05, 10)");
	/* one-sided 80% quantile of t with 8 df */
	is_near(t_crit(0.4, 8), 0.8889, 1e-3, "t_crit(0.4, 8): the 80%% one-sided quantile");

	/*
	 * sd 1 per side, delta 2: n = 5 gives 2 / sqrt(2/5) = 3.162 below
	 * t(0.975, 8) + t(0.8, 8) = 2.306 + 0.889; n = 6 gives 3.464 above
	 * 2.228 + 0.879.  (R: power.t.test(delta = 2, sd = 1, power = 0.8)
	 * says n = 5.09, so 6.)
	 */
	is_int(repeats_for_power(1, 1, 2, 0.05, 0.8, 1000), 6, "power: 6 repeats per side");
	is_near(detectable_change(1, 1, 6, 0.05, 0.8), (2.2281 + 0.8791) * sqrt(2.0 / 6), 2e-3,
		"detectable change with 6 repeats per side: (t(.975,10) + t(.8,10)) sqrt(2/6)");
	ok(isnan(detectable_change(1, 1, 1, 0.05, 0.8)), "detectable change: one repeat, NaN");
	is_int(repeats_for_power(1, 1, -2, 0.05, 0.8, 1000), 6, "power: the sign of the change does not matter");
	is_int(repeats_for_power(0, 0, 2, 0.05, 0.8, 1000), 2, "power: no spread, the minimum of 2");
	is_int(repeats_for_power(1, 1, 0, 0.05, 0.8, 1000), -1, "power: no change to detect");
	is_int(repeats_for_power(100, 100, 1, 0.05, 0.8, 1000), -1, "power: beyond the bound");
	/* 4x the spread needs about 16x the repeats: n = 2 (1.96 + 0.84)^2 16 / 4 ~ 63 */
	n = repeats_for_power(4, 4, 2, 0.05, 0.8, 1000);
	ok(n >= 62 && n <= 66, "power: 4x the spread, about 16x the repeats (got %d)", n);

	return done_testing();
}
