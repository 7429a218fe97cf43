// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-lookup's pure helpers (options, keys), apart from the
 * benchmark so the unit tests link them without BPF or the runner.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "testing_helpers.h"
#include "benchs/lib_lookup.h"

/*
 * Flags that make sense for a hash map that userspace fills and a BPF
 * program only reads.  Others are refused here rather than by the kernel:
 * BPF_F_NO_COMMON_LRU is LRU-only, BPF_F_NUMA_NODE needs a node we do not
 * pass, BPF_F_RDONLY/BPF_F_WRONLY would stop us filling the map and
 * BPF_F_WRONLY_PROG would stop the program reading it.
 */
#define HASHMAP_LOOKUP_FLAGS (BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED | BPF_F_RDONLY_PROG)

static int bad(char *err, size_t err_sz, int ret, const char *opt, const char *arg,
	       const char *accepted)
{
	snprintf(err, err_sz, "invalid %s '%s': expected %s", opt, arg, accepted);
	return ret;
}

static int parse_u32(const char *arg, long min, long max, uint32_t *out)
{
	long v;
	int ret;

	ret = parse_long(arg, min, max, &v);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

int hashmap_lookup_parse_opt(struct hashmap_lookup_args *args, int key, const char *arg,
			     char *err, size_t err_sz)
{
	unsigned long flags;
	int ret;

	switch (key) {
	case ARG_KEY_SIZE:
		ret = parse_u32(arg, 1, LOOKUP_KEY_SIZE_MAX, &args->key_size);
		if (ret)
			return bad(err, err_sz, ret, "--key_size", arg, "bytes in 1..1024");
		return 0;
	case ARG_MAP_FLAGS:
		ret = parse_ulong_any_base(arg, UINT32_MAX, &flags);
		if (!ret && (flags & ~(unsigned long)HASHMAP_LOOKUP_FLAGS))
			ret = -EINVAL;
		if (ret)
			return bad(err, err_sz, ret, "--map_flags", arg,
				   "decimal or 0x-hex, a combination of 0x1 (BPF_F_NO_PREALLOC), 0x40 (BPF_F_ZERO_SEED) and 0x80 (BPF_F_RDONLY_PROG)");
		args->map_flags = flags;
		return 0;
	case ARG_MAX_ENTRIES:
		ret = parse_u32(arg, 1, LOOKUP_MAX_ENTRIES_MAX, &args->max_entries);
		if (ret)
			return bad(err, err_sz, ret, "--max_entries", arg, "an integer in 1..16777216");
		return 0;
	case ARG_NR_ENTRIES:
		ret = parse_u32(arg, 1, LOOKUP_MAX_ENTRIES_MAX, &args->nr_entries);
		if (ret)
			return bad(err, err_sz, ret, "--nr_entries", arg,
				   "an integer in 1..16777216, at most --max_entries");
		return 0;
	case ARG_NR_LOOPS:
		ret = parse_u32(arg, 1, LOOKUP_NR_LOOPS_MAX, &args->nr_loops);
		if (ret)
			return bad(err, err_sz, ret, "--nr_loops", arg, "an integer in 1..8388608");
		return 0;
	default:
		return -ENOENT;
	}
}

int hashmap_lookup_check_args(const struct hashmap_lookup_args *args, char *err, size_t err_sz)
{
	if (args->nr_entries > args->max_entries) {
		snprintf(err, err_sz,
			 "--nr_entries %u is more than --max_entries %u: a map cannot hold more entries than it has room for",
			 args->nr_entries, args->max_entries);
		return -EINVAL;
	}
	if (args->nr_entries > lookup_key_capacity(args->key_size)) {
		snprintf(err, err_sz,
			 "--nr_entries %u needs more distinct keys than --key_size %u allows (at most %llu)",
			 args->nr_entries, args->key_size,
			 (unsigned long long)lookup_key_capacity(args->key_size));
		return -EINVAL;
	}
	return 0;
}

uint64_t lookup_key_capacity(uint32_t key_size)
{
	uint32_t bytes = key_size < LOOKUP_KEY_INDEX_BYTES ? key_size : LOOKUP_KEY_INDEX_BYTES;

	return 1ULL << (8 * bytes);
}

/*
 * A fixed pseudo-random filler, so long keys are not mostly zeroes: the
 * hash covers every byte either way, but zero runs are not what real keys
 * look like.  Depends only on the byte position, never on the index.
 */
static uint8_t filler_byte(uint32_t pos)
{
	uint32_t x = pos * 2654435761u + 0x9e3779b9u;

	x ^= x >> 15;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	return x >> 24;
}

int lookup_key_make(void *key, uint32_t key_size, uint64_t idx)
{
	uint8_t *k = key;
	uint32_t i;

	if (key_size < 1 || key_size > LOOKUP_KEY_SIZE_MAX)
		return -EINVAL;
	if (idx >= lookup_key_capacity(key_size))
		return -ERANGE;
	for (i = 0; i < key_size; i++) {
		if (i < LOOKUP_KEY_INDEX_BYTES)
			k[i] = idx >> (8 * i);
		else
			k[i] = filler_byte(i);
	}
	return 0;
}
