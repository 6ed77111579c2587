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
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/stor_int.h"
#include "storage/storage.h"

#include "stor_testutil.h"

#define PART   7 /* stu_part: the partition the stu_ helpers write and read */
#define TABLET (((uint64_t)PART << 16) | 0u)

static void
setup(void)
{
    stu_dirs_setup("/tmp/stor_cp_XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

TestSuite(stor_compact, .init = setup, .fini = teardown);

/* ---- environment ---- */

static void
env_open(stu_env *v)
{
    stu_env_open(v, STU_ENV_TSO | STU_ENV_REMOVE_ORPHANS, 0);
}

static size_t
nrowsets(stu_env *v)
{
    return stor_tablet_nrowsets(stor_engine_tablet(v->eng, TABLET, false));
}

static void
compact(stu_env *v, stor_compact_kind kind, stor_compact_stats *st)
{
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_compact_tablet(v->eng, TABLET, kind, st, &e), DB_OK, "%s", e.msg);
}

/* Delete (by location) the row of key k as a scan sees it; returns the txn's commit result. */
static int
delete_key(stu_env *v, const stor_schema *sc, int64_t k, const stu_rowlist *seen, db_error *e)
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
dup_workload(stu_env *v, const stor_schema *sc)
{
    for (int i = 0; i < 10; i++) {
        stu_write_range(v, sc, i * 3, i * 3 + 6, i + 1, 0); /* overlapping key ranges */
    }
    db_error e;
    db_error_clear(&e);
    stu_rowlist l = stu_scan_rows(v, sc, NULL, 7);
    cr_assert_eq(delete_key(v, sc, 7, &l, &e), DB_OK, "%s", e.msg);
    stu_rowlist_free(&l);
    l = stu_scan_rows(v, sc, NULL, 20);
    cr_assert_eq(delete_key(v, sc, 20, &l, &e), DB_OK, "%s", e.msg);
    stu_rowlist_free(&l);
}

/* ---- tests ---- */

Test(stor_compact, dup_cumulative_then_base_same_rows)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    dup_workload(&v, &sc);
    stu_rowlist before = stu_scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(nrowsets(&v), 10);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_eq(st.merged_rowsets, 10);
    /* the two deletes are newer than the merged version: kept, their marks translated */
    cr_assert_eq(st.dropped_rows, 0);
    cr_assert_eq(st.translated_marks, 2);
    cr_assert_eq(st.output_rows, st.input_rows);
    cr_assert_eq(nrowsets(&v), 1);
    stu_rowlist after = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&before, &after, "after cumulative");
    stu_rowlist_free(&after);
    stu_write_range(&v, &sc, 5, 9, 50, 0);
    stu_rowlist_free(&before);
    before = stu_scan_rows(&v, &sc, NULL, -1);
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 2);
    cr_assert_eq(st.dropped_rows, 2); /* now older than the merged version: applied */
    cr_assert_eq(nrowsets(&v), 1);
    after = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&before, &after, "after base");
    /* nothing left to merge */
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 0);
    stu_rowlist_free(&before);
    stu_rowlist_free(&after);
    stu_env_close(&v);
}

Test(stor_compact, mow_cumulative_then_base_same_rows_and_upsert_after)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_mow_schema();
    stu_mow_workload(&v, &sc);
    stor_tablet_set_delete_sign_uid(stor_engine_tablet(v.eng, TABLET, false), STU_DS_UID);
    stu_rowlist before = stu_scan_rows(&v, &sc, NULL, -1);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_eq(st.merged_rowsets, 12);
    cr_assert_eq(nrowsets(&v), 1);
    stu_rowlist after = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&before, &after, "after cumulative");
    stu_rowlist_free(&after);
    /* an upsert after the compaction marks the remapped row: key 3 visible once, new value */
    stu_write_range(&v, &sc, 3, 4, 11, 0);
    stu_write_range(&v, &sc, 200, 201, 1, 0);
    stu_rowlist_free(&before);
    before = stu_scan_rows(&v, &sc, NULL, -1);
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
    after = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&before, &after, "after base");
    /* the deleted keys left the index: re-inserting one gives exactly one row */
    stu_write_range(&v, &sc, 46, 47, 12, 0);
    stu_write_range(&v, &sc, 3, 4, 13, 0);
    stu_rowlist l = stu_scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(l.n, after.n + 1);
    stu_rowlist_free(&l);
    stu_rowlist_free(&before);
    stu_rowlist_free(&after);
    stu_env_close(&v);
}

