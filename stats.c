// SPDX-License-Identifier: GPL-2.0
/*
 * The one place statistics are computed: mean, deviation, median, Student's
 * t and Welch's test, the two levels of repeats and of invocations, power
 * and fairness.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
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

double t_crit(double alpha, double df)
{
	double lo = 0.0, hi = 1e15, mid;
	int i;

	if (df <= 0 || !(alpha > 0 && alpha < 1))
		return NAN;
	/*
	 * p-value falls monotonically with t: bisect for p = alpha, up to 1e15
	 * (a sequential look at a tiny level on 2 degrees of freedom needs t
	 * far beyond 1000)
	 */
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2.0;
		if (t_pvalue(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

double t_crit95(double df)
{
	return t_crit(0.05, df);
}

double welch_test(const struct stats *a, const struct stats *b, double *t, double *df)
{
	double va, vb, se2;

	*t = *df = NAN;
	if (a->n < 2 || b->n < 2)
		return 1.0;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	if (se2 == 0.0) {
		*df = a->n + b->n - 2;
		*t = a->mean == b->mean ? 0.0 : INFINITY;
		return a->mean == b->mean ? 1.0 : 0.0;
	}
	*t = (a->mean - b->mean) / sqrt(se2);
	*df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return t_pvalue(*t, *df);
}

double welch_pvalue(const struct stats *a, const struct stats *b)
{
	double t, df;

	return welch_test(a, b, &t, &df);
}

void stats_two_level(const double *values, const int *counts, int nrepeats,
		     struct two_level *out, double *means)
{
	double sum_means = 0.0, sq = 0.0, within_sq = 0.0, m;
	int r, i, k, off = 0, within_df = 0, cnt;

	memset(out, 0, sizeof(*out));
	out->mean = out->between_sd = out->within_sd = NAN;
	out->between_cv = out->within_cv = NAN;
	for (r = 0; r < nrepeats; off += counts[r], r++) {
		double sum = 0.0;

		for (i = 0, cnt = 0; i < counts[r]; i++) {
			if (isnan(values[off + i]))
				continue;
			sum += values[off + i];
			cnt++;
		}
		if (means)
			means[r] = cnt ? sum / cnt : NAN;
		if (!cnt)
			continue;
		m = sum / cnt;
		for (i = 0; i < counts[r]; i++)
			if (!isnan(values[off + i]))
				within_sq += (values[off + i] - m) * (values[off + i] - m);
		within_df += cnt - 1;
		out->n += cnt;
		out->repeats++;
		sum_means += m;
	}
	if (!out->repeats)
		return;
	out->mean = sum_means / out->repeats;
	/* second pass over the repeat means, for accuracy */
	for (r = 0, off = 0; r < nrepeats; off += counts[r], r++) {
		double sum = 0.0;

		for (i = 0, k = 0; i < counts[r]; i++) {
			if (isnan(values[off + i]))
				continue;
			sum += values[off + i];
			k++;
		}
		if (k)
			sq += (sum / k - out->mean) * (sum / k - out->mean);
	}
	out->between_sd = out->repeats > 1 ? sqrt(sq / (out->repeats - 1)) : 0.0;
	out->within_sd = within_df ? sqrt(within_sq / within_df) : 0.0;
	out->between_cv = out->mean != 0.0 ? out->between_sd / fabs(out->mean) : 0.0;
	out->within_cv = out->mean != 0.0 ? out->within_sd / fabs(out->mean) : 0.0;
}

void stats_invocations(const double *repeat_means, const int *counts, int nfiles,
		       struct invocations *out, double *file_means)
{
	double *fm = file_means;

	if (!fm && nfiles > 0)
		fm = malloc(nfiles * sizeof(*fm));
	if (!fm && nfiles > 0) {
		stats_compute(NULL, 0, &out->means);
		memset(&out->tl, 0, sizeof(out->tl));
		out->tl.mean = out->tl.between_sd = out->tl.within_sd = NAN;
		out->tl.between_cv = out->tl.within_cv = NAN;
		return;
	}
	/* two levels again, one up: a file is a group of repeat means */
	stats_two_level(repeat_means, counts, nfiles, &out->tl, fm);
	stats_compute(fm, nfiles, &out->means);
	if (fm != file_means)
		free(fm);
}

/*
 * Repeats of one invocation share whatever the machine did during it, so
 * they are not independent across invocations.  In a balanced nested
 * design (every file the same number of repeats) a file mean's variance is
 * the between-invocation variance plus the between-repeat variance over
 * the repeats per file, and the file means are independent: a t-test on
 * them is exact, where pooling the repeat means would count correlated
 * repeats as independent and overstate significance.  With unequal
 * repeat counts the unweighted file means stay unbiased, and the test is
 * approximate.
 */
double invocation_means_test(const double *means_a, const int *counts_a, int nfiles_a,
			     const double *means_b, const int *counts_b, int nfiles_b,
			     struct invocations *a, struct invocations *b, double *t, double *df)
{
	stats_invocations(means_a, counts_a, nfiles_a, a, NULL);
	stats_invocations(means_b, counts_b, nfiles_b, b, NULL);
	if (a->means.n < 2 || b->means.n < 2) {
		*t = *df = NAN;
		return NAN;
	}
	return welch_test(&a->means, &b->means, t, df);
}

/*
 * n per side detects delta when delta / sqrt(var / n) reaches the
 * two-sided critical t plus the one-sided power quantile, at Welch's
 * degrees of freedom for equal n (n - 1 when one spread is 0).
 */
double detectable_change(double sd_a, double sd_b, int n, double alpha, double power)
{
	double var = sd_a * sd_a + sd_b * sd_b, df = n - 1, ta, tb;

	if (n < 2 || !isfinite(var))
		return NAN;
	if (sd_a > 0 && sd_b > 0) {
		double va = sd_a * sd_a / n, vb = sd_b * sd_b / n;

		df = (va + vb) * (va + vb) / (va * va / (n - 1) + vb * vb / (n - 1));
	}
	ta = t_crit(alpha, df);
	/* one-sided quantile: two-sided probability 2 * (1 - power) */
	tb = t_crit(2.0 * (1.0 - power), df);
	return (ta + tb) * sqrt(var / n);
}

int repeats_for_power(double sd_a, double sd_b, double delta, double alpha, double power, int max)
{
	double var = sd_a * sd_a + sd_b * sd_b;
	int n;

	if (!(fabs(delta) > 0) || !isfinite(var))
		return -1;
	if (var == 0.0)
		return 2;
	for (n = 2; n <= max; n++)
		if (fabs(delta) >= detectable_change(sd_a, sd_b, n, alpha, power))
			return n;
	return -1;
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

double norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double norm_quantile(double p)
{
	double lo = -40.0, hi = 40.0, mid;
	int i;

	if (!(p > 0 && p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	/* the CDF rises monotonically: bisect, as t_crit() does */
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2.0;
		if (norm_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

double quantile_sorted(const double *sorted, int n, double p)
{
	double h;
	int i;

	if (n <= 0)
		return NAN;
	h = (n - 1) * p;
	i = (int)floor(h);
	if (i >= n - 1)
		return sorted[n - 1];
	if (i < 0)
		return sorted[0];
	return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
}

/* the finite values of values[0..n-1], sorted, in *out (malloc'ed); their count */
static int sorted_copy(const double *values, int n, double **out)
{
	double *s = malloc((n > 0 ? n : 1) * sizeof(*s));
	int i, m = 0;

	*out = s;
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!isnan(values[i]))
			s[m++] = values[i];
	qsort(s, m, sizeof(*s), cmp_double);
	return m;
}

int stats_robust(const double *values, int n, struct robust *out, struct outlier *outl, int max)
{
	double *s, *dev;
	int i, m;

	memset(out, 0, sizeof(*out));
	m = sorted_copy(values, n, &s);
	if (m < 0)
		return m;
	out->n = m;
	out->median = quantile_sorted(s, m, 0.5);
	out->min = m ? s[0] : NAN;
	out->max = m ? s[m - 1] : NAN;
	out->p90 = quantile_sorted(s, m, 0.90);
	out->p99 = quantile_sorted(s, m, 0.99);
	out->q1 = quantile_sorted(s, m, 0.25);
	out->q3 = quantile_sorted(s, m, 0.75);
	out->iqr = out->q3 - out->q1;
	out->low_fence = out->q1 - 1.5 * out->iqr;
	out->high_fence = out->q3 + 1.5 * out->iqr;
	/* the deviations reuse the sorted buffer: the median is already taken */
	dev = s;
	for (i = 0; i < m; i++)
		dev[i] = fabs(dev[i] - out->median);
	qsort(dev, m, sizeof(*dev), cmp_double);
	out->mad = quantile_sorted(dev, m, 0.5);
	free(s);
	for (i = 0; m && i < n; i++) {
		double v = values[i];
		bool high = v > out->high_fence;

		if (isnan(v) || (!high && !(v < out->low_fence)))
			continue;
		if (outl && out->outliers < max) {
			struct outlier *o = &outl[out->outliers];

			o->index = i;
			o->value = v;
			o->high = high;
			o->beyond = high ? v - out->high_fence : out->low_fence - v;
			o->iqrs = out->iqr > 0 ? (high ? v - out->q3 : out->q1 - v) / out->iqr : INFINITY;
		}
		out->outliers++;
	}
	return 0;
}

/*
 * U's null distribution for m and n values without ties: the number of
 * orderings with U = u is the number of partitions of u into at most m
 * parts of at most n (a Young diagram in an m x n box), counted by
 * p(u; m, n') = p(u; m, n' - 1) + p(u - n'; m - 1, n'), only additions, so
 * the small tail counts a p-value rests on stay exact.  cnt[0..m*n]
 * receives the probabilities.  0 or -ENOMEM.
 */
static int u_null_dist(int m, int n, double *cnt)
{
	int w = m * n + 1, j, k, u;
	double *prev, *cur, total = 0;

	prev = calloc((size_t)(m + 1) * w, sizeof(*prev));
	cur = calloc((size_t)(m + 1) * w, sizeof(*cur));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	/* n' = 0: only u = 0, for every number of parts */
	for (k = 0; k <= m; k++)
		prev[(size_t)k * w] = 1;
	for (j = 1; j <= n; j++) {
		for (k = 0; k <= m; k++) {
			double *c = cur + (size_t)k * w, *p = prev + (size_t)k * w;

			for (u = 0; u < w; u++) {
				c[u] = p[u];
				if (k > 0 && u >= j)
					c[u] += cur[(size_t)(k - 1) * w + u - j];
			}
		}
		memcpy(prev, cur, (size_t)(m + 1) * w * sizeof(*prev));
	}
	for (u = 0; u < w; u++)
		total += prev[(size_t)m * w + u];
	for (u = 0; u < w; u++)
		cnt[u] = prev[(size_t)m * w + u] / total;
	free(prev);
	free(cur);
	return 0;
}

/* the tie correction: the sum of t^3 - t over the pooled values' tie groups */
static double tie_sum(const double *a, int na, const double *b, int nb)
{
	double ties = 0, *all;
	int i, j, t;

	all = malloc((na + nb) * sizeof(*all));
	if (!all)
		return 0;
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	qsort(all, na + nb, sizeof(*all), cmp_double);
	for (i = 0; i < na + nb; i = j) {
		for (j = i; j < na + nb && all[j] == all[i]; j++)
			;
		t = j - i;
		ties += (double)t * t * t - t;
	}
	free(all);
	return ties;
}

/*
 * All m x n differences b[j] - a[i] (Hodges-Lehmann's two-sample set), or
 * all m (m + 1) / 2 Walsh averages (a[i] + a[j]) / 2, i <= j (its one-
 * sample set), of sorted arrays, counted and ranked without being stored:
 * a run of 86,400 samples a side has 7.5e9 differences, 60 GB as doubles.
 * Both sets are monotone along each array, so the count at or below a
 * value takes one pass of two pointers, and the k-th smallest element is
 * the least double whose count reaches k: a bisection over the doubles'
 * order, at most 64 passes.
 */
struct pairwise {
	const double *a, *b;	/* sorted; b NULL: the Walsh averages of a */
	long m, n;
};

static long pairwise_size(const struct pairwise *pw)
{
	return pw->b ? pw->m * pw->n : pw->m * (pw->m + 1) / 2;
}

static double pairwise_at(const struct pairwise *pw, long i, long j)
{
	return pw->b ? pw->b[j] - pw->a[i] : (pw->a[i] + pw->a[j]) / 2;
}

/* how many elements are at or below v */
static long pairwise_count_le(const struct pairwise *pw, double v)
{
	long i, j, c = 0;

	if (pw->b) {
		/* b[j] - a[i] falls as i grows, and rises with j */
		for (i = 0, j = 0; j < pw->n; j++) {
			while (i < pw->m && pairwise_at(pw, i, j) > v)
				i++;
			c += pw->m - i;
		}
		return c;
	}
	/* for each i, the Walsh averages (a[i] + a[j]) / 2, j >= i, rise with j */
	for (i = 0, j = pw->m - 1; i < pw->m; i++) {
		while (j >= i && pairwise_at(pw, i, j) > v)
			j--;
		if (j < i)
			break;
		c += j - i + 1;
	}
	return c;
}

/* a double's place in the order of doubles, as an unsigned integer */
static uint64_t dbl_key(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | (1ULL << 63);
}

static double key_dbl(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(1ULL << 63) : ~k;
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

/* the k-th smallest element, k in 1..pairwise_size() */
static double pairwise_kth(const struct pairwise *pw, long k)
{
	uint64_t lo, hi, mid;
	double v;

	if (pw->b) {
		lo = dbl_key(pairwise_at(pw, pw->m - 1, 0));
		hi = dbl_key(pairwise_at(pw, 0, pw->n - 1));
	} else {
		lo = dbl_key(pairwise_at(pw, 0, 0));
		hi = dbl_key(pairwise_at(pw, pw->m - 1, pw->m - 1));
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pairwise_count_le(pw, key_dbl(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	v = key_dbl(lo);
	/* -0 and 0 count alike: the element is 0 */
	return v == 0 ? 0.0 : v;
}

/* quantile_sorted() of the elements, p in [0, 1] */
static double pairwise_quantile(const struct pairwise *pw, double p)
{
	long n = pairwise_size(pw), i;
	double h, lo;

	if (n <= 0)
		return NAN;
	h = (n - 1) * p;
	i = (long)floor(h);
	if (i >= n - 1)
		return pairwise_kth(pw, n);
	lo = pairwise_kth(pw, i + 1);
	return h == i ? lo : lo + (h - i) * (pairwise_kth(pw, i + 2) - lo);
}

/* min(#{x <= 0}, #{x >= 0}) of the elements */
static long pairwise_side_count(const struct pairwise *pw)
{
	long le = pairwise_count_le(pw, 0.0);
	/* below 0: at or below the largest double under it */
	long ge = pairwise_size(pw) - pairwise_count_le(pw, -DBL_TRUE_MIN);

	return le < ge ? le : ge;
}

/*
 * The test and its interval from one null distribution, so that they
 * agree: cdf[x] = P(T' <= x) for x = 0..N (exact), or NULL for the
 * normal approximation of mean mu and standard deviation sd with a
 * continuity correction.  T is the smaller count of the differences on
 * either side of 0 (those at 0 counted on both): the k-th smallest
 * difference is above 0 exactly when fewer than k are at or below 0, so
 * with k the largest with P(T' <= k - 1) <= alpha / 2 the interval
 * [D(k), D(N + 1 - k)] leaves out 0 exactly when T <= k - 1, that is
 * when p = 2 P(T' <= T) <= alpha.
 */
struct null_dist {
	const double *cdf;	/* NULL: normal */
	long nn;		/* N: the statistic's largest value */
	double mu, sd;
};

static double null_cdf(const struct null_dist *nd, long x)
{
	if (x < 0)
		return 0;
	if (nd->cdf)
		return x >= nd->nn ? 1.0 : nd->cdf[x];
	if (!(nd->sd > 0))
		return x + 0.5 >= nd->mu ? 1.0 : 0.0;
	return norm_cdf((x + 0.5 - nd->mu) / nd->sd);
}

/* the largest k with P(T' <= k - 1) <= alpha / 2 (0: none); *conf its coverage */
static long null_k(const struct null_dist *nd, double alpha, double *conf)
{
	long k = 0;

	if (nd->cdf) {
		while (k < nd->nn && nd->cdf[k] <= alpha / 2)
			k++;
	} else if (nd->sd > 0) {
		k = (long)floor(nd->mu + 0.5 + norm_quantile(alpha / 2) * nd->sd);
		if (k < 0)
			k = 0;
		/* the same comparison null_cdf() makes for p */
		while (k > 0 && null_cdf(nd, k - 1) > alpha / 2)
			k--;
		while (k < nd->nn && null_cdf(nd, k) <= alpha / 2)
			k++;
	}
	if (2 * k > nd->nn + 1)
		k = (nd->nn + 1) / 2;
	*conf = nd->cdf ? 1 - 2 * null_cdf(nd, k - 1) : 1 - alpha;
	return k;
}

/*
 * p, and the estimate's interval from the N = nd->nn elements of pw: the
 * p-value of count t, lo and hi (NaN when k is 0)
 */
static void null_test(const struct null_dist *nd, const struct pairwise *pw, long t,
		      double alpha, double *p, double *lo, double *hi, double *conf)
{
	long k = null_k(nd, alpha, conf);

	*p = fmin(1.0, 2 * null_cdf(nd, t));
	*lo = *hi = NAN;
	if (k >= 1) {
		*lo = pairwise_kth(pw, k);
		*hi = pairwise_kth(pw, nd->nn + 1 - k);
	}
}

int rank_test(const double *a, int na, const double *b, int nb, double alpha,
	      struct rank_test *out)
{
	double *sa = NULL, *sb = NULL, *dist = NULL, ties;
	struct null_dist nd = {};
	struct pairwise pw;
	long le, lt;
	int m, n, i, err = 0;

	memset(out, 0, sizeof(*out));
	out->p = out->shift = out->lo = out->hi = out->u = NAN;
	m = sorted_copy(a, na, &sa);
	n = sorted_copy(b, nb, &sb);
	if (m < 0 || n < 0) {
		err = -ENOMEM;
		goto out;
	}
	out->na = m;
	out->nb = n;
	if (!m || !n) {
		err = -EINVAL;
		goto out;
	}
	/* U: the pairs with b above a, ties counted half (b - a > 0 exactly when b > a) */
	pw = (struct pairwise){ .a = sa, .b = sb, .m = m, .n = n };
	le = pairwise_count_le(&pw, 0.0);
	lt = pairwise_count_le(&pw, -DBL_TRUE_MIN);
	out->u = (double)m * n - le + (le - lt) / 2.0;
	ties = tie_sum(sa, m, sb, n);
	nd.nn = (long)m * n;
	nd.mu = (double)m * n / 2.0;
	nd.sd = sqrt(m * (double)n / 12.0 * ((m + n + 1) - ties / ((double)(m + n) * (m + n - 1))));
	out->exact = ties == 0 && m <= RANK_EXACT_MAX && n <= RANK_EXACT_MAX;
	if (out->exact) {
		dist = malloc((m * n + 1) * sizeof(*dist));
		if (!dist || u_null_dist(m, n, dist)) {
			err = -ENOMEM;
			goto out;
		}
		/* cumulative, summed from 0 up once: p and k read the same sums */
		for (i = 1; i <= m * n; i++)
			dist[i] += dist[i - 1];
		nd.cdf = dist;
	}
	/* Hodges-Lehmann: the median of all differences, and Moses' interval */
	out->shift = pairwise_quantile(&pw, 0.5);
	/* no ties: the count is min(U, mn - U), Mann-Whitney's own */
	null_test(&nd, &pw, pairwise_side_count(&pw), alpha, &out->p, &out->lo, &out->hi,
		  &out->conf);
out:
	free(sa);
	free(sb);
	free(dist);
	return err;
}

int ratio_ci_se(double ratio, double se_log, double df, double alpha, double *lo, double *hi)
{
	double t;

	*lo = *hi = NAN;
	if (!(ratio > 0) || !isfinite(ratio) || !(se_log >= 0) || !(df > 0))
		return -EDOM;
	t = t_crit(alpha, df);
	*lo = ratio * exp(-t * se_log);
	*hi = ratio * exp(t * se_log);
	return 0;
}

int ratio_ci(const struct stats *a, const struct stats *b, double alpha, double *lo, double *hi)
{
	double va, vb, se2, df;

	*lo = *hi = NAN;
	if (a->n < 2 || b->n < 2 || !(a->mean > 0) || !(b->mean > 0))
		return -EDOM;
	va = a->cv * a->cv / a->n;
	vb = b->cv * b->cv / b->n;
	se2 = va + vb;
	if (se2 == 0) {
		*lo = *hi = b->mean / a->mean;
		return 0;
	}
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return ratio_ci_se(b->mean / a->mean, sqrt(se2), df, alpha, lo, hi);
}

int paired_log_ratio(const double *a, const double *b, int n, double alpha,
		     struct paired_ratio *out)
{
	double sum = 0, sq = 0, d, se;
	int i;

	memset(out, 0, sizeof(*out));
	out->mean_log = out->sd_log = out->ratio = out->lo = out->hi = NAN;
	out->t = out->df = out->p = NAN;
	for (i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i])) {
			out->skipped++;
			continue;
		}
		sum += log(b[i]) - log(a[i]);
		out->n++;
	}
	if (!out->n)
		return -EDOM;
	out->mean_log = sum / out->n;
	out->ratio = exp(out->mean_log);
	if (out->n < 2)
		return -EDOM;
	for (i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]))
			continue;
		d = log(b[i]) - log(a[i]) - out->mean_log;
		sq += d * d;
	}
	out->sd_log = sqrt(sq / (out->n - 1));
	out->df = out->n - 1;
	se = out->sd_log / sqrt(out->n);
	if (se == 0) {
		/* every pair the same ratio: no spread to test against */
		out->t = out->mean_log == 0 ? 0 : copysign(INFINITY, out->mean_log);
		out->p = out->mean_log == 0 ? 1.0 : 0.0;
		out->lo = out->hi = out->ratio;
		return 0;
	}
	out->t = out->mean_log / se;
	out->p = t_pvalue(out->t, out->df);
	return ratio_ci_se(out->ratio, se, out->df, alpha, &out->lo, &out->hi);
}

int min_obs_for_level(double alpha)
{
	int n = 1;

	while (n < 64 && ldexp(1.0, 1 - n) > alpha)
		n++;
	return n;
}

static void log_change_init(struct log_change *out)
{
	memset(out, 0, sizeof(*out));
	out->est = out->ratio = out->lo = out->hi = NAN;
	out->p = out->t = out->df = out->se = out->conf = NAN;
}

/* the logs of the values above 0 of v, in *out (malloc'ed); their count, or -EDOM, -ENOMEM */
static int log_values(const double *v, int n, double **out)
{
	double *l = malloc((n > 0 ? n : 1) * sizeof(*l));
	int i, m = 0;

	*out = l;
	if (!l)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (!(v[i] > 0) || !isfinite(v[i]))
			return -EDOM;
		l[m++] = log(v[i]);
	}
	return m;
}

/*
 * est ± t(alpha, df) se as a ratio, and p of est / se: one t, one df, one
 * se.  A zero se: every observation alike, the interval a point.
 */
static int t_change(struct log_change *out, double alpha)
{
	double q;

	out->ratio = exp(out->est);
	out->conf = 1 - alpha;
	if (out->se == 0) {
		out->t = out->est == 0 ? 0 : copysign(INFINITY, out->est);
		out->p = out->est == 0 ? 1.0 : 0.0;
		out->lo = out->hi = out->ratio;
		return 0;
	}
	out->t = out->est / out->se;
	out->p = t_pvalue(out->t, out->df);
	q = t_crit(alpha, out->df);
	out->lo = exp(out->est - q * out->se);
	out->hi = exp(out->est + q * out->se);
	return 0;
}

int welch_log(const double *a, int na, const double *b, int nb, double alpha,
	      struct log_change *out)
{
	double *la = NULL, *lb = NULL, va, vb;
	struct stats sa, sb;
	int m, n, err = 0;

	log_change_init(out);
	m = log_values(a, na, &la);
	n = m < 0 ? 0 : log_values(b, nb, &lb);
	if (m < 0 || n < 0) {
		err = m < 0 ? m : n;
		goto out;
	}
	stats_compute(la, m, &sa);
	stats_compute(lb, n, &sb);
	out->na = m;
	out->nb = n;
	if (m < 1 || n < 1 || (m < 2 && n < 2)) {
		if (m && n)
			out->est = sb.mean - sa.mean, out->ratio = exp(out->est);
		err = -EDOM;
		goto out;
	}
	out->est = sb.mean - sa.mean;
	if (m >= 2 && n >= 2) {
		va = sa.stddev * sa.stddev / m;
		vb = sb.stddev * sb.stddev / n;
		out->se = sqrt(va + vb);
		out->df = va + vb > 0 ? (va + vb) * (va + vb) / (va * va / (m - 1) + vb * vb / (n - 1)) :
			  m + n - 2;
	} else {
		/* one side of one value: its spread is the other side's */
		const struct stats *many = m >= 2 ? &sa : &sb;

		out->se = many->stddev * sqrt(1.0 / m + 1.0 / n);
		out->df = many->n - 1;
	}
	err = t_change(out, alpha);
out:
	free(la);
	free(lb);
	return err;
}

/* the log ratios of the usable pairs, in *d (malloc'ed); their count or -ENOMEM */
static int pair_logs(const double *a, const double *b, int n, double **d, int *skipped)
{
	int i, m = 0;

	*skipped = 0;
	*d = malloc((n > 0 ? n : 1) * sizeof(**d));
	if (!*d)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i])) {
			(*skipped)++;
			continue;
		}
		(*d)[m++] = log(b[i]) - log(a[i]);
	}
	return m;
}

