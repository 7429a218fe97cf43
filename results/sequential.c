// SPDX-License-Identifier: GPL-2.0
/*
 * Group-sequential boundaries by alpha spending (sequential.h).  The score
 * S_k (the sum of the observations, standardised so that S_k ~ N(0, I_k)
 * under no change) has independent increments, so the sub-density of the
 * paths still running at look k follows from the one at look k - 1 by one
 * convolution with the increment's normal density.
 */
#include <math.h>
#include <string.h>

#include "sequential.h"
#include "stats.h"

/* where the grid stops: beyond 8 standard deviations no mass worth having lies */
#define SEQ_ZMAX 8.0

void seq_init(struct seq_test *s, enum seq_spending spending, double alpha)
{
	memset(s, 0, sizeof(*s));
	s->spending = spending;
	s->alpha = alpha;
}

double seq_spend(enum seq_spending spending, double alpha, double t)
{
	if (!(t > 0))
		return 0;
	if (t > 1)
		t = 1;
	if (spending == SEQ_POCOCK)
		return alpha * log(1 + (M_E - 1) * t);
	/* each side spends alpha / 2 (as ldbounds and gsDesign do) */
	return 4 * norm_cdf(-norm_quantile(1 - alpha / 4) / sqrt(t));
}

/* the chance that a running path at x crosses +-c sqrt(info) after an increment of sd */
static double cross_from(double x, double c, double info, double sd)
{
	double b = c * sqrt(info);

	return norm_cdf((-b - x) / sd) + norm_cdf((x - b) / sd);
}

static double cross_prob(const struct seq_test *s, double c, double info, double sd)
{
	double p = 0;
	int i;

	for (i = 0; i < SEQ_GRID; i++)
		p += s->w[i] * cross_from(s->x[i], c, info, sd);
	return p;
}

/* Simpson's weights times h / 3 on an odd grid */
static double simpson(int i, double h)
{
	if (i == 0 || i == SEQ_GRID - 1)
		return h / 3;
	return (i % 2 ? 4 : 2) * h / 3;
}

/* the running paths' sub-density at info on |S| < c sqrt(info) */
static void update_grid(struct seq_test *s, double c, double info, double sd)
{
	double lim = fmin(c, SEQ_ZMAX) * sqrt(info), h = 2 * lim / (SEQ_GRID - 1);
	double x[SEQ_GRID], w[SEQ_GRID];
	int i, j;

	for (j = 0; j < SEQ_GRID; j++) {
		double g = 0, z;

		x[j] = -lim + j * h;
		if (!s->looks) {
			z = x[j] / sqrt(info);
			g = exp(-z * z / 2) / sqrt(2 * M_PI * info);
		} else {
			for (i = 0; i < SEQ_GRID; i++) {
				z = (x[j] - s->x[i]) / sd;
				g += s->w[i] * exp(-z * z / 2);
			}
			g /= sd * sqrt(2 * M_PI);
		}
		w[j] = g * simpson(j, h);
	}
	memcpy(s->x, x, sizeof(x));
	memcpy(s->w, w, sizeof(w));
}

double seq_look(struct seq_test *s, double info, double t, double *nominal)
{
	double target, c, lo = 0, hi = 40, sd = sqrt(info - s->last_info);
	int i;

	*nominal = NAN;
	if (!(info > s->last_info) || !(t >= s->last_t))
		return NAN;
	if (t > 1)
		t = 1;
	target = seq_spend(s->spending, s->alpha, t) - s->spent;
	if (!(target > 1e-300)) {
		c = INFINITY;
		target = 0;
	} else if (!s->looks) {
		c = norm_quantile(1 - target / 2);
	} else if (target >= cross_prob(s, 0, info, sd)) {
		c = 0;
	} else {
		/* the chance of crossing falls as the boundary rises: bisect */
		for (i = 0; i < 100; i++) {
			c = (lo + hi) / 2;
			if (cross_prob(s, c, info, sd) > target)
				lo = c;
			else
				hi = c;
		}
		c = (lo + hi) / 2;
	}
	update_grid(s, c, info, sd);
	s->spent += target;
	s->looks++;
	s->last_info = info;
	s->last_t = t;
	*nominal = isinf(c) ? 0 : 2 * norm_cdf(-c);
	return c;
}

const char *seq_stat_name(enum seq_stat stat)
{
	switch (stat) {
	case SEQ_STAT_T:
		return "t";
	case SEQ_STAT_TRIMMED:
		return "trimmed";
	case SEQ_STAT_RANK:
		return "rank";
	}
	return "?";
}

int seq_estimate(enum seq_stat stat, const double *obs, int n, double level, struct seq_est *out)
{
	struct log_change c;
	struct signed_rank sr;
	int err;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->level = level;
	out->est = out->lo = out->hi = out->p = out->se = out->df = NAN;
	out->stat = out->crit = NAN;
	out->need = min_obs_for_level(level);
	if (stat == SEQ_STAT_RANK) {
		err = signed_rank_test(obs, n, level, &sr);
		if (err)
			return err;
		out->est = sr.shift;
		out->lo = sr.lo;
		out->hi = sr.hi;
		out->p = sr.p;
		out->stat = sr.t;
	} else {
		err = trimmed_t(obs, n, stat == SEQ_STAT_TRIMMED ? SEQ_TRIM : 0, level, &c);
		out->est = c.est;
		if (err)
			return err;
		out->lo = c.lo;
		out->hi = c.hi;
		out->p = c.p;
		out->se = c.se;
		out->df = c.df;
		out->stat = fabs(c.t);
		out->crit = t_crit(level, c.df);
	}
	if (n < out->need)
		out->lo = out->hi = NAN;
	return 0;
}

int seq_verdict(const struct seq_est *e, double lo_thr, double hi_thr)
{
	if (isnan(e->lo) || isnan(e->hi))
		return 0;
	if (e->lo > 0)
		return 1;
	if (e->hi < 0)
		return -1;
	return e->lo > lo_thr && e->hi < hi_thr ? 2 : 0;
}

double seq_detectable(const struct seq_est *e, double power)
{
	double h = (e->hi - e->lo) / 2, qa, qb;

	if (isnan(h))
		return NAN;
	if (isnan(e->df)) {
		qa = norm_quantile(1 - e->level / 2);
		qb = norm_quantile(power);
	} else {
		qa = t_crit(e->level, e->df);
		qb = t_crit(2 * (1 - power), e->df);
	}
	return h * (1 + qb / qa);
}
