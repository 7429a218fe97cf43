/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between progs/bpf_ma_bench.c and benchs/bench_bpf_ma.c. */
#ifndef __BPF_MA_BENCH_H
#define __BPF_MA_BENCH_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * The object sizes --obj-size takes: the BPF memory allocator's size
 * classes, each counting the 8-byte header it puts in front of an object
 * (BPF_MA_HDR), as the posted benchmark's 128 does.  The per-CPU
 * allocator takes objects up to 512 bytes.  X(size) per entry: the BPF
 * side makes an object type, a stash and a program of each.
 */
#define BPF_MA_SIZES(X) X(16) X(32) X(64) X(96) X(128) X(192) X(256) X(512) \
			X(1024) X(2048) X(4096)
#define BPF_MA_PERCPU_SIZES(X) X(16) X(32) X(64) X(96) X(128) X(192) X(256) X(512)
#define BPF_MA_HDR 8

/* objects per batch: the posted 64 by default, and what bpf_loop() takes at most here */
#define BPF_MA_BATCH_DEFAULT 64
#define BPF_MA_BATCH_MAX 8192
/* slots in all, batch x producers: a stash of at most 32 MiB */
#define BPF_MA_SLOTS_MAX (1 << 22)

/* bench_prod_counter: hits are objects allocated, and errs are: */
#define BPF_MA_FREED		0	/* objects dropped by free batches */
#define BPF_MA_ALLOC_FAILS	1	/* batches cut short by a bpf_obj_new() that returned NULL */

/*
 * Per producer, next to its bench_prod_counter, written only by programs
 * running in that producer's thread; 128 bytes apart, so producers do not
 * share a line.
 */
struct bpf_ma_prod {
	__u64 alloc_ns;		/* time in alloc batches */
	__u64 free_ns;		/* time in free batches */
	__u64 in_trigger;	/* odd while a trigger runs */
	/* objects found in a slot that should have been empty: a free that was lost */
	__u64 stale;
} __attribute__((aligned(128)));

/*
 * --footprint: bytes the BPF memory allocator took from kmalloc() and the
 * per-CPU allocator and has not given back, counted at each allocation
 * and free made from its own code (kernel/bpf/memalloc.c's text).
 */
enum { BPF_MA_FP_SLAB, BPF_MA_FP_PERCPU, BPF_MA_FP_KINDS };
/* objects held at once that can be told apart: 16 MiB of map, more than a run holds */
#define BPF_MA_FP_ENTRIES (1 << 18)

struct bpf_ma_fp_key {
	__u64 ptr;
	__u32 kind;
	__u32 pad;
};

struct bpf_ma_fp {
	__s64 live[BPF_MA_FP_KINDS];	/* bytes held now */
	__u64 freed[BPF_MA_FP_KINDS];	/* frees of recorded addresses seen */
	__u64 untracked;		/* allocations the map had no room for */
};

#endif /* __BPF_MA_BENCH_H */
