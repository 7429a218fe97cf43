// SPDX-License-Identifier: GPL-2.0
/*
 * Results as data: the benchmark's effective options, per-producer rates
 * and fairness, noise warnings, and the JSON document of a run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_version.h"
#include "output_file.h"
#include "kernel_env.h"

#define SCHEMA_NAME "bench-result"
#define SCHEMA_VERSION 1

/* ---- a benchmark's effective options ---- */

struct bench_opts_out {
	json_t *obj;
};

void bench_opt_str(struct bench_opts_out *out, const char *key, const char *val)
{
	json_object_set_new(out->obj, key, val ? json_string(val) : json_null());
}

void bench_opt_int(struct bench_opts_out *out, const char *key, long long val)
{
	json_object_set_new(out->obj, key, json_integer(val));
}

void bench_opt_bool(struct bench_opts_out *out, const char *key, bool val)
{
	json_object_set_new(out->obj, key, json_boolean(val));
}

/* ---- metrics from outside the samples ---- */

#define MAX_EXTRA_METRICS 64

static struct extra_metric {
	char *name;
	const char *unit;
	bool higher_is_better;
	double *values;
	int n;
} extras[MAX_EXTRA_METRICS];
static int extra_cnt;

int bench_add_extra_metric(const char *name, const char *unit, bool higher_is_better,
			   const double *values, int n)
{
	struct extra_metric *e;

	if (extra_cnt == MAX_EXTRA_METRICS)
		return -E2BIG;
	e = &extras[extra_cnt];
	e->name = strdup(name);
	e->values = malloc((n ? n : 1) * sizeof(*values));
	if (!e->name || !e->values) {
		free(e->name);
		free(e->values);
		return -ENOMEM;
	}
	memcpy(e->values, values, n * sizeof(*values));
	e->n = n;
	e->unit = unit;
	e->higher_is_better = higher_is_better;
	extra_cnt++;
	return 0;
}

/* ---- warnings: printed once on stderr, kept for JSON ---- */

#define MAX_WARNINGS 16
static char *warnings[MAX_WARNINGS];
static int warning_cnt;

static void __attribute__((format(printf, 1, 2))) warn_noise(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	fprintf(stderr, "warning: %s\n", msg);
	if (warning_cnt < MAX_WARNINGS)
		warnings[warning_cnt++] = msg;
	else
		free(msg);
}

void bench_results_free(void)
{
	int i;

	for (i = 0; i < warning_cnt; i++)
		free(warnings[i]);
	warning_cnt = 0;
	for (i = 0; i < extra_cnt; i++) {
		free(extras[i].name);
		free(extras[i].values);
	}
	extra_cnt = 0;
}

/* the CPUs threads run on: pinned ones, or every allowed CPU */
static void governor_check(void)
{
	char path[128], gov[64], bad[256] = "";
	struct cpu_list allowed;
	int i, n = 0;

	if (allowed_cpu_list(&allowed))
		return;
	for (i = 0; i < allowed.cnt; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 allowed.cpus[i]);
		if (read_first_line(path, gov, sizeof(gov)) || !*gov)
			continue;	/* no cpufreq here: nothing to warn about */
		if (strcmp(gov, "performance") && n++ < 4)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%sCPU %d: %s",
				 *bad ? ", " : "", allowed.cpus[i], gov);
	}
	if (n)
		warn_noise("cpufreq governor is not 'performance' (%s%s): frequency changes add noise",
			   bad, n > 4 ? ", ..." : "");
	cpu_list_free(&allowed);
}

#define NOISE_CV 0.05
#define NOISE_INTERVAL_NS 5000000L

