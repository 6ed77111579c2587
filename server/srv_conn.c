/* SPDX-License-Identifier: Apache-2.0
 * srv_conn: the loop-thread half of a client connection. Accept, greeting, reading and packet
 * extraction, TLS over memory BIOs, handing one command at a time to the worker pool, writing
 * replies, closing; plus the registry behind SHOW PROCESSLIST and KILL, and graceful shutdown.
 * See README.md §Connection life cycle. */
#include "server/srv_int.h"

#include <openssl/err.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/mem.h"

#define SERVER_CAPS                                                                                \
    (PROTO_CLIENT_LONG_PASSWORD | PROTO_CLIENT_FOUND_ROWS | PROTO_CLIENT_LONG_FLAG |               \
     PROTO_CLIENT_CONNECT_WITH_DB | PROTO_CLIENT_IGNORE_SPACE | PROTO_CLIENT_PROTOCOL_41 |         \
     PROTO_CLIENT_INTERACTIVE | PROTO_CLIENT_IGNORE_SIGPIPE | PROTO_CLIENT_TRANSACTIONS |          \
     PROTO_CLIENT_SECURE_CONNECTION | PROTO_CLIENT_MULTI_STATEMENTS | PROTO_CLIENT_MULTI_RESULTS | \
     PROTO_CLIENT_PS_MULTI_RESULTS | PROTO_CLIENT_PLUGIN_AUTH | PROTO_CLIENT_CONNECT_ATTRS |       \
     PROTO_CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | PROTO_CLIENT_DEPRECATE_EOF)

/* A write in flight: owns the bytes until libuv calls back. */
typedef struct write_req {
    uv_write_t req;
    buf data;
    srv_conn *conn;
    size_t counted; /* reply bytes this write accounts for in conn->inflight */
} write_req;

/* Reply bytes a worker handed over mid-command (srv_conn_stream). */
typedef struct srv_chunk {
    struct srv_chunk *next;
    buf data;
} srv_chunk;

static void on_connection(uv_stream_t *server, int status);
static srv_conn *conn_new(srv_server *s);
static void conn_register(srv_conn *c);
static void send_greeting(srv_conn *c);
static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b);
static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *b);
static int tls_feed(srv_conn *c, const uint8_t *data, size_t len);
static int tls_start(srv_conn *c);
static void process_input(srv_conn *c);
static void job_done(srv_job *job);
static bool job_finish(srv_conn *c);
static void flush_out(srv_conn *c);
static void write_reply(srv_conn *c, buf *data);
static void write_raw(srv_conn *c, buf *data, size_t counted);
static void flow_release(srv_conn *c, size_t n);
static void flow_drain(srv_conn *c);
static void on_flow(uv_async_t *h);
static void on_write(uv_write_t *req, int status);
static void on_timeout(uv_timer_t *t);
static void conn_close(srv_conn *c);
static void on_handle_closed(uv_handle_t *h);
static void conn_free(srv_conn *c);
static void fail_and_close(srv_conn *c, db_error *e, uint8_t seq);
static void shutdown_check(srv_server *s);
static void on_shutdown_timer(uv_timer_t *t);

/* ==== listening ==== */

int
srv_listen_start(srv_server *s, db_error *err)
{
    struct sockaddr_storage addr;
    const char *host = s->conf.bind_address;
    int port = (int)s->conf.query_port;
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)&addr) != 0 &&
        uv_ip6_addr(host, port, (struct sockaddr_in6 *)&addr) != 0) {
        return db_error_set(err, ER_CONFIG, "bind_address is not an IP address");
    }
    uv_tcp_init(&s->loop, &s->listener);
    s->listener.data = s;
    int rc = uv_tcp_bind(&s->listener, (const struct sockaddr *)&addr, 0);
    if (rc == 0) {
        rc = uv_listen((uv_stream_t *)&s->listener, 1024, on_connection);
    }
    if (rc != 0) {
        char what[128];
        snprintf(what, sizeof what, "%s:%d", host, port);
        return db_error_set(err, ER_IO_ERROR, what, uv_strerror(rc));
    }
    return DB_OK;
}

