/* SPDX-License-Identifier: Apache-2.0
 * Row Binlog (binlog/) driven through the storage writer chain it is a stage of: records per
 * op, before images, LSN/TSO order, replay and image, orphans, cleanup and the fold modes. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "binlog/binlog.h"
#include "common/arena.h"
#include "common/mem.h"
#include "stor_testutil.h"

static void
setup(void)
{
    stu_dirs_setup("/tmp/rivulet-binlog-XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

TestSuite(binlog, .init = setup, .fini = teardown);

static stor_schema
bl_mow(bool history)
{
    stor_schema sc = stu_mow_schema();
    sc.binlog_row = true;
    sc.binlog_history = history;
    return sc;
}

/* One change row, flattened. */
typedef struct chg {
    int64_t type, tso, lsn, k, v, before_v;
    bool v_null, before_null, v_dflt;
    char s[40];
} chg;

/* Every change row of the test tablet in [lo, hi] under mode, in output order. */
static chg *
read_changes(stu_env *v, const stor_schema *sc, uint64_t lo, uint64_t hi, bl_mode mode,
             bool history, uint32_t batch, size_t *n)
{
    db_error e;
    db_error_clear(&e);
    bl_fold *f = bl_fold_open(v->bl, sc, stor_tablet_id_of(stu_part, 0), lo, hi, mode, history, &e);
    cr_assert_not_null(f, "%s", e.msg);
    arena *a = arena_new(0);
    chg *out = NULL;
    size_t cnt = 0, cap = 0;
    uint32_t vcol = sc->ncols == 4 ? 1 : 0, scol = sc->ncols == 4 ? 2 : 1;
    for (;;) {
        arena_reset(a);
        bl_changes ch;
        bool eof = false;
        cr_assert_eq(bl_fold_next(f, a, batch, &ch, &eof, &e), DB_OK, "%s", e.msg);
        if (eof) {
            break;
        }
        cr_assert_leq(ch.n, 2 * batch);
        for (uint32_t r = 0; r < ch.n; r++) {
            if (cnt == cap) {
                cap = cap ? cap * 2 : 64;
                out = mem_realloc(out, cap * sizeof *out);
            }
            chg *c = &out[cnt++];
            memset(c, 0, sizeof *c);
            c->type = ch.type[r];
            c->tso = ch.tso[r];
            c->lsn = ch.lsn[r];
            c->k = ch.cols[0].i64[r];
            if (vcol > 0) {
                c->v_null = stor_vec_is_null(&ch.cols[vcol], r);
                c->v = c->v_null ? 0 : ch.cols[vcol].i64[r];
                c->v_dflt = ch.dflt[vcol] != NULL && (ch.dflt[vcol][r >> 3] >> (r & 7)) & 1;
                c->before_null = true;
                if (ch.before != NULL) {
                    c->before_null = stor_vec_is_null(&ch.before[vcol], r);
                    c->before_v = c->before_null ? 0 : ch.before[vcol].i64[r];
                }
            }
            const stor_vec *sv = &ch.cols[scol];
            if (!stor_vec_is_null(sv, r)) {
                size_t len = (size_t)(sv->offs[r + 1] - sv->offs[r]);
                cr_assert_lt(len, sizeof c->s);
                memcpy(c->s, sv->data + sv->offs[r], len);
            }
        }
    }
    arena_free(a);
    bl_fold_close(f);
    *n = cnt;
    return out;
}

static uint64_t
put_one(stu_env *v, const stor_schema *sc, int64_t k, int64_t mul, int64_t ds)
{
    stor_writer *w = stor_writer_new(v->eng);
    stu_put_rows(w, sc, &k, 1, mul, ds);
    return stu_commit_writer(v, w);
}

