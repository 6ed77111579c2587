/* SPDX-License-Identifier: Apache-2.0
 * plan_sysvar.c: the system variable registry (one table: name, type, scope, flags, default,
 * bounds, enum values, validation hook), reading and setting values with MySQL's errors, the
 * character set / collation list, and time zones (SYSTEM, +HH:MM, named zones from the system
 * tz database). See README.md §System variables. */
#include "planner/plan_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/mem.h"
#include "common/strutil.h"

static int check_charset(arena *a, const char *name, const char *in, const char **out,
                         db_error *err);
static int check_collation(arena *a, const char *name, const char *in, const char **out,
                           db_error *err);
static int check_time_zone(arena *a, const char *name, const char *in, const char **out,
                           db_error *err);
static int check_track_vars(arena *a, const char *name, const char *in, const char **out,
                            db_error *err);
static int check_sql_mode(arena *a, const char *name, const char *in, const char **out,
                          db_error *err);
static bool parse_offset(const char *s, int64_t *secs);
static int timestamp_read(plan_ectx *cx, plan_value *out, plan_xtype *t);
static int timestamp_set(plan_ectx *cx, const plan_value *v, const char *name, db_error *err);

#define PLAN_SVF_SESSION_RO 8 /* the session value is read-only (max_allowed_packet) */
/* Read-only here because fe.conf sets it, but a dynamic GLOBAL variable in MySQL: a wrong scope
 * is reported before read-only, as MySQL does (max_connections). */
#define PLAN_SVF_CONFIG 16

static const char *const bool_names[] = {"OFF", "ON", NULL};
static const char *const iso_names[] = {"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ",
                                        "SERIALIZABLE", NULL};
static const char *const qc_type_names[] = {"OFF", "ON", "DEMAND", NULL};
static const char *const track_trx_names[] = {"OFF", "STATE", "CHARACTERISTICS", NULL};
/* sql_mode names in MySQL 5.7's bit order (the order @@sql_mode prints them in). */
static const char *const sql_mode_names[] = {"REAL_AS_FLOAT",
                                             "PIPES_AS_CONCAT",
                                             "ANSI_QUOTES",
                                             "IGNORE_SPACE",
                                             "NOT_USED",
                                             "ONLY_FULL_GROUP_BY",
                                             "NO_UNSIGNED_SUBTRACTION",
                                             "NO_DIR_IN_CREATE",
                                             "POSTGRESQL",
                                             "ORACLE",
                                             "MSSQL",
                                             "DB2",
                                             "MAXDB",
                                             "NO_KEY_OPTIONS",
                                             "NO_TABLE_OPTIONS",
                                             "NO_FIELD_OPTIONS",
                                             "MYSQL323",
                                             "MYSQL40",
                                             "ANSI",
                                             "NO_AUTO_VALUE_ON_ZERO",
                                             "NO_BACKSLASH_ESCAPES",
                                             "STRICT_TRANS_TABLES",
                                             "STRICT_ALL_TABLES",
                                             "NO_ZERO_IN_DATE",
                                             "NO_ZERO_DATE",
                                             "ALLOW_INVALID_DATES",
                                             "ERROR_FOR_DIVISION_BY_ZERO",
                                             "TRADITIONAL",
                                             "NO_AUTO_CREATE_USER",
                                             "HIGH_NOT_PRECEDENCE",
                                             "NO_ENGINE_SUBSTITUTION",
                                             "PAD_CHAR_TO_FULL_LENGTH",
                                             NULL};

#define DEFAULT_SQL_MODE                                                   \
    "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE," \
    "ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"

#define G      PLAN_SV_GLOBAL
#define S      PLAN_SV_SESSION
#define B      PLAN_SV_BOTH
#define RO     PLAN_SVF_READONLY
#define U64MAX ((int64_t)-1)

/* The registry. Values that come from plan_server_init (version, port, ...) have their default
 * filled in by plan__sysvar_init_globals. Columns: name, type, scope, flags, default int,
 * default string, min, max, enum names, check hook, alias of. */
