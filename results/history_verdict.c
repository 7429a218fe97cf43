// SPDX-License-Identifier: GPL-2.0
/*
 * history show's change, interval and verdict of a kernel build against
 * its machine's first: bench compare's own rows (compare_eval) on the
 * stored documents of the two groups' runs, so that show and compare of
 * the same runs never disagree (one unit of replication, one rule,
 * results/verdict.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "history.h"
#include "history_cli.h"
#include "result_file.h"

/* the runs of g with a value, loaded from the database as compare's history:DB:ID */
static int load_group(const struct history_rows *rows, const struct history_group *g,
		      const char *which, struct compare_side *sd)
{
	char spec[PATH_MAX + 32], msg[512];
	int j, err;

	sd->which = which;
	sd->n = 0;
	sd->rf = calloc(g->to - g->from, sizeof(*sd->rf));
	if (!sd->rf)
		return -ENOMEM;
	for (j = g->from; j < g->to; j++) {
		if (!rows->row[j].has_metric || isnan(rows->row[j].mean))
			continue;
		snprintf(spec, sizeof(spec), "history:%s:%lld", hcli.db, rows->row[j].id);
		err = history_load_result(spec, &sd->rf[sd->n], msg, sizeof(msg));
		if (err) {
			if (*msg)
				fprintf(stderr, "history show: %s\n", msg);
			return err;
		}
		sd->n++;
	}
	return 0;
}

static void free_group(struct compare_side *sd)
{
	int i;

	for (i = 0; i < sd->n; i++)
		result_file_free(&sd->rf[i]);
	free(sd->rf);
}

int history_group_verdict(const struct history_rows *rows, const struct history_group *base,
			  const struct history_group *g, const char *metric,
			  struct compare_row *out)
{
	/* compare's defaults; the history keeps what add kept, invalid runs marked */
	struct compare_params prm = { .verb = "history show", .threshold_pct = 2.0,
				      .include_invalid = true };
	struct compare_side sa = {}, sb = {};
	struct compare_row *cr = NULL;
	enum compare_unit unit;
	int err, i, n = 0;
	FILE *notes;

	memset(out, 0, sizeof(*out));
	err = load_group(rows, base, "base", &sa);
	if (!err)
		err = load_group(rows, g, "new", &sb);
	/* compare's notes and warnings are about files: show has its own lines */
	notes = err ? NULL : fopen("/dev/null", "w");
	if (!err && !notes)
		err = -errno;
	if (!err)
		err = compare_eval(&prm, &sa, &sb, notes, &cr, &n, &unit);
	if (notes)
		fclose(notes);
	for (i = 0; !err && i < n && strcmp(cr[i].metric, metric); i++)
		;
	if (!err && i == n)
		err = -ENOENT;
	if (!err) {
		*out = cr[i];
		out->verdict = out->v.text;
	}
	free(cr);
	free_group(&sa);
	free_group(&sb);
	return err;
}
