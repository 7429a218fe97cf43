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

/* the slots of a block: A B B A */
static const int block_order[4] = { 0, 1, 1, 0 };

/*
 * --budget is a hard bound too: an invocation still running at this
 * multiple of it is stopped (a hung one would hold ab for ever)
 */
#define AB_HARD_END 1.25
#define AB_STR_(x) #x
#define AB_STR(x) AB_STR_(x)
/* seconds from the signal that stops an invocation to SIGKILL of its process group */
#define AB_KILL_GRACE 5.0

/* the first signal that ended ab, and how many came */
static volatile sig_atomic_t ab_signal, ab_signals;

static void ab_on_signal(int sig)
{
	/* a reader gone raises SIGPIPE at every write after it: no second signal */
	if (sig == SIGPIPE && ab_signal)
		return;
	if (!ab_signal)
		ab_signal = sig;
	ab_signals++;
}

/* one side: a shell command, or options for this bench binary */
struct ab_side {
	const char *shell;
	char **args;
	int nargs;
};

static struct ab_opts {
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
} aopts;

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
	 * have it, as compare's sides must (side_config())
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

static double elapsed(const struct ab_run *r)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - r->start.tv_sec + (now.tv_nsec - r->start.tv_nsec) / 1e9;
}

static void fmt_time(double s, char *buf, size_t sz)
{
	long t = lround(s);

	if (t >= 3600)
		snprintf(buf, sz, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, sz, "%ldm%02lds", t / 60, t % 60);
}

/* a log ratio as a percent change */
static double pct(double log_ratio)
{
	return (exp(log_ratio) - 1) * 100;
}

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
static int parse_cmdline(int argc, char **argv)
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
	fmt_time(aopts.budget, b, sizeof(b));
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

/* ---- one invocation ---- */

/*
 * The per-op metrics (op_ns, latency_*) exist only with --latency: ab
 * adds it to a side of bench options that lacks it, and says so.
 */
static bool metric_timed_in_bpf(const char *m)
{
	return m && (!strcmp(m, "op_ns") || !strncmp(m, "latency_", 8));
}

static bool adds_latency(const struct ab_side *sd)
{
	int i;

	if (sd->shell || !metric_timed_in_bpf(aopts.metric))
		return false;
	for (i = 0; i < sd->nargs; i++)
		if (!strcmp(sd->args[i], "--latency"))
			return false;
	return true;
}

/* the child: its own process group, output to its log, then the command */
static void __attribute__((noreturn)) exec_side(const struct ab_run *r, int pair, int side,
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
	if (adds_latency(sd))
		argv[3 + i] = "--latency";
	execv(r->self, argv);
	fprintf(stderr, "failed to run %s: %s\n", r->self, strerror(errno));
	_exit(127);
}

static bool past_hard_end(const struct ab_run *r)
{
	return elapsed(r) > aopts.budget * AB_HARD_END;
}

/* the signal that stops an invocation: ab's own, passed on, or SIGTERM at the hard end */
static int stop_signal(void)
{
	return ab_signal == SIGHUP || ab_signal == SIGINT ? ab_signal : SIGTERM;
}

/*
 * Wait for the child, polling so that a signal to us, or the budget's
 * hard end, is seen at once.  Either stops it: its process group (a
 * shell's children too) gets stop_signal(), then SIGKILL AB_KILL_GRACE s
 * later or at a second signal to ab.  A stopped child's group is swept
 * with SIGKILL once it has exited, while its zombie still holds the
 * group's id, then it is reaped.  The wait status, or -errno; *stopped:
 * whether ab stopped it.
 */
