// SPDX-License-Identifier: GPL-2.0
/*
 * Option plumbing: the runner's options, and every benchmark family's
 * options as argp children, so that `--help` shows them all and options of
 * a benchmark other than the one being run are refused.
 */
#include <argp.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <sysexits.h>
#include <sys/sysinfo.h>

#include "bench_args.h"
#include "bench_version.h"
#include "suggest.h"

struct env env = {
	.duration_sec = 5,
	.warmup_sec = 1,
	.producer_cnt = 1,
	.consumer_cnt = 0,
	.repeat_cnt = 1,
	.min_cpu_share_pct = -1,
};

/*
 * Exit status of a refused command line, upstream's rule: what argp
 * refuses while parsing (an unknown option, a malformed or out-of-range
 * value, a second benchmark name, another benchmark's option) is 64,
 * EX_USAGE, as argp_usage() and argp_error() exit; what is refused after
 * parsing (no or an unknown benchmark, an option the named benchmark
 * cannot honour) is 1, as upstream's find_benchmark() and validate().
 */
static int usage_status = BENCH_EXIT_USAGE;
_Static_assert(BENCH_EXIT_USAGE == EX_USAGE, "the runner's usage status is argp_usage()'s");

int bench_args_error_status(void)
{
	return usage_status;
}

static const struct bench *const *tbl;
static size_t tbl_n;
static const struct bench_command *cmds;
static size_t cmds_n;

void bench_args_commands(const struct bench_command *c, size_t n)
{
	cmds = c;
	cmds_n = n;
}

const char *argp_program_version = "bench " BENCH_VERSION;
/*
 * No "Report bugs to" line under any --help (argp prints this one for the
 * subcommands too): bpf@vger.kernel.org is upstream's list, and this is
 * not upstream's runner.  The README says where things are.
 */
const char *argp_program_bug_address;
static const char argp_program_doc[] =
"bench    BPF benchmark runner.\n"
"\n"
"Runs one benchmark with N producer and M consumer threads, samples its\n"
"counters once per second, drops the warm-up samples and summarises the rest.\n"
"\n"
"USAGE: bench [OPTIONS...] BENCHMARK [BENCHMARK OPTIONS...]\n"
"       bench COMMAND [OPTIONS...] ARGS...   (see bench COMMAND --help)\n";
/* after the usage, from the commands' table (help_filter) */
static const char argp_program_examples[] =
"EXAMPLES:\n"
"    bench -l                                    # list benchmarks\n"
"    bench -w1 -d3 -p2 -a count-local            # 2 pinned producers\n"
"    bench htab-mem --use-case overwrite -p2 -a  # hash map memory benchmark\n"
"    bench --json a.json -d3 count-local         # a result file, a.json\n"
"    bench compare a.json b.json                 # did b.json move?\n"
"\n"
/*
 * every variable bench reads, one entry each: scripts/gen-man.sh puts them
 * in bench(1)'s ENVIRONMENT, and those naming a command ("bench plot:")
 * in that command's page too; tests/man.t checks that none is missing
 */
"ENVIRONMENT:\n"
"    BENCH_MIN_CPU_SHARE\n"
"                         a run's --min-cpu-share when not given, a percentage\n"
"                         (default " BENCH_STR(RUN_MIN_CPU_SHARE_PCT) "; 0: no run is marked invalid)\n"
"    BENCH_GNUPLOT_TIMEOUT\n"
"                         bench plot: seconds gnuplot may take before it is\n"
"                         killed\n"
"    BENCH_HISTORY_LOCK_TIMEOUT\n"
"                         bench history: seconds to wait for another command's\n"
"                         lock on the database\n"
"    XDG_DATA_HOME, HOME\n"
"                         bench history: the default database,\n"
"                         $XDG_DATA_HOME/bench/history.db, else\n"
"                         ~/.local/share/bench/history.db\n"
"    TMPDIR\n"
"                         bench ab: where its directory goes without --out\n"
"    BENCH_AB_JSON, BENCH_AB_DIR, BENCH_AB_SIDE, BENCH_AB_BLOCK\n"
"                         bench ab: set for each invocation it starts: its\n"
"                         result file, the directory, A or B, the block's\n"
"                         number\n"
"    BENCH_AB_GATE, BENCH_AB_SIDE\n"
"                         bench ab: set for the runs of --interleave, which\n"
"                         take turns through it (not for users)\n"
"    BENCH_TEST_*\n"
"                         for the tests alone (docs/testing.md):\n"
"                         BENCH_TEST_EXIT_AFTER_SETUP=1 ends a run after its\n"
"                         set-up, BENCH_TEST_THREAD_NICE is the threads' nice\n"
"                         value, BENCH_TEST_CONSUMER_JOIN_MS how\n"
"                         long a consumer thread may take to stop\n";

