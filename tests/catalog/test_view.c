/* SPDX-License-Identifier: Apache-2.0
 * test_view.c: views in the durable catalog (cat_meta_create_view). A view is a table object
 * with view_sql set; it survives close/reopen (replay of CAT_REC_TABLE_PUT) and
 * checkpoint/reopen (the schema image section), OR REPLACE keeps its id, DROP removes it, the
 * errors leave nothing behind, and table bodies of encoding version 1 (before views) still
 * decode. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/buf.h"
#include "common/mem.h"
#include "tests/catalog/cat_schema_test.h"
#include "tests/catalog/cat_testutil.h"

static cat_meta *
open_meta(void)
{
    db_error err = {0};
    cat_meta *m = cat_meta_open(tu_dir, NULL, &err);
    cr_assert_not_null(m, "open: %s", err.msg);
    return m;
}

/* The view's definition, or NULL (heap copy; "" marks a table that is not a view). */
static char *
view_of(cat_meta *m, const char *db, const char *name, int64_t *id)
{
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_db *d = cat_db_find(c, db);
    const cat_table *t = d ? cat_table_find(d, name) : NULL;
    char *out = t ? mem_strdup(t->view_sql ? t->view_sql : "") : NULL;
    if (t && id) {
        *id = t->id;
    }
    cat_meta_read_end(m);
    return out;
}

static void
make_table(cat_meta *m, const char *db, const char *name)
{
    tb b;
    tb_init(&b, db, name);
    tb_col(&b, "k", cat_type_make(CAT_T_BIGINT));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_hash(&b, "k", 1);
    db_error err = {0};
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
}

static void
expect_view(cat_meta *m, const char *name, const char *sql, int64_t id)
{
    int64_t got = 0;
    char *v = view_of(m, "d", name, &got);
    cr_assert_not_null(v, "%s missing", name);
    cr_assert_str_eq(v, sql);
    cr_assert_eq(got, id);
    mem_free(v);
}

TestSuite(cat_view, .init = tu_setup, .fini = tu_teardown);

Test(cat_view, views_survive_replay_and_image)
{
    db_error err = {0};
    cat_meta *m = open_meta();
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_table(m, "d", "t");
    cr_assert_eq(
            cat_meta_create_view(m, "d", "v1", "CREATE VIEW `v1` AS select k from t", false, &err),
            DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_create_view(m, "d", "v2", "CREATE VIEW `v2` AS select 1", false, &err),
                 DB_OK);
    int64_t id1 = 0, id2 = 0;
    mem_free(view_of(m, "d", "v1", &id1));
    mem_free(view_of(m, "d", "v2", &id2));
    /* OR REPLACE keeps the id; plain CREATE of a taken name fails */
    cr_assert_eq(cat_meta_create_view(m, "d", "v1", "CREATE VIEW `v1` AS select k + 1 from t", true,
                                      &err),
                 DB_OK);
    cr_assert_eq(cat_meta_create_view(m, "d", "v1", "x", false, &err), DB_ERR);
    cr_assert_eq(err.code, 1050);
    db_error_clear(&err);
    cr_assert_eq(cat_meta_create_view(m, "d", "t", "x", true, &err), DB_ERR);
    cr_assert_eq(err.code, 1347);
    cr_assert_str_eq(err.msg, "'d.t' is not VIEW");
    db_error_clear(&err);
    cr_assert_eq(cat_meta_create_view(m, "nodb", "v", "x", false, &err), DB_ERR);
    cr_assert_eq(err.code, 1049);
    db_error_clear(&err);
    cr_assert_eq(cat_meta_drop_table(m, "d", "v2", false, &err), DB_OK);
    cat_meta_close(m, false);

    m = open_meta(); /* replay from the log */
    expect_view(m, "v1", "CREATE VIEW `v1` AS select k + 1 from t", id1);
    cr_assert_null(view_of(m, "d", "v2", NULL));
    char *t = view_of(m, "d", "t", NULL);
    cr_assert_str_eq(t, ""); /* the table is no view */
    mem_free(t);
    cr_assert_eq(cat_meta_create_view(m, "d", "v3", "CREATE VIEW `v3` AS select 3", false, &err),
                 DB_OK);
    int64_t id3 = 0;
    mem_free(view_of(m, "d", "v3", &id3));
    cr_assert_gt(id3, id2);
    cat_meta_close(m, true); /* image */

    m = open_meta(); /* from the image */
    expect_view(m, "v1", "CREATE VIEW `v1` AS select k + 1 from t", id1);
    expect_view(m, "v3", "CREATE VIEW `v3` AS select 3", id3);
    cat_meta_close(m, false);
}

