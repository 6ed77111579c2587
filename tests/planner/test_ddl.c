/* SPDX-License-Identifier: Apache-2.0
 * DDL through plan_execute over a real cat_meta in a temporary directory: databases, CREATE
 * TABLE (models, partitions, distribution, properties, LIKE, PRIMARY KEY), ALTER TABLE, DROP,
 * the catalog SHOW statements, information_schema over the catalog, SELECT of a catalog table,
 * COM_FIELD_LIST, CURRENT_TSO(), seed 001's errors, and persistence across close / reopen. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "plan_testutil.h"

static char dir[64];

static void
setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rivulet-test-ddl-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void
teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(plan_ddl, .init = setup, .fini = teardown);

static void
must(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

/* Expect failure with code and exactly msg. */
static void
fails(tx *t, const char *sql, int code, const char *msg)
{
    cr_assert_neq(tx_exec(t, sql), DB_OK, "%s succeeded", sql);
    cr_assert_eq(t->err.code, code, "%s: %d %s", sql, t->err.code, t->err.msg);
    if (msg) {
        cr_assert_str_eq(t->err.msg, msg, "%s", sql);
    }
}

/* All rows of column col joined by ','. */
static const char *
column_text(tx *t, size_t col)
{
    static char text[8192];
    size_t len = 0;
    text[0] = '\0';
    for (size_t r = 0; r < t->nrows; r++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", r ? "," : "",
                                tx_cell(t, r, col));
    }
    return text;
}

#define ORDERS                                                                          \
    "CREATE TABLE orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) " \
    "UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 8 PROPERTIES ("         \
    "\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", "   \
    "\"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\", "        \
    "\"binlog.ttl_seconds\" = \"86400\")"

static const char *const orders_show = "CREATE TABLE `orders` (\n"
                                       "  `order_id` bigint NULL,\n"
                                       "  `status` varchar(16) NULL,\n"
                                       "  `amount` decimal(10,2) NULL\n"
                                       ") ENGINE=OLAP\n"
                                       "UNIQUE KEY(`order_id`)\n"
                                       "DISTRIBUTED BY HASH(`order_id`) BUCKETS 8\n"
                                       "PROPERTIES (\n"
                                       "\"replication_allocation\" = \"tag.location.default: 1\",\n"
                                       "\"min_load_replica_num\" = \"-1\",\n"
                                       "\"is_being_synced\" = \"false\",\n"
                                       "\"storage_medium\" = \"hdd\",\n"
                                       "\"storage_format\" = \"V2\",\n"
                                       "\"inverted_index_storage_format\" = \"V2\",\n"
                                       "\"enable_unique_key_merge_on_write\" = \"true\",\n"
                                       "\"light_schema_change\" = \"true\",\n"
                                       "\"disable_auto_compaction\" = \"false\",\n"
                                       "\"binlog.enable\" = \"true\",\n"
                                       "\"binlog.ttl_seconds\" = \"86400\",\n"
                                       "\"binlog.max_bytes\" = \"9223372036854775807\",\n"
                                       "\"binlog.max_history_nums\" = \"9223372036854775807\",\n"
                                       "\"binlog.format\" = \"ROW\",\n"
                                       "\"binlog.need_historical_value\" = \"true\",\n"
                                       "\"enable_single_replica_compaction\" = \"false\",\n"
                                       "\"group_commit_interval_ms\" = \"10000\",\n"
                                       "\"group_commit_data_bytes\" = \"134217728\",\n"
                                       "\"enable_mow_light_delete\" = \"false\"\n"
                                       ");";

Test(plan_ddl, fresh_catalog)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "SHOW DATABASES"), DB_OK);
    cr_assert_str_eq(column_text(t, 0), "information_schema,mysql");
    cr_assert_eq(tx_exec(t, "SELECT current_tso() IS NOT NULL"), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    must(t, "CREATE DATABASE d");
    cr_assert_eq(tx_exec(t, "SHOW DATABASES"), DB_OK);
    cr_assert_str_eq(column_text(t, 0), "d,information_schema,mysql");
    tx_free(t);
}

