/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __STATS_H
#define __STATS_H

#include <stdbool.h>

/*
 * The one place statistics are computed.  Every reporter, the JSON writer
 * and `bench compare` use these, so a number means the same thing wherever
 * it is printed.
 */
struct stats {
	int n;
	double mean;
	double stddev;	/* sample (n - 1) standard deviation, 0 when n < 2 */
	double min;
	double max;
	double median;
	double cv;	/* stddev / |mean|, 0 when mean is 0 */
	double ci95;	/* half-width of the 95% confidence interval of the mean */
};

/* values may contain NaN (no value for that sample): those are skipped */
void stats_compute(const double *values, int n, struct stats *out);

/* two-sided Student t critical value for 95% and the given degrees of freedom */
double t_crit95(double df);

/* two-sided p-value of Student's t distribution with df degrees of freedom */
double t_pvalue(double t, double df);

/*
 * Welch's unequal-variance t-test of two samples given by their summaries;
 * returns the two-sided p-value (1.0 when it cannot be computed).
 */
double welch_pvalue(const struct stats *a, const struct stats *b);

/*
 * Welch's test as above, also giving the statistic and the
 * Welch-Satterthwaite degrees of freedom (NaN when it cannot be computed).
 */
double welch_test(const struct stats *a, const struct stats *b, double *t, double *df);

/* two-sided Student t critical value for probability alpha (e.g. 0.05) */
double t_crit(double alpha, double df);

/*
 * Two levels of one metric measured in repeats (repeat r owns counts[r]
 * consecutive values; NaN values are skipped): the repeats' means, their
 * mean and standard deviation (the between-repeat spread), and the pooled
 * within-repeat standard deviation (sqrt of the repeats' variances
 * averaged with n_r - 1 weights; 0 when no repeat has two values).
 */
struct two_level {
	int repeats;		/* repeats with at least one value */
	int n;			/* values in all */
	double mean;		/* mean of the repeat means */
	double between_sd;	/* sample stddev of the repeat means, 0 for one repeat */
	double within_sd;	/* pooled within-repeat stddev */
	double between_cv;	/* relative to |mean|, 0 when mean is 0 */
	double within_cv;
};

/* means (optional, counts' length) receives each repeat's mean, NaN if empty */
void stats_two_level(const double *values, const int *counts, int nrepeats,
		     struct two_level *out, double *means);

/*
 * Three nested levels: invocations (result files) of repeats of samples.
 * File f owns counts[f] consecutive entries of repeat_means (NaN: a repeat
 * without a value, skipped).  out->means summarises the file means, each
 * file's unweighted mean of its repeat means (a file with no value is left
 * out): the observations when the invocation is the unit.  out->tl's
 * between_sd is their stddev (between invocations), its within_sd the
 * pooled stddev of the repeat means around their own file's mean (between
 * repeats, without the invocations' drift).  file_means (optional, nfiles
 * entries) receives each file's mean, NaN if it has none.
 */
struct invocations {
	struct stats means;
	struct two_level tl;
};

void stats_invocations(const double *repeat_means, const int *counts, int nfiles,
		       struct invocations *out, double *file_means);

/*
 * Welch's t-test on two sides' invocation means, each side given by its
 * repeat means and repeats per file as above (a and b receive the sides'
 * levels).  Returns the two-sided p-value, *t and *df as welch_test(); NaN
 * for all three when a side has fewer than two files with a value.
 */
double invocation_means_test(const double *means_a, const int *counts_a, int nfiles_a,
			     const double *means_b, const int *counts_b, int nfiles_b,
			     struct invocations *a, struct invocations *b, double *t, double *df);

/*
 * Units per side (repeats, or invocations: whatever the observations are)
 * for a two-sided Welch test at p < alpha to detect a difference delta
 * with the given power, for standard deviations sd_a and sd_b between
 * those units (normal approximation refined with t quantiles of the
 * resulting degrees of freedom).  At least 2; -1 when delta is 0 or beyond
 * max; 2 when both spreads are 0.
 */
int repeats_for_power(double sd_a, double sd_b, double delta, double alpha, double power, int max);

/*
 * The inverse: the smallest difference n units per side detect (same
 * test, alpha and power); NaN for n < 2.
 */
double detectable_change(double sd_a, double sd_b, int n, double alpha, double power);

/*
 * Half-width of the 95% confidence interval of b's mean minus a's (Welch);
 * NaN when either has fewer than 2 values
 */
double welch_diff_ci95(const struct stats *a, const struct stats *b);

