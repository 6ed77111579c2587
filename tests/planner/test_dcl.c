/* SPDX-License-Identifier: Apache-2.0
 * test_dcl.c: users and privileges through SQL, on a real catalog in a temporary directory:
 * CREATE / DROP / ALTER USER, SET PASSWORD, GRANT / REVOKE, SHOW GRANTS / USERS, CURRENT_USER,
 * persistence across a reopen, and the refusals (1044, 1142, 1227, every text with "denied").
 * White-box where it calls plan__check_priv directly. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "common/mem.h"
#include "planner/plan_int.h"
#include "tests/planner/plan_testutil.h"

static char dir[64];
static tx_store store;
static cat_meta *meta; /* store.meta */
static plan_server *srv;

static void dcl_setup(void);
static void dcl_teardown(void);
static void server_open(const plan_hooks *hooks);
static void server_close(void);
static tx *login(const char *user, const char *host, const char *account_host, uint64_t id);
static void logout(tx *t);
static void ok(tx *t, const char *sql);
static void expect_err(tx *t, const char *sql, int code, const char *msg);
static void expect_password(const char *user, const char *host, const char *password);

static void
server_open(const plan_hooks *hooks)
{
    tx_store_open(&store, dir);
    meta = store.meta;
    plan_server_init si;
    tx_store_server_init(&store, &si);
    if (hooks) {
        si.hooks = *hooks;
    }
    srv = plan_server_new(&si);
}

static void
server_close(void)
{
    plan_server_free(srv);
    srv = NULL;
    tx_store_close(&store, false);
    meta = NULL;
}

static void
dcl_setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rivulet-test-dcl-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    server_open(NULL);
}

