// SPDX-License-Identifier: GPL-2.0
/*
 * Names for a result outside bench (see result_label.h).  They are made
 * from the document alone, so the same file names the same things on any
 * machine and in any tool.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_label.h"

void result_machine_label(json_t *doc, char *buf, size_t sz)
{
	json_t *ctx = json_object_get(doc, "context");
	const char *model = json_string_value(json_object_get(ctx, "cpu_model"));
	const char *hv = json_string_value(json_object_get(ctx, "hypervisor"));
	json_t *n = json_object_get(ctx, "nr_online_cpus");

	snprintf(buf, sz, "%s, %lld CPUs, %s", model ? model : "unknown CPU",
		 json_is_integer(n) ? (long long)json_integer_value(n) : 0LL,
		 hv ? hv : "unknown");
}

static const char *ctx_string(json_t *doc, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(doc, "context"), key));

	return s && *s ? s : NULL;
}

bool result_emulated(json_t *doc)
{
	const char *hv = ctx_string(doc, "hypervisor");

	return hv && !strcmp(hv, "tcg");
}

void result_kernel_build(json_t *doc, char *buf, size_t sz)
{
	const char *id = ctx_string(doc, "kernel_build_id");
	const char *version = ctx_string(doc, "kernel_version");

	if (id)
		snprintf(buf, sz, "id:%s", id);
	else if (version)
		snprintf(buf, sz, "v:%s", version);
	else
		snprintf(buf, sz, "%s", "");
}

void result_build_short(const char *build, char *buf, size_t sz)
{
	char hex[SHA256_HEX_LEN + 1];

	if (!strncmp(build, "id:", 3)) {
		snprintf(buf, sz, "%.12s", build + 3);
	} else if (!strncmp(build, "v:", 2)) {
		sha256_hex(build + 2, strlen(build + 2), hex);
		snprintf(buf, sz, "v:%.8s", hex);
	} else {
		snprintf(buf, sz, "-");
	}
}

const char *result_tag(json_t *doc)
{
	return ctx_string(doc, "tag");
}

int result_doc_hash(json_t *doc, char hex[SHA256_HEX_LEN + 1])
{
	char *s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));

	if (!s)
		return -ENOMEM;
	sha256_hex(s, strlen(s), hex);
	free(s);
	return 0;
}

/*
 * memory is upstream's figure and counts what each CPU holds charged in
 * advance (up to MEMCG_CHARGE_BATCH, 64 pages, a CPU), so it grows with the
 * CPU count; memory_stat does not.
 */
static const struct {
	const char *metric;
	const char *meaning;
} memory_meanings[] = {
	{ "memory", "memory.current (v1: memory.usage_in_bytes), upstream's figure: every page charged to the run's cgroup, with the up to 64 pages each CPU holds charged in advance" },
	{ "peak_memory", "memory.peak (v1: memory.max_usage_in_bytes): memory at its highest" },
	{ "memory_stat", "memory.stat's anon + file + kernel + sock (v1: rss + cache + kmem): what the run's objects hold, without the CPUs' charges in advance" },
	{ "memory_unstat", "memory - memory_stat: charged but in no memory.stat line, the CPUs' charges in advance" },
};

const char *result_memory_meaning(const char *metric)
{
	size_t i;

	for (i = 0; metric && i < sizeof(memory_meanings) / sizeof(memory_meanings[0]); i++)
		if (!strcmp(metric, memory_meanings[i].metric))
			return memory_meanings[i].meaning;
	return NULL;
}
