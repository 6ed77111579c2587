/* SPDX-License-Identifier: Apache-2.0
 * Length-encoded integers and strings and the read cursor: every size boundary (250, 251,
 * 0xFFFF, 0x10000, 0xFFFFFF, 0x1000000, UINT64_MAX), 0xFB (NULL) and 0xFF, truncation leaving
 * the cursor unchanged. See protocol/README.md §Formats. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/buf.h"
#include "common/mem.h"
#include "protocol/protocol.h"
#include "tests/protocol/proto_test.h"

typedef struct lenenc_case {
    uint64_t v;
    size_t size;
    const char *bytes;
} lenenc_case;

static const lenenc_case cases[] = {
        {0, 1, "\x00"},
        {250, 1, "\xfa"},
        {251, 3, "\xfc\xfb\x00"},
        {0xFFFF, 3, "\xfc\xff\xff"},
        {0x10000, 4, "\xfd\x00\x00\x01"},
        {0xFFFFFF, 4, "\xfd\xff\xff\xff"},
        {0x1000000, 9, "\xfe\x00\x00\x00\x01\x00\x00\x00\x00"},
        {UINT64_MAX, 9, "\xfe\xff\xff\xff\xff\xff\xff\xff\xff"},
};

Test(proto_lenenc, int_put_at_every_boundary)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf b;
        buf_init(&b);
        proto_lenenc_int_put(&b, cases[i].v);
        cr_assert_eq(b.len, cases[i].size, "v=%llu", (unsigned long long)cases[i].v);
        cr_assert_eq(proto_lenenc_int_size(cases[i].v), cases[i].size);
        cr_assert_eq(memcmp(b.data, cases[i].bytes, b.len), 0, "v=%llu",
                     (unsigned long long)cases[i].v);
        buf_destroy(&b);
    }
}

Test(proto_lenenc, int_get_at_every_boundary)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *p = test_exact_copy(cases[i].bytes, cases[i].size);
        proto_cursor c;
        proto_cursor_init(&c, p, cases[i].size);
        uint64_t v = 12345;
        bool is_null = true;
        cr_assert(proto_get_lenenc_int(&c, &v, &is_null));
        cr_assert_eq(v, cases[i].v);
        cr_assert_not(is_null);
        cr_assert_eq(proto_cursor_left(&c), 0);

        /* Every shorter prefix fails and leaves the cursor where it was. */
        for (size_t k = 0; k < cases[i].size; k++) {
            proto_cursor_init(&c, p, k);
            cr_assert_not(proto_get_lenenc_int(&c, &v, NULL), "v=%llu prefix %zu",
                          (unsigned long long)cases[i].v, k);
            cr_assert_eq(c.p, p, "cursor unchanged");
        }
        mem_free(p);
    }
}

Test(proto_lenenc, fb_is_null_only_when_asked)
{
    const uint8_t p[] = {0xFB, 0x07};
    proto_cursor c;
    proto_cursor_init(&c, p, sizeof p);
    uint64_t v = 99;
    cr_assert_not(proto_get_lenenc_int(&c, &v, NULL), "0xFB is not a length");
    cr_assert_eq(proto_cursor_left(&c), 2);

    bool is_null = false;
    cr_assert(proto_get_lenenc_int(&c, &v, &is_null));
    cr_assert(is_null);
    cr_assert_eq(proto_cursor_left(&c), 1);
    cr_assert(proto_get_lenenc_int(&c, &v, &is_null));
    cr_assert_not(is_null);
    cr_assert_eq(v, 7);
}

Test(proto_lenenc, ff_is_rejected)
{
    const uint8_t p[] = {0xFF, 0x00, 0x00};
    proto_cursor c;
    proto_cursor_init(&c, p, sizeof p);
    uint64_t v;
    bool is_null;
    cr_assert_not(proto_get_lenenc_int(&c, &v, &is_null));
    cr_assert_eq(proto_cursor_left(&c), 3);
}

Test(proto_lenenc, str_round_trip_at_length_boundaries)
{
    const size_t lens[] = {0, 1, 250, 251, 0xFFFF, 0x10000};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t n = lens[i];
        char *s = mem_alloc(n ? n : 1);
        memset(s, 'q', n);
        buf b;
        buf_init(&b);
        proto_lenenc_str_put(&b, s, n);
        buf_put_u8(&b, 0xAA); /* a following field */
        cr_assert_eq(b.len, proto_lenenc_int_size(n) + n + 1);

        proto_cursor c;
        proto_cursor_init(&c, b.data, b.len);
        const uint8_t *got;
        size_t got_len;
        cr_assert(proto_get_lenenc_str(&c, &got, &got_len), "len %zu", n);
        cr_assert_eq(got_len, n);
        cr_assert_eq(memcmp(got, s, n), 0);
        cr_assert_eq(proto_cursor_left(&c), 1);

        /* One byte short: fails, cursor unchanged. */
        proto_cursor_init(&c, b.data, b.len - 2);
        cr_assert_not(proto_get_lenenc_str(&c, &got, &got_len));
        cr_assert_eq(c.p, b.data);
        buf_destroy(&b);
        mem_free(s);
    }
}

