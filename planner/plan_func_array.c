/* SPDX-License-Identifier: Apache-2.0
 * plan_func_array.c: the Doris 2.1 array functions over plan_array.c's scanner: ARRAY(...),
 * ARRAY_SIZE / SIZE / CARDINALITY, ARRAY_CONTAINS, ARRAY_POSITION, ELEMENT_AT, ARRAY_JOIN,
 * ARRAY_DISTINCT, ARRAY_SORT, ARRAY_MIN / MAX / SUM / AVG, ARRAYS_OVERLAP, ARRAY_SLICE,
 * ARRAY_REMOVE, ARRAY_CONCAT. Arrays are canonical texts (plan_array.h); elements are read
 * back as values of the element type, results are built in the statement arena. See
 * README.md §ARRAY. */
#include "planner/plan_func_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/plan_array.h"
#include "planner/plan_dml_int.h"

typedef enum af_op {
    AF_ARRAY,
    AF_SIZE,
    AF_CONTAINS,
    AF_POSITION,
    AF_ELEMENT_AT,
    AF_JOIN,
    AF_DISTINCT,
    AF_SORT,
    AF_MIN,
    AF_MAX,
    AF_SUM,
    AF_AVG,
    AF_OVERLAP,
    AF_SLICE,
    AF_REMOVE,
    AF_CONCAT,
} af_op;

typedef struct af_name {
    const char *name;
    af_op op;
    int8_t min_args, max_args; /* -1: any */
    int8_t narr;               /* leading arguments that must be arrays (-1: all) */
} af_name;

static const af_name af_names[] = {
        {"array", AF_ARRAY, 0, -1, 0},
        {"array_avg", AF_AVG, 1, 1, 1},
        {"array_concat", AF_CONCAT, 1, -1, -1},
        {"array_contains", AF_CONTAINS, 2, 2, 1},
        {"array_distinct", AF_DISTINCT, 1, 1, 1},
        {"array_join", AF_JOIN, 2, 3, 1},
        {"array_max", AF_MAX, 1, 1, 1},
        {"array_min", AF_MIN, 1, 1, 1},
        {"array_position", AF_POSITION, 2, 2, 1},
        {"array_remove", AF_REMOVE, 2, 2, 1},
        {"array_size", AF_SIZE, 1, 1, 1},
        {"array_slice", AF_SLICE, 2, 3, 1},
        {"array_sort", AF_SORT, 1, 1, 1},
        {"array_sum", AF_SUM, 1, 1, 1},
        {"arrays_overlap", AF_OVERLAP, 2, 2, 2},
        {"cardinality", AF_SIZE, 1, 1, 1},
        {"element_at", AF_ELEMENT_AT, 2, 2, 1},
        {"size", AF_SIZE, 1, 1, 1},
};

/* What the type rule decided, for eval (in the statement arena, e->aux). */
typedef struct af_info {
    cat_type et;      /* element type of the first array argument (ARRAY: of the result) */
    cat_type rt;      /* element type of an ARRAY result */
    plan_xtype ext;   /* et as a value type */
    plan_vkind evk;   /* kind of et's values */
    plan_cmp_mode cm; /* element comparisons */
    bool has_et;      /* false when the array argument is a bare NULL */
} af_info;

/* One element read back: its value and where its canonical text is. */
typedef struct af_elem {
    plan_value v;
    const char *s; /* canonical text of the element */
    size_t len;
} af_elem;

/* ---- element values ---- */

static plan_cmp_mode
cmp_of(const cat_type *t)
{
    switch (t->id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
        return PLAN_CMP_INT;
    case CAT_T_LARGEINT:
    case CAT_T_DECIMAL:
        return PLAN_CMP_DECIMAL;
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE:
        return PLAN_CMP_DOUBLE;
    case CAT_T_DATE:
    case CAT_T_DATETIME:
        return PLAN_CMP_DATETIME;
    default:
        return PLAN_CMP_BINARY; /* strings compare case-sensitively, as Doris; arrays as text */
    }
}

/* The value of a canonical element of type et. Text that does not read as et (never written
 * by Rivulet) gives NULL rather than a crash. */
