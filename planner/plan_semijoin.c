/* SPDX-License-Identifier: Apache-2.0
 * plan_semijoin.c: decorrelation of subqueries into semi / anti hash joins. A top-level AND
 * conjunct of a WHERE clause of the form [NOT] EXISTS (SELECT ...) or x [NOT] IN (SELECT y ...)
 * whose correlation is a set of equalities inner.col = outer.col among the subquery's WHERE
 * conjuncts is planned once without those equalities; the inner columns (and y) become its
 * select list and the hash keys. The operator hashes the subquery's rows at the first next and
 * probes once per outer row, passing the outer row on unchanged or dropping it. EXISTS and IN
 * are a LEFT SEMI JOIN, NOT EXISTS a LEFT ANTI JOIN, NOT IN a NULL AWARE LEFT ANTI JOIN (SQL's
 * NULL rules). Anything else stays with plan_subquery.c. See README.md §Subqueries. */
#include "planner/plan_exec_int.h"

#include <string.h>

#include "common/mem.h"

typedef enum sj_kind {
    SJ_SEMI,    /* EXISTS, IN: the outer row passes when some inner row matches every key */
    SJ_ANTI,    /* NOT EXISTS: ... when no inner row matches the correlation keys */
    SJ_NA_ANTI, /* NOT IN: the null-aware form (see sj_probe_row) */
} sj_kind;

/* One decorrelated conjunct. Keys: the correlation keys first, then (IN) the compared values. */
typedef struct sj_item {
    sj_kind kind;
    plan_op *inner;    /* the subquery's tree; key k is its column icol[k] */
    plan_expr **okeys; /* per key: over the outer row */
    plan_expr **ikeys; /* per key: the inner select expression (modes, EXPLAIN) */
    uint32_t *icol;    /* per key: inner column */
    plan_cmp_mode *modes;
    uint32_t ncorr; /* correlation keys */
    uint32_t nkeys; /* ncorr, + the IN operand's columns */
    struct sj_item *next;
} sj_item;

struct plan_semi {
    sj_item *first, *last;
};

/* A hash set of key tuples (nk values each, none NULL), with one flag byte per entry. Open
 * addressing, linear probing, power-of-two slots at most half full. With nk == 0 it holds at
 * most one entry. */
typedef struct sj_set {
    uint32_t nk;
    plan_value *vals; /* n * nk values (heap); strings in the operator arena */
    uint64_t *hash;   /* n (heap) */
    uint8_t *flag;    /* n (heap): NA anti groups: a NULL compared value seen */
    uint32_t n, cap;
    uint32_t *slots; /* nslots: 0 = empty, else entry + 1 (heap) */
    uint32_t nslots;
} sj_set;

typedef struct op_semi {
    plan_op base;
    const sj_item *it;
    arena *sa;     /* key strings of the sets (open .. close) */
    sj_set match;  /* nkeys: the inner rows' keys (NA anti: rows with a non-NULL value) */
    sj_set groups; /* NA anti: ncorr keys; flag = the group holds a NULL value */
    size_t bytes;  /* heap bytes of the sets */
    char *fold;    /* case-folding scratch (heap) */
    size_t fold_cap;
    bool built;
    plan_value *ovals; /* one outer row */
    plan_value *kv;    /* key values */
} op_semi;

static bool has_call(const plan_ast *x);
static int probe_inner(plan_ectx *cx, const plan_stmt *sub, const plan_ast *col);
static sj_item *decorrelate(plan_ectx *cx, const plan_ast *c, const plan_bind_col *cols,
                            size_t ncols);

/* ======================================================================================
 * Planning
 * ====================================================================================== */

/* A function call, window or subquery anywhere in x. */
static bool
has_call(const plan_ast *x)
{
    if (!x) {
        return false;
    }
    if (x->kind == PA_FUNC || x->kind == PA_WINDOW || x->kind == PA_SUBQUERY) {
        return true;
    }
    for (uint32_t i = 0; i < x->nargs; i++) {
        if (has_call(x->args[i])) {
            return true;
        }
    }
    return false;
}

/* Does column reference col resolve among the FROM tables of sub alone (inner scope first,
 * as MySQL binds names)? Plans SELECT col FROM <sub's FROM> in describe mode: 1 yes, 0 no
 * such column there, -1 another error (ambiguous, ...: left to the ordinary path). */
