/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of the storage writer (storage/stor_writer.c): memtables, the chain (sort/dedup,
 * MoW lookup, added stages, encode) and commit, with a real edit log, TSO and segment files in a
 * temporary directory. White-box only for the tablet's primary-key index (storage/stor_int.h). */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <pthread.h>
#include <roaring/roaring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/stor_int.h"
#include "storage/storage.h"

#include "stor_testutil.h"

#define NUL  INT64_MIN /* a NULL cell in the row specs below */
#define PART 5         /* partition id of every test table */

static void
setup(void)
{
    stu_dirs_setup("/tmp/stor_wr_XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

/* ---- environment: edit log, TSO, engine ---- */

static void
env_open(stu_env *v)
{
    stu_env_open(v, STU_ENV_TSO, 8 << 20);
}

/* ---- schemas, built by hand ---- */

/* DUP: stu_dup_schema (k BIGINT key, v VARCHAR). MoW: k BIGINT key, v BIGINT, s VARCHAR, seq
 * BIGINT, delete sign. */
enum { C_K, C_V, C_S, C_SEQ, C_DS, NCOLS };

static stor_column_desc mow_cols[NCOLS];

static stor_schema
mow_schema(bool with_seq)
{
    mow_cols[C_K] = (stor_column_desc){1, cat_type_make(CAT_T_BIGINT), true, false};
    mow_cols[C_V] = (stor_column_desc){2, cat_type_make(CAT_T_BIGINT), false, true};
    mow_cols[C_S] = (stor_column_desc){3, cat_type_varchar(32), false, true};
    mow_cols[C_SEQ] = (stor_column_desc){4, cat_type_make(CAT_T_BIGINT), false, true};
    mow_cols[C_DS] = (stor_column_desc){5, cat_type_make(CAT_T_TINYINT), false, false};
    return (stor_schema){.table_id = 1,
                         .keys = CAT_KEYS_UNIQUE,
                         .mow = true,
                         .ncols = NCOLS,
                         .cols = mow_cols,
                         .nkeys = 1,
                         .seq_col = with_seq ? C_SEQ : -1,
                         .delete_sign_col = C_DS};
}

/* ---- building vectors ---- */

typedef struct row {
    int64_t k, v;  /* v: NUL = NULL */
    const char *s; /* NULL = NULL */
    int64_t seq, ds;
} row;

/* A vector of n i64 values (NUL = NULL) in arena a. */
static stor_vec
vec_i64(arena *a, const int64_t *vals, uint32_t n)
{
    stor_vec v = {.kind = STOR_VEC_I64, .n = n};
    v.i64 = arena_alloc(a, (n + 1) * sizeof *v.i64);
    uint8_t *nulls = arena_calloc(a, n / 8 + 1, 1);
    bool any = false;
    for (uint32_t r = 0; r < n; r++) {
        v.i64[r] = vals[r] == NUL ? 0 : vals[r];
        if (vals[r] == NUL) {
            nulls[r / 8] |= (uint8_t)(1u << (r % 8));
            any = true;
        }
    }
    v.nulls = any ? nulls : NULL;
    return v;
}

static stor_vec
vec_str(arena *a, const char *const *vals, uint32_t n)
{
    stor_vec v = {.kind = STOR_VEC_BYTES, .n = n};
    v.offs = arena_alloc(a, (n + 1) * sizeof *v.offs);
    size_t total = 0;
    for (uint32_t r = 0; r < n; r++) {
        total += vals[r] != NULL ? strlen(vals[r]) : 0;
    }
    v.data = arena_alloc(a, total + 1);
    uint8_t *nulls = arena_calloc(a, n / 8 + 1, 1);
    bool any = false;
    v.offs[0] = 0;
    for (uint32_t r = 0; r < n; r++) {
        size_t len = vals[r] != NULL ? strlen(vals[r]) : 0;
        memcpy(v.data + v.offs[r], vals[r] != NULL ? vals[r] : "", len);
        v.offs[r + 1] = v.offs[r] + len;
        if (vals[r] == NULL) {
            nulls[r / 8] |= (uint8_t)(1u << (r % 8));
            any = true;
        }
    }
    v.nulls = any ? nulls : NULL;
    return v;
}

/* Put rows[0..n) into the MoW table's bucket. */
static void
put_mow(stor_writer *w, const stor_schema *sc, uint32_t bucket, const row *rows, uint32_t n,
        const bool *given)
{
    arena *a = arena_new(0);
    int64_t *k = arena_alloc(a, (n + 1) * 8), *v = arena_alloc(a, (n + 1) * 8);
    int64_t *seq = arena_alloc(a, (n + 1) * 8), *ds = arena_alloc(a, (n + 1) * 8);
    const char **s = arena_alloc(a, (n + 1) * sizeof *s);
    for (uint32_t r = 0; r < n; r++) {
        k[r] = rows[r].k;
        v[r] = rows[r].v;
        s[r] = rows[r].s;
        seq[r] = rows[r].seq;
        ds[r] = rows[r].ds;
    }
    stor_vec cols[NCOLS] = {vec_i64(a, k, n), vec_i64(a, v, n), vec_str(a, s, n),
                            vec_i64(a, seq, n), vec_i64(a, ds, n)};
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_writer_put(w, sc, PART, bucket, cols, n, given, &e), DB_OK, "%s", e.msg);
    arena_free(a);
}

/* Put keys [from, to) with v = k * mul, s = "s<k>", seq NULL, no delete sign. */
static void
put_range(stor_writer *w, const stor_schema *sc, int64_t from, int64_t to, int64_t mul)
{
    uint32_t n = (uint32_t)(to - from);
    row *rows = mem_calloc(n + 1, sizeof *rows);
    char(*strs)[24] = mem_calloc(n + 1, sizeof *strs);
    for (uint32_t i = 0; i < n; i++) {
        int64_t k = from + i;
        snprintf(strs[i], sizeof strs[i], "s%" PRId64, k);
        rows[i] = (row){k, k * mul, strs[i], NUL, 0};
    }
    put_mow(w, sc, 0, rows, n, NULL);
    mem_free(strs);
    mem_free(rows);
}

/* ---- reading back ---- */

typedef struct seen_row {
    row r;
    char sbuf[40];
    uint64_t rowset_id;
    uint32_t segment, ord;
} seen_row;

/* Every visible row of tablet (partition PART, bucket) at its current version, in storage order;
 * *nout rows, heap array. Delete-sign rows are included (scans filter them). */
static seen_row *
read_visible(stu_env *v, const stor_schema *sc, uint32_t bucket, size_t *nout)
{
    stor_tablet *t = stor_engine_tablet(v->eng, stor_tablet_id_of(PART, bucket), false);
    cr_assert_not_null(t);
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap);
    seen_row *out = NULL;
    size_t n = 0, cap = 0;
    arena *a = arena_new(0);
    for (size_t i = 0; i < snap.nrowsets; i++) {
        for (uint32_t sg = 0; sg < snap.rowsets[i].nsegments; sg++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", stor_tablet_dir(t), snap.rowsets[i].segments[sg]);
            db_error e;
            db_error_clear(&e);
            stor_segment_reader *rd = stor_segment_reader_open(path, &e);
            cr_assert_not_null(rd, "%s", e.msg);
            uint64_t rows = stor_segment_reader_rows(rd);
            stor_vec cols[NCOLS];
            for (uint32_t c = 0; c < sc->ncols; c++) {
                int col = stor_segment_reader_find_uid(rd, sc->cols[c].uid);
                cr_assert_geq(col, 0);
                cr_assert_eq(stor_segment_read_rows(rd, (uint32_t)col, 0, rows, a, &cols[c], &e),
                             DB_OK, "%s", e.msg);
            }
            roaring_bitmap_t *del =
                    stor_tablet_deleted(t, snap.rowsets[i].rowset_id, sg, snap.version);
            for (uint32_t r = 0; r < rows; r++) {
                if (roaring_bitmap_contains(del, r)) {
                    continue;
                }
                if (n == cap) {
                    cap = cap == 0 ? 64 : cap * 2;
                    out = mem_realloc(out, cap * sizeof *out);
                }
                seen_row *o = &out[n++];
                memset(o, 0, sizeof *o);
                o->rowset_id = snap.rowsets[i].rowset_id;
                o->segment = sg;
                o->ord = r;
                o->r.k = cols[0].i64[r];
                const stor_vec *sv = sc->ncols == 2 ? &cols[1] : &cols[C_S];
                if (!stor_vec_is_null(sv, r)) {
                    size_t len = (size_t)(sv->offs[r + 1] - sv->offs[r]);
                    cr_assert_lt(len, sizeof o->sbuf);
                    memcpy(o->sbuf, sv->data + sv->offs[r], len);
                    o->r.s = ""; /* pointed at sbuf below, once out stops moving */
                }
                if (sc->ncols == NCOLS) {
                    o->r.v = stor_vec_is_null(&cols[C_V], r) ? NUL : cols[C_V].i64[r];
                    o->r.seq = stor_vec_is_null(&cols[C_SEQ], r) ? NUL : cols[C_SEQ].i64[r];
                    o->r.ds = cols[C_DS].i64[r];
                }
            }
            roaring_bitmap_free(del);
            stor_segment_reader_close(rd);
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (out[i].r.s != NULL) {
            out[i].r.s = out[i].sbuf;
        }
    }
    arena_free(a);
    stor_snapshot_destroy(&snap);
    *nout = n;
    return out;
}

/* The visible row of key k, or NULL. */
static const seen_row *
find_key(const seen_row *rows, size_t n, int64_t k)
{
    const seen_row *hit = NULL;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].r.k == k) {
            cr_assert_null(hit, "key %" PRId64 " visible twice", k);
            hit = &rows[i];
        }
    }
    return hit;
}

