// SPDX-License-Identifier: GPL-2.0
/*
 * --latency's histogram: the bucket index the BPF programs run
 * (progs/latency.h), bucket bounds and percentiles, against values
 * worked out by hand.
 */
#include <math.h>

#include "latency.h"
#include "tap.h"

static __u64 counts[LAT_NR_BUCKETS];

static void clear(void)
{
	memset(counts, 0, sizeof(counts));
}

int main(void)
{
	struct run_latency lat = { .ops_per_trigger = 64 };
	unsigned int i, bad_contig = 0, bad_self = 0, bad_err = 0;
	struct lat_pcts p;
	char buf[48];
	json_t *j;
	double mid;

	/* below 16 ns every value has its own bucket */
	is_int(lat_bucket(0), 0, "0 ns: bucket 0");
	is_int(lat_bucket(1), 1, "1 ns: bucket 1");
	is_int(lat_bucket(15), 15, "15 ns: bucket 15");
	/* [16, 32): 16 buckets of 1 ns */
	is_int(lat_bucket(16), 16, "16 ns: first log-linear bucket");
	is_int(lat_bucket(17), 17, "17 ns: its own bucket");
	is_int(lat_bucket(31), 31, "31 ns: last bucket of [16, 32)");
	/* [32, 64): 16 buckets of 2 ns */
	is_int(lat_bucket(32), 32, "32 ns: first bucket of [32, 64)");
	is_int(lat_bucket(33), 32, "33 ns: shares 32's 2 ns bucket");
	is_int(lat_bucket(34), 33, "34 ns: next bucket");
	is_int(lat_bucket(63), 47, "63 ns: last bucket of [32, 64)");
	/* 1000 = 512 + 15 * 32 + 8: [512, 1024) in 32 ns steps, sub-bucket 15 */
	is_int(lat_bucket(1000), 16 + 5 * 16 + 15, "1000 ns: [992, 1024)");
	is_int(lat_bucket_lo(lat_bucket(1000)), 992, "1000 ns: bucket starts at 992");
	is_int(lat_bucket_hi(lat_bucket(1000)), 1024, "1000 ns: bucket ends before 1024");
	is_near(lat_bucket_value(lat_bucket(1000)), 1007.5, 0, "1000 ns: reported as 1007.5");
	/* 10 ms is well inside the range */
	ok(lat_bucket(10000000) < LAT_OVERFLOW, "10 ms is not an overflow");
	is_int(lat_bucket((1ULL << LAT_MAX_SHIFT) - 1), LAT_OVERFLOW - 1,
	       "2^30 - 1 ns: last bucket before the overflow");
	is_int(lat_bucket(1ULL << LAT_MAX_SHIFT), LAT_OVERFLOW, "2^30 ns: overflow bucket");
	is_int(lat_bucket(~0ULL), LAT_OVERFLOW, "UINT64_MAX ns: overflow bucket");
	is_int(lat_msb(1), 0, "msb of 1");
	is_int(lat_msb(~0ULL), 63, "msb of UINT64_MAX");
	is_int(lat_msb(1ULL << 40), 40, "msb of 2^40");

	/* every bucket: contiguous, its bounds index to it, midpoint within 1/32 */
	for (i = 0; i < LAT_OVERFLOW; i++) {
		if (lat_bucket_hi(i) != lat_bucket_lo(i + 1) || lat_bucket_hi(i) <= lat_bucket_lo(i))
			bad_contig++;
		if (lat_bucket(lat_bucket_lo(i)) != i || lat_bucket(lat_bucket_hi(i) - 1) != i)
			bad_self++;
		mid = lat_bucket_value(i);
		if (fabs(mid - lat_bucket_lo(i)) > lat_bucket_lo(i) / 32.0 ||
		    fabs(mid - (lat_bucket_hi(i) - 1)) > lat_bucket_lo(i) / 32.0)
			bad_err++;
	}
	is_int(bad_contig, 0, "buckets are contiguous and non-empty ranges");
	is_int(bad_self, 0, "each bucket's first and last value index to it");
	is_int(bad_err, 0, "a bucket's reported value is within 1/32 of any value in it");
	is_int(lat_bucket_lo(LAT_OVERFLOW), 1ULL << LAT_MAX_SHIFT, "overflow starts at 2^30");

	/* empty: nothing to report */
	clear();
	ok(isnan(lat_quantile(counts, 50, 100)), "empty histogram: p50 is NaN");
	lat_pcts(counts, &p);
	is_int(p.triggers, 0, "empty histogram: 0 triggers");

	/* one sample: every percentile is it */
	clear();
	counts[lat_bucket(1000)] = 1;
	lat_pcts(counts, &p);
	is_int(p.triggers, 1, "one sample: 1 trigger");
	is_near(p.p50, 1007.5, 0, "one sample: p50");
	is_near(p.p999, 1007.5, 0, "one sample: p99.9");
	is_near(p.max, 1007.5, 0, "one sample: max");

	/* all samples in one bucket */
	clear();
	counts[40] = 1000;
	lat_pcts(counts, &p);
	is_near(p.p50, lat_bucket_value(40), 0, "one bucket: p50 is its value");
	is_near(p.p99, lat_bucket_value(40), 0, "one bucket: p99 is its value");
	is_near(p.max, lat_bucket_value(40), 0, "one bucket: max is its value");

	/* nearest rank in integers: 99 of 100 is the 99th, not the 100th */
	clear();
	counts[1] = 99;
	counts[2] = 1;
	is_near(lat_quantile(counts, 50, 100), 1, 0, "99 x 1 ns + 1 x 2 ns: p50 = 1");
	is_near(lat_quantile(counts, 99, 100), 1, 0, "99 x 1 ns + 1 x 2 ns: p99 = 1 (rank 99)");
	is_near(lat_quantile(counts, 999, 1000), 2, 0, "99 x 1 ns + 1 x 2 ns: p99.9 = 2 (rank 100)");
	is_near(lat_quantile(counts, 1, 1), 2, 0, "99 x 1 ns + 1 x 2 ns: max = 2");
	/* boundary of ranks: 50 of 100 is the 50th */
	clear();
	counts[3] = 50;
	counts[4] = 50;
	is_near(lat_quantile(counts, 50, 100), 3, 0, "50 x 3 + 50 x 4: p50 = 3 (rank 50)");
	is_near(lat_quantile(counts, 51, 100), 4, 0, "50 x 3 + 50 x 4: p51 = 4 (rank 51)");

	/* overflow: counted, reported as its lower bound */
	clear();
	counts[5] = 1;
	counts[LAT_OVERFLOW] = 1;
	lat_pcts(counts, &p);
	is_int(p.triggers, 2, "overflow: counted among the triggers");
	is_int(p.overflow, 1, "overflow: reported as such");
	is_near(p.p50, 5, 0, "overflow: p50 is the other sample");
	is_near(p.max, 1ULL << LAT_MAX_SHIFT, 0, "overflow: max is the overflow's lower bound");

	/* per-op: the batch divided by its operations */
	is_near(lat_per_op(&lat, 6400), 100, 0, "per-op: 6400 ns / 64 ops");
	lat.ops_per_trigger = 0;
	is_near(lat_per_op(&lat, 6400), 6400, 0, "per-op: an empty batch is reported per trigger");

	/* the Latency line's figures: 1 decimal below 100 ns, ">=" for the overflow */
	lat.ops_per_trigger = 64;
	lat_format_ns(buf, sizeof(buf), &lat, 64 * 93.5);
	is_str(buf, "93.5", "format: below 100 ns per op, one decimal");
	lat_format_ns(buf, sizeof(buf), &lat, 64 * 156.4);
	is_str(buf, "156", "format: from 100 ns per op, whole ns");
	lat_format_ns(buf, sizeof(buf), &lat, lat_bucket_value(LAT_OVERFLOW));
	is_str(buf, ">=16777216", "format: the overflow bucket per op, a lower bound");
	lat_format_ns(buf, sizeof(buf), &lat, NAN);
	is_str(buf, "n/a", "format: NaN (an empty histogram)");

	/* JSON: non-empty buckets only, the overflow bucket without an upper bound */
	lat.ops_per_trigger = 64;
	memcpy(lat.counts, counts, sizeof(counts));
	j = lat_json(&lat);
	is_int(json_array_size(json_object_get(j, "buckets")), 2, "JSON: only the 2 non-empty buckets");
	ok(json_is_null(json_object_get(json_array_get(json_object_get(j, "buckets"), 1), "hi_ns")),
	   "JSON: the overflow bucket has no upper bound");
	is_int(json_integer_value(json_object_get(j, "overflow")), 1, "JSON: overflow count");
	is_near(json_number_value(json_object_get(json_object_get(j, "per_op"), "p50")), 5.0 / 64, 1e-12,
		"JSON: per-op p50 = per-trigger p50 / 64");
	json_decref(j);
	return done_testing();
}
