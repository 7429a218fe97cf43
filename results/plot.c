// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot: pictures of result files.  This half turns loaded results
 * into a gnuplot script with the data inline; it decides everything a
 * reader of the chart relies on (which samples count, the statistics,
 * the refusals), so that is what the unit tests check.  gnuplot only draws.
 *
 * Files are loaded and checked by result_file_load(), as compare's are;
 * statistics leave the warm-up samples out and use stats_compute(), and
 * verdicts come from compare_verdict(): a bar in a chart and a line of
 * `bench compare` cannot disagree.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_limits.h"
#include "compare.h"
#include "history.h"
#include "latency.h"
#include "plot.h"
#include "result_config.h"
#include "result_file.h"
#include "stats.h"
#include "suggest.h"

static const char *const run_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
};
#define NR_COLORS (sizeof(run_colors) / sizeof(run_colors[0]))

/* the verdict colours: the legend of the compare chart names each */
#define COLOR_BETTER "#2e7d32"
#define COLOR_WORSE "#c62828"
#define COLOR_NOISE "#9e9e9e"
#define COLOR_UNTESTED "#ef6c00"

/* the one message of an allocation that failed: "failed to <what>: ..." */
static int nomem(const char *what)
{
	fprintf(stderr, "failed to %s: %s\n", what, strerror(ENOMEM));
	return -ENOMEM;
}

static const char *kind_name(enum plot_kind k)
{
	return k == PLOT_TIMELINE ? "timeline" : k == PLOT_SCALING ? "scaling" :
	       k == PLOT_LATENCY ? "latency" : "compare";
}

/* a gnuplot double-quoted string: backslash and quote escaped */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *benchmark_of(const struct plot_run *r)
{
	return r->rf.benchmark;
}

static const struct result_metric *metric_of(const struct plot_run *r, const char *metric)
{
	return result_file_metric(&r->rf, metric);
}

static const char *metric_unit(const struct plot_run *r, const char *metric)
{
	const struct result_metric *m = metric_of(r, metric);

	return m ? m->unit : "?";
}

/*
 * The primary metric: the first one the benchmark reports, measured in
 * every sample (the runner's noise check uses the same one).
 */
static const char *primary_metric(const struct plot_run *r)
{
	int i;

	for (i = 0; i < r->rf.nmetrics; i++)
		if (!r->rf.metrics[i].own_values)
			return r->rf.metrics[i].name;
	return NULL;
}

static bool has_memory(const struct plot_run *r)
{
	const struct result_metric *m = metric_of(r, "memory");
	int i;

	for (i = 0; m && m->per_sample && i < r->rf.nsamples; i++)
		if (!isnan(m->per_sample[i]))
			return true;
	return false;
}

/*
 * The statistics of one metric over the measured (not warm-up) samples,
 * or over its own values: the loader's, which it checked against the
 * file's summary.  A metric the run lacks has none (n = 0).
 */
static struct stats measured_stats(const struct plot_run *r, const char *metric)
{
	const struct result_metric *m = metric_of(r, metric);

	return m ? m->st : (struct stats){};
}

/* ---- labels: what tells the runs apart ---- */

static void put_value(FILE *f, json_t *v)
{
	char *s;

	if (json_is_string(v)) {
		fputs(json_string_value(v), f);
		return;
	}
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	fputs(s ? s : "?", f);
	free(s);
}

/*
 * "key=value ..." of the options on which the runs agree (common = true)
 * or of run i's options on which they differ; malloc'ed
 */
static char *options_text(struct plot_run *runs, int n, int i, bool common, const char *skip)
{
	json_t *mine = runs[i].rf.config, *v;
	const char *key;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;
	int j;

	if (!f)
		return NULL;
	json_object_foreach(mine, key, v) {
		bool same = true;

		if (skip && !strcmp(key, skip))
			continue;
		for (j = 0; j < n && same; j++)
			same = json_equal(v, json_object_get(runs[j].rf.config, key));
		if (same != common)
			continue;
		/* what all share and is the default goes without saying (but -p) */
		if (common && strcmp(key, "producers") &&
		    result_config_is_default(runs[i].rf.benchmark, mine, key))
			continue;
		/* the runner's options as typed: -p2 -a; no -c0, no empty CPU lists */
		if (!strcmp(key, "producers")) {
			fprintf(f, "%s-p%lld", first ? "" : " ", json_integer_value(v));
		} else if (!strcmp(key, "consumers")) {
			if (!json_integer_value(v) && common)
				continue;
			fprintf(f, "%s-c%lld", first ? "" : " ", json_integer_value(v));
		} else if (!strcmp(key, "affinity")) {
			if (!json_is_true(v) && common)
				continue;
			fprintf(f, "%s%s", first ? "" : " ", json_is_true(v) ? "-a" : "unpinned");
		} else if (json_is_array(v) && !json_array_size(v) && common) {
			continue;
		} else {
			fprintf(f, "%s%s=", first ? "" : " ", key);
			put_value(f, v);
		}
		first = false;
	}
	fclose(f);
	return buf;
}

/* give every run without --label one made of the options that set it apart */
static int set_labels(struct plot_run *runs, int n, char **owned, const char *skip)
{
	int i, j;

	for (i = 0; i < n; i++) {
		owned[i] = NULL;
		if (runs[i].label)
			continue;
		owned[i] = options_text(runs, n, i, false, skip);
		if (!owned[i])
			return nomem("label the runs");
		/* nothing sets it apart (one run): its file name */
		runs[i].label = *owned[i] ? owned[i] : base_name(runs[i].path);
	}
	/* the same configuration twice: the file names tell the runs apart */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && owned[i] && !strcmp(runs[i].label, runs[j].label))
				runs[i].label = base_name(runs[i].path);
	return 0;
}

static void free_labels(struct plot_run *runs, int n, char **owned)
{
	int i;

	for (i = 0; i < n; i++) {
		if (owned[i] && runs[i].label == owned[i])
			runs[i].label = NULL;
		free(owned[i]);
	}
}

/* ---- the terminal ---- */

static void put_terminal(FILE *f, const struct plot_opts *o)
{
	/* enhanced text would turn per_prod_op into per subscript prod... */
	switch (o->format) {
	case PLOT_SVG:
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font \"sans,12\" background \"white\"\n",
			o->width, o->height);
		break;
	case PLOT_PNG:
		fprintf(f, "set terminal pngcairo size %d,%d noenhanced font \"sans,10\" background \"white\"\n",
			o->width, o->height);
		break;
	case PLOT_TEXT:
		fprintf(f, "set terminal dumb size %d,%d noenhanced mono\n", o->width, o->height);
		break;
	}
	fprintf(f, "set encoding utf8\nset output\n");
}

/*
 * A title line: the text terminal drops a line wider than the picture
 * whole, so there it is cut to fit, with "..." saying so.
 */
static void put_line(FILE *f, const struct plot_opts *o, const char *text)
{
	char buf[512];
	size_t max = o->format == PLOT_TEXT && o->width > 10 ? (size_t)o->width - 6 : sizeof(buf) - 1;

	snprintf(buf, sizeof(buf), "%s", text);
	if (max < sizeof(buf) - 1 && strlen(buf) > max)
		strcpy(buf + max - 3, "...");
	put_str(f, buf);
}

/* a gnuplot string expression: the first line and, if any, the second */
static void put_title_expr(FILE *f, const struct plot_opts *o, const char *first,
			   const char *second)
{
	put_line(f, o, first);
	if (second && *second) {
		fprintf(f, " . \"\\n\" . ");
		put_line(f, o, second);
	}
}

static void put_title(FILE *f, const struct plot_opts *o, const char *first, const char *second)
{
	fprintf(f, "set title ");
	put_title_expr(f, o, first, second);
	fprintf(f, "\n");
}

/*
 * Axis titles with their units.  The text terminal cannot rotate text and
 * drops a vertical label, so there they sit above the axes, level.
 */
