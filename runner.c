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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "bench_api.h"
#include "bench_exit.h"
#include "cgroup_helpers.h"
#include "kernel_env.h"
#include "output_file.h"
#include "per_producer.h"
#include "result_file.h"
#include "result_json.h"
#include "run_context.h"
#include "run_contention.h"
#include "run_latency.h"
#include "run_mem.h"
#include "run_slices.h"
#include "runner.h"

static struct bench_run run = {
	.peak_mem_bytes = -1,
};

/*
 * Each thread's start: its function and index, read by thread_start().
 * Static, never freed: a thread may first run after the run has ended and
 * the runner's state is gone (a closed stdout ends a run at its first line),
 * and producers spin until exit().
 */
static struct thread_arg {
	void *(*fn)(void *);
	long idx;
	bool producer;
} thread_args[2 * BENCH_MAX_THREADS];

static struct runner_state {
	long *prod_hits_store;
	pthread_t *consumers;
	pthread_t *producers;
	struct cpu_list allowed;
	int next_cpu;
	pthread_t sampler;
	int nr_started;		/* consumers then producers, in that order */
	int consumers_stop;	/* set once, before teardown: consumers return */
	int nr_joined;		/* consumers joined after consumers_stop */
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

/* ---- upstream's bench_force_done(): the run ends after this sample ---- */

static int done_forced;

void bench_force_done(void)
{
	__atomic_store_n(&done_forced, 1, __ATOMIC_RELEASE);
	/* from the sampler itself (its measure()) it is seen after the sample */
	if (!pthread_equal(pthread_self(), state.sampler))
		pthread_kill(state.sampler, SIGUSR1);
}

static bool done_is_forced(void)
{
	return __atomic_load_n(&done_forced, __ATOMIC_ACQUIRE);
}

/* the run's measured samples are those taken when it was forced: 0, or -errno */
static int end_forced(const struct bench *bench, int iter)
{
	if (run.repeat_cnt > 1) {
		fprintf(stderr, "%s ended the run early (bench_force_done()): not supported with --repeat\n",
			bench->name);
		return -ENOTSUP;
	}
	if (iter <= run.repeat_warmup) {
		fprintf(stderr, "%s ended the run (bench_force_done()) during the warm-up: nothing measured\n",
			bench->name);
		return -ENODATA;
	}
	run.repeat_len = iter - run.repeat_warmup;
	return 0;
}

/* the run's peak, stored once, in struct bench_run */
long long bench_peak_mem_bytes(void)
{
	return run.peak_mem_bytes;
}

int bench_add_extra_metric(const char *name, const char *unit, bool higher_is_better,
			   const double *values, int n)
{
	return run_add_extra_metric(&run, name, unit, higher_is_better, values, n);
}

/* ---- threads and affinity ---- */

/*
 * Every thread starts here: a producer first opens its own on-CPU counters
 * (run_contention.h), then runs the benchmark's loop.
 */
static void *thread_start(void *arg)
{
	struct thread_arg *a = arg;

	/* this thread's own nice value (a thread id for PRIO_PROCESS); raising it cannot fail */
	if (env.thread_nice)
		setpriority(PRIO_PROCESS, syscall(SYS_gettid), env.thread_nice);
	if (a->producer) {
		run_contention_thread(&run, a->idx);
		/* an interleaved side: held until its first slice */
		run_slices_hold_first();
	}
	return a->fn((void *)a->idx);
}

/*
 * Threads are created already pinned (the affinity is in their attributes),
 * so not even a thread's first operation runs on another CPU.
 */
static int create_thread(pthread_t *thread, struct thread_arg *arg, int cpu)
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
		err = pthread_create(thread, &attr, thread_start, arg);
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

/*
 * ---- parking the threads before teardown ----
 *
 * The benchmark's threads spin until the process exits.  Teardown must not
 * detach a program from a kernel function they are running: live-patching
 * a function's entry as another CPU executes it locked up emulated guests
 * (a CPU stuck 26 s at getpgid()'s fentry site), and upstream's runner,
 * which never tears down, detaches at exit, once the threads are gone.  So
 * for a benchmark with BENCH_CAP_PARK_THREADS (the fentry ones: producers
 * that only loop on getpgid()) each thread is sent PARK_SIG first and waits
 * out the process in the handler, in user space.  Not for every benchmark:
 * a producer parked while it held a lock (malloc's, a mutex) hung the
 * teardown that needed it (lpm-trie-lookup).
 */
#define PARK_SIG (SIGRTMIN + 2)
#define PARK_WAIT_MS 1000

static int nr_parked;

static void park_here(int sig)
{
	(void)sig;
	__atomic_add_fetch(&nr_parked, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
}

/* before the threads start: they inherit the mask, so unblock it here */
static int arm_parking(void)
{
	struct sigaction sa = { .sa_handler = park_here };
	sigset_t park;

	sigemptyset(&sa.sa_mask);
	if (sigaction(PARK_SIG, &sa, NULL))
		return -errno;
	sigemptyset(&park);
	sigaddset(&park, PARK_SIG);
	return -pthread_sigmask(SIG_UNBLOCK, &park, NULL);
}

/* a thread that does not park within PARK_WAIT_MS is left to run (teardown goes on) */
static void park_threads(void)
{
	struct timespec ms = { .tv_nsec = 1000 * 1000 };
	int i, sent = 0;

	/* joined consumers are gone */
	for (i = state.nr_joined; i < state.nr_started; i++) {
		pthread_t t = i < run.consumer_cnt ? state.consumers[i] :
			      state.producers[i - run.consumer_cnt];

		sent += !pthread_kill(t, PARK_SIG);
	}
	for (i = 0; i < PARK_WAIT_MS && __atomic_load_n(&nr_parked, __ATOMIC_ACQUIRE) < sent; i++)
		nanosleep(&ms, NULL);
}

/* the consumers that were started (they start first) */
static int nr_consumers_started(void)
{
	return state.nr_started < run.consumer_cnt ? state.nr_started : run.consumer_cnt;
}

bool bench_consumers_stopping(void)
{
	return __atomic_load_n(&state.consumers_stop, __ATOMIC_ACQUIRE);
}

bool bench_consumers_joined(void)
{
	return state.nr_joined == nr_consumers_started();
}

/*
 * Before the reports, and before teardown whatever ended the run: a
 * consumer may be waiting in epoll for records that will never come once
 * the program is detached, and teardown frees what it reads.  It waits
 * BENCH_CONSUMER_WAIT_MS at most, so it sees the flag; one that does not
 * return in CONSUMER_JOIN_MS (BENCH_TEST_CONSUMER_JOIN_MS in tests) is a
 * bug of its benchmark, said and failed, and the run reports nothing.
 * Once all are joined, a second call does nothing.
 */
#define CONSUMER_JOIN_MS 2000

static long consumer_join_ms(void)
{
	const char *s = getenv("BENCH_TEST_CONSUMER_JOIN_MS");
	long ms;

	return s && !parse_long(s, 0, CONSUMER_JOIN_MS, &ms) ? ms : CONSUMER_JOIN_MS;
}

static int stop_consumers(void)
{
	int i, n = nr_consumers_started(), err;
	long ms = consumer_join_ms();
	struct timespec deadline;
	static int stuck;

	/* said once: a second call would only wait for it again */
	if (stuck)
		return stuck;
	__atomic_store_n(&state.consumers_stop, 1, __ATOMIC_RELEASE);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += ms % 1000 * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	for (i = state.nr_joined; i < n; i++) {
		err = pthread_timedjoin_np(state.consumers[i], NULL, &deadline);
		if (err) {
			fprintf(stderr, "failed to stop consumer thread #%d within %ld ms: %s: the run is void, nothing is reported\n",
				i, ms, strerror(err));
			stuck = -err;
			return stuck;
		}
		state.nr_joined++;
	}
	return 0;
}

/*
 * Upstream's placement: consumers first; producers without a CPU set of
 * their own continue after the last consumer's CPU, also when the
 * consumers had a set (--cons-affinity 0 puts the first producer on the
 * CPU after 0, not beside the consumer).
 */
static void continue_after_consumers(void)
{
	int last, i;

	if (!run.consumer_cnt || !env.cons_cpus.cnt || env.prod_cpus.cnt)
		return;
	last = run.cons_cpu[run.consumer_cnt - 1];
	for (i = 0; i < state.allowed.cnt; i++)
		if (state.allowed.cpus[i] == last)
			state.next_cpu = i + 1;
}

static int start_threads(const struct bench *bench)
{
	int i, err, cpu;

	for (i = 0; i < run.consumer_cnt; i++) {
		cpu = env.affinity ? pick_cpu(&env.cons_cpus, i) : -1;
		thread_args[i] = (struct thread_arg){ bench->consumer_thread, i, false };
		err = create_thread(&state.consumers[i], &thread_args[i], cpu);
		if (err) {
			fprintf(stderr, "failed to create consumer thread #%d: %s\n", i,
				strerror(-err));
			return err;
		}
		state.nr_started++;
		run.cons_cpu[i] = cpu;
	}
	if (env.affinity)
		continue_after_consumers();
	for (i = 0; i < run.producer_cnt; i++) {
		cpu = env.affinity ? pick_cpu(&env.prod_cpus, i) : -1;
		thread_args[run.consumer_cnt + i] = (struct thread_arg){ bench->producer_thread, i, true };
		err = create_thread(&state.producers[i], &thread_args[run.consumer_cnt + i], cpu);
		if (err) {
			fprintf(stderr, "failed to create producer thread #%d: %s\n", i,
				strerror(-err));
			return err;
		}
		state.nr_started++;
		run.prod_cpu[i] = cpu;
	}
	return 0;
}

static int alloc_state(void)
{
	int i, n = (run.repeat_warmup + run.repeat_len) * run.repeat_cnt;

	state.producers = calloc(run.producer_cnt, sizeof(*state.producers));
	state.consumers = calloc(run.consumer_cnt ? run.consumer_cnt : 1,
				 sizeof(*state.consumers));
	run.res = calloc(n, sizeof(*run.res));
	/* one more sample's worth: the discarded one that starts a repeat */
	state.prod_hits_store = calloc((size_t)(n + 1) * run.producer_cnt, sizeof(long));
	run.prod_cpu = malloc(run.producer_cnt * sizeof(int));
	run.cons_cpu = malloc((run.consumer_cnt ? run.consumer_cnt : 1) * sizeof(int));
	if (!state.producers || !state.consumers || !run.res ||
	    !state.prod_hits_store || !run.prod_cpu || !run.cons_cpu) {
		fprintf(stderr, "failed to allocate runner state: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		run.res[i].prod_hits = state.prod_hits_store + (size_t)i * run.producer_cnt;
		run.res[i].mem_bytes = -1;
	}
	for (i = 0; i < run.producer_cnt; i++)
		run.prod_cpu[i] = -1;
	for (i = 0; i < run.consumer_cnt; i++)
		run.cons_cpu[i] = -1;
	if (run_contention_init(&run)) {
		fprintf(stderr, "failed to allocate runner state: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

static void free_state(void)
{
	free(state.producers);
	free(state.consumers);
	free(run.res);
	free(state.prod_hits_store);
	free(run.prod_cpu);
	free(run.cons_cpu);
	run_contention_free(&run);
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
			goto too_many;
		state.metrics[n++] = m;
	}
	if (bench->needs & BENCH_NEEDS_MEMCG) {
		state.metrics[n++] = &bench_memory_metric;
		/* where it goes: the fields this kernel's cgroup offers */
		err = run_mem_metrics(&run, state.metrics + n, ARRAY_SIZE(state.metrics) - 3 - n);
		if (err < 0)
			goto too_many;
		n += err;
	}
	if (env.latency) {
		state.metrics[n++] = &lat_p50_metric;
		state.metrics[n++] = &lat_p99_metric;
		state.metrics[n++] = &op_ns_metric;
	}
	state.metrics[n] = NULL;
	run.metrics = state.metrics;
	return 0;
too_many:
	fprintf(stderr, "failed to list %s's metrics: more than %zu: %s\n", bench->name,
		ARRAY_SIZE(state.metrics) - 1, strerror(E2BIG));
	return -E2BIG;
}

/* ---- prerequisites ---- */

static void release_needs(void)
{
	/* an upstream-style benchmark's cgroups, inside the run's: first */
	cleanup_cgroup_environment();
	run_mem_destroy();
	release_tracefs();
}

static int prepare_needs(const struct bench *bench)
{
	int err;

	/* a hook of upstream's style may exit(1): release from exit() then */
	bench_release_at_exit(release_needs);

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

/* ---- sampling ---- */

/*
 * 0, or the errno of a failed write to stdout (output_file.c keeps its
 * first, as EPIPE for a reader that went away) or stderr.  SIGPIPE is
 * blocked, so stderr's reader gone shows as the SIGPIPE left pending.
 */
static int std_output_error(void)
{
	int err = -output_stdout_error();
	sigset_t pending;

	if (err || !ferror(stderr))
		return err;
	if (!sigpending(&pending) && sigismember(&pending, SIGPIPE))
		return EPIPE;
	return EIO;
}

/*
 * How a run ends when its output cannot be written: a reader that went
 * away ends it like the SIGPIPE it would have raised, 128 + SIGPIPE; any
 * other error is BENCH_EXIT_FAILED, said by main (bench.c, finish_output())
 */
static int std_output_failed(int err)
{
	return err == EPIPE ? BENCH_EXIT_SIGNAL + SIGPIPE : BENCH_EXIT_FAILED;
}

/* a signal that ends the run: said, but not for a reader that went away */
static int stopped_by(int sig)
{
	if (sig != SIGPIPE)
		fprintf(stderr, "interrupted by %s: cleaning up\n", strsignal(sig));
	return BENCH_EXIT_SIGNAL + sig;
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
	if (k < run.repeat_warmup)
		return &run.res[repeat * run.repeat_warmup + k];
	return &run.res[run.warmup_cnt + repeat * run.repeat_len + k - run.repeat_warmup];
}

static int run_sampling(const struct bench *bench, const sigset_t *sigs, int *stop_sig,
			int *out_err, int repeat)
{
	struct itimerval timer = {
		.it_interval = { .tv_sec = 1 },
		.it_value = { .tv_sec = 1 },
	};
	int total = run.repeat_warmup + run.repeat_len, sig, iter, err = 0;
	struct bench_res scratch = {
		.prod_hits = state.prod_hits_store + (size_t)total * run.repeat_cnt *
			     run.producer_cnt,
		.mem_bytes = -1,
	};
	struct bench_res *res;
	long last, now;

	/* a later repeat starts from a new baseline, discarding what came before */
	if (repeat) {
		err = bench_call_measure(bench, &scratch);
		if (!err && run.lat)
			err = run_latency_rebase(&run);
		if (err)
			return err;
	}
	run_contention_rebase(&run);
	last = bench_now_ns();
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
			if (err || done_is_forced())
				break;
			continue;
		}
		if (sig != SIGALRM) {
			*stop_sig = sig;
			break;
		}
		now = bench_now_ns();
		res = sample_slot(repeat, iter);
		if (run.lat) {
			err = run_latency_before_measure(&run);
			if (err)
				break;
		}
		err = bench_call_measure(bench, res);
		if (err)
			break;
		res->delta_ns = now - last;
		last = now;
		run_contention_sample(&run, res);
		if (run.lat) {
			err = run_latency_sample(&run, res, iter >= run.repeat_warmup);
			if (err)
				break;
		}
		if (bench->needs & BENCH_NEEDS_MEMCG)
			run_mem_sample(res);
		if (!env.quiet && bench->report_progress)
			bench->report_progress(repeat * total + iter, res, res->delta_ns);
		iter++;
		*out_err = std_output_error();
		if (*out_err || done_is_forced())
			break;
	}
	timer = (struct itimerval){};
	setitimer(ITIMER_REAL, &timer, NULL);
	if (!err && !*out_err && done_is_forced())
		err = end_forced(bench, iter);
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
		printf("Repeat %d/%d%s\n", repeat + 1, run.repeat_cnt,
		       bench->caps & BENCH_CAP_REPEAT_FRESH ? ": fresh state" : "");
	if (bench->caps & BENCH_CAP_REPEAT_FRESH) {
		if (bench->teardown)
			bench->teardown();
		err = bench_call_setup(bench);
		if (err)
			return err;
	}
	return 0;
}

static void print_two_level(const struct bench_metric *m)
{
	struct two_level tl;
	int err;

	err = metric_two_level(m, run_measured(&run), run.repeat_cnt, run.repeat_len, &tl, NULL);
	if (err) {
		fprintf(stderr, "failed to compute %s's repeats: %s\n", m->name, strerror(-err));
		return;
	}
	if (!tl.repeats) {
		printf("Repeats: %s n/a (no value)\n", m->name);
		return;
	}
	printf("Repeats: %s %.2lf \u00B1 %.2lf %s between %d repeats (CV %.2lf%%), within repeats \u00B1 %.2lf %s (CV %.2lf%%)\n",
	       m->name, tl.mean, tl.between_sd, m->unit, tl.repeats, tl.between_cv * 100.0,
	       tl.within_sd, m->unit, tl.within_cv * 100.0);
}

/* --stats: every metric's robust summaries over the measured samples */
static void print_stats(void)
{
	const struct bench_metric *const *m;
	struct outlier *o;
	struct robust r;
	int i;

	for (m = run.metrics; *m; m++) {
		if (metric_robust(*m, run_measured(&run), run_measured_cnt(&run), &r, &o))
			continue;
		robust_print(stdout, (*m)->name, (*m)->unit, &r, o, run.warmup_cnt);
		free(o);
	}
	for (i = 0; i < run.extra_cnt; i++) {
		o = calloc(run.extras[i].n + 1, sizeof(*o));
		if (!o || stats_robust(run.extras[i].values, run.extras[i].n, &r, o, run.extras[i].n)) {
			free(o);
			continue;
		}
		robust_print(stdout, run.extras[i].name, run.extras[i].unit, &r, o, -1);
		free(o);
	}
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
		/*
		 * a drop is a counted operation too (a lookup that missed),
		 * but not a record that never reached a consumer
		 */
		for (i = 0, total = 0; i < res_cnt; i++)
			total += res[i].hits +
				 (bench->counted_by == BENCH_COUNTED_BY_CONSUMER ? 0 : res[i].drops);
		if (!total)
			break;
	}
	if (r == run.repeat_cnt)
		return 0;
	if (run.repeat_cnt > 1)
		fprintf(stderr, "repeat %d/%d: ", r + 1, run.repeat_cnt);
	if (bench->counted_by == BENCH_COUNTED_BY_CONSUMER)
		fprintf(stderr, "%s measured nothing: no record was received in %d measured sample%s (likely causes: the BPF program never ran for this process, e.g. a seccomp filter denies the syscall; every record was dropped, e.g. by a buffer nobody reads; or the consumer stopped)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	else if (bench->counted_by == BENCH_COUNTED_BY_BPF)
		fprintf(stderr, "%s measured nothing: its BPF program saw none of the producers' triggers in %d measured sample%s (likely causes: the program does not recognise the producer threads, e.g. ids taken in another pid namespace; the tracepoint never fires for them, e.g. a seccomp filter denies the syscall; or the program was detached)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	else
		fprintf(stderr, "%s measured nothing: the producers counted no operation in %d measured sample%s (likely cause: the producer threads never ran)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	return -ENODATA;
}

/*
 * What --json writes is what `bench compare` and `bench plot` must accept:
 * the reader's checks run on the text before it is written, so that a
 * file bench refuses later is never written (0, or -EINVAL after one line).
 */
static int check_result(const char *text)
{
	struct result_file rf;
	json_error_t jerr;
	char msg[512];
	json_t *doc;
	int err;

	doc = json_loads(text, 0, &jerr);
	if (!doc) {
		fprintf(stderr, "failed to write %s: its own reader cannot parse it: %s\n",
			env.json_path, jerr.text);
		return -EINVAL;
	}
	err = result_file_load_doc(env.json_path, doc, &rf, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "failed to write %s: its own reader refuses it: %s\n", env.json_path,
			msg);
		return err;
	}
	result_file_free(&rf);
	return 0;
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
	if (run.repeat_cnt == 1) {
		err = bench_call_report_final(bench, run_measured(&run), run_measured_cnt(&run));
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
			err = bench_call_report_final(bench, run_measured(&run) + r * run.repeat_len,
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
	if (env.stats)
		print_stats();
	/* a side's producers are held half the time by design: its own verdict */
	if (run_slices_on())
		err = run_slices_judge(&run);
	else
		run_contention_judge(&run);
	if (err)
		return err;
	run_check_noise(&run);
	if (env.per_producer)
		per_producer_report(&run);
	*out_err = std_output_error();
	if (env.json_path && !*out_err) {
		*json_text = result_json_render(&run);
		if (!*json_text)
			return -ENOMEM;
		return check_result(*json_text);
	}
	return 0;
}

/* what ended a run: a failed step, a failed write of stdout or stderr, a signal */
struct run_end {
	int err;	/* 0 or a negative errno */
	int out_err;	/* the errno of a failed write of stdout or stderr */
	int status;	/* 128 + the signal that ended it, or 0 */
};

static bool run_ended(const struct run_end *end)
{
	return end->err || end->out_err || end->status;
}

/* the run's sizes, fixed here: the runner and the reporting code read these */
static void init_run(const struct bench *bench)
{
	run.bench = bench;
	run.env = &env;
	run.producer_cnt = env.producer_cnt;
	run.consumer_cnt = env.consumer_cnt;
	run.repeat_cnt = env.repeat_cnt;
	run.repeat_warmup = env.warmup_sec;
	run.repeat_len = env.duration_sec;
	run.warmup_cnt = run.repeat_warmup * run.repeat_cnt;
}

/* the checks that need nothing set up, then the runner's own state */
static int check_options(const struct bench *bench)
{
	int err;

	if (env.consumer_cnt && !bench->consumer_thread) {
		fprintf(stderr, "benchmark '%s' has no consumers; -c/--consumers must be 0 (got %d)\n",
			bench->name, env.consumer_cnt);
		return -EINVAL;
	}
	err = validate_affinity();
	if (!err && env.json_path)
		err = result_json_precheck(env.json_path);
	if (!err)
		err = run_slices_open(&run);
	if (err)
		return err;
	/* stdout carries the JSON document alone: the rest goes to stderr */
	if (env.json_path && output_file_is_stdout(env.json_path)) {
		stdout = stderr;
	} else if (output_file_check("-")) {
		fprintf(stderr, "failed to write standard output: %s\n", strerror(EBADF));
		return -EBADF;
	}
	return alloc_state();
}

/* blocked before any thread exists, so every thread inherits the mask */
static void block_signals(sigset_t *sigs)
{
	struct sigaction old_hup;

	sigemptyset(sigs);
	sigaddset(sigs, SIGALRM);
	sigaddset(sigs, SIGUSR1);
	sigaddset(sigs, SIGINT);
	sigaddset(sigs, SIGTERM);
	/* under nohup, a hang-up is not the end of the run */
	if (!sigaction(SIGHUP, NULL, &old_hup) && old_hup.sa_handler != SIG_IGN)
		sigaddset(sigs, SIGHUP);
	sigaddset(sigs, SIGQUIT);
	sigaddset(sigs, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, sigs, NULL);
	state.sampler = pthread_self();
}

/* a signal that ends the run and came while nothing was waiting for it: 128 + it, or 0 */
static int pending_stop(const sigset_t *sigs)
{
	struct timespec zero = {};
	int sig = sigtimedwait(sigs, NULL, &zero);

	return sig > 0 && sig != SIGALRM && sig != SIGUSR1 ? stopped_by(sig) : 0;
}

/*
 * The prerequisites, then the benchmark's set-up and --latency's; a
 * signal during them ends the run here.  *setup_called: teardown() is owed.
 */
static void set_up(const struct bench *bench, const sigset_t *sigs, struct run_end *end,
		   bool *setup_called)
{
	end->err = prepare_needs(bench);
	/* after prepare_needs(): memory's fields are the cgroup's */
	if (!end->err)
		end->err = collect_metrics(bench);
	if (end->err)
		return;
	if (!env.quiet)
		printf("Setting up benchmark '%s'...\n", bench->name);
	end->out_err = std_output_error();
	if (end->out_err)
		return;
	*setup_called = true;
	end->err = bench_call_setup(bench);
	if (!end->err && env.latency)
		end->err = run_latency_start(&run);
	if (!end->err)
		end->status = pending_stop(sigs);
}

/* test mode: tests of loading and clean-up skip the sampling */
static bool exit_after_setup(void)
{
	const char *test_mode = getenv("BENCH_TEST_EXIT_AFTER_SETUP");

	if (!test_mode || strcmp(test_mode, "1"))
		return false;
	fprintf(stderr, "exiting after set-up (BENCH_TEST_EXIT_AFTER_SETUP=1): nothing measured\n");
	return true;
}

/* the threads, every repeat's samples, then the reports and the JSON text */
static void measure(const struct bench *bench, const sigset_t *sigs, struct run_end *end,
		    char **json_text)
{
	int r, sig = 0;

	end->err = bench->caps & BENCH_CAP_PARK_THREADS ? arm_parking() : 0;
	if (end->err) {
		fprintf(stderr, "failed to set up the threads' parking signal: %s\n",
			strerror(-end->err));
		return;
	}
	end->err = run_slices_arm();
	if (end->err)
		return;
	clock_gettime(CLOCK_REALTIME, &run.start_time);
	end->err = start_threads(bench);
	if (!end->err)
		end->err = run_slices_start(&run, state.producers, run.producer_cnt);
	if (end->err == -EINTR) {
		end->err = 0;
		end->status = pending_stop(sigs);
	}
	if (run_ended(end))
		return;
	if (!env.quiet)
		printf("Benchmark '%s' started.\n", bench->name);
	end->out_err = std_output_error();
	for (r = 0; r < run.repeat_cnt && !run_ended(end); r++) {
		if (r) {
			end->err = start_repeat(bench, r);
			end->out_err = std_output_error();
			if (run_ended(end))
				return;
		}
		end->err = run_sampling(bench, sigs, &sig, &end->out_err, r);
		if (!end->err && !end->out_err && sig)
			end->status = stopped_by(sig);
	}
	/* an interleaved side takes no more turns: its producers stay held */
	run_slices_stop();
	clock_gettime(CLOCK_REALTIME, &run.end_time);
	if (run_ended(end))
		return;
	run.res_cnt = (run.repeat_warmup + run.repeat_len) * run.repeat_cnt;
	/*
	 * a consumer that cannot be stopped voids the run: no Summary that
	 * looks valid; an upstream-style one is not asked (it ends with us)
	 */
	if (!(bench->caps & BENCH_CAP_CONSUMERS_ENDLESS))
		end->err = stop_consumers() ? -ETIMEDOUT : 0;
	if (!end->err)
		end->err = report(bench, json_text, &end->out_err);
}

/* after teardown: a FIFO waiting for its reader holds nothing else */
static void write_json(const char *text, const sigset_t *sigs, struct run_end *end)
{
	struct timespec zero = {};
	int sig;

	end->err = result_json_write(env.json_path, text);
	if (end->err == -EINTR) {
		/* a signal ended the wait for a FIFO's reader */
		sig = sigtimedwait(sigs, NULL, &zero);
		end->status = sig > 0 ? BENCH_EXIT_SIGNAL + sig : BENCH_EXIT_FAILED;
	}
}

static int exit_status(const struct run_end *end)
{
	if (end->status)
		return end->status;
	if (end->out_err)
		return std_output_failed(end->out_err);
	/* producers may still be spinning: exit() from main ends them */
	return end->err ? BENCH_EXIT_FAILED : BENCH_EXIT_OK;
}

int runner_run(const struct bench *bench)
{
	struct run_end end = {};
	bool setup_called = false;
	char *json_text = NULL;
	sigset_t sigs;

	bench = bench_effective(bench);
	init_run(bench);
	end.err = check_options(bench);
	if (end.err)
		goto out;
	block_signals(&sigs);
	libbpf_print_setup(env.verbose);
	end.err = bench_call_validate(bench);
	if (end.err)
		goto out;
	set_up(bench, &sigs, &end, &setup_called);
	if (!run_ended(&end) && !exit_after_setup())
		measure(bench, &sigs, &end, &json_text);
	run_slices_stop();
	if (!(bench->caps & BENCH_CAP_CONSUMERS_ENDLESS) && stop_consumers() && !run_ended(&end))
		end.err = -ETIMEDOUT;
	if (bench->caps & BENCH_CAP_PARK_THREADS)
		park_threads();
	if (setup_called && bench->teardown)
		bench->teardown();
	bench_release_now();
	if (!run_ended(&end) && json_text)
		write_json(json_text, &sigs, &end);
out:
	free(json_text);
	free_state();
	return exit_status(&end);
}
