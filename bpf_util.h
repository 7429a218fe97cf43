/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace helpers of upstream's selftests that its benchmarks call:
 * the CPU count per-CPU values are laid out by, and those values' layout.
 */
#ifndef __BPF_UTIL_H
#define __BPF_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

/*
 * The possible CPUs, as the kernel sizes per-CPU maps by them.  As
 * upstream's, it exits when the count cannot be read: its callers are
 * benchmarks of upstream's style, whose failures exit.
 */
static inline unsigned int bpf_num_possible_cpus(void)
{
	int cpus = libbpf_num_possible_cpus();

	if (cpus < 0) {
		fprintf(stderr, "failed to read the number of possible CPUs: %s\n",
			strerror(-cpus));
		exit(1);
	}
	return cpus;
}

/* a per-CPU value as the kernel copies it out: each CPU's slot 8-byte aligned */
#define __bpf_percpu_val_align __attribute__((__aligned__(8)))
#define BPF_DECLARE_PERCPU(type, name)				\
	struct { type v; /* padding */ } __bpf_percpu_val_align	\
		name[bpf_num_possible_cpus()]
#define bpf_percpu(name, cpu) name[(cpu)].v

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif

#ifndef offsetofend
#define offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))
#endif

#endif /* __BPF_UTIL_H */
