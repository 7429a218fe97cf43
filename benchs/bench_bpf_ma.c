// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_ma: alloc and free rates of the BPF memory allocator, and the memory
 * it holds, as the benchmark posted for it (December 2023, "selftests/bpf:
 * Add benchmark for bpf memory allocator") measured them.  Each producer's
 * getpgid() makes its BPF program allocate a batch of objects with
 * bpf_obj_new() (--percpu: bpf_percpu_obj_new()), stash them with
 * bpf_kptr_xchg() in the producer's own slots, then take them out and drop
 * them; both batches are timed in BPF.
 *
 * Rates are objects per nanosecond spent in a batch (the posted "per-prod"
 * rates, in M/s), not per second of wall time.  Memory is the system's
 * unreclaimable slab (--percpu: per-CPU memory) beyond what it was at the
 * end of set-up (read_sys_mem() says why not the run's cgroup's).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "progs/bpf_ma_bench.h"
#include "bpf_ma_bench.skel.h"

#define SIZE_ENTRY(n) n,
static const int obj_sizes[] = { BPF_MA_SIZES(SIZE_ENTRY) };
static const int percpu_obj_sizes[] = { BPF_MA_PERCPU_SIZES(SIZE_ENTRY) };

static struct {
	bool percpu;
	bool footprint;
	long obj_size;
	long batch_size;
} args = {
	.obj_size = 128,
	.batch_size = BPF_MA_BATCH_DEFAULT,
};

/* per-sample counts in bench_res.aux */
enum {
	AUX_FREED,
	AUX_ALLOC_NS,
	AUX_FREE_NS,
	AUX_SLAB,	/* the system's unreclaimable slab, bytes beyond set-up's */
	AUX_PERCPU,	/* the system's per-CPU memory, likewise */
	AUX_FP_SLAB,	/* --footprint: the allocator's kmalloc() bytes held */
	AUX_FP_PERCPU,	/* --footprint: its per-CPU bytes held */
};

static struct {
	struct bpf_ma_bench *skel;
	struct bench_producers prod;
	/* cumulative at the previous sample */
	__u64 prev_freed, prev_alloc_ns, prev_free_ns;
	/* /proc/meminfo, open for the whole run, and its figures after set-up */
	int meminfo_fd;
	long long slab_base, percpu_base;
	/* the whole run's counts, taken once the producers stopped */
	bool counted;
	__u64 allocated, freed, stale, alloc_fails;
	/* the least memory the run's objects occupy, and whether the figure fell below it */
	long long floor_bytes;
	bool below_floor;
	/* --footprint: what the allocator still held once the run's frees were done */
	long long fp_rest[BPF_MA_FP_KINDS];
	__u64 fp_freed[BPF_MA_FP_KINDS];
	__u64 fp_untracked;
} ctx = { .meminfo_fd = -1 };

enum {
	ARG_PERCPU = 3100,
	ARG_OBJ_SIZE,
	ARG_BATCH_SIZE,
	ARG_FOOTPRINT,
};

static const struct argp_option opts[] = {
	{ "percpu", ARG_PERCPU, NULL, 0,
	  "Per-CPU objects: bpf_percpu_obj_new()/bpf_percpu_obj_drop()" },
	{ "obj-size", ARG_OBJ_SIZE, "BYTES", 0,
	  "Object size with the allocator's 8-byte header: 16, 32, 64, 96, 128 (default), 192, 256, 512, 1024, 2048, 4096 (--percpu: up to 512)" },
	{ "batch-size", ARG_BATCH_SIZE, "N", 0, "Objects per alloc and per free batch (default 64)" },
	{ "footprint", ARG_FOOTPRINT, NULL, 0,
	  "Also count, exactly, the bytes the allocator takes from kmalloc() and the per-CPU allocator and has not given back (tracepoints on both: slower)" },
	{},
};

static bool size_listed(const int *sizes, size_t n, long size)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (sizes[i] == size)
			return true;
	return false;
}

