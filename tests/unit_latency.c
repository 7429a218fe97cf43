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

/*
 * The interpolated median follows a known shift where the bucket's value
 * cannot: 200000 draws around 3000 ns with a spread of 1% (a real
 * trigger's, narrow), shifted by 0.2%.  The same seed on both sides, so
 * the only difference is the shift.
 */
static void interp_follows_shift(void)
{
	static __u64 a[LAT_NR_BUCKETS], b[LAT_NR_BUCKETS];
	unsigned long long x = 88172645463325252ULL;
	double u1, u2, g, ma, mb;
	int i;

	for (i = 0; i < 200000; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		u1 = ((x >> 11) + 1) * (1.0 / 9007199254740993.0);
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		u2 = (x >> 11) * (1.0 / 9007199254740992.0);
		g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		a[lat_bucket(llround(3000 * exp(0.01 * g)))]++;
		b[lat_bucket(llround(3000 * 1.002 * exp(0.01 * g)))]++;
	}
	ma = lat_median_interp(a);
	mb = lat_median_interp(b);
	is_near(mb / ma - 1, 0.002, 0.0002, "interpolated median: a 0.2%% shift reads 0.2%% (+-0.02%%)");
	is_near(lat_quantile(b, 50, 100) / lat_quantile(a, 50, 100) - 1, 0.002, 0.004,
		"the bucket's value moves by 0 or a whole bucket (0.4-0.8%%)");
}

