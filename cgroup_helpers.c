// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup mounts, the cgroup this process is in, and a child cgroup of the
 * run's own: created, joined, its memory read (v2, or the v1 fallback) and
 * removed.  Roots and files are parameters, so unit tests use fake trees.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup_helpers.h"
#include "testing_helpers.h"

/* mountinfo escapes blanks and backslashes as \ooo */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* is word one of the comma-separated tokens of list? */
static bool has_token(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, seps);

		if (len == n && !strncmp(p, word, n))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static int copy_str(char *dst, size_t sz, const char *src)
{
	if (strlen(src) >= sz)
		return -ENAMETOOLONG;
	strcpy(dst, src);
	return 0;
}

int cg_roots_from_mountinfo(const char *mountinfo, struct cg_roots *roots)
{
	char *line = NULL, *f[32], *sep, *save;
	size_t cap = 0;
	FILE *fp;
	int n, i;

	memset(roots, 0, sizeof(*roots));
	fp = fopen(mountinfo, "re");
	if (!fp)
		return -errno;
	while (getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		n = 0;
		for (sep = strtok_r(line, " ", &save); sep && n < (int)(sizeof(f) / sizeof(f[0]));
		     sep = strtok_r(NULL, " ", &save))
			f[n++] = sep;
		/* id parent dev root mountpoint opts [optional...] - fstype source superopts */
		for (i = 6; i < n && strcmp(f[i], "-"); i++)
			;
		if (n < 6 || i + 3 >= n)
			continue;
		unescape_octal(f[3]);
		unescape_octal(f[4]);
		if (!strcmp(f[i + 1], "cgroup2") && !roots->v2[0]) {
			if (copy_str(roots->v2, sizeof(roots->v2), f[4]) ||
			    copy_str(roots->v2_base, sizeof(roots->v2_base), f[3]))
				roots->v2[0] = '\0';
		} else if (!strcmp(f[i + 1], "cgroup") &&
			   has_token(f[i + 3], "memory", ",") && !roots->v1_mem[0]) {
			if (copy_str(roots->v1_mem, sizeof(roots->v1_mem), f[4]) ||
			    copy_str(roots->v1_mem_base, sizeof(roots->v1_mem_base), f[3]))
				roots->v1_mem[0] = '\0';
		}
	}
	free(line);
	fclose(fp);
	return 0;
}

/*
 * Turn a cgroup path as /proc/<pid>/cgroup shows it into a directory
 * under a mount whose root is the cgroup "base" (not "/" when a subtree
 * is bind-mounted, as in some containers).  -ENOENT when the cgroup is
 * not visible under that mount.
 */
static int cg_dir(const char *mnt, const char *base, const char *cgpath, char *out, size_t sz)
{
	size_t blen = strlen(base);
	const char *rel = cgpath;
	int n;

	if (strcmp(base, "/")) {
		if (strncmp(cgpath, base, blen) || (cgpath[blen] && cgpath[blen] != '/'))
			return -ENOENT;
		rel = cgpath + blen;
	}
	while (*rel == '/')
		rel++;
	n = snprintf(out, sz, "%s%s%s", mnt, *rel ? "/" : "", rel);
	if (n < 0 || (size_t)n >= sz)
		return -ENAMETOOLONG;
	return 0;
}

/* first line of dir/name into buf (newline stripped) */
static int read_line(const char *dir, const char *name, char *buf, size_t sz)
{
	char path[PATH_MAX];
	int n;

	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return read_first_line(path, buf, sz);
}

static bool file_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int n;

	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	return n > 0 && (size_t)n < sizeof(path) && !access(path, F_OK);
}

/*
 * The v2 path ("0::" line) and the v1 memory path of a
 * /proc/<pid>/cgroup-format file; "" for a hierarchy it does not list.
 */
