// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>

#include "cli_files.h"

int cli_take(const char **v, int *n, const char *cmd, const char *what, const char *arg)
{
	if (*n >= BENCH_MAX_FILES) {
		fprintf(stderr, "%s takes at most %d %s; extra argument '%s'\n",
			cmd, BENCH_MAX_FILES, what, arg);
		return -E2BIG;
	}
	v[(*n)++] = arg;
	return 0;
}
