/* SPDX-License-Identifier: Apache-2.0
 * Prepared statements: plan_prepare / plan_execute_prepared / plan_close_prepared (placeholder
 * numbering, metadata at prepare and at execute, no side effects at prepare, every bound kind,
 * numeric comparison of DOUBLE parameters, errors, lifetime) and SQL PREPARE / EXECUTE /
 * DEALLOCATE PREPARE. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mem.h"
#include "plan_testutil.h"

static plan_param p_int(int64_t i);
static plan_param p_uint(uint64_t u);
static plan_param p_double(double d);
static plan_param p_text(plan_param_kind kind, const char *s);
static plan_param p_null(void);
static uint32_t must_prepare(tx *t, const char *sql, uint16_t want_params);
static uint64_t questions(tx *t);

static plan_param
p_int(int64_t i)
{
    plan_param p = {.kind = PLAN_PARAM_INT, .i = i};
    return p;
}

static plan_param
p_uint(uint64_t u)
{
    plan_param p = {.kind = PLAN_PARAM_UINT, .u = u};
    return p;
}

static plan_param
p_double(double d)
{
    plan_param p = {.kind = PLAN_PARAM_DOUBLE, .d = d};
    return p;
}

/* s is not NUL-terminated from the planner's point of view: only len counts. */
static plan_param
p_text(plan_param_kind kind, const char *s)
{
    plan_param p = {.kind = kind, .s = s, .len = strlen(s)};
    return p;
}

static plan_param
p_null(void)
{
    plan_param p = {.kind = PLAN_PARAM_NULL};
    return p;
}

static uint32_t
must_prepare(tx *t, const char *sql, uint16_t want_params)
{
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, sql, &id, &np), DB_OK, "prepare %s: %d %s", sql, t->err.code,
                 t->err.msg);
    cr_assert_neq(id, 0);
    cr_assert_eq(np, want_params, "%s: %u placeholders", sql, np);
    return id;
}

static uint64_t
questions(tx *t)
{
    cr_assert_eq(tx_exec(t, "show status like 'Questions'"), DB_OK);
    return strtoull(tx_cell(t, 0, 1), NULL, 10);
}

Test(plan_prepare, placeholders_are_counted_in_source_order)
{
    tx *t = tx_new();
    must_prepare(t, "select 1", 0);
    must_prepare(t, "select ? /* ? */, '?' -- ?\n + ?, 1 as `a?`", 2);
    uint32_t id = must_prepare(t, "select ? - ?, concat(?, ?)", 4);
    plan_param ps[4] = {p_int(10), p_int(3), p_text(PLAN_PARAM_STRING, "a"),
                        p_text(PLAN_PARAM_STRING, "b")};
    cr_assert_eq(tx_exec_prepared(t, id, ps, 4), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "7");
    cr_assert_str_eq(tx_cell(t, 0, 1), "ab");
    /* Placeholders deep in an expression and in WHERE are numbered the same way. */
    id = must_prepare(t, "select if(? > 0, ?, 'neg') from dual where ? = 1", 3);
    plan_param qs[3] = {p_int(-1), p_text(PLAN_PARAM_STRING, "pos"), p_int(1)};
    cr_assert_eq(tx_exec_prepared(t, id, qs, 3), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "neg");
    qs[2] = p_int(2);
    cr_assert_eq(tx_exec_prepared(t, id, qs, 3), DB_OK);
    cr_assert_eq(t->nrows, 0);
    tx_free(t);
}

Test(plan_prepare, placeholder_is_a_syntax_error_in_text_queries)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select ? + 1"),
                     "ERR 1064 42000 You have an error in your SQL syntax; check the manual that "
                     "corresponds to your MySQL server version for the right syntax to use near "
                     "'? + 1' at line 1");
    tx_free(t);
}

Test(plan_prepare, too_many_placeholders)
{
    tx *t = tx_new();
    size_t n = 65536;
    char *sql = mem_alloc(8 + 2 * n);
    size_t len = (size_t)sprintf(sql, "select ?");
    for (size_t i = 1; i < n; i++) {
        memcpy(sql + len, ",?", 2);
        len += 2;
    }
    sql[len] = '\0';
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, sql, &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1390);
    cr_assert_str_eq(t->err.msg, "Prepared statement contains too many placeholders");
    sql[len - 2] = '\0'; /* 65535 is the limit */
    cr_assert_eq(tx_prepare(t, sql, &id, &np), DB_OK);
    cr_assert_eq(np, 65535);
    mem_free(sql);
    tx_free(t);
}

