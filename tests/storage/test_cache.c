/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of the segment page cache (storage/stor_cache.c) through storage/storage.h: hits and
 * misses, the capacity bound under a random workload, pinning, oversize entries, concurrent
 * readers, and a segment reader with a cache (a re-read is a hit with identical data).
 * See storage/README.md §"Page cache". */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/db_error.h"
#include "storage/storage.h"

static stor_cache_key
key_of(uint64_t file, uint64_t offset)
{
    stor_cache_key k;
    memset(&k, 0, sizeof k);
    k.dev = 1;
    k.ino = file;
    k.file_size = 1u << 20;
    k.offset = offset;
    return k;
}

/* Bytes of page (file, offset), len bytes: a pattern the readers can check. */
static void
pattern(uint8_t *p, size_t len, uint64_t file, uint64_t offset)
{
    for (size_t i = 0; i < len; i++) {
        p[i] = (uint8_t)(file * 31 + offset * 7 + i);
    }
}

static uint64_t
xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

Test(stor_cache, hit_and_miss)
{
    stor_cache *c = stor_cache_new(1 << 20);
    stor_cache_key k = key_of(1, 4096);
    cr_assert_null(stor_cache_lookup(c, &k));
    uint8_t page[100];
    pattern(page, sizeof page, 1, 4096);
    stor_cache_entry *e = stor_cache_insert(c, &k, page, sizeof page);
    cr_assert_not_null(e);
    stor_cache_release(c, e);
    e = stor_cache_lookup(c, &k);
    cr_assert_not_null(e);
    cr_assert_eq(stor_cache_entry_len(e), sizeof page);
    cr_assert_eq(memcmp(stor_cache_entry_data(e), page, sizeof page), 0);
    stor_cache_release(c, e);
    /* Another offset, and the same offset in another file, are misses. */
    stor_cache_key k2 = key_of(1, 8192), k3 = key_of(2, 4096);
    cr_assert_null(stor_cache_lookup(c, &k2));
    cr_assert_null(stor_cache_lookup(c, &k3));
    /* Inserting an existing key returns the cached entry, not a second one. */
    uint8_t other[100] = {0};
    e = stor_cache_insert(c, &k, other, sizeof other);
    cr_assert_not_null(e);
    cr_assert_eq(memcmp(stor_cache_entry_data(e), page, sizeof page), 0);
    stor_cache_release(c, e);
    stor_cache_stats st = stor_cache_get_stats(c);
    cr_assert_eq(st.hits, 1);
    cr_assert_eq(st.misses, 3);
    cr_assert_eq(st.inserts, 1);
    cr_assert_eq(st.entries, 1);
    cr_assert_eq(st.bytes, stor_cache_charge(sizeof page));
    cr_assert_eq(st.evictions, 0);
    stor_cache_free(c);
}

Test(stor_cache, capacity_never_exceeded)
{
    const size_t cap = 64 * 1024;
    stor_cache *c = stor_cache_new(cap);
    uint8_t pg[8192];
    uint64_t x = 0x1234567;
    uint64_t inserted = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t off = xorshift(&x) % 200;
        size_t len = (size_t)(xorshift(&x) % sizeof pg);
        stor_cache_key k = key_of(7, off);
        stor_cache_entry *e = stor_cache_lookup(c, &k);
        if (e == NULL) {
            pattern(pg, len, 7, off);
            e = stor_cache_insert(c, &k, pg, len);
            inserted += e != NULL;
        } else {
            size_t elen = stor_cache_entry_len(e);
            pattern(pg, elen, 7, off);
            cr_assert_eq(memcmp(stor_cache_entry_data(e), pg, elen), 0);
        }
        if (e != NULL) {
            stor_cache_release(c, e);
        }
        stor_cache_stats st = stor_cache_get_stats(c);
        cr_assert_leq(st.bytes, cap, "bytes %llu > capacity after op %d",
                      (unsigned long long)st.bytes, i);
    }
    stor_cache_stats st = stor_cache_get_stats(c);
    cr_assert_gt(st.evictions, 0);
    cr_assert_gt(st.hits, 0);
    cr_assert_eq(st.inserts, inserted);
    cr_assert_eq(st.inserts - st.evictions, st.entries);
    stor_cache_free(c);
}

