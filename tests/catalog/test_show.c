/* SPDX-License-Identifier: Apache-2.0
 * Unit tests: SHOW CREATE TABLE / DATABASE text, DESC rows and SHOW PARTITIONS rows in Doris's
 * formats (sources in catalog/README.md §"SHOW formats"). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/cat_schema.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "tests/catalog/cat_schema_test.h"

/* The PROPERTIES lines every OLAP table prints before its model-specific ones. */
#define HEAD_PROPS                                                \
    "PROPERTIES (\n"                                              \
    "\"replication_allocation\" = \"tag.location.default: 1\",\n" \
    "\"min_load_replica_num\" = \"-1\",\n"                        \
    "\"is_being_synced\" = \"false\",\n"                          \
    "\"storage_medium\" = \"hdd\",\n"                             \
    "\"storage_format\" = \"V2\",\n"                              \
    "\"inverted_index_storage_format\" = \"V2\",\n"

#define TAIL_PROPS                                        \
    "\"enable_single_replica_compaction\" = \"false\",\n" \
    "\"group_commit_interval_ms\" = \"10000\",\n"         \
    "\"group_commit_data_bytes\" = \"134217728\""

Test(cat_show, duplicate_table)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "sales");
    tb_col(&b, "sale_id", cat_type_make(CAT_T_INT));
    cat_column_def *amt = tb_col(&b, "sale_amount", cat_type_decimal(10, 2));
    amt->null_given = true;
    amt->nullable = false;
    amt->has_default = true;
    amt->default_text = "0";
    amt->comment = "amount \"gross\"";
    tb_col(&b, "sale_date", cat_type_make(CAT_T_DATE));
    tb_col(&b, "note", cat_type_make(CAT_T_STRING));
    tb_keys(&b, CAT_KEYS_DUP, "sale_id", NULL);
    tb_hash(&b, "sale_id", 10);
    cat_table *t = tb_create(c, &b);
    char *s = tb_show(t);
    cr_assert_str_eq(s, "CREATE TABLE `sales` (\n"
                        "  `sale_id` int NULL,\n"
                        "  `sale_amount` decimal(10,2) NOT NULL DEFAULT \"0\" COMMENT \"amount "
                        "\\\"gross\\\"\",\n"
                        "  `sale_date` date NULL,\n"
                        "  `note` text NULL\n"
                        ") ENGINE=OLAP\n"
                        "DUPLICATE KEY(`sale_id`)\n"
                        "DISTRIBUTED BY HASH(`sale_id`) BUCKETS 10\n" HEAD_PROPS
                        "\"light_schema_change\" = \"true\",\n"
                        "\"disable_auto_compaction\" = \"false\",\n"
                        "\"binlog.enable\" = \"false\",\n"
                        "\"binlog.ttl_seconds\" = \"86400\",\n"
                        "\"binlog.max_bytes\" = \"9223372036854775807\",\n"
                        "\"binlog.max_history_nums\" = \"9223372036854775807\",\n"
                        "\"binlog.format\" = \"STATEMENT_AND_SNAPSHOT\",\n" TAIL_PROPS "\n);");
    free(s);
    cat_catalog_free(c);
}

/* Seed 001's table: UNIQUE MoW with Row Binlog and the before image; the binlog.* block in
 * the seed's order, need_historical_value included because the format is ROW. */
