// SPDX-License-Identifier: GPL-2.0
/*
 * htab-mem: speed and memory use of a BPF hash map under different
 * allocator flavours (preallocated, or the BPF memory allocator with
 * BPF_F_NO_PREALLOC) and use cases.
 *
 * Each producer thread calls getpgid() in a loop; a program on the
 * syscall's tracepoint does 64 map operations per call in the producer's
 * own slice of the map.  The run happens in a cgroup of its own, created
 * before the map, so the cgroup's memory figures are the map's (plus the
 * little the process allocates after joining it).
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "producer_counters.h"
#include "htab_mem_bench.skel.h"
#include "progs/htab_mem_bench.h"

#define HTAB_MEM_MIN_ENTRIES 8192
#define MAX_VALUE_SIZE 4096

struct use_case {
	const char *name;
	/* producers work in adder/deleter pairs that take turns */
	bool paired;
	/* map operations in one trigger's batch (--latency's per-op divisor) */
	unsigned int ops_per_trigger;
};

static const struct use_case use_cases[] = {
	{ "overwrite", .ops_per_trigger = HTAB_MEM_OPS_PER_TRIGGER },
	/* 64 adds then 64 deletes */
	{ "batch_add_batch_del", .ops_per_trigger = 2 * HTAB_MEM_OPS_PER_TRIGGER },
	{ "add_del_on_diff_cpu", .paired = true, .ops_per_trigger = HTAB_MEM_OPS_PER_TRIGGER },
	{ "no_op" },
};

static struct {
	const struct use_case *use_case;
	long value_size;
	bool preallocated;
	long extra_work;
	long key_offset;
	bool own_counter;	/* no shared op counter: upstream's costs a cache line per trigger */
} args = {
	.use_case = &use_cases[0],
	.value_size = 8,
};

static struct {
	struct htab_mem_bench *skel;
	/* identity and counters; producers use only its map fd, never skel */
	struct bench_producers prod;
	/* one barrier per producer pair (add_del_on_diff_cpu) */
	pthread_barrier_t *pairs;
	/* failures (all producers, cumulative) at the previous sample */
	__u64 prev_fails;
} ctx;

enum {
	ARG_USE_CASE = 3000,
	ARG_VALUE_SIZE,
	ARG_PREALLOCATED,
	ARG_EXTRA_WORK,
	ARG_KEY_OFFSET,
	ARG_OWN_COUNTER,
};

static const struct argp_option opts[] = {
	{ "use-case", ARG_USE_CASE, "USE_CASE", 0,
	  "overwrite (default), batch_add_batch_del, add_del_on_diff_cpu or no_op" },
	{ "value-size", ARG_VALUE_SIZE, "BYTES", 0, "Value size of the hash map, 1..4096 (default 8)" },
	{ "preallocated", ARG_PREALLOCATED, NULL, 0,
	  "Preallocate the map instead of using the BPF memory allocator" },
	{ "extra-work", ARG_EXTRA_WORK, "LOOPS", 0,
	  "Add a busy loop of LOOPS iterations to each trigger's batch, inside its timing: a known extra cost, to see what bench ab can detect (benchs/run_ab_calibrate.sh; 0..1000000, default 0)" },
	{ "key-offset", ARG_KEY_OFFSET, "N", 0,
	  "Start the keys at N (0..1000000000, default 0): with --zero-seed, N picks the bucket layout, so that bench ab's A and B of a block can share one (BENCH_AB_BLOCK)" },
	{ "own-counter", ARG_OWN_COUNTER, NULL, 0,
	  "Count each producer's operations only in its own cache line (default: every trigger "
	  "also adds to one counter all producers share, as upstream's op_cnt, whose cache line "
	  "moves between CPUs at -p2 and more)" },
	{},
};

/* "overwrite, batch_add_batch_del, ...", for the message refusing another */
static const char *use_case_names(char *buf, size_t sz)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(use_cases) && len < sz; i++)
		len += snprintf(buf + len, sz - len, "%s%s", i ? ", " : "", use_cases[i].name);
	return buf;
}