static void
dcl_teardown(void)
{
    if (srv) {
        server_close();
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* A session of user (connected from host) logged in as account user@account_host. */
static tx *
login(const char *user, const char *host, const char *account_host, uint64_t id)
{
    tx *t = mem_calloc(1, sizeof *t);
    plan_session_init ss;
    memset(&ss, 0, sizeof ss);
    ss.conn_id = id;
    ss.user = user;
    ss.host = host;
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
ok(tx *t, const char *sql)
{
    cr_assert_eq(tx_exec(t, sql), DB_OK, "%s: %d %s", sql, t->err.code, t->err.msg);
}

static void
expect_err(tx *t, const char *sql, int code, const char *msg)
{
    cr_assert_eq(tx_exec(t, sql), DB_ERR, "%s succeeded", sql);
    cr_assert_eq(t->err.code, code, "%s: %d %s", sql, t->err.code, t->err.msg);
    if (msg) {
        cr_assert_str_eq(t->err.msg, msg, "%s", sql);
    }
}

static void
expect_password(const char *user, const char *host, const char *password)
{
    uint8_t stage2[20], want[20];
    bool has = false;
    char matched[64];
    cr_assert(cat_users_login(cat_meta_users(meta), user, host, stage2, &has, matched,
                              sizeof matched));
    cr_assert(has);
    cat_password_hash(password, strlen(password), want);
    cr_assert_arr_eq(stage2, want, 20, "password of %s is not %s", user, password);
}

TestSuite(plan_dcl, .init = dcl_setup, .fini = dcl_teardown);

Test(plan_dcl, create_and_drop_user)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER 'alice'@'%' IDENTIFIED BY 'pw1'");
    ok(root, "create user bob");
    ok(root, "CREATE USER carol@'10.0.0.%'");
    expect_password("alice", "1.2.3.4", "pw1");
    cr_assert(cat_users_exists(cat_meta_users(meta), "bob", "%"));
    cr_assert(cat_users_exists(cat_meta_users(meta), "carol", "10.0.0.%"));
    expect_err(root, "CREATE USER alice", 1396, "Operation CREATE USER failed for 'alice'@'%'");
    ok(root, "CREATE USER IF NOT EXISTS alice");
    expect_err(root, "CREATE USER root", 1396, NULL);

    ok(root, "SHOW USERS");
    cr_assert_str_eq(root->cols[0].name, "UserIdentity");
    cr_assert_eq(root->nrows, 4);
    cr_assert_str_eq(tx_cell(root, 0, 0), "'root'@'%'");
    cr_assert_str_eq(tx_cell(root, 1, 0), "'alice'@'%'");
    cr_assert_str_eq(tx_cell(root, 2, 0), "'bob'@'%'");
    cr_assert_str_eq(tx_cell(root, 3, 0), "'carol'@'10.0.0.%'");

    ok(root, "DROP USER 'bob'@'%'");
    cr_assert_not(cat_users_exists(cat_meta_users(meta), "bob", "%"));
    expect_err(root, "DROP USER bob", 1396, "Operation DROP USER failed for 'bob'@'%'");
    ok(root, "DROP USER IF EXISTS bob");
    expect_err(root, "CREATE USER 'x'@'%' IDENTIFIED BY PASSWORD '*0123'", 1235, NULL);
    logout(root);
}

Test(plan_dcl, grant_revoke_and_show_grants)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER alice");
    ok(root, "SHOW GRANTS FOR alice");
    cr_assert_str_eq(root->cols[0].name, "Grants for alice@%");
    cr_assert_eq(root->nrows, 1);
    cr_assert_str_eq(tx_cell(root, 0, 0), "GRANT USAGE ON *.* TO 'alice'@'%'");

    ok(root, "GRANT SELECT_PRIV ON db1.* TO 'alice'@'%'");
    ok(root, "grant select, insert, alter on internal.db2.t1 to alice");
    ok(root, "GRANT ALL PRIVILEGES ON db3.* TO alice");
    ok(root, "GRANT ADMIN_PRIV ON *.*.* TO alice");
    ok(root, "SHOW GRANTS FOR 'alice'@'%'");
    cr_assert_eq(root->nrows, 4);
    cr_assert_str_eq(tx_cell(root, 0, 0), "GRANT Select_priv ON internal.db1.* TO 'alice'@'%'");
    cr_assert_str_eq(tx_cell(root, 1, 0),
                     "GRANT Select_priv,Load_priv,Alter_priv ON internal.db2.t1 TO 'alice'@'%'");
    cr_assert_str_eq(tx_cell(root, 2, 0), "GRANT Select_priv,Load_priv,Alter_priv,Create_priv,"
                                          "Drop_priv ON internal.db3.* TO 'alice'@'%'");
    cr_assert_str_eq(tx_cell(root, 3, 0), "GRANT Admin_priv ON internal.*.* TO 'alice'@'%'");

    ok(root, "REVOKE ALTER_PRIV, INSERT ON db2.t1 FROM alice");
    ok(root, "REVOKE ADMIN_PRIV ON *.* FROM alice");
    ok(root, "SHOW GRANTS FOR alice");
    cr_assert_eq(root->nrows, 3);
    cr_assert_str_eq(tx_cell(root, 1, 0), "GRANT Select_priv ON internal.db2.t1 TO 'alice'@'%'");

    /* ON * and ON tbl use the current database. */
    expect_err(root, "GRANT SELECT ON * TO alice", 1046, "No database selected");
    ok(root, "USE information_schema");
    ok(root, "GRANT DROP ON tables TO alice");
    cr_assert_eq(
            cat_users_privs(cat_meta_users(meta), "alice", "%", "information_schema", "tables"),
            CAT_PRIV_DROP);

    expect_err(root, "GRANT ADMIN_PRIV ON db1.* TO alice", 1105,
               "errCode = 2, detailMessage = ADMIN_PRIV and NODE_PRIV can only be granted/revoke "
               "on/from *.*.*");
    expect_err(root, "GRANT SELECT ON hive.db1.* TO alice", 1105,
               "errCode = 2, detailMessage = Unknown catalog 'hive'");
    expect_err(root, "GRANT SELECT ON db1.* TO nobody", 1396,
               "Operation GRANT failed for 'nobody'@'%'");
    expect_err(root, "GRANT USAGE_PRIV ON db1.* TO alice", 1064, NULL);
    expect_err(root, "GRANT SELECT ON *.t1 TO alice", 1064, NULL);
    expect_err(root, "SHOW GRANTS FOR nobody", 1141,
               "There is no such grant defined for user 'nobody' on host '%'");

    ok(root, "SHOW GRANTS");
    cr_assert_str_eq(root->cols[0].name, "Grants for root@%");
    cr_assert_str_eq(tx_cell(root, 0, 0), "GRANT Select_priv,Load_priv,Alter_priv,Create_priv,"
                                          "Drop_priv,Admin_priv ON internal.*.* TO 'root'@'%'");
    ok(root, "SHOW ALL GRANTS");
    cr_assert_eq(root->ncols, 2);
    cr_assert_eq(root->nrows, 5); /* root 1, alice 4 */
    cr_assert_str_eq(tx_cell(root, 0, 0), "'root'@'%'");
    cr_assert_str_eq(tx_cell(root, 4, 0), "'alice'@'%'");
    cr_assert_str_eq(tx_cell(root, 4, 1), "GRANT Drop_priv ON internal.information_schema.tables "
                                          "TO 'alice'@'%'");
    logout(root);
}

Test(plan_dcl, users_and_grants_survive_reopen)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER alice IDENTIFIED BY 'a'");
    ok(root, "GRANT SELECT_PRIV, LOAD_PRIV ON db1.* TO alice");
    ok(root, "SET PASSWORD FOR alice = PASSWORD('b')");
    logout(root);
    server_close();
    server_open(NULL);
    root = login("root", "127.0.0.1", "%", 1);
    ok(root, "SHOW GRANTS FOR alice");
    cr_assert_eq(root->nrows, 1);
    cr_assert_str_eq(tx_cell(root, 0, 0),
                     "GRANT Select_priv,Load_priv ON internal.db1.* TO 'alice'@'%'");
    expect_password("alice", "127.0.0.1", "b");
    logout(root);
}