enum {
	ARG_PROD_AFFINITY_SET = 1000,
	ARG_CONS_AFFINITY_SET,
	ARG_JSON,
	ARG_PER_PRODUCER,
	ARG_LATENCY,
	ARG_REPEAT,
	ARG_ZERO_SEED,
	ARG_STATS,
	ARG_MIN_CPU_SHARE,
	ARG_TAG,
};

static const struct argp_option opts[] = {
	{ "list", 'l', NULL, 0, "List available benchmarks" },
	{ "duration", 'd', "SEC", 0, "Duration of benchmark, seconds (default 5)" },
	{ "warmup", 'w', "SEC", 0, "Warm-up period, seconds (default 1)" },
	{ "producers", 'p', "NUM", 0, "Number of producer threads (default 1)" },
	{ "consumers", 'c', "NUM", 0, "Number of consumer threads (default 0)" },
	{ "verbose", 'v', NULL, 0, "Verbose debug output (libbpf debug messages)" },
	{ "affinity", 'a', NULL, 0, "Pin consumer/producer threads to CPUs" },
	{ "quiet", 'q', NULL, 0, "Print only the final results" },
	{ "stacktrace", 's', NULL, 0,
	  "Set env.stacktrace, for benchmarks written for upstream's runner that read it" },
	{ "prod-affinity", ARG_PROD_AFFINITY_SET, "CPUSET", 0,
	  "CPUs for producer threads, e.g. 0-3,5 (implies -a)" },
	{ "cons-affinity", ARG_CONS_AFFINITY_SET, "CPUSET", 0,
	  "CPUs for consumer threads, e.g. 0-3,5 (implies -a)" },
	{ "json", ARG_JSON, "FILE", 0,
	  "Also write the run as a JSON document to FILE (atomically, at the end)" },
	{ "per-producer", ARG_PER_PRODUCER, NULL, 0,
	  "After the Summary, print each producer's rate and the fairness" },
	{ "latency", ARG_LATENCY, NULL, 0,
	  "Time each trigger's batch of map operations in BPF: per-op percentiles per sample and per run" },
	{ "repeat", ARG_REPEAT, "N", 0,
	  "Run the warm-up and measured phase N times (1.." BENCH_STR(BENCH_MAX_REPEAT) ", default 1), each with fresh state where the benchmark supports it (htab-mem: a new map, so a new hash seed)" },
	{ "stats", ARG_STATS, NULL, 0,
	  "After the Summary, robust summaries of every metric: median, min, max, p90, p99, MAD, IQR and the samples outside Tukey's fences (flagged, never dropped)" },
	{ "min-cpu-share", ARG_MIN_CPU_SHARE, "PCT", 0,
	  "Mark the run invalid (compare, ab, history and plot leave it out unless --include-invalid) when a producer ran on a CPU less than PCT% of its fair share of its measured time (a whole CPU, or CPUs / threads when the run has more threads than CPUs): the machine was busy (0..100, decimals allowed; default " BENCH_STR(RUN_MIN_CPU_SHARE_PCT) ", or $BENCH_MIN_CPU_SHARE, empty: the default; 0: never)" },
	{ "zero-seed", ARG_ZERO_SEED, NULL, 0,
	  "Hash-map benchmarks: create the measured map with BPF_F_ZERO_SEED (one fixed bucket layout, for bisecting: that layout's bias)" },
	{ "tag", ARG_TAG, "TEXT", 0,
	  "Record TEXT (e.g. base, patched, a commit id; up to " BENCH_STR(BENCH_MAX_TAG) " bytes of text) as the run's tag in its JSON: history and compare show it" },
	{},
};

