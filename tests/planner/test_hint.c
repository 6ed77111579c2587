/* SPDX-License-Identifier: Apache-2.0
 * test_hint.c: optimizer hints (SET_VAR applied for one statement and restored, also on
 * error) and information_schema / SHOW filtered by the account's privileges (SCHEMATA, TABLES,
 * COLUMNS, SHOW DATABASES / TABLES, USER_PRIVILEGES) on a real catalog in a temporary
 * directory. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "planner/plan_int.h"
#include "tests/planner/plan_testutil.h"

static void ok(tx *t, const char *sql);
static void expect_err(tx *t, const char *sql, int code);
static void priv_setup(void);
static void priv_teardown(void);
static tx *login(const char *user, const char *account_host, uint64_t id);
static void logout(tx *t);
static const char *column(tx *t, size_t col);

static void
ok(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

static void
expect_err(tx *t, const char *sql, int code)
{
    cr_assert_eq(tx_exec(t, sql), DB_ERR, "%s succeeded", sql);
    cr_assert_eq(t->err.code, code, "%s: %d %s", sql, t->err.code, t->err.msg);
}

/* ---- SET_VAR hints (no catalog) ---- */

Test(plan_hint, time_zone_for_one_statement)
{
    tx *t = tx_new();
    char before[64];
    snprintf(before, sizeof before, "%s", tx_one(t, "SELECT @@time_zone"));
    cr_assert_str_neq(before, "+08:00");
    cr_assert_str_eq(tx_one(t, "SELECT /*+ SET_VAR(time_zone='+08:00') */ @@time_zone"), "+08:00");
    cr_assert_str_eq(tx_one(t, "SELECT @@time_zone"), before);
    cr_assert_str_eq(tx_one(t, "SELECT @@session.time_zone"), before);
    tx_free(t);
}

Test(plan_hint, sql_select_limit_on_information_schema)
{
    tx *t = tx_new();
    ok(t, "SELECT table_name FROM information_schema.tables");
    cr_assert_gt(t->nrows, 1);
    ok(t, "SELECT /*+ SET_VAR(sql_select_limit=1) */ table_name FROM information_schema.tables");
    cr_assert_eq(t->nrows, 1);
    ok(t, "select /*+ set_var(SQL_SELECT_LIMIT = 2) */ table_name from information_schema.tables");
    cr_assert_eq(t->nrows, 2);
    ok(t, "SELECT table_name FROM information_schema.tables");
    cr_assert_gt(t->nrows, 2);
    tx_free(t);
}

Test(plan_hint, several_items_and_literal_kinds)
{
    tx *t = tx_new();
    ok(t, "SELECT /*+ SET_VAR(autocommit=OFF, div_precision_increment=2, "
          "sql_mode='ANSI_QUOTES', unique_checks=false, wait_timeout=+77) */ "
          "@@autocommit, 1/3, @@sql_mode, @@unique_checks, @@wait_timeout");
    cr_assert_str_eq(tx_cell(t, 0, 0), "0");
    cr_assert_str_eq(tx_cell(t, 0, 1), "0.33");
    cr_assert_str_eq(tx_cell(t, 0, 2), "ANSI_QUOTES");
    cr_assert_str_eq(tx_cell(t, 0, 3), "0");
    cr_assert_str_eq(tx_cell(t, 0, 4), "77");
    ok(t, "SELECT @@autocommit, 1/3, @@sql_mode = 'ANSI_QUOTES', @@unique_checks, @@wait_timeout");
    cr_assert_str_eq(tx_cell(t, 0, 0), "1");
    cr_assert_str_eq(tx_cell(t, 0, 1), "0.3333");
    cr_assert_str_eq(tx_cell(t, 0, 2), "0");
    cr_assert_str_eq(tx_cell(t, 0, 3), "1");
    cr_assert_str_eq(tx_cell(t, 0, 4), "28800");
    /* Several SET_VAR hints and other hints (ignored) in one comment; a negative number. */
    ok(t, "SELECT /*+ LEADING(t1 t2) SET_VAR(autocommit=0) ORDERED SET_VAR(wait_timeout=-5) */ "
          "@@autocommit, @@wait_timeout");
    cr_assert_str_eq(tx_cell(t, 0, 0), "0");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1"); /* clamped to the minimum, as SET */
    tx_free(t);
}

