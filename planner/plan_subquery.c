/* SPDX-License-Identifier: Apache-2.0
 * plan_subquery.c: subqueries in expressions. A PA_SUBQUERY node (scalar, EXISTS, [NOT] IN,
 * cmp ANY/SOME, cmp ALL) is analysed into a plan_expr whose evaluation drains the inner
 * SELECT's operator tree, built once at analysis with plan__subq_build. Columns of enclosing
 * queries (correlation) are captured: each capture is an expression over the enclosing row,
 * evaluated before a run into plan_subq.cur, which the inner outer-reference expressions read.
 * Results are cached for the statement per distinct capture tuple (one entry when
 * uncorrelated): the scalar value, the EXISTS bit, or the sorted value set of IN/ANY/ALL
 * (binary search in the comparison mode). See README.md §Subqueries. */
#include "planner/plan_exec_int.h"

#include <string.h>
#include <strings.h>

#include "planner/parse.h"

/* One cached result of the inner query (for one capture tuple). */
typedef struct sq_entry {
    const char *key; /* serialized capture values (sq_key), in the statement arena */
    size_t key_len;
    uint64_t hash;
    uint64_t nrows;   /* rows the run returned (capped at 2 for scalar, 1 for EXISTS) */
    plan_value first; /* scalar: the value of the row */
    plan_value *vals; /* IN / ANY / ALL: non-NULL values, sorted in the comparison mode */
    size_t nvals;
    bool has_null; /* IN / ANY / ALL: a NULL among the values */
} sq_entry;

typedef struct plan_subq {
    int kind; /* PLAN_SUBQ_* */
    int cmp;  /* ANY / ALL: operator token */
    bool negated;
    plan_op *root;          /* inner tree (NULL when describing) */
    const plan_expr *col;   /* the inner first select expression */
    plan_cmp_mode mode;     /* IN / ANY / ALL: how the left operand compares to the values */
    arena *a;               /* statement arena: cache and capture values */
    plan_expr **caps;       /* captures: expressions over the enclosing query's row */
    const void **cap_aux;   /* their identity: the outer plan_subq (NULL = a column) ... */
    int *cap_slot;          /* ... and its slot */
    uint32_t ncaps, capcap; /* captures used / allocated */
    const plan_value *cur;  /* capture values of the running evaluation, NULL outside one */
    sq_entry *single;       /* uncorrelated: the one result */
    sq_entry **slots;       /* correlated: open addressing by hash, power of two */
    uint32_t nslots, nused;
} plan_subq;

/* ---- outer references ---- */

static int
eval_outer(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)cx;
    const plan_subq *sq = e->aux;
    if (!sq->cur) { /* evaluated outside a run (constant folding at plan time): not a constant */
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "outer reference outside its subquery");
    }
    *out = sq->cur[e->slot];
    return DB_OK;
}

/* Index of the capture with identity (aux, slot), added with expression src when new. */
static int
capture(plan_subq *sq, plan_expr *src, const void *aux, int slot)
{
    for (uint32_t i = 0; i < sq->ncaps; i++) {
        if (sq->cap_aux[i] == aux && sq->cap_slot[i] == slot) {
            return (int)i;
        }
    }
    if (sq->ncaps == sq->capcap) {
        uint32_t nc = sq->capcap ? sq->capcap * 2 : 4;
        plan_expr **c = arena_alloc(sq->a, nc * sizeof *c);
        const void **ca = arena_alloc(sq->a, nc * sizeof *ca);
        int *cs = arena_alloc(sq->a, nc * sizeof *cs);
        if (sq->ncaps) {
            memcpy(c, sq->caps, sq->ncaps * sizeof *c);
            memcpy(ca, sq->cap_aux, sq->ncaps * sizeof *ca);
            memcpy(cs, sq->cap_slot, sq->ncaps * sizeof *cs);
        }
        sq->caps = c;
        sq->cap_aux = ca;
        sq->cap_slot = cs;
        sq->capcap = nc;
    }
    sq->caps[sq->ncaps] = src;
    sq->cap_aux[sq->ncaps] = aux;
    sq->cap_slot[sq->ncaps] = slot;
    return (int)sq->ncaps++;
}

