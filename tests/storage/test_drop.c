/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of dropping tablets (stor_engine_drop_tablets and the STOR_REC_DROP record of
 * storage/stor_engine.c) with a real edit log, TSO, engine and segment files written through
 * stor_writer in a temporary directory: the tablet leaves the engine and its files are deleted,
 * a snapshot taken before the drop scans it until destroyed, a write to a dropped tablet fails,
 * a compaction racing the drop publishes nothing, and neither the replay nor the image
 * resurrects it. White-box via storage/stor_int.h for the retired list and the publish hook. */
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
#include "common/crc32c.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/stor_int.h"
#include "storage/storage.h"

#define PART    7
#define PART2   8
#define TABLET  (((uint64_t)PART << 16) | 0u)
#define TABLET2 (((uint64_t)PART2 << 16) | 0u)

static int64_t cur_part = PART; /* partition written by put_rows */
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
    snprintf(tmpdir, sizeof tmpdir, "/tmp/stor_drop_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    snprintf(logdir, sizeof logdir, "%s/log", tmpdir);
    snprintf(datadir, sizeof datadir, "%s/data", tmpdir);
}

static void
teardown(void)
{
    rm_rf(tmpdir);
}

TestSuite(stor_drop, .init = setup, .fini = teardown);

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
    cr_assert_eq(stor_writer_put(w, sc, cur_part, 0, cols, n, NULL, &e), DB_OK, "%s", e.msg);
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
    stor_tablet *t = stor_engine_tablet(v->eng, stor_tablet_id_of(cur_part, 0), false);
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

static bool
file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Entries of dir other than . and .. (0 when it does not exist). */
static int
nfiles(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d != NULL && (de = readdir(d)) != NULL) {
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

static void
tablet_dir(uint64_t id, char *out, size_t len)
{
    snprintf(out, len, "%s/%" PRIu64, datadir, id);
}

static int
drop(env *v, uint64_t id)
{
    db_error e;
    db_error_clear(&e);
    int rc = stor_engine_drop_tablets(v->eng, &id, 1, &e);
    cr_assert_eq(rc, DB_OK, "%s", e.msg);
    return rc;
}

Test(stor_drop, drop_removes_tablet_and_files)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    cur_part = PART;
    write_range(&v, &sc, 0, 10, 1, 0);
    write_range(&v, &sc, 5, 15, 2, 0);
    cur_part = PART2;
    write_range(&v, &sc, 0, 4, 3, 0);
    cr_assert_eq(stor_engine_ntablets(v.eng), 2);
    char dir[512];
    tablet_dir(TABLET, dir, sizeof dir);
    cr_assert(file_exists(dir));

    uint64_t ids[3] = {TABLET, 12345, TABLET}; /* unknown and repeated ids are skipped */
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_engine_drop_tablets(v.eng, ids, 3, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);
    uint64_t *left = NULL;
    cr_assert_eq(stor_engine_tablet_ids(v.eng, &left), 1);
    cr_assert_eq(left[0], TABLET2);
    mem_free(left);
    cr_assert_not(file_exists(dir), "no snapshot: the files and directory go at once");
    cr_assert_eq(stor__engine_nretired(v.eng), 0);
    /* the object survives for pointer holders, empty */
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    cr_assert_not_null(t);
    cr_assert_eq(stor_tablet_nrowsets(t), 0);
    cr_assert_eq(stor_engine_tablet(v.eng, TABLET, true), t, "never recreated");
    /* dropping again, or nothing: no record, no error */
    cr_assert_eq(stor_engine_drop_tablets(v.eng, ids, 3, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_engine_drop_tablets(v.eng, NULL, 0, &e), DB_OK, "%s", e.msg);

    /* a stale write to the dropped tablet fails and leaves no file */
    cur_part = PART;
    stor_writer *w = stor_writer_new(v.eng);
    int64_t k[2] = {1, 2};
    put_rows(w, &sc, k, 2, 1, 0);
    uint64_t tso = 0;
    db_error_clear(&e);
    cr_assert_eq(stor_writer_commit(w, v.tso, &tso, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_STOR_COMMIT_BAD), "%s", e.msg);
    cr_assert(strstr(e.msg, "dropped") != NULL, "%s", e.msg);
    stor_writer_free(w);
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);

    /* the other tablet is untouched */
    cur_part = PART2;
    rowlist l = scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(l.n, 4);
    rowlist_free(&l);
    cur_part = PART;
    env_close(&v);
}

