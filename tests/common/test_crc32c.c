/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/crc32c: standard check values (RFC 3720 B.4), incremental use, and
 * equality of the SSE4.2 and slicing-by-8 paths on random data at every alignment. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/crc32c.h"

static uint64_t rng_next(uint64_t *s);

/* xorshift64*: deterministic test data. */
static uint64_t
rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

Test(crc32c, check_value)
{
    cr_expect_eq(crc32c("123456789", 9), 0xE3069283u);
    cr_expect_eq(crc32c_extend_portable(0, "123456789", 9), 0xE3069283u);
    cr_expect_eq(crc32c_extend_hw(0, "123456789", 9), 0xE3069283u);
    cr_expect_eq(crc32c("", 0), 0u);
    cr_expect_eq(crc32c("a", 1), 0xC1D04330u);
}

/* The iSCSI test vectors of RFC 3720 appendix B.4. */
Test(crc32c, rfc3720_vectors)
{
    uint8_t b[48];
    memset(b, 0, 32);
    cr_expect_eq(crc32c(b, 32), 0x8A9136AAu);
    memset(b, 0xFF, 32);
    cr_expect_eq(crc32c(b, 32), 0x62A8AB43u);
    for (int i = 0; i < 32; i++) {
        b[i] = (uint8_t)i;
    }
    cr_expect_eq(crc32c(b, 32), 0x46DD794Eu);
    for (int i = 0; i < 32; i++) {
        b[i] = (uint8_t)(31 - i);
    }
    cr_expect_eq(crc32c(b, 32), 0x113FDB5Cu);
    static const uint8_t iscsi_read[48] = {
            0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
            0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    cr_expect_eq(crc32c(iscsi_read, sizeof iscsi_read), 0xD9963A56u);
}

/* Splitting the input anywhere gives the same CRC as one call. */
Test(crc32c, extend_equals_whole)
{
    uint8_t data[300];
    uint64_t s = 42;
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = (uint8_t)rng_next(&s);
    }
    uint32_t whole = crc32c(data, sizeof data);
    for (size_t cut = 0; cut <= sizeof data; cut++) {
        uint32_t c = crc32c_extend(crc32c(data, cut), data + cut, sizeof data - cut);
        cr_assert_eq(c, whole, "cut at %zu", cut);
    }
}

/* Both implementations agree on random data at every start alignment and many lengths. */
Test(crc32c, hw_equals_portable)
{
    if (!crc32c_has_hw()) {
        cr_skip_test("no SSE4.2 on this CPU: only the portable path exists");
    }
    size_t cap = 70000;
    uint8_t *data = malloc(cap);
    cr_assert_not_null(data);
    uint64_t s = 7;
    for (size_t i = 0; i < cap; i++) {
        data[i] = (uint8_t)rng_next(&s);
    }
    for (int iter = 0; iter < 2000; iter++) {
        size_t off = rng_next(&s) % 16;
        size_t len = iter < 200 ? (size_t)iter : rng_next(&s) % (cap - 16);
        uint32_t seed = (uint32_t)rng_next(&s);
        uint32_t a = crc32c_extend_portable(seed, data + off, len);
        uint32_t b = crc32c_extend_hw(seed, data + off, len);
        cr_assert_eq(a, b, "off %zu len %zu", off, len);
    }
    cr_expect_eq(crc32c(data, cap), crc32c_extend_portable(0, data, cap));
    free(data);
}

/* A single flipped bit always changes the CRC (CRC-32C detects all 1-bit errors). */
Test(crc32c, detects_bit_flips)
{
    uint8_t data[64];
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = (uint8_t)(i * 7);
    }
    uint32_t good = crc32c(data, sizeof data);
    for (size_t bit = 0; bit < sizeof data * 8; bit++) {
        data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        cr_assert_neq(crc32c(data, sizeof data), good, "bit %zu", bit);
        data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
}
