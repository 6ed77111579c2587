/* SPDX-License-Identifier: Apache-2.0
 * Grammar: statement shapes, precedence, and MySQL's syntax error texts. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/parse.h"
#include "planner/plan_int.h"

static plan_stmt *
parse_ok(arena *a, const char *sql)
{
    plan_stmt *st = NULL;
    db_error err;
    db_error_clear(&err);
    int rc = plan__parse(a, sql, strlen(sql), false, false, false, &st, &err);
    cr_assert_eq(rc, DB_OK, "parse of [%s] failed: %s", sql, err.msg);
    return st;
}

static const char *
parse_err(arena *a, const char *sql, int *code)
{
    plan_stmt *st = NULL;
    static db_error err;
    db_error_clear(&err);
    int rc = plan__parse(a, sql, strlen(sql), false, false, false, &st, &err);
    cr_assert_eq(rc, DB_ERR, "parse of [%s] should fail", sql);
    *code = err.code;
    return err.msg;
}

Test(plan_parse, select_shapes)
{
    arena *a = arena_new(0);
    plan_stmt *st = parse_ok(a, "SELECT 1, 'a' AS x, 2 y, 3 'z', 4 AS \"w\" FROM DUAL LIMIT 1");
    cr_assert_eq(st->kind, PS_SELECT);
    cr_assert_eq(st->nitems, 5);
    cr_assert_null(st->items[0].alias);
    cr_assert_str_eq(st->items[1].alias, "x");
    cr_assert_str_eq(st->items[2].alias, "y");
    cr_assert_str_eq(st->items[3].alias, "z");
    cr_assert_str_eq(st->items[4].alias, "w");
    cr_assert(st->has_limit);
    cr_assert_eq(st->limit_count, 1);
    st = parse_ok(a, "select 1 limit 2, 3");
    cr_assert_eq(st->limit_offset, 2);
    cr_assert_eq(st->limit_count, 3);
    st = parse_ok(a, "select 1 limit 3 offset 2");
    cr_assert_eq(st->limit_offset, 2);
    cr_assert_eq(st->limit_count, 3);
    st = parse_ok(a, "select * from db1.t1 as x, t2");
    cr_assert_eq(st->ntables, 2);
    cr_assert_str_eq(st->tables[0].db, "db1");
    cr_assert_str_eq(st->tables[0].alias, "x");
    cr_assert(st->items[0].is_star);
    arena_free(a);
}

Test(plan_parse, precedence)
{
    arena *a = arena_new(0);
    plan_stmt *st = parse_ok(a, "select 1 + 2 * 3");
    plan_ast *x = st->items[0].expr;
    cr_assert_eq(x->kind, PA_BINARY);
    cr_assert_eq(x->op, XOP_PLUS);
    cr_assert_eq(x->args[1]->op, XOP_MUL);
    st = parse_ok(a, "select not 1 = 2");
    x = st->items[0].expr;
    cr_assert_eq(x->kind, PA_UNARY);
    cr_assert_eq(x->args[0]->op, XOP_EQ);
    st = parse_ok(a, "select 1 between 0 and 2 and 3");
    x = st->items[0].expr;
    cr_assert_eq(x->op, XOP_AND);
    cr_assert_eq(x->args[0]->kind, PA_BETWEEN);
    st = parse_ok(a, "select a or b xor c and d");
    x = st->items[0].expr;
    cr_assert_eq(x->op, XOP_OR);
    cr_assert_eq(x->args[1]->op, XOP_XOR);
    cr_assert_eq(x->args[1]->args[1]->op, XOP_AND);
    st = parse_ok(a, "select @a := 1 + 2");
    x = st->items[0].expr;
    cr_assert_eq(x->kind, PA_ASSIGN);
    cr_assert_eq(x->args[0]->op, XOP_PLUS);
    st = parse_ok(a, "select - - 1, !0 = 1");
    cr_assert_eq(st->items[1].expr->kind, PA_BINARY); /* (!0) = 1 */
    st = parse_ok(a, "select 'a' 'b' 'c'");
    cr_assert_eq(st->items[0].expr->kind, PA_STRING);
    cr_assert_str_eq(st->items[0].expr->str, "abc");
    arena_free(a);
}

