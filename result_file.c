// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and checking a `bench --json` result (docs/results-and-json.md,
 * "JSON schema").
 * A reader must never turn a broken file into a figure: a run that measured
 * nothing, a value that is not a number, or a summary that does not follow
 * from its samples (the file was edited or corrupted) is refused with the
 * file and the field named.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_limits.h"
#include "cgroup_helpers.h"
#include "latency.h"
#include "result_config.h"
#include "result_file.h"
#include "result_json.h"
#include "stats.h"

/*
 * The writer prints 17 significant digits, enough to read every double
 * back exactly; what remains is summation order (a reordered file) and
 * tools that re-print with fewer digits.  1e-9 of the data's magnitude
 * covers both and is far below any edit worth making.
 */
#define SUMMARY_RTOL 1e-9

struct loader {
	const char *path;
	char *err;
	size_t errsz;
};

static int __attribute__((format(printf, 3, 4)))
bad(struct loader *ld, const char *field, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	len = snprintf(ld->err, ld->errsz, "%s: %s: ", ld->path, field);
	if (len < ld->errsz) {
		va_start(ap, fmt);
		vsnprintf(ld->err + len, ld->errsz - len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* a JSON value as it appears in the file, shortened: for messages */
static const char *jdesc(json_t *v, char *buf, size_t sz)
{
	char *s;

	if (!v)
		return "nothing (missing)";
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!s)
		return "?";
	if (strlen(s) > 40)
		snprintf(buf, sz, "%.37s...", s);
	else
		snprintf(buf, sz, "%s", s);
	free(s);
	return buf;
}

static int get_int(struct loader *ld, json_t *v, const char *field, long long min,
		   long long *out)
{
	char buf[64];

	if (!json_is_integer(v))
		return bad(ld, field, "expected an integer, got %s", jdesc(v, buf, sizeof(buf)));
	*out = json_integer_value(v);
	if (*out < min)
		return bad(ld, field, "expected an integer >= %lld, got %lld", min, *out);
	return 0;
}

/* a finite number; null (no value) gives NaN when nullable */
static int get_num(struct loader *ld, json_t *v, const char *field, bool nullable,
		   double *out)
{
	char buf[64];

	if (nullable && json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return bad(ld, field, "expected a finite number%s, got %s",
			   nullable ? " or null" : "", jdesc(v, buf, sizeof(buf)));
	*out = json_number_value(v);
	return 0;
}

static int get_obj(struct loader *ld, json_t *v, const char *field, json_t **out)
{
	char buf[64];

	if (!json_is_object(v))
		return bad(ld, field, "expected an object, got %s", jdesc(v, buf, sizeof(buf)));
	*out = v;
	return 0;
}

/*
 * What no run of bench can have been (bench_limits.h, the command line's
 * limits): more than a day of seconds, a thread count beyond the limit,
 * no producer.  Every reader refuses such a file, as one edited.
 */
/* --prod-affinity's or --cons-affinity's CPUs: each a CPU the command line takes, once */
static int check_cpu_list(struct loader *ld, json_t *runner, const char *key)
{
	json_t *list = json_object_get(runner, key), *v;
	char field[64], buf[64];
	size_t i, j;
	long long x;
	int err;

	/* absent in files written before the options */
	if (!list)
		return 0;
	snprintf(field, sizeof(field), "options.runner.%s", key);
	if (!json_is_array(list))
		return bad(ld, field, "expected an array of CPU numbers, got %s",
			   jdesc(list, buf, sizeof(buf)));
	json_array_foreach(list, i, v) {
		snprintf(field, sizeof(field), "options.runner.%s[%zu]", key, i);
		err = get_int(ld, v, field, 0, &x);
		if (err)
			return err;
		if (x > BENCH_MAX_CPU_NR)
			return bad(ld, field, "expected a CPU number in 0..%d, got %lld",
				   BENCH_MAX_CPU_NR, x);
		for (j = 0; j < i; j++)
			if (json_equal(json_array_get(list, j), v))
				return bad(ld, field, "CPU %lld a second time: the command line takes each CPU once",
					   x);
	}
	return 0;
}

static int check_run_limits(struct loader *ld, struct result_file *rf, json_t *runner)
{
	static const struct { const char *key; long long min; } threads[] = {
		{ "producers", 1 }, { "consumers", 0 },
	};
	char field[64];
	long long x;
	size_t i;
	int err;

	if (rf->warmup_sec > BENCH_MAX_SECONDS || rf->duration_sec > BENCH_MAX_SECONDS ||
	    (long long)rf->repeat_cnt * (rf->warmup_sec + rf->duration_sec) > BENCH_MAX_SECONDS)
		return bad(ld, "options.runner", "-w %d -d %d x %d repeat%s: more than the %d seconds a run may take",
			   rf->warmup_sec, rf->duration_sec, rf->repeat_cnt,
			   rf->repeat_cnt == 1 ? "" : "s", BENCH_MAX_SECONDS);
	for (i = 0; i < sizeof(threads) / sizeof(threads[0]); i++) {
		json_t *v = json_object_get(runner, threads[i].key);

		/* absent in no file bench wrote; the configuration says so where it matters */
		if (!v)
			continue;
		snprintf(field, sizeof(field), "options.runner.%s", threads[i].key);
		err = get_int(ld, v, field, threads[i].min, &x);
		if (err)
			return err;
		if (x > BENCH_MAX_THREADS)
			return bad(ld, field, "expected an integer in %lld..%d, got %lld",
				   threads[i].min, BENCH_MAX_THREADS, x);
	}
	err = check_cpu_list(ld, runner, "prod_affinity");
	return err ?: check_cpu_list(ld, runner, "cons_affinity");
}

static int check_header(struct loader *ld, struct result_file *rf)
{
	json_t *doc = rf->doc, *v, *runner = NULL;
	long long x;
	char buf[64];
	int err;

	v = json_object_get(doc, "schema");
	if (!json_is_string(v) || strcmp(json_string_value(v), RESULT_JSON_SCHEMA_NAME))
		return bad(ld, "schema", "expected \"%s\", got %s: not a bench result",
			   RESULT_JSON_SCHEMA_NAME, jdesc(v, buf, sizeof(buf)));
	err = get_int(ld, json_object_get(doc, "schema_version"), "schema_version", 0, &x);
	if (err)
		return err;
	if (x != RESULT_JSON_SCHEMA_VERSION)
		return bad(ld, "schema_version", "schema version %lld is not one this bench reads (it reads %d)",
			   x, RESULT_JSON_SCHEMA_VERSION);
	v = json_object_get(doc, "benchmark");
	if (!json_is_string(v) || !*json_string_value(v))
		return bad(ld, "benchmark", "expected a benchmark name, got %s",
			   jdesc(v, buf, sizeof(buf)));
	rf->benchmark = json_string_value(v);

	err = get_obj(ld, json_object_get(doc, "options"), "options", &v);
	if (!err)
		err = get_obj(ld, json_object_get(v, "runner"), "options.runner", &runner);
	if (!err)
		err = get_int(ld, json_object_get(runner, "warmup_sec"), "options.runner.warmup_sec",
			      0, &x);
	if (err)
		return err;
	rf->warmup_sec = x;
	err = get_int(ld, json_object_get(runner, "duration_sec"), "options.runner.duration_sec",
		      1, &x);
	if (err)
		return err;
	rf->duration_sec = x;
	/* files written before --repeat have neither: one repeat, seeded */
	rf->repeat_cnt = 1;
	v = json_object_get(runner, "repeat");
	if (v) {
		err = get_int(ld, v, "options.runner.repeat", 1, &x);
		if (err)
			return err;
		if (x > BENCH_MAX_REPEAT)
			return bad(ld, "options.runner.repeat", "expected an integer in 1..%d, got %lld",
				   BENCH_MAX_REPEAT, x);
		rf->repeat_cnt = x;
	}
	err = check_run_limits(ld, rf, runner);
	if (err)
		return err;
	v = json_object_get(runner, "zero_seed");
	if (v && !json_is_boolean(v))
		return bad(ld, "options.runner.zero_seed", "expected true or false, got %s",
			   jdesc(v, buf, sizeof(buf)));
	rf->zero_seed = json_is_true(v);
	return 0;
}

static int nomem(struct loader *ld)
{
	snprintf(ld->err, ld->errsz, "failed to load %s: %s", ld->path, strerror(ENOMEM));
	return -ENOMEM;
}

/* the producer count, the configuration as one object, the noise warnings */
static int load_config(struct loader *ld, struct result_file *rf)
{
	json_t *opts = json_object_get(rf->doc, "options"), *v, *w;
	size_t i;

	v = json_object_get(json_object_get(opts, "runner"), "producers");
	rf->producers = json_is_integer(v) && json_integer_value(v) >= 1 &&
			json_integer_value(v) <= BENCH_MAX_THREADS ? json_integer_value(v) : -1;
	rf->config = result_config(rf->doc);
	if (!rf->config)
		return nomem(ld);
	rf->nr_allowed_cpus = json_array_size(json_object_get(json_object_get(rf->doc, "context"),
							      "allowed_cpus"));
	v = json_object_get(rf->doc, "warnings");
	rf->warnings = calloc(json_array_size(v) + 1, sizeof(*rf->warnings));
	if (!rf->warnings)
		return nomem(ld);
	json_array_foreach(v, i, w)
		if (json_is_string(w))
			rf->warnings[rf->nwarnings++] = json_string_value(w);
	return 0;
}

/*
 * An imported result (bench import): where it came from, what it lacks.
 * Such a file may have samples without counters (upstream prints rates),
 * no fails count, and metrics of which only a printed mean is known.
 */
static int load_source(struct loader *ld, struct result_file *rf)
{
	json_t *src = json_object_get(rf->doc, "source"), *v, *w;
	char buf[64], field[64];
	const char *kind;
	size_t i;

	if (!src)
		return 0;
	if (!json_is_object(src))
		return bad(ld, "source", "expected an object, got %s", jdesc(src, buf, sizeof(buf)));
	v = json_object_get(src, "kind");
	kind = json_string_value(v);
	if (!kind || (strcmp(kind, "upstream-text") && strcmp(kind, "patch-mail")))
		return bad(ld, "source.kind", "expected \"upstream-text\" or \"patch-mail\", got %s",
			   jdesc(v, buf, sizeof(buf)));
	rf->source_kind = kind;
	v = json_object_get(src, "file");
	if (!json_is_string(v))
		return bad(ld, "source.file", "expected the imported file's name, got %s",
			   jdesc(v, buf, sizeof(buf)));
	rf->source_file = json_string_value(v);
	v = json_object_get(src, "command_line");
	if (v && !json_is_null(v) && !json_is_array(v))
		return bad(ld, "source.command_line", "expected an array of strings or null, got %s",
			   jdesc(v, buf, sizeof(buf)));
	json_array_foreach(v, i, w)
		if (!json_is_string(w)) {
			snprintf(field, sizeof(field), "source.command_line[%zu]", i);
			return bad(ld, field, "expected a string, got %s", jdesc(w, buf, sizeof(buf)));
		}
	for (i = 0; i < 2; i++) {
		const char *key = i ? "lacks" : "missing_metrics";
		size_t j;

		snprintf(field, sizeof(field), "source.%s", key);
		v = json_object_get(src, key);
		if (!json_is_array(v))
			return bad(ld, field, "expected an array of strings, got %s",
				   jdesc(v, buf, sizeof(buf)));
		json_array_foreach(v, j, w)
			if (!json_is_string(w))
				return bad(ld, field, "expected an array of strings, got %s in it",
					   jdesc(w, buf, sizeof(buf)));
	}
	rf->missing_metrics = json_object_get(src, "missing_metrics");
	rf->lacks = json_object_get(src, "lacks");
	return 0;
}

/* the samples' shape, and that -w warm-up then -d measured ones are there */
static int check_samples(struct loader *ld, struct result_file *rf, json_t *summary_metrics)
{
	json_t *samples = json_object_get(rf->doc, "samples"), *s, *v, *c = NULL, *m = NULL;
	int measured = 0, warmups = 0, err;
	char field[128], buf[64], rep[64] = "";
	long long fails = 0, x;
	const char *key;
	size_t i;
	double d;

	if (!json_is_array(samples))
		return bad(ld, "samples", "expected an array of samples, got %s",
			   jdesc(samples, buf, sizeof(buf)));
	rf->samples = calloc(json_array_size(samples) + 1, sizeof(*rf->samples));
	if (!rf->samples)
		return nomem(ld);
	json_array_foreach(samples, i, s) {
		snprintf(field, sizeof(field), "samples[%zu]", i);
		err = get_obj(ld, s, field, &s);
		if (err)
			return err;
		v = json_object_get(s, "warmup");
		snprintf(field, sizeof(field), "samples[%zu].warmup", i);
		if (!json_is_boolean(v))
			return bad(ld, field, "expected true or false, got %s",
				   jdesc(v, buf, sizeof(buf)));
		rf->samples[i].warmup = json_is_true(v);
		if (json_is_true(v)) {
			if (measured)
				return bad(ld, field, "a warm-up sample after measured ones");
			warmups++;
		} else {
			/* measured samples are in repeat order, -d of each */
			v = json_object_get(s, "repeat");
			snprintf(field, sizeof(field), "samples[%zu].repeat", i);
			if (v || rf->repeat_cnt > 1) {
				err = get_int(ld, v, field, 0, &x);
				if (err)
					return err;
				if (x != measured / rf->duration_sec)
					return bad(ld, field, "%lld, but measured sample %d belongs to repeat %d (-d %d per repeat)",
						   x, measured, measured / rf->duration_sec,
						   rf->duration_sec);
			}
			measured++;
		}
		snprintf(field, sizeof(field), "samples[%zu].interval_ns", i);
		err = get_int(ld, json_object_get(s, "interval_ns"), field, 1, &x);
		if (err)
			return err;
		rf->samples[i].interval_ns = x;
		snprintf(field, sizeof(field), "samples[%zu].counters", i);
		/* an imported run's samples have rates, never counts */
		v = json_object_get(s, "counters");
		if (rf->source_kind && v)
			return bad(ld, field, "counters in an imported result, which has rates only");
		if (!rf->source_kind) {
			err = get_obj(ld, v, field, &c);
			if (err)
				return err;
			snprintf(field, sizeof(field), "samples[%zu].counters.fails", i);
			err = get_int(ld, json_object_get(c, "fails"), field, 0, &x);
			if (err)
				return err;
			if (json_is_false(json_object_get(s, "warmup")))
				fails += x;
		}
		snprintf(field, sizeof(field), "samples[%zu].metrics", i);
		err = get_obj(ld, json_object_get(s, "metrics"), field, &m);
		if (err)
			return err;
		json_object_foreach(m, key, v) {
			snprintf(field, sizeof(field), "samples[%zu].metrics.%s", i, key);
			err = get_num(ld, v, field, true, &d);
			if (err)
				return err;
			if (!json_object_get(summary_metrics, key))
				return bad(ld, field, "a metric summary.metrics does not have");
		}
	}
	/* an import of a Summary line or a table row: its figures alone */
	if (!measured && rf->source_kind && !warmups)
		return 0;
	if (!measured)
		return bad(ld, "samples", "no measured sample (%d warm-up, %zu in all): the run measured nothing",
			   warmups, json_array_size(samples));
	if (rf->repeat_cnt > 1)
		snprintf(rep, sizeof(rep), " --repeat %d (each repeat's samples count)", rf->repeat_cnt);
	if (warmups != rf->warmup_sec * rf->repeat_cnt ||
	    measured != rf->duration_sec * rf->repeat_cnt)
		return bad(ld, "samples", "%d warm-up and %d measured samples, but options.runner says -w %d -d %d%s",
			   warmups, measured, rf->warmup_sec, rf->duration_sec, rep);
	rf->nsamples = warmups + measured;
	rf->fails = fails;
	return 0;
}

/* a value in the summary against the one recomputed from the samples */
static int check_stat(struct loader *ld, json_t *def, const char *name, const char *stat,
		      double calc, double scale)
{
	char field[160], fs[32], cs[32];
	double file, tol;
	int err;

	snprintf(field, sizeof(field), "summary.metrics.%s.%s", name, stat);
	err = get_num(ld, json_object_get(def, stat), field, true, &file);
	if (err)
		return err;
	if (isnan(file) && isnan(calc))
		return 0;
	tol = SUMMARY_RTOL * fmax(scale, fmax(fabs(file), fabs(calc)));
	if (!isnan(file) && !isnan(calc) && fabs(file - calc) <= tol)
		return 0;
	snprintf(fs, sizeof(fs), isnan(file) ? "null" : "%.10g", file);
	snprintf(cs, sizeof(cs), isnan(calc) ? "none" : "%.10g", calc);
	return bad(ld, field, "%s in the file, %s from its samples: the file was edited or corrupted",
		   fs, cs);
}

/*
 * The robust summaries (absent in files written before them): recomputed
 * from the values like the mean, and the list of values outside Tukey's
 * fences must be exactly the values that are.
 */
static int check_robust(struct loader *ld, json_t *def, const char *name,
			struct result_metric *rm, double scale)
{
	static const char *const keys[] = { "p90", "p99", "q1", "q3", "iqr", "mad" };
	json_t *tukey = json_object_get(def, "tukey"), *list, *o;
	struct outlier *out;
	char field[160];
	double calc[6];
	long long x;
	size_t i;
	int err = 0;

	out = calloc(rm->nvalues + 1, sizeof(*out));
	if (!out || stats_robust(rm->values, rm->nvalues, &rm->rb, out, rm->nvalues)) {
		free(out);
		snprintf(ld->err, ld->errsz, "failed to load %s: %s", ld->path, strerror(ENOMEM));
		return -ENOMEM;
	}
	calc[0] = rm->rb.p90;
	calc[1] = rm->rb.p99;
	calc[2] = rm->rb.q1;
	calc[3] = rm->rb.q3;
	calc[4] = rm->rb.iqr;
	calc[5] = rm->rb.mad;
	for (i = 0; !err && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_get(def, keys[i]))
			err = check_stat(ld, def, name, keys[i], calc[i], scale);
	if (err || !tukey)
		goto out;
	snprintf(field, sizeof(field), "%s.tukey", name);
	err = check_stat(ld, tukey, field, "low_fence", rm->rb.low_fence, scale);
	if (!err)
		err = check_stat(ld, tukey, field, "high_fence", rm->rb.high_fence, scale);
	list = json_object_get(tukey, "outliers");
	snprintf(field, sizeof(field), "summary.metrics.%s.tukey.outliers", name);
	if (!err && (!json_is_array(list) || json_array_size(list) != (size_t)rm->rb.outliers))
		err = bad(ld, field, "%zu listed, %d values of the metric are outside the fences: the file was edited or corrupted",
			  json_is_array(list) ? json_array_size(list) : 0, rm->rb.outliers);
	json_array_foreach(list, i, o) {
		if (err)
			break;
		snprintf(field, sizeof(field), "summary.metrics.%s.tukey.outliers[%zu].index", name, i);
		err = get_int(ld, json_object_get(o, "index"), field, 0, &x);
		if (!err && x != out[i].index)
			err = bad(ld, field, "%lld, but the value outside the fences is number %d: the file was edited or corrupted",
				  x, out[i].index);
	}
out:
	free(out);
	return err;
}

/* the repeats' means, recomputed, and the file's account of them checked */
static int load_repeats(struct loader *ld, const struct result_file *rf, const char *name,
			json_t *def, struct result_metric *rm, double scale)
{
	int i, n = rm->own_values ? 1 : rf->repeat_cnt, *counts;
	json_t *rep = json_object_get(def, "repeats");
	char field[160];
	int err = 0;

	rm->repeat_means = calloc(n, sizeof(*rm->repeat_means));
	counts = calloc(n, sizeof(*counts));
	if (!rm->repeat_means || !counts) {
		free(counts);
		return nomem(ld);
	}
	rm->nrepeats = n;
	for (i = 0; i < n; i++)
		counts[i] = n == 1 ? rm->nvalues : rf->duration_sec;
	stats_two_level(rm->values, counts, n, &rm->tl, rm->repeat_means);
	free(counts);
	if (n == 1)
		return 0;
	snprintf(field, sizeof(field), "summary.metrics.%s.repeats", name);
	if (!json_is_object(rep))
		return bad(ld, field, "missing, but options.runner.repeat is %d", n);
	snprintf(field, sizeof(field), "%s.repeats", name);
	err = check_stat(ld, rep, field, "mean", rm->tl.mean, scale);
	if (!err)
		err = check_stat(ld, rep, field, "between_stddev", rm->tl.between_sd, scale);
	if (!err)
		err = check_stat(ld, rep, field, "within_stddev", rm->tl.within_sd, scale);
	return err;
}

/* the summary's statistics of a metric against those recomputed from its values */
static int check_stats(struct loader *ld, json_t *def, const char *name, const struct stats *st,
		       double scale)
{
	int err;

	/*
	 * one value has no spread: null (older files: 0, as stats_compute()
	 * still has it)
	 */
	bool one = st->n < 2 && json_is_null(json_object_get(def, "stddev")) &&
		   json_is_null(json_object_get(def, "cv")) && json_is_null(json_object_get(def, "ci95"));

	err = check_stat(ld, def, name, "mean", st->mean, scale);
	if (!err && !one)
		err = check_stat(ld, def, name, "stddev", st->stddev, scale);
	if (!err)
		err = check_stat(ld, def, name, "median", st->median, scale);
	if (!err)
		err = check_stat(ld, def, name, "min", st->min, scale);
	if (!err)
		err = check_stat(ld, def, name, "max", st->max, scale);
	if (!err && !one)
		err = check_stat(ld, def, name, "ci95", st->ci95, scale);
	/* a ratio: its own magnitude is the scale */
	if (!err && !one)
		err = check_stat(ld, def, name, "cv", st->cv, 1.0);
	return err;
}

/* every sample's value, warm-up included: check_samples() checked each that is there */
static int load_per_sample(struct loader *ld, const struct result_file *rf, const char *name,
			   struct result_metric *rm)
{
	json_t *s, *v;
	size_t i;

	rm->per_sample = calloc(rf->nsamples + 1, sizeof(*rm->per_sample));
	if (!rm->per_sample)
		return nomem(ld);
	json_array_foreach(json_object_get(rf->doc, "samples"), i, s) {
		v = json_object_get(json_object_get(s, "metrics"), name);
		rm->per_sample[i] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	return 0;
}

/*
 * An imported metric of which only the printed mean and spread are known
 * (summary.metrics.NAME.summary_only): no values, so no test; st.n is 0
 * and st.mean, st.stddev (NaN: not printed) are the printed ones.
 */
static int load_summary_only(struct loader *ld, struct result_file *rf, const char *name,
			     json_t *def, struct result_metric *rm)
{
	char field[160], buf[64];
	int err;

	snprintf(field, sizeof(field), "summary.metrics.%s.summary_only", name);
	if (!json_is_true(json_object_get(def, "summary_only")))
		return bad(ld, field, "expected true: an imported result without samples has its metrics' printed figures only");
	if (!rf->source_kind || rf->nsamples)
		return bad(ld, field, "only an imported result without samples has summary-only metrics");
	snprintf(field, sizeof(field), "summary.metrics.%s.n", name);
	if (!json_is_null(json_object_get(def, "n")))
		return bad(ld, field, "expected null: a printed summary does not say how many values it had, got %s",
			   jdesc(json_object_get(def, "n"), buf, sizeof(buf)));
	memset(&rm->st, 0, sizeof(rm->st));
	rm->st.median = rm->st.min = rm->st.max = rm->st.cv = rm->st.ci95 = NAN;
	snprintf(field, sizeof(field), "summary.metrics.%s.mean", name);
	err = get_num(ld, json_object_get(def, "mean"), field, false, &rm->st.mean);
	if (err)
		return err;
	snprintf(field, sizeof(field), "summary.metrics.%s.stddev", name);
	err = get_num(ld, json_object_get(def, "stddev"), field, true, &rm->st.stddev);
	if (err)
		return err;
	if (rm->st.stddev < 0)
		return bad(ld, field, "%g: a spread is not negative", rm->st.stddev);
	rm->summary_only = true;
	rm->values = calloc(1, sizeof(*rm->values));
	return rm->values ? 0 : nomem(ld);
}

static int load_metric(struct loader *ld, struct result_file *rf, const char *name, json_t *def,
		       struct result_metric *rm)
{
	json_t *own, *samples, *s, *v;
	char field[160], buf[64];
	double scale = 0;
	long long n;
	size_t i;
	int err;

	rm->name = name;
	snprintf(field, sizeof(field), "summary.metrics.%s", name);
	err = get_obj(ld, def, field, &def);
	if (err)
		return err;
	v = json_object_get(def, "unit");
	snprintf(field, sizeof(field), "summary.metrics.%s.unit", name);
	if (!json_is_string(v))
		return bad(ld, field, "expected a string, got %s", jdesc(v, buf, sizeof(buf)));
	rm->unit = json_string_value(v);
	v = json_object_get(def, "higher_is_better");
	snprintf(field, sizeof(field), "summary.metrics.%s.higher_is_better", name);
	if (!json_is_boolean(v))
		return bad(ld, field, "expected true or false, got %s", jdesc(v, buf, sizeof(buf)));
	rm->higher_is_better = json_is_true(v);
	v = json_object_get(def, "resolution");
	if (v) {
		snprintf(field, sizeof(field), "summary.metrics.%s.resolution", name);
		err = get_num(ld, v, field, false, &rm->resolution);
		if (err)
			return err;
		if (rm->resolution <= 0)
			return bad(ld, field, "expected a positive number, got %g", rm->resolution);
	}

	v = json_object_get(def, "summary_only");
	if (v || (rf->source_kind && !rf->nsamples))
		return load_summary_only(ld, rf, name, def, rm);

	/* a metric measured outside the samples carries its own values */
	own = json_object_get(def, "values");
	samples = json_object_get(rf->doc, "samples");
	rm->own_values = own != NULL;
	if (own && !json_is_array(own)) {
		snprintf(field, sizeof(field), "summary.metrics.%s.values", name);
		return bad(ld, field, "expected an array of numbers, got %s",
			   jdesc(own, buf, sizeof(buf)));
	}
	rm->values = calloc((own ? json_array_size(own) : json_array_size(samples)) + 1,
			    sizeof(*rm->values));
	if (!rm->values)
		return nomem(ld);
	if (!own) {
		err = load_per_sample(ld, rf, name, rm);
		if (err)
			return err;
	}
	if (own) {
		json_array_foreach(own, i, v) {
			snprintf(field, sizeof(field), "summary.metrics.%s.values[%zu]", name, i);
			err = get_num(ld, v, field, true, &rm->values[rm->nvalues++]);
			if (err)
				return err;
		}
	} else {
		json_array_foreach(samples, i, s) {
			if (json_is_true(json_object_get(s, "warmup")))
				continue;
			v = json_object_get(json_object_get(s, "metrics"), name);
			snprintf(field, sizeof(field), "samples[%zu].metrics.%s", i, name);
			err = get_num(ld, v, field, true, &rm->values[rm->nvalues++]);
			if (err)
				return err;
		}
	}
	for (i = 0; i < (size_t)rm->nvalues; i++)
		if (!isnan(rm->values[i]))
			scale = fmax(scale, fabs(rm->values[i]));

	stats_compute(rm->values, rm->nvalues, &rm->st);
	snprintf(field, sizeof(field), "summary.metrics.%s.n", name);
	err = get_int(ld, json_object_get(def, "n"), field, 0, &n);
	if (err)
		return err;
	if (n != rm->st.n)
		return bad(ld, field, "%lld in the file, %d values in its %s: the file was edited or corrupted",
			   n, rm->st.n, own ? "values" : "measured samples");
	err = check_stats(ld, def, name, &rm->st, scale);
	if (!err)
		err = check_robust(ld, def, name, rm, scale);
	if (!err)
		err = load_repeats(ld, rf, name, def, rm, scale);
	return err;
}

static int check_summary(struct loader *ld, struct result_file *rf, json_t *summary,
			 json_t *metrics)
{
	json_t *def, *vb, *vm;
	const char *key;
	char buf[64];
	long long x = 0;
	int err, i, measured = 0;
	double mib;

	rf->metrics = calloc(json_object_size(metrics), sizeof(*rf->metrics));
	if (!rf->metrics)
		return nomem(ld);
	json_object_foreach(metrics, key, def) {
		err = load_metric(ld, rf, key, def, &rf->metrics[rf->nmetrics++]);
		if (err)
			return err;
	}
	for (i = 0; i < rf->nmetrics; i++)
		measured += rf->metrics[i].st.n > 0 || rf->metrics[i].summary_only;
	if (!measured)
		return bad(ld, "summary.metrics", "no metric has a measured value: the run measured nothing");

	/* upstream does not count failures: an import's are unknown */
	if (rf->source_kind && !json_is_null(json_object_get(summary, "fails")))
		return bad(ld, "summary.fails", "expected null in an imported result, got %s",
			   jdesc(json_object_get(summary, "fails"), buf, sizeof(buf)));
	err = rf->source_kind ? 0 :
	      get_int(ld, json_object_get(summary, "fails"), "summary.fails", 0, &x);
	if (err)
		return err;
	if (!rf->source_kind && x != rf->fails)
		return bad(ld, "summary.fails", "%lld in the file, %lld from its samples: the file was edited or corrupted",
			   x, rf->fails);

	vb = json_object_get(summary, "peak_memory_bytes");
	vm = json_object_get(summary, "peak_memory_mib");
	rf->peak_memory_mib = NAN;
	if (!json_is_null(vb) &&
	    (err = get_int(ld, vb, "summary.peak_memory_bytes", 0, &x)))
		return err;
	err = get_num(ld, vm, "summary.peak_memory_mib", true, &mib);
	if (err)
		return err;
	if (json_is_null(vb) != isnan(mib))
		return bad(ld, "summary.peak_memory_mib", "%s, but summary.peak_memory_bytes is %s",
			   isnan(mib) ? "null" : "set", jdesc(vb, buf, sizeof(buf)));
	if (!isnan(mib) && fabs(mib - x / 1048576.0) > SUMMARY_RTOL * fmax(mib, 1.0))
		return bad(ld, "summary.peak_memory_mib", "%.10g, but summary.peak_memory_bytes is %lld (%.10g MiB): the file was edited or corrupted",
			   mib, x, x / 1048576.0);
	rf->peak_memory_mib = mib;

	/* absent from files written before it existed: unknown */
	vm = json_object_get(summary, "peak_memory_resolution_mib");
	rf->peak_memory_resolution_mib = 0;
	if (vm) {
		err = get_num(ld, vm, "summary.peak_memory_resolution_mib", true, &mib);
		if (err)
			return err;
		if (!isnan(mib) && mib < 0)
			return bad(ld, "summary.peak_memory_resolution_mib", "%g: a resolution is not negative",
				   mib);
		if (!isnan(mib))
			rf->peak_memory_resolution_mib = mib;
	}
	return 0;
}

/* a percentile in the file against the one its buckets give */
static int check_lat_pct(struct loader *ld, json_t *obj, const char *group, const char *key,
			 double calc)
{
	char field[96];
	double file;
	int err;

	snprintf(field, sizeof(field), "latency.%s.%s", group, key);
	err = get_num(ld, json_object_get(obj, key), field, true, &file);
	if (err)
		return err;
	if (isnan(file) && isnan(calc))
		return 0;
	if (isnan(file) || isnan(calc) || fabs(file - calc) > SUMMARY_RTOL * fmax(1.0, fabs(calc)))
		return bad(ld, field, "%.10g in the file, %.10g from its buckets: the file was edited or corrupted",
			   file, calc);
	return 0;
}

/* name's buckets ([{lo_ns, count}]) into counts, which start zeroed */
static int read_buckets(struct loader *ld, json_t *buckets, const char *name, __u64 *counts)
{
	char field[96], buf[64];
	unsigned int idx;
	long long lo, x;
	json_t *b;
	size_t i;
	int err;

	if (!json_is_array(buckets))
		return bad(ld, name, "expected an array of buckets, got %s",
			   jdesc(buckets, buf, sizeof(buf)));
	json_array_foreach(buckets, i, b) {
		snprintf(field, sizeof(field), "%s[%zu].lo_ns", name, i);
		err = get_int(ld, json_object_get(b, "lo_ns"), field, 0, &lo);
		if (err)
			return err;
		idx = lat_bucket(lo);
		if (lat_bucket_lo(idx) != (__u64)lo)
			return bad(ld, field, "%lld is not where a bucket starts", lo);
		snprintf(field, sizeof(field), "%s[%zu].count", name, i);
		err = get_int(ld, json_object_get(b, "count"), field, 1, &x);
		if (err)
			return err;
		if (counts[idx])
			return bad(ld, field, "a second bucket from %lld ns", lo);
		counts[idx] = x;
	}
	return 0;
}

/*
 * The reference loop (absent in files written before it): its samples
 * and median follow from its buckets.  rf->lat_ref_ns stays NaN without
 * one, or when no reference loop ran.
 */
static int check_reference(struct loader *ld, struct result_file *rf, json_t *lat)
{
	json_t *ref = json_object_get(lat, "reference");
	__u64 counts[LAT_NR_BUCKETS] = {};
	long long steps, samples;
	int err;

	if (!ref)
		return 0;
	err = get_obj(ld, ref, "latency.reference", &ref);
	if (!err)
		err = get_int(ld, json_object_get(ref, "steps"), "latency.reference.steps", 1, &steps);
	if (!err)
		err = get_int(ld, json_object_get(ref, "samples"), "latency.reference.samples", 0,
			      &samples);
	if (!err)
		err = read_buckets(ld, json_object_get(ref, "buckets"), "latency.reference.buckets",
				   counts);
	if (err)
		return err;
	if (lat_total(counts) != (__u64)samples)
		return bad(ld, "latency.reference.samples", "%lld, but the buckets hold %llu: the file was edited or corrupted",
			   samples, (unsigned long long)lat_total(counts));
	err = check_lat_pct(ld, ref, "reference", "p50_ns", lat_median_interp(counts));
	if (err)
		return err;
	rf->lat_ref_steps = steps;
	rf->lat_ref_samples = samples;
	rf->lat_ref_ns = lat_median_interp(counts);
	return 0;
}

/*
 * --latency's block: buckets on the histogram's boundaries, counts that
 * add up to the triggers the samples counted, and percentiles that follow
 * from the buckets.
 */
static int check_latency(struct loader *ld, struct result_file *rf, json_t *lat)
{
	static const char *const keys[] = { "p50", "p90", "p99", "p99_9", "max" };
	static const __u64 num[] = { 50, 90, 99, 999, 1 }, den[] = { 100, 100, 100, 1000, 1 };
	json_t *s, *per_trig = NULL, *per_op = NULL;
	long long x, triggers, sampled = 0;
	__u64 counts[LAT_NR_BUCKETS] = {};
	char field[96];
	unsigned int idx, k;
	size_t i;
	int err;
	double v;

	err = get_obj(ld, lat, "latency", &lat);
	if (!err)
		err = get_int(ld, json_object_get(lat, "ops_per_trigger"), "latency.ops_per_trigger",
			      0, &x);
	if (!err)
		err = get_int(ld, json_object_get(lat, "triggers"), "latency.triggers", 0, &triggers);
	if (err)
		return err;
	rf->lat_ops_per_trigger = x;
	err = read_buckets(ld, json_object_get(lat, "buckets"), "latency.buckets", counts);
	if (err)
		return err;
	if (lat_total(counts) != (__u64)triggers)
		return bad(ld, "latency.triggers", "%lld, but the buckets hold %llu: the file was edited or corrupted",
			   triggers, (unsigned long long)lat_total(counts));
	json_array_foreach(json_object_get(rf->doc, "samples"), i, s) {
		if (json_is_true(json_object_get(s, "warmup")))
			continue;
		snprintf(field, sizeof(field), "samples[%zu].counters.latency_triggers", i);
		err = get_int(ld, json_object_get(json_object_get(s, "counters"), "latency_triggers"),
			      field, 0, &x);
		if (err)
			return err;
		sampled += x;
	}
	if (sampled != triggers)
		return bad(ld, "latency.triggers", "%lld, but the measured samples timed %lld: the file was edited or corrupted",
			   triggers, sampled);
	err = get_obj(ld, json_object_get(lat, "per_trigger"), "latency.per_trigger", &per_trig);
	if (!err)
		err = get_obj(ld, json_object_get(lat, "per_op"), "latency.per_op", &per_op);
	for (k = 0; !err && k < sizeof(keys) / sizeof(keys[0]); k++) {
		v = lat_quantile(counts, num[k], den[k]);
		err = check_lat_pct(ld, per_trig, "per_trigger", keys[k], v);
		if (!err)
			err = check_lat_pct(ld, per_op, "per_op", keys[k],
					    rf->lat_ops_per_trigger ? v / rf->lat_ops_per_trigger : v);
	}
	if (!err)
		err = check_reference(ld, rf, lat);
	if (err)
		return err;
	rf->lat_counts = calloc(LAT_NR_BUCKETS, sizeof(*rf->lat_counts));
	if (!rf->lat_counts)
		return nomem(ld);
	for (idx = 0; idx < LAT_NR_BUCKETS; idx++)
		rf->lat_counts[idx] = counts[idx];
	return 0;
}

/*
 * The memory breakdown (absent in files written before it): every field
 * has its source recorded and a metric in MiB, and every breakdown metric
 * a source.
 */
static int check_mem_fields(struct loader *ld, struct result_file *rf)
{
	json_t *src = json_object_get(rf->doc, "memory_source"), *fields, *f, *v;
	size_t n = strlen(CG_MEM_METRIC_PREFIX);
	struct result_metric *rm;
	char field[160], buf[64];
	const char *key;
	int i;

	fields = json_is_object(src) ? json_object_get(src, "fields") : NULL;
	if (fields && !json_is_object(fields))
		return bad(ld, "memory_source.fields", "expected an object, got %s",
			   jdesc(fields, buf, sizeof(buf)));
	json_object_foreach(fields, key, f) {
		snprintf(field, sizeof(field), "memory_source.fields.%s", key);
		if (!json_is_object(f) || !json_is_string(json_object_get(f, "file")))
			return bad(ld, field, "expected {\"file\": NAME, \"key\": ...}, got %s",
				   jdesc(f, buf, sizeof(buf)));
		v = json_object_get(f, "key");
		if (!json_is_string(v) && !json_is_null(v))
			return bad(ld, field, "key: expected a string or null, got %s",
				   jdesc(v, buf, sizeof(buf)));
		rm = (struct result_metric *)result_file_metric(rf, key);
		if (strncmp(key, CG_MEM_METRIC_PREFIX, n) || !rm || strcmp(rm->unit, "MiB"))
			return bad(ld, field, "not a memory metric in MiB of summary.metrics");
		rm->mem_field = true;
	}
	for (i = 0; i < rf->nmetrics; i++) {
		rm = &rf->metrics[i];
		if (!strncmp(rm->name, CG_MEM_METRIC_PREFIX, n) && !rm->mem_field)
			return bad(ld, "memory_source.fields", "no source for summary.metrics.%s",
				   rm->name);
	}
	return 0;
}

/*
 * validity (absent in files written before it existed: valid): an
 * invalid run keeps its figures, and every reader leaves it out, saying so
 */
static int load_validity(struct loader *ld, struct result_file *rf)
{
	json_t *v = json_object_get(rf->doc, "validity"), *valid, *reason, *note, *fair, *x;
	char buf[64];
	size_t i;

	if (!v)
		return 0;
	valid = json_object_get(v, "valid");
	reason = json_object_get(v, "reason");
	note = json_object_get(v, "note");
	fair = json_object_get(v, "fair_cpu_share");
	if (!json_is_object(v) || !json_is_boolean(valid))
		return bad(ld, "validity.valid", "expected true or false, got %s",
			   jdesc(valid, buf, sizeof(buf)));
	if (json_is_false(valid) && !json_is_string(reason))
		return bad(ld, "validity.reason", "expected why the run is invalid, got %s",
			   jdesc(reason, buf, sizeof(buf)));
	if (note && !json_is_null(note) && !json_is_string(note))
		return bad(ld, "validity.note", "expected a string or null, got %s",
			   jdesc(note, buf, sizeof(buf)));
	/* files since the fair share: a share of a CPU per producer */
	if (fair && !json_is_array(fair))
		return bad(ld, "validity.fair_cpu_share", "expected an array of shares, got %s",
			   jdesc(fair, buf, sizeof(buf)));
	json_array_foreach(fair, i, x)
		if (!json_is_null(x) && !(json_is_number(x) && json_number_value(x) > 0 &&
					  json_number_value(x) <= 1))
			return bad(ld, "validity.fair_cpu_share", "expected shares in (0, 1], got %s",
				   jdesc(x, buf, sizeof(buf)));
	rf->invalid = json_is_false(valid);
	rf->invalid_reason = rf->invalid ? json_string_value(reason) : NULL;
	rf->validity_note = json_string_value(note);
	return 0;
}

/*
 * The validity block against its own figures: shares of a CPU (0..1, a
 * little over 1 where the clocks were read apart), one per producer, and a
 * run called valid whose producer ran below min_cpu_share (of its fair
 * share, where the file has one) is a file edited or corrupted; runs whose
 * producers wait by design stay valid below it (RUN_SLEEP_EXEMPT).
 */
static int check_validity_figures(struct loader *ld, struct result_file *rf)
{
	json_t *v = json_object_get(rf->doc, "validity"), *min, *share, *fair, *w, *x;
	double m = NAN, f;
	char buf[64];
	size_t i;

	if (!v)
		return 0;
	min = json_object_get(v, "min_cpu_share");
	share = json_object_get(v, "prod_cpu_share");
	fair = json_object_get(v, "fair_cpu_share");
	if (min && !json_is_null(min)) {
		m = json_number_value(min);
		if (!json_is_number(min) || m < 0 || m > 1)
			return bad(ld, "validity.min_cpu_share", "expected a share in 0..1, got %s",
				   jdesc(min, buf, sizeof(buf)));
	}
	if (!share)
		return 0;
	if (!json_is_array(share) ||
	    (rf->producers > 0 && json_array_size(share) != (size_t)rf->producers))
		return bad(ld, "validity.prod_cpu_share", "expected one share per producer (%d), got %s",
			   rf->producers, jdesc(share, buf, sizeof(buf)));
	json_array_foreach(json_object_get(rf->doc, "warnings"), i, w)
		if (json_is_string(w) && strstr(json_string_value(w), RUN_SLEEP_EXEMPT))
			m = NAN;
	json_array_foreach(share, i, x) {
		if (json_is_null(x))
			continue;
		if (!json_is_number(x) || json_number_value(x) < 0 ||
		    json_number_value(x) > RUN_MAX_CPU_SHARE)
			return bad(ld, "validity.prod_cpu_share", "producer #%zu: expected a share of a CPU in 0..1, got %s",
				   i, jdesc(x, buf, sizeof(buf)));
		f = json_number_value(json_array_get(fair, i));
		if (!(f > 0 && f <= 1))
			f = 1;
		if (rf->invalid || !(json_number_value(x) < m * f * (1 - 1e-9)))
			continue;
		return bad(ld, "validity.valid", "true, but producer #%zu ran %.1f%% of its measured time, below min_cpu_share's %.1f%%%s: the file was edited or corrupted",
			   i, 100 * json_number_value(x), 100 * m * f, f < 1 ? " (of its fair share)" : "");
	}
	return 0;
}

/* the checks, on a document already parsed */
static int check_doc(struct loader *ld, struct result_file *rf)
{
	json_t *summary = NULL, *metrics = NULL;
	char buf[64];
	int ret;

	rf->lat_ref_ns = NAN;
	if (!json_is_object(rf->doc))
		return bad(ld, "(top level)", "expected an object, got %s: not a bench result",
			   jdesc(rf->doc, buf, sizeof(buf)));
	ret = check_header(ld, rf);
	if (!ret)
		ret = load_config(ld, rf);
	if (!ret)
		ret = load_source(ld, rf);
	if (!ret)
		ret = get_obj(ld, json_object_get(rf->doc, "summary"), "summary", &summary);
	if (!ret)
		ret = get_obj(ld, json_object_get(summary, "metrics"), "summary.metrics", &metrics);
	if (!ret && !json_object_size(metrics))
		ret = bad(ld, "summary.metrics", "no metric at all: the run measured nothing");
	if (!ret)
		ret = check_samples(ld, rf, metrics);
	if (!ret)
		ret = check_summary(ld, rf, summary, metrics);
	if (!ret)
		ret = check_mem_fields(ld, rf);
	if (!ret && json_object_get(rf->doc, "latency"))
		ret = check_latency(ld, rf, json_object_get(rf->doc, "latency"));
	if (!ret)
		ret = load_validity(ld, rf);
	if (!ret)
		ret = check_validity_figures(ld, rf);
	return ret;
}

bool result_file_left_out(const struct result_file *rf, const char *who)
{
	return !result_file_kept(rf, who, false);
}

bool result_file_kept(const struct result_file *rf, const char *who, bool include_invalid)
{
	if (!rf->invalid)
		return true;
	if (include_invalid) {
		fprintf(stderr, "%s: kept %s (--include-invalid), marked as an invalid run: %s\n",
			who, rf->path, rf->invalid_reason);
		return true;
	}
	fprintf(stderr, "%s: left out %s: invalid run: %s\n", who, rf->path, rf->invalid_reason);
	return false;
}

int result_file_load_doc(const char *name, json_t *doc, struct result_file *rf, char *err,
			 size_t errsz)
{
	struct loader ld = { .path = name, .err = err, .errsz = errsz };
	int ret;

	memset(rf, 0, sizeof(*rf));
	rf->path = name;
	rf->doc = doc;
	*err = '\0';
	ret = check_doc(&ld, rf);
	if (ret)
		result_file_free(rf);
	return ret;
}

/*
 * jansson's allocator while a file is parsed: out of memory it reports
 * whatever it was reading (line -1 and no text, or "string or '}'
 * expected"), so whether an allocation failed is recorded here
 */
static bool json_alloc_failed;

static void *json_alloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		json_alloc_failed = true;
	return p;
}

int result_file_load(const char *path, struct result_file *rf, char *err, size_t errsz)
{
	json_error_t jerr;
	struct stat st;
	json_t *doc;
	FILE *f;
	int ret;

	memset(rf, 0, sizeof(*rf));
	*err = '\0';
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(err, errsz, "failed to read %s: %s", path, strerror(-ret));
		return ret;
	}
	/* fopen() opens a directory for reading; its read's EISDIR is lost in jansson */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		snprintf(err, errsz, "failed to read %s: %s", path, strerror(EISDIR));
		return -EISDIR;
	}
	json_set_alloc_funcs(json_alloc, free);
	json_alloc_failed = false;
	doc = json_loadf(f, 0, &jerr);
	ret = !doc && ferror(f) ? -EIO : 0;
	fclose(f);
	if (ret) {
		snprintf(err, errsz, "failed to read %s: %s", path, strerror(EIO));
		return ret;
	}
	/* the file may be fine: a parse that ran out of memory is not "not valid JSON" */
	if (!doc && json_alloc_failed) {
		snprintf(err, errsz, "failed to load %s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	if (!doc) {
		snprintf(err, errsz, "%s: line %d, column %d: not valid JSON: %s", path, jerr.line,
			 jerr.column, jerr.text);
		return -EINVAL;
	}
	return result_file_load_doc(path, doc, rf, err, errsz);
}

int result_files_load(const char *who, const char *const *paths, int n, struct result_file *rfs,
		      int *loaded)
{
	char msg[512];
	int err;

	for (*loaded = 0; *loaded < n; (*loaded)++) {
		err = result_file_load(paths[*loaded], &rfs[*loaded], msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "%s: %s\n", who, msg);
			return err == -ENOMEM ? err : -EINVAL;
		}
		/* printed figures alone: a configuration, but no values to store, export or pair */
		if (strcmp(who, "config") && result_file_summary_only(&rfs[*loaded])) {
			fprintf(stderr, "%s: %s: imported without samples (summary only): bench compare reads it, %s does not\n",
				who, paths[*loaded], who);
			result_file_free(&rfs[*loaded]);
			return -EINVAL;
		}
	}
	return 0;
}

void result_file_free(struct result_file *rf)
{
	int i;

	for (i = 0; i < rf->nmetrics; i++) {
		free(rf->metrics[i].values);
		free(rf->metrics[i].per_sample);
		free(rf->metrics[i].repeat_means);
	}
	free(rf->metrics);
	free(rf->lat_counts);
	free(rf->samples);
	free(rf->warnings);
	json_decref(rf->config);
	json_decref(rf->doc);
	memset(rf, 0, sizeof(*rf));
}

const struct result_metric *result_file_metric(const struct result_file *rf, const char *name)
{
	int i;

	for (i = 0; i < rf->nmetrics; i++)
		if (!strcmp(rf->metrics[i].name, name))
			return &rf->metrics[i];
	return NULL;
}

bool result_file_lacks(const struct result_file *rf, const char *name)
{
	json_t *v;
	size_t i;

	json_array_foreach(rf->missing_metrics, i, v)
		if (!strcmp(json_string_value(v), name))
			return true;
	return false;
}

bool result_file_summary_only(const struct result_file *rf)
{
	int i;

	for (i = 0; i < rf->nmetrics; i++)
		if (rf->metrics[i].summary_only)
			return true;
	return false;
}
