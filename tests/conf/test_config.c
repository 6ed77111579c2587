/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for conf/: defaults from the table, fe.conf / be.conf parsing, every error message,
 * and the checked-in example files. Each test gets its own temporary directory.
 * Run from the repository root (the example files are read by relative path). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/db_error.h"
#include "conf/conf.h"

static char g_dir[] = "/tmp/rivulet-test-conf-XXXXXX";
static char g_path[256];

static void setup(void);
static void teardown(void);
static const char *write_file(const char *name, const char *text);
static int load_text(cfg *c, const char *text, cfg_file which, db_error *err);
static void expect_load_error(const char *text, cfg_file which, const char *tail);
static void expect_int(const char *key, const char *value, int64_t want);
static void expect_bad_value(const char *key, const char *value, const char *why);
static char *read_all(const char *path, size_t *len);
static char *example_text(cfg_file which, size_t *len);
static void check_example(const char *path, cfg_file which);

static void
setup(void)
{
    cr_assert_not_null(mkdtemp(g_dir), "mkdtemp failed");
}

/* Remove the files a test wrote, then the directory. */
static void
teardown(void)
{
    char cmd[sizeof g_dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(cfg_config, .init = setup, .fini = teardown);

/* Write text to <tmpdir>/name; returns the path (valid until the next call). */
static const char *
write_file(const char *name, const char *text)
{
    snprintf(g_path, sizeof g_path, "%s/%s", g_dir, name);
    FILE *f = fopen(g_path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, strlen(text), f), strlen(text));
    cr_assert_eq(fclose(f), 0);
    return g_path;
}

static int
load_text(cfg *c, const char *text, cfg_file which, db_error *err)
{
    const char *path = write_file(which == CFG_FE ? "fe.conf" : "be.conf", text);
    return cfg_load_file(c, path, which, err);
}

/* Loading text fails with ER_CONFIG and the message "<path>:" followed by tail. */
static void
expect_load_error(const char *text, cfg_file which, const char *tail)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c, text, which, &err), DB_ERR, "loaded: %s", text);
    char want[DB_ERRMSG_SIZE * 2];
    snprintf(want, sizeof want, "%s:%s", g_path, tail);
    cr_expect_str_eq(err.msg, want);
    cr_expect_eq(err.code, 1105);
    cr_expect_str_eq(err.sqlstate, "HY000");
    cfg_destroy(&c);
}

static void
expect_int(const char *key, const char *value, int64_t want)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(cfg_set(&c, key, value, &err), DB_OK, "%s = %s: %s", key, value, err.msg);
    int64_t got = strcmp(key, "query_port") == 0       ? c.query_port
                  : strcmp(key, "worker_threads") == 0 ? c.worker_threads
                                                       : c.max_allowed_packet;
    cr_expect_eq(got, want, "%s = '%s' gave %lld", key, value, (long long)got);
    cfg_destroy(&c);
}

/* cfg_set(key, value) fails with "bad value '<value>' for '<key>': <why>" and changes nothing. */
static void
expect_bad_value(const char *key, const char *value, const char *why)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(cfg_set(&c, key, value, &err), DB_ERR, "%s = '%s' accepted", key, value);
    char want[DB_ERRMSG_SIZE * 2];
    snprintf(want, sizeof want, "bad value '%s' for '%s': %s", value, key, why);
    cr_expect_str_eq(err.msg, want);
    cr_expect_eq(c.query_port, 9030);
    cr_expect_eq(c.worker_threads, 0);
    cr_expect(c.enable_table_stream);
    cfg_destroy(&c);
}

static char *
read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s (tests run from the repository root)", path);
    char *data = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (cap - *len < 4096) {
            cap = cap * 2 + 4096;
            data = realloc(data, cap);
            cr_assert_not_null(data);
        }
        size_t n = fread(data + *len, 1, cap - *len, f);
        *len += n;
        if (n == 0) {
            break;
        }
    }
    cr_assert(!ferror(f));
    fclose(f);
    return data;
}

