// SPDX-License-Identifier: GPL-2.0
/*
 * The bloom filter map benchmarks, upstream's five with its options:
 *   bloom-lookup           peeks into a bloom filter of --nr_entries values
 *   bloom-update           pushes of those values into it
 *   bloom-false-positive   how often the bloom filter says "maybe" for a key
 *                          the hash map does not hold
 *   hashmap-without-bloom  hash map lookups of random keys (nearly all miss)
 *   hashmap-with-bloom     the same lookups, each first asked of the filter
 *
 * Set-up fills the maps with random values of --value_size bytes (the hash
 * map's keys are its values); the producers call getpgid() in a loop and
 * the program on that syscall does the work (progs/bloom_filter_bench.c),
 * counting it in the triggering producer's counters.  Only the maps a
 * benchmark uses are created, in the run's memory cgroup, so the memory
 * figures are those maps and the program's 2.5 MB of random bytes.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "benchs/lib_hook.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "bloom_filter_bench.skel.h"

/* upstream's limits: the kernel's hash function count, a u8 value size */
#define BLOOM_HASH_FUNCS_MAX 15
#define BLOOM_VALUE_SIZE_MIN 2
#define BLOOM_VALUE_SIZE_MAX 256
/* entries per fill thread, at the least: fewer are not worth a thread */
#define BLOOM_FILL_CHUNK 4096
#define BLOOM_FILL_THREADS_MAX 16

enum bloom_prog { PROG_LOOKUP, PROG_UPDATE, PROG_HASHMAP };

/* what one of the five benchmarks sets up */
struct bloom_variant {
	enum bloom_prog prog;
	bool use_array_map;	/* the values the bloom programs walk */
	bool use_hashmap;
	bool hashmap_use_bloom;
	bool count_false_hits;
};

static struct {
	long nr_entries;
	long nr_hash_funcs;
	long value_size;
	enum bench_hook hook;
} args = {
	.nr_entries = 1000,
	.nr_hash_funcs = 3,
	.value_size = 8,
	.hook = BENCH_HOOK_AUTO,
};

static struct {
	const struct bloom_variant *v;
	struct bloom_filter_bench *skel;
	struct bench_producers prod;
	enum bench_hook hook;	/* the one that ran */
	/* the fill threads' shared state */
	__u32 next_idx;
	int fill_err;
	/* cumulative error counters at the previous sample */
	__u64 prev_drops, prev_false_hits;
	/* the measured samples' sums, for JSON's counts */
	long hits, drops, false_hits;
} ctx;

enum {
	ARG_NR_ENTRIES = 3300,
	ARG_NR_HASH_FUNCS,
	ARG_VALUE_SIZE,
	ARG_HOOK,
};

static const struct argp_option opts[] = {
	{ "nr_entries", ARG_NR_ENTRIES, "NR_ENTRIES", 0,
	  "Set number of expected unique entries in the bloom filter, 1..4294967295 (default 1000)" },
	{ "nr_hash_funcs", ARG_NR_HASH_FUNCS, "NR_HASH_FUNCS", 0,
	  "Set number of hash functions in the bloom filter, 1..15 (default 3)" },
	{ "value_size", ARG_VALUE_SIZE, "VALUE_SIZE", 0,
	  "Set value size (in bytes) of bloom filter entries, 2..256 (default 8)" },
	{ "hook", ARG_HOOK, "HOOK", 0, BENCH_HOOK_HELP },
	{},
};

static error_t bloom_parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_NR_ENTRIES:
		if (parse_long(arg, 1, UINT32_MAX, &args.nr_entries))
			return bench_args_bad_value("--nr_entries", arg, "an integer in 1..%u",
						    UINT32_MAX);
		break;
	case ARG_NR_HASH_FUNCS:
		if (parse_long(arg, 1, BLOOM_HASH_FUNCS_MAX, &args.nr_hash_funcs))
			return bench_args_bad_value("--nr_hash_funcs", arg, "an integer in 1..%d",
						    BLOOM_HASH_FUNCS_MAX);
		break;
	case ARG_VALUE_SIZE:
		if (parse_long(arg, BLOOM_VALUE_SIZE_MIN, BLOOM_VALUE_SIZE_MAX, &args.value_size))
			return bench_args_bad_value("--value_size", arg, "an integer in %d..%d",
						    BLOOM_VALUE_SIZE_MIN, BLOOM_VALUE_SIZE_MAX);
		break;
	case ARG_HOOK:
		return bench_hook_parse(arg, &args.hook);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp bench_bloom_map_argp = {
	.options = opts,
	.parser = bloom_parse_arg,
};

