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
#include "result_file.h"
#include "stats.h"
#include "testing_helpers.h"

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
	       "something got worse; 2 when the files cannot be compared (not results, "
	       "damaged or edited, measured nothing, or of different benchmarks).",
};

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
					       "prod_affinity", "cons_affinity", "latency" };

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
	return compare_options_differ_except(a, b, NULL, out, sz);
}

int compare_options_differ_except(json_t *a, json_t *b, const char *ignore, char *out, size_t sz)
{
	json_t *oa = json_object_get(a, "options"), *ob = json_object_get(b, "options");
	json_t *ra = json_object(), *rb = json_object();
	size_t i;
	int n;

	*out = '\0';
	for (i = 0; i < sizeof(runner_identity) / sizeof(runner_identity[0]); i++) {
		json_t *v = json_object_get(json_object_get(oa, "runner"), runner_identity[i]);
		json_t *w = json_object_get(json_object_get(ob, "runner"), runner_identity[i]);

		if (ignore && !strcmp(ignore, runner_identity[i]))
			continue;
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

int compare_same_config(json_t *a, const char *path_a, json_t *b, const char *path_b,
			const char *ignore, bool force, const char *verb, FILE *warn)
{
	const char *ba = json_string_value(json_object_get(a, "benchmark"));
	const char *bb = json_string_value(json_object_get(b, "benchmark"));
	char diffs[1024];

	if (!ba || !bb || strcmp(ba, bb)) {
		if (!force) {
			fprintf(stderr, "%s: %s: benchmark: '%s', but %s is '%s': refusing to %s different benchmarks (--force %ss anyway)\n",
				verb, path_b, bb ?: "?", path_a, ba ?: "?", verb, verb);
			return -EINVAL;
		}
		fprintf(warn, "warning: different benchmarks: %s vs %s\n", ba ?: "?", bb ?: "?");
	}
	if (compare_options_differ_except(a, b, ignore, diffs, sizeof(diffs))) {
		if (!force) {
			fprintf(stderr, "%s: refusing to %s runs with different options: %s (--force %ss anyway)\n",
				verb, verb, diffs, verb);
			return -EINVAL;
		}
		fprintf(warn, "warning: options differ: %s\n", diffs);
	}
	return 0;
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

const char *compare_peak_verdict(double base, double new, double threshold_pct, double resolution)
{
	double c = base != 0 ? (new - base) / fabs(base) * 100.0 : 0;

	if (fabs(new - base) < resolution)
		return "within resolution";
	if (fabs(c) < threshold_pct)
		return "within threshold";
	return c > 0 ? "higher (one value, untested)" : "lower (one value, untested)";
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

/*
 * A metric one run has and the other lacks: another benchmark (allowed
 * with --force) or a run that did not measure it.  Returns 2 when refused.
 */
static int check_metric_sets(const struct result_file *ra, const struct result_file *rb)
{
	const struct result_file *rf[2] = { ra, rb };
	const struct result_metric *m, *o;
	int i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < rf[i]->nmetrics; j++) {
			m = &rf[i]->metrics[j];
			o = result_file_metric(rf[!i], m->name);
			if (!o && !copts.force) {
				fprintf(stderr, "compare: %s: summary.metrics.%s: missing, but %s has it (--force compares the metrics both have)\n",
					rf[!i]->path, m->name, rf[i]->path);
				return 2;
			}
			if (!o) {
				printf("warning: %s only in %s\n", m->name, rf[i]->path);
				continue;
			}
			/* measured in one run, not in the other: no figure to compare */
			if (!m->st.n && o->st.n) {
				fprintf(stderr, "compare: %s: summary.metrics.%s: no measured value, but %s has %d\n",
					rf[i]->path, m->name, rf[!i]->path, o->st.n);
				return 2;
			}
		}
	}
	if (isnan(ra->peak_memory_mib) != isnan(rb->peak_memory_mib) && !copts.force) {
		i = isnan(ra->peak_memory_mib) ? 0 : 1;
		fprintf(stderr, "compare: %s: summary.peak_memory_mib: null (not measured), but %s has %.3f (--force compares the rest)\n",
			rf[i]->path, rf[!i]->path, rf[!i]->peak_memory_mib);
		return 2;
	}
	return 0;
}

/*
 * The resolutions the verdicts used, the smallest difference each
 * measurement tells apart (for memory: one memcg charge batch per CPU).
 */
static void print_resolutions(const struct result_file *ra, const struct result_file *rb,
			      double peak_res)
{
	const struct result_metric *ma, *mb;
	int i, n = 0;
	double res;

	for (i = 0; i < ra->nmetrics; i++) {
		ma = &ra->metrics[i];
		mb = result_file_metric(rb, ma->name);
		res = mb ? fmax(ma->resolution, mb->resolution) : 0;
		if (res <= 0)
			continue;
		printf("%s %s %.3f %s", n++ ? "," : "Resolution:", ma->name, res, ma->unit);
	}
	if (peak_res > 0)
		printf("%s peak_memory %.3f MiB", n++ ? "," : "Resolution:", peak_res);
	if (n)
		printf(".\n");
}

static int compare_docs(const struct result_file *ra, const struct result_file *rb)
{
	json_t *a = ra->doc, *b = rb->doc;
	char name[64], bs[64], ns[64], ch[32], pv[32];
	int worse_any = 0, worse, shared = 0, i;
	const struct result_metric *ma, *mb;
	const char *verdict;
	double p, res, mem_res = 0;

	if (compare_same_config(a, ra->path, b, rb->path, NULL, copts.force, "compare", stdout))
		return 2;
	if (check_metric_sets(ra, rb))
		return 2;
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
	for (i = 0; i < ra->nmetrics; i++) {
		ma = &ra->metrics[i];
		mb = result_file_metric(rb, ma->name);
		if (!mb)
			continue;
		shared++;
		p = welch_pvalue(&ma->st, &mb->st);
		res = fmax(ma->resolution, mb->resolution);
		snprintf(name, sizeof(name), "%s (%s)", ma->name, ma->unit);
		fmt_ms(&ma->st, bs, sizeof(bs));
		fmt_ms(&mb->st, ns, sizeof(ns));
		if (!ma->st.n) {
			/* neither run measured it (e.g. no memory cgroup): say so */
			printf("%-24s %22s %22s %10s %8s  %s\n", name, bs, ns, "-", "-",
			       "not measured in either run");
			continue;
		}
		verdict = compare_verdict(ma->st.mean, mb->st.mean, p, copts.threshold_pct, res,
					  ma->higher_is_better, &worse);
		worse_any |= worse;
		fmt_change(ma->st.mean, mb->st.mean, ch, sizeof(ch));
		fmt_p(ma->st.n > 1 && mb->st.n > 1 ? p : NAN, pv, sizeof(pv));
		printf("%-24s %22s %22s %10s %8s  %s\n", name, bs, ns, ch, pv, verdict);
	}
	/* peak memory is one value per run: no test, the threshold alone */
	if (!isnan(ra->peak_memory_mib) && !isnan(rb->peak_memory_mib)) {
		double va = ra->peak_memory_mib, vb = rb->peak_memory_mib;

		shared++;
		mem_res = fmax(ra->peak_memory_resolution_mib, rb->peak_memory_resolution_mib);
		verdict = compare_peak_verdict(va, vb, copts.threshold_pct, mem_res);
		snprintf(bs, sizeof(bs), "%.3f", va);
		snprintf(ns, sizeof(ns), "%.3f", vb);
		fmt_change(va, vb, ch, sizeof(ch));
		printf("%-24s %22s %22s %10s %8s  %s\n", "peak_memory (MiB)", bs, ns, ch, "-",
		       verdict);
	}
	if (!shared) {
		fprintf(stderr, "compare: %s and %s share no metric\n", ra->path, rb->path);
		return 2;
	}
	printf("A change counts when p < 0.05, |change| >= %.2f%% and it exceeds the metric's resolution (where known).\n",
	       copts.threshold_pct);
	print_resolutions(ra, rb, mem_res);
	return worse_any && copts.fail_on_regression ? 1 : 0;
}

int bench_compare_main(int argc, char **argv)
{
	struct result_file a, b;
	char err[512];
	int ret;

	copts = (struct compare_opts){ .threshold_pct = 2.0 };
	if (argp_parse(&compare_argp, argc, argv, 0, NULL, NULL))
		return 2;
	if (result_file_load(copts.files[0], &a, err, sizeof(err))) {
		fprintf(stderr, "compare: %s\n", err);
		return 2;
	}
	if (result_file_load(copts.files[1], &b, err, sizeof(err))) {
		fprintf(stderr, "compare: %s\n", err);
		result_file_free(&a);
		return 2;
	}
	ret = compare_docs(&a, &b);
	result_file_free(&a);
	result_file_free(&b);
	return ret;
}
