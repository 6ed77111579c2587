/* SPDX-License-Identifier: Apache-2.0
 * rr_int.h: shared declarations of the SQL regression runner (regress-runner), a standalone
 * program linked with MariaDB Connector/C; it uses none of Rivulet's own code. rr_main.c runs the
 * schedule, rr_server.c owns the server process, rr_script.c parses and executes one .sql file,
 * rr_output.c formats results and rr_util.c holds strings and files. See regression/README.md. */
#ifndef RR_INT_H
#define RR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- memory and strings (rr_util.c) ---- */

/* malloc/realloc/strdup that print a message and abort on out-of-memory; never NULL. */
void *rr_alloc(size_t len);
void *rr_realloc(void *p, size_t len);
char *rr_strdup(const char *s);
char *rr_strndup(const char *s, size_t len);
/* printf into a fresh heap string; free with free(). */
char *rr_sprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable NUL-terminated string. data is NULL until the first append. Single owner. */
typedef struct rr_str {
    char *data; /* always NUL-terminated once non-NULL */
    size_t len; /* bytes in use, without the NUL */
    size_t cap; /* bytes allocated */
} rr_str;

void rr_str_init(rr_str *s);
void rr_str_destroy(rr_str *s);
void rr_str_clear(rr_str *s);
void rr_str_append(rr_str *s, const char *p, size_t len);
void rr_str_appendz(rr_str *s, const char *z);
void rr_str_appendc(rr_str *s, char c);
void rr_str_printf(rr_str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The contents, "" when nothing was appended yet. */
const char *rr_str_cstr(const rr_str *s);

/* ---- files (rr_util.c) ---- */

/* Read a whole file into out (appended). Returns 0, or -1 with errno set. */
int rr_file_read(const char *path, rr_str *out);
/* Create or truncate path and write len bytes. Returns 0, or -1 with errno set. */
int rr_file_write(const char *path, const char *data, size_t len);
/* mkdir -p of path; an existing directory is fine. Returns 0, or -1 with errno set. */
int rr_mkdirs(const char *path);
/* mkdir -p of the directory part of path. Returns 0, or -1 with errno set. */
int rr_mkdirs_for(const char *path);
/* Remove a directory tree (no symlink following). Returns 0, or -1. */
int rr_remove_tree(const char *path);
/* Print the last nlines lines of path to f, each prefixed with prefix. Missing file: nothing. */
void rr_file_print_tail(const char *path, int nlines, const char *prefix, FILE *f);
/* Append `diff -u expected actual` to diffs_path (expected NULL = /dev/null). Returns 0 when diff
 * ran (whatever it found), -1 when it could not be started. */
int rr_diff_append(const char *expected, const char *actual, const char *diffs_path);

/* ---- output formatting (rr_output.c) ---- */

/* How the next statement's results are shown; reset after every statement. */
typedef struct rr_format {
    bool is_sorted;    /* sort the data rows (bytewise, after masking) */
    bool mask_numbers; /* print runs of 5 or more digits as <n> (ids, TSOs in messages) */
    unsigned *mask;    /* 1-based column numbers to print as <masked> */
    size_t nmask;      /* entries in mask */
    size_t mask_cap;   /* allocated entries */
} rr_format;

void rr_format_init(rr_format *f);
void rr_format_destroy(rr_format *f);
/* Forget the directives (keeps the storage). */
void rr_format_reset(rr_format *f);
void rr_format_add_mask(rr_format *f, unsigned col);

struct st_mysql;
struct st_mysql_res;

/* Append the header row and the data rows of res (fully fetched by mysql_store_result). */
void rr_output_result(rr_str *out, struct st_mysql_res *res, const rr_format *f);
/* Append `ERROR <code> (<sqlstate>): <message>` and a newline. */
void rr_output_error(rr_str *out, unsigned code, const char *sqlstate, const char *msg);
/* Send sql[0..len) on conn and append every result (or the error that ended it) to out. */
void rr_output_query(rr_str *out, struct st_mysql *conn, const char *sql, size_t len,
                     const rr_format *f);

/* ---- scripts (rr_script.c) ---- */

/* Where and as whom the tests connect. Read-only while tests run. */
typedef struct rr_conn_params {
    const char *host;     /* "127.0.0.1" */
    unsigned port;        /* TCP port */
    const char *user;     /* default user, "root" */
    const char *password; /* default password, "" */
    unsigned timeout_s;   /* read/write timeout per statement */
} rr_conn_params;

/* Run one test: prepare its database, execute sql_path and append the output to out. Runner
 * problems (unreadable file, bad directive, cannot connect) are appended to out as a
 * `!! runner error:` line and described in note; then the test must fail. db_name is the
 * database made for the test. Returns 0, or -1 on a runner problem. Any thread: each call uses
 * its own connections (the caller has run mysql_library_init). */
int rr_test_run(const rr_conn_params *p, const char *sql_path, const char *db_name, rr_str *out,
                rr_str *note);

/* ---- the server under test (rr_server.c) ---- */

typedef struct rr_server {
    pid_t pid;        /* child process; 0 when none */
    unsigned port;    /* query_port written to fe.conf */
    char *dir;        /* temporary directory (fe.conf, be.conf, meta/, log/, storage/) */
    char *log_path;   /* dir/server.log: the server's stdout and stderr */
    bool has_exited;  /* waitpid collected the child */
    bool is_reported; /* its death was already printed */
    int wait_status;  /* status from waitpid when has_exited */
} rr_server;

/* Generate the configuration in a new temporary directory, start bin and wait up to
 * timeout_s for it to accept connections. Returns 0, or -1 after printing why (and the log
 * tail) to stderr; rr_server_stop must still be called. */
int rr_server_start(rr_server *s, const char *bin, unsigned timeout_s);
/* True while the child is running; collects its status once it has exited. */
bool rr_server_is_alive(rr_server *s);
/* Print (once) why the server is gone (exit code or signal) and its log tail to stderr. */
void rr_server_report_death(rr_server *s);
/* SIGTERM, wait (SIGKILL after timeout_s), copy server.log and the files of log/ into log_dir
 * (may be NULL), then remove the temporary directory unless keep_dir. Returns 0 when the server
 * exited with status 0, -1 otherwise (after printing the reason and the log tail). Safe on a
 * server that never started. */
int rr_server_stop(rr_server *s, unsigned timeout_s, const char *log_dir, bool keep_dir);

#endif /* RR_INT_H */
