/* SPDX-License-Identifier: Apache-2.0
 * System variables: the registry, defaults, reading @@x in every scope, SET with MySQL's
 * errors, global vs session semantics, and everything drivers read at connect time. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"
#include "planner/plan_int.h"

Test(plan_sysvar, registry_is_sorted_and_aliases_resolve)
{
    for (size_t i = 1; i < plan__sysvar_count(); i++) {
        cr_assert(strcmp(plan__sysvar_def(i - 1)->name, plan__sysvar_def(i)->name) < 0,
                  "%s before %s", plan__sysvar_def(i - 1)->name, plan__sysvar_def(i)->name);
    }
    cr_assert_eq(plan__sysvar_find("tx_isolation"), plan__sysvar_find("transaction_isolation"));
    cr_assert_eq(plan__sysvar_find("TX_READ_ONLY"), plan__sysvar_find("transaction_read_only"));
    cr_assert_eq(plan__sysvar_find("storage_engine"), plan__sysvar_find("default_storage_engine"));
    cr_assert_eq(plan__sysvar_find("nosuch"), -1);
}

Test(plan_sysvar, connect_time_reads)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "SELECT @@max_allowed_packet,@@system_time_zone,@@time_zone,"
                            "@@auto_increment_increment"),
                 DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "16777216");
    cr_assert_str_eq(tx_cell(t, 0, 1), "UTC");
    cr_assert_str_eq(tx_cell(t, 0, 2), "SYSTEM");
    cr_assert_str_eq(tx_cell(t, 0, 3), "1");
    cr_assert_eq(t->cols[0].type, PLAN_TYPE_BIGINT);
    cr_assert_str_eq(t->cols[0].name, "@@max_allowed_packet");
    cr_assert_str_eq(tx_one(t, "select @@version_comment limit 1"), "Rivulet test");
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "1");
    cr_assert_str_eq(tx_one(t, "select @@sql_mode"),
                     "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                     "ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION");
    cr_assert_eq(tx_exec(t, "select @@character_set_client, @@character_set_connection, "
                            "@@character_set_server, @@character_set_database limit 1"),
                 DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "utf8mb4");
    cr_assert_str_eq(tx_cell(t, 0, 1), "utf8mb4");
    cr_assert_str_eq(tx_cell(t, 0, 2), "utf8mb4");
    cr_assert_str_eq(tx_cell(t, 0, 3), "utf8mb4");
    cr_assert_str_eq(tx_one(t, "select @@tx_isolation"), "REPEATABLE-READ");
    cr_assert_str_eq(tx_one(t, "select @@transaction_isolation"), "REPEATABLE-READ");
    cr_assert_str_eq(tx_one(t, "select @@session.tx_read_only"), "0");
    cr_assert_str_eq(tx_one(t, "select @@global.version"), "5.7.99-rivulet-test");
    cr_assert_str_eq(tx_one(t, "select @@port"), "9030");
    cr_assert_str_eq(tx_one(t, "select @@license"), "Apache License, Version 2.0");
    cr_assert_str_eq(tx_one(t, "select @@lower_case_table_names"), "0");
    cr_assert_str_eq(tx_one(t, "select @@query_cache_type"), "OFF");
    cr_assert_str_eq(tx_one(t, "select @@query_cache_size"), "1048576");
    cr_assert_str_eq(tx_one(t, "select @@have_ssl"), "DISABLED");
    cr_assert_str_eq(tx_one(t, "select @@protocol_version"), "10");
    cr_assert_str_eq(tx_one(t, "select @@query_timeout"), "900");
    cr_assert_str_eq(tx_one(t, "select @@batch_size"), "4092");
    cr_assert_str_eq(tx_one(t, "select @@show_hidden_columns"), "0");
    cr_assert_str_eq(tx_one(t, "select @@wait_timeout, @@interactive_timeout"), "28800");
    cr_assert_str_eq(tx_one(t, "select @@performance_schema"), "0");
    cr_assert_str_eq(tx_one(t, "select @@div_precision_increment"), "4");
    cr_assert_str_eq(tx_one(t, "select @@sql_select_limit"), "18446744073709551615");
    cr_assert_str_eq(tx_one(t, "select @@datadir"), t->dir);
    cr_assert_str_eq(tx_one(t, "select @@max_connections"), "100");
    tx_free(t);
}

Test(plan_sysvar, connect_time_sets)
{
    tx *t = tx_new();
    const char *stmts[] = {
            "SET autocommit=0",
            "SET AUTOCOMMIT = 1",
            "set autocommit=1, sql_mode = concat(@@sql_mode,',STRICT_TRANS_TABLES')",
            "SET SESSION SQL_AUTO_IS_NULL=0",
            "SET session_track_schema= ON",
            "SET session_track_system_variables='autocommit,transaction_isolation'",
            "SET session_track_system_variables='autocommit,tx_isolation'",
            "SET NAMES utf8mb4",
            "SET NAMES 'utf8mb4' COLLATE 'utf8mb4_general_ci'",
            "SET NAMES utf8",
            "SET NAMES DEFAULT",
            "SET CHARACTER SET utf8mb4",
            "set character_set_results = NULL",
            "SET SQL_SELECT_LIMIT=DEFAULT",
            "SET @@session.autocommit = OFF",
            "SET LOCAL net_write_timeout = 600",
            "SET @@SESSION.sql_mode='ANSI'",
            "SET sql_mode=''",
            "SET time_zone = '+08:00'",
            "SET time_zone = 'SYSTEM'",
            "SET time_zone = 'UTC'",
            "set transaction_isolation='READ-COMMITTED'",
            "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE",
            "SET tx_read_only = 0",
            "SET @a = 1, @b := 2, autocommit = 1",
            "SET sql_mode = 'STRICT_TRANS_TABLES'",
            "set names utf8mb4 collate utf8mb4_unicode_ci",
            "SET SESSION wait_timeout=600",
    };
    for (size_t i = 0; i < sizeof stmts / sizeof stmts[0]; i++) {
        cr_expect_eq(tx_exec(t, stmts[i]), DB_OK, "%s: %s", stmts[i], t->err.msg);
        cr_expect_not(t->out.is_result_set);
    }
    tx_free(t);
}

Test(plan_sysvar, jdbc_sql_mode_concat)
{
    tx *t = tx_new();
    cr_assert_eq(
            tx_exec(t, "set autocommit=1, sql_mode = concat(@@sql_mode,',STRICT_TRANS_TABLES')"),
            DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_one(t, "select @@sql_mode"),
                     "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                     "ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION");
    tx_exec(t, "set sql_mode = 'ansi'");
    cr_assert_str_eq(
            tx_one(t, "select @@sql_mode"),
            "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI");
    /* PIPES_AS_CONCAT and ANSI_QUOTES now change the language. */
    cr_assert_str_eq(tx_one(t, "select 'a' || 'b'"), "ab");
    cr_assert_eq(tx_err(t, "select \"x\""), 1054);
    cr_assert_str_eq(tx_one(t, "SELECT @@sql_mode = 'x'"), "0");
    cr_assert_str_eq(tx_one(t, "set sql_mode = 'NOSUCH'"),
                     "ERR 1231 42000 Variable 'sql_mode' can't be set to the value of 'NOSUCH'");
    tx_free(t);
}

