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

int result_doc_hash(json_t *doc, char hex[SHA256_HEX_LEN + 1])
{
	char *s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));

	if (!s)
		return -ENOMEM;
	sha256_hex(s, strlen(s), hex);
	free(s);
	return 0;
}
