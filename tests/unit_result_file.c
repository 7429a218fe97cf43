// SPDX-License-Identifier: GPL-2.0
/*
 * Reading results back: result_file_load() on small documents made here,
 * one valid and one per way a file can be wrong, and `bench compare` on
 * pairs of them for what only a pair can get wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/compare_cli.h"
#include "latency.h"
#include "result_file.h"
#include "stats.h"
#include "tap.h"

static char tmpdir[] = "/tmp/unit_result_file.XXXXXX";

/* the summary entry of a metric, computed as the writer does */
static json_t *summary_of(const double *v, int n, const char *unit, bool hib)
{
	struct stats st;

	stats_compute(v, n, &st);
#define J(x) (isfinite(x) ? json_real(x) : json_null())
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:b}", "n", st.n,
			 "mean", J(st.mean), "stddev", J(st.stddev), "median", J(st.median),
			 "min", J(st.min), "max", J(st.max), "cv", J(st.cv), "ci95", J(st.ci95),
			 "unit", unit, "higher_is_better", hib);
#undef J
}

/*
 * A valid result: 1 warm-up and 3 measured samples of "hits" (the given
 * values), "drops" 0, and "memory" when mem is set (NaN values: null).
 */
static json_t *make_doc(const char *bench, const double hits[4], const double *mem)
{
	json_t *samples = json_array(), *metrics, *sm;
	int i;

	for (i = 0; i < 4; i++) {
		metrics = json_pack("{s:o, s:f}", "hits",
				    isnan(hits[i]) ? json_null() : json_real(hits[i]), "drops", 0.0);
		if (mem)
			json_object_set_new(metrics, "memory",
					    isnan(mem[i]) ? json_null() : json_real(mem[i]));
		json_array_append_new(samples, json_pack(
			"{s:i, s:b, s:I, s:{s:I, s:I, s:I, s:n}, s:o}", "iter", i, "warmup", i < 1,
			"interval_ns", (json_int_t)1000000000, "counters",
			"hits", (json_int_t)(isnan(hits[i]) ? 0 : hits[i] * 1e6), "drops", (json_int_t)0,
			"fails", (json_int_t)i, "mem_bytes", "metrics", metrics));
	}
	sm = json_pack("{s:o, s:o}", "hits", summary_of(hits + 1, 3, "M/s", true),
		       "drops", summary_of((double[]){ 0, 0, 0 }, 3, "M/s", false));
	if (mem)
		json_object_set_new(sm, "memory", summary_of(mem + 1, 3, "MiB", false));
	return json_pack("{s:s, s:i, s:s, s:{s:{s:i, s:i, s:i, s:i}, s:{}}, s:{}, s:n, s:o,"
			 " s:{s:o, s:i, s:n, s:n}, s:n, s:[]}",
			 "schema", "bench-result", "schema_version", 1, "benchmark", bench,
			 "options", "runner", "duration_sec", 3, "warmup_sec", 1, "producers", 1,
			 "consumers", 0, "benchmark", "context", "memory_source", "samples", samples,
			 "summary", "metrics", sm, "fails", 1 + 2 + 3, "peak_memory_bytes",
			 "peak_memory_mib", "per_producer", "warnings");
}

static const double HITS[4] = { 90.5, 100.25, 101.125, 99.0625 };
static const double MEM[4] = { 0.5, 0.75, 0.75, 1.0 };
static const double NOMEM[4] = { NAN, NAN, NAN, NAN };

static char *write_doc(json_t *doc, const char *name)
{
	char *path;

	if (asprintf(&path, "%s/%s.json", tmpdir, name) < 0)
		exit(1);
	if (json_dump_file(doc, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		exit(1);
	json_decref(doc);
	return path;
}

static char *write_text(const char *text, const char *name)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s.json", tmpdir, name) < 0)
		exit(1);
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f))
		exit(1);
	return path;
}

static json_t *at(json_t *doc, const char *p1, const char *p2, const char *p3)
{
	json_t *v = json_object_get(doc, p1);

	if (p2)
		v = json_object_get(v, p2);
	if (p3)
		v = json_object_get(v, p3);
	return v;
}

static json_t *sample_metrics(json_t *doc, int i)
{
	return json_object_get(json_array_get(json_object_get(doc, "samples"), i), "metrics");
}

