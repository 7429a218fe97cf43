// SPDX-License-Identifier: GPL-2.0
/*
 * The C unit tests' own assertions: each evaluates what it is given
 * exactly once, so a check written around a call (ok(parse(...) == 0))
 * runs that call once, as it reads.
 */
#include "tap.h"

static int calls;

/* how many times the assertion evaluated its argument */
static int counted(int v)
{
	calls++;
	return v;
}

static const char *counted_str(const char *s)
{
	calls++;
	return s;
}

int main(void)
{
	calls = 0;
	ok(counted(1), "ok(): a passing condition");
	is_int(calls, 1, "ok(): its condition evaluated once");

	calls = 0;
	is_int(counted(7), 7, "is_int(): a passing comparison");
	is_int(calls, 1, "is_int(): its argument evaluated once");

	calls = 0;
	is_near(counted(3), 3.0, 0.0, "is_near(): a passing comparison");
	is_int(calls, 1, "is_near(): its argument evaluated once");
	calls = 0;
	is_near(3.0, 3.0, counted(0), "is_near(): a passing comparison, a counted tolerance");
	is_int(calls, 1, "is_near(): its tolerance evaluated once");

	calls = 0;
	is_str(counted_str("abc"), "abc", "is_str(): a passing comparison");
	is_int(calls, 1, "is_str(): its argument evaluated once");

	/* a condition true on its first evaluation only: evaluated twice, it
	 * printed "ok" and then the failure diagnostic of a failed check */
	calls = 0;
	ok(counted(1) && calls == 1, "ok(): a condition true on its first evaluation passes");
	is_int(calls, 1, "ok(): that condition evaluated once");
	is_int(tap_n, 12, "twelve checks so far, one each");
	is_int(tap_failed, 0, "none of them failed");

	return done_testing();
}
