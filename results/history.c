// SPDX-License-Identifier: GPL-2.0
/*
 * bench history add|list|show: result files into the history (history_db.c)
 * and back out as tables.  add checks every file as compare does and adds
 * all of them in one transaction or none; list shows the selected runs;
 * show the trend of one metric across kernels: per kernel and machine, the
 * mean of its runs' means, the spread between them and the change against
 * the machine's first kernel (a VM's figures are not a host's).
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_exit.h"
#include "cli_files.h"
#include "history.h"
#include "result_label.h"
#include "cli_json.h"
#include "compare.h"
#include "history_cli.h"
#include "result_label.h"
#include "stats.h"
#include "suggest.h"
#include "testing_helpers.h"


struct history_cli hcli;

enum { ARG_DB = 1000, ARG_BENCHMARK, ARG_CONFIG, ARG_KERNEL, ARG_MACHINE, ARG_LIKE, ARG_METRIC,
       ARG_BUILD, ARG_TAG, ARG_INCLUDE_INVALID };

#define DB_DOC "The database (default $XDG_DATA_HOME/bench/history.db, else ~/.local/share/bench/history.db)"

static const struct argp_option sel_options[] = {
	{ "db", ARG_DB, "FILE", 0, DB_DOC },
	{ "benchmark", ARG_BENCHMARK, "NAME", 0, "Only runs of this benchmark" },
	{ "config", ARG_CONFIG, "LABEL", 0, "Only runs of this configuration (its label, as list and bench config show it: \"overwrite value_size=4096\")" },
	{ "kernel", ARG_KERNEL, "RELEASE", 0, "Only runs on this kernel release" },
	{ "build", ARG_BUILD, "PREFIX", 0, "Only runs on this kernel build: a prefix of its build id (or of the build as list shows it)" },
	{ "tag", ARG_TAG, "TEXT", 0, "Only runs recorded with --tag TEXT" },
	{ "machine", ARG_MACHINE, "TEXT", 0, "Only runs on machines whose name contains TEXT" },
	{ "like", ARG_LIKE, "ID", 0, "Only runs of run ID's benchmark with its options (producers, affinity, the benchmark's own)" },
	{ "metric", ARG_METRIC, "NAME", 0, "The metric to show (default: each run's first, the primary rate)" },
	{},
};

/*
 * add's options: the files say the rest.  The selection options are
 * known, hidden, so that add refuses them with its reason rather than
 * argp's "unrecognized option", and its --help offers only what it takes.
 */
static const struct argp_option add_options[] = {
	{ "db", ARG_DB, "FILE", 0, DB_DOC },
	{ "machine", ARG_MACHINE, "NAME", 0, "File the runs under NAME instead of \"CPU model, N CPUs, hypervisor\"" },
	{ "include-invalid", ARG_INCLUDE_INVALID, NULL, 0, "Add runs marked invalid (validity.valid false: their producers were starved) too, instead of leaving them out; list and show mark them (!) with the reason" },
	{ "benchmark", ARG_BENCHMARK, "NAME", OPTION_HIDDEN },
	{ "config", ARG_CONFIG, "LABEL", OPTION_HIDDEN },
	{ "kernel", ARG_KERNEL, "RELEASE", OPTION_HIDDEN },
	{ "build", ARG_BUILD, "PREFIX", OPTION_HIDDEN },
	{ "tag", ARG_TAG, "TEXT", OPTION_HIDDEN },
	{ "like", ARG_LIKE, "ID", OPTION_HIDDEN },
	{ "metric", ARG_METRIC, "NAME", OPTION_HIDDEN },
	{},
};