Test(plan_ddl, databases)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE d1");
    must(t, "CREATE DATABASE IF NOT EXISTS d1");
    fails(t, "CREATE DATABASE d1", 1007, "Can't create database 'd1'; database exists");
    fails(t, "CREATE DATABASE mysql", 1007, NULL);
    must(t, "CREATE SCHEMA d0 PROPERTIES (\"binlog.ttl_seconds\" = \"60\")");
    must(t, "SHOW DATABASES");
    cr_assert_str_eq(t->cols[0].name, "Database");
    cr_assert_str_eq(column_text(t, 0), "d0,d1,information_schema,mysql");
    must(t, "SHOW DATABASES LIKE 'd%'");
    cr_assert_str_eq(column_text(t, 0), "d0,d1");
    must(t, "SHOW CREATE DATABASE d0");
    cr_assert_str_eq(t->cols[1].name, "Create Database");
    cr_assert_str_eq(tx_cell(t, 0, 1),
                     "CREATE DATABASE `d0`\nPROPERTIES (\n\"binlog.ttl_seconds\" = \"60\"\n)");
    must(t, "ALTER DATABASE d1 SET PROPERTIES (\"binlog.ttl_seconds\" = \"600\")");
    must(t, "SHOW CREATE DATABASE d1");
    cr_assert(strstr(tx_cell(t, 0, 1), "\"binlog.ttl_seconds\" = \"600\"") != NULL);
    fails(t, "ALTER DATABASE nope SET PROPERTIES (\"binlog.ttl_seconds\" = \"1\")", 1049, NULL);
    fails(t, "SHOW CREATE DATABASE nope", 1049, "Unknown database 'nope'");
    must(t, "USE d1");
    cr_assert_str_eq(tx_one(t, "SELECT DATABASE()"), "d1");
    fails(t, "USE nope", 1049, NULL);
    must(t, "DROP DATABASE d1 FORCE");
    cr_assert_str_eq(tx_one(t, "SELECT DATABASE()"), "NULL");
    fails(t, "DROP DATABASE d1", 1008, "Can't drop database 'd1'; database doesn't exist");
    must(t, "DROP DATABASE IF EXISTS d1");
    must(t, "USE mysql");
    tx_close(t, false);
}

Test(plan_ddl, create_table_seed001_orders)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE demo");
    fails(t, ORDERS, 1046, "No database selected");
    must(t, "USE demo");
    must(t, ORDERS);
    fails(t, ORDERS, 1050, "Table 'orders' already exists");
    must(t, "CREATE TABLE IF NOT EXISTS orders (a INT) DUPLICATE KEY(a)");
    must(t, "SHOW CREATE TABLE orders");
    cr_assert_eq(t->ncols, 2);
    cr_assert_str_eq(t->cols[0].name, "Table");
    cr_assert_str_eq(t->cols[1].name, "Create Table");
    cr_assert_str_eq(tx_cell(t, 0, 0), "orders");
    cr_assert_str_eq(tx_cell(t, 0, 1), orders_show);
    must(t, "SHOW CREATE TABLE demo.orders");
    cr_assert_str_eq(tx_cell(t, 0, 1), orders_show);
    fails(t, "SHOW CREATE TABLE nope", 1146, "Table 'demo.nope' doesn't exist");
    fails(t, "SHOW CREATE TABLE nodb.orders", 1049, NULL);
    tx_close(t, false);
}

Test(plan_ddl, seed001_errors_word_for_word)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE demo");
    must(t, "USE demo");
    const char *p = "errCode = 2, detailMessage = ";
    char want[256];