Test(plan_prepare, metadata_at_prepare)
{
    tx *t = tx_new();
    must_prepare(t, "select ? as p, 1 + 1 as two, 'x', ?", 2);
    cr_assert_eq(t->ncols, 4);
    cr_assert_str_eq(t->cols[0].name, "p");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_VARCHAR);
    cr_assert(t->cols[0].nullable);
    cr_assert_str_eq(t->cols[1].name, "two");
    cr_assert_eq(t->cols[1].type, PLAN_TYPE_BIGINT);
    cr_assert_not(t->cols[1].nullable);
    cr_assert_str_eq(t->cols[2].name, "x");
    cr_assert_eq(t->cols[2].type, PLAN_TYPE_VARCHAR);
    cr_assert_str_eq(t->cols[3].name, "?");
    /* Statements without a result set describe no columns. */
    const char *none[] = {"set @x = ?", "set autocommit = ?", "use mysql",         "begin",
                          "commit",     "rollback",           "set names utf8mb4", "kill query ?"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        uint32_t id;
        uint16_t np;
        cr_assert_eq(tx_prepare(t, none[i], &id, &np), DB_OK, "%s: %s", none[i], t->err.msg);
        cr_assert_eq(t->ncols, 0, "%s", none[i]);
    }
    tx_free(t);
}

Test(plan_prepare, nothing_runs_at_prepare)
{
    tx *t = tx_new();
    uint64_t q0 = questions(t);
    uint32_t sel = must_prepare(t, "select @a := 1, @b := ?", 1);
    uint32_t set = must_prepare(t, "set @c = 5, autocommit = 0", 0);
    uint32_t beg = must_prepare(t, "begin", 0);
    uint32_t use = must_prepare(t, "use mysql", 0);
    cr_assert_eq(questions(t), q0 + 1, "prepares are not Questions");
    cr_assert_str_eq(tx_one(t, "select @a"), "NULL");
    cr_assert_str_eq(tx_one(t, "select @b"), "NULL");
    cr_assert_str_eq(tx_one(t, "select @c"), "NULL");
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "1");
    cr_assert_eq(plan_session_status(t->s) & 1, 0);
    cr_assert_null(plan_session_db(t->s));

    plan_param b = p_text(PLAN_PARAM_STRING, "bee");
    q0 = questions(t);
    cr_assert_eq(tx_exec_prepared(t, sel, &b, 1), DB_OK);
    cr_assert_eq(questions(t), q0 + 2, "an execution is a Question");
    cr_assert_eq(tx_exec_prepared(t, set, NULL, 0), DB_OK);
    cr_assert_not(t->out.is_result_set);
    cr_assert_eq(tx_exec_prepared(t, beg, NULL, 0), DB_OK);
    cr_assert_eq(tx_exec_prepared(t, use, NULL, 0), DB_OK);
    cr_assert_str_eq(tx_one(t, "select @a"), "1");
    cr_assert_str_eq(tx_one(t, "select @b"), "bee");
    cr_assert_str_eq(tx_one(t, "select @c"), "5");
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "0");
    cr_assert_eq(plan_session_status(t->s) & 1, 1);
    cr_assert_str_eq(plan_session_db(t->s), "mysql");
    tx_free(t);
}

