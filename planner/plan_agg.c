/* SPDX-License-Identifier: Apache-2.0
 * plan_agg.c: hash aggregation. The group hash table (plan_aht: typed keys hashed with xxHash
 * over a canonical form, open addressing, entries in an arena) and the aggregate operator
 * over it: GROUP BY keys, COUNT / SUM / AVG / MIN / MAX / GROUP_CONCAT / ANY_VALUE / STDDEV
 * and VARIANCE families / BIT_AND / BIT_OR / BIT_XOR, the Doris bitmap (CRoaring), collection
 * and statistics (PERCENTILE, MAX_BY / MIN_BY, AVG_WEIGHTED) aggregates, DISTINCT arguments
 * through one more table per aggregate keyed by (group, arguments). Keys and arguments come
 * from vectors (plan_vector.c) when they can; rows are folded in order either way. See
 * README.md §Executor and §Aggregation. */
#include "planner/plan_exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/mem.h"
#include "planner/plan_func_int.h"

/* ---- the hash table ---- */

#define AHT_ALIGN 16

static size_t aht_key_bytes(const plan_aht *h);
static uint64_t aht_hash(plan_aht *h, const plan_value *keys);
static bool aht_equal(const plan_aht *h, const plan_value *a, const plan_value *b);
static int aht_grow(plan_aht *h, db_error *err);
static size_t aht_bytes(const plan_aht *h);
static int aht_upsert_h(plan_aht *h, const plan_value *keys, uint64_t hv, void **payload,
                        bool *is_new, db_error *err);
static void aht_prefetch(const plan_aht *h, uint64_t hv, bool entry);

/* Entry layout: uint64_t hash (padded to 16 bytes: plan_value holds an __int128), then nkeys
 * plan_values, then the payload; 16-byte aligned. */
static size_t
aht_key_bytes(const plan_aht *h)
{
    size_t n = AHT_ALIGN + h->nkeys * sizeof(plan_value);
    return (n + AHT_ALIGN - 1) & ~(size_t)(AHT_ALIGN - 1);
}

void
plan__aht_init(plan_aht *h, uint32_t nkeys, const bool *ci, locale_t loc, size_t payload,
               size_t limit)
{
    memset(h, 0, sizeof *h);
    h->a = arena_new(0);
    h->nkeys = nkeys;
    h->ci = mem_calloc(nkeys ? nkeys : 1, sizeof(bool));
    if (nkeys && ci) {
        memcpy(h->ci, ci, nkeys * sizeof(bool));
    }
    h->loc = loc;
    h->payload = (payload + AHT_ALIGN - 1) & ~(size_t)(AHT_ALIGN - 1);
    h->limit = limit;
    h->kb = aht_key_bytes(h);
}

void
plan__aht_destroy(plan_aht *h)
{
    arena_free(h->a);
    mem_free(h->ci);
    mem_free(h->slots);
    mem_free(h->entries);
    mem_free(h->fold);
    memset(h, 0, sizeof *h);
}

static size_t
aht_bytes(const plan_aht *h)
{
    return arena_used(h->a) + (size_t)h->nslots * sizeof(uint64_t) +
           (size_t)h->cap * sizeof(void *) + h->fold_cap;
}

/* Hash of the canonical form: equal keys (by the comparison rules) hash equally. */
static uint64_t
aht_hash(plan_aht *h, const plan_value *keys)
{
    uint64_t hv = 0x9E3779B97F4A7C15ull;
    for (uint32_t k = 0; k < h->nkeys; k++) {
        const plan_value *v = &keys[k];
        switch (v->kind) {
        case PV_NULL:
            hv = XXH3_64bits_withSeed("\0N", 2, hv);
            break;
        case PV_DOUBLE: {
            double d = v->d == 0 ? 0.0 : v->d;
            hv = XXH3_64bits_withSeed(&d, sizeof d, hv);
            break;
        }
        case PV_DECIMAL:
            hv = XXH3_64bits_withSeed(&v->dec, sizeof v->dec, hv);
            break;
        case PV_STRING: {
            const char *s = v->str.s;
            size_t len = v->str.len;
            if (h->ci[k]) {
                while (len > 0 && s[len - 1] == ' ') {
                    len--;
                }
                if (2 * len > h->fold_cap) {
                    h->fold_cap = 2 * len < 64 ? 64 : 2 * len;
                    h->fold = mem_realloc(h->fold, h->fold_cap);
                }
                len = plan__ci_fold(h->loc, s, len, h->fold);
                s = h->fold;
            }
            hv = XXH3_64bits_withSeed(s, len, hv ^ 0x5bd1e995u);
            break;
        }
        default: /* integers, temporal microseconds */
            hv = XXH3_64bits_withSeed(&v->i, sizeof v->i, hv);
            break;
        }
    }
    return hv;
}

static bool
aht_equal(const plan_aht *h, const plan_value *a, const plan_value *b)
{
    for (uint32_t k = 0; k < h->nkeys; k++) {
        const plan_value *x = &a[k], *y = &b[k];
        if (x->kind != y->kind) {
            return false;
        }
        switch (x->kind) {
        case PV_NULL:
            break;
        case PV_DOUBLE:
            if (x->d != y->d) {
                return false;
            }
            break;
        case PV_DECIMAL:
            if (x->dec != y->dec || x->scale != y->scale) {
                return false;
            }
            break;
        case PV_STRING:
            if (h->ci[k]) {
                bool same_bytes = x->str.len == y->str.len &&
                                  (x->str.len == 0 || memcmp(x->str.s, y->str.s, x->str.len) == 0);
                if (!same_bytes &&
                    plan__cmp_ci(h->loc, x->str.s, x->str.len, y->str.s, y->str.len) != 0) {
                    return false;
                }
            } else if (x->str.len != y->str.len ||
                       (x->str.len && memcmp(x->str.s, y->str.s, x->str.len) != 0)) {
                return false;
            }
            break;
        default:
            if (x->i != y->i) {
                return false;
            }
            break;
        }
    }
    return true;
}

/* Double the slots (at most half full) and rehash from the stored hashes. */
static int
aht_grow(plan_aht *h, db_error *err)
{
    uint32_t n = h->nslots ? h->nslots * 2 : 64;
    if (n == 0 || aht_bytes(h) + (size_t)n * sizeof(uint64_t) > h->limit) {
        return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(h->limit >> 20));
    }
    uint64_t *slots = mem_calloc(n, sizeof *slots);
    for (uint32_t i = 0; i < h->n; i++) {
        uint64_t hv = *(const uint64_t *)h->entries[i];
        uint32_t s = (uint32_t)hv & (n - 1);
        while (slots[s]) {
            s = (s + 1) & (n - 1);
        }
        slots[s] = (hv & 0xFFFFFFFF00000000ull) | (i + 1);
    }
    mem_free(h->slots);
    h->slots = slots;
    h->nslots = n;
    return DB_OK;
}

int
plan__aht_upsert(plan_aht *h, const plan_value *keys, void **payload, bool *is_new, db_error *err)
{
    return aht_upsert_h(h, keys, aht_hash(h, keys), payload, is_new, err);
}

/* plan__aht_upsert with hv = aht_hash(h, keys) computed by the caller. */
static int
aht_upsert_h(plan_aht *h, const plan_value *keys, uint64_t hv, void **payload, bool *is_new,
             db_error *err)
{
    if ((uint64_t)(h->n + 1) * 2 > h->nslots && aht_grow(h, err) != DB_OK) {
        return DB_ERR;
    }
    uint32_t mask = h->nslots - 1;
    uint32_t s = (uint32_t)hv & mask;
    size_t kb = h->kb;
    uint64_t tag = hv & 0xFFFFFFFF00000000ull;
    uint64_t sv;
    while ((sv = h->slots[s]) != 0) {
        if ((sv & 0xFFFFFFFF00000000ull) == tag) {
            char *e = h->entries[(uint32_t)sv - 1];
            if (*(uint64_t *)e == hv && aht_equal(h, (const plan_value *)(e + AHT_ALIGN), keys)) {
                *payload = e + kb;
                *is_new = false;
                return DB_OK;
            }
        }
        s = (s + 1) & mask;
    }
    size_t need = kb + h->payload;
    for (uint32_t k = 0; k < h->nkeys; k++) {
        need += keys[k].kind == PV_STRING ? keys[k].str.len : 0;
    }
    if (aht_bytes(h) + need + (h->n == h->cap ? h->cap * sizeof(void *) + 64 : 0) > h->limit) {
        return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(h->limit >> 20));
    }
    if (h->n == UINT32_MAX - 1) {
        return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(h->limit >> 20));
    }
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 64;
        h->entries = mem_realloc(h->entries, h->cap * sizeof(void *));
    }
    char *e = arena_alloc(h->a, kb + h->payload);
    *(uint64_t *)e = hv;
    plan_value *kv = (plan_value *)(e + AHT_ALIGN);
    for (uint32_t k = 0; k < h->nkeys; k++) {
        kv[k] = keys[k];
        if (kv[k].kind == PV_STRING) {
            kv[k].str.s = kv[k].str.len ? arena_strndup(h->a, keys[k].str.s, keys[k].str.len) : "";
        }
    }
    memset(e + kb, 0, h->payload);
    h->entries[h->n] = e;
    h->slots[s] = tag | ++h->n;
    *payload = e + kb;
    *is_new = true;
    return DB_OK;
}

/* Start loading what a probe for hash hv touches first: its slot, or (entry) the entry that
 * slot names now. A hint only: the table may grow before the probe. */
static void
aht_prefetch(const plan_aht *h, uint64_t hv, bool entry)
{
    if (h->nslots == 0) {
        return;
    }
    const uint64_t *slot = &h->slots[(uint32_t)hv & (h->nslots - 1)];
    if (!entry) {
        __builtin_prefetch(slot);
        return;
    }
    uint64_t sv = *slot;
    if (sv != 0 && (uint32_t)sv <= h->n) {
        __builtin_prefetch(h->entries[(uint32_t)sv - 1]);
    }
}

const plan_value *
plan__aht_keys(const plan_aht *h, uint32_t i)
{
    DB_ASSERT(i < h->n);
    return (const plan_value *)((const char *)h->entries[i] + AHT_ALIGN);
}

void *
plan__aht_payload(const plan_aht *h, uint32_t i)
{
    DB_ASSERT(i < h->n);
    return (char *)h->entries[i] + h->kb;
}

/* ---- the operator ---- */

