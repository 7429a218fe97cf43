// SPDX-License-Identifier: GPL-2.0
/*
 * upstream-api-*: benchmarks of our own written only against upstream's
 * benchmark API (bench.h, bpf_util.h, cgroup_helpers.h, testing_helpers.h,
 * the kernel's tools/include headers) and in upstream's style: hooks that
 * return nothing and exit(1) on failure, upstream's reporters, no member
 * of struct bench but upstream's.  They prove the API stays whole
 * (tests/upstream_api.t runs each); their figures mean little.
 *
 *   upstream-api-hits           hits and drops     hits_drops_report_*()
 *   upstream-api-false-hits     false hits         false_hits_report_*()
 *   upstream-api-local-storage  important hits     local_storage_report_*()
 *   upstream-api-ops            timed bpf_obj_new() batches: ops_report_*()
 *                               and grace_period_*_basic_stats()
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <asm/barrier.h>
#include <linux/time64.h>
#include <sys/times.h>
#include <bpf/btf.h>
#include "bench.h"
#include "bpf_util.h"
#include "cgroup_helpers.h"
#include "testing_helpers.h"
#include "upstream_api.skel.h"

#define CGROUP_PATH "/upstream_api"

static struct {
	__u32 batch;
	bool cgroup;
	const char *fail_at;
	bool *cpus;
	int cpus_len;
	int done_after;
} args = {
	.batch = 16,
};

enum {
	ARG_BATCH = 11000,
	ARG_CGROUP,
	ARG_FAIL_AT,
	ARG_CPUS,
	ARG_DONE_AFTER,
};

static const struct argp_option opts[] = {
	{ "batch", ARG_BATCH, "N", 0, "Counts (or objects) per trigger, 1..1024 (default 16)" },
	{ "cgroup", ARG_CGROUP, NULL, 0,
	  "Run in a cgroup of its own (cgroup_setup_and_join()) and count only its triggers" },
	{ "fail-at", ARG_FAIL_AT, "STAGE", 0,
	  "exit(1) in STAGE: validate, setup (attached, in the cgroup) or measure" },
	{ "cpus", ARG_CPUS, "LIST", 0, "Sum only these CPUs' counts, e.g. 0-1 (parse_num_list())" },
	{ "done-after", ARG_DONE_AFTER, "N", 0, "End the run after N samples (bench_force_done())" },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	long v;

	switch (key) {
	case ARG_BATCH:
		v = strtol(arg, NULL, 10);
		if (v < 1 || v > 1024) {
			fprintf(stderr, "invalid batch: %s\n", arg);
			argp_usage(state);
		}
		args.batch = v;
		break;
	case ARG_CGROUP:
		args.cgroup = true;
		break;
	case ARG_FAIL_AT:
		args.fail_at = arg;
		break;
	case ARG_CPUS:
		if (parse_num_list(arg, &args.cpus, &args.cpus_len)) {
			fprintf(stderr, "invalid CPU list: %s\n", arg);
			argp_usage(state);
		}
		break;
	case ARG_DONE_AFTER:
		args.done_after = strtol(arg, NULL, 10);
		if (args.done_after < 1) {
			fprintf(stderr, "invalid sample count: %s\n", arg);
			argp_usage(state);
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bench_upstream_api_argp = {
	.options = opts,
	.parser = parse_arg,
};

static struct ctx {
	struct upstream_api *skel;
	int cg_fd;
	__u64 last[4];		/* hits, drops, false hits, important hits */
	clock_t last_stime;
	int samples;
} ctx = {
	.cg_fd = -1,
};

static void fail_if_at(const char *stage)
{
	if (args.fail_at && !strcmp(args.fail_at, stage)) {
		fprintf(stderr, "upstream-api: exiting in %s (--fail-at)\n", stage);
		exit(1);
	}
}

/*
 * The programs walk their batches with bpf_for() and time bpf_obj_new():
 * a kernel without either refuses the whole object at load with the
 * verifier's log.  Its BTF says first, in one line (Debian's 6.1 has
 * neither).
 */
