// SPDX-License-Identifier: GPL-2.0
/*
 * bench compare BASE.json NEW.json: is NEW better, worse, or the same
 * within noise?  A change counts only when Welch's t-test over the measured
 * samples says it is significant at 95% AND it is larger than a practical
 * threshold: one run's per-second samples are correlated, so two runs of
 * the same configuration can differ "significantly" by a fraction of a
 * percent, and that is noise.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "testing_helpers.h"

#define SCHEMA_NAME "bench-result"
#define SCHEMA_VERSION 1

static struct compare_opts {
	double threshold_pct;
	bool force;
	bool fail_on_regression;
	const char *files[2];
	int nfiles;
} copts;

static const struct argp_option compare_options[] = {
	{ "threshold", 't', "PCT", 0,
	  "Smallest change in percent that counts (default 2)" },
	{ "force", 'f', NULL, 0, "Compare runs of different benchmarks or options" },
	{ "fail-on-regression", 'F', NULL, 0, "Exit with status 1 when a metric got worse" },
	{},
};

static error_t compare_parse(int key, char *arg, struct argp_state *state)
{
	char *end;
	double v;

	switch (key) {
	case 't':
		errno = 0;
		v = strtod(arg, &end);
		if (!*arg || *end || errno || !(v >= 0 && v <= 1000)) {
			fprintf(stderr, "invalid --threshold '%s': expected a percentage in 0..1000\n",
				arg);
			return EINVAL;
		}
		copts.threshold_pct = v;
		break;
	case 'f':
		copts.force = true;
		break;
	case 'F':
		copts.fail_on_regression = true;
		break;
	case ARGP_KEY_ARG:
		if (copts.nfiles == 2) {
			fprintf(stderr, "compare takes two files, BASE.json and NEW.json; extra argument '%s'\n",
				arg);
			return EINVAL;
		}
		copts.files[copts.nfiles++] = arg;
		break;
	case ARGP_KEY_END:
		if (copts.nfiles != 2) {
			fprintf(stderr, "compare needs two files, BASE.json and NEW.json (got %d)\n",
				copts.nfiles);
			return EINVAL;
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp compare_argp = {
	.options = compare_options,
	.parser = compare_parse,
	.args_doc = "BASE.json NEW.json",
	.doc = "Compare two `bench --json` results: for every metric both runs share, base "
	       "and new mean ± stddev, the change, Welch's t-test p-value over the measured "
	       "samples and a verdict.\vExit status: 0; 1 with --fail-on-regression when "
	       "something got worse; 2 when the files cannot be compared.",
};

/* ---- loading ---- */

json_t *compare_load(const char *path)
{
	json_error_t jerr;
	json_t *doc, *v;

	doc = json_load_file(path, 0, &jerr);
	if (!doc) {
		fprintf(stderr, "failed to read %s: %s (line %d)\n", path, jerr.text, jerr.line);
		return NULL;
	}
	v = json_object_get(doc, "schema");
	if (!json_is_object(doc) || !json_is_string(v) || strcmp(json_string_value(v), SCHEMA_NAME)) {
		fprintf(stderr, "%s is not a bench result (no \"schema\": \"%s\")\n", path, SCHEMA_NAME);
		goto err;
	}
	v = json_object_get(doc, "schema_version");
	if (!json_is_integer(v) || json_integer_value(v) != SCHEMA_VERSION) {
		fprintf(stderr, "%s has schema version %s; this bench reads version %d\n", path,
			json_is_integer(v) ? "other than 1" : "missing", SCHEMA_VERSION);
		goto err;
	}
	if (!json_is_string(json_object_get(doc, "benchmark")) ||
	    !json_is_array(json_object_get(doc, "samples")) ||
	    !json_is_object(json_object_get(json_object_get(doc, "summary"), "metrics"))) {
		fprintf(stderr, "%s is a malformed bench result (benchmark, samples or summary missing)\n",
			path);
		goto err;
	}
	return doc;
err:
	json_decref(doc);
	return NULL;
}

