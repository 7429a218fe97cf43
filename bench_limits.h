/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_LIMITS_H
#define __BENCH_LIMITS_H

/*
 * The limits of a run, defined once: the command line refuses beyond them
 * and the reader of result files (result_file.c) refuses a file that
 * claims a run beyond them.
 */

/* producer and consumer threads: keeps every per-thread array a fixed, checked size */
#define BENCH_MAX_THREADS 1024
/* -w, -d, and all repeats' seconds together: a day */
#define BENCH_MAX_SECONDS 86400
/*
 * a CPU number of --prod-affinity and --cons-affinity: one a cpu_set_t
 * holds (CPU_SETSIZE is sched.h's, under _GNU_SOURCE, where it is used)
 */
#define BENCH_MAX_CPU_NR (CPU_SETSIZE - 1)
/* --repeat */
#define BENCH_MAX_REPEAT 1000

/*
 * --min-cpu-share's default: the share of its measured time, in percent,
 * a producer must have run on a CPU for the run to count.  On an idle
 * machine a producer that never sleeps gets 98% or more; a CPU hog pinned
 * beside it takes about half (docs/statistics-and-noise.md, "Contention").
 */
#define RUN_MIN_CPU_SHARE_PCT 80
/*
 * A producer's share of a CPU as a result file may say it: 1, and a little
 * over where the clocks were read apart (the reader refuses above)
 */
#define RUN_MAX_CPU_SHARE 1.05
/* the warning of a run whose producers wait by design: valid below the share */
#define RUN_SLEEP_EXEMPT "wait by design, so the run stays valid"

/*
 * result files one subcommand reads (compare, plot, history, export;
 * results/cli_files.h): a 30-minute bench ab run writes about 600, which
 * its own files: line passes to compare
 */
#define BENCH_MAX_FILES 4096
/* --tag: bytes of the user's text */
#define BENCH_MAX_TAG 128

/* a limit in a string literal (argp's help) */
#define BENCH_STR(x) BENCH_STR_(x)
#define BENCH_STR_(x) #x

#endif /* __BENCH_LIMITS_H */