static int
probe_inner(plan_ectx *cx, const plan_stmt *sub, const plan_ast *col)
{
    plan_stmt p = *sub;
    plan_select_item item;
    memset(&item, 0, sizeof item);
    item.expr = (plan_ast *)col;
    p.items = &item;
    p.nitems = 1;
    p.where = NULL;
    p.order = NULL;
    p.group = NULL;
    p.having = NULL;
    p.has_limit = false;
    p.distinct = false;
    const plan_subq_scope *outer = cx->outer;
    bool describe = cx->describe;
    cx->outer = NULL;
    cx->describe = true;
    plan_op *root = NULL;
    plan_expr **exprs = NULL;
    uint32_t n = 0;
    db_error scratch;
    db_error_clear(&scratch);
    int rc = plan__subq_build(cx, &p, &root, &exprs, &n, &scratch);
    cx->outer = outer;
    cx->describe = describe;
    if (rc == DB_OK) {
        return 1;
    }
    return scratch.code == db_error_code_of(ER_BAD_FIELD_ERROR) ? 0 : -1;
}

/* Plan conjunct c as a semi / anti join over a row bound by cols, or NULL when it is not of a
 * form handled here (it then stays in the WHERE filter). Never fails. */
static sj_item *
decorrelate(plan_ectx *cx, const plan_ast *c, const plan_bind_col *cols, size_t ncols)
{
    bool negate = false;
    const plan_ast *x = c;
    while (x->kind == PA_UNARY && x->op == XOP_NOT) {
        negate = !negate;
        x = x->args[0];
    }
    if (x->kind != PA_SUBQUERY) {
        return NULL;
    }
    bool is_in = x->op == PLAN_SUBQ_IN;
    if (x->op != PLAN_SUBQ_EXISTS && !is_in) {
        return NULL;
    }
    const plan_stmt *sub = x->sub;
    if (!sub || sub->setop != PLAN_SETOP_NONE || sub->ntables == 0 || sub->group || sub->having ||
        sub->has_limit || sub->order) {
        return NULL;
    }
    /* x IN: nval = 1; (x1, x2, ...) IN: one value per element (not NOT IN: a NULL element
     * makes its null-aware form more than a lookup). */
    uint32_t nval = is_in ? x->nargs : 0;
    if (is_in && (nval == 0 || sub->nitems != nval || (nval > 1 && (negate != x->negated)))) {
        return NULL;
    }
    for (uint32_t j = 0; j < nval; j++) {
        if (has_call(x->args[j]) || sub->items[j].is_star || has_call(sub->items[j].expr)) {
            return NULL;
        }
    }
    for (uint32_t i = 0; !is_in && i < sub->nitems; i++) {
        if (!sub->items[i].is_star && has_call(sub->items[i].expr)) {
            return NULL; /* an aggregate would make the subquery one row */
        }
    }
    /* The correlation equalities among the inner WHERE conjuncts. */
    const plan_ast **cs = NULL, **rest = NULL, **icols = NULL;
    plan_expr **okeys = NULL;
    uint32_t nc = 0, capc = 0, nrest = 0, ncorr = 0;
    if (sub->where) {
        plan__conjuncts(cx, sub->where, &cs, &nc, &capc);
    }
    rest = arena_calloc(cx->a, nc + 1, sizeof *rest);
    icols = arena_calloc(cx->a, nc + 1, sizeof *icols);
    okeys = arena_calloc(cx->a, nc + nval + 1, sizeof *okeys);
    for (uint32_t i = 0; i < nc; i++) {
        const plan_ast *w = cs[i];
        const plan_ast *in_side = NULL, *out_side = NULL;
        if (w->kind == PA_BINARY && w->op == XOP_EQ && w->nargs == 2 &&
            w->args[0]->kind == PA_COLUMN && w->args[1]->kind == PA_COLUMN) {
            int li = probe_inner(cx, sub, w->args[0]);
            int ri = probe_inner(cx, sub, w->args[1]);
            if (li < 0 || ri < 0) {
                return NULL;
            }
            if (li != ri) {
                in_side = li ? w->args[0] : w->args[1];
                out_side = li ? w->args[1] : w->args[0];
            }
        }
        if (!in_side) {
            rest[nrest++] = w;
            continue;
        }
        db_error scratch;
        db_error_clear(&scratch);
        plan_expr *oe = NULL;
        if (plan__analyze(cx, out_side, cols, ncols, "where clause", &oe, &scratch) != DB_OK) {
            return NULL;
        }
        icols[ncorr] = in_side;
        okeys[ncorr++] = oe;
    }
    /* The subquery without them: select list [IN values,] inner key columns. */
    plan_stmt *q = arena_alloc(cx->a, sizeof *q);
    *q = *sub;
    q->where = plan__and_of(cx, rest, nrest);
    uint32_t off = nval;
    if (is_in || ncorr > 0) {
        q->nitems = off + ncorr;
        q->items = arena_calloc(cx->a, q->nitems, sizeof *q->items);
        for (uint32_t j = 0; j < nval; j++) {
            q->items[j] = sub->items[j];
        }
        for (uint32_t k = 0; k < ncorr; k++) {
            q->items[off + k].expr = (plan_ast *)icols[k];
        }
    }
    const plan_subq_scope *outer = cx->outer;
    cx->outer = NULL;
    plan_op *iroot = NULL;
    plan_expr **exprs = NULL;
    uint32_t n = 0;
    db_error scratch;
    db_error_clear(&scratch);
    int rc = plan__subq_build(cx, q, &iroot, &exprs, &n, &scratch);
    cx->outer = outer;
    if (rc != DB_OK || !iroot || ((is_in || ncorr > 0) && n != q->nitems)) {
        return NULL; /* still correlated, or an error the ordinary path reports */
    }
    for (uint32_t j = 0; j < nval; j++) {
        if (plan__analyze(cx, x->args[j], cols, ncols, "where clause", &okeys[ncorr + j],
                          &scratch) != DB_OK) {
            return NULL;
        }
    }
    sj_item *it = arena_calloc(cx->a, 1, sizeof *it);
    bool neg = is_in ? negate != x->negated : negate;
    it->kind = !neg ? SJ_SEMI : is_in ? SJ_NA_ANTI : SJ_ANTI;
    it->inner = iroot;
    it->ncorr = ncorr;
    it->nkeys = ncorr + nval;
    it->okeys = okeys;
    it->ikeys = arena_calloc(cx->a, it->nkeys + 1, sizeof *it->ikeys);
    it->icol = arena_calloc(cx->a, it->nkeys + 1, sizeof *it->icol);
    it->modes = arena_calloc(cx->a, it->nkeys + 1, sizeof *it->modes);
    for (uint32_t k = 0; k < it->nkeys; k++) {
        it->icol[k] = k < ncorr ? off + k : k - ncorr;
        it->ikeys[k] = exprs[it->icol[k]];
        it->modes[k] = plan__cmp_mode(okeys[k], it->ikeys[k]);
        if (!plan__join_key_ok(it->modes[k], okeys[k], it->ikeys[k])) {
            return NULL;
        }
    }
    return it;
}

