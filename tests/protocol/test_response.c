/* SPDX-License-Identifier: Apache-2.0
 * Command-phase packets: OK / ERR / EOF bytes and their round trip through the parsers,
 * ColumnDefinition41 bytes, and the COM_FIELD_LIST / COM_PROCESS_KILL / COM_SET_OPTION payload
 * parsers. See protocol/README.md §Formats. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "protocol/protocol.h"
#include "tests/protocol/proto_test.h"

#define CAPS41 (PROTO_CLIENT_PROTOCOL_41 | PROTO_CLIENT_TRANSACTIONS)

static arena *test_arena;

static void setup(void);
static void teardown(void);

static void
setup(void)
{
    test_arena = arena_new(0);
}

static void
teardown(void)
{
    arena_free(test_arena);
}

TestSuite(proto_response, .init = setup, .fini = teardown);

/* ---- OK ---- */

Test(proto_response, ok_bytes_protocol_41)
{
    proto_ok ok = {
            .affected_rows = 3,
            .last_insert_id = 300,
            .status = PROTO_STATUS_AUTOCOMMIT | PROTO_STATUS_IN_TRANS,
            .warnings = 1,
            .info = "Rows matched: 3  Changed: 3  Warnings: 1",
    };
    buf b;
    buf_init(&b);
    proto_ok_write(&b, &ok, CAPS41);
    const char want[] = "\x00"                                      /* OK header */
                        "\x03"                                      /* affected rows */
                        "\xfc\x2c\x01"                              /* last insert id 300 */
                        "\x03\x00"                                  /* status */
                        "\x01\x00"                                  /* warnings */
                        "\x28"                                      /* info length 40 */
                        "Rows matched: 3  Changed: 3  Warnings: 1"; /* info */
    cr_assert_eq(b.len, sizeof want - 1);
    cr_assert_eq(memcmp(b.data, want, b.len), 0);
    buf_destroy(&b);
}

Test(proto_response, ok_round_trip)
{
    proto_ok ok = {
            .affected_rows = 0x1000000,
            .last_insert_id = UINT64_MAX,
            .status = PROTO_STATUS_AUTOCOMMIT | PROTO_STATUS_MORE_RESULTS_EXISTS,
            .warnings = 65535,
            .info = "hello",
    };
    buf b;
    buf_init(&b);
    proto_ok_write(&b, &ok, CAPS41);
    proto_ok got;
    db_error err = {0};
    cr_assert_eq(proto_ok_parse(b.data, b.len, &got, &err), DB_OK);
    cr_assert_eq(got.affected_rows, ok.affected_rows);
    cr_assert_eq(got.last_insert_id, ok.last_insert_id);
    cr_assert_eq(got.status, ok.status);
    cr_assert_eq(got.warnings, ok.warnings);
    cr_assert_not(got.is_eof);
    cr_assert_null(got.info, "proto_ok_parse has no arena for the info");

    cr_assert_eq(proto_ok_parse_info(b.data, b.len, test_arena, &got, &err), DB_OK);
    cr_assert_str_eq(got.info, "hello");
    buf_destroy(&b);
}

Test(proto_response, ok_as_eof_and_without_info)
{
    proto_ok ok = {.status = PROTO_STATUS_AUTOCOMMIT, .is_eof = true};
    buf b;
    buf_init(&b);
    proto_ok_write(&b, &ok, CAPS41);
    cr_assert_eq(b.len, 7);
    cr_assert_eq(memcmp(b.data, "\xfe\x00\x00\x02\x00\x00\x00", 7), 0);
    proto_ok got;
    db_error err = {0};
    cr_assert_eq(proto_ok_parse_info(b.data, b.len, test_arena, &got, &err), DB_OK);
    cr_assert(got.is_eof);
    cr_assert_eq(got.status, PROTO_STATUS_AUTOCOMMIT);
    cr_assert_null(got.info);
    buf_destroy(&b);
}