Test(stor_cache, pinned_entries_survive_eviction)
{
    const size_t len = 1000;
    const size_t cap = 10 * stor_cache_charge(len);
    stor_cache *c = stor_cache_new(cap);
    uint8_t pg[1000];
    stor_cache_entry *pinned[3];
    for (uint64_t i = 0; i < 3; i++) {
        stor_cache_key k = key_of(3, i);
        pattern(pg, len, 3, i);
        pinned[i] = stor_cache_insert(c, &k, pg, len);
        cr_assert_not_null(pinned[i]);
        if (i == 2) { /* the last one is pinned by a lookup instead of by its insert */
            stor_cache_release(c, pinned[i]);
            pinned[i] = stor_cache_lookup(c, &k);
            cr_assert_not_null(pinned[i]);
        }
    }
    /* Heavy pressure: far more than the capacity goes through the cache. */
    for (uint64_t i = 100; i < 1100; i++) {
        stor_cache_key k = key_of(3, i);
        pattern(pg, len, 3, i);
        stor_cache_entry *e = stor_cache_insert(c, &k, pg, len);
        cr_assert_not_null(e);
        stor_cache_release(c, e);
        cr_assert_leq(stor_cache_get_stats(c).bytes, cap);
    }
    cr_assert_gt(stor_cache_get_stats(c).evictions, 900);
    for (uint64_t i = 0; i < 3; i++) {
        pattern(pg, len, 3, i);
        cr_assert_eq(memcmp(stor_cache_entry_data(pinned[i]), pg, len), 0);
        stor_cache_key k = key_of(3, i);
        stor_cache_entry *e = stor_cache_lookup(c, &k);
        cr_assert_eq(e, pinned[i], "pinned entry %llu was evicted", (unsigned long long)i);
        stor_cache_release(c, e);
    }
    /* With every slot pinned, a new entry is not cached rather than overflowing. */
    stor_cache_entry *all[10];
    for (uint64_t i = 0; i < 3; i++) {
        all[i] = pinned[i];
    }
    for (uint64_t i = 3; i < 10; i++) {
        stor_cache_key k = key_of(4, i);
        all[i] = stor_cache_insert(c, &k, pg, len);
        cr_assert_not_null(all[i]);
    }
    stor_cache_key k = key_of(5, 0);
    cr_assert_null(stor_cache_insert(c, &k, pg, len));
    cr_assert_leq(stor_cache_get_stats(c).bytes, cap);
    /* Released entries become evictable again. */
    for (int i = 0; i < 10; i++) {
        stor_cache_release(c, all[i]);
    }
    stor_cache_entry *e = stor_cache_insert(c, &k, pg, len);
    cr_assert_not_null(e);
    stor_cache_release(c, e);
    stor_cache_free(c);
}

Test(stor_cache, oversize_entries_not_cached)
{
    const size_t cap = 4096;
    stor_cache *c = stor_cache_new(cap);
    static uint8_t big[8192];
    stor_cache_key k = key_of(9, 0);
    cr_assert_null(stor_cache_insert(c, &k, big, sizeof big));
    cr_assert_null(stor_cache_insert(c, &k, big, cap)); /* cap + overhead > cap */
    cr_assert_null(stor_cache_lookup(c, &k));
    size_t fits = cap - stor_cache_charge(0);
    stor_cache_entry *e = stor_cache_insert(c, &k, big, fits);
    cr_assert_not_null(e);
    stor_cache_release(c, e);
    stor_cache_stats st = stor_cache_get_stats(c);
    cr_assert_eq(st.rejects, 2);
    cr_assert_eq(st.bytes, cap);
    stor_cache_free(c);

    /* Capacity 0 caches nothing. */
    c = stor_cache_new(0);
    cr_assert_null(stor_cache_insert(c, &k, big, 1));
    cr_assert_eq(stor_cache_get_stats(c).bytes, 0);
    stor_cache_free(c);
}

