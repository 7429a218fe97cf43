/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TAP_H
#define __TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Minimal TAP producer for the C unit tests. */
static int tap_n, tap_failed;

/*
 * Each assertion evaluates its arguments once: a check written around a
 * call, ok(parse(...) == 0), runs the call once, as it reads.
 */
#define ok(cond, ...) do {						\
	int __tap_pass = !!(cond);					\
									\
	tap_n++;							\
	if (__tap_pass) {						\
		printf("ok %d - ", tap_n);				\
	} else {							\
		tap_failed++;						\
		printf("not ok %d - ", tap_n);				\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!__tap_pass)						\
		fprintf(stderr, "#   failed at %s:%d\n", __FILE__, __LINE__);	\
} while (0)

#define is_int(got, want, ...) do {					\
	long long __g = (got), __w = (want);				\
	ok(__g == __w, __VA_ARGS__);					\
	if (__g != __w)							\
		fprintf(stderr, "#   got %lld, want %lld\n", __g, __w);		\
} while (0)

#define is_near(got, want, tol, ...) do {				\
	double __g = (got), __w = (want), __t = (tol);			\
	int __near = fabs(__g - __w) <= __t;				\
	ok(__near, __VA_ARGS__);					\
	if (!__near)							\
		fprintf(stderr, "#   got %.12g, want %.12g (tol %g)\n", __g, __w, __t); \
} while (0)

#define is_str(got, want, ...) do {					\
	const char *__g = (got), *__w = (want);				\
	int __eq = __g && __w ? !strcmp(__g, __w) : __g == __w;		\
	ok(__eq, __VA_ARGS__);						\
	if (!__eq)							\
		fprintf(stderr, "#   got '%s', want '%s'\n", __g ? __g : "(null)", __w ? __w : "(null)"); \
} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* __TAP_H */
