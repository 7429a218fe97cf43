// SPDX-License-Identifier: GPL-2.0
/*
 * The results history's store: one SQLite database.  Its layout carries a
 * version (PRAGMA user_version) and an owner (PRAGMA application_id); a
 * database this bench did not write, cannot read, or that is damaged is
 * refused before anything is written to it, and an older layout is brought
 * up to date in one transaction.  Writers take the write lock at the start
 * of their transaction and wait for each other (a busy timeout), so runs
 * added at once are all kept; the checks read the file in one transaction
 * and are made again under the write lock before a migration.
 *
 * Layout versions:
 *   1  runs: one row per result document (the document itself, its
 *      SHA-256, and the keys: benchmark, configuration label and key,
 *      kernel release, machine)
 *   2  metrics: each run's summary figures, filled from the documents, so
 *      that list, show and plot need not parse every document
 *   3  runs' configuration label and key recomputed from the documents
 *      (result_config.h: defaults filled in, every option in the label)
 *   4  runs' kernel build (result_kernel_build(): build id or uname -v)
 *      and tag, filled from the documents; the key takes the build; the
 *      configuration recomputed again (htab-mem's extra_work default)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "history.h"
#include "result_config.h"
#include "result_label.h"
#include "testing_helpers.h"

/* long enough for a writer to finish whatever another writer waits on */
#define HISTORY_BUSY_MS 60000

/* a migration's work on one stored run, its document doc: 0, or a negative errno after one line */
typedef int (*fill_fn)(struct history *h, long long id, json_t *doc);

static int fill_metrics(struct history *h, long long id, json_t *doc);
static int set_config(struct history *h, long long id, json_t *doc);
static int fill_identity(struct history *h, long long id, json_t *doc);

static const struct migration {
	const char *sql;	/* or NULL */
	fill_fn fill;		/* after sql, for every stored run, or NULL */
} migrations[HISTORY_SCHEMA_VERSION] = {
	/* 0 -> 1 */
	{ "CREATE TABLE runs ("
	  " id INTEGER PRIMARY KEY,"
	  " sha256 TEXT NOT NULL UNIQUE,"
	  " added TEXT NOT NULL,"
	  " benchmark TEXT NOT NULL,"
	  " config TEXT NOT NULL,"
	  " config_key TEXT NOT NULL,"
	  " kernel TEXT NOT NULL,"
	  " machine TEXT NOT NULL,"
	  " producers INTEGER NOT NULL,"
	  " source TEXT NOT NULL,"
	  " doc TEXT NOT NULL);"
	  "CREATE INDEX runs_key ON runs (benchmark, config, kernel, machine);" },
	/* 1 -> 2 */
	{ "CREATE TABLE metrics ("
	  " run_id INTEGER NOT NULL REFERENCES runs (id),"
	  " ord INTEGER NOT NULL,"
	  " name TEXT NOT NULL,"
	  " unit TEXT NOT NULL,"
	  " n INTEGER NOT NULL,"
	  " mean REAL,"
	  " stddev REAL,"
	  " higher_is_better INTEGER NOT NULL,"
	  " PRIMARY KEY (run_id, name));", fill_metrics },
	/* 2 -> 3: every label and key, as result_config.h defines them now */
	{ NULL, set_config },
	/* 3 -> 4 */
	{ "ALTER TABLE runs ADD COLUMN build TEXT NOT NULL DEFAULT '';"
	  "ALTER TABLE runs ADD COLUMN tag TEXT NOT NULL DEFAULT '';"
	  "DROP INDEX runs_key;"
	  "CREATE INDEX runs_key ON runs (benchmark, config, kernel, build, machine);", fill_identity },
};

/* why the database cannot be used, into h->err: history_open's callers print it */
static int __attribute__((format(printf, 3, 4)))
refuse(struct history *h, int err, const char *fmt, ...)
{
	char msg[sizeof(h->err)];
	size_t i, o = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* sqlite's integrity reports are one problem per line: one line here */
	for (i = 0; msg[i] && o + 3 < sizeof(h->err); i++) {
		if (msg[i] == '\n') {
			h->err[o++] = ';';
			h->err[o++] = ' ';
		} else {
			h->err[o++] = msg[i];
		}
	}
	h->err[o] = '\0';
	return err;
}