Test(plan_parse, spans_cover_the_written_text)
{
    arena *a = arena_new(0);
    const char *sql = "select  ( 1 + 2 ) , now( ) , x.y";
    plan_stmt *st = parse_ok(a, sql);
    plan_ast *x = st->items[0].expr;
    cr_assert_eq(strncmp(sql + x->off, "( 1 + 2 )", x->end - x->off), 0);
    x = st->items[1].expr;
    cr_assert_eq(strncmp(sql + x->off, "now( )", x->end - x->off), 0);
    cr_assert_eq(x->end - x->off, 6);
    arena_free(a);
}

Test(plan_parse, nonreserved_keywords_are_identifiers)
{
    arena *a = arena_new(0);
    plan_stmt *st = parse_ok(a, "select status, variables, names, global, session, `date`, "
                                "user() , database(), count, end, level");
    cr_assert_eq(st->nitems, 11);
    cr_assert_eq(st->items[0].expr->kind, PA_COLUMN);
    cr_assert_str_eq(st->items[0].expr->name, "status");
    cr_assert_eq(st->items[6].expr->kind, PA_FUNC);
    st = parse_ok(a, "select 1 status");
    cr_assert_str_eq(st->items[0].alias, "status");
    arena_free(a);
}

Test(plan_parse, statements)
{
    arena *a = arena_new(0);
    cr_assert_eq(parse_ok(a, "SET autocommit=1")->kind, PS_SET);
    cr_assert_eq(parse_ok(a, "set transaction isolation level read committed")->kind,
                 PS_SET_TRANSACTION);
    cr_assert_eq(parse_ok(a, "SET GLOBAL TRANSACTION READ ONLY")->kind, PS_SET_TRANSACTION);
    cr_assert_eq(parse_ok(a, "show variables like 'x%'")->kind, PS_SHOW_VARIABLES);
    cr_assert_eq(parse_ok(a, "show global status")->kind, PS_SHOW_STATUS);
    cr_assert_eq(parse_ok(a, "show full processlist")->kind, PS_SHOW_PROCESSLIST);
    cr_assert_eq(parse_ok(a, "show count(*) warnings")->kind, PS_SHOW_COUNT_WARNINGS);
    cr_assert_eq(parse_ok(a, "show databases")->kind, PS_SHOW_DATABASES);
    cr_assert_eq(parse_ok(a, "show character set")->kind, PS_SHOW_CHARSET);
    cr_assert_eq(parse_ok(a, "kill query 5")->kind, PS_KILL);
    cr_assert_eq(parse_ok(a, "use `mysql`")->kind, PS_USE);
    cr_assert_eq(parse_ok(a, "begin work")->kind, PS_BEGIN);
    cr_assert_eq(parse_ok(a, "START TRANSACTION READ ONLY, WITH CONSISTENT SNAPSHOT")->kind,
                 PS_BEGIN);
    cr_assert_eq(parse_ok(a, "commit work;")->kind, PS_COMMIT);
    cr_assert_eq(parse_ok(a, "rollback")->kind, PS_ROLLBACK);
    cr_assert_eq(parse_ok(a, "set password = 'x'")->kind, PS_DCL);
    plan_stmt *st = parse_ok(a, "SET GLOBAL a=1, b=2, SESSION c=3, d=4, @@global.e=5, f=6");
    cr_assert_eq(st->nsets, 6);
    cr_assert_eq(st->sets[0].scope, PLAN_SCOPE_GLOBAL);
    cr_assert_eq(st->sets[1].scope, PLAN_SCOPE_GLOBAL);
    cr_assert_eq(st->sets[2].scope, PLAN_SCOPE_SESSION);
    cr_assert_eq(st->sets[3].scope, PLAN_SCOPE_SESSION);
    cr_assert_eq(st->sets[4].scope, PLAN_SCOPE_GLOBAL);
    cr_assert_eq(st->sets[5].scope, PLAN_SCOPE_SESSION);
    arena_free(a);
}

