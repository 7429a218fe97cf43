// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab --interleave: a pair of invocations run at once, taking turns
 * on the producers' CPUs slice by slice, and the statistic of its slices.
 *
 * Why: this project's vCPUs change speed unseen, from tens of
 * microseconds to seconds at a time (op_ns 160 against 215 ns within
 * one invocation on an AMD EPYC vCPU, idle or beside a CPU hog).  A
 * block of whole invocations straddles such changes, and its A and B
 * then measure two machines.  Slices of a few milliseconds that
 * alternate A B A B put A and B under the same state, again and again:
 * every neighbouring pair of slices (half with A first, half with B
 * first, so a drift inside a pair cancels) gives one log ratio, and the
 * trimmed mean of an invocation pair's hundreds of them is one
 * observation of ab's sequential test.  The invocation pair, not the
 * slice pair, is the unit: a map's random hash seed and its place in
 * memory are drawn once per invocation, and the test must see that
 * spread too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab_interleaved.h"
#include "output_file.h"
#include "stats.h"

/* a side's set-up, its samples and a margin: what the records are sized for */
#define AB_IL_SLACK_SEC 30

bool ab_il_metric_ok(const char *metric)
{
	return metric && (!strcmp(metric, "op_ns") || !strcmp(metric, "latency_p50") ||
			  !strcmp(metric, "latency_p99"));
}

double ab_il_figure(const struct slice_rec *r, const char *metric)
{
	if (!strcmp(metric, "latency_p50"))
		return r->p50_ns;
	if (!strcmp(metric, "latency_p99"))
		return r->p99_ns;
	return r->op_ns;
}

