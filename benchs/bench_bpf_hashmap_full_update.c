// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-full-update, after upstream's: a preallocated hash map is
 * filled to max_entries, then every producer's getpgid() updates a key
 * that is not in it 10000 times, each update failing for want of a free
 * element.  The BPF program times each batch per CPU; the result is one
 * rate per CPU, printed as upstream prints it:
 *
 *   0:hash_map_full_perf 2365211 events per sec
 *
 * Each line is the rate of the CPU's last batch before the final sample,
 * as upstream prints the last batch its percpu_time[] holds: one batch of
 * 10000 updates, a few milliseconds.  --all-batches prints instead the
 * rate over every batch of the measured samples (updates / their time),
 * the same quantity with less noise.  Each sample's rate per CPU is kept
 * in the JSON either way.  Every update must fail and be counted: with the
 * producers stopped, updates = failed + succeeded, and none may succeed.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "benchs/lib_hook.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "progs/full_update.h"
#include "bpf_hashmap_full_update_bench.skel.h"

/* how long a producer may take to finish its batch (a guest under TCG is slow) */
#define FULL_UPDATE_QUIESCE_MS	30000

static enum bench_hook hook_wanted = BENCH_HOOK_AUTO;
/* each CPU's rate over every measured batch, not its last batch's */
static bool all_batches;

enum { ARG_HOOK = 5000, ARG_ALL_BATCHES };