Test(plan_parse, syntax_error_text)
{
    arena *a = arena_new(0);
    int code;
    const char *msg = parse_err(a, "select 1 frm dual", &code);
    cr_assert_eq(code, 1064);
    cr_assert_str_eq(msg, "You have an error in your SQL syntax; check the manual that corresponds "
                          "to your MySQL server version for the right syntax to use near 'dual' "
                          "at line 1");
    msg = parse_err(a, "select 1 +", &code);
    cr_assert_str_eq(msg, "You have an error in your SQL syntax; check the manual that corresponds "
                          "to your MySQL server version for the right syntax to use near '' at "
                          "line 1");
    msg = parse_err(a, "select\n1\n,,", &code);
    cr_assert(strstr(msg, "near ',' at line 3") != NULL, "%s", msg);
    msg = parse_err(a, "selec 1", &code);
    cr_assert(strstr(msg, "near 'selec 1' at line 1") != NULL, "%s", msg);
    msg = parse_err(a, "select 'abc", &code);
    cr_assert(strstr(msg, "near ''abc' at line 1") != NULL, "%s", msg);
    arena_free(a);
}

Test(plan_parse, syntax_error_truncates_to_80)
{
    arena *a = arena_new(0);
    char sql[300];
    strcpy(sql, "select 1 2 ");
    for (int i = 0; i < 20; i++) {
        strcat(sql, "abcdefghij");
    }
    int code;
    const char *msg = parse_err(a, sql, &code);
    const char *near = strstr(msg, "near '");
    cr_assert_not_null(near);
    near += 6;
    const char *end = strstr(near, "' at line");
    cr_assert_eq(end - near, 80);
    arena_free(a);
}

Test(plan_parse, empty_query)
{
    arena *a = arena_new(0);
    int code;
    parse_err(a, "  -- nothing\n /* here */ ", &code);
    cr_assert_eq(code, 1065);
    parse_err(a, ";", &code);
    cr_assert_eq(code, 1065);
    arena_free(a);
}

Test(plan_parse, two_statements_is_a_syntax_error)
{
    arena *a = arena_new(0);
    int code;
    const char *msg = parse_err(a, "select 1; select 2", &code);
    cr_assert_eq(code, 1064);
    cr_assert(strstr(msg, "near 'select 2' at line 1") != NULL, "%s", msg);
    arena_free(a);
}

Test(plan_parse, deep_nesting_overflows_cleanly)
{
    arena *a = arena_new(0);
    static char sql[20000];
    strcpy(sql, "select ");
    for (int i = 0; i < 5000; i++) {
        strcat(sql, "(");
    }
    strcat(sql, "1");
    for (int i = 0; i < 5000; i++) {
        strcat(sql, ")");
    }
    int code;
    const char *msg = parse_err(a, sql, &code);
    cr_assert_eq(code, 1064);
    cr_assert(strncmp(msg, "memory exhausted near", 21) == 0, "%s", msg);
    arena_free(a);
}

Test(plan_parse, foreign_statements_are_syntax_errors)
{
    tx *t = tx_new();
    /* DML parses; the fresh catalog has no database db1 to write into. */
    cr_assert_eq(tx_err(t, "insert into db1.t values (1)"), 1049);
    cr_assert_eq(tx_err(t, "insert into t values (1)"), 1046);
    cr_assert_eq(tx_err(t, "insert t value (1)"), 1064);
    /* DDL parses; without a current database it is refused cleanly. */
    cr_assert_eq(tx_err(t, "create table t (a int)"), 1046);
    cr_assert_eq(tx_err(t, "frobnicate"), 1064);
    cr_assert_str_eq(t->err.sqlstate, "42000");
    tx_free(t);
}

/* Run every statement of sql the way the server does (split, then plan_execute_multi on the
 * rest of the text); returns the index of the first failing statement, or -1. */
static int
run_multi(tx *t, const char *sql)
{
    size_t len = strlen(sql), off = 0;
    for (int i = 0; off < len && !plan_is_blank(sql + off, len - off); i++) {
        size_t n = plan_statement_split(sql + off, len - off);
        if (tx_exec_multi(t, sql + off, n) != DB_OK) {
            return i;
        }
        off += n;
    }
    return -1;
}

