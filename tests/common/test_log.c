/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for common/log: level names, the threshold and the line format in a log file. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

static char g_dir[] = "/tmp/rivulet-test-log-XXXXXX";

static void setup(void);
static void teardown(void);
static char *read_file(const char *path);
static void stderr_to(const char *path);

static void
setup(void)
{
    cr_assert_not_null(mkdtemp(g_dir));
}

static void
teardown(void)
{
    char cmd[sizeof g_dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    cr_expect_eq(system(cmd), 0);
}

/* Send this test process's standard error (where log lines also go) to path. */
static void
stderr_to(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert_geq(fd, 0);
    cr_assert_eq(dup2(fd, STDERR_FILENO), STDERR_FILENO);
    close(fd);
}

static char *
read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char *s = calloc(1, 65536);
    cr_assert_not_null(s);
    size_t n = fread(s, 1, 65535, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

Test(log, level_parse)
{
    log_level l = LOG_LEVEL_ERROR;
    cr_expect(log_level_parse("debug", &l));
    cr_expect_eq(l, LOG_LEVEL_DEBUG);
    cr_expect(log_level_parse("INFO", &l));
    cr_expect_eq(l, LOG_LEVEL_INFO);
    cr_expect(log_level_parse("Warn", &l));
    cr_expect_eq(l, LOG_LEVEL_WARN);
    cr_expect(log_level_parse("warning", &l));
    cr_expect_eq(l, LOG_LEVEL_WARN);
    cr_expect(log_level_parse("ERROR", &l));
    cr_expect_eq(l, LOG_LEVEL_ERROR);
    cr_expect(!log_level_parse("verbose", &l));
    cr_expect(!log_level_parse("", &l));
    cr_expect_eq(l, LOG_LEVEL_ERROR);
}

Test(log, file_lines_and_threshold, .init = setup, .fini = teardown)
{
    char path[sizeof g_dir + 16], epath[sizeof g_dir + 16];
    snprintf(path, sizeof path, "%s/x.log", g_dir);
    snprintf(epath, sizeof epath, "%s/stderr", g_dir);
    stderr_to(epath);
    cr_assert_eq(log_open_file(path), 0);
    log_set_level(LOG_LEVEL_WARN);
    log_info("hidden %d", 1);
    log_warn("shown %d", 2);
    log_error("multi %s", "word");
    log_close();
    log_warn("after close");
    char *s = read_file(path);
    cr_expect_null(strstr(s, "hidden"));
    cr_expect_null(strstr(s, "after close"));
    /* `YYYY-MM-DD HH:MM:SS.mmm LEVEL text\n`, one line each. */
    char *second = strchr(s, '\n');
    cr_assert_not_null(second);
    cr_expect_eq(strlen(s),
                 (size_t)2 * 24 + strlen("WARN shown 2\n") + strlen("ERROR multi word\n"));
    cr_expect_eq(strncmp(s + 24, "WARN shown 2\n", 13), 0, "%s", s);
    cr_expect_eq(strncmp(second + 1 + 24, "ERROR multi word\n", 17), 0, "%s", s);
    cr_expect_eq(s[4], '-');
    cr_expect_eq(s[10], ' ');
    cr_expect_eq(s[19], '.');
    /* Standard error got the same lines, and the one written after log_close. */
    char *e = read_file(epath);
    cr_expect_eq(strncmp(e, s, strlen(s)), 0);
    cr_expect_str_eq(e + strlen(s) + 24, "WARN after close\n");
    free(e);
    free(s);
}

Test(log, long_line_is_cut_and_ends_in_newline, .init = setup, .fini = teardown)
{
    char path[sizeof g_dir + 16];
    snprintf(path, sizeof path, "%s/stderr", g_dir);
    stderr_to(path);
    snprintf(path, sizeof path, "%s/y.log", g_dir);
    cr_assert_eq(log_open_file(path), 0);
    char big[5000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    log_error("%s", big);
    log_close();
    char *s = read_file(path);
    size_t len = strlen(s);
    cr_expect_leq(len, 2048);
    cr_expect_eq(s[len - 1], '\n');
    cr_expect_eq(strchr(s, '\n'), s + len - 1, "one line only");
    free(s);
}

Test(log, open_bad_path_fails)
{
    cr_expect_eq(log_open_file("/nonexistent-dir-rivulet/x.log"), -1);
    cr_expect_eq(log_open_file(""), 0);
    cr_expect_eq(log_open_file(NULL), 0);
}
