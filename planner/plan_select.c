/* SPDX-License-Identifier: Apache-2.0
 * plan_select.c: SELECT ... FROM one table. Resolves the table (information_schema or a
 * catalog table), binds column references, expands stars, resolves GROUP BY / HAVING / ORDER BY
 * items, plans aggregated queries over the hash aggregate (plan_agg.c) and DISTINCT, builds the
 * operator tree
 *   scan -> filter -> [aggregate -> [filter HAVING]] -> [window] -> project -> [distinct] -> [sort]
 *   -> [limit]
 * and streams the result to the sink batch by batch. See README.md §Executor. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/strutil.h"
#include "storage/storage.h"

/* The bind node of a hidden column while hidden columns are not shown: no expression names it
 * (binds match such a node by identity only). */
static const plan_ast unnamed_col;

/* One table of the FROM clause's scope: what qualifies its columns. */
typedef struct scope_tab {
    const char *qual; /* alias, or the table name as written */
    const char *db;   /* database qualifier it answers to (NULL: aliases, derived tables) */
    bool table_ci;    /* qualifiers compare case-insensitively (information_schema) */
    plan_tbl *tbl;    /* a table with data (its keys: functional dependence), else NULL */
} scope_tab;

/* The FROM clause resolved: the bindable columns of the row its operator produces (one
 * table, or the joined row), their metadata, and what stars expand to. */
typedef struct from_table {
    const plan_vtable *vt; /* a single information_schema table, or NULL */
    plan_tbl *tbl;         /* a single table with data (functional dependence), or NULL */
    uint64_t as_of;        /* time travel TSO of tbl, 0 = current */
    uint32_t ncols;        /* bindable columns */
    const char **colnames; /* ncols names */
    plan_bind_col *binds;
    plan_column *meta; /* per column: org_name, table, org_table, schema */
    int *tab;          /* per column: its scope table; -1 = a USING / NATURAL coalesced column */
    uint32_t *tcol;    /* per column: its index in that table */
    bool *hidden;      /* per column: an unqualified name skips it (merged by USING) */
    uint32_t *star;    /* the columns * expands to, in order */
    uint32_t nstar;
    scope_tab *tabs;
    uint32_t ntabs;
    const char *qual; /* single table: its qualifier (pruning) */
    double est;       /* estimated rows */
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

static int resolve_table(plan_ectx *cx, const plan_stmt *st, const plan_table_ref *ref,
                         from_table *ft, plan_op **op, db_error *err);
static plan_expr *column_expr(plan_ectx *cx, const from_table *ft, uint32_t col);
static void sel_add(plan_ectx *cx, sel_list *sl, plan_expr *e, const plan_column *c);
static void column_meta(const from_table *ft, uint32_t col, plan_column *c);
static int expand_star(plan_ectx *cx, const from_table *ft, const plan_select_item *it,
                       sel_list *sl, db_error *err);
static bool is_agg_name(const char *name);
static bool is_agg_call(const plan_ast *x);
static bool has_agg(const plan_ast *x);
static const plan_ast *nonagg_column(const plan_ast *x);
static int order_keys(plan_ectx *cx, const plan_stmt *st, const from_table *ft,
                      const plan_bind_col *binds, uint32_t nb, sel_list *sl, plan_sort_key **keys,
                      db_error *err);
static int plan_distinct(plan_ectx *cx, const plan_stmt *st, const from_table *ft,
                         const sel_list *sl, const plan_sort_key *keys, plan_op **root,
                         db_error *err);
static int having_plain(plan_ectx *cx, const plan_stmt *st, const plan_ast *x,
                        const plan_ast **out);
static int emit_batch(void *ctx, const plan_batch *b, db_error *err);

/* Per-column arrays of ft for ncols columns. */
static void
ft_alloc(plan_ectx *cx, from_table *ft, uint32_t ncols)
{
    ft->ncols = ncols;
    uint32_t n = ncols ? ncols : 1;
    ft->colnames = arena_calloc(cx->a, n, sizeof(char *));
    ft->binds = arena_calloc(cx->a, n, sizeof *ft->binds);
    ft->meta = arena_calloc(cx->a, n, sizeof *ft->meta);
    ft->tab = arena_calloc(cx->a, n, sizeof *ft->tab);
    ft->tcol = arena_calloc(cx->a, n, sizeof *ft->tcol);
    ft->hidden = arena_calloc(cx->a, n, sizeof *ft->hidden);
    ft->star = arena_calloc(cx->a, n, sizeof *ft->star);
    ft->nstar = ncols;
    for (uint32_t i = 0; i < ncols; i++) {
        ft->star[i] = i;
        ft->tcol[i] = i;
    }
}

/* The CTE named name visible from statement st: its own WITH list, then its ancestors'; a CTE
 * body sees only the CTEs before it. */
static const plan_cte *
find_cte(const plan_stmt *st, const char *name)
{
    const plan_stmt *prev = NULL;
    for (const plan_stmt *s = st; s; prev = s, s = s->parent) {
        uint32_t limit = s->nctes;
        for (uint32_t k = 0; prev && k < s->nctes; k++) {
            if (s->ctes[k].st == prev) {
                limit = k;
            }
        }
        for (uint32_t k = limit; k-- > 0;) {
            if (strcmp(s->ctes[k].name, name) == 0) {
                return &s->ctes[k];
            }
        }
    }
    return NULL;
}

static int select_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, sel_list *slp,
                        db_error *err);

/* A derived table (or a CTE reference): the inner statement planned on its own; its visible
 * select items are the columns, qualified by alias. */
static const plan_ast *order_aliases(plan_ectx *cx, const plan_stmt *st, const from_table *ft,
                                     const plan_ast *x);

static int
resolve_derived(plan_ectx *cx, const plan_stmt *sub, const char *alias, from_table *ft,
                plan_op **op, db_error *err)
{
    sel_list sl;
    plan_op *root = NULL;
    if (select_build(cx, sub, &root, &sl, err) != DB_OK) {
        return DB_ERR;
    }
    memset(ft, 0, sizeof *ft);
    ft_alloc(cx, ft, sl.nvis);
    /* A column list (`t(a, b)`, a view's `(a, b)`) names the columns instead of the items. */
    if (sub->ncolnames && sub->ncolnames != sl.nvis) {
        return db_error_set(err, ER_VIEW_WRONG_LIST);
    }
    for (uint32_t i = 0; i < sl.nvis; i++) {
        const char *name = sub->ncolnames ? sub->colnames[i] : sl.cols[i].name;
        for (uint32_t k = 0; k < i; k++) {
            if (strcasecmp(ft->colnames[k], name) == 0) {
                return db_error_set(err, ER_DUP_FIELDNAME, name);
            }
        }
        if (sub->ncolnames) {
            sl.cols[i].name = name;
            sl.cols[i].org_name = name;
        }
        ft->colnames[i] = sl.cols[i].name;
        plan_bind_col *b = &ft->binds[i];
        b->name = sl.cols[i].name;
        b->t = sl.exprs[i]->t;
        b->vk = sl.exprs[i]->vk;
        b->table = alias;
        ft->meta[i] = sl.cols[i];
        ft->meta[i].table = alias;
        if (!ft->meta[i].org_table) {
            ft->meta[i].org_table = alias;
        }
        ft->meta[i].org_name = sl.cols[i].org_name ? sl.cols[i].org_name : sl.cols[i].name;
    }
    ft->qual = alias;
    ft->est = 1000;
    if (root && sl.n > sl.nvis) { /* hidden ORDER BY columns stay inside */
        plan_expr **ex = arena_calloc(cx->a, sl.nvis + 1, sizeof *ex);
        for (uint32_t i = 0; i < sl.nvis; i++) {
            plan_ast *x = arena_calloc(cx->a, 1, sizeof *x);
            x->kind = PA_COLUMN;
            x->name = "";
            plan_bind_col b = ft->binds[i];
            b.ast = x;
            db_error e2;
            int rc = plan__analyze(cx, x, &b, 1, "field list", &ex[i], &e2);
            DB_ASSERT(rc == DB_OK);
            (void)rc;
            ex[i]->slot = (int)i;
        }
        root = plan__op_project(cx, root, ex, sl.nvis);
    }
    *op = root;
    return DB_OK;
}

/* A view: its stored definition (`CREATE VIEW v [(names)] AS select`, plan_ddl.c) parsed and
 * planned as a derived table named like the view, resolved in the view's database; SELECT_PRIV
 * on the view is what it takes. */
static int
resolve_view(plan_ectx *cx, const plan_table_ref *ref, const char *db, const char *sql,
             from_table *ft, plan_op **op, db_error *err)
{
    plan_stmt *vst;
    if (plan__check_priv(cx, CAT_PRIV_SELECT, db, ref->name, err) != DB_OK ||
        plan__parse(cx->a, sql, strlen(sql), false, false, false, &vst, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->view_depth >= 32) {
        return db_error_set(err, ER_VIEW_RECURSIVE, db, ref->name);
    }
    vst->parent = arena_calloc(cx->a, 1, sizeof *vst->parent); /* nested: no CTEs, no limit */
    vst->parent->kind = PS_SELECT;
    if (vst->ddl && vst->ddl->nnames) { /* CREATE VIEW v (names) AS ... */
        vst->colnames = vst->ddl->names;
        vst->ncolnames = (uint32_t)vst->ddl->nnames;
    }
    const char *alias = ref->alias ? ref->alias : ref->name;
    char *saved = cx->s->db;
    cx->s->db = (char *)db;
    cx->view_depth++;
    int rc = resolve_derived(cx, vst, alias, ft, op, err);
    cx->view_depth--;
    cx->s->db = saved;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t i = 0; i < ft->ncols; i++) {
        ft->binds[i].db = ref->alias ? NULL : db;
        ft->meta[i].org_table = ref->name;
        ft->meta[i].schema = db;
    }
    ft->ntabs = 1;
    ft->tabs = arena_calloc(cx->a, 1, sizeof *ft->tabs);
    ft->tabs[0].qual = alias;
    ft->tabs[0].db = ref->alias ? NULL : db;
    return DB_OK;
}

/* binlog(...) / t@incr(...) (plan_binlog.c): its columns qualified by the alias, or the
 * table's name (binlog: the function's name, as Doris names a table function's columns). */
static int
resolve_binlog(plan_ectx *cx, const plan_table_ref *ref, from_table *ft, plan_op **op,
               db_error *err)
{
    memset(ft, 0, sizeof *ft);
    plan_binlog_src src;
    const char *sdb = ref->db ? ref->db : cx->s->db;
    bool is_stream = ref->tvf == NULL && plan__is_stream(cx, sdb, ref->name);
    if (is_stream ? plan__stream_resolve(cx, ref, &src, op, err) != DB_OK
                  : plan__binlog_resolve(cx, ref, &src, op, err) != DB_OK) {
        return DB_ERR;
    }
    ft_alloc(cx, ft, src.ncols);
    ft->nstar = src.nstar;
    ft->qual = ref->alias ? ref->alias : (ref->tvf ? ref->tvf : ref->name);
    ft->ntabs = 1;
    ft->tabs = arena_calloc(cx->a, 1, sizeof *ft->tabs);
    ft->tabs[0].qual = ft->qual;
    ft->tabs[0].db = ref->alias || ref->tvf ? NULL : src.tbl->db;
    for (uint32_t i = 0; i < ft->ncols; i++) {
        plan_bind_col *b = &ft->binds[i];
        ft->colnames[i] = src.names[i];
        b->name = src.names[i];
        b->t = src.xt[i];
        b->vk = src.vk[i];
        b->table = ft->qual;
        b->db = ft->tabs[0].db;
        ft->meta[i].org_name = src.names[i];
        ft->meta[i].table = ft->qual;
        ft->meta[i].org_table = src.tbl->name;
        ft->meta[i].schema = src.tbl->db;
    }
    ft->est = src.est;
    return DB_OK;
}

/* One FROM item: information_schema table, CTE, derived table or catalog table, with its
 * operator (NULL when only describing). */
