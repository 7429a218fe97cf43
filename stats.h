/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __STATS_H
#define __STATS_H

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

/* Jain's fairness index of n non-negative rates: 1 = perfectly fair */
double jain_index(const double *x, int n);

#endif /* __STATS_H */
