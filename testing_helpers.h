/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TESTING_HELPERS_H
#define __TESTING_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Strict number parsing: the whole string must be a number, in range.
 * "5x", "", " 5", "-1" for unsigned ranges and overflow are refused.
 * Return 0, -EINVAL (not a number) or -ERANGE (outside [min, max]).
 */
int parse_long(const char *s, long min, long max, long *out);
/* like parse_long, but also accepts 0x-prefixed hexadecimal */
int parse_ulong_any_base(const char *s, unsigned long max, unsigned long *out);

/* an ordered CPU list such as "0-3,5" (duplicates refused) */
struct cpu_list {
	int *cpus;
	int cnt;
};

/* Returns 0 or -EINVAL (malformed), -ERANGE (CPU number too big), -ENOMEM */
int parse_cpu_list(const char *s, struct cpu_list *out);
void cpu_list_free(struct cpu_list *l);
/* the CPUs this process may run on, ascending */
int allowed_cpu_list(struct cpu_list *out);
/* first CPU of l not in allowed, or -1 when all are allowed */
int cpu_list_first_not_in(const struct cpu_list *l, const struct cpu_list *allowed);

/*
 * upstream's: the numbers of a list such as "0-3,5" as a set, (*set)[n]
 * true for each, *set_len one past the largest; *set malloc'ed.  0, or
 * -EINVAL, -ERANGE, -ENOMEM as parse_cpu_list().
 */
int parse_num_list(const char *s, bool **set, int *set_len);

/* first line of a file, newline stripped ("" for an empty file); 0 or -errno */
int read_first_line(const char *path, char *buf, size_t sz);

#endif /* __TESTING_HELPERS_H */
