/* SPDX-License-Identifier: Apache-2.0
 * plan_analyze.c: the analyser. Turns an AST expression into a typed plan_expr tree: literals
 * become typed constants, names are resolved (bound columns, system variables, user variables,
 * functions), and every node gets its MySQL result type and evaluation function.
 * See README.md §Expressions. */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/strutil.h"

typedef struct actx {
    plan_ectx *cx;
    const plan_bind_col *cols;
    size_t ncols;
    const char *clause;
} actx;

static int analyze(actx *ac, const plan_ast *x, plan_expr **out, db_error *err);
static int analyze_literal(actx *ac, const plan_ast *x, plan_expr *e, db_error *err);
static int analyze_func(actx *ac, const plan_ast *x, plan_expr *e, db_error *err);
static void analyze_param(actx *ac, const plan_ast *x, plan_expr *e);
static int bind_find(const actx *ac, const plan_ast *x);
static void bind_column(const actx *ac, int slot, plan_expr *e);
static int eval_const(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_column(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_sysvar(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_uservar(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_assign(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static void hex_as_int(plan_expr *e);
static bool is_numeric(const plan_expr *e);
static uint32_t utf8_chars(const char *s, size_t len);
static void print_ast(arena *a, const char *sql, const plan_ast *x, char **buf, size_t *len,
                      size_t *cap);

/* ---- type helpers ---- */

void
plan__type_string(plan_xtype *t, uint32_t length, bool nullable)
{
    memset(t, 0, sizeof *t);
    t->type = PLAN_TYPE_VARCHAR;
    t->length = length;
    t->scale = 31;
    t->nullable = nullable;
}

void
plan__type_bigint(plan_xtype *t, uint32_t length, bool nullable)
{
    memset(t, 0, sizeof *t);
    t->type = PLAN_TYPE_BIGINT;
    t->length = length ? length : 1;
    t->nullable = nullable;
}

void
plan__type_double(plan_xtype *t, bool nullable)
{
    memset(t, 0, sizeof *t);
    t->type = PLAN_TYPE_DOUBLE;
    t->length = 22;
    t->scale = 31;
    t->nullable = nullable;
}

void
plan__type_decimal(plan_xtype *t, int precision, int scale, bool nullable)
{
    memset(t, 0, sizeof *t);
    t->type = PLAN_TYPE_DECIMAL;
    if (precision < scale) {
        precision = scale;
    }
    if (precision < 1) {
        precision = 1;
    }
    t->precision = (uint8_t)precision;
    t->scale = (uint8_t)scale;
    t->length = plan__dec_length(precision, scale, false);
    t->nullable = nullable;
}

void
plan__type_datetime(plan_xtype *t, plan_type type, int fsp, bool nullable)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    t->scale = (uint8_t)fsp;
    t->length = type == PLAN_TYPE_DATE ? 10 : (type == PLAN_TYPE_TIME ? 10 : 19);
    if (fsp > 0 && type != PLAN_TYPE_DATE) {
        t->length += (uint32_t)fsp + 1;
    }
    t->nullable = nullable;
}

uint32_t
plan__type_strlen(const plan_xtype *t)
{
    if (t->type == PLAN_TYPE_NULL) {
        return 0;
    }
    if (t->type == PLAN_TYPE_DOUBLE || t->type == PLAN_TYPE_FLOAT) {
        return 22;
    }
    return t->length;
}

static uint32_t
utf8_chars(const char *s, size_t len)
{
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            n++;
        }
    }
    return n;
}

/* ---- evaluation of leaves ---- */

int
plan__eval(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    return e->eval(cx, e, out, err);
}

static int
eval_const(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)cx;
    (void)err;
    *out = e->lit;
    return DB_OK;
}

static int
eval_column(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)err;
    DB_ASSERT(cx->row && (size_t)e->slot < cx->nrow);
    *out = cx->row[e->slot];
    return DB_OK;
}

int
plan__expr_leaf(const plan_expr *e)
{
    return e->eval == eval_column ? 1 : (e->eval == eval_const ? 2 : 0);
}

static int
eval_sysvar(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    return plan__sysvar_read(cx, e->slot, e->scope, out, NULL, err);
}

static int
eval_uservar(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)err;
    const plan_uservar *u = plan__uservar_get(cx->s, e->name);
    *out = u ? u->v : plan__v_null();
    return DB_OK;
}

