// SPDX-License-Identifier: GPL-2.0
/*
 * bench compare --markdown: two sets of runs as the before/after table a
 * patch mail shows (allocator series post this layout): per
 * configuration, the rate before and after, its change with the 95%
 * interval, the memory (average and peak) before and after.  Only a
 * writer: the rows are compare_eval()'s, whatever statistics it uses;
 * the header line names the kernels, -p and the CPUs; refusals and
 * warnings go to stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_md.h"
#include "result_config.h"
#include "result_file.h"
#include "result_label.h"

/* the table's one line for running out of memory (compare_eval() says its own) */
static int md_nomem(void)
{
	fprintf(stderr, "failed to build the markdown table: %s\n", strerror(ENOMEM));
	return -ENOMEM;
}

/* the files of side whose benchmark and configuration key are those of rf */
static int subside(const struct compare_side *side, const struct result_file *rf,
		   struct compare_side *out)
{
	char *key = result_config_key(rf->doc), *k;
	int i;

	out->which = side->which;
	out->n = 0;
	out->rf = calloc(side->n, sizeof(*out->rf));
	if (!key || !out->rf) {
		free(key);
		return md_nomem();
	}
	for (i = 0; i < side->n; i++) {
		k = result_config_key(side->rf[i].doc);
		if (k && !strcmp(k, key) && !strcmp(side->rf[i].benchmark, rf->benchmark))
			out->rf[out->n++] = side->rf[i];	/* shallow: side owns them */
		free(k);
	}
	free(key);
	return 0;
}

/* "6.18.44 a3e4cd60a8ec (base)" */
static void kernel_name(json_t *doc, char *buf, size_t sz)
{
	const char *rel = json_string_value(json_object_get(json_object_get(doc, "context"),
							    "kernel_release"));
	const char *tag = result_tag(doc);
	char build[512], shortb[32];

	result_kernel_build(doc, build, sizeof(build));
	result_build_short(build, shortb, sizeof(shortb));
	snprintf(buf, sz, "%s%s%s%s%s%s", rel ? rel : "?", *build ? " build " : "",
		 *build ? shortb : "", tag ? " (" : "", tag ? tag : "", tag ? ")" : "");
}

static const struct compare_row *find_row(const struct compare_row *rows, int n, const char *prefix)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strncmp(rows[i].name, prefix, strlen(prefix)) &&
		    (rows[i].name[strlen(prefix)] == ' ' || !rows[i].name[strlen(prefix)]))
			return &rows[i];
	return NULL;
}

/* "0.555 → 0.863": a memory row's two means, or "-" */
static void fmt_move(const struct compare_row *r, char *buf, size_t sz)
{
	char a[32], b[32];

	if (!r || !r->measured) {
		snprintf(buf, sz, "-");
		return;
	}
	compare_fmt_side(r->base, NAN, a, sizeof(a));
	compare_fmt_side(r->new, NAN, b, sizeof(b));
	snprintf(buf, sz, "%s → %s", a, b);
}

static void put_change(FILE *f, const struct compare_row *r)
{
	char ch[32], ci[48];

	if (!r || !r->measured || isnan(r->change_pct)) {
		fprintf(f, " - | %s |", r ? r->v.word : "-");
		return;
	}
	verdict_fmt_pct(r->change_pct, ch, sizeof(ch));
	verdict_fmt_interval(r->lo_pct, r->hi_pct, ci, sizeof(ci));
	fprintf(f, " %s %s | %s%s |", ch, ci, r->v.word,
		r->v.kind == VERDICT_UNDECIDED || r->v.below_threshold ? "*" : "");
}

/* each run's noise warnings, on stderr: one line per file, naming it once */
static void note_warnings(const struct compare_side *sd)
{
	int i;

	for (i = 0; i < sd->n; i++)
		compare_note_noisy(stderr, &sd->rf[i], sd->which);
}

/* what the rows share: the header says it once */
struct md_state {
	int *worse_any;
	bool one_bench;		/* every file of one benchmark: the header names it */
	char rate[96];		/* the first row's rate metric: a row with another names its own */
};

