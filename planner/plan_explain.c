/* SPDX-License-Identifier: Apache-2.0
 * plan_explain.c: EXPLAIN [VERBOSE | ANALYZE] of a SELECT, and the statement limits
 * (query_timeout / max_execution_time, exec_mem_limit) that plan__check_interrupt enforces.
 * EXPLAIN builds the operator tree with plan__select_build and prints one line per operator,
 * indented by depth, from each operator's describe callback; ANALYZE first runs the tree
 * (rows discarded) with a counting wrapper around every next. See README.md §EXPLAIN. */
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/buf.h"

struct plan_explain {
    plan_ectx *cx;
    int mode;           /* PLAN_EXPLAIN_* */
    const char *vtable; /* information_schema table of a one-table SELECT, or NULL */
    buf line;           /* the operator line being built */
    buf stats;          /* ANALYZE counters of the operator (plan__explain_stat) */
    const char **lines; /* finished lines (statement arena) */
    size_t nlines, cap;
};

/* ======================================================================================
 * Helpers for describe callbacks
 * ====================================================================================== */

void
plan__explain_printf(plan_explain *ex, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if ((size_t)n < sizeof tmp) {
        buf_append(&ex->line, tmp, (size_t)n);
        return;
    }
    char *big = arena_alloc(ex->cx->a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_append(&ex->line, big, (size_t)n);
}

bool
plan__explain_analyzing(const plan_explain *ex)
{
    return ex->mode == PLAN_EXPLAIN_ANALYZE;
}

void
plan__explain_stat(plan_explain *ex, const char *name, uint64_t v)
{
    if (ex->mode != PLAN_EXPLAIN_ANALYZE) {
        return;
    }
    buf_printf(&ex->stats, ", %s=%llu", name, (unsigned long long)v);
}

const char *
plan__explain_vtable(const plan_explain *ex)
{
    return ex->vtable;
}

const char *
plan__explain_expr(plan_explain *ex, const plan_expr *e)
{
    const plan_ectx *cx = ex->cx;
    const plan_ast *x = e ? e->src : NULL;
    if (x && x->kind != PA_STAR && x->end > x->off && x->end <= cx->sql_len) {
        return arena_strndup(cx->a, cx->sql + x->off, x->end - x->off);
    }
    if (x && x->kind == PA_COLUMN && x->name) {
        return x->name; /* a column SELECT * expanded: no text of its own */
    }
    if (e && e->name) {
        return e->name;
    }
    return "?";
}

const char *
plan__explain_cat(plan_explain *ex, const char *a, const char *b, const char *c)
{
    return arena_sprintf(ex->cx->a, "%s%s%s", a, b, c);
}

const char *
plan__explain_col(plan_explain *ex, plan_op *op, uint32_t c)
{
    for (plan_op *o = op; o; o = o->child) {
        if (o->col_name) {
            const char *n = o->col_name(o, c, ex);
            if (n) {
                return n;
            }
        }
        if (!o->child || c >= o->child->ncols || o->ncols != o->child->ncols) {
            break; /* only pass-through operators (same columns as the child) delegate */
        }
    }
    return arena_sprintf(ex->cx->a, "#%u", c);
}

/* ======================================================================================
 * Lines
 * ====================================================================================== */

static const char *
vtype_name(plan_explain *ex, const plan_vtype *t)
{
    switch (t->kind) {
    case PV_NULL:
        return "NULL";
    case PV_INT:
        return t->is_unsigned ? "BIGINT UNSIGNED" : "BIGINT";
    case PV_DOUBLE:
        return "DOUBLE";
    case PV_DECIMAL:
        return arena_sprintf(ex->cx->a, "DECIMAL(scale %u)", t->scale);
    case PV_STRING:
        return t->is_binary ? "VARBINARY" : "VARCHAR";
    case PV_DATE:
        return "DATE";
    case PV_DATETIME:
        return t->scale ? arena_sprintf(ex->cx->a, "DATETIME(%u)", t->scale) : "DATETIME";
    case PV_TIME:
        return "TIME";
    }
    return "?";
}

static void
add_line(plan_explain *ex, const char *s)
{
    if (ex->nlines == ex->cap) {
        size_t ncap = ex->cap ? ex->cap * 2 : 16;
        const char **n = arena_alloc(ex->cx->a, ncap * sizeof *n);
        if (ex->nlines) {
            memcpy(n, ex->lines, ex->nlines * sizeof *n);
        }
        ex->lines = n;
        ex->cap = ncap;
    }
    ex->lines[ex->nlines++] = s;
}

void
plan__op_set_est(plan_op *op, double rows)
{
    op->est_rows = rows > 0 ? rows : 0;
    op->has_est = true;
}

static bool
line_starts(const plan_explain *ex, const char *prefix)
{
    size_t n = strlen(prefix);
    return ex->line.len >= n && memcmp(ex->line.data, prefix, n) == 0;
}

/* The number after prefix at the start of the line (LIMIT(n, VALUES(n rows), or -1. */
static double
line_number(const plan_explain *ex, const char *prefix)
{
    size_t n = strlen(prefix);
    if (!line_starts(ex, prefix) || ex->line.len == n) {
        return -1;
    }
    char tmp[32];
    size_t k = ex->line.len - n < sizeof tmp - 1 ? ex->line.len - n : sizeof tmp - 1;
    memcpy(tmp, ex->line.data + n, k);
    tmp[k] = '\0';
    char *end;
    double v = strtod(tmp, &end);
    return end == tmp ? -1 : v;
}

/* Estimated rows op returns: the planner's (plan__op_set_est: scans, pushed filters, joins),
 * else derived from its inputs' by the kind its EXPLAIN line names: an aggregate without
 * keys 1, with keys a tenth of its input, an information_schema table 100, a filter half, a LIMIT
 * at most its count, a join without a planner estimate the larger input (hash) or the product
 * (nested loop), a semi / anti join or EXCEPT its left input, INTERSECT the smaller input, UNION
 * the sum; anything else passes its input's through. Uses ex->line as scratch; remembered in op. */
static double
est_rows(plan_explain *ex, plan_op *op)
{
    if (op->has_est) {
        return op->est_rows;
    }
    double c = op->child ? est_rows(ex, op->child) : 1;
    double c2 = op->child2 ? est_rows(ex, op->child2) : 0;
    double sum = 0, rmin = -1; /* n-ary: the sum of every input, the smallest right input */
    for (uint32_t i = 0; i < op->ninputs; i++) {
        double v = est_rows(ex, op->inputs[i]);
        sum += v;
        if (i == 0) {
            c = v;
        } else if (rmin < 0 || v < rmin) {
            rmin = v;
        }
    }
    buf_clear(&ex->line);
    buf_clear(&ex->stats);
    if (op->describe) {
        op->describe(op, ex);
    }
    double r = c, v;
    if (line_starts(ex, "AGGREGATE(")) {
        bool keys = memchr(ex->line.data, ';', ex->line.len) != NULL;
        r = keys ? (c > 10 ? c / 10 : c) : 1;
    } else if (line_starts(ex, "FILTER(")) {
        r = c / 2;
    } else if ((v = line_number(ex, "LIMIT(")) >= 0) {
        r = v < c ? v : c;
    } else if ((v = line_number(ex, "VALUES(")) >= 0) {
        r = v;
    } else if (line_starts(ex, "INFORMATION_SCHEMA SCAN(")) {
        r = 100; /* a guess: the catalog's size is not the planner's business */
    } else if (line_starts(ex, "HASH JOIN(")) {
        r = c > c2 ? c : c2;
    } else if (line_starts(ex, "NESTED LOOP JOIN(")) {
        r = c * c2;
    } else if (op->ninputs && line_starts(ex, "UNION")) {
        r = sum;
    } else if (op->ninputs && line_starts(ex, "INTERSECT")) {
        r = rmin >= 0 && rmin < c ? rmin : c;
    } else if (line_starts(ex, "INTERSECT")) {
        r = c < c2 ? c : c2;
    } else if (line_starts(ex, "EXCEPT") ||
               memmem(ex->line.data, ex->line.len, "SEMI JOIN", 9) != NULL ||
               memmem(ex->line.data, ex->line.len, "ANTI JOIN", 9) != NULL) {
        r = c; /* at most the left input's rows */
    } else if (op->child2) {
        r = c + c2;
    }
    plan__op_set_est(op, r);
    return op->est_rows;
}

/* One line for op at depth, then its inputs one level deeper. */
static void
describe_tree(plan_explain *ex, plan_op *op, uint32_t depth)
{
    double est = est_rows(ex, op);
    buf_clear(&ex->line);
    buf_clear(&ex->stats);
    for (uint32_t i = 0; i < depth; i++) {
        buf_append_str(&ex->line, "  ");
    }
    if (op->describe) {
        op->describe(op, ex);
    } else {
        buf_append_str(&ex->line, "OPERATOR");
    }
    /* whole rows: a fraction of a row shows as 1 */
    plan__explain_printf(ex, " | est rows=%.0f",
                         est > 0 && est < 1 ? 1 : (est < 1e18 ? est : 1e18));
    if (ex->mode == PLAN_EXPLAIN_VERBOSE) {
        buf_append_str(&ex->line, " | types: ");
        for (uint32_t c = 0; c < op->ncols; c++) {
            plan__explain_printf(ex, "%s%s", c ? ", " : "", vtype_name(ex, &op->types[c]));
        }
    }
    if (ex->mode == PLAN_EXPLAIN_ANALYZE) {
        plan__explain_printf(ex, ", actual rows=%llu", (unsigned long long)op->rows_out);
        buf_append(&ex->line, ex->stats.data, ex->stats.len);
    }
    add_line(ex, arena_strndup(ex->cx->a, (const char *)ex->line.data, ex->line.len));
    for (uint32_t i = 0; i < op->ninputs; i++) {
        describe_tree(ex, op->inputs[i], depth + 1);
    }
    if (op->child && !op->ninputs) {
        describe_tree(ex, op->child, depth + 1);
    }
    if (op->child2) {
        describe_tree(ex, op->child2, depth + 1);
    }
}

/* ======================================================================================
 * ANALYZE: a counting wrapper around every operator's next
 * ====================================================================================== */

static int
counting_next(plan_op *op, plan_batch **out, db_error *err)
{
    int rc = op->next_inner(op, out, err);
    if (rc == DB_OK && *out) {
        op->rows_out += plan__batch_active(*out);
    }
    return rc;
}

static void
install_counters(plan_op *op)
{
    if (op == NULL || op->next == counting_next) {
        return;
    }
    op->rows_out = 0;
    op->next_inner = op->next;
    op->next = counting_next;
    install_counters(op->child);
    install_counters(op->child2);
    for (uint32_t i = 0; i < op->ninputs; i++) {
        install_counters(op->inputs[i]);
    }
}

static int
discard_batch(void *ctx, const plan_batch *b, db_error *err)
{
    (void)ctx;
    (void)b;
    (void)err;
    return DB_OK;
}

/* The information_schema table a one-table SELECT reads (upper case), or NULL. */
static const char *
single_vtable(plan_ectx *cx, const plan_stmt *st)
{
    if (st->ntables != 1) {
        return NULL;
    }
    const plan_table_ref *t = &st->tables[0];
    const char *db = t->db ? t->db : cx->s->db;
    if (db == NULL || strcasecmp(db, "information_schema") != 0) {
        return NULL;
    }
    const plan_vtable *vt = plan__vtable_find(t->name);
    return vt ? vt->name : NULL;
}

int
plan__explain(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
              db_error *err)
{
    plan_column col;
    plan_xtype t;
    plan__type_string(&t, 65533, false);
    plan__col_init(&col, "Explain String", &t);
    plan_op *root = NULL;
    if (st->ntables > 0 || st->setop != PLAN_SETOP_NONE) {
        plan_column *cols;
        uint32_t ncols;
        if (plan__select_build(cx, st, &root, &cols, &ncols, err) != DB_OK) {
            return DB_ERR;
        }
    }
    if (cx->describe) {
        return sink->columns(sink->ctx, &col, 1, err);
    }
    plan_explain ex;
    memset(&ex, 0, sizeof ex);
    ex.cx = cx;
    ex.mode = st->explain;
    ex.vtable = single_vtable(cx, st);
    buf_init(&ex.line);
    buf_init(&ex.stats);
    int rc = DB_OK;
    if (root && ex.mode == PLAN_EXPLAIN_ANALYZE) {
        install_counters(root);
        rc = plan__op_drain(root, discard_batch, NULL, err);
    }
    if (rc == DB_OK && root) {
        describe_tree(&ex, root, 0);
    } else if (rc == DB_OK) {
        add_line(&ex, ex.mode == PLAN_EXPLAIN_ANALYZE ? "ONE ROW | actual rows=1" : "ONE ROW");
    }
    buf_destroy(&ex.line);
    buf_destroy(&ex.stats);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    out->is_result_set = true;
    if (sink->columns(sink->ctx, &col, 1, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < ex.nlines; i++) {
        plan_cell cell;
        memset(&cell, 0, sizeof cell);
        cell.data = ex.lines[i];
        cell.len = strlen(ex.lines[i]);
        if (sink->row(sink->ctx, &cell, 1, err) != DB_OK) {
            return DB_ERR;
        }
    }
    cx->s->found_rows = ex.nlines;
    return DB_OK;
}

/* ======================================================================================
 * Statement limits
 *
 * The deadline and the memory budget are per statement and live in the session (lim_*),
 * because plan__check_interrupt(session) is what every long loop already calls: table scan
 * batches, sort and aggregation input, projections, SLEEP. Memory is not accounted inside
 * common/arena (other modules keep their semantics): a check sums, at those same points,
 * the statement arena's growth since the statement began (sort buffers and materialized rows
 * live there), every operator's batch arena, and what operators report through mem_used
 * (aggregation hash tables, join build sides). So a limit is noticed within one batch of
 * being passed, and the statement fails with ER_EXEC_MEM_LIMIT instead of growing further.
 * ====================================================================================== */

static int64_t
mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Operators of more than this many in a tree: its memory is summed at most once per ms. */
#define PLAN_LIM_BIG_TREE 256

/* Operators visited by the walks (n-ary operators walk their open input through mem_used). */
static _Thread_local uint32_t walk_nops;

size_t
plan__op_tree_mem(const plan_op *op)
{
    size_t n = 0;
    for (; op; op = op->ninputs ? NULL : op->child) {
        walk_nops++;
        if (op->ba) {
            n += arena_used(op->ba);
        }
        if (op->mem_used) {
            n += op->mem_used(op);
        }
        if (op->child2) {
            n += plan__op_tree_mem(op->child2);
        }
    }
    return n;
}

size_t
plan__stmt_mem_used(const plan_session *s)
{
    size_t n = 0;
    if (s->lim_arena) {
        size_t used = arena_used(s->lim_arena);
        n += used > s->lim_base ? used - s->lim_base : 0;
    }
    return n + plan__op_tree_mem(s->lim_root);
}

int
plan__check_limits(plan_session *s, db_error *err)
{
    if (s->lim_deadline_ns && mono_ns() >= s->lim_deadline_ns) {
        return db_error_set(err, ER_QUERY_TIMEOUT);
    }
    if (s->lim_mem) {
        /* A tree of thousands of operators (every batch of every level checks) is summed at
         * most once per millisecond, else each check would cost as much as the tree. */
        if (s->lim_big_tree) {
            int64_t now = mono_ns();
            if (now < s->lim_walk_ns) {
                return DB_OK;
            }
            s->lim_walk_ns = now + 1000000;
        }
        size_t used = 0;
        if (s->lim_arena) {
            size_t a = arena_used(s->lim_arena);
            used = a > s->lim_base ? a - s->lim_base : 0;
        }
        walk_nops = 0;
        used += plan__op_tree_mem(s->lim_root);
        s->lim_big_tree = walk_nops > PLAN_LIM_BIG_TREE;
        if (used > s->lim_mem) {
            /* The exact figure depends on where the check ran: a note, so the error text stays
             * the same from run to run. */
            plan__note(s, 1105, "Memory limit exceeded: the query used %llu bytes when stopped",
                       (unsigned long long)used);
            return db_error_set(err, ER_EXEC_MEM_LIMIT, (unsigned long long)s->lim_mem);
        }
    }
    return DB_OK;
}

bool
plan__limits_begin(plan_ectx *cx, const plan_stmt *st)
{
    plan_session *s = cx->s;
    if (s->lim_arena != NULL || cx->describe) {
        return false; /* a nested statement runs under its parent's limits */
    }
    bool query = st->kind == PS_SELECT;
    if (!query && st->kind != PS_INSERT && st->kind != PS_UPDATE && st->kind != PS_DELETE) {
        return false;
    }
    s->lim_arena = cx->a;
    s->lim_base = arena_used(cx->a);
    s->lim_root = NULL;
    s->lim_big_tree = false;
    s->lim_walk_ns = 0;
    int64_t mem = s->vars[plan__sysvar_find("exec_mem_limit")].i;
    s->lim_mem = mem > 0 ? (uint64_t)mem : 0;
    s->lim_deadline_ns = 0;
    if (query) {
        /* Doris query_timeout (seconds) and MySQL max_execution_time (ms, 0 = none): the
         * smaller one wins. */
        int64_t limit_ns = 0;
        int64_t qt = s->vars[plan__sysvar_find("query_timeout")].i;
        if (qt > 0) {
            limit_ns = qt * INT64_C(1000000000);
        }
        uint64_t met = (uint64_t)s->vars[plan__sysvar_find("max_execution_time")].i;
        if (met > 0 && (limit_ns == 0 || (int64_t)met * 1000000 < limit_ns)) {
            limit_ns = (int64_t)met * 1000000;
        }
        if (limit_ns > 0) {
            s->lim_deadline_ns = mono_ns() + limit_ns;
        }
    }
    return true;
}

void
plan__limits_end(plan_session *s)
{
    s->lim_arena = NULL;
    s->lim_base = 0;
    s->lim_root = NULL;
    s->lim_big_tree = false;
    s->lim_mem = 0;
    s->lim_deadline_ns = 0;
}
