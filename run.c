// SPDX-License-Identifier: GPL-2.0
/*
 * What a run keeps beside its samples (run.h): the warnings it printed
 * and the extra metrics a benchmark handed over, for the reporting code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

void run_warn(struct bench_run *run, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	fprintf(stderr, "warning: %s\n", msg);
	if (run->warning_cnt < RUN_MAX_WARNINGS)
		run->warnings[run->warning_cnt++] = msg;
	else
		free(msg);
}

void run_notes_free(struct bench_run *run)
{
	int i;

	for (i = 0; i < run->warning_cnt; i++)
		free(run->warnings[i]);
	run->warning_cnt = 0;
	for (i = 0; i < run->extra_cnt; i++) {
		free(run->extras[i].name);
		free(run->extras[i].values);
	}
	run->extra_cnt = 0;
}

int run_add_extra_metric(struct bench_run *run, const char *name, const char *unit, bool higher_is_better,
			   const double *values, int n)
{
	struct run_extra_metric *e;
	double *v;
	int i;

	/* a name added again takes its new values (a metric built up repeat by repeat) */
	for (i = 0; i < run->extra_cnt && strcmp(run->extras[i].name, name); i++)
		;
	if (i == RUN_MAX_EXTRA_METRICS)
		return -E2BIG;
	e = &run->extras[i];
	v = malloc((n ? n : 1) * sizeof(*values));
	if (!v)
		return -ENOMEM;
	if (i == run->extra_cnt) {
		e->name = strdup(name);
		if (!e->name) {
			free(v);
			return -ENOMEM;
		}
		run->extra_cnt++;
	}
	memcpy(v, values, n * sizeof(*values));
	free(e->values);
	e->values = v;
	e->n = n;
	e->unit = unit;
	e->higher_is_better = higher_is_better;
	return 0;
}