/* one configuration's row; 0, or -EINVAL after compare's refusal on stderr */
static int md_row(const struct compare_params *prm, const struct compare_side *sa,
		  const struct compare_side *sb, FILE *out, FILE *notes, struct md_state *st)
{
	const struct compare_row *rate, *mem, *peak;
	struct compare_row *rows = NULL;
	enum compare_unit unit;
	char label[256], bs[64], ns[64], mm[96], pm[96];
	int n, err, i;

	err = compare_eval(prm, sa, sb, stderr, &rows, &n, &unit);
	if (err) {
		free(rows);
		return err;
	}
	result_config_label(sa->rf[0].doc, label, sizeof(label));
	rate = n ? &rows[0] : NULL;
	mem = find_row(rows, n, "memory");
	peak = find_row(rows, n, "peak_memory");
	compare_fmt_side(rate ? rate->base : NAN, rate ? rate->base_sd : NAN, bs, sizeof(bs));
	compare_fmt_side(rate ? rate->new : NAN, rate ? rate->new_sd : NAN, ns, sizeof(ns));
	fmt_move(mem, mm, sizeof(mm));
	fmt_move(peak, pm, sizeof(pm));
	if (rate && !st->rate[0])
		snprintf(st->rate, sizeof(st->rate), "%s", rate->name);
	fprintf(out, "| %s%s%s%s%s | %s | %s |", st->one_bench ? "" : sa->rf[0].benchmark,
		st->one_bench ? "" : " ", label, rate && strcmp(rate->name, st->rate) ? ", " : "",
		rate && strcmp(rate->name, st->rate) ? rate->name : "", bs, ns);
	put_change(out, rate);
	fprintf(out, " %s | %s | %d/%d |\n", mm, pm, sa->n, sb->n);
	if (rate && (rate->v.kind == VERDICT_UNDECIDED || rate->v.below_threshold)) {
		char line[512];

		snprintf(line, sizeof(line), "\\* %s %s: %s%s", sa->rf[0].benchmark, label,
			 rate->v.text, rate->v.kind == VERDICT_UNDECIDED ?
			 "; `bench ab` or --repeat N resolve smaller changes" : "");
		compare_put_wrapped(notes, line, COMPARE_MD_WIDTH, 0);
	}
	for (i = 0; i < n; i++)
		*st->worse_any |= rows[i].worse;
	free(rows);
	note_warnings(sa);
	note_warnings(sb);
	return 0;
}

/* does every file of side have the configuration of its first? */
static bool one_config(const struct compare_side *side)
{
	char *key = result_config_key(side->rf[0].doc), *k;
	bool one = key != NULL;
	int i;

	for (i = 1; one && i < side->n; i++) {
		k = result_config_key(side->rf[i].doc);
		one = k && !strcmp(k, key) && !strcmp(side->rf[i].benchmark, side->rf[0].benchmark);
		free(k);
	}
	free(key);
	return one;
}

/* are all the files of one benchmark? */
static bool one_benchmark(const struct compare_side *sa, const struct compare_side *sb)
{
	int i;

	for (i = 0; i < sa->n; i++)
		if (strcmp(sa->rf[i].benchmark, sa->rf[0].benchmark))
			return false;
	for (i = 0; i < sb->n; i++)
		if (strcmp(sb->rf[i].benchmark, sa->rf[0].benchmark))
			return false;
	return true;
}

/* the rows: one per configuration of the base side, in the order first given */
static int md_rows(const struct compare_params *prm, const struct compare_side *sa,
		   const struct compare_side *sb, FILE *out, FILE *notes, struct md_state *st)
{
	struct compare_side ga = {}, gb = {};
	char label[256], *key, *seen = NULL;
	size_t seen_len = 0;
	FILE *seen_f;
	int i, err = 0, rows = 0;

	/* --force: one configuration a side, whatever sets them apart, is one row */
	if (prm->force && one_config(sa) && one_config(sb)) {
		err = md_row(prm, sa, sb, out, notes, st);
		return err ? err : 1;
	}
	seen_f = open_memstream(&seen, &seen_len);
	if (!seen_f)
		return md_nomem();
	for (i = 0; i < sa->n && !err; i++) {
		key = result_config_key(sa->rf[i].doc);
		if (!key) {
			err = md_nomem();
			break;
		}
		fflush(seen_f);
		if (!(seen && strstr(seen, key))) {
			fprintf(seen_f, "%s\n", key);
			err = subside(sa, &sa->rf[i], &ga) ?: subside(sb, &sa->rf[i], &gb);
			if (!err && !gb.n)
				fprintf(stderr, "compare: %s %s: no new run of this configuration: left out of the table%s\n",
					sa->rf[i].benchmark,
					(result_config_label(sa->rf[i].doc, label, sizeof(label)), label),
					prm->force ? "" : " (--force compares a side of one configuration with the other's)");
			else if (!err)
				err = md_row(prm, &ga, &gb, out, notes, st);
			rows += !err && gb.n;
			free(ga.rf);
			free(gb.rf);
			ga.rf = gb.rf = NULL;
		}
		free(key);
	}
	fclose(seen_f);
	free(seen);
	return err ? err : rows;
}

