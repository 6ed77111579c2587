/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for storage/stor_pkindex: the memcomparable key encoding (memcmp order equals SQL
 * order) and the primary-key hash index, checked against a naive reference table over 1M random
 * upserts, deletes and lookups; slab compaction, rebuild and iteration. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "storage/storage.h"

/* ---- helpers ---- */

/* A reference row of the naive table, indexed by key id. */
typedef struct ref_row {
    bool present;
    stor_rowloc loc;
    uint64_t version;
} ref_row;

typedef struct walk_state {
    const ref_row *ref;
    uint8_t *seen;
    size_t n;
    size_t nref;
    bool ok;
} walk_state;

static uint64_t rng_next(uint64_t *s);
static int keycmp(const buf *a, const buf *b);
static int sign(int v);
static void make_key(buf *k, uint32_t id);
static uint32_t key_id(const uint8_t *key);
static bool check_item(const stor_pk_item *item, void *arg);
static bool stop_at_first(const stor_pk_item *item, void *arg);
static bool loc_eq(stor_rowloc a, stor_rowloc b);
static int cmp_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

static uint64_t
rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Order of two encoded keys: memcmp, the shorter first on a common prefix. */
static int
keycmp(const buf *a, const buf *b)
{
    return cmp_bytes(a->data, a->len, b->data, b->len);
}

static int
cmp_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c != 0) {
        return sign(c);
    }
    return alen < blen ? -1 : (alen > blen ? 1 : 0);
}

static int
sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Key of id: an INT column then a STRING column whose length (0..70) depends on id. */
static void
make_key(buf *k, uint32_t id)
{
    char s[80];
    size_t len = (id * 2654435761u) % 71;
    for (size_t i = 0; i < len; i++) {
        s[i] = (char)('a' + (id + i) % 26);
    }
    buf_clear(k);
    stor_key_put_int(k, (int64_t)id - 50000);
    stor_key_put_string(k, s, len);
}

/* The id back from a make_key key (marker byte, then 8 bytes big-endian with the sign flipped). */
static uint32_t
key_id(const uint8_t *key)
{
    uint64_t u = 0;
    for (int i = 1; i <= 8; i++) {
        u = u << 8 | key[i];
    }
    return (uint32_t)((int64_t)(u ^ ((uint64_t)1 << 63)) + 50000);
}

static bool
loc_eq(stor_rowloc a, stor_rowloc b)
{
    return a.rowset_id == b.rowset_id && a.segment_id == b.segment_id && a.row == b.row;
}

static bool
check_item(const stor_pk_item *item, void *arg)
{
    walk_state *w = arg;
    uint32_t id = key_id(item->key);
    if (id >= w->nref || !w->ref[id].present || w->seen[id] || !loc_eq(item->loc, w->ref[id].loc) ||
        item->version != w->ref[id].version) {
        w->ok = false;
        return false;
    }
    w->seen[id] = 1;
    w->n++;
    return true;
}

static bool
stop_at_first(const stor_pk_item *item, void *arg)
{
    (*(size_t *)arg)++;
    return false;
}

/* ---- key encoding ---- */

Test(stor_pkindex, int_encoding_orders_like_sql)
{
    const int64_t vals[] = {
            INT64_MIN, INT64_MIN + 1, -4294967296ll, -65536,   -256, -1, 0, 1, 127, 128, 255, 256,
            65535,     4294967296ll,  INT64_MAX - 1, INT64_MAX};
    const size_t n = sizeof(vals) / sizeof(vals[0]);
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            buf_clear(&a);
            buf_clear(&b);
            stor_key_put_int(&a, vals[i]);
            stor_key_put_int(&b, vals[j]);
            int want = (vals[i] > vals[j]) - (vals[i] < vals[j]);
            cr_assert_eq(keycmp(&a, &b), want, "%lld vs %lld", (long long)vals[i],
                         (long long)vals[j]);
        }
    }
    uint64_t s = 99;
    for (int k = 0; k < 20000; k++) {
        int64_t x = (int64_t)rng_next(&s) >> (rng_next(&s) % 64);
        int64_t y = (int64_t)rng_next(&s) >> (rng_next(&s) % 64);
        buf_clear(&a);
        buf_clear(&b);
        stor_key_put_int(&a, x);
        stor_key_put_int(&b, y);
        cr_assert_eq(keycmp(&a, &b), (x > y) - (x < y), "%lld vs %lld", (long long)x, (long long)y);
    }
    buf_destroy(&a);
    buf_destroy(&b);
}

