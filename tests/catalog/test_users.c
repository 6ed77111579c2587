/* SPDX-License-Identifier: Apache-2.0
 * test_users.c: accounts and privileges of the durable catalog: create / drop / password /
 * grant / revoke survive restarts (log and image), host patterns, errors. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/catalog.h"
#include "tests/catalog/cat_testutil.h"

static cat_meta *
open_meta(void)
{
    db_error err = {0};
    cat_meta *m = cat_meta_open(tu_dir, NULL, &err);
    cr_assert_not_null(m, "open: %s", err.msg);
    return m;
}

static void
expect_login(cat_meta *m, const char *user, const char *host, const char *password)
{
    uint8_t stage2[20], want[20];
    bool has = false;
    char matched[64];
    cr_assert(cat_users_login(cat_meta_users(m), user, host, stage2, &has, matched, sizeof matched),
              "no account for %s@%s", user, host);
    cat_password_hash(password, strlen(password), want);
    cr_assert_eq(has, password[0] != '\0');
    if (has) {
        cr_assert_arr_eq(stage2, want, 20);
    }
}

TestSuite(cat_users, .init = tu_setup, .fini = tu_teardown);

Test(cat_users, accounts_and_grants_survive_restart)
{
    cat_meta *m = open_meta();
    cat_users *us = cat_meta_users(m);
    db_error err = {0};
    cr_assert_eq(cat_users_create(us, "alice", "%", "s3cret", false, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cat_users_create(us, "bob", "127.0.0.1", NULL, false, &err), DB_OK);
    cr_assert_eq(cat_users_grant(us, "alice", "%", CAT_PRIV_SELECT | CAT_PRIV_LOAD, "d1", "*",
                                 false, &err),
                 DB_OK);
    cr_assert_eq(cat_users_grant(us, "alice", "%", CAT_PRIV_LOAD, "d1", "*", true, &err), DB_OK);
    cr_assert_eq(cat_users_set_password(us, "bob", "127.0.0.1", "pw2", &err), DB_OK);
    cat_meta_close(m, false);

    for (int round = 0; round < 2; round++) {
        m = open_meta(); /* round 0 replays the log, round 1 the image */
        us = cat_meta_users(m);
        expect_login(m, "alice", "10.1.2.3", "s3cret");
        expect_login(m, "bob", "127.0.0.1", "pw2");
        cr_assert_eq(cat_users_privs(us, "alice", "%", "d1", "t"), CAT_PRIV_SELECT);
        cr_assert_eq(cat_users_privs(us, "alice", "%", "d2", "t"), 0);
        cr_assert_eq(cat_users_privs(us, "alice", "%", "d1", NULL), CAT_PRIV_SELECT);
        buf g;
        buf_init(&g);
        cat_users_show_grants(us, "alice", "%", &g);
        buf_put_u8(&g, 0);
        cr_assert_str_eq((char *)g.data, "GRANT Select_priv ON internal.d1.* TO 'alice'@'%'");
        buf_destroy(&g);
        cat_meta_close(m, true);
    }
}

Test(cat_users, errors_and_drop)
{
    cat_meta *m = open_meta();
    cat_users *us = cat_meta_users(m);
    db_error err = {0};
    cr_assert_eq(cat_users_create(us, "u", "%", "p", false, &err), DB_OK);
    cr_assert_eq(cat_users_create(us, "u", "%", "p", false, &err), DB_ERR);
    cr_assert_eq(err.code, 1396);
    cr_assert_str_eq(err.msg, "Operation CREATE USER failed for 'u'@'%'");
    db_error_clear(&err);
    cr_assert_eq(cat_users_create(us, "u", "%", "p", true, &err), DB_OK);
    cr_assert_eq(cat_users_create(us, "root", "%", "p", false, &err), DB_ERR);
    db_error_clear(&err);
    cr_assert_eq(cat_users_grant(us, "nobody", "%", CAT_PRIV_SELECT, "*", "*", false, &err),
                 DB_ERR);
    cr_assert_str_eq(err.msg, "Operation GRANT failed for 'nobody'@'%'");
    db_error_clear(&err);
    cr_assert_eq(cat_users_drop(us, "u", "%", false, &err), DB_OK);
    cr_assert_eq(cat_users_drop(us, "u", "%", false, &err), DB_ERR);
    cr_assert_eq(err.code, 1396);
    db_error_clear(&err);
    cr_assert_eq(cat_users_drop(us, "u", "%", true, &err), DB_OK);
    cat_meta_close(m, false);
    m = open_meta();
    cr_assert_not(cat_users_exists(cat_meta_users(m), "u", "%"));
    cat_meta_close(m, false);
}

Test(cat_users, exact_host_wins_over_pattern)
{
    cat_meta *m = open_meta();
    cat_users *us = cat_meta_users(m);
    db_error err = {0};
    cr_assert_eq(cat_users_create(us, "x", "%", "any", false, &err), DB_OK);
    cr_assert_eq(cat_users_create(us, "x", "127.0.0.1", "local", false, &err), DB_OK);
    expect_login(m, "x", "127.0.0.1", "local");
    expect_login(m, "x", "192.168.0.9", "any");
    uint8_t s2[20];
    bool has;
    char host[64];
    cr_assert_not(cat_users_login(us, "y", "127.0.0.1", s2, &has, host, sizeof host));
    cat_meta_close(m, false);
}