plan_semi *
plan__semi_split(plan_ectx *cx, const plan_ast **where, const plan_bind_col *cols, size_t ncols)
{
    const plan_ast **cs = NULL, **rest;
    uint32_t nc = 0, capc = 0, nrest = 0;
    plan__conjuncts(cx, *where, &cs, &nc, &capc);
    rest = arena_calloc(cx->a, nc, sizeof *rest);
    plan_semi *sj = NULL;
    for (uint32_t i = 0; i < nc; i++) {
        sj_item *it = decorrelate(cx, cs[i], cols, ncols);
        if (!it) {
            rest[nrest++] = cs[i];
            continue;
        }
        if (!sj) {
            sj = arena_calloc(cx->a, 1, sizeof *sj);
        }
        if (sj->last) {
            sj->last->next = it;
        } else {
            sj->first = it;
        }
        sj->last = it;
    }
    if (sj) {
        *where = plan__and_of(cx, rest, nrest);
    }
    return sj;
}

/* ======================================================================================
 * The operator
 * ====================================================================================== */

static int semi_open(plan_op *op, db_error *err);
static int semi_next(plan_op *op, plan_batch **out, db_error *err);
static void semi_close(plan_op *op);
static void semi_release(void *arg);

static uint64_t
keys_hash(op_semi *s, const plan_value *kv, uint32_t nk)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (uint32_t k = 0; k < nk; k++) {
        h = plan__join_hash(s->base.cx, s->it->modes[k], &kv[k], &s->fold, &s->fold_cap, h);
    }
    return h;
}

