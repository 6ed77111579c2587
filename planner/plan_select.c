/* SPDX-License-Identifier: Apache-2.0
 * plan_select.c: SELECT ... FROM one table. Resolves the table (information_schema virtual
 * tables for now), binds column references, expands stars, resolves ORDER BY items, plans an
 * aggregate query (COUNT/MIN/MAX/SUM without GROUP BY), builds the operator tree
 *   scan -> filter -> [aggregate] -> project -> [sort] -> [limit]
 * and streams the result to the sink batch by batch. See README.md §Executor. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/strutil.h"

/* One resolved table of the FROM clause. */
typedef struct from_table {
    const plan_vtable *vt; /* an information_schema table, or NULL */
    plan_tbl *tbl;         /* a table with data, or NULL */
    uint64_t as_of;        /* time travel TSO of tbl, 0 = current */
    uint32_t ncols;        /* bindable columns */
    const char **colnames; /* ncols names */
    const char *org_table; /* the table's own name */
    const char *schema;    /* its database */
    const char *qual;      /* the name that qualifies its columns: alias or table name as written */
    const char *meta_table; /* plan_column.table: the alias, else the table's own name */
    plan_bind_col *binds;
} from_table;

/* The select list after star expansion, plus hidden ORDER BY expressions after nvis. */
typedef struct sel_list {
    plan_expr **exprs;
    plan_column *cols;
    uint32_t n, nvis, cap;
} sel_list;

typedef struct emit_ctx {
    const plan_sink *sink;
    uint32_t nvis;
    plan_cell *cells;
    arena *a; /* cell text of one batch */
    uint64_t nrows;
} emit_ctx;

static int resolve_table(plan_ectx *cx, const plan_table_ref *ref, from_table *ft, db_error *err);
static plan_expr *column_expr(plan_ectx *cx, const from_table *ft, uint32_t col);
static void sel_add(plan_ectx *cx, sel_list *sl, plan_expr *e, const plan_column *c);
static void column_meta(const from_table *ft, uint32_t col, plan_column *c);
static int expand_star(plan_ectx *cx, const from_table *ft, const plan_select_item *it,
                       sel_list *sl, db_error *err);
static bool is_agg_name(const char *name);
static bool has_agg(const plan_ast *x);
static void collect_aggs(const plan_ast *x, const plan_ast ***out, uint32_t *n, uint32_t *cap,
                         arena *a);
static const plan_ast *nonagg_column(const plan_ast *x);
static int plan_aggs(plan_ectx *cx, const plan_stmt *st, const from_table *ft, plan_op **root,
                     sel_list *sl, db_error *err);
static int order_keys(plan_ectx *cx, const plan_stmt *st, const from_table *ft, sel_list *sl,
                      plan_sort_key **keys, db_error *err);
static int emit_batch(void *ctx, const plan_batch *b, db_error *err);

