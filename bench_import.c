// SPDX-License-Identifier: GPL-2.0
/*
 * `bench import`: upstream's runner's output (a log, or a command it runs)
 * and patch mails' tables into result files that compare, ab and the rest
 * read, saying where they came from and what they lack.  The reading is
 * results/import.c's; this file has the command line, the benchmark table
 * (a command line names a benchmark and its options, which our parser
 * reads as the runner would) and the files.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "bench.h"
#include "bench_args.h"
#include "bench_import.h"
#include "output_file.h"
#include "result_file.h"
#include "result_json.h"
#include "results/import.h"

/* the most text import reads: upstream's longest runs print a few KiB */
#define IMPORT_MAX_TEXT (16 << 20)

static struct {
	const char *output;
	const char *command;
	const char *input;
	const char *row;
	int line;
	char **run;		/* -- COMMAND...: run it, import its output */
	int nrun;
} iopts;

enum { ARG_ROW = 1000, ARG_LINE };

static const struct argp_option import_options[] = {
	{ "output", 'o', "FILE", 0, "The result file to write (required; - for standard output)" },
	{ "command", 'C', "CMD", 0,
	  "The command line that printed the text (upstream's bench and its options); without it, "
	  "a runner's text is taken as upstream's defaults for the benchmark it names" },
	{ "row", ARG_ROW, "NAME", 0, "A patch mail: the table row of that name" },
	{ "line", ARG_LINE, "N", 0, "A patch mail: the table row on line N" },
	{},
};

static error_t import_parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;
	long v;

	switch (key) {
	case 'o':
		iopts.output = arg;
		break;
	case 'C':
		iopts.command = arg;
		break;
	case ARG_ROW:
		iopts.row = arg;
		break;
	case ARG_LINE:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || *end || end == arg || v < 1 || v > 1 << 30)
			argp_error(state, "invalid --line '%s': expected a line number, 1 or more", arg);
		iopts.line = v;
		break;
	case ARGP_KEY_ARG:
		if (iopts.input)
			argp_error(state, "a second input '%s': import reads one file (or -- COMMAND)", arg);
		iopts.input = arg;
		break;
	case ARGP_KEY_END:
		if (!iopts.output)
			argp_error(state, "give -o FILE, the result file to write");
		if (!iopts.input && !iopts.nrun)
			argp_error(state, "give the text to import: FILE (- for standard input), or -- COMMAND...");
		if (iopts.input && iopts.nrun)
			argp_error(state, "give FILE or -- COMMAND..., not both");
		if (iopts.nrun && iopts.command)
			argp_error(state, "-- COMMAND... is the command line: --command is for a FILE's");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp import_argp = {
	.options = import_options,
	.parser = import_parse_arg,
	.args_doc = "FILE\n-- COMMAND...",
	.doc = "Turn upstream's runner's output, or a table row of a patch mail, into a result "
	       "file (bench --json's schema) that compare, ab, plot and history read.  The file "
	       "says where it came from (source: upstream-text or patch-mail, the input, the "
	       "command line) and what it lacks: no validity, no context, no counters, and for a "
	       "Summary line or a table row without Iter lines only the printed mean and spread "
	       "(compare then shows the change between the means, untested).  With -- COMMAND..., "
	       "import runs the command, passes its output through and imports it: the form "
	       "bench ab --cmd-b takes to run upstream's binary.  Bad input is one line naming "
	       "the line and the value, status 2, and no file written."
	       "\v"
	       "EXAMPLES:\n"
	       "  bench import -o up.json --command 'bench -w1 -d5 -a htab-mem --use-case overwrite' up.log\n"
	       "  bench import -o up.json -- ./upstream/bench -w1 -d5 -a htab-mem --use-case overwrite\n"
	       "  bench import -o mail.json --line 49 \\\n"
	       "      --command 'bench -w3 -d10 -a -p8 htab-mem --use-case overwrite --preallocated' cover-letter.txt\n"
	       "  bench compare up.json ours.json\n"
	       "  bench ab --cmd-a 'bench -w1 -d2 -a count-local --json \"$BENCH_AB_JSON\"' \\\n"
	       "           --cmd-b 'bench import -o \"$BENCH_AB_JSON\" -- ./upstream/bench -w1 -d2 -a count-local'",
};

