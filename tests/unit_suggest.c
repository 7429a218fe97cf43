// SPDX-License-Identifier: GPL-2.0
/* "did you mean": the edit distance and the names offered for a typo. */
#include <stdint.h>
#include <stdlib.h>

#include "suggest.h"
#include "tap.h"

static const char *const known[] = {
	"count-global", "count-local", "htab-mem", "bpf_ma", "lpm-trie-lookup", "lpm-trie-insert",
	"hash-lookup", "array-lookup", "ab", "compare", "plot", "history", "export",
};
#define N (sizeof(known) / sizeof(known[0]))

/* the names offered for typed, joined by spaces ("" for none) */
static const char *offered(const char *typed)
{
	static char buf[256];
	const char *out[SUGGEST_MAX];
	size_t cnt = suggest_names(typed, known, N, out, SUGGEST_MAX), i;

	buf[0] = '\0';
	for (i = 0; i < cnt; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, out[i]);
	}
	return buf;
}

int main(void)
{
	char *buf;
	size_t len;
	FILE *f;

	is_int(suggest_distance("", ""), 0, "distance: empty names");
	is_int(suggest_distance("abc", ""), 3, "distance: to empty, the length");
	is_int(suggest_distance("kitten", "sitting"), 3, "distance: kitten, sitting (two substitutions, an insertion)");
	is_int(suggest_distance("compare", "comapre"), 1, "distance: two neighbours swapped cost one");
	is_int(suggest_distance("htab_mem", "HTAB-MEM"), 0, "distance: case and '-' against '_' are free");
	is_int(suggest_distance("ab", "ba"), 1, "distance: a swap at the start");
	is_int(suggest_distance("ca", "abc"), 3, "distance: optimal string alignment, not Damerau's (no edit of a swapped pair)");
	buf = calloc(1, SUGGEST_NAME_MAX + 2);
	memset(buf, 'a', SUGGEST_NAME_MAX + 1);
	ok(suggest_distance(buf, "a") == SIZE_MAX, "distance: a name longer than %d is too far", SUGGEST_NAME_MAX);
	free(buf);

	is_str(offered("htab_mem"), "htab-mem", "htab_mem: htab-mem");
	is_str(offered("comapre"), "compare", "comapre: compare");
	is_str(offered("hsitory"), "history", "hsitory: history");
	is_str(offered("bpf-ma"), "bpf_ma", "bpf-ma: bpf_ma");
	is_str(offered("lpm-trie-lookpu"), "lpm-trie-lookup", "lpm-trie-lookpu: lpm-trie-lookup");
	is_str(offered("count-locl"), "count-local", "count-locl: count-local (one edit)");
	is_str(offered("plto"), "plot", "plto: plot (a short name, one swap)");
	is_str(offered("count"), "count-global count-local", "count: every name it begins, in table order");
	is_str(offered("lpm-trie"), "lpm-trie-lookup lpm-trie-insert", "lpm-trie: the names it begins");
	is_str(offered("ash-lookup"), "hash-lookup", "ash-lookup: the nearest of two at one and two edits");
	is_str(offered("nope"), "", "nope: nothing near enough (a short name gets one edit)");
	is_str(offered("xyzzy-frob"), "", "xyzzy-frob: nothing");
	is_str(offered("ex"), "", "ex: two characters begin nothing worth offering");
	is_str(offered("ac"), "ab", "ac: ab, one edit from a two-letter name");

	f = open_memstream(&buf, &len);
	is_int(suggest_print(f, "count", known, N), 2, "print: two names offered");
	is_int(suggest_print(f, "nope", known, N), 0, "print: none offered");
	is_int(suggest_print(f, "htab", known, N), 1, "print: one offered");
	fclose(f);
	is_str(buf, "did you mean 'count-global' or 'count-local'? did you mean 'htab-mem'? ",
	       "print: the names quoted, joined with 'or', nothing for none");
	free(buf);
	return done_testing();
}
