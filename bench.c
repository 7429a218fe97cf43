// SPDX-License-Identifier: GPL-2.0
/*
 * bench: a generic producer/consumer benchmark runner for BPF.
 *
 * N producer and M consumer threads run a benchmark's loops; once per
 * second the main thread samples the benchmark's counters.  Warm-up
 * samples are dropped and the rest summarised.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_version.h"
#include "compare.h"
#include "output_file.h"
#include "plot.h"

struct env env = {
	.duration_sec = 5,
	.warmup_sec = 1,
	.producer_cnt = 1,
	.consumer_cnt = 0,
};

/* The benchmark table: the one place a benchmark is registered. */
extern const struct bench bench_count_global;
extern const struct bench bench_count_local;
extern const struct bench bench_bpf_hashmap_lookup;
extern const struct bench bench_hash_lookup;
extern const struct bench bench_array_lookup;
extern const struct bench bench_percpu_hash_lookup;
extern const struct bench bench_percpu_array_lookup;
extern const struct bench bench_lru_hash_lookup;
extern const struct bench bench_trig_base;
extern const struct bench bench_htab_mem;

static const struct bench *benchs[] = {
	&bench_count_global,
	&bench_count_local,
	&bench_bpf_hashmap_lookup,
	&bench_hash_lookup,
	&bench_array_lookup,
	&bench_percpu_hash_lookup,
	&bench_percpu_array_lookup,
	&bench_lru_hash_lookup,
	&bench_trig_base,
	&bench_htab_mem,
};

static const struct bench *bench;

struct bench_run_info bench_run = {
	.peak_mem_bytes = -1,
};

const struct bench *bench_current(void)
{
	return bench;
}

void bench_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (bench && bench->teardown)
		bench->teardown();
	release_tracefs();
	exit(1);
}

/* ---- statistics-backed reporters ---- */

static double m_hits(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / 1e6;
}

static double m_hits_per_prod(const struct bench_res *r)
{
	return m_hits(r) / env.producer_cnt;
}

static double m_drops(const struct bench_res *r)
{
	return rate_per_sec(r->drops, r->delta_ns) / 1e6;
}

const struct bench_metric hits_drops_metrics[] = {
	{ "hits", "M/s", true, m_hits },
	{ "hits_per_prod", "M/s", true, m_hits_per_prod },
	{ "drops", "M/s", false, m_drops },
	{},
};

static double m_total(const struct bench_res *r)
{
	return m_hits(r) + m_drops(r);
}

/*
 * Upstream's "total operations" (hits + drops), printed but not a JSON
 * metric: it is the sum of two that are, and adding it would make every
 * result saved before it lack a metric that compare requires on both sides.
 */
static const struct bench_metric total_metric = { "total", "M/s", true, m_total };

void metric_stats(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct stats *st)
{
	double *v = calloc(res_cnt ? res_cnt : 1, sizeof(*v));
	int i;

	if (!v) {
		memset(st, 0, sizeof(*st));
		st->mean = NAN;
		return;
	}
	for (i = 0; i < res_cnt; i++)
		v[i] = m->value(&res[i]);
	stats_compute(v, res_cnt, st);
	free(v);
}

static void print_iter_prefix(int iter, long delta_ns)
{
	printf("Iter %3d (%7.3lfus): ", iter, (delta_ns - 1000000000) / 1000.0);
}

void hits_drops_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double hits = m_hits(res);

	print_iter_prefix(iter, delta_ns);
	printf("hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, total operations %8.3lfM/s\n",
	       hits, hits / env.producer_cnt, m_drops(res), m_total(res));
}

void hits_drops_report_final(struct bench_res res[], int res_cnt)
{
	struct stats hits, drops, total;

	metric_stats(&hits_drops_metrics[0], res, res_cnt, &hits);
	metric_stats(&hits_drops_metrics[2], res, res_cnt, &drops);
	/* the spread of the per-sample totals, as upstream: not a sum of spreads */
	metric_stats(&total_metric, res, res_cnt, &total);
	printf("Summary: hits %8.3lf \u00B1 %5.3lfM/s (%7.3lfM/prod), ",
	       hits.mean, hits.stddev, hits.mean / env.producer_cnt);
	printf("drops %8.3lf \u00B1 %5.3lfM/s, ", drops.mean, drops.stddev);
	printf("total operations %8.3lf \u00B1 %5.3lfM/s\n", total.mean, total.stddev);
}

/* ---- per-producer counters ---- */

