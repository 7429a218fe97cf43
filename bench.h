/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a benchmark is (struct bench: its hooks, its needs, its metrics) and
 * what a benchmark may call: the runner's options (env), per-producer
 * counters, the hits/drops reporters and the producer failure slot.
 */
#ifndef __BENCH_H
#define __BENCH_H

#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
/* what upstream's bench.h gives its benchmarks: libbpf, IS_ERR(), u32 (include/) */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/err.h>
#include <linux/types.h>

#include "bench_limits.h"
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

/* memory breakdown fields per sample (run_mem.c checks the real count) */
#define BENCH_MEM_FIELDS_MAX 12

/*
 * The runner's options.  Upstream's members first, under its names; its
 * prod_cpus and cons_cpus are bitmaps (struct cpu_set), ours lists, read
 * by the runner alone.
 */
struct env {
	const char *bench_name;
	int duration_sec;
	int warmup_sec;
	bool verbose;
	bool list;
	bool affinity;
	bool quiet;
	/* -s/--stacktrace: for benchmarks written for upstream that read it */
	bool stacktrace;
	int consumer_cnt;
	int producer_cnt;
	/* the CPUs online when the run started (get_nprocs()) */
	int nr_cpus;
	struct cpu_list prod_cpus;
	struct cpu_list cons_cpus;

	/* measured phases in one invocation (--repeat), each with its own warm-up */
	int repeat_cnt;
	/* BPF_F_ZERO_SEED on the measured hash map (--zero-seed) */
	bool zero_seed;

	/* results as data (JSON, fairness) */
	const char *json_path;
	bool per_producer;
	/* --latency: time each trigger's batch of map operations in BPF */
	bool latency;
	/* --stats: robust summaries of every metric after the Summary */
	bool stats;
	/*
	 * --min-cpu-share: a producer's least on-CPU share of a valid run, in %
	 * of its fair share of a CPU (0: never invalid; < 0: not given)
	 */
	double min_cpu_share_pct;
	/* $BENCH_TEST_THREAD_NICE: the benchmark threads' nice value in tests (0: as started) */
	int thread_nice;
	/* --tag: the user's name of the kernel or the run ("base", a commit), JSON only */
	const char *tag;

	int argc;
	char **argv;
};

extern struct env env;
struct bench;
/* upstream's: the benchmark being run (set by the runner) */
extern const struct bench *bench;

/* upstream's: libbpf's messages on stderr, DEBUG ones with -v only */
void setup_libbpf(void);
/*
 * upstream's: the benchmark has what it needs; the run ends after the
 * current sample and summarises the measured samples taken so far
 */
void bench_force_done(void);

/*
 * One sample, taken once per SIGALRM tick.  The runner fills delta_ns (the
 * measured interval) and provides prod_hits; measure() fills the rest.
 */
struct bench_res {
	long hits;
	long drops;
	/* upstream's named counts, which its reporters read */
	long false_hits;	/* bloom-false-positive: lookups the filter let through in vain */
	long important_hits;	/* local-storage-cache-int-get: gets of the important map */
	unsigned long gp_ns;	/* local-storage-tasks-trace: its grace periods' ns, */
	unsigned long gp_ct;	/* their count */
	unsigned int stime;	/* and the system time of its kthread, in ticks */
	/* ns the benchmark's timed work took in this interval (lpm-trie-*), else 0 */
	unsigned long duration_ns;
	/* operations that failed inside the benchmark (e.g. map updates) */
	long fails;
	/* the benchmark's own counts, for its metrics (bpf_ma's frees and timings, kmallocs) */
	long aux[8];
	/* bytes charged to the benchmark's cgroup now, -1 when unavailable */
	long long mem_bytes;
	/* where they go (cgroup_helpers.h's fields: slab, percpu, ...), -1: absent */
	long long mem_stat[BENCH_MEM_FIELDS_MAX];
	/* measured length of this sample's interval */
	long delta_ns;
	/* per-producer hits in this interval (producer_cnt entries) or NULL */
	long *prod_hits;
	/* true when measure() filled prod_hits */
	bool has_prod_hits;
	/*
	 * --latency, filled by the runner: triggers timed in this interval
	 * and their per-op p50 and p99 in ns (NaN when none was timed)
	 */
	long lat_triggers;
	/*
	 * triggers timed while measure() read the benchmark's counters: the
	 * sampler can be preempted there, and lat_triggers and hits may
	 * differ by up to these plus one in-flight trigger per producer
	 */
	long lat_edge;
	double lat_p50;
	double lat_p99;
	/* --latency: the per-op median interpolated inside its bucket (latency.h) */
	double op_ns;
	/* --latency: the reference loop's median in this interval, ns (NaN: none ran) */
	double ref_ns;
	/*
	 * Filled by the runner (run_contention.h): each producer's time on a
	 * CPU as a share of this interval (NaN: unknown) and its involuntary
	 * context switches in it (-1: unknown), producer_cnt entries each;
	 * the machine's steal time as a share of all its CPUs' time (NaN:
	 * unknown).
	 */
	double *prod_cpu_share;
	long *prod_nivcsw;
	double steal_share;
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
	BENCH_COUNTED_BY_CONSUMER,	/* the consumer threads, from what they received */
};

