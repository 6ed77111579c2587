/* SPDX-License-Identifier: Apache-2.0
 * Unit tests: catalog object model, CREATE TABLE validation (Doris texts), ALTER column and
 * partition operations, the binary encoding. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/cat_schema.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "tests/catalog/cat_schema_test.h"

/* ---- databases and ids ---- */

Test(cat_schema, databases_are_case_sensitive_information_schema_is_not)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cr_assert_not_null(cat_db_find(c, "d"));
    cr_assert_null(cat_db_find(c, "D"));
    cr_assert_eq(cat_db_create(c, "D", false, NULL, NULL, &err), DB_OK);
    cr_assert_neq(cat_db_find(c, "d"), cat_db_find(c, "D"));
    cat_db *is = cat_db_find(c, "INFORMATION_SCHEMA");
    cr_assert_not_null(is);
    cr_assert(is->is_system);
    cr_assert_eq(cat_db_create(c, "information_schema", false, NULL, NULL, &err), DB_ERR);
    expect_mysql(&err, 1007, "HY000",
                 "Can't create database 'information_schema'; database exists");
    cat_catalog_free(c);
}

Test(cat_schema, create_and_drop_database_errors)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_db_create(c, "d", true, NULL, NULL, &err), DB_OK);
    cr_assert_eq(cat_db_count(c), 1);
    cr_assert_eq(cat_db_create(c, "d", false, NULL, NULL, &err), DB_ERR);
    expect_mysql(&err, 1007, "HY000", "Can't create database 'd'; database exists");
    db_error_clear(&err);
    cr_assert_eq(cat_db_drop(c, "nope", false, &err), DB_ERR);
    expect_mysql(&err, 1008, "HY000", "Can't drop database 'nope'; database doesn't exist");
    cr_assert_eq(cat_db_drop(c, "nope", true, &err), DB_OK);
    cr_assert_eq(cat_db_drop(c, "d", false, &err), DB_OK);
    cr_assert_eq(cat_db_count(c), 0);
    cat_catalog_free(c);
}

Test(cat_schema, ids_are_monotonic_and_never_reused)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t1", CAT_KEYS_DUP);
    cat_table *t1 = tb_create(c, &b);
    int64_t id1 = t1->id;
    cr_assert_gt(id1, cat_db_find(c, "d")->id);
    cr_assert_gt(t1->parts[0].id, id1);
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop(c, "d", "t1", false, &err), DB_OK);
    tb_simple(&b, "t1", CAT_KEYS_DUP);
    cat_table *t2 = tb_create(c, &b);
    cr_assert_gt(t2->id, id1);
    cat_catalog_free(c);
}

Test(cat_schema, unknown_database_and_existing_table)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    b.r.db = "nodb";
    db_error err = tb_fail(c, &b);
    expect_mysql(&err, 1049, "42000", "Unknown database 'nodb'");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_create(c, &b);
    tb_simple(&b, "t", CAT_KEYS_DUP);
    err = tb_fail(c, &b);
    expect_mysql(&err, 1050, "42S01", "Table 't' already exists");

    /* IF NOT EXISTS: no error, nothing built. */
    tb_simple(&b, "t", CAT_KEYS_DUP);
    b.r.if_not_exists = true;
    cat_table *t = (cat_table *)1;
    db_error_clear(&err);
    cr_assert_eq(cat_table_validate_create(c, &b.r, &t, &err), DB_OK);
    cr_assert_null(t);
    /* Table names are case-sensitive. */
    tb_simple(&b, "T", CAT_KEYS_DUP);
    tb_create(c, &b);
    cat_catalog_free(c);
}

Test(cat_schema, table_drop_errors)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop(c, "d", "t", false, &err), DB_ERR);
    expect_mysql(&err, 1051, "42S02", "Unknown table 't'");
    cr_assert_eq(cat_table_drop(c, "d", "t", true, &err), DB_OK);
    cat_catalog_free(c);
}

/* ---- columns and keys ---- */

