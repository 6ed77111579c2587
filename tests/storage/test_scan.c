/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of the table layer's storage side: stor_schema_from_table (storage/stor_table.c),
 * row key encoding order, bucket stability and spread, stor_snapshot_as_of, and tablet scans
 * (storage/stor_scan.c) over real segment files committed through a real edit log and engine:
 * snapshot isolation with deletes, column pruning and missing columns, zone-map pruning,
 * corrupt pages and row ordinals. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/storage.h"

#include "stor_testutil.h"

/* ---- temp dir ---- */

static void
setup(void)
{
    stu_dirs_setup("/tmp/stor_scan_XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

static void
env_open(stu_env *v)
{
    stu_env_open(v, 0, 0);
}

/* ---- the test table: k BIGINT key (uid 1), v VARCHAR (uid 2), d DOUBLE (uid 3) ---- */

#define TABLET 77

static stor_column_desc all_cols[3];

static void
make_schema(stor_schema *sc)
{
    all_cols[0] = (stor_column_desc){1, cat_type_make(CAT_T_BIGINT), true, false};
    all_cols[1] = (stor_column_desc){2, cat_type_varchar(20), false, true};
    all_cols[2] = (stor_column_desc){3, cat_type_make(CAT_T_DOUBLE), false, true};
    memset(sc, 0, sizeof *sc);
    sc->table_id = 1;
    sc->keys = CAT_KEYS_DUP;
    sc->ncols = 3;
    sc->cols = all_cols;
    sc->nkeys = 1;
    sc->seq_col = -1;
    sc->delete_sign_col = -1;
}

/* Value of v for key k: "v<k>", NULL when k % 10 == 3. d = k / 10.0. */
static void
write_segment(stor_tablet *t, const char *name, uint32_t ncols, int64_t base, uint32_t n,
              uint32_t page_rows)
{
    db_error e;
    db_error_clear(&e);
    char path[1024];
    stu_tablet_path(t, name, path, sizeof path);
    stor_segment_opts opts = {.no_fsync = true, .max_page_rows = page_rows};
    stor_segment_writer *w = stor_segment_writer_open(path, ncols, all_cols, &opts, &e);
    cr_assert_not_null(w, "%s", e.msg);
    arena *a = arena_new(0);
    stor_vec v[3];
    memset(v, 0, sizeof v);
    v[0] = (stor_vec){.kind = STOR_VEC_I64, .n = n, .i64 = arena_calloc(a, n, sizeof(int64_t))};
    v[1] = (stor_vec){.kind = STOR_VEC_BYTES,
                      .n = n,
                      .offs = arena_calloc(a, n + 1, sizeof(uint64_t)),
                      .data = arena_alloc(a, 32 * (size_t)n + 1),
                      .nulls = arena_calloc(a, (n + 7) / 8, 1)};
    v[2] = (stor_vec){.kind = STOR_VEC_F64, .n = n, .f64 = arena_calloc(a, n, sizeof(double))};
    for (uint32_t i = 0; i < n; i++) {
        int64_t k = base + i;
        v[0].i64[i] = k;
        if (k % 10 == 3) {
            v[1].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
            v[1].offs[i + 1] = v[1].offs[i];
        } else {
            int l = snprintf((char *)v[1].data + v[1].offs[i], 32, "v%" PRId64, k);
            v[1].offs[i + 1] = v[1].offs[i] + (uint64_t)l;
        }
        v[2].f64[i] = (double)k / 10.0;
    }
    stu_segment_finish(w, v);
    arena_free(a);
}

/* Commit a rowset of one segment (ncols columns, keys base..base+n-1) plus optional deletes. */
static void
commit_rowset(stu_env *v, uint64_t rsid, uint32_t ncols, int64_t base, uint32_t n,
              uint32_t page_rows, uint64_t tso, uint64_t del_rs, const uint32_t *del, size_t ndel)
{
    db_error e;
    db_error_clear(&e);
    stor_tablet *t = stor_engine_tablet(v->eng, TABLET, true);
    char name[64];
    snprintf(name, sizeof name, "r%" PRIu64 ".seg", rsid);
    write_segment(t, name, ncols, base, n, page_rows);
    stor_txn *txn = stor_txn_new(rsid);
    const char *names[1] = {name};
    stor_txn_add_rowset(txn, TABLET, rsid, n, names, 1);
    if (ndel > 0) {
        stor_txn_delete(txn, TABLET, del_rs, 0, del, ndel);
    }
    cr_assert_eq(stor_txn_commit(v->eng, txn, tso, &e), DB_OK, "%s", e.msg);
    stor_txn_free(txn);
}

/* Scan everything of snap (columns cols) into keys[] (the k column must be cols[0]); checks
 * every batch's invariants: n <= max_rows, rows[] ordinals match the keys (key = rowset base +
 * ordinal, base = 1000 * rowset id), v/d consistent with k. Returns the row count. */
static size_t
scan_all(stu_env *v, const stor_schema *sc, const stor_snapshot *snap, const uint32_t *cols,
         uint32_t ncols, const stor_range *rg, uint32_t nrg, uint32_t max_rows, int64_t *keys,
         size_t cap, stor_scan_stats *stats)
{
    db_error e;
    db_error_clear(&e);
    stor_scan *s = stor_scan_open(v->eng, sc, snap, cols, ncols, rg, nrg, &e);
    cr_assert_not_null(s, "%s", e.msg);
    arena *a = arena_new(0);
    size_t total = 0;
    for (;;) {
        stor_scan_batch b;
        bool eof;
        arena_reset(a);
        cr_assert_eq(stor_scan_next(s, a, max_rows, &b, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            cr_assert_eq(b.n, 0);
            break;
        }
        cr_assert(b.n > 0 && b.n <= max_rows, "batch of %u rows", b.n);
        cr_assert_eq(b.tablet_id, TABLET);
        cr_assert_eq(b.segment_id, 0);
        cr_assert_eq(b.commit_tso, b.rowset_id * 100);
        for (uint32_t r = 0; r < b.n; r++) {
            int64_t k = b.cols[0].i64[r];
            cr_assert_eq(k, (int64_t)b.rowset_id * 1000 + b.rows[r], "key %" PRId64 " ordinal %u",
                         k, b.rows[r]);
            cr_assert(r == 0 || b.rows[r] > b.rows[r - 1]);
            for (uint32_t c = 1; c < ncols; c++) {
                const stor_vec *cv = &b.cols[c];
                if (b.missing[c]) {
                    cr_assert(stor_vec_is_null(cv, r));
                    continue;
                }
                if (cols[c] == 1) {
                    cr_assert_eq(stor_vec_is_null(cv, r), k % 10 == 3);
                    if (k % 10 != 3) {
                        char want[32];
                        int l = snprintf(want, sizeof want, "v%" PRId64, k);
                        cr_assert_eq(cv->offs[r + 1] - cv->offs[r], (uint64_t)l);
                        cr_assert_eq(memcmp(cv->data + cv->offs[r], want, (size_t)l), 0);
                    }
                } else if (cols[c] == 2) {
                    cr_assert_eq(cv->f64[r], (double)k / 10.0);
                }
            }
            cr_assert(total < cap);
            keys[total++] = k;
        }
    }
    if (stats != NULL) {
        *stats = stor_scan_get_stats(s);
    }
    stor_scan_close(s);
    arena_free(a);
    return total;
}

static bool
has_key(const int64_t *keys, size_t n, int64_t k)
{
    for (size_t i = 0; i < n; i++) {
        if (keys[i] == k) {
            return true;
        }
    }
    return false;
}

/* ---- schema ---- */

Test(stor_scan, schema_from_validated_table)
{
    db_error e;
    db_error_clear(&e);
    cat_catalog *c = cat_catalog_new();
    cr_assert_eq(cat_db_create(c, "d", false, NULL, NULL, &e), DB_OK, "%s", e.msg);
    cat_column_def cols[4];
    memset(cols, 0, sizeof cols);
    const char *names[] = {"k1", "dt", "v", "s"};
    cat_type types[] = {cat_type_make(CAT_T_INT), cat_type_make(CAT_T_DATE), cat_type_varchar(10),
                        cat_type_make(CAT_T_BIGINT)};
    for (int i = 0; i < 4; i++) {
        cols[i].name = names[i];
        cols[i].type = types[i];
        cols[i].auto_inc_start = 1;
    }
    const char *keys[] = {"k1", "dt"};
    const char *dist[] = {"k1"};
    cat_prop props[] = {{"enable_unique_key_merge_on_write", "true"},
                        {"function_column.sequence_col", "S"}};
    cat_create_table_req r = {
            .db = "d",
            .name = "t",
            .cols = cols,
            .ncols = 4,
            .has_keys = true,
            .keys_type = CAT_KEYS_UNIQUE,
            .key_cols = keys,
            .nkey_cols = 2,
            .has_dist = true,
            .dist_cols = dist,
            .ndist_cols = 1,
            .buckets = 3,
            .props = props,
            .nprops = 2,
    };
    cat_table *t = NULL;
    cr_assert_eq(cat_table_validate_create(c, &r, &t, &e), DB_OK, "%s", e.msg);
    arena *a = arena_new(0);
    stor_schema sc;
    cr_assert_eq(stor_schema_from_table(t, a, &sc, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(sc.ncols, t->ncols);
    cr_assert(sc.ncols > 4); /* hidden columns (delete sign, sequence) included */
    cr_assert_eq(sc.nkeys, 2);
    cr_assert_eq(sc.keys, CAT_KEYS_UNIQUE);
    cr_assert(sc.mow);
    for (uint32_t i = 0; i < sc.ncols; i++) {
        cr_assert_eq(sc.cols[i].uid, (uint32_t)t->cols[i].uid);
        cr_assert_eq(sc.cols[i].type.id, t->cols[i].type.id);
        cr_assert_eq(sc.cols[i].is_key, i < 2);
        cr_assert_eq(sc.cols[i].nullable, t->cols[i].nullable);
    }
    cr_assert_eq(sc.seq_col, 3); /* the column the property names, matched case-insensitively */
    cr_assert_geq(sc.delete_sign_col, 4);
    cr_assert_str_eq(t->cols[sc.delete_sign_col].name, "__DORIS_DELETE_SIGN__");
    /* the copy does not point into the catalog table */
    cr_assert_neq((void *)sc.cols, (void *)t->cols);
    cat_table_free(t);
    cat_catalog_free(c);
    arena_free(a);
}

Test(stor_scan, schema_by_hand)
{
    db_error e;
    db_error_clear(&e);
    cat_column cols[3];
    memset(cols, 0, sizeof cols);
    cols[0] =
            (cat_column){.uid = 10, .name = "k", .type = cat_type_make(CAT_T_INT), .is_key = true};
    cols[1] = (cat_column){.uid = 11,
                           .name = "__DORIS_SEQUENCE_COL__",
                           .type = cat_type_make(CAT_T_BIGINT),
                           .nullable = true};
    cols[2] = (cat_column){.uid = 12, .name = "m", .type = cat_type_make(CAT_T_MAP)};
    cat_table t;
    memset(&t, 0, sizeof t);
    t.id = 5;
    t.keys = CAT_KEYS_UNIQUE;
    t.cols = cols;
    t.ncols = 2;
    t.nkeys = 1;
    cat_props_init(&t.props);
    arena *a = arena_new(0);
    stor_schema sc;
    cr_assert_eq(stor_schema_from_table(&t, a, &sc, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(sc.table_id, 5);
    cr_assert_eq(sc.seq_col, 1);
    cr_assert_eq(sc.delete_sign_col, -1);
    cr_assert_eq(sc.cols[0].uid, 10);
    cr_assert(sc.cols[1].nullable);
    t.ncols = 3; /* a MAP column cannot be stored */
    cr_assert_eq(stor_schema_from_table(&t, a, &sc, &e), DB_ERR);
    cr_assert_eq(e.code, 1105);
    cr_assert(strstr(e.msg, "unique id 12") != NULL, "%s", e.msg);
    arena_free(a);
}

/* ---- key encoding ---- */

static stor_column_desc one_col[1];

/* Encoded key of one I64/F64 value of type ty. */
static void
enc1(cat_type ty, int64_t i, double f, bool null, buf *out)
{
    one_col[0] = (stor_column_desc){1, ty, true, true};
    stor_schema sc = {
            .ncols = 1, .cols = one_col, .nkeys = 1, .seq_col = -1, .delete_sign_col = -1};
    uint8_t nb = null ? 1 : 0;
    stor_vec v = {.n = 1, .nulls = &nb};
    if (ty.id == CAT_T_DOUBLE || ty.id == CAT_T_FLOAT) {
        v.kind = STOR_VEC_F64;
        v.f64 = &f;
    } else {
        v.kind = STOR_VEC_I64;
        v.i64 = &i;
    }
    uint32_t idx = 0;
    buf_clear(out);
    stor_key_encode_row(&sc, &v, &idx, 1, 0, out);
}

static int
bufcmp(const buf *a, const buf *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->data, b->data, n);
    return c != 0 ? c : (a->len > b->len) - (a->len < b->len);
}

Test(stor_scan, key_order_dates)
{
    buf a, b, x;
    buf_init(&a);
    buf_init(&b);
    buf_init(&x);
    /* days since 1970-01-01 vs the civil date */
    enc1(cat_type_make(CAT_T_DATE), 0, 0, false, &a);
    stor_key_put_date(&x, 1970, 1, 1);
    cr_assert_eq(bufcmp(&a, &x), 0);
    enc1(cat_type_make(CAT_T_DATE), 19782, 0, false, &a);
    buf_clear(&x);
    stor_key_put_date(&x, 2024, 2, 29);
    cr_assert_eq(bufcmp(&a, &x), 0);
    enc1(cat_type_make(CAT_T_DATE), -719528, 0, false, &a);
    buf_clear(&x);
    stor_key_put_date(&x, 0, 1, 1);
    cr_assert_eq(bufcmp(&a, &x), 0);
    enc1(cat_type_make(CAT_T_DATE), -1, 0, false, &a);
    buf_clear(&x);
    stor_key_put_date(&x, 1969, 12, 31);
    cr_assert_eq(bufcmp(&a, &x), 0);
    enc1(cat_type_make(CAT_T_DATETIME), -1, 0, false, &a);
    buf_clear(&x);
    stor_key_put_datetime(&x, 1969, 12, 31, 23, 59, 59, 999999);
    cr_assert_eq(bufcmp(&a, &x), 0);
    enc1(cat_type_make(CAT_T_DATETIME), 1709251199123456LL, 0, false, &a); /* 2024-02-29 */
    buf_clear(&x);
    stor_key_put_datetime(&x, 2024, 2, 29, 23, 59, 59, 123456);
    cr_assert_eq(bufcmp(&a, &x), 0);
    /* SQL order: every pair of a sweep of days, NULL first */
    int64_t days[] = {-719528, -141427, -1, 0, 1, 58, 59, 60, 365, 10956, 19782, 2932896};
    size_t nd = sizeof days / sizeof days[0];
    enc1(cat_type_make(CAT_T_DATE), 0, 0, true, &a);
    enc1(cat_type_make(CAT_T_DATE), days[0], 0, false, &b);
    cr_assert_lt(bufcmp(&a, &b), 0);
    for (size_t i = 0; i + 1 < nd; i++) {
        enc1(cat_type_make(CAT_T_DATE), days[i], 0, false, &a);
        enc1(cat_type_make(CAT_T_DATE), days[i + 1], 0, false, &b);
        cr_assert_lt(bufcmp(&a, &b), 0, "days %" PRId64, days[i]);
        /* datetimes: the last microsecond of a day sorts before the next midnight */
        enc1(cat_type_make(CAT_T_DATETIME), days[i + 1] * 86400000000LL - 1, 0, false, &a);
        enc1(cat_type_make(CAT_T_DATETIME), days[i + 1] * 86400000000LL, 0, false, &b);
        cr_assert_lt(bufcmp(&a, &b), 0, "datetime at day %" PRId64, days[i + 1]);
    }
    int64_t us[] = {-86400000001LL, -1000000, -1, 0, 1, 999999, 1000000, 59999999, 3600000000LL};
    for (size_t i = 0; i + 1 < sizeof us / sizeof us[0]; i++) {
        enc1(cat_type_make(CAT_T_DATETIME), us[i], 0, false, &a);
        enc1(cat_type_make(CAT_T_DATETIME), us[i + 1], 0, false, &b);
        cr_assert_lt(bufcmp(&a, &b), 0, "us %" PRId64, us[i]);
    }
    buf_destroy(&a);
    buf_destroy(&b);
    buf_destroy(&x);
}

Test(stor_scan, key_order_doubles)
{
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    double vals[] = {-INFINITY, -1e300, -2.5, -1.0,  -1e-300,  0.0,
                     1e-300,    1.0,    2.5,  1e300, INFINITY, NAN};
    size_t nv = sizeof vals / sizeof vals[0];
    for (size_t i = 0; i + 1 < nv; i++) {
        enc1(cat_type_make(CAT_T_DOUBLE), 0, vals[i], false, &a);
        enc1(cat_type_make(CAT_T_DOUBLE), 0, vals[i + 1], false, &b);
        cr_assert_lt(bufcmp(&a, &b), 0, "%g vs %g", vals[i], vals[i + 1]);
    }
    enc1(cat_type_make(CAT_T_DOUBLE), 0, -0.0, false, &a);
    enc1(cat_type_make(CAT_T_DOUBLE), 0, 0.0, false, &b);
    cr_assert_eq(bufcmp(&a, &b), 0, "-0.0 and 0.0 are equal in SQL");
    enc1(cat_type_make(CAT_T_DOUBLE), 0, 0, true, &a);
    enc1(cat_type_make(CAT_T_DOUBLE), 0, -INFINITY, false, &b);
    cr_assert_lt(bufcmp(&a, &b), 0);
    buf_destroy(&a);
    buf_destroy(&b);
}

/* ---- buckets ---- */

/* Schema (k INT, s VARCHAR) and one row (k, "s<k>"). */
static uint32_t
bucket_of(int64_t k, uint32_t nbuckets)
{
    static stor_column_desc bc[2];
    bc[0] = (stor_column_desc){1, cat_type_make(CAT_T_INT), true, false};
    bc[1] = (stor_column_desc){2, cat_type_varchar(10), true, false};
    stor_schema sc = {.ncols = 2, .cols = bc, .nkeys = 2, .seq_col = -1, .delete_sign_col = -1};
    char s[32];
    int l = snprintf(s, sizeof s, "s%" PRId64, k);
    uint64_t offs[2] = {0, (uint64_t)l};
    stor_vec v[2] = {{.kind = STOR_VEC_I64, .n = 1, .i64 = &k},
                     {.kind = STOR_VEC_BYTES, .n = 1, .offs = offs, .data = (uint8_t *)s}};
    uint32_t dist[2] = {0, 1};
    return stor_bucket_of(&sc, v, dist, 2, 0, nbuckets);
}

Test(stor_scan, bucket_stable)
{
    /* On-disk layout: these numbers must never change. */
    static const int64_t keys[] = {0, 1, 2, 42, -7, 1000000};
    static const uint32_t want16[] = {0, 15, 12, 9, 6, 13};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint32_t b = bucket_of(keys[i], 16);
        cr_assert_eq(b, want16[i], "key %" PRId64 ": bucket %u, want %u", keys[i], b, want16[i]);
        cr_assert_eq(bucket_of(keys[i], 1), 0);
        cr_assert_lt(bucket_of(keys[i], 7), 7);
    }
}

Test(stor_scan, bucket_spread)
{
    uint32_t count[16] = {0};
    for (int64_t k = 0; k < 16000; k++) {
        count[bucket_of(k, 16)]++;
    }
    for (int i = 0; i < 16; i++) {
        cr_assert(count[i] > 850 && count[i] < 1150, "bucket %d holds %u of 16000", i, count[i]);
    }
}

/* ---- scans ---- */

TestSuite(stor_scan, .init = setup, .fini = teardown);

/* Rowset i (1..3): keys 1000*i .. 1000*i+99, commit TSO 100*i. Deletes: version 2 deletes rows
 * 5 and 6 of rowset 1; version 3 deletes row 7 of rowset 1 and rows 0, 99 of rowset 2. */
static void
three_rowsets(stu_env *v, stor_snapshot *snaps)
{
    stor_tablet *t = stor_engine_tablet(v->eng, TABLET, true);
    commit_rowset(v, 1, 3, 1000, 100, 16, 100, 0, NULL, 0);
    stor_tablet_snapshot(t, &snaps[0]);
    uint32_t d2[] = {5, 6};
    commit_rowset(v, 2, 3, 2000, 100, 16, 200, 1, d2, 2);
    stor_tablet_snapshot(t, &snaps[1]);
    stor_txn *txn = stor_txn_new(3);
    uint32_t d3a[] = {7}, d3b[] = {0, 99};
    char name[] = "r3.seg";
    write_segment(t, name, 3, 3000, 100, 16);
    const char *names[1] = {name};
    stor_txn_add_rowset(txn, TABLET, 3, 100, names, 1);
    stor_txn_delete(txn, TABLET, 1, 0, d3a, 1);
    stor_txn_delete(txn, TABLET, 2, 0, d3b, 2);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_txn_commit(v->eng, txn, 300, &e), DB_OK, "%s", e.msg);
    stor_txn_free(txn);
    stor_tablet_snapshot(t, &snaps[2]);
}

Test(stor_scan, snapshot_isolation_with_deletes)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    stor_snapshot snaps[3];
    three_rowsets(&v, snaps);
    uint32_t cols[] = {0, 1, 2};
    int64_t *keys = mem_alloc(400 * sizeof *keys);
    stor_scan_stats st;
    size_t want[3] = {100, 198, 295};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(snaps[i].version, (uint64_t)i + 1);
        size_t n = scan_all(&v, &sc, &snaps[i], cols, 3, NULL, 0, 7, keys, 400, &st);
        cr_assert_eq(n, want[i], "version %d: %zu rows", i + 1, n);
        cr_assert_eq(has_key(keys, n, 1005), i == 0);
        cr_assert_eq(has_key(keys, n, 1006), i == 0);
        cr_assert_eq(has_key(keys, n, 1007), i < 2);
        cr_assert_eq(has_key(keys, n, 2000), i == 1);
        cr_assert_eq(has_key(keys, n, 2099), i == 1);
        cr_assert_eq(has_key(keys, n, 3099), i == 2);
        cr_assert_eq(st.rows_read, 100 * (uint64_t)(i + 1));
        cr_assert_eq(st.rows_deleted, 100 * (uint64_t)(i + 1) - want[i]);
        cr_assert_eq(st.segments_total, (uint64_t)i + 1);
        cr_assert_eq(st.segments_pruned, 0);
        /* ascending rowsets, ascending keys within each */
        for (size_t r = 1; r < n; r++) {
            cr_assert_lt(keys[r - 1], keys[r]);
        }
    }
    /* one big batch gives the same rows */
    size_t n = scan_all(&v, &sc, &snaps[2], cols, 1, NULL, 0, 100000, keys, 400, NULL);
    cr_assert_eq(n, 295);
    for (int i = 0; i < 3; i++) {
        stor_snapshot_destroy(&snaps[i]);
    }
    mem_free(keys);
    stu_env_close(&v);
}

Test(stor_scan, as_of_tso)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    stor_snapshot snaps[3];
    three_rowsets(&v, snaps);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    uint32_t cols[] = {0};
    int64_t keys[400];
    struct {
        uint64_t tso, version;
        size_t nrowsets, rows;
    } cases[] = {{50, 0, 0, 0},    {100, 1, 1, 100}, {199, 1, 1, 100},
                 {250, 2, 2, 198}, {300, 3, 3, 295}, {UINT64_MAX, 3, 3, 295}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stor_snapshot s;
        stor_tablet_snapshot(t, &s);
        cr_assert_eq(stor_snapshot_as_of(&s, cases[i].tso, NULL), DB_OK);
        cr_assert_eq(s.version, cases[i].version, "tso %" PRIu64, cases[i].tso);
        cr_assert_eq(s.nrowsets, cases[i].nrowsets);
        for (size_t r = 0; r < s.nrowsets; r++) {
            cr_assert_leq(s.rowsets[r].commit_tso, cases[i].tso);
        }
        size_t n = scan_all(&v, &sc, &s, cols, 1, NULL, 0, 64, keys, 400, NULL);
        cr_assert_eq(n, cases[i].rows, "tso %" PRIu64 ": %zu rows", cases[i].tso, n);
        stor_snapshot_destroy(&s);
    }
    for (int i = 0; i < 3; i++) {
        stor_snapshot_destroy(&snaps[i]);
    }
    stu_env_close(&v);
}

Test(stor_scan, missing_column_after_add_column)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    /* rowset 1 written before "ADD COLUMN d": only k and v */
    commit_rowset(&v, 1, 2, 1000, 50, 0, 100, 0, NULL, 0);
    commit_rowset(&v, 2, 3, 2000, 50, 0, 200, 0, NULL, 0);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    db_error e;
    db_error_clear(&e);
    uint32_t cols[] = {0, 2};
    stor_scan *sc_ = stor_scan_open(v.eng, &sc, &s, cols, 2, NULL, 0, &e);
    cr_assert_not_null(sc_, "%s", e.msg);
    arena *a = arena_new(0);
    int nb = 0;
    for (;;) {
        stor_scan_batch b;
        bool eof;
        cr_assert_eq(stor_scan_next(sc_, a, 1000, &b, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            break;
        }
        nb++;
        cr_assert_eq(b.n, 50);
        cr_assert_not(b.missing[0]);
        cr_assert_eq(b.missing[1], b.rowset_id == 1);
        cr_assert_eq(b.cols[1].kind, STOR_VEC_F64);
        cr_assert_eq(b.cols[1].n, 50);
        for (uint32_t r = 0; r < b.n; r++) {
            cr_assert_eq(stor_vec_is_null(&b.cols[1], r), b.rowset_id == 1);
            if (b.rowset_id == 2) {
                cr_assert_eq(b.cols[1].f64[r], (double)b.cols[0].i64[r] / 10.0);
            }
        }
    }
    cr_assert_eq(nb, 2);
    stor_scan_close(sc_);
    arena_free(a);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}

/* Flip one byte of the first data page of the segment of rowset 1; then only the column owning
 * that page fails to read, with an error naming the file; the other columns still read, which
 * shows a scan reads only the requested columns. */
Test(stor_scan, corrupt_page_and_column_pruning)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    commit_rowset(&v, 1, 3, 1000, 200, 0, 100, 0, NULL, 0);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    char path[1024];
    snprintf(path, sizeof path, "%s/r1.seg", stor_tablet_dir(t));
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 16 + 14, SEEK_SET), 0); /* after the file header and page header */
    int ch = fgetc(f);
    cr_assert_eq(fseek(f, 16 + 14, SEEK_SET), 0);
    fputc(ch ^ 0x5A, f);
    fclose(f);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    int failed = 0;
    arena *a = arena_new(0);
    for (uint32_t c = 0; c < 3; c++) {
        db_error e;
        db_error_clear(&e);
        stor_scan *sc_ = stor_scan_open(v.eng, &sc, &s, &c, 1, NULL, 0, &e);
        cr_assert_not_null(sc_, "%s", e.msg);
        stor_scan_batch b;
        bool eof = false;
        int rc = DB_OK;
        uint64_t rows = 0;
        while (rc == DB_OK && !eof) {
            rc = stor_scan_next(sc_, a, 64, &b, &eof, &e);
            rows += rc == DB_OK ? b.n : 0;
        }
        if (rc != DB_OK) {
            failed++;
            cr_assert(strstr(e.msg, path) != NULL, "error does not name the file: %s", e.msg);
        } else {
            cr_assert_eq(rows, 200);
        }
        stor_scan_close(sc_);
    }
    cr_assert_eq(failed, 1, "%d columns failed", failed);
    arena_free(a);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}

