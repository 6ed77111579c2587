/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of compaction (storage/stor_compact.c and the compaction record of
 * storage/stor_engine.c) with a real edit log, TSO, engine and segment files written through
 * stor_writer in a temporary directory: identical scans before and after cumulative and base
 * compaction (DUP and MoW), old snapshots, writes racing the publish, restart, time travel,
 * stale delete-by-location, the background thread. White-box via storage/stor_int.h for the
 * publish hook and the retired list. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/stor_int.h"
#include "storage/storage.h"

#define PART   7
#define TABLET (((uint64_t)PART << 16) | 0u)
#define DS_UID 5

static char tmpdir[256];
static char logdir[300];
static char datadir[300];

static void
rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        while (d != NULL && (de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
                char p[1024];
                snprintf(p, sizeof p, "%s/%s", path, de->d_name);
                rm_rf(p);
            }
        }
        if (d != NULL) {
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void
setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/stor_cp_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    snprintf(logdir, sizeof logdir, "%s/log", tmpdir);
    snprintf(datadir, sizeof datadir, "%s/data", tmpdir);
}

static void
teardown(void)
{
    rm_rf(tmpdir);
}

TestSuite(stor_compact, .init = setup, .fini = teardown);

/* ---- environment ---- */

typedef struct env {
    cat_editlog *log;
    cat_tso *tso;
    stor_engine *eng;
} env;

static void
env_open(env *v)
{
    db_error e;
    db_error_clear(&e);
    v->log = cat_editlog_open(logdir, NULL, &e);
    cr_assert_not_null(v->log, "%s", e.msg);
    v->tso = cat_tso_new(v->log, cat_clock_realtime_ms, NULL, &e);
    cr_assert_not_null(v->tso, "%s", e.msg);
    v->eng = stor_engine_new(datadir, v->log, &e);
    cr_assert_not_null(v->eng, "%s", e.msg);
    cr_assert_eq(cat_editlog_replay(v->log, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_engine_remove_orphans(v->eng, NULL, &e), DB_OK, "%s", e.msg);
}

static void
env_close(env *v)
{
    stor_engine_free(v->eng);
    cat_editlog_close(v->log);
    cat_tso_free(v->tso);
    memset(v, 0, sizeof *v);
}

/* ---- schemas: MoW (k, v, s, delete sign) and DUP (k, s) ---- */

static stor_column_desc mow_cols[4];
static stor_column_desc dup_cols[2];

static stor_schema
mow_schema(void)
{
    mow_cols[0] = (stor_column_desc){1, cat_type_make(CAT_T_BIGINT), true, false};
    mow_cols[1] = (stor_column_desc){2, cat_type_make(CAT_T_BIGINT), false, true};
    mow_cols[2] = (stor_column_desc){3, cat_type_varchar(32), false, true};
    mow_cols[3] = (stor_column_desc){DS_UID, cat_type_make(CAT_T_TINYINT), false, false};
    return (stor_schema){.table_id = 1,
                         .keys = CAT_KEYS_UNIQUE,
                         .mow = true,
                         .ncols = 4,
                         .cols = mow_cols,
                         .nkeys = 1,
                         .seq_col = -1,
                         .delete_sign_col = 3};
}

static stor_schema
dup_schema(void)
{
    dup_cols[0] = (stor_column_desc){1, cat_type_make(CAT_T_BIGINT), true, false};
    dup_cols[1] = (stor_column_desc){2, cat_type_varchar(32), false, true};
    return (stor_schema){.table_id = 2,
                         .keys = CAT_KEYS_DUP,
                         .ncols = 2,
                         .cols = dup_cols,
                         .nkeys = 1,
                         .seq_col = -1,
                         .delete_sign_col = -1};
}

/* ---- writing ---- */

/* Put n rows: keys k[i], value k[i] * mul, string "s<k>_<mul>", delete sign ds. */
static void
put_rows(stor_writer *w, const stor_schema *sc, const int64_t *k, uint32_t n, int64_t mul,
         int64_t ds)
{
    arena *a = arena_new(0);
    stor_vec cols[4];
    memset(cols, 0, sizeof cols);
    cols[0] = (stor_vec){.kind = STOR_VEC_I64, .n = n, .i64 = arena_alloc(a, (n + 1) * 8)};
    stor_vec *sv = &cols[sc->ncols == 2 ? 1 : 2];
    *sv = (stor_vec){.kind = STOR_VEC_BYTES, .n = n};
    sv->offs = arena_alloc(a, (n + 1) * sizeof *sv->offs);
    sv->data = arena_alloc(a, (size_t)n * 40 + 1);
    sv->offs[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        cols[0].i64[i] = k[i];
        int len = snprintf((char *)sv->data + sv->offs[i], 40, "s%" PRId64 "_%" PRId64, k[i], mul);
        sv->offs[i + 1] = sv->offs[i] + (uint64_t)len;
    }
    if (sc->ncols == 4) {
        cols[1] = (stor_vec){.kind = STOR_VEC_I64, .n = n, .i64 = arena_alloc(a, (n + 1) * 8)};
        cols[3] = (stor_vec){.kind = STOR_VEC_I64, .n = n, .i64 = arena_alloc(a, (n + 1) * 8)};
        for (uint32_t i = 0; i < n; i++) {
            cols[1].i64[i] = k[i] * mul;
            cols[3].i64[i] = ds;
        }
    }
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_writer_put(w, sc, PART, 0, cols, n, NULL, &e), DB_OK, "%s", e.msg);
    arena_free(a);
}

