/* SPDX-License-Identifier: Apache-2.0
 * plan_vector.c: batch-at-a-time expression evaluation for the common analytic cases (column
 * references, constants, comparisons, BETWEEN, IN lists, three-valued AND / OR / XOR / NOT,
 * IS, + - *), over whole column vectors and a selection vector. Anything else, and any batch
 * where a row would fail (overflow), goes back to the row path (plan__eval), which stays the
 * reference: results are equal row by row. See README.md §Executor (vectorized expressions). */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <string.h>


/* Truth values per row: -1 NULL, 0 FALSE, 1 TRUE. */
typedef struct vctx {
    plan_ectx *cx;
    arena *a;
    const plan_batch *b;
} vctx;

static bool veval(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, plan_vres *out);
static bool vtruth(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, int8_t *t);
static bool vcmp(vctx *v, plan_cmp_mode mode, const plan_vres *l, const plan_vres *r,
                 const uint32_t *sel, uint32_t n, int8_t *c);
static bool varith(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, plan_vres *out);
static bool vneg(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, plan_vres *out);
static bool is_bool_op(plan_vop op);
static bool cmp_operands_ok(plan_cmp_mode mode, plan_vkind a, plan_vkind b);
static plan_vkind static_kind(const plan_expr *e, const plan_vtype *types, uint32_t ncols);
static void vres_const(vctx *v, const plan_value *lit, plan_vres *out);
static void prep_const(vctx *v, plan_cmp_mode mode, plan_vres *c, const plan_vres *other);

#define V_IDX(r, row) ((row) & (r)->mask)
static const __int128 DEC_LIM = (__int128)10000000000000000000ULL * 10000000000000000000ULL;

void
plan__vres_get(const plan_vres *r, uint32_t row, plan_value *out)
{
    memset(out, 0, sizeof *out);
    if (plan__vres_is_null(r, row)) {
        out->kind = PV_NULL;
        return;
    }
    uint32_t x = V_IDX(r, row);
    out->kind = (uint8_t)r->t.kind;
    out->scale = r->t.scale;
    switch (r->t.kind) {
    case PV_DOUBLE:
        out->d = r->d[x];
        break;
    case PV_DECIMAL:
        out->dec = r->dec[x];
        break;
    case PV_STRING:
        out->str.s = r->s[x].s;
        out->str.len = r->s[x].len;
        out->is_binary = r->t.is_binary;
        break;
    case PV_INT:
        out->i = r->i[x];
        out->is_unsigned = r->t.is_unsigned;
        break;
    default:
        out->us = r->i[x];
        break;
    }
}

/* ---- what is supported ---- */

static bool
is_bool_op(plan_vop op)
{
    return op == PLAN_VOP_CMP || op == PLAN_VOP_LOGIC || op == PLAN_VOP_NOT || op == PLAN_VOP_IS ||
           op == PLAN_VOP_BETWEEN || op == PLAN_VOP_IN;
}

/* The kind of values e produces over columns types[]. */
static plan_vkind
static_kind(const plan_expr *e, const plan_vtype *types, uint32_t ncols)
{
    switch (plan__expr_vop(e)) {
    case PLAN_VOP_COLUMN:
        return e->slot >= 0 && (uint32_t)e->slot < ncols ? types[e->slot].kind : PV_NULL;
    case PLAN_VOP_CONST:
        return (plan_vkind)e->lit.kind;
    case PLAN_VOP_IDENT:
        return static_kind(e->args[0], types, ncols);
    default:
        return e->vk;
    }
}

/* plan__compare in mode over these kinds warns (strings read as numbers) or is not done
 * here: DECIMAL and DOUBLE comparisons of strings go back to the row path. */
static bool
cmp_operands_ok(plan_cmp_mode mode, plan_vkind a, plan_vkind b)
{
    if (mode == PLAN_CMP_DECIMAL || mode == PLAN_CMP_DOUBLE) {
        return a != PV_STRING && b != PV_STRING;
    }
    return true;
}

