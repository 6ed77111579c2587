/* SPDX-License-Identifier: Apache-2.0
 * fuzz_packet: libFuzzer harness for the protocol decoders. Arbitrary bytes go to the packet
 * framer, the handshake response and COM_CHANGE_USER parsers, the small COM_* payload parsers,
 * the OK / ERR / EOF parsers and a byte-driven walk over every cursor getter. Besides "no crash,
 * no sanitizer report", it checks a few properties and aborts when one breaks. Built and run by
 * tests/fuzz/run.sh (make fuzz). See protocol/README.md §Tests.
 * FUZZ_SOURCES: common protocol */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "protocol/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_framing(const uint8_t *data, size_t size, size_t max_len);
static void fuzz_handshake(const uint8_t *data, size_t size, arena *a);
static void fuzz_commands(const uint8_t *data, size_t size, arena *a);
static void fuzz_cursor(const uint8_t *data, size_t size);
static void check(bool cond);

/* A broken property is a bug: abort so libFuzzer saves the input. */
static void
check(bool cond)
{
    if (!cond) {
        abort();
    }
}

/* Take packets off the input until it runs out. Each extracted packet, written back, takes
 * exactly the bytes it was read from (the chunking is canonical). */
static void
fuzz_framing(const uint8_t *data, size_t size, size_t max_len)
{
    buf joined;
    buf again;
    buf_init(&joined);
    buf_init(&again);
    size_t off = 0;
    for (;;) {
        proto_packet pkt;
        size_t used = 0;
        db_error err = {0};
        int rc = proto_packet_next(data + off, size - off, max_len, &joined, &pkt, &used, &err);
        if (rc == DB_AGAIN) {
            check(err.code == 0);
            break;
        }
        if (rc == DB_ERR) {
            check(err.code == 1153);
            break;
        }
        check(rc == DB_OK && used >= 4 && used <= size - off && pkt.len <= max_len);
        uint8_t seq = data[off + 3];
        buf_clear(&again);
        proto_packet_write(&again, pkt.payload, pkt.len, &seq);
        check(again.len == used);
        off += used;
    }
    buf_destroy(&joined);
    buf_destroy(&again);
}

static void
fuzz_handshake(const uint8_t *data, size_t size, arena *a)
{
    proto_handshake_response r;
    db_error err = {0};
    int rc = proto_handshake_response_parse(data, size, a, &r, &err);
    check(rc == DB_OK || (rc == DB_ERR && (err.code == 1043 || err.code == 1251)));
    if (rc == DB_OK) {
        check(r.user != NULL && r.auth != NULL && r.auth_len <= size);
        check(r.database == NULL || r.database[0] != '\0');
        for (size_t i = 0; i < r.nattrs; i++) {
            check(r.attr_keys[i] != NULL && r.attr_values[i] != NULL);
        }
    }

    /* COM_CHANGE_USER under three capability sets: none, ours, and taken from the input. */
    uint32_t caps_in = 0;
    if (size >= 4) {
        memcpy(&caps_in, data, 4);
    }
    const uint32_t caps[] = {0, 0x003FA68Fu, caps_in};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        proto_change_user cu;
        db_error cerr = {0};
        rc = proto_change_user_parse(data, size, caps[i], a, &cu, &cerr);
        check(rc == DB_OK || (rc == DB_ERR && cerr.code == 1835));
        if (rc == DB_OK) {
            check(cu.user != NULL && cu.auth != NULL && cu.database != NULL);
        }
    }
}

