/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __HISTORY_H
#define __HISTORY_H

/*
 * The results history: checked result files in one SQLite database, keyed
 * by benchmark, configuration, kernel build (release and build id) and
 * machine.  history_db.c
 * is the store (schema, versions, migrations, transactions); history.c is
 * `bench history add|list|show`; plot_history.c is `bench plot history`.
 *
 * Every function that can fail prints one line on stderr and returns a
 * negative errno (-EINVAL: a database or an input bench refuses).
 */
#include <stdbool.h>
#include <stddef.h>

#include "result_file.h"

/* PRAGMA user_version: the layout this bench writes (see history_db.c) */
#define HISTORY_SCHEMA_VERSION 4
/* PRAGMA application_id: "bnch", so that another program's database is refused */
#define HISTORY_APP_ID 0x626e6368

struct sqlite3;

struct history {
	struct sqlite3 *db;
	const char *path;
	char err[512];		/* why history_open() failed: one line */
};

/* $XDG_DATA_HOME/bench/history.db, else ~/.local/share/bench/history.db */
int history_default_path(char *buf, size_t sz);

/*
 * Open the database at path, check it is a bench history this bench can
 * read (a corrupt, foreign or newer one is refused and left untouched),
 * and bring an older layout up to date.  create: make it (and, for the
 * default path, its directory) when missing; otherwise a missing database
 * is refused.  On failure h->err says why (one line, for the caller to
 * print).
 */
int history_open(struct history *h, const char *path, bool create, bool default_path);
void history_close(struct history *h);

/* a write transaction: taken at once (BEGIN IMMEDIATE), waits for others */
int history_begin(struct history *h);
int history_commit(struct history *h);
void history_rollback(struct history *h);

/*
 * Store one checked result (within a transaction).  machine: the name to
 * file it under (NULL: result_machine_label()).  *id is its run id; *dup
 * is set when the same document was already stored (it is not added
 * twice).
 */
int history_add(struct history *h, const struct result_file *rf, const char *machine,
		const char *source, long long *id, bool *dup);

/* which runs: NULL / 0 fields select everything */
struct history_sel {
	const char *benchmark;
	const char *config;	/* the configuration label */
	const char *kernel;
	const char *build;	/* a prefix of the build: its id's hex digits, or "v:..." */
	const char *tag;	/* exactly this --tag */
	const char *machine;
	long long like;		/* only runs with this run's configuration key */
	const char *metric;	/* with the metric's figures (NULL: the run's first) */
};

struct history_row {
	long long id;
	char *added, *benchmark, *config, *config_key, *kernel, *machine, *source;
	/*
	 * The kernel build within its release (result_kernel_build(): "id:..",
	 * "v:.." or ""), as tables show it (result_build_short()), the run's
	 * tag ("" when none), and "release build_short" (the release alone
	 * when the build is unknown), which tells the builds of one release
	 * apart wherever a kernel is one point.
	 */
	char *build, *build_short, *tag, *kernel_build;
	long long build_first;	/* the first run id of this release and build */
	long long tag_first;	/* the first run id of this release, build and tag */
	int producers;
	/* the selected metric, when the run has it */
	bool has_metric;
	char *metric, *unit;
	double mean, stddev;
	int n;
	bool higher_is_better;
	/* its document says validity.valid false (added with --include-invalid) */
	bool invalid;
	/* it ran under TCG (result_emulated()): its timings are emulated */
	bool emulated;
};

struct history_rows {
	struct history_row *row;
	int n;
};

/* the selected runs, by run id */
int history_query(struct history *h, const struct history_sel *sel, struct history_rows *out);
void history_rows_free(struct history_rows *rows);
/*
 * sort by kernel release (version order), then its builds in the order
 * they were first added, then machine, then run id
 */
void history_rows_sort_kernels(struct history_rows *rows);

/*
 * compare's "history:ID" and "history:DB:ID": load run ID of the default
 * database (or of DB) as a checked result, named spec in messages.  0, or
 * a negative errno with one line in err (empty when the database's
 * failure was said on stderr already).
 */
int history_load_result(const char *spec, struct result_file *rf, char *err, size_t errsz);
/* true when a compare argument names a stored run */
bool history_is_spec(const char *arg);

/* `bench history add|list|show ...`: 0, 1 (a write failed), 2 (bad input) */
int bench_history_main(int argc, char **argv);

#endif /* __HISTORY_H */