struct counter *bench_alloc_prod_counters(void)
{
	struct counter *c;

	c = aligned_alloc(BENCH_CACHELINE, env.producer_cnt * sizeof(*c));
	if (!c)
		bench_fatal("failed to allocate counters: %s", strerror(ENOMEM));
	memset(c, 0, env.producer_cnt * sizeof(*c));
	return c;
}

long bench_collect_prod_counters(struct counter *c, struct bench_res *res)
{
	long sum = 0;
	int i;

	for (i = 0; i < env.producer_cnt; i++) {
		res->prod_hits[i] = atomic_swap(&c[i].value, 0);
		sum += res->prod_hits[i];
	}
	res->has_prod_hits = true;
	return sum;
}

/* ---- options ---- */

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
	  "Also write the run as a JSON document to FILE at the end: a regular file "
	  "atomically (temporary file and rename), a FIFO or device in place; "
	  "'-' is stdout, and the human-readable output then goes to stderr" },
	{ "per-producer", ARG_PER_PRODUCER, NULL, 0,
	  "After the Summary, print each producer's rate and the fairness" },
	{},
};

#define MAX_SECONDS 86400

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
static const struct argp *child_orig[ARRAY_SIZE(benchs)];
static struct argp child_argps[ARRAY_SIZE(benchs)];
static struct argp_child children[ARRAY_SIZE(benchs) + 1];
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
	static char name[64];
	error_t err;

	if (!orig || !orig->parser)
		return ARGP_ERR_UNKNOWN;
	err = orig->parser(key, arg, state);
	if (err == 0 && is_option_key(key) && !opt_owner) {
		opt_owner = orig;
		opt_owner_name = option_name(orig, key, name, sizeof(name));
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
static void build_children(void)
{
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(benchs); i++) {
		const struct argp *a = benchs[i]->argp;

		if (!a)
			continue;
		for (j = 0; j < children_cnt; j++)
			if (child_orig[j] == a)
				break;
		if (j < children_cnt)
			continue;
		child_orig[children_cnt] = a;
		child_argps[children_cnt] = (struct argp){
			.options = a->options,
			.parser = child_trampoline,
		};
		children[children_cnt] = (struct argp_child){
			.argp = &child_argps[children_cnt],
			.header = benchs[i]->name,
		};
		children_cnt++;
	}
}

static void list_benchmarks(void)
{
	size_t i;

	printf("Benchmarks:\n");
	for (i = 0; i < ARRAY_SIZE(benchs); i++)
		printf("  %-24s %s\n", benchs[i]->name, benchs[i]->desc ? benchs[i]->desc : "");
}

static void print_known(FILE *f)
{
	size_t i;

	fprintf(f, "known benchmarks:");
	for (i = 0; i < ARRAY_SIZE(benchs); i++)
		fprintf(f, " %s", benchs[i]->name);
}

static int parse_cmdline(int argc, char **argv)
{
	static const struct argp argp_root = {
		.options = opts,
		.parser = root_parser,
		.doc = argp_program_doc,
		.children = children,
	};
	size_t i;
	int err;

	build_children();
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
	for (i = 0; i < ARRAY_SIZE(benchs); i++) {
		if (!strcmp(benchs[i]->name, env.bench_name)) {
			bench = benchs[i];
			break;
		}
	}
	if (!bench) {
		fprintf(stderr, "unknown benchmark '%s'; ", env.bench_name);
		print_known(stderr);
		fputc('\n', stderr);
		return EINVAL;
	}
	if (opt_owner && opt_owner != bench->argp) {
		fprintf(stderr, "option %s does not apply to benchmark '%s'\n",
			opt_owner_name, bench->name);
		return EINVAL;
	}
	return 0;
}

/* ---- threads and affinity ---- */

static struct bench_state {
	int res_cnt;
	struct bench_res *results;
	long *prod_hits_store;
	pthread_t *consumers;
	pthread_t *producers;
	struct cpu_list allowed;
	int next_cpu;
} state;

/*
 * Threads are created already pinned (the affinity is in their attributes),
 * so not even a thread's first operation runs on another CPU.
 */
static int create_thread(pthread_t *thread, void *(*fn)(void *), long idx, int cpu)
{
	pthread_attr_t attr;
	cpu_set_t cpuset;
	int err;

	err = pthread_attr_init(&attr);
	if (err)
		return -err;
	if (cpu >= 0) {
		CPU_ZERO(&cpuset);
		CPU_SET(cpu, &cpuset);
		err = pthread_attr_setaffinity_np(&attr, sizeof(cpuset), &cpuset);
	}
	if (!err)
		err = pthread_create(thread, &attr, fn, (void *)idx);
	pthread_attr_destroy(&attr);
	return -err;
}

