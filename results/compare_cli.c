// SPDX-License-Identifier: GPL-2.0
/*
 * bench compare's command line: its options, the two sides' files loaded
 * (history:ID among them) with invalid runs left out, one output of three
 * (the text report, --json, --markdown) and the exit status.  The
 * comparison itself is compare.c's; the markdown table compare_md.c's.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_exit.h"
#include "bench_limits.h"
#include "cli_files.h"
#include "cli_json.h"
#include "compare.h"
#include "compare_cli.h"
#include "compare_md.h"
#include "history.h"
#include "result_config.h"
#include "result_file.h"

static struct compare_opts {
	struct compare_params prm;
	bool fail_on_regression;
	bool power;
	bool verbose;
	bool markdown;
	bool json;
	/* BASE... [-- NEW...]: without "--", exactly two files */
	bool sides_split;
	const char *files[BENCH_MAX_FILES];
	int nfiles;
} copts;

static const struct argp_option compare_options[] = {
	{ "fail-on-regression", 'F', NULL, 0, "Exit with status 1 when a metric got worse" },
	{ "power", 'P', NULL, 0,
	  "Estimate, from the spread between the observations, how many repeats (invocations, with several files per side) per side detect a change of the threshold at p < 0.05 with 80% power" },
	{ "verbose", 'v', NULL, 0,
	  "Print the long report instead of the 80-column table: each metric's p-value and test (what it was on, the spread between and within the runs), the resolutions, the verdict rule (--power implies it)" },
	{ "json", 'j', NULL, 0,
	  "Print the comparison as one JSON object on stdout instead (docs/results-and-json.md, \"JSON of the commands\"): the files, the configuration, the unit, every row with its verdict, whether a metric got worse; notes and warnings on stderr" },
	{ "markdown", 'm', NULL, 0,
	  "Print the before/after table of a patch mail instead: one row per configuration (the sides' files grouped by configuration), the rate before and after, its change with the 95% interval, memory and peak memory before and after; notes and warnings on stderr" },
	{},
};

static error_t compare_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		/* the comparison's own options fill copts.prm */
		state->child_inputs[0] = &copts.prm;
		break;
	case 'F':
		copts.fail_on_regression = true;
		break;
	case 'P':
		copts.power = true;
		break;
	case 'v':
		copts.verbose = true;
		break;
	case 'm':
		copts.markdown = true;
		break;
	case 'j':
		copts.json = true;
		break;
	case ARGP_KEY_ARG:
		if (copts.sides_split)
			return cli_take(copts.files, &copts.nfiles, "compare", "result files", arg) ? EINVAL : 0;
		if (copts.nfiles == 2) {
			fprintf(stderr, "compare takes two files, BASE.json and NEW.json; extra argument '%s'\n",
				arg);
			return EINVAL;
		}
		copts.files[copts.nfiles++] = arg;
		break;
	case ARGP_KEY_END:
		if (copts.sides_split)
			break;
		if (copts.nfiles != 2) {
			fprintf(stderr, "compare needs two files, BASE.json and NEW.json (got %d)\n",
				copts.nfiles);
			return EINVAL;
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child compare_children[] = { { &compare_test_argp }, {} };

static const struct argp compare_argp = {
	.options = compare_options,
	.parser = compare_parse,
	.children = compare_children,
	.args_doc = "BASE.json NEW.json\nBASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...]",
	.doc = "Compare `bench --json` results: for every metric both sides share, base "
	       "(before) and new (after) mean ± stddev, the change (the ratio of the means) "
	       "with its 95% interval, and a verdict, as a table within 80 columns; metrics "
	       "0 on both sides in one line, each verdict's reason and every warning after it "
	       "(a noisy file named once).  --verbose adds the p-value of the test (Welch's; "
	       "--rank: Mann-Whitney's; --paired: the paired t-test on log ratios; --paired "
	       "--rank: Wilcoxon's signed-rank test) and what each metric's test was on.  "
	       "Runs under TCG (emulated timings) are said so in every output.  "
	       "The observations: with 2 or more files on each side, each file's mean of its "
	       "repeat means (the invocation is the unit: runs minutes apart drift); otherwise, "
	       "when a side has several repeats (--repeat) or files, the per-repeat means (the "
	       "map instance is the unit; the spread between invocations is not covered); with "
	       "one run per side, the per-second samples (within-run noise only)."
	       "\vExit status: 0; 1 with --fail-on-regression when "
	       "something got worse; 2 when the files cannot be compared (not results, "
	       "damaged or edited, measured nothing, of different benchmarks, or a side "
	       "that is empty or mixes benchmarks, options or seeding).",
};

static json_t *side_files(const struct compare_side *sd)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < sd->n; i++)
		json_array_append_new(a, json_string(sd->rf[i].path));
	return a;
}

