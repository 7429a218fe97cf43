// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON document of a run: options, context, every sample with its
 * metrics, the summary, per-producer rates and the warnings.  Rendered
 * while the benchmark is still set up, written after its teardown through
 * output_file, so a FIFO waiting for its reader holds nothing but the
 * process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_file.h"
#include "per_producer.h"
#include "result_json.h"
#include "run_context.h"
#include "run_contention.h"

/* a benchmark's effective options */
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

json_t *result_json_options(const struct bench_run *run)
{
	const struct bench *b = run->bench;
	const struct env *env = run->env;
	struct bench_opts_out out = { .obj = json_object() };
	json_t *runner = json_object();

	json_object_set_new(runner, "duration_sec", json_integer(run->repeat_len));
	json_object_set_new(runner, "warmup_sec", json_integer(run->repeat_warmup));
	json_object_set_new(runner, "producers", json_integer(run->producer_cnt));
	json_object_set_new(runner, "consumers", json_integer(run->consumer_cnt));
	json_object_set_new(runner, "repeat", json_integer(run->repeat_cnt));
	json_object_set_new(runner, "zero_seed", json_boolean(env->zero_seed));
	json_object_set_new(runner, "affinity", json_boolean(env->affinity));
	json_object_set_new(runner, "prod_affinity", cpu_list_json(&env->prod_cpus));
	json_object_set_new(runner, "cons_affinity", cpu_list_json(&env->cons_cpus));
	/* only when set: results saved before --latency existed stay comparable */
	if (env->latency)
		json_object_set_new(runner, "latency", json_true());
	if (b->describe_opts)
		b->describe_opts(&out);
	return json_pack("{s:o, s:o}", "runner", runner, "benchmark", out.obj);
}

/* each breakdown metric's file and the line(s) of it that make it */
static json_t *mem_fields_json(const struct bench_run *run)
{
	const struct run_mem_field *f;
	json_t *o = json_object();
	int i;

	for (i = 0; i < BENCH_MEM_FIELDS_MAX; i++) {
		f = &run->mem.fields[i];
		if (!f->metric)
			continue;
		json_object_set_new(o, f->metric->name,
				    json_pack("{s:s, s:o}", "file", f->file, "key",
					      f->key ? json_string(f->key) : json_null()));
	}
	return o;
}

/* the fields memory_stat is the sum of, in the Memory: line's order */
static json_t *stat_parts_json(const struct bench_run *run)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < run->mem.nstat_parts; i++)
		json_array_append_new(a, json_string(run->mem.fields[run->mem.stat_parts[i]].metric->name));
	return a;
}

static json_t *memory_source_json(const struct bench_run *run)
{
	if (!run->mem.cgroup)
		return json_null();
	return json_pack("{s:s, s:s, s:s, s:o, s:o}", "cgroup", run->mem.cgroup,
			 "current_file", run->mem.current_file,
			 "peak_file", run->mem.peak_file, "fields", mem_fields_json(run),
			 "stat_parts", stat_parts_json(run));
}

/* the breakdown's bytes, the fields the kernel offers only (null: not read this time) */
static json_t *mem_stat_json(const struct bench_run *run, const struct bench_res *r)
{
	json_t *o = json_object();
	int i;

	for (i = 0; i < BENCH_MEM_FIELDS_MAX; i++)
		if (run->mem.fields[i].metric)
			json_object_set_new(o, run->mem.fields[i].metric->name,
					    r->mem_stat[i] >= 0 ? json_integer(r->mem_stat[i]) :
					    json_null());
	return o;
}

/*
 * How much of this interval each producer ran (null: unknown), its
 * involuntary context switches, the machine's stolen time, and with
 * --latency how fast its CPU ran
 */
static json_t *contention_json(const struct bench_run *run, const struct bench_res *r)
{
	json_t *share = json_array(), *sw = json_array(), *o;
	int j;

	for (j = 0; j < run->producer_cnt; j++) {
		json_array_append_new(share, r->prod_cpu_share ? json_finite(r->prod_cpu_share[j]) :
				      json_null());
		json_array_append_new(sw, r->prod_nivcsw && r->prod_nivcsw[j] >= 0 ?
				      json_integer(r->prod_nivcsw[j]) : json_null());
	}
	o = json_pack("{s:o, s:o, s:o}", "prod_cpu_share", share, "prod_nivcsw", sw,
		      "steal_share", json_finite(r->steal_share));
	/* --latency: how fast the CPU ran (the reference loop's median, ns) */
	if (run->lat)
		json_object_set_new(o, "reference_ns", json_finite(r->ref_ns));
	return o;
}