static void put_ylabels(FILE *f, const struct plot_opts *o, const char *left, const char *right)
{
	if (o->format != PLOT_TEXT) {
		fprintf(f, "set ylabel ");
		put_str(f, left);
		if (right) {
			fprintf(f, "\nset y2label ");
			put_str(f, right);
		}
		fprintf(f, "\n");
		return;
	}
	/* rows for a two-line title and, under it, the axis titles */
	fprintf(f, "set tmargin 5\nset title offset 0,1\nunset ylabel\nset label 101 ");
	put_str(f, left);
	fprintf(f, " at graph 0, graph 1 offset -1,1 left\n");
	if (right) {
		fprintf(f, "unset y2label\nset label 102 ");
		put_str(f, right);
		fprintf(f, " at graph 1, graph 1 offset 1,1 right\n");
	}
}

/* the smallest and largest value an axis shows */
struct span {
	double lo, hi;
};

static void span_add(struct span *sp, double v)
{
	if (!isfinite(v))
		return;
	sp->lo = fmin(sp->lo, v);
	sp->hi = fmax(sp->hi, v);
}

/*
 * A rate axis starts at 0 unless --zoom.  A flat series (memory that never
 * moved, a rate of 0) would give gnuplot an empty range, which it widens
 * with a warning: give it the range it should show instead.
 */
static void put_range(FILE *f, const char *axis, bool zoom, struct span sp)
{
	double pad;

	if (!zoom) {
		if (sp.hi > 0)
			fprintf(f, "set %srange [0:*]\n", axis);
		else
			fprintf(f, "set %srange [0:1]\n", axis);
		return;
	}
	if (sp.lo < sp.hi) {
		fprintf(f, "set %srange [*:*]\n", axis);
		return;
	}
	pad = sp.hi != 0 ? fabs(sp.hi) * 0.1 : 1;
	fprintf(f, "set %srange [%.6g:%.6g]\n", axis, sp.lo - pad, sp.hi + pad);
}

/* a data block: "$name << EOD" ... "EOD" */
static void block_begin(FILE *f, const char *name, const char *columns)
{
	fprintf(f, "$%s << EOD\n# %s\n", name, columns);
}

static void block_end(FILE *f)
{
	fprintf(f, "EOD\n");
}

/* ---- timeline ---- */

static int check_same_benchmark(const struct plot_opts *o, struct plot_run *runs, int n)
{
	int i;

	for (i = 1; i < n; i++) {
		if (strcmp(benchmark_of(&runs[0]), benchmark_of(&runs[i])) == 0)
			continue;
		if (o->force) {
			fprintf(stderr, "warning: different benchmarks: %s vs %s\n",
				benchmark_of(&runs[0]), benchmark_of(&runs[i]));
			continue;
		}
		fprintf(stderr, "refusing to plot different benchmarks in one chart: '%s' (%s) vs '%s' (%s) (--force plots anyway)\n",
			benchmark_of(&runs[0]), runs[0].path, benchmark_of(&runs[i]), runs[i].path);
		return -EINVAL;
	}
	return 0;
}

