// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab: one command that answers "did B move the number against A?"
 * in as little machine time as the answer needs.
 *
 * The design, and why:
 * - Invocations, not samples, are the unit: a fresh process varies more
 *   than the seconds (or repeats) inside one, so each invocation's mean
 *   of its repeat means is one observation, as in `bench compare` with
 *   several files a side.
 * - Blocks of A B B A: the machine drifts over minutes, and in a block a
 *   linear drift adds +d to the first pair's log ratio and -d to the
 *   second's, so the block's mean of its two paired log ratios log(B/A)
 *   has the drift cancelled.  The block mean is the observation the test
 *   uses (n blocks, n - 1 degrees of freedom); the pairs are kept.
 * - Log ratios: a change of the rate is a ratio, its interval stays above
 *   -100%, and A's and B's scales cancel.
 * - A group-sequential test (sequential.c): after every block from the
 *   third it looks, spending alpha by Lan and DeMets' O'Brien-Fleming type
 *   function over the information fraction (blocks / --blocks, or the
 *   share of --budget used), so the false-positive rate over all looks is
 *   alpha while a large change stops it after a few blocks.  O'Brien-
 *   Fleming rather than Pocock: it spends almost nothing early, so the
 *   last look tests at nearly the fixed-sample level and a run that goes
 *   the whole budget loses little power; Pocock (--spending pocock) stops
 *   large changes sooner and pays for it at the end.  An SPRT would need
 *   the spread known in advance; the spread between invocations is
 *   exactly what changes with the hour here.
 * - Each look computes one statistic of the block means (--test: the 20%
 *   trimmed mean and its t-test by default, which a starved invocation
 *   cannot move by its size; the signed-rank test and Hodges-Lehmann; or
 *   the mean and Student's t) and its interval at the boundary's nominal
 *   level: the repeated confidence interval, which covers the change at
 *   every look at once, so it stays honest although the test stopped
 *   where it did.  The verdict is the interval's (significant exactly
 *   when it leaves out 0), and a look at a level below 2^(1 - n) from n
 *   blocks gives no interval and no verdict: "too few pairs".
 * - It stops when the interval leaves out 0 (better or worse), when it
 *   lies inside ±--threshold (no change that large: within), or when the
 *   budget, or --blocks, leaves no room for another block.
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

/* the slots of a block: A B B A */
const int block_order[4] = { 0, 1, 1, 0 };

static void ab_on_signal(int sig)
{
	/* a reader gone raises SIGPIPE at every write after it: no second signal */
	if (sig == SIGPIPE && ab_signal)
		return;
	if (!ab_signal)
		ab_signal = sig;
	ab_signals++;
}

/*
 * The least time an invocation of a side of bench options takes: repeats
 * x (-w + -d) seconds (the runner's defaults 1, 5 and 1), set-up not
 * counted; NaN for a shell command, whose time is known after a block.
 */
static double side_min_secs(const struct ab_side *sd)
{
	double w = 1, d = 5, rep = 1, *v;
	const char *a, *val;
	int i;

	if (sd->shell)
		return NAN;
	for (i = 0; i < sd->nargs; i++) {
		a = sd->args[i];
		v = NULL;
		val = NULL;
		if (!strncmp(a, "-w", 2) || !strncmp(a, "--warmup", 8))
			v = &w;
		else if (!strncmp(a, "-d", 2) || !strncmp(a, "--duration", 10))
			v = &d;
		else if (!strncmp(a, "--repeat", 8))
			v = &rep;
		if (!v)
			continue;
		if (a[1] != '-' && a[2])
			val = a + 2;			/* -w1 */
		else if (strchr(a, '='))
			val = strchr(a, '=') + 1;	/* --warmup=1 */
		else if (i + 1 < sd->nargs)
			val = sd->args[++i];		/* -w 1, --warmup 1 */
		if (val)
			*v = atof(val);
	}
	return rep * (w + d);
}