Test(cat_schema, duplicate_column_names_are_case_insensitive)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_col(&b, "V", cat_type_make(CAT_T_INT));
    db_error err = tb_fail(c, &b);
    expect_mysql(&err, 1060, "42S21", "Duplicate column name 'V'");
    cat_catalog_free(c);
}

Test(cat_schema, hidden_delete_sign_collides_with_user_column)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    tb_col(&b, "__DORIS_DELETE_SIGN__", cat_type_make(CAT_T_TINYINT));
    db_error err = tb_fail(c, &b);
    expect_mysql(&err, 1060, "42S21", "Duplicate column name '__DORIS_DELETE_SIGN__'");
    cat_catalog_free(c);
}

Test(cat_schema, no_columns)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "table should contain at least one column");
    cat_catalog_free(c);
}

Test(cat_schema, key_columns_must_be_an_ordered_prefix)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    tb_col(&b, "a", cat_type_make(CAT_T_BIGINT));
    tb_col(&b, "name", cat_type_varchar(50));
    tb_col(&b, "s", cat_type_varchar(20));
    tb_keys(&b, CAT_KEYS_UNIQUE, "a", "s");
    tb_hash(&b, "a", 1);
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Key columns should be a ordered prefix of the schema. KeyColumns[1] "
                       "(starts from zero) is s, but corresponding column is name in the previous "
                       "columns declaration.");
    tb_keys(&b, CAT_KEYS_UNIQUE, "a", "zz");
    err = tb_fail(c, &b);
    expect_doris(&err, "Key column[zz] doesn't exist.");
    cat_catalog_free(c);
}

Test(cat_schema, key_count_rules)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.r.nkey_cols = 0;
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "The number of key columns is 0.");
    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_DUP, "k", "x");
    tb_hash(&b, "k", 1);
    err = tb_fail(c, &b);
    expect_doris(&err, "The number of key columns should be less than the number of columns.");
    cat_catalog_free(c);
}

Test(cat_schema, aggregation_rules)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_AGG);
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "AGG_KEYS table should specify aggregate type for non-key column[v]");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    b.cols[1].agg = CAT_AGG_SUM;
    err = tb_fail(c, &b);
    expect_doris(&err, "DUP_KEYS table should not specify aggregate type for non-key column[v]");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.cols[1].agg = CAT_AGG_MAX;
    err = tb_fail(c, &b);
    expect_doris(&err, "UNIQUE_KEYS table should not specify aggregate type for non-key column[v]");

    tb_simple(&b, "t", CAT_KEYS_AGG);
    b.cols[0].agg = CAT_AGG_SUM;
    b.cols[1].agg = CAT_AGG_SUM;
    err = tb_fail(c, &b);
    expect_doris(&err, "Key column[k] should not specify aggregate type.");
    cat_catalog_free(c);
}

Test(cat_schema, key_column_types)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_DOUBLE));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_hash(&b, "k", 1);
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Float or double can not used as a key, use decimal instead.");

    tb_init(&b, "d", "t");
    tb_col(&b, "k1", cat_type_make(CAT_T_INT));
    tb_col(&b, "k2", cat_type_make(CAT_T_STRING));
    tb_keys(&b, CAT_KEYS_DUP, "k1", "k2");
    tb_hash(&b, "k1", 5);
    err = tb_fail(c, &b);
    expect_doris(&err, "String Type should not be used in key column[k2]");
    cat_catalog_free(c);
}

