// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab's command line: its options, their values' checks, and where
 * A's and B's own arguments begin (moved from ab.c unchanged).
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

int ab_parse_duration(const char *s, double *sec)
{
	double total = 0;
	const char *p = s;
	char *end;
	long v;

	if (!*s)
		return -EINVAL;
	while (*p) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v > 1000000)
			return -EINVAL;
		switch (*end) {
		case 'h':
			total += v * 3600.0;
			end++;
			break;
		case 'm':
			total += v * 60.0;
			end++;
			break;
		case 's':
			end++;
			/* fall through */
		case '\0':
			total += v;
			break;
		default:
			return -EINVAL;
		}
		p = end;
	}
	if (!(total >= 1 && total <= AB_MAX_BUDGET))
		return -EINVAL;
	*sec = total;
	return 0;
}

/* ---- the command line ---- */

enum { ARG_BLOCKS = 1000, ARG_SPENDING, ARG_NO_EARLY_STOP, ARG_CMD_A, ARG_CMD_B, ARG_METRIC,
       ARG_TEST, ARG_JSON, ARG_NO_SPEED_CHECK, ARG_INTERLEAVE, ARG_SLICE };

static const struct argp_option ab_options[] = {
	{ "budget", 'b', "TIME", 0,
	  "Machine time at most, e.g. 300, 90s, 5m, 1h30m (default 5m); a block starts only if it is expected to fit, and an invocation still running at " AB_STR(AB_HARD_END) " x TIME is stopped" },
	{ "blocks", ARG_BLOCKS, "N", 0,
	  "At most N blocks (A B B A each); the information fraction is then blocks / N instead of the share of the budget" },
	{ "out", 'o', "DIR", 0,
	  "Keep the result files in DIR (created; default a new bench-ab-DATE-TIME-XXXXXX under $TMPDIR, or /tmp)" },
	{ "metric", ARG_METRIC, "NAME", 0,
	  "The metric to test (default: the first one measured per sample, e.g. per_prod_op, hits)" },
	{ "threshold", 't', "PCT", 0,
	  "Stop as 'within' once the interval lies inside ±PCT percent (default 2)" },
	{ "alpha", 'a', "P", 0, "False-positive rate over all looks (default 0.05)" },
	{ "spending", ARG_SPENDING, "FN", 0,
	  "Alpha spending: obf (O'Brien-Fleming type, the default) or pocock" },
	{ "test", ARG_TEST, "STAT", 0,
	  "The statistic of the block log ratios: trimmed (the 20% trimmed mean and its t-test, the default), rank (Hodges-Lehmann and Wilcoxon's signed-rank test) or t (the mean, Student's t)" },
	{ "no-early-stop", ARG_NO_EARLY_STOP, NULL, 0,
	  "Run the whole budget (or --blocks) and test once at the end: a fixed design, e.g. to establish a change's size" },
	{ "no-speed-check", ARG_NO_SPEED_CHECK, NULL, 0,
	  "Keep a block whose A and B ran at different machine speeds (the slower of their --latency reference loops beyond 1.25x the faster; checked for op_ns and latency_* only), e.g. for kernels whose bpf_loop() itself differs" },
	{ "cmd-a", ARG_CMD_A, "COMMAND", 0,
	  "A as a shell command that writes its result to \"$BENCH_AB_JSON\" (another bench binary, a VM boot)" },
	{ "cmd-b", ARG_CMD_B, "COMMAND", 0, "B as a shell command, likewise" },
	{ "interleave", ARG_INTERLEAVE, NULL, 0,
	  "Run A and B at once, taking turns on the producers' CPUs in slices of a few milliseconds, so that both see one machine state; each pair of invocations is one observation (op_ns and latency_* only; one benchmark, the same runner options)" },
	{ "slice", ARG_SLICE, "MS", 0,
	  "With --interleave: a slice's length in milliseconds, 0.5..100 (default 2)" },
	{ "json", ARG_JSON, NULL, 0,
	  "Print the report as JSON (the bench-cli envelope, docs/results-and-json.md, \"JSON of the commands\") instead of text; ab.json beside ab.txt holds it either way" },
	{},
};

static int bad_arg(const char *opt, const char *arg, const char *accepted)
{
	fprintf(stderr, "invalid %s '%s': expected %s\n", opt, arg, accepted);
	return EINVAL;
}

