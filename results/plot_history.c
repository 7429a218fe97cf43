// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot history: `bench history show`'s trend as a chart.  One kernel
 * build (release and build id) per x position, in version order; per machine, each kernel's
 * mean of its runs' means joined by a line, error bars of the standard
 * deviation between runs where there are two or more, and every run's
 * own mean as a small hollow point, so one run is never drawn as a
 * settled figure.  The axis starts at zero, as every rate and memory axis of bench
 * plot does.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_exit.h"
#include "history.h"
#include "history_cli.h"
#include "plot_common.h"

static const char *const machine_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
};
#define NR_COLORS (sizeof(machine_colors) / sizeof(machine_colors[0]))

/* the distinct kernels, in the rows' (version) order */
struct kernels {
	const char **name;
	int n;
};

static int kernel_index(const struct kernels *k, const char *name)
{
	int i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->name[i], name))
			return i;
	return -1;
}

static int collect_kernels(const struct history_rows *rows, struct kernels *k)
{
	int i;

	k->n = 0;
	k->name = calloc(rows->n, sizeof(*k->name));
	if (!k->name)
		return -ENOMEM;
	for (i = 0; i < rows->n; i++)
		if (rows->row[i].has_metric && !isnan(rows->row[i].mean) &&
		    kernel_index(k, rows->row[i].kernel_build) < 0)
			k->name[k->n++] = rows->row[i].kernel_build;
	return 0;
}

/* the machines, in first-seen order */
static int machine_index(const char **m, int *n, const char *name)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(m[i], name))
			return i;
	m[(*n)++] = name;
	return i;
}

/* data blocks: $mN "x mean stddev runs" per machine, $rN "x run_mean" */
static int put_data(FILE *f, const struct history_rows *rows, const struct kernels *k,
		    const char **machines, int *nm, double *ymax)
{
	struct history_group g;
	int i = 0, j, m, ret;

	*nm = 0;
	for (i = 0; i < rows->n; i++)
		if (rows->row[i].has_metric && !isnan(rows->row[i].mean))
			machine_index(machines, nm, rows->row[i].machine);
	for (m = 0; m < *nm; m++) {
		fprintf(f, "$m%d << EOD\n# kernel_index mean stddev_between_runs runs\n", m);
		i = 0;
		while ((ret = history_next_group(rows, &i, &g)) > 0) {
			if (strcmp(g.first->machine, machines[m]))
				continue;
			fprintf(f, "%d %.9g %.9g %d\n", kernel_index(k, g.first->kernel_build), g.st.mean,
				g.n > 1 ? g.st.stddev : 0.0, g.n);
			*ymax = fmax(*ymax, g.st.mean + (g.n > 1 ? g.st.stddev : 0));
		}
		if (ret < 0)
			return ret;
		fprintf(f, "EOD\n$r%d << EOD\n# kernel_index run_mean\n", m);
		for (j = 0; j < rows->n; j++) {
			const struct history_row *r = &rows->row[j];

			if (!r->has_metric || isnan(r->mean) || strcmp(r->machine, machines[m]))
				continue;
			fprintf(f, "%d %.9g\n", kernel_index(k, r->kernel_build), r->mean);
			*ymax = fmax(*ymax, r->mean);
		}
		fprintf(f, "EOD\n");
	}
	return 0;
}

/* the first row with a value: it names the benchmark, metric and unit */
static const struct history_row *first_row(const struct history_rows *rows)
{
	int i;

	for (i = 0; i < rows->n; i++)
		if (rows->row[i].has_metric && !isnan(rows->row[i].mean))
			return &rows->row[i];
	return NULL;
}

/* title, axis labels with the metric's unit and direction, a tic per kernel */
static void history_axes(FILE *f, const struct plot_opts *o, const struct history_row *first,
			 const struct kernels *k, double ymax)
{
	char title[512];
	int i;

	snprintf(title, sizeof(title), "%s %s: %s across kernels", first->benchmark, first->config,
		 first->metric);
	plot_put_title(f, o, title, "line: mean of each kernel's runs; bars: stddev between runs (2 or more); points: each run");
	fprintf(f, "set xlabel \"kernel release and build\"\n");
	snprintf(title, sizeof(title), "%s (%s, %s is better)", first->metric, first->unit,
		 first->higher_is_better ? "higher" : "lower");
	plot_put_ylabels(f, o, title, NULL);
	fprintf(f, "set xrange [-0.5:%d.5]\nset yrange [0:%.9g]\nset grid\nset key below left Left reverse\n",
		k->n - 1, ymax > 0 ? ymax * 1.15 : 1.0);
	fprintf(f, "set xtics (");
	for (i = 0; i < k->n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		plot_put_str(f, k->name[i]);
		fprintf(f, " %d", i);
	}
	fprintf(f, ")%s\n", o->format == PLOT_TEXT ? "" : " rotate by -20");
}

