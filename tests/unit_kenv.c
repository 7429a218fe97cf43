// SPDX-License-Identifier: GPL-2.0
/*
 * Where a run ran: the hypervisor classification from what each kind of
 * machine shows (inputs as strings, then as fake files under a temporary
 * root), the cgroup mode from fake mountinfo files, and the kernel's GNU
 * build id from hand-made ELF notes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_env.h"
#include "tap.h"

static char tmp[64];

/* write content to tmp/path, creating directories on the way */
static void put(const char *path, const char *content)
{
	char full[PATH_MAX], *p;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", tmp, path);
	for (p = full + strlen(tmp) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(full, 0755) && errno != EEXIST) {
			printf("Bail out! cannot create %s: %s\n", full, strerror(errno));
			exit(1);
		}
		*p = '/';
	}
	f = fopen(full, "w");
	if (!f) {
		printf("Bail out! cannot write %s: %s\n", full, strerror(errno));
		exit(1);
	}
	fputs(content, f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void clear_root(void)
{
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (mkdir(tmp, 0700)) {
		printf("Bail out! cannot create %s: %s\n", tmp, strerror(errno));
		exit(1);
	}
}

#define X86_FLAGS "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov"
#define X86_FLAGS_HV X86_FLAGS " hypervisor lahf_lm"

static void classify(const char *what, const struct kenv_hv_input *in, const char *want,
		     const char *evidence)
{
	struct kenv_hv hv;

	kenv_classify_hypervisor(in, &hv);
	is_str(hv.kind, want, "%s: %s", what, want);
	ok(strstr(hv.evidence, evidence) != NULL, "%s: evidence mentions '%s' (%s)", what,
	   evidence, hv.evidence);
}

static void test_classify(void)
{
	/* bare metal: x86 flags without "hypervisor", a real vendor */
	classify("bare metal", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS, .sys_vendor = "Dell Inc.",
		.product_name = "PowerEdge R750", .clocksources = "tsc hpet acpi_pm" },
		"none", "no cpuid hypervisor flag");
	/* QEMU under KVM: QEMU's DMI, and the kernel registered kvm-clock */
	classify("QEMU/KVM", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .sys_vendor = "QEMU",
		.product_name = "Standard PC (i440FX + PIIX, 1996)",
		.clocksources = "kvm-clock tsc acpi_pm" },
		"kvm", "kvm-clock");
	/* QEMU's emulator: QEMU's DMI and no kvm-clock */
	classify("QEMU/TCG", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .sys_vendor = "QEMU",
		.product_name = "Standard PC (i440FX + PIIX, 1996)",
		.clocksources = "tsc acpi_pm" },
		"tcg", "no kvm-clock");
	/* QEMU's CPU models name TCG, with or without DMI (microvm has none) */
	classify("QEMU/TCG, CPU model only", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .cpu_model = "QEMU TCG CPU version 2.5+",
		.clocksources = "hpet acpi_pm" },
		"tcg", "QEMU TCG CPU");
	classify("QEMU/KVM with qemu64's model name", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .cpu_model = "QEMU Virtual CPU version 2.5+",
		.sys_vendor = "QEMU", .clocksources = "kvm-clock tsc" },
		"kvm", "kvm-clock");
	/* a cpu model without the hypervisor bit changes nothing */
	classify("QEMU/TCG, no hypervisor flag", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS, .sys_vendor = "QEMU",
		.product_name = "Standard PC (Q35 + ICH9, 2009)", .clocksources = "tsc hpet" },
		"tcg", "QEMU");
	/* Firecracker and friends: KVM without DMI at all */
	classify("Firecracker", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .clocksources = "tsc kvm-clock " },
		"kvm", "kvm-clock");
	/* kvm-clock as part of another word is not kvm-clock */
	classify("look-alike clocksource", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS, .clocksources = "not-kvm-clock tsc" },
		"none", "no cpuid hypervisor flag");
	classify("Xen", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .hv_type = "xen", .clocksources = "xen tsc" },
		"other", "xen");
	classify("VMware", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .sys_vendor = "VMware, Inc.",
		.product_name = "VMware Virtual Platform", .clocksources = "tsc hpet acpi_pm" },
		"other", "VMware");
	classify("Hyper-V", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS_HV, .sys_vendor = "Microsoft Corporation",
		.product_name = "Virtual Machine",
		.clocksources = "tsc hyperv_clocksource_tsc_page acpi_pm" },
		"other", "hypervisor flag");
	/* "hypervisor" inside another flag is not the flag */
	classify("look-alike flag", &(struct kenv_hv_input){
		.cpu_flags = X86_FLAGS " nothypervisor", .clocksources = "tsc" },
		"none", "no cpuid");
	/* arm64: no flags line; QEMU's DMI cannot tell KVM from TCG there */
	classify("arm64 QEMU", &(struct kenv_hv_input){
		.sys_vendor = "QEMU", .product_name = "KVM Virtual Machine",
		.clocksources = "arch_sys_counter" },
		"other", "accelerator unknown");
	classify("arm64, nothing to go on", &(struct kenv_hv_input){
		.clocksources = "arch_sys_counter" },
		"unknown", "no cpuid flags");
	classify("nothing readable", &(struct kenv_hv_input){}, "unknown", "no cpuid flags");
}

