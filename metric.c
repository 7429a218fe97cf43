// SPDX-License-Identifier: GPL-2.0
/*
 * A metric's statistics over samples: the one function the reporters, the
 * JSON writer and the noise checks share, so a figure on screen and the
 * same figure in a result file are computed alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void metric_stats(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct stats *st)
{
	double *v = calloc(res_cnt ? res_cnt : 1, sizeof(*v));
	int i;

	if (!v) {
		memset(st, 0, sizeof(*st));
		st->mean = NAN;
		return;
	}
	for (i = 0; i < res_cnt; i++)
		v[i] = m->value(&res[i]);
	stats_compute(v, res_cnt, st);
	free(v);
}
