// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-create: one local storage per object the producers make,
 * created with BPF_LOCAL_STORAGE_GET_F_CREATE in the hook that sees the
 * object born, and every kmalloc() counted.
 *
 * Socket storage is created on lsm.s/socket_post_create (upstream's hook)
 * or, where the kernel refuses that (no trampolines, or no BPF LSM), on
 * cgroup/sock_create, which runs at the same moment of inet socket
 * creation for sockets of a cgroup.  Task storage is created on
 * tp_btf/sched_process_fork, for the child, in the parent's context: the
 * producer that called pthread_create().  Only the chosen program is
 * loaded (SEC("?...")), and only its storage map is created.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bench_producer.h"
#include "latency.h"
#include "local_storage_create.h"

char _license[] SEC("license") = "GPL";

/* upstream's value: 64 bytes */
struct storage {
	__u8 data[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct storage);
} sk_storage_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct storage);
} task_storage_map SEC(".maps");

/* every kmalloc() on the machine, per CPU: no shared cache line */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} kmallocs SEC(".maps");

/* --latency: each storage creation, timed */
LAT_HIST_MAP();

/*
 * Objects made by threads of ours that are no producer: the set-up's
 * probe, which tells a hook that attached but never runs (an LSM program
 * on a kernel without the BPF LSM active) from one that works.
 */
__u64 probe_hits;

static __always_inline struct bench_prod_counter *producer_or_probe(void)
{
	struct bench_prod_counter *c;
	__u32 tid, idx;

	if (!bench_in_process(&tid))
		return NULL;
	c = bench_producer_of(tid, &idx);
	if (!c)
		__sync_fetch_and_add(&probe_hits, 1);
	return c;
}

/*
 * Create the storage with get (a bpf_*_storage_get() call), timed for
 * --latency, and count it, or its failure, for producer c.
 */
#define create_storage(c, get) do {					\
	__u64 __t = lat_start();					\
	void *__stg = (get);						\
									\
	lat_end(__t);							\
	if (__stg)							\
		(c)->hits++;						\
	else								\
		(c)->errs[LSC_CREATE_ERRS]++;				\
} while (0)

SEC("?lsm.s/socket_post_create")
int BPF_PROG(lsc_socket_post_create, struct socket *sock, int family, int type, int protocol,
	     int kern)
{
	struct bench_prod_counter *c = producer_or_probe();
	struct sock *sk;

	if (!c)
		return 0;
	/* never NULL here, but newer verifiers want it checked */
	sk = sock->sk;
	if (sk)
		create_storage(c, bpf_sk_storage_get(&sk_storage_map, sk, NULL,
						     BPF_LOCAL_STORAGE_GET_F_CREATE));
	else
		c->errs[LSC_CREATE_ERRS]++;
	return 0;
}

/* 1: the socket may be created (0 would refuse it with EPERM) */
SEC("?cgroup/sock_create")
int lsc_sock_create(struct bpf_sock *sk)
{
	struct bench_prod_counter *c = producer_or_probe();

	if (c)
		create_storage(c, bpf_sk_storage_get(&sk_storage_map, sk, NULL,
						     BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 1;
}

/* runs in the parent, the thread that called clone() */
SEC("?tp_btf/sched_process_fork")
int BPF_PROG(lsc_sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	struct bench_prod_counter *c = producer_or_probe();

	if (c)
		create_storage(c, bpf_task_storage_get(&task_storage_map, child, NULL,
						       BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 0;
}

/*
 * Upstream's count: every kmalloc() on any CPU by anyone.  Also per
 * producer, when a producer thread is current (interrupts on its CPU
 * included).  One program never nests in itself on a CPU, so plain
 * increments of per-CPU and per-producer counters lose nothing.
 */
SEC("raw_tp/kmalloc")
int lsc_kmalloc(void *ctx)
{
	struct bench_prod_counter *c;
	__u32 zero = 0, idx;
	__u64 *n;

	n = bpf_map_lookup_elem(&kmallocs, &zero);
	if (n)
		(*n)++;
	c = bench_this_producer(&idx);
	if (c)
		c->errs[LSC_PROD_KMALLOCS]++;
	return 0;
}