/*
 * BENCH_HISTORY_LOCK_TIMEOUT, seconds (default 60): how long a command
 * waits for another's lock; -1 after one line when it is not 0..86400
 */
static int lock_timeout_ms(void)
{
	const char *s = getenv("BENCH_HISTORY_LOCK_TIMEOUT");
	long sec;

	if (!s)
		return HISTORY_BUSY_MS;
	if (parse_long(s, 0, 86400, &sec)) {
		fprintf(stderr, "invalid BENCH_HISTORY_LOCK_TIMEOUT '%s': expected seconds in 0..86400\n", s);
		return -1;
	}
	return sec * 1000;
}

/*
 * The database's last failure (sqlite result code rc) as -errno, which
 * the exit status follows: -EINVAL for a file that is not a database or
 * is damaged (refused), else a read or write that failed: locked
 * (-EBUSY), read-only, out of room, or the system's own error.
 */
static int db_errno(struct history *h, int rc)
{
	int sys = sqlite3_system_errno(h->db);

	switch (rc & 0xff) {
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return -EINVAL;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_NOMEM:
		return -ENOMEM;
	default:
		return sys > 0 ? -sys : -EIO;
	}
}

/* sqlite's message, and its cause: the system's error, or whose lock it waited for */
static void db_cause(struct history *h, int rc, char *buf, size_t sz)
{
	int sys = sqlite3_system_errno(h->db);

	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		snprintf(buf, sz, "%s: still held by another process after %d s (BENCH_HISTORY_LOCK_TIMEOUT)",
			 sqlite3_errstr(rc), lock_timeout_ms() / 1000);
	else if ((rc & 0xff) == SQLITE_READONLY)
		snprintf(buf, sz, "%s (the file, or its file system, is read-only)", sqlite3_errmsg(h->db));
	else if (sys > 0 && (rc & 0xff) != SQLITE_NOTADB && (rc & 0xff) != SQLITE_CORRUPT)
		snprintf(buf, sz, "%s: %s", sqlite3_errmsg(h->db), strerror(sys));
	else
		snprintf(buf, sz, "%s", sqlite3_errmsg(h->db));
}

/* a failed statement, said with its cause: its -errno (db_errno()) */
static int db_fail(struct history *h, const char *what)
{
	int rc = sqlite3_extended_errcode(h->db);
	char cause[256];

	db_cause(h, rc, cause, sizeof(cause));
	fprintf(stderr, "history: failed to %s in %s: %s\n", what, h->path, cause);
	return db_errno(h, rc);
}

static int exec(struct history *h, const char *sql, const char *what)
{
	return sqlite3_exec(h->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : db_fail(h, what);
}

/* one integer from a query into *v: SQLITE_OK, or the failure's result code */
static int query_int(struct history *h, const char *sql, long long *v)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : rc == SQLITE_DONE ? SQLITE_ERROR : rc;
}

int history_default_path(char *buf, size_t sz)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int len;

	/* the XDG base directory spec: a relative XDG_DATA_HOME is ignored */
	if (xdg && xdg[0] == '/')
		len = snprintf(buf, sz, "%s/bench/history.db", xdg);
	else if (home && home[0] == '/')
		len = snprintf(buf, sz, "%s/.local/share/bench/history.db", home);
	else {
		fprintf(stderr, "history: neither XDG_DATA_HOME nor HOME is an absolute path: give --db FILE\n");
		return -EINVAL;
	}
	if (len < 0 || (size_t)len >= sz) {
		fprintf(stderr, "history: the default database path is too long: give --db FILE\n");
		return -ENAMETOOLONG;
	}
	return 0;
}

/* mkdir -p of path's directory */
static int make_parent(struct history *h, const char *path)
{
	char dir[PATH_MAX], *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(dir, 0777) && errno != EEXIST)
		goto fail;
	return 0;
fail:
	return refuse(h, -errno, "history: failed to create directory %s: %s", dir, strerror(errno));
}

/*
 * A read of the database that failed (sqlite result code rc): a file that
 * is not a database is refused (-EINVAL), any other failure (locked,
 * unreadable) is the read's, with its cause
 */
static int read_failed(struct history *h, int rc)
{
	char cause[256];

	if (db_errno(h, rc) == -EINVAL)
		return refuse(h, -EINVAL, "history: %s: not a bench history database (%s): refusing to touch it",
			      h->path, sqlite3_errmsg(h->db));
	db_cause(h, rc, cause, sizeof(cause));
	return refuse(h, db_errno(h, rc), "history: failed to read %s: %s", h->path, cause);
}

