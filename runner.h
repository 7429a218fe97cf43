/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_H
#define __RUNNER_H

#include "bench.h"

/*
 * Run one benchmark from option checks to clean-up: prerequisites,
 * set-up, threads, sampling, reports, JSON, teardown.  Returns the exit
 * status: 0, 1 for a failure, 128 + signal for a run a signal ended.
 */
int runner_run(const struct bench *bench);

#endif /* __RUNNER_H */