static void print_sizes(FILE *f, const int *sizes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? ", " : "", sizes[i]);
}

static error_t bpf_ma_parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_PERCPU:
		args.percpu = true;
		break;
	case ARG_FOOTPRINT:
		args.footprint = true;
		break;
	case ARG_OBJ_SIZE:
		if (parse_long(arg, 1, 1L << 20, &args.obj_size) ||
		    !size_listed(obj_sizes, ARRAY_SIZE(obj_sizes), args.obj_size)) {
			fprintf(stderr, "invalid object size '%s': expected one of ", arg);
			print_sizes(stderr, obj_sizes, ARRAY_SIZE(obj_sizes));
			fputc('\n', stderr);
			return EINVAL;
		}
		break;
	case ARG_BATCH_SIZE:
		if (parse_long(arg, 1, BPF_MA_BATCH_MAX, &args.batch_size)) {
			fprintf(stderr, "invalid batch size '%s': expected an integer in 1..%d\n",
				arg, BPF_MA_BATCH_MAX);
			return EINVAL;
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bench_bpf_ma_argp = {
	.options = opts,
	.parser = bpf_ma_parse_arg,
};

/* the kfuncs a flavour calls, and the kernel release that brought them */
static const struct {
	const char *name, *impl, *since;
} kfuncs[2][2] = {
	{ { "bpf_obj_new", "bpf_obj_new_impl", "6.2" },
	  { "bpf_obj_drop", "bpf_obj_drop_impl", "6.2" } },
	{ { "bpf_percpu_obj_new", "bpf_percpu_obj_new_impl", "6.7" },
	  { "bpf_percpu_obj_drop", "bpf_percpu_obj_drop_impl", "6.7" } },
};

/*
 * Before anything is created: a kernel without the kfuncs would refuse
 * the program, or (weak kfuncs) run one that allocates nothing.  The
 * kernel's BTF lists every kfunc it has.
 */
static int check_kfuncs(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int i, err = 0;

	if (!btf)
		return bench_failed(-errno, "bpf_ma: read the kernel's BTF to find its kfuncs");
	for (i = 0; i < 2 && !err; i++) {
		if (btf__find_by_name_kind(btf, kfuncs[args.percpu][i].impl, BTF_KIND_FUNC) > 0)
			continue;
		fprintf(stderr, "bpf_ma: this kernel has no %s(): the kfunc %s is not in its BTF (Linux %s and later have it)\n",
			kfuncs[args.percpu][i].name, kfuncs[args.percpu][i].impl,
			kfuncs[args.percpu][i].since);
		err = -EOPNOTSUPP;
	}
	btf__free(btf);
	return err;
}

static int bpf_ma_validate(void)
{
	if (args.percpu &&
	    !size_listed(percpu_obj_sizes, ARRAY_SIZE(percpu_obj_sizes), args.obj_size)) {
		fprintf(stderr, "invalid object size %ld with --percpu: the per-CPU allocator takes ",
			args.obj_size);
		print_sizes(stderr, percpu_obj_sizes, ARRAY_SIZE(percpu_obj_sizes));
		fputc('\n', stderr);
		return -EINVAL;
	}
	if ((long long)args.batch_size * env.producer_cnt > BPF_MA_SLOTS_MAX) {
		fprintf(stderr, "invalid batch size %ld with -p %d: at most %d slots in all (batch x producers)\n",
			args.batch_size, env.producer_cnt, BPF_MA_SLOTS_MAX);
		return -EINVAL;
	}
	return check_kfuncs();
}

/* the program and stash of the chosen size and flavour, by their names */
static int pick_size(struct bpf_program **prog, struct bpf_map **stash)
{
	const char *pfx = args.percpu ? "percpu_" : "";
	struct bpf_program *p;
	struct bpf_map *m;
	char name[64];

	snprintf(name, sizeof(name), "%sbench_%ld", pfx, args.obj_size);
	*prog = bpf_object__find_program_by_name(ctx.skel->obj, name);
	snprintf(name, sizeof(name), "%sstash_%ld", pfx, args.obj_size);
	*stash = bpf_object__find_map_by_name(ctx.skel->obj, name);
	if (!*prog || !*stash)
		return bench_failed(-ENOENT, "find bpf_ma's program and stash for %ld-byte objects",
				    args.obj_size);
	/* only the chosen stash is created and charged to the run's memory */
	bpf_object__for_each_map(m, ctx.skel->obj)
		if (strstr(bpf_map__name(m), "stash_") && m != *stash)
			bpf_map__set_autocreate(m, false);
	bpf_object__for_each_program(p, ctx.skel->obj)
		bpf_program__set_autoload(p, p == *prog);
	return 0;
}

/*
 * kernel/bpf/memalloc.c's functions, as kernels from 6.2 on name them (a
 * suffix such as .isra.0 aside); the ones a kernel inlined are absent.
 */
static const char *const ma_funcs[] = {
	"init_refill_work", "__alloc", "unit_alloc", "unit_free", "unit_free_rcu", "alloc_bulk",
	"free_one", "free_all", "__free_rcu", "__free_rcu_tasks_trace", "enque_to_free",
	"do_call_rcu_ttrace", "free_bulk", "__free_by_rcu", "check_free_by_rcu", "bpf_mem_refill",
	"prefill_mem_cache", "drain_mem_cache", "check_mem_cache", "check_leaked_objs",
	"free_mem_alloc_no_barrier", "free_mem_alloc", "free_mem_alloc_deferred",
	"destroy_mem_alloc", "bpf_mem_alloc_init", "bpf_mem_alloc_percpu_init",
	"bpf_mem_alloc_percpu_unit_init", "bpf_mem_alloc_destroy", "bpf_mem_alloc",
	"bpf_mem_free", "bpf_mem_free_rcu", "bpf_mem_cache_alloc", "bpf_mem_cache_free",
	"bpf_mem_cache_free_rcu", "bpf_mem_cache_raw_free", "bpf_mem_cache_alloc_flags",
	"bpf_mem_alloc_check_size",
};
/* one file's text: its functions lie this close to bpf_mem_alloc_init() */
#define MA_TEXT_SPAN (64 * 1024)

static bool ma_func(const char *name)
{
	size_t i, n = strcspn(name, ".");

	for (i = 0; i < ARRAY_SIZE(ma_funcs); i++)
		if (strlen(ma_funcs[i]) == n && !strncmp(name, ma_funcs[i], n))
			return true;
	return false;
}

/*
 * [lo, hi): from the first of those functions near bpf_mem_alloc_init()
 * to the symbol after the last.  Two passes over /proc/kallsyms: the
 * anchor first, then the range around it.
 */
static int ma_text_range(__u64 *lo, __u64 *hi)
{
	unsigned long long addr, anchor = 0, first = ~0ULL, last = 0, next = ~0ULL;
	char type, name[256], line[512];
	int pass;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return bench_failed(-errno, "open /proc/kallsyms (--footprint needs it)");
	for (pass = 0; pass < 3; pass++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			/* a module's symbol has a fourth field: not the kernel's text */
			if (sscanf(line, "%llx %c %255s %*s", &addr, &type, name) != 3 ||
			    strchr(line, '[') || (type != 't' && type != 'T'))
				continue;
			if (pass == 0 && !strcmp(name, "bpf_mem_alloc_init"))
				anchor = addr;
			else if (pass == 1 && ma_func(name) && addr + MA_TEXT_SPAN > anchor &&
				 addr < anchor + MA_TEXT_SPAN) {
				first = addr < first ? addr : first;
				last = addr > last ? addr : last;
			} else if (pass == 2 && addr > last && addr < next) {
				next = addr;
			}
		}
		if (pass == 0 && !anchor) {
			fclose(f);
			fprintf(stderr, "bpf_ma: --footprint: no bpf_mem_alloc_init in /proc/kallsyms (addresses hidden: kernel.kptr_restrict, or not root)\n");
			return -ENOENT;
		}
	}
	fclose(f);
	if (next == ~0ULL || next - first > 2 * MA_TEXT_SPAN) {
		fprintf(stderr, "bpf_ma: --footprint: the BPF memory allocator's text is not one range in /proc/kallsyms\n");
		return -ENOENT;
	}
	*lo = first;
	*hi = next;
	return 0;
}