static size_t
pk_count(stu_env *v, uint32_t bucket)
{
    stor_tablet *t = stor_engine_tablet(v->eng, stor_tablet_id_of(PART, bucket), false);
    bool *ready = NULL;
    stor_pkindex *pk = stor__tablet_pkindex(t, &ready);
    cr_assert(*ready);
    return stor_pkindex_count(pk);
}

TestSuite(stor_writer, .init = setup, .fini = teardown);

Test(stor_writer, dup_sorted_per_tablet)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    stor_writer *w = stor_writer_new(v.eng);
    cr_assert(stor_writer_empty(w));
    arena *a = arena_new(0);
    db_error e;
    db_error_clear(&e);
    /* 3 batches, keys descending with duplicates; s records the input order. */
    for (int b = 0; b < 3; b++) {
        int64_t k[100];
        const char *s[100];
        char sb[100][16];
        for (int i = 0; i < 100; i++) {
            k[i] = (99 - i) % 40; /* each key 2-3 times per batch */
            snprintf(sb[i], sizeof sb[i], "%03d", b * 100 + i);
            s[i] = sb[i];
        }
        stor_vec cols[2] = {vec_i64(a, k, 100), vec_str(a, s, 100)};
        cr_assert_eq(stor_writer_put(w, &sc, PART, (uint32_t)(b % 2), cols, 100, NULL, &e), DB_OK,
                     "%s", e.msg);
    }
    cr_assert_eq(stor_writer_rows(w), 300);
    uint64_t tso = stu_commit_writer(&v, w);
    cr_assert_gt(tso, 0);
    for (uint32_t bucket = 0; bucket < 2; bucket++) {
        stor_tablet *t = stor_engine_tablet(v.eng, stor_tablet_id_of(PART, bucket), false);
        cr_assert_not_null(t);
        stor_snapshot snap;
        stor_tablet_snapshot(t, &snap);
        cr_assert_eq(snap.version, 1);
        cr_assert_eq(snap.nrowsets, 1);
        cr_assert_eq(snap.rowsets[0].commit_tso, tso);
        cr_assert_eq(snap.rowsets[0].rows, bucket == 0 ? 200 : 100);
        stor_snapshot_destroy(&snap);
        size_t n;
        seen_row *rows = read_visible(&v, &sc, bucket, &n);
        cr_assert_eq(n, bucket == 0 ? 200 : 100);
        for (size_t i = 1; i < n; i++) {
            cr_assert_leq(rows[i - 1].r.k, rows[i].r.k, "not sorted at %zu", i);
            if (rows[i - 1].r.k == rows[i].r.k) { /* stable: input order on ties */
                cr_assert_lt(strcmp(rows[i - 1].r.s, rows[i].r.s), 0);
            }
        }
        mem_free(rows);
    }
    /* A second commit: version 2, a second rowset with a different id. */
    w = stor_writer_new(v.eng);
    int64_t k1 = 7;
    const char *s1 = "x";
    stor_vec cols[2] = {vec_i64(a, &k1, 1), vec_str(a, &s1, 1)};
    cr_assert_eq(stor_writer_put(w, &sc, PART, 0, cols, 1, NULL, &e), DB_OK);
    cr_assert_gt(stu_commit_writer(&v, w), tso);
    stor_snapshot snap;
    stor_tablet_snapshot(stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false), &snap);
    cr_assert_eq(snap.version, 2);
    cr_assert_eq(snap.nrowsets, 2);
    cr_assert_neq(snap.rowsets[0].rowset_id, snap.rowsets[1].rowset_id);
    /* DELETE by location: forwarded as delete marks, no rowset. */
    uint64_t rs0 = snap.rowsets[0].rowset_id;
    stor_snapshot_destroy(&snap);
    w = stor_writer_new(v.eng);
    uint32_t del[] = {0, 5, 6};
    cr_assert_eq(stor_writer_delete_rows(w, stor_tablet_id_of(PART, 0), rs0, 0, del, 3, &e), DB_OK);
    cr_assert_not(stor_writer_empty(w));
    cr_assert_gt(stu_commit_writer(&v, w), 0);
    stor_tablet *t0 = stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false);
    cr_assert_eq(stor_tablet_version(t0), 3);
    roaring_bitmap_t *d = stor_tablet_deleted(t0, rs0, 0, 3);
    cr_assert_eq(roaring_bitmap_get_cardinality(d), 3);
    roaring_bitmap_free(d);
    /* Nothing pending: TSO 0, no record. */
    w = stor_writer_new(v.eng);
    cr_assert_eq(stu_commit_writer(&v, w), 0);
    arena_free(a);
    stu_env_close(&v);
}

