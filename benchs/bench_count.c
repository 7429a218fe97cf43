// SPDX-License-Identifier: GPL-2.0
/*
 * count-global and count-local: pure userspace benchmarks that validate the
 * runner.  count-global has every producer atomically increment one shared
 * counter, so producers fight over one cache line and per-producer speed
 * collapses as producers are added.  count-local gives each producer its
 * own counter on its own cache line, so the total scales with producers.
 */
#include "bench.h"

static struct counter global_hits;
/*
 * Per-producer tallies for fairness, published every GLOBAL_BATCH
 * increments: one extra store per batch, on the producer's own cache line,
 * leaves the contended shared counter the thing being measured.
 */
#define GLOBAL_BATCH 1024
static struct counter *global_prod_hits;

static int count_global_setup(void)
{
	return bench_alloc_prod_counters(&global_prod_hits);
}

static void *count_global_producer(void *input)
{
	long idx = (long)input;
	int i;

	for (;;) {
		for (i = 0; i < GLOBAL_BATCH; i++)
			atomic_inc(&global_hits.value);
		atomic_add(&global_prod_hits[idx].value, GLOBAL_BATCH);
	}
	return NULL;
}

static int count_global_measure(struct bench_res *res)
{
	res->hits = atomic_swap(&global_hits.value, 0);
	bench_collect_prod_counters(global_prod_hits, res);
	return 0;
}

static struct counter *local_hits;

static int count_local_setup(void)
{
	return bench_alloc_prod_counters(&local_hits);
}

static void *count_local_producer(void *input)
{
	long idx = (long)input;

	for (;;)
		atomic_inc(&local_hits[idx].value);
	return NULL;
}

static int count_local_measure(struct bench_res *res)
{
	res->hits = bench_collect_prod_counters(local_hits, res);
	return 0;
}

const struct bench bench_count_global = {
	.name = "count-global",
	.desc = "producers atomically increment one shared counter",
	.ext.setup = count_global_setup,
	.producer_thread = count_global_producer,
	.ext.measure = count_global_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.metrics = hits_drops_metrics,
	.counted_by = BENCH_COUNTED_BY_USER,
};

const struct bench bench_count_local = {
	.name = "count-local",
	.desc = "each producer increments its own cache-line-separated counter",
	.ext.setup = count_local_setup,
	.producer_thread = count_local_producer,
	.ext.measure = count_local_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.metrics = hits_drops_metrics,
	.counted_by = BENCH_COUNTED_BY_USER,
};