Test(cat_schema, default_keys_follow_doris_short_key_rules)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    tb_col(&b, "a", cat_type_make(CAT_T_INT));
    tb_col(&b, "b", cat_type_make(CAT_T_BIGINT));
    tb_col(&b, "s", cat_type_varchar(20));
    tb_col(&b, "x", cat_type_make(CAT_T_INT));
    tb_hash(&b, "a", 1);
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->keys, CAT_KEYS_DUP);
    cr_assert_eq(t->nkeys, 3); /* stops after the varchar */

    tb_init(&b, "d", "t2");
    tb_col(&b, "k", cat_type_make(CAT_T_STRING));
    tb_col(&b, "v", cat_type_make(CAT_T_STRING));
    tb_hash(&b, "k", 5);
    t = tb_create(c, &b); /* empty short-key prefix: a DUPLICATE table without keys */
    cr_assert_eq(t->keys, CAT_KEYS_DUP);
    cr_assert_eq(t->nkeys, 0);
    cr_assert(!t->cols[0].is_key);

    tb_init(&b, "d", "t3");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "v", cat_type_make(CAT_T_BIGINT))->agg = CAT_AGG_SUM;
    tb_hash(&b, "k", 1);
    t = tb_create(c, &b);
    cr_assert_eq(t->keys, CAT_KEYS_AGG);
    cr_assert_eq(t->nkeys, 1);
    cat_catalog_free(c);
}

Test(cat_schema, unique_defaults_to_merge_on_write)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    cat_table *t = tb_create(c, &b);
    cr_assert(t->mow);
    cr_assert_eq(t->cols[1].agg, CAT_AGG_NONE);
    cr_assert_str_eq(t->cols[2].name, "__DORIS_DELETE_SIGN__");
    cr_assert(t->cols[2].flags & CAT_COL_HIDDEN);

    tb_simple(&b, "t2", CAT_KEYS_UNIQUE);
    tb_prop(&b, "enable_unique_key_merge_on_write", "false");
    t = tb_create(c, &b);
    cr_assert_not(t->mow);
    cr_assert_eq(t->cols[1].agg, CAT_AGG_REPLACE);

    tb_simple(&b, "t3", CAT_KEYS_UNIQUE);
    tb_prop(&b, "enable_unique_key_merge_on_write", "yes");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "enable_unique_key_merge_on_write must be `true` or `false`");

    tb_simple(&b, "t4", CAT_KEYS_DUP);
    tb_prop(&b, "enable_unique_key_merge_on_write", "true");
    err = tb_fail(c, &b);
    expect_doris(&err, "enable_unique_key_merge_on_write property only support unique key table");
    cat_catalog_free(c);
}

Test(cat_schema, cluster_keys)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    b.cluster[0] = "v";
    b.r.ncluster_cols = 1;
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Cluster keys only support unique keys table.");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.cluster[0] = "v";
    b.r.ncluster_cols = 1;
    tb_prop(&b, "enable_unique_key_merge_on_write", "false");
    err = tb_fail(c, &b);
    expect_doris(&err, "Cluster keys only support unique keys table which enabled "
                       "enable_unique_key_merge_on_write");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.cluster[0] = "v";
    b.r.ncluster_cols = 1;
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->ncluster, 1);
    cr_assert_eq(t->cluster_uids[0], t->cols[1].uid);
    cat_catalog_free(c);
}

/* ---- distribution ---- */

Test(cat_schema, distribution_rules)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_hash(&b, "k", 0);
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Number of hash distribution should be greater than zero.");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_hash(&b, "nope", 1);
    err = tb_fail(c, &b);
    expect_doris(&err, "Distribution column(nope) doesn't exist");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    tb_hash(&b, "v", 1);
    err = tb_fail(c, &b);
    expect_doris(&err, "Distribution column[v] is not key column");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_hash(&b, "k", 1);
    b.dcols[b.r.ndist_cols++] = "k";
    err = tb_fail(c, &b);
    expect_doris(&err, "Duplicate key in distribution desc is not allowed");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.r.dist_random = true;
    err = tb_fail(c, &b);
    expect_doris(&err, "Create unique keys table should not contain random distribution desc");

    tb_simple(&b, "t", CAT_KEYS_AGG);
    b.cols[1].agg = CAT_AGG_REPLACE;
    b.r.dist_random = true;
    err = tb_fail(c, &b);
    expect_doris(&err, "Create aggregate keys table with value columns of which aggregate type "
                       "is REPLACE or REPLACE_IF_NOT_NULL should not contain random distribution "
                       "desc");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    b.r.dist_random = true;
    b.r.buckets = 0;
    err = tb_fail(c, &b);
    expect_doris(&err, "Number of random distribution should be greater than zero.");

    /* HASH() without columns takes the first column; BUCKETS AUTO gets the default count. */
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_hash(&b, NULL, 1);
    b.r.buckets_auto = true;
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->ndist, 1);
    cr_assert_eq(t->dist_uids[0], t->cols[0].uid);
    cr_assert(t->buckets_auto);
    cr_assert_gt(t->parts[0].buckets, 0);
    cat_catalog_free(c);
}

