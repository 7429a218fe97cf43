// SPDX-License-Identifier: GPL-2.0
/*
 * The producers' on-CPU time, sampled with the benchmark's counters.
 *
 * Each producer opens /proc/thread-self/{schedstat,status} itself, so the
 * files are its own whatever pid namespace /proc was mounted for (a tid
 * from gettid() names another thread, or none, under a parent's /proc).
 * The sampler only pread()s them: a few microseconds per producer a tick.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_limits.h"
#include "run_contention.h"
#include "testing_helpers.h"

struct prod_files {
	int sched_fd;		/* schedstat: ns on a CPU, first field */
	int status_fd;		/* status: nonvoluntary_ctxt_switches */
	unsigned long long last_run_ns;
	long last_nivcsw;
	long long last_at_ns;	/* when last_* were read; 0: never */
};

struct run_contention {
	int nr;
	struct prod_files *prod;
	double *share_store;
	long *nivcsw_store;
	int proc_stat_fd;
	unsigned long long last_steal, last_total;	/* USER_HZ ticks */
	bool have_steal;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* the whole of a small /proc file, NUL-terminated; -1 on failure */
static ssize_t read_all(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int read_run_ns(int fd, unsigned long long *run_ns);
static long read_nivcsw(int fd);

int run_contention_init(struct bench_run *run)
{
	int n = (run->repeat_warmup + run->repeat_len) * run->repeat_cnt, p = run->producer_cnt;
	struct run_contention *c = calloc(1, sizeof(*c));
	int i, j;

	if (!c)
		return -ENOMEM;
	run->cont = c;
	c->nr = p;
	c->proc_stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	c->prod = calloc(p, sizeof(*c->prod));
	for (i = 0; c->prod && i < p; i++) {
		c->prod[i].sched_fd = -1;
		c->prod[i].status_fd = -1;
	}
	c->share_store = calloc((size_t)(n + 1) * p, sizeof(double));
	c->nivcsw_store = calloc((size_t)(n + 1) * p, sizeof(long));
	run->prod_share = calloc(p, sizeof(double));
	run->prod_fair_share = calloc(p, sizeof(double));
	if (!c->prod || !c->share_store || !c->nivcsw_store || !run->prod_share ||
	    !run->prod_fair_share)
		return -ENOMEM;
	for (i = 0; i < p; i++) {
		run->prod_share[i] = NAN;
		run->prod_fair_share[i] = 1;
	}
	for (i = 0; i < n; i++) {
		run->res[i].prod_cpu_share = c->share_store + (size_t)i * p;
		run->res[i].prod_nivcsw = c->nivcsw_store + (size_t)i * p;
		run->res[i].steal_share = NAN;
		for (j = 0; j < p; j++) {
			run->res[i].prod_cpu_share[j] = NAN;
			run->res[i].prod_nivcsw[j] = -1;
		}
	}
	return 0;
}

void run_contention_thread(struct bench_run *run, int idx)
{
	struct prod_files *f;
	int fd;

	if (!run->cont || idx < 0 || idx >= run->cont->nr)
		return;
	f = &run->cont->prod[idx];
	/*
	 * The thread may start after the sampler took its baseline: its own
	 * first reading is the baseline then.  Everything is written before
	 * schedstat's fd is published; the sampler reads nothing before it.
	 */
	f->status_fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);
	fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !read_run_ns(fd, &f->last_run_ns)) {
		f->last_nivcsw = read_nivcsw(f->status_fd);
		f->last_at_ns = now_ns();
	}
	__atomic_store_n(&f->sched_fd, fd, __ATOMIC_RELEASE);
}

static int read_run_ns(int fd, unsigned long long *run_ns)
{
	char buf[128];

	if (fd < 0 || read_all(fd, buf, sizeof(buf)) < 0)
		return -1;
	return sscanf(buf, "%llu", run_ns) == 1 ? 0 : -1;
}