/* load path; the error line with the path replaced by "F" */
static int load(const char *path, char *msg, size_t sz)
{
	struct result_file rf;
	char err[512];
	size_t plen = strlen(path);
	int ret;

	ret = result_file_load(path, &rf, err, sizeof(err));
	if (!ret) {
		result_file_free(&rf);
		snprintf(msg, sz, "(loaded)");
	} else if (!strncmp(err, path, plen)) {
		snprintf(msg, sz, "F%s", err + plen);
	} else {
		snprintf(msg, sz, "%s", err);
	}
	return ret;
}

/* check that doc is refused with exactly want (path shown as F) */
static void refused(json_t *doc, const char *name, const char *want)
{
	char msg[512], *path = write_doc(doc, name);

	is_int(load(path, msg, sizeof(msg)), -EINVAL, "%s: refused with -EINVAL", name);
	is_str(msg, want, "%s: the message names the field", name);
	free(path);
}

static int err_lines;

/* bench compare on two files: exit status, stderr in err (lines in err_lines) */
static int compare(const char *a, const char *b, const char *opt, char *err, size_t sz,
		   char *out, size_t osz)
{
	char ep[256], op[256];
	char *argv[] = { "compare", (char *)(opt ? opt : a), (char *)(opt ? a : b),
			 (char *)(opt ? b : NULL), NULL };
	int argc = opt ? 4 : 3, saved_err, saved_out, fd, ret;
	FILE *f;
	size_t n, i;

	snprintf(ep, sizeof(ep), "%s/stderr", tmpdir);
	snprintf(op, sizeof(op), "%s/stdout", tmpdir);
	fflush(stdout);
	fflush(stderr);
	saved_err = dup(2);
	saved_out = dup(1);
	fd = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
	fd = open(op, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 1);
	close(fd);
	ret = bench_compare_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	f = fopen(ep, "r");
	n = f ? fread(err, 1, sz - 1, f) : 0;
	err[n] = '\0';
	if (f)
		fclose(f);
	err_lines = 0;
	for (i = 0; i < n; i++)
		err_lines += err[i] == '\n';
	/* one line, shown in the test's description: without its newline */
	if (n && err[n - 1] == '\n')
		err[n - 1] = '\0';
	f = fopen(op, "r");
	n = f ? fread(out, 1, osz - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
	return ret;
}

static void test_load(void)
{
	struct result_file rf;
	const struct result_metric *m;
	char err[512], msg[512], *path;
	json_t *doc;
	double mean;

	path = write_doc(make_doc("count-local", HITS, MEM), "valid");
	is_int(result_file_load(path, &rf, err, sizeof(err)), 0, "a valid result loads");
	is_str(rf.benchmark, "count-local", "benchmark");
	is_int(rf.warmup_sec, 1, "warmup_sec");
	is_int(rf.duration_sec, 3, "duration_sec");
	is_int(rf.nsamples, 4, "four samples, warm-up included");
	is_int(rf.nmetrics, 3, "three metrics");
	is_int(rf.fails, 6, "fails of the measured samples");
	ok(isnan(rf.peak_memory_mib), "peak memory not measured: NaN");
	m = result_file_metric(&rf, "hits");
	ok(m && m->st.n == 3 && !m->own_values, "hits: 3 measured values from the samples");
	is_near(m ? m->st.mean : 0, (100.25 + 101.125 + 99.0625) / 3, 1e-12,
		"hits: the mean leaves the warm-up sample out");
	ok(m && m->higher_is_better && !strcmp(m->unit, "M/s"), "hits: unit and direction");
	m = result_file_metric(&rf, "memory");
	ok(m && !m->higher_is_better && m->st.n == 3, "memory: lower is better, 3 values");
	ok(!result_file_metric(&rf, "nope"), "an unknown metric is NULL");
	result_file_free(&rf);
	free(path);

	/* the samples in another order: same summary up to summation order */
	doc = make_doc("count-local", HITS, NULL);
	json_array_insert(json_object_get(doc, "samples"), 1,
			  json_array_get(json_object_get(doc, "samples"), 3));
	json_array_remove(json_object_get(doc, "samples"), 4);
	path = write_doc(doc, "reordered");
	is_int(load(path, msg, sizeof(msg)), 0, "reordered measured samples load: %s", msg);
	free(path);

	/* a summary a hair off, as another tool's printing could make it */
	doc = make_doc("count-local", HITS, NULL);
	mean = json_real_value(json_object_get(at(doc, "summary", "metrics", "hits"), "mean"));
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "mean",
			    json_real(mean * (1 + 1e-12)));
	path = write_doc(doc, "roundoff");
	is_int(load(path, msg, sizeof(msg)), 0, "a mean off by 1e-12 relative loads: %s", msg);
	free(path);

	/* a metric measured outside the samples, with its own values */
	doc = make_doc("bpf-hashmap-lookup", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", NULL), "lookup_cpu00",
			    summary_of((double[]){ 20, 21, 22 }, 3, "M/s", true));
	json_object_set_new(at(doc, "summary", "metrics", "lookup_cpu00"), "values",
			    json_pack("[f, f, f]", 20.0, 21.0, 22.0));
	path = write_doc(doc, "own-values");
	is_int(result_file_load(path, &rf, err, sizeof(err)), 0, "own values load: %s", err);
	m = result_file_metric(&rf, "lookup_cpu00");
	ok(m && m->own_values && m->st.n == 3 && m->st.mean == 21, "own values: their stats");
	result_file_free(&rf);
	free(path);
}

