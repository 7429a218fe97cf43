// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab's report: the progress line, ab.txt and ab.json and their words
 * (moved from ab.c unchanged).
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

/* "95% RCI -1.00% .. +2.00%", or why there is none */
static void fmt_interval(const struct ab_look *lk, const char *what, char *buf, size_t sz)
{
	if (!isnan(lk->e.lo))
		snprintf(buf, sz, "%s %+.2f%% .. %+.2f%%", what, ab_pct(lk->e.lo), ab_pct(lk->e.hi));
	else if (lk->blocks < lk->e.need)
		snprintf(buf, sz, "too few pairs for a %s: %d blocks, an interval at level %.3g needs %d",
			 what, lk->blocks, lk->e.level, lk->e.need);
	else
		snprintf(buf, sz, "no %s: the rank test has none at level %.3g from %d blocks", what,
			 lk->e.level, lk->blocks);
}

/* the test's statistic against its bound */
static void fmt_stat(const struct ab_look *lk, char *buf, size_t sz)
{
	if (aopts.stat == SEQ_STAT_RANK)
		snprintf(buf, sz, "signed-rank p %.3g against %.3g", lk->e.p, lk->nominal);
	else
		snprintf(buf, sz, "|t| %.2f against %.2f, level %.3g", lk->e.stat, lk->e.crit,
			 lk->nominal);
}

void ab_print_progress(const struct ab_run *r)
{
	const struct ab_look *lk = &r->look;
	char when[32], iv[160], st[96];

	ab_fmt_time(ab_elapsed(r), when, sizeof(when));
	fmt_stat(lk, st, sizeof(st));
	if (r->blocks < 2) {
		snprintf(iv, sizeof(iv), "no interval before block 2");
	} else if (isnan(lk->nominal)) {
		fmt_interval(lk, "fixed-sample 95% CI", iv, sizeof(iv));
		snprintf(iv + strlen(iv), sizeof(iv) - strlen(iv), ", %s",
			 r->blocks < AB_MIN_BLOCKS ? "first look at block 3" : "tested once at the end");
	} else if (lk->nominal == 0) {
		snprintf(iv, sizeof(iv), "this look spends no alpha");
	} else {
		fmt_interval(lk, "95% RCI", iv, sizeof(iv));
		snprintf(iv + strlen(iv), sizeof(iv) - strlen(iv), "; %s", st);
	}
	fprintf(stderr, "ab: block %d: %d pairs, %d invocations, %s: B/A %+.2f%% (%s)\n", r->blocks,
		r->pairs, r->invocations, when, ab_pct(lk->e.est), iv);
}

/* the smallest change the last look's test detects with 80% power, as a percent */
static double detectable(const struct ab_run *r)
{
	return ab_pct(seq_detectable(&r->look.e, AB_POWER));
}

/* what the statistic estimates, and its test */
static const char *stat_estimate(void)
{
	return aopts.stat == SEQ_STAT_RANK ? "Hodges-Lehmann estimate (median of the blocks' Walsh averages)" :
	       aopts.stat == SEQ_STAT_TRIMMED ? "20% trimmed mean of the blocks" : "mean of the blocks";
}

static const char *stat_test(void)
{
	return aopts.stat == SEQ_STAT_RANK ? "Wilcoxon's signed-rank test (--test rank)" :
	       aopts.stat == SEQ_STAT_TRIMMED ? "Tukey-McLaughlin's trimmed t-test (--test trimmed)" :
	       "Student's t-test (--test t)";
}

/*
 * The smallest change the run's test finds 4 times in 5 at the spread
 * seen: its resolution, which says nothing of a change found beyond it
 */
