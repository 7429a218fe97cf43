// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-lookup: how long bpf_map_lookup_elem() takes on a hash map
 * of a given key size, capacity, fill and flags.
 *
 * The producers only call getpgid(); the BPF program does the work and
 * times it, keeping the most recent timings per CPU.  So the runner's
 * per-second samples carry nothing: measure() only notes when the
 * warm-up ends, and report_final() reads the timings taken after it.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "kernel_env.h"
#include "benchs/lib_hook.h"
#include "benchs/lib_skel.h"
#include "benchs/lib_lookup.h"
#include "producer_counters.h"
#include "progs/lookup_shared.h"
#include "bpf_hashmap_lookup.skel.h"

_Static_assert(HASHMAP_LOOKUP_KEY_MAX == LOOKUP_KEY_SIZE_MAX,
	       "the BPF key buffer must hold the largest key the options allow");

static struct hashmap_lookup_args args = HASHMAP_LOOKUP_ARGS_DEFAULT;

static enum bench_hook hook_wanted = BENCH_HOOK_AUTO;

#define ARG_HOOK (ARG_NR_LOOPS + 100)

static const struct argp_option opts[] = {
	{ "key_size", ARG_KEY_SIZE, "BYTES", 0, "Key size in bytes, 1..1024 (default 4)" },
	{ "map_flags", ARG_MAP_FLAGS, "FLAGS", 0,
	  "Hash map flags, decimal or 0x-hex: 0x1 NO_PREALLOC, 0x40 ZERO_SEED, 0x80 RDONLY_PROG (default 0)" },
	{ "max_entries", ARG_MAX_ENTRIES, "NUM", 0, "Hash map capacity, 1..16777216 (default 1000)" },
	{ "nr_entries", ARG_NR_ENTRIES, "NUM", 0,
	  "Entries filled and looked up, at most max_entries (default 500)" },
	{ "nr_loops", ARG_NR_LOOPS, "NUM", 0, "Lookups per timing, 1..8388608 (default 1000000)" },
	{ "hook", ARG_HOOK, "HOOK", 0, BENCH_HOOK_HELP },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char err[256];
	int ret;

	if (key == ARG_HOOK)
		return bench_hook_parse(arg, &hook_wanted);
	ret = hashmap_lookup_parse_opt(&args, key, arg, err, sizeof(err));
	if (ret == -ENOENT)
		return ARGP_ERR_UNKNOWN;
	/* the pure parser's message, in the same words, for its unit test */
	if (ret)
		return bench_args_refuse("%s", err);
	return 0;
}

static const struct argp bench_hashmap_lookup_argp = {
	.options = opts,
	.parser = parse_arg,
};

static struct {
	struct bpf_hashmap_lookup *skel;
	struct hashmap_lookup_cpu *cpus;	/* one per possible CPU */
	struct bench_producers prod;
	int nr_cpus;
	int map_fd;
	enum bench_hook hook;	/* the one that ran */
	int measure_calls;
	/* timings that started before this are warm-up */
	long window_start_ns;
} ctx = {
	.map_fd = -1,
};

static int validate(void)
{
	char msg[256];
	int err;

	err = hashmap_lookup_check_args(&args, msg, sizeof(msg));
	if (err)
		fprintf(stderr, "%s\n", msg);
	return err;
}

static void teardown(void)
{
	bench_producers_close(&ctx.prod);
	bpf_hashmap_lookup__destroy(ctx.skel);
	ctx.skel = NULL;
	if (ctx.map_fd >= 0)
		close(ctx.map_fd);
	ctx.map_fd = -1;
	free(ctx.cpus);
	ctx.cpus = NULL;
}

/*
 * The map is created here rather than by libbpf so that a map the kernel
 * refuses (too big, say) is reported in one line, not libbpf's several.
 */
static int create_and_fill_map(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts,
		    .map_flags = args.map_flags | (env.zero_seed ? BPF_F_ZERO_SEED : 0));
	__u8 key[LOOKUP_KEY_SIZE_MAX];
	__u64 value;
	__u32 i;
	int err;

	ctx.map_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "hashmap_lookup", args.key_size,
				    sizeof(value), args.max_entries, &mopts);
	if (ctx.map_fd < 0)
		return bench_failed(-errno, "create hash map (key_size %u, max_entries %u, map_flags 0x%x)",
				    args.key_size, args.max_entries, args.map_flags);
	for (i = 0; i < args.nr_entries; i++) {
		err = lookup_key_make(key, args.key_size, i);
		if (err)
			return bench_failed(err, "make key %u of %u bytes", i, args.key_size);
		value = i;
		/* NOEXIST: a duplicate key would be a key generator bug */
		if (bpf_map_update_elem(ctx.map_fd, key, &value, BPF_NOEXIST))
			return bench_failed(-errno, "fill hash map (entry %u of %u)", i,
					    args.nr_entries);
	}
	return 0;
}

