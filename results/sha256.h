/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __SHA256_H
#define __SHA256_H

/*
 * SHA-256 (FIPS 180-4) of a buffer, as lowercase hex: the content hash
 * that exported ids and the history's keys are derived from, so that the
 * same run gets the same id wherever and however often it is exported.
 */
#include <stddef.h>

#define SHA256_HEX_LEN 64

/* hex must hold SHA256_HEX_LEN + 1 bytes */
void sha256_hex(const void *buf, size_t len, char *hex);

#endif /* __SHA256_H */