/* --help's text before the options: the usage, the commands, the examples */
static char *help_filter(int key, const char *text, void *input)
{
	char *buf = NULL;
	size_t len, i;
	FILE *f;

	if (key != ARGP_KEY_HELP_PRE_DOC)
		return (char *)text;
	f = open_memstream(&buf, &len);
	if (!f)
		return (char *)text;
	fprintf(f, "%s\nCOMMANDS:\n", text ? text : "");
	for (i = 0; i < cmds_n; i++)
		fprintf(f, "    %-9s %s\n", cmds[i].name, cmds[i].desc);
	fprintf(f, "\n%s", argp_program_examples);
	if (fclose(f)) {
		free(buf);
		return (char *)text;
	}
	return buf;
}

error_t bench_args_refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EINVAL;
}

error_t bench_args_bad_value(const char *opt, const char *arg, const char *accepted_fmt, ...)
{
	char accepted[256];
	va_list ap;

	va_start(ap, accepted_fmt);
	vsnprintf(accepted, sizeof(accepted), accepted_fmt, ap);
	va_end(ap);
	return bench_args_refuse("invalid %s '%s': expected %s", opt, arg, accepted);
}

/* --tag: not empty, not long, one line of UTF-8 (JSON strings are) */
static bool tag_ok(const char *s)
{
	size_t n = strlen(s), i;
	json_t *utf8;

	if (!n || n > BENCH_MAX_TAG)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	utf8 = json_string(s);
	json_decref(utf8);
	return utf8 != NULL;
}

/* the refusal, with the value's control characters and bytes over 0x7e as \xNN: one line */
static error_t bad_tag(const char *arg)
{
	char shown[4 * 40 + 8];
	size_t i, o = 0;

	for (i = 0; arg[i] && o + 5 < sizeof(shown) - 4; i++) {
		unsigned char c = arg[i];

		if (c < 0x20 || c > 0x7e)
			o += snprintf(shown + o, sizeof(shown) - o, "\\x%02x", c);
		else
			shown[o++] = c;
	}
	snprintf(shown + o, sizeof(shown) - o, "%s", arg[i] ? "..." : "");
	return bench_args_bad_value("--tag", shown, "1..%d bytes of UTF-8 text without control characters",
				    BENCH_MAX_TAG);
}

/* 0, or the positive error argp_parse() hands back, after one line */
/*
 * A percentage in 0..100 with optional decimals ("80", "80.5"): digits,
 * at most one point, no sign or exponent; read by hand, whatever the locale
 */
static int parse_pct(const char *s, double *out)
{
	double v = 0, scale = 1;
	bool point = false, digit = false;
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '.' && !point) {
			point = true;
		} else if (*p >= '0' && *p <= '9' && p - s < 32) {
			digit = true;
			if (point)
				v += (*p - '0') * (scale /= 10);
			else
				v = v * 10 + (*p - '0');
		} else {
			return -EINVAL;
		}
	}
	if (!digit || v > 100)
		return -EINVAL;
	*out = v;
	return 0;
}