/* Zone-map pruning: rowset 1 keys 1000..1999 (pages of 50 rows, d = k / 10 ascending), rowset 2
 * keys 2000..2999. A pruned scan returns exactly the rows of an unpruned scan that satisfy the
 * ranges, while skipping pages and a whole segment. */
static void
check_pruned(stu_env *v, const stor_schema *sc, const stor_snapshot *s, const stor_range *rg,
             uint32_t nrg, bool expect_seg_pruned)
{
    uint32_t cols[] = {0, 1, 2};
    int64_t *all = mem_alloc(3000 * sizeof *all);
    int64_t *got = mem_alloc(3000 * sizeof *got);
    stor_scan_stats st_all, st;
    size_t nall = scan_all(v, sc, s, cols, 3, NULL, 0, 33, all, 3000, &st_all);
    size_t ngot = scan_all(v, sc, s, cols, 3, rg, nrg, 33, got, 3000, &st);
    cr_assert_eq(st_all.pages_pruned, 0);
    cr_assert_gt(st.pages_pruned, 0);
    cr_assert_eq(st.pages_total, st_all.pages_total);
    cr_assert_lt(st.rows_read, st_all.rows_read);
    cr_assert_eq(st.segments_pruned > 0, expect_seg_pruned);
    /* filter both by hand; they must agree */
    size_t i = 0, j = 0;
    for (;;) {
        while (i < nall) {
            bool ok = true;
            for (uint32_t k = 0; k < nrg; k++) {
                double x = rg[k].col == 0 ? (double)all[i] : (double)all[i] / 10.0;
                double lo = rg[k].col == 0 ? (double)rg[k].lo.i64 : rg[k].lo.f64;
                double hi = rg[k].col == 0 ? (double)rg[k].hi.i64 : rg[k].hi.f64;
                ok = ok && (!rg[k].has_lo || x >= lo) && (!rg[k].has_hi || x <= hi);
            }
            if (ok) {
                break;
            }
            i++;
        }
        while (j < ngot) {
            bool ok = true;
            for (uint32_t k = 0; k < nrg; k++) {
                double x = rg[k].col == 0 ? (double)got[j] : (double)got[j] / 10.0;
                double lo = rg[k].col == 0 ? (double)rg[k].lo.i64 : rg[k].lo.f64;
                double hi = rg[k].col == 0 ? (double)rg[k].hi.i64 : rg[k].hi.f64;
                ok = ok && (!rg[k].has_lo || x >= lo) && (!rg[k].has_hi || x <= hi);
            }
            if (ok) {
                break;
            }
            j++;
        }
        if (i == nall || j == ngot) {
            cr_assert(i == nall && j == ngot, "pruned scan lost or invented rows");
            break;
        }
        cr_assert_eq(all[i], got[j]);
        i++;
        j++;
    }
    mem_free(all);
    mem_free(got);
}

