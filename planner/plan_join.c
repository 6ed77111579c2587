/* SPDX-License-Identifier: Apache-2.0
 * plan_join.c: the join operator. One input (the build side, picked by the planner as the
 * smaller estimate) is materialized column-wise into operator-owned typed arrays (strings in an
 * operator arena) and hashed on its equi-join keys; the other (the probe side) streams through
 * it batch by batch. The probe keys of a batch are evaluated as vectors and hashed in one pass
 * when plan_vector.c can (else row by row). Candidate pairs are checked key by key with the
 * comparison rules (plan__compare, or a plain integer compare where that is the same) and then
 * with the residual predicate; matched pairs are collected as (probe row, build row) index
 * pairs and the output batch is gathered from them column by column. Rows of a preserved side
 * without a match come out null-extended (probe side at once, build side after the probe input
 * ends). Without keys every build row is a candidate: a nested-loop join (CROSS, theta joins).
 * Output columns are always left then right. See README.md §Executor (joins). */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <string.h>

#include "common/mem.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define NO_ROW    UINT32_MAX            /* a pair's missing side: its columns come out NULL */
#define HASH_SEED 0x9E3779B97F4A7C15ull /* keys_hash's starting value */

typedef enum join_stage { JS_PROBE, JS_TAIL, JS_DONE } join_stage;

#define JOIN_INTERN_MAX (1u << 16) /* distinct build strings shared at most */

/* A build string kept in the join arena, by its bytes. */
typedef struct join_istr {
    uint64_t hash; /* XXH3 of the bytes */
    const char *s; /* NULL = empty slot */
    size_t len;
} join_istr;

/* What a probe looks at per candidate build row, in 16 bytes (one cache line, not three
 * arrays). */
typedef struct join_ent {
    int64_t ikey;    /* the key when the build keys are one integer (int_key); else unused */
    uint32_t hash32; /* keys_hash of the row's keys >> 32 (the low bits pick the slot) */
    uint32_t next; /* next row of the chain + 1, 0 = end, UINT32_MAX = a NULL key (never chained) */
} join_ent;

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
    bool bvec, pvec_ok;          /* every key is plan__vec_supported over the build / probe input */
    size_t limit;                /* bytes of the build side before ER_JOIN_MEMORY_LIMIT */
    /* Build side (open .. close). */
    arena *ja;       /* build rows' strings and key strings */
    plan_batch bst;  /* build rows column-wise: cols[c] heap arrays of capb rows of the build
                        input's types[c], rows [0, nb) filled (nrows = nb, cap = capb) */
    plan_value *bkv; /* nb rows of nkeys key values (heap) */
    join_ent *bent;  /* per row: hash, chain link, integer key (heap) */
    uint32_t *bhlo;  /* per row: keys_hash & 0xFFFFFFFF, its slot's bits (heap) */
    bool int_key;    /* one key, and every non-NULL build key value is a PV_INT of signedness
                        int_uns that compares as a plain integer in the key's mode */
    bool int_uns;
    bool int_seen;    /* a non-NULL build key was seen (int_uns is set) */
    uint8_t *matched; /* per row: some probe row matched it (heap) */
    uint32_t nb, capb;
    size_t row_bytes; /* heap bytes per build row (strings not included) */
    uint32_t *heads;  /* nslots: first row of the chain + 1 (heap) */
    uint32_t mask;
    size_t bytes; /* heap + arena bytes held */
    char *fold;   /* case-folding scratch (heap) */
    size_t fold_cap;
    join_istr *itab; /* intern table: icap slots (a power of two, at most half full), in
                        strings (heap) */
    uint32_t icap, in;
    bool built;
    /* Probe state (resumable when the output batch fills). */
    join_stage stage;
    plan_batch *pb;        /* current probe batch (valid until probe->next) */
    arena *pa;             /* the current probe batch's key vectors, hashes and row-path key values;
                              reset when the next probe batch is pulled */
    bool pvec;             /* the keys of pb were vectorized: pkres, phashes and pnulls are set */
    plan_vres *pkres;      /* nkeys key vectors over pb (indexed by row) */
    uint64_t *phashes;     /* per active position of pb: keys_hash of its keys */
    bool pfast;            /* int_key and pkres[0] holds integers of the same signedness: a key
                              pair is equal when ikey equals the probe integer */
    int64_t pint;          /* pfast: the current probe row's key */
    uint8_t *pnulls_col;   /* per probe column: col_nulls over pb's rows */
    bool onull_p, onull_b; /* some output row so far has no probe / build row */
    uint8_t *bnulls;       /* per build column: col_nulls over the build rows (heap) */
    uint8_t *pnulls;       /* per active position: 1 = a key is NULL (never matches) */
    uint32_t pk, pn;       /* active row position, active rows */
    uint32_t prow;         /* the current probe row (index into pb) */
    bool row_started, row_matched;
    bool pkv_ready; /* pkv holds the current probe row's keys */
    uint32_t chain; /* next candidate build row + 1 */
    uint64_t phash;
    plan_value *pkv;   /* probe key values */
    plan_value *combo; /* one joined row (left ++ right) for the residual */
    uint32_t tail;     /* JS_TAIL: next build row */
    uint64_t visits;   /* candidates looked at (interrupt checks) */
    plan_batch *out;
    uint32_t *oprobe, *obuild; /* per output row: its probe row in pb and build row, or NO_ROW */
} op_join;

