/* SPDX-License-Identifier: Apache-2.0
 * Tables, the storage side: the schema copy taken from the catalog (stor_schema_from_table), the
 * memcomparable encoding of one row's columns (stor_key_encode_row, used for primary keys and
 * for bucket hashing), the bucket of a row (stor_bucket_of: XXH3-64 of that encoding, an
 * on-disk layout decision) and time-travel restriction of a tablet snapshot
 * (stor_snapshot_as_of). See README.md §"Tables: schema, keys, buckets, scans". */
#include "storage/stor_int.h"

#define XXH_INLINE_ALL /* header-only, as stor_page.c */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/mem.h"

/* ---- schema ---- */

/* Index of the column named name (case-insensitive, as Doris column names), or -1. */
static int32_t
find_col(const cat_table *t, const char *name)
{
    if (name == NULL) {
        return -1;
    }
    for (size_t i = 0; i < t->ncols; i++) {
        if (t->cols[i].name != NULL && strcasecmp(t->cols[i].name, name) == 0) {
            return (int32_t)i;
        }
    }
    return -1;
}

int
stor_schema_from_table(const cat_table *t, arena *a, stor_schema *out, db_error *err)
{
    memset(out, 0, sizeof *out);
    out->table_id = t->id;
    out->keys = t->keys;
    out->mow = t->mow;
    out->ncols = (uint32_t)t->ncols;
    out->nkeys = (uint32_t)t->nkeys;
    out->cols = arena_calloc(a, t->ncols == 0 ? 1 : t->ncols, sizeof *out->cols);
    out->aggs = arena_calloc(a, t->ncols == 0 ? 1 : t->ncols, sizeof *out->aggs);
    for (size_t i = 0; i < t->ncols; i++) {
        const cat_column *c = &t->cols[i];
        if (stor_vec_kind_of(&c->type) == 0) {
            return db_error_set(err, ER_STOR_BAD_COLUMN, (unsigned)i, (unsigned)c->uid,
                                "type cannot be stored");
        }
        out->cols[i] = (stor_column_desc){
                .uid = (uint32_t)c->uid,
                .type = c->type,
                .is_key = c->is_key,
                .nullable = c->nullable,
        };
        out->aggs[i] = c->agg;
    }
    out->seq_col = find_col(t, cat_props_get(&t->props, "function_column.sequence_col"));
    if (out->seq_col < 0) {
        out->seq_col = find_col(t, CAT_COL_SEQUENCE);
    }
    out->delete_sign_col = find_col(t, CAT_COL_DELETE_SIGN);
    out->binlog_row = cat_binlog_is_row(&t->binlog);
    out->binlog_history = out->binlog_row && t->binlog.need_historical_value;
    return DB_OK;
}

/* ---- key encoding ---- */

/* Proleptic Gregorian civil date of days since 1970-01-01 (H. Hinnant's civil_from_days). */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;                                      /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                                    /* [0, 11] */
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* Days of 0000-01-01 and 9999-12-31 since 1970-01-01: the DATE range of Doris. */
#define DAYS_MIN (-719528)
#define DAYS_MAX 2932896
#define US_DAY   86400000000LL

static void
put_days(buf *out, int64_t days)
{
    /* Values outside Doris's range cannot come from the planner; clamp rather than assert so
     * bad data cannot crash the server (ordering is kept). */
    days = days < DAYS_MIN ? DAYS_MIN : days > DAYS_MAX ? DAYS_MAX : days;
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    stor_key_put_date(out, (int)y, m, d);
}

static void
put_micros(buf *out, int64_t us)
{
    int64_t days = us >= 0 ? us / US_DAY : -((-us + US_DAY - 1) / US_DAY);
    int64_t rem = us - days * US_DAY; /* [0, US_DAY) */
    if (days < DAYS_MIN) {
        days = DAYS_MIN;
        rem = 0;
    } else if (days > DAYS_MAX) {
        days = DAYS_MAX;
        rem = US_DAY - 1;
    }
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    int64_t secs = rem / 1000000;
    stor_key_put_datetime(out, (int)y, m, d, (int)(secs / 3600), (int)(secs / 60 % 60),
                          (int)(secs % 60), (int)(rem % 1000000));
}