Test(plan_prepare, errors_at_prepare)
{
    tx *t = tx_new();
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, "selec ?", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1064);
    cr_assert_eq(tx_prepare(t, "select @@nosuch, ?", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1193);
    cr_assert_eq(tx_prepare(t, "set @@nosuch = ?", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1193);
    cr_assert_eq(tx_prepare(t, "select ? from t", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1046);
    cr_assert_eq(tx_prepare(t, "select a from information_schema.nosuch where a = ?", &id, &np),
                 DB_ERR);
    cr_assert_eq(t->err.code, 1146);
    cr_assert_eq(tx_prepare(t, "", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1065);
    cr_assert_eq(tx_prepare(t, "prepare s from 'select 1'", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1295);
    cr_assert_str_eq(t->err.msg,
                     "This command is not supported in the prepared statement protocol yet");
    cr_assert_eq(tx_prepare(t, "execute s", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1295);
    cr_assert_eq(tx_prepare(t, "deallocate prepare s", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1295);
    /* The failure is the statement's diagnostics, as for plan_execute. */
    cr_assert_eq(tx_exec(t, "show warnings"), DB_OK);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "1295");
    /* Nothing was kept: the first successful prepare gets id 1. */
    cr_assert_eq(must_prepare(t, "select 1", 0), 1);
    tx_free(t);
}

Test(plan_prepare, binds_every_kind)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select ?", 1);
    struct {
        plan_param p;
        const char *text;
        plan_type type;
    } cases[] = {
            {p_int(-5), "-5", PLAN_TYPE_BIGINT},
            {p_int(INT64_MIN), "-9223372036854775808", PLAN_TYPE_BIGINT},
            {p_uint(UINT64_MAX), "18446744073709551615", PLAN_TYPE_BIGINT},
            {p_double(1.5), "1.5", PLAN_TYPE_DOUBLE},
            {p_double(1e300), "1e300", PLAN_TYPE_DOUBLE},
            {p_text(PLAN_PARAM_DECIMAL, "-12.50"), "-12.50", PLAN_TYPE_DECIMAL},
            {p_text(PLAN_PARAM_STRING, "h\xc3\xa9llo"), "h\xc3\xa9llo", PLAN_TYPE_VARCHAR},
            {p_text(PLAN_PARAM_STRING, ""), "", PLAN_TYPE_VARCHAR},
            {p_text(PLAN_PARAM_DATE, "2024-02-29"), "2024-02-29", PLAN_TYPE_DATE},
            {p_text(PLAN_PARAM_DATETIME, "2024-02-29 13:14:15.25"), "2024-02-29 13:14:15.25",
             PLAN_TYPE_DATETIME},
            {p_text(PLAN_PARAM_DATETIME, "1999-12-31 23:59:59"), "1999-12-31 23:59:59",
             PLAN_TYPE_DATETIME},
            {p_text(PLAN_PARAM_TIME, "-01:02:03"), "-01:02:03", PLAN_TYPE_TIME},
            {p_text(PLAN_PARAM_TIME, "838:59:59.5"), "838:59:59.5", PLAN_TYPE_TIME},
            {p_null(), "NULL", PLAN_TYPE_NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_assert_eq(tx_exec_prepared(t, id, &cases[i].p, 1), DB_OK, "case %zu: %s", i, t->err.msg);
        cr_assert(t->out.is_result_set);
        cr_assert_eq(t->ncols, 1);
        cr_assert_str_eq(tx_cell(t, 0, 0), cases[i].text, "case %zu", i);
        cr_assert_eq(t->cols[0].type, cases[i].type, "case %zu: type %d", i, t->cols[0].type);
    }
    /* Metadata details of this execution. */
    plan_param u = p_uint(7);
    tx_exec_prepared(t, id, &u, 1);
    cr_assert(t->cols[0].is_unsigned);
    plan_param d = p_text(PLAN_PARAM_DECIMAL, "-12.50");
    tx_exec_prepared(t, id, &d, 1);
    cr_assert_eq(t->cols[0].scale, 2);
    cr_assert_eq(t->cols[0].precision, 4);
    plan_param dt = p_text(PLAN_PARAM_DATETIME, "2024-02-29 13:14:15.25");
    tx_exec_prepared(t, id, &dt, 1);
    cr_assert_eq(t->cols[0].scale, 2);
    /* Dates and times are temporal values, not strings. */
    uint32_t fn = must_prepare(t, "select ? + 0, ? = '2024-02-28 10:00', ? + 0", 3);
    plan_param dd[3] = {p_text(PLAN_PARAM_DATE, "2024-02-29"),
                        p_text(PLAN_PARAM_DATETIME, "2024-02-28 10:00:00"),
                        p_text(PLAN_PARAM_TIME, "10:11:12")};
    cr_assert_eq(tx_exec_prepared(t, fn, dd, 3), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "20240229");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1");
    cr_assert_str_eq(tx_cell(t, 0, 2), "101112");
    /* An invalid DATE text stays a string. */
    plan_param bad = p_text(PLAN_PARAM_DATE, "2024-13-45");
    cr_assert_eq(tx_exec_prepared(t, id, &bad, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "2024-13-45");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_VARCHAR);
    /* Non-finite doubles are refused. */
    plan_param inf = p_double(1.0 / 0.0);
    cr_assert_eq(tx_exec_prepared(t, id, &inf, 1), DB_ERR);
    cr_assert_eq(t->err.code, 1367);
    tx_free(t);
}

Test(plan_prepare, double_plus_one_is_42)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select ? + 1", 1);
    plan_param p = p_double(41.0);
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "42");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_DOUBLE);
    p = p_int(41);
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "42");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_BIGINT);
    p = p_text(PLAN_PARAM_STRING, "41");
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "42");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_DOUBLE);
    p = p_text(PLAN_PARAM_DECIMAL, "41.5");
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "42.5");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_DECIMAL);
    tx_free(t);
}

