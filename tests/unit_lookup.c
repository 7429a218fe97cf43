// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-lookup's pure parts: option parsing and key generation.
 * The keys matter most: the BPF program finds only what userspace filled
 * in, so keys must be distinct, sized right and differ only where the
 * program rewrites them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "benchs/lib_lookup.h"

static char err[256];

static int parse(struct hashmap_lookup_args *a, int key, const char *arg)
{
	err[0] = '\0';
	return hashmap_lookup_parse_opt(a, key, arg, err, sizeof(err));
}

/* a malformed or out-of-range value: refused, named, and args untouched */
static void refused(int key, const char *opt, const char *arg, int want)
{
	struct hashmap_lookup_args a = HASHMAP_LOOKUP_ARGS_DEFAULT;
	struct hashmap_lookup_args def = HASHMAP_LOOKUP_ARGS_DEFAULT;
	char quoted[64];
	int ret;

	ret = parse(&a, key, arg);
	is_int(ret, want, "%s '%s' is refused", opt, arg);
	snprintf(quoted, sizeof(quoted), "'%s'", arg);
	ok(strstr(err, opt) && strstr(err, quoted) && strstr(err, "expected"),
	   "%s '%s': message names the option, the value and what is accepted (%s)", opt, arg, err);
	ok(!strchr(err, '\n'), "%s '%s': message is one line", opt, arg);
	ok(!memcmp(&a, &def, sizeof(a)), "%s '%s': options unchanged", opt, arg);
}

static void test_parse(void)
{
	struct hashmap_lookup_args a = HASHMAP_LOOKUP_ARGS_DEFAULT;

	is_int(a.key_size, 4, "default key_size");
	is_int(a.map_flags, 0, "default map_flags");
	is_int(a.max_entries, 1000, "default max_entries");
	is_int(a.nr_entries, 500, "default nr_entries");
	is_int(a.nr_loops, 1000000, "default nr_loops");
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), 0, "defaults are consistent");

	is_int(parse(&a, ARG_KEY_SIZE, "1"), 0, "key_size 1 accepted");
	is_int(a.key_size, 1, "key_size 1 stored");
	is_int(parse(&a, ARG_KEY_SIZE, "1024"), 0, "key_size 1024 accepted");
	is_int(a.key_size, 1024, "key_size 1024 stored");
	is_int(parse(&a, ARG_MAP_FLAGS, "0x41"), 0, "map_flags 0x41 accepted");
	is_int(a.map_flags, 0x41, "map_flags hex stored");
	is_int(parse(&a, ARG_MAP_FLAGS, "128"), 0, "map_flags 128 accepted");
	is_int(a.map_flags, 128, "map_flags decimal stored");
	is_int(parse(&a, ARG_MAP_FLAGS, "0"), 0, "map_flags 0 accepted");
	is_int(parse(&a, ARG_MAX_ENTRIES, "16777216"), 0, "max_entries 2^24 accepted");
	is_int(a.max_entries, 16777216, "max_entries stored");
	is_int(parse(&a, ARG_NR_ENTRIES, "1"), 0, "nr_entries 1 accepted");
	is_int(a.nr_entries, 1, "nr_entries stored");
	is_int(parse(&a, ARG_NR_LOOPS, "8388608"), 0, "nr_loops 2^23 accepted");
	is_int(a.nr_loops, 8388608, "nr_loops stored");
	is_int(parse(&a, ARG_NR_LOOPS, "1"), 0, "nr_loops 1 accepted");
	is_int(parse(&a, 'p', "1"), -ENOENT, "keys that are not ours are left to others");

	refused(ARG_KEY_SIZE, "--key_size", "0", -ERANGE);
	refused(ARG_KEY_SIZE, "--key_size", "1025", -ERANGE);
	refused(ARG_KEY_SIZE, "--key_size", "-4", -ERANGE);
	refused(ARG_KEY_SIZE, "--key_size", "4x", -EINVAL);
	refused(ARG_KEY_SIZE, "--key_size", "", -EINVAL);
	refused(ARG_KEY_SIZE, "--key_size", " 4", -EINVAL);
	refused(ARG_MAP_FLAGS, "--map_flags", "0x", -EINVAL);
	refused(ARG_MAP_FLAGS, "--map_flags", "0xg", -EINVAL);
	refused(ARG_MAP_FLAGS, "--map_flags", "-1", -EINVAL);
	refused(ARG_MAP_FLAGS, "--map_flags", "0x100000000", -ERANGE);
	/* valid numbers, but flags a filled, read-only-from-BPF hash map cannot use */
	refused(ARG_MAP_FLAGS, "--map_flags", "0x2", -EINVAL);
	refused(ARG_MAP_FLAGS, "--map_flags", "8", -EINVAL);
	refused(ARG_MAP_FLAGS, "--map_flags", "0x101", -EINVAL);
	refused(ARG_MAX_ENTRIES, "--max_entries", "0", -ERANGE);
	refused(ARG_MAX_ENTRIES, "--max_entries", "16777217", -ERANGE);
	refused(ARG_MAX_ENTRIES, "--max_entries", "1k", -EINVAL);
	refused(ARG_NR_ENTRIES, "--nr_entries", "0", -ERANGE);
	refused(ARG_NR_ENTRIES, "--nr_entries", "99999999999999999999", -ERANGE);
	refused(ARG_NR_LOOPS, "--nr_loops", "0", -ERANGE);
	refused(ARG_NR_LOOPS, "--nr_loops", "8388609", -ERANGE);
	refused(ARG_NR_LOOPS, "--nr_loops", "1e6", -EINVAL);
}

