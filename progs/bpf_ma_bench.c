// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_ma: the BPF memory allocator driven directly, without a map in
 * between.  On each getpgid() of a producer, a batch of bpf_obj_new()
 * (--percpu: bpf_percpu_obj_new()) objects is stashed with
 * bpf_kptr_xchg() in the producer's own slots, then the batch is taken
 * back out and dropped; both halves are timed.
 *
 * The kfuncs are typed per object: bpf_obj_new() takes a type, not a
 * size.  So every size --obj-size accepts has its object type, its stash
 * and its program, made by one macro; userspace loads the one asked for.
 * The sizes are bpf_ma_bench.h's list.
 *
 * The program is tp_btf/sys_enter: kfuncs need a BTF-typed program, and a
 * raw tracepoint also loads where fentry is refused.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "bench_producer.h"
#include "bpf_experimental.h"
#include "bpf_ma_bench.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

/* set before load */
const volatile __u32 batch_size = BPF_MA_BATCH_DEFAULT;
const volatile long getpgid_nr = -1;

struct bpf_ma_prod bpf_ma_prods[BENCH_PROD_MAX];

/* set by userspace once sampling is over: no trigger starts after it */
volatile __u32 stopped;

LAT_HIST_MAP();

struct batch_ctx {
	__u32 base;
	__u32 done;
	__u64 stale;
};

