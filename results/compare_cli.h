/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __COMPARE_CLI_H
#define __COMPARE_CLI_H

/*
 * `bench compare BASE.json NEW.json` (or BASE... -- NEW...): 0, 1 (a
 * regression, with --fail-on-regression, or a failure), 2 (files that
 * cannot be compared, a bad option)
 */
int bench_compare_main(int argc, char **argv);

#endif /* __COMPARE_CLI_H */
