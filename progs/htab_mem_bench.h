/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between progs/htab_mem_bench.c and benchs/bench_htab_mem.c. */
#ifndef __HTAB_MEM_BENCH_H
#define __HTAB_MEM_BENCH_H

/* map operations per trigger, and so the size of each producer's key slice */
#define HTAB_MEM_OPS_PER_TRIGGER 64

/*
 * One producer's counters.  Only that producer's thread writes them and
 * userspace only reads them, so the program needs no atomics; the padding
 * keeps producers on different cache lines.
 */
struct htab_mem_prod_stats {
	__u64 ops;		/* operations done: 64 map updates or deletes = 1 op */
	__u64 update_fails;	/* bpf_map_update_elem() that returned an error */
	__u64 delete_fails;	/* bpf_map_delete_elem() that returned an error */
	__u64 pad[13];
};

#endif /* __HTAB_MEM_BENCH_H */
