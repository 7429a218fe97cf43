// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memory cgroup (BENCH_NEEDS_MEMCG): joined before set-up,
 * sampled at every tick, its peak read once before it is removed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "cgroup_helpers.h"
#include "run_mem.h"

static struct bench_cgroup cg = { .kind = CG_MEM_NONE };
static double m_memory_resolution(void);
/* the cgroup's statistics files, opened once for the whole run */
static struct cg_mem_stat mstat = { .stat_fd = -1, .kmem_fd = -1, .slabinfo_fd = -1 };

_Static_assert(CG_MEM_NR_FIELDS <= BENCH_MEM_FIELDS_MAX, "raise BENCH_MEM_FIELDS_MAX");

/* one metric per breakdown field, in MiB, like "memory" */
static double mem_field_mib(const struct bench_res *r, enum cg_mem_field f)
{
	return r->mem_stat[f] < 0 ? NAN : r->mem_stat[f] / 1048576.0;
}

#define MEM_FIELD_METRIC(f, name)						\
	static double m_mem_##name(const struct bench_res *r)			\
	{									\
		return mem_field_mib(r, f);					\
	}

MEM_FIELD_METRIC(CG_MEM_SLAB, slab)
MEM_FIELD_METRIC(CG_MEM_PERCPU, percpu)
MEM_FIELD_METRIC(CG_MEM_VMALLOC, vmalloc)
MEM_FIELD_METRIC(CG_MEM_KERNEL, kernel)
MEM_FIELD_METRIC(CG_MEM_KMEM, kmem)
MEM_FIELD_METRIC(CG_MEM_SOCK, sock)
MEM_FIELD_METRIC(CG_MEM_ANON, anon)
MEM_FIELD_METRIC(CG_MEM_FILE, file)
MEM_FIELD_METRIC(CG_MEM_STAT, stat)
MEM_FIELD_METRIC(CG_MEM_UNSTAT, unstat)

/*
 * The statistics are flushed from per-CPU batches like the charges
 * behind memory.current (MEMCG_CHARGE_BATCH per CPU before a flush), so
 * they share its resolution.
 */
static const struct bench_metric mem_field_metrics[CG_MEM_NR_FIELDS] = {
	[CG_MEM_SLAB] = { "memory_slab", "MiB", false, m_mem_slab, m_memory_resolution },
	[CG_MEM_PERCPU] = { "memory_percpu", "MiB", false, m_mem_percpu, m_memory_resolution },
	[CG_MEM_VMALLOC] = { "memory_vmalloc", "MiB", false, m_mem_vmalloc, m_memory_resolution },
	[CG_MEM_KERNEL] = { "memory_kernel", "MiB", false, m_mem_kernel, m_memory_resolution },
	[CG_MEM_KMEM] = { "memory_kmem", "MiB", false, m_mem_kmem, m_memory_resolution },
	[CG_MEM_SOCK] = { "memory_sock", "MiB", false, m_mem_sock, m_memory_resolution },
	[CG_MEM_ANON] = { "memory_anon", "MiB", false, m_mem_anon, m_memory_resolution },
	[CG_MEM_FILE] = { "memory_file", "MiB", false, m_mem_file, m_memory_resolution },
	[CG_MEM_STAT] = { "memory_stat", "MiB", false, m_mem_stat, m_memory_resolution },
	[CG_MEM_UNSTAT] = { "memory_unstat", "MiB", false, m_mem_unstat, m_memory_resolution },
};

/* which fields the kernel offers, and from which files */
static void setup_breakdown(struct run_mem_source *src)
{
	const enum cg_mem_field *parts;
	int f, err;
	size_t i, n;

	err = cg_mem_stat_open(&cg, &mstat);
	if (err)
		return;
	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		if (!mstat.have[f])
			continue;
		src->fields[f].metric = &mem_field_metrics[f];
		snprintf(src->fields[f].file, sizeof(src->fields[f].file), "%s/%s", cg.path,
			 mstat.file[f]);
		src->fields[f].key = mstat.key[f];
	}
	if (!mstat.have[CG_MEM_STAT])
		return;
	n = cg_mem_stat_parts(mstat.kind, &parts);
	for (i = 0; i < n; i++)
		src->stat_parts[src->nstat_parts++] = parts[i];
}

