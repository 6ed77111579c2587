/* SPDX-License-Identifier: Apache-2.0
 * test_alter.c: TRUNCATE's new partition ids, RENAME / MODIFY PARTITION, MODIFY COLUMN type
 * widening, ORDER BY, REPLACE WITH TABLE (cat_alter.c), and the recycle bin of cat_meta
 * (DROP without FORCE, RECOVER TABLE / DATABASE, REPLACE), each surviving close/reopen from the
 * log and from the image. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/catalog.h"
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

/* d.name: k INT key, v VARCHAR(8), RANGE on k with p1 < 10, p2 < 20; binlog optional. */
static void
make_table(cat_meta *m, const char *name, bool binlog)
{
    tb b;
    tb_init(&b, "d", name);
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "v", cat_type_varchar(8));
    tb_col(&b, "w", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "10");
    tb_less(&b, "p2", "20");
    tb_hash(&b, "k", 2);
    if (binlog) {
        tb_prop(&b, "binlog.enable", "true");
        tb_prop(&b, "binlog.format", "ROW");
    }
    db_error err = {0};
    err = (db_error){0};
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
}

/* "id:name,..." of the partitions of d.name, or "" when absent. */
static const char *
parts(cat_meta *m, const char *name)
{
    static char out[256];
    size_t len = 0;
    out[0] = '\0';
    const cat_catalog *c = cat_meta_read_begin(m);
    cat_db *db = cat_db_find(c, "d");
    cat_table *t = db ? cat_table_find(db, name) : NULL;
    for (size_t i = 0; t && i < t->nparts; i++) {
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%lld:%s", i ? "," : "",
                                (long long)t->parts[i].id, t->parts[i].name);
    }
    cat_meta_read_end(m);
    return out;
}

static int64_t
table_id(cat_meta *m, const char *db_name, const char *name)
{
    const cat_catalog *c = cat_meta_read_begin(m);
    cat_db *db = cat_db_find(c, db_name);
    cat_table *t = db ? cat_table_find(db, name) : NULL;
    int64_t id = t ? t->id : 0;
    cat_meta_read_end(m);
    return id;
}

typedef struct trunc_arg {
    const char *names[2];
    size_t n;
} trunc_arg;

static int
truncate_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    trunc_arg *a = arg;
    return cat_table_truncate(c, t, a->names, a->n, err);
}

TestSuite(cat_alter, .init = tu_setup, .fini = tu_teardown);

Test(cat_alter, truncate_gives_new_ids_durably)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    err = (db_error){0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_table(m, "t", true); /* TRUNCATE works on Row Binlog tables */
    char before[256];
    snprintf(before, sizeof before, "%s", parts(m, "t"));
    trunc_arg one = {{"P2"}, 1}; /* partition names are case-insensitive */
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", truncate_edit, &one, &err), DB_OK, "%s",
                 err.msg);
    char after[256];
    snprintf(after, sizeof after, "%s", parts(m, "t"));
    long long a1, a2, b1, b2;
    cr_assert_eq(sscanf(before, "%lld:p1,%lld:p2", &b1, &b2), 2, "%s", before);
    cr_assert_eq(sscanf(after, "%lld:p1,%lld:p2", &a1, &a2), 2, "%s", after);
    cr_assert_eq(a1, b1);
    cr_assert_gt(a2, b2);
    trunc_arg bad = {{"p1", "nope"}, 2};
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", truncate_edit, &bad, &err), DB_ERR);
    expect_doris(&err, "Partition nope does not exist");
    cr_assert_str_eq(parts(m, "t"), after); /* all or nothing */
    cat_meta_close(m, false);
    m = open_meta();
    cr_assert_str_eq(parts(m, "t"), after);
    trunc_arg all = {{NULL}, 0};
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", truncate_edit, &all, &err), DB_OK);
    long long c1, c2;
    cr_assert_eq(sscanf(parts(m, "t"), "%lld:p1,%lld:p2", &c1, &c2), 2);
    cr_assert(c1 > a2 && c2 > c1);
    cat_meta_close(m, true);
    m = open_meta();
    cr_assert_eq(sscanf(parts(m, "t"), "%lld:p1,%lld:p2", &a1, &a2), 2);
    cr_assert(a1 == c1 && a2 == c2);
    cat_meta_close(m, false);
}