/* the metric every run draws on the one rate axis: its primary, the same in all */
static int timeline_metric(struct plot_run *runs, int n, const char **metric, const char **unit)
{
	const char *m;
	int i;

	*metric = primary_metric(&runs[0]);
	if (!*metric) {
		fprintf(stderr, "%s has no metric measured per sample: nothing to draw over time\n",
			runs[0].path);
		return -EINVAL;
	}
	*unit = metric_unit(&runs[0], *metric);
	for (i = 1; i < n; i++) {
		m = primary_metric(&runs[i]);
		if (!m || strcmp(m, *metric) || strcmp(metric_unit(&runs[i], m), *unit)) {
			fprintf(stderr, "cannot draw %s (%s) and %s (%s) on one rate axis: %s vs %s\n",
				runs[0].path, *metric, runs[i].path, m ? m : "no per-sample metric",
				*unit, m ? metric_unit(&runs[i], m) : "-");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Run i's data blocks: its warm-up points, its measured points (each at
 * the end of its interval), the mean ± stddev band over the measured
 * interval only, and its memory readings.
 */
static int timeline_data(FILE *f, const struct plot_run *r, int i, const char *metric,
			 struct span *y1, struct span *y2)
{
	const struct result_metric *m = metric_of(r, metric), *mem = metric_of(r, "memory");
	double t = 0, t_end, t_measured = -1, last_warm_t = 0, v;
	struct stats st = measured_stats(r, metric);
	char name[32];
	int k;

	if (st.n == 0) {
		fprintf(stderr, "%s has no measured sample of %s\n", r->path, metric);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "run%d_warmup", i);
	block_begin(f, name, "time_s rate (warm-up: not in the statistics)");
	for (k = 0; k < r->rf.nsamples; k++) {
		t += r->rf.samples[k].interval_ns / 1e9;
		v = m->per_sample[k];
		if (!r->rf.samples[k].warmup) {
			/* the dashed warm-up line joins the first measured point */
			if (t_measured < 0 && !isnan(v))
				fprintf(f, "%.6f %.6g\n", t, v);
			if (t_measured < 0)
				t_measured = last_warm_t;
			continue;
		}
		last_warm_t = t;
		if (!isnan(v)) {
			fprintf(f, "%.6f %.6g\n", t, v);
			span_add(y1, v);
		}
	}
	block_end(f);

	t_end = t;

	snprintf(name, sizeof(name), "run%d_measured", i);
	block_begin(f, name, "time_s rate");
	for (k = 0, t = 0; k < r->rf.nsamples; k++) {
		t += r->rf.samples[k].interval_ns / 1e9;
		v = m->per_sample[k];
		if (!r->rf.samples[k].warmup && !isnan(v)) {
			fprintf(f, "%.6f %.6g\n", t, v);
			span_add(y1, v);
		}
	}
	block_end(f);
	span_add(y1, st.mean - st.stddev);
	span_add(y1, st.mean + st.stddev);

	snprintf(name, sizeof(name), "run%d_band", i);
	block_begin(f, name, "time_s mean-stddev mean+stddev mean");
	fprintf(f, "%.6f %.6g %.6g %.6g\n", t_measured, st.mean - st.stddev,
		st.mean + st.stddev, st.mean);
	fprintf(f, "%.6f %.6g %.6g %.6g\n", t_end, st.mean - st.stddev, st.mean + st.stddev,
		st.mean);
	block_end(f);

	if (!has_memory(r))
		return 0;
	snprintf(name, sizeof(name), "run%d_memory", i);
	block_begin(f, name, "time_s memory_MiB (every sample: a reading, not a statistic)");
	for (k = 0, t = 0; k < r->rf.nsamples; k++) {
		t += r->rf.samples[k].interval_ns / 1e9;
		v = mem->per_sample[k];
		if (!isnan(v)) {
			fprintf(f, "%.6f %.6g\n", t, v);
			span_add(y2, v);
		}
	}
	block_end(f);
	return 0;
}

/* title, axis labels and ranges of the timeline */
static int timeline_axes(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			 const char *metric, const char *unit, bool any_mem, struct span y1,
			 struct span y2)
{
	char title[256], l[128];
	char *common = options_text(runs, n, 0, true, NULL);

	if (!common)
		return nomem("label the chart");
	snprintf(title, sizeof(title), "%s timeline: %s per second", benchmark_of(&runs[0]), metric);
	put_title(f, o, title, common);
	free(common);
	fprintf(f, "set xlabel \"time since start (s)\"\n");
	snprintf(l, sizeof(l), "%s (%s)", metric, unit);
	put_ylabels(f, o, l, any_mem ? "memory (MiB)" : NULL);
	/* the time axis ends with the run, not at the next tic */
	fprintf(f, "set xrange [0:*]\nset autoscale xfixmax\n");
	put_range(f, "y", o->zoom, y1);
	if (any_mem) {
		fprintf(f, "set ytics nomirror\nset y2tics\n");
		put_range(f, "y2", o->zoom, y2);
	}
	fprintf(f, "set grid\nset key below left Left reverse\n");
	if (o->format != PLOT_TEXT)
		fprintf(f, "set style fill transparent solid 0.15 noborder\n");
	return 0;
}

/* run i's lines in the plot command: band, warm-up, measured points, memory */
static void timeline_plot_run(FILE *f, const struct plot_opts *o, const struct plot_run *r,
			      int i, int n, const char *metric, const char *unit)
{
	const char *c = run_colors[i % NR_COLORS];
	char title[512], st_line[64], st_band[64], st_mem[64], pt_warm[32], pt_meas[32];
	struct stats st = measured_stats(r, metric);
	int warm = 0, k;

	for (k = 0; k < r->rf.nsamples; k++)
		warm += r->rf.samples[k].warmup;
	/*
	 * Text has no colours: each run gets its own line characters
	 * (one for its samples, one for its band) and point letters.
	 */
	if (o->format == PLOT_TEXT) {
		snprintf(st_line, sizeof(st_line), "lt %d", 1 + 2 * i);
		snprintf(st_band, sizeof(st_band), "lt %d", 2 + 2 * i);
		snprintf(st_mem, sizeof(st_mem), "lt %d", 5 + i);
		snprintf(pt_warm, sizeof(pt_warm), "pt %d", 2 + 2 * i);
		snprintf(pt_meas, sizeof(pt_meas), "pt %d", 1 + 2 * i);
		fprintf(f, "  $run%d_band using 1:2 with lines %s title ", i, st_band);
		snprintf(title, sizeof(title), "%s: mean - stddev and mean + stddev", r->label);
		put_str(f, title);
		fprintf(f, ", \\\n");
		fprintf(f, "  $run%d_band using 1:3 with lines %s notitle, \\\n", i, st_band);
	} else {
		snprintf(st_line, sizeof(st_line), "lc rgb \"%s\"", c);
		snprintf(st_band, sizeof(st_band), "lc rgb \"%s\" dt 2", c);
		snprintf(st_mem, sizeof(st_mem), "lc rgb \"%s\" dt 4 lw 1.5", c);
		snprintf(pt_warm, sizeof(pt_warm), "pt 6 ps 1.2");
		snprintf(pt_meas, sizeof(pt_meas), "pt 7");
		fprintf(f, "  $run%d_band using 1:2:3 with filledcurves lc rgb \"%s\" notitle, \\\n",
			i, c);
		fprintf(f, "  $run%d_band using 1:4 with lines %s notitle, \\\n", i, st_band);
	}
	fprintf(f, "  $run%d_warmup using 1:2 with linespoints %s dt 3 %s title ", i, st_line,
		pt_warm);
	snprintf(title, sizeof(title), "%s: warm-up (%d sample%s, not in the statistics)",
		 r->label, warm, warm == 1 ? "" : "s");
	put_str(f, title);
	fprintf(f, ", \\\n  $run%d_measured using 1:2 with linespoints %s lw 2 %s title ", i,
		st_line, pt_meas);
	snprintf(title, sizeof(title), "%s: %.2f ± %.2f %s (mean ± stddev band, n=%d)",
		 r->label, st.mean, st.stddev, unit, st.n);
	put_str(f, title);
	if (has_memory(r)) {
		fprintf(f, ", \\\n  $run%d_memory using 1:2 axes x1y2 with lines %s title ", i,
			st_mem);
		snprintf(title, sizeof(title), "%s: memory (MiB, right axis)", r->label);
		put_str(f, title);
	}
	fprintf(f, "%s\n", i == n - 1 ? "" : ", \\");
}

/* every run's rate per sample over time, its band, its memory on a second axis */
static int timeline_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct span y1 = { INFINITY, -INFINITY }, y2 = { INFINITY, -INFINITY };
	const char *metric, *unit;
	bool any_mem = false;
	int i, err;

	err = timeline_metric(runs, n, &metric, &unit);
	for (i = 0; !err && i < n; i++) {
		any_mem |= has_memory(&runs[i]);
		err = timeline_data(f, &runs[i], i, metric, &y1, &y2);
	}
	if (!err)
		err = timeline_axes(f, o, runs, n, metric, unit, any_mem, y1, y2);
	if (err)
		return err;
	fprintf(f, "plot \\\n");
	for (i = 0; i < n; i++)
		timeline_plot_run(f, o, &runs[i], i, n, metric, unit);
	return 0;
}

/* ---- scaling ---- */

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
	const char *metric = primary_metric(r);
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
	m = metric_of(r, metric);
	snprintf(companion, sizeof(companion), "%s_per_prod", metric);
	w = metric_of(r, companion);
	if ((!w || !w->per_sample) && strncmp(metric, "per_prod", 8)) {
		fprintf(stderr, "%s: cannot tell the per-producer rate of %s (%s) from the total\n",
			r->path, benchmark_of(r), metric);
		return -EINVAL;
	}
	pp = calloc(r->rf.nsamples + 1, sizeof(*pp));
	tot = calloc(r->rf.nsamples + 1, sizeof(*tot));
	if (!pp || !tot) {
		free(pp);
		free(tot);
		return nomem("compute a scaling point");
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
		return nomem("compute the scaling points");
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
	unit = metric_unit(pts[0].run, primary_metric(pts[0].run));
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
			  const char *what, const char *unit, struct span sp, const char *ideal_col,
			  const char *ideal, const char *cols, const char *color, int first,
			  int nmin, int nmax)
{
	char title[256];

	fprintf(f, "set title \"%s\"\n", panel);
	snprintf(title, sizeof(title), "%s (%s)", what, unit);
	put_ylabels(f, o, title, NULL);
	put_range(f, "y", o->zoom, sp);
	fprintf(f, "plot $scaling using 1:%s with lines lc rgb \"#555555\" dt 2 title ", ideal_col);
	snprintf(title, sizeof(title), "ideal: %s %s %d producer%s", ideal,
		 !strcmp(ideal, "flat") ? "at" : "from", first, first == 1 ? "" : "s");
	put_str(f, title);
	fprintf(f, ", \\\n  $scaling using 1:%s with yerrorlines lc rgb \"%s\" lw 2 pt 7 title ",
		cols, color);
	if (nmin == nmax)
		snprintf(title, sizeof(title), "%s, mean ± stddev (n=%d per point)", what, nmin);
	else
		snprintf(title, sizeof(title), "%s, mean ± stddev (n=%d..%d per point)", what, nmin,
			 nmax);
	put_str(f, title);
}

static int scaling_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct scaling_point *pts;
	const char *unit, *metric;
	struct span total = { INFINITY, -INFINITY }, per_prod = { INFINITY, -INFINITY };
	char title[512], *common;
	int i, err, nmin, nmax;
	int cpus;

	err = scaling_points(o, runs, n, &pts);
	if (err)
		return err;
	metric = primary_metric(pts[0].run);
	unit = metric_unit(pts[0].run, metric);
	nmin = nmax = pts[0].total.n;
	block_begin(f, "scaling",
		    "producers per_prod_mean per_prod_stddev total_mean total_stddev n ideal_total ideal_per_prod");
	for (i = 0; i < n; i++) {
		double ideal = ideal_total(pts, pts[i].producers);

		fprintf(f, "%d %.6g %.6g %.6g %.6g %d %.6g %.6g\n", pts[i].producers,
			pts[i].per_prod.mean, pts[i].per_prod.stddev, pts[i].total.mean,
			pts[i].total.stddev, pts[i].total.n, ideal, ideal / pts[i].producers);
		span_add(&total, pts[i].total.mean - pts[i].total.stddev);
		span_add(&total, pts[i].total.mean + pts[i].total.stddev);
		span_add(&total, ideal);
		span_add(&per_prod, pts[i].per_prod.mean - pts[i].per_prod.stddev);
		span_add(&per_prod, pts[i].per_prod.mean + pts[i].per_prod.stddev);
		span_add(&per_prod, ideal / pts[i].producers);
		nmin = pts[i].total.n < nmin ? pts[i].total.n : nmin;
		nmax = pts[i].total.n > nmax ? pts[i].total.n : nmax;
	}
	block_end(f);

	common = options_text(runs, n, 0, true, "producers");
	if (!common) {
		free(pts);
		return nomem("label the chart");
	}
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
	fprintf(f, "set multiplot layout 2,1 title ");
	snprintf(title, sizeof(title), "%s scaling: %s against producers", benchmark_of(pts[0].run),
		 metric);
	put_title_expr(f, o, title, common);
	fprintf(f, "\n");

	scaling_panel(f, o, "total rate", "total", unit, total, "7", "linear", "4:5", run_colors[0],
		      pts[0].producers, nmin, nmax);
	fprintf(f, "\n");
	scaling_panel(f, o, "per-producer rate", "per producer", unit, per_prod, "8", "flat", "2:3",
		      run_colors[1], pts[0].producers, nmin, nmax);
	fprintf(f, "\nunset multiplot\n");
	free(common);
	free(pts);
	return 0;
}

