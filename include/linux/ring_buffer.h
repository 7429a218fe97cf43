/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A perf ring buffer's head and tail, as the kernel's
 * tools/include/linux/ring_buffer.h reads and writes them: the head
 * with acquire (records before it are complete), the tail with release
 * (the kernel may reuse what is before it).
 */
#ifndef __BENCH_INCLUDE_LINUX_RING_BUFFER_H
#define __BENCH_INCLUDE_LINUX_RING_BUFFER_H

#include <asm/barrier.h>
#include <linux/perf_event.h>

static inline __u64 ring_buffer_read_head(struct perf_event_mmap_page *base)
{
	return smp_load_acquire(&base->data_head);
}

static inline void ring_buffer_write_tail(struct perf_event_mmap_page *base, __u64 tail)
{
	smp_store_release(&base->data_tail, tail);
}

#endif /* __BENCH_INCLUDE_LINUX_RING_BUFFER_H */
