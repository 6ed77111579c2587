/* SPDX-License-Identifier: Apache-2.0
 * Scalar functions: DATE_FORMAT specifiers, week modes, interval arithmetic across month ends
 * and leap years, base64, CRC32 / SHA2 / murmur3 known vectors, REGEXP, math edge cases; the
 * Doris unit functions (YEARS_ADD ... SECONDS_DIFF), DATE_TRUNC, FORMAT, UUID, POSITION. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_func_int.h"

Test(plan_func, date_format_specifiers)
{
    static const pair p[] = {
            {"select date_format('2024-03-05 13:04:09.5', '%a|%b|%c|%D|%d|%e|%f')",
             "Tue|Mar|3|5th|05|5|500000"},
            {"select date_format('2024-03-05 13:04:09', '%H|%h|%I|%i|%j|%k|%l')",
             "13|01|01|04|065|13|1"},
            {"select date_format('2024-03-05 13:04:09', '%M|%m|%p|%r|%S|%s|%T')",
             "March|03|PM|01:04:09 PM|09|09|13:04:09"},
            {"select date_format('2024-03-05', '%U|%u|%V|%v|%W|%w|%X|%x|%Y|%y|%%|%Q')",
             "09|10|09|10|Tuesday|2|2024|2024|2024|24|%|Q"},
            {"select date_format('2024-01-01 00:30:00', '%l %p')", "12 AM"},
            {"select date_format('2024-01-11', '%D'), 1", "11th"},
            {"select date_format('2024-01-22', '%D')", "22nd"},
            {"select date_format('2021-01-03', '%X-%V %x-%v')", "2021-01 2020-53"},
            {"select date_format(null, '%Y')", "NULL"},
            {"select from_unixtime(86400 * 365, '%Y-%m-%d')", "1971-01-01"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_func, week_modes)
{
    /* 2023-01-01 is a Sunday: MySQL's table of the eight modes. */
    static const char *const want[] = {"1", "0", "1", "52", "1", "0", "1", "52"};
    tx *t = tx_new();
    for (int m = 0; m < 8; m++) {
        char q[64];
        snprintf(q, sizeof q, "select week('2023-01-01', %d)", m);
        cr_expect_str_eq(tx_one(t, q), want[m], "mode %d", m);
    }
    tx_free(t);
    int64_t y;
    cr_expect_eq(plan__calc_week(2021, 1, 3, 3, &y), 53); /* ISO: last week of 2020 */
    cr_expect_eq(y, 2020);
    cr_expect_eq(plan__calc_week(2024, 12, 30, 3, &y), 1);
    cr_expect_eq(y, 2025);
    static const pair p[] = {
            {"select yearweek('2024-12-30')", "202452"}, {"select weekofyear('2020-12-31')", "53"},
            {"select week('2024-12-31')", "52"},         {"select dayofweek('2024-03-05'), 1", "3"},
            {"select weekday('2024-03-05')", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_func, interval_arithmetic)
{
    static const pair p[] = {
            {"select date_add('2024-01-31', interval 1 month)", "2024-02-29"},
            {"select date_add('2023-01-31', interval 1 month)", "2023-02-28"},
            {"select date_add('2024-02-29', interval 1 year)", "2025-02-28"},
            {"select date_add('2024-02-29', interval 4 year)", "2028-02-29"},
            {"select date_sub('2024-03-31', interval 1 month)", "2024-02-29"},
            {"select cast('2024-02-28' as date) + interval 1 day", "2024-02-29"},
            {"select cast('2023-02-28' as date) + interval 1 day", "2023-03-01"},
            {"select interval 1 day + cast('2023-12-31' as date)", "2024-01-01"},
            {"select cast('2024-01-01 00:00:00' as datetime) - interval 1 second",
             "2023-12-31 23:59:59"},
            {"select date_add('2024-01-01', interval '1-2' year_month)", "2025-03-01"},
            {"select date_add('2024-01-01', interval '-1 1' day_hour)", "2023-12-30 23:00:00"},
            {"select date_add('2024-01-01', interval '1.5' second_microsecond)",
             "2024-01-01 00:00:01.500000"},
            {"select date_add('9999-12-31', interval 1 day)", "NULL"},
            {"select date_add('2024-01-01', interval null day)", "NULL"},
            {"select adddate('2024-01-01', 31)", "2024-02-01"},
            {"select timestampadd(month, 1, '2024-01-31')", "2024-02-29"},
            {"select timestampdiff(month, '2024-01-31', '2024-02-29')", "0"},
            {"select timestampdiff(month, '2024-01-29', '2024-02-29')", "1"},
            {"select timestampdiff(year, '2000-02-29', '2024-02-28')", "23"},
            {"select timestampdiff(year, '2000-02-29', '2024-02-29')", "24"},
            {"select datediff('2024-03-01', '2024-02-28')", "2"},
            {"select datediff('2023-03-01', '2023-02-28')", "1"},
            {"select last_day('2024-02-10')", "2024-02-29"},
            {"select last_day('1900-02-10')", "1900-02-28"},
            {"select last_day('2000-02-10')", "2000-02-29"},
            {"select to_days('2024-01-01')", "739251"},
            {"select from_days(739251)", "2024-01-01"},
            {"select makedate(2024, 366)", "2024-12-31"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_func, str_to_date_and_time_zone)
{
    static const pair p[] = {
            {"select str_to_date('05/03/2024', '%d/%m/%Y')", "2024-03-05"},
            {"select str_to_date('March 5 2024 10:30 PM', '%M %e %Y %h:%i %p')",
             "2024-03-05 22:30:00"},
            {"select str_to_date('2024-02-30', '%Y-%m-%d')", "NULL"},
            {"set time_zone = '+08:00'", "<none>"},
            {"select from_unixtime(0)", "1970-01-01 08:00:00"},
            {"select unix_timestamp('1970-01-01 08:00:01')", "1"},
            {"select convert_tz('2024-01-01 12:00:00', '+08:00', '-05:30')", "2023-12-31 22:30:00"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_func, encodings_and_hashes)
{
    static const pair p[] = {
            {"select to_base64('')", ""},
            {"select to_base64('f')", "Zg=="},
            {"select to_base64('fo')", "Zm8="},
            {"select to_base64('foobar')", "Zm9vYmFy"},
            {"select from_base64('Zm9vYmE=')", "fooba"},
            {"select from_base64('Zm9v!')", "NULL"},
            {"select length(to_base64(repeat('x', 57)))", "76"},
            {"select length(to_base64(repeat('x', 58)))", "81"},
            {"select unhex('616')", "\x06\x16"},
            {"select crc32('The quick brown fox jumps over the lazy dog')", "1095738169"},
            {"select crc32('123456789')", "3421780262"},
            {"select sha2('', 256)",
             "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
            {"select sha2('abc', 224)", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
            {"select sha2('abc', 999)", "NULL"},
            {"select md5('')", "d41d8cd98f00b204e9800998ecf8427e"},
            {"select murmur_hash3_64('hello')", "-3215607508166160593"},
            {"select murmur_hash3_64('')", "0"},
            {"select bin(-1) = repeat('1', 64)", "1"},
            {"select conv('-17', 10, -16)", "-11"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    cr_expect_eq(plan__crc32("123456789", 9), 0xCBF43926u);
    cr_expect_eq(plan__murmur3_64("", 0, 0), 0);
}

Test(plan_func, strings_and_regexp)
{
    static const pair p[] = {
            {"select split_part('abc##123###234', '##', -2)", "123#"},
            {"select split_part('a,b,c', ',', 3)", "c"},
            {"select split_part('a,b,c', ',', 4)", "NULL"},
            {"select substring_index('www.mysql.com', '.', -2)", "mysql.com"},
            {"select insert('héllo', 2, 1, 'e')", "hello"},
            {"select field('B', 'a', 'b')", "2"},
            {"select find_in_set('b', 'a,b,c')", "2"},
            {"select 'ABC' regexp '^a'", "1"},
            {"select 'ABC' not regexp '^a'", "0"},
            {"select regexp_like('ABC', '^a', 'c')", "0"},
            {"select regexp_replace('a1b22c', '[0-9]+', '<$0>')", "a<1>b<22>c"},
            {"select regexp_replace('abc', '', '-')", "-a-b-c-"},
            {"select regexp_extract('x=12,y=34', 'y=([0-9]+)', 1)", "34"},
            {"select regexp_extract('x', 'y', 0)", ""},
            {"select regexp_substr('a1b22', '[0-9]+', 1, 2)", "22"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    tx *t = tx_new();
    cr_expect_eq(tx_err(t, "select 'x' regexp '('"), 1139);
    cr_expect_eq(tx_err(t, "select sha2('x')"), 1582);
    cr_expect_eq(tx_err(t, "select date_format('2024-01-01')"), 1582);
    tx_free(t);
}

Test(plan_func, math)
{
    static const pair p[] = {
            {"select ln(1)", "0"},
            {"select log(2, 1024)", "10"},
            {"select log(0)", "NULL"},
            {"select log10(1000)", "3"},
            {"select sign(-0.0001)", "-1"},
            {"select truncate(-1.999, 1)", "-1.9"},
            {"select truncate(1999, -2)", "1900"},
            {"select truncate(123.456, -1)", "120"},
            {"select rand(3) = rand(3)", "1"},
            {"select rand(3)", "0.9057697559760601"},
            {"select degrees(pi())", "180"},
            {"select atan2(0, -1) = pi()", "1"},
            {"select 5 / 0", "NULL"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    tx *t = tx_new();
    cr_expect_eq(tx_err(t, "select 9223372036854775807 + 1"), 1690);
    cr_expect_eq(tx_err(t, "select exp(1000)"), 1690);
    tx_free(t);
}

Test(plan_func, doris_unit_functions)
{
    static const pair p[] = {
            {"select months_add('2024-01-31', 1)", "2024-02-29"},
            {"select months_sub('2024-03-31', 1)", "2024-02-29"},
            {"select years_add('2024-02-29', 1)", "2025-02-28"},
            {"select weeks_sub('2024-03-04', 1)", "2024-02-26"},
            {"select days_add('2024-12-31 23:59:59', 1)", "2025-01-01 23:59:59"},
            {"select hours_add(cast('2024-01-01' as date), -1)", "2023-12-31 23:00:00"},
            {"select seconds_add('2024-01-01 00:00:00.5', 1)", "2024-01-01 00:00:01.5"},
            {"select years_add('9999-01-01', 1)", "NULL"},
            {"select months_add(null, 1)", "NULL"},
            /* xxx_DIFF(end, start), truncated toward zero */
            {"select years_diff('2024-03-01', '2023-03-02')", "0"},
            {"select years_diff('2023-03-01', '2024-03-01')", "-1"},
            {"select months_diff('2024-02-29', '2024-01-31')", "0"},
            {"select weeks_diff('2024-01-15', '2024-01-01')", "2"},
            {"select days_diff('2024-01-01', '2024-01-02 00:00:01')", "-1"},
            {"select hours_diff('2024-01-01 08:30:00', '2024-01-01 10:00:00')", "-1"},
            {"select seconds_diff('2024-01-01', '2023-12-31 23:59:00')", "60"},
            {"select nvl(null, 3)", "3"},
            {"select to_date('2024-03-05 10:11:12')", "2024-03-05"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    tx *t = tx_new();
    cr_expect_eq(tx_err(t, "select days_add('2024-01-01')"), 1582);
    cr_expect_eq(tx_err(t, "select years_diff('2024-01-01', '2023-01-01', 1)"), 1582);
    tx_free(t);
}

Test(plan_func, date_trunc_units)
{
    /* 2024-05-16 is a Thursday; 2024-05-19 a Sunday; 1970-01-01 (the epoch) a Thursday */
    static const pair p[] = {
            {"select date_trunc('2024-05-16 12:34:56', 'second')", "2024-05-16 12:34:56"},
            {"select date_trunc('2024-05-16 12:34:56', 'minute')", "2024-05-16 12:34:00"},
            {"select date_trunc('2024-05-16 12:34:56', 'hour')", "2024-05-16 12:00:00"},
            {"select date_trunc('2024-05-16 12:34:56', 'day')", "2024-05-16 00:00:00"},
            {"select date_trunc('2024-05-16 12:34:56', 'week')", "2024-05-13 00:00:00"},
            {"select date_trunc('2024-05-19 23:59:59', 'week')", "2024-05-13 00:00:00"},
            {"select date_trunc('1969-12-31 10:00:00', 'week')", "1969-12-29 00:00:00"},
            {"select date_trunc('1970-01-05 00:00:00', 'week')", "1970-01-05 00:00:00"},
            {"select date_trunc('2024-05-16 12:34:56', 'month')", "2024-05-01 00:00:00"},
            {"select date_trunc('2024-12-16 12:34:56', 'quarter')", "2024-10-01 00:00:00"},
            {"select date_trunc('2024-05-16 12:34:56', 'YEAR')", "2024-01-01 00:00:00"},
            {"select date_trunc(cast('2024-03-31' as date), 'quarter')", "2024-01-01"},
            {"select date_trunc('month', cast('2024-03-31' as date))", "2024-03-01"},
            {"select date_trunc('2024-05-16 12:34:56.75', 'second')", "2024-05-16 12:34:56.00"},
            {"select date_trunc('0000-01-01 10:00:00', 'week')", "NULL"},
            {"select date_trunc(null, 'day')", "NULL"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    tx *t = tx_new();
    cr_expect_eq(tx_err(t, "select date_trunc('2024-01-01', 'fortnight')"), 1105);
    tx_free(t);
}

Test(plan_func, format_uuid_position)
{
    static const pair p[] = {
            {"select format(12332.123456, 4)", "12,332.1235"},
            {"select format(12332.2, 0)", "12,332"},
            {"select format(-1234567.891, 2)", "-1,234,567.89"},
            {"select format(-0.005, 2)", "-0.01"},
            {"select format(0.5, 0)", "1"},
            {"select format(2.5e0, 0)", "2"},
            {"select format(123, -2)", "123"},
            {"select format(100, 3)", "100.000"},
            {"select format(999999, 0)", "999,999"},
            {"select format(18446744073709551615, 0)", "18,446,744,073,709,551,615"},
            {"select format(null, 1)", "NULL"},
            {"select length(uuid())", "36"},
            {"select substr(uuid(), 15, 1)", "4"},
            {"select uuid() = uuid()", "0"},
            {"select position('na' in 'banana')", "3"},
            {"select position('x' in ('abc'))", "0"},
            {"select position('1' in concat(1 in (1, 2), 'x'))", "1"},
            {"select null_or_empty(''), 1", "1"},
            {"select not_null_or_empty(' ')", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

/* EXTRACT(unit FROM x): a signed BIGINT with MySQL 8's display width per unit. */
Test(plan_func, extract_types_and_values)
{
    static const struct {
        const char *unit;
        uint32_t len;
        const char *want; /* from '2019-07-02 01:02:03.456789' */
    } u[] = {
            {"YEAR", 4, "2019"},
            {"YEAR_MONTH", 6, "201907"},
            {"QUARTER", 2, "3"},
            {"MONTH", 2, "7"},
            {"WEEK", 2, "26"},
            {"DAY", 2, "2"},
            {"DAY_HOUR", 9, "201"},
            {"DAY_MINUTE", 11, "20102"},
            {"DAY_SECOND", 13, "2010203"},
            {"DAY_MICROSECOND", 20, "2010203456789"},
            {"HOUR", 2, "1"},
            {"HOUR_MINUTE", 4, "102"},
            {"HOUR_SECOND", 6, "10203"},
            {"HOUR_MICROSECOND", 13, "10203456789"},
            {"MINUTE", 2, "2"},
            {"MINUTE_SECOND", 4, "203"},
            {"MINUTE_MICROSECOND", 11, "203456789"},
            {"SECOND", 2, "3"},
            {"SECOND_MICROSECOND", 9, "3456789"},
            {"MICROSECOND", 2, "456789"},
    };
    tx *t = tx_new();
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        char q[128];
        snprintf(q, sizeof q, "select extract(%s from '2019-07-02 01:02:03.456789')", u[i].unit);
        cr_expect_str_eq(tx_one(t, q), u[i].want, "%s", u[i].unit);
        cr_expect_eq(t->cols[0].type, PLAN_TYPE_BIGINT, "%s", u[i].unit);
        cr_expect_eq(t->cols[0].length, u[i].len, "%s: length %u", u[i].unit, t->cols[0].length);
        cr_expect(t->cols[0].nullable);
        cr_expect(!t->cols[0].is_unsigned);
    }
    tx_free(t);
    static const pair p[] = {
            /* a TIME is a duration: hours are not split into days (MySQL 8) */
            {"select extract(day_hour from time '-26:30:00')", "-26"},
            {"select extract(hour_minute from '838:59:59')", "83859"},
            {"select extract(minute from -101112.25)", "-11"},
            {"select extract(year from null)", "NULL"},
            {"select extract(day from 'abc')", "NULL"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}
