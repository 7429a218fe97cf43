// SPDX-License-Identifier: GPL-2.0
/*
 * A run's configuration, its key and its label (see result_config.h).
 * Computed from the document alone, so a file names the same
 * configuration on any machine, in any tool and in any later bench.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_config.h"

/* the runner's options that change what is measured, in their JSON names */
static const char *const runner_keys[] = {
	"producers", "consumers", "affinity", "prod_affinity", "cons_affinity", "zero_seed",
	"latency", NULL,
};

/*
 * The defaults, for the options a document may leave out (written before
 * the option existed: latency, zero_seed) and for the label, which omits
 * them.  value is JSON text; NULL marks the headline option, shown bare and
 * always.  An option without a row has no default: the label always shows
 * it.  The benchmarks' own argument defaults are the truth; tests/
 * result_config.t checks this table against a default run's document.
 */
static const struct config_default {
	const char *bench;	/* fnmatch(3) pattern of benchmark names */
	const char *key;
	const char *value;
	const char *if_key;	/* only when this option ... */
	const char *if_value;	/* ... has this value (JSON text) */
	/*
	 * what a document that leaves the key out ran with, when that is not
	 * the default: the option came with a new default (NULL: value)
	 */
	const char *missing;
} defaults[] = {
	{ "*", "producers", "1" },
	{ "*", "consumers", "0" },
	{ "*", "affinity", "false" },
	{ "*", "prod_affinity", "[]" },
	{ "*", "cons_affinity", "[]" },
	{ "*", "zero_seed", "false" },
	{ "*", "latency", "false" },
	{ "htab-mem", "use_case", NULL },
	{ "htab-mem", "value_size", "8" },
	{ "htab-mem", "preallocated", "false" },
	{ "htab-mem", "extra_work", "0" },
	{ "htab-mem", "key_offset", "0" },
	/* before the option, each producer counted only in its own line */
	{ "htab-mem", "own_counter", "false", .missing = "true" },
	{ "bpf-hashmap-lookup", "key_size", "4" },
	{ "bpf-hashmap-lookup", "map_flags", "0" },
	{ "bpf-hashmap-lookup", "max_entries", "1000" },
	{ "bpf-hashmap-lookup", "nr_entries", "500" },
	{ "bpf-hashmap-lookup", "nr_loops", "1000000" },
	{ "bpf-hashmap-full-update", "max_entries", "1000" },
	{ "bpf-hashmap-full-update", "nr_loops", "10000" },
	/* before the option, each CPU's line was the rate over every batch */
	{ "bpf-hashmap-full-update", "all_batches", "false", .missing = "true" },
	{ "bpf_ma", "percpu", "false" },
	{ "bpf_ma", "obj_size", "128" },
	{ "bpf_ma", "batch_size", "64" },
	{ "bpf_ma", "footprint", "false" },
	{ "bpf_ma", "memory_source", "\"/proc/meminfo SUnreclaim\"", "percpu", "false" },
	{ "bpf_ma", "memory_source", "\"/proc/meminfo Percpu\"", "percpu", "true" },
	{ "local-storage-create", "storage_type", "\"socket\"" },
	{ "local-storage-create", "batch_size", "32" },
	{ "local-storage-cache-*", "nr_maps", "1000" },
	{ "local-storage-cache-hashmap-control", "hashmap_nr_keys_used", "1000" },
	{ "local-storage-tasks-trace", "nr_procs", "1000" },
	{ "local-storage-tasks-trace", "kthread_ticks", "false" },
	{ "[rp]b-*", "rb_b2b", "false" },
	{ "[rp]b-*", "rb_batch_cnt", "500" },
	{ "[rp]b-*", "rb_sampled", "false" },
	{ "[rp]b-*", "rb_sample_rate", "500" },
	{ "rb-*", "rb_use_output", "false" },
	{ "rb-*", "rb_overwrite", "false" },
	{ "rb-*", "rb_bench_producer", "false" },
	{ "rb-*", "ringbuf_sz", "524288" },
	{ "pb-*", "perfbuf_sz", "128" },
	{ "lpm-trie-*", "prefix_len", "32" },
	{ "lpm-trie-*", "random", "false" },
	/* before the options, the loop was inlined and each producer had its cursor */
	{ "lpm-trie-*", "inline_loop", "false", .missing = "true" },
	{ "lpm-trie-*", "own_cursor", "false", .missing = "true" },
	{ "hash-prealloc-update", "map_perf_test", "1" },
	{ "percpu-hash-prealloc-update", "map_perf_test", "2" },
	{ "hash-kmalloc-update", "map_perf_test", "4" },
	{ "percpu-hash-kmalloc-update", "map_perf_test", "8" },
	{ "lru-hash-common-update", "map_perf_test", "16" },
	{ "lru-hash-percpu-update", "map_perf_test", "32" },
	{ "lpm-kmalloc-lookup", "map_perf_test", "64" },
	{ "inner-lru-hash-update", "map_perf_test", "512" },
	{ "hash-*-update", "nr_entries", "1000" },
	{ "percpu-hash-*-update", "nr_entries", "1000" },
	{ "lru-hash-*-update", "nr_entries", "10000" },
	{ "lpm-kmalloc-lookup", "nr_entries", "10000" },
	{ "inner-lru-hash-update", "nr_entries", "1000" },
	/* bloom-lookup, -update, -false-positive, hashmap-with(out)-bloom */
	{ "*bloom*", "nr_entries", "1000" },
	{ "*bloom*", "nr_hash_funcs", "3" },
	{ "*bloom*", "value_size", "8" },
};

