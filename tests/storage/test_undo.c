/* SPDX-License-Identifier: Apache-2.0
 * Time travel below the compaction floor (binlog/bl_undo.c) on a real engine: the image rebuilt
 * at every commit TSO equals what the tablet held then (read from the retained versions before
 * compaction), also after a base compaction merged those versions away; long, multi-column and
 * string keys (pairs that concatenate alike, embedded NULs, long common prefixes), deletes and
 * re-inserts; and the changed-key set keeps every encoded key distinct. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binlog/bl_int.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/mem.h"
#include "stor_testutil.h"

static void
setup(void)
{
    stu_dirs_setup("/tmp/rivulet-undo-XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

TestSuite(undo, .init = setup, .fini = teardown);

#define TABLET stor_tablet_id_of(stu_part, 0)

/* ---- rows as strings: the hex of the encoding of every column but the delete sign ---- */

typedef struct rows {
    char **s;
    size_t n, cap;
} rows;

static void
rows_add(rows *l, const stor_schema *sc, const stor_vec *cols, uint32_t r, bool dflt)
{
    uint32_t idx[16];
    uint32_t k = 0;
    for (uint32_t c = 0; c < sc->ncols; c++) {
        if ((int32_t)c != sc->delete_sign_col) {
            idx[k++] = c;
        }
    }
    buf b;
    buf_init(&b);
    stor_key_encode_row(sc, cols, idx, k, r, &b);
    char *s = mem_alloc(b.len * 2 + 3);
    for (size_t i = 0; i < b.len; i++) {
        snprintf(s + 2 * i, 3, "%02x", b.data[i]);
    }
    strcpy(s + 2 * b.len, dflt ? "*" : "");
    buf_destroy(&b);
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->s = mem_realloc(l->s, l->cap * sizeof *l->s);
    }
    l->s[l->n++] = s;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
rows_free(rows *l)
{
    for (size_t i = 0; i < l->n; i++) {
        mem_free(l->s[i]);
    }
    mem_free(l->s);
    memset(l, 0, sizeof *l);
}

static void
rows_same(rows *a, rows *b, const char *what)
{
    if (a->n > 1) { /* qsort(NULL, 0, ...) is undefined (UBSan) */
        qsort(a->s, a->n, sizeof *a->s, cmp_str);
    }
    if (b->n > 1) {
        qsort(b->s, b->n, sizeof *b->s, cmp_str);
    }
    cr_assert_eq(a->n, b->n, "%s: %zu rows vs %zu", what, a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_str_eq(a->s[i], b->s[i], "%s: row %zu", what, i);
    }
}

/* What the tablet held at tso, read from its retained versions. */
static rows
held_at(stu_env *v, const stor_schema *sc, uint64_t tso)
{
    stor_tablet *t = stor_engine_tablet(v->eng, TABLET, false);
    cr_assert_not_null(t);
    stor_snapshot snap;
    stor_tablet_snapshot(t, &snap);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_snapshot_as_of(&snap, tso, &e), DB_OK, "%s", e.msg);
    uint32_t cols[16];
    for (uint32_t c = 0; c < sc->ncols; c++) {
        cols[c] = c;
    }
    stor_scan *s = stor_scan_open(v->eng, sc, &snap, cols, sc->ncols, NULL, 0, &e);
    cr_assert_not_null(s, "%s", e.msg);
    arena *a = arena_new(0);
    rows out = {0};
    for (;;) {
        arena_reset(a);
        stor_scan_batch b;
        bool eof = false;
        cr_assert_eq(stor_scan_next(s, a, 5, &b, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            break;
        }
        const stor_vec *ds = &b.cols[sc->delete_sign_col];
        for (uint32_t r = 0; r < b.n; r++) {
            if (!stor_vec_is_null(ds, r) && ds->i64[r] != 0) {
                continue;
            }
            rows_add(&out, sc, b.cols, r, false);
        }
    }
    stor_scan_close(s);
    arena_free(a);
    stor_snapshot_destroy(&snap);
    return out;
}