static void test_rejections(void)
{
	char msg[512], *path;
	json_t *doc;
	int i;

	/* nothing measured */
	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(doc, "samples", json_array());
	refused(doc, "empty", "F: samples: no measured sample (0 warm-up, 0 in all): the run measured nothing");

	doc = make_doc("count-local", HITS, NULL);
	json_array_remove(json_object_get(doc, "samples"), 3);
	refused(doc, "short", "F: samples: 1 warm-up and 2 measured samples, but options.runner says -w 1 -d 3");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(json_array_get(json_object_get(doc, "samples"), 2), "warmup",
			    json_true());
	refused(doc, "warmup-late", "F: samples[2].warmup: a warm-up sample after measured ones");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", NULL, NULL), "metrics", json_object());
	refused(doc, "no-metrics", "F: summary.metrics: no metric at all: the run measured nothing");

	/* every value null: hits and drops measured nothing */
	doc = make_doc("count-local", NOMEM, NULL);
	for (i = 0; i < 4; i++)
		json_object_set_new(sample_metrics(doc, i), "drops", json_null());
	json_object_set_new(at(doc, "summary", "metrics", NULL), "drops",
			    summary_of(NOMEM, 3, "M/s", false));
	refused(doc, "all-null", "F: summary.metrics: no metric has a measured value: the run measured nothing");

	/* not a number where one belongs */
	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(sample_metrics(doc, 3), "hits", json_string("abc"));
	refused(doc, "abc", "F: samples[3].metrics.hits: expected a finite number or null, got \"abc\"");

	doc = make_doc("count-local", HITS, NULL);
	json_object_del(sample_metrics(doc, 2), "hits");
	refused(doc, "sample-missing", "F: samples[2].metrics.hits: expected a finite number or null, got nothing (missing)");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(sample_metrics(doc, 1), "total", json_real(1));
	refused(doc, "sample-extra", "F: samples[1].metrics.total: a metric summary.metrics does not have");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "mean", json_string("NaN"));
	refused(doc, "mean-string", "F: summary.metrics.hits.mean: expected a finite number or null, got \"NaN\"");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(json_array_get(json_object_get(doc, "samples"), 2), "interval_ns",
			    json_integer(0));
	refused(doc, "interval", "F: samples[2].interval_ns: expected an integer >= 1, got 0");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "drops"), "resolution", json_real(-1));
	refused(doc, "resolution", "F: summary.metrics.drops.resolution: expected a positive number, got -1");

	/* JSON has no infinity: an overflowing number is not JSON jansson reads */
	path = write_text("{\"schema\": \"bench-result\", \"schema_version\": 1e999}", "inf");
	is_int(load(path, msg, sizeof(msg)), -EINVAL, "1e999: refused");
	ok(strstr(msg, "F: line 1, column ") && strstr(msg, "not valid JSON"),
	   "1e999: not valid JSON, with the place: %s", msg);
	free(path);

	/* not a result this bench reads */
	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(doc, "schema_version", json_integer(2));
	refused(doc, "v2", "F: schema_version: schema version 2 is not one this bench reads (it reads 1)");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(doc, "schema_version", json_string("1"));
	refused(doc, "v-string", "F: schema_version: expected an integer, got \"1\"");

	doc = make_doc("count-local", HITS, NULL);
	json_object_del(doc, "schema");
	refused(doc, "no-schema", "F: schema: expected \"bench-result\", got nothing (missing): not a bench result");

	refused(json_pack("[i]", 1), "array", "F: (top level): expected an object, got [1]: not a bench result");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(doc, "benchmark", json_integer(3));
	refused(doc, "benchmark", "F: benchmark: expected a benchmark name, got 3");

	doc = make_doc("count-local", HITS, NULL);
	json_object_del(at(doc, "options", "runner", NULL), "duration_sec");
	refused(doc, "duration", "F: options.runner.duration_sec: expected an integer, got nothing (missing)");

	path = write_text("{ not json", "garbage");
	is_int(load(path, msg, sizeof(msg)), -EINVAL, "garbage: refused");
	ok(!strncmp(msg, "F: line 1, column ", 18) && strstr(msg, "not valid JSON"),
	   "garbage: not valid JSON, with the place: %s", msg);
	free(path);

	if (asprintf(&path, "%s/no-such.json", tmpdir) < 0)
		exit(1);
	is_int(load(path, msg, sizeof(msg)), -ENOENT, "a missing file: -ENOENT");
	ok(!strncmp(msg, "failed to read ", 15) && strstr(msg, "no-such.json: No such file or directory"),
	   "a missing file: failed to read PATH: strerror (%s)", msg);
	free(path);

	/* the summary does not follow from the samples: edited or corrupted */
	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "mean", json_real(120));
	refused(doc, "edited-mean", "F: summary.metrics.hits.mean: 120 in the file, 100.1458333 from its samples: the file was edited or corrupted");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(sample_metrics(doc, 2), "hits", json_real(150));
	refused(doc, "edited-sample", "F: summary.metrics.hits.mean: 100.1458333 in the file, 116.4375 from its samples: the file was edited or corrupted");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "mean",
			    json_real(json_real_value(json_object_get(
				at(doc, "summary", "metrics", "hits"), "mean")) * (1 + 1e-6)));
	path = write_doc(doc, "edited-1e-6");
	is_int(load(path, msg, sizeof(msg)), -EINVAL, "a mean edited by one part in a million is refused");
	free(path);

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "n", json_integer(4));
	refused(doc, "edited-n", "F: summary.metrics.hits.n: 4 in the file, 3 values in its measured samples: the file was edited or corrupted");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "stddev", json_real(0.5));
	refused(doc, "edited-stddev", "F: summary.metrics.hits.stddev: 0.5 in the file, 1.035188187 from its samples: the file was edited or corrupted");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", "hits"), "ci95", json_null());
	refused(doc, "null-ci95", "F: summary.metrics.hits.ci95: null in the file, 2.571550015 from its samples: the file was edited or corrupted");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", NULL, NULL), "fails", json_integer(0));
	refused(doc, "edited-fails", "F: summary.fails: 0 in the file, 6 from its samples: the file was edited or corrupted");

	doc = make_doc("count-local", HITS, NULL);
	json_object_set_new(at(doc, "summary", NULL, NULL), "peak_memory_bytes",
			    json_integer(1048576));
	json_object_set_new(at(doc, "summary", NULL, NULL), "peak_memory_mib", json_real(2));
	refused(doc, "edited-peak", "F: summary.peak_memory_mib: 2, but summary.peak_memory_bytes is 1048576 (1 MiB): the file was edited or corrupted");

	doc = make_doc("lookup", HITS, NULL);
	json_object_set_new(at(doc, "summary", "metrics", NULL), "lookup_cpu00",
			    summary_of((double[]){ 20, 21, 22 }, 3, "M/s", true));
	json_object_set_new(at(doc, "summary", "metrics", "lookup_cpu00"), "values",
			    json_pack("[f, s, f]", 20.0, "x", 22.0));
	refused(doc, "own-abc", "F: summary.metrics.lookup_cpu00.values[1]: expected a finite number or null, got \"x\"");
}

