// SPDX-License-Identifier: GPL-2.0
/*
 * rb-libbpf, rb-custom: on each getpgid() of the benchmark's process,
 * write batch_cnt records of 8 bytes into a BPF ring buffer, as
 * upstream's program of the same name does; a record that finds no room
 * is a drop.  With bench_producer (--rb-bench-producer) nobody reads the
 * ring: the program counts what it wrote and never wakes a reader.
 *
 * Upstream runs on fentry and for every process; ours runs for our own
 * process only (a getpgid() of another process costs nothing here), from
 * fentry where the kernel allows it, else from the syscall's tracepoint
 * (benchs/lib_hook.h).  Any thread of ours: in back-to-back mode the
 * consumer triggers the next batch.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"

char _license[] SEC("license") = "GPL";

/* sized by userspace: upstream's 512 KiB */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
} ringbuf SEC(".maps");

const volatile int batch_cnt = 0;
const volatile long use_output = 0;
const volatile bool bench_producer = false;
/* notify the reader only once this much data waits (--rb-sampled), 0: always */
const volatile long wakeup_data_size = 0;

long sample_val = 42;
/* written by every producer CPU, read by the sampler: lines of their own */
long dropped __attribute__((aligned(128))) = 0;
long hits __attribute__((aligned(128))) = 0;

static __always_inline long wakeup_flags(void)
{
	long avail;

	if (bench_producer)
		return BPF_RB_NO_WAKEUP;
	if (!wakeup_data_size)
		return 0;
	avail = bpf_ringbuf_query(&ringbuf, BPF_RB_AVAIL_DATA);
	return avail >= wakeup_data_size ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void reserve_batch(void)
{
	long *rec;
	int i;

	for (i = 0; i < batch_cnt; i++) {
		rec = bpf_ringbuf_reserve(&ringbuf, sizeof(sample_val), 0);
		if (!rec) {
			__sync_add_and_fetch(&dropped, 1);
			continue;
		}
		*rec = sample_val;
		bpf_ringbuf_submit(rec, wakeup_flags());
		if (bench_producer)
			__sync_add_and_fetch(&hits, 1);
	}
}

static __always_inline void output_batch(void)
{
	int i;

	for (i = 0; i < batch_cnt; i++) {
		if (bpf_ringbuf_output(&ringbuf, &sample_val, sizeof(sample_val), wakeup_flags()))
			__sync_add_and_fetch(&dropped, 1);
		else if (bench_producer)
			__sync_add_and_fetch(&hits, 1);
	}
}

static __always_inline int write_batch(void)
{
	__u32 tid;

	if (!bench_in_process(&tid))
		return 0;
	if (use_output)
		output_batch();
	else
		reserve_batch();
	return 0;
}

/* upstream's hook */
SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int bench_ringbuf(void *ctx)
{
	return write_batch();
}

/* where fentry is refused */
SEC("?tp/syscalls/sys_enter_getpgid")
int bench_ringbuf_tp(void *ctx)
{
	return write_batch();
}