static int
resolve_table(plan_ectx *cx, const plan_table_ref *ref, from_table *ft, db_error *err)
{
    const char *db = ref->db ? ref->db : cx->s->db;
    if (!db) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    memset(ft, 0, sizeof *ft);
    /* The single place tables are found: information_schema, else the catalog. */
    if (strcasecmp(db, "information_schema") == 0) {
        ft->vt = plan__vtable_find(ref->name);
        if (!ft->vt) {
            return db_error_set(err, ER_NO_SUCH_TABLE, db, ref->name);
        }
        ft->ncols = ft->vt->ncols;
        ft->colnames = arena_calloc(cx->a, ft->ncols, sizeof(char *));
        for (uint32_t i = 0; i < ft->ncols; i++) {
            ft->colnames[i] = ft->vt->cols[i].name;
        }
        ft->org_table = ft->vt->name;
        ft->schema = "information_schema";
    } else {
        if (plan__check_priv(cx, CAT_PRIV_SELECT, db, ref->name, err) != DB_OK) {
            return DB_ERR;
        }
        ft->tbl = arena_calloc(cx->a, 1, sizeof *ft->tbl);
        if (plan__tbl_open(cx, db, ref->name, ft->tbl, err) != DB_OK) {
            if (err->code == db_error_code_of(ER_BAD_DB_ERROR)) {
                db_error_clear(err);
                return db_error_set(err, ER_NO_SUCH_TABLE, db, ref->name);
            }
            return DB_ERR;
        }
        if (ref->as_of && !cx->describe &&
            plan__as_of_tso(cx, ref->as_of, &ft->as_of, err) != DB_OK) {
            return DB_ERR;
        }
        int idx = plan__sysvar_find("show_hidden_columns");
        bool hidden = idx >= 0 && cx->s->vars[idx].i != 0;
        ft->ncols = hidden ? ft->tbl->ncols : ft->tbl->nvis;
        ft->colnames = arena_calloc(cx->a, ft->ncols ? ft->ncols : 1, sizeof(char *));
        for (uint32_t i = 0; i < ft->ncols; i++) {
            ft->colnames[i] = ft->tbl->cols[i].name;
        }
        ft->org_table = ft->tbl->name;
        ft->schema = ft->tbl->db;
    }
    ft->qual = ref->alias ? ref->alias : ref->name;
    ft->meta_table = ref->alias ? ref->alias : ft->org_table;
    ft->binds = arena_calloc(cx->a, ft->ncols ? ft->ncols : 1, sizeof *ft->binds);
    for (uint32_t i = 0; i < ft->ncols; i++) {
        plan_bind_col *b = &ft->binds[i];
        b->name = ft->colnames[i];
        if (ft->vt) {
            plan__vcol_type(&ft->vt->cols[i], &b->t, &b->vk);
        } else {
            b->t = ft->tbl->cols[i].xt;
            b->vk = ft->tbl->cols[i].vk;
        }
        b->table = ft->qual;
        b->db = ref->alias ? NULL : ft->schema;     /* an alias hides db.tbl */
        b->table_ci = ref->alias == NULL && ft->vt; /* aliases and tables are case-sensitive */
    }
    return DB_OK;
}

/* A typed reference to column col of ft (as if written unqualified). */
static plan_expr *
column_expr(plan_ectx *cx, const from_table *ft, uint32_t col)
{
    plan_ast *x = arena_calloc(cx->a, 1, sizeof *x);
    x->kind = PA_COLUMN;
    x->name = ft->colnames[col];
    plan_expr *e = NULL;
    db_error err;
    int rc = plan__analyze(cx, x, ft->binds, ft->ncols, "field list", &e, &err);
    DB_ASSERT(rc == DB_OK);
    return e;
}

static void
sel_add(plan_ectx *cx, sel_list *sl, plan_expr *e, const plan_column *c)
{
    if (sl->n == sl->cap) {
        uint32_t ncap = sl->cap ? sl->cap * 2 : 16;
        plan_expr **ne = arena_alloc(cx->a, ncap * sizeof *ne);
        plan_column *nc = arena_alloc(cx->a, ncap * sizeof *nc);
        if (sl->n) {
            memcpy(ne, sl->exprs, sl->n * sizeof *ne);
            memcpy(nc, sl->cols, sl->n * sizeof *nc);
        }
        sl->exprs = ne;
        sl->cols = nc;
        sl->cap = ncap;
    }
    sl->exprs[sl->n] = e;
    sl->cols[sl->n] = *c;
    sl->n++;
}

/* Metadata of a result column that is table column col: JDBC's getTableName and friends. */
static void
column_meta(const from_table *ft, uint32_t col, plan_column *c)
{
    c->org_name = ft->colnames[col];
    c->table = ft->meta_table;
    c->org_table = ft->org_table;
    c->schema = ft->schema;
}