/* ---- compare ---- */

static const char *verdict_color(const char *v)
{
	if (!strcmp(v, "better"))
		return COLOR_BETTER;
	if (!strcmp(v, "worse"))
		return COLOR_WORSE;
	if (strstr(v, "untested"))
		return COLOR_UNTESTED;
	return COLOR_NOISE;
}

static void compare_row(FILE *f, int idx, const char *name, double change, double lo,
			double hi, const char *verdict)
{
	fprintf(f, "%d ", idx);
	put_str(f, name);
	fprintf(f, " %.6g %.6g %.6g 0x%s ", change, lo, hi, verdict_color(verdict) + 1);
	put_str(f, verdict);
	fprintf(f, "\n");
}

/* the run's noise warnings on stderr; how many */
static int note_warnings(const struct plot_run *r, const char *which)
{
	int i;

	for (i = 0; i < r->rf.nwarnings; i++)
		fprintf(stderr, "warning: the %s run was noisy: %s\n", which, r->rf.warnings[i]);
	return r->rf.nwarnings;
}

/* a side of compare_eval() over runs[from..from+n-1]: the files shared, not copied */
static int make_side(struct compare_side *sd, const char *which, struct plot_run *runs, int from,
		     int n)
{
	int i;

	sd->which = which;
	sd->n = n;
	sd->rf = calloc(n, sizeof(*sd->rf));
	if (!sd->rf)
		return nomem("build the compare chart");
	for (i = 0; i < n; i++)
		sd->rf[i] = runs[from + i].rf;
	return 0;
}

/*
 * The $compare block: a bar per row of bench compare's own evaluation (the
 * change, its 95% interval, the verdict), for the same sides, unit and
 * options.  The range the bars span in *lo, *hi; the bars' count, or
 * -errno after one line.
 */
static int compare_rows(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			double *lo, double *hi, enum compare_unit *unit, int *na, int *nb)
{
	struct compare_params prm = { .verb = "plot", .threshold_pct = o->threshold_pct,
				      .force = o->force, .rank = o->rank, .paired = o->paired,
				      .trimmed = o->trimmed };
	struct compare_side sa = {}, sb = {};
	struct compare_row *rows = NULL, *r;
	int nbase = o->nbase ? o->nbase : 1, i, nrows = 0, err;
	double ch, l, h;
	char name[128];

	err = make_side(&sa, "base", runs, 0, nbase);
	if (!err)
		err = make_side(&sb, "new", runs, nbase, n - nbase);
	if (!err)
		err = compare_eval(&prm, &sa, &sb, stderr, &rows, &nrows, unit);
	if (err)
		goto out;
	/* observations per side: in the title when every bar has the same */
	*na = nrows ? rows[0].na : 0;
	*nb = nrows ? rows[0].nb : 0;
	for (i = 1; i < nrows; i++)
		if (rows[i].na != *na || rows[i].nb != *nb)
			*na = *nb = -1;
	block_begin(f, "compare",
		    "index metric change_pct ci95_low_pct ci95_high_pct color verdict");
	for (i = 0; i < nrows; i++) {
		r = &rows[i];
		/* no change to draw (not measured, or from a base of 0): a bar of 0 */
		ch = r->measured && !isnan(r->change_pct) ? r->change_pct : 0;
		l = isnan(r->lo_pct) ? ch : r->lo_pct;
		h = isnan(r->hi_pct) ? ch : r->hi_pct;
		if (*na < 0 && *unit == COMPARE_UNIT_PAIR)
			snprintf(name, sizeof(name), "%s, %d pairs", r->name, r->na);
		else if (*na < 0)
			snprintf(name, sizeof(name), "%s, %d+%d", r->name, r->na, r->nb);
		else
			snprintf(name, sizeof(name), "%s", r->name);
		compare_row(f, i, name, ch, l, h, r->measured ? r->verdict : "n/a");
		*lo = fmin(*lo, l);
		*hi = fmax(*hi, h);
	}
	block_end(f);
	err = nrows;
out:
	free(rows);
	free(sa.rf);
	free(sb.rf);
	return err;
}

/* "label" or "label and 2 more files" */
static void side_label(char *buf, size_t sz, const struct plot_run *r, int n)
{
	if (n > 1)
		snprintf(buf, sz, "%s and %d more file%s", r->label, n - 1, n > 2 ? "s" : "");
	else
		snprintf(buf, sz, "%s", r->label);
}

/* the title lines: what is compared, on what unit and test, and the runs' noise */
static void compare_title(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			  enum compare_unit unit, int na, int nb)
{
	int nbase = o->nbase ? o->nbase : 1, wa = 0, wb = 0, i;
	char title[512], a[200], b[200], count[64] = "";

	if (na >= 0 && unit == COMPARE_UNIT_PAIR)
		snprintf(count, sizeof(count), "%d ", na);
	else if (na >= 0)
		snprintf(count, sizeof(count), "%d+%d ", na, nb);
	fprintf(f, "set title ");
	/* compare's test and estimate, all on the log scale: the chart names them */
	snprintf(title, sizeof(title), "%s compare: change %s, new vs base; %s%s, %s",
		 benchmark_of(&runs[0]),
		 o->rank ? "(Hodges-Lehmann)" : o->trimmed ? "(trimmed mean of log ratios)" :
		 "(ratio of geometric means)", count,
		 compare_unit_name(unit),
		 unit == COMPARE_UNIT_PAIR ? (o->rank ? "signed-rank test" :
					      o->trimmed ? "trimmed t-test" : "paired t-test on logs") :
		 o->rank ? "Mann-Whitney" : "Welch on logs");
	put_line(f, o, title);
	fprintf(f, " . \"\\n\" . ");
	side_label(a, sizeof(a), &runs[nbase], n - nbase);
	side_label(b, sizeof(b), &runs[0], nbase);
	snprintf(title, sizeof(title), "new: %s, base: %s", a, b);
	put_line(f, o, title);
	/* noise weakens every verdict in the chart: the chart says so, as compare does */
	for (i = 0; i < n; i++) {
		if (i < nbase)
			wa += note_warnings(&runs[i], "base");
		else
			wb += note_warnings(&runs[i], "new");
	}
	if (wa || wb) {
		snprintf(title, sizeof(title), "noise warnings: base %d, new %d (bench compare lists them)",
			 wa, wb);
		fprintf(f, " . \"\\n\" . ");
		put_line(f, o, title);
	}
	fprintf(f, "\n");
}

/* the axes, the threshold lines, the bars with their intervals and verdicts, the key */
static void compare_plot(FILE *f, const struct plot_opts *o, int nbars, double lo, double hi)
{
	put_ylabels(f, o, "change vs base (%), bars: 95% CI", NULL);
	if (o->format == PLOT_TEXT)
		fprintf(f, "set xlabel \"metric (unit); the lines at ±%g%% mark the threshold\"\n",
			o->threshold_pct);
	else
		fprintf(f, "set xlabel \"metric (unit)\"\n");
	/* room for the verdict labels above and below the bars */
	lo = fmin(lo, -o->threshold_pct);
	hi = fmax(hi, o->threshold_pct);
	fprintf(f, "set yrange [%.6g:%.6g]\n", lo - (hi - lo) * 0.15, hi + (hi - lo) * 0.15);
	fprintf(f, "set xrange [-0.6:%d.6]\n", nbars - 1);
	fprintf(f, "set xtics scale 0\nset grid ytics\nset xzeroaxis lt -1\n");
	/* five names or more do not fit side by side */
	if (nbars >= 5)
		fprintf(f, "set xtics rotate by -20 left\n");
	fprintf(f, "set arrow 1 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n",
		o->threshold_pct, o->threshold_pct);
	fprintf(f, "set arrow 2 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#555555\"\n",
		-o->threshold_pct, -o->threshold_pct);
	fprintf(f, "set boxwidth 0.6\nset style fill solid 0.8 border -1\nset key below\n");
	fprintf(f, "plot $compare using 1:3:6:xtic(2) with boxes lc rgb variable notitle, \\\n");
	fprintf(f, "  $compare using 1:4:(0):($5 - $4) with vectors heads size screen 0.008,90 lc rgb \"black\" lw 1.5 notitle, \\\n");
	/* the verdict in words over each bar: the colours alone do not survive text or print */
	fprintf(f, "  $compare using 1:($5 > 0 ? $5 : 0):7 with labels offset 0,0.8 notitle, \\\n");
	if (o->format == PLOT_TEXT) {
		/* no colours in text: the words over the bars are the verdicts */
		fprintf(f, "  keyentry notitle\n");
		return;
	}
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"better\", \\\n", COLOR_BETTER);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"worse\", \\\n", COLOR_WORSE);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"within noise / resolution\", \\\n",
		COLOR_NOISE);
	fprintf(f, "  keyentry with boxes lc rgb \"%s\" title \"one value, untested\", \\\n",
		COLOR_UNTESTED);
	fprintf(f, "  keyentry with lines dt 2 lc rgb \"#555555\" title \"±%g%% threshold\"\n",
		o->threshold_pct);
}