static uint64_t
commit_writer(env *v, stor_writer *w)
{
    db_error e;
    db_error_clear(&e);
    uint64_t tso = 0;
    cr_assert_eq(stor_writer_commit(w, v->tso, &tso, &e), DB_OK, "%s", e.msg);
    stor_writer_free(w);
    return tso;
}

/* One commit of keys [from, to) step 1 with multiplier mul and delete sign ds. */
static uint64_t
write_range(env *v, const stor_schema *sc, int64_t from, int64_t to, int64_t mul, int64_t ds)
{
    uint32_t n = (uint32_t)(to - from);
    int64_t *k = mem_calloc(n + 1, sizeof *k);
    for (uint32_t i = 0; i < n; i++) {
        k[i] = to - 1 - i; /* unsorted input: the writer sorts */
    }
    stor_writer *w = stor_writer_new(v->eng);
    put_rows(w, sc, k, n, mul, ds);
    mem_free(k);
    return commit_writer(v, w);
}

/* ---- reading: every visible row as a sorted list of strings ---- */

typedef struct rowlist {
    char **rows;
    size_t n;
    /* location of the first row whose key is loc_key (for delete by location) */
    int64_t loc_key;
    uint64_t loc_rowset;
    uint32_t loc_segment, loc_row;
} rowlist;

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scan snap (or a fresh snapshot when NULL) of the tablet; MoW rows whose delete sign is 1 are
 * left out, as the SQL layer filters them. */
static rowlist
scan_rows(env *v, const stor_schema *sc, const stor_snapshot *given, int64_t loc_key)
{
    stor_tablet *t = stor_engine_tablet(v->eng, TABLET, false);
    cr_assert_not_null(t);
    stor_snapshot own;
    const stor_snapshot *snap = given;
    if (snap == NULL) {
        stor_tablet_snapshot(t, &own);
        snap = &own;
    }
    uint32_t cols[4] = {0, 1, 2, 3};
    db_error e;
    db_error_clear(&e);
    stor_scan *s = stor_scan_open(v->eng, sc, snap, cols, sc->ncols, NULL, 0, &e);
    cr_assert_not_null(s, "%s", e.msg);
    rowlist out = {.loc_key = loc_key};
    size_t cap = 0;
    arena *a = arena_new(0);
    for (;;) {
        stor_scan_batch b;
        bool eof = false;
        arena_reset(a);
        cr_assert_eq(stor_scan_next(s, a, 7, &b, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            break;
        }
        for (uint32_t r = 0; r < b.n; r++) {
            if (sc->ncols == 4 && b.cols[3].i64[r] == 1) {
                continue;
            }
            const stor_vec *sv = &b.cols[sc->ncols == 2 ? 1 : 2];
            char line[128];
            int len = snprintf(line, sizeof line, "%020" PRId64 "|%.*s|%" PRId64, b.cols[0].i64[r],
                               (int)(sv->offs[r + 1] - sv->offs[r]), sv->data + sv->offs[r],
                               sc->ncols == 4 ? b.cols[1].i64[r] : 0);
            cr_assert_lt(len, (int)sizeof line);
            if (out.n == cap) {
                cap = cap == 0 ? 64 : cap * 2;
                out.rows = mem_realloc(out.rows, cap * sizeof *out.rows);
            }
            out.rows[out.n++] = mem_strdup(line);
            if (b.cols[0].i64[r] == loc_key && out.loc_rowset == 0) {
                out.loc_rowset = b.rowset_id;
                out.loc_segment = b.segment_id;
                out.loc_row = b.rows[r];
            }
        }
    }
    stor_scan_close(s);
    arena_free(a);
    if (given == NULL) {
        stor_snapshot_destroy(&own);
    }
    qsort(out.rows, out.n, sizeof *out.rows, cmp_str);
    return out;
}

static void
rowlist_free(rowlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        mem_free(l->rows[i]);
    }
    mem_free(l->rows);
    memset(l, 0, sizeof *l);
}

