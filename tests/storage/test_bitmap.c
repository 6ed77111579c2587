/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for storage/stor_bitmap: versioned visibility of delete marks, merged bitmaps as of a
 * version, the encoding of additions (round trip, corrupt and truncated input), and the
 * compaction helpers, checked against a naive model where it matters. */
#include <criterion/criterion.h>
#include <roaring/roaring.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/crc32c.h"
#include "storage/storage.h"

/* A naive model: every mark ever made, as (rowset, segment, row, version). */
typedef struct model_mark {
    uint64_t rowset;
    uint32_t seg;
    uint32_t row;
    uint64_t version;
} model_mark;

static bool model_deleted(const model_mark *m, size_t n, uint64_t rowset, uint32_t seg,
                          uint32_t row, uint64_t rv);
static uint64_t rng_next(uint64_t *s);
static void mark1(stor_dbm *d, uint64_t rowset, uint32_t seg, uint32_t row, uint64_t v);
static void small_blob(buf *b);
static void expect_small_blob_applied(const stor_dbm *d);
static uint64_t dbm_fingerprint(const stor_dbm *d, uint64_t rv);

static bool
model_deleted(const model_mark *m, size_t n, uint64_t rowset, uint32_t seg, uint32_t row,
              uint64_t rv)
{
    for (size_t i = 0; i < n; i++) {
        if (m[i].rowset == rowset && m[i].seg == seg && m[i].row == row && m[i].version <= rv) {
            return true;
        }
    }
    return false;
}

static uint64_t
rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void
mark1(stor_dbm *d, uint64_t rowset, uint32_t seg, uint32_t row, uint64_t v)
{
    stor_dbm_mark(d, rowset, seg, &row, 1, v);
}

/* Marks used by the encoding tests: two segments, versions 2 and 3. */
static void
small_blob(buf *b)
{
    stor_dbm *d = stor_dbm_new();
    uint32_t a[] = {1, 5, 9, 70000};
    uint32_t c[] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    stor_dbm_mark(d, 7, 0, a, 4, 2);
    stor_dbm_mark(d, 7, 1, c, 10, 3);
    buf_init(b);
    stor_dbm_encode(d, 0, UINT64_MAX, b);
    stor_dbm_free(d);
}

static void
expect_small_blob_applied(const stor_dbm *d)
{
    cr_expect(stor_dbm_is_deleted(d, 7, 0, 70000, 2));
    cr_expect(!stor_dbm_is_deleted(d, 7, 0, 70000, 1));
    cr_expect(!stor_dbm_is_deleted(d, 7, 0, 2, 9));
    cr_expect_eq(stor_dbm_count(d, 7, 0, 9), 4);
    cr_expect_eq(stor_dbm_count(d, 7, 1, 9), 10);
    cr_expect_eq(stor_dbm_count(d, 7, 1, 2), 0);
    cr_expect(stor_dbm_is_deleted(d, 7, 1, 12, 3));
    cr_expect_eq(stor_dbm_nsegments(d), 2);
}

/* A hash of everything readable at rv, to compare two sets. */
static uint64_t
dbm_fingerprint(const stor_dbm *d, uint64_t rv)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t rs = 0; rs < 8; rs++) {
        for (uint32_t seg = 0; seg < 4; seg++) {
            roaring_bitmap_t *m = stor_dbm_merged(d, rs, seg, rv);
            roaring_uint32_iterator_t *it = roaring_create_iterator(m);
            while (it->has_value) {
                h = (h ^ (rs << 40 ^ (uint64_t)seg << 32 ^ it->current_value)) * 1099511628211ull;
                roaring_advance_uint32_iterator(it);
            }
            roaring_free_uint32_iterator(it);
            roaring_bitmap_free(m);
        }
    }
    return h;
}

