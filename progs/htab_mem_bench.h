/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between progs/htab_mem_bench.c and benchs/bench_htab_mem.c. */
#ifndef __HTAB_MEM_BENCH_H
#define __HTAB_MEM_BENCH_H

/* map operations per trigger, and so the size of each producer's key slice */
#define HTAB_MEM_OPS_PER_TRIGGER 64
/* --key-offset: the keys stay far below 2^32 with any producer count */
#define HTAB_MEM_MAX_KEY_OFFSET 1000000000

/*
 * A producer's counters are bench_prod_counter (bench_producer.h): hits
 * are operations done (64 map updates or deletes = 1 op), and errs are:
 */
#define HTAB_MEM_UPDATE_FAILS	0	/* bpf_map_update_elem() that returned an error */
#define HTAB_MEM_DELETE_FAILS	1	/* bpf_map_delete_elem() that returned an error */

#endif /* __HTAB_MEM_BENCH_H */
