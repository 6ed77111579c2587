/* SPDX-License-Identifier: Apache-2.0
 * plan_select.c: SELECT ... FROM one table. Resolves the table (information_schema or a
 * catalog table), binds column references, expands stars, resolves GROUP BY / HAVING / ORDER BY
 * items, plans aggregated queries over the hash aggregate (plan_agg.c) and DISTINCT, builds the
 * operator tree
 *   scan -> filter -> [aggregate -> [filter HAVING]] -> project -> [distinct] -> [sort] -> [limit]
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
static bool is_agg_call(const plan_ast *x);
static bool has_agg(const plan_ast *x);
static const plan_ast *nonagg_column(const plan_ast *x);
static int order_keys(plan_ectx *cx, const plan_stmt *st, const from_table *ft, sel_list *sl,
                      plan_sort_key **keys, db_error *err);
static int plan_distinct(plan_ectx *cx, const plan_stmt *st, const from_table *ft,
                         const sel_list *sl, const plan_sort_key *keys, plan_op **root,
                         db_error *err);
static int having_plain(plan_ectx *cx, const plan_stmt *st, const plan_ast *x,
                        const plan_ast **out);
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
    return false;
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
    bool key_grouped;   /* every key column of a UNIQUE / AGGREGATE table is a GROUP BY column:
                           the other columns depend on the group (MySQL's primary key rule) */
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
        if (strcasecmp(c->name, x->name) != 0) {
            continue;
        }
        if (x->qual && (c->table_ci ? strcasecmp(c->table, x->qual) : strcmp(c->table, x->qual))) {
            continue;
        }
        if (x->db_qual && (!c->db || strcasecmp(c->db, x->db_qual) != 0)) {
            continue;
        }
        return (int)i;
    }
    return -1;
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
        if (g->full_group_by && !g->key_grouped) {
            const char *full = arena_sprintf(cx->a, "%s.%s.%s", g->ft->schema, g->ft->org_table,
                                             g->ft->colnames[col]);
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
        sel_list tmp;
        memset(&tmp, 0, sizeof tmp);
        if (expand_star(cx, ft, it, &tmp, err) != DB_OK) {
            return DB_ERR;
        }
        for (uint32_t c = 0; c < ft->ncols; c++) {
            if (g.nitems == cap) {
                break;
            }
            plan_ast *n = arena_calloc(cx->a, 1, sizeof *n);
            n->kind = PA_COLUMN;
            n->name = ft->colnames[c];
            xitem *x = &g.items[g.nitems++];
            x->expr = n;
            x->label = ft->colnames[c];
            x->col = (int)c;
        }
    }
    if (group_keys(&g, err) != DB_OK) {
        return DB_ERR;
    }
    g.key_grouped = ft->tbl && ft->tbl->sc.nkeys > 0 &&
                    (ft->tbl->sc.keys == CAT_KEYS_UNIQUE || ft->tbl->sc.keys == CAT_KEYS_AGG);
    for (uint32_t c = 0; g.key_grouped && c < ft->ncols; c++) {
        if (!ft->tbl->cols[c].is_key) {
            continue;
        }
        bool found = false;
        for (uint32_t k = 0; k < g.nkeys && !found; k++) {
            found = g.gk[k]->kind == PA_COLUMN && input_col(ft, g.gk[k]) == (int)c;
        }
        g.key_grouped = found;
    }
    plan_expr **kx = arena_calloc(cx->a, g.nkeys + 1, sizeof *kx);
    for (uint32_t k = 0; k < g.nkeys; k++) { /* keys over the table's columns */
        if (plan__analyze(cx, g.gk[k], ft->binds, ft->ncols, "group statement", &kx[k], err) !=
            DB_OK) {
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
        if (rewrite(&g, x, false, &oast[i], err) != DB_OK) {
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
    for (uint32_t i = 0; i < g.nitems; i++) {
        plan_expr *e;
        if (plan__analyze(cx, sel[i], binds, nb, "field list", &e, err) != DB_OK) {
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
                if (plan__analyze(cx, oast[i], binds, nb, "order clause", &e, err) != DB_OK) {
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
        }
        *keys = k;
    }
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
        k[i].nulls = st->order_nulls ? st->order_nulls[i] : 0;
        k[i].mode = plan__cmp_mode(sl->exprs[col], sl->exprs[col]);
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
            return db_error_set(
                    err, ER_FIELD_IN_ORDER_NOT_SELECT, i + 1,
                    arena_sprintf(cx->a, "%s.%s.%s", ft->schema, ft->org_table, ft->colnames[col]));
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
    if (is_agg) {
        if (plan_grouped(cx, st, &ft, &root, &sl, &keys, err) != DB_OK) {
            return DB_ERR;
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
    }

    *colsp = sl.cols;
    *ncolsp = sl.nvis;
    *rootp = NULL;
    if (!cx->describe) {
        root = plan__op_project(cx, root, sl.exprs, sl.n);
    }
    if (st->distinct && plan_distinct(cx, st, &ft, &sl, keys, &root, err) != DB_OK) {
        return DB_ERR;
    }
    if (cx->describe) {
        return DB_OK;
    }
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