Test(stor_compact, old_snapshot_reads_retired_files_until_destroyed)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_mow_schema();
    stu_mow_workload(&v, &sc);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot old;
    stor_tablet_snapshot(t, &old);
    stu_rowlist before = stu_scan_rows(&v, &sc, &old, -1);
    char first[1024];
    snprintf(first, sizeof first, "%s/%s", stor_tablet_dir(t), old.rowsets[0].segments[0]);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 12);
    stu_write_range(&v, &sc, 0, 3, 99, 0); /* marks the new rowset, not the retired ones */
    cr_assert_eq(stor__engine_nretired(v.eng), 1);
    cr_assert_eq(stor_engine_purge_retired(v.eng), 0);
    cr_assert(stu_file_exists(first));
    stu_rowlist again = stu_scan_rows(&v, &sc, &old, -1);
    stu_assert_same(&before, &again, "old snapshot after compaction");
    stor_snapshot_destroy(&old);
    cr_assert_eq(stor_engine_purge_retired(v.eng), 12);
    cr_assert_not(stu_file_exists(first));
    cr_assert_eq(stor__engine_nretired(v.eng), 0);
    stu_rowlist_free(&before);
    stu_rowlist_free(&again);
    stu_env_close(&v);
}

/* ---- a write between the compaction's snapshot and its publish ---- */

typedef struct hook_ctx {
    stu_env *v;
    const stor_schema *sc;
    bool is_dup;
    stu_rowlist seen; /* DUP: where key 7 is */
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
        stu_write_range(h->v, h->sc, 3, 4, 77, 0);  /* upsert: marks an input row */
        stu_write_range(h->v, h->sc, 30, 31, 0, 1); /* delete sign: marks an input row */
    }
}

Test(stor_compact, write_during_compaction_keeps_marks_mow)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_mow_schema();
    stu_mow_workload(&v, &sc);
    hook_ctx h = {.v = &v, .sc = &sc};
    stor__compact_set_hook(v.eng, racing_write, &h);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    stor__compact_set_hook(v.eng, NULL, NULL);
    cr_assert_eq(h.calls, 1);
    cr_assert_eq(st.translated_marks, 2);
    stu_rowlist l = stu_scan_rows(&v, &sc, NULL, -1);
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
    stu_write_range(&v, &sc, 3, 4, 78, 0);
    stu_rowlist l2 = stu_scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(l2.n, l.n);
    stu_rowlist_free(&l);
    stu_rowlist_free(&l2);
    stu_env_close(&v);
}

Test(stor_compact, write_during_compaction_keeps_marks_dup)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    dup_workload(&v, &sc);
    stu_rowlist before = stu_scan_rows(&v, &sc, NULL, -1);
    hook_ctx h = {.v = &v, .sc = &sc, .is_dup = true};
    h.seen = stu_scan_rows(&v, &sc, NULL, 8);
    stor__compact_set_hook(v.eng, racing_write, &h);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_BASE, &st);
    stor__compact_set_hook(v.eng, NULL, NULL);
    cr_assert_eq(st.translated_marks, 3); /* the workload's two deletes and the racing one */
    stu_rowlist after = stu_scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(after.n, before.n - 1);
    stu_rowlist_free(&before);
    stu_rowlist_free(&after);
    stu_rowlist_free(&h.seen);
    stu_env_close(&v);
}

