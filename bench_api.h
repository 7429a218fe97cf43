/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_API_H
#define __BENCH_API_H

/*
 * The runner's side of struct bench's two kinds of hooks: ours (ext),
 * which return 0 or a negative errno, and upstream's, which return nothing
 * and exit(1) on failure.  Each call below takes ours where the benchmark
 * set it, else upstream's.
 */
#include "bench.h"

int bench_call_validate(const struct bench *b);
int bench_call_setup(const struct bench *b);
int bench_call_measure(const struct bench *b, struct bench_res *res);
int bench_call_report_final(const struct bench *b, struct bench_res res[], int res_cnt);

/*
 * A benchmark written in upstream's style declares nothing of ours: no
 * hook of ext, no needs, caps or metrics.  The runner then gives it what
 * upstream's runner gives every benchmark (tracefs for its tracepoint
 * programs) and what ours gives every run (a memory cgroup of its own,
 * the hits/drops metrics in JSON), and leaves its stdout as upstream's.
 */
bool bench_upstream_style(const struct bench *b);

/*
 * A benchmark built in from upstream's sources (make UPSTREAM_BENCHS=DIR,
 * scripts/upstream-table.sh): its file's argp for one of upstream's older
 * style that names none, and the file, for --list.
 */
struct bench_added {
	const struct bench *bench;
	const struct argp *argp;
	const char *file;
};

/* ours, then the added ones, each replacing ours of its name: the count */
size_t bench_table_build(const struct bench *const *ours, size_t n, const struct bench **out,
			 size_t room);
/* b, or for an upstream-style b a copy with those defaults; sets `bench` */
const struct bench *bench_effective(const struct bench *b);

/*
 * What the run set up outside the process (its cgroups, its mounts) is
 * released by release(), called exactly once: by the runner at the end,
 * or by exit() when a hook of upstream's style exits first.
 */
void bench_release_at_exit(void (*release)(void));
void bench_release_now(void);

#endif /* __BENCH_API_H */