static int
expand_star(plan_ectx *cx, const from_table *ft, const plan_select_item *it, sel_list *sl,
            db_error *err)
{
    if (it->star_qual) {
        bool ok = ft->binds[0].table_ci ? strcasecmp(it->star_qual, ft->qual) == 0
                                        : strcmp(it->star_qual, ft->qual) == 0;
        if (it->star_db) {
            ok = ok && ft->binds[0].db && strcasecmp(it->star_db, ft->binds[0].db) == 0;
        }
        if (!ok) {
            return db_error_set(err, ER_BAD_TABLE_ERROR, it->star_qual);
        }
    }
    for (uint32_t i = 0; i < ft->ncols; i++) {
        plan_expr *e = column_expr(cx, ft, i);
        plan_column c;
        plan__col_init(&c, ft->colnames[i], &e->t);
        column_meta(ft, i, &c);
        sel_add(cx, sl, e, &c);
    }
    return DB_OK;
}

/* ---- aggregates ---- */

static const char *const agg_names[] = {"count",        "sum",      "min",    "max",     "avg",
                                        "group_concat", "bit_and",  "bit_or", "bit_xor", "std",
                                        "stddev",       "variance", NULL};

static bool
is_agg_name(const char *name)
{
    for (size_t i = 0; agg_names[i]; i++) {
        if (strcasecmp(agg_names[i], name) == 0) {
            return true;
        }
    }
    return false;
}

static bool
has_agg(const plan_ast *x)
{
    if (!x) {
        return false;
    }
    if (x->kind == PA_FUNC && is_agg_name(x->name)) {
        return true;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (has_agg(x->args[i])) {
            return true;
        }
    }
    return false;
}

static void
collect_aggs(const plan_ast *x, const plan_ast ***out, uint32_t *n, uint32_t *cap, arena *a)
{
    if (!x) {
        return;
    }
    if (x->kind == PA_FUNC && is_agg_name(x->name)) {
        if (*n == *cap) {
            uint32_t ncap = *cap ? *cap * 2 : 8;
            const plan_ast **nv = arena_alloc(a, ncap * sizeof *nv);
            if (*n) {
                memcpy(nv, *out, *n * sizeof *nv);
            }
            *out = nv;
            *cap = ncap;
        }
        (*out)[(*n)++] = x;
        return;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        collect_aggs(x->args[i], out, n, cap, a);
    }
}

/* The first column reference outside any aggregate, or NULL. */
static const plan_ast *
nonagg_column(const plan_ast *x)
{
    if (!x || (x->kind == PA_FUNC && is_agg_name(x->name))) {
        return NULL;
    }
    if (x->kind == PA_COLUMN) {
        return x;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        const plan_ast *c = nonagg_column(x->args[i]);
        if (c) {
            return c;
        }
    }
    return NULL;
}

/* An aggregate query without GROUP BY: one row. Builds the aggregate operator over *root
 * and the select list over its result columns. */