Test(stor_compact, restart_replay_and_image_same_rows)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_mow_schema();
    stu_mow_workload(&v, &sc);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_gt(st.merged_rowsets, 0);
    stu_write_range(&v, &sc, 0, 2, 21, 0);
    stu_rowlist want = stu_scan_rows(&v, &sc, NULL, -1);
    uint64_t floor = stor_tablet_floor(stor_engine_tablet(v.eng, TABLET, false));
    cr_assert_eq(floor, 12);
    stu_env_close(&v);

    env_open(&v); /* replay of the compaction record */
    cr_assert_eq(nrowsets(&v), 2);
    cr_assert_eq(stor_tablet_floor(stor_engine_tablet(v.eng, TABLET, false)), floor);
    stu_rowlist got = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&want, &got, "after replay");
    stu_rowlist_free(&got);
    stu_write_range(&v, &sc, 1, 2, 22, 0); /* index rebuilt from the compacted rowset */
    stu_rowlist_free(&want);
    want = stu_scan_rows(&v, &sc, NULL, -1);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    stu_env_close(&v);

    env_open(&v); /* from the image */
    cr_assert_eq(stor_tablet_floor(stor_engine_tablet(v.eng, TABLET, false)), floor);
    got = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&want, &got, "after image");
    /* only files of published rowsets are left */
    DIR *d = opendir(stor_tablet_dir(stor_engine_tablet(v.eng, TABLET, false)));
    int nfiles = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        nfiles += de->d_name[0] != '.';
    }
    closedir(d);
    cr_assert_eq(nfiles, 3);
    stu_rowlist_free(&got);
    stu_rowlist_free(&want);
    stu_env_close(&v);
}

Test(stor_compact, as_of_before_floor_fails)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    uint64_t tso[8];
    for (int i = 0; i < 8; i++) {
        tso[i] = stu_write_range(&v, &sc, i, i + 2, 1, 0);
    }
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_CUMULATIVE, &st);
    cr_assert_eq(st.merged_rowsets, 8);
    uint64_t later = stu_write_range(&v, &sc, 50, 51, 1, 0);
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
    stu_rowlist l = stu_scan_rows(&v, &sc, &s, -1);
    cr_assert_eq(l.n, 16);
    stu_rowlist_free(&l);
    stor_snapshot_destroy(&s);
    stor_tablet_snapshot(t, &s);
    cr_assert_eq(stor_snapshot_as_of(&s, later, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(s.nrowsets, 2);
    stor_snapshot_destroy(&s);
    stu_env_close(&v);
}

Test(stor_compact, delete_by_location_of_compacted_rowset_fails)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    for (int i = 0; i < 3; i++) {
        stu_write_range(&v, &sc, i * 10, i * 10 + 5, 1, 0);
    }
    stu_rowlist seen = stu_scan_rows(&v, &sc, NULL, 11);
    stor_compact_stats st;
    compact(&v, STOR_COMPACT_BASE, &st);
    cr_assert_eq(st.merged_rowsets, 3);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(delete_key(&v, &sc, 11, &seen, &e), DB_ERR);
    cr_assert(strstr(e.msg, "was compacted; retry the statement") != NULL, "%s", e.msg);
    stu_rowlist after = stu_scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(after.n, 15); /* nothing deleted */
    stu_rowlist_free(&seen);
    stu_rowlist_free(&after);
    stu_env_close(&v);
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
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    for (int i = 0; i < 6; i++) {
        stu_write_range(&v, &sc, i, i + 3, 1, 0);
    }
    stu_rowlist before = stu_scan_rows(&v, &sc, NULL, -1);
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
    stu_rowlist after = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&before, &after, "after background compaction");
    stu_rowlist_free(&before);
    stu_rowlist_free(&after);
    stu_env_close(&v); /* never-stopped engines stop in free: covered by the other tests */
}