/* the measured (non warm-up) values of one metric, as stats */
int compare_metric_stats(json_t *doc, const char *metric, struct stats *st)
{
	json_t *samples = json_object_get(doc, "samples"), *s, *v;
	json_t *own = json_object_get(json_object_get(json_object_get(doc, "summary"), "metrics"),
				      metric);
	double *vals;
	size_t i, n = 0;

	/* a metric measured outside the samples carries its own values */
	own = json_object_get(own, "values");
	if (json_is_array(own)) {
		vals = calloc(json_array_size(own) + 1, sizeof(*vals));
		if (!vals)
			return -ENOMEM;
		json_array_foreach(own, i, v)
			vals[n++] = json_is_number(v) ? json_number_value(v) : NAN;
		stats_compute(vals, n, st);
		free(vals);
		return 0;
	}
	vals = calloc(json_array_size(samples) + 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	json_array_foreach(samples, i, s) {
		if (json_is_true(json_object_get(s, "warmup")))
			continue;
		v = json_object_get(json_object_get(s, "metrics"), metric);
		vals[n++] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	stats_compute(vals, n, st);
	free(vals);
	return 0;
}

/* ---- context and options ---- */

static const char *ctx_str(json_t *doc, const char *key, char *buf, size_t sz)
{
	json_t *v = json_object_get(json_object_get(doc, "context"), key);
	char *s;

	if (json_is_string(v))
		return json_string_value(v);
	if (!v)
		return "?";
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	snprintf(buf, sz, "%s", s ? s : "?");
	free(s);
	return buf;
}

static void note_context(json_t *a, json_t *b, const char *key, const char *what, bool warn)
{
	json_t *va = json_object_get(json_object_get(a, "context"), key);
	json_t *vb = json_object_get(json_object_get(b, "context"), key);
	char ba[256], bb[256];

	if (json_equal(va, vb))
		return;
	printf("%s: %s differs: %s vs %s\n", warn ? "warning" : "note", what,
	       ctx_str(a, key, ba, sizeof(ba)), ctx_str(b, key, bb, sizeof(bb)));
}

static bool ran_under_tcg(json_t *doc)
{
	json_t *v = json_object_get(json_object_get(doc, "context"), "hypervisor");

	return json_is_string(v) && !strcmp(json_string_value(v), "tcg");
}

/*
 * Where the runs ran.  A different hypervisor or cgroup layout changes
 * timings and where memory is charged; under TCG every instruction is
 * emulated, so its timings say nothing about hardware.
 */
static void note_environment(json_t *a, json_t *b)
{
	note_context(a, b, "hypervisor", "hypervisor", true);
	note_context(a, b, "cgroup_mode", "cgroup mode", true);
	if (ran_under_tcg(a) || ran_under_tcg(b))
		printf("warning: TIMINGS NOT COMPARABLE TO HARDWARE: the %s ran under TCG (QEMU's emulator: many times slower than hardware, and unevenly so across operations); trust memory figures and counts, not rates\n",
		       ran_under_tcg(a) && ran_under_tcg(b) ? "base and new runs" :
		       ran_under_tcg(a) ? "base run" : "new run");
}

/* a run that warned about noise makes every verdict on it weaker: say so */
static void note_warnings(json_t *doc, const char *which)
{
	json_t *w = json_object_get(doc, "warnings"), *v;
	size_t i;

	json_array_foreach(w, i, v)
		if (json_is_string(v))
			printf("warning: the %s run was noisy: %s\n", which, json_string_value(v));
}

/* options that define the configuration; duration and warm-up do not */
static const char *const runner_identity[] = { "producers", "consumers", "affinity",
					       "prod_affinity", "cons_affinity" };

static int diff_object(json_t *a, json_t *b, const char *prefix, char *out, size_t sz)
{
	const char *key;
	json_t *va, *vb;
	int n = 0;

	json_object_foreach(a, key, va) {
		vb = json_object_get(b, key);
		if (json_equal(va, vb))
			continue;
		n++;
		if (strlen(out) < sz - 64) {
			char *sa = json_dumps(va, JSON_COMPACT | JSON_ENCODE_ANY);
			char *sb = vb ? json_dumps(vb, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

			snprintf(out + strlen(out), sz - strlen(out), "%s%s%s %s vs %s",
				 *out ? ", " : "", prefix, key, sa ? sa : "?", sb ? sb : "missing");
			free(sa);
			free(sb);
		}
	}
	json_object_foreach(b, key, vb) {
		if (json_object_get(a, key))
			continue;
		n++;
		if (strlen(out) < sz - 64)
			snprintf(out + strlen(out), sz - strlen(out), "%s%s%s missing vs set",
				 *out ? ", " : "", prefix, key);
	}
	return n;
}

int compare_options_differ(json_t *a, json_t *b, char *out, size_t sz)
{
	json_t *oa = json_object_get(a, "options"), *ob = json_object_get(b, "options");
	json_t *ra = json_object(), *rb = json_object();
	size_t i;
	int n;

	*out = '\0';
	for (i = 0; i < sizeof(runner_identity) / sizeof(runner_identity[0]); i++) {
		json_t *v = json_object_get(json_object_get(oa, "runner"), runner_identity[i]);
		json_t *w = json_object_get(json_object_get(ob, "runner"), runner_identity[i]);

		if (v)
			json_object_set(ra, runner_identity[i], v);
		if (w)
			json_object_set(rb, runner_identity[i], w);
	}
	n = diff_object(ra, rb, "", out, sz);
	json_decref(ra);
	json_decref(rb);
	oa = json_object_get(oa, "benchmark");
	ob = json_object_get(ob, "benchmark");
	if (oa || ob) {
		json_t *ea = oa ? json_incref(oa) : json_object();
		json_t *eb = ob ? json_incref(ob) : json_object();

		n += diff_object(ea, eb, "", out, sz);
		json_decref(ea);
		json_decref(eb);
	}
	return n;
}

/* ---- verdicts ---- */

const char *compare_verdict(double base, double new, double p, double threshold_pct,
			    double resolution, bool higher_is_better, int *worse)
{
	double change;

	*worse = 0;
	if (!isfinite(base) || !isfinite(new))
		return "n/a";
	if (base == new)
		return "within noise";
	/* a difference the instrument cannot resolve is noise, whatever p says */
	if (resolution > 0 && fabs(new - base) < resolution)
		return "within resolution";
	change = base != 0 ? (new - base) / fabs(base) * 100.0 : INFINITY;
	if (!(p < 0.05) || fabs(change) < threshold_pct)
		return "within noise";
	if ((change > 0) == higher_is_better)
		return "better";
	*worse = 1;
	return "worse";
}

static void fmt_change(double base, double new, char *buf, size_t sz)
{
	if (!isfinite(base) || !isfinite(new))
		snprintf(buf, sz, "n/a");
	else if (base == 0)
		snprintf(buf, sz, new == 0 ? "+0.00%%" : "n/a");
	else {
		double c = (new - base) / fabs(base) * 100.0;

		/* rounding noise of summation order must not print as -0.00% */
		snprintf(buf, sz, "%+.2f%%", fabs(c) < 0.005 ? 0.0 : c);
	}
}

static void fmt_p(double p, char *buf, size_t sz)
{
	if (isnan(p))
		snprintf(buf, sz, "-");
	else if (p < 0.0001)
		snprintf(buf, sz, "<0.0001");
	else
		snprintf(buf, sz, "%.4f", p);
}

static void fmt_ms(const struct stats *st, char *buf, size_t sz)
{
	if (st->n == 0)
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%.3f ± %.3f", st->mean, st->stddev);
}

/* the coarser of the two runs' resolutions of a metric, 0 when unknown */
static double metric_resolution(json_t *da, json_t *db)
{
	json_t *ra = json_object_get(da, "resolution"), *rb = json_object_get(db, "resolution");
	double r = 0;

	if (json_is_number(ra))
		r = json_number_value(ra);
	if (json_is_number(rb) && json_number_value(rb) > r)
		r = json_number_value(rb);
	return r;
}

static int compare_docs(json_t *a, json_t *b)
{
	json_t *ma = json_object_get(json_object_get(a, "summary"), "metrics");
	json_t *mb = json_object_get(json_object_get(b, "summary"), "metrics");
	json_t *pa, *pb, *def;
	char diffs[1024], name[64], bs[64], ns[64], ch[32], pv[32];
	int worse_any = 0, worse, shared = 0;
	const char *key, *verdict;
	struct stats sa, sb;
	double p, res, mem_res = 0;

	if (strcmp(json_string_value(json_object_get(a, "benchmark")),
		   json_string_value(json_object_get(b, "benchmark")))) {
		if (!copts.force) {
			fprintf(stderr, "refusing to compare different benchmarks: '%s' vs '%s' (--force compares anyway)\n",
				json_string_value(json_object_get(a, "benchmark")),
				json_string_value(json_object_get(b, "benchmark")));
			return 2;
		}
		printf("warning: different benchmarks: %s vs %s\n",
		       json_string_value(json_object_get(a, "benchmark")),
		       json_string_value(json_object_get(b, "benchmark")));
	}
	if (compare_options_differ(a, b, diffs, sizeof(diffs))) {
		if (!copts.force) {
			fprintf(stderr, "refusing to compare runs with different options: %s (--force compares anyway)\n",
				diffs);
			return 2;
		}
		printf("warning: options differ: %s\n", diffs);
	}
	note_context(a, b, "kernel_release", "kernel release", false);
	note_context(a, b, "nr_online_cpus", "online CPU count", true);
	note_context(a, b, "allowed_cpus", "allowed CPUs", true);
	note_context(a, b, "cpu_model", "CPU model", true);
	note_context(a, b, "sysctl", "BPF JIT sysctls", true);
	note_context(a, b, "libbpf_version", "libbpf version", false);
	note_context(a, b, "bench_version", "bench version", false);
	note_environment(a, b);

	note_warnings(a, "base");
	note_warnings(b, "new");

	printf("%-24s %22s %22s %10s %8s  %s\n", "metric", "base", "new", "change", "p-value",
	       "verdict");
	json_object_foreach(ma, key, def) {
		if (!json_object_get(mb, key))
			continue;
		shared++;
		compare_metric_stats(a, key, &sa);
		compare_metric_stats(b, key, &sb);
		p = welch_pvalue(&sa, &sb);
		res = metric_resolution(def, json_object_get(mb, key));
		if (!strcmp(key, "memory"))
			mem_res = res;
		verdict = compare_verdict(sa.mean, sb.mean, p, copts.threshold_pct, res,
					  json_is_true(json_object_get(def, "higher_is_better")),
					  &worse);
		worse_any |= worse;
		snprintf(name, sizeof(name), "%s (%s)", key,
			 json_string_value(json_object_get(def, "unit")) ?: "?");
		fmt_ms(&sa, bs, sizeof(bs));
		fmt_ms(&sb, ns, sizeof(ns));
		fmt_change(sa.mean, sb.mean, ch, sizeof(ch));
		fmt_p(sa.n > 1 && sb.n > 1 ? p : NAN, pv, sizeof(pv));
		printf("%-24s %22s %22s %10s %8s  %s\n", name, bs, ns, ch, pv, verdict);
	}
	/* peak memory is one value per run: no test, the threshold alone */
	pa = json_object_get(json_object_get(a, "summary"), "peak_memory_mib");
	pb = json_object_get(json_object_get(b, "summary"), "peak_memory_mib");
	if (json_is_number(pa) && json_is_number(pb)) {
		double va = json_number_value(pa), vb = json_number_value(pb), c;

		shared++;
		c = va != 0 ? (vb - va) / fabs(va) * 100.0 : 0;
		verdict = fabs(vb - va) < mem_res ? "within resolution" :
			  fabs(c) < copts.threshold_pct ? "within threshold" :
			  c > 0 ? "higher (one value, untested)" : "lower (one value, untested)";
		snprintf(bs, sizeof(bs), "%.3f", va);
		snprintf(ns, sizeof(ns), "%.3f", vb);
		fmt_change(va, vb, ch, sizeof(ch));
		printf("%-24s %22s %22s %10s %8s  %s\n", "peak_memory (MiB)", bs, ns, ch, "-",
		       verdict);
	}
	if (!shared) {
		fprintf(stderr, "the two results share no metric\n");
		return 2;
	}
	printf("A change counts when p < 0.05, |change| >= %.2f%% and it exceeds the metric's resolution%s.\n",
	       copts.threshold_pct, mem_res > 0 ? "" : " (where known)");
	if (mem_res > 0)
		printf("Memory resolution: %.3f MiB (one 64-page memcg charge batch per CPU).\n", mem_res);
	return worse_any && copts.fail_on_regression ? 1 : 0;
}

int bench_compare_main(int argc, char **argv)
{
	json_t *a = NULL, *b = NULL;
	int ret = 2;

	copts = (struct compare_opts){ .threshold_pct = 2.0 };
	if (argp_parse(&compare_argp, argc, argv, 0, NULL, NULL))
		return 2;
	a = compare_load(copts.files[0]);
	if (!a)
		goto out;
	b = compare_load(copts.files[1]);
	if (!b)
		goto out;
	ret = compare_docs(a, b);
out:
	json_decref(a);
	json_decref(b);
	return ret;
}
