/* SPDX-License-Identifier: Apache-2.0
 * EXPLAIN [VERBOSE | ANALYZE] (plan_explain.c) over information_schema tables and hand-built
 * operator trees, the statement limits behind plan__check_interrupt (query_timeout /
 * max_execution_time, exec_mem_limit), and the grammar: DESC <table> stays DESC TABLE. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_exec_int.h"

Test(plan_explain, tree_lines_indented_by_depth)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "EXPLAIN SELECT TABLE_NAME FROM information_schema.TABLES WHERE "
                            "TABLE_SCHEMA = 'x' ORDER BY TABLE_NAME DESC LIMIT 1"),
                 DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->ncols, 1);
    cr_expect_str_eq(t->cols[0].name, "Explain String");
    cr_assert_eq(t->nrows, 5);
    cr_expect_str_eq(tx_cell(t, 0, 0), "LIMIT(1) | est rows=1");
    cr_expect_str_eq(tx_cell(t, 1, 0), "  SORT(TABLE_NAME DESC) | est rows=50");
    cr_expect_str_eq(tx_cell(t, 2, 0), "    PROJECT(TABLE_NAME) | est rows=50");
    cr_expect_str_eq(tx_cell(t, 3, 0), "      FILTER(TABLE_SCHEMA = 'x') | est rows=50");
    cr_expect_str_eq(tx_cell(t, 4, 0), "        INFORMATION_SCHEMA SCAN(TABLES) | est rows=100");
    tx_free(t);
}

Test(plan_explain, verbose_types_and_analyze_rows)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "EXPLAIN VERBOSE SELECT COUNT(*) FROM information_schema.ENGINES"),
                 DB_OK, "%s", t->err.msg);
    cr_expect_str_eq(tx_cell(t, 0, 0), "PROJECT(COUNT(*)) | est rows=1 | types: BIGINT");
    cr_expect_str_eq(tx_cell(t, 1, 0), "  AGGREGATE(COUNT(*)) | est rows=1 | types: BIGINT");
    const char *n = tx_one(t, "SELECT COUNT(*) FROM information_schema.ENGINES");
    char want[128];
    snprintf(want, sizeof want,
             "    INFORMATION_SCHEMA SCAN(ENGINES) | est rows=100, actual rows=%s", n);
    cr_assert_eq(tx_exec(t, "EXPLAIN ANALYZE SELECT COUNT(*) FROM information_schema.ENGINES"),
                 DB_OK, "%s", t->err.msg);
    cr_expect_str_eq(tx_cell(t, 0, 0), "PROJECT(COUNT(*)) | est rows=1, actual rows=1");
    cr_expect_str_eq(tx_cell(t, 1, 0), "  AGGREGATE(COUNT(*)) | est rows=1, actual rows=1");
    cr_expect_str_eq(tx_cell(t, 2, 0), want);
    tx_free(t);
}

Test(plan_explain, parse_forms)
{
    tx *t = tx_new();
    arena *a = t->a;
    static const struct {
        const char *sql;
        int kind, explain;
    } cases[] = {
            {"EXPLAIN SELECT 1", PS_SELECT, PLAN_EXPLAIN_PLAIN},
            {"EXPLAIN VERBOSE SELECT 1", PS_SELECT, PLAN_EXPLAIN_VERBOSE},
            {"EXPLAIN ANALYZE SELECT 1", PS_SELECT, PLAN_EXPLAIN_ANALYZE},
            {"DESC SELECT 1", PS_SELECT, PLAN_EXPLAIN_PLAIN},
            {"DESCRIBE SELECT 1", PS_SELECT, PLAN_EXPLAIN_PLAIN},
            {"SELECT 1", PS_SELECT, PLAN_EXPLAIN_NONE},
            {"DESC t", PS_DDL, PLAN_EXPLAIN_NONE},
            {"SELECT 1 AS verbose, 2 AS analyze", PS_SELECT, PLAN_EXPLAIN_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        plan_stmt *st;
        db_error err;
        cr_assert_eq(
                plan__parse(a, cases[i].sql, strlen(cases[i].sql), false, false, false, &st, &err),
                DB_OK, "%s: %s", cases[i].sql, err.msg);
        cr_expect_eq((int)st->kind, cases[i].kind, "%s", cases[i].sql);
        cr_expect_eq(st->explain, cases[i].explain, "%s", cases[i].sql);
    }
    tx_free(t);
}

Test(plan_explain, prepare_describes_one_column)
{
    tx *t = tx_new();
    uint32_t id;
    uint16_t np;
    cr_assert_eq(
            tx_prepare(t, "EXPLAIN SELECT TABLE_NAME FROM information_schema.TABLES", &id, &np),
            DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->ncols, 1);
    cr_expect_str_eq(t->cols[0].name, "Explain String");
    tx_free(t);
}

/* Operators of a hand-built tree: no rows, no describe. */
static int
nop_open(plan_op *op, db_error *err)
{
    return DB_OK;
}

