/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __AB_INTERLEAVED_H
#define __AB_INTERLEAVED_H

/*
 * bench ab --interleave: one invocation pair whose sides, A's and B's
 * bench processes, run at once and take turns on the producers' CPUs
 * slice by slice (run_slices.h), and the statistic of its slices.  Each
 * slice's batches are timed in BPF; neighbouring slices of A and B ran
 * milliseconds apart, under one machine state, so their log ratio is
 * one paired difference, and the pair of invocations gives one
 * observation to ab's sequential test: the 20% trimmed mean of those.
 */
#include <signal.h>
#include <stdbool.h>

#include "../slice_gate.h"

/* the fewest batches a slice's median is taken from */
#define AB_IL_MIN_TRIGGERS 20
#define AB_IL_TRIM 0.2

struct ab_il_spec {
	const char *dir;		/* the result directory: pair-NNN.json goes there */
	unsigned int slice_us;
	const char *metric;		/* op_ns, latency_p50 or latency_p99 */
	double secs;			/* an invocation's -w + -d, to size the records */
	/* in the child: starts side (0 A, 1 B) of pair (0-based); never returns */
	void (*exec_side)(void *ctx, int pair, int side, const char *json, const char *log);
	void *ctx;
	/*
	 * ab's stop policy, polled while the sides run: 0 to go on, or the
	 * signal that stops both (ab's own, passed on, or SIGTERM at the
	 * budget's hard end); kill_grace seconds later, or at a further
	 * signal to ab (*signals grew), they get SIGKILL
	 */
	int (*stop_now)(void *ctx);
	volatile sig_atomic_t *signal;	/* set: ab got a signal (else the hard end stopped them) */
	volatile sig_atomic_t *signals;	/* signals ab got */
	double kill_grace;
};

/* one pair of invocations, interleaved */
struct ab_il_pair {
	double est;		/* log(B/A): the trimmed mean of its slice pairs' (NaN: none) */
	int used;		/* neighbouring slice pairs it rests on */
	int slices[2];		/* measured slices of A and B */
	int few[2];		/* measured slices with fewer than AB_IL_MIN_TRIGGERS batches */
	double fig[2];		/* the median of A's and B's measured slice figures */
	int started;		/* sides started (invocations) */
	int failed;		/* -1, or the side that failed */
	int status;		/* its wait status */
};

/* the metrics a slice has: op_ns, latency_p50, latency_p99 */
bool ab_il_metric_ok(const char *metric);
/* a slice's figure of that metric (NaN: none) */
double ab_il_figure(const struct slice_rec *r, const char *metric);
/*
 * The pair's figures from its records (any order): neighbouring measured
 * slices of A and B (by seq), each with at least AB_IL_MIN_TRIGGERS
 * batches, give log(B/A); half of them have A first, half B.  0, or
 * -ENODATA when no slice pair was usable (est NaN).
 */
int ab_il_estimate(const struct slice_rec *rec, int n, const char *metric, struct ab_il_pair *out);
/*
 * Run pair (0-based), side first going first: both sides at once,
 * sharing a new gate; then the estimate and DIR/pair-NNN.json.  0,
 * -EINTR after ab's signal, -ETIME at the budget's hard end (both
 * stopped and reaped), -EIO when a side failed (out->failed,
 * out->status; the other was stopped), -ENODATA when no slice pair was
 * usable, or another negative errno after one line.
 */
int ab_il_run_pair(const struct ab_il_spec *spec, int pair, int first, struct ab_il_pair *out);

#endif /* __AB_INTERLEAVED_H */