/* the four programs of --footprint, loaded with it only */
static int configure_footprint(void)
{
	struct bpf_program *progs[] = {
		ctx.skel->progs.fp_kmalloc, ctx.skel->progs.fp_kfree,
		ctx.skel->progs.fp_pcpu_alloc, ctx.skel->progs.fp_pcpu_free,
	};
	size_t i;
	int err;

	bpf_map__set_autocreate(ctx.skel->maps.fp_live, args.footprint);
	if (!args.footprint)
		return 0;
	err = ma_text_range(&ctx.skel->rodata->ma_text_lo, &ctx.skel->rodata->ma_text_hi);
	for (i = 0; !err && i < ARRAY_SIZE(progs); i++)
		err = bpf_program__set_autoload(progs[i], true);
	return err;
}

static int bpf_ma_configure(void)
{
	struct bpf_program *prog;
	struct bpf_map *stash;
	int err;

	err = pick_size(&prog, &stash);
	if (err)
		return err;
	err = bpf_map__set_max_entries(stash, args.batch_size * env.producer_cnt);
	if (err)
		return bench_failed(err, "size bpf_ma's stash");
	ctx.skel->rodata->batch_size = args.batch_size;
	ctx.skel->rodata->getpgid_nr = SYS_getpgid;
	return configure_footprint();
}