Test(plan_parse, multi_statement_error_quotes_the_rest_of_the_query)
{
    tx *t = tx_new();
    cr_assert_eq(run_multi(t, "SELECT 1; SELEC 2; SELECT 3"), 1);
    cr_assert_eq(t->err.code, 1064);
    cr_assert(strstr(t->err.msg, "near 'SELEC 2; SELECT 3' at line 1") != NULL, "%s", t->err.msg);
    /* Trailing ';' and blanks of the whole query are not quoted (MySQL strips them). */
    cr_assert_eq(run_multi(t, "SELECT 1; SELEC 2; SELECT 3;  \n"), 1);
    cr_assert(strstr(t->err.msg, "near 'SELEC 2; SELECT 3' at line 1") != NULL, "%s", t->err.msg);
    cr_assert_eq(run_multi(t, "SELEC 1;"), 0);
    cr_assert(strstr(t->err.msg, "near 'SELEC 1' at line 1") != NULL, "%s", t->err.msg);
    cr_assert_eq(run_multi(t, "SELECT 1 +; SELECT 2"), 0);
    cr_assert(strstr(t->err.msg, "near '; SELECT 2' at line 1") != NULL, "%s", t->err.msg);
    cr_assert_eq(run_multi(t, "SELECT 1 +;"), 0);
    cr_assert(strstr(t->err.msg, "near '' at line 1") != NULL, "%s", t->err.msg);
    /* Lines count from the statement's first non-blank byte. */
    cr_assert_eq(run_multi(t, "SELECT 1;\n\n  SELECT\n2 3;\nSELECT 4"), 1);
    /* (db_error_set turns the newline inside the quote into a space.) */
    cr_assert(strstr(t->err.msg, "near '3; SELECT 4' at line 2") != NULL, "%s", t->err.msg);
    tx_free(t);
}

Test(plan_parse, multi_statement_runs_only_its_statement)
{
    tx *t = tx_new();
    const char *sql = "SELECT 1; SELECT 2";
    cr_assert_eq(tx_exec_multi(t, sql, plan_statement_split(sql, strlen(sql))), DB_OK, "%s",
                 t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    cr_assert_eq(t->nrows, 1);
    cr_assert_eq(run_multi(t, "SET @a = 5; SELECT @a + 1"), -1, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "6");
    cr_assert_str_eq(t->cols[0].name, "@a + 1");
    tx_free(t);
}

Test(plan_parse, multi_statement_near_text_is_capped_at_80)
{
    tx *t = tx_new();
    char sql[400];
    strcpy(sql, "SELECT 1; SELEC 2;");
    for (int i = 0; i < 20; i++) {
        strcat(sql, " SELECT 3;");
    }
    cr_assert_eq(run_multi(t, sql), 1);
    const char *near = strstr(t->err.msg, "near '");
    cr_assert_not_null(near);
    near += 6;
    const char *end = strstr(near, "' at line");
    cr_assert_not_null(end);
    cr_assert_eq(end - near, 80, "%s", t->err.msg);
    tx_free(t);
}

Test(plan_parse, plan_execute_keeps_quoting_its_own_text)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "SELEC 2;"), 1064);
    cr_assert(strstr(t->err.msg, "near 'SELEC 2;' at line 1") != NULL, "%s", t->err.msg);
    tx_free(t);
}

/* Query expressions are built bottom-up: parentheses may open a query wherever MySQL 8 takes
 * one (plan_query.c). */