/* ---- partitions ---- */

Test(cat_schema, unpartitioned_table_has_one_partition_named_after_it)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "orders", CAT_KEYS_DUP);
    tb_hash(&b, "k", 8);
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->nparts, 1);
    cr_assert_str_eq(t->parts[0].name, "orders");
    cr_assert_eq(t->parts[0].buckets, 8);
    cat_catalog_free(c);
}

Test(cat_schema, range_partitions_less_than_and_fixed)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "10");
    tb_less(&b, "p2", "+020");
    tb_less(&b, "pmax", NULL);
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->nparts, 3);
    cr_assert(t->parts[0].lower_min);
    cr_assert_str_eq(t->parts[0].upper, "10");
    cr_assert_str_eq(t->parts[1].lower, "10");
    cr_assert_str_eq(t->parts[1].upper, "20");
    cr_assert(t->parts[2].upper_max);
    cr_assert_str_eq(t->parts[2].lower, "20");

    tb_simple(&b, "t2", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_fixed(&b, "p1", "1", "5");
    tb_fixed(&b, "p2", "3", "8");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Range [types: [INT]; keys: [3]; ..types: [INT]; keys: [8]; ) is "
                       "intersected with range: [types: [INT]; keys: [1]; ..types: [INT]; keys: "
                       "[5]; )");

    tb_simple(&b, "t3", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_fixed(&b, "p1", "5", "5");
    err = tb_fail(c, &b);
    expect_doris(&err, "The lower values must smaller than upper values");
    cat_catalog_free(c);
}

Test(cat_schema, partition_value_checks)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "abc");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Invalid number format: abc");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "2147483648");
    err = tb_fail(c, &b);
    expect_doris(&err, "Number out of range[2147483648]. type: INT");

    tb_init(&b, "d", "t");
    tb_col(&b, "dt", cat_type_make(CAT_T_DATE));
    tb_col(&b, "v", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_DUP, "dt", NULL);
    tb_hash(&b, "dt", 1);
    tb_part_by(&b, CAT_PART_RANGE, "dt");
    tb_less(&b, "p1", "2024-02-30");
    err = tb_fail(c, &b);
    expect_doris(&err, "date literal [2024-02-30] is invalid");
    cat_catalog_free(c);
}

Test(cat_schema, partition_column_rules)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "zz");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "partition key zz is not exists");

    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    tb_part_by(&b, CAT_PART_RANGE, "v");
    err = tb_fail(c, &b);
    expect_doris(&err, "The partition column could not be aggregated column");

    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "f", cat_type_make(CAT_T_FLOAT));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_hash(&b, "k", 1);
    tb_part_by(&b, CAT_PART_RANGE, "f");
    err = tb_fail(c, &b);
    expect_doris(&err, "Floating point type column can not be partition column");

    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "s", cat_type_make(CAT_T_STRING));
    tb_keys(&b, CAT_KEYS_DUP, "k", NULL);
    tb_hash(&b, "k", 1);
    tb_part_by(&b, CAT_PART_LIST, "s");
    err = tb_fail(c, &b);
    expect_doris(&err, "String Type should not be used in partition column[s].");

    /* A nullable LIST column is fine since Doris #31613 (test_tmp_part.c: NULL values). */

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "1");
    tb_less(&b, "p1", "2");
    err = tb_fail(c, &b);
    expect_doris(&err, "Duplicated named partition: p1");

    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_in(&b, "p1", "1", NULL);
    err = tb_fail(c, &b);
    expect_doris(&err, "partitions types is invalid, expected FIXED or LESS in range partitions "
                       "and IN in list partitions");
    cat_catalog_free(c);
}

