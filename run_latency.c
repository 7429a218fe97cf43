// SPDX-License-Identifier: GPL-2.0
/*
 * --latency, the runner's side: refusing it where there is nothing to
 * time, calibrating the timer, and reading the benchmark's per-CPU
 * histogram once per tick as a delta.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "run_latency.h"
#include "latency_calib.skel.h"

static struct {
	int map_fd;
	unsigned int ops_per_trigger;
	bool registered;
	int nr_cpus;
	struct lat_hist *percpu;	/* one per possible CPU, as the map returns them */
	__u64 prev[LAT_NR_BUCKETS];	/* summed over CPUs at the previous tick */
	__u64 delta[LAT_NR_BUCKETS];
	/* the same for the reference loop (LAT_KEY_REF) */
	__u64 ref_prev[LAT_NR_BUCKETS];
	__u64 ref_delta[LAT_NR_BUCKETS];
	/* triggers timed before the benchmark's counters were read this tick */
	__u64 before_measure;
	struct run_latency lat;
} lst = {
	.map_fd = -1,
};

static double m_lat_p50(const struct bench_res *r)
{
	return r->lat_p50;
}

static double m_lat_p99(const struct bench_res *r)
{
	return r->lat_p99;
}

static double m_op_ns(const struct bench_res *r)
{
	return r->op_ns;
}

/*
 * A percentile is known to one bucket: the width of the bucket the run's
 * percentile fell in (per op) is the smallest difference it can show.
 * Two runs a bucket apart differ by 3-6%, which a t-test on samples that
 * all sit in one bucket would call significant however close the truth.
 */
static double lat_resolution(__u64 num, __u64 den)
{
	double v = lat_quantile(lst.lat.counts, num, den);
	unsigned int b = isnan(v) ? 0 : lat_bucket((__u64)v);
	__u64 width = b >= LAT_OVERFLOW ? lat_bucket_lo(LAT_OVERFLOW) :
		      lat_bucket_hi(b) - lat_bucket_lo(b);

	return lat_per_op(&lst.lat, (double)width);
}

static double lat_p50_resolution(void)
{
	return lat_resolution(50, 100);
}

static double lat_p99_resolution(void)
{
	return lat_resolution(99, 100);
}

const struct bench_metric lat_p50_metric = {
	"latency_p50", "ns", false, m_lat_p50, lat_p50_resolution,
};
const struct bench_metric lat_p99_metric = {
	"latency_p99", "ns", false, m_lat_p99, lat_p99_resolution,
};
/*
 * No resolution: interpolated inside buckets 0.4-0.8% wide it follows
 * shifts of 0.2% (tests/unit_latency.c); what limits it is the spread
 * between samples, which the tests see
 */
const struct bench_metric op_ns_metric = {
	"op_ns", "ns", false, m_op_ns, NULL,
};

int bench_latency_register(int map_fd, unsigned int ops_per_trigger)
{
	lst.map_fd = map_fd;
	lst.ops_per_trigger = ops_per_trigger;
	lst.registered = true;
	return 0;
}

/* sum every CPU's histogram of entry key (LAT_KEY_*) into out, through buffer percpu */
static int read_hist_with(__u32 key, struct lat_hist *percpu, __u64 *out)
{
	int cpu, i;

	if (bpf_map_lookup_elem(lst.map_fd, &key, percpu))
		return -errno;
	memset(out, 0, sizeof(__u64) * LAT_NR_BUCKETS);
	for (cpu = 0; cpu < lst.nr_cpus; cpu++)
		for (i = 0; i < LAT_NR_BUCKETS; i++)
			out[i] += percpu[cpu].counts[i];
	return 0;
}

/* the sampler's reads */
static int read_hist(__u32 key, __u64 *out)
{
	return read_hist_with(key, lst.percpu, out);
}

int run_latency_nr_cpus(void)
{
	return lst.nr_cpus;
}

int run_latency_read_batches(struct lat_hist *percpu, __u64 *out)
{
	return read_hist_with(LAT_KEY_BATCH, percpu, out);
}

/*
 * What a recorded batch time includes besides the batch: one pair of
 * bpf_ktime_get_ns() calls, timed here around nothing.
 */