static long read_nivcsw(int fd)
{
	char buf[4096], *p;

	if (fd < 0 || read_all(fd, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "nonvoluntary_ctxt_switches:");
	return p ? strtol(p + strlen("nonvoluntary_ctxt_switches:"), NULL, 10) : -1;
}

/* the first line of /proc/stat: every CPU's ticks, and the stolen ones */
static int read_steal(int fd, unsigned long long *steal, unsigned long long *total)
{
	unsigned long long v[8];
	char buf[512];
	int i;

	if (fd < 0 || read_all(fd, buf, sizeof(buf)) < 0)
		return -1;
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	for (*total = 0, i = 0; i < 8; i++)
		*total += v[i];
	*steal = v[7];
	return 0;
}

static void sample_producer(struct prod_files *f, double *share, long *nivcsw)
{
	int sched_fd = __atomic_load_n(&f->sched_fd, __ATOMIC_ACQUIRE);
	unsigned long long run_ns;
	long long at = now_ns();
	long sw;

	*share = NAN;
	*nivcsw = -1;
	if (read_run_ns(sched_fd, &run_ns))
		return;
	sw = read_nivcsw(f->status_fd);
	if (f->last_at_ns && at > f->last_at_ns) {
		*share = (double)(run_ns - f->last_run_ns) / (double)(at - f->last_at_ns);
		if (sw >= 0 && f->last_nivcsw >= 0)
			*nivcsw = sw - f->last_nivcsw;
	}
	f->last_run_ns = run_ns;
	f->last_nivcsw = sw;
	f->last_at_ns = at;
}

void run_contention_sample(struct bench_run *run, struct bench_res *res)
{
	struct run_contention *c = run->cont;
	unsigned long long steal, total;
	int i;

	if (!c || !res->prod_cpu_share)
		return;
	for (i = 0; i < c->nr; i++)
		sample_producer(&c->prod[i], &res->prod_cpu_share[i], &res->prod_nivcsw[i]);
	res->steal_share = NAN;
	if (read_steal(c->proc_stat_fd, &steal, &total))
		return;
	if (c->have_steal && total > c->last_total)
		res->steal_share = (double)(steal - c->last_steal) / (double)(total - c->last_total);
	c->last_steal = steal;
	c->last_total = total;
	c->have_steal = true;
}

void run_contention_rebase(struct bench_run *run)
{
	struct bench_res scratch = {};
	double *share;
	long *sw;

	if (!run->cont)
		return;
	share = calloc(run->cont->nr, sizeof(*share));
	sw = calloc(run->cont->nr, sizeof(*sw));
	if (share && sw) {
		scratch.prod_cpu_share = share;
		scratch.prod_nivcsw = sw;
		run_contention_sample(run, &scratch);
	}
	free(share);
	free(sw);
}

/* producer p's on-CPU share over the measured samples, weighted by their length */
static double measured_share(const struct bench_run *run, int p)
{
	double ran = 0, len = 0;
	int i;

	for (i = 0; i < run_measured_cnt(run); i++) {
		const struct bench_res *r = &run_measured(run)[i];

		if (!r->prod_cpu_share || isnan(r->prod_cpu_share[p]))
			continue;
		ran += r->prod_cpu_share[p] * r->delta_ns;
		len += r->delta_ns;
	}
	return len > 0 ? ran / len : NAN;
}

/*
 * The share of a CPU producer p can have when nothing but the run is on
 * the machine: a whole CPU, or less when the run itself asks for more
 * threads than it has CPUs (upstream's `-p8 -a` on a laptop).  Pinned:
 * one over the run's threads pinned to its CPU; not pinned: the allowed
 * CPUs over the run's threads.  Consumers count, as they may spin too.
 */
static double fair_share(const struct bench_run *run, int p, int allowed_cnt)
{
	int i, cpu = run->prod_cpu ? run->prod_cpu[p] : -1, on_cpu = 0;
	int threads = run->producer_cnt + run->consumer_cnt;

	if (cpu < 0)
		return allowed_cnt > 0 && threads > allowed_cnt ? (double)allowed_cnt / threads : 1;
	for (i = 0; i < run->producer_cnt; i++)
		on_cpu += run->prod_cpu[i] == cpu;
	for (i = 0; run->cons_cpu && i < run->consumer_cnt; i++)
		on_cpu += run->cons_cpu[i] == cpu;
	return 1.0 / on_cpu;
}

static int allowed_cpus(void)
{
	struct cpu_list allowed;
	int n;

	if (allowed_cpu_list(&allowed))
		return 0;
	n = allowed.cnt;
	cpu_list_free(&allowed);
	return n;
}

/* each producer's fair share, and the note saying why it is below a CPU */
static void judge_fair_shares(struct bench_run *run)
{
	int p, allowed = allowed_cpus(), threads = run->producer_cnt + run->consumer_cnt;
	double least = 1;

	for (p = 0; p < run->producer_cnt; p++) {
		run->prod_fair_share[p] = fair_share(run, p, allowed);
		if (run->prod_fair_share[p] < least)
			least = run->prod_fair_share[p];
	}
	if (least >= 1)
		return;
	snprintf(run->validity_note, sizeof(run->validity_note),
		 "the run has %d thread%s (%d producer%s, %d consumer%s) on %d allowed CPU%s: "
		 "a producer is judged against its fair share of a CPU (%s%.0f%%), "
		 "not a whole one, so this alone does not make the run invalid",
		 threads, threads > 1 ? "s" : "", run->producer_cnt,
		 run->producer_cnt > 1 ? "s" : "", run->consumer_cnt,
		 run->consumer_cnt == 1 ? "" : "s", allowed, allowed == 1 ? "" : "s",
		 run->env->affinity ? "down to " : "", 100 * least);
	fprintf(stderr, "note: %s\n", run->validity_note);
}

void run_contention_judge(struct bench_run *run)
{
	double min = run->env->min_cpu_share_pct / 100.0, least = 1;
	char list[160] = "", at[48] = "";
	int p, low = 0, off = 0;

	if (!run->cont)
		return;
	judge_fair_shares(run);
	for (p = 0; p < run->producer_cnt; p++) {
		run->prod_share[p] = measured_share(run, p);
		if (run->prod_fair_share[p] < least)
			least = run->prod_fair_share[p];
		if (isnan(run->prod_share[p]) || run->prod_share[p] >= min * run->prod_fair_share[p])
			continue;
		low++;
		if (off < (int)sizeof(list) - 24)
			off += snprintf(list + off, sizeof(list) - off, "%s#%d %.1f%%",
					low > 1 ? ", " : "", p, 100 * run->prod_share[p]);
	}
	if (!low)
		return;
	if (least < 1)
		snprintf(at, sizeof(at), " of their fair share (%.0f%% of a CPU)", 100 * least);
	if (run->bench->caps & BENCH_CAP_PRODUCERS_SLEEP) {
		run_warn(run, "producers ran less than %.4g%%%s of their measured time (%s); "
			 "%s's producers " RUN_SLEEP_EXEMPT, 100 * min, at, list, run->bench->name);
		return;
	}
	run->invalid = true;
	snprintf(run->invalid_reason, sizeof(run->invalid_reason),
		 "producers starved: %d of %d ran less than %.4g%%%s of their measured time (%s)",
		 low, run->producer_cnt, 100 * min, at, list);
	run_warn(run, "%s; the machine was busy, so this invocation is marked invalid and "
		 "compare, ab, history and plot leave it out (--include-invalid keeps it in "
		 "compare, plot, history add and export; --min-cpu-share 0 marks no run)",
		 run->invalid_reason);
}

/*
 * What the sampler alone uses goes; what a producer thread touches
 * (run->cont, its files) stays until exit(): producers spin until then,
 * and one may open its files after the run ended at its first line.
 */
void run_contention_free(struct bench_run *run)
{
	struct run_contention *c = run->cont;

	if (c) {
		if (c->proc_stat_fd >= 0)
			close(c->proc_stat_fd);
		c->proc_stat_fd = -1;
		free(c->share_store);
		free(c->nivcsw_store);
		c->share_store = NULL;
		c->nivcsw_store = NULL;
	}
	free(run->prod_share);
	run->prod_share = NULL;
	free(run->prod_fair_share);
	run->prod_fair_share = NULL;
}