static int
eval_assign(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    if (plan__eval(cx, e->args[0], out, err) != DB_OK) {
        return DB_ERR;
    }
    plan__uservar_set(cx->s, e->name, out);
    return DB_OK;
}

/* ---- analysis ---- */

static bool
is_numeric(const plan_expr *e)
{
    return e->vk == PV_INT || e->vk == PV_DECIMAL || e->vk == PV_DOUBLE;
}

/* A hex or bit literal in numeric context is an unsigned integer (0x41 + 0 = 65). */
static void
hex_as_int(plan_expr *e)
{
    if (!e->src || (e->src->kind != PA_HEX && e->src->kind != PA_BIT) || e->src->len > 8) {
        return;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < e->src->len; i++) {
        v = (v << 8) | (unsigned char)e->src->str[i];
    }
    e->lit = plan__v_uint(v);
    e->vk = PV_INT;
    plan__type_bigint(&e->t, 20, false);
    e->t.is_unsigned = true;
}

static int
analyze_literal(actx *ac, const plan_ast *x, plan_expr *e, db_error *err)
{
    (void)err;
    arena *a = ac->cx->a;
    e->eval = eval_const;
    switch (x->kind) {
    case PA_INT: {
        size_t n = strlen(x->name);
        uint64_t v = 0;
        bool over = false;
        for (size_t i = 0; i < n; i++) {
            unsigned d = (unsigned)(x->name[i] - '0');
            if (v > (UINT64_MAX - d) / 10) {
                over = true;
                break;
            }
            v = v * 10 + d;
        }
        if (!over) {
            e->lit = v <= INT64_MAX ? plan__v_int((int64_t)v) : plan__v_uint(v);
            e->vk = PV_INT;
            plan__type_bigint(&e->t, (uint32_t)n, false);
            e->t.is_unsigned = v > INT64_MAX;
            e->t.precision = (uint8_t)(n > 20 ? 20 : n);
            return DB_OK;
        }
    }
        /* fall through: too big for BIGINT UNSIGNED, try DECIMAL */
        __attribute__((fallthrough));
    case PA_DECIMAL: {
        __int128 d;
        int scale;
        if (plan__dec_parse(x->name, strlen(x->name), &d, &scale)) {
            e->lit = plan__v_dec(d, scale);
            e->vk = PV_DECIMAL;
            int digits = plan__dec_digits(d);
            plan__type_decimal(&e->t, digits > scale ? digits : scale, scale, false);
            return DB_OK;
        }
    }
        __attribute__((fallthrough));
    case PA_FLOAT:
        e->lit = plan__v_double(strtod(x->name, NULL));
        if (!isfinite(e->lit.d)) {
            return db_error_set(err, ER_ILLEGAL_VALUE_FOR_TYPE, "double", x->name);
        }
        e->vk = PV_DOUBLE;
        plan__type_double(&e->t, false);
        e->t.length = (uint32_t)strlen(x->name);
        return DB_OK;
    case PA_STRING:
    case PA_HEX:
    case PA_BIT:
        e->lit = plan__v_str(x->str, x->len);
        e->lit.is_binary = x->kind != PA_STRING;
        e->vk = PV_STRING;
        plan__type_string(
                &e->t, x->kind == PA_STRING ? utf8_chars(x->str, x->len) : (uint32_t)x->len, false);
        e->t.is_binary = x->kind != PA_STRING;
        return DB_OK;
    case PA_NULL:
        e->lit = plan__v_null();
        e->vk = PV_NULL;
        memset(&e->t, 0, sizeof e->t);
        e->t.type = PLAN_TYPE_NULL;
        e->t.nullable = true;
        return DB_OK;
    case PA_BOOL:
        e->lit = plan__v_int(x->op);
        e->vk = PV_INT;
        plan__type_bigint(&e->t, 1, false);
        e->t.precision = 1;
        return DB_OK;
    default:
        (void)a;
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "this literal");
    }
}

/* A '?' placeholder: while describing (plan_prepare) a nullable VARCHAR that is never
 * evaluated; when executing, a constant of the bound value with that value's type, so a
 * bound DOUBLE compares numerically and a bound string behaves as a string literal. */
