/* SPDX-License-Identifier: Apache-2.0
 * proto_response.c: what the server answers in the command phase (OK, ERR, classic EOF,
 * ColumnDefinition41, text rows), the parsers of OK / ERR / EOF used by tests and tools, and the
 * payload parsers of the small COM_* commands. See README.md §Formats. */
#include "protocol/proto_int.h"

#include <string.h>

#include "common/db_error.h"

#define OK_HEADER          0x00
#define EOF_HEADER         0xFE
#define ERR_HEADER         0xFF
#define EOF_PACKET_LEN     5 /* classic EOF: header, warnings, status */
#define SQLSTATE_LEN       5
#define COLUMN_FIXED_LEN   0x0C /* ColumnDefinition41: bytes after the names */
#define DEFAULT_SQLSTATE   "HY000"
#define CATALOG_NAME       "def"
#define UNKNOWN_ERROR_CODE 1105

static void put_lenenc_cstr(buf *out, const char *s);
static bool is_sqlstate_valid(const char *s);
static int ok_parse(const uint8_t *p, size_t len, arena *a, proto_ok *out, db_error *err);

/* ---- OK / ERR / EOF ---- */

void
proto_ok_write(buf *out, const proto_ok *ok, uint32_t caps)
{
    buf_put_u8(out, ok->is_eof ? EOF_HEADER : OK_HEADER);
    proto_lenenc_int_put(out, ok->affected_rows);
    proto_lenenc_int_put(out, ok->last_insert_id);
    if (caps & PROTO_CLIENT_PROTOCOL_41) {
        buf_put_u16le(out, ok->status);
        buf_put_u16le(out, ok->warnings);
    } else if (caps & PROTO_CLIENT_TRANSACTIONS) {
        buf_put_u16le(out, ok->status);
    }
    /* The info text is a length-encoded string, as MySQL's net_send_ok writes it; libmariadb
     * reads it that way and rejects a bare string (2027 malformed packet). */
    if (ok->info != NULL && ok->info[0] != '\0') {
        proto_lenenc_str_put(out, ok->info, strlen(ok->info));
    }
}

/* True when s holds five characters before its NUL. */
static bool
is_sqlstate_valid(const char *s)
{
    return strnlen(s, SQLSTATE_LEN + 1) == SQLSTATE_LEN;
}

void
proto_err_write(buf *out, const db_error *e)
{
    /* I5: a client must never see code 0 or a short SQLSTATE; both would be a caller bug, but
     * the connection survives it with the generic 1105 / HY000. */
    buf_put_u8(out, ERR_HEADER);
    buf_put_u16le(out, e->code > 0 && e->code <= 0xFFFF ? (uint16_t)e->code : UNKNOWN_ERROR_CODE);
    buf_put_u8(out, '#');
    buf_append(out, is_sqlstate_valid(e->sqlstate) ? e->sqlstate : DEFAULT_SQLSTATE, SQLSTATE_LEN);
    buf_append(out, e->msg, strnlen(e->msg, sizeof e->msg));
}

void
proto_eof_write(buf *out, uint16_t warnings, uint16_t status)
{
    buf_put_u8(out, EOF_HEADER);
    buf_put_u16le(out, warnings);
    buf_put_u16le(out, status);
}