/* base against new, a bar per metric: bench compare's rows, drawn */
static int compare_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	int nbase = o->nbase ? o->nbase : 1, nbars, na = -1, nb = -1;
	enum compare_unit unit;
	double lo = 0, hi = 0;

	if (!o->nbase && n != 2) {
		fprintf(stderr, "a compare chart takes two files, BASE.json and NEW.json, or BASE1.json... -- NEW1.json... (got %d)\n",
			n);
		return -EINVAL;
	}
	if (nbase < 1 || nbase >= n) {
		fprintf(stderr, "a compare chart needs a file on each side of '--' (got %d base, %d new)\n",
			nbase, n - nbase);
		return -EINVAL;
	}
	nbars = compare_rows(f, o, runs, n, &lo, &hi, &unit, &na, &nb);
	if (nbars < 0)
		return nbars;
	if (!nbars) {
		fprintf(stderr, "%s and %s share no metric\n", runs[0].path, runs[nbase].path);
		return -EINVAL;
	}
	compare_title(f, o, runs, n, unit, na, nb);
	compare_plot(f, o, nbars, lo, hi);
	return 0;
}

/* ---- latency ---- */

/*
 * A percentile plot, as HdrHistogram draws one: per-op latency on a log
 * axis against the percentile p on a log axis of 1/(1 - p), where 90%,
 * 99%, 99.9%, ... are equally far apart and the tail gets the room the
 * body takes on a linear axis.
 *
 * The marks are the Latency line's figures, from the same functions
 * (lat_quantile()'s num/den, nearest rank; the maximum is 1/1).
 */
static const struct lat_mark {
	const char *name;
	__u64 num, den;
} lat_marks[] = {
	{ "p50", 50, 100 }, { "p99", 99, 100 }, { "p99.9", 999, 1000 }, { "max", 1, 1 },
};
#define NR_LAT_MARKS (sizeof(lat_marks) / sizeof(lat_marks[0]))

/* the axis reaches 99.99% (x = 10^4), and further when a run has the triggers */
#define LAT_MIN_XMAX 1e4

/* run r's histogram as latency.c takes it */
static void lat_of(const struct plot_run *r, struct run_latency *lat)
{
	int b;

	*lat = (struct run_latency){ .ops_per_trigger = r->rf.lat_ops_per_trigger };
	for (b = 0; b < LAT_NR_BUCKETS; b++)
		lat->counts[b] = r->rf.lat_counts[b];
}

static __u64 lat_triggers(const struct plot_run *r)
{
	struct run_latency lat;

	lat_of(r, &lat);
	return lat_total(lat.counts);
}

/*
 * "x percentile" of p = num/den.  p = 1 has no finite 1/(1 - p): the
 * maximum (num = den = N triggers) is drawn at p = 1 - 1/N, the largest p
 * below 1 where N triggers' nearest rank changes (any p above it gives
 * the maximum).  So each curve ends at x = N, where its data ends.
 */
static void lat_put_xp(FILE *f, __u64 num, __u64 den)
{
	__u64 c = num < den ? num : den - 1;

	/* 15 digits of p: near 100% its 1 - p, the x, needs them */
	fprintf(f, "%.10g %.15g", (double)den / (den - c), 100.0 * c / den);
}

/* the start of run i's data block $run<i>_<what>; *lat its histogram, the triggers returned */
static __u64 lat_block_begin(FILE *f, const struct plot_run *r, int i, const char *what,
			     const char *columns, struct run_latency *lat)
{
	char name[32];

	lat_of(r, lat);
	snprintf(name, sizeof(name), "run%d_%s", i, what);
	block_begin(f, name, columns);
	return lat_total(lat->counts);
}

/*
 * Run i's curve: a point per non-empty bucket, at the share of triggers up
 * to and including it, after one at p = 0 (the minimum); drawn as steps,
 * since every trigger in a bucket is reported as its value.
 */
static void latency_curve(FILE *f, const struct plot_run *r, int i, struct span *y)
{
	struct run_latency lat;
	__u64 seen = 0, total;
	double v;
	int b;

	total = lat_block_begin(f, r, i, "curve",
				"x=1/(1-p) percentile per_op_ns (a point per bucket, the max at p = 1 - 1/N)",
				&lat);
	for (b = 0; b < LAT_NR_BUCKETS; b++) {
		if (!lat.counts[b])
			continue;
		v = lat_per_op(&lat, lat_bucket_value(b));
		if (!seen) {
			lat_put_xp(f, 0, total);
			fprintf(f, " %.10g\n", v);
		}
		seen += lat.counts[b];
		lat_put_xp(f, seen, total);
		fprintf(f, " %.10g\n", v);
		span_add(y, v);
	}
	block_end(f);
}

/*
 * N triggers resolve p when 1/(1 - p) <= N, inside the curve: p99.9 needs
 * 1000.  Nearest rank still gives a figure below that (the maximum or
 * near it), but it is no p99.9.
 */
static bool lat_resolved(const struct lat_mark *m, __u64 total)
{
	return m->num == m->den || (unsigned __int128)total * (m->den - m->num) >= m->den;
}

/* run i's marks, the ones its triggers resolve: x, percentile, value, label */
static void latency_marks(FILE *f, const struct plot_run *r, int i)
{
	const struct lat_mark *m;
	struct run_latency lat;
	__u64 total;
	char v[48];
	double q;

	total = lat_block_begin(f, r, i, "marks",
				"x=1/(1-p) percentile per_op_ns label (the Latency line's figures)", &lat);
	for (m = lat_marks; m < lat_marks + NR_LAT_MARKS; m++) {
		if (!lat_resolved(m, total))
			continue;
		q = lat_quantile(lat.counts, m->num, m->den);
		lat_format_ns(v, sizeof(v), &lat, q);
		/* the maximum (1/1) where the curve ends, at N/N */
		if (m->num == m->den)
			lat_put_xp(f, total, total);
		else
			lat_put_xp(f, m->num, m->den);
		fprintf(f, " %.10g \"%s %s\"\n", lat_per_op(&lat, q), m->name, v);
	}
	block_end(f);
}

/* some mark is beyond what run r's triggers resolve */
static bool lat_some_unresolved(const struct plot_run *r)
{
	__u64 total = lat_triggers(r);
	unsigned int k;

	for (k = 0; k < NR_LAT_MARKS; k++)
		if (!lat_resolved(&lat_marks[k], total))
			return true;
	return false;
}

/* append s to buf (len bytes) if it fits within max characters */
static void lat_key_add(char *buf, size_t len, size_t max, const char *s)
{
	size_t at = strlen(buf);

	if (at + strlen(s) <= max && at + strlen(s) < len)
		strcpy(buf + at, s);
}

/*
 * Run r's key: its label and its marks' figures, "n/a" for one its
 * triggers do not resolve, the unit and the trigger count.  The text
 * terminal writes an entry that runs past the right edge over its own
 * start, or warns: there an entry has the picture's width less 16 columns
 * (the left margin with 6-digit tics, a 2-column line sample), the unit
 * and the count only when they fit, the rest cut.
 */