#define DORIS(sql, text)                              \
    do {                                              \
        snprintf(want, sizeof want, "%s%s", p, text); \
        fails(t, sql, 1105, want);                    \
        cr_assert_str_eq(t->err.sqlstate, "HY000");   \
    } while (0)
    DORIS("CREATE TABLE a (k INT) DUPLICATE KEY(k) PROPERTIES (\"binlog.enable\" = \"true\", "
          "\"binlog.format\" = \"row\")",
          "Invalid binlog format value: row");
    DORIS("CREATE TABLE a (k INT) DUPLICATE KEY(k) PROPERTIES (\"binlog.enable\" = \"true\", "
          "\"binlog.format\" = \"ROW\", \"binlog.ttl_seconds\" = \"0\")",
          "ROW binlog.ttl_seconds must be greater than 0");
    DORIS("CREATE TABLE a (k INT) DUPLICATE KEY(k) PROPERTIES (\"binlog.enable\" = \"true\", "
          "\"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\")",
          "Duplicate table model don't support record historical value");
    DORIS("CREATE TABLE a (k INT, v INT) UNIQUE KEY(k) CLUSTER BY (v) PROPERTIES "
          "(\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")",
          "Unique merge-on-write tables with cluster keys do not support binlog<Row>");
    DORIS("CREATE TABLE a (k INT, v INT) UNIQUE KEY(k) PROPERTIES "
          "(\"enable_unique_key_merge_on_write\" = \"false\", \"binlog.enable\" = \"true\", "
          "\"binlog.format\" = \"ROW\")",
          "Only duplicate and mow table model support binlog<Row>");
    DORIS("CREATE TABLE a (k INT, v INT SUM) AGGREGATE KEY(k) PROPERTIES "
          "(\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")",
          "Only duplicate and mow table model support binlog<Row>");
    DORIS("CREATE TABLE a (k INT, v VARIANT) DUPLICATE KEY(k) PROPERTIES "
          "(\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")",
          "variant column can't be created on table with binlog<Row>");
    DORIS("CREATE TABLE a (k INT, v BIGINT NOT NULL AUTO_INCREMENT) DUPLICATE KEY(k) PROPERTIES "
          "(\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")",
          "auto-inc column can't be created on table with binlog<Row>");
    must(t, ORDERS);
    must(t, "CREATE TABLE plain (k INT) DUPLICATE KEY(k)");
    DORIS("ALTER TABLE orders SET (\"binlog.enable\" = \"false\")",
          "can't disable binlog when format is [Row]");
    DORIS("ALTER TABLE orders SET (\"binlog.need_historical_value\" = \"false\")",
          "not support change binlog.need_historical_value from true to false");
    DORIS("ALTER TABLE plain SET (\"binlog.format\" = \"ROW\")",
          "not support change binlog format from STATEMENT_AND_SNAPSHOT to ROW");
    DORIS("ALTER TABLE orders MODIFY COLUMN status VARCHAR(32)",
          "Not allowed to perform current operation on Table With binlog<row>");
    DORIS("ALTER TABLE orders RENAME COLUMN status st",
          "Not allowed to perform current operation on Table With binlog<row>");
    DORIS("ALTER TABLE orders ORDER BY (order_id, amount, status)",
          "Not allowed to perform current operation on Table With binlog<row>");
    DORIS("ALTER TABLE orders BUILD INDEX idx",
          "Not allowed to perform current operation on Table With binlog<row>");
    /* Allowed on Row Binlog tables. */
    must(t, "ALTER TABLE orders SET (\"binlog.ttl_seconds\" = \"604800\")");
    must(t, "SHOW CREATE TABLE orders");
    cr_assert(strstr(tx_cell(t, 0, 1), "\"binlog.ttl_seconds\" = \"604800\"") != NULL);
    /* Allowed on plain tables (Doris's type rules). */
    must(t, "ALTER TABLE plain MODIFY COLUMN k BIGINT");
    DORIS("ALTER TABLE plain MODIFY COLUMN k INT", "Can not change BIGINT to INT");
    must(t, "ALTER TABLE plain ORDER BY (k)");
    /* Allowed on Row Binlog tables (seed 001): REPLACE PARTITION gets to its own checks. */
    DORIS("ALTER TABLE orders REPLACE PARTITION (orders) WITH TEMPORARY PARTITION (tp)",
          "Temp partition[tp] does not exist");
#undef DORIS
    tx_close(t, false);
}

