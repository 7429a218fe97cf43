/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __CLI_FILES_H
#define __CLI_FILES_H

/*
 * The result files (or labels) a subcommand collects from its command
 * line: one limit, BENCH_MAX_FILES, and one refusal for every command.
 */
#include "bench_limits.h"

/*
 * cli_take - append arg to v[*n], the command's list of what (e.g. "result
 * files"); 0, or -E2BIG after one line on stderr naming the command, the
 * limit and the argument refused, when BENCH_MAX_FILES are taken already
 */
int cli_take(const char **v, int *n, const char *cmd, const char *what, const char *arg);

#endif /* __CLI_FILES_H */