bool
plan__vec_supported(const plan_expr *e, const plan_vtype *types, uint32_t ncols)
{
    plan_vop op = plan__expr_vop(e);
    switch (op) {
    case PLAN_VOP_NONE:
        return false;
    case PLAN_VOP_COLUMN:
        return e->slot >= 0 && (uint32_t)e->slot < ncols;
    case PLAN_VOP_CONST:
        return true;
    case PLAN_VOP_IDENT:
    case PLAN_VOP_NOT:
    case PLAN_VOP_IS:
        return plan__vec_supported(e->args[0], types, ncols);
    case PLAN_VOP_LOGIC:
        return plan__vec_supported(e->args[0], types, ncols) &&
               plan__vec_supported(e->args[1], types, ncols);
    case PLAN_VOP_CMP:
    case PLAN_VOP_BETWEEN:
        for (uint32_t i = 0; i < e->nargs; i++) {
            if (!plan__vec_supported(e->args[i], types, ncols) ||
                !cmp_operands_ok(e->cmp, static_kind(e->args[0], types, ncols),
                                 static_kind(e->args[i], types, ncols))) {
                return false;
            }
        }
        return true;
    case PLAN_VOP_IN:
        for (uint32_t i = 0; i < e->nargs; i++) {
            if (!plan__vec_supported(e->args[i], types, ncols) ||
                (i > 0 && !cmp_operands_ok(plan__cmp_mode(e->args[0], e->args[i]),
                                           static_kind(e->args[0], types, ncols),
                                           static_kind(e->args[i], types, ncols)))) {
                return false;
            }
        }
        return true;
    case PLAN_VOP_ARITH:
        for (uint32_t i = 0; i < 2; i++) {
            plan_vkind k = static_kind(e->args[i], types, ncols);
            bool ok = k == PV_NULL || k == PV_INT || (e->vk != PV_INT && k == PV_DECIMAL) ||
                      (e->vk == PV_DOUBLE && k == PV_DOUBLE);
            if (!ok || !plan__vec_supported(e->args[i], types, ncols)) {
                return false;
            }
        }
        return e->vk == PV_INT || e->vk == PV_DECIMAL || e->vk == PV_DOUBLE;
    case PLAN_VOP_NEG: {
        plan_vkind k = static_kind(e->args[0], types, ncols);
        bool ok = k == PV_NULL || k == PV_INT || k == PV_DECIMAL || k == PV_DOUBLE;
        return ok && (e->vk == PV_INT || e->vk == PV_DECIMAL || e->vk == PV_DOUBLE) &&
               plan__vec_supported(e->args[0], types, ncols);
    }
    }
    return false;
}

/* ---- leaves ---- */

static void
vres_const(vctx *v, const plan_value *lit, plan_vres *out)
{
    memset(out, 0, sizeof *out);
    out->mask = 0;
    out->t.kind = (plan_vkind)lit->kind;
    out->t.is_unsigned = lit->is_unsigned;
    out->t.is_binary = lit->is_binary;
    out->t.scale = lit->scale;
    switch (lit->kind) {
    case PV_NULL:
        break;
    case PV_DOUBLE:
        out->d = arena_alloc(v->a, sizeof(double));
        out->d[0] = lit->d;
        break;
    case PV_DECIMAL:
        out->dec = arena_alloc(v->a, sizeof(__int128));
        out->dec[0] = lit->dec;
        break;
    case PV_STRING:
        out->s = arena_alloc(v->a, sizeof(plan_strv));
        out->s[0].s = lit->str.s;
        out->s[0].len = lit->str.len;
        break;
    default:
        out->i = arena_alloc(v->a, sizeof(int64_t));
        out->i[0] = lit->i;
        break;
    }
}

/* A constant compared in mode with other: converted once to the form every row would
 * convert it to, so the kernels compare same-kind values (exactly what plan__compare does). */
static void
prep_const(vctx *v, plan_cmp_mode mode, plan_vres *c, const plan_vres *other)
{
    if (c->mask != 0 || c->t.kind == PV_NULL) {
        return;
    }
    plan_value x;
    plan__vres_get(c, 0, &x);
    plan_vkind ok = other->t.kind;
    if (mode == PLAN_CMP_DATETIME && x.kind == PV_STRING &&
        (ok == PV_DATE || ok == PV_DATETIME || ok == PV_TIME)) {
        int64_t us;
        bool has_time;
        if (plan__parse_datetime(x.str.s, x.str.len, &us, &has_time)) {
            plan_value t = x;
            t.kind = PV_DATETIME;
            t.us = us;
            vres_const(v, &t, c);
        }
    } else if (mode == PLAN_CMP_DECIMAL && ok == PV_DECIMAL &&
               (x.kind == PV_INT || (x.kind == PV_DECIMAL && x.scale <= other->t.scale))) {
        /* plan__compare: both at max(scales) = the column's; when the constant does not fit,
         * every row compares as DOUBLE (left to the generic path). */
        __int128 d;
        if (plan__v_to_dec(&x, other->t.scale, &d, NULL)) {
            vres_const(v, &(plan_value){.kind = PV_DECIMAL, .scale = other->t.scale, .dec = d}, c);
        }
    } else if (mode == PLAN_CMP_DOUBLE && ok == PV_DOUBLE && x.kind != PV_STRING) {
        vres_const(v, &(plan_value){.kind = PV_DOUBLE, .d = plan__v_to_double(&x, NULL)}, c);
    }
}

/* ---- comparison kernels ---- */

#define CMP3(a, b) ((a) < (b) ? -1 : ((a) > (b)))

