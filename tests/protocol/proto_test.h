/* SPDX-License-Identifier: Apache-2.0
 * proto_test.h: fixtures shared by the protocol unit tests (tests/protocol/test_*.c): the known
 * scramble and token, and a helper that copies bytes to an exactly sized heap block so ASan
 * catches any read past the end. */
#ifndef TESTS_PROTOCOL_PROTO_TEST_H
#define TESTS_PROTOCOL_PROTO_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/mem.h"

/* The 20-byte scramble used by the auth and handshake tests. */
#define TEST_SCRAMBLE "0123456789ABCDEFGHIJ"

/* mysql_native_password token for password "secret" and TEST_SCRAMBLE, computed at authoring
 * time with python3 hashlib, independently of protocol/:
 *   s1 = sha1(b"secret"); s2 = sha1(s1)
 *   token = bytes(a ^ b for a, b in zip(s1, sha1(b"0123456789ABCDEFGHIJ" + s2)))
 * s2 is 14E65567ABDB5135D0CFD9A70B3032C179A49EE7, the well-known MySQL PASSWORD('secret'). */
#define TEST_TOKEN_SECRET \
    "\x98\xca\xf3\x66\xd2\xb7\x57\xc8\x55\xcc\xd1\x8a\xe3\x90\x6c\xf7\x59\xfc\x13\xf7"
#define TEST_STAGE2_SECRET \
    "\x14\xe6\x55\x67\xab\xdb\x51\x35\xd0\xcf\xd9\xa7\x0b\x30\x32\xc1\x79\xa4\x9e\xe7"

/* Heap copy of p[0..len) in a block of exactly len bytes; free with mem_free. */
static inline uint8_t *
test_exact_copy(const void *p, size_t len)
{
    uint8_t *d = mem_alloc(len);
    if (len > 0) {
        memcpy(d, p, len);
    }
    return d;
}

/* Deterministic xorshift64 generator for garbage inputs (the same bytes on every run). */
static inline uint64_t
test_rand_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

#endif /* TESTS_PROTOCOL_PROTO_TEST_H */