static cat_table *
plain(void)
{
    cat_catalog *c = cat_catalog_new();
    db_error err = {0};
    cr_assert_eq(cat_db_create(c, "d", false, NULL, NULL, &err), DB_OK);
    tb b;
    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "v", cat_type_varchar(8))->null_given = true;
    b.cols[1].nullable = true;
    tb_col(&b, "w", cat_type_make(CAT_T_INT));
    tb_col(&b, "x", cat_type_make(CAT_T_FLOAT));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "10");
    tb_hash(&b, "k", 2);
    cat_table *t = NULL;
    cr_assert_eq(cat_table_validate_create(c, &b.r, &t, &err), DB_OK, "%s", err.msg);
    cat_catalog_free(c);
    return t;
}

static cat_column_def
coldef(const char *name, cat_type ty)
{
    cat_column_def d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.type = ty;
    d.auto_inc_start = 1;
    return d;
}

Test(cat_alter, modify_column_widens_only)
{
    cat_table *t = plain();
    db_error err = {0};
    cat_column_def d = coldef("w", cat_type_make(CAT_T_BIGINT));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_table_column(t, "w")->type.id, CAT_T_BIGINT);
    int32_t uid = cat_table_column(t, "w")->uid;
    d = coldef("w", cat_type_make(CAT_T_INT));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Can not change BIGINT to INT");
    d = coldef("v", cat_type_varchar(20));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_OK, "%s", err.msg);
    cr_assert(cat_table_column(t, "v")->nullable); /* NULL not written: kept */
    d = coldef("v", cat_type_varchar(10));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Cannot shorten string length");
    d = coldef("v", cat_type_make(CAT_T_STRING));
    d.null_given = true;
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Can not change from nullable to non-nullable");
    d = coldef("x", cat_type_make(CAT_T_DOUBLE));
    d.has_default = true;
    d.default_text = "1";
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Can not change default value");
    d = coldef("k", cat_type_make(CAT_T_BIGINT));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Can not modify partition column[k]");
    d = coldef("nope", cat_type_make(CAT_T_INT));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Column[nope] does not exists");
    /* Move: w after x; a value column cannot go before the key. */
    d = coldef("w", cat_type_make(CAT_T_BIGINT));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, "x", false, &err), DB_OK, "%s", err.msg);
    cr_assert_str_eq(t->cols[3].name, "w");
    cr_assert_eq(t->cols[3].uid, uid);
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, true, &err), DB_ERR);
    cr_assert_str_eq(t->cols[3].name, "w");
    /* ORDER BY. */
    const char *ok[] = {"k", "w", "x", "v"};
    err = (db_error){0};
    cr_assert_eq(cat_table_reorder_columns(t, ok, 4, &err), DB_OK, "%s", err.msg);
    cr_assert_str_eq(t->cols[1].name, "w");
    cr_assert_str_eq(t->cols[3].name, "v");
    const char *few[] = {"k", "w"};
    err = (db_error){0};
    cr_assert_eq(cat_table_reorder_columns(t, few, 2, &err), DB_ERR);
    const char *keymove[] = {"w", "k", "x", "v"};
    err = (db_error){0};
    cr_assert_eq(cat_table_reorder_columns(t, keymove, 4, &err), DB_ERR);
    const char *dup[] = {"k", "w", "w", "v"};
    err = (db_error){0};
    cr_assert_eq(cat_table_reorder_columns(t, dup, 4, &err), DB_ERR);
    cr_assert_eq(err.code, 1060);
    /* Partitions. */
    err = (db_error){0};
    cr_assert_eq(cat_table_rename_partition(t, "p1", "q1", &err), DB_OK, "%s", err.msg);
    cr_assert_not_null(cat_table_partition(t, "q1"));
    err = (db_error){0};
    cr_assert_eq(cat_table_rename_partition(t, "p1", "q2", &err), DB_ERR);
    expect_doris(&err, "Partition[p1] does not exists");
    cat_prop good[] = {{"replication_num", "1"}, {"storage_medium", "ssd"}};
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_partition(t, "q1", good, 2, &err), DB_OK, "%s", err.msg);
    cat_prop bad[] = {{"colour", "red"}};
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_partition(t, "q1", bad, 1, &err), DB_ERR);
    cat_table_free(t);
}

