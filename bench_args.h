/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_ARGS_H
#define __BENCH_ARGS_H

#include <errno.h>
#include <stddef.h>

#include "bench.h"
#include "bench_exit.h"

/* the most benchmarks the table may hold */
#define BENCH_MAX_BENCHS 128

/*
 * Parse the runner's options and every benchmark family's (argp children),
 * refusing options that belong to another benchmark than the one named.
 * Fills env; *bench is NULL with --list.  Returns 0 or a negative errno
 * after one line on stderr.
 */
int bench_args_parse(int argc, char **argv, const struct bench *const *table, size_t n,
		     const struct bench **bench);

/* a subcommand, `bench NAME ...`: bench.c's table */
struct bench_command {
	const char *name;
	const char *desc;	/* one line, for --help */
	int (*main)(int argc, char **argv);
	/*
	 * the status of an output that could not be written (README's table):
	 * BENCH_EXIT_FAILED, or compare's BENCH_EXIT_COMPARE_TROUBLE; bench.c
	 * applies it, the command does not
	 */
	int out_failed;
};

/*
 * The subcommands, for --help, a bare `bench` and the names an unknown one
 * is measured against ("did you mean"); before bench_args_parse().
 */
void bench_args_commands(const struct bench_command *cmds, size_t n);
void bench_args_list(const struct bench *const *table, size_t n);
void bench_args_free(void);
/*
 * The exit status for a command line bench_args_parse() refused: 64
 * (EX_USAGE) for what argp refuses while parsing, 1 for what is refused
 * after it, as upstream's runner (README, "Exit status").
 */
int bench_args_error_status(void);

/*
 * How a benchmark family's argp parser refuses a bad value, the one way
 * every parser does it: one line on stderr, "invalid OPT 'ARG': expected
 * ACCEPTED", and the error to hand back to argp, which makes the runner
 * exit 64 as upstream's argp_usage() does:
 *
 *	if (parse_long(arg, 1, MAX_VALUE_SIZE, &v))
 *		return bench_args_bad_value("value size", arg, "an integer in 1..%d",
 *					    MAX_VALUE_SIZE);
 */
error_t bench_args_bad_value(const char *opt, const char *arg, const char *accepted_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the same for a message of another shape, or one a pure parser wrote */
error_t bench_args_refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* __BENCH_ARGS_H */
