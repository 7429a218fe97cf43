// SPDX-License-Identifier: GPL-2.0
/*
 * bench import's reading half: upstream's runner's text and patch mails'
 * tables into figures under our metrics' names, and those figures into a
 * result document that says where they came from and what they lack.
 *
 * The lines are matched against the printf formats of upstream's
 * reporters (bench.c: hits_drops_, ops_, local_storage_report_*;
 * benchs/bench_htab_mem.c) and of its wrapper scripts' summaries
 * (run_bench_htab_mem.sh's "per-prod-op : ..." rows), each matched in
 * full: a line that starts like one of them and does not end like it is
 * bad input, never half read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "result_json.h"
#include "stats.h"
#include "results/import.h"

const struct import_metric_def import_metrics[IM_NR] = {
	[IM_HITS] = { "hits", "M/s", true, 0.001 },
	[IM_HITS_PER_PROD] = { "hits_per_prod", "M/s", true, 0.001 },
	[IM_DROPS] = { "drops", "M/s", false, 0.001 },
	[IM_TOTAL] = { "total", "M/s", true, 0.001 },
	[IM_IMPORTANT_HITS] = { "important_hits", "M/s", true, 0.001 },
	[IM_PER_PROD_OP] = { "per_prod_op", "k/s", true, 0.01 },
	[IM_MEMORY] = { "memory", "MiB", false, 0.01 },
};

int import_metric_index(const char *name)
{
	int i;

	for (i = 0; i < IM_NR; i++)
		if (!strcmp(import_metrics[i].name, name))
			return i;
	return -1;
}

struct reader {
	const char *name;
	int lineno;
	const char *line;
	char *err;
	size_t errsz;
};

static int __attribute__((format(printf, 2, 3))) bad(struct reader *rd, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = snprintf(rd->err, rd->errsz, "%s: line %d: ", rd->name, rd->lineno);
	if (n < rd->errsz) {
		va_start(ap, fmt);
		vsnprintf(rd->err + n, rd->errsz - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* nothing but blanks from p on */
static bool at_end(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return !*p;
}

/*
 * sscanf() a whole line (or what follows an Iter prefix): true when every
 * conversion took a finite number and nothing but blanks is left.  The
 * format ends in %n, its last pointer argument.
 */
static bool __attribute__((format(scanf, 3, 4)))
whole(const char *s, int nconv, const char *fmt, ...)
{
	double *d[8];
	int got, *end = NULL, i;
	va_list ap;

	va_start(ap, fmt);
	for (i = 0; i < nconv && i < 8; i++)
		d[i] = va_arg(ap, double *);
	end = va_arg(ap, int *);
	va_end(ap);
	*end = -1;
	switch (nconv) {
	case 1:
		got = sscanf(s, fmt, d[0], end);
		break;
	case 2:
		got = sscanf(s, fmt, d[0], d[1], end);
		break;
	case 3:
		got = sscanf(s, fmt, d[0], d[1], d[2], end);
		break;
	case 4:
		got = sscanf(s, fmt, d[0], d[1], d[2], d[3], end);
		break;
	case 5:
		got = sscanf(s, fmt, d[0], d[1], d[2], d[3], d[4], end);
		break;
	case 6:
		got = sscanf(s, fmt, d[0], d[1], d[2], d[3], d[4], d[5], end);
		break;
	default:
		return false;
	}
	if (got != nconv || *end < 0 || !at_end(s + *end))
		return false;
	for (i = 0; i < nconv; i++)
		if (!isfinite(*d[i]))
			return false;
	return true;
}

