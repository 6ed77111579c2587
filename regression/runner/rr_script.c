/* SPDX-License-Identifier: Apache-2.0
 * rr_script.c: one test. Prepares the test's database, splits the .sql file into comments,
 * directives and statements (a statement ends at a line whose last code character is `;`
 * outside quotes and comments), runs the statements on named connections and appends the echo
 * and the results to the test's output. See regression/README.md §Script format. */
#include "rr_int.h"

#include <errmsg.h>
#include <errno.h>
#include <mysql.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RR_DEFAULT_CONN "default"
#define RR_MAX_ARGS     8
#define RR_MAX_NAME     64
#define RR_MAX_COLUMN   4096

/* What one step of a script is. */
typedef enum item_kind {
    ITEM_COMMENT,    /* a `--` line: echoed only */
    ITEM_STATEMENT,  /* SQL sent to the server */
    ITEM_SORTED,     /* -- @sorted */
    ITEM_MASK_NUM,   /* -- @mask_numbers */
    ITEM_MASK,       /* -- @mask_column N [N ...] */
    ITEM_CONNECTION, /* -- @connection NAME */
    ITEM_DISCONNECT, /* -- @disconnect NAME */
    ITEM_USER,       /* -- @user NAME [PASSWORD] */
    ITEM_ERROR,      /* a script error: msg says what; the test stops here */
} item_kind;

typedef struct item {
    item_kind kind;
    unsigned line;           /* 1-based line where the item starts */
    rr_str echo;             /* the lines as written, without the final newline */
    char *sql;               /* ITEM_STATEMENT: the text sent, without the final `;` */
    char *args[RR_MAX_ARGS]; /* directive arguments */
    int nargs;               /* entries in args */
    char *msg;               /* ITEM_ERROR: what is wrong */
} item;

/* Line-by-line reader over the whole file. */
typedef struct parser {
    const char *text; /* file contents */
    size_t len;       /* bytes in text */
    size_t pos;       /* offset of the next line */
    unsigned line;    /* number of the next line, 1-based */
} parser;

/* Lexical state carried across the lines of one statement. */
typedef enum scan_state {
    SCAN_CODE,
    SCAN_SQUOTE,
    SCAN_DQUOTE,
    SCAN_BACKTICK,
    SCAN_BLOCK_COMMENT,
} scan_state;

typedef struct conn {
    char *name;   /* connection name from @connection */
    MYSQL *mysql; /* open handle */
} conn;

/* Everything one test run owns. */
typedef struct test_state {
    const rr_conn_params *params;
    const char *path;    /* the .sql file, for messages */
    const char *db;      /* the test's database, NULL when the server could not create it */
    conn *conns;         /* open connections */
    size_t nconns;       /* entries in conns */
    size_t conns_cap;    /* allocated entries */
    char *current;       /* name of the connection statements run on */
    char *next_user;     /* @user for the next connection opened, NULL = params->user */
    char *next_password; /* its password */
    rr_format fmt;       /* directives for the next statement */
    rr_str *out;         /* the test's output */
    rr_str *note;        /* runner problems, for the console */
} test_state;

static bool next_line(parser *ps, const char **line, size_t *len, unsigned *lineno);
static bool next_item(parser *ps, item *it);
static void item_init(item *it);
static void item_clear(item *it);
static void set_item_error(item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void parse_comment(const char *line, size_t len, item *it);
static void parse_directive(const char *p, const char *end, item *it);
static void parse_statement(parser *ps, const char *line, size_t len, item *it);
static void scan_line(const char *line, size_t len, size_t base, scan_state *state, char *last,
                      size_t *semi);
static bool is_valid_name(const char *name);
static bool is_space(char c);

static MYSQL *connect_server(const rr_conn_params *p, const char *user, const char *password,
                             const char *db);
static void discard_results(MYSQL *m, const char *sql);
static int prepare_database(test_state *ts, const char *db_name);
static void add_conn(test_state *ts, const char *name, MYSQL *m);
static int runner_error(test_state *ts, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static conn *find_conn(test_state *ts, const char *name);
static int current_conn(test_state *ts, unsigned line, MYSQL **out);
static int run_item(test_state *ts, const item *it);
static void close_all(test_state *ts);

/* ---- parsing ---- */

static bool
is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Connection and user names: 1..64 characters of [A-Za-z0-9_]. */
static bool
is_valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > RR_MAX_NAME) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_')) {
            return false;
        }
    }
    return true;
}

