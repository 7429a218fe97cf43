// SPDX-License-Identifier: GPL-2.0
/*
 * The lpm-trie-* benchmarks' BPF half.  lpm_run_batch does LPM_NR_LOOPS
 * trie operations with bpf_loop() each time a producer runs it through
 * BPF_PROG_TEST_RUN, and times them; the programs on the workqueue
 * tracepoints time how long the kernel takes to free one of our tries
 * (lpm-trie-free).  Only the programs the operation needs are loaded
 * (SEC("?...")); userspace sets the constants below before load.
 *
 * No field of a kernel structure is read through vmlinux.h: every such
 * read would be a CO-RE relocation, whose resolution makes libbpf parse
 * the kernel's BTF (megabytes charged to the run's memory cgroup).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "lpm_trie_bench.h"
#include "latency.h"

char _license[] SEC("license") = "GPL";

/*
 * The operation.  By default it is read from .bss, as upstream's program
 * reads its op: the verifier then follows every case to the one bpf_loop()
 * call clang merges them into, sees six callbacks there and cannot inline
 * the loop, so each operation pays the helper's indirect callback call, as
 * upstream's figures do.  With inline_loop (--inline-loop) it is the
 * constant op_const: the verifier sees one callback and inlines the loop,
 * and noop and baseline measure what is left of the harness.
 */
const volatile bool inline_loop;
const volatile __u32 op_const;
__u32 op_rt;
const volatile __u32 nr_entries = 1;
const volatile __u32 prefixlen = LPM_MAX_PREFIX_LEN;
const volatile bool random_keys;
const volatile __u32 nr_producers = 1;

/* lpm-trie-free: where struct bpf_map keeps these, from the kernel's BTF */
const volatile __u64 map_work_off;
const volatile __u64 map_type_off;
const volatile __u64 map_name_off;
/* the name of the tries the producer creates and frees, unique to this run */
const volatile __u64 free_name[2];

/* filled by userspace with keys 0..nr_entries-1 (lookup, update, delete) */
struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_trie_key);
	__type(value, __u32);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LPM_MAX_ENTRIES);
} trie_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct lpm_prod_stats);
	__uint(max_entries, 1);			/* the producer count */
	__uint(map_flags, BPF_F_MMAPABLE);
} lpm_stats SEC(".maps");

/* lpm-trie-free: kernel worker thread -> when it started freeing one of our tries */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} free_started SEC(".maps");

/* --latency: each batch's time, or each free's */
LAT_HIST_MAP();

/* the first two fields of struct xdp_md, as the UAPI fixes them */
struct lpm_xdp_md {
	__u32 data;
	__u32 data_end;
};

struct batch_ctx {
	struct lpm_prod_stats *st;
	__u64 fails;
	int ret;
};

/* keep a value the compiler would otherwise drop, as upstream's barrier_var() */
#define keep(v) asm volatile("" : "+r"(v))

/*
 * upstream's cursor: one for all producers, incremented without atomics by
 * every operation of every producer, as upstream's cur_key.  Upstream's
 * configuration is writable globals too, so the values every operation
 * reads (prefixlen, random, nr_entries) share the cursor's cache line in
 * .bss: with -p2 each producer's cursor write takes the line from the
 * other, whose next reads of them miss as well.  Upstream's figures
 * include both (lpm-trie-baseline at -p2 -a ran 1.35x upstream's rate
 * with them apart, in .rodata), so by default ours reads copies of them
 * from the cursor's line; userspace fills them in before load.
 */
struct lpm_shared_line shared_line __attribute__((aligned(64)));
/* --own-cursor: each producer walks its own sequence (lpm_prod_stats.cursor) */
const volatile bool own_cursor;

/*
 * The next key: a random one, or the next of the sequential pass.  The
 * modulo is upstream's (the baseline costs what it costs there).
 */
static __always_inline void next_key(struct batch_ctx *c, struct lpm_trie_key *key)
{
	if (!own_cursor) {
		key->prefixlen = shared_line.prefixlen;
		if (shared_line.random)
			key->data = bpf_get_prandom_u32() % shared_line.nr_entries;
		else
			key->data = shared_line.cursor++ % shared_line.nr_entries;
		return;
	}
	key->prefixlen = prefixlen;
	if (random_keys) {
		key->data = bpf_get_prandom_u32() % nr_entries;
		return;
	}
	key->data = c->st->cursor % nr_entries;
	c->st->cursor = key->data + 1;
}

/* the pass over all keys is complete: userspace empties or refills the trie */
static __always_inline int end_of_pass(struct batch_ctx *c, const struct lpm_trie_key *key)
{
	if (key->data != nr_entries - 1)
		return 0;
	c->ret = LPM_BENCH_REINIT_MAP;
	return 1;
}

static int do_noop(__u32 i, void *data)
{
	return 0;
}

static int do_baseline(__u32 i, void *data)
{
	struct lpm_trie_key key;

	next_key(data, &key);
	keep(key.data);
	return 0;
}

static int do_lookup(__u32 i, void *data)
{
	struct batch_ctx *c = data;
	struct lpm_trie_key key;

	next_key(c, &key);
	if (!bpf_map_lookup_elem(&trie_map, &key))
		c->fails++;
	return 0;
}