Test(stor_scan, zone_map_pruning)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    commit_rowset(&v, 1, 3, 1000, 1000, 50, 100, 0, NULL, 0);
    uint32_t del[] = {310, 311, 700};
    commit_rowset(&v, 2, 3, 2000, 1000, 50, 200, 1, del, 3);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    /* key range (short-key index + zone maps) inside rowset 1 */
    stor_range rk = {.col = 0, .has_lo = true, .has_hi = true, .lo.i64 = 1305, .hi.i64 = 1420};
    check_pruned(&v, &sc, &s, &rk, 1, true);
    /* non-key range on d, spanning both rowsets */
    stor_range rd = {.col = 2, .has_lo = true, .has_hi = true, .lo.f64 = 197.5, .hi.f64 = 203.05};
    check_pruned(&v, &sc, &s, &rd, 1, false);
    /* both: intersection; only lower bound */
    stor_range both[2] = {{.col = 0, .has_lo = true, .lo.i64 = 1500},
                          {.col = 2, .has_hi = true, .hi.f64 = 160.0}};
    check_pruned(&v, &sc, &s, both, 2, true);
    /* a range nothing satisfies */
    stor_range none = {.col = 0, .has_lo = true, .lo.i64 = 5000};
    int64_t keys[8];
    stor_scan_stats st;
    uint32_t cols[] = {0};
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 1, &none, 1, 10, keys, 8, &st), 0);
    cr_assert_eq(st.segments_pruned, 2);
    cr_assert_eq(st.rows_read, 0);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}

