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
 * hold no process: what a run killed with SIGKILL leaves behind.  A name
 * of our own pid namespace whose pid is alive is kept: that run is between
 * creating its cgroup and joining it.  A pid of another namespace means
 * nothing here: emptiness decides.
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
 * Where a cgroup's memory goes: fields of its statistics, in bytes, read
 * at every sample next to current usage.  Each kernel and hierarchy
 * offers its own set; a field it does not offer is absent (-1), never 0.
 *
 *   v2: memory.stat's slab (or slab_reclaimable + slab_unreclaimable
 *       before Linux 5.9), percpu, vmalloc, kernel, sock, anon and file;
 *   v1: memory.kmem.usage_in_bytes (kmem), memory.kmem.slabinfo (slab,
 *       only before Linux 5.9: later kernels leave it empty) and
 *       memory.stat's rss (anon) and cache (file).
 *
 * stat is what memory.stat accounts to objects: the sum of the parts that
 * make up current usage without overlapping (v2: anon + file + kernel +
 * sock, v1: anon + file + kmem), present only when every part is.  unstat
 * is current usage minus stat: pages charged but used by no object, the
 * charges each CPU holds in advance (docs/memory.md).
 */
enum cg_mem_field {
	CG_MEM_SLAB,
	CG_MEM_PERCPU,
	CG_MEM_VMALLOC,
	CG_MEM_KERNEL,	/* v2: all kernel memory: slab, percpu, vmalloc, stacks, ... */
	CG_MEM_KMEM,	/* v1's kernel memory counter */
	CG_MEM_SOCK,
	CG_MEM_ANON,
	CG_MEM_FILE,
	CG_MEM_STAT,	/* the sum of the parts (cg_mem_stat.part) */
	CG_MEM_UNSTAT,	/* current usage minus stat */
	CG_MEM_NR_FIELDS,
};

/* the metric names are "memory_" followed by the field's name */
#define CG_MEM_METRIC_PREFIX "memory_"

/* the parts stat sums for a kind, in the order to print them: their count (0: none) */
size_t cg_mem_stat_parts(enum cg_mem_kind kind, const enum cg_mem_field **parts);
/* "slab", "percpu", ...; NULL out of range */
const char *cg_mem_field_name(enum cg_mem_field f);
/* the field a metric name ("memory_slab") stands for, or -1 */
int cg_mem_field_of_metric(const char *metric);

struct cg_mem_stat {
	enum cg_mem_kind kind;
	/* kept open across samples: reading them again re-generates them */
	int stat_fd;		/* memory.stat */
	int kmem_fd;		/* v1: memory.kmem.usage_in_bytes */
	int slabinfo_fd;	/* v1: memory.kmem.slabinfo */
	bool have[CG_MEM_NR_FIELDS];
	bool part[CG_MEM_NR_FIELDS];	/* the fields stat sums */
	bool slab_summed;	/* v2 before Linux 5.9: no "slab" line */
	/*
	 * where each field comes from: a file of the cgroup and the line(s)
	 * of it the field is made of (NULL: the file holds just the number)
	 */
	const char *file[CG_MEM_NR_FIELDS];
	const char *key[CG_MEM_NR_FIELDS];
	char buf[16384];
};

/*
 * Open the statistics files of a created cgroup (cg->path) and find which
 * fields its kernel offers.  Returns 0 (also when it offers none: every
 * have[] false) or a negative errno for a cgroup without memory
 * accounting.  st needs cg_mem_stat_close() in every case.
 */
int cg_mem_stat_open(const struct bench_cgroup *cg, struct cg_mem_stat *st);
/*
 * One reading: val[f] in bytes for each field st->have, -1 for the others
 * and for a field whose file could not be read now.  Returns 0, or the
 * first read error (the fields that were read are still filled).
 */
int cg_mem_stat_read(struct cg_mem_stat *st, long long val[CG_MEM_NR_FIELDS]);
/*
 * val[CG_MEM_STAT] and val[CG_MEM_UNSTAT] from the parts in val (a
 * cg_mem_stat_read()) and current usage in bytes; -1 where a part or
 * current is missing.
 */
void cg_mem_stat_sum(const struct cg_mem_stat *st, long long current,
		     long long val[CG_MEM_NR_FIELDS]);
/* idempotent; st then reads nothing */
void cg_mem_stat_close(struct cg_mem_stat *st);

/*
 * All of the above for the running process, with the real /proc and
 * mounts.  Never fails the run: when memory cannot be accounted it sets
 * cg->kind = CG_MEM_NONE and explains why in cg->why.
 */
void cg_setup_self(struct bench_cgroup *cg, const char *prefix);

/*
 * A cgroup v2 directory of our own for attaching cgroup programs, with
 * any controllers or none: a child of the process's v2 cgroup, joined.
 * 0, or a negative errno with cg->why said; cg_destroy() undoes it.
 */
int cg_setup_self_v2(struct bench_cgroup *cg, const char *prefix);

#endif /* __CGROUP_HELPERS_H */

/*
 * Upstream's cgroup_helpers API, for benchmarks written against it
 * (cgroup_upstream.c).  Paths are relative to the environment's work
 * directory, a cgroup v2 one: the run's own memory cgroup where that is v2
 * (so that what a benchmark's cgroup is charged adds up in the run's), else
 * a directory of its own under the process's v2 cgroup.  Failures return
 * what upstream's do, after one line on stderr.
 */
/* what the runner's memory cgroup is (NULL: none, or not v2), before set-up */
void cg_upstream_base(const struct bench_cgroup *run_cg);
/* 0, or 1 when no cgroup v2 directory could be had */
int setup_cgroup_environment(void);
/* leave and remove every cgroup the environment made; idempotent */
void cleanup_cgroup_environment(void);
/* mkdir (an existing one is fine) and open: the directory's fd, or -1 */
int create_and_get_cgroup(const char *relative_path);
/* move the process into it: 0, or 1 */
int join_cgroup(const char *relative_path);
/* all three: the cgroup's fd, or a negative errno (the environment cleaned up) */
int cgroup_setup_and_join(const char *relative_path);
/* its cgroup id, as bpf_get_current_cgroup_id() returns it; 0 on failure */
unsigned long long get_cgroup_id(const char *relative_path);
