/* SPDX-License-Identifier: Apache-2.0
 * Expressions: literals, operators, MySQL comparison and arithmetic semantics, DECIMAL and
 * DOUBLE formatting, functions, CAST, and result column metadata. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"

Test(plan_expr, literals)
{
    static const pair p[] = {
            {"select 1", "1"},
            {"select -1", "-1"},
            {"select 1.5", "1.5"},
            {"select .5", "0.5"},
            {"select 1.50", "1.50"},
            {"select 1e3", "1000"},
            {"select 1e20", "1e20"},
            {"select 1e15", "1e15"},
            {"select 1e14", "100000000000000"},
            {"select 1.5e-7", "0.00000015"},
            {"select 1e-16", "1e-16"},
            {"select 'abc'", "abc"},
            {"select \"d\"\"q\"", "d\"q"},
            {"select null", "NULL"},
            {"select true, false", "1"},
            {"select false", "0"},
            {"select 0x41", "A"},
            {"select X'4142'", "AB"},
            {"select b'1000001'", "A"},
            {"select 0x41 + 0", "65"},
            {"select 18446744073709551615", "18446744073709551615"},
            {"select 9223372036854775807", "9223372036854775807"},
            {"select -9223372036854775808", "-9223372036854775808"},
            {"select 123456789012345678901234567890", "123456789012345678901234567890"},
            {"select 'a' 'b'", "ab"},
            {"select N'x'", "x"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, arithmetic)
{
    static const pair p[] = {
            {"select 1 + 2 * 3", "7"},
            {"select (1 + 2) * 3", "9"},
            {"select 7 div 2", "3"},
            {"select -7 div 2", "-3"},
            {"select 7 mod 3", "1"},
            {"select 7 % 3", "1"},
            {"select mod(-7, 3)", "-1"},
            {"select 1 / 3", "0.3333"},
            {"select 2 / 3", "0.6667"},
            {"select 1.5 * 2", "3.0"},
            {"select 1.25 + 1.5", "2.75"},
            {"select 10 / 4", "2.5000"},
            {"select 1 / 0", "NULL"},
            {"select 1 div 0", "NULL"},
            {"select 5 % 0", "NULL"},
            {"select 0.1 + 0.2", "0.3"},
            {"select 0.1e0 + 0.2e0", "0.30000000000000004"},
            {"select 1e0 / 3", "0.3333333333333333"},
            {"select '3' + 4", "7"},
            {"select '1.5' * 2", "3"},
            {"select 'abc' + 1", "1"},
            {"select - 5", "-5"},
            {"select 1 - -1", "2"},
            {"select 1--1", "2"},
            {"select 5.5 % 2", "1.5"},
            {"select 1.0 / 3", "0.33333"},
            {"select 100 * 1.1", "110.0"},
            {"select 18446744073709551615 - 1", "18446744073709551614"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, overflow_errors)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select 9223372036854775807 + 1"),
                     "ERR 1690 22003 BIGINT value is out of range in '(9223372036854775807 + 1)'");
    cr_assert_str_eq(
            tx_one(t, "select 0 - cast(1 as unsigned)"),
            "ERR 1690 22003 BIGINT UNSIGNED value is out of range in '(0 - cast(1 as unsigned))'");
    cr_assert_eq(tx_err(t, "select -(-9223372036854775808)"), 1690);
    cr_assert_eq(tx_err(t, "select 1e308 * 10"), 1690);
    cr_assert_eq(tx_err(t, "select abs(-9223372036854775808)"), 1690);
    tx_free(t);
}

Test(plan_expr, division_by_zero_warns)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select 1/0"), "NULL");
    cr_assert_eq(plan_session_warning_count(t->s), 1);
    cr_assert_eq(tx_exec(t, "show warnings"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "Warning");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1365");
    cr_assert_str_eq(tx_cell(t, 0, 2), "Division by 0");
    tx_free(t);
}

Test(plan_expr, comparisons)
{
    static const pair p[] = {
            {"select 1 = 1", "1"},
            {"select 1 = 2", "0"},
            {"select 1 <> 2", "1"},
            {"select 1 != 1", "0"},
            {"select 2 > 1", "1"},
            {"select 2 >= 2", "1"},
            {"select 1 < 2", "1"},
            {"select 3 <= 2", "0"},
            {"select 'abc' = 'ABC'", "1"},
            {"select 'a' = 'a  '", "1"},
            {"select 'a' < 'B'", "1"},
            {"select '10' = 10", "1"},
            {"select '10abc' = 10", "1"},
            {"select 'abc' = 0", "1"},
            {"select 1 = null", "NULL"},
            {"select null <=> null", "1"},
            {"select 1 <=> null", "0"},
            {"select 1.0 = 1", "1"},
            {"select 0.1e0 = 0.1", "1"},
            {"select 18446744073709551615 > -1", "1"},
            {"select 2 between 1 and 3", "1"},
            {"select 5 not between 1 and 3", "1"},
            {"select 'b' between 'A' and 'C'", "1"},
            {"select 2 between null and 3", "NULL"},
            {"select 2 in (1, 2, 3)", "1"},
            {"select 4 in (1, 2)", "0"},
            {"select 4 in (1, null)", "NULL"},
            {"select 4 not in (1, 2)", "1"},
            {"select 'A' in ('a', 'b')", "1"},
            {"select null is null", "1"},
            {"select 1 is not null", "1"},
            {"select 0 is false", "1"},
            {"select 2 is true", "1"},
            {"select null is unknown", "1"},
            {"select null is not true", "1"},
            {"select cast('2024-01-02' as date) = '2024-01-02'", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, logic_and_bits)
{
    static const pair p[] = {
            {"select 1 and 0", "0"},      {"select 1 and null", "NULL"},
            {"select 0 and null", "0"},   {"select 1 or null", "1"},
            {"select 0 or null", "NULL"}, {"select 1 xor 1", "0"},
            {"select 1 xor 0", "1"},      {"select not 0", "1"},
            {"select !1", "0"},           {"select not null", "NULL"},
            {"select 1 && 1", "1"},       {"select 0 || 1", "1"},
            {"select 5 & 3", "1"},        {"select 5 | 3", "7"},
            {"select 5 ^ 3", "6"},        {"select 1 << 4", "16"},
            {"select 256 >> 4", "16"},    {"select ~0", "18446744073709551615"},
            {"select 1 << 64", "0"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, like)
{
    static const pair p[] = {
            {"select 'abc' like 'a%'", "1"},
            {"select 'abc' like 'A_C'", "1"},
            {"select 'abc' not like 'b%'", "1"},
            {"select 'a%c' like 'a\\%c'", "1"},
            {"select 'abc' like 'a\\%c'", "0"},
            {"select 'a|c' like 'a||c' escape '|'", "1"},
            {"select 'a_c' like 'a|_c' escape '|'", "1"},
            {"select null like 'a'", "NULL"},
            {"select 10 like '1%'", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, control_flow)
{
    static const pair p[] = {
            {"select case 1 when 1 then 'one' when 2 then 'two' else 'other' end", "one"},
            {"select case 3 when 1 then 'one' else 'other' end", "other"},
            {"select case when 1 > 2 then 'a' when 2 > 1 then 'b' end", "b"},
            {"select case when 0 then 1 end", "NULL"},
            {"select case 'A' when 'a' then 1 end", "1"},
            {"select case when 1 then 1 else 2.5 end", "1.0"},
            {"select if(1, 'y', 'n')", "y"},
            {"select if(0, 1, 2)", "2"},
            {"select if(null, 1, 2)", "2"},
            {"select if(1, 1, 'x')", "1"},
            {"select ifnull(null, 5)", "5"},
            {"select ifnull(3, 5)", "3"},
            {"select nullif(1, 1)", "NULL"},
            {"select nullif(1, 2)", "1"},
            {"select coalesce(null, null, 3)", "3"},
            {"select coalesce(null)", "NULL"},
            {"select greatest(1, 5, 3)", "5"},
            {"select least(1, 5, 3)", "1"},
            {"select greatest('b', 'a', 'C')", "C"},
            {"select least(1, null)", "NULL"},
            {"select greatest(1, 2.5)", "2.5"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, casts)
{
    static const pair p[] = {
            {"select cast('12' as signed)", "12"},
            {"select cast(-1 as unsigned)", "18446744073709551615"},
            {"select cast(1.5 as signed)", "2"},
            {"select cast(-1.5 as signed integer)", "-2"},
            {"select cast('1.9' as signed)", "1"},
            {"select cast(1 as decimal(12,2))", "1.00"},
            {"select cast(1.005 as decimal(10,2))", "1.01"},
            {"select cast('3.14159' as decimal(5,3))", "3.142"},
            {"select cast(12345 as decimal(3))", "NULL"}, /* Doris: out of range is NULL */
            {"select cast(12 as char)", "12"},
            {"select cast('abcdef' as char(3))", "abc"},
            {"select cast(1.5 as double)", "1.5"},
            {"select cast('2024-02-29' as date)", "2024-02-29"},
            {"select cast('2023-02-29' as date)", "NULL"},
            {"select cast('2024-01-02 03:04:05' as datetime)", "2024-01-02 03:04:05"},
            {"select cast('2024-01-02 03:04:05.123456' as datetime(3))", "2024-01-02 03:04:05.123"},
            {"select cast('20240102' as date)", "2024-01-02"},
            {"select cast('12:34:56' as time)", "12:34:56"},
            {"select cast('abc' as binary)", "abc"},
            {"select convert(42, char)", "42"},
            {"select convert('5', unsigned integer)", "5"},
            {"select convert('x' using utf8mb4)", "x"},
            {"select convert('x' using binary)", "x"},
            {"select cast(null as signed)", "NULL"},
            {"select 'abc' collate utf8mb4_bin", "abc"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, cast_errors)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "select cast(1 as decimal(40,2))"), 1426);
    cr_assert_eq(tx_err(t, "select cast(1 as decimal(10,31))"), 1425);
    cr_assert_eq(tx_err(t, "select cast(1 as decimal(2,5))"), 1427);
    cr_assert_eq(tx_err(t, "select convert('x' using nosuch)"), 1115);
    cr_assert_eq(tx_err(t, "select 'a' collate nosuch"), 1273);
    tx_free(t);
}

