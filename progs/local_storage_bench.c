// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-cache-*: on each getpgid() of a producer, LS_LOOP_NR
 * bpf_task_storage_get()s on the current task, walking num_maps task
 * storage maps in order (interleave: and map 0, the "important" one,
 * again after every third), or, for the control, as many lookups of
 * random keys in hash maps.  A task keeps its storages on a list with a
 * cache of 16 slots: past 16 maps a get may walk the list, which is the
 * cliff upstream's benchmark shows.
 *
 * Upstream runs on fentry on the syscall; where the kernel refuses
 * fentry, the syscall's tracepoint (benchs/lib_hook.h).  Each pair of
 * programs references one outer map only, so that the other is not
 * created: only the chosen program is loaded (SEC("?...")).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"
#include "local_storage_bench.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_NR_MAPS);
	__type(key, int);
	__type(value, int);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
		__uint(map_flags, BPF_F_NO_PREALLOC);
		__type(key, int);
		__type(value, int);
	});
} array_of_local_storage_maps SEC(".maps");

/*
 * The inner maps userspace creates hold LS_HASHMAP_SZ entries; the
 * kernel does not compare capacities of inner hash maps, so the template
 * libbpf creates at load (and frees) is kept to one entry, rather than a
 * preallocated 4M-entry map charged to the run's cgroup for nothing.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_NR_MAPS);
	__type(key, int);
	__type(value, int);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_HASH);
		__uint(max_entries, 1);
		__type(key, int);
		__type(value, int);
	});
} array_of_hash_maps SEC(".maps");

/* set by userspace before load */
const volatile __u32 num_maps = 1;
const volatile __u32 hashmap_num_keys = 1;
const volatile __u32 interleave;

struct loop_ctx {
	struct task_struct *task;
	__u64 hits;
	__u64 important_hits;
	__u64 errs;
};

static __always_inline void storage_get(__u32 elem, struct loop_ctx *c)
{
	void *inner;
	int init = 0;

	inner = bpf_map_lookup_elem(&array_of_local_storage_maps, &elem);
	if (!inner) {
		c->errs++;
		return;
	}
	if (!bpf_task_storage_get(inner, c->task, &init, BPF_LOCAL_STORAGE_GET_F_CREATE))
		c->errs++;
	c->hits++;
	if (!elem)
		c->important_hits++;
}

static __always_inline void hashmap_get(__u32 elem, struct loop_ctx *c)
{
	void *inner;
	int key;

	inner = bpf_map_lookup_elem(&array_of_hash_maps, &elem);
	if (!inner) {
		c->errs++;
		return;
	}
	key = bpf_get_prandom_u32() % hashmap_num_keys;
	/* every key below LS_HASHMAP_SZ was filled in */
	if (!bpf_map_lookup_elem(inner, &key))
		c->errs++;
	c->hits++;
	if (!elem)
		c->important_hits++;
}

static long storage_loop(__u32 index, void *ctx)
{
	struct loop_ctx *c = ctx;
	__u32 map_idx = index % num_maps;

	storage_get(map_idx, c);
	if (interleave && map_idx % 3 == 0)
		storage_get(0, c);
	return 0;
}

static long hashmap_loop(__u32 index, void *ctx)
{
	struct loop_ctx *c = ctx;

	hashmap_get(index % num_maps, c);
	return 0;
}

/* loop: storage_loop or hashmap_loop; the counts go to the producer that triggered */
#define RUN_GETS(loop) ({						\
	struct bench_prod_counter *__p;					\
	struct loop_ctx __c = {};					\
	__u32 __idx;							\
									\
	__p = bench_this_producer(&__idx);				\
	if (__p) {							\
		__c.task = bpf_get_current_task_btf();			\
		bpf_loop(LS_LOOP_NR, loop, &__c, 0);			\
		__p->hits += __c.hits;					\
		__p->errs[LS_IMPORTANT_HITS] += __c.important_hits;	\
		__p->errs[LS_GET_ERRS] += __c.errs;			\
	}								\
	0;								\
})

SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int get_local_fentry(void *ctx)
{
	return RUN_GETS(storage_loop);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int get_local_tp(void *ctx)
{
	return RUN_GETS(storage_loop);
}

SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int get_hash_fentry(void *ctx)
{
	return RUN_GETS(hashmap_loop);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int get_hash_tp(void *ctx)
{
	return RUN_GETS(hashmap_loop);
}