Test(plan_sysvar, set_errors)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "set nosuch = 1"),
                     "ERR 1193 HY000 Unknown system variable 'nosuch'");
    cr_assert_str_eq(tx_one(t, "select @@nosuch"),
                     "ERR 1193 HY000 Unknown system variable 'nosuch'");
    cr_assert_str_eq(tx_one(t, "set autocommit = 2"),
                     "ERR 1231 42000 Variable 'autocommit' can't be set to the value of '2'");
    cr_assert_str_eq(tx_one(t, "set autocommit = 'maybe'"),
                     "ERR 1231 42000 Variable 'autocommit' can't be set to the value of 'maybe'");
    cr_assert_str_eq(tx_one(t, "set autocommit = null"),
                     "ERR 1231 42000 Variable 'autocommit' can't be set to the value of 'NULL'");
    cr_assert_str_eq(tx_one(t, "set autocommit = 1.5"),
                     "ERR 1232 42000 Incorrect argument type to variable 'autocommit'");
    cr_assert_str_eq(tx_one(t, "set wait_timeout = 'x'"),
                     "ERR 1232 42000 Incorrect argument type to variable 'wait_timeout'");
    cr_assert_str_eq(
            tx_one(t, "set global insert_id = 1"),
            "ERR 1228 HY000 Variable 'insert_id' is a SESSION variable and can't be used with SET GLOBAL");
    cr_assert_str_eq(
            tx_one(t, "set init_connect = ''"),
            "ERR 1229 HY000 Variable 'init_connect' is a GLOBAL variable and should be set with SET GLOBAL");
    cr_assert_str_eq(tx_one(t, "set version = 'x'"),
                     "ERR 1238 HY000 Variable 'version' is a read only variable");
    cr_assert_str_eq(tx_one(t, "set warning_count = 1"),
                     "ERR 1238 HY000 Variable 'warning_count' is a read only variable");
    cr_assert_str_eq(tx_one(t, "select @@global.warning_count"),
                     "ERR 1238 HY000 Variable 'warning_count' is a SESSION variable");
    cr_assert_str_eq(tx_one(t, "select @@session.init_connect"),
                     "ERR 1238 HY000 Variable 'init_connect' is a GLOBAL variable");
    cr_assert_str_eq(
            tx_one(t, "set max_allowed_packet = 1024"),
            "ERR 1621 HY000 SESSION variable 'max_allowed_packet' is read-only. Use SET GLOBAL to assign the value");
    cr_assert_str_eq(tx_one(t, "set character_set_client = 'klingon'"),
                     "ERR 1115 42000 Unknown character set: 'klingon'");
    cr_assert_str_eq(tx_one(t, "set collation_connection = 'nosuch_ci'"),
                     "ERR 1273 HY000 Unknown collation: 'nosuch_ci'");
    cr_assert_str_eq(
            tx_one(t, "set names utf8mb4 collate latin1_bin"),
            "ERR 1253 42000 COLLATION 'latin1_bin' is not valid for CHARACTER SET 'utf8mb4'");
    cr_assert_str_eq(tx_one(t, "set time_zone = 'Mars/Base'"),
                     "ERR 1298 HY000 Unknown or incorrect time zone: 'Mars/Base'");
    cr_assert_eq(tx_err(t, "set time_zone = '+15:00'"), 1298);
    cr_assert_eq(tx_err(t, "set tx_isolation = 'SNAPSHOT'"), 1231);
    cr_assert_eq(tx_err(t, "set session_track_system_variables = 'nosuch'"), 1231);
    cr_assert_eq(tx_err(t, "set password = 'x'"), 1235);
    tx_free(t);
}

