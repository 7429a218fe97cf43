// SPDX-License-Identifier: GPL-2.0
/*
 * Writing an output file without ever replacing what its path names by
 * something else: see output_file.h for the rules.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "output_file.h"

enum output_kind {
	OUT_REPLACE,	/* regular file or new path: temporary file + rename */
	OUT_FD,		/* an already open descriptor: "-", /dev/stdout, ... */
	OUT_NODE,	/* FIFO, character device, socket: opened in place */
};

struct output_target {
	enum output_kind kind;
	int fd;				/* OUT_FD */
	bool exists;			/* OUT_REPLACE: replacing a file */
	struct stat st;			/* OUT_REPLACE: the file replaced */
	char path[PATH_MAX];		/* OUT_REPLACE, OUT_NODE */
};

struct output_file {
	struct output_target t;
	FILE *stream;
	char *buf;
	size_t len;
};

/* standard output's first failed write's -errno (output_stdout_init()'s stream, a precheck) */
static int stdout_err;

/* "-" and the names of an open descriptor: -1 when path is none of them */
static int fd_of_path(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/" };
	const char *p = NULL;
	char *end;
	size_t i;
	long fd;

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]) && !p; i++)
		if (!strncmp(path, prefixes[i], strlen(prefixes[i])))
			p = path + strlen(prefixes[i]);
	if (!p || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	fd = strtol(p, &end, 10);
	if (errno || *end || fd > INT_MAX)
		return -1;
	return fd;
}

int output_file_is_stdout(const char *path)
{
	return fd_of_path(path) == STDOUT_FILENO;
}

const char *output_file_name(const char *path)
{
	return output_file_is_stdout(path) ? "standard output" : path;
}

static int dir_of(const char *path, char *dir, size_t sz)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return snprintf(dir, sz, ".") >= (int)sz ? -ENAMETOOLONG : 0;
	if (slash == path)
		return snprintf(dir, sz, "/") >= (int)sz ? -ENAMETOOLONG : 0;
	if ((size_t)(slash - path) >= sz)
		return -ENAMETOOLONG;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	return 0;
}

/*
 * A dangling symlink: writing through it creates what it points at, as a
 * shell's ">" does, so the link ends up pointing at the new content.
 */
static int follow_dangling(const char *path, char *out, size_t sz)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	ssize_t n;
	int i, err;

	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (i = 0; i < 40; i++) {
		if (lstat(cur, &st)) {
			if (errno != ENOENT)
				return -errno;
			return snprintf(out, sz, "%s", cur) >= (int)sz ? -ENAMETOOLONG : 0;
		}
		if (!S_ISLNK(st.st_mode))
			return -EEXIST;	/* appeared meanwhile: let the caller look again */
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		if (link[0] == '/') {
			memcpy(cur, link, n + 1);
			continue;
		}
		err = dir_of(cur, dir, sizeof(dir));
		if (err)
			return err;
		if (snprintf(cur, sizeof(cur), "%s/%s", dir, link) >= (int)sizeof(cur))
			return -ENAMETOOLONG;
	}
	return -ELOOP;
}

static int resolve(const char *path, struct output_target *t)
{
	struct stat st;
	int err;

	memset(t, 0, sizeof(*t));
	if (!*path)
		return -ENOENT;
	t->fd = fd_of_path(path);
	if (t->fd >= 0) {
		t->kind = OUT_FD;
		return 0;
	}
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return -errno;
		t->kind = OUT_REPLACE;
		err = follow_dangling(path, t->path, sizeof(t->path));
		return err == -EEXIST ? -EAGAIN : err;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	/* a result written over a disk is a lost disk */
	if (S_ISBLK(st.st_mode))
		return -EINVAL;
	if (S_ISREG(st.st_mode)) {
		t->kind = OUT_REPLACE;
		t->exists = true;
		t->st = st;
		/* the temporary file must be in the directory of the file itself */
		if (!realpath(path, t->path))
			return -errno;
		return 0;
	}
	t->kind = OUT_NODE;
	return snprintf(t->path, sizeof(t->path), "%s", path) >= (int)sizeof(t->path) ?
	       -ENAMETOOLONG : 0;
}

int output_file_precheck(const char *opt, const char *path)
{
	int err = output_file_check(path);

	if (!err)
		return 0;
	/* said once, at the command's end (bench.c), as any standard output that failed */
	if (output_file_is_stdout(path)) {
		if (!stdout_err)
			stdout_err = err;
		return err;
	}
	fprintf(stderr, "invalid %s '%s': cannot write there: %s\n", opt, path, strerror(-err));
	return -EINVAL;
}

int output_file_check(const char *path)
{
	struct output_target t;
	char dir[PATH_MAX];
	struct statvfs vfs;
	struct stat st;
	int err, fl;

	err = resolve(path, &t);
	if (err)
		return err;
	switch (t.kind) {
	case OUT_FD:
		fl = fcntl(t.fd, F_GETFL);
		if (fl < 0)
			return -errno;
		return (fl & O_ACCMODE) == O_RDONLY ? -EBADF : 0;
	case OUT_NODE:
		return access(t.path, W_OK) ? -errno : 0;
	case OUT_REPLACE:
		break;
	}
	err = dir_of(t.path, dir, sizeof(dir));
	if (err)
		return err;
	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* EROFS and EACCES; root passes EACCES, as it would when writing */
	if (access(dir, W_OK | X_OK))
		return -errno;
	/* a full file system fails the write at the end, not just the run */
	if (!statvfs(dir, &vfs) &&
	    (vfs.f_bavail == 0 || (vfs.f_files && vfs.f_favail == 0)))
		return -ENOSPC;
	return 0;
}

