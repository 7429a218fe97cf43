// SPDX-License-Identifier: GPL-2.0
/*
 * The bloom filter benchmarks (benchs/bench_bloom_filter_map.c), on each
 * getpgid() of a producer thread:
 *   bloom_lookup / bloom_update   one peek or push into the bloom filter
 *                                 per element of array_map (its values)
 *   bloom_hashmap_lookup          1024 hash map lookups of random keys from
 *                                 rand_vals, each first asked of the bloom
 *                                 filter when hashmap_use_bloom is set
 * Userspace sizes the three maps and fills them with the same random values
 * before the producers start.  Every operation is counted as upstream's
 * program counts it (a bloom filter negative is a hit, a hash map miss a
 * drop, and with count_false_hits also a false hit: the bloom filter said
 * maybe), but in the counters of the producer that triggered it rather than
 * in a slot per CPU: two producers on one CPU do not share a counter, and a
 * thread that is no producer costs nothing and counts nothing.
 *
 * Upstream runs on fentry; two hooks of each program are here, loaded one
 * at a time (benchs/lib_hook.h): fentry where the kernel allows it, else
 * the syscall's tracepoint.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"

#ifndef ENOENT
#define ENOENT 2
#endif

char _license[] SEC("license") = "GPL";

/* random bytes userspace fills in; lookups read keys at random offsets */
__u8 rand_vals[2500000];
const __u32 nr_rand_bytes = 2500000;
/* offsets stay below 2^21, so a key of up to 256 bytes stays inside rand_vals */
#define RAND_OFF_MASK ((1U << 21) - 1)

/* max_entries and value_size are set by userspace before load */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, 1);
} array_map SEC(".maps");

/* max_entries, value_size and map_extra (the hash function count) likewise */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(value_size, 8);
	__uint(max_entries, 1);
	__uint(map_extra, 3);
} bloom_map SEC(".maps");

/* the value is its own key: key_size = value_size, set by userspace */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 8);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} hashmap SEC(".maps");

/* which of a producer's error counters holds which count (read by userspace) */
const __u32 drop_key = 0;
const __u32 false_hit_key = 1;

/* the bytes of a key in rand_vals: the hash map's key size */
__u8 value_size;

const volatile bool hashmap_use_bloom;
const volatile bool count_false_hits;

/* bit 0: a peek or push failed; bit 1: a peek failed other than with ENOENT */
int error;

struct callback_ctx {
	struct bpf_map *map;
	struct bench_prod_counter *prod;
	bool update;
};

static __u64 bloom_callback(struct bpf_map *map, __u32 *key, void *val,
			    struct callback_ctx *data)
{
	int err;

	if (data->update)
		err = bpf_map_push_elem(data->map, val, 0);
	else
		err = bpf_map_peek_elem(data->map, val);
	if (err) {
		error |= 1;
		return 1;	/* stop the iteration */
	}
	data->prod->hits++;
	return 0;
}

static __always_inline int bloom_walk(bool update)
{
	struct callback_ctx data;
	__u32 idx;

	data.prod = bench_this_producer(&idx);
	if (!data.prod)
		return 0;
	data.map = (struct bpf_map *)&bloom_map;
	data.update = update;
	bpf_for_each_map_elem(&array_map, bloom_callback, &data, 0);
	return 0;
}

static __always_inline int hashmap_lookups(void)
{
	struct bench_prod_counter *prod;
	__u32 off, idx;
	/*
	 * int, not long: before Linux 6.4 the map ops the verifier calls
	 * directly return int, and the upper half of the register is not
	 * sign-extended (-ENOENT reads as 0xfffffffe in 64 bits)
	 */
	int err, i;

	prod = bench_this_producer(&idx);
	if (!prod)
		return 0;
	off = bpf_get_prandom_u32();
	for (i = 0; i < 1024; i++, off += value_size) {
		off &= RAND_OFF_MASK;
		if (hashmap_use_bloom) {
			err = bpf_map_peek_elem(&bloom_map, rand_vals + off);
			if (err) {
				if (err != -ENOENT) {
					error |= 2;
					return 0;
				}
				/* surely absent: the hash map is spared */
				prod->hits++;
				continue;
			}
		}
		if (bpf_map_lookup_elem(&hashmap, rand_vals + off)) {
			prod->hits++;
		} else {
			if (hashmap_use_bloom && count_false_hits)
				prod->errs[false_hit_key]++;
			prod->errs[drop_key]++;
		}
	}
	return 0;
}

SEC("?tp/syscalls/sys_enter_getpgid")
int bloom_lookup(void *ctx)
{
	return bloom_walk(false);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int bloom_update(void *ctx)
{
	return bloom_walk(true);
}

SEC("?tp/syscalls/sys_enter_getpgid")
int bloom_hashmap_lookup(void *ctx)
{
	return hashmap_lookups();
}

SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int bloom_lookup_fentry(void *ctx)
{
	return bloom_walk(false);
}

SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int bloom_update_fentry(void *ctx)
{
	return bloom_walk(true);
}

SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int bloom_hashmap_fentry(void *ctx)
{
	return hashmap_lookups();
}
