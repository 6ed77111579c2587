/* SPDX-License-Identifier: Apache-2.0
 * planner: the SQL front end and executor. Tokenizer -> Lemon grammar (parse.y) -> AST ->
 * analysis (names, types) -> execution. It also owns SQL-level session state: system variables
 * (registry, global and session values), user variables, current database, warnings, transaction
 * flags. The server drives it through this header; the planner never sees packets (the protocol
 * module is not below it) and reaches server facilities only through plan_hooks.
 * See planner/README.md. */
#ifndef PLANNER_PLANNER_H
#define PLANNER_PLANNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/db_error.h"

typedef struct cat_meta cat_meta;         /* catalog/catalog.h */
typedef struct stor_engine stor_engine;   /* storage/storage.h */
typedef struct bl_log bl_log;             /* binlog/binlog.h */
typedef struct strm_state strm_state;     /* stream/stream.h */
typedef struct plan_server plan_server;   /* process-wide SQL state (global variables) */
typedef struct plan_session plan_session; /* one connection's SQL state */

/* ---- result metadata ---- */

/* SQL types as the planner sees them. The server maps them to wire types. */
typedef enum plan_type {
    PLAN_TYPE_NULL = 0, /* the type of a bare NULL literal */
    PLAN_TYPE_BOOLEAN,
    PLAN_TYPE_TINYINT,
    PLAN_TYPE_SMALLINT,
    PLAN_TYPE_INT,
    PLAN_TYPE_BIGINT,
    PLAN_TYPE_LARGEINT,
    PLAN_TYPE_FLOAT,
    PLAN_TYPE_DOUBLE,
    PLAN_TYPE_DECIMAL,
    PLAN_TYPE_DATE,
    PLAN_TYPE_DATETIME,
    PLAN_TYPE_TIME,
    PLAN_TYPE_CHAR,
    PLAN_TYPE_VARCHAR,
    PLAN_TYPE_STRING,
    PLAN_TYPE_JSON,  /* Doris JSON (JSONB): normalized JSON text; MySQL type 245 on the wire */
    PLAN_TYPE_ARRAY, /* Doris ARRAY<T>: canonical array text (plan_array.h); a string on the wire */
} plan_type;

/* One result column. Strings live in the statement arena (NULL = empty on the wire). */
typedef struct plan_column {
    const char *name;      /* label: alias, or the select item's text as written */
    const char *org_name;  /* underlying column name, NULL for expressions */
    const char *table;     /* table alias, NULL for expressions */
    const char *org_table; /* underlying table, NULL for expressions */
    const char *schema;    /* database of the underlying table, NULL for expressions */
    plan_type type;
    uint32_t length;   /* display length in characters (MySQL max_length semantics) */
    uint8_t precision; /* DECIMAL precision */
    uint8_t scale;     /* DECIMAL scale, DATETIME fractional digits; 31 = not fixed */
    bool nullable;     /* false only when the value can never be NULL */
    bool is_unsigned;
    bool is_binary; /* binary string (charset 63) */
} plan_column;

/* One cell of a result row, already in MySQL's text form. */
typedef struct plan_cell {
    const char *data; /* not NUL-terminated necessarily; valid until the next row callback */
    size_t len;
    bool is_null;
} plan_cell;

/* Where a statement's result set goes. The server implements it (encoding packets). Any
 * callback may fail (e.g. the client went away); the planner then stops and returns DB_ERR
 * with that error. */
typedef struct plan_sink {
    void *ctx;
    /* The result set's columns; called once, before any row. cols valid until plan_execute returns.
     */
    int (*columns)(void *ctx, const plan_column *cols, size_t ncols, db_error *err);
    /* One row of ncols cells. */
    int (*row)(void *ctx, const plan_cell *cells, size_t ncols, db_error *err);
} plan_sink;

/* What a finished statement reports besides rows. */
typedef struct plan_outcome {
    bool is_result_set; /* the sink received columns (and rows); else send OK */
    uint64_t affected_rows;
    uint64_t last_insert_id;
    const char *info; /* NULL or OK-packet info text, in the statement arena */
} plan_outcome;

/* ---- server facilities the planner may call (implemented by server/) ---- */

typedef struct plan_proc_row { /* one SHOW PROCESSLIST row */
    uint64_t id;
    const char *user;
    const char *host;    /* "127.0.0.1:54321" */
    const char *db;      /* NULL when none */
    const char *command; /* "Query", "Sleep", ... */
    int64_t time_s;      /* seconds in the current state */
    const char *state;   /* "" when none */
    const char *info;    /* running statement text, NULL when idle */
} plan_proc_row;