/* The image bl_undo rebuilds at tso, read max_rows at a time. */
static rows
undo_at(stu_env *v, const stor_schema *sc, uint64_t tso, uint32_t max_rows)
{
    db_error e;
    db_error_clear(&e);
    bl_undo *u = bl_undo_open(v->bl, v->eng, sc, TABLET, tso, &e);
    cr_assert_not_null(u, "%s", e.msg);
    arena *a = arena_new(0);
    rows out = {0};
    for (;;) {
        arena_reset(a);
        bl_image img;
        bool eof = false;
        cr_assert_eq(bl_undo_next(u, a, max_rows, &img, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            break;
        }
        cr_assert_gt(img.n, 0, "no empty batch");
        cr_assert_leq(img.n, max_rows);
        for (uint32_t r = 0; r < img.n; r++) {
            bool dflt = false;
            for (uint32_t c = 0; c < sc->ncols; c++) {
                dflt |= img.dflt[c] != NULL && (img.dflt[c][r >> 3] >> (r & 7)) & 1;
            }
            rows_add(&out, sc, img.cols, r, dflt);
        }
    }
    cr_assert_gt(bl_undo_mem(u), 0);
    arena_free(a);
    bl_undo_close(u);
    return out;
}

static void
compact_base(stu_env *v)
{
    db_error e;
    db_error_clear(&e);
    stor_compact_stats st;
    cr_assert_eq(stor_compact_tablet(v->eng, TABLET, STOR_COMPACT_BASE, &st, &e), DB_OK, "%s",
                 e.msg);
    cr_assert_gt(st.merged_rowsets, 1);
}

/* Check the image at every tso[0..n) against want[] (taken before compaction), at several
 * batch sizes. */
static void
check_images(stu_env *v, const stor_schema *sc, const uint64_t *tso, size_t n, rows *want)
{
    uint32_t sizes[] = {1, 3, 4096};
    for (size_t i = 0; i < n; i++) {
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            rows got = undo_at(v, sc, tso[i], sizes[z]);
            char what[64];
            snprintf(what, sizeof what, "image at commit %zu, batches of %u", i, sizes[z]);
            rows_same(&got, &want[i], what);
            rows_free(&got);
        }
    }
}

Test(undo, image_at_every_commit_equals_the_table_before_and_after_compaction)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = stu_mow_schema();
    sc.binlog_row = true;
    sc.binlog_history = true;
    struct {
        int64_t from, to, mul, ds;
    } w[] = {{0, 40, 1, 0},  {10, 20, 2, 0},  {15, 18, 0, 1}, /* delete 15..17 */
             {30, 50, 3, 0}, {0, 5, 4, 0},    {45, 48, 0, 1}, /* delete 45..47 */
             {16, 17, 5, 0},                                  /* re-insert 16 */
             {60, 70, 6, 0}, {2, 3, 7, 0},    {61, 63, 0, 1},
             {35, 37, 8, 0}, {99, 100, 0, 1}, /* delete of an absent key */
             {15, 16, 9, 0}, {15, 16, 0, 1},  {100, 101, 9, 0}};
    size_t n = sizeof w / sizeof w[0];
    uint64_t tso[32];
    rows want[32];
    for (size_t i = 0; i < n; i++) {
        tso[i] = stu_write_range(&v, &sc, w[i].from, w[i].to, w[i].mul, w[i].ds);
        cr_assert(i == 0 || tso[i] > tso[i - 1]);
    }
    tso[n] = tso[0] - 1; /* before the first commit: nothing */
    for (size_t i = 0; i <= n; i++) {
        want[i] = held_at(&v, &sc, tso[i]);
    }
    cr_assert_eq(want[n].n, 0);
    cr_assert_eq(want[0].n, 40);
    check_images(&v, &sc, tso, n + 1, want);

    compact_base(&v);
    cr_assert(bl_undo_needed(v.eng, TABLET, tso[0]), "the first version was merged away");
    cr_assert_not(bl_undo_needed(v.eng, TABLET, tso[n - 1]), "the newest version is kept");
    cr_assert_not(bl_undo_needed(v.eng, stor_tablet_id_of(stu_part + 1, 0), tso[0]),
                  "no such tablet");
    check_images(&v, &sc, tso, n + 1, want);
    for (size_t i = 0; i <= n; i++) {
        rows_free(&want[i]);
    }
    stu_env_close(&v);
}

/* ---- a table keyed by (k1 VARCHAR, k2 VARCHAR, k3 BIGINT) ---- */

static stor_column_desc wide_cols[5];

static stor_schema
wide_schema(void)
{
    wide_cols[0] = (stor_column_desc){1, cat_type_varchar(600), true, false};
    wide_cols[1] = (stor_column_desc){2, cat_type_varchar(600), true, false};
    wide_cols[2] = (stor_column_desc){3, cat_type_make(CAT_T_BIGINT), true, false};
    wide_cols[3] = (stor_column_desc){4, cat_type_make(CAT_T_BIGINT), false, true};
    wide_cols[4] = (stor_column_desc){STU_DS_UID, cat_type_make(CAT_T_TINYINT), false, false};
    return (stor_schema){.table_id = 3,
                         .keys = CAT_KEYS_UNIQUE,
                         .mow = true,
                         .ncols = 5,
                         .cols = wide_cols,
                         .nkeys = 3,
                         .seq_col = -1,
                         .delete_sign_col = 4,
                         .binlog_row = true,
                         .binlog_history = true};
}

