// SPDX-License-Identifier: GPL-2.0
/*
 * samples/bpf/map_perf_test's update tests as benchmarks: each producer's
 * getpgid() does what the sample's program does per syscall in one map
 * (hash maps preallocated or not, per-CPU or not: 10 rounds of update,
 * lookup and delete of the thread's key; LRU maps: one update of a random
 * key; the LPM trie: 32 lookups), and the runner counts triggers per
 * producer, the sample's "events".  Every operation is accounted for: it
 * failed or it completed, and the two add up to what was done.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "progs/map_perf.h"
#include "map_perf.skel.h"

#define MAP_PERF_MAX_ENTRIES	16777216
/* how long a producer may take to finish its trigger (a guest under TCG is slow) */
#define MAP_PERF_QUIESCE_MS	30000
/* the LPM trie holds map_perf_test's 512 random prefixes and 192.168.0.1/32 */
#define LPM_RANDOM_PREFIXES	512

enum map_perf_kind { KIND_HASH, KIND_LRU, KIND_INNER_LRU, KIND_LPM };

/* one of map_perf_test's tests */
struct map_perf_test {
	const char *name;
	/* map_perf_test's test number (its mask bit) and its output line's label */
	unsigned int mask;
	const char *label;
	enum map_perf_kind kind;
	enum bpf_map_type map_type;
	__u32 map_flags;
	/* map_perf_test's size of the map */
	__u32 default_entries;
	/* operations per trigger, each ending failed or done */
	unsigned int ops;
	/* what one operation is, for the Counts line */
	const char *op_name;
};

static struct {
	long nr_entries;	/* 0: the test's default */
} args;

static struct {
	const struct map_perf_test *test;
	struct map_perf *skel;
	struct bpf_link *link;
	struct bench_producers prod;
	int *inner_fds;		/* inner-lru-hash-update: one LRU map per possible CPU */
	int nr_cpus;
	__u64 prev_fails;
	int reports;		/* report_final calls: one per repeat */
} ctx;

enum { ARG_NR_ENTRIES = 4000 };

static const struct argp_option opts[] = {
	{ "nr_entries", ARG_NR_ENTRIES, "NUM", 0,
	  "max_entries of the measured map (inner-lru-hash-update: of each CPU's map), 1..16777216 (default: map_perf_test's, 1000 or 10000)" },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != ARG_NR_ENTRIES)
		return ARGP_ERR_UNKNOWN;
	if (parse_long(arg, 1, MAP_PERF_MAX_ENTRIES, &args.nr_entries)) {
		fprintf(stderr, "invalid --nr_entries '%s': expected an integer in 1..%d\n", arg,
			MAP_PERF_MAX_ENTRIES);
		return EINVAL;
	}
	return 0;
}

static const struct argp map_perf_argp = {
	.options = opts,
	.parser = parse_arg,
};

static __u32 nr_entries(void)
{
	return args.nr_entries ? args.nr_entries : ctx.test->default_entries;
}

static int validate(const struct map_perf_test *t)
{
	ctx.test = t;
	if (t->kind == KIND_LPM && nr_entries() < LPM_RANDOM_PREFIXES + 1) {
		fprintf(stderr, "invalid --nr_entries %u for %s: the trie holds %d prefixes, so at least %d\n",
			nr_entries(), t->name, LPM_RANDOM_PREFIXES + 1, LPM_RANDOM_PREFIXES + 1);
		return -EINVAL;
	}
	return 0;
}

static const char *map_type_name(enum bpf_map_type type)
{
	const char *n = libbpf_bpf_map_type_str(type);

	return n ? n : "this map type";
}

/*
 * A kernel without the map type or flag refuses to create it: say which
 * in one line rather than let libbpf's load fail in several.
 */
static int probe_map(const struct map_perf_test *t)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = t->map_flags);
	__u32 key_size = t->kind == KIND_LPM ? 8 : 4;
	int fd, err;

	if (t->kind == KIND_INNER_LRU && libbpf_probe_bpf_map_type(BPF_MAP_TYPE_ARRAY_OF_MAPS, NULL) <= 0) {
		fprintf(stderr, "%s: this kernel has no BPF_MAP_TYPE_ARRAY_OF_MAPS: refused\n", t->name);
		return -EOPNOTSUPP;
	}
	fd = bpf_map_create(t->map_type, NULL, key_size, sizeof(long), 1, &o);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	err = -errno;
	if (err == -EINVAL || err == -EOPNOTSUPP)
		fprintf(stderr, "%s: this kernel has no %s with map_flags 0x%x: refused\n", t->name,
			map_type_name(t->map_type), t->map_flags);
	else
		fprintf(stderr, "%s: failed to create a test %s: %s\n", t->name,
			map_type_name(t->map_type), strerror(-err));
	return err;
}