/* key/value sink for a benchmark's effective options */
struct bench_opts_out;
void bench_opt_str(struct bench_opts_out *out, const char *key, const char *val);
void bench_opt_int(struct bench_opts_out *out, const char *key, long long val);
void bench_opt_bool(struct bench_opts_out *out, const char *key, bool val);

/*
 * What a benchmark needs from the machine.  The runner checks and prepares
 * these once, after validate() and before setup(), in one place with one
 * set of messages, and undoes them after teardown().
 */
enum bench_needs {
	/*
	 * privileges to load and attach BPF tracing programs, and a kernel
	 * whose programs can tell the producers apart (progs/bench_producer.h)
	 */
	BENCH_NEEDS_BPF		= 1 << 0,
	/* tracefs, for tracepoint programs (mounted privately if missing) */
	BENCH_NEEDS_TRACEFS	= 1 << 1,
	/*
	 * A memory cgroup of the run's own, joined before setup() so that
	 * the maps setup() creates are charged there: memory is sampled at
	 * every tick and the peak read before the cgroup goes away.
	 */
	BENCH_NEEDS_MEMCG	= 1 << 2,
};

/*
 * What a benchmark can do beyond the basics (struct bench .caps).
 */
enum bench_caps {
	/*
	 * --repeat gives every repeat fresh state: the runner calls
	 * teardown() then setup() between repeats while the producers keep
	 * running, so setup() must register running producers itself and
	 * no producer may touch what teardown() destroys.  Without it a
	 * repeat is a new measured phase of the same state.
	 */
	BENCH_CAP_REPEAT_FRESH	= 1 << 0,
	/* results are not per-second samples: --repeat is refused */
	BENCH_CAP_NO_REPEAT	= 1 << 1,
	/* the measured map is a hash map that honours env.zero_seed */
	BENCH_CAP_ZERO_SEED	= 1 << 2,
	/*
	 * stdout is upstream's lines and nothing else (a side-by-side check
	 * diffs it): the runner adds no Memory: line after them; the JSON
	 * has the breakdown
	 */
	BENCH_CAP_UPSTREAM_STDOUT = 1 << 3,
	/*
	 * the producers only loop on a syscall, holding no lock: the runner
	 * parks them in a signal handler before teardown, so that no program
	 * is detached from a function they are running (runner.c says why);
	 * a producer parked inside malloc() or a mutex would hang teardown
	 */
	BENCH_CAP_PARK_THREADS	= 1 << 4,
	/*
	 * the producers wait by design (for a consumer, a child, a timer):
	 * their on-CPU share is recorded but does not invalidate the run
	 */
	BENCH_CAP_PRODUCERS_SLEEP = 1 << 5,
	/*
	 * the consumers never read bench_consumers_stopping(): they block
	 * until the process exits, as upstream's runner lets them (its
	 * rb-libbpf polls with no timeout); the runner does not wait for them
	 */
	BENCH_CAP_CONSUMERS_ENDLESS = 1 << 6,
};

/* what every BPF benchmark needs */
#define BENCH_NEEDS_BPF_TRACING (BENCH_NEEDS_BPF | BENCH_NEEDS_TRACEFS | BENCH_NEEDS_MEMCG)

/*
 * The hooks as this tree writes them: each returns 0, or a negative errno
 * after printing one line saying what failed; the runner then cleans up
 * and exits non-zero.  Where one is set, the runner calls it instead of
 * upstream's hook of the same name in struct bench.
 */
struct bench_ext {
	/* checks of option combinations; runs before anything is created */
	int (*validate)(void);
	int (*setup)(void);
	/* once per sample tick */
	int (*measure)(struct bench_res *res);
	/* may refuse results that are invalid (e.g. a lookup missed) */
	int (*report_final)(struct bench_res res[], int res_cnt);
};