static int by_seq(const void *a, const void *b)
{
	const struct slice_rec *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* a slice whose figure a pair may use */
static bool usable(const struct slice_rec *r, const char *metric)
{
	double v = ab_il_figure(r, metric);

	return r->measured && r->triggers >= AB_IL_MIN_TRIGGERS && v > 0 && isfinite(v);
}

/* each side's measured slices, those with too few batches, and their median figure */
static void side_figures(const struct slice_rec *rec, int n, const char *metric,
			 struct ab_il_pair *out)
{
	double *v = calloc(n + 1, sizeof(*v));
	struct stats st;
	int side, i, k;

	for (side = 0; side < SLICE_SIDES; side++) {
		out->slices[side] = out->few[side] = 0;
		for (i = 0, k = 0; i < n; i++) {
			if (rec[i].side != (__u32)side || !rec[i].measured)
				continue;
			out->slices[side]++;
			if (!usable(&rec[i], metric))
				out->few[side]++;
			else if (v)
				v[k++] = ab_il_figure(&rec[i], metric);
		}
		stats_compute(v, v ? k : 0, &st);
		out->fig[side] = st.n ? st.median : NAN;
	}
	free(v);
}

/*
 * The paired differences of records sorted by seq: A1 B1, B1 A2, A2 B2,
 * ...: every neighbouring pair of usable slices, in both orders, gives
 * log(B/A) into d[m] and its first slice's seq into first[m] (may be
 * NULL).  Returns m.
 */
static int differences(const struct slice_rec *s, int n, const char *metric, double *d,
		       __u64 *first)
{
	int i, m = 0;

	for (i = 0; i + 1 < n; i++) {
		const struct slice_rec *x = &s[i], *y = &s[i + 1];
		const struct slice_rec *a = x->side ? y : x, *b = x->side ? x : y;

		if (y->seq != x->seq + 1 || x->side == y->side || !usable(x, metric) ||
		    !usable(y, metric))
			continue;
		if (first)
			first[m] = x->seq;
		d[m++] = log(ab_il_figure(b, metric)) - log(ab_il_figure(a, metric));
	}
	return m;
}

/* the estimate from m differences; 0 or -ENODATA */
static int trimmed_estimate(const double *d, int m, struct ab_il_pair *out)
{
	struct log_change lc;

	out->est = NAN;
	out->used = 0;
	if (!m || trimmed_t(d, m, AB_IL_TRIM, 0.05, &lc))
		return -ENODATA;
	out->est = lc.est;
	out->used = m;
	return 0;
}

int ab_il_estimate(const struct slice_rec *rec, int n, const char *metric, struct ab_il_pair *out)
{
	struct slice_rec *s = malloc((n + 1) * sizeof(*s));
	double *d = malloc((n + 1) * sizeof(*d));
	int err = -ENOMEM;

	side_figures(rec, n, metric, out);
	out->est = NAN;
	out->used = 0;
	if (s && d) {
		memcpy(s, rec, n * sizeof(*s));
		qsort(s, n, sizeof(*s), by_seq);
		err = trimmed_estimate(d, differences(s, n, metric, d, NULL), out);
	}
	free(s);
	free(d);
	return err;
}

/* at most this many records (64 MiB): a longer run keeps its first ones */
#define AB_IL_MAX_RECS (1U << 20)

/*
 * A new gate for one pair, side first's turn first.  Zeroed here, so
 * that its pages are ab's and not charged to a side's memory cgroup.
 * The gate, or NULL after one line.
 */
static struct slice_gate *gate_new(const struct ab_il_spec *spec, int first, int *fd, size_t *len)
{
	double recs = 2 * (spec->secs + AB_IL_SLACK_SEC) * 1e6 / spec->slice_us + 64;
	unsigned int cap = recs < AB_IL_MAX_RECS ? (unsigned int)recs : AB_IL_MAX_RECS;
	struct slice_gate *g;

	*len = slice_gate_size(cap);
	*fd = memfd_create("bench-ab-gate", MFD_CLOEXEC);
	if (*fd < 0 || ftruncate(*fd, *len)) {
		fprintf(stderr, "failed to create the interleaved run's shared memory: %s\n",
			strerror(errno));
		if (*fd >= 0)
			close(*fd);
		return NULL;
	}
	g = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (g == MAP_FAILED) {
		fprintf(stderr, "failed to map the interleaved run's shared memory: %s\n",
			strerror(errno));
		close(*fd);
		return NULL;
	}
	memset(g, 0, *len);
	*g = (struct slice_gate){ .magic = SLICE_GATE_MAGIC, .version = SLICE_GATE_VERSION,
				  .slice_us = spec->slice_us, .cap = cap, .turn = first };
	return g;
}

/* in the child: the gate's fd survives exec and is named in $BENCH_AB_GATE */
static void __attribute__((noreturn)) start_side(const struct ab_il_spec *spec, int fd, int pair,
						 int side, const char *json, const char *log)
{
	char num[16];

	if (fcntl(fd, F_SETFD, 0))
		_exit(126);
	snprintf(num, sizeof(num), "%d", fd);
	setenv("BENCH_AB_GATE", num, 1);
	spec->exec_side(spec->ctx, pair, side, json, log);
	_exit(127);
}

static bool exited_ok(int status)
{
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/* the first side to fail: ab gives up on the other, which waits no more and is stopped */
static void give_up(struct slice_gate *g, pid_t *pid, int side, int status, struct ab_il_pair *out)
{
	if (out->failed >= 0)
		return;
	out->failed = side;
	out->status = status;
	__atomic_store_n(&g->abort, 1, __ATOMIC_RELEASE);
	if (pid[!side] > 0)
		kill(-pid[!side], SIGTERM);
}

/* both sides' process groups get sig */
static void signal_sides(const pid_t *pid, int sig)
{
	int side;

	for (side = 0; side < SLICE_SIDES; side++)
		if (pid[side] > 0)
			kill(-pid[side], sig);
}

/* the seconds since start */
static double since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - start->tv_sec + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/*
 * ab's stop policy, once a tick: its signal, or the budget's hard end,
 * stops both sides (and ab gives up on the pair); kill_grace later, or at
 * a further signal to ab, SIGKILL.  *stopped: ab stopped them.
 */
static void police(const struct ab_il_spec *spec, struct slice_gate *g, const pid_t *pid,
		   bool *stopped, struct timespec *at, int *seen)
{
	int sig;

	if (!*stopped) {
		sig = spec->stop_now(spec->ctx);
		if (!sig)
			return;
		__atomic_store_n(&g->abort, 1, __ATOMIC_RELEASE);
		signal_sides(pid, sig);
		*stopped = true;
		*seen = *spec->signals;
		clock_gettime(CLOCK_MONOTONIC, at);
	} else if (since(at) >= spec->kill_grace || *spec->signals > *seen) {
		signal_sides(pid, SIGKILL);
		*seen = *spec->signals;
		clock_gettime(CLOCK_MONOTONIC, at);
	}
}

/*
 * A side that has exited: what it left in its group killed first when ab
 * stopped it (while its zombie still holds the group's id), then reaped.
 * Its pid, 0 while it runs, or -errno.
 */
static pid_t reap_side(pid_t pid, bool sweep, int *status)
{
	siginfo_t si = { .si_pid = 0 };

	if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == EINTR ? 0 : -errno;
	if (si.si_pid != pid)
		return 0;
	if (sweep)
		kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return pid;
}

/*
 * Both sides reaped, polling so that ab's stop policy is seen at once.
 * 0, -EINTR (ab's signal stopped them), -ETIME (the budget's hard end),
 * -EIO (a side failed: out->failed).
 */
static int wait_sides(const struct ab_il_spec *spec, struct slice_gate *g, pid_t *pid,
		      struct ab_il_pair *out)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	int side, status, seen = 0, left = (pid[0] > 0) + (pid[1] > 0);
	bool stopped = false;
	struct timespec at;
	pid_t w;

	while (left) {
		police(spec, g, pid, &stopped, &at, &seen);
		for (side = 0; side < SLICE_SIDES; side++) {
			w = pid[side] > 0 ? reap_side(pid[side], stopped, &status) : 0;
			if (!w)
				continue;
			pid[side] = 0;
			left--;
			if (!stopped && (w < 0 || !exited_ok(status)))
				give_up(g, pid, side, w < 0 ? (int)w : status, out);
		}
		if (left)
			nanosleep(&tick, NULL);
	}
	if (stopped)
		return *spec->signal ? -EINTR : -ETIME;
	return out->failed >= 0 ? -EIO : 0;
}

/* the slices as columns: seq, side ("ABAB..."), times, batches, figures, measured */
static json_t *slices_json(const struct slice_rec *s, int n)
{
	json_t *col[8], *o;
	char *sides = malloc(n + 1);
	int i, k;

	for (k = 0; k < 8; k++)
		col[k] = json_array();
	for (i = 0; i < n; i++) {
		json_array_append_new(col[0], json_integer((json_int_t)s[i].seq));
		json_array_append_new(col[1], json_integer(s[i].start_ns));
		json_array_append_new(col[2], json_integer(s[i].end_ns));
		json_array_append_new(col[3], json_integer((json_int_t)s[i].triggers));
		json_array_append_new(col[4], isfinite(s[i].op_ns) ? json_real(s[i].op_ns) : json_null());
		json_array_append_new(col[5], isfinite(s[i].p50_ns) ? json_real(s[i].p50_ns) : json_null());
		json_array_append_new(col[6], isfinite(s[i].p99_ns) ? json_real(s[i].p99_ns) : json_null());
		json_array_append_new(col[7], json_boolean(s[i].measured));
		if (sides)
			sides[i] = s[i].side ? 'B' : 'A';
	}
	if (sides)
		sides[n] = '\0';
	o = json_pack("{s:o, s:s?, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "seq", col[0],
		      "side", sides, "start_ns", col[1], "end_ns", col[2], "triggers", col[3],
		      "op_ns", col[4], "latency_p50", col[5], "latency_p99", col[6],
		      "measured", col[7]);
	free(sides);
	return o;
}

/* the paired differences: each slice pair's first seq and its log(B/A) */
static json_t *differences_json(const double *d, const __u64 *first, int m)
{
	json_t *seq = json_array(), *lr = json_array();
	int i;

	for (i = 0; i < m; i++) {
		json_array_append_new(seq, json_integer((json_int_t)first[i]));
		json_array_append_new(lr, json_real(d[i]));
	}
	return json_pack("{s:o, s:o}", "first_seq", seq, "log_ratio", lr);
}

static json_t *estimate_json(const struct ab_il_pair *p)
{
	return json_pack("{s:s, s:o, s:o, s:i, s:{s:i, s:i}, s:{s:i, s:i}, s:{s:o, s:o}}",
			 "statistic", "20% trimmed mean of the slice pairs' log(B/A)",
			 "log_ratio", isfinite(p->est) ? json_real(p->est) : json_null(),
			 "change_pct", isfinite(p->est) ? json_real((exp(p->est) - 1) * 100) : json_null(),
			 "slice_pairs", p->used, "measured_slices", "A", p->slices[0], "B", p->slices[1],
			 "few_batches", "A", p->few[0], "B", p->few[1],
			 "median", "A", isfinite(p->fig[0]) ? json_real(p->fig[0]) : json_null(),
			 "B", isfinite(p->fig[1]) ? json_real(p->fig[1]) : json_null());
}

/* DIR/pair-NNN.json: both sides' slices, their paired differences, the estimate */
static int write_pair_file(const struct ab_il_spec *spec, int pair, int first,
			   const struct slice_rec *s, int n, const double *d, const __u64 *seq,
			   int m, const struct ab_il_pair *p)
{
	char path[PATH_MAX + 32], a[32], b[32], *text;
	json_t *o;
	int err;

	snprintf(path, sizeof(path), "%s/pair-%03d.json", spec->dir, pair + 1);
	snprintf(a, sizeof(a), "pair-%03d-A.json", pair + 1);
	snprintf(b, sizeof(b), "pair-%03d-B.json", pair + 1);
	o = json_pack("{s:s, s:i, s:i, s:s, s:f, s:s, s:{s:s, s:s}, s:o, s:o, s:o}",
		      "schema", "bench-ab-interleaved", "schema_version", 1, "pair", pair + 1,
		      "first", first ? "B" : "A", "slice_ms", spec->slice_us / 1000.0,
		      "metric", spec->metric, "sides", "A", a, "B", b,
		      "slices", slices_json(s, n), "differences", differences_json(d, seq, m),
		      "estimate", estimate_json(p));
	text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(o);
	err = text ? output_file_write(path, text, strlen(text)) : -ENOMEM;
	free(text);
	if (err)
		fprintf(stderr, "failed to write %s: %s\n", path, strerror(-err));
	return err;
}

/* a finished pair's records, sorted by seq, into the estimate and DIR/pair-NNN.json */
static int settle_pair(const struct ab_il_spec *spec, int pair, int first, struct slice_gate *g,
		       struct ab_il_pair *out)
{
	int n = g->nrec < g->cap ? (int)g->nrec : (int)g->cap, m, err;
	double *d = malloc((n + 1) * sizeof(*d));
	__u64 *seq = malloc((n + 1) * sizeof(*seq));

	if (!d || !seq) {
		free(d);
		free(seq);
		fprintf(stderr, "failed to allocate the slice pairs: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	qsort(g->rec, n, sizeof(*g->rec), by_seq);
	side_figures(g->rec, n, spec->metric, out);
	m = differences(g->rec, n, spec->metric, d, seq);
	err = trimmed_estimate(d, m, out);
	if (write_pair_file(spec, pair, first, g->rec, n, d, seq, m, out))
		err = -EIO;
	free(d);
	free(seq);
	return err;
}

/* start side of pair: its pid, or -1 after one line (out says it failed) */
static pid_t fork_side(const struct ab_il_spec *spec, struct slice_gate *g, int fd, int pair,
		       int side, pid_t *pid, struct ab_il_pair *out)
{
	char json[PATH_MAX + 32], log[PATH_MAX + 32];
	pid_t p;

	snprintf(json, sizeof(json), "%s/pair-%03d-%c.json", spec->dir, pair + 1, 'A' + side);
	snprintf(log, sizeof(log), "%s/pair-%03d-%c.log", spec->dir, pair + 1, 'A' + side);
	fflush(NULL);
	p = fork();
	if (!p)
		start_side(spec, fd, pair, side, json, log);
	if (p < 0) {
		fprintf(stderr, "failed to start %c of pair %d: %s\n", 'A' + side, pair + 1,
			strerror(errno));
		give_up(g, pid, side, -errno, out);
		return -1;
	}
	setpgid(p, p);
	return p;
}

int ab_il_run_pair(const struct ab_il_spec *spec, int pair, int first, struct ab_il_pair *out)
{
	pid_t pid[SLICE_SIDES] = { 0, 0 };
	struct slice_gate *g;
	int fd, side, err;
	size_t len;

	*out = (struct ab_il_pair){ .est = NAN, .failed = -1 };
	g = gate_new(spec, first, &fd, &len);
	if (!g)
		return -ENOMEM;
	for (side = 0; side < SLICE_SIDES && out->failed < 0; side++) {
		pid[side] = fork_side(spec, g, fd, pair, side, pid, out);
		out->started += pid[side] > 0;
	}
	close(fd);
	err = wait_sides(spec, g, pid, out);
	if (!err)
		err = settle_pair(spec, pair, first, g, out);
	munmap(g, len);
	return err;
}