int main(void)
{
	struct run_latency lat = { .ops_per_trigger = 64 };
	json_t *doc;
	unsigned int i, bad_contig = 0, bad_self = 0, bad_err = 0;
	struct lat_pcts p;
	char buf[48];
	json_t *j;
	double mid;

	/* below 128 ns every value has its own bucket */
	is_int(lat_bucket(0), 0, "0 ns: bucket 0");
	is_int(lat_bucket(1), 1, "1 ns: bucket 1");
	is_int(lat_bucket(127), 127, "127 ns: bucket 127");
	/* [128, 256): 128 buckets of 1 ns */
	is_int(lat_bucket(128), 128, "128 ns: first log-linear bucket");
	is_int(lat_bucket(129), 129, "129 ns: its own bucket");
	is_int(lat_bucket(255), 255, "255 ns: last bucket of [128, 256)");
	/* [256, 512): 128 buckets of 2 ns */
	is_int(lat_bucket(256), 256, "256 ns: first bucket of [256, 512)");
	is_int(lat_bucket(257), 256, "257 ns: shares 256's 2 ns bucket");
	is_int(lat_bucket(258), 257, "258 ns: next bucket");
	is_int(lat_bucket(511), 383, "511 ns: last bucket of [256, 512)");
	/*
	 * 1000 = 512 + 122 * 4: [512, 1024) in 4 ns steps, sub-bucket 122;
	 * the octave [512, 1024) is the third from 2^7, so the index is
	 * 128 + 2 * 128 + 122 = 506
	 */
	is_int(lat_bucket(1000), 128 + 2 * 128 + 122, "1000 ns: [1000, 1004)");
	is_int(lat_bucket_lo(lat_bucket(1000)), 1000, "1000 ns: bucket starts at 1000");
	is_int(lat_bucket_hi(lat_bucket(1000)), 1004, "1000 ns: bucket ends before 1004");
	is_near(lat_bucket_value(lat_bucket(1000)), 1001.5, 0, "1000 ns: reported as 1001.5");
	/* 10 ms is well inside the range */
	ok(lat_bucket(10000000) < LAT_OVERFLOW, "10 ms is not an overflow");
	is_int(lat_bucket((1ULL << LAT_MAX_SHIFT) - 1), LAT_OVERFLOW - 1,
	       "2^30 - 1 ns: last bucket before the overflow");
	is_int(lat_bucket(1ULL << LAT_MAX_SHIFT), LAT_OVERFLOW, "2^30 ns: overflow bucket");
	is_int(lat_bucket(~0ULL), LAT_OVERFLOW, "UINT64_MAX ns: overflow bucket");
	is_int(lat_msb(1), 0, "msb of 1");
	is_int(lat_msb(~0ULL), 63, "msb of UINT64_MAX");
	is_int(lat_msb(1ULL << 40), 40, "msb of 2^40");

	/* every bucket: contiguous, its bounds index to it, midpoint within 1/256 */
	for (i = 0; i < LAT_OVERFLOW; i++) {
		if (lat_bucket_hi(i) != lat_bucket_lo(i + 1) || lat_bucket_hi(i) <= lat_bucket_lo(i))
			bad_contig++;
		if (lat_bucket(lat_bucket_lo(i)) != i || lat_bucket(lat_bucket_hi(i) - 1) != i)
			bad_self++;
		mid = lat_bucket_value(i);
		if (fabs(mid - lat_bucket_lo(i)) > lat_bucket_lo(i) / 256.0 ||
		    fabs(mid - (lat_bucket_hi(i) - 1)) > lat_bucket_lo(i) / 256.0)
			bad_err++;
	}
	is_int(bad_contig, 0, "buckets are contiguous and non-empty ranges");
	is_int(bad_self, 0, "each bucket's first and last value index to it");
	is_int(bad_err, 0, "a bucket's reported value is within 1/256 of any value in it");
	is_int(LAT_NR_BUCKETS * sizeof(__u64) <= 32768, 1,
	       "a CPU's histogram fits one per-CPU map value (PCPU_MIN_UNIT_SIZE, 32 KiB)");
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
	is_near(p.p50, 1001.5, 0, "one sample: p50");
	is_near(p.p999, 1001.5, 0, "one sample: p99.9");
	is_near(p.max, 1001.5, 0, "one sample: max");

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
	ok(!json_object_get(j, "reference"), "JSON: no reference block without the loop (ref_steps 0)");
	json_decref(j);
	lat.ref_steps = LAT_REF_STEPS;
	j = lat_json(&lat);
	ok(json_is_null(json_object_get(json_object_get(j, "reference"), "p50_ns")) &&
	   json_integer_value(json_object_get(json_object_get(j, "reference"), "samples")) == 0,
	   "JSON: no reference loop ran: 0 samples, p50_ns null");
	json_decref(j);
	/*
	 * The reference: 3 loops in [700, 704), 1 in [800, 804): half the
	 * total, 2, is two thirds into the first bucket, [699.5, 703.5):
	 * 699.5 + 4 x 2/3
	 */
	lat.ref_steps = LAT_REF_STEPS;
	lat.ref_counts[lat_bucket(700)] = 3;
	lat.ref_counts[lat_bucket(800)] = 1;
	doc = lat_json(&lat);
	j = json_object_get(doc, "reference");
	is_int(json_integer_value(json_object_get(j, "steps")), LAT_REF_STEPS, "JSON: the reference's steps");
	is_int(json_integer_value(json_object_get(j, "samples")), 4, "JSON: the reference's loops timed");
	is_near(json_number_value(json_object_get(j, "p50_ns")), 699.5 + 4 * 2.0 / 3, 1e-9,
		"JSON: the reference's median, interpolated in its bucket");
	is_int(json_array_size(json_object_get(j, "buckets")), 2, "JSON: the reference's 2 buckets");
	json_decref(doc);

	/*
	 * The interpolated median, worked by hand.  4 triggers in [1000, 1004)
	 * and 4 in [1004, 1008): half the total, 4, is reached at the end of
	 * the first bucket, taken as the continuum [999.5, 1003.5): 1003.5.
	 */
	clear();
	counts[lat_bucket(1000)] = 4;
	counts[lat_bucket(1004)] = 4;
	is_near(lat_median_interp(counts), 1003.5, 1e-12, "interpolated median: at a bucket's edge");
	/* 1 + 3 in [1004, 1008): half is 2, one into the bucket of 3: 1003.5 + 4 / 3 */
	counts[lat_bucket(1000)] = 1;
	counts[lat_bucket(1004)] = 3;
	is_near(lat_median_interp(counts), 1003.5 + 4.0 / 3, 1e-12,
		"interpolated median: a third into the bucket");
	/* exact buckets below 128 ns: 10 x 5 ns, half is 5: the middle of [4.5, 5.5) */
	clear();
	counts[5] = 10;
	is_near(lat_median_interp(counts), 5, 1e-12, "interpolated median: one exact bucket, its value");
	/* in the overflow bucket: its lower bound, as a 'more than' */
	clear();
	counts[LAT_OVERFLOW] = 3;
	is_near(lat_median_interp(counts), 1ULL << LAT_MAX_SHIFT, 0,
		"interpolated median in the overflow: its lower bound");
	clear();
	ok(isnan(lat_median_interp(counts)), "interpolated median of nothing: NaN");
	interp_follows_shift();
	return done_testing();
}
