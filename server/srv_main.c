/* SPDX-License-Identifier: Apache-2.0
 * srv_main: command line, configuration, start-up and the orderly end of the process.
 * See README.md §Start-up and shutdown. */
#include "server/srv_int.h"

#include <errno.h>
#include <getopt.h>
#include <openssl/err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/mem.h"

static void usage(FILE *f);
static int parse_args(srv_server *s, int argc, char **argv, int *exit_code);
static int make_dirs(const char *path, db_error *err);
static int setup_logging(const cfg *c, db_error *err);
static int start(srv_server *s, db_error *err);
static void on_signal(uv_signal_t *h, int signum);
static void on_wakeup(uv_async_t *h);
static void close_walk(uv_handle_t *h, void *arg);
static void teardown(srv_server *s);
static void on_checkpoint_timer(uv_timer_t *t);
static void checkpoint_run(srv_job *job);
static void checkpoint_done(srv_job *job);
static void on_gc_timer(uv_timer_t *t);
static void gc_run(srv_job *job);
static void gc_done(srv_job *job);

uint64_t
srv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void
usage(FILE *f)
{
    fprintf(f, "usage: rivulet [--fe-conf F] [--be-conf F] [--data-dir D] [--port N]"
               " [--version] [--help]\n"
               "  --fe-conf F   front-end configuration (see fe.conf.example)\n"
               "  --be-conf F   storage configuration (see be.conf.example)\n"
               "  --data-dir D  meta_dir = D/meta, storage_root_path = D/storage\n"
               "  --port N      query_port (MySQL protocol), default 9030\n"
               "With no arguments the embedded defaults apply and data goes to ./rivulet-data.\n");
}

/* Returns DB_OK to continue, DB_ERR to exit with *exit_code. Files load before the command-line
 * overrides, whatever their order on the line. */
static int
parse_args(srv_server *s, int argc, char **argv, int *exit_code)
{
    static const struct option opts[] = {
            {"fe-conf", required_argument, NULL, 'f'},
            {"be-conf", required_argument, NULL, 'b'},
            {"data-dir", required_argument, NULL, 'd'},
            {"port", required_argument, NULL, 'p'},
            {"version", no_argument, NULL, 'v'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
    };
    const char *fe = NULL, *be = NULL, *data_dir = NULL, *port = NULL;
    int ch;
    opterr = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 'f':
            fe = optarg;
            break;
        case 'b':
            be = optarg;
            break;
        case 'd':
            data_dir = optarg;
            break;
        case 'p':
            port = optarg;
            break;
        case 'v':
            printf("rivulet %s\n", SRV_VERSION);
            *exit_code = 0;
            return DB_ERR;
        case 'h':
            usage(stdout);
            *exit_code = 0;
            return DB_ERR;
        default:
            fprintf(stderr, "rivulet: unknown or incomplete option '%s'\n", argv[optind - 1]);
            usage(stderr);
            *exit_code = 2;
            return DB_ERR;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "rivulet: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        *exit_code = 2;
        return DB_ERR;
    }
    db_error err = {0};
    int rc = DB_OK;
    if (fe != NULL) {
        rc = cfg_load_file(&s->conf, fe, CFG_FE, &err);
    }
    if (rc == DB_OK && be != NULL) {
        rc = cfg_load_file(&s->conf, be, CFG_BE, &err);
    }
    if (rc == DB_OK && data_dir != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/meta", data_dir);
        rc = cfg_set(&s->conf, "meta_dir", path, &err);
        snprintf(path, sizeof path, "%s/storage", data_dir);
        if (rc == DB_OK) {
            rc = cfg_set(&s->conf, "storage_root_path", path, &err);
        }
    }
    if (rc == DB_OK && port != NULL) {
        rc = cfg_set(&s->conf, "query_port", port, &err);
    }
    if (rc != DB_OK) {
        fprintf(stderr, "rivulet: %s\n", err.msg);
        *exit_code = 1;
        return DB_ERR;
    }
    return DB_OK;
}