/* upstream's check: values must be able to differ (exit 1, as upstream's) */
static int bloom_validate(void)
{
	if (args.value_size < 8 && args.nr_entries > 1L << (args.value_size * 8)) {
		fprintf(stderr, "Not enough unique values for the nr_entries requested: --value_size %ld holds %ld at most, --nr_entries is %ld\n",
			args.value_size, 1L << (args.value_size * 8), args.nr_entries);
		return -EINVAL;
	}
	return 0;
}

static struct bpf_program *hook_prog(enum bench_hook hook)
{
	struct bloom_filter_bench *s = ctx.skel;
	bool fentry = hook == BENCH_HOOK_FENTRY;

	switch (ctx.v->prog) {
	case PROG_LOOKUP:
		return fentry ? s->progs.bloom_lookup_fentry : s->progs.bloom_lookup;
	case PROG_UPDATE:
		return fentry ? s->progs.bloom_update_fentry : s->progs.bloom_update;
	default:
		return fentry ? s->progs.bloom_hashmap_fentry : s->progs.bloom_hashmap_lookup;
	}
}

/* the maps' shapes from the options; the variant's unused maps are not created */
static int size_maps(struct bloom_filter_bench *s)
{
	const struct bloom_variant *v = ctx.v;
	int err = 0;

	if (v->use_array_map) {
		err = bpf_map__set_max_entries(s->maps.array_map, args.nr_entries);
		err = err ?: bpf_map__set_value_size(s->maps.array_map, args.value_size);
	} else {
		err = bpf_map__set_autocreate(s->maps.array_map, false);
	}
	if (v->use_hashmap) {
		err = err ?: bpf_map__set_max_entries(s->maps.hashmap, args.nr_entries);
		err = err ?: bpf_map__set_key_size(s->maps.hashmap, args.value_size);
		err = err ?: bpf_map__set_value_size(s->maps.hashmap, args.value_size);
	} else {
		err = err ?: bpf_map__set_autocreate(s->maps.hashmap, false);
	}
	/* hashmap-without-bloom's program still names the filter: a small one */
	err = err ?: bpf_map__set_max_entries(s->maps.bloom_map,
					      !v->use_hashmap || v->hashmap_use_bloom ?
					      args.nr_entries : 1);
	err = err ?: bpf_map__set_value_size(s->maps.bloom_map, args.value_size);
	err = err ?: bpf_map__set_map_extra(s->maps.bloom_map, args.nr_hash_funcs);
	return err;
}

/*
 * Open, load and attach the skeleton with the program of one hook; on
 * failure bench_hook_load() unloads.  Nothing runs yet: no producer is
 * registered.
 */
static int load_and_attach(enum bench_hook hook)
{
	struct bench_skel sk;
	int err;

	ctx.skel = bloom_filter_bench__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	ctx.skel->rodata->hashmap_use_bloom = ctx.v->hashmap_use_bloom;
	ctx.skel->rodata->count_false_hits = ctx.v->count_false_hits;
	err = size_maps(ctx.skel);
	if (err)
		return bench_failed(err, "size the bloom filter maps");
	sk = BENCH_SKEL(ctx.skel, &ctx.prod);
	sk.prog = hook_prog(hook);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = bench_skel_load(&sk);
	if (err)
		return err;
	ctx.skel->bss->value_size = args.value_size;
	return bench_skel_attach(&sk);
}

static void unload(void)
{
	bench_producers_close(&ctx.prod);
	bloom_filter_bench__destroy(ctx.skel);
	ctx.skel = NULL;
}

static const struct bench_hook_ops hook_ops = {
	.load = load_and_attach,
	.unload = unload,
	.prog = hook_prog,
};

/* fill buf with random bytes: 0 or a negative errno */
static int random_bytes(void *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = getrandom(buf, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf = (char *)buf + n;
		len -= n;
	}
	return 0;
}

/*
 * Put one random value in the maps: at index i of the array, into the hash
 * map (as key and value, a new value when it holds this one already) and
 * into the filter.  0, or a negative errno after one line.
 */
static int fill_one(__u32 i, __u8 *val, __u8 *pool, size_t pool_sz, size_t *pool_off)
{
	const struct bloom_variant *v = ctx.v;
	int err;

	for (;;) {
		if (*pool_off + args.value_size > pool_sz) {
			err = random_bytes(pool, pool_sz);
			if (err)
				return bench_failed(err, "get random values");
			*pool_off = 0;
		}
		memcpy(val, pool + *pool_off, args.value_size);
		*pool_off += args.value_size;
		if (!v->use_hashmap)
			break;
		if (!bpf_map_update_elem(bpf_map__fd(ctx.skel->maps.hashmap), val, val, BPF_NOEXIST))
			break;
		if (errno != EEXIST)
			return bench_failed(-errno, "add value %u to the hash map", i);
	}
	if (v->use_array_map && bpf_map_update_elem(bpf_map__fd(ctx.skel->maps.array_map), &i, val, 0))
		return bench_failed(-errno, "add value %u to the array map", i);
	if ((!v->use_hashmap || v->hashmap_use_bloom) &&
	    bpf_map_update_elem(bpf_map__fd(ctx.skel->maps.bloom_map), NULL, val, 0))
		return bench_failed(-errno, "add value %u to the bloom filter", i);
	return 0;
}