Test(plan_dcl, passwords)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER alice IDENTIFIED BY 'a'");
    ok(root, "CREATE USER bob IDENTIFIED BY 'b'");
    tx *alice = login("alice", "127.0.0.1", "%", 2);
    ok(alice, "SET PASSWORD = PASSWORD('a2')");
    expect_password("alice", "127.0.0.1", "a2");
    ok(alice, "SET PASSWORD FOR 'alice'@'%' = 'a3'");
    expect_password("alice", "127.0.0.1", "a3");
    ok(alice, "ALTER USER alice IDENTIFIED BY 'a4'");
    expect_password("alice", "127.0.0.1", "a4");
    expect_err(alice, "SET PASSWORD FOR bob = PASSWORD('x')", 1227,
               "Access denied; you need (at least one of) the ADMIN privilege(s) for this "
               "operation");
    expect_err(alice, "ALTER USER bob IDENTIFIED BY 'x'", 1227, NULL);
    expect_password("bob", "127.0.0.1", "b");
    ok(root, "ALTER USER bob IDENTIFIED BY 'b2'");
    expect_password("bob", "127.0.0.1", "b2");
    expect_err(root, "SET PASSWORD FOR bob = '*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'", 1235,
               NULL);
    expect_err(root, "SET PASSWORD = PASSWORD('r')", 1235, NULL);
    expect_err(root, "ALTER USER nobody IDENTIFIED BY 'x'", 1396, NULL);
    logout(alice);
    logout(root);
}