/* Next line without its newline (and without a trailing \r). False at end of text. */
static bool
next_line(parser *ps, const char **line, size_t *len, unsigned *lineno)
{
    if (ps->pos >= ps->len) {
        return false;
    }
    const char *start = ps->text + ps->pos;
    const char *nl = memchr(start, '\n', ps->len - ps->pos);
    size_t n = nl != NULL ? (size_t)(nl - start) : ps->len - ps->pos;
    ps->pos += n + (nl != NULL ? 1 : 0);
    *lineno = ps->line++;
    if (n > 0 && start[n - 1] == '\r') {
        n--;
    }
    *line = start;
    *len = n;
    return true;
}

static void
item_init(item *it)
{
    memset(it, 0, sizeof *it);
    rr_str_init(&it->echo);
}

static void
item_clear(item *it)
{
    rr_str_destroy(&it->echo);
    free(it->sql);
    for (int i = 0; i < it->nargs; i++) {
        free(it->args[i]);
    }
    free(it->msg);
    item_init(it);
}

static void
set_item_error(item *it, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    it->kind = ITEM_ERROR;
    free(it->msg);
    it->msg = rr_strdup(buf);
}

/* Split "@name arg ..." (p..end, after the `--`) into a directive item. */
static void
parse_directive(const char *p, const char *end, item *it)
{
    char *words[RR_MAX_ARGS + 1];
    int nwords = 0;
    while (p < end) {
        while (p < end && is_space(*p)) {
            p++;
        }
        if (p == end) {
            break;
        }
        const char *w = p;
        while (p < end && !is_space(*p)) {
            p++;
        }
        if (nwords == RR_MAX_ARGS + 1) {
            for (int i = 0; i < nwords; i++) {
                free(words[i]);
            }
            set_item_error(it, "too many words in directive");
            return;
        }
        words[nwords++] = rr_strndup(w, (size_t)(p - w));
    }
    if (nwords == 0) {
        set_item_error(it, "empty directive");
        return;
    }
    const char *name = words[0];
    int nargs = nwords - 1;
    for (int i = 1; i < nwords; i++) {
        it->args[it->nargs++] = words[i];
    }
    if (strcmp(name, "@sorted") == 0) {
        it->kind = ITEM_SORTED;
        if (nargs != 0) {
            set_item_error(it, "@sorted takes no argument");
        }
    } else if (strcmp(name, "@mask_numbers") == 0) {
        it->kind = ITEM_MASK_NUM;
        if (nargs != 0) {
            set_item_error(it, "@mask_numbers takes no argument");
        }
    } else if (strcmp(name, "@mask_column") == 0) {
        it->kind = ITEM_MASK;
        if (nargs == 0) {
            set_item_error(it, "@mask_column needs a column number");
        }
        for (int i = 0; i < nargs && it->kind == ITEM_MASK; i++) {
            char *stop = NULL;
            long v = strtol(it->args[i], &stop, 10);
            if (*stop != '\0' || v < 1 || v > RR_MAX_COLUMN) {
                set_item_error(it, "@mask_column: '%s' is not a column number (1..%d)", it->args[i],
                               RR_MAX_COLUMN);
            }
        }
    } else if (strcmp(name, "@connection") == 0 || strcmp(name, "@disconnect") == 0) {
        it->kind = name[1] == 'c' ? ITEM_CONNECTION : ITEM_DISCONNECT;
        if (nargs != 1 || !is_valid_name(it->args[0])) {
            set_item_error(it, "%s needs one name of [A-Za-z0-9_]", name);
        }
    } else if (strcmp(name, "@user") == 0) {
        it->kind = ITEM_USER;
        if (nargs < 1 || nargs > 2 || !is_valid_name(it->args[0])) {
            set_item_error(it, "@user needs a user name and an optional password");
        }
    } else if (strcmp(name, "@wait_stream") == 0) {
        set_item_error(it, "unsupported directive '%s'", name);
    } else {
        set_item_error(it, "unknown directive '%s'", name);
    }
    free(words[0]);
}

