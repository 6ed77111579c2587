/* FUZZ_SOURCES: common conf catalog storage binlog stream planner */
/* SPDX-License-Identifier: Apache-2.0
 * libFuzzer harness for the SQL front end: splits arbitrary input into statements with
 * plan_statement_split and runs each through plan_execute on a fresh session (no hooks, so
 * KILL / SHOW PROCESSLIST fail cleanly). The session has a real durable catalog in a temporary
 * directory (created once per fuzzing process), so DDL, SHOW and information_schema paths run
 * too; the user is root, so every privilege check passes. Inputs that mention SLEEP are skipped
 * so that one input cannot stall the fuzzer. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <sys/stat.h>

#include "binlog/binlog.h"
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/mem.h"
#include "planner/planner.h"
#include "storage/storage.h"
#include "stream/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One catalog and storage stack for the whole fuzzing process (opening one per input would
 * dominate the run), attached as the server attaches them. */
typedef struct fuzz_store {
    char dir[64];
    cat_meta *meta;
    stor_engine *engine;
    bl_log *binlog;
    strm_state *streams;
} fuzz_store;

static int
fuzz_attach(void *ctx, cat_editlog *log, cat_meta *m, db_error *err)
{
    (void)m;
    fuzz_store *fs = ctx;
    char path[128];
    snprintf(path, sizeof path, "%s/storage", fs->dir);
    fs->engine = stor_engine_new(path, log, err);
    if (fs->engine == NULL) {
        return DB_ERR;
    }
    snprintf(path, sizeof path, "%s/storage/binlog", fs->dir);
    fs->binlog = bl_log_new(path, fs->engine, log, err);
    if (fs->binlog == NULL) {
        return DB_ERR;
    }
    fs->streams = strm_new(fs->engine, log);
    return DB_OK;
}

static const fuzz_store *
fuzz_catalog(void)
{
    static fuzz_store fs;
    if (fs.meta == NULL) {
        snprintf(fs.dir, sizeof fs.dir, "/tmp/rivulet-fuzz-catalog.XXXXXX");
        db_error err;
        db_error_clear(&err);
        char meta[128], storage[128];
        if (mkdtemp(fs.dir) == NULL) {
            abort();
        }
        snprintf(meta, sizeof meta, "%s/meta", fs.dir);
        snprintf(storage, sizeof storage, "%s/storage", fs.dir);
        if (mkdir(meta, 0700) != 0 || mkdir(storage, 0700) != 0) {
            abort();
        }
        cat_meta_config mc = {.attach = fuzz_attach, .attach_ctx = &fs};
        fs.meta = cat_meta_open(meta, &mc, &err);
        if (fs.meta == NULL) {
            abort();
        }
    }
    return &fs;
}

static int
sink_columns(void *ctx, const plan_column *cols, size_t ncols, db_error *err)
{
    (void)ctx;
    (void)cols;
    (void)ncols;
    (void)err;
    return DB_OK;
}

static int
sink_row(void *ctx, const plan_cell *cells, size_t ncols, db_error *err)
{
    (void)ctx;
    (void)err;
    size_t sum = 0;
    for (size_t i = 0; i < ncols; i++) {
        if (!cells[i].is_null && cells[i].len > 0) {
            sum += (unsigned char)cells[i].data[cells[i].len - 1]; /* touch the bytes */
        }
    }
    (void)sum;
    return DB_OK;
}

static bool
mentions_sleep(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 5 <= size; i++) {
        if ((data[i] | 0x20) == 's' && (data[i + 1] | 0x20) == 'l' && (data[i + 2] | 0x20) == 'e' &&
            (data[i + 3] | 0x20) == 'e' && (data[i + 4] | 0x20) == 'p') {
            return true;
        }
    }
    return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536 || mentions_sleep(data, size)) {
        return 0;
    }
    /* An exact-size heap copy so ASan catches any read past the end. */
    char *sql = mem_alloc(size ? size : 1);
    memcpy(sql, data, size);
    plan_server_init si;
    memset(&si, 0, sizeof si);
    si.version = "5.7.99-fuzz";
    si.max_allowed_packet = 1 << 20;
    const fuzz_store *fs = fuzz_catalog();
    si.meta = fs->meta;
    si.engine = fs->engine;
    si.binlog = fs->binlog;
    si.streams = fs->streams;
    plan_server *srv = plan_server_new(&si);
    plan_session_init ss = {
            .conn_id = 1, .user = "root", .host = "127.0.0.1", .db = NULL, .collation = 45};
    plan_session *s = plan_session_new(srv, &ss);
    arena *a = arena_new(0);
    plan_sink sink = {NULL, sink_columns, sink_row};
    size_t off = 0;
    int budget = 64;
    while (off < size && budget-- > 0) {
        size_t n = plan_statement_split(sql + off, size - off);
        if (n == 0) {
            break;
        }
        if (!plan_is_blank(sql + off, n)) {
            plan_outcome out;
            db_error err;
            db_error_clear(&err);
            (void)plan_execute(s, sql + off, n, a, &sink, &out, &err);
            (void)plan_session_status(s);
            (void)plan_session_warning_count(s);
        }
        arena_reset(a);
        off += n;
    }
    arena_free(a);
    plan_session_free(s);
    plan_server_free(srv);
    mem_free(sql);
    return 0;
}