/* Order-preserving image of a double as a signed integer (README §Key encoding): -0.0 becomes
 * +0.0 and every NaN the positive quiet NaN (after +inf); non-negative values keep their bits,
 * negative ones flip the 63 low bits so that a larger magnitude sorts lower. */
int64_t
stor__double_key(double v)
{
    if (v == 0) {
        v = 0.0;
    } else if (isnan(v)) {
        v = NAN;
    }
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (isnan(v)) {
        bits = 0x7FF8000000000000ull;
    }
    int64_t s = (int64_t)bits;
    return s >= 0 ? s : s ^ INT64_MAX;
}

void
stor_key_encode_row(const stor_schema *sc, const stor_vec *cols, const uint32_t *idx, uint32_t n,
                    uint32_t r, buf *out)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = idx[k];
        DB_ASSERT(c < sc->ncols);
        const stor_vec *v = &cols[c];
        const cat_type *ty = &sc->cols[c].type;
        if (stor_vec_is_null(v, r)) {
            stor_key_put_null(out);
            continue;
        }
        switch ((cat_type_id)ty->id) {
        case CAT_T_BOOLEAN:
        case CAT_T_TINYINT:
        case CAT_T_SMALLINT:
        case CAT_T_INT:
        case CAT_T_BIGINT:
            stor_key_put_int(out, v->i64[r]);
            break;
        case CAT_T_DATE:
            put_days(out, v->i64[r]);
            break;
        case CAT_T_DATETIME:
            put_micros(out, v->i64[r]);
            break;
        case CAT_T_FLOAT:
        case CAT_T_DOUBLE:
            stor_key_put_int(out, stor__double_key(v->f64[r]));
            break;
        case CAT_T_DECIMAL:
            if (ty->precision <= 18) {
                stor_key_put_decimal(out, (int64_t)v->i128[r]);
                break;
            }
            /* fall through */
        case CAT_T_LARGEINT: {
            unsigned __int128 u = (unsigned __int128)v->i128[r];
            stor_key_put_int128(out, (int64_t)(uint64_t)(u >> 64), (uint64_t)u);
            break;
        }
        case CAT_T_CHAR:
        case CAT_T_VARCHAR:
        case CAT_T_STRING:
            stor_key_put_string(out, v->data + v->offs[r], (size_t)(v->offs[r + 1] - v->offs[r]));
            break;
        default:
            DB_ASSERT(!"column type cannot be a key"); /* stor_schema_from_table rejects it */
            stor_key_put_null(out);
            break;
        }
    }
}

uint32_t
stor_bucket_of(const stor_schema *sc, const stor_vec *cols, const uint32_t *dist, uint32_t ndist,
               uint32_t r, uint32_t nbuckets)
{
    DB_ASSERT(nbuckets >= 1);
    buf b;
    buf_init(&b);
    stor_key_encode_row(sc, cols, dist, ndist, r, &b);
    uint64_t h = XXH3_64bits(b.data, b.len);
    buf_destroy(&b);
    return (uint32_t)(h % nbuckets);
}

/* ---- time travel ---- */

int
stor_snapshot_as_of(stor_snapshot *snap, uint64_t tso, db_error *err)
{
    uint64_t version = 0;
    if (snap->nvtso > 0) {
        for (size_t v = 0; v < snap->nvtso && v < snap->version; v++) {
            if (snap->vtso[v] <= tso) {
                version = v + 1;
            }
        }
    } else {
        for (size_t i = 0; i < snap->nrowsets; i++) {
            if (snap->rowsets[i].commit_tso <= tso && snap->rowsets[i].version > version) {
                version = snap->rowsets[i].version;
            }
        }
    }
    if (snap->floor > 0 && version < snap->floor) {
        /* The rowsets of that version were merged into one whose rows are those live at the
         * floor: reading them at an older version would be wrong. */
        return db_error_set(err, ER_STOR_VERSION_COMPACTED, (unsigned long long)snap->floor);
    }
    size_t keep = 0;
    for (size_t i = 0; i < snap->nrowsets; i++) {
        stor_rowset_meta *m = &snap->rowsets[i];
        if (m->version > version) {
            for (uint32_t k = 0; k < m->nsegments; k++) {
                mem_free(m->segments[k]);
            }
            mem_free(m->segments);
            continue;
        }
        snap->rowsets[keep++] = *m;
    }
    snap->nrowsets = keep;
    snap->version = version;
    return DB_OK;
}
