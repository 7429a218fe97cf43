// SPDX-License-Identifier: GPL-2.0
/*
 * Where a run ran (kernel, CPUs, JIT settings, hypervisor, cgroup mode,
 * versions) for the JSON context, and the checks of what may have
 * disturbed it (noise warnings).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "bench_version.h"
#include "kernel_env.h"
#include "json_util.h"
#include "run_context.h"

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; v && i < n; i++)
		json_array_append_new(a, v[i] >= 0 ? json_integer(v[i]) : json_null());
	return a;
}

static json_t *file_value(const char *path, bool numeric)
{
	char buf[256], *end;
	long long v;

	if (read_first_line(path, buf, sizeof(buf)) || !*buf)
		return json_null();
	if (numeric) {
		errno = 0;
		v = strtoll(buf, &end, 10);
		if (!errno && !*end && end != buf)
			return json_integer(v);
	}
	return json_string(buf);
}

static json_t *cpu_model(void)
{
	char line[512], *p;
	FILE *f = fopen("/proc/cpuinfo", "r");
	json_t *model = NULL;

	if (!f)
		return json_null();
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = '\0';
		model = json_string(p);
		break;
	}
	fclose(f);
	return model ? model : json_null();
}

/* under which hypervisor or emulator, with which cgroup layout */
static void where_json(json_t *ctx)
{
	const char *mode = kenv_cgroup_mode("/proc/self/mountinfo");
	struct kenv_hv hv;

	kenv_read_hypervisor("", &hv);
	json_object_set_new(ctx, "hypervisor", json_string(hv.kind));
	json_object_set_new(ctx, "hypervisor_evidence", json_string(hv.evidence));
	json_object_set_new(ctx, "cgroup_mode", mode ? json_string(mode) : json_null());
}

