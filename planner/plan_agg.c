/* SPDX-License-Identifier: Apache-2.0
 * plan_agg.c: hash aggregation. The group hash table (plan_aht: typed keys hashed with xxHash
 * over a canonical form, open addressing, entries in an arena) and the aggregate operator
 * over it: GROUP BY keys, COUNT / SUM / AVG / MIN / MAX / GROUP_CONCAT / ANY_VALUE / STDDEV
 * and VARIANCE families / BIT_AND / BIT_OR / BIT_XOR, the Doris bitmap (CRoaring) and
 * collection aggregates, DISTINCT arguments through one more table per aggregate keyed by
 * (group, arguments). See README.md §Executor and §Aggregation. */
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
    return arena_used(h->a) + (size_t)h->nslots * sizeof(uint32_t) +
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
                len = plan__case_map(h->loc, true, s, len, h->fold);
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
                if (plan__cmp_ci(h->loc, x->str.s, x->str.len, y->str.s, y->str.len) != 0) {
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
    if (n == 0 || aht_bytes(h) + (size_t)n * sizeof(uint32_t) > h->limit) {
        return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(h->limit >> 20));
    }
    uint32_t *slots = mem_calloc(n, sizeof *slots);
    for (uint32_t i = 0; i < h->n; i++) {
        uint64_t hv = *(const uint64_t *)h->entries[i];
        uint32_t s = (uint32_t)hv & (n - 1);
        while (slots[s]) {
            s = (s + 1) & (n - 1);
        }
        slots[s] = i + 1;
    }
    mem_free(h->slots);
    h->slots = slots;
    h->nslots = n;
    return DB_OK;
}