Test(proto_response, ok_pre_41_layouts)
{
    proto_ok ok = {.affected_rows = 1, .status = 2, .warnings = 9};
    buf b;
    buf_init(&b);
    proto_ok_write(&b, &ok, PROTO_CLIENT_TRANSACTIONS);
    cr_assert_eq(b.len, 5, "status only, no warnings");
    cr_assert_eq(memcmp(b.data, "\x00\x01\x00\x02\x00", 5), 0);
    buf_clear(&b);
    proto_ok_write(&b, &ok, 0);
    cr_assert_eq(b.len, 3, "neither status nor warnings");
    buf_destroy(&b);
}

Test(proto_response, ok_parse_rejects_malformed)
{
    const char *bad[] = {"",
                         "\x01\x00\x00\x02\x00\x00\x00",
                         "\x00\x00\x00\x02\x00\x00",
                         "\x00\xff\x00\x02\x00\x00\x00",
                         "\x00\xfb\x00\x02\x00\x00\x00",
                         "\x00\xfc\x01"};
    const size_t lens[] = {0, 7, 6, 7, 7, 3};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t *p = test_exact_copy(bad[i], lens[i]);
        proto_ok got;
        db_error err = {0};
        cr_assert_eq(proto_ok_parse(p, lens[i], &got, &err), DB_ERR, "case %zu", i);
        cr_assert_eq(err.code, 1835);
        mem_free(p);
    }
}

/* ---- ERR ---- */

Test(proto_response, err_bytes)
{
    db_error e = {0};
    db_error_set(&e, ER_NO_SUCH_TABLE, "shop", "t1");
    buf b;
    buf_init(&b);
    proto_err_write(&b, &e);
    const char want[] = "\xff"     /* ERR header */
                        "\x7a\x04" /* 1146 */
                        "#42S02"   /* marker and SQLSTATE */
                        "Table 'shop.t1' doesn't exist";
    cr_assert_eq(b.len, sizeof want - 1);
    cr_assert_eq(memcmp(b.data, want, b.len), 0);
    buf_destroy(&b);
}

Test(proto_response, err_round_trip)
{
    db_error e = {0};
    db_error_set(&e, ER_PARSE_ERROR, "SELEC 1", 1);
    buf b;
    buf_init(&b);
    proto_err_write(&b, &e);
    db_error got;
    cr_assert_eq(proto_err_parse(b.data, b.len, &got), DB_OK);
    cr_assert_eq(got.code, 1064);
    cr_assert_str_eq(got.sqlstate, "42000");
    cr_assert_str_eq(got.msg, e.msg);
    buf_destroy(&b);
}

Test(proto_response, err_longest_message_round_trips)
{
    db_error e = {.code = 1105};
    memcpy(e.sqlstate, "HY000", 6);
    memset(e.msg, 'm', sizeof e.msg - 1);
    e.msg[sizeof e.msg - 1] = '\0';
    buf b;
    buf_init(&b);
    proto_err_write(&b, &e);
    cr_assert_eq(b.len, 9 + DB_ERRMSG_SIZE - 1);
    db_error got;
    cr_assert_eq(proto_err_parse(b.data, b.len, &got), DB_OK);
    cr_assert_eq(strlen(got.msg), DB_ERRMSG_SIZE - 1);
    /* One byte more than fits is truncated, not overflowed. */
    buf_put_u8(&b, 'x');
    cr_assert_eq(proto_err_parse(b.data, b.len, &got), DB_OK);
    cr_assert_eq(strlen(got.msg), DB_ERRMSG_SIZE - 1);
    buf_destroy(&b);
}

Test(proto_response, err_without_code_or_sqlstate_is_generic)
{
    db_error e = {0};
    snprintf(e.msg, sizeof e.msg, "oops");
    buf b;
    buf_init(&b);
    proto_err_write(&b, &e);
    cr_assert_eq(memcmp(b.data, "\xff\x51\x04#HY000oops", 13), 0);
    cr_assert_eq(b.len, 13);
    buf_destroy(&b);
}

