/* SPDX-License-Identifier: Apache-2.0
 * test_binary.c: the prepared-statement payloads of proto_binary.c: PREPARE_OK layout,
 * COM_STMT_EXECUTE parameter decoding (null bitmap, remembered types, long data, every fixed
 * width, temporal forms), and binary result rows. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/buf.h"
#include "protocol/protocol.h"
#include "tests/protocol/proto_test.h"

Test(proto_binary, prepare_ok_layout)
{
    buf b;
    buf_init(&b);
    proto_stmt_prepare_ok_write(&b, 0x01020304, 3, 2, 1);
    const uint8_t want[] = {0x00, 0x04, 0x03, 0x02, 0x01, 0x03, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00};
    cr_assert_eq(b.len, sizeof want);
    cr_assert_arr_eq(b.data, want, sizeof want);
    buf_destroy(&b);
}

/* id 7, flags 0, iterations 1, then the parameter block. */
static size_t
exec_head(uint8_t *p)
{
    const uint8_t head[] = {7, 0, 0, 0, 0, 1, 0, 0, 0};
    memcpy(p, head, sizeof head);
    return sizeof head;
}

Test(proto_binary, execute_decodes_every_fixed_width_and_remembers_types)
{
    uint8_t p[128];
    size_t n = exec_head(p);
    p[n++] = 0x00; /* null bitmap for 5 params: none NULL */
    p[n++] = 1;    /* new params bound */
    const uint8_t types[] = {PROTO_TYPE_TINY,     0x80, PROTO_TYPE_SHORT,  0, PROTO_TYPE_LONG, 0,
                             PROTO_TYPE_LONGLONG, 0,    PROTO_TYPE_DOUBLE, 0};
    memcpy(p + n, types, sizeof types);
    n += sizeof types;
    p[n++] = 200;                                      /* unsigned tiny */
    p[n++] = 0xFE, p[n++] = 0xFF;                      /* short -2 */
    p[n++] = 0x2A, p[n++] = 0, p[n++] = 0, p[n++] = 0; /* long 42 */
    for (int i = 0; i < 8; i++) {
        p[n++] = 0xFF; /* longlong -1 */
    }
    double d = 2.5;
    memcpy(p + n, &d, 8);
    n += 8;
    uint8_t *exact = test_exact_copy(p, n);
    uint8_t remembered[10] = {0};
    bool has = false;
    proto_param v[5];
    db_error e = {0};
    cr_assert_eq(proto_stmt_execute_params(exact, n, 5, remembered, &has, NULL, v, &e), DB_OK);
    cr_assert(has);
    cr_assert(v[0].is_unsigned);
    cr_assert_eq(v[0].u, 200);
    cr_assert_eq(v[1].i, -2);
    cr_assert_eq(v[2].i, 42);
    cr_assert_eq(v[3].i, -1);
    cr_assert_float_eq(v[4].d, 2.5, 1e-12);
    mem_free(exact);

    /* Second execute: new-params-bound 0, the remembered types apply; param 1 is NULL. */
    n = exec_head(p);
    p[n++] = 0x02;
    p[n++] = 0;
    p[n++] = 7;
    p[n++] = 1, p[n++] = 0, p[n++] = 0, p[n++] = 0;
    for (int i = 0; i < 8; i++) {
        p[n++] = 0;
    }
    memcpy(p + n, &d, 8);
    n += 8;
    exact = test_exact_copy(p, n);
    cr_assert_eq(proto_stmt_execute_params(exact, n, 5, remembered, &has, NULL, v, &e), DB_OK);
    cr_assert_eq(v[0].u, 7);
    cr_assert(v[1].is_null);
    cr_assert_eq(v[2].i, 1);
    mem_free(exact);
}

Test(proto_binary, execute_without_ever_bound_types_is_malformed)
{
    uint8_t p[32];
    size_t n = exec_head(p);
    p[n++] = 0;
    p[n++] = 0; /* not bound, and never bound before */
    uint8_t types[2] = {0};
    bool has = false;
    proto_param v[1];
    db_error e = {0};
    cr_assert_eq(proto_stmt_execute_params(p, n, 1, types, &has, NULL, v, &e), DB_ERR);
    cr_assert_eq(e.code, 1835);
}