Test(plan_prepare, double_param_compares_numerically_with_integers)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select 42 = ?, ? = 42, ? < 43, ? in (1, 42)", 4);
    plan_param ps[4] = {p_double(42.0), p_double(42.0), p_double(42.0), p_double(42.0)};
    cr_assert_eq(tx_exec_prepared(t, id, ps, 4), DB_OK, "%s", t->err.msg);
    for (size_t i = 0; i < 4; i++) {
        cr_assert_str_eq(tx_cell(t, 0, i), "1", "column %zu", i);
    }
    for (size_t i = 0; i < 4; i++) {
        ps[i] = p_double(42.5);
    }
    cr_assert_eq(tx_exec_prepared(t, id, ps, 4), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "0");
    cr_assert_str_eq(tx_cell(t, 0, 1), "0");
    cr_assert_str_eq(tx_cell(t, 0, 2), "1");
    cr_assert_str_eq(tx_cell(t, 0, 3), "0");
    /* WHERE id = ? with a JavaScript number. */
    uint32_t w = must_prepare(t, "select 'hit' from dual where 5 = ?", 1);
    plan_param p = p_double(5.0);
    cr_assert_eq(tx_exec_prepared(t, w, &p, 1), DB_OK);
    cr_assert_eq(t->nrows, 1);
    p = p_double(5.000001);
    cr_assert_eq(tx_exec_prepared(t, w, &p, 1), DB_OK);
    cr_assert_eq(t->nrows, 0);
    tx_free(t);
}

Test(plan_prepare, string_param_is_a_string_literal)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select ? = 'ABC', concat(?, 'x'), length(?)", 3);
    plan_param ps[3] = {p_text(PLAN_PARAM_STRING, "abc"),
                        p_text(PLAN_PARAM_STRING, "it's' or 1=1 -- "),
                        p_text(PLAN_PARAM_STRING, "?")};
    cr_assert_eq(tx_exec_prepared(t, id, ps, 3), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    cr_assert_str_eq(tx_cell(t, 0, 1), "it's' or 1=1 -- x");
    cr_assert_str_eq(tx_cell(t, 0, 2), "1");
    /* Only len counts: bytes after it are not part of the value. */
    plan_param cut = {.kind = PLAN_PARAM_STRING, .s = "abcdef", .len = 3};
    uint32_t one = must_prepare(t, "select ?", 1);
    cr_assert_eq(tx_exec_prepared(t, one, &cut, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "abc");
    cr_assert_eq(t->cols[0].length, 3);
    tx_free(t);
}

Test(plan_prepare, null_param)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select ? is null, coalesce(?, 'd'), ? + 1", 3);
    plan_param ps[3] = {p_null(), p_null(), p_null()};
    cr_assert_eq(tx_exec_prepared(t, id, ps, 3), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    cr_assert_str_eq(tx_cell(t, 0, 1), "d");
    cr_assert_str_eq(tx_cell(t, 0, 2), "NULL");
    tx_free(t);
}

Test(plan_prepare, reexecution_with_other_values_and_types)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select ?", 1);
    plan_param p = p_int(1);
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_BIGINT);
    p = p_text(PLAN_PARAM_STRING, "x");
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "x");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_VARCHAR);
    p = p_double(2.5);
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "2.5");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_DOUBLE);
    /* Session state is read at execution, not at prepare. */
    uint32_t v = must_prepare(t, "select @v", 0);
    tx_exec(t, "set @v = 10");
    cr_assert_eq(tx_exec_prepared(t, v, NULL, 0), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "10");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_BIGINT);
    tx_exec(t, "set @v = 'ten'");
    cr_assert_eq(tx_exec_prepared(t, v, NULL, 0), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "ten");
    tx_free(t);
}

Test(plan_prepare, warnings_and_errors_are_recorded_as_for_plan_execute)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select cast(? as signed)", 1);
    plan_param p = p_text(PLAN_PARAM_STRING, "12abc");
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "12");
    cr_assert_eq(plan_session_warning_count(t->s), 1);
    cr_assert_eq(tx_exec(t, "show warnings"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 1), "1292");
    p = p_text(PLAN_PARAM_STRING, "12");
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_eq(plan_session_warning_count(t->s), 0);
    uint32_t bad = must_prepare(t, "select 9223372036854775807 + ?", 1);
    p = p_int(1);
    cr_assert_eq(tx_exec_prepared(t, bad, &p, 1), DB_ERR);
    cr_assert_eq(t->err.code, 1690);
    cr_assert_eq(tx_exec(t, "show errors"), DB_OK);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "1690");
    tx_free(t);
}

