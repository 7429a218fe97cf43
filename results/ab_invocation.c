// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab's invocations: one side run as a child under the budget's hard
 * end, its exit and log, its result file's metric, configuration and figure,
 * and a failed or stopped invocation set aside (moved from ab.c unchanged).
 */
#define _GNU_SOURCE
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "ab_interleaved.h"
#include "bench.h"		/* ARRAY_SIZE() */
#include "bench_exit.h"
#include "cli_json.h"
#include "latency.h"
#include "output_file.h"
#include "result_config.h"
#include "result_file.h"
#include "sequential.h"
#include "stats.h"
#include "ab_run.h"

/* ---- one invocation ---- */

/*
 * The per-op metrics (op_ns, latency_*) exist only with --latency: ab
 * adds it to a side of bench options that lacks it, and says so.
 */
bool ab_metric_timed_in_bpf(const char *m)
{
	return m && (!strcmp(m, "op_ns") || !strncmp(m, "latency_", 8));
}

/* is the metric one whose pairs the speed check applies to */
bool ab_speed_checked(const struct ab_run *r)
{
	/* interleaved slices take turns within milliseconds: no pair spans two speeds */
	return !aopts.no_speed_check && !aopts.interleave && ab_metric_timed_in_bpf(r->metric);
}

bool ab_adds_latency(const struct ab_side *sd)
{
	int i;

	if (sd->shell || !ab_metric_timed_in_bpf(aopts.metric))
		return false;
	for (i = 0; i < sd->nargs; i++)
		if (!strcmp(sd->args[i], "--latency"))
			return false;
	return true;
}

/* the child: its own process group, output to its log, then the command */
void __attribute__((noreturn)) ab_exec_side(const struct ab_run *r, int pair, int side,
					    const char *json, const char *log)
{
	const struct ab_side *sd = &aopts.side[side];
	char **argv, block[16];
	int fd, i;

	setpgid(0, 0);
	/* ab killed by SIGKILL, which it cannot pass on: the invocation is told too */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != r->pid)
		_exit(126);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(126);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 0) < 0)
		_exit(126);
	setenv("BENCH_AB_JSON", json, 1);
	setenv("BENCH_AB_DIR", r->dir, 1);
	setenv("BENCH_AB_SIDE", side ? "B" : "A", 1);
	/* the block's number (a re-run block gets a new one): A and B of one block share it */
	snprintf(block, sizeof(block), "%d", pair / 2 + 1);
	setenv("BENCH_AB_BLOCK", block, 1);
	if (sd->shell) {
		execl("/bin/sh", "sh", "-c", sd->shell, (char *)NULL);
		fprintf(stderr, "failed to run /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	argv = calloc(sd->nargs + 5, sizeof(*argv));
	if (!argv)
		_exit(126);
	argv[0] = (char *)r->self;
	argv[1] = "--json";
	argv[2] = (char *)json;
	for (i = 0; i < sd->nargs; i++)
		argv[3 + i] = sd->args[i];
	if (ab_adds_latency(sd))
		argv[3 + i] = "--latency";
	execv(r->self, argv);
	fprintf(stderr, "failed to run %s: %s\n", r->self, strerror(errno));
	_exit(127);
}

bool ab_past_hard_end(const struct ab_run *r)
{
	return ab_elapsed(r) > aopts.budget * AB_HARD_END;
}

/* the signal that stops an invocation: ab's own, passed on, or SIGTERM at the hard end */
int ab_stop_signal(void)
{
	return ab_signal == SIGHUP || ab_signal == SIGINT ? ab_signal : SIGTERM;
}

/*
 * Wait for the child, polling so that a signal to us, or the budget's
 * hard end, is seen at once.  Either stops it: its process group (a
 * shell's children too) gets ab_stop_signal(), then SIGKILL AB_KILL_GRACE s
 * later or at a second signal to ab.  A stopped child's group is swept
 * with SIGKILL once it has exited, while its zombie still holds the
 * group's id, then it is reaped.  The wait status, or -errno; *stopped:
 * whether ab stopped it.
 */
int ab_wait_side(const struct ab_run *r, pid_t pid, bool *stopped)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	double kill_at = INFINITY;
	int status, seen = 0;
	siginfo_t si;

	*stopped = false;
	for (;;) {
		si.si_pid = 0;
		if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) && errno != EINTR)
			return -errno;
		if (si.si_pid == pid)
			break;
		if (!*stopped && (ab_signal || ab_past_hard_end(r))) {
			kill(-pid, ab_stop_signal());
			*stopped = true;
			seen = ab_signals;
			kill_at = ab_elapsed(r) + AB_KILL_GRACE;
		} else if (*stopped && (ab_elapsed(r) >= kill_at || ab_signals > seen)) {
			kill(-pid, SIGKILL);
			kill_at = INFINITY;
			seen = ab_signals;
		}
		nanosleep(&tick, NULL);
	}
	if (*stopped)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return status;
}