static void latency_key(char *buf, size_t len, const struct plot_opts *o, const struct plot_run *r)
{
	size_t max = o->format == PLOT_TEXT && o->width > 20 ? (size_t)o->width - 16 : len - 1;
	const struct lat_mark *m;
	struct run_latency lat;
	char v[48], item[80];
	__u64 total;

	lat_of(r, &lat);
	total = lat_total(lat.counts);
	snprintf(buf, len, "%s:", r->label);
	for (m = lat_marks; m < lat_marks + NR_LAT_MARKS; m++) {
		if (lat_resolved(m, total))
			lat_format_ns(v, sizeof(v), &lat, lat_quantile(lat.counts, m->num, m->den));
		else
			snprintf(v, sizeof(v), "n/a");
		snprintf(item, sizeof(item), "%s %s %s", m == lat_marks ? "" : ",", m->name, v);
		lat_key_add(buf, len, len - 1, item);
	}
	lat_key_add(buf, len, max, lat.ops_per_trigger ? " ns/op" : " ns/trigger");
	snprintf(item, sizeof(item), " (%llu triggers)", (unsigned long long)total);
	lat_key_add(buf, len, max, item);
	if (strlen(buf) > max && max > 3)
		strcpy(buf + max - 3, "...");
}

/* 0%, 50%, then 90%, 99%, 99.9%, ... at x = 1/(1 - p) = 10, 100, 1000, ... up to xmax */
static void latency_xtics(FILE *f, double xmax)
{
	static const char nines[] = "99999999999999999999";
	double x;
	int d;

	/* a tic label is a format: its % doubled */
	fprintf(f, "set xtics (\"0%%%%\" 1, \"50%%%%\" 2");
	for (x = 10, d = 1; x <= xmax && d < (int)sizeof(nines); x *= 10, d++) {
		if (d == 1)
			fprintf(f, ", \"90%%%%\" 10");
		else
			fprintf(f, ", \"99%s%.*s%%%%\" %.0f", d > 2 ? "." : "", d - 2, nines, x);
	}
	fprintf(f, ")\n");
}

/*
 * The latency axis from lo to hi, tics at 1, 2 and 5 of each decade: a
 * log axis's own are decades only, and the body of a distribution often
 * sits within one.
 */
static void latency_ytics(FILE *f, double lo, double hi)
{
	static const int steps[] = { 1, 2, 5 };
	double decade;
	bool first = true;
	int k;

	fprintf(f, "set yrange [%.6g:%.6g]\nset ytics (", lo, hi);
	for (decade = pow(10, floor(log10(lo))); decade <= hi; decade *= 10) {
		for (k = 0; k < 3; k++) {
			if (decade * steps[k] < lo || decade * steps[k] > hi)
				continue;
			fprintf(f, "%s%.6g", first ? "" : ", ", decade * steps[k]);
			first = false;
		}
	}
	fprintf(f, ")\n");
}

/* title, axes with their units, the notes on where the curves end */
static int latency_axes(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			struct span y, double xmax)
{
	bool unresolved = false, per_trigger = false;
	char title[256], *common;
	int i;

	for (i = 0; i < n; i++) {
		unresolved |= lat_some_unresolved(&runs[i]);
		per_trigger |= !runs[i].rf.lat_ops_per_trigger;
	}
	/* every run of a latency chart has --latency: no label says so */
	common = options_text(runs, n, 0, true, "latency");
	if (!common)
		return nomem("label the chart");
	snprintf(title, sizeof(title), "%s latency: per-op time by percentile", benchmark_of(&runs[0]));
	put_title(f, o, title, common);
	free(common);
	fprintf(f, "set xlabel ");
	put_title_expr(f, o, "percentile (log scale of 1/(1 - p))", unresolved ?
		       "a curve ends at p = 1 - 1/N of its N triggers; n/a: too few triggers" :
		       "each curve ends at its maximum, drawn at p = 1 - 1/N of its N triggers");
	fprintf(f, "\n");
	put_ylabels(f, o, per_trigger ? "latency (ns per op; per trigger without map operations, log scale)" :
		    "latency (ns per op, log scale)", NULL);
	fprintf(f, "set logscale xy\nset xrange [1:%.0f]\n", xmax);
	latency_xtics(f, xmax);
	/* room above the highest mark for its label */
	latency_ytics(f, y.lo / 1.5, y.hi * 2);
	/*
	 * The minor grid of a log axis fills a text chart with dots; the key's
	 * extra height keeps the two-line axis title off it.
	 */
	fprintf(f, "set grid xtics ytics%s\nset key below left Left reverse height 1\n",
		o->format == PLOT_TEXT ? "" : " mytics");
	/* a short line sample: the room goes to the key's figures */
	if (o->format == PLOT_TEXT)
		fprintf(f, "set key samplen 2\n");
	return 0;
}

/* text has no colours: each run its own line characters and point letters */
static void latency_style(char *buf, size_t len, const struct plot_opts *o, int i, bool points)
{
	if (o->format == PLOT_TEXT && points)
		snprintf(buf, len, "lt %d pt %d", 1 + i, 1 + i);
	else if (o->format == PLOT_TEXT)
		snprintf(buf, len, "lt %d", 1 + i);
	else if (points)
		snprintf(buf, len, "lc rgb \"%s\" pt 7 ps 1.2", run_colors[i % NR_COLORS]);
	else
		snprintf(buf, len, "lc rgb \"%s\" lw 2", run_colors[i % NR_COLORS]);
}

/* run i's curve in the plot command, with its key entry */
static void latency_plot_curve(FILE *f, const struct plot_opts *o, const struct plot_run *r, int i)
{
	char key[512], style[64];

	latency_style(style, sizeof(style), o, i, false);
	latency_key(key, sizeof(key), o, r);
	fprintf(f, "  $run%d_curve using 1:3 with fsteps %s title ", i, style);
	put_line(f, o, key);
	fprintf(f, ", \\\n");
}

/* run i's marks, after every curve: none hides under another run's curve */
static void latency_plot_marks(FILE *f, const struct plot_opts *o, int i)
{
	char style[64];

	latency_style(style, sizeof(style), o, i, true);
	fprintf(f, "  $run%d_marks using 1:3 with points %s notitle, \\\n", i, style);
}

/*
 * Run i's mark labels, each its own command (its row of the block) to
 * sit where its own curve is not: a percentile curve only rises, so
 * above-left and below-right of a mark are clear of it.  Even runs above,
 * odd runs below, so that two runs' labels at one percentile stay apart;
 * p50 to the right (the left edge is near), the maximum to the left (the
 * right edge may be).  Drawn after every curve, over them.
 */
static void latency_labels(FILE *f, const struct plot_opts *o, const struct plot_run *r, int i,
			   bool last)
{
	const struct lat_mark *m;
	int row = 0, nrows = 0;
	__u64 total = lat_triggers(r);
	char tc[64] = "";
	const char *off;
	bool right;

	if (o->format != PLOT_TEXT)
		snprintf(tc, sizeof(tc), " tc rgb \"%s\"", run_colors[i % NR_COLORS]);
	/* the text terminal rounds an offset to whole characters, 0.8 to none */
	off = o->format == PLOT_TEXT ? "1" : "0.8";
	for (m = lat_marks; m < lat_marks + NR_LAT_MARKS; m++)
		nrows += lat_resolved(m, total);
	for (m = lat_marks; m < lat_marks + NR_LAT_MARKS; m++) {
		if (!lat_resolved(m, total))
			continue;
		right = m == lat_marks ? true : m->num == m->den ? false : i % 2;
		fprintf(f, "  $run%d_marks every ::%d::%d using 1:3:4 with labels %s offset %s%s,%s%s%s notitle%s\n",
			i, row, row, right ? "left" : "right", right ? "" : "-", off, i % 2 ? "-" : "",
			off, tc, last && row == nrows - 1 ? "" : ", \\");
		row++;
	}
}

/* one line for a run that cannot be drawn */
static int latency_check(const struct plot_run *runs, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!runs[i].rf.lat_counts) {
			fprintf(stderr, "%s has no latency histogram: record the run with --latency\n",
				runs[i].path);
			return -EINVAL;
		}
		if (!lat_triggers(&runs[i])) {
			fprintf(stderr, "%s: its latency histogram is empty (0 triggers): nothing to draw\n",
				runs[i].path);
			return -EINVAL;
		}
	}
	return 0;
}

