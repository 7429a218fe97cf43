/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lpm-trie-* benchmarks' layout, shared by progs/lpm_trie_bench.c and
 * benchs/bench_lpm_trie_map.c: the key, the operations, the return codes of
 * the measured program and the per-producer statistics it keeps.
 */
#ifndef __LPM_TRIE_BENCH_H
#define __LPM_TRIE_BENCH_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* an IPv4-sized LPM key: data is the key index in host byte order, as upstream's */
struct lpm_trie_key {
	__u32 prefixlen;
	__u32 data;
};

/* trie operations per run of the measured program (upstream's NR_LOOPS) */
#define LPM_NR_LOOPS		10000
/* the tries' capacity, as upstream's; without preallocation it costs nothing */
#define LPM_MAX_ENTRIES		100000000
/* key bits: a trie of 8-byte keys holds 32-bit prefixes at most */
#define LPM_MAX_PREFIX_LEN	32

enum lpm_op {
	LPM_OP_NOOP,
	LPM_OP_BASELINE,
	LPM_OP_LOOKUP,
	LPM_OP_INSERT,
	LPM_OP_UPDATE,
	LPM_OP_DELETE,
	LPM_OP_FREE,
};

/* return values of the measured program */
#define LPM_BENCH_SUCCESS	0
/* the pass over all keys is complete: empty (insert) or refill (delete) the trie */
#define LPM_BENCH_REINIT_MAP	1
/* the test packet did not carry a valid producer index */
#define LPM_BENCH_BAD_PRODUCER	2

/*
 * The packet a producer hands BPF_PROG_TEST_RUN: who is calling.  An XDP
 * program has no reliable way to learn the calling thread on every kernel
 * (bpf_get_ns_current_pid_tgid() reached XDP only in 6.10), and it needs
 * none: the producer runs the program itself, so it says who it is.
 */
struct lpm_trie_packet {
	__u32 producer;
	__u8 pad[10];	/* to an Ethernet header's 14 bytes, the least XDP takes */
} __attribute__((packed));

/*
 * One per producer on a 128-byte line, written only by the program run
 * from that producer's thread (for lpm-trie-free, the single producer's
 * tries are freed by kernel workers, which add atomically), read by
 * userspace through an mmap().  Operations done are bench_prod_counter.hits.
 */
struct lpm_prod_stats {
	__u64 busy_ns;		/* inside the timed batches: the rate's denominator */
	__u64 fails;		/* operations that did not find, or could not add, their key */
	__u64 batches;		/* timed batches (runs of the program, or frees) */
	__u32 cursor;		/* the next key of this producer's sequential pass */
} __attribute__((aligned(128)));

/*
 * The shared cursor and copies of what each operation reads, in one cache
 * line as upstream's writable globals are (progs/lpm_trie_bench.c says why);
 * the skeleton's .bss names this type, so it is declared here for both sides.
 */
struct lpm_shared_line {
	__u32 cursor;
	__u32 nr_entries;
	__u32 prefixlen;
	__u32 random;
};

#endif /* __LPM_TRIE_BENCH_H */
