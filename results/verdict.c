// SPDX-License-Identifier: GPL-2.0
/*
 * The one verdict rule (verdict.h): the change as a ratio of arithmetic
 * means, its 95% interval by Fieller's method, and what may be said of
 * it.  Fieller's interval is the set of ratios r for which
 * (new - r * base) is not significantly different from 0 by Welch's
 * t-test: so it leaves out r = 1 exactly when Welch's test of the
 * difference gives p < 0.05, and the p-value printed beside it agrees
 * with it.  When the base mean itself is not significantly above 0 the
 * set is unbounded, and is printed as such.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "verdict.h"

const char *verdict_kind_name(enum verdict_kind kind)
{
	switch (kind) {
	case VERDICT_BETTER:
		return "better";
	case VERDICT_WORSE:
		return "worse";
	case VERDICT_WITHIN:
		return "within";
	case VERDICT_UNDECIDED:
		return "undecided";
	default:
		return "n/a";
	}
}

const char *verdict_reason_name(enum verdict_reason reason)
{
	switch (reason) {
	case VERDICT_R_FEW:
		return "few";
	case VERDICT_R_NOISY:
		return "noisy";
	case VERDICT_R_UNTESTED:
		return "untested";
	case VERDICT_R_RESOLUTION:
		return "resolution";
	default:
		return NULL;
	}
}

/* a number of percent, without the sign of percent: 2 decimals under 10, 1 under 100 */
static void fmt_num(double x, char *buf, size_t sz)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, sz, "n/a");
	else if (isinf(x))
		snprintf(buf, sz, "unbounded");
	else if (a < 0.005)
		snprintf(buf, sz, "+0.00");	/* summation order's rounding noise is not -0.00 */
	else if (a < 9.995)
		snprintf(buf, sz, "%+.2f", x);
	else if (a < 99.95)
		snprintf(buf, sz, "%+.1f", x);
	else if (a < 9999.5)
		snprintf(buf, sz, "%+.0f", x);
	else
		snprintf(buf, sz, "%+.1e", x);
}

void verdict_fmt_pct(double pct, char *buf, size_t sz)
{
	fmt_num(pct, buf, sz);
	if (isfinite(pct))
		snprintf(buf + strlen(buf), sz - strlen(buf), "%%");
}

void verdict_fmt_interval(double lo, double hi, char *buf, size_t sz)
{
	char l[32], h[32];

	if (isnan(lo) || isnan(hi)) {
		snprintf(buf, sz, "-");
		return;
	}
	if (isinf(lo) && isinf(hi)) {
		snprintf(buf, sz, "unbounded");
		return;
	}
	fmt_num(lo, l, sizeof(l));
	fmt_num(hi, h, sizeof(h));
	snprintf(buf, sz, "[%s, %s]%s", l, h, isinf(lo) || isinf(hi) ? "" : "%");
}

/* "2 runs a side" or "2 + 3 runs" */
static void fmt_counts(const struct verdict_in *in, char *buf, size_t sz)
{
	const char *obs = in->obs ? in->obs : "observations";

	if (in->base.n == in->new.n)
		snprintf(buf, sz, "%d %.*s a side", in->base.n,
			 in->base.n == 1 && obs[strlen(obs) - 1] == 's' ? (int)strlen(obs) - 1 :
			 (int)strlen(obs), obs);
	else
		snprintf(buf, sz, "%d + %d %s", in->base.n, in->new.n, obs);
}

