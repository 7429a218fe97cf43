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

static void put_change(FILE *f, const struct compare_row *r)
{
	if (!r || !r->measured || isnan(r->change_pct)) {
		fprintf(f, " - |");
		return;
	}
	fprintf(f, " %+.2f%%", fabs(r->change_pct) < 0.005 ? 0.0 : r->change_pct);
	if (!isnan(r->lo_pct) && !isnan(r->hi_pct))
		fprintf(f, " [%+.2f, %+.2f]%%", r->lo_pct, r->hi_pct);
	fprintf(f, " (%s) |", r->verdict);
}

/* each run's noise warnings, on stderr, naming the row and the file */
static void note_warnings(const struct compare_side *sd, const char *label)
{
	int i, j;

	for (i = 0; i < sd->n; i++)
		for (j = 0; j < sd->rf[i].nwarnings; j++)
			fprintf(stderr, "warning: row %s %s, %s run %s: %s\n", sd->rf[i].benchmark, label,
				sd->which, sd->rf[i].path, sd->rf[i].warnings[j]);
}

/* one configuration's row; 0, or -EINVAL after compare's refusal on stderr */
static int md_row(const struct compare_params *prm, const struct compare_side *sa,
		  const struct compare_side *sb, int *worse_any)
{
	const struct compare_row *rate, *mem, *peak;
	struct compare_row *rows = NULL;
	enum compare_unit unit;
	char label[256];
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
	printf("| %s %s | %s | %s | %s |", sa->rf[0].benchmark, label, rate ? rate->name : "-",
	       rate ? rate->bs : "-", rate ? rate->ns : "-");
	put_change(stdout, rate);
	printf(" %s | %s | %s | %s | %d / %d %s |\n", mem ? mem->bs : "-", mem ? mem->ns : "-",
	       peak ? peak->bs : "-", peak ? peak->ns : "-", sa->n, sb->n, compare_unit_name(unit));
	for (i = 0; i < n; i++)
		*worse_any |= rows[i].worse;
	free(rows);
	note_warnings(sa, label);
	note_warnings(sb, label);
	return 0;
}

int compare_markdown(const struct compare_params *prm, const struct compare_side *sa,
		     const struct compare_side *sb, int *worse_any)
{
	struct compare_side ga = {}, gb = {};
	json_t *first = sa->rf[0].doc;
	char ka[256], kb[256], *key, *seen = NULL;
	int i, j, err = 0, rows = 0;
	long long pmin = 0, pmax = 0;
	char prod[64];
	size_t seen_len = 0;
	FILE *seen_f = open_memstream(&seen, &seen_len);

	if (!seen_f)
		return md_nomem();
	kernel_name(first, ka, sizeof(ka));
	kernel_name(sb->rf[0].doc, kb, sizeof(kb));
	for (i = 0; i < sa->n; i++) {
		json_t *p = json_object_get(json_object_get(json_object_get(sa->rf[i].doc, "options"),
							    "runner"), "producers");

		pmin = i && pmin < json_integer_value(p) ? pmin : json_integer_value(p);
		pmax = i && pmax > json_integer_value(p) ? pmax : json_integer_value(p);
	}
	snprintf(prod, sizeof(prod), pmin == pmax ? "%lld" : "%lld..%lld", pmin, pmax);
	printf("Kernel: %s -> %s; -p%s; %d CPUs (%s)\n\n", ka, kb, prod,
	       (int)json_integer_value(json_object_get(json_object_get(first, "context"),
						       "nr_online_cpus")),
	       json_string_value(json_object_get(json_object_get(first, "context"), "cpu_model")) ?: "?");
	printf("| configuration | rate | before | after | change [95%% CI] (verdict) | memory before (MiB) | memory after (MiB) | peak before (MiB) | peak after (MiB) | runs before / after |\n");
	printf("|---|---|---:|---:|---|---:|---:|---:|---:|---|\n");
	/* one row per configuration of the base side, in the order first given */
	for (i = 0; i < sa->n && !err; i++) {
		key = result_config_key(sa->rf[i].doc);
		if (!key) {
			err = md_nomem();
			break;
		}
		fflush(seen_f);
		j = seen && strstr(seen, key) != NULL;
		if (!j) {
			fprintf(seen_f, "%s\n", key);
			err = subside(sa, &sa->rf[i], &ga) ?: subside(sb, &sa->rf[i], &gb);
			if (!err && !gb.n)
				fprintf(stderr, "compare: %s %s: no new run of this configuration: left out of the table\n",
					sa->rf[i].benchmark, (result_config_label(sa->rf[i].doc, ka, sizeof(ka)), ka));
			else if (!err)
				err = md_row(prm, &ga, &gb, worse_any);
			rows += !err && gb.n;
			free(ga.rf);
			free(gb.rf);
			ga.rf = gb.rf = NULL;
		}
		free(key);
	}
	fclose(seen_f);
	free(seen);
	if (!err && !rows) {
		fprintf(stderr, "compare: no configuration has runs on both sides\n");
		err = -EINVAL;
	}
	if (!err)
		compare_invalid_legend(stdout, sa, sb);
	if (!err)
		printf("\nrate: the benchmark's first metric (per configuration), mean ± stddev of the runs (or of their repeats or samples, as the last column says); change: of the mean, with its 95%% interval and compare's verdict; memory: the per-second average; peak: the run's peak.\n");
	return err;
}