static int calibrate(struct run_latency *lat)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct latency_calib *skel;
	int err;

	skel = latency_calib__open_and_load();
	if (!skel)
		return bench_failed(-errno, "load the --latency calibration program");
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.lat_calibrate), &opts);
	if (err) {
		err = bench_failed(-errno, "run the --latency calibration program");
		goto out;
	}
	lat->calib_rounds = (int)lat_total(skel->bss->calib.counts);
	lat->pair_p50_ns = lat_quantile(skel->bss->calib.counts, 50, 100);
	lat->pair_min_ns = lat_quantile(skel->bss->calib.counts, 1, lat->calib_rounds);
	if (!lat->calib_rounds)
		err = bench_failed(-ENODATA, "calibrate the --latency timer");
out:
	latency_calib__destroy(skel);
	return err;
}

int run_latency_start(struct bench_run *run)
{
	int err;

	if (!lst.registered) {
		fprintf(stderr, "failed to start --latency: benchmark '%s' did not hand over its histogram: %s\n",
			run->bench->name, strerror(EINVAL));
		return -EINVAL;
	}
	lst.nr_cpus = libbpf_num_possible_cpus();
	if (lst.nr_cpus <= 0)
		return bench_failed(lst.nr_cpus ? lst.nr_cpus : -EINVAL, "count possible CPUs");
	lst.percpu = calloc(lst.nr_cpus, sizeof(*lst.percpu));
	if (!lst.percpu)
		return bench_failed(-ENOMEM, "allocate the latency histogram");
	err = calibrate(&lst.lat);
	if (err)
		return err;
	/* whatever set-up triggered is nobody's sample */
	err = run_latency_rebase(run);
	if (err)
		return err;
	lst.lat.ops_per_trigger = lst.ops_per_trigger;
	lst.lat.ref_steps = LAT_REF_STEPS;
	run->lat = &lst.lat;
	return 0;
}

int run_latency_rebase(struct bench_run *run)
{
	int err = read_hist(LAT_KEY_BATCH, lst.prev);

	if (!err)
		err = read_hist(LAT_KEY_REF, lst.ref_prev);
	if (err)
		return bench_failed(err, "read the latency histogram");
	return 0;
}

int run_latency_before_measure(struct bench_run *run)
{
	__u64 cur[LAT_NR_BUCKETS];
	int err;

	err = read_hist(LAT_KEY_BATCH, cur);
	if (err)
		return bench_failed(err, "read the latency histogram");
	lst.before_measure = lat_total(cur);
	return 0;
}

/* this tick's histogram of entry key: delta = cur - prev, added to run when measured */
static void take_delta(const __u64 *cur, __u64 *prev, __u64 *delta, __u64 *run, bool measured)
{
	int i;

	for (i = 0; i < LAT_NR_BUCKETS; i++) {
		delta[i] = cur[i] - prev[i];
		prev[i] = cur[i];
		if (measured)
			run[i] += delta[i];
	}
}

int run_latency_sample(struct bench_run *run, struct bench_res *res, bool measured)
{
	__u64 cur[LAT_NR_BUCKETS], ref[LAT_NR_BUCKETS];
	int err;

	err = read_hist(LAT_KEY_BATCH, cur);
	if (!err)
		err = read_hist(LAT_KEY_REF, ref);
	if (err)
		return bench_failed(err, "read the latency histogram");
	take_delta(cur, lst.prev, lst.delta, lst.lat.counts, measured);
	take_delta(ref, lst.ref_prev, lst.ref_delta, lst.lat.ref_counts, measured);
	res->ref_ns = lat_median_interp(lst.ref_delta);
	res->lat_triggers = (long)lat_total(lst.delta);
	res->lat_edge = (long)(lat_total(cur) - lst.before_measure);
	res->lat_p50 = lat_per_op(&lst.lat, lat_quantile(lst.delta, 50, 100));
	res->lat_p99 = lat_per_op(&lst.lat, lat_quantile(lst.delta, 99, 100));
	res->op_ns = lat_per_op(&lst.lat, lat_median_interp(lst.delta));
	return 0;
}

void run_latency_free(struct bench_run *run)
{
	free(lst.percpu);
	lst.percpu = NULL;
	run->lat = NULL;
}