/* One GROUP_CONCAT value of a group: the concatenated arguments and the ORDER BY values. */
typedef struct gc_item {
    struct gc_item *next;
    const char *s;
    size_t len;
    plan_value *ord; /* norder values */
} gc_item;

/* MAX_BY / MIN_BY: the value taken with the best key so far; its string bytes in a buffer of
 * cap bytes in the table arena, reused while the value fits. */
typedef struct by_val {
    plan_value v;
    size_t cap;
} by_val;

/* The running state of one aggregate in one group. */
typedef struct agg_state {
    uint64_t cnt; /* values folded in (rows for COUNT(*)) */
    plan_value v; /* MIN / MAX / SUM / AVG sum / ANY_VALUE; strings in the table arena */
    size_t vcap;  /* bytes available at v.str.s (reused by MIN / MAX) */
    double mean;  /* variance family: Welford's running mean and sum of squares */
    double m2;
    uint64_t bits; /* BIT_* */
    union {
        struct {
            gc_item *head, *tail; /* GROUP_CONCAT, ARRAY_AGG */
        };
        struct {
            double *pv;    /* PERCENTILE: the cnt values so far (table arena, grown by doubling) */
            uint64_t pcap; /* values pv has room for */
        };
        struct by_val *by; /* MAX_BY / MIN_BY: the value at the best key (v holds the key) */
    };
    size_t gc_len;        /* GROUP_CONCAT, ARRAY_AGG: bytes of the values so far */
    roaring_bitmap_t *bm; /* BITMAP_*: heap, freed at close; NULL until the first value */
} agg_state;

typedef struct op_hashagg {
    plan_op base;
    plan_expr *const *keys;
    uint32_t nkeys;
    const plan_agg *aggs;
    uint32_t naggs;
    plan_aht ht;    /* groups: payload = naggs agg_states */
    plan_aht *dist; /* per aggregate with DISTINCT: (group number, arguments) */
    bool has_ht;
    plan_value *vals;  /* one child row */
    plan_value *kvals; /* key values of one row */
    plan_value *dvals; /* group number + arguments of one row */
    uint32_t pos;      /* next group to emit */
    bool consumed;
    plan_batch *out;
    uint64_t gc_max;  /* @@group_concat_max_len */
    uint32_t gc_cut;  /* GROUP_CONCAT results cut so far (warning row numbers) */
    int vec;          /* -1 unknown; 1: keys and arguments are vectorizable (hashagg_vec_ok) */
    uint32_t *argpos; /* per aggregate: index of its first argument among the vectors */
    uint32_t nargs_all;
    uint64_t **dhv; /* vector path without keys: per DISTINCT aggregate, the hash of each
                       active row's (group, arguments) in its table, or NULL (batch arena) */
    uint32_t cur_k; /* vector path: the active row being folded (index into dhv[i]) */
    /* One integer / temporal GROUP BY key (vector path): a compact index key -> group payload
     * in front of ht (open addressing, linear probing, at most half full; heap), filled on
     * ht's misses; ht stays the table of record (order, keys, the row path). */
    struct ik_table {
        struct ikey_slot *s;
        uint32_t n, cap;
        uint64_t *bits; /* DISTINCT sets only: bit v set = value v (0 <= v < IK_BITS_MAX)
                           already counted; nwords words (heap), grown to cover the largest
                           value seen */
        uint32_t nwords;
    } ik;
    struct ik_table *dik; /* per aggregate: DISTINCT values seen (no keys; statement arena) */
    void *last_payload;   /* the payload hashagg_row folded into */
} op_hashagg;

typedef struct ikey_slot {
    int64_t key;
    void *payload; /* NULL = empty slot */
} ikey_slot;
typedef struct ik_table ik_table;

static int hashagg_open(plan_op *op, db_error *err);
static int hashagg_next(plan_op *op, plan_batch **out, db_error *err);
static void hashagg_close(plan_op *op);
static int hashagg_consume(op_hashagg *g, db_error *err);
static int hashagg_row(op_hashagg *g, const plan_vres *vk, const plan_vres *va, uint32_t row,
                       const uint64_t *hv, void *pre, db_error *err);
static bool ik_usable(const op_hashagg *g, const plan_vres *vk);
static int group_of(op_hashagg *g, const plan_vres *vk, uint32_t row, const uint64_t *hv, void *pre,
                    void **payload, db_error *err);
static bool fast_aggs_ok(const op_hashagg *g, const plan_vres *va);
static int hashagg_vec_keyed(op_hashagg *g, const plan_batch *in, const plan_vres *vk,
                             const plan_vres *va, bool ik, const uint64_t *hv, db_error *err);
static bool ik_intlike(plan_vkind k);
static void *ik_find(const ik_table *t, int64_t key);
static inline bool ik_bit_test(const ik_table *t, int64_t key);
static void ik_bit_set(ik_table *t, int64_t key);
static void ik_add(ik_table *t, int64_t key, void *payload);
static void ik_free(ik_table *t);
static uint64_t *hashagg_vec_hash(op_hashagg *g, const plan_batch *in, const plan_vres *vk);
static uint64_t **hashagg_vec_dhash(op_hashagg *g, const plan_batch *in, const plan_vres *va);
static bool hashagg_vec_nokeys(op_hashagg *g, const plan_batch *in, const plan_vres *va);
static int hashagg_vec_ok(op_hashagg *g);
static int agg_fast(const plan_agg *ag, agg_state *st, const plan_vres *r, uint32_t row,
                    db_error *err);
static bool hashagg_vec_eval(op_hashagg *g, const plan_batch *in, plan_vres **vkp, plan_vres **vap);
static int agg_step(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *args,
                    db_error *err);
static int agg_final(op_hashagg *g, const plan_agg *ag, agg_state *st, plan_value *out,
                     db_error *err);
static int gc_add(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *args,
                  db_error *err);
static int gc_final(op_hashagg *g, const plan_agg *ag, agg_state *st, plan_value *out);
static int set_string(op_hashagg *g, agg_state *st, const plan_value *v);
static int bitmap_step(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *v,
                       db_error *err);
static void arr_add(op_hashagg *g, agg_state *st, const plan_value *v, bool nested);
static int pct_add(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *v,
                   db_error *err);
static int by_step(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *args,
                   db_error *err);
static void arr_final(op_hashagg *g, agg_state *st, plan_value *out);
static uint32_t agg_nargs(const plan_agg *ag);
static const plan_expr *agg_arg(const plan_agg *ag, uint32_t i);

static uint32_t
agg_nargs(const plan_agg *ag)
{
    return ag->args ? ag->nargs : (ag->arg ? 1 : 0);
}

static const plan_expr *
agg_arg(const plan_agg *ag, uint32_t i)
{
    return ag->args ? ag->args[i] : ag->arg;
}