static char *
example_text(cfg_file which, size_t *len)
{
    char *data = NULL;
    FILE *f = open_memstream(&data, len);
    cr_assert_not_null(f);
    cfg_write_example(f, which);
    cr_assert_eq(fclose(f), 0);
    return data;
}

/* The checked-in example is byte-identical to cfg_write_example's output. */
static void
check_example(const char *path, cfg_file which)
{
    size_t flen = 0, glen = 0;
    char *file = read_all(path, &flen);
    char *gen = example_text(which, &glen);
    cr_expect_eq(flen, glen, "%s: %zu bytes, generated %zu; run tests/tools/gen_conf_examples.sh",
                 path, flen, glen);
    cr_expect(flen == glen && memcmp(file, gen, flen) == 0,
              "%s differs from cfg_write_example(); run tests/tools/gen_conf_examples.sh", path);
    free(file);
    free(gen);
}


/* ---- defaults ---- */

Test(cfg_config, defaults_equal_table)
{
    cfg c;
    cfg_init(&c);
#define CFG_INT(name, file, def, min, max, help) \
    cr_expect_eq(c.name, (int64_t)(def), #name " is %lld", (long long)c.name);
#define CFG_BOOL(name, file, def, help) cr_expect_eq(c.name, (def), #name);
#define CFG_STR(name, file, def, help) \
    cr_assert_not_null(c.name, #name); \
    cr_expect_str_eq(c.name, (def), #name);
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR
    /* A few rows spelled out, so a broken table cannot agree with itself. */
    cr_expect_eq(c.query_port, 9030);
    cr_expect_str_eq(c.bind_address, "127.0.0.1");
    cr_expect(c.enable_feature_binlog);
    cr_expect_str_eq(c.ssl_cert, "");
    cfg_destroy(&c);
    cr_expect_null(c.bind_address);
    cr_expect_null(c.storage_root_path);
}

Test(cfg_config, strings_are_private_copies)
{
    cfg a, b;
    cfg_init(&a);
    cfg_init(&b);
    cr_assert_neq(a.meta_dir, b.meta_dir);
    a.meta_dir[0] = 'X';
    cr_expect_str_eq(b.meta_dir, "./rivulet-data/meta");
    cfg_destroy(&a);
    cfg_destroy(&b);
}


/* ---- good files ---- */

Test(cfg_config, good_fe_file_parses)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    const char *text = "# Rivulet front end\n"
                       "\n"
                       "query_port = 9031\n"
                       "   http_port=8031   \n"
                       "\tbind_address\t=\t0.0.0.0\t\n"
                       "meta_dir = /var/lib/rivulet/meta\r\n"
                       "enable_table_stream = false\n"
                       "enable_feature_binlog = FALSE\n"
                       "sys_log_level = DEBUG # more detail\n"
                       "worker_threads = 8"; /* no newline at the end */
    cr_assert_eq(load_text(&c, text, CFG_FE, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(err.code, 0);
    cr_expect_eq(c.query_port, 9031);
    cr_expect_eq(c.http_port, 8031);
    cr_expect_str_eq(c.bind_address, "0.0.0.0");
    cr_expect_str_eq(c.meta_dir, "/var/lib/rivulet/meta");
    cr_expect(!c.enable_table_stream);
    cr_expect(!c.enable_feature_binlog);
    cr_expect_str_eq(c.sys_log_level, "DEBUG");
    cr_expect_eq(c.worker_threads, 8);
    /* Keys not in the file keep their defaults. */
    cr_expect_eq(c.max_connections, 1024);
    cr_expect_str_eq(c.storage_root_path, "./rivulet-data/storage");
    cfg_destroy(&c);
}

Test(cfg_config, good_be_file_parses)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c,
                           "storage_root_path = /data/rivulet\n"
                           "enable_feature_binlog = 0\n",
                           CFG_BE, &err),
                 DB_OK, "%s", err.msg);
    cr_expect_str_eq(c.storage_root_path, "/data/rivulet");
    cr_expect(!c.enable_feature_binlog);
    cr_expect_eq(c.query_port, 9030);
    cfg_destroy(&c);
}

Test(cfg_config, empty_file_keeps_defaults)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c, "", CFG_FE, &err), DB_OK);
    cr_assert_eq(load_text(&c, "\n\n# only comments\n   \n", CFG_FE, &err), DB_OK);
    cr_expect_eq(c.query_port, 9030);
    cr_expect_str_eq(c.meta_dir, "./rivulet-data/meta");
    cfg_destroy(&c);
}

