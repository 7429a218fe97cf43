/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __AB_H
#define __AB_H

#include <stdbool.h>

/*
 * `bench ab`: did B move the number against A?  Interleaved invocations
 * in drift-cancelling blocks, paired log ratios, and a group-sequential
 * test that stops as soon as the answer is decided, within a time budget.
 * Exit status: 0 when it ran (whatever the verdict), 1 when an invocation
 * failed or hung or the report could not be written, 2 on bad arguments
 * or a directory refused, 128 + N after signal N.
 */
int bench_ab_main(int argc, char **argv);

/* "90", "90s", "5m", "1h30m": seconds in *sec; 0 or -EINVAL */
int ab_parse_duration(const char *s, double *sec);
/*
 * Did the machine's speed change between A and B of a pair: their
 * reference figures (ns) more than tol (0.10: 10%) apart, the larger
 * over the smaller?  False when either is missing (NaN, not positive).
 */
bool ab_speed_changed(double ref_a, double ref_b, double tol);

#endif /* __AB_H */
