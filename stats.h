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
 * Half-width of the 95% confidence interval of b's mean minus a's (Welch);
 * NaN when either has fewer than 2 values
 */
double welch_diff_ci95(const struct stats *a, const struct stats *b);

/* Jain's fairness index of n non-negative rates: 1 = perfectly fair */
double jain_index(const double *x, int n);

#endif /* __STATS_H */
