// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot: the data handed to gnuplot.  Result documents are built
 * here with known samples and loaded through the reader's checks, as plot
 * loads a file; the checks read the inline data blocks of the script:
 * series, bands, error bars, ideal lines, verdict colours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "plot.h"
#include "result_file.h"
#include "tap.h"

/*
 * A result of `bench` with one sample per value (the first `warm` of them
 * warm-up), metric `metric` in every sample and, when mem is non-NULL,
 * memory readings.
 */
static json_t *make_doc(const char *bench, int producers, const char *metric, const char *unit,
			const double *vals, int n, int warm, const double *mem, json_t *bench_opts)
{
	json_t *samples = json_array(), *metrics = json_object(), *doc;
	int i;

	for (i = 0; i < n; i++) {
		json_t *m = json_pack("{s:f}", metric, vals[i]);

		if (mem)
			json_object_set_new(m, "memory", json_real(mem[i]));
		json_array_append_new(samples, json_pack("{s:i, s:b, s:i, s:{s:i}, s:o}", "iter", i,
							 "warmup", i < warm, "interval_ns",
							 1000000000, "counters", "fails", 0,
							 "metrics", m));
	}
	json_object_set_new(metrics, metric,
			    json_pack("{s:s, s:b}", "unit", unit, "higher_is_better", 1));
	if (mem)
		json_object_set_new(metrics, "memory",
				    json_pack("{s:s, s:b}", "unit", "MiB", "higher_is_better", 0));
	doc = json_pack("{s:s, s:i, s:s, s:{s:{s:i, s:i, s:i, s:i, s:b, s:[], s:[]}, s:o}, s:o, s:{s:o, s:i, s:n, s:n}}",
			"schema", "bench-result", "schema_version", 1, "benchmark", bench,
			"options", "runner", "warmup_sec", warm, "duration_sec", n - warm,
			"producers", producers, "consumers", 0, "affinity", 1,
			"prod_affinity", "cons_affinity", "benchmark",
			bench_opts ? bench_opts : json_object(), "samples", samples, "summary",
			"metrics", metrics, "fails", 0, "peak_memory_bytes", "peak_memory_mib");
	return doc;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/*
 * Complete doc's summary from its samples, as the writer does, and load
 * it into r->rf through the reader's checks, as plot loads a file (doc is
 * consumed; a run loaded before is freed)
 */
static void load(struct plot_run *r, json_t *doc)
{
	json_t *metrics = json_object_get(json_object_get(doc, "summary"), "metrics"), *def, *smp, *v;
	char err[512], *text;
	double vals[16];
	const char *key;
	struct stats st;
	size_t i;
	int n;

	json_object_foreach(metrics, key, def) {
		n = 0;
		json_array_foreach(json_object_get(doc, "samples"), i, smp) {
			if (json_is_true(json_object_get(smp, "warmup")))
				continue;
			v = json_object_get(json_object_get(smp, "metrics"), key);
			vals[n++] = json_is_number(v) ? json_number_value(v) : NAN;
		}
		stats_compute(vals, n, &st);
		json_object_update(def, json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", st.n,
						  "mean", num(st.mean), "stddev", num(st.stddev),
						  "median", num(st.median), "min", num(st.min),
						  "max", num(st.max), "cv", num(st.cv),
						  "ci95", num(st.ci95)));
	}
	/* through text, as a file is read */
	text = json_dumps(doc, JSON_PRESERVE_ORDER);
	json_decref(doc);
	doc = json_loads(text, 0, NULL);
	free(text);
	result_file_free(&r->rf);
	if (result_file_load_doc(r->path, doc, &r->rf, err, sizeof(err)))
		ok(0, "the test's document loads: %s", err);
}

static void unload(struct plot_run *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		result_file_free(&r[i].rf);
}

/* the rows of data block $name, comment line left out; NULL when absent */
static char *block(const char *script, const char *name)
{
	char head[64], *start, *end, *out;

	snprintf(head, sizeof(head), "$%s << EOD\n", name);
	start = strstr(script, head);
	if (!start)
		return NULL;
	start += strlen(head);
	if (*start == '#')
		start = strchr(start, '\n') + 1;
	end = strstr(start, "EOD\n");
	if (!end)
		return NULL;
	out = strndup(start, end - start);
	return out;
}

static int is_block(const char *script, const char *name, const char *want, const char *what)
{
	char *got = block(script, name);

	is_str(got, want, "%s", what);
	free(got);
	return 0;
}

/*
 * plot_build_script() with what it says on stderr caught: refusals must be
 * one line, and the TAP output stays free of expected messages
 */
