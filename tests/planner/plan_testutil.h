/* SPDX-License-Identifier: Apache-2.0
 * Test fixture for the planner unit tests: a server + session pair and a plan_sink that
 * collects column metadata and cell text. */
#ifndef TESTS_PLANNER_PLAN_TESTUTIL_H
#define TESTS_PLANNER_PLAN_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "planner/planner.h"

#define TX_MAX_COLS  32
#define TX_MAX_CELLS 32768

/* A real catalog, storage engine, Row Binlog and stream state in a directory: the planner is
 * tested as the server runs it (dir/meta, dir/storage). */
typedef struct tx_store {
    char dir[128];
    cat_meta *meta;
    stor_engine *engine;
    bl_log *binlog;
    strm_state *streams;
} tx_store;

/* Open (or reopen: replay, orphan removal) the store in dir, which must exist. */
void tx_store_open(tx_store *st, const char *dir);
/* Close it (checkpoint: write an image first, so a reopen replays nothing). */
void tx_store_close(tx_store *st, bool checkpoint);
/* A plan_server_init over st with the fixture's defaults (version, limits, UTC). */
void tx_store_server_init(const tx_store *st, plan_server_init *si);

typedef struct tx {
    char dir[128];
    bool owns_dir;  /* tx_new: the directory is the fixture's and removed by tx_free */
    tx_store store; /* the catalog and storage the server runs on */
    cat_meta *meta; /* store.meta */
    plan_server *srv;
    plan_session *s;
    arena *a;
    db_error err;
    plan_outcome out;
    int rc;
    bool got_columns;
    plan_column cols[TX_MAX_COLS];
    size_t ncols;
    char *cells[TX_MAX_CELLS]; /* row-major; NULL = SQL NULL; arena copies */
    size_t nrows;
    char buf[1024];
} tx;

/* New fixture: a catalog + storage in a fresh temporary directory, a server over them with
 * default init (and optional hooks), a session for user root@127.0.0.1. */
tx *tx_new(void);
tx *tx_new_hooks(const plan_hooks *hooks);
void tx_free(tx *t);
/* A fixture over the store in dir (kept by tx_close: reopen it with tx_open to test durability). */
tx *tx_open(const char *dir);
/* Free the session and server, close the store (checkpoint as tx_store_close). */
void tx_close(tx *t, bool checkpoint);
/* Run one statement; returns rc; results in t. */
int tx_exec(tx *t, const char *sql);
/* Run the statement sql[0..stmt_len) of a multi-statement text through plan_execute_multi (sql
 * runs to its NUL); returns rc; results in t. */
int tx_exec_multi(tx *t, const char *sql, size_t stmt_len);
/* plan_prepare sql (from a heap copy freed right after the call, so the statement must keep
 * its own); returns rc; the described columns go to t->cols / t->ncols, the id and the number
 * of placeholders to *id / *nparams. */
int tx_prepare(tx *t, const char *sql, uint32_t *id, uint16_t *nparams);
/* plan_execute_prepared with params[0..n); returns rc; results in t. */
int tx_exec_prepared(tx *t, uint32_t id, const plan_param *params, size_t n);
/* Cell text, "NULL" for SQL NULL, "<none>" when out of range. */
const char *tx_cell(tx *t, size_t row, size_t col);
/* Run sql and return cell (0,0), or "ERR <code> <sqlstate> <msg>" on failure. */
const char *tx_one(tx *t, const char *sql);
/* Run sql expecting failure; returns the error code (0 when it succeeded). */
int tx_err(tx *t, const char *sql);

/* A query and the text of its single cell, for table-driven tests. */
typedef struct pair {
    const char *sql;
    const char *want;
} pair;

/* Run every p[i].sql on one fresh session and expect p[i].want (Criterion cr_expect). */
void check_all(const pair *p, size_t n);

#endif
