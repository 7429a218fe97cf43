// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-tasks-trace: what BPF task local storage's use of RCU
 * Tasks Trace costs when there are many tasks.
 *
 * --nr_procs processes are forked that only sleep 0-3 s and call
 * getpgid(), in a loop, while the producer calls getpgid() without a
 * pause.  Each getpgid() creates and deletes a task storage, so storages
 * keep going to call_rcu_tasks_trace(), and every grace period of RCU
 * Tasks Trace must go over all those tasks.  Measured: the grace periods'
 * latency (rcu_tasks_trace_pregp_step() to rcu_tasks_trace_postgp(), on
 * fentry) and, with --kthread_pid, the kernel ticks of the
 * rcu_tasks_trace kthread per grace period (/proc/PID/stat's stime).
 *
 * Where the kernel refuses fentry the churn runs on the syscall's
 * tracepoint and no grace period is timed; the run says so on stderr and
 * in JSON, and reports the churn and the kthread's ticks per second.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "benchs/lib_hook.h"
#include "kernel_env.h"
#include "producer_counters.h"
#include "local_storage_rcu_tasks_trace_bench.skel.h"

/* upstream's limit */
#define LSTT_MAX_SLEEP_PROCS	150000
/* progs/local_storage_rcu_tasks_trace_bench.c's error counter */
#define LSTT_GET_ERRS		0

static struct {
	long nr_procs;
	long kthread_pid;
	enum bench_hook hook;
} args = {
	.nr_procs = 1000,
	.hook = BENCH_HOOK_AUTO,
};

enum {
	ARG_NR_PROCS = 7000,
	ARG_KTHREAD_PID = 7001,
	ARG_LSTT_HOOK = 7003,
};

/*
 * Upstream also has --quiet {0,1} here; the runner's own --quiet (-q)
 * takes no value and does the same (no Iter lines).
 */
static const struct argp_option opts[] = {
	{ "nr_procs", ARG_NR_PROCS, "NR_PROCS", 0,
	  "Set number of user processes to spin up, 1..150000 (default 1000)" },
	{ "kthread_pid", ARG_KTHREAD_PID, "PID", 0,
	  "Pid of rcu_tasks_trace kthread for ticks tracking" },
	{ "hook", ARG_LSTT_HOOK, "HOOK", 0, BENCH_HOOK_HELP },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_NR_PROCS:
		/* upstream's validate() exits 1 above its limit; a usage error here (64) */
		if (parse_long(arg, 1, LSTT_MAX_SLEEP_PROCS, &args.nr_procs))
			return bench_args_bad_value("--nr_procs", arg, "an integer in 1..%d",
						    LSTT_MAX_SLEEP_PROCS);
		break;
	case ARG_KTHREAD_PID:
		if (parse_long(arg, 1, INT_MAX, &args.kthread_pid))
			return bench_args_bad_value("--kthread_pid", arg,
						    "a process id (pgrep rcu_tasks_trace)");
		break;
	case ARG_LSTT_HOOK:
		return bench_hook_parse(arg, &args.hook);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bench_local_storage_rcu_tasks_trace_argp = {
	.options = opts,
	.parser = parse_arg,
};

/* res->aux[]: the kthread's ticks, -1 where unreadable (upstream's unsigned stime cannot say so) */
enum { AUX_STIME };

static struct {
	struct local_storage_rcu_tasks_trace_bench *skel;
	struct bench_producers prod;
	enum bench_hook ran;
	/* the grace-period hooks loaded; else why not */
	bool gp;
	char gp_why[400];
	pid_t *pids;
	long nr_forked;
	long prev_stime;
	__u64 prev_errs[BENCH_PROD_NR_ERRS];
} ctx;

/* the kthread's system time in ticks (/proc/PID/stat's 15th field), or a negative errno */
static long kthread_stime(void)
{
	char path[64], buf[1024], *p;
	long stime;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", args.kthread_pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n ? -errno : -EIO;
	buf[n] = '\0';
	/* the name, field 2, may hold blanks: count from its closing parenthesis */
	p = strrchr(buf, ')');
	for (i = 2; p && i < 15; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %ld", &stime) != 1)
		return -EIO;
	return stime;
}

static int lstt_validate(void)
{
	long stime;

	if (env.producer_cnt != 1) {
		fprintf(stderr, "invalid producer count %d: %s runs one producer (-p1), as upstream's\n",
			env.producer_cnt, env.bench_name);
		return -EINVAL;
	}
	if (!args.kthread_pid)
		return 0;
	stime = kthread_stime();
	if (stime < 0) {
		fprintf(stderr, "invalid --kthread_pid %ld: cannot read /proc/%ld/stat: %s\n",
			args.kthread_pid, args.kthread_pid, strerror(-stime));
		return -EINVAL;
	}
	return 0;
}

/* a sleeper: never returns; dies with us (PR_SET_PDEATHSIG) or by teardown's SIGKILL */
static void __attribute__((noreturn)) sleep_and_loop(pid_t runner)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != runner)
		_exit(1);
	for (;;) {
		sleep(rand() % 4);
		syscall(__NR_getpgid, 0);
	}
}

static int spin_up_procs(void)
{
	pid_t runner = getpid(), pid;

	ctx.pids = calloc(args.nr_procs, sizeof(*ctx.pids));
	if (!ctx.pids)
		return bench_failed(-ENOMEM, "allocate %ld process ids", args.nr_procs);
	/* a child must not write what we have not flushed yet */
	fflush(stdout);
	fflush(stderr);
	for (ctx.nr_forked = 0; ctx.nr_forked < args.nr_procs; ctx.nr_forked++) {
		pid = fork();
		if (pid < 0)
			return bench_failed(-errno, "fork sleeper process %ld of %ld",
					    ctx.nr_forked + 1, args.nr_procs);
		if (!pid)
			sleep_and_loop(runner);
		ctx.pids[ctx.nr_forked] = pid;
	}
	if (!env.quiet)
		printf("Spun up %ld procs (our pid %d)\n", args.nr_procs, runner);
	return 0;
}

static void stop_procs(void)
{
	long i;

	for (i = 0; i < ctx.nr_forked; i++)
		kill(ctx.pids[i], SIGKILL);
	for (i = 0; i < ctx.nr_forked; i++)
		while (waitpid(ctx.pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	ctx.nr_forked = 0;
	free(ctx.pids);
	ctx.pids = NULL;
}

static struct bpf_program *churn_prog(enum bench_hook hook)
{
	return hook == BENCH_HOOK_FENTRY ? ctx.skel->progs.get_local_fentry :
					   ctx.skel->progs.get_local_tp;
}

/* open, load and attach the churn on one hook, with or without the grace-period hooks */
static int load_and_attach(enum bench_hook hook, bool gp, char *msg, size_t msg_sz)
{
	struct bpf_program *prog;
	int err;

	ctx.skel = local_storage_rcu_tasks_trace_bench__open();
	if (!ctx.skel) {
		err = -errno;
		snprintf(msg, msg_sz, "failed to open %s's BPF object: %s", env.bench_name,
			 strerror(-err));
		return err;
	}
	err = bench_producers_prepare(&ctx.prod, &ctx.skel->rodata->bench_ids,
				      ctx.skel->maps.bench_producers,
				      ctx.skel->maps.bench_prod_counters, env.producer_cnt);
	if (err)
		return err;
	prog = churn_prog(hook);
	err = bpf_program__set_autoload(prog, true);
	if (!err && gp)
		err = bpf_program__set_autoload(ctx.skel->progs.pregp_step, true);
	if (!err && gp)
		err = bpf_program__set_autoload(ctx.skel->progs.postgp, true);
	if (err) {
		snprintf(msg, msg_sz, "failed to select %s: %s", bench_prog_target(prog),
			 strerror(-err));
		return err;
	}
	err = local_storage_rcu_tasks_trace_bench__load(ctx.skel);
	if (err) {
		snprintf(msg, msg_sz, "failed to load %s's BPF programs on %s%s: %s",
			 env.bench_name, bench_prog_target(prog),
			 gp ? ", fentry/rcu_tasks_trace_pregp_step and fentry/rcu_tasks_trace_postgp" : "",
			 strerror(-err));
		return err;
	}
	err = bench_producers_open(&ctx.prod, ctx.skel->maps.bench_producers,
				   ctx.skel->maps.bench_prod_counters);
	if (err)
		return err;
	/* the grace periods first: the churn then starts them */
	err = local_storage_rcu_tasks_trace_bench__attach(ctx.skel);
	if (err) {
		snprintf(msg, msg_sz, "failed to attach %s's BPF programs: %s", env.bench_name,
			 strerror(-err));
		return err;
	}
	ctx.ran = hook;
	ctx.gp = gp;
	return 0;
}

static void unload(void)
{
	bench_producers_close(&ctx.prod);
	local_storage_rcu_tasks_trace_bench__destroy(ctx.skel);
	ctx.skel = NULL;
}

/*
 * For each churn hook in turn (fentry, then the tracepoint, as --hook
 * allows): with the grace-period hooks, then without.  The first that
 * loads wins; libbpf's account of a refused load is ours to summarise.
 * On failure msg says why the last attempt failed; fentry_why says why
 * the churn could not run on fentry.
 */
static int load_best(char *msg, char *fentry_why, size_t sz)
{
	static const enum bench_hook order[] = { BENCH_HOOK_FENTRY, BENCH_HOOK_TP };
	int i, gp, err = -ENOENT;

	for (i = 0; i < 2; i++) {
		if (args.hook != BENCH_HOOK_AUTO && args.hook != order[i])
			continue;
		for (gp = 1; gp >= 0; gp--) {
			libbpf_mute(true);
			bench_failed_into(msg, sz);
			err = load_and_attach(order[i], gp, msg, sz);
			bench_failed_into(NULL, 0);
			libbpf_mute(false);
			if (!err)
				return 0;
			if (gp && !ctx.gp_why[0])
				snprintf(ctx.gp_why, sizeof(ctx.gp_why), "%s", msg);
			if (order[i] == BENCH_HOOK_FENTRY && !gp)
				snprintf(fentry_why, sz, "%s", msg);
			unload();
		}
	}
	return err;
}

/* the hook line (bench_hook_load()'s) and the grace periods' line, even with -q */
static void say_hooks(const char *fentry_why)
{
	const char *target = bench_prog_target(churn_prog(ctx.ran));

	if (ctx.ran == BENCH_HOOK_FENTRY)
		fprintf(stderr, "hook: %s\n", target);
	else if (args.hook == BENCH_HOOK_AUTO)
		fprintf(stderr, "hook: %s (fentry unavailable: %s)\n", target, fentry_why);
	else
		fprintf(stderr, "hook: %s (--hook tracepoint)\n", target);
	if (ctx.gp)
		fprintf(stderr, "grace periods: fentry/rcu_tasks_trace_pregp_step to fentry/rcu_tasks_trace_postgp\n");
	else
		fprintf(stderr, "grace periods: not measured (%s)\n", ctx.gp_why);
}

static int lstt_setup(void)
{
	char msg[400] = "", fentry_why[400] = "";
	int err;

	err = spin_up_procs();
	if (err)
		return err;
	err = load_best(msg, fentry_why, sizeof(msg));
	if (err) {
		fprintf(stderr, "%s\n", msg);
		return err;
	}
	say_hooks(fentry_why);
	if (args.kthread_pid) {
		ctx.prev_stime = kthread_stime();
		if (ctx.prev_stime < 0)
			return bench_failed(ctx.prev_stime, "read /proc/%ld/stat", args.kthread_pid);
	}
	return 0;
}

static void lstt_teardown(void)
{
	unload();
	stop_procs();
}

static void *lstt_producer(void *input)
{
	if (bench_producer_register(&ctx.prod, (long)input))
		return NULL;
	for (;;)
		syscall(__NR_getpgid, 0);
	return NULL;
}

static int lstt_measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS];
	long stime = -1;

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	res->fails = (long)(errs[LSTT_GET_ERRS] - ctx.prev_errs[LSTT_GET_ERRS]);
	memcpy(ctx.prev_errs, errs, sizeof(errs));
	res->gp_ct = atomic_swap((long *)&ctx.skel->bss->gp_hits, 0);
	res->gp_ns = atomic_swap((long *)&ctx.skel->bss->gp_times, 0);
	res->aux[AUX_STIME] = -1;
	if (args.kthread_pid) {
		stime = kthread_stime();
		if (stime < 0)
			return bench_failed(stime, "read /proc/%ld/stat", args.kthread_pid);
		res->aux[AUX_STIME] = stime - ctx.prev_stime;
		ctx.prev_stime = stime;
	}
	if (ctx.skel->bss->unexpected) {
		fprintf(stderr, "%s: rcu_tasks_trace_postgp ran without rcu_tasks_trace_pregp_step before it (%llu times): the grace periods cannot be trusted\n",
			env.bench_name, (unsigned long long)ctx.skel->bss->unexpected);
		return -EIO;
	}
	return 0;
}

/* churn: the producer's storage creates and deletes */
static double m_hits(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / 1e6;
}

static double m_gp_latency(const struct bench_res *r)
{
	return r->gp_ct ? r->gp_ns / 1000.0 / r->gp_ct : NAN;
}

static double m_gp_ticks(const struct bench_res *r)
{
	return r->gp_ct && r->aux[AUX_STIME] >= 0 ? r->aux[AUX_STIME] / (double)r->gp_ct : NAN;
}

static double m_gps(const struct bench_res *r)
{
	return ctx.gp ? rate_per_sec(r->gp_ct, r->delta_ns) : NAN;
}

static double m_kthread_ticks(const struct bench_res *r)
{
	return r->aux[AUX_STIME] >= 0 ? rate_per_sec(r->aux[AUX_STIME], r->delta_ns) : NAN;
}

static const struct bench_metric lstt_metrics[] = {
	{ "gp_latency", "us", false, m_gp_latency },
	{ "gp_ticks", "ticks/gp", false, m_gp_ticks },
	{ "grace_periods", "1/s", true, m_gps },
	{ "hits", "M/s", true, m_hits },
	{ "kthread_ticks", "1/s", false, m_kthread_ticks },
	{},
};

static void lstt_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	if (!ctx.gp) {
		printf("Iter %d\t local storage get+delete\t%lf M/s\n", iter, m_hits(res));
		return;
	}
	/* upstream's two lines: nan where no grace period ended, or without --kthread_pid */
	printf("Iter %d\t avg tasks_trace grace period latency\t%lf ns\n", iter,
	       m_gp_latency(res) * 1000);
	printf("Iter %d\t avg ticks per tasks_trace grace period\t%lf\n", iter, m_gp_ticks(res));
}