static void
on_connection(uv_stream_t *server, int status)
{
    srv_server *s = server->data;
    if (status != 0) {
        log_warn("accept failed: %s", uv_strerror(status));
        return;
    }
    srv_conn *c = conn_new(s);
    if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0) {
        conn_close(c);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    struct sockaddr_storage peer;
    int plen = sizeof peer;
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&peer, &plen) == 0) {
        int port = 0;
        if (peer.ss_family == AF_INET6) {
            uv_ip6_name((struct sockaddr_in6 *)&peer, c->peer_host, sizeof c->peer_host);
            port = ntohs(((struct sockaddr_in6 *)&peer)->sin6_port);
        } else {
            uv_ip4_name((struct sockaddr_in *)&peer, c->peer_host, sizeof c->peer_host);
            port = ntohs(((struct sockaddr_in *)&peer)->sin_port);
        }
        snprintf(c->peer_addr, sizeof c->peer_addr, "%s:%d", c->peer_host, port);
    }
    conn_register(c);
    if (c->state == SRV_CONN_CLOSING) {
        return; /* refused: the error is on its way */
    }
    send_greeting(c);
    uv_timer_start(&c->timer, on_timeout, SRV_CONNECT_TIMEOUT_MS, 0);
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
    c->reading = true;
}

static srv_conn *
conn_new(srv_server *s)
{
    srv_conn *c = mem_calloc(1, sizeof *c);
    c->srv = s;
    uv_tcp_init(&s->loop, &c->tcp);
    c->tcp.data = c;
    uv_timer_init(&s->loop, &c->timer);
    c->timer.data = c;
    uv_async_init(&s->loop, &c->flow_async, on_flow);
    c->flow_async.data = c;
    c->handles_open = 3; /* tcp, timer and flow_async */
    pthread_mutex_init(&c->flow_lock, NULL);
    pthread_cond_init(&c->flow_cond, NULL);
    c->conn_arena = arena_new(4096);
    c->stmt_arena = arena_new(0);
    buf_init(&c->in);
    buf_init(&c->joined);
    buf_init(&c->out);
    c->job.run = srv_command_run;
    c->job.done = job_done;
    snprintf(c->peer_host, sizeof c->peer_host, "unknown");
    snprintf(c->peer_addr, sizeof c->peer_addr, "unknown");
    snprintf(c->command, sizeof c->command, "Connect");
    atomic_init(&c->kill_requested, false);
    return c;
}

/* Add c to the registry and give it an id, or refuse it with 1040 when max_connections live
 * connections exist already (or the server is stopping). */
static void
conn_register(srv_conn *c)
{
    srv_server *s = c->srv;
    bool refused = false;
    pthread_mutex_lock(&s->conns_lock);
    if (s->nconns >= s->conf.max_connections || s->shutting_down) {
        refused = true;
    } else {
        c->id = s->next_conn_id++;
        c->next = s->conns;
        if (s->conns != NULL) {
            s->conns->prev = c;
        }
        s->conns = c;
        s->nconns++;
        c->state_since_ms = srv_now_ms();
    }
    pthread_mutex_unlock(&s->conns_lock);
    if (refused) {
        db_error e = {0};
        if (s->shutting_down) {
            db_error_set(&e, ER_SERVER_SHUTDOWN);
        } else {
            db_error_set(&e, ER_CON_COUNT_ERROR);
        }
        fail_and_close(c, &e, 0);
    }
}

static void
send_greeting(srv_conn *c)
{
    proto_scramble_generate(c->scramble);
    proto_greeting g = {
            .server_version = SRV_VERSION,
            .connection_id = (uint32_t)c->id,
            .capabilities = SERVER_CAPS | (c->srv->ssl_ctx ? PROTO_CLIENT_SSL : 0),
            .charset = PROTO_CHARSET_UTF8MB3_GENERAL_CI,
            .status = PROTO_STATUS_AUTOCOMMIT,
            .auth_plugin = "mysql_native_password",
    };
    memcpy(g.scramble, c->scramble, sizeof g.scramble);
    buf payload;
    buf_init(&payload);
    proto_greeting_write(&payload, &g);
    uint8_t seq = 0;
    proto_packet_write(&c->out, payload.data, payload.len, &seq);
    buf_destroy(&payload);
    c->seq = 1;
    c->state = SRV_CONN_HANDSHAKE;
    flush_out(c);
}

