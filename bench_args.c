// SPDX-License-Identifier: GPL-2.0
/*
 * Option plumbing: the runner's options, and every benchmark family's
 * options as argp children, so that `--help` shows them all and options of
 * a benchmark other than the one being run are refused.
 */
#include <argp.h>
#include <errno.h>

#include "bench_args.h"
#include "bench_version.h"

struct env env = {
	.duration_sec = 5,
	.warmup_sec = 1,
	.producer_cnt = 1,
	.consumer_cnt = 0,
	.repeat_cnt = 1,
};

/*
 * Exit status of a refused command line: 1 as upstream's runner, but 2
 * for the options of repeated measurement, whose refusals are documented
 * with compare's usage errors.
 */
static int usage_status = 1;

int bench_args_error_status(void)
{
	return usage_status;
}

static const struct bench *const *tbl;
static size_t tbl_n;

const char *argp_program_version = "bench " BENCH_VERSION;
const char *argp_program_bug_address = "<bpf@vger.kernel.org>";
static const char argp_program_doc[] =
"bench    BPF benchmark runner.\n"
"\n"
"Runs one benchmark with N producer and M consumer threads, samples its\n"
"counters once per second, drops the warm-up samples and summarises the rest.\n"
"\n"
"USAGE: bench [OPTIONS...] BENCHMARK\n"
"       bench compare [OPTIONS...] BASE.json NEW.json   (see bench compare --help)\n"
"       bench plot timeline|scaling|compare FILES... -o OUT   (see bench plot --help)\n"
"\n"
"EXAMPLES:\n"
"    bench -l                                    # list benchmarks\n"
"    bench -w1 -d3 -p2 -a count-local            # 2 pinned producers\n"
"    bench htab-mem --use-case overwrite -p2 -a  # hash map memory benchmark\n";

enum {
	ARG_PROD_AFFINITY_SET = 1000,
	ARG_CONS_AFFINITY_SET,
	ARG_JSON,
	ARG_PER_PRODUCER,
	ARG_LATENCY,
	ARG_REPEAT,
	ARG_ZERO_SEED,
	ARG_STATS,
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
	  "Run the warm-up and measured phase N times (1..1000, default 1), each with fresh state where the benchmark supports it (htab-mem: a new map, so a new hash seed)" },
	{ "stats", ARG_STATS, NULL, 0,
	  "After the Summary, robust summaries of every metric: median, min, max, p90, p99, MAD, IQR and the samples outside Tukey's fences (flagged, never dropped)" },
	{ "zero-seed", ARG_ZERO_SEED, NULL, 0,
	  "Hash-map benchmarks: create the measured map with BPF_F_ZERO_SEED (one fixed bucket layout, for bisecting: that layout's bias)" },
	{},
};

#define MAX_SECONDS 86400
#define MAX_REPEAT 1000

static void bad_value(const char *opt, const char *arg, const char *accepted)
{
	fprintf(stderr, "invalid %s '%s': expected %s\n", opt, arg, accepted);
}

