/* SPDX-License-Identifier: Apache-2.0
 * SELECT ... FROM information_schema through plan_execute / plan_execute_prepared: table and
 * column resolution, stars, WHERE, ORDER BY, LIMIT, COUNT/MIN/MAX/SUM, metadata, unsupported
 * constructs, and the JDBC / ODBC catalog queries of docs/design/clients/catalog_queries.md. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_testutil.h"

/* All rows of column col joined by ',' (NULL as "NULL"). */
static const char *
column_text(tx *t, size_t col)
{
    static char buf[8192];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t r = 0; r < t->nrows; r++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", r ? "," : "",
                                tx_cell(t, r, col));
    }
    return buf;
}

static void
must(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

Test(plan_select_from, tables_where_order_limit)
{
    tx *t = tx_new();
    must(t, "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "'information_schema' ORDER BY table_name LIMIT 3");
    cr_assert_eq(t->ncols, 1);
    cr_assert_str_eq(column_text(t, 0), "CHARACTER_SETS,COLLATIONS,COLUMNS");
    cr_assert(t->out.is_result_set);
    must(t, "select table_name, table_type from information_schema.tables order by table_name "
            "desc limit 2");
    cr_assert_str_eq(column_text(t, 0), "VIEWS,USER_PRIVILEGES");
    cr_assert_str_eq(tx_cell(t, 0, 1), "SYSTEM VIEW");
    tx_free(t);
}

Test(plan_select_from, use_information_schema_then_unqualified)
{
    tx *t = tx_new();
    must(t, "USE information_schema");
    must(t, "SELECT * FROM schemata");
    cr_assert_eq(t->ncols, 5);
    cr_assert_eq(t->nrows, 2);
    cr_assert_str_eq(t->cols[1].name, "SCHEMA_NAME");
    cr_assert_str_eq(column_text(t, 1), "information_schema,mysql");
    cr_assert_str_eq(tx_cell(t, 0, 0), "def");
    cr_assert_str_eq(tx_cell(t, 0, 4), "NULL");
    tx_free(t);
}

Test(plan_select_from, unknown_tables_and_databases)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select * from information_schema.x"),
                     "ERR 1146 42S02 Table 'information_schema.x' doesn't exist");
    cr_assert_str_eq(tx_one(t, "select * from mysql.user"),
                     "ERR 1146 42S02 Table 'mysql.user' doesn't exist");
    cr_assert_str_eq(tx_one(t, "select * from schemata"), "ERR 1046 3D000 No database selected");
    cr_assert_str_eq(tx_one(t, "select 1 from INFORMATION_SCHEMA.Schemata limit 1"), "1");
    cr_assert_str_eq(tx_one(t, "select count(*) from `information_schema`.`ENGINES`"), "1");
    tx_free(t);
}

Test(plan_select_from, qualified_columns_and_aliases)
{
    tx *t = tx_new();
    must(t, "select t.table_name from information_schema.tables t where t.table_name = 'views'");
    cr_assert_str_eq(column_text(t, 0), "VIEWS");
    must(t, "select tables.TABLE_NAME, information_schema.TABLES.table_type from "
            "information_schema.tables where TABLES.table_name like 'vie%'");
    cr_assert_str_eq(column_text(t, 0), "VIEWS");
    cr_assert_str_eq(column_text(t, 1), "SYSTEM VIEW");
    cr_assert_str_eq(t->cols[0].name, "TABLE_NAME"); /* the column as written, unqualified */
    cr_assert_str_eq(t->cols[1].name, "table_type");
    /* An alias hides the table name; aliases are case-sensitive. */
    cr_assert_str_eq(tx_one(t, "select tables.table_name from information_schema.tables x"),
                     "ERR 1054 42S22 Unknown column 'tables.table_name' in 'field list'");
    cr_assert_str_eq(tx_one(t, "select X.table_name from information_schema.tables x"),
                     "ERR 1054 42S22 Unknown column 'X.table_name' in 'field list'");
    cr_assert_str_eq(tx_one(t, "select nope from information_schema.tables"),
                     "ERR 1054 42S22 Unknown column 'nope' in 'field list'");
    cr_assert_str_eq(tx_one(t, "select 1 from information_schema.tables where nope = 1"),
                     "ERR 1054 42S22 Unknown column 'nope' in 'where clause'");
    must(t, "select `x`.`TABLE_NAME` as `n` from `information_schema`.`tables` as `x` where "
            "x.table_name = 'SCHEMATA'");
    cr_assert_str_eq(t->cols[0].name, "n");
    cr_assert_str_eq(column_text(t, 0), "SCHEMATA");
    tx_free(t);
}