/* UTC, ISO 8601 to the second: "2026-12-02T04:30:27Z"; null when unset */
static json_t *utc_json(const struct timespec *ts)
{
	char buf[32];
	struct tm tm;

	if (!ts->tv_sec || !gmtime_r(&ts->tv_sec, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(buf);
}

/*
 * Which kernel build ran, beyond its release: uname -v, the GNU build id of
 * the running image where /sys/kernel/notes is readable, the command line;
 * when the run started and ended; the user's tag.  Each null when unknown.
 */
static void identity_json(const struct bench_run *run, json_t *ctx, const struct utsname *u)
{
	char id[2 * 64 + 1], cmdline[4096];
	json_t *v;

	json_object_set_new(ctx, "kernel_version", u ? json_string(u->version) : json_null());
	json_object_set_new(ctx, "kernel_build_id",
			    kenv_read_build_id("/sys/kernel/notes", id, sizeof(id)) ?
			    json_null() : json_string(id));
	/* not UTF-8 (json_string() refuses it): null rather than a lost key */
	v = read_first_line("/proc/cmdline", cmdline, sizeof(cmdline)) ? NULL : json_string(cmdline);
	json_object_set_new(ctx, "kernel_cmdline", v ? v : json_null());
	json_object_set_new(ctx, "start_time", utc_json(&run->start_time));
	json_object_set_new(ctx, "end_time", utc_json(&run->end_time));
	json_object_set_new(ctx, "tag", run->env->tag ? json_string(run->env->tag) : json_null());
}

json_t *run_context_json(const struct bench_run *run)
{
	const struct env *e = run->env;
	struct cpu_list allowed = {};
	struct utsname u;
	json_t *ctx, *jit, *cmd;
	bool have_u;
	char buf[64];
	int i;

	ctx = json_object();
	have_u = !uname(&u);
	if (have_u) {
		json_object_set_new(ctx, "kernel_release", json_string(u.release));
		json_object_set_new(ctx, "machine", json_string(u.machine));
	}
	identity_json(run, ctx, have_u ? &u : NULL);
	json_object_set_new(ctx, "cpu_model", cpu_model());
	json_object_set_new(ctx, "online_cpus", file_value("/sys/devices/system/cpu/online", false));
	json_object_set_new(ctx, "nr_online_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	allowed_cpu_list(&allowed);
	json_object_set_new(ctx, "allowed_cpus", cpu_list_json(&allowed));
	cpu_list_free(&allowed);
	json_object_set_new(ctx, "producer_cpus", int_array(run->prod_cpu, run->producer_cnt));
	json_object_set_new(ctx, "consumer_cpus", int_array(run->cons_cpu, run->consumer_cnt));

	jit = json_object();
	json_object_set_new(jit, "bpf_jit_enable", file_value("/proc/sys/net/core/bpf_jit_enable", true));
	json_object_set_new(jit, "bpf_jit_harden", file_value("/proc/sys/net/core/bpf_jit_harden", true));
	json_object_set_new(jit, "bpf_jit_kallsyms", file_value("/proc/sys/net/core/bpf_jit_kallsyms", true));
	json_object_set_new(jit, "bpf_jit_limit", file_value("/proc/sys/net/core/bpf_jit_limit", true));
	json_object_set_new(ctx, "sysctl", jit);

	snprintf(buf, sizeof(buf), "%u.%u", libbpf_major_version(), libbpf_minor_version());
	json_object_set_new(ctx, "libbpf_version", json_string(buf));
	json_object_set_new(ctx, "bench_version", json_string(BENCH_VERSION));

	cmd = json_array();
	for (i = 0; i < e->argc; i++)
		json_array_append_new(cmd, json_string(e->argv[i]));
	json_object_set_new(ctx, "command_line", cmd);
	where_json(ctx);
	return ctx;
}

/* ---- noise probes ---- */

/* the CPUs threads run on: pinned ones, or every allowed CPU */
static void governor_check(struct bench_run *run)
{
	char path[128], gov[64], bad[256] = "";
	struct cpu_list allowed;
	int i, n = 0;

	if (allowed_cpu_list(&allowed))
		return;
	for (i = 0; i < allowed.cnt; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 allowed.cpus[i]);
		if (read_first_line(path, gov, sizeof(gov)) || !*gov)
			continue;	/* no cpufreq here: nothing to warn about */
		if (strcmp(gov, "performance") && n++ < 4)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%sCPU %d: %s",
				 *bad ? ", " : "", allowed.cpus[i], gov);
	}
	if (n)
		run_warn(run, "cpufreq governor is not 'performance' (%s%s): frequency changes add noise",
			   bad, n > 4 ? ", ..." : "");
	cpu_list_free(&allowed);
}

#define NOISE_CV 0.05
#define NOISE_INTERVAL_NS 5000000L

void run_check_noise(struct bench_run *run)
{
	const struct bench_metric *primary = run->metrics ? run->metrics[0] : NULL;
	struct bench_res *res = run_measured(run);
	int res_cnt = run_measured_cnt(run);
	const struct env *e = run->env;
	struct cpu_list allowed;
	struct stats st;
	long off, worst = 0;
	int i, late = 0;

	if (primary && res_cnt > 1) {
		metric_stats(primary, res, res_cnt, &st);
		if (st.n > 1 && st.cv > NOISE_CV)
			run_warn(run, "%s varies by %.1f%% between samples (coefficient of variation above %.0f%%): the result is noisy",
				   primary->name, st.cv * 100, NOISE_CV * 100);
	}
	for (i = 0; i < res_cnt; i++) {
		off = labs(res[i].delta_ns - 1000000000L);
		if (off > NOISE_INTERVAL_NS) {
			late++;
			if (off > worst)
				worst = off;
		}
	}
	if (late)
		run_warn(run, "%d sample interval%s more than %ld ms off one second (worst %.3f ms): the sampler was delayed",
			   late, late > 1 ? "s were" : " was", NOISE_INTERVAL_NS / 1000000,
			   worst / 1e6);
	if (e->affinity && !allowed_cpu_list(&allowed)) {
		if (run->producer_cnt > allowed.cnt)
			run_warn(run, "%d producers pinned to %d allowed CPU%s: producers share CPUs",
				   run->producer_cnt, allowed.cnt, allowed.cnt > 1 ? "s" : "");
		cpu_list_free(&allowed);
	}
	governor_check(run);
}