/*
 * The system's unreclaimable slab and per-CPU memory, in bytes.  Not the
 * run's cgroup: the kernel charges the allocator behind bpf_obj_new() and
 * bpf_percpu_obj_new() (bpf_global_ma, bpf_global_percpu_ma) to the root
 * memory cgroup, which is to say to no cgroup, so no cgroup's statistics
 * see these objects; /proc/meminfo does, next to everything else the
 * machine allocates.
 */
static int read_sys_mem(long long *slab, long long *percpu)
{
	char buf[8192], *p;
	ssize_t n;

	*slab = *percpu = -1;
	if (ctx.meminfo_fd < 0) {
		ctx.meminfo_fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
		if (ctx.meminfo_fd < 0)
			return bench_failed(-errno, "open /proc/meminfo");
	}
	n = pread(ctx.meminfo_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return bench_failed(-errno, "read /proc/meminfo");
	buf[n] = '\0';
	p = strstr(buf, "\nSUnreclaim:");
	if (p)
		*slab = strtoll(p + 13, NULL, 10) * 1024;
	p = strstr(buf, "\nPercpu:");
	if (p)
		*percpu = strtoll(p + 9, NULL, 10) * 1024;
	if (*slab < 0 || *percpu < 0) {
		fprintf(stderr, "failed to read /proc/meminfo: no SUnreclaim or Percpu line\n");
		return -ENODATA;
	}
	return 0;
}

static void bpf_ma_teardown(void)
{
	bench_producers_close(&ctx.prod);
	bpf_ma_bench__destroy(ctx.skel);
	ctx.skel = NULL;
	if (ctx.meminfo_fd >= 0)
		close(ctx.meminfo_fd);
	ctx.meminfo_fd = -1;
}

static int bpf_ma_setup(void)
{
	struct bench_skel sk;
	int err;

	ctx.skel = bpf_ma_bench__open();
	if (!ctx.skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	/* an alloc and a free per object */
	sk = BENCH_SKEL_LAT(ctx.skel, &ctx.prod, 2 * args.batch_size);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = bpf_ma_configure();
	if (!err)
		err = bench_skel_load(&sk);
	if (!err)
		err = bench_skel_attach(&sk);
	if (err)
		return err;
	/* what the allocator's traffic adds is measured from here */
	return read_sys_mem(&ctx.slab_base, &ctx.percpu_base);
}

static void *bpf_ma_producer(void *arg)
{
	if (bench_producer_register(&ctx.prod, (long)arg))
		return NULL;
	for (;;)
		(void)syscall(SYS_getpgid, 0);
	return NULL;
}

static __u64 prods_sum(size_t off)
{
	__u64 sum = 0;
	int i;

	for (i = 0; i < env.producer_cnt; i++)
		sum += __atomic_load_n((__u64 *)((char *)&ctx.skel->bss->bpf_ma_prods[i] + off),
				       __ATOMIC_RELAXED);
	return sum;
}

/* --footprint: bytes held now; a free counted before its allocation can make it dip below 0 */
static long long fp_live(int kind)
{
	long long v = __atomic_load_n(&ctx.skel->bss->fp.live[kind], __ATOMIC_RELAXED);

	return v > 0 ? v : 0;
}

static int bpf_ma_measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS], alloc_ns, free_ns;
	long long slab, percpu;
	int err;

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	alloc_ns = prods_sum(offsetof(struct bpf_ma_prod, alloc_ns));
	free_ns = prods_sum(offsetof(struct bpf_ma_prod, free_ns));
	res->aux[AUX_FREED] = errs[BPF_MA_FREED] - ctx.prev_freed;
	res->aux[AUX_ALLOC_NS] = alloc_ns - ctx.prev_alloc_ns;
	res->aux[AUX_FREE_NS] = free_ns - ctx.prev_free_ns;
	ctx.prev_freed = errs[BPF_MA_FREED];
	ctx.prev_alloc_ns = alloc_ns;
	ctx.prev_free_ns = free_ns;
	err = read_sys_mem(&slab, &percpu);
	if (err)
		return err;
	/*
	 * As the posted benchmark: memory below the baseline means frees
	 * still under way at set-up (an earlier run's objects waiting for
	 * RCU) have finished; the lowest level seen is the baseline.
	 */
	ctx.slab_base = slab < ctx.slab_base ? slab : ctx.slab_base;
	ctx.percpu_base = percpu < ctx.percpu_base ? percpu : ctx.percpu_base;
	res->aux[AUX_SLAB] = slab - ctx.slab_base;
	res->aux[AUX_PERCPU] = percpu - ctx.percpu_base;
	res->aux[AUX_FP_SLAB] = fp_live(BPF_MA_FP_SLAB);
	res->aux[AUX_FP_PERCPU] = fp_live(BPF_MA_FP_PERCPU);
	return 0;
}

