/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system's <linux/types.h> and the kernel's short names of its types,
 * which tools/include/linux/types.h gives upstream's benchmarks (u32 key,
 * u64 time).
 */
#ifndef __BENCH_INCLUDE_LINUX_TYPES_H
#define __BENCH_INCLUDE_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdint.h>

/* the C library's 64-bit types, as the kernel's tools have them: %lu prints a u64 on LP64 */
typedef uint64_t u64;
typedef int64_t s64;
typedef __u32 u32;
typedef __s32 s32;
typedef __u16 u16;
typedef __s16 s16;
typedef __u8 u8;
typedef __s8 s8;

#endif /* __BENCH_INCLUDE_LINUX_TYPES_H */