static struct bpf_program *test_prog(const struct map_perf_test *t)
{
	struct map_perf *s = ctx.skel;

	switch (t->mask) {
	case 1:
		return s->progs.mp_hash_pre;
	case 2:
		return s->progs.mp_pcpu_pre;
	case 4:
		return s->progs.mp_hash_kmalloc;
	case 8:
		return s->progs.mp_pcpu_kmalloc;
	case 16:
		return s->progs.mp_lru_common;
	case 32:
		return s->progs.mp_lru_percpu;
	case 64:
		return s->progs.mp_lpm_kmalloc;
	default:
		return s->progs.mp_inner_lru;
	}
}

static struct bpf_map *test_map(const struct map_perf_test *t)
{
	struct map_perf *s = ctx.skel;

	switch (t->mask) {
	case 1:
		return s->maps.hash_map;
	case 2:
		return s->maps.percpu_hash_map;
	case 4:
		return s->maps.hash_map_alloc;
	case 8:
		return s->maps.percpu_hash_map_alloc;
	case 16:
		return s->maps.lru_hash_map;
	case 32:
		return s->maps.nocommon_lru_hash_map;
	case 64:
		return s->maps.lpm_trie_map_alloc;
	default:
		return s->maps.array_of_lru_hashs;
	}
}

static void teardown(void)
{
	int i;

	bpf_link__destroy(ctx.link);
	ctx.link = NULL;
	bench_producers_close(&ctx.prod);
	map_perf__destroy(ctx.skel);
	ctx.skel = NULL;
	for (i = 0; ctx.inner_fds && i < ctx.nr_cpus; i++)
		if (ctx.inner_fds[i] >= 0)
			close(ctx.inner_fds[i]);
	free(ctx.inner_fds);
	ctx.inner_fds = NULL;
}

/* the NUMA node of a CPU, as map_perf_test places each CPU's inner map; -1 if unknown */
static int cpu_node(int cpu)
{
	char path[64];
	struct dirent *d;
	int node = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}

/* inner-lru-hash-update: an LRU map per possible CPU, the first one the outer map's template */
static int create_inner_maps(const struct map_perf_test *t)
{
	__u32 flags = env.zero_seed ? BPF_F_ZERO_SEED : 0;
	int i, node, err;

	ctx.inner_fds = malloc(ctx.nr_cpus * sizeof(*ctx.inner_fds));
	if (!ctx.inner_fds)
		return bench_failed(-ENOMEM, "allocate %s's inner maps", t->name);
	for (i = 0; i < ctx.nr_cpus; i++)
		ctx.inner_fds[i] = -1;
	for (i = 0; i < ctx.nr_cpus; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags | BPF_F_NUMA_NODE);

		/* the template's flags must be every inner map's: NUMA_NODE on all */
		node = cpu_node(i);
		o.numa_node = node < 0 ? 0 : node;
		ctx.inner_fds[i] = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "inner_lru_hash", sizeof(__u32),
						  sizeof(long), nr_entries(), &o);
		if (ctx.inner_fds[i] < 0)
			return bench_failed(-errno, "create CPU %d's LRU map (max_entries %u, node %u)",
					    i, nr_entries(), o.numa_node);
	}
	err = bpf_map__set_inner_map_fd(ctx.skel->maps.array_of_lru_hashs, ctx.inner_fds[0]);
	if (!err)
		err = bpf_map__set_max_entries(ctx.skel->maps.array_of_lru_hashs, ctx.nr_cpus);
	if (err)
		return bench_failed(err, "configure %s's array of maps", t->name);
	return 0;
}