static int
hashagg_open(plan_op *op, db_error *err)
{
    op_hashagg *g = (op_hashagg *)op;
    plan_ectx *cx = op->cx;
    if (!g->out) {
        g->out = plan__batch_new(cx->a, op->types, op->ncols, op->cap);
    }
    locale_t loc = cx->s->srv->ctype;
    bool *ci = arena_calloc(cx->a, g->nkeys + 1, sizeof(bool));
    for (uint32_t k = 0; k < g->nkeys; k++) {
        ci[k] = plan__cmp_mode(g->keys[k], g->keys[k]) == PLAN_CMP_STRING;
    }
    plan__aht_init(&g->ht, g->nkeys, ci, loc, g->naggs * sizeof(agg_state), PLAN_AGG_MEM_LIMIT);
    g->has_ht = true;
    g->dist = arena_calloc(cx->a, g->naggs ? g->naggs : 1, sizeof(plan_aht));
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (!ag->distinct) {
            continue;
        }
        uint32_t na = agg_nargs(ag);
        bool *dci = arena_calloc(cx->a, na + 1, sizeof(bool));
        for (uint32_t j = 0; j < na; j++) {
            dci[j + 1] = plan__cmp_mode(agg_arg(ag, j), agg_arg(ag, j)) == PLAN_CMP_STRING;
        }
        plan__aht_init(&g->dist[i], na + 1, dci, loc, 0, PLAN_AGG_MEM_LIMIT);
    }
    int idx = plan__sysvar_find("group_concat_max_len");
    g->gc_max = idx >= 0 ? (uint64_t)cx->s->vars[idx].i : 1024;
    g->gc_cut = 0;
    g->pos = 0;
    g->consumed = false;
    op->opened = true;
    op->ba = arena_new(0);
    if (op->child->open(op->child, err) != DB_OK) {
        return DB_ERR;
    }
    if (g->nkeys == 0) { /* one group, also for an empty input */
        void *p;
        bool is_new;
        if (plan__aht_upsert(&g->ht, NULL, &p, &is_new, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static void
hashagg_close(plan_op *op)
{
    op_hashagg *g = (op_hashagg *)op;
    if (g->has_ht) {
        for (uint32_t e = 0; e < g->ht.n; e++) {
            agg_state *sts = plan__aht_payload(&g->ht, e);
            for (uint32_t i = 0; i < g->naggs; i++) {
                if (sts[i].bm) {
                    roaring_bitmap_free(sts[i].bm);
                }
            }
        }
        for (uint32_t i = 0; i < g->naggs; i++) {
            if (g->aggs[i].distinct) {
                plan__aht_destroy(&g->dist[i]);
            }
        }
        plan__aht_destroy(&g->ht);
        g->has_ht = false;
        ik_free(&g->ik);
        for (uint32_t i = 0; g->dik && i < g->naggs; i++) {
            ik_free(&g->dik[i]);
        }
    }
    op->child->close(op->child);
    arena_free(op->ba); /* NULL is fine */
    op->ba = NULL;
    op->opened = false;
}

/* Store a string value in the state, reusing its buffer when it fits (MIN / MAX). */
static int
set_string(op_hashagg *g, agg_state *st, const plan_value *v)
{
    plan_value c = *v;
    if (c.kind == PV_STRING) {
        if (c.str.len > st->vcap || st->v.kind != PV_STRING) {
            size_t cap = c.str.len < 16 ? 16 : c.str.len;
            st->v.str.s = arena_alloc(g->ht.a, cap);
            st->vcap = cap;
        }
        char *buf = (char *)st->v.str.s;
        if (c.str.len) {
            memcpy(buf, c.str.s, c.str.len);
        }
        c.str.s = buf;
    }
    st->v = c;
    return DB_OK;
}

uint64_t
plan__agg_bits(const plan_value *v)
{
    if (v->kind == PV_INT) {
        return v->u;
    }
    if (v->kind == PV_STRING && v->is_binary) {
        uint64_t b = 0;
        for (size_t i = 0; i < v->str.len && i < 8; i++) {
            b = (b << 8) | (unsigned char)v->str.s[i];
        }
        return b;
    }
    return (uint64_t)plan__v_to_int(v, NULL);
}

/* Fold one row's arguments (none NULL, except for ANY_VALUE) into st. */
static int
agg_step(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *args, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    const plan_value *v = &args[0];
    switch (ag->kind) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
        st->cnt++;
        return DB_OK;
    case PLAN_AGG_ANY_VALUE:
        if (st->cnt++ == 0) {
            plan_value c = *v;
            if (c.kind != PV_NULL && plan__coerce(cx, &c, ag->vk, &ag->t, err) != DB_OK) {
                return DB_ERR;
            }
            return set_string(g, st, &c);
        }
        return DB_OK;
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX: {
        plan_value c = *v;
        if (plan__coerce(cx, &c, ag->vk, &ag->t, err) != DB_OK) {
            return DB_ERR;
        }
        if (st->cnt++ > 0) {
            int r = plan__compare(cx, plan__cmp_mode(ag->arg, ag->arg), &c, &st->v);
            if (ag->kind == PLAN_AGG_MIN ? r >= 0 : r <= 0) {
                return DB_OK;
            }
        }
        return set_string(g, st, &c);
    }
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
        st->cnt++;
        if (ag->vk == PV_DOUBLE) {
            st->v.d += plan__v_to_double(v, NULL);
            return DB_OK;
        } else {
            /* AVG keeps its sum at the argument's scale; SUM at its result scale (equal). */
            int scale = ag->kind == PLAN_AGG_SUM    ? ag->t.scale
                        : ag->arg->vk == PV_DECIMAL ? ag->arg->t.scale
                                                    : 0;
            __int128 d;
            if (v->kind == PV_DECIMAL && v->scale == scale) {
                d = v->dec; /* the common case: no conversion */
            } else if (v->kind == PV_INT && !v->is_unsigned && scale == 0) {
                d = v->i;
            } else if (!plan__v_to_dec(v, scale, &d, NULL)) {
                return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL", "sum");
            }
            __int128 sum = st->v.dec + d;
            /* 10^PLAN_DEC_MAX_PREC (10^38), folded at compile time */
            const __int128 lim = (__int128)10000000000000000000ULL * 10000000000000000000ULL;
            if (sum >= lim || sum <= -lim) {
                return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL",
                                    ag->kind == PLAN_AGG_SUM ? "sum" : "avg");
            }
            st->v.dec = sum;
            return DB_OK;
        }
    case PLAN_AGG_STDDEV_POP:
    case PLAN_AGG_STDDEV_SAMP:
    case PLAN_AGG_VAR_POP:
    case PLAN_AGG_VAR_SAMP: {
        double x = plan__v_to_double(v, NULL);
        st->cnt++;
        double delta = x - st->mean;
        st->mean += delta / (double)st->cnt;
        st->m2 += delta * (x - st->mean);
        return DB_OK;
    }
    case PLAN_AGG_BIT_AND:
    case PLAN_AGG_BIT_OR:
    case PLAN_AGG_BIT_XOR: {
        uint64_t b = plan__agg_bits(v);
        if (st->cnt++ == 0 && ag->kind == PLAN_AGG_BIT_AND) {
            st->bits = b;
        } else if (ag->kind == PLAN_AGG_BIT_AND) {
            st->bits &= b;
        } else if (ag->kind == PLAN_AGG_BIT_OR) {
            st->bits |= b;
        } else {
            st->bits ^= b;
        }
        return DB_OK;
    }
    case PLAN_AGG_GROUP_CONCAT:
        return gc_add(g, ag, st, args, err);
    case PLAN_AGG_BITMAP_UNION:
    case PLAN_AGG_BITMAP_UNION_COUNT:
    case PLAN_AGG_BITMAP_INTERSECT:
    case PLAN_AGG_BITMAP_AGG:
        return bitmap_step(g, ag, st, v, err);
    case PLAN_AGG_PERCENTILE:
        return pct_add(g, ag, st, v, err);
    case PLAN_AGG_MAX_BY:
    case PLAN_AGG_MIN_BY:
        return by_step(g, ag, st, args, err);
    case PLAN_AGG_AVG_WEIGHTED: {
        double w = plan__v_to_double(&args[1], NULL);
        st->cnt++;
        st->mean += plan__v_to_double(v, NULL) * w; /* the weighted sum */
        st->m2 += w;                                /* the sum of the weights */
        return DB_OK;
    }
    case PLAN_AGG_ARRAY_AGG:
    case PLAN_AGG_COLLECT_SET:
        arr_add(g, st, v, ag->t.elem[0] == 'a'); /* array<...> elements stay unquoted */
        if (aht_bytes(&g->ht) > g->ht.limit) {
            return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(g->ht.limit >> 20));
        }
        return DB_OK;
    }
    return DB_OK;
}

/* ---- Doris statistics aggregates (planned by plan_agg_doris.c) ---- */

/* PERCENTILE: keep v (as a DOUBLE) in the group's growable array in the table arena; the
 * array doubles when full (the arena frees nothing, so a group holds at most about twice its
 * values), all of it charged to the aggregation budget. The level is checked at a group's
 * first value, where Doris checks it (an empty input is NULL whatever the level). */
static int
pct_add(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *v, db_error *err)
{
    if (isnan(ag->pct)) {
        return DB_OK; /* a NULL level: as a NULL argument, every row is skipped */
    }
    if (st->cnt == 0 && (ag->pct < 0 || ag->pct > 1)) {
        return db_error_set(err, ER_DORIS,
                            arena_sprintf(g->base.cx->a,
                                          "[INVALID_ARGUMENT]quantile in func percentile should "
                                          "in [0, 1], but real data is:%f",
                                          ag->pct));
    }
    if (st->cnt == st->pcap) {
        uint64_t cap = st->pcap ? st->pcap * 2 : 4;
        if (aht_bytes(&g->ht) + cap * sizeof(double) > g->ht.limit) {
            return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(g->ht.limit >> 20));
        }
        double *nv = arena_alloc(g->ht.a, cap * sizeof *nv);
        if (st->cnt) {
            memcpy(nv, st->pv, st->cnt * sizeof *nv);
        }
        st->pv = nv;
        st->pcap = cap;
    }
    st->pv[st->cnt++] = plan__v_to_double(v, NULL);
    return DB_OK;
}

/* MAX_BY / MIN_BY: when the key args[1] beats the best so far (strictly: the first row of
 * equal keys wins, as Doris), remember it in st->v and the value args[0] in st->by. Strings of
 * both are copied into buffers reused while they fit. */
static int
by_step(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *args, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    const plan_expr *ke = ag->args[1];
    plan_value k = args[1];
    if (k.kind != ke->vk && ke->vk != PV_NULL &&
        plan__coerce(cx, &k, ke->vk, &ke->t, err) != DB_OK) {
        return DB_ERR;
    }
    if (st->cnt++ > 0) {
        int r = plan__compare(cx, plan__cmp_mode(ke, ke), &k, &st->v);
        if (ag->kind == PLAN_AGG_MIN_BY ? r >= 0 : r <= 0) {
            return DB_OK;
        }
    }
    set_string(g, st, &k);
    plan_value c = args[0];
    if (c.kind != ag->vk && plan__coerce(cx, &c, ag->vk, &ag->t, err) != DB_OK) {
        return DB_ERR;
    }
    if (!st->by) {
        st->by = arena_calloc(g->ht.a, 1, sizeof *st->by);
    }
    by_val *b = st->by;
    if (c.kind == PV_STRING) {
        if (c.str.len > b->cap || b->v.kind != PV_STRING) {
            size_t cap = c.str.len < 16 ? 16 : c.str.len;
            b->v.str.s = arena_alloc(g->ht.a, cap);
            b->cap = cap;
        }
        char *buf = (char *)b->v.str.s;
        if (c.str.len) {
            memcpy(buf, c.str.s, c.str.len);
        }
        c.str.s = buf;
    }
    b->v = c;
    return DB_OK;
}

/* ---- Doris bitmap and collection aggregates ---- */

/* Fold one non-NULL value into st->bm: a bitmap (the UNION / INTERSECT family; a string that
 * is not one fails with ER_WRONG_ARGUMENTS) or an element (BITMAP_AGG: values TO_BITMAP would
 * reject are skipped). */
static int
bitmap_step(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *v, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    if (ag->kind == PLAN_AGG_BITMAP_AGG) {
        uint32_t x;
        if (plan__bitmap_elem(cx, v, &x)) {
            if (!st->bm) {
                st->bm = roaring_bitmap_create();
            }
            roaring_bitmap_add(st->bm, x);
        }
        st->cnt++;
        return DB_OK;
    }
    const char *s;
    size_t len;
    plan__v_string(cx, v, &s, &len);
    roaring_bitmap_t *in = plan__bitmap_decode(s, len);
    if (!in) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, "a bitmap function (not a bitmap value)");
    }
    if (!st->bm) {
        st->bm = in; /* the first value: the union and the intersection alike */
    } else {
        if (ag->kind == PLAN_AGG_BITMAP_INTERSECT) {
            roaring_bitmap_and_inplace(st->bm, in);
        } else {
            roaring_bitmap_or_inplace(st->bm, in);
        }
        roaring_bitmap_free(in);
    }
    st->cnt++;
    return DB_OK;
}

/* Append v's element text to the list (table arena): numbers as they print, strings and
 * temporal values in double quotes, as Doris prints array elements. */
static void
arr_add(op_hashagg *g, agg_state *st, const plan_value *v, bool nested)
{
    plan_ectx *cx = g->base.cx;
    const char *s;
    size_t len;
    plan__v_string(cx, v, &s, &len);
    bool quote = !nested && (v->kind == PV_STRING || v->kind == PV_DATE || v->kind == PV_DATETIME ||
                             v->kind == PV_TIME);
    gc_item *it = arena_alloc(g->ht.a, sizeof *it);
    char *buf = arena_alloc(g->ht.a, (quote ? 2 * len : len) + 3);
    size_t o = 0;
    if (quote) {
        buf[o++] = '"';
        for (size_t i = 0; i < len; i++) { /* the ARRAY canonical text escapes " and \ */
            if (s[i] == '"' || s[i] == '\\') {
                buf[o++] = '\\';
            }
            buf[o++] = s[i];
        }
        buf[o++] = '"';
    } else {
        if (len) {
            memcpy(buf + o, s, len);
        }
        o += len;
    }
    it->s = buf;
    it->len = o;
    it->next = NULL;
    it->ord = NULL;
    if (st->tail) {
        st->tail->next = it;
    } else {
        st->head = it;
    }
    st->tail = it;
    st->cnt++;
    st->gc_len += o;
}