Test(binlog, mow_records_insert_update_delete_with_before_images)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    uint64_t t1 = stu_write_range(&v, &sc, 0, 10, 1, 0);
    uint64_t t2 = stu_write_range(&v, &sc, 5, 15, 100, 0);
    uint64_t t3 = put_one(&v, &sc, 0, 1, 1);  /* delete a present key */
    uint64_t t4 = put_one(&v, &sc, 99, 1, 1); /* delete an absent key: no record */
    uint64_t t5 = put_one(&v, &sc, 0, 7, 0);  /* re-insert after delete: an insert */
    cr_assert(t1 < t2 && t2 < t3 && t3 < t4 && t4 < t5);
    size_t n;
    chg *c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_RAW, true, 4096, &n);
    cr_assert_eq(n, 10 + 10 + 1 + 1);
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            /* ascending in commit order; a data row that is no record (the delete of an
             * absent key) leaves a gap */
            cr_assert_gt(c[i].lsn, c[i - 1].lsn, "LSNs ascend in commit order");
            cr_assert_geq(c[i].tso, c[i - 1].tso);
        }
        if (i < 10) {
            cr_assert_eq(c[i].type, BL_OP_INSERT);
            cr_assert_eq((uint64_t)c[i].tso, t1);
            cr_assert(c[i].before_null);
        } else if (i < 20) {
            cr_assert_eq((uint64_t)c[i].tso, t2);
            bool upd = c[i].k < 10;
            cr_assert_eq(c[i].type, upd ? BL_OP_UPDATE : BL_OP_INSERT, "key %" PRId64, c[i].k);
            cr_assert_eq(c[i].v, c[i].k * 100);
            cr_assert_eq(c[i].before_null, !upd);
            if (upd) {
                cr_assert_eq(c[i].before_v, c[i].k, "before image of key %" PRId64, c[i].k);
            }
        } else if (i == 20) {
            cr_assert_eq(c[i].type, BL_OP_DELETE);
            cr_assert_eq((uint64_t)c[i].tso, t3);
            cr_assert_eq(c[i].k, 0);
            cr_assert_eq(c[i].v, 0, "a delete shows the values before it (before image)");
            cr_assert_str_eq(c[i].s, "s0_1");
        } else {
            cr_assert_eq(c[i].type, BL_OP_INSERT);
            cr_assert_eq((uint64_t)c[i].tso, t5);
            cr_assert_eq(c[i].v, 0);
            cr_assert_str_eq(c[i].s, "s0_7");
        }
    }
    mem_free(c);
    stu_env_close(&v);
}

Test(binlog, mow_without_history_knows_insert_from_update_and_deletes_keep_only_keys)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(false);
    stu_write_range(&v, &sc, 0, 3, 1, 0);
    put_one(&v, &sc, 1, 5, 0);
    put_one(&v, &sc, 2, 1, 1);
    put_one(&v, &sc, 2, 9, 0); /* after a delete-sign row: an insert */
    size_t n;
    chg *c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_RAW, false, 4096, &n);
    cr_assert_eq(n, 6);
    int64_t want[] = {BL_OP_INSERT, BL_OP_INSERT, BL_OP_INSERT,
                      BL_OP_UPDATE, BL_OP_DELETE, BL_OP_INSERT};
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(c[i].type, want[i], "record %zu", i);
        cr_assert(c[i].before_null);
    }
    cr_assert(c[4].v_dflt, "a key-only delete leaves other columns to their default");
    mem_free(c);
    /* DETAIL without before images: the update is an APPEND (R6), the delete a DELETE. */
    c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_DETAIL, false, 4096, &n);
    cr_assert_eq(n, 6);
    cr_assert_eq(c[3].type, BL_CH_APPEND);
    cr_assert_eq(c[4].type, BL_CH_DELETE);
    mem_free(c);
    stu_env_close(&v);
}

