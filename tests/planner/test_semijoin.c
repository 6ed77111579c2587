/* SPDX-License-Identifier: Apache-2.0
 * test_semijoin.c: decorrelation of WHERE [NOT] EXISTS / [NOT] IN into semi / anti hash joins
 * (plan_semijoin.c): which conjuncts become joins (EXPLAIN), that the subquery then runs once,
 * the null-aware NOT IN, and the forms that stay with plan_subquery.c; row constructors and
 * row subqueries (plan_subquery.c) with MySQL's NULL rules and 1241 / 1242. Inputs are
 * information_schema tables (no storage engine here): COLLATIONS has 12 rows over the 5
 * CHARACTER_SETS. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plan_testutil.h"

static void
must(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

/* Whether some line of EXPLAIN sql starts (after indentation) with op. */
static bool
explain_has(tx *t, const char *sql, const char *op)
{
    char q[1024];
    snprintf(q, sizeof q, "EXPLAIN %s", sql);
    must(t, q);
    for (size_t r = 0; r < t->nrows; r++) {
        const char *line = tx_cell(t, r, 0);
        while (*line == ' ') {
            line++;
        }
        if (strncmp(line, op, strlen(op)) == 0) {
            return true;
        }
    }
    return false;
}

#define EXISTS_Q                                                                        \
    "SELECT COUNT(*) FROM information_schema.COLLATIONS c WHERE EXISTS (SELECT 1 FROM " \
    "information_schema.CHARACTER_SETS s WHERE s.DEFAULT_COLLATE_NAME = c.COLLATION_NAME)"

Test(plan_semijoin, decorrelated_forms)
{
    tx *t = tx_new();
    cr_assert(
            explain_has(t, EXISTS_Q, "LEFT SEMI JOIN(c.COLLATION_NAME = s.DEFAULT_COLLATE_NAME)"));
    cr_assert(explain_has(t,
                          "SELECT ID FROM information_schema.COLLATIONS c WHERE NOT EXISTS "
                          "(SELECT 1 FROM information_schema.CHARACTER_SETS s WHERE "
                          "s.DEFAULT_COLLATE_NAME = c.COLLATION_NAME)",
                          "LEFT ANTI JOIN"));
    cr_assert(explain_has(t,
                          "SELECT ID FROM information_schema.COLLATIONS WHERE COLLATION_NAME "
                          "NOT IN (SELECT DEFAULT_COLLATE_NAME FROM "
                          "information_schema.CHARACTER_SETS)",
                          "NULL AWARE LEFT ANTI JOIN"));
    /* an unqualified inner name binds inside (inner scope first) */
    cr_assert(explain_has(t,
                          "SELECT ID FROM information_schema.COLLATIONS c WHERE ID > 0 AND "
                          "CHARACTER_SET_NAME IN (SELECT CHARACTER_SET_NAME FROM "
                          "information_schema.CHARACTER_SETS WHERE DEFAULT_COLLATE_NAME = "
                          "c.COLLATION_NAME)",
                          "LEFT SEMI JOIN(c.COLLATION_NAME = DEFAULT_COLLATE_NAME AND "
                          "CHARACTER_SET_NAME = CHARACTER_SET_NAME)"));
    /* not decorrelated: OR, a non-equality correlation, aggregates, LIMIT, SELECT list */
    cr_assert_not(explain_has(t,
                              "SELECT ID FROM information_schema.COLLATIONS c WHERE ID = 8 OR "
                              "EXISTS (SELECT 1 FROM information_schema.CHARACTER_SETS s "
                              "WHERE s.DEFAULT_COLLATE_NAME = c.COLLATION_NAME)",
                              "LEFT SEMI JOIN"));
    cr_assert_not(explain_has(t,
                              "SELECT ID FROM information_schema.COLLATIONS c WHERE EXISTS "
                              "(SELECT 1 FROM information_schema.CHARACTER_SETS s WHERE "
                              "s.MAXLEN < c.ID)",
                              "LEFT SEMI JOIN"));
    cr_assert_not(explain_has(t,
                              "SELECT ID FROM information_schema.COLLATIONS c WHERE EXISTS "
                              "(SELECT MAX(MAXLEN) FROM information_schema.CHARACTER_SETS s "
                              "WHERE s.DEFAULT_COLLATE_NAME = c.COLLATION_NAME)",
                              "LEFT SEMI JOIN"));
    tx_free(t);
}

