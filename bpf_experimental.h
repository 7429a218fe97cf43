/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BPF_EXPERIMENTAL__
#define __BPF_EXPERIMENTAL__

/*
 * Kfuncs BPF programs call that bpftool's vmlinux.h does not declare, and
 * the macros over them, under the names of upstream's
 * bpf_experimental.h: objects a program allocates (bpf_obj_new()) and
 * loops the verifier follows one iteration at a time (bpf_for()).
 * Include it after vmlinux.h.  The kfuncs are weak: an object whose other
 * programs use none of them still loads on a kernel without them.
 */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* libbpf 1.1's bpf_helpers.h has __kptr; per-CPU kptrs came later */
#ifndef __kptr
#define __kptr __attribute__((btf_type_tag("kptr")))
#endif
#ifndef __percpu_kptr
#define __percpu_kptr __attribute__((btf_type_tag("percpu_kptr")))
#endif

/* an object of a program's own type (its BTF id), and its release */
extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym __weak;
extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym __weak;
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id, void *meta) __ksym __weak;
extern void bpf_percpu_obj_drop_impl(void *kptr, void *meta) __ksym __weak;

#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
#define bpf_percpu_obj_new(type) \
	((type __percpu_kptr *)bpf_percpu_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_percpu_obj_drop(kptr) bpf_percpu_obj_drop_impl(kptr, NULL)

/* the numbers start..end-1, one per call of next (Linux 6.4) */
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym __weak;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym __weak;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym __weak;

/*
 * for (i = start; i < end; i++), as an open-coded iterator: the verifier
 * checks one iteration, not every one, so end need not be a constant.
 * The iterator is destroyed however the loop is left (cleanup attribute);
 * naming bpf_iter_num_destroy as a value too makes clang emit its BTF,
 * which a call from a cleanup attribute alone does not (clang 14).
 */
#define bpf_for(i, start, end)							\
	for (struct bpf_iter_num __bpf_for_it					\
		__attribute__((aligned(8), cleanup(bpf_iter_num_destroy))),	\
	     *__bpf_for_once __attribute__((unused)) =				\
		(bpf_iter_num_new(&__bpf_for_it, (start), (end)),		\
		 (void)bpf_iter_num_destroy, (void *)0);			\
	     ({									\
		int *__bpf_for_v = bpf_iter_num_next(&__bpf_for_it);		\
		__bpf_for_v ? ((i) = *__bpf_for_v, 1) : 0;			\
	     });)

/* the body n times */
#define bpf_repeat(n)								\
	for (struct bpf_iter_num __bpf_for_it					\
		__attribute__((aligned(8), cleanup(bpf_iter_num_destroy))),	\
	     *__bpf_for_once __attribute__((unused)) =				\
		(bpf_iter_num_new(&__bpf_for_it, 0, (n)),			\
		 (void)bpf_iter_num_destroy, (void *)0);			\
	     bpf_iter_num_next(&__bpf_for_it);)

#endif /* __BPF_EXPERIMENTAL__ */
