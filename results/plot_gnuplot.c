// SPDX-License-Identifier: GPL-2.0
/*
 * bench plot, the impure half: run gnuplot through pipes (script in, the
 * picture out, its complaints from stderr) and write the picture.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "output_file.h"
#include "plot.h"
#include "testing_helpers.h"

extern char **environ;

/* seconds gnuplot may take unless BENCH_GNUPLOT_TIMEOUT says otherwise */
#define GNUPLOT_TIMEOUT_SEC 120

#define GNUPLOT_TIMEOUT_SEC 120

struct growbuf {
	char *p;
	size_t len, cap;
};

/* a running gnuplot: its pipes (our ends, -1 once closed) and what it said */
struct gnuplot {
	pid_t pid;
	int in, out, err;
	struct growbuf ob, eb;
	const char *script;
	size_t off, len;
	struct timespec start, deadline;
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

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* milliseconds to the deadline, 0 once passed */
static int ms_left(const struct timespec *deadline)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? ms : 0;
}

/* the script's next part into gnuplot's stdin; it quitting early is no error here */
static void feed(struct gnuplot *g)
{
	ssize_t n = write(g->in, g->script + g->off, g->len - g->off);

	if (n < 0 && errno != EINTR && errno != EAGAIN) {
		/* gnuplot quit early: its stderr says why */
		close_fd(&g->in);
		return;
	}
	g->off += n > 0 ? n : 0;
	if (g->off == g->len)
		close_fd(&g->in);
}

/* what is there to read on *fd into b; at its end *fd is closed.  0 or -errno */
static int drain(int *fd, struct growbuf *b)
{
	int ret = grow_read(*fd, b);

	if (ret == 0)
		close_fd(fd);
	return ret < 0 ? ret : 0;
}

/*
 * Script to stdin, output from stdout, messages from stderr, all at once:
 * a large picture fills the stdout pipe while the script is still being
 * written, so one at a time could deadlock.  Until both outputs end, or
 * the deadline: 0, -ETIMEDOUT or -errno.
 */
static int pump(struct gnuplot *g)
{
	struct pollfd p[3];
	int np, i, err = 0, ms;

	while (!err && (g->out >= 0 || g->err >= 0)) {
		ms = ms_left(&g->deadline);
		if (!ms)
			return -ETIMEDOUT;
		np = 0;
		if (g->in >= 0)
			p[np++] = (struct pollfd){ .fd = g->in, .events = POLLOUT };
		if (g->out >= 0)
			p[np++] = (struct pollfd){ .fd = g->out, .events = POLLIN };
		if (g->err >= 0)
			p[np++] = (struct pollfd){ .fd = g->err, .events = POLLIN };
		if (poll(p, np, ms) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (i = 0; !err && i < np; i++) {
			if (!p[i].revents)
				continue;
			if (p[i].fd == g->in)
				feed(g);
			else if (p[i].fd == g->out)
				err = drain(&g->out, &g->ob);
			else
				err = drain(&g->err, &g->eb);
		}
	}
	return err;
}

/*
 * How long gnuplot may take, BENCH_GNUPLOT_TIMEOUT seconds (default 120;
 * a day's timeline takes a few): a gnuplot that hangs is killed then.
 * 0, or -EINVAL after one line.
 */
static int set_deadline(struct gnuplot *g)
{
	const char *s = getenv("BENCH_GNUPLOT_TIMEOUT");
	long sec = GNUPLOT_TIMEOUT_SEC;

	if (s && parse_long(s, 1, 86400, &sec)) {
		fprintf(stderr, "invalid BENCH_GNUPLOT_TIMEOUT '%s': expected seconds in 1..86400\n", s);
		return -EINVAL;
	}
	clock_gettime(CLOCK_MONOTONIC, &g->start);
	g->deadline = g->start;
	g->deadline.tv_sec += sec;
	return 0;
}

/* a locale whose character set is UTF-8, and which this system has */
static bool utf8_locale(const char *name)
{
	locale_t l = newlocale(LC_CTYPE_MASK, name, (locale_t)0);
	bool ok;

	if (!l)
		return false;
	ok = !strcmp(nl_langinfo_l(CODESET, l), "UTF-8");
	freelocale(l);
	return ok;
}

/*
 * gnuplot's environment: ours, with LC_ALL set to a UTF-8 locale the
 * system has when ours is not one (C or POSIX, LANG unset: cron, env -i,
 * containers), where gnuplot warns that it cannot convert the degree sign
 * of the UTF-8 our scripts are written in.  NULL when out of memory.
 */
static char **gnuplot_env(void)
{
	static const char *const fallbacks[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };
	static char lc_all[32];
	size_t n = 0, i, j;
	char **envp;

	while (environ[n])
		n++;
	envp = calloc(n + 2, sizeof(*envp));
	if (!envp)
		return NULL;
	memcpy(envp, environ, n * sizeof(*envp));
	if (utf8_locale(""))
		return envp;
	for (i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		if (!utf8_locale(fallbacks[i]))
			continue;
		/* in LC_ALL's place, or after the rest */
		for (j = 0; j < n && strncmp(envp[j], "LC_ALL=", 7); j++)
			;
		snprintf(lc_all, sizeof(lc_all), "LC_ALL=%s", fallbacks[i]);
		envp[j] = lc_all;
		break;
	}
	return envp;
}

/* gnuplot started on three pipes: 0, or -errno (never -EINVAL) after one line */
static int spawn(struct gnuplot *g)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 }, err;
	char *argv[] = { "gnuplot", NULL }, **envp;
	posix_spawn_file_actions_t fa;

	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
		err = -errno;
		fprintf(stderr, "failed to create pipes for gnuplot: %s\n", strerror(-err));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	envp = gnuplot_env();
	err = envp ? -posix_spawnp(&g->pid, "gnuplot", &fa, NULL, argv, envp) : -ENOMEM;
	posix_spawn_file_actions_destroy(&fa);
	free(envp);
	if (err == -ENOENT)
		fprintf(stderr, "bench plot draws with gnuplot, which is not installed: install gnuplot-nox (apt-get install gnuplot-nox) or run scripts/install-deps.sh\n");
	else if (err)
		fprintf(stderr, "failed to start gnuplot: %s\n", strerror(-err));
	if (!err) {
		g->in = pin[1];
		g->out = pout[0];
		g->err = perr[0];
		pin[1] = pout[0] = perr[0] = -1;
	}
