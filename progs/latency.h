/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histogram shared by the BPF programs and userspace (--latency).
 * The bucket index function below is the one both sides run, so the unit
 * tests test the code the BPF programs execute.
 *
 * Buckets are log-linear: values below LAT_SUB (16 ns) have a bucket each;
 * above, every power of two [2^m, 2^(m+1)) is split into LAT_SUB equal
 * sub-buckets, so a bucket is at most 1/16 of its lower bound wide and its
 * midpoint is within 1/32 (3.1%) of any value in it.  Values of 2^LAT_MAX_SHIFT
 * ns (about 1.07 s) and above go to the last bucket, the overflow bucket.
 */
#ifndef __BENCH_LATENCY_H
#define __BENCH_LATENCY_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LAT_SUB_SHIFT	7
#define LAT_SUB		(1 << LAT_SUB_SHIFT)
/* the first value that overflows: 2^30 ns, enough for a 1M-lookup batch */
#define LAT_MAX_SHIFT	30
/* LAT_SUB exact buckets, LAT_SUB per power of two from 2^4 up, overflow */
#define LAT_OVERFLOW	(LAT_SUB + (LAT_MAX_SHIFT - LAT_SUB_SHIFT) * LAT_SUB)
#define LAT_NR_BUCKETS	(LAT_OVERFLOW + 1)

/*
 * The machine's speed, measured beside the batches (--latency): on a
 * random one in LAT_REF_EVERY batches, after the batch's time is taken,
 * a bpf_loop() of LAT_REF_STEPS empty steps is timed into the map's
 * second entry.  Pure CPU work that no benchmark option changes, so its
 * median moves only when the CPU itself runs faster or slower (a vCPU
 * whose host moved it, frequency); bench ab compares A's with B's.
 */
#define LAT_REF_STEPS	512
#define LAT_REF_EVERY	64
/* the map's entries: the batches' histogram, the reference's */
#define LAT_KEY_BATCH	0
#define LAT_KEY_REF	1
#define LAT_NR_KEYS	2

/* one per CPU and key: an entry of a per-CPU array map */
struct lat_hist {
	__u64 counts[LAT_NR_BUCKETS];
};

/*
 * Index of the highest set bit of v (v != 0).  A binary search rather
 * than a builtin: BPF has no count-leading-zeros instruction.
 */
static inline __u32 lat_msb(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

static inline __u32 lat_bucket(__u64 ns)
{
	__u32 m;

	if (ns < LAT_SUB)
		return (__u32)ns;
	if (ns >> LAT_MAX_SHIFT)
		return LAT_OVERFLOW;
	m = lat_msb(ns);
	/* the LAT_SUB_SHIFT bits below the top one pick the sub-bucket */
	return LAT_SUB + (m - LAT_SUB_SHIFT) * LAT_SUB +
	       (__u32)((ns >> (m - LAT_SUB_SHIFT)) & (LAT_SUB - 1));
}

#ifdef __VMLINUX_H__
/*
 * BPF side.  A program that includes this declares the map with
 * LAT_HIST_MAP() and sets lat_enabled before load; with it false the
 * verifier removes the timing code, so a run without --latency pays
 * nothing for it.
 */
#define LAT_HIST_MAP()							\
struct {								\
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);			\
	__uint(max_entries, LAT_NR_KEYS);				\
	__type(key, __u32);						\
	__type(value, struct lat_hist);					\
} lat_hist SEC(".maps");						\
const volatile bool lat_enabled

#define lat_start() (lat_enabled ? bpf_ktime_get_ns() : 0)

/*
 * Count ns in entry key's histogram.  Atomic: two producers on one CPU
 * can preempt each other between the load and the store of a plain
 * increment, and every trigger must count.
 */
#define lat_count(key, ns) do {						\
	__u32 __key = (key), __b = lat_bucket(ns);			\
	struct lat_hist *__h;						\
									\
	__h = bpf_map_lookup_elem(&lat_hist, &__key);			\
	if (__h && __b < LAT_NR_BUCKETS)				\
		__sync_fetch_and_add(&__h->counts[__b], 1);		\
} while (0)

static __attribute__((unused)) long extra_work_step(__u32 i, void *ctx)
{
	return 0;
}

/* the reference loop, on one batch in LAT_REF_EVERY (see LAT_REF_STEPS) */
#define lat_reference() do {						\
	__u64 __ref;							\
									\
	if (!(bpf_get_prandom_u32() & (LAT_REF_EVERY - 1))) {		\
		__ref = bpf_ktime_get_ns();				\
		bpf_loop(LAT_REF_STEPS, extra_work_step, NULL, 0);	\
		lat_count(LAT_KEY_REF, bpf_ktime_get_ns() - __ref);	\
	}								\
} while (0)

/* dur_ns is taken before the reference runs: the batches' times hold none of it */
#define lat_record(dur_ns) do {						\
	if (lat_enabled) {						\
		lat_count(LAT_KEY_BATCH, dur_ns);			\
		lat_reference();					\
	}								\
} while (0)

/*
 * --extra-work (htab-mem): a busy loop of extra_work_loops iterations
 * inside the timed batch, a known cost for calibrating what bench ab
 * detects.  Zero by default: the verifier then drops the call.
 */
const volatile __u32 extra_work_loops;

#define lat_extra_work() do {						\
	if (extra_work_loops)						\
		bpf_loop(extra_work_loops, extra_work_step, NULL, 0);	\
} while (0)

#define lat_end(start) do {						\
	if (lat_enabled)						\
		lat_record(bpf_ktime_get_ns() - (start));		\
} while (0)
#endif /* __VMLINUX_H__ */

#endif /* __BENCH_LATENCY_H */
