/* SPDX-License-Identifier: Apache-2.0
 * plan_subquery.c: subqueries in expressions. A PA_SUBQUERY node (scalar, EXISTS, [NOT] IN,
 * cmp ANY/SOME, cmp ALL) is analysed into a plan_expr whose evaluation drains the inner
 * SELECT's operator tree, built once at analysis with plan__subq_build. Columns of enclosing
 * queries (correlation) are captured: each capture is an expression over the enclosing row,
 * evaluated before a run into plan_subq.cur, which the inner outer-reference expressions read.
 * Results are cached for the statement per distinct capture tuple (one entry when
 * uncorrelated): the scalar value, the EXISTS bit, or the value set of IN/ANY/ALL (a hash
 * set in the comparison mode, plus the extremes for < <= > >=). The cache lives in the
 * statement arena, so it is charged to exec_mem_limit (checked after each run). Top-level
 * WHERE conjuncts [NOT] EXISTS / [NOT] IN are usually decorrelated into semi / anti joins
 * instead (plan_semijoin.c). Also row constructors: the grammar builders that rewrite row
 * comparisons, and row IN / row comparisons against a subquery (tuples). See README.md
 * §Subqueries. */
#include "planner/plan_exec_int.h"

#include <string.h>
#include <strings.h>

#include "common/mem.h"

/* One cached result of the inner query (for one capture tuple). */
typedef struct sq_entry {
    const char *key; /* serialized capture values (sq_key), in the statement arena */
    size_t key_len;
    uint64_t hash;
    uint64_t nrows;   /* rows the run returned (capped at 2 for scalar, 1 for EXISTS) */
    plan_value first; /* scalar: the value of the row */
    plan_value *vals; /* IN / ANY / ALL: the distinct non-NULL tuples (width values each) */
    size_t nvals;
    bool has_null;     /* IN / ANY / ALL: a tuple with a NULL among the rows */
    plan_value *nulls; /* row IN: the tuples with a NULL (width values each) */
    size_t nnulls, cap_nulls;
    plan_value *row;   /* ROWCMP: the row (width values) */
    size_t imin, imax; /* the extremes among vals (nvals > 0) */
    uint64_t *hashes;  /* per value (hashed mode); NULL: compared one by one */
    uint32_t *set;     /* nset slots: value index + 1, 0 = empty; open addressing */
    uint32_t nset;
} sq_entry;

typedef struct plan_subq {
    int kind; /* PLAN_SUBQ_* */
    int cmp;  /* ANY / ALL / ROWCMP: operator (plan_xop) */
    bool negated;
    plan_op *root;        /* inner tree (NULL when describing) */
    const plan_expr *col; /* the inner first select expression */
    plan_cmp_mode mode;   /* IN / ANY / ALL: how the left operand compares to the values */
    uint32_t width;       /* columns compared: 1, or a row operand's elements */
    plan_cmp_mode *modes; /* per column (modes[0] == mode) */
    bool hashed;          /* ... and values hash in those modes (plan__join_key_ok) */
    plan_value *tup;      /* width values: one inner row being read */
    char *fold;           /* case-folding scratch of the hash (heap; freed at arena reset) */
    size_t fold_cap;
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

static uint64_t
val_hash(plan_ectx *cx, plan_subq *sq, const plan_value *v)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (uint32_t c = 0; c < sq->width; c++) {
        h = plan__join_hash(cx, sq->modes[c], &v[c], &sq->fold, &sq->fold_cap, h);
    }
    return h;
}

/* Tuples a and b (no NULLs) equal column by column. */
static bool
tuple_eq(plan_ectx *cx, const plan_subq *sq, const plan_value *a, const plan_value *b)
{
    for (uint32_t c = 0; c < sq->width; c++) {
        if (plan__compare(cx, sq->modes[c], &a[c], &b[c]) != 0) {
            return false;
        }
    }
    return true;
}