Test(stor_pkindex, string_encoding_orders_bytewise)
{
    static const struct {
        const char *s;
        size_t len;
    } vals[] = {
            {"", 0},    {"\0", 1},    {"\0\0", 2}, {"\0\x01", 2}, {"\x01", 1},     {"a", 1},
            {"a\0", 2}, {"a\0\0", 3}, {"a\0b", 3}, {"a\x01", 2},  {"ab", 2},       {"ab\0", 3},
            {"abc", 3}, {"a\xff", 2}, {"b", 1},    {"\xff", 1},   {"\xff\xff", 2},
    };
    const size_t n = sizeof(vals) / sizeof(vals[0]);
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            buf_clear(&a);
            buf_clear(&b);
            stor_key_put_string(&a, vals[i].s, vals[i].len);
            stor_key_put_string(&b, vals[j].s, vals[j].len);
            int want = i < j ? -1 : (i > j ? 1 : 0); /* vals are listed in SQL order */
            cr_assert_eq(keycmp(&a, &b), want, "string %zu vs %zu", i, j);
        }
    }
    /* Random strings over a tiny alphabet with many zeros. */
    uint64_t s = 5;
    for (int k = 0; k < 20000; k++) {
        uint8_t x[8], y[8];
        size_t xl = rng_next(&s) % 8, yl = rng_next(&s) % 8;
        for (size_t i = 0; i < 8; i++) {
            x[i] = (uint8_t)(rng_next(&s) % 3 == 0 ? 0 : rng_next(&s) % 3);
            y[i] = (uint8_t)(rng_next(&s) % 3 == 0 ? 0 : rng_next(&s) % 3);
        }
        buf_clear(&a);
        buf_clear(&b);
        stor_key_put_string(&a, x, xl);
        stor_key_put_string(&b, y, yl);
        cr_assert_eq(keycmp(&a, &b), cmp_bytes(x, xl, y, yl), "random strings %d", k);
    }
    buf_destroy(&a);
    buf_destroy(&b);
}

Test(stor_pkindex, null_sorts_first)
{
    buf nul, v;
    buf_init(&nul);
    buf_init(&v);
    stor_key_put_null(&nul);
    stor_key_put_int(&v, INT64_MIN);
    cr_expect_lt(keycmp(&nul, &v), 0, "NULL < INT64_MIN");
    buf_clear(&v);
    stor_key_put_string(&v, "", 0);
    cr_expect_lt(keycmp(&nul, &v), 0, "NULL < ''");
    buf_clear(&v);
    stor_key_put_date(&v, 0, 1, 1);
    cr_expect_lt(keycmp(&nul, &v), 0, "NULL < 0000-01-01");
    buf_clear(&v);
    stor_key_put_null(&v);
    cr_expect_eq(keycmp(&nul, &v), 0, "NULL = NULL for key purposes");
    buf_destroy(&nul);
    buf_destroy(&v);
}

Test(stor_pkindex, decimal_and_largeint_encoding_orders_like_sql)
{
    /* DECIMAL(10,2) values as unscaled integers: -99999999.99 .. 99999999.99. */
    const int64_t dec[] = {-9999999999ll, -12345, -100, -1, 0, 1, 99, 100, 12345, 9999999999ll};
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    for (size_t i = 0; i + 1 < sizeof(dec) / sizeof(dec[0]); i++) {
        buf_clear(&a);
        buf_clear(&b);
        stor_key_put_decimal(&a, dec[i]);
        stor_key_put_decimal(&b, dec[i + 1]);
        cr_assert_lt(keycmp(&a, &b), 0, "decimal %lld < %lld", (long long)dec[i],
                     (long long)dec[i + 1]);
    }
    /* 128-bit values as (hi, lo), ascending: -2^127, -2^64, -1, 0, 2^64 - 1, 2^64, 2^127 - 1. */
    const struct {
        int64_t hi;
        uint64_t lo;
    } big[] = {{INT64_MIN, 0},  {-1, 0}, {-1, UINT64_MAX},       {0, 0},
               {0, UINT64_MAX}, {1, 0},  {INT64_MAX, UINT64_MAX}};
    const size_t nb = sizeof(big) / sizeof(big[0]);
    for (size_t i = 0; i < nb; i++) {
        for (size_t j = 0; j < nb; j++) {
            buf_clear(&a);
            buf_clear(&b);
            stor_key_put_int128(&a, big[i].hi, big[i].lo);
            stor_key_put_int128(&b, big[j].hi, big[j].lo);
            cr_assert_eq(keycmp(&a, &b), i < j ? -1 : (i > j ? 1 : 0), "int128 %zu vs %zu", i, j);
        }
    }
    buf_destroy(&a);
    buf_destroy(&b);
}

