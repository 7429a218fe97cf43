/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BENCH_IMPORT_H
#define __BENCH_IMPORT_H

#include <stddef.h>

#include "bench.h"

/*
 * bench import's main: its argv from the command's name on, and the
 * benchmark table a command line's benchmark is looked up in.  Returns
 * the exit status (README's table).
 */
int bench_import_main(int argc, char **argv, const struct bench *const *table, size_t n);

#endif /* __BENCH_IMPORT_H */