Test(plan_parse, parenthesised_queries)
{
    arena *a = arena_new(0);
    /* INTERSECT binds tighter; parentheses regroup (a parenthesised set operation is one
     * PAREN operand) */
    plan_stmt *st = parse_ok(a, "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3");
    cr_assert_eq(st->setop, PLAN_SETOP_UNION);
    cr_assert_eq(st->setop_left->setop, PLAN_SETOP_NONE);
    cr_assert_eq(st->setop_right->setop, PLAN_SETOP_INTERSECT);
    cr_assert_eq(st->setop_right->parent, st);
    st = parse_ok(a, "(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3");
    cr_assert_eq(st->setop, PLAN_SETOP_INTERSECT);
    cr_assert_eq(st->setop_left->setop, PLAN_SETOP_PAREN);
    cr_assert_eq(st->setop_left->setop_left->setop, PLAN_SETOP_UNION);
    st = parse_ok(a, "SELECT 1 UNION (SELECT 2 UNION ALL SELECT 3)");
    cr_assert_eq(st->setop_right->setop, PLAN_SETOP_PAREN);
    cr_assert(st->setop_right->setop_left->setop_all);
    /* ORDER BY / LIMIT after the last operand are the whole's; inside parentheses its own */
    st = parse_ok(a, "(SELECT 1) UNION (SELECT 2 LIMIT 1) ORDER BY 1 LIMIT 5");
    cr_assert_not_null(st->order);
    cr_assert_eq(st->limit_count, 5);
    cr_assert_eq(st->setop_right->limit_count, 1);
    cr_assert_null(st->setop_right->order);
    st = parse_ok(a, "SELECT 1 UNION SELECT 2 ORDER BY 1");
    cr_assert_not_null(st->order);
    cr_assert_null(st->setop_right->order);
    st = parse_ok(a, "(SELECT a FROM t ORDER BY a LIMIT 3) ORDER BY a DESC");
    cr_assert_eq(st->setop, PLAN_SETOP_PAREN);
    cr_assert(st->order_desc[0]);
    cr_assert_eq(st->setop_left->limit_count, 3);
    st = parse_ok(a, "SELECT 1 ORDER BY 1 UNION SELECT 2");
    cr_assert_eq(st->setop_misuse, 1);
    /* the statement's own parenthesised query is the statement */
    st = parse_ok(a, "((SELECT 1, 2))");
    cr_assert_eq(st->setop, PLAN_SETOP_NONE);
    cr_assert_eq(st->nitems, 2);
    /* derived tables whose body starts with '(' (a join tree's '(' turned query) */
    st = parse_ok(a, "SELECT * FROM ((SELECT 1 a) UNION ALL (SELECT 2)) d");
    cr_assert_eq(st->ntables, 1);
    cr_assert_str_eq(st->tables[0].alias, "d");
    cr_assert_eq(st->tables[0].sub->setop, PLAN_SETOP_UNION);
    /* nested statements reach the statement through their parents (CTEs are looked up so) */
    cr_assert(st->tables[0].sub->parent == st || st->tables[0].sub->parent->parent == st);
    st = parse_ok(a, "SELECT * FROM (((SELECT 1 a) UNION (SELECT 2)) x JOIN t ON 1 = 1)");
    cr_assert_eq(st->ntables, 2);
    cr_assert_not_null(st->tables[0].sub);
    cr_assert_str_eq(st->tables[1].name, "t");
    st = parse_ok(a, "SELECT * FROM ((t1 JOIN t2 ON 1 = 1))");
    cr_assert_eq(st->ntables, 2);
    /* CTE bodies, WITH inside parentheses (its own scope) */
    st = parse_ok(a, "WITH c AS ((SELECT 1) UNION (SELECT 2)) SELECT * FROM c");
    cr_assert_eq(st->nctes, 1);
    cr_assert_eq(st->ctes[0].st->setop, PLAN_SETOP_UNION);
    cr_assert_eq(st->ctes[0].st->parent, st);
    st = parse_ok(a, "SELECT * FROM (WITH c AS (SELECT 1) SELECT * FROM c) d");
    cr_assert_eq(st->nctes, 0);
    cr_assert_eq(st->tables[0].sub->nctes, 1);
    /* subqueries: `((SELECT ...))` is a query in parentheses, `((SELECT 1) + 1)` an expression */
    st = parse_ok(
            a,
            "SELECT 1 IN ((SELECT 1 UNION SELECT 2)), ((SELECT 1) + 1), ((SELECT 1), 2) = (1, 2)");
    cr_assert_eq(st->items[0].expr->kind, PA_SUBQUERY);
    cr_assert_eq(st->items[0].expr->op, PLAN_SUBQ_IN);
    cr_assert_eq(st->items[1].expr->kind, PA_BINARY);
    st = parse_ok(
            a,
            "SELECT x = ANY ((SELECT 1)), x = SOME (SELECT 1), ABS((SELECT -1)), any, some FROM t");
    cr_assert_eq(st->items[0].expr->op, PLAN_SUBQ_ANY);
    cr_assert_eq(st->items[1].expr->op, PLAN_SUBQ_ANY);
    cr_assert_eq(st->items[2].expr->kind, PA_FUNC);
    cr_assert_eq(st->items[3].expr->kind, PA_COLUMN);
    /* the subquery's label is its text */
    st = parse_ok(a, "SELECT ((SELECT 1))");
    cr_assert_eq(st->items[0].expr->off, 7);
    cr_assert_eq(st->items[0].expr->end, 19);
    int code = 0;
    parse_err(a, "SELECT * FROM ((SELECT 1))", &code);
    cr_assert_eq(code, 1064);
    parse_err(a, "SELECT * FROM (())", &code);
    cr_assert_eq(code, 1064);
    parse_err(a, "SELECT x = f(SELECT 1)", &code);
    cr_assert_eq(code, 1064);
    arena_free(a);
}

