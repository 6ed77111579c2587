/* SPDX-License-Identifier: Apache-2.0
 * test_index.c: secondary index definitions (cat_index.c): the encoding round trip (version 4)
 * and the reading of version-3 encodings without them, replay from the edit log and from the
 * image after CREATE TABLE ... INDEX, ADD / DROP INDEX, RENAME and DROP COLUMN, and Doris's
 * rules (duplicates, column types, Row Binlog tables). */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "tests/catalog/cat_schema_test.h"
#include "tests/catalog/cat_testutil.h"

static const char *const s_col[] = {"s"};
static const char *const v_col[] = {"v"};
static const char *const k_col[] = {"k"};
static const cat_prop parser_props[] = {{"support_phrase", "true"}, {"parser", "english"}};

static cat_index_def
idx(const char *name, uint8_t type, const char *const *cols, const cat_prop *props, size_t np,
    const char *comment)
{
    cat_index_def d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.type = type;
    d.cols = (const char **)cols;
    d.ncols = 1;
    d.props = props;
    d.nprops = np;
    d.comment = comment;
    return d;
}

/* d.t (k BIGINT, s VARCHAR(20), v STRING) with three indexes; Row Binlog when binlog. */
static void
table_req(tb *b, cat_index_def *defs, bool binlog)
{
    tb_init(b, "d", "t");
    tb_col(b, "k", cat_type_make(CAT_T_BIGINT));
    tb_col(b, "s", cat_type_varchar(20));
    tb_col(b, "v", cat_type_make(CAT_T_STRING));
    tb_keys(b, CAT_KEYS_UNIQUE, "k", NULL);
    tb_hash(b, "k", 2);
    if (binlog) {
        tb_prop(b, "binlog.enable", "true");
        tb_prop(b, "binlog.format", "ROW");
    }
    defs[0] = idx("i_s", CAT_INDEX_INVERTED, s_col, NULL, 0, "on s");
    defs[1] = idx("i_v", CAT_INDEX_INVERTED, v_col, parser_props, 2, NULL);
    defs[2] = idx("i_ng", CAT_INDEX_NGRAM_BF, v_col, NULL, 0, "it's");
    b->r.indexes = defs;
    b->r.nindexes = 3;
}

static char *
show(const cat_table *t)
{
    buf out;
    buf_init(&out);
    cat_show_create_table(t, &out);
    buf_put_u8(&out, 0);
    return (char *)out.data;
}

Test(cat_index, create_table_indexes_print_as_doris)
{
    cat_catalog *c = tb_catalog();
    tb b;
    cat_index_def defs[3];
    table_req(&b, defs, false);
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->nindexes, 3);
    char *s = show(t);
    cr_assert(strstr(s, ",\n  INDEX i_s (`s`) USING INVERTED COMMENT 'on s',\n") != NULL, "%s", s);
    cr_assert(strstr(s, "INDEX i_v (`v`) USING INVERTED PROPERTIES(\"lower_case\" = \"true\", "
                        "\"parser\" = \"english\", \"support_phrase\" = \"true\"),\n") != NULL,
              "%s", s);
    cr_assert(strstr(s, "INDEX i_ng (`v`) USING NGRAM_BF PROPERTIES(\"bf_size\" = \"256\", "
                        "\"gram_size\" = \"2\") COMMENT 'it\\'s'\n) ENGINE=OLAP") != NULL,
              "%s", s);
    mem_free(s);
    cr_assert_null(t->indexes[1].comment); /* no COMMENT written: SHOW INDEX says NULL */
    cat_catalog_free(c);
}