typedef struct wkey {
    char k1[600];
    size_t l1;
    char k2[600];
    size_t l2;
    int64_t k3;
} wkey;

/* Keys that a sloppy key (concatenation, a prefix, a hash of a part) would confuse. */
static size_t
wide_keys(wkey *k)
{
    size_t n = 0;
    const struct {
        const char *a;
        size_t la;
        const char *b;
        size_t lb;
        int64_t c;
    } pairs[] = {
            {"a", 1, "bc", 2, 1},  {"ab", 2, "c", 1, 1},  /* same concatenation */
            {"", 0, "x", 1, 1},    {"x", 1, "", 0, 1},    /* empty vs not */
            {"a\0b", 3, "", 0, 1}, {"a", 1, "\0b", 2, 1}, /* embedded NUL */
            {"a\0", 2, "", 0, 1},  {"a", 1, "", 0, 1},    /* trailing NUL */
            {"k", 1, "k", 1, 1},   {"k", 1, "k", 1, -1},  /* last column only */
            {"k", 1, "k", 1, 256}, {"k", 1, "k", 1, INT64_MIN}, {"k", 1, "k", 1, INT64_MAX},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++, n++) {
        memset(&k[n], 0, sizeof k[n]);
        memcpy(k[n].k1, pairs[i].a, pairs[i].la);
        k[n].l1 = pairs[i].la;
        memcpy(k[n].k2, pairs[i].b, pairs[i].lb);
        k[n].l2 = pairs[i].lb;
        k[n].k3 = pairs[i].c;
    }
    /* Long keys: a 500-byte common prefix, then one differing byte or a different length. */
    for (int i = 0; i < 6; i++, n++) {
        memset(&k[n], 0, sizeof k[n]);
        memset(k[n].k1, 'p', 500);
        k[n].l1 = 500 + (size_t)(i / 2);
        if (i / 2 > 0) {
            k[n].k1[500 + i / 2 - 1] = (char)('a' + i % 2);
        }
        memset(k[n].k2, 'q', 400);
        k[n].l2 = 400;
        k[n].k3 = i % 2;
    }
    return n;
}

/* Put keys k[i] for i in sel (n of them) with value val (NULL when val < 0) and delete sign ds;
 * returns the commit TSO. */
