// SPDX-License-Identifier: GPL-2.0
/*
 * bench: a generic producer/consumer benchmark runner for BPF.
 *
 * This file holds main() and the two tables: the commands (a benchmark
 * run, or a subcommand that reads result files) and the benchmarks.
 *
 * Upstream's tools/testing/selftests/bpf/bench.c, mapped onto this tree
 * (a benchmark patch written for upstream ports with a path change):
 *   the benchs[] table, main()        here
 *   struct env, the argp options and
 *     parse_arg(), find_benchmark()   bench_args.c
 *   setup_benchmark(), the threads,
 *     set_thread_affinity(), the
 *     SIGALRM timer and
 *     collect_measurements()          runner.c (a sigtimedwait() loop in
 *                                     the main thread, no work in a handler)
 *   setup_libbpf()                    kernel_env.c
 *   hits_drops_report_progress() and
 *     hits_drops_report_final()       reporters.c
 *   struct bench, struct bench_res    bench.h, as upstream's
 *   benchs/bench_NAME.c, progs/NAME.c the same paths
 * The subcommands, which upstream does not have, live in results/.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "bench.h"
#include "bench_api.h"
#include "bench_args.h"
#include "bench_import.h"
#include "output_file.h"
#include "runner.h"
#include "results/ab.h"
#include "results/cli_json.h"
#include "results/compare_cli.h"
#include "results/config_cli.h"
#include "results/export.h"
#include "results/history.h"
#include "results/plot.h"

/* The benchmark table: the one place a benchmark is registered. */
extern const struct bench bench_count_global;
extern const struct bench bench_count_local;
extern const struct bench bench_bpf_hashmap_lookup;
extern const struct bench bench_hash_lookup;
extern const struct bench bench_array_lookup;
extern const struct bench bench_percpu_hash_lookup;
extern const struct bench bench_percpu_array_lookup;
extern const struct bench bench_lru_hash_lookup;
extern const struct bench bench_trig_base;
extern const struct bench bench_htab_mem;
extern const struct bench bench_bpf_ma;
extern const struct bench bench_lpm_trie_noop, bench_lpm_trie_baseline, bench_lpm_trie_lookup,
	bench_lpm_trie_insert, bench_lpm_trie_update, bench_lpm_trie_delete, bench_lpm_trie_free;
/* map_perf_test's update tests (benchs/bench_map_perf.c) */
extern const struct bench bench_hash_prealloc_update, bench_percpu_hash_prealloc_update,
	bench_hash_kmalloc_update, bench_percpu_hash_kmalloc_update, bench_lru_hash_common_update,
	bench_lru_hash_percpu_update, bench_lpm_kmalloc_lookup, bench_inner_lru_hash_update;
extern const struct bench bench_bpf_hashmap_full_update;
extern const struct bench bench_local_storage_create;
extern const struct bench bench_bloom_lookup, bench_bloom_update, bench_bloom_false_positive,
	bench_hashmap_without_bloom, bench_hashmap_with_bloom;
extern const struct bench bench_local_storage_cache_seq_get, bench_local_storage_cache_interleaved_get,
	bench_local_storage_cache_hashmap_control, bench_local_storage_tasks_trace;
extern const struct bench bench_rb_libbpf, bench_rb_custom, bench_pb_libbpf, bench_pb_custom;
/* written only against upstream's API, in its style: keeps the API whole */
extern const struct bench bench_upstream_api_hits, bench_upstream_api_false_hits,
	bench_upstream_api_local_storage, bench_upstream_api_ops;

static const struct bench *const benchs[] = {
	&bench_count_global,
	&bench_count_local,
	&bench_bpf_hashmap_lookup,
	&bench_hash_lookup,
	&bench_array_lookup,
	&bench_percpu_hash_lookup,
	&bench_percpu_array_lookup,
	&bench_lru_hash_lookup,
	&bench_trig_base,
	&bench_htab_mem,
	&bench_bpf_ma,
	&bench_lpm_trie_noop, &bench_lpm_trie_baseline, &bench_lpm_trie_lookup,
	&bench_lpm_trie_insert, &bench_lpm_trie_update, &bench_lpm_trie_delete, &bench_lpm_trie_free,
	&bench_hash_prealloc_update, &bench_percpu_hash_prealloc_update, &bench_hash_kmalloc_update,
	&bench_percpu_hash_kmalloc_update, &bench_lru_hash_common_update, &bench_lru_hash_percpu_update,
	&bench_lpm_kmalloc_lookup, &bench_inner_lru_hash_update,
	&bench_bpf_hashmap_full_update,
	&bench_local_storage_create,
	&bench_bloom_lookup, &bench_bloom_update, &bench_bloom_false_positive,
	&bench_hashmap_without_bloom, &bench_hashmap_with_bloom,
	&bench_local_storage_cache_seq_get, &bench_local_storage_cache_interleaved_get,
	&bench_local_storage_cache_hashmap_control, &bench_local_storage_tasks_trace,
	&bench_rb_libbpf, &bench_rb_custom, &bench_pb_libbpf, &bench_pb_custom,
	&bench_upstream_api_hits, &bench_upstream_api_false_hits,
	&bench_upstream_api_local_storage, &bench_upstream_api_ops,
};