Test(cat_schema, list_partitions)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    b.cols[0].null_given = true;
    b.cols[0].nullable = false;
    tb_part_by(&b, CAT_PART_LIST, "k");
    tb_in(&b, "p1", "1", "2");
    tb_in(&b, "p2", "3", NULL);
    cat_table *t = tb_create(c, &b);
    cr_assert_eq(t->nparts, 2);
    cr_assert_eq(t->parts[0].nvalues, 2);
    cr_assert_str_eq(t->parts[1].values[0], "3");

    tb_simple(&b, "t2", CAT_KEYS_DUP);
    b.cols[0].null_given = true;
    tb_part_by(&b, CAT_PART_LIST, "k");
    tb_in(&b, "p1", "1", "2");
    tb_in(&b, "p2", "2", NULL);
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "The partition key[(\"2\")] in partition item[p2] is conflict with "
                       "current partitionKeys[p1]");
    cat_catalog_free(c);
}

Test(cat_schema, add_and_drop_partition)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "10");
    cat_table *t = tb_create(c, &b);
    db_error err;
    db_error_clear(&err);
    cat_partition_def d = {.name = "p2", .kind = CAT_PDEF_LESS_THAN, .upper = "20"};
    int64_t before = cat_catalog_next_id(c);
    cr_assert_eq(cat_table_add_partition(c, t, &d, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(t->parts[1].id, before);
    cr_assert_str_eq(t->parts[1].lower, "10");
    cr_assert_eq(cat_table_add_partition(c, t, &d, &err), DB_ERR);
    expect_doris(&err, "Duplicate partition name p2");
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_partition(t, "p9", false, &err), DB_ERR);
    expect_doris(&err, "Error in list of partitions to p9");
    cr_assert_eq(cat_table_drop_partition(t, "p9", true, &err), DB_OK);
    cr_assert_eq(cat_table_drop_partition(t, "P1", false, &err), DB_OK);
    cr_assert_eq(t->nparts, 1);
    cat_catalog_free(c);
}

/* ---- unknown properties ---- */

Test(cat_schema, unknown_properties)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "replication_num", "1");
    tb_prop(&b, "foo", "bar");
    db_error err = tb_fail(c, &b);
    expect_doris(&err, "Unknown properties: {foo=bar}");
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_prop(&b, "replication_num", "1");
    tb_prop(&b, "storage_medium", "ssd");
    cat_table *t = tb_create(c, &b);
    cr_assert_str_eq(cat_props_get(&t->props, "storage_medium"), "ssd");
    cr_assert_null(cat_props_get(&t->props, "replication_num"));
    cat_catalog_free(c);
}

/* ---- ALTER columns ---- */

Test(cat_schema, add_column_gets_a_new_uid_and_keeps_others)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    cat_table *t = tb_create(c, &b);
    int32_t uid_v = cat_table_column(t, "v")->uid;
    cat_column_def d = {.name = "w", .type = cat_type_make(CAT_T_BIGINT)};
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_table_add_column(t, &d, NULL, false, &err), DB_OK, "%s", err.msg);
    cat_column *w = cat_table_column(t, "w");
    cr_assert_not_null(w);
    cr_assert_eq((size_t)(w - t->cols), 2); /* before the hidden delete sign */
    cr_assert_gt(w->uid, uid_v);
    cr_assert_eq(cat_table_column(t, "v")->uid, uid_v);
    cr_assert_eq(cat_table_add_column(t, &d, NULL, false, &err), DB_ERR);
    expect_mysql(&err, 1060, "42S21", "Duplicate column name 'w'");
    /* Drop then re-add: a fresh uid. */
    int32_t old = w->uid;
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_column(t, "w", &err), DB_OK);
    cr_assert_eq(cat_table_add_column(t, &d, "k", false, &err), DB_OK);
    cr_assert_gt(cat_table_column(t, "w")->uid, old);
    cr_assert_eq((size_t)(cat_table_column(t, "w") - t->cols), 1);
    cat_catalog_free(c);
}