static void
assert_same(const rowlist *a, const rowlist *b, const char *what)
{
    cr_assert_eq(a->n, b->n, "%s: %zu rows vs %zu", what, a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_str_eq(a->rows[i], b->rows[i], "%s: row %zu", what, i);
    }
}

static size_t
nrowsets(env *v)
{
    return stor_tablet_nrowsets(stor_engine_tablet(v->eng, TABLET, false));
}

static void
compact(env *v, stor_compact_kind kind, stor_compact_stats *st)
{
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_compact_tablet(v->eng, TABLET, kind, st, &e), DB_OK, "%s", e.msg);
}

/* Delete (by location) the row of key k as a scan sees it; returns the txn's commit result. */
static int
delete_key(env *v, const stor_schema *sc, int64_t k, const rowlist *seen, db_error *e)
{
    (void)sc;
    (void)k;
    stor_writer *w = stor_writer_new(v->eng);
    uint32_t row = seen->loc_row;
    cr_assert_neq(seen->loc_rowset, 0);
    cr_assert_eq(
            stor_writer_delete_rows(w, TABLET, seen->loc_rowset, seen->loc_segment, &row, 1, e),
            DB_OK);
    uint64_t tso = 0;
    int rc = stor_writer_commit(w, v->tso, &tso, e);
    stor_writer_free(w);
    return rc;
}

/* 12 commits of a DUP table: duplicates, deletes by location. */
static void
dup_workload(env *v, const stor_schema *sc)
{
    for (int i = 0; i < 10; i++) {
        write_range(v, sc, i * 3, i * 3 + 6, i + 1, 0); /* overlapping key ranges */
    }
    db_error e;
    db_error_clear(&e);
    rowlist l = scan_rows(v, sc, NULL, 7);
    cr_assert_eq(delete_key(v, sc, 7, &l, &e), DB_OK, "%s", e.msg);
    rowlist_free(&l);
    l = scan_rows(v, sc, NULL, 20);
    cr_assert_eq(delete_key(v, sc, 20, &l, &e), DB_OK, "%s", e.msg);
    rowlist_free(&l);
}

/* 12 commits of a MoW table: inserts, upserts, delete-sign rows, re-inserts. */
static void
mow_workload(env *v, const stor_schema *sc)
{
    write_range(v, sc, 0, 40, 1, 0);
    write_range(v, sc, 10, 20, 2, 0);
    write_range(v, sc, 15, 18, 0, 1); /* delete 15..17 */
    write_range(v, sc, 30, 50, 3, 0);
    write_range(v, sc, 0, 5, 4, 0);
    write_range(v, sc, 45, 48, 0, 1); /* delete 45..47 */
    write_range(v, sc, 16, 17, 5, 0); /* re-insert 16 */
    write_range(v, sc, 60, 70, 6, 0);
    write_range(v, sc, 2, 3, 7, 0);
    write_range(v, sc, 61, 63, 0, 1);
    write_range(v, sc, 35, 37, 8, 0);
    write_range(v, sc, 100, 101, 9, 0);
}

/* ---- tests ---- */