typedef struct plan_hooks {
    void *ctx;
    /* Snapshot of all sessions; rows and strings in a. Any worker thread. */
    int (*processlist)(void *ctx, arena *a, plan_proc_row **rows, size_t *nrows, db_error *err);
    /* Kill session id (query_only: interrupt its running statement only). Killing one's own
     * connection is allowed. The planner has checked the privilege already. Errors:
     * ER_NO_SUCH_THREAD. */
    int (*kill)(void *ctx, uint64_t killer_id, uint64_t id, bool query_only, db_error *err);
} plan_hooks;

/* ---- process-wide state ---- */

typedef struct plan_server_init {
    const char *version;          /* @@version, e.g. "5.7.99-rivulet-0.1.0" */
    const char *version_comment;  /* @@version_comment */
    int64_t port;                 /* @@port */
    int64_t max_connections;      /* @@max_connections */
    int64_t max_allowed_packet;   /* default @@max_allowed_packet */
    const char *datadir;          /* @@datadir */
    const char *system_time_zone; /* @@system_time_zone, e.g. "UTC" */
    bool have_ssl;                /* @@have_ssl YES/DISABLED */
    cat_meta *meta;               /* the durable catalog (databases, tables, users, TSO);
                                     required (unit tests open a real one in a temp dir) */
    stor_engine *engine;          /* table data (required) */
    bl_log *binlog;               /* Row Binlog records (required) */
    strm_state *streams;          /* Table Stream offsets (required) */
    const struct cfg *conf;       /* fe.conf + be.conf as loaded (SHOW FRONTENDS / BACKENDS, SHOW
                                     FRONTEND / BACKEND CONFIG); not owned, must outlive the server;
                                     NULL in unit tests (defaults are shown) */
    plan_hooks hooks;
} plan_server_init;

/* Create the process-wide state; copies init's strings. Start-up thread. Never NULL. */
plan_server *plan_server_new(const plan_server_init *init);
/* Free it; all sessions must be freed first. */
void plan_server_free(plan_server *srv);

/* ---- sessions ---- */

typedef struct plan_session_init {
    uint64_t conn_id;
    const char *user;         /* authenticated user */
    const char *host;         /* client host, e.g. "127.0.0.1" */
    const char *account_host; /* host of the matching account ("%" for root); privileges are
                                 granted to user@account_host */
    const char *db;    /* initial database or NULL (must be valid: use plan_session_use_db) */
    uint8_t collation; /* handshake collation id (33, 45, 255, 8, 63 ...) */
} plan_session_init;

/* New session with session variables copied from the current globals. Never NULL. */
plan_session *plan_session_new(plan_server *srv, const plan_session_init *init);
void plan_session_free(plan_session *s);

/* COM_INIT_DB and the handshake database: switch the current database. ER_BAD_DB_ERROR when it
 * does not exist. Worker thread. */
int plan_session_use_db(plan_session *s, const char *db, db_error *err);
/* Current database or NULL. */
const char *plan_session_db(const plan_session *s);
/* COM_RESET_CONNECTION / COM_CHANGE_USER: session variables back to globals, user variables,
 * warnings and transaction state cleared; new user and host when not NULL. */
void plan_session_reset(plan_session *s, const char *user, const char *host);
/* Server status flags for OK/EOF packets: bit 0x0001 IN_TRANS, 0x0002 AUTOCOMMIT (same values
 * as SERVER_STATUS_*). */
uint16_t plan_session_status(const plan_session *s);
/* Warnings of the last statement (for OK/EOF). */
uint16_t plan_session_warning_count(const plan_session *s);
/* Collation id to announce for string result columns (from character_set_results). */
uint16_t plan_session_result_collation(const plan_session *s);
/* @@max_allowed_packet of this session. */
int64_t plan_session_max_allowed_packet(const plan_session *s);
/* Interrupt the running statement (KILL QUERY). Any thread; the executor notices at its next
 * check and fails with ER_QUERY_INTERRUPTED. */
void plan_session_interrupt(plan_session *s);
/* True once plan_session_interrupt was called for the running statement (KILL QUERY, closing
 * connection, shutdown). Any thread. */
bool plan_session_interrupted(const plan_session *s);
/* The session's net_write_timeout in seconds: how long a reply may wait for the client to read. */
int64_t plan_session_net_write_timeout(const plan_session *s);

/* ---- statements ---- */

/* Bytes of the first statement of sql[0..len): up to and including its terminating ';' (outside
 * quotes and comments), or len. Used by the server to run multi-statement queries one by one. */
size_t plan_statement_split(const char *sql, size_t len);
/* True when sql[0..len) holds nothing but blanks, comments and ';'. */
bool plan_is_blank(const char *sql, size_t len);

