/* SPDX-License-Identifier: Apache-2.0
 * Unit tests: binlog.* properties (seed 001, DORIS_SEMANTICS.md E35-E47), their defaults and
 * mutability, database inheritance, CREATE TABLE ... LIKE, the ALTER rules of Row Binlog tables. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/cat_schema.h"
#include "common/db_error.h"
#include "tests/catalog/cat_schema_test.h"

/* A Row Binlog table: UNIQUE (MoW) or DUP per keys, with need_historical_value when hist. */
static cat_table *
row_table(cat_catalog *c, const char *name, cat_keys keys, bool hist)
{
    tb b;
    tb_simple(&b, name, keys);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    if (hist) {
        tb_prop(&b, "binlog.need_historical_value", "true");
    }
    return tb_create(c, &b);
}

/* ALTER TABLE t SET (k = v) on table t of database d. */
static int
set1(cat_catalog *c, cat_table *t, const char *k, const char *v, db_error *err)
{
    cat_prop p = {(char *)k, (char *)v};
    db_error_clear(err);
    return cat_table_set_properties(cat_db_find(c, "d"), t, &p, 1, err);
}

Test(cat_props, defaults)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    cat_table *t = tb_create(c, &b);
    cr_assert_not(t->binlog.enable);
    cr_assert_eq(t->binlog.format, CAT_BINLOG_STATEMENT_AND_SNAPSHOT);
    cr_assert_not(t->binlog.need_historical_value);
    cr_assert_eq(t->binlog.ttl_seconds, 86400);
    cr_assert_eq(t->binlog.max_bytes, INT64_MAX);
    cr_assert_eq(t->binlog.max_history_nums, INT64_MAX);
    cr_assert(t->light_schema_change);
    cr_assert_not(t->disable_auto_compaction);
    cr_assert_null(cat_table_column(t, "__DORIS_COMMIT_TSO_COL__"));
    cat_catalog_free(c);
}

Test(cat_props, row_binlog_adds_commit_tso_column)
{
    cat_catalog *c = tb_catalog();
    cat_table *t = row_table(c, "t", CAT_KEYS_UNIQUE, true);
    cr_assert(cat_binlog_is_row(&t->binlog));
    cr_assert(t->binlog.need_historical_value);
    cat_column *tso = cat_table_column(t, "__DORIS_COMMIT_TSO_COL__");
    cr_assert_not_null(tso);
    cr_assert(tso->flags & CAT_COL_HIDDEN);
    cr_assert_eq(tso->type.id, CAT_T_BIGINT);
    cr_assert_eq(cat_table_visible_count(t), 2);
    cat_catalog_free(c);
}

Test(cat_props, enable_alone_or_format_alone_is_not_row)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t1", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.enable", "true");
    cat_table *t = tb_create(c, &b);
    cr_assert_not(cat_binlog_is_row(&t->binlog));
    tb_simple(&b, "t2", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.format", "ROW");
    t = tb_create(c, &b);
    cr_assert_not(cat_binlog_is_row(&t->binlog));
    cat_catalog_free(c);
}

/* E35 */
Test(cat_props, row_binlog_rejects_mor_and_aggregate)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    tb_prop(&b, "enable_unique_key_merge_on_write", "false");
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Only duplicate and mow table model support binlog<Row>");

    tb_simple(&b, "t", CAT_KEYS_AGG);
    b.cols[1].agg = CAT_AGG_SUM;
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    err = tb_fail(c, &b);
    expect_doris(&err, "Only duplicate and mow table model support binlog<Row>");
    cat_catalog_free(c);
}

/* E36 */
Test(cat_props, duplicate_table_rejects_historical_value)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    tb_prop(&b, "binlog.need_historical_value", "true");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Duplicate table model don't support record historical value");
    cat_catalog_free(c);
}

/* E37 */
Test(cat_props, cluster_keys_reject_row_binlog)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.cluster[0] = "v";
    b.r.ncluster_cols = 1;
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Unique merge-on-write tables with cluster keys do not support binlog<Row>");
    cat_catalog_free(c);
}