static const struct argp_option opts[] = {
	{ "hook", ARG_HOOK, "HOOK", 0, BENCH_HOOK_HELP },
	{ "all-batches", ARG_ALL_BATCHES, NULL, 0,
	  "Print each CPU's rate over every batch of the measured samples "
	  "(default: its last batch's, as upstream)" },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_HOOK:
		return bench_hook_parse(arg, &hook_wanted);
	case ARG_ALL_BATCHES:
		all_batches = true;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp full_update_argp = {
	.options = opts,
	.parser = parse_arg,
};

/* each CPU's cumulative counters at one sample tick */
struct tick {
	const struct bench_res *res;
	int gen;		/* the BPF object they came from (one per repeat) */
	__u64 *updates;		/* nr_cpus each */
	__u64 *time_ns;
	__u64 *last_ns;		/* the time of the CPU's last batch so far */
};

static struct {
	struct bpf_hashmap_full_update_bench *skel;
	struct bench_producers prod;
	enum bench_hook hook;	/* the one that ran */
	int nr_cpus;
	struct full_update_cpu *cpus;	/* read buffer, one per possible CPU */
	struct tick *ticks;
	int nr_ticks, max_ticks;
	int gen;
	__u64 prev_fails;
	int reports;
	/* per CPU, the measured samples' rates (M/s) over every repeat, for JSON */
	double **rates;
	int *nr_rates;
} ctx;

static void teardown(void)
{
	bench_producers_close(&ctx.prod);
	bpf_hashmap_full_update_bench__destroy(ctx.skel);
	ctx.skel = NULL;
}

static struct bpf_program *hook_prog(enum bench_hook hook)
{
	return hook == BENCH_HOOK_FENTRY ? ctx.skel->progs.full_update_fentry :
					   ctx.skel->progs.full_update_tp;
}

/* upstream's fill: every key 0..max_entries-1, so that the map is full */
static int fill_map(void)
{
	int fd = bpf_map__fd(ctx.skel->maps.hash_map_bench);
	__u64 value;
	__u32 key;

	for (key = 0; key < FULL_UPDATE_MAX_ENTRIES; key++) {
		value = key;
		if (bpf_map_update_elem(fd, &key, &value, BPF_NOEXIST))
			return bench_failed(-errno, "fill the hash map (key %u of %u)", key,
					    FULL_UPDATE_MAX_ENTRIES);
	}
	return 0;
}

static int load_and_attach(enum bench_hook hook)
{
	struct bench_skel sk;
	int err;

	ctx.skel = bpf_hashmap_full_update_bench__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	if (env.zero_seed)
		bpf_map__set_map_flags(ctx.skel->maps.hash_map_bench,
				       bpf_map__map_flags(ctx.skel->maps.hash_map_bench) |
				       BPF_F_ZERO_SEED);
	sk = BENCH_SKEL_LAT(ctx.skel, &ctx.prod, FULL_UPDATE_NR_LOOPS);
	sk.prog = hook_prog(hook);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = bench_skel_load(&sk);
	if (!err)
		err = fill_map();
	if (err)
		return err;
	/* after the fill: no update is timed on a map that is not full yet */
	return bench_skel_attach(&sk);
}

static void unload(void)
{
	teardown();
}

static const struct bench_hook_ops hook_ops = {
	.load = load_and_attach,
	.unload = unload,
	.prog = hook_prog,
};

/* once: kept across --repeat's set-ups, freed at exit */
static int alloc_state(void)
{
	int i, samples = env.warmup_sec + env.duration_sec;

	ctx.nr_cpus = libbpf_num_possible_cpus();
	if (ctx.nr_cpus <= 0)
		return bench_failed(ctx.nr_cpus ? ctx.nr_cpus : -EINVAL, "count possible CPUs");
	/* every sample, and the discarded one that starts each later repeat */
	ctx.max_ticks = (samples + 1) * env.repeat_cnt;
	ctx.cpus = calloc(ctx.nr_cpus, sizeof(*ctx.cpus));
	ctx.ticks = calloc(ctx.max_ticks, sizeof(*ctx.ticks));
	ctx.rates = calloc(ctx.nr_cpus, sizeof(*ctx.rates));
	ctx.nr_rates = calloc(ctx.nr_cpus, sizeof(*ctx.nr_rates));
	if (!ctx.cpus || !ctx.ticks || !ctx.rates || !ctx.nr_rates)
		return bench_failed(-ENOMEM, "allocate per-CPU state");
	for (i = 0; i < ctx.max_ticks; i++) {
		ctx.ticks[i].updates = calloc(ctx.nr_cpus, sizeof(__u64));
		ctx.ticks[i].time_ns = calloc(ctx.nr_cpus, sizeof(__u64));
		ctx.ticks[i].last_ns = calloc(ctx.nr_cpus, sizeof(__u64));
		if (!ctx.ticks[i].updates || !ctx.ticks[i].time_ns || !ctx.ticks[i].last_ns)
			return bench_failed(-ENOMEM, "allocate per-CPU samples");
	}
	for (i = 0; i < ctx.nr_cpus; i++) {
		ctx.rates[i] = calloc(env.duration_sec * env.repeat_cnt, sizeof(double));
		if (!ctx.rates[i])
			return bench_failed(-ENOMEM, "allocate per-CPU rates");
	}
	return 0;
}

static int setup(void)
{
	int err;

	if (!ctx.ticks) {
		err = alloc_state();
		if (err)
			return err;
	}
	/* again for each --repeat: the new object's counters start at 0 */
	ctx.prev_fails = 0;
	ctx.gen++;
	/* a later repeat's object goes where the first one went, without a word */
	err = bench_hook_load(ctx.gen == 1 ? hook_wanted : ctx.hook, &hook_ops, &ctx.hook,
			      ctx.gen == 1);
	/* --latency's histogram is registered by the load */
	return err;
}

static void trigger(void)
{
	syscall(__NR_getpgid);
}

static void *producer(void *input)
{
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	bench_producer_loop(trigger);
	return NULL;
}

/* this tick's cumulative per-CPU counters, to be found again by res */
static int record_tick(const struct bench_res *res)
{
	__u32 zero = 0;
	struct tick *t;
	int i;

	if (ctx.nr_ticks == ctx.max_ticks)
		return bench_failed(-E2BIG, "record sample %d of %d", ctx.nr_ticks + 1,
				    ctx.max_ticks);
	if (bpf_map_lookup_elem(bpf_map__fd(ctx.skel->maps.cpu_state), &zero, ctx.cpus))
		return bench_failed(-errno, "read bpf-hashmap-full-update's per-CPU timings");
	t = &ctx.ticks[ctx.nr_ticks++];
	t->res = res;
	t->gen = ctx.gen;
	for (i = 0; i < ctx.nr_cpus; i++) {
		t->updates[i] = ctx.cpus[i].updates;
		t->time_ns[i] = ctx.cpus[i].time_ns;
		t->last_ns[i] = ctx.cpus[i].last_ns;
	}
	return 0;
}

static int measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS];

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	/*
	 * The full map's -E2BIG is the measured path, not a failure: a
	 * failure is an update that did not fail, which also fails the run at
	 * its end.  Readers of summary.fails (export kcidb, compare) take
	 * fails > 0 as a run whose figures are not to be trusted.
	 */
	res->fails = (long)(errs[FULL_UPDATE_DONE] - ctx.prev_fails);
	ctx.prev_fails = errs[FULL_UPDATE_DONE];
	return record_tick(res);
}

