/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PRODUCER_COUNTERS_H
#define __PRODUCER_COUNTERS_H

/*
 * Userspace half of progs/bench_producer.h: tells a BPF program who the
 * producers are and collects their counters.  Every BPF benchmark uses it
 * the same way:
 *
 *   setup():    open the skeleton, bench_producers_prepare() (before load:
 *               ids into rodata, maps sized), load, bench_producers_open()
 *   producer:   bench_producer_register(), then trigger in a loop
 *   measure():  bench_producers_collect()
 *   teardown(): bench_producers_close()
 */
#include <stddef.h>
#include <bpf/libbpf.h>

#include "progs/bench_producer.h"

struct bench_res;

struct bench_producers {
	int nr;
	int tids_fd;
	struct bench_prod_counter *counters;	/* the mmap()ed counters map */
	size_t counters_len;
	__u64 *prev_hits;			/* hits at the previous collect */
};

/*
 * Before load: fill ids (the skeleton's rodata bench_ids) with our pid
 * namespace and tgid, and size the two maps to nr producers.  0, or a
 * negative errno after bench_failed()'s line.
 */
int bench_producers_prepare(struct bench_producers *bp, struct bench_prod_ids *ids,
			    struct bpf_map *tids, struct bpf_map *counters, int nr);

/* After load: map the counters.  Same convention. */
int bench_producers_open(struct bench_producers *bp, struct bpf_map *tids,
			 struct bpf_map *counters);

/*
 * In producer thread idx, before its first trigger.  A failure goes to the
 * runner (bench_producer_fail()), which ends the run; the producer then
 * returns.
 */
int bench_producer_register(struct bench_producers *bp, int idx);

/* each producer's hits since the previous call into res->prod_hits, their sum into res->hits */
void bench_producers_collect(struct bench_producers *bp, struct bench_res *res);

/* the error counters summed over all producers, since the start */
void bench_producers_errs(const struct bench_producers *bp, __u64 errs[BENCH_PROD_NR_ERRS]);

/*
 * Exact counts: a producer that loops with bench_producer_loop() stops
 * after its current trigger once bench_producers_quiesce() is called, and
 * parks until the process exits; quiesce waits until all nr have (a
 * producer whose registration failed counts as parked).  Then no BPF
 * program of ours is running and the counters no longer move.  0, or
 * -ETIMEDOUT after timeout_ms.  Idempotent; the run ends after it.
 */
void bench_producer_loop(void (*trigger)(void));
int bench_producers_quiesce(int nr, int timeout_ms);

/* unmap and free; idempotent.  Only from the thread that collects. */
void bench_producers_close(struct bench_producers *bp);

#endif /* __PRODUCER_COUNTERS_H */