static void
analyze_param(actx *ac, const plan_ast *x, plan_expr *e)
{
    plan_ectx *cx = ac->cx;
    e->eval = eval_const;
    if (!cx->params) {
        e->lit = plan__v_null();
        e->vk = PV_STRING;
        plan__type_string(&e->t, PLAN_PARAM_DESCRIBE_LEN, true);
        return;
    }
    DB_ASSERT(x->op >= 0 && (size_t)x->op < cx->nparams);
    e->lit = cx->params[x->op];
    plan__param_type(&e->lit, &e->t, &e->vk);
}

/* The bindable column a column reference names, or -1. Names compare case-insensitively;
 * table qualifiers as the column says (information_schema: any case), database qualifiers
 * likewise. */
static int
bind_find(const actx *ac, const plan_ast *x)
{
    return plan__bind_find(ac->cols, ac->ncols, x);
}

int
plan__bind_find(const plan_bind_col *cols, size_t ncols, const plan_ast *x)
{
    for (size_t i = 0; i < ncols; i++) {
        const plan_bind_col *c = &cols[i];
        if (c->ast || strcasecmp(c->name, x->name) != 0) {
            continue;
        }
        if (x->qual && (!c->table || (c->table_ci ? strcasecmp(c->table, x->qual)
                                                  : strcmp(c->table, x->qual)) != 0)) {
            continue;
        }
        if (x->db_qual && (!c->db || (c->table_ci ? strcasecmp(c->db, x->db_qual)
                                                  : strcmp(c->db, x->db_qual)) != 0)) {
            continue;
        }
        return (int)i;
    }
    return -1;
}

static void
bind_column(const actx *ac, int slot, plan_expr *e)
{
    plan__bind_column(ac->cols, slot, e);
}

void
plan__bind_column(const plan_bind_col *cols, int slot, plan_expr *e)
{
    e->slot = slot;
    if (cols[slot].used) {
        *cols[slot].used = true;
    }
    e->t = cols[slot].t;
    e->vk = cols[slot].vk == PV_NULL ? PV_STRING : cols[slot].vk;
    e->eval = eval_column;
    e->nargs = 0;
}

static const char *const aggregates[] = {"count",
                                         "sum",
                                         "avg",
                                         "min",
                                         "max",
                                         "group_concat",
                                         "bit_and",
                                         "bit_or",
                                         "bit_xor",
                                         "std",
                                         "stddev",
                                         "variance",
                                         "bitmap_union",
                                         "bitmap_union_count",
                                         "bitmap_intersect",
                                         "bitmap_agg",
                                         "array_agg",
                                         "collect_list",
                                         "collect_set",
                                         "ndv",
                                         "approx_count_distinct",
                                         "percentile",
                                         "percentile_approx",
                                         "median",
                                         "max_by",
                                         "min_by",
                                         "avg_weighted",
                                         NULL};

