/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __COMPARE_H
#define __COMPARE_H

#include <argp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats.h"
#include "verdict.h"

/*
 * The comparison's own options, each long and short: -t/--threshold PCT,
 * -f/--force, -r/--rank, -p/--paired, -T/--trimmed (compare_opts.c).  One
 * argp child that compare and plot compare both take, so that a flag means
 * the same in both; the parent sets its input, the struct compare_params
 * to fill, at ARGP_KEY_INIT (state->child_inputs[i]).
 */
extern const struct argp compare_test_argp;

struct result_file;

/*
 * Are a and b runs of one benchmark and configuration (result_config.h;
 * option `ignore`, e.g. "producers", and zero_seed, which callers check
 * with their own message, aside)?  0 when they are, or when force is set (the difference is then
 * a warning on warn); otherwise -EINVAL after one line on stderr,
 * "<verb>: ... refusing to <verb> ... (--force <verb>s anyway)".
 */
int compare_same_config(const struct result_file *a, const struct result_file *b,
			const char *ignore, bool force, const char *verb, FILE *warn);
/* one side of a comparison: one or more result files of one configuration */
struct compare_side {
	const char *which;	/* "base" or "new" */
	struct result_file *rf;
	int n;
};

/* what a comparison is asked for: compare's and plot's options */
struct compare_params {
	const char *verb;	/* "compare" or "plot", in refusals */
	double threshold_pct;
	bool force;
	bool rank;		/* Mann-Whitney and Hodges-Lehmann instead of Welch */
	bool paired;		/* file i of base with file i of new */
	bool trimmed;		/* --paired: the 20% trimmed mean of the log ratios */
	bool include_invalid;	/* runs marked invalid are kept, marked */
};

/* the unit of replication, the most independent observations the files allow */
enum compare_unit {
	COMPARE_UNIT_SAMPLE,	/* one run per side, no repeats: the per-second samples */
	COMPARE_UNIT_REPEAT,	/* repeats, or several files on one side: the repeat means */
	COMPARE_UNIT_FILE,	/* 2 or more files on each side: the invocation means */
	COMPARE_UNIT_PAIR,	/* --paired: pairs of invocation means */
};

/* "samples", "repeats", "invocations", "pairs" */
const char *compare_unit_name(enum compare_unit unit);

/*
 * One row of a comparison, as bench compare prints it and bench plot
 * compare, --markdown and --json draw it.  By default the change is the
 * ratio of the arithmetic means beside it with Fieller's 95% interval
 * (verdict.h); --rank and --paired give their own estimate and interval,
 * judged by the same rule.  NaN: none.
 */
struct compare_row {
	char name[96];		/* "metric (unit)" */
	char metric[64], unit[32];
	char bs[64], ns[64];	/* the sides as printed: mean ± stddev, or the median */
	double base_sd, new_sd;	/* the spread printed beside base and new (NaN: none) */
	bool median;		/* --rank: base and new are medians, no spread */
	double change_pct, lo_pct, hi_pct;
	double p;		/* NaN: untested */
	struct verdict v;	/* the verdict, its reason and the detectable change */
	const char *verdict;	/* v.text */
	double base, new, resolution;	/* the sides' estimates; the resolution (0: unknown) */
	int na, nb;		/* observations per side */
	int worse;		/* v.fails: worse by the threshold or more */
	bool measured;		/* false: neither side has a value */
	/* runs marked invalid per side, kept by --include-invalid: bs, ns marked */
	int base_invalid, new_invalid;
};

/* the mark of a column whose side has a run marked invalid (--include-invalid) */
#define COMPARE_INVALID_MARK "(!)"

/*
 * The rows of sa against sb: every metric both have, then peak memory
 * where both measured it.  The refusals of bench compare come first (one
 * line on stderr; -EINVAL), its notes and warnings go to notes.  *rows is
 * malloc'ed.  0, -EINVAL or -ENOMEM.
 */
int compare_eval(const struct compare_params *prm, const struct compare_side *sa,
		 const struct compare_side *sb, FILE *notes, struct compare_row **rows,
		 int *nrows, enum compare_unit *unit);

/*
 * bench compare --verbose's report of sa against sb on stdout: the
 * refusals and notes, a row per shared metric with its p-value and the
 * lines under it (the test it was on; with power, --power's estimates),
 * peak memory, the verdict rule, the resolutions, what the test was on.
 * *worse: a metric got worse.  0, or a negative errno after one line.
 */
int compare_print(const struct compare_params *prm, bool power, const struct compare_side *sa,
		  const struct compare_side *sb, int *worse);
/*
 * bench compare's default report (compare_text.c): compare_eval()'s rows
 * as a before/after table within COMPARE_TEXT_WIDTH columns, the metrics
 * 0 on both sides in one line, each verdict's reason once per reason, then
 * the notes and warnings, each file named once.  Same return as above.
 */
int compare_print_table(const struct compare_params *prm, const struct compare_side *sa,
			const struct compare_side *sb, int *worse);
/* a plain-text patch mail's width, and a terminal's */
#define COMPARE_TEXT_WIDTH 80

/* where the runs ran against each other, imports, each noisy file once: notes and warnings on out */
void compare_note_runs(FILE *out, const struct compare_side *sa, const struct compare_side *sb);
/* "warning: PATH (which) was noisy: w1; w2": a file's noise warnings, in one line, or nothing */
void compare_note_noisy(FILE *out, const struct result_file *rf, const char *which);
/* did a file of the side run under TCG (result_emulated())? */
bool compare_side_emulated(const struct compare_side *sd);
/* "89.69 ± 0.60": four significant digits of the mean, the spread (NaN: none) to the same place */
void compare_fmt_side(double mean, double sd, char *buf, size_t sz);
/*
 * text onto out, wrapped at spaces to width columns (a "±" or "→" one
 * column), every line after the first indented by indent spaces
 */
void compare_put_wrapped(FILE *out, const char *text, int width, int indent);
/* what COMPARE_INVALID_MARK means: a line on f per invalid run kept, naming it and why */
void compare_invalid_legend(FILE *f, const struct compare_side *sa, const struct compare_side *sb);

#endif /* __COMPARE_H */
