/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TESTING_HELPERS_H
#define __TESTING_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Strict number parsing: the whole string must be a number, in range.
 * "5x", "", " 5", "-1" for unsigned ranges and overflow are refused.
 * Return 0, -EINVAL (not a number) or -ERANGE (outside [min, max]).
 */
int parse_long(const char *s, long min, long max, long *out);
/* like parse_long, but also accepts 0x-prefixed hexadecimal */
int parse_ulong_any_base(const char *s, unsigned long max, unsigned long *out);

/* an ordered CPU list such as "0-3,5" (duplicates refused) */
struct cpu_list {
	int *cpus;
	int cnt;
};

/* Returns 0 or -EINVAL (malformed), -ERANGE (CPU number too big), -ENOMEM */
int parse_cpu_list(const char *s, struct cpu_list *out);
void cpu_list_free(struct cpu_list *l);
/* the CPUs this process may run on, ascending */
int allowed_cpu_list(struct cpu_list *out);
/* first CPU of l not in allowed, or -1 when all are allowed */
int cpu_list_first_not_in(const struct cpu_list *l, const struct cpu_list *allowed);

/* first line of a file, newline stripped ("" for an empty file); 0 or -errno */
int read_first_line(const char *path, char *buf, size_t sz);

/* libbpf set-up: one print callback, DEBUG lines only when verbose */
void setup_libbpf(bool verbose);
/*
 * Drop libbpf's warnings too (unless verbose), around an attempt whose
 * failure the caller handles and reports in its own words.
 */
void libbpf_mute(bool mute);

/*
 * Make sure tracefs is reachable for tp/ attachment.  Always moves the
 * process into a private mount namespace first: looking under
 * /sys/kernel/debug/tracing (our probe, or libbpf's when it attaches)
 * automounts tracefs in the namespace of whoever looks.  Then mounts
 * tracefs at /sys/kernel/tracing there when it is not reachable.  Call
 * before starting threads and before attaching anything that goes through
 * tracefs.  Returns 0 or a negative errno and prints one line saying what
 * is missing.
 */
int ensure_tracefs(void);
/* unmount tracefs if ensure_tracefs() mounted it; idempotent */
void release_tracefs(void);

/*
 * Check that we may load and attach BPF tracing programs.  Returns 0, or
 * -EPERM after printing one line naming the missing privileges.
 */
int check_bpf_privileges(void);

#endif /* __TESTING_HELPERS_H */
