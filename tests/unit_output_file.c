// SPDX-License-Identifier: GPL-2.0
/*
 * output_file on every kind of path it must handle: new and existing
 * regular files, symlinks, a FIFO with a reader, stdout and open
 * descriptors, /dev/full, a full tmpfs (in a private mount namespace) and
 * paths it must refuse.  After every failure, nothing may be left.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output_file.h"
#include "tap.h"

static char dir[PATH_MAX / 2];

static const char *at(const char *name)
{
	static char buf[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

/* the whole content of a file, or "" */
static const char *slurp(const char *path)
{
	static char buf[4096];
	ssize_t n = 0, r;
	int fd = open(path, O_RDONLY);

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	buf[n] = '\0';
	close(fd);
	return buf;
}

/* entries in d whose name contains ".tmp." */
static int tmp_files(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	if (!dp)
		return -1;
	while ((e = readdir(dp)))
		if (strstr(e->d_name, ".tmp."))
			n++;
	closedir(dp);
	return n;
}

static int entries(const char *d)
{
	DIR *dp = opendir(d);
	int n = 0;

	if (!dp)
		return -1;
	while (readdir(dp))
		n++;
	closedir(dp);
	return n;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : st.st_mode;
}

static void skip(const char *why, const char *what)
{
	tap_n++;
	printf("ok %d - %s # SKIP %s\n", tap_n, what, why);
}

static void test_regular(void)
{
	const char *p = at("new.json");

	umask(027);
	is_int(output_file_check(p), 0, "new file: check passes");
	is_int(entries(dir), 2, "new file: the check created nothing");
	is_int(output_file_write(p, "one\n", 4), 0, "new file: written");
	is_str(slurp(p), "one\n", "new file: content");
	is_int(mode_of(p) & 07777, 0640, "new file: mode 0666 less the umask (027)");
	is_int(tmp_files(dir), 0, "new file: no temporary file left");

	chmod(p, 0604);
	umask(022);
	is_int(output_file_write(p, "two\n", 4), 0, "existing file: written");
	is_str(slurp(p), "two\n", "existing file: content replaced");
	is_int(mode_of(p) & 07777, 0604, "existing file: its mode is kept, not the umask's");
	unlink(p);
}

static void test_stream(void)
{
	const char *p = at("stream.txt");
	struct output_file *of;

	is_int(output_file_open(&of, p), 0, "stream: open");
	fprintf(output_file_stream(of), "%s %d\n", "abc", 42);
	ok(access(p, F_OK) && errno == ENOENT, "stream: nothing at the path before commit");
	is_int(output_file_commit(of), 0, "stream: commit");
	is_str(slurp(p), "abc 42\n", "stream: content");

	is_int(output_file_open(&of, p), 0, "abort: open");
	fprintf(output_file_stream(of), "never\n");
	output_file_abort(of);
	is_str(slurp(p), "abc 42\n", "abort: the file is untouched");
	is_int(tmp_files(dir), 0, "abort: no temporary file");
	unlink(p);
}

static void test_symlinks(void)
{
	char sub[PATH_MAX];

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	mkdir(sub, 0755);
	output_file_write(at("sub/target"), "old\n", 4);
	symlink("sub/target", at("link"));
	is_int(output_file_write(at("link"), "new\n", 4), 0, "symlink: written");
	ok(S_ISLNK(mode_of(at("link"))), "symlink: still a symlink");
	is_str(slurp(at("sub/target")), "new\n", "symlink: its target has the new content");
	is_int(tmp_files(dir) + tmp_files(sub), 0, "symlink: no temporary file in either directory");

	symlink("sub/absent", at("dangling"));
	is_int(output_file_check(at("dangling")), 0, "dangling symlink: check passes");
	is_int(output_file_write(at("dangling"), "made\n", 5), 0, "dangling symlink: written");
	ok(S_ISLNK(mode_of(at("dangling"))), "dangling symlink: still a symlink");
	is_str(slurp(at("sub/absent")), "made\n", "dangling symlink: what it pointed at now exists");

	symlink("loop2", at("loop1"));
	symlink("loop1", at("loop2"));
	is_int(output_file_write(at("loop1"), "x", 1), -ELOOP, "symlink loop: ELOOP");
	ok(S_ISLNK(mode_of(at("loop1"))), "symlink loop: the link is left alone");
	unlink(at("loop1"));
	unlink(at("loop2"));
	unlink(at("dangling"));
	unlink(at("sub/absent"));
	unlink(at("link"));
	unlink(at("sub/target"));
	rmdir(sub);
}