/* An expression valid inside the query that sc->sq belongs to, reading column x of the query
 * sc describes (or of one further out), or NULL. */
static plan_expr *
outer_resolve(plan_ectx *cx, const plan_subq_scope *sc, const plan_ast *x)
{
    plan_expr *src = arena_calloc(cx->a, 1, sizeof *src);
    const void *aux = NULL;
    int slot = plan__bind_find(sc->cols, sc->ncols, x);
    for (size_t i = 0; slot < 0 && i < sc->ncols; i++) {
        /* a grouped column of an aggregate query (bound by node, named for us) */
        const plan_bind_col *c = &sc->cols[i];
        if (c->ast && c->name[0] && strcasecmp(c->name, x->name) == 0 &&
            (!x->qual || (c->table && (c->table_ci ? strcasecmp(c->table, x->qual)
                                                   : strcmp(c->table, x->qual)) == 0))) {
            slot = (int)i;
        }
    }
    if (slot >= 0) {
        src->src = x;
        plan__bind_column(sc->cols, slot, src);
    } else if (sc->up) {
        src = outer_resolve(cx, sc->up, x);
        if (!src) {
            return NULL;
        }
        aux = src->aux;
        slot = src->slot;
    } else {
        return NULL;
    }
    plan_expr *e = arena_calloc(cx->a, 1, sizeof *e);
    e->src = x;
    e->t = src->t;
    e->t.nullable = true;
    e->vk = src->vk;
    e->eval = eval_outer;
    e->aux = sc->sq;
    e->slot = capture(sc->sq, src, aux, slot);
    return e;
}

bool
plan__subq_outer(plan_ectx *cx, const plan_ast *x, plan_expr *e)
{
    plan_expr *r = outer_resolve(cx, cx->outer, x);
    if (!r) {
        return false;
    }
    e->t = r->t;
    e->vk = r->vk;
    e->eval = r->eval;
    e->aux = r->aux;
    e->slot = r->slot;
    e->nargs = 0;
    return true;
}

/* ---- the cache ---- */

static void
key_put(arena *a, char **buf, size_t *len, size_t *cap, const void *p, size_t n)
{
    if (*len + n > *cap) {
        size_t nc = (*cap + n) * 2;
        char *b = arena_alloc(a, nc);
        if (*len) {
            memcpy(b, *buf, *len);
        }
        *buf = b;
        *cap = nc;
    }
    memcpy(*buf + *len, p, n);
    *len += n;
}

/* The capture values as bytes: equal bytes mean the same inner result. */
static const char *
sq_key(arena *a, const plan_subq *sq, const plan_value *v, size_t *len)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < sq->ncaps; i++) {
        uint8_t hdr[4] = {v[i].kind, v[i].is_unsigned, v[i].is_binary, v[i].scale};
        key_put(a, &buf, &n, &cap, hdr, sizeof hdr);
        switch (v[i].kind) {
        case PV_NULL:
            break;
        case PV_DECIMAL:
            key_put(a, &buf, &n, &cap, &v[i].dec, sizeof v[i].dec);
            break;
        case PV_STRING:
            key_put(a, &buf, &n, &cap, &v[i].str.len, sizeof v[i].str.len);
            key_put(a, &buf, &n, &cap, v[i].str.s, v[i].str.len);
            break;
        default: /* i, u, d, us share the first 8 bytes */
            key_put(a, &buf, &n, &cap, &v[i].i, sizeof v[i].i);
            break;
        }
    }
    *len = n;
    return buf ? buf : "";
}

static uint64_t
key_hash(const char *k, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (unsigned char)k[i]) * 1099511628211ULL;
    }
    return h;
}