/* E38, E39 */
Test(cat_props, variant_and_auto_increment_rejected_at_create)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_col(&b, "j", cat_type_make(CAT_T_VARIANT));
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "variant column can't be created on table with binlog<Row>");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    cat_column_def *a = tb_col(&b, "seq", cat_type_make(CAT_T_BIGINT));
    a->auto_inc = true;
    a->null_given = true;
    tb_prop(&b, "enable_unique_key_merge_on_write", "true");
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    err = tb_fail(c, &b);
    expect_doris(&err, "auto-inc column can't be created on table with binlog<Row>");

    /* Without Row Binlog both are fine. */
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_col(&b, "j", cat_type_make(CAT_T_VARIANT));
    tb_create(c, &b);
    cat_catalog_free(c);
}

/* E42 and the value syntax errors. */
Test(cat_props, invalid_values)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "row");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Invalid binlog format value: row");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.ttl_seconds", "1d");
    err = tb_fail(c, &b);
    expect_doris(&err, "Invalid binlog ttl_seconds value: 1d");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.max_bytes", "x");
    err = tb_fail(c, &b);
    expect_doris(&err, "Invalid binlog max_bytes value: x");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.max_history_nums", "9223372036854775808");
    err = tb_fail(c, &b);
    expect_doris(&err, "Invalid binlog max_history_nums value: 9223372036854775808");
    cat_catalog_free(c);
}

/* E43: tested with -2, 0, -1 as in RT:test_row_binlog_ttl. */
Test(cat_props, row_ttl_must_be_positive)
{
    cat_catalog *c = tb_catalog();
    const char *bad[] = {"-2", "0", "-1"};
    for (size_t i = 0; i < 3; i++) {
        tb b;
        tb_simple(&b, "t", CAT_KEYS_DUP);
        tb_prop(&b, "replication_num", "1");
        tb_prop(&b, "binlog.enable", "true");
        tb_prop(&b, "binlog.format", "ROW");
        tb_prop(&b, "binlog.ttl_seconds", bad[i]);
        db_error err = tb_fail(c, &b);
        expect_doris(&err, "ROW binlog.ttl_seconds must be greater than 0");
    }
    /* The largest accepted value (RT:test_row_binlog_ttl_mow). */
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    tb_prop(&b, "binlog.ttl_seconds", "9223372036854775807");
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->binlog.ttl_seconds, INT64_MAX);
    db_error err;
    cr_assert_eq(set1(c, t, "binlog.ttl_seconds", "0", &err), DB_ERR);
    expect_doris(&err, "ROW binlog.ttl_seconds must be greater than 0");
    cr_assert_eq(t->binlog.ttl_seconds, INT64_MAX);
    cat_catalog_free(c);
}

/* E44 */
Test(cat_props, format_is_immutable)
{
    cat_catalog *c = tb_catalog();
    cat_table *row = row_table(c, "r", CAT_KEYS_UNIQUE, false);
    db_error err;
    cr_assert_eq(set1(c, row, "binlog.format", "STATEMENT_AND_SNAPSHOT", &err), DB_ERR);
    expect_doris(&err, "not support change binlog format from ROW to STATEMENT_AND_SNAPSHOT");

    tb b;
    tb_simple(&b, "plain", CAT_KEYS_UNIQUE);
    cat_table *plain = tb_create(c, &b);
    cr_assert_eq(set1(c, plain, "binlog.format", "ROW", &err), DB_ERR);
    expect_doris(&err, "not support change binlog format from STATEMENT_AND_SNAPSHOT to ROW");

    /* enable + format together: the format change is what fails. */
    cat_prop two[2] = {{"binlog.enable", "true"}, {"binlog.format", "ROW"}};
    db_error_clear(&err);
    cr_assert_eq(cat_table_set_properties(cat_db_find(c, "d"), plain, two, 2, &err), DB_ERR);
    expect_doris(&err, "not support change binlog format from STATEMENT_AND_SNAPSHOT to ROW");
    cr_assert_not(plain->binlog.enable); /* nothing applied */

    /* Setting the same format again is not a change. */
    cr_assert_eq(set1(c, row, "binlog.format", "ROW", &err), DB_OK);
    cat_catalog_free(c);
}

/* E45 */
Test(cat_props, historical_value_is_immutable)
{
    cat_catalog *c = tb_catalog();
    cat_table *t = row_table(c, "t1", CAT_KEYS_UNIQUE, true);
    db_error err;
    cr_assert_eq(set1(c, t, "binlog.need_historical_value", "false", &err), DB_ERR);
    expect_doris(&err, "not support change binlog.need_historical_value from true to false");
    t = row_table(c, "t2", CAT_KEYS_UNIQUE, false);
    cr_assert_eq(set1(c, t, "binlog.need_historical_value", "true", &err), DB_ERR);
    expect_doris(&err, "not support change binlog.need_historical_value from false to true");
    cat_catalog_free(c);
}