/* The server's capability set, for the handshake code on the worker. */
uint32_t
srv_server_caps(const srv_server *s)
{
    return SERVER_CAPS | (s->ssl_ctx ? PROTO_CLIENT_SSL : 0);
}

/* ==== reading ==== */

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    srv_conn *c = h->data;
    /* Plaintext goes straight into `in`; TLS ciphertext lands there too, past the plaintext,
     * and is moved into the TLS BIO in on_read (cheap, and keeps one buffer per connection). */
    uint8_t *p = buf_reserve(&c->in, 65536);
    *b = uv_buf_init((char *)p, 65536);
}

static void
on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *b)
{
    srv_conn *c = stream->data;
    if (nread < 0) {
        /* EOF or reset: nothing more will come. A running command finishes first. */
        conn_close(c);
        return;
    }
    if (nread == 0 || c->state == SRV_CONN_CLOSING) {
        return;
    }
    if (c->ssl != NULL) {
        /* The bytes sit in in.data[in.len .. in.len + nread): hand them to OpenSSL. */
        if (tls_feed(c, (const uint8_t *)b->base, (size_t)nread) != DB_OK) {
            conn_close(c);
            return;
        }
    } else {
        c->in.len += (size_t)nread;
    }
    process_input(c);
}

/* Push ciphertext into OpenSSL; drive the handshake; append decrypted bytes to `in`. */
static int
tls_feed(srv_conn *c, const uint8_t *data, size_t len)
{
    uint8_t tmp[16384];
    if (len > 0 && BIO_write(c->tls_in, data, (int)len) != (int)len) {
        return DB_ERR;
    }
    if (!c->tls_active) {
        int rc = SSL_do_handshake(c->ssl);
        if (rc == 1) {
            c->tls_active = true;
            c->state = SRV_CONN_HANDSHAKE; /* the handshake response comes next, encrypted */
        } else {
            int e = SSL_get_error(c->ssl, rc);
            if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) {
                log_debug("conn %llu: TLS handshake failed", (unsigned long long)c->id);
                ERR_clear_error();
                return DB_ERR;
            }
        }
        /* Handshake messages for the client. */
        buf empty;
        buf_init(&empty);
        write_raw(c, &empty, 0);
        if (!c->tls_active) {
            return DB_OK;
        }
    }
    for (;;) {
        int n = SSL_read(c->ssl, tmp, sizeof tmp);
        if (n > 0) {
            /* `in` may hold ciphertext beyond len (from on_alloc); appending overwrites it, which
             * is fine: OpenSSL has a copy. */
            buf_append(&c->in, tmp, (size_t)n);
            continue;
        }
        int e = SSL_get_error(c->ssl, n);
        if (e == SSL_ERROR_WANT_READ) {
            break;
        }
        if (e == SSL_ERROR_ZERO_RETURN) {
            return DB_ERR;
        }
        ERR_clear_error();
        return DB_ERR;
    }
    return DB_OK;
}

/* After an SSLRequest: set up TLS; bytes already received after the request are ciphertext. */
static int
tls_start(srv_conn *c)
{
    c->ssl = SSL_new(c->srv->ssl_ctx);
    if (c->ssl == NULL) {
        ERR_clear_error();
        return DB_ERR;
    }
    c->tls_in = BIO_new(BIO_s_mem());
    c->tls_out = BIO_new(BIO_s_mem());
    SSL_set_bio(c->ssl, c->tls_in, c->tls_out);
    SSL_set_accept_state(c->ssl);
    c->state = SRV_CONN_TLS;
    size_t pending = c->in.len;
    buf rest;
    buf_init(&rest);
    buf_append(&rest, c->in.data, pending);
    buf_clear(&c->in);
    int rc = tls_feed(c, rest.data, rest.len);
    buf_destroy(&rest);
    return rc;
}