static const plan_sysvar_def defs[] = {
        {"auto_increment_increment", PLAN_SV_UINT, B, 0, 1, NULL, 1, 65535, NULL, NULL, NULL},
        {"auto_increment_offset", PLAN_SV_UINT, B, 0, 1, NULL, 1, 65535, NULL, NULL, NULL},
        {"autocommit", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"batch_size", PLAN_SV_INT, B, 0, 4092, NULL, 1, INT32_MAX, NULL, NULL, NULL},
        {"big_tables", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"character_set_client", PLAN_SV_STRING, B, 0, 0, "utf8mb4", 0, 0, NULL, check_charset,
         NULL},
        {"character_set_connection", PLAN_SV_STRING, B, 0, 0, "utf8mb4", 0, 0, NULL, check_charset,
         NULL},
        {"character_set_database", PLAN_SV_STRING, B, 0, 0, "utf8mb4", 0, 0, NULL, check_charset,
         NULL},
        {"character_set_filesystem", PLAN_SV_STRING, B, 0, 0, "binary", 0, 0, NULL, check_charset,
         NULL},
        {"character_set_results", PLAN_SV_STRING, B, PLAN_SVF_NULLABLE, 0, "utf8mb4", 0, 0, NULL,
         check_charset, NULL},
        {"character_set_server", PLAN_SV_STRING, B, 0, 0, "utf8mb4", 0, 0, NULL, check_charset,
         NULL},
        {"character_set_system", PLAN_SV_STRING, G, RO, 0, "utf8", 0, 0, NULL, NULL, NULL},
        {"collation_connection", PLAN_SV_STRING, B, 0, 0, "utf8mb4_general_ci", 0, 0, NULL,
         check_collation, NULL},
        {"collation_database", PLAN_SV_STRING, B, 0, 0, "utf8mb4_general_ci", 0, 0, NULL,
         check_collation, NULL},
        {"collation_server", PLAN_SV_STRING, B, 0, 0, "utf8mb4_general_ci", 0, 0, NULL,
         check_collation, NULL},
        {"connect_timeout", PLAN_SV_UINT, G, 0, 10, NULL, 2, 31536000, NULL, NULL, NULL},
        {"datadir", PLAN_SV_STRING, G, RO, 0, "", 0, 0, NULL, NULL, NULL},
        {"default_storage_engine", PLAN_SV_STRING, B, 0, 0, "InnoDB", 0, 0, NULL, NULL, NULL},
        {"default_week_format", PLAN_SV_UINT, B, 0, 0, NULL, 0, 7, NULL, NULL, NULL},
        {"div_precision_increment", PLAN_SV_UINT, B, 0, 4, NULL, 0, 30, NULL, NULL, NULL},
        {"enable_insert_strict", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"enable_profile", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"enable_unique_key_partial_update", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL,
         NULL},
        {"error_count", PLAN_SV_UINT, S, RO | PLAN_SVF_COMPUTED, 0, NULL, 0, U64MAX, NULL, NULL,
         NULL},
        {"exec_mem_limit", PLAN_SV_INT, B, 0, 2147483648LL, NULL, 1, INT64_MAX, NULL, NULL, NULL},
        {"explicit_defaults_for_timestamp", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL,
         NULL},
        {"foreign_key_checks", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"group_concat_max_len", PLAN_SV_UINT, B, 0, 1024, NULL, 4, U64MAX, NULL, NULL, NULL},
        {"have_openssl", PLAN_SV_STRING, G, RO, 0, "DISABLED", 0, 0, NULL, NULL, NULL},
        {"have_ssl", PLAN_SV_STRING, G, RO, 0, "DISABLED", 0, 0, NULL, NULL, NULL},
        {"hostname", PLAN_SV_STRING, G, RO, 0, "", 0, 0, NULL, NULL, NULL},
        {"identity", PLAN_SV_UINT, S, PLAN_SVF_COMPUTED, 0, NULL, 0, U64MAX, NULL, NULL,
         "last_insert_id"},
        {"init_connect", PLAN_SV_STRING, G, 0, 0, "", 0, 0, NULL, NULL, NULL},
        {"insert_id", PLAN_SV_UINT, S, 0, 0, NULL, 0, U64MAX, NULL, NULL, NULL},
        {"insert_timeout", PLAN_SV_INT, B, 0, 14400, NULL, 1, INT32_MAX, NULL, NULL, NULL},
        {"interactive_timeout", PLAN_SV_UINT, B, 0, 28800, NULL, 1, 31536000, NULL, NULL, NULL},
        {"last_insert_id", PLAN_SV_UINT, S, PLAN_SVF_COMPUTED, 0, NULL, 0, U64MAX, NULL, NULL,
         NULL},
        {"lc_time_names", PLAN_SV_STRING, B, 0, 0, "en_US", 0, 0, NULL, NULL, NULL},
        {"license", PLAN_SV_STRING, G, RO, 0, "Apache License, Version 2.0", 0, 0, NULL, NULL,
         NULL},
        {"lower_case_table_names", PLAN_SV_UINT, G, RO, 0, NULL, 0, 2, NULL, NULL, NULL},
        {"max_allowed_packet", PLAN_SV_UINT, B, PLAN_SVF_SESSION_RO, 4194304, NULL, 1024,
         1073741824, NULL, NULL, NULL},
        {"max_connections", PLAN_SV_UINT, G, RO | PLAN_SVF_CONFIG, 1024, NULL, 1, 100000, NULL,
         NULL, NULL},
        {"max_error_count", PLAN_SV_UINT, B, 0, 64, NULL, 0, 65535, NULL, NULL, NULL},
        {"max_execution_time", PLAN_SV_UINT, B, 0, 0, NULL, 0, 4294967295LL, NULL, NULL, NULL},
        {"net_buffer_length", PLAN_SV_UINT, B, 0, 16384, NULL, 1024, 1048576, NULL, NULL, NULL},
        {"net_read_timeout", PLAN_SV_UINT, B, 0, 30, NULL, 1, 31536000, NULL, NULL, NULL},
        {"net_write_timeout", PLAN_SV_UINT, B, 0, 60, NULL, 1, 31536000, NULL, NULL, NULL},
        {"parallel_fragment_exec_instance_num", PLAN_SV_INT, B, 0, 8, NULL, 1, 1024, NULL, NULL,
         NULL},
        {"performance_schema", PLAN_SV_BOOL, G, RO, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"port", PLAN_SV_UINT, G, RO, 9030, NULL, 0, 65535, NULL, NULL, NULL},
        {"protocol_version", PLAN_SV_UINT, G, RO, 10, NULL, 0, 255, NULL, NULL, NULL},
        {"query_cache_size", PLAN_SV_UINT, G, 0, 1048576, NULL, 0, U64MAX, NULL, NULL, NULL},
        {"query_cache_type", PLAN_SV_ENUM, B, 0, 0, NULL, 0, 2, qc_type_names, NULL, NULL},
        {"query_timeout", PLAN_SV_INT, B, 0, 900, NULL, 1, INT32_MAX, NULL, NULL, NULL},
        {"require_sequence_in_insert", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"session_track_schema", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"session_track_state_change", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"session_track_system_variables", PLAN_SV_STRING, B, 0, 0,
         "time_zone,autocommit,character_set_client,character_set_results,character_set_connection",
         0, 0, NULL, check_track_vars, NULL},
        {"session_track_transaction_info", PLAN_SV_ENUM, B, 0, 0, NULL, 0, 2, track_trx_names, NULL,
         NULL},
        {"show_hidden_columns", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"sql_auto_is_null", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"sql_mode", PLAN_SV_SET, B, 0, 0, DEFAULT_SQL_MODE, 0, 0, sql_mode_names, check_sql_mode,
         NULL},
        {"sql_notes", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"sql_quote_show_create", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"sql_safe_updates", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"sql_select_limit", PLAN_SV_UINT, B, 0, U64MAX, NULL, 0, U64MAX, NULL, NULL, NULL},
        {"sql_warnings", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"storage_engine", PLAN_SV_STRING, B, 0, 0, "InnoDB", 0, 0, NULL, NULL,
         "default_storage_engine"},
        {"system_time_zone", PLAN_SV_STRING, G, RO, 0, "UTC", 0, 0, NULL, NULL, NULL},
        {"time_zone", PLAN_SV_STRING, B, 0, 0, "SYSTEM", 0, 0, NULL, check_time_zone, NULL},
        /* Unix seconds with microseconds (DECIMAL(17,6)); see timestamp_set / timestamp_read. */
        {"timestamp", PLAN_SV_INT, S, PLAN_SVF_COMPUTED, 0, NULL, 0, 2147483647, NULL, NULL, NULL},
        {"transaction_isolation", PLAN_SV_ENUM, B, 0, 2, NULL, 0, 3, iso_names, NULL, NULL},
        {"transaction_read_only", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL, NULL},
        {"tx_isolation", PLAN_SV_ENUM, B, 0, 2, NULL, 0, 3, iso_names, NULL,
         "transaction_isolation"},
        {"tx_read_only", PLAN_SV_BOOL, B, 0, 0, NULL, 0, 1, bool_names, NULL,
         "transaction_read_only"},
        {"unique_checks", PLAN_SV_BOOL, B, 0, 1, NULL, 0, 1, bool_names, NULL, NULL},
        {"version", PLAN_SV_STRING, G, RO, 0, "5.7.99", 0, 0, NULL, NULL, NULL},
        {"version_comment", PLAN_SV_STRING, G, RO, 0, "Rivulet", 0, 0, NULL, NULL, NULL},
#if defined(__aarch64__)
        {"version_compile_machine", PLAN_SV_STRING, G, RO, 0, "aarch64", 0, 0, NULL, NULL, NULL},
#else
        {"version_compile_machine", PLAN_SV_STRING, G, RO, 0, "x86_64", 0, 0, NULL, NULL, NULL},
#endif
        {"version_compile_os", PLAN_SV_STRING, G, RO, 0, "Linux", 0, 0, NULL, NULL, NULL},
        {"wait_timeout", PLAN_SV_UINT, B, 0, 28800, NULL, 1, 31536000, NULL, NULL, NULL},
        {"warning_count", PLAN_SV_UINT, S, RO | PLAN_SVF_COMPUTED, 0, NULL, 0, U64MAX, NULL, NULL,
         NULL},
};