Test(cat_show, unique_row_binlog_table)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "orders");
    tb_col(&b, "order_id", cat_type_make(CAT_T_BIGINT));
    tb_col(&b, "status", cat_type_varchar(16));
    tb_col(&b, "amount", cat_type_decimal(10, 2));
    tb_keys(&b, CAT_KEYS_UNIQUE, "order_id", NULL);
    tb_hash(&b, "order_id", 8);
    tb_prop(&b, "enable_unique_key_merge_on_write", "true");
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    tb_prop(&b, "binlog.need_historical_value", "true");
    tb_prop(&b, "binlog.ttl_seconds", "86400");
    b.r.comment = "orders' table";
    cat_table *t = tb_create(c, &b);
    char *s = tb_show(t);
    cr_assert_str_eq(s, "CREATE TABLE `orders` (\n"
                        "  `order_id` bigint NULL,\n"
                        "  `status` varchar(16) NULL,\n"
                        "  `amount` decimal(10,2) NULL\n"
                        ") ENGINE=OLAP\n"
                        "UNIQUE KEY(`order_id`)\n"
                        "COMMENT 'orders\\' table'\n"
                        "DISTRIBUTED BY HASH(`order_id`) BUCKETS 8\n" HEAD_PROPS
                        "\"enable_unique_key_merge_on_write\" = \"true\",\n"
                        "\"light_schema_change\" = \"true\",\n"
                        "\"disable_auto_compaction\" = \"false\",\n"
                        "\"binlog.enable\" = \"true\",\n"
                        "\"binlog.ttl_seconds\" = \"86400\",\n"
                        "\"binlog.max_bytes\" = \"9223372036854775807\",\n"
                        "\"binlog.max_history_nums\" = \"9223372036854775807\",\n"
                        "\"binlog.format\" = \"ROW\",\n"
                        "\"binlog.need_historical_value\" = \"true\",\n" TAIL_PROPS ",\n"
                        "\"enable_mow_light_delete\" = \"false\"\n);");
    free(s);

    /* ALTER TABLE SET ttl shows up (seed 001 "Configuring retention"). */
    db_error err;
    db_error_clear(&err);
    cat_prop p = {"binlog.ttl_seconds", "604800"};
    cr_assert_eq(cat_table_set_properties(cat_db_find(c, "d"), t, &p, 1, &err), DB_OK);
    s = tb_show(t);
    cr_assert(strstr(s, "\"binlog.ttl_seconds\" = \"604800\"") != NULL);
    free(s);
    cat_catalog_free(c);
}

Test(cat_show, aggregate_and_mor_columns)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "a");
    tb_col(&b, "k", cat_type_make(CAT_T_INT));
    tb_col(&b, "v", cat_type_make(CAT_T_BIGINT))->agg = CAT_AGG_SUM;
    tb_col(&b, "r", cat_type_varchar(5))->agg = CAT_AGG_REPLACE;
    tb_keys(&b, CAT_KEYS_AGG, "k", NULL);
    tb_hash(&b, "k", 1);
    char *s = tb_show(tb_create(c, &b));
    cr_assert(strstr(s, "  `v` bigint SUM NULL,\n  `r` varchar(5) REPLACE NULL\n") != NULL, "%s",
              s);
    cr_assert(strstr(s, "AGGREGATE KEY(`k`)\n") != NULL);
    free(s);

    tb_simple(&b, "mor", CAT_KEYS_UNIQUE);
    tb_prop(&b, "enable_unique_key_merge_on_write", "false");
    s = tb_show(tb_create(c, &b));
    /* REPLACE is implicit on Unique tables and never printed; no MoW property. */
    cr_assert(strstr(s, "  `v` varchar(10) NULL\n") != NULL, "%s", s);
    cr_assert_null(strstr(s, "enable_unique_key_merge_on_write"));
    cr_assert_null(strstr(s, "enable_mow_light_delete"));
    free(s);
    cat_catalog_free(c);
}

Test(cat_show, range_partitioned_table_sorted_by_bound)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_fixed(&b, "p2", "10", "20");
    tb_less(&b, "p1", "10");
    tb_fixed(&b, "p3", "20", NULL);
    b.r.dist_random = true;
    b.r.buckets_auto = true;
    cat_table *t = tb_create(c, &b);
    char *s = tb_show(t);
    cr_assert(strstr(s, ") ENGINE=OLAP\n"
                        "DUPLICATE KEY(`k`)\n"
                        "PARTITION BY RANGE(`k`)\n"
                        "(PARTITION p1 VALUES [(\"-2147483648\"), (\"10\")),\n"
                        "PARTITION p2 VALUES [(\"10\"), (\"20\")),\n"
                        "PARTITION p3 VALUES [(\"20\"), (MAXVALUE)))\n"
                        "DISTRIBUTED BY RANDOM BUCKETS AUTO\n"
                        "PROPERTIES (\n") != NULL,
              "%s", s);
    free(s);
    cat_catalog_free(c);
}

Test(cat_show, list_partitioned_table)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    cat_column_def *city = tb_col(&b, "city", cat_type_varchar(20));
    city->null_given = true;
    tb_col(&b, "v", cat_type_make(CAT_T_INT));
    tb_keys(&b, CAT_KEYS_DUP, "city", NULL);
    tb_hash(&b, "city", 2);
    tb_part_by(&b, CAT_PART_LIST, "city");
    tb_in(&b, "p_bj", "Beijing", "beijing");
    tb_in(&b, "p_cd", "Chengdu", NULL);
    char *s = tb_show(tb_create(c, &b));
    cr_assert(strstr(s, "PARTITION BY LIST(`city`)\n"
                        "(PARTITION p_bj VALUES IN (\"Beijing\",\"beijing\"),\n"
                        "PARTITION p_cd VALUES IN (\"Chengdu\"))\n"
                        "DISTRIBUTED BY HASH(`city`) BUCKETS 2\n") != NULL,
              "%s", s);
    free(s);
    cat_catalog_free(c);
}