Test(proto_lenenc, str_with_huge_declared_length_fails)
{
    const uint8_t p[] = {0xFE, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 'a'};
    proto_cursor c;
    proto_cursor_init(&c, p, sizeof p);
    const uint8_t *s;
    size_t len;
    cr_assert_not(proto_get_lenenc_str(&c, &s, &len));
    cr_assert_eq(proto_cursor_left(&c), sizeof p);
}

Test(proto_lenenc, fixed_ints_are_little_endian)
{
    const uint8_t p[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
                         0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12};
    proto_cursor c;
    proto_cursor_init(&c, p, sizeof p);
    uint8_t u8;
    uint16_t u16;
    uint32_t u24;
    uint32_t u32;
    uint64_t u64;
    cr_assert(proto_get_u8(&c, &u8));
    cr_assert(proto_get_u16(&c, &u16));
    cr_assert(proto_get_u24(&c, &u24));
    cr_assert(proto_get_u32(&c, &u32));
    cr_assert(proto_get_u64(&c, &u64));
    cr_assert_eq(u8, 0x01);
    cr_assert_eq(u16, 0x0302);
    cr_assert_eq(u24, 0x060504);
    cr_assert_eq(u32, 0x0a090807);
    cr_assert_eq(u64, 0x1211100f0e0d0c0bULL);
    cr_assert_eq(proto_cursor_left(&c), 0);
    cr_assert_not(proto_get_u8(&c, &u8));
}

Test(proto_lenenc, fixed_ints_fail_on_truncation)
{
    const uint8_t p[] = {1, 2, 3, 4, 5, 6, 7};
    proto_cursor c;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    proto_cursor_init(&c, p, 1);
    cr_assert_not(proto_get_u16(&c, &u16));
    proto_cursor_init(&c, p, 2);
    cr_assert_not(proto_get_u24(&c, &u32));
    proto_cursor_init(&c, p, 3);
    cr_assert_not(proto_get_u32(&c, &u32));
    proto_cursor_init(&c, p, 7);
    cr_assert_not(proto_get_u64(&c, &u64));
    cr_assert_eq(proto_cursor_left(&c), 7);
}

Test(proto_lenenc, nulstr_bytes_and_rest)
{
    const uint8_t p[] = {'a', 'b', 0, 'x', 'y', 'z', 'w'};
    proto_cursor c;
    proto_cursor_init(&c, p, sizeof p);
    const uint8_t *s;
    size_t len;
    cr_assert(proto_get_nulstr(&c, &s, &len));
    cr_assert_eq(len, 2);
    cr_assert_eq(s, p);
    cr_assert_not(proto_get_nulstr(&c, &s, &len), "no NUL left");
    cr_assert_eq(proto_cursor_left(&c), 4);
    cr_assert_not(proto_get_bytes(&c, 5, &s));
    cr_assert(proto_get_bytes(&c, 2, &s));
    cr_assert_eq(s, p + 3);
    proto_get_rest(&c, &s, &len);
    cr_assert_eq(len, 2);
    cr_assert_eq(s, p + 5);
    cr_assert_eq(proto_cursor_left(&c), 0);
    proto_get_rest(&c, &s, &len);
    cr_assert_eq(len, 0);
}

Test(proto_lenenc, empty_cursor_fails_every_getter)
{
    proto_cursor c;
    proto_cursor_init(&c, NULL, 0);
    uint8_t u8;
    uint64_t v;
    bool is_null;
    const uint8_t *s;
    size_t len;
    cr_assert_eq(proto_cursor_left(&c), 0);
    cr_assert_not(proto_get_u8(&c, &u8));
    cr_assert_not(proto_get_lenenc_int(&c, &v, &is_null));
    cr_assert_not(proto_get_lenenc_str(&c, &s, &len));
    cr_assert_not(proto_get_nulstr(&c, &s, &len));
    cr_assert_not(proto_get_bytes(&c, 1, &s));
    cr_assert(proto_get_bytes(&c, 0, &s), "zero bytes always succeed");
}

Test(proto_lenenc, row_values)
{
    buf b;
    buf_init(&b);
    proto_row_put_text(&b, "42", 2);
    proto_row_put_null(&b);
    proto_row_put_text(&b, "", 0);
    cr_assert_eq(b.len, 5);
    cr_assert_eq(memcmp(b.data,
                        "\x02"
                        "42\xfb\x00",
                        5),
                 0);
    buf_destroy(&b);
}
