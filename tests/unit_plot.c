// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot: the data handed to gnuplot.  Result documents are built
 * here with known samples and loaded through the reader's checks, as plot
 * loads a file; the checks read the inline data blocks of the script:
 * series, bands, error bars, ideal lines, verdict colours, percentile
 * curves and their marks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/compare.h"
#include "latency.h"
#include "results/plot.h"
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
		json_object_update_new(def, json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", st.n,
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
	const char *mem_line;
	char line[256], *s;

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
	mem_line = strstr(s, "$run0_memory using");
	snprintf(line, sizeof(line), "%.*s", mem_line ? (int)strcspn(mem_line, "\n") : 0,
		 mem_line ? mem_line : "");
	ok(strstr(line, " with linespoints ") && strstr(line, " pt 4 ") && !strstr(line, " dt "),
	   "timeline: memory drawn solid through its readings, never dashed like the mean line");
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
	char *s;
	double lo, hi;

	load(&r[0], make_doc("count-local", 1, "hits", "M/s", base, 5, 1, NULL, NULL));
	load(&r[1], make_doc("count-local", 1, "hits", "M/s", better, 5, 1, NULL, NULL));

	is_int(plot_build_script(&o, r, 2, &s), 0, "compare: script built");
	/*
	 * compare's rule on 4 + 4 samples {100, 102, 98, 100} and {120, 122,
	 * 118, 120}: means 100 and 120 (+20%), sd sqrt(8/3) a side, va = vb =
	 * 2/3, Welch df 6, t(0.975, 6) = 2.4469; Fieller: A = 10000 - 2.4469^2
	 * x 2/3 = 9996.008, B = 12000, disc = 2.4469^2 x 2/3 x (14400 + A) =
	 * 97378.7, sqrt 312.055: [11687.945, 12312.055] / 9996.008 =
	 * [1.16926, 1.23170]
	 */
	lo = 1.16926;
	hi = 1.23170;
	{
		const char *row = strstr(s, "0 \"hits (M/s)\" ");
		char *end;
		double ch = row ? strtod(row + strlen("0 \"hits (M/s)\" "), &end) : NAN;
		double l = row ? strtod(end, &end) : NAN, h = row ? strtod(end, NULL) : NAN;

		is_near(ch, 20, 1e-9, "compare: change +20%%, the ratio of the means");
		is_near(l, (lo - 1) * 100, 0.001, "compare: Fieller's low end");
		is_near(h, (hi - 1) * 100, 0.001, "compare: Fieller's high end");
	}
	ok(strstr(s, "0x2e7d32 \"better\"") != NULL, "compare: better, in its colour");
	ok(strstr(s, "4+4 samples, Fieller") != NULL, "compare: the title names 4 + 4 samples and Fieller's interval");
	ok(lo < 1.2 && hi > 1.2, "compare: the interval holds the ratio (%g .. %g)", lo, hi);
	/* a ratio interval is not symmetric about the change: wider above */
	ok((hi - 1.2) > (1.2 - lo), "compare: the interval is the ratio's, wider above (%g, %g)",
	   1.2 - lo, hi - 1.2);
	{
		const char *at = "$compare every ::0::0 using 1:(", *w = strstr(s, at);

		is_near(w ? strtod(w + strlen(at), NULL) : NAN, (hi - 1) * 100, 0.001,
			"compare: the verdict of a rise over its whisker");
	}
	free(s);

	load(&r[1], make_doc("count-local", 1, "hits", "M/s", same, 5, 1, NULL, NULL));
	is_int(plot_build_script(&o, r, 2, &s), 0, "compare of the same level: built");
	ok(strstr(s, "0x9e9e9e \"within ±2%\"") != NULL || strstr(s, "0xef6c00 \"undecided\"") != NULL,
	   "compare: the same level within ±2%% in grey, or undecided in orange");
	/* words under the threshold line would be struck through: they sit beyond it */
	{
		const char *at = "$compare every ::0::0 using 1:(", *w = strstr(s, at);
		double y = w ? strtod(w + strlen(at), NULL) : 0;

		ok(fabs(y) >= 2, "compare: the same level, the words outside the ±2%% lines (at %g)",
		   y);
	}
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

/* ---- compare: intervals cut at the axis, the lines under it ---- */

/* the memory metrics of a htab-mem run besides its peak, each read from a file of its own */
static const char *const mem_metrics[] = { "memory", "memory_kmem", "memory_anon" };

/*
 * A htab-mem file of 2 measured samples: per_prod_op at rate, memory
 * metric k at mem times k + 1 (plus a little spread), the peak at 4 times
 * mem
 */
static json_t *make_mem_doc(double rate, double mem)
{
	const double v[] = { rate, rate, rate * 1.01 };
	json_t *doc = make_doc("htab-mem", 1, "per_prod_op", "k/s", v, 3, 1, NULL, NULL), *smp;
	json_t *summary = json_object_get(doc, "summary");
	json_t *defs = json_object_get(summary, "metrics");
	long long peak = (long long)(4 * mem * 1048576);
	size_t i, k;

	for (k = 0; k < 3; k++)
		json_object_set_new(defs, mem_metrics[k],
				    json_pack("{s:s, s:b}", "unit", "MiB", "higher_is_better", 0));
	json_array_foreach(json_object_get(doc, "samples"), i, smp)
		for (k = 0; k < 3; k++)
			json_object_set_new(json_object_get(smp, "metrics"), mem_metrics[k],
					    json_real(mem * (k + 1) * (1 + 0.01 * i)));
	json_object_set_new(doc, "memory_source",
			    json_pack("{s:{s:{s:s, s:n}, s:{s:s, s:s}}}", "fields", "memory_kmem",
				      "file", "memory.kmem.usage_in_bytes", "key", "memory_anon",
				      "file", "memory.stat", "key", "rss"));
	json_object_set_new(summary, "peak_memory_bytes", json_integer(peak));
	json_object_set_new(summary, "peak_memory_mib", json_real(peak / 1048576.0));
	return doc;
}

/* a text label of the chart: its bar, its line (y and offset) and its extent in characters */
struct chart_label {
	double x, y, dx, dy;
	size_t chars;
	bool centred;
};

/* the verdict of bar i: the last quoted string of its row in $compare */
static size_t verdict_chars(const char *s, int i)
{
	char *rows = block(s, "compare"), *row = rows, *q;
	size_t n = 0;

	while (row && i-- > 0 && (row = strchr(row, '\n')))
		row++;
	q = row ? strchr(row, '\n') : NULL;
	if (q) {
		*q = '\0';
		q = strrchr(row, '"');
		*q = '\0';
		/* ± is one character of two bytes */
		for (q = strrchr(row, '"') + 1; *q; q++)
			n += (*q & 0xc0) != 0x80;
	}
	free(rows);
	return n;
}

/*
 * The labels over and under the bars: each cut end's ("set label N
 * "TEXT" at X, first Y [left|center] [offset DX,DY]") and each verdict
 * ("$compare every ::I::I using 1:(Y):7 with labels offset DX,DY")
 */
static int chart_labels(const char *s, struct chart_label *l, int max)
{
	const char *p, *q, *e;
	int n = 0, i;

	for (p = s; n < max && (p = strstr(p, "\nset label ")); p++) {
		q = strchr(p + 11, '"');
		e = q ? strchr(q + 1, '"') : NULL;
		if (!e || strncmp(e, "\" at ", 5) || !strstr(e, ", first "))
			continue;
		l[n] = (struct chart_label){ .chars = e - q - 1 };
		l[n].x = strtod(e + 5, NULL);
		l[n].y = strtod(strstr(e, ", first ") + 8, NULL);
		q = strstr(e, " offset ");
		if (q && q < strchr(e, '\n'))
			sscanf(q, " offset %lf,%lf", &l[n].dx, &l[n].dy);
		q = strstr(e, " center");
		l[n].centred = q && q < strchr(e, '\n');
		n++;
	}
	for (p = s; n < max && (p = strstr(p, "$compare every ::")); p++) {
		if (sscanf(p, "$compare every ::%d::%*d using 1:(%lf):7 with labels offset %lf,%lf",
			   &i, &l[n].y, &l[n].dx, &l[n].dy) != 4)
			continue;
		l[n].x = i;
		l[n].chars = verdict_chars(s, i);
		l[n].centred = true;
		n++;
	}
	return n;
}

/* the bars of a compare chart: the rows of its $compare */
static int bars_of(const char *s)
{
	char *rows = block(s, "compare"), *p;
	int n = 0;

	for (p = rows; p && *p; p++)
		n += *p == '\n';
	free(rows);
	return n;
}

/*
 * Whether two labels on one line overlap: a bar's room is the plot
 * area's width (the picture less the 10-character left margin and a
 * 2-character right one) over the bars and the 0.6 at each end; gnuplot
 * writes a label from its point (left) or about it (centre)
 */
static bool labels_overlap(const struct chart_label *a, const struct chart_label *b,
			   double room, double cw)
{
	double a0 = a->x * room + a->dx * cw, b0 = b->x * room + b->dx * cw;

	if (a->y != b->y || a->dy != b->dy)
		return false;
	a0 -= a->centred ? a->chars * cw / 2 : 0;
	b0 -= b->centred ? b->chars * cw / 2 : 0;
	return a0 < b0 + b->chars * cw && b0 < a0 + a->chars * cw;
}

/* the longest line of gnuplot string expression after `set WHAT ` in s, in characters */
static size_t longest_line(const char *s, const char *what)
{
	char head[32];
	const char *p, *end, *q;
	size_t n, most = 0;

	snprintf(head, sizeof(head), "\nset %s ", what);
	p = strstr(s, head);
	end = p ? strchr(p + 1, '\n') : NULL;
	for (p = p ? p + strlen(head) : NULL; p && p < end; p = q + 1) {
		p = strchr(p, '"');
		if (!p || p >= end)
			break;
		for (q = p + 1, n = 0; *q && *q != '"'; q++) {
			if (*q == '\\' && q[1]) {
				q++;
				/* a "\n" joining lines is no character of theirs */
				if (*q == 'n')
					continue;
			}
			n += (*q & 0xc0) != 0x80;
		}
		most = n > most ? n : most;
	}
	return most;
}

/*
 * 2 + 2 htab-mem files whose memory readings are all over the place: the
 * four memory bars' intervals reach far beyond the axis, which fits the
 * estimates, and each is cut with an arrow and its value.  No two of the
 * labels over or under the bars overlap, and the lines over and under the
 * chart fit the picture, at its default size and a small one.
 */
static void test_compare_cuts(void)
{
	struct plot_run r[4] = { { .path = "base-1.json" }, { .path = "base-2.json" },
				 { .path = "new-1.json" }, { .path = "new-2.json" } };
	const int sizes[][2] = { { 900, 560 }, { 600, 450 } };
	const double levels[4][2] = { { 100, 1 }, { 90, 0.2 }, { 130, 3 }, { 120, 0.4 } };
	struct plot_opts o = opts(PLOT_COMPARE);
	struct chart_label l[64];
	int i, j, k, z, n, nbars, overlaps;
	double cw, room, right;
	size_t limit;
	char *s;

	for (i = 0; i < 4; i++)
		load(&r[i], make_mem_doc(levels[i][0], levels[i][1]));
	o.nbase = 2;
	for (z = 0; z < 2; z++) {
		o.width = sizes[z][0];
		o.height = sizes[z][1];
		for (k = 0; k < 2; k++) {
			o.format = k ? PLOT_PNG : PLOT_SVG;
			cw = k ? 7.4 : 12 * 0.62;
			s = NULL;
			is_int(build(&o, r, 4, &s), 0, "compare of 2+2 memory runs, %dx%d %s: built",
			       o.width, o.height, k ? "png" : "svg");
			if (!s)
				continue;
			n = chart_labels(s, l, 64);
			nbars = bars_of(s);
			ok(strstr(s, "set arrow 13 ") != NULL,
			   "... four intervals or more cut at the axis, each with an arrow");
			right = strstr(s, "set rmargin at screen ") ?
				strtod(strstr(s, "set rmargin at screen ") + 22, NULL) : 1;
			room = ((right < 1 ? right * o.width : o.width - 2 * cw) - 10 * cw) / (nbars + 0.2);
			for (i = overlaps = 0; i < n; i++)
				for (j = i + 1; j < n; j++) {
					if (!labels_overlap(&l[i], &l[j], room, cw))
						continue;
					if (!overlaps++)
						fprintf(stderr, "# labels at bar %g and %g overlap on one line (%g, offset %g)\n",
							l[i].x, l[j].x, l[i].y, l[i].dy);
				}
			is_int(overlaps, 0, "... no two of its %d labels overlap", n);
			/* the lines are centred on the plot area: each half fits its side */
			limit = (size_t)(2 * fmin((10 * cw + (right < 1 ? right * o.width :
						o.width - 2 * cw)) / 2,
					     o.width - (10 * cw + (right < 1 ? right * o.width :
						o.width - 2 * cw)) / 2) / cw);
			ok(longest_line(s, "xlabel") <= limit,
			   "... the lines under the axis fit the picture (%zu of %zu characters)",
			   longest_line(s, "xlabel"), limit);
			ok(longest_line(s, "title") <= limit,
			   "... the title's lines fit the picture (%zu of %zu characters)",
			   longest_line(s, "title"), limit);
			free(s);
		}
	}
	unload(r, 4);
}

/* ---- latency ---- */

/*
 * A htab-mem result with lat's histogram as its --latency block, written
 * by the writer's own lat_json(); the first measured sample timed every
 * trigger, as the loader checks
 */
static json_t *make_lat_doc(const struct run_latency *lat, json_t *bench_opts)
{
	const double v[] = { 10, 20, 30 };
	json_t *doc = make_doc("htab-mem", 2, "per_prod_op", "k/s", v, 3, 1, NULL, bench_opts), *s;
	size_t i;

	json_array_foreach(json_object_get(doc, "samples"), i, s)
		json_object_set_new(json_object_get(s, "counters"), "latency_triggers",
				    json_integer(i == 1 ? (json_int_t)lat_total(lat->counts) : 0));
	json_object_set_new(doc, "latency", lat_json(lat));
	return doc;
}

/* a tail for the property checks: body, shoulder, tail, one far outlier */
static void lat_fill(struct run_latency *lat, __u64 body)
{
	__u64 k;

	memset(lat, 0, sizeof(*lat));	/* the reference loop's fields too */
	lat->ops_per_trigger = 64;
	for (k = 0; k < body; k++)
		lat->counts[lat_bucket(6000 + k % 7 * 300)]++;
	for (k = 0; k < body / 20; k++)
		lat->counts[lat_bucket(9000 + k * 211)]++;
	for (k = 0; k < body / 200 + 3; k++)
		lat->counts[lat_bucket(40000 + k * 9973)]++;
	lat->counts[lat_bucket(3000000)]++;
}

struct lat_row {
	double x, p, v;
	char label[64];
};

/* the rows of data block $name: x p value ["label"]; the count, -1 when absent */
static int lat_rows(const char *script, const char *name, struct lat_row *rows, int max)
{
	char *b = block(script, name), *line, *save = NULL;
	int n = 0;

	if (!b)
		return -1;
	for (line = strtok_r(b, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
		rows[n].label[0] = '\0';
		if (sscanf(line, "%lf %lf %lf \"%63[^\"]\"", &rows[n].x, &rows[n].p, &rows[n].v,
			   rows[n].label) >= 3)
			n++;
	}
	free(b);
	return n;
}

/* 6 triggers of 5 ns, 3 of 7, 1 of 12: below 16 ns a bucket is 1 ns, its value exact */
static void test_latency_by_hand(void)
{
	struct plot_opts o = opts(PLOT_LATENCY);
	struct plot_run r = { .path = "a.json" };
	struct run_latency lat = { .ops_per_trigger = 1 };
	char *s;

	lat.counts[5] = 6;
	lat.counts[7] = 3;
	lat.counts[12] = 1;
	load(&r, make_lat_doc(&lat, NULL));
	is_int(plot_build_script(&o, &r, 1, &s), 0, "latency: script built");
	/* p = 0, then 6/10, 9/10, and the maximum at 1 - 1/10; x = 1/(1 - p) */
	is_block(s, "run0_curve", "1 0 5\n2.5 60 5\n10 90 7\n10 90 12\n",
		 "latency: a point per bucket at the share up to it, from p = 0, the maximum at p = 1 - 1/N");
	/* p50 is the 5th of 10 (nearest rank); 10 triggers resolve no p99 */
	is_block(s, "run0_marks", "2 50 5 \"p50 5.0\"\n10 90 12 \"max 12.0\"\n",
		 "latency: marks of p50 (x = 2) and the maximum (x = N) only");
	ok(strstr(s, "title \"a.json: p50 5.0, p99 n/a, p99.9 n/a, max 12.0 ns/op (10 triggers)\"") != NULL,
	   "latency: the key, n/a for what 10 triggers cannot resolve");
	ok(strstr(s, "n/a: too few triggers") != NULL, "latency: the chart says what n/a means");
	ok(strstr(s, "with fsteps") != NULL, "latency: a step curve");
	ok(strstr(s, "set logscale xy\nset xrange [1:10000]\n") != NULL,
	   "latency: log axes, the percentile axis to 99.99%% (x = 10^4)");
	ok(strstr(s, "set xtics (\"0%%\" 1, \"50%%\" 2, \"90%%\" 10, \"99%%\" 100, \"99.9%%\" 1000, \"99.99%%\" 10000)\n") != NULL,
	   "latency: the percentile tics at x = 1/(1 - p)");
	ok(strstr(s, "set yrange [3.33333:24]\nset ytics (5, 10, 20)\n") != NULL,
	   "latency: the time axis around the data, tics at 1, 2 and 5 of a decade");
	ok(strstr(s, "latency (ns per op, log scale)") && strstr(s, "percentile (log scale of 1/(1 - p))"),
	   "latency: both axes named, with units");
	free(s);

	/* one trigger more, in the overflow bucket: a lower bound, said with >= */
	lat.counts[LAT_OVERFLOW] = 1;
	load(&r, make_lat_doc(&lat, NULL));
	is_int(plot_build_script(&o, &r, 1, &s), 0, "latency with an overflow: built");
	ok(strstr(s, "11 90.9090909090909 12\n11 90.9090909090909 1073741824\n") != NULL,
	   "latency: the overflow bucket at its lower bound, the curve's end");
	ok(strstr(s, "\"max >=1073741824\"") && strstr(s, "max >=1073741824 ns/op"),
	   "latency: the overflowed maximum labelled >=, as the Latency line prints it");
	free(s);

	/* an empty batch (no_op): per trigger */
	lat.ops_per_trigger = 0;
	load(&r, make_lat_doc(&lat, NULL));
	is_int(plot_build_script(&o, &r, 1, &s), 0, "latency per trigger: built");
	ok(strstr(s, "ns/trigger (11 triggers)") && strstr(s, "per trigger without map operations"),
	   "latency: a run without map operations is per trigger, and says so");
	free(s);
	unload(&r, 1);
}

/* the marks a run of N triggers resolves: p at x = 1/(1 - p) <= N, the maximum at N */
static double lat_mark_x(const char *label, __u64 total)
{
	if (!strncmp(label, "p50 ", 4))
		return 2;
	if (!strncmp(label, "p99 ", 4))
		return 100;
	if (!strncmp(label, "p99.9 ", 6))
		return 1000;
	return !strncmp(label, "max ", 4) ? (double)total : NAN;
}

/* the curve rises in p and in latency on the 1/(1 - p) axis, its values the buckets' */
static void check_lat_curve(const char *s, int i, const struct run_latency *lat, const char *what)
{
	struct lat_row c[LAT_NR_BUCKETS + 1];
	int n, k, j = 1, b, nonempty = 0, bad_order = 0, bad_x = 0, bad_v = 0;
	__u64 total = lat_total(lat->counts);
	char name[32];

	snprintf(name, sizeof(name), "run%d_curve", i);
	n = lat_rows(s, name, c, LAT_NR_BUCKETS + 1);
	for (b = 0; b < LAT_NR_BUCKETS; b++) {
		if (!lat->counts[b])
			continue;
		nonempty++;
		if (j < n && fabs(c[j].v - lat_per_op(lat, lat_bucket_value(b))) > 1e-9 * c[j].v)
			bad_v++;
		j++;
	}
	is_int(n, nonempty + 1, "%s: a point per non-empty bucket and the start", what);
	for (k = 0; k < n; k++) {
		if (k && (c[k].x < c[k - 1].x || c[k].p < c[k - 1].p || c[k].v < c[k - 1].v))
			bad_order++;
		if (fabs(c[k].x - 1 / (1 - c[k].p / 100)) > 1e-6 * c[k].x)
			bad_x++;
	}
	is_int(bad_order, 0, "%s: non-decreasing in p and in latency", what);
	is_int(bad_x, 0, "%s: every point at x = 1/(1 - p)", what);
	is_int(bad_v, 0, "%s: the points' latencies are the buckets' values per op, in order", what);
	ok(n > 1 && c[0].p == 0 && c[n - 1].x == (double)total,
	   "%s: from p = 0 to x = N = %llu, the maximum's place", what, (unsigned long long)total);
}

/*
 * The marks: the figures of the writer's JSON (what bench reported), in
 * the Latency line's format, at their percentile, on the curve; p99.9
 * only from 1000 triggers
 */
static void check_lat_marks(const char *s, int i, const struct plot_run *r,
			    const struct run_latency *lat, const char *what)
{
	static const char *const keys[] = { "p50", "p99", "p99_9", "max" };
	static const char *const names[] = { "p50", "p99", "p99.9", "max" };
	json_t *per_op = json_object_get(json_object_get(r->rf.doc, "latency"), "per_op");
	json_t *per_trig = json_object_get(json_object_get(r->rf.doc, "latency"), "per_trigger");
	struct lat_row c[LAT_NR_BUCKETS + 1], m[8];
	__u64 total = lat_total(lat->counts);
	int n, nm, k, j, found, on;
	char name[32], want[64];

	snprintf(name, sizeof(name), "run%d_curve", i);
	n = lat_rows(s, name, c, LAT_NR_BUCKETS + 1);
	snprintf(name, sizeof(name), "run%d_marks", i);
	nm = lat_rows(s, name, m, 8);
	is_int(nm, total >= 1000 ? 4 : 3, "%s: %s marks for %llu triggers", what,
	       total >= 1000 ? "p50, p99, p99.9 and max" : "p50, p99 and max, no p99.9",
	       (unsigned long long)total);
	for (k = 0; k < 4; k++) {
		double v = json_number_value(json_object_get(per_op, keys[k]));

		lat_format_ns(want, sizeof(want), lat,
			      json_number_value(json_object_get(per_trig, keys[k])));
		for (j = 0, found = -1; j < nm; j++)
			if (!strncmp(m[j].label, names[k], strlen(names[k])) &&
			    m[j].label[strlen(names[k])] == ' ')
				found = j;
		if (k == 2 && total < 1000) {
			is_int(found, -1, "%s: no p99.9 mark from %llu triggers", what,
			       (unsigned long long)total);
			continue;
		}
		if (found < 0) {
			ok(0, "%s: a %s mark", what, names[k]);
			continue;
		}
		is_near(m[found].v, v, 1e-9 * v, "%s: %s marked at the JSON's per-op %s", what,
			names[k], keys[k]);
		ok(!strcmp(m[found].label + strlen(names[k]) + 1, want),
		   "%s: %s labelled '%s', as the Latency line prints it", what, names[k], want);
		is_near(m[found].x, lat_mark_x(m[found].label, total), 1e-9 * m[found].x,
			"%s: %s at x = 1/(1 - p)", what, names[k]);
		/* a step at v spans [x of the point before, x of its point] */
		for (j = 1, on = 0; j < n; j++)
			on |= c[j].v == m[found].v && c[j - 1].x <= m[found].x * (1 + 1e-9) &&
			      m[found].x <= c[j].x * (1 + 1e-9);
		ok(on, "%s: %s lies on the curve", what, names[k]);
	}
}

static void test_latency_tail(void)
{
	struct plot_opts o = opts(PLOT_LATENCY);
	struct plot_run r = { .path = "tail.json" };
	/* 1000 and 999 triggers: the first with p99.9, the second without */
	__u64 body[] = { 1400, 900, 20000 }, pad[] = { 0, 47, 0 }, trim[] = { 0, 1, 0 };
	struct run_latency lat;
	char *s, what[64];
	unsigned int k, t;

	for (k = 0; k < sizeof(body) / sizeof(body[0]); k++) {
		for (t = 0; t <= trim[k]; t++) {
			lat_fill(&lat, body[k]);
			lat.counts[lat_bucket(6000)] += pad[k] - t;
			load(&r, make_lat_doc(&lat, NULL));
			snprintf(what, sizeof(what), "latency, %llu triggers",
				 (unsigned long long)lat_total(lat.counts));
			is_int(plot_build_script(&o, &r, 1, &s), 0, "%s: built", what);
			check_lat_curve(s, 0, &lat, what);
			check_lat_marks(s, 0, &r, &lat, what);
			free(s);
		}
	}
	/* past 10^4 triggers the axis goes on to the next power of ten */
	is_int(lat_total(lat.counts), 21104, "latency: the last run has 21104 triggers");
	is_int(plot_build_script(&o, &r, 1, &s), 0, "latency of 21104 triggers: built");
	ok(strstr(s, "set xrange [1:100000]") && strstr(s, ", \"99.999%%\" 100000)"),
	   "latency: 21104 triggers, the axis to 99.999%% (x = 10^5)");
	ok(!strstr(s, "n/a"), "latency: 21104 triggers resolve every mark");
	free(s);
	unload(&r, 1);
}

/* two runs overlaid, each its colour and key; in text no colours, keys that fit */
static void test_latency_overlay(void)
{
	struct plot_opts o = opts(PLOT_LATENCY);
	struct plot_run r[2] = { { .path = "ma.json" }, { .path = "pre.json" } };
	struct run_latency lat[2];
	const char *key;
	char *s;
	int i;

	for (i = 0; i < 2; i++) {
		lat_fill(&lat[i], 1400 + 3000 * i);
		load(&r[i], make_lat_doc(&lat[i], json_pack("{s:b}", "preallocated", i)));
	}
	is_int(plot_build_script(&o, r, 2, &s), 0, "latency of two runs: built");
	for (i = 0; i < 2; i++) {
		check_lat_curve(s, i, &lat[i], i ? "overlaid, run 2" : "overlaid, run 1");
		check_lat_marks(s, i, &r[i], &lat[i], i ? "overlaid, run 2" : "overlaid, run 1");
	}
	ok(strstr(s, "title \"preallocated=false: p50 ") && strstr(s, "title \"preallocated=true: p50 "),
	   "latency: each run's key named by the option that sets it apart");
	ok(strstr(s, "lc rgb \"#1f77b4\"") && strstr(s, "lc rgb \"#d62728\""),
	   "latency: one colour per run");
	free(s);

	o.format = PLOT_TEXT;
	o.width = 79;
	is_int(plot_build_script(&o, r, 2, &s), 0, "latency as text: built");
	ok(!strstr(s, "rgb"), "latency as text: no colours");
	/* each curve's title: its key entry */
	for (key = strstr(s, "with fsteps"), i = 0; key; key = strstr(key + 1, "with fsteps"), i++) {
		key = strstr(key, " title \"") + 8;
		ok(strcspn(key, "\"") <= 79 - 16, "latency as text: key %d fits the picture (%zu columns)",
		   i + 1, strcspn(key, "\""));
	}
	is_int(i, 2, "latency as text: a key entry per run");
	free(s);
	unload(r, 2);
}

/*
 * Two runs' labels at one mark move apart, the higher run's up, whichever
 * run comes first: p50 to the right, above or below; p99 above-left or
 * below-right.  By index, a lower first run's labels went up into the
 * second's.
 */
static void test_latency_label_sides(void)
{
	static const char *const p50 = "$run%d_marks every ::0::0 using 1:3:4 with labels left offset 0.8,%s0.8 ";
	static const char *const p99 = "$run%d_marks every ::1::1 using 1:3:4 with labels %s ";
	struct plot_opts o = opts(PLOT_LATENCY);
	struct plot_run r[2] = { { .path = "a.json" }, { .path = "b.json" } };
	const __u64 at[2] = { 4000, 2300 };
	struct run_latency lat;
	char *s, want[128];
	int i, k;
	bool high;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < 2; i++) {
			memset(&lat, 0, sizeof(lat));
			lat.ops_per_trigger = 64;
			lat.counts[lat_bucket(at[i ^ k])] = 2000;
			load(&r[i], make_lat_doc(&lat, json_pack("{s:b}", "preallocated", i)));
		}
		is_int(plot_build_script(&o, r, 2, &s), 0, "latency, the %s run first: built",
		       k ? "lower" : "higher");
		for (i = 0; i < 2; i++) {
			high = (i ^ k) == 0;
			snprintf(want, sizeof(want), p50, i, high ? "" : "-");
			ok(s && strstr(s, want), "latency, the %s run first: run %d's p50 label %s its mark",
			   k ? "lower" : "higher", i + 1, high ? "above" : "below");
			snprintf(want, sizeof(want), p99, i,
				 high ? "right offset -0.8,0.8" : "left offset 0.8,-0.8");
			ok(s && strstr(s, want), "latency, the %s run first: run %d's p99 label %s",
			   k ? "lower" : "higher", i + 1, high ? "above-left" : "below-right");
		}
		free(s);
	}
	/* text: the upper run's p99 label a row above its p50 label's row (run 2 is upper now) */
	o.format = PLOT_TEXT;
	o.width = 79;
	is_int(plot_build_script(&o, r, 2, &s), 0, "latency as text, two runs: built");
	ok(s && strstr(s, "$run1_marks every ::0::0 using 1:3:4 with labels left offset 1,1 "),
	   "latency as text: the upper run's p50 label one row above-right");
	ok(s && strstr(s, "$run1_marks every ::1::1 using 1:3:4 with labels right offset -1,2 "),
	   "latency as text: its p99 label two rows above-left, off the p50 label's row");
	ok(s && strstr(s, "$run0_marks every ::1::1 using 1:3:4 with labels left offset 1,-1 "),
	   "latency as text: the lower run's p99 label one row below-right");
	free(s);
	unload(r, 2);
}

/* a run without a histogram, or with an empty one, is refused in one line */
static void test_latency_refusals(void)
{
	const double v[] = { 1, 2, 3 };
	struct plot_opts o = opts(PLOT_LATENCY);
	struct plot_run r = { .path = "off.json" };
	struct run_latency lat = { .ops_per_trigger = 64 };
	char *s = NULL;

	load(&r, make_doc("htab-mem", 1, "per_prod_op", "k/s", v, 3, 1, NULL, NULL));
	is_int(build(&o, &r, 1, &s), -EINVAL, "latency of a run without --latency: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	ok(s == NULL, "refused: no script");
	load(&r, make_lat_doc(&lat, NULL));
	is_int(build(&o, &r, 1, &s), -EINVAL, "latency of a run of 0 triggers: refused");
	is_int(stderr_lines, 1, "... in one line on stderr");
	unload(&r, 1);
}

int main(void)
{
	test_timeline();
	test_flat_ranges();
	test_timeline_refusals();
	test_scaling();
	test_scaling_hits();
	test_compare();
	test_compare_cuts();
	test_latency_by_hand();
	test_latency_tail();
	test_latency_overlay();
	test_latency_label_sides();
	test_latency_refusals();
	return done_testing();
}