#define NDEFS (sizeof defs / sizeof defs[0])

size_t
plan__sysvar_count(void)
{
    return NDEFS;
}

const plan_sysvar_def *
plan__sysvar_def(size_t idx)
{
    DB_ASSERT(idx < NDEFS);
    return &defs[idx];
}

/* The table is kept sorted by name in the source (a unit test checks it). */
size_t
plan__sysvar_sorted(size_t i)
{
    return i;
}

static int find_raw(const char *name);

static int
find_raw(const char *name)
{
    size_t lo = 0, hi = NDEFS;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcasecmp(name, defs[mid].name);
        if (c == 0) {
            return (int)mid;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return -1;
}

int
plan__sysvar_find(const char *name)
{
    int i = find_raw(name);
    if (i >= 0 && defs[i].alias_of) {
        i = find_raw(defs[i].alias_of);
    }
    return i;
}

void
plan__sysvar_init_globals(plan_sysval *g, const plan_server_init *init)
{
    for (size_t i = 0; i < NDEFS; i++) {
        const plan_sysvar_def *d = &defs[i];
        g[i].i = d->def_int;
        g[i].is_null = false;
        g[i].s = (d->type == PLAN_SV_STRING || d->type == PLAN_SV_SET)
                         ? mem_strdup(d->def_str ? d->def_str : "")
                         : NULL;
    }
    if (!init) {
        return;
    }
#define SET_STR(name, val)             \
    do {                               \
        int k_ = find_raw(name);       \
        if ((val) != NULL) {           \
            mem_free(g[k_].s);         \
            g[k_].s = mem_strdup(val); \
        }                              \
    } while (0)
    SET_STR("version", init->version);
    SET_STR("version_comment", init->version_comment);
    SET_STR("datadir", init->datadir);
    SET_STR("system_time_zone", init->system_time_zone);
    SET_STR("have_ssl", init->have_ssl ? "YES" : "DISABLED");
    SET_STR("have_openssl", init->have_ssl ? "YES" : "DISABLED");
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        SET_STR("hostname", host);
    }
#undef SET_STR
    if (init->port > 0) {
        g[find_raw("port")].i = init->port;
    }
    if (init->max_connections > 0) {
        g[find_raw("max_connections")].i = init->max_connections;
    }
    if (init->max_allowed_packet > 0) {
        g[find_raw("max_allowed_packet")].i = init->max_allowed_packet;
    }
}