Test(plan_prepare, unknown_id)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec_prepared(t, 999, NULL, 0), DB_ERR);
    cr_assert_eq(t->err.code, 1243);
    cr_assert_str_eq(t->err.msg,
                     "Unknown prepared statement handler (999) given to mysqld_stmt_execute");
    cr_assert_eq(tx_exec_prepared(t, 0, NULL, 0), DB_ERR);
    cr_assert_eq(t->err.code, 1243);
    cr_assert_eq(tx_exec(t, "show warnings"), DB_OK);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "1243");
    tx_free(t);
}

Test(plan_prepare, wrong_param_count)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "select ?, ?", 2);
    plan_param ps[3] = {p_int(1), p_int(2), p_int(3)};
    cr_assert_eq(tx_exec_prepared(t, id, ps, 1), DB_ERR);
    cr_assert_eq(t->err.code, 1210);
    cr_assert_str_eq(t->err.msg, "Incorrect arguments to mysqld_stmt_execute");
    cr_assert_eq(tx_exec_prepared(t, id, ps, 3), DB_ERR);
    cr_assert_eq(t->err.code, 1210);
    cr_assert_eq(tx_exec_prepared(t, id, ps, 2), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 1), "2");
    tx_free(t);
}

Test(plan_prepare, ids_and_close)
{
    tx *t = tx_new();
    uint32_t a = must_prepare(t, "select 'a'", 0);
    uint32_t b = must_prepare(t, "select 'b'", 0);
    uint32_t c = must_prepare(t, "select 'c'", 0);
    cr_assert_eq(a, 1);
    cr_assert_eq(b, 2);
    cr_assert_eq(c, 3);
    plan_close_prepared(t->s, b);
    plan_close_prepared(t->s, b);   /* already gone: ignored */
    plan_close_prepared(t->s, 777); /* unknown: ignored */
    cr_assert_eq(tx_exec_prepared(t, b, NULL, 0), DB_ERR);
    cr_assert_eq(t->err.code, 1243);
    cr_assert_eq(tx_exec_prepared(t, a, NULL, 0), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "a");
    cr_assert_eq(tx_exec_prepared(t, c, NULL, 0), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "c");
    /* Ids are never reused. */
    cr_assert_eq(must_prepare(t, "select 'd'", 0), 4);
    tx_free(t);
}

Test(plan_prepare, many_statements)
{
    tx *t = tx_new();
    uint32_t ids[300];
    for (size_t i = 0; i < 300; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "select %zu + ?", i);
        ids[i] = must_prepare(t, sql, 1);
    }
    for (size_t i = 0; i < 300; i += 2) {
        plan_close_prepared(t->s, ids[i]);
    }
    for (size_t i = 1; i < 300; i += 2) {
        plan_param p = p_int(1000);
        cr_assert_eq(tx_exec_prepared(t, ids[i], &p, 1), DB_OK);
        char want[16];
        snprintf(want, sizeof want, "%zu", i + 1000);
        cr_assert_str_eq(tx_cell(t, 0, 0), want);
    }
    tx_free(t); /* frees the open ones (ASan checks for leaks) */
}

Test(plan_prepare, reset_forgets_all)
{
    tx *t = tx_new();
    uint32_t a = must_prepare(t, "select 1", 0);
    uint32_t b = must_prepare(t, "select ?", 1);
    tx_exec(t, "prepare s from 'select 2'");
    plan_session_reset(t->s, NULL, NULL);
    cr_assert_eq(tx_exec_prepared(t, a, NULL, 0), DB_ERR);
    cr_assert_eq(t->err.code, 1243);
    plan_param p = p_int(1);
    cr_assert_eq(tx_exec_prepared(t, b, &p, 1), DB_ERR);
    cr_assert_eq(t->err.code, 1243);
    cr_assert_eq(tx_err(t, "execute s"), 1243);
    /* New ids after a reset do not reuse old ones. */
    cr_assert_gt(must_prepare(t, "select 3", 0), b);
    tx_free(t);
}

