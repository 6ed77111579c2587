/* SPDX-License-Identifier: Apache-2.0
 * plan_join.c: the join operator. One input (the build side, picked by the planner as the
 * smaller estimate) is materialized into an operator-owned arena and hashed on its equi-join
 * keys; the other (the probe side) streams through it batch by batch. Candidate pairs are
 * checked key by key with the comparison rules (plan__compare) and then with the residual
 * predicate; rows of a preserved side without a match come out null-extended (probe side at
 * once, build side after the probe input ends). Without keys every build row is a candidate:
 * a nested-loop join (CROSS, theta joins). Output columns are always left then right. See
 * README.md §Executor (joins). */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <string.h>

#include "common/mem.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

typedef enum join_stage { JS_PROBE, JS_TAIL, JS_DONE } join_stage;

typedef struct op_join {
    plan_op base;
    plan_op *left, *right;
    plan_join_spec js;
    const char *note;            /* EXPLAIN: the join order chosen (plan__op_join_note), or NULL */
    plan_op *build, *probe;      /* inputs by role */
    plan_expr *const *bkeys;     /* key expressions over the build side's columns */
    plan_expr *const *pkeys;     /* ... over the probe side's */
    uint32_t bcols, pcols;       /* columns per role */
    uint32_t boff, poff;         /* where each role's columns start in the output row */
    bool keep_build, keep_probe; /* outer join: the side's unmatched rows come out */
    size_t limit;                /* bytes of the build side before ER_JOIN_MEMORY_LIMIT */
    /* Build side (open .. close). */
    arena *ja;         /* build rows' strings and key strings */
    plan_value *brows; /* nb rows of bcols values (heap) */
    plan_value *bkv;   /* nb rows of nkeys key values (heap) */
    uint64_t *bhash;   /* per row (heap) */
    uint32_t *bnext;   /* per row: next row of its chain + 1, 0 = end (heap) */
    uint8_t *matched;  /* per row: some probe row matched it (heap) */
    uint32_t nb, capb;
    uint32_t *heads; /* nslots: first row of the chain + 1 (heap) */
    uint32_t mask;
    size_t bytes; /* heap + arena bytes held */
    char *fold;   /* case-folding scratch (heap) */
    size_t fold_cap;
    bool built;
    /* Probe state (resumable when the output batch fills). */
    join_stage stage;
    plan_batch *pb;  /* current probe batch (valid until probe->next) */
    uint32_t pk, pn; /* active row position, active rows */
    bool row_started, row_matched;
    uint32_t chain; /* next candidate build row + 1 */
    uint64_t phash;
    bool pnull;        /* a probe key is NULL: no match */
    plan_value *pkv;   /* probe key values */
    plan_value *combo; /* one output row: left ++ right */
    uint32_t tail;     /* JS_TAIL: next build row */
    uint64_t visits;   /* candidates looked at (interrupt checks) */
    plan_batch *out;
} op_join;

static int join_open(plan_op *op, db_error *err);
static int join_next(plan_op *op, plan_batch **out, db_error *err);
static void join_close(plan_op *op);

bool
plan__join_key_ok(plan_cmp_mode mode, const plan_expr *l, const plan_expr *r)
{
    if (mode != PLAN_CMP_DATETIME) {
        return true;
    }
    /* Temporal values compare as microseconds only when both sides are temporal. */
    bool lt = l->vk == PV_DATE || l->vk == PV_DATETIME;
    bool rt = r->vk == PV_DATE || r->vk == PV_DATETIME;
    return lt && rt;
}

