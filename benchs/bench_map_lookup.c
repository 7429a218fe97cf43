// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup microbenchmarks, one per map type: each producer's getpgid()
 * runs MAP_LOOKUP_PER_TRIGGER lookups of existing keys, and every lookup
 * is a hit.  Hits are counted in BPF per producer thread, so the runner
 * gets per-producer rates, not just a total.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "progs/lookup_shared.h"
#include "map_lookup.skel.h"

enum lookup_type {
	LOOKUP_HASH,
	LOOKUP_ARRAY,
	LOOKUP_PERCPU_HASH,
	LOOKUP_PERCPU_ARRAY,
	LOOKUP_LRU_HASH,
	LOOKUP_TYPE_CNT,
};

static struct {
	struct map_lookup *skel;
	struct bpf_link *link;
	struct bench_producers prod;
} ctx;

static void teardown(void)
{
	bpf_link__destroy(ctx.link);
	ctx.link = NULL;
	bench_producers_close(&ctx.prod);
	map_lookup__destroy(ctx.skel);
	ctx.skel = NULL;
}

static struct bpf_program *type_prog(enum lookup_type t)
{
	switch (t) {
	case LOOKUP_HASH:
		return ctx.skel->progs.hash_lookup;
	case LOOKUP_ARRAY:
		return ctx.skel->progs.array_lookup;
	case LOOKUP_PERCPU_HASH:
		return ctx.skel->progs.pcpu_hash_lkup;
	case LOOKUP_PERCPU_ARRAY:
		return ctx.skel->progs.pcpu_array_lkup;
	default:
		return ctx.skel->progs.lru_hash_lookup;
	}
}

static struct bpf_map *type_map(enum lookup_type t)
{
	switch (t) {
	case LOOKUP_HASH:
		return ctx.skel->maps.hash_map;
	case LOOKUP_ARRAY:
		return ctx.skel->maps.array_map;
	case LOOKUP_PERCPU_HASH:
		return ctx.skel->maps.pcpu_hash_map;
	case LOOKUP_PERCPU_ARRAY:
		return ctx.skel->maps.pcpu_array_map;
	default:
		return ctx.skel->maps.lru_hash_map;
	}
}

static int fill_map(enum lookup_type t)
{
	bool percpu = t == LOOKUP_PERCPU_HASH || t == LOOKUP_PERCPU_ARRAY;
	bool array = t == LOOKUP_ARRAY || t == LOOKUP_PERCPU_ARRAY;
	int fd = bpf_map__fd(type_map(t)), nr_cpus = 1, err = 0, i;
	__u64 *values;
	__u32 key;

	if (percpu) {
		nr_cpus = libbpf_num_possible_cpus();
		if (nr_cpus <= 0)
			return nr_cpus ? nr_cpus : -EINVAL;
	}
	values = calloc(nr_cpus, sizeof(*values));
	if (!values)
		return -ENOMEM;
	for (key = 0; key < MAP_LOOKUP_FILL; key++) {
		for (i = 0; i < nr_cpus; i++)
			values[i] = key;
		/* array slots always exist; a hash key must not exist yet */
		if (bpf_map_update_elem(fd, &key, values, array ? BPF_ANY : BPF_NOEXIST)) {
			err = -errno;
			break;
		}
	}
	free(values);
	return err;
}

static int setup(enum lookup_type type, const char *name)
{
	struct bench_skel sk;
	int err, t;

	ctx.skel = map_lookup__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	/* only the measured map type's program and map exist in the kernel */
	for (t = 0; t < LOOKUP_TYPE_CNT; t++) {
		bpf_program__set_autoload(type_prog(t), t == (int)type);
		bpf_map__set_autocreate(type_map(t), t == (int)type);
	}
	/* only hash types accept --zero-seed (bench_args checks .caps) */
	if (env.zero_seed) {
		err = bpf_map__set_map_flags(type_map(type),
					     bpf_map__map_flags(type_map(type)) | BPF_F_ZERO_SEED);
		if (err)
			return bench_failed(err, "set BPF_F_ZERO_SEED on %s's map", name);
	}
	sk = BENCH_SKEL_LAT(ctx.skel, &ctx.prod, MAP_LOOKUP_PER_TRIGGER);
	sk.prog = type_prog(type);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = bench_skel_load(&sk);
	if (err)
		return err;
	err = fill_map(type);
	if (err)
		return bench_failed(err, "fill %s's map", name);
	return bench_skel_attach_prog(&sk, &ctx.link);
}

static void *producer(void *input)
{
	/* the BPF side credits lookups to the producer by thread id */
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	for (;;)
		syscall(__NR_getpgid, 0);
	return NULL;
}

static int measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS];

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	/* every key looked up was filled in: a miss means a broken benchmark */
	if (errs[MAP_LOOKUP_MISSES]) {
		fprintf(stderr, "%llu lookups missed: every looked-up key should exist, the results are invalid\n",
			(unsigned long long)errs[MAP_LOOKUP_MISSES]);
		return -EIO;
	}
	return 0;
}

#define LOOKUP_BENCH(sym, bench_name, type, description)		\
static int sym##_setup(void)						\
{									\
	return setup(type, bench_name);					\
}									\
									\
const struct bench sym = {						\
	.name = bench_name,						\
	.desc = description,						\
	.needs = BENCH_NEEDS_BPF_TRACING,				\
	/* each repeat a new, newly filled map; hash types take a seed */	\
	.caps = BENCH_CAP_REPEAT_FRESH |				\
		(type == LOOKUP_ARRAY || type == LOOKUP_PERCPU_ARRAY ?	\
		 0 : BENCH_CAP_ZERO_SEED),				\
	.ext.setup = sym##_setup,						\
	.producer_thread = producer,					\
	.ext.measure = measure,						\
	.report_progress = hits_drops_report_progress,			\
	.report_final = hits_drops_report_final,			\
	.teardown = teardown,						\
	.metrics = hits_drops_metrics,					\
	.counted_by = BENCH_COUNTED_BY_BPF,				\
	.latency = true,						\
}

LOOKUP_BENCH(bench_hash_lookup, "hash-lookup", LOOKUP_HASH,
	     "64 lookups per getpgid() in a preallocated hash map");
LOOKUP_BENCH(bench_array_lookup, "array-lookup", LOOKUP_ARRAY,
	     "64 lookups per getpgid() in an array map");
LOOKUP_BENCH(bench_percpu_hash_lookup, "percpu-hash-lookup", LOOKUP_PERCPU_HASH,
	     "64 lookups per getpgid() in a preallocated per-CPU hash map");
LOOKUP_BENCH(bench_percpu_array_lookup, "percpu-array-lookup", LOOKUP_PERCPU_ARRAY,
	     "64 lookups per getpgid() in a per-CPU array map");
LOOKUP_BENCH(bench_lru_hash_lookup, "lru-hash-lookup", LOOKUP_LRU_HASH,
	     "64 lookups per getpgid() in an LRU hash map");