/* objects per nanosecond in a batch, in M/s: the posted per-producer rates */
static double m_alloc(const struct bench_res *r)
{
	return r->aux[AUX_ALLOC_NS] ? r->hits * 1e3 / r->aux[AUX_ALLOC_NS] : NAN;
}

static double m_free(const struct bench_res *r)
{
	return r->aux[AUX_FREE_NS] ? r->aux[AUX_FREED] * 1e3 / r->aux[AUX_FREE_NS] : NAN;
}

/* the system's slab and per-CPU memory beyond what it held after set-up */
static double m_slab(const struct bench_res *r)
{
	return r->aux[AUX_SLAB] / 1048576.0;
}

static double m_percpu(const struct bench_res *r)
{
	return r->aux[AUX_PERCPU] / 1048576.0;
}

/* --footprint's, exact; not measured without it */
static double m_fp_slab(const struct bench_res *r)
{
	return args.footprint ? r->aux[AUX_FP_SLAB] / 1048576.0 : NAN;
}

static double m_fp_percpu(const struct bench_res *r)
{
	return args.footprint ? r->aux[AUX_FP_PERCPU] / 1048576.0 : NAN;
}

static const struct bench_metric bpf_ma_metrics[] = {
	{ "alloc", "M/s", true, m_alloc },
	{ "free", "M/s", true, m_free },
	{ "sys_slab_growth", "MiB", false, m_slab },
	{ "sys_percpu_growth", "MiB", false, m_percpu },
	{ "footprint_slab", "MiB", false, m_fp_slab },
	{ "footprint_percpu", "MiB", false, m_fp_percpu },
	{},
};