/* all of fd, at most IMPORT_MAX_TEXT; copied to stdout when echo (a command's output) */
static int read_all(int fd, const char *name, bool echo, char **text)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap + 1), *nb;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			if (cap >= IMPORT_MAX_TEXT) {
				fprintf(stderr, "import: %s: more than %d MiB: not one run's output\n",
					name, IMPORT_MAX_TEXT >> 20);
				free(buf);
				return -EINVAL;
			}
			nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			fprintf(stderr, "failed to read %s: %s\n", name, strerror(-n));
			free(buf);
			return n;
		}
		if (!n)
			break;
		if (echo)
			fwrite(buf + len, 1, n, stdout);
		len += n;
	}
	if (memchr(buf, '\0', len)) {
		fprintf(stderr, "import: %s: a NUL byte at offset %zu: not text\n", name,
			(size_t)((char *)memchr(buf, '\0', len) - buf));
		free(buf);
		return -EINVAL;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

static int read_input(const char *path, char **text)
{
	int fd, err;

	if (!strcmp(path, "-"))
		return read_all(0, "standard input", false, text);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "failed to read %s: %s\n", path, strerror(-err));
		/* a file that is not there is the caller's mistake */
		return err == -ENOENT || err == -EISDIR ? -EINVAL : err;
	}
	err = read_all(fd, path, false, text);
	close(fd);
	if (err == -EISDIR)
		err = -EINVAL;
	return err;
}

/* -- COMMAND...: run it, its output passed through and kept; 0 when it exited 0 */
/* the command's process group while it runs, and a signal import got meanwhile */
static volatile sig_atomic_t cmd_pgid, cmd_signal;

static void pass_signal(int sig)
{
	cmd_signal = sig;
	if (cmd_pgid > 0)
		kill(-cmd_pgid, sig);
}

/*
 * INT, TERM, HUP and QUIT go on to the command's process group (its
 * children too: a shell script's upstream bench), and import then ends by
 * the same signal once the command has; a signal ignored on entry (a
 * background job's SIGINT) stays ignored
 */