static int parse_cpus_opt(const char *opt, const char *arg, struct cpu_list *out)
{
	int err;

	cpu_list_free(out);
	err = parse_cpu_list(arg, out);
	if (err == -ENOMEM) {
		fprintf(stderr, "failed to parse %s: %s\n", opt, strerror(ENOMEM));
		return err;
	}
	if (err == -ERANGE) {
		bad_value(opt, arg, "CPU numbers in 0..1023");
		return err;
	}
	if (err) {
		bad_value(opt, arg, "a CPU list such as 0-3,5 (no duplicates)");
		return err;
	}
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
	case 'a':
		env.affinity = true;
		break;
	case 'd':
		if (parse_long(arg, 1, MAX_SECONDS, &v)) {
			bad_value("duration", arg, "whole seconds in 1..86400");
			return EINVAL;
		}
		env.duration_sec = v;
		break;
	case 'w':
		if (parse_long(arg, 0, MAX_SECONDS, &v)) {
			bad_value("warm-up", arg, "whole seconds in 0..86400");
			return EINVAL;
		}
		env.warmup_sec = v;
		break;
	case 'p':
		if (parse_long(arg, 1, BENCH_MAX_THREADS, &v)) {
			bad_value("producer count", arg, "an integer in 1..1024");
			return EINVAL;
		}
		env.producer_cnt = v;
		break;
	case 'c':
		if (parse_long(arg, 0, BENCH_MAX_THREADS, &v)) {
			bad_value("consumer count", arg, "an integer in 0..1024");
			return EINVAL;
		}
		env.consumer_cnt = v;
		break;
	case ARG_PROD_AFFINITY_SET:
		env.affinity = true;
		if (parse_cpus_opt("--prod-affinity", arg, &env.prod_cpus))
			return EINVAL;
		break;
	case ARG_CONS_AFFINITY_SET:
		env.affinity = true;
		if (parse_cpus_opt("--cons-affinity", arg, &env.cons_cpus))
			return EINVAL;
		break;
	case ARG_JSON:
		if (!*arg) {
			bad_value("--json", arg, "a file name");
			return EINVAL;
		}
		env.json_path = arg;
		break;
	case ARG_PER_PRODUCER:
		env.per_producer = true;
		break;
	case ARG_LATENCY:
		env.latency = true;
		break;
	case ARG_REPEAT:
		if (parse_long(arg, 1, MAX_REPEAT, &v)) {
			bad_value("--repeat", arg, "an integer in 1..1000");
			usage_status = 2;
			return EINVAL;
		}
		env.repeat_cnt = v;
		break;
	case ARG_STATS:
		env.stats = true;
		break;
	case ARG_ZERO_SEED:
		env.zero_seed = true;
		break;
	case ARGP_KEY_ARG:
		if (env.bench_name) {
			fprintf(stderr, "two benchmark names given: '%s' and '%s'; run one at a time\n",
				env.bench_name, arg);
			return EINVAL;
		}
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
	tbl = table;
	tbl_n = n;
	size_t i;

	printf("Benchmarks:\n");
	for (i = 0; i < tbl_n; i++)
		printf("  %-24s %s\n", tbl[i]->name, tbl[i]->desc ? tbl[i]->desc : "");
}

static void print_known(FILE *f)
{
	size_t i;

	fprintf(f, "known benchmarks:");
	for (i = 0; i < tbl_n; i++)
		fprintf(f, " %s", tbl[i]->name);
}

int bench_args_parse(int argc, char **argv, const struct bench *const *table, size_t n,
		     const struct bench **benchp)
{
	static const struct argp argp_root = {
		.options = opts,
		.parser = root_parser,
		.doc = argp_program_doc,
		.children = children,
	};
	const struct bench *bench = NULL;
	size_t i;
	int err;

	*benchp = NULL;
	tbl = table;
	tbl_n = n < BENCH_MAX_BENCHS ? n : BENCH_MAX_BENCHS;
	build_children(argc, argv);
	err = argp_parse(&argp_root, argc, argv, 0, NULL, NULL);
	if (err)
		return err;
	if (env.list)
		return 0;
	if (!env.bench_name) {
		fprintf(stderr, "no benchmark given; ");
		print_known(stderr);
		fprintf(stderr, " (see bench -l)\n");
		return EINVAL;
	}
	for (i = 0; i < tbl_n; i++) {
		if (!strcmp(tbl[i]->name, env.bench_name)) {
			bench = tbl[i];
			break;
		}
	}
	if (!bench) {
		fprintf(stderr, "unknown benchmark '%s'; ", env.bench_name);
		print_known(stderr);
		fputc('\n', stderr);
		return EINVAL;
	}
	if ((opt_owner && opt_owner != bench->argp) || opt_other) {
		fprintf(stderr, "option %s does not apply to benchmark '%s'\n",
			opt_owner != bench->argp ? opt_owner_name : opt_other_name, bench->name);
		return EINVAL;
	}
	if (env.zero_seed && !(bench->caps & BENCH_CAP_ZERO_SEED)) {
		fprintf(stderr, "--zero-seed does not apply to benchmark '%s': it measures no hash map (htab-mem, bpf-hashmap-lookup, hash-lookup, percpu-hash-lookup and lru-hash-lookup do)\n",
			bench->name);
		usage_status = 2;
		return EINVAL;
	}
	if (env.repeat_cnt > 1 && (bench->caps & BENCH_CAP_NO_REPEAT)) {
		fprintf(stderr, "--repeat %d does not apply to benchmark '%s': its results are not per-second samples (only --repeat 1)\n",
			env.repeat_cnt, bench->name);
		usage_status = 2;
		return EINVAL;
	}
	/* every sample of every repeat is kept: bound the run's length too */
	if ((long)env.repeat_cnt * (env.warmup_sec + env.duration_sec) > MAX_SECONDS) {
		fprintf(stderr, "invalid --repeat %d: %d x (-w %d + -d %d) seconds is more than %d\n",
			env.repeat_cnt, env.repeat_cnt, env.warmup_sec, env.duration_sec,
			MAX_SECONDS);
		usage_status = 2;
		return EINVAL;
	}
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