/* "[a, b, c]" in the batch arena; "[]" for no values. */
static void
arr_final(op_hashagg *g, agg_state *st, plan_value *out)
{
    size_t total = 2 + st->gc_len + (st->cnt ? (st->cnt - 1) * 2 : 0);
    char *buf = arena_alloc(g->base.ba, total + 1);
    size_t o = 0;
    buf[o++] = '[';
    for (gc_item *it = st->head; it; it = it->next) {
        if (it != st->head) {
            buf[o++] = ',';
            buf[o++] = ' ';
        }
        if (it->len) {
            memcpy(buf + o, it->s, it->len);
        }
        o += it->len;
    }
    buf[o++] = ']';
    buf[o] = '\0';
    *out = plan__v_str(buf, o);
}

bool
plan__agg_doris_kind(const char *lname, plan_agg *ag)
{
    static const struct {
        const char *name;
        plan_agg_kind kind;
    } names[] = {
            {"bitmap_union", PLAN_AGG_BITMAP_UNION},
            {"bitmap_union_count", PLAN_AGG_BITMAP_UNION_COUNT},
            {"bitmap_intersect", PLAN_AGG_BITMAP_INTERSECT},
            {"bitmap_agg", PLAN_AGG_BITMAP_AGG},
            {"array_agg", PLAN_AGG_ARRAY_AGG},
            {"collect_list", PLAN_AGG_ARRAY_AGG},
            {"collect_set", PLAN_AGG_COLLECT_SET},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcasecmp(lname, names[i].name) != 0) {
            continue;
        }
        if (!ag) {
            return true;
        }
        ag->kind = names[i].kind;
        switch (ag->kind) {
        case PLAN_AGG_BITMAP_UNION_COUNT:
            plan__type_bigint(&ag->t, 20, false);
            ag->vk = PV_INT;
            break;
        case PLAN_AGG_ARRAY_AGG:
        case PLAN_AGG_COLLECT_SET:
            plan__type_string(&ag->t, 65535, false);
            if (ag->arg != NULL) { /* an ARRAY of the argument's type (plan_array.h text) */
                ag->t.type = PLAN_TYPE_ARRAY;
                plan__arr_elem_name(&ag->arg->t, ag->t.elem, sizeof ag->t.elem);
            }
            ag->vk = PV_STRING;
            ag->distinct |= ag->kind == PLAN_AGG_COLLECT_SET;
            break;
        default: /* a bitmap, never NULL */
            plan__type_string(&ag->t, 65535, false);
            ag->t.is_binary = true;
            ag->vk = PV_STRING;
            break;
        }
        return true;
    }
    return false;
}

/* Append one GROUP_CONCAT value: its arguments' text concatenated, and its ORDER BY values
 * (evaluated over the current row), all copied into the table arena. */
static int
gc_add(op_hashagg *g, const plan_agg *ag, agg_state *st, const plan_value *args, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    arena *ta = g->ht.a;
    uint32_t na = agg_nargs(ag);
    size_t total = 0;
    const char **ss = arena_alloc(cx->a, na * sizeof *ss);
    size_t *ls = arena_alloc(cx->a, na * sizeof *ls);
    for (uint32_t j = 0; j < na; j++) {
        plan__v_string(cx, &args[j], &ss[j], &ls[j]);
        total += ls[j];
    }
    gc_item *it = arena_alloc(ta, sizeof *it);
    char *buf = arena_alloc(ta, total + 1);
    size_t o = 0;
    for (uint32_t j = 0; j < na; j++) {
        if (ls[j]) {
            memcpy(buf + o, ss[j], ls[j]);
        }
        o += ls[j];
    }
    it->s = buf;
    it->len = total;
    it->next = NULL;
    it->ord = NULL;
    if (ag->norder) {
        it->ord = arena_alloc(ta, ag->norder * sizeof(plan_value));
        for (uint32_t j = 0; j < ag->norder; j++) {
            plan_value v;
            if (plan__eval(cx, ag->order[j], &v, err) != DB_OK) {
                return DB_ERR;
            }
            if (v.kind == PV_STRING && v.str.len) {
                v.str.s = arena_strndup(ta, v.str.s, v.str.len);
            }
            it->ord[j] = v;
        }
    }
    if (st->tail) {
        st->tail->next = it;
    } else {
        st->head = it;
    }
    st->tail = it;
    st->cnt++;
    st->gc_len += total;
    if (aht_bytes(&g->ht) > g->ht.limit) {
        return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(g->ht.limit >> 20));
    }
    return DB_OK;
}

typedef struct gc_sort {
    plan_ectx *cx;
    const plan_agg *ag;
} gc_sort;

static int gc_cmp(const gc_sort *c, const gc_item *a, const gc_item *b);
static void gc_msort(const gc_sort *c, gc_item **v, gc_item **tmp, size_t n);

static int
gc_cmp(const gc_sort *c, const gc_item *a, const gc_item *b)
{
    for (uint32_t k = 0; k < c->ag->norder; k++) {
        const plan_value *x = &a->ord[k], *y = &b->ord[k];
        int r;
        if (x->kind == PV_NULL || y->kind == PV_NULL) {
            r = (x->kind != PV_NULL) - (y->kind != PV_NULL);
        } else {
            const plan_expr *e = c->ag->order[k];
            r = plan__compare(c->cx, plan__cmp_mode(e, e), x, y);
        }
        if (r != 0) {
            return c->ag->order_desc[k] ? -r : r;
        }
    }
    return 0;
}

static void
gc_msort(const gc_sort *c, gc_item **v, gc_item **tmp, size_t n)
{
    if (n < 2) {
        return;
    }
    size_t h = n / 2;
    gc_msort(c, v, tmp, h);
    gc_msort(c, v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        tmp[k++] = gc_cmp(c, v[j], v[i]) < 0 ? v[j++] : v[i++];
    }
    while (i < h) {
        tmp[k++] = v[i++];
    }
    while (j < n) {
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, n * sizeof *v);
}

/* The joined GROUP_CONCAT value (in the batch arena), cut at group_concat_max_len bytes on a
 * character boundary with warning 1260. */
static int
gc_final(op_hashagg *g, const plan_agg *ag, agg_state *st, plan_value *out)
{
    plan_ectx *cx = g->base.cx;
    if (!st->head) {
        *out = plan__v_null();
        return DB_OK;
    }
    size_t n = st->cnt;
    gc_item **v = arena_alloc(g->base.ba, n * sizeof *v);
    size_t i = 0;
    for (gc_item *it = st->head; it; it = it->next) {
        v[i++] = it;
    }
    if (ag->norder) {
        gc_item **tmp = arena_alloc(g->base.ba, n * sizeof *tmp);
        gc_sort c = {cx, ag};
        gc_msort(&c, v, tmp, n);
    }
    const char *sep = ag->sep ? ag->sep : ",";
    size_t seplen = ag->sep ? ag->sep_len : 1;
    size_t total = st->gc_len + (n - 1) * seplen;
    char *buf = arena_alloc(g->base.ba, total + 1);
    size_t o = 0;
    for (i = 0; i < n; i++) {
        if (i) {
            memcpy(buf + o, sep, seplen);
            o += seplen;
        }
        if (v[i]->len) {
            memcpy(buf + o, v[i]->s, v[i]->len);
        }
        o += v[i]->len;
    }
    if (o > g->gc_max) {
        size_t cut = (size_t)g->gc_max;
        while (cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80) {
            cut--; /* do not split a UTF-8 character */
        }
        o = cut;
        plan__warn(cx->s, db_error_code_of(ER_CUT_VALUE_GROUP_CONCAT),
                   "Row %u was cut by GROUP_CONCAT()", ++g->gc_cut);
    }
    *out = plan__v_str(buf, o);
    out->is_binary = ag->t.is_binary;
    return DB_OK;
}

/* The result of an aggregate from its state. */
static int
agg_final(op_hashagg *g, const plan_agg *ag, agg_state *st, plan_value *out, db_error *err)
{
    switch (ag->kind) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
        *out = plan__v_int((int64_t)st->cnt);
        return DB_OK;
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX:
    case PLAN_AGG_ANY_VALUE:
        *out = st->cnt ? st->v : plan__v_null();
        return DB_OK;
    case PLAN_AGG_SUM:
        if (!st->cnt) {
            *out = plan__v_null();
        } else if (ag->vk == PV_DOUBLE) {
            *out = plan__v_double(st->v.d);
        } else {
            *out = plan__v_dec(st->v.dec, ag->t.scale);
        }
        return DB_OK;
    case PLAN_AGG_AVG:
        if (!st->cnt) {
            *out = plan__v_null();
        } else if (ag->vk == PV_DOUBLE) {
            *out = plan__v_double(st->v.d / (double)st->cnt);
        } else {
            /* sum at the argument's scale, widened to the result's, divided rounding half
             * away from zero. */
            int from = ag->arg->vk == PV_DECIMAL ? ag->arg->t.scale : 0;
            __int128 num;
            if (!plan__dec_rescale(st->v.dec, from, ag->t.scale, &num)) {
                return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL", "avg");
            }
            __int128 den = (__int128)st->cnt;
            __int128 q = num / den, r = num % den;
            if ((r < 0 ? -r : r) * 2 >= den) {
                q += num < 0 ? -1 : 1;
            }
            *out = plan__v_dec(q, ag->t.scale);
        }
        return DB_OK;
    case PLAN_AGG_STDDEV_POP:
    case PLAN_AGG_VAR_POP:
        if (!st->cnt) {
            *out = plan__v_null();
        } else {
            double var = st->m2 / (double)st->cnt;
            var = var < 0 ? 0 : var;
            *out = plan__v_double(ag->kind == PLAN_AGG_VAR_POP ? var : sqrt(var));
        }
        return DB_OK;
    case PLAN_AGG_STDDEV_SAMP:
    case PLAN_AGG_VAR_SAMP:
        if (st->cnt < 2) {
            *out = plan__v_null();
        } else {
            double var = st->m2 / (double)(st->cnt - 1);
            var = var < 0 ? 0 : var;
            *out = plan__v_double(ag->kind == PLAN_AGG_VAR_SAMP ? var : sqrt(var));
        }
        return DB_OK;
    case PLAN_AGG_BIT_AND:
        *out = plan__v_uint(st->cnt ? st->bits : UINT64_MAX);
        return DB_OK;
    case PLAN_AGG_BIT_OR:
    case PLAN_AGG_BIT_XOR:
        *out = plan__v_uint(st->cnt ? st->bits : 0);
        return DB_OK;
    case PLAN_AGG_GROUP_CONCAT:
        return gc_final(g, ag, st, out);
    case PLAN_AGG_BITMAP_UNION_COUNT:
        *out = plan__v_int(st->bm ? (int64_t)roaring_bitmap_get_cardinality(st->bm) : 0);
        return DB_OK;
    case PLAN_AGG_BITMAP_UNION:
    case PLAN_AGG_BITMAP_INTERSECT:
    case PLAN_AGG_BITMAP_AGG:
        if (!st->bm) {
            st->bm = roaring_bitmap_create(); /* empty input: the empty bitmap */
        }
        *out = plan__bitmap_value(g->base.ba, st->bm);
        return DB_OK;
    case PLAN_AGG_ARRAY_AGG:
    case PLAN_AGG_COLLECT_SET:
        arr_final(g, st, out);
        return DB_OK;
    case PLAN_AGG_PERCENTILE:
        /* sorts the group's values in place: a group is finalized once */
        *out = st->cnt ? plan__v_double(plan__agg_percentile(st->pv, st->cnt, ag->pct))
                       : plan__v_null();
        return DB_OK;
    case PLAN_AGG_MAX_BY:
    case PLAN_AGG_MIN_BY:
        *out = st->cnt ? st->by->v : plan__v_null();
        return DB_OK;
    case PLAN_AGG_AVG_WEIGHTED:
        /* Doris divides anyway (NaN or infinity for weights summing to 0); no such DOUBLE
         * is printable here, so that is NULL. */
        *out = st->cnt && st->m2 != 0 ? plan__v_double(st->mean / st->m2) : plan__v_null();
        return DB_OK;
    }
    return DB_OK;
}

