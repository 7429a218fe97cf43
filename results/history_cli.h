/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __HISTORY_CLI_H
#define __HISTORY_CLI_H

/*
 * What `bench history` and `bench plot history` share: the selection
 * options (--db, --benchmark, --config, --kernel, --machine, --like,
 * --metric), opening the database they name, and the trend of one metric
 * grouped by kernel and machine.
 */
#include <argp.h>
#include <stdbool.h>

#include "bench_limits.h"
#include "history.h"
#include "stats.h"

struct history_cli {
	const char *db;
	bool db_is_default;
	struct history_sel sel;
	const char *files[BENCH_MAX_FILES];
	int nfiles;
	bool json;		/* list, show: --json */
	bool include_invalid;	/* add: --include-invalid */
};

/* a run stored though marked invalid (add --include-invalid), in list and show */
#define HISTORY_INVALID_MARK "(!)"

extern struct history_cli hcli;
/* the selection options, an argp child for every history command */
extern const struct argp history_sel_argp;

/* parse argv (argv[0] the command's name, e.g. "history show") with opts into hcli */
int history_cli_parse(const char *cmd, const struct argp *opts, const char *args_doc,
		      const char *doc, int argc, char **argv);
/* open hcli.db (or the default): 0, or -EINVAL after one line (the database refused) */
int history_cli_open(struct history *h, bool create);
/*
 * The selected runs that have the metric, of one benchmark and
 * configuration (else refused), sorted by kernel and machine.  0, or
 * -EINVAL (refused) or -EIO (the database could not be read) after one line.
 */
int history_cli_select_trend(struct history_rows *rows);

/* one kernel on one machine: rows[from..to), the statistics of their means */
struct history_group {
	const struct history_row *first;
	int from, to;
	int n;			/* runs with a value */
	struct stats st;	/* over the runs' means */
};

/* the group starting at *i (moved past it): 1, 0 at the end, or -ENOMEM */
int history_next_group(const struct history_rows *rows, int *i, struct history_group *g);

struct compare_row;
/*
 * bench compare's row of metric for g's runs against base's, on their
 * stored documents (history_verdict.c): the change, its interval and the
 * verdict compare prints for the same runs.  0, or a negative errno (a
 * document refused, said on stderr; -ENOENT: no such row).
 */
int history_group_verdict(const struct history_rows *rows, const struct history_group *base,
			  const struct history_group *g, const char *metric,
			  struct compare_row *out);

#endif /* __HISTORY_CLI_H */