/* Extract the next packet and start its command, unless one is running. Also restarts reading
 * once a backlog of pipelined input has drained. */
static void
process_input(srv_conn *c)
{
    while (!c->job_running && !c->closing && c->state != SRV_CONN_CLOSING &&
           c->state != SRV_CONN_TLS) {
        if (atomic_load(&c->kill_requested)) {
            conn_close(c);
            return;
        }
        size_t max_len = SRV_HANDSHAKE_MAX;
        if (c->state == SRV_CONN_COMMAND && c->session != NULL) {
            max_len = (size_t)plan_session_max_allowed_packet(c->session);
        }
        proto_packet pkt;
        size_t consumed = 0;
        db_error e = {0};
        int rc = proto_packet_next(c->in.data, c->in.len, max_len, &c->joined, &pkt, &consumed, &e);
        if (rc == DB_AGAIN) {
            break;
        }
        if (rc != DB_OK) {
            fail_and_close(c, &e, (uint8_t)(c->in.len > 3 ? c->in.data[3] + 1 : 0));
            return;
        }
        /* SSLRequest: handled here, on the loop thread that owns the TLS state. */
        if (c->state == SRV_CONN_HANDSHAKE && !c->tls_active && pkt.len == 32 &&
            c->srv->ssl_ctx != NULL) {
            proto_handshake_response hr;
            db_error pe = {0};
            if (proto_handshake_response_parse(pkt.payload, pkt.len, c->conn_arena, &hr, &pe) ==
                        DB_OK &&
                hr.is_ssl_request) {
                c->seq = (uint8_t)(pkt.seq + 1);
                buf_consume(&c->in, consumed);
                if (tls_start(c) != DB_OK) {
                    conn_close(c);
                    return;
                }
                continue;
            }
        }
        /* During authentication the client must continue our sequence (I4). */
        if ((c->state == SRV_CONN_HANDSHAKE || c->state == SRV_CONN_AUTH_SWITCH) &&
            pkt.seq != c->seq) {
            db_error_set(&e, ER_NET_PACKETS_OUT_OF_ORDER);
            fail_and_close(c, &e, (uint8_t)(pkt.seq + 1));
            return;
        }
        /* Copy the payload so `in` may grow while the worker reads it. */
        buf_clear(&c->joined);
        buf_append(&c->joined, pkt.payload, pkt.len);
        c->pkt.payload = c->joined.data;
        c->pkt.len = pkt.len;
        c->pkt.seq = pkt.seq;
        c->seq = (uint8_t)(pkt.seq + 1);
        buf_consume(&c->in, consumed);
        c->job_running = true;
        srv_pool_submit(c->srv->pool, &c->job);
    }
    /* Backpressure on pipelined input. */
    if (c->in.len > SRV_READ_HIGH_WATER && c->reading) {
        uv_read_stop((uv_stream_t *)&c->tcp);
        c->reading = false;
    } else if (c->in.len <= SRV_READ_HIGH_WATER && !c->reading && !c->closing &&
               c->state != SRV_CONN_CLOSING) {
        uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
        c->reading = true;
    }
}

/* A command finished on a worker: send its reply, then look at the next packet. */
static void
job_done(srv_job *job)
{
    srv_conn *c = (srv_conn *)((char *)job - offsetof(srv_conn, job));
    if (job_finish(c)) {
        process_input(c);
    }
}

/* A command finished on a worker: send its reply. False when the connection is closing, true
 * when it may take its next packet. */