static error_t parse_cpus_opt(const char *opt, const char *arg, struct cpu_list *out)
{
	int err;

	cpu_list_free(out);
	err = parse_cpu_list(arg, out);
	if (err == -ENOMEM) {
		fprintf(stderr, "failed to parse %s: %s\n", opt, strerror(ENOMEM));
		return ENOMEM;
	}
	if (err == -ERANGE)
		return bench_args_bad_value(opt, arg, "CPU numbers in 0..1023");
	if (err)
		return bench_args_bad_value(opt, arg, "a CPU list such as 0-3,5 (no duplicates)");
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	long v;

	switch (key) {
	case 'v':
		env.verbose = true;
		break;
	case 'l':
		env.list = true;
		break;
	case 'q':
		env.quiet = true;
		break;
	case 's':
		env.stacktrace = true;
		break;
	case 'a':
		env.affinity = true;
		break;
	case 'd':
		if (parse_long(arg, 1, BENCH_MAX_SECONDS, &v))
			return bench_args_bad_value("duration", arg, "whole seconds in 1..%d",
						    BENCH_MAX_SECONDS);
		env.duration_sec = v;
		break;
	case 'w':
		if (parse_long(arg, 0, BENCH_MAX_SECONDS, &v))
			return bench_args_bad_value("warm-up", arg, "whole seconds in 0..%d",
						    BENCH_MAX_SECONDS);
		env.warmup_sec = v;
		break;
	case 'p':
		if (parse_long(arg, 1, BENCH_MAX_THREADS, &v))
			return bench_args_bad_value("producer count", arg, "an integer in 1..%d",
						    BENCH_MAX_THREADS);
		env.producer_cnt = v;
		break;
	case 'c':
		if (parse_long(arg, 0, BENCH_MAX_THREADS, &v))
			return bench_args_bad_value("consumer count", arg, "an integer in 0..%d",
						    BENCH_MAX_THREADS);
		env.consumer_cnt = v;
		break;
	case ARG_PROD_AFFINITY_SET:
		env.affinity = true;
		return parse_cpus_opt("--prod-affinity", arg, &env.prod_cpus);
	case ARG_CONS_AFFINITY_SET:
		env.affinity = true;
		return parse_cpus_opt("--cons-affinity", arg, &env.cons_cpus);
	case ARG_JSON:
		if (!*arg)
			return bench_args_bad_value("--json", arg, "a file name");
		env.json_path = arg;
		break;
	case ARG_PER_PRODUCER:
		env.per_producer = true;
		break;
	case ARG_LATENCY:
		env.latency = true;
		break;
	case ARG_REPEAT:
		if (parse_long(arg, 1, BENCH_MAX_REPEAT, &v))
			return bench_args_bad_value("--repeat", arg, "an integer in 1..%d", BENCH_MAX_REPEAT);
		env.repeat_cnt = v;
		break;
	case ARG_STATS:
		env.stats = true;
		break;
	case ARG_ZERO_SEED:
		env.zero_seed = true;
		break;
	case ARG_TAG:
		if (!tag_ok(arg))
			return bad_tag(arg);
		env.tag = arg;
		break;
	case ARG_MIN_CPU_SHARE:
		if (parse_pct(arg, &env.min_cpu_share_pct))
			return bench_args_bad_value("--min-cpu-share", arg,
						    "a percentage in 0..100, decimals allowed");
		break;
	case ARGP_KEY_ARG:
		if (env.bench_name)
			return bench_args_refuse("two benchmark names given: '%s' and '%s'; run one at a time",
						 env.bench_name, arg);
		env.bench_name = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * Every benchmark family's options are argp children, so `--help` shows
 * them all.  A trampoline records which family parsed an option, so that
 * options of a benchmark other than the one being run are refused.
 */
static const struct argp *opt_owner;
static const char *opt_owner_name;
/* the first option of another family than opt_owner's: one of the two is foreign */
static const struct argp *opt_other;
static const char *opt_other_name;
static const struct argp *child_orig[BENCH_MAX_BENCHS];
static struct argp child_argps[BENCH_MAX_BENCHS];
static struct argp_child children[BENCH_MAX_BENCHS + 1];
static int children_cnt;

static const char *option_name(const struct argp *a, int key, char *buf, size_t sz)
{
	const struct argp_option *o;

	for (o = a->options; o && (o->name || o->key); o++) {
		if (o->key != key)
			continue;
		if (o->name)
			snprintf(buf, sz, "--%s", o->name);
		else
			snprintf(buf, sz, "-%c", key);
		return buf;
	}
	snprintf(buf, sz, "option %d", key);
	return buf;
}

static bool is_option_key(int key)
{
	return key != ARGP_KEY_ARG && key != ARGP_KEY_ARGS && key != ARGP_KEY_END &&
	       key != ARGP_KEY_NO_ARGS && key != ARGP_KEY_INIT && key != ARGP_KEY_SUCCESS &&
	       key != ARGP_KEY_ERROR && key != ARGP_KEY_FINI;
}

/* state->input is the benchmark family's own argp (set at ARGP_KEY_INIT) */
static error_t child_trampoline(int key, char *arg, struct argp_state *state)
{
	const struct argp *orig = state->input;
	static char name[64], other_name[64];
	error_t err;

	if (!orig || !orig->parser)
		return ARGP_ERR_UNKNOWN;
	err = orig->parser(key, arg, state);
	if (err || !is_option_key(key))
		return err;
	if (!opt_owner) {
		opt_owner = orig;
		opt_owner_name = option_name(orig, key, name, sizeof(name));
	} else if (orig != opt_owner && !opt_other) {
		opt_other = orig;
		opt_other_name = option_name(orig, key, other_name, sizeof(other_name));
	}
	return err;
}

static error_t root_parser(int key, char *arg, struct argp_state *state)
{
	int i;

	if (key == ARGP_KEY_INIT) {
		for (i = 0; i < children_cnt; i++)
			state->child_inputs[i] = (void *)child_orig[i];
		return 0;
	}
	return parse_arg(key, arg, state);
}

/* one child per benchmark family (several benchmarks may share an argp) */
static void add_child(const struct bench *b)
{
	const struct argp *a = b->argp;
	int j;

	if (!a)
		return;
	for (j = 0; j < children_cnt; j++)
		if (child_orig[j] == a)
			return;
	child_orig[children_cnt] = a;
	child_argps[children_cnt] = (struct argp){
		.options = a->options,
		.parser = child_trampoline,
	};
	children[children_cnt] = (struct argp_child){
		.argp = &child_argps[children_cnt],
		.header = b->name,
	};
	children_cnt++;
}

/*
 * The family of the benchmark the command line names goes first: getopt
 * gives an option name two families share (--nr_entries) to the first.
 */
static void build_children(int argc, char **argv)
{
	size_t i;
	int k;

	for (k = 1; k < argc; k++)
		for (i = 0; i < tbl_n; i++)
			if (!strcmp(argv[k], tbl[i]->name)) {
				add_child(tbl[i]);
				k = argc;
				break;
			}
	for (i = 0; i < tbl_n; i++)
		add_child(tbl[i]);
}

void bench_args_list(const struct bench *const *table, size_t n)
{
	int width = 0;
	size_t i;

	tbl = table;
	tbl_n = n;
	/* the descriptions in one column, however long the longest name */
	for (i = 0; i < tbl_n; i++)
		if ((int)strlen(tbl[i]->name) > width)
			width = strlen(tbl[i]->name);
	printf("Benchmarks:\n");
	/* one line per benchmark, its alias on it: scripts read the first word */
	for (i = 0; i < tbl_n; i++) {
		printf("  %-*s %s", width, tbl[i]->name, tbl[i]->desc ? tbl[i]->desc : "");
		if (tbl[i]->alias)
			printf(" (alias: %s)", tbl[i]->alias);
		putchar('\n');
	}
}

/* "known benchmarks: ... (see bench -l); commands: ..." */
static void print_known(FILE *f)
{
	size_t i;

	fprintf(f, "known benchmarks:");
	for (i = 0; i < tbl_n; i++)
		fprintf(f, " %s", tbl[i]->name);
	fprintf(f, " (see bench -l); commands:");
	for (i = 0; i < cmds_n; i++)
		fprintf(f, " %s", cmds[i].name);
	fprintf(f, " (see bench --help)\n");
}

static const struct bench *lookup_bench(const char *name)
{
	size_t i;

	for (i = 0; i < tbl_n; i++)
		if (!strcmp(tbl[i]->name, name) || (tbl[i]->alias && !strcmp(tbl[i]->alias, name)))
			return tbl[i];
	return NULL;
}

/* name is no benchmark and no command: one line, with the nearest names */
static void refuse_unknown(const char *name)
{
	const char *known[2 * BENCH_MAX_BENCHS + 16];
	size_t i, n = 0;

	for (i = 0; i < tbl_n; i++) {
		known[n++] = tbl[i]->name;
		if (tbl[i]->alias)
			known[n++] = tbl[i]->alias;
	}
	for (i = 0; i < cmds_n && n < ARRAY_SIZE(known); i++)
		known[n++] = cmds[i].name;
	fprintf(stderr, "unknown benchmark or command '%s'; ", name);
	suggest_print(stderr, name, known, n);
	print_known(stderr);
}

/* the benchmarks that have every cap in caps, from the table: no list to keep in step */
/* the benchmarks with every cap of caps (and --latency, when latency), from the table */
static void print_caps(FILE *f, unsigned int caps, bool latency)
{
	size_t i;

	for (i = 0; i < tbl_n; i++)
		if ((tbl[i]->caps & caps) == caps && (!latency || tbl[i]->latency))
			fprintf(f, " %s", tbl[i]->name);
}

/* the benchmark env.bench_name names, or NULL after one line (exit 1) */
static const struct bench *find_bench(void)
{
	const struct bench *b;
	size_t i;

	if (!env.bench_name) {
		fprintf(stderr, "no benchmark given; ");
		print_known(stderr);
		return NULL;
	}
	b = lookup_bench(env.bench_name);
	if (b)
		return b;
	for (i = 0; i < cmds_n; i++)
		if (!strcmp(cmds[i].name, env.bench_name)) {
			fprintf(stderr, "'%s' is a command: it comes first, before its options (bench %s --help)\n",
				env.bench_name, env.bench_name);
			return NULL;
		}
	refuse_unknown(env.bench_name);
	return NULL;
}

/* the runner's options the benchmark cannot honour: 0 or -EINVAL after one line (exit 1) */
static int check_caps(const struct bench *bench)
{
	if (env.zero_seed && !(bench->caps & BENCH_CAP_ZERO_SEED)) {
		fprintf(stderr, "--zero-seed does not apply to benchmark '%s': it does not create the map it measures with BPF_F_ZERO_SEED; accepted by:",
			bench->name);
		print_caps(stderr, BENCH_CAP_ZERO_SEED, false);
		fputc('\n', stderr);
		return -EINVAL;
	}
	if (env.latency && !bench->latency) {
		fprintf(stderr, "invalid --latency for benchmark '%s': its BPF program does not time its map operations per trigger; accepted by:",
			bench->name);
		print_caps(stderr, 0, true);
		fputc('\n', stderr);
		return -EINVAL;
	}
	if (env.repeat_cnt > 1 && (bench->caps & BENCH_CAP_NO_REPEAT)) {
		fprintf(stderr, "--repeat %d does not apply to benchmark '%s': its results are not per-second samples (only --repeat 1)\n",
			env.repeat_cnt, bench->name);
		return -EINVAL;
	}
	/* every sample of every repeat is kept: bound the run's length too */
	if ((long)env.repeat_cnt * (env.warmup_sec + env.duration_sec) > BENCH_MAX_SECONDS) {
		fprintf(stderr, "invalid --repeat %d: %d x (-w %d + -d %d) seconds is more than %d\n",
			env.repeat_cnt, env.repeat_cnt, env.warmup_sec, env.duration_sec,
			BENCH_MAX_SECONDS);
		return -EINVAL;
	}
	return 0;
}

/*
 * --min-cpu-share's default: $BENCH_MIN_CPU_SHARE, else RUN_MIN_CPU_SHARE_PCT;
 * set but empty (`BENCH_MIN_CPU_SHARE= bench ...`) is unset, as in a shell
 */
static error_t min_cpu_share_default(void)
{
	const char *s = getenv("BENCH_MIN_CPU_SHARE");

	if (env.min_cpu_share_pct >= 0)
		return 0;
	if (!s || !*s) {
		env.min_cpu_share_pct = RUN_MIN_CPU_SHARE_PCT;
		return 0;
	}
	if (parse_pct(s, &env.min_cpu_share_pct))
		return bench_args_bad_value("BENCH_MIN_CPU_SHARE", s,
					    "a percentage in 0..100, decimals allowed");
	return 0;
}

/*
 * $BENCH_TEST_THREAD_NICE, for tests alone (like BENCH_TEST_EXIT_AFTER_SETUP):
 * the producer and consumer threads at this nice value, so that a test
 * suite's runs, whose rates nothing checks, spin on the CPU time the
 * suite's other work leaves (runner.c's thread_start())
 */
static error_t thread_nice_from_env(void)
{
	const char *s = getenv("BENCH_TEST_THREAD_NICE");
	long v;

	if (!s)
		return 0;
	if (parse_long(s, 0, 19, &v))
		return bench_args_bad_value("BENCH_TEST_THREAD_NICE", s, "a nice value in 0..19");
	env.thread_nice = v;
	return 0;
}

int bench_args_parse(int argc, char **argv, const struct bench *const *table, size_t n,
		     const struct bench **benchp)
{
	static const struct argp argp_root = {
		.options = opts,
		.parser = root_parser,
		.args_doc = "BENCHMARK [BENCHMARK OPTION...]",
		.doc = argp_program_doc,
		.children = children,
		.help_filter = help_filter,
	};
	const struct bench *bench;
	int err;

	*benchp = NULL;
	env.nr_cpus = get_nprocs();
	tbl = table;
	tbl_n = n < BENCH_MAX_BENCHS ? n : BENCH_MAX_BENCHS;
	/*
	 * A first word that names nothing is a mistyped benchmark or command:
	 * say so, with the nearest names, before argp refuses the command's
	 * own options or files as a second benchmark name.
	 */
	if (argc > 1 && argv[1][0] != '-' && !lookup_bench(argv[1])) {
		usage_status = 1;
		refuse_unknown(argv[1]);
		return -EINVAL;
	}
	build_children(argc, argv);
	err = argp_parse(&argp_root, argc, argv, 0, NULL, NULL);
	if (!err)
		err = min_cpu_share_default();
	if (!err)
		err = thread_nice_from_env();
	if (err) {
		/* running out of memory is no usage error */
		if (err == ENOMEM)
			usage_status = BENCH_EXIT_FAILED;
		return -err;
	}
	if (env.list)
		return 0;
	usage_status = BENCH_EXIT_FAILED;
	bench = find_bench();
	if (!bench)
		return -EINVAL;
	/* upstream parses again with the named benchmark's options alone */
	if ((opt_owner && opt_owner != bench->argp) || opt_other) {
		usage_status = BENCH_EXIT_USAGE;
		fprintf(stderr, "option %s does not apply to benchmark '%s'\n",
			opt_owner != bench->argp ? opt_owner_name : opt_other_name, bench->name);
		return -EINVAL;
	}
	err = check_caps(bench);
	if (err)
		return err;
	*benchp = bench;
	return 0;
}

void bench_args_free(void)
{
	cpu_list_free(&env.prod_cpus);
	cpu_list_free(&env.cons_cpus);
	free(env.argv);
	env.argv = NULL;
}