Test(plan_expr, string_functions)
{
    static const pair p[] = {
            {"select concat('a', 'b', 1)", "ab1"},
            {"select concat('a', null)", "NULL"},
            {"select concat_ws(',', 'a', null, 'b')", "a,b"},
            {"select concat_ws(null, 'a')", "NULL"},
            {"select length('héllo')", "6"},
            {"select char_length('héllo')", "5"},
            {"select character_length('ab')", "2"},
            {"select upper('abc')", "ABC"},
            {"select ucase('x')", "X"},
            {"select lower('ABC')", "abc"},
            {"select lcase('Q')", "q"},
            {"select substring('hello', 2)", "ello"},
            {"select substring('hello', 2, 3)", "ell"},
            {"select substring('hello' from 2 for 2)", "el"},
            {"select substring('hello' from -3)", "llo"},
            {"select substr('hello', 0)", ""},
            {"select substring('héllo', 2, 2)", "él"},
            {"select locate('l', 'hello')", "3"},
            {"select locate('L', 'hello', 4)", "4"},
            {"select locate('z', 'hello')", "0"},
            {"select instr('hello', 'lo')", "4"},
            {"select left('hello', 2)", "he"},
            {"select right('hello', 2)", "lo"},
            {"select right('hi', 5)", "hi"},
            {"select trim('  x  ')", "x"},
            {"select ltrim('  x ')", "x "},
            {"select rtrim(' x  ')", " x"},
            {"select trim(leading 'x' from 'xxaxx')", "axx"},
            {"select trim(trailing 'x' from 'xxaxx')", "xxa"},
            {"select trim(both 'x' from 'xxaxx')", "a"},
            {"select trim('x' from 'xax')", "a"},
            {"select replace('aXbXc', 'X', '--')", "a--b--c"},
            {"select repeat('ab', 3)", "ababab"},
            {"select repeat('ab', 0)", ""},
            {"select reverse('abc')", "cba"},
            {"select reverse('héllo')", "olléh"},
            {"select lpad('5', 3, '0')", "005"},
            {"select rpad('ab', 5, 'xy')", "abxyx"},
            {"select lpad('hello', 2, 'x')", "he"},
            {"select lpad('a', 3, '')", "NULL"},
            {"select hex('AB')", "4142"},
            {"select hex(255)", "FF"},
            {"select charset('x')", "utf8mb4"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, repeat_beyond_max_allowed_packet_is_null)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select repeat('x', 1000000000000)"), "NULL");
    cr_assert_eq(plan_session_warning_count(t->s), 1);
    tx_exec(t, "show warnings");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1301");
    cr_assert_str_eq(tx_one(t, "select lpad('x', 100000000000, 'y')"), "NULL");
    tx_free(t);
}

Test(plan_expr, numeric_functions)
{
    static const pair p[] = {
            {"select abs(-5)", "5"},
            {"select abs(-1.5)", "1.5"},
            {"select abs(-2e0)", "2"},
            {"select round(1.5)", "2"},
            {"select round(2.5)", "3"},
            {"select round(-1.5)", "-2"},
            {"select round(1.2345, 2)", "1.23"},
            {"select round(1.235, 2)", "1.24"},
            {"select round(1234, -2)", "1200"},
            {"select round(2.5e0)", "2"},
            {"select floor(1.7)", "1"},
            {"select floor(-1.2)", "-2"},
            {"select ceil(1.2)", "2"},
            {"select ceiling(-1.7)", "-1"},
            {"select floor(2.5e0)", "2"},
            {"select pow(2, 10)", "1024"},
            {"select power(2, -1)", "0.5"},
            {"select sqrt(16)", "4"},
            {"select sqrt(-1)", "NULL"},
            {"select mod(10, 3)", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_expr, information_functions)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select database()"), "NULL");
    cr_assert_str_eq(tx_one(t, "select schema()"), "NULL");
    cr_assert_str_eq(tx_one(t, "select user()"), "root@127.0.0.1");
    cr_assert_str_eq(tx_one(t, "select session_user()"), "root@127.0.0.1");
    cr_assert_str_eq(tx_one(t, "select system_user()"), "root@127.0.0.1");
    cr_assert_str_eq(tx_one(t, "select current_user()"), "root@%");
    cr_assert_str_eq(tx_one(t, "select current_user"), "root@%");
    cr_assert_str_eq(tx_one(t, "select version()"), "5.7.99-rivulet-test");
    cr_assert_str_eq(tx_one(t, "select connection_id()"), "7");
    cr_assert_str_eq(tx_one(t, "select last_insert_id()"), "0");
    cr_assert_str_eq(tx_one(t, "select last_insert_id(42)"), "42");
    cr_assert_str_eq(tx_one(t, "select last_insert_id()"), "42");
    cr_assert_str_eq(tx_one(t, "select @@last_insert_id, @@identity"), "42");
    cr_assert_str_eq(tx_one(t, "select row_count()"), "-1");
    tx_exec(t, "set @x = 1");
    cr_assert_str_eq(tx_one(t, "select row_count()"), "0");
    cr_assert_str_eq(tx_one(t, "select found_rows()"), "1");
    tx_exec(t, "use mysql");
    cr_assert_str_eq(tx_one(t, "select DATABASE()"), "mysql");
    tx_free(t);
}

Test(plan_expr, time_functions_have_the_right_shape)
{
    tx *t = tx_new();
    const char *now = tx_one(t, "select now()");
    cr_assert_eq(strlen(now), 19, "%s", now);
    cr_assert_eq(now[4], '-');
    cr_assert_eq(now[10], ' ');
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_DATETIME);
    cr_assert_eq(t->cols[0].length, 19);
    cr_assert_eq(strlen(tx_one(t, "select now(3)")), 23);
    cr_assert_eq(t->cols[0].scale, 3);
    cr_assert_eq(strlen(tx_one(t, "select current_timestamp")), 19);
    cr_assert_eq(strlen(tx_one(t, "select current_timestamp()")), 19);
    cr_assert_eq(strlen(tx_one(t, "select sysdate()")), 19);
    cr_assert_eq(strlen(tx_one(t, "select curdate()")), 10);
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_DATE);
    cr_assert_eq(strlen(tx_one(t, "select current_date")), 10);
    cr_assert_eq(strlen(tx_one(t, "select curtime()")), 8);
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_TIME);
    cr_assert_eq(strlen(tx_one(t, "select utc_timestamp()")), 19);
    tx_exec(t, "set time_zone = '+00:00'");
    cr_assert_str_eq(tx_one(t, "select unix_timestamp('1970-01-02 00:00:00') - 0"), "86400");
    cr_assert_str_eq(tx_one(t, "select unix_timestamp() > 1700000000"), "1");
    cr_assert_eq(tx_err(t, "select now(7)"), 1426);
    /* A fixed offset moves NOW() relative to UTC_TIMESTAMP(). */
    tx_exec(t, "set time_zone = '+05:30'");
    cr_assert_str_eq(tx_one(t, "select unix_timestamp('1970-01-01 05:30:00')"), "0");
    cr_assert_str_eq(tx_one(t, "select now() = utc_timestamp()"), "0");
    tx_exec(t, "set time_zone = '+00:00'");
    cr_assert_str_eq(tx_one(t, "select unix_timestamp('1970-01-01 00:00:10')"), "10");
    tx_free(t);
}