static int
resolve_table(plan_ectx *cx, const plan_stmt *st, const plan_table_ref *ref, from_table *ft,
              plan_op **op, db_error *err)
{
    *op = NULL;
    const plan_cte *cte = ref->sub || ref->db ? NULL : find_cte(st, ref->name);
    if ((ref->sub || cte) && ref->nparts > 0) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Table %s has no partitions", ref->name));
    }
    if (ref->sub || cte) {
        const char *alias = ref->alias ? ref->alias : ref->name;
        if (resolve_derived(cx, ref->sub ? ref->sub : cte->st, alias, ft, op, err) != DB_OK) {
            return DB_ERR;
        }
        ft->ntabs = 1;
        ft->tabs = arena_calloc(cx->a, 1, sizeof *ft->tabs);
        ft->tabs[0].qual = alias;
        return DB_OK;
    }
    if (ref->tvf || ref->scan_fn ||
        (!ref->sub && plan__is_stream(cx, ref->db ? ref->db : cx->s->db, ref->name))) {
        if (ref->temp_parts) { /* streams and change reads see formal partitions only */
            return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                "TEMPORARY PARTITION in a stream, binlog() or @incr read");
        }
        return resolve_binlog(cx, ref, ft, op, err);
    }
    const char *db = ref->db ? ref->db : cx->s->db;
    if (!db) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    const char *vsql;
    if (strcasecmp(db, "information_schema") != 0 && plan__view_sql(cx, db, ref->name, &vsql)) {
        if (ref->nparts > 0) {
            return db_error_set(err, ER_DORIS,
                                arena_sprintf(cx->a, "Table %s has no partitions", ref->name));
        }
        return resolve_view(cx, ref, db, vsql, ft, op, err);
    }
    memset(ft, 0, sizeof *ft);
    const char *org_table, *schema;
    /* The single place tables are found: information_schema, else the catalog. */
    if (strcasecmp(db, "information_schema") == 0) {
        ft->vt = plan__vtable_find(ref->name);
        if (!ft->vt) {
            return db_error_set(err, ER_NO_SUCH_TABLE, db, ref->name);
        }
        ft_alloc(cx, ft, ft->vt->ncols);
        for (uint32_t i = 0; i < ft->ncols; i++) {
            ft->colnames[i] = ft->vt->cols[i].name;
        }
        org_table = ft->vt->name;
        schema = "information_schema";
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
        if (ref->temp_parts) { /* FROM t TEMPORARY PARTITION (tp, ...) */
            plan__tbl_use_temp(ft->tbl);
        }
        if (ref->as_of && !cx->describe &&
            (plan__as_of_tso(cx, ref->as_of, &ft->as_of, err) != DB_OK ||
             plan__binlog_check_as_of(cx, ft->tbl, ft->as_of, err) != DB_OK)) {
            return DB_ERR;
        }
        int idx = plan__sysvar_find("show_hidden_columns");
        bool hidden = idx >= 0 && cx->s->vars[idx].i != 0;
        /* Every column the scan produces, so that a joined row's columns line up with the
         * operators'; hidden ones (unless shown) bind no name and are not in *. */
        ft_alloc(cx, ft, ft->tbl->ncols);
        ft->nstar = hidden ? ft->tbl->ncols : ft->tbl->nvis;
        for (uint32_t i = 0; i < ft->ncols; i++) {
            ft->colnames[i] = ft->tbl->cols[i].name;
        }
        org_table = ft->tbl->name;
        schema = ft->tbl->db;
    }
    ft->qual = ref->alias ? ref->alias : ref->name;
    ft->ntabs = 1;
    ft->tabs = arena_calloc(cx->a, 1, sizeof *ft->tabs);
    ft->tabs[0].qual = ft->qual;
    ft->tabs[0].db = ref->alias ? NULL : schema;
    ft->tabs[0].table_ci = ref->alias == NULL && ft->vt;
    ft->tabs[0].tbl = ft->tbl;
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
        b->db = ref->alias ? NULL : schema;         /* an alias hides db.tbl */
        b->table_ci = ref->alias == NULL && ft->vt; /* aliases and tables are case-sensitive */
        ft->meta[i].org_name = ft->colnames[i];
        ft->meta[i].table = ref->alias ? ref->alias : org_table;
        ft->meta[i].org_table = org_table;
        ft->meta[i].schema = schema;
        if (i >= ft->nstar) {
            b->ast = &unnamed_col;
            ft->hidden[i] = true;
        }
    }
    if (cx->describe) {
        return DB_OK;
    }
    if (ft->tbl) {
        /* With show_hidden_columns the rows carrying the delete sign show too (Doris adds the
         * __DORIS_DELETE_SIGN__ = 0 filter only when hidden columns are hidden). */
        if (ft->as_of && plan__binlog_needs_undo(cx, ft->tbl, ft->as_of)) {
            /* compacted away: rebuilt from the Row Binlog's before images (reads every
             * column; no pruning) */
            *op = plan__op_time_travel(cx, ft->tbl, ft->as_of);
        } else {
            *op = plan__op_tscan(cx, ft->tbl, ft->as_of, false, ft->nstar > ft->tbl->nvis);
        }
        /* Projection pruning: the scan reads the columns expressions end up binding. */
        bool *need = arena_calloc(cx->a, ft->tbl->ncols ? ft->tbl->ncols : 1, sizeof *need);
        for (uint32_t i = 0; i < ft->ncols; i++) {
            ft->binds[i].used = &need[i];
        }
        plan__tscan_need(*op, need);
        if (ref->nparts > 0) { /* FROM t PARTITION (p, ...) */
            bool *ok;
            if (plan__part_flags(cx, ft->tbl, ref->parts, ref->nparts, &ok, err) != DB_OK) {
                return DB_ERR;
            }
            plan__tscan_only_partitions(*op, ok);
            plan__time_travel_partitions(*op, ok);
        }
        ft->est = plan__tscan_est(*op);
        return DB_OK;
    }
    if (ref->nparts > 0) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(cx->a, "Table %s has no partitions", ref->name));
    }
    plan_value *rows;
    size_t nrows;
    if (plan__vtable_rows(cx, ft->vt, &rows, &nrows, err) != DB_OK) {
        return DB_ERR;
    }
    plan_vtype *types = arena_calloc(cx->a, ft->ncols, sizeof *types);
    for (uint32_t i = 0; i < ft->ncols; i++) {
        types[i].kind = ft->binds[i].vk;
        types[i].is_unsigned = ft->binds[i].t.is_unsigned;
    }
    *op = plan__op_rows(cx, types, ft->ncols, rows, nrows, plan__batch_cap(cx->s));
    ft->est = (double)nrows;
    return DB_OK;
}

/* A reference to column col of binds[] (by identity, whatever its name). */
static plan_expr *
slot_expr(plan_ectx *cx, const plan_bind_col *binds, uint32_t col)
{
    plan_ast *x = arena_calloc(cx->a, 1, sizeof *x);
    x->kind = PA_COLUMN;
    x->name = binds[col].name;
    plan_bind_col b = binds[col];
    b.ast = x;
    plan_expr *e = NULL;
    db_error err;
    int rc = plan__analyze(cx, x, &b, 1, "field list", &e, &err);
    DB_ASSERT(rc == DB_OK);
    (void)rc;
    e->slot = (int)col;
    return e;
}

/* A typed reference to column col of ft. */
static plan_expr *
column_expr(plan_ectx *cx, const from_table *ft, uint32_t col)
{
    return slot_expr(cx, ft->binds, col);
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
    c->org_name = ft->meta[col].org_name;
    c->table = ft->meta[col].table;
    c->org_table = ft->meta[col].org_table;
    c->schema = ft->meta[col].schema;
}

/* The columns star item it expands to: every column (USING columns once, first) or those of
 * the table it names (1051 when none). */
static int
star_cols(plan_ectx *cx, const from_table *ft, const plan_select_item *it, uint32_t **cols,
          uint32_t *n, db_error *err)
{
    if (!it->star_qual) {
        *cols = ft->star;
        *n = ft->nstar;
        return DB_OK;
    }
    int t = -1;
    for (uint32_t i = 0; i < ft->ntabs && t < 0; i++) {
        const scope_tab *st = &ft->tabs[i];
        bool ok = st->table_ci ? strcasecmp(it->star_qual, st->qual) == 0
                               : strcmp(it->star_qual, st->qual) == 0;
        if (it->star_db) {
            ok = ok && st->db && strcasecmp(it->star_db, st->db) == 0;
        }
        t = ok ? (int)i : -1;
    }
    if (t < 0) {
        return db_error_set(err, ER_BAD_TABLE_ERROR, it->star_qual);
    }
    *cols = arena_calloc(cx->a, ft->ncols + 1, sizeof **cols);
    *n = 0;
    for (uint32_t i = 0; i < ft->ncols; i++) {
        if (ft->tab[i] == t && ft->binds[i].ast != &unnamed_col) {
            (*cols)[(*n)++] = i;
        }
    }
    return DB_OK;
}

/* How many columns star item it expands to (0 when it names no table). */
static uint32_t
star_width(plan_ectx *cx, const from_table *ft, const plan_select_item *it)
{
    uint32_t *cols, n = 0;
    db_error e2;
    if (star_cols(cx, ft, it, &cols, &n, &e2) != DB_OK) {
        return 0;
    }
    return n;
}

static int
expand_star(plan_ectx *cx, const from_table *ft, const plan_select_item *it, sel_list *sl,
            db_error *err)
{
    uint32_t *cols, n;
    if (star_cols(cx, ft, it, &cols, &n, err) != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = cols[k];
        plan_expr *e = column_expr(cx, ft, i);
        plan_column c;
        plan__col_init(&c, ft->colnames[i], &e->t);
        column_meta(ft, i, &c);
        sel_add(cx, sl, e, &c);
    }
    return DB_OK;
}

/* ---- aggregates ---- */

static const char *const agg_names[] = {
        "count",       "sum",      "min",     "max",      "avg",       "group_concat",
        "bit_and",     "bit_or",   "bit_xor", "std",      "stddev",    "stddev_pop",
        "stddev_samp", "variance", "var_pop", "var_samp", "any_value", NULL};

static bool
is_agg_name(const char *name)
{
    for (size_t i = 0; agg_names[i]; i++) {
        if (strcasecmp(agg_names[i], name) == 0) {
            return true;
        }
    }
    char lname[32];
    size_t n = strlen(name);
    if (n >= sizeof lname) {
        return false;
    }
    memcpy(lname, name, n + 1);
    str_lower(lname, n);
    /* BITMAP_UNION, COLLECT_LIST, ...; NDV, PERCENTILE, MAX_BY, ... */
    return plan__agg_doris_kind(name, NULL) || plan__agg_doris_named(lname);
}

bool
plan__is_agg_name(const char *name)
{
    return is_agg_name(name);
}

static bool
is_agg_call(const plan_ast *x)
{
    return x && x->kind == PA_FUNC && x->has_parens && is_agg_name(x->name);
}

static bool
has_agg(const plan_ast *x)
{
    if (!x) {
        return false;
    }
    if (is_agg_call(x)) {
        return true;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (has_agg(x->args[i])) {
            return true;
        }
    }
    return false;
}

static bool
has_agg_or_window(const plan_ast *x)
{
    if (!x) {
        return false;
    }
    if (is_agg_call(x) || x->kind == PA_WINDOW) {
        return true;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (has_agg_or_window(x->args[i])) {
            return true;
        }
    }
    return false;
}

bool
plan__select_needs_rows(const plan_stmt *st)
{
    if (st->group || st->having) {
        return true;
    }
    for (uint32_t i = 0; i < st->nitems; i++) {
        if (!st->items[i].is_star && has_agg_or_window(st->items[i].expr)) {
            return true;
        }
    }
    for (uint32_t i = 0; st->order && i < st->order->n; i++) {
        if (has_agg_or_window(st->order->items[i])) {
            return true;
        }
    }
    return false;
}

/* The select list with stars expanded into column references: what GROUP BY ordinals,
 * aliases and the grouped select list work on. */
typedef struct xitem {
    const plan_ast *expr;
    const char *alias; /* NULL when none */
    const char *label;
    int col; /* a table column expanded from a star, else -1 */
} xitem;

/* Planning state of an aggregated query. */
typedef struct grp {
    plan_ectx *cx;
    const plan_stmt *st;
    const from_table *ft;
    xitem *items;
    uint32_t nitems;
    const plan_ast **gk; /* GROUP BY expressions (ordinals and aliases resolved) */
    plan_ast **knode;    /* per key: the node bound to its output column */
    uint32_t nkeys;
    const plan_ast **aggs; /* distinct aggregate calls; the output binds them by identity */
    uint32_t naggs, cap_aggs;
    bool full_group_by; /* sql_mode ONLY_FULL_GROUP_BY */
    bool *key_grouped;  /* per scope table: every key column of its UNIQUE / AGGREGATE table is a
                           GROUP BY column: the other columns depend on the group (MySQL's primary
                           key rule) */
    const char *clause; /* where the expression being rewritten is: for 1055 / 1054 */
    uint32_t item_no;   /* 1-based expression number in that clause */
} grp;

static int input_col(const from_table *ft, const plan_ast *x);
static bool ast_equal(const grp *g, const plan_ast *a, const plan_ast *b);
static int rewrite(grp *g, const plan_ast *x, bool in_having, const plan_ast **out, db_error *err);
static int add_agg(grp *g, const plan_ast *x, const plan_ast **out, db_error *err);
static int agg_of(plan_ectx *cx, const from_table *ft, const plan_ast *x, plan_agg *ag,
                  db_error *err);
static int group_keys(grp *g, db_error *err);
static int plan_grouped(plan_ectx *cx, const plan_stmt *st, const from_table *ft, plan_op **root,
                        sel_list *sl, plan_sort_key **keys, db_error *err);

/* The table column a column reference names (bind rules of plan_analyze), or -1. */
static int
input_col(const from_table *ft, const plan_ast *x)
{
    for (uint32_t i = 0; i < ft->ncols; i++) {
        const plan_bind_col *c = &ft->binds[i];
        if (c->ast || strcasecmp(c->name, x->name) != 0 || (!x->qual && ft->hidden[i])) {
            continue;
        }
        if (x->qual && (!c->table || (c->table_ci ? strcasecmp(c->table, x->qual)
                                                  : strcmp(c->table, x->qual)))) {
            continue;
        }
        if (x->db_qual && (!c->db || strcasecmp(c->db, x->db_qual) != 0)) {
            continue;
        }
        return (int)i;
    }
    return -1;
}

/* db.table.column of column col (1055 / 3065 messages). */
static const char *
col_fullname(plan_ectx *cx, const from_table *ft, uint32_t col)
{
    const plan_column *m = &ft->meta[col];
    if (!m->schema) {
        return arena_sprintf(cx->a, "%s.%s", m->table ? m->table : "", ft->colnames[col]);
    }
    return arena_sprintf(cx->a, "%s.%s.%s", m->schema, m->org_table, m->org_name);
}

static bool
str_eq_ci(const char *a, const char *b)
{
    return a == b || (a && b && strcasecmp(a, b) == 0);
}

/* Structural equality (MySQL matches GROUP BY expressions in the select list this way):
 * column references are equal when they name the same table column. */
static bool
ast_equal(const grp *g, const plan_ast *a, const plan_ast *b)
{
    if (a == b) {
        return true;
    }
    if (!a || !b || a->kind != b->kind) {
        return false;
    }
    if (a->kind == PA_COLUMN) {
        if (g == NULL) { /* before FROM is resolved: by name (a qualifier only if both have one) */
            return str_eq_ci(a->name, b->name) &&
                   (!a->qual || !b->qual || str_eq_ci(a->qual, b->qual));
        }
        int i = input_col(g->ft, a);
        return i >= 0 && i == input_col(g->ft, b);
    }
    if (a->op != b->op || a->negated != b->negated || a->nargs != b->nargs ||
        a->has_operand != b->has_operand || a->has_else != b->has_else ||
        a->agg_distinct != b->agg_distinct || !str_eq_ci(a->name, b->name) ||
        !str_eq_ci(a->qual, b->qual) || a->len != b->len ||
        (a->len && memcmp(a->str, b->str, a->len) != 0) || a->agg_order || b->agg_order ||
        a->has_sep != b->has_sep) {
        return false;
    }
    if (a->kind == PA_CAST && (a->cast.kind != b->cast.kind || a->cast.len != b->cast.len ||
                               a->cast.scale != b->cast.scale || a->cast.type != b->cast.type)) {
        return false;
    }
    if (a->kind == PA_PARAM || a->kind == PA_USERVAR || a->kind == PA_ASSIGN) {
        return a->kind == PA_USERVAR && str_eq_ci(a->name, b->name);
    }
    if (a->kind == PA_SUBQUERY && a->sub != b->sub) { /* only the same subquery */
        return false;
    }
    for (uint32_t i = 0; i < a->nargs; i++) {
        if (!ast_equal(g, a->args[i], b->args[i])) {
            return false;
        }
    }
    return true;
}