void run_mem_setup(struct bench_run *run, const char *bench_name)
{
	const char *cur_name, *peak_name;
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "bench-%s", bench_name);
	cg_setup_self(&cg, prefix);
	if (cg.kind == CG_MEM_NONE) {
		fprintf(stderr, "memory usage unavailable: %s\n", cg.why);
		return;
	}
	/* upstream's cgroup_helpers make their cgroups in it, where it is v2 */
	cg_upstream_base(&cg);
	if (cg_mem_files(cg.kind, &cur_name, &peak_name))
		return;
	run->mem.cgroup = cg.kind == CG_MEM_V2 ? "v2" : "v1";
	snprintf(run->mem.current_file, sizeof(run->mem.current_file), "%s/%s", cg.path, cur_name);
	snprintf(run->mem.peak_file, sizeof(run->mem.peak_file), "%s/%s", cg.path, peak_name);
	setup_breakdown(&run->mem);
}

int run_mem_metrics(const struct bench_run *run, const struct bench_metric **out, int room)
{
	int f, n = 0;

	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		if (!run->mem.fields[f].metric)
			continue;
		if (n == room)
			return -E2BIG;
		out[n++] = run->mem.fields[f].metric;
	}
	return n;
}

/* a field's mean over the measured samples; NAN without one */
static double field_mean(const struct bench_run *run, const struct bench_metric *m)
{
	struct stats st;

	metric_stats(m, run_measured(run), run_measured_cnt(run), &st);
	return st.n ? st.mean : NAN;
}

/*
 * v[0..n-1] in hundredths, each rounded down or up, so that they sum to
 * target: the printed parts add up to the printed total.  Rounding to
 * nearest would be off by 0.01 now and then.
 */
static void round_to_sum(const double *v, int n, long target, long *out)
{
	long sum = 0;
	int i, best;

	for (i = 0; i < n; i++) {
		out[i] = (long)floor(v[i] * 100);
		sum += out[i];
	}
	/* up first where the remainder is largest */
	for (; sum < target; sum++) {
		best = -1;
		for (i = 0; i < n; i++)
			if (out[i] == (long)floor(v[i] * 100) &&
			    (best < 0 || v[i] * 100 - out[i] > v[best] * 100 - out[best]))
				best = i;
		if (best < 0)
			break;
		out[best]++;
	}
}

/* "Memory: slab 0.06 MiB, percpu ...": every field, where stat cannot be summed */
static void print_fields(const struct bench_run *run)
{
	double mean;
	int f, n = 0;

	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		if (!run->mem.fields[f].metric)
			continue;
		mean = field_mean(run, run->mem.fields[f].metric);
		printf("%s %s ", n++ ? "," : "Memory:", cg_mem_field_name(f));
		if (!isnan(mean))
			printf("%.2lf MiB", mean);
		else
			printf("n/a");
	}
	if (n)
		printf("\n");
}

/* "; in kernel: slab 0.06, percpu 0.00, vmalloc 0.67 MiB": parts of a part, where offered */
static void print_inner(const struct bench_run *run)
{
	static const enum cg_mem_field inner[] = { CG_MEM_SLAB, CG_MEM_PERCPU, CG_MEM_VMALLOC };
	const char *whole = run->mem.fields[CG_MEM_KERNEL].metric ? "kernel" : "kmem";
	double mean;
	int i, n = 0;

	for (i = 0; i < (int)ARRAY_SIZE(inner); i++) {
		if (!run->mem.fields[inner[i]].metric)
			continue;
		mean = field_mean(run, run->mem.fields[inner[i]].metric);
		if (n++)
			printf(",");
		else
			printf("; in %s:", whole);
		printf(" %s ", cg_mem_field_name(inner[i]));
		if (isnan(mean))
			printf("n/a");
		else
			printf("%.2lf", mean);
	}
	if (n)
		printf(" MiB");
}