Test(cat_schema, drop_column_rules)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    cat_table *t = tb_create(c, &b);
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_column(t, "k", &err), DB_ERR);
    expect_doris(&err, "Can not drop key column in Unique data model table");
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_column(t, "nope", &err), DB_ERR);
    expect_mysql(&err, 1091, "42000", "Can't DROP 'nope'; check that column/key exists");
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop_column(t, "__DORIS_DELETE_SIGN__", &err), DB_ERR);
    cat_catalog_free(c);
}

Test(cat_schema, rename_table_and_column)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    cat_table *t = tb_create(c, &b);
    tb_simple(&b, "u", CAT_KEYS_DUP);
    tb_create(c, &b);
    cat_db *db = cat_db_find(c, "d");
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_table_rename(db, t, "u", &err), DB_ERR);
    expect_mysql(&err, 1050, "42S01", "Table 'u' already exists");
    cr_assert_eq(cat_table_rename(db, t, "t2", &err), DB_OK);
    cr_assert_eq(cat_table_find(db, "t2"), t);
    cr_assert_str_eq(t->parts[0].name, "t2");
    int32_t uid = cat_table_column(t, "v")->uid;
    cr_assert_eq(cat_table_rename_column(t, "v", "v2", &err), DB_OK);
    cr_assert_eq(cat_table_column(t, "v2")->uid, uid);
    db_error_clear(&err);
    cr_assert_eq(cat_table_rename_column(t, "v2", "K", &err), DB_ERR);
    expect_doris(&err, "Column name[K] is already used");
    cat_catalog_free(c);
}

/* ---- encoding ---- */

Test(cat_schema, table_encoding_round_trip)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    tb_col(&b, "k", cat_type_make(CAT_T_INT))->null_given = true;
    cat_column_def *v = tb_col(&b, "v", cat_type_decimal(10, 2));
    v->has_default = true;
    v->default_text = "1.50";
    v->comment = "amount";
    tb_col(&b, "ts", cat_type_datetime(3));
    tb_keys(&b, CAT_KEYS_UNIQUE, "k", NULL);
    tb_hash(&b, "k", 4);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "100");
    tb_less(&b, "p2", NULL);
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    tb_prop(&b, "binlog.need_historical_value", "true");
    tb_prop(&b, "binlog.ttl_seconds", "3600");
    tb_prop(&b, "storage_medium", "ssd");
    b.r.comment = "the table";
    cat_table *t = tb_create(c, &b);

    buf enc;
    buf_init(&enc);
    cat_table_encode(t, &enc);
    cr_assert_eq(enc.data[0], CAT_SCHEMA_ENCODING_VERSION);
    db_error err;
    db_error_clear(&err);
    cat_table *d = cat_table_decode(enc.data, enc.len, &err);
    cr_assert_not_null(d, "%s", err.msg);
    char *s1 = tb_show(t);
    char *s2 = tb_show(d);
    cr_assert_str_eq(s1, s2);
    cr_assert_eq(d->id, t->id);
    cr_assert_eq(d->ncols, t->ncols);
    for (size_t i = 0; i < t->ncols; i++) {
        cr_assert_eq(d->cols[i].uid, t->cols[i].uid);
        cr_assert_eq(d->cols[i].flags, t->cols[i].flags);
    }
    cr_assert_eq(d->parts[1].id, t->parts[1].id);
    cr_assert_eq(d->binlog.ttl_seconds, 3600);
    cr_assert(d->binlog.need_historical_value);
    /* Re-encoding is byte-identical. */
    buf enc2;
    buf_init(&enc2);
    cat_table_encode(d, &enc2);
    cr_assert_eq(enc2.len, enc.len);
    cr_assert_eq(memcmp(enc2.data, enc.data, enc.len), 0);
    free(s1);
    free(s2);
    cat_table_free(d);
    buf_destroy(&enc2);

    /* Every truncation fails cleanly; a trailing byte fails; a bad version fails. */
    for (size_t n = 0; n < enc.len; n++) {
        db_error_clear(&err);
        cr_assert_null(cat_table_decode(enc.data, n, &err), "prefix %zu decoded", n);
        cr_assert_eq(err.code, 1105);
    }
    buf_put_u8(&enc, 0);
    db_error_clear(&err);
    cr_assert_null(cat_table_decode(enc.data, enc.len, &err));
    cr_assert_str_eq(err.msg, "Catalog object encoding is malformed: trailing bytes");
    enc.data[0] = 99;
    db_error_clear(&err);
    cr_assert_null(cat_table_decode(enc.data, enc.len - 1, &err));
    cr_assert_str_eq(err.msg, "Catalog object encoding is malformed: unknown encoding version");
    buf_destroy(&enc);
    cat_catalog_free(c);
}

