// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace half of progs/bench_producer.h: which threads are the
 * producers (their ids, registered with every BPF object) and the
 * per-producer counters a BPF program fills.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bench.h"
#include "producer_counters.h"

/*
 * Producers that have started, for --repeat: a benchmark with fresh state
 * per repeat tears its BPF object down and opens a new one while the
 * producers run.  A producer records its thread id here once and registers
 * with whatever object is open (none: it waits for the next open);
 * bench_producers_open() registers every producer already running.  The
 * lock is taken once per producer and per open/close, never while
 * measuring, and makes a producer never use a map fd that close released.
 */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static __u32 reg_tids[BENCH_PROD_MAX];

/* bench_producers_quiesce(): set to stop the loops, and the producers that did */
static int stop_loops;
static int parked;

int bench_producers_prepare(struct bench_producers *bp, struct bench_prod_ids *ids,
			    struct bpf_map *tids, struct bpf_map *counters, int nr)
{
	struct stat ns;
	int err;

	pthread_mutex_lock(&reg_lock);
	memset(bp, 0, sizeof(*bp));
	bp->tids_fd = -1;
	pthread_mutex_unlock(&reg_lock);
	bp->nr = nr;
	/* the runner checked -p: a count out of range is a benchmark's mistake */
	if (nr < 1 || nr > BENCH_PROD_MAX)
		return bench_failed(-EINVAL, "count %d producers (1..%d)", nr, BENCH_PROD_MAX);
	if (stat("/proc/self/ns/pid", &ns))
		return bench_failed(-errno, "stat /proc/self/ns/pid");
	ids->pidns_dev = ns.st_dev;
	ids->pidns_ino = ns.st_ino;
	ids->tgid = getpid();

	err = bpf_map__set_max_entries(tids, nr);
	if (!err)
		err = bpf_map__set_max_entries(counters, nr);
	if (err)
		return bench_failed(err, "size the producer maps");
	bp->prev_hits = calloc(nr, sizeof(*bp->prev_hits));
	if (!bp->prev_hits)
		return bench_failed(-ENOMEM, "allocate producer counters");
	return 0;
}

int bench_producers_open(struct bench_producers *bp, struct bpf_map *tids,
			 struct bpf_map *counters)
{
	__u32 i;
	void *m;
	int err = 0;

	pthread_mutex_lock(&reg_lock);
	bp->tids_fd = bpf_map__fd(tids);
	for (i = 0; i < (__u32)bp->nr && !err; i++) {
		if (reg_tids[i] && bpf_map_update_elem(bp->tids_fd, &reg_tids[i], &i, BPF_ANY))
			err = -errno;
	}
	pthread_mutex_unlock(&reg_lock);
	if (err)
		return bench_failed(err, "register producer #%u with the BPF program", i - 1);
	bp->counters_len = (size_t)bp->nr * sizeof(*bp->counters);
	m = mmap(NULL, bp->counters_len, PROT_READ, MAP_SHARED, bpf_map__fd(counters), 0);
	if (m == MAP_FAILED)
		return bench_failed(-errno, "map the producer counters");
	bp->counters = m;
	return 0;
}

int bench_producer_register(struct bench_producers *bp, int idx)
{
	__u32 tid = gettid(), val = idx;
	int err = 0;

	pthread_mutex_lock(&reg_lock);
	reg_tids[idx] = tid;
	if (bp->tids_fd >= 0 && bpf_map_update_elem(bp->tids_fd, &tid, &val, BPF_ANY))
		err = -errno;
	pthread_mutex_unlock(&reg_lock);
	if (!err)
		return 0;
	/* it will not loop: quiesce must not wait for it */
	__atomic_add_fetch(&parked, 1, __ATOMIC_RELEASE);
	bench_producer_fail(err, "failed to register producer #%d with the BPF program: %s", idx,
			    strerror(-err));
	return err;
}

void bench_producer_loop(void (*trigger)(void))
{
	while (!__atomic_load_n(&stop_loops, __ATOMIC_ACQUIRE))
		trigger();
	/* our last trigger's program has returned: its counts are in */
	__atomic_add_fetch(&parked, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
}

int bench_producers_quiesce(int nr, int timeout_ms)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	int waited;

	__atomic_store_n(&stop_loops, 1, __ATOMIC_RELEASE);
	for (waited = 0; __atomic_load_n(&parked, __ATOMIC_ACQUIRE) < nr; waited++) {
		if (waited == timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&ms, NULL);
	}
	return 0;
}

void bench_producers_collect(struct bench_producers *bp, struct bench_res *res)
{
	__u64 hits;
	int i;

	res->hits = 0;
	for (i = 0; i < bp->nr; i++) {
		hits = __atomic_load_n(&bp->counters[i].hits, __ATOMIC_RELAXED);
		res->prod_hits[i] = (long)(hits - bp->prev_hits[i]);
		res->hits += res->prod_hits[i];
		bp->prev_hits[i] = hits;
	}
	res->has_prod_hits = true;
}

void bench_producers_errs(const struct bench_producers *bp, __u64 errs[BENCH_PROD_NR_ERRS])
{
	int i, j;

	for (j = 0; j < BENCH_PROD_NR_ERRS; j++)
		errs[j] = 0;
	for (i = 0; bp->counters && i < bp->nr; i++)
		for (j = 0; j < BENCH_PROD_NR_ERRS; j++)
			errs[j] += __atomic_load_n(&bp->counters[i].errs[j], __ATOMIC_RELAXED);
}

void bench_producers_close(struct bench_producers *bp)
{
	if (bp->counters)
		munmap(bp->counters, bp->counters_len);
	bp->counters = NULL;
	free(bp->prev_hits);
	bp->prev_hits = NULL;
	pthread_mutex_lock(&reg_lock);
	bp->tids_fd = -1;
	pthread_mutex_unlock(&reg_lock);
}
