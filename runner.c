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
#include "output_file.h"
#include "per_producer.h"
#include "results.h"
#include "run_context.h"
#include "run_latency.h"
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
	run_latency_free(&run);
}

/* the benchmark's metrics, then the runner's (after prepare_needs(): memory's fields) */
static int collect_metrics(const struct bench *bench)
{
	const struct bench_metric *m;
	int n = 0, err;

	for (m = bench->metrics; m && m->name; m++) {
		if (n == (int)ARRAY_SIZE(state.metrics) - 4)
			return -E2BIG;
		state.metrics[n++] = m;
	}
	if (bench->needs & BENCH_NEEDS_MEMCG) {
		state.metrics[n++] = &bench_memory_metric;
		/* where it goes: the fields this kernel's cgroup offers */
		err = run_mem_metrics(&run, state.metrics + n, ARRAY_SIZE(state.metrics) - 3 - n);
		if (err < 0)
			return err;
		n += err;
	}
	if (env.latency) {
		state.metrics[n++] = &lat_p50_metric;
		state.metrics[n++] = &lat_p99_metric;
	}
	state.metrics[n] = NULL;
	run.metrics = state.metrics;
	return 0;
}

/* ---- prerequisites ---- */

static int prepare_needs(const struct bench *bench)
{
	int err;

	if (bench->needs & BENCH_NEEDS_BPF) {
		char msg[320];

		err = check_bpf_privileges();
		if (err)
			return err;
		/* every BPF program here tells its producers apart the same way */
		err = check_bpf_ns_helper(msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "%s: %s\n", bench->name, msg);
			return err;
		}
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
 * 0, or the error of a failed write to stdout or stderr.  SIGPIPE is
 * blocked, so a reader that went away shows here as EPIPE; errno must be 0
 * before the printing checked.
 */
static int std_output_error(void)
{
	int err = errno;
	sigset_t pending;

	if (fflush(stdout))
		err = errno;
	else if (!ferror(stdout) && !ferror(stderr))
		return 0;
	/*
	 * errno may be a later call's by now; the SIGPIPE an EPIPE raised
	 * stays pending (blocked) whatever ran since.
	 */
	if (!sigpending(&pending) && sigismember(&pending, SIGPIPE))
		return EPIPE;
	return err ? err : EIO;
}

/*
 * How a run ends when its output cannot be written: a reader that went
 * away ends it like the SIGPIPE it would have raised, quietly and with
 * 128 + SIGPIPE; any other error is said on stderr.  Returns the exit
 * status.
 */
static int std_output_failed(int err)
{
	if (err == EPIPE)
		return 128 + SIGPIPE;
	fprintf(stderr, "failed to write standard output: %s\n", strerror(err));
	return 1;
}

/* a signal that ends the run: said, but not for a reader that went away */
static int stopped_by(int sig)
{
	if (sig != SIGPIPE)
		fprintf(stderr, "interrupted by %s: cleaning up\n", strsignal(sig));
	return 128 + sig;
}

/*
 * SIGALRM, SIGUSR1 (a producer failed) and the signals that end a run
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) are blocked in every thread
 * and taken here with sigwait(), so sampling and clean-up run as ordinary
 * code rather than in a signal handler.  A failed write of an Iter line
 * ends the run too: *out_err is its errno.
 */
static struct bench_res *sample_slot(int repeat, int k)
{
	if (k < env.warmup_sec)
		return &run.res[repeat * env.warmup_sec + k];
	return &run.res[run.warmup_cnt + repeat * env.duration_sec + k - env.warmup_sec];
}

static int run_sampling(const struct bench *bench, const sigset_t *sigs, int *stop_sig,
			int *out_err, int repeat)
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
		if (!err && run.lat)
			err = run_latency_rebase(&run);
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
		if (run.lat) {
			err = run_latency_before_measure(&run);
			if (err)
				break;
		}
		err = bench->measure(res);
		if (err)
			break;
		res->delta_ns = now - last;
		last = now;
		if (run.lat) {
			err = run_latency_sample(&run, res, iter >= env.warmup_sec);
			if (err)
				break;
		}
		if (bench->needs & BENCH_NEEDS_MEMCG)
			run_mem_sample(res);
		errno = 0;
		if (!env.quiet && bench->report_progress)
			bench->report_progress(repeat * total + iter, res, res->delta_ns);
		iter++;
		*out_err = std_output_error();
		if (*out_err)
			break;
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

/*
 * A run whose measured samples count no operation at all measured
 * nothing: fail it rather than print a Summary of zeros.  With --repeat,
 * each repeat must count something: one repeat of zeros would pull the
 * mean of the repeat means down and look like a real figure.
 */
static int check_counted(const struct bench *bench)
{
	int i, r, res_cnt = run.repeat_len;
	const struct bench_res *res;
	long total;

	if (bench->counted_by == BENCH_COUNTED_BY_NONE)
		return 0;
	for (r = 0; r < run.repeat_cnt; r++) {
		res = run_measured(&run) + r * run.repeat_len;
		for (i = 0, total = 0; i < res_cnt; i++)
			total += res[i].hits;
		if (!total)
			break;
	}
	if (r == run.repeat_cnt)
		return 0;
	if (run.repeat_cnt > 1)
		fprintf(stderr, "repeat %d/%d: ", r + 1, run.repeat_cnt);
	if (bench->counted_by == BENCH_COUNTED_BY_BPF)
		fprintf(stderr, "%s measured nothing: its BPF program saw none of the producers' triggers in %d measured sample%s (likely causes: the program does not recognise the producer threads, e.g. ids taken in another pid namespace; the tracepoint never fires for them, e.g. a seccomp filter denies the syscall; or the program was detached)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	else
		fprintf(stderr, "%s measured nothing: the producers counted no operation in %d measured sample%s (likely cause: the producer threads never ran)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	return -ENODATA;
}

/*
 * After the samples: what is printed about them, and the JSON document,
 * rendered while the benchmark is still set up (*json_text).  *out_err is
 * the errno of a failed write to stdout or stderr.
 */
static int report(const struct bench *bench, char **json_text, int *out_err)
{
	int err;

	err = check_counted(bench);
	if (err)
		return err;
	/* the peak must be read while the run's cgroup still exists */
	if (bench->needs & BENCH_NEEDS_MEMCG)
		run_mem_read_peak(&run);
	errno = 0;
	if (run.repeat_cnt == 1) {
		err = bench->report_final(run_measured(&run), run_measured_cnt(&run));
		if (err)
			return err;
		/*
		 * where the memory went: the line after the Summary, which
		 * stays upstream's; not after results that are no Summary of
		 * samples (bpf-hashmap-lookup's per-CPU lines, which -q -a
		 * reduces to bare numbers)
		 */
		if (!(bench->caps & (BENCH_CAP_NO_REPEAT | BENCH_CAP_UPSTREAM_STDOUT)))
			run_mem_print_breakdown(&run);
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
		run_mem_print_breakdown(&run);
		for (m = run.metrics; *m; m++)
			print_two_level(*m);
	}
	/* a final result like the Summary (of every repeat): printed with -q too */
	if (run.lat)
		lat_print_summary(run.lat);
	run_check_noise(&run);
	if (env.per_producer)
		per_producer_report(&run);
	*out_err = std_output_error();
	if (env.json_path && !*out_err) {
		*json_text = results_render(&run);
		if (!*json_text)
			return -ENOMEM;
	}
	return 0;
}

int runner_run(const struct bench *bench)
{
	int err, sig, out_err = 0, status = 0, r;
	struct timespec zero = {};
	bool setup_called = false;
	struct sigaction old_hup;
	char *json_text = NULL;
	const char *test_mode;
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
	if (!err && env.latency)
		err = run_latency_check(bench);
	if (!err && env.json_path)
		err = results_precheck(env.json_path);
	if (err)
		goto out_free;
	/* stdout carries the JSON document alone: the rest goes to stderr */
	if (env.json_path && output_file_is_stdout(env.json_path)) {
		stdout = stderr;
	} else if (output_file_check("-")) {
		fprintf(stderr, "failed to write standard output: %s\n", strerror(EBADF));
		err = -EBADF;
		goto out_free;
	}
	err = alloc_state();
	if (err)
		goto out_free;

	/* block before any thread exists, so every thread inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGALRM);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	/* under nohup, a hang-up is not the end of the run */
	if (!sigaction(SIGHUP, NULL, &old_hup) && old_hup.sa_handler != SIG_IGN)
		sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGQUIT);
	sigaddset(&sigs, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	state.sampler = pthread_self();

	setup_libbpf(env.verbose);
	if (bench->validate) {
		err = bench->validate();
		if (err)
			goto out_free;
	}
	err = prepare_needs(bench);
	if (!err)
		err = collect_metrics(bench);
	if (err)
		goto out_release;

	errno = 0;
	if (!env.quiet)
		printf("Setting up benchmark '%s'...\n", bench->name);
	out_err = std_output_error();
	if (out_err)
		goto out_release;
	setup_called = true;
	if (bench->setup) {
		err = bench->setup();
		if (err)
			goto out_teardown;
	}
	if (env.latency) {
		err = run_latency_start(&run);
		if (err)
			goto out_teardown;
	}

	/* a signal during set-up is pending now: honour it before starting */
	sig = sigtimedwait(&sigs, NULL, &zero);
	if (sig > 0 && sig != SIGALRM && sig != SIGUSR1) {
		status = stopped_by(sig);
		goto out_teardown;
	}

	/* test mode: tests of loading and clean-up skip the sampling */
	test_mode = getenv("BENCH_TEST_EXIT_AFTER_SETUP");
	if (test_mode && !strcmp(test_mode, "1")) {
		fprintf(stderr, "exiting after set-up (BENCH_TEST_EXIT_AFTER_SETUP=1): nothing measured\n");
		goto out_teardown;
	}

	err = start_threads(bench);
	if (err)
		goto out_teardown;
	errno = 0;
	if (!env.quiet)
		printf("Benchmark '%s' started.\n", bench->name);
	out_err = std_output_error();
	if (out_err)
		goto out_teardown;

	sig = 0;
	for (r = 0; r < env.repeat_cnt; r++) {
		if (r) {
			errno = 0;
			err = start_repeat(bench, r);
			out_err = out_err ? out_err : std_output_error();
			if (err || out_err)
				goto out_teardown;
		}
		err = run_sampling(bench, &sigs, &sig, &out_err, r);
		if (err || out_err)
			goto out_teardown;
		if (sig) {
			status = stopped_by(sig);
			goto out_teardown;
		}
	}
	run.res_cnt = (env.warmup_sec + env.duration_sec) * env.repeat_cnt;
	err = report(bench, &json_text, &out_err);

out_teardown:
	if (setup_called && bench->teardown)
		bench->teardown();
out_release:
	release_needs();
	/* written after teardown: a FIFO waiting for its reader holds nothing else */
	if (!err && !out_err && !status && json_text) {
		err = results_write(env.json_path, json_text);
		if (err == -EINTR) {
			/* a signal ended the wait for a FIFO's reader */
			sig = sigtimedwait(&sigs, NULL, &zero);
			status = sig > 0 ? 128 + sig : 1;
		}
	}
out_free:
	free(json_text);
	free_state();
	if (status)
		return status;
	if (out_err)
		return std_output_failed(out_err);
	/* producers may still be spinning: exit() from main ends them */
	return err ? 1 : 0;
}
