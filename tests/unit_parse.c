// SPDX-License-Identifier: GPL-2.0
/* Strict number and CPU list parsing. */
#include <errno.h>
#include <limits.h>

#include "testing_helpers.h"
#include "tap.h"

static int cpus_eq(const struct cpu_list *l, const int *want, int n)
{
	int i;

	if (l->cnt != n)
		return 0;
	for (i = 0; i < n; i++)
		if (l->cpus[i] != want[i])
			return 0;
	return 1;
}

int main(void)
{
	static const char *const bad_numbers[] = {
		"", "5x", "x5", " 5", "5 ", "+5", "0x10", "1e3", "--1", "-", "5.0",
	};
	struct cpu_list l, allowed;
	unsigned long u;
	long v = 7;
	size_t i;

	is_int(parse_long("5", 1, 10, &v), 0, "5 parses");
	is_int(v, 5, "5 is 5");
	is_int(parse_long("0", 0, 10, &v), 0, "0 parses when allowed");
	is_int(parse_long("-3", -5, 5, &v), 0, "-3 parses in a signed range");
	is_int(v, -3, "-3 is -3");
	for (i = 0; i < sizeof(bad_numbers) / sizeof(bad_numbers[0]); i++)
		is_int(parse_long(bad_numbers[i], 0, 100, &v), -EINVAL, "'%s' is not a number",
		       bad_numbers[i]);
	is_int(parse_long(NULL, 0, 100, &v), -EINVAL, "NULL is not a number");
	is_int(parse_long("-1", 1, 100, &v), -ERANGE, "-1 is below 1");
	is_int(parse_long("0", 1, 100, &v), -ERANGE, "0 is below 1");
	is_int(parse_long("101", 1, 100, &v), -ERANGE, "101 is above 100");
	is_int(parse_long("99999999999999999999999", 0, LONG_MAX, &v), -ERANGE,
	       "overflow is out of range, not wrapped");
	v = 7;
	parse_long("5x", 0, 100, &v);
	is_int(v, 7, "a refused value leaves the output alone");

	is_int(parse_ulong_any_base("0x1f", 255, &u), 0, "hex parses");
	is_int(u, 31, "0x1f is 31");
	is_int(parse_ulong_any_base("4096", 1UL << 32, &u), 0, "decimal parses");
	is_int(u, 4096, "4096");
	is_int(parse_ulong_any_base("0x", 255, &u), -EINVAL, "0x alone is refused");
	is_int(parse_ulong_any_base("0xg", 255, &u), -EINVAL, "0xg is refused");
	is_int(parse_ulong_any_base("-1", 255, &u), -EINVAL, "negative is refused");
	is_int(parse_ulong_any_base("0x100", 255, &u), -ERANGE, "0x100 > 255 is out of range");

	is_int(parse_cpu_list("0-3,5", &l), 0, "0-3,5 parses");
	ok(cpus_eq(&l, (int[]){ 0, 1, 2, 3, 5 }, 5), "0-3,5 is 0 1 2 3 5");
	cpu_list_free(&l);
	is_int(parse_cpu_list("7", &l), 0, "single CPU parses");
	ok(cpus_eq(&l, (int[]){ 7 }, 1), "7 is 7");
	cpu_list_free(&l);
	is_int(parse_cpu_list("3,1", &l), 0, "order is kept");
	ok(cpus_eq(&l, (int[]){ 3, 1 }, 2), "3,1 stays 3 1");
	cpu_list_free(&l);
	{
		static const char *const bad_lists[] = {
			"", ",", "1,", ",1", "1-", "-1", "3-1", "1,1", "0-2,2", "a", "1;2", "1 2",
			"1--2",
		};

		for (i = 0; i < sizeof(bad_lists) / sizeof(bad_lists[0]); i++) {
			is_int(parse_cpu_list(bad_lists[i], &l), -EINVAL, "CPU list '%s' is refused",
			       bad_lists[i]);
			ok(l.cpus == NULL && l.cnt == 0, "and leaves an empty list");
		}
	}
	is_int(parse_cpu_list("100000", &l), -ERANGE, "a CPU beyond cpu_set_t is out of range");

	is_int(allowed_cpu_list(&allowed), 0, "the allowed CPUs can be read");
	ok(allowed.cnt > 0, "at least one CPU is allowed");
	is_int(cpu_list_first_not_in(&allowed, &allowed), -1, "allowed CPUs are allowed");
	parse_cpu_list("1000", &l);
	is_int(cpu_list_first_not_in(&l, &allowed), 1000, "CPU 1000 is not allowed here");
	cpu_list_free(&l);
	cpu_list_free(&allowed);

	return done_testing();
}