Test(stor_drop, snapshot_scans_dropped_tablet_until_destroyed)
{
    env v;
    env_open(&v);
    stor_schema sc = mow_schema();
    cur_part = PART;
    mow_workload(&v, &sc);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot old;
    stor_tablet_snapshot(t, &old);
    rowlist before = scan_rows(&v, &sc, &old, -1);
    cr_assert_gt(before.n, 0);
    char first[1024];
    snprintf(first, sizeof first, "%s/%s", stor_tablet_dir(t), old.rowsets[0].segments[0]);

    drop(&v, TABLET);
    cr_assert_eq(stor_engine_ntablets(v.eng), 0);
    cr_assert_eq(stor__engine_nretired(v.eng), 1);
    cr_assert(file_exists(first), "a snapshot from before the drop names it");
    cr_assert_eq(stor_engine_purge_retired(v.eng), 0);
    rowlist again = scan_rows(&v, &sc, &old, -1);
    assert_same(&before, &again, "old snapshot after the drop");
    /* a snapshot taken after the drop is empty */
    stor_snapshot late;
    stor_tablet_snapshot(t, &late);
    cr_assert_eq(late.nrowsets, 0);
    stor_snapshot_destroy(&late);

    stor_snapshot_destroy(&old);
    cr_assert_eq(stor_engine_purge_retired(v.eng), 12);
    cr_assert_not(file_exists(first));
    cr_assert_not(file_exists(stor_tablet_dir(t)));
    cr_assert_eq(stor__engine_nretired(v.eng), 0);
    rowlist_free(&before);
    rowlist_free(&again);
    env_close(&v);
}

static void
drop_in_hook(void *arg)
{
    env *v = arg;
    drop(v, TABLET);
}

Test(stor_drop, compaction_racing_a_drop_publishes_nothing)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    cur_part = PART;
    for (int i = 0; i < 6; i++) {
        write_range(&v, &sc, i * 3, i * 3 + 5, i + 1, 0);
    }
    stor__compact_set_hook(v.eng, drop_in_hook, &v);
    db_error e;
    db_error_clear(&e);
    stor_compact_stats st;
    cr_assert_eq(stor_compact_tablet(v.eng, TABLET, STOR_COMPACT_BASE, &st, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_STOR_COMMIT_BAD), "%s", e.msg);
    stor__compact_set_hook(v.eng, NULL, NULL);
    stor_engine_purge_retired(v.eng);
    char dir[512];
    tablet_dir(TABLET, dir, sizeof dir);
    cr_assert_eq(nfiles(dir), 0, "inputs purged, the output removed");
    env_close(&v);

    env_open(&v); /* the log holds the drop and no compaction; the empty directory is gone */
    cr_assert_eq(stor_engine_ntablets(v.eng), 0);
    cr_assert_not(file_exists(dir));
    env_close(&v);
}

Test(stor_drop, replay_and_image_do_not_resurrect)
{
    env v;
    env_open(&v);
    stor_schema sc = dup_schema();
    cur_part = PART;
    write_range(&v, &sc, 0, 10, 1, 0);
    cur_part = PART2;
    write_range(&v, &sc, 0, 6, 2, 0);
    rowlist want = scan_rows(&v, &sc, NULL, -1);
    /* a snapshot keeps the dropped files on disk: as after a crash before the purge */
    cur_part = PART;
    stor_snapshot old;
    stor_tablet_snapshot(stor_engine_tablet(v.eng, TABLET, false), &old);
    drop(&v, TABLET);
    char dir[512];
    tablet_dir(TABLET, dir, sizeof dir);
    cr_assert(file_exists(dir));
    env_close(&v);
    old.engine = NULL; /* its engine is gone: only free the copy */
    stor_snapshot_destroy(&old);

    env_open(&v); /* replay of the drop record; the files are orphans */
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);
    cr_assert_null(stor_engine_tablet(v.eng, TABLET, false));
    cr_assert_not(file_exists(dir));
    cur_part = PART2;
    rowlist got = scan_rows(&v, &sc, NULL, -1);
    assert_same(&want, &got, "after replay");
    rowlist_free(&got);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    env_close(&v);

    env_open(&v); /* from the image */
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);
    cr_assert_null(stor_engine_tablet(v.eng, TABLET, false));
    got = scan_rows(&v, &sc, NULL, -1);
    assert_same(&want, &got, "after image");
    rowlist_free(&got);
    rowlist_free(&want);
    cur_part = PART;
    env_close(&v);
}

Test(stor_drop, bad_drop_record_fails_replay)
{
    env v;
    env_open(&v);
    uint8_t rec[28] = {0};
    /* wrong magic, valid CRC */
    rec[8] = 1;
    uint32_t crc = crc32c(rec, 24);
    memcpy(rec + 24, &crc, 4);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_append(v.log, STOR_REC_DROP, rec, sizeof rec, NULL, &e), DB_OK);
    env_close(&v);
    v.log = cat_editlog_open(logdir, NULL, &e);
    cr_assert_not_null(v.log, "%s", e.msg);
    v.tso = cat_tso_new(v.log, cat_clock_realtime_ms, NULL, &e);
    v.eng = stor_engine_new(datadir, v.log, &e);
    cr_assert_eq(cat_editlog_replay(v.log, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_STOR_COMMIT_CORRUPT), "%s", e.msg);
    env_close(&v);
}