Test(cat_index, encoding_round_trip_and_version_3_still_reads)
{
    cat_catalog *c = tb_catalog();
    tb b;
    cat_index_def defs[3];
    table_req(&b, defs, false);
    cat_table *t = tb_create(c, &b);
    buf enc;
    buf_init(&enc);
    cat_table_encode(t, &enc);
    cr_assert_eq(enc.data[0], 4);
    db_error err;
    db_error_clear(&err);
    cat_table *d = cat_table_decode(enc.data, enc.len, &err);
    cr_assert_not_null(d, "%s", err.msg);
    cr_assert_eq(d->nindexes, 3);
    cr_assert_str_eq(d->indexes[2].name, "i_ng");
    cr_assert_eq(d->indexes[2].type, CAT_INDEX_NGRAM_BF);
    cr_assert_null(d->indexes[1].comment);
    cr_assert_str_eq(d->indexes[0].comment, "on s");
    char *s1 = show(t), *s2 = show(d);
    cr_assert_str_eq(s1, s2);
    mem_free(s1);
    mem_free(s2);
    buf enc2;
    buf_init(&enc2);
    cat_table_encode(d, &enc2);
    cr_assert_eq(enc2.len, enc.len);
    cr_assert_eq(memcmp(enc2.data, enc.data, enc.len), 0);
    buf_destroy(&enc2);
    cat_table_free(d);
    for (size_t n = 0; n < enc.len; n++) {
        db_error_clear(&err);
        cr_assert_null(cat_table_decode(enc.data, n, &err), "prefix %zu decoded", n);
    }
    buf_destroy(&enc);

    /* A version-3 body is the version-4 one without the index list (a u32 count of 0 when
     * there are none): what an image or log written before indexes holds. */
    tb_simple(&b, "old", CAT_KEYS_DUP);
    cat_table *o = tb_create(c, &b);
    buf_init(&enc);
    cat_table_encode(o, &enc);
    cr_assert_eq(memcmp(enc.data + enc.len - 4, "\0\0\0\0", 4), 0);
    enc.data[0] = 3;
    db_error_clear(&err);
    d = cat_table_decode(enc.data, enc.len - 4, &err);
    cr_assert_not_null(d, "%s", err.msg);
    cr_assert_eq(d->nindexes, 0);
    s1 = show(o);
    s2 = show(d);
    cr_assert_str_eq(s1, s2);
    mem_free(s1);
    mem_free(s2);
    cat_table_free(d);
    /* ... and read as version 4 it is truncated. */
    enc.data[0] = 4;
    cr_assert_null(cat_table_decode(enc.data, enc.len - 4, &err));
    buf_destroy(&enc);

    /* A database image holding tables with indexes round-trips too. */
    buf_init(&enc);
    cat_db_encode(cat_db_find(c, "d"), &enc);
    cat_db *db = cat_db_decode(enc.data, enc.len, &err);
    cr_assert_not_null(db, "%s", err.msg);
    cr_assert_eq(cat_table_find(db, "t")->nindexes, 3);
    cat_db_free(db);
    buf_destroy(&enc);
    cat_catalog_free(c);
}

/* ---- durability through cat_meta ---- */

