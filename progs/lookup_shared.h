/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LOOKUP_SHARED_H
#define __LOOKUP_SHARED_H

/*
 * Layouts shared by the lookup benchmarks' BPF programs and their
 * userspace halves.  vmlinux.h provides the __u types on the BPF side.
 */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* bpf-hashmap-lookup: timings kept per CPU, the most recent ones */
#define HASHMAP_LOOKUP_NR_SLOTS	32
#define HASHMAP_LOOKUP_KEY_MAX	1024

/*
 * One per CPU (a per-CPU array entry).  Each CPU has its own key buffer
 * because two producers on two CPUs rewriting one shared key would make
 * each other's lookups miss.
 */
struct hashmap_lookup_cpu {
	__u8 key[HASHMAP_LOOKUP_KEY_MAX];
	/* timings recorded so far; slot = nr_samples % NR_SLOTS */
	__u64 nr_samples;
	/* bpf_ktime_get_ns() (CLOCK_MONOTONIC) at the start of each timing */
	__u64 start_ns[HASHMAP_LOOKUP_NR_SLOTS];
	__u64 dur_ns[HASHMAP_LOOKUP_NR_SLOTS];
	/* lookups that found nothing: must stay 0 */
	__u64 misses;
	/* bpf_loop() calls that did not run all their iterations */
	__u64 loop_errors;
};

/* lookup microbenchmarks: lookups per trigger, as in map_perf_test */
#define MAP_LOOKUP_PER_TRIGGER	64
/* every map has this many entries; hash maps get MAP_LOOKUP_FILL of them */
#define MAP_LOOKUP_ENTRIES	1024
/* half full: a realistic load, and an LRU map never needs to evict */
#define MAP_LOOKUP_FILL		512
/* the bench_prod_counter error counter of the lookup microbenchmarks */
#define MAP_LOOKUP_MISSES	0	/* lookups that found nothing: must stay 0 */

#endif /* __LOOKUP_SHARED_H */
