// SPDX-License-Identifier: GPL-2.0
/*
 * bench compare BASE.json NEW.json: is NEW better, worse, within the
 * threshold, or undecided?  The change is the ratio of the arithmetic
 * means printed beside it, its 95% interval Fieller's, and the verdict
 * verdict.c's one rule (better/worse only when the interval leaves out 0,
 * within ±T only when it lies inside ±T).  The observations are the most
 * independent the files allow: invocation (file) means with several
 * files per side, repeat means with repeats, per-second samples otherwise
 * (correlated: within-run noise only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result_config.h"
#include "result_file.h"
#include "result_label.h"
#include "sequential.h"
#include "stats.h"

/* ---- context and options ---- */

static const char *ctx_str(json_t *doc, const char *key, char *buf, size_t sz)
{
	json_t *v = json_object_get(json_object_get(doc, "context"), key);
	char *s;

	if (json_is_string(v))
		return json_string_value(v);
	if (!v)
		return "?";
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	snprintf(buf, sz, "%s", s ? s : "?");
	free(s);
	return buf;
}

static void note_context(FILE *f, json_t *a, json_t *b, const char *key, const char *what,
			 bool warn)
{
	json_t *va = json_object_get(json_object_get(a, "context"), key);
	json_t *vb = json_object_get(json_object_get(b, "context"), key);
	char ba[256], bb[256];

	if (json_equal(va, vb))
		return;
	fprintf(f, "%s: %s differs: %s vs %s\n", warn ? "warning" : "note", what,
	       ctx_str(a, key, ba, sizeof(ba)), ctx_str(b, key, bb, sizeof(bb)));
}

/*
 * Where the runs ran.  A different hypervisor or cgroup layout changes
 * timings and where memory is charged; under TCG every instruction is
 * emulated, so its timings say nothing about hardware.
 */
static void note_environment(FILE *f, const struct compare_side *sa, const struct compare_side *sb)
{
	bool ta = compare_side_emulated(sa), tb = compare_side_emulated(sb);
	json_t *a = sa->rf[0].doc, *b = sb->rf[0].doc;

	note_context(f, a, b, "hypervisor", "hypervisor", true);
	note_context(f, a, b, "cgroup_mode", "cgroup mode", true);
	if (ta || tb)
		fprintf(f, "warning: TIMINGS NOT COMPARABLE TO HARDWARE: the %s ran under TCG (emulated timings): %s\n",
			ta && tb ? "base and new runs" : ta ? "base run" : "new run",
			RESULT_EMULATED_NOTE);
}

bool compare_side_emulated(const struct compare_side *sd)
{
	int i;

	for (i = 0; i < sd->n; i++)
		if (result_emulated(sd->rf[i].doc))
			return true;
	return false;
}

/*
 * A run that warned about noise makes every verdict on it weaker: one
 * line per file, naming it once with all its warnings
 */
void compare_note_noisy(FILE *f, const struct result_file *rf, const char *which)
{
	int i;

	if (!rf->nwarnings)
		return;
	fprintf(f, "warning: %s (%s) was noisy: ", rf->path, which);
	for (i = 0; i < rf->nwarnings; i++)
		fprintf(f, "%s%s", i ? "; " : "", rf->warnings[i]);
	fprintf(f, "\n");
}

/* how many configuration options differ (zero_seed and ignore aside), described in out */
static int options_differ(json_t *a, json_t *b, const char *ignore, char *out, size_t sz)
{
	const char *const skip[] = { "zero_seed", ignore, NULL };

	return result_config_diff(a, b, skip, out, sz);
}

/*
 * The first metric a and b both have in different units (182 K/s is not
 * 182 M/s), its units in *ua and *ub; NULL when every shared one agrees
 */
static const char *unit_differs(const struct result_file *a, const struct result_file *b,
				const char **ua, const char **ub)
{
	const struct result_metric *mb;
	int i;

	for (i = 0; i < a->nmetrics; i++) {
		mb = result_file_metric(b, a->metrics[i].name);
		if (mb && strcmp(a->metrics[i].unit, mb->unit)) {
			*ua = a->metrics[i].unit;
			*ub = mb->unit;
			return mb->name;
		}
	}
	return NULL;
}

int compare_same_config(const struct result_file *a, const struct result_file *b,
			const char *ignore, bool force, const char *verb, FILE *warn)
{
	const char *ba = a->benchmark, *bb = b->benchmark;
	const char *path_a = a->path, *path_b = b->path, *name, *ua, *ub;
	char diffs[1024];

	if (!ba || !bb || strcmp(ba, bb)) {
		if (!force) {
			fprintf(stderr, "%s: %s: benchmark: '%s', but %s is '%s': refusing to %s different benchmarks (--force %ss anyway)\n",
				verb, path_b, bb ?: "?", path_a, ba ?: "?", verb, verb);
			return -EINVAL;
		}
		fprintf(warn, "warning: different benchmarks: %s vs %s\n", ba ?: "?", bb ?: "?");
	}
	if (options_differ(a->doc, b->doc, ignore, diffs, sizeof(diffs))) {
		if (!force) {
			fprintf(stderr, "%s: refusing to %s runs with different options: %s (--force %ss anyway)\n",
				verb, verb, diffs, verb);
			return -EINVAL;
		}
		fprintf(warn, "warning: options differ: %s\n", diffs);
	}
	name = unit_differs(a, b, &ua, &ub);
	if (name) {
		if (!force) {
			fprintf(stderr, "%s: %s: summary.metrics.%s.unit: \"%s\", but %s has \"%s\": refusing to %s a metric in two units (--force %ss anyway)\n",
				verb, path_b, name, ub, path_a, ua, verb, verb);
			return -EINVAL;
		}
		fprintf(warn, "warning: %s in %s against %s: the change is one of two units' numbers\n",
			name, ua, ub);
	}
	return 0;
}

/* ---- formats ---- */

static void fmt_p(double p, char *buf, size_t sz)
{
	if (isnan(p))
		snprintf(buf, sz, "-");
	else if (p < 0.0001)
		snprintf(buf, sz, "<0.0001");
	else
		snprintf(buf, sz, "%.4f", p);
}

/* "mean ± stddev"; one observation has no spread: its mean alone, never "± 0.000" */
static void fmt_ms(const struct stats *st, char *buf, size_t sz)
{
	if (st->n == 0)
		snprintf(buf, sz, "-");
	else if (st->n == 1)
		snprintf(buf, sz, "%.3f", st->mean);
	else
		snprintf(buf, sz, "%.3f ± %.3f", st->mean, st->stddev);
}

/* ---- sides ---- */

/*
 * A side's files must be one configuration: one benchmark, the same
 * options and the same seeding (warm-up, duration and repeat count may
 * differ).  No --force here: a side that mixes configurations has no
 * single mean to compare.  0, or -EINVAL after one line.
 */
