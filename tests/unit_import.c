// SPDX-License-Identifier: GPL-2.0
/*
 * bench import's reader (results/import.c) on texts written here in the
 * formats upstream's reporters print, with hand-worked expected figures,
 * and its refusals: the line and the value named.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "result_file.h"
#include "results/import.h"
#include "tap.h"

static const struct import_pick any;

/* a count-local run of upstream's runner, -w1 -d2: three Iter lines after warm-up */
static const char hits_log[] =
	"Setting up benchmark 'count-local'...\n"
	"Benchmark 'count-local' started.\n"
	"Iter   0 ( 12.500us): hits  100.000M/s (100.000M/prod), drops    0.000M/s, total operations  100.000M/s\n"
	"Iter   1 (-20.000us): hits  150.000M/s (150.000M/prod), drops    1.000M/s, total operations  151.000M/s\n"
	"Iter   2 ( 30.000us): hits  160.000M/s (160.000M/prod), drops    2.000M/s, total operations  162.000M/s\n"
	"Iter   3 (  0.000us): hits  170.000M/s (170.000M/prod), drops    3.000M/s, total operations  173.000M/s\n"
	"Summary: hits  160.000 ± 10.000M/s (160.000M/prod), drops    2.000 ± 1.000M/s, total operations  162.000 ± 11.000M/s\n";

static const char htab_log[] =
	"Setting up benchmark 'htab-mem'...\n"
	"Benchmark 'htab-mem' started.\n"
	"Iter   0 ( 41.077us): per-prod-op   55.09k/s, memory usage    0.73MiB\n"
	"Iter   1 (-12.250us): per-prod-op   50.00k/s, memory usage    1.00MiB\n"
	"Iter   2 ( 13.000us): per-prod-op   54.00k/s, memory usage    1.50MiB\n"
	"Summary: per-prod-op   52.00 ±    2.83k/s, memory usage    1.25 ±    0.35MiB, peak memory usage    1.75MiB\n";

static const char mail[] =
	"Some prose about the series.\n"
	"\n"
	"(2) preallocated\n"
	"> overwrite            per-prod-op : 93.56 ± 0.03k/s, avg mem: 1.23 ± 0.00MiB, peak mem: 1.24MiB\n"
	"> batch_add_batch_del  per-prod-op : 139.67 ± 0.08k/s, avg mem: 1.23 ± 0.00MiB, peak mem: 1.49MiB\n"
	"(3) bpf memory allocator\n"
	"overwrite            per-prod-op : 89.45 ± 0.27k/s, avg mem: 2.26 ± 0.00MiB, peak mem: 2.74MiB\n";

static void test_hits(void)
{
	struct import_log log;
	char err[512];
	bool counts;

	is_int(import_parse("a.log", hits_log, &any, &log, err, sizeof(err)), 0, "hits/drops: parsed: %s", err);
	is_int(log.kind, IMPORT_UPSTREAM_TEXT, "hits/drops: a runner's text");
	is_str(log.bench, "count-local", "hits/drops: the benchmark set up");
	is_int(log.nsamples, 4, "hits/drops: four Iter lines");
	is_int(log.samples[0].interval_ns, 1000012500, "Iter 0: 12.500us past one second");
	is_int(log.samples[1].interval_ns, 999980000, "Iter 1: 20us short of one second");
	is_near(log.samples[2].v[IM_HITS], 160.0, 1e-12, "Iter 2's hits");
	is_near(log.samples[3].v[IM_TOTAL], 173.0, 1e-12, "Iter 3's total operations");
	ok(isnan(log.samples[3].v[IM_PER_PROD_OP]), "no per-prod-op in a hits line");
	is_int(log.summary_line, 7, "the Summary on line 7");
	is_near(log.sum[IM_HITS].mean, 160.0, 1e-12, "Summary: hits mean");
	is_near(log.sum[IM_TOTAL].stddev, 11.0, 1e-12, "Summary: the total's spread");
	/* measured: 150, 160, 170 -> 160 ± 10; drops 1, 2, 3 -> 2 ± 1; totals 151, 162, 173 -> 162 ± 11 */
	is_int(import_check_summary("a.log", &log, 1, &counts, err, sizeof(err)), 0,
	       "-w1: the Summary follows from the last three Iter lines: %s", err);
	ok(!counts, "... of their rates");
	is_int(import_check_summary("a.log", &log, 2, &counts, err, sizeof(err)), -EINVAL,
	       "-w2: it does not (165 ± 7.07)");
	ok(strstr(err, "line 7") && strstr(err, "warm-up"), "and says which line and why: %s", err);
	import_log_free(&log);
}