/* The canonical node of aggregate call x (structurally equal calls share one result). */
static int
add_agg(grp *g, const plan_ast *x, const plan_ast **out, db_error *err)
{
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (has_agg(x->args[i])) {
            return db_error_set(err, ER_INVALID_GROUP_FUNC_USE);
        }
    }
    for (uint32_t i = 0; x->agg_order && i < x->agg_order->n; i++) {
        if (has_agg(x->agg_order->items[i])) {
            return db_error_set(err, ER_INVALID_GROUP_FUNC_USE);
        }
    }
    for (uint32_t i = 0; i < g->naggs; i++) {
        if (ast_equal(g, g->aggs[i], x)) {
            *out = g->aggs[i];
            return DB_OK;
        }
    }
    if (g->naggs == g->cap_aggs) {
        g->cap_aggs = g->cap_aggs ? g->cap_aggs * 2 : 8;
        const plan_ast **n = arena_alloc(g->cx->a, g->cap_aggs * sizeof *n);
        if (g->naggs) {
            memcpy(n, g->aggs, g->naggs * sizeof *n);
        }
        g->aggs = n;
    }
    g->aggs[g->naggs++] = x;
    *out = x;
    return DB_OK;
}

/* x with every GROUP BY expression replaced by its key node and every aggregate call by its
 * canonical node, so that the result analyses over the aggregate's output columns. A column
 * outside both is 1055 (1140 without GROUP BY) under ONLY_FULL_GROUP_BY, else ANY_VALUE(col).
 * In HAVING a name may also be a select alias (after the GROUP BY columns, as MySQL). */
static int
rewrite(grp *g, const plan_ast *x, bool in_having, const plan_ast **out, db_error *err)
{
    plan_ectx *cx = g->cx;
    *out = x;
    for (uint32_t k = 0; k < g->nkeys; k++) {
        if (ast_equal(g, x, g->gk[k])) {
            *out = g->knode[k];
            return DB_OK;
        }
    }
    if (is_agg_call(x)) {
        return add_agg(g, x, out, err);
    }
    if (x->kind == PA_COLUMN) {
        if (in_having && !x->qual) {
            for (uint32_t i = 0; i < g->nitems; i++) {
                if (g->items[i].alias && strcasecmp(g->items[i].alias, x->name) == 0) {
                    return rewrite(g, g->items[i].expr, false, out, err);
                }
            }
        }
        int col = input_col(g->ft, x);
        if (col < 0 || (in_having && g->full_group_by)) {
            const char *name = x->qual ? arena_sprintf(cx->a, "%s.%s", x->qual, x->name) : x->name;
            return db_error_set(err, ER_BAD_FIELD_ERROR, name,
                                in_having ? "having clause" : g->clause);
        }
        if (g->full_group_by && (g->ft->tab[col] < 0 || !g->key_grouped[g->ft->tab[col]])) {
            const char *full = col_fullname(cx, g->ft, (uint32_t)col);
            if (g->nkeys == 0) {
                return db_error_set(err, ER_MIX_OF_GROUP_FUNC_AND_FIELDS_V2, g->item_no, full);
            }
            return db_error_set(err, ER_WRONG_FIELD_WITH_GROUP_V2, g->item_no, g->clause, full);
        }
        plan_ast *av = arena_calloc(cx->a, 1, sizeof *av);
        av->kind = PA_FUNC;
        av->name = "any_value";
        av->has_parens = true;
        av->args = arena_alloc(cx->a, sizeof(plan_ast *));
        av->args[0] = (plan_ast *)x;
        av->nargs = 1;
        av->off = x->off;
        av->end = x->end;
        return add_agg(g, av, out, err);
    }
    if (x->nargs == 0) {
        return DB_OK;
    }
    plan_ast **args = NULL;
    for (uint32_t i = 0; i < x->nargs; i++) {
        const plan_ast *a;
        if (rewrite(g, x->args[i], in_having, &a, err) != DB_OK) {
            return DB_ERR;
        }
        if (a != x->args[i] && !args) {
            args = arena_alloc(cx->a, x->nargs * sizeof *args);
            memcpy(args, x->args, x->nargs * sizeof *args);
        }
        if (args) {
            args[i] = (plan_ast *)a;
        }
    }
    if (args) {
        plan_ast *c = arena_alloc(cx->a, sizeof *c);
        *c = *x;
        c->args = args;
        *out = c;
    }
    return DB_OK;
}

/* Resolve the GROUP BY items: a position names a select item (1054 outside the list, 1056
 * on an aggregate), a bare name a table column first, else a select alias (MySQL). */
static int
group_keys(grp *g, db_error *err)
{
    plan_ectx *cx = g->cx;
    const plan_ast_list *gl = g->st->group;
    g->nkeys = gl ? gl->n : 0;
    g->gk = arena_calloc(cx->a, g->nkeys + 1, sizeof *g->gk);
    g->knode = arena_calloc(cx->a, g->nkeys + 1, sizeof *g->knode);
    for (uint32_t k = 0; k < g->nkeys; k++) {
        const plan_ast *x = gl->items[k];
        const plan_ast *key = NULL;
        if (x->kind == PA_INT && !x->has_parens) {
            uint64_t pos = strtoull(x->name, NULL, 10);
            if (pos < 1 || pos > g->nitems) {
                return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, "group statement");
            }
            key = g->items[pos - 1].expr;
            if (has_agg(key)) {
                return db_error_set(err, ER_WRONG_GROUP_FIELD, g->items[pos - 1].label);
            }
        } else if (x->kind == PA_COLUMN && !x->qual && input_col(g->ft, x) < 0) {
            for (uint32_t i = 0; i < g->nitems && !key; i++) {
                if (g->items[i].alias && strcasecmp(g->items[i].alias, x->name) == 0) {
                    key = g->items[i].expr;
                    if (has_agg(key)) {
                        return db_error_set(err, ER_WRONG_GROUP_FIELD, g->items[i].label);
                    }
                }
            }
        }
        if (!key) {
            if (has_agg(x)) {
                return db_error_set(err, ER_INVALID_GROUP_FUNC_USE);
            }
            key = x;
        }
        g->gk[k] = key;
        plan_ast *n = arena_calloc(cx->a, 1, sizeof *n);
        n->kind = PA_COLUMN;
        n->name = "";
        n->off = key->off;
        n->end = key->end;
        g->knode[k] = n;
    }
    return DB_OK;
}

/* The aggregate computed for call x, its arguments analysed over the table's columns. */
static int
agg_of(plan_ectx *cx, const from_table *ft, const plan_ast *x, plan_agg *ag, db_error *err)
{
    char *lname = arena_strdup(cx->a, x->name);
    str_lower(lname, strlen(lname));
    if (plan__agg_doris_named(lname)) { /* NDV, PERCENTILE, MAX_BY, ... */
        return plan__agg_doris_plan(cx, x, lname, ft->binds, ft->ncols, ag, err);
    }
    bool star = x->nargs == 1 && x->args[0]->kind == PA_STAR;
    bool is_count = strcmp(lname, "count") == 0, is_gc = strcmp(lname, "group_concat") == 0;
    if (x->nargs == 0 || (star && !is_count) || (star && x->agg_distinct) ||
        (x->nargs > 1 && !(is_gc || (is_count && x->agg_distinct)))) {
        return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
    }
    memset(ag, 0, sizeof *ag);
    ag->distinct = x->agg_distinct;
    if (!star) {
        plan_expr **args = arena_calloc(cx->a, x->nargs, sizeof *args);
        for (uint32_t i = 0; i < x->nargs; i++) {
            if (plan__analyze(cx, x->args[i], ft->binds, ft->ncols, "field list", &args[i], err) !=
                DB_OK) {
                return DB_ERR;
            }
        }
        ag->args = args;
        ag->nargs = x->nargs;
        ag->arg = args[0];
    }
    const plan_expr *arg = ag->arg;
    if (is_count) {
        ag->kind = star ? PLAN_AGG_COUNT_STAR : PLAN_AGG_COUNT;
        plan__type_bigint(&ag->t, 21, false);
        ag->vk = PV_INT;
    } else if (!strcmp(lname, "min") || !strcmp(lname, "max") || !strcmp(lname, "any_value")) {
        ag->kind = lname[0] == 'a' ? PLAN_AGG_ANY_VALUE
                                   : (lname[1] == 'i' ? PLAN_AGG_MIN : PLAN_AGG_MAX);
        ag->t = arg->t;
        ag->t.nullable = true;
        ag->vk = arg->vk;
    } else if (!strcmp(lname, "sum") || !strcmp(lname, "avg")) {
        bool avg = lname[0] == 'a';
        ag->kind = avg ? PLAN_AGG_AVG : PLAN_AGG_SUM;
        if (arg->vk == PV_INT || arg->vk == PV_DECIMAL) {
            int scale = arg->vk == PV_DECIMAL ? arg->t.scale : 0;
            int prec = plan__num_prec(&arg->t) + (avg ? cx->div_incr : 22);
            if (avg) {
                scale += cx->div_incr;
                scale = scale > PLAN_DEC_MAX_SCALE ? PLAN_DEC_MAX_SCALE : scale;
            }
            plan__type_decimal(&ag->t, prec > PLAN_DEC_MAX_PREC ? PLAN_DEC_MAX_PREC : prec, scale,
                               true);
            ag->vk = PV_DECIMAL;
        } else {
            plan__type_double(&ag->t, true);
            ag->vk = PV_DOUBLE;
        }
    } else if (plan__agg_doris_kind(lname, ag)) {
        /* Doris's bitmap and collection aggregates: kind and result type set there */
    } else if (!strcmp(lname, "group_concat")) {
        ag->kind = PLAN_AGG_GROUP_CONCAT;
        int idx = plan__sysvar_find("group_concat_max_len");
        int64_t max = idx >= 0 ? cx->s->vars[idx].i : 1024;
        plan__type_string(&ag->t, max > 65535 ? 65535 : (uint32_t)max, true);
        for (uint32_t i = 0; i < ag->nargs; i++) {
            ag->t.is_binary |= ag->args[i]->vk == PV_STRING && ag->args[i]->t.is_binary;
        }
        ag->vk = PV_STRING;
        if (x->has_sep) {
            ag->sep = x->sep;
            ag->sep_len = x->sep_len;
        }
        const plan_ast_list *ol = x->agg_order;
        if (ol) {
            plan_expr **ord = arena_calloc(cx->a, ol->n, sizeof *ord);
            bool *desc = arena_calloc(cx->a, ol->n, sizeof *desc);
            for (uint32_t i = 0; i < ol->n; i++) {
                const plan_ast *o = ol->items[i];
                if (o->kind == PA_INT && !o->has_parens) { /* a position among the arguments */
                    uint64_t pos = strtoull(o->name, NULL, 10);
                    if (pos < 1 || pos > ag->nargs) {
                        return db_error_set(err, ER_BAD_FIELD_ERROR, o->name, "order clause");
                    }
                    ord[i] = ag->args[pos - 1];
                } else if (plan__analyze(cx, o, ft->binds, ft->ncols, "order clause", &ord[i],
                                         err) != DB_OK) {
                    return DB_ERR;
                }
                desc[i] = i < 64 && (ol->desc_mask >> i) & 1;
            }
            ag->order = ord;
            ag->order_desc = desc;
            ag->norder = ol->n;
        }
    } else if (!strncmp(lname, "bit_", 4)) {
        ag->kind = lname[4] == 'a' ? PLAN_AGG_BIT_AND
                                   : (lname[4] == 'o' ? PLAN_AGG_BIT_OR : PLAN_AGG_BIT_XOR);
        plan__type_bigint(&ag->t, 21, false);
        ag->t.is_unsigned = true;
        ag->vk = PV_INT;
    } else {
        /* std, stddev, stddev_pop, stddev_samp, variance, var_pop, var_samp */
        bool samp = strstr(lname, "samp") != NULL;
        bool var = lname[0] == 'v';
        ag->kind = var ? (samp ? PLAN_AGG_VAR_SAMP : PLAN_AGG_VAR_POP)
                       : (samp ? PLAN_AGG_STDDEV_SAMP : PLAN_AGG_STDDEV_POP);
        plan__type_double(&ag->t, true);
        ag->vk = PV_DOUBLE;
    }
    return DB_OK;
}

/* ---- Window functions (plan_window.c) ---- */

/* Append the PA_WINDOW nodes of x (not those nested in a subquery) to *ws. */
static void
collect_windows(plan_ectx *cx, const plan_ast *x, const plan_ast ***ws, uint32_t *n, uint32_t *cap)
{
    if (!x) {
        return;
    }
    if (x->kind == PA_WINDOW) {
        for (uint32_t i = 0; i < *n; i++) {
            if ((*ws)[i] == x) {
                return;
            }
        }
        if (*n == *cap) {
            uint32_t nc = *cap ? *cap * 2 : 8;
            const plan_ast **nw = arena_calloc(cx->a, nc, sizeof *nw);
            if (*n) {
                memcpy(nw, *ws, *n * sizeof *nw);
            }
            *ws = nw;
            *cap = nc;
        }
        (*ws)[(*n)++] = x;
        return; /* a window inside a window's arguments is 3593 at analysis */
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        collect_windows(cx, x->args[i], ws, n, cap);
    }
}

/* The aggregates MySQL 8 computes over a window (GROUP_CONCAT and DISTINCT are refused by the
 * parser, plan_ast_over). */
static bool
is_window_agg(const char *lname)
{
    static const char *const names[] = {"count",       "sum",      "avg",     "min",
                                        "max",         "std",      "stddev",  "stddev_pop",
                                        "stddev_samp", "variance", "var_pop", "var_samp",
                                        "bit_and",     "bit_or",   "bit_xor", NULL};
    for (int i = 0; names[i]; i++) {
        if (!strcmp(lname, names[i])) {
            return true;
        }
    }
    return false;
}

/* Plan the window functions found in xs[0..nx) over the row described by binds[0..nb): *fns
 * (*nfns of them, 0 when there are none) and the binds extended by one column per function,
 * bound by AST identity (*xb, *nxb). */