_Static_assert(ARRAY_SIZE(benchs) <= BENCH_MAX_BENCHS, "raise BENCH_MAX_BENCHS");

static int import_main(int argc, char **argv);

/* subcommands: `bench NAME ...` */
static const struct bench_command commands[] = {
	{ "ab", "did B move the number? A and B run in blocks of A B B A", bench_ab_main,
	  BENCH_EXIT_FAILED },
	{ "compare", "compare result files: change, 95% interval, verdict", bench_compare_main,
	  BENCH_EXIT_COMPARE_TROUBLE },
	{ "plot", "draw result files: timeline, scaling, compare, latency, history",
	  bench_plot_main, BENCH_EXIT_FAILED },
	{ "export", "result files as one KernelCI KCIDB report", bench_export_main,
	  BENCH_EXIT_FAILED },
	{ "history", "a results history of one's own: add, list, show", bench_history_main,
	  BENCH_EXIT_FAILED },
	{ "config", "a result file's configuration: label, slug, key", bench_config_main,
	  BENCH_EXIT_FAILED },
	{ "import", "upstream's runner's output or a patch mail's table as a result file",
	  import_main, BENCH_EXIT_FAILED },
};

/* bench import reads a command line's benchmark and options as a run would */
static int import_main(int argc, char **argv)
{
	static const struct bench *table[BENCH_MAX_BENCHS];
	size_t n = bench_table_build(benchs, ARRAY_SIZE(benchs), table, ARRAY_SIZE(table));

	return bench_import_main(argc, argv, table, n);
}

/* the command running (NULL: a benchmark run, -l, --help), for finish_output() */
static const struct bench_command *running;
static bool output_finished;

/*
 * A descriptor 0-2 closed by the caller (">&-") would be taken by the
 * first file the run opens, and Iter lines would land in a cgroup or
 * result file: hold the slot with /dev/null, read-only for stdout so
 * that printing there fails rather than vanishes.
 */
static void hold_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY) != fd)
			return;
	}
}

/* -l or --list among a run's arguments */
static bool asks_list(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "--list"))
			return true;
	return false;
}

/*
 * The envelope's command when --json asks for JSON on stdout, else NULL
 * (cli_json_errors_begin()): a command with --json before its "--"; a
 * run or -l whose --json names stdout ("-", /dev/stdout).
 */
static const char *json_command(int argc, char **argv, const struct bench_command *cmd)
{
	static char name[64];
	int i;

	for (i = cmd ? 2 : 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *v = NULL;

		if (!strncmp(argv[i], "--json=", 7))
			v = argv[i] + 7;
		else if (!strcmp(argv[i], "--json"))
			v = i + 1 < argc ? argv[i + 1] : "";
		else
			continue;
		if (cmd && !strcmp(cmd->name, "history") && argc > 2 && argv[2][0] != '-') {
			snprintf(name, sizeof(name), "history %s", argv[2]);
			return name;
		}
		if (cmd)
			return cmd->name;
		if (output_file_is_stdout(v))
			return asks_list(argc, argv) ? "list" : "run";
	}
	return NULL;
}