/* A line starting with `--`: a plain comment, or a directive when `@` and a letter follow. */
static void
parse_comment(const char *line, size_t len, item *it)
{
    rr_str_append(&it->echo, line, len);
    it->kind = ITEM_COMMENT;
    const char *p = line, *end = line + len;
    while (p < end && is_space(*p)) {
        p++;
    }
    p += 2; /* the `--` */
    while (p < end && is_space(*p)) {
        p++;
    }
    /* `-- @name`: a directive; `-- @@autocommit ...` and other text stay comments. */
    if (end - p >= 2 && p[0] == '@' &&
        ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))) {
        parse_directive(p, end, it);
    }
}

/* Scan one line of a statement from state. base is the line's offset in the statement text.
 * *last is the last code character seen (outside quotes and comments); when it is `;`, *semi
 * is its offset. A line comment (`-- `, `#`) ends at the end of the line. */
static void
scan_line(const char *line, size_t len, size_t base, scan_state *state, char *last, size_t *semi)
{
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        char next = i + 1 < len ? line[i + 1] : '\0';
        switch (*state) {
        case SCAN_CODE:
            if (c == '\'') {
                *state = SCAN_SQUOTE;
            } else if (c == '"') {
                *state = SCAN_DQUOTE;
            } else if (c == '`') {
                *state = SCAN_BACKTICK;
            } else if (c == '/' && next == '*') {
                *state = SCAN_BLOCK_COMMENT;
                i++;
                continue;
            } else if (c == '#' ||
                       (c == '-' && next == '-' && (i + 2 == len || is_space(line[i + 2])))) {
                return;
            }
            if (!is_space(c)) {
                *last = c;
                if (c == ';') {
                    *semi = base + i;
                }
            }
            break;
        case SCAN_SQUOTE:
        case SCAN_DQUOTE:
            if (c == '\\') {
                i++;
            } else if ((c == '\'' && *state == SCAN_SQUOTE) ||
                       (c == '"' && *state == SCAN_DQUOTE)) {
                /* A doubled quote closes and reopens: same result. */
                *state = SCAN_CODE;
                *last = c;
            }
            break;
        case SCAN_BACKTICK:
            if (c == '`') {
                *state = SCAN_CODE;
                *last = c;
            }
            break;
        case SCAN_BLOCK_COMMENT:
            if (c == '*' && next == '/') {
                *state = SCAN_CODE;
                i++;
            }
            break;
        }
    }
}

/* Accumulate lines from line onwards until one ends the statement. */
static void
parse_statement(parser *ps, const char *line, size_t len, item *it)
{
    it->kind = ITEM_STATEMENT;
    scan_state state = SCAN_CODE;
    char last = '\0';
    size_t semi = 0;
    unsigned lineno = it->line;
    for (;;) {
        if (it->echo.len > 0) {
            rr_str_appendc(&it->echo, '\n');
        }
        size_t base = it->echo.len;
        rr_str_append(&it->echo, line, len);
        scan_line(line, len, base, &state, &last, &semi);
        if (state == SCAN_CODE && last == ';') {
            break;
        }
        if (!next_line(ps, &line, &len, &lineno)) {
            set_item_error(it, "statement starting at line %u does not end with ';'", it->line);
            return;
        }
    }
    size_t n = semi;
    while (n > 0 && (is_space(it->echo.data[n - 1]) || it->echo.data[n - 1] == '\n')) {
        n--;
    }
    it->sql = rr_strndup(it->echo.data, n);
}

/* The next comment, directive or statement; false at the end of the file. Blank lines between
 * items are skipped. */
static bool
next_item(parser *ps, item *it)
{
    const char *line;
    size_t len;
    unsigned lineno;
    for (;;) {
        if (!next_line(ps, &line, &len, &lineno)) {
            return false;
        }
        size_t i = 0;
        while (i < len && is_space(line[i])) {
            i++;
        }
        if (i == len) {
            continue;
        }
        it->line = lineno;
        if (len - i >= 2 && line[i] == '-' && line[i + 1] == '-') {
            parse_comment(line, len, it);
        } else {
            parse_statement(ps, line, len, it);
        }
        return true;
    }
}

/* ---- execution ---- */

/* Open a connection; never NULL. On failure mysql_errno() of the result is non-zero and the
 * caller closes it. */