static bool
job_finish(srv_conn *c)
{
    c->job_running = false;
    arena_reset(c->stmt_arena);
    if (c->state == SRV_CONN_COMMAND && uv_is_active((uv_handle_t *)&c->timer)) {
        uv_timer_stop(&c->timer);
    }
    if (c->write_timed_out) {
        /* The client read nothing for net_write_timeout: give it up without waiting for the
         * bytes it does not read (closing cancels the pending writes). */
        log_info("conn %llu: net_write_timeout, closing", (unsigned long long)c->id);
        conn_close(c);
        flow_drain(c); /* on a closing connection: the queued chunks are dropped, not written */
        if (c->srv->shutting_down) {
            shutdown_check(c->srv);
        }
        return false;
    }
    flow_drain(c); /* chunks the job streamed go before the rest of its reply */
    flush_out(c);
    if (c->quit || atomic_load(&c->kill_requested) || c->closing ||
        (c->srv->shutting_down && !c->closing)) {
        c->close_after_write = true;
        c->state = SRV_CONN_CLOSING;
        if (c->pending_writes == 0) {
            conn_close(c);
        }
        if (c->srv->shutting_down) {
            shutdown_check(c->srv);
        }
        return false;
    }
    return true;
}

/* ==== writing ==== */

/* Send whatever the reply buffer holds (encrypting under TLS). */
static void
flush_out(srv_conn *c)
{
    if (c->out.len == 0 || c->closing) {
        buf_clear(&c->out);
        return;
    }
    buf data = c->out;
    buf_init(&c->out);
    pthread_mutex_lock(&c->flow_lock);
    c->inflight += data.len;
    pthread_mutex_unlock(&c->flow_lock);
    write_reply(c, &data);
}

/* Send reply bytes (taking ownership), encrypting under TLS; they count in c->inflight until
 * written. */
static void
write_reply(srv_conn *c, buf *data)
{
    size_t n = data->len;
    if (c->ssl != NULL && c->tls_active && !c->closing) {
        int rc = SSL_write(c->ssl, data->data, (int)data->len);
        buf_destroy(data);
        if (rc <= 0) {
            ERR_clear_error();
            flow_release(c, n);
            conn_close(c);
            return;
        }
        buf empty;
        buf_init(&empty);
        write_raw(c, &empty, n);
        return;
    }
    write_raw(c, data, n);
}

/* Write data (taking ownership); under TLS, data is empty and the ciphertext queued in the
 * output BIO is written instead. counted: the reply bytes to release from c->inflight once
 * written (or dropped). */
static void
write_raw(srv_conn *c, buf *data, size_t counted)
{
    if (c->ssl != NULL) {
        char tmp[16384];
        int n;
        while ((n = BIO_read(c->tls_out, tmp, sizeof tmp)) > 0) {
            buf_append(data, tmp, (size_t)n);
        }
    }
    if (data->len == 0 || c->closing) {
        buf_destroy(data);
        flow_release(c, counted);
        return;
    }
    if (c->pending_writes == 0 && data->len < (1u << 30)) {
        /* Most replies fit the socket buffer: write them now. A uv_write request would also
         * cost a pending callback and an epoll_ctl per reply (libuv re-arms the watcher when
         * its write queue drains). What does not fit goes through uv_write below. */
        uv_buf_t now = uv_buf_init((char *)data->data, (unsigned)data->len);
        int n = uv_try_write((uv_stream_t *)&c->tcp, &now, 1);
        if (n == (int)data->len) {
            buf_destroy(data);
            flow_release(c, counted);
            return;
        }
        if (n > 0) {
            buf_consume(data, (size_t)n);
        }
    }
    write_req *w = mem_alloc(sizeof *w);
    w->data = *data;
    w->conn = c;
    w->counted = counted;
    uv_buf_t b = uv_buf_init((char *)w->data.data, (unsigned)w->data.len);
    c->pending_writes++;
    int rc = uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, on_write);
    if (rc != 0) {
        c->pending_writes--;
        buf_destroy(&w->data);
        mem_free(w);
        flow_release(c, counted);
        conn_close(c);
    }
}

static void
on_write(uv_write_t *req, int status)
{
    write_req *w = (write_req *)req;
    srv_conn *c = w->conn;
    flow_release(c, w->counted);
    buf_destroy(&w->data);
    mem_free(w);
    c->pending_writes--;
    if (status != 0 && !c->closing) {
        conn_close(c);
        return;
    }
    if (c->close_after_write && c->pending_writes == 0 && !c->closing) {
        conn_close(c);
    }
}

