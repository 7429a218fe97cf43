// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-full-update: on each getpgid() of a producer, update a key
 * that is not in a full preallocated hash map FULL_UPDATE_NR_LOOPS times.
 * Every update has to look for a free element and fail: what is timed is
 * the preallocated map's free-list path when it has nothing to give.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"
#include "full_update.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

/* preallocated, filled with keys 0..MAX_ENTRIES-1 by userspace */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, FULL_UPDATE_MAX_ENTRIES);
} hash_map_bench SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct full_update_cpu);
} cpu_state SEC(".maps");

/* --latency: each trigger's batch, the timing below */
LAT_HIST_MAP();

struct loop_ctx {
	__u32 key;
	__u64 failed;
	__u64 done;
};

static int update_one(__u32 i, struct loop_ctx *c)
{
	__u64 init_val = 1;

	if (bpf_map_update_elem(&hash_map_bench, &c->key, &init_val, BPF_ANY))
		c->failed++;
	else
		c->done++;
	return 0;
}

static __always_inline int full_update(void)
{
	struct bench_prod_counter *prod;
	struct full_update_cpu *st;
	struct loop_ctx c = {};
	__u32 zero = 0, idx;
	__u64 start, dur;
	long n;

	prod = bench_this_producer(&idx);
	if (!prod)
		return 0;
	st = bpf_map_lookup_elem(&cpu_state, &zero);
	if (!st)
		return 0;
	/* upstream's key: one per CPU, above every key in the map */
	c.key = bpf_get_smp_processor_id() + FULL_UPDATE_MAX_ENTRIES;
	start = bpf_ktime_get_ns();
	n = bpf_loop(FULL_UPDATE_NR_LOOPS, update_one, &c, 0);
	dur = bpf_ktime_get_ns() - start;
	lat_record(dur);
	if (n < 0)
		n = 0;
	__sync_fetch_and_add(&st->updates, n);
	__sync_fetch_and_add(&st->time_ns, dur);
	__sync_fetch_and_add(&st->batches, 1);
	st->last_ns = dur;
	prod->errs[FULL_UPDATE_FAILED] += c.failed;
	prod->errs[FULL_UPDATE_DONE] += c.done;
	prod->hits += n;
	return 0;
}

/* upstream's hook where the kernel allows fentry; userspace loads one of the two */
SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int full_update_fentry(void *ctx)
{
	return full_update();
}

SEC("?tp/syscalls/sys_enter_getpgid")
int full_update_tp(void *ctx)
{
	return full_update();
}
