/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __EXPORT_H
#define __EXPORT_H

/*
 * `bench export FORMAT RUN.json...`: result files in another system's
 * format (kcidb: KernelCI's KCIDB report).  0, 1 (writing failed), 2 (bad
 * input).
 */
int bench_export_main(int argc, char **argv);

#endif /* __EXPORT_H */