Test(stor_writer, mow_upsert_marks_old_rows)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 1000, 1);
    stu_commit_writer(&v, w);
    cr_assert_eq(pk_count(&v, 0), 1000);
    stor_tablet *t = stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false);
    stor_snapshot s1;
    stor_tablet_snapshot(t, &s1);
    uint64_t rs1 = s1.rowsets[0].rowset_id;
    stor_snapshot_destroy(&s1);

    w = stor_writer_new(v.eng);
    put_range(w, &sc, 1000, 1500, 10); /* out of order across puts */
    put_range(w, &sc, 500, 1000, 10);
    stu_commit_writer(&v, w);
    cr_assert_eq(stor_tablet_version(t), 2);
    roaring_bitmap_t *d1 = stor_tablet_deleted(t, rs1, 0, 1);
    cr_assert_eq(roaring_bitmap_get_cardinality(d1), 0);
    roaring_bitmap_free(d1);
    roaring_bitmap_t *d2 = stor_tablet_deleted(t, rs1, 0, 2);
    cr_assert_eq(roaring_bitmap_get_cardinality(d2), 500);
    cr_assert_eq(roaring_bitmap_minimum(d2), 500); /* rows 500..999 hold keys 500..999 */
    cr_assert_eq(roaring_bitmap_maximum(d2), 999);
    roaring_bitmap_free(d2);
    cr_assert_eq(pk_count(&v, 0), 1500);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 1500);
    for (int64_t k = 0; k < 1500; k++) {
        const seen_row *r = find_key(rows, n, k);
        cr_assert_not_null(r, "key %" PRId64, k);
        cr_assert_eq(r->r.v, k < 500 ? k : k * 10);
    }
    mem_free(rows);
    stu_env_close(&v);
}