static error_t htab_mem_parse_arg(int key, char *arg, struct argp_state *state)
{
	char names[128];
	size_t i;

	switch (key) {
	case ARG_USE_CASE:
		for (i = 0; i < ARRAY_SIZE(use_cases); i++)
			if (!strcmp(arg, use_cases[i].name))
				break;
		if (i == ARRAY_SIZE(use_cases))
			return bench_args_bad_value("use case", arg, "one of %s",
						    use_case_names(names, sizeof(names)));
		args.use_case = &use_cases[i];
		break;
	case ARG_VALUE_SIZE:
		if (parse_long(arg, 1, MAX_VALUE_SIZE, &args.value_size))
			return bench_args_bad_value("value size", arg, "an integer in 1..%d",
						    MAX_VALUE_SIZE);
		break;
	case ARG_PREALLOCATED:
		args.preallocated = true;
		break;
	case ARG_EXTRA_WORK:
		if (parse_long(arg, 0, 1000000, &args.extra_work))
			return bench_args_bad_value("--extra-work", arg, "an integer in 0..1000000");
		break;
	case ARG_KEY_OFFSET:
		if (parse_long(arg, 0, HTAB_MEM_MAX_KEY_OFFSET, &args.key_offset))
			return bench_args_bad_value("--key-offset", arg, "an integer in 0..%d",
						    HTAB_MEM_MAX_KEY_OFFSET);
		break;
	case ARG_OWN_COUNTER:
		args.own_counter = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bench_htab_mem_argp = {
	.options = opts,
	.parser = htab_mem_parse_arg,
};

/* runs before anything is created, so refusing here leaves nothing behind */
static int htab_mem_validate(void)
{
	if (args.use_case->paired && env.producer_cnt % 2) {
		fprintf(stderr, "use case %s works in producer pairs: the producer count must be even (got -p %d)\n",
			args.use_case->name, env.producer_cnt);
		return -EINVAL;
	}
	return 0;
}

static struct bpf_program *use_case_prog(struct htab_mem_bench *skel)
{
	const char *n = args.use_case->name;

	if (!strcmp(n, "overwrite"))
		return skel->progs.htab_mem_overwrite;
	if (!strcmp(n, "batch_add_batch_del"))
		return skel->progs.htab_mem_batch_add_batch_del;
	if (!strcmp(n, "add_del_on_diff_cpu"))
		return skel->progs.htab_mem_add_del_on_diff_cpu;
	return skel->progs.htab_mem_no_op;
}

/*
 * Undo what reaches outside the process: program, maps, cgroup, tracefs.
 * Called from the main thread only (producers never end the run), so the
 * sampler is not reading the counters' mapping while it goes.
 */
static void htab_mem_teardown(void)
{
	bench_producers_close(&ctx.prod);
	/* detaches and unloads the program; the maps go with their last user */
	htab_mem_bench__destroy(ctx.skel);
	ctx.skel = NULL;
	/* the pair barriers stay: producers may be blocked in them */
}

static int htab_mem_setup(void)
{
	int i, err, ncpus, nprod = env.producer_cnt;
	struct bpf_map *htab;
	__u32 max_entries;
	__u32 flags;

	/* again for each --repeat: the new object's counters start at 0 */
	ctx.prev_fails = 0;
	ctx.skel = htab_mem_bench__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open the htab-mem BPF object");
	err = bench_producers_prepare(&ctx.prod, &ctx.skel->rodata->bench_ids,
				      ctx.skel->maps.bench_producers,
				      ctx.skel->maps.bench_prod_counters, nprod);
	if (err)
		return err;

	ncpus = libbpf_num_possible_cpus();
	if (ncpus < 0)
		return bench_failed(ncpus, "count possible CPUs");
	/*
	 * Upstream sizes the map by possible CPUs; slices here are per
	 * producer, so also make room for more producers than CPUs.
	 */
	max_entries = HTAB_MEM_OPS_PER_TRIGGER * (ncpus > nprod ? ncpus : nprod);
	if (max_entries < HTAB_MEM_MIN_ENTRIES)
		max_entries = HTAB_MEM_MIN_ENTRIES;

	htab = ctx.skel->maps.htab;
	flags = bpf_map__map_flags(htab);
	if (args.preallocated)
		flags &= ~BPF_F_NO_PREALLOC;
	else
		flags |= BPF_F_NO_PREALLOC;
	if (env.zero_seed)
		flags |= BPF_F_ZERO_SEED;
	err = bpf_map__set_max_entries(htab, max_entries);
	if (!err)
		err = bpf_map__set_value_size(htab, args.value_size);
	if (!err)
		err = bpf_map__set_map_flags(htab, flags);
	if (!err)
		err = bpf_program__set_autoload(use_case_prog(ctx.skel), true);
	if (err)
		return bench_failed(err, "configure the htab-mem maps");
	ctx.skel->rodata->lat_enabled = env.latency;
	ctx.skel->rodata->extra_work_loops = args.extra_work;
	ctx.skel->rodata->key_offset = args.key_offset;
	ctx.skel->rodata->own_counter = args.own_counter;
	/* without --latency the histogram is not charged to the run's memory */
	bpf_map__set_autocreate(ctx.skel->maps.lat_hist, env.latency);

	err = htab_mem_bench__load(ctx.skel);
	if (err)
		return bench_failed(err, "load the htab-mem BPF program");
	err = bench_producers_open(&ctx.prod, ctx.skel->maps.bench_producers,
				   ctx.skel->maps.bench_prod_counters);
	if (err)
		return err;
	if (env.latency) {
		err = bench_latency_register(bpf_map__fd(ctx.skel->maps.lat_hist),
					     args.use_case->ops_per_trigger);
		if (err)
			return err;
	}

	/* made once: running producers wait on them across --repeat's set-ups */
	if (args.use_case->paired && !ctx.pairs) {
		ctx.pairs = calloc(nprod / 2, sizeof(*ctx.pairs));
		if (!ctx.pairs)
			return bench_failed(-ENOMEM, "allocate pair barriers");
		for (i = 0; i < nprod / 2; i++) {
			err = pthread_barrier_init(&ctx.pairs[i], NULL, 2);
			if (err)
				return bench_failed(-err, "create pair barriers");
		}
	}

	/* tracefs is the runner's (BENCH_NEEDS_TRACEFS), in our own mount namespace */
	err = htab_mem_bench__attach(ctx.skel);
	if (err)
		return bench_failed(err, "attach the htab-mem BPF program");
	return 0;
}

static inline void trigger(void)
{
	(void)syscall(__NR_getpgid);
}

static void *htab_mem_producer(void *arg)
{
	long idx = (long)arg;
	pthread_barrier_t *pair;

	/*
	 * The program finds our slice (and role) by our thread id.  A
	 * failure is reported by the sampler; our pair partner then waits
	 * forever, which is harmless: the run is ending.
	 */
	if (bench_producer_register(&ctx.prod, idx))
		return NULL;

	if (!args.use_case->paired) {
		for (;;)
			trigger();
	}

	/*
	 * The adder (even index) adds, then lets its deleter delete, then
	 * waits for it: adds and deletes of a pair strictly alternate.
	 */
	pair = &ctx.pairs[idx / 2];
	if (idx % 2 == 0) {
		for (;;) {
			trigger();
			pthread_barrier_wait(pair);
			pthread_barrier_wait(pair);
		}
	} else {
		for (;;) {
			pthread_barrier_wait(pair);
			trigger();
			pthread_barrier_wait(pair);
		}
	}
	return NULL;
}

static int htab_mem_measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS], fails;

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	fails = errs[HTAB_MEM_UPDATE_FAILS] + errs[HTAB_MEM_DELETE_FAILS];
	res->fails = (long)(fails - ctx.prev_fails);
	ctx.prev_fails = fails;
	return 0;
}

