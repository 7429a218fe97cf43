// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot scaling: runs that differ only in the producer count, as the
 * total and the per-producer rate against producers with the ideal
 * (linear from the smallest count), and the same points as a table
 * (--table).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot_common.h"
#include "stats.h"

struct scaling_point {
	const struct plot_run *run;
	int producers;
	struct stats per_prod, total;
};

/*
 * Per-producer and total rate of each measured sample.  A benchmark reports
 * either a total with a "<metric>_per_prod" companion (hits, hits_per_prod)
 * or a per-producer rate named "per_prod_*" (htab-mem's per_prod_op), which
 * times the producer count is the total.
 */
static int scaling_stats(const struct plot_run *r, struct scaling_point *p)
{
	const char *metric = plot_primary_metric(r);
	const struct result_metric *m, *w;
	char companion[128];
	double *pp, *tot;
	int i, n = 0;

	p->run = r;
	p->producers = r->rf.producers;
	if (!metric || p->producers < 1) {
		fprintf(stderr, "%s has no per-sample rate or no producer count\n", r->path);
		return -EINVAL;
	}
	m = plot_metric_of(r, metric);
	snprintf(companion, sizeof(companion), "%s_per_prod", metric);
	w = plot_metric_of(r, companion);
	if ((!w || !w->per_sample) && strncmp(metric, "per_prod", 8)) {
		fprintf(stderr, "%s: cannot tell the per-producer rate of %s (%s) from the total\n",
			r->path, plot_benchmark_of(r), metric);
		return -EINVAL;
	}
	pp = calloc(r->rf.nsamples + 1, sizeof(*pp));
	tot = calloc(r->rf.nsamples + 1, sizeof(*tot));
	if (!pp || !tot) {
		free(pp);
		free(tot);
		return plot_nomem("compute a scaling point");
	}
	for (i = 0; i < r->rf.nsamples; i++) {
		if (r->rf.samples[i].warmup)
			continue;
		if (!strncmp(metric, "per_prod", 8)) {
			pp[n] = m->per_sample[i];
			tot[n] = pp[n] * p->producers;
		} else {
			tot[n] = m->per_sample[i];
			pp[n] = w->per_sample[i];
		}
		n++;
	}
	stats_compute(pp, n, &p->per_prod);
	stats_compute(tot, n, &p->total);
	free(pp);
	free(tot);
	if (p->total.n == 0) {
		fprintf(stderr, "%s has no measured sample of %s\n", r->path, metric);
		return -EINVAL;
	}
	return 0;
}

static int cmp_points(const void *a, const void *b)
{
	const struct scaling_point *pa = a, *pb = b;

	return pa->producers - pb->producers;
}

/* the checked, sorted points of a scaling set; *out malloc'ed */
static int scaling_points(const struct plot_opts *o, struct plot_run *runs, int n,
			  struct scaling_point **out)
{
	struct scaling_point *pts;
	int i, err;

	if (n < 2) {
		fprintf(stderr, "a scaling chart needs runs at two or more producer counts (got %d file%s)\n",
			n, n == 1 ? "" : "s");
		return -EINVAL;
	}
	for (i = 1; i < n; i++)
		if (compare_same_config(&runs[0].rf, &runs[i].rf, "producers", o->force, "plot",
					stderr))
			return -EINVAL;
	pts = calloc(n, sizeof(*pts));
	if (!pts)
		return plot_nomem("compute the scaling points");
	for (i = 0; i < n; i++) {
		err = scaling_stats(&runs[i], &pts[i]);
		if (err) {
			free(pts);
			return err;
		}
	}
	qsort(pts, n, sizeof(*pts), cmp_points);
	for (i = 1; i < n; i++) {
		if (pts[i].producers != pts[i - 1].producers)
			continue;
		fprintf(stderr, "two runs with %d producer%s: %s and %s (a scaling chart needs one run per count)\n",
			pts[i].producers, pts[i].producers == 1 ? "" : "s", pts[i - 1].run->path,
			pts[i].run->path);
		free(pts);
		return -EINVAL;
	}
	*out = pts;
	return 0;
}