Test(plan_sysvar, failed_set_changes_nothing)
{
    tx *t = tx_new();
    cr_assert_eq(tx_err(t, "set autocommit = 0, nosuch = 1"), 1193);
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "1");
    tx_free(t);
}

Test(plan_sysvar, values_round_trip)
{
    tx *t = tx_new();
    tx_exec(t, "set autocommit = off");
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "0");
    tx_exec(t, "set autocommit = true");
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "1");
    tx_exec(t, "set tx_isolation = 'read-committed'");
    cr_assert_str_eq(tx_one(t, "select @@transaction_isolation"), "READ-COMMITTED");
    tx_exec(t, "set transaction_isolation = 0");
    cr_assert_str_eq(tx_one(t, "select @@tx_isolation"), "READ-UNCOMMITTED");
    tx_exec(t, "set session transaction isolation level repeatable read, read only");
    cr_assert_str_eq(tx_one(t, "select @@tx_isolation"), "REPEATABLE-READ");
    cr_assert_str_eq(tx_one(t, "select @@transaction_read_only"), "1");
    tx_exec(t, "set time_zone = '+8:00'");
    cr_assert_str_eq(tx_one(t, "select @@time_zone"), "+08:00");
    tx_exec(t, "set collation_connection = utf8mb4_bin");
    cr_assert_str_eq(tx_one(t, "select @@character_set_connection"), "utf8mb4");
    tx_exec(t, "set character_set_connection = latin1");
    cr_assert_str_eq(tx_one(t, "select @@collation_connection"), "latin1_swedish_ci");
    tx_exec(t, "set names utf8");
    cr_assert_str_eq(tx_one(t, "select @@character_set_client"), "utf8");
    cr_assert_str_eq(tx_one(t, "select @@collation_connection"), "utf8_general_ci");
    cr_assert_eq(plan_session_result_collation(t->s), 33);
    tx_exec(t, "set character_set_results = null");
    cr_assert_str_eq(tx_one(t, "select @@character_set_results"), "NULL");
    tx_exec(t, "set wait_timeout = 0");
    cr_assert_str_eq(tx_one(t, "select @@wait_timeout"), "1");
    cr_assert_eq(plan_session_warning_count(t->s), 0); /* the SELECT cleared it */
    tx_exec(t, "set wait_timeout = 0");
    cr_assert_eq(plan_session_warning_count(t->s), 1);
    tx_exec(t, "set sql_mode = 3");
    cr_assert_str_eq(tx_one(t, "select @@sql_mode"), "REAL_AS_FLOAT,PIPES_AS_CONCAT");
    tx_exec(t, "set sql_mode = default");
    cr_assert(strncmp(tx_one(t, "select @@sql_mode"), "ONLY_FULL_GROUP_BY", 18) == 0);
    tx_free(t);
}