Test(stor_pkindex, date_and_datetime_encoding_orders_like_sql)
{
    const int dates[][3] = {{0, 1, 1},    {1969, 12, 31}, {1970, 1, 1},
                            {1970, 1, 2}, {1970, 2, 1},   {1999, 12, 31},
                            {2000, 1, 1}, {2024, 2, 29},  {9999, 12, 31}};
    const size_t nd = sizeof(dates) / sizeof(dates[0]);
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    for (size_t i = 0; i + 1 < nd; i++) {
        buf_clear(&a);
        buf_clear(&b);
        stor_key_put_date(&a, dates[i][0], dates[i][1], dates[i][2]);
        stor_key_put_date(&b, dates[i + 1][0], dates[i + 1][1], dates[i + 1][2]);
        cr_assert_lt(keycmp(&a, &b), 0, "date %zu < %zu", i, i + 1);
    }
    const int dts[][7] = {{1970, 1, 1, 0, 0, 0, 0},        {1970, 1, 1, 0, 0, 0, 1},
                          {1970, 1, 1, 0, 0, 0, 999999},   {1970, 1, 1, 0, 0, 1, 0},
                          {1970, 1, 1, 0, 59, 59, 999999}, {1970, 1, 1, 23, 0, 0, 0},
                          {1970, 1, 2, 0, 0, 0, 0},        {2023, 12, 31, 23, 59, 59, 999999},
                          {2024, 1, 1, 0, 0, 0, 0}};
    const size_t nt = sizeof(dts) / sizeof(dts[0]);
    for (size_t i = 0; i + 1 < nt; i++) {
        buf_clear(&a);
        buf_clear(&b);
        stor_key_put_datetime(&a, dts[i][0], dts[i][1], dts[i][2], dts[i][3], dts[i][4], dts[i][5],
                              dts[i][6]);
        stor_key_put_datetime(&b, dts[i + 1][0], dts[i + 1][1], dts[i + 1][2], dts[i + 1][3],
                              dts[i + 1][4], dts[i + 1][5], dts[i + 1][6]);
        cr_assert_lt(keycmp(&a, &b), 0, "datetime %zu < %zu", i, i + 1);
    }
    buf_destroy(&a);
    buf_destroy(&b);
}

Test(stor_pkindex, multi_column_keys_order_column_by_column)
{
    /* (INT nullable, STRING, INT): compare tuples in SQL order against their encodings. */
    typedef struct tup {
        bool a_null;
        int64_t a;
        uint8_t s[4];
        size_t slen;
        int64_t c;
    } tup;
    enum { N = 400 };
    tup *t = calloc(N, sizeof(tup));
    buf *enc = calloc(N, sizeof(buf));
    uint64_t s = 4242;
    for (size_t i = 0; i < N; i++) {
        t[i].a_null = rng_next(&s) % 5 == 0;
        t[i].a = (int64_t)(rng_next(&s) % 5) - 2;
        t[i].slen = rng_next(&s) % 4;
        for (size_t k = 0; k < 4; k++) {
            t[i].s[k] = (uint8_t)(rng_next(&s) % 3);
        }
        t[i].c = (int64_t)(rng_next(&s) % 3) - 1;
        buf_init(&enc[i]);
        if (t[i].a_null) {
            stor_key_put_null(&enc[i]);
        } else {
            stor_key_put_int(&enc[i], t[i].a);
        }
        stor_key_put_string(&enc[i], t[i].s, t[i].slen);
        stor_key_put_int(&enc[i], t[i].c);
    }
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < N; j++) {
            int want;
            if (t[i].a_null != t[j].a_null) {
                want = t[i].a_null ? -1 : 1;
            } else if (!t[i].a_null && t[i].a != t[j].a) {
                want = t[i].a < t[j].a ? -1 : 1;
            } else {
                want = cmp_bytes(t[i].s, t[i].slen, t[j].s, t[j].slen);
                if (want == 0) {
                    want = (t[i].c > t[j].c) - (t[i].c < t[j].c);
                }
            }
            cr_assert_eq(keycmp(&enc[i], &enc[j]), want, "tuple %zu vs %zu", i, j);
        }
    }
    for (size_t i = 0; i < N; i++) {
        buf_destroy(&enc[i]);
    }
    free(enc);
    free(t);
}