/* blocks the first look that can decide needs: an interval at alpha (min_obs_for_level) */
static int blocks_needed(void)
{
	int n = min_obs_for_level(aopts.alpha);

	return n > AB_MIN_BLOCKS ? n : AB_MIN_BLOCKS;
}

/*
 * A budget or --blocks that cannot reach a look that decides is refused
 * before anything runs, with the least it needs (set-up not counted).
 * 0, or -EINVAL after one line.
 */
static int check_budget(void)
{
	double inv = fmax(side_min_secs(&aopts.side[0]), side_min_secs(&aopts.side[1]));
	/* a block is 4 invocations one after another, or one interleaved pair at once */
	int need = blocks_needed(), per = aopts.interleave ? 1 : 4;
	char b[32];

	if (aopts.max_blocks && aopts.max_blocks < need) {
		fprintf(stderr, "invalid --blocks %d: a test at alpha %g needs %d blocks or more (with n blocks no test without an assumed distribution gets below 2^(1-n))\n",
			aopts.max_blocks, aopts.alpha, need);
		return -EINVAL;
	}
	if (isnan(inv) || aopts.budget >= need * per * inv)
		return 0;
	ab_fmt_time(aopts.budget, b, sizeof(b));
	fprintf(stderr, "invalid --budget %s: too short for the first look that can decide: %d %s of at least %g s each (repeats x (-w + -d)) need %.0f s and their set-up; give --budget %.0fs or more\n",
		b, need, aopts.interleave ? "interleaved pairs of invocations" :
		"blocks of 4 invocations", inv, need * per * inv, ceil(need * per * inv * 1.25));
	return -EINVAL;
}

/*
 * An existing --out must be empty: ab's files (pair-*, invalid-pair-*,
 * ab.txt) and its bench compare hint's globs must be this run's alone.
 * 0, or a negative errno after one line.
 */
static int check_dir_empty(const char *dir)
{
	struct dirent *e;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "invalid --out '%s': failed to read it: %s\n", dir, strerror(errno));
		return -EINVAL;
	}
	while (!err && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		fprintf(stderr, "invalid --out '%s': not empty (it holds %s): ab's result files and the globs of its bench compare hint must be this run's alone; give a new or empty directory\n",
			dir, e->d_name);
		err = -EEXIST;
	}
	closedir(d);
	return err;
}

/*
 * The result directory: new, or existing and empty, and writable (a full
 * file system is refused here, not after the first invocation).  0, or a
 * negative errno after one line: the directory refused.
 */