static int stderr_lines;

static int build(const struct plot_opts *o, struct plot_run *r, int n, char **s)
{
	FILE *tmp = tmpfile();
	int saved, ret, c;

	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	ret = plot_build_script(o, r, n, s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	stderr_lines = 0;
	while ((c = fgetc(tmp)) != EOF)
		stderr_lines += c == '\n';
	fclose(tmp);
	return ret;
}

static struct plot_opts opts(enum plot_kind k)
{
	return (struct plot_opts){ .kind = k, .format = PLOT_SVG, .threshold_pct = 2,
				   .width = 900, .height = 560 };
}

static void test_timeline(void)
{
	const double v[] = { 10, 20, 30 }, mem[] = { 1.5, 1.5, 2 };
	struct plot_opts o = opts(PLOT_TIMELINE);
	struct plot_run r[2] = { { .path = "a.json" }, { .path = "b.json" } };
	char *s;

	load(&r[0], make_doc("htab-mem", 2, "per_prod_op", "k/s", v, 3, 1, mem,
			     json_pack("{s:b}", "preallocated", 1)));
	load(&r[1], make_doc("htab-mem", 2, "per_prod_op", "k/s", v, 3, 1, NULL,
			     json_pack("{s:b}", "preallocated", 0)));

	is_int(plot_build_script(&o, r, 2, &s), 0, "timeline: script built");
	is_block(s, "run0_warmup", "1.000000 10\n2.000000 20\n",
		 "timeline: the warm-up series, joined to the first measured point");
	is_block(s, "run0_measured", "2.000000 20\n3.000000 30\n",
		 "timeline: the measured series, at the end of each interval");
	/* mean 25, stddev sqrt(50) over the measured samples only */
	is_block(s, "run0_band", "1.000000 17.9289 32.0711 25\n3.000000 17.9289 32.0711 25\n",
		 "timeline: band = mean ± stddev of the measured samples, over the measured time");
	is_block(s, "run0_memory", "1.000000 1.5\n2.000000 1.5\n3.000000 2\n",
		 "timeline: memory readings of every sample");
	ok(!block(s, "run1_memory"), "timeline: no memory series for a run without memory");
	ok(strstr(s, "axes x1y2") && strstr(s, "memory (MiB)"), "timeline: memory on the second axis");
	ok(strstr(s, "\"preallocated=true: 25.00 ± 7.07 k/s (mean ± stddev band, n=2)\"") != NULL,
	   "timeline: legend from the differing option, with mean, stddev, unit and sample count");
	ok(strstr(s, "warm-up (1 sample, not in the statistics)") != NULL,
	   "timeline: warm-up marked in the legend");
	ok(strstr(s, "set yrange [0:*]") && strstr(s, "set y2range [0:*]"),
	   "timeline: rate and memory axes start at zero");
	ok(strstr(s, "set ylabel \"per_prod_op (k/s)\"") && strstr(s, "time since start (s)"),
	   "timeline: units on the axes");
	free(s);

	o.zoom = true;
	r[0].label = "base";
	r[1].label = "patched";
	is_int(plot_build_script(&o, r, 2, &s), 0, "timeline --zoom --label: built");
	ok(strstr(s, "set yrange [*:*]") != NULL, "timeline --zoom: the rate axis fits the data");
	ok(strstr(s, "\"patched: 25.00") != NULL, "timeline --label: the label is used");
	free(s);

	/* a count-local style run: no memory, no second axis */
	o.zoom = false;
	r[0].label = r[1].label = NULL;
	is_int(plot_build_script(&o, &r[1], 1, &s), 0, "timeline of one run without memory");
	ok(!strstr(s, "y2tics"), "timeline without memory: no second axis");
	ok(strstr(s, "\"b.json: 25.00") != NULL, "timeline of one run: labelled by its file");
	free(s);
	unload(r, 2);
}

/* flat series would give gnuplot an empty range, which it widens with a warning */
static void test_flat_ranges(void)
{
	const double zero[] = { 0, 0, 0 }, flat[] = { 5, 5, 5 }, mem[] = { 0.75, 0.75, 0.75 };
	struct plot_opts o = opts(PLOT_TIMELINE);
	struct plot_run r = { .path = "z.json" };
	char *s;

	load(&r, make_doc("count-local", 1, "hits", "M/s", zero, 3, 1, NULL, NULL));

	is_int(plot_build_script(&o, &r, 1, &s), 0, "a rate of zero: built");
	ok(strstr(s, "set yrange [0:1]") != NULL, "a rate of zero: the axis is [0:1], not empty");
	free(s);
	load(&r, make_doc("htab-mem", 1, "per_prod_op", "k/s", flat, 3, 1, mem, NULL));
	o.zoom = true;
	is_int(plot_build_script(&o, &r, 1, &s), 0, "--zoom on flat series: built");
	ok(strstr(s, "set yrange [4.5:5.5]") != NULL, "--zoom on a flat rate: ±10%% around it");
	ok(strstr(s, "set y2range [0.675:0.825]") != NULL, "--zoom on flat memory: ±10%% around it");
	free(s);
	unload(&r, 1);
}

static void test_timeline_refusals(void)
{
	const double v[] = { 1, 2, 3 };
	struct plot_opts o = opts(PLOT_TIMELINE);
	struct plot_run r[2] = { { .path = "a.json" }, { .path = "b.json" } };
	char *s = NULL;

	load(&r[0], make_doc("count-local", 1, "hits", "M/s", v, 3, 1, NULL, NULL));
	load(&r[1], make_doc("count-global", 1, "hits", "M/s", v, 3, 1, NULL, NULL));

	is_int(build(&o, r, 2, &s), -EINVAL, "timeline of two benchmarks: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	ok(s == NULL, "refused: no script");
	is_int(build(&o, r, 0, &s), -EINVAL, "timeline of no run: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	o.force = true;
	is_int(build(&o, r, 2, &s), 0, "timeline of two benchmarks with --force: drawn");
	free(s);
	unload(r, 2);
}

static void test_scaling(void)
{
	/* per-producer rate 10 at 1, 8 ± 2 at 2, 4 ± 0 at 4 producers */
	const double p1[] = { 99, 10, 10 }, p2[] = { 99, 6, 10 }, p4[] = { 99, 4, 4 };
	struct plot_opts o = opts(PLOT_SCALING);
	struct plot_run r[3] = { { .path = "p4.json" }, { .path = "p1.json" }, { .path = "p2.json" } };
	char *s, *t = NULL;
	size_t len;
	FILE *f;

	load(&r[0], make_doc("htab-mem", 4, "per_prod_op", "k/s", p4, 3, 1, NULL, NULL));
	load(&r[1], make_doc("htab-mem", 1, "per_prod_op", "k/s", p1, 3, 1, NULL, NULL));
	load(&r[2], make_doc("htab-mem", 2, "per_prod_op", "k/s", p2, 3, 1, NULL, NULL));

	is_int(plot_build_script(&o, r, 3, &s), 0, "scaling: script built");
	/* producers, per-prod mean, sd, total mean, sd, n, ideal total, ideal per-prod */
	is_block(s, "scaling",
		 "1 10 0 10 0 2 10 10\n2 8 2.82843 16 5.65685 2 20 10\n4 4 0 16 0 2 40 10\n",
		 "scaling: sorted by producers, warm-up left out, total = per-producer × producers, ideal linear from 1");
	ok(strstr(s, "n=2 per point") != NULL, "scaling: sample count in the legend");
	ok(strstr(s, "yerrorlines") != NULL, "scaling: error bars");
	free(s);

	f = open_memstream(&t, &len);
	is_int(plot_scaling_table(&o, r, 3, f), 0, "scaling table: built");
	fclose(f);
	ok(strstr(t, "        2                 8.000  ±    2.828          16.000       80.0%        2\n") != NULL,
	   "scaling table: per-producer ± stddev, total, efficiency against linear");
	ok(strstr(t, "        4                 4.000  ±    0.000          16.000       40.0%        2\n") != NULL,
	   "scaling table: the oversubscribed point at 40%%");
	free(t);

	is_int(build(&o, r, 1, &s), -EINVAL, "scaling of one point: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	load(&r[2], make_doc("htab-mem", 1, "per_prod_op", "k/s", p2, 3, 1, NULL, NULL));
	is_int(build(&o, r, 3, &s), -EINVAL, "scaling with two runs at 1 producer: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	load(&r[2], make_doc("htab-mem", 2, "per_prod_op", "k/s", p2, 3, 1, NULL,
			     json_pack("{s:b}", "preallocated", 1)));
	is_int(build(&o, r, 3, &s), -EINVAL,
	       "scaling of runs differing in more than producers: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	o.force = true;
	is_int(build(&o, r, 3, &s), 0, "... and drawn with --force");
	free(s);
	unload(r, 3);
}

static void test_scaling_hits(void)
{
	/* count-local style: a total with a _per_prod companion */
	struct plot_opts o = opts(PLOT_SCALING);
	struct plot_run r[2] = { { .path = "a" }, { .path = "b" } };
	json_t *doc[2], *s1, *s2;
	char *s;
	int i;

	const double t1[] = { 5, 100, 100 }, t2[] = { 5, 180, 220 };

	doc[0] = make_doc("count-local", 1, "hits", "M/s", t1, 3, 1, NULL, NULL);
	doc[1] = make_doc("count-local", 2, "hits", "M/s", t2, 3, 1, NULL, NULL);
	for (i = 0; i < 2; i++) {
		size_t k;

		json_object_set_new(json_object_get(json_object_get(doc[i], "summary"), "metrics"),
				    "hits_per_prod", json_pack("{s:s, s:b}", "unit", "M/s",
							       "higher_is_better", 1));
		s1 = json_object_get(doc[i], "samples");
		json_array_foreach(s1, k, s2) {
			json_t *m = json_object_get(s2, "metrics");

			json_object_set_new(m, "hits_per_prod",
					    json_real(json_number_value(json_object_get(m, "hits")) /
						      (i + 1)));
		}
		load(&r[i], doc[i]);
	}
	is_int(plot_build_script(&o, r, 2, &s), 0, "scaling of hits: built");
	is_block(s, "scaling", "1 100 0 100 0 2 100 100\n2 100 14.1421 200 28.2843 2 200 100\n",
		 "scaling of hits: total from hits, per producer from hits_per_prod");
	free(s);
	unload(r, 2);
}

static void test_compare(void)
{
	const double base[] = { 0, 100, 102, 98, 100 }, better[] = { 0, 120, 122, 118, 120 };
	const double same[] = { 0, 101, 99, 100, 100 };
	struct plot_opts o = opts(PLOT_COMPARE);
	struct plot_run r[2] = { { .path = "base.json" }, { .path = "new.json" } };
	struct stats sa, sb;
	char *s, want[256];
	double lo, hi;
	int worse;

	load(&r[0], make_doc("count-local", 1, "hits", "M/s", base, 5, 1, NULL, NULL));
	load(&r[1], make_doc("count-local", 1, "hits", "M/s", better, 5, 1, NULL, NULL));

	is_int(plot_build_script(&o, r, 2, &s), 0, "compare: script built");
	{
		const double m1[] = { 100, 102, 98, 100 }, m2[] = { 120, 122, 118, 120 };

		stats_compute(m1, 4, &sa);
		stats_compute(m2, 4, &sb);
	}
	is_str(compare_verdict(sa.mean, sb.mean, welch_pvalue(&sa, &sb), 2, 0, true, &worse), "better",
	       "compare: compare's verdict on the same data is better");
	/* +20%, CI: the ratio's (log scale, Welch df), in percent; 4 + 4 samples */
	is_int(ratio_ci(&sa, &sb, 0.05, &lo, &hi), 0, "compare: the ratio interval exists");
	snprintf(want, sizeof(want),
		 "0 \"hits (M/s)\" 20 %.6g %.6g 0x2e7d32 \"better\"\n",
		 (lo - 1) * 100, (hi - 1) * 100);
	is_block(s, "compare", want, "compare: change, 95% CI of the ratio and the verdict's colour");
	ok(strstr(s, "4+4 samples, Welch") != NULL, "compare: the title names 4 + 4 samples and Welch");
	ok(lo < 1.2 && hi > 1.2, "compare: the interval holds the ratio (%g .. %g)", lo, hi);
	/* a ratio interval is not symmetric about the change: wider above */
	ok((hi - 1.2) > (1.2 - lo), "compare: the interval is the ratio's, wider above (%g, %g)",
	   1.2 - lo, hi - 1.2);
	free(s);

	load(&r[1], make_doc("count-local", 1, "hits", "M/s", same, 5, 1, NULL, NULL));
	is_int(plot_build_script(&o, r, 2, &s), 0, "compare of the same level: built");
	ok(strstr(s, "0x9e9e9e \"within noise\"") != NULL, "compare: within noise in grey");
	free(s);

	/* worse: swap */
	load(&r[1], make_doc("count-local", 1, "hits", "M/s", better, 5, 1, NULL, NULL));
	{
		struct plot_run sw[2] = { r[1], r[0] };

		is_int(plot_build_script(&o, sw, 2, &s), 0, "compare the other way: built");
		ok(strstr(s, "0xc62828 \"worse\"") != NULL, "compare: worse in red");
		free(s);
	}
	is_int(build(&o, r, 1, &s), -EINVAL, "compare of one file: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	unload(r, 2);
}

int main(void)
{
	test_timeline();
	test_flat_ranges();
	test_timeline_refusals();
	test_scaling();
	test_scaling_hits();
	test_compare();
	return done_testing();
}