Test(stor_scan, empty_tablet)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    stor_snapshot s = {.tablet_id = 999};
    db_error e;
    db_error_clear(&e);
    uint32_t cols[] = {0};
    stor_scan *sc_ = stor_scan_open(v.eng, &sc, &s, cols, 1, NULL, 0, &e);
    cr_assert_not_null(sc_, "%s", e.msg);
    arena *a = arena_new(0);
    stor_scan_batch b;
    bool eof = false;
    cr_assert_eq(stor_scan_next(sc_, a, 10, &b, &eof, &e), DB_OK);
    cr_assert(eof);
    cr_assert_eq(b.n, 0);
    stor_scan_close(sc_);
    arena_free(a);
    stu_env_close(&v);
}

/* True when key k's v value ("v<k>", NULL when k % 10 == 3) lies in [lo, hi]. */
static bool
v_in(int64_t k, const char *lo, const char *hi)
{
    char s[32];
    snprintf(s, sizeof s, "v%" PRId64, k);
    return k % 10 != 3 && strcmp(s, lo) >= 0 && strcmp(s, hi) <= 0;
}

Test(stor_scan, string_range_pruning)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    commit_rowset(&v, 1, 3, 1000, 1000, 50, 100, 0, NULL, 0);
    commit_rowset(&v, 2, 3, 2000, 1000, 50, 200, 0, NULL, 0);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    const char *lo = "v1512", *hi = "v1566";
    stor_range rg = {.col = 1,
                     .has_lo = true,
                     .has_hi = true,
                     .lo = {.str = (const uint8_t *)lo, .len = strlen(lo)},
                     .hi = {.str = (const uint8_t *)hi, .len = strlen(hi)}};
    uint32_t cols[] = {0, 1};
    int64_t *all = mem_alloc(2000 * sizeof *all), *got = mem_alloc(2000 * sizeof *got);
    stor_scan_stats st;
    size_t nall = scan_all(&v, &sc, &s, cols, 2, NULL, 0, 100, all, 2000, NULL);
    size_t ngot = scan_all(&v, &sc, &s, cols, 2, &rg, 1, 100, got, 2000, &st);
    cr_assert_eq(nall, 2000);
    cr_assert_eq(ngot, 100, "%zu rows: pages [1500, 1550) and [1550, 1600)", ngot);
    cr_assert_eq(st.segments_pruned, 1);
    cr_assert_eq(st.pages_pruned, st.pages_total - 4); /* 2 pages of k and 2 of v read */
    size_t want = 0, have = 0;
    for (size_t i = 0; i < nall; i++) {
        want += v_in(all[i], lo, hi);
    }
    for (size_t i = 0; i < ngot; i++) {
        have += v_in(got[i], lo, hi);
    }
    cr_assert_eq(want, 49); /* 1512..1566 minus the NULLs 1513, 1523, ..., 1563 */
    cr_assert_eq(have, want);
    mem_free(all);
    mem_free(got);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}

