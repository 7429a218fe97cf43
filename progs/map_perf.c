// SPDX-License-Identifier: GPL-2.0
/*
 * The update tests of samples/bpf/map_perf_test, one program per test,
 * on the producers' getpgid() (the sample's kprobes on other syscalls
 * need kprobes; the tracepoint works everywhere).  Userspace loads only
 * the measured test's program and creates only its maps.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "map_perf.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

/* map_perf_test's maps and their sizes; --nr_entries resizes the measured one */
#define HASH_MAP(name, map_type, flags)				\
struct {							\
	__uint(type, map_type);					\
	__type(key, __u32);					\
	__type(value, long);					\
	__uint(max_entries, 1000);				\
	__uint(map_flags, flags);				\
} name SEC(".maps")

HASH_MAP(hash_map, BPF_MAP_TYPE_HASH, 0);
HASH_MAP(percpu_hash_map, BPF_MAP_TYPE_PERCPU_HASH, 0);
HASH_MAP(hash_map_alloc, BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC);
HASH_MAP(percpu_hash_map_alloc, BPF_MAP_TYPE_PERCPU_HASH, BPF_F_NO_PREALLOC);

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 10000);
} lru_hash_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 10000);
	__uint(map_flags, BPF_F_NO_COMMON_LRU);
} nocommon_lru_hash_map SEC(".maps");

/* one LRU map per CPU, created by userspace, which also sets the size */
struct inner_lru {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 1000);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);		/* possible CPUs */
	__type(key, __u32);
	__array(values, struct inner_lru);
} array_of_lru_hashs SEC(".maps");

struct lpm_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_key);
	__type(value, long);
	__uint(max_entries, 10000);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} lpm_trie_map_alloc SEC(".maps");

/* --latency: each trigger's operations, timed */
LAT_HIST_MAP();

/* only this producer's thread writes its counters */
static __always_inline void credit(struct bench_prod_counter *c, __u64 failed, __u64 done)
{
	c->hits++;
	c->errs[MAP_PERF_FAILED] += failed;
	c->errs[MAP_PERF_DONE] += done;
}

/*
 * map_perf_test's stress_hmap and its siblings: update the thread's key,
 * look it up, delete it if found.  A failed update is counted, and so is
 * every delete that found the key: updates = failed + deleted.
 */
static __always_inline int hash_stress(void *map)
{
	__u32 idx, key = bpf_get_current_pid_tgid(), i;
	struct bench_prod_counter *c;
	__u64 t, failed = 0, done = 0;
	long val = 1;

	c = bench_this_producer(&idx);
	if (!c)
		return 0;
	t = lat_start();
	for (i = 0; i < MAP_PERF_HASH_ROUNDS; i++) {
		if (bpf_map_update_elem(map, &key, &val, BPF_ANY)) {
			failed++;
			continue;
		}
		if (bpf_map_lookup_elem(map, &key) && !bpf_map_delete_elem(map, &key))
			done++;
	}
	lat_end(t);
	credit(c, failed, done);
	return 0;
}

SEC("?tp/syscalls/sys_enter_getpgid")
int mp_hash_pre(void *ctx)
{
	return hash_stress(&hash_map);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int mp_pcpu_pre(void *ctx)
{
	return hash_stress(&percpu_hash_map);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int mp_hash_kmalloc(void *ctx)
{
	return hash_stress(&hash_map_alloc);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int mp_pcpu_kmalloc(void *ctx)
{
	return hash_stress(&percpu_hash_map_alloc);
}

/* stress_lru_hmap_alloc: one update of a random key, evicting when full */
static __always_inline int lru_update(void *map)
{
	__u32 idx, key = bpf_get_prandom_u32();
	struct bench_prod_counter *c;
	long val = 1;
	int ret;
	__u64 t;

	c = bench_this_producer(&idx);
	if (!c)
		return 0;
	t = lat_start();
	ret = bpf_map_update_elem(map, &key, &val, BPF_ANY);
	lat_end(t);
	credit(c, ret != 0, ret == 0);
	return 0;
}

SEC("?tp/syscalls/sys_enter_getpgid")
int mp_lru_common(void *ctx)
{
	return lru_update(&lru_hash_map);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int mp_lru_percpu(void *ctx)
{
	return lru_update(&nocommon_lru_hash_map);
}

/* the running CPU's own LRU map, found through the array of maps */
SEC("?tp/syscalls/sys_enter_getpgid")
int mp_inner_lru(void *ctx)
{
	__u32 idx, cpu = bpf_get_smp_processor_id(), key = bpf_get_prandom_u32();
	struct bench_prod_counter *c;
	long val = 1;
	void *inner;
	int ret = -1;
	__u64 t;

	c = bench_this_producer(&idx);
	if (!c)
		return 0;
	t = lat_start();
	inner = bpf_map_lookup_elem(&array_of_lru_hashs, &cpu);
	if (inner)
		ret = bpf_map_update_elem(inner, &key, &val, BPF_ANY);
	lat_end(t);
	credit(c, ret != 0, ret == 0);
	return 0;
}

/* stress_lpm_trie_map_alloc: lookups of 192.168.0.1/32, which userspace added */
SEC("?tp/syscalls/sys_enter_getpgid")
int mp_lpm_kmalloc(void *ctx)
{
	struct lpm_key key = { .prefixlen = 32, .addr = { 192, 168, 0, 1 } };
	struct bench_prod_counter *c;
	__u64 t, failed, done = 0;
	__u32 idx, i;

	c = bench_this_producer(&idx);
	if (!c)
		return 0;
	t = lat_start();
#pragma clang loop unroll(full)
	for (i = 0; i < MAP_PERF_LPM_LOOKUPS; i++) {
		if (bpf_map_lookup_elem(&lpm_trie_map_alloc, &key))
			done++;
		/* count now: deferring keeps 32 results on the stack */
		asm volatile("" : "+r"(done));
	}
	failed = MAP_PERF_LPM_LOOKUPS - done;
	lat_end(t);
	credit(c, failed, done);
	return 0;
}
