/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __VERDICT_H
#define __VERDICT_H

/*
 * The one verdict rule of every surface that judges a change (compare's
 * text, --markdown and --json, plot compare, history show, ab):
 *
 *   better / worse  only when the 95% interval of the change leaves out 0
 *                   (", below the ±T% threshold" when |change| < T);
 *   within ±T%      only when the whole interval lies inside ±T;
 *   undecided       otherwise, with its reason (too few observations, too
 *                   noisy, no test possible, below the resolution) and the
 *                   smallest change the data could have shown.
 *
 * The change is the ratio of the arithmetic means, new/base - 1, so that a
 * reader recomputes it from the means printed beside it; its interval is
 * Fieller's for that ratio (docs/statistics-and-noise.md).  A metric with
 * a resolution (memory) never claims a change, or a detectable change,
 * below it.
 */
#include <stdbool.h>
#include <stddef.h>

enum verdict_kind {
	VERDICT_NA,		/* nothing to judge: a side without a value */
	VERDICT_BETTER,
	VERDICT_WORSE,
	VERDICT_WITHIN,		/* the interval inside ±threshold */
	VERDICT_UNDECIDED,
};

/* why a verdict is undecided */
enum verdict_reason {
	VERDICT_R_NONE,
	VERDICT_R_FEW,		/* fewer than VERDICT_FEW observations on a side */
	VERDICT_R_NOISY,	/* enough observations, too much spread */
	VERDICT_R_UNTESTED,	/* one observation a side: no spread, no test */
	VERDICT_R_RESOLUTION,	/* the difference is below the metric's resolution */
};

/* fewer observations than this on a side: "too few", not "too noisy" */
#define VERDICT_FEW 5

/* one side's observations, summarised: the arithmetic mean, the sample stddev, their count */
struct verdict_side {
	double mean, sd;
	int n;
};

struct verdict_in {
	struct verdict_side base, new;
	double threshold_pct;
	double resolution;	/* the metric's, in its unit; 0: none known */
	const char *unit;	/* the resolution's unit, for the reason ("MiB") */
	bool higher_is_better;
	const char *obs;	/* what n counts: "runs", "repeats", "samples", "pairs" */
};

struct verdict {
	enum verdict_kind kind;
	enum verdict_reason reason;
	double change_pct;	/* (new/base - 1) in percent of |base|; NaN: none */
	double lo_pct, hi_pct;	/* its 95% interval; NaN: none; -INFINITY/INFINITY: unbounded */
	double p;		/* Welch's two-sided p of the difference; NaN: untested */
	double df;
	double detectable_pct;	/* the smallest |change| that would have been significant; NaN: none */
	bool below_threshold;	/* better or worse, by less than the threshold */
	bool fails;		/* worse by the threshold or more: --fail-on-regression */
	char word[24];		/* "better", "worse", "within ±2%", "undecided", "n/a" */
	char why[128];		/* the reason, "" when the word says it all */
	char text[160];		/* word and why in one: what a row prints whole */
};

/*
 * The verdict on two sides' summaries.  A side of one observation takes
 * the other side's spread (and its degrees of freedom); with one on each
 * side there is no test.
 */
void verdict_eval(const struct verdict_in *in, struct verdict *v);

/*
 * The same rule on a change and interval some other test gave (--rank,
 * --paired, ab's sequential test): v's change_pct, lo_pct, hi_pct,
 * detectable_pct and p set by the caller; na and nb count its
 * observations.
 */
void verdict_classify(const struct verdict_in *in, struct verdict *v);

/* a percent with sane precision: "+2.31%", "+48.3%", "+1615%", "n/a" */
void verdict_fmt_pct(double pct, char *buf, size_t sz);

/* an interval: "[-3.12, +5.20]%", "[-99.5%, unbounded]", "-" when none */
void verdict_fmt_interval(double lo, double hi, char *buf, size_t sz);

/* the machine word of a kind: "better", "worse", "within", "undecided", "n/a" */
const char *verdict_kind_name(enum verdict_kind kind);

/* the machine word of a reason: "few", "noisy", "untested", "resolution", or NULL */
const char *verdict_reason_name(enum verdict_reason reason);

#endif /* __VERDICT_H */