/* the part of an Iter line after "Iter N (Xus): ", one reporter's format each */
static bool iter_body(const char *s, double *v)
{
	double a, b, c, d;
	int n;

	/* hits_drops_report_progress(), with and without upstream's later total */
	if (whole(s, 4, "hits %lfM/s (%lfM/prod), drops %lfM/s, total operations %lfM/s%n",
		  &a, &b, &c, &d, &n)) {
		v[IM_HITS] = a, v[IM_HITS_PER_PROD] = b, v[IM_DROPS] = c, v[IM_TOTAL] = d;
		return true;
	}
	if (whole(s, 3, "hits %lfM/s (%lfM/prod), drops %lfM/s%n", &a, &b, &c, &n)) {
		v[IM_HITS] = a, v[IM_HITS_PER_PROD] = b, v[IM_DROPS] = c;
		return true;
	}
	/* ops_report_progress() */
	if (whole(s, 2, "hits %lfM/s (%lfM/prod)%n", &a, &b, &n)) {
		v[IM_HITS] = a, v[IM_HITS_PER_PROD] = b;
		return true;
	}
	/* local_storage_report_progress() */
	if (whole(s, 2, "hits %lfM/s important_hits %lfM/s%n", &a, &b, &n)) {
		v[IM_HITS] = a, v[IM_IMPORTANT_HITS] = b;
		return true;
	}
	/* htab-mem's */
	if (whole(s, 2, "per-prod-op %lfk/s, memory usage %lfMiB%n", &a, &b, &n)) {
		v[IM_PER_PROD_OP] = a, v[IM_MEMORY] = b;
		return true;
	}
	return false;
}

static void set_sum(struct import_summary *s, double mean, double sd)
{
	s->has = s->has_spread = true;
	s->mean = mean;
	s->stddev = sd;
}

/* a Summary line, one reporter's format each */
static bool summary_line(const char *s, struct import_log *log)
{
	struct import_summary *m = log->sum;
	double a, b, c, d, e;
	int n;

	if (whole(s, 5, "Summary: hits %lf ± %lfM/s (%lfM/prod), drops %lf ± %lfM/s%n",
		  &a, &b, &c, &d, &e, &n)) {
		set_sum(&m[IM_HITS], a, b);
		set_sum(&m[IM_DROPS], d, e);
		m[IM_HITS_PER_PROD].has = true;
		m[IM_HITS_PER_PROD].mean = c;
		return true;
	}
	if (whole(s, 4, "Summary: throughput %lf ± %lf M ops/s (%lfM ops/prod), latency %lf ns/op%n",
		  &a, &b, &c, &d, &n)) {
		set_sum(&m[IM_HITS], a, b);
		m[IM_HITS_PER_PROD].has = true;
		m[IM_HITS_PER_PROD].mean = c;
		return true;
	}
	if (whole(s, 5, "Summary: hits throughput %lf ± %lf M ops/s, hits latency %lf ns/op, important_hits throughput %lf ± %lf M ops/s%n",
		  &a, &b, &c, &d, &e, &n)) {
		set_sum(&m[IM_HITS], a, b);
		set_sum(&m[IM_IMPORTANT_HITS], d, e);
		return true;
	}
	if (whole(s, 5, "Summary: per-prod-op %lf ± %lfk/s, memory usage %lf ± %lfMiB, peak memory usage %lfMiB%n",
		  &a, &b, &c, &d, &e, &n)) {
		set_sum(&m[IM_PER_PROD_OP], a, b);
		set_sum(&m[IM_MEMORY], c, d);
		log->peak_mib = e;
		return true;
	}
	return false;
}

/* hits_drops_report_final() with upstream's total operations: seven numbers */
static bool summary_total(const char *s, struct import_log *log)
{
	static const char tail[] = ", total operations ";
	const char *t = strstr(s, tail);
	char head[512];
	double a, b;
	int n;

	if (!t || (size_t)(t - s) >= sizeof(head))
		return false;
	memcpy(head, s, t - s);
	head[t - s] = '\0';
	if (!summary_line(head, log) || !log->sum[IM_DROPS].has)
		return false;
	if (!whole(t + strlen(tail), 2, "%lf ± %lfM/s%n", &a, &b, &n))
		return false;
	set_sum(&log->sum[IM_TOTAL], a, b);
	return true;
}