/* E46 */
Test(cat_props, row_binlog_cannot_be_disabled)
{
    cat_catalog *c = tb_catalog();
    cat_table *t = row_table(c, "t", CAT_KEYS_DUP, false);
    db_error err;
    cr_assert_eq(set1(c, t, "binlog.enable", "false", &err), DB_ERR);
    expect_doris(&err, "can't disable binlog when format is [Row]");
    cr_assert(t->binlog.enable);
    cat_catalog_free(c);
}

/* E47 */
Test(cat_props, db_binlog_enabled_table_cannot_disable)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cat_db *db = NULL;
    cr_assert_eq(cat_db_create(c, "ccr", false, NULL, &db, &err), DB_OK);
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "binlog.enable", "true");
    cr_assert_eq(cat_db_set_properties(c, "ccr", &p, &err), DB_OK);
    cat_props_destroy(&p);
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.r.db = "ccr";
    cat_table *t = tb_create(c, &b);
    cr_assert(t->binlog.enable);
    cr_assert_eq(t->binlog.format, CAT_BINLOG_STATEMENT_AND_SNAPSHOT);
    cat_prop off = {"binlog.enable", "false"};
    db_error_clear(&err);
    cr_assert_eq(cat_table_set_properties(db, t, &off, 1, &err), DB_ERR);
    expect_doris(&err, "db binlog is enable, but table binlog is disable");
    cat_catalog_free(c);
}

Test(cat_props, statement_binlog_may_toggle_and_row_may_change_ttl)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "s", CAT_KEYS_UNIQUE);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "STATEMENT_AND_SNAPSHOT");
    cat_table *s = tb_create(c, &b);
    db_error err;
    cr_assert_eq(set1(c, s, "binlog.enable", "false", &err), DB_OK);
    cr_assert_not(s->binlog.enable);
    cr_assert_eq(set1(c, s, "binlog.enable", "true", &err), DB_OK);
    cr_assert(s->binlog.enable);

    cat_table *r = row_table(c, "r", CAT_KEYS_UNIQUE, false);
    cr_assert_eq(set1(c, r, "binlog.ttl_seconds", "7200", &err), DB_OK);
    cr_assert_eq(r->binlog.ttl_seconds, 7200);
    cr_assert_eq(set1(c, r, "binlog.max_bytes", "1073741824", &err), DB_OK);
    cr_assert_eq(r->binlog.max_bytes, 1073741824);
    cr_assert_eq(set1(c, r, "binlog.max_history_nums", "10000", &err), DB_OK);
    cr_assert_eq(r->binlog.max_history_nums, 10000);
    cat_catalog_free(c);
}