static int read_proc_cgroup(const char *proc_cgroup, char *v2path, char *v1path, size_t sz)
{
	char *line = NULL, *ctrl, *path;
	size_t cap = 0;
	FILE *fp;

	v2path[0] = v1path[0] = '\0';
	fp = fopen(proc_cgroup, "re");
	if (!fp)
		return -errno;
	/* hierarchy-id:controller-list:path */
	while (getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		ctrl = strchr(line, ':');
		if (!ctrl)
			continue;
		path = strchr(++ctrl, ':');
		if (!path)
			continue;
		*path++ = '\0';
		if (!strcmp(line, "0::") || (!strncmp(line, "0:", 2) && !*ctrl)) {
			if (copy_str(v2path, sz, path))
				v2path[0] = '\0';
		} else if (has_token(ctrl, "memory", ",")) {
			if (copy_str(v1path, sz, path))
				v1path[0] = '\0';
		}
	}
	free(line);
	fclose(fp);
	return 0;
}

int cg_find_own(const struct cg_roots *roots, const char *proc_cgroup, struct bench_cgroup *cg)
{
	char v2path[PATH_MAX], v1path[PATH_MAX], dir[PATH_MAX], buf[512];
	bool have_v2, have_v1, v2_mem_off = false;
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->kind = CG_MEM_NONE;
	err = read_proc_cgroup(proc_cgroup, v2path, v1path, sizeof(v2path));
	if (err)
		return err;
	have_v2 = v2path[0];
	have_v1 = v1path[0];

	/*
	 * v2 gives our child memory.current only when our cgroup delegates
	 * the memory controller to its children (cgroup.subtree_control).
	 * We do not enable it ourselves: that fails for a cgroup that has
	 * processes (ours) and would change a cgroup we do not own.
	 */
	if (have_v2 && roots->v2[0] &&
	    !cg_dir(roots->v2, roots->v2_base, v2path, dir, sizeof(dir))) {
		if (!read_line(dir, "cgroup.subtree_control", buf, sizeof(buf)) &&
		    has_token(buf, "memory", " ")) {
			cg->kind = CG_MEM_V2;
			strcpy(cg->parent, dir);
			return 0;
		}
		if (!read_line(dir, "cgroup.controllers", buf, sizeof(buf)) &&
		    has_token(buf, "memory", " "))
			v2_mem_off = true;
	}
	if (have_v1 && roots->v1_mem[0] &&
	    !cg_dir(roots->v1_mem, roots->v1_mem_base, v1path, dir, sizeof(dir)) &&
	    file_exists(dir, "memory.usage_in_bytes")) {
		cg->kind = CG_MEM_V1;
		strcpy(cg->parent, dir);
		return 0;
	}
	if (v2_mem_off)
		snprintf(cg->why, sizeof(cg->why),
			 "cgroup v2 memory controller is not enabled for children of our cgroup (cgroup.subtree_control) and there is no cgroup v1 memory hierarchy");
	else
		snprintf(cg->why, sizeof(cg->why),
			 "neither a cgroup v2 hierarchy with the memory controller nor a cgroup v1 memory hierarchy is mounted");
	return 0;
}

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/*
 * Is name "bench-<anything>.<pid>" or "bench-<anything>.<pid>.ns<inode>"?
 * Then *pid and *ns (0 without a namespace part) are its owner's.
 */
static bool parse_run_name(const char *name, long *pid, unsigned long *ns)
{
	const char *dot = strrchr(name, '.'), *prev;

	if (strncmp(name, "bench-", 6) || !dot || dot <= name + 6)
		return false;
	if (all_digits(dot + 1, strlen(dot + 1))) {
		*pid = strtol(dot + 1, NULL, 10);
		*ns = 0;
		return true;
	}
	if (strncmp(dot + 1, "ns", 2) || !all_digits(dot + 3, strlen(dot + 3)))
		return false;
	for (prev = dot - 1; prev > name + 6 && *prev != '.'; prev--)
		;
	if (*prev != '.' || !all_digits(prev + 1, dot - prev - 1))
		return false;
	*pid = strtol(prev + 1, NULL, 10);
	*ns = strtoul(dot + 3, NULL, 10);
	return true;
}

/*
 * A run of our own pid namespace whose process is alive: its cgroup is
 * empty between its mkdir and its join, and must not be swept then.  A
 * pid of another namespace means nothing here.
 */
static bool live_run_here(long pid, unsigned long ns, unsigned long ns_self)
{
	if (ns != ns_self || pid <= 0 || pid > INT_MAX)
		return false;
	return !kill((pid_t)pid, 0) || errno == EPERM;
}