/* c[row] = plan__compare(mode, l[row], r[row]) for the rows of sel where neither is NULL. */
/* Whether l and r compare in mode as their int64 storage does: two signed integers, two
 * temporals (microseconds), or signed integers compared as UINT / DECIMAL. */
static bool
i64_machine_order(plan_cmp_mode mode, const plan_vres *l, const plan_vres *r)
{
    plan_vkind a = l->t.kind, b = r->t.kind;
    bool at = a == PV_DATE || a == PV_DATETIME || a == PV_TIME;
    bool bt = b == PV_DATE || b == PV_DATETIME || b == PV_TIME;
    return (mode == PLAN_CMP_INT && a == PV_INT && b == PV_INT) ||
           (mode == PLAN_CMP_DATETIME && at && bt) ||
           ((mode == PLAN_CMP_UINT || mode == PLAN_CMP_DECIMAL) && a == PV_INT && b == PV_INT &&
            !l->t.is_unsigned && !r->t.is_unsigned);
}

static bool
vcmp(vctx *v, plan_cmp_mode mode, const plan_vres *l, const plan_vres *r, const uint32_t *sel,
     uint32_t n, int8_t *c)
{
    plan_vkind a = l->t.kind, b = r->t.kind;
    uint32_t lm = l->mask, rm = r->mask;
    if (!cmp_operands_ok(mode, a, b)) {
        return false;
    }
    if (i64_machine_order(mode, l, r)) {
        const int64_t *x = l->i, *y = r->i;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            c[row] = (int8_t)CMP3(x[row & lm], y[row & rm]);
        }
        return true;
    }
    if ((mode == PLAN_CMP_UINT || mode == PLAN_CMP_DECIMAL) && a == PV_INT && b == PV_INT) {
        bool lu = l->t.is_unsigned, ru = r->t.is_unsigned;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            int64_t xi = l->i[row & lm], yi = r->i[row & rm];
            __int128 x = lu ? (__int128)(uint64_t)xi : (__int128)xi;
            __int128 y = ru ? (__int128)(uint64_t)yi : (__int128)yi;
            c[row] = (int8_t)CMP3(x, y);
        }
        return true;
    }
    if (mode == PLAN_CMP_DECIMAL && a == PV_DECIMAL && b == PV_DECIMAL &&
        l->t.scale == r->t.scale) {
        const __int128 *x = l->dec, *y = r->dec;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            c[row] = (int8_t)CMP3(x[row & lm], y[row & rm]);
        }
        return true;
    }
    if (mode == PLAN_CMP_DOUBLE && a == PV_DOUBLE && b == PV_DOUBLE) {
        const double *x = l->d, *y = r->d;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            double p = x[row & lm], q = y[row & rm];
            c[row] = (int8_t)CMP3(p, q);
        }
        return true;
    }
    /* Everything else: the row path's own comparison, value by value (no warnings here:
     * cmp_operands_ok). */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = sel[k];
        if (plan__vres_is_null(l, row) || plan__vres_is_null(r, row)) {
            continue;
        }
        plan_value x, y;
        plan__vres_get(l, row, &x);
        plan__vres_get(r, row, &y);
        c[row] = (int8_t)plan__compare(v->cx, mode, &x, &y);
    }
    return true;
}

/* ---- truth values ---- */

/* One comparison operator over two arrays of one element type, straight into truth values. */
#define CMP_LOOP(T, X, Y)                                        \
    do {                                                         \
        const T *x_ = (X), *y_ = (Y);                            \
        switch (e->op) {                                         \
        case XOP_EQ:                                             \
        case XOP_NSEQ:                                           \
            for (uint32_t k = 0; k < n; k++) {                   \
                uint32_t row = sel[k];                           \
                t[row] = (int8_t)(x_[row & lm] == y_[row & rm]); \
            }                                                    \
            break;                                               \
        case XOP_NE:                                             \
            for (uint32_t k = 0; k < n; k++) {                   \
                uint32_t row = sel[k];                           \
                t[row] = (int8_t)(x_[row & lm] != y_[row & rm]); \
            }                                                    \
            break;                                               \
        case XOP_LT:                                             \
            for (uint32_t k = 0; k < n; k++) {                   \
                uint32_t row = sel[k];                           \
                t[row] = (int8_t)(x_[row & lm] < y_[row & rm]);  \
            }                                                    \
            break;                                               \
        case XOP_LE:                                             \
            for (uint32_t k = 0; k < n; k++) {                   \
                uint32_t row = sel[k];                           \
                t[row] = (int8_t)(x_[row & lm] <= y_[row & rm]); \
            }                                                    \
            break;                                               \
        case XOP_GT:                                             \
            for (uint32_t k = 0; k < n; k++) {                   \
                uint32_t row = sel[k];                           \
                t[row] = (int8_t)(x_[row & lm] > y_[row & rm]);  \
            }                                                    \
            break;                                               \
        default:                                                 \
            for (uint32_t k = 0; k < n; k++) {                   \
                uint32_t row = sel[k];                           \
                t[row] = (int8_t)(x_[row & lm] >= y_[row & rm]); \
            }                                                    \
            break;                                               \
        }                                                        \
    } while (0)

