/* SPDX-License-Identifier: Apache-2.0
 * test_optimize.c: the join optimizations of plan_select.c over information_schema tables (no
 * storage engine here; table scans, projection pruning and COUNT(*) from metadata are covered
 * by regression/sql/query/optimizer.sql): join reordering of INNER chains (smallest input
 * first, SELECT * still in FROM order, the same rows), single-table ON conjuncts pushed below
 * the join only where the join type allows, and estimated rows in EXPLAIN. COLLATIONS has 12
 * rows over the 5 CHARACTER_SETS; SCHEMATA 2 (information_schema, mysql). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_testutil.h"

#define C "information_schema.COLLATIONS c"
#define S "information_schema.CHARACTER_SETS s"
#define D "information_schema.SCHEMATA d"
#define CHAIN                                                                       \
    " FROM " C " JOIN " S " ON c.CHARACTER_SET_NAME = s.CHARACTER_SET_NAME JOIN " D \
    " ON d.DEFAULT_CHARACTER_SET_NAME = s.CHARACTER_SET_NAME"

static void
must(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

/* The EXPLAIN line (indentation dropped) that starts with op, or NULL. */
static const char *
explain_line(tx *t, const char *sql, const char *op)
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
            return line;
        }
    }
    return NULL;
}

/* Indentation (depth) of the first EXPLAIN line containing s, or -1. */
static int
explain_depth(tx *t, const char *sql, const char *s)
{
    char q[1024];
    snprintf(q, sizeof q, "EXPLAIN %s", sql);
    must(t, q);
    for (size_t r = 0; r < t->nrows; r++) {
        const char *line = tx_cell(t, r, 0);
        if (strstr(line, s)) {
            return (int)(strspn(line, " ") / 2);
        }
    }
    return -1;
}

/* All cells of the result of sql, tab-separated rows joined by newlines (heap). */
static char *
result_text(tx *t, const char *sql)
{
    must(t, sql);
    size_t cap = 64, len = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *v = tx_cell(t, r, c);
            size_t need = len + strlen(v) + 2;
            if (need >= cap) {
                cap = need * 2;
                out = realloc(out, cap);
            }
            len += (size_t)sprintf(out + len, "%s%s", v, c + 1 < t->ncols ? "\t" : "\n");
        }
    }
    return out;
}

Test(plan_optimize, reorder_smallest_first)
{
    tx *t = tx_new();
    const char *top = explain_line(t, "SELECT *" CHAIN, "HASH JOIN(");
    cr_assert(top != NULL);
    cr_expect(strstr(top, "join order d, s, c") != NULL, "%s", top);
    /* The first join builds the 2-row SCHEMATA against the 5 CHARACTER_SETS. */
    cr_expect(explain_line(t, "SELECT *" CHAIN,
                           "HASH JOIN(INNER, build left, d.DEFAULT_CHARACTER_SET_NAME = "
                           "s.CHARACTER_SET_NAME) | est rows=5") != NULL);
    tx_free(t);
}

Test(plan_optimize, reorder_keeps_star_order_and_rows)
{
    tx *t = tx_new();
    /* SELECT * lists c's columns, then s's, then d's, as without reordering. */
    must(t, "SELECT * FROM " C " LIMIT 0");
    size_t nc = t->ncols;
    must(t, "SELECT * FROM " S " LIMIT 0");
    size_t ns = t->ncols;
    must(t, "SELECT * FROM " D " LIMIT 0");
    size_t nd = t->ncols;
    must(t, "SELECT *" CHAIN " LIMIT 1");
    cr_assert_eq(t->ncols, nc + ns + nd);
    cr_expect_str_eq(t->cols[0].name, "COLLATION_NAME");
    cr_expect_str_eq(t->cols[nc].name, "CHARACTER_SET_NAME");
    cr_expect_str_eq(t->cols[nc + ns].name, "CATALOG_NAME");
    cr_expect_str_eq(t->cols[nc].table, "s");
    cr_expect_str_eq(t->cols[nc + ns + nd - 1].table, "d");
    /* SELECT * is c.*, s.*, d.* (each table's columns in its order) ... */
    char *got = result_text(t, "SELECT *" CHAIN " ORDER BY c.COLLATION_NAME, d.SCHEMA_NAME");
    char *want = result_text(t, "SELECT c.*, s.*, d.*" CHAIN
                                " ORDER BY c.COLLATION_NAME, d.SCHEMA_NAME");
    cr_expect(strlen(got) > 0);
    cr_expect_str_eq(got, want);
    free(got);
    free(want);
    /* ... and the rows are those of the FROM order (a join of two inputs is not reordered). */
    got = result_text(t, "SELECT c.COLLATION_NAME, s.MAXLEN, d.SCHEMA_NAME" CHAIN " ORDER BY 1, 3");
    want = result_text(t, "SELECT x.COLLATION_NAME, x.MAXLEN, d.SCHEMA_NAME FROM (SELECT "
                          "c.COLLATION_NAME, s.MAXLEN, s.CHARACTER_SET_NAME AS cs FROM " C
                          " JOIN " S " ON c.CHARACTER_SET_NAME = s.CHARACTER_SET_NAME) x JOIN " D
                          " ON d.DEFAULT_CHARACTER_SET_NAME = x.cs ORDER BY 1, 3");
    cr_expect(strlen(got) > 0);
    cr_expect_str_eq(got, want);
    free(got);
    free(want);
    /* s.* names the CHARACTER_SETS columns only, in their order. */
    must(t, "SELECT s.*" CHAIN " LIMIT 1");
    cr_expect_eq(t->ncols, ns);
    cr_expect_str_eq(t->cols[0].name, "CHARACTER_SET_NAME");
    tx_free(t);
}