Test(binlog, dup_records_every_row_and_other_tables_nothing)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema dup = stu_dup_schema();
    dup.binlog_row = true;
    int64_t keys[] = {3, 1, 1, 2};
    stor_writer *w = stor_writer_new(v.eng);
    stu_put_rows(w, &dup, keys, 4, 1, 0);
    stu_commit_writer(&v, w);
    size_t n;
    chg *c = read_changes(&v, &dup, 0, UINT64_MAX, BL_MODE_RAW, false, 4096, &n);
    cr_assert_eq(n, 4, "rows with the same key are never merged");
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(c[i].type, BL_OP_INSERT);
    }
    mem_free(c);
    /* a table without Row Binlog in another partition: nothing recorded */
    stu_part = 8;
    stor_schema plain = stu_mow_schema();
    stu_write_range(&v, &plain, 0, 5, 1, 0);
    cr_assert_eq(bl_log_count(v.bl, stor_tablet_id_of(8, 0), 0, UINT64_MAX), 0);
    stu_part = 7;
    uint64_t rs, recs;
    bl_log_stats(v.bl, &rs, &recs);
    cr_assert_eq(rs, 1);
    cr_assert_eq(recs, 4);
    stu_env_close(&v);
}

Test(binlog, window_reads_only_rowsets_in_range)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    uint64_t t[5];
    for (int i = 0; i < 5; i++) {
        t[i] = stu_write_range(&v, &sc, i * 10, i * 10 + 10, 1, 0);
    }
    size_t n;
    chg *c = read_changes(&v, &sc, t[1], t[3], BL_MODE_RAW, true, 7, &n);
    cr_assert_eq(n, 30);
    cr_assert_eq((uint64_t)c[0].tso, t[1]);
    cr_assert_eq((uint64_t)c[n - 1].tso, t[3]);
    mem_free(c);
    cr_assert_eq(bl_log_count(v.bl, stor_tablet_id_of(stu_part, 0), t[4], UINT64_MAX), 10);
    cr_assert_eq(bl_log_first_tso(v.bl, stor_tablet_id_of(stu_part, 0)), t[0]);
    stu_env_close(&v);
}

/* Records of the whole log as text, for comparing across restarts. */
static char *
dump(stu_env *v, const stor_schema *sc)
{
    size_t n;
    chg *c = read_changes(v, sc, 0, UINT64_MAX, BL_MODE_RAW, true, 4096, &n);
    size_t cap = n * 96 + 1, len = 0;
    char *s = mem_alloc(cap);
    s[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        len += (size_t)snprintf(s + len, cap - len,
                                "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %s|",
                                c[i].type, c[i].tso, c[i].lsn, c[i].k, c[i].v, c[i].s);
    }
    mem_free(c);
    return s;
}

Test(binlog, replay_and_image_restore_records_tsos_and_lsns)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    stu_mow_workload(&v, &sc);
    char *before = dump(&v, &sc);
    cr_assert_gt(strlen(before), 0);
    stu_env_close(&v);

    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG | STU_ENV_REMOVE_ORPHANS, 0);
    char *replayed = dump(&v, &sc);
    cr_assert_str_eq(replayed, before, "after replay of the log");
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    stu_env_close(&v);

    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG | STU_ENV_REMOVE_ORPHANS, 0);
    char *imaged = dump(&v, &sc);
    cr_assert_str_eq(imaged, before, "after loading the image");
    /* LSNs continue after the image: a new record gets a larger one */
    put_one(&v, &sc, 1000, 1, 0);
    size_t n;
    chg *c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_RAW, true, 4096, &n);
    cr_assert_gt(c[n - 1].lsn, c[n - 2].lsn);
    mem_free(c);
    stu_env_close(&v);
    mem_free(before);
    mem_free(replayed);
    mem_free(imaged);
}

Test(binlog, orphan_files_are_removed_at_start)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    stu_write_range(&v, &sc, 0, 10, 1, 0);
    stu_env_close(&v);
    char path[512];
    snprintf(path, sizeof path, "%s/binlog/%" PRIu64 "/424242.blg", stu_tmpdir,
             stor_tablet_id_of(stu_part, 0));
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("left by a crash", f);
    fclose(f);
    snprintf(path + strlen(path) - strlen("424242.blg"), 64, "999.blg.tmp");
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    char dir[400];
    snprintf(dir, sizeof dir, "%s/binlog", stu_tmpdir);
    cr_assert_eq(stu_count_files(dir), 3);
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG | STU_ENV_REMOVE_ORPHANS, 0);
    cr_assert_eq(stu_count_files(dir), 1, "only the committed binlog file stays");
    cr_assert_eq(bl_log_count(v.bl, stor_tablet_id_of(stu_part, 0), 0, UINT64_MAX), 10);
    stu_env_close(&v);
}