static void require_kfunc(const char *kfunc, const char *what, const char *since)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf) {
		fprintf(stderr, "failed to read the kernel's BTF: %s\n", strerror(errno));
		exit(1);
	}
	id = btf__find_by_name_kind(btf, kfunc, BTF_KIND_FUNC);
	btf__free(btf);
	if (id > 0)
		return;
	fprintf(stderr, "%s: this kernel has no %s: the kfunc %s is not in its BTF (Linux %s and later have it)\n",
		env.bench_name, what, kfunc, since);
	exit(1);
}

static void validate(void)
{
	if (env.consumer_cnt != 0) {
		fprintf(stderr, "benchmark doesn't support consumers\n");
		exit(1);
	}
	if (args.fail_at && strcmp(args.fail_at, "validate") && strcmp(args.fail_at, "setup") &&
	    strcmp(args.fail_at, "measure")) {
		fprintf(stderr, "invalid --fail-at %s: validate, setup or measure\n", args.fail_at);
		exit(1);
	}
	if (env.stacktrace)
		fprintf(stderr, "upstream-api: -s has nothing to trace here\n");
	fail_if_at("validate");
	require_kfunc("bpf_iter_num_new", "open-coded iterators (bpf_for())", "6.4");
	require_kfunc("bpf_obj_new_impl", "bpf_obj_new()", "6.2");
}

/* the process's system time so far, in clock ticks */
static clock_t process_stime(void)
{
	struct tms t;

	times(&t);
	return t.tms_stime;
}

static void setup_common(void)
{
	setup_libbpf();
	if (args.cgroup) {
		ctx.cg_fd = cgroup_setup_and_join(CGROUP_PATH);
		if (ctx.cg_fd < 0)
			exit(1);
	}
	ctx.skel = upstream_api__open();
	if (!ctx.skel) {
		fprintf(stderr, "failed to open skeleton\n");
		exit(1);
	}
	ctx.skel->rodata->magic = getpid();
	ctx.skel->rodata->batch = args.batch;
	if (args.cgroup)
		ctx.skel->rodata->cgroup_id = get_cgroup_id(CGROUP_PATH);
	if (upstream_api__load(ctx.skel)) {
		fprintf(stderr, "failed to load skeleton\n");
		exit(1);
	}
	ctx.last_stime = process_stime();
}

static void count_setup(void)
{
	setup_common();
	if (IS_ERR_OR_NULL(bpf_program__attach(ctx.skel->progs.count_getpgid))) {
		fprintf(stderr, "failed to attach program\n");
		exit(1);
	}
	fail_if_at("setup");
}

static void ops_setup(void)
{
	setup_common();
	fail_if_at("setup");
}

static void *count_producer(void *input)
{
	long magic = getpid();

	while (true)
		syscall(__NR_getpgid, magic);
	return NULL;
}

static void *ops_producer(void *input)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int fd = bpf_program__fd(ctx.skel->progs.alloc_batch);

	while (true) {
		if (bpf_prog_test_run_opts(fd, &opts)) {
			fprintf(stderr, "failed to run the allocation batch: %d\n", -errno);
			exit(1);
		}
	}
	return NULL;
}

static bool cpu_counted(int cpu)
{
	return !args.cpus || (cpu < args.cpus_len && args.cpus[cpu]);
}

/* the counts since the last sample, and the end of the run if asked */
static void count_measure(struct bench_res *res)
{
	unsigned int i, nr_cpus = bpf_num_possible_cpus();
	__u64 now[4] = {};

	fail_if_at("measure");
	/* every trigger's counts before its bump are seen */
	(void)smp_load_acquire(&ctx.skel->bss->gen);
	for (i = 0; i < nr_cpus && i < 256; i++) {
		if (!cpu_counted(i))
			continue;
		now[0] += ctx.skel->bss->cpu_stats[i].hits;
		now[1] += ctx.skel->bss->cpu_stats[i].drops;
		now[2] += ctx.skel->bss->cpu_stats[i].false_hits;
		now[3] += ctx.skel->bss->cpu_stats[i].important_hits;
	}
	res->hits = now[0] - ctx.last[0];
	res->drops = now[1] - ctx.last[1];
	res->false_hits = now[2] - ctx.last[2];
	res->important_hits = now[3] - ctx.last[3];
	memcpy(ctx.last, now, sizeof(now));
	if (args.done_after && ++ctx.samples >= args.done_after + env.warmup_sec)
		bench_force_done();
}

