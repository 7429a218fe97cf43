// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel environment: libbpf's messages, privileges, tracefs in a
 * mount namespace of our own, and where a run ran (hypervisor, cgroup mode).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>

#include "kernel_env.h"
#include "testing_helpers.h"

/* word is one of the blank-separated words of list */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	if (!list)
		return false;
	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

static bool is_qemu(const struct kenv_hv_input *in)
{
	return (in->sys_vendor && !strcmp(in->sys_vendor, "QEMU")) ||
	       (in->product_name && strstr(in->product_name, "QEMU"));
}

/*
 * Sources the kernel exposes without dmesg.  kvm-clock is registered only
 * when the kernel found KVM's paravirtual clock, which QEMU offers under
 * KVM and not under TCG, so "QEMU without kvm-clock" is the emulator.  A
 * KVM guest without QEMU (Firecracker, cloud-hypervisor) has no QEMU DMI,
 * often no DMI at all, and still has kvm-clock.
 */
void kenv_classify_hypervisor(const struct kenv_hv_input *in, struct kenv_hv *out)
{
	const char *vendor = in->sys_vendor && *in->sys_vendor ? in->sys_vendor : NULL;

	if (has_word(in->clocksources, "kvm-clock")) {
		out->kind = "kvm";
		snprintf(out->evidence, sizeof(out->evidence), "kvm-clock clocksource%s%s",
			 vendor ? ", DMI vendor " : "", vendor ?: "");
	} else if (in->cpu_model && strstr(in->cpu_model, "QEMU TCG CPU")) {
		/* QEMU's own CPU models name the accelerator they run on */
		out->kind = "tcg";
		snprintf(out->evidence, sizeof(out->evidence), "CPU model '%s'", in->cpu_model);
	} else if (in->hv_type && *in->hv_type) {
		out->kind = "other";
		snprintf(out->evidence, sizeof(out->evidence), "/sys/hypervisor/type %s",
			 in->hv_type);
	} else if (is_qemu(in) && in->cpu_flags) {
		/* x86, where a KVM guest would have registered kvm-clock */
		out->kind = "tcg";
		snprintf(out->evidence, sizeof(out->evidence),
			 "DMI says QEMU (%s / %s), no kvm-clock clocksource",
			 vendor ?: "?", in->product_name ?: "?");
	} else if (is_qemu(in)) {
		/* elsewhere nothing tells KVM from TCG without dmesg */
		out->kind = "other";
		snprintf(out->evidence, sizeof(out->evidence),
			 "DMI says QEMU (%s / %s), accelerator unknown on this architecture",
			 vendor ?: "?", in->product_name ?: "?");
	} else if (has_word(in->cpu_flags, "hypervisor")) {
		out->kind = "other";
		snprintf(out->evidence, sizeof(out->evidence), "cpuid hypervisor flag%s%s",
			 vendor ? ", DMI vendor " : "", vendor ?: "");
	} else if (in->cpu_flags) {
		out->kind = "none";
		snprintf(out->evidence, sizeof(out->evidence), "no cpuid hypervisor flag");
	} else {
		out->kind = "unknown";
		snprintf(out->evidence, sizeof(out->evidence),
			 "no cpuid flags, no hypervisor, DMI or clocksource evidence");
	}
}

/* the first line of a cpuinfo file labelled key, without the label; NULL if none */
static char *cpuinfo_field(const char *path, const char *key)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *flags = NULL, *p;
	size_t sz = 0, klen = strlen(key);

	if (!f)
		return NULL;
	while (getline(&line, &sz, f) > 0) {
		p = strchr(line, ':');
		/* the key, then only blanks up to the colon ("flags" is not "vmx flags") */
		if (!p || strncmp(line, key, klen) ||
		    strspn(line + klen, " \t") != (size_t)(p - line) - klen)
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = '\0';
		flags = strdup(p);
		break;
	}
	free(line);
	fclose(f);
	return flags;
}

/* first line of root/path, or NULL when missing or empty */
static const char *read_under(const char *root, const char *path, char *buf, size_t sz)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", root, path);
	if (read_first_line(full, buf, sz) || !*buf)
		return NULL;
	return buf;
}