static int
nop_next(plan_op *op, plan_batch **out, db_error *err)
{
    *out = NULL;
    return DB_OK;
}

static void
nop_close(plan_op *op)
{
}

Test(plan_explain, limits_timeout_memory_and_kill)
{
    tx *t = tx_new();
    plan_session *s = t->s;
    db_error err;
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_OK);
    s->lim_deadline_ns = 1; /* long past */
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_ERR);
    cr_expect_eq(err.code, 3024);
    cr_expect_str_eq(err.sqlstate, "HY000");
    plan__limits_end(s);
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_OK);

    /* Memory: the statement arena's growth since begin, plus operator mem_used. */
    arena *a = arena_new(0);
    (void)arena_alloc(a, 1000);
    s->lim_arena = a;
    s->lim_base = arena_used(a);
    s->lim_mem = 4096;
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_OK);
    (void)arena_alloc(a, 5000);
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_ERR);
    cr_expect_eq(err.code, 1105);
    cr_expect(strstr(err.msg, "Memory limit exceeded") != NULL, "%s", err.msg);
    cr_expect(strstr(err.msg, "exec_mem_limit = 4096 bytes") != NULL, "%s", err.msg);
    cr_assert_geq(s->nwarns, 1);
    cr_expect(strstr(s->warns[s->nwarns - 1].msg, "the query used ") != NULL, "%s",
              s->warns[s->nwarns - 1].msg);
    plan__limits_end(s);
    arena_free(a);

    /* KILL QUERY still wins. */
    plan_session_interrupt(s);
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_ERR);
    cr_expect_eq(err.code, 1317);
    tx_free(t);
}

static size_t
fake_mem(const plan_op *op)
{
    return 10000;
}

Test(plan_explain, mem_used_of_tree_is_charged)
{
    tx *t = tx_new();
    plan_session *s = t->s;
    plan_ectx cx;
    plan__ectx_init(&cx, s, t->a, "", 0);
    plan_op leaf = {.open = nop_open, .next = nop_next, .close = nop_close, .cx = &cx};
    plan_op build = {.open = nop_open, .next = nop_next, .close = nop_close, .cx = &cx};
    build.mem_used = fake_mem;
    plan_op join = {.open = nop_open, .next = nop_next, .close = nop_close, .cx = &cx};
    join.child = &leaf;
    join.child2 = &build;
    s->lim_arena = t->a;
    s->lim_base = arena_used(t->a);
    s->lim_mem = 5000;
    s->lim_root = &join;
    db_error err;
    cr_expect_eq((db_error_clear(&err), plan__check_interrupt(s, &err)), DB_ERR);
    cr_expect_geq(plan__stmt_mem_used(s), 10000);
    plan__limits_end(s);
    tx_free(t);
}

Test(plan_explain, max_execution_time_stops_select)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "SET max_execution_time = 20"), DB_OK);
    cr_expect_eq(tx_err(t, "SELECT SLEEP(5) FROM information_schema.ENGINES"), 3024);
    cr_expect_str_eq(tx_one(t, "SELECT COUNT(*) > 0 FROM information_schema.ENGINES"), "1");
    cr_assert_eq(tx_exec(t, "SET max_execution_time = 0"), DB_OK);
    cr_assert_eq(tx_exec(t, "SET exec_mem_limit = 1"), DB_OK);
    cr_expect_eq(tx_err(t, "SELECT COLLATION_NAME FROM information_schema.COLLATIONS ORDER BY 1"),
                 1105);
    cr_assert_eq(tx_exec(t, "SET exec_mem_limit = DEFAULT"), DB_OK);
    cr_expect_eq(tx_exec(t, "SELECT COLLATION_NAME FROM information_schema.COLLATIONS ORDER BY 1"),
                 DB_OK);
    tx_free(t);
}
