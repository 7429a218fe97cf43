/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_H
#define __BENCH_H

#include <argp.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "testing_helpers.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif

/*
 * Most x86/arm64 parts use 64-byte lines, but adjacent-line prefetch makes
 * 128 the distance at which two writers stop disturbing each other.
 */
#define BENCH_CACHELINE 128
#define __cacheline_aligned __attribute__((aligned(BENCH_CACHELINE)))

/* Upper bounds that keep every per-thread array a fixed, checked size. */
#define BENCH_MAX_THREADS 1024

struct env {
	const char *bench_name;
	int duration_sec;
	int warmup_sec;
	bool verbose;
	bool list;
	bool affinity;
	bool quiet;
	int consumer_cnt;
	int producer_cnt;
	struct cpu_list prod_cpus;
	struct cpu_list cons_cpus;
	/* CPU each thread was pinned to, -1 when not pinned */
	int *prod_cpu;
	int *cons_cpu;

	/* results as data (JSON, fairness) */
	const char *json_path;
	bool per_producer;

	int argc;
	char **argv;
};

extern struct env env;

/*
 * One sample, taken once per SIGALRM tick.  The runner fills delta_ns (the
 * measured interval) and provides prod_hits; measure() fills the rest.
 */
struct bench_res {
	long hits;
	long drops;
	/* operations that failed inside the benchmark (e.g. map updates) */
	long fails;
	/* bytes charged to the benchmark's cgroup now, -1 when unavailable */
	long long mem_bytes;
	/* measured length of this sample's interval */
	long delta_ns;
	/* per-producer hits in this interval (producer_cnt entries) or NULL */
	long *prod_hits;
	/* true when measure() filled prod_hits */
	bool has_prod_hits;
};

/*
 * A metric is one number derived from each sample.  Reporters, the JSON
 * writer and `bench compare` all work on metrics, so a rate printed in the
 * Summary and the one in the JSON file are computed by the same code.
 */
struct bench_metric {
	const char *name;	/* JSON key, e.g. "hits" */
	const char *unit;	/* e.g. "M/s" */
	bool higher_is_better;
	/* NaN when the sample has no value for this metric */
	double (*value)(const struct bench_res *res);
	/*
	 * Optional: the smallest difference the measurement can tell apart,
	 * in the metric's unit.  Cgroup memory counters, for one, are charged
	 * in per-CPU batches, so two runs of one configuration can differ by
	 * up to a batch per CPU while every sample of each run is identical;
	 * no t-test can see that, `bench compare` can.
	 */
	double (*resolution)(void);
};

/* who counts a benchmark's operations (res->hits), for the nothing-measured rule */
enum bench_counted_by {
	BENCH_COUNTED_BY_NONE,	/* not checked */
	BENCH_COUNTED_BY_USER,	/* the producer threads themselves */
	BENCH_COUNTED_BY_BPF,	/* a BPF program that recognises the producers */
};

/* key/value sink for a benchmark's effective options */
struct bench_opts_out;
void bench_opt_str(struct bench_opts_out *out, const char *key, const char *val);
void bench_opt_int(struct bench_opts_out *out, const char *key, long long val);
void bench_opt_bool(struct bench_opts_out *out, const char *key, bool val);

struct bench {
	const char *name;
	const char *desc;	/* one line, for --list */
	const struct argp *argp;
	void (*validate)(void);
	void (*setup)(void);
	void *(*producer_thread)(void *ctx);
	void *(*consumer_thread)(void *ctx);
	void (*measure)(struct bench_res *res);
	void (*report_progress)(int iter, struct bench_res *res, long delta_ns);
	void (*report_final)(struct bench_res res[], int res_cnt);
	/*
	 * Undo setup()'s effects outside the process (BPF links, cgroups,
	 * mounts); also called on SIGINT/SIGTERM and from bench_fatal(), so it
	 * must be idempotent.  Producers may still be running when it is
	 * called: never free memory they use.
	 */
	void (*teardown)(void);
	/* metrics for JSON and compare; NULL-name terminated */
	const struct bench_metric *metrics;
	/* the benchmark's own options, defaults included, for JSON/compare */
	void (*describe_opts)(struct bench_opts_out *out);
	/*
	 * Unit and scale of per-producer rates (--per-producer, JSON): the
	 * default is millions of prod_hits per second, "M/s".
	 */
	const char *prod_rate_unit;
	double prod_rate_scale;
	/*
	 * A run whose measured samples count no operation at all measured
	 * nothing: the runner then fails it instead of printing a Summary of
	 * zeros (a BPF program that never recognised a producer, say).
	 */
	enum bench_counted_by counted_by;
};

/*
 * What a run knows beyond its samples, filled by the benchmark and written
 * to JSON: peak memory and where memory figures came from.
 */
struct bench_run_info {
	long long peak_mem_bytes;	/* -1 when not measured */
	const char *mem_cgroup;		/* "v2", "v1" or NULL: memory not measured */
	const char *mem_current_file;	/* e.g. memory.usage_in_bytes */
	const char *mem_peak_file;	/* e.g. memory.max_usage_in_bytes */
};

extern struct bench_run_info bench_run;

/* shared counters, one per cache line */
struct counter {
	long value;
} __cacheline_aligned;

/*
 * One zeroed counter per producer, each on its own cache line; exits via
 * bench_fatal() when out of memory.  Never freed: producers write to them
 * until the process exits.
 */
struct counter *bench_alloc_prod_counters(void);
/* swap each producer's counter to 0 into res->prod_hits; returns their sum */
long bench_collect_prod_counters(struct counter *c, struct bench_res *res);

/* generic reporters */
void hits_drops_report_progress(int iter, struct bench_res *res, long delta_ns);
void hits_drops_report_final(struct bench_res res[], int res_cnt);
extern const struct bench_metric hits_drops_metrics[];

/* statistics of one metric over samples (NaN values skipped) */
void metric_stats(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct stats *st);

/*
 * A metric whose values do not come from the per-second samples (e.g. the
 * per-CPU lookup timings of bpf-hashmap-lookup): summarised in JSON with
 * its values, so `bench compare` can test it like any other.
 */
int bench_add_extra_metric(const char *name, const char *unit, bool higher_is_better,
			   const double *values, int n);

/* results as data (results.c) */
int bench_json_precheck(const char *path);
/* the run as a JSON document (malloc'ed, NULL after saying why) */
char *bench_json_render(struct bench_res *res, int res_cnt, int warmup_cnt);
/* text to path through output_file (see there); says why when it fails */
int bench_json_write(const char *path, const char *text);
void bench_report_per_producer(struct bench_res res[], int res_cnt);
void bench_check_noise(struct bench_res res[], int res_cnt);
void bench_results_free(void);

/* per-sample rate helpers: counters normalised by the measured interval */
static inline double rate_per_sec(long count, long delta_ns)
{
	return delta_ns > 0 ? count * 1e9 / (double)delta_ns : 0.0;
}

/* the runner's bookkeeping, readable by reporters and the JSON writer */
const struct bench *bench_current(void);

/*
 * Printed once when the benchmark needs privileges or kernel features that
 * are missing; exits from validate()/setup() only.
 */
void bench_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static inline long atomic_swap(long *p, long v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}

static inline long atomic_add(long *p, long v)
{
	return __atomic_add_fetch(p, v, __ATOMIC_RELAXED);
}

static inline long atomic_inc(long *p)
{
	return atomic_add(p, 1);
}

#endif /* __BENCH_H */