uint64_t
plan__join_hash(plan_ectx *cx, plan_cmp_mode mode, const plan_value *v, char **fold,
                size_t *fold_cap, uint64_t seed)
{
    switch (mode) {
    case PLAN_CMP_INT:
    case PLAN_CMP_UINT:
    case PLAN_CMP_DECIMAL:
    case PLAN_CMP_DOUBLE: {
        /* Equal numbers (in any of these modes) convert to equal doubles; unequal ones that
         * collide are told apart by plan__compare. */
        bool trunc = false;
        double d = plan__v_to_double(v, &trunc);
        if (d == 0 || isnan(d)) {
            d = 0.0;
        }
        return XXH3_64bits_withSeed(&d, sizeof d, seed);
    }
    case PLAN_CMP_DATETIME:
        return XXH3_64bits_withSeed(&v->i, sizeof v->i, seed);
    case PLAN_CMP_STRING:
    case PLAN_CMP_BINARY: {
        const char *s;
        size_t len;
        if (v->kind == PV_STRING) {
            s = v->str.s;
            len = v->str.len;
        } else if (!plan__v_string(cx, v, &s, &len)) {
            return seed;
        }
        while (len > 0 && s[len - 1] == ' ') { /* PAD SPACE: trailing blanks never count */
            len--;
        }
        if (mode == PLAN_CMP_STRING) {
            if (2 * len > *fold_cap) {
                *fold_cap = 2 * len < 64 ? 64 : 2 * len;
                *fold = mem_realloc(*fold, *fold_cap);
            }
            len = plan__ci_fold(cx->s->srv ? cx->s->srv->ctype : 0, s, len, *fold);
            s = *fold;
        }
        return XXH3_64bits_withSeed(s, len, seed ^ 0x5bd1e995u);
    }
    }
    return seed;
}

/* Hash of nkeys key values; *has_null when one is NULL (such rows never match). */
static uint64_t
keys_hash(op_join *j, const plan_value *kv, bool *has_null)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    *has_null = false;
    for (uint32_t k = 0; k < j->js.nkeys; k++) {
        if (kv[k].kind == PV_NULL) {
            *has_null = true;
            return 0;
        }
        h = plan__join_hash(j->base.cx, j->js.modes[k], &kv[k], &j->fold, &j->fold_cap, h);
    }
    return h;
}

/* Evaluate key expressions over row (one side's columns) into kv. */
static int
eval_keys(plan_ectx *cx, plan_expr *const *keys, uint32_t n, const plan_value *row, uint32_t ncols,
          plan_value *kv, db_error *err)
{
    cx->row = row;
    cx->nrow = ncols;
    for (uint32_t k = 0; k < n; k++) {
        if (plan__eval(cx, keys[k], &kv[k], err) != DB_OK) {
            cx->row = NULL;
            return DB_ERR;
        }
    }
    cx->row = NULL;
    return DB_OK;
}

static int
mem_check(op_join *j, size_t more, db_error *err)
{
    j->bytes += more;
    if (j->bytes > j->limit) {
        return db_error_set(err, ER_JOIN_MEMORY_LIMIT, (unsigned long long)(j->limit >> 20));
    }
    return DB_OK;
}

/* A copy of v whose string bytes live in the join arena. */
static int
keep_value(op_join *j, plan_value *v, db_error *err)
{
    if (v->kind == PV_STRING && v->str.len > 0) {
        if (mem_check(j, v->str.len, err) != DB_OK) {
            return DB_ERR;
        }
        char *s = arena_alloc(j->ja, v->str.len);
        memcpy(s, v->str.s, v->str.len);
        v->str.s = s;
    }
    return DB_OK;
}

static int
grow_build(op_join *j, db_error *err)
{
    uint32_t ncap = j->capb ? j->capb * 2 : 1024;
    size_t nk = j->js.nkeys;
    size_t per = (size_t)j->bcols * sizeof(plan_value) + nk * sizeof(plan_value) +
                 sizeof(uint64_t) + sizeof(uint32_t) + 1;
    if (ncap >= UINT32_MAX / 2 || mem_check(j, (size_t)(ncap - j->capb) * per, err) != DB_OK) {
        if (ncap >= UINT32_MAX / 2) {
            return db_error_set(err, ER_JOIN_MEMORY_LIMIT, (unsigned long long)(j->limit >> 20));
        }
        return DB_ERR;
    }
    j->brows = mem_realloc(j->brows, (size_t)ncap * (j->bcols ? j->bcols : 1) * sizeof(plan_value));
    j->bkv = mem_realloc(j->bkv, (size_t)ncap * (nk ? nk : 1) * sizeof(plan_value));
    j->bhash = mem_realloc(j->bhash, (size_t)ncap * sizeof(uint64_t));
    j->bnext = mem_realloc(j->bnext, (size_t)ncap * sizeof(uint32_t));
    j->matched = mem_realloc(j->matched, ncap);
    j->capb = ncap;
    return DB_OK;
}