void
plan__sysval_copy(plan_sysval *dst, const plan_sysval *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        mem_free(dst[i].s);
        dst[i] = src[i];
        dst[i].s = src[i].s ? mem_strdup(src[i].s) : NULL;
    }
}

void
plan__sysval_free(plan_sysval *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        mem_free(v[i].s);
        v[i].s = NULL;
    }
}

/* ---- reading ---- */

/* Copy of the stored value (global under the lock) as a plan_value in cx->a. */
int
plan__sysvar_read(plan_ectx *cx, int idx, plan_scope scope, plan_value *out, plan_xtype *t,
                  db_error *err)
{
    (void)err;
    const plan_sysvar_def *d = &defs[idx];
    plan_session *s = cx->s;
    plan_server *srv = s->srv;
    bool global = scope == PLAN_SCOPE_GLOBAL || !(d->scope & PLAN_SV_SESSION);
    plan_sysval v;
    if (d->flags & PLAN_SVF_COMPUTED) {
        v.is_null = false;
        v.s = NULL;
        if (strcmp(d->name, "timestamp") == 0) {
            return timestamp_read(cx, out, t);
        }
        if (strcmp(d->name, "warning_count") == 0) {
            v.i = (int64_t)s->warn_total;
        } else if (strcmp(d->name, "error_count") == 0) {
            v.i = (int64_t)s->err_total;
        } else {
            v.i = (int64_t)s->last_insert_id;
        }
    } else if (global) {
        pthread_mutex_lock(&srv->lock);
        v = srv->globals[idx];
        v.s = v.s ? arena_strdup(cx->a, v.s) : NULL;
        pthread_mutex_unlock(&srv->lock);
    } else {
        v = s->vars[idx];
    }
    switch (d->type) {
    case PLAN_SV_BOOL:
    case PLAN_SV_INT:
        *out = plan__v_int(v.i);
        break;
    case PLAN_SV_UINT:
        *out = plan__v_uint((uint64_t)v.i);
        break;
    case PLAN_SV_ENUM:
        *out = plan__v_str(d->enums[v.i], strlen(d->enums[v.i]));
        break;
    default:
        *out = v.is_null || !v.s ? plan__v_null() : plan__v_str(v.s, strlen(v.s));
        if (v.s && !global) {
            out->str.s = arena_strdup(cx->a, v.s); /* the session value may change (SET) */
        }
        break;
    }
    if (t) {
        if (out->kind == PV_INT) {
            plan__type_bigint(t, 21, false);
            t->is_unsigned = out->is_unsigned;
            if (t->is_unsigned) {
                t->length = 20;
            }
        } else {
            plan__type_string(t, out->kind == PV_STRING ? (uint32_t)out->str.len : 0, true);
        }
    }
    return DB_OK;
}

void
plan__sysvar_type(int idx, plan_xtype *t)
{
    const plan_sysvar_def *d = &defs[idx];
    if (strcmp(d->name, "timestamp") == 0) {
        plan__type_decimal(t, 17, 6, false);
    } else if (d->type == PLAN_SV_BOOL || d->type == PLAN_SV_INT || d->type == PLAN_SV_UINT) {
        plan__type_bigint(t, d->type == PLAN_SV_UINT ? 20 : 21, false);
        t->is_unsigned = d->type == PLAN_SV_UINT;
    } else {
        plan__type_string(t, 256, true);
    }
}