static error_t sel_parse(int key, char *arg, struct argp_state *state)
{
	long v;

	switch (key) {
	case ARG_DB:
		hcli.db = arg;
		break;
	case ARG_BENCHMARK:
		hcli.sel.benchmark = arg;
		break;
	case ARG_CONFIG:
		hcli.sel.config = arg;
		break;
	case ARG_KERNEL:
		hcli.sel.kernel = arg;
		break;
	case ARG_MACHINE:
		hcli.sel.machine = arg;
		break;
	case ARG_BUILD:
		hcli.sel.build = arg;
		break;
	case ARG_TAG:
		hcli.sel.tag = arg;
		break;
	case ARG_LIKE:
		if (parse_long(arg, 1, LONG_MAX, &v)) {
			fprintf(stderr, "invalid --like '%s': expected a run id (bench history list shows them)\n",
				arg);
			return EINVAL;
		}
		hcli.sel.like = v;
		break;
	case ARG_METRIC:
		hcli.sel.metric = arg;
		break;
	case ARG_INCLUDE_INVALID:
		hcli.include_invalid = true;
		break;
	case ARGP_KEY_ARG:
		return cli_take(hcli.files, &hcli.nfiles, "history", "result files", arg) ? EINVAL : 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp history_sel_argp = { .options = sel_options, .parser = sel_parse };

/* list and show: the selection, and --json */
static const struct argp_option out_options[] = {
	{ "json", 'j', NULL, 0, "Print one JSON object on stdout instead of the table (docs/results-and-json.md, \"JSON of the commands\")" },
	{},
};

static error_t out_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	(void)state;
	if (key != 'j')
		return ARGP_ERR_UNKNOWN;
	hcli.json = true;
	return 0;
}

static const struct argp_child out_children[] = { { &history_sel_argp }, {} };
static const struct argp out_argp = { .options = out_options, .parser = out_parse,
				       .children = out_children };
static const struct argp add_argp = { .options = add_options, .parser = sel_parse };

int history_cli_open(struct history *h, bool create)
{
	static char path[PATH_MAX];
	int err;

	if (!hcli.db) {
		if (history_default_path(path, sizeof(path)))
			return -EINVAL;
		hcli.db = path;
		hcli.db_is_default = true;
	}
	err = history_open(h, hcli.db, create, hcli.db_is_default);
	if (err && h->err[0])
		fprintf(stderr, "%s\n", h->err);
	/* -EINVAL: the database named is refused (bad input); else it could not be read or written */
	return err;
}

int history_cli_parse(const char *cmd, const struct argp *opts, const char *args_doc,
		      const char *doc, int argc, char **argv)
{
	const struct argp_child children[] = { { opts }, {} };
	struct argp a = { .args_doc = args_doc, .doc = doc, .children = children };
	char name[64], *arg0 = argv[0];
	int err;

	hcli = (struct history_cli){};
	/* usage and errors read "bench history show ..." */
	snprintf(name, sizeof(name), "bench %s", cmd);
	argv[0] = name;
	err = argp_parse(&a, argc, argv, 0, NULL, NULL);
	argv[0] = arg0;
	return err ? -EINVAL : 0;
}

/* ---- add ---- */

/* rfs[0..n) into the history, all or none: 0, or a negative errno after one line */
static int add_files(const struct result_file *rfs, int n)
{
	struct history h;
	int i, err, left_out = 0;
	long long id;
	bool dup;

	err = history_cli_open(&h, true);
	if (err)
		return err;
	err = history_begin(&h);
	for (i = 0; !err && i < n; i++) {
		if (!result_file_kept(&rfs[i], "history add", hcli.include_invalid))
			left_out++;
		else if (!(err = history_add(&h, &rfs[i], hcli.sel.machine, hcli.files[i], &id, &dup)))
			printf(dup ? "%s: already in the history as run %lld%s\n" :
			       "%s: added as run %lld%s\n", hcli.files[i], id,
			       rfs[i].invalid ? " " HISTORY_INVALID_MARK " (marked invalid)" : "");
	}
	if (!err)
		err = history_commit(&h);
	else
		history_rollback(&h);
	history_close(&h);
	if (!err && left_out)
		fprintf(stderr, "history add: left out %d of %d files as invalid runs (producers starved); --include-invalid adds them, marked\n",
			left_out, n);
	if (!err && left_out == n) {
		fprintf(stderr, "history add: no valid file: nothing added\n");
		return -EINVAL;
	}
	/* the history's own failures: not the files' fault */
	return err == -EINVAL ? -EIO : err;
}

static int add_main(int argc, char **argv)
{
	struct result_file *rfs;
	int i, n, err;

	if (history_cli_parse("history add", &add_argp, "RUN.json...",
			      "Add result files (bench --json) to the history, all or none.", argc,
			      argv))
		return BENCH_EXIT_BAD_INPUT;
	if (!hcli.nfiles) {
		fprintf(stderr, "history add needs result files (bench --json FILE); got none\n");
		return BENCH_EXIT_BAD_INPUT;
	}
	if (hcli.sel.benchmark || hcli.sel.config || hcli.sel.kernel || hcli.sel.like || hcli.sel.metric ||
	    hcli.sel.build || hcli.sel.tag) {
		fprintf(stderr, "history add takes --db and --machine only: the rest comes from the files\n");
		return BENCH_EXIT_BAD_INPUT;
	}
	rfs = calloc(hcli.nfiles, sizeof(*rfs));
	if (!rfs) {
		fprintf(stderr, "failed to allocate the history add: %s\n", strerror(ENOMEM));
		return BENCH_EXIT_FAILED;
	}
	err = result_files_load("history add", hcli.files, hcli.nfiles, rfs, &n);
	if (!err)
		err = add_files(rfs, n);
	for (i = 0; i < n; i++)
		result_file_free(&rfs[i]);
	free(rfs);
	return bench_exit_status(err);
}

/* ---- list ---- */

static void fmt_mean(const struct history_row *r, char *buf, size_t sz)
{
	if (!r->has_metric || isnan(r->mean))
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%.3f %s", r->mean, r->unit);
}

static int width(const struct history_rows *rows, size_t off, int min)
{
	int i, w = min, l;

	for (i = 0; i < rows->n; i++) {
		l = strlen(*(char **)((char *)&rows->row[i] + off));
		if (l > w)
			w = l;
	}
	return w;
}

#define WIDTH(rows, field, title) width(rows, offsetof(struct history_row, field), strlen(title))

/*
 * A release that ran as more than one build (a base and a patched kernel
 * of one version string): say so, naming the builds and their tags, so
 * that nobody reads two lines of one release as noise.
 */
static void note_builds(const struct history_rows *rows)
{
	int i, j, k, n;

	for (i = 0; i < rows->n; i++) {
		const struct history_row *r = &rows->row[i];

		for (j = 0; j < i && strcmp(rows->row[j].kernel, r->kernel); j++)
			;
		if (j < i)
			continue;	/* this release was noted already */
		for (n = 0, j = i; j < rows->n; j++) {
			if (strcmp(rows->row[j].kernel, r->kernel))
				continue;
			for (k = i; k < j && (strcmp(rows->row[k].kernel, r->kernel) ||
					      strcmp(rows->row[k].build, rows->row[j].build)); k++)
				;
			n += k == j;
		}
		if (n < 2)
			continue;
		printf("note: kernel %s ran as %d different builds:", r->kernel, n);
		for (j = i; j < rows->n; j++) {
			const struct history_row *b = &rows->row[j];

			if (strcmp(b->kernel, r->kernel))
				continue;
			for (k = i; k < j && (strcmp(rows->row[k].kernel, r->kernel) ||
					      strcmp(rows->row[k].build, b->build)); k++)
				;
			if (k == j)
				printf(" %s%s%s%s", *b->build ? b->build_short : "unrecorded",
				       *b->tag ? " (" : "", b->tag, *b->tag ? ")" : "");
		}
		printf("; each build is its own line\n");
	}
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* the configuration key as the object it is */
static json_t *key_json(const char *key)
{
	json_t *v = json_loads(key, 0, NULL);

	return v ? v : json_string(key);
}

/* one run as list --json gives it */
static json_t *row_json(const struct history_row *r)
{
	return json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:i, s:s, s:s, s:s, s:s?, s:s?, s:o, s:o, s:i, s:b}",
			 "id", (json_int_t)r->id, "kernel", r->kernel, "build", r->build_short,
			 "build_key", r->build, "tag", r->tag, "benchmark", r->benchmark,
			 "configuration", r->config, "config", key_json(r->config_key),
			 "producers", r->producers,
			 "machine", r->machine, "added", r->added, "source", r->source,
			 "metric", r->has_metric ? r->metric : NULL,
			 "unit", r->has_metric ? r->unit : NULL,
			 "mean", num_or_null(r->has_metric ? r->mean : NAN),
			 "stddev", num_or_null(r->has_metric ? r->stddev : NAN), "n", r->n,
			 "invalid", r->invalid);
}