/* the posted "total memory usage": slab, or with --percpu per-CPU memory */
static const struct bench_metric *total_mem_metric(void)
{
	return &bpf_ma_metrics[args.percpu ? 3 : 2];
}

static void bpf_ma_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	printf("Iter %3d (%7.3lfus): ", iter, (delta_ns - 1000000000) / 1000.0);
	printf("per-prod alloc %7.2lfM/s free %7.2lfM/s, total memory usage %7.2lfMiB\n",
	       m_alloc(res), m_free(res), total_mem_metric()->value(res));
}

/*
 * The whole run's counts once no trigger runs any more: every object
 * allocated must have been freed.  Producers keep calling getpgid(), but
 * the program starts no trigger once stopped is set; a trigger under way
 * when it was set ends within a few microseconds.
 */
/*
 * --footprint, once no trigger runs: the frees still on their way (RCU
 * grace periods) land within a few hundred milliseconds.  What the
 * allocator still keeps is its caches and the frees queued behind a grace
 * period, which it hands on only at its next free: megabytes, measured.
 * Polled until it has not dropped for 200 ms, at most 3 s.  Waiting for a
 * first free would not help: a run may see none (the allocator reuses what
 * it was given back), and in 3 of 8 one-second runs none came in 60 s.
 */
static void fp_settle(void)
{
	struct timespec ts = { .tv_nsec = 50 * 1000 * 1000 };
	long long sum, low = -1;
	int i, still = 0;

	for (i = 0; i < 60 && still < 4; i++) {
		nanosleep(&ts, NULL);
		sum = fp_live(BPF_MA_FP_SLAB) + fp_live(BPF_MA_FP_PERCPU);
		still = low >= 0 && sum >= low ? still + 1 : 0;
		low = low < 0 || sum < low ? sum : low;
	}
	ctx.fp_rest[BPF_MA_FP_SLAB] = fp_live(BPF_MA_FP_SLAB);
	ctx.fp_rest[BPF_MA_FP_PERCPU] = fp_live(BPF_MA_FP_PERCPU);
	ctx.fp_untracked = __atomic_load_n(&ctx.skel->bss->fp.untracked, __ATOMIC_RELAXED);
	for (i = 0; i < BPF_MA_FP_KINDS; i++)
		ctx.fp_freed[i] = __atomic_load_n(&ctx.skel->bss->fp.freed[i], __ATOMIC_RELAXED);
}

static int count_whole_run(void)
{
	struct timespec ts = { .tv_nsec = 1000 * 1000 };
	__u64 errs[BENCH_PROD_NR_ERRS];
	int i, tries;

	__atomic_store_n(&ctx.skel->bss->stopped, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < env.producer_cnt; i++) {
		for (tries = 0; tries < 1000; tries++) {
			if (!(__atomic_load_n(&ctx.skel->bss->bpf_ma_prods[i].in_trigger,
					      __ATOMIC_ACQUIRE) & 1))
				break;
			nanosleep(&ts, NULL);
		}
		if (tries == 1000) {
			fprintf(stderr, "bpf_ma: producer %d is still in a trigger a second after the run stopped\n",
				i);
			return -ETIMEDOUT;
		}
	}
	bench_producers_errs(&ctx.prod, errs);
	ctx.freed = errs[BPF_MA_FREED];
	ctx.alloc_fails = errs[BPF_MA_ALLOC_FAILS];
	ctx.stale = prods_sum(offsetof(struct bpf_ma_prod, stale));
	for (i = 0, ctx.allocated = 0; i < env.producer_cnt; i++)
		ctx.allocated += __atomic_load_n(&ctx.prod.counters[i].hits, __ATOMIC_RELAXED);
	ctx.counted = true;
	if (args.footprint)
		fp_settle();
	if (ctx.allocated != ctx.freed + ctx.stale) {
		fprintf(stderr, "bpf_ma: %llu objects allocated but %llu freed (%llu found stale): the counts do not add up\n",
			(unsigned long long)ctx.allocated, (unsigned long long)ctx.freed,
			(unsigned long long)ctx.stale);
		return -EPROTO;
	}
	return 0;
}

