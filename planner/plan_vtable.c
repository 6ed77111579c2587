/* SPDX-License-Identifier: Apache-2.0
 * plan_vtable.c: information_schema as virtual tables. One registry row per table (name,
 * columns with MySQL 5.7's names and types, generator); generators read the catalog through
 * plan_catalog_view (plan_int.h) and materialize their rows in the statement arena. Also the
 * built-in provider used until the catalog module plugs in its own. See README.md §Executor. */
#include "planner/plan_ddl_int.h"
#include "planner/plan_dml_int.h"
#include "planner/plan_exec_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- column lists (MySQL 5.7 information_schema; Doris for the stream tables) ---- */

#define V(n, l)                             \
    {                                       \
        n, PLAN_VC_VARCHAR, l, false, false \
    }
#define VN(n, l)                           \
    {                                      \
        n, PLAN_VC_VARCHAR, l, false, true \
    }
#define B(n, l)                            \
    {                                      \
        n, PLAN_VC_BIGINT, l, false, false \
    }
#define BN(n, l)                          \
    {                                     \
        n, PLAN_VC_BIGINT, l, false, true \
    }
#define BU(n)                              \
    {                                      \
        n, PLAN_VC_BIGINT, 21, true, false \
    }
#define BUN(n)                            \
    {                                     \
        n, PLAN_VC_BIGINT, 21, true, true \
    }
#define DTN(n)                               \
    {                                        \
        n, PLAN_VC_DATETIME, 19, false, true \
    }
#define LT(n)                                \
    {                                        \
        n, PLAN_VC_LONGTEXT, 0, false, false \
    }
#define LTN(n)                              \
    {                                       \
        n, PLAN_VC_LONGTEXT, 0, false, true \
    }
#define BOOLCOL(n)                          \
    {                                       \
        n, PLAN_VC_BOOLEAN, 1, false, false \
    }
#define NCOLS(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const plan_vcol schemata_cols[] = {V("CATALOG_NAME", 512), V("SCHEMA_NAME", 64),
                                          V("DEFAULT_CHARACTER_SET_NAME", 32),
                                          V("DEFAULT_COLLATION_NAME", 32), VN("SQL_PATH", 512)};

static const plan_vcol tables_cols[] = {
        V("TABLE_CATALOG", 512), V("TABLE_SCHEMA", 64),     V("TABLE_NAME", 64),
        V("TABLE_TYPE", 64),     VN("ENGINE", 64),          BUN("VERSION"),
        VN("ROW_FORMAT", 10),    BUN("TABLE_ROWS"),         BUN("AVG_ROW_LENGTH"),
        BUN("DATA_LENGTH"),      BUN("MAX_DATA_LENGTH"),    BUN("INDEX_LENGTH"),
        BUN("DATA_FREE"),        BUN("AUTO_INCREMENT"),     DTN("CREATE_TIME"),
        DTN("UPDATE_TIME"),      DTN("CHECK_TIME"),         VN("TABLE_COLLATION", 32),
        BUN("CHECKSUM"),         VN("CREATE_OPTIONS", 255), V("TABLE_COMMENT", 2048)};

static const plan_vcol columns_cols[] = {V("TABLE_CATALOG", 512),
                                         V("TABLE_SCHEMA", 64),
                                         V("TABLE_NAME", 64),
                                         V("COLUMN_NAME", 64),
                                         BU("ORDINAL_POSITION"),
                                         LTN("COLUMN_DEFAULT"),
                                         V("IS_NULLABLE", 3),
                                         V("DATA_TYPE", 64),
                                         BUN("CHARACTER_MAXIMUM_LENGTH"),
                                         BUN("CHARACTER_OCTET_LENGTH"),
                                         BUN("NUMERIC_PRECISION"),
                                         BUN("NUMERIC_SCALE"),
                                         BUN("DATETIME_PRECISION"),
                                         VN("CHARACTER_SET_NAME", 32),
                                         VN("COLLATION_NAME", 32),
                                         LT("COLUMN_TYPE"),
                                         V("COLUMN_KEY", 3),
                                         V("EXTRA", 30),
                                         V("PRIVILEGES", 80),
                                         V("COLUMN_COMMENT", 1024),
                                         LT("GENERATION_EXPRESSION")};