Test(cat_show, column_details)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_init(&b, "d", "t");
    cat_column_def *id = tb_col(&b, "id", cat_type_make(CAT_T_BIGINT));
    id->auto_inc = true;
    tb_col(&b, "ts", cat_type_datetime(3));
    cat_column_def *now = tb_col(&b, "created", cat_type_make(CAT_T_DATETIME));
    now->has_default = true;
    now->default_is_expr = true;
    now->default_text = "CURRENT_TIMESTAMP";
    cat_column_def *dn = tb_col(&b, "n", cat_type_char(4));
    dn->has_default = true;
    dn->default_is_null = true;
    tb_col(&b, "big", cat_type_make(CAT_T_LARGEINT));
    tb_col(&b, "flag", cat_type_make(CAT_T_BOOLEAN));
    tb_col(&b, "arr", cat_type_make(CAT_T_ARRAY));
    strcpy(b.cols[6].type.inner, "int");
    tb_keys(&b, CAT_KEYS_DUP, "id", NULL);
    tb_hash(&b, "id", 1);
    char *s = tb_show(tb_create(c, &b));
    cr_assert(strstr(s, "  `id` bigint NOT NULL AUTO_INCREMENT(1),\n"
                        "  `ts` datetime(3) NULL,\n"
                        "  `created` datetime NULL DEFAULT CURRENT_TIMESTAMP,\n"
                        "  `n` char(4) NULL,\n"
                        "  `big` largeint NULL,\n"
                        "  `flag` boolean NULL,\n"
                        "  `arr` array<int> NULL\n") != NULL,
              "%s", s);
    free(s);
    cat_catalog_free(c);
}

Test(cat_show, create_database)
{
    cat_catalog *c = tb_catalog();
    buf out;
    buf_init(&out);
    cat_show_create_database(cat_db_find(c, "d"), &out);
    buf_put_u8(&out, 0);
    cr_assert_str_eq((const char *)out.data, "CREATE DATABASE `d`");
    db_error err;
    db_error_clear(&err);
    cat_props p;
    cat_props_init(&p);
    cat_props_set(&p, "binlog.enable", "true");
    cat_props_set(&p, "binlog.ttl_seconds", "3600");
    cr_assert_eq(cat_db_set_properties(c, "d", &p, &err), DB_OK);
    cat_props_destroy(&p);
    buf_clear(&out);
    cat_show_create_database(cat_db_find(c, "d"), &out);
    buf_put_u8(&out, 0);
    cr_assert_str_eq((const char *)out.data, "CREATE DATABASE `d`\n"
                                             "PROPERTIES (\n"
                                             "\"binlog.enable\" = \"true\",\n"
                                             "\"binlog.ttl_seconds\" = \"3600\"\n"
                                             ")");
    buf_destroy(&out);
    cat_catalog_free(c);
}

Test(cat_show, desc_rows)
{
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_UNIQUE);
    b.cols[1].has_default = true;
    b.cols[1].default_text = "x";
    tb_prop(&b, "binlog.enable", "true");
    tb_prop(&b, "binlog.format", "ROW");
    cat_table *t = tb_create(c, &b);
    cat_desc_row rows[8];
    cr_assert_eq(cat_show_columns(t, false, NULL, 0), 2);
    size_t n = cat_show_columns(t, false, rows, 8);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(rows[0].field, "k");
    cr_assert_str_eq(rows[0].type, "int");
    cr_assert_str_eq(rows[0].null, "Yes");
    cr_assert_str_eq(rows[0].key, "true");
    cr_assert_null(rows[0].default_value);
    cr_assert_str_eq(rows[0].extra, "");
    cr_assert_str_eq(rows[1].type, "varchar(10)");
    cr_assert_str_eq(rows[1].key, "false");
    cr_assert_str_eq(rows[1].default_value, "x");
    cr_assert_str_eq(rows[1].extra, "NONE");

    n = cat_show_columns(t, true, rows, 8);
    cr_assert_eq(n, 4);
    cr_assert_str_eq(rows[2].field, "__DORIS_DELETE_SIGN__");
    cr_assert_str_eq(rows[2].type, "tinyint");
    cr_assert_str_eq(rows[2].null, "No");
    cr_assert_str_eq(rows[2].default_value, "0");
    cr_assert_str_eq(rows[3].field, "__DORIS_COMMIT_TSO_COL__");
    cr_assert_str_eq(rows[3].type, "bigint");

    tb_simple(&b, "agg", CAT_KEYS_AGG);
    b.cols[1].agg = CAT_AGG_MAX;
    n = cat_show_columns(tb_create(c, &b), true, rows, 8);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(rows[1].extra, "MAX");
    cat_catalog_free(c);
}