/* the runs marked invalid that --include-invalid kept: [{side, file, reason}] */
static json_t *invalid_files(const struct compare_side *sa, const struct compare_side *sb)
{
	const struct compare_side *sd;
	json_t *a = json_array();
	int s, i;

	for (s = 0; s < 2; s++) {
		sd = s ? sb : sa;
		for (i = 0; i < sd->n; i++)
			if (sd->rf[i].invalid)
				json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "side",
						      sd->which, "file", sd->rf[i].path,
						      "reason", sd->rf[i].invalid_reason));
	}
	return a;
}

/* what --fail-on-regression makes of a metric that got worse */
static int regression_status(int worse)
{
	return worse && copts.fail_on_regression ? BENCH_EXIT_FAILED : BENCH_EXIT_OK;
}

/*
 * --json: compare_eval()'s rows in cli_json's envelope; notes on stderr.
 * *worse: a metric got worse.  0, or a negative errno after one line.
 */
static int compare_json(const struct compare_side *sa, const struct compare_side *sb, int *worse)
{
	struct compare_row *rows = NULL;
	enum compare_unit unit;
	int n, i, err;
	char label[256];
	json_t *o;

	err = compare_eval(&copts.prm, sa, sb, stderr, &rows, &n, &unit);
	if (err) {
		free(rows);
		return err;
	}
	*worse = 0;
	for (i = 0; i < n; i++)
		*worse |= rows[i].worse;
	result_config_label(sa->rf[0].doc, label, sizeof(label));
	o = cli_json_new("compare");
	if (o && json_object_update_new(o, json_pack("{s:o, s:o, s:o, s:s, s:s, s:s, s:f, s:o, s:b, s:b, s:i}",
			"base", side_files(sa), "new", side_files(sb),
			"invalid_runs", invalid_files(sa, sb),
			"benchmark", sa->rf[0].benchmark, "configuration", label,
			"unit", compare_unit_name(unit), "threshold_pct", copts.prm.threshold_pct,
			"rows", cli_json_compare_rows(rows, n), "worse", *worse != 0,
			"emulated_timings", compare_side_emulated(sa) || compare_side_emulated(sb),
			"exit_status", regression_status(*worse))))
		o = (json_decref(o), NULL);
	free(rows);
	if (cli_json_print(o)) {
		fprintf(stderr, "compare: failed to render the JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

/* keep the files keep[] says, in order */
static void keep_files(struct compare_side *sd, const bool *keep)
{
	int i, n = 0;

	for (i = 0; i < sd->n; i++) {
		if (keep[i])
			sd->rf[n++] = sd->rf[i];
		else
			result_file_free(&sd->rf[i]);
	}
	sd->n = n;
}

/*
 * Invalid runs (their producers were starved) are left out, each named
 * with its reason; with --paired a pair goes whole, so that the rest stay
 * paired.  With include (--include-invalid) they stay, named and marked.  0, -EINVAL when a side has nothing left, or -ENOMEM, after one
 * line.
 */
static int leave_out_invalid(struct compare_side *a, struct compare_side *b, bool paired,
			     bool include)
{
	int i, na = a->n, nb = b->n, n = na > nb ? na : nb;
	bool *ka = calloc(n + 1, sizeof(bool)), *kb = calloc(n + 1, sizeof(bool));
	int ret = 0;

	if (!ka || !kb) {
		free(ka);
		free(kb);
		fprintf(stderr, "failed to allocate compare state: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < na; i++)
		ka[i] = result_file_kept(&a->rf[i], "compare", include);
	for (i = 0; i < nb; i++)
		kb[i] = result_file_kept(&b->rf[i], "compare", include);
	for (i = 0; paired && na == nb && i < na; i++)
		ka[i] = kb[i] = ka[i] && kb[i];
	keep_files(a, ka);
	keep_files(b, kb);
	free(ka);
	free(kb);
	if (a->n < na || b->n < nb)
		fprintf(stderr, "compare: left out %d of %d base and %d of %d new files as invalid runs (producers starved)%s; --include-invalid keeps them, marked\n",
			na - a->n, na, nb - b->n, nb, paired ? ", whole pairs" : "");
	if (!a->n || !b->n) {
		fprintf(stderr, "compare: no valid %s file left: nothing to compare\n",
			a->n ? "new" : "base");
		ret = -EINVAL;
	}
	return ret;
}

/* a side's files, loaded and checked: 0, or -EINVAL (a file refused) or -ENOMEM after one line */
static int load_side(struct compare_side *sd, const char *which, const char *const *files, int n)
{
	char msg[512];
	int i, err;

	sd->which = which;
	sd->n = 0;
	sd->rf = calloc(n, sizeof(*sd->rf));
	if (!sd->rf) {
		fprintf(stderr, "failed to allocate compare state: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		/* history:ID is a run stored by bench history add */
		err = history_is_spec(files[i]) ?
		      history_load_result(files[i], &sd->rf[i], msg, sizeof(msg)) :
		      result_file_load(files[i], &sd->rf[i], msg, sizeof(msg));
		if (err) {
			if (*msg)
				fprintf(stderr, "compare: %s\n", msg);
			return err == -ENOMEM ? err : -EINVAL;
		}
		sd->n++;
	}
	return 0;
}

static void free_side(struct compare_side *sd)
{
	int i;

	for (i = 0; i < sd->n; i++)
		result_file_free(&sd->rf[i]);
	free(sd->rf);
}

int bench_compare_main(int argc, char **argv)
{
	struct compare_side a = {}, b = {};
	int err, i, split = 0, nbase, worse = 0;

	copts = (struct compare_opts){ .prm = { .threshold_pct = 2.0, .verb = "compare" } };
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			split = i;
			break;
		}
	copts.sides_split = split > 0;
	if (argp_parse(&compare_argp, split ? split : argc, argv, 0, NULL, NULL))
		return BENCH_EXIT_BAD_INPUT;
	nbase = copts.nfiles;
	if (split) {
		for (i = split + 1; i < argc; i++)
			if (cli_take(copts.files, &copts.nfiles, "compare", "result files", argv[i]))
				return BENCH_EXIT_BAD_INPUT;
		if (!nbase) {
			fprintf(stderr, "compare: no BASE result file before '--' (usage: BASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...])\n");
			return BENCH_EXIT_BAD_INPUT;
		}
		if (copts.nfiles == nbase) {
			fprintf(stderr, "compare: no NEW result file after '--' (usage: BASE1.json [BASE2.json...] -- NEW1.json [NEW2.json...])\n");
			return BENCH_EXIT_BAD_INPUT;
		}
	} else {
		nbase = 1;
	}
	err = load_side(&a, "base", copts.files, nbase);
	if (!err)
		err = load_side(&b, "new", copts.files + nbase, copts.nfiles - nbase);
	if (!err)
		err = leave_out_invalid(&a, &b, copts.prm.paired, copts.prm.include_invalid);
	if (!err && copts.json && copts.markdown) {
		fprintf(stderr, "compare: --json and --markdown are two outputs: give one\n");
		err = -EINVAL;
	} else if (!err && copts.json) {
		err = compare_json(&a, &b, &worse);
	} else if (!err && copts.markdown) {
		err = compare_markdown(&copts.prm, &a, &b, &worse);
	} else if (!err && (copts.verbose || copts.power)) {
		err = compare_print(&copts.prm, copts.power, &a, &b, &worse);
	} else if (!err) {
		err = compare_print_table(&copts.prm, &a, &b, &worse);
	}
	free_side(&a);
	free_side(&b);
	return err ? BENCH_EXIT_COMPARE_TROUBLE : regression_status(worse);
}