#define NR_DEFAULTS (sizeof(defaults) / sizeof(defaults[0]))

static bool json_text_equal(json_t *v, const char *text)
{
	json_t *d = json_loads(text, JSON_DECODE_ANY, NULL);
	bool eq = d && v && json_equal(v, d);

	json_decref(d);
	return eq;
}

/* the row of benchmark's key that applies to config (NULL: none) */
static const struct config_default *find_default(const char *benchmark, json_t *config,
						 const char *key)
{
	size_t i;

	for (i = 0; i < NR_DEFAULTS; i++) {
		const struct config_default *d = &defaults[i];

		if (strcmp(d->key, key) || fnmatch(d->bench, benchmark ? benchmark : "", 0))
			continue;
		if (d->if_key && !json_text_equal(json_object_get(config, d->if_key), d->if_value))
			continue;
		return d;
	}
	return NULL;
}

bool result_config_is_default(const char *benchmark, json_t *config, const char *key)
{
	const struct config_default *d = find_default(benchmark, config, key);

	return d && d->value && json_text_equal(json_object_get(config, key), d->value);
}

static const char *doc_benchmark(json_t *doc)
{
	return json_string_value(json_object_get(doc, "benchmark"));
}

/* fill in the keys the document leaves out: their defaults, or what it ran with */
static int fill_defaults(const char *benchmark, json_t *config)
{
	size_t i;

	for (i = 0; i < NR_DEFAULTS; i++) {
		const struct config_default *d = &defaults[i];
		json_t *v;

		if (!d->value || json_object_get(config, d->key) ||
		    fnmatch(d->bench, benchmark ? benchmark : "", 0))
			continue;
		if (d->if_key && !json_text_equal(json_object_get(config, d->if_key), d->if_value))
			continue;
		v = json_loads(d->missing ? d->missing : d->value, JSON_DECODE_ANY, NULL);
		if (!v || json_object_set_new(config, d->key, v))
			return -ENOMEM;
	}
	return 0;
}

json_t *result_config(json_t *doc)
{
	json_t *opts = json_object_get(doc, "options"), *config = json_object(), *v;
	json_t *bench_opts = json_object_get(opts, "benchmark");
	const char *key;
	char name[256];
	size_t i;

	if (!config)
		return NULL;
	for (i = 0; runner_keys[i]; i++) {
		v = json_object_get(json_object_get(opts, "runner"), runner_keys[i]);
		if (v && json_object_set(config, runner_keys[i], v))
			goto fail;
	}
	json_object_foreach(bench_opts, key, v) {
		bool clash = false;

		for (i = 0; runner_keys[i] && !clash; i++)
			clash = !strcmp(key, runner_keys[i]);
		snprintf(name, sizeof(name), "%s%s", clash ? "benchmark." : "", key);
		if (json_object_set(config, name, v))
			goto fail;
	}
	if (fill_defaults(doc_benchmark(doc), config))
		goto fail;
	return config;
fail:
	json_decref(config);
	return NULL;
}

