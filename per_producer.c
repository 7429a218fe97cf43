// SPDX-License-Identifier: GPL-2.0
/*
 * Each producer's rate over the measured samples and how fair they were:
 * the --per-producer lines and their JSON block.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "per_producer.h"

const char *prod_rate_unit(const struct bench *b)
{
	return b->prod_rate_unit ? b->prod_rate_unit : "M/s";
}

static double prod_scale(const struct bench *b)
{
	return b->prod_rate_scale > 0 ? b->prod_rate_scale : 1e6;
}

/* rate of each producer over all measured samples that carry counts */
int prod_rates_compute(const struct bench_run *run, struct prod_rates *pr)
{
	const struct bench_res *res = run_measured(run);
	int i, j, res_cnt = run_measured_cnt(run);
	long long ns = 0;

	memset(pr, 0, sizeof(*pr));
	for (i = 0; i < res_cnt; i++)
		if (res[i].has_prod_hits)
			ns += res[i].delta_ns;
	if (ns <= 0)
		return -ENODATA;
	pr->n = run->producer_cnt;
	pr->rate = calloc(pr->n, sizeof(*pr->rate));
	pr->count = calloc(pr->n, sizeof(*pr->count));
	if (!pr->rate || !pr->count) {
		prod_rates_free(pr);
		return -ENOMEM;
	}
	for (i = 0; i < res_cnt; i++) {
		if (!res[i].has_prod_hits)
			continue;
		for (j = 0; j < pr->n; j++)
			pr->count[j] += res[i].prod_hits[j];
	}
	for (j = 0; j < pr->n; j++) {
		pr->rate[j] = pr->count[j] * 1e9 / ns / prod_scale(run->bench);
		pr->total += pr->rate[j];
	}
	pr->min = pr->max = pr->rate[0];
	for (j = 1; j < pr->n; j++) {
		pr->min = fmin(pr->min, pr->rate[j]);
		pr->max = fmax(pr->max, pr->rate[j]);
	}
	pr->jain = jain_index(pr->rate, pr->n);
	return 0;
}

void prod_rates_free(struct prod_rates *pr)
{
	free(pr->rate);
	free(pr->count);
	pr->rate = NULL;
	pr->count = NULL;
}

void per_producer_report(const struct bench_run *run)
{
	const int *cpu = run->prod_cpu;
	struct prod_rates pr;
	int j, err;

	err = prod_rates_compute(run, &pr);
	if (err == -ENODATA) {
		fprintf(stderr, "per-producer counts are not available for benchmark '%s'\n",
			run->bench->name);
		return;
	}
	if (err) {
		fprintf(stderr, "failed to compute per-producer rates: %s\n", strerror(-err));
		return;
	}
	printf("Per-producer rates (%s):\n", prod_rate_unit(run->bench));
	for (j = 0; j < pr.n; j++) {
		if (cpu[j] >= 0)
			printf("  producer %3d (CPU %3d): %10.3lf\n", j, cpu[j], pr.rate[j]);
		else
			printf("  producer %3d (CPU   -): %10.3lf\n", j, pr.rate[j]);
	}
	printf("  total                 : %10.3lf\n", pr.total);
	printf("Fairness: min %.3lf, max %.3lf, max/min %.3lf, Jain's index %.4lf\n",
	       pr.min, pr.max, pr.min > 0 ? pr.max / pr.min : INFINITY, pr.jain);
	prod_rates_free(&pr);
}

json_t *per_producer_json(const struct bench_run *run)
{
	const int *cpu = run->prod_cpu;
	struct prod_rates pr;
	json_t *prods, *o;
	int j;

	if (prod_rates_compute(run, &pr))
		return json_null();
	prods = json_array();
	for (j = 0; j < pr.n; j++)
		json_array_append_new(prods, json_pack("{s:i, s:o, s:I, s:o}", "producer", j,
			"cpu", cpu && cpu[j] >= 0 ? json_integer(cpu[j]) : json_null(),
			"count", (json_int_t)pr.count[j], "rate", json_finite(pr.rate[j])));
	o = json_pack("{s:s, s:o, s:o, s:{s:o, s:o, s:o, s:o}}", "unit", prod_rate_unit(run->bench),
		      "producers", prods, "total_rate", json_finite(pr.total),
		      "fairness", "min", json_finite(pr.min), "max", json_finite(pr.max),
		      "max_over_min", json_finite(pr.min > 0 ? pr.max / pr.min : NAN),
		      "jain_index", json_finite(pr.jain));
	prod_rates_free(&pr);
	return o;
}