/* operations per producer per second, in thousands */
static double m_per_prod_op(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / env.producer_cnt / 1e3;
}

static double m_failures(const struct bench_res *r)
{
	return rate_per_sec(r->fails, r->delta_ns);
}

/* memory is the runner's: every BENCH_NEEDS_MEMCG benchmark has it */
static const struct bench_metric htab_mem_metrics[] = {
	{ "per_prod_op", "k/s", true, m_per_prod_op },
	{ "failures", "1/s", false, m_failures },
	{},
};

static void htab_mem_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	bench_print_iter_prefix(iter, delta_ns);
	printf("per-prod-op %7.2lfk/s, ", m_per_prod_op(res));
	if (res->mem_bytes < 0)
		printf("memory usage     n/a\n");
	else
		printf("memory usage %7.2lfMiB\n", bench_memory_metric.value(res));
}

static int htab_mem_report_final(struct bench_res res[], int res_cnt)
{
	__u64 errs[BENCH_PROD_NR_ERRS], upd, del;
	long long peak = bench_peak_mem_bytes();
	struct stats op, mem;

	metric_stats(&htab_mem_metrics[0], res, res_cnt, &op);
	metric_stats(&bench_memory_metric, res, res_cnt, &mem);
	printf("Summary: per-prod-op %7.2lf \u00B1 %7.2lfk/s, ", op.mean, op.stddev);
	if (mem.n)
		printf("memory usage %7.2lf \u00B1 %7.2lfMiB, ", mem.mean, mem.stddev);
	else
		printf("memory usage     n/a, ");
	if (peak >= 0)
		printf("peak memory usage %7.2lfMiB\n", peak / 1048576.0);
	else
		printf("peak memory usage     n/a\n");

	/*
	 * A failed update is cheap, so a failing allocator would look fast:
	 * say so next to the Summary rather than inside it, which keeps
	 * upstream's format.  Counted over the whole run, warm-up included.
	 */
	bench_producers_errs(&ctx.prod, errs);
	upd = errs[HTAB_MEM_UPDATE_FAILS];
	del = errs[HTAB_MEM_DELETE_FAILS];
	if (upd || del)
		printf("Failures: %llu map updates and %llu map deletes failed (per-prod-op counts them as done)\n",
		       (unsigned long long)upd, (unsigned long long)del);
	return 0;
}

