// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF half of upstream-api-*, written against upstream's BPF-side
 * headers (bpf_misc.h, bpf_atomic.h, bpf_experimental.h) as its
 * benchmarks are.  The producers call getpgid(magic), magic set by
 * userspace, so that no other caller of getpgid() counts: each call walks
 * a batch with bpf_for() and counts into its CPU's slot.  A syscall
 * program times batches of bpf_obj_new() and bpf_obj_drop().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpf_misc.h"
#include "bpf_atomic.h"
#include "bpf_experimental.h"

char _license[] SEC("license") = "GPL";

#define NR_CPUS 256
#define CPU_MASK (NR_CPUS - 1)

/* set by userspace before load */
const volatile long magic;		/* the pid argument the producers pass */
const volatile __u64 cgroup_id;		/* count only tasks in this cgroup (0: any) */
const volatile __u32 batch = 16;

/* each CPU's counts, on lines of their own (anonymous: the skeleton spells it out) */
struct {
	__u64 hits;
	__u64 drops;
	__u64 false_hits;
	__u64 important_hits;
} __attribute__((aligned(128))) cpu_stats[NR_CPUS];

/* the syscall program's timed batches */
long objs;
long duration_ns;
long batches;
/* bumped after each trigger's counts, read with acquire */
__u32 gen;

struct obj {
	__u64 v;
};

SEC("tp/syscalls/sys_enter_getpgid")
int count_getpgid(struct syscall_trace_enter *ctx)
{
	__typeof__(cpu_stats[0]) *s = &cpu_stats[bpf_get_smp_processor_id() & CPU_MASK];
	__u32 i;	/* unsigned: BPF has no signed division */

	if ((long)ctx->args[0] != magic)
		return 0;
	if (cgroup_id && bpf_get_current_cgroup_id() != cgroup_id)
		return 0;
	/* of each 8: 6 hits, 2 drops, one of them a false hit; 1 in 10 important */
	bpf_for(i, 0, batch) {
		if ((i & 3) == 3) {
			WRITE_ONCE(s->drops, s->drops + 1);
			if ((i & 7) == 7)
				WRITE_ONCE(s->false_hits, s->false_hits + 1);
		} else {
			WRITE_ONCE(s->hits, s->hits + 1);
		}
		if (i % 10 == 0)
			WRITE_ONCE(s->important_hits, s->important_hits + 1);
	}
	smp_store_release(&gen, READ_ONCE(gen) + 1);
	return 0;
}

/* upstream's hook for the same count where the kernel allows fentry: not loaded */
SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int BPF_PROG(count_getpgid_fentry)
{
	return 0;
}

SEC("syscall")
int alloc_batch(void *ctx)
{
	__u64 start = bpf_ktime_get_ns();
	struct obj *o;
	int i, done = 0;

	bpf_for(i, 0, batch) {
		o = bpf_obj_new(struct obj);
		if (!o)
			break;
		o->v = i;
		bpf_obj_drop(o);
		done++;
	}
	__sync_fetch_and_add(&duration_ns, bpf_ktime_get_ns() - start);
	__sync_fetch_and_add(&objs, done);
	__sync_fetch_and_add(&batches, 1);
	return done;
}