Test(plan_ddl, partitions_and_show)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE d");
    must(t, "CREATE TABLE d.p (k DATE NOT NULL, v INT SUM DEFAULT \"0\" COMMENT 'value') "
            "AGGREGATE KEY(k) COMMENT 'parts' PARTITION BY RANGE(k) ("
            "PARTITION p1 VALUES LESS THAN (\"2024-01-01\"), "
            "PARTITION p2 VALUES [(\"2024-01-01\"), (\"2024-02-01\")), "
            "PARTITION p3 VALUES LESS THAN MAXVALUE) DISTRIBUTED BY HASH(k) BUCKETS 2");
    must(t, "SHOW PARTITIONS FROM d.p");
    cr_assert_eq(t->ncols, 22);
    cr_assert_str_eq(t->cols[1].name, "PartitionName");
    cr_assert_str_eq(column_text(t, 1), "p1,p2,p3");
    must(t, "SHOW PARTITIONS FROM d.p WHERE PartitionName = 'p2'");
    cr_assert_str_eq(column_text(t, 1), "p2");
    fails(t, "ALTER TABLE d.p ADD PARTITION p0 VALUES [(\"2023-01-01\"), (\"2023-06-01\"))", 1105,
          NULL); /* overlaps p1 */
    must(t, "ALTER TABLE d.p DROP PARTITION IF EXISTS nope");
    must(t, "ALTER TABLE d.p DROP PARTITION p3");
    must(t, "ALTER TABLE d.p ADD PARTITION p4 VALUES [(\"2024-02-01\"), (\"2024-03-01\")) "
            "DISTRIBUTED BY HASH(k) BUCKETS 5");
    must(t, "USE d");
    must(t, "SHOW PARTITIONS FROM p");
    cr_assert_eq(t->nrows, 3);
    must(t, "CREATE TABLE l (k VARCHAR(8) NOT NULL, v INT) DUPLICATE KEY(k) "
            "PARTITION BY LIST(k) (PARTITION a VALUES IN (\"a\", \"b\")) DISTRIBUTED BY RANDOM "
            "BUCKETS 3");
    must(t, "SHOW CREATE TABLE l");
    cr_assert(strstr(tx_cell(t, 0, 1), "PARTITION BY LIST(`k`)\n(PARTITION a VALUES IN "
                                       "(\"a\",\"b\"))\nDISTRIBUTED BY RANDOM BUCKETS 3") != NULL,
              "%s", tx_cell(t, 0, 1));
    /* DESC / SHOW COLUMNS */
    must(t, "DESC p");
    cr_assert_str_eq(t->cols[0].name, "Field");
    cr_assert_str_eq(column_text(t, 0), "k,v");
    cr_assert_str_eq(tx_cell(t, 1, 1), "int");
    cr_assert_str_eq(tx_cell(t, 1, 2), "Yes");
    cr_assert_str_eq(tx_cell(t, 0, 3), "true");
    cr_assert_str_eq(tx_cell(t, 1, 4), "0");
    cr_assert_str_eq(tx_cell(t, 1, 5), "SUM");
    must(t, "DESCRIBE d.p ALL");
    cr_assert_eq(t->ncols, 12);
    cr_assert_str_eq(tx_cell(t, 0, 0), "p");
    cr_assert_str_eq(tx_cell(t, 0, 1), "AGG_KEYS");
    cr_assert_str_eq(tx_cell(t, 0, 4), "DATEV2");
    must(t, "SHOW COLUMNS FROM p");
    cr_assert_str_eq(column_text(t, 2), "NO,YES");
    cr_assert_str_eq(column_text(t, 3), "YES,NO");
    must(t, "SHOW FULL COLUMNS FROM p FROM d LIKE 'v'");
    cr_assert_eq(t->ncols, 9);
    cr_assert_str_eq(tx_cell(t, 0, 8), "value");
    fails(t, "DESC nope", 1146, "Table 'd.nope' doesn't exist");
    /* SHOW TABLES / TABLE STATUS */
    must(t, "SHOW TABLES");
    cr_assert_str_eq(t->cols[0].name, "Tables_in_d");
    cr_assert_str_eq(column_text(t, 0), "l,p");
    must(t, "SHOW FULL TABLES FROM d LIKE 'p'");
    cr_assert_str_eq(t->cols[1].name, "Table_type");
    cr_assert_str_eq(tx_cell(t, 0, 1), "BASE TABLE");
    must(t, "SHOW TABLES WHERE Tables_in_d = 'l'");
    cr_assert_str_eq(column_text(t, 0), "l");
    fails(t, "SHOW TABLES FROM nope", 1049, NULL);
    must(t, "SHOW TABLE STATUS LIKE 'p'");
    cr_assert_eq(t->ncols, 18);
    cr_assert_str_eq(tx_cell(t, 0, 0), "p");
    cr_assert_str_eq(tx_cell(t, 0, 1), "Doris");
    cr_assert_str_eq(tx_cell(t, 0, 4), "0");
    cr_assert_str_eq(tx_cell(t, 0, 17), "parts");
    tx_close(t, false);
}

Test(plan_ddl, alter_table)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE d");
    must(t, "USE d");
    must(t, "CREATE TABLE t (k INT NOT NULL, v VARCHAR(10)) DUPLICATE KEY(k) "
            "DISTRIBUTED BY HASH(k) BUCKETS 1");
    must(t, "ALTER TABLE t ADD COLUMN c INT DEFAULT \"3\" AFTER k");
    must(t, "ALTER TABLE t ADD COLUMN (x DATETIME(3), y STRING)");
    must(t, "ALTER TABLE t ADD COLUMN f BOOLEAN FIRST");
    must(t, "DESC t");
    cr_assert_str_eq(column_text(t, 0), "f,k,c,v,x,y");
    fails(t, "ALTER TABLE t ADD COLUMN c INT", 1060, "Duplicate column name 'c'");
    must(t, "ALTER TABLE t DROP COLUMN y");
    must(t, "ALTER TABLE t RENAME COLUMN x ts");
    must(t, "ALTER TABLE t MODIFY COLUMN ts COMMENT 'when', MODIFY COMMENT 'tbl'");
    must(t, "ALTER TABLE t SET (\"disable_auto_compaction\" = \"true\")");
    must(t, "ALTER TABLE t RENAME t2");
    fails(t, "SHOW CREATE TABLE t", 1146, NULL);
    must(t, "SHOW CREATE TABLE t2");
    const char *sql = tx_cell(t, 0, 1);
    cr_assert(strstr(sql, "  `ts` datetime(3) NULL COMMENT \"when\"") != NULL, "%s", sql);
    cr_assert(strstr(sql, "COMMENT 'tbl'") != NULL, "%s", sql);
    cr_assert(strstr(sql, "\"disable_auto_compaction\" = \"true\"") != NULL, "%s", sql);
    cr_assert(strstr(sql, "`y`") == NULL, "%s", sql);
    /* Several clauses are one change: a failing one leaves the table as it was. */
    fails(t, "ALTER TABLE t2 ADD COLUMN z INT, DROP COLUMN nope", 1091, NULL);
    must(t, "DESC t2");
    cr_assert_str_eq(column_text(t, 0), "f,k,c,v,ts");
    fails(t, "ALTER TABLE nope ADD COLUMN z INT", 1146, NULL);
    fails(t, "ALTER TABLE t2 RENAME PARTITION a b", 1105,
          "errCode = 2, detailMessage = Table[t2] is single partitioned. no need to rename "
          "partition name.");
    fails(t, "ALTER TABLE t2 ADD COLUMN", 1064, NULL);
    must(t, "DROP TABLE t2");
    fails(t, "DROP TABLE t2", 1051, "Unknown table 't2'");
    must(t, "DROP TABLE IF EXISTS d.t2 FORCE");
    tx_close(t, false);
}

