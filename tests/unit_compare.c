// SPDX-License-Identifier: GPL-2.0
/* compare's verdicts: significance, the practical threshold, resolution. */
#include "results/compare.h"
#include "tap.h"

int main(void)
{
	int worse;

	is_str(compare_verdict(100, 110, 0.001, 2, 0, true, &worse), "better",
	       "+10%%, significant, higher is better: better");
	is_int(worse, 0, "better is not worse");
	is_str(compare_verdict(100, 110, 0.001, 2, 0, false, &worse), "worse",
	       "+10%%, significant, lower is better (memory): worse");
	is_int(worse, 1, "worse sets the flag");
	is_str(compare_verdict(100, 90, 0.001, 2, 0, false, &worse), "better",
	       "-10%% memory, significant: better");
	is_str(compare_verdict(100, 110, 0.2, 2, 0, true, &worse), "within noise",
	       "+10%% but p = 0.2: within noise");
	is_int(worse, 0, "within noise is not worse");
	is_str(compare_verdict(100, 101, 0.0001, 2, 0, true, &worse), "within noise",
	       "+1%%, significant, below the 2%% threshold: within noise");
	/* too few observations: a large change that missed p < 0.05 on df < 4 */
	ok(compare_too_few(91.0, 141.5, 0.0553, 1.3, 2), "too few: +55%%, p 0.055 on df 1.3");
	ok(compare_too_few(100, 97, 0.2, 3.9, 2), "too few: -3%%, p 0.2 on df 3.9");
	ok(!compare_too_few(100, 97, 0.2, 4.0, 2), "not too few at df 4");
	ok(!compare_too_few(100, 101, 0.2, 1.0, 2), "not too few: a change below the threshold");
	ok(!compare_too_few(100, 150, 0.01, 1.0, 2), "not too few: significant");
	ok(!compare_too_few(100, 150, NAN, 1.0, 2), "not too few: untested");
	ok(!compare_too_few(0, 150, 0.2, 1.0, 2), "not too few: no base to take a change from");
	is_str(compare_verdict(100, 101, 0.0001, 0.5, 0, true, &worse), "better",
	       "+1%% with --threshold 0.5: better");
	is_str(compare_verdict(0.74, 0.54, 0.0, 2, 0.5, false, &worse), "within resolution",
	       "0.2 MiB apart with 0.5 MiB resolution: within resolution even at p = 0");
	is_str(compare_verdict(0.74, 1.54, 0.0, 2, 0.5, false, &worse), "worse",
	       "0.8 MiB more with 0.5 MiB resolution: worse");
	is_str(compare_verdict(5, 5, 1, 2, 0, true, &worse), "within noise", "equal: within noise");
	is_str(compare_verdict(0.0 / 0.0, 5, 0, 2, 0, true, &worse), "n/a", "NaN base: n/a");
	return done_testing();
}