static int add_sample(struct reader *rd, struct import_log *log, int iter, double us,
		      const double *v)
{
	struct import_sample *s;
	int i;

	if (iter != log->nsamples)
		return bad(rd, "Iter %d, but %d Iter lines came before it: not one run's output",
			   iter, log->nsamples);
	if (1e9 + us * 1000.0 < 1)
		return bad(rd, "an interval of %.3f us off one second: not an interval", us);
	s = realloc(log->samples, (log->nsamples + 1) * sizeof(*s));
	if (!s) {
		snprintf(rd->err, rd->errsz, "failed to read %s: %s", rd->name, strerror(ENOMEM));
		return -ENOMEM;
	}
	log->samples = s;
	s += log->nsamples++;
	s->iter = iter;
	s->interval_ns = llround(1e9 + us * 1000.0);
	for (i = 0; i < IM_NR; i++)
		s->v[i] = v[i];
	return 0;
}

/* one line of upstream's runner's output */
static int text_line(struct reader *rd, const char *s, struct import_log *log)
{
	double v[IM_NR], us;
	char name[64];
	int iter, n = -1, i;

	if (sscanf(s, "Setting up benchmark '%63[^']'...%n", name, &n) == 1 && n > 0 &&
	    at_end(s + n)) {
		if (log->bench[0])
			return bad(rd, "a second \"Setting up benchmark\" ('%s' after '%s'): import takes one run's output",
				   name, log->bench);
		snprintf(log->bench, sizeof(log->bench), "%s", name);
		return 0;
	}
	if (sscanf(s, "Benchmark '%63[^']' started.%n", name, &n) == 1 && n > 0 && at_end(s + n)) {
		if (log->bench[0] && strcmp(name, log->bench))
			return bad(rd, "benchmark '%s' started, but '%s' was set up", name,
				   log->bench);
		return 0;
	}
	if (!strncmp(s, "Iter ", 5)) {
		if (log->summary_line)
			return bad(rd, "an Iter line after the Summary (line %d): import takes one run's output",
				   log->summary_line);
		n = -1;
		if (sscanf(s, "Iter %d (%lfus): %n", &iter, &us, &n) != 2 || n < 0 ||
		    !isfinite(us) || iter < 0)
			return bad(rd, "not an Iter line of upstream's: '%s'", s);
		for (i = 0; i < IM_NR; i++)
			v[i] = NAN;
		if (!iter_body(s + n, v))
			return bad(rd, "an Iter line in no reporter's format import knows: '%s'", s);
		return add_sample(rd, log, iter, us, v);
	}
	if (!strncmp(s, "Summary:", 8)) {
		if (log->summary_line)
			return bad(rd, "a second Summary line (the first at line %d): import takes one run's output",
				   log->summary_line);
		if (!summary_total(s, log) && !summary_line(s, log))
			return bad(rd, "a Summary line in no reporter's format import knows, or with a value that is not a finite number: '%s'",
				   s);
		log->summary_line = rd->lineno;
		return 0;
	}
	/* upstream's other lines (a benchmark's own, libbpf's) carry nothing of ours */
	return 0;
}

/* a mail's quoting ("> ", ">> ") taken off */
static const char *unquote(const char *s)
{
	while (*s == '>' || (*s == ' ' && s[1] == '>'))
		s += *s == ' ' ? 1 : 1 + (s[1] == ' ');
	return s;
}

/*
 * run_bench_htab_mem.sh's row: "NAME  per-prod-op : X ± Yk/s, avg mem:
 * A ± BMiB, peak mem: ZMiB".  1 for a row, 0 for a line that is none, -1
 * for a row's start whose figures are not a row's.
 */