/* PRAGMA quick_check: 0, -EINVAL for a damaged database, or read_failed()'s */
static int check_intact(struct history *h)
{
	const char *res = NULL;
	sqlite3_stmt *st;
	int rc, err = 0;

	rc = sqlite3_prepare_v2(h->db, "PRAGMA quick_check", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			res = (const char *)sqlite3_column_text(st, 0);
		if (res && strcmp(res, "ok"))
			err = refuse(h, -EINVAL, "history: %s: the database is damaged (%s): refusing to touch it",
				     h->path, res);
		sqlite3_finalize(st);
	}
	if (!err && !res)
		err = rc == SQLITE_DONE ? -EINVAL : read_failed(h, rc);
	return err;
}

/* the refusals: before anything is written, nothing is */
static int check_db(struct history *h, long long *version)
{
	long long app, tables;
	int rc;

	rc = query_int(h, "PRAGMA application_id", &app);
	if (!rc)
		rc = query_int(h, "PRAGMA user_version", version);
	if (!rc)
		rc = query_int(h, "SELECT count(*) FROM sqlite_master", &tables);
	if (rc)
		return read_failed(h, rc);
	if (app != HISTORY_APP_ID && (app || tables || *version))
		return refuse(h, -EINVAL, "history: %s: not a bench history database (application id %#llx, %lld tables): refusing to touch it",
			      h->path, app, tables);
	if (*version > HISTORY_SCHEMA_VERSION)
		return refuse(h, -EINVAL, "history: %s: schema version %lld is newer than this bench reads (%d): refusing to touch it; use the bench that wrote it",
			      h->path, *version, HISTORY_SCHEMA_VERSION);
	return check_intact(h);
}

/* every stored run's document through fill, in id order */
static int fill_runs(struct history *h, fill_fn fill)
{
	sqlite3_stmt *st;
	long long id;
	json_t *doc;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(h->db, "SELECT id, doc FROM runs ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return db_fail(h, "read the stored runs");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		doc = json_loads((const char *)sqlite3_column_text(st, 1), 0, NULL);
		if (!doc) {
			fprintf(stderr, "history: %s: run %lld: the stored document is not JSON\n",
				h->path, id);
			ret = -EINVAL;
			break;
		}
		ret = fill(h, id, doc);
		json_decref(doc);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(h, "read the stored runs");
	sqlite3_finalize(st);
	return ret;
}

/*
 * Bring the layout from its version to ours, in one transaction: checked
 * again under the write lock, since another writer may have created or
 * migrated it while we waited for the lock.
 */
static int migrate(struct history *h)
{
	long long v;
	char sql[96];
	int err;

	err = history_begin(h);
	if (err)
		return err;
	err = check_db(h, &v);
	for (; !err && v < HISTORY_SCHEMA_VERSION; v++) {
		if (migrations[v].sql)
			err = exec(h, migrations[v].sql, "update the database's layout");
		if (!err && migrations[v].fill)
			err = fill_runs(h, migrations[v].fill);
	}
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 HISTORY_APP_ID, HISTORY_SCHEMA_VERSION);
	if (!err)
		err = exec(h, sql, "set the schema version");
	if (!err)
		return history_commit(h);
	history_rollback(h);
	return err;
}

/*
 * An older layout that cannot be written here (a read-only file or file
 * system) is read through an up-to-date copy in memory, said once; the
 * file itself is brought up to date where it can be written (history add)
 */
static int migrate_copy(struct history *h, long long version)
{
	sqlite3_backup *b;
	sqlite3 *mem;
	int rc;

	rc = sqlite3_open(":memory:", &mem);
	if (rc != SQLITE_OK) {
		sqlite3_close(mem);
		fprintf(stderr, "history: failed to copy %s into memory: %s\n", h->path, sqlite3_errstr(rc));
		return -ENOMEM;
	}
	b = sqlite3_backup_init(mem, "main", h->db, "main");
	rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(mem);
	if (b)
		rc = sqlite3_backup_finish(b) == SQLITE_OK && rc == SQLITE_DONE ? SQLITE_OK : rc;
	if (rc != SQLITE_OK) {
		sqlite3_close(mem);
		return read_failed(h, rc);
	}
	sqlite3_close(h->db);
	h->db = mem;
	fprintf(stderr, "history: %s has layout %lld, older than this bench's %d, and cannot be written here: it is read through an up-to-date copy in memory (bench history add where it can be written updates it)\n",
		h->path, version, HISTORY_SCHEMA_VERSION);
	return migrate(h);
}