static void test_check(void)
{
	struct hashmap_lookup_args a = HASHMAP_LOOKUP_ARGS_DEFAULT;

	a.nr_entries = a.max_entries;
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), 0, "nr_entries == max_entries is fine");
	a.nr_entries = a.max_entries + 1;
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), -EINVAL,
	       "nr_entries > max_entries refused");
	ok(strstr(err, "--nr_entries 1001") && strstr(err, "--max_entries 1000"),
	   "message names both values (%s)", err);

	a = (struct hashmap_lookup_args)HASHMAP_LOOKUP_ARGS_DEFAULT;
	a.key_size = 1;
	a.nr_entries = 256;
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), 0, "256 one-byte keys fit");
	a.nr_entries = 257;
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), -EINVAL, "257 one-byte keys refused");
	ok(strstr(err, "257") && strstr(err, "256"), "message says how many fit (%s)", err);
	a.key_size = 2;
	a.max_entries = 100000;
	a.nr_entries = 65536;
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), 0, "65536 two-byte keys fit");
	a.nr_entries = 65537;
	is_int(hashmap_lookup_check_args(&a, err, sizeof(err)), -EINVAL,
	       "65537 two-byte keys refused");
}

static uint32_t cmp_size;

static int cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, cmp_size);
}

/* keys 0..n-1 of key_size bytes: distinct, index bytes LE, same tail */
static int check_keys(uint32_t key_size, uint64_t n, const char **why)
{
	uint32_t idx_bytes = key_size < 4 ? key_size : 4, b;
	uint8_t *keys;
	uint64_t i;
	int ret = 0;

	keys = malloc(n * key_size);
	if (!keys) {
		*why = "out of memory";
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		uint8_t *k = keys + i * key_size;

		if (lookup_key_make(k, key_size, i)) {
			*why = "lookup_key_make failed";
			ret = -1;
			break;
		}
		for (b = 0; b < idx_bytes; b++)
			if (k[b] != (uint8_t)(i >> (8 * b))) {
				*why = "index bytes are not the index, least significant first";
				ret = -1;
			}
		/* the BPF program only rewrites the index bytes */
		if (memcmp(k + idx_bytes, keys + idx_bytes, key_size - idx_bytes)) {
			*why = "bytes after the index differ between keys";
			ret = -1;
		}
	}
	if (!ret) {
		cmp_size = key_size;
		qsort(keys, n, key_size, cmp_key);
		for (i = 1; i < n; i++)
			if (!memcmp(keys + (i - 1) * key_size, keys + i * key_size, key_size)) {
				*why = "two keys are equal";
				ret = -1;
				break;
			}
	}
	free(keys);
	return ret;
}

static void test_keys(void)
{
	uint8_t k[LOOKUP_KEY_SIZE_MAX + 1], zero[LOOKUP_KEY_SIZE_MAX] = {};
	uint32_t size, bad_sizes = 0;
	const char *why = "";
	uint64_t n;

	is_int(lookup_key_capacity(1), 256, "one byte holds 256 keys");
	is_int(lookup_key_capacity(2), 65536, "two bytes hold 65536 keys");
	is_int(lookup_key_capacity(3), 1 << 24, "three bytes hold 2^24 keys");
	is_int(lookup_key_capacity(4), 1ULL << 32, "four bytes hold 2^32 keys");
	is_int(lookup_key_capacity(1024), 1ULL << 32, "longer keys hold 2^32 keys");

	is_int(lookup_key_make(k, 0, 0), -EINVAL, "key_size 0 refused");
	is_int(lookup_key_make(k, LOOKUP_KEY_SIZE_MAX + 1, 0), -EINVAL, "key_size 1025 refused");
	is_int(lookup_key_make(k, 1, 256), -ERANGE, "index 256 does not fit one byte");
	is_int(lookup_key_make(k, 2, 65536), -ERANGE, "index 65536 does not fit two bytes");
	is_int(lookup_key_make(k, 4, 1ULL << 32), -ERANGE, "index 2^32 does not fit");
	is_int(lookup_key_make(k, 4, (1ULL << 32) - 1), 0, "index 2^32-1 fits four bytes");
	is_int(k[0] & k[1] & k[2] & k[3], 0xff, "and is all ones");

	/* writes exactly key_size bytes */
	memset(k, 0xa5, sizeof(k));
	lookup_key_make(k, 7, 3);
	ok(k[7] == 0xa5, "key_size 7 leaves byte 7 alone");

	/* long keys are not mostly zeroes: the filler covers the tail */
	lookup_key_make(k, LOOKUP_KEY_SIZE_MAX, 0);
	ok(memcmp(k + 4, zero, 64), "the tail of a long key is not zero");

	ok(!check_keys(1, 256, &why), "key_size 1: all 256 keys distinct %s", why);
	ok(!check_keys(2, 65536, &why), "key_size 2: all 65536 keys distinct %s", why);
	ok(!check_keys(3, 200000, &why), "key_size 3: 200000 keys distinct %s", why);
	ok(!check_keys(4, 200000, &why), "key_size 4: 200000 keys distinct %s", why);
	/*
	 * Every other size; past 8 bytes the index part is the same as for
	 * 4..8 and only the tail grows, so fewer keys do.
	 */
	for (size = 5; size <= LOOKUP_KEY_SIZE_MAX; size++) {
		n = size <= 8 ? 70000 : 1000;
		if (check_keys(size, n, &why)) {
			if (!bad_sizes++)
				printf("# key_size %u: %s\n", size, why);
		}
	}
	is_int(bad_sizes, 0, "key_size 5..1024: keys distinct, index first, shared tail");
}

int main(void)
{
	test_parse();
	test_check();
	test_keys();
	return done_testing();
}