void bench_check_noise(struct bench_res res[], int res_cnt)
{
	const struct bench *b = bench_current();
	struct cpu_list allowed;
	struct stats st;
	long off, worst = 0;
	int i, late = 0;

	if (b->metrics && b->metrics[0].name && res_cnt > 1) {
		metric_stats(&b->metrics[0], res, res_cnt, &st);
		if (st.n > 1 && st.cv > NOISE_CV)
			warn_noise("%s varies by %.1f%% between samples (coefficient of variation above %.0f%%): the result is noisy",
				   b->metrics[0].name, st.cv * 100, NOISE_CV * 100);
	}
	for (i = 0; i < res_cnt; i++) {
		off = labs(res[i].delta_ns - 1000000000L);
		if (off > NOISE_INTERVAL_NS) {
			late++;
			if (off > worst)
				worst = off;
		}
	}
	if (late)
		warn_noise("%d sample interval%s more than %ld ms off one second (worst %.3f ms): the sampler was delayed",
			   late, late > 1 ? "s were" : " was", NOISE_INTERVAL_NS / 1000000,
			   worst / 1e6);
	if (env.affinity && !allowed_cpu_list(&allowed)) {
		if (env.producer_cnt > allowed.cnt)
			warn_noise("%d producers pinned to %d allowed CPU%s: producers share CPUs",
				   env.producer_cnt, allowed.cnt, allowed.cnt > 1 ? "s" : "");
		cpu_list_free(&allowed);
	}
	governor_check();
}

/* ---- per-producer rates ---- */

struct prod_rates {
	int n;
	double *rate;
	long long *count;
	double total;
};

static const char *prod_unit(void)
{
	const struct bench *b = bench_current();

	return b->prod_rate_unit ? b->prod_rate_unit : "M/s";
}

static double prod_scale(void)
{
	const struct bench *b = bench_current();

	return b->prod_rate_scale > 0 ? b->prod_rate_scale : 1e6;
}

/* rate of each producer over all measured samples that carry counts */
static int prod_rates_compute(struct bench_res res[], int res_cnt, struct prod_rates *pr)
{
	long long ns = 0;
	int i, j;

	memset(pr, 0, sizeof(*pr));
	for (i = 0; i < res_cnt; i++)
		if (res[i].has_prod_hits)
			ns += res[i].delta_ns;
	if (ns <= 0)
		return -ENODATA;
	pr->n = env.producer_cnt;
	pr->rate = calloc(pr->n, sizeof(*pr->rate));
	pr->count = calloc(pr->n, sizeof(*pr->count));
	if (!pr->rate || !pr->count) {
		free(pr->rate);
		free(pr->count);
		return -ENOMEM;
	}
	for (i = 0; i < res_cnt; i++) {
		if (!res[i].has_prod_hits)
			continue;
		for (j = 0; j < pr->n; j++)
			pr->count[j] += res[i].prod_hits[j];
	}
	for (j = 0; j < pr->n; j++) {
		pr->rate[j] = pr->count[j] * 1e9 / ns / prod_scale();
		pr->total += pr->rate[j];
	}
	return 0;
}

static void prod_rates_free(struct prod_rates *pr)
{
	free(pr->rate);
	free(pr->count);
}

static void minmax(const double *x, int n, double *mn, double *mx)
{
	int i;

	*mn = *mx = x[0];
	for (i = 1; i < n; i++) {
		if (x[i] < *mn)
			*mn = x[i];
		if (x[i] > *mx)
			*mx = x[i];
	}
}

void bench_report_per_producer(struct bench_res res[], int res_cnt)
{
	struct prod_rates pr;
	double mn, mx;
	int j, err;

	err = prod_rates_compute(res, res_cnt, &pr);
	if (err == -ENODATA) {
		fprintf(stderr, "per-producer counts are not available for benchmark '%s'\n",
			bench_current()->name);
		return;
	}
	if (err) {
		fprintf(stderr, "failed to compute per-producer rates: %s\n", strerror(-err));
		return;
	}
	printf("Per-producer rates (%s):\n", prod_unit());
	for (j = 0; j < pr.n; j++) {
		if (env.prod_cpu[j] >= 0)
			printf("  producer %3d (CPU %3d): %10.3lf\n", j, env.prod_cpu[j], pr.rate[j]);
		else
			printf("  producer %3d (CPU   -): %10.3lf\n", j, pr.rate[j]);
	}
	printf("  total                 : %10.3lf\n", pr.total);
	minmax(pr.rate, pr.n, &mn, &mx);
	printf("Fairness: min %.3lf, max %.3lf, max/min %.3lf, Jain's index %.4lf\n",
	       mn, mx, mn > 0 ? mx / mn : INFINITY, jain_index(pr.rate, pr.n));
	prod_rates_free(&pr);
}

