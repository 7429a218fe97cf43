// SPDX-License-Identifier: GPL-2.0
/* SHA-256 against the FIPS 180-4 examples and lengths around the padding. */
#include <string.h>

#include "results/sha256.h"
#include "tap.h"

int main(void)
{
	char hex[SHA256_HEX_LEN + 1], buf[1000];

	sha256_hex("", 0, hex);
	is_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "empty input");
	sha256_hex("abc", 3, hex);
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "\"abc\"");
	/* 56 bytes: the length no longer fits in the first block */
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	is_str(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "56 bytes (two padding blocks)");
	memset(buf, 'a', sizeof(buf));
	sha256_hex(buf, 1000, hex);
	is_str(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3", "1000 x 'a' (whole blocks and a tail)");
	sha256_hex(buf, 64, hex);
	is_str(hex, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb", "64 x 'a' (exactly one block)");
	return done_testing();
}
