/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LIB_SKEL_H
#define __LIB_SKEL_H

/*
 * The steps every BPF benchmark takes with its skeleton, in this order,
 * its own steps between them:
 *
 *	ctx.skel = X__open();		(failure: "open <bench>'s BPF object")
 *	its own rodata and map sizes
 *	bench_skel_prepare()		producers' ids and maps, --latency's
 *					flag, the one program to load
 *	bench_skel_load()		load, map the producers' counters,
 *					register --latency's histogram
 *	its own maps filled
 *	bench_skel_attach()		or bench_skel_attach_prog()
 *
 * Each returns 0, or a negative errno after bench_failed()'s one line
 * ("failed to load <bench>'s BPF program on <target>: <strerror>"), which
 * a caller trying one hook of several captures with bench_failed_into().
 */
#include <stdbool.h>
#include <bpf/libbpf.h>

#include "producer_counters.h"

struct bench_skel {
	struct bpf_object_skeleton *obj;
	struct bench_producers *prod;
	struct bench_prod_ids *ids;	/* in the object's rodata */
	struct bpf_map *tids;
	struct bpf_map *counters;
	/* --latency (progs/latency.h); NULL where the object has none */
	bool *lat_enabled;
	struct bpf_map *lat_hist;
	unsigned int lat_ops;		/* map operations one trigger times */
	/*
	 * The one program of the object's optional ones ("?" sections) to
	 * load; NULL: those it loads by default.  Its target names the
	 * program in messages, unless on says more.
	 */
	struct bpf_program *prog;
	const char *on;
};

/* the parts of skeleton s (its object includes progs/bench_producer.h) */
#define BENCH_SKEL_PARTS(s, p)						\
	.obj = (s)->skeleton, .prod = (p), .ids = &(s)->rodata->bench_ids,	\
	.tids = (s)->maps.bench_producers, .counters = (s)->maps.bench_prod_counters
#define BENCH_SKEL(s, p) ((struct bench_skel){ BENCH_SKEL_PARTS(s, p) })
/* ... and its object's --latency parts (progs/latency.h), ops per trigger */
#define BENCH_SKEL_LAT(s, p, ops)					\
	((struct bench_skel){ BENCH_SKEL_PARTS(s, p),			\
			      .lat_enabled = &(s)->rodata->lat_enabled,	\
			      .lat_hist = (s)->maps.lat_hist, .lat_ops = (ops) })

int bench_skel_prepare(const struct bench_skel *sk);
int bench_skel_load(const struct bench_skel *sk);
/* every program of the object, as X__attach() */
int bench_skel_attach(const struct bench_skel *sk);
/* the one program sk->prog, into *link (destroyed by the caller's teardown) */
int bench_skel_attach_prog(const struct bench_skel *sk, struct bpf_link **link);

#endif /* __LIB_SKEL_H */
