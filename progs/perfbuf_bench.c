// SPDX-License-Identifier: GPL-2.0
/*
 * pb-libbpf, pb-custom: on each getpgid() of the benchmark's process,
 * write batch_cnt samples of 8 bytes into the running CPU's perf buffer,
 * as upstream's program of the same name does; a sample that finds no
 * room is a drop.  Hooks as in ringbuf_bench.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"

char _license[] SEC("license") = "GPL";

/* one perf buffer per CPU: libbpf sizes it to the possible CPUs */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(value_size, sizeof(int));
	__uint(key_size, sizeof(int));
} perfbuf SEC(".maps");

const volatile int batch_cnt = 0;

long sample_val = 42;
long dropped __attribute__((aligned(128))) = 0;

static __always_inline int write_batch(void *ctx)
{
	__u32 tid;
	int i;

	if (!bench_in_process(&tid))
		return 0;
	for (i = 0; i < batch_cnt; i++) {
		if (bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &sample_val,
					  sizeof(sample_val)))
			__sync_add_and_fetch(&dropped, 1);
	}
	return 0;
}

/* upstream's hook */
SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int bench_perfbuf(void *ctx)
{
	return write_batch(ctx);
}

/* where fentry is refused */
SEC("?tp/syscalls/sys_enter_getpgid")
int bench_perfbuf_tp(void *ctx)
{
	return write_batch(ctx);
}
