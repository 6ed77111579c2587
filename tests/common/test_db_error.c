/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/db_error: first error wins, replace, formatting, truncation,
 * newline flattening, DB_ASSERT and the db_error.def table itself. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>

#include "common/db_error.h"

static bool valid_utf8(const char *s);

/* True when s is well-formed UTF-8 (no cut sequences). */
static bool
valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p != 0) {
        size_t n = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 0;
        if (n == 0) {
            return false;
        }
        for (size_t i = 1; i < n; i++) {
            if ((p[i] & 0xC0) != 0x80) {
                return false;
            }
        }
        p += n;
    }
    return true;
}

Test(db_error, set_formats_from_table)
{
    db_error e;
    db_error_clear(&e);
    cr_assert(!db_error_is_set(&e));
    int line = __LINE__ + 1;
    int rc = db_error_set(&e, ER_NO_SUCH_TABLE, "db1", "t");
    cr_expect_eq(rc, DB_ERR);
    cr_assert(db_error_is_set(&e));
    cr_expect_eq(e.code, 1146);
    cr_expect_str_eq(e.sqlstate, "42S02");
    cr_expect_str_eq(e.msg, "Table 'db1.t' doesn't exist");
    cr_expect_str_eq(e.file, __FILE__);
    cr_expect_eq(e.line, line);
}

Test(db_error, formats)
{
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_ACCESS_DENIED_ERROR, "bob", "localhost", "YES");
    cr_expect_str_eq(e.msg, "Access denied for user 'bob'@'localhost' (using password: YES)");
    db_error_clear(&e);
    db_error_set(&e, ER_PARSE_ERROR, "FORM t", 1);
    cr_expect_str_eq(e.msg, "You have an error in your SQL syntax; check the manual that "
                            "corresponds to your MySQL server version for the right syntax to "
                            "use near 'FORM t' at line 1");
    db_error_clear(&e);
    db_error_set(&e, ER_DORIS, "Unknown table 'x'");
    cr_expect_str_eq(e.msg, "errCode = 2, detailMessage = Unknown table 'x'");
    db_error_clear(&e);
    db_error_set(&e, ER_NO_SUCH_THREAD, 18446744073709551615ull);
    cr_expect_str_eq(e.msg, "Unknown thread id: 18446744073709551615");
    db_error_clear(&e);
    db_error_set(&e, ER_EMPTY_QUERY);
    cr_expect_str_eq(e.msg, "Query was empty");
    cr_expect_eq(e.code, 1065);
}

Test(db_error, first_error_wins)
{
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_NO_SUCH_TABLE, "a", "b");
    int line = e.line;
    cr_expect_eq(db_error_set(&e, ER_PARSE_ERROR, "x", 1), DB_ERR);
    cr_expect_eq(e.code, 1146);
    cr_expect_str_eq(e.sqlstate, "42S02");
    cr_expect_str_eq(e.msg, "Table 'a.b' doesn't exist");
    cr_expect_eq(e.line, line);
}

Test(db_error, replace_overwrites)
{
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_NO_SUCH_TABLE, "a", "b");
    cr_expect_eq(db_error_replace(&e, ER_ACCESS_DENIED_ERROR, "u", "h", "NO"), DB_ERR);
    cr_expect_eq(e.code, 1045);
    cr_expect_str_eq(e.sqlstate, "28000");
    cr_expect_str_eq(e.msg, "Access denied for user 'u'@'h' (using password: NO)");
    /* Replace also works on a clear error. */
    db_error_clear(&e);
    db_error_replace(&e, ER_EMPTY_QUERY);
    cr_expect_eq(e.code, 1065);
}

Test(db_error, clear)
{
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_EMPTY_QUERY);
    db_error_clear(&e);
    cr_expect(!db_error_is_set(&e));
    cr_expect_eq(e.code, 0);
    cr_expect_str_eq(e.msg, "");
    cr_expect_str_eq(e.sqlstate, "");
    cr_expect_null(e.file);
    /* After a clear the next error is recorded. */
    db_error_set(&e, ER_NO_DB_ERROR);
    cr_expect_eq(e.code, 1046);
    cr_expect_str_eq(e.sqlstate, "3D000");
}

Test(db_error, null_err_is_allowed)
{
    cr_expect_eq(db_error_set(NULL, ER_EMPTY_QUERY), DB_ERR);
    cr_expect_eq(db_error_replace(NULL, ER_EMPTY_QUERY), DB_ERR);
}