/* ==== result streaming (README.md §Result streaming) ==== */

/* Written (or dropped) reply bytes leave the window; a waiting worker may go on. Loop thread. */
static void
flow_release(srv_conn *c, size_t n)
{
    if (n == 0) {
        return;
    }
    pthread_mutex_lock(&c->flow_lock);
    c->inflight -= n;
    pthread_mutex_unlock(&c->flow_lock);
    pthread_cond_signal(&c->flow_cond);
}

/* Write the chunks a worker queued, in order. Loop thread. */
static void
flow_drain(srv_conn *c)
{
    pthread_mutex_lock(&c->flow_lock);
    srv_chunk *k = c->chunks;
    c->chunks = c->chunks_tail = NULL;
    pthread_mutex_unlock(&c->flow_lock);
    while (k != NULL) {
        srv_chunk *next = k->next;
        write_reply(c, &k->data); /* releases the bytes when dropped on a closing connection */
        mem_free(k);
        k = next;
    }
}

static void
on_flow(uv_async_t *h)
{
    flow_drain(h->data);
}

int
srv_conn_stream(srv_conn *c, db_error *err)
{
    if (c->out.len < SRV_STREAM_CHUNK) {
        return DB_OK;
    }
    srv_chunk *k = mem_alloc(sizeof *k);
    k->next = NULL;
    k->data = c->out;
    buf_init(&c->out);
    buf_reserve(&c->out, SRV_STREAM_BUF); /* one allocation per chunk, no doubling */
    pthread_mutex_lock(&c->flow_lock);
    if (c->chunks_tail != NULL) {
        c->chunks_tail->next = k;
    } else {
        c->chunks = k;
    }
    c->chunks_tail = k;
    c->inflight += k->data.len;
    bool full = c->inflight > SRV_STREAM_WINDOW;
    pthread_mutex_unlock(&c->flow_lock);
    uv_async_send(&c->flow_async);
    if (!full) {
        return DB_OK;
    }
    /* The client reads slower than we produce: wait, in slices, so that KILL QUERY, a closing
     * connection and net_write_timeout are noticed. */
    uint64_t limit_ms = (uint64_t)plan_session_net_write_timeout(c->session) * 1000u;
    uint64_t start = srv_now_ms();
    int rc = DB_OK;
    pthread_mutex_lock(&c->flow_lock);
    while (c->inflight > SRV_STREAM_WINDOW) {
        if (c->flow_closed || plan_session_interrupted(c->session)) {
            rc = db_error_set(err, ER_QUERY_INTERRUPTED);
            break;
        }
        if (srv_now_ms() - start >= limit_ms) {
            rc = db_error_set(err, ER_NET_WRITE_INTERRUPTED);
            c->write_timed_out = true; /* as MySQL: the connection is given up */
            break;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&c->flow_cond, &c->flow_lock, &until);
    }
    pthread_mutex_unlock(&c->flow_lock);
    return rc;
}

/* Send an error as the reply with sequence id seq, then close. Loop thread, no job running. */
static void
fail_and_close(srv_conn *c, db_error *e, uint8_t seq)
{
    buf payload;
    buf_init(&payload);
    proto_err_write(&payload, e);
    proto_packet_write(&c->out, payload.data, payload.len, &seq);
    buf_destroy(&payload);
    c->state = SRV_CONN_CLOSING;
    c->close_after_write = true;
    flush_out(c);
    if (c->pending_writes == 0) {
        conn_close(c);
    }
}

static void
on_timeout(uv_timer_t *t)
{
    srv_conn *c = t->data;
    if (c->state != SRV_CONN_COMMAND && !c->job_running) {
        log_debug("conn %llu: handshake timed out", (unsigned long long)c->id);
        conn_close(c);
    }
}

/* ==== closing ==== */