static uint64_t
wide_put(stu_env *v, const stor_schema *sc, const wkey *k, const size_t *sel, uint32_t n,
         int64_t val, int64_t ds)
{
    arena *a = arena_new(0);
    stor_vec cols[5];
    memset(cols, 0, sizeof cols);
    for (int c = 0; c < 2; c++) {
        cols[c] = (stor_vec){.kind = STOR_VEC_BYTES, .n = n};
        cols[c].offs = arena_alloc(a, (n + 1) * sizeof *cols[c].offs);
        cols[c].data = arena_alloc(a, (size_t)n * 600 + 1);
        cols[c].offs[0] = 0;
    }
    for (int c = 2; c < 5; c++) {
        cols[c] = (stor_vec){.kind = STOR_VEC_I64, .n = n, .i64 = arena_alloc(a, (n + 1) * 8)};
    }
    cols[3].nulls = arena_calloc(a, n / 8 + 1, 1);
    for (uint32_t i = 0; i < n; i++) {
        const wkey *w = &k[sel[i]];
        memcpy(cols[0].data + cols[0].offs[i], w->k1, w->l1);
        cols[0].offs[i + 1] = cols[0].offs[i] + w->l1;
        memcpy(cols[1].data + cols[1].offs[i], w->k2, w->l2);
        cols[1].offs[i + 1] = cols[1].offs[i] + w->l2;
        cols[2].i64[i] = w->k3;
        cols[3].i64[i] = val < 0 ? 0 : val + (int64_t)sel[i];
        if (val < 0) {
            cols[3].nulls[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
        cols[4].i64[i] = ds;
    }
    db_error e;
    db_error_clear(&e);
    stor_writer *w = stor_writer_new(v->eng);
    cr_assert_eq(stor_writer_put(w, sc, stu_part, 0, cols, n, NULL, &e), DB_OK, "%s", e.msg);
    arena_free(a);
    return stu_commit_writer(v, w);
}

Test(undo, long_multi_column_string_keys_with_deletes_and_reinserts)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = wide_schema();
    wkey k[32];
    size_t nk = wide_keys(k);
    size_t all[32], even[32], odd[32];
    uint32_t ne = 0, no = 0;
    for (size_t i = 0; i < nk; i++) {
        all[i] = i;
        if (i % 2 == 0) {
            even[ne++] = i;
        } else {
            odd[no++] = i;
        }
    }
    uint64_t tso[8];
    size_t n = 0;
    tso[n++] = wide_put(&v, &sc, k, all, (uint32_t)nk, 100, 0); /* every key */
    tso[n++] = wide_put(&v, &sc, k, even, ne, 200, 0);          /* update one of each pair */
    tso[n++] = wide_put(&v, &sc, k, odd, no, 0, 1);             /* delete the others */
    tso[n++] = wide_put(&v, &sc, k, even, ne, -1, 0);           /* values to NULL */
    tso[n++] = wide_put(&v, &sc, k, odd, no, 400, 0);           /* re-insert */
    tso[n++] = wide_put(&v, &sc, k, even, 3, 0, 1);             /* delete a few again */
    tso[n] = tso[0] - 1;
    rows want[8];
    for (size_t i = 0; i <= n; i++) {
        want[i] = held_at(&v, &sc, tso[i]);
    }
    cr_assert_eq(want[0].n, nk, "every key is its own row");
    cr_assert_eq(want[2].n, ne);
    check_images(&v, &sc, tso, n + 1, want);
    compact_base(&v);
    cr_assert(bl_undo_needed(v.eng, TABLET, tso[1]));
    check_images(&v, &sc, tso, n + 1, want);
    for (size_t i = 0; i <= n; i++) {
        rows_free(&want[i]);
    }
    stu_env_close(&v);
}

/* ---- the changed-key set ---- */

/* Encoded key of (a, b, c) as storage encodes a (VARCHAR, VARCHAR, BIGINT) key. */
static void
enc(buf *b, const char *a, size_t la, const char *s, size_t ls, int64_t c)
{
    buf_clear(b);
    stor_key_put_string(b, a, la);
    stor_key_put_string(b, s, ls);
    stor_key_put_int(b, c);
}

Test(undo, key_set_keeps_every_encoded_key_distinct)
{
    arena *a = arena_new(0);
    bl_keyset ks;
    bl__keyset_init(&ks, a);
    buf b;
    buf_init(&b);
    /* Tricky pairs: only the first of each is added, the second must stay out. */
    wkey k[32];
    size_t nk = wide_keys(k);
    for (size_t i = 0; i < nk; i += 2) {
        enc(&b, k[i].k1, k[i].l1, k[i].k2, k[i].l2, k[i].k3);
        bl__keyset_add(&ks, b.data, b.len);
        bl__keyset_add(&ks, b.data, b.len); /* twice: one entry */
    }
    /* Many keys that differ only deep inside a long common prefix; odd ones stay out. */
    char big[1024];
    memset(big, 'z', sizeof big);
    for (int i = 0; i < 20000; i += 2) {
        snprintf(big + 900, 16, "%07d", i);
        enc(&b, big, 1000, "", 0, 7);
        bl__keyset_add(&ks, b.data, b.len);
    }
    bl__keyset_seal(&ks);
    cr_assert_eq(ks.n, (nk + 1) / 2 + 10000, "duplicates dropped, nothing else merged");
    for (size_t i = 0; i < nk; i++) {
        enc(&b, k[i].k1, k[i].l1, k[i].k2, k[i].l2, k[i].k3);
        cr_assert_eq(bl__keyset_has(&ks, b.data, b.len), i % 2 == 0, "key %zu", i);
        /* a proper prefix or extension of an added key is another key */
        if (b.len > 1) {
            cr_assert_not(bl__keyset_has(&ks, b.data, b.len - 1), "prefix of key %zu", i);
        }
        buf_append(&b, "\x00", 1);
        cr_assert_not(bl__keyset_has(&ks, b.data, b.len), "extension of key %zu", i);
    }
    for (int i = 0; i < 20000; i++) {
        snprintf(big + 900, 16, "%07d", i);
        enc(&b, big, 1000, "", 0, 7);
        cr_assert_eq(bl__keyset_has(&ks, b.data, b.len), i % 2 == 0, "long key %d", i);
        enc(&b, big, 999, "", 0, 7);
        cr_assert_not(bl__keyset_has(&ks, b.data, b.len));
    }
    /* Distinct keys have distinct encodings (the pairs above are pairwise different). */
    for (size_t i = 0; i < nk; i++) {
        for (size_t j = i + 1; j < nk; j++) {
            buf x;
            buf_init(&x);
            enc(&x, k[i].k1, k[i].l1, k[i].k2, k[i].l2, k[i].k3);
            enc(&b, k[j].k1, k[j].l1, k[j].k2, k[j].l2, k[j].k3);
            cr_assert(x.len != b.len || memcmp(x.data, b.data, x.len) != 0, "keys %zu, %zu", i, j);
            buf_destroy(&x);
        }
    }
    cr_assert_gt(bl__keyset_mem(&ks), 0);
    buf_destroy(&b);
    bl__keyset_destroy(&ks);
    arena_free(a);
}
