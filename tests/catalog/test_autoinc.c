/* SPDX-License-Identifier: Apache-2.0
 * test_autoinc.c: the durable AUTO_INCREMENT counters of cat_meta (CAT_REC_AUTOINC and the
 * "auto increment" image section). Values are consecutive within a run, start at the column's
 * AUTO_INCREMENT(n), never repeat after a reopen from the log, from an image or from a crash
 * copy of the directory, and explicit values raise the counter durably. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "tests/catalog/cat_schema_test.h"
#include "tests/catalog/cat_testutil.h"

static cat_meta *
open_dir(const char *dir)
{
    db_error err = {0};
    cat_meta *m = cat_meta_open(dir, NULL, &err);
    cr_assert_not_null(m, "open: %s", err.msg);
    return m;
}

/* db.t (id BIGINT NOT NULL AUTO_INCREMENT(start), v INT) UNIQUE KEY(id); returns its id. */
static int64_t
make_table(cat_meta *m, const char *name, int64_t start)
{
    db_error err = {0};
    (void)cat_meta_create_db(m, "d", true, NULL, &err);
    tb b;
    tb_init(&b, "d", name);
    cat_column_def *c = tb_col(&b, "id", cat_type_make(CAT_T_BIGINT));
    c->auto_inc = true;
    c->auto_inc_start = start;
    c->null_given = true;
    tb_col(&b, "v", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_UNIQUE, "id", NULL);
    tb_hash(&b, "id", 1);
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
    const cat_catalog *cat = cat_meta_read_begin(m);
    int64_t id = cat_table_find(cat_db_find(cat, "d"), name)->id;
    cat_meta_read_end(m);
    return id;
}

static int64_t
next1(cat_meta *m, int64_t tid)
{
    db_error err = {0};
    int64_t v = 0;
    cr_assert_eq(cat_meta_autoinc_next(m, tid, 1, &v, &err), DB_OK, "%s", err.msg);
    return v;
}

/* Copies every file of tu_dir into a fresh directory, as a crash would leave them (the log is
 * durable on return from each append). Returns the copy's path (static). */
static const char *
crash_copy(void)
{
    static char dir[96];
    snprintf(dir, sizeof dir, "%s/crash", tu_dir);
    cr_assert_eq(mkdir(dir, 0700), 0);
    char names[64][64];
    size_t n = tu_list(tu_dir, "editlog.", names, 64);
    for (size_t i = 0; i < n; i++) {
        char to[192];
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        tu_copy_file(tu_path(names[i]), to);
    }
    n = tu_list(tu_dir, "image.", names, 64);
    for (size_t i = 0; i < n; i++) {
        char to[192];
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        tu_copy_file(tu_path(names[i]), to);
    }
    return dir;
}

TestSuite(cat_autoinc, .init = tu_setup, .fini = tu_teardown);