/* make_doc plus a --latency block of 60 triggers: 50 at 1000 ns, 10 at 5000 ns */
static json_t *make_lat_doc(void)
{
	json_t *doc = make_doc("htab-mem", HITS, NULL), *s;
	static const long trig[4] = { 5, 10, 20, 30 };
	struct run_latency lat = { .ops_per_trigger = 64, .calib_rounds = 10000,
				   .pair_min_ns = 20, .pair_p50_ns = 30 };
	size_t i;

	lat.counts[lat_bucket(1000)] = 50;
	lat.counts[lat_bucket(5000)] = 10;
	/* the reference: 3 loops in [700, 704), median 699.5 + 4 x 1.5 / 3 = 701.5 */
	lat.ref_steps = LAT_REF_STEPS;
	lat.ref_counts[lat_bucket(700)] = 3;
	json_array_foreach(json_object_get(doc, "samples"), i, s)
		json_object_set_new(json_object_get(s, "counters"), "latency_triggers",
				    json_integer(trig[i]));
	json_object_set_new(doc, "latency", lat_json(&lat));
	return doc;
}

static void test_latency(void)
{
	struct result_file rf;
	char err[512], *path;
	json_t *doc, *b;

	path = write_doc(make_lat_doc(), "lat");
	is_int(result_file_load(path, &rf, err, sizeof(err)), 0, "latency: a valid block loads");
	ok(rf.lat_counts && rf.lat_counts[lat_bucket(1000)] == 50 &&
	   rf.lat_counts[lat_bucket(5000)] == 10, "latency: the histogram is read back by bucket");
	is_int(rf.lat_ops_per_trigger, 64, "latency: ops per trigger read back");
	is_near(rf.lat_ref_ns, 701.5, 1e-9, "latency: the reference's median read back");
	is_int(rf.lat_ref_samples, 3, "latency: the reference's loops read back");
	is_int(rf.lat_ref_steps, LAT_REF_STEPS, "latency: the reference's steps read back");
	result_file_free(&rf);
	free(path);

	/* a file written before the reference existed loads, without one */
	doc = make_lat_doc();
	json_object_del(json_object_get(doc, "latency"), "reference");
	path = write_doc(doc, "lat-noref");
	is_int(result_file_load(path, &rf, err, sizeof(err)), 0, "latency: a block without a reference loads");
	ok(isnan(rf.lat_ref_ns), "latency: without a reference, its median is NaN");
	result_file_free(&rf);
	free(path);
	path = write_doc(make_doc("count-local", HITS, NULL), "nolat");
	is_int(result_file_load(path, &rf, err, sizeof(err)), 0, "a run without --latency loads");
	ok(isnan(rf.lat_ref_ns), "without --latency, the reference's median is NaN");
	result_file_free(&rf);
	free(path);

	doc = make_lat_doc();
	json_object_set_new(at(doc, "latency", "reference", NULL), "p50_ns", json_real(650));
	refused(doc, "ref-p50", "F: latency.reference.p50_ns: 650 in the file, 701.5 from its buckets: the file was edited or corrupted");

	doc = make_lat_doc();
	json_object_set_new(at(doc, "latency", "reference", NULL), "samples", json_integer(4));
	refused(doc, "ref-samples", "F: latency.reference.samples: 4, but the buckets hold 3: the file was edited or corrupted");

	doc = make_lat_doc();
	b = json_array_get(at(doc, "latency", "reference", "buckets"), 0);
	json_object_set_new(b, "lo_ns", json_integer(701));
	refused(doc, "ref-lo", "F: latency.reference.buckets[0].lo_ns: 701 is not where a bucket starts");

	doc = make_lat_doc();
	b = json_array_get(at(doc, "latency", "buckets", NULL), 0);
	json_object_set_new(b, "count", json_integer(51));
	refused(doc, "lat-count", "F: latency.triggers: 60, but the buckets hold 61: the file was edited or corrupted");

	doc = make_lat_doc();
	json_object_set_new(json_object_get(json_array_get(json_object_get(doc, "samples"), 3), "counters"),
			    "latency_triggers", json_integer(31));
	refused(doc, "lat-samples", "F: latency.triggers: 60, but the measured samples timed 61: the file was edited or corrupted");

	doc = make_lat_doc();
	json_object_set_new(at(doc, "latency", "per_op", NULL), "p99", json_real(80));
	refused(doc, "lat-p99", "F: latency.per_op.p99: 80 in the file, 78.2421875 from its buckets: the file was edited or corrupted");

	doc = make_lat_doc();
	b = json_array_get(at(doc, "latency", "buckets", NULL), 0);
	json_object_set_new(b, "lo_ns", json_integer(993));
	refused(doc, "lat-lo", "F: latency.buckets[0].lo_ns: 993 is not where a bucket starts");

	doc = make_lat_doc();
	json_object_del(json_object_get(json_array_get(json_object_get(doc, "samples"), 2), "counters"),
			"latency_triggers");
	refused(doc, "lat-missing", "F: samples[2].counters.latency_triggers: expected an integer, got nothing (missing)");
}

