/* SPDX-License-Identifier: Apache-2.0
 * Shared fixture of the storage unit tests; see stor_testutil.h. */
#include "stor_testutil.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binlog/binlog.h"
#include "common/arena.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "stream/stream.h"

char stu_tmpdir[256];
char stu_logdir[300];
char stu_datadir[300];
int64_t stu_part = 7;

/* ---- directories ---- */

void
stu_dirs_setup(const char *tmpl)
{
    snprintf(stu_tmpdir, sizeof stu_tmpdir, "%s", tmpl);
    cr_assert_not_null(mkdtemp(stu_tmpdir));
    snprintf(stu_logdir, sizeof stu_logdir, "%s/log", stu_tmpdir);
    snprintf(stu_datadir, sizeof stu_datadir, "%s/data", stu_tmpdir);
}

void
stu_dirs_teardown(void)
{
    stu_rm_rf(stu_tmpdir);
}

void
stu_rm_rf(const char *path)
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
                stu_rm_rf(p);
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

int
stu_count_files(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        return 1;
    }
    int n = 0;
    DIR *d = opendir(path);
    struct dirent *de;
    while (d != NULL && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            char p[1024];
            snprintf(p, sizeof p, "%s/%s", path, de->d_name);
            n += stu_count_files(p);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

bool
stu_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- environment ---- */

void
stu_env_open(stu_env *v, unsigned flags, size_t cache_bytes)
{
    db_error e;
    db_error_clear(&e);
    memset(v, 0, sizeof *v);
    v->log = cat_editlog_open(stu_logdir, NULL, &e);
    cr_assert_not_null(v->log, "%s", e.msg);
    if (flags & STU_ENV_TSO) {
        v->tso = cat_tso_new(v->log, cat_clock_realtime_ms, NULL, &e);
        cr_assert_not_null(v->tso, "%s", e.msg);
    }
    v->eng = stor_engine_new(stu_datadir, v->log, &e);
    cr_assert_not_null(v->eng, "%s", e.msg);
    if (cache_bytes != 0) {
        stor_engine_set_cache_capacity(v->eng, cache_bytes);
    }
    if (flags & STU_ENV_BINLOG) {
        char path[400];
        snprintf(path, sizeof path, "%s/binlog", stu_tmpdir);
        v->bl = bl_log_new(path, v->eng, v->log, &e);
        cr_assert_not_null(v->bl, "%s", e.msg);
    }
    if (flags & STU_ENV_STREAMS) {
        v->st = strm_new(v->eng, v->log);
    }
    cr_assert_eq(cat_editlog_replay(v->log, &e), DB_OK, "%s", e.msg);
    if (flags & STU_ENV_REMOVE_ORPHANS) {
        cr_assert_eq(stor_engine_remove_orphans(v->eng, NULL, &e), DB_OK, "%s", e.msg);
        if (v->bl != NULL) {
            cr_assert_eq(bl_log_remove_orphans(v->bl, NULL, &e), DB_OK, "%s", e.msg);
        }
    }
}

void
stu_env_close(stu_env *v)
{
    strm_free(v->st);
    stor_engine_free(v->eng);
    bl_log_free(v->bl);
    cat_editlog_close(v->log);
    cat_tso_free(v->tso);
    memset(v, 0, sizeof *v);
}

/* ---- segment files ---- */

void
stu_tablet_path(stor_tablet *t, const char *name, char *path, size_t cap)
{
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_tablet_make_dir(t, &e), DB_OK, "%s", e.msg);
    snprintf(path, cap, "%s/%s", stor_tablet_dir(t), name);
}

void
stu_segment_finish(stor_segment_writer *w, const stor_vec *v)
{
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_segment_writer_append(w, v, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_segment_writer_finish(w, NULL, &e), DB_OK, "%s", e.msg);
}

void
stu_i64_segment_write(const char *path, uint32_t n, int64_t base, const stor_segment_opts *opts)
{
    db_error e;
    db_error_clear(&e);
    stor_column_desc col = {.uid = 1, .type = cat_type_make(CAT_T_BIGINT), .is_key = true};
    stor_segment_writer *w = stor_segment_writer_open(path, 1, &col, opts, &e);
    cr_assert_not_null(w, "%s", e.msg);
    int64_t *vals = mem_alloc(n * sizeof *vals + 1);
    for (uint32_t i = 0; i < n; i++) {
        vals[i] = base + i;
    }
    stor_vec v = {.kind = STOR_VEC_I64, .n = n, .i64 = vals};
    stu_segment_finish(w, &v);
    mem_free(vals);
}