Test(plan_prepare, show_variables_prepared)
{
    tx *t = tx_new();
    uint32_t id = must_prepare(t, "show variables like 'autocommit'", 0);
    cr_assert_eq(t->ncols, 2);
    cr_assert_str_eq(t->cols[0].name, "Variable_name");
    cr_assert_str_eq(t->cols[1].name, "Value");
    cr_assert_eq(t->cols[1].type, PLAN_TYPE_VARCHAR);
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK);
    cr_assert(t->out.is_result_set);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "ON");
    uint32_t w = must_prepare(t, "show session variables where Variable_name = ?", 1);
    cr_assert_eq(t->ncols, 2);
    plan_param p = p_text(PLAN_PARAM_STRING, "sql_select_limit");
    cr_assert_eq(tx_exec_prepared(t, w, &p, 1), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "18446744073709551615");
    /* Other SHOW statements describe their fixed columns. */
    must_prepare(t, "show warnings", 0);
    cr_assert_eq(t->ncols, 3);
    cr_assert_str_eq(t->cols[2].name, "Message");
    must_prepare(t, "show collation", 0);
    cr_assert_eq(t->ncols, 6);
    must_prepare(t, "show status", 0);
    cr_assert_eq(t->ncols, 2);
    must_prepare(t, "show full processlist", 0);
    cr_assert_eq(t->ncols, 8);
    must_prepare(t, "show databases", 0);
    cr_assert_eq(t->ncols, 1);
    cr_assert_str_eq(t->cols[0].name, "Database");
    tx_free(t);
}

/* Connector/ODBC 3.1's SQLColumns text (docs/design/clients/catalog_queries.md), sent through
 * COM_STMT_PREPARE: the prepare describes its 18 columns and runs none of its @dt:=
 * assignments; executions run (test_select_from.c checks the rows of this text for a table
 * that exists). */