/* E41 */
Test(cat_props, disallowed_alters_on_row_binlog_tables)
{
    cat_catalog *c = tb_catalog();
    cat_table *t = row_table(c, "t", CAT_KEYS_UNIQUE, true);
    const cat_alter_op bad[] = {CAT_ALTER_MODIFY_COLUMN, CAT_ALTER_RENAME_COLUMN,
                                CAT_ALTER_REORDER_COLUMNS, CAT_ALTER_BUILD_INDEX};
    db_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        db_error_clear(&err);
        cr_assert_eq(cat_alter_check(t, bad[i], &err), DB_ERR);
        expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    }
    for (int op = 0; op < CAT_ALTER__COUNT; op++) {
        bool is_bad = false;
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            is_bad |= (int)bad[i] == op;
        }
        db_error_clear(&err);
        cr_assert_eq(cat_alter_check(t, (cat_alter_op)op, &err), is_bad ? DB_ERR : DB_OK, "op %d",
                     op);
    }
    db_error_clear(&err);
    cr_assert_eq(cat_table_rename_column(t, "v", "vv", &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    cr_assert_eq(set1(c, t, "bloom_filter_columns", "v", &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    cr_assert_eq(set1(c, t, "bloom_filter_fpp", "0.05", &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");

    /* A plain table allows all of them. */
    tb b;
    tb_simple(&b, "p", CAT_KEYS_UNIQUE);
    cat_table *p = tb_create(c, &b);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        db_error_clear(&err);
        cr_assert_eq(cat_alter_check(p, bad[i], &err), DB_OK);
    }
    cr_assert_eq(set1(c, p, "bloom_filter_columns", "v", &err), DB_OK);
    cat_catalog_free(c);
}

Test(cat_props, add_column_on_row_binlog_table)
{
    cat_catalog *c = tb_catalog();
    cat_table *t = row_table(c, "t", CAT_KEYS_UNIQUE, true);
    db_error err;
    db_error_clear(&err);
    cat_column_def v = {.name = "j", .type = cat_type_make(CAT_T_VARIANT)};
    cr_assert_eq(cat_table_add_column(t, &v, NULL, false, &err), DB_ERR);
    cr_assert(strstr(err.msg, "does not support VARIANT column") != NULL, "%s", err.msg);
    cat_column_def a = {.name = "a", .type = cat_type_make(CAT_T_BIGINT), .auto_inc = true};
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_column(t, &a, NULL, false, &err), DB_ERR);
    cat_column_def ok = {.name = "v4", .type = cat_type_make(CAT_T_INT)};
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_column(t, &ok, NULL, false, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_table_drop_column(t, "v4", &err), DB_OK);
    /* Heavy schema change is not allowed. */
    cr_assert_eq(set1(c, t, "light_schema_change", "false", &err), DB_OK);
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_column(t, &ok, NULL, false, &err), DB_ERR);
    expect_doris(&err, "Not allowed to perform current operation on Table With binlog<row>");
    cat_catalog_free(c);
}

Test(cat_props, database_properties_are_inherited_and_overridable)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_db_create(c, "inh", false, NULL, NULL, &err), DB_OK);
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "binlog.enable", "true");
    cat_props_set(&p, "binlog.format", "ROW");
    cat_props_set(&p, "binlog.ttl_seconds", "1");
    cr_assert_eq(cat_db_set_properties(c, "inh", &p, &err), DB_OK);
    cat_props_destroy(&p);

    tb b;
    tb_simple(&b, "inherited_ttl", CAT_KEYS_DUP);
    b.r.db = "inh";
    tb_prop(&b, "replication_num", "1");
    cat_table *t = tb_create(c, &b);
    cr_assert(cat_binlog_is_row(&t->binlog));
    cr_assert_eq(t->binlog.ttl_seconds, 1);

    tb_simple(&b, "override_ttl", CAT_KEYS_DUP);
    b.r.db = "inh";
    tb_prop(&b, "binlog.ttl_seconds", "86400");
    t = tb_create(c, &b);
    cr_assert_eq(t->binlog.ttl_seconds, 86400);

    /* Changing the database later does not change existing tables. */
    cat_props_init(&p);
    cat_props_set(&p, "binlog.ttl_seconds", "50");
    cr_assert_eq(cat_db_set_properties(c, "inh", &p, &err), DB_OK);
    cat_props_destroy(&p);
    cr_assert_eq(t->binlog.ttl_seconds, 86400);
    cr_assert_eq(cat_table_find(cat_db_find(c, "inh"), "inherited_ttl")->binlog.ttl_seconds, 1);

    /* Database settings are validated as table settings are. */
    cat_props_init(&p);
    cat_props_set(&p, "binlog.ttl_seconds", "0");
    db_error_clear(&err);
    cr_assert_eq(cat_db_set_properties(c, "inh", &p, &err), DB_ERR);
    expect_doris(&err, "ROW binlog.ttl_seconds must be greater than 0");
    cat_props_destroy(&p);
    cat_props_init(&p);
    cat_props_set(&p, "binlog.format", "row");
    db_error_clear(&err);
    cr_assert_eq(cat_db_set_properties(c, "inh", &p, &err), DB_ERR);
    expect_doris(&err, "Invalid binlog format value: row");
    db_error_clear(&err);
    cr_assert_eq(cat_db_set_properties(c, "nodb", &p, &err), DB_ERR);
    expect_mysql(&err, 1049, "42000", "Unknown database 'nodb'");
    cat_props_destroy(&p);
    cat_catalog_free(c);
}