Test(plan_expr, user_variables)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select @nosuch"), "NULL");
    cr_assert_str_eq(tx_one(t, "select @a := 5"), "5");
    cr_assert_str_eq(tx_one(t, "select @a"), "5");
    cr_assert_str_eq(tx_one(t, "select @A + 1"), "6");
    cr_assert_eq(tx_exec(t, "set @s = 'str', @d := 1.5, @n = null"), DB_OK);
    cr_assert_str_eq(tx_one(t, "select concat(@s, @d)"), "str1.5");
    cr_assert_str_eq(tx_one(t, "select @n"), "NULL");
    cr_assert_str_eq(tx_one(t, "select @'s'"), "str");
    cr_assert_str_eq(tx_one(t, "select @dt := 'x', @dt"), "x");
    cr_assert_str_eq(tx_cell(t, 0, 1), "x");
    cr_assert_eq(tx_exec(t, "set @s = @s"), DB_OK);
    cr_assert_str_eq(tx_one(t, "select @s"), "str");
    tx_free(t);
}

Test(plan_expr, unknown_function_and_arg_count)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select nosuch(1)"), "ERR 1046 3D000 No database selected");
    tx_exec(t, "use mysql");
    cr_assert_str_eq(tx_one(t, "select nosuch(1)"),
                     "ERR 1305 42000 FUNCTION mysql.nosuch does not exist");
    cr_assert_str_eq(
            tx_one(t, "select CONCAT()"),
            "ERR 1582 42000 Incorrect parameter count in the call to native function 'CONCAT'");
    cr_assert_eq(tx_err(t, "select if(1, 2)"), 1582);
    cr_assert_str_eq(tx_one(t, "select count(*)"), "1"); /* no FROM: one row, as MySQL */
    cr_assert_eq(tx_err(t, "select abs(*)"), 1064);
    cr_assert_str_eq(tx_one(t, "select a"), "ERR 1054 42S22 Unknown column 'a' in 'field list'");
    tx_free(t);
}

