/* SPDX-License-Identifier: Apache-2.0
 * mysql_native_password: stage-2 hash and client token against vectors computed independently
 * (python3 hashlib, see proto_test.h), the server-side check, scramble generation and the
 * AuthSwitchRequest. See protocol/README.md §Formats "AuthSwitchRequest". */
#include <criterion/criterion.h>
#include <string.h>

#include "common/buf.h"
#include "protocol/protocol.h"
#include "tests/protocol/proto_test.h"

/* Second vector, same derivation as proto_test.h:
 *   s1 = sha1(b"p@ss w0rd!"); s2 = sha1(s1)
 *   token = s1 XOR sha1(b"%7Hq]Z!x~a;Ls0*Bp>dC" + s2) */
#define SCRAMBLE_2 "%7Hq]Z!x~a;Ls0*Bp>dC"
#define STAGE2_2   "\x08\x81\xd6\xff\x45\xc9\x45\xf6\x0f\xc0\xa4\x85\x89\x47\xab\x2e\xf2\xa4\xbd\x30"
#define TOKEN_2    "\x6a\x15\x25\x36\xe9\xe2\x33\x67\x27\xda\xfc\x78\x69\xcc\x54\x37\x0c\xef\x1a\x10"

Test(proto_auth, stage2_hash_matches_known_vectors)
{
    uint8_t out[20];
    proto_native_password_hash("secret", 6, out);
    cr_assert_eq(memcmp(out, TEST_STAGE2_SECRET, 20), 0);
    proto_native_password_hash("p@ss w0rd!", 10, out);
    cr_assert_eq(memcmp(out, STAGE2_2, 20), 0);
}

Test(proto_auth, client_token_matches_known_vectors)
{
    uint8_t out[20];
    proto_native_scramble((const uint8_t *)TEST_SCRAMBLE, "secret", 6, out);
    cr_assert_eq(memcmp(out, TEST_TOKEN_SECRET, 20), 0);
    proto_native_scramble((const uint8_t *)SCRAMBLE_2, "p@ss w0rd!", 10, out);
    cr_assert_eq(memcmp(out, TOKEN_2, 20), 0);
}

Test(proto_auth, check_accepts_the_right_token)
{
    cr_assert(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                 (const uint8_t *)TEST_STAGE2_SECRET, true,
                                 (const uint8_t *)TEST_TOKEN_SECRET, 20));
    cr_assert(proto_native_check((const uint8_t *)SCRAMBLE_2, (const uint8_t *)STAGE2_2, true,
                                 (const uint8_t *)TOKEN_2, 20));
}

Test(proto_auth, check_rejects_a_wrong_token)
{
    uint8_t token[20];
    memcpy(token, TEST_TOKEN_SECRET, 20);
    for (size_t i = 0; i < 20; i++) {
        token[i] ^= 0x01;
        cr_assert_not(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                         (const uint8_t *)TEST_STAGE2_SECRET, true, token, 20),
                      "bit flipped in byte %zu", i);
        token[i] ^= 0x01;
    }
    /* The right password against another scramble (a replayed token) fails too. */
    cr_assert_not(proto_native_check((const uint8_t *)SCRAMBLE_2,
                                     (const uint8_t *)TEST_STAGE2_SECRET, true,
                                     (const uint8_t *)TEST_TOKEN_SECRET, 20));
}

Test(proto_auth, check_rejects_wrong_lengths)
{
    cr_assert_not(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                     (const uint8_t *)TEST_STAGE2_SECRET, true,
                                     (const uint8_t *)TEST_TOKEN_SECRET, 19));
    cr_assert_not(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                     (const uint8_t *)TEST_STAGE2_SECRET, true,
                                     (const uint8_t *)TEST_TOKEN_SECRET "x", 21));
}

Test(proto_auth, empty_token_matches_only_an_empty_password)
{
    const uint8_t zero[20] = {0};
    cr_assert_not(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                     (const uint8_t *)TEST_STAGE2_SECRET, true, (const uint8_t *)"",
                                     0),
                  "empty token vs a password");
    cr_assert(proto_native_check((const uint8_t *)TEST_SCRAMBLE, zero, false, (const uint8_t *)"",
                                 0));
    cr_assert_not(proto_native_check((const uint8_t *)TEST_SCRAMBLE, zero, false,
                                     (const uint8_t *)TEST_TOKEN_SECRET, 20),
                  "a token vs no password");
}

Test(proto_auth, generated_scramble_is_printable_and_fresh)
{
    uint8_t a[PROTO_SCRAMBLE_LEN];
    uint8_t b[PROTO_SCRAMBLE_LEN];
    proto_scramble_generate(a);
    proto_scramble_generate(b);
    for (size_t i = 0; i < PROTO_SCRAMBLE_LEN; i++) {
        cr_assert(a[i] >= 0x21 && a[i] <= 0x7E, "byte %zu = 0x%02x", i, a[i]);
        cr_assert_neq(a[i], '$');
    }
    /* Two 20-character draws colliding has probability about 2^-130. */
    cr_assert_neq(memcmp(a, b, PROTO_SCRAMBLE_LEN), 0);
}

Test(proto_auth, token_from_fresh_scramble_checks)
{
    uint8_t scramble[PROTO_SCRAMBLE_LEN];
    uint8_t stage2[20];
    uint8_t token[20];
    proto_scramble_generate(scramble);
    proto_native_password_hash("hunter2", 7, stage2);
    proto_native_scramble(scramble, "hunter2", 7, token);
    cr_assert(proto_native_check(scramble, stage2, true, token, 20));
    proto_native_scramble(scramble, "hunter3", 7, token);
    cr_assert_not(proto_native_check(scramble, stage2, true, token, 20));
}

Test(proto_auth, auth_switch_request_layout)
{
    buf b;
    buf_init(&b);
    proto_auth_switch_write(&b, "mysql_native_password", (const uint8_t *)TEST_SCRAMBLE);
    const char want[] = "\xfe"
                        "mysql_native_password\0" TEST_SCRAMBLE "\0";
    cr_assert_eq(b.len, sizeof want - 1);
    cr_assert_eq(b.len, 1 + 22 + 20 + 1);
    cr_assert_eq(memcmp(b.data, want, b.len), 0);
    buf_destroy(&b);
}
