/* SPDX-License-Identifier: Apache-2.0
 * server internals shared by the .c files of server/: the server object, connections, the worker
 * pool and TLS glue. Threads: the libuv loop thread owns sockets, TLS state and connection
 * lifetimes; worker threads run one job (one client command) per connection at a time. See
 * README.md §Data structures and §Threads. */
#ifndef SERVER_SRV_INT_H
#define SERVER_SRV_INT_H

#include "server/server.h"

#include <openssl/ssl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "binlog/binlog.h"
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "conf/conf.h"
#include "planner/planner.h"
#include "protocol/protocol.h"
#include "storage/storage.h"
#include "stream/stream.h"

#define SRV_VERSION            "5.7.99-rivulet-0.1.0"
#define SRV_VERSION_COMMENT    "Rivulet 0.1.0 (Doris-compatible)"
#define SRV_HANDSHAKE_MAX      65536u /* largest packet accepted before authentication */
#define SRV_CONNECT_TIMEOUT_MS 10000u
#define SRV_READ_HIGH_WATER    (64u << 20)  /* stop reading while this much input is queued */
#define SRV_GC_INTERVAL_MS     2000u        /* tablet garbage collection period */
#define SRV_STREAM_BUF         (256u << 10) /* reply buffer reserved for a streamed result */
#define SRV_STREAM_CHUNK       (224u << 10) /* hand a reply over once this much is encoded */
#define SRV_STREAM_WINDOW      (4u << 20)   /* a worker waits while more than this is unwritten */

typedef struct srv_server srv_server;
typedef struct srv_conn srv_conn;
typedef struct srv_pool srv_pool;

/* ---- worker pool (srv_pool.c) ---- */

typedef struct srv_job srv_job;
typedef void (*srv_job_fn)(srv_job *job);

/* A unit of work: run() on a worker, then done() on the loop thread. Embedded in its owner. */
struct srv_job {
    srv_job *next;   /* queue link; owned by the pool while queued */
    srv_job_fn run;  /* worker thread */
    srv_job_fn done; /* loop thread, after run returned */
};

/* Start nthreads workers; completions are delivered on loop. Never NULL. Loop thread. */
srv_pool *srv_pool_new(uv_loop_t *loop, int nthreads);
/* Queue job. Any thread. */
void srv_pool_submit(srv_pool *p, srv_job *job);
/* Stop accepting, finish queued jobs, join workers, deliver the last completions, free.
 * Loop thread, with the loop still open (closes the pool's async handle; the caller runs the
 * loop afterwards so the close completes). */
void srv_pool_free(srv_pool *p);

/* ---- TLS (srv_tls.c) ---- */

/* Build the server SSL_CTX from cert/key files; when both are empty, use (and create on first
 * start) a self-signed pair in meta_dir. NULL with ER_CONFIG on failure. Start-up thread. */
SSL_CTX *srv_tls_ctx_new(const char *cert, const char *key, const char *meta_dir, db_error *err);

/* ---- connections (srv_conn.c, srv_command.c) ---- */

typedef enum srv_conn_state {
    SRV_CONN_HANDSHAKE = 0, /* greeting sent, waiting for the handshake response */
    SRV_CONN_TLS,           /* TLS handshake in progress after an SSLRequest */
    SRV_CONN_AUTH_SWITCH,   /* AuthSwitchRequest sent, waiting for the token */
    SRV_CONN_COMMAND,       /* authenticated; packets are commands */
    SRV_CONN_CLOSING,       /* no more input is processed; close after pending writes */
} srv_conn_state;

struct srv_conn {
    srv_server *srv;
    uv_tcp_t tcp;       /* the socket; the conn is freed in its close callback */
    uv_timer_t timer;   /* connect timeout during the handshake */
    uint64_t id;        /* connection id (CONNECTION_ID()) */
    char peer_host[64]; /* "127.0.0.1" */
    char peer_addr[80]; /* "127.0.0.1:54321" */
    arena *conn_arena;  /* connection lifetime: handshake strings */
    arena *stmt_arena;  /* statement lifetime: reset after each command's reply */