/* ---- the MoW and DUP tables ---- */

static stor_column_desc mow_cols[4];
static stor_column_desc dup_cols[2];

stor_schema
stu_mow_schema(void)
{
    mow_cols[0] = (stor_column_desc){1, cat_type_make(CAT_T_BIGINT), true, false};
    mow_cols[1] = (stor_column_desc){2, cat_type_make(CAT_T_BIGINT), false, true};
    mow_cols[2] = (stor_column_desc){3, cat_type_varchar(32), false, true};
    mow_cols[3] = (stor_column_desc){STU_DS_UID, cat_type_make(CAT_T_TINYINT), false, false};
    return (stor_schema){.table_id = 1,
                         .keys = CAT_KEYS_UNIQUE,
                         .mow = true,
                         .ncols = 4,
                         .cols = mow_cols,
                         .nkeys = 1,
                         .seq_col = -1,
                         .delete_sign_col = 3};
}

stor_schema
stu_dup_schema(void)
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

void
stu_put_rows(stor_writer *w, const stor_schema *sc, const int64_t *k, uint32_t n, int64_t mul,
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
    cr_assert_eq(stor_writer_put(w, sc, stu_part, 0, cols, n, NULL, &e), DB_OK, "%s", e.msg);
    arena_free(a);
}

uint64_t
stu_commit_writer(stu_env *v, stor_writer *w)
{
    db_error e;
    db_error_clear(&e);
    uint64_t tso = 0;
    cr_assert_eq(stor_writer_commit(w, v->tso, &tso, &e), DB_OK, "%s", e.msg);
    stor_writer_free(w);
    return tso;
}

uint64_t
stu_write_range(stu_env *v, const stor_schema *sc, int64_t from, int64_t to, int64_t mul,
                int64_t ds)
{
    uint32_t n = (uint32_t)(to - from);
    int64_t *k = mem_calloc(n + 1, sizeof *k);
    for (uint32_t i = 0; i < n; i++) {
        k[i] = to - 1 - i; /* unsorted input: the writer sorts */
    }
    stor_writer *w = stor_writer_new(v->eng);
    stu_put_rows(w, sc, k, n, mul, ds);
    mem_free(k);
    return stu_commit_writer(v, w);
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scan snap (or a fresh snapshot when NULL) of the tablet; MoW rows whose delete sign is 1 are
 * left out, as the SQL layer filters them. */
stu_rowlist
stu_scan_rows(stu_env *v, const stor_schema *sc, const stor_snapshot *given, int64_t loc_key)
{
    stor_tablet *t = stor_engine_tablet(v->eng, stor_tablet_id_of(stu_part, 0), false);
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
    stu_rowlist out = {.loc_key = loc_key};
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

void
stu_rowlist_free(stu_rowlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        mem_free(l->rows[i]);
    }
    mem_free(l->rows);
    memset(l, 0, sizeof *l);
}

void
stu_assert_same(const stu_rowlist *a, const stu_rowlist *b, const char *what)
{
    cr_assert_eq(a->n, b->n, "%s: %zu rows vs %zu", what, a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_str_eq(a->rows[i], b->rows[i], "%s: row %zu", what, i);
    }
}


void
stu_mow_workload(stu_env *v, const stor_schema *sc)
{
    stu_write_range(v, sc, 0, 40, 1, 0);
    stu_write_range(v, sc, 10, 20, 2, 0);
    stu_write_range(v, sc, 15, 18, 0, 1); /* delete 15..17 */
    stu_write_range(v, sc, 30, 50, 3, 0);
    stu_write_range(v, sc, 0, 5, 4, 0);
    stu_write_range(v, sc, 45, 48, 0, 1); /* delete 45..47 */
    stu_write_range(v, sc, 16, 17, 5, 0); /* re-insert 16 */
    stu_write_range(v, sc, 60, 70, 6, 0);
    stu_write_range(v, sc, 2, 3, 7, 0);
    stu_write_range(v, sc, 61, 63, 0, 1);
    stu_write_range(v, sc, 35, 37, 8, 0);
    stu_write_range(v, sc, 100, 101, 9, 0);
}