Test(db_error, message_truncated_at_512)
{
    char arg[2000];
    memset(arg, 'x', sizeof arg - 1);
    arg[sizeof arg - 1] = '\0';
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_DORIS, arg);
    cr_expect_eq(DB_ERRMSG_SIZE, 512);
    cr_expect_eq(strlen(e.msg), DB_ERRMSG_SIZE - 1);
    cr_expect_eq(strncmp(e.msg, "errCode = 2, detailMessage = xxx", 32), 0);
    cr_expect_eq(e.msg[510], 'x');
}

Test(db_error, truncation_keeps_utf8_whole)
{
    /* 510 ASCII bytes, then "é" (2 bytes): a plain cut at 511 bytes would keep half of it. */
    char arg[600];
    memset(arg, 'a', 510);
    strcpy(arg + 510, "\xc3\xa9tail");
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_UNKNOWN_ERROR, arg);
    cr_expect(valid_utf8(e.msg), "message ends in a cut UTF-8 sequence");
    cr_expect_eq(strlen(e.msg), 510);
    /* A message that fits is untouched, even when it ends in a multi-byte character. */
    arg[509] = '\0';
    strcat(arg, "\xe6\x97\xa5"); /* 509 + 3 = 512 bytes: one too many */
    db_error_clear(&e);
    db_error_set(&e, ER_UNKNOWN_ERROR, arg);
    cr_expect_eq(strlen(e.msg), 509);
    arg[508] = '\0';
    strcat(arg, "\xe6\x97\xa5"); /* 511 bytes: fits */
    db_error_clear(&e);
    db_error_set(&e, ER_UNKNOWN_ERROR, arg);
    cr_expect_eq(strlen(e.msg), 511);
    cr_expect(valid_utf8(e.msg));
}

Test(db_error, newlines_flattened)
{
    db_error e;
    db_error_clear(&e);
    db_error_set(&e, ER_UNKNOWN_ERROR, "line1\nline2\r\nline3\r");
    cr_expect_str_eq(e.msg, "line1 line2  line3 ");
    cr_expect_null(strchr(e.msg, '\n'));
}

Test(db_error, code_and_sqlstate_lookups)
{
    cr_expect_eq(db_error_code_of(ER_PARSE_ERROR), 1064);
    cr_expect_str_eq(db_error_sqlstate_of(ER_PARSE_ERROR), "42000");
    cr_expect_eq(db_error_code_of(ER_NO_SUCH_TABLE), 1146);
    cr_expect_str_eq(db_error_sqlstate_of(ER_NO_SUCH_TABLE), "42S02");
    cr_expect_eq(db_error_code_of(ER_ACCESS_DENIED_ERROR), 1045);
    cr_expect_str_eq(db_error_sqlstate_of(ER_ACCESS_DENIED_ERROR), "28000");
    cr_expect_eq(db_error_code_of(ER_UNKNOWN_ERROR), 1105);
    cr_expect_str_eq(db_error_sqlstate_of(ER_UNKNOWN_ERROR), "HY000");
    cr_expect_str_eq(db_error_format_of(ER_NO_SUCH_TABLE), "Table '%s.%s' doesn't exist");
    cr_expect_str_eq(db_error_format_of(ER_CONFIG), "%s");
}

/* Every row of db_error.def: a server-side code, a well-formed SQLSTATE, a format. */
Test(db_error, table_rows_are_well_formed)
{
    int n = 0;
#define XX(name, num, state, fmt)                                                        \
    do {                                                                                 \
        cr_expect_eq(db_error_code_of(name), (num), #name);                              \
        cr_expect_gt((num), 999, #name);                                                 \
        cr_expect(!((num) >= 2000 && (num) <= 2999), #name " uses a client error code"); \
        cr_expect(!((num) >= 5000 && (num) <= 5999), #name " uses a client error code"); \
        cr_expect_eq(strlen(state), 5, #name);                                           \
        cr_expect_eq(strspn(state, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 5, #name);   \
        cr_expect_str_eq(db_error_sqlstate_of(name), (state), #name);                    \
        cr_expect_str_eq(db_error_format_of(name), (fmt), #name);                        \
        cr_expect_null(strchr(fmt, '\n'), #name);                                        \
        cr_expect_eq((int)(name), n, #name);                                             \
        n++;                                                                             \
    } while (0);
#include "common/db_error.def"
#undef XX
    cr_expect_eq(n, DB_ERRNAME__COUNT);
}

Test(db_error, assert_aborts, .signal = SIGABRT)
{
    volatile int zero = 0;
    DB_ASSERT(zero == 1);
}

Test(db_error, assert_passes)
{
    DB_ASSERT(1 + 1 == 2);
    cr_assert(true);
}
