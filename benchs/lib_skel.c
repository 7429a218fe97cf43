// SPDX-License-Identifier: GPL-2.0
/* A BPF benchmark's skeleton from open to attach: the steps every one repeats. */
#include <errno.h>

#include "bench.h"
#include "benchs/lib_hook.h"
#include "benchs/lib_skel.h"

/* " on <target>" for messages, or "" where the object picks its programs */
static const char *on_what(const struct bench_skel *sk, const char *prep)
{
	static __thread char buf[256];
	const char *on = sk->on;

	if (!on && sk->prog)
		on = bench_prog_target(sk->prog);
	if (!on)
		return "";
	snprintf(buf, sizeof(buf), " %s %s", prep, on);
	return buf;
}

int bench_skel_prepare(const struct bench_skel *sk)
{
	int err;

	err = bench_producers_prepare(sk->prod, sk->ids, sk->tids, sk->counters,
				      env.producer_cnt);
	if (err)
		return err;
	if (sk->lat_enabled) {
		*sk->lat_enabled = env.latency;
		/* without --latency the histogram is not created */
		err = bpf_map__set_autocreate(sk->lat_hist, env.latency);
		if (err)
			return bench_failed(err, "select --latency's histogram");
	}
	if (sk->prog) {
		err = bpf_program__set_autoload(sk->prog, true);
		if (err)
			return bench_failed(err, "select %s", bench_prog_target(sk->prog));
	}
	return 0;
}

int bench_skel_load(const struct bench_skel *sk)
{
	int err;

	err = bpf_object__load_skeleton(sk->obj);
	if (err)
		return bench_failed(err, "load %s's BPF program%s", env.bench_name,
				    on_what(sk, "on"));
	err = bench_producers_open(sk->prod, sk->tids, sk->counters);
	if (err)
		return err;
	if (sk->lat_enabled && env.latency)
		return bench_latency_register(bpf_map__fd(sk->lat_hist), sk->lat_ops);
	return 0;
}

int bench_skel_attach(const struct bench_skel *sk)
{
	int err;

	err = bpf_object__attach_skeleton(sk->obj);
	if (err)
		return bench_failed(err, "attach %s's BPF program%s", env.bench_name,
				    on_what(sk, "to"));
	return 0;
}

int bench_skel_attach_prog(const struct bench_skel *sk, struct bpf_link **link)
{
	*link = bpf_program__attach(sk->prog);
	if (!*link)
		return bench_failed(-errno, "attach %s's BPF program%s", env.bench_name,
				    on_what(sk, "to"));
	return 0;
}