static int check_side(const struct compare_side *sd)
{
	const struct result_file *a = &sd->rf[0], *b;
	const char *name, *ua, *ub;
	char diffs[1024];
	int i, j;

	for (i = 0; sd->n > 1 && i < sd->n; i++)
		for (j = 0; j < sd->rf[i].nmetrics; j++)
			if (sd->rf[i].metrics[j].summary_only) {
				fprintf(stderr, "compare: %s: imported without samples (summary only): it is one printed figure and stands alone on its (%s) side\n",
					sd->rf[i].path, sd->which);
				return -EINVAL;
			}

	for (i = 1; i < sd->n; i++) {
		b = &sd->rf[i];
		if (strcmp(a->benchmark, b->benchmark)) {
			fprintf(stderr, "compare: %s: benchmark '%s', but %s on the same (%s) side is '%s': one side is one configuration\n",
				b->path, b->benchmark, a->path, sd->which, a->benchmark);
			return -EINVAL;
		}
		if (options_differ(a->doc, b->doc, NULL, diffs, sizeof(diffs))) {
			fprintf(stderr, "compare: %s: options differ from %s on the same (%s) side: %s\n",
				b->path, a->path, sd->which, diffs);
			return -EINVAL;
		}
		if (a->zero_seed != b->zero_seed) {
			fprintf(stderr, "compare: %s: options.runner.zero_seed %s, but %s on the same (%s) side has %s: one side is one configuration\n",
				b->path, b->zero_seed ? "true" : "false", a->path, sd->which,
				a->zero_seed ? "true" : "false");
			return -EINVAL;
		}
		name = unit_differs(a, b, &ua, &ub);
		if (name) {
			fprintf(stderr, "compare: %s: summary.metrics.%s.unit: \"%s\", but %s on the same (%s) side has \"%s\": one side is one unit\n",
				b->path, name, ub, a->path, sd->which, ua);
			return -EINVAL;
		}
		for (j = 0; j < a->nmetrics || j < b->nmetrics; j++) {
			const struct result_file *x = j < a->nmetrics ? a : b, *y = x == a ? b : a;
			const char *name = x->metrics[j < x->nmetrics ? j : 0].name;

			if (!result_file_metric(y, name)) {
				fprintf(stderr, "compare: %s: summary.metrics.%s: missing, but %s on the same (%s) side has it\n",
					y->path, name, x->path, sd->which);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* one metric over all of a side's files */
struct side_obs {
	double *vals;		/* every measured value, pooled (NaN: none) */
	int nv;
	struct stats samples;	/* of vals */
	struct stats means;	/* the per-repeat means: the observations */
	struct two_level tl;
	int nrepeats;		/* repeats in all, empty ones included */
	double *rmeans;		/* each repeat's mean, file by file (NaN: no value) */
	int *fcounts;		/* repeats per file */
	int min_rep, max_rep;	/* the fewest and most repeats of a file */
};

static void side_obs_free(struct side_obs *o)
{
	free(o->vals);
	o->vals = NULL;
	free(o->rmeans);
	free(o->fcounts);
	o->rmeans = NULL;
	o->fcounts = NULL;
}

static int side_obs(const struct compare_side *sd, const char *name, struct side_obs *o)
{
	int f, r, nv = 0, nr = 0, *counts = NULL, err = 0;
	double *vals = NULL, *means = NULL;
	const struct result_metric *m;

	memset(o, 0, sizeof(*o));
	for (f = 0; f < sd->n; f++) {
		m = result_file_metric(&sd->rf[f], name);
		nv += m->nvalues;
		nr += m->nrepeats;
	}
	vals = calloc(nv + 1, sizeof(*vals));
	means = calloc(nr + 1, sizeof(*means));
	counts = calloc(nr + 1, sizeof(*counts));
	o->fcounts = calloc(sd->n, sizeof(*o->fcounts));
	if (!vals || !means || !counts || !o->fcounts) {
		free(means);
		side_obs_free(o);
		err = -ENOMEM;
		goto out;
	}
	nv = nr = 0;
	for (f = 0; f < sd->n; f++) {
		m = result_file_metric(&sd->rf[f], name);
		memcpy(vals + nv, m->values, m->nvalues * sizeof(*vals));
		nv += m->nvalues;
		for (r = 0; r < m->nrepeats; r++)
			counts[nr++] = m->nvalues / m->nrepeats;
		o->fcounts[f] = m->nrepeats;
		if (!f || m->nrepeats < o->min_rep)
			o->min_rep = m->nrepeats;
		if (!f || m->nrepeats > o->max_rep)
			o->max_rep = m->nrepeats;
	}
	o->nrepeats = nr;
	stats_compute(vals, nv, &o->samples);
	stats_two_level(vals, counts, nr, &o->tl, means);
	stats_compute(means, nr, &o->means);
	o->rmeans = means;
	o->vals = vals;
	o->nv = nv;
	vals = NULL;
out:
	free(vals);
	free(counts);
	return err;
}

/*
 * A metric one side has and the other lacks: another benchmark (allowed
 * with --force) or a run that did not measure it.  0, or -EINVAL after
 * one line.
 */
static int check_metric_sets(const struct compare_params *prm, const struct result_file *ra,
			     const struct result_file *rb, FILE *notes)
{
	const struct result_file *rf[2] = { ra, rb };
	const struct result_metric *m, *o;
	int i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < rf[i]->nmetrics; j++) {
			m = &rf[i]->metrics[j];
			o = result_file_metric(rf[!i], m->name);
			/* a memory field one kernel or hierarchy offers and the other not */
			if (!o && result_file_lacks(rf[!i], m->name)) {
				fprintf(notes, "note: %s only in %s: %s was imported from %s, which does not print it\n",
					m->name, rf[i]->path, rf[!i]->path, rf[!i]->source_kind);
				continue;
			}
			if (!o && m->mem_field) {
				fprintf(notes, "note: %s only in %s: the other run's kernel or cgroup hierarchy does not report it\n",
					m->name, rf[i]->path);
				continue;
			}
			if (!o && !prm->force) {
				fprintf(stderr, "compare: %s: summary.metrics.%s: missing, but %s has it (--force compares the metrics both have)\n",
					rf[!i]->path, m->name, rf[i]->path);
				return -EINVAL;
			}
			if (!o) {
				fprintf(notes, "warning: %s only in %s\n", m->name, rf[i]->path);
				continue;
			}
			/* measured in one run, not in the other: no figure to compare */
			if (!m->st.n && !m->summary_only && (o->st.n || o->summary_only)) {
				fprintf(stderr, "compare: %s: summary.metrics.%s: no measured value, but %s has %d\n",
					rf[i]->path, m->name, rf[!i]->path, o->st.n);
				return -EINVAL;
			}
		}
	}
	if (isnan(ra->peak_memory_mib) != isnan(rb->peak_memory_mib) &&
	    rf[isnan(ra->peak_memory_mib) ? 0 : 1]->source_kind) {
		i = isnan(ra->peak_memory_mib) ? 0 : 1;
		fprintf(notes, "note: peak_memory only in %s: %s was imported from %s, which does not print it\n",
			rf[!i]->path, rf[i]->path, rf[i]->source_kind);
	} else if (isnan(ra->peak_memory_mib) != isnan(rb->peak_memory_mib) && !prm->force) {
		i = isnan(ra->peak_memory_mib) ? 0 : 1;
		fprintf(stderr, "compare: %s: summary.peak_memory_mib: null (not measured), but %s has %.3f (--force compares the rest)\n",
			rf[i]->path, rf[!i]->path, rf[!i]->peak_memory_mib);
		return -EINVAL;
	}
	return 0;
}

/*
 * The resolutions the verdicts used, the smallest difference each
 * measurement tells apart (for memory: one memcg charge batch per CPU).
 */
static void print_resolutions(const struct result_file *ra, const struct result_file *rb,
			      double peak_res)
{
	const struct result_metric *ma, *mb;
	int i, n = 0;
	double res;

	for (i = 0; i < ra->nmetrics; i++) {
		ma = &ra->metrics[i];
		mb = result_file_metric(rb, ma->name);
		res = mb ? fmax(ma->resolution, mb->resolution) : 0;
		if (res <= 0)
			continue;
		printf("%s %s %.3f %s", n++ ? "," : "Resolution:", ma->name, res, ma->unit);
	}
	if (peak_res > 0)
		printf("%s peak_memory %.3f MiB", n++ ? "," : "Resolution:", peak_res);
	if (n)
		printf(".\n");
}

/* which memory each memory row compared: memory.current or memory.stat's sum */
static void print_memory_meanings(const struct result_file *ra, const struct result_file *rb,
				  bool peak)
{
	const char *what;
	int i;

	for (i = 0; i < ra->nmetrics; i++) {
		what = result_memory_meaning(ra->metrics[i].name);
		if (what && result_file_metric(rb, ra->metrics[i].name))
			printf("Memory compared: %s is %s.\n", ra->metrics[i].name, what);
	}
	if (peak)
		printf("Memory compared: peak_memory is %s.\n", result_memory_meaning("peak_memory"));
}

/*
 * The test on repeat means.  With one repeat on a side its spread is
 * unknown: assume it equals the other side's and use a pooled t-test with
 * the other side's degrees of freedom.  Returns the p-value; *df, *how.
 */
static double repeat_means_test(const struct stats *a, const struct stats *b, double *df,
				const char **how)
{
	const struct stats *one, *many;
	double t, se;

	if (a->n >= 2 && b->n >= 2) {
		*how = "Welch";
		return welch_test(a, b, &t, df);
	}
	*df = NAN;
	*how = "none";
	if (a->n < 1 || b->n < 1 || (a->n < 2 && b->n < 2))
		return NAN;
	one = a->n < 2 ? a : b;
	many = one == a ? b : a;
	*how = "pooled";
	*df = many->n - 1;
	se = many->stddev * sqrt(1.0 / one->n + 1.0 / many->n);
	if (se == 0.0)
		return a->mean == b->mean ? 1.0 : 0.0;
	t = (a->mean - b->mean) / se;
	return t_pvalue(t, *df);
}

/*
 * What --power reports for one metric, whatever the unit of the test: a
 * repeat (reps 0) or an invocation of reps repeats, secs seconds each
 * (set-up time between repeats not counted), sda and sdb the standard
 * deviations between the units of each side.
 */
struct power_unit {
	const char *name, *unit;
	double sda, sdb, mean;
	double threshold_pct;	/* the change to detect */
	int secs, reps, warmup, duration;
};

/* What five minutes of machine time buy at these settings: both sides' units. */
static void print_budget(const struct power_unit *u)
{
	int n = 300 / (2 * u->secs);
	double d;

	if (n < 2 || !(u->mean > 0)) {
		if (u->reps)
			printf("power: %s: 5 minutes of runs at these settings give fewer than 2 invocations per side (each %d x %d s = %d s; set-up between repeats not counted)\n",
			       u->name, u->reps, u->secs / u->reps, u->secs);
		else
			printf("power: %s: 5 minutes of runs at these settings give fewer than 2 repeats per side\n",
			       u->name);
		return;
	}
	d = detectable_change(u->sda, u->sdb, n, 0.05, 0.80) / u->mean * 100.0;
	if (u->reps)
		printf("power: %s: in 5 minutes of runs (%d invocations per side, each %d x %d s = %d s; set-up between repeats not counted) the smallest change detectable at p < 0.05 with 80%% power is %.2f%%\n",
		       u->name, n, u->reps, u->secs / u->reps, u->secs, d);
	else
		printf("power: %s: in 5 minutes of runs (%d repeats per side of %d s) the smallest change detectable at p < 0.05 with 80%% power is %.2f%%\n",
		       u->name, n, u->secs, d);
}

static void print_power_unit(const struct power_unit *u)
{
	const char *what = u->reps ? "invocations" : "repeats";
	const char *spread = u->reps ? "between-invocation" : "between-repeat";
	double delta = u->threshold_pct / 100.0 * u->mean;
	char of[48];
	int n;

	if (!(delta > 0)) {
		printf("power: %s: needs a threshold above 0 and a non-zero base mean\n", u->name);
		return;
	}
	n = repeats_for_power(u->sda, u->sdb, delta, 0.05, 0.80, 1000);
	if (n < 0) {
		printf("power: %s: more than 1000 %s per side to detect %.2f%% (%.3g %s) at p < 0.05 with 80%% power (%s stddev %.3g / %.3g %s)\n",
		       u->name, what, u->threshold_pct, delta, u->unit, spread, u->sda, u->sdb,
		       u->unit);
	} else if (u->reps) {
		snprintf(of, sizeof(of), u->reps > 1 ? "%d repeats" : "one repeat", u->reps);
		printf("power: %s: %d invocations per side of %s at -w%d -d%d detect a %.2f%% change (%.3g %s) at p < 0.05 with 80%% power (between-invocation stddev %.3g / %.3g %s); that is about %d s of runs per side, set-up between repeats not counted\n",
		       u->name, n, of, u->warmup, u->duration, u->threshold_pct, delta, u->unit,
		       u->sda, u->sdb, u->unit, n * u->secs);
	} else {
		printf("power: %s: %d repeats per side detect a %.2f%% change (%.3g %s) at p < 0.05 with 80%% power (between-repeat stddev %.3g / %.3g %s); at -w%d -d%d that is about %d s of runs per side\n",
		       u->name, n, u->threshold_pct, delta, u->unit, u->sda, u->sdb, u->unit,
		       u->warmup, u->duration, n * u->secs);
	}
	print_budget(u);
}

/*
 * The repeat as the unit.  A side of one repeat has no spread of its own:
 * it is taken to be the other side's.
 */
static void print_power(const char *name, const char *unit, const struct side_obs *oa,
			const struct side_obs *ob, const struct compare_side *sa, double threshold_pct)
{
	const struct result_file *rf = &sa->rf[0];
	struct power_unit u = {
		.name = name, .unit = unit, .mean = fabs(oa->means.mean),
		.threshold_pct = threshold_pct,
		.sda = oa->means.n >= 2 ? oa->means.stddev : NAN,
		.sdb = ob->means.n >= 2 ? ob->means.stddev : NAN,
		.secs = rf->warmup_sec + rf->duration_sec,
		.warmup = rf->warmup_sec, .duration = rf->duration_sec,
	};

	if (isnan(u.sda) && isnan(u.sdb)) {
		printf("power: %s: unknown: no side has two repeats to estimate the between-repeat spread from (use --repeat N)\n",
		       name);
		return;
	}
	if (isnan(u.sda))
		u.sda = u.sdb;
	if (isnan(u.sdb))
		u.sdb = u.sda;
	print_power_unit(&u);
}

/*
 * The invocation as the unit: the spread of the file means holds the
 * invocations' drift and the repeats' spread, so more invocations of the
 * base's first file's repeats and -w/-d are the way to a smaller
 * detectable change.
 */
static void print_power_invocations(const char *name, const char *unit,
				    const struct invocations *ia, const struct invocations *ib,
				    const struct compare_side *sa, double threshold_pct)
{
	const struct result_file *rf = &sa->rf[0];
	struct power_unit u = {
		.name = name, .unit = unit, .mean = fabs(ia->means.mean),
		.threshold_pct = threshold_pct,
		.sda = ia->means.stddev, .sdb = ib->means.stddev,
		.reps = rf->repeat_cnt,
		.secs = rf->repeat_cnt * (rf->warmup_sec + rf->duration_sec),
		.warmup = rf->warmup_sec, .duration = rf->duration_sec,
	};

	if (ia->means.n < 2 || ib->means.n < 2) {
		printf("power: %s: unknown: a side has fewer than two invocations with a value to estimate the between-invocation spread from\n",
		       name);
		return;
	}
	print_power_unit(&u);
}

/*
 * The detail line of a metric when the invocation is the unit: the test,
 * what a file's mean is made of, and the three levels of both sides.
 */
static void print_invocations_detail(const char *name, const struct side_obs *oa,
				     const struct side_obs *ob, const struct invocations *ia,
				     const struct invocations *ib, const char *dfs, bool logs)
{
	int lo = oa->min_rep < ob->min_rep ? oa->min_rep : ob->min_rep;
	int hi = oa->max_rep > ob->max_rep ? oa->max_rep : ob->max_rep;
	char what[128], levels[160];

	if (hi < 2)
		snprintf(what, sizeof(what), "mean over its per-second samples");
	else if (lo == hi)
		snprintf(what, sizeof(what), "mean of its %d repeat means", hi);
	else
		snprintf(what, sizeof(what), "mean of its repeat means, %d to %d per file%s", lo,
			 hi, lo < 2 ? "; a file without repeats: its mean over samples" : "");
	if (hi < 2)
		snprintf(levels, sizeof(levels), "within-invocation CV %.2f%% / %.2f%%",
			 oa->tl.within_cv * 100, ob->tl.within_cv * 100);
	else
		snprintf(levels, sizeof(levels),
			 "between-repeat CV %.2f%% / %.2f%%, within-repeat CV %.2f%% / %.2f%%",
			 ia->tl.within_cv * 100, ib->tl.within_cv * 100, oa->tl.within_cv * 100,
			 ob->tl.within_cv * 100);
	printf("  %s: %s on %d + %d invocation means (the invocation is the unit: each file's %s)%s; between-invocation CV %.2f%% / %.2f%%, %s\n",
	       name, ia->means.n < 2 || ib->means.n < 2 ? "no test" :
	       logs ? "Welch's t-test (logs)" : "Welch's t-test",
	       ia->means.n, ib->means.n, what, dfs, ia->tl.between_cv * 100,
	       ib->tl.between_cv * 100, levels);
}

const char *compare_unit_name(enum compare_unit unit)
{
	switch (unit) {
	case COMPARE_UNIT_SAMPLE:
		return "samples";
	case COMPARE_UNIT_REPEAT:
		return "repeats";
	case COMPARE_UNIT_FILE:
		return "invocations";
	case COMPARE_UNIT_PAIR:
		return "pairs";
	}
	return "?";
}

static enum compare_unit unit_of(const struct compare_params *prm, const struct compare_side *sa,
				 const struct compare_side *sb)
{
	bool by_repeat = false;
	int f;

	if (prm->paired)
		return COMPARE_UNIT_PAIR;
	if (sa->n >= 2 && sb->n >= 2)
		return COMPARE_UNIT_FILE;
	for (f = 0; f < sa->n; f++)
		by_repeat |= sa->n > 1 || sa->rf[f].repeat_cnt > 1;
	for (f = 0; f < sb->n; f++)
		by_repeat |= sb->n > 1 || sb->rf[f].repeat_cnt > 1;
	return by_repeat ? COMPARE_UNIT_REPEAT : COMPARE_UNIT_SAMPLE;
}

/* the refusals: each side one configuration, the two sides the same one */
static int check_comparable(const struct compare_params *prm, const struct compare_side *sa,
			    const struct compare_side *sb, FILE *notes)
{
	const struct result_file *ra = &sa->rf[0], *rb = &sb->rf[0];

	if (prm->trimmed && (!prm->paired || prm->rank)) {
		fprintf(stderr, "%s: --trimmed is a test of pairs: give it with --paired and without --rank\n",
			prm->verb);
		return -EINVAL;
	}
	if (prm->paired && (sa->n != sb->n || sa->n < 2)) {
		fprintf(stderr, "compare: --paired: %d base and %d new files: pairs need as many files on each side, 2 or more\n",
			sa->n, sb->n);
		return -EINVAL;
	}
	if (check_side(sa) || check_side(sb))
		return -EINVAL;
	if (compare_same_config(ra, rb, NULL, prm->force, prm->verb, notes))
		return -EINVAL;
	/* one fixed bucket layout against random ones: a bias, not a change */
	if (ra->zero_seed != rb->zero_seed) {
		if (!prm->force) {
			fprintf(stderr, "%s: %s: options.runner.zero_seed %s, but %s has %s: refusing to %s zero-seed and seeded hash maps (--force %ss anyway)\n",
				prm->verb, rb->path, rb->zero_seed ? "true" : "false", ra->path,
				ra->zero_seed ? "true" : "false", prm->verb, prm->verb);
			return -EINVAL;
		}
		fprintf(notes, "warning: one side used --zero-seed, the other random hash seeds\n");
	}
	return check_metric_sets(prm, ra, rb, notes);
}

/* "a3e4cd60a8ec (tag base)" */
static void build_name(json_t *doc, char *buf, size_t sz)
{
	char build[512], shortb[32];
	const char *tag = result_tag(doc);

	result_kernel_build(doc, build, sizeof(build));
	result_build_short(build, shortb, sizeof(shortb));
	snprintf(buf, sz, "%s%s%s%s", *build ? shortb : "unrecorded", tag ? " (tag " : "",
		 tag ? tag : "", tag ? ")" : "");
}

/*
 * One release, two builds (a base and a patched kernel that both say
 * 6.18.0-rc3+): the release matches, so say it; and a side whose files
 * ran on different builds is not one kernel.
 */
static void note_build(FILE *out, const struct compare_side *sa, const struct compare_side *sb)
{
	const struct compare_side *sides[2] = { sa, sb };
	json_t *a = sa->rf[0].doc, *b = sb->rf[0].doc;
	char ba[512], bb[512], na[160], nb[160];
	int s, i;

	result_kernel_build(a, ba, sizeof(ba));
	result_kernel_build(b, bb, sizeof(bb));
	build_name(a, na, sizeof(na));
	build_name(b, nb, sizeof(nb));
	if (json_equal(json_object_get(json_object_get(a, "context"), "kernel_release"),
		       json_object_get(json_object_get(b, "context"), "kernel_release"))) {
		const char *rel = json_string_value(json_object_get(json_object_get(a, "context"),
								    "kernel_release"));

		if (*ba && *bb && strcmp(ba, bb))
			fprintf(out, "note: base and new ran different builds of kernel %s: %s vs %s\n",
			       rel ?: "?", na, nb);
		else if (*ba && !strcmp(ba, bb) && strcmp(na, nb))
			fprintf(out, "note: base and new are tagged differently but ran the same build of kernel %s: %s vs %s\n",
			       rel ?: "?", na, nb);
	}
	for (s = 0; s < 2; s++) {
		for (i = 1; i < sides[s]->n; i++) {
			result_kernel_build(sides[s]->rf[i].doc, bb, sizeof(bb));
			result_kernel_build(sides[s]->rf[0].doc, ba, sizeof(ba));
			if (*ba && *bb && strcmp(ba, bb)) {
				build_name(sides[s]->rf[0].doc, na, sizeof(na));
				build_name(sides[s]->rf[i].doc, nb, sizeof(nb));
				fprintf(out, "warning: the %s side mixes kernel builds: %s (%s) and %s (%s)\n",
				       sides[s]->which, na, sides[s]->rf[0].path, nb, sides[s]->rf[i].path);
				break;
			}
		}
	}
}

/* an imported file: where it came from and what it lacks, which every verdict lacks too */
static void note_import(FILE *out, const struct result_file *rf, const char *which)
{
	json_t *v;
	size_t i;

	if (!rf->source_kind)
		return;
	fprintf(out, "note: %s (%s) was imported from %s %s; it lacks:\n", rf->path, which,
	       rf->source_kind, rf->source_file);
	json_array_foreach(rf->lacks, i, v)
		fprintf(out, "  %s\n", json_string_value(v));
}

void compare_note_runs(FILE *out, const struct compare_side *sa, const struct compare_side *sb)
{
	json_t *a = sa->rf[0].doc, *b = sb->rf[0].doc;
	int f;

	/* an import has no context: what it lacks is said below, not as differences */
	if (!sa->rf[0].source_kind && !sb->rf[0].source_kind) {
		note_context(out, a, b, "kernel_release", "kernel release", false);
		note_build(out, sa, sb);
		note_context(out, a, b, "nr_online_cpus", "online CPU count", true);
		note_context(out, a, b, "allowed_cpus", "allowed CPUs", true);
		note_context(out, a, b, "cpu_model", "CPU model", true);
		note_context(out, a, b, "sysctl", "BPF JIT sysctls", true);
		note_context(out, a, b, "libbpf_version", "libbpf version", false);
		note_context(out, a, b, "bench_version", "bench version", false);
		note_environment(out, sa, sb);
	}
	for (f = 0; f < sa->n; f++)
		note_import(out, &sa->rf[f], "base");
	for (f = 0; f < sb->n; f++)
		note_import(out, &sb->rf[f], "new");
	for (f = 0; f < sa->n; f++)
		compare_note_noisy(out, &sa->rf[f], "base");
	for (f = 0; f < sb->n; f++)
		compare_note_noisy(out, &sb->rf[f], "new");
}

/* one metric's test on the unit's observations, and the means it compares */
struct metric_test {
	double p, df, base, new;
	double change_pct, lo_pct, hi_pct;	/* NaN: none */
	const char *how;	/* "Welch", "pooled", "samples", "Mann-Whitney", "paired t" or "none" */
	char bs[64], ns[64];	/* the sides as printed */
	int na, nb;		/* observations per side */
	struct invocations ia, ib;
	struct rank_test rt;	/* --rank */
	bool rank_log;		/* the rank test ran on the logs */
	struct paired_ratio pr;	/* --paired */
	struct log_change lc;	/* the log-scale test: Welch on logs, or --paired's */
	bool log_scale;		/* p and interval from lc */
	struct stats sa, sb;	/* the default test's observations, summarised */
};

static double pct_change(double base, double new)
{
	if (!isfinite(base) || !isfinite(new))
		return NAN;
	if (base == 0)
		return new == 0 ? 0 : NAN;
	return (new - base) / fabs(base) * 100.0;
}

/* the unit's observations of one side into a malloc'ed *obs (NaN: none); their count or -ENOMEM */
static int unit_obs(enum compare_unit unit, const struct compare_side *sd,
		    const struct side_obs *o, double **obs)
{
	int n = unit == COMPARE_UNIT_SAMPLE ? o->nv :
		unit == COMPARE_UNIT_REPEAT ? o->nrepeats : sd->n;
	struct invocations inv;

	*obs = calloc(n + 1, sizeof(**obs));
	if (!*obs)
		return -ENOMEM;
	if (unit == COMPARE_UNIT_SAMPLE)
		memcpy(*obs, o->vals, n * sizeof(**obs));
	else if (unit == COMPARE_UNIT_REPEAT)
		memcpy(*obs, o->rmeans, n * sizeof(**obs));
	else
		stats_invocations(o->rmeans, o->fcounts, sd->n, &inv, *obs);
	return n;
}

static void set_ratio_pct(struct metric_test *mt, double lo, double hi)
{
	mt->lo_pct = (lo - 1) * 100.0;
	mt->hi_pct = (hi - 1) * 100.0;
}

static bool all_positive(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && !(v[i] > 0))
			return false;
	return true;
}

static void fmt_median(const double *v, int n, char *buf, size_t sz, double *median)
{
	struct robust r;

	*median = NAN;
	if (stats_robust(v, n, &r, NULL, 0) || !r.n) {
		snprintf(buf, sz, "-");
		return;
	}
	*median = r.median;
	snprintf(buf, sz, "%.3f (median)", r.median);
}

/*
 * --rank on observations a and b: Mann-Whitney's p, and the change as the
 * Hodges-Lehmann shift of the logs (a ratio: every observation positive)
 * or of the values (as a percent of the base's median).  a and b are
 * overwritten by their logs.  0, or -ENOMEM.
 */
static int rank_obs(double *a, int na, double *b, int nb, struct metric_test *mt)
{
	double med_b, s;
	int i, err;

	fmt_median(a, na, mt->bs, sizeof(mt->bs), &mt->base);
	fmt_median(b, nb, mt->ns, sizeof(mt->ns), &med_b);
	mt->rank_log = all_positive(a, na) && all_positive(b, nb);
	for (i = 0; mt->rank_log && i < na; i++)
		a[i] = log(a[i]);
	for (i = 0; mt->rank_log && i < nb; i++)
		b[i] = log(b[i]);
	mt->how = "Mann-Whitney";
	mt->p = mt->df = mt->change_pct = mt->lo_pct = mt->hi_pct = NAN;
	err = rank_test(a, na, b, nb, 0.05, &mt->rt);
	mt->na = mt->rt.na;
	mt->nb = mt->rt.nb;
	if (err == -EINVAL)
		return 0;	/* a side without values: untested */
	if (err)
		return err;
	mt->p = mt->rt.p;
	s = mt->rt.shift;
	if (mt->rank_log) {
		mt->new = mt->base * exp(s);
		mt->change_pct = (exp(s) - 1) * 100.0;
		set_ratio_pct(mt, exp(mt->rt.lo), exp(mt->rt.hi));
	} else if (mt->base != 0) {
		mt->new = mt->base + s;
		mt->change_pct = s / fabs(mt->base) * 100.0;
		mt->lo_pct = mt->rt.lo / fabs(mt->base) * 100.0;
		mt->hi_pct = mt->rt.hi / fabs(mt->base) * 100.0;
	} else {
		mt->new = s;
		mt->change_pct = s == 0 ? 0 : NAN;
	}
	return 0;
}

/*
 * --paired on observations a[i], b[i]: the paired t-test on log(b/a), or
 * with --rank Wilcoxon's signed-rank test and the Hodges-Lehmann estimate
 * of the log ratios with its interval
 */
static void paired_obs(const struct compare_params *prm, const double *a, const double *b, int n,
		       struct metric_test *mt)
{
	struct log_change *c = &mt->lc;

	paired_log_ratio(a, b, n, 0.05, &mt->pr);
	if (prm->rank)
		paired_log_hl(a, b, n, 0.05, c);
	else if (prm->trimmed)
		paired_log_trimmed(a, b, n, SEQ_TRIM, 0.05, c);
	else
		paired_log_t(a, b, n, 0.05, c);
	mt->how = prm->rank ? "signed rank" : prm->trimmed ? "trimmed t" : "paired t";
	mt->log_scale = true;
	mt->na = mt->nb = c->na;
	mt->p = c->na >= 2 ? c->p : NAN;
	mt->df = prm->rank ? NAN : c->df;
	mt->lo_pct = mt->hi_pct = NAN;
	if (!c->na) {
		/* no pair of positive values (e.g. drops, 0 on both sides) */
		mt->change_pct = pct_change(mt->base, mt->new);
		return;
	}
	mt->new = mt->base * c->ratio;
	mt->change_pct = (c->ratio - 1) * 100.0;
	if (c->na >= 2 && !isnan(c->lo))
		set_ratio_pct(mt, c->lo, c->hi);
}

/* --rank or --paired on the unit's observations of the metric */
static int robust_metric(const struct compare_params *prm, enum compare_unit unit,
			 const struct compare_side *sa, const struct compare_side *sb,
			 const struct side_obs *oa, const struct side_obs *ob,
			 struct metric_test *mt)
{
	double *a = NULL, *b = NULL;
	int na, nb, err = 0;

	na = unit_obs(unit, sa, oa, &a);
	nb = unit_obs(unit, sb, ob, &b);
	if (na < 0 || nb < 0)
		err = -ENOMEM;
	else if (unit == COMPARE_UNIT_PAIR)
		paired_obs(prm, a, b, na, mt);
	else if (prm->rank)
		err = rank_obs(a, na, b, nb, mt);
	free(a);
	free(b);
	return err;
}

/*
 * The unit's observations summarised (the default: the verdict's ratio of
 * the means and Fieller's interval, verdict.c), or --rank's or --paired's
 * test on them
 */
static int test_metric(const struct compare_params *prm, enum compare_unit unit,
		       const struct compare_side *sa, const struct compare_side *sb,
		       const struct side_obs *oa, const struct side_obs *ob,
		       struct metric_test *mt)
{
	const struct stats *a = &oa->samples, *b = &ob->samples;
	double t;

	memset(mt, 0, sizeof(*mt));
	mt->how = "none";
	mt->df = NAN;
	if (unit == COMPARE_UNIT_FILE || unit == COMPARE_UNIT_PAIR) {
		mt->p = invocation_means_test(oa->rmeans, oa->fcounts, sa->n, ob->rmeans,
					      ob->fcounts, sb->n, &mt->ia, &mt->ib, &t, &mt->df);
		a = &mt->ia.means;
		b = &mt->ib.means;
		if (a->n >= 2 && b->n >= 2)
			mt->how = "Welch";
	} else if (unit == COMPARE_UNIT_REPEAT) {
		a = &oa->means;
		b = &ob->means;
		mt->p = repeat_means_test(a, b, &mt->df, &mt->how);
	} else {
		mt->p = welch_test(a, b, &t, &mt->df);
		mt->how = "samples";
		if (a->n < 2 || b->n < 2)
			mt->p = NAN;
	}
	fmt_ms(a, mt->bs, sizeof(mt->bs));
	fmt_ms(b, mt->ns, sizeof(mt->ns));
	mt->base = a->mean;
	mt->new = b->mean;
	mt->na = a->n;
	mt->nb = b->n;
	mt->change_pct = pct_change(mt->base, mt->new);
	mt->lo_pct = mt->hi_pct = NAN;
	mt->sa = *a;
	mt->sb = *b;
	if (unit == COMPARE_UNIT_PAIR || prm->rank)
		return robust_metric(prm, unit, sa, sb, oa, ob, mt);
	return 0;
}

/* what the unit's observations are called in a verdict's reason */
static const char *obs_word(enum compare_unit unit)
{
	switch (unit) {
	case COMPARE_UNIT_SAMPLE:
		return "samples";
	case COMPARE_UNIT_REPEAT:
		return "repeats";
	case COMPARE_UNIT_PAIR:
		return "pairs";
	default:
		return "runs";
	}
}

/*
 * The row's verdict (verdict.h): by default on the sides' summaries (the
 * ratio of the arithmetic means printed beside it, Fieller's interval,
 * Welch's p of the difference, which agree); with --rank or --paired on
 * their estimate and interval.  mt's p and df become the verdict's.
 */
static void judge(const struct compare_params *prm, enum compare_unit unit,
		  struct metric_test *mt, double resolution, const char *munit,
		  bool higher_is_better, struct compare_row *row)
{
	struct verdict_in in = {
		.base = { mt->sa.mean, mt->sa.stddev, mt->sa.n },
		.new = { mt->sb.mean, mt->sb.stddev, mt->sb.n },
		.threshold_pct = prm->threshold_pct, .resolution = resolution, .unit = munit,
		.higher_is_better = higher_is_better, .obs = obs_word(unit),
	};
	struct verdict *v = &row->v;

	if (unit != COMPARE_UNIT_PAIR && !prm->rank) {
		verdict_eval(&in, v);
		mt->p = v->p;
		mt->df = v->df;
		mt->change_pct = v->change_pct;
		mt->lo_pct = v->lo_pct;
		mt->hi_pct = v->hi_pct;
	} else {
		memset(v, 0, sizeof(*v));
		in.base.n = mt->na;
		in.new.n = mt->nb;
		in.base.mean = mt->base;
		in.new.mean = mt->new;
		v->change_pct = mt->change_pct;
		v->lo_pct = mt->lo_pct;
		v->hi_pct = mt->hi_pct;
		v->p = mt->p;
		v->df = mt->df;
		/* the half-width of its interval: the smallest change it would have shown */
		v->detectable_pct = (mt->hi_pct - mt->lo_pct) / 2;
		verdict_classify(&in, v);
	}
	row->verdict = v->text;
	row->worse = v->fails;
}

static void fill_row(struct compare_row *row, const struct metric_test *mt)
{
	row->base_sd = mt->sa.n > 1 ? mt->sa.stddev : NAN;
	row->new_sd = mt->sb.n > 1 ? mt->sb.stddev : NAN;
	row->median = !strcmp(mt->how, "Mann-Whitney");
	snprintf(row->bs, sizeof(row->bs), "%s", mt->bs);
	snprintf(row->ns, sizeof(row->ns), "%s", mt->ns);
	row->change_pct = mt->change_pct;
	row->lo_pct = mt->lo_pct;
	row->hi_pct = mt->hi_pct;
	row->p = mt->p;
	row->base = mt->base;
	row->new = mt->new;
	row->na = mt->na;
	row->nb = mt->nb;
	row->measured = true;
}

/* a metric's test that failed (out of memory): said once, for every caller */
static int compare_failed(const char *metric, int err)
{
	fprintf(stderr, "failed to compare %s: %s\n", metric, strerror(-err));
	return err;
}

/* a side's figure as printed: "mean ± stddev", or the mean alone */
static void fmt_summary(const struct stats *st, char *buf, size_t sz)
{
	if (isnan(st->stddev))
		snprintf(buf, sz, "%.3f", st->mean);
	else
		snprintf(buf, sz, "%.3f ± %.3f", st->mean, st->stddev);
}

/*
 * A metric one side has as a printed mean (and spread) alone, imported
 * from a Summary line or a patch mail's table: the change between the
 * means, and no test, since the values behind a printed figure, even how
 * many, are unknown.
 */
static void summary_only_row(const struct result_metric *ma, const struct result_metric *mb,
			     struct compare_row *row)
{
	fmt_summary(&ma->st, row->bs, sizeof(row->bs));
	fmt_summary(&mb->st, row->ns, sizeof(row->ns));
	row->base = ma->st.mean;
	row->new = mb->st.mean;
	row->change_pct = pct_change(row->base, row->new);
	row->resolution = fmax(ma->resolution, mb->resolution);
	row->base_sd = ma->st.stddev;
	row->new_sd = mb->st.stddev;
	row->v.kind = VERDICT_UNDECIDED;
	row->v.reason = VERDICT_R_UNTESTED;
	row->v.change_pct = row->change_pct;
	row->v.lo_pct = row->v.hi_pct = row->v.p = row->v.detectable_pct = NAN;
	snprintf(row->v.word, sizeof(row->v.word), "undecided");
	snprintf(row->v.why, sizeof(row->v.why), "untested (summary only)");
	snprintf(row->v.text, sizeof(row->v.text), "undecided: untested (summary only)");
	row->verdict = row->v.text;
	row->measured = true;
}

/* runs marked invalid on sd's side, kept by --include-invalid */
static int side_invalid(const struct compare_side *sd)
{
	int i, n = 0;

	for (i = 0; i < sd->n; i++)
		n += sd->rf[i].invalid;
	return n;
}

/*
 * A side with a run marked invalid (kept by --include-invalid): its
 * column says so, on every surface that prints the row
 */
static void mark_invalid(struct compare_row *row, const struct compare_side *sa,
			 const struct compare_side *sb)
{
	size_t n;

	row->base_invalid = side_invalid(sa);
	row->new_invalid = side_invalid(sb);
	n = strlen(row->bs);
	if (row->base_invalid && n + 3 < sizeof(row->bs))
		snprintf(row->bs + n, sizeof(row->bs) - n, " %s", COMPARE_INVALID_MARK);
	n = strlen(row->ns);
	if (row->new_invalid && n + 3 < sizeof(row->ns))
		snprintf(row->ns + n, sizeof(row->ns) - n, " %s", COMPARE_INVALID_MARK);
}

void compare_invalid_legend(FILE *f, const struct compare_side *sa, const struct compare_side *sb)
{
	const struct compare_side *sd;
	int s, i;

	for (s = 0; s < 2; s++) {
		sd = s ? sb : sa;
		for (i = 0; i < sd->n; i++)
			if (sd->rf[i].invalid)
				fprintf(f, "%s %s run %s is marked invalid, kept by --include-invalid: %s\n",
					COMPARE_INVALID_MARK, sd->which, sd->rf[i].path,
					sd->rf[i].invalid_reason);
	}
}

/*
 * One metric's row; oa, ob and mt hold what its notes print (free oa and
 * ob).  0, or a negative errno after one line.
 */
static int eval_metric(const struct compare_params *prm, enum compare_unit unit,
		       const struct compare_side *sa, const struct compare_side *sb,
		       const struct result_metric *ma, const struct result_metric *mb,
		       struct side_obs *oa, struct side_obs *ob, struct metric_test *mt,
		       struct compare_row *row)
{
	int err;

	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "%s (%s)", ma->name, ma->unit);
	snprintf(row->metric, sizeof(row->metric), "%s", ma->name);
	snprintf(row->unit, sizeof(row->unit), "%s", ma->unit);
	row->p = row->change_pct = row->lo_pct = row->hi_pct = NAN;
	row->base_sd = row->new_sd = NAN;
	if (ma->summary_only || mb->summary_only) {
		summary_only_row(ma, mb, row);
		return 0;
	}
	err = side_obs(sa, ma->name, oa);
	if (!err)
		err = side_obs(sb, ma->name, ob);
	if (err)
		return compare_failed(ma->name, err);
	if (!oa->samples.n) {
		/* neither run measured it (e.g. no memory cgroup): say so */
		snprintf(row->bs, sizeof(row->bs), "-");
		snprintf(row->ns, sizeof(row->ns), "-");
		snprintf(row->v.text, sizeof(row->v.text), "not measured in either run");
		snprintf(row->v.word, sizeof(row->v.word), "n/a");
		row->verdict = row->v.text;
		return 0;
	}
	err = test_metric(prm, unit, sa, sb, oa, ob, mt);
	if (err)
		return compare_failed(ma->name, err);
	row->resolution = fmax(ma->resolution, mb->resolution);
	judge(prm, unit, mt, row->resolution, ma->unit, ma->higher_is_better, row);
	fill_row(row, mt);
	mark_invalid(row, sa, sb);
	return 0;
}