/* a fill thread: entries by a shared index until all are in or one failed */
static void *fill_thread(void *arg)
{
	__u8 val[BLOOM_VALUE_SIZE_MAX], pool[4096];
	size_t pool_off = sizeof(pool);
	__u32 i;
	int err;

	(void)arg;
	for (;;) {
		if (__atomic_load_n(&ctx.fill_err, __ATOMIC_RELAXED))
			break;
		i = __atomic_fetch_add(&ctx.next_idx, 1, __ATOMIC_RELAXED);
		if (i >= args.nr_entries)
			break;
		err = fill_one(i, val, pool, sizeof(pool), &pool_off);
		if (err) {
			__atomic_store_n(&ctx.fill_err, err, __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

/* the maps filled by a few threads, as upstream does (one per CPU) */
static int fill_maps(void)
{
	pthread_t thds[BLOOM_FILL_THREADS_MAX];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int i, n, err;

	n = 1 + args.nr_entries / BLOOM_FILL_CHUNK;
	if (n > cpus)
		n = cpus > 0 ? cpus : 1;
	if (n > BLOOM_FILL_THREADS_MAX)
		n = BLOOM_FILL_THREADS_MAX;
	ctx.next_idx = 0;
	ctx.fill_err = 0;
	for (i = 0; i < n; i++) {
		err = pthread_create(&thds[i], NULL, fill_thread, NULL);
		if (err) {
			/* the others stop at the next entry */
			__atomic_store_n(&ctx.fill_err, -err, __ATOMIC_RELAXED);
			bench_failed(-err, "create a thread to fill the maps");
			break;
		}
	}
	while (i--)
		pthread_join(thds[i], NULL);
	if (ctx.fill_err)
		return ctx.fill_err;
	/* the keys bloom_hashmap_lookup reads, at random offsets */
	err = random_bytes(ctx.skel->bss->rand_vals, ctx.skel->rodata->nr_rand_bytes);
	if (err)
		return bench_failed(err, "get random bytes for the lookups");
	return 0;
}

static int bloom_setup(const struct bloom_variant *v)
{
	int err;

	ctx.v = v;
	err = bench_hook_load(args.hook, &hook_ops, &ctx.hook, true);
	if (err)
		return err;
	return fill_maps();
}

static void bloom_teardown(void)
{
	unload();
}

static void *bloom_producer(void *input)
{
	/* only registered threads trigger the work */
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	for (;;)
		syscall(__NR_getpgid);
	return NULL;
}

static int bloom_measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS], drops, false_hits;

	if (ctx.skel->bss->error) {
		fprintf(stderr, "error (%d) when searching the bloom filter\n", ctx.skel->bss->error);
		return -EIO;
	}
	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	drops = errs[ctx.skel->rodata->drop_key];
	false_hits = errs[ctx.skel->rodata->false_hit_key];
	res->drops = (long)(drops - ctx.prev_drops);
	res->false_hits = (long)(false_hits - ctx.prev_false_hits);
	ctx.prev_drops = drops;
	ctx.prev_false_hits = false_hits;
	return 0;
}

/* hits and drops as the runner's, and upstream's total operations */
static double m_hits(const struct bench_res *r)
{
	return hits_drops_metrics[0].value(r);
}

static double m_hits_per_prod(const struct bench_res *r)
{
	return hits_drops_metrics[1].value(r);
}

static double m_drops(const struct bench_res *r)
{
	return hits_drops_metrics[2].value(r);
}

static double m_total(const struct bench_res *r)
{
	return m_hits(r) + m_drops(r);
}

/* false hits in percent of all counts, as upstream's Iter line; NaN for none */
static double m_false_positive(const struct bench_res *r)
{
	long total = r->false_hits + r->hits + r->drops;

	return total ? 100.0 * r->false_hits / total : NAN;
}

static const struct bench_metric bloom_metrics[] = {
	{ "hits", "M/s", true, m_hits },
	{ "hits_per_prod", "M/s", true, m_hits_per_prod },
	{ "drops", "M/s", false, m_drops },
	{ "total", "M/s", true, m_total },
	{},
};

static const struct bench_metric false_positive_metrics[] = {
	{ "false_positive_rate", "%", false, m_false_positive },
	{ "total", "M/s", true, m_total },
	{},
};

static void sum_counts(struct bench_res res[], int res_cnt, long *hits, long *drops,
		       long *false_hits)
{
	int i;

	*hits = *drops = *false_hits = 0;
	for (i = 0; i < res_cnt; i++) {
		*hits += res[i].hits;
		*drops += res[i].drops;
		*false_hits += res[i].false_hits;
	}
	/* --repeat: the counts of every repeat */
	ctx.hits += *hits;
	ctx.drops += *drops;
	ctx.false_hits += *false_hits;
}

static int bloom_report_final(struct bench_res res[], int res_cnt)
{
	long hits, drops, false_hits;

	sum_counts(res, res_cnt, &hits, &drops, &false_hits);
	hits_drops_report_final(res, res_cnt);
	return 0;
}

/* upstream's lines (reporters.c); the counts of every repeat kept for JSON */
static int bloom_false_hits_final(struct bench_res res[], int res_cnt)
{
	long hits, drops, false_hits;

	sum_counts(res, res_cnt, &hits, &drops, &false_hits);
	false_hits_report_final(res, res_cnt);
	return 0;
}

static void bloom_describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "nr_entries", args.nr_entries);
	bench_opt_int(out, "nr_hash_funcs", args.nr_hash_funcs);
	bench_opt_int(out, "value_size", args.value_size);
	/* runs on different hooks are different configurations */
	bench_opt_str(out, "hook", bench_hook_names[ctx.hook]);
}