/* bench -l --json FILE: every benchmark and command, in cli_json's envelope */
static int list_json(const char *path, const struct bench *const *table, size_t n)
{
	json_t *o = cli_json_new("list"), *b = json_array(), *c = json_array();
	char *text = NULL, *line;
	size_t i;
	int err;

	for (i = 0; b && i < n; i++)
		json_array_append_new(b, json_pack("{s:s, s:s, s:s?}", "name", table[i]->name,
						   "description", table[i]->desc ?: "",
						   "alias", table[i]->alias));
	for (i = 0; c && i < ARRAY_SIZE(commands); i++)
		json_array_append_new(c, json_pack("{s:s, s:s}", "name", commands[i].name,
						   "description", commands[i].desc));
	if (o && b && c && !json_object_set_new(o, "benchmarks", b) &&
	    !json_object_set_new(o, "commands", c))
		text = json_dumps(o, JSON_COMPACT);
	else
		/* the arrays were never handed to o */
		json_decref(b), json_decref(c);
	json_decref(o);
	if (!text) {
		fprintf(stderr, "failed to render the list as JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	/* one line, as every JSON bench prints */
	if (asprintf(&line, "%s\n", text) < 0) {
		free(text);
		fprintf(stderr, "failed to render the list as JSON: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = output_file_write(path, line, strlen(line));
	if (err)
		fprintf(stderr, "failed to write %s: %s\n", output_file_name(path), strerror(-err));
	free(text);
	free(line);
	return err;
}

static int run_benchmark(int argc, char **argv)
{
	static const struct bench *table[BENCH_MAX_BENCHS];
	const struct bench *bench;
	size_t table_cnt;
	int err;

	/* argp permutes argv: keep the command line as it was typed, for JSON */
	env.argc = argc;
	env.argv = malloc((argc + 1) * sizeof(*argv));
	if (!env.argv) {
		fprintf(stderr, "failed to copy the command line: %s\n", strerror(ENOMEM));
		return BENCH_EXIT_FAILED;
	}
	memcpy(env.argv, argv, (argc + 1) * sizeof(*argv));

	/* with the benchmarks a build added from upstream's sources, if any */
	table_cnt = bench_table_build(benchs, ARRAY_SIZE(benchs), table, ARRAY_SIZE(table));
	err = bench_args_parse(argc, argv, table, table_cnt, &bench);
	if (err) {
		err = bench_args_error_status();
	} else if (!bench && env.json_path) {
		err = list_json(env.json_path, table, table_cnt) ? BENCH_EXIT_FAILED : BENCH_EXIT_OK;
	} else if (!bench) {
		bench_args_list(table, table_cnt);
	} else {
		err = runner_run(bench);
	}
	bench_args_free();
	return err;
}

/*
 * README's rule for standard output that could not be written, the one
 * place it is applied: the command fails with its status for that
 * (struct bench_command) unless a worse one stands, after one line; a
 * reader that went away ends it as the SIGPIPE the write would have
 * raised, quietly (128 + SIGPIPE).  Returns the exit status.
 */
static int finish_output(int status)
{
	int out_failed = running ? running->out_failed : BENCH_EXIT_FAILED;
	int err;

	cli_json_errors_end(status);
	err = output_stdout_close();

	output_finished = true;
	if (!err || status >= BENCH_EXIT_SIGNAL)
		return status;
	if (err == -EPIPE)
		return BENCH_EXIT_SIGNAL + SIGPIPE;
	fprintf(stderr, "%s%sfailed to write standard output: %s\n", running ? running->name : "",
		running ? ": " : "", strerror(-err));
	return status > out_failed ? status : out_failed;
}

/* argp's exit() after --help, --usage or an error (status): stdout checked there too */
static void finish_output_at_exit(int status, void *arg)
{
	int out;

	(void)arg;
	if (output_finished)
		return;
	out = finish_output(status);
	if (out != status)
		_exit(out);
}

int main(int argc, char **argv)
{
	static char cmd_name[32];
	const char *json_cmd;
	char **list_argv;
	size_t i;

	hold_std_fds();
	if (output_stdout_init())
		setvbuf(stdout, NULL, _IOLBF, 0);
	on_exit(finish_output_at_exit, NULL);
	bench_args_commands(commands, ARRAY_SIZE(commands));
	for (i = 0; argc > 1 && i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			running = &commands[i];
			json_cmd = json_command(argc, argv, running);
			if (json_cmd)
				cli_json_errors_begin(json_cmd);
			/* argp's usage and errors read "bench ab", not "ab" */
			snprintf(cmd_name, sizeof(cmd_name), "bench %s", commands[i].name);
			argv[1] = cmd_name;
			/* a subcommand's bad option is bad input like any other: not the runner's 64 */
			argp_err_exit_status = BENCH_EXIT_BAD_INPUT;
			return finish_output(commands[i].main(argc - 1, argv + 1));
		}
	/* `bench -l --json`, its FILE left out: the list on stdout */
	if (argc > 2 && !strcmp(argv[argc - 1], "--json") && asks_list(argc, argv)) {
		list_argv = calloc(argc + 2, sizeof(*argv));
		if (list_argv) {
			memcpy(list_argv, argv, argc * sizeof(*argv));
			list_argv[argc++] = "-";
			argv = list_argv;
		}
	}
	json_cmd = json_command(argc, argv, NULL);
	if (json_cmd)
		cli_json_errors_begin(json_cmd);
	return finish_output(run_benchmark(argc, argv));
}