/* P(T' <= x), x = 0..n(n+1)/2, of the signed-rank statistic: subsets of 1..n by their sum */
static double *signed_rank_cdf(int n)
{
	long nn = (long)n * (n + 1) / 2, s;
	double *c = calloc(nn + 1, sizeof(*c)), total;
	int r;

	if (!c)
		return NULL;
	c[0] = 1;
	for (r = 1; r <= n; r++)
		for (s = nn; s >= r; s--)
			c[s] += c[s - r];
	total = ldexp(1.0, n);
	c[0] /= total;
	for (s = 1; s <= nn; s++)
		c[s] = c[s - 1] + c[s] / total;
	return c;
}

int signed_rank_test(const double *d, int n, double alpha, struct signed_rank *out)
{
	double *s = NULL, *cdf = NULL;
	struct null_dist nd = {};
	struct pairwise pw;
	long nn;
	int m, err = 0;

	memset(out, 0, sizeof(*out));
	out->t = out->p = out->shift = out->lo = out->hi = out->conf = NAN;
	m = sorted_copy(d, n, &s);
	if (m < 0)
		return m;
	out->n = m;
	if (!m) {
		err = -EINVAL;
		goto out;
	}
	pw = (struct pairwise){ .a = s, .m = m };
	nn = pairwise_size(&pw);
	out->shift = pairwise_quantile(&pw, 0.5);
	out->t = pairwise_side_count(&pw);
	nd.nn = nn;
	nd.mu = nn / 2.0;
	nd.sd = sqrt(m * (m + 1.0) * (2.0 * m + 1) / 24.0);
	out->exact = m <= SIGNED_RANK_EXACT_MAX;
	if (out->exact) {
		cdf = signed_rank_cdf(m);
		if (!cdf) {
			err = -ENOMEM;
			goto out;
		}
		nd.cdf = cdf;
	}
	null_test(&nd, &pw, (long)out->t, alpha, &out->p, &out->lo, &out->hi, &out->conf);
out:
	free(s);
	free(cdf);
	return err;
}