/* the total the smallest count would reach at p producers if it scaled perfectly */
static double ideal_total(const struct scaling_point *pts, int p)
{
	return pts[0].total.mean / pts[0].producers * p;
}

int plot_scaling_table(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct scaling_point *pts;
	const char *unit;
	char h1[64], h2[64];
	int i, err;

	err = scaling_points(o, runs, n, &pts);
	if (err)
		return err;
	unit = plot_metric_unit(pts[0].run, plot_primary_metric(pts[0].run));
	snprintf(h1, sizeof(h1), "per-producer (%s)", unit);
	snprintf(h2, sizeof(h2), "total (%s)", unit);
	fprintf(f, "%9s  %20s  %10s  %14s  %10s  %7s\n", "producers", h1, "stddev", h2,
		"efficiency", "samples");
	for (i = 0; i < n; i++)
		fprintf(f, "%9d  %20.3f  ± %8.3f  %14.3f  %9.1f%%  %7d\n", pts[i].producers,
			pts[i].per_prod.mean, pts[i].per_prod.stddev, pts[i].total.mean,
			pts[i].total.mean / ideal_total(pts, pts[i].producers) * 100.0,
			pts[i].total.n);
	fprintf(f, "efficiency: total / (total at %d producer%s × producers / %d); rates are mean ± stddev over the measured samples\n",
		pts[0].producers, pts[0].producers == 1 ? "" : "s", pts[0].producers);
	/* a noisy or oversubscribed point says so under the table it is in */
	for (i = 0; i < n; i++) {
		const struct result_file *rf = &pts[i].run->rf;
		int k;

		for (k = 0; k < rf->nwarnings; k++)
			fprintf(f, "warning (%d producer%s): %s\n", pts[i].producers,
				pts[i].producers == 1 ? "" : "s", rf->warnings[k]);
	}
	free(pts);
	return 0;
}

/*
 * One panel of the scaling chart: the ideal line (column ideal_col of
 * $scaling) from the smallest producer count, and the measured rate with
 * its stddev as error bars (columns 1:cols).
 */
static void scaling_panel(FILE *f, const struct plot_opts *o, const char *panel,
			  const char *what, const char *unit, struct plot_span sp, const char *ideal_col,
			  const char *ideal, const char *cols, const char *color, int first,
			  int nmin, int nmax)
{
	char title[256];

	fprintf(f, "set title \"%s\"\n", panel);
	snprintf(title, sizeof(title), "%s (%s)", what, unit);
	plot_put_ylabels(f, o, title, NULL);
	plot_put_range(f, "y", o->zoom, sp);
	fprintf(f, "plot $scaling using 1:%s with lines lc rgb \"#555555\" dt 2 title ", ideal_col);
	snprintf(title, sizeof(title), "ideal: %s %s %d producer%s", ideal,
		 !strcmp(ideal, "flat") ? "at" : "from", first, first == 1 ? "" : "s");
	plot_put_str(f, title);
	fprintf(f, ", \\\n  $scaling using 1:%s with yerrorlines lc rgb \"%s\" lw 2 pt 7 title ",
		cols, color);
	if (nmin == nmax)
		snprintf(title, sizeof(title), "%s, mean ± stddev (n=%d per point)", what, nmin);
	else
		snprintf(title, sizeof(title), "%s, mean ± stddev (n=%d..%d per point)", what, nmin,
			 nmax);
	plot_put_str(f, title);
}

/*
 * The $scaling block: a row per point with the ideal at its count; the
 * spans of the two panels' axes and the fewest and most samples a point has
 */
static void scaling_data(FILE *f, const struct scaling_point *pts, int n, struct plot_span *total,
			 struct plot_span *per_prod, int *nmin, int *nmax)
{
	int i;

