// SPDX-License-Identifier: GPL-2.0
/*
 * bench export kcidb RUN.json...: the runs as one KernelCI KCIDB report
 * (I/O schema 5.3).  One checkout (the kernel the runs ran on), one build
 * (its architecture), one test per summary metric per run, path
 * bpf.bench.<benchmark>.<configuration>.<metric>, status DONE with the mean
 * as its number.  A run whose map operations failed exports FAIL tests, a
 * metric that was not measured a SKIP test, a figure the run itself says
 * is not what it measures (bpf_ma's memory below its floor) an ERROR test,
 * none with a number: a figure KCIDB stores is one bench would print.  A
 * run that ended without a result (--failed) is one FAIL or ERROR test
 * with its reason.  Ids are the origin and a hash of the content, so
 * exporting a file again gives the same ids.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_exit.h"
#include "cli_files.h"
#include "export.h"
#include "json_util.h"
#include "output_file.h"
#include "result_file.h"
#include "result_config.h"
#include "result_label.h"
#include "run.h"
#include "run_context.h"
#include "suggest.h"

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3
/* hex digits of a content hash in an id: 128 bits */
#define ID_HASH_LEN 32

static struct kcidb_opts {
	const char *origin;
	const char *git_commit;
	const char *git_url;
	const char *config;
	const char *output;
	const char *failed, *reason, *failed_status;
	bool include_invalid;	/* an invalid run's tests carry its figures, still ERROR */
	const char *files[BENCH_MAX_FILES];
	int nfiles;
} kopts;

enum { ARG_ORIGIN = 1000, ARG_GIT_COMMIT, ARG_GIT_URL, ARG_CONFIG, ARG_FAILED, ARG_REASON,
       ARG_FAILED_STATUS, ARG_INCLUDE_INVALID };

static const struct argp_option kcidb_options[] = {
	{ "origin", ARG_ORIGIN, "NAME", 0, "The submitting CI system (required): lowercase letters, digits, '_'; ids are NAME:..." },
	{ "git-commit", ARG_GIT_COMMIT, "HASH", 0, "The checkout's commit: 40 lowercase hex digits" },
	{ "git-url", ARG_GIT_URL, "URL", 0, "The checkout's repository, an https:// URL" },
	{ "config", ARG_CONFIG, "NAME", 0, "The build's kernel configuration name (e.g. defconfig)" },
	{ "output", 'o', "FILE", 0, "Write the report to FILE (default: stdout)" },
	{ "failed", ARG_FAILED, "BENCHMARK", 0, "Also report a run of BENCHMARK that ended without a result (bench exited non-zero): one test, bpf.bench.BENCHMARK, with --reason; it ran on this machine's running kernel, or on the result files' (then given too)" },
	{ "reason", ARG_REASON, "TEXT", 0, "Why the --failed run failed, e.g. bench's last line on stderr" },
	{ "include-invalid", ARG_INCLUDE_INVALID, NULL, 0, "A run marked invalid (validity.valid false: its producers were starved) is always reported, its tests status ERROR with the reason; with this its figures are kept too (number, misc.invalid), for a report of what happened" },
	{ "failed-status", ARG_FAILED_STATUS, "STATUS", 0, "The --failed run's KCIDB status: ERROR (default: the run could not measure, e.g. its set-up failed or a signal ended it) or FAIL (the kernel failed what the benchmark checks)" },
	{},
};

static bool all_of(const char *s, const char *set, size_t min_len)
{
	return strlen(s) >= min_len && strspn(s, set) == strlen(s);
}