int paired_log_hl(const double *a, const double *b, int n, double alpha, struct log_change *out)
{
	struct signed_rank sr;
	double *d;
	int m, err;

	log_change_init(out);
	m = pair_logs(a, b, n, &d, &out->skipped);
	if (m < 0)
		return m;
	out->na = out->nb = m;
	if (!m) {
		free(d);
		return -EDOM;
	}
	err = signed_rank_test(d, m, alpha, &sr);
	free(d);
	if (err)
		return err;
	out->est = sr.shift;
	out->ratio = exp(sr.shift);
	out->p = sr.p;
	out->t = sr.t;
	out->exact = sr.exact;
	out->conf = sr.conf;
	out->lo = exp(sr.lo);
	out->hi = exp(sr.hi);
	return 0;
}

int paired_log_t(const double *a, const double *b, int n, double alpha, struct log_change *out)
{
	struct paired_ratio pr;
	int err;

	log_change_init(out);
	err = paired_log_ratio(a, b, n, alpha, &pr);
	out->na = out->nb = pr.n;
	out->skipped = pr.skipped;
	out->est = pr.mean_log;
	out->ratio = pr.ratio;
	if (err)
		return err;
	out->p = pr.p;
	out->t = pr.t;
	out->df = pr.df;
	out->se = pr.sd_log / sqrt(pr.n);
	out->lo = pr.lo;
	out->hi = pr.hi;
	out->conf = 1 - alpha;
	return 0;
}

