// SPDX-License-Identifier: GPL-2.0
/*
 * One side of an interleaved A/B run: the shared memory, the producers
 * held and released slice by slice, each slice's histogram.
 *
 * Why two processes take turns instead of one process holding both
 * configurations: a benchmark's set-up holds one configuration in its own
 * state, so one process cannot set up A and B without every benchmark
 * being rewritten for it; two processes whose producers run on the same
 * CPUs, never at once, in slices of a few milliseconds, see the same
 * machine state, and each keeps its own memory cgroup.
 *
 * Why hold the producers with a signal: their loops are the benchmark's
 * own code, and SIGSTOP would stop the sampler too.  A held producer
 * waits in user space, between two triggers, so a batch is never cut.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run_latency.h"
#include "run_slices.h"
#include "slice_gate.h"

#define HOLD_SIG (SIGRTMIN + 3)
/* how long a side waits for the other to be set up */
#define READY_WAIT_MS 60000
/* how long the producers may take to be held (a busy CPU delays the signal) */
#define HOLD_WAIT_MS 2000
#define WAIT_TICK_NS (50 * 1000 * 1000L)

static struct {
	struct slice_gate *gate;
	size_t len;
	int me;			/* 0: A, 1: B */
	pthread_t slicer;
	bool started;
	int stop;		/* set by run_slices_stop() */
	const pthread_t *producers;
	int nprod;
	long t0_ns;		/* both sides ready: the samples' start */
	long warmup_ns, end_ns;	/* the measured seconds, from t0 */
	struct lat_hist *percpu;
	__u64 prev[LAT_NR_BUCKETS];
	const struct run_latency *lat;
	int err;		/* the slicer's failure, said once */
	long active_ns;		/* measured slices' time */
	int slices;		/* measured slices */
} sl = {
	.me = -1,
};

/* producers held: gen is bumped to release them, held counts them in */
static struct {
	int gen;
	int held;
} hold;

/* a futex word shared with the other process: not FUTEX_PRIVATE */
static int futex_wait(int *addr, int val, long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	return syscall(SYS_futex, addr, FUTEX_WAIT, val, ns ? &ts : NULL, NULL, 0);
}