/* Close the connection. With a command running, only mark it: job_done closes afterwards. */
static void
conn_close(srv_conn *c)
{
    if (c->closing) {
        return;
    }
    if (c->job_running) {
        c->state = SRV_CONN_CLOSING;
        c->close_after_write = true;
        atomic_store(&c->kill_requested, true);
        if (c->session != NULL) {
            plan_session_interrupt(c->session);
        }
        pthread_mutex_lock(&c->flow_lock);
        c->flow_closed = true;
        pthread_mutex_unlock(&c->flow_lock);
        pthread_cond_signal(&c->flow_cond);
        return;
    }
    c->closing = true;
    c->state = SRV_CONN_CLOSING;
    srv_server *s = c->srv;
    pthread_mutex_lock(&s->conns_lock);
    if (c->id != 0 && (c->prev != NULL || c->next != NULL || s->conns == c)) {
        if (c->prev != NULL) {
            c->prev->next = c->next;
        } else {
            s->conns = c->next;
        }
        if (c->next != NULL) {
            c->next->prev = c->prev;
        }
        c->prev = c->next = NULL;
        s->nconns--;
    }
    pthread_mutex_unlock(&s->conns_lock);
    uv_close((uv_handle_t *)&c->timer, on_handle_closed);
    uv_close((uv_handle_t *)&c->flow_async, on_handle_closed);
    uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
}

static void
on_handle_closed(uv_handle_t *h)
{
    srv_conn *c = h->data;
    /* libuv gives no order among close callbacks: free with the last of the three handles. */
    if (--c->handles_open > 0) {
        return;
    }
    srv_server *s = c->srv;
    conn_free(c);
    if (s->shutting_down) {
        shutdown_check(s);
    }
}

static void
conn_free(srv_conn *c)
{
    srv_stmt_forget_all(c);
    if (c->session != NULL) {
        plan_session_free(c->session);
    }
    if (c->ssl != NULL) {
        SSL_free(c->ssl); /* frees both BIOs */
    }
    for (srv_chunk *k = c->chunks; k != NULL;) {
        srv_chunk *next = k->next;
        buf_destroy(&k->data);
        mem_free(k);
        k = next;
    }
    pthread_mutex_destroy(&c->flow_lock);
    pthread_cond_destroy(&c->flow_cond);
    mem_free(c->info);
    buf_destroy(&c->in);
    buf_destroy(&c->joined);
    buf_destroy(&c->out);
    arena_free(c->stmt_arena);
    arena_free(c->conn_arena);
    mem_free(c);
}

/* ==== registry: processlist, kill ==== */

void
srv_conn_set_command(srv_conn *c, const char *command, const char *info, size_t info_len)
{
    srv_server *s = c->srv;
    char *copy = info != NULL ? mem_strndup(info, info_len) : NULL;
    pthread_mutex_lock(&s->conns_lock);
    snprintf(c->command, sizeof c->command, "%s", command);
    char *old = c->info;
    c->info = copy;
    c->state_since_ms = srv_now_ms();
    pthread_mutex_unlock(&s->conns_lock);
    mem_free(old);
}

void
srv_conn_set_db(srv_conn *c, const char *db)
{
    pthread_mutex_lock(&c->srv->conns_lock);
    snprintf(c->db, sizeof c->db, "%s", db != NULL ? db : "");
    pthread_mutex_unlock(&c->srv->conns_lock);
}

int
srv_hook_processlist(void *ctx, arena *a, plan_proc_row **rows, size_t *nrows, db_error *err)
{
    srv_server *s = ctx;
    uint64_t now = srv_now_ms();
    pthread_mutex_lock(&s->conns_lock);
    size_t n = 0;
    plan_proc_row *r = arena_calloc(a, (size_t)s->nconns + 1, sizeof *r);
    for (srv_conn *c = s->conns; c != NULL; c = c->next) {
        plan_proc_row *p = &r[n++];
        p->id = c->id;
        p->user = arena_strdup(a, c->user[0] ? c->user : "unauthenticated user");
        p->host = arena_strdup(a, c->peer_addr);
        p->db = c->db[0] ? arena_strdup(a, c->db) : NULL;
        p->command = arena_strdup(a, c->command);
        p->time_s = (int64_t)((now - c->state_since_ms) / 1000u);
        p->state = "";
        p->info = c->info != NULL ? arena_strdup(a, c->info) : NULL;
    }
    pthread_mutex_unlock(&s->conns_lock);
    *rows = r;
    *nrows = n;
    return DB_OK;
}