Test(stor_compact, dup_cumulative_then_base_same_rows)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    dup_workload(&v, &sc);
    rowlist before = scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(nrowsets(&v), 10);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_eq(st.merged_rowsets, 10);
    /* the two deletes are newer than the merged version: kept, their marks translated */
    cr_assert_eq(st.dropped_rows, 0);
    cr_assert_eq(st.translated_marks, 2);
    cr_assert_eq(st.output_rows, st.input_rows);
    cr_assert_eq(nrowsets(&v), 1);
    rowlist after = scan_rows(&v, &sc, NULL, -1);
    assert_same(&before, &after, "after cumulative");
    rowlist_free(&after);
    write_range(&v, &sc, 5, 9, 50, 0);
    rowlist_free(&before);
    before = scan_rows(&v, &sc, NULL, -1);
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 2);
    cr_assert_eq(st.dropped_rows, 2); /* now older than the merged version: applied */
    cr_assert_eq(nrowsets(&v), 1);
    after = scan_rows(&v, &sc, NULL, -1);
    assert_same(&before, &after, "after base");
    /* nothing left to merge */
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 0);
    rowlist_free(&before);
    rowlist_free(&after);
    env_close(&v);
}

Test(stor_compact, mow_cumulative_then_base_same_rows_and_upsert_after)
{
    env v;
    env_open(&v);
    stor_schema sc = mow_schema();
    mow_workload(&v, &sc);
    stor_tablet_set_delete_sign_uid(stor_engine_tablet(v.eng, TABLET, false), DS_UID);
    rowlist before = scan_rows(&v, &sc, NULL, -1);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_eq(st.merged_rowsets, 12);
    cr_assert_eq(nrowsets(&v), 1);
    rowlist after = scan_rows(&v, &sc, NULL, -1);
    assert_same(&before, &after, "after cumulative");
    rowlist_free(&after);
    /* an upsert after the compaction marks the remapped row: key 3 visible once, new value */
    write_range(&v, &sc, 3, 4, 11, 0);
    write_range(&v, &sc, 200, 201, 1, 0);
    rowlist_free(&before);
    before = scan_rows(&v, &sc, NULL, -1);
    size_t n3 = 0;
    for (size_t i = 0; i < before.n; i++) {
        if (strncmp(before.rows[i], "00000000000000000003|", 21) == 0) {
            n3++;
            cr_assert_str_eq(before.rows[i], "00000000000000000003|s3_11|33");
        }
    }
    cr_assert_eq(n3, 1);
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 3);
    cr_assert_geq(st.dropped_rows, 3); /* delete-sign rows left out by base compaction */
    after = scan_rows(&v, &sc, NULL, -1);
    assert_same(&before, &after, "after base");
    /* the deleted keys left the index: re-inserting one gives exactly one row */
    write_range(&v, &sc, 46, 47, 12, 0);
    write_range(&v, &sc, 3, 4, 13, 0);
    rowlist l = scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(l.n, after.n + 1);
    rowlist_free(&l);
    rowlist_free(&before);
    rowlist_free(&after);
    env_close(&v);
}

static bool
file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

Test(stor_compact, old_snapshot_reads_retired_files_until_destroyed)
{
    env v;
    env_open(&v);
    stor_schema sc = mow_schema();
    mow_workload(&v, &sc);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot old;
    stor_tablet_snapshot(t, &old);
    rowlist before = scan_rows(&v, &sc, &old, -1);
    char first[1024];
    snprintf(first, sizeof first, "%s/%s", stor_tablet_dir(t), old.rowsets[0].segments[0]);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 12);
    write_range(&v, &sc, 0, 3, 99, 0); /* marks the new rowset, not the retired ones */
    cr_assert_eq(stor__engine_nretired(v.eng), 1);
    cr_assert_eq(stor_engine_purge_retired(v.eng), 0);
    cr_assert(file_exists(first));
    rowlist again = scan_rows(&v, &sc, &old, -1);
    assert_same(&before, &again, "old snapshot after compaction");
    stor_snapshot_destroy(&old);
    cr_assert_eq(stor_engine_purge_retired(v.eng), 12);
    cr_assert_not(file_exists(first));
    cr_assert_eq(stor__engine_nretired(v.eng), 0);
    rowlist_free(&before);
    rowlist_free(&again);
    env_close(&v);
}