static sq_entry **
cache_slot(plan_subq *sq, const char *k, size_t n, uint64_t h)
{
    uint32_t mask = sq->nslots - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        sq_entry *e = sq->slots[i];
        if (!e || (e->hash == h && e->key_len == n && memcmp(e->key, k, n) == 0)) {
            return &sq->slots[i];
        }
    }
}

static void
cache_add(plan_subq *sq, sq_entry *e)
{
    if ((sq->nused + 1) * 2 > sq->nslots) {
        uint32_t ns = sq->nslots ? sq->nslots * 2 : 64;
        sq_entry **old = sq->slots;
        uint32_t nold = sq->nslots;
        sq->slots = arena_calloc(sq->a, ns, sizeof *sq->slots);
        sq->nslots = ns;
        for (uint32_t i = 0; i < nold; i++) {
            if (old[i]) {
                *cache_slot(sq, old[i]->key, old[i]->key_len, old[i]->hash) = old[i];
            }
        }
    }
    *cache_slot(sq, e->key, e->key_len, e->hash) = e;
    sq->nused++;
}

/* ---- running the inner query ---- */

static plan_value
copy_value(arena *a, const plan_value *v)
{
    plan_value c = *v;
    if (v->kind == PV_STRING && v->str.len) {
        c.str.s = arena_strndup(a, v->str.s, v->str.len);
    }
    return c;
}