static void test_fifo(void)
{
	const char *p = at("fifo"), *got = at("fifo.got");
	int status, fd, out;
	pid_t pid;
	char buf[64];
	ssize_t n;

	mkfifo(p, 0644);
	pid = fork();
	if (pid == 0) {
		fd = open(p, O_RDONLY);
		out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n)
				_exit(2);
		_exit(n < 0);
	}
	is_int(output_file_check(p), 0, "FIFO: check passes");
	is_int(output_file_write(p, "through the fifo\n", 17), 0, "FIFO with a reader: written");
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "FIFO: the reader saw end of file");
	is_str(slurp(got), "through the fifo\n", "FIFO: the reader got the content");
	ok(S_ISFIFO(mode_of(p)), "FIFO: still a FIFO");
	is_int(tmp_files(dir), 0, "FIFO: no temporary file");
	unlink(p);
	unlink(got);
}

static void test_fds(void)
{
	int pfd[2], saved;
	char path[64], buf[64];
	ssize_t n;

	/* "-": stdout is TAP here, so point descriptor 1 at a pipe meanwhile */
	if (pipe(pfd))
		return;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(pfd[1], STDOUT_FILENO);
	n = output_file_write("-", "to stdout\n", 10);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	is_int(n, 0, "'-': written");
	n = read(pfd[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf, "to stdout\n", "'-': the content is on stdout");
	ok(output_file_is_stdout("-") && output_file_is_stdout("/dev/stdout") &&
	   output_file_is_stdout("/dev/fd/1") && !output_file_is_stdout("/dev/fd/10") &&
	   !output_file_is_stdout("out.json"), "'-', /dev/stdout and /dev/fd/1 name stdout");

	snprintf(path, sizeof(path), "/dev/fd/%d", pfd[1]);
	is_int(output_file_write(path, "to fd\n", 6), 0, "/dev/fd/N: written to that descriptor");
	n = read(pfd[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf, "to fd\n", "/dev/fd/N: content");

	/* the reader went away: EPIPE, and this process is still alive */
	close(pfd[0]);
	is_int(output_file_write(path, "x", 1), -EPIPE, "closed reader: EPIPE, not death by SIGPIPE");
	close(pfd[1]);
	is_int(output_file_check(path), -EBADF, "closed descriptor: check says EBADF");
	is_int(output_file_write(path, "x", 1), -EBADF, "closed descriptor: write fails with EBADF");
}

static void test_refused(void)
{
	is_int(output_file_check(dir), -EISDIR, "directory: refused by the check");
	is_int(output_file_write(dir, "x", 1), -EISDIR, "directory: refused");
	is_int(output_file_check(at("no/such/dir/f")), -ENOENT, "missing directory: ENOENT");
	is_int(output_file_write(at("no/such/dir/f"), "x", 1), -ENOENT,
	       "missing directory: write fails");
	is_int(output_file_check(""), -ENOENT, "empty path: ENOENT");
	if (geteuid() == 0 && !mknod(at("blk"), S_IFBLK | 0600, makedev(7, 200))) {
		is_int(output_file_write(at("blk"), "x", 1), -EINVAL, "block device: refused");
		ok(S_ISBLK(mode_of(at("blk"))), "block device: still the node");
		unlink(at("blk"));
	} else {
		skip("not root: cannot mknod", "block device: refused");
	}
	is_int(entries(dir), 2, "refused paths: nothing created");
}

static void test_dev_full(void)
{
	const char *p = "/dev/full";

	/* as root, a node of our own: a bug must not replace the real one */
	if (geteuid() == 0) {
		p = at("full");
		if (mknod(p, S_IFCHR | 0666, makedev(1, 7))) {
			skip("mknod failed", "/dev/full");
			return;
		}
	}
	is_int(output_file_check(p), 0, "/dev/full: check passes (a write may not fail)");
	is_int(output_file_write(p, "x\n", 2), -ENOSPC, "/dev/full: ENOSPC");
	ok(S_ISCHR(mode_of(p)), "/dev/full: still a character device");
	is_int(tmp_files(dir), 0, "/dev/full: no temporary file");
	if (p != (const char *)"/dev/full")
		unlink(p);
}

/*
 * A tiny tmpfs, in a child with its own mount namespace: the mount goes
 * with it, whatever happens.  The child reports TAP lines on a pipe.
 */
static void test_full_tmpfs(void)
{
	char mnt[PATH_MAX], fill[PATH_MAX + 8], line[256];
	static char big[256 * 1024];
	int pfd[2], status, fd, n, free_space;
	FILE *f;
	pid_t pid;

	if (geteuid() != 0) {
		skip("not root: cannot mount", "full tmpfs");
		return;
	}
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	mkdir(mnt, 0755);
	if (pipe(pfd))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		f = fdopen(pfd[1], "w");
		if (unshare(CLONE_NEWNS) ||
		    /* type and source are ignored here; valgrind wants them set */
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
		    mount("tmpfs", mnt, "tmpfs", 0, "size=64k")) {
			fprintf(f, "skip cannot mount a tmpfs in a private namespace: %s\n",
				strerror(errno));
			_exit(0);
		}
		/* a file the size of the whole: what remains of it is the room left */
		memset(big, 'x', sizeof(big));
		snprintf(fill, sizeof(fill), "%s/half", mnt);
		fd = open(fill, O_WRONLY | O_CREAT, 0644);
		free_space = write(fd, big, 32 * 1024) == 32 * 1024;
		close(fd);
		/* room left, but not enough: the failure comes while writing */
		fprintf(f, "%d not full: check passes\n", output_file_check(at("mnt/r.json")) == 0);
		n = output_file_write(at("mnt/r.json"), big, sizeof(big));
		fprintf(f, "%d too big for what is left: ENOSPC (got %d)\n", n == -ENOSPC && free_space, n);
		fprintf(f, "%d too big: no file at the path\n", access(at("mnt/r.json"), F_OK) != 0);
		fprintf(f, "%d too big: no temporary file\n", tmp_files(mnt) == 0);
		/* now full to the last block */
		snprintf(fill, sizeof(fill), "%s/filler", mnt);
		fd = open(fill, O_WRONLY | O_CREAT, 0644);
		while (write(fd, big, sizeof(big)) > 0)
			;
		close(fd);
		fprintf(f, "%d full: the check says ENOSPC\n",
			output_file_check(at("mnt/r.json")) == -ENOSPC);
		n = output_file_write(at("mnt/r.json"), "{}\n", 3);
		fprintf(f, "%d full: ENOSPC (got %d)\n", n == -ENOSPC, n);
		fprintf(f, "%d full: nothing left but the filler files (%d entries)\n",
			entries(mnt) == 4, entries(mnt));
		fclose(f);
		_exit(0);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "skip ", 5))
			skip(line + 5, "full tmpfs");
		else
			ok(line[0] == '1', "full tmpfs: %s", line + 2);
	}
	fclose(f);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "full tmpfs: the child exited cleanly");
	rmdir(mnt);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/unit-output-file.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		printf("1..0 # SKIP cannot create a temporary directory\n");
		return 0;
	}
	test_regular();
	test_stream();
	test_symlinks();
	test_fifo();
	test_fds();
	test_refused();
	test_dev_full();
	test_full_tmpfs();
	is_int(entries(dir), 2, "the test directory is empty at the end");
	rmdir(dir);
	return done_testing();
}
