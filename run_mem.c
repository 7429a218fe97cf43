// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "cgroup_helpers.h"
#include "run_mem.h"

static struct bench_cgroup cg = { .kind = CG_MEM_NONE };
static double m_memory_resolution(void);
static long long peak_bytes = -1;

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
	if (cg_mem_files(cg.kind, &cur_name, &peak_name))
		return;
	run->mem.cgroup = cg.kind == CG_MEM_V2 ? "v2" : "v1";
	snprintf(run->mem.current_file, sizeof(run->mem.current_file), "%s/%s", cg.path, cur_name);
	snprintf(run->mem.peak_file, sizeof(run->mem.peak_file), "%s/%s", cg.path, peak_name);
}

void run_mem_sample(struct bench_res *res)
{
	long long cur;

	res->mem_bytes = -1;
	/* current only: the peak is read once, at the end */
	if (!cg_read_mem(&cg, &cur, NULL))
		res->mem_bytes = cur;
}

void run_mem_read_peak(struct bench_run *run)
{
	long long cur;

	cg_read_mem(&cg, &cur, &peak_bytes);
	run->peak_mem_bytes = peak_bytes;
	run->peak_mem_resolution_mib = m_memory_resolution();
}

long long bench_peak_mem_bytes(void)
{
	return peak_bytes;
}

void run_mem_destroy(void)
{
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