/* ---- key narrowing: binary search of the first key column inside the pages ---- */

/* A segment of the test table with explicit (sorted) keys; NULL keys where knull[i]; v is
 * "v<k>" and d = k / 10.0 as in write_segment. The key column is declared nullable here. */
static void
commit_keys(stu_env *v, uint64_t rsid, const int64_t *keys, const bool *knull, uint32_t n,
            uint32_t page_rows, const uint32_t *del, size_t ndel)
{
    db_error e;
    db_error_clear(&e);
    stor_tablet *t = stor_engine_tablet(v->eng, TABLET, true);
    char name[64], path[1024];
    snprintf(name, sizeof name, "k%" PRIu64 ".seg", rsid);
    stu_tablet_path(t, name, path, sizeof path);
    stor_column_desc cols[3] = {all_cols[0], all_cols[1], all_cols[2]};
    cols[0].nullable = true;
    stor_segment_opts opts = {.no_fsync = true, .max_page_rows = page_rows};
    stor_segment_writer *w = stor_segment_writer_open(path, 3, cols, &opts, &e);
    cr_assert_not_null(w, "%s", e.msg);
    arena *a = arena_new(0);
    stor_vec vv[3];
    memset(vv, 0, sizeof vv);
    vv[0] = (stor_vec){.kind = STOR_VEC_I64,
                       .n = n,
                       .i64 = arena_calloc(a, n, sizeof(int64_t)),
                       .nulls = arena_calloc(a, (n + 7) / 8, 1)};
    vv[1] = (stor_vec){.kind = STOR_VEC_BYTES,
                       .n = n,
                       .offs = arena_calloc(a, n + 1, sizeof(uint64_t)),
                       .data = arena_alloc(a, 32 * (size_t)n + 1),
                       .nulls = arena_calloc(a, (n + 7) / 8, 1)};
    vv[2] = (stor_vec){.kind = STOR_VEC_F64, .n = n, .f64 = arena_calloc(a, n, sizeof(double))};
    for (uint32_t i = 0; i < n; i++) {
        if (knull[i]) {
            vv[0].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
            vv[1].nulls[i / 8] |= (uint8_t)(1u << (i % 8));
            vv[1].offs[i + 1] = vv[1].offs[i];
            continue;
        }
        vv[0].i64[i] = keys[i];
        int l = snprintf((char *)vv[1].data + vv[1].offs[i], 32, "v%" PRId64, keys[i]);
        vv[1].offs[i + 1] = vv[1].offs[i] + (uint64_t)l;
        vv[2].f64[i] = (double)keys[i] / 10.0;
    }
    stu_segment_finish(w, vv);
    arena_free(a);
    stor_txn *txn = stor_txn_new(rsid);
    const char *names[1] = {name};
    stor_txn_add_rowset(txn, TABLET, rsid, n, names, 1);
    cr_assert_eq(stor_txn_commit(v->eng, txn, rsid * 100, &e), DB_OK, "%s", e.msg);
    stor_txn_free(txn);
    if (ndel > 0) {
        /* deletes come with a later rowset (one row, key 1000000; scans below skip it) */
        write_segment(t, "extra.seg", 3, 1000000, 1, 8);
        const char *xn[1] = {"extra.seg"};
        txn = stor_txn_new(rsid + 1);
        stor_txn_add_rowset(txn, TABLET, rsid + 1, 1, xn, 1);
        stor_txn_delete(txn, TABLET, rsid, 0, del, ndel);
        cr_assert_eq(stor_txn_commit(v->eng, txn, rsid * 100 + 100, &e), DB_OK, "%s", e.msg);
        stor_txn_free(txn);
    }
}