/* every run's percentile curve and marks, overlaid */
static int latency_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct span y = { INFINITY, -INFINITY };
	double xmax = LAT_MIN_XMAX;
	int i, err;

	err = latency_check(runs, n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		latency_curve(f, &runs[i], i, &y);
		latency_marks(f, &runs[i], i);
		while (xmax < lat_triggers(&runs[i]))
			xmax *= 10;
	}
	err = latency_axes(f, o, runs, n, y, xmax);
	if (err)
		return err;
	fprintf(f, "plot \\\n");
	for (i = 0; i < n; i++)
		latency_plot_curve(f, o, &runs[i], i);
	for (i = 0; i < n; i++)
		latency_plot_marks(f, o, i);
	for (i = 0; i < n; i++)
		latency_labels(f, o, &runs[i], i, i == n - 1);
	return 0;
}

int plot_build_script(const struct plot_opts *o, struct plot_run *runs, int n, char **script)
{
	char *buf = NULL, **owned;
	size_t len = 0;
	FILE *f;
	int err;

	*script = NULL;
	if (n < 1) {
		fprintf(stderr, "plot %s needs result files (bench --json FILE); got none\n",
			kind_name(o->kind));
		return -EINVAL;
	}
	err = check_same_benchmark(o, runs, n);
	if (err)
		return err;
	owned = calloc(n, sizeof(*owned));
	f = open_memstream(&buf, &len);
	if (!owned || !f) {
		free(owned);
		if (f)
			fclose(f);
		free(buf);
		return nomem("build the gnuplot script");
	}
	err = set_labels(runs, n, owned, o->kind == PLOT_SCALING ? "producers" :
				       o->kind == PLOT_LATENCY ? "latency" : NULL);
	if (!err) {
		fprintf(f, "# bench plot %s\n", kind_name(o->kind));
		put_terminal(f, o);
		switch (o->kind) {
		case PLOT_TIMELINE:
			err = timeline_script(o, runs, n, f);
			break;
		case PLOT_SCALING:
			err = scaling_script(o, runs, n, f);
			break;
		case PLOT_COMPARE:
			err = compare_script(o, runs, n, f);
			break;
		case PLOT_LATENCY:
			err = latency_script(o, runs, n, f);
			break;
		}
	}
	free_labels(runs, n, owned);
	free(owned);
	if (fclose(f) && !err)
		err = nomem("build the gnuplot script");
	if (err) {
		free(buf);
		return err;
	}
	*script = buf;
	return 0;
}

/* ---- the command ---- */


static struct plot_cli {
	struct plot_opts o;
	const char *output;
	bool text, table, size_set;
	const char *files[BENCH_MAX_FILES];
	int nfiles;
	const char *labels[BENCH_MAX_FILES];
	int nlabels;
} cli;

enum { ARG_TEXT = 1000, ARG_LABEL, ARG_ZOOM, ARG_FORCE, ARG_THRESHOLD, ARG_SIZE, ARG_TABLE,
       ARG_RANK, ARG_PAIRED, ARG_TRIMMED };

static const struct argp_option plot_options[] = {
	{ "output", 'o', "FILE", 0, "Write the chart to FILE: .svg, .png, .txt (text), - (text on stdout)" },
	{ "text", ARG_TEXT, NULL, 0, "Draw the chart as text (on stdout without -o)" },
	{ "label", ARG_LABEL, "TEXT", 0, "Name of the next run in the legend (once per file, in order)" },
	{ "zoom", ARG_ZOOM, NULL, 0, "Fit the rate axes to the data instead of starting them at 0" },
	{ "force", ARG_FORCE, NULL, 0, "Plot runs of different benchmarks or options together" },
	{ "threshold", ARG_THRESHOLD, "PCT", 0, "compare: smallest change that counts (default 2)" },
	{ "size", ARG_SIZE, "WxH", 0, "Picture size: pixels (default 900x560), characters for text (default 79x32)" },
	{ "table", ARG_TABLE, NULL, 0, "scaling: print the scaling table instead of a chart" },
	{ "rank", ARG_RANK, NULL, 0, "compare: as compare's --rank (Mann-Whitney, Hodges-Lehmann)" },
	{ "paired", ARG_PAIRED, NULL, 0, "compare: as compare's --paired (file i of base with file i of new)" },
	{ "trimmed", ARG_TRIMMED, NULL, 0, "compare: as compare's --trimmed (with --paired: the 20% trimmed mean of the log ratios, bench ab's default)" },
	{},
};

static int parse_size(const char *arg)
{
	char *end;
	long w, h;

	errno = 0;
	w = strtol(arg, &end, 10);
	if (errno || *end != 'x' || w < 20 || w > 10000)
		goto bad;
	h = strtol(end + 1, &end, 10);
	if (errno || *end || h < 10 || h > 10000)
		goto bad;
	cli.o.width = w;
	cli.o.height = h;
	cli.size_set = true;
	return 0;
bad:
	fprintf(stderr, "invalid --size '%s': expected WIDTHxHEIGHT, 20..10000 by 10..10000\n", arg);
	return EINVAL;
}

/*
 * "--" between a compare chart's sides, which argp would take for the end
 * of the options: replaced by this marker, a file argument of its own, so
 * that options may come anywhere, as in the other charts.
 */
static char sides_mark[] = "(the -- between the sides)";

static int mark_sides(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (cli.o.kind != PLOT_COMPARE) {
			fprintf(stderr, "'--' separates the base and new files of a compare chart; %s takes RUN.json...\n",
				kind_name(cli.o.kind));
			return -EINVAL;
		}
		argv[i] = sides_mark;
		return 0;
	}
	return 0;
}

/* the marker: the files so far are the base side */
static int split_here(void)
{
	if (!cli.nfiles) {
		fprintf(stderr, "plot compare: no BASE result file before '--' (usage: BASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...])\n");
		return EINVAL;
	}
	cli.o.nbase = cli.nfiles;
	return 0;
}

static error_t plot_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'o':
		cli.output = arg;
		break;
	case ARG_TEXT:
		cli.text = true;
		break;
	case ARG_LABEL:
		if (cli.nlabels == BENCH_MAX_FILES) {
			fprintf(stderr, "too many --label options (at most %d)\n", BENCH_MAX_FILES);
			return EINVAL;
		}
		cli.labels[cli.nlabels++] = arg;
		break;
	case ARG_ZOOM:
		cli.o.zoom = true;
		break;
	case ARG_FORCE:
		cli.o.force = true;
		break;
	case ARG_THRESHOLD:
		return compare_parse_threshold(arg, &cli.o.threshold_pct);
	case ARG_SIZE:
		return parse_size(arg);
	case ARG_TABLE:
		cli.table = true;
		break;
	case ARG_RANK:
		cli.o.rank = true;
		break;
	case ARG_PAIRED:
		cli.o.paired = true;
		break;
	case ARG_TRIMMED:
		cli.o.trimmed = true;
		break;
	case ARGP_KEY_ARG:
		if (arg == sides_mark)
			return split_here();
		if (cli.nfiles == BENCH_MAX_FILES) {
			fprintf(stderr, "too many result files (at most %d)\n", BENCH_MAX_FILES);
			return EINVAL;
		}
		cli.files[cli.nfiles++] = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp plot_argp = {
	.options = plot_options,
	.parser = plot_parse,
	.args_doc = "timeline RUN.json...\nscaling RUN.json...\ncompare BASE.json NEW.json\n"
		    "compare BASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...]\nlatency RUN.json...\n"
		    "history [SELECTION...]",
	.doc = "Draw result files (bench --json) with gnuplot.\v"
	       "timeline: each run's per-second primary rate over time, warm-up marked, memory "
	       "on a second axis, mean ± stddev as a band.  scaling: runs differing only in "
	       "the producer count: per-producer and total rate with error bars and the ideal "
	       "linear line.  compare: bench compare's rows drawn, from the same code: the "
	       "change of every metric with its 95% interval (of the ratio new/base where both "
	       "are positive), on the same unit (samples, repeats, invocations with several "
	       "files a side, pairs with --paired) and test, coloured and labelled by compare's "
	       "verdict.  latency: runs recorded with "
	       "--latency, overlaid as percentile plots: per-op time (log) against the "
	       "percentile on a 1/(1 - p) axis (50%, 90%, 99%, 99.9%, ...), p50, p99, p99.9 "
	       "and the maximum marked with the Latency line's figures; a curve ends where "
	       "its triggers end (the maximum at p = 1 - 1/N), a percentile they cannot "
	       "resolve is n/a.  Exit status: 0; 1 when gnuplot or writing failed; 2 on "
	       "bad input.",
};

