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

#endif /* __SEQUENTIAL_H */