static void print_detectable(FILE *f, const struct ab_run *r, double d)
{
	const struct ab_look *lk = &r->look;
	double est = fabs(ab_pct(lk->e.est));
	char lvl[64];

	if (isnan(d)) {
		fprintf(f, "smallest change detectable: n/a (%s)\n",
			lk->blocks < AB_MIN_BLOCKS ? "no test was taken" : "no interval at the last look");
		return;
	}
	if (isnan(lk->nominal))
		snprintf(lvl, sizeof(lvl), "a fixed test at p < 0.05");
	else
		snprintf(lvl, sizeof(lvl), "the last look's level %.3g", lk->nominal);
	fprintf(f, "smallest change detectable in what it ran: %.2f%% (found 4 times in 5 by this test at %s, %d blocks, at the spread seen: between-block stddev of log(B/A) %.4f)\n",
		d, lvl, lk->blocks, lk->sd);
	if (lk->verdict && strcmp(lk->verdict, "within"))
		fprintf(f, "  that is the run's resolution, not a bound on the change: the change found, %.2f%%, is %s it and significant; its size is the interval above\n",
			est, est >= d ? "larger than" : "smaller than");
	else
		fprintf(f, "  a change of that size or more would have been found 4 times in 5; a smaller one could go unseen here\n");
}

static void print_side(FILE *f, int side)
{
	const struct ab_side *sd = &aopts.side[side];
	int i;

	fprintf(f, "%c: ", 'A' + side);
	if (sd->shell)
		fprintf(f, "%s", sd->shell);
	else
		for (i = 0; i < sd->nargs; i++)
			fprintf(f, "%s%s", i ? " " : "bench ", sd->args[i]);
	if (ab_adds_latency(sd))
		fprintf(f, " --latency (added by ab: --metric %s needs it)", aopts.metric);
	fprintf(f, "\n");
}

/* which design ran, as the report's design line starts */
static const char *design_words(void)
{
	static char buf[256];

	if (!aopts.interleave)
		return "blocks of A B B A, each block's mean log(B/A) one observation";
	snprintf(buf, sizeof(buf), "interleaved: A and B at once, taking turns in %g-ms slices, each pair of invocations' 20%% trimmed mean of its neighbouring slices' log(B/A) one observation",
		 aopts.slice_us / 1000.0);
	return buf;
}

/* what one figure of the metric is */
static const char *metric_words(const struct ab_run *r)
{
	if (aopts.interleave)
		return !strcmp(r->metric, "op_ns") ? "slice's median batch, per op" :
		       "slice's percentile of its batches, per op";
	return !strcmp(r->metric, "op_ns") ? "invocation's median batch of all its measured seconds, per op" :
	       "invocation's mean of its repeat means";
}

/* the speed check's line (BPF-timed metrics only): what it left out, or why it did not check */
static void print_speed_check(FILE *f, const struct ab_run *r)
{
	if (!ab_metric_timed_in_bpf(r->metric))
		return;
	if (aopts.interleave) {
		fprintf(f, "speed check: none needed: A's and B's slices alternated every %g ms, so each pair of slices ran at one machine speed\n",
			aopts.slice_us / 1000.0);
		return;
	}
	if (aopts.no_speed_check) {
		fprintf(f, "speed check: off (--no-speed-check): blocks whose A and B ran at different machine speeds are kept\n");
		return;
	}
	if (r->left_out_speed)
		fprintf(f, "left out: %d block%s whose A and B ran at different machine speeds (the slower reference loop beyond %.2fx the faster); their files are %s/invalid-pair-*\n",
			r->left_out_speed, r->left_out_speed == 1 ? "" : "s", 1 + AB_SPEED_TOL,
			r->dir);
	if (r->unchecked)
		fprintf(f, "speed check: %d pair%s not checked: a file without the machine-speed reference (latency.reference)\n",
			r->unchecked, r->unchecked == 1 ? "" : "s");
}

/*
 * Where the files are, and a bench compare of the pairs when there are
 * pairs: its globs match exactly the r->pairs pairs tested (the files set
 * aside have other names)
 */