/* Stable merge sort of v[0..n) in mode (tmp has room for n). */
static void
sort_vals(plan_ectx *cx, plan_cmp_mode mode, plan_value *v, plan_value *tmp, size_t n)
{
    if (n < 2) {
        return;
    }
    size_t m = n / 2;
    sort_vals(cx, mode, v, tmp, m);
    sort_vals(cx, mode, v + m, tmp, n - m);
    size_t i = 0, j = m, k = 0;
    while (i < m && j < n) {
        tmp[k++] = plan__compare(cx, mode, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
    }
    while (i < m) {
        tmp[k++] = v[i++];
    }
    while (j < n) {
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, n * sizeof *v);
}

/* Run the inner tree once (sq->cur set) into entry r. */
static int
sq_run(plan_ectx *cx, plan_subq *sq, sq_entry *r, db_error *err)
{
    plan_op *root = sq->root;
    size_t cap = 0;
    if (!root) { /* only described (plan_prepare): there are no rows */
        return DB_OK;
    }
    int rc = root->open(root, err);
    bool done = false;
    while (rc == DB_OK && !done) {
        plan_batch *b = NULL;
        rc = root->next(root, &b, err);
        if (rc != DB_OK || !b) {
            break;
        }
        uint32_t n = plan__batch_active(b);
        for (uint32_t k = 0; k < n && !done; k++) {
            uint32_t row = plan__batch_row(b, k);
            r->nrows++;
            if (sq->kind == PLAN_SUBQ_EXISTS) {
                done = true;
                break;
            }
            plan_value v;
            plan__batch_get(b, 0, row, &v);
            if (sq->kind == PLAN_SUBQ_SCALAR) {
                if (r->nrows > 1) {
                    rc = db_error_set(err, ER_SUBQUERY_NO_1_ROW);
                    done = true;
                    break;
                }
                r->first = copy_value(sq->a, &v);
                continue;
            }
            if (v.kind == PV_NULL) {
                r->has_null = true;
                continue;
            }
            if (r->nvals == cap) {
                size_t nc = cap ? cap * 2 : 16;
                plan_value *nv = arena_alloc(sq->a, nc * sizeof *nv);
                if (r->nvals) {
                    memcpy(nv, r->vals, r->nvals * sizeof *nv);
                }
                r->vals = nv;
                cap = nc;
            }
            r->vals[r->nvals++] = copy_value(sq->a, &v);
        }
    }
    root->close(root);
    if (rc == DB_OK && r->nvals > 1) {
        plan_value *tmp = arena_alloc(sq->a, r->nvals * sizeof *tmp);
        sort_vals(cx, sq->mode, r->vals, tmp, r->nvals);
    }
    return rc;
}

/* The cached result for the current row of the enclosing query, running the inner query when
 * this capture tuple is new. */
static int
sq_result(plan_ectx *cx, plan_subq *sq, const sq_entry **out, db_error *err)
{
    if (!sq->ncaps && sq->single) {
        *out = sq->single;
        return DB_OK;
    }
    plan_value *cur = NULL;
    const char *key = "";
    size_t klen = 0;
    uint64_t h = 0;
    if (sq->ncaps) {
        /* the lookup's scratch lives in the caller's (batch) arena */
        cur = arena_alloc(cx->a, sq->ncaps * sizeof *cur);
        for (uint32_t i = 0; i < sq->ncaps; i++) {
            if (plan__eval(cx, sq->caps[i], &cur[i], err) != DB_OK) {
                return DB_ERR;
            }
        }
        key = sq_key(cx->a, sq, cur, &klen);
        h = key_hash(key, klen);
        if (sq->nslots) {
            sq_entry *hit = *cache_slot(sq, key, klen, h);
            if (hit) {
                *out = hit;
                return DB_OK;
            }
        }
    }
    sq_entry *r = arena_calloc(sq->a, 1, sizeof *r);
    r->key = klen ? arena_strndup(sq->a, key, klen) : "";
    r->key_len = klen;
    r->hash = h;
    /* Operators allocate what outlives a batch in cx->a at open: the statement arena. */
    const plan_value *row = cx->row;
    size_t nrow = cx->nrow;
    arena *a = cx->a;
    const plan_value *saved = sq->cur;
    sq->cur = cur;
    cx->a = sq->a;
    int rc = sq_run(cx, sq, r, err);
    cx->a = a;
    sq->cur = saved;
    cx->row = row;
    cx->nrow = nrow;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    if (sq->ncaps) {
        cache_add(sq, r);
    } else {
        sq->single = r;
    }
    *out = r;
    return DB_OK;
}

/* ---- evaluation ---- */

static int
eval_scalar(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const sq_entry *r;
    if (sq_result(cx, e->aux, &r, err) != DB_OK) {
        return DB_ERR;
    }
    *out = r->nrows ? r->first : plan__v_null();
    return DB_OK;
}

static int
eval_exists(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    const sq_entry *r;
    if (sq_result(cx, e->aux, &r, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_int(r->nrows > 0);
    return DB_OK;
}

/* Is v among r's values (binary search in mode)? */
static bool
sq_contains(plan_ectx *cx, plan_cmp_mode mode, const sq_entry *r, const plan_value *v)
{
    size_t lo = 0, hi = r->nvals;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = plan__compare(cx, mode, &r->vals[mid], v);
        if (c == 0) {
            return true;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* Truth of "x op s" for some s of the non-NULL values (any) or for all of them (!any), with
 * r->nvals > 0; uses the extremes of the sorted set. */
static bool
sq_quantified(plan_ectx *cx, plan_cmp_mode mode, int op, bool any, const sq_entry *r,
              const plan_value *x)
{
    const plan_value *mn = &r->vals[0], *mx = &r->vals[r->nvals - 1];
    int cmin = plan__compare(cx, mode, x, mn), cmax = plan__compare(cx, mode, x, mx);
    switch (op) {
    case TK_EQ:
        return any ? sq_contains(cx, mode, r, x) : cmin == 0 && cmax == 0;
    case TK_NE:
        return any ? !(cmin == 0 && cmax == 0) : !sq_contains(cx, mode, r, x);
    case TK_LT:
        return any ? cmax < 0 : cmin < 0;
    case TK_LE:
        return any ? cmax <= 0 : cmin <= 0;
    case TK_GT:
        return any ? cmin > 0 : cmax > 0;
    default: /* TK_GE */
        return any ? cmin >= 0 : cmax >= 0;
    }
}

/* x IN / x op ANY / x op ALL with MySQL's NULL rules: an empty set gives FALSE (IN, ANY) or
 * TRUE (ALL, NOT IN) even for a NULL x; otherwise a NULL x gives NULL; a decided comparison
 * wins over NULLs in the set; undecided with a NULL in the set is NULL. */
static int
eval_quantified(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_subq *sq = e->aux;
    plan_value x;
    if (plan__eval(cx, e->args[0], &x, err) != DB_OK) {
        return DB_ERR;
    }
    const sq_entry *r;
    if (sq_result(cx, sq, &r, err) != DB_OK) {
        return DB_ERR;
    }
    bool all = sq->kind == PLAN_SUBQ_ALL;
    int op = sq->kind == PLAN_SUBQ_IN ? TK_EQ : sq->cmp;
    int truth; /* 1, 0, -1 = NULL; before NOT */
    if (r->nrows == 0) {
        truth = all ? 1 : 0;
    } else if (x.kind == PV_NULL) {
        truth = -1;
    } else if (r->nvals == 0) {
        truth = -1; /* only NULLs */
    } else {
        bool hit = sq_quantified(cx, sq->mode, op, !all, r, &x);
        if (all) {
            truth = !hit ? 0 : (r->has_null ? -1 : 1);
        } else {
            truth = hit ? 1 : (r->has_null ? -1 : 0);
        }
    }
    if (sq->negated && truth >= 0) {
        truth = !truth;
    }
    *out = truth < 0 ? plan__v_null() : plan__v_int(truth);
    return DB_OK;
}

/* ---- analysis ---- */

int
plan__subq_analyze(plan_ectx *cx, const plan_ast *x, const plan_bind_col *cols, size_t ncols,
                   plan_expr *e, db_error *err)
{
    if (x->op != PLAN_SUBQ_SCALAR && x->op != PLAN_SUBQ_EXISTS && x->sub->has_limit) {
        return db_error_set(err, ER_NOT_SUPPORTED_YET, "LIMIT & IN/ALL/ANY/SOME subquery");
    }
    plan_subq *sq = arena_calloc(cx->a, 1, sizeof *sq);
    sq->kind = x->op;
    sq->cmp = x->cmp;
    sq->negated = x->negated;
    sq->a = cx->a;
    plan_subq_scope sc = {cols, ncols, sq, cx->outer};
    cx->outer = &sc;
    plan_expr **exprs = NULL;
    uint32_t n = 0;
    int rc = plan__subq_build(cx, x->sub, &sq->root, &exprs, &n, err);
    cx->outer = sc.up;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    if (sq->kind != PLAN_SUBQ_EXISTS && n != 1) {
        return db_error_set(err, ER_OPERAND_COLUMNS, 1);
    }
    e->aux = sq;
    if (sq->kind == PLAN_SUBQ_EXISTS) {
        plan__type_bigint(&e->t, 1, false);
        e->vk = PV_INT;
        e->eval = eval_exists;
        return DB_OK;
    }
    sq->col = exprs[0];
    if (sq->kind == PLAN_SUBQ_SCALAR) {
        e->t = sq->col->t;
        e->t.nullable = true;
        e->vk = sq->col->vk;
        e->eval = eval_scalar;
        return DB_OK;
    }
    if (e->args[0]->src && e->args[0]->src->kind == PA_SUBQUERY &&
        e->args[0]->src->op != PLAN_SUBQ_SCALAR) {
        return db_error_set(err, ER_OPERAND_COLUMNS, 1);
    }
    sq->mode = plan__cmp_mode(e->args[0], sq->col);
    plan__type_bigint(&e->t, 1, true);
    e->vk = PV_INT;
    e->eval = eval_quantified;
    return DB_OK;
}