/* round-robin over an explicit set, or over the CPUs we may use */
static int pick_cpu(const struct cpu_list *set, int idx)
{
	if (set->cnt)
		return set->cpus[idx % set->cnt];
	return state.allowed.cpus[state.next_cpu++ % state.allowed.cnt];
}

static int validate_affinity(void)
{
	int bad, err;

	err = allowed_cpu_list(&state.allowed);
	if (err) {
		fprintf(stderr, "failed to get CPU affinity: %s\n", strerror(-err));
		return err;
	}
	bad = cpu_list_first_not_in(&env.prod_cpus, &state.allowed);
	if (bad < 0)
		bad = cpu_list_first_not_in(&env.cons_cpus, &state.allowed);
	if (bad >= 0) {
		fprintf(stderr, "invalid CPU set: CPU %d is not available to this process (allowed: ",
			bad);
		for (err = 0; err < state.allowed.cnt; err++)
			fprintf(stderr, "%s%d", err ? "," : "", state.allowed.cpus[err]);
		fprintf(stderr, ")\n");
		return -EINVAL;
	}
	return 0;
}

static int start_threads(void)
{
	int i, err, cpu;

	for (i = 0; i < env.consumer_cnt; i++) {
		cpu = env.affinity ? pick_cpu(&env.cons_cpus, i) : -1;
		err = create_thread(&state.consumers[i], bench->consumer_thread, i, cpu);
		if (err) {
			fprintf(stderr, "failed to create consumer thread #%d: %s\n", i,
				strerror(-err));
			return err;
		}
		env.cons_cpu[i] = cpu;
	}
	for (i = 0; i < env.producer_cnt; i++) {
		cpu = env.affinity ? pick_cpu(&env.prod_cpus, i) : -1;
		err = create_thread(&state.producers[i], bench->producer_thread, i, cpu);
		if (err) {
			fprintf(stderr, "failed to create producer thread #%d: %s\n", i,
				strerror(-err));
			return err;
		}
		env.prod_cpu[i] = cpu;
	}
	return 0;
}

static int alloc_state(void)
{
	int i, n = env.warmup_sec + env.duration_sec;

	state.producers = calloc(env.producer_cnt, sizeof(*state.producers));
	state.consumers = calloc(env.consumer_cnt ? env.consumer_cnt : 1,
				 sizeof(*state.consumers));
	state.results = calloc(n, sizeof(*state.results));
	state.prod_hits_store = calloc((size_t)n * env.producer_cnt, sizeof(long));
	env.prod_cpu = malloc(env.producer_cnt * sizeof(int));
	env.cons_cpu = malloc((env.consumer_cnt ? env.consumer_cnt : 1) * sizeof(int));
	if (!state.producers || !state.consumers || !state.results ||
	    !state.prod_hits_store || !env.prod_cpu || !env.cons_cpu)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		state.results[i].prod_hits = state.prod_hits_store + (size_t)i * env.producer_cnt;
	for (i = 0; i < env.producer_cnt; i++)
		env.prod_cpu[i] = -1;
	for (i = 0; i < env.consumer_cnt; i++)
		env.cons_cpu[i] = -1;
	return 0;
}

static void free_state(void)
{
	free(state.producers);
	free(state.consumers);
	free(state.results);
	free(state.prod_hits_store);
	free(env.prod_cpu);
	free(env.cons_cpu);
	cpu_list_free(&state.allowed);
	cpu_list_free(&env.prod_cpus);
	cpu_list_free(&env.cons_cpus);
	bench_results_free();
	free(env.argv);
}

/* ---- sampling ---- */

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * Zero operations over every measured sample is not a slow result, it is
 * no result: fail before anything is summarised or written.
 */