/* ---- a write between the compaction's snapshot and its publish ---- */

typedef struct hook_ctx {
    env *v;
    const stor_schema *sc;
    bool is_dup;
    rowlist seen; /* DUP: where key 7 is */
    int calls;
} hook_ctx;

static void
racing_write(void *arg)
{
    hook_ctx *h = arg;
    h->calls++;
    if (h->is_dup) {
        db_error e;
        db_error_clear(&e);
        cr_assert_eq(delete_key(h->v, h->sc, 8, &h->seen, &e), DB_OK, "%s", e.msg);
    } else {
        write_range(h->v, h->sc, 3, 4, 77, 0);  /* upsert: marks an input row */
        write_range(h->v, h->sc, 30, 31, 0, 1); /* delete sign: marks an input row */
    }
}

Test(stor_compact, write_during_compaction_keeps_marks_mow)
{
    env v;
    env_open(&v);
    stor_schema sc = mow_schema();
    mow_workload(&v, &sc);
    hook_ctx h = {.v = &v, .sc = &sc};
    stor__compact_set_hook(v.eng, racing_write, &h);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    stor__compact_set_hook(v.eng, NULL, NULL);
    cr_assert_eq(h.calls, 1);
    cr_assert_eq(st.translated_marks, 2);
    rowlist l = scan_rows(&v, &sc, NULL, -1);
    size_t n3 = 0, n30 = 0;
    for (size_t i = 0; i < l.n; i++) {
        n3 += strncmp(l.rows[i], "00000000000000000003|", 21) == 0;
        n30 += strncmp(l.rows[i], "00000000000000000030|", 21) == 0;
        if (strncmp(l.rows[i], "00000000000000000003|", 21) == 0) {
            cr_assert_str_eq(l.rows[i], "00000000000000000003|s3_77|231");
        }
    }
    cr_assert_eq(n3, 1);
    cr_assert_eq(n30, 0);
    /* and the index followed: another upsert of 3 still leaves one row */
    write_range(&v, &sc, 3, 4, 78, 0);
    rowlist l2 = scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(l2.n, l.n);
    rowlist_free(&l);
    rowlist_free(&l2);
    env_close(&v);
}

Test(stor_compact, write_during_compaction_keeps_marks_dup)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    dup_workload(&v, &sc);
    rowlist before = scan_rows(&v, &sc, NULL, -1);
    hook_ctx h = {.v = &v, .sc = &sc, .is_dup = true};
    h.seen = scan_rows(&v, &sc, NULL, 8);
    stor__compact_set_hook(v.eng, racing_write, &h);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_BASE, &st);
    stor__compact_set_hook(v.eng, NULL, NULL);
    cr_assert_eq(st.translated_marks, 3); /* the workload's two deletes and the racing one */
    rowlist after = scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(after.n, before.n - 1);
    rowlist_free(&before);
    rowlist_free(&after);
    rowlist_free(&h.seen);
    env_close(&v);
}

Test(stor_compact, restart_replay_and_image_same_rows)
{
    env v;
    env_open(&v);
    stor_schema sc = mow_schema();
    mow_workload(&v, &sc);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_gt(st.merged_rowsets, 0);
    write_range(&v, &sc, 0, 2, 21, 0);
    rowlist want = scan_rows(&v, &sc, NULL, -1);
    uint64_t floor = stor_tablet_floor(stor_engine_tablet(v.eng, TABLET, false));
    cr_assert_eq(floor, 12);
    env_close(&v);

    env_open(&v); /* replay of the compaction record */
    cr_assert_eq(nrowsets(&v), 2);
    cr_assert_eq(stor_tablet_floor(stor_engine_tablet(v.eng, TABLET, false)), floor);
    rowlist got = scan_rows(&v, &sc, NULL, -1);
    assert_same(&want, &got, "after replay");
    rowlist_free(&got);
    write_range(&v, &sc, 1, 2, 22, 0); /* index rebuilt from the compacted rowset */
    rowlist_free(&want);
    want = scan_rows(&v, &sc, NULL, -1);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    env_close(&v);

    env_open(&v); /* from the image */
    cr_assert_eq(stor_tablet_floor(stor_engine_tablet(v.eng, TABLET, false)), floor);
    got = scan_rows(&v, &sc, NULL, -1);
    assert_same(&want, &got, "after image");
    /* only files of published rowsets are left */
    DIR *d = opendir(stor_tablet_dir(stor_engine_tablet(v.eng, TABLET, false)));
    int nfiles = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        nfiles += de->d_name[0] != '.';
    }
    closedir(d);
    cr_assert_eq(nfiles, 3);
    rowlist_free(&got);
    rowlist_free(&want);
    env_close(&v);
}