/* ---- concurrent readers ---- */

typedef struct worker_arg {
    stor_cache *c;
    uint64_t seed;
    uint64_t bad; /* entries whose bytes did not match their key */
} worker_arg;

static void *
worker(void *p)
{
    worker_arg *w = p;
    uint8_t pg[3000], want[3000];
    uint64_t x = w->seed;
    for (int i = 0; i < 20000; i++) {
        uint64_t off = xorshift(&x) % 500;
        /* The length is a function of the key, so every thread inserts the same page bytes. */
        size_t len = (size_t)(off * 37 % sizeof pg);
        stor_cache_key k = key_of(11, off);
        stor_cache_entry *e = stor_cache_lookup(w->c, &k);
        if (e == NULL) {
            pattern(pg, len, 11, off);
            e = stor_cache_insert(w->c, &k, pg, len);
        }
        if (e != NULL) {
            pattern(want, len, 11, off);
            if (stor_cache_entry_len(e) != len ||
                memcmp(stor_cache_entry_data(e), want, len) != 0) {
                w->bad++;
            }
            stor_cache_release(w->c, e);
        }
    }
    return NULL;
}

Test(stor_cache, concurrent_readers)
{
    /* 64 MiB would use 16 shards; a small capacity forces constant eviction across threads. */
    const size_t caps[2] = {200 * 1024, (size_t)64 << 20};
    for (int ci = 0; ci < 2; ci++) {
        stor_cache *c = stor_cache_new(caps[ci]);
        pthread_t t[4];
        worker_arg w[4];
        for (int i = 0; i < 4; i++) {
            w[i] = (worker_arg){.c = c, .seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1)};
            cr_assert_eq(pthread_create(&t[i], NULL, worker, &w[i]), 0);
        }
        for (int i = 0; i < 4; i++) {
            cr_assert_eq(pthread_join(t[i], NULL), 0);
            cr_assert_eq(w[i].bad, 0);
        }
        stor_cache_stats st = stor_cache_get_stats(c);
        cr_assert_leq(st.bytes, caps[ci]);
        cr_assert_eq(st.hits + st.misses, 4 * 20000);
        cr_assert_gt(st.hits, 0);
        cr_assert_eq(st.inserts - st.evictions, st.entries);
        if (ci == 0) {
            cr_assert_gt(st.evictions, 0);
        }
        stor_cache_free(c);
    }
}

/* ---- through the segment reader ---- */