Test(plan_select_from, stars)
{
    tx *t = tx_new();
    must(t, "select * from information_schema.engines");
    cr_assert_eq(t->ncols, 6);
    cr_assert_str_eq(t->cols[0].name, "ENGINE");
    must(t, "select e.*, 1 as one from information_schema.engines e");
    cr_assert_eq(t->ncols, 7);
    cr_assert_str_eq(t->cols[6].name, "one");
    must(t, "select information_schema.engines.* from information_schema.engines");
    cr_assert_eq(t->ncols, 6);
    cr_assert_str_eq(tx_one(t, "select z.* from information_schema.engines e"),
                     "ERR 1051 42S02 Unknown table 'z'");
    must(t, "select * from information_schema.tables");
    cr_assert_eq(t->ncols, 21);
    cr_assert_eq(t->nrows, 12);
    tx_free(t);
}

Test(plan_select_from, order_by_forms)
{
    tx *t = tx_new();
    /* Position, then a hidden expression, then an alias. */
    must(t, "select schema_name from information_schema.schemata order by 1 desc");
    cr_assert_str_eq(column_text(t, 0), "mysql,information_schema");
    cr_assert_eq(tx_exec(t, "select schema_name s from information_schema.schemata order by "
                            "length(schema_name)"),
                 DB_OK);
    cr_assert_str_eq(column_text(t, 0), "mysql,information_schema");
    must(t, "select schema_name s from information_schema.schemata order by s desc");
    cr_assert_str_eq(column_text(t, 0), "mysql,information_schema");
    cr_assert_str_eq(tx_one(t, "select schema_name from information_schema.schemata order by 2"),
                     "ERR 1054 42S22 Unknown column '2' in 'order clause'");
    cr_assert_str_eq(tx_one(t, "select 1 from information_schema.schemata order by zz"),
                     "ERR 1054 42S22 Unknown column 'zz' in 'order clause'");
    /* Two keys: the alias TABLE_TYPE wins over the table column of that name (MySQL). */
    must(t, "select table_name, if(table_name like 'C%', 'a', 'b') as table_type from "
            "information_schema.tables order by table_type desc, table_name limit 4");
    cr_assert_str_eq(column_text(t, 0), "ENGINES,KEY_COLUMN_USAGE,SCHEMATA,STATISTICS");
    /* NULLs sort first ascending, last descending. */
    must(t, "select column_name, character_maximum_length from information_schema.columns "
            "where table_name = 'schemata' order by 2, 1");
    cr_assert_str_eq(column_text(t, 1), "32,32,64,512,512");
    must(t, "select column_name, numeric_precision from information_schema.columns where "
            "table_name = 'engines' and column_name like 'S%' order by numeric_precision");
    cr_assert_str_eq(column_text(t, 1), "NULL,NULL");
    must(t, "select ordinal_position, numeric_precision from information_schema.columns where "
            "table_name = 'collations' order by numeric_precision desc, ordinal_position desc");
    cr_assert_str_eq(column_text(t, 0), "6,3,5,4,2,1");
    tx_free(t);
}

Test(plan_select_from, limit_offset_and_select_limit)
{
    tx *t = tx_new();
    const char *q = "select table_name from information_schema.tables order by table_name";
    char sql[256];
    snprintf(sql, sizeof sql, "%s limit 2, 3", q);
    must(t, sql);
    cr_assert_str_eq(column_text(t, 0), "COLUMNS,ENGINES,KEY_COLUMN_USAGE");
    snprintf(sql, sizeof sql, "%s limit 5 offset 10", q);
    must(t, sql);
    cr_assert_str_eq(column_text(t, 0), "USER_PRIVILEGES,VIEWS");
    snprintf(sql, sizeof sql, "%s limit 5 offset 12", q);
    must(t, sql);
    cr_assert_eq(t->nrows, 0);
    cr_assert_eq(t->ncols, 1);
    snprintf(sql, sizeof sql, "%s limit 0", q);
    must(t, sql);
    cr_assert_eq(t->nrows, 0);
    must(t, "set sql_select_limit = 2");
    must(t, q);
    cr_assert_eq(t->nrows, 2);
    must(t, "select found_rows()");
    cr_assert_str_eq(tx_cell(t, 0, 0), "2");
    tx_free(t);
}