int
srv_hook_kill(void *ctx, uint64_t killer_id, uint64_t id, bool query_only, db_error *err)
{
    srv_server *s = ctx;
    int rc = DB_OK;
    pthread_mutex_lock(&s->conns_lock);
    srv_conn *target = NULL, *killer = NULL;
    for (srv_conn *c = s->conns; c != NULL; c = c->next) {
        if (c->id == id) {
            target = c;
        }
        if (c->id == killer_id) {
            killer = c;
        }
    }
    /* Who may kill whom is the planner's decision (plan__check_priv: ADMIN or the owner). */
    (void)killer;
    if (target == NULL) {
        rc = db_error_set(err, ER_NO_SUCH_THREAD, (unsigned long long)id);
    } else {
        if (target->session != NULL) {
            plan_session_interrupt(target->session);
        }
        if (!query_only) {
            atomic_store(&target->kill_requested, true);
        }
    }
    pthread_mutex_unlock(&s->conns_lock);
    if (rc == DB_OK && !query_only) {
        uv_async_send(&s->wakeup);
    }
    return rc;
}

void
srv_conn_kill_sweep(srv_server *s)
{
    for (;;) {
        srv_conn *victim = NULL;
        pthread_mutex_lock(&s->conns_lock);
        for (srv_conn *c = s->conns; c != NULL; c = c->next) {
            if (atomic_load(&c->kill_requested) && !c->job_running && !c->closing) {
                victim = c;
                break;
            }
        }
        pthread_mutex_unlock(&s->conns_lock);
        if (victim == NULL) {
            return;
        }
        conn_close(victim); /* unregisters it, so the scan ends */
    }
}

void
srv_conn_close_all(srv_server *s)
{
    for (;;) {
        pthread_mutex_lock(&s->conns_lock);
        srv_conn *c = s->conns;
        pthread_mutex_unlock(&s->conns_lock);
        if (c == NULL) {
            return;
        }
        c->job_running = false; /* the pool has stopped; nothing runs any more */
        conn_close(c);
    }
}

/* ==== graceful shutdown ==== */

void
srv_shutdown_begin(srv_server *s)
{
    s->shutting_down = true;
    if (!uv_is_closing((uv_handle_t *)&s->listener)) {
        uv_close((uv_handle_t *)&s->listener, NULL);
    }
    /* Idle connections go now; busy ones after their command (job_done). */
    for (;;) {
        srv_conn *idle = NULL;
        pthread_mutex_lock(&s->conns_lock);
        for (srv_conn *c = s->conns; c != NULL; c = c->next) {
            if (!c->job_running && !c->closing) {
                idle = c;
                break;
            }
        }
        pthread_mutex_unlock(&s->conns_lock);
        if (idle == NULL) {
            break;
        }
        conn_close(idle);
    }
    uv_timer_start(&s->shutdown_timer, on_shutdown_timer, (uint64_t)s->conf.shutdown_timeout_ms, 0);
    shutdown_check(s);
}

/* The bounded wait is over: interrupt what still runs and stop the loop. */
static void
on_shutdown_timer(uv_timer_t *t)
{
    srv_server *s = t->data;
    pthread_mutex_lock(&s->conns_lock);
    for (srv_conn *c = s->conns; c != NULL; c = c->next) {
        if (c->session != NULL) {
            plan_session_interrupt(c->session);
        }
    }
    pthread_mutex_unlock(&s->conns_lock);
    log_warn("shutdown timeout: interrupting running statements");
    uv_stop(&s->loop);
}

/* Stop the loop once no connection is left. */
static void
shutdown_check(srv_server *s)
{
    pthread_mutex_lock(&s->conns_lock);
    int n = s->nconns;
    pthread_mutex_unlock(&s->conns_lock);
    if (n == 0) {
        uv_stop(&s->loop);
    }
}
