/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between progs/bpf_hashmap_full_update_bench.c and its userspace half. */
#ifndef __FULL_UPDATE_H
#define __FULL_UPDATE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* upstream's sizes: a 1000-entry map, 10000 updates per trigger */
#define FULL_UPDATE_MAX_ENTRIES	1000
#define FULL_UPDATE_NR_LOOPS	10000

/*
 * One per CPU, cumulative, added to atomically: two producers on one CPU
 * can preempt each other inside the program.
 */
struct full_update_cpu {
	__u64 updates;	/* updates done (bpf_loop() iterations) */
	__u64 time_ns;	/* the batches' time, bpf_ktime_get_ns() */
	__u64 batches;
	__u64 last_ns;	/* the time of the CPU's last batch, what upstream prints */
};

/*
 * A producer's counters are bench_prod_counter (bench_producer.h): hits
 * are updates done, and each update ends in exactly one of:
 */
#define FULL_UPDATE_FAILED	0	/* an error: the full map's -E2BIG, the measured path */
#define FULL_UPDATE_DONE	1	/* success: the map was not full, must stay 0 */

#endif /* __FULL_UPDATE_H */