/* e (a comparison) of l and r straight into t for the kinds whose order is the machine order
 * of their storage (signed integers, temporals, DECIMALs of one scale); NULL rows are left for
 * the caller's fix-up. False (t untouched) for any other pair: vcmp's kernels decide. */
static bool
cmp_fused(const plan_expr *e, const plan_vres *l, const plan_vres *r, const uint32_t *sel,
          uint32_t n, int8_t *t)
{
    plan_vkind a = l->t.kind, b = r->t.kind;
    uint32_t lm = l->mask, rm = r->mask;
    plan_cmp_mode mode = e->cmp;
    if (!cmp_operands_ok(mode, a, b)) {
        return false;
    }
    if (i64_machine_order(mode, l, r)) {
        CMP_LOOP(int64_t, l->i, r->i);
        return true;
    }
    if (mode == PLAN_CMP_DECIMAL && a == PV_DECIMAL && b == PV_DECIMAL &&
        l->t.scale == r->t.scale) {
        CMP_LOOP(__int128, l->dec, r->dec);
        return true;
    }
    return false;
}

static int8_t *
new_truth(vctx *v)
{
    return arena_alloc(v->a, v->b->nrows ? v->b->nrows : 1);
}

/* t[row] for the rows of sel: e's truth value (plan__v_truth of its plan__eval result). */
static bool
vtruth(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, int8_t *t)
{
    plan_vop op = plan__expr_vop(e);
    switch (op) {
    case PLAN_VOP_CMP: {
        plan_vres l, r;
        if (!veval(v, e->args[0], sel, n, &l) || !veval(v, e->args[1], sel, n, &r)) {
            return false;
        }
        prep_const(v, e->cmp, &l, &r);
        prep_const(v, e->cmp, &r, &l);
        if (l.t.kind == PV_NULL || r.t.kind == PV_NULL) {
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel[k];
                t[row] = e->op == XOP_NSEQ ? (int8_t)(plan__vres_is_null(&l, row) &&
                                                      plan__vres_is_null(&r, row))
                                           : -1;
            }
            return true;
        }
        if (cmp_fused(e, &l, &r, sel, n, t)) {
            goto nulls;
        }
        /* zeroed: the generic kernel leaves NULL rows alone */
        int8_t *c = arena_calloc(v->a, v->b->nrows ? v->b->nrows : 1, 1);
        if (!vcmp(v, e->cmp, &l, &r, sel, n, c)) {
            return false;
        }
        /* the result for c = -1, 0, 1 */
        int8_t lut[3];
        for (int x = -1; x <= 1; x++) {
            bool res;
            switch (e->op) {
            case XOP_EQ:
            case XOP_NSEQ:
                res = x == 0;
                break;
            case XOP_NE:
                res = x != 0;
                break;
            case XOP_LT:
                res = x < 0;
                break;
            case XOP_LE:
                res = x <= 0;
                break;
            case XOP_GT:
                res = x > 0;
                break;
            default:
                res = x >= 0;
                break;
            }
            lut[x + 1] = (int8_t)res;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            t[row] = lut[c[row] + 1];
        }
    nulls:
        if (l.nulls != NULL || r.nulls != NULL) {
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel[k];
                bool ln = plan__vres_is_null(&l, row), rn = plan__vres_is_null(&r, row);
                if (ln || rn) {
                    t[row] = e->op == XOP_NSEQ ? (int8_t)(ln && rn) : -1;
                }
            }
        }
        return true;
    }
    case PLAN_VOP_BETWEEN: {
        plan_vres x, lo, hi;
        if (!veval(v, e->args[0], sel, n, &x) || !veval(v, e->args[1], sel, n, &lo) ||
            !veval(v, e->args[2], sel, n, &hi)) {
            return false;
        }
        prep_const(v, e->cmp, &lo, &x);
        prep_const(v, e->cmp, &hi, &x);
        int8_t *c1 = new_truth(v), *c2 = new_truth(v);
        bool null_lo = lo.t.kind == PV_NULL, null_hi = hi.t.kind == PV_NULL;
        if (x.t.kind != PV_NULL && ((!null_lo && !vcmp(v, e->cmp, &x, &lo, sel, n, c1)) ||
                                    (!null_hi && !vcmp(v, e->cmp, &x, &hi, sel, n, c2)))) {
            return false;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            if (plan__vres_is_null(&x, row)) {
                t[row] = -1;
                continue;
            }
            int p = plan__vres_is_null(&lo, row) ? -1 : c1[row] >= 0;
            int q = plan__vres_is_null(&hi, row) ? -1 : c2[row] <= 0;
            int res = (p == 0 || q == 0) ? 0 : ((p < 0 || q < 0) ? -1 : 1);
            if (res >= 0 && e->negated) {
                res = !res;
            }
            t[row] = (int8_t)res;
        }
        return true;
    }
    case PLAN_VOP_IN: {
        plan_vres x;
        if (!veval(v, e->args[0], sel, n, &x)) {
            return false;
        }
        if (e->aux) { /* a long list of constants: a binary search per row (plan_expr.c) */
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel[k];
                if (plan__vres_is_null(&x, row)) {
                    t[row] = -1;
                    continue;
                }
                plan_value xv;
                plan__vres_get(&x, row, &xv);
                int f = plan__in_set_find(v->cx, e, &xv);
                t[row] = (int8_t)(f < 0 ? -1 : f ? !e->negated : e->negated);
            }
            return true;
        }
        /* state per row: 0 undecided, 1 matched, 2 saw a NULL */
        uint8_t *st = arena_calloc(v->a, v->b->nrows ? v->b->nrows : 1, 1);
        int8_t *c = new_truth(v);
        if (x.t.kind != PV_NULL) {
            for (uint32_t i = 1; i < e->nargs; i++) {
                plan_vres y;
                if (!veval(v, e->args[i], sel, n, &y)) {
                    return false;
                }
                if (y.t.kind == PV_NULL) {
                    for (uint32_t k = 0; k < n; k++) {
                        st[sel[k]] |= 2;
                    }
                    continue;
                }
                plan_cmp_mode mode = plan__cmp_mode(e->args[0], e->args[i]);
                prep_const(v, mode, &y, &x);
                if (!vcmp(v, mode, &x, &y, sel, n, c)) {
                    return false;
                }
                for (uint32_t k = 0; k < n; k++) {
                    uint32_t row = sel[k];
                    if (plan__vres_is_null(&y, row)) {
                        st[row] |= 2;
                    } else if (!plan__vres_is_null(&x, row) && c[row] == 0) {
                        st[row] |= 1;
                    }
                }
            }
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            if (plan__vres_is_null(&x, row)) {
                t[row] = -1;
            } else if (st[row] & 1) {
                t[row] = (int8_t)!e->negated;
            } else {
                t[row] = (st[row] & 2) ? -1 : (int8_t)e->negated;
            }
        }
        return true;
    }
    case PLAN_VOP_LOGIC: {
        if (!vtruth(v, e->args[0], sel, n, t)) {
            return false;
        }
        int8_t *t2 = new_truth(v);
        if (e->op == XOP_XOR) {
            if (!vtruth(v, e->args[1], sel, n, t2)) {
                return false;
            }
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel[k];
                int p = t[row], q = t2[row];
                t[row] = (int8_t)((p < 0 || q < 0) ? -1 : (p != q));
            }
            return true;
        }
        /* AND / OR short-circuit: the right side sees only the undecided rows. */
        bool is_and = e->op == XOP_AND;
        uint32_t *sel2 = arena_alloc(v->a, (n ? n : 1) * sizeof *sel2);
        uint32_t n2 = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            sel2[n2] = row;
            n2 += is_and ? t[row] != 0 : t[row] != 1;
        }
        if (n2 == 0) {
            return true;
        }
        if (!vtruth(v, e->args[1], sel2, n2, t2)) {
            return false;
        }
        for (uint32_t k = 0; k < n2; k++) {
            uint32_t row = sel2[k];
            int p = t[row], q = t2[row];
            if (is_and) {
                t[row] = (int8_t)(q == 0 ? 0 : (p < 0 || q < 0 ? -1 : 1));
            } else {
                t[row] = (int8_t)(q == 1 ? 1 : (p < 0 || q < 0 ? -1 : 0));
            }
        }
        return true;
    }
    case PLAN_VOP_NOT:
        if (!vtruth(v, e->args[0], sel, n, t)) {
            return false;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            t[row] = (int8_t)(t[row] < 0 ? -1 : !t[row]);
        }
        return true;
    case PLAN_VOP_IS:
        if (!vtruth(v, e->args[0], sel, n, t)) {
            return false;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            int x = t[row];
            bool res = e->op == XOP_IS_NULL ? x < 0 : (e->op == XOP_IS_TRUE ? x == 1 : x == 0);
            t[row] = (int8_t)(res != e->negated);
        }
        return true;
    default: {
        plan_vres r;
        if (!veval(v, e, sel, n, &r)) {
            return false;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            uint32_t x = V_IDX(&r, row);
            if (plan__vres_is_null(&r, row)) {
                t[row] = -1;
            } else if (r.t.kind == PV_INT) {
                t[row] = r.i[x] != 0;
            } else if (r.t.kind == PV_DOUBLE) {
                t[row] = r.d[x] != 0;
            } else if (r.t.kind == PV_DECIMAL) {
                t[row] = r.dec[x] != 0;
            } else {
                plan_value val;
                plan__vres_get(&r, row, &val);
                t[row] = (int8_t)plan__v_truth(&val);
            }
        }
        return true;
    }
    }
}