static error_t ab_parse(int key, char *arg, struct argp_state *state)
{
	char *end;
	double v;
	long n;

	switch (key) {
	case 'b':
		if (ab_parse_duration(arg, &aopts.budget))
			return bad_arg("--budget", arg, "a time of 1s to 7 days, e.g. 300, 90s, 5m, 1h30m");
		break;
	case ARG_BLOCKS:
		errno = 0;
		n = strtol(arg, &end, 10);
		if (!*arg || *end || errno || n < AB_MIN_BLOCKS || n > AB_MAX_BLOCKS)
			return bad_arg("--blocks", arg, "an integer in 3..10000");
		aopts.max_blocks = n;
		break;
	case 'o':
		aopts.dir = arg;
		break;
	case ARG_METRIC:
		aopts.metric = arg;
		break;
	case 't':
		errno = 0;
		v = strtod(arg, &end);
		if (!*arg || *end || errno || !(v > 0 && v < 100))
			return bad_arg("--threshold", arg, "a percentage above 0 and below 100");
		aopts.threshold_pct = v;
		break;
	case 'a':
		errno = 0;
		v = strtod(arg, &end);
		if (!*arg || *end || errno || !(v > 0 && v <= 0.5))
			return bad_arg("--alpha", arg, "a probability above 0, at most 0.5");
		aopts.alpha = v;
		break;
	case ARG_SPENDING:
		if (!strcmp(arg, "obf"))
			aopts.spending = SEQ_OBRIEN_FLEMING;
		else if (!strcmp(arg, "pocock"))
			aopts.spending = SEQ_POCOCK;
		else
			return bad_arg("--spending", arg, "obf or pocock");
		break;
	case ARG_NO_EARLY_STOP:
		aopts.fixed = true;
		break;
	case ARG_JSON:
		aopts.json = true;
		break;
	case ARG_NO_SPEED_CHECK:
		aopts.no_speed_check = true;
		break;
	case ARG_INTERLEAVE:
		aopts.interleave = true;
		break;
	case ARG_SLICE:
		errno = 0;
		v = strtod(arg, &end);
		if (!*arg || *end || errno || !(v >= AB_SLICE_MIN_MS && v <= AB_SLICE_MAX_MS))
			return bad_arg("--slice", arg, "milliseconds in 0.5..100");
		aopts.slice_us = lround(v * 1000);
		break;
	case ARG_TEST:
		if (!strcmp(arg, "t"))
			aopts.stat = SEQ_STAT_T;
		else if (!strcmp(arg, "trimmed"))
			aopts.stat = SEQ_STAT_TRIMMED;
		else if (!strcmp(arg, "rank"))
			aopts.stat = SEQ_STAT_RANK;
		else
			return bad_arg("--test", arg, "rank, trimmed or t");
		break;
	case ARG_CMD_A:
	case ARG_CMD_B:
		if (!*arg)
			return bad_arg(key == ARG_CMD_A ? "--cmd-a" : "--cmd-b", arg, "a command");
		aopts.side[key == ARG_CMD_B].shell = arg;
		break;
	case ARGP_KEY_ARG:
		fprintf(stderr, "ab: unexpected argument '%s': give A and B as -- A-OPTIONS... -- B-OPTIONS... or with --cmd-a and --cmd-b\n",
			arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp ab_argp = {
	.options = ab_options,
	.parser = ab_parse,
	.args_doc = "[AB-OPTIONS] -- A-OPTIONS... -- B-OPTIONS...\n[AB-OPTIONS] --cmd-a 'COMMAND A' --cmd-b 'COMMAND B'",
	.doc = "Is B better or worse than A, and by how much?  Runs A and B in blocks of "
	       "A B B A (a linear drift cancels in each block), takes each block's mean "
	       "paired log ratio log(B/A) of the invocations' means as one observation, "
	       "and after every block from the third tests it with a group-sequential "
	       "test (Lan-DeMets alpha spending, O'Brien-Fleming type; by default the 20% "
	       "trimmed mean of the blocks and its t-test, which a starved invocation "
	       "cannot move by its size: --test), stopping as soon as "
	       "the interval of the change leaves out 0 (significant), or lies within "
	       "±threshold, or the budget is spent; the interval and the verdict come "
	       "from one test on the log ratios.  With --interleave, A and B of one benchmark on "
	       "this kernel run at once instead, taking turns on the producers' CPUs every few "
	       "milliseconds so that both see one machine state, and each pair of invocations "
	       "is one observation (op_ns, latency_*).  Where the options go: ab's own options (below) come "
	       "first; the runs' options (-w, -d, -p, -a, the benchmark and its options) go "
	       "after '--', A's, then after a second '--', B's.  A-OPTIONS and B-OPTIONS "
	       "are options of this bench binary (it adds --json FILE); --cmd-a and --cmd-b take any shell command "
	       "that writes a result file to \"$BENCH_AB_JSON\" (also set: BENCH_AB_DIR, "
	       "BENCH_AB_SIDE, and BENCH_AB_BLOCK, the block's number, which A and B of a block "
	       "share: e.g. htab-mem's --key-offset with --zero-seed gives both one bucket layout).  Every result file (pair-NNN-A.json, pair-NNN-B.json) and "
	       "each invocation's output (.log) stay in the directory (default: a new "
	       "bench-ab-DATE-TIME-XXXXXX under $TMPDIR or /tmp, not the current directory)."
	       "\vEXAMPLES:\n"
	       "  bench ab --budget 5m -- -w1 -d2 -p2 -a htab-mem --value-size 8 \\\n"
	       "           -- -w1 -d2 -p2 -a htab-mem --value-size 16\n"
	       "  bench ab --interleave --budget 2m -- -w1 -d2 -p1 htab-mem --preallocated \\\n"
	       "           -- -w1 -d2 -p1 htab-mem\n"
	       "  bench ab --cmd-a './bench-old -w1 -d2 count-local --json \"$BENCH_AB_JSON\"' \\\n"
	       "           --cmd-b './bench -w1 -d2 count-local --json \"$BENCH_AB_JSON\"'\n"
	       "  benchs/run_kernel_ab.sh -k KERNEL_A -k KERNEL_B -b 30m -- -w1 -d2 -p2 -a htab-mem\n"
	       "  bench compare --paired --force DIR/pair-*-A.json -- DIR/pair-*-B.json\n"
	       "Exit status: 0 when it ran (any verdict); 1 when an invocation failed or hung, or "
	       "the report could not be written; 2 on bad arguments or a directory refused; 128 + N "
	       "after signal N (what it had is printed, the files stay; a second signal kills the "
	       "running invocation at once).",
};

/*
 * Is arg one of ab's own options?  The runs' options (-w1, -d2, ...)
 * given before the first '--' get one line saying where they go, not
 * argp's "invalid option".
 */
static bool ab_option(const char *arg)
{
	const struct argp_option *o;
	size_t len;

	if (arg[0] != '-' || !arg[1])
		return true;
	if (arg[1] != '-')
		return strchr("bta?V", arg[1]) || arg[1] == 'o';
	arg += 2;
	len = strcspn(arg, "=");
	if ((len == 4 && !strncmp(arg, "help", 4)) || (len == 5 && !strncmp(arg, "usage", 5)))
		return true;
	for (o = ab_options; o->name || o->key; o++)
		if (o->name && strlen(o->name) == len && !strncmp(o->name, arg, len))
			return true;
	return false;
}

/* split "OPTIONS -- A... -- B..." and parse OPTIONS; 0, or -EINVAL after one line */
int ab_parse_cmdline(int argc, char **argv)
{
	int i, first = 0, second = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (!first)
			first = i;
		else if (!second)
			second = i;
	}
	for (i = 1; i < (first ? first : argc); i++) {
		/* an option's value (--budget 5m) is not an option */
		if (argv[i][0] != '-' || ab_option(argv[i]))
			continue;
		fprintf(stderr, "ab: '%s' is not an option of ab: the runs' options go after '--', A's first, then B's after a second '--': bench ab [AB-OPTIONS] -- %s ... BENCHMARK -- %s ... BENCHMARK (see bench ab --help)\n",
			argv[i], argv[i], argv[i]);
		return -EINVAL;
	}
	if (argp_parse(&ab_argp, first ? first : argc, argv, 0, NULL, NULL))
		return -EINVAL;
	if (first) {
		if (aopts.side[0].shell || aopts.side[1].shell) {
			fprintf(stderr, "ab: give A and B either as -- A-OPTIONS -- B-OPTIONS or as --cmd-a and --cmd-b, not both\n");
			return -EINVAL;
		}
		if (!second || second == first + 1 || second == argc - 1) {
			fprintf(stderr, "ab: expected -- A-OPTIONS... -- B-OPTIONS..., both non-empty\n");
			return -EINVAL;
		}
		aopts.side[0].args = argv + first + 1;
		aopts.side[0].nargs = second - first - 1;
		aopts.side[1].args = argv + second + 1;
		aopts.side[1].nargs = argc - second - 1;
	} else if (!aopts.side[0].shell || !aopts.side[1].shell) {
		fprintf(stderr, "ab: needs two commands: -- A-OPTIONS... -- B-OPTIONS..., or --cmd-a COMMAND and --cmd-b COMMAND\n");
		return -EINVAL;
	}
	return 0;
}