static char *
dump(cat_meta *m)
{
    buf out;
    buf_init(&out);
    const cat_catalog *c = cat_meta_read_begin(m);
    for (size_t i = 0; i < cat_db_count(c); i++) {
        cat_db *db = cat_db_at(c, i);
        for (size_t j = 0; !db->is_system && j < db->ntables; j++) {
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

static int
add_k(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    (void)arg;
    cat_index_def d = idx("i_k", CAT_INDEX_BITMAP, k_col, NULL, 0, "bitmap");
    return cat_table_add_index(t, &d, NULL, err);
}

static int
drop_named(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    return cat_table_drop_index(t, arg, false, err);
}

static int
rename_s(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    (void)arg;
    return cat_table_rename_column(t, "s", "name", err);
}

static int
drop_v(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    (void)arg;
    return cat_table_drop_column(t, "v", err);
}

TestSuite(cat_index_meta, .init = tu_setup, .fini = tu_teardown);

Test(cat_index_meta, definitions_survive_reopen_from_log_and_from_image)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK, "%s", err.msg);
    tb b;
    cat_index_def defs[3];
    table_req(&b, defs, false);
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", add_k, NULL, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", drop_named, "i_ng", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", rename_s, NULL, &err), DB_OK, "%s", err.msg);
    char *before = dump(m);
    cr_assert(strstr(before, "INDEX i_s (`name`) USING INVERTED COMMENT 'on s'") != NULL, "%s",
              before);
    cr_assert(strstr(before, "INDEX i_k (`k`) USING BITMAP COMMENT 'bitmap'") != NULL);
    cr_assert(strstr(before, "i_ng") == NULL);
    cat_meta_close(m, false);

    m = open_meta(); /* replays the log */
    char *after = dump(m);
    cr_assert_str_eq(after, before);
    mem_free(after);
    /* DROP COLUMN takes the indexes on it along (Doris), durably. */
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", drop_v, NULL, &err), DB_OK, "%s", err.msg);
    mem_free(before);
    before = dump(m);
    cr_assert(strstr(before, "i_v") == NULL);
    cat_meta_close(m, true); /* writes an image */

    m = open_meta(); /* loads the image */
    after = dump(m);
    cr_assert_str_eq(after, before);
    /* The recycle bin keeps them: DROP TABLE, RECOVER TABLE. */
    cr_assert_eq(cat_meta_recycle_table(m, "d", "t", false, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_meta_recover_table(m, "d", "t", &err), DB_OK, "%s", err.msg);
    mem_free(after);
    after = dump(m);
    cr_assert_str_eq(after, before);
    cat_meta_close(m, false);
    mem_free(after);
    mem_free(before);
}

/* ---- rules ---- */

Test(cat_index, doris_rules_and_texts)
{
    cat_catalog *c = tb_catalog();
    tb b;
    cat_index_def defs[3];
    table_req(&b, defs, true); /* a Row Binlog table */
    cat_table *t = tb_create(c, &b);
    db_error err;
    db_error_clear(&err);
    bool added;
    cat_index_def d = idx("I_S", CAT_INDEX_INVERTED, v_col, NULL, 0, NULL);
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_index(t, &d, &added, &err), DB_ERR);
    expect_doris(&err, "index `I_S` already exist.");
    d.if_not_exists = true;
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_index(t, &d, &added, &err), DB_OK);
    cr_assert(!added);
    d = idx("i_s2", CAT_INDEX_INVERTED, s_col, NULL, 0, NULL);
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_index(t, &d, &added, &err), DB_ERR);
    expect_doris(&err, "INVERTED index for columns (s ) already exist.");
    /* Light index changes are allowed on a Row Binlog table; BUILD INDEX is not (E41). */
    d = idx("i_k", CAT_INDEX_INVERTED, k_col, NULL, 0, NULL);
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_index(t, &d, &added, &err), DB_OK, "%s", err.msg);
    cr_assert(added);
    db_error_clear(&err);
    cr_assert_eq(cat_table_build_index_check(t, "i_k", NULL, 0, &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_index(t, "I_K", false, &err), DB_OK);
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_index(t, "i_k", false, &err), DB_ERR);
    expect_doris(&err, "index i_k does not exist");
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_index(t, "i_k", true, &err), DB_OK);

    /* Column types: FLOAT / DOUBLE / JSON refused, NGRAM_BF needs a string. */
    tb_init(&b, "d", "types");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "f", cat_type_make(CAT_T_FLOAT));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_hash(&b, "k", 1);
    cat_table *ty = tb_create(c, &b);
    static const char *const f_col[] = {"f"};
    d = idx("b", CAT_INDEX_BITMAP, f_col, NULL, 0, NULL);
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_index(ty, &d, NULL, &err), DB_ERR);
    expect_doris(&err, "FLOAT is not supported in BITMAP index. invalid index: b");
    d = idx("n", CAT_INDEX_NGRAM_BF, k_col, NULL, 0, NULL);
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_index(ty, &d, NULL, &err), DB_ERR);
    expect_doris(&err, "INT is not supported in ngram_bf index. invalid column: k");
    cr_assert_eq(ty->nindexes, 0);
    cat_catalog_free(c);
}