static uint64_t expire_at;
static uint64_t
expire_fn(void *ctx, int64_t table_id)
{
    (void)ctx;
    (void)table_id;
    return expire_at;
}
static uint64_t dead_tablet;
static bool
dead_fn(void *ctx, uint64_t tablet_id)
{
    (void)ctx;
    return tablet_id == dead_tablet;
}

Test(binlog, cleanup_removes_expired_rowsets_durably)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    uint64_t t1 = stu_write_range(&v, &sc, 0, 10, 1, 0);
    uint64_t t2 = stu_write_range(&v, &sc, 0, 10, 2, 0);
    stu_part = 9;
    stu_write_range(&v, &sc, 0, 4, 1, 0);
    stu_part = 7;
    uint64_t tab = stor_tablet_id_of(7, 0);
    char dir[400];
    snprintf(dir, sizeof dir, "%s/binlog", stu_tmpdir);
    cr_assert_eq(stu_count_files(dir), 3);
    db_error e;
    db_error_clear(&e);
    size_t np = 0;
    expire_at = 0; /* paused: nothing goes */
    dead_tablet = 0;
    cr_assert_eq(bl_log_cleanup(v.bl, expire_fn, dead_fn, NULL, &np, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(np, 0);
    expire_at = t1; /* the first rowset is expired */
    cr_assert_eq(bl_log_cleanup(v.bl, expire_fn, dead_fn, NULL, &np, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(np, 1);
    cr_assert_eq(bl_log_count(v.bl, tab, 0, UINT64_MAX), 10);
    cr_assert_eq(bl_log_first_tso(v.bl, tab), t2);
    cr_assert_eq(stu_count_files(dir), 2);
    expire_at = 0;
    dead_tablet = stor_tablet_id_of(9, 0); /* its partition was dropped */
    cr_assert_eq(bl_log_cleanup(v.bl, expire_fn, dead_fn, NULL, &np, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(np, 1);
    cr_assert_eq(stu_count_files(dir), 1);
    stu_env_close(&v);
    /* durable: the replay applies the purge records */
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG | STU_ENV_REMOVE_ORPHANS, 0);
    uint64_t rs, recs;
    bl_log_stats(v.bl, &rs, &recs);
    cr_assert_eq(rs, 1);
    cr_assert_eq(recs, 10);
    stu_env_close(&v);
}

Test(binlog, min_delta_folds_per_key_whatever_the_batch_size)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    uint64_t t0 = stu_write_range(&v, &sc, 0, 6, 1, 0); /* keys 0..5 exist at the start */
    put_one(&v, &sc, 0, 2, 0);                          /* 0: updated twice */
    put_one(&v, &sc, 0, 3, 0);
    put_one(&v, &sc, 1, 1, 1); /* 1: deleted */
    put_one(&v, &sc, 2, 5, 0); /* 2: updated, then deleted */
    put_one(&v, &sc, 2, 1, 1);
    put_one(&v, &sc, 10, 1, 0); /* 10: inserted, updated */
    put_one(&v, &sc, 10, 4, 0);
    put_one(&v, &sc, 11, 1, 0); /* 11: inserted, deleted */
    put_one(&v, &sc, 11, 1, 1);
    put_one(&v, &sc, 3, 2, 0); /* 3: 3 -> 6 -> 3 (R3: still a pair) */
    put_one(&v, &sc, 3, 1, 0);
    put_one(&v, &sc, 4, 1, 1); /* 4: delete, re-insert, delete: one DELETE of the original */
    put_one(&v, &sc, 4, 9, 0);
    put_one(&v, &sc, 4, 1, 1);
    for (uint32_t batch = 1; batch <= 4096; batch *= 64) {
        size_t n;
        chg *c = read_changes(&v, &sc, t0 + 1, UINT64_MAX, BL_MODE_MIN_DELTA, true, batch, &n);
        /* in the order of each key's last change */
        cr_assert_eq(n, 8, "batch %u", batch);
        cr_assert_eq(c[0].type, BL_CH_UPDATE_BEFORE);
        cr_assert_eq(c[0].k, 0);
        cr_assert_eq(c[0].v, 0, "the value at the start");
        cr_assert_eq(c[1].type, BL_CH_UPDATE_AFTER);
        cr_assert_eq(c[1].v, 0 * 3);
        cr_assert_str_eq(c[1].s, "s0_3");
        cr_assert_eq(c[0].lsn, c[1].lsn);
        cr_assert_eq(c[0].tso, c[1].tso);
        cr_assert_eq(c[2].type, BL_CH_DELETE);
        cr_assert_eq(c[2].k, 1);
        cr_assert_str_eq(c[2].s, "s1_1");
        cr_assert_eq(c[3].type, BL_CH_DELETE);
        cr_assert_eq(c[3].k, 2);
        cr_assert_eq(c[3].v, 2, "the original value, not the intermediate one");
        cr_assert_eq(c[4].type, BL_CH_APPEND);
        cr_assert_eq(c[4].k, 10);
        cr_assert_eq(c[4].v, 40);
        cr_assert_eq(c[5].type, BL_CH_UPDATE_BEFORE);
        cr_assert_eq(c[5].k, 3);
        cr_assert_eq(c[6].type, BL_CH_UPDATE_AFTER);
        cr_assert_eq(c[6].v, 3);
        cr_assert_eq(c[7].type, BL_CH_DELETE, "key 4: deleted at the end");
        cr_assert_eq(c[7].k, 4);
        cr_assert_eq(c[7].v, 4, "with its value at the start");
        mem_free(c);
    }
    /* a window from the beginning: every key absent at the start, APPENDs of what exists */
    size_t n;
    chg *c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_MIN_DELTA, true, 4096, &n);
    cr_assert_eq(n, 4, "alive at the end: 0, 3, 5, 10 (1, 2, 4, 11 are gone)");
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(c[i].type, BL_CH_APPEND);
    }
    mem_free(c);
    stu_env_close(&v);
}

Test(binlog, detail_and_append_only)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema sc = bl_mow(true);
    stu_write_range(&v, &sc, 0, 2, 1, 0);
    put_one(&v, &sc, 0, 5, 0);
    put_one(&v, &sc, 1, 1, 1);
    size_t n;
    chg *c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_DETAIL, true, 1, &n);
    cr_assert_eq(n, 5);
    int64_t want[] = {BL_CH_APPEND, BL_CH_APPEND, BL_CH_UPDATE_BEFORE, BL_CH_UPDATE_AFTER,
                      BL_CH_DELETE};
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(c[i].type, want[i], "row %zu", i);
    }
    cr_assert_eq(c[2].v, 0);
    cr_assert_eq(c[3].v, 0 * 5);
    cr_assert_str_eq(c[3].s, "s0_5");
    cr_assert_str_eq(c[2].s, "s0_1");
    cr_assert_str_eq(c[4].s, "s1_1");
    mem_free(c);
    c = read_changes(&v, &sc, 0, UINT64_MAX, BL_MODE_APPEND_ONLY, true, 4096, &n);
    cr_assert_eq(n, 2);
    mem_free(c);
    stu_env_close(&v);
}

