/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __COMPARE_H
#define __COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats.h"

/* `bench compare BASE.json NEW.json`: 0, 1 (regression, when asked), 2 (error) */
int bench_compare_main(int argc, char **argv);

/*
 * --threshold PCT, compare's and plot's: 0, or EINVAL (for argp) after one
 * line naming the value and what is accepted
 */
int compare_parse_threshold(const char *arg, double *pct);

struct result_file;

/*
 * Are a and b runs of one benchmark and configuration (result_config_keys
 * and the benchmark's options; runner option `ignore`, e.g. "producers",
 * aside)?  0 when they are, or when force is set (the difference is then
 * a warning on warn); otherwise -EINVAL after one line on stderr,
 * "<verb>: ... refusing to <verb> ... (--force <verb>s anyway)".
 */
int compare_same_config(const struct result_file *a, const struct result_file *b,
			const char *ignore, bool force, const char *verb, FILE *warn);
/*
 * "better", "worse", "within noise", "within resolution" (the difference is
 * below what the measurement resolves; resolution 0: unknown) or "n/a";
 * *worse set for "worse"
 */
const char *compare_verdict(double base, double new, double p, double threshold_pct,
			    double resolution, bool higher_is_better, int *worse);

/*
 * A verdict of "within noise" for a change of at least threshold_pct that
 * missed p < 0.05 on a test with fewer than 4 degrees of freedom: the
 * observations were too few to tell, not the change too small.  True then.
 */
bool compare_too_few(double base, double new, double p, double df, double threshold_pct);

/*
 * Peak memory is one value per run, so it gets no test: "within resolution",
 * "within threshold", "higher (one value, untested)" or "lower (...)"
 */
const char *compare_peak_verdict(double base, double new, double threshold_pct, double resolution);

#endif /* __COMPARE_H */
