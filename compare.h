/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __COMPARE_H
#define __COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

/* `bench compare BASE.json NEW.json`: 0, 1 (regression, when asked), 2 (error) */
int bench_compare_main(int argc, char **argv);

/* number of configuration options that differ, described in out */
int compare_options_differ(json_t *a, json_t *b, char *out, size_t sz);
/*
 * "better", "worse", "within noise", "within resolution" (the difference is
 * below what the measurement resolves; resolution 0: unknown) or "n/a";
 * *worse set for "worse"
 */
const char *compare_verdict(double base, double new, double p, double threshold_pct,
			    double resolution, bool higher_is_better, int *worse);

#endif /* __COMPARE_H */