Test(plan_parse, insert_with_and_explain)
{
    arena *a = arena_new(0);
    plan_stmt *st = parse_ok(a, "INSERT INTO t WITH c AS (SELECT 1) SELECT * FROM c");
    cr_assert_eq(st->kind, PS_INSERT);
    cr_assert(st->dml_select);
    cr_assert_eq(st->nctes, 1);
    cr_assert_eq(st->ntables, 1);
    st = parse_ok(a, "INSERT INTO t (SELECT 1)");
    cr_assert(st->dml_select);
    cr_assert(!st->dml_has_cols);
    st = parse_ok(a, "INSERT INTO t (a, b) ((SELECT 1, 2) UNION (SELECT 3, 4))");
    cr_assert_eq(st->ndml_cols, 2);
    cr_assert_eq(st->setop, PLAN_SETOP_UNION);
    st = parse_ok(
            a,
            "INSERT INTO t PARTITION (p1) WITH LABEL l1 (a) WITH c AS (SELECT 1) SELECT * FROM c");
    cr_assert_str_eq(st->label, "l1");
    cr_assert_eq(st->ndml_parts, 1);
    cr_assert_eq(st->nctes, 1);
    st = parse_ok(a, "INSERT INTO t () VALUES ()");
    cr_assert_eq(st->kind, PS_INSERT);
    cr_assert(!st->dml_select);
    st = parse_ok(a, "EXPLAIN WITH c AS (SELECT 1) SELECT * FROM c");
    cr_assert_eq(st->kind, PS_SELECT);
    cr_assert_eq(st->explain, PLAN_EXPLAIN_PLAIN);
    cr_assert_eq(st->nctes, 1);
    st = parse_ok(a, "DESC (SELECT 1) UNION (SELECT 2)");
    cr_assert_eq(st->explain, PLAN_EXPLAIN_PLAIN);
    cr_assert_eq(st->setop, PLAN_SETOP_UNION);
    st = parse_ok(a, "EXPLAIN INSERT INTO t SELECT 1");
    cr_assert_eq(st->kind, PS_UNSUPPORTED);
    arena_free(a);
}

Test(plan_parse, aggregate_all_and_extract)
{
    arena *a = arena_new(0);
    plan_stmt *st = parse_ok(
            a, "SELECT COUNT(ALL *), SUM(ALL x), GROUP_CONCAT(ALL s ORDER BY s SEPARATOR '-'), "
               "MAX(ALL x) OVER () FROM t");
    cr_assert_eq(st->nitems, 4);
    cr_assert_str_eq(st->items[1].expr->name, "SUM");
    cr_assert(!st->items[1].expr->agg_distinct);
    cr_assert_not_null(st->items[2].expr->agg_order);
    int code = 0;
    const char *msg = parse_err(a, "SELECT ABS(ALL 1)", &code);
    cr_assert_eq(code, 1064);
    cr_assert(strstr(msg, "near 'ALL 1)'") != NULL, "%s", msg);
    parse_err(a, "SELECT SUM(ALL *) FROM t", &code);
    cr_assert_eq(code, 1064);
    parse_err(a, "SELECT COUNT(ALL DISTINCT x) FROM t", &code);
    cr_assert_eq(code, 1064);
    st = parse_ok(
            a, "SELECT EXTRACT(YEAR_MONTH FROM d), EXTRACT (microsecond FROM d), extract FROM t");
    cr_assert_eq(st->items[0].expr->kind, PA_FUNC);
    cr_assert_str_eq(st->items[0].expr->name, "extract");
    cr_assert_eq(st->items[0].expr->op, PLAN_UNIT_YEAR_MONTH);
    cr_assert_eq(st->items[1].expr->op, PLAN_UNIT_MICROSECOND);
    cr_assert_eq(st->items[2].expr->kind, PA_COLUMN);
    parse_err(a, "SELECT EXTRACT(WEEKS FROM d) FROM t", &code);
    cr_assert_eq(code, 1064);
    arena_free(a);
}