static void
elem_value(plan_ectx *cx, const cat_type *et, const plan_arr_elem *el, af_elem *out)
{
    out->v = plan__v_null();
    out->s = el->kind == PLAN_ARR_STR ? el->s - 1 : el->s;
    out->len = el->kind == PLAN_ARR_STR ? el->len + 2 : el->len;
    if (el->kind == PLAN_ARR_NULL) {
        return;
    }
    if (el->kind == PLAN_ARR_ARRAY) {
        out->v = plan__v_str(el->s, el->len);
        return;
    }
    const char *t = el->s;
    size_t n = el->len;
    if (el->kind == PLAN_ARR_STR) {
        char *u = arena_alloc(cx->a, n + 1);
        n = plan__arr_unescape(el->s, el->len, u);
        u[n] = '\0';
        t = u;
    }
    char tmp[96];
    switch (et->id) {
    case CAT_T_BOOLEAN:
    case CAT_T_TINYINT:
    case CAT_T_SMALLINT:
    case CAT_T_INT:
    case CAT_T_BIGINT:
    case CAT_T_FLOAT:
    case CAT_T_DOUBLE: {
        if (n >= sizeof tmp) {
            return;
        }
        memcpy(tmp, t, n);
        tmp[n] = '\0';
        char *end;
        if (et->id == CAT_T_FLOAT || et->id == CAT_T_DOUBLE) {
            double d = strtod(tmp, &end);
            if (end != tmp) {
                out->v = plan__v_double(d);
            }
        } else {
            long long x = strtoll(tmp, &end, 10);
            if (end != tmp) {
                out->v = plan__v_int((int64_t)x);
            }
        }
        return;
    }
    case CAT_T_LARGEINT:
    case CAT_T_DECIMAL: {
        __int128 x;
        int sc;
        if (et->id == CAT_T_LARGEINT) { /* up to 39 digits: beyond plan__dec_parse */
            bool neg = n > 0 && t[0] == '-';
            unsigned __int128 u = 0;
            size_t i = neg ? 1 : 0;
            bool ok = i < n;
            const unsigned __int128 lim = ((unsigned __int128)1 << 127) - (neg ? 0 : 1);
            for (; i < n && ok; i++) {
                unsigned d = (unsigned)(t[i] - '0');
                ok = t[i] >= '0' && t[i] <= '9' && u <= (lim - d) / 10;
                u = u * 10 + d;
            }
            if (ok) {
                out->v = plan__v_dec(neg ? (__int128)(0 - u) : (__int128)u, 0);
            }
            return;
        }
        if (plan__dec_parse(t, n, &x, &sc)) {
            out->v = plan__v_dec(x, sc);
        }
        return;
    }
    case CAT_T_DATE:
    case CAT_T_DATETIME: {
        int64_t us;
        bool has_time;
        if (plan__parse_datetime(t, n, &us, &has_time)) {
            out->v.kind = et->id == CAT_T_DATE ? PV_DATE : PV_DATETIME;
            out->v.us = us;
            out->v.scale = et->id == CAT_T_DATE ? 0 : et->scale;
        }
        return;
    }
    default:
        out->v = plan__v_str(t, n);
        return;
    }
}

/* Reads every element of the canonical text s into an arena array; -1 when malformed. */
static int64_t
elems_of(plan_ectx *cx, const cat_type *et, const char *s, size_t len, af_elem **out)
{
    int64_t n = plan__arr_count(s, len);
    if (n < 0) {
        return -1;
    }
    af_elem *v = arena_alloc(cx->a, (size_t)(n ? n : 1) * sizeof *v);
    plan_arr_iter it;
    plan_arr_elem el;
    plan__arr_begin(&it, s, len);
    for (int64_t i = 0; i < n && plan__arr_next(&it, &el) == 1; i++) {
        elem_value(cx, et, &el, &v[i]);
    }
    *out = v;
    return n;
}

static void
put_elem(plan_arr_out *o, const af_elem *el)
{
    if (el->v.kind == PV_NULL) {
        plan__arr_out_null(o);
    } else {
        plan__arr_out_elem(o, el->s, el->len);
    }
}

/* ---- arguments ---- */

/* Argument i as canonical array text; *is_null for NULL (and malformed text). */
static int
arg_array(plan_ectx *cx, const plan_expr *e, uint32_t i, const char **s, size_t *len, bool *is_null,
          db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[i], &v, err) != DB_OK) {
        return DB_ERR;
    }
    *is_null = !plan__v_string(cx, &v, s, len);
    return DB_OK;
}

static int
arg_int(plan_ectx *cx, const plan_expr *e, uint32_t i, int64_t *x, bool *is_null, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[i], &v, err) != DB_OK) {
        return DB_ERR;
    }
    *is_null = v.kind == PV_NULL;
    if (!*is_null) {
        bool trunc = false;
        *x = plan__v_to_int(&v, &trunc);
    }
    return DB_OK;
}

static int
finish_array(plan_arr_out *o, plan_value *out)
{
    size_t n;
    const char *t = plan__arr_out_end(o, &n);
    *out = plan__v_str(t, n);
    return DB_OK;
}

/* ---- evaluation ---- */