static int wait_side(const struct ab_run *r, pid_t pid, bool *stopped)
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
		if (!*stopped && (ab_signal || past_hard_end(r))) {
			kill(-pid, stop_signal());
			*stopped = true;
			seen = ab_signals;
			kill_at = elapsed(r) + AB_KILL_GRACE;
		} else if (*stopped && (elapsed(r) >= kill_at || ab_signals > seen)) {
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
static const struct result_metric *pick_metric(struct ab_run *r, const struct result_file *rf)
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
static int side_config(struct ab_run *r, int side, const struct result_file *rf, bool say)
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
 * such metric), -EXDEV (not the side's configuration: side_config(); or
 * not the unit of the invocations before) or
 * -EINVAL, after a line if say: run_side() asks again,
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
	ret = side_config(r, side, &rf, say);
	if (ret) {
		result_file_free(&rf);
		return ret;
	}
	m = pick_metric(r, &rf);
	if (rf.invalid && metric_timed_in_bpf(r->metric)) {
		/* a starved producer is not timed while off its CPU: the figure holds */
		if (!r->kept_starved++)
			fprintf(stderr, "ab: %s: %s; kept: %s is timed inside BPF, where a producer off its CPU is not timed (said once)\n",
				json, rf.invalid_reason, r->metric);
	}
	if (rf.invalid && !metric_timed_in_bpf(r->metric)) {
		/* said once its file has the name it keeps: leave_out_block() */
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
static void set_aside(const struct ab_run *r, int pair, int side, const char *prefix, char *to,
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
static void say_failed(struct ab_run *r, int pair, int side, int status)
{
	char json[PATH_MAX + 48], log[PATH_MAX + 48];

	r->failed++;
	set_aside(r, pair, side, "failed", json, sizeof(json));
	snprintf(log, sizeof(log), "%.*s.log", (int)(strlen(json) - 5), json);
	fprintf(stderr, "ab: %c of pair %d failed (%s %d); its output, %s, ends:\n", 'A' + side,
		pair + 1, WIFSIGNALED(status) ? "signal" : "exit",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), log);
	print_log_tail(r, log);
}

/* an invocation ab stopped before it finished: its files set aside, said */
static void say_stopped(struct ab_run *r, int pair, int side)
{
	char json[PATH_MAX + 48];

	r->stopped_inv++;
	set_aside(r, pair, side, "stopped", json, sizeof(json));
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
static int run_side(struct ab_run *r, int pair, int side, double *value, double *ref)
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
		exec_side(r, pair, side, json, log);
	setpgid(pid, pid);
	status = wait_side(r, pid, &stopped);
	if (status < 0) {
		fprintf(stderr, "failed to wait for invocation %c of pair %d: %s\n", 'A' + side,
			pair + 1, strerror(-status));
		return -EIO;
	}
	if (stopped && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		say_stopped(r, pair, side);
		return ab_signal ? -EINTR : -ETIME;
	}
	r->invocations++;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		say_failed(r, pair, side, status);
		return -EIO;
	}
	status = invocation_value(r, side, json, false, value, ref);
	if (!status || status == -EAGAIN)
		return status;
	r->unused++;
	set_aside(r, pair, side, "unused", json, sizeof(json));
	invocation_value(r, side, json, true, value, ref);
	return status == -ENOENT || status == -EXDEV ? status : -EIO;
}

/*
 * A block with an invalid invocation, or whose A and B ran at different
 * machine speeds, is left out whole (counted in *count, why on stderr):
 * its files are renamed invalid-pair-NNN-X.* so that pair-*-A.json and
 * pair-*-B.json stay the pairs that were tested.
 */