/* every file's peak memory into a malloc'ed *v (NaN: not measured); -ENOMEM */
static int side_peaks(const struct compare_side *sd, double **v)
{
	int i;

	*v = calloc(sd->n, sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (i = 0; i < sd->n; i++)
		(*v)[i] = sd->rf[i].peak_memory_mib;
	return 0;
}

/*
 * Peak memory is one value per run: the files' peaks are the
 * observations (the verdict's ratio of the means, or --rank / --paired);
 * with one file a side there is no test.
 */
static int peak_test(const struct compare_params *prm, const struct compare_side *sa,
		     const struct compare_side *sb, struct metric_test *mt)
{
	struct stats st_a, st_b;
	double *a = NULL, *b = NULL;
	int err;

	memset(mt, 0, sizeof(*mt));
	mt->how = "none";
	mt->p = mt->df = mt->lo_pct = mt->hi_pct = NAN;
	err = side_peaks(sa, &a);
	if (!err)
		err = side_peaks(sb, &b);
	if (err)
		goto out;
	stats_compute(a, sa->n, &st_a);
	stats_compute(b, sb->n, &st_b);
	mt->sa = st_a;
	mt->sb = st_b;
	mt->base = st_a.mean;
	mt->new = st_b.mean;
	mt->na = st_a.n;
	mt->nb = st_b.n;
	snprintf(mt->bs, sizeof(mt->bs), st_a.n > 1 ? "%.3f ± %.3f" : "%.3f", st_a.mean, st_a.stddev);
	snprintf(mt->ns, sizeof(mt->ns), st_b.n > 1 ? "%.3f ± %.3f" : "%.3f", st_b.mean, st_b.stddev);
	mt->change_pct = pct_change(mt->base, mt->new);
	if (sa->n < 2 || sb->n < 2)
		goto out;
	if (prm->paired)
		paired_obs(prm, a, b, sa->n, mt);
	else if (prm->rank)
		err = rank_obs(a, sa->n, b, sb->n, mt);
	else
		mt->how = "Welch";
out:
	free(a);
	free(b);
	return err;
}

/* the peak memory row: 1, 0 when a side did not measure it, or -ENOMEM */
static int eval_peak(const struct compare_params *prm, const struct compare_side *sa,
		     const struct compare_side *sb, struct compare_row *row, double *mem_res)
{
	const struct result_file *ra = &sa->rf[0], *rb = &sb->rf[0];
	struct metric_test mt;
	int err;

	if (isnan(ra->peak_memory_mib) || isnan(rb->peak_memory_mib))
		return 0;
	*mem_res = fmax(ra->peak_memory_resolution_mib, rb->peak_memory_resolution_mib);
	err = peak_test(prm, sa, sb, &mt);
	if (err)
		return compare_failed("peak_memory", err);
	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "peak_memory (MiB)");
	snprintf(row->metric, sizeof(row->metric), "peak_memory");
	snprintf(row->unit, sizeof(row->unit), "MiB");
	row->resolution = *mem_res;
	judge(prm, prm->paired ? COMPARE_UNIT_PAIR : COMPARE_UNIT_FILE, &mt, *mem_res, "MiB",
	      false, row);
	fill_row(row, &mt);
	mark_invalid(row, sa, sb);
	return 1;
}

