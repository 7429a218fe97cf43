// SPDX-License-Identifier: GPL-2.0
/*
 * --latency: bucket bounds, percentiles, the Summary line and the JSON
 * block.  Pure functions of a histogram, so the unit tests can check them
 * against values worked out by hand.
 */
#include <math.h>
#include <stdio.h>

#include "latency.h"
#include "json_util.h"

__u64 lat_bucket_lo(unsigned int idx)
{
	unsigned int m, sub;

	if (idx < LAT_SUB)
		return idx;
	if (idx >= LAT_OVERFLOW)
		return 1ULL << LAT_MAX_SHIFT;
	m = (idx - LAT_SUB) / LAT_SUB + LAT_SUB_SHIFT;
	sub = (idx - LAT_SUB) % LAT_SUB;
	return (1ULL << m) + ((__u64)sub << (m - LAT_SUB_SHIFT));
}

__u64 lat_bucket_hi(unsigned int idx)
{
	if (idx >= LAT_OVERFLOW)
		return (__u64)-1;
	return lat_bucket_lo(idx + 1);
}

double lat_bucket_value(unsigned int idx)
{
	if (idx >= LAT_OVERFLOW)
		return (double)lat_bucket_lo(LAT_OVERFLOW);
	/* the bucket holds the integers lo .. hi - 1 */
	return (lat_bucket_lo(idx) + lat_bucket_hi(idx) - 1) / 2.0;
}

__u64 lat_total(const __u64 *counts)
{
	__u64 t = 0;
	int i;

	for (i = 0; i < LAT_NR_BUCKETS; i++)
		t += counts[i];
	return t;
}

double lat_quantile(const __u64 *counts, __u64 num, __u64 den)
{
	__u64 total = lat_total(counts), rank, seen = 0;
	int i;

	if (!total || !num || num > den)
		return NAN;
	rank = (__u64)(((unsigned __int128)total * num + den - 1) / den);
	for (i = 0; i < LAT_NR_BUCKETS; i++) {
		seen += counts[i];
		if (seen >= rank)
			return lat_bucket_value(i);
	}
	return NAN;
}

double lat_median_interp(const __u64 *counts)
{
	__u64 total = lat_total(counts), seen = 0;
	double half = total / 2.0, lo;
	int i;

	if (!total)
		return NAN;
	for (i = 0; i < LAT_NR_BUCKETS; i++) {
		if (!counts[i] || seen + counts[i] < half) {
			seen += counts[i];
			continue;
		}
		if (i == LAT_OVERFLOW)
			return (double)lat_bucket_lo(LAT_OVERFLOW);
		/* bucket [lo, hi) holds integers: as a continuum, [lo - 1/2, hi - 1/2) */
		lo = lat_bucket_lo(i) - 0.5;
		return lo + (double)(lat_bucket_hi(i) - lat_bucket_lo(i)) * (half - seen) / counts[i];
	}
	return NAN;
}

void lat_pcts(const __u64 *counts, struct lat_pcts *out)
{
	out->triggers = lat_total(counts);
	out->overflow = counts[LAT_OVERFLOW];
	out->p50 = lat_quantile(counts, 50, 100);
	out->p90 = lat_quantile(counts, 90, 100);
	out->p99 = lat_quantile(counts, 99, 100);
	out->p999 = lat_quantile(counts, 999, 1000);
	out->max = lat_quantile(counts, 1, 1);
}

double lat_per_op(const struct run_latency *lat, double batch_ns)
{
	return lat->ops_per_trigger ? batch_ns / lat->ops_per_trigger : batch_ns;
}

int lat_format_ns(char *buf, size_t len, const struct run_latency *lat, double batch_ns)
{
	double v = lat_per_op(lat, batch_ns);

	if (isnan(v))
		return snprintf(buf, len, "n/a");
	return snprintf(buf, len, "%s%.*lf", batch_ns >= lat_bucket_lo(LAT_OVERFLOW) ? ">=" : "",
			v < 100 ? 1 : 0, v);
}

static void print_ns(const struct run_latency *lat, double batch_ns)
{
	char buf[48];

	lat_format_ns(buf, sizeof(buf), lat, batch_ns);
	fputs(buf, stdout);
}