Test(plan_expr, column_metadata)
{
    tx *t = tx_new();
    tx_exec(t, "select 1, 'abc', null, 1.5, 1e0, -12, 1 = 1, @@max_allowed_packet, "
               "@@version_comment, cast(1 as decimal(12,2)), 1/3, 18446744073709551615");
    cr_assert_eq(t->ncols, 12);
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_BIGINT);
    cr_assert_eq(t->cols[0].length, 1);
    cr_assert_not(t->cols[0].nullable);
    cr_assert_eq(t->cols[1].type, PLAN_TYPE_VARCHAR);
    cr_assert_eq(t->cols[1].length, 3);
    cr_assert_not(t->cols[1].nullable);
    cr_assert_eq(t->cols[2].type, PLAN_TYPE_NULL);
    cr_assert(t->cols[2].nullable);
    cr_assert_eq(t->cols[3].type, PLAN_TYPE_DECIMAL);
    cr_assert_eq(t->cols[3].precision, 2);
    cr_assert_eq(t->cols[3].scale, 1);
    cr_assert_eq(t->cols[3].length, 4);
    cr_assert_eq(t->cols[4].type, PLAN_TYPE_DOUBLE);
    cr_assert_eq(t->cols[5].length, 3);
    cr_assert_eq(t->cols[6].type, PLAN_TYPE_BIGINT);
    cr_assert_eq(t->cols[6].length, 1);
    cr_assert_eq(t->cols[7].type, PLAN_TYPE_BIGINT);
    cr_assert_eq(t->cols[8].type, PLAN_TYPE_VARCHAR);
    cr_assert_eq(t->cols[9].type, PLAN_TYPE_DECIMAL);
    cr_assert_eq(t->cols[9].precision, 12);
    cr_assert_eq(t->cols[9].scale, 2);
    cr_assert_eq(t->cols[10].type, PLAN_TYPE_DECIMAL);
    cr_assert_eq(t->cols[10].scale, 4);
    cr_assert(t->cols[11].is_unsigned);
    tx_free(t);
}