Test(stor_writer, mow_delete_sign)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 10, 1);
    stu_commit_writer(&v, w);
    w = stor_writer_new(v.eng);
    row dels[] = {{2, NUL, NULL, NUL, 1}, {3, NUL, NULL, NUL, 1}, {100, NUL, NULL, NUL, 1}};
    put_mow(w, &sc, 0, dels, 3, NULL);
    stu_commit_writer(&v, w);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 11); /* 8 live rows + 3 delete-sign rows (stored, filtered by scans) */
    size_t live = 0;
    for (size_t i = 0; i < n; i++) {
        live += rows[i].r.ds == 0;
        if (rows[i].r.ds == 1) {
            cr_assert(rows[i].r.k == 2 || rows[i].r.k == 3 || rows[i].r.k == 100);
        }
    }
    cr_assert_eq(live, 8);
    mem_free(rows);
    cr_assert_eq(pk_count(&v, 0), 11);
    /* Re-insert key 2: the delete-sign row is hidden, the new row visible. */
    w = stor_writer_new(v.eng);
    row again[] = {{2, 42, "back", NUL, 0}};
    put_mow(w, &sc, 0, again, 1, NULL);
    stu_commit_writer(&v, w);
    rows = read_visible(&v, &sc, 0, &n);
    const seen_row *r2 = find_key(rows, n, 2);
    cr_assert_not_null(r2);
    cr_assert_eq(r2->r.v, 42);
    cr_assert_eq(r2->r.ds, 0);
    cr_assert_eq(n, 11);
    mem_free(rows);
    stu_env_close(&v);
}

/* REPLACE's count: rows that replaced a row of their key, earlier in the writer or live in the
 * table; a key whose stored row is a delete-sign row is new again. */
Test(stor_writer, count_replaced)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 10, 1);
    stu_commit_writer(&v, w);
    w = stor_writer_new(v.eng);
    row dels[] = {{3, NUL, NULL, NUL, 1}};
    put_mow(w, &sc, 0, dels, 1, NULL);
    stu_commit_writer(&v, w);

    w = stor_writer_new(v.eng);
    stor_writer_count_replaced(w);
    /* 1 and 2 live (2 replacements), 3 deleted (new), 20 new, 21 twice (1 replacement), 1 again
     * in a later put (1 more). */
    row rs[] = {{1, 10, "a", NUL, 0},   {2, 20, "b", NUL, 0},   {3, 30, "c", NUL, 0},
                {20, 200, "d", NUL, 0}, {21, 210, "e", NUL, 0}, {21, 211, "f", NUL, 0}};
    put_mow(w, &sc, 0, rs, 6, NULL);
    row again[] = {{1, 11, "g", NUL, 0}};
    put_mow(w, &sc, 0, again, 1, NULL);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_writer_commit(w, v.tso, NULL, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_writer_replaced(w), 4);
    stor_writer_free(w);

    w = stor_writer_new(v.eng); /* not asked: nothing counted */
    put_mow(w, &sc, 0, again, 1, NULL);
    cr_assert_eq(stor_writer_commit(w, v.tso, NULL, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_writer_replaced(w), 0);
    stor_writer_free(w);
    stu_env_close(&v);
}

Test(stor_writer, mow_sequence_column)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(true);
    stor_writer *w = stor_writer_new(v.eng);
    row b1[] = {
            {1, 10, "a", 5, 0},   {1, 11, "b", 3, 0},   /* key 1: seq 5 wins over a later seq 3 */
            {2, 20, "c", NUL, 0}, {2, 21, "d", 1, 0},   /* key 2: NULL is lowest */
            {3, 30, "e", 1, 0},   {3, 31, "f", NUL, 0}, /* key 3: the later NULL loses */
            {4, 40, "g", 2, 0},   {4, 41, "h", 2, 0},   /* key 4: tie, later write wins */
    };
    put_mow(w, &sc, 0, b1, 8, NULL);
    stu_commit_writer(&v, w);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 4);
    cr_assert_eq(find_key(rows, n, 1)->r.v, 10);
    cr_assert_eq(find_key(rows, n, 2)->r.v, 21);
    cr_assert_eq(find_key(rows, n, 3)->r.v, 30);
    cr_assert_eq(find_key(rows, n, 4)->r.v, 41);
    mem_free(rows);
    /* Against the stored row: seq 4 < 5 is discarded, key 4 seq 2 = 2 replaces. */
    w = stor_writer_new(v.eng);
    row b2[] = {{1, 99, "z", 4, 0}, {4, 44, "y", 2, 0}};
    put_mow(w, &sc, 0, b2, 2, NULL);
    stu_commit_writer(&v, w);
    stor_tablet *t = stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false);
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap);
    cr_assert_eq(snap.nrowsets, 2);
    cr_assert_eq(snap.rowsets[1].rows, 1); /* only key 4 was written */
    roaring_bitmap_t *d = stor_tablet_deleted(t, snap.rowsets[0].rowset_id, 0, snap.version);
    cr_assert_eq(roaring_bitmap_get_cardinality(d), 1); /* only key 4's old row */
    cr_assert(roaring_bitmap_contains(d, 3));
    roaring_bitmap_free(d);
    stor_snapshot_destroy(&snap);
    rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 4);
    cr_assert_eq(find_key(rows, n, 1)->r.v, 10);
    cr_assert_eq(find_key(rows, n, 4)->r.v, 44);
    mem_free(rows);
    /* A batch whose only row loses publishes no rowset. */
    w = stor_writer_new(v.eng);
    row b3[] = {{1, 98, "w", 1, 0}};
    put_mow(w, &sc, 0, b3, 1, NULL);
    stu_commit_writer(&v, w);
    stor_tablet_snapshot(t, &snap);
    cr_assert_eq(snap.nrowsets, 2);
    stor_snapshot_destroy(&snap);
    stu_env_close(&v);
}