/* ---- the index ---- */

Test(stor_pkindex, upsert_lookup_delete)
{
    stor_pkindex *pk = stor_pkindex_new();
    buf k;
    buf_init(&k);
    stor_key_put_int(&k, 42);
    stor_rowloc loc, prev = {0};
    uint64_t ver = 0;
    bool existed = true;
    db_error err = {0};
    cr_expect(!stor_pkindex_lookup(pk, k.data, k.len, &loc, &ver));
    cr_assert_eq(stor_pkindex_upsert(pk, k.data, k.len, (stor_rowloc){7, 1, 99}, 3, &prev, &existed,
                                     &err),
                 DB_OK);
    cr_expect(!existed);
    cr_assert(stor_pkindex_lookup(pk, k.data, k.len, &loc, &ver));
    cr_expect(loc_eq(loc, (stor_rowloc){7, 1, 99}));
    cr_expect_eq(ver, 3);
    cr_assert_eq(stor_pkindex_upsert(pk, k.data, k.len, (stor_rowloc){8, 0, 5}, 4, &prev, &existed,
                                     &err),
                 DB_OK);
    cr_expect(existed);
    cr_expect(loc_eq(prev, (stor_rowloc){7, 1, 99}), "upsert returns the old location");
    cr_expect_eq(stor_pkindex_count(pk), 1);
    cr_expect(stor_pkindex_delete(pk, k.data, k.len, 5, &prev));
    cr_expect(loc_eq(prev, (stor_rowloc){8, 0, 5}), "delete returns the old location");
    cr_expect(!stor_pkindex_delete(pk, k.data, k.len, 6, &prev));
    cr_expect(!stor_pkindex_lookup(pk, k.data, k.len, NULL, NULL));
    cr_expect_eq(stor_pkindex_count(pk), 0);
    /* Key length limits. */
    cr_expect_eq(stor_pkindex_upsert(pk, k.data, 0, loc, 9, NULL, &existed, &err), DB_ERR);
    cr_expect_eq(err.code, 1071);
    uint8_t *big = calloc(STOR_PK_MAX_KEY + 1, 1);
    db_error e2 = {0};
    cr_expect_eq(stor_pkindex_upsert(pk, big, STOR_PK_MAX_KEY + 1, loc, 9, NULL, &existed, &e2),
                 DB_ERR);
    cr_expect_eq(stor_pkindex_upsert(pk, big, STOR_PK_MAX_KEY, loc, 9, NULL, &existed, &e2), DB_OK,
                 "the longest key fits");
    cr_expect(stor_pkindex_lookup(pk, big, STOR_PK_MAX_KEY, NULL, NULL));
    free(big);
    buf_destroy(&k);
    stor_pkindex_free(pk);
}

Test(stor_pkindex, older_version_upsert_is_a_bug, .signal = SIGABRT)
{
    stor_pkindex *pk = stor_pkindex_new();
    bool existed;
    db_error err = {0};
    stor_pkindex_upsert(pk, "k", 1, (stor_rowloc){1, 0, 0}, 5, NULL, &existed, &err);
    stor_pkindex_upsert(pk, "k", 1, (stor_rowloc){1, 0, 1}, 4, NULL, &existed, &err);
}

