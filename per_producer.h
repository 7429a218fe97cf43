/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PER_PRODUCER_H
#define __PER_PRODUCER_H

/* Each producer's rate over the measured samples, and how fair they were. */
#include <jansson.h>

#include "run.h"

struct prod_rates {
	int n;
	double *rate;		/* in the benchmark's per-producer unit */
	long long *count;
	double total;
	double min, max;
	double jain;		/* Jain's fairness index */
};

/* -ENODATA when no measured sample carries per-producer counts */
int prod_rates_compute(const struct bench_run *run, struct prod_rates *pr);
void prod_rates_free(struct prod_rates *pr);
const char *prod_rate_unit(const struct bench *b);

/* the --per-producer lines after the Summary */
void per_producer_report(const struct bench_run *run);
/* the "per_producer" member of the JSON result; null without counts */
json_t *per_producer_json(const struct bench_run *run);

#endif /* __PER_PRODUCER_H */
