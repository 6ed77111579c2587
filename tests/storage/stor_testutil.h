/* SPDX-License-Identifier: Apache-2.0
 * Shared fixture of the storage unit tests: a temporary directory per test (with log/ and data/
 * below it), recursive removal and file counting, an edit log + TSO + engine environment, real
 * segment files, and the MoW / DUP test tables written through stor_writer and read back as
 * sorted row strings (test_compact.c, test_drop.c). Every helper asserts through Criterion. */
#ifndef TESTS_STORAGE_STOR_TESTUTIL_H
#define TESTS_STORAGE_STOR_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "storage/storage.h"

/* ---- directories ---- */

extern char stu_tmpdir[256];  /* the test's directory, from mkdtemp */
extern char stu_logdir[300];  /* stu_tmpdir/log: the edit log */
extern char stu_datadir[300]; /* stu_tmpdir/data: the engine's data directory */

/* mkdtemp(tmpl) into stu_tmpdir (tmpl ends in XXXXXX) and set stu_logdir / stu_datadir. */
void stu_dirs_setup(const char *tmpl);
/* Remove stu_tmpdir and everything below it. */
void stu_dirs_teardown(void);
/* Remove path (a file, or a directory recursively); missing paths are ignored. */
void stu_rm_rf(const char *path);
/* Number of regular files under path (recursively); 1 for a file, 0 when missing. */
int stu_count_files(const char *path);
/* True when path exists (stat succeeds). */
bool stu_file_exists(const char *path);

/* ---- environment: edit log, TSO, engine ---- */

typedef struct bl_log bl_log;
typedef struct strm_state strm_state;

typedef struct stu_env {
    cat_editlog *log;
    cat_tso *tso; /* NULL unless opened with STU_ENV_TSO */
    stor_engine *eng;
    bl_log *bl;     /* NULL unless opened with STU_ENV_BINLOG */
    strm_state *st; /* NULL unless opened with STU_ENV_STREAMS */
} stu_env;

enum {
    STU_ENV_TSO = 1,            /* open a TSO on the edit log */
    STU_ENV_REMOVE_ORPHANS = 2, /* run stor_engine_remove_orphans after the replay */
    STU_ENV_BINLOG = 4,         /* Row Binlog on stu_tmpdir/binlog (bl_log_new before replay) */
    STU_ENV_STREAMS = 8         /* stream offsets (strm_new before replay) */
};

/* Open the edit log in stu_logdir, the engine on stu_datadir (cache capacity cache_bytes when
 * not 0) and replay the log; flags are STU_ENV_*. */
void stu_env_open(stu_env *v, unsigned flags, size_t cache_bytes);
/* Free the streams, the engine, the binlog, the log and the TSO; zeroes v. */
void stu_env_close(stu_env *v);

/* ---- segment files ---- */

/* Create t's directory and write "<tablet dir>/name" into path[0..cap). */
void stu_tablet_path(stor_tablet *t, const char *name, char *path, size_t cap);
/* Append the column vectors v to w and finish it. */
void stu_segment_finish(stor_segment_writer *w, const stor_vec *v);
/* Write a segment of one BIGINT key column (uid 1) holding base, base + 1, ... (n rows). */
void stu_i64_segment_write(const char *path, uint32_t n, int64_t base,
                           const stor_segment_opts *opts);

/* ---- the MoW (k, v, s, delete sign) and DUP (k, s) tables of one partition ---- */

#define STU_DS_UID 5 /* uid of the MoW delete-sign column */

/* Partition that stu_put_rows writes and stu_scan_rows reads (bucket 0); 7 unless a test sets
 * it. */
extern int64_t stu_part;

stor_schema stu_mow_schema(void);
stor_schema stu_dup_schema(void);

/* Put n rows: keys k[i], value k[i] * mul, string "s<k>_<mul>", delete sign ds. */
void stu_put_rows(stor_writer *w, const stor_schema *sc, const int64_t *k, uint32_t n, int64_t mul,
                  int64_t ds);
/* Commit and free w; returns the commit TSO. */
uint64_t stu_commit_writer(stu_env *v, stor_writer *w);
/* One commit of keys [from, to) step 1 with multiplier mul and delete sign ds. */
uint64_t stu_write_range(stu_env *v, const stor_schema *sc, int64_t from, int64_t to, int64_t mul,
                         int64_t ds);

/* Every visible row as a sorted list of strings. */
typedef struct stu_rowlist {
    char **rows;
    size_t n;
    /* location of the first row whose key is loc_key (for delete by location) */
    int64_t loc_key;
    uint64_t loc_rowset;
    uint32_t loc_segment, loc_row;
} stu_rowlist;

/* Scan given (or a fresh snapshot when NULL) of the tablet of stu_part; MoW rows whose delete
 * sign is 1 are left out, as the SQL layer filters them. */
stu_rowlist stu_scan_rows(stu_env *v, const stor_schema *sc, const stor_snapshot *given,
                          int64_t loc_key);
/* 12 commits of a MoW table: inserts, upserts, delete-sign rows, re-inserts. */
void stu_mow_workload(stu_env *v, const stor_schema *sc);
void stu_rowlist_free(stu_rowlist *l);
/* Assert a and b hold the same rows; what names the comparison in failure messages. */
void stu_assert_same(const stu_rowlist *a, const stu_rowlist *b, const char *what);

#endif