static void ops_measure(struct bench_res *res)
{
	clock_t stime = process_stime();

	fail_if_at("measure");
	res->hits = atomic_swap(&ctx.skel->bss->objs, 0);
	res->duration_ns = atomic_swap(&ctx.skel->bss->duration_ns, 0);
	/* a batch is one "grace period" to grace_period_*_basic_stats() */
	res->gp_ns = res->duration_ns;
	res->gp_ct = atomic_swap(&ctx.skel->bss->batches, 0);
	res->stime = stime - ctx.last_stime;
	ctx.last_stime = stime;
	if (args.done_after && ++ctx.samples >= args.done_after + env.warmup_sec)
		bench_force_done();
}

/* the cgroup's memory, as upstream's htab-mem reads it (nothing on cgroup v1) */
static void report_cgroup(void)
{
	char buf[32] = "";
	ssize_t got;
	int fd;

	if (ctx.cg_fd < 0)
		return;
	fd = openat(ctx.cg_fd, "memory.current", O_RDONLY);
	got = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (got > 0)
		printf("cgroup %s: memory.current %.2lfMiB\n", CGROUP_PATH,
		       strtoull(buf, NULL, 10) / 1048576.0);
	else
		printf("cgroup %s: no memory.current (the memory controller is not on cgroup v2)\n",
		       CGROUP_PATH);
	if (fd >= 0)
		close(fd);
	close(ctx.cg_fd);
	cleanup_cgroup_environment();
}

static void hits_final(struct bench_res res[], int res_cnt)
{
	hits_drops_report_final(res, res_cnt);
	report_cgroup();
}

static void false_hits_final(struct bench_res res[], int res_cnt)
{
	false_hits_report_final(res, res_cnt);
	report_cgroup();
}

static void local_storage_final(struct bench_res res[], int res_cnt)
{
	local_storage_report_final(res, res_cnt);
	report_cgroup();
}

static void ops_final(struct bench_res res[], int res_cnt)
{
	struct basic_stats lat, ticks;
	int i;

	ops_report_final(res, res_cnt);
	for (i = 0; i < res_cnt; i++)
		if (!res[i].gp_ct) {
			printf("batches: none in sample %d\n", i);
			return;
		}
	grace_period_latency_basic_stats(res, res_cnt, &lat);
	grace_period_ticks_basic_stats(res, res_cnt, &ticks);
	printf("batches: %.3lf \u00B1 %.3lf us each, %.5lf \u00B1 %.5lf system ticks each (%ld ns/s)\n",
	       lat.mean, lat.stddev, ticks.mean, ticks.stddev, NSEC_PER_SEC);
	report_cgroup();
}

const struct bench bench_upstream_api_hits = {
	.name = "upstream-api-hits",
	.argp = &bench_upstream_api_argp,
	.validate = validate,
	.setup = count_setup,
	.producer_thread = count_producer,
	.measure = count_measure,
	.report_progress = hits_drops_report_progress,
	.report_final = hits_final,
};

const struct bench bench_upstream_api_false_hits = {
	.name = "upstream-api-false-hits",
	.argp = &bench_upstream_api_argp,
	.validate = validate,
	.setup = count_setup,
	.producer_thread = count_producer,
	.measure = count_measure,
	.report_progress = false_hits_report_progress,
	.report_final = false_hits_final,
};

const struct bench bench_upstream_api_local_storage = {
	.name = "upstream-api-local-storage",
	.argp = &bench_upstream_api_argp,
	.validate = validate,
	.setup = count_setup,
	.producer_thread = count_producer,
	.measure = count_measure,
	.report_progress = local_storage_report_progress,
	.report_final = local_storage_final,
};

const struct bench bench_upstream_api_ops = {
	.name = "upstream-api-ops",
	.argp = &bench_upstream_api_argp,
	.validate = validate,
	.setup = ops_setup,
	.producer_thread = ops_producer,
	.measure = ops_measure,
	.report_progress = ops_report_progress,
	.report_final = ops_final,
};