/* Materialize and hash the build input. */
static int
build(op_join *j, db_error *err)
{
    plan_ectx *cx = j->base.cx;
    plan_op *b = j->build;
    uint32_t nk = j->js.nkeys;
    arena *scratch = arena_new(0);
    arena *stmt_a = cx->a;
    int rc = DB_OK;
    for (;;) {
        plan_batch *in;
        if ((rc = b->next(b, &in, err)) != DB_OK || !in) {
            break;
        }
        arena_reset(scratch);
        if ((rc = plan__check_interrupt(cx->s, err)) != DB_OK) {
            break;
        }
        cx->a = scratch;
        uint32_t n = plan__batch_active(in);
        for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
            if (j->nb == j->capb && (rc = grow_build(j, err)) != DB_OK) {
                break;
            }
            uint32_t row = plan__batch_row(in, k);
            plan_value *vals = &j->brows[(size_t)j->nb * j->bcols];
            for (uint32_t c = 0; c < j->bcols; c++) {
                plan__batch_get(in, c, row, &vals[c]);
            }
            plan_value *kv = &j->bkv[(size_t)j->nb * nk];
            rc = eval_keys(cx, j->bkeys, nk, vals, j->bcols, kv, err);
            for (uint32_t c = 0; c < j->bcols && rc == DB_OK; c++) {
                rc = keep_value(j, &vals[c], err);
            }
            for (uint32_t c = 0; c < nk && rc == DB_OK; c++) {
                rc = keep_value(j, &kv[c], err);
            }
            if (rc != DB_OK) {
                break;
            }
            bool has_null;
            j->bhash[j->nb] = keys_hash(j, kv, &has_null);
            j->bnext[j->nb] = has_null ? UINT32_MAX : 0; /* UINT32_MAX: never in a chain */
            j->matched[j->nb] = 0;
            j->nb++;
        }
        cx->a = stmt_a;
        if (rc != DB_OK) {
            break;
        }
    }
    cx->a = stmt_a;
    arena_free(scratch);
    if (rc != DB_OK) {
        return DB_ERR;
    }
    /* Slots: a power of two at least 2 * rows (one slot without keys). */
    uint32_t nslots = 1;
    while (nk > 0 && nslots < 2 * (uint64_t)j->nb && nslots < (1u << 31)) {
        nslots *= 2;
    }
    if (mem_check(j, (size_t)nslots * sizeof(uint32_t), err) != DB_OK) {
        return DB_ERR;
    }
    j->heads = mem_calloc(nslots, sizeof(uint32_t));
    j->mask = nslots - 1;
    /* Insert from the last row so that every chain lists rows in input order. */
    for (uint32_t i = j->nb; i-- > 0;) {
        if (j->bnext[i] == UINT32_MAX) {
            continue;
        }
        uint32_t s = (uint32_t)(j->bhash[i] & j->mask);
        j->bnext[i] = j->heads[s];
        j->heads[s] = i + 1;
    }
    j->built = true;
    return DB_OK;
}

static int
join_open(plan_op *op, db_error *err)
{
    op_join *j = (op_join *)op;
    op->opened = true;
    op->ba = arena_new(0);
    j->ja = arena_new(0);
    j->stage = JS_PROBE;
    j->built = false;
    j->pb = NULL;
    j->nb = j->capb = 0;
    j->bytes = 0;
    j->out = plan__batch_new(op->cx->a, op->types, op->ncols, op->cap);
    if (j->left->open(j->left, err) != DB_OK) {
        return DB_ERR;
    }
    return j->right->open(j->right, err);
}

static void
join_close(plan_op *op)
{
    op_join *j = (op_join *)op;
    if (j->left->opened) {
        j->left->close(j->left);
    }
    if (j->right->opened) {
        j->right->close(j->right);
    }
    arena_free(op->ba);
    op->ba = NULL;
    arena_free(j->ja);
    j->ja = NULL;
    mem_free(j->brows);
    mem_free(j->bkv);
    mem_free(j->bhash);
    mem_free(j->bnext);
    mem_free(j->matched);
    mem_free(j->heads);
    mem_free(j->fold);
    j->brows = j->bkv = NULL;
    j->bhash = NULL;
    j->bnext = j->heads = NULL;
    j->matched = NULL;
    j->fold = NULL;
    j->fold_cap = 0;
    j->nb = j->capb = 0;
    j->bytes = 0;
    op->opened = false;
}

static size_t
join_mem(const plan_op *op)
{
    return ((const op_join *)op)->bytes;
}

