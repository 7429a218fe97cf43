// SPDX-License-Identifier: GPL-2.0
/*
 * bench compare's default report: the before/after table a plain-text
 * patch mail or a terminal shows, within COMPARE_TEXT_WIDTH columns.  One
 * row per metric (before, after, the change with its 95% interval, the
 * verdict's word); metrics 0 on both sides in one line; each reason a
 * verdict gave once, naming its metrics; then the notes and warnings,
 * each file named once.  Only a writer: the rows are compare_eval()'s;
 * --verbose (compare_print()) keeps the p-values and each metric's test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result_config.h"
#include "result_file.h"

void compare_fmt_side(double mean, double sd, char *buf, size_t sz)
{
	int dec = 3;

	if (isnan(mean)) {
		snprintf(buf, sz, "-");
		return;
	}
	if (fabs(mean) >= 1)
		dec = 3 - (int)floor(log10(fabs(mean)));
	dec = dec < 0 ? 0 : dec > 3 ? 3 : dec;
	if (isnan(sd))
		snprintf(buf, sz, "%.*f", dec, mean);
	else
		snprintf(buf, sz, "%.*f ± %.*f", dec, mean, dec, sd);
}

/* columns a terminal gives s: UTF-8 continuation bytes take none */
static int cols(const char *s, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len && s[i]; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

void compare_put_wrapped(FILE *out, const char *text, int width, int indent)
{
	const char *p = text, *brk, *q;
	int room = width;

	while (cols(p, strlen(p)) > room) {
		/* the last space that leaves the line within room, else the first */
		brk = NULL;
		for (q = p; *q; q++) {
			if (*q != ' ')
				continue;
			if (cols(p, q - p) <= room || !brk)
				brk = q;
			if (cols(p, q - p) > room)
				break;
		}
		if (!brk)
			break;
		fprintf(out, "%.*s\n%*s", (int)(brk - p), p, indent, "");
		p = brk + 1;
		room = width - indent;
	}
	fprintf(out, "%s\n", p);
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* one row's cells as the table prints them */
struct text_row {
	const struct compare_row *r;
	char name[112], before[80], after[80], change[80];
};

/* a side's figure: the verdict's mean (a median with --rank) and spread, marked when invalid */
static void side_cell(double mean, double sd, bool median, int invalid, char *buf, size_t sz)
{
	size_t n;

	compare_fmt_side(mean, median ? NAN : sd, buf, sz);
	n = strlen(buf);
	if (invalid)
		snprintf(buf + n, sz - n, " %s", COMPARE_INVALID_MARK);
}

static void fill_cells(const struct compare_row *r, struct text_row *t)
{
	char ch[32], ci[48];

	t->r = r;
	snprintf(t->name, sizeof(t->name), "%s %s", r->metric, r->unit);
	side_cell(r->base, r->base_sd, r->median, r->base_invalid, t->before, sizeof(t->before));
	side_cell(r->new, r->new_sd, r->median, r->new_invalid, t->after, sizeof(t->after));
	verdict_fmt_pct(r->change_pct, ch, sizeof(ch));
	verdict_fmt_interval(r->lo_pct, r->hi_pct, ci, sizeof(ci));
	if (isnan(r->change_pct))
		snprintf(t->change, sizeof(t->change), "-");
	else
		snprintf(t->change, sizeof(t->change), "%s %s", ch, ci);
}

/* every value 0 on both sides (drops, failures): one line for them all, not a row each */
static bool all_zero(const struct compare_row *r)
{
	return r->measured && r->base == 0 && r->new == 0 &&
	       !(r->base_sd > 0) && !(r->new_sd > 0);
}

/* a row the table prints: measured, and not 0 on both sides */
static bool in_table(const struct compare_row *r)
{
	return r->measured && !all_zero(r);
}

/* "%-*s" of s in w columns, a "±" one column */
static void put_cell(FILE *out, const char *s, int w, bool right)
{
	int pad = w - cols(s, strlen(s));

	pad = pad < 0 ? 0 : pad;
	fprintf(out, "%*s%s%*s", right ? pad : 0, "", s, right ? 0 : pad, "");
}

struct widths {
	int name, before, after, change, verdict;
	int gap[4];	/* the spaces after name, before, after, change */
};

/*
 * The columns' widths: each its widest cell, 2 spaces between them, 1
 * where 2 would not fit (first after the change and after the name, which
 * their padding sets apart); a name too long for what is left goes on a
 * line of its own (the overflow a long metric name causes)
 */
static void table_widths(const struct text_row *t, int n, struct widths *w)
{
	static const int shrink[] = { 3, 0, 2, 1 };
	int i, rest;

	*w = (struct widths){ 6, 6, 5, 15, 7, { 2, 2, 2, 2 } };
	for (i = 0; i < n; i++) {
		w->name = imax(w->name, cols(t[i].name, sizeof(t[i].name)));
		w->before = imax(w->before, cols(t[i].before, sizeof(t[i].before)));
		w->after = imax(w->after, cols(t[i].after, sizeof(t[i].after)));
		w->change = imax(w->change, cols(t[i].change, sizeof(t[i].change)));
		w->verdict = imax(w->verdict, cols(t[i].r->v.word, sizeof(t[i].r->v.word)));
	}
	rest = w->before + w->after + w->change + w->verdict + 8;
	for (i = 0; i < 4 && w->name + rest > COMPARE_TEXT_WIDTH; i++) {
		w->gap[shrink[i]] = 1;
		rest--;
	}
	if (w->name + rest > COMPARE_TEXT_WIDTH)
		w->name = imax(6, COMPARE_TEXT_WIDTH - rest);
}

static void put_row(FILE *out, const struct widths *w, const char *name, const char *before,
		    const char *after, const char *change, const char *verdict)
{
	if (cols(name, strlen(name)) > w->name) {
		fprintf(out, "%s\n", name);
		name = "";
	}
	put_cell(out, name, w->name, false);
	fprintf(out, "%*s", w->gap[0], "");
	put_cell(out, before, w->before, true);
	fprintf(out, "%*s", w->gap[1], "");
	put_cell(out, after, w->after, true);
	fprintf(out, "%*s", w->gap[2], "");
	put_cell(out, change, w->change, false);
	fprintf(out, "%*s%s\n", w->gap[3], "", verdict);
}

/* "htab-mem overwrite: 2 + 2 runs, each run's mean one observation" */
static void put_heading(FILE *out, const struct compare_params *prm,
			const struct compare_side *sa, const struct compare_side *sb,
			enum compare_unit unit)
{
	char label[256], line[512];
	const char *how;

	result_config_label(sa->rf[0].doc, label, sizeof(label));
	switch (unit) {
	case COMPARE_UNIT_FILE:
		how = "runs, each run's mean one observation";
		break;
	case COMPARE_UNIT_PAIR:
		how = "runs in pairs (base i with new i)";
		break;
	case COMPARE_UNIT_REPEAT:
		how = "runs; each repeat's mean one observation";
		break;
	default:
		how = "runs; per-second samples (within-run noise only)";
	}
	snprintf(line, sizeof(line), "%s%s%s: %d + %d %s%s", sa->rf[0].benchmark, *label ? " " : "",
		 label, sa->n, sb->n, how, prm->rank ? "; before, after: medians" : "");
	compare_put_wrapped(out, line, COMPARE_TEXT_WIDTH, 2);
}

/* the metrics 0 on both sides, in one line */
static void put_zero_line(FILE *out, const struct compare_row *rows, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, k = 0;

	if (!f)
		return;
	for (i = 0; i < n; i++)
		if (all_zero(&rows[i]))
			fprintf(f, "%s%s", k++ ? ", " : "0 on both sides: ", rows[i].name);
	fclose(f);
	if (k)
		compare_put_wrapped(out, buf, COMPARE_TEXT_WIDTH, 2);
	free(buf);
}

/*
 * What the verdict column's word leaves out, once per reason: "memory,
 * peak_memory: undecided: below the 0.5 MiB resolution"
 */
static void put_reasons(FILE *out, const struct compare_row *rows, int n)
{
	bool few = false;
	char *buf;
	size_t len;
	FILE *f;
	int i, j, k;

	for (i = 0; i < n; i++) {
		if (!rows[i].v.why[0] && rows[i].measured)
			continue;
		for (j = 0; j < i; j++)
			if ((rows[j].v.why[0] || !rows[j].measured) &&
			    !strcmp(rows[j].verdict, rows[i].verdict))
				break;
		if (j < i)
			continue;	/* said with the first row of that reason */
		buf = NULL;
		len = 0;
		f = open_memstream(&buf, &len);
		if (!f)
			return;
		for (j = i, k = 0; j < n; j++)
			if ((rows[j].v.why[0] || !rows[j].measured) &&
			    !strcmp(rows[j].verdict, rows[i].verdict))
				fprintf(f, "%s%s", k++ ? ", " : "", rows[j].metric);
		fprintf(f, ": %s", rows[i].verdict);
		fclose(f);
		compare_put_wrapped(out, buf, COMPARE_TEXT_WIDTH, 2);
		free(buf);
		few |= rows[i].v.kind == VERDICT_UNDECIDED && rows[i].v.reason == VERDICT_R_FEW;
	}
	if (few)
		fprintf(out, "More runs decide smaller changes: bench ab, or --repeat N.\n");
}

/* every line of text (notes and warnings) wrapped to the table's width */
static void put_notes(FILE *out, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		compare_put_wrapped(out, line, COMPARE_TEXT_WIDTH, 2);
}

/* the table of rows and what follows it, onto out */
static int put_table(FILE *out, const struct compare_row *rows, int n)
{
	struct text_row *t = calloc(n + 1, sizeof(*t));
	struct widths w;
	int i, k = 0;

	if (!t) {
		fprintf(stderr, "failed to allocate the compare table: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (in_table(&rows[i]))
			fill_cells(&rows[i], &t[k++]);
	table_widths(t, k, &w);
	if (k)
		put_row(out, &w, "metric", "before", "after", "change [95% CI]", "verdict");
	for (i = 0; i < k; i++)
		put_row(out, &w, t[i].name, t[i].before, t[i].after, t[i].change, t[i].r->v.word);
	free(t);
	put_zero_line(out, rows, n);
	put_reasons(out, rows, n);
	return 0;
}

int compare_print_table(const struct compare_params *prm, const struct compare_side *sa,
			const struct compare_side *sb, int *worse)
{
	struct compare_row *rows = NULL;
	char *notes = NULL;
	size_t notes_len = 0;
	FILE *nf = open_memstream(&notes, &notes_len);
	enum compare_unit unit;
	int n = 0, i, err;

	if (!nf) {
		fprintf(stderr, "failed to allocate the compare notes: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = compare_eval(prm, sa, sb, nf, &rows, &n, &unit);
	if (!err && !n) {
		fprintf(stderr, "compare: %s and %s share no metric\n", sa->rf[0].path,
			sb->rf[0].path);
		err = -EINVAL;
	}
	if (!err) {
		compare_note_runs(nf, sa, sb);
		compare_invalid_legend(nf, sa, sb);
	}
	fclose(nf);
	if (!err) {
		put_heading(stdout, prm, sa, sb, unit);
		err = put_table(stdout, rows, n);
	}
	if (!err) {
		put_notes(stdout, notes);
		printf("--verbose: p-values, each metric's test, the resolutions, the verdict rule.\n");
		*worse = 0;
		for (i = 0; i < n; i++)
			*worse |= rows[i].worse;
	}
	free(notes);
	free(rows);
	return err;
}