Test(cat_autoinc, consecutive_from_the_column_start)
{
    cat_meta *m = open_dir(tu_dir);
    int64_t t1 = make_table(m, "t1", 1);
    int64_t t2 = make_table(m, "t2", 100);
    cr_assert_eq(cat_meta_autoinc_peek(m, t1), 0);
    for (int64_t i = 1; i <= 2500; i++) { /* crosses two reservations */
        cr_assert_eq(next1(m, t1), i);
    }
    cr_assert_eq(next1(m, t2), 100);
    cr_assert_eq(next1(m, t2), 101);
    db_error err = {0};
    int64_t first = 0;
    cr_assert_eq(cat_meta_autoinc_next(m, t2, 5000, &first, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(first, 102);
    cr_assert_eq(next1(m, t2), 5102);
    cr_assert_eq(cat_meta_autoinc_peek(m, t1), 2501);
    cat_meta_close(m, false);
}

Test(cat_autoinc, never_repeats_after_reopen_from_log_and_image)
{
    cat_meta *m = open_dir(tu_dir);
    int64_t t = make_table(m, "t", 1);
    int64_t last = 0;
    for (int i = 0; i < 10; i++) {
        last = next1(m, t);
    }
    cat_meta_close(m, false);

    m = open_dir(tu_dir); /* replays CAT_REC_AUTOINC */
    int64_t v = next1(m, t);
    cr_assert_gt(v, last);
    cr_assert_eq(v, CAT_AUTOINC_BATCH + 1, "resumes above the reservation: %lld", (long long)v);
    last = v;
    cat_meta_close(m, true); /* image */

    m = open_dir(tu_dir);
    v = next1(m, t);
    cr_assert_gt(v, last);
    cat_meta_close(m, false);
}

Test(cat_autoinc, never_repeats_after_a_crash)
{
    cat_meta *m = open_dir(tu_dir);
    int64_t t = make_table(m, "t", 1);
    int64_t last = 0;
    for (int i = 0; i < 1500; i++) {
        last = next1(m, t);
    }
    const char *copy = crash_copy(); /* m is still open: nothing was closed or checkpointed */
    cat_meta *c = open_dir(copy);
    int64_t v = next1(c, t);
    cr_assert_gt(v, last);
    cat_meta_close(c, false);
    cat_meta_close(m, false);
}

Test(cat_autoinc, explicit_values_raise_the_counter_durably)
{
    cat_meta *m = open_dir(tu_dir);
    int64_t t = make_table(m, "t", 1);
    db_error err = {0};
    cr_assert_eq(next1(m, t), 1);
    cr_assert_eq(cat_meta_autoinc_raise(m, t, 5, &err), DB_OK);
    cr_assert_eq(next1(m, t), 6);
    cr_assert_eq(cat_meta_autoinc_raise(m, t, 3, &err), DB_OK); /* below: no change */
    cr_assert_eq(next1(m, t), 7);
    cr_assert_eq(cat_meta_autoinc_raise(m, t, 1000000, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(next1(m, t), 1000001);
    cat_meta_close(m, false);

    m = open_dir(tu_dir);
    cr_assert_gt(next1(m, t), 1000001);
    /* A table that never generated a value: an explicit value alone is remembered too. */
    int64_t u = make_table(m, "u", 1);
    cr_assert_eq(cat_meta_autoinc_raise(m, u, 42, &err), DB_OK);
    cat_meta_close(m, true);
    m = open_dir(tu_dir);
    cr_assert_gt(next1(m, u), 42);
    cat_meta_close(m, false);
}

typedef struct worker {
    cat_meta *m;
    int64_t t;
    int64_t got[5000];
} worker;

static void *
run_worker(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < 5000; i++) {
        db_error err = {0};
        if (cat_meta_autoinc_next(w->m, w->t, 1, &w->got[i], &err) != DB_OK) {
            w->got[i] = -1;
        }
    }
    return NULL;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

Test(cat_autoinc, threads_get_unique_values)
{
    cat_meta *m = open_dir(tu_dir);
    int64_t t = make_table(m, "t", 1);
    worker *w = mem_calloc(4, sizeof *w);
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        w[i].m = m;
        w[i].t = t;
        pthread_create(&th[i], NULL, run_worker, &w[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
    }
    int64_t *all = mem_calloc(20000, sizeof *all);
    for (int i = 0; i < 4; i++) {
        memcpy(all + i * 5000, w[i].got, sizeof w[i].got);
    }
    qsort(all, 20000, sizeof *all, cmp_i64);
    for (int i = 0; i < 20000; i++) {
        cr_assert_eq(all[i], i + 1, "value %d is %lld", i, (long long)all[i]);
    }
    mem_free(all);
    mem_free(w);
    cat_meta_close(m, false);
}

Test(cat_autoinc, dropped_tables_leave_the_image)
{
    cat_meta *m = open_dir(tu_dir);
    int64_t t = make_table(m, "t", 1);
    int64_t u = make_table(m, "u", 1);
    cr_assert_eq(next1(m, t), 1);
    cr_assert_eq(next1(m, u), 1);
    db_error err = {0};
    cr_assert_eq(cat_meta_drop_table(m, "d", "u", false, &err), DB_OK, "%s", err.msg);
    cat_meta_close(m, true); /* image without u's counter */
    m = open_dir(tu_dir);
    cr_assert_eq(cat_meta_autoinc_peek(m, u), 0);
    cr_assert_eq(cat_meta_autoinc_peek(m, t), CAT_AUTOINC_BATCH + 1);
    cat_meta_close(m, false);
}