Test(stor_pkindex, million_random_ops_match_reference)
{
    enum { NKEYS = 150000, NOPS = 1000000 };
    ref_row *ref = calloc(NKEYS, sizeof(ref_row));
    stor_pkindex *pk = stor_pkindex_new();
    buf k;
    buf_init(&k);
    uint64_t s = 0xdeadbeefcafef00dull;
    uint64_t version = 1;
    size_t live = 0;
    db_error err = {0};
    for (uint32_t op = 0; op < NOPS; op++) {
        if (op % 64 == 0) {
            version++;
        }
        uint64_t r = rng_next(&s);
        /* Skew: half the ops hit the first 10% of the keys, so updates and re-inserts happen. */
        uint32_t id = (uint32_t)((r & 1) ? (r >> 8) % (NKEYS / 10) : (r >> 8) % NKEYS);
        make_key(&k, id);
        unsigned kind = (unsigned)((r >> 40) % 8);
        stor_rowloc prev = {0, 0, 0};
        if (kind < 4) {
            stor_rowloc loc = {r >> 48, (uint32_t)(op % 7), op};
            bool existed = false;
            cr_assert_eq(
                    stor_pkindex_upsert(pk, k.data, k.len, loc, version, &prev, &existed, &err),
                    DB_OK);
            cr_assert_eq(existed, ref[id].present, "op %u id %u existed", op, id);
            if (existed) {
                cr_assert(loc_eq(prev, ref[id].loc), "op %u id %u prev", op, id);
            } else {
                live++;
            }
            ref[id] = (ref_row){true, loc, version};
        } else if (kind < 6) {
            bool had = stor_pkindex_delete(pk, k.data, k.len, version, &prev);
            cr_assert_eq(had, ref[id].present, "op %u id %u delete", op, id);
            if (had) {
                cr_assert(loc_eq(prev, ref[id].loc), "op %u id %u delete prev", op, id);
                live--;
            }
            ref[id].present = false;
        } else {
            stor_rowloc loc;
            uint64_t ver;
            bool hit = stor_pkindex_lookup(pk, k.data, k.len, &loc, &ver);
            cr_assert_eq(hit, ref[id].present, "op %u id %u lookup", op, id);
            if (hit) {
                cr_assert(loc_eq(loc, ref[id].loc) && ver == ref[id].version, "op %u id %u", op,
                          id);
            }
        }
    }
    cr_assert_eq(stor_pkindex_count(pk), live);
    for (uint32_t id = 0; id < NKEYS; id++) {
        make_key(&k, id);
        stor_rowloc loc;
        cr_assert_eq(stor_pkindex_lookup(pk, k.data, k.len, &loc, NULL), ref[id].present,
                     "final id %u", id);
    }
    walk_state w = {ref, calloc(NKEYS, 1), 0, NKEYS, true};
    cr_assert(stor_pkindex_foreach(pk, check_item, &w));
    cr_assert(w.ok);
    cr_assert_eq(w.n, live, "foreach visits every key once");
    size_t visited = 0;
    if (live > 0) {
        cr_expect(!stor_pkindex_foreach(pk, stop_at_first, &visited));
        cr_expect_eq(visited, 1, "the walk stops when fn returns false");
    }
    cr_expect_gt(stor_pkindex_memory(pk), live * 8);
    free(w.seen);
    free(ref);
    buf_destroy(&k);
    stor_pkindex_free(pk);
}

Test(stor_pkindex, deletes_compact_the_key_slab)
{
    enum { N = 40000 };
    stor_pkindex *pk = stor_pkindex_new();
    uint8_t key[200];
    bool existed;
    db_error err = {0};
    for (uint32_t i = 0; i < N; i++) {
        memset(key, (int)(i % 251), sizeof(key));
        memcpy(key, &i, sizeof(i));
        cr_assert_eq(stor_pkindex_upsert(pk, key, sizeof(key), (stor_rowloc){1, 0, i}, 1, NULL,
                                         &existed, &err),
                     DB_OK);
    }
    size_t full = stor_pkindex_memory(pk);
    for (uint32_t i = 0; i < N; i++) {
        if (i % 100 != 0) {
            memset(key, (int)(i % 251), sizeof(key));
            memcpy(key, &i, sizeof(i));
            cr_assert(stor_pkindex_delete(pk, key, sizeof(key), 2, NULL));
        }
    }
    cr_expect_eq(stor_pkindex_count(pk), N / 100);
    cr_expect_lt(stor_pkindex_memory(pk), full - (size_t)N * 150,
                 "dead keys are reclaimed: %zu of %zu", stor_pkindex_memory(pk), full);
    for (uint32_t i = 0; i < N; i++) {
        memset(key, (int)(i % 251), sizeof(key));
        memcpy(key, &i, sizeof(i));
        stor_rowloc loc;
        cr_assert_eq(stor_pkindex_lookup(pk, key, sizeof(key), &loc, NULL), i % 100 == 0, "key %u",
                     i);
        if (i % 100 == 0) {
            cr_assert_eq(loc.row, i);
        }
    }
    stor_pkindex_free(pk);
}

