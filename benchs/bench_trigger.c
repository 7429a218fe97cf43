// SPDX-License-Identifier: GPL-2.0
/*
 * trig-base: the producers' raw getpgid() syscall rate with no BPF program
 * attached.  Every trigger-based benchmark (htab-mem included) runs under
 * this ceiling, so it tells how much of their time is the syscall itself.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

static struct counter *trig_hits;

static void trig_base_setup(void)
{
	/* one cache line per producer, so producers do not slow each other */
	trig_hits = aligned_alloc(BENCH_CACHELINE, env.producer_cnt * sizeof(*trig_hits));
	if (!trig_hits)
		bench_fatal("failed to allocate counters: %s", strerror(ENOMEM));
	memset(trig_hits, 0, env.producer_cnt * sizeof(*trig_hits));
}

static void trig_base_teardown(void)
{
	/* producers may still be running: they end with the process */
}

static void *trig_base_producer(void *input)
{
	long idx = (long)input;

	for (;;) {
		(void)syscall(__NR_getpgid);
		atomic_inc(&trig_hits[idx].value);
	}
	return NULL;
}

static void trig_base_measure(struct bench_res *res)
{
	long v;
	int i;

	res->hits = 0;
	for (i = 0; i < env.producer_cnt; i++) {
		v = atomic_swap(&trig_hits[i].value, 0);
		res->prod_hits[i] = v;
		res->hits += v;
	}
	res->has_prod_hits = true;
}

const struct bench bench_trig_base = {
	.name = "trig-base",
	.desc = "getpgid() syscall rate of the producers, no BPF program attached",
	.setup = trig_base_setup,
	.producer_thread = trig_base_producer,
	.measure = trig_base_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.teardown = trig_base_teardown,
	.metrics = hits_drops_metrics,
};
