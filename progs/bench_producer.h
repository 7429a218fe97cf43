/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Producer identity and per-producer counters, one way for every BPF
 * benchmark: included by the BPF programs and by userspace (producer_counters.c).
 *
 * A program recognises a producer thread by its ids as seen from the
 * benchmark's own pid namespace (bpf_get_ns_current_pid_tgid()), because
 * userspace reads getpid()/gettid() there: the global ids that
 * bpf_get_current_pid_tgid() returns differ from those inside a container,
 * and a program comparing them would never see a producer.
 */
#ifndef __BENCH_PRODUCER_H
#define __BENCH_PRODUCER_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* the runner's thread limit (BENCH_MAX_THREADS) */
#define BENCH_PROD_MAX		1024
/* benchmark-defined error counters per producer (e.g. failed map updates) */
#define BENCH_PROD_NR_ERRS	2

/* set by userspace before load */
struct bench_prod_ids {
	__u64 pidns_dev;	/* st_dev and st_ino of /proc/self/ns/pid */
	__u64 pidns_ino;
	__u32 tgid;		/* getpid() in that namespace */
};

/*
 * One per producer, written only by the programs that run in that
 * producer's thread (so no atomics are needed) and read by userspace
 * through an mmap().  128 bytes: a cache line plus the adjacent one that
 * prefetchers pull in, so producers do not slow each other.
 */
struct bench_prod_counter {
	__u64 hits;			/* operations done */
	__u64 errs[BENCH_PROD_NR_ERRS];	/* cumulative, meaning per benchmark */
} __attribute__((aligned(128)));

#if defined(__bpf__) || defined(__BPF__)
const volatile struct bench_prod_ids bench_ids;

/* producer thread id (in our pid namespace) -> producer index */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);			/* the producer count */
} bench_producers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct bench_prod_counter);
	__uint(max_entries, 1);			/* the producer count */
	__uint(map_flags, BPF_F_MMAPABLE);
} bench_prod_counters SEC(".maps");

/*
 * struct bpf_pidns_info as the UAPI fixes it.  vmlinux.h's copy would make
 * every field access a CO-RE relocation, and resolving those makes libbpf
 * parse the kernel's BTF: megabytes charged to htab-mem's memory cgroup.
 */
struct bench_pidns_info {
	__u32 pid;
	__u32 tgid;
};

/*
 * True when the running thread belongs to the benchmark's process; *tid is
 * then its id in our pid namespace.  A program that wants to know its
 * hook fires for us at all (a probe from a thread that is no producer)
 * starts here; bench_this_producer() goes on to the producer's counters.
 */
static __always_inline bool bench_in_process(__u32 *tid)
{
	struct bench_pidns_info ns = {};

	if (bpf_get_ns_current_pid_tgid(bench_ids.pidns_dev, bench_ids.pidns_ino,
					(struct bpf_pidns_info *)&ns, sizeof(ns)) ||
	    ns.tgid != bench_ids.tgid)
		return false;
	*tid = ns.pid;
	return true;
}

/* the counters of producer thread tid (in our pid namespace), or NULL for another thread */
static __always_inline struct bench_prod_counter *bench_producer_of(__u32 tid, __u32 *idx)
{
	__u32 *p;

	p = bpf_map_lookup_elem(&bench_producers, &tid);
	if (!p)
		return NULL;
	*idx = *p;
	return bpf_map_lookup_elem(&bench_prod_counters, idx);
}

/* the counters of the producer thread running us, or NULL for any other thread */
static __always_inline struct bench_prod_counter *bench_this_producer(__u32 *idx)
{
	__u32 tid;

	if (!bench_in_process(&tid))
		return NULL;
	return bench_producer_of(tid, idx);
}
#endif /* BPF */

#endif /* __BENCH_PRODUCER_H */
