// SPDX-License-Identifier: GPL-2.0
/*
 * A metric's statistics over samples: the one place its values are
 * gathered (metric_values()), and the functions the reporters, the JSON
 * writer and the noise checks share, so a figure on screen and the same
 * figure in a result file are computed alike.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

double *metric_values(const struct bench_metric *m, const struct bench_res res[], int res_cnt)
{
	double *v = calloc(res_cnt + 1, sizeof(*v));
	int i;

	for (i = 0; v && i < res_cnt; i++)
		v[i] = m->value(&res[i]);
	return v;
}

void metric_stats(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct stats *st)
{
	double *v = metric_values(m, res, res_cnt);

	if (!v) {
		memset(st, 0, sizeof(*st));
		st->mean = NAN;
		return;
	}
	stats_compute(v, res_cnt, st);
	free(v);
}

int metric_robust(const struct bench_metric *m, struct bench_res res[], int res_cnt,
		  struct robust *r, struct outlier **outl)
{
	double *v = metric_values(m, res, res_cnt);
	int err;

	*outl = calloc(res_cnt ? res_cnt : 1, sizeof(**outl));
	if (!v || !*outl) {
		free(v);
		free(*outl);
		*outl = NULL;
		return -ENOMEM;
	}
	err = stats_robust(v, res_cnt, r, *outl, res_cnt);
	free(v);
	return err;
}

int metric_two_level(const struct bench_metric *m, const struct bench_res res[],
		     int repeat_cnt, int repeat_len, struct two_level *tl, double *means)
{
	double *v = metric_values(m, res, repeat_cnt * repeat_len);
	int *counts = calloc(repeat_cnt + 1, sizeof(*counts));
	int r;

	if (!v || !counts) {
		free(v);
		free(counts);
		return -ENOMEM;
	}
	for (r = 0; r < repeat_cnt; r++)
		counts[r] = repeat_len;
	stats_two_level(v, counts, repeat_cnt, tl, means);
	free(v);
	free(counts);
	return 0;
}

/*
 * One --stats line: the robust summaries and every value outside Tukey's
 * fences, named by its JSON sample index (first_sample + its position;
 * first_sample < 0: by its position among the metric's own values).
 */
void robust_print(FILE *f, const char *name, const char *unit, const struct robust *r,
		  const struct outlier *o, int first_sample)
{
	int i;

	if (!r->n) {
		fprintf(f, "Stats: %s n/a (no value)\n", name);
		return;
	}
	fprintf(f, "Stats: %s (%s, %d values): median %.3f, min %.3f, max %.3f, p90 %.3f, p99 %.3f, MAD %.3f, IQR %.3f; Tukey's fences %.3f .. %.3f: ",
		name, unit, r->n, r->median, r->min, r->max, r->p90, r->p99, r->mad, r->iqr,
		r->low_fence, r->high_fence);
	if (!r->outliers)
		fprintf(f, "none outside\n");
	else
		fprintf(f, "%d outside (flagged, not dropped):", r->outliers);
	for (i = 0; i < r->outliers; i++) {
		char far[48];

		if (isinf(o[i].iqrs))
			snprintf(far, sizeof(far), "IQR 0");
		else
			snprintf(far, sizeof(far), "%.1f IQR %s %s", o[i].iqrs,
				 o[i].high ? "above" : "below", o[i].high ? "Q3" : "Q1");
		fprintf(f, "%s %s %d %.3f (%.3f %s the fence, %s)", i ? "," : "",
			first_sample >= 0 ? "sample" : "value",
			first_sample >= 0 ? first_sample + o[i].index : o[i].index, o[i].value,
			o[i].beyond, o[i].high ? "above" : "below", far);
	}
	if (r->outliers)
		fprintf(f, "\n");
}
