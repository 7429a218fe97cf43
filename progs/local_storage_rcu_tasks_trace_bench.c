// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-tasks-trace: every getpgid() on the machine creates a task
 * local storage for the calling task and deletes it again, which hands
 * the storage to RCU Tasks Trace (call_rcu_tasks_trace()); the grace
 * periods that follow are timed from rcu_tasks_trace_pregp_step() to
 * rcu_tasks_trace_postgp().
 *
 * Upstream runs all three on fentry.  Where the kernel refuses fentry,
 * the storage churn runs on the syscall's tracepoint, and the grace
 * periods, which have no tracepoint, are not timed: userspace says so.
 * Only the chosen programs are loaded (SEC("?...")).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "bench_producer.h"
#include "bpf_misc.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} task_storage SEC(".maps");

/* the producer's storages that could not be created: must stay 0 */
#define LSTT_GET_ERRS 0

/* every task's get+delete, the sleepers' included (upstream's hits) */
__u64 hits;
/* grace periods that ended, and their summed length in ns */
__u64 gp_hits;
__u64 gp_times;
__u64 current_gp_start;
/* a postgp without its pregp after the first grace period: must stay 0 */
__u64 unexpected;
bool postgp_seen;

static __always_inline int churn(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct bench_prod_counter *p;
	int init = 0;
	__u32 idx;
	int *s;

	p = bench_this_producer(&idx);
	s = bpf_task_storage_get(&task_storage, task, &init, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s) {
		if (p)
			p->errs[LSTT_GET_ERRS]++;
		return 0;
	}
	*s = 3;
	bpf_task_storage_delete(&task_storage, task);
	__sync_fetch_and_add(&hits, 1);
	if (p)
		p->hits++;
	return 0;
}

SEC("?fentry/" SYS_PREFIX "sys_getpgid")
int get_local_fentry(void *ctx)
{
	return churn();
}

SEC("?tp/syscalls/sys_enter_getpgid")
int get_local_tp(void *ctx)
{
	return churn();
}

SEC("?fentry/rcu_tasks_trace_pregp_step")
int pregp_step(void *ctx)
{
	current_gp_start = bpf_ktime_get_ns();
	return 0;
}

SEC("?fentry/rcu_tasks_trace_postgp")
int postgp(void *ctx)
{
	/*
	 * A grace period that began before we attached has no start: not
	 * counted (upstream adds the time since boot for it).  After the
	 * first one, a missing start means the two hooks ran out of order.
	 */
	if (!current_gp_start) {
		if (postgp_seen)
			__sync_fetch_and_add(&unexpected, 1);
		postgp_seen = true;
		return 0;
	}
	__sync_fetch_and_add(&gp_times, bpf_ktime_get_ns() - current_gp_start);
	__sync_fetch_and_add(&gp_hits, 1);
	current_gp_start = 0;
	postgp_seen = true;
	return 0;
}