/* The index of a value of r equal to v (hash h) in sq->mode, or -1. */
static int64_t
set_find(plan_ectx *cx, const plan_subq *sq, const sq_entry *r, const plan_value *v, uint64_t h)
{
    if (!r->set) {
        for (size_t i = 0; i < r->nvals; i++) {
            if (tuple_eq(cx, sq, &r->vals[i * sq->width], v)) {
                return (int64_t)i;
            }
        }
        return -1;
    }
    uint32_t mask = r->nset - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        uint32_t e = r->set[i];
        if (e == 0) {
            return -1;
        }
        if (r->hashes[e - 1] == h && tuple_eq(cx, sq, &r->vals[(e - 1) * sq->width], v)) {
            return (int64_t)e - 1;
        }
    }
}

/* Add non-NULL v to r's values unless an equal one is there (first one wins, as the extremes
 * and membership only need one representative); *cap is the capacity of r->vals. */
static void
set_add(plan_ectx *cx, plan_subq *sq, sq_entry *r, const plan_value *v, size_t *cap)
{
    uint64_t h = sq->hashed ? val_hash(cx, sq, v) : 0;
    if (sq->hashed && set_find(cx, sq, r, v, h) >= 0) {
        return;
    }
    uint32_t w = sq->width;
    if (r->nvals == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        plan_value *nv = arena_alloc(sq->a, nc * w * sizeof *nv);
        uint64_t *nh = sq->hashed ? arena_alloc(sq->a, nc * sizeof *nh) : NULL;
        if (r->nvals) {
            memcpy(nv, r->vals, r->nvals * w * sizeof *nv);
            if (nh) {
                memcpy(nh, r->hashes, r->nvals * sizeof *nh);
            }
        }
        r->vals = nv;
        r->hashes = nh;
        *cap = nc;
    }
    size_t i = r->nvals++;
    for (uint32_t c = 0; c < w; c++) {
        r->vals[i * w + c] = copy_value(sq->a, &v[c]);
    }
    if (w == 1 && (i == 0 || plan__compare(cx, sq->mode, v, &r->vals[r->imin]) < 0)) {
        r->imin = i;
    }
    if (w == 1 && (i == 0 || plan__compare(cx, sq->mode, v, &r->vals[r->imax]) > 0)) {
        r->imax = i;
    }
    if (!sq->hashed) {
        return;
    }
    r->hashes[i] = h;
    if (r->nvals * 2 > r->nset) {
        uint32_t ns = r->nset ? r->nset * 2 : 32;
        r->set = arena_calloc(sq->a, ns, sizeof *r->set);
        r->nset = ns;
        for (size_t j = 0; j < r->nvals; j++) {
            uint32_t k = (uint32_t)r->hashes[j] & (ns - 1);
            while (r->set[k]) {
                k = (k + 1) & (ns - 1);
            }
            r->set[k] = (uint32_t)j + 1;
        }
        return;
    }
    uint32_t k = (uint32_t)h & (r->nset - 1);
    while (r->set[k]) {
        k = (k + 1) & (r->nset - 1);
    }
    r->set[k] = (uint32_t)i + 1;
}

/* One inner row of a row comparison (its only row) or a row IN (a tuple of the set). */
static int
run_tuple(plan_ectx *cx, plan_subq *sq, sq_entry *r, const plan_batch *b, uint32_t row, size_t *cap,
          db_error *err)
{
    uint32_t w = sq->width;
    bool any_null = false;
    for (uint32_t c = 0; c < w; c++) {
        plan__batch_get(b, c, row, &sq->tup[c]);
        any_null |= sq->tup[c].kind == PV_NULL;
    }
    if (sq->kind == PLAN_SUBQ_ROWCMP) {
        if (r->nrows > 1) {
            return db_error_set(err, ER_SUBQUERY_NO_1_ROW);
        }
        r->row = arena_alloc(sq->a, w * sizeof *r->row);
        for (uint32_t c = 0; c < w; c++) {
            r->row[c] = copy_value(sq->a, &sq->tup[c]);
        }
        return DB_OK;
    }
    if (!any_null) {
        set_add(cx, sq, r, sq->tup, cap);
        return DB_OK;
    }
    r->has_null = true;
    if (r->nnulls == r->cap_nulls) {
        size_t nc = r->cap_nulls ? r->cap_nulls * 2 : 8;
        plan_value *nv = arena_alloc(sq->a, nc * w * sizeof *nv);
        if (r->nnulls) {
            memcpy(nv, r->nulls, r->nnulls * w * sizeof *nv);
        }
        r->nulls = nv;
        r->cap_nulls = nc;
    }
    for (uint32_t c = 0; c < w; c++) {
        r->nulls[r->nnulls * w + c] = copy_value(sq->a, &sq->tup[c]);
    }
    r->nnulls++;
    return DB_OK;
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
            if (sq->width > 1) {
                rc = run_tuple(cx, sq, r, b, row, &cap, err);
                done = rc != DB_OK;
                continue;
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
            set_add(cx, sq, r, &v, &cap);
        }
    }
    root->close(root);
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
    /* The cache grows in the statement arena: charge it to exec_mem_limit now, as the
     * operators do at their batch boundaries. */
    return plan__check_interrupt(cx->s, err);
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