static int
ev_array(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    for (uint32_t i = 0; i < e->nargs; i++) {
        plan_value v;
        if (plan__eval(cx, e->args[i], &v, err) != DB_OK) {
            return DB_ERR;
        }
        plan__arr_put(cx, &in->rt, &v, &o);
    }
    return finish_array(&o, out);
}

static int
ev_one(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    const char *s;
    size_t len;
    bool isnull;
    *out = plan__v_null();
    if (arg_array(cx, e, 0, &s, &len, &isnull, err) != DB_OK) {
        return DB_ERR;
    }
    if (isnull) {
        return DB_OK;
    }
    af_elem *el;
    int64_t n = elems_of(cx, &in->et, s, len, &el);
    if (n < 0) {
        return DB_OK;
    }
    switch ((af_op)e->op) {
    case AF_SIZE:
        *out = plan__v_int(n);
        return DB_OK;
    case AF_MIN:
    case AF_MAX: {
        const af_elem *best = NULL;
        for (int64_t i = 0; i < n; i++) {
            if (el[i].v.kind == PV_NULL) {
                continue;
            }
            int c = best ? plan__compare(cx, in->cm, &el[i].v, &best->v) : 0;
            if (!best || (e->op == AF_MIN ? c < 0 : c > 0)) {
                best = &el[i];
            }
        }
        if (best) {
            *out = best->v;
            if (e->vk == PV_DECIMAL && out->kind == PV_INT) {
                *out = plan__v_dec(out->i, 0);
            }
        }
        return DB_OK;
    }
    case AF_SUM:
    case AF_AVG: {
        int64_t cnt = 0;
        double d = 0;
        __int128 x = 0;
        int64_t ix = 0;
        bool dec = in->et.id == CAT_T_DECIMAL || in->et.id == CAT_T_LARGEINT;
        for (int64_t i = 0; i < n; i++) {
            const plan_value *v = &el[i].v;
            if (v->kind == PV_NULL) {
                continue;
            }
            cnt++;
            if (v->kind == PV_DOUBLE) {
                d += v->d;
            } else if (v->kind == PV_DECIMAL) {
                __int128 r = v->dec; /* LARGEINT: 39 digits, beyond a DECIMAL rescale */
                if (v->scale != in->et.scale &&
                    !plan__dec_rescale(v->dec, v->scale, in->et.scale, &r)) {
                    r = 0;
                }
                x += r;
            } else {
                ix += v->i;
                d += (double)v->i;
            }
        }
        if (cnt == 0) {
            return DB_OK;
        }
        if (e->op == AF_SUM) {
            if (e->vk == PV_DOUBLE) {
                *out = plan__v_double(d);
            } else if (dec) {
                *out = plan__v_dec(x, in->et.id == CAT_T_DECIMAL ? in->et.scale : 0);
            } else {
                *out = plan__v_int(ix);
            }
            return DB_OK;
        }
        if (dec) {
            int sc = e->t.scale;
            __int128 r;
            if (!plan__dec_rescale(x, in->et.id == CAT_T_DECIMAL ? in->et.scale : 0, sc, &r)) {
                return DB_OK;
            }
            __int128 q = r / cnt, rem = r % cnt;
            if ((rem < 0 ? -rem : rem) * 2 >= cnt) {
                q += r < 0 ? -1 : 1;
            }
            *out = plan__v_dec(q, sc);
        } else {
            *out = plan__v_double(d / (double)cnt);
        }
        return DB_OK;
    }
    case AF_DISTINCT: {
        plan_arr_out o;
        plan__arr_out_init(&o, cx->a);
        bool seen_null = false;
        for (int64_t i = 0; i < n; i++) {
            if (el[i].v.kind == PV_NULL) {
                if (!seen_null) {
                    put_elem(&o, &el[i]);
                }
                seen_null = true;
                continue;
            }
            bool dup = false;
            for (int64_t j = 0; j < i && !dup; j++) {
                dup = el[j].v.kind != PV_NULL && plan__compare(cx, in->cm, &el[i].v, &el[j].v) == 0;
            }
            if (!dup) {
                put_elem(&o, &el[i]);
            }
        }
        return finish_array(&o, out);
    }
    case AF_SORT: {
        /* stable insertion sort into an index array; NULLs first (Doris) */
        af_elem **ix = arena_alloc(cx->a, (size_t)(n ? n : 1) * sizeof *ix);
        for (int64_t i = 0; i < n; i++) {
            af_elem *cur = &el[i];
            int64_t j = i;
            while (j > 0 && cur->v.kind == PV_NULL && ix[j - 1]->v.kind != PV_NULL) {
                ix[j] = ix[j - 1];
                j--;
            }
            while (j > 0 && cur->v.kind != PV_NULL && ix[j - 1]->v.kind != PV_NULL &&
                   plan__compare(cx, in->cm, &ix[j - 1]->v, &cur->v) > 0) {
                ix[j] = ix[j - 1];
                j--;
            }
            ix[j] = cur;
        }
        plan_arr_out o;
        plan__arr_out_init(&o, cx->a);
        for (int64_t i = 0; i < n; i++) {
            put_elem(&o, ix[i]);
        }
        return finish_array(&o, out);
    }
    default:
        return DB_OK;
    }
}