/* Append j->combo as an output row. */
static int
emit(op_join *j, db_error *err)
{
    plan_batch *o = j->out;
    uint32_t r = o->nrows;
    for (uint32_t c = 0; c < o->ncols; c++) {
        if (plan__batch_set(j->base.cx, o, c, r, &j->combo[c], err) != DB_OK) {
            return DB_ERR;
        }
    }
    o->nrows++;
    return DB_OK;
}

static void
set_nulls(plan_value *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        v[i] = plan__v_null();
    }
}

/* Does build row i pair with the current probe row (keys, then the residual)? */
static int
pair_ok(op_join *j, uint32_t i, bool *ok, db_error *err)
{
    plan_ectx *cx = j->base.cx;
    *ok = false;
    if (j->js.nkeys) {
        if (j->bhash[i] != j->phash) {
            return DB_OK;
        }
        const plan_value *bk = &j->bkv[(size_t)i * j->js.nkeys];
        for (uint32_t k = 0; k < j->js.nkeys; k++) {
            /* Compare in build/probe order as written: left value first. */
            const plan_value *l = j->js.build_left ? &bk[k] : &j->pkv[k];
            const plan_value *r = j->js.build_left ? &j->pkv[k] : &bk[k];
            if (plan__compare(cx, j->js.modes[k], l, r) != 0) {
                return DB_OK;
            }
        }
    }
    memcpy(&j->combo[j->boff], &j->brows[(size_t)i * j->bcols], j->bcols * sizeof(plan_value));
    if (j->js.residual) {
        cx->row = j->combo;
        cx->nrow = j->base.ncols;
        plan_value v;
        int rc = plan__eval(cx, j->js.residual, &v, err);
        cx->row = NULL;
        if (rc != DB_OK) {
            return DB_ERR;
        }
        *ok = plan__v_truth(&v) == 1;
        return DB_OK;
    }
    *ok = true;
    return DB_OK;
}

