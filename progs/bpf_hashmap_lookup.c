// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-lookup: on each getpgid() of the benchmark's own process, do
 * nr_loops lookups over the nr_entries keys userspace filled in, and keep
 * how long they took in a per-CPU ring of the most recent timings.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"
#include "lookup_shared.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

/* set by userspace before load; constants to the verifier */
const volatile __u32 key_size = 4;
const volatile __u32 nr_entries = 1;
/* nr_loops lookups = nr_passes passes over all keys + nr_rest more */
const volatile __u32 nr_passes;
const volatile __u32 nr_rest;
/* lookups per timing: nr_passes * nr_entries + nr_rest */
const volatile __u32 nr_loops;

/* created and filled by userspace, which sets its real shape */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} hashmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hashmap_lookup_cpu);
} cpu_state SEC(".maps");

/* --latency: each trigger's nr_loops lookups, the timing below */
LAT_HIST_MAP();

struct loop_ctx {
	struct hashmap_lookup_cpu *st;
	__u64 misses;
	__u64 loop_errors;
};

/* the index bytes of the key, as lookup_key_make() lays them out */
static __always_inline void set_key_index(__u8 *key, __u32 idx)
{
	if (key_size >= 4) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		*(__u32 *)key = idx;
#else
		*(__u32 *)key = __builtin_bswap32(idx);
#endif
		return;
	}
	/* dead code for key_size >= 4: the verifier prunes it */
	key[0] = idx;
	if (key_size >= 2)
		key[1] = idx >> 8;
	if (key_size >= 3)
		key[2] = idx >> 16;
}

static int lookup_one(__u32 idx, struct loop_ctx *c)
{
	set_key_index(c->st->key, idx);
	if (!bpf_map_lookup_elem(&hashmap, c->st->key))
		c->misses++;
	return 0;
}

static int lookup_pass(__u32 pass, struct loop_ctx *c)
{
	if (bpf_loop(nr_entries, lookup_one, c, 0) != nr_entries)
		c->loop_errors++;
	return 0;
}

static __always_inline int time_lookups(void)
{
	struct bench_prod_counter *prod;
	struct loop_ctx c = {};
	__u64 start, dur;
	__u32 zero = 0, slot, idx;

	/* other threads calling getpgid() are not ours to time */
	prod = bench_this_producer(&idx);
	if (!prod)
		return 0;
	c.st = bpf_map_lookup_elem(&cpu_state, &zero);
	if (!c.st)
		return 0;

	start = bpf_ktime_get_ns();
	if (bpf_loop(nr_passes, lookup_pass, &c, 0) != nr_passes)
		c.loop_errors++;
	if (nr_rest && bpf_loop(nr_rest, lookup_one, &c, 0) != nr_rest)
		c.loop_errors++;
	dur = bpf_ktime_get_ns() - start;
	lat_record(dur);

	slot = c.st->nr_samples % HASHMAP_LOOKUP_NR_SLOTS;
	c.st->start_ns[slot] = start;
	c.st->dur_ns[slot] = dur;
	c.st->nr_samples++;
	c.st->misses += c.misses;
	c.st->loop_errors += c.loop_errors;
	/* outside the timing: what the runner counts, in lookups */
	prod->hits += nr_loops;
	return 0;
}

/*
 * Two hooks on the same call, loaded one at a time: fentry where the
 * kernel allows it, as upstream uses, else the tracepoint.  The hook
 * changes what runs around the timed lookups, so userspace says which
 * one ran and compare refuses to mix them.
 */
SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int hashmap_fentry(void *ctx)
{
	return time_lookups();
}

SEC("?tp/syscalls/sys_enter_getpgid")
int hashmap_lookup(void *ctx)
{
	return time_lookups();
}