static void read_tree(const char *what, const char *want)
{
	struct kenv_hv hv;

	kenv_read_hypervisor(tmp, &hv);
	is_str(hv.kind, want, "fake tree, %s: %s (%s)", what, want, hv.evidence);
}

#define CLOCKSRC "/sys/devices/system/clocksource/clocksource0/available_clocksource"
#define DMI "/sys/devices/virtual/dmi/id/"

static void test_read(void)
{
	clear_root();
	/* the flags line is the second of several processors' blocks */
	put("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: " X86_FLAGS_HV
	    "\nbogomips\t: 4000\n\nprocessor\t: 1\nflags\t\t: " X86_FLAGS_HV "\n");
	put(CLOCKSRC, "tsc kvm-clock \n");
	read_tree("this host's shape (Firecracker: no DMI, kvm-clock)", "kvm");

	put(CLOCKSRC, "tsc acpi_pm \n");
	put(DMI "sys_vendor", "QEMU\n");
	put(DMI "product_name", "Standard PC (i440FX + PIIX, 1996)\n");
	read_tree("QEMU without kvm-clock", "tcg");

	put(CLOCKSRC, "kvm-clock tsc acpi_pm \n");
	read_tree("QEMU with kvm-clock", "kvm");

	/* what this branch's VM shows: QEMU's TCG CPU model, no DMI needed */
	clear_root();
	put("/proc/cpuinfo", "processor\t: 0\nvmx flags\t: vnmi\nmodel name\t: QEMU TCG CPU version 2.5+\n"
	    "flags\t\t: " X86_FLAGS_HV "\n");
	put(CLOCKSRC, "hpet acpi_pm \n");
	read_tree("TCG CPU model, no DMI", "tcg");
	/* "vmx flags" is not the flags line: without it, this is not x86-like */
	put("/proc/cpuinfo", "processor\t: 0\nvmx flags\t: hypervisor\n");
	read_tree("only a 'vmx flags' line", "unknown");

	clear_root();
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: " X86_FLAGS "\n");
	put(DMI "sys_vendor", "\n");
	read_tree("x86 without the hypervisor flag, empty DMI vendor", "none");

	clear_root();
	read_tree("an empty root", "unknown");

	/* a flags line longer than any fixed buffer */
	clear_root();
	{
		size_t n = 20000, len = 0;
		char *big = malloc(n + 64);

		len += sprintf(big, "flags\t\t: ");
		while (len < n)
			len += sprintf(big + len, "feature%zu ", len);
		sprintf(big + len, "hypervisor\n");
		put("/proc/cpuinfo", big);
		free(big);
	}
	read_tree("a 20000-byte flags line ending in hypervisor", "other");
}

static void mode(const char *what, const char *mountinfo, const char *want)
{
	char path[PATH_MAX];

	put("/mountinfo", mountinfo);
	snprintf(path, sizeof(path), "%s/mountinfo", tmp);
	is_str(kenv_cgroup_mode(path), want, "cgroup mode, %s: %s", what, want ? want : "NULL");
}

