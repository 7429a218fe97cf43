/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RESULT_LABEL_H
#define __RESULT_LABEL_H

/*
 * What names a result outside bench: the machine a run ran on and the
 * content hash that exported ids derive from (the configuration's key and
 * label are result_config.h's).
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "sha256.h"

/* "CPU model, N CPUs, hypervisor" from the run's context */
void result_machine_label(json_t *doc, char *buf, size_t sz);

/*
 * The kernel build a run ran on, within its release, into buf:
 * "id:<GNU build id>" where the file has one, else "v:<uname -v>", else ""
 * (a file written before bench recorded either).  Runs of one release and
 * different builds (a base and a patched kernel) differ here.
 */
void result_kernel_build(json_t *doc, char *buf, size_t sz);

/*
 * A build as a table shows it: the build id's first 12 hex digits,
 * "v:" and 8 hex digits of uname -v's SHA-256, or "-" when unknown
 */
void result_build_short(const char *build, char *buf, size_t sz);

/*
 * Did the run run under TCG (context.hypervisor "tcg": QEMU emulating every
 * instruction)?  Its timings then say nothing about hardware, and every
 * surface that shows its rates (compare, --markdown, --json, history show,
 * plot, export) says so with RESULT_EMULATED_NOTE.
 */
bool result_emulated(json_t *doc);
#define RESULT_EMULATED_NOTE \
	"QEMU's emulator is many times slower than hardware, and unevenly so across operations: trust memory figures and counts, not rates"
/* the same, short, where a chart title or a table heading has room for no more */
#define RESULT_EMULATED_SHORT "emulated timings (TCG)"

/* the run's --tag, or NULL */
const char *result_tag(json_t *doc);

/* SHA-256 of the document's canonical JSON (keys sorted, compact) */
int result_doc_hash(json_t *doc, char hex[SHA256_HEX_LEN + 1]);

/*
 * What a memory metric measures ("memory", "peak_memory", "memory_stat",
 * "memory_unstat"), in words for compare, history and export to print
 * beside it (docs/memory.md); NULL for any other metric
 */
const char *result_memory_meaning(const char *metric);

#endif /* __RESULT_LABEL_H */
