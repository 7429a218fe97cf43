/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUN_H
#define __RUN_H

/*
 * One run as the runner hands it to the code that reports on it: the
 * samples, memory, warnings and extra metrics.  Reporting code takes a
 * struct bench_run as an argument and reads no runner globals, so unit
 * tests can build one by hand.
 */
#include <limits.h>
#include <time.h>

#include "bench.h"
#include "latency.h"

#define RUN_MAX_WARNINGS 16
#define RUN_MAX_EXTRA_METRICS 64

/* one field of the memory breakdown (res->mem_stat[i]) */
struct run_mem_field {
	const struct bench_metric *metric;	/* NULL: the kernel does not offer it */
	char file[PATH_MAX + 32];
	const char *key;		/* the file's line(s) it is made of; NULL: the whole file */
};

/* where memory figures came from */
struct run_mem_source {
	const char *cgroup;		/* "v2", "v1" or NULL: memory not measured */
	char current_file[PATH_MAX + 32];
	char peak_file[PATH_MAX + 32];
	struct run_mem_field fields[BENCH_MEM_FIELDS_MAX];
	/* the fields memory_stat sums (indices of fields), in print order */
	int stat_parts[BENCH_MEM_FIELDS_MAX];
	int nstat_parts;	/* 0: no memory_stat */
};

struct run_extra_metric {
	char *name;
	const char *unit;
	bool higher_is_better;
	double *values;
	int n;
};

struct bench_run {
	const struct bench *bench;
	/* the options as given; the run's sizes are below, fixed once it is set up */
	const struct env *env;
	int producer_cnt;
	int consumer_cnt;
	/* CPU each thread was pinned to, -1 when not pinned */
	int *prod_cpu;
	int *cons_cpu;
	/*
	 * Every sample: the warm-up ones of every repeat first (repeat r's
	 * at r * repeat_warmup), then the measured ones (repeat r's at
	 * warmup_cnt + r * repeat_len), so run_measured() is every measured
	 * sample and repeat r's are a slice of it.
	 */
	struct bench_res *res;
	int res_cnt;
	int warmup_cnt;
	int repeat_cnt;		/* 1 without --repeat */
	int repeat_warmup;	/* warm-up samples per repeat */
	int repeat_len;		/* measured samples per repeat */
	/* metrics: the benchmark's, then the runner's (memory), NULL-terminated */
	const struct bench_metric **metrics;
	struct run_mem_source mem;
	long long peak_mem_bytes;	/* -1 when not measured */
	double peak_mem_resolution_mib;	/* 0 when unknown */
	char *warnings[RUN_MAX_WARNINGS];
	int warning_cnt;
	struct run_extra_metric extras[RUN_MAX_EXTRA_METRICS];
	int extra_cnt;
	/* --latency: the run's histogram and timer calibration, else NULL */
	struct run_latency *lat;
	/* the producers' on-CPU time (run_contention.h), NULL until set up */
	struct run_contention *cont;
	/*
	 * Set by run_contention_judge(): the producers were starved, so the
	 * rates measure the machine's load, not the kernel.  The result file
	 * says so and the readers (compare, ab, history, plot) leave it out.
	 */
	bool invalid;
	char invalid_reason[384];
	/* each producer's on-CPU share over the measured samples (NaN: unknown) */
	double *prod_share;
	/*
	 * each producer's fair share of a CPU: 1, or less when the run has
	 * more threads than CPUs; --min-cpu-share is a share of it
	 */
	double *prod_fair_share;
	/* why the fair share is below a CPU ("" when it is not) */
	char validity_note[256];
	/* wall-clock time (CLOCK_REALTIME) the threads started and the samples ended */
	struct timespec start_time, end_time;
};

/* the measured (non warm-up) samples */
static inline struct bench_res *run_measured(const struct bench_run *run)
{
	return run->res + run->warmup_cnt;
}

static inline int run_measured_cnt(const struct bench_run *run)
{
	return run->res_cnt - run->warmup_cnt;
}

/* the repeat sample i (0-based index into run->res) belongs to */
static inline int run_sample_repeat(const struct bench_run *run, int i)
{
	if (i < run->warmup_cnt)
		return run->repeat_warmup ? i / run->repeat_warmup : 0;
	return run->repeat_len ? (i - run->warmup_cnt) / run->repeat_len : 0;
}

/* print "warning: ..." on stderr and keep it for JSON */
void run_warn(struct bench_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int run_add_extra_metric(struct bench_run *run, const char *name, const char *unit,
			 bool higher_is_better, const double *values, int n);
/* free warnings and extra metrics */
void run_notes_free(struct bench_run *run);

#endif /* __RUN_H */
