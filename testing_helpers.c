// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>

#include "testing_helpers.h"

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	/* strtol skips leading blanks and accepts a sign; we want digits only */
	if (!s || !*s)
		return -EINVAL;
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '-' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_ulong_any_base(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;
	int base = 10;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
	} else if (!isdigit((unsigned char)s[0])) {
		return -EINVAL;
	}
	errno = 0;
	v = strtoul(s, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

void cpu_list_free(struct cpu_list *l)
{
	free(l->cpus);
	l->cpus = NULL;
	l->cnt = 0;
}

static int cpu_list_add(struct cpu_list *l, int cpu)
{
	int *tmp, i;

	for (i = 0; i < l->cnt; i++)
		if (l->cpus[i] == cpu)
			return -EINVAL;
	tmp = realloc(l->cpus, (l->cnt + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	l->cpus = tmp;
	l->cpus[l->cnt++] = cpu;
	return 0;
}

/* CPU numbers beyond this cannot be in a cpu_set_t */
#define MAX_CPU_NR (CPU_SETSIZE - 1)

/* one CPU number at *p, which is advanced past it */
static int parse_cpu_nr(const char **p, long *cpu)
{
	char num[16];
	int len = strspn(*p, "0123456789");

	if (len == 0)
		return -EINVAL;
	if (len >= (int)sizeof(num))
		return -ERANGE;
	memcpy(num, *p, len);
	num[len] = '\0';
	*p += len;
	return parse_long(num, 0, MAX_CPU_NR, cpu);
}

int parse_cpu_list(const char *s, struct cpu_list *out)
{
	const char *p = s;
	long lo, hi, c;
	int err;

	out->cpus = NULL;
	out->cnt = 0;
	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		err = parse_cpu_nr(&p, &lo);
		if (err)
			goto err_out;
		hi = lo;
		if (*p == '-') {
			p++;
			err = parse_cpu_nr(&p, &hi);
			if (err)
				goto err_out;
			if (hi < lo) {
				err = -EINVAL;
				goto err_out;
			}
		}
		for (c = lo; c <= hi; c++) {
			err = cpu_list_add(out, c);
			if (err)
				goto err_out;
		}
		if (*p == ',') {
			p++;
			if (!*p) {
				err = -EINVAL;
				goto err_out;
			}
		} else if (*p) {
			err = -EINVAL;
			goto err_out;
		}
	}
	return 0;
err_out:
	cpu_list_free(out);
	return err;
}

int allowed_cpu_list(struct cpu_list *out)
{
	cpu_set_t set;
	int cpu, err;

	out->cpus = NULL;
	out->cnt = 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		err = cpu_list_add(out, cpu);
		if (err) {
			cpu_list_free(out);
			return err;
		}
	}
	return 0;
}

int cpu_list_first_not_in(const struct cpu_list *l, const struct cpu_list *allowed)
{
	int i, j;

	for (i = 0; i < l->cnt; i++) {
		for (j = 0; j < allowed->cnt; j++)
			if (allowed->cpus[j] == l->cpus[i])
				break;
		if (j == allowed->cnt)
			return l->cpus[i];
	}
	return -1;
}

int read_first_line(const char *path, char *buf, size_t sz)
{
	FILE *fp = fopen(path, "re");

	if (!fp)
		return -errno;
	if (!fgets(buf, sz, fp))
		buf[0] = '\0';
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool libbpf_verbose;
static bool libbpf_muted;

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if ((level == LIBBPF_DEBUG || libbpf_muted) && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void setup_libbpf(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print_fn);
}

void libbpf_mute(bool mute)
{
	libbpf_muted = mute;
}

#define TRACEFS_DIR "/sys/kernel/tracing"
#define DEBUGFS_TRACING "/sys/kernel/debug/tracing"

static bool tracefs_mounted_by_us;
static bool in_private_mntns;

/*
 * Every lookup under the tracing directories happens in here, never in the
 * caller's mount namespace: with debugfs mounted (as on most distributions)
 * walking through /sys/kernel/debug/tracing makes the kernel automount
 * tracefs there, in the namespace of whoever walked.  That includes libbpf,
 * which reads tracepoint ids under /sys/kernel/debug/tracing whenever that
 * directory exists, so the namespace must exist before attaching too.
 * Private, so our mounts and automounts do not propagate back, two runs
 * cannot race over one mountpoint, and a run killed with SIGKILL leaves
 * nothing behind (the namespace dies with the process).  Called from
 * setup, before any thread exists, so every thread shares it.
 */
static int enter_private_mntns(void)
{
	int err;

	if (in_private_mntns)
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
	in_private_mntns = true;
	return 0;
}

/* only after enter_private_mntns(): the second access may automount */
static bool tracefs_ready(void)
{
	/* libbpf looks for the events under either location */
	return !access(TRACEFS_DIR "/events", F_OK) ||
	       !access(DEBUGFS_TRACING "/events", F_OK);
}

int ensure_tracefs(void)
{
	int err;

	err = enter_private_mntns();
	if (err)
		return err;
	if (tracefs_ready())
		return 0;
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
