/* SPDX-License-Identifier: Apache-2.0
 * protocol: the MySQL client/server wire codec. Packets (framing, 16 MiB split/join),
 * length-encoded integers and strings, the v10 handshake and its response, mysql_native_password
 * scrambles, OK / ERR / EOF packets, column definitions and text result rows, and the payload
 * parsers of the COM_* commands. It knows packets, not SQL, and depends on common/ only.
 * Nothing here does I/O: callers hand in bytes and get bytes back. All functions are pure with
 * respect to their arguments and may run on any thread. See protocol/README.md §Formats. */
#ifndef PROTOCOL_PROTOCOL_H
#define PROTOCOL_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"

/* ---- capability flags (CLIENT_*) ---- */
#define PROTO_CLIENT_LONG_PASSWORD                  0x00000001u /* "CLIENT_MYSQL" */
#define PROTO_CLIENT_FOUND_ROWS                     0x00000002u
#define PROTO_CLIENT_LONG_FLAG                      0x00000004u
#define PROTO_CLIENT_CONNECT_WITH_DB                0x00000008u
#define PROTO_CLIENT_NO_SCHEMA                      0x00000010u
#define PROTO_CLIENT_COMPRESS                       0x00000020u
#define PROTO_CLIENT_ODBC                           0x00000040u
#define PROTO_CLIENT_LOCAL_FILES                    0x00000080u
#define PROTO_CLIENT_IGNORE_SPACE                   0x00000100u
#define PROTO_CLIENT_PROTOCOL_41                    0x00000200u
#define PROTO_CLIENT_INTERACTIVE                    0x00000400u
#define PROTO_CLIENT_SSL                            0x00000800u
#define PROTO_CLIENT_IGNORE_SIGPIPE                 0x00001000u
#define PROTO_CLIENT_TRANSACTIONS                   0x00002000u
#define PROTO_CLIENT_RESERVED                       0x00004000u
#define PROTO_CLIENT_SECURE_CONNECTION              0x00008000u
#define PROTO_CLIENT_MULTI_STATEMENTS               0x00010000u
#define PROTO_CLIENT_MULTI_RESULTS                  0x00020000u
#define PROTO_CLIENT_PS_MULTI_RESULTS               0x00040000u
#define PROTO_CLIENT_PLUGIN_AUTH                    0x00080000u
#define PROTO_CLIENT_CONNECT_ATTRS                  0x00100000u
#define PROTO_CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA 0x00200000u
#define PROTO_CLIENT_CAN_HANDLE_EXPIRED_PASSWORDS   0x00400000u
#define PROTO_CLIENT_SESSION_TRACK                  0x00800000u
#define PROTO_CLIENT_DEPRECATE_EOF                  0x01000000u

/* ---- server status flags (SERVER_STATUS_*) ---- */
#define PROTO_STATUS_IN_TRANS             0x0001u
#define PROTO_STATUS_AUTOCOMMIT           0x0002u
#define PROTO_STATUS_MORE_RESULTS_EXISTS  0x0008u
#define PROTO_STATUS_NO_GOOD_INDEX_USED   0x0010u
#define PROTO_STATUS_NO_INDEX_USED        0x0020u
#define PROTO_STATUS_CURSOR_EXISTS        0x0040u
#define PROTO_STATUS_LAST_ROW_SENT        0x0080u
#define PROTO_STATUS_DB_DROPPED           0x0100u
#define PROTO_STATUS_NO_BACKSLASH_ESCAPES 0x0200u
#define PROTO_STATUS_QUERY_WAS_SLOW       0x0800u