static int
plan_aggs(plan_ectx *cx, const plan_stmt *st, const from_table *ft, plan_op **root, sel_list *sl,
          db_error *err)
{
    const plan_ast **nodes = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t i = 0; i < st->nitems; i++) {
        const plan_select_item *it = &st->items[i];
        const plan_ast *c = it->is_star ? NULL : nonagg_column(it->expr);
        if (it->is_star || c) {
            const char *name = it->is_star ? ft->colnames[0] : c->name;
            for (uint32_t k = 0; !it->is_star && k < ft->ncols; k++) {
                if (strcasecmp(ft->colnames[k], name) == 0) {
                    name = ft->colnames[k];
                }
            }
            return db_error_set(err, ER_MIX_OF_GROUP_FUNC_AND_FIELDS_V2, i + 1,
                                arena_sprintf(cx->a, "%s.%s.%s", ft->schema, ft->org_table, name));
        }
        collect_aggs(it->expr, &nodes, &n, &cap, cx->a);
    }
    plan_agg *aggs = arena_calloc(cx->a, n ? n : 1, sizeof *aggs);
    plan_bind_col *binds = arena_calloc(cx->a, n ? n : 1, sizeof *binds);
    for (uint32_t i = 0; i < n; i++) {
        const plan_ast *x = nodes[i];
        plan_agg *ag = &aggs[i];
        char *lname = arena_strdup(cx->a, x->name);
        str_lower(lname, strlen(lname));
        bool star = x->nargs == 1 && x->args[0]->kind == PA_STAR;
        if (x->nargs != 1 || (star && strcmp(lname, "count") != 0)) {
            if (star || strcmp(lname, "count") != 0 || x->nargs == 0) {
                return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
            }
        }
        if (!star && has_agg(x->args[0])) {
            return db_error_set(err, ER_INVALID_GROUP_FUNC_USE);
        }
        plan_expr *arg = NULL;
        if (!star &&
            plan__analyze(cx, x->args[0], ft->binds, ft->ncols, "field list", &arg, err) != DB_OK) {
            return DB_ERR;
        }
        ag->arg = arg;
        if (strcmp(lname, "count") == 0) {
            ag->kind = star ? PLAN_AGG_COUNT_STAR : PLAN_AGG_COUNT;
            plan__type_bigint(&ag->t, 21, false);
            ag->vk = PV_INT;
        } else if (strcmp(lname, "min") == 0 || strcmp(lname, "max") == 0) {
            ag->kind = lname[1] == 'i' ? PLAN_AGG_MIN : PLAN_AGG_MAX;
            ag->t = arg->t;
            ag->t.nullable = true;
            ag->vk = arg->vk;
        } else if (strcmp(lname, "sum") == 0) {
            ag->kind = PLAN_AGG_SUM;
            if (arg->vk == PV_INT || arg->vk == PV_DECIMAL) {
                int prec = plan__num_prec(&arg->t) + 22;
                int scale = arg->vk == PV_DECIMAL ? arg->t.scale : 0;
                plan__type_decimal(&ag->t, prec > PLAN_DEC_MAX_PREC ? PLAN_DEC_MAX_PREC : prec,
                                   scale, true);
                ag->vk = PV_DECIMAL;
            } else {
                plan__type_double(&ag->t, true);
                ag->vk = PV_DOUBLE;
            }
        } else {
            return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                arena_sprintf(cx->a, "aggregate function %s()", x->name));
        }
        binds[i].name = "";
        binds[i].ast = x;
        binds[i].t = ag->t;
        binds[i].vk = ag->vk;
    }
    if (!cx->describe) {
        *root = plan__op_agg(cx, *root, aggs, n);
    }
    for (uint32_t i = 0; i < st->nitems; i++) {
        plan_expr *e;
        if (plan__analyze(cx, st->items[i].expr, binds, n, "field list", &e, err) != DB_OK) {
            return DB_ERR;
        }
        plan_column c;
        plan__col_init(&c, plan__item_label(cx, &st->items[i]), &e->t);
        sel_add(cx, sl, e, &c);
    }
    sl->nvis = sl->n;
    return DB_OK;
}

/* ---- ORDER BY ---- */

/* Sort keys over the select list: a position, a select alias (or an unaliased select item
 * naming the same column), else an expression added as a hidden column after nvis. */