static void leave_out_block(struct ab_run *r, int first_pair, int *count, const char *why)
{
	int pair, side;

	for (pair = first_pair; pair < first_pair + 2; pair++)
		for (side = 0; side < 2; side++)
			set_aside(r, pair, side, "invalid", NULL, 0);
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

/* is the metric one whose pairs the speed check applies to */
static bool speed_checked(const struct ab_run *r)
{
	/* interleaved slices take turns within milliseconds: no pair spans two speeds */
	return !aopts.no_speed_check && !aopts.interleave && metric_timed_in_bpf(r->metric);
}

/*
 * After a pair (file number pair, 0-based): did its A and B run at one
 * machine speed?  0, or -EAGAIN after leaving the block out.  A pair
 * whose files lack the reference is not checked, said once.
 */
static int check_pair_speed(struct ab_run *r, int pair, double ref_a, double ref_b)
{
	char why[256];

	if (!speed_checked(r))
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
	leave_out_block(r, pair - pair % 2, &r->left_out_speed, why);
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
	t = final ? 1 : aopts.max_blocks ? (double)n / aopts.max_blocks : elapsed(r) / aopts.budget;
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

/* "95% RCI -1.00% .. +2.00%", or why there is none */
static void fmt_interval(const struct ab_look *lk, const char *what, char *buf, size_t sz)
{
	if (!isnan(lk->e.lo))
		snprintf(buf, sz, "%s %+.2f%% .. %+.2f%%", what, pct(lk->e.lo), pct(lk->e.hi));
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

static void print_progress(const struct ab_run *r)
{
	const struct ab_look *lk = &r->look;
	char when[32], iv[160], st[96];

	fmt_time(elapsed(r), when, sizeof(when));
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
		r->pairs, r->invocations, when, pct(lk->e.est), iv);
}

/* the smallest change the last look's test detects with 80% power, as a percent */
static double detectable(const struct ab_run *r)
{
	return pct(seq_detectable(&r->look.e, AB_POWER));
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
	double est = fabs(pct(lk->e.est));
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
	if (adds_latency(sd))
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
	if (!metric_timed_in_bpf(r->metric))
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
			pct(lk->e.est), lk->blocks, lk->blocks == 1 ? "" : "s", AB_MIN_BLOCKS);
	else if (!isnan(lk->nominal))
		fprintf(f, "change: B vs A %+.2f%%, the %s (%s; %s of look %d)\n", pct(lk->e.est),
			stat_estimate(), iv, st, r->seq.looks);
	else
		fprintf(f, "change: B vs A %+.2f%%, the %s (%s: no sequential look was taken)\n",
			pct(lk->e.est), stat_estimate(), iv);
	if (lk->verdict && !strcmp(lk->verdict, "within"))
		fprintf(f, "verdict: within ±%g%%: no change of %g%% or more (the interval lies inside)\n",
			aopts.threshold_pct, aopts.threshold_pct);
	else if (lk->verdict)
		fprintf(f, "verdict: %s (significant: the interval leaves out 0; %s the %g%% threshold)\n",
			lk->verdict,
			fabs(pct(lk->e.est)) >= aopts.threshold_pct ? "at least" : "but smaller than",
			aopts.threshold_pct);
	else if (lk->blocks >= AB_MIN_BLOCKS && isnan(lk->e.lo) && lk->blocks < lk->e.need)
		fprintf(f, "verdict: undecided: too few pairs: %d blocks, and a test at the last look's level %.3g needs %d\n",
			lk->blocks, lk->e.level, lk->e.need);
	else
		fprintf(f, "verdict: undecided: neither a change nor its absence (±%g%%) shown in what it ran\n",
			aopts.threshold_pct);
	fmt_time(elapsed(r), used, sizeof(used));
	fmt_time(aopts.budget, budget, sizeof(budget));
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
	if (adds_latency(sd))
		json_array_append_new(a, json_string("--latency"));
	return json_pack("{s:o}", "bench_args", a);
}

static json_t *pct_json(double log_ratio)
{
	return isfinite(log_ratio) ? json_real(pct(log_ratio)) : json_null();
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
		"speed_check", speed_checked(r), "left_out_speed_blocks", r->left_out_speed,
		"speed_unchecked_pairs", r->unchecked));
	json_object_update_new(o, json_pack("{s:i, s:i, s:i}", "failed_invocations", r->failed,
		"stopped_invocations", r->stopped_inv, "unused_invocations", r->unused));
	json_object_update_new(o, json_pack("{s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:s}",
		"blocks", r->blocks, "pairs", r->pairs, "invocations", r->invocations,
		"left_out_blocks", r->left_out, "kept_starved", r->kept_starved,
		"elapsed_sec", elapsed(r), "budget_sec", aopts.budget,
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
static int report(const struct ab_run *r)
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

/* before an invocation: -EINTR after a signal, -ETIME past the budget's hard end, else 0 */
static int must_stop(const struct ab_run *r)
{
	if (ab_signal)
		return -EINTR;
	return past_hard_end(r) ? -ETIME : 0;
}

/*
 * One block, A B B A: 0, -EAGAIN (left out), or run_side()'s error.  A
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
			err = run_side(r, file_pair, side, &v, &r->ref[slot / 2][side]);
		if (err == -EAGAIN) {
			fprintf(stderr, "ab: left out %s/invalid-pair-%03d-%c.json: invalid run: %s\n",
				r->dir, file_pair + 1, 'A' + side, r->invalid_why);
			leave_out_block(r, r->file_pairs, &r->left_out,
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
			set_aside(r, file_pair, block_order[slot - 1], "unused", NULL, 0);
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

/* ab's stop policy for an interleaved pair: run_side()'s (wait_side()) */
static int interleaved_stop(void *ctx)
{
	return ab_signal || past_hard_end(ctx) ? stop_signal() : 0;
}

/* in the child of an interleaved pair: the side, as run_side() starts it */
static void exec_interleaved(void *ctx, int pair, int side, const char *json, const char *log)
{
	/* a pair is its own block: BENCH_AB_BLOCK is pair + 1 */
	exec_side(ctx, 2 * pair, side, json, log);
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
	else if (!pick_metric(r, &rf[0])) {
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
		say_failed(r, pair, p.failed, p.status);
	for (side = 0; (err == -EINTR || err == -ETIME) && side < 2; side++)
		say_stopped(r, pair, side);
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
	double t = elapsed(r);

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
		    elapsed(r) / (1 + left_out_total(r)) * blocks_needed() > aopts.budget) {
			double bt = elapsed(r) / (1 + left_out_total(r));
			char b[32];

			fmt_time(aopts.budget, b, sizeof(b));
			fprintf(stderr, "invalid --budget %s: too short for the first look that can decide: the first block took %.1f s and a test at alpha %g needs %d blocks; give --budget %.0fs or more\n",
				b, bt, aopts.alpha, blocks_needed(), ceil(bt * blocks_needed() * 1.25));
			r->stopped = "the budget is too short for a test";
			take_look(r, false);
			return -E2BIG;
		}
		more = room_for_block(r);
		if (take_look(r, !more)) {
			print_progress(r);
			r->stopped = "decided";
			return 0;
		}
		print_progress(r);
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
	err = parse_cmdline(argc, argv);
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
	if (report(r) && !err)
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