/* ---- commands (COM_*) ---- */
enum {
    PROTO_COM_SLEEP = 0x00,
    PROTO_COM_QUIT = 0x01,
    PROTO_COM_INIT_DB = 0x02,
    PROTO_COM_QUERY = 0x03,
    PROTO_COM_FIELD_LIST = 0x04,
    PROTO_COM_CREATE_DB = 0x05,
    PROTO_COM_DROP_DB = 0x06,
    PROTO_COM_REFRESH = 0x07,
    PROTO_COM_SHUTDOWN = 0x08,
    PROTO_COM_STATISTICS = 0x09,
    PROTO_COM_PROCESS_INFO = 0x0a,
    PROTO_COM_CONNECT = 0x0b,
    PROTO_COM_PROCESS_KILL = 0x0c,
    PROTO_COM_DEBUG = 0x0d,
    PROTO_COM_PING = 0x0e,
    PROTO_COM_TIME = 0x0f,
    PROTO_COM_DELAYED_INSERT = 0x10,
    PROTO_COM_CHANGE_USER = 0x11,
    PROTO_COM_BINLOG_DUMP = 0x12,
    PROTO_COM_TABLE_DUMP = 0x13,
    PROTO_COM_CONNECT_OUT = 0x14,
    PROTO_COM_REGISTER_SLAVE = 0x15,
    PROTO_COM_STMT_PREPARE = 0x16,
    PROTO_COM_STMT_EXECUTE = 0x17,
    PROTO_COM_STMT_SEND_LONG_DATA = 0x18,
    PROTO_COM_STMT_CLOSE = 0x19,
    PROTO_COM_STMT_RESET = 0x1a,
    PROTO_COM_SET_OPTION = 0x1b,
    PROTO_COM_STMT_FETCH = 0x1c,
    PROTO_COM_DAEMON = 0x1d,
    PROTO_COM_BINLOG_DUMP_GTID = 0x1e,
    PROTO_COM_RESET_CONNECTION = 0x1f,
};

/* ---- column types (MYSQL_TYPE_*) ---- */
enum {
    PROTO_TYPE_DECIMAL = 0,
    PROTO_TYPE_TINY = 1,
    PROTO_TYPE_SHORT = 2,
    PROTO_TYPE_LONG = 3,
    PROTO_TYPE_FLOAT = 4,
    PROTO_TYPE_DOUBLE = 5,
    PROTO_TYPE_NULL = 6,
    PROTO_TYPE_TIMESTAMP = 7,
    PROTO_TYPE_LONGLONG = 8,
    PROTO_TYPE_INT24 = 9,
    PROTO_TYPE_DATE = 10,
    PROTO_TYPE_TIME = 11,
    PROTO_TYPE_DATETIME = 12,
    PROTO_TYPE_YEAR = 13,
    PROTO_TYPE_VARCHAR = 15,
    PROTO_TYPE_BIT = 16,
    PROTO_TYPE_JSON = 245,
    PROTO_TYPE_NEWDECIMAL = 246,
    PROTO_TYPE_BLOB = 252,
    PROTO_TYPE_VAR_STRING = 253,
    PROTO_TYPE_STRING = 254,
};

/* ---- column flags ---- */
#define PROTO_FLAG_NOT_NULL       0x0001u
#define PROTO_FLAG_PRI_KEY        0x0002u
#define PROTO_FLAG_UNIQUE_KEY     0x0004u
#define PROTO_FLAG_MULTIPLE_KEY   0x0008u
#define PROTO_FLAG_BLOB           0x0010u
#define PROTO_FLAG_UNSIGNED       0x0020u
#define PROTO_FLAG_ZEROFILL       0x0040u
#define PROTO_FLAG_BINARY         0x0080u
#define PROTO_FLAG_AUTO_INCREMENT 0x0200u
#define PROTO_FLAG_NUM            0x8000u

/* Charset / collation ids we use. */
#define PROTO_CHARSET_UTF8MB3_GENERAL_CI 33
#define PROTO_CHARSET_BINARY             63
#define PROTO_CHARSET_UTF8MB4_GENERAL_CI 45
#define PROTO_CHARSET_UTF8MB4_0900_AI_CI 255

#define PROTO_MAX_PACKET_CHUNK 0xFFFFFFu /* payload bytes in one physical packet */
#define PROTO_SCRAMBLE_LEN     20
#define PROTO_NULL_LENENC      0xFBu

/* ==== framing ==== */

/* One logical packet extracted from an input stream. payload points into the input when the
 * packet was one physical packet, or into `joined` (caller-owned, reused) when it was split. */