Test(stor_compact, as_of_before_floor_fails)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    uint64_t tso[8];
    for (int i = 0; i < 8; i++) {
        tso[i] = write_range(&v, &sc, i, i + 2, 1, 0);
    }
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_eq(st.merged_rowsets, 8);
    uint64_t later = write_range(&v, &sc, 50, 51, 1, 0);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot s;
    stor_tablet_snapshot(t, &s);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_snapshot_as_of(&s, tso[3], &e), DB_ERR);
    cr_assert_eq(e.code, 1105);
    cr_assert(strstr(e.msg, "compacted up to version 8") != NULL, "%s", e.msg);
    stor_snapshot_destroy(&s);
    stor_tablet_snapshot(t, &s);
    cr_assert_eq(stor_snapshot_as_of(&s, tso[7], &e), DB_OK, "%s", e.msg);
    cr_assert_eq(s.version, 8);
    cr_assert_eq(s.nrowsets, 1);
    rowlist l = scan_rows(&v, &sc, &s, -1);
    cr_assert_eq(l.n, 16);
    rowlist_free(&l);
    stor_snapshot_destroy(&s);
    stor_tablet_snapshot(t, &s);
    cr_assert_eq(stor_snapshot_as_of(&s, later, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(s.nrowsets, 2);
    stor_snapshot_destroy(&s);
    env_close(&v);
}

Test(stor_compact, delete_by_location_of_compacted_rowset_fails)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    for (int i = 0; i < 3; i++) {
        write_range(&v, &sc, i * 10, i * 10 + 5, 1, 0);
    }
    rowlist seen = scan_rows(&v, &sc, NULL, 11);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 3);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(delete_key(&v, &sc, 11, &seen, &e), DB_ERR);
    cr_assert(strstr(e.msg, "was compacted; retry the statement") != NULL, "%s", e.msg);
    rowlist after = scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(after.n, 15); /* nothing deleted */
    rowlist_free(&seen);
    rowlist_free(&after);
    env_close(&v);
}

static _Atomic int allow_calls;
static _Atomic bool allow_answer;

static bool
allow_fn(void *ctx, uint64_t tablet_id)
{
    (void)ctx;
    cr_assert_eq(tablet_id, TABLET);
    atomic_fetch_add(&allow_calls, 1);
    return atomic_load(&allow_answer);
}

static void
sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

Test(stor_compact, background_thread_respects_allow)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    for (int i = 0; i < 6; i++) {
        write_range(&v, &sc, i, i + 3, 1, 0);
    }
    rowlist before = scan_rows(&v, &sc, NULL, -1);
    atomic_store(&allow_answer, false);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_engine_start_compaction(v.eng, 100, allow_fn, NULL, &e), DB_OK, "%s", e.msg);
    for (int i = 0; i < 100 && atomic_load(&allow_calls) < 3; i++) {
        sleep_ms(50);
    }
    cr_assert_geq(atomic_load(&allow_calls), 3);
    cr_assert_eq(nrowsets(&v), 6); /* refused */
    atomic_store(&allow_answer, true);
    for (int i = 0; i < 200 && nrowsets(&v) == 6; i++) {
        sleep_ms(50);
    }
    cr_assert_eq(nrowsets(&v), 1);
    stor_engine_stop_compaction(v.eng);
    stor_engine_stop_compaction(v.eng); /* twice is fine */
    rowlist after = scan_rows(&v, &sc, NULL, -1);
    assert_same(&before, &after, "after background compaction");
    rowlist_free(&before);
    rowlist_free(&after);
    env_close(&v); /* never-stopped engines stop in free: covered by the other tests */
}
