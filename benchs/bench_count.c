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

static void count_global_setup(void)
{
	global_prod_hits = aligned_alloc(BENCH_CACHELINE,
					 env.producer_cnt * sizeof(*global_prod_hits));
	if (!global_prod_hits)
		bench_fatal("failed to allocate counters: %s", strerror(ENOMEM));
	memset(global_prod_hits, 0, env.producer_cnt * sizeof(*global_prod_hits));
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

static void count_global_measure(struct bench_res *res)
{
	int i;

	res->hits = atomic_swap(&global_hits.value, 0);
	for (i = 0; i < env.producer_cnt; i++)
		res->prod_hits[i] = atomic_swap(&global_prod_hits[i].value, 0);
	res->has_prod_hits = true;
}

static struct counter *local_hits;

static void count_local_setup(void)
{
	/*
	 * aligned_alloc keeps each producer's counter on its own cache line.
	 * Never freed: producers spin on it until the process exits.
	 */
	local_hits = aligned_alloc(BENCH_CACHELINE, env.producer_cnt * sizeof(*local_hits));
	if (!local_hits)
		bench_fatal("failed to allocate counters: %s", strerror(ENOMEM));
	memset(local_hits, 0, env.producer_cnt * sizeof(*local_hits));
}

static void *count_local_producer(void *input)
{
	long idx = (long)input;

	for (;;)
		atomic_inc(&local_hits[idx].value);
	return NULL;
}

static void count_local_measure(struct bench_res *res)
{
	long v;
	int i;

	res->hits = 0;
	for (i = 0; i < env.producer_cnt; i++) {
		v = atomic_swap(&local_hits[i].value, 0);
		res->prod_hits[i] = v;
		res->hits += v;
	}
	res->has_prod_hits = true;
}

const struct bench bench_count_global = {
	.name = "count-global",
	.desc = "producers atomically increment one shared counter",
	.setup = count_global_setup,
	.producer_thread = count_global_producer,
	.measure = count_global_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.metrics = hits_drops_metrics,
};

const struct bench bench_count_local = {
	.name = "count-local",
	.desc = "each producer increments its own cache-line-separated counter",
	.setup = count_local_setup,
	.producer_thread = count_local_producer,
	.measure = count_local_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.metrics = hits_drops_metrics,
};