typedef struct proto_packet {
    const uint8_t *payload;
    size_t len;  /* payload bytes */
    uint8_t seq; /* sequence id of the LAST physical packet */
} proto_packet;

/* Extract the next logical packet from in[0..len). On DB_OK fills *out and *consumed (bytes of
 * `in` used, headers included). Split packets (chunks of exactly 0xFFFFFF bytes) are joined
 * into `joined` (cleared first). DB_AGAIN: not all bytes are there yet; nothing consumed.
 * DB_ERR: the logical payload exceeds max_len (ER_NET_PACKET_TOO_LARGE); the caller must send
 * that error and close. The sequence ids are returned, not checked. The size check uses the
 * headers alone, so an oversized packet fails as soon as its header arrives, before its body.
 * joined must not be NULL; out->payload is valid until in or joined changes. */
int proto_packet_next(const uint8_t *in, size_t len, size_t max_len, buf *joined, proto_packet *out,
                      size_t *consumed, db_error *err);

/* Append payload[0..len) to out as one logical packet: physical packets of at most 0xFFFFFF
 * bytes (plus an empty one when len is a multiple of 0xFFFFFF), sequence ids from *seq, which
 * is advanced (wrapping at 256). payload must not point into out. */
void proto_packet_write(buf *out, const uint8_t *payload, size_t len, uint8_t *seq);

/* In-place writing without a scratch copy: proto_packet_begin reserves a 4-byte header and
 * returns its offset in out; write the payload straight into out; proto_packet_end fills the
 * header(s), splitting in place when the payload reached 0xFFFFFF bytes. */
size_t proto_packet_begin(buf *out);
void proto_packet_end(buf *out, size_t begin, uint8_t *seq);

/* ==== length-encoded values ==== */

/* Append a length-encoded integer (1, 3, 4 or 9 bytes). */
void proto_lenenc_int_put(buf *out, uint64_t v);
/* Append a length-encoded string (length then bytes). */
void proto_lenenc_str_put(buf *out, const void *s, size_t len);
/* Bytes proto_lenenc_int_put would write for v. */
size_t proto_lenenc_int_size(uint64_t v);

/* A read cursor over a payload. Getters return false on truncation (cursor unchanged then). */
typedef struct proto_cursor {
    const uint8_t *p;
    const uint8_t *end;
} proto_cursor;

void proto_cursor_init(proto_cursor *c, const uint8_t *p, size_t len);
size_t proto_cursor_left(const proto_cursor *c);
bool proto_get_u8(proto_cursor *c, uint8_t *v);
bool proto_get_u16(proto_cursor *c, uint16_t *v);
bool proto_get_u24(proto_cursor *c, uint32_t *v);
bool proto_get_u32(proto_cursor *c, uint32_t *v);
bool proto_get_u64(proto_cursor *c, uint64_t *v);
/* Length-encoded integer. *is_null is set for 0xFB (may be NULL if the caller does not care;
 * 0xFB then fails). 0xFF fails. */
bool proto_get_lenenc_int(proto_cursor *c, uint64_t *v, bool *is_null);
/* Length-encoded string: *s points into the payload. */
bool proto_get_lenenc_str(proto_cursor *c, const uint8_t **s, size_t *len);
/* NUL-terminated string: *s points into the payload, *len excludes the NUL. */
bool proto_get_nulstr(proto_cursor *c, const uint8_t **s, size_t *len);
/* Exactly n bytes. */
bool proto_get_bytes(proto_cursor *c, size_t n, const uint8_t **s);
/* Everything left (EOF-terminated string). */
void proto_get_rest(proto_cursor *c, const uint8_t **s, size_t *len);

/* ==== handshake and authentication ==== */

/* The server greeting (Protocol::HandshakeV10). NULL server_version is sent empty, NULL
 * auth_plugin as "mysql_native_password"; the plugin name and auth-data length 21 are written
 * only when capabilities has PLUGIN_AUTH. */
typedef struct proto_greeting {
    const char *server_version; /* e.g. "5.7.99" */
    uint32_t connection_id;
    uint8_t scramble[PROTO_SCRAMBLE_LEN]; /* printable, no NUL bytes */
    uint32_t capabilities;                /* server capability flags */
    uint8_t charset;                      /* server default collation id */
    uint16_t status;                      /* status flags */
    const char *auth_plugin;              /* "mysql_native_password" */
} proto_greeting;