/*
 * The least memory the run's objects occupy while a batch is stashed: a
 * batch per producer, of whole size classes, and a per-CPU object's data
 * once per possible CPU.  A growth below it is no footprint: the kernel
 * keeps per-CPU pages populated, and the allocator its caches, after an
 * earlier run (bpf_global_percpu_ma lives until reboot), so a run on a warm
 * allocator can read no growth at all while it holds these objects.
 */
static int memory_floor(long long *bytes)
{
	long long objs = (long long)args.batch_size * env.producer_cnt;
	int cpus;

	if (!args.percpu) {
		*bytes = objs * args.obj_size;
		return 0;
	}
	cpus = libbpf_num_possible_cpus();
	if (cpus <= 0)
		return bench_failed(cpus ? cpus : -EINVAL, "count possible CPUs");
	*bytes = objs * (args.obj_size - BPF_MA_HDR) * cpus;
	return 0;
}

/* a total below the floor is said, on stderr and in JSON, never passed off as the footprint */
static int check_floor(double total_mib)
{
	int err = memory_floor(&ctx.floor_bytes);

	if (err)
		return err;
	if (total_mib * 1048576.0 >= ctx.floor_bytes)
		return 0;
	ctx.below_floor = true;	/* with --repeat: in any repeat */
	fprintf(stderr, "warning: bpf_ma's total memory usage %.2f MiB is below the %.2f MiB the run's stashed objects occupy (%lld objects of %ld bytes%s): the %s allocator held memory from before set-up, an earlier run's, so the figure is not its footprint\n",
		total_mib, ctx.floor_bytes / 1048576.0, (long long)args.batch_size * env.producer_cnt,
		args.percpu ? args.obj_size - BPF_MA_HDR : args.obj_size,
		args.percpu ? " on every possible CPU" : "", args.percpu ? "per-CPU" : "slab");
	return 0;
}

/* --footprint's line: held (mean and peak over the samples), then after the run */
static void report_footprint(struct bench_res res[], int res_cnt)
{
	const char *kind[BPF_MA_FP_KINDS] = { "slab", "percpu" };
	struct stats st;
	int k;

	printf("Footprint:");
	for (k = 0; k < BPF_MA_FP_KINDS; k++) {
		metric_stats(&bpf_ma_metrics[4 + k], res, res_cnt, &st);
		printf("%s %s %.2f MiB (peak %.2f, after the run %.2f)", k ? "," : "", kind[k],
		       st.mean, st.max, ctx.fp_rest[k] / 1048576.0);
	}
	printf(": the allocator's own kmalloc() and per-CPU bytes held, counted exactly\n");
	if (ctx.fp_untracked)
		fprintf(stderr, "warning: bpf_ma --footprint lost track of %llu allocations (its map of %d addresses was full): the footprint is a lower bound\n",
			(unsigned long long)ctx.fp_untracked, BPF_MA_FP_ENTRIES);
}