static int mail_row(const char *s, char *name, struct import_log *row)
{
	double a, b, c, d, e;
	int n = -1;
	char nm[64];

	if (sscanf(s, "%63s per-prod-op :%n", nm, &n) != 1 || n < 0)
		return 0;
	if (!whole(s + n, 5, " %lf ± %lfk/s, avg mem: %lf ± %lfMiB, peak mem: %lfMiB%n",
		   &a, &b, &c, &d, &e, &n))
		return -1;
	strcpy(name, nm);
	set_sum(&row->sum[IM_PER_PROD_OP], a, b);
	set_sum(&row->sum[IM_MEMORY], c, d);
	row->peak_mib = e;
	return 1;
}

static int mail_line(struct reader *rd, const char *s, const struct import_pick *pick,
		     struct import_log *log, int *rows, int *first)
{
	struct import_log row = { .peak_mib = NAN };
	char name[64];

	s = unquote(s);
	while (*s == ' ' || *s == '\t')
		s++;
	switch (mail_row(s, name, &row)) {
	case 0:
		return 0;
	case -1:
		/* a row's start with a bad figure is bad input, not prose */
		return bad(rd, "a table row whose figures are not \"X ± Yk/s, avg mem: A ± BMiB, peak mem: ZMiB\" (finite numbers): '%s'",
			   s);
	}
	if ((pick->line && pick->line != rd->lineno) || (pick->row && strcmp(pick->row, name)))
		return 0;
	if (!*rows)
		*first = rd->lineno;
	if ((*rows)++)
		return 0;
	memcpy(log->sum, row.sum, sizeof(log->sum));
	log->peak_mib = row.peak_mib;
	snprintf(log->row, sizeof(log->row), "%s", name);
	log->row_line = rd->lineno;
	return 0;
}

/* does the text look like upstream's runner's output? */
static bool is_runner_text(const char *text)
{
	const char *p = text;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "Iter ", 5) || !strncmp(p, "Summary:", 8) ||
		    !strncmp(p, "Setting up benchmark '", 22))
			return true;
	return false;
}

/* the lines of text, each handed to fn */
static int each_line(struct reader *rd, const char *text,
		     int (*fn)(struct reader *, const char *, void *), void *arg)
{
	const char *p = text, *nl;
	char *line = NULL;
	size_t len;
	int err = 0;

	for (rd->lineno = 1; *p && !err; rd->lineno++, p = nl ? nl + 1 : p + len) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		free(line);
		line = strndup(p, len);
		if (!line) {
			snprintf(rd->err, rd->errsz, "failed to read %s: %s", rd->name, strerror(ENOMEM));
			return -ENOMEM;
		}
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		rd->line = line;
		err = fn(rd, line, arg);
		if (!nl)
			break;
	}
	free(line);
	return err;
}

static int text_cb(struct reader *rd, const char *s, void *arg)
{
	return text_line(rd, s, arg);
}

struct mail_arg {
	const struct import_pick *pick;
	struct import_log *log;
	int rows, first;
};

static int mail_cb(struct reader *rd, const char *s, void *arg)
{
	struct mail_arg *m = arg;

	return mail_line(rd, s, m->pick, m->log, &m->rows, &m->first);
}

int import_parse(const char *name, const char *text, const struct import_pick *pick,
		 struct import_log *log, char *err, size_t errsz)
{
	struct reader rd = { .name = name, .err = err, .errsz = errsz };
	struct mail_arg m = { .pick = pick, .log = log };
	int ret;

	memset(log, 0, sizeof(*log));
	log->peak_mib = NAN;
	*err = '\0';
	if (is_runner_text(text)) {
		log->kind = IMPORT_UPSTREAM_TEXT;
		if (pick->line || pick->row) {
			snprintf(err, errsz, "%s: --row and --line pick a patch mail's table row, but this is a runner's output",
				 name);
			return -EINVAL;
		}
		ret = each_line(&rd, text, text_cb, log);
		if (ret)
			return ret;
		if (!log->nsamples && !log->summary_line) {
			snprintf(err, errsz, "%s: no Iter and no Summary line: the run measured nothing",
				 name);
			return -EINVAL;
		}
		return 0;
	}
	log->kind = IMPORT_PATCH_MAIL;
	ret = each_line(&rd, text, mail_cb, &m);
	if (ret)
		return ret;
	if (!m.rows) {
		snprintf(err, errsz, "%s: %s", name,
			 pick->line || pick->row ? "no table row matches --row/--line" :
			 "neither upstream's runner output (Iter, Summary lines) nor a table row import knows");
		return -EINVAL;
	}
	if (m.rows > 1) {
		snprintf(err, errsz, "%s: %d table rows%s%s%s (the first at line %d): pick one with --line N",
			 name, m.rows, pick->row ? " named '" : "", pick->row ?: "",
			 pick->row ? "'" : "", m.first);
		return -EINVAL;
	}
	return 0;
}

