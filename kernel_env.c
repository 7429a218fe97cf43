// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