/*
 * Upstream's final reporters average each sample's count, not its rate:
 * with Iter 2 one millisecond long, 100 M/s then counts 100.1 M in that
 * second, and the Summary says (200 + 100.1) / 2 = 150.05.
 */
static const char counts_log[] =
	"Setting up benchmark 'count-local'...\n"
	"Iter   0 (  0.000us): hits  300.000M/s (300.000M/prod), drops    0.000M/s, total operations  300.000M/s\n"
	"Iter   1 (  0.000us): hits  200.000M/s (200.000M/prod), drops    0.000M/s, total operations  200.000M/s\n"
	"Iter   2 (1000.000us): hits  100.000M/s (100.000M/prod), drops    0.000M/s, total operations  100.000M/s\n"
	"Summary: hits  150.050 ± 70.640M/s (150.050M/prod), drops    0.000 ± 0.000M/s, total operations  150.050 ± 70.640M/s\n";

static void test_counts(void)
{
	struct import_log log;
	char err[512];
	bool counts;

	is_int(import_parse("c.log", counts_log, &any, &log, err, sizeof(err)), 0, "counts: parsed: %s", err);
	is_int(import_check_summary("c.log", &log, 1, &counts, err, sizeof(err)), 0,
	       "upstream's Summary of counts holds: %s", err);
	ok(counts, "... as counts, not rates (their mean is 150.000)");
	import_log_free(&log);
}

static void test_htab(void)
{
	struct import_log log;
	const char *want[] = { "per_prod_op", "failures", "memory", NULL };
	struct import_meta meta = { .benchmark = "htab-mem", .file = "h.log", .want = want,
				    .warmup = 1 };
	struct result_file rf;
	json_t *doc;
	char err[512];
	bool counts;

	is_int(import_parse("h.log", htab_log, &any, &log, err, sizeof(err)), 0, "htab-mem: parsed: %s", err);
	is_near(log.samples[1].v[IM_PER_PROD_OP], 50.0, 1e-12, "Iter 1's per-prod-op");
	is_near(log.samples[2].v[IM_MEMORY], 1.5, 1e-12, "Iter 2's memory");
	is_near(log.peak_mib, 1.75, 1e-12, "the peak");
	/* 50, 54 -> 52 ± 2.828; 1.00, 1.50 -> 1.25 ± 0.354 */
	is_int(import_check_summary("h.log", &log, 1, &counts, err, sizeof(err)), 0, "htab-mem: the Summary holds: %s", err);

	meta.options = json_pack("{s:{s:i, s:i, s:i, s:i, s:b, s:b, s:[], s:[]}, s:{s:s}}", "runner",
				 "duration_sec", 5, "warmup_sec", 1, "producers", 1, "consumers", 0,
				 "zero_seed", false, "affinity", false, "prod_affinity",
				 "cons_affinity", "benchmark", "use_case", "overwrite");
	doc = import_doc(&log, &meta, err, sizeof(err));
	ok(doc != NULL, "htab-mem: a document: %s", err);
	is_int(json_integer_value(json_object_get(json_object_get(json_object_get(doc, "options"), "runner"),
						  "duration_sec")), 2, "duration_sec: the measured Iter lines");
	is_str(json_string_value(json_array_get(json_object_get(json_object_get(doc, "source"),
							       "missing_metrics"), 0)),
	       "failures", "failures: upstream does not print it, said in source.missing_metrics");
	is_int(result_file_load_doc("h.json", json_incref(doc), &rf, err, sizeof(err)), 0,
	       "our reader takes it: %s", err);
	is_str(rf.source_kind, "upstream-text", "source.kind");
	ok(result_file_lacks(&rf, "failures") && !result_file_lacks(&rf, "memory"), "lacks failures, not memory");
	is_near(result_file_metric(&rf, "per_prod_op")->st.mean, 52.0, 1e-9, "per_prod_op mean from the samples");
	is_near(rf.peak_memory_mib, 1.75, 1e-9, "the peak");
	result_file_free(&rf);
	json_decref(doc);
	json_decref(meta.options);
	import_log_free(&log);
}

