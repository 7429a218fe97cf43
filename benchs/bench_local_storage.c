// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-cache-seq-get, local-storage-cache-int-get and
 * local-storage-cache-hashmap-control: how fast bpf_task_storage_get()
 * finds a task's storage of one of --nr_maps maps, against a hash map
 * lookup as the control.
 *
 * A task's storages hang on a list with a cache of 16 slots: a get of
 * the 17th map walks the list, the cliff these benchmarks show.
 * seq-get walks the maps in order, int-get also gets map 0 (the
 * "important" one) after every third, as a program that uses its own
 * map more than others do; hashmap-control looks up random keys among
 * --hashmap_nr_keys_used of a full 4M-entry hash map.  The producer only
 * calls getpgid(); its BPF program does LS_LOOP_NR gets per call.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "benchs/lib_hook.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "progs/local_storage_bench.h"
#include "local_storage_bench.skel.h"

/* a preallocated hash map element of 4-byte key and value, its bucket included, about */
#define LS_HASH_ELEM_BYTES	80
/* keys per bpf_map_update_batch() when filling a hash map */
#define LS_FILL_BATCH		65536

static struct {
	long nr_maps;
	long hashmap_nr_keys_used;
	enum bench_hook hook;
} args = {
	.nr_maps = 1000,
	.hashmap_nr_keys_used = 1000,
	.hook = BENCH_HOOK_AUTO,
};

enum {
	ARG_NR_MAPS = 6000,
	ARG_HASHMAP_NR_KEYS_USED = 6001,
	ARG_LS_HOOK = 6002,
};

static const struct argp_option opts[] = {
	{ "nr_maps", ARG_NR_MAPS, "NR_MAPS", 0,
	  "Set number of local_storage maps, 1..1000 (default 1000)" },
	{ "hashmap_nr_keys_used", ARG_HASHMAP_NR_KEYS_USED, "NR_KEYS", 0,
	  "When doing hashmap test, set number of hashmap keys test uses, 1..4194304 (default 1000)" },
	{ "hook", ARG_LS_HOOK, "HOOK", 0, BENCH_HOOK_HELP },
	{},
};

/*
 * upstream's parser takes 1..UINT_MAX and its validate() exits 1 above what
 * the maps hold; an out-of-range value is a usage error here (64), as every
 * other option's (README's exit table)
 */
static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_NR_MAPS:
		if (parse_long(arg, 1, LS_MAX_NR_MAPS, &args.nr_maps))
			return bench_args_bad_value("--nr_maps", arg, "an integer in 1..%d",
						    LS_MAX_NR_MAPS);
		break;
	case ARG_HASHMAP_NR_KEYS_USED:
		if (parse_long(arg, 1, LS_HASHMAP_SZ, &args.hashmap_nr_keys_used))
			return bench_args_bad_value("--hashmap_nr_keys_used", arg,
						    "an integer in 1..%d", LS_HASHMAP_SZ);
		break;
	case ARG_LS_HOOK:
		return bench_hook_parse(arg, &args.hook);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bench_local_storage_argp = {
	.options = opts,
	.parser = parse_arg,
};

enum ls_variant { LS_SEQ, LS_INT, LS_HASHMAP };

static struct {
	struct local_storage_bench *skel;
	/* the chosen program's attachment; teardown detaches it */
	struct bpf_link *link;
	struct bench_producers prod;
	enum ls_variant variant;
	enum bench_hook ran;
	/* the inner maps, until the outer array holds them */
	int *fds;
	__u64 prev_errs[BENCH_PROD_NR_ERRS];
	bool get_errs_said;
} ctx;

static long mem_available_mib(void)
{
	char line[256];
	long kib = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib < 0 ? -1 : kib / 1024;
}

static int ls_validate(void)
{
	long need_mib, avail_mib;

	if (env.producer_cnt != 1) {
		fprintf(stderr, "invalid producer count %d: %s runs one producer (-p1), as upstream's\n",
			env.producer_cnt, env.bench_name);
		return -EINVAL;
	}
	if (ctx.variant != LS_HASHMAP)
		return 0;
	/* each map is preallocated and filled: refuse before the OOM killer does */
	need_mib = args.nr_maps * (long)LS_HASHMAP_SZ * LS_HASH_ELEM_BYTES >> 20;
	avail_mib = mem_available_mib();
	if (avail_mib >= 0 && need_mib > avail_mib) {
		fprintf(stderr, "invalid --nr_maps %ld for %s: %ld hash maps of %d entries need about %ld MiB, more than the %ld MiB available (upstream's wrapper runs --nr_maps 1)\n",
			args.nr_maps, env.bench_name, args.nr_maps, LS_HASHMAP_SZ, need_mib,
			avail_mib);
		return -EINVAL;
	}
	return 0;
}

static int validate_seq(void)
{
	ctx.variant = LS_SEQ;
	return ls_validate();
}

static int validate_int(void)
{
	ctx.variant = LS_INT;
	return ls_validate();
}