static json_t *sample_json(const struct bench_run *run, const struct bench_res *r, int iter,
			   bool warmup)
{
	const struct bench_metric *const *m;
	json_t *counters, *metrics, *ph;
	int j;

	counters = json_pack("{s:I, s:I, s:I}", "hits", (json_int_t)r->hits,
			     "drops", (json_int_t)r->drops, "fails", (json_int_t)r->fails);
	json_object_set_new(counters, "mem_bytes",
			    r->mem_bytes >= 0 ? json_integer(r->mem_bytes) : json_null());
	if (run->mem.cgroup)
		json_object_set_new(counters, "mem_stat_bytes", mem_stat_json(run, r));
	if (run->lat) {
		json_object_set_new(counters, "latency_triggers", json_integer(r->lat_triggers));
		json_object_set_new(counters, "latency_edge_triggers", json_integer(r->lat_edge));
	}
	if (r->has_prod_hits) {
		ph = json_array();
		for (j = 0; j < run->producer_cnt; j++)
			json_array_append_new(ph, json_integer(r->prod_hits[j]));
		json_object_set_new(counters, "prod_hits", ph);
	}
	metrics = json_object();
	for (m = run->metrics; m && *m; m++)
		json_object_set_new(metrics, (*m)->name, json_finite((*m)->value(r)));
	return json_pack("{s:i, s:i, s:b, s:I, s:o, s:o, s:o}", "iter", iter,
			 "repeat", run_sample_repeat(run, iter), "warmup", warmup,
			 "interval_ns", (json_int_t)r->delta_ns, "counters", counters,
			 "metrics", metrics, "contention", contention_json(run, r));
}

json_t *result_json_stats(const struct stats *st)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", st->n,
			 "mean", json_finite(st->mean), "stddev", json_spread(st->n, st->stddev),
			 "median", json_finite(st->median), "min", json_finite(st->min), "max", json_finite(st->max),
			 "cv", json_spread(st->n, st->cv), "ci95", json_spread(st->n, st->ci95));
}

/*
 * The robust summaries beside the mean (never applied to it), and every
 * value outside Tukey's fences: which sample (first_sample + its position;
 * first_sample < 0: none, the metric has its own values), how far.
 */
void result_json_robust(json_t *s, const double *values, int n, int first_sample)
{
	struct outlier *o = calloc(n + 1, sizeof(*o));
	json_t *list, *out;
	struct robust r;
	int i;

	if (!o || stats_robust(values, n, &r, o, n)) {
		free(o);
		return;
	}
	json_object_set_new(s, "p90", json_finite(r.p90));
	json_object_set_new(s, "p99", json_finite(r.p99));
	json_object_set_new(s, "q1", json_finite(r.q1));
	json_object_set_new(s, "q3", json_finite(r.q3));
	json_object_set_new(s, "iqr", json_finite(r.iqr));
	json_object_set_new(s, "mad", json_finite(r.mad));
	list = json_array();
	for (i = 0; i < r.outliers; i++) {
		out = json_pack("{s:i, s:o, s:o, s:s, s:o, s:o}", "index", o[i].index,
				"sample", first_sample >= 0 ? json_integer(first_sample + o[i].index) :
				json_null(), "value", json_finite(o[i].value),
				"side", o[i].high ? "high" : "low",
				"beyond_fence", json_finite(o[i].beyond),
				"iqrs", json_finite(o[i].iqrs));
		json_array_append_new(list, out);
	}
	json_object_set_new(s, "tukey", json_pack("{s:o, s:o, s:o}",
						  "low_fence", json_finite(r.low_fence),
						  "high_fence", json_finite(r.high_fence),
						  "outliers", list));
	free(o);
}

/*
 * A metric's two levels over --repeat: each repeat's mean, the spread
 * between them and the pooled spread within them.  NULL when out of
 * memory: a null here would make a file its own reader refuses.
 */
static json_t *repeats_json(const struct bench_run *run, const struct bench_metric *m)
{
	double *means = calloc(run->repeat_cnt, sizeof(*means));
	struct two_level tl;
	json_t *a, *o = NULL;
	int i;

	if (!means || metric_two_level(m, run_measured(run), run->repeat_cnt, run->repeat_len,
				       &tl, means))
		goto out;
	a = json_array();
	for (i = 0; i < run->repeat_cnt; i++)
		json_array_append_new(a, json_finite(means[i]));
	o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "n", tl.repeats,
		      "means", a, "mean", json_finite(tl.mean),
		      "between_stddev", json_finite(tl.between_sd),
		      "within_stddev", json_finite(tl.within_sd),
		      "between_cv", json_finite(tl.between_cv),
		      "within_cv", json_finite(tl.within_cv));
out:
	free(means);
	return o;
}

