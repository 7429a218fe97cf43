// SPDX-License-Identifier: GPL-2.0
/* --json of bench's commands: the envelope and compare's rows (cli_json.h) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_json.h"

json_t *cli_json_new(const char *command)
{
	return json_pack("{s:s, s:i, s:s}", "schema", CLI_JSON_SCHEMA, "schema_version",
			 CLI_JSON_VERSION, "command", command);
}

int cli_json_print(json_t *o)
{
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;

	json_decref(o);
	if (!s)
		return -ENOMEM;
	/* a failed write is seen, and said, once, by main (bench.c) */
	printf("%s\n", s);
	free(s);
	return 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cli_json_compare_rows(const struct compare_row *rows, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < n; i++) {
		const struct compare_row *r = &rows[i];

		if (json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o, s:[o, o], s:o, s:s, s:i, s:i, s:b, s:b}",
			"metric", r->name, "base", r->bs, "new", r->ns,
			"change_pct", num(r->measured ? r->change_pct : NAN),
			"ci95_pct", num(r->lo_pct), num(r->hi_pct),
			"p", num(r->p), "verdict", r->verdict ? r->verdict : "n/a",
			"n_base", r->na, "n_new", r->nb, "worse", r->worse != 0,
			"measured", r->measured))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