static const plan_vcol statistics_cols[] = {
        V("TABLE_CATALOG", 512), V("TABLE_SCHEMA", 64), V("TABLE_NAME", 64),
        B("NON_UNIQUE", 1),      V("INDEX_SCHEMA", 64), V("INDEX_NAME", 64),
        B("SEQ_IN_INDEX", 2),    V("COLUMN_NAME", 64),  VN("COLLATION", 1),
        BN("CARDINALITY", 21),   BN("SUB_PART", 3),     VN("PACKED", 10),
        V("NULLABLE", 3),        V("INDEX_TYPE", 16),   VN("COMMENT", 16),
        V("INDEX_COMMENT", 1024)};

static const plan_vcol key_column_usage_cols[] = {V("CONSTRAINT_CATALOG", 512),
                                                  V("CONSTRAINT_SCHEMA", 64),
                                                  V("CONSTRAINT_NAME", 64),
                                                  V("TABLE_CATALOG", 512),
                                                  V("TABLE_SCHEMA", 64),
                                                  V("TABLE_NAME", 64),
                                                  V("COLUMN_NAME", 64),
                                                  B("ORDINAL_POSITION", 10),
                                                  BN("POSITION_IN_UNIQUE_CONSTRAINT", 10),
                                                  VN("REFERENCED_TABLE_SCHEMA", 64),
                                                  VN("REFERENCED_TABLE_NAME", 64),
                                                  VN("REFERENCED_COLUMN_NAME", 64)};

static const plan_vcol views_cols[] = {V("TABLE_CATALOG", 512),
                                       V("TABLE_SCHEMA", 64),
                                       V("TABLE_NAME", 64),
                                       LT("VIEW_DEFINITION"),
                                       V("CHECK_OPTION", 8),
                                       V("IS_UPDATABLE", 3),
                                       V("DEFINER", 93),
                                       V("SECURITY_TYPE", 7),
                                       V("CHARACTER_SET_CLIENT", 32),
                                       V("COLLATION_CONNECTION", 32)};

static const plan_vcol user_privileges_cols[] = {V("GRANTEE", 81), V("TABLE_CATALOG", 512),
                                                 V("PRIVILEGE_TYPE", 64), V("IS_GRANTABLE", 3)};

static const plan_vcol engines_cols[] = {V("ENGINE", 64),  V("SUPPORT", 8),
                                         V("COMMENT", 80), VN("TRANSACTIONS", 3),
                                         VN("XA", 3),      VN("SAVEPOINTS", 3)};

static const plan_vcol character_sets_cols[] = {V("CHARACTER_SET_NAME", 32),
                                                V("DEFAULT_COLLATE_NAME", 32), V("DESCRIPTION", 60),
                                                B("MAXLEN", 3)};

static const plan_vcol collations_cols[] = {
        V("COLLATION_NAME", 32), V("CHARACTER_SET_NAME", 32), B("ID", 11),
        V("IS_DEFAULT", 3),      V("IS_COMPILED", 3),         B("SORTLEN", 3)};

/* DORIS_SEMANTICS.md §4.1 / §4.2. Filled by the stream issue through the provider. */
static const plan_vcol table_streams_cols[] = {
        V("DB_NAME", 64),         V("STREAM_NAME", 64),   B("STREAM_ID", 20),
        V("STREAM_TYPE", 64),     V("CONSUME_TYPE", 64),  LT("STREAM_COMMENT"),
        V("BASE_TABLE_NAME", 64), V("BASE_TABLE_DB", 64), V("BASE_TABLE_CTL", 64),
        V("BASE_TABLE_TYPE", 64), BOOLCOL("ENABLED"),     BOOLCOL("IS_STALE"),
        LT("STALE_REASON")};

static const plan_vcol table_stream_consumption_cols[] = {V("DB_NAME", 64),
                                                          V("STREAM_NAME", 64),
                                                          B("STREAM_ID", 20),
                                                          V("UNIT", 64),
                                                          V("CONSUMPTION_STATUS", 64),
                                                          V("LAG", 64),
                                                          B("LAST_CONSUMPTION_TIME", 20)};

/* ---- generators ---- */

struct plan_vgen {
    plan_ectx *cx;
    const plan_vtable *vt;
    const plan_catalog_view *cat;
    plan_value *rows; /* ncols per row, statement arena */
    size_t nrows, cap;
};