Test(plan_semijoin, results_and_single_run)
{
    tx *t = tx_new();
    must(t, EXISTS_Q);
    cr_assert_str_eq(tx_cell(t, 0, 0), "5");
    /* the inner WHERE runs once per inner row (5), not once per outer row */
    must(t, "SET @n = 0");
    must(t, "SELECT COUNT(*) FROM information_schema.COLLATIONS c WHERE EXISTS (SELECT 1 FROM "
            "information_schema.CHARACTER_SETS s WHERE s.DEFAULT_COLLATE_NAME = "
            "c.COLLATION_NAME AND (@n := @n + 1) > 0)");
    cr_assert_str_eq(tx_cell(t, 0, 0), "5");
    cr_assert_str_eq(tx_one(t, "SELECT @n"), "5");
    /* inside a correlated subquery run per character set (5 runs) it is still hashed once */
    must(t, "SET @n = 0");
    must(t, "SELECT SUM((SELECT COUNT(*) FROM information_schema.COLLATIONS c WHERE "
            "c.CHARACTER_SET_NAME = s.CHARACTER_SET_NAME AND EXISTS (SELECT 1 FROM "
            "information_schema.CHARACTER_SETS s2 WHERE s2.DEFAULT_COLLATE_NAME = "
            "c.COLLATION_NAME AND (@n := @n + 1) > 0))) FROM information_schema.CHARACTER_SETS s");
    cr_assert_str_eq(tx_cell(t, 0, 0), "5");
    cr_assert_str_eq(tx_one(t, "SELECT @n"), "5");
    static const pair p[] = {
            {"SELECT COUNT(*) FROM information_schema.COLLATIONS c WHERE NOT EXISTS (SELECT 1 "
             "FROM information_schema.CHARACTER_SETS s WHERE s.DEFAULT_COLLATE_NAME = "
             "c.COLLATION_NAME)",
             "7"},
            /* case-insensitive keys, as the comparison */
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS s WHERE EXISTS (SELECT 1 "
             "FROM information_schema.COLLATIONS c WHERE UPPER(c.COLLATION_NAME) = "
             "s.DEFAULT_COLLATE_NAME)",
             "5"},
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE MAXLEN IN (SELECT "
             "MAXLEN FROM information_schema.CHARACTER_SETS WHERE MAXLEN > 1)",
             "2"},
            /* NOT IN: a NULL in the set: never TRUE; an empty set: TRUE */
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE MAXLEN NOT IN (SELECT "
             "NULL FROM information_schema.COLLATIONS)",
             "0"},
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE MAXLEN NOT IN (SELECT "
             "ID FROM information_schema.COLLATIONS WHERE ID < 0)",
             "5"},
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE NULL NOT IN (SELECT "
             "ID FROM information_schema.COLLATIONS WHERE ID < 0)",
             "5"},
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE NULL NOT IN (SELECT "
             "ID FROM information_schema.COLLATIONS)",
             "0"},
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS WHERE MAXLEN NOT IN (SELECT "
             "MAXLEN FROM information_schema.CHARACTER_SETS WHERE MAXLEN > 1)",
             "3"},
    };
    check_all(p, sizeof p / sizeof p[0]);
    tx_free(t);
}

Test(plan_semijoin, row_constructors)
{
    static const pair p[] = {
            {"SELECT (1, 2) = (1, 2)", "1"},
            {"SELECT (1, NULL) = (1, 2)", "NULL"},
            {"SELECT (1, NULL) = (2, 2)", "0"},
            {"SELECT (1, NULL) <> (2, 2)", "1"},
            {"SELECT (1, NULL) <=> (1, NULL)", "1"},
            {"SELECT (1, 2) < (1, 3)", "1"},
            {"SELECT (NULL, 1) < (2, 3)", "NULL"},
            {"SELECT (2, NULL) < (1, 5)", "0"},
            {"SELECT (1, 2) IN ((3, 4), (1, 2))", "1"},
            {"SELECT (1, 2) IN ((3, 4), (1, NULL))", "NULL"},
            {"SELECT (1, 2) NOT IN ((3, 4))", "1"},
            {"SELECT ((1, 2), 3) = ((1, 2), 3)", "1"},
            {"SELECT ROW(1, 2) = (1, 2)", "1"},
            {"SELECT (1, 'a') IN (SELECT 1, 'A')", "1"},
            {"SELECT (1, 2) IN (SELECT 1, NULL)", "NULL"},
            {"SELECT (1, 2) NOT IN (SELECT 3, NULL)", "1"},
            {"SELECT (1, 2) IN (SELECT ID, 2 FROM information_schema.COLLATIONS WHERE ID < 0)",
             "0"},
            {"SELECT (1, 2) = (SELECT 1, 2)", "1"},
            {"SELECT (1, 2) <> (SELECT 1, NULL)", "NULL"},
            {"SELECT (1, 2) = (SELECT ID, 2 FROM information_schema.COLLATIONS WHERE ID < 0)",
             "NULL"},
            {"SELECT (SELECT 1, 3) > (1, 2)", "1"},
            {"SELECT COUNT(*) FROM information_schema.CHARACTER_SETS s WHERE (CHARACTER_SET_NAME, "
             "DEFAULT_COLLATE_NAME) IN (SELECT CHARACTER_SET_NAME, COLLATION_NAME FROM "
             "information_schema.COLLATIONS)",
             "5"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_semijoin, row_errors)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "SELECT (1, 2) = (1, 2, 3)"), 1241);
    cr_assert_str_eq(t->err.msg, "Operand should contain 2 column(s)");
    cr_assert_eq(tx_err(t, "SELECT 1 = (1, 2)"), 1241);
    cr_assert_str_eq(t->err.msg, "Operand should contain 1 column(s)");
    cr_assert_eq(tx_err(t, "SELECT (1, 2)"), 1241);
    cr_assert_eq(tx_err(t, "SELECT (1, 2) IN (SELECT 1)"), 1241);
    cr_assert_str_eq(t->err.msg, "Operand should contain 2 column(s)");
    cr_assert_eq(tx_err(t, "SELECT (1, 2) IN ((1, 2), 3)"), 1241);
    cr_assert_eq(tx_err(t, "SELECT (1, 2) = (SELECT ID, 2 FROM information_schema.COLLATIONS)"),
                 1242);
    tx_free(t);
}
