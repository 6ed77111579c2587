/* SPDX-License-Identifier: Apache-2.0
 * The rules of a stream read (stream/strm_read.c) on a real edit log, TSO, storage engine, Row
 * Binlog and stream offsets in a temporary directory: effective offsets (advanced, creation,
 * none), creation offsets, the per-partition windows and how each partition is read (changes,
 * whole from records or data, TTL), the read-once set of a statement, and the advances it hands
 * the writer (compare-and-set, E21 / E22). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binlog/binlog.h"
#include "common/arena.h"
#include "common/mem.h"
#include "stor_testutil.h"
#include "stream/stream.h"

/* ---- fixture: stor_testutil's directories and environment, plus a statement arena ---- */

static void
setup(void)
{
    stu_dirs_setup("/tmp/rivulet-strm-XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

TestSuite(strm, .init = setup, .fini = teardown);

typedef struct env {
    stu_env s;
    cat_editlog *log;
    cat_tso *tso;
    stor_engine *eng;
    bl_log *bl;
    strm_state *st;
    arena *a;
} env;

static void
env_open(env *v)
{
    memset(v, 0, sizeof *v);
    stu_env_open(&v->s, STU_ENV_TSO | STU_ENV_BINLOG | STU_ENV_STREAMS, 0);
    v->log = v->s.log;
    v->tso = v->s.tso;
    v->eng = v->s.eng;
    v->bl = v->s.bl;
    v->st = v->s.st;
    v->a = arena_new(0);
}

static void
env_close(env *v)
{
    arena_free(v->a);
    stu_env_close(&v->s);
    memset(v, 0, sizeof *v);
}

/* Base tables: (k BIGINT key, v BIGINT), MoW or Duplicate Key, Row Binlog on or off. */
static stor_column_desc cols[2];

static stor_schema
schema(bool mow, bool binlog)
{
    cols[0] = (stor_column_desc){1, cat_type_make(CAT_T_BIGINT), true, false};
    cols[1] = (stor_column_desc){2, cat_type_make(CAT_T_BIGINT), false, true};
    return (stor_schema){.table_id = 1,
                         .keys = mow ? CAT_KEYS_UNIQUE : CAT_KEYS_DUP,
                         .mow = mow,
                         .ncols = 2,
                         .cols = cols,
                         .nkeys = 1,
                         .seq_col = -1,
                         .delete_sign_col = -1,
                         .binlog_row = binlog,
                         .binlog_history = binlog && mow};
}

/* Put keys [from, to) with v = k * mul into (part, bucket 0) of w. */
static void
put(stor_writer *w, const stor_schema *sc, int64_t part, int64_t from, int64_t to, int64_t mul)
{
    uint32_t n = (uint32_t)(to - from);
    int64_t *k = mem_alloc((n + 1) * sizeof *k), *val = mem_alloc((n + 1) * sizeof *val);
    for (uint32_t i = 0; i < n; i++) {
        k[i] = from + i;
        val[i] = k[i] * mul;
    }
    stor_vec v[2] = {{.kind = STOR_VEC_I64, .n = n, .i64 = k},
                     {.kind = STOR_VEC_I64, .n = n, .i64 = val}};
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(stor_writer_put(w, sc, part, 0, v, n, NULL, &e), DB_OK, "%s", e.msg);
    mem_free(k);
    mem_free(val);
}

static uint64_t
commit(env *v, stor_writer *w)
{
    db_error e;
    db_error_clear(&e);
    uint64_t tso = 0;
    cr_assert_eq(stor_writer_commit(w, v->tso, &tso, &e), DB_OK, "%s", e.msg);
    stor_writer_free(w);
    return tso;
}

/* One commit of keys [from, to) into part; its TSO. */
static uint64_t
commit_rows(env *v, const stor_schema *sc, int64_t part, int64_t from, int64_t to, int64_t mul)
{
    stor_writer *w = stor_writer_new(v->eng);
    put(w, sc, part, from, to, mul);
    return commit(v, w);
}

/* Commit the advances of rs alone (an INSERT ... SELECT whose result was empty): DB_OK or the
 * error in *e. */
static int
consume(env *v, const strm_reads *rs, db_error *e)
{
    stor_writer *w = stor_writer_new(v->eng);
    strm_reads_advance(rs, w, 4242);
    db_error_clear(e);
    uint64_t tso = 0;
    int rc = stor_writer_commit(w, v->tso, &tso, e);
    stor_writer_free(w);
    return rc;
}

enum { STREAM_ID = 1000, P1 = 10, P2 = 11, P3 = 12 };

static const strm_part parts3[3] = {{P1, 1}, {P2, 1}, {P3, 1}};

/* ---- effective offsets and creation offsets ---- */

Test(strm, effective_offset_is_advanced_else_creation_else_none)
{
    env v;
    env_open(&v);
    stor_schema sc = schema(true, true);
    uint64_t t1 = commit_rows(&v, &sc, P1, 0, 10, 1);
    commit_rows(&v, &sc, P2, 0, 5, 1);
    /* creation offsets: the written partitions at their last commit; P3 is empty */
    cat_stream_offset init[3];
    size_t ninit = strm_creation_offsets(v.st, parts3, 3, init);
    cr_assert_eq(ninit, 2);
    cr_assert_eq(init[0].part_id, P1);
    cr_assert_eq(init[0].tso, t1);
    cr_assert_eq(init[1].part_id, P2);
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA, .init = init, .ninit = 1}; /* P1 only */
    uint64_t tso;
    int64_t ms;
    cr_assert_eq(strm_effective_offset(v.st, STREAM_ID, &def, P1, &tso, &ms), STRM_PREV_INIT);
    cr_assert_eq(tso, t1);
    cr_assert_eq(ms, -1);
    cr_assert_eq(strm_effective_offset(v.st, STREAM_ID, &def, P2, &tso, &ms), STRM_PREV_NONE);
    cr_assert_eq(tso, 0);
    /* consume P1 and P2: the advanced offsets win over the creation offset */
    uint64_t t2 = commit_rows(&v, &sc, P1, 10, 20, 1);
    strm_reads *rs = strm_reads_new(v.a);
    strm_read *r =
            strm_reads_add(rs, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    strm_read_use(r, NULL);
    db_error e;
    cr_assert_eq(consume(&v, rs, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(strm_effective_offset(v.st, STREAM_ID, &def, P1, &tso, &ms), STRM_PREV_ADVANCED);
    cr_assert_eq(tso, t2);
    cr_assert_eq(ms, 4242);
    cr_assert_eq(strm_effective_offset(v.st, STREAM_ID, &def, P2, &tso, &ms), STRM_PREV_ADVANCED);
    /* a partition never written gets no offset */
    cr_assert_eq(strm_effective_offset(v.st, STREAM_ID, &def, P3, &tso, &ms), STRM_PREV_NONE);
    /* another stream over the same partitions is unaffected */
    cr_assert_eq(strm_effective_offset(v.st, STREAM_ID + 1, &def, P2, &tso, &ms), STRM_PREV_NONE);
    env_close(&v);
}

/* ---- windows and how each partition is read ---- */

Test(strm, windows_cut_at_the_last_commit_and_plan_per_partition)
{
    env v;
    env_open(&v);
    stor_schema mow = schema(true, true);
    uint64_t t1 = commit_rows(&v, &mow, P1, 0, 10, 1);
    uint64_t t2 = commit_rows(&v, &mow, P1, 5, 15, 2);
    uint64_t t3 = commit_rows(&v, &mow, P2, 0, 3, 1);
    cat_stream_offset init[1] = {{P1, t1}};
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA, .init = init, .ninit = 1};
    strm_read r;
    strm_read_init(&r, v.a, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    cr_assert_eq(r.nparts, 3);
    cr_assert_geq(r.visible, t3);
    cr_assert_eq(r.w[0].prev_kind, STRM_PREV_INIT);
    cr_assert_eq(r.w[0].prev_tso, t1);
    cr_assert_eq(r.w[0].next_tso, t2);
    cr_assert_eq(r.w[1].prev_kind, STRM_PREV_NONE);
    cr_assert_eq(r.w[1].next_tso, t3);
    cr_assert_eq(r.w[2].next_tso, 0); /* never written */
    for (uint32_t p = 0; p < 3; p++) {
        cr_assert_not(r.w[p].on);
    }
    bool only2[3] = {false, true, false};
    strm_read_use(&r, only2);
    cr_assert(!r.w[0].on && r.w[1].on && !r.w[2].on);

    cat_binlog_cfg cfg = cat_binlog_default();
    strm_part_plan plan[3];
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(strm_read_plan(v.st, v.bl, &r, NULL, true, def.type, &cfg, 0, plan, &e), DB_OK);
    /* an offset: its window (offset, next] of the records, in the stream's mode */
    cr_assert_eq(plan[0].src, STRM_SRC_CHANGES);
    cr_assert_eq(plan[0].mode, BL_MODE_MIN_DELTA);
    cr_assert_eq(plan[0].lo, t1 + 1);
    cr_assert_eq(plan[0].hi, t2);
    /* no offset, MoW, rowsets all their commits' own: whole from its data */
    cr_assert_eq(plan[1].src, STRM_SRC_WHOLE_DATA);
    cr_assert_eq(plan[1].hi, t3);
    cr_assert_eq(plan[2].src, STRM_SRC_NONE);
    /* a PARTITION restriction leaves the others out */
    cr_assert_eq(strm_read_plan(v.st, v.bl, &r, only2, true, CAT_STREAM_DETAIL, &cfg, 0, plan, &e),
                 DB_OK);
    cr_assert_eq(plan[0].src, STRM_SRC_NONE);
    cr_assert_eq(plan[1].src, STRM_SRC_WHOLE_DATA);
    env_close(&v);
}

Test(strm, dup_partitions_read_whole_from_records_when_complete_else_from_data)
{
    env v;
    env_open(&v);
    stor_schema dup = schema(false, true), nobl = schema(false, false);
    uint64_t t1 = commit_rows(&v, &dup, P1, 0, 10, 1);
    uint64_t t2 = commit_rows(&v, &nobl, P2, 0, 10, 1); /* written while Row Binlog was off */
    uint64_t t3 = commit_rows(&v, &dup, P3, 0, 10, 1);
    uint64_t t4 = commit_rows(&v, &dup, P3, 10, 20, 1);
    cat_stream_offset init[1] = {{P3, t3}};
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA, .init = init, .ninit = 1};
    strm_read r;
    strm_read_init(&r, v.a, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    cat_binlog_cfg cfg = cat_binlog_default();
    strm_part_plan plan[3];
    db_error e;
    db_error_clear(&e);
    cr_assert_eq(strm_read_plan(v.st, v.bl, &r, NULL, false, def.type, &cfg, 0, plan, &e), DB_OK);
    cr_assert_eq(plan[0].src, STRM_SRC_WHOLE_RECORDS);
    cr_assert_eq(plan[0].mode, BL_MODE_APPEND_ONLY);
    cr_assert_eq(plan[0].lo, 0);
    cr_assert_eq(plan[0].hi, t1);
    cr_assert_eq(plan[1].src, STRM_SRC_WHOLE_DATA); /* records incomplete */
    cr_assert_eq(plan[1].hi, t2);
    /* Duplicate Key: APPEND_ONLY whatever the stream's type */
    cr_assert_eq(plan[2].src, STRM_SRC_CHANGES);
    cr_assert_eq(plan[2].mode, BL_MODE_APPEND_ONLY);
    cr_assert_eq(plan[2].lo, t3 + 1);
    cr_assert_eq(plan[2].hi, t4);
    cr_assert_eq(strm_fold_mode(CAT_STREAM_DETAIL, false), BL_MODE_APPEND_ONLY);
    cr_assert_eq(strm_fold_mode(CAT_STREAM_DETAIL, true), BL_MODE_DETAIL);
    cr_assert_eq(strm_fold_mode(CAT_STREAM_APPEND_ONLY, true), BL_MODE_APPEND_ONLY);
    cr_assert_eq(strm_fold_mode(CAT_STREAM_MIN_DELTA, true), BL_MODE_MIN_DELTA);
    /* SHOW STREAM STATUS's pending records: 10 in (t3, t4] of P3, 10 of P1 from the start */
    cr_assert_eq(strm_window_pending(v.bl, &r.w[2]), 10);
    cr_assert_eq(strm_window_pending(v.bl, &r.w[0]), 10);
    env_close(&v);
}

Test(strm, ttl_expired_min_delta_offset_fails_detail_skips_what_expired)
{
    env v;
    env_open(&v);
    stor_schema mow = schema(true, true);
    uint64_t t1 = commit_rows(&v, &mow, P1, 0, 10, 1);
    uint64_t t2 = commit_rows(&v, &mow, P1, 0, 10, 2);
    commit_rows(&v, &mow, P2, 0, 10, 1);
    cat_stream_offset init[2] = {{P1, t1}, {P2, 0}};
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA, .init = init, .ninit = 1};
    strm_read r;
    strm_read_init(&r, v.a, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    cat_binlog_cfg cfg = cat_binlog_default();
    cfg.ttl_seconds = 60;
    uint64_t now_ms = cat_tso_physical(t2) + 3600 * 1000; /* both commits an hour past the TTL */
    uint64_t horizon = bl_ttl_horizon(now_ms, cfg.ttl_seconds);
    cr_assert_gt(horizon, t2);
    strm_part_plan plan[3];
    db_error e;
    db_error_clear(&e);
    cr_assert(strm_offset_expired(v.st, P1, 1, t1, horizon));
    cr_assert_not(strm_offset_expired(v.st, P1, 1, t2, horizon)); /* nothing after it */
    cr_assert_not(strm_offset_expired(v.st, P1, 1, t1, t1));      /* offset at the horizon */
    cr_assert_eq(strm_read_plan(v.st, v.bl, &r, NULL, true, CAT_STREAM_MIN_DELTA, &cfg, now_ms,
                                plan, &e),
                 DB_ERR);
    cr_assert_eq(e.code, 1105);
    cr_assert(strstr(e.msg, "Row binlog offset has expired according to binlog.ttl_seconds") !=
                      NULL,
              "%s", e.msg);
    db_error_clear(&e);
    cr_assert_eq(
            strm_read_plan(v.st, v.bl, &r, NULL, true, CAT_STREAM_DETAIL, &cfg, now_ms, plan, &e),
            DB_OK, "%s", e.msg);
    cr_assert_eq(plan[0].src, STRM_SRC_CHANGES);
    cr_assert_eq(plan[0].lo, horizon + 1);
    cr_assert_eq(plan[0].hi, t2);
    /* staleness as information_schema.table_streams shows it, on catalog objects */
    cat_partition bparts[1] = {{.id = P1, .buckets = 1}};
    cat_table base = {.id = 1, .mow = true, .nparts = 1, .parts = bparts};
    base.binlog = cfg;
    cat_table st = {.id = STREAM_ID, .stream = &def};
    cr_assert(strm_ttl_stale(v.st, &st, &base, now_ms));
    cr_assert_not(strm_ttl_stale(v.st, &st, &base, cat_tso_physical(t1)));
    def.type = CAT_STREAM_DETAIL; /* only min_delta streams go stale */
    cr_assert_not(strm_ttl_stale(v.st, &st, &base, now_ms));
    env_close(&v);
}

/* ---- the read-once set ---- */

Test(strm, read_once_set_keeps_the_first_window_per_stream_and_kind)
{
    env v;
    env_open(&v);
    stor_schema mow = schema(true, true);
    uint64_t t1 = commit_rows(&v, &mow, P1, 0, 10, 1);
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA};
    strm_reads *rs = strm_reads_new(v.a);
    cr_assert_null(strm_reads_find(rs, STREAM_ID, STRM_READ_CHANGES));
    strm_read *a =
            strm_reads_add(rs, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    bool only1[3] = {true, false, false};
    strm_read_use(a, only1);
    commit_rows(&v, &mow, P1, 10, 20, 1); /* a commit between two references of one statement */
    strm_read *b =
            strm_reads_add(rs, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    cr_assert_eq(a, b);
    cr_assert_eq(b->w[0].next_tso, t1); /* the first reference's window */
    bool only2[3] = {false, true, false};
    strm_read_use(b, only2); /* the union of the references' partitions */
    cr_assert(a->w[0].on && a->w[1].on && !a->w[2].on);
    cr_assert_eq(strm_reads_find(rs, STREAM_ID, STRM_READ_CHANGES), a);
    /* other kinds and other streams are reads of their own, and pointers stay put as it grows */
    strm_read *snap =
            strm_reads_add(rs, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_SNAPSHOT, parts3, 3);
    cr_assert_neq(snap, a);
    cr_assert_gt(snap->w[0].next_tso, t1);
    for (int64_t i = 1; i <= 10; i++) {
        strm_reads_add(rs, v.st, STREAM_ID + i, &def, "db1", "sx", STRM_READ_CHANGES, parts3, 3);
    }
    cr_assert_eq(strm_reads_find(rs, STREAM_ID, STRM_READ_CHANGES), a);
    cr_assert_eq(strm_reads_find(rs, STREAM_ID, STRM_READ_SNAPSHOT), snap);
    cr_assert_str_eq(a->db, "db1");
    cr_assert_str_eq(a->name, "s1");
    env_close(&v);
}

/* ---- advances: compare-and-set, E21 / E22 ---- */

Test(strm, advance_moves_read_partitions_and_a_lost_race_is_e21)
{
    env v;
    env_open(&v);
    stor_schema mow = schema(true, true);
    uint64_t t1 = commit_rows(&v, &mow, P1, 0, 10, 1);
    uint64_t t2 = commit_rows(&v, &mow, P2, 0, 10, 1);
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA};
    /* two statements read the same windows; a third only takes a snapshot */
    strm_reads *x = strm_reads_new(v.a), *y = strm_reads_new(v.a), *z = strm_reads_new(v.a);
    bool only1[3] = {true, false, false};
    strm_read_use(
            strm_reads_add(x, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3),
            only1);
    strm_read_use(strm_reads_add(y, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_RESET, parts3, 3),
                  NULL);
    strm_read_use(
            strm_reads_add(z, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_SNAPSHOT, parts3, 3),
            NULL);
    db_error e;
    uint64_t tso;
    int64_t ms;
    cr_assert_eq(consume(&v, z, &e), DB_OK, "%s", e.msg); /* @snapshot() never advances */
    cr_assert_not(strm_offset(v.st, STREAM_ID, P1, &tso, &ms));
    cr_assert_eq(consume(&v, x, &e), DB_OK, "%s", e.msg);
    cr_assert(strm_offset(v.st, STREAM_ID, P1, &tso, &ms));
    cr_assert_eq(tso, t1);
    cr_assert_not(strm_offset(v.st, STREAM_ID, P2, &tso, &ms)); /* not read by x */
    cr_assert_not(strm_offset(v.st, STREAM_ID, P3, &tso, &ms)); /* never written */
    /* y read P1 without an offset too: it lost the race on P1, nothing of it is applied */
    cr_assert_eq(consume(&v, y, &e), DB_ERR);
    cr_assert_eq(e.code, 1105);
    char want[128];
    snprintf(want, sizeof want, "target offset already consumed: db1-s1-%d-%llu vs %llu", P1,
             (unsigned long long)t1, (unsigned long long)t1);
    cr_assert(strstr(e.msg, want) != NULL, "%s", e.msg);
    cr_assert_not(strm_offset(v.st, STREAM_ID, P2, &tso, &ms));
    /* a statement reading now sees x's offset and advances from it */
    uint64_t t3 = commit_rows(&v, &mow, P1, 10, 20, 1);
    strm_reads *w = strm_reads_new(v.a);
    strm_read *r =
            strm_reads_add(w, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts3, 3);
    strm_read_use(r, NULL);
    cr_assert_eq(r->w[0].prev_kind, STRM_PREV_ADVANCED);
    cr_assert_eq(r->w[0].prev_tso, t1);
    cr_assert_eq(consume(&v, w, &e), DB_OK, "%s", e.msg);
    cr_assert(strm_offset(v.st, STREAM_ID, P1, &tso, &ms));
    cr_assert_eq(tso, t3);
    cr_assert(strm_offset(v.st, STREAM_ID, P2, &tso, &ms));
    cr_assert_eq(tso, t2);
    /* the same statement committing again holds a stale advanced offset: E21 */
    cr_assert_eq(consume(&v, w, &e), DB_ERR);
    snprintf(want, sizeof want, "target offset already consumed: db1-s1-%d-%llu vs %llu", P1,
             (unsigned long long)t3, (unsigned long long)t3);
    cr_assert(strstr(e.msg, want) != NULL, "%s", e.msg);
    env_close(&v);
}

Test(strm, lost_race_on_initial_rows_is_e22_only_for_partitions_older_than_the_stream)
{
    env v;
    env_open(&v);
    stor_schema mow = schema(true, true);
    uint64_t t1 = commit_rows(&v, &mow, P1, 0, 10, 1);
    /* show_initial_rows: P1 (id below the stream's) is initial rows; P5000 came later */
    cat_stream def = {.type = CAT_STREAM_MIN_DELTA, .show_initial_rows = true};
    enum { LATER = STREAM_ID + 5 };
    uint64_t t2 = commit_rows(&v, &mow, LATER, 0, 10, 1);
    strm_part parts[2] = {{P1, 1}, {LATER, 1}};
    strm_reads *x = strm_reads_new(v.a), *y = strm_reads_new(v.a), *z = strm_reads_new(v.a);
    bool first[2] = {true, false}, second[2] = {false, true};
    strm_read_use(
            strm_reads_add(x, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts, 2),
            NULL);
    strm_read_use(
            strm_reads_add(y, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts, 2),
            first);
    strm_read_use(
            strm_reads_add(z, v.st, STREAM_ID, &def, "db1", "s1", STRM_READ_CHANGES, parts, 2),
            second);
    db_error e;
    cr_assert_eq(consume(&v, x, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(consume(&v, y, &e), DB_ERR);
    char want[128];
    snprintf(want, sizeof want, "history offset already consumed: db1-s1-%d-%llu vs %llu", P1,
             (unsigned long long)t1, (unsigned long long)t1);
    cr_assert(strstr(e.msg, want) != NULL, "%s", e.msg);
    cr_assert_eq(consume(&v, z, &e), DB_ERR);
    snprintf(want, sizeof want, "target offset already consumed: db1-s1-%d-%llu vs %llu", LATER,
             (unsigned long long)t2, (unsigned long long)t2);
    cr_assert(strstr(e.msg, want) != NULL, "%s", e.msg);
    /* the advances survive a restart (replayed from the commit records) */
    env_close(&v);
    env_open(&v);
    uint64_t tso;
    int64_t ms;
    cr_assert(strm_offset(v.st, STREAM_ID, P1, &tso, &ms));
    cr_assert_eq(tso, t1);
    cr_assert(strm_offset(v.st, STREAM_ID, LATER, &tso, &ms));
    cr_assert_eq(tso, t2);
    env_close(&v);
}

/* ---- creation ---- */

Test(strm, base_must_be_a_row_binlog_table_and_min_delta_needs_before_images)
{
    db_error e;
    cat_table t = {.id = 1, .name = (char *)"t1", .mow = true};
    t.binlog = cat_binlog_default();
    db_error_clear(&e);
    cr_assert_eq(strm_check_base(&t, CAT_STREAM_DETAIL, &e), DB_ERR);
    cr_assert_str_eq(e.msg,
                     "errCode = 2, detailMessage = Base Olap table t1 need to enable row binlog "
                     "for table stream");
    t.binlog.enable = true;
    t.binlog.format = CAT_BINLOG_ROW;
    cr_assert(cat_binlog_is_row(&t.binlog));
    db_error_clear(&e);
    cr_assert_eq(strm_check_base(&t, CAT_STREAM_DETAIL, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(strm_check_base(&t, CAT_STREAM_MIN_DELTA, &e), DB_ERR);
    cr_assert(strstr(e.msg, "MIN_DELTA table stream requires base mow table to enable "
                            "binlog.need_historical_value=true") != NULL,
              "%s", e.msg);
    t.binlog.need_historical_value = true;
    db_error_clear(&e);
    cr_assert_eq(strm_check_base(&t, CAT_STREAM_MIN_DELTA, &e), DB_OK, "%s", e.msg);
    t.view_sql = (char *)"select 1";
    cr_assert_eq(strm_check_base(&t, CAT_STREAM_APPEND_ONLY, &e), DB_ERR);
    cr_assert(strstr(e.msg, "Base table type: VIEW, StreamScanType: APPEND_ONLY is not supported "
                            "for create table stream") != NULL,
              "%s", e.msg);
}