static int
window_prepare(plan_ectx *cx, const plan_ast *const *xs, uint32_t nx, const plan_bind_col *binds,
               uint32_t nb, plan_window_fn **fns, uint32_t *nfns, plan_bind_col **xb, uint32_t *nxb,
               db_error *err)
{
    const plan_ast **ws = NULL;
    uint32_t n = 0, cap = 0;
    for (uint32_t i = 0; i < nx; i++) {
        collect_windows(cx, xs[i], &ws, &n, &cap);
    }
    *fns = NULL;
    *nfns = 0;
    *xb = (plan_bind_col *)binds;
    *nxb = nb;
    if (n == 0) {
        return DB_OK;
    }
    from_table ft; /* agg_of reads only the binds */
    memset(&ft, 0, sizeof ft);
    ft.binds = (plan_bind_col *)binds;
    ft.ncols = nb;
    plan_window_fn *f = arena_calloc(cx->a, n, sizeof *f);
    plan_bind_col *b = arena_calloc(cx->a, nb + n, sizeof *b);
    memcpy(b, binds, nb * sizeof *b);
    for (uint32_t i = 0; i < n; i++) {
        const plan_ast *x = ws[i];
        const plan_window_spec *w = x->win;
        char *lname = arena_strdup(cx->a, x->name);
        str_lower(lname, strlen(lname));
        uint32_t na = w->nfargs;
        f[i].frame = w->frame;
        if (!strcmp(lname, "row_number") || !strcmp(lname, "rank") ||
            !strcmp(lname, "dense_rank")) {
            if (na != 0) {
                return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
            }
            f[i].kind = lname[0] == 'r' ? (lname[1] == 'o' ? PLAN_WIN_ROW_NUMBER : PLAN_WIN_RANK)
                                        : PLAN_WIN_DENSE_RANK;
            plan__type_bigint(&f[i].t, 21, false);
            f[i].vk = PV_INT;
        } else if (!strcmp(lname, "lag") || !strcmp(lname, "lead")) {
            if (na < 1 || na > 3) {
                return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
            }
            f[i].kind = lname[1] == 'a' ? PLAN_WIN_LAG : PLAN_WIN_LEAD;
            plan_expr *v, *d = NULL;
            if (plan__analyze(cx, x->args[0], binds, nb, "field list", &v, err) != DB_OK) {
                return DB_ERR;
            }
            f[i].offset = 1;
            if (na >= 2) {
                plan_value ov;
                if (!plan__literal_value(x->args[1], &ov) || ov.kind != PV_INT ||
                    (!ov.is_unsigned && ov.i < 0)) {
                    return db_error_set(err, ER_WRONG_ARGUMENTS, lname);
                }
                f[i].offset = ov.u;
            }
            if (na == 3 &&
                plan__analyze(cx, x->args[2], binds, nb, "field list", &d, err) != DB_OK) {
                return DB_ERR;
            }
            plan_expr *both[2] = {v, d};
            plan__agg_type(both, 2, &f[i].t, &f[i].vk);
            f[i].t.nullable = true;
            f[i].arg = v;
            f[i].dflt = d;
        } else if (!strcmp(lname, "first_value") || !strcmp(lname, "last_value") ||
                   !strcmp(lname, "nth_value")) {
            bool nth = lname[0] == 'n';
            if (na != (nth ? 2u : 1u)) {
                return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
            }
            f[i].kind = nth ? PLAN_WIN_NTH_VALUE
                            : (lname[0] == 'f' ? PLAN_WIN_FIRST_VALUE : PLAN_WIN_LAST_VALUE);
            plan_expr *v;
            if (plan__analyze(cx, x->args[0], binds, nb, "field list", &v, err) != DB_OK) {
                return DB_ERR;
            }
            if (nth) {
                plan_value ov;
                if (!plan__literal_value(x->args[1], &ov) || ov.kind != PV_INT ||
                    (!ov.is_unsigned && ov.i <= 0) || ov.u == 0) {
                    return db_error_set(err, ER_WRONG_ARGUMENTS, lname);
                }
                f[i].offset = ov.u;
            }
            plan_expr *one[1] = {v};
            plan__agg_type(one, 1, &f[i].t, &f[i].vk);
            f[i].t.nullable = true;
            f[i].arg = v;
        } else if (!strcmp(lname, "ntile")) {
            plan_value ov;
            if (na != 1) {
                return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
            }
            if (!plan__literal_value(x->args[0], &ov) || ov.kind != PV_INT ||
                (!ov.is_unsigned && ov.i <= 0) || ov.u == 0) {
                return db_error_set(err, ER_WRONG_ARGUMENTS, lname);
            }
            f[i].kind = PLAN_WIN_NTILE;
            f[i].offset = ov.u;
            plan__type_bigint(&f[i].t, 21, false);
            f[i].vk = PV_INT;
        } else if (!strcmp(lname, "percent_rank") || !strcmp(lname, "cume_dist")) {
            if (na != 0) {
                return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
            }
            f[i].kind = lname[0] == 'p' ? PLAN_WIN_PERCENT_RANK : PLAN_WIN_CUME_DIST;
            plan__type_double(&f[i].t, false);
            f[i].vk = PV_DOUBLE;
        } else if (is_window_agg(lname)) {
            plan_ast call = *x;
            call.kind = PA_FUNC;
            call.nargs = na;
            plan_agg ag;
            if (agg_of(cx, &ft, &call, &ag, err) != DB_OK) {
                return DB_ERR;
            }
            f[i].kind = PLAN_WIN_AGG;
            f[i].agg = ag.kind;
            f[i].arg = ag.arg;
            f[i].t = ag.t;
            f[i].vk = ag.vk;
        } else {
            return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                arena_sprintf(cx->a, "window function '%s'", lname));
        }
        plan_expr **pk = arena_calloc(cx->a, w->npart + w->norder + 1, sizeof *pk);
        bool *desc = arena_calloc(cx->a, w->norder + 1, sizeof *desc);
        for (uint32_t k = 0; k < w->npart + w->norder; k++) {
            const plan_ast *kx = x->args[na + k];
            if (plan__analyze(cx, kx, binds, nb,
                              k < w->npart ? "window partition by" : "window order by", &pk[k],
                              err) != DB_OK) {
                return DB_ERR;
            }
        }
        for (uint32_t k = 0; k < w->norder; k++) {
            desc[k] = k < 64 && (w->desc_mask >> k) & 1;
        }
        f[i].part = pk;
        f[i].npart = w->npart;
        f[i].order = pk + w->npart;
        f[i].norder = w->norder;
        f[i].desc = desc;
        if (plan__window_frame(cx, x, &f[i], binds, nb, err) != DB_OK) {
            return DB_ERR;
        }
        b[nb + i].name = "";
        b[nb + i].ast = x;
        b[nb + i].t = f[i].t;
        b[nb + i].vk = f[i].vk;
    }
    *fns = f;
    *nfns = n;
    *xb = b;
    *nxb = nb + n;
    return DB_OK;
}

/* An aggregated query (GROUP BY, aggregates anywhere, or HAVING with them):
 *   *root -> aggregate(keys, aggs) -> [filter HAVING]
 * with the select list and ORDER BY analysed over the aggregate's output (sl, *keys). */
static int
plan_grouped(plan_ectx *cx, const plan_stmt *st, const from_table *ft, plan_op **root, sel_list *sl,
             plan_sort_key **keys, db_error *err)
{
    grp g;
    memset(&g, 0, sizeof g);
    g.cx = cx;
    g.st = st;
    g.ft = ft;
    int mi = plan__sysvar_find("sql_mode");
    const char *mode = mi >= 0 ? cx->s->vars[mi].s : NULL;
    g.full_group_by = mode && strcasestr(mode, "ONLY_FULL_GROUP_BY") != NULL;
    /* The select list, stars expanded. */
    uint32_t cap = st->nitems + ft->ncols * 2 + 1;
    g.items = arena_calloc(cx->a, cap, sizeof *g.items);
    for (uint32_t i = 0; i < st->nitems; i++) {
        const plan_select_item *it = &st->items[i];
        if (!it->is_star) {
            xitem *x = &g.items[g.nitems++];
            x->expr = it->expr;
            x->alias = it->alias;
            x->label = plan__item_label(cx, it);
            x->col = -1;
            continue;
        }
        uint32_t *scols, ns;
        if (star_cols(cx, ft, it, &scols, &ns, err) != DB_OK) {
            return DB_ERR;
        }
        for (uint32_t k = 0; k < ns; k++) {
            uint32_t c = scols[k];
            if (g.nitems == cap) {
                break;
            }
            plan_ast *n = arena_calloc(cx->a, 1, sizeof *n);
            n->kind = PA_COLUMN;
            n->name = ft->colnames[c];
            n->qual = ft->binds[c].table;
            n->db_qual = ft->binds[c].db;
            xitem *x = &g.items[g.nitems++];
            x->expr = n;
            x->label = ft->colnames[c];
            x->col = (int)c;
        }
    }
    if (group_keys(&g, err) != DB_OK) {
        return DB_ERR;
    }
    g.key_grouped = arena_calloc(cx->a, ft->ntabs + 1, sizeof *g.key_grouped);
    for (uint32_t t = 0; t < ft->ntabs; t++) {
        const plan_tbl *tb = ft->tabs[t].tbl;
        bool kg = tb && tb->sc.nkeys > 0 &&
                  (tb->sc.keys == CAT_KEYS_UNIQUE || tb->sc.keys == CAT_KEYS_AGG);
        for (uint32_t tc = 0; kg && tc < tb->ncols; tc++) {
            if (!tb->cols[tc].is_key) {
                continue;
            }
            bool found = false;
            for (uint32_t k = 0; k < g.nkeys && !found; k++) {
                int c = g.gk[k]->kind == PA_COLUMN ? input_col(ft, g.gk[k]) : -1;
                found = c >= 0 && ft->tab[c] == (int)t && ft->tcol[c] == tc;
            }
            kg = found;
        }
        g.key_grouped[t] = kg;
    }
    plan_expr **kx = arena_calloc(cx->a, g.nkeys + 1, sizeof *kx);
    for (uint32_t k = 0; k < g.nkeys; k++) { /* keys over the table's columns */
        if (plan__analyze(cx, g.gk[k], ft->binds, ft->ncols, "group statement", &kx[k], err) !=
                    DB_OK ||
            plan__json_check_key(kx[k], err) != DB_OK) {
            return DB_ERR;
        }
    }
    /* Rewrite the select list, HAVING and the ORDER BY expressions. */
    const plan_ast **sel = arena_calloc(cx->a, g.nitems + 1, sizeof *sel);
    g.clause = "SELECT list";
    for (uint32_t i = 0; i < g.nitems; i++) {
        g.item_no = i + 1;
        if (rewrite(&g, g.items[i].expr, false, &sel[i], err) != DB_OK) {
            if (err->code == db_error_code_of(ER_BAD_FIELD_ERROR)) {
                db_error_clear(err);
                plan_expr *e; /* the analyser's own message for an unknown column */
                if (plan__analyze(cx, g.items[i].expr, ft->binds, ft->ncols, "field list", &e,
                                  err) == DB_OK) {
                    db_error_set(err, ER_BAD_FIELD_ERROR, "?", "field list");
                }
            }
            return DB_ERR;
        }
    }
    const plan_ast *having = NULL;
    if (st->having) {
        g.clause = "HAVING clause";
        g.item_no = 1;
        if (rewrite(&g, st->having, true, &having, err) != DB_OK) {
            return DB_ERR;
        }
    }
    uint32_t nord = st->order ? st->order->n : 0;
    int *ocol = arena_calloc(cx->a, nord + 1, sizeof *ocol);
    const plan_ast **oast = arena_calloc(cx->a, nord + 1, sizeof *oast);
    g.clause = "ORDER BY clause";
    for (uint32_t i = 0; i < nord; i++) {
        const plan_ast *x = st->order->items[i];
        ocol[i] = -1;
        if (x->kind == PA_INT && !x->has_parens) {
            uint64_t pos = strtoull(x->name, NULL, 10);
            if (pos < 1 || pos > g.nitems) {
                return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, "order clause");
            }
            ocol[i] = (int)(pos - 1);
            continue;
        }
        if (x->kind == PA_COLUMN && !x->qual) {
            for (uint32_t j = 0; j < g.nitems && ocol[i] < 0; j++) {
                if (g.items[j].alias && strcasecmp(g.items[j].alias, x->name) == 0) {
                    ocol[i] = (int)j;
                }
            }
            for (uint32_t j = 0; j < g.nitems && ocol[i] < 0; j++) {
                const plan_ast *e = g.items[j].expr;
                if (!g.items[j].alias && e->kind == PA_COLUMN &&
                    strcasecmp(e->name, x->name) == 0) {
                    ocol[i] = (int)j;
                }
            }
            if (ocol[i] >= 0) {
                continue;
            }
        }
        g.item_no = i + 1;
        if (rewrite(&g, order_aliases(cx, st, ft, x), false, &oast[i], err) != DB_OK) {
            if (err->code == db_error_code_of(ER_BAD_FIELD_ERROR)) {
                db_error_clear(err);
                db_error_set(err, ER_BAD_FIELD_ERROR,
                             x->kind == PA_COLUMN ? x->name : plan__ast_print(cx->a, cx->sql, x),
                             "order clause");
            }
            return DB_ERR;
        }
    }
    /* The aggregate's output: the keys, then the aggregates. */
    plan_bind_col *binds = arena_calloc(cx->a, g.nkeys + g.naggs + 1, sizeof *binds);
    for (uint32_t k = 0; k < g.nkeys; k++) {
        binds[k].name = "";
        int kc = g.gk[k]->kind == PA_COLUMN ? input_col(ft, g.gk[k]) : -1;
        if (kc >= 0) { /* a grouped column: correlated subqueries may name it (plan_subquery.c) */
            binds[k].name = ft->binds[kc].name;
            binds[k].table = ft->binds[kc].table;
            binds[k].db = ft->binds[kc].db;
            binds[k].table_ci = ft->binds[kc].table_ci;
        }
        binds[k].ast = g.knode[k];
        binds[k].t = kx[k]->t;
        binds[k].vk = kx[k]->vk;
    }
    plan_agg *aggs = arena_calloc(cx->a, g.naggs + 1, sizeof *aggs);
    for (uint32_t i = 0; i < g.naggs; i++) {
        if (agg_of(cx, ft, g.aggs[i], &aggs[i], err) != DB_OK) {
            return DB_ERR;
        }
        plan_bind_col *b = &binds[g.nkeys + i];
        b->name = "";
        b->ast = g.aggs[i];
        b->t = aggs[i].t;
        b->vk = aggs[i].vk;
    }
    uint32_t nb = g.nkeys + g.naggs;
    plan_expr *hv = NULL;
    if (having && plan__analyze(cx, having, binds, nb, "having clause", &hv, err) != DB_OK) {
        return DB_ERR;
    }
    if (!cx->describe) {
        *root = plan__op_hashagg(cx, *root, kx, g.nkeys, aggs, g.naggs);
        if (hv) {
            *root = plan__op_filter(cx, *root, hv);
        }
    }
    /* Window functions over the grouped rows: the select list and ORDER BY bind their
     * results (xb). */
    const plan_ast **wx = arena_calloc(cx->a, g.nitems + nord + 1, sizeof *wx);
    uint32_t nwx = 0;
    for (uint32_t i = 0; i < g.nitems; i++) {
        wx[nwx++] = sel[i];
    }
    for (uint32_t i = 0; i < nord; i++) {
        if (ocol[i] < 0) {
            wx[nwx++] = oast[i];
        }
    }
    plan_window_fn *wf;
    plan_bind_col *xb;
    uint32_t nwf, nxb;
    if (window_prepare(cx, wx, nwx, binds, nb, &wf, &nwf, &xb, &nxb, err) != DB_OK) {
        return DB_ERR;
    }
    if (nwf && *root) {
        *root = plan__op_window(cx, *root, wf, nwf);
    }
    for (uint32_t i = 0; i < g.nitems; i++) {
        plan_expr *e;
        if (plan__analyze(cx, sel[i], xb, nxb, "field list", &e, err) != DB_OK) {
            return DB_ERR;
        }
        plan_column c;
        plan__col_init(&c, g.items[i].label, &e->t);
        const plan_ast *src = g.items[i].expr;
        int col = g.items[i].col >= 0 ? g.items[i].col
                                      : (src->kind == PA_COLUMN ? input_col(ft, src) : -1);
        if (col >= 0) {
            column_meta(ft, (uint32_t)col, &c);
        }
        sel_add(cx, sl, e, &c);
    }
    sl->nvis = sl->n;
    if (nord) {
        plan_sort_key *k = arena_calloc(cx->a, nord, sizeof *k);
        for (uint32_t i = 0; i < nord; i++) {
            if (ocol[i] < 0) {
                plan_expr *e;
                if (plan__analyze(cx, oast[i], xb, nxb, "order clause", &e, err) != DB_OK) {
                    return DB_ERR;
                }
                plan_column c;
                plan__col_init(&c, "", &e->t);
                ocol[i] = (int)sl->n;
                sel_add(cx, sl, e, &c);
            }
            k[i].col = (uint32_t)ocol[i];
            k[i].desc = st->order_desc[i];
            k[i].nulls = st->order_nulls ? st->order_nulls[i] : 0;
            k[i].mode = plan__cmp_mode(sl->exprs[ocol[i]], sl->exprs[ocol[i]]);
            if (plan__json_check_key(sl->exprs[ocol[i]], err) != DB_OK) {
                return DB_ERR;
            }
        }
        *keys = k;
    }
    return DB_OK;
}