Test(stor_writer, mow_partial_update)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 10, 1);
    stu_commit_writer(&v, w);
    w = stor_writer_new(v.eng);
    bool given[NCOLS] = {true, true, false, false, true}; /* k, v, delete sign */
    row upd[] = {{3, 333, "ignored", NUL, 0}, {20, 2020, "new", NUL, 0}};
    put_mow(w, &sc, 0, upd, 2, given);
    row full[] = {{5, 555, NULL, NUL, 0}}; /* a full row in the same commit */
    put_mow(w, &sc, 0, full, 1, NULL);
    stu_commit_writer(&v, w);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 11);
    const seen_row *r3 = find_key(rows, n, 3);
    cr_assert_eq(r3->r.v, 333);
    cr_assert_str_eq(r3->r.s, "s3"); /* not given: the old value */
    const seen_row *r20 = find_key(rows, n, 20);
    cr_assert_str_eq(r20->r.s, "new"); /* a new key takes the given vectors */
    const seen_row *r5 = find_key(rows, n, 5);
    cr_assert_null(r5->r.s); /* full row: NULL written */
    cr_assert_eq(find_key(rows, n, 4)->r.v, 4);
    mem_free(rows);
    /* Two partial updates of one key in one commit combine (v from the first, s from the
     * second); for an existing key the rest comes from the stored row. */
    w = stor_writer_new(v.eng);
    bool give_v[NCOLS] = {true, true, false, false, true};
    bool give_s[NCOLS] = {true, false, true, false, true};
    row pv[] = {{6, 666, "no", 9, 0}, {40, 4040, "no", 9, 0}};
    row ps[] = {{6, -1, "six", 9, 0}, {40, -1, "forty", 9, 0}};
    put_mow(w, &sc, 0, pv, 2, give_v);
    put_mow(w, &sc, 0, ps, 2, give_s);
    stu_commit_writer(&v, w);
    rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 12);
    const seen_row *r6 = find_key(rows, n, 6);
    cr_assert_eq(r6->r.v, 666);
    cr_assert_str_eq(r6->r.s, "six");
    cr_assert_eq(r6->r.seq, NUL); /* given by neither: the stored value */
    const seen_row *r40 = find_key(rows, n, 40);
    cr_assert_eq(r40->r.v, 4040);
    cr_assert_str_eq(r40->r.s, "forty");
    cr_assert_eq(r40->r.seq, 9); /* a new key: the vectors' value */
    mem_free(rows);
    stu_env_close(&v);
}

Test(stor_writer, restart_builds_pkindex_lazily)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 100, 1);
    stu_commit_writer(&v, w);
    w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 10, 2); /* marks rows 0..9 of the first rowset */
    stu_commit_writer(&v, w);
    stu_env_close(&v);

    env_open(&v);
    stor_tablet *t = stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false);
    cr_assert_not_null(t);
    bool *ready = NULL;
    stor_pkindex *pk = stor__tablet_pkindex(t, &ready);
    cr_assert_not(*ready);
    cr_assert_eq(stor_pkindex_count(pk), 0);
    stor_snapshot s0;
    stor_tablet_snapshot(t, &s0);
    cr_assert_eq(s0.nrowsets, 2);
    w = stor_writer_new(v.eng);
    put_range(w, &sc, 5, 150, 3);
    stu_commit_writer(&v, w);
    cr_assert_eq(pk_count(&v, 0), 150);
    stor_snapshot s1;
    stor_tablet_snapshot(t, &s1);
    cr_assert_eq(s1.nrowsets, 3);
    cr_assert_gt(s1.rowsets[2].rowset_id, s0.rowsets[1].rowset_id); /* ids not reused */
    /* rowset 1: rows 0..9 marked at v2, 10..99 at v3; rowset 2: rows 5..9 (keys 5..9) at v3. */
    roaring_bitmap_t *d = stor_tablet_deleted(t, s0.rowsets[0].rowset_id, 0, 3);
    cr_assert_eq(roaring_bitmap_get_cardinality(d), 100);
    roaring_bitmap_free(d);
    d = stor_tablet_deleted(t, s0.rowsets[1].rowset_id, 0, 3);
    cr_assert_eq(roaring_bitmap_get_cardinality(d), 5);
    cr_assert_eq(roaring_bitmap_minimum(d), 5);
    roaring_bitmap_free(d);
    stor_snapshot_destroy(&s0);
    stor_snapshot_destroy(&s1);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 150);
    for (int64_t k = 0; k < 150; k++) {
        cr_assert_eq(find_key(rows, n, k)->r.v, k < 5 ? k * 2 : k * 3);
    }
    mem_free(rows);
    stu_env_close(&v);
}

Test(stor_writer, rollback_and_failed_commit_leave_no_files)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 100, 1);
    cr_assert_not(stor_writer_empty(w));
    stor_writer_free(w); /* ROLLBACK */
    cr_assert_eq(stu_count_files(stu_datadir), 0);

    /* A NULL in the NOT NULL key column fails the segment writer: no files, nothing published. */
    w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 5, 1);
    row bad[] = {{NUL, 1, "x", NUL, 0}};
    put_mow(w, &sc, 0, bad, 1, NULL);
    db_error e;
    db_error_clear(&e);
    uint64_t tso = 77;
    cr_assert_eq(stor_writer_commit(w, v.tso, &tso, &e), DB_ERR);
    cr_assert_eq(tso, 0);
    cr_assert_neq(e.code, 0);
    stor_writer_free(w);
    cr_assert_eq(stu_count_files(stu_datadir), 0);
    stor_tablet *t = stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false);
    cr_assert_eq(stor_tablet_version(t), 0);

    stu_env_close(&v);
}

/* AGGREGATE KEY: rows of one key in one commit fold into one row by the columns' functions
 * (v SUM with NULLs skipped, s REPLACE = last written, seq MAX, ds MIN); other keys stay. */