static int validate_hashmap(void)
{
	ctx.variant = LS_HASHMAP;
	return ls_validate();
}

static struct bpf_program *hook_prog(enum bench_hook hook)
{
	bool fentry = hook == BENCH_HOOK_FENTRY;

	if (ctx.variant == LS_HASHMAP)
		return fentry ? ctx.skel->progs.get_hash_fentry : ctx.skel->progs.get_hash_tp;
	return fentry ? ctx.skel->progs.get_local_fentry : ctx.skel->progs.get_local_tp;
}

static struct bpf_map *outer_map(void)
{
	return ctx.variant == LS_HASHMAP ? ctx.skel->maps.array_of_hash_maps :
					   ctx.skel->maps.array_of_local_storage_maps;
}

/* upstream fills every key: lookups then go through a full table */
static int fill_hashmap(int fd)
{
	static int keys[LS_FILL_BATCH], vals[LS_FILL_BATCH];
	__u32 i, n, done;

	for (done = 0; done < LS_HASHMAP_SZ; done += n) {
		n = LS_HASHMAP_SZ - done < LS_FILL_BATCH ? LS_HASHMAP_SZ - done : LS_FILL_BATCH;
		for (i = 0; i < n; i++)
			keys[i] = vals[i] = done + i;
		if (bpf_map_update_batch(fd, keys, vals, &n, NULL))
			return bench_failed(-errno, "fill a hash map (keys %u..%u of %d)", done,
					    done + n - 1, LS_HASHMAP_SZ);
	}
	return 0;
}

/* after load: the inner maps, into the outer array */
static int create_inner_maps(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	int outer_fd = bpf_map__fd(outer_map());
	int i, fd, err, int_id;

	if (ctx.variant != LS_HASHMAP) {
		/*
		 * Task storage needs its key and value described in BTF: both
		 * are int, which the object's BTF has (libbpf 1.1 gives inner
		 * maps no type ids to copy)
		 */
		int_id = btf__find_by_name(bpf_object__btf(ctx.skel->obj), "int");
		if (int_id <= 0)
			return bench_failed(int_id ?: -ENOENT,
					    "find type int in the BPF object's BTF");
		mopts.map_flags = BPF_F_NO_PREALLOC;
		mopts.btf_fd = bpf_object__btf_fd(ctx.skel->obj);
		mopts.btf_key_type_id = int_id;
		mopts.btf_value_type_id = int_id;
	}
	for (i = 0; i < args.nr_maps; i++) {
		if (ctx.variant == LS_HASHMAP)
			fd = bpf_map_create(BPF_MAP_TYPE_HASH, "ls_hashmap", sizeof(int), sizeof(int),
					    LS_HASHMAP_SZ, &mopts);
		else
			fd = bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, "ls_task_storage",
					    sizeof(int), sizeof(int), 0, &mopts);
		if (fd < 0)
			return bench_failed(-errno, "create %s map %d of %ld",
					    ctx.variant == LS_HASHMAP ? "hash" : "task storage", i + 1,
					    args.nr_maps);
		ctx.fds[i] = fd;
		if (ctx.variant == LS_HASHMAP) {
			err = fill_hashmap(fd);
			if (err)
				return err;
		}
		if (bpf_map_update_elem(outer_fd, &i, &fd, 0))
			return bench_failed(-errno, "put map %d into the array of maps", i + 1);
	}
	return 0;
}

static void close_inner_maps(void)
{
	int i;

	for (i = 0; ctx.fds && i < args.nr_maps; i++) {
		if (ctx.fds[i] > 0)
			close(ctx.fds[i]);
		ctx.fds[i] = 0;
	}
}

static int load_and_attach(enum bench_hook hook)
{
	struct bench_skel sk;
	int err;

	ctx.skel = local_storage_bench__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	ctx.skel->rodata->num_maps = args.nr_maps;
	ctx.skel->rodata->hashmap_num_keys = args.hashmap_nr_keys_used;
	ctx.skel->rodata->interleave = ctx.variant == LS_INT;
	/* only the outer array the program uses is created */
	err = bpf_map__set_autocreate(ctx.skel->maps.array_of_hash_maps,
				      ctx.variant == LS_HASHMAP);
	if (!err)
		err = bpf_map__set_autocreate(ctx.skel->maps.array_of_local_storage_maps,
					      ctx.variant != LS_HASHMAP);
	if (err)
		return bench_failed(err, "select %s's outer map", env.bench_name);
	sk = BENCH_SKEL(ctx.skel, &ctx.prod);
	sk.prog = hook_prog(hook);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = bench_skel_load(&sk);
	if (!err)
		err = create_inner_maps();
	if (!err)
		err = bench_skel_attach_prog(&sk, &ctx.link);
	return err;
}

static void unload(void)
{
	bench_producers_close(&ctx.prod);
	bpf_link__destroy(ctx.link);
	ctx.link = NULL;
	local_storage_bench__destroy(ctx.skel);
	ctx.skel = NULL;
	close_inner_maps();
}