/* Shared by proto_ok_parse (a == NULL: info not returned) and proto_ok_parse_info. */
static int
ok_parse(const uint8_t *p, size_t len, arena *a, proto_ok *out, db_error *err)
{
    memset(out, 0, sizeof *out);
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    uint8_t header;
    if (!proto_get_u8(&c, &header) || (header != OK_HEADER && header != EOF_HEADER)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    if (!proto_get_lenenc_int(&c, &out->affected_rows, NULL) ||
        !proto_get_lenenc_int(&c, &out->last_insert_id, NULL) || !proto_get_u16(&c, &out->status) ||
        !proto_get_u16(&c, &out->warnings)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    out->is_eof = header == EOF_HEADER;
    const uint8_t *info = NULL;
    size_t info_len = 0;
    if (proto_cursor_left(&c) > 0 && !proto_get_lenenc_str(&c, &info, &info_len)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    if (a != NULL && info_len > 0) {
        out->info = arena_strndup(a, (const char *)info, info_len);
    }
    return DB_OK;
}

int
proto_ok_parse(const uint8_t *p, size_t len, proto_ok *out, db_error *err)
{
    return ok_parse(p, len, NULL, out, err);
}

int
proto_ok_parse_info(const uint8_t *p, size_t len, arena *a, proto_ok *out, db_error *err)
{
    DB_ASSERT(a != NULL);
    return ok_parse(p, len, a, out, err);
}

int
proto_eof_parse(const uint8_t *p, size_t len, uint16_t *warnings, uint16_t *status, db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    uint8_t header;
    if (len != EOF_PACKET_LEN || !proto_get_u8(&c, &header) || header != EOF_HEADER ||
        !proto_get_u16(&c, warnings) || !proto_get_u16(&c, status)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    return DB_OK;
}

int
proto_err_parse(const uint8_t *p, size_t len, db_error *out)
{
    db_error_clear(out);
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    uint8_t header;
    uint16_t code;
    if (!proto_get_u8(&c, &header) || header != ERR_HEADER || !proto_get_u16(&c, &code)) {
        return db_error_replace(out, ER_MALFORMED_PACKET);
    }
    memcpy(out->sqlstate, DEFAULT_SQLSTATE, sizeof out->sqlstate);
    /* The '#' marker and SQLSTATE are there under PROTOCOL_41; older servers omit both. */
    if (proto_cursor_left(&c) > 0 && c.p[0] == '#') {
        const uint8_t *state;
        if (!proto_get_bytes(&c, 1 + SQLSTATE_LEN, &state)) {
            return db_error_replace(out, ER_MALFORMED_PACKET);
        }
        memcpy(out->sqlstate, state + 1, SQLSTATE_LEN);
        out->sqlstate[SQLSTATE_LEN] = '\0';
    }
    const uint8_t *msg;
    size_t msg_len;
    proto_get_rest(&c, &msg, &msg_len);
    if (msg_len > sizeof out->msg - 1) {
        msg_len = sizeof out->msg - 1;
    }
    if (msg_len > 0) {
        memcpy(out->msg, msg, msg_len);
    }
    out->msg[msg_len] = '\0';
    out->code = code;
    return DB_OK;
}

/* ---- result sets ---- */

/* A lenenc string from a C string; NULL is sent empty. */
static void
put_lenenc_cstr(buf *out, const char *s)
{
    if (s == NULL) {
        s = "";
    }
    proto_lenenc_str_put(out, s, strlen(s));
}

void
proto_column_write(buf *out, const proto_column *c, bool with_default)
{
    put_lenenc_cstr(out, CATALOG_NAME);
    put_lenenc_cstr(out, c->schema);
    put_lenenc_cstr(out, c->table);
    put_lenenc_cstr(out, c->org_table);
    put_lenenc_cstr(out, c->name);
    put_lenenc_cstr(out, c->org_name);
    proto_lenenc_int_put(out, COLUMN_FIXED_LEN);
    buf_put_u16le(out, c->charset);
    buf_put_u32le(out, c->length);
    buf_put_u8(out, c->type);
    buf_put_u16le(out, c->flags);
    buf_put_u8(out, c->decimals);
    buf_put_zeros(out, 2);
    if (with_default) {
        proto_lenenc_int_put(out, 0); /* empty default value */
    }
}

void
proto_row_put_text(buf *out, const void *s, size_t len)
{
    proto_lenenc_str_put(out, s, len);
}

void
proto_row_put_null(buf *out)
{
    buf_put_u8(out, PROTO_NULL_LENENC);
}

/* ---- command payloads ---- */

int
proto_field_list_parse(const uint8_t *p, size_t len, arena *a, const char **table,
                       const char **wildcard, db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    const char *name;
    if (!proto__get_nulstr_dup(&c, a, false, &name)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    /* The wildcard runs to the end of the packet; a trailing NUL, if any, is not part of it. */
    const uint8_t *rest;
    size_t rest_len;
    proto_get_rest(&c, &rest, &rest_len);
    const uint8_t *nul = rest_len > 0 ? memchr(rest, 0, rest_len) : NULL;
    if (nul != NULL) {
        rest_len = (size_t)(nul - rest);
    }
    *table = name;
    *wildcard = rest_len > 0 ? arena_strndup(a, (const char *)rest, rest_len) : NULL;
    return DB_OK;
}

int
proto_process_kill_parse(const uint8_t *p, size_t len, uint32_t *id, db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    if (!proto_get_u32(&c, id)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    return DB_OK;
}

int
proto_set_option_parse(const uint8_t *p, size_t len, uint16_t *option, db_error *err)
{
    proto_cursor c;
    proto_cursor_init(&c, p, len);
    if (!proto_get_u16(&c, option)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    return DB_OK;
}