Test(stor_writer, aggregate_key_fold)
{
    stu_env v;
    env_open(&v);
    stor_schema agg = mow_schema(false);
    agg.keys = CAT_KEYS_AGG;
    agg.mow = false;
    agg.delete_sign_col = -1;
    static uint8_t aggs[NCOLS];
    aggs[C_K] = CAT_AGG_UNSET;
    aggs[C_V] = CAT_AGG_SUM;
    aggs[C_S] = CAT_AGG_REPLACE;
    aggs[C_SEQ] = CAT_AGG_MAX;
    aggs[C_DS] = CAT_AGG_MIN;
    agg.aggs = aggs;
    stor_writer *w = stor_writer_new(v.eng);
    row rows[] = {{7, 10, "a", 3, 5},   {2, NUL, "x", NUL, 1}, {7, 5, "b", 9, 2},
                  {7, NUL, NULL, 4, 7}, {2, NUL, "y", 1, 0},   {9, 1, "z", 1, 1}};
    put_mow(w, &agg, 0, rows, 6, NULL);
    stu_commit_writer(&v, w);
    size_t n;
    seen_row *got = read_visible(&v, &agg, 0, &n);
    cr_assert_eq(n, 3);
    cr_assert_eq(got[0].r.k, 2);   /* key order */
    cr_assert_eq(got[0].r.v, NUL); /* SUM of NULLs only */
    cr_assert_str_eq(got[0].r.s, "y");
    cr_assert_eq(got[0].r.seq, 1);
    cr_assert_eq(got[0].r.ds, 0);
    cr_assert_eq(got[1].r.k, 7);
    cr_assert_eq(got[1].r.v, 15);
    cr_assert_null(got[1].r.s); /* REPLACE keeps the last written value, NULL included */
    cr_assert_eq(got[1].r.seq, 9);
    cr_assert_eq(got[1].r.ds, 2);
    cr_assert_eq(got[2].r.k, 9);
    cr_assert_eq(got[2].r.v, 1);
    mem_free(got);
    stu_env_close(&v);
}

/* ---- a custom stage ---- */

typedef struct stage_seen {
    int calls;
    uint32_t n;
    int64_t k[64];
    stor_row_op op[64];
    bool has_old[64];
    int64_t old_v[64]; /* NUL when NULL */
    bool has_old_cols;
} stage_seen;

static int
record_stage(void *ctx, stor_chain_batch *b, stor_txn *txn, db_error *err)
{
    (void)txn;
    (void)err;
    stage_seen *s = ctx;
    s->calls++;
    s->n = b->n;
    s->has_old_cols = b->old_cols != NULL;
    for (uint32_t r = 0; r < b->n && r < 64; r++) {
        s->k[r] = b->cols[C_K].i64[r];
        s->op[r] = b->ops != NULL ? b->ops[r] : STOR_OP_INSERT;
        s->has_old[r] = b->has_old != NULL && b->has_old[r];
        s->old_v[r] = NUL;
        if (b->old_cols != NULL && !stor_vec_is_null(&b->old_cols[C_V], r)) {
            s->old_v[r] = b->old_cols[C_V].i64[r];
        }
    }
    return DB_OK;
}

static uint32_t
want_values(void *ctx, const stor_schema *sc)
{
    (void)ctx;
    return sc->mow ? STOR_WANT_OLD_VALUES : 0;
}

Test(stor_writer, added_stage_without_wants_gets_no_old_values)
{
    stu_env v;
    env_open(&v);
    stage_seen seen;
    memset(&seen, 0, sizeof seen);
    stor_stage st = {"record", record_stage, NULL, &seen, NULL};
    stor_engine_add_stage(v.eng, &st);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 10, 1);
    stu_commit_writer(&v, w);
    w = stor_writer_new(v.eng);
    put_range(w, &sc, 5, 15, 100);
    stu_commit_writer(&v, w);
    cr_assert_eq(seen.calls, 2);
    cr_assert_not(seen.has_old_cols);
    for (uint32_t r = 0; r < seen.n; r++) {
        cr_assert_eq(seen.op[r], seen.k[r] < 10 ? STOR_OP_UPDATE : STOR_OP_INSERT);
    }
    stu_env_close(&v);
}

Test(stor_writer, added_stage_sees_ops_and_before_values)
{
    stu_env v;
    env_open(&v);
    stage_seen seen;
    memset(&seen, 0, sizeof seen);
    stor_stage st = {"record", record_stage, want_values, &seen, NULL};
    stor_engine_add_stage(v.eng, &st);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    put_range(w, &sc, 0, 10, 1);
    stu_commit_writer(&v, w);
    cr_assert_eq(seen.calls, 1);
    cr_assert_not(seen.has_old_cols);
    for (uint32_t r = 0; r < 10; r++) {
        cr_assert_eq(seen.op[r], STOR_OP_INSERT);
        cr_assert_not(seen.has_old[r]);
    }
    w = stor_writer_new(v.eng);
    put_range(w, &sc, 5, 15, 100);
    row del[] = {{0, NUL, NULL, NUL, 1}};
    put_mow(w, &sc, 0, del, 1, NULL);
    stu_commit_writer(&v, w);
    cr_assert_eq(seen.calls, 2);
    cr_assert_eq(seen.n, 11);
    cr_assert(seen.has_old_cols);
    for (uint32_t r = 0; r < seen.n; r++) {
        int64_t k = seen.k[r];
        if (k == 0) {
            cr_assert_eq(seen.op[r], STOR_OP_DELETE);
            cr_assert(seen.has_old[r]);
            cr_assert_eq(seen.old_v[r], 0);
        } else if (k < 10) {
            cr_assert_eq(seen.op[r], STOR_OP_UPDATE, "key %" PRId64, k);
            cr_assert(seen.has_old[r]);
            cr_assert_eq(seen.old_v[r], k, "key %" PRId64, k);
        } else {
            cr_assert_eq(seen.op[r], STOR_OP_INSERT);
            cr_assert_not(seen.has_old[r]);
            cr_assert_eq(seen.old_v[r], NUL);
        }
    }
    stu_env_close(&v);
}