Test(cfg_config, long_string_value)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    size_t n = 20000;
    char *text = malloc(n + 64);
    cr_assert_not_null(text);
    strcpy(text, "meta_dir = ");
    size_t off = strlen(text);
    memset(text + off, 'd', n);
    strcpy(text + off + n, "\n");
    cr_assert_eq(load_text(&c, text, CFG_FE, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(strlen(c.meta_dir), n);
    free(text);
    cfg_destroy(&c);
}

Test(cfg_config, duplicate_key_last_wins)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c,
                           "query_port = 1\n"
                           "meta_dir = /a\n"
                           "query_port = 2\n"
                           "meta_dir = /b\n"
                           "query_port = 3\n",
                           CFG_FE, &err),
                 DB_OK, "%s", err.msg);
    cr_expect_eq(c.query_port, 3);
    cr_expect_str_eq(c.meta_dir, "/b");
    cfg_destroy(&c);
}

Test(cfg_config, second_file_overrides_first)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c, "query_port = 1\nhttp_port = 2\n", CFG_FE, &err), DB_OK);
    cr_assert_eq(load_text(&c, "query_port = 5\n", CFG_FE, &err), DB_OK);
    cr_expect_eq(c.query_port, 5);
    cr_expect_eq(c.http_port, 2);
    cfg_destroy(&c);
}


/* ---- comments and quotes ---- */

Test(cfg_config, comments)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c,
                           "#query_port = 1\n"
                           "   # query_port = 2\n"
                           "\t#\n"
                           "http_port = 8040 # trailing comment\n"
                           "max_connections = 7\t# after a tab\n"
                           "sys_log_dir = /var/log#1\n"
                           "meta_dir = /m # a # b\n"
                           "root_password = # nothing but a comment\n"
                           "bind_address =#not-a-comment\n",
                           CFG_FE, &err),
                 DB_OK, "%s", err.msg);
    cr_expect_eq(c.query_port, 9030);
    cr_expect_eq(c.http_port, 8040);
    cr_expect_eq(c.max_connections, 7);
    cr_expect_str_eq(c.sys_log_dir, "/var/log#1"); /* '#' not after white space is text */
    cr_expect_str_eq(c.meta_dir, "/m");
    cr_expect_str_eq(c.root_password, "");
    cr_expect_str_eq(c.bind_address, "#not-a-comment");
    cfg_destroy(&c);
}

Test(cfg_config, quotes)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c,
                           "meta_dir = \"/path with spaces/meta\"\n"
                           "sys_log_dir = \"\"\n"
                           "root_password = \"  p # w  \"   # comment after the quote\n"
                           "bind_address=\"::1\"\n"
                           "query_port = \"9035\"\n"
                           "enable_table_stream = \"false\"\n"
                           "ssl_cert = a\"b\"\n",
                           CFG_FE, &err),
                 DB_OK, "%s", err.msg);
    cr_expect_str_eq(c.meta_dir, "/path with spaces/meta");
    cr_expect_str_eq(c.sys_log_dir, "");
    cr_expect_str_eq(c.root_password, "  p # w  ");
    cr_expect_str_eq(c.bind_address, "::1");
    cr_expect_eq(c.query_port, 9035);
    cr_expect(!c.enable_table_stream);
    cr_expect_str_eq(c.ssl_cert, "a\"b\""); /* quotes only count around the whole value */
    cfg_destroy(&c);
}

Test(cfg_config, broken_quotes)
{
    expect_load_error("meta_dir = \"/unterminated\n", CFG_FE,
                      "1: bad value '\"/unterminated' for 'meta_dir': missing closing quote");
    expect_load_error("\nmeta_dir = \"/a\" /b\n", CFG_FE,
                      "2: bad value '\"/a\" /b' for 'meta_dir': text after closing quote");
}


/* ---- errors ---- */