static int
probe_step(op_join *j, db_error *err)
{
    plan_ectx *cx = j->base.cx;
    if (!j->row_started) {
        uint32_t row = plan__batch_row(j->pb, j->pk);
        plan_value *pv = &j->combo[j->poff];
        for (uint32_t c = 0; c < j->pcols; c++) {
            plan__batch_get(j->pb, c, row, &pv[c]);
        }
        if (eval_keys(cx, j->pkeys, j->js.nkeys, pv, j->pcols, j->pkv, err) != DB_OK) {
            return DB_ERR;
        }
        bool has_null;
        j->phash = keys_hash(j, j->pkv, &has_null);
        j->chain = has_null ? 0 : j->heads[j->phash & j->mask];
        j->row_started = true;
        j->row_matched = false;
    }
    while (j->chain && j->out->nrows < j->out->cap) {
        uint32_t i = j->chain - 1;
        j->chain = j->bnext[i];
        /* Long chains without matches (theta joins) still notice KILL and the limits. */
        if ((++j->visits & 0xFFFF) == 0 && plan__check_interrupt(cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        bool ok;
        if (pair_ok(j, i, &ok, err) != DB_OK) {
            return DB_ERR;
        }
        if (ok) {
            j->matched[i] = 1;
            j->row_matched = true;
            if (emit(j, err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    if (j->chain) {
        return DB_OK; /* the batch is full; resume this row next time */
    }
    if (!j->row_matched && j->keep_probe) {
        if (j->out->nrows == j->out->cap) {
            return DB_OK;
        }
        set_nulls(&j->combo[j->boff], j->bcols);
        if (emit(j, err) != DB_OK) {
            return DB_ERR;
        }
    }
    j->row_started = false;
    j->pk++;
    return DB_OK;
}

static int
join_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_join *j = (op_join *)op;
    plan_ectx *cx = op->cx;
    *out = NULL;
    if (!j->built && build(j, err) != DB_OK) {
        return DB_ERR;
    }
    arena_reset(op->ba);
    plan__batch_clear(j->out);
    arena *stmt_a = cx->a;
    cx->a = op->ba; /* expression scratch lives for this batch only */
    int rc = DB_OK;
    while (rc == DB_OK && j->out->nrows < j->out->cap && j->stage != JS_DONE) {
        if (j->stage == JS_PROBE) {
            if (!j->pb || j->pk >= j->pn) {
                if (j->out->nrows > 0) {
                    break; /* the rows emitted point into the current probe batch */
                }
                cx->a = stmt_a;
                rc = j->probe->next(j->probe, &j->pb, err);
                cx->a = op->ba;
                if (rc != DB_OK) {
                    break;
                }
                if (!j->pb) {
                    j->stage = j->keep_build ? JS_TAIL : JS_DONE;
                    j->tail = 0;
                    continue;
                }
                j->pk = 0;
                j->pn = plan__batch_active(j->pb);
                j->row_started = false;
                continue;
            }
            rc = probe_step(j, err);
        } else { /* JS_TAIL: build rows nobody matched */
            if (j->tail >= j->nb) {
                j->stage = JS_DONE;
                break;
            }
            uint32_t i = j->tail++;
            if (j->matched[i]) {
                continue;
            }
            memcpy(&j->combo[j->boff], &j->brows[(size_t)i * j->bcols],
                   j->bcols * sizeof(plan_value));
            set_nulls(&j->combo[j->poff], j->pcols);
            rc = emit(j, err);
        }
    }
    cx->a = stmt_a;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    *out = j->out->nrows ? j->out : NULL;
    return DB_OK;
}

/* EXPLAIN: HASH JOIN(LEFT, keys, residual) or NESTED LOOP JOIN(...); the probe input is child,
 * the build input child2. */
static void
join_describe(plan_op *op, plan_explain *ex)
{
    const op_join *j = (const op_join *)op;
    static const char *const names[] = {"INNER", "INNER", "LEFT", "RIGHT", "FULL"};
    plan__explain_printf(ex, "%s(%s, build %s", j->js.nkeys ? "HASH JOIN" : "NESTED LOOP JOIN",
                         names[j->js.type], j->js.build_left ? "left" : "right");
    for (uint32_t k = 0; k < j->js.nkeys; k++) {
        plan__explain_printf(ex, "%s%s = %s", k ? " AND " : ", ",
                             plan__explain_expr(ex, j->js.lkeys[k]),
                             plan__explain_expr(ex, j->js.rkeys[k]));
    }
    if (j->js.residual) {
        plan__explain_printf(ex, ", %s", plan__explain_expr(ex, j->js.residual));
    }
    if (j->note) {
        plan__explain_printf(ex, ", %s", j->note);
    }
    plan__explain_printf(ex, ")");
}

void
plan__op_join_note(plan_op *op, const char *note)
{
    ((op_join *)op)->note = note;
}

plan_op *
plan__op_join(plan_ectx *cx, plan_op *left, plan_op *right, const plan_join_spec *js)
{
    op_join *j = arena_calloc(cx->a, 1, sizeof *j);
    plan_op *op = &j->base;
    op->cx = cx;
    op->cap = left->cap > right->cap ? left->cap : right->cap;
    op->ncols = left->ncols + right->ncols;
    op->types = arena_calloc(cx->a, op->ncols ? op->ncols : 1, sizeof *op->types);
    if (left->ncols) {
        memcpy(op->types, left->types, left->ncols * sizeof *op->types);
    }
    if (right->ncols) {
        memcpy(op->types + left->ncols, right->types, right->ncols * sizeof *op->types);
    }
    op->open = join_open;
    op->next = join_next;
    op->close = join_close;
    op->mem_used = join_mem;
    op->describe = join_describe;
    j->left = left;
    j->right = right;
    j->js = *js;
    j->limit = js->mem_limit ? js->mem_limit : PLAN_JOIN_MEM_LIMIT;
    bool bl = js->build_left;
    j->build = bl ? left : right;
    j->probe = bl ? right : left;
    op->child = j->probe;
    op->child2 = j->build;
    j->bkeys = bl ? js->lkeys : js->rkeys;
    j->pkeys = bl ? js->rkeys : js->lkeys;
    j->bcols = j->build->ncols;
    j->pcols = j->probe->ncols;
    j->boff = bl ? 0 : left->ncols;
    j->poff = bl ? left->ncols : 0;
    bool keep_left = js->type == PLAN_JOIN_LEFT || js->type == PLAN_JOIN_FULL;
    bool keep_right = js->type == PLAN_JOIN_RIGHT || js->type == PLAN_JOIN_FULL;
    j->keep_build = bl ? keep_left : keep_right;
    j->keep_probe = bl ? keep_right : keep_left;
    j->pkv = arena_calloc(cx->a, js->nkeys + 1, sizeof(plan_value));
    j->combo = arena_calloc(cx->a, op->ncols + 1, sizeof(plan_value));
    return op;
}