Test(plan_dcl, unprivileged_user_is_denied)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER alice");
    db_error err = {0};
    cr_assert_eq(cat_meta_create_db(meta, "db1", false, NULL, &err), DB_OK, "%s", err.msg);
    tx *alice = login("alice", "127.0.0.1", "%", 2);
    static const char *const admin_only[] = {
            "CREATE USER bob",
            "DROP USER IF EXISTS bob",
            "GRANT SELECT ON db1.* TO alice",
            "REVOKE SELECT ON db1.* FROM alice",
            "SHOW GRANTS FOR root",
            "SHOW ALL GRANTS",
            "SHOW USERS",
            "SET GLOBAL wait_timeout = 10",
            "SET SESSION wait_timeout = 10, GLOBAL net_read_timeout = 10",
            "SET @@global.autocommit = 0",
    };
    for (size_t i = 0; i < sizeof admin_only / sizeof admin_only[0]; i++) {
        expect_err(alice, admin_only[i], 1227, NULL);
        cr_assert_str_eq(alice->err.sqlstate, "42000");
        cr_assert_not_null(strstr(alice->err.msg, "denied"), "%s", alice->err.msg);
    }
    ok(alice, "SET SESSION autocommit = 0");
    ok(alice, "SHOW GRANTS");
    cr_assert_str_eq(tx_cell(alice, 0, 0), "GRANT USAGE ON *.* TO 'alice'@'%'");
    ok(alice, "SHOW GRANTS FOR alice");

    /* USE: 1044 whether or not the database exists; information_schema is open. */
    expect_err(alice, "USE db1", 1044, "Access denied for user 'alice'@'%' to database 'db1'");
    expect_err(alice, "USE nodb", 1044, "Access denied for user 'alice'@'%' to database 'nodb'");
    expect_err(alice, "USE mysql", 1044, NULL);
    db_error_clear(&err);
    cr_assert_eq(plan_session_use_db(alice->s, "db1", &err), DB_ERR);
    cr_assert_eq(err.code, 1044);
    ok(alice, "USE information_schema");
    ok(alice, "SELECT COUNT(*) FROM information_schema.schemata");

    /* The check DDL calls: table level 1142, database level 1044. */
    plan_ectx cx = {.s = alice->s};
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_SELECT, "db1", "t1", &err), DB_ERR);
    cr_assert_eq(err.code, 1142);
    cr_assert_str_eq(err.sqlstate, "42000");
    cr_assert_str_eq(err.msg, "SELECT command denied to user 'alice'@'%' for table 't1'");
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_DROP, "db1", "t1", &err), DB_ERR);
    cr_assert_str_eq(err.msg, "DROP command denied to user 'alice'@'%' for table 't1'");
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_CREATE, "db1", NULL, &err), DB_ERR);
    cr_assert_eq(err.code, 1044);
    cr_assert_str_eq(err.msg, "Access denied for user 'alice'@'%' to database 'db1'");
    /* information_schema is readable by all: a check including SELECT_PRIV passes. */
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_ALL, "information_schema", "TABLES", &err), DB_OK);
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_LOAD, "information_schema", "TABLES", &err),
                 DB_ERR);

    /* Granted: table and database levels pass; other privileges still refused. */
    ok(root, "GRANT SELECT_PRIV ON db1.t1 TO alice");
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_SELECT, "db1", "t1", &err), DB_OK);
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_SELECT, "db1", "t2", &err), DB_ERR);
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_DROP, "db1", "t1", &err), DB_ERR);
    ok(alice, "USE db1");
    cr_assert_str_eq(plan_session_db(alice->s), "db1");
    expect_err(alice, "USE nodb", 1044, NULL);

    /* ADMIN_PRIV passes everything. */
    ok(root, "GRANT ADMIN_PRIV ON *.*.* TO alice");
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_DROP, "db9", "t9", &err), DB_OK);
    ok(alice, "CREATE USER bob");
    ok(alice, "SHOW USERS");
    expect_err(alice, "USE nodb", 1049, "Unknown database 'nodb'");
    logout(alice);
    logout(root);
}

Test(plan_dcl, root_passes_everything)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    plan_ectx cx = {.s = root->s};
    db_error err = {0};
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_SELECT, "any", "t", &err), DB_OK);
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_CREATE, "any", NULL, &err), DB_OK);
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_ADMIN, NULL, NULL, &err), DB_OK);
    ok(root, "SET GLOBAL wait_timeout = 10");
    cr_assert_str_eq(tx_one(root, "SELECT @@global.wait_timeout"), "10");
    ok(root, "SET GLOBAL wait_timeout = DEFAULT");
    ok(root, "USE mysql");
    expect_err(root, "USE nodb", 1049, NULL);
    /* A dropped account keeps nothing: a session still open as it is refused. */
    ok(root, "CREATE USER alice");
    ok(root, "GRANT SELECT ON db1.* TO alice");
    tx *alice = login("alice", "127.0.0.1", "%", 2);
    plan_ectx ax = {.s = alice->s};
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&ax, CAT_PRIV_SELECT, "db1", "t", &err), DB_OK);
    ok(root, "DROP USER alice");
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&ax, CAT_PRIV_SELECT, "db1", "t", &err), DB_ERR);
    logout(alice);
    logout(root);
}

