/* SPDX-License-Identifier: Apache-2.0
 * proto_binary.c: the binary protocol of prepared statements. COM_STMT_PREPARE_OK,
 * COM_STMT_EXECUTE parameter decoding (null bitmap, remembered types, long data), the small
 * COM_STMT_* payloads, and binary result rows. See README.md §Formats (prepared statements). */
#include "protocol/proto_int.h"

#include <string.h>

static int malformed(db_error *err);
static bool get_temporal(proto_cursor *c, proto_param *v);
static bool get_value(proto_cursor *c, proto_param *v);

static int
malformed(db_error *err)
{
    return db_error_set(err, ER_MALFORMED_PACKET);
}

void
proto_stmt_prepare_ok_write(buf *out, uint32_t stmt_id, uint16_t ncols, uint16_t nparams,
                            uint16_t warnings)
{
    buf_put_u8(out, 0x00);
    buf_put_u32le(out, stmt_id);
    buf_put_u16le(out, ncols);
    buf_put_u16le(out, nparams);
    buf_put_u8(out, 0x00);
    buf_put_u16le(out, warnings);
}

int
proto_stmt_execute_head(const uint8_t *p, size_t len, uint32_t *stmt_id, uint8_t *flags,
                        db_error *err)
{
    proto_cursor c;
    uint32_t iterations;
    proto_cursor_init(&c, p, len);
    if (!proto_get_u32(&c, stmt_id) || !proto_get_u8(&c, flags) ||
        !proto_get_u32(&c, &iterations)) {
        return malformed(err);
    }
    return DB_OK;
}

/* DATE/DATETIME/TIMESTAMP (length 0, 4, 7, 11) and TIME (length 0, 8, 12). */
static bool
get_temporal(proto_cursor *c, proto_param *v)
{
    uint8_t n;
    const uint8_t *b;
    if (!proto_get_u8(c, &n) || !proto_get_bytes(c, n, &b)) {
        return false;
    }
    memset(&v->t, 0, sizeof v->t);
    if (v->type == PROTO_TYPE_TIME) {
        if (n != 0 && n != 8 && n != 12) {
            return false;
        }
        if (n >= 8) {
            v->t.neg = b[0] != 0;
            v->t.days = (uint32_t)b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16 |
                        (uint32_t)b[4] << 24;
            v->t.hour = b[5];
            v->t.minute = b[6];
            v->t.second = b[7];
        }
        if (n == 12) {
            v->t.micro = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 |
                         (uint32_t)b[11] << 24;
        }
        return true;
    }
    if (n != 0 && n != 4 && n != 7 && n != 11) {
        return false;
    }
    if (n >= 4) {
        v->t.year = (uint32_t)b[0] | (uint32_t)b[1] << 8;
        v->t.month = b[2];
        v->t.day = b[3];
    }
    if (n >= 7) {
        v->t.hour = b[4];
        v->t.minute = b[5];
        v->t.second = b[6];
    }
    if (n == 11) {
        v->t.micro =
                (uint32_t)b[7] | (uint32_t)b[8] << 8 | (uint32_t)b[9] << 16 | (uint32_t)b[10] << 24;
    }
    return true;
}

/* One non-NULL value of type v->type from the payload. */
static bool
get_value(proto_cursor *c, proto_param *v)
{
    switch (v->type) {
    case PROTO_TYPE_TINY: {
        uint8_t x;
        if (!proto_get_u8(c, &x)) {
            return false;
        }
        v->u = x;
        v->i = (int8_t)x;
        return true;
    }
    case PROTO_TYPE_SHORT:
    case PROTO_TYPE_YEAR: {
        uint16_t x;
        if (!proto_get_u16(c, &x)) {
            return false;
        }
        v->u = x;
        v->i = (int16_t)x;
        return true;
    }
    case PROTO_TYPE_LONG:
    case PROTO_TYPE_INT24: {
        uint32_t x;
        if (!proto_get_u32(c, &x)) {
            return false;
        }
        v->u = x;
        v->i = (int32_t)x;
        return true;
    }
    case PROTO_TYPE_LONGLONG: {
        uint64_t x;
        if (!proto_get_u64(c, &x)) {
            return false;
        }
        v->u = x;
        v->i = (int64_t)x;
        return true;
    }
    case PROTO_TYPE_FLOAT: {
        uint32_t x;
        float f;
        if (!proto_get_u32(c, &x)) {
            return false;
        }
        memcpy(&f, &x, sizeof f);
        v->d = f;
        return true;
    }
    case PROTO_TYPE_DOUBLE: {
        uint64_t x;
        if (!proto_get_u64(c, &x)) {
            return false;
        }
        memcpy(&v->d, &x, sizeof v->d);
        return true;
    }
    case PROTO_TYPE_DATE:
    case PROTO_TYPE_DATETIME:
    case PROTO_TYPE_TIMESTAMP:
    case PROTO_TYPE_TIME:
        return get_temporal(c, v);
    case PROTO_TYPE_NULL:
        v->is_null = true;
        return true;
    default:
        return proto_get_lenenc_str(c, &v->s, &v->len);
    }
}

