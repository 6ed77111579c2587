/* SPDX-License-Identifier: Apache-2.0
 * plan_show_doris.c: Doris's cluster, storage and configuration SHOW statements, answered for a
 * single node (one frontend and one embedded backend in this process): SHOW BACKENDS, SHOW
 * FRONTENDS, SHOW CATALOGS, SHOW DATA [FROM t] [ORDER BY ...], [ADMIN] SHOW FRONTEND | BACKEND
 * CONFIG, SHOW TABLET id and SHOW PROC '/' (with '/backends' and '/frontends'). Column lists are
 * Doris 2.1's; every value that is not read from the catalog, storage, the configuration or the
 * operating system is a constant named in README.md §Cluster SHOW statements. Storage is read
 * after the catalog read lock is released (tablet ids are collected under it). */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "common/mem.h"
#include "conf/conf.h"
#include "storage/storage.h"

/* The embedded backend's id (SHOW TABLETS' BackendId too). */
#define DORIS_BACKEND_ID "10001"
/* Ports of Doris services Rivulet does not run: Doris's default values (fe.conf edit_log_port /
 * rpc_port, be.conf heartbeat_service_port / be_port / webserver_port / brpc_port);
 * arrow_flight_sql_port is -1 (disabled), as Doris's default. */
#define DORIS_EDIT_LOG_PORT  "9010"
#define DORIS_RPC_PORT       "9020"
#define DORIS_HEARTBEAT_PORT "9050"
#define DORIS_BE_PORT        "9060"
#define DORIS_BE_HTTP_PORT   "8040"
#define DORIS_BRPC_PORT      "8060"
#define DORIS_ARROW_PORT     "-1"
/* Rivulet keeps no cluster id (a single node never joins another). */
#define DORIS_CLUSTER_ID "0"
/* Doris's defaults for a database without quotas: Long.MAX_VALUE bytes and
 * default_db_replica_quota_size (1024^3) replicas. */
#define DORIS_DATA_QUOTA    UINT64_C(9223372036854775807)
#define DORIS_REPLICA_QUOTA UINT64_C(1073741824)

static const char *node_host(const cfg *c);
static const char *fmt_time(plan_ectx *cx, int64_t unix_s);
static const char *fmt_u64(arena *a, uint64_t v);
static int show_backends(plan_ectx *cx, const plan_stmt *st, const cfg *c, const plan_sink *sink,
                         db_error *err);
static int show_frontends(plan_ectx *cx, const plan_stmt *st, const cfg *c, const plan_sink *sink,
                          db_error *err);