static void add_row(plan_vgen *g, const plan_value *row);
static plan_value vs(const char *s);
static plan_value vsn(const char *s);
static plan_value vu(uint64_t u);
static plan_value vi(int64_t i);
static int gen_schemata(plan_vgen *g, db_error *err);
static int gen_tables(plan_vgen *g, db_error *err);
static int gen_columns(plan_vgen *g, db_error *err);
static int gen_statistics(plan_vgen *g, db_error *err);
static int gen_key_column_usage(plan_vgen *g, db_error *err);
static int gen_views(plan_vgen *g, db_error *err);
static int gen_user_privileges(plan_vgen *g, db_error *err);
static int gen_engines(plan_vgen *g, db_error *err);
static int gen_character_sets(plan_vgen *g, db_error *err);
static int gen_collations(plan_vgen *g, db_error *err);
static int gen_table_streams(plan_vgen *g, db_error *err);
static int gen_table_stream_consumption(plan_vgen *g, db_error *err);

/* Sorted by name. */
static const plan_vtable vtables[] = {
        {"CHARACTER_SETS", character_sets_cols, NCOLS(character_sets_cols), gen_character_sets},
        {"COLLATIONS", collations_cols, NCOLS(collations_cols), gen_collations},
        {"COLUMNS", columns_cols, NCOLS(columns_cols), gen_columns},
        {"ENGINES", engines_cols, NCOLS(engines_cols), gen_engines},
        {"KEY_COLUMN_USAGE", key_column_usage_cols, NCOLS(key_column_usage_cols),
         gen_key_column_usage},
        {"SCHEMATA", schemata_cols, NCOLS(schemata_cols), gen_schemata},
        {"STATISTICS", statistics_cols, NCOLS(statistics_cols), gen_statistics},
        {"TABLES", tables_cols, NCOLS(tables_cols), gen_tables},
        {"TABLE_STREAMS", table_streams_cols, NCOLS(table_streams_cols), gen_table_streams},
        {"TABLE_STREAM_CONSUMPTION", table_stream_consumption_cols,
         NCOLS(table_stream_consumption_cols), gen_table_stream_consumption},
        {"USER_PRIVILEGES", user_privileges_cols, NCOLS(user_privileges_cols), gen_user_privileges},
        {"VIEWS", views_cols, NCOLS(views_cols), gen_views},
};

const plan_vtable *
plan__vtable_find(const char *name)
{
    for (size_t i = 0; i < sizeof vtables / sizeof vtables[0]; i++) {
        if (strcasecmp(vtables[i].name, name) == 0) {
            return &vtables[i];
        }
    }
    return NULL;
}

size_t
plan__vtable_count(void)
{
    return sizeof vtables / sizeof vtables[0];
}

const plan_vtable *
plan__vtable_at(size_t i)
{
    DB_ASSERT(i < plan__vtable_count());
    return &vtables[i];
}

void
plan__vcol_type(const plan_vcol *c, plan_xtype *t, plan_vkind *vk)
{
    switch (c->kind) {
    case PLAN_VC_VARCHAR:
        plan__type_string(t, c->len, c->nullable);
        *vk = PV_STRING;
        break;
    case PLAN_VC_LONGTEXT:
        plan__type_string(t, 1073741823u, c->nullable); /* 4 GiB - 1 bytes in utf8mb4 */
        t->type = PLAN_TYPE_STRING;
        *vk = PV_STRING;
        break;
    case PLAN_VC_BIGINT:
        plan__type_bigint(t, c->len, c->nullable);
        t->is_unsigned = c->is_unsigned;
        *vk = PV_INT;
        break;
    case PLAN_VC_DATETIME:
        plan__type_datetime(t, PLAN_TYPE_DATETIME, 0, c->nullable);
        *vk = PV_DATETIME;
        break;
    case PLAN_VC_BOOLEAN:
        plan__type_bigint(t, 1, c->nullable);
        t->type = PLAN_TYPE_BOOLEAN;
        *vk = PV_INT;
        break;
    }
}

int
plan__vtable_rows(plan_ectx *cx, const plan_vtable *vt, plan_value **rows, size_t *nrows,
                  db_error *err)
{
    plan_vgen g = {cx, vt, &cx->s->srv->catalog, NULL, 0, 0};
    if (vt->gen(&g, err) != DB_OK) {
        return DB_ERR;
    }
    *rows = g.rows;
    *nrows = g.nrows;
    return DB_OK;
}

static void
add_row(plan_vgen *g, const plan_value *row)
{
    size_t nc = g->vt->ncols;
    if (g->nrows == g->cap) {
        size_t ncap = g->cap ? g->cap * 2 : 64;
        plan_value *n = arena_alloc(g->cx->a, ncap * nc * sizeof *n);
        if (g->nrows) {
            memcpy(n, g->rows, g->nrows * nc * sizeof *n);
        }
        g->rows = n;
        g->cap = ncap;
    }
    memcpy(g->rows + g->nrows * nc, row, nc * sizeof *row);
    g->nrows++;
}