static error_t kcidb_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_ORIGIN:
		if (!all_of(arg, "abcdefghijklmnopqrstuvwxyz0123456789_", 1)) {
			fprintf(stderr, "invalid --origin '%s': expected lowercase letters, digits and '_' (KCIDB ids are ORIGIN:...)\n",
				arg);
			return EINVAL;
		}
		kopts.origin = arg;
		break;
	case ARG_GIT_COMMIT:
		if (strlen(arg) != 40 || !all_of(arg, "0123456789abcdef", 40)) {
			fprintf(stderr, "invalid --git-commit '%s': expected a full commit hash, 40 lowercase hex digits\n",
				arg);
			return EINVAL;
		}
		kopts.git_commit = arg;
		break;
	case ARG_GIT_URL:
		if (strncmp(arg, "https://", 8) || !arg[8] || strpbrk(arg, " \t\n")) {
			fprintf(stderr, "invalid --git-url '%s': expected an https:// URL\n", arg);
			return EINVAL;
		}
		kopts.git_url = arg;
		break;
	case ARG_CONFIG:
		if (!*arg) {
			fprintf(stderr, "invalid --config '': expected a configuration name\n");
			return EINVAL;
		}
		kopts.config = arg;
		break;
	case 'o':
		kopts.output = arg;
		break;
	case ARG_FAILED:
		if (!*arg || strpbrk(arg, " \t\n.")) {
			fprintf(stderr, "invalid --failed '%s': expected a benchmark name (bench -l)\n", arg);
			return EINVAL;
		}
		kopts.failed = arg;
		break;
	case ARG_REASON:
		if (!*arg) {
			fprintf(stderr, "invalid --reason '': expected why the run failed\n");
			return EINVAL;
		}
		kopts.reason = arg;
		break;
	case ARG_INCLUDE_INVALID:
		kopts.include_invalid = true;
		break;
	case ARG_FAILED_STATUS:
		if (strcmp(arg, "ERROR") && strcmp(arg, "FAIL")) {
			fprintf(stderr, "invalid --failed-status '%s': expected ERROR or FAIL\n", arg);
			return EINVAL;
		}
		kopts.failed_status = arg;
		break;
	case ARGP_KEY_ARG:
		return cli_take(kopts.files, &kopts.nfiles, "export kcidb", "result files", arg) ? EINVAL : 0;
	case ARGP_KEY_END:
		if (!kopts.origin) {
			fprintf(stderr, "export kcidb needs --origin NAME: the CI system the report comes from\n");
			return EINVAL;
		}
		if (!kopts.failed != !kopts.reason) {
			fprintf(stderr, "export kcidb: --failed and --reason go together: a failed run and why\n");
			return EINVAL;
		}
		if (kopts.failed_status && !kopts.failed) {
			fprintf(stderr, "export kcidb: --failed-status needs --failed BENCHMARK\n");
			return EINVAL;
		}
		if (!kopts.nfiles && !kopts.failed) {
			fprintf(stderr, "export kcidb needs result files (bench --json FILE) or --failed; got none\n");
			return EINVAL;
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp kcidb_argp = {
	.options = kcidb_options,
	.parser = kcidb_parse,
	.args_doc = "RUN.json...",
	.doc = "Write result files (bench --json) as one KCIDB report (schema 5.3): one "
	       "checkout and build for the kernel they ran on, one test per metric per run "
	       "(path bpf.bench.BENCHMARK.CONFIGURATION.METRIC, status DONE, the mean as its "
	       "number; FAIL when map operations failed, SKIP when not measured, ERROR for a figure "
	       "the run says is not what it measures), and a run that ended without a result "
	       "(--failed) as one FAIL or ERROR test with its reason.\v"
	       "Exit status: 0; 1 when writing failed; 2 on bad input (a file that is not a "
	       "valid result, runs of different kernels or architectures, a bad option).",
};

/* "ORIGIN:" and the first ID_HASH_LEN hex digits of the hash of text */
static json_t *content_id(const char *text)
{
	char hex[SHA256_HEX_LEN + 1], id[256];

	sha256_hex(text, strlen(text), hex);
	snprintf(id, sizeof(id), "%s:%.*s", kopts.origin, ID_HASH_LEN, hex);
	return json_string(id);
}

static const char *ctx_str(json_t *doc, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(doc, "context"), key));

	return s ? s : "";
}