static void htab_mem_describe_opts(struct bench_opts_out *out)
{
	bench_opt_str(out, "use_case", args.use_case->name);
	bench_opt_int(out, "value_size", args.value_size);
	bench_opt_bool(out, "preallocated", args.preallocated);
	bench_opt_bool(out, "own_counter", args.own_counter);
	/* only when set: a run without it is the same configuration as before it existed */
	if (args.extra_work)
		bench_opt_int(out, "extra_work", args.extra_work);
	if (args.key_offset)
		bench_opt_int(out, "key_offset", args.key_offset);
}

const struct bench bench_htab_mem = {
	.name = "htab-mem",
	.desc = "BPF hash map speed and cgroup memory use per allocator flavour and use case",
	.argp = &bench_htab_mem_argp,
	.needs = BENCH_NEEDS_BPF_TRACING,
	.caps = BENCH_CAP_REPEAT_FRESH | BENCH_CAP_ZERO_SEED,
	.ext.validate = htab_mem_validate,
	.ext.setup = htab_mem_setup,
	.producer_thread = htab_mem_producer,
	.ext.measure = htab_mem_measure,
	.report_progress = htab_mem_report_progress,
	.ext.report_final = htab_mem_report_final,
	.teardown = htab_mem_teardown,
	.metrics = htab_mem_metrics,
	.describe_opts = htab_mem_describe_opts,
	/* per-producer rates in the unit of per-prod-op */
	.prod_rate_unit = "k/s",
	.prod_rate_scale = 1e3,
	.counted_by = BENCH_COUNTED_BY_BPF,
	.latency = true,
};