static int join_open(plan_op *op, db_error *err);
static int join_next(plan_op *op, plan_batch **out, db_error *err);
static void join_close(plan_op *op);
static int intern_grow(op_join *j, db_error *err);
static int build(op_join *j, db_error *err);
static int build_batch(op_join *j, const plan_batch *in, arena *scratch, plan_value *row,
                       plan_vres *kres, db_error *err);
static void probe_keys(op_join *j);
static int probe_rows(op_join *j, db_error *err);
static int gather_out(op_join *j, db_error *err);

/* Hash of a number compared in a numeric mode: equal numbers convert to equal doubles; unequal
 * ones that collide are told apart by plan__compare. */
static inline uint64_t
hash_num(double d, uint64_t seed)
{
    if (d == 0 || isnan(d)) {
        d = 0.0;
    }
    return XXH3_64bits_withSeed(&d, sizeof d, seed);
}

static bool
is_numeric_mode(plan_cmp_mode mode)
{
    return mode == PLAN_CMP_INT || mode == PLAN_CMP_UINT || mode == PLAN_CMP_DECIMAL ||
           mode == PLAN_CMP_DOUBLE;
}

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
        bool trunc = false;
        return hash_num(plan__v_to_double(v, &trunc), seed);
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
    uint64_t h = HASH_SEED;
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

/* Point *s at a copy of its len bytes in the join arena. Equal bytes share one copy (the
 * intern table, up to JOIN_INTERN_MAX distinct strings): less memory, and a parent keyed on a
 * build string (GROUP BY region) sees few distinct pointers, which its hash memo exploits. */
static int
keep_bytes(op_join *j, const char **s, size_t len, db_error *err)
{
    if (len == 0) {
        return DB_OK;
    }
    uint64_t h = XXH3_64bits(*s, len);
    uint32_t slot = 0;
    if (j->icap) {
        for (slot = (uint32_t)h & (j->icap - 1); j->itab[slot].s;
             slot = (slot + 1) & (j->icap - 1)) {
            const join_istr *e = &j->itab[slot];
            if (e->hash == h && e->len == len && memcmp(e->s, *s, len) == 0) {
                *s = e->s;
                return DB_OK;
            }
        }
    }
    if (mem_check(j, len, err) != DB_OK) {
        return DB_ERR;
    }
    char *p = arena_alloc(j->ja, len);
    memcpy(p, *s, len);
    *s = p;
    if (j->icap == 0 || 2 * (j->in + 1) > j->icap) {
        if (j->icap >= 2 * JOIN_INTERN_MAX) {
            return DB_OK; /* full: later strings are copied, not shared */
        }
        if (intern_grow(j, err) != DB_OK) {
            return DB_ERR;
        }
        slot = (uint32_t)h & (j->icap - 1);
        while (j->itab[slot].s) {
            slot = (slot + 1) & (j->icap - 1);
        }
    }
    j->itab[slot] = (join_istr){.hash = h, .s = p, .len = len};
    j->in++;
    return DB_OK;
}

/* Double the intern table (64 slots first), reinserting its strings. */
static int
intern_grow(op_join *j, db_error *err)
{
    uint32_t ncap = j->icap ? 2 * j->icap : 64;
    if (mem_check(j, (size_t)(ncap - j->icap) * sizeof(join_istr), err) != DB_OK) {
        return DB_ERR;
    }
    join_istr *t = mem_calloc(ncap, sizeof *t);
    for (uint32_t i = 0; i < j->icap; i++) {
        const join_istr *e = &j->itab[i];
        if (!e->s) {
            continue;
        }
        uint32_t s = (uint32_t)e->hash & (ncap - 1);
        while (t[s].s) {
            s = (s + 1) & (ncap - 1);
        }
        t[s] = *e;
    }
    mem_free(j->itab);
    j->itab = t;
    j->icap = ncap;
    return DB_OK;
}

/* ---- build side: column-wise storage ---- */


/* Whether a value stored in a vector of type s can be copied as is into one of type d (what
 * plan__batch_set would store without converting). */
static bool
same_storage(const plan_vtype *d, const plan_vtype *s)
{
    if (d->kind != s->kind) {
        return false;
    }
    if (d->kind == PV_INT) {
        return d->is_unsigned == s->is_unsigned;
    }
    return d->kind != PV_DECIMAL || d->scale == s->scale;
}