/* ---- arithmetic ---- */

/* l op r for + - * with the row path's result kind, scale and overflow checks (eval_arith);
 * false on the first row that would fail. */
static bool
varith(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, plan_vres *out)
{
    plan_vres l, r;
    if (!veval(v, e->args[0], sel, n, &l) || !veval(v, e->args[1], sel, n, &r)) {
        return false;
    }
    uint32_t nrows = v->b->nrows ? v->b->nrows : 1;
    memset(out, 0, sizeof *out);
    out->mask = UINT32_MAX;
    out->t.kind = e->vk;
    out->t.is_unsigned = e->vk == PV_INT && e->t.is_unsigned;
    out->t.scale = e->vk == PV_DECIMAL ? e->t.scale : 0;
    if (l.t.kind == PV_NULL || r.t.kind == PV_NULL) {
        out->t.kind = PV_NULL;
        return true;
    }
    uint8_t *nulls = NULL;
    if (l.nulls || r.nulls) {
        nulls = arena_calloc(v->a, (nrows + 7) / 8, 1);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            if (plan__vres_is_null(&l, row) || plan__vres_is_null(&r, row)) {
                nulls[row >> 3] |= (uint8_t)(1u << (row & 7));
            }
        }
    }
    out->nulls = nulls;
#define ROW_NULL(row) (nulls && (nulls[(row) >> 3] >> ((row)&7)) & 1)
    uint32_t lm = l.mask, rm = r.mask;
    int op = e->op;
    if (e->vk == PV_INT) {
        if (l.t.kind != PV_INT || r.t.kind != PV_INT) {
            return false;
        }
        int64_t *o = arena_alloc(v->a, nrows * sizeof *o);
        out->i = o;
        bool lu = l.t.is_unsigned, ru = r.t.is_unsigned, ou = e->t.is_unsigned;
        if (!lu && !ru && !ou) {
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel[k];
                if (ROW_NULL(row)) {
                    continue;
                }
                int64_t a = l.i[row & lm], b = r.i[row & rm], x;
                bool ovf = op == XOP_PLUS    ? __builtin_add_overflow(a, b, &x)
                           : op == XOP_MINUS ? __builtin_sub_overflow(a, b, &x)
                                             : __builtin_mul_overflow(a, b, &x);
                if (ovf) {
                    return false;
                }
                o[row] = x;
            }
            return true;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            if (ROW_NULL(row)) {
                continue;
            }
            int64_t ai = l.i[row & lm], bi = r.i[row & rm];
            __int128 a = lu ? (__int128)(uint64_t)ai : (__int128)ai;
            __int128 b = ru ? (__int128)(uint64_t)bi : (__int128)bi;
            __int128 x;
            if (op == XOP_MUL) {
                if (__builtin_mul_overflow(a, b, &x)) {
                    return false;
                }
            } else {
                x = op == XOP_PLUS ? a + b : a - b;
            }
            if (ou ? (x < 0 || x > (__int128)UINT64_MAX) : (x < INT64_MIN || x > INT64_MAX)) {
                return false;
            }
            o[row] = ou ? (int64_t)(uint64_t)x : (int64_t)x;
        }
        return true;
    }
    if (e->vk == PV_DECIMAL) {
        if ((l.t.kind != PV_INT && l.t.kind != PV_DECIMAL) ||
            (r.t.kind != PV_INT && r.t.kind != PV_DECIMAL)) {
            return false;
        }
        __int128 *o = arena_alloc(v->a, nrows * sizeof *o);
        out->dec = o;
        int sa = l.t.kind == PV_DECIMAL ? l.t.scale : 0,
            sb = r.t.kind == PV_DECIMAL ? r.t.scale : 0;
        int sc = e->t.scale;
        /* operands at the scale the row path converts them to: sc for + -, their own for * */
        int ta = op == XOP_MUL ? sa : sc, tb = op == XOP_MUL ? sb : sc;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = sel[k];
            if (ROW_NULL(row)) {
                continue;
            }
            __int128 a, b, x;
            if (l.t.kind == PV_DECIMAL && sa == ta) {
                a = l.dec[row & lm];
            } else {
                plan_value pv;
                plan__vres_get(&l, row, &pv);
                if (!plan__v_to_dec(&pv, ta, &a, NULL)) {
                    return false;
                }
            }
            if (r.t.kind == PV_DECIMAL && sb == tb) {
                b = r.dec[row & rm];
            } else {
                plan_value pv;
                plan__vres_get(&r, row, &pv);
                if (!plan__v_to_dec(&pv, tb, &b, NULL)) {
                    return false;
                }
            }
            if (op == XOP_MUL) {
                if (__builtin_mul_overflow(a, b, &x) ||
                    (sa + sb != sc && !plan__dec_rescale(x, sa + sb, sc, &x))) {
                    return false;
                }
            } else {
                x = op == XOP_PLUS ? a + b : a - b;
            }
            if (x >= DEC_LIM || x <= -DEC_LIM) {
                return false;
            }
            o[row] = x;
        }
        return true;
    }
    if (e->vk != PV_DOUBLE) {
        return false;
    }
    double *o = arena_alloc(v->a, nrows * sizeof *o);
    out->d = o;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = sel[k];
        if (ROW_NULL(row)) {
            continue;
        }
        double a, b;
        if (l.t.kind == PV_DOUBLE) {
            a = l.d[row & lm];
        } else {
            plan_value pv;
            plan__vres_get(&l, row, &pv);
            if (pv.kind == PV_STRING) {
                return false;
            }
            a = plan__v_to_double(&pv, NULL);
        }
        if (r.t.kind == PV_DOUBLE) {
            b = r.d[row & rm];
        } else {
            plan_value pv;
            plan__vres_get(&r, row, &pv);
            if (pv.kind == PV_STRING) {
                return false;
            }
            b = plan__v_to_double(&pv, NULL);
        }
        double x = op == XOP_PLUS ? a + b : (op == XOP_MINUS ? a - b : a * b);
        if (!isfinite(x)) {
            return false;
        }
        o[row] = x;
    }
    return true;