Test(plan_ddl, like_primary_key_engine_types)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE src PROPERTIES (\"binlog.enable\" = \"true\", "
            "\"binlog.format\" = \"ROW\", \"binlog.ttl_seconds\" = \"1234\")");
    must(t, "CREATE TABLE src.a (k BIGINT, s VARCHAR(4)) DUPLICATE KEY(k)");
    must(t, "CREATE DATABASE dst");
    must(t, "USE dst");
    must(t, "CREATE TABLE b LIKE src.a");
    must(t, "SHOW CREATE TABLE b");
    cr_assert(strstr(tx_cell(t, 0, 1), "\"binlog.ttl_seconds\" = \"1234\"") != NULL);
    fails(t, "CREATE TABLE c LIKE src.nope", 1146, NULL);
    must(t, "CREATE TABLE m (id INT, name VARCHAR(20), PRIMARY KEY (id)) ENGINE=InnoDB");
    cr_assert_eq(plan_session_warning_count(t->s), 1);
    must(t, "SHOW CREATE TABLE m");
    cr_assert(strstr(tx_cell(t, 0, 1), "UNIQUE KEY(`id`)\nDISTRIBUTED BY HASH(`id`)") != NULL, "%s",
              tx_cell(t, 0, 1));
    cr_assert(strstr(tx_cell(t, 0, 1), "\"enable_unique_key_merge_on_write\" = \"true\"") != NULL);
    must(t, "CREATE TABLE ty (a TINYINT, b SMALLINT, c INT(11), d LARGEINT, e FLOAT, f DOUBLE, "
            "g DECIMALV3(38, 9), h CHAR(3), i STRING, j TEXT, k DATEV2, l DATETIMEV2(6), "
            "m BOOLEAN, n DATETIME DEFAULT CURRENT_TIMESTAMP) ENGINE = olap DUPLICATE KEY(a)");
    must(t, "SELECT column_type FROM information_schema.columns WHERE table_schema = 'dst' AND "
            "table_name = 'ty' ORDER BY ordinal_position");
    cr_assert_str_eq(column_text(t, 0), "tinyint,smallint,int,largeint,float,double,"
                                        "decimal(38,9),char(3),text,text,date,datetime(6),"
                                        "boolean,datetime");
    fails(t, "CREATE TABLE bad (a FROBINT) DUPLICATE KEY(a)", 1064, NULL);
    fails(t, "CREATE TABLE bad (a INT SUMX) DUPLICATE KEY(a)", 1064, NULL);
    fails(t, "CREATE TABLE bad (a DECIMAL(40, 2)) DUPLICATE KEY(a)", 1105, NULL);
    /* JSON / ARRAY / MAP parse; the catalog decides. */
    tx_exec(t, "CREATE TABLE cx (a INT, b ARRAY<INT>, c MAP<STRING, ARRAY<INT>>) "
               "DUPLICATE KEY(a)");
    cr_assert_neq(t->err.code, 1064, "%s", t->err.msg);
    tx_close(t, false);
}