static int bpf_ma_report_final(struct bench_res res[], int res_cnt)
{
	struct stats al, fr, mem, slab, percpu;
	int err;

	/* once, before the first Summary (with --repeat, one per repeat follows) */
	if (!ctx.counted) {
		err = count_whole_run();
		if (err)
			return err;
	}
	metric_stats(&bpf_ma_metrics[0], res, res_cnt, &al);
	metric_stats(&bpf_ma_metrics[1], res, res_cnt, &fr);
	metric_stats(total_mem_metric(), res, res_cnt, &mem);
	metric_stats(&bpf_ma_metrics[2], res, res_cnt, &slab);
	metric_stats(&bpf_ma_metrics[3], res, res_cnt, &percpu);
	printf("Summary: per-prod alloc %7.2lf \u00B1 %3.2lfM/s free %7.2lf \u00B1 %3.2lfM/s, ",
	       al.mean, al.stddev, fr.mean, fr.stddev);
	printf("total memory usage %7.2lf \u00B1 %3.2lfMiB\n", mem.mean, mem.stddev);
	/* where it is: both kinds, system-wide (the runner's Memory: line is the cgroup's) */
	printf("Allocator: slab %+.2lf MiB, percpu %+.2lf MiB (system-wide, since set-up), %llu objects allocated, %llu freed\n",
	       slab.mean, percpu.mean, (unsigned long long)ctx.allocated,
	       (unsigned long long)ctx.freed);
	/* a failing allocator is fast: say so, as htab-mem does for its map operations */
	if (ctx.alloc_fails)
		printf("Failures: %llu alloc batches cut short by %s() returning NULL (the rates count the objects allocated)\n",
		       (unsigned long long)ctx.alloc_fails, kfuncs[args.percpu][0].name);
	if (args.footprint)
		report_footprint(res, res_cnt);
	return check_floor(mem.mean);
}

static void bpf_ma_describe_opts(struct bench_opts_out *out)
{
	bench_opt_bool(out, "percpu", args.percpu);
	bench_opt_int(out, "obj_size", args.obj_size);
	bench_opt_int(out, "batch_size", args.batch_size);
	/* its tracepoints slow the allocator down: runs with and without do not compare */
	bench_opt_bool(out, "footprint", args.footprint);
	/* where "total memory usage" comes from: runs with another source do not compare */
	bench_opt_str(out, "memory_source",
		      args.percpu ? "/proc/meminfo Percpu" : "/proc/meminfo SUnreclaim");
}

/* the cross-check's figures, for JSON */
static void bpf_ma_describe_counts(struct bench_opts_out *out)
{
	bench_opt_int(out, "allocated", ctx.allocated);
	bench_opt_int(out, "freed", ctx.freed);
	bench_opt_int(out, "stale", ctx.stale);
	bench_opt_int(out, "alloc_failed_batches", ctx.alloc_fails);
	bench_opt_int(out, "memory_floor_bytes", ctx.floor_bytes);
	bench_opt_int(out, "memory_below_floor", ctx.below_floor);	/* counts are integers: 0 or 1 */
	if (!args.footprint)
		return;
	bench_opt_int(out, "footprint_rest_slab_bytes", ctx.fp_rest[BPF_MA_FP_SLAB]);
	bench_opt_int(out, "footprint_rest_percpu_bytes", ctx.fp_rest[BPF_MA_FP_PERCPU]);
	bench_opt_int(out, "footprint_untracked", ctx.fp_untracked);
	bench_opt_int(out, "footprint_frees_slab", ctx.fp_freed[BPF_MA_FP_SLAB]);
	bench_opt_int(out, "footprint_frees_percpu", ctx.fp_freed[BPF_MA_FP_PERCPU]);
}

const struct bench bench_bpf_ma = {
	.name = "bpf_ma",
	.desc = "BPF memory allocator: bpf_obj_new()/bpf_obj_drop() batches, alloc and free rates and memory",
	.argp = &bench_bpf_ma_argp,
	.needs = BENCH_NEEDS_BPF | BENCH_NEEDS_MEMCG,
	.ext.validate = bpf_ma_validate,
	.ext.setup = bpf_ma_setup,
	.producer_thread = bpf_ma_producer,
	.ext.measure = bpf_ma_measure,
	.report_progress = bpf_ma_report_progress,
	.ext.report_final = bpf_ma_report_final,
	.teardown = bpf_ma_teardown,
	.metrics = bpf_ma_metrics,
	.describe_opts = bpf_ma_describe_opts,
	.describe_counts = bpf_ma_describe_counts,
	/* per-producer rates: objects allocated per second of wall time */
	.prod_rate_unit = "M/s",
	.prod_rate_scale = 1e6,
	.counted_by = BENCH_COUNTED_BY_BPF,
	.latency = true,
};