static inline void
set_null_bit(uint8_t *nulls, uint32_t r)
{
    nulls[r >> 3] |= (uint8_t)(1u << (r & 7));
}

static inline bool
null_bit(const uint8_t *nulls, uint32_t r)
{
    return (nulls[r >> 3] >> (r & 7)) & 1;
}

/* NULLs in rows [0, n) of v: COL_MIXED (some, or cannot tell), COL_NONE or COL_ALL (a pruned
 * scan column is all NULL). Bits at n and beyond are not looked at. */
enum { COL_MIXED, COL_NONE, COL_ALL };
static uint8_t
col_nulls(const plan_vec *v, uint32_t n)
{
    if (v->t.kind == PV_NULL) {
        return COL_ALL;
    }
    uint32_t full = n / 8, rest = n % 8;
    uint8_t last = rest ? (uint8_t)(v->nulls[full] & ((1u << rest) - 1)) : 0;
    if (n > 0 && v->nulls[0] == 0 && last == 0) {
        bool none = true;
        for (uint32_t x = 0; none && x < full; x++) {
            none = v->nulls[x] == 0;
        }
        if (none) {
            return COL_NONE;
        }
    }
    if (n > 0 && (rest == 0 || last == (1u << rest) - 1)) {
        bool all = true;
        for (uint32_t x = 0; all && x < full; x++) {
            all = v->nulls[x] == 0xFF;
        }
        if (all) {
            return COL_ALL;
        }
    }
    return n == 0 ? COL_NONE : COL_MIXED;
}

/* Set the null bits of rows [0, n). */
static void
set_nulls_upto(uint8_t *nulls, uint32_t n)
{
    memset(nulls, 0xFF, n / 8);
    if (n % 8) {
        nulls[n / 8] |= (uint8_t)((1u << (n % 8)) - 1);
    }
}

/* Room for need more build rows (capacity doubles from 1024). */
static int
grow_build(op_join *j, uint32_t need, db_error *err)
{
    uint64_t want = (uint64_t)j->nb + need;
    if (want <= j->capb) {
        return DB_OK;
    }
    uint64_t ncap = j->capb ? j->capb : 1024;
    while (ncap < want) {
        ncap *= 2;
    }
    if (ncap >= UINT32_MAX / 2) {
        return db_error_set(err, ER_JOIN_MEMORY_LIMIT, (unsigned long long)(j->limit >> 20));
    }
    if (mem_check(j, (size_t)(ncap - j->capb) * j->row_bytes, err) != DB_OK) {
        return DB_ERR;
    }
    size_t nk = j->js.nkeys;
    size_t old_nbytes = (j->capb + 7) / 8, nbytes = (ncap + 7) / 8;
    for (uint32_t c = 0; c < j->bcols; c++) {
        plan_vec *v = &j->bst.cols[c];
        size_t es = plan__vec_elem_size(v->t.kind);
        if (es) {
            v->i = mem_realloc(v->i, es * ncap);
        }
        v->nulls = mem_realloc(v->nulls, nbytes);
        memset(v->nulls + old_nbytes, 0, nbytes - old_nbytes);
    }
    j->bkv = mem_realloc(j->bkv, (size_t)ncap * (nk ? nk : 1) * sizeof(plan_value));
    j->bent = mem_realloc(j->bent, (size_t)ncap * sizeof(join_ent));
    j->bhlo = mem_realloc(j->bhlo, (size_t)ncap * sizeof(uint32_t));
    j->matched = mem_realloc(j->matched, ncap);
    j->capb = (uint32_t)ncap;
    j->bst.cap = j->capb;
    return DB_OK;
}