/* agg_step for COUNT(x) and SUM / AVG over an argument vector r whose values need no
 * conversion (the same kind and scale agg_step adds without converting), row `row`: DB_OK /
 * DB_ERR as agg_step (same errors), DB_AGAIN when agg_step must do it. */
static int
agg_fast(const plan_agg *ag, agg_state *st, const plan_vres *r, uint32_t row, db_error *err)
{
    if (ag->distinct || agg_nargs(ag) != 1) {
        return DB_AGAIN;
    }
    uint32_t x = row & r->mask;
    switch (ag->kind) {
    case PLAN_AGG_COUNT:
        st->cnt += !plan__vres_is_null(r, row);
        return DB_OK;
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG: {
        if (plan__vres_is_null(r, row)) {
            return DB_OK;
        }
        if (ag->vk == PV_DOUBLE) {
            if (r->t.kind != PV_DOUBLE) {
                return DB_AGAIN;
            }
            st->cnt++;
            st->v.d += r->d[x];
            return DB_OK;
        }
        int scale = ag->kind == PLAN_AGG_SUM    ? ag->t.scale
                    : ag->arg->vk == PV_DECIMAL ? ag->arg->t.scale
                                                : 0;
        __int128 d;
        if (r->t.kind == PV_DECIMAL && r->t.scale == scale) {
            d = r->dec[x];
        } else if (r->t.kind == PV_INT && !r->t.is_unsigned && scale == 0) {
            d = r->i[x];
        } else {
            return DB_AGAIN;
        }
        st->cnt++;
        __int128 sum = st->v.dec + d;
        const __int128 lim = (__int128)10000000000000000000ULL * 10000000000000000000ULL;
        if (sum >= lim || sum <= -lim) {
            return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL",
                                ag->kind == PLAN_AGG_SUM ? "sum" : "avg");
        }
        st->v.dec = sum;
        return DB_OK;
    }
    default:
        return DB_AGAIN;
    }
}

/* The value of e for the current row: from its vector vr (row `row`) when the batch was
 * evaluated vectorized, else plan__eval over cx->row. */
static inline int
row_value(plan_ectx *cx, const plan_expr *e, const plan_vres *vr, uint32_t row, plan_value *out,
          db_error *err)
{
    if (vr) {
        plan__vres_get(vr, row, out);
        return DB_OK;
    }
    return plan__eval(cx, e, out, err);
}

/* The group of the current row (keys from vk or, without it, evaluated over cx->row; pre:
 * already known; hv: the keys' hash from hashagg_vec_hash, so vk is set), added when new
 * (ER_AGG_MEMORY_LIMIT when that passes the limit). */
