/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_ARGS_H
#define __BENCH_ARGS_H

#include <stddef.h>

#include "bench.h"

/* the most benchmarks the table may hold */
#define BENCH_MAX_BENCHS 64

/*
 * Parse the runner's options and every benchmark family's (argp children),
 * refusing options that belong to another benchmark than the one named.
 * Fills env; *bench is NULL with --list.  Returns 0 or a positive errno
 * after one line on stderr.
 */
int bench_args_parse(int argc, char **argv, const struct bench *const *table, size_t n,
		     const struct bench **bench);
void bench_args_list(const struct bench *const *table, size_t n);
void bench_args_free(void);
/* the exit status for a command line bench_args_parse() refused */
int bench_args_error_status(void);

#endif /* __BENCH_ARGS_H */
