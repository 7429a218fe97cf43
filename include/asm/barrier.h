/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory ordering between CPUs, as the kernel's tools/include/asm/barrier.h
 * names it, from the compiler's atomics: correct on every architecture,
 * where the kernel's are hand-written per architecture.
 */
#ifndef __BENCH_INCLUDE_ASM_BARRIER_H
#define __BENCH_INCLUDE_ASM_BARRIER_H

#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

#endif /* __BENCH_INCLUDE_ASM_BARRIER_H */