static int
group_of(op_hashagg *g, const plan_vres *vk, uint32_t row, const uint64_t *hv, void *pre,
         void **payload, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    if (hv && !pre) {
        /* hashagg_vec_hash checked once for the batch that no key needs a conversion. */
        for (uint32_t k = 0; k < g->nkeys; k++) {
            plan__vres_get(&vk[k], row, &g->kvals[k]);
        }
    }
    for (uint32_t k = 0; k < g->nkeys && !pre && !hv; k++) {
        plan_value *v = &g->kvals[k]; /* written in place (no 32-byte copy per key) */
        if (row_value(cx, g->keys[k], vk ? &vk[k] : NULL, row, v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v->kind != PV_NULL && v->kind != (uint8_t)g->keys[k]->vk && g->keys[k]->vk != PV_NULL &&
            plan__coerce(cx, v, g->keys[k]->vk, &g->keys[k]->t, err) != DB_OK) {
            return DB_ERR;
        }
    }
    bool is_new;
    if (pre) {
        *payload = pre; /* the group, found by the caller (ik_find) */
    } else if (g->nkeys == 0) {
        *payload = plan__aht_payload(&g->ht, 0); /* the one group (hashagg_open) */
    } else if (aht_upsert_h(&g->ht, g->kvals, hv ? *hv : aht_hash(&g->ht, g->kvals), payload,
                            &is_new, err) != DB_OK) {
        return DB_ERR;
    }
    return DB_OK;
}

/* Fold the current row into its group: row `row` of the vectors vk (keys) / va (arguments,
 * g->argpos[i] + j for argument j of aggregate i) when not NULL, else cx->row evaluated row
 * by row. Scratch goes to cx->a (the batch arena). */
static int
hashagg_row(op_hashagg *g, const plan_vres *vk, const plan_vres *va, uint32_t row,
            const uint64_t *hv, void *pre, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    void *payload;
    if (group_of(g, vk, row, hv, pre, &payload, err) != DB_OK) {
        return DB_ERR;
    }
    agg_state *sts = payload;
    g->last_payload = payload;
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (ag->kind == PLAN_AGG_COUNT_STAR) {
            sts[i].cnt++;
            continue;
        }
        if (va) {
            int rc = agg_fast(ag, &sts[i], &va[g->argpos[i]], row, err);
            if (rc != DB_AGAIN) {
                if (rc != DB_OK) {
                    return DB_ERR;
                }
                continue;
            }
        }
        uint32_t na = agg_nargs(ag);
        plan_value *args = g->dvals + 1;
        bool any_null = false;
        for (uint32_t j = 0; j < na; j++) {
            const plan_expr *e = agg_arg(ag, j);
            if (row_value(cx, e, va ? &va[g->argpos[i] + j] : NULL, row, &args[j], err) != DB_OK) {
                return DB_ERR;
            }
            if (args[j].kind != PV_NULL && args[j].kind != (uint8_t)e->vk && e->vk != PV_NULL &&
                ag->distinct && plan__coerce(cx, &args[j], e->vk, &e->t, err) != DB_OK) {
                return DB_ERR;
            }
            any_null |= args[j].kind == PV_NULL;
        }
        if (any_null && ag->kind != PLAN_AGG_ANY_VALUE) {
            continue;
        }
        if (ag->distinct) {
            /* Vector path, one group, one integer-like argument of its own kind: a compact set
             * of the values already counted answers most rows without the DISTINCT table. */
            const plan_expr *e0 = agg_arg(ag, 0);
            bool use_set = va && g->dik && g->nkeys == 0 && na == 1 &&
                           va[g->argpos[i]].t.kind == e0->vk && ik_intlike(e0->vk) &&
                           args[0].kind == e0->vk;
            if (use_set && (ik_bit_test(&g->dik[i], args[0].i) || ik_find(&g->dik[i], args[0].i))) {
                continue; /* seen: the table would say "not new" */
            }
            /* (group, arguments): the group is named by its state's address. */
            g->dvals[0] = plan__v_int((int64_t)(intptr_t)&sts[i]);
            void *dp;
            bool dnew;
            uint64_t dh =
                    g->dhv && g->dhv[i] ? g->dhv[i][g->cur_k] : aht_hash(&g->dist[i], g->dvals);
            if (aht_upsert_h(&g->dist[i], g->dvals, dh, &dp, &dnew, err) != DB_OK) {
                return DB_ERR;
            }
            if (use_set) {
                ik_add(&g->dik[i], args[0].i, &sts[i]);
                ik_bit_set(&g->dik[i], args[0].i); /* in the table now, whether or not ik_add
                                                      had room */
            }
            if (!dnew) {
                continue;
            }
        }
        if (agg_step(g, ag, &sts[i], args, err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

/* Whether every key and aggregate argument can be evaluated vectorized (GROUP_CONCAT ...
 * ORDER BY evaluates its order expressions over cx->row: row path). Sets g->argpos. */
static int
hashagg_vec_ok(op_hashagg *g)
{
    plan_op *op = &g->base;
    const plan_vtype *types = op->child->types;
    uint32_t nc = op->child->ncols;
    for (uint32_t k = 0; k < g->nkeys; k++) {
        if (!plan__vec_supported(g->keys[k], types, nc)) {
            return 0;
        }
    }
    g->argpos = arena_calloc(op->cx->a, g->naggs ? g->naggs : 1, sizeof *g->argpos);
    g->dik = arena_calloc(op->cx->a, g->naggs ? g->naggs : 1, sizeof *g->dik);
    uint32_t pos = 0;
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (ag->norder > 0) {
            return 0;
        }
        g->argpos[i] = pos;
        uint32_t na = ag->kind == PLAN_AGG_COUNT_STAR ? 0 : agg_nargs(ag);
        for (uint32_t j = 0; j < na; j++) {
            if (!plan__vec_supported(agg_arg(ag, j), types, nc)) {
                return 0;
            }
        }
        pos += na;
    }
    g->nargs_all = pos;
    return 1;
}

/* The group-key hash of each active row of in (k-th active row at [k], batch arena), or NULL
 * when a key needs a conversion (hashagg_row then hashes as it goes) or there are no keys. */
static uint64_t *
hashagg_vec_hash(op_hashagg *g, const plan_batch *in, const plan_vres *vk)
{
    if (g->nkeys == 0) {
        return NULL;
    }
    for (uint32_t k = 0; k < g->nkeys; k++) {
        if (vk[k].t.kind != PV_NULL && vk[k].t.kind != g->keys[k]->vk &&
            g->keys[k]->vk != PV_NULL) {
            return NULL;
        }
    }
    uint32_t n = plan__batch_active(in);
    uint64_t *hv = arena_alloc(g->base.ba, (n ? n : 1) * sizeof *hv);
    /* One string key: its values often share bytes (a join's build side, a dictionary), and
     * the ci hash case-folds; remember the hash of the last few distinct pointers. */
    enum { MEMO = 64 };
    struct {
        const char *s;
        size_t len;
        uint64_t hv;
    } memo[MEMO];
    bool use_memo = g->nkeys == 1 && vk[0].t.kind == PV_STRING;
    if (use_memo) {
        memset(memo, 0, sizeof memo);
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = plan__batch_row(in, k);
        for (uint32_t j = 0; j < g->nkeys; j++) {
            plan__vres_get(&vk[j], row, &g->kvals[j]);
        }
        if (use_memo && g->kvals[0].kind == PV_STRING && g->kvals[0].str.s != NULL) {
            const plan_value *v = &g->kvals[0];
            uint32_t m = (uint32_t)(((uintptr_t)v->str.s >> 3) ^ v->str.len) & (MEMO - 1);
            if (memo[m].s != v->str.s || memo[m].len != v->str.len) {
                memo[m].s = v->str.s;
                memo[m].len = v->str.len;
                memo[m].hv = aht_hash(&g->ht, g->kvals);
            }
            hv[k] = memo[m].hv;
            continue;
        }
        hv[k] = aht_hash(&g->ht, g->kvals);
    }
    return hv;
}

/* The compact index applies: one key of an integer or temporal kind whose vector has that
 * kind (no conversion), so equal int64 values are exactly equal keys. */
static bool
ik_usable(const op_hashagg *g, const plan_vres *vk)
{
    if (g->nkeys != 1) {
        return false;
    }
    plan_vkind k = g->keys[0]->vk;
    return ik_intlike(k) && vk[0].t.kind == k;
}

static bool
ik_intlike(plan_vkind k)
{
    return k == PV_INT || k == PV_DATE || k == PV_DATETIME || k == PV_TIME;
}

static void
ik_free(ik_table *t)
{
    mem_free(t->bits);
    mem_free(t->s);
    memset(t, 0, sizeof *t);
}

/* A DISTINCT set's dense bitmap covers the values 0 .. IK_BITS_MAX - 1 (128 KiB at most): ids
 * and codes, the usual COUNT(DISTINCT) arguments, are answered by one bit test in a table
 * that stays in cache, before the hash set is probed. */
#define IK_BITS_MAX (UINT64_C(1) << 20)

static inline bool
ik_bit_test(const ik_table *t, int64_t key)
{
    uint64_t u = (uint64_t)key;
    return u < (uint64_t)t->nwords * 64 && (t->bits[u >> 6] >> (u & 63)) & 1;
}

static void
ik_bit_set(ik_table *t, int64_t key)
{
    uint64_t u = (uint64_t)key;
    if (u >= IK_BITS_MAX) {
        return;
    }
    if (u >= (uint64_t)t->nwords * 64) {
        uint32_t nw = t->nwords ? t->nwords : 16;
        while ((uint64_t)nw * 64 <= u) {
            nw *= 2;
        }
        uint64_t *nb = mem_calloc(nw, sizeof *nb);
        if (t->nwords) {
            memcpy(nb, t->bits, (size_t)t->nwords * sizeof *nb);
        }
        mem_free(t->bits);
        t->bits = nb;
        t->nwords = nw;
    }
    t->bits[u >> 6] |= UINT64_C(1) << (u & 63);
}

static inline uint32_t
ik_slot(int64_t key, uint32_t cap)
{
    return (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static void *
ik_find(const ik_table *t, int64_t key)
{
    if (t->cap == 0) {
        return NULL;
    }
    for (uint32_t s = ik_slot(key, t->cap);; s = (s + 1) & (t->cap - 1)) {
        const ikey_slot *e = &t->s[s];
        if (e->payload == NULL || e->key == key) {
            return e->payload;
        }
    }
}

/* Remember key -> payload (not NULL). An index only: when it would pass a quarter of the
 * aggregation budget it stops growing, and the hash tables still answer. */
static void
ik_add(ik_table *t, int64_t key, void *payload)
{
    if ((uint64_t)(t->n + 1) * 2 > t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 1024;
        if (cap == 0 || (size_t)cap * sizeof(ikey_slot) > PLAN_AGG_MEM_LIMIT / 4) {
            return;
        }
        ikey_slot *ns = mem_calloc(cap, sizeof *ns);
        for (uint32_t i = 0; i < t->cap; i++) {
            if (t->s[i].payload) {
                uint32_t s = ik_slot(t->s[i].key, cap);
                while (ns[s].payload) {
                    s = (s + 1) & (cap - 1);
                }
                ns[s] = t->s[i];
            }
        }
        mem_free(t->s);
        t->s = ns;
        t->cap = cap;
    }
    uint32_t s = ik_slot(key, t->cap);
    while (t->s[s].payload) {
        if (t->s[s].key == key) {
            return;
        }
        s = (s + 1) & (t->cap - 1);
    }
    t->s[s].key = key;
    t->s[s].payload = payload;
    t->n++;
}

/* Every aggregate is COUNT(*), or COUNT(x) / SUM / AVG without DISTINCT over one argument
 * agg_fast takes (no conversion). */
static bool
fast_aggs_ok(const op_hashagg *g, const plan_vres *va)
{
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (ag->kind == PLAN_AGG_COUNT_STAR) {
            continue;
        }
        if (ag->distinct || agg_nargs(ag) != 1 ||
            (ag->kind != PLAN_AGG_COUNT && ag->kind != PLAN_AGG_SUM && ag->kind != PLAN_AGG_AVG)) {
            return false;
        }
        const plan_vres *r = &va[g->argpos[i]];
        if (ag->kind == PLAN_AGG_COUNT || r->t.kind == PV_NULL) {
            continue;
        }
        if (ag->vk == PV_DOUBLE) {
            if (r->t.kind != PV_DOUBLE) {
                return false;
            }
            continue;
        }
        int scale = ag->kind == PLAN_AGG_SUM    ? ag->t.scale
                    : ag->arg->vk == PV_DECIMAL ? ag->arg->t.scale
                                                : 0;
        if (!((r->t.kind == PV_DECIMAL && r->t.scale == scale) ||
              (r->t.kind == PV_INT && !r->t.is_unsigned && scale == 0))) {
            return false;
        }
    }
    return true;
}

/* Fold a batch with GROUP BY keys aggregate by aggregate when fast_aggs_ok: first the group
 * of every active row, in row order (ik: the compact index; else hv, or hashing as it goes),
 * then each aggregate in a tight loop. Errors are the row path's: a running DECIMAL sum that
 * leaves the range fails at the first (row, aggregate) in row order, and before a group that
 * could not be added at a later row (ER_AGG_MEMORY_LIMIT); each aggregate's sums depend only
 * on its own values, so looking at the aggregates one after the other finds that same first
 * overflow. DB_AGAIN when the aggregates do not qualify (nothing done). */
static int
hashagg_vec_keyed(op_hashagg *g, const plan_batch *in, const plan_vres *vk, const plan_vres *va,
                  bool ik, const uint64_t *hv, db_error *err)
{
    if (!fast_aggs_ok(g, va)) {
        return DB_AGAIN;
    }
    uint32_t n = plan__batch_active(in);
    void **pl = arena_alloc(g->base.ba, (n ? n : 1) * sizeof *pl);
    uint32_t done = n; /* rows whose group is known */
    db_error gerr;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t row = plan__batch_row(in, k);
        if (ik && !plan__vres_is_null(&vk[0], row)) {
            int64_t key = vk[0].i[row & vk[0].mask];
            void *p = ik_find(&g->ik, key);
            if (!p) {
                if (group_of(g, vk, row, NULL, NULL, &p, &gerr) != DB_OK) {
                    done = k;
                    break;
                }
                ik_add(&g->ik, key, p);
            }
            pl[k] = p;
            continue;
        }
        if (hv && k + 16 < n) {
            aht_prefetch(&g->ht, hv[k + 16], false);
        }
        if (hv && k + 8 < n) {
            aht_prefetch(&g->ht, hv[k + 8], true);
        }
        if (group_of(g, vk, row, hv ? &hv[k] : NULL, NULL, &pl[k], &gerr) != DB_OK) {
            done = k;
            break;
        }
    }
    const __int128 lim = (__int128)10000000000000000000ULL * 10000000000000000000ULL;
    uint32_t bad_k = UINT32_MAX, bad_i = 0; /* the first overflow in row order */
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (ag->kind == PLAN_AGG_COUNT_STAR) {
            for (uint32_t k = 0; k < done; k++) {
                ((agg_state *)pl[k])[i].cnt++;
            }
            continue;
        }
        const plan_vres *r = &va[g->argpos[i]];
        if (r->t.kind == PV_NULL) {
            continue;
        }
        uint32_t m = r->mask;
        const uint32_t *sel = in->sel;
        /* One loop per (aggregate kind, argument kind); NULL tests only when r has NULLs. */
#define FOLD_ROWS(BODY)                                           \
    do {                                                          \
        for (uint32_t k = 0; k < done; k++) {                     \
            uint32_t row = sel ? sel[k] : k;                      \
            if (r->nulls != NULL && plan__vres_is_null(r, row)) { \
                continue;                                         \
            }                                                     \
            agg_state *st = &((agg_state *)pl[k])[i];             \
            st->cnt++;                                            \
            BODY                                                  \
        }                                                         \
    } while (0)
        if (ag->kind == PLAN_AGG_COUNT) {
            FOLD_ROWS(;);
        } else if (ag->vk == PV_DOUBLE) {
            FOLD_ROWS(st->v.d += r->d[row & m];);
        } else if (r->t.kind == PV_DECIMAL) {
            FOLD_ROWS({
                __int128 sum = st->v.dec + r->dec[row & m];
                if (sum >= lim || sum <= -lim) {
                    if (k < bad_k || (k == bad_k && i < bad_i)) {
                        bad_k = k;
                        bad_i = i;
                    }
                    break; /* the statement fails: this aggregate's later rows do not matter */
                }
                st->v.dec = sum;
            });
        } else {
            FOLD_ROWS({
                __int128 sum = st->v.dec + (__int128)r->i[row & m];
                if (sum >= lim || sum <= -lim) {
                    if (k < bad_k || (k == bad_k && i < bad_i)) {
                        bad_k = k;
                        bad_i = i;
                    }
                    break;
                }
                st->v.dec = sum;
            });
        }
#undef FOLD_ROWS
    }
    if (bad_k != UINT32_MAX) {
        return db_error_set(err, ER_DATA_OUT_OF_RANGE, "DECIMAL",
                            g->aggs[bad_i].kind == PLAN_AGG_SUM ? "sum" : "avg");
    }
    if (done < n) {
        *err = gerr;
        return DB_ERR;
    }
    return DB_OK;
}

/* Without keys (one group): fold the whole batch aggregate by aggregate, in tight loops, when
 * every aggregate is COUNT(*), or COUNT(x) / SUM / AVG without DISTINCT over an argument
 * agg_fast takes. Values are added in row order, so sums are the row path's; when a running
 * DECIMAL sum would leave the range, the states are restored and false returned: the row
 * path then folds the batch and fails at the row and aggregate it would fail at. */
static bool
hashagg_vec_nokeys(op_hashagg *g, const plan_batch *in, const plan_vres *va)
{
    agg_state *sts = plan__aht_payload(&g->ht, 0);
    if (!fast_aggs_ok(g, va)) {
        return false;
    }
    agg_state *saved = arena_alloc(g->base.ba, (g->naggs ? g->naggs : 1) * sizeof *saved);
    memcpy(saved, sts, g->naggs * sizeof *saved);
    uint32_t n = plan__batch_active(in);
    const uint32_t *sel = in->sel;
    const __int128 lim = (__int128)10000000000000000000ULL * 10000000000000000000ULL;
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        agg_state *st = &sts[i];
        if (ag->kind == PLAN_AGG_COUNT_STAR) {
            st->cnt += n;
            continue;
        }
        const plan_vres *r = &va[g->argpos[i]];
        if (r->t.kind == PV_NULL) {
            continue;
        }
        uint32_t m = r->mask;
        uint64_t cnt = 0;
        if (ag->kind == PLAN_AGG_COUNT) {
            for (uint32_t k = 0; k < n; k++) {
                cnt += !plan__vres_is_null(r, sel ? sel[k] : k);
            }
        } else if (ag->vk == PV_DOUBLE) {
            double sum = st->v.d;
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel ? sel[k] : k;
                if (!plan__vres_is_null(r, row)) {
                    sum += r->d[row & m];
                    cnt++;
                }
            }
            st->v.d = sum;
        } else {
            __int128 sum = st->v.dec;
            bool is_dec = r->t.kind == PV_DECIMAL;
            for (uint32_t k = 0; k < n; k++) {
                uint32_t row = sel ? sel[k] : k;
                if (plan__vres_is_null(r, row)) {
                    continue;
                }
                sum += is_dec ? r->dec[row & m] : (__int128)r->i[row & m];
                cnt++;
                if (sum >= lim || sum <= -lim) {
                    memcpy(sts, saved, g->naggs * sizeof *saved);
                    return false;
                }
            }
            st->v.dec = sum;
        }
        st->cnt += cnt;
    }
    return true;
}