/* ---- ORDER BY ---- */

/* x (an ORDER BY expression) with each bare name that is no column of FROM but a select
 * alias replaced by that item's expression (`ORDER BY total * 2`, MySQL); x itself when none
 * is. Copies only the path to a replaced name (statement arena). */
static const plan_ast *
order_aliases(plan_ectx *cx, const plan_stmt *st, const from_table *ft, const plan_ast *x)
{
    if (x->kind == PA_COLUMN && !x->qual) {
        if (input_col(ft, x) >= 0) {
            return x;
        }
        for (uint32_t i = 0; i < st->nitems; i++) {
            const plan_select_item *it = &st->items[i];
            if (!it->is_star && it->alias && strcasecmp(it->alias, x->name) == 0) {
                return it->expr;
            }
        }
        return x;
    }
    if (x->kind == PA_SUBQUERY) {
        return x; /* names inside a subquery are its own */
    }
    plan_ast **args = NULL;
    for (uint32_t i = 0; i < x->nargs; i++) {
        const plan_ast *a = x->args[i] ? order_aliases(cx, st, ft, x->args[i]) : NULL;
        if (a != x->args[i] && !args) {
            args = arena_alloc(cx->a, x->nargs * sizeof *args);
            memcpy(args, x->args, x->nargs * sizeof *args);
        }
        if (args) {
            args[i] = (plan_ast *)a;
        }
    }
    if (!args) {
        return x;
    }
    plan_ast *c = arena_alloc(cx->a, sizeof *c);
    *c = *x;
    c->args = args;
    return c;
}

/* Sort keys over the select list: a position, a select alias (or an unaliased select item
 * naming the same column), else an expression added as a hidden column after nvis. */
static int
order_keys(plan_ectx *cx, const plan_stmt *st, const from_table *ft, const plan_bind_col *binds,
           uint32_t nb, sel_list *sl, plan_sort_key **keys, db_error *err)
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
                    pos += star_width(cx, ft, it);
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
                    pos += star_width(cx, ft, it);
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
            const plan_ast *xs = order_aliases(cx, st, ft, x);
            if (plan__analyze(cx, xs, binds, nb, "order clause", &e, err) != DB_OK) {
                return DB_ERR;
            }
            plan_column c;
            plan__col_init(&c, "", &e->t);
            col = (int)sl->n;
            sel_add(cx, sl, e, &c);
        }
        k[i].col = (uint32_t)col;
        k[i].desc = st->order_desc[i];
        k[i].nulls = st->order_nulls ? st->order_nulls[i] : 0;
        k[i].mode = plan__cmp_mode(sl->exprs[col], sl->exprs[col]);
        if (plan__json_check_key(sl->exprs[col], err) != DB_OK) {
            return DB_ERR;
        }
    }
    *keys = k;
    return DB_OK;
}

/* ---- DISTINCT ---- */