static void print_files(FILE *f, const struct ab_run *r)
{
	if (aopts.interleave) {
		fprintf(f, "files: %s (pair-NNN.json: a pair's slices of A and B, their paired differences and its estimate; pair-NNN-A.json, -B.json: the sides' result files, whose rates count their own slices only)\n",
			r->dir);
		return;
	}
	if (!r->pairs) {
		fprintf(f, "files: %s (no pair finished: nothing for bench compare)\n", r->dir);
		return;
	}
	fprintf(f, "files: %s (bench compare --paired%s --force '%s'/pair-*-A.json -- '%s'/pair-*-B.json: the same test on the pairs rather than the blocks)\n",
		r->dir, aopts.stat == SEQ_STAT_RANK ? " --rank" :
		aopts.stat == SEQ_STAT_TRIMMED ? " --trimmed" : "", r->dir, r->dir);
}

/* side's figures over the pairs the blocks used: mean, stddev, count */
static void side_stats(const struct ab_run *r, int side, struct stats *st)
{
	stats_compute(r->rate[side], 2 * r->blocks, st);
}

/* A's and B's own figures, beside their ratio */
static void print_values(FILE *f, const struct ab_run *r)
{
	struct stats a, b;

	side_stats(r, 0, &a);
	side_stats(r, 1, &b);
	if (!a.n || !b.n)
		return;
	fprintf(f, "values: A %.6g ± %.3g %s, B %.6g ± %.3g %s (mean ± stddev of the %d + %d invocations the blocks used)\n",
		a.mean, a.stddev, r->unit, b.mean, b.stddev, r->unit, a.n, b.n);
}

/* a side's figures as JSON: null where no block finished */
static json_t *values_json(const struct ab_run *r, int side)
{
	struct stats st;

	side_stats(r, side, &st);
	if (!st.n)
		return json_null();
	return json_pack("{s:f, s:o, s:i}", "mean", st.mean, "spread",
			 st.n > 1 ? json_real(st.stddev) : json_null(), "n", st.n);
}

/* a test was taken: a look from the third block on with an interval */
static bool test_taken(const struct ab_look *lk)
{
	return lk->blocks >= AB_MIN_BLOCKS && isfinite(lk->e.lo) && isfinite(lk->e.hi);
}

