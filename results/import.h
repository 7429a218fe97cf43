/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __IMPORT_H
#define __IMPORT_H

/*
 * bench import's reading half, pure (no benchmark table, no files): the
 * text upstream's runner prints (its Iter and Summary lines, reporter by
 * reporter) and the tables patch mails carry, turned into named series
 * and summaries that import_doc() makes into a result document.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* what a line of upstream's carries, under our metrics' names */
enum import_metric {
	IM_HITS,		/* "hits", M/s */
	IM_HITS_PER_PROD,	/* "hits_per_prod", M/s */
	IM_DROPS,		/* "drops", M/s */
	IM_TOTAL,		/* "total", M/s: hits + drops */
	IM_IMPORTANT_HITS,	/* "important_hits", M/s */
	IM_PER_PROD_OP,		/* "per_prod_op", k/s (htab-mem) */
	IM_MEMORY,		/* "memory", MiB (htab-mem) */
	IM_NR,
};

struct import_metric_def {
	const char *name;
	const char *unit;
	bool higher_is_better;
	double printed;		/* the precision upstream prints it with */
};

extern const struct import_metric_def import_metrics[IM_NR];

/* a figure as upstream printed it: the Summary's or a table's */
struct import_summary {
	bool has;
	bool has_spread;	/* a table may give the mean alone */
	double mean, stddev;
};

struct import_sample {
	int iter;
	long long interval_ns;
	double v[IM_NR];	/* NaN: the line has no such figure */
};

enum import_kind {
	IMPORT_NONE,
	IMPORT_UPSTREAM_TEXT,	/* upstream's runner's output */
	IMPORT_PATCH_MAIL,	/* a row of a patch mail's table */
};

struct import_log {
	enum import_kind kind;
	char bench[64];		/* "Setting up benchmark '...'", "" if the text has none */
	struct import_sample *samples;	/* every Iter line, warm-up ones included */
	int nsamples;
	struct import_summary sum[IM_NR];
	int summary_line;	/* 0: no Summary line */
	double peak_mib;	/* NaN: not printed */
	char row[64];		/* patch mail: the chosen row's name */
	int row_line;
};

/* which table row a patch mail's import takes: by line, else by name */
struct import_pick {
	int line;		/* 0: any */
	const char *row;	/* NULL: any */
};

/*
 * Read one run's text (upstream's output, or a patch mail: the first
 * Iter/Summary/Setting-up line decides which).  0, or -EINVAL with one
 * line in err naming the input (name), the line number and the bad value;
 * -ENOMEM.  log needs import_log_free() in every case.
 */
int import_parse(const char *name, const char *text, const struct import_pick *pick,
		 struct import_log *log, char *err, size_t errsz);
void import_log_free(struct import_log *log);

/* the metric named name, or -1 */
int import_metric_index(const char *name);

/*
 * The measured samples (those after warmup) against the Summary line that
 * claims to summarise them: each mean and spread within what printing
 * rounds away, of the Iter lines' rates (ours) or of the counts they
 * stand for (upstream's final reporters average each sample's count, not
 * its rate per measured interval: *counts set then).  0, or -EINVAL with
 * one line in err.
 */
int import_check_summary(const char *name, const struct import_log *log, int warmup,
			 bool *counts, char *err, size_t errsz);

/* what import_doc() is given beside the log */
struct import_meta {
	const char *benchmark;
	json_t *options;	/* { "runner": {...}, "benchmark": {...} }, borrowed */
	const char *file;	/* the input, as named */
	json_t *command_line;	/* an array of strings, or NULL: unknown (borrowed) */
	const char **want;	/* the benchmark's metric names, NULL-terminated */
	int warmup;		/* Iter lines that are warm-up */
	const char *const *notes;	/* NULL-terminated, or NULL: said in source.lacks */
};

/*
 * The result document (docs/results-and-json.md, "source"): the metrics of
 * meta->want the log has, per sample when it has Iter lines, else the
 * Summary's or the row's figures alone; what it lacks in source.lacks.
 * NULL with one line in err.
 */
json_t *import_doc(const struct import_log *log, const struct import_meta *meta, char *err,
		   size_t errsz);

#endif /* __IMPORT_H */