static void set_text(const struct verdict_in *in, struct verdict *v)
{
	char counts[64], det[32], res[48];

	v->why[0] = '\0';
	switch (v->kind) {
	case VERDICT_BETTER:
	case VERDICT_WORSE:
		snprintf(v->word, sizeof(v->word), "%s", verdict_kind_name(v->kind));
		if (v->below_threshold)
			snprintf(v->why, sizeof(v->why), "below the ±%g%% threshold", in->threshold_pct);
		break;
	case VERDICT_WITHIN:
		snprintf(v->word, sizeof(v->word), "within ±%g%%", in->threshold_pct);
		break;
	case VERDICT_UNDECIDED:
		snprintf(v->word, sizeof(v->word), "undecided");
		fmt_counts(in, counts, sizeof(counts));
		fmt_num(v->detectable_pct, det, sizeof(det));
		if (v->reason == VERDICT_R_RESOLUTION) {
			snprintf(res, sizeof(res), "%.3g %s", in->resolution, in->unit ? in->unit : "");
			snprintf(v->why, sizeof(v->why), "below the %s resolution", res);
		} else if (v->reason == VERDICT_R_UNTESTED) {
			snprintf(v->why, sizeof(v->why), "%s, no spread: no test possible", counts);
		} else if (!isfinite(v->detectable_pct) || isinf(v->hi_pct)) {
			snprintf(v->why, sizeof(v->why), "%s: too noisy to bound the change", counts);
		} else if (v->reason == VERDICT_R_FEW) {
			snprintf(v->why, sizeof(v->why), "%s resolve only changes above %s%%", counts,
				 det + (det[0] == '+'));
		} else {
			snprintf(v->why, sizeof(v->why), "too noisy: %s resolve only changes above %s%%",
				 counts, det + (det[0] == '+'));
		}
		break;
	default:
		snprintf(v->word, sizeof(v->word), "n/a");
		break;
	}
	snprintf(v->text, sizeof(v->text), "%s%s%s", v->word,
		 !v->why[0] ? "" : v->kind == VERDICT_UNDECIDED ? ": " : ", ", v->why);
}

void verdict_classify(const struct verdict_in *in, struct verdict *v)
{
	double t = in->threshold_pct, r = 0, base = in->base.mean, diff = in->new.mean - base;
	bool below_res = false;

	v->below_threshold = v->fails = false;
	v->reason = VERDICT_R_NONE;
	if (in->base.n < 1 || in->new.n < 1 || isnan(base) || isnan(in->new.mean)) {
		v->kind = VERDICT_NA;
		goto out;
	}
	/* an instrument never shows a change below its resolution */
	if (in->resolution > 0 && base != 0) {
		r = in->resolution / fabs(base) * 100.0;
		below_res = fabs(diff) < in->resolution;
		v->detectable_pct = isnan(v->detectable_pct) ? NAN : fmax(v->detectable_pct, r);
	}
	if (below_res && !isnan(v->lo_pct)) {
		v->lo_pct = fmin(v->lo_pct, -r);
		v->hi_pct = fmax(v->hi_pct, r);
		/* a ratio of two means above 0 is never below 0: no change below -100% */
		if (base > 0 && in->new.mean >= 0)
			v->lo_pct = fmax(v->lo_pct, -100.0);
	}
	if (isnan(v->lo_pct) || isnan(v->hi_pct)) {
		v->kind = VERDICT_UNDECIDED;
		v->reason = below_res ? VERDICT_R_RESOLUTION : VERDICT_R_UNTESTED;
	} else if (v->lo_pct > 0 || v->hi_pct < 0) {
		v->kind = (v->lo_pct > 0) == in->higher_is_better ? VERDICT_BETTER : VERDICT_WORSE;
		v->below_threshold = !(fabs(v->change_pct) >= t);
		v->fails = v->kind == VERDICT_WORSE && !v->below_threshold;
	} else if (v->lo_pct >= -t && v->hi_pct <= t) {
		v->kind = VERDICT_WITHIN;
	} else {
		v->kind = VERDICT_UNDECIDED;
		v->reason = below_res ? VERDICT_R_RESOLUTION :
			    in->base.n < VERDICT_FEW || in->new.n < VERDICT_FEW ? VERDICT_R_FEW :
			    VERDICT_R_NOISY;
	}
out:
	set_text(in, v);
}

/*
 * Fieller's interval of new/base: the ratios r with
 * (new - r base)^2 <= t^2 (vb + r^2 va), i.e. A r^2 - 2 B r + C <= 0 with
 * A = base^2 - t^2 va, B = base new, C = new^2 - t^2 vb.  Bounded exactly
 * when A > 0 (the base mean is itself significantly away from 0); its
 * discriminant B^2 - AC = t^2 (va new^2 + vb A) is then never negative.
 */