Test(stor_pkindex, rebuild_keeps_the_newest_version)
{
    stor_pkindex *pk = stor_pkindex_new();
    bool existed;
    db_error err = {0};
    stor_pkindex_upsert(pk, "stale", 5, (stor_rowloc){1, 0, 0}, 1, NULL, &existed, &err);
    stor_pk_item items[] = {
            {(const uint8_t *)"a", 1, {1, 0, 0}, 1}, {(const uint8_t *)"b", 1, {1, 0, 1}, 1},
            {(const uint8_t *)"a", 1, {2, 0, 0}, 2}, {(const uint8_t *)"b", 1, {3, 0, 9}, 0},
            {(const uint8_t *)"c", 1, {4, 1, 2}, 3}, {(const uint8_t *)"c", 1, {5, 1, 3}, 3},
    };
    cr_assert_eq(stor_pkindex_rebuild(pk, items, 6, &err), DB_OK);
    cr_expect_eq(stor_pkindex_count(pk), 3);
    cr_expect(!stor_pkindex_lookup(pk, "stale", 5, NULL, NULL), "rebuild replaces the contents");
    stor_rowloc loc;
    uint64_t ver;
    cr_assert(stor_pkindex_lookup(pk, "a", 1, &loc, &ver));
    cr_expect(loc_eq(loc, (stor_rowloc){2, 0, 0}) && ver == 2, "higher version wins");
    cr_assert(stor_pkindex_lookup(pk, "b", 1, &loc, &ver));
    cr_expect(loc_eq(loc, (stor_rowloc){1, 0, 1}) && ver == 1, "lower version loses");
    cr_assert(stor_pkindex_lookup(pk, "c", 1, &loc, &ver));
    cr_expect(loc_eq(loc, (stor_rowloc){5, 1, 3}), "on a tie the later item wins");
    /* A big rebuild, then normal operation continues. */
    enum { N = 50000 };
    stor_pk_item *many = calloc(N, sizeof(*many));
    uint32_t *ids = calloc(N, sizeof(*ids));
    for (uint32_t i = 0; i < N; i++) {
        ids[i] = i * 7919u;
        many[i] = (stor_pk_item){(const uint8_t *)&ids[i], sizeof(ids[i]), {9, 0, i}, 4};
    }
    cr_assert_eq(stor_pkindex_rebuild(pk, many, N, &err), DB_OK);
    cr_expect_eq(stor_pkindex_count(pk), N);
    for (uint32_t i = 0; i < N; i += 97) {
        cr_assert(stor_pkindex_lookup(pk, &ids[i], sizeof(ids[i]), &loc, NULL));
        cr_assert_eq(loc.row, i);
    }
    cr_expect(!stor_pkindex_lookup(pk, "a", 1, NULL, NULL));
    stor_rowloc prev;
    cr_assert_eq(stor_pkindex_upsert(pk, &ids[5], sizeof(ids[5]), (stor_rowloc){10, 0, 0}, 5, &prev,
                                     &existed, &err),
                 DB_OK);
    cr_expect(existed && prev.row == 5);
    /* A bad item leaves the index empty. */
    stor_pk_item bad[] = {{(const uint8_t *)"a", 1, {1, 0, 0}, 1},
                          {(const uint8_t *)"", 0, {1, 0, 1}, 1}};
    cr_expect_eq(stor_pkindex_rebuild(pk, bad, 2, &err), DB_ERR);
    cr_expect_eq(err.code, 1071);
    cr_expect_eq(stor_pkindex_count(pk), 0);
    stor_pkindex_clear(pk);
    cr_expect_eq(stor_pkindex_count(pk), 0);
    free(many);
    free(ids);
    stor_pkindex_free(pk);
}