static void futex_wake(int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

bool run_slices_on(void)
{
	return sl.gate != NULL;
}

static int side_of(const char *s)
{
	if (s && !strcmp(s, "A"))
		return 0;
	if (s && !strcmp(s, "B"))
		return 1;
	return -1;
}

/* map the gate ab handed over and check it is one; 0 or a negative errno after one line */
static int map_gate(const char *val)
{
	struct slice_gate *g;
	struct stat st;
	char *end;
	long fd;

	errno = 0;
	fd = strtol(val, &end, 10);
	if (!*val || *end || errno || fd < 0 || fd > INT_MAX || fstat(fd, &st) ||
	    (size_t)st.st_size < sizeof(*g)) {
		fprintf(stderr, "invalid BENCH_AB_GATE '%s': expected the fd of bench ab's shared memory\n",
			val);
		return -EINVAL;
	}
	g = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (g == MAP_FAILED) {
		fprintf(stderr, "failed to map BENCH_AB_GATE: %s\n", strerror(errno));
		return -errno;
	}
	if (g->magic != SLICE_GATE_MAGIC || g->version != SLICE_GATE_VERSION ||
	    slice_gate_size(g->cap) > (size_t)st.st_size || !g->slice_us) {
		munmap(g, st.st_size);
		fprintf(stderr, "invalid BENCH_AB_GATE '%s': not bench ab's shared memory of version %d\n",
			val, SLICE_GATE_VERSION);
		return -EINVAL;
	}
	close(fd);
	sl.gate = g;
	sl.len = st.st_size;
	return 0;
}

int run_slices_open(const struct bench_run *run)
{
	const char *val = getenv("BENCH_AB_GATE");

	if (!val)
		return 0;
	sl.me = side_of(getenv("BENCH_AB_SIDE"));
	if (sl.me < 0) {
		fprintf(stderr, "invalid BENCH_AB_SIDE '%s': an interleaved side is A or B\n",
			getenv("BENCH_AB_SIDE") ? getenv("BENCH_AB_SIDE") : "");
		return -EINVAL;
	}
	if (!run->env->latency || run->repeat_cnt != 1) {
		fprintf(stderr, "invalid options for an interleaved side (BENCH_AB_GATE): it needs --latency (its slices are timed in BPF) and no --repeat\n");
		return -EINVAL;
	}
	return map_gate(val);
}

/* a producer's wait, in its signal handler or before its first trigger */
static void hold_here(void)
{
	int gen = __atomic_load_n(&hold.gen, __ATOMIC_ACQUIRE);

	__atomic_add_fetch(&hold.held, 1, __ATOMIC_ACQ_REL);
	syscall(SYS_futex, &hold.held, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while (__atomic_load_n(&hold.gen, __ATOMIC_ACQUIRE) == gen)
		syscall(SYS_futex, &hold.gen, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
}

static void on_hold_sig(int sig)
{
	int saved = errno;

	(void)sig;
	hold_here();
	errno = saved;
}

int run_slices_arm(void)
{
	struct sigaction sa = { .sa_handler = on_hold_sig };

	if (!sl.gate)
		return 0;
	sigemptyset(&sa.sa_mask);
	if (sigaction(HOLD_SIG, &sa, NULL)) {
		fprintf(stderr, "failed to set up the slices' hold signal: %s\n", strerror(errno));
		return -errno;
	}
	return 0;
}

void run_slices_hold_first(void)
{
	if (sl.gate)
		hold_here();
}

/* wait until n producers hold (their count in hold.held); 0 or -ETIMEDOUT */
static int wait_held(int n, int ms)
{
	long deadline = bench_now_ns() + ms * 1000000L;
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int h;

	while ((h = __atomic_load_n(&hold.held, __ATOMIC_ACQUIRE)) < n) {
		if (bench_now_ns() > deadline)
			return -ETIMEDOUT;
		syscall(SYS_futex, &hold.held, FUTEX_WAIT_PRIVATE, h, &tick, NULL, 0);
	}
	return 0;
}

static void release(void)
{
	__atomic_store_n(&hold.held, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&hold.gen, 1, __ATOMIC_ACQ_REL);
	syscall(SYS_futex, &hold.gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* the slice's end: every producer held, between two of its triggers */
static int hold_all(void)
{
	int i;

	for (i = 0; i < sl.nprod; i++)
		pthread_kill(sl.producers[i], HOLD_SIG);
	return wait_held(sl.nprod, HOLD_WAIT_MS);
}

/* is it this side's turn?  false: no more turns (stopped, the other side ended, ab gave up) */
static bool my_turn(void)
{
	struct slice_gate *g = sl.gate;
	int t;

	for (;;) {
		t = __atomic_load_n(&g->turn, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&sl.stop, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&g->abort, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&g->ended[!sl.me], __ATOMIC_ACQUIRE))
			return false;
		if (t == sl.me)
			return true;
		futex_wait(&g->turn, t, WAIT_TICK_NS);
	}
}

static void pass_turn(void)
{
	struct slice_gate *g = sl.gate;

	__atomic_add_fetch(&g->seq, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&g->turn, !sl.me, __ATOMIC_RELEASE);
	futex_wake(&g->turn);
}

/* the slice's histogram (what its batches added) into its record; 0 or a negative errno */
static int record_slice(__u64 seq, long start, long end)
{
	struct slice_gate *g = sl.gate;
	__u64 cur[LAT_NR_BUCKETS], d[LAT_NR_BUCKETS];
	struct slice_rec *r;
	__u32 idx;
	int i, err;

	err = run_latency_read_batches(sl.percpu, cur);
	if (err)
		return err;
	for (i = 0; i < LAT_NR_BUCKETS; i++) {
		d[i] = cur[i] - sl.prev[i];
		sl.prev[i] = cur[i];
	}
	idx = __atomic_fetch_add(&g->nrec, 1, __ATOMIC_ACQ_REL);
	if (idx >= g->cap)
		return 0;
	r = &g->rec[idx];
	*r = (struct slice_rec){
		.seq = seq, .start_ns = start, .end_ns = end, .triggers = lat_total(d),
		.op_ns = lat_per_op(sl.lat, lat_median_interp(d)),
		.p50_ns = lat_per_op(sl.lat, lat_quantile(d, 50, 100)),
		.p99_ns = lat_per_op(sl.lat, lat_quantile(d, 99, 100)),
		.side = sl.me,
		.measured = start >= sl.t0_ns + sl.warmup_ns && end <= sl.t0_ns + sl.end_ns,
	};
	if (r->measured) {
		sl.active_ns += end - start;
		sl.slices++;
	}
	return 0;
}

/* one slice: release, sleep, hold, record; 0 or a negative errno after one line */
static int one_slice(void)
{
	__u64 seq = __atomic_load_n(&sl.gate->seq, __ATOMIC_ACQUIRE);
	long start = bench_now_ns();
	struct timespec until = {
		(start + sl.gate->slice_us * 1000L) / 1000000000L,
		(start + sl.gate->slice_us * 1000L) % 1000000000L,
	};
	int err;

	release();
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	err = hold_all();
	if (err) {
		fprintf(stderr, "failed to hold the producers at a slice's end within %d ms: %s\n",
			HOLD_WAIT_MS, strerror(-err));
		return err;
	}
	err = record_slice(seq, start, bench_now_ns());
	if (err)
		fprintf(stderr, "failed to read the slice's latency histogram: %s\n", strerror(-err));
	return err;
}

/*
 * Turns until this run stops (its producers stay held), or the other
 * side took its last turn or failed (this side's producers then run
 * alone to the end), or a slice failed.
 */
static void *slicer(void *arg)
{
	int err = 0;

	(void)arg;
	while (!err && my_turn()) {
		err = one_slice();
		pass_turn();
	}
	sl.err = err;
	if (err || !__atomic_load_n(&sl.stop, __ATOMIC_ACQUIRE))
		release();
	return NULL;
}

/* a signal that ends the run is waiting for the sampler */
static bool stop_pending(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	sigset_t pending;
	size_t i;

	if (sigpending(&pending))
		return false;
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (sigismember(&pending, stops[i]))
			return true;
	return false;
}

/* both sides set up, their producers held; 0, -EINTR, or a negative errno after one line */
static int wait_ready(void)
{
	struct slice_gate *g = sl.gate;
	long deadline = bench_now_ns() + READY_WAIT_MS * 1000000L;
	int r;

	__atomic_add_fetch(&g->ready, 1, __ATOMIC_ACQ_REL);
	futex_wake(&g->ready);
	while ((r = __atomic_load_n(&g->ready, __ATOMIC_ACQUIRE)) < SLICE_SIDES) {
		if (__atomic_load_n(&g->abort, __ATOMIC_ACQUIRE)) {
			fprintf(stderr, "failed to start the interleaved run: bench ab gave up on the other side: %s\n",
				strerror(ECANCELED));
			return -ECANCELED;
		}
		if (stop_pending())
			return -EINTR;
		if (bench_now_ns() > deadline) {
			fprintf(stderr, "failed to start the interleaved run: the other side was not set up within %d s: %s\n",
				READY_WAIT_MS / 1000, strerror(ETIMEDOUT));
			return -ETIMEDOUT;
		}
		futex_wait(&g->ready, r, WAIT_TICK_NS);
	}
	return 0;
}

int run_slices_start(struct bench_run *run, const pthread_t *producers, int n)
{
	int err;

	if (!sl.gate)
		return 0;
	sl.producers = producers;
	sl.nprod = n;
	sl.lat = run->lat;
	sl.percpu = calloc(run_latency_nr_cpus(), sizeof(*sl.percpu));
	if (!sl.percpu) {
		fprintf(stderr, "failed to allocate the slices' histogram: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (wait_held(n, HOLD_WAIT_MS)) {
		fprintf(stderr, "failed to hold the producers before the first slice within %d ms: %s\n",
			HOLD_WAIT_MS, strerror(ETIMEDOUT));
		return -ETIMEDOUT;
	}
	err = run_latency_read_batches(sl.percpu, sl.prev);
	if (err)
		return bench_failed(err, "read the latency histogram");
	err = wait_ready();
	if (err)
		return err;
	sl.t0_ns = bench_now_ns();
	sl.warmup_ns = run->repeat_warmup * 1000000000L;
	sl.end_ns = (long)(run->repeat_warmup + run->repeat_len) * 1000000000L;
	err = -pthread_create(&sl.slicer, NULL, slicer, NULL);
	if (err)
		return bench_failed(err, "create the slicer thread");
	sl.started = true;
	return 0;
}

void run_slices_stop(void)
{
	struct slice_gate *g = sl.gate;

	if (!g)
		return;
	if (sl.started) {
		__atomic_store_n(&sl.stop, 1, __ATOMIC_RELEASE);
		futex_wake(&g->turn);
		pthread_join(sl.slicer, NULL);
		sl.started = false;
	}
	/* only now: the other side must not run while this side's last slice does */
	__atomic_store_n(&g->ended[sl.me], 1, __ATOMIC_RELEASE);
	futex_wake(&g->turn);
	futex_wake(&g->ready);
}

int run_slices_judge(struct bench_run *run)
{
	long measured = sl.end_ns - sl.warmup_ns;

	if (!sl.gate)
		return 0;
	if (sl.err)
		return sl.err;
	run->invalid = true;
	snprintf(run->invalid_reason, sizeof(run->invalid_reason),
		 "one side of an interleaved run (bench ab --interleave): its producers ran in %g-ms slices taking turns with another run's, %.0f%% of the measured time (%d slices), so its rates and on-CPU shares count that share; op_ns and latency_* time each batch",
		 sl.gate->slice_us / 1000.0, measured > 0 ? 100.0 * sl.active_ns / measured : 0,
		 sl.slices);
	return 0;
}
