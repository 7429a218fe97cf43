/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Powers of two, as the kernel's tools/include/linux/log2.h names them,
 * computed at run time (an argument that is a constant folds anyway).
 */
#ifndef __BENCH_INCLUDE_LINUX_LOG2_H
#define __BENCH_INCLUDE_LINUX_LOG2_H

#include <stdbool.h>

/* floor(log2(n)) for n > 0 */
static inline int ilog2(unsigned long long n)
{
	return 63 - __builtin_clzll(n);
}

static inline bool is_power_of_2(unsigned long long n)
{
	return n && !(n & (n - 1));
}

/* the least power of two >= n, for 0 < n <= 2^63 */
static inline unsigned long long roundup_pow_of_two(unsigned long long n)
{
	return n <= 1 ? 1 : 1ULL << (ilog2(n - 1) + 1);
}

/* the greatest power of two <= n, for n > 0 */
static inline unsigned long long rounddown_pow_of_two(unsigned long long n)
{
	return 1ULL << ilog2(n);
}

#endif /* __BENCH_INCLUDE_LINUX_LOG2_H */