/* the tick of a sample, or -1 */
static int tick_of(const struct bench_res *res)
{
	int i;

	for (i = ctx.nr_ticks - 1; i >= 0; i--)
		if (ctx.ticks[i].res == res)
			return i;
	return -1;
}

/* a CPU's counters before tick i: the previous tick of the same object, or 0 */
static void before_tick(int i, int cpu, __u64 *updates, __u64 *time_ns)
{
	*updates = 0;
	*time_ns = 0;
	if (i > 0 && ctx.ticks[i - 1].gen == ctx.ticks[i].gen) {
		*updates = ctx.ticks[i - 1].updates[cpu];
		*time_ns = ctx.ticks[i - 1].time_ns[cpu];
	}
}

/*
 * With the producers stopped, every update of the last object must have
 * failed or succeeded, and none may have succeeded: the map was full.
 */
static int check_counts(void)
{
	__u64 errs[BENCH_PROD_NR_ERRS], updates = 0, cpu_updates = 0, batches = 0;
	__u32 zero = 0;
	int i, err;

	err = bench_producers_quiesce(env.producer_cnt, FULL_UPDATE_QUIESCE_MS);
	if (err)
		return bench_failed(err, "stop the producers to read the update counts");
	if (bpf_map_lookup_elem(bpf_map__fd(ctx.skel->maps.cpu_state), &zero, ctx.cpus))
		return bench_failed(-errno, "read bpf-hashmap-full-update's per-CPU timings");
	for (i = 0; i < ctx.prod.nr; i++)
		updates += ctx.prod.counters[i].hits;
	for (i = 0; i < ctx.nr_cpus; i++) {
		cpu_updates += ctx.cpus[i].updates;
		batches += ctx.cpus[i].batches;
	}
	bench_producers_errs(&ctx.prod, errs);
	if (errs[FULL_UPDATE_FAILED] + errs[FULL_UPDATE_DONE] != updates || cpu_updates != updates ||
	    batches * FULL_UPDATE_NR_LOOPS != updates) {
		fprintf(stderr, "bpf-hashmap-full-update: the counts do not add up: %llu updates (%llu per CPU, %llu batches of %d), but %llu failed + %llu succeeded: the results are invalid\n",
			(unsigned long long)updates, (unsigned long long)cpu_updates,
			(unsigned long long)batches, FULL_UPDATE_NR_LOOPS,
			(unsigned long long)errs[FULL_UPDATE_FAILED],
			(unsigned long long)errs[FULL_UPDATE_DONE]);
		return -EIO;
	}
	if (errs[FULL_UPDATE_DONE]) {
		fprintf(stderr, "bpf-hashmap-full-update: %llu of %llu updates succeeded: the map was not full, the results are invalid\n",
			(unsigned long long)errs[FULL_UPDATE_DONE], (unsigned long long)updates);
		return -EIO;
	}
	return 0;
}

/*
 * A CPU's updates and their time for its line: its last batch (upstream's
 * figure, which a CPU has once it ran one, in the warm-up too), or with
 * --all-batches every batch of the measured samples.
 */
static void line_counts(int first, int last, int cpu, __u64 *u, __u64 *n)
{
	__u64 u0, n0;

	if (!all_batches) {
		*n = ctx.ticks[last].last_ns[cpu];
		*u = FULL_UPDATE_NR_LOOPS;
		return;
	}
	before_tick(first, cpu, &u0, &n0);
	*u = ctx.ticks[last].updates[cpu] - u0;
	*n = ctx.ticks[last].time_ns[cpu] - n0;
}

