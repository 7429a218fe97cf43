// SPDX-License-Identifier: GPL-2.0
/*
 * trig-syscall-count: the producers' raw getpgid() syscall rate with no
 * BPF program attached, counted in userspace.  Every trigger-based
 * benchmark (htab-mem included) runs under this ceiling, so it tells how
 * much of their time is the syscall itself.  Upstream called it trig-base
 * until 2024; that name still selects it.  The symbol keeps the old name,
 * so the benchmark table's lines stay as they were.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

static struct counter *trig_hits;

static int trig_base_setup(void)
{
	/* one cache line per producer, so producers do not slow each other */
	return bench_alloc_prod_counters(&trig_hits);
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

static int trig_base_measure(struct bench_res *res)
{
	res->hits = bench_collect_prod_counters(trig_hits, res);
	return 0;
}

const struct bench bench_trig_base = {
	.name = "trig-syscall-count",
	.alias = "trig-base",
	.desc = "getpgid() syscall rate of the producers, no BPF program attached",
	.ext.setup = trig_base_setup,
	.producer_thread = trig_base_producer,
	.ext.measure = trig_base_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.metrics = hits_drops_metrics,
	.counted_by = BENCH_COUNTED_BY_USER,
};
