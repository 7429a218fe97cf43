/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LOCAL_STORAGE_BENCH_H
#define __LOCAL_STORAGE_BENCH_H

/*
 * What the local-storage-cache-* programs and their userspace half share
 * (upstream keeps these in sync by hand in both files).
 */

/* the outer arrays' size: --nr_maps may not exceed it */
#define LS_MAX_NR_MAPS		1000
/* each hash map of hashmap-control: capacity, all of it filled */
#define LS_HASHMAP_SZ		4194304
/* storage gets or hash lookups per trigger, bpf_loop()'s count */
#define LS_LOOP_NR		10000

/* the per-producer error counters (struct bench_prod_counter's errs[]) */
#define LS_IMPORTANT_HITS	0	/* gets of map 0, the "important" one */
#define LS_GET_ERRS		1	/* a missing inner map, a failed get or lookup: must stay 0 */

#endif /* __LOCAL_STORAGE_BENCH_H */