/* after load: the maps' contents */
static int fill_maps(const struct map_perf_test *t)
{
	struct { __u32 prefixlen; __u8 addr[4]; } key;
	unsigned int seed = 1;
	long value = 0;
	__u32 i;
	int fd;

	fd = bpf_map__fd(test_map(t));
	if (t->kind == KIND_INNER_LRU) {
		for (i = 0; i < (__u32)ctx.nr_cpus; i++)
			if (bpf_map_update_elem(fd, &i, &ctx.inner_fds[i], BPF_ANY))
				return bench_failed(-errno, "put CPU %u's LRU map into the array of maps", i);
		return 0;
	}
	if (t->kind != KIND_LPM)
		return 0;
	/* map_perf_test's trie: random prefixes (rand() with its default seed), then the one looked up */
	for (i = 0; i < LPM_RANDOM_PREFIXES; i++) {
		key.prefixlen = rand_r(&seed) % 33;
		key.addr[0] = rand_r(&seed) & 0xff;
		key.addr[1] = rand_r(&seed) & 0xff;
		key.addr[2] = rand_r(&seed) & 0xff;
		key.addr[3] = rand_r(&seed) & 0xff;
		if (bpf_map_update_elem(fd, &key, &value, BPF_ANY))
			return bench_failed(-errno, "fill %s's trie (prefix %u)", t->name, i);
	}
	key = (typeof(key)){ .prefixlen = 32, .addr = { 192, 168, 0, 1 } };
	value = 128;
	if (bpf_map_update_elem(fd, &key, &value, BPF_ANY))
		return bench_failed(-errno, "add 192.168.0.1/32 to %s's trie", t->name);
	return 0;
}

/* open, size and select: only the measured test's program and map are created */
static int configure(const struct map_perf_test *t)
{
	struct bpf_map *map = test_map(t);
	struct bpf_map *m;
	int err;

	/* lib_skel's maps are set already */
	bpf_object__for_each_map(m, ctx.skel->obj)
		if (!bpf_map__is_internal(m) && m != ctx.skel->maps.bench_producers &&
		    m != ctx.skel->maps.bench_prod_counters && m != ctx.skel->maps.lat_hist)
			bpf_map__set_autocreate(m, m == map);
	if (t->kind == KIND_INNER_LRU)
		return create_inner_maps(t);
	err = bpf_map__set_max_entries(map, nr_entries());
	if (!err && env.zero_seed)
		err = bpf_map__set_map_flags(map, bpf_map__map_flags(map) | BPF_F_ZERO_SEED);
	if (err)
		return bench_failed(err, "configure %s's map", t->name);
	return 0;
}

static int setup(void)
{
	const struct map_perf_test *t = ctx.test;
	struct bench_skel sk;
	int err;

	/* again for each --repeat: the new object's counters start at 0 */
	ctx.prev_fails = 0;
	err = probe_map(t);
	if (err)
		return err;
	ctx.nr_cpus = libbpf_num_possible_cpus();
	if (ctx.nr_cpus <= 0)
		return bench_failed(ctx.nr_cpus ? ctx.nr_cpus : -EINVAL, "count possible CPUs");
	ctx.skel = map_perf__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	sk = BENCH_SKEL_LAT(ctx.skel, &ctx.prod, t->ops);
	sk.prog = test_prog(t);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = configure(t);
	if (!err)
		err = bench_skel_load(&sk);
	if (!err)
		err = fill_maps(t);
	if (!err)
		err = bench_skel_attach_prog(&sk, &ctx.link);
	return err;
}

static void trigger(void)
{
	syscall(__NR_getpgid, 0);
}

static void *producer(void *input)
{
	/* the BPF side credits triggers to the producer by thread id */
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	bench_producer_loop(trigger);
	return NULL;
}

static int measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS];

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	res->fails = (long)(errs[MAP_PERF_FAILED] - ctx.prev_fails);
	ctx.prev_fails = errs[MAP_PERF_FAILED];
	return 0;
}

/*
 * With the producers stopped, every operation of every trigger since
 * set-up must have failed or completed: a count that does not add up
 * (a delete that missed the key its update had just inserted, a lost
 * counter) makes the results invalid.
 */
/* the last object's counts, read once the producers stopped */
static struct {
	__u64 triggers, ops, failed, done;
} counts;

static int check_counts(void)
{
	const struct map_perf_test *t = ctx.test;
	__u64 errs[BENCH_PROD_NR_ERRS];
	int i, err;

	err = bench_producers_quiesce(env.producer_cnt, MAP_PERF_QUIESCE_MS);
	if (err)
		return bench_failed(err, "stop the producers to read %s's counts", t->name);
	for (i = 0; i < ctx.prod.nr; i++)
		counts.triggers += ctx.prod.counters[i].hits;
	bench_producers_errs(&ctx.prod, errs);
	counts.ops = counts.triggers * t->ops;
	counts.failed = errs[MAP_PERF_FAILED];
	counts.done = errs[MAP_PERF_DONE];
	if (counts.failed + counts.done != counts.ops) {
		fprintf(stderr, "%s: the counts do not add up: %llu %s, but %llu failed + %llu completed = %llu: the results are invalid\n",
			t->name, (unsigned long long)counts.ops, t->op_name,
			(unsigned long long)counts.failed, (unsigned long long)counts.done,
			(unsigned long long)(counts.failed + counts.done));
		return -EIO;
	}
	/* the trie always holds the prefix looked up */
	if (t->kind == KIND_LPM && counts.failed) {
		fprintf(stderr, "%s: %llu lookups of 192.168.0.1/32 missed: the results are invalid\n",
			t->name, (unsigned long long)counts.failed);
		return -EIO;
	}
	return 0;
}

