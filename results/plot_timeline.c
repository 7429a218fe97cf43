// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot timeline: every run's primary rate sample by sample on one
 * time axis, warm-up marked and left out of the statistics, mean ± stddev
 * of the measured samples as a band, memory on a second axis.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_common.h"

static int timeline_metric(struct plot_run *runs, int n, const char **metric, const char **unit)
{
	const char *m;
	int i;

	*metric = plot_primary_metric(&runs[0]);
	if (!*metric) {
		fprintf(stderr, "%s has no metric measured per sample: nothing to draw over time\n",
			runs[0].path);
		return -EINVAL;
	}
	*unit = plot_metric_unit(&runs[0], *metric);
	for (i = 1; i < n; i++) {
		m = plot_primary_metric(&runs[i]);
		if (!m || strcmp(m, *metric) || strcmp(plot_metric_unit(&runs[i], m), *unit)) {
			fprintf(stderr, "cannot draw %s (%s) and %s (%s) on one rate axis: %s vs %s\n",
				runs[0].path, *metric, runs[i].path, m ? m : "no per-sample metric",
				*unit, m ? plot_metric_unit(&runs[i], m) : "-");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Run i's warm-up points, the dashed line joining the first measured one;
 * *t_measured: where the measured interval starts.  The run's end returned.
 */
static double timeline_warmup(FILE *f, const struct plot_run *r, int i, const double *v_of,
			      struct plot_span *y1, double *t_measured)
{
	double t = 0, last_warm_t = 0, v;
	char name[32];
	int k;

	*t_measured = -1;
	snprintf(name, sizeof(name), "run%d_warmup", i);
	plot_block_begin(f, name, "time_s rate (warm-up: not in the statistics)");
	for (k = 0; k < r->rf.nsamples; k++) {
		t += r->rf.samples[k].interval_ns / 1e9;
		v = v_of[k];
		if (!r->rf.samples[k].warmup) {
			/* the dashed warm-up line joins the first measured point */
			if (*t_measured < 0 && !isnan(v))
				fprintf(f, "%.6f %.6g\n", t, v);
			if (*t_measured < 0)
				*t_measured = last_warm_t;
			continue;
		}
		last_warm_t = t;
		if (!isnan(v)) {
			fprintf(f, "%.6f %.6g\n", t, v);
			plot_span_add(y1, v);
		}
	}
	plot_block_end(f);
	return t;
}

/* a block of (time, value) points: every sample's, or the measured ones' */
static void timeline_points(FILE *f, const struct plot_run *r, const char *name,
			    const char *columns, const double *v_of, bool measured_only,
			    struct plot_span *sp)
{
	double t = 0;
	int k;

	plot_block_begin(f, name, columns);
	for (k = 0; k < r->rf.nsamples; k++) {
		t += r->rf.samples[k].interval_ns / 1e9;
		if ((measured_only && r->rf.samples[k].warmup) || isnan(v_of[k]))
			continue;
		fprintf(f, "%.6f %.6g\n", t, v_of[k]);
		plot_span_add(sp, v_of[k]);
	}
	plot_block_end(f);
}

/*
 * Run i's data blocks: its warm-up points, its measured points (each at
 * the end of its interval), the mean ± stddev band over the measured
 * interval only, and its memory readings.
 */
static int timeline_data(FILE *f, const struct plot_run *r, int i, const char *metric,
			 struct plot_span *y1, struct plot_span *y2)
{
	const struct result_metric *m = plot_metric_of(r, metric), *mem = plot_metric_of(r, "memory");
	struct stats st = plot_measured_stats(r, metric);
	double t_end, t_measured;
	char name[32];

	if (st.n == 0) {
		fprintf(stderr, "%s has no measured sample of %s\n", r->path, metric);
		return -EINVAL;
	}
	t_end = timeline_warmup(f, r, i, m->per_sample, y1, &t_measured);
	snprintf(name, sizeof(name), "run%d_measured", i);
	timeline_points(f, r, name, "time_s rate", m->per_sample, true, y1);
	plot_span_add(y1, st.mean - st.stddev);
	plot_span_add(y1, st.mean + st.stddev);

	snprintf(name, sizeof(name), "run%d_band", i);
	plot_block_begin(f, name, "time_s mean-stddev mean+stddev mean");
	fprintf(f, "%.6f %.6g %.6g %.6g\n", t_measured, st.mean - st.stddev,
		st.mean + st.stddev, st.mean);
	fprintf(f, "%.6f %.6g %.6g %.6g\n", t_end, st.mean - st.stddev, st.mean + st.stddev,
		st.mean);
	plot_block_end(f);

	if (!plot_has_memory(r))
		return 0;
	snprintf(name, sizeof(name), "run%d_memory", i);
	timeline_points(f, r, name, "time_s memory_MiB (every sample: a reading, not a statistic)",
			mem->per_sample, false, y2);
	return 0;
}

/*
 * A run marked invalid (its producers were starved), drawn all the same:
 * its reason as a banner across the top of the chart, wrapped to the
 * picture's width, one gnuplot label a line
 */
static void timeline_banner(FILE *f, const struct plot_opts *o, const struct plot_run *runs, int n)
{
	size_t max = o->format == PLOT_TEXT && o->width > 20 ? (size_t)o->width - 10 : 90;
	char text[768], line[256];
	const char *p, *brk;
	int i, k = 0, invalid = 0;

	for (i = 0; i < n; i++)
		invalid += runs[i].rf.invalid;
	for (i = 0; i < n && !runs[i].rf.invalid; i++)
		;
	if (!invalid)
		return;
	snprintf(text, sizeof(text), "INVALID RUN%s (no figure of the kernel): %s%s%s%s",
		 invalid > 1 ? "S" : "", n > 1 ? runs[i].label : "", n > 1 ? ": " : "",
		 runs[i].rf.invalid_reason, invalid > 1 ? " (and others)" : "");
	for (p = text; *p && k < 6; k++) {
		brk = p + strlen(p);
		if (strlen(p) > max) {
			for (brk = p + max; brk > p && *brk != ' '; brk--)
				;
			if (brk == p)
				brk = p + max;
		}
		snprintf(line, sizeof(line), "%.*s", (int)(brk - p), p);
		fprintf(f, "set label %d ", 110 + k);
		plot_put_str(f, line);
		fprintf(f, " at graph 0.5, graph 0.96 offset 0,%d center front%s\n", -k,
			o->format == PLOT_TEXT ? "" : " textcolor rgb \"#c00000\"");
		for (p = brk; *p == ' '; p++)
			;
	}
}

/* title, axis labels and ranges of the timeline */
static int timeline_axes(FILE *f, const struct plot_opts *o, struct plot_run *runs, int n,
			 const char *metric, const char *unit, bool any_mem, struct plot_span y1,
			 struct plot_span y2)
{
	char title[256], l[128];
	char *common = plot_options_text(runs, n, 0, true, NULL);

	if (!common)
		return plot_nomem("label the chart");
	snprintf(title, sizeof(title), "%s timeline: %s per second", plot_benchmark_of(&runs[0]), metric);
	plot_put_title(f, o, title, common);
	free(common);
	fprintf(f, "set xlabel \"time since start (s)\"\n");
	snprintf(l, sizeof(l), "%s (%s)", metric, unit);
	plot_put_ylabels(f, o, l, any_mem ? "memory (MiB)" : NULL);
	/* the time axis ends with the run, not at the next tic */
	fprintf(f, "set xrange [0:*]\nset autoscale xfixmax\n");
	plot_put_range(f, "y", o->zoom, y1);
	if (any_mem) {
		fprintf(f, "set ytics nomirror\nset y2tics\n");
		plot_put_range(f, "y2", o->zoom, y2);
	}
	fprintf(f, "set grid\nset key below left Left reverse\n");
	if (o->format != PLOT_TEXT)
		fprintf(f, "set style fill transparent solid 0.15 noborder\n");
	timeline_banner(f, o, runs, n);
	return 0;
}

/* run i's lines in the plot command: band, warm-up, measured points, memory */
static void timeline_plot_run(FILE *f, const struct plot_opts *o, const struct plot_run *r,
			      int i, int n, const char *metric, const char *unit)
{
	const char *c = plot_run_colors[i % PLOT_NR_COLORS];
	char title[512], st_line[64], st_band[64], st_mem[64], pt_warm[32], pt_meas[32];
	struct stats st = plot_measured_stats(r, metric);
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
		snprintf(st_mem, sizeof(st_mem), " lt %d", 5 + i);
		snprintf(pt_warm, sizeof(pt_warm), "pt %d", 2 + 2 * i);
		snprintf(pt_meas, sizeof(pt_meas), "pt %d", 1 + 2 * i);
		fprintf(f, "  $run%d_band using 1:2 with lines %s title ", i, st_band);
		snprintf(title, sizeof(title), "%s: mean - stddev and mean + stddev", r->label);
		plot_put_str(f, title);
		fprintf(f, ", \\\n");
		fprintf(f, "  $run%d_band using 1:3 with lines %s notitle, \\\n", i, st_band);
	} else {
		snprintf(st_line, sizeof(st_line), "lc rgb \"%s\"", c);
		snprintf(st_band, sizeof(st_band), "lc rgb \"%s\" dt 2", c);
		/*
		 * memory: a thin solid line through hollow squares at each
		 * reading, never a dashed line like the mean's (dt 2)
		 */
		snprintf(st_mem, sizeof(st_mem), "points lc rgb \"%s\" lw 1 pt 4 ps 0.7", c);
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
	plot_put_str(f, title);
	fprintf(f, ", \\\n  $run%d_measured using 1:2 with linespoints %s lw 2 %s title ", i,
		st_line, pt_meas);
	snprintf(title, sizeof(title), "%s: %.2f ± %.2f %s (mean ± stddev band, n=%d)",
		 r->label, st.mean, st.stddev, unit, st.n);
	plot_put_str(f, title);
	if (plot_has_memory(r)) {
		fprintf(f, ", \\\n  $run%d_memory using 1:2 axes x1y2 with lines%s title ", i,
			st_mem);
		snprintf(title, sizeof(title), "%s: memory (MiB, right axis)", r->label);
		plot_put_str(f, title);
	}
	fprintf(f, "%s\n", i == n - 1 ? "" : ", \\");
}

/* every run's rate per sample over time, its band, its memory on a second axis */
int plot_timeline_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct plot_span y1 = { INFINITY, -INFINITY }, y2 = { INFINITY, -INFINITY };
	const char *metric, *unit;
	bool any_mem = false;
	int i, err;

	err = timeline_metric(runs, n, &metric, &unit);
	for (i = 0; !err && i < n; i++) {
		any_mem |= plot_has_memory(&runs[i]);
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