/* hundredths of a mean as "%.2lf" prints it, so the line's total is the Summary's */
static long hundredths(double mean)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.2lf", mean);
	return lround(strtod(buf, NULL) * 100);
}

/*
 * "Memory: 1.24 MiB = stat 0.89 (anon 0.12 + file 0.00 + kernel 0.77 +
 * sock 0.00) + unstat 0.35 MiB; in kernel: slab 0.06, ... MiB": the total
 * (memory.current) split into what memory.stat accounts and the rest.
 */
void run_mem_print_breakdown(const struct bench_run *run)
{
	const struct run_mem_source *src = &run->mem;
	double v[BENCH_MEM_FIELDS_MAX], total, top[2];
	long hv[BENCH_MEM_FIELDS_MAX], htop[2];
	int i, n = src->nstat_parts;

	if (!n) {
		print_fields(run);
		return;
	}

	total = field_mean(run, &bench_memory_metric);
	top[0] = field_mean(run, src->fields[CG_MEM_STAT].metric);
	top[1] = field_mean(run, src->fields[CG_MEM_UNSTAT].metric);
	for (i = 0; i < n; i++) {
		v[i] = field_mean(run, src->fields[src->stat_parts[i]].metric);
		if (isnan(v[i]))
			top[0] = NAN;
	}
	/* nothing measured: each field's n/a */
	if (isnan(total) || isnan(top[0]) || isnan(top[1])) {
		print_fields(run);
		return;
	}
	round_to_sum(top, 2, hundredths(total), htop);
	round_to_sum(v, n, htop[0], hv);
	printf("Memory: %.2lf MiB = stat %.2lf (", hundredths(total) / 100.0, htop[0] / 100.0);
	for (i = 0; i < n; i++)
		printf("%s%s %.2lf", i ? " + " : "", cg_mem_field_name(src->stat_parts[i]), hv[i] / 100.0);
	printf(") + unstat %.2lf MiB", htop[1] / 100.0);
	print_inner(run);
	printf("\n");
}

void run_mem_sample(struct bench_res *res)
{
	long long cur;

	res->mem_bytes = -1;
	/* current only: the peak is read once, at the end */
	if (!cg_read_mem(&cg, &cur, NULL))
		res->mem_bytes = cur;
	cg_mem_stat_read(&mstat, res->mem_stat);
	cg_mem_stat_sum(&mstat, res->mem_bytes, res->mem_stat);
}

void run_mem_read_peak(struct bench_run *run)
{
	long long cur;

	run->peak_mem_bytes = -1;
	cg_read_mem(&cg, &cur, &run->peak_mem_bytes);
	run->peak_mem_resolution_mib = m_memory_resolution();
}

const char *bench_run_cgroup_v2(void)
{
	return cg.kind == CG_MEM_V2 && cg.joined ? cg.path : NULL;
}

void run_mem_destroy(void)
{
	cg_mem_stat_close(&mstat);
	cg_destroy(&cg);
}

static double m_memory(const struct bench_res *r)
{
	return r->mem_bytes < 0 ? NAN : r->mem_bytes / 1048576.0;
}

/*
 * The memory controller charges in batches of 64 pages kept per CPU
 * (MEMCG_CHARGE_BATCH), and current usage counts those precharges: a
 * reading is only exact to a batch per CPU.
 */
static double m_memory_resolution(void)
{
	int ncpus = libbpf_num_possible_cpus();

	return (ncpus > 0 ? ncpus : 1) * 64.0 * sysconf(_SC_PAGESIZE) / 1048576.0;
}

const struct bench_metric bench_memory_metric = {
	"memory", "MiB", false, m_memory, m_memory_resolution,
};