/* The entry of t equal to kv (hash h), or -1. */
static int64_t
set_find(op_semi *s, const sj_set *t, const plan_value *kv, uint64_t h)
{
    if (t->nslots == 0) {
        return -1;
    }
    uint32_t mask = t->nslots - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        uint32_t e = t->slots[i];
        if (e == 0) {
            return -1;
        }
        e--;
        if (t->hash[e] != h) {
            continue;
        }
        const plan_value *ev = &t->vals[(size_t)e * t->nk];
        uint32_t k = 0;
        while (k < t->nk && plan__compare(s->base.cx, s->it->modes[k], &ev[k], &kv[k]) == 0) {
            k++;
        }
        if (k == t->nk) {
            return e;
        }
    }
}

static int
mem_check(op_semi *s, size_t more, db_error *err)
{
    s->bytes += more;
    if (s->bytes + arena_used(s->sa) > PLAN_JOIN_MEM_LIMIT) {
        return db_error_set(err, ER_JOIN_MEMORY_LIMIT,
                            (unsigned long long)(PLAN_JOIN_MEM_LIMIT >> 20));
    }
    return DB_OK;
}

static void
set_place(sj_set *t, uint32_t e)
{
    uint32_t mask = t->nslots - 1;
    uint32_t i = (uint32_t)t->hash[e] & mask;
    while (t->slots[i]) {
        i = (i + 1) & mask;
    }
    t->slots[i] = e + 1;
}

/* The entry equal to kv, added (values copied, strings into s->sa) when missing. */
static int
set_add(op_semi *s, sj_set *t, const plan_value *kv, uint32_t *idx, db_error *err)
{
    uint64_t h = keys_hash(s, kv, t->nk);
    int64_t e = set_find(s, t, kv, h);
    if (e >= 0) {
        *idx = (uint32_t)e;
        return DB_OK;
    }
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 256;
        size_t per = (size_t)t->nk * sizeof(plan_value) + sizeof(uint64_t) + 1;
        if (nc >= UINT32_MAX / 4 || mem_check(s, (size_t)(nc - t->cap) * per, err) != DB_OK) {
            return nc >= UINT32_MAX / 4
                           ? db_error_set(err, ER_JOIN_MEMORY_LIMIT,
                                          (unsigned long long)(PLAN_JOIN_MEM_LIMIT >> 20))
                           : DB_ERR;
        }
        t->vals = mem_realloc(t->vals, (size_t)nc * (t->nk ? t->nk : 1) * sizeof(plan_value));
        t->hash = mem_realloc(t->hash, (size_t)nc * sizeof(uint64_t));
        t->flag = mem_realloc(t->flag, nc);
        t->cap = nc;
    }
    if ((t->n + 1) * 2 > t->nslots) {
        uint32_t ns = t->nslots ? t->nslots * 2 : 512;
        if (mem_check(s, (size_t)(ns - t->nslots) * sizeof(uint32_t), err) != DB_OK) {
            return DB_ERR;
        }
        mem_free(t->slots);
        t->slots = mem_calloc(ns, sizeof(uint32_t));
        t->nslots = ns;
        for (uint32_t i = 0; i < t->n; i++) {
            set_place(t, i);
        }
    }
    uint32_t n = t->n++;
    plan_value *ev = &t->vals[(size_t)n * t->nk];
    for (uint32_t k = 0; k < t->nk; k++) {
        ev[k] = kv[k];
        if (kv[k].kind == PV_STRING && kv[k].str.len > 0) {
            char *p = arena_alloc(s->sa, kv[k].str.len);
            memcpy(p, kv[k].str.s, kv[k].str.len);
            ev[k].str.s = p;
        }
    }
    t->hash[n] = h;
    t->flag[n] = 0;
    set_place(t, n);
    *idx = n;
    return DB_OK;
}

static void
set_free(sj_set *t)
{
    mem_free(t->vals);
    mem_free(t->hash);
    mem_free(t->flag);
    mem_free(t->slots);
    uint32_t nk = t->nk;
    memset(t, 0, sizeof *t);
    t->nk = nk;
}