/*
 * The last lines of a failed invocation's output, on stderr; for an empty
 * one, why the directory may have kept nothing (a full file system)
 */
static void print_log_tail(const struct ab_run *r, const char *log)
{
	char line[512], tail[3][512] = {}, probe[PATH_MAX + 16];
	FILE *f = fopen(log, "r");
	int n = 0, i, err;

	if (f) {
		while (fgets(line, sizeof(line), f))
			snprintf(tail[n++ % 3], sizeof(tail[0]), "%s", line);
		fclose(f);
	}
	for (i = n > 3 ? n - 3 : 0; i < n; i++)
		fprintf(stderr, "  | %s%s", tail[i % 3], strchr(tail[i % 3], '\n') ? "" : "\n");
	if (n)
		return;
	snprintf(probe, sizeof(probe), "%s/ab.txt", r->dir);
	err = output_file_check(probe);
	fprintf(stderr, "  (nothing: %s%s)\n", err ? "the directory cannot be written: " : "it printed nothing",
		err ? strerror(-err) : "");
}

/* the metric ab tests: --metric, or the first one measured per sample */
const struct result_metric *ab_pick_metric(struct ab_run *r, const struct result_file *rf)
{
	const struct result_metric *m = NULL;
	int i;

	if (r->metric[0])
		return result_file_metric(rf, r->metric);
	if (aopts.metric) {
		m = result_file_metric(rf, aopts.metric);
	} else {
		for (i = 0; i < rf->nmetrics && !m; i++)
			if (!rf->metrics[i].own_values && rf->metrics[i].st.n)
				m = &rf->metrics[i];
		if (!m && rf->nmetrics)
			m = &rf->metrics[0];
	}
	if (m) {
		snprintf(r->metric, sizeof(r->metric), "%s", m->name);
		snprintf(r->unit, sizeof(r->unit), "%s", m->unit);
		r->higher_is_better = m->higher_is_better;
	}
	return m;
}

/*
 * op_ns: the median of all the run's measured batches (its histogram),
 * interpolated, rather than the mean of each second's: one second whose
 * batches all ran slow (a neighbour thrashing the cache) moves a mean of
 * two or three seconds by a third, the pooled median by a few percent.
 * Every other metric: the mean of its repeat means.
 */
static double invocation_figure(const struct result_file *rf, const struct result_metric *m)
{
	double med;
	__u64 counts[LAT_NR_BUCKETS];
	int i;

	if (strcmp(m->name, "op_ns") || !rf->lat_counts || !rf->lat_ops_per_trigger)
		return m->tl.mean;
	for (i = 0; i < LAT_NR_BUCKETS; i++)
		counts[i] = rf->lat_counts[i];
	med = lat_median_interp(counts);
	return isfinite(med) ? med / rf->lat_ops_per_trigger : m->tl.mean;
}

/*
 * Is rf of the configuration of side's first invocation (which sets it)?
 * 0; -EXDEV, after a line if say, for another benchmark or options, which
 * compare would refuse as sides: a mixed side tests nothing; -ENOMEM.
 */