Test(plan_hint, now_follows_time_zone_and_timestamp)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "SELECT /*+ SET_VAR(timestamp=86400, time_zone='+08:00') */ NOW()"),
                     "1970-01-02 08:00:00");
    cr_assert_str_neq(tx_one(t, "SELECT UNIX_TIMESTAMP()"), "86400");
    tx_free(t);
}

Test(plan_hint, unknown_variable_is_1193_and_nothing_changes)
{
    tx *t = tx_new();
    expect_err(t, "SELECT /*+ SET_VAR(wait_timeout=5, no_such_var=1) */ @@wait_timeout", 1193);
    cr_assert_str_eq(t->err.msg, "Unknown system variable 'no_such_var'");
    /* The failure is the statement's condition. */
    ok(t, "SHOW WARNINGS");
    cr_assert_str_eq(tx_cell(t, 0, 1), "1193");
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout"), "28800");
    tx_free(t);
}

Test(plan_hint, restored_after_errors)
{
    tx *t = tx_new();
    /* The statement fails after the hint was applied. */
    expect_err(t, "SELECT /*+ SET_VAR(wait_timeout=5) */ no_such_column", 1054);
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout"), "28800");
    /* A later item of the hint has a bad value: the earlier ones are undone. */
    expect_err(t, "SELECT /*+ SET_VAR(wait_timeout=5, autocommit='maybe') */ 1", 1231);
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout"), "28800");
    /* A read-only or global-only variable, as SET. */
    expect_err(t, "SELECT /*+ SET_VAR(version='x') */ 1", 1238);
    tx_free(t);
}

Test(plan_hint, syntax_errors_are_1064)
{
    tx *t = tx_new();
    expect_err(t, "SELECT /*+ SET_VAR(wait_timeout) */ 1", 1064);
    cr_assert_str_eq(t->err.msg, "You have an error in your SQL syntax; check the manual that "
                                 "corresponds to your MySQL server version for the right syntax "
                                 "to use near ') ' at line 1");
    expect_err(t, "SELECT /*+ SET_VAR(wait_timeout=5 */ 1", 1064);
    expect_err(t, "SELECT /*+ SET_VAR(wait_timeout=-'x') */ 1", 1064);
    expect_err(t, "SELECT /*+ SET_VAR */ 1", 1064);
    expect_err(t, "SELECT /*+ (1) */ 1", 1064);
    expect_err(t, "SELECT\n/*+\nSET_VAR(=1) */ 1", 1064);
    cr_assert(strstr(t->err.msg, "at line 3") != NULL, "%s", t->err.msg);
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout"), "28800");
    tx_free(t);
}

Test(plan_hint, only_right_after_the_first_keyword)
{
    tx *t = tx_new();
    /* Elsewhere a hint is a comment: nothing is parsed or applied. */
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout /*+ SET_VAR(wait_timeout=5) */"), "28800");
    cr_assert_str_eq(tx_one(t, "/*+ SET_VAR(wait_timeout=5) */ SELECT @@wait_timeout"), "28800");
    ok(t, "SET /*+ SET_VAR(no_such_var=1) */ @hint_x = 1");
    /* Hints other than SET_VAR are ignored, with or without arguments. */
    cr_assert_str_eq(tx_one(t, "SELECT /*+ no_such hint(a (b) c) */ @@wait_timeout"), "28800");
    cr_assert_str_eq(tx_one(t, "SELECT /*+ 5 */ @@wait_timeout /*+ SET_VAR(x=1) */"),
                     "ERR 1064 42000 You have an error in your SQL syntax; check the manual that "
                     "corresponds to your MySQL server version for the right syntax to use near "
                     "'5 ' at line 1");
    /* Only the first hint comment counts. */
    cr_assert_str_eq(tx_one(t,
                            "SELECT /*+ SET_VAR(wait_timeout=6) */ /*+ SET_VAR(wait_timeout=7) */ "
                            "@@wait_timeout"),
                     "6");
    tx_free(t);
}

