// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF half of the "Adding a benchmark" example
 * (docs/adding-a-benchmark.md): count each producer's getpgid() calls.
 * tests/adding_a_benchmark.t copies it to progs/example.c in a copy of the
 * tree and builds it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"

char _license[] SEC("license") = "GPL";

SEC("tp/syscalls/sys_enter_getpgid")
int example_count(void *ctx)
{
	struct bench_prod_counter *c;
	__u32 idx;

	c = bench_this_producer(&idx);
	if (c)
		c->hits++;
	return 0;
}