#undef ROW_NULL
}

/* Unary minus as eval_neg: BIGINT (out of range fails), DECIMAL at the result scale, DOUBLE. */
static bool
vneg(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, plan_vres *out)
{
    plan_vres a;
    if (!veval(v, e->args[0], sel, n, &a)) {
        return false;
    }
    uint32_t nrows = v->b->nrows ? v->b->nrows : 1;
    memset(out, 0, sizeof *out);
    out->t.kind = a.t.kind == PV_NULL ? PV_NULL : e->vk;
    out->t.scale = e->vk == PV_DECIMAL ? e->t.scale : 0;
    out->nulls = a.nulls;
    out->mask = a.mask;
    if (a.t.kind == PV_NULL) {
        return true;
    }
    if (a.t.kind != PV_INT && a.t.kind != PV_DECIMAL && a.t.kind != PV_DOUBLE) {
        return false;
    }
    out->p = arena_alloc(v->a, (a.mask ? nrows : 1) * sizeof(__int128));
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = sel[k];
        if (plan__vres_is_null(&a, row)) {
            continue;
        }
        uint32_t x = V_IDX(&a, row);
        plan_value pv;
        plan__vres_get(&a, row, &pv);
        if (e->vk == PV_INT) {
            if (a.t.kind != PV_INT) {
                return false;
            }
            __int128 y = pv.is_unsigned ? (__int128)pv.u : (__int128)pv.i;
            if (-y < INT64_MIN || -y > INT64_MAX) {
                return false;
            }
            out->i[x] = (int64_t)-y;
        } else if (e->vk == PV_DECIMAL) {
            __int128 d;
            if (!plan__v_to_dec(&pv, e->t.scale, &d, NULL)) {
                return false;
            }
            out->dec[x] = -d;
        } else {
            out->d[x] = -plan__v_to_double(&pv, NULL);
        }
    }
    return true;
}

