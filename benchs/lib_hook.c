// SPDX-License-Identifier: GPL-2.0
/* The fentry-or-tracepoint choice of the benchmarks upstream runs on fentry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "kernel_env.h"
#include "benchs/lib_hook.h"

const char *const bench_hook_names[] = {
	[BENCH_HOOK_AUTO] = "auto", [BENCH_HOOK_FENTRY] = "fentry", [BENCH_HOOK_TP] = "tracepoint",
};

int bench_hook_parse(const char *arg, enum bench_hook *hook)
{
	int i;

	for (i = BENCH_HOOK_AUTO; i <= BENCH_HOOK_TP; i++) {
		if (!strcmp(arg, bench_hook_names[i])) {
			*hook = i;
			return 0;
		}
	}
	fprintf(stderr, "invalid --hook '%s': expected auto, fentry or tracepoint\n", arg);
	return EINVAL;
}

const char *bench_prog_target(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);

	return sec[0] == '?' ? sec + 1 : sec;
}

int bench_hook_load(enum bench_hook wanted, const struct bench_hook_ops *ops,
		    enum bench_hook *ran, bool say)
{
	char msg[320], fentry_msg[320] = "";
	int err = -ENOENT;

	if (wanted != BENCH_HOOK_TP) {
		/* libbpf's multi-line account of a refused fentry is ours to summarise */
		libbpf_mute(true);
		bench_failed_into(fentry_msg, sizeof(fentry_msg));
		err = ops->load(BENCH_HOOK_FENTRY);
		bench_failed_into(NULL, 0);
		libbpf_mute(false);
		if (err && wanted == BENCH_HOOK_FENTRY) {
			fprintf(stderr, "%s\n", fentry_msg);
			return err;
		}
		if (err)
			ops->unload();
	}
	if (err) {
		bench_failed_into(msg, sizeof(msg));
		err = ops->load(BENCH_HOOK_TP);
		bench_failed_into(NULL, 0);
		if (err) {
			fprintf(stderr, "%s\n", msg);
			return err;
		}
		*ran = BENCH_HOOK_TP;
	} else {
		*ran = BENCH_HOOK_FENTRY;
	}
	/*
	 * One line, even with -q: what runs around the measured work
	 * differs between hooks, so a reader comparing numbers must know.
	 */
	if (!say)
		return 0;
	if (*ran == BENCH_HOOK_FENTRY)
		fprintf(stderr, "hook: %s\n", bench_prog_target(ops->prog(BENCH_HOOK_FENTRY)));
	else if (wanted == BENCH_HOOK_AUTO)
		fprintf(stderr, "hook: %s (fentry unavailable: %s)\n",
			bench_prog_target(ops->prog(BENCH_HOOK_TP)), fentry_msg);
	else
		fprintf(stderr, "hook: %s (--hook tracepoint)\n",
			bench_prog_target(ops->prog(BENCH_HOOK_TP)));
	return 0;
}