static int
order_keys(plan_ectx *cx, const plan_stmt *st, const from_table *ft, sel_list *sl,
           plan_sort_key **keys, db_error *err)
{
    uint32_t nk = st->order->n;
    plan_sort_key *k = arena_calloc(cx->a, nk, sizeof *k);
    for (uint32_t i = 0; i < nk; i++) {
        const plan_ast *x = st->order->items[i];
        int col = -1;
        if (x->kind == PA_INT && !x->has_parens) {
            uint64_t pos = strtoull(x->name, NULL, 10);
            if (pos < 1 || pos > sl->nvis) {
                return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, "order clause");
            }
            col = (int)(pos - 1);
        } else if (x->kind == PA_COLUMN && !x->qual) {
            /* A select alias, then an unaliased item that is this very column. */
            uint32_t pos = 0;
            for (uint32_t j = 0; j < st->nitems && col < 0; j++) {
                const plan_select_item *it = &st->items[j];
                if (it->is_star) {
                    pos += ft->ncols;
                    continue;
                }
                if (it->alias && strcasecmp(it->alias, x->name) == 0) {
                    col = (int)pos;
                }
                pos++;
            }
            pos = 0;
            for (uint32_t j = 0; j < st->nitems && col < 0; j++) {
                const plan_select_item *it = &st->items[j];
                if (it->is_star) {
                    pos += ft->ncols;
                    continue;
                }
                if (!it->alias && it->expr->kind == PA_COLUMN &&
                    strcasecmp(it->expr->name, x->name) == 0) {
                    col = (int)pos;
                }
                pos++;
            }
        }
        if (col < 0) {
            plan_expr *e;
            if (plan__analyze(cx, x, ft->binds, ft->ncols, "order clause", &e, err) != DB_OK) {
                return DB_ERR;
            }
            plan_column c;
            plan__col_init(&c, "", &e->t);
            col = (int)sl->n;
            sel_add(cx, sl, e, &c);
        }
        k[i].col = (uint32_t)col;
        k[i].desc = st->order_desc[i];
        k[i].mode = plan__cmp_mode(sl->exprs[col], sl->exprs[col]);
    }
    *keys = k;
    return DB_OK;
}

/* ---- result ---- */

static int
emit_batch(void *ctx, const plan_batch *b, db_error *err)
{
    emit_ctx *ec = ctx;
    arena_reset(ec->a);
    uint32_t n = plan__batch_active(b);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = plan__batch_row(b, k);
        for (uint32_t c = 0; c < ec->nvis; c++) {
            plan_value v;
            plan__batch_get(b, c, row, &v);
            ec->cells[c].is_null = v.kind == PV_NULL;
            ec->cells[c].data =
                    ec->cells[c].is_null ? NULL : plan__v_text(ec->a, &v, &ec->cells[c].len);
            if (ec->cells[c].is_null) {
                ec->cells[c].len = 0;
            }
        }
        if (ec->sink->row(ec->sink->ctx, ec->cells, ec->nvis, err) != DB_OK) {
            return DB_ERR;
        }
        ec->nrows++;
    }
    return DB_OK;
}