/* ---- JSON ---- */

/* JSON has no NaN or infinity: a missing value is null */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cpu_list_json(const struct cpu_list *l)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < l->cnt; i++)
		json_array_append_new(a, json_integer(l->cpus[i]));
	return a;
}

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, v[i] >= 0 ? json_integer(v[i]) : json_null());
	return a;
}

static json_t *file_value(const char *path, bool numeric)
{
	char buf[256], *end;
	long long v;

	if (read_first_line(path, buf, sizeof(buf)) || !*buf)
		return json_null();
	if (numeric) {
		errno = 0;
		v = strtoll(buf, &end, 10);
		if (!errno && !*end && end != buf)
			return json_integer(v);
	}
	return json_string(buf);
}

static json_t *cpu_model(void)
{
	char line[512], *p;
	FILE *f = fopen("/proc/cpuinfo", "r");
	json_t *model = NULL;

	if (!f)
		return json_null();
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = '\0';
		model = json_string(p);
		break;
	}
	fclose(f);
	return model ? model : json_null();
}

/* under which hypervisor or emulator, with which cgroup layout */
static void where_json(json_t *ctx)
{
	const char *mode = kenv_cgroup_mode("/proc/self/mountinfo");
	struct kenv_hv hv;

	kenv_read_hypervisor("", &hv);
	json_object_set_new(ctx, "hypervisor", json_string(hv.kind));
	json_object_set_new(ctx, "hypervisor_evidence", json_string(hv.evidence));
	json_object_set_new(ctx, "cgroup_mode", mode ? json_string(mode) : json_null());
}