const char *
plan__sysvar_show(arena *a, plan_session *s, int idx, plan_scope scope)
{
    plan_ectx cx;
    memset(&cx, 0, sizeof cx);
    cx.s = s;
    cx.a = a;
    const plan_sysvar_def *d = &defs[idx];
    int real = plan__sysvar_find(d->name);
    plan_value v;
    plan__sysvar_read(&cx, real, scope, &v, NULL, NULL);
    if (v.kind == PV_NULL) {
        return NULL;
    }
    if (defs[real].type == PLAN_SV_BOOL) {
        return v.i ? "ON" : "OFF";
    }
    size_t len;
    return plan__v_text(a, &v, &len);
}

/* ---- setting ---- */

int
plan__sysvar_check_settable(int idx, plan_scope scope, const char *name, db_error *err)
{
    const plan_sysvar_def *d = &defs[idx];
    /* MySQL 5.7 (set_var::check): read-only first, then the scope. */
    if ((d->flags & PLAN_SVF_READONLY) && !(d->flags & PLAN_SVF_CONFIG)) {
        return db_error_set(err, ER_READ_ONLY_VARIABLE, name);
    }
    if (scope == PLAN_SCOPE_GLOBAL && !(d->scope & PLAN_SV_GLOBAL)) {
        return db_error_set(err, ER_LOCAL_VARIABLE, name);
    }
    if (scope != PLAN_SCOPE_GLOBAL && !(d->scope & PLAN_SV_SESSION)) {
        return db_error_set(err, ER_GLOBAL_VARIABLE, name);
    }
    if (d->flags & PLAN_SVF_READONLY) {
        return db_error_set(err, ER_READ_ONLY_VARIABLE, name);
    }
    if (scope != PLAN_SCOPE_GLOBAL && (d->flags & PLAN_SVF_SESSION_RO)) {
        return db_error_set(err, ER_VARIABLE_IS_READONLY, "SESSION", name, "GLOBAL");
    }
    return DB_OK;
}

static int value_error(plan_ectx *cx, const char *name, const plan_value *v, db_error *err);

/* ER_WRONG_VALUE_FOR_VAR quoting the value's text (NULL as NULL). */
static int
value_error(plan_ectx *cx, const char *name, const plan_value *v, db_error *err)
{
    size_t len;
    const char *txt = v && v->kind != PV_NULL ? plan__v_text(cx->a, v, &len) : "NULL";
    return db_error_set(err, ER_WRONG_VALUE_FOR_VAR, name, txt);
}

static void store(plan_ectx *cx, int idx, plan_scope scope, const plan_sysval *nv);

/* Write the new value (heap copy) to the session or, under the lock, the global slot. */
static void
store(plan_ectx *cx, int idx, plan_scope scope, const plan_sysval *nv)
{
    plan_session *s = cx->s;
    plan_sysval *slot;
    bool global = scope == PLAN_SCOPE_GLOBAL;
    if (global) {
        pthread_mutex_lock(&s->srv->lock);
        slot = &s->srv->globals[idx];
    } else {
        slot = &s->vars[idx];
    }
    mem_free(slot->s);
    slot->i = nv->i;
    slot->is_null = nv->is_null;
    slot->s = nv->s ? mem_strdup(nv->s) : NULL;
    if (global) {
        pthread_mutex_unlock(&s->srv->lock);
    }
}

static void set_pair(plan_ectx *cx, const char *other, plan_scope scope, const char *val);

/* Keep character_set_X and collation_X consistent. */
static void
set_pair(plan_ectx *cx, const char *other, plan_scope scope, const char *val)
{
    plan_sysval nv = {0, (char *)val, false};
    store(cx, plan__sysvar_find(other), scope, &nv);
}

/* @@timestamp: the SET timestamp value, else the statement's start (the clock when there is
 * no statement, as for SHOW VARIABLES), as DECIMAL(17,6) seconds. */
static int
timestamp_read(plan_ectx *cx, plan_value *out, plan_xtype *t)
{
    int64_t us = cx->s->user_time_us > 0 ? cx->s->user_time_us : cx->now_utc_us;
    if (us <= 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    }
    *out = plan__v_dec((__int128)us, 6);
    if (t) {
        plan__type_decimal(t, 17, 6, false);
    }
    return DB_OK;
}

/* SET timestamp = N fixes NOW() for the session; DEFAULT or 0 gives the clock back. Numbers
 * only (1232 otherwise); outside [0, 2147483647] is 1231 (MySQL 5.7's TIMESTAMP range). */
static int
timestamp_set(plan_ectx *cx, const plan_value *v, const char *name, db_error *err)
{
    if (!v) {
        cx->s->user_time_us = 0;
        return DB_OK;
    }
    __int128 us;
    if (v->kind != PV_INT && v->kind != PV_DECIMAL && v->kind != PV_DOUBLE) {
        return db_error_set(err, ER_WRONG_TYPE_FOR_VAR, name);
    }
    if (v->kind == PV_DOUBLE && !(v->d >= 0 && v->d <= 2147483647.0)) {
        return value_error(cx, name, v, err);
    }
    if (!plan__v_to_dec(v, 6, &us, NULL) || us < 0 || us > (__int128)2147483647 * 1000000) {
        return value_error(cx, name, v, err);
    }
    cx->s->user_time_us = (int64_t)us;
    return DB_OK;
}