/* does dir/cgroup.procs list a process?  A missing file lists none */
static bool has_procs(const char *dir)
{
	char buf[32];
	int err;

	err = read_line(dir, "cgroup.procs", buf, sizeof(buf));
	return !err && buf[0];
}

/*
 * How deep a killed run's cgroups may go: the run's own (depth 0) and
 * what a benchmark made inside it through upstream's cgroup_helpers API
 * (cgroup_upstream.c), a few levels at most.  Deeper is not ours.
 */
#define CG_SWEEP_DEPTH 8

/*
 * Remove dir and the cgroups inside it, children first (no cgroup can be
 * removed while it has children).  With dry_run, only check that none of
 * them lists a process and that the tree is no deeper than ours can be:
 * 0 if the tree can go, -EBUSY if not.  Interface files are not
 * directories, so only child cgroups are visited.
 */
static int sweep_tree(const char *dir, int depth, bool dry_run)
{
	char path[PATH_MAX];
	struct dirent *de;
	int err = 0, n;
	DIR *d;

	if (depth > CG_SWEEP_DEPTH || has_procs(dir))
		return -EBUSY;
	d = opendir(dir);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (n < 0 || (size_t)n >= sizeof(path))
			err = -ENAMETOOLONG;
		else
			err = sweep_tree(path, depth + 1, dry_run);
	}
	closedir(d);
	if (!err && !dry_run && rmdir(dir))
		err = -errno;
	return err;
}

/*
 * A run killed before its clean-up (SIGKILL, a crash) leaves its cgroup,
 * and whatever upstream-style cgroups its benchmark made inside it, under
 * the parent the next run uses: remove those of runs that are gone.  The
 * whole tree is checked first, so a tree in use is left whole.
 */
int cg_remove_stale(const char *parent)
{
	char path[PATH_MAX];
	struct dirent *de;
	unsigned long ns, ns_self = cg_pidns_self();
	int removed = 0, n;
	long pid;
	DIR *d;

	d = opendir(parent);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!parse_run_name(de->d_name, &pid, &ns) || live_run_here(pid, ns, ns_self))
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", parent, de->d_name);
		if (n < 0 || (size_t)n >= sizeof(path) || sweep_tree(path, 0, true))
			continue;
		if (!sweep_tree(path, 0, false))
			removed++;
	}
	closedir(d);
	return removed;
}

/* include/linux/proc_ns.h: the initial pid namespace's inode, fixed since 3.8 */
#define PROC_PID_INIT_INO 0xEFFFFFFCUL

unsigned long cg_pidns_self(void)
{
	struct stat st;

	/* without /proc we cannot tell: a namespace-free name may collide */
	if (stat("/proc/self/ns/pid", &st) || st.st_ino == PROC_PID_INIT_INO)
		return 0;
	return st.st_ino;
}

int cg_create(struct bench_cgroup *cg, const char *prefix, pid_t pid, unsigned long pidns)
{
	char ns[32] = "";
	int n;

	if (strncmp(prefix, "bench-", 6) || strchr(prefix, '/'))
		return -EINVAL;
	if (pidns)
		snprintf(ns, sizeof(ns), ".ns%lu", pidns);
	n = snprintf(cg->path, sizeof(cg->path), "%s/%s.%d%s", cg->parent, prefix, (int)pid, ns);
	if (n < 0 || (size_t)n >= sizeof(cg->path))
		return -ENAMETOOLONG;
	if (mkdir(cg->path, 0755)) {
		if (errno != EEXIST)
			return -errno;
		/*
		 * Our name already exists: left by an earlier process that
		 * had our pid in our namespace.  rmdir refuses it if tasks
		 * are still in it.
		 */
		if (rmdir(cg->path) || mkdir(cg->path, 0755))
			return -EEXIST;
	}
	cg->created = true;
	return 0;
}