static void fieller(double ma, double mb, double va, double vb, double t, double *lo, double *hi)
{
	double a = ma * ma - t * t * va, b = ma * mb, disc;

	if (!(a > 0)) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return;
	}
	disc = t * t * (va * mb * mb + vb * a);
	*lo = (b - sqrt(disc)) / a;
	*hi = (b + sqrt(disc)) / a;
}

void verdict_eval(const struct verdict_in *in, struct verdict *v)
{
	const struct verdict_side *a = &in->base, *b = &in->new;
	double sa = a->sd, sb = b->sd, va, vb, t, rlo, rhi;

	memset(v, 0, sizeof(*v));
	v->change_pct = v->lo_pct = v->hi_pct = v->p = v->df = v->detectable_pct = NAN;
	if (a->n < 1 || b->n < 1 || isnan(a->mean) || isnan(b->mean))
		goto classify;
	if (a->mean != 0)
		v->change_pct = (b->mean - a->mean) / fabs(a->mean) * 100.0;
	else if (b->mean == 0)
		v->change_pct = 0;
	if (a->n < 2 && b->n < 2)
		goto classify;	/* no spread on either side: no test */
	/* a side of one observation: its spread taken to be the other's */
	if (a->n < 2)
		sa = sb;
	if (b->n < 2)
		sb = sa;
	va = sa * sa / a->n;
	vb = sb * sb / b->n;
	if (a->n >= 2 && b->n >= 2)
		v->df = va + vb > 0 ? (va + vb) * (va + vb) /
			(va * va / (a->n - 1) + vb * vb / (b->n - 1)) : a->n + b->n - 2;
	else
		v->df = (a->n < 2 ? b->n : a->n) - 1;
	t = t_crit(0.05, v->df);
	if (va + vb == 0)
		v->p = a->mean == b->mean ? 1.0 : 0.0;
	else
		v->p = t_pvalue((b->mean - a->mean) / sqrt(va + vb), v->df);
	if (a->mean == 0) {
		/* no percent of a base of 0: the difference's test alone decides */
		if (b->mean == 0 && va + vb == 0)
			v->lo_pct = v->hi_pct = 0;
		goto classify;
	}
	v->detectable_pct = t * sqrt(va + vb) / fabs(a->mean) * 100.0;
	fieller(a->mean, b->mean, va, vb, t, &rlo, &rhi);
	if (isinf(rhi)) {
		v->lo_pct = -INFINITY;
		v->hi_pct = INFINITY;
	} else if (a->mean > 0) {
		v->lo_pct = (rlo - 1) * 100.0;
		v->hi_pct = (rhi - 1) * 100.0;
	} else {
		v->lo_pct = (1 - rhi) * 100.0;
		v->hi_pct = (1 - rlo) * 100.0;
	}
	/* a ratio of two means above 0 is never below 0: no change below -100% */
	if (a->mean > 0 && b->mean >= 0 && isfinite(v->lo_pct))
		v->lo_pct = fmax(v->lo_pct, -100.0);
classify:
	if (a->n >= 1 && b->n >= 1 && a->mean == 0 && !isnan(b->mean) && !isnan(v->p) &&
	    isnan(v->lo_pct)) {
		/* from a base of 0: significant or not, in no percent */
		verdict_classify(in, v);
		v->kind = VERDICT_UNDECIDED;
		v->reason = a->n < VERDICT_FEW || b->n < VERDICT_FEW ? VERDICT_R_FEW : VERDICT_R_NOISY;
		if (v->p < 0.05) {
			v->kind = (b->mean > 0) == in->higher_is_better ? VERDICT_BETTER : VERDICT_WORSE;
			v->fails = v->kind == VERDICT_WORSE;
			v->reason = VERDICT_R_NONE;
		}
		set_text(in, v);
		return;
	}
	verdict_classify(in, v);
}
