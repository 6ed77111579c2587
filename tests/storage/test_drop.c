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

#include "stor_testutil.h"

#define PART    7
#define PART2   8
#define TABLET  (((uint64_t)PART << 16) | 0u)
#define TABLET2 (((uint64_t)PART2 << 16) | 0u)


static void
setup(void)
{
    stu_dirs_setup("/tmp/stor_drop_XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

TestSuite(stor_drop, .init = setup, .fini = teardown);

/* ---- environment ---- */

static void
env_open(stu_env *v)
{
    stu_env_open(v, STU_ENV_TSO | STU_ENV_REMOVE_ORPHANS, 0);
}

/* ---- tests ---- */

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
    snprintf(out, len, "%s/%" PRIu64, stu_datadir, id);
}

static int
drop(stu_env *v, uint64_t id)
{
    db_error e;
    db_error_clear(&e);
    int rc = stor_engine_drop_tablets(v->eng, &id, 1, &e);
    cr_assert_eq(rc, DB_OK, "%s", e.msg);
    return rc;
}

Test(stor_drop, drop_removes_tablet_and_files)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    stu_part = PART;
    stu_write_range(&v, &sc, 0, 10, 1, 0);
    stu_write_range(&v, &sc, 5, 15, 2, 0);
    stu_part = PART2;
    stu_write_range(&v, &sc, 0, 4, 3, 0);
    cr_assert_eq(stor_engine_ntablets(v.eng), 2);
    char dir[512];
    tablet_dir(TABLET, dir, sizeof dir);
    cr_assert(stu_file_exists(dir));

    uint64_t ids[3] = {TABLET, 12345, TABLET}; /* unknown and repeated ids are skipped */
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_engine_drop_tablets(v.eng, ids, 3, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);
    uint64_t *left = NULL;
    cr_assert_eq(stor_engine_tablet_ids(v.eng, &left), 1);
    cr_assert_eq(left[0], TABLET2);
    mem_free(left);
    cr_assert_not(stu_file_exists(dir), "no snapshot: the files and directory go at once");
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
    stu_part = PART;
    stor_writer *w = stor_writer_new(v.eng);
    int64_t k[2] = {1, 2};
    stu_put_rows(w, &sc, k, 2, 1, 0);
    uint64_t tso = 0;
    db_error_clear(&e);
    cr_assert_eq(stor_writer_commit(w, v.tso, &tso, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_STOR_COMMIT_BAD), "%s", e.msg);
    cr_assert(strstr(e.msg, "dropped") != NULL, "%s", e.msg);
    stor_writer_free(w);
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);

    /* the other tablet is untouched */
    stu_part = PART2;
    stu_rowlist l = stu_scan_rows(&v, &sc, NULL, -1);
    cr_assert_eq(l.n, 4);
    stu_rowlist_free(&l);
    stu_part = PART;
    stu_env_close(&v);
}

Test(stor_drop, snapshot_scans_dropped_tablet_until_destroyed)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_mow_schema();
    stu_part = PART;
    stu_mow_workload(&v, &sc);
    stor_tablet *t = stor_engine_tablet(v.eng, TABLET, false);
    stor_snapshot old;
    stor_tablet_snapshot(t, &old);
    stu_rowlist before = stu_scan_rows(&v, &sc, &old, -1);
    cr_assert_gt(before.n, 0);
    char first[1024];
    snprintf(first, sizeof first, "%s/%s", stor_tablet_dir(t), old.rowsets[0].segments[0]);

    drop(&v, TABLET);
    cr_assert_eq(stor_engine_ntablets(v.eng), 0);
    cr_assert_eq(stor__engine_nretired(v.eng), 1);
    cr_assert(stu_file_exists(first), "a snapshot from before the drop names it");
    cr_assert_eq(stor_engine_purge_retired(v.eng), 0);
    stu_rowlist again = stu_scan_rows(&v, &sc, &old, -1);
    stu_assert_same(&before, &again, "old snapshot after the drop");
    /* a snapshot taken after the drop is empty */
    stor_snapshot late;
    stor_tablet_snapshot(t, &late);
    cr_assert_eq(late.nrowsets, 0);
    stor_snapshot_destroy(&late);

    stor_snapshot_destroy(&old);
    cr_assert_eq(stor_engine_purge_retired(v.eng), 12);
    cr_assert_not(stu_file_exists(first));
    cr_assert_not(stu_file_exists(stor_tablet_dir(t)));
    cr_assert_eq(stor__engine_nretired(v.eng), 0);
    stu_rowlist_free(&before);
    stu_rowlist_free(&again);
    stu_env_close(&v);
}