int trimmed_t(const double *d, int n, double gamma, double alpha, struct log_change *out)
{
	double *s, sum = 0, wsum = 0, wsq = 0, wmean, q, v;
	int m, g, i;

	log_change_init(out);
	m = sorted_copy(d, n, &s);
	if (m < 0)
		return m;
	out->na = out->nb = m;
	g = (int)floor(gamma * m);
	for (i = g; i < m - g; i++)
		sum += s[i];
	/* one value left: an estimate, without a spread to test it by */
	out->est = m - 2 * g > 0 ? sum / (m - 2 * g) : NAN;
	if (m - 2 * g < 2) {
		free(s);
		return -EDOM;
	}
	/* winsorized: the g lowest set to s[g], the g highest to s[m - g - 1] */
	for (i = 0; i < m; i++)
		wsum += s[i < g ? g : i >= m - g ? m - g - 1 : i];
	wmean = wsum / m;
	for (i = 0; i < m; i++) {
		v = s[i < g ? g : i >= m - g ? m - g - 1 : i] - wmean;
		wsq += v * v;
	}
	free(s);
	out->se = sqrt(wsq / (m - 1)) / ((1 - 2 * gamma) * sqrt(m));
	out->df = m - 2 * g - 1;
	out->conf = 1 - alpha;
	if (out->se == 0) {
		out->t = out->est == 0 ? 0 : copysign(INFINITY, out->est);
		out->p = out->est == 0 ? 1.0 : 0.0;
		out->lo = out->hi = out->est;
		return 0;
	}
	out->t = out->est / out->se;
	out->p = t_pvalue(out->t, out->df);
	q = t_crit(alpha, out->df);
	out->lo = out->est - q * out->se;
	out->hi = out->est + q * out->se;
	return 0;
}

int paired_log_trimmed(const double *a, const double *b, int n, double gamma, double alpha,
		       struct log_change *out)
{
	int m, skipped, err;
	double *d;

	log_change_init(out);
	m = pair_logs(a, b, n, &d, &skipped);
	if (m < 0)
		return m;
	err = trimmed_t(d, m, gamma, alpha, out);
	free(d);
	out->skipped = skipped;
	out->ratio = exp(out->est);
	if (err)
		return err;
	out->lo = exp(out->lo);
	out->hi = exp(out->hi);
	return 0;
}