/* each CPU's line, and each sample's rate per CPU for JSON */
static int report_cpus(struct bench_res res[], int res_cnt, const char *prefix)
{
	int first = tick_of(&res[0]), last = first + res_cnt - 1, cpu, i, printed = 0;
	__u64 u0, n0, u, n;

	if (first < 0 || last >= ctx.nr_ticks || ctx.ticks[last].res != &res[res_cnt - 1])
		return bench_failed(-EINVAL, "find the measured samples' per-CPU timings");
	for (cpu = 0; cpu < ctx.nr_cpus; cpu++) {
		for (i = first; i <= last; i++) {
			before_tick(i, cpu, &u0, &n0);
			n = ctx.ticks[i].time_ns[cpu] - n0;
			if (n)
				ctx.rates[cpu][ctx.nr_rates[cpu]++] =
					(ctx.ticks[i].updates[cpu] - u0) * 1e3 / n;
		}
		line_counts(first, last, cpu, &u, &n);
		if (!n)
			continue;
		/* upstream's integer arithmetic */
		printf("%s%d:hash_map_full_perf %lld events per sec\n", printed ? prefix : "", cpu,
		       (long long)(u * 1000000000ull / n));
		printed++;
	}
	if (!printed) {
		fprintf(stderr, "no update batch finished in the measured samples: run longer (-d)\n");
		return -ENODATA;
	}
	return 0;
}

static int add_rate_metrics(void)
{
	char name[32];
	int cpu, err;

	for (cpu = 0; cpu < ctx.nr_cpus; cpu++) {
		if (!ctx.nr_rates[cpu])
			continue;
		snprintf(name, sizeof(name), "full_update_cpu%02d", cpu);
		err = bench_add_extra_metric(name, "M/s", true, ctx.rates[cpu], ctx.nr_rates[cpu]);
		if (err)
			return bench_failed(err, "record %s", name);
	}
	return 0;
}

static int report_final(struct bench_res res[], int res_cnt)
{
	char prefix[32] = "";
	int err, repeat = ctx.reports++;

	/* first, so that an invalid run prints no rate at all */
	if (!repeat) {
		err = check_counts();
		if (err)
			return err;
	}
	/* the runner printed "Repeat i/N: " before the first line; the others say it too */
	if (env.repeat_cnt > 1)
		snprintf(prefix, sizeof(prefix), "Repeat %d/%d: ", repeat + 1, env.repeat_cnt);
	err = report_cpus(res, res_cnt, prefix);
	if (err)
		return err;
	if (repeat == env.repeat_cnt - 1)
		return add_rate_metrics();
	return 0;
}

/* updates per second, all producers, wall clock */
static double m_updates(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / 1e6;
}

static const struct bench_metric full_update_metrics[] = {
	{ "updates", "M/s", true, m_updates },
	{},
};

static void describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "max_entries", FULL_UPDATE_MAX_ENTRIES);
	bench_opt_int(out, "nr_loops", FULL_UPDATE_NR_LOOPS);
	bench_opt_bool(out, "all_batches", all_batches);
	/* the hook that ran: runs on different hooks are different configurations */
	bench_opt_str(out, "hook", bench_hook_names[ctx.hook]);
}

const struct bench bench_bpf_hashmap_full_update = {
	.name = "bpf-hashmap-full-update",
	.desc = "time 10000 failing updates per getpgid() of a full preallocated hash map, per CPU",
	.argp = &full_update_argp,
	.needs = BENCH_NEEDS_BPF_TRACING,
	/* each repeat a new, newly filled map; stdout is upstream's lines alone */
	.caps = BENCH_CAP_REPEAT_FRESH | BENCH_CAP_ZERO_SEED | BENCH_CAP_UPSTREAM_STDOUT |
		BENCH_CAP_PARK_THREADS,
	.ext.setup = setup,
	.producer_thread = producer,
	.ext.measure = measure,
	.ext.report_final = report_final,
	.teardown = teardown,
	.metrics = full_update_metrics,
	.describe_opts = describe_opts,
	.counted_by = BENCH_COUNTED_BY_BPF,
	.latency = true,
};
