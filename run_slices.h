/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUN_SLICES_H
#define __RUN_SLICES_H

/*
 * One side of an interleaved A/B run (bench ab --interleave).  This run
 * and another bench process, each set up with its own configuration of
 * one benchmark, take turns on the producers' CPUs in slices of a few
 * milliseconds: a slicer thread releases this side's producers for one
 * slice, holds them again (a signal they wait out in user space), reads
 * the batches' histogram and passes the turn through the memory both
 * share (slice_gate.h).  The machine's state (a vCPU whose speed flips
 * within milliseconds, a neighbour) is then the same for A's and B's
 * neighbouring slices.  Off without $BENCH_AB_GATE.
 */
#include <pthread.h>
#include <stdbool.h>

#include "run.h"

/*
 * Before anything is set up: $BENCH_AB_GATE (the shared memory's fd) and
 * $BENCH_AB_SIDE (A or B) make this run a side; the memory is mapped and
 * the run's options checked (--latency, no --repeat).  0 (a side, or
 * none), or a negative errno after one line.
 */
int run_slices_open(const struct bench_run *run);
bool run_slices_on(void);
/* before the threads start: the signal that holds a producer */
int run_slices_arm(void);
/* in a producer thread, before its first trigger: held until its side's first slice */
void run_slices_hold_first(void);
/*
 * After the threads started: waits (at most a minute) until the other
 * side holds its producers too, then starts the slicer.  0, -EINTR when
 * a signal that ends the run is pending, or a negative errno after one
 * line (-ECANCELED: ab gave up on the other side).
 */
int run_slices_start(struct bench_run *run, const pthread_t *producers, int n);
/*
 * After the samples, on every path: no more turns; this side's producers
 * stay held, the other side's run alone.  Idempotent.
 */
void run_slices_stop(void);
/*
 * After the contention verdict: a side's rates count its own slices only,
 * so the result file is marked invalid for them, saying why (ab keeps it:
 * its metrics are timed per batch).  0, or the slicer's failure (a
 * negative errno, said when it happened): the run then fails.
 */
int run_slices_judge(struct bench_run *run);

#endif /* __RUN_SLICES_H */