Test(plan_prepare, odbc_sqlcolumns_query)
{
    tx *t = tx_new();
    const char *sql =
            "SELECT TABLE_SCHEMA AS TABLE_CAT, NULL AS TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, CASE "
            "DATA_TYPE  WHEN 'bit' THEN @dt:= IF(NUMERIC_PRECISION=1,(-7), (-2))  WHEN 'tinyint' "
            "THEN @dt:=(-6)  WHEN 'smallint' THEN @dt:=5  WHEN 'year' THEN @dt:= 5  WHEN "
            "'mediumint' THEN @dt:=4  WHEN 'int' THEN @dt:=4  WHEN 'bigint' THEN @dt:=(-5)  WHEN "
            "'blob' THEN @dt:=(-4)  WHEN 'tinyblob' THEN @dt:=(-4)  WHEN 'mediumblob' THEN "
            "@dt:=(-4)  WHEN 'longblob' THEN @dt:=(-4)  WHEN 'decimal' THEN @dt:=3  WHEN 'float' "
            "THEN @dt:=IF(NUMERIC_SCALE IS NULL,7, 3)  WHEN 'double' THEN @dt:=IF(NUMERIC_SCALE IS "
            "NULL,8, 3)  WHEN 'binary' THEN @dt:=(-2)  WHEN 'varbinary' THEN @dt:=(-3)  WHEN "
            "'text' THEN @dt:=(-10)  WHEN 'tinytext' THEN @dt:=(-10)  WHEN 'mediumtext' THEN "
            "@dt:=(-10)  WHEN 'longtext' THEN @dt:=(-10)  WHEN 'char' THEN @dt:=(-8)  WHEN 'enum' "
            "THEN @dt:=(-8)  WHEN 'set' THEN @dt:=(-8)  WHEN 'varchar' THEN @dt:=(-9)  WHEN 'date' "
            "THEN @dt:=9  WHEN 'time' THEN @dt:=10  WHEN 'datetime' THEN @dt:=11  WHEN "
            "'timestamp' THEN @dt:=11  ELSE @dt:=(-4)END AS DATA_TYPE, UCASE(IF(COLUMN_TYPE LIKE "
            "'%(%)%',  CONCAT(SUBSTRING(COLUMN_TYPE,1, LOCATE('(',COLUMN_TYPE) - 1 ), "
            "SUBSTRING(COLUMN_TYPE,1+locate(')',COLUMN_TYPE))), COLUMN_TYPE )) AS TYPE_NAME, "
            "CAST(CASE  WHEN DATA_TYPE = 'bit' THEN @ColSize:=((NUMERIC_PRECISION + 7) / 8)   "
            "WHEN DATA_TYPE in ('tinyint', 'smallint', 'mediumint', 'int','bigint', 'decimal') "
            "THEN @ColSize:=NUMERIC_PRECISION   WHEN DATA_TYPE = 'float' THEN if(NUMERIC_SCALE IS "
            "NULL, @ColSize:=7, @ColSize:=NUMERIC_PRECISION)  WHEN DATA_TYPE = 'double' THEN "
            "if(NUMERIC_SCALE IS NULL, @ColSize:=15, @ColSize:=NUMERIC_PRECISION)  WHEN DATA_TYPE "
            "= 'date' THEN @ColSize:=10  WHEN DATA_TYPE = 'time' THEN @ColSize:=8  WHEN DATA_TYPE "
            "= 'year' THEN @ColSize:=4  WHEN DATA_TYPE in ('timestamp', 'datetime') THEN "
            "@ColSize:=19   ELSE @ColSize:=CHARACTER_MAXIMUM_LENGTH END AS UNSIGNED) AS "
            "COLUMN_SIZE,@tol:=CAST(CASE @dt  WHEN (-7) THEN 1   WHEN (-6) THEN 1   WHEN 5 THEN "
            "2   WHEN 4 THEN IF(DATA_TYPE='mediumint',3,4)   WHEN (-5) THEN 20   WHEN 7 THEN 4   "
            "WHEN 6 THEN 8   WHEN 8 THEN 8   WHEN 9 THEN 6   WHEN 91 THEN 6   WHEN 10 THEN 6   "
            "WHEN 92 THEN 6   WHEN 11 THEN 16   WHEN 93 THEN 16   WHEN (-11) THEN 16   WHEN 3 "
            "THEN @ColSize + IF(COLUMN_TYPE LIKE '%unsigned',1,2)   WHEN (-2) THEN "
            "IF(DATA_TYPE='bit', CAST(((NUMERIC_PRECISION + 7) / 8) AS SIGNED), "
            "CHARACTER_OCTET_LENGTH)   WHEN (-3) THEN CHARACTER_OCTET_LENGTH   WHEN (-4) THEN "
            "CHARACTER_OCTET_LENGTH   ELSE CHARACTER_MAXIMUM_LENGTH*4 END AS SIGNED) AS "
            "BUFFER_LENGTH, NUMERIC_SCALE DECIMAL_DIGITS, IF(CHARACTER_OCTET_LENGTH IS NOT NULL, "
            "NULL, 10) AS NUM_PREC_RADIX,IF(DATA_TYPE='timestamp', 1, "
            "IF(IS_NULLABLE='YES',1,IF(EXTRA='auto_increment', 1, 0))) AS NULLABLE, "
            "COLUMN_COMMENT AS REMARKS,COLUMN_DEFAULT AS COLUMN_DEF,CAST(CASE  WHEN DATA_TYPE = "
            "'date' THEN 9  WHEN DATA_TYPE = 'time' THEN 9  WHEN DATA_TYPE = 'datetime' THEN 9  "
            "WHEN DATA_TYPE = 'timestamp' THEN 9 ELSE @dt END AS SIGNED) SQL_DATA_TYPE,CAST(CASE  "
            "WHEN DATA_TYPE = 'date' THEN 1  WHEN DATA_TYPE = 'time' THEN 2  WHEN DATA_TYPE = "
            "'datetime' THEN 3  WHEN DATA_TYPE = 'timestamp' THEN 3 ELSE NULL END AS SIGNED) "
            "SQL_DATETIME_SUB,IF(CHARACTER_OCTET_LENGTH IS NOT NULL, @tol, IF(DATA_TYPE='bit' AND "
            "NUMERIC_PRECISION =1, NULL, CAST((NUMERIC_PRECISION + 7)/8 AS SIGNED))) AS "
            "CHAR_OCTET_LENGTH, ORDINAL_POSITION,IF(DATA_TYPE='timestamp', 'YES', "
            "IF(IS_NULLABLE='YES','YES',IF(EXTRA='auto_increment', 'YES', 'NO'))) AS IS_NULLABLE "
            "FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA=DATABASE()AND TABLE_NAME LIKE 't'  "
            "ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, sql, &id, &np), DB_OK, "%d %s", t->err.code, t->err.msg);
    cr_assert_eq(np, 0);
    cr_assert_eq(t->ncols, 18);
    cr_assert_str_eq(t->cols[0].name, "TABLE_CAT");
    cr_assert_str_eq(t->cols[17].name, "IS_NULLABLE");
    cr_assert_str_eq(tx_one(t, "select @dt, @ColSize, @tol"), "NULL");
    /* No current database: DATABASE() is NULL, nothing matches. */
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->nrows, 0);
    cr_assert_eq(tx_exec(t, "use information_schema"), DB_OK);
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->nrows, 0); /* there is no table t */
    cr_assert_eq(t->ncols, 18);
    tx_free(t);
}