static void bloom_describe_counts(struct bench_opts_out *out)
{
	bench_opt_int(out, "hits", ctx.hits);
	bench_opt_int(out, "drops", ctx.drops);
	bench_opt_int(out, "false_hits", ctx.false_hits);
}

#define BLOOM_SETUP(fn, ...)						\
	static int fn(void)						\
	{								\
		static const struct bloom_variant v = { __VA_ARGS__ };	\
		return bloom_setup(&v);					\
	}

BLOOM_SETUP(bloom_lookup_setup, .prog = PROG_LOOKUP, .use_array_map = true)
BLOOM_SETUP(bloom_update_setup, .prog = PROG_UPDATE, .use_array_map = true)
BLOOM_SETUP(false_positive_setup, .prog = PROG_HASHMAP, .use_hashmap = true,
	    .hashmap_use_bloom = true, .count_false_hits = true)
BLOOM_SETUP(hashmap_with_bloom_setup, .prog = PROG_HASHMAP, .use_hashmap = true,
	    .hashmap_use_bloom = true)
BLOOM_SETUP(hashmap_no_bloom_setup, .prog = PROG_HASHMAP, .use_hashmap = true)

#define BLOOM_BENCH(var, bname, description, setup_fn, progress, final, metric_tbl)	\
	const struct bench var = {						\
		.name = bname,							\
		.desc = description,						\
		.argp = &bench_bloom_map_argp,					\
		.needs = BENCH_NEEDS_BPF_TRACING,				\
		.caps = BENCH_CAP_PARK_THREADS,					\
		.ext.validate = bloom_validate,					\
		.ext.setup = setup_fn,						\
		.producer_thread = bloom_producer,				\
		.ext.measure = bloom_measure,					\
		.report_progress = progress,					\
		.ext.report_final = final,						\
		.teardown = bloom_teardown,					\
		.metrics = metric_tbl,						\
		.describe_opts = bloom_describe_opts,				\
		.describe_counts = bloom_describe_counts,			\
		.counted_by = BENCH_COUNTED_BY_BPF,				\
	}

BLOOM_BENCH(bench_bloom_lookup, "bloom-lookup",
	    "bloom filter peeks of the values it holds, one per array map element per getpgid()",
	    bloom_lookup_setup, hits_drops_report_progress, bloom_report_final, bloom_metrics);
BLOOM_BENCH(bench_bloom_update, "bloom-update",
	    "bloom filter pushes, one per array map element per getpgid()",
	    bloom_update_setup, hits_drops_report_progress, bloom_report_final, bloom_metrics);
BLOOM_BENCH(bench_bloom_false_positive, "bloom-false-positive",
	    "bloom filter false positive rate over 1024 random-key lookups per getpgid()",
	    false_positive_setup, false_hits_report_progress, bloom_false_hits_final,
	    false_positive_metrics);
BLOOM_BENCH(bench_hashmap_without_bloom, "hashmap-without-bloom",
	    "1024 random-key hash map lookups per getpgid()",
	    hashmap_no_bloom_setup, hits_drops_report_progress, bloom_report_final, bloom_metrics);
BLOOM_BENCH(bench_hashmap_with_bloom, "hashmap-with-bloom",
	    "1024 random-key hash map lookups per getpgid(), each asked of a bloom filter first",
	    hashmap_with_bloom_setup, hits_drops_report_progress, bloom_report_final, bloom_metrics);