static void print_report(FILE *f, const struct ab_run *r)
{
	const struct ab_look *lk = &r->look;
	char used[32], budget[32], iv[192], st[96];
	double d = detectable(r);
	int unused = r->pairs - 2 * r->blocks;

	print_side(f, 0);
	print_side(f, 1);
	if (!r->metric[0])
		fprintf(f, "metric: %s: not in the result files\n", aopts.metric ? aopts.metric : "?");
	else
		fprintf(f, "metric: %s (%s, %s is better): each %s\n", r->metric,
			r->unit, r->higher_is_better ? "higher" : "lower", metric_words(r));
	fprintf(f, "design: %s; %s; %s, %s; two-sided alpha %g; information: %s\n",
		design_words(), stat_test(), aopts.spending == SEQ_POCOCK ? "Pocock-type alpha spending" :
		"O'Brien-Fleming-type alpha spending (Lan-DeMets)",
		aopts.fixed ? "one look, at the end (--no-early-stop)" :
		"a look after every block from the 3rd",
		aopts.alpha, aopts.max_blocks ? "blocks done / --blocks" : "share of the budget used");
	fmt_interval(lk, isnan(lk->nominal) ? "fixed-sample 95% interval" :
		     "95% repeated confidence interval", iv, sizeof(iv));
	fmt_stat(lk, st, sizeof(st));
	if (!lk->blocks)
		fprintf(f, "change: n/a: no block finished\n");
	else if (lk->blocks < AB_MIN_BLOCKS)
		fprintf(f, "change: B vs A %+.2f%% over %d block%s, untested: the first look is at block %d\n",
			ab_pct(lk->e.est), lk->blocks, lk->blocks == 1 ? "" : "s", AB_MIN_BLOCKS);
	else if (!isnan(lk->nominal))
		fprintf(f, "change: B vs A %+.2f%%, the %s (%s; %s of look %d)\n", ab_pct(lk->e.est),
			stat_estimate(), iv, st, r->seq.looks);
	else
		fprintf(f, "change: B vs A %+.2f%%, the %s (%s: no sequential look was taken)\n",
			ab_pct(lk->e.est), stat_estimate(), iv);
	if (lk->verdict && !strcmp(lk->verdict, "within"))
		fprintf(f, "verdict: within ±%g%%: no change of %g%% or more (the interval lies inside)\n",
			aopts.threshold_pct, aopts.threshold_pct);
	else if (lk->verdict)
		fprintf(f, "verdict: %s (significant: the interval leaves out 0; %s the %g%% threshold)\n",
			lk->verdict,
			fabs(ab_pct(lk->e.est)) >= aopts.threshold_pct ? "at least" : "but smaller than",
			aopts.threshold_pct);
	else if (lk->blocks >= AB_MIN_BLOCKS && isnan(lk->e.lo) && lk->blocks < lk->e.need)
		fprintf(f, "verdict: undecided: too few pairs: %d blocks, and a test at the last look's level %.3g needs %d\n",
			lk->blocks, lk->e.level, lk->e.need);
	else
		fprintf(f, "verdict: undecided: neither a change nor its absence (±%g%%) shown in what it ran\n",
			aopts.threshold_pct);
	ab_fmt_time(ab_elapsed(r), used, sizeof(used));
	ab_fmt_time(aopts.budget, budget, sizeof(budget));
	fprintf(f, "used: %d blocks, %d pairs, %d invocations, %s of a %s budget; stopped: %s\n",
		r->blocks, r->pairs, r->invocations, used, budget, r->stopped);
	if (unused > 0)
		fprintf(f, "  (%d pair%s of the unfinished block not used)\n", unused,
			unused == 1 ? "" : "s");
	if (r->failed || r->stopped_inv || r->unused)
		fprintf(f, "set aside, out of the pairs: %d failed, %d stopped unfinished, %d finished without a usable pair; their files are %s/{failed,stopped,unused}-pair-*\n",
			r->failed, r->stopped_inv, r->unused, r->dir);
	if (r->kept_starved)
		fprintf(f, "kept: %d invocation%s whose producers were starved: %s is timed inside BPF, which a producer off its CPU does not move\n",
			r->kept_starved, r->kept_starved == 1 ? "" : "s", r->metric);
	if (r->left_out && aopts.interleave)
		fprintf(f, "left out: %d pair%s of invocations without neighbouring slices of A and B of %d batches each (the producers hardly ran)\n",
			r->left_out, r->left_out == 1 ? "" : "s", AB_IL_MIN_TRIGGERS);
	else if (r->left_out)
		fprintf(f, "left out: %d block%s with an invalid invocation (producers starved: the machine was busy); their files are %s/invalid-pair-*\n",
			r->left_out, r->left_out == 1 ? "" : "s", r->dir);
	print_speed_check(f, r);
	print_values(f, r);
	print_detectable(f, r, d);
	print_files(f, r);
}

/* a side as its report line gives it: the shell command, or bench's options */
static json_t *side_json(int side)
{
	const struct ab_side *sd = &aopts.side[side];
	json_t *a;
	int i;

	if (sd->shell)
		return json_pack("{s:s}", "shell", sd->shell);
	a = json_array();
	for (i = 0; i < sd->nargs; i++)
		json_array_append_new(a, json_string(sd->args[i]));
	if (ab_adds_latency(sd))
		json_array_append_new(a, json_string("--latency"));
	return json_pack("{s:o}", "bench_args", a);
}

static json_t *pct_json(double log_ratio)
{
	return isfinite(log_ratio) ? json_real(ab_pct(log_ratio)) : json_null();
}