Test(plan_hint, prepared_statements)
{
    tx *t = tx_new();
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(t, "SELECT /*+ SET_VAR(wait_timeout=9) */ @@wait_timeout", &id, &np),
                 DB_OK, "%s", t->err.msg);
    cr_assert_eq(tx_exec_prepared(t, id, NULL, 0), DB_OK, "%s", t->err.msg);
    cr_assert_str_eq(tx_cell(t, 0, 0), "9");
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout"), "28800");
    cr_assert_eq(tx_prepare(t, "SELECT /*+ SET_VAR(nope=9) */ 1", &id, &np), DB_ERR);
    cr_assert_eq(t->err.code, 1193);
    ok(t, "PREPARE p FROM 'SELECT /*+ SET_VAR(wait_timeout=11) */ @@wait_timeout'");
    cr_assert_str_eq(tx_one(t, "EXECUTE p"), "11");
    cr_assert_str_eq(tx_one(t, "SELECT @@wait_timeout"), "28800");
    tx_free(t);
}

/* ---- information_schema and SHOW filtered by privileges ---- */

static char dir[64];
static tx_store store;
static plan_server *srv;
static tx *root;

static tx *
login(const char *user, const char *account_host, uint64_t id)
{
    tx *t = mem_calloc(1, sizeof *t);
    plan_session_init ss;
    memset(&ss, 0, sizeof ss);
    ss.conn_id = id;
    ss.user = user;
    ss.host = "127.0.0.1";
    ss.account_host = account_host;
    ss.collation = 45;
    t->srv = srv;
    t->s = plan_session_new(srv, &ss);
    t->a = arena_new(0);
    return t;
}

static void
logout(tx *t)
{
    plan_session_free(t->s);
    arena_free(t->a);
    mem_free(t);
}

static void
priv_setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rivulet-test-hint-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    tx_store_open(&store, dir);
    plan_server_init si;
    tx_store_server_init(&store, &si);
    srv = plan_server_new(&si);
    root = login("root", "%", 1);
    static const char *const setup[] = {
            "CREATE DATABASE db1",
            "CREATE DATABASE db2",
            "CREATE TABLE db1.t1 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
            "CREATE TABLE db1.t2 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
            "CREATE TABLE db2.u (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1",
            "CREATE USER alice",
            "CREATE USER bob",
            "GRANT SELECT_PRIV ON db1.t1 TO alice",
    };
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        ok(root, setup[i]);
    }
}