static int
analyze_func(actx *ac, const plan_ast *x, plan_expr *e, db_error *err)
{
    plan_ectx *cx = ac->cx;
    char *lname = arena_strdup(cx->a, x->name);
    str_lower(lname, strlen(lname));
    const plan_func_def *fn = plan__func_lookup(lname);
    if (!fn) {
        for (size_t i = 0; aggregates[i]; i++) {
            if (strcmp(aggregates[i], lname) == 0) {
                return db_error_set(err, ER_NOT_SUPPORTED_YET, "aggregate functions");
            }
        }
        const char *db = plan_session_db(cx->s);
        if (!db) {
            return db_error_set(err, ER_NO_DB_ERROR);
        }
        char full[256];
        snprintf(full, sizeof full, "%s.%s", db, x->name);
        return db_error_set(err, ER_SP_DOES_NOT_EXIST, full);
    }
    if ((int)x->nargs < fn->min_args || (fn->max_args >= 0 && (int)x->nargs > fn->max_args)) {
        return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, x->name);
    }
    e->fn = fn;
    e->name = lname;
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (x->args[i]->kind == PA_STAR) {
            const plan_ast *st = x->args[i];
            int line = 1;
            for (uint32_t k = 0; k < st->off; k++) {
                line += cx->sql[k] == '\n';
            }
            char near[96];
            size_t rest = cx->sql_len - st->off;
            snprintf(near, sizeof near, "%.*s", (int)(rest > 80 ? 80 : rest), cx->sql + st->off);
            return db_error_set(err, ER_PARSE_ERROR, near, line);
        }
        if (analyze(ac, x->args[i], &e->args[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    return fn->type(cx, e, err);
}

static int
analyze(actx *ac, const plan_ast *x, plan_expr **out, db_error *err)
{
    if (plan__stack_check(err) != DB_OK) {
        return DB_ERR; /* thousands of nested operators (`1 + 1 + ... + 1`) */
    }
    plan_ectx *cx = ac->cx;
    plan_expr *e = arena_calloc(cx->a, 1, sizeof *e);
    e->src = x;
    e->op = x->op;
    e->negated = x->negated;
    e->has_operand = x->has_operand;
    e->has_else = x->has_else;
    e->nargs = x->nargs;
    e->cast = x->cast;
    if (x->nargs) {
        e->args = arena_calloc(cx->a, x->nargs, sizeof(plan_expr *));
    }
    *out = e;
    for (size_t i = 0; i < ac->ncols; i++) {
        if (ac->cols[i].ast == x) { /* an aggregate computed below: its result column */
            bind_column(ac, (int)i, e);
            return DB_OK;
        }
    }
    switch (x->kind) {
    case PA_INT:
    case PA_DECIMAL:
    case PA_FLOAT:
    case PA_STRING:
    case PA_HEX:
    case PA_BIT:
    case PA_NULL:
    case PA_BOOL:
        return analyze_literal(ac, x, e, err);
    case PA_COLUMN: {
        int slot = bind_find(ac, x);
        if (slot >= 0) {
            bind_column(ac, slot, e);
            return DB_OK;
        }
        if (cx->outer && plan__subq_outer(cx, x, e)) { /* a column of an enclosing query */
            return DB_OK;
        }
        if (x->qual) {
            char full[400];
            if (x->db_qual) {
                snprintf(full, sizeof full, "%s.%s.%s", x->db_qual, x->qual, x->name);
            } else {
                snprintf(full, sizeof full, "%s.%s", x->qual, x->name);
            }
            return db_error_set(err, ER_BAD_FIELD_ERROR, full, ac->clause);
        }
        return db_error_set(err, ER_BAD_FIELD_ERROR, x->name, ac->clause);
    }
    case PA_SYSVAR: {
        int idx = plan__sysvar_find(x->name);
        if (idx < 0) {
            return db_error_set(err, ER_UNKNOWN_SYSTEM_VARIABLE, x->name);
        }
        const plan_sysvar_def *d = plan__sysvar_def((size_t)idx);
        if (x->op == PLAN_SCOPE_GLOBAL && !(d->scope & PLAN_SV_GLOBAL)) {
            return db_error_set(err, ER_INCORRECT_GLOBAL_LOCAL_VAR, x->name, "SESSION");
        }
        if (x->op == PLAN_SCOPE_SESSION && !(d->scope & PLAN_SV_SESSION)) {
            return db_error_set(err, ER_INCORRECT_GLOBAL_LOCAL_VAR, x->name, "GLOBAL");
        }
        e->slot = idx;
        e->scope = (plan_scope)x->op;
        e->name = x->name;
        plan__sysvar_type(idx, &e->t);
        e->vk = e->t.type == PLAN_TYPE_BIGINT
                        ? PV_INT
                        : (e->t.type == PLAN_TYPE_DECIMAL ? PV_DECIMAL : PV_STRING);
        e->eval = eval_sysvar;
        return DB_OK;
    }
    case PA_USERVAR:
    case PA_ASSIGN: {
        e->name = x->name;
        if (x->kind == PA_ASSIGN) {
            if (analyze(ac, x->args[0], &e->args[0], err) != DB_OK) {
                return DB_ERR;
            }
            e->t = e->args[0]->t;
            e->vk = e->args[0]->vk;
            e->eval = eval_assign;
            return DB_OK;
        }
        const plan_uservar *u = plan__uservar_get(cx->s, x->name);
        plan_vkind k = u ? (plan_vkind)u->v.kind : PV_NULL;
        switch (k) {
        case PV_INT:
            plan__type_bigint(&e->t, 21, true);
            e->t.is_unsigned = u->v.is_unsigned;
            break;
        case PV_DOUBLE:
            plan__type_double(&e->t, true);
            break;
        case PV_DECIMAL:
            plan__type_decimal(&e->t, PLAN_DEC_MAX_PREC, u->v.scale, true);
            break;
        default:
            plan__type_string(&e->t, 16777216, true);
            e->t.type = PLAN_TYPE_STRING;
            k = k == PV_NULL ? PV_NULL : PV_STRING;
            break;
        }
        e->vk = k == PV_NULL ? PV_STRING : k;
        e->eval = eval_uservar;
        return DB_OK;
    }
    case PA_FUNC:
        if (strcmp(x->name, "(") == 0) {
            return analyze(ac, x->args[0], out, err);
        }
        return analyze_func(ac, x, e, err);
    case PA_STAR:
        return db_error_set(err, ER_NO_TABLES_USED);
    case PA_WINDOW: { /* only the select list and ORDER BY bind window results (plan_window.c) */
        char *lname = arena_strdup(cx->a, x->name);
        str_lower(lname, strlen(lname));
        return db_error_set(err, ER_WINDOW_INVALID_WINDOW_FUNC_USE, lname);
    }
    case PA_PARAM:
        analyze_param(ac, x, e);
        return DB_OK;
    case PA_SUBQUERY:
        for (uint32_t i = 0; i < x->nargs; i++) {
            if (analyze(ac, x->args[i], &e->args[i], err) != DB_OK) {
                return DB_ERR;
            }
        }
        return plan__subq_analyze(cx, x, ac->cols, ac->ncols, e, err);
    default:
        break;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (x->args[i] && analyze(ac, x->args[i], &e->args[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    /* Hex literals in numeric context. */
    if (x->kind == PA_BINARY || x->kind == PA_UNARY || x->kind == PA_BETWEEN || x->kind == PA_IN) {
        bool arith = x->kind == PA_UNARY ||
                     (x->kind == PA_BINARY &&
                      (x->op == XOP_PLUS || x->op == XOP_MINUS || x->op == XOP_MUL ||
                       x->op == XOP_DIV || x->op == XOP_INTDIV || x->op == XOP_MOD));
        bool any_num = false;
        for (uint32_t i = 0; i < e->nargs; i++) {
            any_num |= is_numeric(e->args[i]) && !e->args[i]->t.is_binary;
        }
        for (uint32_t i = 0; i < e->nargs; i++) {
            if (arith || any_num) {
                hex_as_int(e->args[i]);
            }
        }
    }
    if (x->kind == PA_CONVERT_USING || x->kind == PA_COLLATE) {
        if (x->kind == PA_CONVERT_USING) {
            const plan_collation *c = plan__charset_default(x->qual);
            if (!c) {
                return db_error_set(err, ER_UNKNOWN_CHARACTER_SET, x->qual);
            }
            e->op = strcmp(c->charset, "binary") == 0 ? 2 : 0;
        } else {
            const plan_collation *c = plan__collation_by_name(x->qual);
            if (!c) {
                return db_error_set(err, ER_UNKNOWN_COLLATION, x->qual);
            }
            size_t n = strlen(c->name);
            bool bin_coll = n > 4 && strcmp(c->name + n - 4, "_bin") == 0;
            e->op = strcmp(c->charset, "binary") == 0 ? 2 : (bin_coll ? 3 : 0);
        }
    }
    return plan__op_type(cx, e, x->kind, err);
}

int
plan__analyze(plan_ectx *cx, const plan_ast *ast, const plan_bind_col *cols, size_t ncols,
              const char *clause, plan_expr **out, db_error *err)
{
    actx ac = {cx, cols, ncols, clause};
    return analyze(&ac, ast, out, err);
}

/* ---- printing (MySQL's Item::print, for error messages) ---- */

static void put(arena *a, char **buf, size_t *len, size_t *cap, const char *s, size_t n);

static void
put(arena *a, char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t ncap = (*cap + n + 1) * 2;
        char *nb = arena_alloc(a, ncap);
        memcpy(nb, *buf, *len);
        *buf = nb;
        *cap = ncap;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
}

static const char *
op_text(int op)
{
    switch (op) {
    case XOP_PLUS:
        return "+";
    case XOP_MINUS:
        return "-";
    case XOP_MUL:
        return "*";
    case XOP_DIV:
        return "/";
    case XOP_INTDIV:
        return "DIV";
    case XOP_MOD:
        return "%";
    case XOP_EQ:
        return "=";
    case XOP_NSEQ:
        return "<=>";
    case XOP_NE:
        return "<>";
    case XOP_LT:
        return "<";
    case XOP_LE:
        return "<=";
    case XOP_GT:
        return ">";
    case XOP_GE:
        return ">=";
    case XOP_AND:
        return "and";
    case XOP_OR:
        return "or";
    case XOP_XOR:
        return "xor";
    case XOP_BITAND:
        return "&";
    case XOP_BITOR:
        return "|";
    case XOP_BITXOR:
        return "^";
    case XOP_LSHIFT:
        return "<<";
    case XOP_RSHIFT:
        return ">>";
    default:
        return "?";
    }
}

static void
print_ast(arena *a, const char *sql, const plan_ast *x, char **buf, size_t *len, size_t *cap)
{
#define PUTS(s) put(a, buf, len, cap, (s), strlen(s))
    switch (x->kind) {
    case PA_INT:
    case PA_DECIMAL:
    case PA_FLOAT:
        PUTS(x->name);
        return;
    case PA_STRING:
        PUTS("'");
        put(a, buf, len, cap, x->str, x->len);
        PUTS("'");
        return;
    case PA_NULL:
        PUTS("NULL");
        return;
    case PA_BOOL:
        PUTS(x->op ? "1" : "0");
        return;
    case PA_COLUMN:
        PUTS("`");
        PUTS(x->name);
        PUTS("`");
        return;
    case PA_USERVAR:
        PUTS("(@");
        PUTS(x->name);
        PUTS(")");
        return;
    case PA_UNARY:
        PUTS(x->op == XOP_MINUS
                     ? "-("
                     : (x->op == XOP_BITNOT ? "~(" : (x->op == XOP_PLUS ? "(" : "(not(")));
        print_ast(a, sql, x->args[0], buf, len, cap);
        PUTS(x->op == XOP_NOT ? "))" : ")");
        return;
    case PA_BINARY:
        PUTS("(");
        print_ast(a, sql, x->args[0], buf, len, cap);
        PUTS(" ");
        PUTS(op_text(x->op));
        PUTS(" ");
        print_ast(a, sql, x->args[1], buf, len, cap);
        PUTS(")");
        return;
    case PA_FUNC: {
        if (strcmp(x->name, "(") == 0) {
            print_ast(a, sql, x->args[0], buf, len, cap);
            return;
        }
        char *n = arena_strdup(a, x->name);
        str_lower(n, strlen(n));
        PUTS(n);
        PUTS("(");
        for (uint32_t i = 0; i < x->nargs; i++) {
            if (i) {
                PUTS(",");
            }
            print_ast(a, sql, x->args[i], buf, len, cap);
        }
        PUTS(")");
        return;
    }
    default:
        put(a, buf, len, cap, sql + x->off, x->end - x->off);
        return;
    }
#undef PUTS
}

const char *
plan__ast_print(arena *a, const char *sql, const plan_ast *x)
{
    size_t len = 0, cap = 64;
    char *buf = arena_alloc(a, cap);
    buf[0] = '\0';
    print_ast(a, sql, x, &buf, &len, &cap);
    return buf;
}

/* The value of a plain literal (number, string, NULL, TRUE/FALSE, or a minus sign before a
 * number) without building an expression: INSERT ... VALUES takes this path for most cells.
 * false for anything else (the caller analyses and evaluates it). */
bool
plan__literal_value(const plan_ast *x, plan_value *out)
{
    bool neg = false;
    if (x->kind == PA_UNARY && x->op == XOP_MINUS && x->nargs == 1 &&
        (x->args[0]->kind == PA_INT || x->args[0]->kind == PA_DECIMAL)) {
        neg = true;
        x = x->args[0];
    }
    switch (x->kind) {
    case PA_INT: {
        uint64_t v = 0;
        for (const char *p = x->name; *p; p++) {
            unsigned d = (unsigned)(*p - '0');
            if (v > (UINT64_MAX - d) / 10) {
                return false;
            }
            v = v * 10 + d;
        }
        if (neg) {
            if (v > (uint64_t)INT64_MAX + 1) {
                return false;
            }
            *out = plan__v_int(v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v);
        } else {
            *out = v <= INT64_MAX ? plan__v_int((int64_t)v) : plan__v_uint(v);
        }
        return true;
    }
    case PA_DECIMAL: {
        __int128 d;
        int scale;
        if (!plan__dec_parse(x->name, strlen(x->name), &d, &scale)) {
            return false;
        }
        *out = plan__v_dec(neg ? -d : d, scale);
        return true;
    }
    case PA_STRING:
        *out = plan__v_str(x->str, x->len);
        return true;
    case PA_NULL:
        *out = plan__v_null();
        return true;
    case PA_BOOL:
        *out = plan__v_int(x->op);
        return true;
    default:
        return false;
    }
}