Test(plan_select_from, small_batches)
{
    tx *t = tx_new();
    must(t, "set batch_size = 2");
    must(t, "select table_name from information_schema.tables where table_name like '%S%' "
            "order by table_name desc limit 3, 4");
    cr_assert_str_eq(column_text(t, 0), "TABLE_STREAMS,TABLES,STATISTICS,SCHEMATA");
    must(t, "select count(*) from information_schema.columns");
    char n[32];
    snprintf(n, sizeof n, "%s", tx_cell(t, 0, 0));
    cr_assert_gt(atoi(n), 4); /* more rows than a batch */
    must(t, "set batch_size = 4092");
    must(t, "select count(*) from information_schema.columns");
    cr_assert_str_eq(tx_cell(t, 0, 0), n);
    tx_free(t);
}

Test(plan_select_from, aggregates)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select count(*) from information_schema.tables"), "12");
    cr_assert_str_eq(tx_one(t, "select count(*) + 1 from information_schema.tables where "
                               "table_name like 'TABLE%'"),
                     "4");
    cr_assert_str_eq(tx_one(t, "select count(*) from information_schema.tables where 1 = 0"), "0");
    must(t, "select min(table_name), max(table_name), count(engine) from "
            "information_schema.tables");
    cr_assert_str_eq(tx_cell(t, 0, 0), "CHARACTER_SETS");
    cr_assert_str_eq(tx_cell(t, 0, 1), "VIEWS");
    cr_assert_str_eq(tx_cell(t, 0, 2), "12");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_VARCHAR);
    cr_assert_eq(t->cols[2].type, PLAN_TYPE_BIGINT);
    cr_assert(!t->cols[2].nullable);
    cr_assert_str_eq(tx_one(t, "select sum(ordinal_position) from information_schema.columns "
                               "where table_name = 'schemata'"),
                     "15");
    cr_assert_str_eq(tx_one(t, "select max(ordinal_position) from information_schema.columns "
                               "where table_name = 'nope'"),
                     "NULL");
    cr_assert_eq(tx_err(t, "select count(*), table_name from information_schema.tables"), 1140);
    cr_assert_str_eq(tx_one(t, "select table_name, count(*) from information_schema.tables"),
                     "ERR 1140 42000 In aggregated query without GROUP BY, expression #1 of "
                     "SELECT list contains nonaggregated column "
                     "'information_schema.TABLES.TABLE_NAME'; this is incompatible with "
                     "sql_mode=only_full_group_by");
    cr_assert_str_eq(tx_one(t, "select 1 from information_schema.tables where count(*) > 1"),
                     "ERR 1111 HY000 Invalid use of group function");
    cr_assert_str_eq(tx_one(t, "select avg(ordinal_position) from information_schema.columns "
                               "where table_name = 'schemata'"),
                     "3.0000");
    tx_free(t);
}

Test(plan_select_from, metadata)
{
    tx *t = tx_new();
    must(t, "select table_name, t.ordinal_position pos, column_default, 1 + 1 from "
            "information_schema.columns t limit 1");
    plan_column *c = t->cols;
    cr_assert_str_eq(c[0].name, "table_name");
    cr_assert_str_eq(c[0].org_name, "TABLE_NAME");
    cr_assert_str_eq(c[0].table, "t");
    cr_assert_str_eq(c[0].org_table, "COLUMNS");
    cr_assert_str_eq(c[0].schema, "information_schema");
    cr_assert_eq(c[0].type, PLAN_TYPE_VARCHAR);
    cr_assert_eq(c[0].length, 64);
    cr_assert(!c[0].nullable);
    cr_assert_str_eq(c[1].name, "pos");
    cr_assert_str_eq(c[1].org_name, "ORDINAL_POSITION");
    cr_assert_eq(c[1].type, PLAN_TYPE_BIGINT);
    cr_assert(c[1].is_unsigned);
    cr_assert_eq(c[1].length, 21);
    cr_assert_eq(c[3].type, PLAN_TYPE_BIGINT);
    cr_assert_null(c[3].org_name);
    cr_assert_null(c[3].schema);
    cr_assert_eq(tx_exec(t, "select engine, create_time from information_schema.tables"), DB_OK);
    cr_assert(t->cols[0].nullable);
    cr_assert_eq(t->cols[1].type, PLAN_TYPE_DATETIME);
    cr_assert_str_eq(t->cols[0].table, "TABLES");
    tx_free(t);
}

