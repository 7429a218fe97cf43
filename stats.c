// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_compute(const double *values, int n, struct stats *out)
{
	double sum = 0.0, sq = 0.0, *sorted;
	int i, m = 0;

	memset(out, 0, sizeof(*out));
	sorted = n > 0 ? malloc(n * sizeof(*sorted)) : NULL;
	if (n > 0 && !sorted) {
		out->mean = out->stddev = out->min = out->max = NAN;
		out->median = out->cv = out->ci95 = NAN;
		return;
	}
	for (i = 0; i < n; i++) {
		if (isnan(values[i]))
			continue;
		sorted[m++] = values[i];
	}
	out->n = m;
	if (m == 0) {
		out->mean = out->stddev = out->min = out->max = NAN;
		out->median = out->cv = out->ci95 = NAN;
		free(sorted);
		return;
	}
	/* two-pass: the mean first, then squared deviations, for accuracy */
	for (i = 0; i < m; i++)
		sum += sorted[i];
	out->mean = sum / m;
	for (i = 0; i < m; i++)
		sq += (sorted[i] - out->mean) * (sorted[i] - out->mean);
	out->stddev = m > 1 ? sqrt(sq / (m - 1)) : 0.0;

	qsort(sorted, m, sizeof(*sorted), cmp_double);
	out->min = sorted[0];
	out->max = sorted[m - 1];
	out->median = m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2.0;
	out->cv = out->mean != 0.0 ? out->stddev / fabs(out->mean) : 0.0;
	out->ci95 = m > 1 ? t_crit95(m - 1) * out->stddev / sqrt(m) : 0.0;
	free(sorted);
}

/*
 * Regularised incomplete beta function by Lentz's continued fraction
 * (Numerical Recipes' betacf formulation, written from the maths).
 */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-15, fpmin = 1e-300;
	double qab = a + b, qap = a + 1.0, qam = a - 1.0;
	double c = 1.0, d = 1.0 - qab * x / qap, h, del, aa;
	int m, m2;

	if (fabs(d) < fpmin)
		d = fpmin;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < fpmin)
			d = fpmin;
		c = 1.0 + aa / c;
		if (fabs(c) < fpmin)
			c = fpmin;
		d = 1.0 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1.0 + aa * d;
		if (fabs(d) < fpmin)
			d = fpmin;
		c = 1.0 + aa / c;
		if (fabs(c) < fpmin)
			c = fpmin;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < eps)
			break;
	}
	return h;
}

static double incbeta(double a, double b, double x)
{
	double bt;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1.0 - x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return bt * betacf(a, b, x) / a;
	return 1.0 - bt * betacf(b, a, 1.0 - x) / b;
}

double t_pvalue(double t, double df)
{
	if (isnan(t) || df <= 0)
		return 1.0;
	if (isinf(t))
		return 0.0;
	return incbeta(df / 2.0, 0.5, df / (df + t * t));
}

double t_crit95(double df)
{
	double lo = 0.0, hi = 1000.0, mid;
	int i;

	if (df <= 0)
		return NAN;
	/* p-value falls monotonically with t: bisect for p = 0.05 */
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2.0;
		if (t_pvalue(mid, df) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

double welch_pvalue(const struct stats *a, const struct stats *b)
{
	double va, vb, se2, t, df;

	if (a->n < 2 || b->n < 2)
		return 1.0;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	if (se2 == 0.0)
		return a->mean == b->mean ? 1.0 : 0.0;
	t = (a->mean - b->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return t_pvalue(t, df);
}

double jain_index(const double *x, int n)
{
	double sum = 0.0, sq = 0.0;
	int i;

	if (n <= 0)
		return NAN;
	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	if (sq == 0.0)
		return 1.0;
	return sum * sum / (n * sq);
}

double welch_diff_ci95(const struct stats *a, const struct stats *b)
{
	double va, vb, se2, df;

	if (a->n < 2 || b->n < 2)
		return NAN;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	if (se2 == 0.0)
		return 0.0;
	/* the same Welch-Satterthwaite degrees of freedom as welch_pvalue() */
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return t_crit95(df) * sqrt(se2);
}