void kenv_read_hypervisor(const char *root, struct kenv_hv *out)
{
	char hv[64], vendor[128], product[128], clocks[256], path[512];
	struct kenv_hv_input in;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	in = (struct kenv_hv_input){
		.cpu_flags = cpuinfo_field(path, "flags"),
		.cpu_model = cpuinfo_field(path, "model name"),
		.hv_type = read_under(root, "/sys/hypervisor/type", hv, sizeof(hv)),
		.sys_vendor = read_under(root, "/sys/devices/virtual/dmi/id/sys_vendor",
					 vendor, sizeof(vendor)),
		.product_name = read_under(root, "/sys/devices/virtual/dmi/id/product_name",
					   product, sizeof(product)),
		.clocksources = read_under(root,
			"/sys/devices/system/clocksource/clocksource0/available_clocksource",
			clocks, sizeof(clocks)),
	};
	kenv_classify_hypervisor(&in, out);
	free((char *)in.cpu_flags);
	free((char *)in.cpu_model);
}

const char *kenv_cgroup_mode(const char *mountinfo_path)
{
	FILE *f = fopen(mountinfo_path, "re");
	bool v1 = false, v2 = false;
	char *line = NULL, *p;
	size_t sz = 0;

	if (!f)
		return NULL;
	/* ... mountpoint options [optional fields] - fstype source superoptions */
	while (getline(&line, &sz, f) > 0) {
		p = strstr(line, " - ");
		if (!p)
			continue;
		p += 3;
		if (!strncmp(p, "cgroup2 ", 8))
			v2 = true;
		else if (!strncmp(p, "cgroup ", 7))
			v1 = true;
	}
	free(line);
	fclose(f);
	if (v1 && v2)
		return "hybrid";
	return v2 ? "v2" : v1 ? "v1" : "none";
}

static bool libbpf_verbose;
static bool libbpf_muted;

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if ((level == LIBBPF_DEBUG || libbpf_muted) && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void libbpf_print_setup(bool verbose)
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

int check_bpf_ns_helper(char *msg, size_t msg_sz)
{
	/*
	 * Without the namespace-aware helper the program cannot load; say
	 * why in words rather than with the verifier's "unknown func".
	 * A probe that cannot run (< 0) leaves the verdict to the load.
	 */
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_TRACEPOINT, BPF_FUNC_get_ns_current_pid_tgid,
				    NULL) == 0) {
		snprintf(msg, msg_sz,
			 "this kernel lacks bpf_get_ns_current_pid_tgid() (Linux 5.7 and later): the BPF program could not recognise the producer threads and would count nothing, so the benchmark refuses to run");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* an ELF note's name and descriptor are each padded to 4 bytes */
#define NOTE_ALIGN(x) (((x) + 3) & ~(size_t)3)
#define NT_GNU_BUILD_ID_TYPE 3

int kenv_parse_build_id(const void *buf, size_t len, char *hex, size_t hexsz)
{
	const unsigned char *p = buf, *end = p + len;
	unsigned int namesz, descsz, type;
	size_t i, need;

	while ((size_t)(end - p) >= 12) {
		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		p += 12;
		need = NOTE_ALIGN((size_t)namesz) + NOTE_ALIGN((size_t)descsz);
		if (need > (size_t)(end - p))
			return -EINVAL;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && !memcmp(p, "GNU", 4)) {
			const unsigned char *desc = p + NOTE_ALIGN(namesz);

			if (!descsz)
				return -EINVAL;
			if (hexsz < 2 * (size_t)descsz + 1)
				return -ENOSPC;
			for (i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", desc[i]);
			return 0;
		}
		p += need;
	}
	return -ENOENT;
}

int kenv_read_build_id(const char *path, char *hex, size_t hexsz)
{
	unsigned char buf[4096];
	size_t len;
	FILE *f = fopen(path, "re");
	int err;

	if (!f)
		return -errno;
	len = fread(buf, 1, sizeof(buf), f);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	return err ? err : kenv_parse_build_id(buf, len, hex, hexsz);
}