Test(plan_sysvar, global_affects_new_sessions_only)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "set global wait_timeout = 100"), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_one(t, "select @@wait_timeout"), "28800");
    cr_assert_str_eq(tx_one(t, "select @@global.wait_timeout"), "100");
    plan_session_init si = {.conn_id = 8, .user = "u", .host = "h", .collation = 45};
    plan_session *s2 = plan_session_new(t->srv, &si);
    plan_session *old = t->s;
    t->s = s2;
    cr_assert_str_eq(tx_one(t, "select @@wait_timeout"), "100");
    /* u has no privileges in the catalog: SET GLOBAL fails closed; root may. */
    cr_assert_neq(tx_exec(t, "set @@global.max_allowed_packet = 2048"), DB_OK);
    cr_assert_eq(t->err.code, 1227, "%d %s", t->err.code, t->err.msg);
    t->s = old;
    cr_assert_eq(tx_exec(t, "set @@global.max_allowed_packet = 2048"), DB_OK, "%s", t->err.msg);
    t->s = s2;
    cr_assert_eq(plan_session_max_allowed_packet(s2), 16777216);
    tx_exec(t, "set wait_timeout = default");
    cr_assert_str_eq(tx_one(t, "select @@session.wait_timeout"), "100");
    t->s = old;
    plan_session_free(s2);
    /* SET GLOBAL a, b: the scope carries to b. */
    cr_assert_eq(tx_exec(t, "set global net_read_timeout = 5, net_write_timeout = 6"), DB_OK);
    cr_assert_str_eq(tx_one(t, "select @@global.net_write_timeout"), "6");
    cr_assert_str_eq(tx_one(t, "select @@net_write_timeout"), "60");
    tx_free(t);
}

Test(plan_sysvar, handshake_collation_sets_charsets)
{
    tx *t = tx_new();
    plan_session_init si = {.conn_id = 9, .user = "u", .host = "h", .collation = 33};
    plan_session *s = plan_session_new(t->srv, &si);
    plan_session *old = t->s;
    t->s = s;
    cr_assert_str_eq(tx_one(t, "select @@character_set_client"), "utf8");
    cr_assert_str_eq(tx_one(t, "select @@collation_connection"), "utf8_general_ci");
    cr_assert_eq(plan_session_result_collation(s), 33);
    t->s = old;
    plan_session_free(s);
    cr_assert_eq(plan_session_result_collation(t->s), 45);
    tx_free(t);
}