static int check_counted(const struct bench_res res[], int res_cnt)
{
	long total = 0;
	int i;

	for (i = 0; i < res_cnt; i++)
		total += res[i].hits;
	if (bench->counted_by == BENCH_COUNTED_BY_NONE || total > 0)
		return 0;
	if (bench->counted_by == BENCH_COUNTED_BY_BPF)
		fprintf(stderr, "%s measured nothing: its BPF program saw none of the producers' triggers in %d measured sample%s (likely causes: the program does not recognise the producer threads, e.g. ids taken in another pid namespace; the tracepoint never fires for them, e.g. a seccomp filter denies the syscall; or the program was detached)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	else
		fprintf(stderr, "%s measured nothing: the producers counted no operation in %d measured sample%s (likely cause: the producer threads never ran)\n",
			bench->name, res_cnt, res_cnt == 1 ? "" : "s");
	return -ENODATA;
}

static void teardown_bench(void)
{
	if (bench && bench->teardown)
		bench->teardown();
	release_tracefs();
}

/*
 * 0, or the error of a failed write to stdout or stderr.  SIGPIPE is
 * blocked, so a reader that went away shows here as EPIPE; errno must be 0
 * before the printing checked.
 */
static int std_output_error(void)
{
	int err = errno;
	sigset_t pending;

	if (fflush(stdout))
		err = errno;
	else if (!ferror(stdout) && !ferror(stderr))
		return 0;
	/*
	 * errno may be a later call's by now; the SIGPIPE an EPIPE raised
	 * stays pending (blocked) whatever ran since.
	 */
	if (!sigpending(&pending) && sigismember(&pending, SIGPIPE))
		return EPIPE;
	return err ? err : EIO;
}

/*
 * How a run ends when its output cannot be written: a reader that went
 * away ends it like the SIGPIPE it would have raised, quietly and with
 * 128 + SIGPIPE; any other error is said on stderr.  Returns the exit
 * status.
 */
static int std_output_failed(int err)
{
	if (err == EPIPE)
		return 128 + SIGPIPE;
	fprintf(stderr, "failed to write standard output: %s\n", strerror(err));
	return 1;
}

/*
 * SIGALRM and the signals that end a run (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGPIPE) are blocked in every thread and taken here with
 * sigwait(), so the per-second sampling and the clean-up run as ordinary
 * code rather than in a signal handler.  A failed write of an Iter line
 * ends the run too: *out_err is its errno.
 */
static int run_sampling(const sigset_t *sigs, int *stop_sig, int *out_err)
{
	struct itimerval timer = {
		.it_interval = { .tv_sec = 1 },
		.it_value = { .tv_sec = 1 },
	};
	int total = env.warmup_sec + env.duration_sec, sig, iter;
	long last, now;

	last = now_ns();
	if (setitimer(ITIMER_REAL, &timer, NULL)) {
		fprintf(stderr, "failed to start the sampling timer: %s\n", strerror(errno));
		return -errno;
	}
	for (iter = 0; iter < total;) {
		if (sigwait(sigs, &sig))
			continue;
		if (sig != SIGALRM) {
			*stop_sig = sig;
			break;
		}
		now = now_ns();
		bench->measure(&state.results[iter]);
		state.results[iter].delta_ns = now - last;
		last = now;
		errno = 0;
		if (!env.quiet && bench->report_progress)
			bench->report_progress(iter, &state.results[iter],
					       state.results[iter].delta_ns);
		iter++;
		state.res_cnt = iter;
		*out_err = std_output_error();
		if (*out_err)
			break;
	}
	timer = (struct itimerval){};
	setitimer(ITIMER_REAL, &timer, NULL);
	return 0;
}

/*
 * A descriptor 0-2 closed by the caller (">&-") would be taken by the
 * first file the run opens, and Iter lines would land in a cgroup or
 * result file: hold the slot with /dev/null, read-only for stdout so
 * that printing there fails rather than vanishes.
 */
static void hold_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY) != fd)
			return;
	}
}