    /* ---- loop thread only ---- */
    srv_conn_state state;
    buf in;                 /* plaintext bytes received, not yet consumed */
    buf joined;             /* scratch for split packets */
    SSL *ssl;               /* NULL until an SSLRequest */
    BIO *tls_in;            /* ciphertext from the socket, read by OpenSSL */
    BIO *tls_out;           /* ciphertext from OpenSSL, to the socket */
    bool tls_active;        /* TLS handshake finished; all traffic is encrypted */
    bool job_running;       /* a command is on a worker; do not touch session/out */
    bool reading;           /* uv_read_start active */
    bool closing;           /* uv_close called */
    bool close_after_write; /* close once the output is written (fatal errors, QUIT) */
    int pending_writes;     /* uv_write requests in flight */
    int handles_open;       /* tcp + timer until their close callbacks ran */

    /* ---- owned by the job while job_running, else by the loop thread ---- */
    srv_job job;
    proto_packet pkt;    /* the packet being processed (points into in / joined) */
    size_t pkt_consumed; /* bytes of `in` the packet occupies */
    buf out;             /* reply bytes (plaintext) produced by the job */
    uint8_t seq;         /* next sequence id for the reply */
    uint32_t caps;       /* effective capabilities (client AND server) */
    uint8_t scramble[PROTO_SCRAMBLE_LEN];
    plan_session *session;  /* NULL until authenticated */
    struct srv_stmt *stmts; /* prepared statements of this connection (heap array) */
    size_t nstmts, cap_stmts;
    char user[64];          /* authenticated user */
    bool quit;              /* COM_QUIT or fatal: close after the reply */
    bool write_timed_out;   /* net_write_timeout passed: close now, unsent bytes dropped */
    const char *auth_db;    /* database requested in the handshake (conn_arena) */
    uint8_t auth_collation; /* collation id from the handshake */
    char pending_user[64];  /* user being authenticated across an auth switch */

    /* ---- result streaming (README.md §Result streaming) ---- */
    uv_async_t flow_async;         /* the worker asks the loop to write the queued chunks */
    pthread_mutex_t flow_lock;     /* protects: chunks, chunks_tail, inflight, flow_closed */
    pthread_cond_t flow_cond;      /* signalled when inflight drops or flow_closed is set */
    struct srv_chunk *chunks;      /* reply bytes handed over mid-command, oldest first */
    struct srv_chunk *chunks_tail; /* last of chunks, NULL when empty */
    size_t inflight;  /* reply bytes queued in chunks or in uv_write, not yet on the socket */
    bool flow_closed; /* the connection is closing: the worker stops producing */

    /* ---- shared; guarded by srv->conns_lock ---- */
    srv_conn *prev, *next;      /* registry links */
    char command[24];           /* processlist Command */
    char *info;                 /* running statement text (heap), NULL when idle */
    char db[65];                /* current database, "" when none */
    uint64_t state_since_ms;    /* when command last changed */
    atomic_bool kill_requested; /* KILL CONNECTION: close at the next chance */
};

/* ---- the server ---- */

struct srv_server {
    cfg conf; /* configuration; read-only after start-up */
    uv_loop_t loop;
    uv_tcp_t listener;
    uv_signal_t sigterm, sigint;
    uv_async_t wakeup;         /* other threads ask the loop to look at kill requests */
    uv_timer_t shutdown_timer; /* bounds the graceful shutdown */
    srv_pool *pool;
    SSL_CTX *ssl_ctx;                /* NULL when TLS could not be set up */
    cat_meta *meta;                  /* the durable catalog (edit log, TSO, schema) */
    stor_engine *engine;             /* table data (tablets, rowsets); shares the catalog's log */
    bl_log *binlog;                  /* Row Binlog rowsets; shares the engine's commits */
    stor_catalog_ctx compaction_ctx; /* engine + meta for the compaction filter (its thread) */
    strm_state *streams;             /* Table Stream offsets; move with the engine's commits */
    uv_timer_t checkpoint_timer;     /* looks every second whether a checkpoint is due */
    srv_job checkpoint_job;          /* at most one checkpoint runs at a time */
    bool checkpoint_running;         /* loop thread only */
    uv_timer_t gc_timer;             /* tablet garbage collection every SRV_GC_INTERVAL_MS */
    srv_job gc_job;                  /* at most one collection runs at a time */
    bool gc_running;                 /* loop thread only */
    plan_server *plan;
    uint8_t root_stage2[20]; /* SHA1(SHA1(root_password)) */
    bool root_has_password;
    uint64_t start_ms;  /* for Uptime */
    bool shutting_down; /* loop thread only */
    int exit_code;

