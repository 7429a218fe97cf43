/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RESULT_CONFIG_H
#define __RESULT_CONFIG_H

/*
 * A run's configuration, defined once: every option that changes what is
 * measured, with the defaults of the options a document leaves out filled
 * in.  compare, ab, plot, history and the exports call these and nothing
 * else to decide whether two runs are of one configuration and what to
 * call it.
 *
 * The runner's part: producers, consumers, affinity, prod_affinity,
 * cons_affinity, zero_seed, latency.  The benchmark's part: every key of
 * options.benchmark.  Not part of it: duration_sec, warmup_sec and repeat
 * (how long and how often one configuration was measured), and -q, -v,
 * --json, --stats, --per-producer (what is printed, not measured).
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The configuration as one flat object (runner keys, then the benchmark's),
 * defaults filled in; a new reference, NULL when out of memory.  A
 * benchmark option named like a runner option is kept as "benchmark.NAME".
 */
json_t *result_config(json_t *doc);

/*
 * The full key: the configuration's canonical JSON (keys sorted, compact),
 * defaults included; malloc'ed, NULL when out of memory.  Two documents are
 * of one configuration exactly when their benchmarks and keys are equal.
 */
char *result_config_key(json_t *doc);

/*
 * The short human label: the benchmark's headline value (htab-mem's use
 * case) bare, then "key=value" for every other option that is not at its
 * default, sorted by key; a true flag is its bare key.  "overwrite",
 * "overwrite value_size=4096", "overwrite preallocated producers=8",
 * "default" when everything is.  Different keys give different labels.
 */
void result_config_label(json_t *doc, char *buf, size_t sz);

/*
 * The label as one path component ([A-Za-z0-9_-], for KCIDB test paths and
 * lkp-tests keys): ' ' becomes '-', '=' becomes '_', anything else outside
 * the set '_'.  "overwrite-value_size_4096".
 */
void result_config_slug(json_t *doc, char *buf, size_t sz);

/* is this configuration's key (result_config()'s) at benchmark's default? */
bool result_config_is_default(const char *benchmark, json_t *config, const char *key);

/*
 * How many configuration options differ between two documents, skipping
 * the keys in ignore (NULL-terminated, or NULL); "key A vs B, ..." in out.
 */
int result_config_diff(json_t *a, json_t *b, const char *const *ignore, char *out, size_t sz);

#endif /* __RESULT_CONFIG_H */
