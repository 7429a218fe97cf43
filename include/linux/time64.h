/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's time units, as tools/include/linux/time64.h names them. */
#ifndef __BENCH_INCLUDE_LINUX_TIME64_H
#define __BENCH_INCLUDE_LINUX_TIME64_H

#define MSEC_PER_SEC	1000L
#define USEC_PER_MSEC	1000L
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000L

#endif /* __BENCH_INCLUDE_LINUX_TIME64_H */