static int do_insert(__u32 i, void *data)
{
	struct batch_ctx *c = data;
	struct lpm_trie_key key;
	__u32 val = 1;

	next_key(c, &key);
	if (bpf_map_update_elem(&trie_map, &key, &val, BPF_NOEXIST))
		c->fails++;
	return end_of_pass(c, &key);
}

static int do_update(__u32 i, void *data)
{
	struct batch_ctx *c = data;
	struct lpm_trie_key key;
	__u32 val = 1;

	next_key(c, &key);
	if (bpf_map_update_elem(&trie_map, &key, &val, BPF_EXIST))
		c->fails++;
	return 0;
}

static int do_delete(__u32 i, void *data)
{
	struct batch_ctx *c = data;
	struct lpm_trie_key key;

	next_key(c, &key);
	if (bpf_map_delete_elem(&trie_map, &key))
		c->fails++;
	return end_of_pass(c, &key);
}

static __always_inline long run_op(struct batch_ctx *c)
{
	switch (inline_loop ? op_const : op_rt) {
	case LPM_OP_NOOP:
		return bpf_loop(LPM_NR_LOOPS, do_noop, c, 0);
	case LPM_OP_BASELINE:
		return bpf_loop(LPM_NR_LOOPS, do_baseline, c, 0);
	case LPM_OP_LOOKUP:
		return bpf_loop(LPM_NR_LOOPS, do_lookup, c, 0);
	case LPM_OP_INSERT:
		return bpf_loop(LPM_NR_LOOPS, do_insert, c, 0);
	case LPM_OP_UPDATE:
		return bpf_loop(LPM_NR_LOOPS, do_update, c, 0);
	case LPM_OP_DELETE:
		return bpf_loop(LPM_NR_LOOPS, do_delete, c, 0);
	}
	return -1;
}

SEC("?xdp")
int lpm_run_batch(struct lpm_xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct lpm_trie_packet *pkt = data;
	struct bench_prod_counter *cnt;
	struct batch_ctx c = {};
	__u64 start, dur;
	__u32 idx;
	long loops;

	if ((void *)(pkt + 1) > end)
		return LPM_BENCH_BAD_PRODUCER;
	idx = pkt->producer;
	if (idx >= nr_producers)
		return LPM_BENCH_BAD_PRODUCER;
	c.st = bpf_map_lookup_elem(&lpm_stats, &idx);
	cnt = bpf_map_lookup_elem(&bench_prod_counters, &idx);
	if (!c.st || !cnt)
		return LPM_BENCH_BAD_PRODUCER;
	/* with cursors of their own, producers start spread over the keys */
	if (own_cursor && !c.st->batches)
		c.st->cursor = (__u64)idx * nr_entries / nr_producers;

	start = bpf_ktime_get_ns();
	loops = run_op(&c);
	dur = bpf_ktime_get_ns() - start;
	if (loops <= 0)
		return loops < 0 ? (int)loops : LPM_BENCH_SUCCESS;

	c.st->busy_ns += dur;
	c.st->fails += c.fails;
	c.st->batches++;
	/* operations done, the last one of a pass included, as upstream counts them */
	cnt->hits += loops;
	/* a pass may end a batch early: record what a full batch would take at its pace */
	lat_record(dur * LPM_NR_LOOPS / (__u64)loops);
	return c.ret;
}

/*
 * lpm-trie-free.  The kernel frees a map in a work item (bpf_map_free_deferred)
 * run by a kernel worker; these two tracepoints bracket every work item,
 * and upstream's fentry/fexit on bpf_map_free_deferred (which needs BPF
 * trampolines) bracket the same call.  Our tries are recognised by type
 * and by a name no other process uses.
 */
SEC("?raw_tp/workqueue_execute_start")
int lpm_free_start(__u64 *ctx)
{
	char *map = (char *)ctx[0] - map_work_off;
	__u64 name[2], now;
	__u32 type, tid;

	if (bpf_probe_read_kernel(&type, sizeof(type), map + map_type_off) ||
	    type != BPF_MAP_TYPE_LPM_TRIE)
		return 0;
	if (bpf_probe_read_kernel(name, sizeof(name), map + map_name_off) ||
	    name[0] != free_name[0] || name[1] != free_name[1])
		return 0;
	tid = (__u32)bpf_get_current_pid_tgid();
	now = bpf_ktime_get_ns();
	bpf_map_update_elem(&free_started, &tid, &now, BPF_ANY);
	return 0;
}

SEC("?raw_tp/workqueue_execute_end")
int lpm_free_end(__u64 *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), zero = 0;
	struct bench_prod_counter *cnt;
	struct lpm_prod_stats *st;
	__u64 *start, dur;

	start = bpf_map_lookup_elem(&free_started, &tid);
	if (!start)
		return 0;
	dur = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&free_started, &tid);
	/* lpm-trie-free has one producer: the tries are all its */
	st = bpf_map_lookup_elem(&lpm_stats, &zero);
	cnt = bpf_map_lookup_elem(&bench_prod_counters, &zero);
	if (!st || !cnt)
		return 0;
	__sync_fetch_and_add(&st->busy_ns, dur);
	__sync_fetch_and_add(&st->batches, 1);
	__sync_fetch_and_add(&cnt->hits, 1);
	lat_record(dur);
	return 0;
}