Test(cfg_config, unknown_key)
{
    expect_load_error("query_port = 9031\n# comment\n\nno_such_key = 1\n", CFG_FE,
                      "4: unknown key 'no_such_key'");
    /* Keys are case-sensitive, as in Doris. */
    expect_load_error("QUERY_PORT = 9031\n", CFG_FE, "1: unknown key 'QUERY_PORT'");
}

Test(cfg_config, be_key_rejected_in_fe_conf)
{
    expect_load_error("query_port = 9031\nstorage_root_path = /data\n", CFG_FE,
                      "2: unknown key 'storage_root_path'");
}

Test(cfg_config, fe_key_rejected_in_be_conf)
{
    expect_load_error("query_port = 9031\n", CFG_BE, "1: unknown key 'query_port'");
}

Test(cfg_config, shared_key_accepted_in_both)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_expect_eq(load_text(&c, "enable_feature_binlog = false\n", CFG_FE, &err), DB_OK);
    cr_expect(!c.enable_feature_binlog);
    cr_expect_eq(load_text(&c, "enable_feature_binlog = true\n", CFG_BE, &err), DB_OK);
    cr_expect(c.enable_feature_binlog);
    cfg_destroy(&c);
}

Test(cfg_config, missing_equals)
{
    expect_load_error("query_port 9031\n", CFG_FE, "1: missing '=' after 'query_port'");
    expect_load_error("\n\n  enable_table_stream # off\n", CFG_FE,
                      "3: missing '=' after 'enable_table_stream'");
    expect_load_error("query_port # = 9031\n", CFG_FE, "1: missing '=' after 'query_port'");
}

Test(cfg_config, missing_key)
{
    expect_load_error("query_port = 1\n = 9031\n", CFG_FE, "2: missing key before '='");
}

Test(cfg_config, bad_int)
{
    expect_load_error("\nquery_port = abc\n", CFG_FE,
                      "2: bad value 'abc' for 'query_port': not an integer");
    expect_load_error("query_port =\n", CFG_FE, "1: bad value '' for 'query_port': not an integer");
}

Test(cfg_config, bad_bool)
{
    expect_load_error("enable_table_stream = yes\n", CFG_FE,
                      "1: bad value 'yes' for 'enable_table_stream': expected true, false, 1 or 0");
}

Test(cfg_config, int_out_of_range_in_file)
{
    expect_load_error("query_port = 65536\n", CFG_FE,
                      "1: bad value '65536' for 'query_port': out of range 1..65535");
}

Test(cfg_config, long_value_is_clipped_in_message)
{
    char text[1024] = "query_port = ";
    size_t off = strlen(text);
    memset(text + off, '7', 600);
    strcpy(text + off + 600, "x\n");
    char tail[256] = "1: bad value '";
    memset(tail + strlen(tail), '7', 64);
    strcat(tail, "...' for 'query_port': not an integer");
    expect_load_error(text, CFG_FE, tail);
}

Test(cfg_config, unreadable_file)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    char path[sizeof g_dir + 32];
    snprintf(path, sizeof path, "%s/absent.conf", g_dir);
    cr_assert_eq(cfg_load_file(&c, path, CFG_FE, &err), DB_ERR);
    char want[DB_ERRMSG_SIZE * 2];
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    cr_expect_str_eq(err.msg, want);
    cr_expect_eq(err.code, 1105);

    db_error_clear(&err);
    cr_assert_eq(cfg_load_file(&c, g_dir, CFG_FE, &err), DB_ERR);
    snprintf(want, sizeof want, "%s: Is a directory", g_dir);
    cr_expect_str_eq(err.msg, want);
    cfg_destroy(&c);
}

Test(cfg_config, failed_load_changes_nothing)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_assert_eq(load_text(&c,
                           "query_port = 1\n"
                           "meta_dir = /changed\n"
                           "enable_table_stream = false\n"
                           "query_port = 0\n",
                           CFG_FE, &err),
                 DB_ERR);
    cr_expect_eq(c.query_port, 9030);
    cr_expect_str_eq(c.meta_dir, "./rivulet-data/meta");
    cr_expect(c.enable_table_stream);
    cfg_destroy(&c);
}

