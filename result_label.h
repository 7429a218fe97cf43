/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RESULT_LABEL_H
#define __RESULT_LABEL_H

/*
 * What names a result outside bench: the configuration label in KCIDB test
 * paths, lkp-tests keys and the history, the machine a run ran on, the
 * configuration key the history groups by, and the content hash that
 * exported ids derive from.  One definition each; contrib/lkp-tests'
 * parse follows the label's rule (README, "Many kernels, many machines").
 */
#include <jansson.h>
#include <stddef.h>

#include "sha256.h"

/*
 * The configuration as one path component ([A-Za-z0-9_-]): the use case
 * and the benchmark's true flags ("overwrite", "overwrite-preallocated"),
 * or, for a benchmark without use cases, its options ("key_size4-...-
 * fentry"), or "default".
 */
void result_config_label(json_t *doc, char *buf, size_t sz);

/* "CPU model, N CPUs, hypervisor" from the run's context */
void result_machine_label(json_t *doc, char *buf, size_t sz);

/*
 * The options that make a configuration (all but duration, warm-up and
 * the repeat count), as canonical JSON (malloc'ed; NULL: out of memory)
 */
char *result_config_key(json_t *doc);

/* SHA-256 of the document's canonical JSON (keys sorted, compact) */
int result_doc_hash(json_t *doc, char hex[SHA256_HEX_LEN + 1]);

#endif /* __RESULT_LABEL_H */