int
plan__sysvar_set(plan_ectx *cx, int idx, plan_scope scope, const plan_value *v, const char *name,
                 db_error *err)
{
    const plan_sysvar_def *d = &defs[idx];
    plan_session *s = cx->s;
    plan_sysval nv = {0, NULL, false};
    if (strcmp(d->name, "timestamp") == 0) {
        return timestamp_set(cx, v, name, err);
    }
    if (!v) {
        /* DEFAULT: the session takes the global value; the global takes the compiled default. */
        if (scope == PLAN_SCOPE_GLOBAL || !(d->scope & PLAN_SV_GLOBAL)) {
            nv.i = d->def_int;
            nv.s = (char *)(d->def_str ? d->def_str
                                       : (d->type >= PLAN_SV_STRING && d->type != PLAN_SV_ENUM
                                                  ? ""
                                                  : NULL));
        } else {
            pthread_mutex_lock(&s->srv->lock);
            nv = s->srv->globals[idx];
            nv.s = nv.s ? arena_strdup(cx->a, nv.s) : NULL;
            pthread_mutex_unlock(&s->srv->lock);
        }
    } else {
        switch (d->type) {
        case PLAN_SV_BOOL:
        case PLAN_SV_ENUM:
            if (v->kind == PV_INT) {
                int64_t i = v->is_unsigned && v->u > INT64_MAX ? -1 : v->i;
                if (i < d->min || i > d->max) {
                    return value_error(cx, name, v, err);
                }
                nv.i = i;
            } else if (v->kind == PV_STRING) {
                bool ok = false;
                for (int k = 0; d->enums[k]; k++) {
                    if (str_ieqz(v->str.s, v->str.len, d->enums[k])) {
                        nv.i = k;
                        ok = true;
                    }
                }
                if (d->type == PLAN_SV_BOOL && !ok) {
                    if (str_ieqz(v->str.s, v->str.len, "true")) {
                        nv.i = 1;
                        ok = true;
                    } else if (str_ieqz(v->str.s, v->str.len, "false")) {
                        nv.i = 0;
                        ok = true;
                    }
                }
                if (!ok) {
                    return value_error(cx, name, v, err);
                }
            } else if (v->kind == PV_NULL) {
                return value_error(cx, name, v, err);
            } else {
                return db_error_set(err, ER_WRONG_TYPE_FOR_VAR, name);
            }
            break;
        case PLAN_SV_INT:
        case PLAN_SV_UINT: {
            if (v->kind != PV_INT) {
                return db_error_set(err, ER_WRONG_TYPE_FOR_VAR, name);
            }
            bool neg = !v->is_unsigned && v->i < 0;
            bool clamped = false;
            if (d->type == PLAN_SV_UINT) {
                uint64_t u = neg ? 0 : v->u;
                uint64_t mn = (uint64_t)d->min, mx = (uint64_t)d->max;
                clamped = neg || u < mn || u > mx;
                u = neg || u < mn ? mn : (u > mx ? mx : u);
                nv.i = (int64_t)u;
            } else {
                int64_t i = v->is_unsigned && v->u > INT64_MAX ? INT64_MAX : v->i;
                clamped = i < d->min || i > d->max;
                nv.i = i < d->min ? d->min : (i > d->max ? d->max : i);
            }
            if (clamped) {
                size_t len;
                plan__warn(s, 1292, "Truncated incorrect %s value: '%s'", name,
                           plan__v_text(cx->a, v, &len));
            }
            break;
        }
        default: {
            if (v->kind == PV_NULL) {
                if (!(d->flags & PLAN_SVF_NULLABLE)) {
                    return value_error(cx, name, v, err);
                }
                nv.is_null = true;
                break;
            }
            const char *txt;
            if (v->kind == PV_STRING) {
                txt = arena_strndup(cx->a, v->str.s, v->str.len);
            } else if (d->type == PLAN_SV_SET && v->kind == PV_INT) {
                /* A bit mask of sql_mode names. */
                uint64_t m = v->u;
                char *b = arena_alloc(cx->a, 1024);
                b[0] = '\0';
                for (int k = 0; d->enums[k] && m; k++, m >>= 1) {
                    if (m & 1) {
                        strcat(b, b[0] ? "," : "");
                        strcat(b, d->enums[k]);
                    }
                }
                if (m) {
                    return value_error(cx, name, v, err);
                }
                txt = b;
            } else {
                return db_error_set(err, ER_WRONG_TYPE_FOR_VAR, name);
            }
            if (d->check && d->check(cx->a, name, txt, &txt, err) != DB_OK) {
                return DB_ERR;
            }
            nv.s = (char *)txt;
            break;
        }
        }
    }
    if (d->flags & PLAN_SVF_COMPUTED) {
        s->last_insert_id = (uint64_t)nv.i;
        return DB_OK;
    }
    store(cx, idx, scope, &nv);
    /* Side effects. */
    if (strcmp(d->name, "autocommit") == 0 && scope != PLAN_SCOPE_GLOBAL && nv.i == 1) {
        /* SET autocommit=1 commits (an error of that commit is logged in the warnings). */
        db_error cerr;
        db_error_clear(&cerr);
        if (plan__txn_commit(s, &cerr) != DB_OK) {
            plan__warn(s, cerr.code, "%s", cerr.msg);
        }
        s->in_trans = false;
    }
    if (!nv.is_null && nv.s) {
        const char *pairs[][2] = {{"character_set_connection", "collation_connection"},
                                  {"character_set_database", "collation_database"},
                                  {"character_set_server", "collation_server"}};
        for (size_t k = 0; k < 3; k++) {
            if (strcmp(d->name, pairs[k][0]) == 0) {
                set_pair(cx, pairs[k][1], scope, plan__charset_default(nv.s)->name);
            } else if (strcmp(d->name, pairs[k][1]) == 0) {
                set_pair(cx, pairs[k][0], scope, plan__collation_by_name(nv.s)->charset);
            }
        }
    }
    return DB_OK;
}

