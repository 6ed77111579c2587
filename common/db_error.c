/* SPDX-License-Identifier: Apache-2.0
 * db_error: formatting errors from the db_error.def table. See README.md §Errors. */
#include "common/db_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct errdef {
    int code;
    const char *sqlstate;
    const char *fmt;
} errdef;

static const errdef errdefs[DB_ERRNAME__COUNT] = {
#define XX(name, num, state, fmt) [name] = {num, state, fmt},
#include "common/db_error.def"
#undef XX
};

static void fill(db_error *err, const char *file, int line, db_errname name, va_list ap);
static void cut_partial_utf8(char *msg, size_t len);

/* msg[0..len) was cut from a longer text: drop a UTF-8 sequence the cut left incomplete, so the
 * client never receives half a character. */
static void
cut_partial_utf8(char *msg, size_t len)
{
    size_t j = len;
    while (j > 0 && len - j < 4 && ((unsigned char)msg[j - 1] & 0xC0) == 0x80) {
        j--;
    }
    if (j == 0) {
        return;
    }
    unsigned char lead = (unsigned char)msg[j - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (need > 1 && (j - 1) + need > len) {
        msg[j - 1] = '\0';
    }
}

/* The format string comes from the table above, never from input. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void
fill(db_error *err, const char *file, int line, db_errname name, va_list ap)
{
    DB_ASSERT(name >= 0 && name < DB_ERRNAME__COUNT);
    const errdef *d = &errdefs[name];
    err->code = d->code;
    memcpy(err->sqlstate, d->sqlstate, 5);
    err->sqlstate[5] = '\0';
    int n = vsnprintf(err->msg, sizeof err->msg, d->fmt, ap);
    if (n >= (int)sizeof err->msg) {
        cut_partial_utf8(err->msg, sizeof err->msg - 1);
    }
    /* One line: a newline inside an argument would break the client's display. */
    for (char *p = err->msg; *p; p++) {
        if (*p == '\n' || *p == '\r') {
            *p = ' ';
        }
    }
    err->file = file;
    err->line = line;
}
#pragma GCC diagnostic pop

int
db_error_set_at(db_error *err, const char *file, int line, db_errname name, ...)
{
    if (err == NULL || err->code != 0) {
        return DB_ERR;
    }
    va_list ap;
    va_start(ap, name);
    fill(err, file, line, name, ap);
    va_end(ap);
    return DB_ERR;
}

int
db_error_reset_at(db_error *err, const char *file, int line, db_errname name, ...)
{
    if (err == NULL) {
        return DB_ERR;
    }
    va_list ap;
    va_start(ap, name);
    fill(err, file, line, name, ap);
    va_end(ap);
    return DB_ERR;
}

void
db_error_clear(db_error *err)
{
    err->code = 0;
    err->sqlstate[0] = '\0';
    err->msg[0] = '\0';
    err->file = NULL;
    err->line = 0;
}

bool
db_error_is_set(const db_error *err)
{
    return err->code != 0;
}

int
db_error_code_of(db_errname name)
{
    return errdefs[name].code;
}

const char *
db_error_sqlstate_of(db_errname name)
{
    return errdefs[name].sqlstate;
}

const char *
db_error_format_of(db_errname name)
{
    return errdefs[name].fmt;
}

void
db_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "assertion failed: %s at %s:%d\n", expr, file, line);
    fflush(stderr);
    abort();
}