/* One inner row's keys into the sets. */
static int
build_row(op_semi *s, const plan_value *kv, db_error *err)
{
    const sj_item *it = s->it;
    for (uint32_t k = 0; k < it->ncorr; k++) {
        if (kv[k].kind == PV_NULL) {
            return DB_OK; /* inner.col = outer.col is never TRUE: no outer row sees it */
        }
    }
    uint32_t idx;
    if (it->kind == SJ_NA_ANTI) {
        if (set_add(s, &s->groups, kv, &idx, err) != DB_OK) {
            return DB_ERR;
        }
        if (kv[it->ncorr].kind == PV_NULL) {
            s->groups.flag[idx] = 1;
            return DB_OK;
        }
    } else {
        for (uint32_t k = it->ncorr; k < it->nkeys; k++) {
            if (kv[k].kind == PV_NULL) {
                return DB_OK; /* y IS NULL: x = y is never TRUE */
            }
        }
    }
    return set_add(s, &s->match, kv, &idx, err);
}

/* Hash the inner rows (first next). */
static int
build(op_semi *s, db_error *err)
{
    const sj_item *it = s->it;
    plan_ectx *cx = s->base.cx;
    plan_op *in = it->inner;
    arena *stmt_a = cx->a;
    int rc = DB_OK;
    bool done = false;
    while (rc == DB_OK && !done) {
        plan_batch *b;
        if ((rc = in->next(in, &b, err)) != DB_OK || !b) {
            break;
        }
        arena_reset(s->base.ba);
        cx->a = s->base.ba; /* comparison and hashing scratch */
        uint32_t n = plan__batch_active(b);
        for (uint32_t r = 0; r < n && rc == DB_OK && !done; r++) {
            uint32_t row = plan__batch_row(b, r);
            for (uint32_t k = 0; k < it->nkeys; k++) {
                plan__batch_get(b, it->icol[k], row, &s->kv[k]);
            }
            rc = build_row(s, s->kv, err);
            /* Without keys one row decides EXISTS / NOT EXISTS. */
            done = it->nkeys == 0 && s->match.n > 0;
        }
        cx->a = stmt_a;
        if (rc == DB_OK) {
            rc = plan__check_interrupt(cx->s, err); /* charges the sets to exec_mem_limit */
        }
    }
    cx->a = stmt_a;
    s->built = true;
    in->close(in); /* its batches are no longer needed */
    return rc;
}

/* Whether the outer row with key values kv passes. */
static bool
probe_row(op_semi *s, const plan_value *kv)
{
    const sj_item *it = s->it;
    bool corr_null = false, val_null = false;
    for (uint32_t k = 0; k < it->ncorr; k++) {
        corr_null |= kv[k].kind == PV_NULL;
    }
    for (uint32_t k = it->ncorr; k < it->nkeys; k++) {
        val_null |= kv[k].kind == PV_NULL;
    }
    switch (it->kind) {
    case SJ_SEMI:
        return !corr_null && !val_null &&
               set_find(s, &s->match, kv, keys_hash(s, kv, it->nkeys)) >= 0;
    case SJ_ANTI:
        return corr_null || set_find(s, &s->match, kv, keys_hash(s, kv, it->nkeys)) < 0;
    default: {
        /* x NOT IN (the values of the inner rows of this correlation group): TRUE over an
         * empty group; otherwise never TRUE when the group holds a NULL or x is NULL; else
         * TRUE when x is not among them. */
        if (corr_null) {
            return true;
        }
        int64_t g = set_find(s, &s->groups, kv, keys_hash(s, kv, it->ncorr));
        if (g < 0) {
            return true;
        }
        if (s->groups.flag[g] || val_null) {
            return false;
        }
        return set_find(s, &s->match, kv, keys_hash(s, kv, it->nkeys)) < 0;
    }
    }
}