int
plan__select_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_column **colsp,
                   uint32_t *ncolsp, db_error *err)
{
    plan_session *s = cx->s;
    from_table ft;
    for (uint32_t i = 0; i < st->ntables; i++) {
        if (resolve_table(cx, &st->tables[i], &ft, err) != DB_OK) {
            return DB_ERR;
        }
    }
    if (st->ntables > 1) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "JOIN");
    }
    if (st->distinct) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "SELECT DISTINCT");
    }

    plan_op *root = NULL;
    if (!cx->describe && ft.tbl) {
        /* With show_hidden_columns the rows carrying the delete sign show too (Doris adds the
         * __DORIS_DELETE_SIGN__ = 0 filter only when hidden columns are hidden). */
        root = plan__op_tscan(cx, ft.tbl, ft.as_of, false, ft.ncols > ft.tbl->nvis);
        plan__tscan_prune(root, st->where, ft.qual);
    } else if (!cx->describe) {
        plan_value *rows;
        size_t nrows;
        if (plan__vtable_rows(cx, ft.vt, &rows, &nrows, err) != DB_OK) {
            return DB_ERR;
        }
        plan_vtype *types = arena_calloc(cx->a, ft.ncols, sizeof *types);
        for (uint32_t i = 0; i < ft.ncols; i++) {
            types[i].kind = ft.binds[i].vk;
            types[i].is_unsigned = ft.binds[i].t.is_unsigned;
        }
        root = plan__op_rows(cx, types, ft.ncols, rows, nrows, plan__batch_cap(s));
    }

    if (st->where) {
        if (has_agg(st->where)) {
            return db_error_set(err, ER_INVALID_GROUP_FUNC_USE);
        }
        plan_expr *where;
        if (plan__analyze(cx, st->where, ft.binds, ft.ncols, "where clause", &where, err) !=
            DB_OK) {
            return DB_ERR;
        }
        if (root) {
            root = plan__op_filter(cx, root, where);
        }
    }

    bool is_agg = false;
    for (uint32_t i = 0; i < st->nitems; i++) {
        is_agg |= !st->items[i].is_star && has_agg(st->items[i].expr);
    }
    sel_list sl;
    memset(&sl, 0, sizeof sl);
    plan_sort_key *keys = NULL;
    if (is_agg) {
        if (plan_aggs(cx, st, &ft, &root, &sl, err) != DB_OK) {
            return DB_ERR;
        }
        /* One row: ORDER BY sorts nothing, but positions must exist. */
        for (uint32_t i = 0; st->order && i < st->order->n; i++) {
            const plan_ast *x = st->order->items[i];
            if (x->kind == PA_INT && !x->has_parens) {
                uint64_t pos = strtoull(x->name, NULL, 10);
                if (pos < 1 || pos > sl.nvis) {
                    return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, "order clause");
                }
            }
        }
    } else {
        for (uint32_t i = 0; i < st->nitems; i++) {
            const plan_select_item *it = &st->items[i];
            if (it->is_star) {
                if (expand_star(cx, &ft, it, &sl, err) != DB_OK) {
                    return DB_ERR;
                }
                continue;
            }
            plan_expr *e;
            if (plan__analyze(cx, it->expr, ft.binds, ft.ncols, "field list", &e, err) != DB_OK) {
                return DB_ERR;
            }
            plan_column c;
            plan__col_init(&c, plan__item_label(cx, it), &e->t);
            if (it->expr->kind == PA_COLUMN) {
                column_meta(&ft, (uint32_t)e->slot, &c);
            }
            sel_add(cx, &sl, e, &c);
        }
        sl.nvis = sl.n;
        if (st->order && order_keys(cx, st, &ft, &sl, &keys, err) != DB_OK) {
            return DB_ERR;
        }
    }

    *colsp = sl.cols;
    *ncolsp = sl.nvis;
    *rootp = NULL;
    if (cx->describe) {
        return DB_OK;
    }
    root = plan__op_project(cx, root, sl.exprs, sl.n);
    if (keys) {
        root = plan__op_sort(cx, root, keys, st->order->n);
    }
    uint64_t limit = st->has_limit ? st->limit_count
                                   : (uint64_t)s->vars[plan__sysvar_find("sql_select_limit")].i;
    if (limit != UINT64_MAX || st->limit_offset > 0) {
        root = plan__op_limit(cx, root, st->limit_offset, limit);
    }
    *rootp = root;
    return DB_OK;
}

int
plan__select_from(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                  db_error *err)
{
    plan_session *s = cx->s;
    plan_op *root;
    plan_column *cols;
    uint32_t nvis;
    if (plan__select_build(cx, st, &root, &cols, &nvis, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->describe) {
        return sink->columns(sink->ctx, cols, nvis, err);
    }
    out->is_result_set = true;
    if (sink->columns(sink->ctx, cols, nvis, err) != DB_OK) {
        return DB_ERR;
    }
    emit_ctx ec = {sink, nvis, arena_calloc(cx->a, nvis ? nvis : 1, sizeof(plan_cell)),
                   arena_new(0), 0};
    int rc = plan__op_drain(root, emit_batch, &ec, err);
    arena_free(ec.a);
    if (rc == DB_OK) {
        s->found_rows = ec.nrows;
    }
    return rc;
}
