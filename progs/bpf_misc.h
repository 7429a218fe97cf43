/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BPF_MISC_H
#define __BPF_MISC_H

/*
 * What upstream's benchmark programs take from its progs/bpf_misc.h: the
 * prefix of a syscall's entry point in the kernel, so that an fentry
 * program attaches to SYS_PREFIX "sys_getpgid" on every architecture.
 */
#if defined(__TARGET_ARCH_x86)
#define SYS_PREFIX "__x64_"
#elif defined(__TARGET_ARCH_arm64)
#define SYS_PREFIX "__arm64_"
#elif defined(__TARGET_ARCH_s390)
#define SYS_PREFIX "__s390x_"
#else
#define SYS_PREFIX ""
#endif

#endif /* __BPF_MISC_H */