int output_file_open(struct output_file **ofp, const char *path)
{
	struct output_file *of;
	int err;

	*ofp = NULL;
	of = calloc(1, sizeof(*of));
	if (!of)
		return -ENOMEM;
	err = resolve(path, &of->t);
	if (err) {
		free(of);
		return err;
	}
	of->stream = open_memstream(&of->buf, &of->len);
	if (!of->stream) {
		err = -errno;
		free(of);
		return err;
	}
	*ofp = of;
	return 0;
}

FILE *output_file_stream(struct output_file *of)
{
	return of->stream;
}

void output_file_abort(struct output_file *of)
{
	if (!of)
		return;
	if (of->stream)
		fclose(of->stream);
	free(of->buf);
	free(of);
}

/*
 * All of buf, or -errno.  SIGPIPE is blocked meanwhile so that a reader
 * going away is EPIPE, an error like any other, rather than the end of the
 * process; a SIGPIPE this write raised is consumed, one that was pending
 * before is left.
 */
static int write_all(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old, pending;
	bool was_pending;
	struct timespec zero = {};
	ssize_t n;
	int err = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	while (len) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0) {
			err = -EIO;
			break;
		}
		buf += n;
		len -= n;
	}
	if (err == -EPIPE && !was_pending)
		sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

/*
 * A FIFO nobody reads yet: wait for a reader, but give up when a signal
 * that ends the run is pending (the runner blocks them and takes them with
 * sigwait(), so a blocking open() would be deaf to Ctrl-C).
 */
static int open_node(const char *path)
{
	const int stop[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct timespec tick = { .tv_nsec = 50 * 1000000L };
	sigset_t pending;
	size_t i;
	int fd, fl;

	for (;;) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0)
			break;
		if (errno != ENXIO)
			return -errno;
		sigpending(&pending);
		for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
			if (sigismember(&pending, stop[i]))
				return -EINTR;
		nanosleep(&tick, NULL);
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		fl = -errno;
		close(fd);
		return fl;
	}
	return fd;
}

static int commit_replace(const struct output_target *t, const char *buf, size_t len)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	mode_t mask;
	int fd, dfd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", t->path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (t->exists) {
		/* best effort: only root may give a file away */
		if (fchown(fd, t->st.st_uid, t->st.st_gid))
			(void)0;
		err = fchmod(fd, t->st.st_mode & 07777) ? -errno : 0;
	} else {
		/* mkstemp's 0600 is not what any other new file would get */
		mask = umask(0);
		umask(mask);
		err = fchmod(fd, 0666 & ~mask) ? -errno : 0;
	}
	if (!err)
		err = write_all(fd, buf, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, t->path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	/* the rename itself survives a crash only once the directory is synced */
	if (!dir_of(t->path, dir, sizeof(dir))) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	return 0;
}

/* whether anything reached standard output (cli_json's error object) */
static bool stdout_used;

int output_file_commit(struct output_file *of)
{
	int fd, err;

	if (fclose(of->stream)) {
		of->stream = NULL;
		err = -errno;
		goto out;
	}
	of->stream = NULL;
	switch (of->t.kind) {
	case OUT_REPLACE:
		err = commit_replace(&of->t, of->buf, of->len);
		break;
	case OUT_FD:
		/* what the process printed there before comes first */
		if (of->t.fd == STDOUT_FILENO)
			fflush(stdout), stdout_used |= of->len > 0;
		else if (of->t.fd == STDERR_FILENO)
			fflush(stderr);
		err = write_all(of->t.fd, of->buf, of->len);
		break;
	case OUT_NODE:
		fd = open_node(of->t.path);
		if (fd < 0) {
			err = fd;
			break;
		}
		err = write_all(fd, of->buf, of->len);
		if (close(fd) && !err)
			err = -errno;
		break;
	default:
		err = -EINVAL;
	}
out:
	output_file_abort(of);
	return err;
}

int output_file_write(const char *path, const void *buf, size_t len)
{
	struct output_file *of;
	int err;

	err = output_file_open(&of, path);
	if (err)
		return err;
	if (len && fwrite(buf, 1, len, of->stream) != len) {
		output_file_abort(of);
		return -ENOMEM;
	}
	return output_file_commit(of);
}

/* ---- standard output ---- */

static ssize_t stdout_write(void *cookie, const char *buf, size_t len)
{
	int err = stdout_err ? stdout_err : write_all(STDOUT_FILENO, buf, len);

	stdout_used |= len > 0;
	if (!err)
		return len;
	stdout_err = err;
	errno = -err;
	/* fopencookie(3): 0 is the error */
	return 0;
}

int output_stdout_init(void)
{
	cookie_io_functions_t io = { .write = stdout_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return -errno;
	if (setvbuf(f, NULL, _IOLBF, 0)) {
		fclose(f);
		return -ENOMEM;
	}
	stdout = f;
	return 0;
}

int output_stdout_error(void)
{
	int err = fflush(stdout) ? -errno : 0;

	if (!stdout_err && (err || ferror(stdout)))
		/* stdio's own stdout (init failed): the errno may be lost */
		stdout_err = err ? err : -EIO;
	return stdout_err;
}

bool output_stdout_used(void)
{
	fflush(stdout);
	return stdout_used;
}

int output_stdout_close(void)
{
	int err = output_stdout_error(), fd;

	if (err)
		return err;
	fd = dup(STDOUT_FILENO);
	if (fd >= 0 && close(fd))
		stdout_err = errno == EINTR ? 0 : -errno;
	return stdout_err;
}
