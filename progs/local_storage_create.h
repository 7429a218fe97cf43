/* SPDX-License-Identifier: GPL-2.0 */
/* local-storage-create: what each producer's error counters count */
#ifndef __LOCAL_STORAGE_CREATE_H
#define __LOCAL_STORAGE_CREATE_H

/* bench_prod_counter.errs[]; hits are the storages created */
enum {
	/* bpf_{sk,task}_storage_get(F_CREATE) returned NULL */
	LSC_CREATE_ERRS,
	/* kmalloc() calls while the producer thread was current */
	LSC_PROD_KMALLOCS,
};

#endif /* __LOCAL_STORAGE_CREATE_H */
