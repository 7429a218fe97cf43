/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LATENCY_H
#define __LATENCY_H

/*
 * --latency in userspace: bucket bounds, percentiles and the run's
 * histogram.  The bucket index itself is progs/latency.h's, shared with
 * the BPF programs.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "progs/latency.h"

/* percentiles of one histogram, in ns of one batch; NaN when empty */
struct lat_pcts {
	__u64 triggers;
	__u64 overflow;	/* triggers of 2^LAT_MAX_SHIFT ns or more */
	double p50, p90, p99, p999, max;
};

/* what the runner keeps of a --latency run */
struct run_latency {
	/* map operations per trigger (the batch); 0: the batch is empty */
	unsigned int ops_per_trigger;
	/* measured samples only, warm-up excluded */
	__u64 counts[LAT_NR_BUCKETS];
	/* one bpf_ktime_get_ns() pair around an empty batch, from set-up */
	int calib_rounds;
	double pair_min_ns;
	double pair_p50_ns;
	/*
	 * The reference loop (progs/latency.h, LAT_REF_STEPS): its timings
	 * over the measured samples, and its step count
	 */
	__u64 ref_counts[LAT_NR_BUCKETS];
	unsigned int ref_steps;
};

/* [lo, hi) of bucket idx; the overflow bucket's hi is UINT64_MAX */
__u64 lat_bucket_lo(unsigned int idx);
__u64 lat_bucket_hi(unsigned int idx);
/*
 * The value reported for a bucket: its midpoint, within 1/32 of any value
 * in it; for the overflow bucket its lower bound (a "more than").
 */
double lat_bucket_value(unsigned int idx);
__u64 lat_total(const __u64 *counts);
/*
 * The num/den quantile (0 < num <= den): the value of the bucket holding
 * the ceil(total * num / den)-th smallest sample (nearest rank), in
 * integers so that 99/100 of 100 samples is the 99th, not the 100th.
 * NaN when the histogram is empty.
 */
double lat_quantile(const __u64 *counts, __u64 num, __u64 den);
/*
 * The median with the resolution the bucket hides: where the histogram's
 * cumulative count, taken as spread evenly inside each bucket, reaches
 * half the total.  A shift of the distribution by 0.1% moves it by about
 * that much (tests/unit_latency.c), where lat_quantile() moves only when
 * the median crosses into the next bucket, 3-6% away.  NaN when empty;
 * the overflow bucket's lower bound when the median is in it.
 */
double lat_median_interp(const __u64 *counts);
void lat_pcts(const __u64 *counts, struct lat_pcts *out);
/* per-op figures: a batch figure divided by the operations in the batch */
double lat_per_op(const struct run_latency *lat, double batch_ns);
/*
 * A batch figure as the Latency line prints it, per op: "156", "93.5",
 * ">=16777216" for one in the overflow bucket (a lower bound), "n/a" for
 * NaN.  snprintf()'s return.  bench plot latency labels its marks with it.
 */
int lat_format_ns(char *buf, size_t len, const struct run_latency *lat, double batch_ns);
/* the Summary's "Latency: ..." line (and the timer's) */
void lat_print_summary(const struct run_latency *lat);
/* the run's latency block of the JSON document */
json_t *lat_json(const struct run_latency *lat);

#endif /* __LATENCY_H */