/* Append the greeting payload (no packet header) to out. */
void proto_greeting_write(buf *out, const proto_greeting *g);

/* A decoded HandshakeResponse41, or an SSLRequest when is_ssl_request. Strings are NUL-terminated
 * copies in the arena given to the parser. */
typedef struct proto_handshake_response {
    bool is_ssl_request;   /* 32-byte packet with CLIENT_SSL: TLS starts next */
    uint32_t capabilities; /* as sent by the client */
    uint32_t max_packet;   /* may be 0 (mysql2) */
    uint8_t charset;       /* collation id */
    const char *user;      /* "" when absent */
    const uint8_t *auth;   /* auth response bytes (arena copy) */
    size_t auth_len;
    const char *database;    /* NULL when CONNECT_WITH_DB is not set or empty */
    const char *auth_plugin; /* NULL when PLUGIN_AUTH is not set */
    size_t nattrs;           /* connect attributes (CONNECT_ATTRS) */
    const char **attr_keys;
    const char **attr_values;
} proto_handshake_response;

/* Parse a handshake response payload (all three auth-data encodings, optional db, plugin, attrs;
 * the 23 filler bytes are not checked). Pre-4.1 responses are refused (DB_ERR with
 * ER_NOT_SUPPORTED_AUTH_MODE, as MySQL answers such clients). DB_ERR with ER_HANDSHAKE_ERROR on
 * malformed input. Results live in a; auth is never NULL (auth_len 0 when absent). A packet that
 * ends early after the fixed part, the user, the auth data or the db yields the fields read so
 * far. */
int proto_handshake_response_parse(const uint8_t *p, size_t len, arena *a,
                                   proto_handshake_response *out, db_error *err);

/* A COM_CHANGE_USER payload. Strings are NUL-terminated arena copies. */
typedef struct proto_change_user {
    const char *user;
    const uint8_t *auth;
    size_t auth_len;
    const char *database;    /* "" when none */
    uint16_t charset;        /* 0 when absent */
    const char *auth_plugin; /* NULL when absent */
} proto_change_user;

/* Parse a COM_CHANGE_USER payload (command byte excluded); caps are the session's effective
 * capabilities. DB_ERR with ER_MALFORMED_PACKET on malformed input. The user is required; the
 * fields after it may be cut off at the end of the packet. Connect attributes are skipped. */
int proto_change_user_parse(const uint8_t *p, size_t len, uint32_t caps, arena *a,
                            proto_change_user *out, db_error *err);

/* Fill out with 20 random printable bytes (OpenSSL RAND_bytes, no NUL, no '$'). */
void proto_scramble_generate(uint8_t out[PROTO_SCRAMBLE_LEN]);
/* SHA1(SHA1(password)): the stored form of a mysql_native_password password. */
void proto_native_password_hash(const char *password, size_t len, uint8_t out[20]);
/* Client side: the token a client sends for password and scramble. */
void proto_native_scramble(const uint8_t scramble[PROTO_SCRAMBLE_LEN], const char *password,
                           size_t len, uint8_t out[20]);
/* Server side: does token[0..token_len) prove knowledge of the password whose stored hash is
 * stage2? An empty token matches only an empty password (has_password false). Constant time. */
bool proto_native_check(const uint8_t scramble[PROTO_SCRAMBLE_LEN], const uint8_t stage2[20],
                        bool has_password, const uint8_t *token, size_t token_len);

/* Append an AuthSwitchRequest payload (0xFE, plugin name, scramble, NUL). */
void proto_auth_switch_write(buf *out, const char *plugin,
                             const uint8_t scramble[PROTO_SCRAMBLE_LEN]);

/* ==== response packets (payloads; wrap them with proto_packet_write or begin/end) ==== */

