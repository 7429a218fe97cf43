/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUN_LATENCY_H
#define __RUN_LATENCY_H

/*
 * --latency, the runner's side: the histogram map the benchmark handed
 * over is read once per sample tick; the difference from the previous
 * tick is that sample's distribution, and the measured samples' ones add
 * up to the run's.
 */
#include "run.h"

/* the metrics the runner adds: per-op p50 and p99 of each sample */
extern const struct bench_metric lat_p50_metric;
extern const struct bench_metric lat_p99_metric;
/* the robust per-op cost: each sample's median per-op time, interpolated in its bucket */
extern const struct bench_metric op_ns_metric;

/* after setup(): the map was handed over; calibrate the timer */
int run_latency_start(struct bench_run *run);
/*
 * A new baseline (a repeat starts; its set-up may have handed over a new
 * map): what came before is nobody's sample.
 */
int run_latency_rebase(struct bench_run *run);
/*
 * Once per tick, around measure(): the histogram is read just before and
 * just after the benchmark's counters, so that the triggers that ended
 * in between (res->lat_edge) bound how far the two counts may differ.
 */
int run_latency_before_measure(struct bench_run *run);
/* res->lat_* from this interval's histogram */
int run_latency_sample(struct bench_run *run, struct bench_res *res, bool measured);
void run_latency_free(struct bench_run *run);
/*
 * For a thread other than the sampler (an interleaved run's slicer, which
 * reads the histogram at every slice's end): the batches' histogram
 * summed over CPUs into out, read through its own buffer percpu of
 * run_latency_nr_cpus() entries.  After run_latency_start(); 0, or a
 * negative errno.
 */
int run_latency_nr_cpus(void);
int run_latency_read_batches(struct lat_hist *percpu, __u64 *out);

#endif /* __RUN_LATENCY_H */