static void
fuzz_commands(const uint8_t *data, size_t size, arena *a)
{
    db_error err = {0};
    const char *table;
    const char *wild;
    if (proto_field_list_parse(data, size, a, &table, &wild, &err) == DB_OK) {
        check(table != NULL && strlen(table) < size);
    }
    uint32_t id;
    uint16_t opt;
    check((proto_process_kill_parse(data, size, &id, &err) == DB_OK) == (size >= 4));
    check((proto_set_option_parse(data, size, &opt, &err) == DB_OK) == (size >= 2));

    /* COM_STMT_EXECUTE with the first byte choosing the parameter count; the decoded string
     * values must lie inside the payload. */
    if (size > 0) {
        uint16_t nparams = data[0] % 8;
        uint8_t types[16] = {0};
        bool has_types = (data[0] & 0x80) != 0;
        proto_param params[8];
        db_error_clear(&err);
        if (proto_stmt_execute_params(data + 1, size - 1, nparams, types, &has_types, NULL, params,
                                      &err) == DB_OK) {
            for (uint16_t i = 0; i < nparams; i++) {
                if (params[i].s != NULL && !params[i].is_null) {
                    check(params[i].s >= data + 1 && params[i].s + params[i].len <= data + size);
                }
            }
        } else {
            check(err.code == 1835);
        }
    }

    proto_ok ok;
    db_error_clear(&err);
    if (proto_ok_parse_info(data, size, a, &ok, &err) == DB_OK) {
        /* Written back with the PROTOCOL_41 layout, it parses to the same numbers. */
        buf b;
        buf_init(&b);
        proto_ok_write(&b, &ok, PROTO_CLIENT_PROTOCOL_41);
        proto_ok ok2;
        check(proto_ok_parse(b.data, b.len, &ok2, &err) == DB_OK);
        check(ok2.affected_rows == ok.affected_rows && ok2.last_insert_id == ok.last_insert_id &&
              ok2.status == ok.status && ok2.warnings == ok.warnings && ok2.is_eof == ok.is_eof);
        buf_destroy(&b);
    }
    db_error e;
    if (proto_err_parse(data, size, &e) == DB_OK) {
        check(strlen(e.msg) < sizeof e.msg && strlen(e.sqlstate) <= 5);
    } else {
        check(e.code == 1835);
    }
    uint16_t warnings;
    uint16_t status;
    db_error_clear(&err);
    (void)proto_eof_parse(data, size, &warnings, &status, &err);
}

/* The first byte picks the getter sequence; the rest is what they read. */
static void
fuzz_cursor(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return;
    }
    uint8_t program = data[0];
    proto_cursor c;
    proto_cursor_init(&c, data + 1, size - 1);
    for (int step = 0; proto_cursor_left(&c) > 0 && step < 256; step++) {
        size_t before = proto_cursor_left(&c);
        const uint8_t *s = NULL;
        size_t len = 0;
        uint64_t v = 0;
        uint32_t v32 = 0;
        uint16_t v16 = 0;
        uint8_t v8 = 0;
        bool is_null = false;
        bool is_ok = false;
        switch ((program + step) % 10) {
        case 0:
            is_ok = proto_get_u8(&c, &v8);
            break;
        case 1:
            is_ok = proto_get_u16(&c, &v16);
            break;
        case 2:
            is_ok = proto_get_u24(&c, &v32);
            break;
        case 3:
            is_ok = proto_get_u32(&c, &v32);
            break;
        case 4:
            is_ok = proto_get_u64(&c, &v);
            break;
        case 5:
            is_ok = proto_get_lenenc_int(&c, &v, (step & 1) ? &is_null : NULL);
            break;
        case 6:
            is_ok = proto_get_lenenc_str(&c, &s, &len);
            check(!is_ok || len <= before);
            break;
        case 7:
            is_ok = proto_get_nulstr(&c, &s, &len);
            check(!is_ok || len < before);
            break;
        case 8:
            is_ok = proto_get_bytes(&c, before / 2 + 1, &s);
            break;
        default:
            proto_get_rest(&c, &s, &len);
            is_ok = true;
            check(len == before);
            break;
        }
        /* A getter either consumes bytes or fails leaving the cursor where it was. */
        check(is_ok ? proto_cursor_left(&c) < before : proto_cursor_left(&c) == before);
        if (!is_ok) {
            proto_get_rest(&c, &s, &len);
        }
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    arena *a = arena_new(0);
    fuzz_framing(data, size, 1u << 20);
    fuzz_framing(data, size, 16);
    fuzz_handshake(data, size, a);
    fuzz_commands(data, size, a);
    fuzz_cursor(data, size);
    arena_free(a);
    return 0;
}
