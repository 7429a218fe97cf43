/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __SEQUENTIAL_H
#define __SEQUENTIAL_H

/*
 * A group-sequential two-sided test with Lan and DeMets' alpha spending:
 * the data may be looked at after every block, and the test stops as soon
 * as a look crosses its boundary, while the chance of a false positive
 * over all looks stays alpha.  Each look spends the alpha the spending
 * function has reached at its information fraction t (0 < t <= 1) less
 * what earlier looks spent; its boundary is the z that makes the chance,
 * under no change, of crossing first at this look equal that spend, found
 * by numerical integration over the paths that crossed no earlier
 * boundary (Armitage, McPherson and Rowe's recursion).  t need not be
 * planned in advance (a share of a time budget will do), as long as it
 * does not depend on the data; the last look passes t = 1 and spends
 * what is left.
 */

enum seq_spending {
	/*
	 * O'Brien-Fleming type, each side 2 - 2 Phi(z(1 - alpha/4) / sqrt(t))
	 * (Lan and DeMets' function at alpha / 2 a side): almost nothing early
	 */
	SEQ_OBRIEN_FLEMING,
	/* Pocock type, alpha log(1 + (e - 1) t): evenly */
	SEQ_POCOCK,
};

#define SEQ_GRID 401	/* integration points (odd: Simpson's rule) */

struct seq_test {
	enum seq_spending spending;
	double alpha;
	int looks;		/* looks taken so far */
	double spent;		/* alpha spent by them */
	double last_info, last_t;
	/* the sub-density of the score at the last look, on its continuation region */
	double x[SEQ_GRID], w[SEQ_GRID];
};

void seq_init(struct seq_test *s, enum seq_spending spending, double alpha);

/* the alpha the spending function has reached at t */
double seq_spend(enum seq_spending spending, double alpha, double t);

/*
 * Take a look at information info (e.g. the number of observations; it
 * must grow from look to look) and fraction t: returns the look's z
 * boundary (INFINITY when it spends nothing: no rejection possible) and
 * in *nominal the two-sided p-value that boundary is (a t statistic on
 * few degrees of freedom is compared at that level, not at the z).
 * NaN when info or t does not grow.
 */
double seq_look(struct seq_test *s, double info, double t, double *nominal);

/*
 * What a look tests: the observations (bench ab's block mean log ratios)
 * by one of three statistics, each giving its estimate, its interval at
 * the look's level and its p-value from the one test, so that the verdict
 * is the interval's.
 */
enum seq_stat {
	SEQ_STAT_T,		/* the mean, Student's t */
	SEQ_STAT_TRIMMED,	/* the 20% trimmed mean, Tukey-McLaughlin's t */
	SEQ_STAT_RANK,		/* Hodges-Lehmann, Wilcoxon's signed-rank test */
};

#define SEQ_TRIM 0.2

struct seq_est {
	int n;
	double level;		/* two-sided: the interval covers 1 - level */
	double est, lo, hi;	/* lo and hi NaN: no interval the data can support */
	double p;
	double se, df;		/* the t-based tests' (NaN for the rank test) */
	double stat, crit;	/* |t| and its bound at level; the rank test: T and NaN */
	int need;		/* observations an interval at this level needs */
};

/* "t", "trimmed", "rank" */
const char *seq_stat_name(enum seq_stat stat);

/*
 * The estimate and its 1 - level interval from n observations.  No
 * interval (lo, hi NaN) when n is below min_obs_for_level(level): at a
 * level smaller than 2^(1 - n) an interval rests on assumed tails alone
 * (a t quantile on 2 df at level 1e-6 is in the hundreds), nor when the
 * rank test has none.  0, or -errno (too few observations for any test).
 */
int seq_estimate(enum seq_stat stat, const double *obs, int n, double level, struct seq_est *out);

/*
 * The verdict of a look from its interval alone: 1 when it lies above 0,
 * -1 below, 2 when it lies inside (lo_thr, hi_thr) (no change that
 * large), 0 otherwise or without an interval.
 */
int seq_verdict(const struct seq_est *e, double lo_thr, double hi_thr);

/*
 * The change the same test detects with the given power at this look's
 * level and spread, from its interval's half-width h: h (1 + q(power) /
 * q(level)), t quantiles on the test's df (normal ones for the rank
 * test); NaN without an interval.
 */
double seq_detectable(const struct seq_est *e, double power);

#endif /* __SEQUENTIAL_H */
