// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot: the command line and the dispatcher.  It parses the options,
 * loads and checks the result files (as compare does, by
 * result_file_load()), labels the runs, and hands them to the chart
 * kind's own file (plot_timeline.c, plot_scaling.c, plot_compare.c,
 * plot_latency.c; `plot history` to plot_history.c), then to gnuplot
 * (plot_gnuplot.c).  What the charts share is in plot_common.c.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_exit.h"
#include "bench_limits.h"
#include "cli_files.h"
#include "compare.h"
#include "plot.h"
#include "result_label.h"
#include "plot_common.h"
#include "result_file.h"
#include "suggest.h"

/* the chart kinds, in enum plot_kind's order */
static const struct plot_chart {
	const char *name;
	/* the option every run of the chart shares: no label names it */
	const char *shared;
	int (*script)(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f);
} charts[] = {
	[PLOT_TIMELINE] = { "timeline", NULL, plot_timeline_script },
	[PLOT_SCALING] = { "scaling", "producers", plot_scaling_script },
	[PLOT_COMPARE] = { "compare", NULL, plot_compare_script },
	[PLOT_LATENCY] = { "latency", "latency", plot_latency_script },
};
#define NR_CHARTS (sizeof(charts) / sizeof(charts[0]))

static const char *kind_name(enum plot_kind k)
{
	return charts[k].name;
}

/* give every run without --label one made of the options that set it apart */
static int set_labels(struct plot_run *runs, int n, char **owned, const char *skip)
{
	int i, j;

	for (i = 0; i < n; i++) {
		owned[i] = NULL;
		if (runs[i].label)
			continue;
		owned[i] = plot_options_text(runs, n, i, false, skip);
		if (!owned[i])
			return plot_nomem("label the runs");
		/* nothing sets it apart (one run): its file name */
		runs[i].label = *owned[i] ? owned[i] : plot_base_name(runs[i].path);
	}
	/* the same configuration twice: the file names tell the runs apart */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && owned[i] && !strcmp(runs[i].label, runs[j].label))
				runs[i].label = plot_base_name(runs[i].path);
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

static int check_same_benchmark(const struct plot_opts *o, struct plot_run *runs, int n)
{
	int i;

	for (i = 1; i < n; i++) {
		if (strcmp(plot_benchmark_of(&runs[0]), plot_benchmark_of(&runs[i])) == 0)
			continue;
		if (o->force) {
			fprintf(stderr, "warning: different benchmarks: %s vs %s\n",
				plot_benchmark_of(&runs[0]), plot_benchmark_of(&runs[i]));
			continue;
		}
		fprintf(stderr, "refusing to plot different benchmarks in one chart: '%s' (%s) vs '%s' (%s) (--force plots anyway)\n",
			plot_benchmark_of(&runs[0]), runs[0].path, plot_benchmark_of(&runs[i]), runs[i].path);
		return -EINVAL;
	}
	return 0;
}

/* the labelled runs' script after the terminal, from the chart kind's file */
static int put_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f)
{
	char **owned = calloc(n, sizeof(*owned));
	struct plot_opts oe = *o;
	int err, i;

	if (!owned)
		return plot_nomem("build the gnuplot script");
	for (i = 0; i < n; i++)
		oe.emulated |= result_emulated(runs[i].rf.doc);
	err = set_labels(runs, n, owned, charts[o->kind].shared);
	if (!err) {
		fprintf(f, "# bench plot %s\n", kind_name(o->kind));
		plot_put_terminal(f, o);
		err = charts[o->kind].script(&oe, runs, n, f);
	}
	free_labels(runs, n, owned);
	free(owned);
	return err;
}

