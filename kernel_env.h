/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KERNEL_ENV_H
#define __KERNEL_ENV_H

/*
 * The kernel environment: what a BPF benchmark needs from it (libbpf's
 * messages, privileges, tracefs in a mount namespace of the bench's own)
 * and where a run ran, as far as the kernel tells: under which hypervisor
 * or emulator, and with which cgroup layout.  Timings under TCG (QEMU's
 * emulator) are not comparable to hardware, and the cgroup layout decides
 * where memory figures come from, so results record both.
 */
#include <stdbool.h>

/* libbpf set-up: one print callback, DEBUG lines only when verbose */
void libbpf_print_setup(bool verbose);
/*
 * Drop libbpf's warnings too (unless verbose), around an attempt whose
 * failure the caller handles and reports in its own words.
 */
void libbpf_mute(bool mute);

/*
 * Make sure tracefs is reachable for tp/ attachment.  Always moves the
 * process into a private mount namespace first: looking under
 * /sys/kernel/debug/tracing (our probe, or libbpf's when it attaches)
 * automounts tracefs in the namespace of whoever looks.  Then mounts
 * tracefs at /sys/kernel/tracing there when it is not reachable.  Call
 * before starting threads and before attaching anything that goes through
 * tracefs.  Returns 0 or a negative errno and prints one line saying what
 * is missing.
 */
int ensure_tracefs(void);
/* unmount tracefs if ensure_tracefs() mounted it; idempotent */
void release_tracefs(void);

/*
 * Check that we may load and attach BPF tracing programs.  Returns 0, or
 * -EPERM after printing one line naming the missing privileges.
 */
int check_bpf_privileges(void);


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

/*
 * Refuse a kernel without bpf_get_ns_current_pid_tgid(): every BPF program
 * here recognises its producers with it (progs/bench_producer.h).  It loads
 * a probe program, so the runner calls it after the privilege check and
 * before the memory cgroup is joined.  Returns 0 or a negative errno with a
 * one-line message in msg.
 */
#include <stddef.h>
int check_bpf_ns_helper(char *msg, size_t msg_sz);

/*
 * The running kernel's GNU build id: the NT_GNU_BUILD_ID note (name "GNU",
 * type 3) among the ELF notes of buf, len bytes (/sys/kernel/notes), as
 * lower-case hex into hex (hexsz >= 2 * id length + 1).  0, or -ENOENT
 * when there is no such note, -EINVAL when the notes are malformed,
 * -ENOSPC when hex is too small.
 */
int kenv_parse_build_id(const void *buf, size_t len, char *hex, size_t hexsz);

/* the same from a notes file (/sys/kernel/notes): 0 or a negative errno */
int kenv_read_build_id(const char *path, char *hex, size_t hexsz);

#endif /* __KERNEL_ENV_H */