static void
drop_in_hook(void *arg)
{
    stu_env *v = arg;
    drop(v, TABLET);
}

Test(stor_drop, compaction_racing_a_drop_publishes_nothing)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    stu_part = PART;
    for (int i = 0; i < 6; i++) {
        stu_write_range(&v, &sc, i * 3, i * 3 + 5, i + 1, 0);
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
    stu_env_close(&v);

    env_open(&v); /* the log holds the drop and no compaction; the empty directory is gone */
    cr_assert_eq(stor_engine_ntablets(v.eng), 0);
    cr_assert_not(stu_file_exists(dir));
    stu_env_close(&v);
}

Test(stor_drop, replay_and_image_do_not_resurrect)
{
    stu_env v;
    env_open(&v);
    stor_schema sc = stu_dup_schema();
    stu_part = PART;
    stu_write_range(&v, &sc, 0, 10, 1, 0);
    stu_part = PART2;
    stu_write_range(&v, &sc, 0, 6, 2, 0);
    stu_rowlist want = stu_scan_rows(&v, &sc, NULL, -1);
    /* a snapshot keeps the dropped files on disk: as after a crash before the purge */
    stu_part = PART;
    stor_snapshot old;
    stor_tablet_snapshot(stor_engine_tablet(v.eng, TABLET, false), &old);
    drop(&v, TABLET);
    char dir[512];
    tablet_dir(TABLET, dir, sizeof dir);
    cr_assert(stu_file_exists(dir));
    stu_env_close(&v);
    old.engine = NULL; /* its engine is gone: only free the copy */
    stor_snapshot_destroy(&old);

    env_open(&v); /* replay of the drop record; the files are orphans */
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);
    cr_assert_null(stor_engine_tablet(v.eng, TABLET, false));
    cr_assert_not(stu_file_exists(dir));
    stu_part = PART2;
    stu_rowlist got = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&want, &got, "after replay");
    stu_rowlist_free(&got);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    stu_env_close(&v);

    env_open(&v); /* from the image */
    cr_assert_eq(stor_engine_ntablets(v.eng), 1);
    cr_assert_null(stor_engine_tablet(v.eng, TABLET, false));
    got = stu_scan_rows(&v, &sc, NULL, -1);
    stu_assert_same(&want, &got, "after image");
    stu_rowlist_free(&got);
    stu_rowlist_free(&want);
    stu_part = PART;
    stu_env_close(&v);
}

Test(stor_drop, bad_drop_record_fails_replay)
{
    stu_env v;
    env_open(&v);
    uint8_t rec[28] = {0};
    /* wrong magic, valid CRC */
    rec[8] = 1;
    uint32_t crc = crc32c(rec, 24);
    memcpy(rec + 24, &crc, 4);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_append(v.log, STOR_REC_DROP, rec, sizeof rec, NULL, &e), DB_OK);
    stu_env_close(&v);
    v.log = cat_editlog_open(stu_logdir, NULL, &e);
    cr_assert_not_null(v.log, "%s", e.msg);
    v.tso = cat_tso_new(v.log, cat_clock_realtime_ms, NULL, &e);
    v.eng = stor_engine_new(stu_datadir, v.log, &e);
    cr_assert_eq(cat_editlog_replay(v.log, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_STOR_COMMIT_CORRUPT), "%s", e.msg);
    stu_env_close(&v);
}
