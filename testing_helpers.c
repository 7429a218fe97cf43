// SPDX-License-Identifier: GPL-2.0
/* Strict number parsing, CPU lists and one-line files. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_limits.h"
#include "testing_helpers.h"

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	/* strtol skips leading blanks and accepts a sign; we want digits only */
	if (!s || !*s)
		return -EINVAL;
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '-' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_ulong_any_base(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;
	int base = 10;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
	} else if (!isdigit((unsigned char)s[0])) {
		return -EINVAL;
	}
	errno = 0;
	v = strtoul(s, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

void cpu_list_free(struct cpu_list *l)
{
	free(l->cpus);
	l->cpus = NULL;
	l->cnt = 0;
}

static int cpu_list_add(struct cpu_list *l, int cpu)
{
	int *tmp, i;

	for (i = 0; i < l->cnt; i++)
		if (l->cpus[i] == cpu)
			return -EINVAL;
	tmp = realloc(l->cpus, (l->cnt + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	l->cpus = tmp;
	l->cpus[l->cnt++] = cpu;
	return 0;
}

/* one CPU number at *p, which is advanced past it */
static int parse_cpu_nr(const char **p, long *cpu)
{
	char num[16];
	int len = strspn(*p, "0123456789");

	if (len == 0)
		return -EINVAL;
	if (len >= (int)sizeof(num))
		return -ERANGE;
	memcpy(num, *p, len);
	num[len] = '\0';
	*p += len;
	return parse_long(num, 0, BENCH_MAX_CPU_NR, cpu);
}

int parse_cpu_list(const char *s, struct cpu_list *out)
{
	const char *p = s;
	long lo, hi, c;
	int err;

	out->cpus = NULL;
	out->cnt = 0;
	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		err = parse_cpu_nr(&p, &lo);
		if (err)
			goto err_out;
		hi = lo;
		if (*p == '-') {
			p++;
			err = parse_cpu_nr(&p, &hi);
			if (err)
				goto err_out;
			if (hi < lo) {
				err = -EINVAL;
				goto err_out;
			}
		}
		for (c = lo; c <= hi; c++) {
			err = cpu_list_add(out, c);
			if (err)
				goto err_out;
		}
		if (*p == ',') {
			p++;
			if (!*p) {
				err = -EINVAL;
				goto err_out;
			}
		} else if (*p) {
			err = -EINVAL;
			goto err_out;
		}
	}
	return 0;
err_out:
	cpu_list_free(out);
	return err;
}

int allowed_cpu_list(struct cpu_list *out)
{
	cpu_set_t set;
	int cpu, err;

	out->cpus = NULL;
	out->cnt = 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		err = cpu_list_add(out, cpu);
		if (err) {
			cpu_list_free(out);
			return err;
		}
	}
	return 0;
}

int cpu_list_first_not_in(const struct cpu_list *l, const struct cpu_list *allowed)
{
	int i, j;

	for (i = 0; i < l->cnt; i++) {
		for (j = 0; j < allowed->cnt; j++)
			if (allowed->cpus[j] == l->cpus[i])
				break;
		if (j == allowed->cnt)
			return l->cpus[i];
	}
	return -1;
}

int read_first_line(const char *path, char *buf, size_t sz)
{
	FILE *fp = fopen(path, "re");

	if (!fp)
		return -errno;
	if (!fgets(buf, sz, fp))
		buf[0] = '\0';
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int parse_num_list(const char *s, bool **set, int *set_len)
{
	struct cpu_list l;
	int i, max = -1, err;

	err = parse_cpu_list(s, &l);
	if (err)
		return err;
	for (i = 0; i < l.cnt; i++)
		if (l.cpus[i] > max)
			max = l.cpus[i];
	*set = calloc(max + 1, sizeof(**set));
	if (!*set) {
		cpu_list_free(&l);
		return -ENOMEM;
	}
	for (i = 0; i < l.cnt; i++)
		(*set)[l.cpus[i]] = true;
	*set_len = max + 1;
	cpu_list_free(&l);
	return 0;
}