/* the plot command: each machine's runs and bars first, its mean line on top */
static void history_lines(FILE *f, const struct plot_opts *o, const char **machines, int nm)
{
	int i;

	fprintf(f, "plot \\\n");
	for (i = 0; i < nm; i++) {
		const char *c = machine_colors[i % NR_COLORS];

		if (o->format == PLOT_TEXT)
			fprintf(f, "  $r%d using 1:2 with points lt %d pt %d notitle, \\\n", i, i + 1, i + 1);
		else
			fprintf(f, "  $m%d using 1:2:3 with yerrorbars lc rgb \"%s\" pt 0 notitle, \\\n"
				   "  $r%d using 1:2 with points lc rgb \"%s\" pt 6 ps 0.7 notitle, \\\n",
				i, c, i, c);
	}
	for (i = 0; i < nm; i++) {
		if (o->format == PLOT_TEXT)
			fprintf(f, "  $m%d using 1:2 with linespoints lt %d pt %d title ", i, i + 1, i + 1);
		else
			fprintf(f, "  $m%d using 1:2 with linespoints lc rgb \"%s\" lw 2 pt 7 ps 1.4 title ",
				i, machine_colors[i % NR_COLORS]);
		plot_put_str(f, machines[i]);
		fprintf(f, "%s\n", i == nm - 1 ? "" : ", \\");
	}
}

static int history_script(const struct plot_opts *o, const struct history_rows *rows, FILE *f)
{
	const struct history_row *first = first_row(rows);
	struct plot_opts oe = *o;
	const char **machines;
	struct kernels k;
	double ymax = 0;
	int nm, err, i;

	for (i = 0; i < rows->n; i++)
		oe.emulated |= rows->row[i].emulated && rows->row[i].has_metric;

	machines = calloc(rows->n, sizeof(*machines));
	if (!machines || collect_kernels(rows, &k)) {
		free(machines);
		return plot_nomem("build the history chart");
	}
	plot_put_terminal(f, o);
	err = put_data(f, rows, &k, machines, &nm, &ymax);
	if (!err) {
		history_axes(f, &oe, first, &k, ymax);
		history_lines(f, o, machines, nm);
	}
	free(machines);
	free(k.name);
	return err;
}

static struct {
	const char *output;
	bool text;
} pcli;

enum { ARG_TEXT = 2000 };

static const struct argp_option plot_history_options[] = {
	{ "output", 'o', "FILE", 0, "Write the chart to FILE: .svg, .png, .txt (text), - (text on stdout)" },
	{ "text", ARG_TEXT, NULL, 0, "Draw the chart as text (on stdout without -o)" },
	{},
};

static error_t plot_history_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'o':
		pcli.output = arg;
		break;
	case ARG_TEXT:
		pcli.text = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* the options and the selection (history_cli.h's): 0 or -EINVAL after one line */
static int parse_args(int argc, char **argv, struct plot_opts *o)
{
	static const struct argp_child children[] = { { &history_sel_argp }, {} };
	struct argp a = { .options = plot_history_options, .parser = plot_history_parse,
			  .doc = "Draw the trend of one metric across kernels (bench history show) "
				 "as a chart.\vExit status: 0; 1 when the history could not be read, gnuplot "
				 "failed or writing failed; 2 on bad input.",
			  .children = children };
	char name[] = "bench plot history", *cmd = argv[0];
	int err;

	pcli.output = NULL;
	pcli.text = false;
	hcli = (struct history_cli){};
	argv[0] = name;
	err = argp_parse(&a, argc, argv, 0, NULL, NULL);
	argv[0] = cmd;
	if (err)
		return -EINVAL;
	if (hcli.nfiles) {
		fprintf(stderr, "plot history takes no files; extra argument '%s'\n", hcli.files[0]);
		return -EINVAL;
	}
	if (plot_pick_format(pcli.output, pcli.text, &o->format))
		return -EINVAL;
	o->width = o->format == PLOT_TEXT ? 79 : 900;
	o->height = o->format == PLOT_TEXT ? 32 : 560;
	return 0;
}

/* the rows' script, once the output is known to be writable; *script malloc'ed */
static int build(const struct plot_opts *o, const struct history_rows *rows, char **script)
{
	size_t len = 0;
	FILE *f;
	int err;

	f = open_memstream(script, &len);
	if (!f)
		return plot_nomem("build the history chart");
	err = history_script(o, rows, f);
	if (fclose(f) && !err)
		err = plot_nomem("build the history chart");
	if (!err && pcli.output && strcmp(pcli.output, "-"))
		err = plot_check_output(pcli.output);
	return err;
}

int bench_plot_history_main(int argc, char **argv)
{
	struct plot_opts o = {};
	struct history_rows rows = {};
	char *script = NULL, *img = NULL;
	size_t img_len = 0;
	int err;

	err = parse_args(argc, argv, &o);
	if (!err)
		err = history_cli_select_trend(&rows);
	if (err)
		return bench_exit_status(err);	/* as history show's */
	err = build(&o, &rows, &script);
	/* the plot's failure, said by gnuplot's runner or the writer: -EINVAL its input's */
	if (!err)
		err = plot_run_gnuplot(script, &img, &img_len);
	if (!err)
		err = plot_write_output(pcli.output ? pcli.output : "-", img, img_len);
	history_rows_free(&rows);
	free(script);
	free(img);
	return bench_exit_status(err);
}
