/* SPDX-License-Identifier: Apache-2.0
 * test_meta.c: the durable catalog (cat_meta). Every DDL survives close/reopen (replay from the
 * log) and checkpoint/reopen (replay from the image), ids are never reused after a restart, and
 * a failed statement leaves nothing behind. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "tests/catalog/cat_schema_test.h"
#include "tests/catalog/cat_testutil.h"

/* SHOW CREATE of every database and table, concatenated: the observable catalog. */
static char *
dump(cat_meta *m)
{
    buf out;
    buf_init(&out);
    const cat_catalog *c = cat_meta_read_begin(m);
    for (size_t i = 0; i < cat_db_count(c); i++) {
        cat_db *db = cat_db_at(c, i);
        if (db->is_system) {
            continue;
        }
        cat_show_create_database(db, &out);
        buf_append_str(&out, "\n");
        for (size_t j = 0; j < db->ntables; j++) {
            buf_printf(&out, "[id %lld]\n", (long long)db->tables[j]->id);
            cat_show_create_table(db->tables[j], &out);
            buf_append_str(&out, "\n");
        }
    }
    cat_meta_read_end(m);
    buf_put_u8(&out, 0);
    return (char *)out.data;
}

static cat_meta *
open_meta(void)
{
    db_error err = {0};
    cat_meta *m = cat_meta_open(tu_dir, NULL, &err);
    cr_assert_not_null(m, "open: %s", err.msg);
    return m;
}

static void
make_table(cat_meta *m, const char *db, const char *name, bool binlog)
{
    tb b;
    tb_init(&b, db, name);
    tb_col(&b, "k", cat_type_make(CAT_T_BIGINT));
    tb_col(&b, "v", cat_type_varchar(20));
    tb_keys(&b, CAT_KEYS_UNIQUE, "k", NULL);
    tb_hash(&b, "k", 4);
    if (binlog) {
        tb_prop(&b, "binlog.enable", "true");
        tb_prop(&b, "binlog.format", "ROW");
        tb_prop(&b, "binlog.ttl_seconds", "3600");
    }
    db_error err = {0};
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
}

static int
add_column(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    cat_column_def d;
    memset(&d, 0, sizeof d);
    d.name = arg;
    d.type = cat_type_make(CAT_T_INT);
    d.auto_inc_start = 1;
    return cat_table_add_column(t, &d, NULL, false, err);
}

static int
rename_to(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    return cat_table_rename(db, t, arg, err);
}

static int
fail_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    cat_table_set_comment(t, "must not stick");
    return db_error_set(err, ER_DORIS, "refused");
}

TestSuite(cat_meta, .init = tu_setup, .fini = tu_teardown);

Test(cat_meta, ddl_survives_reopen_from_log_and_from_image)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d1", false, NULL, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_create_db(m, "d2", false, NULL, &err), DB_OK);
    make_table(m, "d1", "t1", true);
    make_table(m, "d1", "t2", false);
    make_table(m, "d2", "t1", false);
    cr_assert_eq(cat_meta_alter_table(m, "d1", "t2", add_column, "c9", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_alter_table(m, "d2", "t1", rename_to, "renamed", &err), DB_OK);
    cr_assert_eq(cat_meta_drop_table(m, "d1", "t1", false, &err), DB_OK);
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "binlog.ttl_seconds", "77");
    cr_assert_eq(cat_meta_alter_db(m, "d2", &p, &err), DB_OK, "%s", err.msg);
    cat_props_destroy(&p);
    char *before = dump(m);
    cr_assert(strstr(before, "c9") != NULL);
    cr_assert(strstr(before, "renamed") != NULL);
    cat_meta_close(m, false);

    m = open_meta(); /* replays the log */
    char *after = dump(m);
    cr_assert_str_eq(after, before);
    cat_meta_close(m, true); /* writes an image */
    mem_free(after);

    m = open_meta(); /* loads the image */
    after = dump(m);
    cr_assert_str_eq(after, before);
    cat_meta_close(m, false);
    mem_free(after);
    mem_free(before);
}

Test(cat_meta, ids_are_not_reused_after_restart)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_table(m, "d", "a", false);
    const cat_catalog *c = cat_meta_read_begin(m);
    int64_t first = cat_table_find(cat_db_find(c, "d"), "a")->id;
    cat_meta_read_end(m);
    cr_assert_eq(cat_meta_drop_table(m, "d", "a", false, &err), DB_OK);
    cat_meta_close(m, false);

    m = open_meta();
    make_table(m, "d", "a", false);
    c = cat_meta_read_begin(m);
    int64_t second = cat_table_find(cat_db_find(c, "d"), "a")->id;
    cat_meta_read_end(m);
    cr_assert_gt(second, first);
    cat_meta_close(m, false);
}

Test(cat_meta, failed_statements_change_nothing)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_table(m, "d", "t", false);
    char *before = dump(m);
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_ERR);
    cr_assert_eq(err.code, 1007);
    db_error_clear(&err);
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", fail_edit, NULL, &err), DB_ERR);
    db_error_clear(&err);
    cr_assert_eq(cat_meta_alter_table(m, "d", "nope", add_column, "x", &err), DB_ERR);
    cr_assert_eq(err.code, 1146);
    db_error_clear(&err);
    cr_assert_eq(cat_meta_drop_table(m, "d", "nope", false, &err), DB_ERR);
    db_error_clear(&err);
    cr_assert_eq(cat_meta_drop_table(m, "d", "nope", true, &err), DB_OK);
    char *now = dump(m);
    cr_assert_str_eq(now, before);
    cat_meta_close(m, false);
    m = open_meta();
    mem_free(now);
    now = dump(m);
    cr_assert_str_eq(now, before);
    cat_meta_close(m, false);
    mem_free(now);
    mem_free(before);
}

Test(cat_meta, drop_database_is_durable)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "gone", false, NULL, &err), DB_OK);
    make_table(m, "gone", "t", false);
    cr_assert_eq(cat_meta_drop_db(m, "gone", false, &err), DB_OK);
    cr_assert_eq(cat_meta_drop_db(m, "gone", false, &err), DB_ERR);
    cr_assert_eq(err.code, 1008);
    cat_meta_close(m, false);
    m = open_meta();
    const cat_catalog *c = cat_meta_read_begin(m);
    cr_assert_null(cat_db_find(c, "gone"));
    cat_meta_read_end(m);
    cr_assert_eq(cat_meta_create_db(m, "gone", false, NULL, &err), DB_OK);
    cat_meta_close(m, false);
}

Test(cat_meta, tso_continues_above_the_previous_run)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    uint64_t a = 0, b = 0;
    cr_assert_eq(cat_tso_next(cat_meta_tso(m), &a, &err), DB_OK);
    cat_meta_close(m, true);
    m = open_meta();
    cr_assert_eq(cat_tso_next(cat_meta_tso(m), &b, &err), DB_OK);
    cr_assert_gt(b, a);
    cat_meta_close(m, false);
}