static int
semi_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_semi *s = (op_semi *)op;
    const sj_item *it = s->it;
    plan_ectx *cx = op->cx;
    *out = NULL;
    if (!s->built && build(s, err) != DB_OK) {
        return DB_ERR;
    }
    for (;;) {
        plan_batch *in;
        if (op->child->next(op->child, &in, err) != DB_OK) {
            return DB_ERR;
        }
        if (!in) {
            return DB_OK;
        }
        arena_reset(op->ba);
        uint32_t n = plan__batch_active(in);
        uint32_t *sel = arena_alloc(op->ba, (n ? n : 1) * sizeof *sel);
        uint32_t nsel = 0;
        arena *stmt_a = cx->a;
        cx->a = op->ba; /* expression scratch lives for this batch only */
        int rc = DB_OK;
        for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
            uint32_t row = plan__batch_row(in, k);
            for (uint32_t c = 0; c < in->ncols; c++) {
                plan__batch_get(in, c, row, &s->ovals[c]);
            }
            cx->row = s->ovals;
            cx->nrow = in->ncols;
            for (uint32_t j = 0; j < it->nkeys && rc == DB_OK; j++) {
                rc = plan__eval(cx, it->okeys[j], &s->kv[j], err);
            }
            if (rc == DB_OK && probe_row(s, s->kv)) {
                sel[nsel++] = row;
            }
        }
        cx->row = NULL;
        cx->a = stmt_a;
        if (rc != DB_OK) {
            return DB_ERR;
        }
        if (nsel > 0) {
            in->sel = sel;
            in->nsel = nsel;
            *out = in;
            return DB_OK;
        }
    }
}

static int
semi_open(plan_op *op, db_error *err)
{
    op_semi *s = (op_semi *)op;
    op->opened = true;
    op->ba = arena_new(0);
    if (op->child->open(op->child, err) != DB_OK) {
        return DB_ERR;
    }
    /* Built once per statement: the subquery reads no outer row (planned without an outer
     * scope), so a re-open (this tree inside a subquery run once per outer row) keeps it. */
    if (s->built) {
        return DB_OK;
    }
    if (!s->sa) {
        s->sa = arena_new(0);
    }
    return op->child2->open(op->child2, err);
}

static void
semi_close(plan_op *op)
{
    if (op->child->opened) {
        op->child->close(op->child);
    }
    if (op->child2->opened) {
        op->child2->close(op->child2);
    }
    arena_free(op->ba);
    op->ba = NULL;
    op->opened = false;
}

/* Statement end (reset of the statement arena): the sets go. */
static void
semi_release(void *arg)
{
    op_semi *s = arg;
    set_free(&s->match);
    set_free(&s->groups);
    mem_free(s->fold);
    s->fold = NULL;
    s->fold_cap = 0;
    s->bytes = 0;
    if (s->sa) {
        arena_free(s->sa);
        s->sa = NULL;
    }
    s->built = false;
}

static size_t
semi_mem(const plan_op *op)
{
    const op_semi *s = (const op_semi *)op;
    return s->bytes + (s->sa ? arena_used(s->sa) : 0);
}

/* EXPLAIN: LEFT SEMI JOIN(outer = inner AND ...), LEFT ANTI JOIN(...) or NULL AWARE LEFT ANTI
 * JOIN(...); the outer input is child, the subquery child2. */
static void
semi_describe(plan_op *op, plan_explain *ex)
{
    const sj_item *it = ((const op_semi *)op)->it;
    static const char *const names[] = {"LEFT SEMI JOIN", "LEFT ANTI JOIN",
                                        "NULL AWARE LEFT ANTI JOIN"};
    plan__explain_printf(ex, "%s", names[it->kind]);
    for (uint32_t k = 0; k < it->nkeys; k++) {
        plan__explain_printf(ex, "%s%s = %s", k ? " AND " : "(",
                             plan__explain_expr(ex, it->okeys[k]),
                             plan__explain_expr(ex, it->ikeys[k]));
    }
    if (it->nkeys) {
        plan__explain_printf(ex, ")");
    }
}

plan_op *
plan__semi_apply(plan_ectx *cx, plan_op *root, const plan_semi *sj)
{
    for (const sj_item *it = sj->first; it; it = it->next) {
        op_semi *s = arena_calloc(cx->a, 1, sizeof *s);
        plan_op *op = &s->base;
        op->cx = cx;
        op->cap = root->cap;
        op->ncols = root->ncols;
        op->types = root->types;
        op->open = semi_open;
        op->next = semi_next;
        op->close = semi_close;
        op->mem_used = semi_mem;
        op->describe = semi_describe;
        op->child = root;
        op->child2 = it->inner;
        s->it = it;
        s->match.nk = it->nkeys;
        s->groups.nk = it->ncorr;
        s->ovals = arena_calloc(cx->a, root->ncols + 1, sizeof *s->ovals);
        s->kv = arena_calloc(cx->a, it->nkeys + 1, sizeof *s->kv);
        arena_on_reset(cx->a, semi_release, s);
        root = op;
    }
    return root;
}