Test(cfg_config, first_error_wins)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    db_error_set(&err, ER_UNKNOWN_ERROR, "earlier");
    cr_assert_eq(load_text(&c, "nope = 1\n", CFG_FE, &err), DB_ERR);
    cr_expect_str_eq(err.msg, "earlier");
    cfg_destroy(&c);
}


/* ---- values through cfg_set ---- */

Test(cfg_config, int_bounds)
{
    expect_int("query_port", "1", 1);
    expect_int("query_port", "65535", 65535);
    expect_int("worker_threads", "0", 0);
    expect_int("worker_threads", "256", 256);
    expect_int("max_allowed_packet", "1024", 1024);
    expect_int("max_allowed_packet", "1073741824", 1073741824);
    expect_bad_value("query_port", "0", "out of range 1..65535");
    expect_bad_value("query_port", "65536", "out of range 1..65535");
    expect_bad_value("query_port", "-1", "out of range 1..65535");
    expect_bad_value("worker_threads", "257", "out of range 0..256");
    expect_bad_value("max_allowed_packet", "1023", "out of range 1024..1073741824");
}

Test(cfg_config, int_overflow)
{
    /* Each of these wraps to an in-range value if overflow goes unnoticed. */
    expect_bad_value("query_port", "18446744073709551617", "out of range 1..65535"); /* 2^64+1 */
    expect_bad_value("query_port", "18446744073709552616", "out of range 1..65535");
    expect_bad_value("query_port", "9223372036854775808", "out of range 1..65535"); /* 2^63 */
    expect_bad_value("query_port", "-9223372036854775809", "out of range 1..65535");
    expect_bad_value("query_port", "-9223372036854775808", "out of range 1..65535");
    expect_bad_value("query_port", "99999999999999999999999999999999999999",
                     "out of range 1..65535");
    expect_bad_value("worker_threads", "9223372036854775807", "out of range 0..256");
}

Test(cfg_config, int_syntax)
{
    expect_int("query_port", "007", 7);
    expect_int("query_port", "+42", 42);
    expect_bad_value("query_port", "", "not an integer");
    expect_bad_value("query_port", "-", "not an integer");
    expect_bad_value("query_port", "+", "not an integer");
    expect_bad_value("query_port", "0x10", "not an integer");
    expect_bad_value("query_port", "1e3", "not an integer");
    expect_bad_value("query_port", "12 34", "not an integer");
    expect_bad_value("query_port", "12abc", "not an integer");
    expect_bad_value("query_port", "--5", "not an integer");
    expect_bad_value("query_port", "5.0", "not an integer");
}

Test(cfg_config, bools)
{
    static const char *const yes[] = {"true", "TRUE", "True", "tRuE", "1"};
    static const char *const no[] = {"false", "FALSE", "False", "0"};
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        c.enable_table_stream = false;
        cr_expect_eq(cfg_set(&c, "enable_table_stream", yes[i], &err), DB_OK, "%s", yes[i]);
        cr_expect(c.enable_table_stream, "%s", yes[i]);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        c.enable_table_stream = true;
        cr_expect_eq(cfg_set(&c, "enable_table_stream", no[i], &err), DB_OK, "%s", no[i]);
        cr_expect(!c.enable_table_stream, "%s", no[i]);
    }
    cfg_destroy(&c);
    static const char *const bad[] = {"yes", "no", "on", "off", "2", "", "truex", "01", " true"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        expect_bad_value("enable_table_stream", bad[i], "expected true, false, 1 or 0");
    }
}

Test(cfg_config, set_strings_and_keys)
{
    cfg c;
    db_error err;
    cfg_init(&c);
    db_error_clear(&err);
    cr_expect_eq(cfg_set(&c, "meta_dir", "/x", &err), DB_OK);
    cr_expect_eq(cfg_set(&c, "meta_dir", "/y", &err), DB_OK);
    cr_expect_str_eq(c.meta_dir, "/y");
    /* cfg_set knows the keys of both files. */
    cr_expect_eq(cfg_set(&c, "storage_root_path", "/s", &err), DB_OK);
    cr_expect_str_eq(c.storage_root_path, "/s");
    cr_expect_eq(err.code, 0);
    cr_expect_eq(cfg_set(&c, "no_such_key", "1", &err), DB_ERR);
    cr_expect_str_eq(err.msg, "unknown key 'no_such_key'");
    cr_expect_eq(err.code, 1105);
    cfg_destroy(&c);
}