Test(plan_select_from, columns_lists_information_schema_columns)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select count(*) from information_schema.columns where "
                               "table_schema = 'information_schema' and table_name = 'TABLES'"),
                     "21");
    must(t, "select column_name, data_type, column_type, is_nullable, numeric_precision, "
            "character_octet_length from information_schema.columns where table_name = "
            "'tables' and ordinal_position in (3, 5, 8, 15) order by ordinal_position");
    cr_assert_str_eq(column_text(t, 0), "TABLE_NAME,ENGINE,TABLE_ROWS,CREATE_TIME");
    cr_assert_str_eq(column_text(t, 1), "varchar,varchar,bigint,datetime");
    cr_assert_str_eq(column_text(t, 2), "varchar(64),varchar(64),bigint(21) unsigned,datetime");
    cr_assert_str_eq(column_text(t, 3), "NO,YES,YES,YES");
    cr_assert_str_eq(column_text(t, 4), "NULL,NULL,20,NULL");
    cr_assert_str_eq(column_text(t, 5), "192,192,NULL,NULL");
    cr_assert_str_eq(tx_one(t, "select count(*) from information_schema.table_streams"), "0");
    must(t, "select * from information_schema.table_stream_consumption");
    cr_assert_eq(t->ncols, 7);
    cr_assert_str_eq(t->cols[6].name, "LAST_CONSUMPTION_TIME");
    must(t, "select privilege_type, grantee from information_schema.user_privileges where "
            "privilege_type = 'select_priv'");
    cr_assert_str_eq(column_text(t, 1), "'root'@'%'");
    cr_assert_str_eq(tx_one(t, "select count(*) from information_schema.collations where "
                               "is_default = 'Yes' and character_set_name = 'utf8mb4'"),
                     "1");
    tx_free(t);
}

Test(plan_select_from, unsupported_constructs)
{
    tx *t = tx_new();
    const char *q[] = {
            /* joins, derived tables and subqueries work now: tests/planner/test_join.c,
             * test_subquery.c, query/join.sql, query/subquery.sql */
            /* WITH ROLLUP works now: regression/sql/query/aggregate.sql */
            "with recursive r as (select 1) select * from r",
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        cr_assert_eq(tx_err(t, q[i]), 1235, "%s: %d %s", q[i], t->err.code, t->err.msg);
    }
    cr_assert_str_eq(tx_one(t, q[0]),
                     "ERR 1235 42000 This version of MySQL doesn't yet support 'WITH RECURSIVE'");
    tx_free(t);
}

/* ---- the drivers' catalog queries, verbatim ---- */

static const char *jdbc_catalogs =
        "SELECT SCHEMA_NAME TABLE_CAT FROM INFORMATION_SCHEMA.SCHEMATA ORDER BY 1";

static const char *jdbc_tables =
        "SELECT TABLE_SCHEMA TABLE_CAT, NULL TABLE_SCHEM, TABLE_NAME, IF(TABLE_TYPE='BASE TABLE' "
        "or TABLE_TYPE='SYSTEM VERSIONED', 'TABLE', TABLE_TYPE) as TABLE_TYPE, TABLE_COMMENT "
        "REMARKS, NULL TYPE_CAT, NULL TYPE_SCHEM, NULL TYPE_NAME, NULL SELF_REFERENCING_COL_NAME, "
        "NULL REF_GENERATION FROM INFORMATION_SCHEMA.TABLES WHERE "
        "TABLE_SCHEMA='conformance_jdbc' AND  TABLE_TYPE IN ('BASE TABLE','SYSTEM VERSIONED') "
        "ORDER BY TABLE_TYPE, TABLE_SCHEMA, TABLE_NAME";