Test(cat_schema, database_encoding_round_trip_and_install)
{
    cat_catalog *c = tb_catalog();
    db_error err;
    db_error_clear(&err);
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "binlog.ttl_seconds", "7");
    cr_assert_eq(cat_db_set_properties(c, "d", &p, &err), DB_OK);
    cat_props_destroy(&p);
    tb b;
    tb_simple(&b, "t1", CAT_KEYS_DUP);
    tb_create(c, &b);
    tb_simple(&b, "t2", CAT_KEYS_UNIQUE);
    tb_create(c, &b);
    buf enc;
    buf_init(&enc);
    cat_db_encode(cat_db_find(c, "d"), &enc);
    int64_t next = cat_catalog_next_id(c);

    cat_catalog *c2 = cat_catalog_new();
    cat_db *db = cat_db_decode(enc.data, enc.len, &err);
    cr_assert_not_null(db, "%s", err.msg);
    cr_assert_eq(cat_db_install(c2, db, &err), DB_OK);
    cr_assert_geq(cat_catalog_next_id(c2), next);
    cat_db *d2 = cat_db_find(c2, "d");
    cr_assert_eq(d2->ntables, 2);
    cr_assert_str_eq(cat_props_get(&d2->props, "binlog.ttl_seconds"), "7");
    char *s1 = tb_show(cat_table_find(cat_db_find(c, "d"), "t2"));
    char *s2 = tb_show(cat_table_find(d2, "t2"));
    cr_assert_str_eq(s1, s2);
    free(s1);
    free(s2);
    /* Installing the same database again is refused. */
    cat_db *again = cat_db_decode(enc.data, enc.len, &err);
    cr_assert_eq(cat_db_install(c2, again, &err), DB_ERR);
    cat_db_free(again);
    for (size_t n = 0; n < enc.len; n += 7) {
        db_error_clear(&err);
        cr_assert_null(cat_db_decode(enc.data, n, &err));
    }
    buf_destroy(&enc);
    cat_catalog_free(c2);
    cat_catalog_free(c);
}

Test(cat_schema, table_install_replays_with_ids)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    cat_table *t = tb_create(c, &b);
    buf enc;
    buf_init(&enc);
    cat_table_encode(t, &enc);
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_table_drop(c, "d", "t", false, &err), DB_OK);
    cat_table *d = cat_table_decode(enc.data, enc.len, &err);
    cr_assert_eq(cat_table_install(c, d, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_table_find(cat_db_find(c, "d"), "t")->id, t == NULL ? 0 : d->id);
    cat_table *dup = cat_table_decode(enc.data, enc.len, &err);
    cr_assert_eq(cat_table_install(c, dup, &err), DB_ERR);
    cat_table_free(dup);
    buf_destroy(&enc);
    cat_catalog_free(c);
}