static int write_pid(const char *dir, pid_t pid)
{
	char path[PATH_MAX], buf[32];
	int fd, n, err = 0;

	n = snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	if (write(fd, buf, n) != n)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

int cg_join(struct bench_cgroup *cg, pid_t pid)
{
	int err;

	if (!cg->created)
		return -EINVAL;
	err = write_pid(cg->path, pid);
	if (err)
		return err;
	cg->joined = true;
	cg->pid = pid;
	return 0;
}

static int read_ll(const char *dir, const char *name, long long *out)
{
	char buf[64], *end;
	long long v;
	int err;

	err = read_line(dir, name, buf, sizeof(buf));
	if (err)
		return err;
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (*end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

int cg_mem_files(enum cg_mem_kind kind, const char **current, const char **peak)
{
	switch (kind) {
	case CG_MEM_V2:
		*current = "memory.current";
		*peak = "memory.peak";	/* since Linux 5.19 */
		return 0;
	case CG_MEM_V1:
		*current = "memory.usage_in_bytes";
		/* a new v1 cgroup starts at 0, so this is the peak since creation */
		*peak = "memory.max_usage_in_bytes";
		return 0;
	default:
		return -ENODATA;
	}
}

int cg_read_mem(const struct bench_cgroup *cg, long long *current, long long *peak)
{
	const char *cur_name, *peak_name;
	int err;

	*current = -1;
	if (peak)
		*peak = -1;
	if (cg_mem_files(cg->kind, &cur_name, &peak_name) || !cg->created)
		return -ENODATA;
	if (peak && read_ll(cg->path, peak_name, peak))
		*peak = -1;
	err = read_ll(cg->path, cur_name, current);
	if (err)
		*current = -1;
	return err;
}

void cg_destroy(struct bench_cgroup *cg)
{
	struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
	int err, i;

	if (cg->joined) {
		err = write_pid(cg->parent, cg->pid);
		if (err)
			fprintf(stderr, "failed to move process %d back to cgroup %s: %s\n",
				(int)cg->pid, cg->parent, strerror(-err));
		cg->joined = false;
	}
	if (!cg->created)
		return;
	cg->created = false;
	/* a task that just left may keep the cgroup busy for a moment */
	for (i = 0; i < 50; i++) {
		if (!rmdir(cg->path) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "failed to remove cgroup %s: %s\n", cg->path, strerror(errno));
}

/*
 * Create our cgroup under cg->parent and move the process into it.  Until
 * we are in it, our cgroup is empty: another run's stale sweep may remove
 * it between mkdir and join.  Then make it again.  0, or a negative errno
 * with cg->why said.
 */
static int create_and_join(struct bench_cgroup *cg, const char *prefix)
{
	unsigned long pidns = cg_pidns_self();
	pid_t pid = getpid();
	int err, tries;

	cg_remove_stale(cg->parent);
	for (tries = 0; tries < 3; tries++) {
		err = cg_create(cg, prefix, pid, pidns);
		if (err) {
			snprintf(cg->why, sizeof(cg->why), "failed to create cgroup %s: %s",
				 cg->path, strerror(-err));
			return err;
		}
		/* swept before we joined: gone (v2), or removed while open (v1) */
		err = cg_join(cg, pid);
		if (err != -ENOENT && err != -ENODEV)
			break;
		cg->created = false;
	}
	if (err) {
		snprintf(cg->why, sizeof(cg->why), "failed to move into cgroup %s: %s",
			 cg->path, strerror(-err));
		cg_destroy(cg);
	}
	return err;
}

void cg_setup_self(struct bench_cgroup *cg, const char *prefix)
{
	struct cg_roots roots;
	int err;

	err = cg_roots_from_mountinfo("/proc/self/mountinfo", &roots);
	if (!err)
		err = cg_find_own(&roots, "/proc/self/cgroup", cg);
	if (err) {
		memset(cg, 0, sizeof(*cg));
		cg->kind = CG_MEM_NONE;
		snprintf(cg->why, sizeof(cg->why), "failed to read this process's cgroups: %s",
			 strerror(-err));
		return;
	}
	if (cg->kind == CG_MEM_NONE)
		return;
	if (create_and_join(cg, prefix))
		cg->kind = CG_MEM_NONE;
}

int cg_setup_self_v2(struct bench_cgroup *cg, const char *prefix)
{
	char v2path[PATH_MAX], v1path[PATH_MAX];
	struct cg_roots roots;
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->kind = CG_MEM_NONE;
	err = cg_roots_from_mountinfo("/proc/self/mountinfo", &roots);
	if (!err)
		err = read_proc_cgroup("/proc/self/cgroup", v2path, v1path, sizeof(v2path));
	if (err) {
		snprintf(cg->why, sizeof(cg->why), "failed to read this process's cgroups: %s",
			 strerror(-err));
		return err;
	}
	if (!roots.v2[0] || !v2path[0]) {
		snprintf(cg->why, sizeof(cg->why), "no cgroup v2 hierarchy is mounted");
		return -ENOENT;
	}
	err = cg_dir(roots.v2, roots.v2_base, v2path, cg->parent, sizeof(cg->parent));
	if (err) {
		snprintf(cg->why, sizeof(cg->why),
			 "our cgroup v2 is not visible under the cgroup2 mount %s", roots.v2);
		return err;
	}
	return create_and_join(cg, prefix);
}

/* ---- where the memory goes: the cgroup's statistics ---- */

static const char *const mem_field_names[CG_MEM_NR_FIELDS] = {
	[CG_MEM_SLAB] = "slab",
	[CG_MEM_PERCPU] = "percpu",
	[CG_MEM_VMALLOC] = "vmalloc",
	[CG_MEM_KERNEL] = "kernel",
	[CG_MEM_KMEM] = "kmem",
	[CG_MEM_SOCK] = "sock",
	[CG_MEM_ANON] = "anon",
	[CG_MEM_FILE] = "file",
	[CG_MEM_STAT] = "stat",
	[CG_MEM_UNSTAT] = "unstat",
};

/* v2 memory.stat keys that are a field as they are */
static const struct {
	enum cg_mem_field field;
	const char *key;
} v2_stat_keys[] = {
	{ CG_MEM_SLAB, "slab" },
	{ CG_MEM_PERCPU, "percpu" },
	{ CG_MEM_VMALLOC, "vmalloc" },
	{ CG_MEM_KERNEL, "kernel" },
	{ CG_MEM_SOCK, "sock" },
	{ CG_MEM_ANON, "anon" },
	{ CG_MEM_FILE, "file" },
};

/*
 * The parts of current usage that memory.stat accounts, disjoint: v2's
 * kernel holds slab, percpu, vmalloc, stacks and page tables; sock is
 * charged to v2's memory counter but not to v1's.
 */
static const enum cg_mem_field v2_parts[] = { CG_MEM_ANON, CG_MEM_FILE, CG_MEM_KERNEL, CG_MEM_SOCK };
static const enum cg_mem_field v1_parts[] = { CG_MEM_ANON, CG_MEM_FILE, CG_MEM_KMEM };

const char *cg_mem_field_name(enum cg_mem_field f)
{
	return f >= 0 && f < CG_MEM_NR_FIELDS ? mem_field_names[f] : NULL;
}

int cg_mem_field_of_metric(const char *metric)
{
	size_t n = strlen(CG_MEM_METRIC_PREFIX);
	int f;

	if (strncmp(metric, CG_MEM_METRIC_PREFIX, n))
		return -1;
	for (f = 0; f < CG_MEM_NR_FIELDS; f++)
		if (!strcmp(metric + n, mem_field_names[f]))
			return f;
	return -1;
}

/*
 * The whole file from its start, NUL-terminated: a cgroup file read again
 * from offset 0 is generated afresh, so the descriptor can stay open.
 * Returns the length, or a negative errno (-EFBIG: it does not fit).
 */
static int pread_all(int fd, char *buf, size_t sz)
{
	size_t len = 0;
	ssize_t n;

	for (;;) {
		if (len == sz - 1)
			return -EFBIG;
		n = pread(fd, buf + len, sz - 1 - len, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	return len;
}

/* the value of "key value" in a flat-keyed file such as memory.stat, or -1 */
static long long stat_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;
	char *end;
	long long v;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ' ') {
			errno = 0;
			v = strtoll(p + n + 1, &end, 10);
			if (errno || end == p + n + 1 || v < 0 || (*end && *end != '\n'))
				return -1;
			return v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* a file holding one number, as memory.kmem.usage_in_bytes; -1 when it does not */
static long long number_value(const char *text)
{
	long long v;
	char *end;

	if (!isdigit((unsigned char)text[0]))
		return -1;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || (*end && strcmp(end, "\n")))
		return -1;
	return v;
}

/*
 * v1's per-cgroup slabinfo (version 2.1, before Linux 5.9): the pages of
 * every cache's slabs, num_slabs x pagesperslab.  -1 when the file holds
 * no slabinfo (later kernels leave it empty) or a line does not parse.
 */
static long long slabinfo_bytes(const char *text)
{
	unsigned long pages_per_slab, num_slabs;
	long long pages = 0;
	const char *p = text;

	if (strncmp(text, "slabinfo - version:", 19))
		return -1;
	for (p = strchr(p, '\n'); p && *++p; p = strchr(p, '\n')) {
		if (*p == '#')
			continue;
		if (sscanf(p, "%*s %*u %*u %*u %*u %lu : tunables %*u %*u %*u : slabdata %*u %lu",
			   &pages_per_slab, &num_slabs) != 2)
			return -1;
		pages += (long long)pages_per_slab * num_slabs;
	}
	return pages * sysconf(_SC_PAGESIZE);
}

static int open_in(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int n, fd;

	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* one file's reading into val; the fields it does not give stay as they are */
static int read_stat_file(struct cg_mem_stat *st, long long val[CG_MEM_NR_FIELDS])
{
	long long a, b;
	size_t i;
	int len;

	len = pread_all(st->stat_fd, st->buf, sizeof(st->buf));
	if (len < 0)
		return len;
	if (st->kind == CG_MEM_V1) {
		val[CG_MEM_ANON] = stat_value(st->buf, "rss");
		val[CG_MEM_FILE] = stat_value(st->buf, "cache");
		return 0;
	}
	for (i = 0; i < sizeof(v2_stat_keys) / sizeof(v2_stat_keys[0]); i++)
		val[v2_stat_keys[i].field] = stat_value(st->buf, v2_stat_keys[i].key);
	/* "slab" itself since Linux 5.9 */
	st->slab_summed = val[CG_MEM_SLAB] < 0;
	if (st->slab_summed) {
		a = stat_value(st->buf, "slab_reclaimable");
		b = stat_value(st->buf, "slab_unreclaimable");
		val[CG_MEM_SLAB] = a >= 0 && b >= 0 ? a + b : -1;
	}
	return 0;
}

static int read_v1_files(struct cg_mem_stat *st, long long val[CG_MEM_NR_FIELDS])
{
	int len, err = 0;

	if (st->kmem_fd >= 0) {
		len = pread_all(st->kmem_fd, st->buf, sizeof(st->buf));
		if (len >= 0)
			val[CG_MEM_KMEM] = number_value(st->buf);
		else
			err = len;
	}
	if (st->slabinfo_fd >= 0) {
		len = pread_all(st->slabinfo_fd, st->buf, sizeof(st->buf));
		if (len >= 0)
			val[CG_MEM_SLAB] = slabinfo_bytes(st->buf);
		else if (!err)
			err = len;
	}
	return err;
}

static int read_fields(struct cg_mem_stat *st, long long val[CG_MEM_NR_FIELDS])
{
	int f, err = 0, e;

	for (f = 0; f < CG_MEM_NR_FIELDS; f++)
		val[f] = -1;
	if (st->stat_fd >= 0)
		err = read_stat_file(st, val);
	if (st->kind == CG_MEM_V1) {
		e = read_v1_files(st, val);
		if (!err)
			err = e;
	}
	return err;
}

size_t cg_mem_stat_parts(enum cg_mem_kind kind, const enum cg_mem_field **parts)
{
	switch (kind) {
	case CG_MEM_V2:
		*parts = v2_parts;
		return sizeof(v2_parts) / sizeof(v2_parts[0]);
	case CG_MEM_V1:
		*parts = v1_parts;
		return sizeof(v1_parts) / sizeof(v1_parts[0]);
	default:
		*parts = NULL;
		return 0;
	}
}

/* stat and unstat, where the kernel offers every part of stat */
static void name_sum(struct cg_mem_stat *st)
{
	const enum cg_mem_field *parts;
	size_t i, n = cg_mem_stat_parts(st->kind, &parts);
	const char *cur, *peak;

	for (i = 0; i < n; i++)
		if (!st->have[parts[i]])
			return;
	if (cg_mem_files(st->kind, &cur, &peak))
		return;
	for (i = 0; i < n; i++)
		st->part[parts[i]] = true;
	st->have[CG_MEM_STAT] = st->have[CG_MEM_UNSTAT] = true;
	st->file[CG_MEM_STAT] = "memory.stat";
	st->key[CG_MEM_STAT] = st->kind == CG_MEM_V2 ? "anon + file + kernel + sock" :
			       "rss + cache, + memory.kmem.usage_in_bytes";
	st->file[CG_MEM_UNSTAT] = cur;
	st->key[CG_MEM_UNSTAT] = "minus memory_stat";
}

static void name_sources(struct cg_mem_stat *st, const long long val[CG_MEM_NR_FIELDS])
{
	size_t i;
	int f;

	if (st->kind == CG_MEM_V2) {
		for (i = 0; i < sizeof(v2_stat_keys) / sizeof(v2_stat_keys[0]); i++) {
			st->file[v2_stat_keys[i].field] = "memory.stat";
			st->key[v2_stat_keys[i].field] = v2_stat_keys[i].key;
		}
		if (st->slab_summed)
			st->key[CG_MEM_SLAB] = "slab_reclaimable + slab_unreclaimable";
	} else {
		st->file[CG_MEM_ANON] = "memory.stat";
		st->key[CG_MEM_ANON] = "rss";
		st->file[CG_MEM_FILE] = "memory.stat";
		st->key[CG_MEM_FILE] = "cache";
		st->file[CG_MEM_KMEM] = "memory.kmem.usage_in_bytes";
		st->file[CG_MEM_SLAB] = "memory.kmem.slabinfo";
		st->key[CG_MEM_SLAB] = "num_slabs x pagesperslab";
	}
	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		st->have[f] = val[f] >= 0;
		if (!st->have[f])
			st->file[f] = st->key[f] = NULL;
	}
	name_sum(st);
}

int cg_mem_stat_open(const struct bench_cgroup *cg, struct cg_mem_stat *st)
{
	long long val[CG_MEM_NR_FIELDS];
	int fd;

	memset(st, 0, sizeof(*st));
	st->stat_fd = st->kmem_fd = st->slabinfo_fd = -1;
	st->kind = cg->kind;
	if ((cg->kind != CG_MEM_V1 && cg->kind != CG_MEM_V2) || !cg->created)
		return -ENODATA;
	fd = open_in(cg->path, "memory.stat");
	st->stat_fd = fd < 0 ? -1 : fd;
	if (cg->kind == CG_MEM_V1) {
		fd = open_in(cg->path, "memory.kmem.usage_in_bytes");
		st->kmem_fd = fd < 0 ? -1 : fd;
		fd = open_in(cg->path, "memory.kmem.slabinfo");
		st->slabinfo_fd = fd < 0 ? -1 : fd;
	}
	/* what this kernel offers: the fields that read now */
	read_fields(st, val);
	name_sources(st, val);
	return 0;
}

int cg_mem_stat_read(struct cg_mem_stat *st, long long val[CG_MEM_NR_FIELDS])
{
	int f, err;

	err = read_fields(st, val);
	/* only what the kernel offered at the start, so a field never comes and goes */
	for (f = 0; f < CG_MEM_NR_FIELDS; f++)
		if (!st->have[f])
			val[f] = -1;
	return err;
}

void cg_mem_stat_sum(const struct cg_mem_stat *st, long long current,
		     long long val[CG_MEM_NR_FIELDS])
{
	long long sum = 0;
	int f;

	val[CG_MEM_STAT] = val[CG_MEM_UNSTAT] = -1;
	if (!st->have[CG_MEM_STAT])
		return;
	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		if (!st->part[f])
			continue;
		if (val[f] < 0)
			return;
		sum += val[f];
	}
	val[CG_MEM_STAT] = sum;
	/* may be below 0: memory.stat flushed later than the charges (docs/memory.md) */
	if (current >= 0)
		val[CG_MEM_UNSTAT] = current - sum;
}

void cg_mem_stat_close(struct cg_mem_stat *st)
{
	if (st->stat_fd >= 0)
		close(st->stat_fd);
	if (st->kmem_fd >= 0)
		close(st->kmem_fd);
	if (st->slabinfo_fd >= 0)
		close(st->slabinfo_fd);
	st->stat_fd = st->kmem_fd = st->slabinfo_fd = -1;
	memset(st->have, 0, sizeof(st->have));
	memset(st->part, 0, sizeof(st->part));
}
