// SPDX-License-Identifier: GPL-2.0
/* compare's verdicts: significance, the practical threshold, resolution. */
#include "compare.h"
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