/* every CPU's key buffer starts as a valid key; BPF patches the index */
static int init_cpu_state(void)
{
	__u32 zero = 0;
	int i, err;

	for (i = 0; i < ctx.nr_cpus; i++) {
		err = lookup_key_make(ctx.cpus[i].key, args.key_size, 0);
		if (err)
			return err;
	}
	if (bpf_map_update_elem(bpf_map__fd(ctx.skel->maps.cpu_state), &zero, ctx.cpus, 0))
		return -errno;
	return 0;
}

static struct bpf_program *hook_prog(enum bench_hook hook)
{
	return hook == BENCH_HOOK_FENTRY ? ctx.skel->progs.hashmap_fentry :
					   ctx.skel->progs.hashmap_lookup;
}

/*
 * Open, load and attach the skeleton with the program of one hook; on
 * failure the caller tears down.
 */
static int load_and_attach(enum bench_hook hook)
{
	struct bench_skel sk;
	int err;

	ctx.skel = bpf_hashmap_lookup__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	ctx.skel->rodata->key_size = args.key_size;
	ctx.skel->rodata->nr_entries = args.nr_entries;
	ctx.skel->rodata->nr_passes = args.nr_loops / args.nr_entries;
	ctx.skel->rodata->nr_rest = args.nr_loops % args.nr_entries;
	ctx.skel->rodata->nr_loops = args.nr_loops;
	/* the histogram gets the timings this benchmark takes anyway */
	sk = BENCH_SKEL_LAT(ctx.skel, &ctx.prod, args.nr_loops);
	sk.prog = hook_prog(hook);
	err = bench_skel_prepare(&sk);
	if (err)
		return err;
	err = bpf_map__reuse_fd(ctx.skel->maps.hashmap, ctx.map_fd);
	if (err)
		return bench_failed(err, "hand the hash map to libbpf");
	err = bench_skel_load(&sk);
	if (err)
		return err;
	err = init_cpu_state();
	if (err)
		return bench_failed(err, "initialise per-CPU key buffers");
	err = bench_skel_attach(&sk);
	if (err)
		return err;
	ctx.hook = hook;
	return 0;
}

static void unload(void)
{
	bench_producers_close(&ctx.prod);
	bpf_hashmap_lookup__destroy(ctx.skel);
	ctx.skel = NULL;
}

static const struct bench_hook_ops hook_ops = {
	.load = load_and_attach,
	.unload = unload,
	.prog = hook_prog,
};

static int setup(void)
{
	int err;

	ctx.nr_cpus = libbpf_num_possible_cpus();
	if (ctx.nr_cpus <= 0)
		return bench_failed(ctx.nr_cpus ? ctx.nr_cpus : -EINVAL, "count possible CPUs");
	/* per-CPU values are laid out 8-byte aligned; ours already is */
	_Static_assert(sizeof(struct hashmap_lookup_cpu) % 8 == 0, "per-CPU value padding");
	ctx.cpus = calloc(ctx.nr_cpus, sizeof(*ctx.cpus));
	if (!ctx.cpus)
		return bench_failed(-ENOMEM, "allocate per-CPU state");
	/* the map outlives a failed first attempt: fill it once */
	err = create_and_fill_map();
	if (err)
		return err;

	err = bench_hook_load(hook_wanted, &hook_ops, &ctx.hook, true);
	if (err)
		return err;
	/* the skeleton holds its own reference to the map */
	close(ctx.map_fd);
	ctx.map_fd = -1;
	ctx.window_start_ns = bench_now_ns();
	return 0;
}

static void *producer(void *input)
{
	/* only registered threads are timed */
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	/* the runner creates producers already pinned: no stray first timing */
	for (;;)
		syscall(__NR_getpgid, 0);
	return NULL;
}

static int measure(struct bench_res *res)
{
	/* lookups done, so that a run whose program saw nothing fails */
	bench_producers_collect(&ctx.prod, res);
	/* the runner calls us once per second; warm-up is the first warmup_sec */
	if (++ctx.measure_calls == env.warmup_sec)
		ctx.window_start_ns = bench_now_ns();
	return 0;
}