typedef struct proto_ok {
    uint64_t affected_rows;
    uint64_t last_insert_id;
    uint16_t status; /* PROTO_STATUS_* */
    uint16_t warnings;
    const char *info; /* NULL or human-readable text, e.g. "Rows matched: 1 ..." */
    bool is_eof;      /* 0xFE header: the OK that ends a result set under DEPRECATE_EOF */
} proto_ok;

/* OK payload (0x00 header, or 0xFE when ok->is_eof). caps decide the PROTOCOL_41 layout. */
void proto_ok_write(buf *out, const proto_ok *ok, uint32_t caps);
/* ERR payload: 0xFF, code, '#', SQLSTATE, message (PROTOCOL_41 layout). */
void proto_err_write(buf *out, const db_error *e);
/* Classic EOF payload: 0xFE, warnings, status. */
void proto_eof_write(buf *out, uint16_t warnings, uint16_t status);

/* Parse an OK / ERR payload (used by tests and tools). Both assume the PROTOCOL_41 layout.
 * proto_ok_parse accepts a 0x00 or 0xFE header and leaves out->info NULL (it has no arena to
 * copy it to); DB_ERR with ER_MALFORMED_PACKET. proto_err_parse fills out with the packet's code,
 * SQLSTATE ("HY000" when the '#' marker is absent) and message (truncated to fit); on malformed
 * input it returns DB_ERR and out holds ER_MALFORMED_PACKET instead. */
int proto_ok_parse(const uint8_t *p, size_t len, proto_ok *out, db_error *err);
int proto_err_parse(const uint8_t *p, size_t len, db_error *out);
/* As proto_ok_parse, and also sets out->info to a NUL-terminated copy in a (NULL when empty). */
int proto_ok_parse_info(const uint8_t *p, size_t len, arena *a, proto_ok *out, db_error *err);
/* Parse a classic EOF payload (exactly 5 bytes). DB_ERR with ER_MALFORMED_PACKET. */
int proto_eof_parse(const uint8_t *p, size_t len, uint16_t *warnings, uint16_t *status,
                    db_error *err);

/* A column definition (Protocol::ColumnDefinition41). NULL strings are sent empty. */
typedef struct proto_column {
    const char *schema;
    const char *table;
    const char *org_table;
    const char *name;
    const char *org_name;
    uint16_t charset; /* 63 for numbers and binary, else the connection's */
    uint32_t length;  /* display length in bytes (chars * maxlen for strings) */
    uint8_t type;     /* PROTO_TYPE_* */
    uint16_t flags;   /* PROTO_FLAG_* */
    uint8_t decimals; /* 0x1f for "not fixed" (doubles, strings in MySQL), scale for decimals */
} proto_column;

/* Column-definition payload; with_default adds the COM_FIELD_LIST default-value field (empty). */
void proto_column_write(buf *out, const proto_column *c, bool with_default);

/* Text result row: each value is a length-encoded string, NULL is 0xFB. Append values to a
 * packet begun with proto_packet_begin. */
void proto_row_put_text(buf *out, const void *s, size_t len);
void proto_row_put_null(buf *out);

/* ==== command payloads ==== */

/* COM_FIELD_LIST: table name (NUL-terminated) and optional wildcard (rest of the packet, NULL
 * when empty). Both are arena copies in a. DB_ERR with ER_MALFORMED_PACKET. */
int proto_field_list_parse(const uint8_t *p, size_t len, arena *a, const char **table,
                           const char **wildcard, db_error *err);
/* COM_PROCESS_KILL: 4-byte connection id (extra bytes ignored). DB_ERR with ER_MALFORMED_PACKET. */
int proto_process_kill_parse(const uint8_t *p, size_t len, uint32_t *id, db_error *err);
/* COM_SET_OPTION: 2-byte option (0 = MULTI_STATEMENTS_ON, 1 = OFF; extra bytes ignored).
 * DB_ERR with ER_MALFORMED_PACKET. */
int proto_set_option_parse(const uint8_t *p, size_t len, uint16_t *option, db_error *err);

/* ==== prepared statements (binary protocol) ==== */

/* COM_STMT_PREPARE_OK payload: 0x00, statement id, column and parameter counts, warnings. The
 * parameter and column definitions follow as separate packets (proto_column_write). */