Test(stor_cache, segment_reader_rereads_from_cache)
{
    char dir[] = "/tmp/stor_cache_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/a.seg", dir);
    stor_column_desc d[2] = {
            {.uid = 1, .type = cat_type_make(CAT_T_BIGINT), .is_key = true},
            {.uid = 2, .type = cat_type_varchar(32), .nullable = true},
    };
    db_error err = {0};
    arena *a = arena_new(0);
    const uint32_t n = 5000;
    stor_vec v[2];
    memset(v, 0, sizeof v);
    v[0].kind = STOR_VEC_I64;
    v[0].n = n;
    v[0].i64 = arena_alloc(a, n * 8);
    v[1].kind = STOR_VEC_BYTES;
    v[1].n = n;
    v[1].nulls = arena_calloc(a, 1, n / 8 + 1);
    v[1].offs = arena_alloc(a, (n + 1) * 8);
    v[1].data = arena_alloc(a, n * 8);
    v[1].offs[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        v[0].i64[i] = (int64_t)i * 3 - 7000;
        int len = snprintf((char *)v[1].data + v[1].offs[i], 8, "s%u", i % 977);
        v[1].offs[i + 1] = v[1].offs[i] + (uint64_t)len;
        if (i % 13 == 0) {
            v[1].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
            v[1].offs[i + 1] = v[1].offs[i];
        }
    }
    stor_segment_opts o = {.page_bytes = 4096, .no_fsync = true};
    stor_segment_writer *w = stor_segment_writer_open(path, 2, d, &o, &err);
    cr_assert_not_null(w, "%s", err.msg);
    cr_assert_eq(stor_segment_writer_append(w, v, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(stor_segment_writer_finish(w, NULL, &err), DB_OK, "%s", err.msg);

    stor_cache *c = stor_cache_new(1 << 20);
    stor_segment_reader *plain = stor_segment_reader_open(path, &err);
    stor_segment_reader *r = stor_segment_reader_open(path, &err);
    cr_assert_not_null(plain, "%s", err.msg);
    cr_assert_not_null(r, "%s", err.msg);
    stor_segment_reader_set_cache(r, c);
    cr_assert_gt(stor_segment_reader_npages(r, 1), 2);
    for (uint32_t col = 0; col < 2; col++) {
        stor_vec want, first, second;
        cr_assert_eq(stor_segment_read_page(plain, col, 1, a, &want, &err), DB_OK);
        stor_cache_stats s0 = stor_cache_get_stats(c);
        cr_assert_eq(stor_segment_read_page(r, col, 1, a, &first, &err), DB_OK, "%s", err.msg);
        stor_cache_stats s1 = stor_cache_get_stats(c);
        cr_assert_eq(stor_segment_read_page(r, col, 1, a, &second, &err), DB_OK, "%s", err.msg);
        stor_cache_stats s2 = stor_cache_get_stats(c);
        cr_assert_eq(s1.misses - s0.misses, 1);
        cr_assert_eq(s1.hits - s0.hits, 0);
        cr_assert_eq(s2.misses - s1.misses, 0);
        cr_assert_eq(s2.hits - s1.hits, 1);
        const stor_vec *got[2] = {&first, &second};
        for (int g = 0; g < 2; g++) {
            cr_assert_eq(got[g]->n, want.n);
            cr_assert_eq((got[g]->nulls == NULL), (want.nulls == NULL));
            if (want.nulls != NULL) {
                cr_assert_eq(memcmp(got[g]->nulls, want.nulls, (want.n + 7) / 8), 0);
            }
            if (col == 0) {
                cr_assert_eq(memcmp(got[g]->i64, want.i64, (size_t)want.n * 8), 0);
            } else {
                cr_assert_eq(memcmp(got[g]->offs, want.offs, ((size_t)want.n + 1) * 8), 0);
                cr_assert_eq(memcmp(got[g]->data, want.data, want.offs[want.n]), 0);
            }
        }
    }
    /* A second reader of the same file shares the cached pages; whole-column reads agree. */
    stor_segment_reader *r2 = stor_segment_reader_open(path, &err);
    cr_assert_not_null(r2);
    stor_segment_reader_set_cache(r2, c);
    stor_cache_stats s0 = stor_cache_get_stats(c);
    stor_vec x;
    cr_assert_eq(stor_segment_read_page(r2, 0, 1, a, &x, &err), DB_OK);
    cr_assert_eq(stor_cache_get_stats(c).hits - s0.hits, 1);
    stor_vec all_plain, all_cached, all_again;
    cr_assert_eq(stor_segment_read_rows(plain, 1, 0, n, a, &all_plain, &err), DB_OK);
    cr_assert_eq(stor_segment_read_rows(r2, 1, 0, n, a, &all_cached, &err), DB_OK);
    cr_assert_eq(stor_segment_read_rows(r, 1, 0, n, a, &all_again, &err), DB_OK);
    cr_assert_eq(memcmp(all_plain.offs, all_cached.offs, ((size_t)n + 1) * 8), 0);
    cr_assert_eq(memcmp(all_plain.offs, all_again.offs, ((size_t)n + 1) * 8), 0);
    cr_assert_eq(memcmp(all_plain.data, all_again.data, all_plain.offs[n]), 0);
    cr_assert_eq(memcmp(all_plain.nulls, all_again.nulls, (n + 7) / 8), 0);

    stor_segment_reader_close(r2);
    stor_segment_reader_close(r);
    stor_segment_reader_close(plain);
    stor_cache_free(c);
    arena_free(a);
    unlink(path);
    rmdir(dir);
}