Test(plan_sysvar, autocommit_and_transactions_drive_status)
{
    tx *t = tx_new();
    cr_assert_eq(plan_session_status(t->s), 0x0002);
    tx_exec(t, "set autocommit = 0");
    cr_assert_eq(plan_session_status(t->s), 0x0000);
    tx_exec(t, "begin");
    cr_assert_eq(plan_session_status(t->s), 0x0001);
    tx_exec(t, "commit");
    cr_assert_eq(plan_session_status(t->s), 0x0000);
    tx_exec(t, "START TRANSACTION");
    cr_assert_eq(tx_err(t, "set transaction isolation level serializable"), 1568);
    tx_exec(t, "set autocommit = 1"); /* commits */
    cr_assert_eq(plan_session_status(t->s), 0x0002);
    tx_exec(t, "start transaction read only");
    tx_exec(t, "rollback work");
    cr_assert_eq(plan_session_status(t->s), 0x0002);
    tx_exec(t, "set sql_mode = 'NO_BACKSLASH_ESCAPES'");
    cr_assert_eq(plan_session_status(t->s), 0x0202);
    cr_assert_str_eq(tx_one(t, "select 'a\\nb'"), "a\\nb");
    tx_free(t);
}

Test(plan_sysvar, reset_restores_globals)
{
    tx *t = tx_new();
    tx_exec(t, "set autocommit = 0, @u = 1");
    tx_exec(t, "begin");
    plan_session_reset(t->s, "other", "10.0.0.1");
    cr_assert_str_eq(tx_one(t, "select @@autocommit"), "1");
    cr_assert_str_eq(tx_one(t, "select @u"), "NULL");
    cr_assert_str_eq(tx_one(t, "select user()"), "other@10.0.0.1");
    cr_assert_eq(plan_session_status(t->s), 0x0002);
    tx_free(t);
}

Test(plan_sysvar, timestamp_fixes_now_for_the_session)
{
    tx *t = tx_new();
    cr_assert_eq(tx_exec(t, "set time_zone = '+00:00'"), DB_OK);
    cr_assert_eq(tx_exec(t, "set timestamp = 1700000000"), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_one(t, "select now()"), "2023-11-14 22:13:20");
    cr_assert_str_eq(tx_one(t, "select current_timestamp(3), unix_timestamp()"),
                     "2023-11-14 22:13:20.000");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1700000000");
    cr_assert_str_eq(tx_one(t, "select @@timestamp"), "1700000000.000000");
    cr_assert_str_eq(tx_one(t, "select @@session.timestamp"), "1700000000.000000");
    cr_assert_eq(tx_exec(t, "set @@timestamp = 1700000000.25"), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_one(t, "select now(2)"), "2023-11-14 22:13:20.25");
    cr_assert_str_eq(tx_one(t, "select @@timestamp"), "1700000000.250000");
    cr_assert_str_eq(tx_one(t, "select @@timestamp - 1700000000"), "0.250000");
    cr_assert_str_eq(tx_one(t, "select @@timestamp - @@timestamp"), "0.000000");
    cr_assert_eq(tx_exec(t, "show variables like 'timestamp'"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 1), "1700000000.250000");
    cr_assert_eq(tx_exec(t, "set time_zone = '+01:00'"), DB_OK);
    cr_assert_str_eq(tx_one(t, "select now()"), "2023-11-14 23:13:20");
    /* DEFAULT and 0 give the clock back. */
    cr_assert_eq(tx_exec(t, "set timestamp = default"), DB_OK, "%s", t->err.msg);
    cr_assert(strncmp(tx_one(t, "select @@timestamp"), "1700000000", 10) != 0);
    cr_assert(strncmp(tx_one(t, "select now()"), "2023-11-14", 10) != 0);
    cr_assert_eq(tx_exec(t, "set timestamp = 86400"), DB_OK);
    cr_assert_str_eq(tx_one(t, "select now()"), "1970-01-02 01:00:00");
    cr_assert_eq(tx_exec(t, "set timestamp = 0"), DB_OK);
    cr_assert(strncmp(tx_one(t, "select now()"), "1970", 4) != 0);
    tx_free(t);
}