int compare_markdown(const struct compare_params *prm, const struct compare_side *sa,
		     const struct compare_side *sb, int *worse_any)
{
	json_t *first = sa->rf[0].doc;
	char ka[256], kb[256], prod[64], line[1024], *table = NULL, *notes = NULL;
	struct md_state st = { .worse_any = worse_any };
	bool emulated;
	size_t table_len = 0, notes_len = 0;
	FILE *tf = open_memstream(&table, &table_len), *nf = open_memstream(&notes, &notes_len);
	long long pmin = 0, pmax = 0;
	int i, rows, err = 0;

	if (!tf || !nf) {
		if (tf)
			fclose(tf);
		if (nf)
			fclose(nf);
		free(table);
		free(notes);
		return md_nomem();
	}
	/* the table goes out whole or not at all: rows first into memory */
	st.one_bench = one_benchmark(sa, sb);
	rows = md_rows(prm, sa, sb, tf, nf, &st);
	fclose(tf);
	fclose(nf);
	if (rows == 0) {
		fprintf(stderr, "compare: no configuration has runs on both sides\n");
		err = -EINVAL;
	} else if (rows < 0) {
		err = rows;
	}
	if (err)
		goto out;
	kernel_name(first, ka, sizeof(ka));
	kernel_name(sb->rf[0].doc, kb, sizeof(kb));
	for (i = 0; i < sa->n; i++) {
		json_t *p = json_object_get(json_object_get(json_object_get(sa->rf[i].doc, "options"),
							    "runner"), "producers");

		pmin = i && pmin < json_integer_value(p) ? pmin : json_integer_value(p);
		pmax = i && pmax > json_integer_value(p) ? pmax : json_integer_value(p);
	}
	snprintf(prod, sizeof(prod), pmin == pmax ? "%lld" : "%lld..%lld", pmin, pmax);
	emulated = compare_side_emulated(sa) || compare_side_emulated(sb);
	snprintf(line, sizeof(line), "Kernel: %s -> %s; %s%s-p%s; %d CPUs (%s)%s", ka, kb,
		 st.one_bench ? sa->rf[0].benchmark : "", st.one_bench ? " " : "", prod,
		 (int)json_integer_value(json_object_get(json_object_get(first, "context"),
							 "nr_online_cpus")),
		 json_string_value(json_object_get(json_object_get(first, "context"), "cpu_model")) ?: "?",
		 emulated ? "; **emulated timings (TCG)**" : "");
	compare_put_wrapped(stdout, line, COMPARE_MD_WIDTH, 0);
	printf("\n| configuration | before | after | change [95%% CI] | verdict | memory (MiB) | peak (MiB) | runs |\n");
	printf("|---|---:|---:|---|---|---:|---:|---|\n");
	fputs(table, stdout);
	compare_invalid_legend(stdout, sa, sb);
	snprintf(line, sizeof(line), "before, after: the rate, %s (the first metric; a row of another benchmark names its own), mean ± stddev of the runs' means (or of their repeats or samples with fewer files); change: the ratio of those means with its 95%% interval (Fieller's); verdict: better/worse only when the interval leaves out 0, within ±%g%% only when it lies inside, \\* see below; memory: the per-second average, before → after; peak: the run's peak, before → after; runs: base/new.",
		 st.rate, prm->threshold_pct);
	printf("\n");
	compare_put_wrapped(stdout, line, COMPARE_MD_WIDTH, 0);
	if (notes_len)
		printf("\n%s", notes);
	if (emulated) {
		snprintf(line, sizeof(line), "Emulated timings: runs under TCG. %s.", RESULT_EMULATED_NOTE);
		printf("\n");
		compare_put_wrapped(stdout, line, COMPARE_MD_WIDTH, 0);
	}
out:
	free(table);
	free(notes);
	return err;
}