/* upstream's htab-mem where it cannot read memory.current: zeros, not a measurement */
static const char htab_nomem_log[] =
	"Setting up benchmark 'htab-mem'...\n"
	"Iter   0 (  0.000us): per-prod-op   26.00k/s, memory usage    0.00MiB\n"
	"Iter   1 (  0.000us): per-prod-op   28.00k/s, memory usage    0.00MiB\n"
	"Iter   2 (  0.000us): per-prod-op   30.00k/s, memory usage    0.00MiB\n"
	"Summary: per-prod-op   29.00 ±    1.41k/s, memory usage    0.00 ±    0.00MiB, peak memory usage    0.00MiB\n";

static void test_htab_nomem(void)
{
	const char *want[] = { "per_prod_op", "memory", NULL };
	struct import_meta meta = { .benchmark = "htab-mem", .file = "n.log", .want = want,
				    .warmup = 1 };
	struct import_log log;
	char err[512];
	json_t *doc;

	is_int(import_parse("n.log", htab_nomem_log, &any, &log, err, sizeof(err)), 0, "no memory: parsed");
	meta.options = json_pack("{s:{s:i, s:i}, s:{}}", "runner", "duration_sec", 5, "warmup_sec", 1,
				 "benchmark");
	doc = import_doc(&log, &meta, err, sizeof(err));
	ok(doc && !json_object_get(json_object_get(json_object_get(doc, "summary"), "metrics"), "memory"),
	   "all-zero memory is not imported as a figure");
	ok(doc && json_is_null(json_object_get(json_object_get(doc, "summary"), "peak_memory_mib")),
	   "nor the zero peak");
	is_str(json_string_value(json_array_get(json_object_get(json_object_get(doc, "source"),
							       "missing_metrics"), 0)),
	       "memory", "memory is among the missing metrics");
	json_decref(doc);
	json_decref(meta.options);
	import_log_free(&log);
}

