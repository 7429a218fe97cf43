// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace half of the "Adding a benchmark" example
 * (docs/adding-a-benchmark.md): producers call getpgid(), progs/example.c
 * counts the calls per producer.  tests/adding_a_benchmark.t copies it to
 * benchs/bench_example.c in a copy of the tree, adds the two lines to
 * bench.c's table, builds and runs it.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "producer_counters.h"
#include "example.skel.h"

static struct {
	struct example *skel;
	struct bench_producers prod;
} ctx;

static int example_setup(void)
{
	int err;

	ctx.skel = example__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open the example BPF object");
	err = bench_producers_prepare(&ctx.prod, &ctx.skel->rodata->bench_ids,
				      ctx.skel->maps.bench_producers,
				      ctx.skel->maps.bench_prod_counters, env.producer_cnt);
	if (err)
		return err;
	err = example__load(ctx.skel);
	if (err)
		return bench_failed(err, "load the example BPF program");
	err = bench_producers_open(&ctx.prod, ctx.skel->maps.bench_producers,
				   ctx.skel->maps.bench_prod_counters);
	if (err)
		return err;
	err = example__attach(ctx.skel);
	if (err)
		return bench_failed(err, "attach the example BPF program");
	return 0;
}

static void *example_producer(void *arg)
{
	if (bench_producer_register(&ctx.prod, (long)arg))
		return NULL;
	for (;;)
		syscall(__NR_getpgid);
	return NULL;
}

static int example_measure(struct bench_res *res)
{
	bench_producers_collect(&ctx.prod, res);
	return 0;
}

static void example_teardown(void)
{
	bench_producers_close(&ctx.prod);
	example__destroy(ctx.skel);
}

const struct bench bench_example = {
	.name = "example",
	.desc = "the adding-a-benchmark example: getpgid() calls counted per producer in BPF",
	.needs = BENCH_NEEDS_BPF_TRACING,
	.ext.setup = example_setup,
	.producer_thread = example_producer,
	.ext.measure = example_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_drops_report_final,
	.teardown = example_teardown,
	.metrics = hits_drops_metrics,
	.counted_by = BENCH_COUNTED_BY_BPF,
};
