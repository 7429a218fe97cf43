// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup microbenchmarks after samples/bpf/map_perf_test: each getpgid()
 * of a producer thread does MAP_LOOKUP_PER_TRIGGER lookups of existing keys
 * in one map.  One program per map type; userspace loads only the one it
 * measures and creates only that program's map.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "lookup_shared.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

/* our process, as seen from our pid namespace */
const volatile __u64 pidns_dev;
const volatile __u64 pidns_ino;
const volatile __u32 bench_tgid;

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

/* producer thread id (in our pid namespace) -> producer index */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAP_LOOKUP_MAX_PRODUCERS);
	__type(key, __u32);
	__type(value, __u32);
} producers SEC(".maps");

/* --latency: each trigger's 64 lookups, timed */
LAT_HIST_MAP();

struct prod_counter prod_hits[MAP_LOOKUP_MAX_PRODUCERS];
__u64 misses;

/* index of the producer thread running us, or -1 if it is not one */
static __always_inline __u32 producer_index(void)
{
	struct bpf_pidns_info ns = {};
	__u32 *idx;

	if (bpf_get_ns_current_pid_tgid(pidns_dev, pidns_ino, &ns, sizeof(ns)) ||
	    ns.tgid != bench_tgid)
		return -1;
	idx = bpf_map_lookup_elem(&producers, &ns.pid);
	return idx ? *idx : -1;
}

static __always_inline void account(__u32 idx, __u32 missed)
{
	if (idx >= MAP_LOOKUP_MAX_PRODUCERS)
		return;
	__sync_fetch_and_add(&prod_hits[idx].hits, MAP_LOOKUP_PER_TRIGGER - missed);
	if (missed)
		__sync_fetch_and_add(&misses, missed);
}

/*
 * Unrolled, so every lookup names the map directly and the verifier can
 * inline it (the reference's point): a loop with a helper callback would
 * measure the callback too.
 */
#define LOOKUP_PROG(prog, map)						\
SEC("?tp/syscalls/sys_enter_getpgid")					\
int prog(void *ctx)							\
{									\
	__u32 idx = producer_index(), missed = 0, key, i;		\
	__u64 t;							\
									\
	if (idx >= MAP_LOOKUP_MAX_PRODUCERS)				\
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
	account(idx, missed);						\
	return 0;							\
}

LOOKUP_PROG(hash_lookup, hash_map)
LOOKUP_PROG(array_lookup, array_map)
LOOKUP_PROG(pcpu_hash_lkup, pcpu_hash_map)
LOOKUP_PROG(pcpu_array_lkup, pcpu_array_map)
LOOKUP_PROG(lru_hash_lookup, lru_hash_map)
