/* SPDX-License-Identifier: Apache-2.0
 * plan_exec.c: statement execution. plan_execute parses one statement and runs it: SELECT
 * without tables, SET, SHOW (variables, status, warnings, processlist, databases, tables,
 * character sets, collations), KILL, USE and transaction control. Diagnostics of the statement
 * are recorded in the session for SHOW WARNINGS. plan__describe is the prepare-time variant:
 * the same analysis, the result columns, nothing evaluated. See README.md §Statements. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "catalog/catalog.h"
#include "common/strutil.h"

/* Rows built in memory for SHOW statements (small by construction; plan_exec_int.h). */
typedef plan_rowset rowset;

static int exec_select(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                       db_error *err);
static int exec_set(plan_ectx *cx, const plan_stmt *st, db_error *err);
static int exec_set_transaction(plan_ectx *cx, const plan_stmt *st, db_error *err);
static int exec_show_variables(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                               db_error *err);
static int exec_show_status(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                            db_error *err);
static int exec_show_warnings(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                              db_error *err);
static int exec_show_processlist(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink,
                                 db_error *err);
static int exec_show_misc(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
static int exec_kill(plan_ectx *cx, const plan_stmt *st, db_error *err);
static int check_kill_priv(plan_ectx *cx, uint64_t id, db_error *err);
static void rs_init(arena *a, rowset *rs, const char *const *names, size_t ncols);
static void rs_add(arena *a, rowset *rs, const char *const *row);
static int rs_send(plan_ectx *cx, rowset *rs, const plan_stmt *st, size_t like_col,
                   const plan_sink *sink, db_error *err);
static bool is_diagnostic(const plan_stmt *st);
static bool ast_reads_diag(const plan_ast *x);
static int check_order(plan_ectx *cx, const plan_stmt *st, db_error *err);

/* ---- metadata helpers ---- */

void
plan__col_init(plan_column *c, const char *name, const plan_xtype *t)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->type = t->type;
    c->length = t->length;
    c->precision = t->precision;
    c->scale = t->scale;
    c->nullable = t->nullable;
    c->is_unsigned = t->is_unsigned;
    c->is_binary = t->is_binary;
}

/* The column label MySQL uses: a string literal's value, else the text as written. */
const char *
plan__item_label(plan_ectx *cx, const plan_select_item *it)
{
    const plan_ast *x = it->expr;
    if (it->alias) {
        return it->alias;
    }
    if (x->kind == PA_STRING && !x->has_parens) {
        return arena_strndup(cx->a, x->str, x->len);
    }
    if (x->kind == PA_NULL && !x->has_parens) {
        return "NULL";
    }
    if (x->kind == PA_BOOL && !x->has_parens) {
        return x->op ? "TRUE" : "FALSE";
    }
    if (x->kind == PA_COLUMN && !x->has_parens) {
        return x->name; /* t.col and db.t.col are labelled col (MySQL) */
    }
    return arena_strndup(cx->a, cx->sql + x->off, x->end - x->off);
}

static void
rs_init(arena *a, rowset *rs, const char *const *names, size_t ncols)
{
    memset(rs, 0, sizeof *rs);
    rs->cols = arena_calloc(a, ncols, sizeof(plan_column));
    rs->ncols = ncols;
    for (size_t i = 0; i < ncols; i++) {
        plan_xtype t;
        plan__type_string(&t, 64, false);
        plan__col_init(&rs->cols[i], names[i], &t);
    }
}

static void
rs_add(arena *a, rowset *rs, const char *const *row)
{
    if (rs->nrows == rs->cap) {
        size_t ncap = rs->cap ? rs->cap * 2 : 32;
        const char **n = arena_alloc(a, ncap * rs->ncols * sizeof(char *));
        if (rs->nrows) {
            memcpy(n, rs->cells, rs->nrows * rs->ncols * sizeof(char *));
        }
        rs->cells = n;
        rs->cap = ncap;
    }
    memcpy(rs->cells + rs->nrows * rs->ncols, row, rs->ncols * sizeof(char *));
    rs->nrows++;
}