static void pass_signals(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static struct sigaction old[4];
	/* SA_RESTART: the command's output is read on while it is told */
	struct sigaction sa = { .sa_handler = pass_signal, .sa_flags = SA_RESTART };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (!on) {
			sigaction(sigs[i], &old[i], NULL);
			continue;
		}
		sigaction(sigs[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

static int run_command(char **argv, char **text)
{
	int pfd[2], status, err;
	pid_t pid, parent;

	fflush(stdout);
	if (pipe2(pfd, O_CLOEXEC)) {
		err = -errno;
		fprintf(stderr, "failed to create a pipe: %s\n", strerror(-err));
		return err;
	}
	parent = getpid();
	/* before the fork: a signal from here on is passed on (the exec resets them in the child) */
	pass_signals(true);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		pass_signals(false);
		fprintf(stderr, "failed to run %s: %s\n", argv[0], strerror(-err));
		close(pfd[0]);
		close(pfd[1]);
		return err;
	}
	if (!pid) {
		/*
		 * its own process group, which import's signals go on to; import
		 * killed outright (SIGKILL): the command is told too, rather than
		 * left running with no reader of what it prints
		 */
		setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(126);
		if (dup2(pfd[1], 1) < 0)
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "failed to run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	setpgid(pid, pid);
	cmd_pgid = pid;
	/* a signal between the fork and now: passed on here */
	if (cmd_signal)
		kill(-pid, cmd_signal);
	err = read_all(pfd[0], argv[0], true, text);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	cmd_pgid = 0;
	pass_signals(false);
	/* ended as the signal would have ended it, now that the command has */
	if (cmd_signal)
		raise(cmd_signal);
	if (!err && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "import: %s ended by signal %d: nothing imported\n", argv[0],
				WTERMSIG(status));
		else
			fprintf(stderr, "import: %s exited with status %d: nothing imported\n",
				argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		free(*text);
		*text = NULL;
		return -ECHILD;
	}
	return err;
}

/* the options a command line means, as the runner would take them (0 or -EINVAL) */
static int parse_command(int argc, char **argv, const struct bench *const *table, size_t n,
			 const struct bench **bench)
{
	int i;

	/* what would print help or a list rather than run */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ||
		    !strcmp(argv[i], "--usage") || !strcmp(argv[i], "-l") ||
		    !strcmp(argv[i], "--list") || !strcmp(argv[i], "-V") ||
		    !strcmp(argv[i], "--version")) {
			fprintf(stderr, "import: the command line's '%s' runs no benchmark\n", argv[i]);
			return -EINVAL;
		}
	if (bench_args_parse(argc, argv, table, n, bench) || !*bench) {
		fprintf(stderr, "import: the command line does not name a benchmark and options bench takes (above)\n");
		return -EINVAL;
	}
	return 0;
}

/* the benchmark's metric names, as the runner collects them */
static const char **bench_metric_names(const struct bench *bench)
{
	const struct bench_metric *m;
	const char **names;
	int n = 0;

	for (m = bench->metrics; m && m->name; m++)
		n++;
	names = calloc(n + 2, sizeof(*names));
	if (!names)
		return NULL;
	n = 0;
	for (m = bench->metrics; m && m->name; m++)
		names[n++] = m->name;
	if (bench->needs & BENCH_NEEDS_MEMCG)
		names[n++] = bench_memory_metric.name;
	return names;
}

/* the document through its own reader, then written whole or not at all */
static int write_checked(json_t *doc, const char *path)
{
	struct result_file rf;
	char *text, *line, msg[512];
	int err;

	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text || asprintf(&line, "%s\n", text) < 0) {
		free(text);
		fprintf(stderr, "failed to render %s: %s\n", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	free(text);
	/* the reader takes its own reference: doc stays the caller's */
	err = result_file_load_doc(path, json_incref(doc), &rf, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "failed to write %s: its own reader refuses it: %s\n", path, msg);
		free(line);
		return err == -ENOMEM ? err : -EIO;
	}
	result_file_free(&rf);
	err = output_file_write(path, line, strlen(line));
	if (err)
		fprintf(stderr, "failed to write %s: %s\n", output_file_name(path), strerror(-err));
	free(line);
	return err ? -EIO : 0;
}

/* the command line as the file records it, and as our parser takes it */
static int command_words(wordexp_t *we, json_t **cmdline)
{
	size_t i;
	int err;

	*cmdline = NULL;
	if (iopts.nrun) {
		we->we_wordc = iopts.nrun;
		we->we_wordv = iopts.run;
	} else if (iopts.command) {
		err = wordexp(iopts.command, we, WRDE_NOCMD | WRDE_UNDEF);
		if (err || !we->we_wordc) {
			if (!err)
				wordfree(we);
			fprintf(stderr, "import: invalid --command '%s': expected a command line without substitutions\n",
				iopts.command);
			return -EINVAL;
		}
	} else {
		return 0;
	}
	*cmdline = json_array();
	for (i = 0; *cmdline && i < we->we_wordc; i++)
		json_array_append_new(*cmdline, json_string(we->we_wordv[i]));
	return *cmdline ? 0 : -ENOMEM;
}

static const char *const counts_note[] = {
	"summary: of the Iter lines' rates, each per its measured interval (as ours); the Summary line averaged each sample's count, which differs by the intervals' drift from one second",
	NULL,
};

static int do_import(const struct bench *const *table, size_t ntable, const char *text,
		     const char *name)
{
	struct import_pick pick = { .line = iopts.line, .row = iopts.row };
	struct import_meta meta = { .file = name };
	json_t *cmdline = NULL, *doc = NULL, *opts = NULL;
	const struct bench *bench = NULL;
	struct bench_run run = {};
	wordexp_t we = {};
	struct import_log log;
	char err[1024];
	char **argv, *dflt[3];
	int ret, argc, skip = 0;
	bool counts;

	ret = import_parse(name, text, &pick, &log, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "import: %s\n", err);
		goto out;
	}
	ret = command_words(&we, &cmdline);
	if (ret)
		goto out;
	if (cmdline) {
		/* "sudo ./bench ...": the runner's words start at the program */
		skip = we.we_wordc > 1 && !strcmp(we.we_wordv[0], "sudo");
		argv = we.we_wordv + skip;
		argc = we.we_wordc - skip;
	} else if (log.bench[0]) {
		dflt[0] = "bench";
		dflt[1] = log.bench;
		dflt[2] = NULL;
		argv = dflt;
		argc = 2;
	} else {
		fprintf(stderr, "import: %s: a patch mail's table names no benchmark or options: give --command 'bench [OPTIONS] BENCHMARK [ITS OPTIONS]' as the table's runs were made\n",
			name);
		ret = -EINVAL;
		goto out;
	}
	ret = parse_command(argc, argv, table, ntable, &bench);
	if (ret)
		goto out;
	if (log.bench[0] && strcmp(log.bench, bench->name) &&
	    !(bench->alias && !strcmp(log.bench, bench->alias))) {
		fprintf(stderr, "import: %s: the text ran benchmark '%s', but the command line names '%s'\n",
			name, log.bench, bench->name);
		ret = -EINVAL;
		goto out;
	}
	meta.warmup = log.nsamples ? env.warmup_sec : 0;
	if (log.nsamples && log.nsamples <= meta.warmup) {
		fprintf(stderr, "import: %s: %d Iter lines, all of them warm-up (-w %d): no measured sample\n",
			name, log.nsamples, meta.warmup);
		ret = -EINVAL;
		goto out;
	}
	ret = import_check_summary(name, &log, meta.warmup, &counts, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "import: %s\n", err);
		goto out;
	}
	if (counts)
		meta.notes = counts_note;
	run.bench = bench;
	run.env = &env;
	run.producer_cnt = env.producer_cnt;
	run.consumer_cnt = env.consumer_cnt;
	run.repeat_cnt = 1;
	run.repeat_warmup = env.warmup_sec;
	run.repeat_len = env.duration_sec;
	opts = result_json_options(&run);
	meta.want = bench_metric_names(bench);
	if (!opts || !meta.want) {
		fprintf(stderr, "failed to import %s: %s\n", name, strerror(ENOMEM));
		ret = -ENOMEM;
		goto out;
	}
	meta.benchmark = bench->name;
	meta.options = opts;
	meta.command_line = cmdline;
	doc = import_doc(&log, &meta, err, sizeof(err));
	if (!doc) {
		fprintf(stderr, "import: %s\n", err);
		ret = strstr(err, "failed to") == err ? -ENOMEM : -EINVAL;
		goto out;
	}
	ret = write_checked(doc, iopts.output);
out:
	json_decref(doc);
	json_decref(opts);
	json_decref(cmdline);
	free(meta.want);
	if (iopts.command && we.we_wordv)
		wordfree(&we);
	import_log_free(&log);
	return ret;
}

int bench_import_main(int argc, char **argv, const struct bench *const *table, size_t n)
{
	char *text = NULL;
	const char *name;
	int err, i;

	/* after "--", the command to run: import's own options come before it */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			iopts.run = argv + i + 1;
			iopts.nrun = argc - i - 1;
			if (!iopts.nrun) {
				fprintf(stderr, "bench import: -- with no command after it\n");
				return BENCH_EXIT_BAD_INPUT;
			}
			argv[i] = NULL;
			argc = i;
			break;
		}
	if (argp_parse(&import_argp, argc, argv, 0, NULL, NULL))
		return BENCH_EXIT_BAD_INPUT;
	err = output_file_precheck("-o", iopts.output);
	if (err)
		return bench_exit_status(err);
	name = iopts.nrun ? iopts.run[0] : iopts.input;
	err = iopts.nrun ? run_command(iopts.run, &text) : read_input(iopts.input, &text);
	if (!err)
		err = do_import(table, n, text, !strcmp(name, "-") ? "standard input" : name);
	free(text);
	return err == -EINVAL ? BENCH_EXIT_BAD_INPUT : err ? BENCH_EXIT_FAILED : BENCH_EXIT_OK;
}