/*
 * Robust summaries of one metric's values: reported beside the mean and
 * never applied to it (no value is dropped or down-weighted anywhere).
 * Quantiles interpolate linearly between order statistics at position
 * (n - 1) p (Hyndman and Fan's type 7, numpy's and R's default), so
 * the median, quartiles and p90/p99 of a handful of samples are defined.
 * mad is the raw median absolute deviation from the median (multiply by
 * 1.4826 to estimate a normal stddev); Tukey's fences are q1 - 1.5 iqr
 * and q3 + 1.5 iqr.
 */
struct robust {
	int n;
	double median, min, max, p90, p99, q1, q3, iqr, mad;
	double low_fence, high_fence;
	int outliers;		/* values outside the fences */
};

/* one value outside Tukey's fences: flagged, not dropped */
struct outlier {
	int index;		/* position in the values given (NaN ones counted) */
	double value;
	bool high;		/* above the high fence (else below the low one) */
	double beyond;		/* how far past the fence, in the unit (> 0) */
	double iqrs;		/* distance from the nearer quartile in IQRs; INFINITY when iqr is 0 */
};

/* the p-quantile (0 <= p <= 1) of n sorted values, type 7; NaN for n 0 */
double quantile_sorted(const double *sorted, int n, double p);

/*
 * Robust summaries of values (NaN skipped); out->outliers counts the
 * values outside the fences and the first max of them, in the order of
 * values, go to outl (may be NULL).  0, or -ENOMEM.
 */
int stats_robust(const double *values, int n, struct robust *out, struct outlier *outl, int max);

/*
 * Mann-Whitney's rank-sum test of b against a and the Hodges-Lehmann
 * estimate of the shift b - a (the median of the na * nb differences
 * b_j - a_i) with its distribution-free interval (Moses): the k-th
 * smallest and k-th largest difference, k from U's null distribution, so
 * that it covers the shift with probability at least 1 - alpha.  U is
 * exact (no ties, na and nb <= RANK_EXACT_MAX) or normal with tie and
 * continuity corrections.  lo and hi are NaN when the sides are too small
 * for any interval at that level (e.g. 3 + 3 at alpha 0.05).
 */
#define RANK_EXACT_MAX 50
struct rank_test {
	int na, nb;
	double u;		/* pairs with b_j > a_i, ties counted a half */
	double p;		/* two-sided */
	bool exact;
	double shift, lo, hi;	/* Hodges-Lehmann and its interval */
	double conf;		/* the interval's actual coverage (exact) or nominal */
};

/* 0, -EINVAL (a side without values), or -ENOMEM; NaN values skipped */
int rank_test(const double *a, int na, const double *b, int nb, double alpha,
	      struct rank_test *out);

/*
 * The 1 - alpha interval of the ratio of two positive means, b / a, on
 * the log scale: log(b/a) ± t(df) * sqrt(cv_a^2 / n_a + cv_b^2 / n_b)
 * (the delta method), df by Welch-Satterthwaite on those two terms.  A
 * ratio interval never reaches 0, so the percent change it gives never
 * reaches below -100%.  0, or -EDOM when a mean is not positive or a side
 * has fewer than 2 values.
 */
int ratio_ci(const struct stats *a, const struct stats *b, double alpha, double *lo, double *hi);

/* the same from a log-ratio's standard error and degrees of freedom */
int ratio_ci_se(double ratio, double se_log, double df, double alpha, double *lo, double *hi);

/*
 * Pairs (a[i], b[i]) of positive values, e.g. adjacent A and B invocations
 * that share the machine's drift: the paired t-test on d = log(b / a), the
 * ratio exp(mean d) and its 1 - alpha interval.  A pair with a NaN or a
 * value not above 0 is skipped and counted in out->skipped.  0, or -EDOM
 * with fewer than 2 usable pairs (out->ratio is then still set for 1).
 */
struct paired_ratio {
	int n, skipped;
	double mean_log, sd_log;	/* of the n log ratios */
	double ratio, lo, hi;		/* exp(mean_log) and its interval */
	double t, df, p;		/* two-sided; p 1 when every d is equal and 0 */
};

int paired_log_ratio(const double *a, const double *b, int n, double alpha,
		     struct paired_ratio *out);

/*
 * One change b against a, every figure from one test on the log scale:
 * the estimate of log(b/a), its ratio exp(est) and the ratio's 1 - alpha
 * interval [lo, hi], and the test's two-sided p.  The interval and p are
 * dual: p < alpha exactly when the interval leaves out 1 (no change),
 * so a verdict cannot contradict the interval printed beside it.
 */