/* Filter by SHOW ... LIKE (on column like_col) or WHERE (columns bound by name), then send. */
static int
rs_send(plan_ectx *cx, rowset *rs, const plan_stmt *st, size_t like_col, const plan_sink *sink,
        db_error *err)
{
    plan_expr *where = NULL;
    plan_bind_col *bind = arena_calloc(cx->a, rs->ncols, sizeof *bind);
    for (size_t i = 0; i < rs->ncols; i++) {
        bind[i].name = rs->cols[i].name;
        plan__type_string(&bind[i].t, rs->cols[i].length, rs->cols[i].nullable);
    }
    if (st->where &&
        plan__analyze(cx, st->where, bind, rs->ncols, "where clause", &where, err) != DB_OK) {
        return DB_ERR;
    }
    if (sink->columns(sink->ctx, rs->cols, rs->ncols, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->describe) {
        return DB_OK;
    }
    plan_value *vals = arena_calloc(cx->a, rs->ncols, sizeof *vals);
    plan_cell *cells = arena_calloc(cx->a, rs->ncols, sizeof *cells);
    for (size_t r = 0; r < rs->nrows; r++) {
        const char **row = rs->cells + r * rs->ncols;
        if (st->like) {
            const char *v = row[like_col] ? row[like_col] : "";
            if (!str_like(v, strlen(v), st->like, st->like_len, '\\', true)) {
                continue;
            }
        }
        if (where) {
            for (size_t i = 0; i < rs->ncols; i++) {
                vals[i] = row[i] ? plan__v_str(row[i], strlen(row[i])) : plan__v_null();
            }
            cx->row = vals;
            cx->nrow = rs->ncols;
            plan_value res;
            int rc = plan__eval(cx, where, &res, err);
            cx->row = NULL;
            if (rc != DB_OK) {
                return DB_ERR;
            }
            if (plan__v_truth(&res) != 1) {
                continue;
            }
        }
        for (size_t i = 0; i < rs->ncols; i++) {
            cells[i].data = row[i];
            cells[i].len = row[i] ? strlen(row[i]) : 0;
            cells[i].is_null = row[i] == NULL;
        }
        if (sink->row(sink->ctx, cells, rs->ncols, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

void
plan__rs_init(arena *a, plan_rowset *rs, const char *const *names, size_t ncols)
{
    rs_init(a, rs, names, ncols);
}

void
plan__rs_add(arena *a, plan_rowset *rs, const char *const *row)
{
    rs_add(a, rs, row);
}

int
plan__rs_send(plan_ectx *cx, plan_rowset *rs, const plan_stmt *st, size_t like_col,
              const plan_sink *sink, db_error *err)
{
    return rs_send(cx, rs, st, like_col, sink, err);
}

/* ---- SELECT ---- */

/* ORDER BY of a SELECT without tables: at most one row, so nothing to sort, but every item
 * must name something (MySQL): a select item position, a select alias, or an expression. */
static int
check_order(plan_ectx *cx, const plan_stmt *st, db_error *err)
{
    for (uint32_t i = 0; i < st->order->n; i++) {
        const plan_ast *x = st->order->items[i];
        if (x->kind == PA_INT && !x->has_parens) {
            uint64_t pos = strtoull(x->name, NULL, 10);
            if (pos < 1 || pos > st->nitems) {
                return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, "order clause");
            }
            continue;
        }
        bool is_alias = false;
        for (uint32_t k = 0; x->kind == PA_COLUMN && !x->qual && k < st->nitems; k++) {
            is_alias |= st->items[k].alias && strcasecmp(st->items[k].alias, x->name) == 0;
        }
        plan_expr *e;
        if (!is_alias && plan__analyze(cx, x, NULL, 0, "order clause", &e, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
exec_select(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
            db_error *err)
{
    plan_session *s = cx->s;
    if (st->explain) {
        return plan__explain(cx, st, sink, out, err); /* plan_explain.c */
    }
    if (st->ntables > 0 || st->setop != PLAN_SETOP_NONE || plan__select_needs_rows(st)) {
        return plan__select_from(cx, st, sink, out, err);
    }
    size_t n = st->nitems;
    plan_expr **exprs = arena_calloc(cx->a, n, sizeof *exprs);
    for (size_t i = 0; i < n; i++) {
        if (st->items[i].is_star) {
            return db_error_set(err, ER_NO_TABLES_USED);
        }
        if (plan__analyze(cx, st->items[i].expr, NULL, 0, "field list", &exprs[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    plan_expr *where = NULL;
    if (st->where && plan__analyze(cx, st->where, NULL, 0, "where clause", &where, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->order && check_order(cx, st, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->describe) {
        plan_column *dcols = arena_calloc(cx->a, n, sizeof *dcols);
        for (size_t i = 0; i < n; i++) {
            plan__col_init(&dcols[i], plan__item_label(cx, &st->items[i]), &exprs[i]->t);
        }
        return sink->columns(sink->ctx, dcols, n, err);
    }
    uint64_t lcount = 0, loffset = 0;
    if (st->has_limit && plan__stmt_limit(cx, st, &lcount, &loffset, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t limit =
            st->has_limit ? lcount : (uint64_t)s->vars[plan__sysvar_find("sql_select_limit")].i;
    bool emit = limit > 0 && loffset == 0;
    if (emit && where) {
        plan_value w;
        if (plan__eval(cx, where, &w, err) != DB_OK) {
            return DB_ERR;
        }
        emit = plan__v_truth(&w) == 1;
    }
    plan_cell *cells = arena_calloc(cx->a, n, sizeof *cells);
    if (emit) {
        for (size_t i = 0; i < n; i++) {
            plan_value v;
            if (plan__eval(cx, exprs[i], &v, err) != DB_OK ||
                plan__check_interrupt(s, err) != DB_OK) {
                return DB_ERR;
            }
            cells[i].data = plan__v_text(cx->a, &v, &cells[i].len);
            cells[i].is_null = v.kind == PV_NULL;
        }
    }
    plan_column *cols = arena_calloc(cx->a, n, sizeof *cols);
    for (size_t i = 0; i < n; i++) {
        plan__col_init(&cols[i], plan__item_label(cx, &st->items[i]), &exprs[i]->t);
    }
    out->is_result_set = true;
    if (sink->columns(sink->ctx, cols, n, err) != DB_OK) {
        return DB_ERR;
    }
    if (emit && sink->row(sink->ctx, cells, n, err) != DB_OK) {
        return DB_ERR;
    }
    s->found_rows = emit ? 1 : 0;
    return DB_OK;
}

/* ---- SET ---- */

static int set_charset(plan_ectx *cx, const plan_set_item *it, db_error *err);

/* SET NAMES cs [COLLATE c] / SET CHARACTER SET cs. */
static int
set_charset(plan_ectx *cx, const plan_set_item *it, db_error *err)
{
    plan_session *s = cx->s;
    const char *cs = it->name;
    if (!cs) {
        pthread_mutex_lock(&s->srv->lock);
        cs = arena_strdup(cx->a, s->srv->globals[plan__sysvar_find("character_set_client")].s);
        pthread_mutex_unlock(&s->srv->lock);
    }
    const plan_collation *def = plan__charset_default(cs);
    if (!def) {
        return db_error_set(err, ER_UNKNOWN_CHARACTER_SET, cs);
    }
    const plan_collation *coll = def;
    if (it->collation) {
        coll = plan__collation_by_name(it->collation);
        if (!coll) {
            return db_error_set(err, ER_UNKNOWN_COLLATION, it->collation);
        }
        if (strcmp(coll->charset, def->charset) != 0) {
            return db_error_set(err, ER_COLLATION_CHARSET_MISMATCH, coll->name, def->charset);
        }
    }
    plan_value v = plan__v_str(def->charset, strlen(def->charset));
    if (plan__sysvar_set(cx, plan__sysvar_find("character_set_client"), PLAN_SCOPE_SESSION, &v,
                         "character_set_client", err) != DB_OK ||
        plan__sysvar_set(cx, plan__sysvar_find("character_set_results"), PLAN_SCOPE_SESSION, &v,
                         "character_set_results", err) != DB_OK) {
        return DB_ERR;
    }
    if (it->kind == PLAN_SET_NAMES) {
        plan_value c = plan__v_str(coll->name, strlen(coll->name));
        return plan__sysvar_set(cx, plan__sysvar_find("collation_connection"), PLAN_SCOPE_SESSION,
                                &c, "collation_connection", err);
    }
    /* SET CHARACTER SET: the connection uses the database character set. */
    const char *dbcs = s->vars[plan__sysvar_find("character_set_database")].s;
    plan_value d = plan__v_str(dbcs, strlen(dbcs));
    return plan__sysvar_set(cx, plan__sysvar_find("character_set_connection"), PLAN_SCOPE_SESSION,
                            &d, "character_set_connection", err);
}

/* Resolve every system variable of a SET into idx[] (one per item): an unknown name or a scope
 * error is found before anything is assigned. */
static int
set_resolve(plan_ectx *cx, const plan_stmt *st, int *idx, db_error *err)
{
    for (uint32_t i = 0; i < st->nsets; i++) {
        const plan_set_item *it = &st->sets[i];
        if (it->kind != PLAN_SET_SYSVAR) {
            continue;
        }
        idx[i] = plan__sysvar_find(it->name);
        if (idx[i] < 0) {
            return db_error_set(err, ER_UNKNOWN_SYSTEM_VARIABLE, it->name);
        }
        if (plan__sysvar_check_settable(idx[i], it->scope, it->name, err) != DB_OK) {
            return DB_ERR;
        }
        if (it->scope == PLAN_SCOPE_GLOBAL && !cx->describe &&
            plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* plan_prepare of a SET: names resolved and values analysed, nothing assigned. */
static int
describe_set(plan_ectx *cx, const plan_stmt *st, db_error *err)
{
    int *idx = arena_calloc(cx->a, st->nsets ? st->nsets : 1, sizeof(int));
    if (set_resolve(cx, st, idx, err) != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t i = 0; i < st->nsets; i++) {
        const plan_set_item *it = &st->sets[i];
        plan_expr *e;
        if ((it->kind == PLAN_SET_USERVAR || it->kind == PLAN_SET_SYSVAR) && it->value &&
            !it->value_is_word &&
            plan__analyze(cx, it->value, NULL, 0, "field list", &e, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
exec_set(plan_ectx *cx, const plan_stmt *st, db_error *err)
{
    int *idx = arena_calloc(cx->a, st->nsets ? st->nsets : 1, sizeof(int));
    if (set_resolve(cx, st, idx, err) != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t i = 0; i < st->nsets; i++) {
        const plan_set_item *it = &st->sets[i];
        plan_value v;
        plan_expr *e;
        switch (it->kind) {
        case PLAN_SET_USERVAR:
            if (plan__analyze(cx, it->value, NULL, 0, "field list", &e, err) != DB_OK ||
                plan__eval(cx, e, &v, err) != DB_OK) {
                return DB_ERR;
            }
            plan__uservar_set(cx->s, it->name, &v);
            break;
        case PLAN_SET_SYSVAR:
            if (it->value_is_word) {
                v = plan__v_str(it->word, strlen(it->word));
            } else if (it->value) {
                if (plan__analyze(cx, it->value, NULL, 0, "field list", &e, err) != DB_OK ||
                    plan__eval(cx, e, &v, err) != DB_OK) {
                    return DB_ERR;
                }
            }
            if (plan__sysvar_set(cx, idx[i], it->scope,
                                 (it->value || it->value_is_word) ? &v : NULL, it->name,
                                 err) != DB_OK) {
                return DB_ERR;
            }
            break;
        case PLAN_SET_NAMES:
        case PLAN_SET_CHARSET:
            if (set_charset(cx, it, err) != DB_OK) {
                return DB_ERR;
            }
            break;
        }
    }
    return DB_OK;
}

static int
exec_set_transaction(plan_ectx *cx, const plan_stmt *st, db_error *err)
{
    plan_session *s = cx->s;
    if (st->scope == PLAN_SCOPE_DEFAULT) {
        /* Next transaction only (MySQL); not allowed inside one. */
        if (s->in_trans) {
            return db_error_set(err, ER_CANT_CHANGE_TX_CHARACTERISTICS);
        }
        if (st->isolation != PLAN_ISO_NONE) {
            s->next_iso = st->isolation;
        }
        return DB_OK;
    }
    if (st->isolation != PLAN_ISO_NONE) {
        plan_value v = plan__v_int(st->isolation);
        if (plan__sysvar_set(cx, plan__sysvar_find("transaction_isolation"), st->scope, &v,
                             "transaction_isolation", err) != DB_OK) {
            return DB_ERR;
        }
    }
    if (st->access != PLAN_ACCESS_NONE) {
        plan_value v = plan__v_int(st->access == PLAN_ACCESS_READ_ONLY);
        if (plan__sysvar_set(cx, plan__sysvar_find("transaction_read_only"), st->scope, &v,
                             "transaction_read_only", err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* ---- SHOW ---- */

static int
exec_show_variables(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"Variable_name", "Value"};
    rowset rs;
    rs_init(cx->a, &rs, names, 2);
    rs.cols[1].length = 1024;
    rs.cols[1].nullable = true;
    bool global = st->scope == PLAN_SCOPE_GLOBAL;
    for (size_t k = 0; k < plan__sysvar_count(); k++) {
        size_t i = plan__sysvar_sorted(k);
        const plan_sysvar_def *d = plan__sysvar_def(i);
        if (global && !(d->scope & PLAN_SV_GLOBAL)) {
            continue;
        }
        const char *row[2] = {d->name, plan__sysvar_show(cx->a, cx->s, (int)i, st->scope)};
        rs_add(cx->a, &rs, row);
    }
    return rs_send(cx, &rs, st, 0, sink, err);
}

static int
exec_show_status(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"Variable_name", "Value"};
    plan_server *srv = cx->s->srv;
    rowset rs;
    rs_init(cx->a, &rs, names, 2);
    size_t nthreads = 1;
    if (srv->hooks.processlist && !cx->describe) {
        plan_proc_row *rows;
        if (srv->hooks.processlist(srv->hooks.ctx, cx->a, &rows, &nthreads, err) != DB_OK) {
            return DB_ERR;
        }
    }
    plan_session *ss = cx->s;
    bool session = st->scope != PLAN_SCOPE_GLOBAL; /* the scan counters are per session */
    const char *h1[2] = {"Handler_read_rnd_next",
                         arena_sprintf(cx->a, "%llu", (unsigned long long)ss->scan_rows)};
    if (session) {
        rs_add(cx->a, &rs, h1);
    }
    const char *r1[2] = {
            "Questions",
            arena_sprintf(cx->a, "%llu", (unsigned long long)atomic_load(&srv->questions))};
    const char *r2[2] = {"Ssl_cipher", ""};
    const char *r3[2] = {"Threads_connected", arena_sprintf(cx->a, "%zu", nthreads)};
    const char *r4[2] = {
            "Uptime",
            arena_sprintf(cx->a, "%lld", (long long)((int64_t)time(NULL) - srv->start_time))};
    rs_add(cx->a, &rs, r1);
    const char *p1[2] = {"Rivulet_scan_pages_pruned",
                         arena_sprintf(cx->a, "%llu", (unsigned long long)ss->scan_pages_pruned)};
    const char *p2[2] = {
            "Rivulet_scan_segments_pruned",
            arena_sprintf(cx->a, "%llu", (unsigned long long)ss->scan_segments_pruned)};
    const char *p3[2] = {"Rivulet_scan_tablets",
                         arena_sprintf(cx->a, "%llu", (unsigned long long)ss->scan_tablets)};
    if (session) {
        rs_add(cx->a, &rs, p1);
        rs_add(cx->a, &rs, p2);
        rs_add(cx->a, &rs, p3);
    }
    rs_add(cx->a, &rs, r2);
    rs_add(cx->a, &rs, r3);
    rs_add(cx->a, &rs, r4);
    return rs_send(cx, &rs, st, 0, sink, err);
}

static int
exec_show_warnings(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    plan_session *s = cx->s;
    if (st->kind == PS_SHOW_COUNT_WARNINGS || st->kind == PS_SHOW_COUNT_ERRORS) {
        bool w = st->kind == PS_SHOW_COUNT_WARNINGS;
        plan_column c;
        plan_xtype t;
        plan__type_bigint(&t, 20, false);
        t.is_unsigned = true;
        plan__col_init(&c, w ? "@@session.warning_count" : "@@session.error_count", &t);
        if (sink->columns(sink->ctx, &c, 1, err) != DB_OK) {
            return DB_ERR;
        }
        if (cx->describe) {
            return DB_OK;
        }
        plan_cell cell;
        cell.data = arena_sprintf(cx->a, "%zu", w ? s->warn_total : s->err_total);
        cell.len = strlen(cell.data);
        cell.is_null = false;
        return sink->row(sink->ctx, &cell, 1, err);
    }
    static const char *const levels[] = {"Note", "Warning", "Error"};
    plan_column cols[3];
    plan_xtype t;
    plan__type_string(&t, 7, false);
    plan__col_init(&cols[0], "Level", &t);
    plan__type_bigint(&t, 4, false);
    t.is_unsigned = true;
    t.type = PLAN_TYPE_INT;
    plan__col_init(&cols[1], "Code", &t);
    plan__type_string(&t, 512, false);
    plan__col_init(&cols[2], "Message", &t);
    if (sink->columns(sink->ctx, cols, 3, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->describe) {
        return DB_OK;
    }
    uint64_t lcount = UINT64_MAX, loffset = 0;
    if (st->has_limit && plan__stmt_limit(cx, st, &lcount, &loffset, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t skip = loffset;
    uint64_t left = lcount;
    for (size_t i = 0; i < s->nwarns && left > 0; i++) {
        const plan_warning *w = &s->warns[i];
        if (st->kind == PS_SHOW_ERRORS && w->level != 2) {
            continue;
        }
        if (skip > 0) {
            skip--;
            continue;
        }
        left--;
        plan_cell cells[3];
        char code[16];
        snprintf(code, sizeof code, "%d", w->code);
        cells[0] = (plan_cell){levels[w->level], strlen(levels[w->level]), false};
        cells[1] = (plan_cell){code, strlen(code), false};
        cells[2] = (plan_cell){w->msg, strlen(w->msg), false};
        if (sink->row(sink->ctx, cells, 3, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
exec_show_processlist(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    plan_server *srv = cx->s->srv;
    plan_proc_row *rows = NULL;
    size_t nrows = 0;
    if (!cx->describe) {
        if (!srv->hooks.processlist) {
            return db_error_set(err, ER_NOT_SUPPORTED_YET, "SHOW PROCESSLIST without a server");
        }
        if (srv->hooks.processlist(srv->hooks.ctx, cx->a, &rows, &nrows, err) != DB_OK) {
            return DB_ERR;
        }
        if (!plan__is_admin(cx->s)) {
            /* MySQL: without the PROCESS privilege (Rivulet: ADMIN_PRIV) only the sessions of
             * one's own user name. */
            size_t k = 0;
            for (size_t i = 0; i < nrows; i++) {
                if (rows[i].user != NULL && cx->s->user != NULL &&
                    strcmp(rows[i].user, cx->s->user) == 0) {
                    rows[k++] = rows[i];
                }
            }
            nrows = k;
        }
    }
    static const char *const names[] = {"Id",      "User", "Host",  "db",
                                        "Command", "Time", "State", "Info"};
    rowset rs;
    rs_init(cx->a, &rs, names, 8);
    plan_xtype t;
    plan__type_bigint(&t, 21, false);
    t.is_unsigned = true;
    plan__col_init(&rs.cols[0], "Id", &t);
    plan__type_bigint(&t, 7, false);
    t.type = PLAN_TYPE_INT;
    plan__col_init(&rs.cols[5], "Time", &t);
    rs.cols[3].nullable = rs.cols[6].nullable = rs.cols[7].nullable = true;
    rs.cols[7].length = st->full ? 65535 : 100;
    for (size_t i = 0; i < nrows; i++) {
        const plan_proc_row *p = &rows[i];
        const char *info = p->info;
        if (info && !st->full) {
            /* First 100 characters. */
            size_t len = strlen(info), b = 0, chars = 0;
            while (b < len && chars < 100) {
                unsigned char c = (unsigned char)info[b];
                b += c >= 0xF0 ? 4 : (c >= 0xE0 ? 3 : (c >= 0xC0 ? 2 : 1));
                chars++;
            }
            info = arena_strndup(cx->a, info, b > len ? len : b);
        }
        const char *row[8] = {arena_sprintf(cx->a, "%llu", (unsigned long long)p->id),
                              p->user ? p->user : "",
                              p->host ? p->host : "",
                              p->db,
                              p->command ? p->command : "",
                              arena_sprintf(cx->a, "%lld", (long long)p->time_s),
                              p->state,
                              info};
        rs_add(cx->a, &rs, row);
    }
    plan_stmt plain = *st;
    plain.like = NULL;
    plain.where = NULL;
    return rs_send(cx, &rs, &plain, 0, sink, err);
}

static int
exec_show_misc(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    rowset rs;
    switch (st->kind) {
    case PS_SHOW_DATABASES: {
        if (cx->s->srv->meta) {
            return plan__show_catalog(cx, st, sink, err); /* plan_show.c */
        }
        const char *name = st->like ? arena_sprintf(cx->a, "Database (%s)", st->like) : "Database";
        rs_init(cx->a, &rs, &name, 1);
        const char *r1[1] = {"information_schema"}, *r2[1] = {"mysql"};
        rs_add(cx->a, &rs, r1);
        rs_add(cx->a, &rs, r2);
        if (st->where) {
            rs.cols[0].name = "Database";
        }
        return rs_send(cx, &rs, st, 0, sink, err);
    }
    case PS_SHOW_TABLES: {
        if (cx->s->srv->meta) {
            return plan__show_catalog(cx, st, sink, err); /* plan_show.c */
        }
        const char *db = st->name ? st->name : cx->s->db;
        if (!db) {
            return db_error_set(err, ER_NO_DB_ERROR);
        }
        if (strcasecmp(db, "information_schema") != 0 && strcmp(db, "mysql") != 0) {
            return db_error_set(err, ER_BAD_DB_ERROR, db);
        }
        const char *names[2] = {st->like ? arena_sprintf(cx->a, "Tables_in_%s (%s)", db, st->like)
                                         : arena_sprintf(cx->a, "Tables_in_%s", db),
                                "Table_type"};
        rs_init(cx->a, &rs, names, st->full ? 2 : 1);
        /* No tables exist until the catalog issue. */
        return rs_send(cx, &rs, st, 0, sink, err);
    }
    case PS_SHOW_CHARSET: {
        static const char *const names[] = {"Charset", "Description", "Default collation",
                                            "Maxlen"};
        static const char *const rows[][4] = {
                {"ascii", "US ASCII", "ascii_general_ci", "1"},
                {"binary", "Binary pseudo charset", "binary", "1"},
                {"latin1", "cp1252 West European", "latin1_swedish_ci", "1"},
                {"utf8", "UTF-8 Unicode", "utf8_general_ci", "3"},
                {"utf8mb4", "UTF-8 Unicode", "utf8mb4_general_ci", "4"}};
        rs_init(cx->a, &rs, names, 4);
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            rs_add(cx->a, &rs, rows[i]);
        }
        return rs_send(cx, &rs, st, 0, sink, err);
    }
    case PS_SHOW_COLLATION: {
        static const char *const names[] = {"Collation", "Charset",  "Id",
                                            "Default",   "Compiled", "Sortlen"};
        rs_init(cx->a, &rs, names, 6);
        size_t n = plan__collation_count();
        const plan_collation **sorted = arena_calloc(cx->a, n, sizeof *sorted);
        for (size_t i = 0; i < n; i++) {
            sorted[i] = plan__collation_at(i);
        }
        for (size_t i = 1; i < n; i++) { /* insertion sort by name: a dozen rows */
            for (size_t j = i; j > 0 && strcmp(sorted[j - 1]->name, sorted[j]->name) > 0; j--) {
                const plan_collation *tmp = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = tmp;
            }
        }
        for (size_t i = 0; i < n; i++) {
            const char *row[6] = {sorted[i]->name,
                                  sorted[i]->charset,
                                  arena_sprintf(cx->a, "%u", sorted[i]->id),
                                  sorted[i]->is_default ? "Yes" : "",
                                  "Yes",
                                  "1"};
            rs_add(cx->a, &rs, row);
        }
        return rs_send(cx, &rs, st, 0, sink, err);
    }
    default:
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "SHOW ENGINES");
    }
}

/* ---- KILL ---- */

/* KILL of another account's connection needs ADMIN_PRIV (1227). An unknown id is left to the
 * kill hook (ER_NO_SUCH_THREAD). */
static int
check_kill_priv(plan_ectx *cx, uint64_t id, db_error *err)
{
    plan_server *srv = cx->s->srv;
    if (id == cx->s->conn_id || plan__is_admin(cx->s) || !srv->hooks.processlist) {
        return DB_OK;
    }
    plan_proc_row *rows;
    size_t n;
    if (srv->hooks.processlist(srv->hooks.ctx, cx->a, &rows, &n, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < n; i++) {
        if (rows[i].id == id && strcmp(rows[i].user, cx->s->user) != 0) {
            return plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err);
        }
    }
    return DB_OK;
}

static int
exec_kill(plan_ectx *cx, const plan_stmt *st, db_error *err)
{
    plan_server *srv = cx->s->srv;
    plan_expr *e;
    plan_value v;
    if (plan__analyze(cx, st->target, NULL, 0, "field list", &e, err) != DB_OK ||
        plan__eval(cx, e, &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (v.kind == PV_NULL) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, "KILL");
    }
    uint64_t id = plan__v_to_uint(&v, NULL);
    if (!srv->hooks.kill) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "KILL without a server");
    }
    if (check_kill_priv(cx, id, err) != DB_OK) {
        return DB_ERR;
    }
    return srv->hooks.kill(srv->hooks.ctx, cx->s->conn_id, id, st->query_only, err);
}

/* ---- the entry point ---- */

/* Statements that read the diagnostics area without clearing it (MySQL): SHOW WARNINGS,
 * SHOW ERRORS, SHOW COUNT(*) ..., and SELECT of @@warning_count / @@error_count. */
static bool
ast_reads_diag(const plan_ast *x)
{
    if (!x) {
        return false;
    }
    if (x->kind == PA_SYSVAR &&
        (strcasecmp(x->name, "warning_count") == 0 || strcasecmp(x->name, "error_count") == 0)) {
        return true;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (ast_reads_diag(x->args[i])) {
            return true;
        }
    }
    return false;
}

static bool
is_diagnostic(const plan_stmt *st)
{
    switch (st->kind) {
    case PS_SHOW_WARNINGS:
    case PS_SHOW_ERRORS:
    case PS_SHOW_COUNT_WARNINGS:
    case PS_SHOW_COUNT_ERRORS:
        return true;
    case PS_SELECT:
        for (uint32_t i = 0; i < st->nitems; i++) {
            if (ast_reads_diag(st->items[i].expr)) {
                return true;
            }
        }
        return false;
    default:
        return false;
    }
}

static void clear_diagnostics(plan_session *s);
static void record_error(plan_session *s, const db_error *err);
static int execute(plan_session *s, const char *sql, size_t len, size_t text_len, bool in_multi,
                   arena *a, const plan_sink *sink, plan_outcome *out, db_error *err);
static int describe_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err);
static int describe_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err);

static void
clear_diagnostics(plan_session *s)
{
    s->nwarns = 0;
    s->warn_total = 0;
    s->err_total = 0;
}

/* The error is also a condition of the statement (SHOW WARNINGS shows it). */
static void
record_error(plan_session *s, const db_error *err)
{
    s->warn_total++;
    s->err_total++;
    if (s->nwarns < PLAN_MAX_WARNINGS) {
        plan_warning *w = &s->warns[s->nwarns++];
        w->level = 2;
        w->code = err->code;
        snprintf(w->msg, sizeof w->msg, "%s", err->msg);
    }
}

void
plan__sql_mode_flags(const plan_session *s, bool *nbe, bool *aq, bool *pac)
{
    const char *mode = s->vars[plan__sysvar_find("sql_mode")].s;
    mode = mode ? mode : "";
    *nbe = strstr(mode, "NO_BACKSLASH_ESCAPES") != NULL;
    *aq = strstr(mode, "ANSI_QUOTES") != NULL;
    *pac = strstr(mode, "PIPES_AS_CONCAT") != NULL;
}

void
plan__stmt_start(plan_session *s, plan_outcome *out)
{
    memset(out, 0, sizeof *out);
    atomic_store(&s->interrupted, false);
    atomic_fetch_add(&s->srv->questions, 1);
}

void
plan__stmt_prepared(plan_session *s, const plan_stmt *st)
{
    if (!is_diagnostic(st)) {
        clear_diagnostics(s);
    }
}

void
plan__stmt_fail(plan_session *s, const db_error *err)
{
    clear_diagnostics(s);
    record_error(s, err);
}

void
plan__ectx_init(plan_ectx *cx, plan_session *s, arena *a, const char *sql, size_t len)
{
    memset(cx, 0, sizeof *cx);
    cx->s = s;
    cx->a = a;
    cx->sql = sql;
    cx->sql_len = len;
    cx->div_incr = (int)s->vars[plan__sysvar_find("div_precision_increment")].i;
    cx->max_packet = s->vars[plan__sysvar_find("max_allowed_packet")].i;
    if (s->user_time_us > 0) {
        cx->now_utc_us = s->user_time_us; /* SET timestamp */
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        cx->now_utc_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    }
    cx->now_us = cx->now_utc_us + plan__tz_offset(s, cx->now_utc_us / 1000000) * 1000000;
}

int
plan__exec_stmt(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                db_error *err)
{
    plan_session *s = cx->s;
    plan_hint_save hint;
    if (plan__hint_apply(cx, st, &hint, err) != DB_OK) { /* SET_VAR: this statement only */
        return DB_ERR;
    }
    /* query_timeout / max_execution_time / exec_mem_limit of this statement (plan_explain.c),
     * after the hints: SET_VAR may change them. */
    bool limits = plan__limits_begin(cx, st);
    int rc = DB_OK;
    switch (st->kind) {
    case PS_SELECT:
        rc = exec_select(cx, st, sink, out, err);
        break;
    case PS_SET:
        rc = exec_set(cx, st, err);
        break;
    case PS_SET_TRANSACTION:
        rc = exec_set_transaction(cx, st, err);
        break;
    case PS_SHOW_VARIABLES:
        rc = exec_show_variables(cx, st, sink, err);
        break;
    case PS_SHOW_STATUS:
        rc = exec_show_status(cx, st, sink, err);
        break;
    case PS_SHOW_WARNINGS:
    case PS_SHOW_ERRORS:
    case PS_SHOW_COUNT_WARNINGS:
    case PS_SHOW_COUNT_ERRORS:
        rc = exec_show_warnings(cx, st, sink, err);
        break;
    case PS_SHOW_PROCESSLIST:
        rc = exec_show_processlist(cx, st, sink, err);
        break;
    case PS_SHOW_DATABASES:
    case PS_SHOW_TABLES:
    case PS_SHOW_CHARSET:
    case PS_SHOW_COLLATION:
    case PS_SHOW_ENGINES:
        rc = exec_show_misc(cx, st, sink, err);
        break;
    case PS_KILL:
        rc = exec_kill(cx, st, err);
        break;
    case PS_USE:
        rc = plan_session_use_db(s, st->name, err);
        break;
    case PS_BEGIN:
        /* An open transaction is committed implicitly first (MySQL). */
        rc = plan__txn_commit(s, err);
        s->in_trans = true;
        break;
    case PS_COMMIT:
        rc = plan__txn_commit(s, err);
        s->in_trans = false;
        s->next_iso = PLAN_ISO_NONE;
        break;
    case PS_ROLLBACK:
        plan__txn_rollback(s);
        s->in_trans = false;
        s->next_iso = PLAN_ISO_NONE;
        break;
    case PS_INSERT:
    case PS_UPDATE:
    case PS_DELETE:
    case PS_ADMIN_COMPACT:
        rc = plan__exec_dml(cx, st, out, err); /* plan_dml.c */
        break;
    case PS_UNSUPPORTED:
        rc = db_error_set(err, ER_NOT_SUPPORTED_YET, st->what ? st->what : "this statement");
        break;
    case PS_PREPARE:
        rc = plan__sql_prepare(cx, st, out, err);
        break;
    case PS_EXECUTE:
        rc = plan__sql_execute(cx, st, sink, out, err);
        break;
    case PS_DEALLOCATE:
        rc = plan__sql_deallocate(cx, st, err);
        break;
    case PS_DCL:
        rc = plan__exec_dcl(cx, st, sink, out, err);
        break;
    case PS_DDL:
        rc = plan__exec_ddl(cx, st, sink, out, err); /* plan_ddl.c */
        break;
    }
    if (limits) {
        plan__limits_end(s);
    }
    plan__hint_restore(s, &hint);
    if (st->kind >= PS_SHOW_VARIABLES && st->kind <= PS_SHOW_ENGINES) {
        out->is_result_set = rc == DB_OK;
    }
    if (rc == DB_OK && !cx->describe) {
        /* MySQL: -1 after a result set, else the affected rows (DML; 0 for the others) */
        s->row_count = out->is_result_set ? -1 : (int64_t)out->affected_rows;
    }
    return rc;
}

int
plan__run(plan_session *s, const plan_stmt *st, const char *sql, size_t len,
          const plan_value *params, size_t nparams, arena *a, const plan_sink *sink,
          plan_outcome *out, db_error *err)
{
    DB_ASSERT(nparams == st->nparams && (params || nparams == 0));
    if (!is_diagnostic(st)) {
        clear_diagnostics(s);
    }
    plan_ectx cx;
    plan__ectx_init(&cx, s, a, sql, len);
    cx.params = params;
    cx.nparams = nparams;
    int rc = plan__exec_stmt(&cx, st, sink, out, err);
    if (rc != DB_OK) {
        record_error(s, err);
    }
    return rc;
}

/* ---- describing (plan_prepare) ---- */

typedef struct describe_ctx {
    arena *a;
    plan_column *cols; /* copies in a: some SHOW columns live on the stack */
    size_t ncols;
} describe_ctx;

static int
describe_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err)
{
    describe_ctx *d = ctx;
    d->cols = arena_calloc(d->a, ncols ? ncols : 1, sizeof *d->cols);
    if (ncols) {
        memcpy(d->cols, cols, ncols * sizeof *cols);
    }
    d->ncols = ncols;
    return DB_OK;
}

static int
describe_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err)
{
    DB_ASSERT(!"plan__describe evaluates no rows");
    return DB_OK;
}

int
plan__describe(plan_session *s, const plan_stmt *st, const char *sql, size_t len, arena *a,
               plan_column **cols, size_t *ncols, db_error *err)
{
    describe_ctx d = {a, NULL, 0};
    plan_sink sink = {&d, describe_columns, describe_row};
    plan_ectx cx;
    plan__ectx_init(&cx, s, a, sql, len);
    cx.describe = true;
    plan_outcome out;
    memset(&out, 0, sizeof out);
    int rc = DB_OK;
    switch (st->kind) {
    case PS_SELECT:
    case PS_SHOW_VARIABLES:
    case PS_SHOW_STATUS:
    case PS_SHOW_WARNINGS:
    case PS_SHOW_ERRORS:
    case PS_SHOW_COUNT_WARNINGS:
    case PS_SHOW_COUNT_ERRORS:
    case PS_SHOW_PROCESSLIST:
    case PS_SHOW_DATABASES:
    case PS_SHOW_TABLES:
    case PS_SHOW_CHARSET:
    case PS_SHOW_COLLATION:
    case PS_SHOW_ENGINES:
    case PS_DCL:
    case PS_DDL:
        /* These only analyse and announce columns when cx.describe is set. */
        rc = plan__exec_stmt(&cx, st, &sink, &out, err);
        break;
    case PS_SET:
        rc = describe_set(&cx, st, err);
        break;
    case PS_KILL: {
        plan_expr *e;
        rc = plan__analyze(&cx, st->target, NULL, 0, "field list", &e, err);
        break;
    }
    case PS_UNSUPPORTED:
        rc = db_error_set(err, ER_NOT_SUPPORTED_YET, st->what ? st->what : "this statement");
        break;
    case PS_PREPARE:
    case PS_EXECUTE:
    case PS_DEALLOCATE:
        rc = db_error_set(err, ER_UNSUPPORTED_PS);
        break;
    case PS_SET_TRANSACTION:
    case PS_USE:
    case PS_BEGIN:
    case PS_COMMIT:
    case PS_ROLLBACK:
    case PS_INSERT: /* no result set; the table is checked when it runs */
    case PS_UPDATE:
    case PS_DELETE:
    case PS_ADMIN_COMPACT:
        break;
    }
    if (rc != DB_OK) {
        return DB_ERR;
    }
    *cols = d.cols;
    *ncols = d.ncols;
    return DB_OK;
}

/* ---- the entry points ---- */

int
plan_execute(plan_session *s, const char *sql, size_t len, arena *a, const plan_sink *sink,
             plan_outcome *out, db_error *err)
{
    return execute(s, sql, len, len, false, a, sink, out, err);
}

int
plan_execute_multi(plan_session *s, const char *sql, size_t len, size_t stmt_len, arena *a,
                   const plan_sink *sink, plan_outcome *out, db_error *err)
{
    DB_ASSERT(stmt_len <= len);
    return execute(s, sql, stmt_len, len, true, a, sink, out, err);
}

/* Run sql[0..len); text_len / in_multi only shape a syntax error's text (plan__parse_in). */
static int
execute(plan_session *s, const char *sql, size_t len, size_t text_len, bool in_multi, arena *a,
        const plan_sink *sink, plan_outcome *out, db_error *err)
{
    plan__stmt_start(s, out);
    plan_stmt *st = NULL;
    bool nbe, aq, pac;
    plan__sql_mode_flags(s, &nbe, &aq, &pac);
    int rc = in_multi ? plan__parse_in(a, sql, len, text_len, nbe, aq, pac, &st, err)
                      : plan__parse(a, sql, len, nbe, aq, pac, &st, err);
    if (rc != DB_OK) {
        plan__stmt_fail(s, err);
        return DB_ERR;
    }
    return plan__run(s, st, sql, len, NULL, 0, a, sink, out, err);
}

/* A LIMIT placeholder's value: a non-negative integer (or integer text). */
static int
limit_param(plan_ectx *cx, uint32_t pix, uint64_t dflt, uint64_t *out, db_error *err)
{
    if (cx->params == NULL) { /* describing: no values yet */
        *out = dflt;
        return DB_OK;
    }
    if (pix - 1 >= cx->nparams) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, "LIMIT");
    }
    const plan_value *v = &cx->params[pix - 1];
    bool trunc = false;
    if (v->kind == PV_INT) {
        if (!v->is_unsigned && v->i < 0) {
            return db_error_set(err, ER_WRONG_ARGUMENTS, "LIMIT");
        }
        *out = v->u;
        return DB_OK;
    }
    if (v->kind == PV_STRING || v->kind == PV_DECIMAL) {
        uint64_t u = plan__v_to_uint(v, &trunc);
        int64_t i = plan__v_to_int(v, &trunc);
        if (!trunc && i >= 0) {
            *out = u;
            return DB_OK;
        }
    }
    return db_error_set(err, ER_WRONG_ARGUMENTS, "LIMIT");
}

int
plan__stmt_limit(plan_ectx *cx, const plan_stmt *st, uint64_t *count, uint64_t *offset,
                 db_error *err)
{
    *count = st->limit_count;
    *offset = st->limit_offset;
    if (st->limit_count_pix &&
        limit_param(cx, st->limit_count_pix, UINT64_MAX, count, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->limit_offset_pix && limit_param(cx, st->limit_offset_pix, 0, offset, err) != DB_OK) {
        return DB_ERR;
    }
    return DB_OK;
}
