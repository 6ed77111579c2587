/* SPDX-License-Identifier: Apache-2.0
 * Statement execution: SELECT without tables, table errors, SHOW statements, diagnostics,
 * PROCESSLIST / KILL through hooks, USE, transactions, SLEEP interruption. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "plan_testutil.h"

Test(plan_exec, select_limit_and_dual)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "select 1 limit 0"), DB_OK);
    cr_assert(t->out.is_result_set);
    cr_assert_eq(t->ncols, 1);
    cr_assert_eq(t->nrows, 0);
    tx_exec(t, "select 1 limit 1, 1");
    cr_assert_eq(t->nrows, 0);
    tx_exec(t, "select 1 limit 1 offset 0");
    cr_assert_eq(t->nrows, 1);
    tx_exec(t, "select 1 from dual");
    cr_assert_eq(t->nrows, 1);
    tx_exec(t, "select 1 from dual where 1 = 0");
    cr_assert_eq(t->nrows, 0);
    tx_exec(t, "set sql_select_limit = 0");
    tx_exec(t, "select 1");
    cr_assert_eq(t->nrows, 0);
    tx_exec(t, "select 1 limit 5");
    cr_assert_eq(t->nrows, 1);
    cr_assert_eq(tx_err(t, "select *"), 1096);
    tx_free(t);
}

Test(plan_exec, select_from_unknown_tables)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select * from t"), "ERR 1046 3D000 No database selected");
    cr_assert_str_eq(tx_one(t, "select a from db1.t"),
                     "ERR 1146 42S02 Table 'db1.t' doesn't exist");
    cr_assert_str_eq(tx_one(t, "SELECT * FROM information_schema.SCHEMATAX"),
                     "ERR 1146 42S02 Table 'information_schema.SCHEMATAX' doesn't exist");
    tx_exec(t, "use mysql");
    cr_assert_str_eq(tx_one(t, "select * from user"),
                     "ERR 1146 42S02 Table 'mysql.user' doesn't exist");
    plan_column *cols;
    size_t n;
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(plan_field_list(t->s, "user", NULL, t->a, &cols, &n, &err), DB_ERR);
    cr_assert_eq(err.code, 1146);
    tx_free(t);
}

Test(plan_exec, field_list_without_db)
{
    tx *t = tx_new();
    plan_column *cols;
    size_t n;
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(plan_field_list(t->s, "x", NULL, t->a, &cols, &n, &err), DB_ERR);
    cr_assert_eq(err.code, 1046);
    tx_free(t);
}

Test(plan_exec, use_database)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "use INFORMATION_SCHEMA"), DB_OK);
    cr_assert_str_eq(plan_session_db(t->s), "information_schema");
    cr_assert_str_eq(tx_one(t, "use nosuch"), "ERR 1049 42000 Unknown database 'nosuch'");
    cr_assert_str_eq(plan_session_db(t->s), "information_schema");
    cr_assert_eq(tx_err(t, "use MYSQL"), 1049);
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(plan_session_use_db(t->s, "mysql", &err), DB_OK);
    cr_assert_eq(plan_session_use_db(t->s, "zzz", &err), DB_ERR);
    cr_assert_eq(err.code, 1049);
    tx_free(t);
}

Test(plan_exec, show_variables)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "show variables"), DB_OK);
    cr_assert_eq(t->ncols, 2);
    cr_assert_str_eq(t->cols[0].name, "Variable_name");
    cr_assert_str_eq(t->cols[1].name, "Value");
    cr_assert_gt(t->nrows, 50);
    for (size_t i = 1; i < t->nrows; i++) {
        cr_assert_lt(strcmp(tx_cell(t, i - 1, 0), tx_cell(t, i, 0)), 0);
    }
    tx_exec(t, "show variables like 'autocommit'");
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 1), "ON");
    tx_exec(t, "SHOW SESSION VARIABLES LIKE 'character\\_set\\_%'");
    cr_assert_eq(t->nrows, 7);
    tx_exec(t, "show variables like 'TX_%'");
    cr_assert_eq(t->nrows, 2);
    tx_exec(t, "show global variables like 'warning_count'");
    cr_assert_eq(t->nrows, 0);
    tx_exec(t, "show variables where Variable_name = 'wait_timeout' or value = 'REPEATABLE-READ'");
    cr_assert_eq(t->nrows, 3);
    cr_assert_eq(tx_err(t, "show variables where nosuch = 1"), 1054);
    tx_exec(t, "set wait_timeout = 5");
    tx_exec(t, "show global variables like 'wait_timeout'");
    cr_assert_str_eq(tx_cell(t, 0, 1), "28800");
    tx_exec(t, "show session variables like 'wait_timeout'");
    cr_assert_str_eq(tx_cell(t, 0, 1), "5");
    tx_free(t);
}

Test(plan_exec, show_status)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "show status like 'Uptime'"), DB_OK);
    cr_assert_eq(t->nrows, 1);
    cr_assert_eq(tx_exec(t, "show global status"), DB_OK);
    cr_assert_eq(t->nrows, 4);
    cr_assert_str_eq(tx_cell(t, 0, 0), "Questions");
    /* SESSION status adds this session's table-scan counters, in name order. */
    cr_assert_eq(tx_exec(t, "show session status"), DB_OK);
    cr_assert_eq(t->nrows, 8);
    cr_assert_str_eq(tx_cell(t, 0, 0), "Handler_read_rnd_next");
    cr_assert_str_eq(tx_cell(t, 0, 1), "0");
    cr_assert_str_eq(tx_cell(t, 2, 0), "Rivulet_scan_pages_pruned");
    tx_free(t);
}

