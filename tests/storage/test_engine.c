/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of the storage engine (storage/stor_engine.c) with a real edit log in a temporary
 * directory: commits over several tablets with real segment files, replay and image reopen give
 * identical rowset lists / versions / bitmaps, orphan cleanup, a commit whose append fails, and
 * snapshot isolation. White-box only for the edit log's write-error hook (catalog/cat_int.h). */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <roaring/roaring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/cat_int.h"
#include "catalog/catalog.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "storage/storage.h"

#include "stor_testutil.h"

#define EXTRA_KIND 7
#define NTXN       12

static const uint64_t tablet_ids[] = {11, 22, 33};
#define NTABLETS 3

/* ---- temp dir (removed recursively at teardown) ---- */

static void
setup(void)
{
    stu_dirs_setup("/tmp/stor_eng_XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

static void
touch(const char *path)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs("junk", f);
    fclose(f);
}

/* ---- the extra-section handler: records what it saw ---- */

typedef struct extra_seen {
    int ncalls, nreplayed;
    buf bytes; /* every section's bytes, concatenated */
} extra_seen;

static int
on_extra(void *ctx, uint16_t kind, uint64_t tso, const void *data, size_t len, bool is_replay,
         db_error *err)
{
    extra_seen *s = ctx;
    cr_assert_eq(kind, EXTRA_KIND);
    s->ncalls++;
    s->nreplayed += is_replay;
    buf_append(&s->bytes, data, len);
    return DB_OK;
}

/* ---- open / close ---- */

typedef struct env {
    cat_editlog *log;
    stor_engine *eng;
    extra_seen seen;
} env;

static void
env_open(env *v, bool register_extra)
{
    db_error e;
    db_error_clear(&e);
    memset(v, 0, sizeof *v);
    buf_init(&v->seen.bytes);
    v->log = cat_editlog_open(stu_logdir, NULL, &e);
    cr_assert_not_null(v->log, "%s", e.msg);
    v->eng = stor_engine_new(stu_datadir, v->log, &e);
    cr_assert_not_null(v->eng, "%s", e.msg);
    if (register_extra) {
        stor_engine_register_extra(v->eng, EXTRA_KIND, on_extra, &v->seen);
    }
    cr_assert_eq(cat_editlog_replay(v->log, &e), DB_OK, "%s", e.msg);
}

static void
env_close(env *v)
{
    stor_engine_free(v->eng);
    cat_editlog_close(v->log);
    buf_destroy(&v->seen.bytes);
    memset(v, 0, sizeof *v);
}

/* ---- segments ---- */

/* Write a real segment of n BIGINT rows (base, base + 1, ...) at <tablet dir>/name. */
static void
write_segment(stor_tablet *t, const char *name, uint32_t n, int64_t base)
{
    char path[1024];
    stu_tablet_path(t, name, path, sizeof path);
    stor_segment_opts opts = {.no_fsync = true};
    stu_i64_segment_write(path, n, base, &opts);
}

/* Transaction i of the workload: a new rowset (1 or 2 segments) in tablet i % 3, every third
 * one also a rowset in the next tablet, deletes of two rows of an earlier rowset of the first
 * tablet from i >= 3, and an extra section "x<i>". Rowset ids are 100 + i (and 500 + i). */
static void
commit_txn(env *v, int i)
{
    db_error e;
    db_error_clear(&e);
    stor_txn *txn = stor_txn_new(1000 + (uint64_t)i);
    for (int k = 0; k < (i % 3 == 0 ? 2 : 1); k++) {
        uint64_t tid = tablet_ids[(i + k) % NTABLETS];
        uint64_t rsid = (k == 0 ? 100 : 500) + (uint64_t)i;
        stor_tablet *t = stor_engine_tablet(v->eng, tid, true);
        uint32_t nseg = 1 + (uint32_t)(i % 2);
        char names[2][64];
        const char *ptrs[2];
        for (uint32_t s = 0; s < nseg; s++) {
            snprintf(names[s], sizeof names[s], "r%" PRIu64 "_%u.seg", rsid, s);
            write_segment(t, names[s], 10 + s, (int64_t)rsid * 100);
            ptrs[s] = names[s];
        }
        stor_txn_add_rowset(txn, tid, rsid, nseg == 1 ? 10 : 21, ptrs, nseg);
    }
    if (i >= 3) {
        uint32_t rows[2] = {(uint32_t)i % 5, (uint32_t)i % 5 + 5};
        stor_txn_delete(txn, tablet_ids[i % NTABLETS], 100 + (uint64_t)(i - 3), 0, rows, 2);
    }
    char x[16];
    int xl = snprintf(x, sizeof x, "x%d", i);
    stor_txn_add_extra(txn, EXTRA_KIND, x, (size_t)xl);
    cr_assert_eq(stor_txn_commit(v->eng, txn, 5000 + (uint64_t)i, &e), DB_OK, "%s", e.msg);
    stor_txn_free(txn);
}

/* Serialize everything visible of the test tablets: version, rowsets, bitmaps. */
static void
dump(env *v, buf *out)
{
    buf_put_u64le(out, stor_engine_ntablets(v->eng));
    for (int i = 0; i < NTABLETS; i++) {
        stor_tablet *t = stor_engine_tablet(v->eng, tablet_ids[i], false);
        cr_assert_not_null(t);
        stor_snapshot s;
        stor_tablet_snapshot(t, &s);
        buf_printf(out, "tablet %" PRIu64 " v%" PRIu64 " n%zu\n", s.tablet_id, s.version,
                   s.nrowsets);
        for (size_t r = 0; r < s.nrowsets; r++) {
            const stor_rowset_meta *m = &s.rowsets[r];
            buf_printf(out, " rs %" PRIu64 " v%" PRIu64 " tso%" PRIu64 " rows%" PRIu64,
                       m->rowset_id, m->version, m->commit_tso, m->rows);
            for (uint32_t k = 0; k < m->nsegments; k++) {
                buf_printf(out, " %s", m->segments[k]);
            }
            buf_append_str(out, "\n");
        }
        stor_snapshot_destroy(&s);
        stor_tablet_encode_dbm(t, out);
    }
}

/* Every segment named by a snapshot opens and its rows add up to the rowset's row count. */
static void
check_segments_readable(env *v)
{
    for (int i = 0; i < NTABLETS; i++) {
        stor_tablet *t = stor_engine_tablet(v->eng, tablet_ids[i], false);
        stor_snapshot s;
        stor_tablet_snapshot(t, &s);
        for (size_t r = 0; r < s.nrowsets; r++) {
            uint64_t rows = 0;
            for (uint32_t k = 0; k < s.rowsets[r].nsegments; k++) {
                char path[1024];
                snprintf(path, sizeof path, "%s/%s", stor_tablet_dir(t), s.rowsets[r].segments[k]);
                db_error e;
                db_error_clear(&e);
                stor_segment_reader *rd = stor_segment_reader_open(path, &e);
                cr_assert_not_null(rd, "%s", e.msg);
                rows += stor_segment_reader_rows(rd);
                stor_segment_reader_close(rd);
            }
            cr_assert_eq(rows, s.rowsets[r].rows);
        }
        stor_snapshot_destroy(&s);
    }
}

static bool
buf_eq(const buf *a, const buf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/* ---- tests ---- */

TestSuite(stor_engine, .init = setup, .fini = teardown);

Test(stor_engine, commit_publishes_versions_rowsets_and_bitmaps)
{
    env v;
    env_open(&v, true);
    for (int i = 0; i < NTXN; i++) {
        commit_txn(&v, i);
    }
    cr_assert_eq(stor_engine_ntablets(v.eng), NTABLETS);
    /* Tablet 11 is touched by the txns with i % 3 == 0 only: 4 commits. */
    stor_tablet *t11 = stor_engine_tablet(v.eng, 11, false);
    cr_assert_eq(stor_tablet_version(t11), 4);
    stor_snapshot s;
    stor_tablet_snapshot(t11, &s);
    cr_assert_eq(s.nrowsets, 4);
    for (size_t r = 0; r < s.nrowsets; r++) {
        cr_assert_eq(s.rowsets[r].version, r + 1);
    }
    cr_assert_eq(s.rowsets[0].rowset_id, 100);
    cr_assert_eq(s.rowsets[0].commit_tso, 5000);
    cr_assert_str_eq(s.rowsets[0].segments[0], "r100_0.seg");
    stor_snapshot_destroy(&s);
    /* Txn 3 (tablet 11, its version 2) deleted rows 3 and 8 of rowset 100, segment 0. */
    roaring_bitmap_t *before = stor_tablet_deleted(t11, 100, 0, 1);
    roaring_bitmap_t *after = stor_tablet_deleted(t11, 100, 0, 2);
    cr_assert_eq(roaring_bitmap_get_cardinality(before), 0);
    cr_assert_eq(roaring_bitmap_get_cardinality(after), 2);
    cr_assert(roaring_bitmap_contains(after, 3) && roaring_bitmap_contains(after, 8));
    roaring_bitmap_free(before);
    roaring_bitmap_free(after);
    cr_assert_eq(v.seen.ncalls, NTXN);
    cr_assert_eq(v.seen.nreplayed, 0);
    check_segments_readable(&v);
    env_close(&v);
}

Test(stor_engine, replay_republishes_identically)
{
    env v;
    env_open(&v, true);
    for (int i = 0; i < NTXN; i++) {
        commit_txn(&v, i);
    }
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    dump(&v, &a);
    buf extras_live;
    buf_init(&extras_live);
    buf_append(&extras_live, v.seen.bytes.data, v.seen.bytes.len);
    env_close(&v);

    env_open(&v, true);
    dump(&v, &b);
    cr_assert(buf_eq(&a, &b), "replayed state differs:\n%.*s\n---\n%.*s", (int)a.len, a.data,
              (int)b.len, b.data);
    cr_assert_eq(v.seen.nreplayed, NTXN);
    cr_assert(buf_eq(&extras_live, &v.seen.bytes));
    check_segments_readable(&v);
    /* Commits continue from the replayed versions. */
    commit_txn(&v, NTXN);
    cr_assert_eq(stor_tablet_version(stor_engine_tablet(v.eng, 11, false)), 5);
    env_close(&v);
    buf_destroy(&a);
    buf_destroy(&b);
    buf_destroy(&extras_live);
}

Test(stor_engine, image_reopen_identical)
{
    env v;
    env_open(&v, true);
    for (int i = 0; i < NTXN / 2; i++) {
        commit_txn(&v, i);
    }
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    buf a, b, c;
    buf_init(&a);
    buf_init(&b);
    buf_init(&c);
    dump(&v, &a);
    env_close(&v);

    /* From the image alone. */
    env_open(&v, true);
    cat_editlog_stats st;
    cat_editlog_stats_get(v.log, &st);
    cr_assert_gt(st.image_seq, 0);
    cr_assert_eq(v.seen.nreplayed, 0);
    dump(&v, &b);
    cr_assert(buf_eq(&a, &b), "image state differs:\n%.*s\n---\n%.*s", (int)a.len, a.data,
              (int)b.len, b.data);
    /* Image plus records after it. */
    for (int i = NTXN / 2; i < NTXN; i++) {
        commit_txn(&v, i);
    }
    buf_clear(&a);
    dump(&v, &a);
    env_close(&v);
    env_open(&v, true);
    cr_assert_eq(v.seen.nreplayed, NTXN - NTXN / 2);
    dump(&v, &c);
    cr_assert(buf_eq(&a, &c));
    /* And a second image of that state reopens identically too. */
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    env_close(&v);
    env_open(&v, true);
    buf_clear(&c);
    dump(&v, &c);
    cr_assert(buf_eq(&a, &c));
    check_segments_readable(&v);
    env_close(&v);
    buf_destroy(&a);
    buf_destroy(&b);
    buf_destroy(&c);
}

Test(stor_engine, orphans_removed_only_when_unreferenced)
{
    env v;
    env_open(&v, true);
    for (int i = 0; i < 4; i++) {
        commit_txn(&v, i);
    }
    stor_tablet *t = stor_engine_tablet(v.eng, 22, false);
    char orphan[1024], tmp[1024], kept[1024], unknown_dir[1024], unknown[1024], misc_dir[1024],
            misc[1024];
    snprintf(orphan, sizeof orphan, "%s/r999_0.seg", stor_tablet_dir(t));
    snprintf(tmp, sizeof tmp, "%s/r998_0.seg.tmp", stor_tablet_dir(t));
    snprintf(kept, sizeof kept, "%s/r101_0.seg", stor_tablet_dir(t));
    snprintf(unknown_dir, sizeof unknown_dir, "%s/777", stu_datadir);
    snprintf(unknown, sizeof unknown, "%s/777/r1_0.seg", stu_datadir);
    snprintf(misc_dir, sizeof misc_dir, "%s/misc", stu_datadir);
    snprintf(misc, sizeof misc, "%s/misc/keep.seg", stu_datadir);
    write_segment(t, "r999_0.seg", 5, 0); /* written, never committed */
    touch(tmp);
    cr_assert_eq(mkdir(unknown_dir, 0755), 0);
    touch(unknown);
    cr_assert_eq(mkdir(misc_dir, 0755), 0);
    touch(misc);
    env_close(&v);

    env_open(&v, true);
    db_error e;
    db_error_clear(&e);
    uint64_t n = 0;
    cr_assert_eq(stor_engine_remove_orphans(v.eng, &n, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(n, 3);
    cr_assert(!stu_file_exists(orphan));
    cr_assert(!stu_file_exists(tmp));
    cr_assert(!stu_file_exists(unknown));
    cr_assert(!stu_file_exists(unknown_dir));
    cr_assert(stu_file_exists(kept));
    cr_assert(stu_file_exists(misc));
    check_segments_readable(&v); /* every referenced file survived */
    cr_assert_eq(stor_engine_remove_orphans(v.eng, &n, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(n, 0);
    env_close(&v);
}

Test(stor_engine, failed_append_publishes_nothing)
{
    env v;
    env_open(&v, true);
    commit_txn(&v, 0); /* tablets 11 and 22 at version 1 */
    stor_tablet *t11 = stor_engine_tablet(v.eng, 11, false);
    stor_snapshot s0;
    stor_tablet_snapshot(t11, &s0);

    stor_tablet *t44 = stor_engine_tablet(v.eng, 44, true);
    write_segment(t11, "r900_0.seg", 10, 0);
    write_segment(t44, "r901_0.seg", 10, 0);
    stor_txn *txn = stor_txn_new(77);
    const char *n11[] = {"r900_0.seg"};
    const char *n44[] = {"r901_0.seg"};
    stor_txn_add_rowset(txn, 11, 900, 10, n11, 1);
    stor_txn_add_rowset(txn, 44, 901, 10, n44, 1); /* a tablet with nothing committed yet */
    uint32_t rows[] = {1, 2};
    stor_txn_delete(txn, 11, 100, 0, rows, 2);
    stor_txn_delete(txn, 99, 1, 0, rows, 2); /* a tablet that does not exist yet */
    stor_txn_add_extra(txn, EXTRA_KIND, "zz", 2);
    cat__editlog_inject_write_error(v.log, EIO);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_txn_commit(v.eng, txn, 6000, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_CAT_LOG_FAILED));
    stor_txn_free(txn);
    cr_assert_eq(stor_tablet_version(t11), 1);
    cr_assert_eq(stor_tablet_version(t44), 0);
    cr_assert_null(stor_engine_tablet(v.eng, 99, false));
    stor_snapshot s1;
    stor_tablet_snapshot(t11, &s1);
    cr_assert_eq(s1.nrowsets, s0.nrowsets);
    roaring_bitmap_t *del = stor_tablet_deleted(t11, 100, 0, UINT64_MAX);
    cr_assert_eq(roaring_bitmap_get_cardinality(del), 0);
    roaring_bitmap_free(del);
    cr_assert_eq(v.seen.ncalls, 1);
    stor_snapshot_destroy(&s0);
    stor_snapshot_destroy(&s1);
    env_close(&v);

    /* After a restart the failed commit is absent and its files are orphans. */
    env_open(&v, true);
    t11 = stor_engine_tablet(v.eng, 11, false);
    cr_assert_eq(stor_tablet_version(t11), 1);
    cr_assert_null(stor_engine_tablet(v.eng, 44, false));
    cr_assert_null(stor_engine_tablet(v.eng, 99, false));
    uint64_t n = 0;
    cr_assert_eq(stor_engine_remove_orphans(v.eng, &n, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(n, 2);
    env_close(&v);
}

Test(stor_engine, duplicate_rowset_rejected_before_append)
{
    env v;
    env_open(&v, true);
    commit_txn(&v, 1); /* rowset 101 in tablet 22 */
    stor_tablet *t = stor_engine_tablet(v.eng, 22, false);
    cat_editlog_stats st0, st1;
    cat_editlog_stats_get(v.log, &st0);
    stor_txn *txn = stor_txn_new(5);
    const char *names[] = {"r101_0.seg"};
    stor_txn_add_rowset(txn, 22, 101, 10, names, 1);
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_txn_commit(v.eng, txn, 7000, &e), DB_ERR);
    cr_assert_eq(e.code, db_error_code_of(ER_STOR_COMMIT_BAD));
    cr_assert(strstr(e.msg, "rowset 101") != NULL, "%s", e.msg);
    stor_txn_free(txn);
    cat_editlog_stats_get(v.log, &st1);
    cr_assert_eq(st1.next_seq, st0.next_seq);
    cr_assert_eq(stor_tablet_version(t), 1);
    env_close(&v);
}

Test(stor_engine, snapshot_does_not_see_later_commit)
{
    env v;
    env_open(&v, true);
    stor_tablet *t = stor_engine_tablet(v.eng, 55, true);
    write_segment(t, "a.seg", 10, 0);
    write_segment(t, "b.seg", 10, 100);
    db_error e;
    db_error_clear(&e);
    stor_txn *t1 = stor_txn_new(1);
    const char *na[] = {"a.seg"};
    stor_txn_add_rowset(t1, 55, 1, 10, na, 1);
    cr_assert_eq(stor_txn_commit(v.eng, t1, 10, &e), DB_OK, "%s", e.msg);
    stor_txn_free(t1);

    stor_snapshot before;
    stor_tablet_snapshot(t, &before);

    stor_txn *t2 = stor_txn_new(2);
    const char *nb[] = {"b.seg"};
    stor_txn_add_rowset(t2, 55, 2, 10, nb, 1);
    uint32_t rows[] = {0, 4, 9};
    stor_txn_delete(t2, 55, 1, 0, rows, 3);
    cr_assert_eq(stor_txn_commit(v.eng, t2, 20, &e), DB_OK, "%s", e.msg);
    stor_txn_free(t2);

    stor_snapshot after;
    stor_tablet_snapshot(t, &after);
    cr_assert_eq(before.version, 1);
    cr_assert_eq(before.nrowsets, 1);
    cr_assert_str_eq(before.rowsets[0].segments[0], "a.seg");
    cr_assert_eq(after.version, 2);
    cr_assert_eq(after.nrowsets, 2);
    roaring_bitmap_t *old = stor_tablet_deleted(t, 1, 0, before.version);
    roaring_bitmap_t *now = stor_tablet_deleted(t, 1, 0, after.version);
    cr_assert_eq(roaring_bitmap_get_cardinality(old), 0);
    cr_assert_eq(roaring_bitmap_get_cardinality(now), 3);
    roaring_bitmap_free(old);
    roaring_bitmap_free(now);
    stor_snapshot_destroy(&before);
    stor_snapshot_destroy(&after);
    env_close(&v);
}

/* visible_tso: the TSO of the last fully published commit, restored by replay and by the image;
 * a snapshot cut at it (what a statement does) leaves out a commit published later on every
 * tablet, also one that spans two tablets. */
Test(stor_engine, visible_tso_cuts_multi_tablet_commits_alike)
{
    env v;
    env_open(&v, true);
    cr_assert_eq(stor_engine_visible_tso(v.eng), 0);
    stor_tablet *a = stor_engine_tablet(v.eng, 71, true);
    stor_tablet *b = stor_engine_tablet(v.eng, 72, true);
    write_segment(a, "a1.seg", 5, 0);
    write_segment(b, "b1.seg", 5, 0);
    write_segment(a, "a2.seg", 5, 10);
    write_segment(b, "b2.seg", 5, 10);
    db_error e;
    db_error_clear(&e);
    stor_txn *t1 = stor_txn_new(1);
    const char *a1[] = {"a1.seg"}, *b1[] = {"b1.seg"}, *a2[] = {"a2.seg"}, *b2[] = {"b2.seg"};
    stor_txn_add_rowset(t1, 71, 1, 5, a1, 1);
    stor_txn_add_rowset(t1, 72, 2, 5, b1, 1);
    cr_assert_eq(stor_txn_commit(v.eng, t1, 100, &e), DB_OK, "%s", e.msg);
    stor_txn_free(t1);
    uint64_t wm = stor_engine_visible_tso(v.eng);
    cr_assert_eq(wm, 100);
    stor_txn *t2 = stor_txn_new(2);
    stor_txn_add_rowset(t2, 71, 3, 5, a2, 1);
    stor_txn_add_rowset(t2, 72, 4, 5, b2, 1);
    cr_assert_eq(stor_txn_commit(v.eng, t2, 200, &e), DB_OK, "%s", e.msg);
    stor_txn_free(t2);
    cr_assert_eq(stor_engine_visible_tso(v.eng), 200);
    /* Snapshots taken after the second commit, cut at the earlier watermark: both tablets show
     * the first commit only. */
    stor_snapshot sa, sb;
    stor_tablet_snapshot(a, &sa);
    stor_tablet_snapshot(b, &sb);
    cr_assert_eq(stor_snapshot_as_of(&sa, wm, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(stor_snapshot_as_of(&sb, wm, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(sa.nrowsets, 1);
    cr_assert_eq(sb.nrowsets, 1);
    cr_assert_str_eq(sa.rowsets[0].segments[0], "a1.seg");
    cr_assert_str_eq(sb.rowsets[0].segments[0], "b1.seg");
    stor_snapshot_destroy(&sa);
    stor_snapshot_destroy(&sb);
    env_close(&v);
    /* Replay restores it; so does a reopen from the image. */
    env_open(&v, true);
    cr_assert_eq(stor_engine_visible_tso(v.eng), 200);
    cr_assert_eq(cat_editlog_checkpoint(v.log, &e), DB_OK, "%s", e.msg);
    env_close(&v);
    env_open(&v, true);
    cr_assert_eq(stor_engine_visible_tso(v.eng), 200);
    env_close(&v);
}

Test(stor_engine, replay_rejects_unregistered_extra_kind)
{
    env v;
    env_open(&v, true);
    commit_txn(&v, 0);
    env_close(&v);
    db_error e;
    db_error_clear(&e);
    cat_editlog *el = cat_editlog_open(stu_logdir, NULL, &e);
    cr_assert_not_null(el, "%s", e.msg);
    stor_engine *eng = stor_engine_new(stu_datadir, el, &e);
    cr_assert_not_null(eng, "%s", e.msg);
    cr_assert_eq(cat_editlog_replay(el, &e), DB_ERR);
    cr_assert(strstr(e.msg, "unregistered extra") != NULL, "%s", e.msg);
    stor_engine_free(eng);
    cat_editlog_close(el);
}
