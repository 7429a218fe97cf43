/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PLOT_H
#define __PLOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "result_file.h"

/*
 * `bench plot timeline|scaling|compare|latency FILES... -o OUT`: charts of result
 * files, drawn by gnuplot.  Building the gnuplot script (with its data
 * inline) is pure and unit-tested: plot.c dispatches to a file per chart
 * kind (plot_timeline.c, plot_scaling.c, plot_compare.c, plot_latency.c,
 * plot_history.c), which share plot_common.[ch].  Running gnuplot and
 * writing the file are separate (plot_gnuplot.c).
 */

enum plot_kind { PLOT_TIMELINE, PLOT_SCALING, PLOT_COMPARE, PLOT_LATENCY };
enum plot_format { PLOT_SVG, PLOT_PNG, PLOT_TEXT };

struct plot_opts {
	enum plot_kind kind;
	enum plot_format format;
	bool zoom;		/* rate axes fit the data instead of starting at 0 */
	bool force;		/* as compare's --force */
	double threshold_pct;	/* as compare's --threshold */
	bool rank, paired;	/* as compare's --rank, --paired */
	bool trimmed;		/* as compare's --trimmed */
	bool include_invalid;	/* as compare's --include-invalid */
	int nbase;		/* compare: base files before "--"; 0: two files, one a side */
	int width, height;	/* pixels (svg, png) or characters (text) */
	bool emulated;		/* a run ran under TCG: the title says its timings are emulated */
};

struct plot_run {
	const char *path;
	const char *label;	/* --label, or NULL: made from the options */
	struct result_file rf;	/* the checked file: everything plot reads */
};

/* 0: exit status 0; 1: gnuplot or writing failed; 2: bad input */
int bench_plot_main(int argc, char **argv);

/*
 * The gnuplot script for runs[0..n-1], data inline, in *script (malloc'ed).
 * 0, or -EINVAL after one line on stderr naming the bad input.  Sets the
 * labels of runs that have none.
 */
int plot_build_script(const struct plot_opts *o, struct plot_run *runs, int n, char **script);

/*
 * The scaling table (producers, per-producer rate ± stddev, total,
 * efficiency against linear from the smallest count) into f; the same
 * checks as the scaling chart.
 */
int plot_scaling_table(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f);

/*
 * run gnuplot on script, under a UTF-8 locale and BENCH_GNUPLOT_TIMEOUT;
 * its output in *out (malloc'ed), its warnings on stderr.  0, or -errno
 * after one line: -EINVAL for a bad BENCH_GNUPLOT_TIMEOUT alone.
 */
int plot_run_gnuplot(const char *script, char **out, size_t *len);

/* the format -o FILE asks for (NULL or "-": text); -EINVAL after one line */
int plot_pick_format(const char *output, bool text, enum plot_format *format);

/* fail early, before gnuplot runs, when path cannot be written: -EINVAL after one line */
int plot_check_output(const char *path);

/* write buf to path atomically ("-": stdout; FIFOs and devices directly) */
int plot_write_output(const char *path, const char *buf, size_t len);

#endif /* __PLOT_H */
