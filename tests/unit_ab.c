// SPDX-License-Identifier: GPL-2.0
/*
 * bench ab's pure helpers: the budget's duration syntax, and the speed
 * check that leaves out a pair whose A and B ran at different machine
 * speeds, against values worked out by hand.
 */
#include <errno.h>
#include <math.h>

#include "results/ab.h"
#include "tap.h"

static void test_duration(void)
{
	double s = 0;

	is_int(ab_parse_duration("90", &s), 0, "duration 90: parsed");
	is_near(s, 90, 0, "duration 90: 90 s");
	is_int(ab_parse_duration("1h30m", &s), 0, "duration 1h30m: parsed");
	is_near(s, 5400, 0, "duration 1h30m: 5400 s");
	is_int(ab_parse_duration("5m10s", &s), 0, "duration 5m10s: parsed");
	is_near(s, 310, 0, "duration 5m10s: 310 s");
	is_int(ab_parse_duration("0", &s), -EINVAL, "duration 0: refused (below 1 s)");
	is_int(ab_parse_duration("5x", &s), -EINVAL, "duration 5x: refused");
	is_int(ab_parse_duration("", &s), -EINVAL, "duration '': refused");
	is_int(ab_parse_duration("8d", &s), -EINVAL, "duration 8d: refused (no days unit)");
}

static void test_speed(void)
{
	/* the larger over the smaller, minus 1, against tol: either order */
	ok(!ab_speed_changed(700, 700, 0.25), "speed: equal references: unchanged");
	ok(!ab_speed_changed(700, 874, 0.25), "speed: 874 / 700 = 1.2486: within 25%%");
	ok(ab_speed_changed(700, 876, 0.25), "speed: 876 / 700 = 1.2514: beyond 25%%");
	ok(ab_speed_changed(876, 700, 0.25), "speed: B faster by the same ratio: beyond 25%%");
	ok(!ab_speed_changed(700, 769, 0.10), "speed: 769 / 700 = 1.0986: within 10%%");
	ok(ab_speed_changed(700, 771, 0.10), "speed: 771 / 700 = 1.1014: beyond 10%%");
	/* the flip measured on op_ns: 48.6 against 84.1 ns, x1.73 */
	ok(ab_speed_changed(48.6, 84.1, 0.25), "speed: a x1.73 flip: changed");
	/* neighbours 13% apart without a flip (README): kept */
	ok(!ab_speed_changed(1126.1, 1273.0, 0.25), "speed: 1273.0 / 1126.1 = 1.130: unchanged");
	ok(!ab_speed_changed(701.5, 841.5, 0.25), "speed: 841.5 / 701.5 = 1.1996: unchanged");
	ok(ab_speed_changed(701.5, 901.5, 0.25), "speed: 901.5 / 701.5 = 1.2851: changed");
	/* a missing reference (NaN, or no loop timed: 0) is never a change */
	ok(!ab_speed_changed(NAN, 901.5, 0.25), "speed: no reference in A: not checked");
	ok(!ab_speed_changed(701.5, NAN, 0.25), "speed: no reference in B: not checked");
	ok(!ab_speed_changed(0, 901.5, 0.25), "speed: a zero reference: not checked");
	ok(!ab_speed_changed(INFINITY, 901.5, 0.25), "speed: an infinite reference: not checked");
}

int main(void)
{
	test_duration();
	test_speed();
	return done_testing();
}
