// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream's benchmark API over this runner: the hooks of both kinds,
 * the defaults of a benchmark written in upstream's style, and the
 * clean-up that still runs when one of its hooks calls exit(1).
 */
#include <stdlib.h>

#include "bench_api.h"
#include "kernel_env.h"

/* the benchmarks a build may add (make UPSTREAM_BENCHS=DIR) */
#define BENCH_ADDED_MAX 64

/* upstream's: the benchmark being run */
const struct bench *bench;

int bench_call_validate(const struct bench *b)
{
	if (b->ext.validate)
		return b->ext.validate();
	if (b->validate)
		b->validate();
	return 0;
}

int bench_call_setup(const struct bench *b)
{
	if (b->ext.setup)
		return b->ext.setup();
	if (b->setup)
		b->setup();
	return 0;
}

int bench_call_measure(const struct bench *b, struct bench_res *res)
{
	if (b->ext.measure)
		return b->ext.measure(res);
	if (b->measure)
		b->measure(res);
	return 0;
}

int bench_call_report_final(const struct bench *b, struct bench_res res[], int res_cnt)
{
	if (b->ext.report_final)
		return b->ext.report_final(res, res_cnt);
	if (b->report_final)
		b->report_final(res, res_cnt);
	return 0;
}

bool bench_upstream_style(const struct bench *b)
{
	return !b->ext.validate && !b->ext.setup && !b->ext.measure && !b->ext.report_final &&
	       !b->needs && !b->caps && !b->metrics;
}

const struct bench *bench_effective(const struct bench *b)
{
	static struct bench copy;

	if (bench_upstream_style(b)) {
		copy = *b;
		copy.needs = BENCH_NEEDS_TRACEFS | BENCH_NEEDS_MEMCG;
		/* no Memory: line after its Summary: a side-by-side diff stays clean */
		copy.caps = BENCH_CAP_UPSTREAM_STDOUT | BENCH_CAP_CONSUMERS_ENDLESS;
		copy.metrics = hits_drops_metrics;
		b = &copy;
	}
	bench = b;
	return b;
}

static void (*release_fn)(void);
static int released;

static void release_once(void)
{
	if (release_fn && !__atomic_exchange_n(&released, 1, __ATOMIC_ACQ_REL))
		release_fn();
}

/*
 * exit() may come from any thread (a producer of upstream's style exits on
 * a failed syscall): whichever of it and the runner comes first releases,
 * the other finds it done.
 */
void bench_release_at_exit(void (*release)(void))
{
	static bool registered;

	release_fn = release;
	__atomic_store_n(&released, 0, __ATOMIC_RELEASE);
	if (!registered && !atexit(release_once))
		registered = true;
}

void bench_release_now(void)
{
	release_once();
}

void setup_libbpf(void)
{
	/* upstream's also sets libbpf's strict mode: libbpf 1.0 made it the only one */
	libbpf_print_setup(env.verbose);
}

/* none unless the build added some (make UPSTREAM_BENCHS=DIR) */
extern const struct bench_added bench_added[] __attribute__((weak));
extern const int bench_added_cnt __attribute__((weak));

/* an added benchmark as the runner takes it: its argp, a line for --list */
static const struct bench *added_entry(const struct bench_added *a)
{
	static struct bench copies[BENCH_ADDED_MAX];
	static char descs[BENCH_ADDED_MAX][96];
	static int n;
	struct bench *c;

	if (n == BENCH_ADDED_MAX)
		return a->bench;
	c = &copies[n];
	*c = *a->bench;
	if (!c->argp)
		c->argp = a->argp;
	if (!c->desc) {
		snprintf(descs[n], sizeof(descs[n]), "built from upstream's %s (UPSTREAM_BENCHS)",
			 a->file);
		c->desc = descs[n];
	}
	n++;
	return c;
}

size_t bench_table_build(const struct bench *const *ours, size_t n, const struct bench **out,
			 size_t room)
{
	size_t cnt = 0, i, j;
	int k;

	for (i = 0; i < n && cnt < room; i++)
		out[cnt++] = ours[i];
	for (k = 0; &bench_added_cnt && k < bench_added_cnt; k++) {
		const struct bench *b = added_entry(&bench_added[k]);

		for (j = 0; j < cnt && strcmp(out[j]->name, b->name); j++)
			;
		if (j < cnt)
			out[j] = b;
		else if (cnt < room)
			out[cnt++] = b;
	}
	return cnt;
}