static void test_mail(void)
{
	struct import_pick by_line = { .line = 7 }, by_name = { .row = "overwrite" },
			   other = { .row = "batch_add_batch_del" };
	const char *want[] = { "per_prod_op", "memory", NULL };
	struct import_meta meta = { .benchmark = "htab-mem", .file = "m.txt", .want = want };
	struct import_log log;
	struct result_file rf;
	char err[512];
	json_t *doc;

	is_int(import_parse("m.txt", mail, &any, &log, err, sizeof(err)), -EINVAL, "mail: three rows, none picked");
	ok(strstr(err, "3 table rows") && strstr(err, "line 4"), "says how many and where: %s", err);
	import_log_free(&log);
	is_int(import_parse("m.txt", mail, &by_name, &log, err, sizeof(err)), -EINVAL, "mail: two rows named overwrite");
	ok(strstr(err, "2 table rows named 'overwrite'"), "says so: %s", err);
	import_log_free(&log);
	is_int(import_parse("m.txt", mail, &other, &log, err, sizeof(err)), 0, "mail: a quoted row by name");
	is_near(log.sum[IM_PER_PROD_OP].mean, 139.67, 1e-12, "its per-prod-op");
	import_log_free(&log);
	is_int(import_parse("m.txt", mail, &by_line, &log, err, sizeof(err)), 0, "mail: the row on line 7");
	is_int(log.kind, IMPORT_PATCH_MAIL, "a patch mail");
	is_str(log.row, "overwrite", "its name");
	is_near(log.sum[IM_PER_PROD_OP].mean, 89.45, 1e-12, "per-prod-op mean");
	is_near(log.sum[IM_PER_PROD_OP].stddev, 0.27, 1e-12, "per-prod-op spread");
	is_near(log.sum[IM_MEMORY].mean, 2.26, 1e-12, "avg mem");
	is_near(log.peak_mib, 2.74, 1e-12, "peak mem");

	meta.options = json_pack("{s:{s:i, s:i, s:i}, s:{}}", "runner", "duration_sec", 10,
				 "warmup_sec", 3, "producers", 8, "benchmark");
	doc = import_doc(&log, &meta, err, sizeof(err));
	ok(doc != NULL, "mail: a document: %s", err);
	is_int(json_array_size(json_object_get(doc, "samples")), 0, "no samples");
	is_int(result_file_load_doc("m.json", json_incref(doc), &rf, err, sizeof(err)), 0,
	       "our reader takes it: %s", err);
	ok(result_file_summary_only(&rf), "summary only");
	is_near(result_file_metric(&rf, "per_prod_op")->st.mean, 89.45, 1e-12, "the printed mean");
	result_file_free(&rf);
	/* an edit that gives a summary-only metric a count is refused */
	json_object_set_new(json_object_get(json_object_get(json_object_get(doc, "summary"), "metrics"),
					    "memory"), "n", json_integer(10));
	is_int(result_file_load_doc("m.json", json_incref(doc), &rf, err, sizeof(err)), -EINVAL,
	       "a count on a printed summary is refused");
	ok(strstr(err, "summary.metrics.memory.n"), "naming the field: %s", err);
	json_decref(doc);
	json_decref(meta.options);
	import_log_free(&log);
}

/* each bad text: parse refused, the message holds every piece of want */
static void refused(const char *text, const char *what, const char *want1, const char *want2)
{
	struct import_log log;
	char err[512];
	int ret;

	ret = import_parse("bad.log", text, &any, &log, err, sizeof(err));
	is_int(ret, -EINVAL, "refused: %s", what);
	ok(strstr(err, want1) && (!want2 || strstr(err, want2)), "%s: says '%s': %s", what, want1, err);
	import_log_free(&log);
}

static void test_refusals(void)
{
	refused("Iter   0 ( 1.000us): hits  nanM/s (1.000M/prod), drops 0.000M/s\n", "a NaN rate",
		"line 1", "no reporter's format");
	refused("Setting up benchmark 'x'...\nIter   0 ( 1.000us): hits  1.000M/s (1.000M/prod), drops 0.000M/s, total operations 1.000M/s trailing\n",
		"trailing text after an Iter line", "line 2", "trailing");
	refused("Iter   0 ( 1.000us): hits 1.000M/s (1.000M/prod)\nIter   2 ( 1.000us): hits 1.000M/s (1.000M/prod)\n",
		"a missing Iter", "line 2", "Iter 2, but 1 Iter lines");
	refused("Summary: hits 1.000 ± 0.1M/s (1.000M/prod), drops x ± 0.000M/s\n", "a bad Summary figure",
		"line 1", "Summary line in no reporter's format");
	refused("Setting up benchmark 'a'...\nSetting up benchmark 'b'...\n", "two runs", "line 2", "second");
	refused("Setting up benchmark 'a'...\nBenchmark 'a' started.\n", "no Iter, no Summary",
		"measured nothing", NULL);
	refused("overwrite  per-prod-op : 9.1 ± xk/s, avg mem: 1 ± 0MiB, peak mem: 1MiB\n", "a bad row figure",
		"line 1", "X ± Yk/s");
	refused("just prose\n", "neither", "neither upstream's runner output", NULL);
}

int main(void)
{
	test_hits();
	test_counts();
	test_htab();
	test_htab_nomem();
	test_mail();
	test_refusals();
	return done_testing();
}