/* the format the output name asks for */
int plot_pick_format(const char *output, bool text, enum plot_format *format)
{
	const char *dot;

	if (!output || !strcmp(output, "-")) {
		*format = PLOT_TEXT;
		return 0;
	}
	dot = strrchr(base_name(output), '.');
	if (dot && !strcmp(dot, ".svg") && !text)
		*format = PLOT_SVG;
	else if (dot && !strcmp(dot, ".png") && !text)
		*format = PLOT_PNG;
	else if (dot && !strcmp(dot, ".txt"))
		*format = PLOT_TEXT;
	else if (text) {
		fprintf(stderr, "invalid -o '%s' with --text: text goes to a .txt file or to - (stdout)\n",
			output);
		return -EINVAL;
	} else {
		fprintf(stderr, "invalid -o '%s': unknown extension; accepted: .svg, .png, .txt, or - for text on stdout\n",
			output);
		return -EINVAL;
	}
	return 0;
}

static int pick_format(void)
{
	if (!cli.output && !cli.text && !cli.table) {
		fprintf(stderr, "plot needs -o FILE (.svg, .png, .txt) or -o - / --text for text on the terminal\n");
		return -EINVAL;
	}
	return plot_pick_format(cli.output, cli.text, &cli.o.format);
}

/* what bench plot history draws with: the same terminal, strings and titles */
void plot_put_terminal(FILE *f, const struct plot_opts *o)
{
	put_terminal(f, o);
}

void plot_put_str(FILE *f, const char *s)
{
	put_str(f, s);
}

void plot_put_title(FILE *f, const struct plot_opts *o, const char *first, const char *second)
{
	put_title(f, o, first, second);
}

void plot_put_ylabels(FILE *f, const struct plot_opts *o, const char *left, const char *right)
{
	put_ylabels(f, o, left, right);
}

/*
 * The exit status of a failed step: running out of memory is a failed
 * plot (1), anything else was bad input (2).
 */
static int failed_status(int err)
{
	return err == -ENOMEM ? 1 : 2;
}

/* the one place a result file is loaded and checked: as compare does */
static int plot_load(struct plot_run *run)
{
	char err[512];
	int ret;

	ret = result_file_load(run->path, &run->rf, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "plot: %s\n", err);
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	return 0;
}

int bench_plot_main(int argc, char **argv)
{
	static const char *const kinds[] = { "timeline", "scaling", "compare", "latency", "history" };
	struct plot_run *runs = NULL;
	char *script = NULL, *img = NULL;
	size_t img_len = 0;
	int i, nruns = 0, base_given, err = 0, ret = 2;

	cli = (struct plot_cli){ .o = { .threshold_pct = 2.0 } };
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-?"))) {
			argp_help(&plot_argp, stdout, ARGP_HELP_STD_HELP, "bench plot");
			return 0;
		}
		fprintf(stderr, "plot needs a chart type first: timeline, scaling, compare, latency or history\n");
		return 2;
	}
	if (!strcmp(argv[1], "history"))
		return bench_plot_history_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "timeline"))
		cli.o.kind = PLOT_TIMELINE;
	else if (!strcmp(argv[1], "scaling"))
		cli.o.kind = PLOT_SCALING;
	else if (!strcmp(argv[1], "compare"))
		cli.o.kind = PLOT_COMPARE;
	else if (!strcmp(argv[1], "latency"))
		cli.o.kind = PLOT_LATENCY;
	else {
		fprintf(stderr, "unknown chart type '%s': ", argv[1]);
		suggest_print(stderr, argv[1], kinds, sizeof(kinds) / sizeof(kinds[0]));
		fprintf(stderr, "expected timeline, scaling, compare, latency or history\n");
		return 2;
	}
	{
		/* usage and errors read "bench plot KIND [OPTION...] FILES" */
		struct argp kind_argp = plot_argp;
		char name[64], *kind = argv[1];

		kind_argp.args_doc = cli.o.kind == PLOT_COMPARE ?
			"BASE.json NEW.json\nBASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...]" :
			"RUN.json...";
		snprintf(name, sizeof(name), "bench plot %s", kind);
		argv[1] = name;
		/* an unknown option is bad input like any other: exit status 2 */
		argp_err_exit_status = 2;
		err = mark_sides(argc - 1, argv + 1);
		if (!err)
			err = argp_parse(&kind_argp, argc - 1, argv + 1, 0, NULL, NULL);
		argv[1] = kind;
		if (err)
			return 2;
	}
	if (cli.o.nbase && cli.nfiles == cli.o.nbase) {
		fprintf(stderr, "plot compare: no NEW result file after '--' (usage: BASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...])\n");
		return 2;
	}
	if ((cli.o.rank || cli.o.paired || cli.o.trimmed) && cli.o.kind != PLOT_COMPARE) {
		fprintf(stderr, "--rank, --paired and --trimmed are for compare charts only\n");
		return 2;
	}
	if (cli.table && cli.o.kind != PLOT_SCALING) {
		fprintf(stderr, "--table is for scaling charts only\n");
		return 2;
	}
	if (pick_format())
		return 2;
	if (!cli.size_set) {
		cli.o.width = cli.o.format == PLOT_TEXT ? 79 : 900;
		cli.o.height = cli.o.format == PLOT_TEXT ? (cli.o.kind == PLOT_SCALING ? 44 : 32) : 560;
		if (cli.o.kind == PLOT_SCALING && cli.o.format != PLOT_TEXT)
			cli.o.height = 820;
	}
	if (cli.nfiles == 0) {
		fprintf(stderr, "plot %s needs result files (bench --json FILE); got none\n", argv[1]);
		return 2;
	}
	if (cli.nlabels && cli.nlabels != cli.nfiles) {
		fprintf(stderr, "%d --label for %d files: give one per file, in order, or none\n",
			cli.nlabels, cli.nfiles);
		return 2;
	}
	runs = calloc(cli.nfiles, sizeof(*runs));
	if (!runs)
		return failed_status(nomem("load the result files"));
	base_given = cli.o.nbase;
	for (i = 0, nruns = 0; i < cli.nfiles; i++) {
		runs[nruns].path = cli.files[i];
		runs[nruns].label = cli.nlabels ? cli.labels[i] : NULL;
		err = plot_load(&runs[nruns]);
		if (err)
			goto out;
		/* a run whose producers were starved is no figure of the kernel */
		if (!result_file_left_out(&runs[nruns].rf, "plot")) {
			nruns++;
			continue;
		}
		result_file_free(&runs[nruns].rf);
		/* plot compare's sides: the base files are the first nbase */
		if (i < base_given)
			cli.o.nbase--;
	}
	if (nruns < cli.nfiles)
		fprintf(stderr, "plot: left out %d of %d files as invalid runs (producers starved: the machine was busy)\n",
			cli.nfiles - nruns, cli.nfiles);
	if (base_given && (!cli.o.nbase || cli.o.nbase == nruns)) {
		fprintf(stderr, "plot: no valid %s file left: nothing to compare\n",
			cli.o.nbase ? "new" : "base");
		err = -EINVAL;
		goto out;
	}
	if (!nruns) {
		fprintf(stderr, "plot: no valid file: nothing to draw\n");
		err = -EINVAL;
		goto out;
	}
	if (cli.table) {
		err = plot_scaling_table(&cli.o, runs, nruns, stdout);
		ret = 0;
		goto out;
	}
	err = plot_build_script(&cli.o, runs, nruns, &script);
	if (!err && cli.output && strcmp(cli.output, "-"))
		err = plot_check_output(cli.output);
	if (err)
		goto out;
	/* from here on a failure is the plot's, not the input's */
	if (plot_run_gnuplot(script, &img, &img_len)) {
		ret = 1;
		goto out;
	}
	ret = plot_write_output(cli.output ? cli.output : "-", img, img_len) ? 1 : 0;
out:
	if (err)
		ret = failed_status(err);
	for (i = 0; i < nruns; i++)
		result_file_free(&runs[i].rf);
	free(runs);
	free(script);
	free(img);
	return ret;
}
