/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RESULT_LABEL_H
#define __RESULT_LABEL_H

/*
 * What names a result outside bench: the machine a run ran on and the
 * content hash that exported ids derive from (the configuration's key and
 * label are result_config.h's).
 */
#include <jansson.h>
#include <stddef.h>

#include "sha256.h"

/* "CPU model, N CPUs, hypervisor" from the run's context */
void result_machine_label(json_t *doc, char *buf, size_t sz);

/* SHA-256 of the document's canonical JSON (keys sorted, compact) */
int result_doc_hash(json_t *doc, char hex[SHA256_HEX_LEN + 1]);

#endif /* __RESULT_LABEL_H */
