/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PLOT_COMMON_H
#define __PLOT_COMMON_H

/*
 * Inside bench plot: what the chart kinds share (plot_common.c) and the
 * chart kinds themselves, one file each, which plot.c's command line and
 * plot_build_script() call.  Nothing here calls back into plot.c.
 */
#include <stdbool.h>
#include <stdio.h>

#include "plot.h"
#include "result_file.h"
#include "stats.h"

/* the runs' colours, run i in plot_run_colors[i % PLOT_NR_COLORS] */
#define PLOT_NR_COLORS 8
extern const char *const plot_run_colors[PLOT_NR_COLORS];

/* the smallest and largest value an axis shows */
struct plot_span {
	double lo, hi;
};

/* "failed to <what>: <strerror(ENOMEM)>" on stderr; -ENOMEM */
int plot_nomem(const char *what);

/* a run's figures as the charts read them */
const char *plot_base_name(const char *path);
const char *plot_benchmark_of(const struct plot_run *r);
const struct result_metric *plot_metric_of(const struct plot_run *r, const char *metric);
const char *plot_metric_unit(const struct plot_run *r, const char *metric);
const char *plot_primary_metric(const struct plot_run *r);
bool plot_has_memory(const struct plot_run *r);
struct stats plot_measured_stats(const struct plot_run *r, const char *metric);

/*
 * "key=value ..." of the options on which the runs agree (common = true)
 * or of run i's options on which they differ, key skip left out;
 * malloc'ed, NULL when out of memory
 */
char *plot_options_text(struct plot_run *runs, int n, int i, bool common, const char *skip);

/* gnuplot pieces: terminal, quoted string, title lines, axis labels */
void plot_put_terminal(FILE *f, const struct plot_opts *o);
void plot_put_str(FILE *f, const char *s);
void plot_put_line(FILE *f, const struct plot_opts *o, const char *text);
void plot_put_wrapped(FILE *f, const char *text, int chars);
/* a character's width in the picture's units (pixels; 1 for text) */
double plot_char_px(const struct plot_opts *o);
void plot_put_title_expr(FILE *f, const struct plot_opts *o, const char *first,
			 const char *second);
void plot_put_title(FILE *f, const struct plot_opts *o, const char *first, const char *second);
/*
 * With o->emulated (a run under TCG), " . \"\\n\" . " and the title's
 * last line, PLOT_EMULATED_LINE: every chart of such runs says so
 */
void plot_put_emulated(FILE *f, const struct plot_opts *o);
#define PLOT_EMULATED_LINE "EMULATED TIMINGS (TCG): rates are not hardware's; memory and counts are"
void plot_put_ylabels(FILE *f, const struct plot_opts *o, const char *left, const char *right);

/* axis ranges and data blocks */
void plot_span_add(struct plot_span *sp, double v);
void plot_put_range(FILE *f, const char *axis, bool zoom, struct plot_span sp);
void plot_block_begin(FILE *f, const char *name, const char *columns);
void plot_block_end(FILE *f);

/*
 * The chart kinds: each writes its part of the script (after the
 * terminal) for runs[0..n-1], labelled and of one benchmark; 0, or -errno
 * after one line on stderr.
 */
int plot_timeline_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f);
int plot_scaling_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f);
int plot_compare_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f);
int plot_latency_script(const struct plot_opts *o, struct plot_run *runs, int n, FILE *f);

/* `bench plot history ...` (plot_history.c): 0, 1 (gnuplot or writing failed), 2 (bad input) */
int bench_plot_history_main(int argc, char **argv);

#endif /* __PLOT_COMMON_H */