int ab_side_config(struct ab_run *r, int side, const struct result_file *rf, bool say)
{
	char *key = result_config_key(rf->doc), *both = NULL, label[256];

	if (!key || asprintf(&both, "%s\n%s", rf->benchmark, key) < 0) {
		free(key);
		fprintf(stderr, "ab: failed to read %s's configuration: %s\n", rf->path, strerror(ENOMEM));
		return -ENOMEM;
	}
	free(key);
	result_config_label(rf->doc, label, sizeof(label));
	if (!r->side_key[side]) {
		r->side_key[side] = both;
		snprintf(r->side_label[side], sizeof(r->side_label[side]), "%.63s %.180s",
			 rf->benchmark, label);
		return 0;
	}
	if (!strcmp(both, r->side_key[side])) {
		free(both);
		return 0;
	}
	free(both);
	if (say)
		fprintf(stderr, "ab: %s: %s %s, but %c's first invocation was %s: refusing to test a side of two configurations (bench compare refuses them as sides too)\n",
			rf->path, rf->benchmark, label, 'A' + side, r->side_label[side]);
	r->xdev_why = "a side's invocations are not of one configuration";
	return -EXDEV;
}

/*
 * The invocation's figure: its mean of repeat means (op_ns: above), which
 * must be positive; and its machine-speed reference (NaN: none).  0;
 * -EAGAIN for an invalid run (r->invalid_why says why); else -ENOENT (no
 * such metric), -EXDEV (not the side's configuration: ab_side_config(); or
 * not the unit of the invocations before) or
 * -EINVAL, after a line if say: ab_run_side() asks again,
 * saying it, once the file has the name it keeps.
 */
static int invocation_value(struct ab_run *r, int side, const char *json, bool say, double *value,
			    double *ref)
{
	const struct result_metric *m;
	struct result_file rf;
	char err[512];
	int ret = 0;

	if (result_file_load(json, &rf, err, sizeof(err))) {
		if (say)
			fprintf(stderr, "ab: %s\n", err);
		return -EINVAL;
	}
	if (result_file_summary_only(&rf)) {
		if (say)
			fprintf(stderr, "ab: %s: imported without samples (summary only): no figure per invocation (the text had no Iter lines)\n",
				json);
		result_file_free(&rf);
		return -EINVAL;
	}
	ret = ab_side_config(r, side, &rf, say);
	if (ret) {
		result_file_free(&rf);
		return ret;
	}
	m = ab_pick_metric(r, &rf);
	if (rf.invalid && ab_metric_timed_in_bpf(r->metric)) {
		/* a starved producer is not timed while off its CPU: the figure holds */
		if (!r->kept_starved++)
			fprintf(stderr, "ab: %s: %s; kept: %s is timed inside BPF, where a producer off its CPU is not timed (said once)\n",
				json, rf.invalid_reason, r->metric);
	}
	if (rf.invalid && !ab_metric_timed_in_bpf(r->metric)) {
		/* said once its file has the name it keeps: ab_leave_out_block() */
		snprintf(r->invalid_why, sizeof(r->invalid_why), "%s", rf.invalid_reason);
		ret = -EAGAIN;
	} else if (!m) {
		char names[512] = "";
		int i;

		for (i = 0; i < rf.nmetrics && strlen(names) < sizeof(names) - 64; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", rf.metrics[i].name);
		if (say)
			fprintf(stderr, "invalid --metric '%s': %s has no such metric; it has: %s\n",
				r->metric[0] ? r->metric : aopts.metric ? aopts.metric : "?", json,
				*names ? names : "none");
		ret = -ENOENT;
	} else if (strcmp(m->unit, r->unit)) {
		/* 182 K/s is not 182 M/s: a ratio of the numbers would be one of the units */
		if (say)
			fprintf(stderr, "ab: %s: summary.metrics.%s.unit: \"%s\", but the invocations before had \"%s\": refusing a ratio of two units (bench compare refuses them too)\n",
				json, m->name, m->unit, r->unit);
		r->xdev_why = "the metric's unit is not one across the invocations";
		ret = -EXDEV;
	} else if (!(m->tl.mean > 0) || !isfinite(m->tl.mean)) {
		if (say)
			fprintf(stderr, "ab: %s: summary.metrics.%s: mean %g: a ratio needs a positive figure\n",
				json, m->name, m->tl.mean);
		ret = -EINVAL;
	} else {
		*value = invocation_figure(&rf, m);
		*ref = rf.lat_ref_ns;
	}
	result_file_free(&rf);
	return ret;
}

/*
 * An invocation's files (pair 0-based) renamed PREFIX-pair-NNN-X.json and
 * .log, out of the pair-*-A.json and pair-*-B.json that were tested; the
 * new JSON path into to, when given
 */
void ab_set_aside(const struct ab_run *r, int pair, int side, const char *prefix, char *to,
		  size_t sz)
{
	static const char *const ext[2] = { "json", "log" };
	char from[PATH_MAX + 32], dest[PATH_MAX + 48];
	int e;

	for (e = 0; e < 2; e++) {
		snprintf(from, sizeof(from), "%s/pair-%03d-%c.%s", r->dir, pair + 1, 'A' + side,
			 ext[e]);
		snprintf(dest, sizeof(dest), "%s/%s-pair-%03d-%c.%s", r->dir, prefix, pair + 1,
			 'A' + side, ext[e]);
		if (rename(from, dest) && errno != ENOENT)
			fprintf(stderr, "failed to rename %s: %s\n", from, strerror(errno));
		if (!e && to)
			snprintf(to, sz, "%s", dest);
	}
}

/* a finished invocation that failed: its files set aside, its output's end shown */
void ab_say_failed(struct ab_run *r, int pair, int side, int status)
{
	char json[PATH_MAX + 48], log[PATH_MAX + 48];

	r->failed++;
	ab_set_aside(r, pair, side, "failed", json, sizeof(json));
	snprintf(log, sizeof(log), "%.*s.log", (int)(strlen(json) - 5), json);
	fprintf(stderr, "ab: %c of pair %d failed (%s %d); its output, %s, ends:\n", 'A' + side,
		pair + 1, WIFSIGNALED(status) ? "signal" : "exit",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), log);
	print_log_tail(r, log);
}