Test(plan_exec, warnings_lifecycle)
{
    tx *t = tx_new();
    tx_exec(t, "select 1/0, 2/0");
    cr_assert_eq(plan_session_warning_count(t->s), 2);
    cr_assert_str_eq(tx_one(t, "select @@warning_count"), "2");
    cr_assert_str_eq(tx_one(t, "show count(*) warnings"), "2");
    cr_assert_str_eq(t->cols[0].name, "@@session.warning_count");
    tx_exec(t, "show warnings");
    cr_assert_eq(t->nrows, 2);
    cr_assert_str_eq(t->cols[0].name, "Level");
    cr_assert_str_eq(t->cols[1].name, "Code");
    cr_assert_str_eq(t->cols[2].name, "Message");
    tx_exec(t, "show warnings limit 1");
    cr_assert_eq(t->nrows, 1);
    tx_exec(t, "show warnings limit 1, 5");
    cr_assert_eq(t->nrows, 1);
    tx_exec(t, "show errors");
    cr_assert_eq(t->nrows, 0);
    /* A statement without warnings clears them. */
    tx_exec(t, "select 1");
    tx_exec(t, "show warnings");
    cr_assert_eq(t->nrows, 0);
    /* An error is recorded as a condition of level Error. */
    cr_assert_eq(tx_err(t, "select nosuchcol"), 1054);
    tx_exec(t, "show warnings");
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_cell(t, 0, 0), "Error");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1054");
    cr_assert_str_eq(tx_cell(t, 0, 2), "Unknown column 'nosuchcol' in 'field list'");
    tx_exec(t, "show errors");
    cr_assert_eq(t->nrows, 1);
    cr_assert_str_eq(tx_one(t, "show count(*) errors"), "1");
    cr_assert_str_eq(tx_one(t, "select @@error_count"), "1");
    tx_exec(t, "selec");
    tx_exec(t, "show warnings");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1064");
    tx_exec(t, "select 'x' + 1");
    tx_exec(t, "show warnings");
    cr_assert_str_eq(tx_cell(t, 0, 2), "Truncated incorrect DOUBLE value: 'x'");
    tx_free(t);
}

Test(plan_exec, show_databases_tables_charsets)
{
    tx *t = tx_new();
    tx_exec(t, "show databases");
    cr_assert_str_eq(t->cols[0].name, "Database");
    cr_assert_eq(t->nrows, 2);
    cr_assert_str_eq(tx_cell(t, 0, 0), "information_schema");
    cr_assert_str_eq(tx_cell(t, 1, 0), "mysql");
    tx_exec(t, "show schemas like 'my%'");
    cr_assert_str_eq(t->cols[0].name, "Database (my%)");
    cr_assert_eq(t->nrows, 1);
    cr_assert_eq(tx_err(t, "show tables"), 1046);
    tx_exec(t, "use mysql");
    cr_assert_eq(tx_exec(t, "show tables"), DB_OK);
    cr_assert_str_eq(t->cols[0].name, "Tables_in_mysql");
    cr_assert_eq(t->nrows, 0);
    tx_exec(t, "show full tables from information_schema");
    cr_assert_eq(t->ncols, 2);
    cr_assert_eq(tx_err(t, "show tables from nosuch"), 1049);
    tx_exec(t, "show character set like 'utf8%'");
    cr_assert_eq(t->nrows, 2);
    cr_assert_str_eq(t->cols[2].name, "Default collation");
    tx_exec(t, "show collation where Charset = 'utf8mb4'");
    cr_assert_eq(t->nrows, 4);
    cr_assert_eq(tx_err(t, "show engines"), 1235);
    tx_free(t);
}

static int
fake_processlist(void *ctx, arena *a, plan_proc_row **rows, size_t *nrows, db_error *err)
{
    (void)ctx;
    (void)err;
    plan_proc_row *r = arena_calloc(a, 2, sizeof *r);
    r[0] = (plan_proc_row){7, "root", "127.0.0.1:5000", NULL, "Query", 0, "", NULL};
    char *info = arena_alloc(a, 201);
    memset(info, 'x', 200);
    info[200] = '\0';
    r[1] = (plan_proc_row){8, "app", "127.0.0.1:5001", "mysql", "Query", 12, "executing", info};
    *rows = r;
    *nrows = 2;
    return DB_OK;
}

static uint64_t killed_id;
static bool killed_query_only;

