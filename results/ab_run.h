/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __AB_RUN_H
#define __AB_RUN_H

/*
 * bench ab's parts, shared by its files: the limits, the options, a run's
 * state, and what each file offers the others (results/ab.c: the blocks,
 * the looks and main; ab_cli.c: the command line; ab_invocation.c: one
 * invocation, its child and its figure; ab_report.c: the report;
 * ab_run.c: the state, clock and figures all of them use).
 */
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <jansson.h>

#include "result_file.h"
#include "sequential.h"
#include "stats.h"

#define AB_MAX_BLOCKS 10000
/* the first look: a spread on 2 degrees of freedom */
#define AB_MIN_BLOCKS 3
/* left-out blocks (starved, or speed changed) beyond which the machine is too busy to go on */
#define AB_MAX_LEFT_OUT(blocks) (3 + (blocks))
/*
 * How far A's and B's machine-speed references (latency.reference, the
 * median of a fixed bpf_loop()) may differ in a pair before the pair ran
 * on two different machines.  This VM's vCPU flips between two speeds:
 * htab-mem overwrite -p1 op_ns 48-50 ns against 83-86 ns (x1.75), a pure
 * CPU loop (count-local) a third of its rate (x1.5); half-flipped
 * invocations stood 56 against 85 ns.  Without a flip, on a machine
 * loaded by other jobs, 6 back-to-back invocations' references read
 * 1122-1273 ns: neighbours up to 13% apart while their op_ns stayed
 * within 3% (README, "The machine's speed").  25% is twice that spread
 * and half a flip; a 10% threshold would leave out sound blocks on a
 * busy machine.
 */
#define AB_SPEED_TOL 0.25
/*
 * --interleave's slice: long enough for 20 or more batches of htab-mem
 * (12-15 us a trigger on this project's VM) and a switch (50-70 us) to
 * cost a few percent; short enough that a vCPU speed change, which lasts
 * from tens of microseconds to hundreds of milliseconds here, mostly
 * covers both slices of a pair
 */
#define AB_SLICE_DEFAULT_US 2000
#define AB_SLICE_MIN_MS 0.5
#define AB_SLICE_MAX_MS 100
#define AB_POWER 0.80
#define AB_MAX_BUDGET (7 * 86400.0)
/*
 * the statistic by default: see docs/statistics-and-noise.md, "Which
 * statistic bench ab uses"
 */
#define AB_DEFAULT_STAT SEQ_STAT_TRIMMED

/*
 * --budget is a hard bound too: an invocation still running at this
 * multiple of it is stopped (a hung one would hold ab for ever)
 */
#define AB_HARD_END 1.25
#define AB_STR_(x) #x
#define AB_STR(x) AB_STR_(x)
/* seconds from the signal that stops an invocation to SIGKILL of its process group */
#define AB_KILL_GRACE 5.0

/* one side: a shell command, or options for this bench binary */
struct ab_side {
	const char *shell;
	char **args;
	int nargs;
};

struct ab_opts {
	double budget;
	int max_blocks;		/* 0: as many as the budget allows */
	const char *dir;
	const char *metric;
	double threshold_pct;
	double alpha;
	enum seq_spending spending;
	bool fixed;		/* --no-early-stop: one look, at the end */
	enum seq_stat stat;	/* --test */
	bool json;		/* --json: stdout carries the report as JSON */
	bool no_speed_check;	/* --no-speed-check */
	bool interleave;	/* --interleave: A and B in one pair of invocations, slice by slice */
	unsigned int slice_us;	/* --slice */
	struct ab_side side[2];
};

extern struct ab_opts aopts;

/* what the last look saw */
struct ab_look {
	int blocks;
	struct seq_est e;	/* log ratio B/A and its repeated interval (lo, hi NaN: none) */
	double nominal;		/* the look's level; NaN: no sequential look, 0: it spends nothing */
	double sd;		/* between the blocks */
	const char *verdict;	/* "better", "worse", "within", or NULL: undecided */
};

struct ab_run {
	pid_t pid;		/* ab's own: its invocations' parent */
	char dir[PATH_MAX];
	char self[PATH_MAX];
	/* the metric, from the first file */
	char metric[128];
	char unit[32];
	bool higher_is_better;
	double rate[2][2 * AB_MAX_BLOCKS];	/* per pair, A's and B's */
	double ref[2][2];	/* this block's pairs' speed references, ns (NaN: none) */
	double block[AB_MAX_BLOCKS];
	int pairs, blocks, invocations;
	/* pairs whose files were written, left-out blocks' too: the next file's number */
	int file_pairs;
	/* blocks left out because an invocation of theirs was invalid (producers starved) */
	int left_out;
	/* blocks left out because A and B of a pair ran at different machine speeds */
	int left_out_speed;
	/* pairs not speed-checked: a file without the reference */
	int unchecked;
	/* invalid invocations kept: the metric is timed inside BPF (op_ns, latency_*) */
	int kept_starved;
	/* the invalid invocation's reason, said once its block is left out */
	char invalid_why[256];
	/*
	 * each side's configuration, its first invocation's (benchmark and
	 * result_config_key()), and its label: every other of the side must
	 * have it, as compare's sides must (ab_side_config())
	 */
	char *side_key[2];
	char side_label[2][256];
	/* why an invocation was refused with -EXDEV: the report's stopped: */
	const char *xdev_why;
	/* invocations set aside: failed, stopped unfinished, finished but unused */
	int failed, stopped_inv, unused;
	struct seq_test seq;
	struct timespec start;
	struct ab_look look;
	const char *stopped;
};

/* the first signal that ended ab, and how many came (ab_run.c) */
extern volatile sig_atomic_t ab_signal, ab_signals;
/* the slots of a block: A B B A (ab.c) */
extern const int block_order[4];

/* ab_run.c */
double ab_elapsed(const struct ab_run *r);
void ab_fmt_time(double s, char *buf, size_t sz);
double ab_pct(double log_ratio);

/* ab_cli.c */
int ab_parse_cmdline(int argc, char **argv);

/* ab_invocation.c */
bool ab_metric_timed_in_bpf(const char *m);
bool ab_speed_checked(const struct ab_run *r);
bool ab_adds_latency(const struct ab_side *sd);
void __attribute__((noreturn)) ab_exec_side(const struct ab_run *r, int pair, int side,
					    const char *json, const char *log);
bool ab_past_hard_end(const struct ab_run *r);
int ab_stop_signal(void);
int ab_wait_side(const struct ab_run *r, pid_t pid, bool *stopped);
const struct result_metric *ab_pick_metric(struct ab_run *r, const struct result_file *rf);
int ab_side_config(struct ab_run *r, int side, const struct result_file *rf, bool say);
void ab_set_aside(const struct ab_run *r, int pair, int side, const char *prefix, char *to,
		  size_t sz);
void ab_say_failed(struct ab_run *r, int pair, int side, int status);
void ab_say_stopped(struct ab_run *r, int pair, int side);
int ab_run_side(struct ab_run *r, int pair, int side, double *value, double *ref);

/* ab_report.c */
void ab_print_progress(const struct ab_run *r);
int ab_report(const struct ab_run *r);

#endif /* __AB_RUN_H */