out:
	close_fd(&pin[0]), close_fd(&pin[1]);
	close_fd(&pout[0]), close_fd(&pout[1]);
	close_fd(&perr[0]), close_fd(&perr[1]);
	return err;
}

/* gnuplot's messages on our stderr, a line each, saying whose they are */
static void show_messages(const struct growbuf *eb)
{
	const char *line = eb->p, *end;

	while (line && *line) {
		end = strchrnul(line, '\n');
		if (end > line && strspn(line, " ^") < (size_t)(end - line))
			fprintf(stderr, "gnuplot: %.*s\n", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
}

/*
 * Whether it drew: gnuplot's exit status and a picture say so, and its
 * warnings ("all points undefined", a locale it cannot convert to) are
 * shown, not taken for a failure.  0, or -EIO after one line.
 */
static int judge(int status, struct growbuf *eb, const struct growbuf *ob)
{
	char *nl = NULL, *line, *save = NULL;

	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		show_messages(eb);
		if (ob->len)
			return 0;
		fprintf(stderr, "gnuplot failed: it drew nothing\n");
		return -EIO;
	}
	if (!WIFEXITED(status)) {
		fprintf(stderr, "gnuplot failed (killed by signal %d)\n", WTERMSIG(status));
		return -EIO;
	}
	/* gnuplot echoes the failed command, then "line N: what went wrong" last */
	for (line = eb->p ? strtok_r(eb->p, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ')
			line++;
		if (*line && strcmp(line, "^"))
			nl = line;
	}
	fprintf(stderr, "gnuplot failed (exit %d): %s\n", WEXITSTATUS(status),
		nl && *nl ? nl : "no message");
	return -EIO;
}

int plot_run_gnuplot(const char *script, char **out, size_t *len)
{
	struct gnuplot g = { .in = -1, .out = -1, .err = -1, .script = script,
			     .len = strlen(script) };
	void (*old_pipe)(int);
	int err, status;

	*out = NULL;
	*len = 0;
	err = set_deadline(&g);
	if (!err)
		err = spawn(&g);
	if (err)
		return err;
	/* an early exit of gnuplot must be an error message, not our death */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	err = pump(&g);
	signal(SIGPIPE, old_pipe);
	if (err == -ETIMEDOUT)
		kill(g.pid, SIGKILL);
	close_fd(&g.in), close_fd(&g.out), close_fd(&g.err);
	while (waitpid(g.pid, &status, 0) < 0)
		if (errno != EINTR) {
			err = err ?: -errno;
			break;
		}
	if (err == -ETIMEDOUT)
		fprintf(stderr, "gnuplot did not finish within %ld s (BENCH_GNUPLOT_TIMEOUT): killed\n",
			(long)(g.deadline.tv_sec - g.start.tv_sec));
	else if (err)
		fprintf(stderr, "failed to run gnuplot: %s\n", strerror(-err));
	else
		err = judge(status, &g.eb, &g.ob);
	if (!err) {
		*out = g.ob.p;
		*len = g.ob.len;
		g.ob.p = NULL;
	}
	free(g.ob.p);
	free(g.eb.p);
	return err;
}

/* ---- output ---- */

/*
 * bench plot writes like --json: one module for every file bench writes.
 * A path that cannot be written is a bad -o, refused as bad input
 * (-EINVAL); a standard output that cannot be is a failure (its -errno).
 */
int plot_check_output(const char *path)
{
	return output_file_precheck("-o", path);
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
