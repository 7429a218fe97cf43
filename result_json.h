/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RESULT_JSON_H
#define __RESULT_JSON_H

/*
 * The JSON document of a run (`--json`): the one definition of its schema
 * name and version, for the writer here and for the readers (compare).
 */
#include <jansson.h>

#include "json_util.h"
#include "run.h"
#include "stats.h"

#define RESULT_JSON_SCHEMA_NAME "bench-result"
#define RESULT_JSON_SCHEMA_VERSION 1

/* the whole document; NULL when out of memory */
json_t *result_json_doc(const struct bench_run *run);
/* options: the runner's and the benchmark's effective ones (describe_opts) */
json_t *result_json_options(const struct bench_run *run);
/* a metric's summary statistics, as every result file has them (n, mean, ...) */
json_t *result_json_stats(const struct stats *st);
/*
 * The robust summaries and Tukey's outliers of values[0..n) into s; an
 * outlier's "sample" is first_sample + its index (first_sample < 0: null)
 */
void result_json_robust(json_t *s, const double *values, int n, int first_sample);
/*
 * Refuse an unwritable destination before the benchmark runs; 0 or a
 * negative errno after one line on stderr.
 */
int result_json_precheck(const char *path);
/* the document as text (malloc'ed), or NULL after one line on stderr */
char *result_json_render(const struct bench_run *run);
/*
 * Write text to path through output_file; 0 or a negative errno after one
 * line on stderr (-EINTR: a signal ended the wait for a FIFO's reader).
 */
int result_json_write(const char *path, const char *text);

#endif /* __RESULT_JSON_H */