/* Scan columns k, v, d with ranges; returns the segment ordinals of the rows (ascending, one
 * rowset) and checks every row's values against keys/knull at its ordinal. */
static size_t
scan_ordinals(stu_env *v, const stor_schema *sc, const stor_snapshot *snap, const stor_range *rg,
              uint32_t nrg, uint32_t max_rows, const int64_t *keys, const bool *knull,
              uint32_t *out, size_t cap, stor_scan_stats *st)
{
    db_error e;
    db_error_clear(&e);
    uint32_t cols[] = {0, 1, 2};
    stor_scan *s = stor_scan_open(v->eng, sc, snap, cols, 3, rg, nrg, &e);
    cr_assert_not_null(s, "%s", e.msg);
    arena *a = arena_new(0);
    size_t total = 0;
    for (;;) {
        stor_scan_batch b;
        bool eof;
        arena_reset(a);
        cr_assert_eq(stor_scan_next(s, a, max_rows, &b, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            break;
        }
        cr_assert(b.n > 0 && b.n <= max_rows);
        if (b.rowset_id != 1) {
            continue; /* commit_keys' extra rowset */
        }
        for (uint32_t r = 0; r < b.n; r++) {
            uint32_t o = b.rows[r];
            cr_assert(total == 0 || o > out[total - 1]);
            cr_assert_eq(stor_vec_is_null(&b.cols[0], r), knull[o], "ordinal %u", o);
            cr_assert_eq(stor_vec_is_null(&b.cols[1], r), knull[o], "ordinal %u", o);
            if (!knull[o]) {
                cr_assert_eq(b.cols[0].i64[r], keys[o], "ordinal %u", o);
                cr_assert_eq(b.cols[2].f64[r], (double)keys[o] / 10.0);
                char want[32];
                int l = snprintf(want, sizeof want, "v%" PRId64, keys[o]);
                cr_assert_eq(b.cols[1].offs[r + 1] - b.cols[1].offs[r], (uint64_t)l);
                cr_assert_eq(memcmp(b.cols[1].data + b.cols[1].offs[r], want, (size_t)l), 0);
            }
            cr_assert(total < cap);
            out[total++] = o;
        }
    }
    *st = stor_scan_get_stats(s);
    stor_scan_close(s);
    arena_free(a);
    return total;
}

/* The ordinals a range on k must return: non-NULL keys in [lo, hi], not deleted. */
static size_t
expect_ordinals(const int64_t *keys, const bool *knull, uint32_t n, const stor_range *rg,
                const uint32_t *del, size_t ndel, uint32_t *out)
{
    size_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool deleted = false;
        for (size_t d = 0; d < ndel; d++) {
            deleted = deleted || del[d] == i;
        }
        if (!knull[i] && !deleted && (!rg->has_lo || keys[i] >= rg->lo.i64) &&
            (!rg->has_hi || keys[i] <= rg->hi.i64)) {
            out[m++] = i;
        }
    }
    return m;
}