/* Parse, analyse and run one statement. Rows go to sink; *out says how it ended. Transient data
 * lives in a (the statement arena), which the server resets after the reply is sent.
 * Errors: ER_PARSE_ERROR, ER_EMPTY_QUERY, ER_UNKNOWN_SYSTEM_VARIABLE, ... Worker thread; may
 * block on storage later. Warnings are recorded in the session for SHOW WARNINGS. */
int plan_execute(plan_session *s, const char *sql, size_t len, arena *a, const plan_sink *sink,
                 plan_outcome *out, db_error *err);

/* plan_execute for one statement of a multi-statement query (CLIENT_MULTI_STATEMENTS): runs
 * sql[0..stmt_len) (stmt_len from plan_statement_split), where sql[0..len) is the rest of the
 * whole query text from this statement on. Only the ER_PARSE_ERROR text differs from
 * plan_execute, to match MySQL: "near '...'" quotes from the bad token to the end of
 * sql[0..len) without the query's trailing blanks and ';' (80 bytes at most), and "at line N"
 * counts from the statement's first non-blank byte. So for "SELECT 1; SELEC 2; SELECT 3" the
 * second call says near 'SELEC 2; SELECT 3', and "SELEC 1;" alone says near 'SELEC 1'.
 * Never reads sql beyond len. Same ownership, threading and errors as plan_execute. */
int plan_execute_multi(plan_session *s, const char *sql, size_t len, size_t stmt_len, arena *a,
                       const plan_sink *sink, plan_outcome *out, db_error *err);

/* COM_FIELD_LIST: the columns of table (with wildcard filter, NULL = all) in the current
 * database, in a. ER_NO_DB_ERROR / ER_NO_SUCH_TABLE. */
int plan_field_list(plan_session *s, const char *table, const char *wildcard, arena *a,
                    plan_column **cols, size_t *ncols, db_error *err);

/* ---- prepared statements (COM_STMT_*; SQL PREPARE later) ---- */

typedef enum plan_param_kind {
    PLAN_PARAM_NULL = 0,
    PLAN_PARAM_INT,      /* i */
    PLAN_PARAM_UINT,     /* u */
    PLAN_PARAM_DOUBLE,   /* d */
    PLAN_PARAM_DECIMAL,  /* s[0..len): decimal text, e.g. "-12.50" */
    PLAN_PARAM_STRING,   /* s[0..len): bytes in the connection character set */
    PLAN_PARAM_DATE,     /* s[0..len): "YYYY-MM-DD" */
    PLAN_PARAM_DATETIME, /* s[0..len): "YYYY-MM-DD HH:MM:SS[.ffffff]" */
    PLAN_PARAM_TIME,     /* s[0..len): "[-]HH:MM:SS[.ffffff]" */
} plan_param_kind;

/* One bound value of a '?' placeholder, decoded from the wire by the server. */
typedef struct plan_param {
    plan_param_kind kind;
    int64_t i;
    uint64_t u;
    double d;
    const char *s; /* not NUL-terminated; valid for the call */
    size_t len;
} plan_param;

/* Parse and analyse sql[0..len) as ONE statement that may contain '?' placeholders, and keep it
 * in the session under a new id (unique per session, never 0). Nothing is executed and no
 * variable changes. *nparams is the number of placeholders; *cols / *ncols describe the result
 * columns in a (ncols 0 for statements without a result set; placeholders in select items are
 * described as nullable VARCHAR). Errors as plan_execute (ER_PARSE_ERROR, ...). Worker thread. */
int plan_prepare(plan_session *s, const char *sql, size_t len, arena *a, uint32_t *stmt_id,
                 uint16_t *nparams, plan_column **cols, size_t *ncols, db_error *err);

/* Run prepared statement stmt_id with params[0..nparams) bound to its placeholders in order.
 * Rows go to sink (which receives the column metadata of this execution); *out as plan_execute.
 * Errors: ER_UNKNOWN_STMT_HANDLER for an unknown id, ER_WRONG_ARGUMENTS when nparams differs
 * from the prepared count, and whatever the statement raises. Worker thread. */
int plan_execute_prepared(plan_session *s, uint32_t stmt_id, const plan_param *params,
                          size_t nparams, arena *a, const plan_sink *sink, plan_outcome *out,
                          db_error *err);

/* Forget prepared statement stmt_id (unknown ids are ignored). plan_session_reset and
 * plan_session_free forget all of them. */
void plan_close_prepared(plan_session *s, uint32_t stmt_id);

#endif /* PLANNER_PLANNER_H */