/* the kernel build's identity (result files since bench recorded it), into misc */
static void kernel_build_misc(json_t *doc, json_t *misc)
{
	static const char *const keys[] = { "kernel_version", "kernel_build_id", "kernel_cmdline", "tag" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (*ctx_str(doc, keys[i]))
			json_object_set_new(misc, keys[i], json_string(ctx_str(doc, keys[i])));
}

static json_t *checkout_json(json_t *doc, const char **id)
{
	json_t *co, *idv, *misc;
	char key[2048], build[512];

	/* a base and a patched build of one release are two checkouts */
	result_kernel_build(doc, build, sizeof(build));
	snprintf(key, sizeof(key), "checkout\n%s\n%s\n%s\n%s", ctx_str(doc, "kernel_release"),
		 kopts.git_commit ? kopts.git_commit : "", kopts.git_url ? kopts.git_url : "", build);
	idv = content_id(key);
	*id = json_string_value(idv);
	misc = json_pack("{s:s}", "kernel_release", ctx_str(doc, "kernel_release"));
	kernel_build_misc(doc, misc);
	co = json_pack("{s:o, s:s, s:s, s:o}", "id", idv, "origin", kopts.origin,
		       "comment", ctx_str(doc, "kernel_release"), "misc", misc);
	if (kopts.git_commit)
		json_object_set_new(co, "git_commit_hash", json_string(kopts.git_commit));
	if (kopts.git_url)
		json_object_set_new(co, "git_repository_url", json_string(kopts.git_url));
	return co;
}

/* KCIDB's architecture names are the kernel's (x86_64 stays x86_64) */
static void arch_name(const char *machine, char *buf, size_t sz)
{
	size_t i;

	for (i = 0; machine[i] && i + 1 < sz; i++)
		buf[i] = (machine[i] >= 'A' && machine[i] <= 'Z') ? machine[i] - 'A' + 'a' :
			 strchr("abcdefghijklmnopqrstuvwxyz0123456789", machine[i]) ? machine[i] : '_';
	buf[i] = '\0';
}

static json_t *build_json(json_t *doc, const char *checkout_id, const char **id)
{
	json_t *b, *idv;
	char key[1024], arch[64];

	arch_name(ctx_str(doc, "machine"), arch, sizeof(arch));
	snprintf(key, sizeof(key), "build\n%s\n%s\n%s", checkout_id, arch,
		 kopts.config ? kopts.config : "");
	idv = content_id(key);
	*id = json_string_value(idv);
	b = json_pack("{s:o, s:s, s:s, s:s, s:o}", "id", idv, "origin", kopts.origin,
		      "checkout_id", checkout_id, "architecture", arch, "misc", json_object());
	kernel_build_misc(doc, json_object_get(b, "misc"));
	if (kopts.config)
		json_object_set_new(b, "config_name", json_string(kopts.config));
	return b;
}

/*
 * The mean in the unit's base with a prefix for display: 92.4 k/s is
 * 92400 op/s with metric prefixes, 0.73 MiB is 765460 B with binary ones.
 * Every unit a benchmark of this bench uses is here (tests/results_bpf.t
 * exports every benchmark's run and finds each number with its prefix).
 */
static json_t *number_json(double mean, const char *unit)
{
	static const struct {
		const char *unit, *base, *prefix;
		double scale;
	} units[] = {
		{ "/s", "op/s", "metric", 1 }, { "k/s", "op/s", "metric", 1e3 },
		/* lpm-trie-free's rate: upstream prints its prefix upper case */
		{ "K/s", "op/s", "metric", 1e3 },
		{ "M/s", "op/s", "metric", 1e6 }, { "G/s", "op/s", "metric", 1e9 },
		{ "1/s", "1/s", "metric", 1 },
		/* local-storage-create's ratio: no prefix of a unit, as it is */
		{ "kmallocs/create", "kmallocs/create", "metric", 1 },
		/* bloom-false-positive's rate: a percentage, as it is */
		{ "%", "%", "metric", 1 },
		{ "B", "B", "binary", 1 }, { "KiB", "B", "binary", 1024.0 },
		{ "MiB", "B", "binary", 1048576.0 }, { "GiB", "B", "binary", 1073741824.0 },
		{ "ns", "s", "metric", 1e-9 }, { "us", "s", "metric", 1e-6 },
		{ "ms", "s", "metric", 1e-3 }, { "s", "s", "metric", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return json_pack("{s:f, s:s, s:s}", "value", mean * units[i].scale,
					 "unit", units[i].base, "prefix", units[i].prefix);
	/* a unit bench does not know yet: as it is, unscaled */
	return json_pack("{s:f, s:s}", "value", mean, "unit", unit);
}

static json_t *stats_json(const struct stats *st)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", st->n,
			 "mean", json_finite(st->mean), "stddev", json_spread(st->n, st->stddev),
			 "median", json_finite(st->median), "min", json_finite(st->min),
			 "max", json_finite(st->max), "cv", json_spread(st->n, st->cv),
			 "ci95", json_spread(st->n, st->ci95));
}

/* where the run ran: the test's environment */
static json_t *environment_json(const struct result_file *rf)
{
	json_t *ctx = json_object_get(rf->doc, "context"), *cl = json_object_get(ctx, "command_line");
	json_t *mem = json_object_get(rf->doc, "memory_source"), *misc, *v;
	char machine[512], *cmd = NULL;
	size_t i, len = 0;
	FILE *f;

	result_machine_label(rf->doc, machine, sizeof(machine));
	f = open_memstream(&cmd, &len);
	json_array_foreach(cl, i, v)
		if (f && json_is_string(v))
			fprintf(f, "%s%s", i ? " " : "", json_string_value(v));
	if (f)
		fclose(f);
	misc = json_pack("{s:s, s:s, s:O?, s:O?, s:O?, s:O?, s:O?, s:s?, s:O?, s:O?}",
			 "machine", machine, "kernel_release", ctx_str(rf->doc, "kernel_release"),
			 "cpu_model", json_object_get(ctx, "cpu_model"),
			 "nr_online_cpus", json_object_get(ctx, "nr_online_cpus"),
			 "allowed_cpus", json_object_get(ctx, "allowed_cpus"),
			 "hypervisor", json_object_get(ctx, "hypervisor"),
			 "cgroup_mode", json_object_get(ctx, "cgroup_mode"),
			 "command_line", cmd,
			 "memory_source", json_is_object(mem) ? json_object_get(mem, "cgroup") : NULL,
			 "sysctl", json_object_get(ctx, "sysctl"));
	free(cmd);
	return json_pack("{s:s, s:o}", "comment", machine, "misc", misc);
}

struct metric_out {
	const char *name, *unit;
	const struct stats *st;		/* NULL: peak memory, one value */
	double value;			/* the mean (or the peak) */
	json_t *repeats;		/* summary.metrics.NAME.repeats, or NULL */
	const char *invalid;		/* why the run says its figure is not one, or NULL */
	bool run_invalid;		/* invalid: the whole run (validity.valid false) */
};

/*
 * bpf_ma's total memory (sys_slab_growth, or sys_percpu_growth with
 * --percpu: bench_bpf_ma.c's total_mem_metric()) below what the objects it
 * holds occupy: the run warned, and counts.memory_below_floor says so.
 * The figure is the allocator's reuse of older memory, not its footprint.
 */
static const char *below_floor(json_t *doc, const char *metric)
{
	json_t *counts = json_object_get(doc, "counts");
	json_t *bopts = json_object_get(json_object_get(doc, "options"), "benchmark");
	bool percpu = json_is_true(json_object_get(bopts, "percpu"));

	if (json_integer_value(json_object_get(counts, "memory_below_floor")) != 1 ||
	    strcmp(metric, percpu ? "sys_percpu_growth" : "sys_slab_growth"))
		return NULL;
	return "below the memory its stashed objects occupy (counts.memory_below_floor): the allocator reused memory from before set-up, the figure is not its footprint";
}

/* a run marked invalid (validity.valid false): every figure of it, as compare and history leave it out */
static const char *invalid_run(const struct result_file *rf, char *buf, size_t sz)
{
	if (!rf->invalid)
		return NULL;
	snprintf(buf, sz, "invalid run, no figure of the kernel: %s",
		 rf->invalid_reason ? rf->invalid_reason : "validity.valid is false");
	return buf;
}

static double run_seconds(json_t *doc)
{
	json_t *s;
	double ns = 0;
	size_t i;

	json_array_foreach(json_object_get(doc, "samples"), i, s)
		ns += json_integer_value(json_object_get(s, "interval_ns"));
	return ns / 1e9;
}

static json_t *test_json(const struct result_file *rf, const char *hash, const char *build_id,
			 const char *label, const struct metric_out *m)
{
	json_t *t, *misc;
	char path[512], key[512], comment[512];
	const char *status;

	snprintf(path, sizeof(path), "bpf.bench.%s.%s.%s", rf->benchmark, label, m->name);
	snprintf(key, sizeof(key), "test\n%s\n%s", hash, m->name);
	status = rf->fails ? "FAIL" : m->invalid ? "ERROR" : isnan(m->value) ? "SKIP" : "DONE";
	if (rf->fails)
		snprintf(comment, sizeof(comment), "%s %s: %lld map operations failed in the measured samples: no figure",
			 rf->benchmark, label, rf->fails);
	else if (m->invalid)
		snprintf(comment, sizeof(comment), "%s %s: %s: %s", rf->benchmark, label, m->name,
			 m->invalid);
	else if (isnan(m->value))
		snprintf(comment, sizeof(comment), "%s %s: %s not measured on this machine",
			 rf->benchmark, label, m->name);
	else
		snprintf(comment, sizeof(comment), "%s %s: %s %.6g %s%s", rf->benchmark, label,
			 m->name, m->value, m->unit,
			 result_emulated(rf->doc) ? " (" RESULT_EMULATED_SHORT ")" : "");
	misc = json_pack("{s:s, s:s, s:s, s:O, s:s, s:o, s:o, s:I, s:O, s:s?, s:s}",
			 "benchmark", rf->benchmark, "configuration", label, "metric", m->name,
			 "options", json_object_get(rf->doc, "options"), "unit", m->unit,
			 "mean", json_finite(m->value),
			 "statistics", m->st ? stats_json(m->st) : json_null(),
			 "fails", (json_int_t)rf->fails,
			 "warnings", json_object_get(rf->doc, "warnings"),
			 "bench_version", ctx_str(rf->doc, "bench_version"),
			 "result_sha256", hash);
	if (m->repeats)
		json_object_set(misc, "repeats", m->repeats);
	if (m->invalid)
		json_object_set_new(misc, "invalid", json_string(m->invalid));
	/* a run under TCG: its rates are the emulator's, and a dashboard should say so */
	if (result_emulated(rf->doc))
		json_object_set_new(misc, "emulated_timings", json_true());
	/* which memory: memory.current, or memory.stat's sum */
	if (result_memory_meaning(m->name))
		json_object_set_new(misc, "measures", json_string(result_memory_meaning(m->name)));
	t = json_pack("{s:o, s:s, s:s, s:s, s:s, s:s, s:f, s:o, s:o}",
		      "id", content_id(key), "origin", kopts.origin, "build_id", build_id,
		      "path", path, "status", status, "comment", comment,
		      "duration", run_seconds(rf->doc), "environment", environment_json(rf),
		      "misc", misc);
	/* --include-invalid: the figure of an invalid run is kept, its status says what it is */
	if (!strcmp(status, "DONE") || (m->run_invalid && kopts.include_invalid && !rf->fails &&
					!isnan(m->value)))
		json_object_set_new(t, "number", number_json(m->value, m->unit));
	/* when the run started (files since bench recorded it) */
	if (*ctx_str(rf->doc, "start_time"))
		json_object_set_new(t, "start_time", json_string(ctx_str(rf->doc, "start_time")));
	return t;
}

/* one test per summary metric, and one for the peak memory */
static int run_tests(const struct result_file *rf, const char *build_id, json_t *tests)
{
	json_t *metrics = json_object_get(json_object_get(rf->doc, "summary"), "metrics");
	char hash[SHA256_HEX_LEN + 1], label[256], invalid[512];
	const char *run_invalid = invalid_run(rf, invalid, sizeof(invalid));
	struct metric_out m;
	int i;

	if (result_doc_hash(rf->doc, hash))
		return -ENOMEM;
	result_config_slug(rf->doc, label, sizeof(label));
	for (i = 0; i < rf->nmetrics; i++) {
		const struct result_metric *rm = &rf->metrics[i];

		m = (struct metric_out){ .name = rm->name, .unit = rm->unit, .st = &rm->st,
					 .value = rm->st.n ? rm->st.mean : NAN,
					 .repeats = json_object_get(json_object_get(metrics, rm->name),
								    "repeats"),
					 .invalid = run_invalid ? run_invalid :
						    below_floor(rf->doc, rm->name),
					 .run_invalid = run_invalid != NULL };
		if (json_array_append_new(tests, test_json(rf, hash, build_id, label, &m)))
			return -ENOMEM;
	}
	m = (struct metric_out){ .name = "peak_memory", .unit = "MiB",
				 .value = rf->peak_memory_mib, .invalid = run_invalid,
				 .run_invalid = run_invalid != NULL };
	return json_array_append_new(tests, test_json(rf, hash, build_id, label, &m)) ? -ENOMEM : 0;
}

/*
 * A run that ended without a result: one test at the benchmark's node,
 * FAIL or ERROR (--failed-status) with the reason, no number.  Where it
 * ran is doc's context: the result files', or this machine's.
 */
static json_t *failed_test_json(json_t *doc, const char *build_id)
{
	const char *status = kopts.failed_status ? kopts.failed_status : "ERROR";
	char path[512], key[4096], comment[1024], machine[512];
	json_t *misc;

	result_machine_label(doc, machine, sizeof(machine));
	snprintf(path, sizeof(path), "bpf.bench.%s", kopts.failed);
	snprintf(key, sizeof(key), "failed\n%s\n%s\n%s\n%s", build_id, kopts.failed, status,
		 kopts.reason);
	snprintf(comment, sizeof(comment), "%s: the run ended without a result: %s", kopts.failed,
		 kopts.reason);
	misc = json_pack("{s:s, s:s, s:s}", "benchmark", kopts.failed, "reason", kopts.reason,
			 "bench_version", ctx_str(doc, "bench_version"));
	return json_pack("{s:o, s:s, s:s, s:s, s:s, s:s, s:{s:s}, s:o}", "id", content_id(key),
			 "origin", kopts.origin, "build_id", build_id, "path", path,
			 "status", status, "comment", comment, "environment", "comment", machine,
			 "misc", misc);
}

/* this machine's running kernel, as a run's context: for a --failed run without files */
static json_t *this_machine_doc(void)
{
	struct env e = {};
	struct bench_run run = { .env = &e };

	return json_pack("{s:o}", "context", run_context_json(&run));
}

/* one checkout and one build: every run must be of one kernel and architecture */
static int check_one_kernel(const struct result_file *rfs, int n)
{
	char b0[512], bi[512], s0[32], si[32];
	int i;

	for (i = 1; i < n; i++) {
		if (strcmp(ctx_str(rfs[0].doc, "kernel_release"), ctx_str(rfs[i].doc, "kernel_release"))) {
			fprintf(stderr, "export kcidb: %s ran on kernel %s, %s on %s: one report is one checkout, export each kernel's runs separately\n",
				rfs[0].path, ctx_str(rfs[0].doc, "kernel_release"), rfs[i].path,
				ctx_str(rfs[i].doc, "kernel_release"));
			return -EINVAL;
		}
		result_kernel_build(rfs[0].doc, b0, sizeof(b0));
		result_kernel_build(rfs[i].doc, bi, sizeof(bi));
		if (strcmp(b0, bi)) {
			result_build_short(b0, s0, sizeof(s0));
			result_build_short(bi, si, sizeof(si));
			fprintf(stderr, "export kcidb: %s ran on build %s of kernel %s, %s on build %s: one report is one checkout, export each build's runs separately\n",
				rfs[0].path, s0, ctx_str(rfs[0].doc, "kernel_release"), rfs[i].path, si);
			return -EINVAL;
		}
		if (strcmp(ctx_str(rfs[0].doc, "machine"), ctx_str(rfs[i].doc, "machine"))) {
			fprintf(stderr, "export kcidb: %s ran on %s, %s on %s: one report is one build, export each architecture's runs separately\n",
				rfs[0].path, ctx_str(rfs[0].doc, "machine"), rfs[i].path,
				ctx_str(rfs[i].doc, "machine"));
			return -EINVAL;
		}
	}
	if (n && !*ctx_str(rfs[0].doc, "kernel_release")) {
		fprintf(stderr, "export kcidb: %s: context.kernel_release: missing: the checkout cannot be named\n",
			rfs[0].path);
		return -EINVAL;
	}
	return 0;
}

/* where: the document whose context names the kernel and machine */
static json_t *kcidb_report(const struct result_file *rfs, int n, json_t *where)
{
	const char *checkout_id, *build_id;
	json_t *checkout, *build, *tests = json_array(), *report;
	int i;

	checkout = checkout_json(where, &checkout_id);
	build = build_json(where, checkout_id, &build_id);
	report = json_pack("{s:{s:i, s:i}, s:[o], s:[o], s:o}", "version", "major", KCIDB_MAJOR,
			   "minor", KCIDB_MINOR, "checkouts", checkout, "builds", build,
			   "tests", tests);
	for (i = 0; report && i < n; i++)
		if (run_tests(&rfs[i], build_id, tests)) {
			json_decref(report);
			return NULL;
		}
	if (report && kopts.failed &&
	    json_array_append_new(tests, failed_test_json(where, build_id))) {
		json_decref(report);
		return NULL;
	}
	return report;
}

/* the report, built and written: 0, or a negative errno after one line */
static int write_report(const struct result_file *rfs, int n, json_t *where)
{
	json_t *report = kcidb_report(rfs, n, where);
	const char *out = kopts.output ? kopts.output : "-";
	char *text = report ? json_dumps(report, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) : NULL;
	size_t len;
	int err;

	json_decref(report);
	if (!text) {
		fprintf(stderr, "failed to build the KCIDB report: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	len = strlen(text);
	text[len++] = '\n';	/* over the terminating NUL: the buffer is written by length */
	err = output_file_write(out, text, len);
	free(text);
	if (err)
		fprintf(stderr, "failed to write %s: %s\n", output_file_name(out), strerror(-err));
	return err;
}

static int export_kcidb_main(int argc, char **argv)
{
	struct result_file *rfs;
	json_t *machine = NULL;
	int i, n = 0, err;

	kopts = (struct kcidb_opts){};
	if (argp_parse(&kcidb_argp, argc, argv, 0, NULL, NULL))
		return BENCH_EXIT_BAD_INPUT;
	if (kopts.output) {
		err = output_file_precheck("-o", kopts.output);
		if (err)
			return bench_exit_status(err);
	}
	rfs = calloc(kopts.nfiles ? kopts.nfiles : 1, sizeof(*rfs));
	if (!rfs) {
		fprintf(stderr, "failed to allocate the export: %s\n", strerror(ENOMEM));
		return BENCH_EXIT_FAILED;
	}
	err = result_files_load("export kcidb", kopts.files, kopts.nfiles, rfs, &n);
	/* a failed run alone ran here: this machine's kernel names the checkout */
	if (!err && !n) {
		machine = this_machine_doc();
		if (!machine || !*ctx_str(machine, "kernel_release")) {
			err = errno ? -errno : -ENOMEM;
			fprintf(stderr, "export kcidb: failed to read this machine's kernel release: %s\n",
				strerror(-err));
			/* not the table's bad input: this machine failed */
			if (err == -EINVAL)
				err = -EIO;
		}
	}
	if (!err)
		err = check_one_kernel(rfs, n);
	if (!err)
		err = write_report(rfs, n, n ? rfs[0].doc : machine);
	json_decref(machine);
	for (i = 0; i < n; i++)
		result_file_free(&rfs[i]);
	free(rfs);
	return bench_exit_status(err);
}

int bench_export_main(int argc, char **argv)
{
	static const char *const formats[] = { "kcidb" };
	char name[] = "bench export kcidb";

	if (argc < 2 || strcmp(argv[1], "kcidb")) {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-?"))) {
			argp_help(&kcidb_argp, stdout, ARGP_HELP_STD_HELP, "bench export kcidb");
			return 0;
		}
		fprintf(stderr, "export needs a format first: '%s' is not one; ", argc < 2 ? "" : argv[1]);
		suggest_print(stderr, argc < 2 ? "" : argv[1], formats, sizeof(formats) / sizeof(formats[0]));
		fprintf(stderr, "accepted: kcidb\n");
		return BENCH_EXIT_BAD_INPUT;
	}
	argv[1] = name;
	return export_kcidb_main(argc - 1, argv + 1);
}
