// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup microbenchmarks after samples/bpf/map_perf_test: each getpgid()
 * of a producer thread does MAP_LOOKUP_PER_TRIGGER lookups of existing keys
 * in one map.  One program per map type; userspace loads only the one it
 * measures and creates only that program's map.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "lookup_shared.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

#define LOOKUP_MAP(name, map_type)				\
struct {							\
	__uint(type, map_type);					\
	__uint(max_entries, MAP_LOOKUP_ENTRIES);		\
	__type(key, __u32);					\
	__type(value, __u64);					\
} name SEC(".maps")

LOOKUP_MAP(hash_map, BPF_MAP_TYPE_HASH);
LOOKUP_MAP(array_map, BPF_MAP_TYPE_ARRAY);
LOOKUP_MAP(pcpu_hash_map, BPF_MAP_TYPE_PERCPU_HASH);
LOOKUP_MAP(pcpu_array_map, BPF_MAP_TYPE_PERCPU_ARRAY);
LOOKUP_MAP(lru_hash_map, BPF_MAP_TYPE_LRU_HASH);

/* --latency: each trigger's 64 lookups, timed */
LAT_HIST_MAP();

/*
 * Unrolled, so every lookup names the map directly and the verifier can
 * inline it (the reference's point): a loop with a helper callback would
 * measure the callback too.
 */
#define LOOKUP_PROG(prog, map)						\
SEC("?tp/syscalls/sys_enter_getpgid")					\
int prog(void *ctx)							\
{									\
	struct bench_prod_counter *c;					\
	__u32 idx, missed = 0, key, i;					\
	__u64 t;							\
									\
	c = bench_this_producer(&idx);					\
	if (!c)								\
		return 0;						\
	t = lat_start();						\
	_Pragma("clang loop unroll(full)")				\
	for (i = 0; i < MAP_LOOKUP_PER_TRIGGER; i++) {			\
		key = i;						\
		if (!bpf_map_lookup_elem(&map, &key))			\
			missed++;					\
		/* count now: deferring keeps 64 results on the stack */ \
		asm volatile("" : "+r"(missed));			\
	}								\
	lat_end(t);							\
	/* only this producer's thread writes its counters */		\
	c->hits += MAP_LOOKUP_PER_TRIGGER - missed;			\
	c->errs[MAP_LOOKUP_MISSES] += missed;				\
	return 0;							\
}

LOOKUP_PROG(hash_lookup, hash_map)
LOOKUP_PROG(array_lookup, array_map)
LOOKUP_PROG(pcpu_hash_lkup, pcpu_hash_map)
LOOKUP_PROG(pcpu_array_lkup, pcpu_array_map)
LOOKUP_PROG(lru_hash_lookup, lru_hash_map)