/* an invocation ab stopped before it finished: its files set aside, said */
void ab_say_stopped(struct ab_run *r, int pair, int side)
{
	char json[PATH_MAX + 48];

	r->stopped_inv++;
	ab_set_aside(r, pair, side, "stopped", json, sizeof(json));
	if (!ab_signal)
		fprintf(stderr, "ab: %c of pair %d was still running at the budget's hard end (%.4g s, %g x --budget): stopped; its output is %.*s.log\n",
			'A' + side, pair + 1, aopts.budget * AB_HARD_END, AB_HARD_END,
			(int)(strlen(json) - 5), json);
}

/*
 * Run one invocation of side for pair (0-based).  0; -EAGAIN (invalid,
 * its block to be left out); -EINTR (a signal) or -ETIME (the budget's
 * hard end) when ab stopped it unfinished; -ENOENT (no such metric) or
 * -EIO after a line.  One that finished is counted, whatever ab was
 * doing meanwhile; its files keep their pair-* names only when usable.
 */
int ab_run_side(struct ab_run *r, int pair, int side, double *value, double *ref)
{
	char json[PATH_MAX + 48], log[PATH_MAX + 32];
	bool stopped;
	int status;
	pid_t pid;

	snprintf(json, sizeof(json), "%s/pair-%03d-%c.json", r->dir, pair + 1, 'A' + side);
	snprintf(log, sizeof(log), "%s/pair-%03d-%c.log", r->dir, pair + 1, 'A' + side);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "failed to start invocation %c of pair %d: %s\n", 'A' + side,
			pair + 1, strerror(errno));
		return -EIO;
	}
	if (!pid)
		ab_exec_side(r, pair, side, json, log);
	setpgid(pid, pid);
	status = ab_wait_side(r, pid, &stopped);
	if (status < 0) {
		fprintf(stderr, "failed to wait for invocation %c of pair %d: %s\n", 'A' + side,
			pair + 1, strerror(-status));
		return -EIO;
	}
	if (stopped && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		ab_say_stopped(r, pair, side);
		return ab_signal ? -EINTR : -ETIME;
	}
	r->invocations++;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ab_say_failed(r, pair, side, status);
		return -EIO;
	}
	status = invocation_value(r, side, json, false, value, ref);
	if (!status || status == -EAGAIN)
		return status;
	r->unused++;
	ab_set_aside(r, pair, side, "unused", json, sizeof(json));
	invocation_value(r, side, json, true, value, ref);
	return status == -ENOENT || status == -EXDEV ? status : -EIO;
}