Test(cat_alter, binlog_tables_refuse_modify_and_order_by)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    err = (db_error){0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_table(m, "t", true);
    const cat_catalog *c = cat_meta_read_begin(m);
    cat_table *t = cat_table_clone(cat_table_find(cat_db_find(c, "d"), "t"));
    cat_meta_read_end(m);
    cat_column_def d = coldef("w", cat_type_make(CAT_T_BIGINT));
    err = (db_error){0};
    cr_assert_eq(cat_table_modify_column(t, &d, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    const char *names[] = {"k", "w", "v"};
    err = (db_error){0};
    cr_assert_eq(cat_table_reorder_columns(t, names, 3, &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    /* Allowed: RENAME PARTITION. */
    err = (db_error){0};
    cr_assert_eq(cat_table_rename_partition(t, "p1", "q1", &err), DB_OK, "%s", err.msg);
    cat_table_free(t);
    cat_meta_close(m, false);
}

Test(cat_alter, recycle_bin_and_replace_survive_reopen)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    err = (db_error){0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    make_table(m, "a", false);
    make_table(m, "b", true);
    int64_t a = table_id(m, "d", "a"), b = table_id(m, "d", "b");
    char pa[256];
    snprintf(pa, sizeof pa, "%s", parts(m, "a"));
    /* REPLACE WITH TABLE, swap. */
    err = (db_error){0};
    cr_assert_eq(cat_meta_replace_table(m, "d", "a", "b", true, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(table_id(m, "d", "a"), b);
    cr_assert_eq(table_id(m, "d", "b"), a);
    err = (db_error){0};
    cr_assert_eq(cat_meta_replace_table(m, "d", "a", "zz", true, &err), DB_ERR);
    cr_assert_eq(err.code, 1146);
    /* DROP into the bin, RECOVER with the same id and partitions. */
    err = (db_error){0};
    cr_assert_eq(cat_meta_recycle_table(m, "d", "b", false, &err), DB_OK);
    cr_assert_eq(table_id(m, "d", "b"), 0);
    cat_recycled r[4];
    err = (db_error){0};
    cr_assert_eq(cat_meta_recycle_bin(m, r, 4), 1);
    cr_assert_eq(r[0].table_id, a);
    cat_meta_close(m, false); /* replay from the log with the table in the bin */
    m = open_meta();
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_table(m, "d", "nope", &err), DB_ERR);
    cr_assert_eq(err.code, 1109);
    cr_assert_str_eq(err.msg, "Unknown table 'nope' in d");
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_table(m, "d", "b", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(table_id(m, "d", "b"), a);
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_table(m, "d", "b", &err), DB_ERR);
    cr_assert_eq(err.code, 1050);
    cr_assert_str_eq(parts(m, "b"), pa);
    /* REPLACE without swap: a is dropped for good, b takes its name. */
    err = (db_error){0};
    cr_assert_eq(cat_meta_replace_table(m, "d", "a", "b", false, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(table_id(m, "d", "a"), a);
    cr_assert_eq(table_id(m, "d", "b"), 0);
    /* The database into the bin with its table; survives a checkpoint. */
    err = (db_error){0};
    cr_assert_eq(cat_meta_recycle_db(m, "d", false, &err), DB_OK);
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_table(m, "d", "a", &err), DB_ERR);
    cr_assert_eq(err.code, 1049);
    cat_meta_close(m, true);
    m = open_meta();
    err = (db_error){0};
    cr_assert_eq(cat_meta_recycle_bin(m, r, 4), 1);
    cr_assert(r[0].is_db);
    err = (db_error){0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_db(m, "d", &err), DB_ERR);
    cr_assert_eq(err.code, 1007);
    err = (db_error){0};
    cr_assert_eq(cat_meta_drop_db(m, "d", false, &err), DB_OK);
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_db(m, "d", &err), DB_OK, "%s", err.msg);
    cr_assert_eq(table_id(m, "d", "a"), a);
    cat_meta_close(m, false);
    m = open_meta();
    cr_assert_eq(table_id(m, "d", "a"), a);
    err = (db_error){0};
    cr_assert_eq(cat_meta_recycle_bin(m, r, 4), 0);
    err = (db_error){0};
    cr_assert_eq(cat_meta_recover_db(m, "d", &err), DB_ERR);
    cr_assert_eq(err.code, 1007);
    cat_meta_close(m, false);
}

typedef struct feature_arg {
    const char *name;
    cat_prop props[1];
    size_t nprops;
} feature_arg;

static int
feature_edit(cat_catalog *c, cat_db *db, cat_table *t, void *arg, db_error *err)
{
    (void)c;
    (void)db;
    feature_arg *a = arg;
    return cat_table_enable_feature(t, a->name, a->props, a->nprops, err);
}

/* "type,nullable,hidden" of column name of d.t and its sequence_type property, or "-". */
static const char *
seq_state(cat_meta *m)
{
    static char out[128];
    const cat_catalog *c = cat_meta_read_begin(m);
    const cat_table *t = cat_table_find(cat_db_find(c, "d"), "t");
    const cat_column *col = t ? cat_table_column(t, CAT_COL_SEQUENCE) : NULL;
    const char *ty = t ? cat_props_get(&t->props, "function_column.sequence_type") : NULL;
    snprintf(out, sizeof out, "%s", "-");
    if (col != NULL) {
        snprintf(out, sizeof out, "%d,%d,%d,%s,%d", (int)col->type.id, (int)col->nullable,
                 (col->flags & CAT_COL_HIDDEN) != 0, ty ? ty : "(none)", (int)col->has_default);
    }
    cat_meta_read_end(m);
    return out;
}

/* ENABLE FEATURE "SEQUENCE_LOAD" is durable: replayed from the log and loaded from the image;
 * a second one and a non-UNIQUE table fail with Doris's texts, changing nothing. */
Test(cat_alter, enable_sequence_load_survives_reopen)
{
    cat_meta *m = open_meta();
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(m, "d", false, NULL, &err), DB_OK);
    tb b;
    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "v", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_UNIQUE, "k", NULL);
    tb_hash(&b, "k", 1);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    err = (db_error){0};
    cr_assert_eq(cat_meta_create_table(m, &b.r, &err), DB_OK, "%s", err.msg);
    make_table(m, "dup", false);
    cr_assert_str_eq(seq_state(m), "-");
    feature_arg a = {"SEQUENCE_LOAD", {{"function_column.sequence_type", "BigInt"}}, 1};
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", feature_edit, &a, &err), DB_OK, "%s", err.msg);
    char want[128];
    snprintf(want, sizeof want, "%d,1,1,bigint,0", (int)CAT_T_BIGINT);
    cr_assert_str_eq(seq_state(m), want);
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "t", feature_edit, &a, &err), DB_ERR);
    expect_doris(&err, "Can not enable sequence column support, already supported sequence "
                       "column.");
    err = (db_error){0};
    cr_assert_eq(cat_meta_alter_table(m, "d", "dup", feature_edit, &a, &err), DB_ERR);
    expect_doris(&err, "Sequence load only supported in unique tables.");
    cat_meta_close(m, false); /* replay from the log */
    m = open_meta();
    cr_assert_str_eq(seq_state(m), want);
    cat_meta_close(m, true); /* from the image */
    m = open_meta();
    cr_assert_str_eq(seq_state(m), want);
    cat_meta_close(m, false);
}
