// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot, the impure half: run gnuplot through pipes (script in, the
 * picture out, its complaints from stderr) and write the picture.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output_file.h"
#include "plot.h"

extern char **environ;

struct growbuf {
	char *p;
	size_t len, cap;
};

static int grow_read(int fd, struct growbuf *b)
{
	ssize_t n;

	if (b->cap - b->len < 65536) {
		size_t cap = b->cap ? b->cap * 2 : 131072;
		char *p = realloc(b->p, cap + 1);

		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	n = read(fd, b->p + b->len, b->cap - b->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	b->len += n;
	b->p[b->len] = '\0';
	return n > 0;
}

/*
 * Script to stdin, output from stdout, messages from stderr, all at once:
 * a large picture fills the stdout pipe while the script is still being
 * written, so one at a time could deadlock.
 */
static int pump(int in, const char *script, int out, int err, struct growbuf *ob,
		struct growbuf *eb)
{
	size_t off = 0, len = strlen(script);
	int ret;

	while (out >= 0 || err >= 0) {
		struct pollfd p[3];
		int np = 0, i;

		if (in >= 0)
			p[np++] = (struct pollfd){ .fd = in, .events = POLLOUT };
		if (out >= 0)
			p[np++] = (struct pollfd){ .fd = out, .events = POLLIN };
		if (err >= 0)
			p[np++] = (struct pollfd){ .fd = err, .events = POLLIN };
		if (poll(p, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (i = 0; i < np; i++) {
			if (!p[i].revents)
				continue;
			if (p[i].fd == in) {
				ssize_t n = write(in, script + off, len - off);

				if (n < 0 && errno != EINTR && errno != EAGAIN) {
					/* gnuplot quit early: its stderr says why */
					close(in);
					in = -1;
					continue;
				}
				off += n > 0 ? n : 0;
				if (off == len) {
					close(in);
					in = -1;
				}
			} else {
				struct growbuf *b = p[i].fd == out ? ob : eb;

				ret = grow_read(p[i].fd, b);
				if (ret < 0)
					return ret;
				if (ret == 0) {
					close(p[i].fd);
					if (p[i].fd == out)
						out = -1;
					else
						err = -1;
				}
			}
		}
	}
	if (in >= 0)
		close(in);
	return 0;
}

int plot_run_gnuplot(const char *script, char **out, size_t *len)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	char *argv[] = { "gnuplot", NULL };
	struct growbuf ob = {}, eb = {};
	posix_spawn_file_actions_t fa;
	void (*old_pipe)(int);
	int err, status;
	pid_t pid;

	*out = NULL;
	*len = 0;
	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
		err = -errno;
		fprintf(stderr, "failed to create pipes for gnuplot: %s\n", strerror(-err));
		goto out_close;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	err = -posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err == -ENOENT) {
		fprintf(stderr, "bench plot draws with gnuplot, which is not installed: install gnuplot-nox (apt-get install gnuplot-nox) or run scripts/install-deps.sh\n");
		goto out_close;
	}
	if (err) {
		fprintf(stderr, "failed to start gnuplot: %s\n", strerror(-err));
		goto out_close;
	}
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	pin[0] = pout[1] = perr[1] = -1;
	/* an early exit of gnuplot must be an error message, not our death */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	err = pump(pin[1], script, pout[0], perr[0], &ob, &eb);
	signal(SIGPIPE, old_pipe);
	pin[1] = pout[0] = perr[0] = -1;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = err ?: -errno;
			break;
		}
	}
	if (err) {
		fprintf(stderr, "failed to run gnuplot: %s\n", strerror(-err));
		goto out;
	}
	/*
	 * Any message is a failure: the scripts are made to draw cleanly, and
	 * a warning ("all points undefined", "skipping data") means a chart
	 * that does not show what it claims.
	 */
	if (!WIFEXITED(status) || WEXITSTATUS(status) || eb.len) {
		char *nl = NULL, *line, *save = NULL;

		/* gnuplot echoes the failed command, then "line N: what went wrong" last */
		for (line = eb.p ? strtok_r(eb.p, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save)) {
			while (*line == ' ')
				line++;
			if (*line && strcmp(line, "^"))
				nl = line;
		}
		if (WIFEXITED(status))
			fprintf(stderr, "gnuplot failed (exit %d): %s\n", WEXITSTATUS(status),
				nl && *nl ? nl : "no message");
		else
			fprintf(stderr, "gnuplot failed (killed by signal %d)\n", WTERMSIG(status));
		err = -EIO;
		goto out;
	}
	if (!ob.len) {
		fprintf(stderr, "gnuplot failed: it drew nothing\n");
		err = -EIO;
		goto out;
	}
	*out = ob.p;
	*len = ob.len;
	ob.p = NULL;
out:
	free(ob.p);
	free(eb.p);
	return err;
out_close:
	for (int i = 0; i < 2; i++) {
		if (pin[i] >= 0)
			close(pin[i]);
		if (pout[i] >= 0)
			close(pout[i]);
		if (perr[i] >= 0)
			close(perr[i]);
	}
	return err;
}

/* ---- output ---- */

/*
 * bench plot writes like --json: one module for every file bench writes.
 * A path that cannot be written is a bad -o, refused as bad input.
 */
int plot_check_output(const char *path)
{
	return output_file_precheck("-o", path) ? -EINVAL : 0;
}

int plot_write_output(const char *path, const char *buf, size_t len)
{
	int err;

	fflush(stdout);
	err = output_file_write(path, buf, len);
	if (err)
		fprintf(stderr, "failed to write %s: %s\n",
			strcmp(path, "-") ? path : "the chart to standard output", strerror(-err));
	return err;
}