void lat_print_summary(const struct run_latency *lat)
{
	struct lat_pcts p;

	lat_pcts(lat->counts, &p);
	printf("Latency: %s p50 ", lat->ops_per_trigger ? "per-op" : "per-trigger");
	print_ns(lat, p.p50);
	printf(" ns, p90 ");
	print_ns(lat, p.p90);
	printf(", p99 ");
	print_ns(lat, p.p99);
	printf(", p99.9 ");
	print_ns(lat, p.p999);
	printf(", max ");
	print_ns(lat, p.max);
	if (lat->ops_per_trigger)
		printf(" (%llu triggers, %u ops each)\n", (unsigned long long)p.triggers,
		       lat->ops_per_trigger);
	else
		printf(" (%llu triggers, no map operations)\n", (unsigned long long)p.triggers);
	if (p.overflow)
		printf("Latency: %llu triggers took %llu ns or more (overflow bucket; counted above as that bound)\n",
		       (unsigned long long)p.overflow,
		       (unsigned long long)lat_bucket_lo(LAT_OVERFLOW));
	if (lat->ops_per_trigger)
		printf("Latency: per-op median %.2f ns, interpolated inside its bucket (op_ns: the per-op cost that a busy machine does not move)\n",
		       lat_per_op(lat, lat_median_interp(lat->counts)));
	printf("Latency: a bpf_ktime_get_ns() pair costs %.0lf ns (median of %d empty batches), included above, not subtracted\n",
	       lat->pair_p50_ns, lat->calib_rounds);
	printf("Latency: machine speed: a %u-step empty bpf_loop() took %.1f ns (median of %llu, run after 1 batch in %d, outside its timing)\n",
	       lat->ref_steps, lat_median_interp(lat->ref_counts),
	       (unsigned long long)lat_total(lat->ref_counts), LAT_REF_EVERY);
}

static json_t *pcts_json(const struct run_latency *lat, const struct lat_pcts *p, bool per_op)
{
	double v[] = { p->p50, p->p90, p->p99, p->p999, p->max };
	const char *k[] = { "p50", "p90", "p99", "p99_9", "max" };
	json_t *o = json_object();
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		json_object_set_new(o, k[i], json_finite(per_op ? lat_per_op(lat, v[i]) : v[i]));
	return o;
}

/* a histogram's non-empty buckets: [{lo_ns, hi_ns (null: overflow), count}] */
static json_t *buckets_json(const __u64 *counts)
{
	json_t *buckets = json_array();
	int i;

	for (i = 0; i < LAT_NR_BUCKETS; i++) {
		if (!counts[i])
			continue;
		json_array_append_new(buckets, json_pack("{s:I, s:o, s:I}",
			"lo_ns", (json_int_t)lat_bucket_lo(i),
			"hi_ns", i == LAT_OVERFLOW ? json_null() : json_integer(lat_bucket_hi(i)),
			"count", (json_int_t)counts[i]));
	}
	return buckets;
}

/* the machine's speed beside the batches (progs/latency.h, LAT_REF_STEPS) */
static json_t *ref_json(const struct run_latency *lat)
{
	return json_pack("{s:s, s:i, s:i, s:I, s:o, s:o}",
		"what", "an empty bpf_loop() of steps steps, timed after one batch in every (chosen at random), outside the batch's timing; bench ab compares A's p50_ns with B's",
		"steps", lat->ref_steps, "every", LAT_REF_EVERY,
		"samples", (json_int_t)lat_total(lat->ref_counts),
		"p50_ns", json_finite(lat_median_interp(lat->ref_counts)),
		"buckets", buckets_json(lat->ref_counts));
}

json_t *lat_json(const struct run_latency *lat)
{
	json_t *o, *buckets = buckets_json(lat->counts);
	struct lat_pcts p;

	lat_pcts(lat->counts, &p);
	o = json_pack("{s:s, s:s, s:s, s:i, s:I, s:I}",
		      "clock", "bpf_ktime_get_ns (CLOCK_MONOTONIC)",
		      "unit", "ns",
		      "percentile_method", "nearest rank; a bucket is reported as its midpoint (within 0.4%), the overflow bucket as its lower bound; p50_interpolated: the median with the histogram spread evenly inside each bucket",
		      "ops_per_trigger", lat->ops_per_trigger,
		      "triggers", (json_int_t)p.triggers,
		      "overflow", (json_int_t)p.overflow);
	json_object_set_new(o, "overflow_from_ns", json_integer(lat_bucket_lo(LAT_OVERFLOW)));
	json_object_set_new(o, "timer_pair_ns", json_pack("{s:o, s:o, s:i, s:b}",
		"median", json_finite(lat->pair_p50_ns), "min", json_finite(lat->pair_min_ns),
		"rounds", lat->calib_rounds, "subtracted", 0));
	/* what the histogram holds: one trigger's batch, timer pair included */
	json_object_set_new(o, "per_trigger", pcts_json(lat, &p, false));
	json_object_set_new(o, "per_op", pcts_json(lat, &p, true));
	json_object_set_new(json_object_get(o, "per_trigger"), "p50_interpolated",
			    json_finite(lat_median_interp(lat->counts)));
	json_object_set_new(json_object_get(o, "per_op"), "p50_interpolated",
			    json_finite(lat_per_op(lat, lat_median_interp(lat->counts))));
	json_object_set_new(o, "buckets", buckets);
	/* a run_latency built without the loop (a test's, a reader's) has none */
	if (lat->ref_steps)
		json_object_set_new(o, "reference", ref_json(lat));
	return o;
}