Test(plan_expr, column_labels_are_the_text_as_written)
{
    tx *t = tx_new();
    tx_exec(t, "select 1 + 2, 'abc', ('abc'), Now( ), @@version_comment, 'x' as al, 3 `b c`, "
               "4 \"dq\", -1, null");
    cr_assert_str_eq(t->cols[0].name, "1 + 2");
    cr_assert_str_eq(t->cols[1].name, "abc");
    cr_assert_str_eq(t->cols[2].name, "('abc')");
    cr_assert_str_eq(t->cols[3].name, "Now( )");
    cr_assert_str_eq(t->cols[4].name, "@@version_comment");
    cr_assert_str_eq(t->cols[5].name, "al");
    cr_assert_str_eq(t->cols[6].name, "b c");
    cr_assert_str_eq(t->cols[7].name, "dq");
    cr_assert_str_eq(t->cols[8].name, "-1");
    cr_assert_str_eq(t->cols[9].name, "NULL");
    tx_free(t);
}

Test(plan_expr, wide_products_do_not_overflow_silently)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "select 18446744073709551615 * 18446744073709551615"), 1690);
    cr_assert_str_eq(tx_one(t, "select 4294967296 * 2147483647"), "9223372032559808512");
    cr_assert_eq(tx_err(t, "select 4294967296 * 4294967295"), 1690);
    cr_assert_eq(tx_err(t, "select 4294967296 * 4294967296"), 1690);
    cr_assert_str_eq(tx_one(t, "select 1.000000000000000000000000000000 / 99999999999999999999"),
                     "0.000000000000000000010000000000");
    tx_free(t);
}
