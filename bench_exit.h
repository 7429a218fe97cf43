/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_EXIT_H
#define __BENCH_EXIT_H

#include <errno.h>

/*
 * README's "Exit status" table, the one place its numbers are defined
 * (tests/exit_status.t asserts each row): every command's main returns
 * one of these.
 */
enum bench_exit {
	BENCH_EXIT_OK = 0,
	/*
	 * The runner: it parses but cannot run, a set-up or a run failed, an
	 * output could not be written.  A subcommand: it failed (its output
	 * could not be built or written, an invocation failed); compare
	 * --fail-on-regression: a metric got worse (so compare's failures are
	 * BENCH_EXIT_COMPARE_TROUBLE).
	 */
	BENCH_EXIT_FAILED = 1,
	/*
	 * A subcommand: a bad option, value or file, a combination refused;
	 * argp's status for every subcommand (bench.c sets it once).
	 */
	BENCH_EXIT_BAD_INPUT = 2,
	/*
	 * compare: it could not compare (a bad option or file, out of memory,
	 * an output that could not be written), as diff's 2: its 1 is a
	 * regression's, so never a failure's
	 */
	BENCH_EXIT_COMPARE_TROUBLE = BENCH_EXIT_BAD_INPUT,
	/* the runner: the command line does not parse (EX_USAGE, as upstream's argp_usage()) */
	BENCH_EXIT_USAGE = 64,
	/* + N: signal N ended the run */
	BENCH_EXIT_SIGNAL = 128,
};

/*
 * A subcommand's exit status for its helpers' 0 or negative errno: -EINVAL
 * (bad input, refused after one line on stderr) is BENCH_EXIT_BAD_INPUT,
 * any other error (said on stderr as "failed to <verb> <object>: ...")
 * BENCH_EXIT_FAILED.
 */
static inline int bench_exit_status(int err)
{
	if (!err)
		return BENCH_EXIT_OK;
	return err == -EINVAL ? BENCH_EXIT_BAD_INPUT : BENCH_EXIT_FAILED;
}

#endif /* __BENCH_EXIT_H */