#define JDBC_COLUMNS_1                                                                           \
    "SELECT TABLE_SCHEMA TABLE_CAT, NULL TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, CASE data_type "  \
    "WHEN 'bit' THEN -7 WHEN 'tinyblob' THEN -3 WHEN 'mediumblob' THEN -4 WHEN 'longblob' THEN " \
    "-4 WHEN 'blob' THEN -4 WHEN 'tinytext' THEN 12 WHEN 'mediumtext' THEN -1 WHEN 'longtext' "  \
    "THEN -1 WHEN 'text' THEN -1 WHEN 'date' THEN 91 WHEN 'datetime' THEN 93 WHEN 'decimal' "    \
    "THEN 3 WHEN 'double' THEN 8 WHEN 'enum' THEN 12 WHEN 'float' THEN 7 WHEN 'int' THEN IF( "   \
    "COLUMN_TYPE like '%unsigned%', 4,4) WHEN 'bigint' THEN -5 WHEN 'mediumint' THEN 4 WHEN "    \
    "'null' THEN 0 WHEN 'set' THEN 12 WHEN 'smallint' THEN IF( COLUMN_TYPE like '%unsigned%', "  \
    "5,5) WHEN 'varchar' THEN 12 WHEN 'varbinary' THEN -3 WHEN 'char' THEN 1 WHEN 'binary' "     \
    "THEN -2 WHEN 'time' THEN 92 WHEN 'timestamp' THEN 93 WHEN 'tinyint' THEN IF(COLUMN_TYPE "   \
    "like 'tinyint(1)%',-7,-6)  WHEN 'year' THEN 91 ELSE 1111 END  DATA_TYPE, IF(COLUMN_TYPE "   \
    "like 'tinyint(1)%', 'BIT',  UCASE(IF( COLUMN_TYPE LIKE '%(%)%', CONCAT(SUBSTRING( "         \
    "COLUMN_TYPE,1, LOCATE('(',COLUMN_TYPE) - 1 ), SUBSTRING(COLUMN_TYPE "                       \
    ",1+locate(')', COLUMN_TYPE))), COLUMN_TYPE))) TYPE_NAME,  CASE DATA_TYPE  WHEN 'time' "     \
    "THEN IF(DATETIME_PRECISION = 0, 10, CAST(11 + DATETIME_PRECISION as signed integer))  "     \
    "WHEN 'date' THEN 10  WHEN 'datetime' THEN IF(DATETIME_PRECISION = 0, 19, CAST(20 + "        \
    "DATETIME_PRECISION as signed integer))  WHEN 'timestamp' THEN IF(DATETIME_PRECISION = 0, "  \
    "19, CAST(20 + DATETIME_PRECISION as signed integer))  ELSE   IF(NUMERIC_PRECISION IS "      \
    "NULL, LEAST(CHARACTER_MAXIMUM_LENGTH,2147483647), NUMERIC_PRECISION)  END COLUMN_SIZE, "    \
    "65535 BUFFER_LENGTH,  CONVERT (CASE DATA_TYPE WHEN 'year' THEN NUMERIC_SCALE WHEN "         \
    "'tinyint' THEN 0 ELSE NUMERIC_SCALE END, UNSIGNED INTEGER) DECIMAL_DIGITS, 10 "             \
    "NUM_PREC_RADIX, IF(IS_NULLABLE = 'yes',1,0) NULLABLE,COLUMN_COMMENT REMARKS, "              \
    "COLUMN_DEFAULT COLUMN_DEF, 0 SQL_DATA_TYPE, 0 SQL_DATETIME_SUB,   "                         \
    "LEAST(CHARACTER_OCTET_LENGTH,2147483647) CHAR_OCTET_LENGTH, ORDINAL_POSITION, "             \
    "IS_NULLABLE, NULL SCOPE_CATALOG, NULL SCOPE_SCHEMA, NULL SCOPE_TABLE, NULL "                \
    "SOURCE_DATA_TYPE, IF(EXTRA = 'auto_increment','YES','NO') IS_AUTOINCREMENT,  IF(EXTRA in "  \
    "('VIRTUAL', 'PERSISTENT', 'VIRTUAL GENERATED', 'STORED GENERATED') ,'YES','NO') "           \
    "IS_GENERATEDCOLUMN  FROM INFORMATION_SCHEMA.COLUMNS  WHERE "
