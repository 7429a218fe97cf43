/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BPF_ATOMIC_H
#define __BPF_ATOMIC_H

/*
 * Accesses shared with other CPUs in BPF programs, under the names of
 * upstream's progs/bpf_atomic.h.  The BPF instruction set has full
 * barriers only as a side effect of atomic read-modify-write: smp_mb()
 * is one on a throw-away stack slot.  x86 is TSO, so acquire and release
 * need only keep the compiler from reordering there; elsewhere they are
 * full barriers, stronger than needed and always correct (clang before
 * 18 has no BPF load-acquire instruction to emit).
 */
#include <bpf/bpf_helpers.h>

#ifndef barrier
#define barrier() __asm__ __volatile__("" : : : "memory")
#endif

/* one access the compiler may neither tear, merge nor move out of a loop */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))

#define smp_mb()							\
	({								\
		volatile unsigned long __bpf_atomic_slot = 0;		\
		__sync_fetch_and_add(&__bpf_atomic_slot, 0);		\
	})

#if defined(__TARGET_ARCH_x86)
#define __bpf_atomic_order() barrier()
#else
#define __bpf_atomic_order() smp_mb()
#endif

#define smp_rmb() __bpf_atomic_order()
#define smp_wmb() __bpf_atomic_order()

#define smp_load_acquire(p)						\
	({								\
		__typeof__(*(p)) __bpf_atomic_v = READ_ONCE(*(p));	\
		__bpf_atomic_order();					\
		__bpf_atomic_v;						\
	})

#define smp_store_release(p, val)					\
	({								\
		__bpf_atomic_order();					\
		WRITE_ONCE(*(p), val);					\
	})

/* the old value; *p becomes new only where it was old */
#define cmpxchg(p, old, new) __sync_val_compare_and_swap((p), (old), (new))

#endif /* __BPF_ATOMIC_H */
