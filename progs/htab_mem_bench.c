// SPDX-License-Identifier: GPL-2.0
/*
 * Hash map operations for the htab-mem benchmark, triggered by the
 * producers' getpgid() syscalls.  Only the chosen use case's program is
 * loaded (SEC("?...")), and userspace sizes the maps before load.
 *
 * A producer is identified by its thread id (bench_producer.h), not by the
 * CPU it runs on: keying by CPU would make two unpinned producers that
 * share a CPU share a slice of the map, and would make add_del_on_diff_cpu's
 * roles depend on where the scheduler put each thread.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "htab_mem_bench.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);			/* --value-size */
	__uint(max_entries, 8192);		/* max(8192, 64 x possible CPUs) */
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* cleared by --preallocated */
} htab SEC(".maps");

/* --latency: each trigger's batch of map operations, timed */
LAT_HIST_MAP();

/*
 * --key-offset: the first key.  With BPF_F_ZERO_SEED (--zero-seed) the
 * keys alone decide the bucket layout, so an offset picks one layout that
 * two runs (bench ab's A and B of one block) can share.
 */
const volatile __u32 key_offset;

/* the largest value allowed; the map reads value_size bytes of it */
char zero_value[4096];

/*
 * upstream's op_cnt: one counter every trigger of every producer adds to
 * atomically.  With -p2 its cache line moves between the CPUs on every
 * trigger, and upstream's rates include that (at -p2 -a --preallocated,
 * where a batch is shortest, it adds about 5% to the per-op time, and ours
 * ran 1.11x upstream's rate without it), so by default ours pays it too;
 * nothing reads it.  --own-counter leaves it out: each producer then
 * counts only in its own cache line (bench_prod_counter).
 */
long op_cnt;
const volatile bool own_counter;

static __always_inline void count_shared(long n)
{
	if (!own_counter)
		__sync_fetch_and_add(&op_cnt, n);
}

struct slice_ctx {
	__u32 base;	/* first key of the slice */
	__u64 flags;	/* for updates */
	__u64 fails;
};

static long update_one(__u32 i, void *data)
{
	struct slice_ctx *c = data;
	__u32 key = c->base + i;

	if (bpf_map_update_elem(&htab, &key, zero_value, c->flags))
		c->fails++;
	return 0;
}

static long delete_one(__u32 i, void *data)
{
	struct slice_ctx *c = data;
	__u32 key = c->base + i;

	if (bpf_map_delete_elem(&htab, &key))
		c->fails++;
	return 0;
}

static void add_slice(struct bench_prod_counter *st, __u32 base, __u64 flags)
{
	struct slice_ctx c = { .base = base, .flags = flags };

	bpf_loop(HTAB_MEM_OPS_PER_TRIGGER, update_one, &c, 0);
	st->errs[HTAB_MEM_UPDATE_FAILS] += c.fails;
}

static void del_slice(struct bench_prod_counter *st, __u32 base)
{
	struct slice_ctx c = { .base = base };

	bpf_loop(HTAB_MEM_OPS_PER_TRIGGER, delete_one, &c, 0);
	st->errs[HTAB_MEM_DELETE_FAILS] += c.fails;
}

/* each producer overwrites the 64 elements of its own slice */
SEC("?tp/syscalls/sys_enter_getpgid")
int htab_mem_overwrite(void *ctx)
{
	struct bench_prod_counter *st;
	__u32 idx;
	__u64 t;

	st = bench_this_producer(&idx);
	if (!st)
		return 0;
	t = lat_start();
	add_slice(st, key_offset + idx * HTAB_MEM_OPS_PER_TRIGGER, BPF_ANY);
	count_shared(1);
	lat_extra_work();
	lat_end(t);
	st->hits++;
	return 0;
}

/*
 * Each producer adds its slice, then deletes it.  The keys are absent
 * before the adds, so BPF_NOEXIST costs the same as BPF_ANY but turns any
 * overlap between slices into a counted failure.
 */
SEC("?tp/syscalls/sys_enter_getpgid")
int htab_mem_batch_add_batch_del(void *ctx)
{
	struct bench_prod_counter *st;
	__u32 idx;
	__u64 t;

	st = bench_this_producer(&idx);
	if (!st)
		return 0;
	t = lat_start();
	add_slice(st, key_offset + idx * HTAB_MEM_OPS_PER_TRIGGER, BPF_NOEXIST);
	del_slice(st, key_offset + idx * HTAB_MEM_OPS_PER_TRIGGER);
	count_shared(2);
	lat_extra_work();
	lat_end(t);
	st->hits += 2;
	return 0;
}

/*
 * Producers 2k (adder) and 2k+1 (deleter) share slice k.  Userspace makes
 * the pair take turns, so every add finds the slice empty and every delete
 * finds it full: in a correct run nothing fails.
 */
SEC("?tp/syscalls/sys_enter_getpgid")
int htab_mem_add_del_on_diff_cpu(void *ctx)
{
	struct bench_prod_counter *st;
	__u32 idx, base;
	__u64 t;

	st = bench_this_producer(&idx);
	if (!st)
		return 0;
	base = key_offset + (idx / 2) * HTAB_MEM_OPS_PER_TRIGGER;
	t = lat_start();
	if (idx & 1)
		del_slice(st, base);
	else
		add_slice(st, base, BPF_NOEXIST);
	count_shared(1);
	lat_extra_work();
	lat_end(t);
	st->hits++;
	return 0;
}

/* the same trigger and producer lookup, no map work: the baseline */
SEC("?tp/syscalls/sys_enter_getpgid")
int htab_mem_no_op(void *ctx)
{
	struct bench_prod_counter *st;
	__u32 idx;
	__u64 t;

	st = bench_this_producer(&idx);
	if (!st)
		return 0;
	/* an empty batch: what the timing itself costs */
	t = lat_start();
	lat_end(t);
	st->hits++;
	return 0;
}
