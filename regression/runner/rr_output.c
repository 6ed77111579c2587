/* SPDX-License-Identifier: Apache-2.0
 * rr_output.c: turns what the server answers into the text of a .out file: a header row and
 * tab-separated rows (NULL for SQL NULL, mysql --batch escapes), `ERROR code (state): message`
 * lines, and the @sorted / @mask_column directives. See regression/README.md §Output format. */
#include "rr_int.h"

#include <mysql.h>
#include <stdlib.h>
#include <string.h>

static void append_value(rr_str *out, const char *v, unsigned long len);
static bool is_masked(const rr_format *f, unsigned col);
static int compare_lines(const void *a, const void *b);
static void append_conn_error(rr_str *out, MYSQL *conn);

#define RR_MASKED "<masked>"

void
rr_format_init(rr_format *f)
{
    f->is_sorted = false;
    f->mask_numbers = false;
    f->mask = NULL;
    f->nmask = 0;
    f->mask_cap = 0;
}

void
rr_format_destroy(rr_format *f)
{
    free(f->mask);
    rr_format_init(f);
}

void
rr_format_reset(rr_format *f)
{
    f->is_sorted = false;
    f->mask_numbers = false;
    f->nmask = 0;
}

void
rr_format_add_mask(rr_format *f, unsigned col)
{
    if (f->nmask == f->mask_cap) {
        f->mask_cap = f->mask_cap ? f->mask_cap * 2 : 4;
        f->mask = rr_realloc(f->mask, f->mask_cap * sizeof f->mask[0]);
    }
    f->mask[f->nmask++] = col;
}

/* Column col (1-based) is masked for the current statement. */
static bool
is_masked(const rr_format *f, unsigned col)
{
    for (size_t i = 0; i < f->nmask; i++) {
        if (f->mask[i] == col) {
            return true;
        }
    }
    return false;
}

/* Append a value as mysql --batch prints it: NUL, tab, newline, carriage return and backslash
 * become \0 \t \n \r \\, so every row is one line and no line holds a NUL byte. */
static void
append_value(rr_str *out, const char *v, unsigned long len)
{
    unsigned long start = 0;
    for (unsigned long i = 0; i < len; i++) {
        const char *esc = NULL;
        switch (v[i]) {
        case '\0':
            esc = "\\0";
            break;
        case '\t':
            esc = "\\t";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\\':
            esc = "\\\\";
            break;
        default:
            break;
        }
        if (esc != NULL) {
            rr_str_append(out, v + start, i - start);
            rr_str_appendz(out, esc);
            start = i + 1;
        }
    }
    rr_str_append(out, v + start, len - start);
}

/* qsort comparator over char * lines: bytewise (strcmp compares as unsigned char). */
static int
compare_lines(const void *a, const void *b)
{
    const char *const *x = a;
    const char *const *y = b;
    return strcmp(*x, *y);
}

void
rr_output_result(rr_str *out, MYSQL_RES *res, const rr_format *f)
{
    unsigned nfields = mysql_num_fields(res);
    MYSQL_FIELD *fields = mysql_fetch_fields(res);
    for (unsigned i = 0; i < nfields; i++) {
        if (i > 0) {
            rr_str_appendc(out, '\t');
        }
        append_value(out, fields[i].name, fields[i].name_length);
    }
    rr_str_appendc(out, '\n');

    size_t nrows = 0, cap = 0;
    char **rows = NULL;
    rr_str line;
    rr_str_init(&line);
    MYSQL_ROW row;
    while ((row = mysql_fetch_row(res)) != NULL) {
        unsigned long *lengths = mysql_fetch_lengths(res);
        rr_str_clear(&line);
        for (unsigned i = 0; i < nfields; i++) {
            if (i > 0) {
                rr_str_appendc(&line, '\t');
            }
            if (is_masked(f, i + 1)) {
                rr_str_appendz(&line, RR_MASKED);
            } else if (row[i] == NULL) {
                rr_str_appendz(&line, "NULL");
            } else {
                append_value(&line, row[i], lengths[i]);
            }
        }
        if (nrows == cap) {
            cap = cap ? cap * 2 : 16;
            rows = rr_realloc(rows, cap * sizeof rows[0]);
        }
        rows[nrows++] = rr_strndup(rr_str_cstr(&line), line.len);
    }
    rr_str_destroy(&line);

    if (f->is_sorted && nrows > 1) {
        qsort(rows, nrows, sizeof rows[0], compare_lines);
    }
    for (size_t i = 0; i < nrows; i++) {
        rr_str_appendz(out, rows[i]);
        rr_str_appendc(out, '\n');
        free(rows[i]);
    }
    free(rows);
}

void
rr_output_error(rr_str *out, unsigned code, const char *sqlstate, const char *msg)
{
    rr_str_printf(out, "ERROR %u (%s): %s\n", code, sqlstate, msg);
}

/* The connection's last error as an ERROR line. */
static void
append_conn_error(rr_str *out, MYSQL *conn)
{
    rr_output_error(out, mysql_errno(conn), mysql_sqlstate(conn), mysql_error(conn));
}

/* Replace every run of 5 or more digits in out[from..] by <n> (@mask_numbers). */
static void
mask_digit_runs(rr_str *out, size_t from)
{
    rr_str tail;
    rr_str_init(&tail);
    const char *s = out->data + from;
    size_t n = out->len - from;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] >= '0' && s[j] <= '9') {
            j++;
        }
        if (j - i >= 5) {
            rr_str_appendz(&tail, "<n>");
            i = j;
        } else if (j > i) {
            rr_str_append(&tail, s + i, j - i);
            i = j;
        } else {
            rr_str_appendc(&tail, s[i++]);
        }
    }
    out->len = from;
    rr_str_append(out, tail.data, tail.len);
    rr_str_destroy(&tail);
}

static void query_output(rr_str *out, MYSQL *conn, const char *sql, size_t len, const rr_format *f);

void
rr_output_query(rr_str *out, MYSQL *conn, const char *sql, size_t len, const rr_format *f)
{
    size_t from = out->len;
    query_output(out, conn, sql, len, f);
    if (f->mask_numbers) {
        mask_digit_runs(out, from);
    }
}

static void
query_output(rr_str *out, MYSQL *conn, const char *sql, size_t len, const rr_format *f)
{
    if (mysql_real_query(conn, sql, (unsigned long)len) != 0) {
        append_conn_error(out, conn);
        return;
    }
    /* One pass per result of a multi-statement query; an error ends the sequence. */
    for (;;) {
        MYSQL_RES *res = mysql_store_result(conn);
        if (res != NULL) {
            rr_output_result(out, res, f);
            mysql_free_result(res);
        } else if (mysql_field_count(conn) != 0) {
            append_conn_error(out, conn);
            return;
        }
        int rc = mysql_next_result(conn);
        if (rc < 0) {
            return;
        }
        if (rc > 0) {
            append_conn_error(out, conn);
            return;
        }
    }
}
