/* SPDX-License-Identifier: Apache-2.0
 * CAST / CONVERT to the Doris type names: accepted spellings, result column types, and
 * Doris's non-strict conversion rules (invalid or out-of-range input is NULL), next to the
 * MySQL rules kept for SIGNED / UNSIGNED. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"

Test(plan_cast, doris_type_names_are_accepted)
{
    static const pair p[] = {
            {"select cast('12' as int)", "12"},
            {"select cast('12' AS Integer)", "12"},
            {"select cast(-5 as tinyint)", "-5"},
            {"select cast(300 as smallint)", "300"},
            {"select cast('9000000000' as bigint)", "9000000000"},
            {"select cast('170141183460469231731687303715884105' as largeint)",
             "170141183460469231731687303715884105"},
            {"select cast(1 as boolean)", "1"},
            {"select cast(0 as bool)", "0"},
            {"select cast('1.5' as float)", "1.5"},
            {"select cast(1.1 as float)", "1.1"},
            {"select cast('2.5' as double)", "2.5"},
            {"select cast('3.14159' as decimalv3(5,3))", "3.142"},
            {"select cast(7 as decimalv3)", "7"},
            {"select cast(12.5 as varchar(10))", "12.5"},
            {"select cast('abcdef' as varchar(3))", "abc"},
            {"select cast(42 as varchar)", "42"},
            {"select cast(42 as string)", "42"},
            {"select cast(42 as text)", "42"},
            {"select cast('abcdef' as char(2))", "ab"},
            {"select cast('2024-01-02' as datev2)", "2024-01-02"},
            {"select cast('2024-01-02 03:04:05.6' as datetimev2(1))", "2024-01-02 03:04:05.6"},
            {"select convert('7', int)", "7"},
            {"select convert(7, varchar(4))", "7"},
            {"select cast(null as int)", "NULL"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_cast, doris_names_give_null_for_invalid_input)
{
    static const pair p[] = {
            {"select cast('abc' as int)", "NULL"},
            {"select cast('12abc' as int)", "NULL"},
            {"select cast('' as int)", "NULL"},
            {"select cast(' 12 ' as int)", "12"},
            {"select cast('1.9' as int)", "1"},
            {"select cast('-1.9' as int)", "-1"},
            {"select cast(1.9 as int)", "1"},
            {"select cast(-1.9 as bigint)", "-1"},
            {"select cast(2.7e0 as smallint)", "2"},
            {"select cast(128 as tinyint)", "NULL"},
            {"select cast(-128 as tinyint)", "-128"},
            {"select cast(32768 as smallint)", "NULL"},
            {"select cast(2147483648 as int)", "NULL"},
            {"select cast(18446744073709551615 as bigint)", "NULL"},
            {"select cast('99999999999999999999' as bigint)", "NULL"},
            {"select cast(18446744073709551615 as largeint)", "18446744073709551615"},
            {"select cast('abc' as largeint)", "NULL"},
            {"select cast('99999999999999999999999999999999999999' as largeint)",
             "99999999999999999999999999999999999999"},
            {"select cast('999999999999999999999999999999999999999' as largeint)", "NULL"},
            {"select cast('-999999999999999999999999999999999999999.5' as largeint)", "NULL"},
            {"select cast(1e38 as largeint)", "NULL"},
            {"select cast(-1.5e18 as largeint)", "-1500000000000000000"},
            {"select cast('abc' as boolean)", "NULL"},
            {"select cast('true' as boolean)", "1"},
            {"select cast('FALSE' as boolean)", "0"},
            {"select cast(2.5 as boolean)", "1"},
            {"select cast('abc' as double)", "NULL"},
            {"select cast('1e3' as double)", "1000"},
            {"select cast('0x10' as double)", "NULL"},
            {"select cast('inf' as double)", "NULL"},
            {"select cast('abc' as float)", "NULL"},
            {"select cast(1e300 as float)", "NULL"},
            {"select cast('abc' as decimal(5,2))", "NULL"},
            {"select cast('abc' as decimalv3(5,2))", "NULL"},
            {"select cast(12345 as decimal(3))", "NULL"},
            {"select cast('1.2.3' as decimal(5,2))", "NULL"},
            {"select cast(cast('2024-01-02' as date) as int)", "20240102"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_cast, doris_null_has_no_warning_mysql_signed_keeps_warning)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select cast('abc' as int)"), "NULL");
    cr_assert_str_eq(tx_one(t, "show count(*) warnings"), "0");
    cr_assert_str_eq(tx_one(t, "select cast('abc' as signed)"), "0");
    cr_assert_str_eq(tx_one(t, "show count(*) warnings"), "1");
    cr_assert_eq(tx_exec(t, "show warnings"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 1), "1292");
    cr_assert_str_eq(tx_cell(t, 0, 2), "Truncated incorrect INTEGER value: 'abc'");
    cr_assert_str_eq(tx_one(t, "select cast('abc' as unsigned)"), "0");
    tx_free(t);
}

Test(plan_cast, result_column_types_follow_the_target)
{
    static const struct {
        const char *sql;
        plan_type type;
    } c[] = {
            {"select cast(1 as int)", PLAN_TYPE_INT},
            {"select cast(1 as integer)", PLAN_TYPE_INT},
            {"select cast(1 as tinyint)", PLAN_TYPE_TINYINT},
            {"select cast(1 as smallint)", PLAN_TYPE_SMALLINT},
            {"select cast(1 as bigint)", PLAN_TYPE_BIGINT},
            {"select cast(1 as largeint)", PLAN_TYPE_LARGEINT},
            {"select cast(1 as boolean)", PLAN_TYPE_BOOLEAN},
            {"select cast(1 as float)", PLAN_TYPE_FLOAT},
            {"select cast(1 as double)", PLAN_TYPE_DOUBLE},
            {"select cast(1 as decimalv3(9,2))", PLAN_TYPE_DECIMAL},
            {"select cast(1 as varchar(5))", PLAN_TYPE_VARCHAR},
            {"select cast(1 as string)", PLAN_TYPE_STRING},
            {"select cast(1 as text)", PLAN_TYPE_STRING},
            {"select cast(1 as datetime(3))", PLAN_TYPE_DATETIME},
            {"select cast(1 as signed)", PLAN_TYPE_BIGINT},
    };
    tx *t = tx_new();
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        cr_assert_eq(tx_exec(t, c[i].sql), DB_OK, "%s: %s", c[i].sql, t->err.msg);
        cr_expect_eq(t->cols[0].type, c[i].type, "%s: type %d want %d", c[i].sql,
                     (int)t->cols[0].type, (int)c[i].type);
    }
    cr_assert_eq(tx_exec(t, "select cast('x' as varchar(5))"), DB_OK);
    cr_expect_eq(t->cols[0].length, 5);
    cr_assert_eq(tx_exec(t, "select cast(1 as decimalv3(9,2))"), DB_OK);
    cr_expect_eq(t->cols[0].precision, 9);
    cr_expect_eq(t->cols[0].scale, 2);
    cr_assert_eq(tx_exec(t, "select cast(1 as int)"), DB_OK);
    cr_expect(t->cols[0].nullable);
    tx_free(t);
}

Test(plan_cast, unknown_type_names_are_syntax_errors)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "select cast(1 as frobnicate)"), 1064);
    cr_assert(strstr(t->err.msg, "near 'frobnicate)' at line 1") != NULL, "%s", t->err.msg);
    cr_assert_eq(tx_err(t, "select cast(1 as `int`)"), 1064);
    cr_assert_eq(tx_err(t, "select cast(1 as int(3))"), 1064);
    cr_assert_eq(tx_err(t, "select cast(1 as string(3))"), 1064);
    cr_assert_eq(tx_err(t, "select cast(1 as decimalv3(40,2))"), 1426);
    cr_assert_eq(tx_err(t, "select cast(1 as datetimev2(7))"), 1426);
    tx_free(t);
}