int
proto_stmt_execute_params(const uint8_t *p, size_t len, uint16_t nparams, uint8_t *types,
                          bool *has_types, const buf *const *long_data, proto_param *out,
                          db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    const uint8_t *skip;
    if (!proto_get_bytes(&c, 9, &skip)) {
        return malformed(err);
    }
    if (nparams == 0) {
        return DB_OK;
    }
    const uint8_t *nullmap, *tb;
    uint8_t bound;
    size_t nbytes = ((size_t)nparams + 7) / 8;
    if (!proto_get_bytes(&c, nbytes, &nullmap) || !proto_get_u8(&c, &bound)) {
        return malformed(err);
    }
    if (bound == 1) {
        if (!proto_get_bytes(&c, 2 * (size_t)nparams, &tb)) {
            return malformed(err);
        }
        memcpy(types, tb, 2 * (size_t)nparams);
        *has_types = true;
    } else if (bound != 0 || !*has_types) {
        return malformed(err);
    }
    for (uint16_t i = 0; i < nparams; i++) {
        proto_param *v = &out[i];
        memset(v, 0, sizeof *v);
        v->type = types[2 * i];
        v->is_unsigned = (types[2 * i + 1] & 0x80) != 0;
        if (nullmap[i / 8] & (1u << (i % 8))) {
            v->is_null = true;
            continue;
        }
        if (long_data != NULL && long_data[i] != NULL) {
            v->s = long_data[i]->data ? long_data[i]->data : (const uint8_t *)"";
            v->len = long_data[i]->len;
            if (v->type != PROTO_TYPE_BLOB && v->type != PROTO_TYPE_VAR_STRING &&
                v->type != PROTO_TYPE_STRING && v->type != PROTO_TYPE_VARCHAR) {
                v->type = PROTO_TYPE_BLOB;
            }
            continue;
        }
        if (!get_value(&c, v)) {
            return malformed(err);
        }
    }
    return DB_OK;
}

int
proto_stmt_long_data_parse(const uint8_t *p, size_t len, uint32_t *stmt_id, uint16_t *param,
                           const uint8_t **data, size_t *data_len, db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    if (!proto_get_u32(&c, stmt_id) || !proto_get_u16(&c, param)) {
        return malformed(err);
    }
    proto_get_rest(&c, data, data_len);
    return DB_OK;
}

int
proto_stmt_id_parse(const uint8_t *p, size_t len, uint32_t *stmt_id, db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    if (!proto_get_u32(&c, stmt_id)) {
        return malformed(err);
    }
    return DB_OK;
}

/* ---- binary rows ---- */

size_t
proto_binrow_begin(buf *out, size_t ncols)
{
    buf_put_u8(out, 0x00);
    size_t at = out->len;
    buf_put_zeros(out, (ncols + 7 + 2) / 8);
    return at;
}

void
proto_binrow_set_null(buf *out, size_t bitmap_at, size_t col)
{
    size_t bit = col + 2; /* the first two bits are reserved in result rows */
    out->data[bitmap_at + bit / 8] |= (uint8_t)(1u << (bit % 8));
}

void
proto_binrow_put_int(buf *out, uint8_t type, uint64_t v)
{
    switch (type) {
    case PROTO_TYPE_TINY:
        buf_put_u8(out, (uint8_t)v);
        break;
    case PROTO_TYPE_SHORT:
    case PROTO_TYPE_YEAR:
        buf_put_u16le(out, (uint16_t)v);
        break;
    case PROTO_TYPE_LONG:
    case PROTO_TYPE_INT24:
        buf_put_u32le(out, (uint32_t)v);
        break;
    default:
        buf_put_u64le(out, v);
        break;
    }
}

void
proto_binrow_put_float(buf *out, float v)
{
    uint32_t x;
    memcpy(&x, &v, sizeof x);
    buf_put_u32le(out, x);
}

void
proto_binrow_put_double(buf *out, double v)
{
    uint64_t x;
    memcpy(&x, &v, sizeof x);
    buf_put_u64le(out, x);
}

void
proto_binrow_put_datetime(buf *out, uint32_t year, uint32_t month, uint32_t day, uint32_t hour,
                          uint32_t minute, uint32_t second, uint32_t micro)
{
    if (year == 0 && month == 0 && day == 0 && hour == 0 && minute == 0 && second == 0 &&
        micro == 0) {
        buf_put_u8(out, 0);
        return;
    }
    uint8_t n = micro ? 11 : (hour || minute || second) ? 7 : 4;
    buf_put_u8(out, n);
    buf_put_u16le(out, (uint16_t)year);
    buf_put_u8(out, (uint8_t)month);
    buf_put_u8(out, (uint8_t)day);
    if (n >= 7) {
        buf_put_u8(out, (uint8_t)hour);
        buf_put_u8(out, (uint8_t)minute);
        buf_put_u8(out, (uint8_t)second);
    }
    if (n == 11) {
        buf_put_u32le(out, micro);
    }
}

void
proto_binrow_put_time(buf *out, bool neg, uint32_t days, uint32_t hour, uint32_t minute,
                      uint32_t second, uint32_t micro)
{
    if (days == 0 && hour == 0 && minute == 0 && second == 0 && micro == 0) {
        buf_put_u8(out, 0);
        return;
    }
    uint8_t n = micro ? 12 : 8;
    buf_put_u8(out, n);
    buf_put_u8(out, neg ? 1 : 0);
    buf_put_u32le(out, days);
    buf_put_u8(out, (uint8_t)hour);
    buf_put_u8(out, (uint8_t)minute);
    buf_put_u8(out, (uint8_t)second);
    if (n == 12) {
        buf_put_u32le(out, micro);
    }
}

void
proto_binrow_put_str(buf *out, const void *s, size_t len)
{
    proto_lenenc_str_put(out, s, len);
}