/*
 * The checks in one read transaction: the application id, the version and
 * the tables are read from one state of the file, never from both sides
 * of another writer's migration (which read apart said "application id 0,
 * 5 tables" of a database being created), then the migration if needed:
 * of a copy when the file is read-only and only read (!create).
 */
static int check_and_migrate(struct history *h, bool create)
{
	long long version;
	int err;

	err = exec(h, "BEGIN", "start a transaction");
	if (err)
		return err;
	err = check_db(h, &version);
	history_rollback(h);	/* it read, and wrote nothing */
	if (err || version >= HISTORY_SCHEMA_VERSION)
		return err;
	if (!create && sqlite3_db_readonly(h->db, "main") == 1)
		return migrate_copy(h, version);
	return migrate(h);
}

/* open path as sqlite: 0, or -errno with h->err saying why */
static int open_db(struct history *h, const char *path, int flags)
{
	int rc = sqlite3_open_v2(path, &h->db, flags, NULL), timeout = lock_timeout_ms();
	char cause[256];

	if (rc != SQLITE_OK) {
		if (!h->db)
			return refuse(h, -ENOMEM, "history: failed to open %s: %s", path,
				      strerror(ENOMEM));
		db_cause(h, rc, cause, sizeof(cause));
		return refuse(h, db_errno(h, rc), "history: failed to open %s: %s", path, cause);
	}
	if (timeout < 0)
		return -EINVAL;
	sqlite3_busy_timeout(h->db, timeout);
	return 0;
}

int history_open(struct history *h, const char *path, bool create, bool default_path)
{
	struct stat st;
	int err, flags = SQLITE_OPEN_READWRITE;

	h->db = NULL;
	h->path = path;
	h->err[0] = '\0';
	if (stat(path, &st)) {
		/* a database that is not there is refused; one that cannot be reached, not read */
		if (errno != ENOENT)
			return refuse(h, -errno, "history: failed to read %s: %s", path, strerror(errno));
		if (!create)
			return refuse(h, -EINVAL, "history: no database at %s (bench history add creates it)",
				      path);
		if (default_path && (err = make_parent(h, path)))
			return err;
		flags |= SQLITE_OPEN_CREATE;
	} else if (!S_ISREG(st.st_mode)) {
		return refuse(h, -EINVAL, "history: %s: not a regular file: refusing to touch it", path);
	}
	err = open_db(h, path, flags);
	if (!err)
		err = check_and_migrate(h, create);
	if (err)
		history_close(h);
	return err;
}

void history_close(struct history *h)
{
	sqlite3_close(h->db);
	h->db = NULL;
}

int history_begin(struct history *h)
{
	return exec(h, "BEGIN IMMEDIATE", "start a transaction");
}

int history_commit(struct history *h)
{
	return exec(h, "COMMIT", "commit");
}

void history_rollback(struct history *h)
{
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

static int add_metric(struct history *h, long long run, int ord, const char *name,
		      const char *unit, int n, double mean, double stddev, bool hib)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, "INSERT INTO metrics (run_id, ord, name, unit, n, mean, stddev, higher_is_better) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(h, "store a metric");
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int(st, 2, ord);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, unit, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 5, n);
	if (n && isfinite(mean))
		sqlite3_bind_double(st, 6, mean);
	if (n && isfinite(stddev))
		sqlite3_bind_double(st, 7, stddev);
	sqlite3_bind_int(st, 8, hib);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(h, "store a metric");
}

/* a run's summary figures, and its peak memory as one more */
static int add_metrics(struct history *h, long long run, const struct result_file *rf)
{
	bool peak = !isnan(rf->peak_memory_mib);
	int i, err = 0;

	for (i = 0; !err && i < rf->nmetrics; i++) {
		const struct result_metric *m = &rf->metrics[i];

		err = add_metric(h, run, i, m->name, m->unit, m->st.n, m->st.mean, m->st.stddev,
				 m->higher_is_better);
	}
	if (!err)
		err = add_metric(h, run, i, "peak_memory", "MiB", peak, rf->peak_memory_mib, NAN,
				 false);
	return err;
}