/* Partial updates of a table with a sequence column (storage/README.md "Sequence column and
 * partial update"): a partial row that does not give the sequence column keeps the stored
 * row's value and is applied (an UPDATE with before values, for the binlog stage); one that
 * gives a lower value is discarded (no stage row, no mark), equal or higher applies; a new key
 * is inserted with the vectors' values; rows of one key in one commit that all leave the
 * sequence column out merge as without one. */
Test(stor_writer, mow_sequence_partial_update)
{
    stu_env v;
    env_open(&v);
    stage_seen seen;
    memset(&seen, 0, sizeof seen);
    stor_stage st = {"record", record_stage, want_values, &seen, NULL};
    stor_engine_add_stage(v.eng, &st);
    stor_schema sc = mow_schema(true);
    stor_writer *w = stor_writer_new(v.eng);
    row b1[] = {{1, 10, "a", 5, 0}, {2, 20, "b", 5, 0}, {3, 30, "c", 5, 0}};
    put_mow(w, &sc, 0, b1, 3, NULL);
    stu_commit_writer(&v, w);
    /* Without the sequence column: the vectors' seq (NULL, the planner's default) is ignored. */
    bool give_v[NCOLS] = {true, true, false, false, true};
    w = stor_writer_new(v.eng);
    row p1[] = {{1, 11, "no", NUL, 0}, {9, 90, "no", NUL, 0}};
    put_mow(w, &sc, 0, p1, 2, give_v);
    stu_commit_writer(&v, w);
    cr_assert_eq(seen.calls, 2);
    cr_assert_eq(seen.n, 2);
    cr_assert_eq(seen.k[0], 1);
    cr_assert_eq(seen.op[0], STOR_OP_UPDATE);
    cr_assert(seen.has_old[0]);
    cr_assert_eq(seen.old_v[0], 10);
    cr_assert_eq(seen.k[1], 9);
    cr_assert_eq(seen.op[1], STOR_OP_INSERT);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 4);
    const seen_row *r1 = find_key(rows, n, 1);
    cr_assert_eq(r1->r.v, 11);
    cr_assert_str_eq(r1->r.s, "a");
    cr_assert_eq(r1->r.seq, 5); /* kept */
    const seen_row *r9 = find_key(rows, n, 9);
    cr_assert_eq(r9->r.v, 90);
    cr_assert_str_eq(r9->r.s, "no"); /* a new key: the vectors' values (the planner's defaults) */
    cr_assert_eq(r9->r.seq, NUL);
    mem_free(rows);
    /* With the sequence column: lower loses, equal and higher apply. */
    bool give_vs[NCOLS] = {true, true, false, true, true};
    w = stor_writer_new(v.eng);
    row p2[] = {{1, 12, "no", 4, 0}, {2, 22, "no", 5, 0}, {3, 33, "no", 6, 0}};
    put_mow(w, &sc, 0, p2, 3, give_vs);
    stu_commit_writer(&v, w);
    cr_assert_eq(seen.calls, 3);
    cr_assert_eq(seen.n, 2); /* key 1 lost: no change for the stage */
    cr_assert_eq(seen.k[0], 2);
    cr_assert_eq(seen.op[0], STOR_OP_UPDATE);
    cr_assert_eq(seen.old_v[0], 20);
    cr_assert_eq(seen.k[1], 3);
    cr_assert_eq(seen.old_v[1], 30);
    rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, 4);
    r1 = find_key(rows, n, 1);
    cr_assert_eq(r1->r.v, 11);
    cr_assert_eq(r1->r.seq, 5);
    cr_assert_eq(find_key(rows, n, 2)->r.v, 22);
    cr_assert_str_eq(find_key(rows, n, 2)->r.s, "b");
    cr_assert_eq(find_key(rows, n, 3)->r.seq, 6);
    cr_assert_str_eq(find_key(rows, n, 3)->r.s, "c");
    mem_free(rows);
    /* Two partial rows of key 2 in one commit, neither giving seq: merged, applied, seq kept. */
    bool give_s[NCOLS] = {true, false, true, false, true};
    w = stor_writer_new(v.eng);
    row pv[] = {{2, 222, "no", NUL, 0}};
    row ps[] = {{2, -1, "two", NUL, 0}};
    put_mow(w, &sc, 0, pv, 1, give_v);
    put_mow(w, &sc, 0, ps, 1, give_s);
    stu_commit_writer(&v, w);
    cr_assert_eq(seen.n, 1);
    cr_assert_eq(seen.op[0], STOR_OP_UPDATE);
    rows = read_visible(&v, &sc, 0, &n);
    const seen_row *r2 = find_key(rows, n, 2);
    cr_assert_eq(r2->r.v, 222);
    cr_assert_str_eq(r2->r.s, "two");
    cr_assert_eq(r2->r.seq, 5);
    mem_free(rows);
    /* Rows of one key in one commit, some giving seq and some not, apply in order against the
     * stored row: key 5 (seq 5): v without seq applies, then seq 1 loses; key 6: s without seq,
     * then seq 7 applies; key 7: seq 9, then s without seq; key 8 (new): v without seq is
     * inserted, then seq 3 applies over its NULL. */
    w = stor_writer_new(v.eng);
    row base[] = {{5, 50, "e", 5, 0}, {6, 60, "f", 5, 0}, {7, 70, "g", 5, 0}};
    put_mow(w, &sc, 0, base, 3, NULL);
    stu_commit_writer(&v, w);
    w = stor_writer_new(v.eng);
    row m1[] = {{5, 55, "no", NUL, 0}, {8, 80, "no", NUL, 0}};
    row m2[] = {{5, 51, "no", 1, 0}, {6, 77, "no", 7, 0}, {7, 79, "no", 9, 0}, {8, 83, "no", 3, 0}};
    row m3[] = {{6, -1, "x", NUL, 0}};
    row m4[] = {{7, -1, "after", NUL, 0}};
    put_mow(w, &sc, 0, m1, 2, give_v);
    put_mow(w, &sc, 0, m3, 1, give_s);
    put_mow(w, &sc, 0, m2, 4, give_vs);
    put_mow(w, &sc, 0, m4, 1, give_s);
    stu_commit_writer(&v, w);
    rows = read_visible(&v, &sc, 0, &n);
    const seen_row *r5 = find_key(rows, n, 5);
    cr_assert_eq(r5->r.v, 55);
    cr_assert_str_eq(r5->r.s, "e");
    cr_assert_eq(r5->r.seq, 5);
    const seen_row *r6 = find_key(rows, n, 6);
    cr_assert_eq(r6->r.v, 77);
    cr_assert_str_eq(r6->r.s, "x");
    cr_assert_eq(r6->r.seq, 7);
    const seen_row *r7 = find_key(rows, n, 7);
    cr_assert_eq(r7->r.v, 79);
    cr_assert_str_eq(r7->r.s, "after");
    cr_assert_eq(r7->r.seq, 9);
    const seen_row *r8 = find_key(rows, n, 8);
    cr_assert_eq(r8->r.v, 83);
    cr_assert_str_eq(r8->r.s, "no");
    cr_assert_eq(r8->r.seq, 3);
    mem_free(rows);
    cr_assert_eq(seen.n, 4);
    /* A full row still compares: seq 4 < 6 is discarded. */
    w = stor_writer_new(v.eng);
    row f[] = {{3, 333, "full", 4, 0}};
    put_mow(w, &sc, 0, f, 1, NULL);
    stu_commit_writer(&v, w);
    rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(find_key(rows, n, 3)->r.v, 33);
    mem_free(rows);
    stu_env_close(&v);
}