/* ---- values ---- */

static bool
veval(vctx *v, const plan_expr *e, const uint32_t *sel, uint32_t n, plan_vres *out)
{
    plan_vop op = plan__expr_vop(e);
    switch (op) {
    case PLAN_VOP_NONE:
        return false;
    case PLAN_VOP_COLUMN: {
        if (e->slot < 0 || (uint32_t)e->slot >= v->b->ncols) {
            return false;
        }
        const plan_vec *c = &v->b->cols[e->slot];
        memset(out, 0, sizeof *out);
        out->t = c->t;
        out->p = c->i;
        out->mask = UINT32_MAX;
        /* no NULL among the filled rows: the kernels skip the per-row tests */
        size_t nb = ((size_t)v->b->nrows + 7) / 8;
        uint8_t any = 0;
        for (size_t i = 0; i < nb; i++) {
            any |= c->nulls[i];
        }
        out->nulls = any ? c->nulls : NULL;
        return true;
    }
    case PLAN_VOP_CONST:
        vres_const(v, &e->lit, out);
        return true;
    case PLAN_VOP_IDENT:
        return veval(v, e->args[0], sel, n, out);
    case PLAN_VOP_ARITH:
        return varith(v, e, sel, n, out);
    case PLAN_VOP_NEG:
        return vneg(v, e, sel, n, out);
    default:
        break;
    }
    DB_ASSERT(is_bool_op(op));
    uint32_t nrows = v->b->nrows ? v->b->nrows : 1;
    int8_t *t = new_truth(v);
    if (!vtruth(v, e, sel, n, t)) {
        return false;
    }
    memset(out, 0, sizeof *out);
    out->t.kind = PV_INT;
    out->mask = UINT32_MAX;
    out->i = arena_alloc(v->a, nrows * sizeof(int64_t));
    uint8_t *nulls = arena_calloc(v->a, (nrows + 7) / 8, 1);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = sel[k];
        if (t[row] < 0) {
            nulls[row >> 3] |= (uint8_t)(1u << (row & 7));
        } else {
            out->i[row] = t[row];
        }
    }
    out->nulls = nulls;
    return true;
}

