/* SPDX-License-Identifier: Apache-2.0
 * stor_rcache: the pool of open segment readers. Reuse (a released reader is handed out again
 * without opening the file), exclusivity (two holders never share a reader), the idle limit,
 * forget before deletion, and 4 threads acquiring, reading and releasing concurrently. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/db_error.h"
#include "storage/storage.h"

#include "stor_testutil.h"

#define ROWS 5000

static char dir[64];

/* Write a one-column BIGINT segment holding base, base + 1, ... at dir/name. */
static void
write_segment(const char *name, int64_t base, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, name);
    stor_segment_opts o = {.page_bytes = 4096, .no_fsync = true};
    stu_i64_segment_write(path, ROWS, base, &o);
}

static void
setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rv_rcache_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void
teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The value at row `row` read through r. */
static int64_t
value_at(stor_segment_reader *r, uint64_t row)
{
    arena *a = arena_new(0);
    stor_vec v;
    db_error err;
    cr_assert_eq(stor_segment_read_rows(r, 0, row, row + 1, a, &v, &err), DB_OK, "%s", err.msg);
    int64_t x = v.i64[0];
    arena_free(a);
    return x;
}

TestSuite(stor_rcache, .init = setup, .fini = teardown);

Test(stor_rcache, reuse_exclusive_limit_forget)
{
    char p1[128], p2[128];
    write_segment("a.dat", 0, p1, sizeof p1);
    write_segment("b.dat", 100000, p2, sizeof p2);
    stor_rcache *rc = stor_rcache_new(1);
    db_error err;
    uint64_t hits, opens;
    size_t idle;

    stor_segment_reader *r1 = stor_rcache_acquire(rc, p1, NULL, &err);
    cr_assert_not_null(r1, "%s", err.msg);
    /* Held readers are exclusive: a second holder of the same file gets another reader. */
    stor_segment_reader *r2 = stor_rcache_acquire(rc, p1, NULL, &err);
    cr_assert_not_null(r2);
    cr_assert_neq(r1, r2);
    cr_assert_eq(value_at(r2, 42), 42);
    stor_rcache_release(rc, p1, r1);
    stor_rcache_stats(rc, &hits, &opens, &idle);
    cr_assert_eq(hits, 0);
    cr_assert_eq(opens, 2);
    cr_assert_eq(idle, 1);
    /* Beyond the limit of one idle reader the least recently released one is closed. */
    stor_rcache_release(rc, p1, r2);
    stor_rcache_stats(rc, &hits, &opens, &idle);
    cr_assert_eq(idle, 1);
    /* Reuse: no open, and the reader still reads the file. */
    stor_segment_reader *r3 = stor_rcache_acquire(rc, p1, NULL, &err);
    cr_assert_eq(r3, r2);
    stor_rcache_stats(rc, &hits, &opens, &idle);
    cr_assert_eq(hits, 1);
    cr_assert_eq(opens, 2);
    cr_assert_eq(idle, 0);
    cr_assert_eq(value_at(r3, 4999), 4999);
    stor_rcache_release(rc, p1, r3);
    /* Another file never gets p1's reader. */
    stor_segment_reader *r4 = stor_rcache_acquire(rc, p2, NULL, &err);
    cr_assert_neq(r4, r3);
    cr_assert_eq(value_at(r4, 0), 100000);
    stor_rcache_release(rc, p2, r4);
    /* forget closes the idle readers of a file: the next acquire opens it again. */
    stor_rcache_forget(rc, p2);
    stor_rcache_stats(rc, &hits, &opens, &idle);
    uint64_t opens_before = opens;
    cr_assert_eq(idle, 0);
    stor_segment_reader *r5 = stor_rcache_acquire(rc, p2, NULL, &err);
    stor_rcache_stats(rc, &hits, &opens, &idle);
    cr_assert_eq(opens, opens_before + 1);
    stor_rcache_release(rc, p2, r5);
    /* A missing file is the reader's own error. */
    char missing[160];
    snprintf(missing, sizeof missing, "%s/nope.dat", dir);
    cr_assert_null(stor_rcache_acquire(rc, missing, NULL, &err));
    cr_assert_neq(err.code, 0);
    stor_rcache_free(rc);
}

typedef struct worker {
    stor_rcache *rc;
    const char *paths[2];
    int bad;
} worker;

static void *
work(void *arg)
{
    worker *w = arg;
    unsigned seed = (unsigned)(uintptr_t)arg;
    for (int i = 0; i < 300; i++) {
        int f = (int)(rand_r(&seed) % 2);
        uint64_t row = rand_r(&seed) % ROWS;
        db_error err;
        stor_segment_reader *r = stor_rcache_acquire(w->rc, w->paths[f], NULL, &err);
        if (r == NULL) {
            w->bad++;
            continue;
        }
        arena *a = arena_new(0);
        stor_vec v;
        if (stor_segment_read_rows(r, 0, row, row + 1, a, &v, &err) != DB_OK ||
            v.i64[0] != (f ? 100000 : 0) + (int64_t)row) {
            w->bad++;
        }
        arena_free(a);
        stor_rcache_release(w->rc, w->paths[f], r);
    }
    return NULL;
}

Test(stor_rcache, four_threads)
{
    char p1[128], p2[128];
    write_segment("a.dat", 0, p1, sizeof p1);
    write_segment("b.dat", 100000, p2, sizeof p2);
    stor_rcache *rc = stor_rcache_new(3);
    pthread_t th[4];
    worker ws[4];
    for (int i = 0; i < 4; i++) {
        ws[i] = (worker){rc, {p1, p2}, 0};
        pthread_create(&th[i], NULL, work, &ws[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        cr_assert_eq(ws[i].bad, 0);
    }
    uint64_t hits, opens;
    size_t idle;
    stor_rcache_stats(rc, &hits, &opens, &idle);
    cr_assert_eq(hits + opens, 1200);
    cr_assert_gt(hits, 600); /* most acquisitions reuse a pooled reader */
    cr_assert_leq(idle, 3);
    stor_rcache_free(rc);
}