Test(stor_scan, key_narrowing_point_and_range)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    commit_rowset(&v, 1, 3, 1000, 1000, 50, 100, 0, NULL, 0);
    uint32_t del[] = {310, 311, 700};
    commit_rowset(&v, 2, 3, 2000, 1000, 50, 200, 1, del, 3);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    uint32_t cols[] = {0, 1, 2};
    int64_t keys[200];
    stor_scan_stats st;
    /* point: one row read (not a page of 50), every column right (scan_all checks ordinals) */
    stor_range pt = {.col = 0, .has_lo = true, .has_hi = true, .lo.i64 = 1305, .hi.i64 = 1305};
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 3, &pt, 1, 10, keys, 200, &st), 1);
    cr_assert_eq(keys[0], 1305);
    cr_assert_eq(st.rows_read, 1);
    cr_assert_eq(st.segments_pruned, 1);
    cr_assert_eq(st.pages_total - st.pages_pruned, 3); /* one page of each column */
    /* first and last rows of a segment and of pages */
    int64_t edges[] = {1000, 1999, 1049, 1050, 2000, 2999};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        pt.lo.i64 = pt.hi.i64 = edges[i];
        cr_assert_eq(scan_all(&v, &sc, &s, cols, 3, &pt, 1, 10, keys, 200, &st), 1);
        cr_assert_eq(keys[0], edges[i]);
        cr_assert_eq(st.rows_read, 1);
    }
    /* a deleted key: read, then removed */
    pt.lo.i64 = pt.hi.i64 = 1310;
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 3, &pt, 1, 10, keys, 200, &st), 0);
    cr_assert_eq(st.rows_read, 1);
    cr_assert_eq(st.rows_deleted, 1);
    /* a range across pages: exactly its rows, deletes removed */
    stor_range rg = {.col = 0, .has_lo = true, .has_hi = true, .lo.i64 = 1305, .hi.i64 = 1420};
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 3, &rg, 1, 7, keys, 200, &st), 116 - 2);
    cr_assert_eq(st.rows_read, 116);
    cr_assert_eq(keys[0], 1305);
    cr_assert_eq(keys[113], 1420);
    /* open-ended ranges */
    stor_range lo_only = {.col = 0, .has_lo = true, .lo.i64 = 2990};
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 1, &lo_only, 1, 100, keys, 200, &st), 10);
    cr_assert_eq(st.rows_read, 10);
    stor_range hi_only = {.col = 0, .has_hi = true, .hi.i64 = 1009};
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 1, &hi_only, 1, 100, keys, 200, &st), 10);
    cr_assert_eq(st.rows_read, 10);
    /* a range between segments */
    stor_range gap = {.col = 0, .has_lo = true, .has_hi = true, .lo.i64 = 1999, .hi.i64 = 2000};
    cr_assert_eq(scan_all(&v, &sc, &s, cols, 3, &gap, 1, 100, keys, 200, &st), 2);
    cr_assert_eq(st.rows_read, 2);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}