Test(proto_response, err_parse_variants)
{
    db_error got;
    /* Pre-4.1 layout: no '#' marker. */
    const char old[] = "\xff\x15\x04No database";
    cr_assert_eq(proto_err_parse((const uint8_t *)old, sizeof old - 1, &got), DB_OK);
    cr_assert_eq(got.code, 1045);
    cr_assert_str_eq(got.sqlstate, "HY000");
    cr_assert_str_eq(got.msg, "No database");

    /* Malformed: wrong header, short code, short SQLSTATE. */
    const char *bad[] = {"", "\x00\x01\x02", "\xff\x01", "\xff\x01\x02#42S"};
    const size_t lens[] = {0, 3, 2, 7};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t *p = test_exact_copy(bad[i], lens[i]);
        cr_assert_eq(proto_err_parse(p, lens[i], &got), DB_ERR, "case %zu", i);
        cr_assert_eq(got.code, 1835);
        mem_free(p);
    }
}

/* ---- EOF ---- */

Test(proto_response, eof_bytes_and_round_trip)
{
    buf b;
    buf_init(&b);
    proto_eof_write(&b, 2, PROTO_STATUS_AUTOCOMMIT | PROTO_STATUS_MORE_RESULTS_EXISTS);
    cr_assert_eq(b.len, 5);
    cr_assert_eq(memcmp(b.data, "\xfe\x02\x00\x0a\x00", 5), 0);
    uint16_t warnings = 0;
    uint16_t status = 0;
    db_error err = {0};
    cr_assert_eq(proto_eof_parse(b.data, b.len, &warnings, &status, &err), DB_OK);
    cr_assert_eq(warnings, 2);
    cr_assert_eq(status, 0x000a);
    cr_assert_eq(proto_eof_parse(b.data, 4, &warnings, &status, &err), DB_ERR);
    cr_assert_eq(err.code, 1835);
    buf_destroy(&b);
}

/* ---- column definitions ---- */

Test(proto_response, column_definition_bytes)
{
    proto_column col = {
            .schema = "shop",
            .table = "t",
            .org_table = "t",
            .name = "id",
            .org_name = "id",
            .charset = PROTO_CHARSET_BINARY,
            .length = 11,
            .type = PROTO_TYPE_LONG,
            .flags = PROTO_FLAG_NOT_NULL | PROTO_FLAG_PRI_KEY | PROTO_FLAG_NUM,
            .decimals = 0,
    };
    buf b;
    buf_init(&b);
    proto_column_write(&b, &col, false);
    const char want[] = "\x03"
                        "def" /* catalog */
                        "\x04"
                        "shop" /* schema */
                        "\x01"
                        "t" /* table */
                        "\x01"
                        "t" /* org_table */
                        "\x02"
                        "id" /* name */
                        "\x02"
                        "id"               /* org_name */
                        "\x0c"             /* length of the fixed fields */
                        "\x3f\x00"         /* charset 63 */
                        "\x0b\x00\x00\x00" /* display length 11 */
                        "\x03"             /* MYSQL_TYPE_LONG */
                        "\x03\x80"         /* NOT_NULL | PRI_KEY | NUM */
                        "\x00"             /* decimals */
                        "\x00\x00";        /* filler */
    cr_assert_eq(b.len, sizeof want - 1);
    for (size_t i = 0; i < b.len; i++) {
        cr_assert_eq(b.data[i], (uint8_t)want[i], "byte %zu", i);
    }

    /* COM_FIELD_LIST adds an empty default value. */
    buf_clear(&b);
    proto_column_write(&b, &col, true);
    cr_assert_eq(b.len, sizeof want);
    cr_assert_eq(b.data[b.len - 1], 0x00);
    buf_destroy(&b);
}

