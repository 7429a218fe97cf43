// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream's cgroup_helpers API over this tree's cgroups: the environment
 * (cgroup_helpers.h says where its work directory is), the cgroups a
 * benchmark names in it, their ids, and their removal, which the runner
 * also does at exit, so that a benchmark that exits leaves none behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_helpers.h"

#define UPSTREAM_CGROUPS_MAX 16

static struct {
	const struct bench_cgroup *run;	/* the runner's memory cgroup, v2 */
	struct bench_cgroup own;	/* ours where the run has none in v2 */
	const char *work;		/* the work directory; NULL: no environment */
	struct bench_cgroup made[UPSTREAM_CGROUPS_MAX];
	int made_cnt;
	bool memory_enabled;		/* we enabled it in run's subtree_control */
} ucg;

void cg_upstream_base(const struct bench_cgroup *run_cg)
{
	ucg.run = run_cg && run_cg->kind == CG_MEM_V2 ? run_cg : NULL;
}

int setup_cgroup_environment(void)
{
	if (ucg.work)
		return 0;
	if (ucg.run) {
		ucg.work = ucg.run->path;
		return 0;
	}
	if (cg_setup_self_v2(&ucg.own, "bench-upstream")) {
		fprintf(stderr, "failed to set up a cgroup environment: %s\n", ucg.own.why);
		return 1;
	}
	ucg.work = ucg.own.path;
	return 0;
}

/* the one the environment made at relative_path, or NULL */
static struct bench_cgroup *find_made(const char *path)
{
	int i;

	for (i = 0; i < ucg.made_cnt; i++)
		if (!strcmp(ucg.made[i].path, path))
			return &ucg.made[i];
	return NULL;
}

static int cgroup_path(const char *relative_path, char *out, size_t sz)
{
	int n;

	if (!ucg.work)
		return -ENOENT;
	while (*relative_path == '/')
		relative_path++;
	n = snprintf(out, sz, "%s%s%s", ucg.work, *relative_path ? "/" : "", relative_path);
	return n < 0 || (size_t)n >= sz ? -ENAMETOOLONG : 0;
}

int create_and_get_cgroup(const char *relative_path)
{
	struct bench_cgroup *cg;
	char path[PATH_MAX];
	int fd, err;

	err = cgroup_path(relative_path, path, sizeof(path));
	if (!err && mkdir(path, 0755) && errno != EEXIST)
		err = -errno;
	if (!err && !find_made(path) && ucg.made_cnt < UPSTREAM_CGROUPS_MAX) {
		cg = &ucg.made[ucg.made_cnt++];
		memset(cg, 0, sizeof(*cg));
		snprintf(cg->path, sizeof(cg->path), "%s", path);
		/* leaving it: back where the process was before the environment */
		snprintf(cg->parent, sizeof(cg->parent), "%s",
			 ucg.run ? ucg.run->parent : ucg.work);
		cg->kind = CG_MEM_V2;
		cg->created = true;
	}
	fd = err ? -1 : open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "failed to create cgroup %s: %s\n", relative_path,
			strerror(err ? -err : errno));
	return fd;
}

/*
 * Where the work directory is the run's memory cgroup, the process has
 * just left it for a child: memory can now be handed down to the child
 * (no cgroup v2 controller is handed down past a cgroup with processes).
 */
static void hand_memory_down(void)
{
	char path[PATH_MAX];
	int fd, n;

	if (!ucg.run || ucg.memory_enabled)
		return;
	n = snprintf(path, sizeof(path), "%s/cgroup.subtree_control", ucg.run->path);
	fd = n > 0 && (size_t)n < sizeof(path) ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return;
	ucg.memory_enabled = write(fd, "+memory", 7) == 7;
	close(fd);
}

int join_cgroup(const char *relative_path)
{
	struct bench_cgroup *cg;
	char path[PATH_MAX];
	int err;

	err = cgroup_path(relative_path, path, sizeof(path));
	cg = err ? NULL : find_made(path);
	if (!cg) {
		fprintf(stderr, "failed to join cgroup %s: %s\n", relative_path,
			err ? strerror(-err) : "not created by create_and_get_cgroup()");
		return 1;
	}
	err = cg_join(cg, getpid());
	if (err) {
		fprintf(stderr, "failed to join cgroup %s: %s\n", relative_path, strerror(-err));
		return 1;
	}
	hand_memory_down();
	return 0;
}

void cleanup_cgroup_environment(void)
{
	while (ucg.made_cnt > 0)
		cg_destroy(&ucg.made[--ucg.made_cnt]);
	if (ucg.own.created)
		cg_destroy(&ucg.own);
	ucg.memory_enabled = false;
	ucg.work = NULL;
}

int cgroup_setup_and_join(const char *relative_path)
{
	int fd;

	if (setup_cgroup_environment())
		return -EINVAL;
	fd = create_and_get_cgroup(relative_path);
	if (fd < 0) {
		cleanup_cgroup_environment();
		return fd;
	}
	if (join_cgroup(relative_path)) {
		close(fd);
		cleanup_cgroup_environment();
		return -EINVAL;
	}
	return fd;
}

unsigned long long get_cgroup_id(const char *relative_path)
{
	unsigned long long id = 0;
	struct file_handle *fh;
	char path[PATH_MAX];
	int mount_id, err;

	fh = malloc(sizeof(*fh) + sizeof(id));
	err = fh ? cgroup_path(relative_path, path, sizeof(path)) : -ENOMEM;
	if (!err) {
		fh->handle_bytes = sizeof(id);
		if (name_to_handle_at(AT_FDCWD, path, fh, &mount_id, 0))
			err = -errno;
	}
	if (err)
		fprintf(stderr, "failed to read the id of cgroup %s: %s\n", relative_path,
			strerror(-err));
	else
		/* a cgroup's file handle is its 64-bit id */
		memcpy(&id, fh->f_handle, sizeof(id));
	free(fh);
	return id;
}