Test(stor_scan, key_narrowing_nulls_duplicates_gaps)
{
    stu_env v;
    env_open(&v);
    stor_schema sc;
    make_schema(&sc);
    /* 37 NULL keys first (sorted first), then even keys, each key k repeated k % 5 + 1 times
     * (DUP duplicates, some across page boundaries); pages of 8 rows */
    enum { N = 1200 };
    int64_t *keys = mem_alloc(N * sizeof *keys);
    bool *knull = mem_calloc(N, sizeof *knull);
    uint32_t n = 0;
    for (; n < 37; n++) {
        knull[n] = true;
    }
    for (int64_t k = 0; n < N; k += 2) {
        for (int64_t r = 0; r <= k % 5 && n < N; r++) {
            keys[n++] = k;
        }
    }
    uint32_t del[] = {37, 100, 101, 555, N - 1};
    commit_keys(&v, 1, keys, knull, N, 8, del, 5);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    uint32_t *got = mem_alloc(N * sizeof *got), *want = mem_alloc(N * sizeof *want);
    stor_scan_stats st;
    int64_t maxk = keys[N - 1];
    /* points on every key (odd ones are gaps inside pages) and bounds below / above */
    for (int64_t k = -3; k <= maxk + 3; k++) {
        stor_range rg = {.col = 0, .has_lo = true, .has_hi = true, .lo.i64 = k, .hi.i64 = k};
        size_t nw = expect_ordinals(keys, knull, N, &rg, del, 5, want);
        size_t ng = scan_ordinals(&v, &sc, &s, &rg, 1, 3, keys, knull, got, N, &st);
        cr_assert_eq(ng, nw, "key %" PRId64 ": %zu rows, want %zu", k, ng, nw);
        cr_assert_eq(memcmp(got, want, nw * sizeof *got), 0, "key %" PRId64, k);
        cr_assert_leq(st.rows_read, nw + 2, "key %" PRId64 ": read %" PRIu64, k, st.rows_read);
        if (k % 2 != 0 && k > 0 && k < maxk) {
            cr_assert_eq(st.rows_read, 0, "gap key %" PRId64, k);
        }
    }
    /* ranges, including open ends (NULL keys never match) */
    unsigned seed = 99;
    for (int i = 0; i < 200; i++) {
        int64_t a = rand_r(&seed) % (maxk + 20) - 10, b = rand_r(&seed) % (maxk + 20) - 10;
        stor_range rg = {.col = 0,
                         .has_lo = i % 7 != 1,
                         .has_hi = i % 7 != 2,
                         .lo.i64 = a < b ? a : b,
                         .hi.i64 = a < b ? b : a};
        size_t nw = expect_ordinals(keys, knull, N, &rg, del, 5, want);
        size_t ng = scan_ordinals(&v, &sc, &s, &rg, 1, 1 + i % 50, keys, knull, got, N, &st);
        cr_assert_eq(ng, nw, "range %d: %zu rows, want %zu", i, ng, nw);
        cr_assert_eq(memcmp(got, want, nw * sizeof *got), 0, "range %d", i);
    }
    /* no range: the NULL keys come back too */
    size_t nall = scan_ordinals(&v, &sc, &s, NULL, 0, 100, keys, knull, got, N, &st);
    cr_assert_eq(nall, N - 5);
    /* a range on a non-key column does not narrow by the key */
    stor_range rd = {.col = 2, .has_lo = true, .lo.f64 = 1.0};
    scan_ordinals(&v, &sc, &s, &rd, 1, 100, keys, knull, got, N, &st);
    cr_assert_eq((st.rows_read - 1) % 8, 0, "page-granular (+ the extra row): %" PRIu64,
                 st.rows_read);
    mem_free(got);
    mem_free(want);
    mem_free(keys);
    mem_free(knull);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}
