// SPDX-License-Identifier: GPL-2.0
/*
 * "Did you mean ...?": the known name nearest to a mistyped benchmark,
 * command or chart kind.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "suggest.h"

static int fold(char c)
{
	return c == '_' ? '-' : tolower((unsigned char)c);
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	/* three rows of the table: i - 2, i - 1 and i */
	size_t d[3][SUGGEST_NAME_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > SUGGEST_NAME_MAX || lb > SUGGEST_NAME_MAX)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i - 2) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = fold(a[i - 1]) != fold(b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
			    fold(a[i - 2]) == fold(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return d[la % 3][lb];
}

static bool begins(const char *name, const char *prefix)
{
	size_t i;

	for (i = 0; prefix[i]; i++)
		if (fold(name[i]) != fold(prefix[i]))
			return false;
	return true;
}

size_t suggest_names(const char *typed, const char *const *known, size_t n, const char **out,
		     size_t max)
{
	size_t i, d, best = SIZE_MAX, cnt = 0, near = strlen(typed) <= 4 ? 1 : 2;

	for (i = 0; i < n; i++) {
		d = suggest_distance(typed, known[i]);
		if (d < best)
			best = d;
	}
	for (i = 0; best <= near && i < n && cnt < max; i++)
		if (suggest_distance(typed, known[i]) == best)
			out[cnt++] = known[i];
	if (cnt || strlen(typed) < 3)	/* "c" begins too much to mean anything */
		return cnt;
	for (i = 0; i < n && cnt < max; i++)
		if (begins(known[i], typed))
			out[cnt++] = known[i];
	return cnt;
}

size_t suggest_print(FILE *f, const char *typed, const char *const *known, size_t n)
{
	const char *names[SUGGEST_MAX];
	size_t cnt = suggest_names(typed, known, n, names, SUGGEST_MAX), i;

	if (!cnt)
		return 0;
	fprintf(f, "did you mean ");
	for (i = 0; i < cnt; i++)
		fprintf(f, "%s'%s'", !i ? "" : i + 1 < cnt ? ", " : " or ", names[i]);
	fprintf(f, "? ");
	return cnt;
}