static int lstt_report_final(struct bench_res res[], int res_cnt)
{
	struct stats st;
	long fails = 0;
	int i;

	for (i = 0; i < res_cnt; i++)
		fails += res[i].fails;
	if (fails) {
		fprintf(stderr, "%s: %ld task storages could not be created: the results are invalid\n",
			env.bench_name, fails);
		return -EIO;
	}
	if (!ctx.gp) {
		metric_stats(&lstt_metrics[3], res, res_cnt, &st);
		printf("SUMMARY local storage get+delete\tavg %.3lf M/s\tstddev %.3lf M/s\n",
		       st.mean, st.stddev);
		if (args.kthread_pid) {
			metric_stats(&lstt_metrics[4], res, res_cnt, &st);
			printf("SUMMARY ticks of the rcu_tasks_trace kthread\tavg %.3lf/s\tstddev %.3lf/s\n",
			       st.mean, st.stddev);
		}
		return 0;
	}
	metric_stats(&lstt_metrics[0], res, res_cnt, &st);
	if (!st.n) {
		fprintf(stderr, "%s: no tasks_trace grace period ended in the %d measured samples: run longer (-d)\n",
			env.bench_name, res_cnt);
		return -ENODATA;
	}
	printf("SUMMARY tasks_trace grace period latency");
	printf("\tavg %.3lf us\tstddev %.3lf us\n", st.mean, st.stddev);
	/* upstream prints 0 ticks without --kthread_pid: a figure that is not one */
	printf("SUMMARY ticks per tasks_trace grace period");
	if (!args.kthread_pid) {
		printf("\tnot measured (no --kthread_pid)\n");
		return 0;
	}
	metric_stats(&lstt_metrics[1], res, res_cnt, &st);
	printf("\tavg %.3lf\tstddev %.3lf\n", st.mean, st.stddev);
	return 0;
}

static void lstt_describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "nr_procs", args.nr_procs);
	bench_opt_bool(out, "kthread_ticks", args.kthread_pid > 0);
	/* the hooks that ran: runs on different hooks are different configurations */
	bench_opt_str(out, "hook", bench_hook_names[ctx.ran]);
	bench_opt_bool(out, "grace_periods", ctx.gp);
}

const struct bench bench_local_storage_tasks_trace = {
	.name = "local-storage-tasks-trace",
	.desc = "RCU Tasks Trace grace periods while --nr_procs tasks churn task local storage",
	.argp = &bench_local_storage_rcu_tasks_trace_argp,
	.needs = BENCH_NEEDS_BPF_TRACING,
	.caps = BENCH_CAP_PARK_THREADS,
	.ext.validate = lstt_validate,
	.ext.setup = lstt_setup,
	.producer_thread = lstt_producer,
	.ext.measure = lstt_measure,
	.report_progress = lstt_report_progress,
	.ext.report_final = lstt_report_final,
	.teardown = lstt_teardown,
	.metrics = lstt_metrics,
	.describe_opts = lstt_describe_opts,
	.counted_by = BENCH_COUNTED_BY_BPF,
};