static json_t *context_json(void)
{
	struct cpu_list allowed = {};
	struct utsname u;
	json_t *ctx, *jit, *cmd;
	char buf[64];
	int i;

	ctx = json_object();
	if (!uname(&u)) {
		json_object_set_new(ctx, "kernel_release", json_string(u.release));
		json_object_set_new(ctx, "machine", json_string(u.machine));
	}
	json_object_set_new(ctx, "cpu_model", cpu_model());
	json_object_set_new(ctx, "online_cpus", file_value("/sys/devices/system/cpu/online", false));
	json_object_set_new(ctx, "nr_online_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	allowed_cpu_list(&allowed);
	json_object_set_new(ctx, "allowed_cpus", cpu_list_json(&allowed));
	cpu_list_free(&allowed);
	json_object_set_new(ctx, "producer_cpus", int_array(env.prod_cpu, env.producer_cnt));
	json_object_set_new(ctx, "consumer_cpus", int_array(env.cons_cpu, env.consumer_cnt));

	jit = json_object();
	json_object_set_new(jit, "bpf_jit_enable", file_value("/proc/sys/net/core/bpf_jit_enable", true));
	json_object_set_new(jit, "bpf_jit_harden", file_value("/proc/sys/net/core/bpf_jit_harden", true));
	json_object_set_new(jit, "bpf_jit_kallsyms", file_value("/proc/sys/net/core/bpf_jit_kallsyms", true));
	json_object_set_new(jit, "bpf_jit_limit", file_value("/proc/sys/net/core/bpf_jit_limit", true));
	json_object_set_new(ctx, "sysctl", jit);

	snprintf(buf, sizeof(buf), "%u.%u", libbpf_major_version(), libbpf_minor_version());
	json_object_set_new(ctx, "libbpf_version", json_string(buf));
	json_object_set_new(ctx, "bench_version", json_string(BENCH_VERSION));

	cmd = json_array();
	for (i = 0; i < env.argc; i++)
		json_array_append_new(cmd, json_string(env.argv[i]));
	json_object_set_new(ctx, "command_line", cmd);
	where_json(ctx);
	return ctx;
}

static json_t *run_opts_json(void)
{
	const struct bench *b = bench_current();
	struct bench_opts_out out = { .obj = json_object() };
	json_t *runner = json_object();

	json_object_set_new(runner, "duration_sec", json_integer(env.duration_sec));
	json_object_set_new(runner, "warmup_sec", json_integer(env.warmup_sec));
	json_object_set_new(runner, "producers", json_integer(env.producer_cnt));
	json_object_set_new(runner, "consumers", json_integer(env.consumer_cnt));
	json_object_set_new(runner, "affinity", json_boolean(env.affinity));
	json_object_set_new(runner, "prod_affinity", cpu_list_json(&env.prod_cpus));
	json_object_set_new(runner, "cons_affinity", cpu_list_json(&env.cons_cpus));
	if (b->describe_opts)
		b->describe_opts(&out);
	return json_pack("{s:o, s:o}", "runner", runner, "benchmark", out.obj);
}

static json_t *memory_source_json(void)
{
	if (!bench_run.mem_cgroup)
		return json_null();
	return json_pack("{s:s, s:s?, s:s?}", "cgroup", bench_run.mem_cgroup,
			 "current_file", bench_run.mem_current_file,
			 "peak_file", bench_run.mem_peak_file);
}

static json_t *sample_json(const struct bench_res *r, int iter, bool warmup)
{
	const struct bench *b = bench_current();
	const struct bench_metric *m;
	json_t *counters, *metrics, *ph;
	int j;

	counters = json_pack("{s:I, s:I, s:I}", "hits", (json_int_t)r->hits,
			     "drops", (json_int_t)r->drops, "fails", (json_int_t)r->fails);
	json_object_set_new(counters, "mem_bytes",
			    r->mem_bytes >= 0 ? json_integer(r->mem_bytes) : json_null());
	if (r->has_prod_hits) {
		ph = json_array();
		for (j = 0; j < env.producer_cnt; j++)
			json_array_append_new(ph, json_integer(r->prod_hits[j]));
		json_object_set_new(counters, "prod_hits", ph);
	}
	metrics = json_object();
	for (m = b->metrics; m && m->name; m++)
		json_object_set_new(metrics, m->name, jnum(m->value(r)));
	return json_pack("{s:i, s:b, s:I, s:o, s:o}", "iter", iter, "warmup", warmup,
			 "interval_ns", (json_int_t)r->delta_ns, "counters", counters,
			 "metrics", metrics);
}

static json_t *stats_json(const struct stats *st)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", st->n,
			 "mean", jnum(st->mean), "stddev", jnum(st->stddev),
			 "median", jnum(st->median), "min", jnum(st->min), "max", jnum(st->max),
			 "cv", jnum(st->cv), "ci95", jnum(st->ci95));
}

static json_t *summary_json(struct bench_res *res, int res_cnt)
{
	const struct bench *b = bench_current();
	const struct bench_metric *m;
	json_t *metrics = json_object(), *s, *summary;
	long long fails = 0;
	struct stats st;
	int i;

	for (m = b->metrics; m && m->name; m++) {
		metric_stats(m, res, res_cnt, &st);
		s = stats_json(&st);
		json_object_set_new(s, "unit", json_string(m->unit));
		json_object_set_new(s, "higher_is_better", json_boolean(m->higher_is_better));
		if (m->resolution)
			json_object_set_new(s, "resolution", jnum(m->resolution()));
		json_object_set_new(metrics, m->name, s);
	}
	for (i = 0; i < extra_cnt; i++) {
		json_t *vals = json_array();
		int j;

		stats_compute(extras[i].values, extras[i].n, &st);
		s = stats_json(&st);
		json_object_set_new(s, "unit", json_string(extras[i].unit));
		json_object_set_new(s, "higher_is_better", json_boolean(extras[i].higher_is_better));
		for (j = 0; j < extras[i].n; j++)
			json_array_append_new(vals, jnum(extras[i].values[j]));
		json_object_set_new(s, "values", vals);
		json_object_set_new(metrics, extras[i].name, s);
	}
	for (i = 0; i < res_cnt; i++)
		fails += res[i].fails;
	summary = json_pack("{s:o, s:I}", "metrics", metrics, "fails", (json_int_t)fails);
	json_object_set_new(summary, "peak_memory_bytes",
			    bench_run.peak_mem_bytes >= 0 ?
			    json_integer(bench_run.peak_mem_bytes) : json_null());
	json_object_set_new(summary, "peak_memory_mib",
			    bench_run.peak_mem_bytes >= 0 ?
			    json_real(bench_run.peak_mem_bytes / 1048576.0) : json_null());
	return summary;
}