static int make_dir(struct ab_run *r)
{
	char name[64], probe[PATH_MAX + 32];
	time_t now = time(NULL);
	struct stat st;
	struct tm tm;
	int err;

	if (!aopts.dir) {
		/* not the current directory, which is often the source tree */
		const char *tmp = getenv("TMPDIR");

		localtime_r(&now, &tm);
		strftime(name, sizeof(name), "bench-ab-%Y%m%d-%H%M%S-XXXXXX", &tm);
		snprintf(probe, sizeof(probe), "%s/%s", tmp && *tmp ? tmp : "/tmp", name);
		if (!mkdtemp(probe)) {
			fprintf(stderr, "failed to create a directory for the results, %s: %s (give -o DIR)\n",
				probe, strerror(errno));
			return -errno;
		}
		aopts.dir = strdup(probe);
		if (!aopts.dir) {
			fprintf(stderr, "failed to allocate ab state: %s\n", strerror(ENOMEM));
			return -ENOMEM;
		}
	} else if (mkdir(aopts.dir, 0777)) {
		if (errno != EEXIST) {
			fprintf(stderr, "invalid --out '%s': failed to create it: %s\n", aopts.dir,
				strerror(errno));
			return -errno;
		}
		err = check_dir_empty(aopts.dir);
		if (err)
			return err;
	}
	if (stat(aopts.dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "invalid --out '%s': not a directory\n", aopts.dir);
		return -EINVAL;
	}
	snprintf(probe, sizeof(probe), "%s/ab.txt", aopts.dir);
	err = output_file_check(probe);
	if (err) {
		fprintf(stderr, "invalid --out '%s': cannot write there: %s\n", aopts.dir,
			strerror(-err));
		return err;
	}
	if (!realpath(aopts.dir, r->dir)) {
		fprintf(stderr, "invalid --out '%s': failed to resolve it: %s\n", aopts.dir,
			strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * A block with an invalid invocation, or whose A and B ran at different
 * machine speeds, is left out whole (counted in *count, why on stderr):
 * its files are renamed invalid-pair-NNN-X.* so that pair-*-A.json and
 * pair-*-B.json stay the pairs that were tested.
 */
static void ab_leave_out_block(struct ab_run *r, int first_pair, int *count, const char *why)
{
	int pair, side;

	for (pair = first_pair; pair < first_pair + 2; pair++)
		for (side = 0; side < 2; side++)
			ab_set_aside(r, pair, side, "invalid", NULL, 0);
	(*count)++;
	fprintf(stderr, "ab: block of pairs %d-%d left out: %s; the block runs again\n",
		first_pair + 1, first_pair + 2, why);
}

static int left_out_total(const struct ab_run *r)
{
	return r->left_out + r->left_out_speed;
}

bool ab_speed_changed(double ref_a, double ref_b, double tol)
{
	if (!(ref_a > 0 && ref_b > 0 && isfinite(ref_a) && isfinite(ref_b)))
		return false;
	return fmax(ref_a, ref_b) / fmin(ref_a, ref_b) - 1 > tol;
}

/*
 * After a pair (file number pair, 0-based): did its A and B run at one
 * machine speed?  0, or -EAGAIN after leaving the block out.  A pair
 * whose files lack the reference is not checked, said once.
 */
static int check_pair_speed(struct ab_run *r, int pair, double ref_a, double ref_b)
{
	char why[256];

	if (!ab_speed_checked(r))
		return 0;
	if (isnan(ref_a) || isnan(ref_b)) {
		if (!r->unchecked++)
			fprintf(stderr, "ab: pair %d: %s's file has no machine-speed reference (latency.reference: written by an older bench or another binary, or no reference loop ran): pairs without one are not speed-checked (said once)\n",
				pair + 1, isnan(ref_a) ? "A" : "B");
		return 0;
	}
	if (!ab_speed_changed(ref_a, ref_b, AB_SPEED_TOL))
		return 0;
	snprintf(why, sizeof(why), "the machine's speed changed between A and B of pair %d: the reference loop took %.1f ns in A, %.1f ns in B (the slower %.2fx the faster, beyond %.2fx; --no-speed-check keeps such blocks)",
		 pair + 1, ref_a, ref_b, fmax(ref_a, ref_b) / fmin(ref_a, ref_b), 1 + AB_SPEED_TOL);
	ab_leave_out_block(r, pair - pair % 2, &r->left_out_speed, why);
	return -EAGAIN;
}

/* ---- the test ---- */

/*
 * The look after a block (final: the last one, which spends what is
 * left); sets r->look and returns true when the answer is decided.
 * Before the third block, and with --no-early-stop before the end, it
 * only fills in the fixed-sample interval for the progress line.  The
 * verdict is the interval's (sequential.c): significant exactly when it
 * leaves out 0, and no verdict from fewer blocks than an interval at the
 * look's level needs.
 */
static bool take_look(struct ab_run *r, bool final)
{
	struct ab_look *lk = &r->look;
	double t, thr = aopts.threshold_pct / 100;
	struct stats st;
	int n = r->blocks, v;

	stats_compute(r->block, n, &st);
	*lk = (struct ab_look){ .blocks = n, .sd = st.stddev, .nominal = NAN };
	if (n < AB_MIN_BLOCKS || (aopts.fixed && !final)) {
		seq_estimate(aopts.stat, r->block, n, 0.05, &lk->e);
		return false;
	}
	t = final ? 1 : aopts.max_blocks ? (double)n / aopts.max_blocks : ab_elapsed(r) / aopts.budget;
	seq_look(&r->seq, n, fmin(t, 1), &lk->nominal);
	seq_estimate(aopts.stat, r->block, n, lk->nominal > 0 ? lk->nominal : 0.05, &lk->e);
	if (!(lk->nominal > 0)) {
		/* this look spends nothing: it can decide nothing */
		lk->nominal = 0;
		lk->e.lo = lk->e.hi = NAN;
		return false;
	}
	v = seq_verdict(&lk->e, log1p(-thr), log1p(thr));
	if (v == 1 || v == -1)
		lk->verdict = (v > 0) == r->higher_is_better ? "better" : "worse";
	else if (v == 2)
		lk->verdict = "within";
	return lk->verdict != NULL;
}

/* before an invocation: -EINTR after a signal, -ETIME past the budget's hard end, else 0 */
static int must_stop(const struct ab_run *r)
{
	if (ab_signal)
		return -EINTR;
	return ab_past_hard_end(r) ? -ETIME : 0;
}

/*
 * One block, A B B A: 0, -EAGAIN (left out), or ab_run_side()'s error.  A
 * block that ends early keeps its whole pair; the finished half of a pair
 * is set aside as unused, so that pair-*-A.json and pair-*-B.json stay
 * the r->pairs pairs.
 */
static int run_block(struct ab_run *r)
{
	int slot, side, pair, file_pair, err;
	double v, d[2];

	for (slot = 0; slot < 4; slot++) {
		side = block_order[slot];
		pair = 2 * r->blocks + slot / 2;
		file_pair = r->file_pairs + slot / 2;
		err = must_stop(r);
		if (!err)
			err = ab_run_side(r, file_pair, side, &v, &r->ref[slot / 2][side]);
		if (err == -EAGAIN) {
			fprintf(stderr, "ab: left out %s/invalid-pair-%03d-%c.json: invalid run: %s\n",
				r->dir, file_pair + 1, 'A' + side, r->invalid_why);
			ab_leave_out_block(r, r->file_pairs, &r->left_out,
					"an invocation's producers were starved");
		} else if (!err && slot % 2) {
			err = check_pair_speed(r, file_pair, r->ref[slot / 2][0], r->ref[slot / 2][1]);
		}
		if (err == -EAGAIN) {
			r->file_pairs += 2;
			r->pairs = 2 * r->blocks;
			return err;
		}
		if (err && slot % 2) {
			r->unused++;
			ab_set_aside(r, file_pair, block_order[slot - 1], "unused", NULL, 0);
		}
		if (err)
			return err;
		r->rate[side][pair] = v;
		if (slot % 2)
			r->pairs++;
	}
	r->file_pairs += 2;
	for (slot = 0; slot < 2; slot++) {
		pair = 2 * r->blocks + slot;
		d[slot] = log(r->rate[1][pair]) - log(r->rate[0][pair]);
	}
	r->block[r->blocks++] = (d[0] + d[1]) / 2;
	return 0;
}

/* ---- --interleave: a pair of invocations at once, slice by slice ---- */

/*
 * --interleave's conditions, before anything runs: two option sets of
 * this binary (its runner takes the turns) and a metric every slice has
 * (op_ns by default).  0, or -EINVAL after one line.
 */
static int check_interleave(void)
{
	if (!aopts.interleave) {
		if (!aopts.slice_us)
			return 0;
		fprintf(stderr, "invalid --slice without --interleave: slices are the interleaved design's\n");
		return -EINVAL;
	}
	if (aopts.side[0].shell || aopts.side[1].shell) {
		fprintf(stderr, "invalid --interleave with --cmd-a/--cmd-b: A and B take turns through this bench binary's runner; give them as -- A-OPTIONS -- B-OPTIONS (two kernels: blocks, or benchs/run_kernel_ab.sh)\n");
		return -EINVAL;
	}
	if (!aopts.metric)
		aopts.metric = "op_ns";
	if (!ab_il_metric_ok(aopts.metric)) {
		fprintf(stderr, "invalid --metric '%s' with --interleave: a slice has op_ns, latency_p50 and latency_p99, the figures timed in BPF; a side's rates and memory count its own slices (leave --interleave out for them)\n",
			aopts.metric);
		return -EINVAL;
	}
	if (!aopts.slice_us)
		aopts.slice_us = AB_SLICE_DEFAULT_US;
	return 0;
}

/* ab's stop policy for an interleaved pair: ab_run_side()'s (ab_wait_side()) */
static int interleaved_stop(void *ctx)
{
	return ab_signal || ab_past_hard_end(ctx) ? ab_stop_signal() : 0;
}

/* in the child of an interleaved pair: the side, as ab_run_side() starts it */
static void exec_interleaved(void *ctx, int pair, int side, const char *json, const char *log)
{
	/* a pair is its own block: BENCH_AB_BLOCK is pair + 1 */
	ab_exec_side(ctx, 2 * pair, side, json, log);
}

/* "producers 1 vs 2, warmup_sec 1 vs 2": the runner options two files differ in */
static int runner_diff(json_t *a, json_t *b, char *out, size_t sz)
{
	json_t *ra = json_object_get(json_object_get(a, "options"), "runner");
	json_t *rb = json_object_get(json_object_get(b, "options"), "runner");
	const char *key;
	char *va, *vb;
	json_t *v;
	int n = 0;

	out[0] = '\0';
	json_object_foreach(ra, key, v) {
		if (json_equal(v, json_object_get(rb, key)))
			continue;
		va = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		vb = json_dumps(json_object_get(rb, key), JSON_ENCODE_ANY | JSON_COMPACT);
		snprintf(out + strlen(out), sz - strlen(out), "%s%s %s vs %s", n++ ? ", " : "",
			 key, va ? va : "?", vb ? vb : "none");
		free(va);
		free(vb);
	}
	return n;
}

/*
 * The first pair's files: the metric (its unit, from A's), and one
 * benchmark with the same runner options on both sides, whose threads
 * take turns on the same CPUs.  0, -ENOENT (no such metric), or -EINVAL
 * after one line.
 */
static int check_interleaved_files(struct ab_run *r, int pair)
{
	struct result_file rf[2];
	char path[2][PATH_MAX + 32], why[512];
	const char *const paths[2] = { path[0], path[1] };
	int loaded, err = 0;

	snprintf(path[0], sizeof(path[0]), "%s/pair-%03d-A.json", r->dir, pair + 1);
	snprintf(path[1], sizeof(path[1]), "%s/pair-%03d-B.json", r->dir, pair + 1);
	if (result_files_load("ab", paths, 2, rf, &loaded))
		err = -EIO;
	else if (!ab_pick_metric(r, &rf[0])) {
		fprintf(stderr, "invalid --metric '%s': %s has no such metric\n", aopts.metric,
			path[0]);
		err = -ENOENT;
	} else if (strcmp(rf[0].benchmark, rf[1].benchmark) ||
		 runner_diff(rf[0].doc, rf[1].doc, why, sizeof(why))) {
		fprintf(stderr, "invalid --interleave: A and B must run one benchmark with the same runner options (only the benchmark's options may differ): %s\n",
			strcmp(rf[0].benchmark, rf[1].benchmark) ? "the benchmarks differ" : why);
		err = -EINVAL;
	}
	while (loaded--)
		result_file_free(&rf[loaded]);
	return err;
}

/* a pair whose slices gave no paired difference: left out, as a starved block is */
static void leave_out_pair(struct ab_run *r, int pair, const struct ab_il_pair *p)
{
	r->left_out++;
	fprintf(stderr, "ab: pair %d left out: no neighbouring slices of A and B with %d batches each (A %d of %d slices short, B %d of %d): the producers hardly ran; another pair runs\n",
		pair + 1, AB_IL_MIN_TRIGGERS, p->few[0], p->slices[0], p->few[1], p->slices[1]);
}

/*
 * One pair of invocations at once, slice by slice (ab_interleaved.c): its
 * estimate is the block's observation.  Which side goes first alternates.
 * 0, -EAGAIN (left out), -EINTR, -ENOENT, -EINVAL or -EIO.
 */
static int run_interleaved(struct ab_run *r)
{
	struct ab_il_spec spec = {
		.dir = r->dir, .slice_us = aopts.slice_us, .metric = aopts.metric,
		.secs = fmax(side_min_secs(&aopts.side[0]), side_min_secs(&aopts.side[1])),
		.exec_side = exec_interleaved, .ctx = r, .stop_now = interleaved_stop,
		.signal = &ab_signal, .signals = &ab_signals, .kill_grace = AB_KILL_GRACE,
	};
	int err, side, pair = r->file_pairs++;
	struct ab_il_pair p;

	err = ab_il_run_pair(&spec, pair, pair % 2, &p);
	r->invocations += p.started;
	if (err == -EIO && p.failed >= 0 && p.status < 0)
		fprintf(stderr, "failed to wait for %c of pair %d: %s\n", 'A' + p.failed, pair + 1,
			strerror(-p.status));
	else if (err == -EIO && p.failed >= 0)
		ab_say_failed(r, pair, p.failed, p.status);
	for (side = 0; (err == -EINTR || err == -ETIME) && side < 2; side++)
		ab_say_stopped(r, pair, side);
	if (!err && !r->metric[0])
		err = check_interleaved_files(r, pair);
	if (err == -ENODATA) {
		leave_out_pair(r, pair, &p);
		return -EAGAIN;
	}
	if (err)
		return err;
	r->rate[0][r->pairs] = p.fig[0];
	r->rate[1][r->pairs] = p.fig[1];
	r->pairs++;
	r->block[r->blocks++] = p.est;
	return 0;
}

/* is there room for another block: --blocks, and the budget at the mean block time */
static bool room_for_block(const struct ab_run *r)
{
	double t = ab_elapsed(r);

	if (r->blocks >= AB_MAX_BLOCKS || (aopts.max_blocks && r->blocks >= aopts.max_blocks))
		return false;
	/* left-out blocks took their time too */
	return t + t / (r->blocks + left_out_total(r)) <= aopts.budget;
}

static int run_blocks(struct ab_run *r)
{
	bool more;
	int err;

	for (;;) {
		err = aopts.interleave ? run_interleaved(r) : run_block(r);
		if (err == -EAGAIN && left_out_total(r) > AB_MAX_LEFT_OUT(r->blocks)) {
			r->stopped = r->left_out_speed > r->left_out ?
				     "too many blocks left out: the machine's speed keeps changing (--no-speed-check keeps such blocks)" :
				     "too many blocks left out: the machine is too busy for this benchmark";
			return -EIO;
		}
		if (err == -EAGAIN) {
			if (room_for_block(r))
				continue;
			if (r->blocks)
				take_look(r, true);
			r->stopped = "the budget leaves no room for another block";
			return 0;
		}
		if (err == -EINTR) {
			r->stopped = ab_signal == SIGTERM ? "interrupted by SIGTERM" :
				     ab_signal == SIGHUP ? "interrupted by SIGHUP" :
				     ab_signal == SIGPIPE ? "a reader of its output went away (SIGPIPE)" :
				     "interrupted by SIGINT";
			return err;
		}
		if (err == -ETIME) {
			r->stopped = "the budget's hard end: an invocation still running was stopped";
			return err;
		}
		if (err == -ENOENT || err == -EINVAL) {
			r->stopped = err == -ENOENT ? "no such metric" :
				     "A's and B's runner options differ (--interleave)";
			return err;
		}
		if (err == -EXDEV) {
			r->stopped = r->xdev_why;
			return -EINVAL;
		}
		if (err) {
			r->stopped = "an invocation failed";
			return err;
		}
		/* a block's time (left-out blocks took theirs too) x the blocks a test needs */
		if (r->blocks == 1 &&
		    ab_elapsed(r) / (1 + left_out_total(r)) * blocks_needed() > aopts.budget) {
			double bt = ab_elapsed(r) / (1 + left_out_total(r));
			char b[32];

			ab_fmt_time(aopts.budget, b, sizeof(b));
			fprintf(stderr, "invalid --budget %s: too short for the first look that can decide: the first block took %.1f s and a test at alpha %g needs %d blocks; give --budget %.0fs or more\n",
				b, bt, aopts.alpha, blocks_needed(), ceil(bt * blocks_needed() * 1.25));
			r->stopped = "the budget is too short for a test";
			take_look(r, false);
			return -E2BIG;
		}
		more = room_for_block(r);
		if (take_look(r, !more)) {
			ab_print_progress(r);
			r->stopped = "decided";
			return 0;
		}
		ab_print_progress(r);
		if (!more) {
			r->stopped = aopts.max_blocks && r->blocks >= aopts.max_blocks ?
				     "--blocks reached" : "the budget leaves no room for another block";
			return 0;
		}
	}
}

int bench_ab_main(int argc, char **argv)
{
	/* SIGPIPE too: stderr's reader gone must not kill ab under a running invocation */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = ab_on_signal }, old[ARRAY_SIZE(sigs)];
	struct ab_run *r;
	ssize_t len;
	int err, i;

	aopts = (struct ab_opts){ .budget = 300, .threshold_pct = 2, .alpha = 0.05,
				  .spending = SEQ_OBRIEN_FLEMING, .stat = AB_DEFAULT_STAT };
	ab_signal = 0;
	err = ab_parse_cmdline(argc, argv);
	if (!err)
		err = check_interleave();
	if (!err)
		err = check_budget();
	if (err)
		return bench_exit_status(err);
	r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "failed to allocate ab state: %s\n", strerror(ENOMEM));
		return BENCH_EXIT_FAILED;
	}
	r->stopped = "not started";
	r->pid = getpid();
	len = readlink("/proc/self/exe", r->self, sizeof(r->self) - 1);
	if (len <= 0) {
		fprintf(stderr, "failed to find this bench binary (/proc/self/exe): %s\n",
			strerror(errno));
		free(r);
		return BENCH_EXIT_FAILED;
	}
	/* a result directory that cannot be had: --out, or TMPDIR without it */
	if (make_dir(r)) {
		free(r);
		return BENCH_EXIT_BAD_INPUT;
	}
	seq_init(&r->seq, aopts.spending, aopts.alpha);
	/* the handler only sets a flag: the wait loop passes it on to the child */
	for (i = 0; i < (int)ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old[i]);
	if (aopts.interleave)
		fprintf(aopts.json ? stderr : stdout, "ab: A and B interleaved in %g-ms slices, a pair of invocations at a time, result files in %s\n",
			aopts.slice_us / 1000.0, r->dir);
	else
		fprintf(aopts.json ? stderr : stdout, "ab: A and B in blocks of A B B A, result files in %s\n",
			r->dir);
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	err = run_blocks(r);
	if (ab_report(r) && !err)
		err = -EIO;
	for (i = 0; i < (int)ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	free(r->side_key[0]);
	free(r->side_key[1]);
	free(r);
	if (err == -EINTR)
		return BENCH_EXIT_SIGNAL + ab_signal;
	/* a --metric, --budget or --interleave that cannot work is a bad argument, found late */
	if (err == -ENOENT || err == -E2BIG || err == -EINVAL)
		return BENCH_EXIT_BAD_INPUT;
	/* anything else that stopped it: an invocation failed */
	return err ? BENCH_EXIT_FAILED : BENCH_EXIT_OK;
}
