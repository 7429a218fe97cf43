// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel environment a BPF benchmark needs: libbpf's messages,
 * privileges, and tracefs in a mount namespace of the bench's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>

#include "kernel_env.h"

static bool libbpf_verbose;

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void setup_libbpf(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print_fn);
}

#define TRACEFS_DIR "/sys/kernel/tracing"
#define DEBUGFS_TRACING "/sys/kernel/debug/tracing"

static bool tracefs_mounted_by_us;

static bool tracefs_ready(void)
{
	/* libbpf looks for the events under either location */
	return !access(TRACEFS_DIR "/events", F_OK) ||
	       !access(DEBUGFS_TRACING "/events", F_OK);
}

/*
 * The mount goes into a mount namespace of our own, private to this
 * process: two runs that start at once cannot race over one mountpoint,
 * neither can unmount the other's, and even a run killed with SIGKILL
 * leaves no mount behind (the namespace dies with the process).  Called
 * from setup, before any thread exists, so every thread shares it.
 */
int ensure_tracefs(void)
{
	int err;

	if (tracefs_ready())
		return 0;
	if (unshare(CLONE_NEWNS)) {
		err = -errno;
		fprintf(stderr, "failed to create a private mount namespace for tracefs (needed to attach tracepoint programs): %s%s\n",
			strerror(-err), err == -EPERM ? "; run as root or with CAP_SYS_ADMIN" : "");
		return err;
	}
	/* keep our mounts from propagating back to the parent namespace */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL)) {
		err = -errno;
		fprintf(stderr, "failed to make the private mount namespace private: %s\n",
			strerror(-err));
		return err;
	}
	if (mount("tracefs", TRACEFS_DIR, "tracefs", 0, NULL)) {
		err = -errno;
		fprintf(stderr, "failed to mount tracefs at %s (needed to attach tracepoint programs): %s%s\n",
			TRACEFS_DIR, strerror(-err),
			err == -EPERM ? "; run as root or with CAP_SYS_ADMIN" : "");
		return err;
	}
	tracefs_mounted_by_us = true;
	return 0;
}

void release_tracefs(void)
{
	if (!tracefs_mounted_by_us)
		return;
	tracefs_mounted_by_us = false;
	/* only our namespace sees it; lazily, in case a file is still open */
	umount2(TRACEFS_DIR, MNT_DETACH);
}

static bool has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

int check_bpf_privileges(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	char missing[128] = "";

	if (syscall(SYS_capget, &hdr, data))
		return 0;	/* cannot tell: let the kernel decide */
	if (has_cap(data, CAP_SYS_ADMIN))
		return 0;
	/* without CAP_SYS_ADMIN, tracing programs need CAP_BPF + CAP_PERFMON */
#ifdef CAP_BPF
	if (!has_cap(data, CAP_BPF))
		strcat(missing, " CAP_BPF");
#endif
#ifdef CAP_PERFMON
	if (!has_cap(data, CAP_PERFMON))
		strcat(missing, " CAP_PERFMON");
#endif
	strcat(missing, " CAP_SYS_ADMIN");
	fprintf(stderr, "insufficient privileges to load BPF tracing programs: run as root, or grant CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN (missing:%s)\n",
		missing);
	return -EPERM;
}
