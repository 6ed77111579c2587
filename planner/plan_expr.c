/* SPDX-License-Identifier: Apache-2.0
 * plan_expr.c: typing and evaluation of operators (arithmetic, comparison, logic, bit ops,
 * IS / BETWEEN / IN / LIKE, CASE, CAST, CONVERT ... USING, COLLATE) with MySQL semantics.
 * Evaluation is one row at a time for now. See README.md §Expressions. */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

static int div_by_zero(plan_ectx *cx, plan_value *out);
static int eval_args2(plan_ectx *cx, const plan_expr *e, plan_value *l, plan_value *r,
                      db_error *err);
static int eval_arith(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_divide(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_intdiv(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_mod(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_neg(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_ident(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_not(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_bitnot(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_bitop(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_cmp(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_logic(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_is(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_between(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_in(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_like(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_case(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_cast(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int eval_concat_op(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int type_cast(plan_ectx *cx, plan_expr *e, db_error *err);
static int num_class(const plan_expr *x);
static void warn_truncated(plan_ectx *cx, const char *type, const plan_value *v);

enum { NC_INT = 0, NC_DEC = 1, NC_DBL = 2 };

/* ---- shared type helpers ---- */

uint32_t
plan__dec_length(int precision, int scale, bool is_unsigned)
{
    uint32_t len =
            (uint32_t)(precision + (scale > 0 ? 1 : 0) + (is_unsigned || !precision ? 0 : 1));
    return len ? len : 1;
}

int
plan__num_prec(const plan_xtype *t)
{
    switch (t->type) {
    case PLAN_TYPE_DECIMAL:
    case PLAN_TYPE_LARGEINT:
        return t->precision;
    case PLAN_TYPE_BOOLEAN:
    case PLAN_TYPE_TINYINT:
    case PLAN_TYPE_SMALLINT:
    case PLAN_TYPE_INT:
    case PLAN_TYPE_BIGINT: {
        int p = (int)t->length - (t->is_unsigned ? 0 : 1);
        if (t->precision) {
            p = t->precision; /* literals record their digit count */
        }
        return p < 1 ? 1 : (p > 20 ? 20 : p);
    }
    default:
        return 17;
    }
}

/* INT, DECIMAL or DOUBLE arithmetic for an argument (strings and dates count as DOUBLE). */
static int
num_class(const plan_expr *x)
{
    switch (x->vk) {
    case PV_INT:
    case PV_NULL:
        return NC_INT;
    case PV_DECIMAL:
        return NC_DEC;
    default:
        return NC_DBL;
    }
}

int
plan__out_of_range(plan_ectx *cx, const plan_expr *e, const char *type, db_error *err)
{
    const char *txt = e->src ? plan__ast_print(cx->a, cx->sql, e->src) : "";
    return db_error_set(err, ER_DATA_OUT_OF_RANGE, type, txt);
}

static void
warn_truncated(plan_ectx *cx, const char *type, const plan_value *v)
{
    if (v->kind == PV_STRING) {
        plan__warn(cx->s, 1292, "Truncated incorrect %s value: '%.*s'", type,
                   (int)(v->str.len > 128 ? 128 : v->str.len), v->str.s);
    }
}

bool
plan__v_string(plan_ectx *cx, const plan_value *v, const char **s, size_t *len)
{
    if (v->kind == PV_NULL) {
        *s = NULL;
        *len = 0;
        return false;
    }
    *s = plan__v_text(cx->a, v, len);
    return true;
}

void
plan__agg_type(plan_expr *const *xs, size_t n, plan_xtype *t, plan_vkind *vk)
{
    bool any = false, all_int = true, any_dbl = false, any_str = false, any_bin = false;
    bool all_unsigned = true, nullable = false;
    int intg = 0, scale = 0;
    uint32_t len = 0;
    plan_vkind dt = PV_NULL;
    bool dt_same = true;
    for (size_t i = 0; i < n; i++) {
        const plan_expr *x = xs[i];
        if (!x) {
            continue;
        }
        nullable |= x->t.nullable;
        /* A NULL literal, or a column of type NULL (a derived table's or an inner set
         * operation's `NULL` column, bound with a string batch kind) decides nothing. */
        if (x->vk == PV_NULL || x->t.type == PLAN_TYPE_NULL) {
            nullable = true;
            continue;
        }
        any = true;
        uint32_t sl = plan__type_strlen(&x->t);
        len = sl > len ? sl : len;
        switch (x->vk) {
        case PV_INT:
            all_unsigned &= x->t.is_unsigned;
            intg = plan__num_prec(&x->t) > intg ? plan__num_prec(&x->t) : intg;
            break;
        case PV_DECIMAL:
            all_int = false;
            all_unsigned = false;
            intg = x->t.precision - x->t.scale > intg ? x->t.precision - x->t.scale : intg;
            scale = x->t.scale > scale ? x->t.scale : scale;
            break;
        case PV_DOUBLE:
            all_int = false;
            any_dbl = true;
            break;
        case PV_DATE:
        case PV_DATETIME:
        case PV_TIME:
            all_int = false;
            if (dt != PV_NULL && dt != x->vk) {
                dt_same = false;
            }
            dt = x->vk;
            break;
        default:
            any_str = true;
            any_bin |= x->t.is_binary;
            break;
        }
    }
    memset(t, 0, sizeof *t);
    t->nullable = nullable;
    if (!any) {
        t->type = PLAN_TYPE_NULL;
        t->nullable = true;
        *vk = PV_NULL;
        return;
    }
    bool any_num = false;
    for (size_t i = 0; i < n; i++) {
        if (xs[i] && (xs[i]->vk == PV_INT || xs[i]->vk == PV_DECIMAL || xs[i]->vk == PV_DOUBLE)) {
            any_num = true;
        }
    }
    if (dt != PV_NULL && !any_str && !any_num && dt_same) {
        plan__type_datetime(t,
                            dt == PV_DATE ? PLAN_TYPE_DATE
                                          : (dt == PV_TIME ? PLAN_TYPE_TIME : PLAN_TYPE_DATETIME),
                            0, nullable);
        *vk = dt;
        return;
    }
    if (any_str || dt != PV_NULL) {
        plan__type_string(t, len, nullable);
        t->is_binary = any_bin;
        *vk = PV_STRING;
        return;
    }
    if (any_dbl) {
        plan__type_double(t, nullable);
        *vk = PV_DOUBLE;
        return;
    }
    if (all_int) {
        plan__type_bigint(t, (uint32_t)intg + (all_unsigned ? 0 : 1), nullable);
        t->is_unsigned = all_unsigned;
        *vk = PV_INT;
        return;
    }
    int prec = intg + scale > PLAN_DEC_MAX_PREC ? PLAN_DEC_MAX_PREC : intg + scale;
    plan__type_decimal(t, prec, scale, nullable);
    *vk = PV_DECIMAL;
}

int
plan__coerce(plan_ectx *cx, plan_value *v, plan_vkind vk, const plan_xtype *t, db_error *err)
{
    if (v->kind == PV_NULL || v->kind == vk || vk == PV_NULL) {
        if (v->kind == PV_DECIMAL && vk == PV_DECIMAL && v->scale != t->scale) {
            __int128 d;
            if (!plan__dec_rescale(v->dec, v->scale, t->scale, &d)) {
                return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL", "");
            }
            *v = plan__v_dec(d, t->scale);
        }
        return DB_OK;
    }
    switch (vk) {
    case PV_STRING: {
        size_t len;
        const char *s = plan__v_text(cx->a, v, &len);
        *v = plan__v_str(s, len);
        return DB_OK;
    }
    case PV_INT:
        *v = t->is_unsigned ? plan__v_uint(plan__v_to_uint(v, NULL))
                            : plan__v_int(plan__v_to_int(v, NULL));
        return DB_OK;
    case PV_DOUBLE:
        *v = plan__v_double(plan__v_to_double(v, NULL));
        return DB_OK;
    case PV_DECIMAL: {
        __int128 d;
        if (!plan__v_to_dec(v, t->scale, &d, NULL)) {
            return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL", "");
        }
        *v = plan__v_dec(d, t->scale);
        return DB_OK;
    }
    default: {
        plan_cast c = {vk == PV_DATE ? PLAN_CAST_DATE
                                     : (vk == PV_TIME ? PLAN_CAST_TIME : PLAN_CAST_DATETIME),
                       -1, t->scale, PLAN_TYPE_NULL, false};
        plan_value in = *v;
        return plan__v_cast(cx, &in, &c, v, err);
    }
    }
}

/* ---- comparison ---- */

plan_cmp_mode
plan__cmp_mode(const plan_expr *l, const plan_expr *r)
{
    plan_vkind a = l->vk, b = r->vk;
    if (a == PV_NULL) {
        a = b;
    }
    if (b == PV_NULL) {
        b = a;
    }
    bool adt = a == PV_DATE || a == PV_DATETIME || a == PV_TIME;
    bool bdt = b == PV_DATE || b == PV_DATETIME || b == PV_TIME;
    if (a == PV_STRING && b == PV_STRING) {
        bool bin = l->t.is_binary || r->t.is_binary || l->t.is_bin_coll || r->t.is_bin_coll;
        return bin ? PLAN_CMP_BINARY : PLAN_CMP_STRING;
    }
    if ((adt && (bdt || b == PV_STRING)) || (bdt && a == PV_STRING)) {
        return PLAN_CMP_DATETIME;
    }
    if (a == PV_INT && b == PV_INT) {
        return (l->t.is_unsigned || r->t.is_unsigned) ? PLAN_CMP_UINT : PLAN_CMP_INT;
    }
    if ((a == PV_INT || a == PV_DECIMAL) && (b == PV_INT || b == PV_DECIMAL)) {
        return PLAN_CMP_DECIMAL;
    }
    return PLAN_CMP_DOUBLE;
}

static int str_cmp_ci(plan_ectx *cx, const char *a, size_t al, const char *b, size_t bl, bool ci);

/* ci: utf8mb4_general_ci-like, PAD SPACE (plan__cmp_ci); otherwise bytewise (binary). */
static int
str_cmp_ci(plan_ectx *cx, const char *a, size_t al, const char *b, size_t bl, bool ci)
{
    if (ci) {
        return plan__cmp_ci(cx->s->srv->ctype, a, al, b, bl);
    }
    size_t n = al < bl ? al : bl;
    int c = n > 0 ? memcmp(a, b, n) : 0;
    if (c != 0) {
        return c < 0 ? -1 : 1;
    }
    return al < bl ? -1 : (al > bl ? 1 : 0);
}

static int to_dt(plan_ectx *cx, const plan_value *v, int64_t *us);

static int
to_dt(plan_ectx *cx, const plan_value *v, int64_t *us)
{
    if (v->kind == PV_DATE || v->kind == PV_DATETIME || v->kind == PV_TIME) {
        *us = v->us;
        return 0;
    }
    const char *s;
    size_t len;
    plan__v_string(cx, v, &s, &len);
    bool has_time;
    return plan__parse_datetime(s, len, us, &has_time) ? 0 : -1;
}

int
plan__compare(plan_ectx *cx, plan_cmp_mode mode, const plan_value *l, const plan_value *r)
{
    switch (mode) {
    case PLAN_CMP_INT: {
        int64_t a = plan__v_to_int(l, NULL), b = plan__v_to_int(r, NULL);
        return a < b ? -1 : (a > b);
    }
    case PLAN_CMP_UINT: {
        __int128 a = (l->kind == PV_INT && l->is_unsigned) ? (__int128)l->u
                                                           : (__int128)plan__v_to_int(l, NULL);
        __int128 b = (r->kind == PV_INT && r->is_unsigned) ? (__int128)r->u
                                                           : (__int128)plan__v_to_int(r, NULL);
        return a < b ? -1 : (a > b);
    }
    case PLAN_CMP_DECIMAL: {
        if (l->kind == PV_DECIMAL && r->kind == PV_DECIMAL && l->scale == r->scale) {
            return l->dec < r->dec ? -1 : (l->dec > r->dec); /* same scale: no rescaling */
        }
        int sa = l->kind == PV_DECIMAL ? l->scale : 0, sb = r->kind == PV_DECIMAL ? r->scale : 0;
        int sc = sa > sb ? sa : sb;
        __int128 a, b;
        if (plan__v_to_dec(l, sc, &a, NULL) && plan__v_to_dec(r, sc, &b, NULL)) {
            return a < b ? -1 : (a > b);
        }
        mode = PLAN_CMP_DOUBLE;
        break;
    }
    case PLAN_CMP_STRING:
    case PLAN_CMP_BINARY: {
        const char *a, *b;
        size_t al, bl;
        plan__v_string(cx, l, &a, &al);
        plan__v_string(cx, r, &b, &bl);
        return str_cmp_ci(cx, a, al, b, bl, mode == PLAN_CMP_STRING);
    }
    case PLAN_CMP_DATETIME: {
        int64_t a, b;
        if (to_dt(cx, l, &a) == 0 && to_dt(cx, r, &b) == 0) {
            return a < b ? -1 : (a > b);
        }
        return plan__compare(cx, PLAN_CMP_STRING, l, r);
    }
    case PLAN_CMP_DOUBLE:
        break;
    }
    bool ta, tb;
    double a = plan__v_to_double(l, &ta), b = plan__v_to_double(r, &tb);
    if (ta) {
        warn_truncated(cx, "DOUBLE", l);
    }
    if (tb) {
        warn_truncated(cx, "DOUBLE", r);
    }
    return a < b ? -1 : (a > b);
}

/* ---- evaluation ---- */

/* x / 0, x DIV 0, x MOD 0: NULL with warning 1365, as MySQL (ERROR_FOR_DIVISION_BY_ZERO only
 * matters for writes). */
static int
div_by_zero(plan_ectx *cx, plan_value *out)
{
    plan__warn(cx->s, 1365, "Division by 0");
    *out = plan__v_null();
    return DB_OK;
}

static int
eval_args2(plan_ectx *cx, const plan_expr *e, plan_value *l, plan_value *r, db_error *err)
{
    if (plan__eval(cx, e->args[0], l, err) != DB_OK) {
        return DB_ERR;
    }
    return plan__eval(cx, e->args[1], r, err);
}

static int
eval_ident(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    return plan__eval(cx, e->args[0], out, err);
}

static double num_double(plan_ectx *cx, const plan_value *v);

static double
num_double(plan_ectx *cx, const plan_value *v)
{
    bool tr;
    double d = plan__v_to_double(v, &tr);
    if (tr) {
        warn_truncated(cx, "DOUBLE", v);
    }
    return d;
}

static int
eval_arith(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    if (l.kind == PV_NULL || r.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (e->vk == PV_INT) {
        __int128 a = l.is_unsigned ? (__int128)l.u : (__int128)plan__v_to_int(&l, NULL);
        __int128 b = r.is_unsigned ? (__int128)r.u : (__int128)plan__v_to_int(&r, NULL);
        __int128 x;
        if (e->op == XOP_MUL) {
            if (__builtin_mul_overflow(a, b, &x)) {
                return plan__out_of_range(cx, e, e->t.is_unsigned ? "BIGINT UNSIGNED" : "BIGINT",
                                          err);
            }
        } else {
            x = e->op == XOP_PLUS ? a + b : a - b;
        }
        if (e->t.is_unsigned) {
            if (x < 0 || x > (__int128)UINT64_MAX) {
                return plan__out_of_range(cx, e, "BIGINT UNSIGNED", err);
            }
            *out = plan__v_uint((uint64_t)x);
        } else {
            if (x < INT64_MIN || x > INT64_MAX) {
                return plan__out_of_range(cx, e, "BIGINT", err);
            }
            *out = plan__v_int((int64_t)x);
        }
        return DB_OK;
    }
    if (e->vk == PV_DECIMAL) {
        int sa = l.kind == PV_DECIMAL ? l.scale : 0, sb = r.kind == PV_DECIMAL ? r.scale : 0;
        __int128 a, b, x;
        if (e->op == XOP_MUL) {
            if (!plan__v_to_dec(&l, sa, &a, NULL) || !plan__v_to_dec(&r, sb, &b, NULL) ||
                __builtin_mul_overflow(a, b, &x) ||
                !plan__dec_rescale(x, sa + sb, e->t.scale, &x)) {
                return plan__out_of_range(cx, e, "DECIMAL", err);
            }
        } else {
            int sc = e->t.scale;
            if (!plan__v_to_dec(&l, sc, &a, NULL) || !plan__v_to_dec(&r, sc, &b, NULL)) {
                return plan__out_of_range(cx, e, "DECIMAL", err);
            }
            x = e->op == XOP_PLUS ? a + b : a - b;
        }
        if (plan__dec_digits(x) > PLAN_DEC_MAX_PREC) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
        *out = plan__v_dec(x, e->t.scale);
        return DB_OK;
    }
    double a = num_double(cx, &l), b = num_double(cx, &r);
    double x = e->op == XOP_PLUS ? a + b : (e->op == XOP_MINUS ? a - b : a * b);
    if (!isfinite(x)) {
        return plan__out_of_range(cx, e, "DOUBLE", err);
    }
    *out = plan__v_double(x);
    return DB_OK;
}

static int
eval_divide(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    if (l.kind == PV_NULL || r.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (e->vk == PV_DECIMAL) {
        int sa = l.kind == PV_DECIMAL ? l.scale : 0, sb = r.kind == PV_DECIMAL ? r.scale : 0;
        __int128 a, b;
        if (!plan__v_to_dec(&l, sa, &a, NULL) || !plan__v_to_dec(&r, sb, &b, NULL)) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
        if (b == 0) {
            return div_by_zero(cx, out);
        }
        /* q = a / b at scale S+1, then round to S: a * 10^(S + 1 - sa + sb) / b. */
        int shift = e->t.scale + 1 - sa + sb;
        __int128 num = a, q;
        if (shift >= 0) {
            if (shift > 38 || __builtin_mul_overflow(a, plan__pow10(shift), &num)) {
                return plan__out_of_range(cx, e, "DECIMAL", err);
            }
            q = num / b;
        } else {
            __int128 div;
            q = __builtin_mul_overflow(b, plan__pow10(-shift), &div) ? 0 : a / div;
        }
        __int128 res;
        plan__dec_rescale(q, e->t.scale + 1, e->t.scale, &res);
        if (plan__dec_digits(res) > PLAN_DEC_MAX_PREC) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
        *out = plan__v_dec(res, e->t.scale);
        return DB_OK;
    }
    double a = num_double(cx, &l), b = num_double(cx, &r);
    if (b == 0) {
        return div_by_zero(cx, out);
    }
    double x = a / b;
    if (!isfinite(x)) {
        return plan__out_of_range(cx, e, "DOUBLE", err);
    }
    *out = plan__v_double(x);
    return DB_OK;
}

static int
eval_intdiv(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    if (l.kind == PV_NULL || r.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    __int128 q;
    if (l.kind == PV_INT && r.kind == PV_INT) {
        __int128 a = l.is_unsigned ? (__int128)l.u : (__int128)l.i;
        __int128 b = r.is_unsigned ? (__int128)r.u : (__int128)r.i;
        if (b == 0) {
            return div_by_zero(cx, out);
        }
        q = a / b;
    } else {
        double a = num_double(cx, &l), b = num_double(cx, &r);
        if (b == 0) {
            return div_by_zero(cx, out);
        }
        double x = trunc(a / b);
        if (!(x > -1.8e19 && x < 1.9e19)) {
            return plan__out_of_range(cx, e, "BIGINT", err);
        }
        q = (__int128)x;
    }
    if (e->t.is_unsigned) {
        if (q < 0 || q > (__int128)UINT64_MAX) {
            return plan__out_of_range(cx, e, "BIGINT UNSIGNED", err);
        }
        *out = plan__v_uint((uint64_t)q);
    } else {
        if (q < INT64_MIN || q > INT64_MAX) {
            return plan__out_of_range(cx, e, "BIGINT", err);
        }
        *out = plan__v_int((int64_t)q);
    }
    return DB_OK;
}

static int
eval_mod(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    if (l.kind == PV_NULL || r.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    if (e->vk == PV_INT) {
        __int128 a = l.is_unsigned ? (__int128)l.u : (__int128)plan__v_to_int(&l, NULL);
        __int128 b = r.is_unsigned ? (__int128)r.u : (__int128)plan__v_to_int(&r, NULL);
        if (b == 0) {
            return div_by_zero(cx, out);
        }
        __int128 x = a % b;
        *out = e->t.is_unsigned ? plan__v_uint((uint64_t)x) : plan__v_int((int64_t)x);
        return DB_OK;
    }
    if (e->vk == PV_DECIMAL) {
        int sc = e->t.scale;
        __int128 a, b;
        if (!plan__v_to_dec(&l, sc, &a, NULL) || !plan__v_to_dec(&r, sc, &b, NULL)) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
        if (b == 0) {
            return div_by_zero(cx, out);
        }
        *out = plan__v_dec(a % b, sc);
        return DB_OK;
    }
    double a = num_double(cx, &l), b = num_double(cx, &r);
    if (b == 0) {
        return div_by_zero(cx, out);
    }
    *out = plan__v_double(fmod(a, b));
    return DB_OK;
}

static int
eval_neg(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (v.kind == PV_NULL) {
        *out = v;
        return DB_OK;
    }
    if (e->vk == PV_INT) {
        __int128 a = v.is_unsigned ? (__int128)v.u : (__int128)plan__v_to_int(&v, NULL);
        if (-a < INT64_MIN || -a > INT64_MAX) {
            return plan__out_of_range(cx, e, "BIGINT", err);
        }
        *out = plan__v_int((int64_t)-a);
        return DB_OK;
    }
    if (e->vk == PV_DECIMAL) {
        __int128 d;
        if (!plan__v_to_dec(&v, e->t.scale, &d, NULL)) {
            return plan__out_of_range(cx, e, "DECIMAL", err);
        }
        *out = plan__v_dec(-d, e->t.scale);
        return DB_OK;
    }
    *out = plan__v_double(-num_double(cx, &v));
    return DB_OK;
}

static int
eval_not(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    int t = plan__v_truth(&v);
    *out = t < 0 ? plan__v_null() : plan__v_int(!t);
    return DB_OK;
}

static int
eval_bitnot(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = v.kind == PV_NULL ? v : plan__v_uint(~plan__v_to_uint(&v, NULL));
    return DB_OK;
}

static int
eval_bitop(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    if (l.kind == PV_NULL || r.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    uint64_t a = plan__v_to_uint(&l, NULL), b = plan__v_to_uint(&r, NULL), x;
    switch (e->op) {
    case XOP_BITAND:
        x = a & b;
        break;
    case XOP_BITOR:
        x = a | b;
        break;
    case XOP_BITXOR:
        x = a ^ b;
        break;
    case XOP_LSHIFT:
        x = b >= 64 ? 0 : a << b;
        break;
    default:
        x = b >= 64 ? 0 : a >> b;
        break;
    }
    *out = plan__v_uint(x);
    return DB_OK;
}

static int
eval_cmp(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    if (e->op == XOP_NSEQ) {
        if (l.kind == PV_NULL || r.kind == PV_NULL) {
            *out = plan__v_int(l.kind == PV_NULL && r.kind == PV_NULL);
            return DB_OK;
        }
        *out = plan__v_int(plan__compare(cx, e->cmp, &l, &r) == 0);
        return DB_OK;
    }
    if (l.kind == PV_NULL || r.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    int c = plan__compare(cx, e->cmp, &l, &r);
    bool res;
    switch (e->op) {
    case XOP_EQ:
        res = c == 0;
        break;
    case XOP_NE:
        res = c != 0;
        break;
    case XOP_LT:
        res = c < 0;
        break;
    case XOP_LE:
        res = c <= 0;
        break;
    case XOP_GT:
        res = c > 0;
        break;
    default:
        res = c >= 0;
        break;
    }
    *out = plan__v_int(res);
    return DB_OK;
}

/* AND / OR / XOR with SQL three-valued logic; AND and OR short-circuit. */
static int
eval_logic(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (plan__eval(cx, e->args[0], &l, err) != DB_OK) {
        return DB_ERR;
    }
    int a = plan__v_truth(&l);
    if (e->op == XOP_AND && a == 0) {
        *out = plan__v_int(0);
        return DB_OK;
    }
    if (e->op == XOP_OR && a == 1) {
        *out = plan__v_int(1);
        return DB_OK;
    }
    if (plan__eval(cx, e->args[1], &r, err) != DB_OK) {
        return DB_ERR;
    }
    int b = plan__v_truth(&r);
    int res;
    if (e->op == XOP_AND) {
        res = b == 0 ? 0 : (a < 0 || b < 0 ? -1 : 1);
    } else if (e->op == XOP_OR) {
        res = b == 1 ? 1 : (a < 0 || b < 0 ? -1 : 0);
    } else {
        res = (a < 0 || b < 0) ? -1 : (a != b);
    }
    *out = res < 0 ? plan__v_null() : plan__v_int(res);
    return DB_OK;
}

static int
eval_is(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    int t = plan__v_truth(&v);
    bool res;
    if (e->op == XOP_IS_NULL) {
        res = t < 0;
    } else if (e->op == XOP_IS_TRUE) {
        res = t == 1;
    } else {
        res = t == 0;
    }
    *out = plan__v_int(res != e->negated);
    return DB_OK;
}

static int
eval_between(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value x, lo, hi;
    if (plan__eval(cx, e->args[0], &x, err) != DB_OK ||
        plan__eval(cx, e->args[1], &lo, err) != DB_OK ||
        plan__eval(cx, e->args[2], &hi, err) != DB_OK) {
        return DB_ERR;
    }
    if (x.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    /* x >= lo AND x <= hi with three-valued logic. */
    int a = lo.kind == PV_NULL ? -1 : plan__compare(cx, e->cmp, &x, &lo) >= 0;
    int b = hi.kind == PV_NULL ? -1 : plan__compare(cx, e->cmp, &x, &hi) <= 0;
    int res = (a == 0 || b == 0) ? 0 : ((a < 0 || b < 0) ? -1 : 1);
    if (res >= 0 && e->negated) {
        res = !res;
    }
    *out = res < 0 ? plan__v_null() : plan__v_int(res);
    return DB_OK;
}

/* ---- long IN lists of constants (MySQL's in_vector) ----
 * `x IN (c1, ..., cn)` with at least PLAN_IN_SET_MIN constants that all compare with x in
 * one mode, x and the constants of kinds that mode compares without conversion warnings:
 * the non-NULL constants are sorted once at analysis (e->aux) and each row is a binary search,
 * O(log n) instead of n comparisons. The answer is the list's: a match is TRUE (IN) / FALSE
 * (NOT IN), no match is NULL when the list holds a NULL, else FALSE / TRUE. */
#define PLAN_IN_SET_MIN 8

typedef struct plan_in_set {
    plan_value *v; /* sorted by plan__compare(mode) */
    uint32_t n;
    bool has_null;
    plan_cmp_mode mode;
} plan_in_set;

typedef struct in_sort_ctx {
    plan_ectx *cx;
    plan_cmp_mode mode;
} in_sort_ctx;

static int
in_sort_cmp(const void *a, const void *b, void *ctx)
{
    const in_sort_ctx *c = ctx;
    return plan__compare(c->cx, c->mode, a, b);
}

/* Values of kind k compare in mode m without a conversion that could warn. */
static bool
in_native(plan_cmp_mode m, plan_vkind k)
{
    switch (m) {
    case PLAN_CMP_INT:
    case PLAN_CMP_UINT:
        return k == PV_INT;
    case PLAN_CMP_DECIMAL:
        return k == PV_INT || k == PV_DECIMAL;
    case PLAN_CMP_DOUBLE:
        return k == PV_INT || k == PV_DECIMAL || k == PV_DOUBLE;
    case PLAN_CMP_STRING:
    case PLAN_CMP_BINARY:
        return k == PV_STRING;
    case PLAN_CMP_DATETIME:
        return false;
    }
    return false;
}

static void
in_set_prepare(plan_ectx *cx, plan_expr *e)
{
    if (e->nargs < 1 + PLAN_IN_SET_MIN) {
        return;
    }
    bool has_null = false;
    int mode = -1;
    uint32_t n = 0;
    for (uint32_t i = 1; i < e->nargs; i++) {
        const plan_expr *a = e->args[i];
        if (plan__expr_leaf(a) != 2) {
            return;
        }
        if (a->lit.kind == PV_NULL) {
            has_null = true;
            continue;
        }
        plan_cmp_mode m = plan__cmp_mode(e->args[0], a);
        if ((mode >= 0 && (int)m != mode) || !in_native(m, a->lit.kind)) {
            return;
        }
        mode = (int)m;
        n++;
    }
    if (mode < 0 || !in_native((plan_cmp_mode)mode, e->args[0]->vk)) {
        return;
    }
    plan_in_set *set = arena_calloc(cx->a, 1, sizeof *set);
    set->v = arena_alloc(cx->a, n * sizeof *set->v);
    set->mode = (plan_cmp_mode)mode;
    set->has_null = has_null;
    for (uint32_t i = 1; i < e->nargs; i++) {
        if (e->args[i]->lit.kind != PV_NULL) {
            set->v[set->n++] = e->args[i]->lit;
        }
    }
    in_sort_ctx c = {cx, set->mode};
    qsort_r(set->v, set->n, sizeof *set->v, in_sort_cmp, &c);
    e->aux = set;
}

int
plan__in_set_find(plan_ectx *cx, const plan_expr *e, const plan_value *x)
{
    const plan_in_set *set = e->aux;
    if (set == NULL) {
        return -2;
    }
    uint32_t lo = 0, hi = set->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = plan__compare(cx, set->mode, x, &set->v[mid]);
        if (c == 0) {
            return 1;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return set->has_null ? -1 : 0;
}

static int
eval_in(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value x;
    if (plan__eval(cx, e->args[0], &x, err) != DB_OK) {
        return DB_ERR;
    }
    if (x.kind == PV_NULL) {
        *out = plan__v_null();
        return DB_OK;
    }
    int found = plan__in_set_find(cx, e, &x);
    if (found != -2) {
        *out = found < 0 ? plan__v_null() : plan__v_int(found ? !e->negated : e->negated);
        return DB_OK;
    }
    bool saw_null = false;
    for (uint32_t i = 1; i < e->nargs; i++) {
        plan_value v;
        if (plan__eval(cx, e->args[i], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            saw_null = true;
            continue;
        }
        if (plan__compare(cx, plan__cmp_mode(e->args[0], e->args[i]), &x, &v) == 0) {
            *out = plan__v_int(!e->negated);
            return DB_OK;
        }
    }
    *out = saw_null ? plan__v_null() : plan__v_int(e->negated);
    return DB_OK;
}

static int
eval_like(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value x, p, es;
    if (eval_args2(cx, e, &x, &p, err) != DB_OK) {
        return DB_ERR;
    }
    char esc = '\\';
    if (e->nargs == 3) {
        if (plan__eval(cx, e->args[2], &es, err) != DB_OK) {
            return DB_ERR;
        }
        const char *s;
        size_t len;
        if (plan__v_string(cx, &es, &s, &len) && len > 1) {
            return db_error_set(err, ER_WRONG_ARGUMENTS, "ESCAPE");
        }
        esc = (s && len == 1) ? s[0] : '\\';
    }
    const char *xs, *ps;
    size_t xl, pl;
    if (!plan__v_string(cx, &x, &xs, &xl) || !plan__v_string(cx, &p, &ps, &pl)) {
        *out = plan__v_null();
        return DB_OK;
    }
    bool ci = !e->args[0]->t.is_binary && !e->args[1]->t.is_binary;
    if (ci) {
        /* general_ci: compare the weights (case and accents folded); '%', '_' and an ASCII
         * escape keep their meaning (each character folds to one character). */
        xs = plan__ci_fold_in(cx, xs, &xl);
        ps = plan__ci_fold_in(cx, ps, &pl);
        if (esc >= 'a' && esc <= 'z') {
            esc = (char)(esc - 32);
        }
    }
    bool m = str_like(xs, xl, ps, pl, esc, false);
    *out = plan__v_int(m != e->negated);
    return DB_OK;
}

static int
eval_case(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    uint32_t i = 0, n = e->nargs - (e->has_else ? 1 : 0);
    plan_value op;
    if (e->has_operand) {
        if (plan__eval(cx, e->args[0], &op, err) != DB_OK) {
            return DB_ERR;
        }
        i = 1;
    }
    for (; i + 1 < n; i += 2) {
        plan_value w;
        if (plan__eval(cx, e->args[i], &w, err) != DB_OK) {
            return DB_ERR;
        }
        bool hit;
        if (e->has_operand) {
            hit = op.kind != PV_NULL && w.kind != PV_NULL &&
                  plan__compare(cx, plan__cmp_mode(e->args[0], e->args[i]), &op, &w) == 0;
        } else {
            hit = plan__v_truth(&w) == 1;
        }
        if (hit) {
            if (plan__eval(cx, e->args[i + 1], out, err) != DB_OK) {
                return DB_ERR;
            }
            return plan__coerce(cx, out, e->vk, &e->t, err);
        }
    }
    if (e->has_else) {
        if (plan__eval(cx, e->args[e->nargs - 1], out, err) != DB_OK) {
            return DB_ERR;
        }
        return plan__coerce(cx, out, e->vk, &e->t, err);
    }
    *out = plan__v_null();
    return DB_OK;
}

static int
eval_concat_op(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value l, r;
    if (eval_args2(cx, e, &l, &r, err) != DB_OK) {
        return DB_ERR;
    }
    const char *a, *b;
    size_t al, bl;
    if (!plan__v_string(cx, &l, &a, &al) || !plan__v_string(cx, &r, &b, &bl)) {
        *out = plan__v_null();
        return DB_OK;
    }
    char *s = arena_alloc(cx->a, al + bl + 1);
    memcpy(s, a, al);
    memcpy(s + al, b, bl);
    *out = plan__v_str(s, al + bl);
    return DB_OK;
}

/* ---- CAST ---- */

int
plan__v_cast(plan_ectx *cx, const plan_value *in, const plan_cast *c, plan_value *out,
             db_error *err)
{
    if (in->kind == PV_NULL) {
        *out = *in;
        return DB_OK;
    }
    if (c->doris) {
        return plan__v_cast_doris(cx, in, c, out, err);
    }
    bool tr = false;
    switch (c->kind) {
    case PLAN_CAST_SIGNED:
        *out = plan__v_int(plan__v_to_int(in, &tr));
        if (tr) {
            warn_truncated(cx, "INTEGER", in);
        }
        return DB_OK;
    case PLAN_CAST_UNSIGNED:
        *out = plan__v_uint(plan__v_to_uint(in, &tr));
        if (tr) {
            warn_truncated(cx, "INTEGER", in);
        }
        return DB_OK;
    case PLAN_CAST_DOUBLE:
        *out = plan__v_double(plan__v_to_double(in, &tr));
        if (tr) {
            warn_truncated(cx, "DOUBLE", in);
        }
        return DB_OK;
    case PLAN_CAST_DECIMAL: {
        int p = c->len < 0 ? 10 : (int)c->len, s = c->scale < 0 ? 0 : (int)c->scale;
        __int128 d, max = plan__pow10(p) - 1;
        if (!plan__v_to_dec(in, s, &d, &tr)) {
            d = plan__v_to_double(in, NULL) < 0 ? -max : max;
        }
        if (tr) {
            warn_truncated(cx, "DECIMAL", in);
        }
        if (d > max || d < -max) {
            d = d > 0 ? max : -max;
            plan__warn(cx->s, 1264, "Out of range value for column '%s' at row 1", "cast");
        }
        *out = plan__v_dec(d, s);
        return DB_OK;
    }
    case PLAN_CAST_CHAR:
    case PLAN_CAST_BINARY: {
        const char *s;
        size_t len;
        plan__v_string(cx, in, &s, &len);
        if (c->len >= 0) {
            /* Truncate to n characters (bytes for BINARY); BINARY(n) pads with zero bytes. */
            size_t n = (size_t)c->len, i = 0, chars = 0;
            if (c->kind == PLAN_CAST_CHAR) {
                while (i < len && chars < n) {
                    unsigned char b = (unsigned char)s[i];
                    i += b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : (b >= 0xC0 ? 2 : 1));
                    chars++;
                }
                i = i > len ? len : i;
            } else {
                i = len < n ? len : n;
            }
            if (i < len) {
                plan__warn(cx->s, 1292, "Truncated incorrect %s(%lld) value: '%.*s'",
                           c->kind == PLAN_CAST_CHAR ? "CHAR" : "BINARY", (long long)c->len,
                           (int)(len > 128 ? 128 : len), s);
            }
            if (c->kind == PLAN_CAST_BINARY && len < n) {
                if (n > (size_t)cx->max_packet) {
                    plan__warn(
                            cx->s, 1301,
                            "Result of cast_as_binary() was larger than max_allowed_packet (%lld) "
                            "- truncated",
                            (long long)cx->max_packet);
                    *out = plan__v_null();
                    return DB_OK;
                }
                char *b = arena_calloc(cx->a, n + 1, 1);
                memcpy(b, s, len);
                s = b;
                i = n;
            }
            len = i;
        }
        *out = plan__v_str(s, len);
        out->is_binary = c->kind == PLAN_CAST_BINARY;
        return DB_OK;
    }
    case PLAN_CAST_DATE:
    case PLAN_CAST_DATETIME:
    case PLAN_CAST_TIME: {
        int64_t us;
        bool ok, has_time = false;
        if (in->kind == PV_DATE || in->kind == PV_DATETIME) {
            us = in->us;
            ok = c->kind != PLAN_CAST_TIME;
            if (c->kind == PLAN_CAST_TIME) {
                int64_t day = 86400LL * 1000000;
                us = ((in->us % day) + day) % day;
                ok = true;
            }
        } else if (in->kind == PV_TIME) {
            us = in->us;
            ok = c->kind == PLAN_CAST_TIME;
        } else {
            const char *s;
            size_t len;
            plan__v_string(cx, in, &s, &len);
            ok = c->kind == PLAN_CAST_TIME ? plan__parse_time(s, len, &us)
                                           : plan__parse_datetime(s, len, &us, &has_time);
        }
        if (!ok) {
            const char *s;
            size_t len;
            plan__v_string(cx, in, &s, &len);
            plan__warn(cx->s, 1292, "Truncated incorrect %s value: '%.*s'",
                       c->kind == PLAN_CAST_TIME ? "time" : "datetime",
                       (int)(len > 128 ? 128 : len), s);
            *out = plan__v_null();
            return DB_OK;
        }
        int fsp = c->scale < 0 ? 0 : (int)c->scale;
        if (c->kind == PLAN_CAST_DATE) {
            int64_t day = 86400LL * 1000000;
            us = us >= 0 ? us / day * day : -((-us + day - 1) / day) * day;
            fsp = 0;
        } else {
            int64_t unit = 1;
            for (int k = fsp; k < 6; k++) {
                unit *= 10;
            }
            int64_t rem = us % unit;
            us -= rem;
            if (rem * 2 >= unit) {
                us += unit;
            }
        }
        *out = plan__v_null();
        out->kind = c->kind == PLAN_CAST_DATE ? PV_DATE
                                              : (c->kind == PLAN_CAST_TIME ? PV_TIME : PV_DATETIME);
        out->us = us;
        out->scale = (uint8_t)fsp;
        return DB_OK;
    }
    case PLAN_CAST_INT:
    case PLAN_CAST_BOOLEAN:
    case PLAN_CAST_FLOAT:
    case PLAN_CAST_VARCHAR:
    case PLAN_CAST_JSON:
        break; /* Doris names: always c->doris, handled above */
    }
    return db_error_set(err, ER_NOT_SUPPORTED_YET, "this CAST");
}

static int
eval_cast(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (e->cast.kind == PLAN_CAST_CHAR && e->op) {
        /* CONVERT(x USING binary) / USING charset: the bytes stay, the charset changes. */
        const char *s;
        size_t len;
        if (!plan__v_string(cx, &v, &s, &len)) {
            *out = v;
            return DB_OK;
        }
        *out = plan__v_str(s, len);
        out->is_binary = e->t.is_binary;
        return DB_OK;
    }
    return plan__v_cast(cx, &v, &e->cast, out, err);
}

static int
type_cast(plan_ectx *cx, plan_expr *e, db_error *err)
{
    const plan_expr *x = e->args[0];
    bool nullable = x->t.nullable;
    const char *what = e->src ? plan__ast_print(cx->a, cx->sql, e->src->args[0]) : "";
    switch (e->cast.kind) {
    case PLAN_CAST_SIGNED:
    case PLAN_CAST_UNSIGNED:
        plan__type_bigint(&e->t, 21, nullable);
        e->t.is_unsigned = e->cast.kind == PLAN_CAST_UNSIGNED;
        if (e->t.is_unsigned) {
            e->t.length = 20;
        }
        e->vk = PV_INT;
        break;
    case PLAN_CAST_DOUBLE:
        plan__type_double(&e->t, nullable || e->cast.doris);
        e->vk = PV_DOUBLE;
        break;
    case PLAN_CAST_DECIMAL: {
        int64_t p = e->cast.len < 0 ? 10 : e->cast.len, s = e->cast.scale < 0 ? 0 : e->cast.scale;
        if (p > PLAN_DEC_MAX_PREC) {
            return db_error_set(err, ER_TOO_BIG_PRECISION, (int)p, what, PLAN_DEC_MAX_PREC);
        }
        if (s > PLAN_DEC_MAX_SCALE) {
            return db_error_set(err, ER_TOO_BIG_SCALE, (int)s, what, PLAN_DEC_MAX_SCALE);
        }
        if (s > p) {
            return db_error_set(err, ER_M_BIGGER_THAN_D, what);
        }
        if (p == 0) {
            p = 10;
        }
        e->cast.len = p;
        e->cast.scale = s;
        plan__type_decimal(&e->t, (int)p, (int)s, nullable || e->cast.doris);
        e->vk = PV_DECIMAL;
        break;
    }
    case PLAN_CAST_CHAR:
    case PLAN_CAST_BINARY: {
        uint32_t len = e->cast.len >= 0 ? (uint32_t)e->cast.len : plan__type_strlen(&x->t);
        plan__type_string(&e->t, len, nullable);
        e->t.is_binary = e->cast.kind == PLAN_CAST_BINARY;
        e->vk = PV_STRING;
        break;
    }
    case PLAN_CAST_DATE:
        plan__type_datetime(&e->t, PLAN_TYPE_DATE, 0, true);
        e->vk = PV_DATE;
        break;
    case PLAN_CAST_INT:
        if (e->cast.type == PLAN_TYPE_LARGEINT) {
            plan__type_decimal(&e->t, PLAN_DEC_MAX_PREC, 0, true);
            e->t.type = PLAN_TYPE_LARGEINT;
            e->t.length = 40;
            e->vk = PV_DECIMAL;
            break;
        }
        plan__type_bigint(&e->t, 20, true);
        e->t.type = e->cast.type;
        e->t.length = e->cast.type == PLAN_TYPE_TINYINT
                              ? 4
                              : (e->cast.type == PLAN_TYPE_SMALLINT
                                         ? 6
                                         : (e->cast.type == PLAN_TYPE_INT ? 11 : 20));
        e->vk = PV_INT;
        break;
    case PLAN_CAST_BOOLEAN:
        plan__type_bigint(&e->t, 1, true);
        e->t.type = PLAN_TYPE_BOOLEAN;
        e->vk = PV_INT;
        break;
    case PLAN_CAST_FLOAT:
        plan__type_double(&e->t, true);
        e->t.type = PLAN_TYPE_FLOAT;
        e->t.length = 12;
        e->vk = PV_DOUBLE;
        break;
    case PLAN_CAST_JSON:
        plan__type_string(&e->t, 65535, true);
        e->t.type = PLAN_TYPE_JSON;
        e->vk = PV_STRING;
        break;
    case PLAN_CAST_VARCHAR: {
        uint32_t len = e->cast.len >= 0 ? (uint32_t)e->cast.len : plan__type_strlen(&x->t);
        plan__type_string(&e->t, len, nullable);
        e->t.type = e->cast.type;
        e->vk = PV_STRING;
        break;
    }
    case PLAN_CAST_DATETIME:
    case PLAN_CAST_TIME:
        if (e->cast.scale > 6) {
            return db_error_set(err, ER_TOO_BIG_PRECISION, (int)e->cast.scale, "CAST", 6);
        }
        plan__type_datetime(&e->t,
                            e->cast.kind == PLAN_CAST_TIME ? PLAN_TYPE_TIME : PLAN_TYPE_DATETIME,
                            e->cast.scale < 0 ? 0 : (int)e->cast.scale, true);
        e->vk = e->cast.kind == PLAN_CAST_TIME ? PV_TIME : PV_DATETIME;
        break;
    }
    e->eval = eval_cast;
    return DB_OK;
}

/* ---- typing of operator nodes ---- */

static int type_arith(plan_ectx *cx, plan_expr *e);

static int
type_arith(plan_ectx *cx, plan_expr *e)
{
    plan_expr *l = e->args[0], *r = e->args[1];
    int cl = num_class(l), cr = num_class(r);
    int c = cl > cr ? cl : cr;
    bool nullable = l->t.nullable || r->t.nullable || l->vk == PV_NULL || r->vk == PV_NULL;
    int pl = plan__num_prec(&l->t), pr = plan__num_prec(&r->t);
    int sl = l->vk == PV_DECIMAL ? l->t.scale : 0, sr = r->vk == PV_DECIMAL ? r->t.scale : 0;
    if (e->op == XOP_DIV) {
        nullable = true; /* division by zero gives NULL */
        if (c == NC_DBL) {
            plan__type_double(&e->t, nullable);
            e->vk = PV_DOUBLE;
        } else {
            int scale = sl + cx->div_incr;
            scale = scale > PLAN_DEC_MAX_SCALE ? PLAN_DEC_MAX_SCALE : scale;
            int prec = pl + sr + cx->div_incr;
            prec = prec > PLAN_DEC_MAX_PREC ? PLAN_DEC_MAX_PREC : (prec < scale ? scale : prec);
            plan__type_decimal(&e->t, prec, scale, nullable);
            e->vk = PV_DECIMAL;
        }
        e->eval = eval_divide;
        return DB_OK;
    }
    if (e->op == XOP_INTDIV) {
        plan__type_bigint(&e->t, (uint32_t)pl + 1, true);
        e->t.is_unsigned = l->t.is_unsigned || r->t.is_unsigned;
        e->vk = PV_INT;
        e->eval = eval_intdiv;
        return DB_OK;
    }
    if (c == NC_DBL) {
        plan__type_double(&e->t, nullable || e->op == XOP_MOD);
        e->vk = PV_DOUBLE;
    } else if (c == NC_INT) {
        int prec = e->op == XOP_MUL
                           ? pl + pr
                           : (e->op == XOP_MOD ? (pl > pr ? pl : pr) : (pl > pr ? pl : pr) + 1);
        bool uns = l->t.is_unsigned || r->t.is_unsigned;
        if (e->op == XOP_MOD) {
            uns = l->t.is_unsigned;
        }
        plan__type_bigint(&e->t, plan__dec_length(prec > 20 ? 20 : prec, 0, uns),
                          nullable || e->op == XOP_MOD);
        e->t.is_unsigned = uns;
        e->vk = PV_INT;
    } else {
        int scale, prec;
        if (e->op == XOP_MUL) {
            scale = sl + sr > PLAN_DEC_MAX_SCALE ? PLAN_DEC_MAX_SCALE : sl + sr;
            prec = pl + pr;
        } else {
            scale = sl > sr ? sl : sr;
            int il = pl - sl, ir = pr - sr;
            prec = (il > ir ? il : ir) + (e->op == XOP_MOD ? 0 : 1) + scale;
        }
        prec = prec > PLAN_DEC_MAX_PREC ? PLAN_DEC_MAX_PREC : prec;
        plan__type_decimal(&e->t, prec, scale, nullable || e->op == XOP_MOD);
        e->vk = PV_DECIMAL;
    }
    e->eval = e->op == XOP_MOD ? eval_mod : eval_arith;
    return DB_OK;
}

int
plan__op_type(plan_ectx *cx, plan_expr *e, plan_ast_kind kind, db_error *err)
{
    bool nullable = false;
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (e->args[i]) {
            nullable |= e->args[i]->t.nullable;
        }
    }
    switch (kind) {
    case PA_UNARY:
        if (e->op == XOP_PLUS) {
            e->t = e->args[0]->t;
            e->vk = e->args[0]->vk;
            e->eval = eval_ident;
        } else if (e->op == XOP_MINUS) {
            plan_expr *x = e->args[0];
            int c = num_class(x);
            if (c == NC_INT) {
                plan__type_bigint(&e->t, x->t.length + 1, nullable);
                e->t.precision = x->t.precision;
                e->vk = PV_INT;
            } else if (c == NC_DEC) {
                plan__type_decimal(&e->t, x->t.precision, x->t.scale, nullable);
                e->vk = PV_DECIMAL;
            } else {
                plan__type_double(&e->t, nullable);
                e->vk = PV_DOUBLE;
            }
            e->eval = eval_neg;
        } else if (e->op == XOP_BITNOT) {
            plan__type_bigint(&e->t, 21, nullable);
            e->t.is_unsigned = true;
            e->vk = PV_INT;
            e->eval = eval_bitnot;
        } else {
            plan__type_bigint(&e->t, 1, nullable);
            e->vk = PV_INT;
            e->eval = eval_not;
        }
        return DB_OK;
    case PA_BINARY:
        switch (e->op) {
        case XOP_PLUS:
        case XOP_MINUS:
        case XOP_MUL:
        case XOP_DIV:
        case XOP_INTDIV:
        case XOP_MOD:
            return type_arith(cx, e);
        case XOP_EQ:
        case XOP_NSEQ:
        case XOP_NE:
        case XOP_LT:
        case XOP_LE:
        case XOP_GT:
        case XOP_GE:
            if (plan__json_check_cmp((const plan_expr *const *)e->args, 2, err) != DB_OK) {
                return DB_ERR;
            }
            plan__type_bigint(&e->t, 1, e->op == XOP_NSEQ ? false : nullable);
            e->vk = PV_INT;
            e->cmp = plan__cmp_mode(e->args[0], e->args[1]);
            e->eval = eval_cmp;
            return DB_OK;
        case XOP_AND:
        case XOP_OR:
        case XOP_XOR:
            plan__type_bigint(&e->t, 1, nullable);
            e->vk = PV_INT;
            e->eval = eval_logic;
            return DB_OK;
        case XOP_CONCAT: /* PIPES_AS_CONCAT */
            plan__type_string(&e->t,
                              plan__type_strlen(&e->args[0]->t) + plan__type_strlen(&e->args[1]->t),
                              nullable);
            e->vk = PV_STRING;
            e->eval = eval_concat_op;
            return DB_OK;
        default:
            plan__type_bigint(&e->t, 21, nullable);
            e->t.is_unsigned = true;
            e->vk = PV_INT;
            e->eval = eval_bitop;
            return DB_OK;
        }
    case PA_IS:
        plan__type_bigint(&e->t, 1, false);
        e->vk = PV_INT;
        e->eval = eval_is;
        return DB_OK;
    case PA_BETWEEN: {
        if (plan__json_check_cmp((const plan_expr *const *)e->args, 3, err) != DB_OK) {
            return DB_ERR;
        }
        plan_cmp_mode a = plan__cmp_mode(e->args[0], e->args[1]);
        plan_cmp_mode b = plan__cmp_mode(e->args[0], e->args[2]);
        e->cmp = a == b ? a
                        : (a == PLAN_CMP_STRING || b == PLAN_CMP_STRING ? PLAN_CMP_DOUBLE
                                                                        : (a > b ? a : b));
        plan__type_bigint(&e->t, 1, nullable);
        e->vk = PV_INT;
        e->eval = eval_between;
        return DB_OK;
    }
    case PA_IN:
        if (plan__json_check_cmp((const plan_expr *const *)e->args, e->nargs, err) != DB_OK) {
            return DB_ERR;
        }
        plan__type_bigint(&e->t, 1, nullable);
        e->vk = PV_INT;
        e->eval = eval_in;
        in_set_prepare(cx, e);
        return DB_OK;
    case PA_LIKE:
        plan__type_bigint(&e->t, 1, nullable);
        e->vk = PV_INT;
        e->eval = eval_like;
        return DB_OK;
    case PA_CASE: {
        /* Result: aggregate of THEN and ELSE expressions. */
        uint32_t first = e->has_operand ? 1 : 0;
        uint32_t nw = (e->nargs - first - (e->has_else ? 1 : 0)) / 2;
        plan_expr **res = arena_calloc(cx->a, nw + 1, sizeof(plan_expr *));
        size_t nr = 0;
        for (uint32_t i = 0; i < nw; i++) {
            res[nr++] = e->args[first + 2 * i + 1];
        }
        if (e->has_else) {
            res[nr++] = e->args[e->nargs - 1];
        }
        plan__agg_type(res, nr, &e->t, &e->vk);
        if (!e->has_else) {
            e->t.nullable = true;
        }
        e->eval = eval_case;
        return DB_OK;
    }
    case PA_CAST:
        return type_cast(cx, e, err);
    case PA_CONVERT_USING:
    case PA_COLLATE:
        plan__type_string(&e->t, plan__type_strlen(&e->args[0]->t), nullable);
        e->t.is_binary = e->op == 2;
        e->t.is_bin_coll = e->op == 3;
        e->vk = PV_STRING;
        e->cast.kind = PLAN_CAST_CHAR;
        e->cast.len = -1;
        e->op = 1;
        e->eval = eval_cast;
        return DB_OK;
    default:
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "this expression");
    }
}

plan_vop
plan__expr_vop(const plan_expr *e)
{
    int leaf = plan__expr_leaf(e);
    if (leaf) {
        return leaf == 1 ? PLAN_VOP_COLUMN : PLAN_VOP_CONST;
    }
    if (e->eval == eval_ident) {
        return PLAN_VOP_IDENT;
    }
    if (e->eval == eval_cmp) {
        return PLAN_VOP_CMP;
    }
    if (e->eval == eval_logic) {
        return PLAN_VOP_LOGIC;
    }
    if (e->eval == eval_not) {
        return PLAN_VOP_NOT;
    }
    if (e->eval == eval_is) {
        return PLAN_VOP_IS;
    }
    if (e->eval == eval_between) {
        return PLAN_VOP_BETWEEN;
    }
    if (e->eval == eval_in) {
        return PLAN_VOP_IN;
    }
    if (e->eval == eval_neg) {
        return PLAN_VOP_NEG;
    }
    if (e->eval == eval_arith && (e->op == XOP_PLUS || e->op == XOP_MINUS || e->op == XOP_MUL)) {
        return PLAN_VOP_ARITH;
    }
    return PLAN_VOP_NONE;
}