/* 1 -> 2: the metrics of a stored document */
static int fill_metrics(struct history *h, long long id, json_t *doc)
{
	struct result_file rf;
	char spec[64], err[512];
	int ret;

	snprintf(spec, sizeof(spec), "run %lld", id);
	/* the loader keeps (and frees) a reference of its own */
	if (result_file_load_doc(spec, json_incref(doc), &rf, err, sizeof(err))) {
		fprintf(stderr, "history: %s: %s: the stored document does not load: %s\n",
			h->path, spec, err);
		return -EINVAL;
	}
	ret = add_metrics(h, id, &rf);
	result_file_free(&rf);
	return ret;
}

/* one run's label and key, from its document */
static int set_config(struct history *h, long long id, json_t *doc)
{
	char label[256], *key = result_config_key(doc);
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;

	result_config_label(doc, label, sizeof(label));
	if (key && sqlite3_prepare_v2(h->db, "UPDATE runs SET config = ?, config_key = ? WHERE id = ?",
				      -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, label, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 3, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	free(key);
	return rc == SQLITE_DONE ? 0 : db_fail(h, "store a run's configuration");
}

/* one run's kernel build and tag, from its document */
static int set_identity(struct history *h, long long id, json_t *doc)
{
	const char *tag = result_tag(doc);
	char build[512];
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR;

	result_kernel_build(doc, build, sizeof(build));
	if (sqlite3_prepare_v2(h->db, "UPDATE runs SET build = ?, tag = ? WHERE id = ?",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, build, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, tag ? tag : "", -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 3, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	return rc == SQLITE_DONE ? 0 : db_fail(h, "store a run's kernel build");
}

/* 3 -> 4: a stored run's build and tag, and its configuration again */
static int fill_identity(struct history *h, long long id, json_t *doc)
{
	return set_identity(h, id, doc) ?: set_config(h, id, doc);
}

static long long find_run(struct history *h, const char *sha)
{
	sqlite3_stmt *st;
	long long id = 0;

	if (sqlite3_prepare_v2(h->db, "SELECT id FROM runs WHERE sha256 = ?", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, sha, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

static const char *ctx_str(json_t *doc, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(doc, "context"), key));

	return s ? s : "unknown";
}

int history_add(struct history *h, const struct result_file *rf, const char *machine,
		const char *source, long long *id, bool *dup)
{
	char sha[SHA256_HEX_LEN + 1], label[256], mach[512], added[32], build[512];
	const char *tag = result_tag(rf->doc);
	char *key, *doc;
	sqlite3_stmt *st = NULL;
	time_t now = time(NULL);
	struct tm tm;
	int rc = SQLITE_ERROR;

	*dup = false;
	if (result_doc_hash(rf->doc, sha)) {
		fprintf(stderr, "history: failed to hash %s: %s\n", source, strerror(ENOMEM));
		return -ENOMEM;
	}
	*id = find_run(h, sha);
	if (*id < 0)
		return db_fail(h, "look the run up");
	if (*id) {
		*dup = true;
		return 0;
	}
	result_config_label(rf->doc, label, sizeof(label));
	if (!machine)
		result_machine_label(rf->doc, mach, sizeof(mach));
	gmtime_r(&now, &tm);
	strftime(added, sizeof(added), "%Y-%m-%dT%H:%M:%SZ", &tm);
	key = result_config_key(rf->doc);
	result_kernel_build(rf->doc, build, sizeof(build));
	doc = json_dumps(rf->doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
	if (key && doc &&
	    sqlite3_prepare_v2(h->db, "INSERT INTO runs (sha256, added, benchmark, config, config_key, kernel, machine, producers, source, doc, build, tag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, sha, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, added, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, rf->benchmark, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 4, label, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, ctx_str(rf->doc, "kernel_release"), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 7, machine ? machine : mach, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 8, json_integer_value(json_object_get(
			json_object_get(json_object_get(rf->doc, "options"), "runner"), "producers")));
		sqlite3_bind_text(st, 9, source, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 10, doc, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 11, build, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 12, tag ? tag : "", -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	free(key);
	free(doc);
	if (rc != SQLITE_DONE)
		return db_fail(h, "store the run");
	*id = sqlite3_last_insert_rowid(h->db);
	return add_metrics(h, *id, rf);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return strdup(s ? (const char *)s : "");
}

static int read_row(sqlite3_stmt *st, struct history_row *r)
{
	char shortb[32];

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	r->added = col_dup(st, 1);
	r->benchmark = col_dup(st, 2);
	r->config = col_dup(st, 3);
	r->config_key = col_dup(st, 4);
	r->kernel = col_dup(st, 5);
	r->machine = col_dup(st, 6);
	r->producers = sqlite3_column_int(st, 7);
	r->source = col_dup(st, 8);
	r->has_metric = sqlite3_column_type(st, 9) != SQLITE_NULL;
	r->metric = col_dup(st, 9);
	r->unit = col_dup(st, 10);
	r->n = sqlite3_column_int(st, 11);
	r->mean = sqlite3_column_type(st, 12) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 12);
	r->stddev = sqlite3_column_type(st, 13) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 13);
	r->higher_is_better = sqlite3_column_int(st, 14);
	r->build = col_dup(st, 15);
	r->tag = col_dup(st, 16);
	r->build_first = sqlite3_column_int64(st, 17);
	r->invalid = sqlite3_column_int(st, 18) == 1;
	r->tag_first = sqlite3_column_int64(st, 19);
	r->emulated = sqlite3_column_int(st, 20) == 1;
	if (r->build) {
		result_build_short(r->build, shortb, sizeof(shortb));
		r->build_short = strdup(shortb);
		if (asprintf(&r->kernel_build, "%s%s%s", r->kernel ? r->kernel : "", *r->build ? " " : "",
			     *r->build ? shortb : "") < 0)
			r->kernel_build = NULL;
	}
	if (!r->added || !r->benchmark || !r->config || !r->config_key || !r->kernel ||
	    !r->machine || !r->source || !r->metric || !r->unit || !r->build || !r->tag ||
	    !r->build_short || !r->kernel_build)
		return -ENOMEM;
	return 0;
}

static void row_free(struct history_row *r);

/* --build PREFIX: of the build id, of the short form a table shows, or of "v:<uname -v>" */
static bool build_matches(const struct history_row *r, const char *prefix)
{
	size_t n = prefix ? strlen(prefix) : 0;

	return !prefix || (!strncmp(r->build, "id:", 3) && !strncmp(r->build + 3, prefix, n)) ||
	       !strncmp(r->build_short, prefix, n) || !strncmp(r->build, prefix, n);
}

static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

int history_query(struct history *h, const struct history_sel *sel, struct history_rows *out)
{
	static const char sql[] =
		"SELECT r.id, r.added, r.benchmark, r.config, r.config_key, r.kernel, r.machine,"
		" r.producers, r.source, m.name, m.unit, m.n, m.mean, m.stddev, m.higher_is_better,"
		" r.build, r.tag,"
		" (SELECT min(id) FROM runs f WHERE f.kernel = r.kernel AND f.build = r.build),"
		" CASE WHEN json_valid(r.doc) THEN json_extract(r.doc, '$.validity.valid') = 0 END,"
		" (SELECT min(id) FROM runs t WHERE t.kernel = r.kernel AND t.build = r.build"
		"  AND t.tag = r.tag),"
		" CASE WHEN json_valid(r.doc) THEN json_extract(r.doc, '$.context.hypervisor') = 'tcg' END"
		" FROM runs r LEFT JOIN metrics m ON m.run_id = r.id AND m.name ="
		"  coalesce(?6, (SELECT name FROM metrics WHERE run_id = r.id"
		"   ORDER BY mean IS NULL, ord LIMIT 1))"
		" WHERE (?1 IS NULL OR r.benchmark = ?1) AND (?2 IS NULL OR r.config = ?2)"
		" AND (?3 IS NULL OR r.kernel = ?3) AND (?4 IS NULL OR instr(r.machine, ?4) > 0)"
		" AND (?8 IS NULL OR r.tag = ?8)"
		" AND (?5 IS NULL OR (r.benchmark, r.config_key) ="
		"  (SELECT benchmark, config_key FROM runs WHERE id = ?5))"
		" ORDER BY r.id";
	struct history_row *grown;
	sqlite3_stmt *st;
	int rc, err = 0;

	out->row = NULL;
	out->n = 0;
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(h, "read the history");
	bind_opt(st, 1, sel->benchmark);
	bind_opt(st, 2, sel->config);
	bind_opt(st, 3, sel->kernel);
	bind_opt(st, 4, sel->machine);
	if (sel->like)
		sqlite3_bind_int64(st, 5, sel->like);
	bind_opt(st, 6, sel->metric);
	bind_opt(st, 8, sel->tag);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		grown = realloc(out->row, (out->n + 1) * sizeof(*out->row));
		if (!grown) {
			err = -ENOMEM;
			break;
		}
		out->row = grown;
		err = read_row(st, &out->row[out->n++]);
		if (!err && !build_matches(&out->row[out->n - 1], sel->build))
			row_free(&out->row[--out->n]);
	}
	if (err == -ENOMEM)
		fprintf(stderr, "history: failed to read the history: %s\n", strerror(ENOMEM));
	else if (!err && rc != SQLITE_DONE)
		err = db_fail(h, "read the history");
	sqlite3_finalize(st);
	if (err)
		history_rows_free(out);
	return err;
}

static void row_free(struct history_row *r)
{
	free(r->added);
	free(r->benchmark);
	free(r->config);
	free(r->config_key);
	free(r->kernel);
	free(r->machine);
	free(r->source);
	free(r->metric);
	free(r->unit);
	free(r->build);
	free(r->build_short);
	free(r->tag);
	free(r->kernel_build);
}

void history_rows_free(struct history_rows *rows)
{
	int i;

	for (i = 0; i < rows->n; i++)
		row_free(&rows->row[i]);
	free(rows->row);
	rows->row = NULL;
	rows->n = 0;
}

static int cmp_kernels(const void *pa, const void *pb)
{
	const struct history_row *a = pa, *b = pb;
	int c = strverscmp(a->kernel, b->kernel);

	if (!c)
		c = (a->build_first > b->build_first) - (a->build_first < b->build_first);
	if (!c)
		c = strcmp(a->machine, b->machine);
	/* a build's tags (base, patched) are rows of their own, in the order first added */
	if (!c)
		c = (a->tag_first > b->tag_first) - (a->tag_first < b->tag_first);
	return c ? c : (a->id > b->id) - (a->id < b->id);
}

void history_rows_sort_kernels(struct history_rows *rows)
{
	if (rows->n)
		qsort(rows->row, rows->n, sizeof(*rows->row), cmp_kernels);
}

bool history_is_spec(const char *arg)
{
	return !strncmp(arg, "history:", 8);
}

int history_load_result(const char *spec, struct result_file *rf, char *err, size_t errsz)
{
	char path[PATH_MAX];
	const char *rest = spec + 8, *colon = strrchr(rest, ':');
	struct history h;
	sqlite3_stmt *st;
	json_error_t jerr = {};
	json_t *doc = NULL;
	bool found = false;
	long id;
	int ret;

	memset(rf, 0, sizeof(*rf));
	if (parse_long(colon ? colon + 1 : rest, 1, LONG_MAX, &id)) {
		snprintf(err, errsz, "invalid '%s': expected history:ID or history:DB:ID with a run id of bench history list",
			 spec);
		return -EINVAL;
	}
	if (colon)
		snprintf(path, sizeof(path), "%.*s", (int)(colon - rest), rest);
	else if (history_default_path(path, sizeof(path)))
		return snprintf(err, errsz, "%s: no default database", spec), -EINVAL;
	/* a refusal is in h.err; a failure the store said on stderr already leaves err empty */
	*err = '\0';
	ret = history_open(&h, path, false, false);
	if (ret && h.err[0])
		snprintf(err, errsz, "%s: %s", spec, h.err);
	if (ret)
		return ret;
	if (sqlite3_prepare_v2(h.db, "SELECT doc FROM runs WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			found = true;
			doc = json_loads((const char *)sqlite3_column_text(st, 0) ?: "", 0, &jerr);
		}
		sqlite3_finalize(st);
	}
	history_close(&h);
	if (found && !doc) {
		/* the row is there, its document is not JSON: say so, not "no run" */
		snprintf(err, errsz, "%s: run %ld's stored document in %s is damaged (line %d, column %d: %s): it cannot be read back",
			 spec, id, path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	if (!doc) {
		snprintf(err, errsz, "%s: no run %ld in %s (bench history list shows the ids)", spec,
			 id, path);
		return -ENOENT;
	}
	return result_file_load_doc(spec, doc, rf, err, errsz);
}