Test(cat_props, inherited_row_binlog_applies_model_rules)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "binlog.enable", "true");
    cat_props_set(&p, "binlog.format", "ROW");
    cr_assert_eq(cat_db_set_properties(c, "d", &p, &err), DB_OK);
    cat_props_destroy(&p);
    tb b;
    tb_simple(&b, "agg", CAT_KEYS_AGG);
    b.cols[1].agg = CAT_AGG_SUM;
    err = tb_fail(c, &b);
    expect_doris(&err, "Only duplicate and mow table model support binlog<Row>");
    cat_catalog_free(c);
}

Test(cat_props, create_table_like_copies_ttl_and_schema)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "src", CAT_KEYS_DUP);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    tb_prop(&b, "binlog.ttl_seconds", "1");
    cat_table *src = tb_create(c, &b);

    tb_init(&b, "d", "dst");
    b.r.like_table = "src";
    cat_table *dst = tb_create(c, &b);
    cr_assert_eq(dst->binlog.ttl_seconds, 1);
    cr_assert(cat_binlog_is_row(&dst->binlog));
    cr_assert_neq(dst->id, src->id);
    cr_assert_neq(dst->parts[0].id, src->parts[0].id);
    cr_assert_str_eq(dst->parts[0].name, "dst");
    cr_assert_eq(dst->ncols, src->ncols);
    for (size_t i = 0; i < src->ncols; i++) {
        cr_assert_eq(dst->cols[i].uid, src->cols[i].uid);
    }

    tb_init(&b, "d", "dst2");
    b.r.like_table = "missing";
    db_error err = tb_fail(c, &b);
    expect_mysql(&err, 1146, "42S02", "Table 'd.missing' doesn't exist");

    tb_init(&b, "d", "dst");
    b.r.like_table = "src";
    err = tb_fail(c, &b);
    expect_mysql(&err, 1050, "42S01", "Table 'dst' already exists");
    b.r.if_not_exists = true;
    cat_table *none = (cat_table *)1;
    db_error_clear(&err);
    cr_assert_eq(cat_table_validate_create(c, &b.r, &none, &err), DB_OK);
    cr_assert_null(none);
    cat_catalog_free(c);
}

Test(cat_props, other_boolean_properties)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "light_schema_change", "maybe");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "light_schema_change must be `true` or `false`");
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "disable_auto_compaction", "true");
    cat_table *t = tb_create(c, &b);
    cr_assert(t->disable_auto_compaction);
    cr_assert_eq(set1(c, t, "disable_auto_compaction", "false", &err), DB_OK);
    cr_assert_not(t->disable_auto_compaction);
    cr_assert_eq(set1(c, t, "no_such_property", "1", &err), DB_ERR);
    expect_doris(&err, "Unknown table property: [no_such_property]");
    cat_catalog_free(c);
}

Test(cat_props, sequence_column)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    tb_col(&b, "seq", cat_type_make(CAT_T_BIGINT));
    tb_prop(&b, "function_column.sequence_col", "seq");
    cat_table *t = tb_create(c, &b);
    cat_column *s = cat_table_column(t, "__DORIS_SEQUENCE_COL__");
    cr_assert_not_null(s);
    cr_assert(s->flags & CAT_COL_HIDDEN);
    cr_assert_eq(s->type.id, CAT_T_BIGINT);

    tb_simple(&b, "t2", CAT_KEYS_DUP);
    tb_prop(&b, "function_column.sequence_type", "int");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "sequence column only support UNIQUE_KEYS");

    tb_simple(&b, "t3", CAT_KEYS_UNIQUE);
    tb_prop(&b, "function_column.sequence_col", "nope");
    err = tb_fail(c, &b);
    expect_doris(&err, "The specified sequence column[nope] not exists");
    cat_catalog_free(c);
}

Test(cat_props, props_list_semantics)
{
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "a", "1");
    cat_props_set(&p, "b", "2");
    cat_props_set(&p, "a", "3");
    cr_assert_eq(p.n, 2);
    cr_assert_str_eq(p.v[0].key, "a");
    cr_assert_str_eq(cat_props_get(&p, "a"), "3");
    cr_assert_null(cat_props_get(&p, "A"));
    cr_assert(cat_props_remove(&p, "a"));
    cr_assert_not(cat_props_remove(&p, "a"));
    cr_assert_str_eq(p.v[0].key, "b");
    cat_props_destroy(&p);
}