static const struct bench_hook_ops hook_ops = {
	.load = load_and_attach,
	.unload = unload,
	.prog = hook_prog,
};

static int ls_setup(void)
{
	int err;

	ctx.fds = calloc(args.nr_maps, sizeof(*ctx.fds));
	if (!ctx.fds)
		return bench_failed(-ENOMEM, "allocate %ld map descriptors", args.nr_maps);
	err = bench_hook_load(args.hook, &hook_ops, &ctx.ran, true);
	if (err)
		return err;
	/* the outer array holds the inner maps now */
	close_inner_maps();
	return 0;
}

static void ls_teardown(void)
{
	unload();
	free(ctx.fds);
	ctx.fds = NULL;
}

static void *ls_producer(void *input)
{
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	for (;;)
		syscall(__NR_getpgid, 0);
	return NULL;
}

static int ls_measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS];

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	res->important_hits = (long)(errs[LS_IMPORTANT_HITS] - ctx.prev_errs[LS_IMPORTANT_HITS]);
	res->fails = (long)(errs[LS_GET_ERRS] - ctx.prev_errs[LS_GET_ERRS]);
	memcpy(ctx.prev_errs, errs, sizeof(errs));
	return 0;
}

static double m_hits(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / 1e6;
}

static double m_important_hits(const struct bench_res *r)
{
	return rate_per_sec(r->important_hits, r->delta_ns) / 1e6;
}

static const struct bench_metric ls_metrics[] = {
	{ "hits", "M/s", true, m_hits },
	{ "important_hits", "M/s", true, m_important_hits },
	{},
};

/*
 * Upstream's "hits latency", 1000 / the mean of hits (ns per get over the
 * measured seconds), one per repeat: the JSON's hits_latency is the
 * Summary's figure (the mean of per-second 1000 / hits, which it once
 * was, sits above it by the samples' spread: 2% on a noisy run).
 */
static int ls_latency_metric(struct bench_res res[], int res_cnt)
{
	static double lat[BENCH_MAX_REPEAT];
	static int n;
	struct stats hits;

	if (n == BENCH_MAX_REPEAT)
		return -E2BIG;
	/* as local_storage_report_final() computes the Summary's */
	metric_stats(&ls_metrics[0], res, res_cnt, &hits);
	lat[n++] = 1000.0 / hits.mean;
	return bench_add_extra_metric("hits_latency", "ns", false, lat, n);
}

static int ls_report_final(struct bench_res res[], int res_cnt)
{
	long errs = 0;
	int i, err;

	for (i = 0; i < res_cnt; i++)
		errs += res[i].fails;
	/* a get that found no storage (or a lookup no key) timed something else */
	if (errs) {
		fprintf(stderr, "%s: %ld gets failed (a missing inner map, a storage not created or a key not found): the results are invalid\n",
			env.bench_name, errs);
		return -EIO;
	}
	err = ls_latency_metric(res, res_cnt);
	if (err) {
		fprintf(stderr, "failed to keep hits latency: %s\n", strerror(-err));
		return err;
	}
	local_storage_report_final(res, res_cnt);
	return 0;
}

static void ls_describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "nr_maps", args.nr_maps);
	if (ctx.variant == LS_HASHMAP)
		bench_opt_int(out, "hashmap_nr_keys_used", args.hashmap_nr_keys_used);
	/* the hook that ran: runs on different hooks are different configurations */
	bench_opt_str(out, "hook", bench_hook_names[ctx.ran]);
}

#define LS_BENCH(_name, _desc, _validate)				\
	{								\
		.name = _name,						\
		.desc = _desc,						\
		.argp = &bench_local_storage_argp,			\
		.needs = BENCH_NEEDS_BPF_TRACING,			\
		.caps = BENCH_CAP_PARK_THREADS,				\
		.ext.validate = _validate,					\
		.ext.setup = ls_setup,					\
		.producer_thread = ls_producer,				\
		.ext.measure = ls_measure,					\
		.report_progress = local_storage_report_progress,	\
		.ext.report_final = ls_report_final,			\
		.teardown = ls_teardown,				\
		.metrics = ls_metrics,					\
		.describe_opts = ls_describe_opts,			\
		.counted_by = BENCH_COUNTED_BY_BPF,			\
	}

const struct bench bench_local_storage_cache_seq_get = LS_BENCH("local-storage-cache-seq-get",
	"bpf_task_storage_get() over --nr_maps task storage maps in turn", validate_seq);
const struct bench bench_local_storage_cache_interleaved_get = LS_BENCH("local-storage-cache-int-get",
	"as seq-get, and map 0 again after every third map", validate_int);
const struct bench bench_local_storage_cache_hashmap_control = LS_BENCH("local-storage-cache-hashmap-control",
	"the control: random-key lookups in --nr_maps 4M-entry hash maps", validate_hashmap);