/* Without keys (one group, entry 0): per DISTINCT aggregate whose arguments need no
 * conversion, the DISTINCT-table hash of each active row's (group, arguments), computed as
 * hashagg_row would; NULL when there are none (batch arena). */
static uint64_t **
hashagg_vec_dhash(op_hashagg *g, const plan_batch *in, const plan_vres *va)
{
    if (g->nkeys != 0) {
        return NULL;
    }
    agg_state *sts = plan__aht_payload(&g->ht, 0);
    uint32_t n = plan__batch_active(in);
    uint64_t **dhv = NULL;
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (!ag->distinct || ag->kind == PLAN_AGG_COUNT_STAR) {
            continue;
        }
        uint32_t na = agg_nargs(ag);
        bool ok = true;
        for (uint32_t j = 0; j < na; j++) {
            const plan_vres *r = &va[g->argpos[i] + j];
            const plan_expr *e = agg_arg(ag, j);
            ok &= r->t.kind == PV_NULL || r->t.kind == e->vk || e->vk == PV_NULL;
        }
        if (!ok || (na == 1 && ik_intlike(agg_arg(ag, 0)->vk) && g->dik)) {
            continue; /* conversions, or hashagg_row's set of seen values answers most rows */
        }
        if (!dhv) {
            dhv = arena_calloc(g->base.ba, g->naggs, sizeof *dhv);
        }
        dhv[i] = arena_alloc(g->base.ba, (n ? n : 1) * sizeof **dhv);
        g->dvals[0] = plan__v_int((int64_t)(intptr_t)&sts[i]);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t row = plan__batch_row(in, k);
            for (uint32_t j = 0; j < na; j++) {
                plan__vres_get(&va[g->argpos[i] + j], row, &g->dvals[1 + j]);
            }
            dhv[i][k] = aht_hash(&g->dist[i], g->dvals);
        }
    }
    return dhv;
}

/* Without keys, when every aggregate is a DISTINCT one of one integer-like argument whose
 * vector has the argument's own kind (hashagg_row's set path), a row whose every argument is
 * NULL or already counted changes nothing: dskip_row tells so from the sets' bitmaps. */
static bool
dskip_ok(const op_hashagg *g, const plan_vres *va)
{
    if (g->nkeys != 0 || g->dik == NULL || g->naggs == 0) {
        return false;
    }
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (!ag->distinct || ag->kind == PLAN_AGG_COUNT_STAR || ag->kind == PLAN_AGG_ANY_VALUE ||
            agg_nargs(ag) != 1) {
            return false;
        }
        const plan_expr *e0 = agg_arg(ag, 0);
        if (!ik_intlike(e0->vk) || va[g->argpos[i]].t.kind != e0->vk) {
            return false;
        }
    }
    return true;
}

static inline bool
dskip_row(const op_hashagg *g, const plan_vres *va, uint32_t row)
{
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_vres *r = &va[g->argpos[i]];
        if (!plan__vres_is_null(r, row) && !ik_bit_test(&g->dik[i], r->i[row & r->mask])) {
            return false;
        }
    }
    return true;
}

/* Keys and arguments of batch in as vectors (batch arena); false: the row path does it. */
static bool
hashagg_vec_eval(op_hashagg *g, const plan_batch *in, plan_vres **vkp, plan_vres **vap)
{
    plan_op *op = &g->base;
    plan_vres *vk = arena_alloc(op->ba, (g->nkeys + 1) * sizeof *vk);
    plan_vres *va = arena_alloc(op->ba, (g->nargs_all + 1) * sizeof *va);
    for (uint32_t k = 0; k < g->nkeys; k++) {
        if (!plan__vec_eval(op->cx, op->ba, g->keys[k], in, NULL, 0, &vk[k])) {
            return false;
        }
    }
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        uint32_t na = ag->kind == PLAN_AGG_COUNT_STAR ? 0 : agg_nargs(ag);
        for (uint32_t j = 0; j < na; j++) {
            if (!plan__vec_eval(op->cx, op->ba, agg_arg(ag, j), in, NULL, 0,
                                &va[g->argpos[i] + j])) {
                return false;
            }
        }
    }
    *vkp = vk;
    *vap = va;
    return true;
}

static int
hashagg_consume(op_hashagg *g, db_error *err)
{
    plan_op *op = &g->base;
    plan_ectx *cx = op->cx;
    for (;;) {
        plan_batch *in;
        if (op->child->next(op->child, &in, err) != DB_OK) {
            return DB_ERR;
        }
        if (!in) {
            break;
        }
        arena_reset(op->ba);
        uint32_t n = plan__batch_active(in);
        if (g->vec < 0) {
            g->vec = hashagg_vec_ok(g); /* argpos in the statement arena */
        }
        arena *stmt_a = cx->a;
        cx->a = op->ba;
        int rc = DB_OK;
        plan_vres *vk = NULL, *va = NULL;
        if (g->vec && hashagg_vec_eval(g, in, &vk, &va)) {
            /* Hashes first, then probes with the slots and entries of the next rows already
             * on their way into the cache (rows are still folded in order, as the row path). */
            if (g->nkeys == 0 && hashagg_vec_nokeys(g, in, va)) {
                n = 0; /* folded whole (no row can fail) */
            }
            bool ik = n && ik_usable(g, vk);
            uint64_t *hv = n && !ik ? hashagg_vec_hash(g, in, vk) : NULL;
            if (n && g->nkeys > 0) {
                int krc = hashagg_vec_keyed(g, in, vk, va, ik, hv, err);
                if (krc != DB_AGAIN) {
                    rc = krc;
                    n = 0; /* folded whole (or failed as the row path would) */
                }
            }
            g->dhv = n ? hashagg_vec_dhash(g, in, va) : NULL;
            bool dskip = n && dskip_ok(g, va);
            for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
                if (dskip && dskip_row(g, va, plan__batch_row(in, k))) {
                    continue; /* every aggregate: NULL or a value already counted */
                }
                if (hv && k + 16 < n) {
                    aht_prefetch(&g->ht, hv[k + 16], false);
                }
                if (hv && k + 8 < n) {
                    aht_prefetch(&g->ht, hv[k + 8], true);
                }
                for (uint32_t i = 0; g->dhv && i < g->naggs; i++) {
                    if (g->dhv[i] && k + 16 < n) {
                        aht_prefetch(&g->dist[i], g->dhv[i][k + 16], false);
                    }
                    if (g->dhv[i] && k + 8 < n) {
                        aht_prefetch(&g->dist[i], g->dhv[i][k + 8], true);
                    }
                }
                g->cur_k = k;
                uint32_t row = plan__batch_row(in, k);
                if (ik && !plan__vres_is_null(&vk[0], row)) {
                    int64_t key = vk[0].i[row & vk[0].mask];
                    void *pre = ik_find(&g->ik, key);
                    rc = hashagg_row(g, vk, va, row, NULL, pre, err);
                    if (rc == DB_OK && !pre) {
                        ik_add(&g->ik, key, g->last_payload);
                    }
                    continue;
                }
                rc = hashagg_row(g, vk, va, row, hv ? &hv[k] : NULL, NULL, err);
            }
            g->dhv = NULL;
            n = 0; /* done: no row-at-a-time pass */
        }
        for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
            uint32_t row = plan__batch_row(in, k);
            for (uint32_t c = 0; c < in->ncols; c++) {
                plan__batch_get(in, c, row, &g->vals[c]);
            }
            cx->row = g->vals;
            cx->nrow = in->ncols;
            rc = hashagg_row(g, NULL, NULL, row, NULL, NULL, err);
        }
        cx->row = NULL;
        cx->a = stmt_a;
        if (rc != DB_OK) {
            return DB_ERR;
        }
        if (plan__check_interrupt(cx->s, err) != DB_OK) {
            return DB_ERR;
        }
        /* One budget for the groups and every DISTINCT table together. */
        size_t used = aht_bytes(&g->ht);
        for (uint32_t i = 0; i < g->naggs; i++) {
            used += g->aggs[i].distinct ? aht_bytes(&g->dist[i]) : 0;
        }
        if (used > PLAN_AGG_MEM_LIMIT) {
            return db_error_set(err, ER_AGG_MEMORY_LIMIT,
                                (unsigned long long)(PLAN_AGG_MEM_LIMIT >> 20));
        }
    }
    g->consumed = true;
    return DB_OK;
}