/* A snapshot of the test tablet (bucket 0 of stu_part). */
static void
test_snapshot(stu_env *v, stor_snapshot *snap)
{
    stor_tablet *t = stor_engine_tablet(v->eng, stor_tablet_id_of(stu_part, 0), false);
    cr_assert_not_null(t);
    stor_tablet_snapshot(t, snap);
}

/* Partitions read whole by a stream (planner/plan_stream.c) come from the records when the
 * binlog is complete, whatever compaction merged; otherwise from the data, each row of a
 * commit's own rowset with its record's LSN. */
Test(binlog, complete_until_cleanup_and_rowset_lsns_until_compaction)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_TSO | STU_ENV_BINLOG, 0);
    stor_schema dup = stu_dup_schema();
    dup.binlog_row = true;
    uint64_t t1 = stu_write_range(&v, &dup, 0, 3, 1, 0);
    uint64_t t2 = stu_write_range(&v, &dup, 10, 12, 1, 0);
    uint64_t t3 = stu_write_range(&v, &dup, 20, 24, 1, 0);
    cr_assert(t1 < t2 && t2 < t3);
    size_t n;
    chg *c = read_changes(&v, &dup, 0, UINT64_MAX, BL_MODE_RAW, false, 4096, &n);
    cr_assert_eq(n, 9);
    stor_snapshot snap;
    test_snapshot(&v, &snap);
    cr_assert(bl_log_complete(v.bl, &snap, UINT64_MAX));
    cr_assert(bl_log_complete(v.bl, &snap, t1));
    /* each commit's own rowset: row i of its segment has the i-th record's LSN */
    arena *a = arena_new(0);
    cr_assert_eq(snap.nrowsets, 3);
    size_t rec = 0;
    for (size_t r = 0; r < snap.nrowsets; r++) {
        uint64_t *seg = NULL;
        cr_assert(bl_log_rowset_lsns(v.bl, &snap, r, a, &seg));
        cr_assert_eq(snap.rowsets[r].nsegments, 1);
        for (uint64_t i = 0; i < snap.rowsets[r].rows; i++, rec++) {
            cr_assert_eq(seg[0] + i, (uint64_t)c[rec].lsn);
            cr_assert_eq(snap.rowsets[r].commit_tso, (uint64_t)c[rec].tso);
        }
    }
    stor_snapshot_destroy(&snap);
    /* compaction merges the three rowsets: still complete, but the output is no commit's own */
    db_error e;
    db_error_clear(&e);
    stor_compact_stats st;
    cr_assert_eq(
            stor_compact_tablet(v.eng, stor_tablet_id_of(stu_part, 0), STOR_COMPACT_BASE, &st, &e),
            DB_OK, "%s", e.msg);
    cr_assert_eq(st.merged_rowsets, 3);
    test_snapshot(&v, &snap);
    cr_assert_eq(snap.nrowsets, 1);
    cr_assert(bl_log_complete(v.bl, &snap, UINT64_MAX));
    uint64_t *seg = NULL;
    cr_assert_not(bl_log_rowset_lsns(v.bl, &snap, 0, a, &seg));
    stor_snapshot_destroy(&snap);
    /* a fourth commit, then the first commit's records expire: incomplete from t1 on */
    uint64_t t4 = stu_write_range(&v, &dup, 30, 31, 1, 0);
    size_t np = 0;
    expire_at = t1;
    dead_tablet = 0;
    cr_assert_eq(bl_log_cleanup(v.bl, expire_fn, dead_fn, NULL, &np, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(np, 1);
    expire_at = 0;
    test_snapshot(&v, &snap);
    cr_assert_not(bl_log_complete(v.bl, &snap, UINT64_MAX));
    cr_assert_not(bl_log_complete(v.bl, &snap, t1));
    cr_assert(bl_log_complete(v.bl, &snap, t1 - 1)); /* no version at or below: nothing missing */
    /* the fourth commit's rowset still has its records */
    cr_assert_eq(snap.nrowsets, 2);
    cr_assert_eq(snap.rowsets[1].commit_tso, t4);
    cr_assert(bl_log_rowset_lsns(v.bl, &snap, 1, a, &seg));
    cr_assert_eq(seg[0], (uint64_t)c[n - 1].lsn + 1);
    stor_snapshot_destroy(&snap);
    arena_free(a);
    mem_free(c);
    stu_env_close(&v);
}
