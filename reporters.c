// SPDX-License-Identifier: GPL-2.0
/*
 * What most benchmarks share: the hits/drops metrics and their Iter and
 * Summary lines in upstream's format, per-producer counters on their own
 * cache lines, and the one-line "failed to ..." message of a failed step.
 */
#include <math.h>
#include <stdarg.h>

#include "bench.h"

static double m_hits(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / 1e6;
}

static double m_hits_per_prod(const struct bench_res *r)
{
	return m_hits(r) / env.producer_cnt;
}

static double m_drops(const struct bench_res *r)
{
	return rate_per_sec(r->drops, r->delta_ns) / 1e6;
}

const struct bench_metric hits_drops_metrics[] = {
	{ "hits", "M/s", true, m_hits },
	{ "hits_per_prod", "M/s", true, m_hits_per_prod },
	{ "drops", "M/s", false, m_drops },
	{},
};

static double m_total(const struct bench_res *r)
{
	return m_hits(r) + m_drops(r);
}

/*
 * Upstream's "total operations" (hits + drops), printed but not a JSON
 * metric: it is the sum of two that are, and adding it would make every
 * result saved before it lack a metric that compare requires on both sides.
 */
static const struct bench_metric total_metric = { "total", "M/s", true, m_total };

void bench_print_iter_prefix(int iter, long delta_ns)
{
	printf("Iter %3d (%7.3lfus): ", iter, (delta_ns - 1000000000) / 1000.0);
}

void hits_drops_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double hits = m_hits(res);

	bench_print_iter_prefix(iter, delta_ns);
	printf("hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, total operations %8.3lfM/s\n",
	       hits, hits / env.producer_cnt, m_drops(res), m_total(res));
}

void hits_drops_report_final(struct bench_res res[], int res_cnt)
{
	struct stats hits, drops, total;

	metric_stats(&hits_drops_metrics[0], res, res_cnt, &hits);
	metric_stats(&hits_drops_metrics[2], res, res_cnt, &drops);
	/* the spread of the per-sample totals, as upstream: not a sum of spreads */
	metric_stats(&total_metric, res, res_cnt, &total);
	printf("Summary: hits %8.3lf \u00B1 %5.3lfM/s (%7.3lfM/prod), ",
	       hits.mean, hits.stddev, hits.mean / env.producer_cnt);
	printf("drops %8.3lf \u00B1 %5.3lfM/s, ", drops.mean, drops.stddev);
	printf("total operations %8.3lf \u00B1 %5.3lfM/s\n", total.mean, total.stddev);
}

int bench_alloc_prod_counters(struct counter **out)
{
	struct counter *c;

	c = aligned_alloc(BENCH_CACHELINE, env.producer_cnt * sizeof(*c));
	if (!c) {
		fprintf(stderr, "failed to allocate per-producer counters: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	memset(c, 0, env.producer_cnt * sizeof(*c));
	*out = c;
	return 0;
}

long bench_collect_prod_counters(struct counter *c, struct bench_res *res)
{
	long sum = 0;
	int i;

	for (i = 0; i < env.producer_cnt; i++) {
		res->prod_hits[i] = atomic_swap(&c[i].value, 0);
		sum += res->prod_hits[i];
	}
	res->has_prod_hits = true;
	return sum;
}

int bench_failed(int err, const char *what_fmt, ...)
{
	va_list ap;

	fputs("failed to ", stderr);
	va_start(ap, what_fmt);
	vfprintf(stderr, what_fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(-err));
	return err;
}