#define ROOT_LINE "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
#define V2_LINE "30 22 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
#define V2_UNIFIED "31 30 0:27 / /sys/fs/cgroup/unified rw shared:5 - cgroup2 cgroup2 rw\n"
#define V1_MEM "35 30 0:30 / /sys/fs/cgroup/memory rw shared:9 - cgroup cgroup rw,memory\n"
#define V1_SYSTEMD "32 30 0:28 / /sys/fs/cgroup/systemd rw shared:6 - cgroup cgroup rw,name=systemd\n"
#define TMPFS "29 22 0:25 / /sys/fs/cgroup ro shared:3 - tmpfs tmpfs ro,mode=755\n"

static void test_cgroup_mode(void)
{
	char path[PATH_MAX];

	clear_root();
	mode("pure v2", ROOT_LINE V2_LINE, "v2");
	mode("hybrid, as on this host", ROOT_LINE TMPFS V2_UNIFIED V1_SYSTEMD V1_MEM, "hybrid");
	mode("legacy v1", ROOT_LINE TMPFS V1_SYSTEMD V1_MEM, "v1");
	mode("no cgroup mounted", ROOT_LINE, "none");
	/* optional fields vary; a source named cgroup2 on another fs is not v2 */
	mode("no optional fields", "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 none rw\n", "v2");
	mode("cgroup2 only as a source name", ROOT_LINE
	     "40 22 0:40 / /mnt rw - tmpfs cgroup2 rw\n", "none");
	snprintf(path, sizeof(path), "%s/no-such-file", tmp);
	is_str(kenv_cgroup_mode(path), NULL, "cgroup mode, unreadable mountinfo: NULL");
	ok(kenv_cgroup_mode("/proc/self/mountinfo") != NULL, "cgroup mode of this process: %s",
	   kenv_cgroup_mode("/proc/self/mountinfo"));
}

/* one ELF note: header, name and descriptor each padded to 4 bytes */
static size_t put_note(unsigned char *p, const char *name, unsigned int type,
		       const unsigned char *desc, unsigned int descsz)
{
	unsigned int namesz = strlen(name) + 1, hdr[3] = { namesz, descsz, type };
	size_t off = sizeof(hdr);

	memcpy(p, hdr, sizeof(hdr));
	memset(p + off, 0, ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u));
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memcpy(p + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

static void test_build_id(void)
{
	const unsigned char id[20] = { 0xa3, 0xe4, 0xcd, 0x60, 0x00, 0x01, 0xff, 0x10, 0, 0,
				       0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34 };
	const unsigned char linux_desc[5] = { 1, 1, 0, 0, 7 };
	unsigned char buf[256];
	char hex[64], small[8];
	size_t n = 0;

	/* Linux's own notes first (name "Linux", odd descriptor size), then GNU's */
	n += put_note(buf + n, "Linux", 6, linux_desc, sizeof(linux_desc));
	n += put_note(buf + n, "GNU", 1, id, 4);	/* GNU, but not a build id (type 1) */
	n += put_note(buf + n, "GNU", 3, id, sizeof(id));
	is_int(kenv_parse_build_id(buf, n, hex, sizeof(hex)), 0, "build id: found after other notes");
	is_str(hex, "a3e4cd600001ff10000000000000000000001234", "build id: lower-case hex, every byte");
	is_int(kenv_parse_build_id(buf, n, small, sizeof(small)), -ENOSPC, "build id: no room: -ENOSPC");
	is_int(kenv_parse_build_id(buf, n - 4, hex, sizeof(hex)), -EINVAL,
	       "build id: a note cut short: -EINVAL");
	n = put_note(buf, "Linux", 3, id, sizeof(id));
	is_int(kenv_parse_build_id(buf, n, hex, sizeof(hex)), -ENOENT,
	       "build id: type 3 of another name is not it: -ENOENT");
	is_int(kenv_parse_build_id(buf, 0, hex, sizeof(hex)), -ENOENT, "build id: no notes: -ENOENT");
	n = put_note(buf, "GNU", 3, id, 0);
	is_int(kenv_parse_build_id(buf, n, hex, sizeof(hex)), -EINVAL, "build id: empty: -EINVAL");
	is_int(kenv_read_build_id("/nonexistent/notes", hex, sizeof(hex)), -ENOENT,
	       "build id: no notes file: -ENOENT");
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/unit_kenv.%d", getpid());
	test_classify();
	test_read();
	test_cgroup_mode();
	test_build_id();
	nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return done_testing();
}