/* the report as data: what print_report() says, in the bench-cli envelope */
static json_t *report_json(const struct ab_run *r)
{
	const struct ab_look *lk = &r->look;
	json_t *o = cli_json_new("ab");
	double d = detectable(r);

	if (!o)
		return NULL;
	json_object_update_new(o, json_pack("{s:o, s:o, s:s, s:s, s:b, s:s, s:f, s:f}",
		"a", side_json(0), "b", side_json(1),
		"metric", r->metric[0] ? r->metric : "", "unit", r->unit,
		"higher_is_better", r->higher_is_better, "test", seq_stat_name(aopts.stat),
		"alpha", aopts.alpha, "threshold_pct", aopts.threshold_pct));
	json_object_update_new(o, json_pack("{s:s, s:o}",
		"design", aopts.interleave ? "interleaved" : "blocks",
		"slice_ms", aopts.interleave ? json_real(aopts.slice_us / 1000.0) : json_null()));
	json_object_update_new(o, json_pack("{s:b, s:i, s:i}",
		"speed_check", ab_speed_checked(r), "left_out_speed_blocks", r->left_out_speed,
		"speed_unchecked_pairs", r->unchecked));
	json_object_update_new(o, json_pack("{s:i, s:i, s:i}", "failed_invocations", r->failed,
		"stopped_invocations", r->stopped_inv, "unused_invocations", r->unused));
	json_object_update_new(o, json_pack("{s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:s}",
		"blocks", r->blocks, "pairs", r->pairs, "invocations", r->invocations,
		"left_out_blocks", r->left_out, "kept_starved", r->kept_starved,
		"elapsed_sec", ab_elapsed(r), "budget_sec", aopts.budget,
		"stopped", r->stopped ? r->stopped : ""));
	json_object_update_new(o, json_pack("{s:o, s:[o, o], s:o, s:o, s:s, s:o, s:s}",
		"change_pct", lk->blocks ? pct_json(lk->e.est) : json_null(),
		"interval_pct", test_taken(lk) ? pct_json(lk->e.lo) : json_null(),
		test_taken(lk) ? pct_json(lk->e.hi) : json_null(),
		"p", test_taken(lk) && isfinite(lk->e.p) ? json_real(lk->e.p) : json_null(),
		"level", test_taken(lk) && lk->nominal > 0 ? json_real(lk->nominal) : json_null(),
		"verdict", lk->verdict ? lk->verdict : "undecided",
		"detectable_pct", isfinite(d) ? json_real(d) : json_null(), "dir", r->dir));
	json_object_update_new(o, json_pack("{s:o, s:o}", "a_value", values_json(r, 0),
		"b_value", values_json(r, 1)));
	return o;
}

/* a report file beside the result files, whole or not at all: 0, or -errno after a line */
static int write_report_file(const struct ab_run *r, const char *name, const char *text)
{
	char path[PATH_MAX + 16];
	int err;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	err = output_file_write(path, text, strlen(text));
	if (err)
		fprintf(stderr, "failed to write %s: %s\n", path, strerror(-err));
	return err;
}

/*
 * The report on stdout (text, or --json; main checks stdout), and both
 * into the directory as ab.txt and ab.json: 0, or -errno after a line
 */
int ab_report(const struct ab_run *r)
{
	char *text = NULL, *js = NULL, *line = NULL;
	json_t *o = report_json(r);
	size_t len = 0;
	FILE *f;
	int err;

	f = open_memstream(&text, &len);
	if (f) {
		print_report(f, r);
		if (fclose(f))
			text = (free(text), NULL);
	}
	js = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(o);
	if (text && js && asprintf(&line, "%s\n", js) < 0)
		line = NULL;
	if (!line) {
		fprintf(stderr, "failed to render the report: %s\n", strerror(ENOMEM));
		err = -ENOMEM;
		goto out;
	}
	fputs(aopts.json ? line : text, stdout);
	err = write_report_file(r, "ab.txt", text);
	if (!err)
		err = write_report_file(r, "ab.json", line);
out:
	free(text);
	free(js);
	free(line);
	return err;
}