/* ---- validation hooks ---- */

static const plan_collation collations[] = {
        {8, "latin1_swedish_ci", "latin1", true},
        {11, "ascii_general_ci", "ascii", true},
        {33, "utf8_general_ci", "utf8", true},
        {45, "utf8mb4_general_ci", "utf8mb4", true},
        {46, "utf8mb4_bin", "utf8mb4", false},
        {47, "latin1_bin", "latin1", false},
        {63, "binary", "binary", true},
        {65, "ascii_bin", "ascii", false},
        {83, "utf8_bin", "utf8", false},
        {192, "utf8_unicode_ci", "utf8", false},
        {224, "utf8mb4_unicode_ci", "utf8mb4", false},
        {255, "utf8mb4_0900_ai_ci", "utf8mb4", false},
};

size_t
plan__collation_count(void)
{
    return sizeof collations / sizeof collations[0];
}

const plan_collation *
plan__collation_at(size_t i)
{
    return &collations[i];
}

const plan_collation *
plan__collation_by_id(uint16_t id)
{
    for (size_t i = 0; i < plan__collation_count(); i++) {
        if (collations[i].id == id) {
            return &collations[i];
        }
    }
    return NULL;
}

const plan_collation *
plan__collation_by_name(const char *name)
{
    char buf[64];
    if (!name) {
        return NULL;
    }
    if (strncasecmp(name, "utf8mb3_", 8) == 0 && strlen(name) < sizeof buf) {
        snprintf(buf, sizeof buf, "utf8_%s", name + 8);
        name = buf;
    }
    for (size_t i = 0; i < plan__collation_count(); i++) {
        if (strcasecmp(collations[i].name, name) == 0) {
            return &collations[i];
        }
    }
    return NULL;
}

const plan_collation *
plan__charset_default(const char *charset)
{
    if (!charset) {
        return NULL;
    }
    if (strcasecmp(charset, "utf8mb3") == 0) {
        charset = "utf8";
    }
    for (size_t i = 0; i < plan__collation_count(); i++) {
        if (collations[i].is_default && strcasecmp(collations[i].charset, charset) == 0) {
            return &collations[i];
        }
    }
    return NULL;
}

static int
check_charset(arena *a, const char *name, const char *in, const char **out, db_error *err)
{
    (void)a;
    (void)name;
    const plan_collation *c = plan__charset_default(in);
    if (!c) {
        return db_error_set(err, ER_UNKNOWN_CHARACTER_SET, in);
    }
    *out = c->charset;
    return DB_OK;
}

static int
check_collation(arena *a, const char *name, const char *in, const char **out, db_error *err)
{
    (void)a;
    (void)name;
    const plan_collation *c = plan__collation_by_name(in);
    if (!c) {
        return db_error_set(err, ER_UNKNOWN_COLLATION, in);
    }
    *out = c->name;
    return DB_OK;
}

static int
check_track_vars(arena *a, const char *name, const char *in, const char **out, db_error *err)
{
    /* A comma list of variable names or '*'; unknown names are an error (MySQL 5.7). */
    char *copy = arena_strdup(a, in);
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') {
            tok++;
        }
        size_t n = strlen(tok);
        while (n > 0 && tok[n - 1] == ' ') {
            tok[--n] = '\0';
        }
        if (n == 0 || strcmp(tok, "*") == 0) {
            continue;
        }
        if (plan__sysvar_find(tok) < 0) {
            return db_error_set(err, ER_WRONG_VALUE_FOR_VAR, name, tok);
        }
    }
    *out = in;
    return DB_OK;
}