static MYSQL *
connect_server(const rr_conn_params *p, const char *user, const char *password, const char *db)
{
    MYSQL *m = mysql_init(NULL);
    if (m == NULL) {
        fprintf(stderr, "regress-runner: mysql_init failed\n");
        abort();
    }
    unsigned protocol = MYSQL_PROTOCOL_TCP;
    unsigned connect_timeout = 10;
    mysql_options(m, MYSQL_OPT_PROTOCOL, &protocol);
    mysql_options(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
    mysql_options(m, MYSQL_OPT_READ_TIMEOUT, &p->timeout_s);
    mysql_options(m, MYSQL_OPT_WRITE_TIMEOUT, &p->timeout_s);
    mysql_real_connect(m, p->host, user, password, db, p->port, NULL,
                       CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS);
    return m;
}

/* Run sql and throw away whatever comes back. */
static void
discard_results(MYSQL *m, const char *sql)
{
    if (mysql_query(m, sql) != 0) {
        return;
    }
    do {
        MYSQL_RES *res = mysql_store_result(m);
        if (res != NULL) {
            mysql_free_result(res);
        }
    } while (mysql_next_result(m) == 0);
}

/* DROP + CREATE the test's database on a fresh connection, which then becomes the default
 * connection (so no connection of the test closes behind its back while the script runs). A
 * server that cannot create databases is fine: the test then runs without a default database,
 * and nothing in the output says so. */
static int
prepare_database(test_state *ts, const char *db_name)
{
    const rr_conn_params *p = ts->params;
    MYSQL *m = connect_server(p, p->user, p->password, NULL);
    if (mysql_errno(m) != 0) {
        int rc = runner_error(ts, 0, "cannot connect to %s:%u as %s: ERROR %u (%s): %s", p->host,
                              p->port, p->user, mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
        mysql_close(m);
        return rc;
    }
    char *sql = rr_sprintf("DROP DATABASE IF EXISTS `%s`", db_name);
    discard_results(m, sql);
    free(sql);
    sql = rr_sprintf("CREATE DATABASE `%s`", db_name);
    bool is_created = mysql_query(m, sql) == 0;
    free(sql);
    if (is_created && mysql_select_db(m, db_name) != 0) {
        int rc = runner_error(ts, 0, "cannot use database %s: ERROR %u (%s): %s", db_name,
                              mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
        mysql_close(m);
        return rc;
    }
    if (is_created) {
        ts->db = db_name;
    }
    add_conn(ts, RR_DEFAULT_CONN, m);
    return 0;
}

/* Register an open connection under name. */
static void
add_conn(test_state *ts, const char *name, MYSQL *m)
{
    if (ts->nconns == ts->conns_cap) {
        ts->conns_cap = ts->conns_cap ? ts->conns_cap * 2 : 4;
        ts->conns = rr_realloc(ts->conns, ts->conns_cap * sizeof ts->conns[0]);
    }
    ts->conns[ts->nconns].name = rr_strdup(name);
    ts->conns[ts->nconns].mysql = m;
    ts->nconns++;
}

/* Record a runner problem in the output and the note; returns -1. line 0 = not in the file. */
static int
runner_error(test_state *ts, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0) {
        rr_str_printf(ts->out, "!! runner error: line %u: %s\n", line, msg);
        rr_str_printf(ts->note, "%s:%u: %s\n", ts->path, line, msg);
    } else {
        rr_str_printf(ts->out, "!! runner error: %s\n", msg);
        rr_str_printf(ts->note, "%s: %s\n", ts->path, msg);
    }
    return -1;
}

static conn *
find_conn(test_state *ts, const char *name)
{
    for (size_t i = 0; i < ts->nconns; i++) {
        if (strcmp(ts->conns[i].name, name) == 0) {
            return &ts->conns[i];
        }
    }
    return NULL;
}

/* The current connection, opened on first use. Returns 0 with *out set; 0 with *out NULL when
 * the server refused the login (its ERROR line is in the output, the statement is skipped);
 * -1 on a runner problem. */
static int
current_conn(test_state *ts, unsigned line, MYSQL **out)
{
    *out = NULL;
    conn *c = find_conn(ts, ts->current);
    if (c != NULL) {
        *out = c->mysql;
        return 0;
    }
    const rr_conn_params *p = ts->params;
    const char *user = ts->next_user != NULL ? ts->next_user : p->user;
    const char *password = ts->next_user != NULL ? ts->next_password : p->password;
    MYSQL *m = connect_server(p, user, password, ts->db);
    unsigned code = mysql_errno(m);
    if (code != 0) {
        int rc = 0;
        if (code >= CR_MIN_ERROR && code <= CR_MAX_ERROR) {
            rc = runner_error(ts, line, "cannot open connection %s to %s:%u: ERROR %u (%s): %s",
                              ts->current, p->host, p->port, code, mysql_sqlstate(m),
                              mysql_error(m));
        } else {
            rr_output_error(ts->out, code, mysql_sqlstate(m), mysql_error(m));
        }
        mysql_close(m);
        return rc;
    }
    free(ts->next_user);
    free(ts->next_password);
    ts->next_user = NULL;
    ts->next_password = NULL;
    add_conn(ts, ts->current, m);
    *out = m;
    return 0;
}

/* Echo one item and act on it. Returns 0, or -1 when the test must stop. */
static int
run_item(test_state *ts, const item *it)
{
    if (it->echo.len > 0) {
        rr_str_append(ts->out, it->echo.data, it->echo.len);
        rr_str_appendc(ts->out, '\n');
    }
    switch (it->kind) {
    case ITEM_COMMENT:
        return 0;
    case ITEM_SORTED:
        ts->fmt.is_sorted = true;
        return 0;
    case ITEM_MASK_NUM:
        ts->fmt.mask_numbers = true;
        return 0;
    case ITEM_MASK:
        for (int i = 0; i < it->nargs; i++) {
            rr_format_add_mask(&ts->fmt, (unsigned)strtoul(it->args[i], NULL, 10));
        }
        return 0;
    case ITEM_CONNECTION:
        free(ts->current);
        ts->current = rr_strdup(it->args[0]);
        return 0;
    case ITEM_DISCONNECT: {
        conn *c = find_conn(ts, it->args[0]);
        if (c == NULL) {
            return runner_error(ts, it->line, "connection %s is not open", it->args[0]);
        }
        mysql_close(c->mysql);
        free(c->name);
        *c = ts->conns[--ts->nconns];
        if (strcmp(ts->current, it->args[0]) == 0) {
            free(ts->current);
            ts->current = rr_strdup(RR_DEFAULT_CONN);
        }
        return 0;
    }
    case ITEM_USER:
        free(ts->next_user);
        free(ts->next_password);
        ts->next_user = rr_strdup(it->args[0]);
        ts->next_password = rr_strdup(it->nargs > 1 ? it->args[1] : "");
        return 0;
    case ITEM_STATEMENT: {
        MYSQL *m;
        if (current_conn(ts, it->line, &m) != 0) {
            return -1;
        }
        if (m != NULL) {
            rr_output_query(ts->out, m, it->sql, strlen(it->sql), &ts->fmt);
        }
        rr_str_appendc(ts->out, '\n');
        rr_format_reset(&ts->fmt);
        return 0;
    }
    case ITEM_ERROR:
        return runner_error(ts, it->line, "%s", it->msg);
    }
    return 0;
}

static void
close_all(test_state *ts)
{
    for (size_t i = 0; i < ts->nconns; i++) {
        mysql_close(ts->conns[i].mysql);
        free(ts->conns[i].name);
    }
    free(ts->conns);
    ts->conns = NULL;
    ts->nconns = 0;
}

int
rr_test_run(const rr_conn_params *p, const char *sql_path, const char *db_name, rr_str *out,
            rr_str *note)
{
    test_state ts = {
            .params = p,
            .path = sql_path,
            .out = out,
            .note = note,
            .current = rr_strdup(RR_DEFAULT_CONN),
    };
    rr_format_init(&ts.fmt);
    rr_str text;
    rr_str_init(&text);
    int rc = 0;
    if (rr_file_read(sql_path, &text) != 0) {
        char buf[128];
        rc = runner_error(&ts, 0, "cannot read: %s", strerror_r(errno, buf, sizeof buf));
        goto out;
    }
    rc = prepare_database(&ts, db_name);
    if (rc != 0) {
        goto out;
    }
    parser ps = {.text = rr_str_cstr(&text), .len = text.len, .line = 1};
    item it;
    item_init(&it);
    while (rc == 0 && next_item(&ps, &it)) {
        rc = run_item(&ts, &it);
        item_clear(&it);
    }
    item_clear(&it);
out:
    close_all(&ts);
    rr_format_destroy(&ts.fmt);
    free(ts.current);
    free(ts.next_user);
    free(ts.next_password);
    rr_str_destroy(&text);
    return rc;
}
