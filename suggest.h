/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __SUGGEST_H
#define __SUGGEST_H

#include <stddef.h>
#include <stdio.h>

/* the most names one "did you mean" offers */
#define SUGGEST_MAX 3

/*
 * The edit distance between two names (optimal string alignment: an
 * insertion, a deletion, a substitution or two neighbours swapped cost 1),
 * with case and '-' against '_' free: htab_mem is htab-mem.  SIZE_MAX for a
 * name longer than SUGGEST_NAME_MAX.
 */
#define SUGGEST_NAME_MAX 64
size_t suggest_distance(const char *a, const char *b);

/*
 * The known names a mistyped one most likely meant, in table order, at most
 * max: those nearest to it if they are near enough (one edit for a name of
 * up to four characters, two for a longer one), else those it begins
 * (htab: htab-mem).  Returns how many it put in out.
 */
size_t suggest_names(const char *typed, const char *const *known, size_t n, const char **out,
		     size_t max);

/* "did you mean 'a' or 'b'? " on f, or nothing; how many names it offered */
size_t suggest_print(FILE *f, const char *typed, const char *const *known, size_t n);

#endif /* __SUGGEST_H */
