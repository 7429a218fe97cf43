// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memory cgroup (BENCH_NEEDS_MEMCG): joined before set-up,
 * sampled at every tick, its peak read once before it is removed.
 */
#include <math.h>
#include <stdio.h>
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
};

/* which fields the kernel offers, and from which files */
static void setup_breakdown(struct run_mem_source *src)
{
	int f, err;

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

void run_mem_print_breakdown(const struct bench_run *run)
{
	struct stats st;
	int f, n = 0;

	for (f = 0; f < CG_MEM_NR_FIELDS; f++) {
		if (!run->mem.fields[f].metric)
			continue;
		metric_stats(run->mem.fields[f].metric, run_measured(run), run_measured_cnt(run),
			     &st);
		printf("%s %s ", n++ ? "," : "Memory:", cg_mem_field_name(f));
		if (st.n)
			printf("%.2lf MiB", st.mean);
		else
			printf("n/a");
	}
	if (n)
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