/* ---- example files ---- */

Test(cfg_config, fe_example_matches_table)
{
    check_example("fe.conf.example", CFG_FE);
}

Test(cfg_config, be_example_matches_table)
{
    check_example("be.conf.example", CFG_BE);
}

/* Loading an example sets every key of its file back to the default. */
Test(cfg_config, examples_load_cleanly)
{
    cfg c, dflt;
    db_error err;
    cfg_init(&dflt);
    cfg_init(&c);
    db_error_clear(&err);
    /* Move every value away from its default first. */
#define CFG_INT(name, file, def, min, max, help) c.name = (def) == (max) ? (min) : (max);
#define CFG_BOOL(name, file, def, help)          c.name = !(def);
#define CFG_STR(name, file, def, help) \
    cr_assert_eq(cfg_set(&c, #name, "not-the-default", &err), DB_OK);
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR
    cr_assert_eq(cfg_load_file(&c, "fe.conf.example", CFG_FE, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(cfg_load_file(&c, "be.conf.example", CFG_BE, &err), DB_OK, "%s", err.msg);
#define CFG_INT(name, file, def, min, max, help) cr_expect_eq(c.name, dflt.name, #name);
#define CFG_BOOL(name, file, def, help)          cr_expect_eq(c.name, dflt.name, #name);
#define CFG_STR(name, file, def, help)           cr_expect_str_eq(c.name, dflt.name, #name);
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR
    cfg_destroy(&c);
    cfg_destroy(&dflt);
}

/* Each key of a file appears once, as a help line then `key = `; other keys do not appear. */
Test(cfg_config, example_lists_each_key_of_its_file)
{
    size_t fe_len = 0, be_len = 0;
    char *fe = example_text(CFG_FE, &fe_len);
    char *be = example_text(CFG_BE, &be_len);
    cr_expect(strncmp(fe, "# fe.conf", 9) == 0);
    cr_expect(strncmp(be, "# be.conf", 9) == 0);
    char needle[256];
#define CHECK_KEY(name, file, help)                                                       \
    do {                                                                                  \
        snprintf(needle, sizeof needle, "\n# %s (default: ", (help));                     \
        cr_expect_eq(strstr(fe, needle) != NULL, ((file)&CFG_FE) != 0, "fe help " #name); \
        cr_expect_eq(strstr(be, needle) != NULL, ((file)&CFG_BE) != 0, "be help " #name); \
        snprintf(needle, sizeof needle, ")\n%s = ", #name);                               \
        cr_expect_eq(strstr(fe, needle) != NULL, ((file)&CFG_FE) != 0, "fe key " #name);  \
        cr_expect_eq(strstr(be, needle) != NULL, ((file)&CFG_BE) != 0, "be key " #name);  \
    } while (0);
#define CFG_INT(name, file, def, min, max, help) CHECK_KEY(name, file, help)
#define CFG_BOOL(name, file, def, help)          CHECK_KEY(name, file, help)
#define CFG_STR(name, file, def, help)           CHECK_KEY(name, file, help)
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR
#undef CHECK_KEY
    cr_expect_not_null(strstr(fe, "\n# MySQL protocol port (default: 9030, range 1..65535)\n"
                                  "query_port = 9030\n"));
    cr_expect_not_null(strstr(fe, "(default: \"\")\nssl_cert = \"\"\n"));
    cr_expect_not_null(strstr(be, "(default: true)\nenable_feature_binlog = true\n"));
    /* A blank line between keys and none at the end. */
    cr_expect_null(strstr(fe, "\n\n\n"));
    cr_expect_neq(fe[fe_len - 2], '\n');
    cr_expect_eq(fe[fe_len - 1], '\n');
    free(fe);
    free(be);
}
