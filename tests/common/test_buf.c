/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/buf: growth, little-endian puts, printf, consume. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>

#include "common/buf.h"

static void expect_bytes(const buf *b, const uint8_t *want, size_t len);

static void
expect_bytes(const buf *b, const uint8_t *want, size_t len)
{
    cr_assert_eq(b->len, len, "len %zu, want %zu", b->len, len);
    for (size_t i = 0; i < len; i++) {
        cr_expect_eq(b->data[i], want[i], "byte %zu is 0x%02x, want 0x%02x", i, b->data[i],
                     want[i]);
    }
}

Test(buf, init_is_empty)
{
    buf b;
    buf_init(&b);
    cr_expect_null(b.data);
    cr_expect_eq(b.len, 0);
    cr_expect_eq(b.cap, 0);
    buf_destroy(&b);
    cr_expect_null(b.data);
}

Test(buf, growth_keeps_contents)
{
    buf b;
    buf_init(&b);
    for (int i = 0; i < 100000; i++) {
        buf_put_u8(&b, (uint8_t)(i * 7));
        cr_assert_geq(b.cap, b.len);
    }
    cr_assert_eq(b.len, 100000);
    for (int i = 0; i < 100000; i++) {
        cr_assert_eq(b.data[i], (uint8_t)(i * 7), "byte %d", i);
    }
    /* Growth is geometric: capacity is a power of two times the first size. */
    cr_expect_eq(b.cap & (b.cap - 1), 0, "cap %zu", b.cap);
    buf_destroy(&b);
}

Test(buf, append_large_block)
{
    buf b;
    buf_init(&b);
    static uint8_t big[70000];
    for (size_t i = 0; i < sizeof big; i++) {
        big[i] = (uint8_t)(i ^ (i >> 8));
    }
    buf_append(&b, "ab", 2);
    buf_append(&b, big, sizeof big);
    cr_assert_eq(b.len, sizeof big + 2);
    cr_expect_eq(memcmp(b.data, "ab", 2), 0);
    cr_expect_eq(memcmp(b.data + 2, big, sizeof big), 0);
    buf_append(&b, NULL, 0);
    cr_expect_eq(b.len, sizeof big + 2);
    buf_destroy(&b);
}

Test(buf, little_endian_puts)
{
    buf b;
    buf_init(&b);
    buf_put_u8(&b, 0xAB);
    buf_put_u16le(&b, 0x0102);
    buf_put_u24le(&b, 0xFF030201); /* the top byte is not written */
    buf_put_u32le(&b, 0x04030201);
    buf_put_u64le(&b, 0x0807060504030201ull);
    static const uint8_t want[] = {0xAB, 0x02, 0x01, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03,
                                   0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    expect_bytes(&b, want, sizeof want);
    buf_destroy(&b);
}

Test(buf, put_extremes)
{
    buf b;
    buf_init(&b);
    buf_put_u16le(&b, 0xFFFF);
    buf_put_u32le(&b, 0);
    buf_put_u64le(&b, UINT64_MAX);
    static const uint8_t want[] = {0xFF, 0xFF, 0,    0,    0,    0,    0xFF,
                                   0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    expect_bytes(&b, want, sizeof want);
    buf_destroy(&b);
}

Test(buf, zeros_and_strings)
{
    buf b;
    buf_init(&b);
    buf_append_str(&b, "xy");
    buf_put_zeros(&b, 3);
    buf_append_str(&b, "");
    static const uint8_t want[] = {'x', 'y', 0, 0, 0};
    expect_bytes(&b, want, sizeof want);
    buf_destroy(&b);
}

Test(buf, zero_sized_operations_on_empty_buffer)
{
    buf b;
    buf_init(&b);
    /* buf_reserve returns data + len that callers pass to memcpy, even for 0 bytes. */
    cr_assert_not_null(buf_reserve(&b, 0));
    cr_expect_eq(b.len, 0);
    buf_destroy(&b);
    buf_init(&b);
    buf_put_zeros(&b, 0);
    buf_consume(&b, 0);
    cr_expect_eq(b.len, 0);
    buf_destroy(&b);
}

Test(buf, printf_appends)
{
    buf b;
    buf_init(&b);
    buf_append_str(&b, "id=");
    buf_printf(&b, "%d,%s", 42, "ok");
    cr_assert_eq(b.len, 8);
    cr_expect_eq(memcmp(b.data, "id=42,ok", 8), 0);
    buf_printf(&b, "%s", "");
    cr_expect_eq(b.len, 8);
    /* Larger than the first allocation. */
    buf_printf(&b, "%01000d", 5);
    cr_assert_eq(b.len, 1008);
    cr_expect_eq(b.data[8], '0');
    cr_expect_eq(b.data[1007], '5');
    buf_destroy(&b);
}

Test(buf, reserve_does_not_change_len)
{
    buf b;
    buf_init(&b);
    buf_append_str(&b, "abc");
    uint8_t *p = buf_reserve(&b, 1000);
    cr_expect_eq(p, b.data + 3);
    cr_expect_eq(b.len, 3);
    cr_expect_geq(b.cap, 1003);
    memcpy(p, "de", 2);
    b.len += 2;
    cr_expect_eq(memcmp(b.data, "abcde", 5), 0);
    buf_destroy(&b);
}

Test(buf, consume)
{
    buf b;
    buf_init(&b);
    buf_append_str(&b, "0123456789");
    buf_consume(&b, 3);
    cr_assert_eq(b.len, 7);
    cr_expect_eq(memcmp(b.data, "3456789", 7), 0);
    buf_consume(&b, 0);
    cr_assert_eq(b.len, 7);
    buf_consume(&b, 7);
    cr_assert_eq(b.len, 0);
    buf_append_str(&b, "z");
    cr_expect_eq(b.data[0], 'z');
    buf_destroy(&b);
}

Test(buf, consume_too_much_aborts, .signal = SIGABRT)
{
    buf b;
    buf_init(&b);
    buf_append_str(&b, "ab");
    buf_consume(&b, 3);
}

Test(buf, clear_keeps_storage)
{
    buf b;
    buf_init(&b);
    buf_append_str(&b, "hello");
    uint8_t *data = b.data;
    size_t cap = b.cap;
    buf_clear(&b);
    cr_expect_eq(b.len, 0);
    cr_expect_eq(b.data, data);
    cr_expect_eq(b.cap, cap);
    buf_destroy(&b);
}