Test(plan_prepare, order_by_without_tables)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select 1 as a, 2 order by a desc, 2, 1 + 1 asc"), "1");
    cr_assert_str_eq(tx_one(t, "select 1 order by 2"),
                     "ERR 1054 42S22 Unknown column '2' in 'order clause'");
    cr_assert_str_eq(tx_one(t, "select 1 order by 0"),
                     "ERR 1054 42S22 Unknown column '0' in 'order clause'");
    cr_assert_str_eq(tx_one(t, "select 1 as a order by b"),
                     "ERR 1054 42S22 Unknown column 'b' in 'order clause'");
    cr_assert_str_eq(tx_one(t, "select 1 order by (2)"), "1");
    cr_assert_str_eq(tx_one(t, "select 1 order by 1 limit 0"), "<none>");
    cr_assert_eq(tx_err(t, "select 1 order by"), 1064);
    uint32_t id = must_prepare(t, "select ? as v order by v", 1);
    plan_param p = p_int(3);
    cr_assert_eq(tx_exec_prepared(t, id, &p, 1), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "3");
    tx_free(t);
}

Test(plan_prepare, sql_prepare_execute_deallocate)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "PREPARE s FROM 'SELECT ? + ?'"), DB_OK, "%s", t->err.msg);
    cr_assert_not(t->out.is_result_set);
    cr_assert_str_eq(t->out.info, "Statement prepared");
    tx_exec(t, "set @a = 1, @b = 2.5");
    cr_assert_str_eq(tx_one(t, "EXECUTE S USING @a, @b"), "3.5");
    cr_assert_str_eq(tx_one(t, "execute s using @a, @a"), "2");
    cr_assert_str_eq(tx_one(t, "execute s using @a, @nosuch"), "NULL");
    cr_assert_str_eq(tx_one(t, "execute s using @a"),
                     "ERR 1210 HY000 Incorrect arguments to EXECUTE");
    cr_assert_str_eq(tx_one(t, "execute s"), "ERR 1210 HY000 Incorrect arguments to EXECUTE");
    cr_assert_str_eq(tx_one(t, "execute nosuch"),
                     "ERR 1243 HY000 Unknown prepared statement handler (nosuch) given to EXECUTE");
    /* From a user variable; a new PREPARE of a name replaces the old statement. */
    tx_exec(t, "set @q = 'select concat(?, ''!'') as c'");
    cr_assert_eq(tx_exec(t, "prepare s from @q"), DB_OK, "%s", t->err.msg);
    tx_exec(t, "set @w = 'hi'");
    cr_assert_str_eq(tx_one(t, "execute s using @w"), "hi!");
    cr_assert_str_eq(t->cols[0].name, "c");
    /* The assignment inside the statement may overwrite a USING variable. */
    tx_exec(t, "prepare t from 'select @w := concat(?, ?)'");
    cr_assert_str_eq(tx_one(t, "execute t using @w, @w"), "hihi");
    cr_assert_str_eq(tx_one(t, "select @w"), "hihi");
    /* A failed PREPARE still drops the old statement (MySQL). */
    cr_assert_eq(tx_err(t, "prepare s from 'selec 1'"), 1064);
    cr_assert_eq(tx_err(t, "execute s"), 1243);
    cr_assert_eq(tx_err(t, "prepare s from @nosuch"), 1064);
    cr_assert_eq(tx_err(t, "prepare s from 'prepare x from ''select 1'''"), 1295);
    /* Statements without results, and a SET through EXECUTE. */
    cr_assert_eq(tx_exec(t, "prepare u from 'set @z = ? * 2'"), DB_OK);
    tx_exec(t, "set @a = 21");
    cr_assert_eq(tx_exec(t, "execute u using @a"), DB_OK);
    cr_assert_not(t->out.is_result_set);
    cr_assert_str_eq(tx_one(t, "select @z"), "42");
    cr_assert_eq(tx_exec(t, "deallocate prepare U"), DB_OK);
    cr_assert_eq(tx_err(t, "execute u using @a"), 1243);
    cr_assert_str_eq(
            tx_one(t, "drop prepare u"),
            "ERR 1243 HY000 Unknown prepared statement handler (u) given to DEALLOCATE PREPARE");
    cr_assert_eq(tx_exec(t, "drop prepare t"), DB_OK);
    /* prepare/execute/deallocate stay usable as identifiers. */
    cr_assert_str_eq(tx_one(t, "select 1 as prepare"), "1");
    cr_assert_str_eq(tx_one(t, "select 2 execute"), "2");
    tx_free(t);
}