static void
priv_teardown(void)
{
    logout(root);
    plan_server_free(srv);
    tx_store_close(&store, false);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* Column col of every row, joined with ','. */
static const char *
column(tx *t, size_t col)
{
    t->buf[0] = '\0';
    for (size_t r = 0; r < t->nrows; r++) {
        size_t n = strlen(t->buf);
        snprintf(t->buf + n, sizeof t->buf - n, "%s%s", r ? "," : "", tx_cell(t, r, col));
    }
    return t->buf;
}

TestSuite(plan_hint_priv, .init = priv_setup, .fini = priv_teardown);

Test(plan_hint_priv, schemata_and_show_databases)
{
    tx *a = login("alice", "%", 2);
    ok(a, "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name");
    cr_assert_str_eq(column(a, 0), "db1,information_schema");
    ok(a, "SHOW DATABASES");
    cr_assert_str_eq(column(a, 0), "db1,information_schema");
    ok(root, "SHOW DATABASES");
    cr_assert_str_eq(column(root, 0), "db1,db2,information_schema,mysql");
    ok(root, "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name");
    cr_assert_str_eq(column(root, 0), "db1,db2,information_schema,mysql");
    /* A grant on db2 makes it visible at once. */
    ok(root, "GRANT LOAD_PRIV ON db2.* TO alice");
    ok(a, "SHOW DATABASES");
    cr_assert_str_eq(column(a, 0), "db1,db2,information_schema");
    logout(a);
}

Test(plan_hint_priv, tables_and_columns)
{
    tx *a = login("alice", "%", 2);
    ok(a, "SELECT table_name FROM information_schema.tables WHERE table_schema <> "
          "'information_schema' ORDER BY table_name");
    cr_assert_str_eq(column(a, 0), "t1");
    ok(a, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = "
          "'information_schema'");
    cr_assert_str_neq(tx_cell(a, 0, 0), "0");
    ok(a, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
          "'db1'");
    cr_assert_str_eq(column(a, 0), "t1");
    ok(root, "SELECT table_name FROM information_schema.tables WHERE table_schema <> "
             "'information_schema' ORDER BY table_name");
    cr_assert_str_eq(column(root, 0), "t1,t2,u");
    ok(root, "SELECT table_name FROM information_schema.columns WHERE table_schema = 'db1' "
             "ORDER BY table_name");
    cr_assert_str_eq(column(root, 0), "t1,t2");
    /* A database-level grant shows every table of the database. */
    ok(root, "GRANT SELECT_PRIV ON db2.* TO alice");
    ok(a, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'db2'");
    cr_assert_str_eq(column(a, 0), "u");
    logout(a);
}

Test(plan_hint_priv, show_tables)
{
    tx *a = login("alice", "%", 2);
    ok(a, "SHOW TABLES FROM db1");
    cr_assert_str_eq(column(a, 0), "t1");
    ok(root, "SHOW TABLES FROM db1");
    cr_assert_str_eq(column(root, 0), "t1,t2");
    expect_err(a, "SHOW TABLES FROM db2", 1044);
    cr_assert(strstr(a->err.msg, "denied") != NULL, "%s", a->err.msg);
    ok(a, "SHOW TABLES FROM information_schema");
    cr_assert_gt(a->nrows, 5);
    tx *b = login("bob", "%", 3);
    ok(b, "SHOW DATABASES");
    cr_assert_str_eq(column(b, 0), "information_schema");
    ok(b, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema <> "
          "'information_schema'");
    cr_assert_str_eq(tx_cell(b, 0, 0), "0");
    logout(b);
    logout(a);
}

Test(plan_hint_priv, user_privileges)
{
    tx *a = login("alice", "%", 2);
    tx *b = login("bob", "%", 3);
    /* No global grant: no row. */
    ok(a, "SELECT * FROM information_schema.user_privileges");
    cr_assert_eq(a->nrows, 0);
    ok(root, "GRANT SELECT_PRIV, LOAD_PRIV ON *.* TO alice");
    ok(a, "SELECT grantee, table_catalog, privilege_type, is_grantable FROM "
          "information_schema.user_privileges");
    cr_assert_eq(a->nrows, 2);
    cr_assert_str_eq(tx_cell(a, 0, 0), "'alice'@'%'");
    cr_assert_str_eq(tx_cell(a, 0, 1), "def");
    cr_assert_str_eq(tx_cell(a, 0, 2), "Select_priv");
    cr_assert_str_eq(tx_cell(a, 0, 3), "NO");
    cr_assert_str_eq(tx_cell(a, 1, 2), "Load_priv");
    /* root sees its own six and everybody's. */
    ok(root,
       "SELECT grantee, privilege_type, is_grantable FROM information_schema.user_privileges");
    cr_assert_eq(root->nrows, 8);
    cr_assert_str_eq(tx_cell(root, 0, 0), "'root'@'%'");
    cr_assert_str_eq(tx_cell(root, 5, 1), "Admin_priv");
    cr_assert_str_eq(tx_cell(root, 5, 2), "YES");
    cr_assert_str_eq(tx_cell(root, 6, 0), "'alice'@'%'");
    /* bob sees none of alice's rows; once ADMIN, bob sees everything. */
    ok(b, "SELECT * FROM information_schema.user_privileges");
    cr_assert_eq(b->nrows, 0);
    ok(root, "GRANT ADMIN_PRIV ON *.* TO bob");
    ok(b, "SELECT grantee, privilege_type, is_grantable FROM information_schema.user_privileges "
          "WHERE grantee <> '''root''@''%'''");
    cr_assert_str_eq(column(b, 0), "'alice'@'%','alice'@'%','bob'@'%'");
    cr_assert_str_eq(tx_cell(b, 2, 2), "YES");
    ok(b, "SHOW DATABASES");
    cr_assert_str_eq(column(b, 0), "db1,db2,information_schema,mysql");
    logout(b);
    logout(a);
}