/*
 * One benchmark.  Its first members are upstream's, with upstream's names
 * and types (tools/testing/selftests/bpf/bench.h), so that a benchmark
 * written for upstream builds here unchanged: its void hooks may exit(1)
 * on failure, and the runner's clean-up then runs from exit() (atexit),
 * leaving no cgroup, mount or attached program behind.  The members after
 * them are ours; upstream-style benchmarks leave them zero.
 */
struct bench {
	const char *name;
	const struct argp *argp;
	void (*validate)(void);
	void (*setup)(void);
	/*
	 * Producers run until the process exits.  A producer that cannot go
	 * on calls bench_producer_fail() and returns; the runner ends the run.
	 */
	void *(*producer_thread)(void *ctx);
	/*
	 * Consumers run until the runner stops them, before teardown():
	 * see bench_consumers_stopping().
	 */
	void *(*consumer_thread)(void *ctx);
	void (*measure)(struct bench_res *res);
	void (*report_progress)(int iter, struct bench_res *res, long delta_ns);
	void (*report_final)(struct bench_res res[], int res_cnt);
	/*
	 * Undo setup()'s effects outside the process (BPF links and maps).
	 * The runner calls it exactly once when setup() was called, whether
	 * it succeeded or not, so it must cope with a half-done set-up.
	 * Producers may still be running: never free memory they use.
	 * Consumers have been stopped and joined, unless
	 * bench_consumers_joined() says one would not stop: then what
	 * they use must stay too.  (Upstream's bench.h had it for a while.)
	 */
	void (*teardown)(void);

	/* our hooks, preferred to upstream's of the same names */
	struct bench_ext ext;
	/* an older name that still selects it (upstream's, before a rename) */
	const char *alias;
	const char *desc;	/* one line, for --list */
	unsigned int needs;	/* enum bench_needs */
	unsigned int caps;	/* enum bench_caps */
	/*
	 * Metrics for JSON and compare; NULL-name terminated.  The runner
	 * adds "memory" for BENCH_NEEDS_MEMCG benchmarks.
	 */
	const struct bench_metric *metrics;
	/* the benchmark's own options, defaults included, for JSON/compare */
	void (*describe_opts)(struct bench_opts_out *out);
	/* optional: the whole run's counts, for cross-checks (JSON "counts") */
	void (*describe_counts)(struct bench_opts_out *out);
	/*
	 * Unit and scale of per-producer rates (--per-producer, JSON): the
	 * default is millions of prod_hits per second, "M/s".
	 */
	const char *prod_rate_unit;
	double prod_rate_scale;
	/*
	 * A run whose measured samples count no operation at all (no hit and
	 * no drop) measured nothing: the runner then fails it instead of printing a Summary of
	 * zeros (a BPF program that never recognised a producer, say).
	 */
	enum bench_counted_by counted_by;
	/*
	 * Supports --latency: its BPF program times each trigger's batch of
	 * map operations (progs/latency.h) when lat_enabled is set, and
	 * setup() hands the histogram over with bench_latency_register().
	 */
	bool latency;
};

/*
 * --latency: called by setup() once the program is loaded, with the fd of
 * its lat_hist map and the map operations one trigger does (0: none).
 * 0, or a negative errno after one line on stderr.
 */
int bench_latency_register(int map_fd, unsigned int ops_per_trigger);

/*
 * Consumers: the runner stops them before teardown() on every path (the
 * end of the run, a failure, a signal), by setting a flag and joining
 * them.  A consumer loop ends once bench_consumers_stopping() is true;
 * it never blocks longer than BENCH_CONSUMER_WAIT_MS at a time (the
 * timeout of its epoll_wait() or ring_buffer__poll()), so that it sees
 * the flag when nothing arrives any more, as after a detach.  A signal
 * handler does no more than the runner's sigwait() loop: nothing.
 */
#define BENCH_CONSUMER_WAIT_MS 100
bool bench_consumers_stopping(void);
/* true when every consumer that started was joined (or none started) */
bool bench_consumers_joined(void);

/* shared counters, one per cache line */
struct counter {
	long value;
} __cacheline_aligned;

/*
 * One zeroed counter per producer, each on its own cache line; 0, or
 * -ENOMEM after one line on stderr.  Never freed: producers write to them
 * until the process exits.
 */
int bench_alloc_prod_counters(struct counter **out);
/* swap each producer's counter to 0 into res->prod_hits; returns their sum */
long bench_collect_prod_counters(struct counter *c, struct bench_res *res);

/*
 * Print "failed to <what>: <strerror(-err)>" on stderr and return err, a
 * negative errno: `return bench_failed(err, "load %s", name);`
 */