Test(proto_response, column_definition_null_names_are_empty)
{
    proto_column col = {
            .name = "1",
            .charset = PROTO_CHARSET_BINARY,
            .length = 1,
            .type = PROTO_TYPE_LONGLONG,
            .flags = PROTO_FLAG_NOT_NULL | PROTO_FLAG_BINARY | PROTO_FLAG_NUM,
    };
    buf b;
    buf_init(&b);
    proto_column_write(&b, &col, false);
    const char want[] = "\x03"
                        "def"  /* catalog */
                        "\x00" /* schema */
                        "\x00" /* table */
                        "\x00" /* org_table */
                        "\x01"
                        "1"                /* name */
                        "\x00"             /* org_name */
                        "\x0c"             /* length of the fixed fields */
                        "\x3f\x00"         /* charset 63 */
                        "\x01\x00\x00\x00" /* display length 1 */
                        "\x08"             /* MYSQL_TYPE_LONGLONG */
                        "\x81\x80"         /* NOT_NULL | BINARY | NUM */
                        "\x00"             /* decimals */
                        "\x00\x00";        /* filler */
    cr_assert_eq(b.len, sizeof want - 1);
    cr_assert_eq(memcmp(b.data, want, b.len), 0);

    /* The layout reads back with the cursor: six lenenc strings, then the 0x0c block. */
    proto_cursor c;
    proto_cursor_init(&c, b.data, b.len);
    const uint8_t *s;
    size_t len;
    for (int i = 0; i < 6; i++) {
        cr_assert(proto_get_lenenc_str(&c, &s, &len));
    }
    cr_assert_eq(len, 0, "org_name empty");
    uint64_t fixed;
    cr_assert(proto_get_lenenc_int(&c, &fixed, NULL));
    cr_assert_eq(fixed, 0x0c);
    cr_assert_eq(proto_cursor_left(&c), 0x0c);
    buf_destroy(&b);
}

/* ---- command payloads ---- */

Test(proto_response, field_list_parse)
{
    const char *table;
    const char *wild;
    db_error err = {0};
    const char pkt[] = "t1\0id%";
    cr_assert_eq(proto_field_list_parse((const uint8_t *)pkt, sizeof pkt - 1, test_arena, &table,
                                        &wild, &err),
                 DB_OK);
    cr_assert_str_eq(table, "t1");
    cr_assert_str_eq(wild, "id%");

    /* libmariadb's mysql_list_fields(NULL wild) sends the table and its NUL only. */
    cr_assert_eq(
            proto_field_list_parse((const uint8_t *)"t2\0", 3, test_arena, &table, &wild, &err),
            DB_OK);
    cr_assert_str_eq(table, "t2");
    cr_assert_null(wild);

    /* A NUL-terminated wildcard loses its NUL. */
    cr_assert_eq(
            proto_field_list_parse((const uint8_t *)"t3\0a%\0", 6, test_arena, &table, &wild, &err),
            DB_OK);
    cr_assert_str_eq(wild, "a%");

    /* No NUL after the table: malformed. */
    uint8_t *p = test_exact_copy("t4", 2);
    cr_assert_eq(proto_field_list_parse(p, 2, test_arena, &table, &wild, &err), DB_ERR);
    cr_assert_eq(err.code, 1835);
    mem_free(p);
}

Test(proto_response, process_kill_and_set_option)
{
    uint32_t id = 0;
    uint16_t opt = 9;
    db_error err = {0};
    cr_assert_eq(proto_process_kill_parse((const uint8_t *)"\x2a\x00\x00\x01", 4, &id, &err),
                 DB_OK);
    cr_assert_eq(id, 0x0100002a);
    cr_assert_eq(proto_process_kill_parse((const uint8_t *)"\x2a\x00\x00", 3, &id, &err), DB_ERR);
    cr_assert_eq(err.code, 1835);
    db_error_clear(&err);
    cr_assert_eq(proto_set_option_parse((const uint8_t *)"\x01\x00", 2, &opt, &err), DB_OK);
    cr_assert_eq(opt, 1);
    cr_assert_eq(proto_set_option_parse((const uint8_t *)"\x01", 1, &opt, &err), DB_ERR);
    cr_assert_eq(err.code, 1835);
}