#define BPF_MA_SIZE(N, NEW, DROP, TAG, PFX)					\
struct PFX##obj_##N {								\
	char data[N - BPF_MA_HDR];						\
};										\
/* clang 14 drops a type tag on a pointer to a struct, not on one to a typedef */ \
typedef struct PFX##obj_##N PFX##obj_##N##_t;					\
struct PFX##slot_##N {								\
	PFX##obj_##N##_t TAG *p;						\
};										\
struct {									\
	__uint(type, BPF_MAP_TYPE_ARRAY);					\
	__type(key, __u32);							\
	__type(value, struct PFX##slot_##N);					\
	__uint(max_entries, 1);			/* producers x batch */		\
} PFX##stash_##N SEC(".maps");							\
										\
static long PFX##alloc_one_##N(__u32 i, void *data)				\
{										\
	struct batch_ctx *c = data;						\
	struct PFX##obj_##N *obj, *old;						\
	struct PFX##slot_##N *slot;						\
	__u32 key = c->base + i;						\
										\
	slot = bpf_map_lookup_elem(&PFX##stash_##N, &key);			\
	if (!slot)								\
		return 1;							\
	obj = NEW(bpf_core_type_id_local(struct PFX##obj_##N), NULL);		\
	if (!obj)								\
		return 1;							\
	c->done++;								\
	old = bpf_kptr_xchg(&slot->p, obj);					\
	if (old) {								\
		c->stale++;							\
		DROP(old, NULL);						\
	}									\
	return 0;								\
}										\
										\
static long PFX##free_one_##N(__u32 i, void *data)				\
{										\
	struct batch_ctx *c = data;						\
	struct PFX##slot_##N *slot;						\
	struct PFX##obj_##N *old;						\
	__u32 key = c->base + i;						\
										\
	slot = bpf_map_lookup_elem(&PFX##stash_##N, &key);			\
	if (!slot)								\
		return 1;							\
	old = bpf_kptr_xchg(&slot->p, NULL);					\
	if (!old)								\
		return 1;							\
	DROP(old, NULL);							\
	c->done++;								\
	return 0;								\
}										\
										\
SEC("?tp_btf/sys_enter")							\
int BPF_PROG(PFX##bench_##N, struct pt_regs *regs, long id)			\
{										\
	if (id != getpgid_nr)							\
		return 0;							\
	return trigger(PFX##alloc_one_##N, PFX##free_one_##N);			\
}

/*
 * One trigger: the alloc batch into the producer's slots, then the free
 * batch out of them, each timed.  Allocation stops at the first failure;
 * the free batch then drops what was allocated.
 */
static __always_inline int trigger(void *alloc_one, void *free_one)
{
	struct bench_prod_counter *cnt;
	struct batch_ctx a = {}, f = {};
	struct bpf_ma_prod *p;
	__u64 t0, t1, t2;
	__u32 idx;

	if (stopped)
		return 0;
	cnt = bench_this_producer(&idx);
	if (!cnt || idx >= BENCH_PROD_MAX)
		return 0;
	p = &bpf_ma_prods[idx];
	/* odd while in a trigger: userspace waits for even after stopping */
	p->in_trigger++;
	a.base = f.base = idx * batch_size;

	t0 = bpf_ktime_get_ns();
	bpf_loop(batch_size, alloc_one, &a, 0);
	t1 = bpf_ktime_get_ns();
	bpf_loop(batch_size, free_one, &f, 0);
	t2 = bpf_ktime_get_ns();

	p->alloc_ns += t1 - t0;
	p->free_ns += t2 - t1;
	p->stale += a.stale;
	cnt->hits += a.done;
	cnt->errs[BPF_MA_FREED] += f.done;
	if (a.done < batch_size)
		cnt->errs[BPF_MA_ALLOC_FAILS]++;
	/* --latency: the whole trigger, batch_size allocs and frees */
	lat_record(t2 - t0);
	p->in_trigger++;
	return 0;
}

#define KMALLOC_SIZE(N) BPF_MA_SIZE(N, bpf_obj_new_impl, bpf_obj_drop_impl, __kptr, )
#define PERCPU_SIZE(N) \
	BPF_MA_SIZE(N, bpf_percpu_obj_new_impl, bpf_percpu_obj_drop_impl, __percpu_kptr, percpu_)

BPF_MA_SIZES(KMALLOC_SIZE)
BPF_MA_PERCPU_SIZES(PERCPU_SIZE)

/*
 * --footprint: every kmalloc() and per-CPU allocation made from the BPF
 * memory allocator's code is recorded by address with its bytes, and a
 * free of a recorded address takes them back.  The sums are what the
 * allocator holds beyond what it held at attach, exactly: whatever pages
 * the kernel already had populated, which the system-wide growth cannot
 * see.  The range of kernel/bpf/memalloc.c's text comes from kallsyms.
 * The map is preallocated: its updates take no memory, from the allocator
 * or elsewhere.  Raw tracepoints: their arguments are plain u64s, where a
 * tp_btf program may not read kmalloc's const void * on 6.12.
 */
const volatile __u64 ma_text_lo, ma_text_hi;

struct bpf_ma_fp fp;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct bpf_ma_fp_key);
	__type(value, __u64);
	__uint(max_entries, BPF_MA_FP_ENTRIES);
} fp_live SEC(".maps");

static __always_inline bool from_ma(unsigned long call_site)
{
	return call_site >= ma_text_lo && call_site < ma_text_hi;
}

static __always_inline void fp_record(const void *ptr, __u32 kind, __u64 bytes)
{
	struct bpf_ma_fp_key k = { .ptr = (__u64)ptr, .kind = kind };

	if (!ptr)
		return;
	if (bpf_map_update_elem(&fp_live, &k, &bytes, BPF_NOEXIST)) {
		__sync_fetch_and_add(&fp.untracked, 1);
		return;
	}
	__sync_fetch_and_add(&fp.live[kind], bytes);
}

static __always_inline void fp_forget(const void *ptr, __u32 kind)
{
	struct bpf_ma_fp_key k = { .ptr = (__u64)ptr, .kind = kind };
	__u64 *v = bpf_map_lookup_elem(&fp_live, &k);
	__s64 bytes;

	if (!v)
		return;
	bytes = *v;
	/* another CPU's free of the same address took it first */
	if (bpf_map_delete_elem(&fp_live, &k))
		return;
	__sync_fetch_and_add(&fp.live[kind], -bytes);
	__sync_fetch_and_add(&fp.freed[kind], 1);
}

SEC("?raw_tp/kmalloc")
int BPF_PROG(fp_kmalloc, unsigned long call_site, const void *ptr, size_t bytes_req,
	     size_t bytes_alloc)
{
	if (from_ma(call_site))
		fp_record(ptr, BPF_MA_FP_SLAB, bytes_alloc);
	return 0;
}

SEC("?raw_tp/kfree")
int BPF_PROG(fp_kfree, unsigned long call_site, const void *ptr)
{
	if (from_ma(call_site))
		fp_forget(ptr, BPF_MA_FP_SLAB);
	return 0;
}

/* bytes_alloc: the size on every possible CPU */
SEC("?raw_tp/percpu_alloc_percpu")
int BPF_PROG(fp_pcpu_alloc, unsigned long call_site, bool reserved, bool is_atomic, size_t size,
	     size_t align, void *base_addr, int off, void *ptr, size_t bytes_alloc)
{
	if (from_ma(call_site))
		fp_record(ptr, BPF_MA_FP_PERCPU, bytes_alloc);
	return 0;
}

/* no call site here: only a recorded address counts */
SEC("?raw_tp/percpu_free_percpu")
int BPF_PROG(fp_pcpu_free, void *base_addr, int off, void *ptr)
{
	fp_forget(ptr, BPF_MA_FP_PERCPU);
	return 0;
}
