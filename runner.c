// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: N producer and M consumer threads run a benchmark's loops;
 * once per second the main thread samples the benchmark's counters.
 * Warm-up samples are dropped and the rest summarised.
 *
 * One error path: every step returns 0 or a negative errno, the runner
 * owns the clean-up and runs it exactly once, whatever ended the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "kernel_env.h"
#include "per_producer.h"
#include "results.h"
#include "run_context.h"
#include "run_mem.h"
#include "runner.h"

static struct bench_run run = {
	.peak_mem_bytes = -1,
};

static struct runner_state {
	long *prod_hits_store;
	pthread_t *consumers;
	pthread_t *producers;
	struct cpu_list allowed;
	int next_cpu;
	pthread_t sampler;
	const struct bench_metric *metrics[64];
} state;

/* ---- a producer's failure, reported to the sampler ---- */

static struct {
	int claimed;
	int err;		/* published last: 0 until the message is complete */
	char msg[512];
} prod_fail;

void bench_producer_fail(int err, const char *fmt, ...)
{
	int expected = 0;
	va_list ap;

	/* the first failure is the one worth reading */
	if (!__atomic_compare_exchange_n(&prod_fail.claimed, &expected, 1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	va_start(ap, fmt);
	vsnprintf(prod_fail.msg, sizeof(prod_fail.msg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&prod_fail.err, err < 0 ? err : -EIO, __ATOMIC_RELEASE);
	/* wake the sampler now rather than at its next tick */
	pthread_kill(state.sampler, SIGUSR1);
}

static int producer_failure(void)
{
	int err = __atomic_load_n(&prod_fail.err, __ATOMIC_ACQUIRE);

	if (err)
		fprintf(stderr, "%s\n", prod_fail.msg);
	return err;
}

int bench_add_extra_metric(const char *name, const char *unit, bool higher_is_better,
			   const double *values, int n)
{
	return run_add_extra_metric(&run, name, unit, higher_is_better, values, n);
}

/* ---- threads and affinity ---- */

/*
 * Threads are created already pinned (the affinity is in their attributes),
 * so not even a thread's first operation runs on another CPU.
 */
static int create_thread(pthread_t *thread, void *(*fn)(void *), long idx, int cpu)
{
	pthread_attr_t attr;
	cpu_set_t cpuset;
	int err;

	err = pthread_attr_init(&attr);
	if (err)
		return -err;
	if (cpu >= 0) {
		CPU_ZERO(&cpuset);
		CPU_SET(cpu, &cpuset);
		err = pthread_attr_setaffinity_np(&attr, sizeof(cpuset), &cpuset);
	}
	if (!err)
		err = pthread_create(thread, &attr, fn, (void *)idx);
	pthread_attr_destroy(&attr);
	return -err;
}

/* round-robin over an explicit set, or over the CPUs we may use */
static int pick_cpu(const struct cpu_list *set, int idx)
{
	if (set->cnt)
		return set->cpus[idx % set->cnt];
	return state.allowed.cpus[state.next_cpu++ % state.allowed.cnt];
}

static int validate_affinity(void)
{
	int bad, err;

	err = allowed_cpu_list(&state.allowed);
	if (err) {
		fprintf(stderr, "failed to get CPU affinity: %s\n", strerror(-err));
		return err;
	}
	bad = cpu_list_first_not_in(&env.prod_cpus, &state.allowed);
	if (bad < 0)
		bad = cpu_list_first_not_in(&env.cons_cpus, &state.allowed);
	if (bad >= 0) {
		fprintf(stderr, "invalid CPU set: CPU %d is not available to this process (allowed: ",
			bad);
		for (err = 0; err < state.allowed.cnt; err++)
			fprintf(stderr, "%s%d", err ? "," : "", state.allowed.cpus[err]);
		fprintf(stderr, ")\n");
		return -EINVAL;
	}
	return 0;
}

static int start_threads(const struct bench *bench)
{
	int i, err, cpu;

	for (i = 0; i < env.consumer_cnt; i++) {
		cpu = env.affinity ? pick_cpu(&env.cons_cpus, i) : -1;
		err = create_thread(&state.consumers[i], bench->consumer_thread, i, cpu);
		if (err) {
			fprintf(stderr, "failed to create consumer thread #%d: %s\n", i,
				strerror(-err));
			return err;
		}
		env.cons_cpu[i] = cpu;
	}
	for (i = 0; i < env.producer_cnt; i++) {
		cpu = env.affinity ? pick_cpu(&env.prod_cpus, i) : -1;
		err = create_thread(&state.producers[i], bench->producer_thread, i, cpu);
		if (err) {
			fprintf(stderr, "failed to create producer thread #%d: %s\n", i,
				strerror(-err));
			return err;
		}
		env.prod_cpu[i] = cpu;
	}
	return 0;
}

static int alloc_state(void)
{
	int i, n = (env.warmup_sec + env.duration_sec) * env.repeat_cnt;

	state.producers = calloc(env.producer_cnt, sizeof(*state.producers));
	state.consumers = calloc(env.consumer_cnt ? env.consumer_cnt : 1,
				 sizeof(*state.consumers));
	run.res = calloc(n, sizeof(*run.res));
	/* one more sample's worth: the discarded one that starts a repeat */
	state.prod_hits_store = calloc((size_t)(n + 1) * env.producer_cnt, sizeof(long));
	env.prod_cpu = malloc(env.producer_cnt * sizeof(int));
	env.cons_cpu = malloc((env.consumer_cnt ? env.consumer_cnt : 1) * sizeof(int));
	if (!state.producers || !state.consumers || !run.res ||
	    !state.prod_hits_store || !env.prod_cpu || !env.cons_cpu) {
		fprintf(stderr, "failed to allocate runner state: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		run.res[i].prod_hits = state.prod_hits_store + (size_t)i * env.producer_cnt;
		run.res[i].mem_bytes = -1;
	}
	for (i = 0; i < env.producer_cnt; i++)
		env.prod_cpu[i] = -1;
	for (i = 0; i < env.consumer_cnt; i++)
		env.cons_cpu[i] = -1;
	return 0;
}

static void free_state(void)
{
	free(state.producers);
	free(state.consumers);
	free(run.res);
	free(state.prod_hits_store);
	free(env.prod_cpu);
	free(env.cons_cpu);
	cpu_list_free(&state.allowed);
	run_notes_free(&run);
}

/* the benchmark's metrics, then the runner's */
static int collect_metrics(const struct bench *bench)
{
	const struct bench_metric *m;
	int n = 0;

	for (m = bench->metrics; m && m->name; m++) {
		if (n == (int)ARRAY_SIZE(state.metrics) - 2)
			return -E2BIG;
		state.metrics[n++] = m;
	}
	if (bench->needs & BENCH_NEEDS_MEMCG)
		state.metrics[n++] = &bench_memory_metric;
	state.metrics[n] = NULL;
	run.metrics = state.metrics;
	return 0;
}

/* ---- prerequisites ---- */

static int prepare_needs(const struct bench *bench)
{
	int err;

	if (bench->needs & BENCH_NEEDS_BPF) {
		err = check_bpf_privileges();
		if (err)
			return err;
	}
	if (bench->needs & BENCH_NEEDS_TRACEFS) {
		err = ensure_tracefs();
		if (err)
			return err;
	}
	/* last: the process moves into the cgroup, and everything after is charged there */
	if (bench->needs & BENCH_NEEDS_MEMCG)
		run_mem_setup(&run, bench->name);
	return 0;
}

static void release_needs(void)
{
	run_mem_destroy();
	release_tracefs();
}

/* ---- sampling ---- */

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * SIGALRM, SIGUSR1 (a producer failed) and the signals that end a run are
 * blocked in every thread and taken here with sigwait(), so sampling and
 * clean-up run as ordinary code rather than in a signal handler.
 */
static struct bench_res *sample_slot(int repeat, int k)
{
	if (k < env.warmup_sec)
		return &run.res[repeat * env.warmup_sec + k];
	return &run.res[run.warmup_cnt + repeat * env.duration_sec + k - env.warmup_sec];
}

static int run_sampling(const struct bench *bench, const sigset_t *sigs, int *stop_sig,
			int repeat)
{
	struct itimerval timer = {
		.it_interval = { .tv_sec = 1 },
		.it_value = { .tv_sec = 1 },
	};
	int total = env.warmup_sec + env.duration_sec, sig, iter, err = 0;
	struct bench_res scratch = {
		.prod_hits = state.prod_hits_store + (size_t)total * env.repeat_cnt *
			     env.producer_cnt,
		.mem_bytes = -1,
	};
	struct bench_res *res;
	long last, now;

	/* a later repeat starts from a new baseline, discarding what came before */
	if (repeat) {
		err = bench->measure(&scratch);
		if (err)
			return err;
	}
	last = now_ns();
	if (setitimer(ITIMER_REAL, &timer, NULL)) {
		err = -errno;
		fprintf(stderr, "failed to start the sampling timer: %s\n", strerror(-err));
		return err;
	}
	for (iter = 0; iter < total;) {
		if (sigwait(sigs, &sig))
			continue;
		if (sig == SIGUSR1) {
			err = producer_failure();
			if (err)
				break;
			continue;
		}
		if (sig != SIGALRM) {
			*stop_sig = sig;
			break;
		}
		now = now_ns();
		res = sample_slot(repeat, iter);
		err = bench->measure(res);
		if (err)
			break;
		res->delta_ns = now - last;
		last = now;
		if (bench->needs & BENCH_NEEDS_MEMCG)
			run_mem_sample(res);
		if (!env.quiet && bench->report_progress)
			bench->report_progress(repeat * total + iter, res, res->delta_ns);
		iter++;
	}
	timer = (struct itimerval){};
	setitimer(ITIMER_REAL, &timer, NULL);
	return err;
}

/*
 * Between repeats: fresh state where the benchmark can rebuild it under
 * running producers, and in every case a new baseline, so that no
 * operation of one repeat (or of the switch) is credited to the next.
 */
static int start_repeat(const struct bench *bench, int repeat)
{
	struct timespec zero = {};
	sigset_t alrm;
	int err;

	/* a tick that fired as the timer was stopped belongs to no repeat */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	while (sigtimedwait(&alrm, NULL, &zero) == SIGALRM)
		;
	if (!env.quiet)
		printf("Repeat %d/%d%s\n", repeat + 1, env.repeat_cnt,
		       bench->caps & BENCH_CAP_REPEAT_FRESH ? ": fresh state" : "");
	if (bench->caps & BENCH_CAP_REPEAT_FRESH) {
		if (bench->teardown)
			bench->teardown();
		if (bench->setup) {
			err = bench->setup();
			if (err)
				return err;
		}
	}
	return 0;
}

static void print_two_level(const struct bench_metric *m)
{
	int counts[1000], r;
	struct two_level tl;
	double *vals;
	int n = run_measured_cnt(&run), i;

	vals = malloc((n ? n : 1) * sizeof(*vals));
	if (!vals)
		return;
	for (i = 0; i < n; i++)
		vals[i] = m->value(&run_measured(&run)[i]);
	for (r = 0; r < run.repeat_cnt; r++)
		counts[r] = run.repeat_len;
	stats_two_level(vals, counts, run.repeat_cnt, &tl, NULL);
	free(vals);
	if (!tl.repeats) {
		printf("Repeats: %s n/a (no value)\n", m->name);
		return;
	}
	printf("Repeats: %s %.2lf \u00B1 %.2lf %s between %d repeats (CV %.2lf%%), within repeats \u00B1 %.2lf %s (CV %.2lf%%)\n",
	       m->name, tl.mean, tl.between_sd, m->unit, tl.repeats, tl.between_cv * 100.0,
	       tl.within_sd, m->unit, tl.within_cv * 100.0);
}

/* after the samples: what is printed and written about them */
static int report(const struct bench *bench)
{
	int err;

	/* the peak must be read while the run's cgroup still exists */
	if (bench->needs & BENCH_NEEDS_MEMCG)
		run_mem_read_peak(&run);
	if (run.repeat_cnt == 1) {
		err = bench->report_final(run_measured(&run), run_measured_cnt(&run));
		if (err)
			return err;
	} else {
		const struct bench_metric *const *m;
		int r;

		/*
		 * Each repeat's own Summary, prefixed so that no reader takes
		 * one repeat's line for the run's; then the two levels.
		 */
		for (r = 0; r < run.repeat_cnt; r++) {
			printf("Repeat %d/%d: ", r + 1, run.repeat_cnt);
			fflush(stdout);
			err = bench->report_final(run_measured(&run) + r * run.repeat_len,
						  run.repeat_len);
			if (err)
				return err;
		}
		for (m = run.metrics; *m; m++)
			print_two_level(*m);
	}
	run_check_noise(&run);
	if (env.per_producer)
		per_producer_report(&run);
	if (env.json_path)
		return results_write_json(env.json_path, &run);
	return 0;
}

static int exit_status(int err, int sig)
{
	if (sig)
		return 128 + sig;
	return err ? 1 : 0;
}

int runner_run(const struct bench *bench)
{
	struct timespec zero = {};
	bool setup_called = false;
	int err, sig = 0, r;
	sigset_t sigs;

	run.bench = bench;
	run.env = &env;
	run.repeat_cnt = env.repeat_cnt;
	run.repeat_warmup = env.warmup_sec;
	run.repeat_len = env.duration_sec;
	run.warmup_cnt = env.warmup_sec * env.repeat_cnt;

	if (env.consumer_cnt && !bench->consumer_thread) {
		fprintf(stderr, "benchmark '%s' has no consumers; -c/--consumers must be 0 (got %d)\n",
			bench->name, env.consumer_cnt);
		err = -EINVAL;
		goto out_free;
	}
	err = validate_affinity();
	if (!err && env.json_path)
		err = results_precheck(env.json_path);
	if (!err)
		err = alloc_state();
	if (!err)
		err = collect_metrics(bench);
	if (err)
		goto out_free;

	/* block before any thread exists, so every thread inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGALRM);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	state.sampler = pthread_self();

	setup_libbpf(env.verbose);
	if (bench->validate) {
		err = bench->validate();
		if (err)
			goto out_free;
	}
	err = prepare_needs(bench);
	if (err)
		goto out_release;

	if (!env.quiet)
		printf("Setting up benchmark '%s'...\n", bench->name);
	setup_called = true;
	if (bench->setup) {
		err = bench->setup();
		if (err)
			goto out_teardown;
	}

	/* a Ctrl-C during set-up is pending now: honour it before starting */
	sig = sigtimedwait(&sigs, NULL, &zero);
	if (sig == SIGINT || sig == SIGTERM)
		goto out_signal;
	sig = 0;

	err = start_threads(bench);
	if (err)
		goto out_teardown;
	if (!env.quiet)
		printf("Benchmark '%s' started.\n", bench->name);

	for (r = 0; r < env.repeat_cnt; r++) {
		if (r) {
			err = start_repeat(bench, r);
			if (err)
				goto out_teardown;
		}
		err = run_sampling(bench, &sigs, &sig, r);
		if (err)
			goto out_teardown;
		if (sig)
			goto out_signal;
	}
	run.res_cnt = (env.warmup_sec + env.duration_sec) * env.repeat_cnt;
	err = report(bench);
	goto out_teardown;

out_signal:
	fprintf(stderr, "interrupted by %s: cleaning up\n", strsignal(sig));
out_teardown:
	if (setup_called && bench->teardown)
		bench->teardown();
out_release:
	release_needs();
out_free:
	free_state();
	/* producers may still be spinning: exit() from main ends them */
	return exit_status(err, sig);
}