Test(cat_view, encoding_version_1_still_decodes)
{
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    cat_catalog *c = tb_catalog();
    db_error err = {0};
    cat_table *t = NULL;
    cr_assert_eq(cat_table_validate_create(c, &b.r, &t, &err), DB_OK, "%s", err.msg);
    buf enc;
    buf_init(&enc);
    cat_table_encode(t, &enc);
    cr_assert_eq(enc.data[0], 4);
    cr_assert_eq(enc.data[enc.len - 6], 0); /* version 2 trailer: not a view */
    cr_assert_eq(enc.data[enc.len - 5], 0); /* version 3 trailer: not a stream */
    /* version 4 trailer: no indexes (u32 0) */
    cr_assert_eq(memcmp(enc.data + enc.len - 4, "\0\0\0\0", 4), 0);
    enc.data[0] = 3; /* what version 3 wrote: no index list */
    cat_table *v3 = cat_table_decode(enc.data, enc.len - 4, &err);
    cr_assert_not_null(v3, "%s", err.msg);
    cr_assert_eq(v3->nindexes, 0);
    cat_table_free(v3);
    enc.data[0] = 2; /* what version 2 wrote: no stream trailer */
    cat_table *v2 = cat_table_decode(enc.data, enc.len - 5, &err);
    cr_assert_not_null(v2, "%s", err.msg);
    cr_assert_null(v2->stream);
    cat_table_free(v2);
    enc.data[0] = 1; /* what version 1 wrote: no trailer */
    cat_table *old = cat_table_decode(enc.data, enc.len - 6, &err);
    cr_assert_not_null(old, "%s", err.msg);
    cr_assert_null(old->view_sql);
    cr_assert_str_eq(old->name, "t");
    cat_table_free(old);
    /* a view round-trips */
    t->view_sql = mem_strdup("CREATE VIEW `t` AS select 1");
    buf_destroy(&enc);
    buf_init(&enc);
    cat_table_encode(t, &enc);
    cat_table *back = cat_table_decode(enc.data, enc.len, &err);
    cr_assert_not_null(back, "%s", err.msg);
    cr_assert_str_eq(back->view_sql, "CREATE VIEW `t` AS select 1");
    cat_table_free(back);
    buf_destroy(&enc);
    cat_table_free(t);
    cat_catalog_free(c);
}

Test(cat_view, stream_definition_round_trips)
{
    cat_table t;
    memset(&t, 0, sizeof t);
    t.name = "s";
    t.comment = "c";
    t.part_col_uid = -1;
    cat_props_init(&t.props);
    cat_stream_offset init[2] = {{11, 470000000000000001ULL}, {12, 5}};
    cat_stream st = {.base_id = 42,
                     .base_db = "db1",
                     .base_name = "orders",
                     .type = CAT_STREAM_DETAIL,
                     .show_initial_rows = true,
                     .created_ms = 1700000000000,
                     .init = init,
                     .ninit = 2};
    t.stream = &st;
    buf enc;
    buf_init(&enc);
    cat_table_encode(&t, &enc);
    db_error err = {0};
    cat_table *back = cat_table_decode(enc.data, enc.len, &err);
    cr_assert_not_null(back, "%s", err.msg);
    cr_assert_not_null(back->stream);
    cr_assert_eq(back->stream->base_id, 42);
    cr_assert_str_eq(back->stream->base_db, "db1");
    cr_assert_str_eq(back->stream->base_name, "orders");
    cr_assert_eq(back->stream->type, CAT_STREAM_DETAIL);
    cr_assert(back->stream->show_initial_rows);
    cr_assert_eq(back->stream->created_ms, 1700000000000);
    cr_assert_eq(back->stream->ninit, 2);
    cr_assert_eq(back->stream->init[0].tso, 470000000000000001ULL);
    cr_assert_eq(back->stream->init[1].part_id, 12);
    cr_assert_null(back->view_sql);
    cat_table *copy = cat_table_clone(back);
    cr_assert_str_eq(copy->stream->base_name, "orders");
    cr_assert_eq(copy->stream->init[1].tso, 5);
    cat_table_free(copy);
    cat_table_free(back);
    /* a bad type is refused */
    enc.data[enc.len - 4 - 4 - 2 * 16 - 8 - 2] = 9; /* before the index count and the offsets */
    cr_assert_null(cat_table_decode(enc.data, enc.len, &err));
    buf_destroy(&enc);
    cat_props_destroy(&t.props);
}