	*nmin = *nmax = pts[0].total.n;
	plot_block_begin(f, "scaling",
			 "producers per_prod_mean per_prod_stddev total_mean total_stddev n ideal_total ideal_per_prod");
	for (i = 0; i < n; i++) {
		double ideal = ideal_total(pts, pts[i].producers);

		fprintf(f, "%d %.6g %.6g %.6g %.6g %d %.6g %.6g\n", pts[i].producers,
			pts[i].per_prod.mean, pts[i].per_prod.stddev, pts[i].total.mean,
			pts[i].total.stddev, pts[i].total.n, ideal, ideal / pts[i].producers);
		plot_span_add(total, pts[i].total.mean - pts[i].total.stddev);
		plot_span_add(total, pts[i].total.mean + pts[i].total.stddev);
		plot_span_add(total, ideal);
		plot_span_add(per_prod, pts[i].per_prod.mean - pts[i].per_prod.stddev);
		plot_span_add(per_prod, pts[i].per_prod.mean + pts[i].per_prod.stddev);
		plot_span_add(per_prod, ideal / pts[i].producers);
		*nmin = pts[i].total.n < *nmin ? pts[i].total.n : *nmin;
		*nmax = pts[i].total.n > *nmax ? pts[i].total.n : *nmax;
	}
	plot_block_end(f);
}

/* the producer axis, a tic per count, and where producers start to share CPUs */
static void scaling_xaxis(FILE *f, const struct scaling_point *pts, int n)
{
	int i, cpus;

	fprintf(f, "set xlabel \"producers (threads)\"\nset xrange [0:%g]\nset xtics (", pts[n - 1].producers * 1.1);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? ", " : "", pts[i].producers);
	fprintf(f, ")\nset grid\nset key below left Left reverse\n");
	/* beyond the CPUs the run could use, producers share CPUs: show where */
	cpus = pts[0].run->rf.nr_allowed_cpus;
	if (cpus && cpus < pts[n - 1].producers) {
		fprintf(f, "set arrow 1 from %d, graph 0 to %d, graph 0.97 nohead dt 3 lc rgb \"#888888\"\n",
			cpus, cpus);
		fprintf(f, "set label 1 \"%d CPU%s available\" at %d, graph 0.05 left offset 2,0\n", cpus,
			cpus == 1 ? "" : "s", cpus);
	}
}

int plot_scaling_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct plot_span total = { INFINITY, -INFINITY }, per_prod = { INFINITY, -INFINITY };
	struct scaling_point *pts;
	const char *unit, *metric;
	char title[512], *common;
	int err, nmin, nmax;

	err = scaling_points(o, runs, n, &pts);
	if (err)
		return err;
	metric = plot_primary_metric(pts[0].run);
	unit = plot_metric_unit(pts[0].run, metric);
	scaling_data(f, pts, n, &total, &per_prod, &nmin, &nmax);
	common = plot_options_text(runs, n, 0, true, "producers");
	if (!common) {
		free(pts);
		return plot_nomem("label the chart");
	}
	scaling_xaxis(f, pts, n);
	fprintf(f, "set multiplot layout 2,1 title ");
	snprintf(title, sizeof(title), "%s scaling: %s against producers", plot_benchmark_of(pts[0].run),
		 metric);
	plot_put_title_expr(f, o, title, common);
	plot_put_emulated(f, o);
	fprintf(f, "\n");

	scaling_panel(f, o, "total rate", "total", unit, total, "7", "linear", "4:5", plot_run_colors[0],
		      pts[0].producers, nmin, nmax);
	fprintf(f, "\n");
	scaling_panel(f, o, "per-producer rate", "per producer", unit, per_prod, "8", "flat", "2:3",
		      plot_run_colors[1], pts[0].producers, nmin, nmax);
	fprintf(f, "\nunset multiplot\n");
	free(common);
	free(pts);
	return 0;
}
