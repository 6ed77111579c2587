/* SPDX-License-Identifier: Apache-2.0
 * db_error: the one error type of Rivulet. A MySQL error code, SQLSTATE and message, plus the
 * file:line that raised it (logged, never sent). All codes come from db_error.def.
 * See common/README.md §Errors. */
#ifndef COMMON_DB_ERROR_H
#define COMMON_DB_ERROR_H

#include <stdbool.h>

/* Return codes of every function that can fail. */
enum {
    DB_OK = 0,     /* success */
    DB_ERR = -1,   /* failure; the db_error argument says why */
    DB_AGAIN = -2, /* non-blocking codec: need more bytes, call again */
};

#define DB_ERRMSG_SIZE 512 /* MYSQL_ERRMSG_SIZE */

typedef struct db_error {
    int code;                 /* MySQL error number, 0 when no error is set */
    char sqlstate[6];         /* five characters and a NUL */
    char msg[DB_ERRMSG_SIZE]; /* one line, NUL-terminated, truncated to fit */
    const char *file;         /* origin, for the log only */
    int line;                 /* origin, for the log only */
} db_error;

/* Symbolic names of all errors, in db_error.def order. */
typedef enum db_errname {
#define XX(name, num, state, fmt) name,
#include "common/db_error.def"
#undef XX
    DB_ERRNAME__COUNT
} db_errname;

/* Fill err from row `name` of db_error.def, formatting the row's text with the arguments.
 * Records file:line. The first error wins: if err already holds an error it is kept.
 * Returns DB_ERR so a caller can write `return db_error_set(err, ER_X, ...);`. Any thread. */
int db_error_set_at(db_error *err, const char *file, int line, db_errname name, ...);
#define db_error_set(e, ...) db_error_set_at((e), __FILE__, __LINE__, __VA_ARGS__)

/* Like db_error_set, but replaces whatever err held. */
int db_error_reset_at(db_error *err, const char *file, int line, db_errname name, ...);
#define db_error_replace(e, ...) db_error_reset_at((e), __FILE__, __LINE__, __VA_ARGS__)

/* Clear err (code 0, empty message). */
void db_error_clear(db_error *err);

/* True when err holds an error. */
bool db_error_is_set(const db_error *err);

/* The MySQL code / SQLSTATE / format of a row of db_error.def (for tests and docs). */
int db_error_code_of(db_errname name);
const char *db_error_sqlstate_of(db_errname name);
const char *db_error_format_of(db_errname name);

/* Bugs are not errors: DB_ASSERT stays on in release builds, logs file:line and aborts. */
void db_assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));
#define DB_ASSERT(cond)                                \
    do {                                               \
        if (!(cond)) {                                 \
            db_assert_fail(#cond, __FILE__, __LINE__); \
        }                                              \
    } while (0)

#endif /* COMMON_DB_ERROR_H */