int plot_build_script(const struct plot_opts *o, struct plot_run *runs, int n, char **script)
{
	char *buf = NULL;
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
	f = open_memstream(&buf, &len);
	if (!f)
		return plot_nomem("build the gnuplot script");
	err = put_script(o, runs, n, f);
	if (fclose(f) && !err)
		err = plot_nomem("build the gnuplot script");
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
	struct compare_params prm;	/* compare's options, as compare takes them */
	const char *output;
	bool text, table, size_set;
	const char *files[BENCH_MAX_FILES];
	int nfiles;
	const char *labels[BENCH_MAX_FILES];
	int nlabels;
} cli;

enum { ARG_TEXT = 1000, ARG_LABEL, ARG_ZOOM, ARG_SIZE, ARG_TABLE };

static const struct argp_option plot_options[] = {
	{ "output", 'o', "FILE", 0, "Write the chart to FILE: .svg, .png, .txt (text), - (text on stdout)" },
	{ "text", ARG_TEXT, NULL, 0, "Draw the chart as text (on stdout without -o)" },
	{ "label", ARG_LABEL, "TEXT", 0, "Name of the next run in the legend (once per file, in order; compare: or once per side, base then new)" },
	{ "zoom", ARG_ZOOM, NULL, 0, "Fit the rate axes to the data instead of starting them at 0" },
	{ "size", ARG_SIZE, "WxH", 0, "Picture size: pixels (default 900x560), characters for text (default 79x32)" },
	{ "table", ARG_TABLE, NULL, 0, "scaling: print the scaling table instead of a chart" },
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
	case ARGP_KEY_INIT:
		/* compare's own options (compare_test_argp) fill cli.prm */
		state->child_inputs[0] = &cli.prm;
		break;
	case 'o':
		cli.output = arg;
		break;
	case ARG_TEXT:
		cli.text = true;
		break;
	case ARG_LABEL:
		return cli_take(cli.labels, &cli.nlabels, "plot", "--label options", arg) ? EINVAL : 0;
	case ARG_ZOOM:
		cli.o.zoom = true;
		break;
	case ARG_SIZE:
		return parse_size(arg);
	case ARG_TABLE:
		cli.table = true;
		break;
	case ARGP_KEY_ARG:
		if (arg == sides_mark)
			return split_here();
		return cli_take(cli.files, &cli.nfiles, "plot", "result files", arg) ? EINVAL : 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child plot_children[] = { { &compare_test_argp }, {} };

static const struct argp plot_argp = {
	.options = plot_options,
	.parser = plot_parse,
	.children = plot_children,
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

static int pick_format(void)
{
	if (!cli.output && !cli.text && !cli.table) {
		fprintf(stderr, "plot needs -o FILE (.svg, .png, .txt) or -o - / --text for text on the terminal\n");
		return -EINVAL;
	}
	return plot_pick_format(cli.output, cli.text, &cli.o.format);
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
	if (result_file_summary_only(&run->rf)) {
		fprintf(stderr, "plot: %s: imported without samples (summary only): nothing to draw; bench compare reads it\n",
			run->path);
		result_file_free(&run->rf);
		return -EINVAL;
	}
	return 0;
}

/* the chart kind argv[1] names, or one line saying which there are */
static int pick_kind(const char *name, enum plot_kind *kind)
{
	static const char *const kinds[] = { "timeline", "scaling", "compare", "latency", "history" };
	unsigned int k;

	for (k = 0; k < NR_CHARTS; k++) {
		if (!strcmp(name, charts[k].name)) {
			*kind = k;
			return 0;
		}
	}
	fprintf(stderr, "unknown chart type '%s': ", name);
	suggest_print(stderr, name, kinds, sizeof(kinds) / sizeof(kinds[0]));
	fprintf(stderr, "expected timeline, scaling, compare, latency or history\n");
	return -EINVAL;
}

/* argp over KIND [OPTION...] FILES; usage and errors read "bench plot KIND" */
static int parse_args(int argc, char **argv)
{
	struct argp kind_argp = plot_argp;
	char name[64], *kind = argv[1];
	int err;

	kind_argp.args_doc = cli.o.kind == PLOT_COMPARE ?
		"BASE.json NEW.json\nBASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...]" :
		"RUN.json...";
	snprintf(name, sizeof(name), "bench plot %s", kind);
	argv[1] = name;
	err = mark_sides(argc - 1, argv + 1);
	if (!err && argp_parse(&kind_argp, argc - 1, argv + 1, 0, NULL, NULL))
		err = -EINVAL;
	argv[1] = kind;
	cli.o.threshold_pct = cli.prm.threshold_pct;
	cli.o.force = cli.prm.force;
	cli.o.rank = cli.prm.rank;
	cli.o.paired = cli.prm.paired;
	cli.o.trimmed = cli.prm.trimmed;
	cli.o.include_invalid = cli.prm.include_invalid;
	return err;
}

/* what argp cannot check: options that go with one kind, the output, the labels */
static int check_args(void)
{
	if (cli.o.nbase && cli.nfiles == cli.o.nbase) {
		fprintf(stderr, "plot compare: no NEW result file after '--' (usage: BASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...])\n");
		return -EINVAL;
	}
	if ((cli.o.rank || cli.o.paired || cli.o.trimmed) && cli.o.kind != PLOT_COMPARE) {
		fprintf(stderr, "--rank, --paired and --trimmed are for compare charts only\n");
		return -EINVAL;
	}
	if (cli.table && cli.o.kind != PLOT_SCALING) {
		fprintf(stderr, "--table is for scaling charts only\n");
		return -EINVAL;
	}
	if (pick_format())
		return -EINVAL;
	if (cli.nfiles == 0) {
		fprintf(stderr, "plot %s needs result files (bench --json FILE); got none\n",
			kind_name(cli.o.kind));
		return -EINVAL;
	}
	/* a compare chart's sides may have a label each (base, new) */
	if (cli.nlabels && cli.nlabels != cli.nfiles && !(cli.o.nbase && cli.nlabels == 2)) {
		fprintf(stderr, "%d --label for %d files: give one per file, in order, %sor none\n",
			cli.nlabels, cli.nfiles,
			cli.o.kind == PLOT_COMPARE ? "one per side (base, new), " : "");
		return -EINVAL;
	}
	return 0;
}

/* the picture's size without --size: a text chart fits a terminal */
static void default_size(void)
{
	if (cli.size_set)
		return;
	cli.o.width = cli.o.format == PLOT_TEXT ? 79 : 900;
	cli.o.height = cli.o.format == PLOT_TEXT ? (cli.o.kind == PLOT_SCALING ? 44 : 32) : 560;
	if (cli.o.kind == PLOT_SCALING && cli.o.format != PLOT_TEXT)
		cli.o.height = 820;
}

/* file i's --label: one a file, or one a side of a compare chart; NULL: none */
static const char *label_of(int i, int nbase)
{
	if (!cli.nlabels)
		return NULL;
	if (cli.nlabels == cli.nfiles)
		return cli.labels[i];
	return cli.labels[i < nbase ? 0 : 1];
}

/*
 * Load the files into runs (cli.nfiles of them), leaving invalid runs out
 * (a run whose producers were starved is no figure of the kernel) unless
 * --include-invalid, or the timeline has nothing else to draw: there the
 * chart shows what went wrong.  Those drawn carry the reason as a banner.
 * *nruns of them loaded, to be freed, even on failure.
 */
static int load_runs(struct plot_run *runs, int *nruns)
{
	int i, base_given = cli.o.nbase, err, invalid = 0;
	bool include = cli.prm.include_invalid;

	if (!include && cli.o.kind == PLOT_TIMELINE) {
		for (i = 0; i < cli.nfiles; i++) {
			runs[i].path = cli.files[i];
			runs[i].label = label_of(i, base_given);
			err = plot_load(&runs[i]);
			if (err) {
				*nruns = i;
				return err;
			}
			invalid += runs[i].rf.invalid;
		}
		for (i = 0; i < cli.nfiles; i++)
			result_file_free(&runs[i].rf);
		if (invalid == cli.nfiles) {
			fprintf(stderr, "plot: every file is an invalid run: drawn with its reason, to show what went wrong\n");
			include = true;
		}
	}
	for (i = 0, *nruns = 0; i < cli.nfiles; i++) {
		runs[*nruns].path = cli.files[i];
		runs[*nruns].label = label_of(i, base_given);
		err = plot_load(&runs[*nruns]);
		if (err)
			return err;
		if (result_file_kept(&runs[*nruns].rf, "plot", include)) {
			(*nruns)++;
			continue;
		}
		result_file_free(&runs[*nruns].rf);
		/* plot compare's sides: the base files are the first nbase */
		if (i < base_given)
			cli.o.nbase--;
	}
	if (*nruns < cli.nfiles)
		fprintf(stderr, "plot: left out %d of %d files as invalid runs (producers starved); --include-invalid keeps them, marked\n",
			cli.nfiles - *nruns, cli.nfiles);
	if (base_given && (!cli.o.nbase || cli.o.nbase == *nruns)) {
		fprintf(stderr, "plot: no valid %s file left: nothing to compare\n",
			cli.o.nbase ? "new" : "base");
		return -EINVAL;
	}
	if (!*nruns) {
		fprintf(stderr, "plot: no valid file: nothing to draw\n");
		return -EINVAL;
	}
	return 0;
}

/* the script, once the output is known to be writable; *script malloc'ed */
static int build(struct plot_run *runs, int n, char **script)
{
	int err = plot_build_script(&cli.o, runs, n, script);

	if (!err && cli.output && strcmp(cli.output, "-"))
		err = plot_check_output(cli.output);
	return err;
}

/* gnuplot draws the script and the picture is written: 0 or -errno after one line */
static int draw(const char *script)
{
	char *img = NULL;
	size_t img_len = 0;
	int err;

	err = plot_run_gnuplot(script, &img, &img_len);
	if (!err)
		err = plot_write_output(cli.output ? cli.output : "-", img, img_len);
	free(img);
	return err;
}

/* the kind, the options, the files: 0 or -EINVAL after one line */
static int parse_command(int argc, char **argv)
{
	int err;

	cli = (struct plot_cli){ .prm = { .threshold_pct = 2.0 } };
	err = pick_kind(argv[1], &cli.o.kind);
	if (!err)
		err = parse_args(argc, argv);
	if (!err)
		err = check_args();
	if (!err)
		default_size();
	return err;
}

int bench_plot_main(int argc, char **argv)
{
	struct plot_run *runs = NULL;
	char *script = NULL;
	int i, nruns = 0, err, ret;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-?"))) {
		argp_help(&plot_argp, stdout, ARGP_HELP_STD_HELP, "bench plot");
		return BENCH_EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "plot needs a chart type first: timeline, scaling, compare, latency or history\n");
		return BENCH_EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "history"))
		return bench_plot_history_main(argc - 1, argv + 1);
	if (parse_command(argc, argv))
		return BENCH_EXIT_BAD_INPUT;
	runs = calloc(cli.nfiles, sizeof(*runs));
	err = runs ? load_runs(runs, &nruns) : plot_nomem("load the result files");
	if (!err && cli.table)
		err = plot_scaling_table(&cli.o, runs, nruns, stdout);
	else if (!err)
		err = build(runs, nruns, &script);
	if (!err && script)
		err = draw(script);
	/* -EINVAL is the input's (a bad BENCH_GNUPLOT_TIMEOUT too); gnuplot's and the writing's failures the plot's */
	ret = bench_exit_status(err);
	for (i = 0; i < nruns; i++)
		result_file_free(&runs[i].rf);
	free(runs);
	free(script);
	return ret;
}
