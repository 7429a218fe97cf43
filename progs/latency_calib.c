// SPDX-License-Identifier: GPL-2.0
/*
 * --latency calibration: the cost of one bpf_ktime_get_ns() pair around
 * an empty batch, i.e. what every recorded batch time includes on top of
 * the map work.  Run once at set-up through BPF_PROG_RUN.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "latency.h"

char _license[] SEC("license") = "GPL";

#define LAT_CALIB_ROUNDS 10000

/* empty-batch timings, bucketed like the real ones */
struct lat_hist calib;

static long one_pair(__u32 i, void *data)
{
	__u64 start, d;
	__u64 b;

	start = bpf_ktime_get_ns();
	d = bpf_ktime_get_ns() - start;
	b = lat_bucket(d);
	/*
	 * One register for the bound check and the index: clang otherwise
	 * checks a zero-extended copy and indexes with another extension,
	 * whose bound the 6.1 verifier does not know ("R2 unbounded memory
	 * access").
	 */
	asm volatile("" : "+r"(b));
	if (b < LAT_NR_BUCKETS)
		calib.counts[b]++;
	return 0;
}

SEC("syscall")
int lat_calibrate(void *ctx)
{
	bpf_loop(LAT_CALIB_ROUNDS, one_pair, NULL, 0);
	return 0;
}
