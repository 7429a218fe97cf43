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

/* bench_failed_into()'s buffer: set-up runs in one thread, producers in others */
static __thread char *failed_buf;
static __thread size_t failed_buf_sz;

void bench_failed_into(char *buf, size_t sz)
{
	failed_buf = buf;
	failed_buf_sz = buf ? sz : 0;
	if (buf && sz)
		buf[0] = '\0';
}

int bench_failed(int err, const char *what_fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, what_fmt);
	vsnprintf(what, sizeof(what), what_fmt, ap);
	va_end(ap);
	if (failed_buf)
		snprintf(failed_buf, failed_buf_sz, "failed to %s: %s", what, strerror(-err));
	else
		fprintf(stderr, "failed to %s: %s\n", what, strerror(-err));
	return err;
}

/*
 * Upstream's other reporters, for benchmarks written against its bench.h
 * and for ours that print its lines.  Rates are per measured interval, as
 * hits_drops_report_*() above; upstream divides by one second.
 */
static double m_important_hits(const struct bench_res *r)
{
	return rate_per_sec(r->important_hits, r->delta_ns) / 1e6;
}

static const struct bench_metric local_storage_metrics[] = {
	{ "hits", "M/s", true, m_hits },
	{ "important_hits", "M/s", true, m_important_hits },
};

/* false hits in percent of false hits, hits and drops: upstream counts a false hit twice */
static double false_hits_pct(long false_hits, long hits, long drops)
{
	long total = false_hits + hits + drops;

	return total ? 100.0 * false_hits / total : NAN;
}

void false_hits_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	bench_print_iter_prefix(iter, delta_ns);
	printf("%ld false hits of %ld total operations. Percentage = %2.2f %%\n",
	       res->false_hits, res->false_hits + res->hits + res->drops,
	       false_hits_pct(res->false_hits, res->hits, res->drops));
}

/* the Summary is the ratio of the sums, not a mean of the samples' ratios */
void false_hits_report_final(struct bench_res res[], int res_cnt)
{
	long hits = 0, drops = 0, false_hits = 0;
	int i;

	for (i = 0; i < res_cnt; i++) {
		hits += res[i].hits;
		drops += res[i].drops;
		false_hits += res[i].false_hits;
	}
	printf("Summary: %ld false hits of %ld total operations. ", false_hits,
	       false_hits + hits + drops);
	printf("Percentage =  %2.2f %%\n", false_hits_pct(false_hits, hits, drops));
}

void ops_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double hits = m_hits(res);

	bench_print_iter_prefix(iter, delta_ns);
	printf("hits %8.3lfM/s (%7.3lfM/prod)\n", hits, hits / env.producer_cnt);
}

void ops_report_final(struct bench_res res[], int res_cnt)
{
	struct stats hits;

	metric_stats(&hits_drops_metrics[0], res, res_cnt, &hits);
	printf("Summary: throughput %8.3lf \u00B1 %5.3lf M ops/s (%7.3lfM ops/prod), ",
	       hits.mean, hits.stddev, hits.mean / env.producer_cnt);
	printf("latency %8.3lf ns/op\n", 1000.0 / hits.mean * env.producer_cnt);
}

void local_storage_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	bench_print_iter_prefix(iter, delta_ns);
	printf("hits %8.3lfM/s ", m_hits(res));
	printf("important_hits %8.3lfM/s\n", m_important_hits(res));
}

void local_storage_report_final(struct bench_res res[], int res_cnt)
{
	struct stats hits, important;

	metric_stats(&local_storage_metrics[0], res, res_cnt, &hits);
	metric_stats(&local_storage_metrics[1], res, res_cnt, &important);
	printf("Summary: hits throughput %8.3lf \u00B1 %5.3lf M ops/s, ", hits.mean, hits.stddev);
	printf("hits latency %8.3lf ns/op, ", 1000.0 / hits.mean);
	printf("important_hits throughput %8.3lf \u00B1 %5.3lf M ops/s\n", important.mean,
	       important.stddev);
}

/* mean and sample standard deviation of one value per sample (0 and 0 for none) */
static void basic_stats_of(struct bench_res res[], int res_cnt, struct basic_stats *st,
			   double (*value)(const struct bench_res *r))
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < res_cnt; i++)
		sum += value(&res[i]);
	st->mean = res_cnt > 0 ? sum / res_cnt : 0;
	st->stddev = 0;
	if (res_cnt < 2)
		return;
	for (i = 0; i < res_cnt; i++)
		sq += (value(&res[i]) - st->mean) * (value(&res[i]) - st->mean);
	st->stddev = sqrt(sq / (res_cnt - 1));
}

/* us per grace period */
static double gp_latency_us(const struct bench_res *r)
{
	return r->gp_ns / 1000.0 / (double)r->gp_ct;
}

/* the kthread's ticks per grace period */
static double gp_ticks(const struct bench_res *r)
{
	return r->stime / (double)r->gp_ct;
}

void grace_period_latency_basic_stats(struct bench_res res[], int res_cnt,
				      struct basic_stats *gp_stat)
{
	basic_stats_of(res, res_cnt, gp_stat, gp_latency_us);
}

void grace_period_ticks_basic_stats(struct bench_res res[], int res_cnt,
				    struct basic_stats *gp_stat)
{
	basic_stats_of(res, res_cnt, gp_stat, gp_ticks);
}
