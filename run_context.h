/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUN_CONTEXT_H
#define __RUN_CONTEXT_H

/*
 * Where a run ran (kernel, CPUs, JIT settings, versions) and what may have
 * disturbed it (noise probes, whose warnings go to stderr and to JSON).
 */
#include <jansson.h>

#include "run.h"

/* the "context" member of the JSON result */
json_t *run_context_json(const struct bench_run *run);

/*
 * Warn about what makes the measured samples unreliable: a spread above 5%,
 * delayed sample ticks, producers sharing CPUs, a cpufreq governor other
 * than performance.
 */
void run_check_noise(struct bench_run *run);

#endif /* __RUN_CONTEXT_H */