static int
fake_kill(void *ctx, uint64_t killer, uint64_t id, bool query_only, db_error *err)
{
    (void)ctx;
    (void)killer;
    if (id == 99) {
        return db_error_set(err, ER_NO_SUCH_THREAD, (unsigned long long)id);
    }
    killed_id = id;
    killed_query_only = query_only;
    return DB_OK;
}

Test(plan_exec, processlist_and_kill_use_hooks)
{
    plan_hooks h = {NULL, fake_processlist, fake_kill};
    tx *t = tx_new_hooks(&h);
    cr_assert_eq(tx_exec(t, "show processlist"), DB_OK);
    cr_assert_eq(t->ncols, 8);
    cr_assert_str_eq(t->cols[0].name, "Id");
    cr_assert_str_eq(t->cols[7].name, "Info");
    cr_assert_eq(t->nrows, 2);
    cr_assert_str_eq(tx_cell(t, 0, 3), "NULL");
    cr_assert_str_eq(tx_cell(t, 1, 5), "12");
    cr_assert_eq(strlen(tx_cell(t, 1, 7)), 100);
    tx_exec(t, "show full processlist");
    cr_assert_eq(strlen(tx_cell(t, 1, 7)), 200);
    cr_assert_eq(tx_exec(t, "kill 8"), DB_OK);
    cr_assert_eq(killed_id, 8);
    cr_assert_not(killed_query_only);
    cr_assert_eq(tx_exec(t, "KILL QUERY 9"), DB_OK);
    cr_assert_eq(killed_id, 9);
    cr_assert(killed_query_only);
    cr_assert_eq(tx_exec(t, "kill connection 10"), DB_OK);
    cr_assert_not(killed_query_only);
    cr_assert_str_eq(tx_one(t, "kill 99"), "ERR 1094 HY000 Unknown thread id: 99");
    tx_exec(t, "show status like 'Threads_connected'");
    cr_assert_str_eq(tx_cell(t, 0, 1), "2");
    tx_free(t);
}

Test(plan_exec, processlist_without_hooks_is_not_supported)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "show processlist"), 1235);
    cr_assert_eq(tx_err(t, "kill 1"), 1235);
    tx_free(t);
}

Test(plan_exec, sleep)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select sleep(0)"), "0");
    cr_assert_str_eq(tx_one(t, "select sleep(0.01)"), "0");
    cr_assert_eq(tx_err(t, "select sleep(-1)"), 1210);
    tx_free(t);
}

static void *
interrupter(void *arg)
{
    tx *t = arg;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    plan_session_interrupt(t->s);
    return NULL;
}

Test(plan_exec, kill_query_interrupts_sleep)
{
    tx *t = tx_new();
    pthread_t th;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_create(&th, NULL, interrupter, t);
    const char *r = tx_one(t, "select sleep(30)");
    pthread_join(th, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    cr_assert_str_eq(r, "ERR 1317 70100 Query execution was interrupted");
    cr_assert_lt(b.tv_sec - a.tv_sec, 5);
    /* The flag is cleared for the next statement. */
    cr_assert_str_eq(tx_one(t, "select sleep(0)"), "0");
    tx_free(t);
}

Test(plan_exec, cli_and_driver_queries)
{
    tx *t = tx_new();
    /* mysql CLI "status" */
    cr_assert_eq(tx_exec(t, "select DATABASE(), USER() limit 1"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "NULL");
    cr_assert_str_eq(tx_cell(t, 0, 1), "root@127.0.0.1");
    /* ODBC / JDBC catalog helpers that need no tables. */
    cr_assert_str_eq(tx_one(t, "SELECT UCASE('x'), LOCATE('(', 'int(11)')"), "X");
    cr_assert_str_eq(tx_cell(t, 0, 1), "4");
    cr_assert_str_eq(tx_one(t, "select SUBSTRING('int(11)', LOCATE('(', 'int(11)') + 1)"), "11)");
    cr_assert_str_eq(tx_one(t, "select CONVERT('12', UNSIGNED INTEGER) + 1"), "13");
    cr_assert_str_eq(tx_one(t, "select CAST('7' AS SIGNED), LEAST(3, 9)"), "7");
    cr_assert_str_eq(tx_one(t, "select IF(1 = 1, 'TABLE', 'VIEW')"), "TABLE");
    cr_assert_str_eq(tx_one(t, "select @dt := 5, @dt + 1"), "5");
    cr_assert_str_eq(tx_cell(t, 0, 1), "6");
    cr_assert_str_eq(tx_one(t, "select CHAR_LENGTH('abc'), LENGTH('abc')"), "3");
    cr_assert_str_eq(tx_one(t, "select CAST(3.14159 AS DECIMAL(10,2))"), "3.14");
    cr_assert_str_eq(tx_one(t, "select version() like '5.7%'"), "1");
    cr_assert_eq(tx_exec(t, "/*!40101 SET NAMES utf8mb4 */"), DB_OK);
    cr_assert_eq(tx_exec(t, "SELECT /*+ MAX_EXECUTION_TIME(1000) */ 1;"), DB_OK);
    cr_assert_eq(t->nrows, 1);
    cr_assert_eq(tx_err(t, ""), 1065);
    tx_free(t);
}
