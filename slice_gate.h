/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __SLICE_GATE_H
#define __SLICE_GATE_H

/*
 * The memory an interleaved A/B run shares (bench ab --interleave): ab
 * creates it (a memfd, handed to both sides as $BENCH_AB_GATE), and the
 * two bench processes, A's and B's, map it.  They take turns on the
 * producers' CPUs one slice at a time; each side writes a record of every
 * slice it ran, and ab pairs neighbouring slices of A and B once both
 * have exited.  The futex words are shared between processes.
 */
#include <linux/types.h>

#define SLICE_GATE_MAGIC	0x62616267	/* "gbab" */
#define SLICE_GATE_VERSION	1
#define SLICE_SIDES		2

/* one slice of one side, written by that side's runner */
struct slice_rec {
	__u64 seq;		/* the slice's place in the run, both sides counted */
	__s64 start_ns;		/* CLOCK_MONOTONIC: its producers released */
	__s64 end_ns;		/* all its producers held again */
	__u64 triggers;		/* batches timed in it */
	double op_ns;		/* their median per op, interpolated (NaN: none) */
	double p50_ns;		/* per op, the bucket's value (latency_p50) */
	double p99_ns;		/* per op (latency_p99) */
	__u32 side;		/* 0: A, 1: B */
	__u32 measured;		/* inside its side's measured seconds */
};

struct slice_gate {
	__u32 magic;
	__u32 version;
	__u32 slice_us;		/* a slice's length */
	__u32 cap;		/* records rec[] holds */
	int turn;		/* futex: the side whose slice is next */
	int ready;		/* futex: sides set up, their producers held */
	int ended[SLICE_SIDES];	/* a side that takes no more turns */
	int abort;		/* set by ab: a side failed, the other waits no more */
	__u32 nrec;		/* records claimed (may pass cap: those are lost) */
	__u64 seq;		/* slices ended, both sides */
	struct slice_rec rec[];
};

static inline unsigned long slice_gate_size(unsigned int cap)
{
	return sizeof(struct slice_gate) + (unsigned long)cap * sizeof(struct slice_rec);
}

#endif /* __SLICE_GATE_H */
