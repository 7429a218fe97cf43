// SPDX-License-Identifier: GPL-2.0
/* The statistics module on data whose answers are known by hand. */
#include <math.h>

#include "stats.h"
#include "tap.h"

int main(void)
{
	const double odd[] = { 2, 4, 4, 4, 5, 5, 7, 9, 1 };
	const double even[] = { 10, 1, 7, 4 };
	const double with_nan[] = { NAN, 3, NAN, 5 };
	const double one[] = { 42 };
	const double fair[] = { 5, 5, 5, 5 };
	const double unfair[] = { 10, 0 };
	struct stats s, a, b;

	stats_compute(odd, 9, &s);
	is_int(s.n, 9, "odd: n");
	is_near(s.mean, 41.0 / 9, 1e-12, "odd: mean");
	/* sum of squares 233, squared deviations 233 - 41^2/9, over n - 1 = 8 */
	is_near(s.stddev, sqrt((233.0 - 41.0 * 41.0 / 9) / 8), 1e-12, "odd: sample stddev (n - 1)");
	is_near(s.median, 4, 0, "odd: median is the middle value");
	is_near(s.min, 1, 0, "odd: min");
	is_near(s.max, 9, 0, "odd: max");
	is_near(s.cv, s.stddev / s.mean, 1e-12, "odd: coefficient of variation");
	/* t(0.975, 8) = 2.306004 */
	is_near(s.ci95, 2.306004 * s.stddev / 3, 1e-5, "odd: 95%% CI half-width");

	stats_compute(even, 4, &s);
	is_near(s.median, 5.5, 0, "even: median averages the two middle values");
	is_near(s.mean, 5.5, 1e-12, "even: mean");
	is_near(s.stddev, sqrt(45.0 / 3), 1e-12, "even: sample stddev");

	stats_compute(with_nan, 4, &s);
	is_int(s.n, 2, "NaN samples are skipped");
	is_near(s.mean, 4, 1e-12, "mean over the values present");

	stats_compute(one, 1, &s);
	is_near(s.stddev, 0, 0, "one sample: stddev is 0, not NaN");
	is_near(s.ci95, 0, 0, "one sample: no interval");

	stats_compute(one, 0, &s);
	is_int(s.n, 0, "empty: n is 0");
	ok(isnan(s.mean), "empty: mean is NaN, never a made-up 0");

	is_near(t_crit95(1), 12.7062, 1e-3, "t critical value, 1 df");
	is_near(t_crit95(10), 2.2281, 1e-3, "t critical value, 10 df");
	is_near(t_crit95(1000), 1.9623, 1e-3, "t critical value, 1000 df");
	is_near(t_pvalue(2.2281388, 10), 0.05, 1e-5, "p-value at the 10 df critical value");
	is_near(t_pvalue(0, 5), 1.0, 1e-12, "p-value of t = 0 is 1");

	/* Welch: means 10 vs 12, sd 1 and 2, n 10 and 10 => t = -2.828, df = 13.24, p = 0.0141 */
	a = (struct stats){ .n = 10, .mean = 10, .stddev = 1 };
	b = (struct stats){ .n = 10, .mean = 12, .stddev = 2 };
	is_near(welch_pvalue(&a, &b), 0.01412, 2e-4, "Welch t-test p-value");
	is_near(welch_pvalue(&a, &a), 1.0, 1e-12, "identical samples: p = 1");
	b.n = 1;
	is_near(welch_pvalue(&a, &b), 1.0, 0, "one sample: no test possible, p = 1");

	is_near(jain_index(fair, 4), 1.0, 1e-12, "Jain index of equal rates is 1");
	is_near(jain_index(unfair, 2), 0.5, 1e-12, "Jain index of one starved producer of two is 1/2");

	return done_testing();
}