static json_t *per_producer_json(struct bench_res *res, int res_cnt)
{
	struct prod_rates pr;
	json_t *prods, *o;
	double mn, mx;
	int j;

	if (prod_rates_compute(res, res_cnt, &pr))
		return json_null();
	prods = json_array();
	for (j = 0; j < pr.n; j++)
		json_array_append_new(prods, json_pack("{s:i, s:o, s:I, s:o}", "producer", j,
			"cpu", env.prod_cpu[j] >= 0 ? json_integer(env.prod_cpu[j]) : json_null(),
			"count", (json_int_t)pr.count[j], "rate", jnum(pr.rate[j])));
	minmax(pr.rate, pr.n, &mn, &mx);
	o = json_pack("{s:s, s:o, s:o, s:{s:o, s:o, s:o, s:o}}", "unit", prod_unit(),
		      "producers", prods, "total_rate", jnum(pr.total),
		      "fairness", "min", jnum(mn), "max", jnum(mx),
		      "max_over_min", jnum(mn > 0 ? mx / mn : NAN),
		      "jain_index", jnum(jain_index(pr.rate, pr.n)));
	prod_rates_free(&pr);
	return o;
}

static json_t *warnings_json(void)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < warning_cnt; i++)
		json_array_append_new(a, json_string(warnings[i]));
	return a;
}

/*
 * Refuse an unwritable destination before the benchmark runs, without
 * creating anything there.
 */
int bench_json_precheck(const char *path)
{
	int err = output_file_check(path);

	if (err)
		fprintf(stderr, "invalid --json '%s': cannot write there: %s\n", path, strerror(-err));
	return err;
}

/*
 * The document is rendered while the benchmark is still set up and written
 * after its teardown: a FIFO waiting for its reader then holds nothing
 * but the process.
 */
char *bench_json_render(struct bench_res *res, int res_cnt, int warmup_cnt)
{
	const struct bench *b = bench_current();
	json_t *doc, *samples;
	char *text = NULL;
	int i;

	samples = json_array();
	for (i = 0; i < res_cnt; i++)
		json_array_append_new(samples, sample_json(&res[i], i, i < warmup_cnt));
	doc = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"schema", SCHEMA_NAME, "schema_version", SCHEMA_VERSION,
			"benchmark", b->name, "options", run_opts_json(),
			"context", context_json(), "memory_source", memory_source_json(),
			"samples", samples,
			"summary", summary_json(res + warmup_cnt, res_cnt - warmup_cnt),
			"per_producer", per_producer_json(res + warmup_cnt, res_cnt - warmup_cnt),
			"warnings", warnings_json());
	if (doc)
		text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (!text)
		fprintf(stderr, "failed to build JSON results: %s\n", strerror(ENOMEM));
	return text;
}

int bench_json_write(const char *path, const char *text)
{
	struct output_file *of;
	int err;

	err = output_file_open(&of, path);
	if (!err) {
		fprintf(output_file_stream(of), "%s\n", text);
		err = output_file_commit(of);
	}
	if (err == -EINTR)
		fprintf(stderr, "interrupted while waiting for a reader of %s: not written\n", path);
	else if (err)
		fprintf(stderr, "failed to write %s: %s\n", path, strerror(-err));
	return err;
}
