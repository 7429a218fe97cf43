/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_SYSCALL_H
#define __BENCH_SYSCALL_H

/*
 * The prefix of a syscall's entry point in the kernel, as upstream's
 * bpf_misc.h names it: fentry programs attach to SYS_PREFIX "sys_getpgid".
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

#endif /* __BENCH_SYSCALL_H */