static void print_counts(void)
{
	const struct map_perf_test *t = ctx.test;

	printf("Counts: %llu triggers, %llu %s: %llu failed, %llu %s\n",
	       (unsigned long long)counts.triggers, (unsigned long long)counts.ops, t->op_name,
	       (unsigned long long)counts.failed, (unsigned long long)counts.done,
	       t->kind == KIND_HASH ? "found and deleted" : t->kind == KIND_LPM ? "hit" : "done");
	if (counts.failed)
		printf("Failures: %llu of %llu %s failed (max_entries %u: a hash map needs one entry per producer)\n",
		       (unsigned long long)counts.failed, (unsigned long long)counts.ops,
		       t->op_name, nr_entries());
}

static void print_memory(struct bench_res res[], int res_cnt)
{
	long long peak = bench_peak_mem_bytes();
	struct stats mem;

	metric_stats(&bench_memory_metric, res, res_cnt, &mem);
	if (!mem.n || peak < 0) {
		printf("Cgroup memory: n/a (no memory cgroup)\n");
		return;
	}
	printf("Cgroup memory: usage %.2lf \u00B1 %.2lfMiB, peak %.2lfMiB\n", mem.mean, mem.stddev,
	       peak / 1048576.0);
}

/* map_perf_test's own lines: "0:hash_map_perf kmalloc 302508 events per sec" */
static void print_per_producer(struct bench_res res[], int res_cnt, const char *prefix)
{
	long long hits;
	long ns;
	int p, i;

	for (p = 0; p < env.producer_cnt; p++) {
		for (i = 0, hits = 0, ns = 0; i < res_cnt; i++) {
			hits += res[i].prod_hits[p];
			ns += res[i].delta_ns;
		}
		if (ns > 0)
			printf("%s%d:%s %lld events per sec\n", prefix, p, ctx.test->label,
			       hits * 1000000000ll / ns);
	}
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
	hits_drops_report_final(res, res_cnt);
	if (env.repeat_cnt > 1)
		snprintf(prefix, sizeof(prefix), "Repeat %d/%d: ", repeat + 1, env.repeat_cnt);
	print_per_producer(res, res_cnt, prefix);
	/*
	 * once, after the last repeat's Summary: the counts are the last
	 * map's; the total next to the runner's Memory: line of where it went
	 */
	if (repeat == env.repeat_cnt - 1) {
		print_counts();
		print_memory(res, res_cnt);
	}
	return 0;
}

static void describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "nr_entries", nr_entries());
	bench_opt_int(out, "map_perf_test", ctx.test->mask);
}

/* the runner's hits, hits_per_prod and drops, then failed operations */
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

static double m_failures(const struct bench_res *r)
{
	return rate_per_sec(r->fails, r->delta_ns);
}

/* the memory metric is the runner's */
static const struct bench_metric map_perf_metrics[] = {
	{ "hits", "M/s", true, m_hits },
	{ "hits_per_prod", "M/s", true, m_hits_per_prod },
	{ "drops", "M/s", false, m_drops },
	{ "failures", "1/s", false, m_failures },
	{},
};

/*
 * One benchmark per map_perf_test test.  caps_extra: hash maps take a seed
 * (--zero-seed), the trie does not.
 */
#define MAP_PERF_BENCH(sym, bench_name, description, caps_extra, ...)	\
static const struct map_perf_test sym##_test = {			\
	.name = bench_name, __VA_ARGS__					\
};									\
									\