#define JDBC_COLUMNS_2 " ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION"

static const char *odbc_tables =
        "SELECT TABLE_SCHEMA AS TABLE_CAT, NULL AS TABLE_SCHEM, TABLE_NAME, if(TABLE_TYPE='BASE "
        "TABLE' OR TABLE_TYPE='SYSTEM VERSIONED','TABLE',TABLE_TYPE) AS TABLE_TYPE "
        ",TABLE_COMMENT AS REMARKS FROM INFORMATION_SCHEMA.TABLES WHERE 1=1  ORDER BY "
        "TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE";

#define ODBC_COLUMNS_1                                                                                    \
    "SELECT TABLE_SCHEMA AS TABLE_CAT, NULL AS TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, CASE "               \
    "DATA_TYPE  WHEN 'bit' THEN @dt:= IF(NUMERIC_PRECISION=1,(-7), (-2))  WHEN 'tinyint' THEN "           \
    "@dt:=(-6)  WHEN 'smallint' THEN @dt:=5  WHEN 'year' THEN @dt:= 5  WHEN 'mediumint' THEN "            \
    "@dt:=4  WHEN 'int' THEN @dt:=4  WHEN 'bigint' THEN @dt:=(-5)  WHEN 'blob' THEN @dt:=(-4)  "          \
    "WHEN 'tinyblob' THEN @dt:=(-4)  WHEN 'mediumblob' THEN @dt:=(-4)  WHEN 'longblob' THEN "             \
    "@dt:=(-4)  WHEN 'decimal' THEN @dt:=3  WHEN 'float' THEN @dt:=IF(NUMERIC_SCALE IS NULL,7, "          \
    "3)  WHEN 'double' THEN @dt:=IF(NUMERIC_SCALE IS NULL,8, 3)  WHEN 'binary' THEN @dt:=(-2)  "          \
    "WHEN 'varbinary' THEN @dt:=(-3)  WHEN 'text' THEN @dt:=(-10)  WHEN 'tinytext' THEN "                 \
    "@dt:=(-10)  WHEN 'mediumtext' THEN @dt:=(-10)  WHEN 'longtext' THEN @dt:=(-10)  WHEN "               \
    "'char' THEN @dt:=(-8)  WHEN 'enum' THEN @dt:=(-8)  WHEN 'set' THEN @dt:=(-8)  WHEN "                 \
    "'varchar' THEN @dt:=(-9)  WHEN 'date' THEN @dt:=9  WHEN 'time' THEN @dt:=10  WHEN "                  \
    "'datetime' THEN @dt:=11  WHEN 'timestamp' THEN @dt:=11  ELSE @dt:=(-4)END AS DATA_TYPE, "            \
    "UCASE(IF(COLUMN_TYPE LIKE '%(%)%',  CONCAT(SUBSTRING(COLUMN_TYPE,1, "                                \
    "LOCATE('(',COLUMN_TYPE) - 1 ), SUBSTRING(COLUMN_TYPE,1+locate(')',COLUMN_TYPE))), "                  \
    "COLUMN_TYPE )) AS TYPE_NAME, CAST(CASE  WHEN DATA_TYPE = 'bit' THEN "                                \
    "@ColSize:=((NUMERIC_PRECISION + 7) / 8)   WHEN DATA_TYPE in ('tinyint', 'smallint', "                \
    "'mediumint', 'int','bigint', 'decimal') THEN @ColSize:=NUMERIC_PRECISION   WHEN DATA_TYPE "          \
    "= 'float' THEN if(NUMERIC_SCALE IS NULL, @ColSize:=7, @ColSize:=NUMERIC_PRECISION)  WHEN "           \
    "DATA_TYPE = 'double' THEN if(NUMERIC_SCALE IS NULL, @ColSize:=15, "                                  \
    "@ColSize:=NUMERIC_PRECISION)  WHEN DATA_TYPE = 'date' THEN @ColSize:=10  WHEN DATA_TYPE = "          \
    "'time' THEN @ColSize:=8  WHEN DATA_TYPE = 'year' THEN @ColSize:=4  WHEN DATA_TYPE in "               \
    "('timestamp', 'datetime') THEN @ColSize:=19   ELSE @ColSize:=CHARACTER_MAXIMUM_LENGTH END "          \
    "AS UNSIGNED) AS COLUMN_SIZE,@tol:=CAST(CASE @dt  WHEN (-7) THEN 1   WHEN (-6) THEN 1   "             \
    "WHEN 5 THEN 2   WHEN 4 THEN IF(DATA_TYPE='mediumint',3,4)   WHEN (-5) THEN 20   WHEN 7 "             \
    "THEN 4   WHEN 6 THEN 8   WHEN 8 THEN 8   WHEN 9 THEN 6   WHEN 91 THEN 6   WHEN 10 THEN 6  "          \
    " WHEN 92 THEN 6   WHEN 11 THEN 16   WHEN 93 THEN 16   WHEN (-11) THEN 16   WHEN 3 THEN "             \
    "@ColSize + IF(COLUMN_TYPE LIKE '%unsigned',1,2)   WHEN (-2) THEN IF(DATA_TYPE='bit', "               \
    "CAST(((NUMERIC_PRECISION + 7) / 8) AS SIGNED), CHARACTER_OCTET_LENGTH)   WHEN (-3) THEN "            \
    "CHARACTER_OCTET_LENGTH   WHEN (-4) THEN CHARACTER_OCTET_LENGTH   ELSE "                              \
    "CHARACTER_MAXIMUM_LENGTH*4 END AS SIGNED) AS BUFFER_LENGTH, NUMERIC_SCALE DECIMAL_DIGITS, "          \
    "IF(CHARACTER_OCTET_LENGTH IS NOT NULL, NULL, 10) AS NUM_PREC_RADIX,IF(DATA_TYPE='timestamp', "       \
    "1, IF(IS_NULLABLE='YES',1,IF(EXTRA='auto_increment', 1, 0))) AS NULLABLE, COLUMN_COMMENT "           \
    "AS REMARKS,COLUMN_DEFAULT AS COLUMN_DEF,CAST(CASE  WHEN DATA_TYPE = 'date' THEN 9  WHEN "            \
    "DATA_TYPE = 'time' THEN 9  WHEN DATA_TYPE = 'datetime' THEN 9  WHEN DATA_TYPE = "                    \
    "'timestamp' THEN 9 ELSE @dt END AS SIGNED) SQL_DATA_TYPE,CAST(CASE  WHEN DATA_TYPE = "               \
    "'date' THEN 1  WHEN DATA_TYPE = 'time' THEN 2  WHEN DATA_TYPE = 'datetime' THEN 3  WHEN "            \
    "DATA_TYPE = 'timestamp' THEN 3 ELSE NULL END AS SIGNED) SQL_DATETIME_SUB,IF(CHARACTER_OCTET_LENGTH " \
    "IS NOT NULL, @tol, IF(DATA_TYPE='bit' AND NUMERIC_PRECISION =1, NULL, "                              \
    "CAST((NUMERIC_PRECISION + 7)/8 AS SIGNED))) AS CHAR_OCTET_LENGTH, "                                  \
    "ORDINAL_POSITION,IF(DATA_TYPE='timestamp', 'YES', "                                                  \
    "IF(IS_NULLABLE='YES','YES',IF(EXTRA='auto_increment', 'YES', 'NO'))) AS IS_NULLABLE FROM "           \
    "INFORMATION_SCHEMA.COLUMNS WHERE "
