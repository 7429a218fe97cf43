/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUN_CONTENTION_H
#define __RUN_CONTENTION_H

/*
 * How much of each sample's interval the producers really ran.  On a busy
 * machine a producer can be off its CPU for most of a second; its rate
 * then says nothing about the kernel under test.  Each tick the sampler
 * reads every producer's on-CPU time and involuntary context switches
 * (from files the producer opened on itself) and the machine's steal
 * time, and an invocation whose producers ran less than
 * --min-cpu-share of their measured time is marked invalid.
 */
#include <stdbool.h>

#include "run.h"

struct run_contention;

/* before the threads start: per-producer slots, the machine's counters */
int run_contention_init(struct bench_run *run);
/* in producer thread idx, before its first operation: open its own counters */
void run_contention_thread(struct bench_run *run, int idx);
/* a new baseline: the next sample's figures start now */
void run_contention_rebase(struct bench_run *run);
/* once per tick, after the interval ended: res's contention fields */
void run_contention_sample(struct bench_run *run, struct bench_res *res);
/*
 * After the measured samples: each producer's share over them; warns and
 * marks the run invalid below --min-cpu-share.  Benchmarks whose
 * producers wait by design are not judged (BENCH_CAP_PRODUCERS_SLEEP).
 */
void run_contention_judge(struct bench_run *run);
void run_contention_free(struct bench_run *run);

#endif /* __RUN_CONTENTION_H */
