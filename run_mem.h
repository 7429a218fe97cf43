/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUN_MEM_H
#define __RUN_MEM_H

/*
 * The run's memory cgroup (BENCH_NEEDS_MEMCG): created and joined before
 * the benchmark's set-up, so the maps it creates are charged there;
 * sampled at every tick; its peak read once before it is removed.
 */
#include "run.h"

/*
 * Never fails the run: where memory cannot be accounted it says why, once,
 * and the figures read n/a.  Fills run->mem.
 */
void run_mem_setup(struct bench_run *run, const char *bench_name);
/*
 * The breakdown fields the kernel offers (run->mem.fields) as metrics,
 * into out (room entries): their count, or -E2BIG.
 */
int run_mem_metrics(const struct bench_run *run, const struct bench_metric **out, int room);
/* "Memory: slab 1.23 MiB, percpu ..." over the measured samples; nothing without fields */
void run_mem_print_breakdown(const struct bench_run *run);
/*
 * res->mem_bytes: bytes charged now, -1 when unavailable; res->mem_stat:
 * the breakdown, -1 for a field that is absent or was not read
 */
void run_mem_sample(struct bench_res *res);
/* run->peak_mem_bytes, while the cgroup still exists */
void run_mem_read_peak(struct bench_run *run);
/* leave and remove the cgroup; idempotent */
void run_mem_destroy(void);

#endif /* __RUN_MEM_H */
