/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KERNEL_ENV_H
#define __KERNEL_ENV_H

/*
 * Where a run ran, as far as the kernel tells: under which hypervisor or
 * emulator, and with which cgroup layout.  Timings under TCG (QEMU's
 * emulator) are not comparable to hardware, and the cgroup layout decides
 * where memory figures come from, so results record both.
 */

/* what the classification looks at; NULL when the source is absent */
struct kenv_hv_input {
	const char *cpu_flags;		/* "flags" of /proc/cpuinfo (x86 only) */
	const char *cpu_model;		/* "model name" of /proc/cpuinfo */
	const char *hv_type;		/* /sys/hypervisor/type (Xen) */
	const char *sys_vendor;		/* /sys/devices/virtual/dmi/id/sys_vendor */
	const char *product_name;	/* /sys/devices/virtual/dmi/id/product_name */
	const char *clocksources;	/* .../clocksource0/available_clocksource */
};

struct kenv_hv {
	/* "none", "kvm", "tcg", "other" or "unknown" */
	const char *kind;
	/* what the verdict rests on, for a reader to check */
	char evidence[160];
};

void kenv_classify_hypervisor(const struct kenv_hv_input *in, struct kenv_hv *out);
/*
 * Read the inputs under root ("" for this machine, a directory of fake
 * files in tests) and classify.
 */
void kenv_read_hypervisor(const char *root, struct kenv_hv *out);

/*
 * "v2" (only cgroup2 mounted), "v1" (only v1 hierarchies), "hybrid" (both)
 * or "none", from a mountinfo file; NULL when it cannot be read.
 */
const char *kenv_cgroup_mode(const char *mountinfo_path);

#endif /* __KERNEL_ENV_H */