    pthread_mutex_t conns_lock; /* protects: conns list links, nconns, next_conn_id and every
                                   conn's command/info/db/state_since_ms */
    srv_conn *conns;            /* registry of live connections */
    int nconns;
    uint64_t next_conn_id;
    atomic_uint_fast64_t questions; /* statements received, for COM_STATISTICS */
};

/* Milliseconds of a monotonic clock. */
uint64_t srv_now_ms(void);

/* Start listening. ER_IO_ERROR on bind/listen failure. Loop thread. */
int srv_listen_start(srv_server *s, db_error *err);
/* Graceful stop: no new connections, idle ones closed, busy ones closed after their command,
 * bounded by shutdown_timeout_ms. Loop thread. */
void srv_shutdown_begin(srv_server *s);

/* Capabilities the server offers in its greeting. Any thread. */
uint32_t srv_server_caps(const srv_server *s);

/* ---- replies (srv_command.c), on the job's worker ---- */

/* State of one result set being encoded (the plan_sink context). */
typedef struct srv_sink_ctx {
    srv_conn *conn;
    bool started; /* column packets written */
    size_t ncols;
    proto_column *wire; /* wire definitions of the columns (statement arena) */
} srv_sink_ctx;

/* Stream the reply: once c->out holds SRV_STREAM_CHUNK bytes, hand them to the loop thread
 * to write, and wait while more than SRV_STREAM_WINDOW bytes are still unwritten (the client
 * reads slower than the statement produces). ER_QUERY_INTERRUPTED when the statement is
 * interrupted or the connection is closing, ER_NET_WRITE_INTERRUPTED (and the connection
 * closes after the reply) when the client read nothing for net_write_timeout seconds. The
 * job's worker, between packets. */
int srv_conn_stream(srv_conn *c, db_error *err);

void srv_reply_payload(srv_conn *c, const buf *payload);
void srv_reply_ok(srv_conn *c, uint64_t affected, uint64_t last_id, uint16_t status,
                  const char *info, bool is_eof);
void srv_reply_err(srv_conn *c, const db_error *e);
void srv_reply_eof(srv_conn *c, uint16_t status);
/* The packet that ends a result set: EOF, or OK with the EOF header under DEPRECATE_EOF. */
void srv_reply_end_result(srv_conn *c, uint16_t status);
/* Wire definition of a planner column (types and flags as MySQL reports them). */
void srv_column_to_proto(const srv_conn *c, const plan_column *pc, proto_column *out);
/* plan_sink.columns: column count, definitions, EOF; fills ctx->wire. */
int srv_sink_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err);

/* ---- prepared statements (srv_stmt.c), on the job's worker ---- */
void srv_stmt_prepare(srv_conn *c, const uint8_t *p, size_t len);
void srv_stmt_execute(srv_conn *c, const uint8_t *p, size_t len);
void srv_stmt_long_data(srv_conn *c, const uint8_t *p, size_t len);
void srv_stmt_close(srv_conn *c, const uint8_t *p, size_t len);
void srv_stmt_reset(srv_conn *c, const uint8_t *p, size_t len);
/* Forget every prepared statement of the connection (reset, change user, close). */
void srv_stmt_forget_all(srv_conn *c);

/* Process the connection's current packet on a worker (srv_command.c). Fills conn->out. */
void srv_command_run(srv_job *job);

/* Close every connection whose kill flag is set and that runs no command. Loop thread. */
void srv_conn_kill_sweep(srv_server *s);
/* Close every connection now (end of shutdown, after the pool has stopped). Loop thread. */
void srv_conn_close_all(srv_server *s);

/* Registry helpers (srv_conn.c), any thread. */
void srv_conn_set_command(srv_conn *c, const char *command, const char *info, size_t info_len);
void srv_conn_set_db(srv_conn *c, const char *db);

/* plan_hooks implementations (srv_conn.c). */
int srv_hook_processlist(void *ctx, arena *a, plan_proc_row **rows, size_t *nrows, db_error *err);
int srv_hook_kill(void *ctx, uint64_t killer_id, uint64_t id, bool query_only, db_error *err);

#endif /* SERVER_SRV_INT_H */