static int
check_sql_mode(arena *a, const char *name, const char *in, const char **out, db_error *err)
{
    uint64_t bits = 0;
    char *copy = arena_strdup(a, in);
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') {
            tok++;
        }
        size_t n = strlen(tok);
        while (n > 0 && tok[n - 1] == ' ') {
            tok[--n] = '\0';
        }
        if (n == 0) {
            continue;
        }
        int found = -1;
        for (int k = 0; sql_mode_names[k]; k++) {
            if (strcasecmp(tok, sql_mode_names[k]) == 0 && strcmp(sql_mode_names[k], "NOT_USED")) {
                found = k;
            }
        }
        if (found < 0) {
            return db_error_set(err, ER_WRONG_VALUE_FOR_VAR, name, tok);
        }
        bits |= 1ULL << found;
        /* Combination modes expand as in MySQL 5.7. */
        if (strcmp(sql_mode_names[found], "ANSI") == 0) {
            bits |= 1ULL << 0 | 1ULL << 1 | 1ULL << 2 | 1ULL << 3 | 1ULL << 5;
        } else if (strcmp(sql_mode_names[found], "TRADITIONAL") == 0) {
            bits |= 1ULL << 21 | 1ULL << 22 | 1ULL << 23 | 1ULL << 24 | 1ULL << 26 | 1ULL << 28 |
                    1ULL << 30;
        }
    }
    char *b = arena_alloc(a, 1024);
    b[0] = '\0';
    for (int k = 0; sql_mode_names[k]; k++) {
        if (bits & (1ULL << k)) {
            strcat(b, b[0] ? "," : "");
            strcat(b, sql_mode_names[k]);
        }
    }
    *out = b;
    return DB_OK;
}

/* [+-]H[H]:MM within MySQL's range -13:59 .. +14:00. */
static bool
parse_offset(const char *s, int64_t *secs)
{
    if (s[0] != '+' && s[0] != '-') {
        return false;
    }
    int h = 0, m = 0, n = 0;
    if (sscanf(s + 1, "%2d:%2d%n", &h, &m, &n) != 2 || s[1 + n] != '\0' || m > 59) {
        return false;
    }
    int64_t v = (int64_t)h * 3600 + m * 60;
    if (s[0] == '-') {
        v = -v;
    }
    if (v < -(13 * 3600 + 59 * 60) || v > 14 * 3600) {
        return false;
    }
    *secs = v;
    return true;
}

static bool zone_file(const char *name, char *path, size_t cap);

/* Path of a named zone in the system tz database; false for unsafe or missing names. */
static bool
zone_file(const char *name, char *path, size_t cap)
{
    if (!name[0] || strstr(name, "..") || name[0] == '/' || strlen(name) > 64) {
        return false;
    }
    for (const char *p = name; *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '/' || *p == '_' || *p == '-' || *p == '+')) {
            return false;
        }
    }
    snprintf(path, cap, "/usr/share/zoneinfo/%s", name);
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int
check_time_zone(arena *a, const char *name, const char *in, const char **out, db_error *err)
{
    (void)name;
    int64_t secs;
    char path[128];
    if (strcasecmp(in, "SYSTEM") == 0) {
        *out = "SYSTEM";
        return DB_OK;
    }
    if (parse_offset(in, &secs)) {
        *out = arena_sprintf(a, "%c%02d:%02d", secs < 0 ? '-' : '+',
                             (int)((secs < 0 ? -secs : secs) / 3600),
                             (int)((secs < 0 ? -secs : secs) / 60 % 60));
        return DB_OK;
    }
    if (zone_file(in, path, sizeof path)) {
        *out = in;
        return DB_OK;
    }
    return db_error_set(err, ER_UNKNOWN_TIME_ZONE, in);
}

static int64_t tzif_offset(const char *path, int64_t t);
static uint32_t be32(const unsigned char *p);

static uint32_t
be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* UTC offset at t from a TZif file (version 1 data block: 1901..2038; later times use the last
 * transition). 0 when the file is unreadable. */
static int64_t
tzif_offset(const char *path, int64_t t)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return 0;
    }
    unsigned char hdr[44];
    int64_t result = 0;
    if (fread(hdr, 1, 44, f) != 44 || memcmp(hdr, "TZif", 4) != 0) {
        fclose(f);
        return 0;
    }
    uint32_t timecnt = be32(hdr + 32), typecnt = be32(hdr + 36);
    if (timecnt > 10000 || typecnt == 0 || typecnt > 256) {
        fclose(f);
        return 0;
    }
    size_t need = timecnt * 5 + typecnt * 6;
    unsigned char *buf = mem_alloc(need);
    if (fread(buf, 1, need, f) == need) {
        const unsigned char *times = buf, *idx = buf + timecnt * 4, *types = idx + timecnt;
        size_t type = 0;
        for (uint32_t i = 0; i < timecnt; i++) {
            if ((int64_t)(int32_t)be32(times + i * 4) <= t) {
                type = idx[i] < typecnt ? idx[i] : 0;
            } else {
                break;
            }
        }
        result = (int32_t)be32(types + type * 6);
    }
    mem_free(buf);
    fclose(f);
    return result;
}

int64_t
plan__tz_offset(const plan_session *s, int64_t t)
{
    const char *tz = s->vars[plan__sysvar_find("time_zone")].s;
    int64_t secs;
    char path[128];
    if (!tz || strcmp(tz, "SYSTEM") == 0) {
        time_t tt = (time_t)t;
        struct tm tm;
        localtime_r(&tt, &tm);
        return tm.tm_gmtoff;
    }
    if (parse_offset(tz, &secs)) {
        return secs;
    }
    if (zone_file(tz, path, sizeof path)) {
        return tzif_offset(path, t);
    }
    return 0;
}
