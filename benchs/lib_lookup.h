/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LIB_LOOKUP_H
#define __LIB_LOOKUP_H

/*
 * Pure helpers of the bpf-hashmap-lookup benchmark, kept apart from the
 * benchmark so the unit tests can link them without BPF or the runner.
 */
#include <stddef.h>
#include <stdint.h>

#define LOOKUP_KEY_SIZE_MAX	1024
/* bpf_loop() refuses more iterations than this (BPF_MAX_LOOPS) */
#define LOOKUP_NR_LOOPS_MAX	(1U << 23)
/*
 * Filling is one update syscall per entry from userspace: beyond 16M
 * entries set-up alone takes longer than any sensible measurement.
 */
#define LOOKUP_MAX_ENTRIES_MAX	(1U << 24)

/* the index occupies the first min(key_size, 4) bytes of a key */
#define LOOKUP_KEY_INDEX_BYTES	4

struct hashmap_lookup_args {
	uint32_t key_size;
	uint32_t map_flags;
	uint32_t max_entries;
	uint32_t nr_entries;
	uint32_t nr_loops;
};

#define HASHMAP_LOOKUP_ARGS_DEFAULT {	\
	.key_size = 4,			\
	.map_flags = 0,			\
	.max_entries = 1000,		\
	.nr_entries = 500,		\
	.nr_loops = 1000000,		\
}

/* argp keys, named as upstream's options */
enum {
	ARG_KEY_SIZE = 8001,
	ARG_MAP_FLAGS,
	ARG_MAX_ENTRIES,
	ARG_NR_ENTRIES,
	ARG_NR_LOOPS,
};

/*
 * Parse one option into args.  Returns 0, or -EINVAL/-ERANGE with a
 * one-line message (no newline) in err naming the value and what is
 * accepted; -ENOENT for a key that is not one of ours.
 */
int hashmap_lookup_parse_opt(struct hashmap_lookup_args *args, int key, const char *arg,
			     char *err, size_t err_sz);

/* checks that involve more than one option; same convention */
int hashmap_lookup_check_args(const struct hashmap_lookup_args *args, char *err, size_t err_sz);

/*
 * Keys.  Key i carries i in its first min(key_size, 4) bytes, least
 * significant byte first; the remaining bytes are one fixed filler shared
 * by every key.  The BPF program keeps a key buffer with the filler and
 * only rewrites the index bytes before each lookup, so filling the map
 * from userspace and looking it up in BPF agree by construction.
 */

/* how many distinct keys a key of key_size bytes can hold */
uint64_t lookup_key_capacity(uint32_t key_size);

/*
 * Write key number idx into key (key_size bytes).  Returns 0, or -EINVAL
 * for a key_size outside 1..LOOKUP_KEY_SIZE_MAX, -ERANGE when idx does not
 * fit in key_size bytes.
 */
int lookup_key_make(void *key, uint32_t key_size, uint64_t idx);

#endif /* __LIB_LOOKUP_H */
