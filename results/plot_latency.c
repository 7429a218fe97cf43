// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot latency: runs recorded with --latency, overlaid as percentile
 * plots, their marks the Latency line's figures from latency.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "latency.h"
#include "plot_common.h"

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
	plot_block_begin(f, name, columns);
	return lat_total(lat->counts);
}

/*
 * Run i's curve: a point per non-empty bucket, at the share of triggers up
 * to and including it, after one at p = 0 (the minimum); drawn as steps,
 * since every trigger in a bucket is reported as its value.
 */
static void latency_curve(FILE *f, const struct plot_run *r, int i, struct plot_span *y)
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
		plot_span_add(y, v);
	}
	plot_block_end(f);
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
	plot_block_end(f);
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
			struct plot_span y, double xmax)
{
	bool unresolved = false, per_trigger = false;
	char title[256], *common;
	int i;

	for (i = 0; i < n; i++) {
		unresolved |= lat_some_unresolved(&runs[i]);
		per_trigger |= !runs[i].rf.lat_ops_per_trigger;
	}
	/* every run of a latency chart has --latency: no label says so */
	common = plot_options_text(runs, n, 0, true, "latency");
	if (!common)
		return plot_nomem("label the chart");
	snprintf(title, sizeof(title), "%s latency: per-op time by percentile", plot_benchmark_of(&runs[0]));
	plot_put_title(f, o, title, common);
	free(common);
	fprintf(f, "set xlabel ");
	plot_put_title_expr(f, o, "percentile (log scale of 1/(1 - p))", unresolved ?
			    "a curve ends at p = 1 - 1/N of its N triggers; n/a: too few triggers" :
			    "each curve ends at its maximum, drawn at p = 1 - 1/N of its N triggers");
	fprintf(f, "\n");
	plot_put_ylabels(f, o, per_trigger ? "latency (ns per op; per trigger without map operations, log scale)" :
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
		snprintf(buf, len, "lc rgb \"%s\" pt 7 ps 1.2", plot_run_colors[i % PLOT_NR_COLORS]);
	else
		snprintf(buf, len, "lc rgb \"%s\" lw 2", plot_run_colors[i % PLOT_NR_COLORS]);
}

/* run i's curve in the plot command, with its key entry */
static void latency_plot_curve(FILE *f, const struct plot_opts *o, const struct plot_run *r, int i)
{
	char key[512], style[64];

	latency_style(style, sizeof(style), o, i, false);
	latency_key(key, sizeof(key), o, r);
	fprintf(f, "  $run%d_curve using 1:3 with fsteps %s title ", i, style);
	plot_put_line(f, o, key);
	fprintf(f, ", \\\n");
}

/* run i's marks, after every curve: none hides under another run's curve */
static void latency_plot_marks(FILE *f, const struct plot_opts *o, int i)
{
	char style[64];

	latency_style(style, sizeof(style), o, i, true);
	fprintf(f, "  $run%d_marks using 1:3 with points %s notitle, \\\n", i, style);
}

/* run r's figure at mark m, per op as its curve draws it */
static double lat_mark_value(const struct plot_run *r, const struct lat_mark *m)
{
	struct run_latency lat;

	lat_of(r, &lat);
	return lat_per_op(&lat, lat_quantile(lat.counts, m->num, m->den));
}

/*
 * Does run i's label at mark m go above its mark?  Among the runs that
 * resolve m, the upper half by value (ties by index) above, the lower
 * half below: two runs' labels then move apart, the higher one up.  By
 * index alone, a first run below the second had its label pushed down
 * onto the second's (p50 36.1 and 62.4 ns printed over each other).
 */
static bool lat_label_above(const struct plot_run *runs, int n, int i, const struct lat_mark *m)
{
	double v = lat_mark_value(&runs[i], m), w;
	int j, rank = 0, nres = 0;

	for (j = 0; j < n; j++) {
		if (!lat_resolved(m, lat_triggers(&runs[j])))
			continue;
		nres++;
		w = j == i ? v : lat_mark_value(&runs[j], m);
		rank += w < v || (w == v && j < i);
	}
	return 2 * rank + 1 >= nres;
}

/*
 * Run i's mark labels, each its own command (its row of the block) to
 * sit where its own curve is not: a percentile curve only rises, so
 * above-left and below-right of a mark are clear of it.  Above or below
 * by lat_label_above(), and at p99 and p99.9 left when above, right when
 * below; p50 to the right (the left edge is near), the maximum to the
 * left (the right edge may be).  Drawn after every curve, over them.
 */
static void latency_labels(FILE *f, const struct plot_opts *o, const struct plot_run *runs, int n,
			   int i)
{
	const struct lat_mark *m;
	int row = 0, nrows = 0;
	__u64 total = lat_triggers(&runs[i]);
	char tc[64] = "";
	const char *off, *voff;
	bool right, above;

	if (o->format != PLOT_TEXT)
		snprintf(tc, sizeof(tc), " tc rgb \"%s\"", plot_run_colors[i % PLOT_NR_COLORS]);
	/* the text terminal rounds an offset to whole characters, 0.8 to none */
	off = o->format == PLOT_TEXT ? "1" : "0.8";
	for (m = lat_marks; m < lat_marks + NR_LAT_MARKS; m++)
		nrows += lat_resolved(m, total);
	for (m = lat_marks; m < lat_marks + NR_LAT_MARKS; m++) {
		if (!lat_resolved(m, total))
			continue;
		above = lat_label_above(runs, n, i, m);
		right = m == lat_marks ? true : m->num == m->den ? false : !above;
		/*
		 * In text, 50% and 99% are a dozen columns apart: an upper
		 * run's p99 label, above-left, met its p50 label, above-right,
		 * on one row ("p50 47p99 50.1").  One row higher it does not.
		 */
		voff = o->format == PLOT_TEXT && above && !right && m->num != m->den ? "2" : off;
		fprintf(f, "  $run%d_marks every ::%d::%d using 1:3:4 with labels %s offset %s%s,%s%s%s notitle%s\n",
			i, row, row, right ? "left" : "right", right ? "" : "-", off, above ? "" : "-",
			voff, tc, i == n - 1 && row == nrows - 1 ? "" : ", \\");
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
int plot_latency_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	struct plot_span y = { INFINITY, -INFINITY };
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
		latency_labels(f, o, runs, n, i);
	return 0;
}