/* Append column c of the active rows of in as build rows [first, first + n). */
static int
store_col(op_join *j, const plan_batch *in, uint32_t c, uint32_t first, uint32_t n, db_error *err)
{
    plan_vec *d = &j->bst.cols[c];
    const plan_vec *s = &in->cols[c];
    if (d->t.kind == PV_NULL) {
        for (uint32_t p = 0; p < n; p++) {
            set_null_bit(d->nulls, first + p);
        }
        return DB_OK;
    }
    bool same = same_storage(&d->t, &s->t);
    for (uint32_t p = 0; p < n; p++) {
        uint32_t r = plan__batch_row(in, p), i = first + p;
        if (!same) {
            /* Another storage kind (not expected from our inputs): convert as batch_set does. */
            plan_value v;
            plan__batch_get(in, c, r, &v);
            d->nulls[i >> 3] &= (uint8_t) ~(1u << (i & 7));
            if (plan__batch_set(j->base.cx, &j->bst, c, i, &v, err) != DB_OK) {
                return DB_ERR;
            }
        } else if (plan__vec_is_null(s, r)) {
            set_null_bit(d->nulls, i);
            continue;
        } else {
            switch (d->t.kind) {
            case PV_DOUBLE:
                d->d[i] = s->d[r];
                break;
            case PV_DECIMAL:
                d->dec[i] = s->dec[r];
                break;
            case PV_STRING:
                d->s[i] = s->s[r];
                break;
            default:
                d->i[i] = s->i[r];
                break;
            }
        }
        if (d->t.kind == PV_STRING && !null_bit(d->nulls, i) &&
            keep_bytes(j, &d->s[i].s, d->s[i].len, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* Add the active rows of in to the build side: columns, key values, hashes. Expression scratch
 * goes to scratch (cx->a is scratch too). */
static int
build_batch(op_join *j, const plan_batch *in, arena *scratch, plan_value *row, plan_vres *kres,
            db_error *err)
{
    plan_ectx *cx = j->base.cx;
    uint32_t n = plan__batch_active(in), nk = j->js.nkeys, first = j->nb;
    if (grow_build(j, n, err) != DB_OK) {
        return DB_ERR;
    }
    for (uint32_t c = 0; c < j->bcols; c++) {
        if (store_col(j, in, c, first, n, err) != DB_OK) {
            return DB_ERR;
        }
    }
    j->nb += n;
    j->bst.nrows = j->nb;
    bool vec = j->bvec && nk > 0;
    for (uint32_t k = 0; vec && k < nk; k++) {
        vec = plan__vec_eval(cx, scratch, j->bkeys[k], in, NULL, n, &kres[k]);
    }
    for (uint32_t p = 0; p < n; p++) {
        uint32_t r = plan__batch_row(in, p), i = first + p;
        plan_value *kv = &j->bkv[(size_t)i * nk];
        if (vec) {
            for (uint32_t k = 0; k < nk; k++) {
                plan__vres_get(&kres[k], r, &kv[k]);
            }
        } else if (nk > 0) {
            for (uint32_t c = 0; c < j->bcols; c++) {
                plan__batch_get(in, c, r, &row[c]);
            }
            if (eval_keys(cx, j->bkeys, nk, row, j->bcols, kv, err) != DB_OK) {
                return DB_ERR;
            }
        }
        for (uint32_t k = 0; k < nk; k++) {
            if (kv[k].kind == PV_STRING &&
                keep_bytes(j, &kv[k].str.s, kv[k].str.len, err) != DB_OK) {
                return DB_ERR;
            }
        }
        bool has_null;
        join_ent *e = &j->bent[i];
        uint64_t h = keys_hash(j, kv, &has_null);
        e->hash32 = (uint32_t)(h >> 32);
        j->bhlo[i] = (uint32_t)h;
        e->next = has_null ? UINT32_MAX : 0;
        e->ikey = 0;
        if (j->int_key && !has_null) {
            if (kv[0].kind != PV_INT || (j->int_seen && kv[0].is_unsigned != j->int_uns)) {
                j->int_key = false;
            } else {
                j->int_seen = true;
                j->int_uns = kv[0].is_unsigned;
                e->ikey = kv[0].i;
            }
        }
        j->matched[i] = 0;
    }
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
    plan_value *row = arena_calloc(stmt_a, j->bcols + 1, sizeof *row);
    plan_vres *kres = arena_calloc(stmt_a, nk + 1, sizeof *kres);
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
        rc = build_batch(j, in, scratch, row, kres, err);
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
    if (j->int_uns && j->js.modes[0] == PLAN_CMP_INT) {
        j->int_key = false; /* INT mode converts unsigned values: plan__compare decides */
    }
    j->bnulls = mem_calloc(j->bcols + 1, 1);
    for (uint32_t c = 0; c < j->bcols; c++) {
        j->bnulls[c] = col_nulls(&j->bst.cols[c], j->nb);
    }
    /* Insert from the last row so that every chain lists rows in input order. */
    for (uint32_t i = j->nb; i-- > 0;) {
        if (j->bent[i].next == UINT32_MAX) {
            continue;
        }
        uint32_t s = j->bhlo[i] & j->mask;
        j->bent[i].next = j->heads[s];
        j->heads[s] = i + 1;
    }
    j->built = true;
    return DB_OK;
}

/* ---- operator ---- */

static int
join_open(plan_op *op, db_error *err)
{
    op_join *j = (op_join *)op;
    plan_ectx *cx = op->cx;
    op->opened = true;
    op->ba = arena_new(0);
    j->ja = arena_new(0);
    j->pa = arena_new(0);
    j->stage = JS_PROBE;
    j->built = false;
    j->pb = NULL;
    j->pvec = false;
    j->nb = j->capb = 0;
    j->bytes = 0;
    j->visits = 0;
    j->out = plan__batch_new(cx->a, op->types, op->ncols, op->cap);
    j->oprobe = arena_alloc(cx->a, op->cap * sizeof(uint32_t));
    j->obuild = arena_alloc(cx->a, op->cap * sizeof(uint32_t));
    memset(&j->bst, 0, sizeof j->bst);
    j->bst.ncols = j->bcols;
    j->bst.cols = mem_calloc(j->bcols + 1, sizeof(plan_vec));
    j->row_bytes = (size_t)j->js.nkeys * sizeof(plan_value) + sizeof(join_ent) + sizeof(uint32_t) +
                   1 + (j->bcols + 7) / 8;
    j->int_key =
            j->js.nkeys == 1 && (j->js.modes[0] == PLAN_CMP_INT || j->js.modes[0] == PLAN_CMP_UINT);
    j->int_seen = j->int_uns = false;
    for (uint32_t c = 0; c < j->bcols; c++) {
        j->bst.cols[c].t = j->build->types[c];
        j->row_bytes += plan__vec_elem_size(j->build->types[c].kind);
    }
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
    arena_free(j->pa);
    j->pa = NULL;
    for (uint32_t c = 0; j->bst.cols && c < j->bcols; c++) {
        mem_free(j->bst.cols[c].i);
        mem_free(j->bst.cols[c].nulls);
    }
    mem_free(j->bst.cols);
    memset(&j->bst, 0, sizeof j->bst);
    mem_free(j->bkv);
    mem_free(j->bent);
    mem_free(j->bhlo);
    mem_free(j->bnulls);
    mem_free(j->matched);
    mem_free(j->heads);
    mem_free(j->fold);
    mem_free(j->itab);
    j->itab = NULL;
    j->icap = j->in = 0;
    j->bkv = NULL;
    j->bent = NULL;
    j->bhlo = NULL;
    j->bnulls = NULL;
    j->heads = NULL;
    j->matched = NULL;
    j->fold = NULL;
    j->fold_cap = 0;
    j->nb = j->capb = 0;
    j->bytes = 0;
    j->pb = NULL;
    j->pvec = false;
    op->opened = false;
}

static size_t
join_mem(const plan_op *op)
{
    return ((const op_join *)op)->bytes;
}

/* ---- probe side ---- */

/* Fold key k of every active row of pb into phashes / pnulls, exactly as keys_hash would hash
 * the key's value (plain loops for integers, doubles and temporal values). */
static void
hash_key_vec(op_join *j, uint32_t k)
{
    const plan_vres *r = &j->pkres[k];
    plan_cmp_mode mode = j->js.modes[k];
    uint32_t n = j->pn;
    if (r->t.kind == PV_NULL) {
        memset(j->pnulls, 1, n);
        return;
    }
    bool num = is_numeric_mode(mode);
    bool int_fast = num && r->t.kind == PV_INT, dbl_fast = num && r->t.kind == PV_DOUBLE;
    bool dt_fast = mode == PLAN_CMP_DATETIME && (r->t.kind == PV_DATE || r->t.kind == PV_DATETIME);
    for (uint32_t p = 0; p < n; p++) {
        uint32_t row = plan__batch_row(j->pb, p);
        if (j->pnulls[p]) {
            continue;
        }
        if (plan__vres_is_null(r, row)) {
            j->pnulls[p] = 1;
            continue;
        }
        uint32_t x = row & r->mask;
        uint64_t h = j->phashes[p];
        if (int_fast) {
            h = hash_num(r->t.is_unsigned ? (double)(uint64_t)r->i[x] : (double)r->i[x], h);
        } else if (dbl_fast) {
            h = hash_num(r->d[x], h);
        } else if (dt_fast) {
            h = XXH3_64bits_withSeed(&r->i[x], sizeof r->i[x], h);
        } else {
            plan_value v;
            plan__vres_get(r, row, &v);
            h = plan__join_hash(j->base.cx, mode, &v, &j->fold, &j->fold_cap, h);
        }
        j->phashes[p] = h;
    }
}

/* A new probe batch pb: evaluate its keys as vectors and hash them (pvec), when every key is
 * supported and no row needs the row path. Nothing vectorized has side effects, so giving up
 * half way is safe: the row path then evaluates each row's keys when it starts. */
static void
probe_keys(op_join *j)
{
    plan_ectx *cx = j->base.cx;
    uint32_t nk = j->js.nkeys, n = j->pn;
    arena_reset(j->pa);
    j->pvec = j->pfast = false;
    j->pnulls_col = arena_alloc(j->pa, j->pcols + 1);
    for (uint32_t c = 0; c < j->pcols; c++) {
        j->pnulls_col[c] = col_nulls(&j->pb->cols[c], j->pb->nrows);
    }
    if (nk == 0 || !j->pvec_ok) {
        return;
    }
    arena *save = cx->a;
    cx->a = j->pa;
    bool ok = true;
    for (uint32_t k = 0; ok && k < nk; k++) {
        ok = plan__vec_eval(cx, j->pa, j->pkeys[k], j->pb, NULL, n, &j->pkres[k]);
    }
    if (ok) {
        j->phashes = arena_alloc(j->pa, (size_t)n * sizeof(uint64_t) + 8);
        j->pnulls = arena_calloc(j->pa, (size_t)n + 1, 1);
        for (uint32_t p = 0; p < n; p++) {
            j->phashes[p] = HASH_SEED;
        }
        for (uint32_t k = 0; k < nk; k++) {
            hash_key_vec(j, k);
        }
        j->pvec = true;
        j->pfast = j->int_key && j->pkres[0].t.kind == PV_INT &&
                   (!j->int_seen || j->pkres[0].t.is_unsigned == j->int_uns);
    }
    cx->a = save;
}

/* Start the probe row at position pk: its values (for the row-path keys and the residual), its
 * keys' hash and its chain. */
static int
probe_row_start(op_join *j, db_error *err)
{
    plan_ectx *cx = j->base.cx;
    uint32_t nk = j->js.nkeys;
    uint32_t row = plan__batch_row(j->pb, j->pk);
    j->prow = row;
    plan_value *pv = &j->combo[j->poff];
    if (j->js.residual || (nk > 0 && !j->pvec)) {
        for (uint32_t c = 0; c < j->pcols; c++) {
            plan__batch_get(j->pb, c, row, &pv[c]);
        }
    }
    bool has_null;
    if (j->pvec) {
        j->phash = j->phashes[j->pk];
        has_null = j->pnulls[j->pk];
        j->pkv_ready = false;
        if (j->pfast) {
            j->pint = j->pkres[0].i[row & j->pkres[0].mask];
        }
        /* Rows ahead: their slot now, the first entry of their chain a little later. */
        uint32_t a = j->pk + 16, b = j->pk + 8;
        if (a < j->pn) {
            __builtin_prefetch(&j->heads[j->phashes[a] & j->mask]);
        }
        if (b < j->pn && !j->pnulls[b]) {
            uint32_t h = j->heads[j->phashes[b] & j->mask];
            if (h) {
                __builtin_prefetch(&j->bent[h - 1]);
            }
        }
    } else {
        /* Key values may be strings in the scratch arena: pa lives as long as pb, even when
         * this row's chain resumes in a later output batch. */
        arena *save = cx->a;
        cx->a = j->pa;
        int rc = eval_keys(cx, j->pkeys, nk, pv, j->pcols, j->pkv, err);
        if (rc == DB_OK) {
            j->phash = keys_hash(j, j->pkv, &has_null);
        }
        cx->a = save;
        if (rc != DB_OK) {
            return DB_ERR;
        }
        j->pkv_ready = true;
    }
    j->chain = has_null ? 0 : j->heads[j->phash & j->mask];
    j->row_started = true;
    j->row_matched = false;
    return DB_OK;
}

/* Are the keys of build row i equal to the current probe row's? An integer pair of the same
 * signedness compared as INT / UINT is a plain compare; anything else goes to plan__compare. */
static bool
keys_equal(op_join *j, uint32_t i)
{
    uint32_t nk = j->js.nkeys;
    const plan_value *bk = &j->bkv[(size_t)i * nk];
    for (uint32_t k = 0; k < nk; k++) {
        const plan_value *b = &bk[k];
        plan_cmp_mode mode = j->js.modes[k];
        if (j->pvec) {
            const plan_vres *r = &j->pkres[k];
            if (r->t.kind == PV_INT && b->kind == PV_INT && r->t.is_unsigned == b->is_unsigned &&
                (mode == PLAN_CMP_UINT || (mode == PLAN_CMP_INT && !b->is_unsigned))) {
                if (r->i[j->prow & r->mask] != b->i) {
                    return false;
                }
                continue;
            }
            if (!j->pkv_ready) {
                for (uint32_t x = 0; x < nk; x++) {
                    plan__vres_get(&j->pkres[x], j->prow, &j->pkv[x]);
                }
                j->pkv_ready = true;
            }
        }
        /* Compare in build/probe order as written: left value first. */
        const plan_value *l = j->js.build_left ? b : &j->pkv[k];
        const plan_value *r = j->js.build_left ? &j->pkv[k] : b;
        if (plan__compare(j->base.cx, mode, l, r) != 0) {
            return false;
        }
    }
    return true;
}

/* Does build row i pair with the current probe row (keys, then the residual)? */
static int
pair_ok(op_join *j, uint32_t i, bool *ok, db_error *err)
{
    plan_ectx *cx = j->base.cx;
    *ok = false;
    if (j->js.nkeys) {
        const join_ent *e = &j->bent[i];
        if (e->hash32 != (uint32_t)(j->phash >> 32) ||
            (j->pfast ? e->ikey != j->pint : !keys_equal(j, i))) {
            return DB_OK;
        }
    }
    if (j->js.residual) {
        for (uint32_t c = 0; c < j->bcols; c++) {
            plan__batch_get(&j->bst, c, i, &j->combo[j->boff + c]);
        }
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

static inline void
push_pair(op_join *j, uint32_t prow, uint32_t brow)
{
    uint32_t o = j->out->nrows++;
    j->oprobe[o] = prow;
    j->obuild[o] = brow;
    j->onull_p |= prow == NO_ROW;
    j->onull_b |= brow == NO_ROW;
}

/* Candidates between interrupt checks: long chains without matches (theta joins) still notice
 * KILL and the limits. */
#define VISITS_PER_CHECK 0xFFFF

/* probe_rows for pfast without a residual: one integer key, compared directly (equal integers
 * have equal hashes), the loop state in locals. Same pairs, same order. */
static int
probe_rows_int(op_join *j, db_error *err)
{
    plan_batch *o = j->out;
    const plan_vres *kr = &j->pkres[0];
    const int64_t *keys = kr->i;
    const uint32_t kmask = kr->mask, mask = j->mask, n = j->pn, cap = o->cap;
    const join_ent *ent = j->bent;
    const uint32_t *heads = j->heads, *sel = j->pb->sel;
    const uint64_t *ph = j->phashes;
    const uint8_t *pnull = j->pnulls;
    uint32_t *op = j->oprobe, *ob = j->obuild;
    uint32_t nrows = o->nrows, pk = j->pk, chain = j->chain;
    bool started = j->row_started, row_matched = j->row_matched;
    int rc = DB_OK;
    while (pk < n && nrows < cap) {
        uint32_t row = sel ? sel[pk] : pk;
        if (!started) {
            chain = pnull[pk] ? 0 : heads[ph[pk] & mask];
            started = true;
            row_matched = false;
            if (pk + 16 < n) {
                __builtin_prefetch(&heads[ph[pk + 16] & mask]);
            }
            if (pk + 8 < n && !pnull[pk + 8]) {
                uint32_t h = heads[ph[pk + 8] & mask];
                if (h) {
                    __builtin_prefetch(&ent[h - 1]);
                }
            }
        }
        int64_t key = keys[row & kmask];
        while (chain && nrows < cap) {
            uint32_t i = chain - 1;
            chain = ent[i].next;
            if (ent[i].ikey == key) {
                if (j->keep_build) {
                    j->matched[i] = 1;
                }
                row_matched = true;
                op[nrows] = row;
                ob[nrows++] = i;
            }
            if ((++j->visits & VISITS_PER_CHECK) == 0 &&
                (rc = plan__check_interrupt(j->base.cx->s, err)) != DB_OK) {
                goto out;
            }
        }
        if (chain) {
            break; /* the batch is full; resume this row next time */
        }
        if (!row_matched && j->keep_probe) {
            if (nrows == cap) {
                break;
            }
            op[nrows] = row;
            ob[nrows++] = NO_ROW;
            j->onull_b = true;
        }
        started = false;
        pk++;
    }
out:
    o->nrows = nrows;
    j->pk = pk;
    j->chain = chain;
    j->row_started = started;
    j->row_matched = row_matched;
    return rc;
}

/* Pair the probe rows of pb from position pk on until the output batch is full (then the
 * current row's chain resumes at the next call) or pb is done. */
static int
probe_rows(op_join *j, db_error *err)
{
    plan_batch *o = j->out;
    if (j->pfast && !j->js.residual) {
        return probe_rows_int(j, err);
    }
    while (j->pk < j->pn && o->nrows < o->cap) {
        if (!j->row_started && probe_row_start(j, err) != DB_OK) {
            return DB_ERR;
        }
        while (j->chain && o->nrows < o->cap) {
            uint32_t i = j->chain - 1;
            j->chain = j->bent[i].next;
            if ((++j->visits & VISITS_PER_CHECK) == 0 &&
                plan__check_interrupt(j->base.cx->s, err) != DB_OK) {
                return DB_ERR;
            }
            bool ok;
            if (pair_ok(j, i, &ok, err) != DB_OK) {
                return DB_ERR;
            }
            if (ok) {
                j->matched[i] = 1; /* read by the tail only */
                j->row_matched = true;
                push_pair(j, j->prow, i);
            }
        }
        if (j->chain) {
            return DB_OK; /* the batch is full; resume this row next time */
        }
        if (!j->row_matched && j->keep_probe) {
            if (o->nrows == o->cap) {
                return DB_OK;
            }
            push_pair(j, j->prow, NO_ROW);
        }
        j->row_started = false;
        j->pk++;
    }
    return DB_OK;
}

/* ---- output: gathered column by column ---- */

/* Copy the storage field of s at rows idx[r] into d at rows r (NO_ROW or a NULL cell: a NULL). */
#define GATHER_LOOP(field)                          \
    for (uint32_t r = 0; r < n; r++) {              \
        uint32_t i = idx[r];                        \
        if (i == NO_ROW || null_bit(s->nulls, i)) { \
            set_null_bit(d->nulls, r);              \
        } else {                                    \
            d->field[r] = s->field[i];              \
        }                                           \
    }

/* The same without NULLs: neither NO_ROW in idx nor a NULL cell in s. */
#define GATHER_DENSE(field)             \
    for (uint32_t r = 0; r < n; r++) {  \
        d->field[r] = s->field[idx[r]]; \
    }

/* Output column oc, rows [0, n), from column sc of src (NULL: every row NULL) at rows idx[];
 * nulls: col_nulls of the source column; has_none: idx holds NO_ROW. */
static int
gather(op_join *j, uint32_t oc, const plan_batch *src, uint32_t sc, const uint32_t *idx, uint32_t n,
       uint8_t nulls, bool has_none, db_error *err)
{
    plan_vec *d = &j->out->cols[oc];
    const plan_vec *s = src ? &src->cols[sc] : NULL;
    if (d->t.kind == PV_NULL || !s || nulls == COL_ALL) {
        set_nulls_upto(d->nulls, n);
        return DB_OK;
    }
    bool dense = nulls == COL_NONE && !has_none;
    if (!same_storage(&d->t, &s->t)) {
        /* Another storage kind (not expected from our inputs): convert cell by cell. */
        for (uint32_t r = 0; r < n; r++) {
            plan_value v = plan__v_null();
            if (idx[r] != NO_ROW) {
                plan__batch_get(src, sc, idx[r], &v);
            }
            if (plan__batch_set(j->base.cx, j->out, oc, r, &v, err) != DB_OK) {
                return DB_ERR;
            }
        }
        return DB_OK;
    }
    if (dense) {
        switch (d->t.kind) {
        case PV_DOUBLE:
            GATHER_DENSE(d)
            break;
        case PV_DECIMAL:
            GATHER_DENSE(dec)
            break;
        case PV_STRING:
            GATHER_DENSE(s)
            break;
        default:
            GATHER_DENSE(i)
            break;
        }
        return DB_OK;
    }
    switch (d->t.kind) {
    case PV_DOUBLE:
        GATHER_LOOP(d)
        break;
    case PV_DECIMAL:
        GATHER_LOOP(dec)
        break;
    case PV_STRING:
        GATHER_LOOP(s)
        break;
    default:
        GATHER_LOOP(i)
        break;
    }
    return DB_OK;
}

#undef GATHER_LOOP
#undef GATHER_DENSE

/* Fill the output batch's columns from the collected pairs. Probe strings point into pb, build
 * strings into the join arena: both outlive the output batch. */
static int
gather_out(op_join *j, db_error *err)
{
    uint32_t n = j->out->nrows;
    for (uint32_t c = 0; c < j->pcols; c++) {
        uint8_t nulls = j->pb ? j->pnulls_col[c] : COL_ALL;
        if (gather(j, j->poff + c, j->pb, c, j->oprobe, n, nulls, j->onull_p, err) != DB_OK) {
            return DB_ERR;
        }
    }
    for (uint32_t c = 0; c < j->bcols; c++) {
        if (gather(j, j->boff + c, &j->bst, c, j->obuild, n, j->bnulls[c], j->onull_b, err) !=
            DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static int
join_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_join *j = (op_join *)op;
    plan_ectx *cx = op->cx;
    plan_batch *o = j->out;
    *out = NULL;
    if (!j->built && build(j, err) != DB_OK) {
        return DB_ERR;
    }
    arena_reset(op->ba);
    plan__batch_clear(o);
    j->onull_p = j->onull_b = false;
    arena *stmt_a = cx->a;
    cx->a = op->ba; /* expression scratch lives for this batch only */
    int rc = DB_OK;
    while (rc == DB_OK && o->nrows < o->cap && j->stage != JS_DONE) {
        if (j->stage == JS_PROBE) {
            if (!j->pb || j->pk >= j->pn) {
                if (o->nrows > 0) {
                    break; /* the rows collected point into the current probe batch */
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
                probe_keys(j);
                continue;
            }
            rc = probe_rows(j, err);
        } else { /* JS_TAIL: build rows nobody matched */
            while (j->tail < j->nb && o->nrows < o->cap) {
                uint32_t i = j->tail++;
                if (!j->matched[i]) {
                    push_pair(j, NO_ROW, i);
                }
            }
            if (j->tail >= j->nb) {
                j->stage = JS_DONE;
            }
        }
    }
    if (rc == DB_OK && o->nrows > 0) {
        rc = gather_out(j, err);
    }
    cx->a = stmt_a;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    *out = o->nrows ? o : NULL;
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
    j->pkres = arena_calloc(cx->a, js->nkeys + 1, sizeof(plan_vres));
    j->bvec = j->pvec_ok = true;
    for (uint32_t k = 0; k < js->nkeys; k++) {
        j->bvec = j->bvec && plan__vec_supported(j->bkeys[k], j->build->types, j->bcols);
        j->pvec_ok = j->pvec_ok && plan__vec_supported(j->pkeys[k], j->probe->types, j->pcols);
    }
    return op;
}
