/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __CLI_JSON_H
#define __CLI_JSON_H

/*
 * --json of bench's commands (compare, bench -l): one envelope for all,
 * {"schema": "bench-cli", "schema_version": 1, "command": "compare", ...}
 * (docs/results-and-json.md, "JSON of the commands"), printed compact on
 * one line on stdout.  Only writers: each command hands over the structs
 * it already prints (compare_eval()'s rows), so the statistics stay where
 * they are.
 */
#include <jansson.h>

#include "compare.h"

#define CLI_JSON_SCHEMA "bench-cli"
#define CLI_JSON_VERSION 1

/* a new envelope for command ("compare", "list"); NULL when out of memory */
json_t *cli_json_new(const char *command);

/* print it on stdout and drop the reference: 0, or -ENOMEM (not rendered) */
int cli_json_print(json_t *o);

/*
 * A refusal under --json, as data too: cli_json_errors_begin(), in main
 * before the command parses anything, keeps what goes to stderr (which
 * still gets every line); cli_json_errors_end(status), before stdout is
 * closed, prints
 *   {"schema": "bench-cli", ..., "command": ..., "error": "<the message>",
 *    "exit_status": status}
 * on stdout when status is not 0 and the command printed nothing there.
 * The message is stderr's last line other than argp's "Try `...' hint.
 */
int cli_json_errors_begin(const char *command);
void cli_json_errors_end(int status);

/* compare's rows as a JSON array (numbers null where NaN) */
json_t *cli_json_compare_rows(const struct compare_row *rows, int n);

#endif /* __CLI_JSON_H */
