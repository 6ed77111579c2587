/* SPDX-License-Identifier: Apache-2.0
 * Stream offsets (stream/strm_offsets.c) driven through storage commits that carry
 * STRM_EXTRA_ADVANCE sections: the compare-and-set and the text of a lost race (E21 target,
 * E22 history only for initial rows), apply, replay. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/buf.h"
#include "stor_testutil.h"
#include "stream/stream.h"

static void
setup(void)
{
    stu_dirs_setup("/tmp/rivulet-stream-XXXXXX");
}

static void
teardown(void)
{
    stu_dirs_teardown();
}

TestSuite(stream, .init = setup, .fini = teardown);

/* Commit one advance of stream 50000, partition 40000 at tso; DB_OK or the error in *e. */
static int
advance(stu_env *v, uint8_t prev_kind, uint64_t prev, uint64_t next, uint64_t tso, db_error *e)
{
    strm_advance adv = {50000, 40000, prev_kind, prev, next};
    buf sec;
    buf_init(&sec);
    strm_encode_advance(&sec, "db1", "s1", 1234, &adv, 1);
    stor_txn *txn = stor_txn_new(tso);
    stor_txn_add_extra(txn, STRM_EXTRA_ADVANCE, sec.data, sec.len);
    buf_destroy(&sec);
    db_error_clear(e);
    int rc = stor_txn_commit(v->eng, txn, tso, e);
    stor_txn_free(txn);
    return rc;
}

Test(stream, lost_race_is_target_and_history_only_for_initial_rows)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_STREAMS, 0);
    db_error e;
    uint64_t tso;
    int64_t ms;
    cr_assert_not(strm_offset(v.st, 50000, 40000, &tso, &ms));
    /* the first consumer of a partition without an offset wins */
    cr_assert_eq(advance(&v, STRM_PREV_NONE, 0, 100, 1000, &e), DB_OK, "%s", e.msg);
    cr_assert(strm_offset(v.st, 50000, 40000, &tso, &ms));
    cr_assert_eq(tso, 100);
    cr_assert_eq(ms, 1234);
    /* a second one that read the partition without an offset (a new partition, a stream
     * created on an empty table) loses with E21 */
    cr_assert_eq(advance(&v, STRM_PREV_NONE, 0, 100, 1001, &e), DB_ERR);
    cr_assert_eq(e.code, 1105);
    cr_assert(strstr(e.msg, "target offset already consumed: db1-s1-40000-100 vs 100") != NULL,
              "%s", e.msg);
    /* one that read it from a creation offset: E21 */
    cr_assert_eq(advance(&v, STRM_PREV_INIT, 50, 100, 1002, &e), DB_ERR);
    cr_assert(strstr(e.msg, "target offset already consumed: db1-s1-40000-100 vs 100") != NULL,
              "%s", e.msg);
    /* one that read the initial rows of a show_initial_rows stream: E22 */
    cr_assert_eq(advance(&v, STRM_PREV_INITIAL_ROWS, 0, 100, 1003, &e), DB_ERR);
    cr_assert(strstr(e.msg, "history offset already consumed: db1-s1-40000-100 vs 100") != NULL,
              "%s", e.msg);
    /* a stale advanced offset: E21 */
    cr_assert_eq(advance(&v, STRM_PREV_ADVANCED, 100, 200, 1004, &e), DB_OK, "%s", e.msg);
    cr_assert_eq(advance(&v, STRM_PREV_ADVANCED, 100, 300, 1005, &e), DB_ERR);
    cr_assert(strstr(e.msg, "target offset already consumed: db1-s1-40000-300 vs 200") != NULL,
              "%s", e.msg);
    /* restart: the replay applies the committed advances only */
    stu_env_close(&v);
    stu_env_open(&v, STU_ENV_STREAMS, 0);
    cr_assert(strm_offset(v.st, 50000, 40000, &tso, &ms));
    cr_assert_eq(tso, 200);
    stu_env_close(&v);
}

Test(stream, initial_rows_section_applies_and_replays)
{
    stu_env v;
    stu_env_open(&v, STU_ENV_STREAMS, 0);
    db_error e;
    cr_assert_eq(advance(&v, STRM_PREV_INITIAL_ROWS, 0, 70, 1000, &e), DB_OK, "%s", e.msg);
    stu_env_close(&v);
    stu_env_open(&v, STU_ENV_STREAMS, 0);
    uint64_t tso;
    int64_t ms;
    cr_assert(strm_offset(v.st, 50000, 40000, &tso, &ms));
    cr_assert_eq(tso, 70);
    stu_env_close(&v);
}
