// SPDX-License-Identifier: GPL-2.0
/*
 * The options of the comparison itself, as one argp child that bench
 * compare and bench plot compare both take, so that a flag, short or long,
 * means the same in both: -t/--threshold, -f/--force, -r/--rank,
 * -p/--paired, -T/--trimmed, -I/--include-invalid.  The parent hands it the struct
 * compare_params to fill (argp's child input, set at ARGP_KEY_INIT).
 */
#include <argp.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare.h"

static const struct argp_option compare_test_options[] = {
	{ "threshold", 't', "PCT", 0,
	  "Smallest change in percent that counts (default 2)" },
	{ "force", 'f', NULL, 0,
	  "Compare (or draw together) runs of different benchmarks or options" },
	{ "rank", 'r', NULL, 0,
	  "Test with Mann-Whitney's rank-sum test and estimate the change by the Hodges-Lehmann shift of the log observations, with its distribution-free interval, instead of Welch's t-test on the logs; with --paired, Wilcoxon's signed-rank test and the Hodges-Lehmann estimate of the log ratios" },
	{ "paired", 'p', NULL, 0,
	  "The files of the two sides are pairs, in the order given (BASE1 with NEW1, ...; as bench ab writes them): a paired t-test on log(new/base) of the files' means" },
	{ "trimmed", 'T', NULL, 0,
	  "With --paired: the 20% trimmed mean of the log ratios and its t-test (Tukey-McLaughlin), bench ab's default, which a starved invocation among the trimmed cannot move" },
	{ "include-invalid", 'I', NULL, 0,
	  "Keep runs marked invalid (validity.valid false: their producers were starved), each named with its reason and its side's column marked " COMPARE_INVALID_MARK ", instead of leaving them out" },
	{},
};

/* --threshold PCT: 0, or EINVAL (argp's) after one line naming the value and what is accepted */
static error_t parse_threshold(const char *arg, double *pct)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !(v >= 0 && v <= 1000)) {
		fprintf(stderr, "invalid --threshold '%s': expected a percentage in 0..1000\n", arg);
		return EINVAL;
	}
	*pct = v;
	return 0;
}

static error_t compare_test_parse(int key, char *arg, struct argp_state *state)
{
	struct compare_params *prm = state->input;

	switch (key) {
	case 't':
		return parse_threshold(arg, &prm->threshold_pct);
	case 'f':
		prm->force = true;
		break;
	case 'r':
		prm->rank = true;
		break;
	case 'p':
		prm->paired = true;
		break;
	case 'T':
		prm->trimmed = true;
		break;
	case 'I':
		prm->include_invalid = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp compare_test_argp = {
	.options = compare_test_options,
	.parser = compare_test_parse,
};