struct log_change {
	int na, nb;		/* observations used (pairs: the same) */
	int skipped;		/* left out: NaN, or a value not above 0 */
	double est;		/* of log(b/a) */
	double ratio, lo, hi;	/* exp(est) and its interval; NaN: none */
	double p;		/* NaN: no test */
	double t, df, se;	/* the t-based tests' statistic, df and standard error */
	double conf;		/* the interval's coverage: 1 - alpha, or a rank interval's exact one */
	bool exact;		/* a rank test's exact null distribution */
};

/*
 * Welch's t-test on log(a) and log(b): the ratio of the geometric means,
 * its interval exp(difference ± t se) on Welch-Satterthwaite df.  With
 * one value on a side, its spread is taken to be the other side's (a
 * pooled test on the other side's df).  0, or -EDOM: a value not above 0
 * (test the values instead), or too few values for a test.
 */
int welch_log(const double *a, int na, const double *b, int nb, double alpha,
	      struct log_change *out);

/*
 * Wilcoxon's signed-rank test of n differences d (NaN skipped) against 0
 * and the Hodges-Lehmann estimate of their centre: the median of the
 * n (n + 1) / 2 Walsh averages (d_i + d_j) / 2, i <= j, with its
 * distribution-free interval [W(k), W(N + 1 - k)] (Tukey's), k the largest
 * with P(T <= k - 1) <= alpha / 2 under no change.  The statistic is
 * counted from the Walsh averages themselves, T = min(#{W <= 0},
 * #{W >= 0}) (Wilcoxon's T+ when nothing is 0 or tied), p = 2 P(T' <= T):
 * so p <= alpha exactly when the interval leaves out 0, ties and zeros
 * included.  T' is exact up to SIGNED_RANK_EXACT_MAX values, normal with
 * a continuity correction beyond.  lo and hi are NaN when n is too small
 * for any interval at that level (n < log2(2 / alpha)).
 */
#define SIGNED_RANK_EXACT_MAX 300
struct signed_rank {
	int n;
	double t;		/* min(#{W <= 0}, #{W >= 0}) */
	double p;
	bool exact;
	double shift, lo, hi;	/* Hodges-Lehmann and its interval */
	double conf;		/* the interval's coverage */
};

/* 0, -EINVAL (no value), or -ENOMEM */
int signed_rank_test(const double *d, int n, double alpha, struct signed_rank *out);

/*
 * Pairs (a[i], b[i]) of positive values, robustly: the Hodges-Lehmann
 * shift of the log ratios log(b/a) and its signed-rank interval, as a
 * ratio, and the signed-rank p.  A pair far out (a starved invocation)
 * moves the Walsh averages' median by at most one rank, not by its size.
 * Pairs with a NaN or a value not above 0 are skipped.  0, -EDOM with no
 * usable pair, -ENOMEM.
 */
int paired_log_hl(const double *a, const double *b, int n, double alpha, struct log_change *out);

/*
 * The same pairs by the paired t-test on their log ratios
 * (paired_log_ratio() in a log_change)
 */
int paired_log_t(const double *a, const double *b, int n, double alpha, struct log_change *out);

/*
 * The same pairs by the 20% (gamma) trimmed mean of their log ratios and
 * its t-test (trimmed_t()), as a ratio: a starved pair is trimmed away
 * once it is among the floor(gamma n) lowest or highest.  0, -EDOM with
 * fewer than 2 usable pairs left after trimming, -ENOMEM.
 */
int paired_log_trimmed(const double *a, const double *b, int n, double gamma, double alpha,
		       struct log_change *out);

/*
 * The trimmed mean of n values d (NaN skipped), trimming floor(gamma n)
 * from each end, and Tukey and McLaughlin's t-test of it against 0: the
 * winsorized standard deviation s_w, se = s_w / ((1 - 2 gamma) sqrt(n)),
 * df = n - 2 floor(gamma n) - 1 (Wilcox's trimci).  est, se, t, df, p and
 * the interval est ± t(df) se (not exponentiated: lo and hi are of est).
 * 0, -EDOM with fewer than 2 values left, -ENOMEM.
 */
int trimmed_t(const double *d, int n, double gamma, double alpha, struct log_change *out);

/*
 * Observations an interval at two-sided level alpha rests on: with n
 * paired observations no test that assumes no distribution gets below
 * 2^(1 - n) (every sign alike), so an interval at a smaller alpha from
 * fewer than this many comes from assumed tails alone.  The smallest n
 * with 2^(1 - n) <= alpha.
 */
int min_obs_for_level(double alpha);

/* the standard normal CDF, and its inverse for 0 < p < 1 */
double norm_cdf(double z);
double norm_quantile(double p);

/* Jain's fairness index of n non-negative rates: 1 = perfectly fair */
double jain_index(const double *x, int n);

#endif /* __STATS_H */