Test(plan_sysvar, timestamp_clock_reading_has_microseconds)
{
    tx *t = tx_new();
    const char *v = tx_one(t, "select @@timestamp");
    const char *dot = strchr(v, '.');
    cr_assert_not_null(dot, "%s", v);
    cr_assert_eq(strlen(dot + 1), 6, "%s", v);
    cr_assert_geq(dot - v, 10, "%s", v);
    tx_free(t);
}

Test(plan_sysvar, timestamp_errors_and_scope)
{
    tx *t = tx_new();
    cr_assert_str_eq(
            tx_one(t, "set global timestamp = 1"),
            "ERR 1228 HY000 Variable 'timestamp' is a SESSION variable and can't be used with SET GLOBAL");
    cr_assert_str_eq(tx_one(t, "select @@global.timestamp"),
                     "ERR 1238 HY000 Variable 'timestamp' is a SESSION variable");
    cr_assert_str_eq(tx_one(t, "set timestamp = -1"),
                     "ERR 1231 42000 Variable 'timestamp' can't be set to the value of '-1'");
    cr_assert_str_eq(
            tx_one(t, "set timestamp = 2147483648"),
            "ERR 1231 42000 Variable 'timestamp' can't be set to the value of '2147483648'");
    cr_assert_str_eq(tx_one(t, "set timestamp = 'x'"),
                     "ERR 1232 42000 Incorrect argument type to variable 'timestamp'");
    cr_assert_str_eq(tx_one(t, "set timestamp = null"),
                     "ERR 1232 42000 Incorrect argument type to variable 'timestamp'");
    /* The session-only variable does not leak into other sessions or survive a reset. */
    cr_assert_eq(tx_exec(t, "set timestamp = 1700000000"), DB_OK);
    plan_session_reset(t->s, NULL, NULL);
    cr_assert(strncmp(tx_one(t, "select @@timestamp"), "1700000000", 10) != 0);
    tx_free(t);
}

Test(plan_sysvar, scope_is_checked_before_read_only_for_config_globals)
{
    tx *t = tx_new();
    cr_assert_str_eq(
            tx_one(t, "set session max_connections = 10"),
            "ERR 1229 HY000 Variable 'max_connections' is a GLOBAL variable and should be set with SET GLOBAL");
    cr_assert_str_eq(
            tx_one(t, "set max_connections = 10"),
            "ERR 1229 HY000 Variable 'max_connections' is a GLOBAL variable and should be set with SET GLOBAL");
    cr_assert_str_eq(
            tx_one(t, "set @@local.max_connections = 10"),
            "ERR 1229 HY000 Variable 'max_connections' is a GLOBAL variable and should be set with SET GLOBAL");
    cr_assert_str_eq(tx_one(t, "set global max_connections = 10"),
                     "ERR 1238 HY000 Variable 'max_connections' is a read only variable");
    /* Read-only in MySQL too: read-only comes first, whatever the scope. */
    cr_assert_str_eq(tx_one(t, "set session port = 1"),
                     "ERR 1238 HY000 Variable 'port' is a read only variable");
    cr_assert_str_eq(tx_one(t, "set global warning_count = 1"),
                     "ERR 1238 HY000 Variable 'warning_count' is a read only variable");
    cr_assert_str_eq(tx_one(t, "set session version = 'x'"),
                     "ERR 1238 HY000 Variable 'version' is a read only variable");
    cr_assert_str_eq(tx_one(t, "select @@session.max_connections"),
                     "ERR 1238 HY000 Variable 'max_connections' is a GLOBAL variable");
    cr_assert_str_eq(tx_one(t, "select @@max_connections"), "100");
    tx_free(t);
}