static int read_cpu_state(void)
{
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(ctx.skel->maps.cpu_state), &zero, ctx.cpus))
		return -errno;
	return 0;
}

/* the timings of one CPU that started after the warm-up, as rates */
static int cpu_rates(const struct hashmap_lookup_cpu *c, double *rates, double *dur_sum)
{
	int n = 0, i, slots;

	slots = c->nr_samples < HASHMAP_LOOKUP_NR_SLOTS ? c->nr_samples : HASHMAP_LOOKUP_NR_SLOTS;
	*dur_sum = 0;
	for (i = 0; i < slots; i++) {
		if (c->dur_ns[i] == 0 || c->start_ns[i] < (__u64)ctx.window_start_ns)
			continue;
		rates[n++] = args.nr_loops * 1e9 / c->dur_ns[i];
		*dur_sum += c->dur_ns[i];
	}
	return n;
}

static int report_final(struct bench_res res[], int res_cnt)
{
	double rates[HASHMAP_LOOKUP_NR_SLOTS], dur_sum;
	unsigned long long misses = 0, loop_errors = 0;
	int cpu, n, i, reported = 0, err;
	struct stats st;
	char name[32];

	err = read_cpu_state();
	if (err)
		return bench_failed(err, "read bpf-hashmap-lookup's timings");
	for (cpu = 0; cpu < ctx.nr_cpus; cpu++) {
		misses += ctx.cpus[cpu].misses;
		loop_errors += ctx.cpus[cpu].loop_errors;
	}
	/* a miss means we timed something other than found lookups */
	if (misses) {
		fprintf(stderr, "%llu lookups missed: every one of the %u filled keys should be found, the results are invalid\n",
			misses, args.nr_entries);
		return -EIO;
	}
	if (loop_errors) {
		fprintf(stderr, "%llu bpf_loop() calls stopped early: the timings do not cover --nr_loops %u lookups\n",
			loop_errors, args.nr_loops);
		return -EIO;
	}

	for (cpu = 0; cpu < ctx.nr_cpus; cpu++) {
		n = cpu_rates(&ctx.cpus[cpu], rates, &dur_sum);
		if (!n)
			continue;
		reported++;
		stats_compute(rates, n, &st);
		snprintf(name, sizeof(name), "lookup_cpu%02d", cpu);
		/* lookups per second, like the printed M events/sec */
		for (i = 0; i < n; i++)
			rates[i] /= 1e6;
		err = bench_add_extra_metric(name, "M/s", true, rates, n);
		if (err)
			return bench_failed(err, "record %s", name);
		if (!env.quiet)
			printf("cpu%02d: lookup %.3lfM \u00B1 %.3lfM events/sec (approximated from %d samples of ~%.0lfms)\n",
			       cpu, st.mean / 1e6, st.stddev / 1e6, n, dur_sum / n / 1e6);
		else if (env.affinity)
			/* pinned: the caller chose the CPU, give a script the bare number */
			printf("%.3lf\n", st.mean / 1e6);
		else
			printf("cpu%02d %.3lf\n", cpu, st.mean / 1e6);
	}
	if (!reported) {
		fprintf(stderr, "no lookup timing finished after the warm-up: run longer (-d) or do fewer lookups per timing (--nr_loops)\n");
		return -ENODATA;
	}
	return 0;
}

static void describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "key_size", args.key_size);
	bench_opt_int(out, "map_flags", args.map_flags);
	bench_opt_int(out, "max_entries", args.max_entries);
	bench_opt_int(out, "nr_entries", args.nr_entries);
	bench_opt_int(out, "nr_loops", args.nr_loops);
	/* the hook that ran: runs on different hooks are different configurations */
	bench_opt_str(out, "hook", bench_hook_names[ctx.hook]);
}

const struct bench bench_bpf_hashmap_lookup = {
	.name = "bpf-hashmap-lookup",
	.desc = "time bpf_map_lookup_elem() on a hash map of a given shape, per CPU",
	.argp = &bench_hashmap_lookup_argp,
	.needs = BENCH_NEEDS_BPF_TRACING,
	/* per-CPU timings, not per-second samples */
	.caps = BENCH_CAP_NO_REPEAT | BENCH_CAP_ZERO_SEED | BENCH_CAP_PARK_THREADS,
	.ext.validate = validate,
	.ext.setup = setup,
	.producer_thread = producer,
	.ext.measure = measure,
	.ext.report_final = report_final,
	.teardown = teardown,
	.describe_opts = describe_opts,
	.counted_by = BENCH_COUNTED_BY_BPF,
	.latency = true,
};