Test(plan_optimize, outer_and_using_chains_keep_from_order)
{
    tx *t = tx_new();
    const char *l = explain_line(t,
                                 "SELECT *" CHAIN " LEFT JOIN information_schema.ENGINES e ON "
                                 "e.ENGINE = d.SCHEMA_NAME",
                                 "HASH JOIN(LEFT");
    cr_assert(l != NULL);
    cr_expect(strstr(l, "join order") == NULL, "%s", l);
    l = explain_line(t,
                     "SELECT COUNT(*) FROM " C " JOIN " S " USING (CHARACTER_SET_NAME) JOIN " D
                     " ON d.DEFAULT_CHARACTER_SET_NAME = s.CHARACTER_SET_NAME",
                     "HASH JOIN(");
    cr_assert(l != NULL);
    cr_expect(strstr(l, "join order") == NULL, "%s", l);
    tx_free(t);
}

Test(plan_optimize, on_conjuncts_pushed_where_allowed)
{
    tx *t = tx_new();
    /* INNER: both single-table conjuncts filter their inputs (below the join, depth 3). */
    const char *q = "SELECT COUNT(*) FROM " S " JOIN " C " ON c.CHARACTER_SET_NAME = "
                    "s.CHARACTER_SET_NAME AND s.MAXLEN > 1 AND c.IS_DEFAULT = 'Yes'";
    cr_expect_eq(explain_depth(t, q, "FILTER(s.MAXLEN > 1)"), 3);
    cr_expect_eq(explain_depth(t, q, "FILTER(c.IS_DEFAULT = 'Yes')"), 3);
    cr_expect_str_eq(tx_one(t, q), "2"); /* utf8 and utf8mb4 */
    /* LEFT: only the right (null-supplying) side's conjunct moves; the preserved side's stays
     * in the join, and every left row still comes out. */
    q = "SELECT COUNT(*) FROM " S " LEFT JOIN " C " ON c.CHARACTER_SET_NAME = "
        "s.CHARACTER_SET_NAME AND s.MAXLEN > 3 AND c.IS_DEFAULT = 'Yes'";
    cr_expect_eq(explain_depth(t, q, "FILTER(c.IS_DEFAULT = 'Yes')"), 3);
    cr_expect_eq(explain_depth(t, q, "FILTER(s.MAXLEN > 3)"), -1);
    cr_expect_str_eq(tx_one(t, q), "5");
    cr_expect_str_eq(tx_one(t, "SELECT COUNT(c.COLLATION_NAME) FROM " S " LEFT JOIN " C
                               " ON c.CHARACTER_SET_NAME = s.CHARACTER_SET_NAME AND "
                               "s.MAXLEN > 3 AND c.IS_DEFAULT = 'Yes'"),
                     "1");
    /* RIGHT: the right side is preserved, nothing over it moves. */
    q = "SELECT COUNT(*) FROM " C " RIGHT JOIN " S " ON c.CHARACTER_SET_NAME = "
        "s.CHARACTER_SET_NAME AND s.MAXLEN > 3";
    cr_expect_eq(explain_depth(t, q, "FILTER(s.MAXLEN > 3)"), -1);
    cr_expect_str_eq(tx_one(t, q), "8");
    tx_free(t);
}

Test(plan_optimize, estimated_rows)
{
    tx *t = tx_new();
    const char *q =
            "SELECT COUNT(*) FROM " S " JOIN " C " ON c.CHARACTER_SET_NAME = s.CHARACTER_SET_NAME";
    cr_expect(explain_line(t, q,
                           "HASH JOIN(INNER, build left, s.CHARACTER_SET_NAME = "
                           "c.CHARACTER_SET_NAME) | est rows=12") != NULL);
    cr_expect(explain_line(t, q, "AGGREGATE(COUNT(*)) | est rows=1") != NULL);
    must(t, "EXPLAIN ANALYZE SELECT COUNT(*) FROM " S " JOIN " C
            " ON c.CHARACTER_SET_NAME = s.CHARACTER_SET_NAME");
    cr_expect_str_eq(tx_cell(t, 0, 0), "PROJECT(COUNT(*)) | est rows=1, actual rows=1");
    cr_expect(explain_line(t, "SELECT * FROM " C " LIMIT 3", "LIMIT(3) | est rows=3") != NULL);
    tx_free(t);
}