Test(stor_writer, hundred_thousand_rows)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    stor_writer *w = stor_writer_new(v.eng);
    /* 100k distinct keys in a scrambled order, in 10 puts. */
    const uint32_t total = 100000, per = 10000;
    row *rows = mem_calloc(per, sizeof *rows);
    for (uint32_t p = 0; p < total / per; p++) {
        for (uint32_t i = 0; i < per; i++) {
            uint64_t x = (uint64_t)(p * per + i);
            int64_t k = (int64_t)((x * 7919u) % total);
            rows[i] = (row){k, k + 1, NULL, NUL, 0};
        }
        put_mow(w, &sc, 0, rows, per, NULL);
    }
    mem_free(rows);
    cr_assert_eq(stor_writer_rows(w), total);
    stu_commit_writer(&v, w);
    cr_assert_eq(pk_count(&v, 0), total);
    size_t n;
    seen_row *seen = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, total);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(seen[i].r.k, (int64_t)i);
        cr_assert_eq(seen[i].r.v, (int64_t)i + 1);
    }
    mem_free(seen);
    stu_env_close(&v);
}

/* ---- concurrent writers of one MoW tablet ---- */

typedef struct thr_arg {
    stu_env *v;
    const stor_schema *sc;
    int id;
    int failures;
} thr_arg;

static void *
writer_thread(void *p)
{
    thr_arg *ta = p;
    for (int round = 0; round < 5; round++) {
        stor_writer *w = stor_writer_new(ta->v->eng);
        int64_t from = (int64_t)(ta->id * 100 + round * 37);
        put_range(w, ta->sc, from, from + 300, ta->id + 1);
        db_error e;
        db_error_clear(&e);
        uint64_t tso = 0;
        if (stor_writer_commit(w, ta->v->tso, &tso, &e) != DB_OK || tso == 0) {
            ta->failures++;
        }
        stor_writer_free(w);
    }
    return NULL;
}

Test(stor_writer, concurrent_writers_keep_one_row_per_key)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = mow_schema(false);
    pthread_t th[4];
    thr_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thr_arg){&v, &sc, i, 0};
        cr_assert_eq(pthread_create(&th[i], NULL, writer_thread, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        cr_assert_eq(args[i].failures, 0);
    }
    /* Keys 0 .. 3*100 + 4*37 + 300 = 748 are covered without gaps. */
    int64_t maxk = 3 * 100 + 4 * 37 + 300;
    cr_assert_eq(pk_count(&v, 0), (size_t)maxk);
    cr_assert_eq(stor_tablet_version(stor_engine_tablet(v.eng, stor_tablet_id_of(PART, 0), false)),
                 20);
    size_t n;
    seen_row *rows = read_visible(&v, &sc, 0, &n);
    cr_assert_eq(n, (size_t)maxk);
    for (int64_t k = 0; k < maxk; k++) {
        const seen_row *r = find_key(rows, n, k); /* asserts one visible row per key */
        cr_assert_not_null(r, "key %" PRId64, k);
        cr_assert(k == 0 || (r->r.v % k == 0 && r->r.v / k >= 1 && r->r.v / k <= 4), "key %" PRId64,
                  k);
    }
    mem_free(rows);
    stu_env_close(&v);
}