/* The first column reference outside any aggregate, or NULL. */
static const plan_ast *
nonagg_column(const plan_ast *x)
{
    if (!x || is_agg_call(x)) {
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

/* SELECT DISTINCT: an aggregate over the projected rows keyed on the visible columns; hidden
 * ORDER BY columns ride along as ANY_VALUE (their columns must be selected: 3065). */
static int
plan_distinct(plan_ectx *cx, const plan_stmt *st, const from_table *ft, const sel_list *sl,
              const plan_sort_key *keys, plan_op **root, db_error *err)
{
    for (uint32_t i = 0; keys && i < st->order->n; i++) {
        if (keys[i].col < sl->nvis) {
            continue;
        }
        const plan_ast *c = nonagg_column(st->order->items[i]);
        int col = c ? input_col(ft, c) : -1;
        if (col < 0) {
            continue;
        }
        bool shown = false;
        for (uint32_t j = 0; j < st->nitems && !shown; j++) {
            const plan_select_item *it = &st->items[j];
            shown = it->is_star || (it->expr->kind == PA_COLUMN && input_col(ft, it->expr) == col);
        }
        if (!shown) {
            return db_error_set(err, ER_FIELD_IN_ORDER_NOT_SELECT, i + 1,
                                col_fullname(cx, ft, (uint32_t)col));
        }
    }
    if (cx->describe) {
        return DB_OK;
    }
    /* Column references over the projected row. */
    plan_bind_col *b = arena_calloc(cx->a, sl->n, sizeof *b);
    plan_ast **nodes = arena_calloc(cx->a, sl->n, sizeof *nodes);
    plan_expr **refs = arena_calloc(cx->a, sl->n, sizeof *refs);
    for (uint32_t i = 0; i < sl->n; i++) {
        nodes[i] = arena_calloc(cx->a, 1, sizeof(plan_ast));
        nodes[i]->kind = PA_COLUMN;
        nodes[i]->name = "";
        b[i].name = "";
        b[i].ast = nodes[i];
        b[i].t = sl->exprs[i]->t;
        b[i].vk = sl->exprs[i]->vk;
    }
    for (uint32_t i = 0; i < sl->n; i++) {
        if (plan__analyze(cx, nodes[i], b, sl->n, "field list", &refs[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    uint32_t nh = sl->n - sl->nvis;
    plan_agg *aggs = arena_calloc(cx->a, nh + 1, sizeof *aggs);
    for (uint32_t i = 0; i < nh; i++) {
        aggs[i].kind = PLAN_AGG_ANY_VALUE;
        aggs[i].arg = refs[sl->nvis + i];
        aggs[i].t = refs[sl->nvis + i]->t;
        aggs[i].vk = refs[sl->nvis + i]->vk;
    }
    *root = plan__op_hashagg(cx, *root, refs, sl->nvis, aggs, nh);
    return DB_OK;
}

/* HAVING of a query without grouping: select aliases replaced by their expressions. */
static int
having_plain(plan_ectx *cx, const plan_stmt *st, const plan_ast *x, const plan_ast **out)
{
    *out = x;
    if (x->kind == PA_COLUMN && !x->qual) {
        for (uint32_t i = 0; i < st->nitems; i++) {
            const plan_select_item *it = &st->items[i];
            if (it->alias && strcasecmp(it->alias, x->name) == 0) {
                *out = it->expr;
                return DB_OK;
            }
        }
        return DB_OK;
    }
    plan_ast **args = NULL;
    for (uint32_t i = 0; i < x->nargs; i++) {
        const plan_ast *a;
        having_plain(cx, st, x->args[i], &a);
        if (a != x->args[i] && !args) {
            args = arena_alloc(cx->a, x->nargs * sizeof *args);
            memcpy(args, x->args, x->nargs * sizeof *args);
        }
        if (args) {
            args[i] = (plan_ast *)a;
        }
    }
    if (args) {
        plan_ast *c = arena_alloc(cx->a, sizeof *c);
        *c = *x;
        c->args = args;
        *out = c;
    }
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

/* ---- FROM: joins ---- */

/* Does column reference x name bind b (the analyser's rules)? */
static bool
bind_matches(const plan_bind_col *c, const plan_ast *x)
{
    if (c->ast || strcasecmp(c->name, x->name) != 0) {
        return false;
    }
    if (x->qual && (!c->table || (c->table_ci ? strcasecmp(c->table, x->qual)
                                              : strcmp(c->table, x->qual)) != 0)) {
        return false;
    }
    if (x->db_qual && (!c->db || (c->table_ci ? strcasecmp(c->db, x->db_qual)
                                              : strcmp(c->db, x->db_qual)) != 0)) {
        return false;
    }
    return true;
}

/* 1052 when a column reference of x matches more than one column of ft. Select aliases (when
 * skip_aliases) and positions are not column references. */
static int
check_ambig(plan_ectx *cx, const from_table *ft, const plan_stmt *st, const plan_ast *x,
            bool skip_aliases, const char *clause, db_error *err)
{
    (void)cx;
    if (!x) {
        return DB_OK;
    }
    if (x->kind == PA_COLUMN) {
        if (skip_aliases && !x->qual) {
            for (uint32_t i = 0; i < st->nitems; i++) {
                if (st->items[i].alias && strcasecmp(st->items[i].alias, x->name) == 0) {
                    return DB_OK;
                }
            }
        }
        uint32_t n = 0;
        for (uint32_t i = 0; i < ft->ncols; i++) {
            n += bind_matches(&ft->binds[i], x) && (x->qual || !ft->hidden[i]);
        }
        if (n > 1) {
            return db_error_set(err, ER_NON_UNIQ_ERROR, x->name, clause);
        }
        return DB_OK;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (check_ambig(cx, ft, st, x->args[i], skip_aliases, clause, err) != DB_OK) {
            return DB_ERR;
        }
    }
    for (uint32_t i = 0; x->agg_order && i < x->agg_order->n; i++) {
        if (check_ambig(cx, ft, st, x->agg_order->items[i], skip_aliases, clause, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

void
plan__conjuncts(plan_ectx *cx, const plan_ast *x, const plan_ast ***out, uint32_t *n, uint32_t *cap)
{
    if (x->kind == PA_BINARY && x->op == XOP_AND) {
        plan__conjuncts(cx, x->args[0], out, n, cap);
        plan__conjuncts(cx, x->args[1], out, n, cap);
        return;
    }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        const plan_ast **o = arena_alloc(cx->a, *cap * sizeof *o);
        if (*n) {
            memcpy(o, *out, *n * sizeof *o);
        }
        *out = o;
    }
    (*out)[(*n)++] = x;
}

plan_ast *
plan__and_of(plan_ectx *cx, const plan_ast *const *xs, uint32_t n)
{
    if (n == 0) {
        return NULL;
    }
    plan_ast *acc = (plan_ast *)xs[0];
    for (uint32_t i = 1; i < n; i++) {
        plan_ast *a = arena_calloc(cx->a, 1, sizeof *a);
        a->kind = PA_BINARY;
        a->op = XOP_AND;
        a->nargs = 2;
        a->args = arena_alloc(cx->a, 2 * sizeof(plan_ast *));
        a->args[0] = acc;
        a->args[1] = (plan_ast *)xs[i];
        a->off = acc->off;
        a->end = xs[i]->end;
        acc = a;
    }
    return acc;
}

enum { SIDE_L = 1, SIDE_R = 2, SIDE_OTHER = 4 };

/* Which inputs x reads: columns [0, nl) are the left's, the rest the right's. */
static int
ast_sides(const from_table *ft, uint32_t nl, const plan_ast *x)
{
    if (x->kind == PA_COLUMN) {
        int c = input_col(ft, x);
        return c < 0 ? SIDE_OTHER : ((uint32_t)c < nl ? SIDE_L : SIDE_R);
    }
    if (x->kind == PA_ASSIGN || is_agg_call(x)) {
        return SIDE_OTHER;
    }
    int m = 0;
    for (uint32_t i = 0; i < x->nargs; i++) {
        m |= ast_sides(ft, nl, x->args[i]);
    }
    return m;
}

/* The visible column of ft named name (for USING / NATURAL), or -1 (1054); two are 1052. */
static int
using_col(const from_table *ft, const char *name, db_error *err)
{
    int found = -1;
    for (uint32_t i = 0; i < ft->ncols; i++) {
        if (ft->hidden[i] || ft->binds[i].ast || strcasecmp(ft->binds[i].name, name) != 0) {
            continue;
        }
        if (found >= 0) {
            return db_error_set(err, ER_NON_UNIQ_ERROR, name, "from clause"), -2;
        }
        found = (int)i;
    }
    if (found < 0) {
        db_error_set(err, ER_BAD_FIELD_ERROR, name, "from clause");
    }
    return found;
}

/* An expression over bs[] of AST x whose PA_COLUMN nodes na / nb bind columns ca / cb. */
static int
pair_expr(plan_ectx *cx, const plan_bind_col *bs, uint32_t n, plan_ast *x, plan_ast *na,
          uint32_t ca, plan_ast *nb, uint32_t cb, plan_expr **out, db_error *err)
{
    plan_bind_col *tmp = arena_alloc(cx->a, (n ? n : 1) * sizeof *tmp);
    memcpy(tmp, bs, n * sizeof *tmp);
    tmp[ca].ast = na;
    tmp[cb].ast = nb;
    return plan__analyze(cx, x, tmp, n, "from clause", out, err);
}

static plan_ast *
new_node(plan_ectx *cx, plan_ast_kind kind, const char *name)
{
    plan_ast *x = arena_calloc(cx->a, 1, sizeof *x);
    x->kind = kind;
    x->name = name;
    return x;
}

/* *out = a AND b over analysed expressions (either may be NULL). */
static int
and_expr(plan_ectx *cx, plan_expr *a, plan_expr *b, plan_expr **out, db_error *err)
{
    if (!a || !b) {
        *out = a ? a : b;
        return DB_OK;
    }
    plan_ast *pa = new_node(cx, PA_COLUMN, ""), *pb = new_node(cx, PA_COLUMN, "");
    plan_ast *an = new_node(cx, PA_BINARY, NULL);
    an->op = XOP_AND;
    an->nargs = 2;
    an->args = arena_alloc(cx->a, 2 * sizeof(plan_ast *));
    an->args[0] = pa;
    an->args[1] = pb;
    plan_bind_col bs[2] = {{.name = "", .ast = pa, .t = a->t, .vk = a->vk},
                           {.name = "", .ast = pb, .t = b->t, .vk = b->vk}};
    plan_expr *both;
    if (plan__analyze(cx, an, bs, 2, "on clause", &both, err) != DB_OK) {
        return DB_ERR;
    }
    both->args[0] = a;
    both->args[1] = b;
    *out = both;
    return DB_OK;
}

/* *l becomes *l JOIN r as ref says (ON / USING / NATURAL; outer sides null-extended). The
 * joined row is l's columns then r's, behind the coalesced USING columns when there are. */
static int
join_one(plan_ectx *cx, const plan_stmt *st, from_table *l, plan_op **lop, const from_table *r,
         plan_op *rop, const plan_table_ref *ref, db_error *err)
{
    plan_join_type type = (plan_join_type)ref->join;
    uint32_t nl = l->ncols, nr = r->ncols, n = nl + nr;
    /* The raw joined row. */
    from_table j;
    memset(&j, 0, sizeof j);
    ft_alloc(cx, &j, n);
    for (uint32_t i = 0; i < n; i++) {
        const from_table *s = i < nl ? l : r;
        uint32_t c = i < nl ? i : i - nl;
        j.colnames[i] = s->colnames[c];
        j.binds[i] = s->binds[c];
        j.meta[i] = s->meta[c];
        j.tab[i] = s->tab[c] < 0 ? -1 : s->tab[c] + (int)(i < nl ? 0 : l->ntabs);
        j.tcol[i] = s->tcol[c];
        j.hidden[i] = s->hidden[c];
        bool extended = i < nl ? (type == PLAN_JOIN_RIGHT || type == PLAN_JOIN_FULL)
                               : (type == PLAN_JOIN_LEFT || type == PLAN_JOIN_FULL);
        if (extended) {
            j.binds[i].t.nullable = true;
            j.meta[i].nullable = true;
        }
    }
    j.ntabs = l->ntabs + r->ntabs;
    j.tabs = arena_calloc(cx->a, j.ntabs, sizeof *j.tabs);
    memcpy(j.tabs, l->tabs, l->ntabs * sizeof *j.tabs);
    memcpy(j.tabs + l->ntabs, r->tabs, r->ntabs * sizeof *j.tabs);
    /* USING / NATURAL column pairs. */
    uint32_t nu = 0;
    const char **names = NULL;
    if (ref->natural) {
        names = arena_calloc(cx->a, l->nstar + 1, sizeof *names);
        for (uint32_t k = 0; k < l->nstar; k++) {
            uint32_t c = l->star[k];
            bool dup = false;
            for (uint32_t q = 0; q < nu; q++) {
                dup |= strcasecmp(names[q], l->colnames[c]) == 0;
            }
            for (uint32_t q = 0; q < r->nstar && !dup; q++) {
                if (strcasecmp(r->colnames[r->star[q]], l->colnames[c]) == 0) {
                    names[nu++] = l->colnames[c];
                    break;
                }
            }
        }
    } else {
        names = (const char **)ref->using_cols;
        nu = ref->nusing;
    }
    int *ul = arena_calloc(cx->a, nu + 1, sizeof *ul),
        *ur = arena_calloc(cx->a, nu + 1, sizeof *ur);
    for (uint32_t u = 0; u < nu; u++) {
        if ((ul[u] = using_col(l, names[u], err)) < 0 ||
            (ur[u] = using_col(r, names[u], err)) < 0) {
            return DB_ERR;
        }
        for (uint32_t q = 0; q < u; q++) {
            if (ul[q] == ul[u]) {
                return db_error_set(err, ER_DUP_FIELDNAME, names[u]);
            }
        }
    }
    /* Keys and the residual. */
    uint32_t capk = nu + 8, nk = 0;
    plan_expr **lk = arena_calloc(cx->a, capk, sizeof *lk),
              **rk = arena_calloc(cx->a, capk, sizeof *rk);
    plan_cmp_mode *modes = arena_calloc(cx->a, capk, sizeof *modes);
    const plan_ast **rest = NULL;
    uint32_t nrest = 0, caprest = 0;
    plan_expr *residual_u = NULL; /* USING pairs that cannot hash */
    for (uint32_t u = 0; u < nu; u++) {
        plan_expr *le = column_expr(cx, l, (uint32_t)ul[u]);
        plan_expr *re = column_expr(cx, r, (uint32_t)ur[u]);
        plan_cmp_mode m = plan__cmp_mode(le, re);
        if (plan__join_key_ok(m, le, re)) {
            lk[nk] = le;
            rk[nk] = re;
            modes[nk++] = m;
            continue;
        }
        plan_ast *na = new_node(cx, PA_COLUMN, ""), *nb = new_node(cx, PA_COLUMN, "");
        plan_ast *eq = new_node(cx, PA_BINARY, NULL);
        eq->op = XOP_EQ;
        eq->nargs = 2;
        eq->args = arena_alloc(cx->a, 2 * sizeof(plan_ast *));
        eq->args[0] = na;
        eq->args[1] = nb;
        plan_expr *pe;
        if (pair_expr(cx, j.binds, n, eq, na, (uint32_t)ul[u], nb, nl + (uint32_t)ur[u], &pe,
                      err) != DB_OK ||
            and_expr(cx, residual_u, pe, &residual_u, err) != DB_OK) {
            return DB_ERR;
        }
    }
    if (ref->on) {
        if (check_ambig(cx, &j, st, ref->on, false, "on clause", err) != DB_OK) {
            return DB_ERR;
        }
        const plan_ast **cs = NULL;
        uint32_t nc = 0, capc = 0;
        plan__conjuncts(cx, ref->on, &cs, &nc, &capc);
        for (uint32_t i = 0; i < nc; i++) {
            const plan_ast *x = cs[i];
            if (x->kind == PA_BINARY && x->op == XOP_EQ) {
                int a = ast_sides(&j, nl, x->args[0]), b = ast_sides(&j, nl, x->args[1]);
                if ((a == SIDE_L && b == SIDE_R) || (a == SIDE_R && b == SIDE_L)) {
                    const plan_ast *lx = a == SIDE_L ? x->args[0] : x->args[1];
                    const plan_ast *rx = a == SIDE_L ? x->args[1] : x->args[0];
                    plan_expr *le, *re;
                    if (plan__analyze(cx, lx, l->binds, nl, "on clause", &le, err) != DB_OK ||
                        plan__analyze(cx, rx, r->binds, nr, "on clause", &re, err) != DB_OK) {
                        return DB_ERR;
                    }
                    plan_cmp_mode m = plan__cmp_mode(le, re);
                    if (plan__join_key_ok(m, le, re)) {
                        if (nk == capk) {
                            capk *= 2;
                            plan_expr **a2 = arena_calloc(cx->a, capk, sizeof *a2);
                            plan_expr **b2 = arena_calloc(cx->a, capk, sizeof *b2);
                            plan_cmp_mode *m2 = arena_calloc(cx->a, capk, sizeof *m2);
                            memcpy(a2, lk, nk * sizeof *a2);
                            memcpy(b2, rk, nk * sizeof *b2);
                            memcpy(m2, modes, nk * sizeof *m2);
                            lk = a2;
                            rk = b2;
                            modes = m2;
                        }
                        lk[nk] = le;
                        rk[nk] = re;
                        modes[nk++] = m;
                        continue;
                    }
                }
            }
            plan__conjuncts(cx, x, &rest, &nrest, &caprest);
        }
    }
    plan_expr *residual = NULL;
    plan_ast *rast = plan__and_of(cx, rest, nrest);
    if (rast && plan__analyze(cx, rast, j.binds, n, "on clause", &residual, err) != DB_OK) {
        return DB_ERR;
    }
    if (and_expr(cx, residual_u, residual, &residual, err) != DB_OK) {
        return DB_ERR;
    }
    /* The operator: build the smaller input. */
    if (!cx->describe) {
        plan_join_spec js = {.type = type == PLAN_JOIN_CROSS ? PLAN_JOIN_INNER : type,
                             .lkeys = lk,
                             .rkeys = rk,
                             .modes = modes,
                             .nkeys = nk,
                             .residual = residual,
                             .build_left = l->est < r->est};
        *lop = plan__op_join(cx, *lop, rop, &js);
    }
    double est = nk ? (l->est > r->est ? l->est : r->est) : l->est * r->est;
    if (*lop) {
        plan__op_set_est(*lop, est);
    }
    if (nu == 0) {
        j.nstar = l->nstar + r->nstar;
        j.star = arena_calloc(cx->a, j.nstar + 1, sizeof *j.star);
        memcpy(j.star, l->star, l->nstar * sizeof *j.star);
        for (uint32_t k = 0; k < r->nstar; k++) {
            j.star[l->nstar + k] = r->star[k] + nl;
        }
        j.est = est;
        *l = j;
        return DB_OK;
    }
    /* USING / NATURAL: the coalesced columns first, then the joined row. */
    from_table o;
    memset(&o, 0, sizeof o);
    ft_alloc(cx, &o, nu + n);
    plan_expr **ex = arena_calloc(cx->a, nu + n, sizeof *ex);
    for (uint32_t u = 0; u < nu; u++) {
        uint32_t a = (uint32_t)ul[u], b = nl + (uint32_t)ur[u];
        if (type == PLAN_JOIN_RIGHT) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        plan_ast *na = new_node(cx, PA_COLUMN, ""), *nb = new_node(cx, PA_COLUMN, "");
        plan_ast *co = new_node(cx, PA_FUNC, "coalesce");
        co->has_parens = true;
        co->nargs = 2;
        co->args = arena_alloc(cx->a, 2 * sizeof(plan_ast *));
        co->args[0] = na;
        co->args[1] = nb;
        if (pair_expr(cx, j.binds, n, co, na, a, nb, b, &ex[u], err) != DB_OK) {
            return DB_ERR;
        }
        o.colnames[u] = j.colnames[a];
        o.binds[u].name = j.colnames[a];
        o.binds[u].t = ex[u]->t;
        o.binds[u].vk = ex[u]->vk;
        o.meta[u] = j.meta[a];
        o.tab[u] = -1;
        j.hidden[ul[u]] = true;
        j.hidden[nl + (uint32_t)ur[u]] = true;
    }
    for (uint32_t i = 0; i < n; i++) {
        ex[nu + i] = slot_expr(cx, j.binds, i);
        o.colnames[nu + i] = j.colnames[i];
        o.binds[nu + i] = j.binds[i];
        o.meta[nu + i] = j.meta[i];
        o.tab[nu + i] = j.tab[i];
        o.tcol[nu + i] = j.tcol[i];
        o.hidden[nu + i] = j.hidden[i];
    }
    /* *: the USING columns, then the others of the left and the right (RIGHT JOIN: right
     * first, as MySQL turns it into a LEFT JOIN). */
    o.nstar = 0;
    for (uint32_t u = 0; u < nu; u++) {
        o.star[o.nstar++] = u;
    }
    for (int pass = 0; pass < 2; pass++) {
        bool left = (pass == 0) != (type == PLAN_JOIN_RIGHT);
        const from_table *s = left ? l : r;
        const int *us = left ? ul : ur;
        for (uint32_t k = 0; k < s->nstar; k++) {
            bool used = false;
            for (uint32_t u = 0; u < nu; u++) {
                used |= (uint32_t)us[u] == s->star[k];
            }
            if (!used) {
                o.star[o.nstar++] = nu + s->star[k] + (left ? 0 : nl);
            }
        }
    }
    o.tabs = j.tabs;
    o.ntabs = j.ntabs;
    o.est = est;
    if (!cx->describe) {
        *lop = plan__op_project(cx, *lop, ex, nu + n);
    }
    *l = o;
    return DB_OK;
}

/* Is table i of FROM on a null-extended side of some outer join? */
static bool
null_extended(const plan_stmt *st, uint32_t i)
{
    for (uint32_t k = 1; k < st->ntables; k++) {
        uint8_t t = st->tables[k].join;
        if ((t == PLAN_JOIN_LEFT && i == k) || (t == PLAN_JOIN_RIGHT && i < k) ||
            (t == PLAN_JOIN_FULL && i <= k)) {
            return true;
        }
    }
    return false;
}

/* The FROM tables conjunct x reads: *which = -1 none, a table, or -2 several. False when it
 * cannot move (a column not found or ambiguous, an assignment, an aggregate). */
static bool
conj_tables(const from_table *fts, uint32_t n, const plan_ast *x, int *which, int *maxt)
{
    if (x->kind == PA_COLUMN) {
        int hit = -1;
        for (uint32_t t = 0; t < n; t++) {
            for (uint32_t c = 0; c < fts[t].ncols; c++) {
                if (bind_matches(&fts[t].binds[c], x)) {
                    if (hit >= 0 && hit != (int)t) {
                        return false;
                    }
                    hit = (int)t;
                }
            }
        }
        if (hit < 0) {
            return false;
        }
        *which = *which == -1 || *which == hit ? hit : -2;
        *maxt = hit > *maxt ? hit : *maxt;
        return true;
    }
    if (x->kind == PA_ASSIGN || x->kind == PA_SUBQUERY || is_agg_call(x)) {
        return false; /* a subquery may read any table (correlated): stays above the join */
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (!conj_tables(fts, n, x->args[i], which, maxt)) {
            return false;
        }
    }
    return true;
}

/* Append xs[0..nx) to the growing conjunct list *out. */
static void
conjuncts_cat(plan_ectx *cx, const plan_ast ***out, uint32_t *n, uint32_t *cap,
              const plan_ast *const *xs, uint32_t nx)
{
    for (uint32_t i = 0; i < nx; i++) {
        plan__conjuncts(cx, xs[i], out, n, cap);
    }
}

/* The set of FROM tables x reads (bit t = table t); false when a column is not found in
 * exactly one table or x cannot move (see conj_tables). */
static bool
conj_mask(const from_table *fts, uint32_t n, const plan_ast *x, uint64_t *mask)
{
    if (x->kind == PA_COLUMN) {
        int which = -1, maxt = -1;
        if (!conj_tables(fts, n, x, &which, &maxt) || which < 0) {
            return false;
        }
        *mask |= UINT64_C(1) << which;
        return true;
    }
    if (x->kind == PA_ASSIGN || x->kind == PA_SUBQUERY || is_agg_call(x)) {
        return false;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (!conj_mask(fts, n, x->args[i], mask)) {
            return false;
        }
    }
    return true;
}

enum { JR_KEPT, JR_DONE, JR_ERROR };

/* Join reordering of a chain of INNER / comma joins (no USING / NATURAL; refs[i].on holds join
 * i's whole condition, single-table conjuncts already pushed into the inputs). Greedy: start
 * with the input of fewest estimated rows, then repeatedly join the smallest remaining input
 * that an equality connects to what is joined (else the smallest: a cross product). Each
 * conjunct joins where the last of its tables comes in. SELECT * keeps the FROM order (ft->star
 * lists the columns in it); the joined row's own layout follows the join order. JR_KEPT when
 * the order does not change or a conjunct cannot move (then nothing was built). */
static int
join_reorder(plan_ectx *cx, const plan_stmt *st, from_table *fts, plan_op **ops,
             const plan_table_ref *refs, uint32_t n, from_table *ft, plan_op **root, db_error *err)
{
    const plan_ast **cs = NULL;
    uint32_t nc = 0, capc = 0;
    uint32_t *scope = arena_calloc(cx->a, n, sizeof *scope); /* join i's conjuncts end here */
    for (uint32_t i = 1; i < n; i++) {
        if (refs[i].on) {
            plan__conjuncts(cx, refs[i].on, &cs, &nc, &capc);
        }
        scope[i] = nc;
    }
    uint64_t *mask = arena_calloc(cx->a, nc + 1, sizeof *mask);
    for (uint32_t i = 1, k = 0; i < n; i++) {
        for (; k < scope[i]; k++) {
            /* Resolved in one table of all, and in the ON clause's scope (tables 0..i): else
             * the FROM order reports it as before. */
            if (has_agg(cs[k]) || !conj_mask(fts, n, cs[k], &mask[k]) ||
                (i + 1 < 64 && (mask[k] >> (i + 1)) != 0)) {
                return JR_KEPT;
            }
        }
    }
    uint32_t *order = arena_calloc(cx->a, n, sizeof *order);
    uint64_t joined = 0;
    for (uint32_t k = 0; k < n; k++) {
        int best = -1;
        bool best_conn = false;
        for (uint32_t t = 0; t < n; t++) {
            uint64_t bit = UINT64_C(1) << t;
            if (joined & bit) {
                continue;
            }
            bool conn = false;
            for (uint32_t c = 0; c < nc && k > 0 && !conn; c++) {
                conn = (mask[c] & bit) && (mask[c] & joined) && !(mask[c] & ~(joined | bit)) &&
                       cs[c]->kind == PA_BINARY && cs[c]->op == XOP_EQ;
            }
            if (best < 0 || (conn && !best_conn) ||
                (conn == best_conn && fts[t].est < fts[best].est)) {
                best = (int)t;
                best_conn = conn;
            }
        }
        order[k] = (uint32_t)best;
        joined |= UINT64_C(1) << best;
    }
    bool same = true;
    for (uint32_t k = 0; k < n; k++) {
        same &= order[k] == k;
    }
    if (same) {
        return JR_KEPT;
    }
    uint32_t *off = arena_calloc(cx->a, n, sizeof *off);
    uint32_t width = 0;
    *ft = fts[order[0]];
    *root = ops[order[0]];
    off[order[0]] = 0;
    width = fts[order[0]].ncols;
    joined = UINT64_C(1) << order[0];
    bool *used = arena_calloc(cx->a, nc + 1, sizeof *used);
    for (uint32_t k = 1; k < n; k++) {
        uint32_t t = order[k];
        joined |= UINT64_C(1) << t;
        const plan_ast **jc = arena_calloc(cx->a, nc + 1, sizeof *jc);
        uint32_t njc = 0;
        for (uint32_t c = 0; c < nc; c++) {
            /* its tables are all in now (constants: at the last join) */
            if (!used[c] && !(mask[c] & ~joined) && (mask[c] != 0 || k == n - 1)) {
                used[c] = true;
                jc[njc++] = cs[c];
            }
        }
        plan_table_ref ref = refs[t];
        ref.on = plan__and_of(cx, jc, njc);
        ref.join = njc ? PLAN_JOIN_INNER : PLAN_JOIN_CROSS;
        off[t] = width;
        width += fts[t].ncols;
        if (join_one(cx, st, ft, root, &fts[t], ops[t], &ref, err) != DB_OK) {
            return JR_ERROR;
        }
    }
    /* SELECT *: the FROM order. */
    ft->nstar = 0;
    for (uint32_t t = 0; t < n; t++) {
        for (uint32_t q = 0; q < fts[t].nstar; q++) {
            ft->star[ft->nstar++] = fts[t].star[q] + off[t];
        }
    }
    if (*root) {
        const char *names = "";
        for (uint32_t k = 0; k < n; k++) {
            const char *q = fts[order[k]].qual ? fts[order[k]].qual : "?";
            names = arena_sprintf(cx->a, "%s%s%s", names, k ? ", " : "", q);
        }
        plan__op_join_note(*root, arena_sprintf(cx->a, "join order %s", names));
    }
    return JR_DONE;
}

/* FROM with several tables: resolve each, push single-table WHERE conjuncts under the join
 * where that is safe, join left to right. *where_rest is what the joined row still filters. */
static int
build_from(plan_ectx *cx, const plan_stmt *st, from_table *ft, plan_op **root,
           const plan_ast **where_rest, db_error *err)
{
    uint32_t n = st->ntables;
    from_table *fts = arena_calloc(cx->a, n, sizeof *fts);
    plan_op **ops = arena_calloc(cx->a, n, sizeof *ops);
    for (uint32_t i = 0; i < n; i++) {
        if (resolve_table(cx, st, &st->tables[i], &fts[i], &ops[i], err) != DB_OK) {
            return DB_ERR;
        }
        for (uint32_t k = 0; k < i; k++) {
            const scope_tab *a = &fts[k].tabs[0], *b = &fts[i].tabs[0];
            bool same = (a->table_ci || b->table_ci) ? strcasecmp(a->qual, b->qual) == 0
                                                     : strcmp(a->qual, b->qual) == 0;
            bool same_db = !a->db || !b->db || strcasecmp(a->db, b->db) == 0;
            if (same && same_db) {
                return db_error_set(err, ER_NONUNIQ_TABLE, b->qual);
            }
        }
    }
    *where_rest = st->where;
    bool all_inner = true, plain = true; /* plain: no USING / NATURAL */
    for (uint32_t i = 1; i < n; i++) {
        all_inner &= st->tables[i].join == PLAN_JOIN_CROSS || st->tables[i].join == PLAN_JOIN_INNER;
        plain &= !st->tables[i].natural && st->tables[i].nusing == 0;
    }
    /* Per table: multi-table WHERE conjuncts joined in where it arrives (extra), conjuncts
     * filtering it alone (pushed), what stays in its ON clause (on). */
    const plan_ast ***extra = arena_calloc(cx->a, n, sizeof *extra);
    uint32_t *nextra = arena_calloc(cx->a, n, sizeof *nextra),
             *capextra = arena_calloc(cx->a, n, sizeof *capextra);
    const plan_ast ***pushed = arena_calloc(cx->a, n, sizeof *pushed);
    uint32_t *npushed = arena_calloc(cx->a, n, sizeof *npushed),
             *cappushed = arena_calloc(cx->a, n, sizeof *cappushed);
    const plan_ast ***on = arena_calloc(cx->a, n, sizeof *on);
    uint32_t *non = arena_calloc(cx->a, n, sizeof *non),
             *capon = arena_calloc(cx->a, n, sizeof *capon);
    if (st->where && !has_agg(st->where)) {
        const plan_ast **cs = NULL, **keep = NULL;
        uint32_t nc = 0, capc = 0, nkeep = 0;
        plan__conjuncts(cx, st->where, &cs, &nc, &capc);
        keep = arena_calloc(cx->a, nc, sizeof *keep);
        for (uint32_t i = 0; i < nc; i++) {
            int which = -1, maxt = -1;
            bool ok = conj_tables(fts, n, cs[i], &which, &maxt);
            int t = ok ? which : -1;
            if (ok && which == -2 && all_inner) {
                /* Over several tables of inner joins only: part of the join that brings its
                 * last table in (an equality there becomes a hash key). */
                plan__conjuncts(cx, cs[i], &extra[maxt], &nextra[maxt], &capextra[maxt]);
                continue;
            }
            if (t < 0 || null_extended(st, (uint32_t)t)) {
                keep[nkeep++] = cs[i];
                continue;
            }
            plan__conjuncts(cx, cs[i], &pushed[t], &npushed[t], &cappushed[t]);
        }
        *where_rest = plan__and_of(cx, keep, nkeep);
    }
    /* ON conjuncts over one table (in the ON clause's scope: tables 0..i) filter that table's
     * input where that keeps the result: the joined table of an INNER or LEFT join (its rows
     * only ever match through them), an earlier table of an INNER join unless some outer join
     * null-extends it. */
    for (uint32_t i = 1; i < n; i++) {
        const plan_table_ref *ref = &st->tables[i];
        if (!ref->on) {
            continue;
        }
        const plan_ast **cs = NULL;
        uint32_t nc = 0, capc = 0;
        plan__conjuncts(cx, ref->on, &cs, &nc, &capc);
        bool inner = ref->join == PLAN_JOIN_CROSS || ref->join == PLAN_JOIN_INNER;
        for (uint32_t k = 0; k < nc; k++) {
            int which = -1, maxt = -1;
            bool ok = !has_agg(cs[k]) && conj_tables(fts, i + 1, cs[k], &which, &maxt);
            bool push = ok && which >= 0 &&
                        (((uint32_t)which == i && (inner || ref->join == PLAN_JOIN_LEFT)) ||
                         ((uint32_t)which < i && inner && !null_extended(st, (uint32_t)which)));
            if (push) {
                plan__conjuncts(cx, cs[k], &pushed[which], &npushed[which], &cappushed[which]);
            } else {
                plan__conjuncts(cx, cs[k], &on[i], &non[i], &capon[i]);
            }
        }
    }
    for (uint32_t t = 0; t < n; t++) {
        if (!npushed[t]) {
            continue;
        }
        plan_ast *w = plan__and_of(cx, pushed[t], npushed[t]);
        plan_expr *we;
        if (plan__analyze(cx, w, fts[t].binds, fts[t].ncols, "where clause", &we, err) != DB_OK) {
            return DB_ERR;
        }
        if (ops[t]) {
            if (fts[t].tbl) {
                plan__tscan_prune(ops[t], w, fts[t].qual);
                fts[t].est = plan__tscan_est(ops[t]);
            }
            ops[t] = plan__op_filter(cx, ops[t], we);
            /* A filtered input is smaller: about half per conjunct (a guess). */
            for (uint32_t k = 0; k < npushed[t] && fts[t].est > 1; k++) {
                fts[t].est /= 2;
            }
            plan__op_set_est(ops[t], fts[t].est);
        }
    }
    /* Each join's condition: what stayed in its ON clause and the WHERE conjuncts it takes. */
    plan_table_ref *refs = arena_calloc(cx->a, n, sizeof *refs);
    for (uint32_t i = 0; i < n; i++) {
        refs[i] = st->tables[i];
        if (i == 0) {
            continue;
        }
        conjuncts_cat(cx, &on[i], &non[i], &capon[i], extra[i], nextra[i]);
        refs[i].on = plan__and_of(cx, on[i], non[i]);
        if (nextra[i]) {
            refs[i].join = PLAN_JOIN_INNER;
        }
    }
    int jr = JR_KEPT;
    if (all_inner && plain && n >= 3 && n <= 64 && !cx->describe) {
        jr = join_reorder(cx, st, fts, ops, refs, n, ft, root, err);
    }
    if (jr == JR_ERROR) {
        return DB_ERR;
    }
    if (jr == JR_KEPT) {
        *ft = fts[0];
        *root = ops[0];
        for (uint32_t i = 1; i < n; i++) {
            if (join_one(cx, st, ft, root, &fts[i], ops[i], &refs[i], err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    ft->tbl = NULL;
    ft->vt = NULL;
    return DB_OK;
}

/* Plan statement st (a SELECT with tables): its operator (NULL when describing) and its select
 * list (visible columns first, then hidden ORDER BY ones). */
/* ---- ROLLUP / CUBE / GROUPING SETS ---- */

#define GS_MAX_EXPRS 16 /* CUBE of 16 expressions is 65536 sets */
#define GS_MAX_SETS  4096

typedef struct gs_ctx {
    const plan_ast **ge; /* the distinct grouping expressions */
    uint32_t nge;
    uint64_t mask; /* the ones grouped in the branch being made */
    int bad_arg;   /* GROUPING(x) of an x not grouped: its argument number, else 0 */
    plan_ectx *cx;
} gs_ctx;

static int
gs_index(const gs_ctx *g, const plan_ast *x)
{
    for (uint32_t j = 0; j < g->nge; j++) {
        if (ast_equal(NULL, x, g->ge[j])) {
            return (int)j;
        }
    }
    return -1;
}

/* x for one branch: a grouping expression the branch does not group (outside aggregate
 * calls) becomes NULL, GROUPING(e) the constant 1 when e is not grouped, else 0 (several
 * arguments: the bit mask, first argument highest, as GROUPING_ID of Doris). */
static plan_ast *
gs_rewrite(gs_ctx *g, plan_ast *x)
{
    if (x == NULL || is_agg_call(x) || x->kind == PA_SUBQUERY) {
        return x;
    }
    if (x->kind == PA_FUNC && x->has_parens &&
        (str_eq_ci(x->name, "grouping") || str_eq_ci(x->name, "grouping_id"))) {
        uint64_t v = 0;
        for (uint32_t i = 0; i < x->nargs; i++) {
            int j = gs_index(g, x->args[i]);
            if (j < 0) {
                g->bad_arg = g->bad_arg ? g->bad_arg : (int)i + 1;
                return x;
            }
            v = v << 1 | !((g->mask >> j) & 1);
        }
        plan_ast *c = arena_calloc(g->cx->a, 1, sizeof *c);
        c->kind = PA_INT;
        c->name = arena_sprintf(g->cx->a, "%llu", (unsigned long long)v);
        c->off = x->off;
        c->end = x->end;
        return c;
    }
    int j = gs_index(g, x);
    if (j >= 0) {
        if ((g->mask >> j) & 1) {
            return x;
        }
        plan_ast *c = arena_calloc(g->cx->a, 1, sizeof *c);
        c->kind = PA_NULL;
        c->name = "NULL";
        c->off = x->off;
        c->end = x->end;
        return c;
    }
    plan_ast **args = NULL;
    for (uint32_t i = 0; i < x->nargs; i++) {
        plan_ast *a = gs_rewrite(g, x->args[i]);
        if (a != x->args[i] && !args) {
            args = arena_alloc(g->cx->a, x->nargs * sizeof *args);
            memcpy(args, x->args, x->nargs * sizeof *args);
        }
        if (args) {
            args[i] = a;
        }
    }
    if (!args) {
        return x;
    }
    plan_ast *c = arena_alloc(g->cx->a, sizeof *c);
    *c = *x;
    c->args = args;
    return c;
}

/* SELECT ... GROUP BY ROLLUP / CUBE / GROUPING SETS: one grouped branch per set (the sets in
 * order: ROLLUP (a, b) is (a, b), (a), (); CUBE every subset, the full one first), UNION ALL,
 * then the statement's ORDER BY / LIMIT over the result. */
static int
grouping_sets_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, sel_list *slp,
                    db_error *err)
{
    gs_ctx g = {.cx = cx};
    g.ge = arena_calloc(cx->a, GS_MAX_EXPRS + 1, sizeof *g.ge);
    uint64_t *sets;
    uint32_t nsets = 0;
    if (st->gkind == PLAN_GK_SETS) {
        sets = arena_calloc(cx->a, st->ngsets + 1, sizeof *sets);
        for (uint32_t s = 0; s < st->ngsets; s++) {
            const plan_ast_list *l = st->gsets[s];
            uint64_t m = 0;
            for (uint32_t i = 0; l && i < l->n; i++) {
                int j = gs_index(&g, l->items[i]);
                if (j < 0) {
                    if (g.nge == GS_MAX_EXPRS) {
                        return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                            "more than 16 expressions in GROUPING SETS");
                    }
                    j = (int)g.nge;
                    g.ge[g.nge++] = l->items[i];
                }
                m |= UINT64_C(1) << j;
            }
            sets[nsets++] = m;
        }
    } else {
        const plan_ast_list *l = st->group;
        for (uint32_t i = 0; i < l->n; i++) {
            if (gs_index(&g, l->items[i]) < 0) {
                if (g.nge == GS_MAX_EXPRS) {
                    return db_error_set(err, ER_NOT_SUPPORTED_YET,
                                        "more than 16 expressions in ROLLUP / CUBE");
                }
                g.ge[g.nge++] = l->items[i];
            }
        }
        uint64_t full = g.nge == 64 ? ~UINT64_C(0) : (UINT64_C(1) << g.nge) - 1;
        if (st->gkind == PLAN_GK_ROLLUP) {
            sets = arena_calloc(cx->a, g.nge + 2, sizeof *sets);
            for (uint32_t k = g.nge + 1; k-- > 0;) {
                sets[nsets++] = k == 64 ? full : (UINT64_C(1) << k) - 1;
            }
        } else {
            sets = arena_calloc(cx->a, (size_t)full + 2, sizeof *sets);
            for (uint64_t m = full + 1; m-- > 0;) {
                sets[nsets++] = m;
            }
        }
    }
    if (nsets > GS_MAX_SETS) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "more than 4096 grouping sets");
    }
    plan_stmt *u = NULL;
    for (uint32_t s = 0; s < nsets; s++) {
        g.mask = sets[s];
        plan_stmt *b = arena_alloc(cx->a, sizeof *b);
        *b = *st;
        b->gkind = PLAN_GK_NONE;
        b->gsets = NULL;
        b->ngsets = 0;
        b->order = NULL;
        b->order_desc = NULL;
        b->order_nulls = NULL;
        b->has_limit = false;
        b->limit_count_pix = b->limit_offset_pix = 0;
        b->parent = (plan_stmt *)st;
        b->group = NULL;
        if (g.mask) {
            plan_ast_list *gl = arena_calloc(cx->a, 1, sizeof *gl);
            gl->items = arena_calloc(cx->a, g.nge, sizeof *gl->items);
            for (uint32_t j = 0; j < g.nge; j++) {
                if ((g.mask >> j) & 1) {
                    gl->items[gl->n++] = (plan_ast *)g.ge[j];
                }
            }
            gl->cap = gl->n;
            b->group = gl;
        } else {
            /* The grand total: every row in one group, also without aggregates; no row for
             * an empty input (MySQL's WITH ROLLUP). GROUP BY (1): a constant, not an ordinal. */
            plan_ast_list *gl = arena_calloc(cx->a, 1, sizeof *gl);
            plan_ast *one = arena_calloc(cx->a, 1, sizeof *one);
            one->kind = PA_INT;
            one->name = "1";
            one->has_parens = true;
            gl->items = arena_calloc(cx->a, 1, sizeof *gl->items);
            gl->items[0] = one;
            gl->n = gl->cap = 1;
            b->group = gl;
        }
        b->items = arena_alloc(cx->a, (st->nitems ? st->nitems : 1) * sizeof *b->items);
        for (uint32_t i = 0; i < st->nitems; i++) {
            b->items[i] = st->items[i];
            if (!st->items[i].is_star) {
                b->items[i].expr = gs_rewrite(&g, st->items[i].expr);
                if (!st->items[i].alias && b->items[i].expr != st->items[i].expr) {
                    /* a NULL or a GROUPING() constant keeps the column's name */
                    b->items[i].alias = plan__item_label(cx, &st->items[i]);
                }
            }
        }
        b->having = gs_rewrite(&g, st->having);
        if (g.bad_arg) {
            return db_error_set(err, ER_FIELD_IN_GROUPING_NOT_GROUP_BY, g.bad_arg);
        }
        if (u == NULL) {
            u = b;
            continue;
        }
        plan_stmt *n = arena_calloc(cx->a, 1, sizeof *n);
        n->kind = PS_SELECT;
        n->isolation = st->isolation;
        n->setop = PLAN_SETOP_UNION;
        n->setop_all = true;
        n->setop_left = u;
        n->setop_right = b;
        n->parent = (plan_stmt *)st;
        u = n;
    }
    u->order = st->order;
    u->order_desc = st->order_desc;
    u->order_nulls = st->order_nulls;
    u->cap_order_desc = st->cap_order_desc;
    u->cap_order_nulls = st->cap_order_nulls;
    u->has_limit = st->has_limit;
    u->limit_count = st->limit_count;
    u->limit_offset = st->limit_offset;
    u->limit_count_pix = st->limit_count_pix;
    u->limit_offset_pix = st->limit_offset_pix;
    u->parent = st->parent;
    return select_build(cx, u, rootp, slp, err);
}

static int
select_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, sel_list *slp, db_error *err)
{
    plan_session *s = cx->s;
    if (plan__stack_check(err) != DB_OK) {
        return DB_ERR; /* nested statements (a set operation's operands) thousands deep */
    }
    if (st->gkind != PLAN_GK_NONE) {
        return grouping_sets_build(cx, st, rootp, slp, err);
    }
    if (st->setop != PLAN_SETOP_NONE) { /* plan_setop.c */
        memset(slp, 0, sizeof *slp);
        if (plan__setop_build(cx, st, rootp, &slp->exprs, &slp->cols, &slp->n, err) != DB_OK) {
            return DB_ERR;
        }
        slp->nvis = slp->cap = slp->n;
        return DB_OK;
    }
    from_table ft;
    plan_op *root = NULL;
    const plan_ast *where_ast = st->where;
    if (st->ntables == 0) { /* a nested SELECT without FROM: one row of no columns */
        memset(&ft, 0, sizeof ft);
        ft_alloc(cx, &ft, 0);
        for (uint32_t i = 0; i < st->nitems; i++) {
            if (st->items[i].is_star) {
                return db_error_set(err, ER_NO_TABLES_USED);
            }
        }
        if (!cx->describe) {
            static const plan_value none[1];
            root = plan__op_rows(cx, NULL, 0, none, 1, plan__batch_cap(s));
        }
    } else if (st->ntables == 1) {
        if (resolve_table(cx, st, &st->tables[0], &ft, &root, err) != DB_OK) {
            return DB_ERR;
        }
        if (root && ft.tbl) {
            plan__tscan_prune(root, st->where, ft.qual);
        }
    } else if (build_from(cx, st, &ft, &root, &where_ast, err) != DB_OK) {
        return DB_ERR;
    }
    if (ft.ntabs > 1) { /* 1052 before anything else reports on the names */
        for (uint32_t i = 0; i < st->nitems; i++) {
            if (!st->items[i].is_star &&
                check_ambig(cx, &ft, st, st->items[i].expr, false, "field list", err) != DB_OK) {
                return DB_ERR;
            }
        }
        if (check_ambig(cx, &ft, st, st->where, false, "where clause", err) != DB_OK) {
            return DB_ERR;
        }
        for (uint32_t i = 0; st->group && i < st->group->n; i++) {
            if (check_ambig(cx, &ft, st, st->group->items[i], true, "group statement", err) !=
                DB_OK) {
                return DB_ERR;
            }
        }
        if (check_ambig(cx, &ft, st, st->having, true, "having clause", err) != DB_OK) {
            return DB_ERR;
        }
        for (uint32_t i = 0; st->order && i < st->order->n; i++) {
            if (check_ambig(cx, &ft, st, st->order->items[i], true, "order clause", err) != DB_OK) {
                return DB_ERR;
            }
        }
    }

    if (st->where && has_agg(st->where)) {
        return db_error_set(err, ER_INVALID_GROUP_FUNC_USE);
    }
    plan_semi *semi = NULL; /* [NOT] EXISTS / IN conjuncts as semi / anti joins */
    if (where_ast && root) {
        semi = plan__semi_split(cx, &where_ast, ft.binds, ft.ncols);
    }
    if (where_ast) {
        plan_expr *where;
        if (plan__analyze(cx, where_ast, ft.binds, ft.ncols, "where clause", &where, err) !=
            DB_OK) {
            return DB_ERR;
        }
        if (root) {
            root = plan__op_filter(cx, root, where);
        }
    }
    if (semi) {
        root = plan__semi_apply(cx, root, semi);
    }

    bool is_agg = st->group != NULL || has_agg(st->having);
    for (uint32_t i = 0; i < st->nitems; i++) {
        is_agg |= !st->items[i].is_star && has_agg(st->items[i].expr);
    }
    for (uint32_t i = 0; st->order && i < st->order->n; i++) {
        is_agg |= has_agg(st->order->items[i]);
    }
    sel_list sl;
    memset(&sl, 0, sizeof sl);
    plan_sort_key *keys = NULL;
    uint32_t nord = st->order ? st->order->n : 0;
    plan_window_fn *wf = NULL;
    uint32_t nwf = 0;
    if (is_agg) {
        if (plan_grouped(cx, st, &ft, &root, &sl, &keys, err) != DB_OK) {
            return DB_ERR;
        }
    } else {
        /* Window functions: the select list and ORDER BY bind their results (xb). */
        const plan_ast **wx = arena_calloc(cx->a, st->nitems + nord + 1, sizeof *wx);
        uint32_t nwx = 0;
        for (uint32_t i = 0; i < st->nitems; i++) {
            if (!st->items[i].is_star) {
                wx[nwx++] = st->items[i].expr;
            }
        }
        for (uint32_t i = 0; i < nord; i++) {
            wx[nwx++] = st->order->items[i];
        }
        plan_bind_col *xb;
        uint32_t nxb;
        if (window_prepare(cx, wx, nwx, ft.binds, ft.ncols, &wf, &nwf, &xb, &nxb, err) != DB_OK) {
            return DB_ERR;
        }
        for (uint32_t i = 0; i < st->nitems; i++) {
            const plan_select_item *it = &st->items[i];
            if (it->is_star) {
                if (expand_star(cx, &ft, it, &sl, err) != DB_OK) {
                    return DB_ERR;
                }
                continue;
            }
            plan_expr *e;
            if (plan__analyze(cx, it->expr, xb, nxb, "field list", &e, err) != DB_OK) {
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
        if (st->order && order_keys(cx, st, &ft, xb, nxb, &sl, &keys, err) != DB_OK) {
            return DB_ERR;
        }
        if (st->having) {
            /* HAVING without grouping filters rows; it may name select aliases (MySQL). */
            const plan_ast *h;
            plan_expr *hv;
            if (having_plain(cx, st, st->having, &h) != DB_OK ||
                plan__analyze(cx, h, ft.binds, ft.ncols, "having clause", &hv, err) != DB_OK) {
                return DB_ERR;
            }
            if (root) {
                root = plan__op_filter(cx, root, hv);
            }
        }
        if (nwf && root) {
            root = plan__op_window(cx, root, wf, nwf);
        }
    }

    *rootp = NULL;
    if (!cx->describe) {
        root = plan__op_project(cx, root, sl.exprs, sl.n);
    }
    if (st->distinct && plan_distinct(cx, st, &ft, &sl, keys, &root, err) != DB_OK) {
        return DB_ERR;
    }
    *slp = sl;
    if (cx->describe) {
        return DB_OK;
    }
    plan_op *sort = NULL;
    if (keys) {
        root = sort = plan__op_sort(cx, root, keys, st->order->n);
    }
    /* sql_select_limit applies to the outermost SELECT only. */
    uint64_t lcount = UINT64_MAX, loffset = 0;
    if (st->has_limit && plan__stmt_limit(cx, st, &lcount, &loffset, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t limit = st->has_limit || st->parent
                             ? lcount
                             : (uint64_t)s->vars[plan__sysvar_find("sql_select_limit")].i;
    if (sort && limit != UINT64_MAX && limit <= UINT64_MAX / 2 - loffset &&
        limit + loffset <= (1u << 24)) {
        plan__op_sort_topn(sort, limit + loffset);
    }
    if (limit != UINT64_MAX || loffset > 0) {
        root = plan__op_limit(cx, root, loffset, limit);
    }
    *rootp = root;
    return DB_OK;
}

int
plan__select_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_column **colsp,
                   uint32_t *ncolsp, db_error *err)
{
    sel_list sl;
    memset(&sl, 0, sizeof sl);
    if (select_build(cx, st, rootp, &sl, err) != DB_OK) {
        return DB_ERR;
    }
    *colsp = sl.cols;
    *ncolsp = sl.nvis;
    return DB_OK;
}

int
plan__subq_build(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr ***exprsp,
                 uint32_t *np, db_error *err)
{
    sel_list sl;
    memset(&sl, 0, sizeof sl);
    if (select_build(cx, st, rootp, &sl, err) != DB_OK) {
        return DB_ERR;
    }
    *exprsp = sl.exprs;
    *np = sl.nvis;
    return DB_OK;
}

int
plan__select_build_x(plan_ectx *cx, const plan_stmt *st, plan_op **rootp, plan_expr ***exprsp,
                     plan_column **colsp, uint32_t *ncolsp, db_error *err)
{
    sel_list sl;
    memset(&sl, 0, sizeof sl);
    if (select_build(cx, st, rootp, &sl, err) != DB_OK) {
        return DB_ERR;
    }
    *exprsp = sl.exprs;
    *colsp = sl.cols;
    *ncolsp = sl.nvis;
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