void proto_stmt_prepare_ok_write(buf *out, uint32_t stmt_id, uint16_t ncols, uint16_t nparams,
                                 uint16_t warnings);

/* One decoded COM_STMT_EXECUTE parameter. Integers come decoded (i for signed, u for unsigned
 * types); FLOAT/DOUBLE as d; DATE/DATETIME/TIMESTAMP/TIME as the MYSQL_TIME fields; everything
 * else (strings, DECIMAL, JSON, blobs, long data) as bytes. */
typedef struct proto_param {
    uint8_t type;     /* PROTO_TYPE_* as sent by the client */
    bool is_unsigned; /* the 0x80 flag of the type */
    bool is_null;
    int64_t i;
    uint64_t u;
    double d;
    const uint8_t *s; /* bytes (into the payload or long data), for string-like types */
    size_t len;
    struct { /* temporal types */
        bool neg;
        uint32_t year, month, day, hour, minute, second, micro, days;
    } t;
} proto_param;

/* The fixed head of a COM_STMT_EXECUTE payload (command byte excluded): statement id, flags,
 * iteration count. DB_ERR with ER_MALFORMED_PACKET when shorter than 9 bytes. */
int proto_stmt_execute_head(const uint8_t *p, size_t len, uint32_t *stmt_id, uint8_t *flags,
                            db_error *err);

/* Decode the nparams parameters of a COM_STMT_EXECUTE payload (command byte excluded).
 * types[0..2*nparams) holds the (type, flags) pairs remembered from the previous execute and is
 * updated when the client binds new types (clients send types only on the first execute).
 * long_data[i], when not NULL, is the value sent with COM_STMT_SEND_LONG_DATA for parameter i
 * (its bytes are not in the payload). has_types is set once types are known. Results in out[],
 * pointing into p or long_data. DB_ERR with ER_MALFORMED_PACKET on malformed input or when no
 * types were ever bound. */
int proto_stmt_execute_params(const uint8_t *p, size_t len, uint16_t nparams, uint8_t *types,
                              bool *has_types, const buf *const *long_data, proto_param *out,
                              db_error *err);

/* COM_STMT_SEND_LONG_DATA / COM_STMT_CLOSE / COM_STMT_RESET: statement id (and parameter index
 * and data for long data). DB_ERR with ER_MALFORMED_PACKET. */
int proto_stmt_long_data_parse(const uint8_t *p, size_t len, uint32_t *stmt_id, uint16_t *param,
                               const uint8_t **data, size_t *data_len, db_error *err);
int proto_stmt_id_parse(const uint8_t *p, size_t len, uint32_t *stmt_id, db_error *err);

/* Binary result row: call proto_binrow_begin (writes 0x00 and a zeroed NULL bitmap of ncols
 * columns, returning the bitmap's offset in out), then for each column either
 * proto_binrow_set_null or one proto_binrow_put_* in column order. */
size_t proto_binrow_begin(buf *out, size_t ncols);
void proto_binrow_set_null(buf *out, size_t bitmap_at, size_t col);
/* Integers in the column type's width (TINY 1, SHORT/YEAR 2, LONG/INT24 4, LONGLONG 8). */
void proto_binrow_put_int(buf *out, uint8_t type, uint64_t v);
void proto_binrow_put_float(buf *out, float v);
void proto_binrow_put_double(buf *out, double v);
/* DATE / DATETIME / TIMESTAMP: the shortest of the 0, 4, 7 and 11-byte forms. */
void proto_binrow_put_datetime(buf *out, uint32_t year, uint32_t month, uint32_t day, uint32_t hour,
                               uint32_t minute, uint32_t second, uint32_t micro);
/* TIME: the shortest of the 0, 8 and 12-byte forms. */
void proto_binrow_put_time(buf *out, bool neg, uint32_t days, uint32_t hour, uint32_t minute,
                           uint32_t second, uint32_t micro);
/* Strings, DECIMAL and everything else: a length-encoded string. */
void proto_binrow_put_str(buf *out, const void *s, size_t len);

#endif /* PROTOCOL_PROTOCOL_H */
