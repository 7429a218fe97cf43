// SPDX-License-Identifier: GPL-2.0
/*
 * The one verdict rule (results/verdict.c): the ratio of arithmetic means,
 * Fieller's interval, better/worse/within/undecided.  Expected values
 * worked out by hand below each case.
 */
#include <math.h>
#include <string.h>

#include "results/verdict.h"
#include "tap.h"

static void eval(double ma, double sa, int na, double mb, double sb, int nb, double thr,
		 double res, bool hib, struct verdict *v)
{
	struct verdict_in in = {
		.base = { ma, sa, na }, .new = { mb, sb, nb }, .threshold_pct = thr,
		.resolution = res, .unit = "MiB", .higher_is_better = hib, .obs = "runs",
	};

	verdict_eval(&in, v);
}

int main(void)
{
	struct verdict v;
	char buf[64];

	/*
	 * 2 + 2 runs: base {100, 110}, new {120, 130}.  Means 105 and 125, sd
	 * sqrt(50) each; va = vb = 50/2 = 25.  Welch df = 50^2 / (25^2 + 25^2)
	 * = 2, t(0.975, 2) = 4.3027.  Change 20/105 = +19.05%.  t = 20 /
	 * sqrt(50) = 2.828; on 2 df p = 1 - t / sqrt(t^2 + 2) = 0.1056.
	 * Fieller: A = 105^2 - 4.3027^2 * 25 = 10562.2, B = 105 * 125 = 13125,
	 * disc = t^2 (25 * 125^2 + 25 * A) = 1.2120e7, sqrt 3481.4; r in
	 * [(13125 - 3481.4) / A, (13125 + 3481.4) / A] = [0.9130, 1.5722]:
	 * [-8.70%, +57.22%].  It holds 0 and reaches past ±2%: undecided, and
	 * the detectable change is t * sqrt(50) / 105 = 28.98%.
	 */
	eval(105, sqrt(50), 2, 125, sqrt(50), 2, 2, 0, true, &v);
	is_near(v.change_pct, 19.048, 0.001, "2+2: change, the ratio of the means");
	is_near(v.df, 2, 1e-9, "2+2: Welch's df");
	is_near(v.p, 0.10557, 0.00001, "2+2: p = 1 - t / sqrt(t^2 + 2) on 2 df");
	is_near(v.lo_pct, -8.697, 0.001, "2+2: Fieller's lower bound");
	is_near(v.hi_pct, 57.225, 0.001, "2+2: Fieller's upper bound");
	is_near(v.detectable_pct, 28.976, 0.001, "2+2: detectable change t se / base");
	is_int(v.kind, VERDICT_UNDECIDED, "2+2: undecided");
	is_int(v.reason, VERDICT_R_FEW, "2+2: for too few runs");
	is_str(v.text, "undecided: 2 runs a side resolve only changes above 29.0%",
	       "2+2: the reason and what the runs resolve");

	/*
	 * 5 + 5 runs, base {98..102} (mean 100, sd sqrt(2.5)), new the same
	 * + 10.  va = vb = 2.5 / 5 = 0.5, df = 1 / (2 * 0.25 / 4) = 8, t =
	 * 2.3060.  A = 10000 - 2.306^2 * 0.5 = 9997.34, B = 11000, disc =
	 * 2.306^2 (0.5 * 110^2 + 0.5 * A) = 58753, sqrt 242.39: r in
	 * [1.07605, 1.12454]: [+7.60%, +12.45%], 0 left out: better.
	 */
	eval(100, sqrt(2.5), 5, 110, sqrt(2.5), 5, 2, 0, true, &v);
	is_near(v.lo_pct, 7.6047, 0.001, "5+5, +10%%: lower bound");
	is_near(v.hi_pct, 12.4538, 0.001, "5+5, +10%%: upper bound");
	ok(v.p < 0.001, "5+5, +10%%: p agrees (t = 10 on 8 df)");
	is_str(v.text, "better", "5+5, +10%%, higher is better: better");
	eval(100, sqrt(2.5), 5, 110, sqrt(2.5), 5, 2, 0, false, &v);
	is_str(v.text, "worse", "the same, lower is better: worse");
	ok(v.fails, "worse by 10%%, past the threshold: --fail-on-regression fails");

	/*
	 * +0.5% on the same spread: r in [0.98214, 1.02839] ([-1.79%,
	 * +2.84%]): 0 inside, past +2%: undecided (too noisy: 5 runs a side
	 * is not "too few"); inside ±5%: within ±5%.
	 */
	eval(100, sqrt(2.5), 5, 100.5, sqrt(2.5), 5, 2, 0, true, &v);
	is_near(v.hi_pct, 2.8390, 0.001, "+0.5%%: upper bound");
	is_str(v.text, "undecided: too noisy: 5 runs a side resolve only changes above 2.31%",
	       "+0.5%%, interval past ±2%%: undecided, too noisy");
	eval(100, sqrt(2.5), 5, 100.5, sqrt(2.5), 5, 5, 0, true, &v);
	is_str(v.text, "within ±5%", "+0.5%%, interval inside ±5%%: within ±5%%");

	/*
	 * +1%, lower is better, sd 0.1581 (va = vb = 0.005, se 0.1, df 8):
	 * [+0.77%, +1.23%] leaves out 0 but the change is below 2%: worse,
	 * said to be below the threshold, and not a failure.
	 */
	eval(100, sqrt(0.025), 5, 101, sqrt(0.025), 5, 2, 0, false, &v);
	is_near(v.lo_pct, 0.7685, 0.001, "+1%%: lower bound");
	is_str(v.text, "worse, below the ±2% threshold", "+1%% significant: worse, below the threshold");
	ok(!v.fails, "worse below the threshold: no --fail-on-regression");

	/* one run a side: no spread, no test, whatever the change (issue 40, 11) */
	eval(100, 0, 1, 104.31, 0, 1, 2, 0, true, &v);
	is_near(v.change_pct, 4.31, 1e-9, "1+1: the change");
	ok(isnan(v.lo_pct) && isnan(v.p), "1+1: no interval, no p");
	is_str(v.text, "undecided: 1 run a side, no spread: no test possible", "1+1: undecided, never within");

	/*
	 * memory, resolution 0.5 MiB: 0.74 -> 0.54 with no spread.  The
	 * interval [-27.03%, -27.03%] is widened to the resolution, 0.5 /
	 * 0.74 = 67.57% either way: 0 inside, past ±2%: undecided, below the
	 * resolution; and nothing below 67.57% claimed detectable.
	 */
	eval(0.74, 0, 2, 0.54, 0, 2, 2, 0.5, false, &v);
	is_near(v.lo_pct, -67.568, 0.001, "below the resolution: the interval widened to it");
	is_near(v.detectable_pct, 67.568, 0.001, "below the resolution: no smaller change detectable");
	is_str(v.text, "undecided: below the 0.5 MiB resolution", "0.2 MiB apart at 0.5 MiB resolution");
	/* 0.738 -> 13.119 MiB, a side's runs 0.01 MiB apart: worse, whatever few runs */
	eval(0.738, 0.01, 2, 13.119, 0.01, 2, 2, 0.5, false, &v);
	is_str(v.text, "worse", "memory x17.8 on 2+2 runs: worse");

	/*
	 * base {1, 100}: mean 50.5, sd 70.0, va = 2450; t^2 va = 45357 >
	 * 50.5^2 = 2550: the base mean is not itself above 0, the interval is
	 * unbounded, and said so
	 */
	eval(50.5, 70.0036, 2, 55, 7.0711, 2, 2, 0, true, &v);
	ok(isinf(v.lo_pct) && isinf(v.hi_pct), "unbounded: both ends");
	verdict_fmt_interval(v.lo_pct, v.hi_pct, buf, sizeof(buf));
	is_str(buf, "unbounded", "unbounded: printed as such");
	is_str(v.text, "undecided: 2 runs a side: too noisy to bound the change", "unbounded: undecided");

	/* precision: never five digits of percent */
	verdict_fmt_pct(2.3149, buf, sizeof(buf));
	is_str(buf, "+2.31%", "2 decimals under 10%%");
	verdict_fmt_pct(48.26, buf, sizeof(buf));
	is_str(buf, "+48.3%", "1 decimal under 100%%");
	verdict_fmt_pct(1615.4, buf, sizeof(buf));
	is_str(buf, "+1615%", "none under 10000%%");
	verdict_fmt_pct(25359.53, buf, sizeof(buf));
	is_str(buf, "+2.5e+04%", "beyond: in powers of ten");
	verdict_fmt_pct(-0.001, buf, sizeof(buf));
	is_str(buf, "+0.00%", "rounding noise is not -0.00%%");
	verdict_fmt_interval(-8.6966, 57.2249, buf, sizeof(buf));
	is_str(buf, "[-8.70, +57.2]%", "an interval");

	/* equal with no spread: [0, 0] lies inside ±2% */
	eval(0, 0, 2, 0, 0, 2, 2, 0, true, &v);
	is_str(v.text, "within ±2%", "0 on both sides, no spread: within");
	return done_testing();
}