static int sym##_validate(void)						\
{									\
	return validate(&sym##_test);					\
}									\
									\
const struct bench sym = {						\
	.name = bench_name,						\
	.desc = description,						\
	.argp = &map_perf_argp,						\
	.needs = BENCH_NEEDS_BPF_TRACING,				\
	/* each repeat a new map: a new seed, new allocations */	\
	.caps = BENCH_CAP_REPEAT_FRESH | (caps_extra),			\
	.ext.validate = sym##_validate,					\
	.ext.setup = setup,							\
	.producer_thread = producer,					\
	.ext.measure = measure,						\
	.report_progress = hits_drops_report_progress,			\
	.ext.report_final = report_final,					\
	.teardown = teardown,						\
	.metrics = map_perf_metrics,					\
	.describe_opts = describe_opts,					\
	.counted_by = BENCH_COUNTED_BY_BPF,				\
	.latency = true,						\
}

#define HASH_TEST(m, l, type, flags)					\
	.mask = m, .label = l, .kind = KIND_HASH, .map_type = type,	\
	.map_flags = flags, .default_entries = 1000,			\
	.ops = MAP_PERF_HASH_ROUNDS, .op_name = "updates"
#define LRU_TEST(m, l, k, flags, entries)				\
	.mask = m, .label = l, .kind = k, .map_type = BPF_MAP_TYPE_LRU_HASH, \
	.map_flags = flags, .default_entries = entries, .ops = 1,	\
	.op_name = "updates"

MAP_PERF_BENCH(bench_hash_prealloc_update, "hash-prealloc-update",
	       "map_perf_test 1: update, lookup, delete x10 per getpgid(), preallocated hash map",
	       BENCH_CAP_ZERO_SEED,
	       HASH_TEST(1, "hash_map_perf pre-alloc", BPF_MAP_TYPE_HASH, 0));
MAP_PERF_BENCH(bench_percpu_hash_prealloc_update, "percpu-hash-prealloc-update",
	       "map_perf_test 2: update, lookup, delete x10 per getpgid(), preallocated per-CPU hash map",
	       BENCH_CAP_ZERO_SEED,
	       HASH_TEST(2, "percpu_hash_map_perf pre-alloc", BPF_MAP_TYPE_PERCPU_HASH, 0));
MAP_PERF_BENCH(bench_hash_kmalloc_update, "hash-kmalloc-update",
	       "map_perf_test 4: update, lookup, delete x10 per getpgid(), hash map with BPF_F_NO_PREALLOC",
	       BENCH_CAP_ZERO_SEED,
	       HASH_TEST(4, "hash_map_perf kmalloc", BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC));
MAP_PERF_BENCH(bench_percpu_hash_kmalloc_update, "percpu-hash-kmalloc-update",
	       "map_perf_test 8: update, lookup, delete x10 per getpgid(), per-CPU hash map with BPF_F_NO_PREALLOC",
	       BENCH_CAP_ZERO_SEED,
	       HASH_TEST(8, "percpu_hash_map_perf kmalloc", BPF_MAP_TYPE_PERCPU_HASH,
			 BPF_F_NO_PREALLOC));
MAP_PERF_BENCH(bench_lru_hash_common_update, "lru-hash-common-update",
	       "map_perf_test 16: one random-key update per getpgid(), LRU hash map, common free list",
	       BENCH_CAP_ZERO_SEED,
	       LRU_TEST(16, "lru_hash_map_perf pre-alloc", KIND_LRU, 0, 10000));
MAP_PERF_BENCH(bench_lru_hash_percpu_update, "lru-hash-percpu-update",
	       "map_perf_test 32: one random-key update per getpgid(), LRU hash map, per-CPU free lists",
	       BENCH_CAP_ZERO_SEED,
	       LRU_TEST(32, "nocommon_lru_hash_map_perf pre-alloc", KIND_LRU, BPF_F_NO_COMMON_LRU,
			10000));
MAP_PERF_BENCH(bench_lpm_kmalloc_lookup, "lpm-kmalloc-lookup",
	       "map_perf_test 64: 32 lookups of 192.168.0.1/32 per getpgid() in an LPM trie of 513 prefixes",
	       0,
	       .mask = 64, .label = "lpm_perf kmalloc", .kind = KIND_LPM,
	       .map_type = BPF_MAP_TYPE_LPM_TRIE, .map_flags = BPF_F_NO_PREALLOC,
	       .default_entries = 10000, .ops = MAP_PERF_LPM_LOOKUPS, .op_name = "lookups");
MAP_PERF_BENCH(bench_inner_lru_hash_update, "inner-lru-hash-update",
	       "map_perf_test 512: one random-key update per getpgid() in this CPU's LRU map of an array of maps",
	       BENCH_CAP_ZERO_SEED,
	       LRU_TEST(512, "inner_lru_hash_map_perf pre-alloc", KIND_INNER_LRU, 0, 1000));