static void test_compare(void)
{
	char *a, *b, *g, *nodrops, *mem, *nomem, *nomem2, *slow, err[1024], out[4096];
	double slower[4];
	json_t *doc;
	int i;

	a = write_doc(make_doc("count-local", HITS, NULL), "cmp-a");
	b = write_doc(make_doc("count-local", HITS, NULL), "cmp-b");
	g = write_doc(make_doc("count-global", HITS, NULL), "cmp-g");
	doc = make_doc("count-local", HITS, NULL);
	json_object_del(at(doc, "summary", "metrics", NULL), "drops");
	for (i = 0; i < 4; i++)
		json_object_del(sample_metrics(doc, i), "drops");
	nodrops = write_doc(doc, "cmp-nodrops");
	mem = write_doc(make_doc("htab-mem", HITS, MEM), "cmp-mem");
	nomem = write_doc(make_doc("htab-mem", HITS, NOMEM), "cmp-nomem");
	nomem2 = write_doc(make_doc("htab-mem", HITS, NOMEM), "cmp-nomem2");
	for (i = 0; i < 4; i++)
		slower[i] = HITS[i] / 2;
	slow = write_doc(make_doc("count-local", slower, NULL), "cmp-slow");

	is_int(compare(a, b, NULL, err, sizeof(err), out, sizeof(out)), 0,
	       "compare of two valid results: exit 0");
	is_str(err, "", "compare of two valid results: nothing on stderr");
	ok(strstr(out, "within ±2%") || strstr(out, "undecided") || strstr(out, "better") ||
	   strstr(out, "worse"), "compare of two valid results: a verdict");

	is_int(compare(a, slow, "--fail-on-regression", err, sizeof(err), out, sizeof(out)), 1,
	       "half the hits with --fail-on-regression: exit 1");

	is_int(compare(a, nodrops, NULL, err, sizeof(err), out, sizeof(out)), 2,
	       "a metric missing on one side: exit 2");
	ok(strstr(err, "cmp-nodrops.json: summary.metrics.drops: missing, but ") &&
	   strstr(err, "cmp-a.json has it (--force compares the metrics both have)") &&
	   !strncmp(err, "compare: ", 9) && err_lines == 1,
	   "a metric missing on one side: one line naming file and field: %s", err);
	is_str(out, "", "a metric missing on one side: no table");
	is_int(compare(nodrops, a, NULL, err, sizeof(err), out, sizeof(out)), 2,
	       "a metric missing on the base side: exit 2 too");
	is_int(compare(a, nodrops, "--force", err, sizeof(err), out, sizeof(out)), 0,
	       "a metric missing on one side, --force: exit 0");
	ok(strstr(out, "warning: drops only in ") && !strstr(out, "\ndrops "),
	   "--force: the missing metric is named, not compared");

	is_int(compare(a, g, NULL, err, sizeof(err), out, sizeof(out)), 2,
	       "two different benchmarks: exit 2");
	ok(strstr(err, "cmp-g.json: benchmark: 'count-global', but ") &&
	   strstr(err, "cmp-a.json is 'count-local': refusing to compare different benchmarks"),
	   "two different benchmarks: names the file and the field: %s", err);

	is_int(compare(mem, nomem, NULL, err, sizeof(err), out, sizeof(out)), 2,
	       "memory measured in one run only: exit 2");
	ok(strstr(err, "cmp-nomem.json: summary.metrics.memory: no measured value, but ") &&
	   strstr(err, "cmp-mem.json has 3"), "memory measured in one run only: says which: %s", err);
	is_int(compare(nomem, mem, "--force", err, sizeof(err), out, sizeof(out)), 2,
	       "memory measured in one run only: --force does not hide it");
	is_int(compare(nomem, nomem2, NULL, err, sizeof(err), out, sizeof(out)), 0,
	       "memory measured in neither run: exit 0");
	ok(strstr(out, "not measured in either run"), "memory measured in neither run: said so");

	free(a);
	free(b);
	free(g);
	free(nodrops);
	free(mem);
	free(nomem);
	free(nomem2);
	free(slow);
}

int main(void)
{
	char cmd[128];
	int ret;

	if (!mkdtemp(tmpdir)) {
		perror("failed to create a temporary directory");
		return 1;
	}
	test_load();
	test_rejections();
	test_latency();
	test_compare();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ret = done_testing();
	if (system(cmd))
		return 1;
	return ret;
}