int compare_eval(const struct compare_params *prm, const struct compare_side *sa,
		 const struct compare_side *sb, FILE *notes, struct compare_row **rows,
		 int *nrows, enum compare_unit *unit)
{
	const struct result_file *ra = &sa->rf[0], *rb = &sb->rf[0];
	const struct result_metric *mb;
	struct side_obs oa, ob;
	struct metric_test mt;
	double mem_res = 0;
	int i, n = 0, err = 0;

	*rows = NULL;
	*nrows = 0;
	*unit = unit_of(prm, sa, sb);
	if (check_comparable(prm, sa, sb, notes))
		return -EINVAL;
	*rows = calloc(ra->nmetrics + 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (i = 0; i < ra->nmetrics && !err; i++) {
		mb = result_file_metric(rb, ra->metrics[i].name);
		if (!mb)
			continue;
		memset(&oa, 0, sizeof(oa));
		memset(&ob, 0, sizeof(ob));
		err = eval_metric(prm, *unit, sa, sb, &ra->metrics[i], mb, &oa, &ob, &mt,
				  &(*rows)[n]);
		n += !err;
		side_obs_free(&oa);
		side_obs_free(&ob);
	}
	if (!err) {
		err = eval_peak(prm, sa, sb, &(*rows)[n], &mem_res);
		n += err > 0;
		err = err > 0 ? 0 : err;
	}
	*nrows = n;
	return err;
}

static void fmt_pct(double pct, char *buf, size_t sz)
{
	verdict_fmt_pct(pct, buf, sz);
}

static void fmt_ci(const struct compare_row *row, char *buf, size_t sz)
{
	verdict_fmt_interval(row->lo_pct, row->hi_pct, buf, sz);
}

#define ROW_FMT "%-24s %22s %22s %10s %20s %8s  %s\n"

static void print_row(const struct compare_row *row)
{
	char ch[32], ci[48], pv[32];

	fmt_pct(row->change_pct, ch, sizeof(ch));
	fmt_ci(row, ci, sizeof(ci));
	fmt_p(row->p, pv, sizeof(pv));
	if (!row->measured)
		snprintf(ch, sizeof(ch), "-");
	printf(ROW_FMT, row->name, row->bs, row->ns, ch, ci, row->measured ? pv : "-",
	       row->verdict);
}

static const char *obs_name(enum compare_unit unit)
{
	switch (unit) {
	case COMPARE_UNIT_SAMPLE:
		return "per-second samples";
	case COMPARE_UNIT_REPEAT:
		return "repeat means";
	default:
		return "invocation means";
	}
}

/* --rank's line under a metric: the test, the shift and its interval */
static void print_rank_note(const char *name, enum compare_unit unit, const struct metric_test *mt,
			    const struct compare_row *row)
{
	char ch[32], ci[96];

	if (isnan(mt->p)) {
		printf("  %s: no rank test: a side has no value\n", name);
		return;
	}
	fmt_pct(row->change_pct, ch, sizeof(ch));
	fmt_ci(row, ci, sizeof(ci));
	if (isnan(row->lo_pct))
		snprintf(ci, sizeof(ci), "none (too few observations for a 95%% interval)");
	else
		snprintf(ci + strlen(ci), sizeof(ci) - strlen(ci), ", coverage %.1f%%",
			 mt->rt.conf * 100.0);
	printf("  %s: Mann-Whitney's rank-sum test on %d + %d %s (%s), U %.1f; Hodges-Lehmann shift of the %s: %s, interval %s\n",
	       name, mt->rt.na, mt->rt.nb, obs_name(unit),
	       mt->rt.exact ? "exact" : "normal approximation, tie-corrected", mt->rt.u,
	       mt->rank_log ? "logs, a ratio" : "values, in percent of the base's median", ch, ci);
}

/* --paired's line under a metric */
static void print_pair_note(const char *name, const struct metric_test *mt)
{
	const struct log_change *c = &mt->lc;

	if (c->na < 2) {
		printf("  %s: no paired test: %d pairs with positive values on both sides%s\n", name,
		       c->na, c->skipped ? " (the others have a value not above 0)" : "");
		return;
	}
	if (!strcmp(mt->how, "signed rank")) {
		char ci[96];

		if (isnan(c->lo))
			snprintf(ci, sizeof(ci), "none: too few pairs for a 95%% interval (%d needed)",
				 min_obs_for_level(0.05));
		else
			snprintf(ci, sizeof(ci), "%+.2f%% .. %+.2f%%, coverage %.1f%%",
				 (c->lo - 1) * 100, (c->hi - 1) * 100, c->conf * 100);
		printf("  %s: Wilcoxon's signed-rank test on %d pairs of invocation means (base file i with new file i: the pair is the unit; %s), T %.0f; Hodges-Lehmann estimate of log(new/base) %+.4f (the median of the pairs' Walsh averages), interval %s%s\n",
		       name, c->na, c->exact ? "exact" : "normal approximation", c->t, c->est, ci,
		       c->skipped ? "; pairs with a value not above 0 left out" : "");
		return;
	}
	if (!strcmp(mt->how, "trimmed t")) {
		printf("  %s: trimmed t-test (Tukey-McLaughlin) on %d pairs of invocation means (base file i with new file i: the pair is the unit), %.0f%% trimmed mean of log(new/base) %+.4f (%d pairs trimmed from each end), se %.4f, df %.0f%s\n",
		       name, c->na, SEQ_TRIM * 100, c->est, (int)floor(SEQ_TRIM * c->na), c->se,
		       c->df, c->skipped ? "; pairs with a value not above 0 left out" : "");
		return;
	}
	printf("  %s: paired t-test on %d pairs of invocation means (base file i with new file i: the pair is the unit), mean log(new/base) %+.4f, stddev %.4f, df %.0f%s\n",
	       name, mt->pr.n, mt->pr.mean_log, mt->pr.sd_log, mt->pr.df,
	       mt->pr.skipped ? "; pairs with a value not above 0 left out" : "");
}

/*
 * --power with pairs: the paired test's spread is that of log(new/base),
 * so n pairs detect exp(z * sd / sqrt(n)) - 1 (detectable_change with the
 * spread split evenly between two sides gives the same).
 */
static void print_power_pairs(const char *name, const struct metric_test *mt,
			      const struct compare_side *sa, double threshold_pct)
{
	const struct result_file *rf = &sa->rf[0];
	double sd = mt->pr.sd_log / sqrt(2.0);
	int secs = rf->repeat_cnt * (rf->warmup_sec + rf->duration_sec);
	int n, budget = secs > 0 ? 300 / (2 * secs) : 0;

	if (mt->pr.n < 2) {
		printf("power: %s: unknown: fewer than two pairs to estimate the spread of log(new/base) from\n",
		       name);
		return;
	}
	n = repeats_for_power(sd, sd, log1p(threshold_pct / 100.0), 0.05, 0.80, 1000);
	if (n < 0)
		printf("power: %s: more than 1000 pairs to detect %.2f%% at p < 0.05 with 80%% power (stddev of log(new/base) %.4f)\n",
		       name, threshold_pct, mt->pr.sd_log);
	else
		printf("power: %s: %d pairs detect a %.2f%% change at p < 0.05 with 80%% power (stddev of log(new/base) %.4f); about %d s of runs\n",
		       name, n, threshold_pct, mt->pr.sd_log, 2 * n * secs);
	if (budget >= 2)
		printf("power: %s: in 5 minutes of runs (%d pairs of %d s invocations) the smallest change detectable at p < 0.05 with 80%% power is %.2f%%\n",
		       name, budget, secs, expm1(detectable_change(sd, sd, budget, 0.05, 0.80)) * 100.0);
}

/* the default test's line under a metric: what it was on */
static void print_test_note(const char *name, enum compare_unit unit,
			    const struct side_obs *oa, const struct side_obs *ob,
			    const struct metric_test *mt, const char *dfs)
{
	if (unit == COMPARE_UNIT_FILE)
		print_invocations_detail(name, oa, ob, &mt->ia, &mt->ib, dfs, mt->log_scale);
	else if (unit == COMPARE_UNIT_REPEAT)
		printf("  %s: %s on %d + %d repeat means (the effective sample size; from %d + %d per-second samples)%s; between-repeat CV %.2f%% / %.2f%%, within-repeat CV %.2f%% / %.2f%%\n",
		       name,
		       !strcmp(mt->how, "Welch") ?
		       (mt->log_scale ? "Welch's t-test (logs)" : "Welch's t-test") :
		       !strcmp(mt->how, "pooled") ?
		       (mt->log_scale ? "t-test (logs) assuming the single-repeat side has the other side's between-repeat spread" :
			"t-test assuming the single-repeat side has the other side's between-repeat spread") :
		       "no test",
		       oa->means.n, ob->means.n, oa->samples.n, ob->samples.n, dfs,
		       oa->tl.between_cv * 100, ob->tl.between_cv * 100,
		       oa->tl.within_cv * 100, ob->tl.within_cv * 100);
}

/* the lines under a metric's row: what the test was on, and when it could not tell */
static void print_metric_notes(const struct compare_params *prm, bool power,
			       enum compare_unit unit, const struct result_metric *ma,
			       const struct compare_side *sa, const struct side_obs *oa,
			       const struct side_obs *ob, const struct metric_test *mt,
			       const struct compare_row *row)
{
	char dfs[32], ch[32], pv[32];

	if (isnan(mt->df))
		dfs[0] = '\0';
	else
		snprintf(dfs, sizeof(dfs), ", df %.1f", mt->df);
	if (unit == COMPARE_UNIT_PAIR)
		print_pair_note(ma->name, mt);
	else if (prm->rank)
		print_rank_note(ma->name, unit, mt, row);
	else
		print_test_note(ma->name, unit, oa, ob, mt, dfs);
	fmt_pct(row->change_pct, ch, sizeof(ch));
	fmt_p(mt->p, pv, sizeof(pv));
	if (!power)
		return;
	if (unit == COMPARE_UNIT_PAIR)
		print_power_pairs(ma->name, mt, sa, prm->threshold_pct);
	else if (unit == COMPARE_UNIT_FILE)
		print_power_invocations(ma->name, ma->unit, &mt->ia, &mt->ib, sa,
					prm->threshold_pct);
	else
		print_power(ma->name, ma->unit, oa, ob, sa, prm->threshold_pct);
}

/* one metric's row and the lines under it; 0, or -errno after one line */
static int compare_metric(const struct compare_params *prm, bool power,
			  enum compare_unit unit, const struct compare_side *sa,
			  const struct compare_side *sb, const struct result_metric *ma,
			  const struct result_metric *mb, int *worse_any)
{
	struct side_obs oa = {}, ob = {};
	struct compare_row row;
	struct metric_test mt;
	int err;

	err = eval_metric(prm, unit, sa, sb, ma, mb, &oa, &ob, &mt, &row);
	if (!err) {
		print_row(&row);
		*worse_any |= row.worse;
		if (ma->summary_only || mb->summary_only)
			printf("  %s: %s has the printed mean and spread only, not the values behind them (not even how many): no test\n",
			       ma->name, ma->summary_only ? sa->rf[0].path : sb->rf[0].path);
		else if (row.measured)
			print_metric_notes(prm, power, unit, ma, sa, &oa, &ob, &mt, &row);
	}
	side_obs_free(&oa);
	side_obs_free(&ob);
	return err;
}

/* what the test was on, once under the table */
static void print_unit_note(const struct compare_params *prm, enum compare_unit unit)
{
	if (unit == COMPARE_UNIT_PAIR && prm->rank) {
		printf("Test: pairs of invocations are the observations (base file i with new file i, in the order given, as bench ab writes them): Wilcoxon's signed-rank test on log(new/base) of the files' means, so the drift adjacent invocations share cancels; the change is the Hodges-Lehmann estimate (the median of the Walsh averages of the log ratios), which one far-out pair cannot move by its size.\n");
	} else if (unit == COMPARE_UNIT_PAIR && prm->trimmed) {
		printf("Test: pairs of invocations are the observations (base file i with new file i, in the order given, as bench ab writes them): the 20%% trimmed mean of log(new/base) of the files' means and its t-test (Tukey-McLaughlin, bench ab's default statistic), so the drift adjacent invocations share cancels and a starved invocation among the trimmed pairs does not move the change.\n");
	} else if (unit == COMPARE_UNIT_PAIR) {
		printf("Test: pairs of invocations are the observations (base file i with new file i, in the order given, as bench ab writes them): the paired t-test on log(new/base) of the files' means, so the drift adjacent invocations share cancels; the change is the geometric mean ratio.\n");
	} else if (unit == COMPARE_UNIT_FILE) {
		printf("Test: the per-invocation means are the observations (the invocation, one result file, is the unit: mean ± stddev between the files' means above; test named per metric), not the repeat means or per-second samples: the repeats of one invocation share its drift.\n");
	} else if (unit == COMPARE_UNIT_REPEAT) {
		printf("Test: the per-repeat means are the observations (the repeat is the unit: mean ± stddev between repeats above; test named per metric), not the per-second samples.\n");
		printf("Not covered: the spread between invocations.  Runs of one configuration minutes apart can differ by more than their repeats show; interleave several invocations per side (A B A B ...) and give them all: with 2 or more files on each side the invocation is the unit.\n");
	} else {
		printf("Test: Welch's t-test on the logs of the per-second samples of one run per side.  The variance between runs is unknown here, so the p-value covers within-run noise only; runs of one configuration can differ by more.  Use --repeat N, or several files per side (BASE1.json BASE2.json -- NEW1.json NEW2.json).\n");
	}
	if (prm->rank && unit != COMPARE_UNIT_PAIR)
		printf("--rank: the p-values are Mann-Whitney's and the changes the Hodges-Lehmann shifts of the same observations (the medians above), with their distribution-free intervals.\n");
	if (prm->rank || unit == COMPARE_UNIT_PAIR)
		printf("95%% CI: the interval of the change from the same test as the p-value, on the log scale, so it never reaches below -100%%, and p < 0.05 exactly when it leaves out 0; the change is %s.\n",
		       prm->rank ? "the Hodges-Lehmann estimate" :
		       prm->trimmed ? "the ratio of the trimmed mean log ratio" :
		       "the pairs' geometric mean ratio");
	else
		printf("Change: the ratio of the arithmetic means above, new/base - 1; 95%% CI: Fieller's interval of that ratio (\"unbounded\" when the base mean is not itself clear of 0), which leaves out 0 exactly when Welch's test of the difference gives p < 0.05.\n");
}

int compare_print(const struct compare_params *prm, bool power, const struct compare_side *sa,
		  const struct compare_side *sb, int *worse)
{
	const struct result_file *ra = &sa->rf[0], *rb = &sb->rf[0];
	enum compare_unit unit = unit_of(prm, sa, sb);
	int worse_any = 0, shared = 0, i, err;
	const struct result_metric *mb;
	struct compare_row row;
	double mem_res = 0;

	err = check_comparable(prm, sa, sb, stdout);
	if (err)
		return err;
	compare_note_runs(stdout, sa, sb);
	printf(ROW_FMT, "metric", "base", "new", "change", "95% CI", "p-value", "verdict");
	for (i = 0; i < ra->nmetrics; i++) {
		mb = result_file_metric(rb, ra->metrics[i].name);
		if (!mb)
			continue;
		shared++;
		err = compare_metric(prm, power, unit, sa, sb, &ra->metrics[i], mb, &worse_any);
		if (err)
			return err;
	}
	err = eval_peak(prm, sa, sb, &row, &mem_res);
	if (err < 0)
		return err;
	if (err > 0) {
		print_row(&row);
		worse_any |= row.worse;
		shared++;
	}
	if (!shared) {
		fprintf(stderr, "compare: %s and %s share no metric\n", ra->path, rb->path);
		return -EINVAL;
	}
	compare_invalid_legend(stdout, sa, sb);
	printf("Verdict: better or worse only when the 95%% interval leaves out 0 (and --fail-on-regression fails only on worse by %g%% or more); within ±%g%% only when the whole interval lies inside; otherwise undecided, with the smallest change the observations could have shown.  No change below a metric's resolution is claimed.\n",
	       prm->threshold_pct, prm->threshold_pct);
	print_resolutions(ra, rb, mem_res);
	print_memory_meanings(ra, rb, mem_res > 0);
	print_unit_note(prm, unit);
	*worse = worse_any;
	return 0;
}