/* Is v among r's values (hash set in mode)? */
static bool
sq_contains(plan_ectx *cx, plan_subq *sq, const sq_entry *r, const plan_value *v)
{
    uint64_t h = sq->hashed ? val_hash(cx, sq, v) : 0;
    return set_find(cx, sq, r, v, h) >= 0;
}

/* Truth of "x op s" for some s of the non-NULL values (any) or for all of them (!any), with
 * r->nvals > 0; uses the extremes of the set. */
static bool
sq_quantified(plan_ectx *cx, plan_subq *sq, int op, bool any, const sq_entry *r,
              const plan_value *x)
{
    plan_cmp_mode mode = sq->mode;
    const plan_value *mn = &r->vals[r->imin], *mx = &r->vals[r->imax];
    int cmin = plan__compare(cx, mode, x, mn), cmax = plan__compare(cx, mode, x, mx);
    switch (op) {
    case XOP_EQ:
        return any ? sq_contains(cx, sq, r, x) : cmin == 0 && cmax == 0;
    case XOP_NE:
        return any ? !(cmin == 0 && cmax == 0) : !sq_contains(cx, sq, r, x);
    case XOP_LT:
        return any ? cmax < 0 : cmin < 0;
    case XOP_LE:
        return any ? cmax <= 0 : cmin <= 0;
    case XOP_GT:
        return any ? cmin > 0 : cmax > 0;
    default: /* XOP_GE */
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
    int op = sq->kind == PLAN_SUBQ_IN ? XOP_EQ : sq->cmp;
    int truth; /* 1, 0, -1 = NULL; before NOT */
    if (r->nrows == 0) {
        truth = all ? 1 : 0;
    } else if (x.kind == PV_NULL) {
        truth = -1;
    } else if (r->nvals == 0) {
        truth = -1; /* only NULLs */
    } else {
        bool hit = sq_quantified(cx, sq, op, !all, r, &x);
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

/* Three-valued x[i] = t[i] for every i (1, 0, -1 = NULL): a difference wins over NULLs. */
static int
tuple_eq3(plan_ectx *cx, const plan_subq *sq, const plan_value *x, const plan_value *t)
{
    int truth = 1;
    for (uint32_t c = 0; c < sq->width; c++) {
        if (x[c].kind == PV_NULL || t[c].kind == PV_NULL) {
            truth = -1;
        } else if (plan__compare(cx, sq->modes[c], &x[c], &t[c]) != 0) {
            return 0;
        }
    }
    return truth;
}

/* (x...) [NOT] IN (SELECT ...) with several columns: TRUE when some row equals, else NULL when
 * some row's comparison is NULL, else FALSE (an empty set: FALSE). */
static int
eval_row_in(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_subq *sq = e->aux;
    plan_value *x = arena_alloc(cx->a, sq->width * sizeof *x);
    bool x_null = false;
    for (uint32_t c = 0; c < sq->width; c++) {
        if (plan__eval(cx, e->args[c], &x[c], err) != DB_OK) {
            return DB_ERR;
        }
        x_null |= x[c].kind == PV_NULL;
    }
    const sq_entry *r;
    if (sq_result(cx, sq, &r, err) != DB_OK) {
        return DB_ERR;
    }
    int truth = 0;
    if (!x_null && set_find(cx, sq, r, x, sq->hashed ? val_hash(cx, sq, x) : 0) >= 0) {
        truth = 1;
    }
    /* Only NULLs can still make it NULL: tuples holding one, or (x has one) any tuple. */
    for (size_t i = 0; truth == 0 && i < r->nnulls; i++) {
        truth = tuple_eq3(cx, sq, x, &r->nulls[i * sq->width]) ? -1 : 0;
    }
    for (size_t i = 0; x_null && truth == 0 && i < r->nvals; i++) {
        truth = tuple_eq3(cx, sq, x, &r->vals[i * sq->width]) ? -1 : 0;
    }
    if (sq->negated && truth >= 0) {
        truth = !truth;
    }
    *out = truth < 0 ? plan__v_null() : plan__v_int(truth);
    return DB_OK;
}

/* (x...) cmp (SELECT ...) with one row (none: NULL; more: 1242), element-wise as MySQL's row
 * comparison: the first decided difference gives the result; a NULL before it gives NULL for
 * < <= > >= at once and for = <> unless a later pair differs; <=> treats NULLs as values. */
static int
eval_rowcmp(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_subq *sq = e->aux;
    plan_value *x = arena_alloc(cx->a, sq->width * sizeof *x);
    for (uint32_t c = 0; c < sq->width; c++) {
        if (plan__eval(cx, e->args[c], &x[c], err) != DB_OK) {
            return DB_ERR;
        }
    }
    const sq_entry *r;
    if (sq_result(cx, sq, &r, err) != DB_OK) {
        return DB_ERR;
    }
    int op = sq->cmp;
    if (r->nrows == 0) { /* the row is all NULLs */
        bool all_null = true;
        for (uint32_t i = 0; i < sq->width; i++) {
            all_null &= x[i].kind == PV_NULL;
        }
        *out = op == XOP_NSEQ ? plan__v_int(all_null) : plan__v_null();
        return DB_OK;
    }
    bool was_null = false;
    int c = 0;
    for (uint32_t i = 0; i < sq->width && c == 0; i++) {
        bool xn = x[i].kind == PV_NULL, tn = r->row[i].kind == PV_NULL;
        if (xn || tn) {
            if (op == XOP_NSEQ) {
                c = xn && tn ? 0 : 1;
                continue;
            }
            if (op != XOP_EQ && op != XOP_NE) {
                *out = plan__v_null();
                return DB_OK;
            }
            was_null = true;
            continue;
        }
        c = plan__compare(cx, sq->modes[i], &x[i], &r->row[i]);
    }
    if (c == 0 && was_null) {
        *out = plan__v_null();
        return DB_OK;
    }
    bool v;
    switch (op) {
    case XOP_EQ:
    case XOP_NSEQ:
        v = c == 0;
        break;
    case XOP_NE:
        v = c != 0;
        break;
    case XOP_LT:
        v = c < 0;
        break;
    case XOP_LE:
        v = c <= 0;
        break;
    case XOP_GT:
        v = c > 0;
        break;
    default:
        v = c >= 0;
        break;
    }
    *out = plan__v_int(v);
    return DB_OK;
}

/* ---- analysis ---- */

static void free_fold(void *arg);

/* A row IN / row comparison: per-column modes; e's args are the row's elements. */
static int
analyze_row(plan_subq *sq, plan_expr *e, plan_expr **exprs)
{
    sq->modes = arena_alloc(sq->a, sq->width * sizeof *sq->modes);
    sq->tup = arena_alloc(sq->a, sq->width * sizeof *sq->tup);
    sq->hashed = true;
    for (uint32_t c = 0; c < sq->width; c++) {
        sq->modes[c] = plan__cmp_mode(e->args[c], exprs[c]);
        sq->hashed &= plan__join_key_ok(sq->modes[c], e->args[c], exprs[c]);
    }
    sq->mode = sq->modes[0];
    sq->col = exprs[0];
    arena_on_reset(sq->a, free_fold, sq);
    plan__type_bigint(&e->t, 1, sq->kind != PLAN_SUBQ_ROWCMP || sq->cmp != XOP_NSEQ);
    e->vk = PV_INT;
    e->eval = sq->kind == PLAN_SUBQ_ROWCMP ? eval_rowcmp : eval_row_in;
    return DB_OK;
}

static void
free_fold(void *arg)
{
    plan_subq *sq = arg;
    mem_free(sq->fold);
    sq->fold = NULL;
    sq->fold_cap = 0;
}

int
plan__subq_analyze(plan_ectx *cx, const plan_ast *x, const plan_bind_col *cols, size_t ncols,
                   plan_expr *e, db_error *err)
{
    if (x->op == PLAN_SUBQ_ROW) { /* a row where one value is needed, or a count mismatch */
        return db_error_set(err, ER_OPERAND_COLUMNS, x->cmp);
    }
    if (x->op != PLAN_SUBQ_SCALAR && x->op != PLAN_SUBQ_EXISTS && x->op != PLAN_SUBQ_ROWCMP &&
        x->sub->has_limit) {
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
    sq->width = x->op == PLAN_SUBQ_ROWCMP || x->nargs > 1 ? x->nargs : 1;
    if (sq->kind != PLAN_SUBQ_EXISTS && n != sq->width) {
        return db_error_set(err, ER_OPERAND_COLUMNS, (int)sq->width);
    }
    e->aux = sq;
    if (sq->width > 1 || sq->kind == PLAN_SUBQ_ROWCMP) {
        return analyze_row(sq, e, exprs);
    }
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
    sq->modes = &sq->mode;
    sq->hashed = plan__join_key_ok(sq->mode, e->args[0], sq->col);
    arena_on_reset(sq->a, free_fold, sq);
    plan__type_bigint(&e->t, 1, true);
    e->vk = PV_INT;
    e->eval = eval_quantified;
    return DB_OK;
}

/* ---- row constructors (grammar builders) ---- */

/* Is x a row? ROW(a, b, ...) (parsed as a call of ROW) becomes one here. */
static bool
is_row(plan_ast *x)
{
    if (x->kind == PA_FUNC && x->has_parens && x->nargs >= 2 && x->name &&
        strcasecmp(x->name, "ROW") == 0) {
        x->kind = PA_SUBQUERY;
        x->op = PLAN_SUBQ_ROW;
        x->cmp = 1;
    }
    return x->kind == PA_SUBQUERY && x->op == PLAN_SUBQ_ROW;
}

/* Columns x stands for: a row's elements, else one. */
static uint32_t
row_width(plan_ast *x)
{
    return is_row(x) ? x->nargs : 1;
}

/* A node whose analysis is 1241 "Operand should contain n column(s)", spanning [off, end). */
static plan_ast *
row_error(plan_parse *pp, uint32_t n, uint32_t off, uint32_t end)
{
    plan_ast *x = plan_ast_new(pp, PA_SUBQUERY, NULL, NULL);
    x->op = PLAN_SUBQ_ROW;
    x->cmp = (int)n;
    x->off = off;
    x->end = end;
    return x;
}

static plan_ast *
logic(plan_parse *pp, int op, plan_ast *l, plan_ast *r)
{
    return plan_ast_binary(pp, op, l, r);
}

plan_ast *
plan_ast_row(plan_parse *pp, const plan_token *lp, plan_ast *first, plan_ast_list *rest,
             const plan_token *rp)
{
    plan_ast *x = plan_ast_new(pp, PA_SUBQUERY, lp, rp);
    x->op = PLAN_SUBQ_ROW;
    x->cmp = 1;
    x->nargs = rest->n + 1;
    x->args = arena_alloc(pp->a, x->nargs * sizeof *x->args);
    x->args[0] = first;
    memcpy(x->args + 1, rest->items, rest->n * sizeof *x->args);
    return x;
}

plan_ast *
plan_ast_rowcmp(plan_parse *pp, int op, plan_ast *l, plan_ast *r)
{
    if (!is_row(l) && !is_row(r)) {
        return plan_ast_binary(pp, op, l, r);
    }
    uint32_t off = l->off, end = r->end;
    /* (a, b) cmp (SELECT x, y ...) */
    plan_ast *row = is_row(l) ? l : r, *sub = is_row(l) ? r : l;
    if (sub->kind == PA_SUBQUERY && sub->op == PLAN_SUBQ_SCALAR && sub->sub) {
        static const int flip[][2] = {
                {XOP_LT, XOP_GT}, {XOP_LE, XOP_GE}, {XOP_GT, XOP_LT}, {XOP_GE, XOP_LE}};
        int o = op;
        for (size_t i = 0; sub == l && i < sizeof flip / sizeof flip[0]; i++) {
            if (flip[i][0] == op) {
                o = flip[i][1]; /* (SELECT ...) < (a, b) is (a, b) > (SELECT ...) */
                break;
            }
        }
        sub->op = PLAN_SUBQ_ROWCMP;
        sub->cmp = o;
        sub->args = row->args;
        sub->nargs = row->nargs;
        sub->off = off;
        sub->end = end;
        return sub;
    }
    uint32_t n = row_width(l);
    if (n != row_width(r)) {
        return row_error(pp, n, off, end);
    }
    plan_ast *acc;
    if (op == XOP_EQ || op == XOP_NSEQ || op == XOP_NE) {
        /* = and <=>: every pair; <>: some pair (NOT of the AND, in three-valued logic) */
        acc = plan_ast_rowcmp(pp, op, l->args[0], r->args[0]);
        for (uint32_t i = 1; i < n; i++) {
            acc = logic(pp, op == XOP_NE ? XOP_OR : XOP_AND, acc,
                        plan_ast_rowcmp(pp, op, l->args[i], r->args[i]));
        }
    } else {
        /* Lexicographic: l0 < r0 OR (l0 = r0 AND (rest)); the last pair uses op itself. A NULL
         * before the first difference gives NULL, as MySQL's row comparison. */
        int strict = op == XOP_LT || op == XOP_LE ? XOP_LT : XOP_GT;
        acc = plan_ast_rowcmp(pp, op, l->args[n - 1], r->args[n - 1]);
        for (uint32_t i = n - 1; i-- > 0;) {
            plan_ast *eq = plan_ast_rowcmp(pp, XOP_EQ, l->args[i], r->args[i]);
            acc = logic(pp, XOP_OR, plan_ast_rowcmp(pp, strict, l->args[i], r->args[i]),
                        logic(pp, XOP_AND, eq, acc));
        }
    }
    acc->off = off;
    acc->end = end;
    return acc;
}

plan_ast *
plan_ast_rowin(plan_parse *pp, plan_ast *x, bool negated, plan_ast_list *list, const plan_token *rp)
{
    bool rows = is_row(x);
    for (uint32_t i = 0; i < list->n; i++) {
        rows |= is_row(list->items[i]);
    }
    if (!rows) {
        return plan_ast_in(pp, x, negated, list, rp);
    }
    plan_ast *acc = NULL;
    for (uint32_t i = 0; i < list->n; i++) {
        plan_ast *eq = plan_ast_rowcmp(pp, XOP_EQ, x, list->items[i]);
        if (eq->kind == PA_SUBQUERY && eq->op == PLAN_SUBQ_ROW) {
            acc = eq; /* 1241 */
            break;
        }
        acc = acc ? logic(pp, XOP_OR, acc, eq) : eq;
    }
    if (negated && !(acc->kind == PA_SUBQUERY && acc->op == PLAN_SUBQ_ROW)) {
        plan_ast *n = plan_ast_new(pp, PA_UNARY, NULL, NULL);
        n->op = XOP_NOT;
        n->nargs = 1;
        n->args = arena_alloc(pp->a, sizeof *n->args);
        n->args[0] = acc;
        acc = n;
    }
    acc->off = x->off;
    acc->end = rp->off + rp->n;
    return acc;
}

plan_ast *
plan_ast_subq_in(plan_parse *pp, plan_ast *x, bool negated, plan_qexpr q)
{
    plan_ast *n = plan_ast_subquery(pp, PLAN_SUBQ_IN, x, negated, 0, q, NULL);
    if (is_row(x)) {
        n->args = x->args;
        n->nargs = x->nargs;
    }
    return n;
}