/* ARRAY_CONTAINS, ARRAY_POSITION, ARRAY_REMOVE: an array and a value (NULL finds null
 * elements, except for ARRAY_REMOVE, whose NULL value gives NULL). */
static int
ev_find(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    const char *s;
    size_t len;
    bool isnull;
    *out = plan__v_null();
    if (arg_array(cx, e, 0, &s, &len, &isnull, err) != DB_OK) {
        return DB_ERR;
    }
    plan_value v;
    if (plan__eval(cx, e->args[1], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (isnull || (e->op == AF_REMOVE && v.kind == PV_NULL)) {
        return DB_OK;
    }
    af_elem *el;
    int64_t n = elems_of(cx, &in->et, s, len, &el);
    if (n < 0) {
        return DB_OK;
    }
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    for (int64_t i = 0; i < n; i++) {
        bool eq = v.kind == PV_NULL
                          ? el[i].v.kind == PV_NULL
                          : el[i].v.kind != PV_NULL && plan__compare(cx, e->cmp, &el[i].v, &v) == 0;
        if (e->op == AF_REMOVE) {
            if (!eq) {
                put_elem(&o, &el[i]);
            }
        } else if (eq) {
            *out = plan__v_int(e->op == AF_CONTAINS ? 1 : i + 1);
            return DB_OK;
        }
    }
    if (e->op == AF_REMOVE) {
        return finish_array(&o, out);
    }
    *out = plan__v_int(0);
    return DB_OK;
}

static int
ev_element_at(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    const char *s;
    size_t len;
    bool isnull, inull;
    int64_t k = 0;
    *out = plan__v_null();
    if (arg_array(cx, e, 0, &s, &len, &isnull, err) != DB_OK ||
        arg_int(cx, e, 1, &k, &inull, err) != DB_OK) {
        return DB_ERR;
    }
    if (isnull || inull || k == 0) {
        return DB_OK;
    }
    int64_t n = plan__arr_count(s, len);
    if (n < 0 || k > n || k < -n) {
        return DB_OK;
    }
    int64_t want = k > 0 ? k - 1 : n + k;
    plan_arr_iter it;
    plan_arr_elem el;
    plan__arr_begin(&it, s, len);
    for (int64_t i = 0; plan__arr_next(&it, &el) == 1; i++) {
        if (i == want) {
            af_elem v;
            elem_value(cx, &in->et, &el, &v);
            *out = v.v;
            return DB_OK;
        }
    }
    return DB_OK;
}

static int
ev_join(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    const char *s, *sep, *nr = NULL;
    size_t len, seplen, nrlen = 0;
    bool isnull;
    *out = plan__v_null();
    if (arg_array(cx, e, 0, &s, &len, &isnull, err) != DB_OK) {
        return DB_ERR;
    }
    plan_value v;
    if (plan__eval(cx, e->args[1], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (!plan__v_string(cx, &v, &sep, &seplen)) {
        return DB_OK;
    }
    if (e->nargs == 3) {
        if (plan__eval(cx, e->args[2], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (!plan__v_string(cx, &v, &nr, &nrlen)) {
            return DB_OK;
        }
    }
    if (isnull) {
        return DB_OK;
    }
    plan_arr_iter it;
    plan_arr_elem el;
    if (!plan__arr_begin(&it, s, len)) {
        return DB_OK;
    }
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    plan__arr_out_raw(&o, "", 0);
    bool first = true;
    while (plan__arr_next(&it, &el) == 1) {
        const char *t = el.s;
        size_t n = el.len;
        if (el.kind == PLAN_ARR_NULL) {
            if (nrlen == 0) {
                continue; /* no or an empty replacement: NULL elements are dropped */
            }
            t = nr;
            n = nrlen;
        } else if (el.kind == PLAN_ARR_STR) {
            char *u = arena_alloc(cx->a, n + 1);
            n = plan__arr_unescape(el.s, el.len, u);
            t = u;
        }
        if (!first) {
            plan__arr_out_raw(&o, sep, seplen);
        }
        first = false;
        plan__arr_out_raw(&o, t, n);
    }
    (void)in;
    *out = plan__v_str(o.p, o.len);
    return DB_OK;
}

static int
ev_overlap(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    const char *s1, *s2;
    size_t l1, l2;
    bool n1, n2;
    *out = plan__v_null();
    if (arg_array(cx, e, 0, &s1, &l1, &n1, err) != DB_OK ||
        arg_array(cx, e, 1, &s2, &l2, &n2, err) != DB_OK) {
        return DB_ERR;
    }
    if (n1 || n2) {
        return DB_OK;
    }
    af_elem *a, *b;
    int64_t na = elems_of(cx, &in->et, s1, l1, &a);
    int64_t nb = elems_of(cx, &in->rt, s2, l2, &b);
    if (na < 0 || nb < 0) {
        return DB_OK;
    }
    for (int64_t i = 0; i < na; i++) {
        for (int64_t j = 0; j < nb && a[i].v.kind != PV_NULL; j++) {
            if (b[j].v.kind != PV_NULL && plan__compare(cx, e->cmp, &a[i].v, &b[j].v) == 0) {
                *out = plan__v_int(1);
                return DB_OK;
            }
        }
    }
    *out = plan__v_int(0);
    return DB_OK;
}

static int
ev_slice(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const char *s;
    size_t len;
    bool isnull, onull, lnull = false;
    int64_t off = 0, cnt = INT64_MAX;
    *out = plan__v_null();
    if (arg_array(cx, e, 0, &s, &len, &isnull, err) != DB_OK ||
        arg_int(cx, e, 1, &off, &onull, err) != DB_OK ||
        (e->nargs == 3 && arg_int(cx, e, 2, &cnt, &lnull, err) != DB_OK)) {
        return DB_ERR;
    }
    if (isnull || onull || lnull) {
        return DB_OK;
    }
    int64_t n = plan__arr_count(s, len);
    if (n < 0) {
        return DB_OK;
    }
    int64_t start = off > 0 ? off - 1 : n + off; /* 0-based; off 0 or beyond: empty */
    if (off == 0 || start < 0 || start >= n || cnt < 0) {
        cnt = 0;
    }
    plan_arr_iter it;
    plan_arr_elem el;
    plan__arr_begin(&it, s, len);
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    for (int64_t i = 0; cnt > 0 && plan__arr_next(&it, &el) == 1; i++) {
        if (i < start) {
            continue;
        }
        if (el.kind == PLAN_ARR_NULL) {
            plan__arr_out_null(&o);
        } else if (el.kind == PLAN_ARR_STR) {
            plan__arr_out_elem(&o, el.s - 1, el.len + 2);
        } else {
            plan__arr_out_elem(&o, el.s, el.len);
        }
        cnt--;
    }
    return finish_array(&o, out);
}

static int
ev_concat(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const af_info *in = e->aux;
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    *out = plan__v_null();
    for (uint32_t i = 0; i < e->nargs; i++) {
        const char *s;
        size_t len;
        bool isnull;
        if (arg_array(cx, e, i, &s, &len, &isnull, err) != DB_OK) {
            return DB_ERR;
        }
        if (isnull) {
            return DB_OK;
        }
        cat_type at;
        const char *el = e->args[i]->t.elem;
        if (!plan__arr_type_parse(el, strlen(el), &at)) {
            at = in->rt;
        }
        af_elem *v;
        int64_t n = elems_of(cx, &at, s, len, &v);
        for (int64_t k = 0; k < n; k++) {
            plan__arr_put(cx, &in->rt, &v[k].v, &o);
        }
    }
    return finish_array(&o, out);
}

/* ---- type rule ---- */

static const char *
type_label(const plan_xtype *t)
{
    static const char *const names[] = {
            [PLAN_TYPE_NULL] = "NULL_TYPE",    [PLAN_TYPE_BOOLEAN] = "BOOLEAN",
            [PLAN_TYPE_TINYINT] = "TINYINT",   [PLAN_TYPE_SMALLINT] = "SMALLINT",
            [PLAN_TYPE_INT] = "INT",           [PLAN_TYPE_BIGINT] = "BIGINT",
            [PLAN_TYPE_LARGEINT] = "LARGEINT", [PLAN_TYPE_FLOAT] = "FLOAT",
            [PLAN_TYPE_DOUBLE] = "DOUBLE",     [PLAN_TYPE_DECIMAL] = "DECIMALV3",
            [PLAN_TYPE_DATE] = "DATEV2",       [PLAN_TYPE_DATETIME] = "DATETIMEV2",
            [PLAN_TYPE_TIME] = "TIMEV2",       [PLAN_TYPE_CHAR] = "CHAR",
            [PLAN_TYPE_VARCHAR] = "VARCHAR",   [PLAN_TYPE_STRING] = "TEXT",
            [PLAN_TYPE_JSON] = "JSON",         [PLAN_TYPE_ARRAY] = "ARRAY",
    };
    return (size_t)t->type < sizeof names / sizeof names[0] && names[t->type] ? names[t->type]
                                                                              : "UNKNOWN";
}

static int
bad_signature(plan_ectx *cx, const plan_expr *e, db_error *err)
{
    plan_arr_out o;
    plan__arr_out_init(&o, cx->a);
    plan__arr_out_raw(&o, e->name, strlen(e->name));
    plan__arr_out_raw(&o, "(", 1);
    for (uint32_t i = 0; i < e->nargs; i++) {
        const char *l = type_label(&e->args[i]->t);
        if (i) {
            plan__arr_out_raw(&o, ", ", 2);
        }
        plan__arr_out_raw(&o, l, strlen(l));
        if (e->args[i]->t.type == PLAN_TYPE_ARRAY) {
            plan__arr_out_raw(&o, "<", 1);
            plan__arr_out_raw(&o, e->args[i]->t.elem, strlen(e->args[i]->t.elem));
            plan__arr_out_raw(&o, ">", 1);
        }
    }
    plan__arr_out_raw(&o, ")", 1);
    o.p[o.len] = '\0';
    return db_error_set(
            err, ER_DORIS,
            arena_sprintf(cx->a, "Can not find the compatibility function signature: %s", o.p));
}

/* The catalog type of a scalar value type (ARRAY(...) elements). */
static cat_type
cat_of(const plan_xtype *t)
{
    cat_type c;
    memset(&c, 0, sizeof c);
    switch (t->type) {
    case PLAN_TYPE_BOOLEAN:
        c.id = CAT_T_BOOLEAN;
        break;
    case PLAN_TYPE_TINYINT:
        c.id = CAT_T_TINYINT;
        break;
    case PLAN_TYPE_SMALLINT:
        c.id = CAT_T_SMALLINT;
        break;
    case PLAN_TYPE_INT:
        c.id = CAT_T_INT;
        break;
    case PLAN_TYPE_BIGINT:
        c.id = t->is_unsigned ? CAT_T_LARGEINT : CAT_T_BIGINT;
        break;
    case PLAN_TYPE_LARGEINT:
        c.id = CAT_T_LARGEINT;
        break;
    case PLAN_TYPE_FLOAT:
        c.id = CAT_T_FLOAT;
        break;
    case PLAN_TYPE_DOUBLE:
        c.id = CAT_T_DOUBLE;
        break;
    case PLAN_TYPE_DECIMAL:
        c.id = CAT_T_DECIMAL;
        c.precision = t->precision ? t->precision : 1;
        c.scale = t->scale > c.precision ? c.precision : t->scale;
        break;
    case PLAN_TYPE_DATE:
        c.id = CAT_T_DATE;
        break;
    case PLAN_TYPE_DATETIME:
        c.id = CAT_T_DATETIME;
        c.scale = t->scale <= 6 ? t->scale : 0;
        break;
    case PLAN_TYPE_ARRAY:
        c.id = CAT_T_ARRAY;
        memcpy(c.inner, t->elem, sizeof c.inner);
        c.inner[sizeof c.inner - 1] = '\0';
        break;
    default:
        c.id = CAT_T_STRING;
        break;
    }
    return c;
}

void
plan__arr_elem_name(const plan_xtype *t, char *dst, size_t cap)
{
    cat_type c = cat_of(t);
    cat_type_sql_buf(&c, dst, cap);
}

static int
int_rank(uint8_t id)
{
    switch (id) {
    case CAT_T_BOOLEAN:
        return 0;
    case CAT_T_TINYINT:
        return 1;
    case CAT_T_SMALLINT:
        return 2;
    case CAT_T_INT:
        return 3;
    case CAT_T_BIGINT:
        return 4;
    case CAT_T_LARGEINT:
        return 5;
    default:
        return -1;
    }
}

/* The common element type of ARRAY(...)'s arguments: strings if any argument is a string (or
 * temporal and numeric values mix), else DOUBLE, DECIMAL (widest integer digits and scale),
 * the widest integer, DATETIME / DATE; NULL arguments do not count. */
static cat_type
common_type(plan_expr *const *args, uint32_t n)
{
    cat_type r;
    memset(&r, 0, sizeof r);
    bool any = false, str = false, dbl = false, dec = false, tmp = false, num = false;
    bool arr = false;
    int irank = -1, scale = 0, idig = 0, dts = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (args[i]->t.type == PLAN_TYPE_NULL) {
            continue;
        }
        cat_type c = cat_of(&args[i]->t);
        if (!any) {
            r = c;
        }
        any = true;
        switch (c.id) {
        case CAT_T_FLOAT:
        case CAT_T_DOUBLE:
            dbl = num = true;
            break;
        case CAT_T_DECIMAL:
            dec = num = true;
            scale = c.scale > scale ? c.scale : scale;
            idig = c.precision - c.scale > idig ? c.precision - c.scale : idig;
            break;
        case CAT_T_DATE:
            tmp = true;
            break;
        case CAT_T_DATETIME:
            tmp = true;
            dts = c.scale > dts ? c.scale : dts;
            break;
        case CAT_T_ARRAY:
            arr = true;
            break;
        case CAT_T_STRING:
            str = true;
            break;
        default: {
            int rk = int_rank(c.id);
            num = true;
            if (rk > irank) {
                irank = rk;
            }
            static const int digits[] = {1, 3, 5, 10, 19, 39};
            if (rk >= 0 && digits[rk] > idig) {
                idig = digits[rk];
            }
            break;
        }
        }
    }
    if (!any) {
        r.id = CAT_T_TINYINT; /* ARRAY() / ARRAY(NULL): Doris's NULL_TYPE elements print alike */
        return r;
    }
    if (arr) {
        r.id = str || dbl || dec || tmp || num ? CAT_T_INVALID : r.id;
        return r; /* nested: the first array's element type; arrays and scalars do not mix */
    }
    if (str || (tmp && num)) {
        memset(&r, 0, sizeof r);
        r.id = CAT_T_STRING;
    } else if (dbl) {
        memset(&r, 0, sizeof r);
        r.id = CAT_T_DOUBLE;
    } else if (dec) {
        memset(&r, 0, sizeof r);
        r.id = CAT_T_DECIMAL;
        int p = idig + scale;
        r.precision = (uint8_t)(p > CAT_DECIMAL_MAX ? CAT_DECIMAL_MAX : (p < 1 ? 1 : p));
        r.scale = (uint8_t)(scale > r.precision ? r.precision : scale);
    } else if (tmp) {
        memset(&r, 0, sizeof r);
        r.id = dts >= 0 ? CAT_T_DATETIME : CAT_T_DATE;
        r.scale = (uint8_t)(dts > 0 ? dts : 0);
    } else {
        static const uint8_t ids[] = {CAT_T_BOOLEAN, CAT_T_TINYINT, CAT_T_SMALLINT,
                                      CAT_T_INT,     CAT_T_BIGINT,  CAT_T_LARGEINT};
        memset(&r, 0, sizeof r);
        r.id = ids[irank < 0 ? 1 : irank];
    }
    return r;
}

static void
set_array_result(plan_expr *e, const cat_type *et, bool nullable)
{
    plan__type_string(&e->t, 65535, nullable);
    e->t.type = PLAN_TYPE_ARRAY;
    cat_type_sql_buf(et, e->t.elem, sizeof e->t.elem);
    e->vk = PV_STRING;
}

int
plan__ty_array(plan_ectx *cx, plan_expr *e, db_error *err)
{
    const af_name *f = NULL;
    for (size_t i = 0; i < sizeof af_names / sizeof af_names[0]; i++) {
        if (strcmp(e->name, af_names[i].name) == 0) {
            f = &af_names[i];
            break;
        }
    }
    if (f == NULL || (int)e->nargs < f->min_args ||
        (f->max_args >= 0 && (int)e->nargs > f->max_args)) {
        return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, e->name);
    }
    e->op = (int)f->op;
    af_info *in = arena_calloc(cx->a, 1, sizeof *in);
    e->aux = in;
    uint32_t narr = f->narr < 0 ? e->nargs : (uint32_t)f->narr;
    for (uint32_t i = 0; i < narr; i++) {
        const plan_xtype *t = &e->args[i]->t;
        if (t->type == PLAN_TYPE_NULL) {
            continue;
        }
        cat_type at;
        if (t->type != PLAN_TYPE_ARRAY || !plan__arr_type_parse(t->elem, strlen(t->elem), &at)) {
            return bad_signature(cx, e, err);
        }
        if (!in->has_et) {
            in->et = at;
            in->has_et = true;
        } else if (i == 1) {
            in->rt = at; /* ARRAYS_OVERLAP: the second array's elements */
        }
    }
    if (!in->has_et) {
        in->et.id = CAT_T_TINYINT;
    }
    plan__cat_xtype(&in->et, true, &in->ext, &in->evk);
    in->cm = cmp_of(&in->et);
    switch (f->op) {
    case AF_ARRAY:
        in->rt = common_type(e->args, e->nargs);
        if (in->rt.id == CAT_T_INVALID) {
            return bad_signature(cx, e, err);
        }
        set_array_result(e, &in->rt, false);
        e->eval = ev_array;
        return DB_OK;
    case AF_SIZE:
        plan__type_bigint(&e->t, 20, true);
        e->vk = PV_INT;
        e->eval = ev_one;
        return DB_OK;
    case AF_MIN:
    case AF_MAX:
        e->t = in->ext;
        e->t.nullable = true;
        e->vk = in->evk;
        e->eval = ev_one;
        return DB_OK;
    case AF_SUM:
    case AF_AVG: {
        uint8_t id = in->et.id;
        if (int_rank(id) < 0 && id != CAT_T_DECIMAL && id != CAT_T_FLOAT && id != CAT_T_DOUBLE) {
            return bad_signature(cx, e, err);
        }
        if (id == CAT_T_FLOAT || id == CAT_T_DOUBLE ||
            (f->op == AF_AVG && int_rank(id) >= 0 && id != CAT_T_LARGEINT)) {
            plan__type_double(&e->t, true);
            e->vk = PV_DOUBLE;
        } else if (id == CAT_T_DECIMAL || id == CAT_T_LARGEINT) {
            cat_type d = cat_type_decimal(CAT_DECIMAL_MAX, id == CAT_T_DECIMAL ? in->et.scale : 0);
            if (f->op == AF_AVG && d.scale < 4) {
                d.scale = 4; /* AVG of decimals: scale at least 4, as Doris's AVG */
            }
            if (id == CAT_T_LARGEINT && f->op == AF_SUM) {
                d = cat_type_make(CAT_T_LARGEINT);
            }
            plan__cat_xtype(&d, true, &e->t, &e->vk);
        } else {
            plan__type_bigint(&e->t, 20, true);
            e->vk = PV_INT;
        }
        e->eval = ev_one;
        return DB_OK;
    }
    case AF_DISTINCT:
    case AF_SORT:
        set_array_result(e, &in->et, true);
        e->eval = ev_one;
        return DB_OK;
    case AF_CONTAINS:
    case AF_POSITION:
    case AF_REMOVE: {
        plan_expr probe;
        memset(&probe, 0, sizeof probe);
        probe.t = in->ext;
        probe.vk = in->evk;
        e->cmp = in->et.id == CAT_T_STRING || in->et.id == CAT_T_VARCHAR ||
                                 in->et.id == CAT_T_CHAR || in->et.id == CAT_T_ARRAY
                         ? PLAN_CMP_BINARY
                         : plan__cmp_mode(&probe, e->args[1]);
        if (f->op == AF_REMOVE) {
            set_array_result(e, &in->et, true);
        } else if (f->op == AF_CONTAINS) {
            plan__type_bigint(&e->t, 1, true);
            e->t.type = PLAN_TYPE_BOOLEAN;
            e->vk = PV_INT;
        } else {
            plan__type_bigint(&e->t, 20, true);
            e->vk = PV_INT;
        }
        e->eval = ev_find;
        return DB_OK;
    }
    case AF_ELEMENT_AT:
        e->t = in->ext;
        e->t.nullable = true;
        e->vk = in->evk;
        e->eval = ev_element_at;
        return DB_OK;
    case AF_JOIN:
        plan__type_string(&e->t, 65535, true);
        e->t.type = PLAN_TYPE_STRING;
        e->vk = PV_STRING;
        e->eval = ev_join;
        return DB_OK;
    case AF_OVERLAP: {
        if (in->rt.id == 0) {
            in->rt = in->et;
        }
        e->cmp = cmp_of(&in->et) == cmp_of(&in->rt) ? cmp_of(&in->et) : PLAN_CMP_STRING;
        plan__type_bigint(&e->t, 1, true);
        e->t.type = PLAN_TYPE_BOOLEAN;
        e->vk = PV_INT;
        e->eval = ev_overlap;
        return DB_OK;
    }
    case AF_SLICE:
        set_array_result(e, &in->et, true);
        e->eval = ev_slice;
        return DB_OK;
    case AF_CONCAT: {
        /* the common type of the arguments' element types */
        plan_expr *tmp = arena_calloc(cx->a, e->nargs, sizeof *tmp);
        plan_expr **pp = arena_calloc(cx->a, e->nargs, sizeof *pp);
        for (uint32_t i = 0; i < e->nargs; i++) {
            cat_type at;
            const char *el = e->args[i]->t.elem;
            pp[i] = &tmp[i];
            if (e->args[i]->t.type == PLAN_TYPE_ARRAY &&
                plan__arr_type_parse(el, strlen(el), &at)) {
                plan__cat_xtype(&at, true, &tmp[i].t, &tmp[i].vk);
                if (at.id == CAT_T_ARRAY) {
                    memcpy(tmp[i].t.elem, at.inner, sizeof tmp[i].t.elem);
                }
            }
        }
        in->rt = common_type(pp, e->nargs);
        set_array_result(e, &in->rt, true);
        e->eval = ev_concat;
        return DB_OK;
    }
    }
    return db_error_set(err, ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, e->name);
}