static int list_json(const struct history_rows *rows)
{
	json_t *o = cli_json_new("history list"), *a = json_array();
	int i;

	for (i = 0; a && i < rows->n; i++)
		json_array_append_new(a, row_json(&rows->row[i]));
	if (!o || !a || json_object_set_new(o, "runs", a)) {
		json_decref(o);
		fprintf(stderr, "history list: failed to render the JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (cli_json_print(o)) {
		fprintf(stderr, "history list: failed to render the JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

/*
 * Nothing matched the selection: one line saying so, and, when runs are
 * stored, the configurations that are (benchmark and label, as --benchmark
 * and --config take them), so that a mistyped label can be corrected
 */
static void say_no_match(const char *who, const char *what)
{
	struct history_sel all = {};
	struct history_rows rows = {};
	struct history h;
	char *seen = NULL;
	size_t len = 0;
	FILE *f;
	int i, shown = 0;

	if (history_cli_open(&h, false))
		return;
	all.metric = NULL;
	if (history_query(&h, &all, &rows))
		rows.n = 0;
	history_close(&h);
	f = open_memstream(&seen, &len);
	for (i = 0; f && i < rows.n; i++) {
		const struct history_row *r = &rows.row[i];
		int j;

		for (j = 0; j < i && (strcmp(rows.row[j].benchmark, r->benchmark) ||
				      strcmp(rows.row[j].config, r->config)); j++)
			;
		if (j < i)
			continue;
		if (shown++ < 12)
			fprintf(f, "%s%s --config '%s'", shown > 1 ? "; " : "", r->benchmark, r->config);
	}
	if (f)
		fclose(f);
	fprintf(stderr, "%s: no run in %s matches%s%s%s%s\n", who, hcli.db, what,
		rows.n ? "; the configurations stored: " : " (the database holds no run)", rows.n && seen ? seen : "",
		shown > 12 ? "; ..." : "");
	free(seen);
	history_rows_free(&rows);
}

static int list_main(int argc, char **argv)
{
	struct history_rows rows;
	struct history h;
	char mean[64];
	int i, wk, wu, wt, wb, wc, wm, err;

	if (history_cli_parse("history list", &out_argp, "",
			      "List the stored runs, selected by benchmark, configuration, kernel, build, "
			      "tag and machine, with their first metric's (or --metric's) mean.", argc, argv))
		return BENCH_EXIT_BAD_INPUT;
	if (hcli.nfiles) {
		fprintf(stderr, "history list takes no files; extra argument '%s'\n", hcli.files[0]);
		return BENCH_EXIT_BAD_INPUT;
	}
	err = history_cli_open(&h, false);
	if (err)
		return bench_exit_status(err);
	err = history_query(&h, &hcli.sel, &rows);
	history_close(&h);
	if (err)
		return BENCH_EXIT_FAILED;
	if (hcli.json) {
		/* nothing matched: the refusal's JSON error object (cli_json.h), as show's */
		if (!rows.n) {
			say_no_match("history list", "");
			err = -EINVAL;
		} else {
			err = list_json(&rows);
		}
		history_rows_free(&rows);
		return bench_exit_status(err);
	}
	wk = WIDTH(&rows, kernel, "kernel");
	wu = WIDTH(&rows, build_short, "build");
	wt = WIDTH(&rows, tag, "tag");
	wb = WIDTH(&rows, benchmark, "benchmark");
	wc = WIDTH(&rows, config, "configuration");
	wm = WIDTH(&rows, machine, "machine");
	if (rows.n)
		printf("%4s  %-*s  %-*s  %-*s  %-*s  %-*s  %3s  %-*s  %-20s  %s\n", "id", wk,
		       "kernel", wu, "build", wt, "tag", wb, "benchmark", wc, "configuration", "p",
		       wm, "machine", "added", "metric: mean");
	for (i = 0; i < rows.n; i++) {
		const struct history_row *r = &rows.row[i];

		fmt_mean(r, mean, sizeof(mean));
		printf("%4lld  %-*s  %-*s  %-*s  %-*s  %-*s  %3d  %-*s  %-20s  %s: %s%s\n", r->id,
		       wk, r->kernel, wu, r->build_short, wt, *r->tag ? r->tag : "-", wb, r->benchmark,
		       wc, r->config, r->producers, wm, r->machine, r->added,
		       r->has_metric ? r->metric : "-", mean,
		       r->invalid ? " " HISTORY_INVALID_MARK " invalid run" : "");
	}
	note_builds(&rows);
	/* as show: a selection that matches nothing is bad input (README's table) */
	err = rows.n ? 0 : -EINVAL;
	if (!rows.n)
		say_no_match("history list", "");
	history_rows_free(&rows);
	return err ? BENCH_EXIT_BAD_INPUT : BENCH_EXIT_OK;
}

/* ---- show ---- */

int history_cli_select_trend(struct history_rows *rows)
{
	struct history h;
	const struct history_row *first = NULL;
	int i, kept = 0, err;

	err = history_cli_open(&h, false);
	if (err)
		return err;
	if (history_query(&h, &hcli.sel, rows)) {
		history_close(&h);
		return -EIO;
	}
	history_close(&h);
	/* runs without the metric have no point in its trend */
	for (i = 0; i < rows->n; i++) {
		struct history_row *r = &rows->row[i];

		if (!r->has_metric || isnan(r->mean))
			continue;
		if (!first) {
			first = r;
		} else if (strcmp(r->benchmark, first->benchmark) || strcmp(r->config_key, first->config_key)) {
			fprintf(stderr, "history: runs %lld (%s %s) and %lld (%s %s) are of different configurations: select one with --benchmark, --config or --like ID\n",
				first->id, first->benchmark, first->config, r->id, r->benchmark, r->config);
			goto refuse;
		} else if (strcmp(r->metric, first->metric)) {
			fprintf(stderr, "history: runs %lld and %lld lead with different metrics (%s, %s): choose one with --metric\n",
				first->id, r->id, first->metric, r->metric);
			goto refuse;
		}
		kept++;
	}
	if (!kept) {
		char what[128];

		snprintf(what, sizeof(what), "%s%s with a value", hcli.sel.metric ? " and has metric " : "",
			 hcli.sel.metric ? hcli.sel.metric : "");
		say_no_match("history", what);
		goto refuse;
	}
	history_rows_sort_kernels(rows);
	return 0;
refuse:
	/* the caller frees rows only after success */
	history_rows_free(rows);
	return -EINVAL;
}

/* the next group of rows: one kernel build on one machine, from *i on; 0 at the end */
int history_next_group(const struct history_rows *rows, int *i, struct history_group *g)
{
	const struct history_row *r;
	double *means;

	while (*i < rows->n && (!rows->row[*i].has_metric || isnan(rows->row[*i].mean)))
		(*i)++;
	if (*i >= rows->n)
		return 0;
	means = calloc(rows->n, sizeof(*means));
	if (!means) {
		fprintf(stderr, "history: failed to group the runs: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	memset(g, 0, sizeof(*g));
	g->first = &rows->row[*i];
	g->from = *i;
	for (; *i < rows->n; (*i)++) {
		r = &rows->row[*i];
		if (strcmp(r->kernel, g->first->kernel) || strcmp(r->build, g->first->build) ||
		    strcmp(r->machine, g->first->machine) || strcmp(r->tag, g->first->tag))
			break;
		if (r->has_metric && !isnan(r->mean))
			means[g->n++] = r->mean;
	}
	g->to = *i;
	stats_compute(means, g->n, &g->st);
	free(means);
	return 1;
}

/* a group's distinct tags, ","-joined, "-" when none */
static void group_tags(const struct history_rows *rows, const struct history_group *g,
		       char *buf, size_t sz)
{
	int j, k;

	buf[0] = '\0';
	for (j = g->from; j < g->to; j++) {
		const char *t = rows->row[j].tag;

		for (k = g->from; k < j && strcmp(rows->row[k].tag, t); k++)
			;
		if (!*t || k < j || strlen(buf) + strlen(t) + 2 > sz)
			continue;
		if (*buf)
			strcat(buf, ",");
		strcat(buf, t);
	}
	if (!*buf)
		snprintf(buf, sz, "-");
}

static int group_tags_width(const struct history_rows *rows)
{
	struct history_group g;
	char tags[128];
	int i = 0, w = 3;

	while (history_next_group(rows, &i, &g) > 0) {
		group_tags(rows, &g, tags, sizeof(tags));
		if ((int)strlen(tags) > w)
			w = strlen(tags);
	}
	return w;
}

/* the group's run ids, ","-joined, each invalid one marked */
static void group_ids(const struct history_rows *rows, const struct history_group *g,
		      char *buf, size_t sz)
{
	size_t n = 0;
	int j;

	buf[0] = '\0';
	for (j = g->from; j < g->to && n < sz; j++) {
		if (!rows->row[j].has_metric || isnan(rows->row[j].mean))
			continue;
		n += snprintf(buf + n, sz - n, "%s%lld%s", n ? "," : "", rows->row[j].id,
			      rows->row[j].invalid ? HISTORY_INVALID_MARK : "");
	}
}

static int group_ids_width(const struct history_rows *rows)
{
	struct history_group g;
	char ids[256];
	int i = 0, w = 7;

	while (history_next_group(rows, &i, &g) > 0) {
		group_ids(rows, &g, ids, sizeof(ids));
		if ((int)strlen(ids) > w)
			w = strlen(ids);
	}
	return w;
}

/* the base of a group's change: the first group of its machine, in kernel order */
static void machine_base(const struct history_rows *rows, const struct history_group *g,
			 struct history_group *b, bool *is_base)
{
	int i = 0;

	while (history_next_group(rows, &i, b) > 0)
		if (!strcmp(b->first->machine, g->first->machine)) {
			*is_base = b->from == g->from;
			return;
		}
	*b = *g;
	*is_base = true;
}

/*
 * g's row against its machine's base group, as bench compare prints it for
 * the same runs; v->kind VERDICT_NA for the base itself.  0, or a negative
 * errno after one line (a stored document refused, no memory).
 */
static int group_verdict(const struct history_rows *rows, const struct history_group *g,
			 struct compare_row *row, bool *is_base)
{
	struct history_group b;
	int err;

	machine_base(rows, g, &b, is_base);
	memset(row, 0, sizeof(*row));
	row->change_pct = row->lo_pct = row->hi_pct = row->p = row->v.detectable_pct = NAN;
	row->v.kind = VERDICT_NA;
	snprintf(row->v.text, sizeof(row->v.text), "%s", *is_base ? "base" : "n/a");
	row->verdict = row->v.text;
	if (*is_base)
		return 0;
	err = history_group_verdict(rows, &b, g, g->first->metric, row);
	if (err == -ENOENT) {
		/* compare has no row for it: neither side measured it */
		row->change_pct = row->lo_pct = row->hi_pct = row->p = NAN;
		return 0;
	}
	if (err == -ENOMEM)
		fprintf(stderr, "history show: failed to compare the runs: %s\n", strerror(ENOMEM));
	return err;
}

static json_t *interval_json(const struct compare_row *row)
{
	return json_pack("[o, o]", num_or_null(row->lo_pct), num_or_null(row->hi_pct));
}

/* did a run shown run under TCG? */
static bool any_emulated(const struct history_rows *rows)
{
	int i;

	for (i = 0; i < rows->n; i++)
		if (rows->row[i].emulated && rows->row[i].has_metric && !isnan(rows->row[i].mean))
			return true;
	return false;
}

/* "emulated timings: runs 3,4 ran under TCG; ...": the rows' timings are not hardware's */
static void note_emulated(const struct history_rows *rows)
{
	int i, k = 0;

	if (!any_emulated(rows))
		return;
	for (i = 0; i < rows->n; i++)
		k += rows->row[i].emulated && rows->row[i].has_metric && !isnan(rows->row[i].mean);
	printf("emulated timings: run%s", k > 1 ? "s " : " ");
	for (i = 0; i < rows->n; i++)
		if (rows->row[i].emulated && rows->row[i].has_metric && !isnan(rows->row[i].mean))
			printf("%lld%s", rows->row[i].id, --k ? "," : "");
	printf(" ran under TCG: %s\n", RESULT_EMULATED_NOTE);
}

static int show_json(const struct history_rows *rows)
{
	json_t *o = cli_json_new("history show"), *a = json_array(), *ids, *k;
	const struct history_row *f = NULL;
	struct history_group g;
	struct compare_row row;
	char tags[128];
	bool is_base;
	int i = 0, j, err;

	while (a && history_next_group(rows, &i, &g) > 0) {
		f = f ? f : g.first;
		err = group_verdict(rows, &g, &row, &is_base);
		if (err) {
			json_decref(o);
			json_decref(a);
			return err;
		}
		group_tags(rows, &g, tags, sizeof(tags));
		ids = json_array();
		for (j = g.from; j < g.to; j++)
			if (rows->row[j].has_metric && !isnan(rows->row[j].mean))
				json_array_append_new(ids, json_integer(rows->row[j].id));
		k = json_pack("{s:s, s:s, s:s, s:s, s:i, s:o, s:o, s:b, s:o, s:o}",
			"kernel", g.first->kernel, "build", g.first->build_short, "tags", tags,
			"machine", g.first->machine, "runs", g.n, "mean", num_or_null(g.st.mean),
			"stddev", num_or_null(g.n > 1 ? g.st.stddev : NAN), "base", is_base,
			"change_pct", num_or_null(row.change_pct), "run_ids", ids);
		/* compare's verdict of the same runs; null for the base itself */
		if (k && json_object_update_new(k, json_pack("{s:o, s:b, s:o, s:o, s:o, s:o, s:o}",
				"ci95_pct", interval_json(&row),
				"ci95_unbounded", isinf(row.lo_pct) || isinf(row.hi_pct),
				"p", num_or_null(row.p),
				"verdict", is_base ? json_null() : json_string(verdict_kind_name(row.v.kind)),
				"verdict_text", is_base ? json_null() : json_string(row.v.text),
				"reason", verdict_reason_name(row.v.reason) ?
					  json_string(verdict_reason_name(row.v.reason)) : json_null(),
				"detectable_pct", num_or_null(row.v.detectable_pct))))
			k = NULL;
		json_array_append_new(a, k);
	}
	if (!o || !a || !f || json_object_update_new(o, json_pack("{s:s, s:s, s:o, s:i, s:s, s:s, s:b, s:o, s:b}",
			"benchmark", f->benchmark, "configuration", f->config,
			"config", key_json(f->config_key), "producers", f->producers, "metric", f->metric,
			"unit", f->unit, "higher_is_better", f->higher_is_better, "kernels", a,
			"emulated_timings", any_emulated(rows)))) {
		json_decref(o);
		fprintf(stderr, "history show: failed to render the JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (cli_json_print(o)) {
		fprintf(stderr, "history show: failed to render the JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

static int show_main(int argc, char **argv)
{
	struct history_rows rows;
	struct history_group g;
	struct compare_row row;
	const struct history_row *f;
	char sd[32], change[32], ci[48], tags[128], ids[256];
	int i = 0, wk, wu, wt, wm, wi, err;
	bool is_base;

	if (history_cli_parse("history show", &out_argp, "",
			      "The trend of one metric across kernels, as a table: per kernel release "
			      "(in version order), build (in the order first added) and machine, the "
			      "mean of its runs' means, their standard deviation, and the change "
			      "against the machine's first kernel build with its 95% interval and "
			      "verdict, as bench compare gives them for the same runs.  "
			      "The selection must be one benchmark and configuration.", argc, argv))
		return BENCH_EXIT_BAD_INPUT;
	if (hcli.nfiles) {
		fprintf(stderr, "history show takes no files; extra argument '%s'\n", hcli.files[0]);
		return BENCH_EXIT_BAD_INPUT;
	}
	err = history_cli_select_trend(&rows);
	if (err)
		return bench_exit_status(err);
	if (hcli.json) {
		err = show_json(&rows);
		history_rows_free(&rows);
		return bench_exit_status(err);
	}
	while (i < rows.n && (!rows.row[i].has_metric || isnan(rows.row[i].mean)))
		i++;
	f = &rows.row[i];
	wk = WIDTH(&rows, kernel, "kernel");
	wu = WIDTH(&rows, build_short, "build");
	wt = group_tags_width(&rows);
	wm = WIDTH(&rows, machine, "machine");
	wi = group_ids_width(&rows);
	printf("%s %s (%d producers): %s (%s, %s is better), mean of each kernel build's runs\n",
	       f->benchmark, f->config, f->producers, f->metric, f->unit,
	       f->higher_is_better ? "higher" : "lower");
	if (result_memory_meaning(f->metric))
		printf("%s is %s\n", f->metric, result_memory_meaning(f->metric));
	printf("%-*s  %-*s  %-*s  %-*s  %4s  %12s  %10s  %8s  %16s  %-*s  %s\n", wk, "kernel",
	       wu, "build", wt, "tag", wm, "machine", "runs", "mean", "stddev", "change", "95% CI",
	       wi, "run ids", "verdict");
	i = 0;
	while (history_next_group(&rows, &i, &g) > 0) {
		err = group_verdict(&rows, &g, &row, &is_base);
		if (err)
			break;
		snprintf(sd, sizeof(sd), g.n > 1 ? "%.3f" : "-", g.st.stddev);
		if (is_base)
			snprintf(change, sizeof(change), "base");
		else
			verdict_fmt_pct(row.change_pct, change, sizeof(change));
		verdict_fmt_interval(row.lo_pct, row.hi_pct, ci, sizeof(ci));
		group_tags(&rows, &g, tags, sizeof(tags));
		group_ids(&rows, &g, ids, sizeof(ids));
		printf("%-*s  %-*s  %-*s  %-*s  %4d  %12.3f  %10s  %8s  %16s  %-*s  %s\n",
		       wk, g.first->kernel, wu, g.first->build_short, wt, tags, wm, g.first->machine,
		       g.n, g.st.mean, sd, change, is_base ? "-" : ci, wi, ids,
		       is_base ? "-" : row.v.text);
	}
	if (err) {
		history_rows_free(&rows);
		return bench_exit_status(err);
	}
	for (i = 0; i < rows.n && !rows.row[i].invalid; i++)
		;
	if (i < rows.n)
		printf("%s: a run marked invalid (its producers were starved), added with --include-invalid\n",
		       HISTORY_INVALID_MARK);
	printf("change, 95%% CI, verdict: bench compare's of the runs against the machine's first build's (ratio of the means, Fieller's interval; docs/statistics-and-noise.md)\n");
	note_emulated(&rows);
	note_builds(&rows);
	history_rows_free(&rows);
	return BENCH_EXIT_OK;
}

int bench_history_main(int argc, char **argv)
{
	static const char *const commands[] = { "add", "list", "show" };

	if (argc >= 2 && !strcmp(argv[1], "add"))
		return add_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "list"))
		return list_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "show"))
		return show_main(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-?"))) {
		printf("Usage: bench history add [--db FILE] [--machine NAME] RUN.json...\n"
		       "       bench history list [--db FILE] [SELECTION]\n"
		       "       bench history show [--db FILE] [SELECTION] [--metric NAME]\n"
		       "SELECTION: --benchmark NAME --config LABEL --kernel RELEASE --machine TEXT --like ID\n"
		       "(bench history COMMAND --help for each; bench plot history draws show's trend)\n");
		return BENCH_EXIT_OK;
	}
	fprintf(stderr, "history needs a command first: '%s' is not one; ", argc < 2 ? "" : argv[1]);
	suggest_print(stderr, argc < 2 ? "" : argv[1], commands, sizeof(commands) / sizeof(commands[0]));
	fprintf(stderr, "accepted: add, list, show\n");
	return BENCH_EXIT_BAD_INPUT;
}
