// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot: what every chart kind draws with.  A run's figures as the
 * charts read them (its benchmark, metrics, statistics over the measured
 * samples), the labels made of its options, and the gnuplot pieces: the
 * terminal, quoted strings, titles, axis labels and ranges, data blocks.
 * The chart files and plot.c use this; it uses none of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_common.h"
#include "result_config.h"
#include "result_file.h"

const char *const plot_run_colors[PLOT_NR_COLORS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
};

/* the one message of an allocation that failed: "failed to <what>: ..." */
int plot_nomem(const char *what)
{
	fprintf(stderr, "failed to %s: %s\n", what, strerror(ENOMEM));
	return -ENOMEM;
}

/* a gnuplot double-quoted string: backslash and quote escaped */
void plot_put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

const char *plot_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

const char *plot_benchmark_of(const struct plot_run *r)
{
	return r->rf.benchmark;
}

const struct result_metric *plot_metric_of(const struct plot_run *r, const char *metric)
{
	return result_file_metric(&r->rf, metric);
}

const char *plot_metric_unit(const struct plot_run *r, const char *metric)
{
	const struct result_metric *m = plot_metric_of(r, metric);

	return m ? m->unit : "?";
}

/*
 * The primary metric: the first one the benchmark reports per sample (the
 * runner's noise check uses the same one) that this run measured.  A
 * benchmark's first metric can be unmeasured on a kernel (local-storage-
 * tasks-trace's gp_latency without fentry): then the next one is the rate.
 */
const char *plot_primary_metric(const struct plot_run *r)
{
	const char *first = NULL;
	int i;

	for (i = 0; i < r->rf.nmetrics; i++) {
		if (r->rf.metrics[i].own_values)
			continue;
		if (!first)
			first = r->rf.metrics[i].name;
		if (plot_measured_stats(r, r->rf.metrics[i].name).n)
			return r->rf.metrics[i].name;
	}
	return first;
}

bool plot_has_memory(const struct plot_run *r)
{
	const struct result_metric *m = plot_metric_of(r, "memory");
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
struct stats plot_measured_stats(const struct plot_run *r, const char *metric)
{
	const struct result_metric *m = plot_metric_of(r, metric);

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
char *plot_options_text(struct plot_run *runs, int n, int i, bool common, const char *skip)
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

/* ---- the terminal ---- */

void plot_put_terminal(FILE *f, const struct plot_opts *o)
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
 * A character's width as drawn: 1 on the text terminal; in SVG taken as
 * 0.62 of the font's 12 points (12 pixels); pngcairo draws its 10 points
 * at 96 dpi, 13.3 pixels, whose characters measured 7.3 pixels wide on
 * the compare chart (taken as 7.4)
 */
double plot_char_px(const struct plot_opts *o)
{
	return o->format == PLOT_TEXT ? 1 : o->format == PLOT_SVG ? 12 * 0.62 : 10 * 0.74;
}

/*
 * A line of text as a gnuplot string expression, wrapped at a space onto
 * further lines where it is wider than chars characters (0: never); a
 * word longer than that alone is cut, with "..." saying so.
 */
void plot_put_wrapped(FILE *f, const char *text, int chars)
{
	size_t max = chars > 3 ? (size_t)chars : 0, cut;
	char *buf = strdup(text), *p = buf;

	if (!buf) {
		/* a title is no reason to fail the chart: the line unwrapped */
		plot_put_str(f, text);
		return;
	}
	while (max && strlen(p) > max) {
		for (cut = max; cut > max / 2 && p[cut] != ' '; cut--)
			;
		if (p[cut] != ' ')
			break;
		p[cut] = '\0';
		plot_put_str(f, p);
		fprintf(f, " . \"\\n\" . ");
		p += cut + 1;
	}
	if (max && strlen(p) > max)
		strcpy(p + max - 3, "...");
	plot_put_str(f, p);
	free(buf);
}

/*
 * A title line: the text terminal drops a line wider than the picture
 * whole, so there it is wrapped (a width - 6 characters)
 */
void plot_put_line(FILE *f, const struct plot_opts *o, const char *text)
{
	plot_put_wrapped(f, text, o->format == PLOT_TEXT && o->width > 10 ? o->width - 6 : 0);
}

/* a gnuplot string expression: the first line and, if any, the second */
void plot_put_title_expr(FILE *f, const struct plot_opts *o, const char *first,
			 const char *second)
{
	plot_put_line(f, o, first);
	if (second && *second) {
		fprintf(f, " . \"\\n\" . ");
		plot_put_line(f, o, second);
	}
}

void plot_put_title(FILE *f, const struct plot_opts *o, const char *first, const char *second)
{
	fprintf(f, "set title ");
	plot_put_title_expr(f, o, first, second);
	plot_put_emulated(f, o);
	fprintf(f, "\n");
}

void plot_put_emulated(FILE *f, const struct plot_opts *o)
{
	if (!o->emulated)
		return;
	fprintf(f, " . \"\\n\" . ");
	plot_put_line(f, o, PLOT_EMULATED_LINE);
}

/*
 * Axis titles with their units.  The text terminal cannot rotate text and
 * drops a vertical label, so there they sit above the axes, level.
 */
void plot_put_ylabels(FILE *f, const struct plot_opts *o, const char *left, const char *right)
{
	if (o->format != PLOT_TEXT) {
		fprintf(f, "set ylabel ");
		plot_put_str(f, left);
		if (right) {
			fprintf(f, "\nset y2label ");
			plot_put_str(f, right);
		}
		fprintf(f, "\n");
		return;
	}
	/* rows for a two-line title and, under it, the axis titles */
	fprintf(f, "set tmargin 5\nset title offset 0,1\nunset ylabel\nset label 101 ");
	plot_put_str(f, left);
	fprintf(f, " at graph 0, graph 1 offset -1,1 left\n");
	if (right) {
		fprintf(f, "unset y2label\nset label 102 ");
		plot_put_str(f, right);
		fprintf(f, " at graph 1, graph 1 offset 1,1 right\n");
	}
}

void plot_span_add(struct plot_span *sp, double v)
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
void plot_put_range(FILE *f, const char *axis, bool zoom, struct plot_span sp)
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
void plot_block_begin(FILE *f, const char *name, const char *columns)
{
	fprintf(f, "$%s << EOD\n# %s\n", name, columns);
}

void plot_block_end(FILE *f)
{
	fprintf(f, "EOD\n");
}

int plot_pick_format(const char *output, bool text, enum plot_format *format)
{
	const char *dot;

	if (!output || !strcmp(output, "-")) {
		*format = PLOT_TEXT;
		return 0;
	}
	dot = strrchr(plot_base_name(output), '.');
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