/* Splits a NUL-separated SHOW PARTITIONS row. */
static size_t
split_row(const buf *row, const char **cols, size_t max)
{
    size_t n = 0;
    size_t off = 0;
    while (off < row->len && n < max) {
        cols[n++] = (const char *)row->data + off;
        off += strlen((const char *)row->data + off) + 1;
    }
    return n;
}

Test(cat_show, show_partitions_rows)
{
    cr_assert_str_eq(cat_show_partitions_columns[0], "PartitionId");
    cr_assert_str_eq(cat_show_partitions_columns[6], "Range");
    cr_assert_str_eq(cat_show_partitions_columns[CAT_SHOW_PARTITIONS_NCOLS - 1], "RowCount");
    cat_catalog *c = tb_catalog();
    tb b;
    tb_simple(&b, "t", CAT_KEYS_DUP);
    tb_hash(&b, "k", 3);
    tb_part_by(&b, CAT_PART_RANGE, "k");
    tb_less(&b, "p1", "10");
    tb_less(&b, "p2", NULL);
    cat_table *t = tb_create(c, &b);
    buf row;
    buf_init(&row);
    cat_show_partition_row(t, 0, &row);
    const char *cols[32];
    cr_assert_eq(split_row(&row, cols, 32), CAT_SHOW_PARTITIONS_NCOLS);
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)t->parts[0].id);
    cr_assert_str_eq(cols[0], id);
    cr_assert_str_eq(cols[1], "p1");
    cr_assert_str_eq(cols[4], "NORMAL");
    cr_assert_str_eq(cols[5], "k");
    cr_assert_str_eq(cols[6], "[types: [INT]; keys: [-2147483648]; ..types: [INT]; keys: [10]; )");
    cr_assert_str_eq(cols[7], "k");
    cr_assert_str_eq(cols[8], "3");
    buf_clear(&row);
    cat_show_partition_row(t, 1, &row);
    cr_assert_eq(split_row(&row, cols, 32), CAT_SHOW_PARTITIONS_NCOLS);
    cr_assert_str_eq(cols[6], "[types: [INT]; keys: [10]; ..types: [INT]; keys: [MAXVALUE]; )");

    tb_simple(&b, "plain", CAT_KEYS_DUP);
    b.r.dist_random = true;
    t = tb_create(c, &b);
    buf_clear(&row);
    cat_show_partition_row(t, 0, &row);
    cr_assert_eq(split_row(&row, cols, 32), CAT_SHOW_PARTITIONS_NCOLS);
    cr_assert_str_eq(cols[1], "plain");
    cr_assert_str_eq(cols[5], "");
    cr_assert_str_eq(cols[7], "RANDOM");
    buf_destroy(&row);
    cat_catalog_free(c);
}

Test(cat_show, type_text)
{
    char s[64];
    cat_type t = cat_type_varchar(65533);
    cat_type_sql_buf(&t, s, sizeof s);
    cr_assert_str_eq(s, "varchar(65533)");
    t = cat_type_make(CAT_T_STRING);
    cat_type_sql_buf(&t, s, sizeof s);
    cr_assert_str_eq(s, "text");
    t = cat_type_decimal(38, 10);
    cat_type_sql_buf(&t, s, sizeof s);
    cr_assert_str_eq(s, "decimal(38,10)");
    t = cat_type_datetime(0);
    cat_type_sql_buf(&t, s, sizeof s);
    cr_assert_str_eq(s, "datetime");
    db_error err;
    db_error_clear(&err);
    t = cat_type_decimal(39, 2);
    cr_assert_eq(cat_type_validate(&t, "x", &err), DB_ERR);
    cr_assert_eq(err.code, 1105);
    t = cat_type_varchar(65534);
    db_error_clear(&err);
    cr_assert_eq(cat_type_validate(&t, "x", &err), DB_ERR);
    t = cat_type_char(255);
    db_error_clear(&err);
    cr_assert_eq(cat_type_validate(&t, "x", &err), DB_OK);
}