static int
hashagg_next(plan_op *op, plan_batch **out, db_error *err)
{
    op_hashagg *g = (op_hashagg *)op;
    plan_ectx *cx = op->cx;
    *out = NULL;
    if (!g->consumed && hashagg_consume(g, err) != DB_OK) {
        return DB_ERR;
    }
    if (g->pos >= g->ht.n) {
        return DB_OK;
    }
    arena_reset(op->ba);
    plan_batch *b = g->out;
    plan__batch_clear(b);
    arena *stmt_a = cx->a;
    cx->a = op->ba;
    int rc = DB_OK;
    while (rc == DB_OK && b->nrows < b->cap && g->pos < g->ht.n) {
        const plan_value *kv = plan__aht_keys(&g->ht, g->pos);
        agg_state *sts = plan__aht_payload(&g->ht, g->pos);
        uint32_t r = b->nrows;
        for (uint32_t k = 0; k < g->nkeys && rc == DB_OK; k++) {
            rc = plan__batch_set(cx, b, k, r, &kv[k], err);
        }
        for (uint32_t i = 0; i < g->naggs && rc == DB_OK; i++) {
            plan_value v;
            rc = agg_final(g, &g->aggs[i], &sts[i], &v, err);
            if (rc == DB_OK) {
                rc = plan__batch_set(cx, b, g->nkeys + i, r, &v, err);
            }
        }
        b->nrows++;
        g->pos++;
    }
    cx->a = stmt_a;
    if (rc != DB_OK) {
        return DB_ERR;
    }
    *out = b;
    return DB_OK;
}

/* ---- EXPLAIN and exec_mem_limit ---- */

static const char *const agg_names[] = {
        [PLAN_AGG_COUNT_STAR] = "COUNT",
        [PLAN_AGG_COUNT] = "COUNT",
        [PLAN_AGG_MIN] = "MIN",
        [PLAN_AGG_MAX] = "MAX",
        [PLAN_AGG_SUM] = "SUM",
        [PLAN_AGG_AVG] = "AVG",
        [PLAN_AGG_GROUP_CONCAT] = "GROUP_CONCAT",
        [PLAN_AGG_ANY_VALUE] = "ANY_VALUE",
        [PLAN_AGG_STDDEV_POP] = "STDDEV_POP",
        [PLAN_AGG_STDDEV_SAMP] = "STDDEV_SAMP",
        [PLAN_AGG_VAR_POP] = "VAR_POP",
        [PLAN_AGG_VAR_SAMP] = "VAR_SAMP",
        [PLAN_AGG_BIT_AND] = "BIT_AND",
        [PLAN_AGG_BIT_OR] = "BIT_OR",
        [PLAN_AGG_BIT_XOR] = "BIT_XOR",
        [PLAN_AGG_BITMAP_UNION] = "BITMAP_UNION",
        [PLAN_AGG_BITMAP_UNION_COUNT] = "BITMAP_UNION_COUNT",
        [PLAN_AGG_BITMAP_INTERSECT] = "BITMAP_INTERSECT",
        [PLAN_AGG_BITMAP_AGG] = "BITMAP_AGG",
        [PLAN_AGG_ARRAY_AGG] = "ARRAY_AGG",
        [PLAN_AGG_COLLECT_SET] = "COLLECT_SET",
        [PLAN_AGG_PERCENTILE] = "PERCENTILE",
        [PLAN_AGG_MAX_BY] = "MAX_BY",
        [PLAN_AGG_MIN_BY] = "MIN_BY",
        [PLAN_AGG_AVG_WEIGHTED] = "AVG_WEIGHTED",
};

/* An expression over the child's row; SELECT DISTINCT's synthesized column references have
 * no text, so they are named after the child's column. */
static const char *
input_text(plan_explain *ex, plan_op *op, const plan_expr *e)
{
    const char *t = plan__explain_expr(ex, e);
    if (*t == '\0' && e->slot >= 0) {
        return plan__explain_col(ex, op->child, (uint32_t)e->slot);
    }
    return t;
}

/* "SUM(x)", "COUNT(DISTINCT a, b)", "COUNT(*)" in the statement arena. */
static const char *
agg_text(plan_explain *ex, plan_op *op, const plan_agg *ag)
{
    const char *name = agg_names[ag->kind];
    if (ag->kind == PLAN_AGG_COUNT_STAR) {
        return "COUNT(*)";
    }
    const char *args = "";
    for (uint32_t j = 0; j < agg_nargs(ag); j++) {
        const char *t = input_text(ex, op, agg_arg(ag, j));
        args = j ? plan__explain_cat(ex, args, ", ", t) : t;
    }
    if (ag->kind == PLAN_AGG_PERCENTILE) { /* the level, a constant */
        args = plan__explain_cat(ex, args, ", ", arena_sprintf(op->cx->a, "%g", ag->pct));
    }
    return plan__explain_cat(ex, name, ag->distinct ? "(DISTINCT " : "(",
                             plan__explain_cat(ex, args, ")", ""));
}

static const char *
hashagg_col_name(plan_op *op, uint32_t c, plan_explain *ex)
{
    const op_hashagg *g = (const op_hashagg *)op;
    if (c < g->nkeys) {
        return input_text(ex, op, g->keys[c]);
    }
    return c - g->nkeys < g->naggs ? agg_text(ex, op, &g->aggs[c - g->nkeys]) : NULL;
}

static void
hashagg_describe(plan_op *op, plan_explain *ex)
{
    const op_hashagg *g = (const op_hashagg *)op;
    plan__explain_printf(ex, "AGGREGATE(");
    for (uint32_t c = 0; c < op->ncols; c++) {
        plan__explain_printf(ex, "%s%s",
                             c == 0          ? ""
                             : c == g->nkeys ? "; "
                                             : ", ",
                             hashagg_col_name(op, c, ex));
    }
    if (g->nkeys > 0 && g->naggs == 0) {
        plan__explain_printf(ex, ";");
    }
    plan__explain_printf(ex, ")");
}

/* The group and DISTINCT hash tables, charged to exec_mem_limit. */
static size_t
hashagg_mem_used(const plan_op *op)
{
    const op_hashagg *g = (const op_hashagg *)op;
    if (!g->has_ht) {
        return 0;
    }
    size_t n = aht_bytes(&g->ht) + (size_t)g->ik.cap * sizeof(ikey_slot);
    for (uint32_t i = 0; i < g->naggs; i++) {
        if (g->aggs[i].distinct) {
            n += aht_bytes(&g->dist[i]) +
                 (g->dik ? (size_t)g->dik[i].cap * sizeof(ikey_slot) +
                                   (size_t)g->dik[i].nwords * sizeof(uint64_t)
                         : 0);
        }
    }
    return n;
}

plan_op *
plan__op_hashagg(plan_ectx *cx, plan_op *child, plan_expr *const *keys, uint32_t nkeys,
                 const plan_agg *aggs, uint32_t naggs)
{
    op_hashagg *g = arena_calloc(cx->a, 1, sizeof *g);
    g->base.cx = cx;
    g->vec = -1;
    g->base.child = child;
    g->base.cap = child->cap;
    g->base.open = hashagg_open;
    g->base.next = hashagg_next;
    g->base.close = hashagg_close;
    g->base.describe = hashagg_describe;
    g->base.col_name = hashagg_col_name;
    g->base.mem_used = hashagg_mem_used;
    uint32_t n = nkeys + naggs;
    g->base.ncols = n;
    g->base.types = arena_calloc(cx->a, n ? n : 1, sizeof(plan_vtype));
    for (uint32_t k = 0; k < nkeys; k++) {
        g->base.types[k] = plan__vtype_of(keys[k]);
    }
    for (uint32_t i = 0; i < naggs; i++) {
        plan_vtype *t = &g->base.types[nkeys + i];
        t->kind = aggs[i].vk;
        t->is_unsigned = aggs[i].t.is_unsigned;
        t->is_binary = aggs[i].t.is_binary;
        t->scale = aggs[i].t.scale == 31 ? 0 : aggs[i].t.scale;
    }
    g->keys = keys;
    g->nkeys = nkeys;
    g->aggs = aggs;
    g->naggs = naggs;
    uint32_t maxargs = 1;
    for (uint32_t i = 0; i < naggs; i++) {
        maxargs = agg_nargs(&aggs[i]) > maxargs ? agg_nargs(&aggs[i]) : maxargs;
    }
    g->vals = arena_calloc(cx->a, child->ncols ? child->ncols : 1, sizeof(plan_value));
    g->kvals = arena_calloc(cx->a, nkeys ? nkeys : 1, sizeof(plan_value));
    g->dvals = arena_calloc(cx->a, maxargs + 1, sizeof(plan_value));
    return &g->base;
}

plan_op *
plan__op_agg(plan_ectx *cx, plan_op *child, const plan_agg *aggs, uint32_t n)
{
    return plan__op_hashagg(cx, child, NULL, 0, aggs, n);
}
