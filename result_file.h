/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RESULT_FILE_H
#define __RESULT_FILE_H

/*
 * Reading a `bench --json` result back: one file, loaded and checked into
 * a struct, for every command that reads results (compare today).  A file
 * is accepted only when every figure a reader would use is there, is a
 * finite number, and agrees with the samples it claims to summarise.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats.h"


/* one metric: its measured values and their statistics */
struct result_metric {
	const char *name;	/* the summary.metrics key */
	const char *unit;
	bool higher_is_better;
	double resolution;	/* in the unit; 0 when unknown */
	/*
	 * a field of the memory breakdown (memory_source.fields): whether a
	 * run has it depends on its kernel and cgroup hierarchy, not on its
	 * configuration
	 */
	bool mem_field;
	/*
	 * an imported metric of which only the printed mean and spread are
	 * known: no values, st.n 0, st.mean and st.stddev (NaN: none) printed
	 */
	bool summary_only;
	/* values carried by summary.metrics.NAME.values, not by the samples */
	bool own_values;
	double *values;		/* the measured values; NaN: that sample has no value */
	int nvalues;
	/* every sample's value, warm-up included (NaN: none); NULL with own_values */
	double *per_sample;
	struct stats st;	/* recomputed from values, agrees with the summary */
	struct robust rb;	/* the same, robust (median, quantiles, Tukey's fences) */
	/*
	 * Per repeat (--repeat): each repeat's mean and the two levels.  A
	 * run without repeats, or a metric with its own values, is one
	 * repeat whose mean is st.mean.
	 */
	double *repeat_means;	/* nrepeats entries, NaN: no value in that repeat */
	int nrepeats;
	struct two_level tl;
};

/* one sample as the file has it */
struct result_sample {
	bool warmup;
	long long interval_ns;	/* its measured interval, >= 1 */
};

struct result_file {
	const char *path;
	json_t *doc;		/* the document, for compare's context notes */
	const char *benchmark;
	int warmup_sec;
	int duration_sec;
	int repeat_cnt;		/* options.runner.repeat, 1 when absent */
	bool zero_seed;		/* options.runner.zero_seed, false when absent */
	int producers;		/* options.runner.producers, -1 when not a count */
	/* the configuration (result_config()): what labels a run in a chart */
	json_t *config;
	int nr_allowed_cpus;	/* context.allowed_cpus's count, 0 when unknown */
	const char **warnings;	/* the run's noise warnings (into doc) */
	int nwarnings;
	struct result_sample *samples;	/* nsamples, warm-up ones first */
	int nsamples;		/* warm-up ones included */
	struct result_metric *metrics;	/* in the file's order */
	int nmetrics;
	long long fails;
	double peak_memory_mib;	/* NaN: not measured */
	double peak_memory_resolution_mib;	/* 0 when unknown */
	/* --latency: the run's histogram by bucket index, or NULL */
	unsigned long long *lat_counts;
	unsigned int lat_ops_per_trigger;
	/*
	 * --latency's reference loop, the machine's speed (latency.reference):
	 * its median in ns, NaN when the file has none or none ran
	 */
	double lat_ref_ns;
	long long lat_ref_samples;
	unsigned int lat_ref_steps;
	/*
	 * validity.valid false: the run's producers were starved (the
	 * machine was busy), so its rates measure the load; every reader
	 * leaves it out and says so, or with --include-invalid keeps it
	 * marked (result_file_kept())
	 */
	bool invalid;
	const char *invalid_reason;	/* into doc */
	/*
	 * bench import's result (source): "upstream-text" or "patch-mail",
	 * NULL for a run of bench's; the imported file; the metrics of the
	 * benchmark it does not have and what else it lacks (into doc)
	 */
	const char *source_kind;
	const char *source_file;
	json_t *missing_metrics;
	json_t *lacks;
	/* validity.note: why a producer's fair share was below a CPU, or NULL */
	const char *validity_note;	/* into doc */
};

/*
 * Load and check one result file.  Returns 0, or a negative errno with one
 * line in err ("PATH: FIELD: what is wrong", no newline): -EINVAL for a
 * file that is not a valid result, the read error otherwise.  rf needs
 * result_file_free() only after success.
 */
int result_file_load(const char *path, struct result_file *rf, char *err, size_t errsz);
/* the same checks on a parsed document, named name in messages; doc is rf's after it */
int result_file_load_doc(const char *name, json_t *doc, struct result_file *rf, char *err,
			 size_t errsz);
void result_file_free(struct result_file *rf);
/*
 * A command's input files: paths[0..n) into rfs[0..n), stopping at the
 * first refused, said on stderr as "WHO: <result_file_load()'s line>".
 * *loaded: how many loaded (each needs result_file_free()).  0, or
 * -EINVAL for a file refused (the command's bad input, whatever the read
 * error) or -ENOMEM.  An import without samples (summary only) is refused
 * for every WHO but "config": it has no values to store, export or pair.
 */
int result_files_load(const char *who, const char *const *paths, int n, struct result_file *rfs,
		      int *loaded);
/*
 * An invalid run (validity.valid false): prints "WHO: left out PATH:
 * invalid run: REASON" on stderr and returns true; false for a valid one.
 */
bool result_file_left_out(const struct result_file *rf, const char *who);
/*
 * The same, but with include_invalid an invalid run is kept: "WHO: kept
 * PATH (--include-invalid), marked as an invalid run: REASON" and true.
 */
bool result_file_kept(const struct result_file *rf, const char *who, bool include_invalid);
/* the metric named name, or NULL */
const struct result_metric *result_file_metric(const struct result_file *rf, const char *name);

/* an imported result's metric that its source does not print (source.missing_metrics) */
bool result_file_lacks(const struct result_file *rf, const char *name);
/* an imported result with printed figures only, no samples: compare alone reads it */
bool result_file_summary_only(const struct result_file *rf);

#endif /* __RESULT_FILE_H */