#define ODBC_COLUMNS_2 "  ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION"

Test(plan_select_from, jdbc_catalog_queries)
{
    tx *t = tx_new();
    must(t, jdbc_catalogs);
    cr_assert_str_eq(t->cols[0].name, "TABLE_CAT");
    cr_assert_str_eq(column_text(t, 0), "information_schema,mysql");
    must(t, jdbc_tables);
    cr_assert_eq(t->ncols, 10);
    cr_assert_eq(t->nrows, 0);
    must(t, JDBC_COLUMNS_1 "TABLE_SCHEMA='conformance_jdbc' AND TABLE_NAME='t'" JDBC_COLUMNS_2);
    cr_assert_eq(t->ncols, 24);
    cr_assert_eq(t->nrows, 0);
    /* The same text for a table that exists. */
    must(t,
         JDBC_COLUMNS_1 "TABLE_SCHEMA='information_schema' AND TABLE_NAME='TABLES'" JDBC_COLUMNS_2);
    cr_assert_eq(t->nrows, 21);
    cr_assert_str_eq(tx_cell(t, 0, 3), "TABLE_CATALOG");
    cr_assert_str_eq(tx_cell(t, 0, 4), "12"); /* varchar */
    cr_assert_str_eq(tx_cell(t, 0, 5), "VARCHAR");
    cr_assert_str_eq(tx_cell(t, 0, 6), "512");
    cr_assert_str_eq(tx_cell(t, 7, 3), "TABLE_ROWS");
    cr_assert_str_eq(tx_cell(t, 7, 4), "-5"); /* bigint */
    cr_assert_str_eq(tx_cell(t, 7, 5), "BIGINT UNSIGNED");
    cr_assert_str_eq(tx_cell(t, 7, 10), "1");  /* NULLABLE */
    cr_assert_str_eq(tx_cell(t, 14, 6), "19"); /* CREATE_TIME: datetime */
    cr_assert_str_eq(column_text(t, 16), "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21");
    tx_free(t);
}