int main(int argc, char **argv)
{
	int err, sig, out_err = 0;
	struct sigaction old_hup;
	char *json_text = NULL;
	const char *test_mode;
	sigset_t sigs;

	hold_std_fds();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return bench_compare_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "plot"))
		return bench_plot_main(argc - 1, argv + 1);

	/* argp permutes argv: keep the command line as it was typed, for JSON */
	env.argc = argc;
	env.argv = malloc((argc + 1) * sizeof(*argv));
	if (!env.argv) {
		fprintf(stderr, "failed to copy the command line: %s\n", strerror(ENOMEM));
		return 1;
	}
	memcpy(env.argv, argv, (argc + 1) * sizeof(*argv));


	err = parse_cmdline(argc, argv);
	if (err)
		goto out_free;
	if (env.list) {
		list_benchmarks();
		goto out_free;
	}
	if (env.consumer_cnt && !bench->consumer_thread) {
		fprintf(stderr, "benchmark '%s' has no consumers; -c/--consumers must be 0 (got %d)\n",
			bench->name, env.consumer_cnt);
		err = EINVAL;
		goto out_free;
	}
	if (validate_affinity()) {
		err = EINVAL;
		goto out_free;
	}
	if (env.json_path && bench_json_precheck(env.json_path)) {
		err = EINVAL;
		goto out_free;
	}
	/* stdout carries the JSON document alone: the rest goes to stderr */
	if (env.json_path && output_file_is_stdout(env.json_path))
		stdout = stderr;
	else if (output_file_check("-")) {
		fprintf(stderr, "failed to write standard output: %s\n", strerror(EBADF));
		err = EBADF;
		goto out_free;
	}
	if (alloc_state()) {
		fprintf(stderr, "failed to allocate runner state: %s\n", strerror(ENOMEM));
		err = ENOMEM;
		goto out_free;
	}

	/* block before any thread exists, so every thread inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGALRM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	/* under nohup, a hang-up is not the end of the run */
	if (!sigaction(SIGHUP, NULL, &old_hup) && old_hup.sa_handler != SIG_IGN)
		sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGQUIT);
	sigaddset(&sigs, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	setup_libbpf(env.verbose);
	if (bench->validate)
		bench->validate();

	errno = 0;
	if (!env.quiet)
		printf("Setting up benchmark '%s'...\n", bench->name);
	out_err = std_output_error();
	if (out_err) {
		err = std_output_failed(out_err);
		goto out_free;
	}
	if (bench->setup)
		bench->setup();

	/* a signal during set-up is pending now: honour it before starting */
	{
		struct timespec zero = {};

		sig = sigtimedwait(&sigs, NULL, &zero);
		if (sig > 0 && sig != SIGALRM) {
			if (sig != SIGPIPE)
				fprintf(stderr, "interrupted by %s: cleaning up\n", strsignal(sig));
			err = 128 + sig;
			goto out_teardown;
		}
	}

	/* test mode: tests of loading and clean-up skip the sampling */
	test_mode = getenv("BENCH_TEST_EXIT_AFTER_SETUP");
	if (test_mode && !strcmp(test_mode, "1")) {
		fprintf(stderr, "exiting after set-up (BENCH_TEST_EXIT_AFTER_SETUP=1): nothing measured\n");
		goto out_teardown;
	}

	err = start_threads();
	if (err) {
		err = -err;
		goto out_teardown;
	}
	errno = 0;
	if (!env.quiet)
		printf("Benchmark '%s' started.\n", bench->name);
	out_err = std_output_error();
	if (out_err) {
		err = std_output_failed(out_err);
		goto out_teardown;
	}

	sig = 0;
	err = run_sampling(&sigs, &sig, &out_err);
	if (err) {
		err = -err;
		goto out_teardown;
	}
	if (out_err) {
		err = std_output_failed(out_err);
		goto out_teardown;
	}
	if (sig) {
		/* a reader that went away is not told, as with any tool */
		if (sig != SIGPIPE)
			fprintf(stderr, "interrupted by %s: cleaning up\n", strsignal(sig));
		err = 128 + sig;
		goto out_teardown;
	}

	if (check_counted(state.results + env.warmup_sec, state.res_cnt - env.warmup_sec)) {
		err = 1;
		goto out_teardown;
	}
	errno = 0;
	bench->report_final(state.results + env.warmup_sec, state.res_cnt - env.warmup_sec);
	bench_check_noise(state.results + env.warmup_sec, state.res_cnt - env.warmup_sec);
	if (env.per_producer)
		bench_report_per_producer(state.results + env.warmup_sec,
					  state.res_cnt - env.warmup_sec);
	out_err = std_output_error();
	/* after report_final: benchmarks record peak memory there */
	if (env.json_path)
		json_text = bench_json_render(state.results, state.res_cnt, env.warmup_sec);
	teardown_bench();
	if (out_err) {
		err = std_output_failed(out_err);
		goto out_free;
	}
	if (env.json_path && !json_text) {
		err = ENOMEM;
	} else if (env.json_path) {
		err = bench_json_write(env.json_path, json_text);
		if (err == -EINTR) {
			/* a signal ended the wait for a FIFO's reader */
			struct timespec zero = {};

			sig = sigtimedwait(&sigs, NULL, &zero);
			err = sig > 0 ? 128 + sig : EINTR;
		}
	}
	goto out_free;
out_teardown:
	teardown_bench();
out_free:
	free(json_text);
	free_state();
	/* producers may still be spinning: exit() ends them with the process */
	return err ? (err >= 128 ? err : 1) : 0;
}