int bench_failed(int err, const char *what_fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Until called again with NULL, this thread's bench_failed() writes its
 * line into buf instead (the last one kept): a try whose failure is
 * reported later, or not at all (lib_hook.h's fentry try).
 */
void bench_failed_into(char *buf, size_t sz);

/*
 * Called by a producer that cannot go on (err: a negative errno): the
 * first message is kept, the sampler wakes up, prints it and ends the run
 * with clean-up.  The producer returns after calling it.
 */
void bench_producer_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* generic reporters (reporters.c) */
/* "Iter %3d (%7.3lfus): ", upstream's start of every Iter line */
void bench_print_iter_prefix(int iter, long delta_ns);
void hits_drops_report_progress(int iter, struct bench_res *res, long delta_ns);
void hits_drops_report_final(struct bench_res res[], int res_cnt);
/* upstream's others, its lines from the named counts (rates per measured interval) */
void false_hits_report_progress(int iter, struct bench_res *res, long delta_ns);
void false_hits_report_final(struct bench_res res[], int res_cnt);
void ops_report_progress(int iter, struct bench_res *res, long delta_ns);
void ops_report_final(struct bench_res res[], int res_cnt);
void local_storage_report_progress(int iter, struct bench_res *res, long delta_ns);
void local_storage_report_final(struct bench_res res[], int res_cnt);

/* one figure over samples: mean and sample standard deviation */
struct basic_stats {
	double mean;
	double stddev;
};

/* us per grace period (gp_ns / gp_ct), and the kthread's ticks per grace period */
void grace_period_latency_basic_stats(struct bench_res res[], int res_cnt,
				      struct basic_stats *gp_stat);
void grace_period_ticks_basic_stats(struct bench_res res[], int res_cnt,
				    struct basic_stats *gp_stat);
extern const struct bench_metric hits_drops_metrics[];

/*
 * A metric's value in each of res[0..res_cnt), gathered in this one place:
 * malloc'ed, res_cnt + 1 slots (NaN where a sample has none); NULL when
 * out of memory.
 */
double *metric_values(const struct bench_metric *m, const struct bench_res res[], int res_cnt);
/* statistics of one metric over samples (NaN values skipped) */
void metric_stats(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct stats *st);
/*
 * robust summaries of a metric over samples (stats_robust()); *outl gets
 * res_cnt slots (malloc'ed, NULL on failure).  0 or -ENOMEM.
 */
int metric_robust(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct robust *r, struct outlier **outl);
/*
 * A metric's two levels over repeat_cnt repeats of repeat_len samples each
 * (stats_two_level(); means: repeat_cnt slots or NULL).  0 or -ENOMEM.
 */
int metric_two_level(const struct bench_metric *m, const struct bench_res res[],
		     int repeat_cnt, int repeat_len, struct two_level *tl, double *means);
/* the --stats line of one metric (first_sample: JSON index of value 0, -1: none) */
void robust_print(FILE *f, const char *name, const char *unit, const struct robust *r,
		  const struct outlier *o, int first_sample);

/*
 * Memory of the run's cgroup (BENCH_NEEDS_MEMCG): the metric the runner
 * adds, its value for one sample (NaN when unavailable) and the peak over
 * the whole run in bytes (-1 when unavailable; read before report_final).
 */
extern const struct bench_metric bench_memory_metric;
long long bench_peak_mem_bytes(void);
/*
 * The run's own cgroup v2 directory, where its memory cgroup is a v2 one
 * (the process is in it, and the runner removes it): a place to attach
 * cgroup programs to.  NULL otherwise.
 */
const char *bench_run_cgroup_v2(void);

/*
 * A metric whose values do not come from the per-second samples (e.g. the
 * per-CPU lookup timings of bpf-hashmap-lookup): summarised in JSON with
 * its values, so `bench compare` can test it like any other.  Added again
 * under the same name, it takes the new values (one per repeat, built up
 * by report_final()).
 */
int bench_add_extra_metric(const char *name, const char *unit, bool higher_is_better,
			   const double *values, int n);

/* CLOCK_MONOTONIC in ns: the sampler's clock, and the one bpf_ktime_get_ns() reads */
static inline long bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* upstream's name of the same clock */
static inline __u64 get_time_ns(void)
{
	return bench_now_ns();
}

/* per-sample rate helpers: counters normalised by the measured interval */
static inline double rate_per_sec(long count, long delta_ns)
{
	return delta_ns > 0 ? count * 1e9 / (double)delta_ns : 0.0;
}

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