Test(plan_dcl, current_user_is_the_account)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    cr_assert_str_eq(tx_one(root, "SELECT CURRENT_USER()"), "root@%");
    cr_assert_str_eq(tx_one(root, "SELECT CURRENT_USER"), "root@%");
    cr_assert_str_eq(tx_one(root, "SELECT USER()"), "root@127.0.0.1");
    ok(root, "CREATE USER carol@'10.0.0.%'");
    tx *carol = login("carol", "10.0.0.5", "10.0.0.%", 2);
    cr_assert_str_eq(tx_one(carol, "SELECT CURRENT_USER()"), "carol@10.0.0.%");
    cr_assert_str_eq(tx_one(carol, "SELECT USER()"), "carol@10.0.0.5");
    ok(carol, "SHOW GRANTS");
    cr_assert_str_eq(carol->cols[0].name, "Grants for carol@10.0.0.%");

    /* COM_CHANGE_USER: the account host follows the new user. */
    plan_session_reset(root->s, "carol", "10.0.0.7");
    cr_assert_str_eq(tx_one(root, "SELECT CURRENT_USER()"), "carol@10.0.0.%");
    plan_session_reset(root->s, "root", "127.0.0.1");
    cr_assert_str_eq(tx_one(root, "SELECT CURRENT_USER()"), "root@%");
    plan_session_reset(root->s, NULL, NULL);
    cr_assert_str_eq(tx_one(root, "SELECT CURRENT_USER()"), "root@%");
    logout(carol);
    logout(root);
}

/* ---- KILL of another account's connection ---- */

static int kills;

static int
fake_processlist(void *ctx, arena *a, plan_proc_row **rows, size_t *nrows, db_error *err)
{
    plan_proc_row *r = arena_calloc(a, 2, sizeof *r);
    r[0] = (plan_proc_row){.id = 1, .user = "root", .host = "h", .command = "Sleep", .state = ""};
    r[1] = (plan_proc_row){.id = 2, .user = "alice", .host = "h", .command = "Query", .state = ""};
    *rows = r;
    *nrows = 2;
    return DB_OK;
}

static int
fake_kill(void *ctx, uint64_t killer_id, uint64_t id, bool query_only, db_error *err)
{
    kills++;
    return DB_OK;
}

Test(plan_dcl, kill_of_another_account_needs_admin)
{
    server_close();
    plan_hooks h = {NULL, fake_processlist, fake_kill};
    server_open(&h);
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER alice");
    tx *alice = login("alice", "127.0.0.1", "%", 2);
    kills = 0;
    expect_err(alice, "KILL 1", 1227, NULL);
    cr_assert_not_null(strstr(alice->err.msg, "denied"));
    expect_err(alice, "KILL QUERY 1", 1227, NULL);
    cr_assert_eq(kills, 0);
    ok(alice, "KILL QUERY 2");
    cr_assert_eq(kills, 1);
    ok(root, "KILL QUERY 2");
    cr_assert_eq(kills, 2);
    ok(root, "GRANT ADMIN_PRIV ON *.* TO alice");
    ok(alice, "KILL 1");
    cr_assert_eq(kills, 3);
    logout(alice);
    logout(root);
}

/* SHOW PROCESSLIST: others' sessions only for root and ADMIN_PRIV holders (MySQL's PROCESS). */
Test(plan_dcl, processlist_of_others_needs_admin)
{
    server_close();
    plan_hooks h = {NULL, fake_processlist, fake_kill};
    server_open(&h);
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE USER alice");
    ok(root, "CREATE USER bob");
    tx *alice = login("alice", "127.0.0.1", "%", 2);
    tx *bob = login("bob", "127.0.0.1", "%", 3);
    ok(root, "SHOW PROCESSLIST");
    cr_assert_eq(root->nrows, 2);
    ok(alice, "SHOW FULL PROCESSLIST");
    cr_assert_eq(alice->nrows, 1);
    cr_assert_str_eq(tx_cell(alice, 0, 0), "2");
    cr_assert_str_eq(tx_cell(alice, 0, 1), "alice");
    ok(bob, "SHOW PROCESSLIST");
    cr_assert_eq(bob->nrows, 0);
    ok(root, "GRANT ADMIN_PRIV ON *.* TO bob");
    ok(bob, "SHOW PROCESSLIST");
    cr_assert_eq(bob->nrows, 2);
    logout(bob);
    logout(alice);
    logout(root);
}

