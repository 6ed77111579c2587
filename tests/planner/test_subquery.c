/* SPDX-License-Identifier: Apache-2.0
 * test_subquery.c: subqueries in expressions (plan_subquery.c): the per-statement cache (an
 * uncorrelated subquery runs once, a correlated one once per distinct outer value, counted
 * with a user variable the inner query increments), MySQL's NULL rules of IN / NOT IN /
 * ANY / ALL over empty sets, NULL-only sets and NULL operands, scalar results, errors 1241 /
 * 1242 / 1054, and outer references two levels out. Inputs are SELECTs without FROM and
 * information_schema tables (no storage engine here). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plan_testutil.h"

static void
must(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

Test(plan_subquery, uncorrelated_runs_once)
{
    tx *t = tx_new();
    must(t, "SET @n = 0");
    must(t, "SELECT COUNT((SELECT @n := @n + 1)) FROM information_schema.COLLATIONS");
    cr_assert_str_eq(tx_cell(t, 0, 0), "12");
    cr_assert_str_eq(tx_one(t, "SELECT @n"), "1");
    /* each statement has its own cache */
    must(t, "SELECT COUNT(*) FROM information_schema.COLLATIONS WHERE (SELECT @n := @n + 1) > 0");
    cr_assert_str_eq(tx_one(t, "SELECT @n"), "2");
    /* IN and EXISTS too */
    must(t, "SELECT COUNT(*) FROM information_schema.COLLATIONS WHERE 1 IN (SELECT @n := @n + 1)"
            " OR EXISTS (SELECT @n := @n + 1)");
    cr_assert_str_eq(tx_one(t, "SELECT @n"), "4");
    tx_free(t);
}

Test(plan_subquery, correlated_runs_per_distinct_value)
{
    tx *t = tx_new();
    must(t, "SET @n = 0");
    /* 12 collations of 5 character sets: 5 runs */
    must(t, "SELECT COUNT((SELECT @n := @n + 1 FROM information_schema.CHARACTER_SETS s WHERE "
            "s.CHARACTER_SET_NAME = c.CHARACTER_SET_NAME)) FROM information_schema.COLLATIONS c");
    cr_assert_str_eq(tx_cell(t, 0, 0), "12");
    cr_assert_str_eq(tx_one(t, "SELECT @n"), "5");
    /* the correlated result is per outer row: each collation finds its character set */
    must(t, "SELECT COUNT(*) FROM information_schema.COLLATIONS c WHERE c.COLLATION_NAME = "
            "(SELECT s.DEFAULT_COLLATE_NAME FROM information_schema.CHARACTER_SETS s WHERE "
            "s.CHARACTER_SET_NAME = c.CHARACTER_SET_NAME)");
    cr_assert_str_eq(tx_cell(t, 0, 0), "5");
    must(t, "SELECT COUNT(*) FROM information_schema.COLLATIONS c WHERE NOT EXISTS (SELECT 1 "
            "FROM information_schema.CHARACTER_SETS s WHERE s.DEFAULT_COLLATE_NAME = "
            "c.COLLATION_NAME)");
    cr_assert_str_eq(tx_cell(t, 0, 0), "7");
    tx_free(t);
}

