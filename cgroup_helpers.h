/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __CGROUP_HELPERS_H
#define __CGROUP_HELPERS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * A benchmark's own memory cgroup: a child of the cgroup the process is
 * already in, so that memory allocated after joining it (BPF maps
 * included) is charged there and can be read back as current and peak.
 *
 * Every function takes its roots and files as parameters, so the unit
 * tests run the same code against fake trees in a temporary directory.
 */

enum cg_mem_kind {
	CG_MEM_NONE,	/* no memory accounting reachable: figures unavailable */
	CG_MEM_V2,	/* memory.current, memory.peak */
	CG_MEM_V1,	/* memory.usage_in_bytes, memory.max_usage_in_bytes */
};

/* Where the hierarchies are mounted; "" when there is none. */
struct cg_roots {
	char v2[PATH_MAX];		/* a cgroup2 mount point */
	char v2_base[PATH_MAX];		/* cgroup path of that mount's root */
	char v1_mem[PATH_MAX];		/* the v1 hierarchy with the memory controller */
	char v1_mem_base[PATH_MAX];	/* cgroup path of that mount's root */
};

struct bench_cgroup {
	enum cg_mem_kind kind;
	char parent[PATH_MAX];	/* the cgroup the process was in */
	char path[PATH_MAX];	/* ours: <parent>/<prefix>.<pid>[.ns<pidns>] */
	bool created;
	bool joined;
	pid_t pid;		/* the process that joined */
	char why[PATH_MAX + 256];	/* why kind is CG_MEM_NONE */
};

/* Read cgroup mounts from a /proc/<pid>/mountinfo-format file. */
int cg_roots_from_mountinfo(const char *mountinfo, struct cg_roots *roots);

/*
 * Find the process's own cgroup from a /proc/<pid>/cgroup-format file and
 * decide which memory interface to use: v2 when the v2 hierarchy hands
 * the memory controller to our children, else the v1 memory hierarchy.
 * Sets cg->kind and cg->parent (or cg->why).  Returns 0, or a negative
 * errno when the file cannot be read.
 */
int cg_find_own(const struct cg_roots *roots, const char *proc_cgroup, struct bench_cgroup *cg);

/*
 * Remove the directories "bench-*.<pid>[.ns<pidns>]" under parent that
 * hold no process: what a run killed with SIGKILL leaves behind.  A pid in
 * the name means nothing here: it may belong to another pid namespace.
 * A cgroup whose cgroup.procs lists a process is skipped, and the kernel
 * refuses to remove one with processes (also those invisible from our
 * namespace, which cgroup.procs does not list).  Returns how many were
 * removed.
 */
int cg_remove_stale(const char *parent);

/*
 * The pid namespace that makes our pid unique: 0 in the initial one (the
 * pid alone is unique on the machine), else its inode number.
 */
unsigned long cg_pidns_self(void);

/*
 * mkdir <parent>/<prefix>.<pid>, or <prefix>.<pid>.ns<pidns> for a pid
 * namespace other than the initial one (pidns != 0): pids repeat across
 * namespaces, so two containers' runs must not share a name.  prefix must
 * start with "bench-".
 */
int cg_create(struct bench_cgroup *cg, const char *prefix, pid_t pid, unsigned long pidns);
/* move process pid into the created cgroup */
int cg_join(struct bench_cgroup *cg, pid_t pid);
/* the file names of current and peak usage for a kind; -ENODATA for none */
int cg_mem_files(enum cg_mem_kind kind, const char **current, const char **peak);
/*
 * Bytes charged now and the peak since creation (peak may be NULL: not
 * read); -1 for a figure that is unavailable.  Returns 0 when at least
 * "current" was read, else -errno.
 */
int cg_read_mem(const struct bench_cgroup *cg, long long *current, long long *peak);
/* move the process back to the parent and remove the cgroup; idempotent */
void cg_destroy(struct bench_cgroup *cg);

/*
 * All of the above for the running process, with the real /proc and
 * mounts.  Never fails the run: when memory cannot be accounted it sets
 * cg->kind = CG_MEM_NONE and explains why in cg->why.
 */
void cg_setup_self(struct bench_cgroup *cg, const char *prefix);

#endif /* __CGROUP_HELPERS_H */