static plan_value
vs(const char *s)
{
    return plan__v_str(s ? s : "", s ? strlen(s) : 0);
}

/* A string, or NULL. */
static plan_value
vsn(const char *s)
{
    return s ? plan__v_str(s, strlen(s)) : plan__v_null();
}

static plan_value
vu(uint64_t u)
{
    return plan__v_uint(u);
}

static plan_value
vi(int64_t i)
{
    return plan__v_int(i);
}

static int
gen_schemata(plan_vgen *g, db_error *err)
{
    plan_cat_db *dbs;
    size_t n;
    if (g->cat->databases(g->cat->ctx, g->cx->a, &dbs, &n, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < n; i++) {
        if (!plan__can_see(g->cx->s, dbs[i].name, NULL)) {
            continue; /* only databases the account holds some privilege on (MySQL) */
        }
        plan_value row[] = {vs("def"), vs(dbs[i].name), vs(dbs[i].charset), vs(dbs[i].collation),
                            plan__v_null()};
        add_row(g, row);
    }
    return DB_OK;
}

/* The one visibility rule of every per-object information_schema table (TABLES, COLUMNS,
 * STATISTICS, KEY_COLUMN_USAGE, VIEWS, TABLE_STREAMS, TABLE_STREAM_CONSUMPTION): the account
 * holds some privilege inside db and some privilege on db.name (plan__can_see; root and
 * ADMIN_PRIV holders see everything). */
static bool
visible(plan_vgen *g, const char *db, const char *name)
{
    return plan__can_see(g->cx->s, db, NULL) && plan__can_see(g->cx->s, db, name);
}

/* Calls fn(g, db, table, arg) for every table of every database, in catalog order, that the
 * session's account may see (visible); with streams, each database's streams follow its
 * tables as type "STREAM" (COLUMNS lists their columns as DESC does). */
typedef int (*each_table_fn)(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err);
static int each_table(plan_vgen *g, each_table_fn fn, bool streams, db_error *err);

static int
each_table(plan_vgen *g, each_table_fn fn, bool streams, db_error *err)
{
    const plan_catalog_view *cat = g->cat;
    plan_cat_db *dbs;
    size_t ndb;
    if (cat->databases(cat->ctx, g->cx->a, &dbs, &ndb, err) != DB_OK) {
        return DB_ERR;
    }
    plan_cat_stream *st = NULL;
    size_t nst = 0;
    if (streams && cat->streams != NULL &&
        cat->streams(cat->stream_ctx, g->cx->a, &st, &nst, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t d = 0; d < ndb; d++) {
        plan_cat_table *ts;
        size_t nt;
        if (!plan__can_see(g->cx->s, dbs[d].name, NULL)) {
            continue;
        }
        if (cat->tables(cat->ctx, g->cx->a, dbs[d].name, &ts, &nt, err) != DB_OK) {
            return DB_ERR;
        }
        for (size_t i = 0; i < nt; i++) {
            if (!plan__can_see(g->cx->s, dbs[d].name, ts[i].name)) {
                continue;
            }
            if (fn(g, dbs[d].name, &ts[i], err) != DB_OK) {
                return DB_ERR;
            }
        }
        for (size_t i = 0; i < nst; i++) {
            if (strcmp(st[i].db, dbs[d].name) != 0 ||
                !plan__can_see(g->cx->s, dbs[d].name, st[i].name)) {
                continue;
            }
            plan_cat_table t = {.name = st[i].name, .type = "STREAM", .comment = st[i].comment};
            if (fn(g, dbs[d].name, &t, err) != DB_OK) {
                return DB_ERR;
            }
        }
    }
    return DB_OK;
}

static int table_row(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err);

static int
table_row(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err)
{
    (void)err;
    plan_value ct = plan__v_null();
    if (t->create_time_us) {
        ct.kind = PV_DATETIME;
        ct.us = t->create_time_us;
    }
    bool base = strcmp(t->type, "VIEW") != 0;
    uint64_t rows = t->rows, bytes = t->data_length;
    plan__table_stats(g->cx, t->tablets, t->ntablets, &rows, &bytes);
    plan_value row[] = {vs("def"),
                        vs(db),
                        vs(t->name),
                        vs(t->type),
                        vsn(t->engine),
                        base ? vu(10) : plan__v_null(),
                        vsn(base ? "Dynamic" : NULL),
                        t->has_rows ? vu(rows) : plan__v_null(),
                        base ? vu(rows ? bytes / rows : 0) : plan__v_null(),
                        base ? vu(bytes) : plan__v_null(),
                        base ? vu(0) : plan__v_null(),
                        base ? vu(0) : plan__v_null(),
                        base ? vu(0) : plan__v_null(),
                        plan__v_null(),
                        ct,
                        plan__v_null(),
                        plan__v_null(),
                        vsn(t->collation),
                        plan__v_null(),
                        vs(base ? "" : NULL),
                        vs(t->comment)};
    if (!base) {
        row[19] = plan__v_null();
    }
    add_row(g, row);
    return DB_OK;
}

static int
gen_tables(plan_vgen *g, db_error *err)
{
    return each_table(g, table_row, false, err);
}

static int column_rows(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err);

/* The session's show_hidden_columns. */
static bool
show_hidden(plan_vgen *g)
{
    int idx = plan__sysvar_find("show_hidden_columns");
    return idx >= 0 && g->cx->s->vars[idx].i != 0;
}

static int
column_rows(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err)
{
    plan_cat_column *cs;
    size_t n;
    if (t->type && strcmp(t->type, "VIEW") == 0) {
        /* A view's columns come from planning its SELECT; a view that no longer plans (its
         * base table dropped) lists none, as MySQL lists it with a warning. */
        const char *def = NULL;
        cat_table vt;
        db_error verr;
        db_error_clear(&verr);
        if (!plan__view_sql(g->cx, db, t->name, &def) ||
            plan__view_table(g->cx, db, t->name, def, &vt, &verr) != DB_OK) {
            return DB_OK;
        }
        plan__view_column_info(g->cx->a, &vt, &cs, &n);
    } else if (g->cat->columns(g->cat->ctx, g->cx->a, db, t->name, &cs, &n, err) != DB_OK) {
        return DB_ERR;
    }
    if (strcmp(t->type, "STREAM") == 0 && n > 0 && show_hidden(g)) {
        /* A stream lists what DESC lists: its base table's columns (the provider resolves the
         * base; none when it is gone), then with show_hidden_columns its virtual columns. */
        plan_cat_column *vc;
        size_t nv;
        plan__stream_vcolumn_info(g->cx->a, &vc, &nv);
        plan_cat_column *all = arena_calloc(g->cx->a, n + nv, sizeof *all);
        memcpy(all, cs, n * sizeof *all);
        memcpy(all + n, vc, nv * sizeof *all);
        cs = all;
        n += nv;
    }
    for (size_t i = 0; i < n; i++) {
        const plan_cat_column *c = &cs[i];
        plan_value row[] = {vs("def"),
                            vs(db),
                            vs(t->name),
                            vs(c->name),
                            vu(i + 1),
                            vsn(c->default_value),
                            vs(c->nullable ? "YES" : "NO"),
                            vs(c->data_type),
                            c->has_char_len ? vu(c->char_max_len) : plan__v_null(),
                            c->has_char_len ? vu(c->char_octet_len) : plan__v_null(),
                            c->has_num ? vu(c->num_precision) : plan__v_null(),
                            c->has_num ? vu(c->num_scale) : plan__v_null(),
                            c->has_dt_prec ? vu(c->dt_precision) : plan__v_null(),
                            vsn(c->charset),
                            vsn(c->collation),
                            vs(c->column_type),
                            vs(c->key),
                            vs(c->extra),
                            vs("select"),
                            vs(c->comment),
                            vs("")};
        add_row(g, row);
    }
    return DB_OK;
}

static int
gen_columns(plan_vgen *g, db_error *err)
{
    return each_table(g, column_rows, true, err);
}

/* STATISTICS and KEY_COLUMN_USAGE: the key columns (COLUMN_KEY 'PRI') as index PRIMARY. */
static int key_rows(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err);

static int
key_rows(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err)
{
    plan_cat_column *cs;
    size_t n;
    if (g->cat->columns(g->cat->ctx, g->cx->a, db, t->name, &cs, &n, err) != DB_OK) {
        return DB_ERR;
    }
    int64_t seq = 0;
    bool stats = g->vt->gen == gen_statistics;
    for (size_t i = 0; i < n; i++) {
        if (!cs[i].key || strcmp(cs[i].key, "PRI") != 0) {
            continue;
        }
        seq++;
        if (stats) {
            plan_value row[] = {vs("def"),
                                vs(db),
                                vs(t->name),
                                vi(0),
                                vs(db),
                                vs("PRIMARY"),
                                vi(seq),
                                vs(cs[i].name),
                                vs("A"),
                                plan__v_null(),
                                plan__v_null(),
                                plan__v_null(),
                                vs(cs[i].nullable ? "YES" : ""),
                                vs("BTREE"),
                                vs(""),
                                vs("")};
            add_row(g, row);
        } else {
            plan_value row[] = {vs("def"),      vs(db),         vs("PRIMARY"),  vs("def"),
                                vs(db),         vs(t->name),    vs(cs[i].name), vi(seq),
                                plan__v_null(), plan__v_null(), plan__v_null(), plan__v_null()};
            add_row(g, row);
        }
    }
    return DB_OK;
}

static void
add_index_row(void *ctx, const plan_value *row)
{
    add_row(ctx, row);
}

/* STATISTICS: the key columns (PRIMARY), then the stored Doris indexes of the table. */
static int
statistics_rows(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err)
{
    if (key_rows(g, db, t, err) != DB_OK) {
        return DB_ERR;
    }
    plan__index_statistics(g->cx->s->srv, g->cx->a, db, t->name, add_index_row, g);
    return DB_OK;
}

static int
gen_statistics(plan_vgen *g, db_error *err)
{
    return each_table(g, statistics_rows, false, err);
}

static int
gen_key_column_usage(plan_vgen *g, db_error *err)
{
    return each_table(g, key_rows, false, err);
}

static int view_row(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err);

static int
view_row(plan_vgen *g, const char *db, const plan_cat_table *t, db_error *err)
{
    (void)err;
    if (strcmp(t->type, "VIEW") != 0) {
        return DB_OK;
    }
    plan_value row[] = {vs("def"),     vs(db),
                        vs(t->name),   vs(t->view_definition),
                        vs("NONE"),    vs("NO"),
                        vs("root@%"),  vs("DEFINER"),
                        vs("utf8mb4"), vs("utf8mb4_general_ci")};
    add_row(g, row);
    return DB_OK;
}

static int
gen_views(plan_vgen *g, db_error *err)
{
    return each_table(g, view_row, false, err);
}

static int
gen_user_privileges(plan_vgen *g, db_error *err)
{
    plan_cat_priv *p;
    size_t n;
    plan_session *s = g->cx->s;
    /* Grants belong to the account (user@account_host), not to the client's host. */
    if (g->cat->user_privileges(g->cat->ctx, g->cx->a, s->user, s->account_host, &p, &n, err) !=
        DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < n; i++) {
        plan_value row[] = {vs(p[i].grantee), vs("def"), vs(p[i].privilege),
                            vs(p[i].grantable ? "YES" : "NO")};
        add_row(g, row);
    }
    return DB_OK;
}

static int
gen_engines(plan_vgen *g, db_error *err)
{
    (void)err;
    plan_value row[] = {
            vs("OLAP"), vs("DEFAULT"), vs("Rivulet columnar storage (Doris OLAP tables)"),
            vs("YES"),  vs("NO"),      vs("NO")};
    add_row(g, row);
    return DB_OK;
}

static int
gen_character_sets(plan_vgen *g, db_error *err)
{
    (void)err;
    static const char *const rows[][4] = {
            {"ascii", "ascii_general_ci", "US ASCII", "1"},
            {"binary", "binary", "Binary pseudo charset", "1"},
            {"latin1", "latin1_swedish_ci", "cp1252 West European", "1"},
            {"utf8", "utf8_general_ci", "UTF-8 Unicode", "3"},
            {"utf8mb4", "utf8mb4_general_ci", "UTF-8 Unicode", "4"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        plan_value row[] = {vs(rows[i][0]), vs(rows[i][1]), vs(rows[i][2]),
                            vi(rows[i][3][0] - '0')};
        add_row(g, row);
    }
    return DB_OK;
}

static int
gen_collations(plan_vgen *g, db_error *err)
{
    (void)err;
    for (size_t i = 0; i < plan__collation_count(); i++) {
        const plan_collation *c = plan__collation_at(i);
        plan_value row[] = {vs(c->name), vs(c->charset), vi(c->id), vs(c->is_default ? "Yes" : ""),
                            vs("Yes"),   vi(1)};
        add_row(g, row);
    }
    return DB_OK;
}

static int
gen_table_streams(plan_vgen *g, db_error *err)
{
    plan_cat_stream *st;
    size_t n;
    if (g->cat->streams(g->cat->stream_ctx, g->cx->a, &st, &n, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < n; i++) {
        if (!visible(g, st[i].db, st[i].name)) {
            continue; /* as TABLES: only streams the account holds a privilege on */
        }
        plan_value row[] = {vs(st[i].db),           vs(st[i].name),
                            vi(st[i].id),           vs("OLAP_TABLE_STREAM"),
                            vs(st[i].consume_type), vs(st[i].comment),
                            vs(st[i].base_table),   vs(st[i].base_db),
                            vs("internal"),         vs(st[i].base_type),
                            vi(st[i].enabled),      vi(st[i].is_stale),
                            vs(st[i].stale_reason)};
        add_row(g, row);
    }
    return DB_OK;
}

static int
gen_table_stream_consumption(plan_vgen *g, db_error *err)
{
    plan_cat_stream_unit *u;
    size_t n;
    if (g->cat->stream_units(g->cat->stream_ctx, g->cx->a, &u, &n, err) != DB_OK) {
        return DB_ERR;
    }
    for (size_t i = 0; i < n; i++) {
        if (!visible(g, u[i].db, u[i].stream)) {
            continue;
        }
        plan_value row[] = {vs(u[i].db),
                            vs(u[i].stream),
                            vi(u[i].id),
                            vs(u[i].unit),
                            vs(u[i].status),
                            vs(u[i].lag),
                            vi(u[i].last_consumption_ms)};
        add_row(g, row);
    }
    return DB_OK;
}

/* ======================================================================================
 * The built-in catalog provider: databases information_schema and mysql; the tables of
 * information_schema are this registry (SYSTEM VIEW, as MySQL); no streams; the session user
 * holds every global privilege (there are no accounts yet).
 * ====================================================================================== */

static int bi_databases(void *ctx, arena *a, plan_cat_db **dbs, size_t *n, db_error *err);
static int bi_tables(void *ctx, arena *a, const char *db, plan_cat_table **tbls, size_t *n,
                     db_error *err);
static int bi_columns(void *ctx, arena *a, const char *db, const char *table,
                      plan_cat_column **cols, size_t *n, db_error *err);
static int bi_streams(void *ctx, arena *a, plan_cat_stream **st, size_t *n, db_error *err);
static int bi_stream_units(void *ctx, arena *a, plan_cat_stream_unit **u, size_t *n, db_error *err);
static int bi_user_privileges(void *ctx, arena *a, const char *user, const char *host,
                              plan_cat_priv **p, size_t *n, db_error *err);

void
plan__catalog_builtin(plan_catalog_view *cv)
{
    memset(cv, 0, sizeof *cv);
    cv->databases = bi_databases;
    cv->tables = bi_tables;
    cv->columns = bi_columns;
    cv->streams = bi_streams;
    cv->stream_units = bi_stream_units;
    cv->user_privileges = bi_user_privileges;
}

static int
bi_databases(void *ctx, arena *a, plan_cat_db **dbs, size_t *n, db_error *err)
{
    (void)ctx;
    (void)err;
    plan_cat_db *d = arena_calloc(a, 2, sizeof *d);
    d[0] = (plan_cat_db){"information_schema", "utf8", "utf8_general_ci"};
    d[1] = (plan_cat_db){"mysql", "utf8mb4", "utf8mb4_general_ci"};
    *dbs = d;
    *n = 2;
    return DB_OK;
}

static int
bi_tables(void *ctx, arena *a, const char *db, plan_cat_table **tbls, size_t *n, db_error *err)
{
    (void)ctx;
    (void)err;
    *tbls = NULL;
    *n = 0;
    if (strcasecmp(db, "information_schema") != 0) {
        return DB_OK;
    }
    size_t nt = plan__vtable_count();
    plan_cat_table *t = arena_calloc(a, nt, sizeof *t);
    for (size_t i = 0; i < nt; i++) {
        t[i].name = vtables[i].name;
        t[i].type = "SYSTEM VIEW";
        t[i].engine = "MEMORY";
        t[i].comment = "";
        t[i].collation = "utf8_general_ci";
    }
    *tbls = t;
    *n = nt;
    return DB_OK;
}

/* information_schema's own columns, described as MySQL 5.7 does (utf8, 3 bytes a character). */
static int
bi_columns(void *ctx, arena *a, const char *db, const char *table, plan_cat_column **cols,
           size_t *n, db_error *err)
{
    (void)ctx;
    (void)err;
    *cols = NULL;
    *n = 0;
    const plan_vtable *vt =
            strcasecmp(db, "information_schema") == 0 ? plan__vtable_find(table) : NULL;
    if (!vt) {
        return DB_OK;
    }
    plan_cat_column *cs = arena_calloc(a, vt->ncols, sizeof *cs);
    for (uint32_t i = 0; i < vt->ncols; i++) {
        const plan_vcol *v = &vt->cols[i];
        plan_cat_column *c = &cs[i];
        c->name = v->name;
        c->nullable = v->nullable;
        c->key = "";
        c->extra = "";
        c->comment = "";
        switch (v->kind) {
        case PLAN_VC_VARCHAR:
        case PLAN_VC_LONGTEXT:
            c->data_type = v->kind == PLAN_VC_VARCHAR ? "varchar" : "longtext";
            c->column_type = v->kind == PLAN_VC_VARCHAR ? arena_sprintf(a, "varchar(%u)", v->len)
                                                        : "longtext";
            c->has_char_len = true;
            c->char_max_len = v->kind == PLAN_VC_VARCHAR ? v->len : 4294967295u;
            c->char_octet_len = v->kind == PLAN_VC_VARCHAR ? (uint64_t)v->len * 3 : 4294967295u;
            c->charset = "utf8";
            c->collation = "utf8_general_ci";
            c->default_value = v->nullable || v->kind == PLAN_VC_LONGTEXT ? NULL : "";
            break;
        case PLAN_VC_BIGINT:
        case PLAN_VC_BOOLEAN:
            c->data_type = v->kind == PLAN_VC_BIGINT ? "bigint" : "tinyint";
            c->column_type = v->kind == PLAN_VC_BOOLEAN
                                     ? "tinyint(1)"
                                     : arena_sprintf(a, "bigint(%u)%s", v->len,
                                                     v->is_unsigned ? " unsigned" : "");
            c->has_num = true;
            c->num_precision = v->kind == PLAN_VC_BOOLEAN ? 3 : (v->is_unsigned ? 20 : 19);
            c->num_scale = 0;
            c->default_value = v->nullable ? NULL : "0";
            break;
        case PLAN_VC_DATETIME:
            c->data_type = "datetime";
            c->column_type = "datetime";
            c->has_dt_prec = true;
            c->dt_precision = 0;
            c->default_value = NULL;
            break;
        }
    }
    *cols = cs;
    *n = vt->ncols;
    return DB_OK;
}

static int
bi_streams(void *ctx, arena *a, plan_cat_stream **st, size_t *n, db_error *err)
{
    (void)ctx;
    (void)a;
    (void)err;
    *st = NULL;
    *n = 0;
    return DB_OK;
}

static int
bi_stream_units(void *ctx, arena *a, plan_cat_stream_unit **u, size_t *n, db_error *err)
{
    (void)ctx;
    (void)a;
    (void)err;
    *u = NULL;
    *n = 0;
    return DB_OK;
}

/* MySQL 5.7's global privileges of root. */
static int
bi_user_privileges(void *ctx, arena *a, const char *user, const char *host, plan_cat_priv **p,
                   size_t *n, db_error *err)
{
    (void)ctx;
    (void)err;
    (void)host;
    static const char *const privs[] = {"SELECT",
                                        "INSERT",
                                        "UPDATE",
                                        "DELETE",
                                        "CREATE",
                                        "DROP",
                                        "RELOAD",
                                        "SHUTDOWN",
                                        "PROCESS",
                                        "FILE",
                                        "REFERENCES",
                                        "INDEX",
                                        "ALTER",
                                        "SHOW DATABASES",
                                        "SUPER",
                                        "CREATE TEMPORARY TABLES",
                                        "LOCK TABLES",
                                        "EXECUTE",
                                        "REPLICATION SLAVE",
                                        "REPLICATION CLIENT",
                                        "CREATE VIEW",
                                        "SHOW VIEW",
                                        "CREATE ROUTINE",
                                        "ALTER ROUTINE",
                                        "CREATE USER",
                                        "EVENT",
                                        "TRIGGER",
                                        "CREATE TABLESPACE"};
    size_t np = sizeof privs / sizeof privs[0];
    plan_cat_priv *out = arena_calloc(a, np, sizeof *out);
    /* The account is user@'%' (CURRENT_USER()), as long as there are no accounts. */
    const char *grantee = arena_sprintf(a, "'%s'@'%%'", user ? user : "");
    for (size_t i = 0; i < np; i++) {
        out[i].grantee = grantee;
        out[i].privilege = privs[i];
        out[i].grantable = true;
    }
    *p = out;
    *n = np;
    return DB_OK;
}