Test(plan_subquery, in_null_semantics)
{
    static const pair p[] = {
            {"SELECT 1 IN (SELECT 1)", "1"},
            {"SELECT 2 IN (SELECT 1)", "0"},
            {"SELECT 2 NOT IN (SELECT 1)", "1"},
            {"SELECT NULL IN (SELECT 1)", "NULL"},
            {"SELECT NULL NOT IN (SELECT 1)", "NULL"},
            {"SELECT 1 IN (SELECT NULL)", "NULL"},
            {"SELECT 1 NOT IN (SELECT NULL)", "NULL"},
            /* empty set: FALSE / TRUE even for a NULL operand */
            {"SELECT NULL IN (SELECT 1 FROM information_schema.COLLATIONS WHERE 1 = 0)", "0"},
            {"SELECT NULL NOT IN (SELECT 1 FROM information_schema.COLLATIONS WHERE 1 = 0)", "1"},
            {"SELECT 'A' IN (SELECT 'a')", "1"},
            {"SELECT 'b' IN (SELECT CHARACTER_SET_NAME FROM information_schema.CHARACTER_SETS)",
             "0"},
            {"SELECT 'BINARY' IN (SELECT CHARACTER_SET_NAME FROM "
             "information_schema.CHARACTER_SETS)",
             "1"},
            {"SELECT 5 > ANY (SELECT 7)", "0"},
            {"SELECT 5 < SOME (SELECT 7)", "1"},
            {"SELECT 5 < ALL (SELECT NULL)", "NULL"},
            {"SELECT 5 < ALL (SELECT 1 FROM information_schema.COLLATIONS WHERE 1 = 0)", "1"},
            {"SELECT 5 = ANY (SELECT 1 FROM information_schema.COLLATIONS WHERE 1 = 0)", "0"},
            {"SELECT NULL = ALL (SELECT 1)", "NULL"},
            {"SELECT 5 <> ALL (SELECT 5)", "0"},
            {"SELECT 5 <> ANY (SELECT 5)", "0"},
            {"SELECT 1 = ANY (SELECT ID FROM information_schema.COLLATIONS)", "0"},
            {"SELECT 0 < ALL (SELECT ID FROM information_schema.COLLATIONS)", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_subquery, scalar_and_exists)
{
    static const pair p[] = {
            {"SELECT (SELECT 1 FROM information_schema.COLLATIONS WHERE 1 = 0)", "NULL"},
            {"SELECT (SELECT 'x') = 'X'", "1"},
            {"SELECT (SELECT (SELECT 2) * 3) + 1", "7"},
            {"SELECT EXISTS (SELECT NULL)", "1"},
            {"SELECT NOT EXISTS (SELECT 1 FROM information_schema.COLLATIONS WHERE 1 = 0)", "1"},
            {"SELECT (SELECT COUNT(*) FROM information_schema.CHARACTER_SETS)", "5"},
            {"SELECT (SELECT ID FROM information_schema.COLLATIONS ORDER BY ID LIMIT 1)", "8"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_subquery, errors)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "SELECT (SELECT ID FROM information_schema.COLLATIONS)"), 1242);
    cr_assert_eq(tx_err(t, "SELECT (SELECT 1, 2)"), 1241);
    cr_assert_eq(tx_err(t, "SELECT 1 IN (SELECT 1, 2)"), 1241);
    cr_assert_eq(tx_err(t, "SELECT 1 > ALL (SELECT 1, 2)"), 1241);
    cr_assert_eq(tx_err(t, "SELECT (SELECT nope)"), 1054);
    cr_assert_eq(tx_err(t, "SELECT ID FROM information_schema.COLLATIONS c WHERE EXISTS (SELECT "
                           "1 FROM information_schema.CHARACTER_SETS s WHERE s.x = c.ID)"),
                 1054);
    cr_assert_eq(tx_err(t, "SELECT 1 = FOO (SELECT 1)"), 1064);
    tx_free(t);
}

Test(plan_subquery, outer_references)
{
    tx *t = tx_new();
    /* the inner name wins; a name only the outer query has reaches it; two levels out */
    must(t, "SELECT ID, (SELECT COUNT(*) FROM information_schema.COLLATIONS i WHERE i.ID < "
            "o.ID AND EXISTS (SELECT 1 WHERE o.IS_DEFAULT = 'Yes')) FROM "
            "information_schema.COLLATIONS o ORDER BY ID LIMIT 3");
    cr_assert_eq(t->nrows, 3);
    cr_assert_str_eq(tx_cell(t, 0, 1), "0");
    must(t, "SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE MAXLEN = (SELECT "
            "MAX(MAXLEN) FROM information_schema.COLLATIONS, information_schema.CHARACTER_SETS "
            "s2 WHERE s2.DEFAULT_COLLATE_NAME = COLLATION_NAME)");
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    tx_free(t);
}