Test(stor_bitmap, later_marks_invisible_to_earlier_reads)
{
    stor_dbm *d = stor_dbm_new();
    mark1(d, 1, 0, 10, 3);
    cr_expect(!stor_dbm_is_deleted(d, 1, 0, 10, 2), "a mark at v3 must be invisible at v2");
    cr_expect(stor_dbm_is_deleted(d, 1, 0, 10, 3));
    cr_expect(stor_dbm_is_deleted(d, 1, 0, 10, 100));
    cr_expect(!stor_dbm_is_deleted(d, 1, 0, 11, 100), "other rows stay visible");
    cr_expect(!stor_dbm_is_deleted(d, 1, 1, 10, 100), "other segments are independent");
    cr_expect(!stor_dbm_is_deleted(d, 2, 0, 10, 100), "other rowsets are independent");
    mark1(d, 1, 0, 11, 5);
    cr_expect(!stor_dbm_is_deleted(d, 1, 0, 11, 4));
    cr_expect(stor_dbm_is_deleted(d, 1, 0, 11, 5));
    cr_expect(stor_dbm_is_deleted(d, 1, 0, 10, 5));
    stor_dbm_free(d);
}

Test(stor_bitmap, same_version_marks_merge)
{
    stor_dbm *d = stor_dbm_new();
    uint32_t a[] = {1, 2, 3};
    uint32_t b[] = {3, 4};
    stor_dbm_mark(d, 1, 0, a, 3, 4);
    stor_dbm_mark(d, 1, 0, b, 2, 4);
    stor_dbm_mark(d, 1, 0, NULL, 0, 9); /* nothing to mark: no version appears */
    cr_expect_eq(stor_dbm_count(d, 1, 0, 4), 4);
    cr_expect_eq(stor_dbm_count(d, 1, 0, 3), 0);
    buf out;
    buf_init(&out);
    stor_dbm_encode(d, 4, 4, &out);
    stor_dbm *e = stor_dbm_new();
    db_error err = {0};
    cr_assert_eq(stor_dbm_apply(e, out.data, out.len, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(stor_dbm_count(e, 1, 0, 4), 4);
    buf_clear(&out);
    stor_dbm_encode(d, 5, 9, &out);
    stor_dbm *f = stor_dbm_new();
    cr_assert_eq(stor_dbm_apply(f, out.data, out.len, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(stor_dbm_nsegments(f), 0, "an empty mark must not create a version");
    buf_destroy(&out);
    stor_dbm_free(d);
    stor_dbm_free(e);
    stor_dbm_free(f);
}

Test(stor_bitmap, older_mark_is_a_bug, .signal = SIGABRT)
{
    stor_dbm *d = stor_dbm_new();
    mark1(d, 1, 0, 1, 5);
    mark1(d, 1, 0, 2, 4);
}

Test(stor_bitmap, merged_as_of_version)
{
    stor_dbm *d = stor_dbm_new();
    uint32_t v1[] = {1, 2};
    uint32_t v3[] = {5, 100000};
    uint32_t v5[] = {2, 7};
    stor_dbm_mark(d, 9, 2, v1, 2, 1);
    stor_dbm_mark(d, 9, 2, v3, 2, 3);
    stor_dbm_mark(d, 9, 2, v5, 2, 5);
    struct {
        uint64_t rv;
        uint32_t want[6];
        size_t n;
    } cases[] = {
            {0, {0}, 0},
            {1, {1, 2}, 2},
            {2, {1, 2}, 2},
            {4, {1, 2, 5, 100000}, 4},
            {5, {1, 2, 5, 7, 100000}, 5},
            {UINT64_MAX, {1, 2, 5, 7, 100000}, 5},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        roaring_bitmap_t *m = stor_dbm_merged(d, 9, 2, cases[c].rv);
        cr_assert_not_null(m);
        cr_expect_eq(roaring_bitmap_get_cardinality(m), cases[c].n, "rv %llu",
                     (unsigned long long)cases[c].rv);
        for (size_t i = 0; i < cases[c].n; i++) {
            cr_expect(roaring_bitmap_contains(m, cases[c].want[i]), "rv %llu row %u",
                      (unsigned long long)cases[c].rv, cases[c].want[i]);
        }
        roaring_bitmap_free(m);
    }
    roaring_bitmap_t *none = stor_dbm_merged(d, 9, 3, UINT64_MAX);
    cr_expect_eq(roaring_bitmap_get_cardinality(none), 0);
    roaring_bitmap_free(none);
    stor_dbm_free(d);
}

Test(stor_bitmap, random_marks_match_model)
{
    enum { NMARKS = 3000, NQUERIES = 20000 };
    model_mark *m = calloc(NMARKS, sizeof(*m));
    stor_dbm *d = stor_dbm_new();
    uint64_t s = 0x9e3779b97f4a7c15ull;
    uint64_t v = 1;
    for (size_t i = 0; i < NMARKS; i++) {
        if (rng_next(&s) % 4 == 0) {
            v++;
        }
        m[i] = (model_mark){rng_next(&s) % 4, (uint32_t)(rng_next(&s) % 3),
                            (uint32_t)(rng_next(&s) % 2000), v};
        mark1(d, m[i].rowset, m[i].seg, m[i].row, v);
    }
    for (size_t q = 0; q < NQUERIES; q++) {
        uint64_t rs = rng_next(&s) % 5;
        uint32_t seg = (uint32_t)(rng_next(&s) % 4);
        uint32_t row = (uint32_t)(rng_next(&s) % 2100);
        uint64_t rv = rng_next(&s) % (v + 2);
        cr_assert_eq(stor_dbm_is_deleted(d, rs, seg, row, rv),
                     model_deleted(m, NMARKS, rs, seg, row, rv), "rs %llu seg %u row %u rv %llu",
                     (unsigned long long)rs, seg, row, (unsigned long long)rv);
    }
    free(m);
    stor_dbm_free(d);
}

Test(stor_bitmap, encode_round_trip)
{
    stor_dbm *d = stor_dbm_new();
    uint64_t s = 12345;
    for (uint64_t v = 1; v <= 40; v++) {
        for (int k = 0; k < 30; k++) {
            uint32_t row = (uint32_t)(rng_next(&s) % 200000);
            mark1(d, rng_next(&s) % 8, (uint32_t)(rng_next(&s) % 4), row, v);
        }
        uint32_t run[500]; /* a dense run, stored as a run container */
        for (uint32_t i = 0; i < 500; i++) {
            run[i] = (uint32_t)v * 1000 + i;
        }
        stor_dbm_mark(d, v % 8, 0, run, 500, v);
    }
    /* Whole set, written after unrelated bytes already in the buffer. */
    buf out;
    buf_init(&out);
    buf_append_str(&out, "prefix");
    stor_dbm_encode(d, 0, UINT64_MAX, &out);
    stor_dbm *e = stor_dbm_new();
    db_error err = {0};
    cr_assert_eq(stor_dbm_apply(e, out.data + 6, out.len - 6, &err), DB_OK, "%s", err.msg);
    for (uint64_t rv = 0; rv <= 41; rv++) {
        cr_assert_eq(dbm_fingerprint(d, rv), dbm_fingerprint(e, rv), "rv %llu",
                     (unsigned long long)rv);
    }
    /* Version by version, as commit records replayed in order. */
    stor_dbm *f = stor_dbm_new();
    for (uint64_t v = 1; v <= 40; v++) {
        buf_clear(&out);
        stor_dbm_encode(d, v, v, &out);
        cr_assert_eq(stor_dbm_apply(f, out.data, out.len, &err), DB_OK, "v %llu: %s",
                     (unsigned long long)v, err.msg);
    }
    cr_expect_eq(dbm_fingerprint(d, 17), dbm_fingerprint(f, 17));
    cr_expect_eq(dbm_fingerprint(d, 40), dbm_fingerprint(f, 40));
    cr_expect_neq(dbm_fingerprint(d, 17), dbm_fingerprint(d, 40), "fingerprint sees versions");
    /* Replaying an older version after a newer one is rejected, leaving f unchanged. */
    buf_clear(&out);
    stor_dbm_encode(d, 3, 3, &out);
    uint64_t before = dbm_fingerprint(f, UINT64_MAX);
    cr_expect_eq(stor_dbm_apply(f, out.data, out.len, &err), DB_ERR);
    cr_expect_eq(err.code, 1105);
    cr_expect_eq(dbm_fingerprint(f, UINT64_MAX), before);
    buf_destroy(&out);
    stor_dbm_free(d);
    stor_dbm_free(e);
    stor_dbm_free(f);
}

Test(stor_bitmap, every_flipped_or_truncated_byte_is_rejected)
{
    buf b;
    small_blob(&b);
    stor_dbm *ok = stor_dbm_new();
    db_error err = {0};
    cr_assert_eq(stor_dbm_apply(ok, b.data, b.len, &err), DB_OK, "%s", err.msg);
    expect_small_blob_applied(ok);
    stor_dbm_free(ok);

    uint8_t *copy = malloc(b.len + 1);
    const uint8_t masks[] = {0x01, 0x10, 0x80, 0xff};
    for (size_t i = 0; i < b.len; i++) {
        for (size_t k = 0; k < sizeof(masks); k++) {
            memcpy(copy, b.data, b.len);
            copy[i] ^= masks[k];
            stor_dbm *d = stor_dbm_new();
            db_error e2 = {0};
            cr_assert_eq(stor_dbm_apply(d, copy, b.len, &e2), DB_ERR, "flip byte %zu by 0x%02x", i,
                         masks[k]);
            cr_assert_eq(e2.code, 1105);
            cr_assert_eq(stor_dbm_nsegments(d), 0, "a failed apply changes nothing");
            stor_dbm_free(d);
        }
    }
    for (size_t len = 0; len < b.len; len++) {
        stor_dbm *d = stor_dbm_new();
        db_error e2 = {0};
        memcpy(copy, b.data, len);
        cr_assert_eq(stor_dbm_apply(d, copy, len, &e2), DB_ERR, "truncated to %zu", len);
        cr_assert_eq(stor_dbm_nsegments(d), 0);
        stor_dbm_free(d);
    }
    memcpy(copy, b.data, b.len);
    copy[b.len] = 0;
    stor_dbm *d = stor_dbm_new();
    cr_expect_eq(stor_dbm_apply(d, copy, b.len + 1, &err), DB_ERR, "trailing byte");
    stor_dbm_free(d);
    free(copy);
    buf_destroy(&b);
}

/* Corrupt the body but fix up the CRC, so the structural checks and the roaring decoder see the
 * damage: every outcome must be DB_ERR (nothing applied) or a set whose answers are consistent. */
Test(stor_bitmap, corrupt_body_with_valid_crc_never_crashes)
{
    buf b;
    small_blob(&b);
    uint8_t *copy = malloc(b.len);
    size_t nerr = 0, nok = 0;
    for (size_t i = 0; i + 4 < b.len; i++) {
        for (unsigned mask = 1; mask < 256; mask <<= 1) {
            memcpy(copy, b.data, b.len);
            copy[i] ^= (uint8_t)mask;
            uint32_t crc = crc32c(copy, b.len - 4);
            for (int k = 0; k < 4; k++) {
                copy[b.len - 4 + k] = (uint8_t)(crc >> (8 * k));
            }
            stor_dbm *d = stor_dbm_new();
            db_error err = {0};
            int rc = stor_dbm_apply(d, copy, b.len, &err);
            if (rc == DB_ERR) {
                nerr++;
                cr_assert_eq(stor_dbm_nsegments(d), 0);
            } else {
                nok++;
                cr_assert_eq(rc, DB_OK);
                for (uint64_t rs = 0; rs < 300; rs += 7) {
                    for (uint32_t seg = 0; seg < 3; seg++) {
                        roaring_bitmap_t *m = stor_dbm_merged(d, rs, seg, UINT64_MAX);
                        cr_assert_eq(stor_dbm_count(d, rs, seg, UINT64_MAX),
                                     roaring_bitmap_get_cardinality(m));
                        roaring_bitmap_free(m);
                    }
                }
            }
            stor_dbm_free(d);
        }
    }
    cr_expect_gt(nerr, 0, "structural damage must be detected");
    cr_expect_gt(nok, 0, "a changed rowset id or row value still decodes");
    free(copy);
    buf_destroy(&b);
}

Test(stor_bitmap, collapse_keeps_answers_at_and_after_the_version)
{
    stor_dbm *d = stor_dbm_new();
    uint64_t s = 777;
    for (uint64_t v = 1; v <= 50; v++) {
        for (int k = 0; k < 20; k++) {
            mark1(d, rng_next(&s) % 8, (uint32_t)(rng_next(&s) % 4),
                  (uint32_t)(rng_next(&s) % 5000), v);
        }
    }
    uint64_t want[51];
    for (uint64_t rv = 30; rv <= 50; rv++) {
        want[rv] = dbm_fingerprint(d, rv);
    }
    size_t mem_before = stor_dbm_memory(d);
    buf tmp;
    buf_init(&tmp);
    stor_dbm_encode(d, 0, 30, &tmp);
    size_t enc_before = tmp.len;
    buf_destroy(&tmp);
    stor_dbm_collapse(d, 30);
    for (uint64_t rv = 30; rv <= 50; rv++) {
        cr_assert_eq(dbm_fingerprint(d, rv), want[rv], "rv %llu after collapse(30)",
                     (unsigned long long)rv);
    }
    cr_expect_lt(stor_dbm_memory(d), mem_before, "collapsing merges bitmaps");
    /* Each segment now holds one mark for versions <= 30, labelled with the newest of them, so
     * the additions of [0, 30] encode smaller and still carry every row visible at 30. */
    buf out;
    buf_init(&out);
    stor_dbm_encode(d, 0, 30, &out);
    cr_expect_lt(out.len, enc_before, "one mark per segment after collapse");
    stor_dbm *e = stor_dbm_new();
    db_error err = {0};
    cr_assert_eq(stor_dbm_apply(e, out.data, out.len, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(dbm_fingerprint(e, 30), want[30]);
    cr_expect_eq(dbm_fingerprint(e, UINT64_MAX), want[30]);
    /* The collapsed set still round-trips and still accepts newer marks. */
    buf_clear(&out);
    stor_dbm_encode(d, 0, UINT64_MAX, &out);
    stor_dbm *f = stor_dbm_new();
    cr_assert_eq(stor_dbm_apply(f, out.data, out.len, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(dbm_fingerprint(f, 40), want[40]);
    mark1(d, 1, 1, 4999999, 51);
    cr_expect(stor_dbm_is_deleted(d, 1, 1, 4999999, 51));
    cr_expect_eq(dbm_fingerprint(d, 50), want[50]);
    buf_destroy(&out);
    stor_dbm_free(d);
    stor_dbm_free(e);
    stor_dbm_free(f);
}

Test(stor_bitmap, drop_segment_and_rowset)
{
    stor_dbm *d = stor_dbm_new();
    for (uint64_t rs = 1; rs <= 3; rs++) {
        for (uint32_t seg = 0; seg < 3; seg++) {
            mark1(d, rs, seg, 5, 1);
        }
    }
    cr_expect_eq(stor_dbm_nsegments(d), 9);
    cr_expect(stor_dbm_drop_segment(d, 2, 1));
    cr_expect(!stor_dbm_drop_segment(d, 2, 1));
    cr_expect(!stor_dbm_is_deleted(d, 2, 1, 5, 9));
    cr_expect(stor_dbm_is_deleted(d, 2, 0, 5, 9));
    cr_expect(stor_dbm_is_deleted(d, 2, 2, 5, 9));
    cr_expect(stor_dbm_drop_rowset(d, 1));
    cr_expect(!stor_dbm_drop_rowset(d, 1));
    cr_expect_eq(stor_dbm_nsegments(d), 5);
    cr_expect(!stor_dbm_is_deleted(d, 1, 0, 5, 9));
    cr_expect(stor_dbm_is_deleted(d, 3, 2, 5, 9));
    /* A dropped segment starts afresh: an older version is accepted again. */
    mark1(d, 2, 1, 6, 1);
    cr_expect(stor_dbm_is_deleted(d, 2, 1, 6, 1));
    stor_dbm_free(d);
}
