/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LIB_HOOK_H
#define __LIB_HOOK_H

/*
 * Where a benchmark whose upstream counterpart runs on fentry runs its
 * program: fentry on the syscall where the kernel allows it, else the
 * syscall's tracepoint (some kernels refuse fentry with EPERM).  What runs
 * around the measured work differs between the two, so the hook that ran
 * is said in one line on stderr (also with -q) and belongs in the JSON
 * options, where compare refuses to mix runs of different hooks.
 */
#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

enum bench_hook { BENCH_HOOK_AUTO, BENCH_HOOK_FENTRY, BENCH_HOOK_TP };

/* "auto", "fentry", "tracepoint": --hook's values and the JSON option's */
extern const char *const bench_hook_names[];

#define BENCH_HOOK_HELP \
	"Run on: auto (fentry where the kernel allows it, else the tracepoint; default), fentry or tracepoint"

/* --hook's value into *hook: 0, or EINVAL (for argp) after one line on stderr */
int bench_hook_parse(const char *arg, enum bench_hook *hook);

/* a program's attach target: its section name without libbpf's '?' */
const char *bench_prog_target(const struct bpf_program *prog);

struct bench_hook_ops {
	/* open, load and attach with the program of one hook; failures through bench_failed() */
	int (*load)(enum bench_hook hook);
	/* undo a failed load() before the other hook is tried */
	void (*unload)(void);
	/* the loaded program of a hook, for the hook line */
	struct bpf_program *(*prog)(enum bench_hook hook);
};

/*
 * Load on the hook wanted (auto: fentry, else the tracepoint), set *ran
 * and, with say, print the hook line.  0, or a negative errno after one
 * line.
 */
int bench_hook_load(enum bench_hook wanted, const struct bench_hook_ops *ops,
		    enum bench_hook *ran, bool say);

#endif /* __LIB_HOOK_H */