/* mkdir -p */
static int
make_dirs(const char *path, db_error *err)
{
    char tmp[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof tmp) {
        return db_error_set(err, ER_CONFIG, "bad directory name");
    }
    memcpy(tmp, path, len + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
                return db_error_set(err, ER_IO_ERROR, tmp, strerror(errno));
            }
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
        return db_error_set(err, ER_IO_ERROR, tmp, strerror(errno));
    }
    return DB_OK;
}

static int
setup_logging(const cfg *c, db_error *err)
{
    log_level level;
    if (!log_level_parse(c->sys_log_level, &level)) {
        return db_error_set(err, ER_CONFIG, "sys_log_level must be DEBUG, INFO, WARN or ERROR");
    }
    log_set_level(level);
    if (c->sys_log_dir[0] != '\0') {
        if (make_dirs(c->sys_log_dir, err) != DB_OK) {
            return DB_ERR;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/rivulet.log", c->sys_log_dir);
        if (log_open_file(path) != 0) {
            return db_error_set(err, ER_IO_ERROR, path, strerror(errno));
        }
    }
    return DB_OK;
}

/* cat_meta_config.attach: the storage engine registers its commit record and image section on
 * the catalog's edit log before the replay (one log, one commit point). */
static int
attach_storage(void *ctx, cat_editlog *log, cat_meta *m, db_error *err)
{
    (void)m;
    srv_server *s = ctx;
    s->engine = stor_engine_new(s->conf.storage_root_path, log, err);
    if (s->engine == NULL) {
        return DB_ERR;
    }
    /* Row Binlog: its writer stage, commit sections and image section, in the storage root's
     * binlog/ directory (storage leaves entries that are not tablet ids alone). */
    char path[4096];
    snprintf(path, sizeof path, "%s/binlog", s->conf.storage_root_path);
    s->binlog = bl_log_new(path, s->engine, log, err);
    if (s->binlog == NULL) {
        return DB_ERR;
    }
    s->streams = strm_new(s->engine, log); /* stream offsets move with data commits */
    return DB_OK;
}

static int
start(srv_server *s, db_error *err)
{
    const cfg *c = &s->conf;
    if (setup_logging(c, err) != DB_OK || make_dirs(c->meta_dir, err) != DB_OK ||
        make_dirs(c->storage_root_path, err) != DB_OK) {
        return DB_ERR;
    }
    s->ssl_ctx = srv_tls_ctx_new(c->ssl_cert, c->ssl_key, c->meta_dir, err);
    if (s->ssl_ctx == NULL) {
        return DB_ERR;
    }
    cat_meta_config mc = {.log = {.checkpoint_records = (uint64_t)c->edit_log_roll_num},
                          .attach = attach_storage,
                          .attach_ctx = s};
    uint64_t t0 = srv_now_ms();
    s->meta = cat_meta_open(c->meta_dir, &mc, err);
    if (s->meta == NULL) {
        return DB_ERR;
    }
    log_info("catalog replayed from %s in %llu ms (%zu tablets)", c->meta_dir,
             (unsigned long long)(srv_now_ms() - t0), stor_engine_ntablets(s->engine));
    uint64_t nremoved = 0;
    if (stor_engine_remove_orphans(s->engine, &nremoved, err) != DB_OK) {
        return DB_ERR;
    }
    if (nremoved > 0) {
        log_info("removed %llu uncommitted storage files left by the last run",
                 (unsigned long long)nremoved);
    }
    nremoved = 0;
    if (bl_log_remove_orphans(s->binlog, &nremoved, err) != DB_OK) {
        return DB_ERR;
    }
    if (nremoved > 0) {
        log_info("removed %llu uncommitted binlog files left by the last run",
                 (unsigned long long)nremoved);
    }
    stor_engine_set_cache_capacity(s->engine, (size_t)c->storage_page_cache_capacity);
    s->compaction_ctx = (stor_catalog_ctx){.engine = s->engine, .meta = s->meta};
    if (!c->disable_auto_compaction &&
        stor_engine_start_compaction(s->engine, (uint32_t)c->compaction_interval_ms,
                                     stor_catalog_compaction_allow, &s->compaction_ctx,
                                     err) != DB_OK) {
        return DB_ERR;
    }
    proto_native_password_hash(c->root_password, strlen(c->root_password), s->root_stage2);
    s->root_has_password = c->root_password[0] != '\0';

    plan_server_init pi = {
            .version = SRV_VERSION,
            .version_comment = SRV_VERSION_COMMENT,
            .port = c->query_port,
            .max_connections = c->max_connections,
            .max_allowed_packet = c->max_allowed_packet,
            .datadir = c->storage_root_path,
            .system_time_zone = "UTC",
            .have_ssl = true,
            .meta = NULL, /* set below, once the catalog is open */
            .hooks = {.ctx = s, .processlist = srv_hook_processlist, .kill = srv_hook_kill},
    };
    const char *tz = getenv("TZ");
    if (tz != NULL && tz[0] != '\0') {
        pi.system_time_zone = tz;
    }
    pi.meta = s->meta;
    pi.engine = s->engine;
    pi.binlog = s->binlog;
    pi.streams = s->streams;
    pi.conf = c;
    s->plan = plan_server_new(&pi);

    int nthreads = (int)c->worker_threads;
    if (nthreads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = n > 0 ? (int)n : 2;
    }
    s->pool = srv_pool_new(&s->loop, nthreads);

    uv_async_init(&s->loop, &s->wakeup, on_wakeup);
    s->wakeup.data = s;
    uv_signal_init(&s->loop, &s->sigterm);
    uv_signal_init(&s->loop, &s->sigint);
    s->sigterm.data = s;
    s->sigint.data = s;
    uv_signal_start(&s->sigterm, on_signal, SIGTERM);
    uv_signal_start(&s->sigint, on_signal, SIGINT);
    uv_timer_init(&s->loop, &s->shutdown_timer);
    s->shutdown_timer.data = s;
    uv_timer_init(&s->loop, &s->checkpoint_timer);
    s->checkpoint_timer.data = s;
    uv_timer_start(&s->checkpoint_timer, on_checkpoint_timer, 1000, 1000);
    s->checkpoint_job.run = checkpoint_run;
    s->checkpoint_job.done = checkpoint_done;
    uv_timer_init(&s->loop, &s->gc_timer);
    s->gc_timer.data = s;
    uv_timer_start(&s->gc_timer, on_gc_timer, SRV_GC_INTERVAL_MS, SRV_GC_INTERVAL_MS);
    s->gc_job.run = gc_run;
    s->gc_job.done = gc_done;
    if (srv_listen_start(s, err) != DB_OK) {
        return DB_ERR;
    }
    log_info("ready for connections on %s:%lld (workers %d, data %s)", c->bind_address,
             (long long)c->query_port, nthreads, c->meta_dir);
    return DB_OK;
}

static void
on_signal(uv_signal_t *h, int signum)
{
    srv_server *s = h->data;
    if (s->shutting_down) {
        return;
    }
    log_info("received %s, shutting down", signum == SIGTERM ? "SIGTERM" : "SIGINT");
    srv_shutdown_begin(s);
}

/* Kill requests from workers: close every connection whose kill flag is set and that has no
 * command running (a busy one closes when its command completes). */
static void
on_wakeup(uv_async_t *h)
{
    srv_server *s = h->data;
    srv_conn_kill_sweep(s);
}

/* Background checkpoint: when the edit log has grown past edit_log_roll_num records, write an
 * image on a worker (it takes the catalog's write lock briefly). */
static void
on_checkpoint_timer(uv_timer_t *t)
{
    srv_server *s = t->data;
    if (!s->checkpoint_running && !s->shutting_down && cat_meta_checkpoint_due(s->meta)) {
        s->checkpoint_running = true;
        srv_pool_submit(s->pool, &s->checkpoint_job);
    }
}

static void
checkpoint_run(srv_job *job)
{
    srv_server *s = (srv_server *)((char *)job - offsetof(srv_server, checkpoint_job));
    db_error e = {0};
    uint64_t t0 = srv_now_ms();
    if (cat_meta_checkpoint(s->meta, &e) != DB_OK) {
        log_error("checkpoint failed: %s", e.msg);
    } else {
        log_info("checkpoint written in %llu ms", (unsigned long long)(srv_now_ms() - t0));
    }
}

static void
checkpoint_done(srv_job *job)
{
    srv_server *s = (srv_server *)((char *)job - offsetof(srv_server, checkpoint_job));
    s->checkpoint_running = false;
}

/* Every SRV_GC_INTERVAL_MS: collect on a worker (the loop never blocks on I/O), one at a time. */
static void
on_gc_timer(uv_timer_t *t)
{
    srv_server *s = t->data;
    if (!s->gc_running && !s->shutting_down) {
        s->gc_running = true;
        srv_pool_submit(s->pool, &s->gc_job);
    }
}

static void
gc_run(srv_job *job)
{
    srv_server *s = (srv_server *)((char *)job - offsetof(srv_server, gc_job));
    db_error e = {0};
    size_t n = 0;
    if (stor_gc_tablets(s->engine, s->meta, &n, &e) != DB_OK) {
        log_warn("tablet garbage collection failed: %s", e.msg);
    } else if (n > 0) {
        log_info("dropped %zu tablets of dropped tables or partitions", n);
    }
    n = 0;
    if (bl_gc(s->binlog, s->meta, cat_clock_realtime_ms(NULL), s->conf.disable_auto_compaction, &n,
              &e) != DB_OK) {
        log_warn("binlog cleanup failed: %s", e.msg);
    } else if (n > 0) {
        log_info("removed %zu expired or dropped binlog rowsets", n);
    }
}

static void
gc_done(srv_job *job)
{
    srv_server *s = (srv_server *)((char *)job - offsetof(srv_server, gc_job));
    s->gc_running = false;
}

static void
close_walk(uv_handle_t *h, void *arg)
{
    if (!uv_is_closing(h)) {
        uv_close(h, NULL);
    }
}

/* Free everything in reverse order of start(), so sanitizers see no leak. */
static void
teardown(srv_server *s)
{
    if (s->pool != NULL) {
        srv_pool_free(s->pool);
        s->pool = NULL;
    }
    srv_conn_close_all(s);
    uv_walk(&s->loop, close_walk, NULL);
    uv_run(&s->loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&s->loop) != 0) {
        log_warn("event loop closed with handles still open");
    }
    if (s->plan != NULL) {
        plan_server_free(s->plan);
    }
    /* Compaction appends to the edit log and reads the catalog: stop it before both close. */
    if (s->engine != NULL) {
        stor_engine_stop_compaction(s->engine);
    }
    /* A clean stop leaves an image, so the next start replays nothing. */
    cat_meta_close(s->meta, s->exit_code == 0);
    stor_engine_free(s->engine); /* after the close: its checkpoint writes the tablet image */
    bl_log_free(s->binlog);
    strm_free(s->streams);
    if (s->ssl_ctx != NULL) {
        SSL_CTX_free(s->ssl_ctx);
    }
    pthread_mutex_destroy(&s->conns_lock);
    cfg_destroy(&s->conf);
}

int
srv_main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    srv_server *s = mem_calloc(1, sizeof *s);
    cfg_init(&s->conf);
    pthread_mutex_init(&s->conns_lock, NULL);
    s->next_conn_id = 1;
    s->start_ms = srv_now_ms();
    uv_loop_init(&s->loop);

    int exit_code = 0;
    if (parse_args(s, argc, argv, &exit_code) != DB_OK) {
        teardown(s);
        mem_free(s);
        return exit_code;
    }
    db_error err = {0};
    if (start(s, &err) != DB_OK) {
        log_error("start-up failed: %s", err.msg);
        s->exit_code = 1;
    } else {
        uv_run(&s->loop, UV_RUN_DEFAULT);
    }
    exit_code = s->exit_code;
    teardown(s);
    mem_free(s);
    log_info("shutdown complete");
    log_close();
    return exit_code;
}