/* COM_FIELD_LIST describes a table only to an account with some privilege on it (1142, before
 * the lookup, as DESC). */
Test(plan_dcl, field_list_needs_a_privilege_on_the_table)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    ok(root, "CREATE DATABASE db1");
    ok(root, "CREATE TABLE db1.t1 (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) "
             "BUCKETS 1");
    ok(root, "CREATE TABLE db1.t2 (k INT, secret INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) "
             "BUCKETS 1");
    ok(root, "CREATE USER alice");
    ok(root, "GRANT SELECT_PRIV ON db1.t1 TO alice");
    tx *alice = login("alice", "127.0.0.1", "%", 2);
    ok(alice, "USE db1");
    plan_column *cols;
    size_t n;
    db_error err = {0};
    cr_assert_eq(plan_field_list(alice->s, "t1", NULL, alice->a, &cols, &n, &err), DB_OK, "%s",
                 err.msg);
    cr_assert_eq(n, 2);
    db_error_clear(&err);
    cr_assert_eq(plan_field_list(alice->s, "t2", NULL, alice->a, &cols, &n, &err), DB_ERR);
    cr_assert_eq(err.code, 1142);
    cr_assert_str_eq(err.msg, "SELECT command denied to user 'alice'@'%' for table 't2'");
    db_error_clear(&err);
    cr_assert_eq(plan_field_list(alice->s, "nope", NULL, alice->a, &cols, &n, &err), DB_ERR);
    cr_assert_eq(err.code, 1142);
    db_error_clear(&err);
    cr_assert_eq(plan_field_list(root->s, "nope", NULL, root->a, &cols, &n, &err), DB_ERR);
    cr_assert_eq(err.code, 1046); /* root has no current database */
    logout(alice);
    logout(root);
}

Test(plan_dcl, prepare_show_grants_describes_one_column)
{
    tx *root = login("root", "127.0.0.1", "%", 1);
    uint32_t id;
    uint16_t np;
    cr_assert_eq(tx_prepare(root, "SHOW GRANTS", &id, &np), DB_OK, "%s", root->err.msg);
    cr_assert_eq(root->ncols, 1);
    cr_assert_str_eq(root->cols[0].name, "Grants for root@%");
    cr_assert_eq(tx_exec_prepared(root, id, NULL, 0), DB_OK);
    cr_assert_eq(root->nrows, 1);
    cr_assert_eq(tx_prepare(root, "CREATE USER p1", &id, &np), DB_OK);
    cr_assert_not(cat_users_exists(cat_meta_users(meta), "p1", "%"));
    cr_assert_eq(tx_exec_prepared(root, id, NULL, 0), DB_OK, "%s", root->err.msg);
    cr_assert(cat_users_exists(cat_meta_users(meta), "p1", "%"));
    logout(root);
}

/* ---- without a catalog (the other planner tests) ---- */

Test(plan_dcl_fixture, unknown_accounts_fail_closed)
{
    tx *t = tx_new();
    plan_ectx cx = {.s = t->s};
    db_error err = {0};
    db_error_clear(&err);
    cr_assert_eq(plan__check_priv(&cx, CAT_PRIV_SELECT, "d", "t", &err), DB_OK); /* root */
    /* An account the catalog does not know has no privilege at all. */
    plan_session_init si = {.conn_id = 9, .user = "nobody", .host = "h", .collation = 45};
    plan_session *s2 = plan_session_new(t->srv, &si);
    plan_ectx cx2 = {.s = s2};
    db_error_clear(&err);
    cr_assert_neq(plan__check_priv(&cx2, CAT_PRIV_SELECT, "d", "t", &err), DB_OK);
    cr_assert_eq(err.code, 1142, "%d %s", err.code, err.msg);
    cr_assert(!plan__is_admin(s2));
    plan_session_free(s2);
    /* USER and friends stay usable as names. */
    cr_assert_str_eq(tx_one(t, "SELECT 1 AS user"), "1");
    cr_assert_str_eq(tx_one(t, "SELECT 2 AS users, 3 AS grants"), "2");
    cr_assert_str_eq(tx_one(t, "SELECT USER()"), "root@127.0.0.1");
    tx_free(t);
}
