/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KERNEL_ENV_H
#define __KERNEL_ENV_H

#include <stdbool.h>

/* libbpf set-up: one print callback, DEBUG lines only when verbose */
void setup_libbpf(bool verbose);

/*
 * Make sure tracefs is reachable for tp/ attachment, mounting it at
 * /sys/kernel/tracing, in a private mount namespace, when it is not.
 * Call before starting threads.  Returns 0 or a negative errno and prints
 * one line saying what is missing.
 */
int ensure_tracefs(void);
/* unmount tracefs if ensure_tracefs() mounted it; idempotent */
void release_tracefs(void);

/*
 * Check that we may load and attach BPF tracing programs.  Returns 0, or
 * -EPERM after printing one line naming the missing privileges.
 */
int check_bpf_privileges(void);

#endif /* __KERNEL_ENV_H */
