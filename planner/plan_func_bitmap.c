/* SPDX-License-Identifier: Apache-2.0
 * plan_func_bitmap.c: Doris bitmap scalar functions over CRoaring (TO_BITMAP, BITMAP_COUNT,
 * BITMAP_TO_STRING, BITMAP_FROM_STRING, BITMAP_CONTAINS, BITMAP_EMPTY, BITMAP_HASH) and the
 * bitmap value encoding the bitmap aggregates of plan_agg.c share. There is no BITMAP column
 * type: a bitmap value is a binary string holding CRoaring's portable serialization of a
 * 32-bit roaring bitmap. See README.md §Functions (bitmaps). */
#include "planner/plan_func_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"

enum { BM_TO, BM_COUNT, BM_TO_STRING, BM_FROM_STRING, BM_CONTAINS, BM_EMPTY, BM_HASH };

static int ev_bitmap(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err);
static int arg_bitmap(plan_ectx *cx, const plan_value *v, roaring_bitmap_t **out, db_error *err);
static uint32_t murmur3_32(const void *p, size_t n, uint32_t seed);
static roaring_bitmap_t *from_string(const char *s, size_t len);

roaring_bitmap_t *
plan__bitmap_decode(const char *s, size_t len)
{
    if (len < 4) {
        return NULL;
    }
    /* The portable format starts with a cookie: 12346 (no run containers) as 32 bits, or
     * 12347 in the low 16 bits. Checked here so that ordinary text never reaches the
     * library, which reports bad input on stderr. */
    uint32_t cookie = (uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[1] << 8 |
                      (uint32_t)(unsigned char)s[2] << 16 | (uint32_t)(unsigned char)s[3] << 24;
    if (cookie != 12346 && (cookie & 0xFFFF) != 12347) {
        return NULL;
    }
    /* The safe decoder checks every length against len; then the serialized size must match
     * exactly, so trailing garbage is not a bitmap either. */
    roaring_bitmap_t *bm = roaring_bitmap_portable_deserialize_safe(s, len);
    if (bm && roaring_bitmap_portable_size_in_bytes(bm) != len) {
        roaring_bitmap_free(bm);
        bm = NULL;
    }
    return bm;
}

plan_value
plan__bitmap_value(arena *a, roaring_bitmap_t *bm)
{
    roaring_bitmap_run_optimize(bm);
    size_t n = roaring_bitmap_portable_size_in_bytes(bm);
    char *buf = arena_alloc(a, n + 1);
    size_t w = roaring_bitmap_portable_serialize(bm, buf);
    buf[w] = '\0';
    plan_value v = plan__v_str(buf, w);
    v.is_binary = true;
    return v;
}

bool
plan__bitmap_elem(plan_ectx *cx, const plan_value *v, uint32_t *out)
{
    uint64_t u;
    if (v->kind == PV_NULL) {
        return false;
    }
    if (v->kind == PV_INT) {
        if (!v->is_unsigned && v->i < 0) {
            return false;
        }
        u = v->u;
    } else {
        const char *s;
        size_t len;
        if (!plan__v_string(cx, v, &s, &len) || len == 0 || len > 20) {
            return false;
        }
        char buf[24];
        memcpy(buf, s, len);
        buf[len] = '\0';
        for (size_t i = 0; i < len; i++) {
            if (buf[i] < '0' || buf[i] > '9') {
                return false; /* Doris: not an unsigned integer -> NULL */
            }
        }
        u = strtoull(buf, NULL, 10);
    }
    if (u > UINT32_MAX) {
        return false; /* 32-bit CRoaring: larger values are out of range (README) */
    }
    *out = (uint32_t)u;
    return true;
}

/* A bitmap argument: NULL -> *out NULL; a string that is not a bitmap -> ER_WRONG_ARGUMENTS.
 * The caller frees *out. */
static int
arg_bitmap(plan_ectx *cx, const plan_value *v, roaring_bitmap_t **out, db_error *err)
{
    *out = NULL;
    if (v->kind == PV_NULL) {
        return DB_OK;
    }
    const char *s;
    size_t len;
    plan__v_string(cx, v, &s, &len);
    *out = plan__bitmap_decode(s, len);
    if (!*out) {
        return db_error_set(err, ER_WRONG_ARGUMENTS, "a bitmap function (not a bitmap value)");
    }
    return DB_OK;
}

/* "0, 1,2" -> {0, 1, 2}; '' -> empty; anything else (negative, > UINT32_MAX, junk) -> NULL. */
static roaring_bitmap_t *
from_string(const char *s, size_t len)
{
    roaring_bitmap_t *bm = roaring_bitmap_create();
    size_t i = 0;
    while (i < len && s[i] == ' ') {
        i++;
    }
    if (i == len) {
        return bm;
    }
    for (;;) {
        while (i < len && s[i] == ' ') {
            i++;
        }
        uint64_t u = 0;
        size_t start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9' && u <= UINT32_MAX) {
            u = u * 10 + (uint64_t)(s[i] - '0');
            i++;
        }
        while (i < len && s[i] == ' ') {
            i++;
        }
        if (i == start || u > UINT32_MAX || (i < len && s[i] != ',')) {
            roaring_bitmap_free(bm);
            return NULL;
        }
        roaring_bitmap_add(bm, (uint32_t)u);
        if (i == len) {
            return bm;
        }
        i++; /* the comma */
    }
}