Test(plan_select_from, odbc_catalog_queries_prepared)
{
    tx *t = tx_new();
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, odbc_tables, &id, &np), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->ncols, 5);
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->nrows, 12);
    cr_assert_str_eq(tx_cell(t, 0, 2), "CHARACTER_SETS");
    cr_assert_str_eq(tx_cell(t, 0, 3), "SYSTEM VIEW");
    cr_assert_str_eq(tx_cell(t, 11, 2), "VIEWS");

    must(t, "use information_schema");
    cr_assert_eq(tx_prepare(t,
                            ODBC_COLUMNS_1
                            "TABLE_SCHEMA=DATABASE()AND TABLE_NAME LIKE 't'" ODBC_COLUMNS_2,
                            &id, &np),
                 DB_OK, "%s", t->err.msg);
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->ncols, 18);
    cr_assert_eq(t->nrows, 0);
    cr_assert_eq(tx_prepare(t,
                            ODBC_COLUMNS_1 "TABLE_SCHEMA=DATABASE()AND TABLE_NAME LIKE "
                                           "'schemata'" ODBC_COLUMNS_2,
                            &id, &np),
                 DB_OK, "%s", t->err.msg);
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    cr_assert_eq(t->nrows, 5);
    cr_assert_str_eq(column_text(t, 3), "CATALOG_NAME,SCHEMA_NAME,DEFAULT_CHARACTER_SET_NAME,"
                                        "DEFAULT_COLLATION_NAME,SQL_PATH");
    cr_assert_str_eq(tx_cell(t, 0, 4), "-9"); /* DATA_TYPE: varchar */
    cr_assert_str_eq(tx_cell(t, 0, 5), "VARCHAR");
    cr_assert_str_eq(tx_cell(t, 0, 6), "512");  /* COLUMN_SIZE */
    cr_assert_str_eq(tx_cell(t, 0, 7), "2048"); /* BUFFER_LENGTH: @tol, 512 * 4 */
    cr_assert_str_eq(tx_cell(t, 4, 17), "YES"); /* SQL_PATH is nullable */
    cr_assert_str_eq(tx_one(t, "select @dt"), "-9");
    tx_free(t);
}

Test(plan_select_from, field_list_of_information_schema_tables)
{
    tx *t = tx_new();
    plan_column *cols;
    size_t n;
    db_error err;
    db_error_clear(&err);
    must(t, "use information_schema");
    cr_assert_eq(plan_field_list(t->s, "schemata", NULL, t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(n, 5);
    cr_assert_str_eq(cols[0].name, "CATALOG_NAME");
    cr_assert_str_eq(cols[0].org_table, "SCHEMATA");
    cr_assert_eq(plan_field_list(t->s, "TABLES", "table%", t->a, &cols, &n, &err), DB_OK);
    cr_assert_eq(n, 7); /* TABLE_CATALOG _SCHEMA _NAME _TYPE _ROWS _COLLATION _COMMENT */
    cr_assert_eq(plan_field_list(t->s, "nosuch", NULL, t->a, &cols, &n, &err), DB_ERR);
    cr_assert_eq(err.code, 1146);
    tx_free(t);
}