/* ---- entry points ---- */

static const uint32_t *
active_rows(arena *a, const plan_batch *b, const uint32_t *sel, uint32_t *n)
{
    if (sel) {
        return sel;
    }
    if (b->sel) {
        *n = b->nsel;
        return b->sel;
    }
    uint32_t *s = arena_alloc(a, (b->nrows ? b->nrows : 1) * sizeof *s);
    for (uint32_t k = 0; k < b->nrows; k++) {
        s[k] = k;
    }
    *n = b->nrows;
    return s;
}

bool
plan__vec_eval(plan_ectx *cx, arena *a, const plan_expr *e, const plan_batch *b,
               const uint32_t *sel, uint32_t n, plan_vres *out)
{
    vctx v = {cx, a, b};
    sel = active_rows(a, b, sel, &n);
    return veval(&v, e, sel, n, out);
}

/* The AND conjuncts of e, left to right, appended to out[*n] (at most cap). False when there
 * are more than cap. */
static bool
conjuncts(const plan_expr *e, const plan_expr **out, uint32_t *n, uint32_t cap)
{
    if (plan__expr_vop(e) == PLAN_VOP_LOGIC && e->op == XOP_AND) {
        return conjuncts(e->args[0], out, n, cap) && conjuncts(e->args[1], out, n, cap);
    }
    if (*n == cap) {
        return false;
    }
    out[(*n)++] = e;
    return true;
}

/* The rows of sel[0..n) for which pred is TRUE, ascending, into *selp (in v->a) / *nselp.
 * An AND is filtered conjunct by conjunct: each sees only the rows no earlier conjunct made
 * FALSE (TRUE or NULL so far, as the row path's short circuit evaluates them), and a row
 * passes when every conjunct is TRUE; no per-row truth values are combined. */
static bool
filter_rows(vctx *v, const plan_expr *pred, const uint32_t *sel, uint32_t n, uint32_t **selp,
            uint32_t *nselp)
{
    enum { MAXC = 32 };
    const plan_expr *c[MAXC];
    uint32_t nc = 0;
    if (!conjuncts(pred, c, &nc, MAXC)) {
        c[0] = pred;
        nc = 1;
    }
    uint8_t *was_null = NULL; /* per row: some conjunct was NULL (then it cannot pass) */
    const uint32_t *cur = sel;
    uint32_t ncur = n;
    for (uint32_t i = 0; i < nc && ncur > 0; i++) {
        int8_t *t = new_truth(v);
        if (!vtruth(v, c[i], cur, ncur, t)) {
            return false;
        }
        uint32_t *next = arena_alloc(v->a, (ncur ? ncur : 1) * sizeof *next);
        uint32_t m = 0;
        bool any_null = false;
        for (uint32_t k = 0; k < ncur; k++) {
            uint32_t row = cur[k];
            next[m] = row;
            m += t[row] != 0;
            any_null |= t[row] < 0;
        }
        if (any_null) {
            if (was_null == NULL) {
                was_null = arena_calloc(v->a, v->b->nrows ? v->b->nrows : 1, 1);
            }
            for (uint32_t k = 0; k < m; k++) {
                was_null[next[k]] |= t[next[k]] < 0;
            }
        }
        cur = next;
        ncur = m;
    }
    uint32_t *out = arena_alloc(v->a, (ncur ? ncur : 1) * sizeof *out);
    uint32_t m = 0;
    for (uint32_t k = 0; k < ncur; k++) {
        out[m] = cur[k];
        m += was_null == NULL || !was_null[cur[k]];
    }
    *selp = out;
    *nselp = m;
    return true;
}

bool
plan__vec_filter(plan_ectx *cx, arena *a, const plan_expr *pred, const plan_batch *b,
                 uint32_t **selp, uint32_t *nselp)
{
    vctx v = {cx, a, b};
    uint32_t n = 0;
    const uint32_t *sel = active_rows(a, b, NULL, &n);
    return filter_rows(&v, pred, sel, n, selp, nselp);
}