char *result_config_key(json_t *doc)
{
	json_t *config = result_config(doc);
	char *s = config ? json_dumps(config, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	json_decref(config);
	return s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* a string bare when that cannot be misread as the label's syntax */
static void put_value(FILE *f, json_t *v)
{
	const char *s = json_string_value(v);
	char *dump;

	if (s && *s && !strpbrk(s, " =\"\\"))  {
		fputs(s, f);
		return;
	}
	if (json_is_integer(v)) {
		fprintf(f, "%lld", (long long)json_integer_value(v));
		return;
	}
	dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	fputs(dump ? dump : "?", f);
	free(dump);
}

void result_config_label(json_t *doc, char *buf, size_t sz)
{
	const char *benchmark = doc_benchmark(doc), *key, **keys = NULL;
	json_t *config = result_config(doc), *v;
	size_t n = 0, i, len = 0;
	char *out = NULL;
	FILE *f = NULL;
	bool first = true;

	if (config)
		keys = calloc(json_object_size(config) + 1, sizeof(*keys));
	if (keys)
		f = open_memstream(&out, &len);
	if (!f) {
		snprintf(buf, sz, "?");
		goto out;
	}
	json_object_foreach(config, key, v)
		keys[n++] = key;
	qsort(keys, n, sizeof(*keys), cmp_str);
	/* the headline first, bare */
	for (i = 0; i < n; i++) {
		const struct config_default *d = find_default(benchmark, config, keys[i]);

		if (!d || d->value)
			continue;
		fprintf(f, "%s", first ? "" : " ");
		put_value(f, json_object_get(config, keys[i]));
		first = false;
	}
	for (i = 0; i < n; i++) {
		const struct config_default *d = find_default(benchmark, config, keys[i]);

		v = json_object_get(config, keys[i]);
		if ((d && !d->value) || result_config_is_default(benchmark, config, keys[i]))
			continue;
		fprintf(f, "%s%s", first ? "" : " ", keys[i]);
		if (!json_is_true(v)) {
			fputc('=', f);
			put_value(f, v);
		}
		first = false;
	}
	fclose(f);
	snprintf(buf, sz, "%s", out && *out ? out : "default");
out:
	free(out);
	free(keys);
	json_decref(config);
}

void result_config_slug(json_t *doc, char *buf, size_t sz)
{
	char *p;

	result_config_label(doc, buf, sz);
	for (p = buf; *p; p++) {
		if (*p == ' ')
			*p = '-';
		else if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = '_';
	}
}

static void add_diff(char *out, size_t sz, const char *key, json_t *va, json_t *vb)
{
	char *sa = va ? json_dumps(va, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	char *sb = vb ? json_dumps(vb, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	size_t len = strlen(out);

	if (len < sz - 64)
		snprintf(out + len, sz - len, "%s%s %s vs %s", len ? ", " : "", key,
			 sa ? sa : "missing", sb ? sb : "missing");
	free(sa);
	free(sb);
}

static bool ignored(const char *const *ignore, const char *key)
{
	for (; ignore && *ignore; ignore++)
		if (!strcmp(*ignore, key))
			return true;
	return false;
}

int result_config_diff(json_t *a, json_t *b, const char *const *ignore, char *out, size_t sz)
{
	json_t *ca = result_config(a), *cb = result_config(b), *va, *vb;
	const char *key;
	int n = 0;

	*out = '\0';
	if (!ca || !cb) {
		snprintf(out, sz, "out of memory");
		n = 1;
		goto out;
	}
	json_object_foreach(ca, key, va) {
		vb = json_object_get(cb, key);
		if (ignored(ignore, key) || (vb && json_equal(va, vb)))
			continue;
		n++;
		add_diff(out, sz, key, va, vb);
	}
	json_object_foreach(cb, key, vb) {
		if (ignored(ignore, key) || json_object_get(ca, key))
			continue;
		n++;
		add_diff(out, sz, key, NULL, vb);
	}
out:
	json_decref(ca);
	json_decref(cb);
	return n;
}