Test(plan_ddl, information_schema_select_field_list_tso)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE shop");
    must(t, "USE shop");
    must(t, ORDERS);
    must(t, "SELECT schema_name FROM information_schema.schemata ORDER BY 1");
    cr_assert_str_eq(column_text(t, 0), "information_schema,mysql,shop");
    must(t, "SELECT table_name, table_type, engine, table_rows FROM information_schema.tables "
            "WHERE table_schema = 'shop'");
    cr_assert_str_eq(tx_cell(t, 0, 0), "orders");
    cr_assert_str_eq(tx_cell(t, 0, 1), "BASE TABLE");
    cr_assert_str_eq(tx_cell(t, 0, 2), "Doris");
    cr_assert_str_eq(tx_cell(t, 0, 3), "0");
    must(t, "SELECT column_name, data_type, column_type, is_nullable, column_key, "
            "numeric_precision, character_maximum_length FROM information_schema.columns WHERE "
            "table_schema = 'shop' AND table_name = 'orders' ORDER BY ordinal_position");
    cr_assert_str_eq(column_text(t, 0), "order_id,status,amount");
    cr_assert_str_eq(column_text(t, 1), "bigint,varchar,decimal");
    cr_assert_str_eq(column_text(t, 2), "bigint,varchar(16),decimal(10,2)");
    cr_assert_str_eq(column_text(t, 4), "PRI,,");
    cr_assert_str_eq(column_text(t, 5), "19,NULL,10");
    cr_assert_str_eq(column_text(t, 6), "NULL,16,NULL");
    /* information_schema itself still describes itself. */
    must(t, "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = "
            "'information_schema' AND table_name = 'SCHEMATA'");
    cr_assert_str_eq(tx_cell(t, 0, 0), "5");
    /* Catalog tables are found, their data comes from storage, unlike a missing table. */
    must(t, "SELECT * FROM orders");
    cr_assert_eq(t->nrows, 0);
    must(t, "INSERT INTO orders VALUES (1, 'new', 2.5)");
    must(t, "SELECT order_id FROM shop.orders");
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    fails(t, "SELECT * FROM nope", 1146, "Table 'shop.nope' doesn't exist");
    /* COM_FIELD_LIST */
    plan_column *cols;
    size_t n;
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(plan_field_list(t->s, "orders", NULL, t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(cols[2].name, "amount");
    cr_assert_eq(cols[2].type, PLAN_TYPE_DECIMAL);
    cr_assert_str_eq(cols[2].schema, "shop");
    cr_assert_eq(plan_field_list(t->s, "orders", "st%", t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(n, 1);
    cr_assert_neq(plan_field_list(t->s, "nope", NULL, t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(err.code, 1146, "%d %s", err.code, err.msg);
    /* A view lists the columns of its SELECT. */
    must(t, "CREATE VIEW v AS SELECT order_id, amount * 2 AS dbl FROM orders");
    cr_assert_eq(plan_field_list(t->s, "v", NULL, t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(cols[0].name, "order_id");
    cr_assert_str_eq(cols[1].name, "dbl");
    cr_assert_eq(cols[1].type, PLAN_TYPE_DECIMAL);
    cr_assert_str_eq(cols[1].table, "v");
    cr_assert_eq(plan_field_list(t->s, "v", "d%", t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(n, 1);
    /* CURRENT_TSO(): cat_tso_current, a BIGINT, and it follows an allocation. */
    uint64_t next;
    cr_assert_eq(cat_tso_next(cat_meta_tso(t->meta), &next, &err), DB_OK);
    char want[32];
    snprintf(want, sizeof want, "%llu", (unsigned long long)next);
    cr_assert_str_eq(tx_one(t, "SELECT current_tso()"), want);
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_BIGINT);
    tx_close(t, false);
}

/* Everything SHOW CREATE TABLE says, for every table, as one string. */
static char *
snapshot(tx *t)
{
    char *out = mem_calloc(1, 65536);
    size_t len = 0;
    must(t, "SHOW DATABASES");
    size_t ndb = t->nrows;
    char dbs[16][64];
    for (size_t i = 0; i < ndb && i < 16; i++) {
        snprintf(dbs[i], sizeof dbs[i], "%s", tx_cell(t, i, 0));
    }
    for (size_t i = 0; i < ndb && i < 16; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SHOW TABLES FROM `%s`", dbs[i]);
        must(t, sql);
        size_t nt = t->nrows;
        char tbls[16][64];
        for (size_t k = 0; k < nt && k < 16; k++) {
            snprintf(tbls[k], sizeof tbls[k], "%s", tx_cell(t, k, 0));
        }
        len += (size_t)snprintf(out + len, 65536 - len, "db %s\n", dbs[i]);
        for (size_t k = 0; k < nt && k < 16 && strcmp(dbs[i], "information_schema") != 0; k++) {
            snprintf(sql, sizeof sql, "SHOW CREATE TABLE `%s`.`%s`", dbs[i], tbls[k]);
            must(t, sql);
            len += (size_t)snprintf(out + len, 65536 - len, "%s\n", tx_cell(t, 0, 1));
        }
    }
    return out;
}

Test(plan_ddl, persistence_across_reopen)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE demo PROPERTIES (\"binlog.ttl_seconds\" = \"77\")");
    must(t, "USE demo");
    must(t, ORDERS);
    must(t, "CREATE TABLE p (k DATE NOT NULL, v INT) DUPLICATE KEY(k) PARTITION BY RANGE(k) "
            "(PARTITION p1 VALUES LESS THAN (\"2024-01-01\")) DISTRIBUTED BY HASH(k) BUCKETS 2");
    must(t, "ALTER TABLE p ADD COLUMN c VARCHAR(5) COMMENT 'c', ADD PARTITION p2 VALUES LESS "
            "THAN MAXVALUE");
    must(t, "ALTER TABLE orders SET (\"binlog.ttl_seconds\" = \"100\")");
    must(t, "CREATE TABLE gone (k INT) DUPLICATE KEY(k)");
    must(t, "DROP TABLE gone");
    char *before = snapshot(t);
    cr_assert(strstr(before, "gone") == NULL);
    tx_close(t, false); /* no image: the reopen replays the edit log */
    t = tx_open(dir);
    char *after = snapshot(t);
    cr_assert_str_eq(after, before);
    mem_free(after);
    tx_close(t, true); /* with an image */
    t = tx_open(dir);
    after = snapshot(t);
    cr_assert_str_eq(after, before);
    must(t, "SHOW CREATE DATABASE demo");
    cr_assert(strstr(tx_cell(t, 0, 1), "\"binlog.ttl_seconds\" = \"77\"") != NULL);
    mem_free(after);
    mem_free(before);
    tx_close(t, false);
}

Test(plan_ddl, prepared_ddl_and_show)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE d");
    must(t, "USE d");
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, "CREATE TABLE pt (k INT) DUPLICATE KEY(k)", &id, &np), DB_OK);
    cr_assert_eq(t->ncols, 0);
    fails(t, "SHOW CREATE TABLE pt", 1146, NULL); /* nothing ran at prepare */
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    must(t, "SHOW CREATE TABLE pt");
    cr_assert_eq(tx_prepare(t, "DESC pt", &id, &np), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->ncols, 6);
    tx_close(t, false);
}

/* The partition ids of table db.name, comma-separated (SHOW PARTITIONS column 0). */
static const char *
part_ids(tx *t, const char *name)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SHOW PARTITIONS FROM %s", name);
    must(t, sql);
    return column_text(t, 0);
}

Test(plan_ddl, truncate_recover_and_new_alters)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE d");
    must(t, "USE d");
    must(t, "CREATE TABLE r (k INT, v VARCHAR(8) NULL) DUPLICATE KEY(k) PARTITION BY RANGE(k) "
            "(PARTITION p1 VALUES LESS THAN (10), PARTITION p2 VALUES LESS THAN (20)) "
            "DISTRIBUTED BY HASH(k) BUCKETS 2");
    char before[256], after[256];
    snprintf(before, sizeof before, "%s", part_ids(t, "r"));
    /* TRUNCATE of one partition: only its id changes. */
    must(t, "TRUNCATE TABLE r PARTITION (p2)");
    snprintf(after, sizeof after, "%s", part_ids(t, "r"));
    cr_assert_str_neq(before, after);
    cr_assert_eq(strncmp(before, after, (size_t)(strchr(before, ',') - before)), 0, "%s / %s",
                 before, after);
    must(t, "TRUNCATE TABLE r");
    cr_assert_str_neq(part_ids(t, "r"), after);
    fails(t, "TRUNCATE TABLE r PARTITION (nope)", 1105,
          "errCode = 2, detailMessage = Partition nope does not exist");
    /* RENAME / MODIFY PARTITION. */
    must(t, "ALTER TABLE r RENAME PARTITION p1 q1");
    must(t, "SHOW PARTITIONS FROM r");
    cr_assert_str_eq(column_text(t, 1), "q1,p2");
    fails(t, "ALTER TABLE r RENAME PARTITION q1 p2", 1105,
          "errCode = 2, detailMessage = Partition name[p2] is already used");
    must(t, "ALTER TABLE r MODIFY PARTITION p2 SET (\"replication_num\" = \"1\", "
            "\"storage_medium\" = \"SSD\")");
    fails(t, "ALTER TABLE r MODIFY PARTITION p2 SET (\"storage_medium\" = \"tape\")", 1105, NULL);
    /* MODIFY COLUMN: widening only. */
    must(t, "ALTER TABLE r MODIFY COLUMN v VARCHAR(16) NULL");
    fails(t, "ALTER TABLE r MODIFY COLUMN v VARCHAR(4) NULL", 1105,
          "errCode = 2, detailMessage = Cannot shorten string length");
    fails(t, "ALTER TABLE r MODIFY COLUMN v INT NULL", 1105,
          "errCode = 2, detailMessage = Can not change VARCHAR(16) to INT");
    fails(t, "ALTER TABLE r MODIFY COLUMN v VARCHAR(32) NOT NULL", 1105,
          "errCode = 2, detailMessage = Can not change from nullable to non-nullable");
    fails(t, "ALTER TABLE r MODIFY COLUMN k BIGINT", 1105, NULL); /* partition column */
    must(t, "DESC r");
    cr_assert_str_eq(column_text(t, 1), "int,varchar(16)");
    /* ORDER BY over value columns. */
    must(t, "CREATE TABLE o (k INT, a INT, b INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k)");
    must(t, "ALTER TABLE o ORDER BY (k, b, a)");
    must(t, "DESC o");
    cr_assert_str_eq(column_text(t, 0), "k,b,a");
    fails(t, "ALTER TABLE o ORDER BY (k, b)", 1105, NULL);
    fails(t, "ALTER TABLE o ORDER BY (b, k, a)", 1105, NULL);
    /* REPLACE WITH TABLE: swap, then swap=false. */
    must(t, "CREATE TABLE o2 (x INT) DUPLICATE KEY(x) DISTRIBUTED BY HASH(x)");
    must(t, "ALTER TABLE o REPLACE WITH TABLE o2");
    must(t, "DESC o");
    cr_assert_str_eq(column_text(t, 0), "x");
    must(t, "DESC o2");
    cr_assert_str_eq(column_text(t, 0), "k,b,a");
    must(t, "ALTER TABLE o REPLACE WITH TABLE o2 PROPERTIES (\"swap\" = \"false\")");
    must(t, "DESC o");
    cr_assert_str_eq(column_text(t, 0), "k,b,a");
    fails(t, "DESC o2", 1146, NULL);
    fails(t, "ALTER TABLE o REPLACE WITH TABLE nope", 1146, NULL);
    /* DROP without FORCE goes to the bin; RECOVER brings it back with its id. */
    snprintf(before, sizeof before, "%s", part_ids(t, "r"));
    must(t, "DROP TABLE r");
    fails(t, "DESC r", 1146, NULL);
    must(t, "RECOVER TABLE d.r");
    cr_assert_str_eq(part_ids(t, "r"), before);
    must(t, "DROP TABLE r");
    must(t, "CREATE TABLE r (z INT) DUPLICATE KEY(z)");
    fails(t, "RECOVER TABLE r", 1050, "Table 'r' already exists");
    must(t, "DROP TABLE r FORCE");
    must(t, "RECOVER TABLE r"); /* the first r, still in the bin */
    cr_assert_str_eq(part_ids(t, "r"), before);
    must(t, "DROP TABLE o FORCE");
    fails(t, "RECOVER TABLE o", 1109, "Unknown table 'o' in d");
    /* DROP DATABASE without FORCE, RECOVER DATABASE; durable across reopen. */
    must(t, "DROP DATABASE d");
    fails(t, "RECOVER TABLE d.r", 1049, NULL);
    tx_close(t, false);
    t = tx_open(dir);
    must(t, "RECOVER DATABASE d");
    fails(t, "RECOVER DATABASE d", 1007, NULL);
    must(t, "USE d");
    cr_assert_str_eq(part_ids(t, "r"), before);
    tx_close(t, true);
    t = tx_open(dir);
    must(t, "USE d");
    cr_assert_str_eq(part_ids(t, "r"), before);
    must(t, "DROP DATABASE d FORCE");
    fails(t, "RECOVER DATABASE d", 1049, NULL);
    tx_close(t, false);
}

/* Temporary partitions through SQL: ADD, SHOW TEMPORARY PARTITIONS, REPLACE; each state read
 * back after a reopen from the log and from the image (one table record per statement). */
Test(plan_ddl, temporary_partitions_across_reopen)
{
    tx *t = tx_open(dir);
    must(t, "CREATE DATABASE demo");
    must(t, "USE demo");
    must(t, "CREATE TABLE p (k INT NULL, v INT) DUPLICATE KEY(k) PARTITION BY RANGE(k) "
            "(PARTITION p1 VALUES LESS THAN (10), PARTITION p2 VALUES LESS THAN (20)) "
            "DISTRIBUTED BY HASH(k) BUCKETS 2");
    must(t, "ALTER TABLE p ADD TEMPORARY PARTITION tp VALUES LESS THAN (\"20\") DISTRIBUTED BY "
            "HASH(k) BUCKETS 4");
    must(t, "SHOW TEMPORARY PARTITIONS FROM p");
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "tp");
    cr_assert_str_eq(tx_cell(t, 0, 8), "4");
    must(t, "SHOW PARTITIONS FROM p");
    cr_assert_eq(t->nrows, 2);
    tx_close(t, false); /* replay the log */
    t = tx_open(dir);
    must(t, "USE demo");
    must(t, "SHOW TEMPORARY PARTITIONS FROM p");
    cr_assert_eq(t->nrows, 1);
    char tp_id[32];
    snprintf(tp_id, sizeof tp_id, "%s", tx_cell(t, 0, 0));
    must(t, "ALTER TABLE p REPLACE PARTITION (p1, p2) WITH TEMPORARY PARTITION (tp)");
    tx_close(t, true); /* from the image */
    t = tx_open(dir);
    must(t, "USE demo");
    must(t, "SHOW TEMPORARY PARTITIONS FROM p");
    cr_assert_eq(t->nrows, 0);
    must(t, "SHOW PARTITIONS FROM p");
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 0), tp_id); /* the temporary partition's id, now formal */
    cr_assert_str_eq(tx_cell(t, 0, 1), "tp");  /* two for one: its own name */
    tx_close(t, false);
}
