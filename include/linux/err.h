/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors encoded in pointers, as the kernel's tools/include/linux/err.h
 * has them: the last page of the address space is -MAX_ERRNO..-1.
 * libbpf 1.0 returns NULL and sets errno instead, where IS_ERR() is
 * false: upstream's benchmarks that still test IS_ERR(link) build, and
 * a NULL link passes their check as it does upstream.
 */
#ifndef __BENCH_INCLUDE_LINUX_ERR_H
#define __BENCH_INCLUDE_LINUX_ERR_H

#include <stdbool.h>
#include <linux/compiler.h>

#define MAX_ERRNO 4095

#define IS_ERR_VALUE(x) unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE(ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif /* __BENCH_INCLUDE_LINUX_ERR_H */
