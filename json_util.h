/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __JSON_UTIL_H
#define __JSON_UTIL_H

/* Small JSON values the result writer's modules share. */
#include <jansson.h>
#include <math.h>

#include "testing_helpers.h"

/* JSON has no NaN or infinity: a missing value is null */
static inline json_t *json_finite(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/*
 * A spread (stddev, cv, ci95) of n values: of one value it does not exist,
 * so null, never a 0 that reads as measured (docs/results-and-json.md)
 */
static inline json_t *json_spread(int n, double v)
{
	return n > 1 ? json_finite(v) : json_null();
}

/* a CPU list as a JSON array */
static inline json_t *cpu_list_json(const struct cpu_list *l)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < l->cnt; i++)
		json_array_append_new(a, json_integer(l->cpus[i]));
	return a;
}

#endif /* __JSON_UTIL_H */
