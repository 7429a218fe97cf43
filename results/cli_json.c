// SPDX-License-Identifier: GPL-2.0
/* --json of bench's commands: the envelope and compare's rows (cli_json.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_json.h"
#include "output_file.h"

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

/* what stderr received, its last ERR_KEEP bytes: the message is its last line */
#define ERR_KEEP 4096
static struct {
	const char *command;
	char text[ERR_KEEP + 1];
	size_t len;
} err_log;

static ssize_t stderr_write(void *cookie, const char *buf, size_t len)
{
	size_t keep = len < ERR_KEEP ? len : ERR_KEEP, done = 0;
	ssize_t w;

	if (err_log.len + keep > ERR_KEEP) {
		size_t drop = err_log.len + keep - ERR_KEEP;

		memmove(err_log.text, err_log.text + drop, err_log.len - drop);
		err_log.len -= drop;
	}
	memcpy(err_log.text + err_log.len, buf + len - keep, keep);
	err_log.len += keep;
	while (done < len) {
		w = write(STDERR_FILENO, buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			/* a closed stderr: the line is still kept for the JSON */
			break;
		done += w;
	}
	return len;
}

int cli_json_errors_begin(const char *command)
{
	cookie_io_functions_t io = { .write = stderr_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return -errno;
	/* unbuffered, as stderr is: lines keep their order with children's */
	setvbuf(f, NULL, _IONBF, 0);
	fflush(stderr);
	err_log.command = command;
	stderr = f;
	return 0;
}

/*
 * stderr's last line that says something: argp's hint ("Try `bench plot
 * --help' or ..." and the line it may wrap onto) ends the text when present
 */
static const char *last_message(void)
{
	char *end = err_log.text + err_log.len, *start, *hint;

	*end = '\0';
	for (hint = err_log.text; (hint = strstr(hint, "Try `")); hint++)
		if (hint == err_log.text || hint[-1] == '\n')
			end = hint;
	while (end > err_log.text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	*end = '\0';
	for (start = end; start > err_log.text && start[-1] != '\n'; start--)
		;
	return *start ? start : "failed (no message)";
}

void cli_json_errors_end(int status)
{
	json_t *o;

	if (!err_log.command || !status || output_stdout_used())
		return;
	o = cli_json_new(err_log.command);
	if (o && !json_object_set_new(o, "error", json_string(last_message())) &&
	    !json_object_set_new(o, "exit_status", json_integer(status)))
		cli_json_print(o);
	else
		json_decref(o);
	err_log.command = NULL;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* a side of a row: its estimate, the spread beside it and its observations */
static json_t *side_json(double mean, double sd, int n, bool median)
{
	return json_pack("{s:o, s:o, s:i, s:s}", "mean", num(mean), "spread", num(sd), "n", n,
			 "estimate", median ? "median" : "mean");
}

json_t *cli_json_compare_rows(const struct compare_row *rows, int n)
{
	json_t *a = json_array(), *o;
	int i;

	for (i = 0; a && i < n; i++) {
		const struct compare_row *r = &rows[i];
		const char *reason = verdict_reason_name(r->v.reason);

		o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:[o, o], s:b, s:o}",
			"metric", r->metric, "unit", r->unit,
			"base", side_json(r->base, r->base_sd, r->na, r->median),
			"new", side_json(r->new, r->new_sd, r->nb, r->median),
			"change_pct", num(r->measured ? r->change_pct : NAN),
			"ci95_pct", num(r->lo_pct), num(r->hi_pct),
			"ci95_unbounded", isinf(r->lo_pct) || isinf(r->hi_pct), "p", num(r->p));
		if (o && json_object_update_new(o, json_pack("{s:s, s:s, s:s?, s:o, s:b, s:o, s:b, s:b}",
			"verdict", r->measured ? verdict_kind_name(r->v.kind) : "n/a",
			"verdict_text", r->verdict ? r->verdict : "n/a", "reason", reason,
			"detectable_pct", num(r->v.detectable_pct),
			"below_threshold", r->v.below_threshold,
			"resolution", num(r->resolution > 0 ? r->resolution : NAN),
			"worse", r->worse != 0, "measured", r->measured)))
			o = (json_decref(o), NULL);
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