/* MurmurHash3 x86_32, as Doris's HashUtil::murmur_hash3_32. */
static uint32_t
murmur3_32(const void *p, size_t n, uint32_t seed)
{
    const uint8_t *d = p;
    uint32_t h = seed;
    const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
    size_t nb = n / 4;
    for (size_t i = 0; i < nb; i++) {
        uint32_t k;
        memcpy(&k, d + i * 4, 4);
        k *= c1;
        k = (k << 15) | (k >> 17);
        k *= c2;
        h ^= k;
        h = (h << 13) | (h >> 19);
        h = h * 5 + 0xe6546b64;
    }
    const uint8_t *tail = d + nb * 4;
    uint32_t k = 0;
    switch (n & 3) {
    case 3:
        k ^= (uint32_t)tail[2] << 16;
        /* fall through */
    case 2:
        k ^= (uint32_t)tail[1] << 8;
        /* fall through */
    case 1:
        k ^= tail[0];
        k *= c1;
        k = (k << 15) | (k >> 17);
        k *= c2;
        h ^= k;
        break;
    default:
        break;
    }
    h ^= (uint32_t)n;
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}

#define DORIS_MURMUR3_32_SEED 104729u /* HashUtil::MURMUR3_32_SEED */

static int
ev_bitmap(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[2];
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (plan__eval(cx, e->args[i], &v[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    *out = plan__v_null();
    roaring_bitmap_t *bm = NULL;
    int rc = DB_OK;
    switch (e->op) {
    case BM_TO: {
        uint32_t x;
        if (plan__bitmap_elem(cx, &v[0], &x)) {
            bm = roaring_bitmap_create();
            roaring_bitmap_add(bm, x);
            *out = plan__bitmap_value(cx->a, bm);
        }
        break;
    }
    case BM_EMPTY:
        bm = roaring_bitmap_create();
        *out = plan__bitmap_value(cx->a, bm);
        break;
    case BM_HASH: {
        const char *s;
        size_t len;
        if (plan__v_string(cx, &v[0], &s, &len)) {
            bm = roaring_bitmap_create();
            roaring_bitmap_add(bm, murmur3_32(s, len, DORIS_MURMUR3_32_SEED));
            *out = plan__bitmap_value(cx->a, bm);
        }
        break;
    }
    case BM_FROM_STRING: {
        const char *s;
        size_t len;
        if (plan__v_string(cx, &v[0], &s, &len)) {
            bm = from_string(s, len);
            if (bm) {
                *out = plan__bitmap_value(cx->a, bm);
            }
        }
        break;
    }
    case BM_COUNT:
        rc = arg_bitmap(cx, &v[0], &bm, err);
        /* Doris: BITMAP_COUNT(NULL) is 0. */
        *out = plan__v_int(bm ? (int64_t)roaring_bitmap_get_cardinality(bm) : 0);
        break;
    case BM_CONTAINS: {
        rc = arg_bitmap(cx, &v[0], &bm, err);
        uint32_t x;
        if (bm && v[1].kind != PV_NULL) {
            bool in = plan__bitmap_elem(cx, &v[1], &x) && roaring_bitmap_contains(bm, x);
            *out = plan__v_int(in);
        }
        break;
    }
    case BM_TO_STRING:
        rc = arg_bitmap(cx, &v[0], &bm, err);
        if (bm) {
            uint64_t n = roaring_bitmap_get_cardinality(bm);
            uint32_t *vals = arena_alloc(cx->a, (n ? n : 1) * sizeof *vals);
            roaring_bitmap_to_uint32_array(bm, vals);
            char *buf = arena_alloc(cx->a, n * 11 + 1);
            size_t o = 0;
            for (uint64_t i = 0; i < n; i++) {
                o += (size_t)sprintf(buf + o, i ? ",%u" : "%u", vals[i]);
            }
            buf[o] = '\0';
            *out = plan__v_str(buf, o);
        }
        break;
    default:
        break;
    }
    if (bm) {
        roaring_bitmap_free(bm);
    }
    return rc;
}

int
plan__ty_bitmap(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    static const char *const names[] = {
            [BM_TO] = "to_bitmap",
            [BM_COUNT] = "bitmap_count",
            [BM_TO_STRING] = "bitmap_to_string",
            [BM_FROM_STRING] = "bitmap_from_string",
            [BM_CONTAINS] = "bitmap_contains",
            [BM_EMPTY] = "bitmap_empty",
            [BM_HASH] = "bitmap_hash",
    };
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        if (strcmp(e->name, names[i]) == 0) {
            e->op = i;
        }
    }
    e->eval = ev_bitmap;
    switch (e->op) {
    case BM_COUNT:
        plan__type_bigint(&e->t, 20, false);
        e->vk = PV_INT;
        break;
    case BM_CONTAINS:
        plan__type_bigint(&e->t, 1, plan__nullable_args(e));
        e->t.type = PLAN_TYPE_TINYINT;
        e->vk = PV_INT;
        break;
    case BM_TO_STRING:
        plan__type_string(&e->t, 65535, plan__nullable_args(e));
        e->vk = PV_STRING;
        break;
    default: /* a bitmap: NULL for NULL or invalid input, except BITMAP_EMPTY */
        plan__type_string(&e->t, 65535, e->op != BM_EMPTY);
        e->t.is_binary = true;
        e->vk = PV_STRING;
        break;
    }
    return DB_OK;
}