Test(proto_binary, execute_strings_temporals_and_long_data)
{
    uint8_t p[128];
    size_t n = exec_head(p);
    p[n++] = 0;
    p[n++] = 1;
    const uint8_t types[] = {PROTO_TYPE_VAR_STRING, 0, PROTO_TYPE_DATETIME, 0,
                             PROTO_TYPE_TIME,       0, PROTO_TYPE_BLOB,     0};
    memcpy(p + n, types, sizeof types);
    n += sizeof types;
    p[n++] = 3, p[n++] = 'a', p[n++] = 'b', p[n++] = 'c';
    const uint8_t dt[] = {11, 0xE8, 0x07, 2, 29, 13, 14, 15, 0x40, 0xE2, 0x01, 0x00};
    memcpy(p + n, dt, sizeof dt);
    n += sizeof dt;
    const uint8_t tm[] = {8, 1, 2, 0, 0, 0, 3, 4, 5};
    memcpy(p + n, tm, sizeof tm);
    n += sizeof tm;
    /* param 3 came as long data: no bytes in the packet. */
    buf ld;
    buf_init(&ld);
    buf_append(&ld, "long", 4);
    const buf *longs[4] = {NULL, NULL, NULL, &ld};
    uint8_t *exact = test_exact_copy(p, n);
    uint8_t remembered[8];
    bool has = false;
    proto_param v[4];
    db_error e = {0};
    cr_assert_eq(proto_stmt_execute_params(exact, n, 4, remembered, &has, longs, v, &e), DB_OK);
    cr_assert_eq(v[0].len, 3);
    cr_assert_eq(memcmp(v[0].s, "abc", 3), 0);
    cr_assert_eq(v[1].t.year, 2024);
    cr_assert_eq(v[1].t.day, 29);
    cr_assert_eq(v[1].t.second, 15);
    cr_assert_eq(v[1].t.micro, 123456);
    cr_assert(v[2].t.neg);
    cr_assert_eq(v[2].t.days, 2);
    cr_assert_eq(v[2].t.hour, 3);
    cr_assert_eq(v[3].len, 4);
    cr_assert_eq(memcmp(v[3].s, "long", 4), 0);
    mem_free(exact);
    buf_destroy(&ld);
}

Test(proto_binary, every_prefix_of_an_execute_fails_cleanly)
{
    uint8_t p[64];
    size_t n = exec_head(p);
    p[n++] = 0;
    p[n++] = 1;
    p[n++] = PROTO_TYPE_LONGLONG, p[n++] = 0, p[n++] = PROTO_TYPE_VAR_STRING, p[n++] = 0;
    for (int i = 0; i < 8; i++) {
        p[n++] = (uint8_t)i;
    }
    p[n++] = 2, p[n++] = 'h', p[n++] = 'i';
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *exact = test_exact_copy(p, cut);
        uint8_t types[4] = {0};
        bool has = false;
        proto_param v[2];
        db_error e = {0};
        cr_assert_eq(proto_stmt_execute_params(exact, cut, 2, types, &has, NULL, v, &e), DB_ERR,
                     "prefix %zu", cut);
        mem_free(exact);
    }
}

Test(proto_binary, binary_row_layout)
{
    buf b;
    buf_init(&b);
    size_t bm = proto_binrow_begin(&b, 7);
    cr_assert_eq(b.data[0], 0x00);
    cr_assert_eq(b.len, 1 + 2); /* (7 + 2 + 7) / 8 = 2 bitmap bytes */
    proto_binrow_put_int(&b, PROTO_TYPE_LONGLONG, 5);
    proto_binrow_set_null(&b, bm, 1);
    proto_binrow_put_int(&b, PROTO_TYPE_LONG, 0xFFFFFFFFu);
    proto_binrow_put_double(&b, 1.0);
    proto_binrow_put_datetime(&b, 2024, 2, 29, 0, 0, 0, 0);
    proto_binrow_put_datetime(&b, 0, 0, 0, 0, 0, 0, 0);
    proto_binrow_put_str(&b, "xy", 2);
    cr_assert_eq(b.data[bm], 1u << 3); /* column 1 -> bit 3 (two reserved bits) */
    size_t off = 3;
    cr_assert_eq(b.data[off], 5);
    off += 8;
    cr_assert_eq(b.data[off], 0xFF);
    off += 4 + 8;
    const uint8_t date[] = {4, 0xE8, 0x07, 2, 29};
    cr_assert_arr_eq(b.data + off, date, sizeof date);
    off += sizeof date;
    cr_assert_eq(b.data[off++], 0); /* zero date */
    cr_assert_eq(b.data[off++], 2);
    cr_assert_eq(memcmp(b.data + off, "xy", 2), 0);
    cr_assert_eq(off + 2, b.len);
    buf_destroy(&b);
}

Test(proto_binary, time_forms)
{
    buf b;
    buf_init(&b);
    proto_binrow_put_time(&b, false, 0, 0, 0, 0, 0);
    proto_binrow_put_time(&b, true, 1, 2, 3, 4, 0);
    proto_binrow_put_time(&b, false, 0, 0, 0, 1, 5);
    cr_assert_eq(b.data[0], 0);
    const uint8_t t8[] = {8, 1, 1, 0, 0, 0, 2, 3, 4};
    cr_assert_arr_eq(b.data + 1, t8, sizeof t8);
    cr_assert_eq(b.data[10], 12);
    cr_assert_eq(b.data[10 + 9], 5);
    cr_assert_eq(b.len, 1 + 9 + 13);
    buf_destroy(&b);
}