static int show_catalogs(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
static int show_config(plan_ectx *cx, const plan_stmt *st, const cfg *c, bool backend,
                       const plan_sink *sink, db_error *err);
static int show_data(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
static int show_tablet(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err);
static int show_proc(plan_ectx *cx, const plan_stmt *st, const cfg *c, const plan_sink *sink,
                     db_error *err);

int
plan__show_doris(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, plan_outcome *out,
                 db_error *err)
{
    plan_server *srv = cx->s->srv;
    cfg local;
    const cfg *c = srv->conf;
    if (c == NULL) { /* unit tests without a configuration: the defaults */
        cfg_init(&local);
        c = &local;
    }
    int rc;
    switch (st->ddl->kind) {
    case PD_SHOW_BACKENDS:
        rc = show_backends(cx, st, c, sink, err);
        break;
    case PD_SHOW_FRONTENDS:
        rc = show_frontends(cx, st, c, sink, err);
        break;
    case PD_SHOW_CATALOGS:
        rc = show_catalogs(cx, st, sink, err);
        break;
    case PD_SHOW_FE_CONFIG:
    case PD_SHOW_BE_CONFIG:
        rc = show_config(cx, st, c, st->ddl->kind == PD_SHOW_BE_CONFIG, sink, err);
        break;
    case PD_SHOW_DATA:
        rc = show_data(cx, st, sink, err);
        break;
    case PD_SHOW_TABLET:
        rc = show_tablet(cx, st, sink, err);
        break;
    case PD_SHOW_PROC:
        rc = show_proc(cx, st, c, sink, err);
        break;
    default:
        DB_ASSERT(!"not a Doris SHOW statement");
        rc = DB_ERR;
        break;
    }
    if (c == &local) {
        cfg_destroy(&local);
    }
    if (rc == DB_OK) {
        out->is_result_set = true;
    }
    return rc;
}

/* ---- values ---- */

/* The address the node is known by: bind_address, or 127.0.0.1 when it binds every interface. */
static const char *
node_host(const cfg *c)
{
    const char *h = c->bind_address;
    if (h == NULL || h[0] == '\0' || strcmp(h, "0.0.0.0") == 0 || strcmp(h, "::") == 0) {
        return "127.0.0.1";
    }
    return h;
}

/* unix_s as `YYYY-MM-DD HH:MM:SS` in the session's time zone (Doris's TimeUtils). */
static const char *
fmt_time(plan_ectx *cx, int64_t unix_s)
{
    time_t t = (time_t)(unix_s + plan__tz_offset(cx->s, unix_s));
    struct tm tm;
    gmtime_r(&t, &tm);
    return arena_sprintf(cx->a, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static const char *
fmt_u64(arena *a, uint64_t v)
{
    return arena_sprintf(a, "%llu", (unsigned long long)v);
}

/* ---- SHOW BACKENDS / SHOW FRONTENDS ---- */

/* SHOW BACKENDS (Doris 2.1, ADMIN): the embedded backend. TabletNum and DataUsedCapacity come
 * from storage, the capacities from statvfs(2) of storage_root_path. */
static int
show_backends(plan_ectx *cx, const plan_stmt *st, const cfg *c, const plan_sink *sink,
              db_error *err)
{
    static const char *const names[] = {"BackendId",
                                        "Host",
                                        "HeartbeatPort",
                                        "BePort",
                                        "HttpPort",
                                        "BrpcPort",
                                        "ArrowFlightSqlPort",
                                        "LastStartTime",
                                        "LastHeartbeat",
                                        "Alive",
                                        "SystemDecommissioned",
                                        "TabletNum",
                                        "DataUsedCapacity",
                                        "TrashUsedCapacity",
                                        "AvailCapacity",
                                        "TotalCapacity",
                                        "UsedPct",
                                        "MaxDiskUsedPct",
                                        "RemoteUsedCapacity",
                                        "Tag",
                                        "ErrMsg",
                                        "Version",
                                        "Status",
                                        "HeartbeatFailureCounter",
                                        "NodeRole",
                                        "CpuCores",
                                        "Memory"};
    enum { NCOLS = sizeof names / sizeof names[0] };
    plan_rowset rs;
    bool sent;
    int rc = plan__admin_show(cx, st, sink, &rs, names, NCOLS, &sent, err);
    if (rc != DB_OK || sent) {
        return rc;
    }
    plan_server *srv = cx->s->srv;
    uint64_t used = 0;
    uint64_t *ids = NULL;
    uint64_t ntablets = stor_engine_tablet_ids(srv->engine, &ids);
    for (uint64_t i = 0; i < ntablets; i++) {
        plan_tablet_stats ts;
        plan__tablet_stats(srv->engine, ids[i], cx->a, &ts);
        used += ts.bytes;
    }
    mem_free(ids);
    uint64_t total = 0, avail = 0;
    struct statvfs fs;
    if (statvfs(c->storage_root_path, &fs) == 0) {
        total = (uint64_t)fs.f_blocks * fs.f_frsize;
        avail = (uint64_t)fs.f_bavail * fs.f_frsize;
    }
    double pct = total > 0 ? (double)(total - avail) * 100 / (double)total : 0.0;
    const char *pct_text = arena_sprintf(cx->a, "%.2f %%", pct);
    int64_t now = cx->now_utc_us / 1000000;
    const char *now_text = fmt_time(cx, now);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t mem = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    const char *row[NCOLS] = {
            DORIS_BACKEND_ID,
            node_host(c),
            DORIS_HEARTBEAT_PORT,
            DORIS_BE_PORT,
            DORIS_BE_HTTP_PORT,
            DORIS_BRPC_PORT,
            DORIS_ARROW_PORT,
            fmt_time(cx, srv->start_time),
            now_text,
            "true",
            "false",
            fmt_u64(cx->a, ntablets),
            plan__readable_bytes(cx->a, used),
            plan__readable_bytes(cx->a, 0),
            plan__readable_bytes(cx->a, avail),
            plan__readable_bytes(cx->a, total),
            pct_text,
            pct_text,
            plan__readable_bytes(cx->a, 0),
            "{\"location\" : \"default\"}",
            "",
            srv->version,
            arena_sprintf(cx->a,
                          "{\"lastSuccessReportTabletsTime\":\"%s\",\"lastStreamLoadTime\":-1,"
                          "\"isQueryDisabled\":false,\"isLoadDisabled\":false}",
                          now_text),
            "0",
            "mix",
            arena_sprintf(cx->a, "%ld", ncpu > 0 ? ncpu : 1),
            plan__bytes_text(cx->a, mem, 2)};
    plan__rs_add(cx->a, &rs, row);
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* SHOW FRONTENDS (Doris 2.1, ADMIN): this process, the master of a one-node group. */
static int
show_frontends(plan_ectx *cx, const plan_stmt *st, const cfg *c, const plan_sink *sink,
               db_error *err)
{
    static const char *const names[] = {"Name",
                                        "Host",
                                        "EditLogPort",
                                        "HttpPort",
                                        "QueryPort",
                                        "RpcPort",
                                        "ArrowFlightSqlPort",
                                        "Role",
                                        "IsMaster",
                                        "ClusterId",
                                        "Join",
                                        "Alive",
                                        "ReplayedJournalId",
                                        "LastStartTime",
                                        "LastHeartbeat",
                                        "IsHelper",
                                        "ErrMsg",
                                        "Version",
                                        "CurrentConnected"};
    enum { NCOLS = sizeof names / sizeof names[0] };
    plan_rowset rs;
    bool sent;
    int rc = plan__admin_show(cx, st, sink, &rs, names, NCOLS, &sent, err);
    if (rc != DB_OK || sent) {
        return rc;
    }
    plan_server *srv = cx->s->srv;
    cat_editlog_stats ls;
    cat_meta_log_stats(srv->meta, &ls);
    uint64_t journal = ls.next_seq > 0 ? ls.next_seq - 1 : 0;
    const char *host = node_host(c);
    /* Doris names a frontend host_editlogport_<ms when it was added>: here the start time. */
    const char *name = arena_sprintf(cx->a, "%s_%s_%lld", host, DORIS_EDIT_LOG_PORT,
                                     (long long)srv->start_time * 1000);
    const char *row[NCOLS] = {name,
                              host,
                              DORIS_EDIT_LOG_PORT,
                              arena_sprintf(cx->a, "%lld", (long long)c->http_port),
                              arena_sprintf(cx->a, "%lld", (long long)c->query_port),
                              DORIS_RPC_PORT,
                              DORIS_ARROW_PORT,
                              "FOLLOWER",
                              "true",
                              DORIS_CLUSTER_ID,
                              "true",
                              "true",
                              fmt_u64(cx->a, journal),
                              fmt_time(cx, srv->start_time),
                              fmt_time(cx, cx->now_utc_us / 1000000),
                              "true",
                              "",
                              srv->version,
                              "Yes"};
    plan__rs_add(cx->a, &rs, row);
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* ---- SHOW CATALOGS ---- */

/* SHOW CATALOGS [LIKE | WHERE] (Doris 2.1): the one `internal` catalog, as Doris prints it
 * (CreateTime UNRECORDED, no LastUpdateTime). Every account sees it. */
static int
show_catalogs(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"CatalogId",  "CatalogName",    "Type",   "IsCurrent",
                                        "CreateTime", "LastUpdateTime", "Comment"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 7);
    const char *row[7] = {
            "0", "internal", "internal", "yes", "UNRECORDED", NULL, "Doris internal catalog"};
    plan__rs_add(cx->a, &rs, row);
    return plan__rs_send(cx, &rs, st, 1, sink, err);
}

/* ---- [ADMIN] SHOW FRONTEND | BACKEND CONFIG ---- */

/* The keys of fe.conf (backend: be.conf) with their values as loaded. Doris's columns; Type is
 * the key's type as Rivulet stores it (long / boolean / String for the frontend, int64_t / bool /
 * std::string for the backend); nothing can be changed at run time (IsMutable false);
 * MasterOnly false; Comment the key's help. root_password shows as `******`. ADMIN. */
static int
show_config(plan_ectx *cx, const plan_stmt *st, const cfg *c, bool backend, const plan_sink *sink,
            db_error *err)
{
    static const char *const fe_names[] = {"Key",       "Value",      "Type",
                                           "IsMutable", "MasterOnly", "Comment"};
    static const char *const be_names[] = {"BackendId", "Host", "Key",
                                           "Value",     "Type", "IsMutable"};
    static const char *const fe_types[] = {"long", "boolean", "String"};
    static const char *const be_types[] = {"int64_t", "bool", "std::string"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, backend ? be_names : fe_names, 6);
    if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    unsigned want = backend ? CFG_BE : CFG_FE;
    for (size_t i = 0; i < cfg_key_count() && !cx->describe; i++) {
        cfg_key k;
        char value[4096];
        cfg_key_at(c, i, &k, value, sizeof value);
        if ((k.files & want) == 0) {
            continue;
        }
        const char *v = strstr(k.name, "password") != NULL && value[0] != '\0'
                                ? "******"
                                : arena_strdup(cx->a, value);
        if (backend) {
            const char *row[6] = {DORIS_BACKEND_ID, node_host(c), k.name, v,
                                  be_types[k.type], "false"};
            plan__rs_add(cx->a, &rs, row);
        } else {
            const char *row[6] = {k.name, v, fe_types[k.type], "false", "false", k.help};
            plan__rs_add(cx->a, &rs, row);
        }
    }
    return plan__rs_send(cx, &rs, st, backend ? 2 : 0, sink, err);
}

/* ---- SHOW DATA ---- */

/* One table (or index) of SHOW DATA before formatting. */
typedef struct data_row {
    const char *name;
    uint64_t *tablets;
    size_t ntablets;
    uint64_t bytes, rows;
} data_row;

typedef struct data_sort {
    int col[8]; /* column index into the unformatted row */
    bool desc[8];
    size_t n;
} data_sort;

/* Sort key k of r: a name, or a number. */
static int
data_cmp_key(const data_row *a, const data_row *b, int col)
{
    if (col == 0) {
        return strcmp(a->name, b->name);
    }
    uint64_t x, y;
    if (col == 1) {
        x = a->bytes, y = b->bytes;
    } else if (col == 2) {
        x = a->ntablets, y = b->ntablets;
    } else if (col == 3) {
        x = a->rows, y = b->rows;
    } else {
        x = y = 0; /* RemoteSize: always 0 */
    }
    return x < y ? -1 : x > y;
}

/* ORDER BY of SHOW DATA: insertion sort (a database holds few tables), stable. */
static void
data_sort_rows(data_row *rows, size_t n, const data_sort *s)
{
    for (size_t i = 1; i < n; i++) {
        data_row cur = rows[i];
        size_t j = i;
        while (j > 0) {
            int c = 0;
            for (size_t k = 0; k < s->n && c == 0; k++) {
                c = data_cmp_key(&rows[j - 1], &cur, s->col[k]);
                c = s->desc[k] ? -c : c;
            }
            if (c <= 0) {
                break;
            }
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = cur;
    }
}

/* The ORDER BY items as columns of titles (Doris: a bare column name, case-insensitive). Sort
 * columns: 0 name, 1 size, 2 replicas, 3 rows, 4 remote size. */
static int
data_order(plan_ectx *cx, const plan_stmt *st, const char *const *titles, const int *keys,
           size_t ntitles, data_sort *s, db_error *err)
{
    s->n = 0;
    for (uint32_t i = 0; st->order != NULL && i < st->order->n; i++) {
        const plan_ast *x = st->order->items[i];
        if (x->kind != PA_COLUMN || x->qual != NULL) {
            return db_error_set(err, ER_DORIS, "Should order by column");
        }
        size_t t = 0;
        while (t < ntitles && strcasecmp(titles[t], x->name) != 0) {
            t++;
        }
        if (t == ntitles) {
            return db_error_set(err, ER_DORIS,
                                arena_sprintf(cx->a, "Title name[%s] does not exist", x->name));
        }
        if (s->n < sizeof s->col / sizeof s->col[0]) {
            s->col[s->n] = keys[t];
            s->desc[s->n++] = st->order_desc[i];
        }
    }
    return DB_OK;
}

/* The tablet ids of t's partitions (catalog read lock held), in a. */
static uint64_t *
table_tablets(arena *a, const cat_table *t, size_t *n)
{
    size_t k = 0;
    for (size_t p = 0; p < t->nparts; p++) {
        k += (size_t)t->parts[p].buckets;
    }
    uint64_t *ids = arena_calloc(a, k ? k : 1, sizeof *ids);
    k = 0;
    for (size_t p = 0; p < t->nparts; p++) {
        for (int32_t b = 0; b < t->parts[p].buckets; b++) {
            ids[k++] = stor_tablet_id_of(t->parts[p].id, (uint32_t)b);
        }
    }
    *n = k;
    return ids;
}

/* SHOW DATA without a database: every database's bytes (Doris: DbId, DbName, Size, RemoteSize,
 * RecycleSize, RecycleRemoteSize in bytes, then a Total row), ADMIN. The recycle bin's data is
 * not measured (0). */
static int
show_data_all(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"DbId",       "DbName",      "Size",
                                        "RemoteSize", "RecycleSize", "RecycleRemoteSize"};
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, names, 6);
    if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    plan_server *srv = cx->s->srv;
    if (cx->describe) {
        return plan__rs_send(cx, &rs, st, 0, sink, err);
    }
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    size_t nd = cat_db_count(c);
    data_row *dbs = arena_calloc(cx->a, nd ? nd : 1, sizeof *dbs);
    const char **ids = arena_calloc(cx->a, nd ? nd : 1, sizeof *ids);
    size_t k = 0;
    for (size_t i = 0; i < nd; i++) {
        const cat_db *db = cat_db_at(c, i);
        if (db->is_system) {
            continue;
        }
        size_t n = 0;
        for (size_t t = 0; t < db->ntables; t++) {
            const cat_table *tb = db->tables[t];
            if (tb->view_sql == NULL && tb->stream == NULL) {
                size_t nt;
                uint64_t *tl = table_tablets(cx->a, tb, &nt);
                uint64_t *all = arena_calloc(cx->a, n + nt + 1, sizeof *all);
                if (n > 0) {
                    memcpy(all, dbs[k].tablets, n * sizeof *all);
                }
                memcpy(all + n, tl, nt * sizeof *all);
                dbs[k].tablets = all;
                n += nt;
            }
        }
        dbs[k].ntablets = n;
        dbs[k].name = arena_strdup(cx->a, db->name);
        ids[k++] = arena_sprintf(cx->a, "%lld", (long long)db->id);
    }
    cat_meta_read_end(srv->meta);
    uint64_t total = 0;
    for (size_t i = 0; i < k; i++) {
        plan__table_stats(cx, dbs[i].tablets, dbs[i].ntablets, &dbs[i].rows, &dbs[i].bytes);
        total += dbs[i].bytes;
        const char *row[6] = {ids[i], dbs[i].name, fmt_u64(cx->a, dbs[i].bytes), "0", "0", "0"};
        plan__rs_add(cx->a, &rs, row);
    }
    const char *row[6] = {"Total", NULL, fmt_u64(cx->a, total), "0", "0", "0"};
    plan__rs_add(cx->a, &rs, row);
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* SHOW DATA [FROM [db.]t] [ORDER BY col [ASC | DESC], ...] (Doris 2.1). Without FROM: the current
 * database's tables the account may see (views and streams hold no data), sorted by name, then
 * Total, Quota and Left rows; with FROM: the table's indexes (Rivulet: the base index, named
 * after the table), then a Total row. Sizes in Doris's readable form; ReplicaCount = tablets
 * (one replica each); RemoteSize 0 (no cold storage). */
static int
show_data(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const tbl_names[] = {"TableName", "Size", "ReplicaCount", "RemoteSize"};
    static const int tbl_keys[] = {0, 1, 2, 4};
    static const char *const idx_names[] = {"TableName",    "IndexName", "Size",
                                            "ReplicaCount", "RowCount",  "RemoteSize"};
    static const int idx_keys[] = {0, 0, 1, 2, 3, 4};
    const plan_ddl *d = st->ddl;
    plan_server *srv = cx->s->srv;
    const char *db = d->db ? d->db : cx->s->db;
    if (db == NULL && d->name == NULL) {
        return show_data_all(cx, st, sink, err);
    }
    if (db == NULL) {
        return db_error_set(err, ER_NO_DB_ERROR);
    }
    bool one = d->name != NULL;
    plan_rowset rs;
    plan__rs_init(cx->a, &rs, one ? idx_names : tbl_names, one ? 6 : 4);
    data_sort sort;
    if (data_order(cx, st, one ? idx_names : tbl_names, one ? idx_keys : tbl_keys, one ? 6 : 4,
                   &sort, err) != DB_OK) {
        return DB_ERR;
    }
    /* The privilege before the lookup (1142 / 1044 whether or not the table or database
     * exists), as SHOW CREATE TABLE / SHOW TABLES. */
    if (one ? plan__check_priv(cx, CAT_PRIV_ALL, db, d->name, err) != DB_OK
            : plan__check_db_visible(cx, db, err) != DB_OK) {
        return DB_ERR;
    }
    const char *canon;
    if (!plan__db_exists(srv, db, cx->a, &canon)) {
        return db_error_set(err, ER_BAD_DB_ERROR, db);
    }
    if (cx->describe) {
        return plan__rs_send(cx, &rs, st, 0, sink, err);
    }
    data_row *rows = NULL;
    size_t n = 0;
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    const cat_db *cd = cat_db_find(c, canon);
    size_t nt = cd != NULL ? cd->ntables : 0;
    rows = arena_calloc(cx->a, nt ? nt : 1, sizeof *rows);
    for (size_t i = 0; i < nt; i++) {
        const cat_table *t = cd->tables[i];
        if (one && strcmp(t->name, d->name) != 0) {
            continue;
        }
        if (one && (t->view_sql != NULL || t->stream != NULL)) {
            const char *name = arena_strdup(cx->a, t->name);
            cat_meta_read_end(srv->meta);
            return db_error_set(err, ER_DORIS,
                                arena_sprintf(cx->a, "Table '%s' is not an OLAP table", name));
        }
        if (t->view_sql != NULL || t->stream != NULL) {
            continue;
        }
        rows[n].name = arena_strdup(cx->a, t->name);
        rows[n].tablets = table_tablets(cx->a, t, &rows[n].ntablets);
        n++;
    }
    cat_meta_read_end(srv->meta);
    if (one && n == 0) {
        return db_error_set(err, ER_NO_SUCH_TABLE, canon, d->name);
    }
    /* Visibility and storage figures outside the catalog lock. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!one && !plan__can_see(cx->s, canon, rows[i].name)) {
            continue;
        }
        rows[k] = rows[i];
        plan__table_stats(cx, rows[k].tablets, rows[k].ntablets, &rows[k].rows, &rows[k].bytes);
        k++;
    }
    n = k;
    /* By name first (Doris's sorted set), then the ORDER BY keys. */
    data_sort by_name = {.col = {0}, .desc = {false}, .n = 1};
    data_sort_rows(rows, n, &by_name);
    data_sort_rows(rows, n, &sort);
    uint64_t bytes = 0, replicas = 0;
    const char *zero = plan__readable_bytes(cx->a, 0);
    for (size_t i = 0; i < n; i++) {
        bytes += rows[i].bytes;
        replicas += rows[i].ntablets;
        const char *size = plan__readable_bytes(cx->a, rows[i].bytes);
        const char *reps = fmt_u64(cx->a, rows[i].ntablets);
        if (one) {
            const char *row[6] = {i == 0 ? rows[i].name : "",   rows[i].name, size, reps,
                                  fmt_u64(cx->a, rows[i].rows), zero};
            plan__rs_add(cx->a, &rs, row);
        } else {
            const char *row[4] = {rows[i].name, size, reps, zero};
            plan__rs_add(cx->a, &rs, row);
        }
    }
    const char *total = plan__readable_bytes(cx->a, bytes);
    if (one) {
        const char *row[6] = {"", "Total", total, fmt_u64(cx->a, replicas), "", zero};
        plan__rs_add(cx->a, &rs, row);
    } else {
        const char *trow[4] = {"Total", total, fmt_u64(cx->a, replicas), zero};
        plan__rs_add(cx->a, &rs, trow);
        const char *qrow[4] = {"Quota", plan__readable_bytes(cx->a, DORIS_DATA_QUOTA),
                               fmt_u64(cx->a, DORIS_REPLICA_QUOTA), ""};
        plan__rs_add(cx->a, &rs, qrow);
        uint64_t left = bytes < DORIS_DATA_QUOTA ? DORIS_DATA_QUOTA - bytes : 0;
        uint64_t rleft = replicas < DORIS_REPLICA_QUOTA ? DORIS_REPLICA_QUOTA - replicas : 0;
        const char *lrow[4] = {"Left", plan__readable_bytes(cx->a, left), fmt_u64(cx->a, rleft),
                               ""};
        plan__rs_add(cx->a, &rs, lrow);
    }
    plan_stmt plain = *st; /* no LIKE / WHERE: ORDER BY was applied above */
    plain.like = NULL;
    plain.where = NULL;
    return plan__rs_send(cx, &rs, &plain, 0, sink, err);
}

/* ---- SHOW TABLET id ---- */

/* SHOW TABLET id (Doris 2.1, ADMIN): where the tablet belongs. A tablet id is its partition id
 * and bucket (stor_tablet_id_of, decoded by stor_tablet_partition_of / _bucket_of); the base
 * index's id is shown as the table id. An id no partition owns gives Doris's row: NULL names, -1
 * ids, IsSync false. */
static int
show_tablet(plan_ectx *cx, const plan_stmt *st, const plan_sink *sink, db_error *err)
{
    static const char *const names[] = {"DbName", "TableName", "PartitionName", "IndexName",
                                        "DbId",   "TableId",   "PartitionId",   "IndexId",
                                        "IsSync", "Order",     "QueryHits",     "DetailCmd"};
    enum { NCOLS = sizeof names / sizeof names[0] };
    plan_rowset rs;
    bool sent;
    int rc = plan__admin_show(cx, st, sink, &rs, names, NCOLS, &sent, err);
    if (rc != DB_OK || sent) {
        return rc;
    }
    plan_server *srv = cx->s->srv;
    unsigned long long id = strtoull(st->ddl->name, NULL, 10);
    int64_t part_id = stor_tablet_partition_of(id);
    int32_t bucket = (int32_t)stor_tablet_bucket_of(id);
    const char *row[NCOLS] = {
            NULL, NULL, NULL,
            NULL, "-1", "-1",
            "-1", "-1", "false",
            "-1", "0",  arena_sprintf(cx->a, "SHOW PROC '/dbs/-1/-1/partitions/-1/-1/%llu';", id)};
    const cat_catalog *c = cat_meta_read_begin(srv->meta);
    for (size_t i = 0; i < cat_db_count(c) && row[0] == NULL; i++) {
        const cat_db *db = cat_db_at(c, i);
        for (size_t t = 0; t < db->ntables && row[0] == NULL; t++) {
            const cat_table *tb = db->tables[t];
            for (size_t p = 0; p < tb->nparts; p++) {
                if (tb->parts[p].id != part_id || bucket >= tb->parts[p].buckets) {
                    continue;
                }
                const char *tid = arena_sprintf(cx->a, "%lld", (long long)tb->id);
                const char *dbid = arena_sprintf(cx->a, "%lld", (long long)db->id);
                const char *pid = arena_sprintf(cx->a, "%lld", (long long)part_id);
                row[0] = arena_strdup(cx->a, db->name);
                row[1] = arena_strdup(cx->a, tb->name);
                row[2] = arena_strdup(cx->a, tb->parts[p].name);
                row[3] = row[1];
                row[4] = dbid;
                row[5] = tid;
                row[6] = pid;
                row[7] = tid;
                row[8] = "true";
                row[9] = arena_sprintf(cx->a, "%d", bucket);
                row[11] = arena_sprintf(cx->a, "SHOW PROC '/dbs/%s/%s/partitions/%s/%s/%llu';",
                                        dbid, tid, pid, tid, id);
                break;
            }
        }
    }
    cat_meta_read_end(srv->meta);
    plan__rs_add(cx->a, &rs, row);
    return plan__rs_send(cx, &rs, st, 0, sink, err);
}

/* ---- SHOW PROC ---- */

/* SHOW PROC 'path' (ADMIN): '/' lists the proc directories Rivulet answers (one column `name`),
 * '/backends' and '/frontends' are SHOW BACKENDS / FRONTENDS; other paths are 1235. */
static int
show_proc(plan_ectx *cx, const plan_stmt *st, const cfg *c, const plan_sink *sink, db_error *err)
{
    const char *path = st->ddl->name;
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') {
        len--; /* '/backends/' names the same node */
    }
    if (len == 1 && path[0] == '/') {
        static const char *const names[] = {"name"};
        plan_rowset rs;
        plan__rs_init(cx->a, &rs, names, 1);
        if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
            return DB_ERR;
        }
        static const char *const dirs[] = {"backends", "frontends"};
        for (size_t i = 0; i < 2 && !cx->describe; i++) {
            plan__rs_add(cx->a, &rs, &dirs[i]);
        }
        return plan__rs_send(cx, &rs, st, 0, sink, err);
    }
    if (len == strlen("/backends") && strncmp(path, "/backends", len) == 0) {
        return show_backends(cx, st, c, sink, err);
    }
    if (len == strlen("/frontends") && strncmp(path, "/frontends", len) == 0) {
        return show_frontends(cx, st, c, sink, err);
    }
    if (plan__check_priv(cx, CAT_PRIV_ADMIN, NULL, NULL, err) != DB_OK) {
        return DB_ERR;
    }
    return db_error_set(err, ER_NOT_SUPPORTED_YET, arena_sprintf(cx->a, "SHOW PROC '%s'", path));
}