static json_t *summary_json(const struct bench_run *run)
{
	struct bench_res *res = run_measured(run);
	int res_cnt = run_measured_cnt(run);
	const struct bench_metric *m;
	const struct bench_metric *const *mp;
	json_t *metrics = json_object(), *s, *summary;
	long long fails = 0;
	double *vals;
	struct stats st;
	int i;

	for (mp = run->metrics; mp && *mp; mp++) {
		m = *mp;
		metric_stats(m, res, res_cnt, &st);
		s = result_json_stats(&st);
		json_object_set_new(s, "unit", json_string(m->unit));
		json_object_set_new(s, "higher_is_better", json_boolean(m->higher_is_better));
		if (m->resolution)
			json_object_set_new(s, "resolution", json_finite(m->resolution()));
		vals = metric_values(m, res, res_cnt);
		if (vals)
			result_json_robust(s, vals, res_cnt, run->warmup_cnt);
		free(vals);
		if (run->repeat_cnt > 1 && json_object_set_new(s, "repeats", repeats_json(run, m))) {
			json_decref(s);
			goto nomem;
		}
		/* jansson drops s when this fails */
		if (json_object_set_new(metrics, m->name, s))
			goto nomem;
	}
	for (i = 0; i < run->extra_cnt; i++) {
		json_t *vals = json_array();
		int j;

		stats_compute(run->extras[i].values, run->extras[i].n, &st);
		s = result_json_stats(&st);
		json_object_set_new(s, "unit", json_string(run->extras[i].unit));
		json_object_set_new(s, "higher_is_better", json_boolean(run->extras[i].higher_is_better));
		result_json_robust(s, run->extras[i].values, run->extras[i].n, -1);
		for (j = 0; j < run->extras[i].n; j++)
			json_array_append_new(vals, json_finite(run->extras[i].values[j]));
		json_object_set_new(s, "values", vals);
		json_object_set_new(metrics, run->extras[i].name, s);
	}
	for (i = 0; i < res_cnt; i++)
		fails += res[i].fails;
	summary = json_pack("{s:o, s:I}", "metrics", metrics, "fails", (json_int_t)fails);
	json_object_set_new(summary, "peak_memory_bytes",
			    run->peak_mem_bytes >= 0 ?
			    json_integer(run->peak_mem_bytes) : json_null());
	json_object_set_new(summary, "peak_memory_mib",
			    run->peak_mem_bytes >= 0 ?
			    json_real(run->peak_mem_bytes / 1048576.0) : json_null());
	/* the peak is one reading of the same counter as "memory": its resolution */
	json_object_set_new(summary, "peak_memory_resolution_mib",
			    run->peak_mem_bytes >= 0 && run->peak_mem_resolution_mib > 0 ?
			    json_real(run->peak_mem_resolution_mib) : json_null());
	return summary;
nomem:
	json_decref(metrics);
	return NULL;
}

/*
 * whether the invocation counts: its producers ran (run_contention.h), each
 * against min_cpu_share of its fair share of a CPU
 */
static json_t *validity_json(const struct bench_run *run)
{
	json_t *share = json_array(), *fair = json_array();
	int j;

	for (j = 0; j < run->producer_cnt; j++) {
		json_array_append_new(share, run->prod_share ? json_finite(run->prod_share[j]) :
				      json_null());
		json_array_append_new(fair, run->prod_fair_share ?
				      json_finite(run->prod_fair_share[j]) : json_null());
	}
	return json_pack("{s:b, s:o, s:o, s:o, s:o, s:o}", "valid", !run->invalid,
			 "reason", run->invalid ? json_string(run->invalid_reason) : json_null(),
			 "note", *run->validity_note ? json_string(run->validity_note) :
			 json_null(),
			 "min_cpu_share", run->env ? json_real(run->env->min_cpu_share_pct / 100.0) :
			 json_null(), "prod_cpu_share", share, "fair_cpu_share", fair);
}

static json_t *warnings_json(const struct bench_run *run)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < run->warning_cnt; i++)
		json_array_append_new(a, json_string(run->warnings[i]));
	return a;
}

/*
 * Refuse an unwritable destination before the benchmark runs, without
 * creating anything there.
 */
int result_json_precheck(const char *path)
{
	return output_file_precheck("--json", path);
}

json_t *result_json_doc(const struct bench_run *run)
{
	json_t *samples = json_array();
	int i;

	for (i = 0; i < run->res_cnt; i++)
		json_array_append_new(samples, sample_json(run, &run->res[i], i,
							   i < run->warmup_cnt));
	json_t *doc;

	doc = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"schema", RESULT_JSON_SCHEMA_NAME, "schema_version", RESULT_JSON_SCHEMA_VERSION,
			"benchmark", run->bench->name, "options", result_json_options(run),
			"context", run_context_json(run),
			"memory_source", memory_source_json(run),
			"samples", samples, "summary", summary_json(run),
			"per_producer", per_producer_json(run), "warnings", warnings_json(run));
	if (doc)
		json_object_set_new(doc, "validity", validity_json(run));
	if (doc && run->lat)
		json_object_set_new(doc, "latency", lat_json(run->lat));
	if (doc && run->bench->describe_counts) {
		struct bench_opts_out counts = { .obj = json_object() };

		run->bench->describe_counts(&counts);
		json_object_set_new(doc, "counts", counts.obj);
	}
	return doc;
}

char *result_json_render(const struct bench_run *run)
{
	json_t *doc = result_json_doc(run);
	char *text = NULL;

	if (doc)
		text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (!text)
		fprintf(stderr, "failed to build JSON results: %s\n", strerror(ENOMEM));
	return text;
}

int result_json_write(const char *path, const char *text)
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
		fprintf(stderr, "failed to write %s: %s\n", output_file_name(path), strerror(-err));
	return err;
}
