// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup_helpers against fake cgroup trees in a temporary directory: a v2
 * layout, a v1 layout, and neither.  No root needed: the fake "cgroupfs"
 * is a plain directory, so the test writes the files the kernel would
 * provide.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup_helpers.h"
#include "tap.h"

/* short, so paths built on it fit PATH_MAX buffers */
static char tmp[64];

static void put(const char *content, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "w");
	if (!f) {
		printf("Bail out! cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fputs(content, f);
	fclose(f);
}

static void mkdirs(const char *fmt, ...)
{
	char path[PATH_MAX], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static bool exists(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return !access(path, F_OK);
}

static void slurp(char *buf, size_t sz, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;
	size_t n = 0;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sz - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* the kernel empties a cgroup directory on rmdir; a fake tree must do it */
static void unlink_in(const char *dir, const char *name)
{
	char path[2 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p);
}

/* a pid that certainly does not exist now: a child we reaped */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void test_mountinfo(void)
{
	struct cg_roots r;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/mountinfo", tmp);
	put("22 1 0:20 / /sys rw,nosuid - sysfs sysfs rw\n"
	    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n"
	    "35 31 0:32 /docker/abc /sys/fs/cgroup/mem\\040ory rw,relatime shared:12 master:3 - cgroup cgroup rw,nosuid,memory\n"
	    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate\n"
	    "42 31 0:39 / /mnt/other2 rw,relatime - cgroup2 cgroup2 rw\n",
	    "%s", path);
	is_int(cg_roots_from_mountinfo(path, &r), 0, "mountinfo: parsed");
	is_str(r.v2, "/sys/fs/cgroup/unified", "mountinfo: first cgroup2 mount is the v2 root");
	is_str(r.v2_base, "/", "mountinfo: v2 mount root");
	is_str(r.v1_mem, "/sys/fs/cgroup/mem ory", "mountinfo: v1 memory mount, \\040 unescaped");
	is_str(r.v1_mem_base, "/docker/abc", "mountinfo: v1 memory mount of a subtree");

	put("22 1 0:20 / /sys rw - sysfs sysfs rw\n"
	    "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n", "%s", path);
	is_int(cg_roots_from_mountinfo(path, &r), 0, "mountinfo without memory: parsed");
	ok(!r.v2[0] && !r.v1_mem[0], "mountinfo without memory: no roots");
	ok(cg_roots_from_mountinfo("/nonexistent/mountinfo", &r) == -ENOENT,
	   "mountinfo: missing file is -ENOENT");
}

static void test_v2(void)
{
	struct bench_cgroup cg;
	struct cg_roots r = {};
	long long cur, peak;
	char proc[PATH_MAX], buf[64];
	pid_t pid = getpid();

	snprintf(r.v2, sizeof(r.v2), "%s/v2", tmp);
	strcpy(r.v2_base, "/");
	mkdirs("%s/v2/user.slice/app", tmp);
	put("cpu memory pids\n", "%s/v2/user.slice/app/cgroup.controllers", tmp);
	put("memory pids\n", "%s/v2/user.slice/app/cgroup.subtree_control", tmp);
	put("", "%s/v2/user.slice/app/cgroup.procs", tmp);
	snprintf(proc, sizeof(proc), "%s/proc-v2", tmp);
	put("0::/user.slice/app\n", "%s", proc);

	is_int(cg_find_own(&r, proc, &cg), 0, "v2: own cgroup found");
	is_int(cg.kind, CG_MEM_V2, "v2: memory delegated to children, so v2 is used");
	ok(!strcmp(cg.parent + strlen(tmp), "/v2/user.slice/app"), "v2: parent is our cgroup (%s)",
	   cg.parent);

	is_int(cg_create(&cg, "bench-htab-mem", pid, 0), 0, "v2: child created");
	ok(exists("%s/v2/user.slice/app/bench-htab-mem.%d", tmp, pid),
	   "v2: child is named bench-htab-mem.<pid> under our cgroup");
	/* what the kernel would provide in the new cgroup */
	put("", "%s/cgroup.procs", cg.path);
	put("1048576\n", "%s/memory.current", cg.path);
	put("3145728\n", "%s/memory.peak", cg.path);

	is_int(cg_join(&cg, pid), 0, "v2: joined");
	slurp(buf, sizeof(buf), "%s/cgroup.procs", cg.path);
	is_int(atoi(buf), pid, "v2: our pid written to the child's cgroup.procs");

	is_int(cg_read_mem(&cg, &cur, &peak), 0, "v2: memory read");
	is_int(cur, 1048576, "v2: current from memory.current");
	is_int(peak, 3145728, "v2: peak from memory.peak");

	unlink_in(cg.path, "memory.peak");
	is_int(cg_read_mem(&cg, &cur, &peak), 0, "v2 without memory.peak (< 5.19): current still read");
	is_int(peak, -1, "v2 without memory.peak: peak unavailable, not 0");

	put("garbage\n", "%s/memory.current", cg.path);
	ok(cg_read_mem(&cg, &cur, &peak) < 0, "v2: unparsable memory.current is an error");
	is_int(cur, -1, "v2: unparsable current reported unavailable");

	unlink_in(cg.path, "memory.current");
	unlink_in(cg.path, "cgroup.procs");
	put("", "%s/v2/user.slice/app/cgroup.procs", tmp);
	cg_destroy(&cg);
	slurp(buf, sizeof(buf), "%s/v2/user.slice/app/cgroup.procs", tmp);
	is_int(atoi(buf), pid, "v2 destroy: pid moved back to the parent");
	ok(!exists("%s/v2/user.slice/app/bench-htab-mem.%d", tmp, pid), "v2 destroy: child removed");
	ok(!cg.created && !cg.joined, "v2 destroy: state cleared");
	cg_destroy(&cg);
	ok(1, "v2 destroy: a second call is harmless");

	/* memory available in the hierarchy but not handed to our children */
	put("pids\n", "%s/v2/user.slice/app/cgroup.subtree_control", tmp);
	is_int(cg_find_own(&r, proc, &cg), 0, "v2 undelegated: own cgroup found");
	is_int(cg.kind, CG_MEM_NONE, "v2 undelegated, no v1: memory unavailable");
	ok(strstr(cg.why, "subtree_control") != NULL, "v2 undelegated: reason names subtree_control (%s)",
	   cg.why);
	is_int(cg_read_mem(&cg, &cur, &peak), -ENODATA, "unavailable: read says ENODATA");
	ok(cur == -1 && peak == -1, "unavailable: current and peak are -1, never 0");
}

static void test_v1(void)
{
	struct bench_cgroup cg;
	struct cg_roots r = {};
	long long cur, peak;
	char proc[PATH_MAX], buf[64];
	pid_t pid = getpid();

	/* hybrid, as on the test machine: v2 without memory, v1 memory */
	snprintf(r.v2, sizeof(r.v2), "%s/h/unified", tmp);
	strcpy(r.v2_base, "/");
	snprintf(r.v1_mem, sizeof(r.v1_mem), "%s/h/memory", tmp);
	strcpy(r.v1_mem_base, "/");
	mkdirs("%s/h/unified", tmp);
	put("", "%s/h/unified/cgroup.controllers", tmp);
	put("", "%s/h/unified/cgroup.subtree_control", tmp);
	mkdirs("%s/h/memory/process_api/abc", tmp);
	put("0\n", "%s/h/memory/process_api/abc/memory.usage_in_bytes", tmp);
	put("", "%s/h/memory/process_api/abc/cgroup.procs", tmp);
	snprintf(proc, sizeof(proc), "%s/proc-v1", tmp);
	put("9:name=systemd:/\n5:devices:/\n4:memory:/process_api/abc\n1:cpu,cpuacct:/\n0::/\n",
	    "%s", proc);

	is_int(cg_find_own(&r, proc, &cg), 0, "v1: own cgroup found");
	is_int(cg.kind, CG_MEM_V1, "v1: v2 has no memory controller, so v1 is used");
	ok(!strcmp(cg.parent + strlen(tmp), "/h/memory/process_api/abc"),
	   "v1: parent is our memory cgroup (%s)", cg.parent);

	is_int(cg_create(&cg, "bench-htab-mem", pid, 0), 0, "v1: child created");
	put("", "%s/cgroup.procs", cg.path);
	put("2097152\n", "%s/memory.usage_in_bytes", cg.path);
	put("4194304\n", "%s/memory.max_usage_in_bytes", cg.path);
	is_int(cg_join(&cg, pid), 0, "v1: joined");
	is_int(cg_read_mem(&cg, &cur, &peak), 0, "v1: memory read");
	is_int(cur, 2097152, "v1: current from memory.usage_in_bytes");
	is_int(peak, 4194304, "v1: peak from memory.max_usage_in_bytes");

	unlink_in(cg.path, "memory.usage_in_bytes");
	unlink_in(cg.path, "memory.max_usage_in_bytes");
	unlink_in(cg.path, "cgroup.procs");
	cg_destroy(&cg);
	slurp(buf, sizeof(buf), "%s/h/memory/process_api/abc/cgroup.procs", tmp);
	is_int(atoi(buf), pid, "v1 destroy: pid moved back to the parent");
	ok(!exists("%s/h/memory/process_api/abc/bench-htab-mem.%d", tmp, pid),
	   "v1 destroy: child removed");

	/* a v1 memory mount of a subtree (containers): paths are relative to it */
	strcpy(r.v1_mem_base, "/process_api");
	snprintf(r.v1_mem, sizeof(r.v1_mem), "%s/h/memory/process_api", tmp);
	is_int(cg_find_own(&r, proc, &cg), 0, "v1 subtree mount: own cgroup found");
	ok(cg.kind == CG_MEM_V1 && !strcmp(cg.parent + strlen(tmp), "/h/memory/process_api/abc"),
	   "v1 subtree mount: mount root stripped from the path (%s)", cg.parent);
	strcpy(r.v1_mem_base, "/elsewhere");
	is_int(cg_find_own(&r, proc, &cg), 0, "v1 foreign subtree: parsed");
	is_int(cg.kind, CG_MEM_NONE, "v1 foreign subtree: our cgroup is not under that mount");
}

static void test_none(void)
{
	struct bench_cgroup cg;
	struct cg_roots r = {};
	long long cur, peak;
	char proc[PATH_MAX];

	snprintf(proc, sizeof(proc), "%s/proc-none", tmp);
	put("1:cpu:/\n0::/\n", "%s", proc);
	is_int(cg_find_own(&r, proc, &cg), 0, "none: parsed");
	is_int(cg.kind, CG_MEM_NONE, "none: no memory hierarchy, memory unavailable");
	ok(strstr(cg.why, "neither") != NULL, "none: the reason says so (%s)", cg.why);
	is_int(cg_read_mem(&cg, &cur, &peak), -ENODATA, "none: read says ENODATA");
	ok(cur == -1 && peak == -1, "none: current and peak are -1, never 0");
	ok(cg_create(&cg, "htab", getpid(), 0) == -EINVAL, "create: a prefix without bench- is refused");
	cg_destroy(&cg);
	ok(!cg.created, "none: destroy without create is harmless");

	ok(cg_find_own(&r, "/nonexistent/cgroup", &cg) == -ENOENT, "missing /proc file: -ENOENT");
}

/* a run's cgroup name as cg_create() makes it in pid namespace ns (0: the first) */
static void run_name(char *buf, size_t sz, pid_t pid, unsigned long ns)
{
	if (ns)
		snprintf(buf, sz, "bench-htab-mem.%d.ns%lu", (int)pid, ns);
	else
		snprintf(buf, sz, "bench-htab-mem.%d", (int)pid);
}

static void test_stale(void)
{
	struct bench_cgroup cg = {};
	pid_t dead = dead_pid(), me = getpid();
	unsigned long ns_self = cg_pidns_self();
	char base[PATH_MAX], path[PATH_MAX], mine[64], theirs[64];

	snprintf(base, sizeof(base), "%s/stale", tmp);
	mkdirs("%s/bench-htab-mem.%d", base, dead);
	/*
	 * our pid as our own namespace names it: a live run between its
	 * mkdir and its join, kept; as another namespace names it: a pid
	 * that means nothing here, emptiness decides
	 */
	run_name(mine, sizeof(mine), me, ns_self);
	run_name(theirs, sizeof(theirs), me, ns_self ? 0 : 4026532847UL);
	mkdirs("%s/%s", base, mine);
	mkdirs("%s/%s", base, theirs);
	mkdirs("%s/bench-htab-mem.1.ns4026532845", base);
	/* a live run, whatever its pid means here */
	mkdirs("%s/bench-htab-mem.2.ns4026532846", base);
	put("7\n", "%s/bench-htab-mem.2.ns4026532846/cgroup.procs", base);
	mkdirs("%s/htab-mem.%d", base, dead);
	mkdirs("%s/bench-htab-mem.abc", base);
	mkdirs("%s/bench-htab-mem.1.nsx", base);
	mkdirs("%s/bench-htab-mem.ns5", base);

	is_int(cg_remove_stale(base), 3, "stale: the three empty runs' directories removed");
	ok(!exists("%s/bench-htab-mem.%d", base, dead), "stale: bench-*.<pid>, empty, is gone");
	ok(exists("%s/%s", base, mine),
	   "stale: an empty one named for a live process of our pid namespace is kept (%s)", mine);
	ok(!exists("%s/%s", base, theirs),
	   "stale: an empty one named for our pid in another namespace is gone (%s)", theirs);
	if (snprintf(path, sizeof(path), "%s/%s", base, mine) < (int)sizeof(path))
		rmdir(path);
	ok(!exists("%s/bench-htab-mem.1.ns4026532845", base), "stale: bench-*.<pid>.ns<inode>, empty, is gone");
	ok(exists("%s/bench-htab-mem.2.ns4026532846", base),
	   "stale: a cgroup whose cgroup.procs lists a process is kept");
	ok(exists("%s/htab-mem.%d", base, dead), "stale: names without bench- are not touched");
	ok(exists("%s/bench-htab-mem.abc", base), "stale: names without a pid are not touched");
	ok(exists("%s/bench-htab-mem.1.nsx", base), "stale: a malformed namespace is not touched");
	ok(exists("%s/bench-htab-mem.ns5", base), "stale: a namespace without a pid is not touched");

	/* names: the pid alone in the initial namespace, pid and namespace elsewhere */
	strcpy(cg.parent, base);
	is_int(cg_create(&cg, "bench-htab-mem", 1, 4026532845UL), 0, "create in a pid namespace");
	ok(exists("%s/bench-htab-mem.1.ns4026532845", base),
	   "create: named bench-htab-mem.<pid>.ns<pidns inode> in a pid namespace");
	cg_destroy(&cg);
	is_int(cg_create(&cg, "bench-htab-mem", 1, 4026532846UL), 0,
	       "create: pid 1 of a second namespace");
	ok(exists("%s/bench-htab-mem.1.ns4026532846", base) &&
	   !exists("%s/bench-htab-mem.1", base), "create: its own name, no collision");
	cg_destroy(&cg);

	/* our own name left by an earlier process with our pid: replaced */
	mkdirs("%s/bench-htab-mem.%d", base, me);
	is_int(cg_create(&cg, "bench-htab-mem", me, 0), 0, "create: an empty leftover with our pid is replaced");
	cg_destroy(&cg);
	ok(!exists("%s/bench-htab-mem.%d", base, me), "create/destroy: removed again");
	mkdirs("%s/bench-busy.%d/child", base, me);
	ok(cg_create(&cg, "bench-busy", me, 0) == -EEXIST, "create: a leftover that cannot be removed is -EEXIST");
}

/*
 * A run killed by SIGKILL leaves its cgroup with the cgroups its benchmark
 * made inside it (upstream's API: bench-upstream.<pid>/upstream_api).  The
 * pids below are of another namespace: they mean nothing here, so what is
 * inside decides.  A cgroup cannot go while it has children: the sweep
 * removes them first, and leaves a tree whole if any part is in use.
 */
static void test_stale_tree(void)
{
	char base[PATH_MAX];

	snprintf(base, sizeof(base), "%s/stale_tree", tmp);
	mkdirs("%s/bench-upstream.3.ns4026532850/upstream_api/inner", base);
	mkdirs("%s/bench-upstream.3.ns4026532850/second", base);
	mkdirs("%s/bench-upstream.4.ns4026532850/upstream_api", base);
	put("9\n", "%s/bench-upstream.4.ns4026532850/upstream_api/cgroup.procs", base);
	/* deeper than CG_SWEEP_DEPTH (8): not a tree this tool makes */
	mkdirs("%s/bench-upstream.5.ns4026532850/a/b/c/d/e/f/g/h/i", base);

	is_int(cg_remove_stale(base), 1, "stale tree: one killed run's tree removed");
	ok(!exists("%s/bench-upstream.3.ns4026532850", base),
	   "stale tree: a killed run's cgroup goes with the empty cgroups inside it");
	ok(exists("%s/bench-upstream.4.ns4026532850/upstream_api", base),
	   "stale tree: a child that lists a process keeps the whole tree");
	ok(exists("%s/bench-upstream.5.ns4026532850/a/b/c/d/e/f/g/h/i", base),
	   "stale tree: a tree deeper than a run makes is not touched");
}

/* a fake cgroup directory under tmp, created, of the given kind */
static void fake_cg(struct bench_cgroup *cg, enum cg_mem_kind kind, const char *name)
{
	memset(cg, 0, sizeof(*cg));
	cg->kind = kind;
	cg->created = true;
	snprintf(cg->path, sizeof(cg->path), "%s/%s", tmp, name);
	mkdirs("%s", cg->path);
}

static void test_mem_stat_v2(void)
{
	long long v[CG_MEM_NR_FIELDS];
	struct bench_cgroup cg;
	struct cg_mem_stat st;
	int f;

	/* Linux 6.x: slab itself, percpu, vmalloc, kernel, sock, anon */
	fake_cg(&cg, CG_MEM_V2, "stat-v2");
	put("anon 4096\nfile 0\nkernel 1228800\nkernel_stack 16384\npagetables 0\n"
	    "sec_pagetables 0\npercpu 73728\nsock 0\nvmalloc 8192\nshmem 0\n"
	    "slab_reclaimable 20480\nslab_unreclaimable 1040384\nslab 1060864\n",
	    "%s/memory.stat", cg.path);
	is_int(cg_mem_stat_open(&cg, &st), 0, "stat v2: opened");
	for (f = 0; f < CG_MEM_NR_FIELDS; f++)
		ok(st.have[f] == (f != CG_MEM_KMEM), "stat v2: %s %s", cg_mem_field_name(f),
		   f == CG_MEM_KMEM ? "absent (a v1 file)" : "present");
	is_int(cg_mem_stat_read(&st, v), 0, "stat v2: read");
	is_int(v[CG_MEM_SLAB], 1060864, "stat v2: slab from its own line");
	is_int(v[CG_MEM_PERCPU], 73728, "stat v2: percpu");
	is_int(v[CG_MEM_VMALLOC], 8192, "stat v2: vmalloc");
	is_int(v[CG_MEM_KERNEL], 1228800, "stat v2: kernel");
	is_int(v[CG_MEM_SOCK], 0, "stat v2: sock 0 is a real 0: the kernel reports it");
	is_int(v[CG_MEM_ANON], 4096, "stat v2: anon");
	is_int(v[CG_MEM_KMEM], -1, "stat v2: kmem -1, never 0");
	is_str(st.file[CG_MEM_SLAB], "memory.stat", "stat v2: slab's source file");
	is_str(st.key[CG_MEM_SLAB], "slab", "stat v2: slab's source line");
	/* stat: the disjoint parts of current usage; unstat: the rest of it */
	ok(st.part[CG_MEM_ANON] && st.part[CG_MEM_FILE] && st.part[CG_MEM_KERNEL] &&
	   st.part[CG_MEM_SOCK] && !st.part[CG_MEM_SLAB] && !st.part[CG_MEM_VMALLOC],
	   "stat v2: stat sums anon, file, kernel and sock, not kernel's own parts");
	cg_mem_stat_sum(&st, 1500000, v);
	is_int(v[CG_MEM_STAT], 4096 + 0 + 1228800 + 0, "stat v2: stat = anon + file + kernel + sock");
	is_int(v[CG_MEM_UNSTAT], 1500000 - 1232896, "stat v2: unstat = current - stat");
	cg_mem_stat_sum(&st, 1000000, v);
	is_int(v[CG_MEM_UNSTAT], 1000000 - 1232896, "stat v2: unstat below 0 is kept (stat flushed late)");
	cg_mem_stat_sum(&st, -1, v);
	ok(v[CG_MEM_STAT] == 1232896 && v[CG_MEM_UNSTAT] == -1, "stat v2: current unread: unstat -1");
	is_str(st.file[CG_MEM_UNSTAT], "memory.current", "stat v2: unstat's source is the total's file");

	/* the descriptor stays open: the next reading sees the file's new content */
	put("anon 8192\nkernel 2457600\npercpu 73728\nsock 4096\nvmalloc 8192\n"
	    "slab 2097152\n", "%s/memory.stat", cg.path);
	is_int(cg_mem_stat_read(&st, v), 0, "stat v2: read again through the same descriptor");
	is_int(v[CG_MEM_SLAB], 2097152, "stat v2: the new slab");
	is_int(v[CG_MEM_SOCK], 4096, "stat v2: the new sock");
	cg_mem_stat_sum(&st, 5000000, v);
	ok(v[CG_MEM_STAT] == -1 && v[CG_MEM_UNSTAT] == -1,
	   "stat v2: a part (file) missing from a reading: no stat, no unstat");
	put("anon 8192\nkernel 2457600\nsock 4096\nvmalloc 8192\nslab 2097152\n",
	    "%s/memory.stat", cg.path);
	is_int(cg_mem_stat_read(&st, v), 0, "stat v2: a line gone");
	is_int(v[CG_MEM_PERCPU], -1, "stat v2: a field gone from one reading is -1, not 0");
	cg_mem_stat_close(&st);
	is_int(cg_mem_stat_read(&st, v), 0, "stat v2: closed: reads nothing");
	ok(v[CG_MEM_SLAB] == -1 && v[CG_MEM_ANON] == -1, "stat v2: closed: every field -1");
	cg_mem_stat_close(&st);
	ok(1, "stat v2: a second close is harmless");

	/* before Linux 5.9: no slab line, the two halves; before 5.7 no percpu */
	fake_cg(&cg, CG_MEM_V2, "stat-v2-old");
	put("anon 4096\nfile 0\nkernel_stack 16384\nsock 0\nslab_reclaimable 20480\n"
	    "slab_unreclaimable 40960\n", "%s/memory.stat", cg.path);
	is_int(cg_mem_stat_open(&cg, &st), 0, "stat v2 (5.8): opened");
	is_int(cg_mem_stat_read(&st, v), 0, "stat v2 (5.8): read");
	is_int(v[CG_MEM_SLAB], 61440, "stat v2 (5.8): slab = reclaimable + unreclaimable");
	is_str(st.key[CG_MEM_SLAB], "slab_reclaimable + slab_unreclaimable",
	       "stat v2 (5.8): slab's source says so");
	ok(!st.have[CG_MEM_PERCPU] && !st.have[CG_MEM_KERNEL] && !st.have[CG_MEM_VMALLOC],
	   "stat v2 (5.8): percpu, kernel and vmalloc absent");
	ok(v[CG_MEM_PERCPU] == -1 && v[CG_MEM_KERNEL] == -1, "stat v2 (5.8): absent fields -1");
	ok(!st.have[CG_MEM_STAT] && !st.have[CG_MEM_UNSTAT],
	   "stat v2 (5.8): no kernel line: no stat or unstat, which would leave kernel memory out");
	cg_mem_stat_close(&st);

	/* a malformed value is no value */
	fake_cg(&cg, CG_MEM_V2, "stat-v2-bad");
	put("anon x\nslab -5\npercpu 12abc\nsock 7\n", "%s/memory.stat", cg.path);
	is_int(cg_mem_stat_open(&cg, &st), 0, "stat v2 malformed: opened");
	ok(!st.have[CG_MEM_ANON] && !st.have[CG_MEM_SLAB] && !st.have[CG_MEM_PERCPU] &&
	   st.have[CG_MEM_SOCK], "stat v2 malformed: only the well-formed line is a field");
	cg_mem_stat_close(&st);

	/* a cgroup without memory accounting has no fields */
	memset(&cg, 0, sizeof(cg));
	cg.kind = CG_MEM_NONE;
	ok(cg_mem_stat_open(&cg, &st) == -ENODATA, "stat none: -ENODATA");
	is_int(cg_mem_stat_read(&st, v), 0, "stat none: read");
	ok(v[CG_MEM_SLAB] == -1 && v[CG_MEM_KMEM] == -1, "stat none: every field -1");
	cg_mem_stat_close(&st);
}

static void test_mem_stat_v1(void)
{
	long long v[CG_MEM_NR_FIELDS];
	struct bench_cgroup cg;
	struct cg_mem_stat st;
	long page = sysconf(_SC_PAGESIZE);

	/* Linux 5.9 and later: kmem, an empty slabinfo, rss in memory.stat */
	fake_cg(&cg, CG_MEM_V1, "stat-v1");
	put("cache 0\nrss 77824\nrss_huge 0\nshmem 0\n", "%s/memory.stat", cg.path);
	put("237568\n", "%s/memory.kmem.usage_in_bytes", cg.path);
	put("", "%s/memory.kmem.slabinfo", cg.path);
	is_int(cg_mem_stat_open(&cg, &st), 0, "stat v1: opened");
	ok(st.have[CG_MEM_KMEM] && st.have[CG_MEM_ANON], "stat v1: kmem and anon present");
	ok(!st.have[CG_MEM_SLAB], "stat v1: an empty memory.kmem.slabinfo: slab absent, not 0");
	ok(!st.have[CG_MEM_PERCPU] && !st.have[CG_MEM_KERNEL] && !st.have[CG_MEM_SOCK] &&
	   !st.have[CG_MEM_VMALLOC], "stat v1: percpu, kernel, sock, vmalloc absent (v1 has none)");
	is_int(cg_mem_stat_read(&st, v), 0, "stat v1: read");
	is_int(v[CG_MEM_KMEM], 237568, "stat v1: kmem from memory.kmem.usage_in_bytes");
	is_int(v[CG_MEM_ANON], 77824, "stat v1: anon from memory.stat's rss");
	is_int(v[CG_MEM_SLAB], -1, "stat v1: slab -1");
	is_str(st.file[CG_MEM_KMEM], "memory.kmem.usage_in_bytes", "stat v1: kmem's source file");
	ok(st.key[CG_MEM_KMEM] == NULL, "stat v1: kmem is the whole file");
	is_str(st.key[CG_MEM_ANON], "rss", "stat v1: anon's source line");
	put("241664\n", "%s/memory.kmem.usage_in_bytes", cg.path);
	cg_mem_stat_read(&st, v);
	is_int(v[CG_MEM_KMEM], 241664, "stat v1: kmem read again through the same descriptor");
	cg_mem_stat_sum(&st, 400000, v);
	is_int(v[CG_MEM_STAT], v[CG_MEM_ANON] + v[CG_MEM_FILE] + 241664,
	       "stat v1: stat = rss + cache + kmem");
	is_int(v[CG_MEM_UNSTAT], 400000 - v[CG_MEM_STAT], "stat v1: unstat = current - stat");
	is_str(st.file[CG_MEM_UNSTAT], "memory.usage_in_bytes", "stat v1: unstat's source is the total's file");
	cg_mem_stat_close(&st);

	/* before Linux 5.9: a per-cgroup slabinfo */
	fake_cg(&cg, CG_MEM_V1, "stat-v1-old");
	put("cache 0\nrss 4096\n", "%s/memory.stat", cg.path);
	put("1048576\n", "%s/memory.kmem.usage_in_bytes", cg.path);
	put("slabinfo - version: 2.1\n"
	    "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
	    "kmalloc-128          128    128    128   32    1 : tunables    0    0    0 : slabdata      4      4      0\n"
	    "kmalloc-4k            16     16   4096    8    8 : tunables    0    0    0 : slabdata      2      2      0\n",
	    "%s/memory.kmem.slabinfo", cg.path);
	is_int(cg_mem_stat_open(&cg, &st), 0, "stat v1 (5.8): opened");
	ok(st.have[CG_MEM_SLAB], "stat v1 (5.8): slab present from slabinfo");
	cg_mem_stat_read(&st, v);
	is_int(v[CG_MEM_SLAB], (4 * 1 + 2 * 8) * page, "stat v1 (5.8): slab = num_slabs x pagesperslab pages");
	cg_mem_stat_close(&st);

	/* no kmem file (a kernel without kmem accounting): kmem absent */
	fake_cg(&cg, CG_MEM_V1, "stat-v1-nokmem");
	put("cache 0\nrss 4096\n", "%s/memory.stat", cg.path);
	is_int(cg_mem_stat_open(&cg, &st), 0, "stat v1 without kmem files: opened");
	ok(!st.have[CG_MEM_KMEM] && !st.have[CG_MEM_SLAB] && st.have[CG_MEM_ANON],
	   "stat v1 without kmem files: kmem and slab absent, anon present");
	ok(!st.have[CG_MEM_STAT], "stat v1 without kmem files: no stat");
	cg_mem_stat_close(&st);
}

static void test_mem_field_names(void)
{
	int f;

	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		char metric[64];

		snprintf(metric, sizeof(metric), CG_MEM_METRIC_PREFIX "%s", cg_mem_field_name(f));
		is_int(cg_mem_field_of_metric(metric), f, "field %s: its metric is %s",
		       cg_mem_field_name(f), metric);
	}
	is_int(cg_mem_field_of_metric("memory"), -1, "\"memory\" is the total, not a field");
	is_int(cg_mem_field_of_metric("memory_bogus"), -1, "an unknown field is -1");
	ok(cg_mem_field_name(CG_MEM_NR_FIELDS) == NULL, "no name past the last field");
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/unit_cgroup.XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_mountinfo();
	test_v2();
	test_v1();
	test_none();
	test_stale();
	test_stale_tree();
	test_mem_stat_v2();
	test_mem_stat_v1();
	test_mem_field_names();
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return done_testing();
}
