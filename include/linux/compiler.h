/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiler annotations upstream's benchmarks use, as the kernel's
 * tools/include/linux/compiler.h names them.
 */
#ifndef __BENCH_INCLUDE_LINUX_COMPILER_H
#define __BENCH_INCLUDE_LINUX_COMPILER_H

#ifndef __always_unused
#define __always_unused __attribute__((__unused__))
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((__unused__))
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef barrier
#define barrier() __asm__ __volatile__("" : : : "memory")
#endif
/* one access the compiler may neither tear, merge nor move out of a loop */
#ifndef READ_ONCE
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))
#endif

#endif /* __BENCH_INCLUDE_LINUX_COMPILER_H */