int
plan__aht_upsert(plan_aht *h, const plan_value *keys, void **payload, bool *is_new, db_error *err)
{
    if ((uint64_t)(h->n + 1) * 2 > h->nslots && aht_grow(h, err) != DB_OK) {
        return DB_ERR;
    }
    uint64_t hv = aht_hash(h, keys);
    uint32_t mask = h->nslots - 1;
    uint32_t s = (uint32_t)hv & mask;
    size_t kb = aht_key_bytes(h);
    while (h->slots[s]) {
        char *e = h->entries[h->slots[s] - 1];
        if (*(uint64_t *)e == hv && aht_equal(h, (const plan_value *)(e + AHT_ALIGN), keys)) {
            *payload = e + kb;
            *is_new = false;
            return DB_OK;
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
    h->slots[s] = ++h->n;
    *payload = e + kb;
    *is_new = true;
    return DB_OK;
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
    return (char *)h->entries[i] + aht_key_bytes(h);
}

/* ---- the operator ---- */

/* One GROUP_CONCAT value of a group: the concatenated arguments and the ORDER BY values. */
typedef struct gc_item {
    struct gc_item *next;
    const char *s;
    size_t len;
    plan_value *ord; /* norder values */
} gc_item;

/* The running state of one aggregate in one group. */
typedef struct agg_state {
    uint64_t cnt; /* values folded in (rows for COUNT(*)) */
    plan_value v; /* MIN / MAX / SUM / AVG sum / ANY_VALUE; strings in the table arena */
    size_t vcap;  /* bytes available at v.str.s (reused by MIN / MAX) */
    double mean;  /* variance family: Welford's running mean and sum of squares */
    double m2;
    uint64_t bits; /* BIT_* */
    gc_item *head, *tail;
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
    uint64_t gc_max; /* @@group_concat_max_len */
    uint32_t gc_cut; /* GROUP_CONCAT results cut so far (warning row numbers) */
} op_hashagg;

static int hashagg_open(plan_op *op, db_error *err);
static int hashagg_next(plan_op *op, plan_batch **out, db_error *err);
static void hashagg_close(plan_op *op);
static int hashagg_consume(op_hashagg *g, db_error *err);
static int hashagg_row(op_hashagg *g, db_error *err);
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
static void arr_add(op_hashagg *g, agg_state *st, const plan_value *v);
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
        uint64_t b;
        if (v->kind == PV_INT) {
            b = v->u;
        } else if (v->kind == PV_STRING && v->is_binary) {
            b = 0;
            for (size_t i = 0; i < v->str.len && i < 8; i++) {
                b = (b << 8) | (unsigned char)v->str.s[i];
            }
        } else {
            int64_t i = plan__v_to_int(v, NULL);
            b = (uint64_t)i;
        }
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
    case PLAN_AGG_ARRAY_AGG:
    case PLAN_AGG_COLLECT_SET:
        arr_add(g, st, v);
        if (aht_bytes(&g->ht) > g->ht.limit) {
            return db_error_set(err, ER_AGG_MEMORY_LIMIT, (unsigned long long)(g->ht.limit >> 20));
        }
        return DB_OK;
    }
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
arr_add(op_hashagg *g, agg_state *st, const plan_value *v)
{
    plan_ectx *cx = g->base.cx;
    const char *s;
    size_t len;
    plan__v_string(cx, v, &s, &len);
    bool quote = v->kind == PV_STRING || v->kind == PV_DATE || v->kind == PV_DATETIME ||
                 v->kind == PV_TIME;
    gc_item *it = arena_alloc(g->ht.a, sizeof *it);
    char *buf = arena_alloc(g->ht.a, len + 3);
    size_t o = 0;
    if (quote) {
        buf[o++] = '"';
    }
    if (len) {
        memcpy(buf + o, s, len);
    }
    o += len;
    if (quote) {
        buf[o++] = '"';
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
    }
    return DB_OK;
}

/* Fold the current row (cx->row) into its group. Scratch goes to cx->a (the batch arena). */
static int
hashagg_row(op_hashagg *g, db_error *err)
{
    plan_ectx *cx = g->base.cx;
    for (uint32_t k = 0; k < g->nkeys; k++) {
        plan_value v;
        if (plan__eval(cx, g->keys[k], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind != PV_NULL && v.kind != (uint8_t)g->keys[k]->vk && g->keys[k]->vk != PV_NULL &&
            plan__coerce(cx, &v, g->keys[k]->vk, &g->keys[k]->t, err) != DB_OK) {
            return DB_ERR;
        }
        g->kvals[k] = v;
    }
    void *payload;
    bool is_new;
    if (plan__aht_upsert(&g->ht, g->kvals, &payload, &is_new, err) != DB_OK) {
        return DB_ERR;
    }
    agg_state *sts = payload;
    for (uint32_t i = 0; i < g->naggs; i++) {
        const plan_agg *ag = &g->aggs[i];
        if (ag->kind == PLAN_AGG_COUNT_STAR) {
            sts[i].cnt++;
            continue;
        }
        uint32_t na = agg_nargs(ag);
        plan_value *args = g->dvals + 1;
        bool any_null = false;
        for (uint32_t j = 0; j < na; j++) {
            const plan_expr *e = agg_arg(ag, j);
            if (plan__eval(cx, e, &args[j], err) != DB_OK) {
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
            /* (group, arguments): the group is named by its state's address. */
            g->dvals[0] = plan__v_int((int64_t)(intptr_t)&sts[i]);
            void *dp;
            bool dnew;
            if (plan__aht_upsert(&g->dist[i], g->dvals, &dp, &dnew, err) != DB_OK) {
                return DB_ERR;
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
        arena *stmt_a = cx->a;
        cx->a = op->ba;
        int rc = DB_OK;
        for (uint32_t k = 0; k < n && rc == DB_OK; k++) {
            uint32_t row = plan__batch_row(in, k);
            for (uint32_t c = 0; c < in->ncols; c++) {
                plan__batch_get(in, c, row, &g->vals[c]);
            }
            cx->row = g->vals;
            cx->nrow = in->ncols;
            rc = hashagg_row(g, err);
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
    size_t n = aht_bytes(&g->ht);
    for (uint32_t i = 0; i < g->naggs; i++) {
        if (g->aggs[i].distinct) {
            n += aht_bytes(&g->dist[i]);
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
