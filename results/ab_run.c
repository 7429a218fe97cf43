// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab's shared state and small figures, below every other part of it
 * (ab.c, ab_cli.c, ab_invocation.c and ab_report.c use them): the options,
 * the signal that ended ab, a run's clock and a log ratio as a percent
 * (moved from ab.c unchanged).
 */
#define _GNU_SOURCE
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "ab_interleaved.h"
#include "bench.h"		/* ARRAY_SIZE() */
#include "bench_exit.h"
#include "cli_json.h"
#include "latency.h"
#include "output_file.h"
#include "result_config.h"
#include "result_file.h"
#include "sequential.h"
#include "stats.h"
#include "ab_run.h"

struct ab_opts aopts;

/* the first signal that ended ab, and how many came */
volatile sig_atomic_t ab_signal, ab_signals;

double ab_elapsed(const struct ab_run *r)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - r->start.tv_sec + (now.tv_nsec - r->start.tv_nsec) / 1e9;
}

void ab_fmt_time(double s, char *buf, size_t sz)
{
	long t = lround(s);

	if (t >= 3600)
		snprintf(buf, sz, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, sz, "%ldm%02lds", t / 60, t % 60);
}

/* a log ratio as a percent change */
double ab_pct(double log_ratio)
{
	return (exp(log_ratio) - 1) * 100;
}