void import_log_free(struct import_log *log)
{
	free(log->samples);
	log->samples = NULL;
	log->nsamples = 0;
}

/*
 * The measured values of metric i in v[0..n), as the Iter lines print
 * them (rates per measured interval, as ours), or, counts, as upstream's
 * final reporters average them: each sample's count over one second, the
 * rate times the interval (a level in MiB is the same either way).
 */
static void measured_values(const struct import_log *log, int warmup, int i, bool counts,
			    double *v)
{
	int j;

	for (j = 0; j < log->nsamples - warmup; j++) {
		const struct import_sample *s = &log->samples[warmup + j];

		v[j] = s->v[i];
		if (counts && strcmp(import_metrics[i].unit, "MiB"))
			v[j] *= s->interval_ns / 1e9;
	}
}

static bool summary_holds(const struct import_summary *s, const struct stats *st, double tol)
{
	return fabs(st->mean - s->mean) <= tol &&
	       (!s->has_spread || st->n < 2 || fabs(st->stddev - s->stddev) <= 2 * tol);
}

int import_check_summary(const char *name, const struct import_log *log, int warmup,
			 bool *counts, char *err, size_t errsz)
{
	int i, n = log->nsamples - warmup, basis = 0;
	struct stats st, sc;
	double *v, tol;

	*counts = false;
	if (!log->summary_line || !log->nsamples)
		return 0;
	if (n < 1) {
		snprintf(err, errsz, "%s: %d Iter lines, all of them warm-up (-w %d): no measured sample",
			 name, log->nsamples, warmup);
		return -EINVAL;
	}
	v = calloc(n, sizeof(*v));
	if (!v) {
		snprintf(err, errsz, "failed to read %s: %s", name, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* basis: bit 0 the rates hold for every metric so far, bit 1 the counts */
	basis = 3;
	for (i = 0; i < IM_NR; i++) {
		const struct import_summary *s = &log->sum[i];

		if (!s->has)
			continue;
		measured_values(log, warmup, i, false, v);
		stats_compute(v, n, &st);
		measured_values(log, warmup, i, true, v);
		stats_compute(v, n, &sc);
		if (st.n != n) {
			snprintf(err, errsz, "%s: line %d: the Summary has %s, but the Iter lines do not",
				 name, log->summary_line, import_metrics[i].name);
			free(v);
			return -EINVAL;
		}
		/* each value and the Summary were rounded to the printed precision */
		tol = import_metrics[i].printed * 1.01;
		basis &= (summary_holds(s, &st, tol) ? 1 : 0) | (summary_holds(s, &sc, tol) ? 2 : 0);
		if (!basis) {
			snprintf(err, errsz, "%s: line %d: the Summary's %s is %.3f ± %.3f, but the %d Iter lines after %d warm-up ones give %.3f ± %.3f (%.3f ± %.3f as counts): the warm-up count (-w) is not this run's, or the log was edited",
				 name, log->summary_line, import_metrics[i].name, s->mean, s->stddev,
				 n, warmup, st.mean, st.stddev, sc.mean, sc.stddev);
			free(v);
			return -EINVAL;
		}
	}
	free(v);
	/* both hold when every interval was near one second: the rates are ours */
	*counts = !(basis & 1);
	return 0;
}

/*
 * Upstream's htab-mem prints 0.00 MiB, every second and as the peak, when
 * it cannot read its cgroup's memory.current (no memory controller on
 * cgroup v2): a map's memory is never 0, so all zeros is "not measured".
 */
static bool memory_unread(const struct import_log *log)
{
	int j;

	if (!isnan(log->peak_mib) && log->peak_mib != 0)
		return false;
	for (j = 0; j < log->nsamples; j++)
		if (!isnan(log->samples[j].v[IM_MEMORY]) && log->samples[j].v[IM_MEMORY] != 0)
			return false;
	return !log->sum[IM_MEMORY].has || log->sum[IM_MEMORY].mean == 0;
}

/* does the log have metric i: in its Iter lines, or else in its Summary or row? */
static bool log_has(const struct import_log *log, int i)
{
	int j;

	if (i == IM_MEMORY && memory_unread(log))
		return false;

	if (log->nsamples) {
		for (j = 0; j < log->nsamples; j++)
			if (!isnan(log->samples[j].v[i]))
				return true;
		return false;
	}
	return log->sum[i].has;
}

static json_t *samples_json(const struct import_log *log, const struct import_meta *meta,
			    const int *idx, int nidx)
{
	json_t *a = json_array(), *m, *s;
	int j, k;

	for (j = 0; a && j < log->nsamples; j++) {
		m = json_object();
		for (k = 0; m && k < nidx; k++)
			json_object_set_new(m, import_metrics[idx[k]].name,
					    json_finite(log->samples[j].v[idx[k]]));
		s = json_pack("{s:i, s:i, s:b, s:I, s:o}", "iter", j, "repeat", 0,
			      "warmup", j < meta->warmup,
			      "interval_ns", (json_int_t)log->samples[j].interval_ns, "metrics", m);
		if (!s || json_array_append_new(a, s)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* a metric from the measured Iter lines: the statistics every result has */
static json_t *measured_json(const struct import_log *log, int warmup, int i)
{
	int j, n = log->nsamples - warmup;
	double *v = calloc(n + 1, sizeof(*v));
	struct stats st;
	json_t *s;

	if (!v)
		return NULL;
	for (j = 0; j < n; j++)
		v[j] = log->samples[warmup + j].v[i];
	stats_compute(v, n, &st);
	s = result_json_stats(&st);
	if (s)
		result_json_robust(s, v, n, warmup);
	free(v);
	return s;
}

/* a metric of which only the printed mean (and spread) is known */
static json_t *summary_only_json(const struct import_summary *s)
{
	return json_pack("{s:b, s:n, s:o, s:o}", "summary_only", true, "n",
			 "mean", json_finite(s->mean),
			 "stddev", s->has_spread ? json_finite(s->stddev) : json_null());
}

static json_t *summary_json(const struct import_log *log, const struct import_meta *meta,
			    const int *idx, int nidx)
{
	json_t *metrics = json_object(), *m, *sum;
	long long peak;
	int k;

	for (k = 0; metrics && k < nidx; k++) {
		const struct import_metric_def *d = &import_metrics[idx[k]];

		m = log->nsamples ? measured_json(log, meta->warmup, idx[k]) :
				    summary_only_json(&log->sum[idx[k]]);
		if (!m || json_object_set_new(m, "unit", json_string(d->unit)) ||
		    json_object_set_new(m, "higher_is_better", json_boolean(d->higher_is_better)) ||
		    json_object_set_new(metrics, d->name, m)) {
			json_decref(metrics);
			return NULL;
		}
	}
	sum = json_pack("{s:o, s:n}", "metrics", metrics, "fails");
	if (!sum)
		return NULL;
	/* printed in MiB with two decimals: the bytes are that figure's */
	peak = isnan(log->peak_mib) || memory_unread(log) ? -1 : llround(log->peak_mib * 1048576.0);
	json_object_set_new(sum, "peak_memory_bytes", peak >= 0 ? json_integer(peak) : json_null());
	json_object_set_new(sum, "peak_memory_mib", peak >= 0 ? json_real(peak / 1048576.0) :
			    json_null());
	json_object_set_new(sum, "peak_memory_resolution_mib", json_null());
	return sum;
}

static json_t *source_json(const struct import_log *log, const struct import_meta *meta,
			   json_t *missing)
{
	json_t *src, *lacks = json_array();
	const char *const *n;

	json_array_append_new(lacks, json_string("validity: whether the producers ran is unknown"));
	json_array_append_new(lacks, json_string("context: the kernel, machine and environment are unknown"));
	json_array_append_new(lacks, json_string("counters: upstream prints rates only"));
	if (!log->nsamples)
		json_array_append_new(lacks, json_string("samples: only the printed mean and spread of each metric"));
	if (!meta->command_line)
		json_array_append_new(lacks, json_string("command_line: the options are upstream's defaults for the benchmark the text names"));
	for (n = meta->notes; n && *n; n++)
		json_array_append_new(lacks, json_string(*n));
	if (memory_unread(log) && (log->sum[IM_MEMORY].has || !isnan(log->peak_mib)))
		json_array_append_new(lacks, json_string("memory: 0.00 MiB in every sample and as the peak, which upstream prints when it cannot read its cgroup's memory.current: not measured"));
	src = json_pack("{s:s, s:s, s:O?, s:o, s:o}",
			"kind", log->kind == IMPORT_PATCH_MAIL ? "patch-mail" : "upstream-text",
			"file", meta->file, "command_line", meta->command_line,
			"missing_metrics", missing, "lacks", lacks);
	if (src && log->kind == IMPORT_PATCH_MAIL)
		json_object_set_new(src, "row", json_pack("{s:s, s:i}", "name", log->row, "line",
							  log->row_line));
	if (src && log->summary_line)
		json_object_set_new(src, "summary_line", json_integer(log->summary_line));
	return src;
}

json_t *import_doc(const struct import_log *log, const struct import_meta *meta, char *err,
		   size_t errsz)
{
	json_t *doc = NULL, *opts = NULL, *runner, *missing = json_array();
	int idx[IM_NR], nidx = 0, i;
	const char **w;

	for (w = meta->want; missing && w && *w; w++) {
		i = import_metric_index(*w);
		if (i >= 0 && log_has(log, i))
			idx[nidx++] = i;
		else
			json_array_append_new(missing, json_string(*w));
	}
	if (!missing)
		goto nomem;
	if (!nidx) {
		snprintf(err, errsz, "%s: none of %s's metrics is in it (it has the figures of another benchmark's reporter)",
			 meta->file, meta->benchmark);
		json_decref(missing);
		return NULL;
	}
	opts = json_deep_copy(meta->options);
	runner = json_object_get(opts, "runner");
	if (!runner)
		goto nomem;
	/* what the text measured: upstream's runner reports -d + 1 samples */
	if (log->nsamples) {
		json_object_set_new(runner, "warmup_sec", json_integer(meta->warmup));
		json_object_set_new(runner, "duration_sec",
				    json_integer(log->nsamples - meta->warmup));
	}
	json_object_set_new(runner, "repeat", json_integer(1));
	doc = json_pack("{s:s, s:i, s:s, s:o, s:n, s:n, s:o, s:o, s:n, s:[], s:o}",
			"schema", RESULT_JSON_SCHEMA_NAME, "schema_version", RESULT_JSON_SCHEMA_VERSION,
			"benchmark", meta->benchmark, "options", opts, "context", "memory_source",
			"samples", samples_json(log, meta, idx, nidx),
			"summary", summary_json(log, meta, idx, nidx), "per_producer", "warnings",
			"source", source_json(log, meta, missing));
	if (doc)
		return doc;
	opts = missing = NULL;	/* json_pack took them */
nomem:
	json_decref(opts);
	json_decref(missing);
	snprintf(err, errsz, "failed to build the result of %s: %s", meta->file, strerror(ENOMEM));
	return NULL;
}
