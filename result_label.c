// SPDX-License-Identifier: GPL-2.0
/*
 * Names for a result outside bench (see result_label.h).  They are made
 * from the document alone, so the same file names the same things on any
 * machine and in any tool.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_label.h"

/* append one part, "-"-separated, with characters a path refuses as '_' */
static void add_part(char *buf, size_t sz, const char *part)
{
	size_t len = strlen(buf);
	const char *p;

	if (len && len + 1 < sz)
		buf[len++] = '-';
	for (p = part; *p && len + 1 < sz; p++) {
		bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-';

		buf[len++] = keep ? *p : '_';
	}
	buf[len] = '\0';
}

void result_config_label(json_t *doc, char *buf, size_t sz)
{
	json_t *opts = json_object_get(json_object_get(doc, "options"), "benchmark"), *v;
	json_t *use_case = json_object_get(opts, "use_case");
	const char *key;
	char num[96];

	buf[0] = '\0';
	if (json_is_string(use_case))
		add_part(buf, sz, json_string_value(use_case));
	json_object_foreach(opts, key, v) {
		if (json_is_true(v)) {
			add_part(buf, sz, key);
		} else if (json_is_string(use_case)) {
			continue;
		} else if (json_is_string(v)) {
			add_part(buf, sz, json_string_value(v));
		} else if (json_is_integer(v)) {
			snprintf(num, sizeof(num), "%s%lld", key, (long long)json_integer_value(v));
			add_part(buf, sz, num);
		}
	}
	if (!buf[0])
		snprintf(buf, sz, "default");
}

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

char *result_config_key(json_t *doc)
{
	json_t *opts = json_deep_copy(json_object_get(doc, "options")), *runner;
	char *s;

	if (!opts)
		opts = json_object();
	runner = json_object_get(opts, "runner");
	json_object_del(runner, "duration_sec");
	json_object_del(runner, "warmup_sec");
	json_object_del(runner, "repeat");
	s = json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(opts);
	return s;
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
