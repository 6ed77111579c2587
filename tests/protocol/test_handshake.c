/* SPDX-License-Identifier: Apache-2.0
 * Handshake: the HandshakeV10 greeting byte by byte; HandshakeResponse41 as each client of
 * /work/shared/design/CLIENTS.md sends it (lenenc, 1-byte and NUL-terminated auth; with and
 * without a database; mysql2's empty database; attrs; SSLRequest); every prefix of every valid
 * packet and seeded garbage never crash; COM_CHANGE_USER. See protocol/README.md §Formats. */
#include <criterion/criterion.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "protocol/protocol.h"
#include "tests/protocol/proto_test.h"

/* The 23 filler bytes that close a response's fixed part. */
#define FILLER23     "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
#define TOKEN_SECRET TEST_TOKEN_SECRET

/* The packets below were written from the capability flags, charsets, max_packet values and
 * attributes recorded in CLIENTS.md; the attribute block lengths were counted with python3. */

/* clang-format off */
/* mysql CLI batch (libmariadb 3.3.20) with -D shop: lenenc auth, db, plugin, attrs */
static const char CLI_BATCH[] =
    "\x8d\xa2\xbf\x00" /* caps 0x00bfa28d */
    "\x00\x00\x10\x00" /* max_packet 1048576 */
    "\x21" /* charset 33 */
    FILLER23
    "root\0" /* user */
    "\x14" TOKEN_SECRET /* lenenc auth: 20 bytes */
    "shop\0" /* database */
    "mysql_native_password\0"
    "\x7e" /* attrs: 126 bytes */
    "\x0c" "_client_name" "\x0a" "libmariadb"
    "\x0f" "_client_version" "\x06" "3.3.20"
    "\x03" "_os" "\x05" "Linux"
    "\x04" "_pid" "\x04" "4242"
    "\x09" "_platform" "\x06" "x86_64"
    "\x0c" "_server_host" "\x09" "127.0.0.1"
    "\x0c" "program_name" "\x05" "mysql";

/* PyMySQL 1.0.2 without a database */
static const char PYMYSQL[] =
    "\x05\xa2\x3a\x00" /* caps 0x003aa205 */
    "\xff\xff\xff\x00" /* max_packet 16777215 */
    "\x2d" /* charset 45 */
    FILLER23
    "app\0" /* user */
    "\x14" TOKEN_SECRET /* lenenc auth: 20 bytes */
    "mysql_native_password\0"
    "\x36" /* attrs: 54 bytes */
    "\x0c" "_client_name" "\x07" "pymysql"
    "\x04" "_pid" "\x05" "31337"
    "\x0f" "_client_version" "\x05" "1.0.2";

/* MariaDB Connector/J 2.7.6 with a database */
static const char CONNECTOR_J[] =
    "\x8a\xa3\xbe\x01" /* caps 0x01bea38a */
    "\x00\x00\x00\x40" /* max_packet 1073741824 */
    "\x2d" /* charset 45 */
    FILLER23
    "root\0" /* user */
    "\x14" TOKEN_SECRET /* lenenc auth: 20 bytes */
    "shop\0" /* database */
    "mysql_native_password\0"
    "\x6b" /* attrs: 107 bytes */
    "\x0c" "_client_name" "\x13" "MariaDB Connector/J"
    "\x0f" "_client_version" "\x05" "2.7.6"
    "\x0c" "_java_vendor" "\x06" "Debian"
    "\x0d" "_java_version" "\x07" "17.0.13"
    "\x03" "_os" "\x05" "Linux";

/* Node mysql2 3.24.6: CONNECT_WITH_DB with an empty database, max_packet 0 */
static const char MYSQL2[] =
    "\xce\xf3\xba\x08" /* caps 0x08baf3ce */
    "\x00\x00\x00\x00" /* max_packet 0 */
    "\x2d" /* charset 45 */
    FILLER23
    "root\0" /* user */
    "\x14" TOKEN_SECRET /* lenenc auth: 20 bytes */
    "\0" /* database */
    "mysql_native_password\0"
    "\x31" /* attrs: 49 bytes */
    "\x0c" "_client_name" "\x0c" "Node-MySQL-2"
    "\x0f" "_client_version" "\x06" "3.24.6";

/* SECURE_CONNECTION without PLUGIN_AUTH_LENENC_CLIENT_DATA: 1-byte auth length */
static const char BYTE_AUTH[] =
    "\x8d\xa6\x0f\x00" /* caps 0x000fa68d */
    "\x00\x00\x00\x01" /* max_packet 16777216 */
    "\x08" /* charset 8 */
    FILLER23
    "legacy\0" /* user */
    "\x14" TOKEN_SECRET /* 1-byte length auth */
    "shop\0" /* database */
    "mysql_native_password\0";

/* neither SECURE_CONNECTION nor LENENC: NUL-terminated auth */
static const char NUL_AUTH[] =
    "\x8d\x22\x00\x00" /* caps 0x0000228d */
    "\x00\x00\x00\x01" /* max_packet 16777216 */
    "\x08" /* charset 8 */
    FILLER23
    "old\0" /* user */
    "abcdefghij\0" /* NUL-terminated auth */
    "shop\0"; /* database */
/* clang-format on */

typedef struct client_packet {
    const char *name;
    const char *bytes;
    size_t len;
} client_packet;

#define PACKET(p)           \
    {                       \
#p, p, sizeof p - 1 \
    }

static const client_packet all_packets[] = {
        PACKET(CLI_BATCH), PACKET(PYMYSQL),   PACKET(CONNECTOR_J),
        PACKET(MYSQL2),    PACKET(BYTE_AUTH), PACKET(NUL_AUTH),
};

static arena *test_arena;

static void setup(void);
static void teardown(void);
static int parse(const char *bytes, size_t len, proto_handshake_response *r, db_error *err);
static void check_secret_token(const proto_handshake_response *r);

static void
setup(void)
{
    test_arena = arena_new(0);
}

static void
teardown(void)
{
    arena_free(test_arena);
}

TestSuite(proto_handshake, .init = setup, .fini = teardown);

/* Parse from an exactly sized heap copy so ASan sees any read past the end. */
static int
parse(const char *bytes, size_t len, proto_handshake_response *r, db_error *err)
{
    uint8_t *p = test_exact_copy(bytes, len);
    int rc = proto_handshake_response_parse(p, len, test_arena, r, err);
    mem_free(p);
    return rc;
}

/* The auth data is the token for "secret" over TEST_SCRAMBLE, and the server accepts it. */
static void
check_secret_token(const proto_handshake_response *r)
{
    cr_assert_eq(r->auth_len, 20);
    cr_assert_eq(memcmp(r->auth, TOKEN_SECRET, 20), 0);
    cr_assert(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                 (const uint8_t *)TEST_STAGE2_SECRET, true, r->auth, r->auth_len));
}

/* ---- greeting ---- */

Test(proto_handshake, greeting_layout_byte_by_byte)
{
    /* The profile of CLIENTS.md §2.1: CLIENT_MYSQL set, no SSL/COMPRESS/SESSION_TRACK. */
    uint32_t caps = PROTO_CLIENT_LONG_PASSWORD | PROTO_CLIENT_FOUND_ROWS | PROTO_CLIENT_LONG_FLAG |
                    PROTO_CLIENT_CONNECT_WITH_DB | PROTO_CLIENT_LOCAL_FILES |
                    PROTO_CLIENT_PROTOCOL_41 | PROTO_CLIENT_INTERACTIVE |
                    PROTO_CLIENT_TRANSACTIONS | PROTO_CLIENT_SECURE_CONNECTION |
                    PROTO_CLIENT_MULTI_STATEMENTS | PROTO_CLIENT_MULTI_RESULTS |
                    PROTO_CLIENT_PS_MULTI_RESULTS | PROTO_CLIENT_PLUGIN_AUTH |
                    PROTO_CLIENT_CONNECT_ATTRS | PROTO_CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
    cr_assert_eq(caps, 0x003FA68Fu);
    proto_greeting g = {
            .server_version = "5.7.99",
            .connection_id = 0x01020304,
            .capabilities = caps,
            .charset = PROTO_CHARSET_UTF8MB3_GENERAL_CI,
            .status = PROTO_STATUS_AUTOCOMMIT,
            .auth_plugin = "mysql_native_password",
    };
    memcpy(g.scramble, TEST_SCRAMBLE, PROTO_SCRAMBLE_LEN);
    buf b;
    buf_init(&b);
    proto_greeting_write(&b, &g);

    const char want[] = "\x0a"                     /* protocol version 10 */
                        "5.7.99\0"                 /* server version */
                        "\x04\x03\x02\x01"         /* connection id */
                        "01234567"                 /* scramble part 1 */
                        "\0"                       /* filler */
                        "\x8f\xa6"                 /* capabilities, lower 2 bytes */
                        "\x21"                     /* charset 33 */
                        "\x02\x00"                 /* status: AUTOCOMMIT */
                        "\x3f\x00"                 /* capabilities, upper 2 bytes */
                        "\x15"                     /* auth data length 21 */
                        "\0\0\0\0\0\0\0\0\0\0"     /* reserved, all zero */
                        "89ABCDEFGHIJ\0"           /* scramble part 2 and NUL */
                        "mysql_native_password\0"; /* plugin */
    cr_assert_eq(b.len, sizeof want - 1);
    cr_assert_eq(b.len, 74);
    for (size_t i = 0; i < b.len; i++) {
        cr_assert_eq(b.data[i], (uint8_t)want[i], "byte %zu: 0x%02x, want 0x%02x", i, b.data[i],
                     (uint8_t)want[i]);
    }
    buf_destroy(&b);
}

Test(proto_handshake, greeting_without_plugin_auth)
{
    proto_greeting g = {
            .server_version = "5.7.99",
            .connection_id = 9,
            .capabilities = PROTO_CLIENT_PROTOCOL_41 | PROTO_CLIENT_SECURE_CONNECTION,
            .charset = 45,
    };
    memcpy(g.scramble, TEST_SCRAMBLE, PROTO_SCRAMBLE_LEN);
    buf b;
    buf_init(&b);
    proto_greeting_write(&b, &g);
    /* 1 + 7 + 4 + 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10 + 13, and no plugin name. */
    cr_assert_eq(b.len, 52);
    cr_assert_eq(b.data[28], 0, "auth data length is 0 without PLUGIN_AUTH");
    cr_assert_eq(memcmp(b.data + 39, "89ABCDEFGHIJ\0", 13), 0);
    buf_destroy(&b);
}

/* ---- handshake responses of real clients ---- */

Test(proto_handshake, mysql_cli_batch)
{
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(CLI_BATCH, sizeof CLI_BATCH - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_not(r.is_ssl_request);
    cr_assert_eq(r.capabilities, 0x00bfa28du);
    cr_assert_eq(r.max_packet, 1048576);
    cr_assert_eq(r.charset, 33);
    cr_assert_str_eq(r.user, "root");
    check_secret_token(&r);
    cr_assert_str_eq(r.database, "shop");
    cr_assert_str_eq(r.auth_plugin, "mysql_native_password");
    cr_assert_eq(r.nattrs, 7);
    cr_assert_str_eq(r.attr_keys[0], "_client_name");
    cr_assert_str_eq(r.attr_values[0], "libmariadb");
    cr_assert_str_eq(r.attr_keys[5], "_server_host");
    cr_assert_str_eq(r.attr_values[5], "127.0.0.1");
    cr_assert_str_eq(r.attr_keys[6], "program_name");
    cr_assert_str_eq(r.attr_values[6], "mysql");
}

Test(proto_handshake, pymysql_without_database)
{
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(PYMYSQL, sizeof PYMYSQL - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(r.capabilities, 0x003aa205u);
    cr_assert_eq(r.max_packet, 16777215);
    cr_assert_eq(r.charset, 45);
    cr_assert_str_eq(r.user, "app");
    check_secret_token(&r);
    cr_assert_null(r.database);
    cr_assert_str_eq(r.auth_plugin, "mysql_native_password");
    cr_assert_eq(r.nattrs, 3);
    cr_assert_str_eq(r.attr_keys[1], "_pid");
    cr_assert_str_eq(r.attr_values[1], "31337");
    cr_assert_str_eq(r.attr_values[2], "1.0.2");
}

Test(proto_handshake, connector_j_with_database)
{
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(CONNECTOR_J, sizeof CONNECTOR_J - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(r.capabilities, 0x01bea38au);
    cr_assert_eq(r.max_packet, 1073741824u);
    check_secret_token(&r);
    cr_assert_str_eq(r.database, "shop");
    cr_assert_eq(r.nattrs, 5);
    cr_assert_str_eq(r.attr_values[0], "MariaDB Connector/J");
    cr_assert_str_eq(r.attr_keys[4], "_os");
}

Test(proto_handshake, mysql2_empty_database_is_null)
{
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(MYSQL2, sizeof MYSQL2 - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert(r.capabilities & PROTO_CLIENT_CONNECT_WITH_DB);
    cr_assert_eq(r.max_packet, 0);
    check_secret_token(&r);
    cr_assert_null(r.database, "CONNECT_WITH_DB with \"\" means no database");
    cr_assert_str_eq(r.auth_plugin, "mysql_native_password");
    cr_assert_eq(r.nattrs, 2);
    cr_assert_str_eq(r.attr_values[0], "Node-MySQL-2");
}

Test(proto_handshake, one_byte_auth_length)
{
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(BYTE_AUTH, sizeof BYTE_AUTH - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_str_eq(r.user, "legacy");
    check_secret_token(&r);
    cr_assert_str_eq(r.database, "shop");
    cr_assert_str_eq(r.auth_plugin, "mysql_native_password");
    cr_assert_eq(r.nattrs, 0);
}

Test(proto_handshake, one_byte_auth_length_above_250)
{
    /* 0xFC is a 2-byte lenenc prefix, but here it is a plain length of 252. */
    buf b;
    buf_init(&b);
    buf_append(&b,
               "\x8d\xa6\x0f\x00"
               "\x00\x00\x00\x01"
               "\x08" FILLER23 "u\0",
               34);
    buf_put_u8(&b, 0xFC);
    for (int i = 0; i < 252; i++) {
        buf_put_u8(&b, (uint8_t)i);
    }
    buf_append(&b, "db\0", 3);
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse((const char *)b.data, b.len, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(r.auth_len, 252);
    cr_assert_eq(r.auth[251], 251);
    cr_assert_str_eq(r.database, "db");
    cr_assert_null(r.auth_plugin, "PLUGIN_AUTH set but the packet ends: tolerated");
    buf_destroy(&b);
}

Test(proto_handshake, nul_terminated_auth)
{
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(NUL_AUTH, sizeof NUL_AUTH - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_str_eq(r.user, "old");
    cr_assert_eq(r.auth_len, 10);
    cr_assert_eq(memcmp(r.auth, "abcdefghij", 10), 0);
    cr_assert_str_eq(r.database, "shop");
    cr_assert_null(r.auth_plugin, "no PLUGIN_AUTH");
}

Test(proto_handshake, empty_password_lenenc)
{
    const char pkt[] = "\x05\xa2\x3a\x00"
                       "\xff\xff\xff\x00"
                       "\x2d" FILLER23 "app\0"
                       "\x00" /* empty auth */
                       "mysql_native_password\0"
                       "\x00"; /* empty attribute block */
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(pkt, sizeof pkt - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_eq(r.auth_len, 0);
    cr_assert_not_null(r.auth);
    cr_assert_eq(r.nattrs, 0);
    cr_assert(proto_native_check((const uint8_t *)TEST_SCRAMBLE,
                                 (const uint8_t *)TEST_STAGE2_SECRET, false, r.auth, r.auth_len));
}

Test(proto_handshake, ssl_request)
{
    /* libmariadb's SSLRequest: the fixed part alone, with CLIENT_SSL. */
    const char pkt[] = "\x8d\xaa\xbf\x00"
                       "\x00\x00\x00\x01"
                       "\x2d" FILLER23;
    cr_assert_eq(sizeof pkt - 1, 32);
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(pkt, 32, &r, &err), DB_OK);
    cr_assert(r.is_ssl_request);
    cr_assert(r.capabilities & PROTO_CLIENT_SSL);
    cr_assert_eq(r.charset, 45);
    cr_assert_str_eq(r.user, "");
    cr_assert_eq(r.auth_len, 0);

    /* The same 32 bytes without CLIENT_SSL: a response with no user. */
    const char plain[] = "\x8d\xa2\xbf\x00"
                         "\x00\x00\x00\x01"
                         "\x2d" FILLER23;
    cr_assert_eq(parse(plain, 32, &r, &err), DB_OK);
    cr_assert_not(r.is_ssl_request);
    cr_assert_str_eq(r.user, "");

    /* After TLS the client resends the full response, CLIENT_SSL still set. */
    const char full[] = "\x8d\xaa\xbf\x00"
                        "\x00\x00\x00\x01"
                        "\x2d" FILLER23 "root\0"
                        "\x14" TOKEN_SECRET;
    cr_assert_eq(parse(full, sizeof full - 1, &r, &err), DB_OK);
    cr_assert_not(r.is_ssl_request);
    check_secret_token(&r);
}

Test(proto_handshake, pre_41_client_is_refused)
{
    /* A 3.23-style response: 2-byte caps without PROTOCOL_41, 3-byte max packet, user, auth. */
    const char pkt[] = "\x85\x20"
                       "\x00\x00\x01"
                       "root\0"
                       "abcdefgh";
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(pkt, sizeof pkt - 1, &r, &err), DB_ERR);
    cr_assert_eq(err.code, 1251);
    cr_assert_str_eq(err.sqlstate, "08004");
}

Test(proto_handshake, plugin_name_without_nul_at_end)
{
    const char pkt[] = "\x8d\xa6\x0f\x00"
                       "\x00\x00\x00\x01"
                       "\x08" FILLER23 "u\0"
                       "\x14" TOKEN_SECRET "shop\0"
                       "mysql_native_password";
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(pkt, sizeof pkt - 1, &r, &err), DB_OK, "%s", err.msg);
    cr_assert_str_eq(r.auth_plugin, "mysql_native_password");
}

Test(proto_handshake, truncated_attrs_fail_cleanly)
{
    /* The CLI packet with its last attribute byte cut: the declared block is longer than what
     * is left. */
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse(CLI_BATCH, sizeof CLI_BATCH - 2, &r, &err), DB_ERR);
    cr_assert_eq(err.code, 1043);
    cr_assert_str_eq(err.sqlstate, "08S01");

    /* A block whose pair runs past the block's own end. */
    const char pkt[] = "\x05\xa2\x3a\x00"
                       "\xff\xff\xff\x00"
                       "\x2d" FILLER23 "app\0"
                       "\x00"                    /* empty auth */
                       "mysql_native_password\0" /* plugin */
                       "\x03"                    /* attrs: 3 bytes */
                       "\x05"                    /* key length 5 ... */
                       "ab"                      /* ... but 2 bytes left in the block */
                       "zzzz";
    db_error_clear(&err);
    cr_assert_eq(parse(pkt, sizeof pkt - 1, &r, &err), DB_ERR);
    cr_assert_eq(err.code, 1043);

    /* A key without its value. */
    const char nokey[] = "\x05\xa2\x3a\x00"
                         "\xff\xff\xff\x00"
                         "\x2d" FILLER23 "app\0"
                         "\x00"                    /* empty auth */
                         "mysql_native_password\0" /* plugin */
                         "\x03"                    /* attrs: 3 bytes */
                         "\x02"                    /* key length 2 */
                         "ab";                     /* key, then no value */
    db_error_clear(&err);
    cr_assert_eq(parse(nokey, sizeof nokey - 1, &r, &err), DB_ERR);
}

Test(proto_handshake, trailing_bytes_after_attrs_are_ignored)
{
    buf b;
    buf_init(&b);
    buf_append(&b, PYMYSQL, sizeof PYMYSQL - 1);
    buf_put_u8(&b, 3); /* e.g. a zstd level, for a capability never offered */
    proto_handshake_response r;
    db_error err = {0};
    cr_assert_eq(parse((const char *)b.data, b.len, &r, &err), DB_OK);
    cr_assert_eq(r.nattrs, 3);
    buf_destroy(&b);
}

Test(proto_handshake, every_prefix_parses_or_fails_cleanly)
{
    for (size_t i = 0; i < sizeof all_packets / sizeof all_packets[0]; i++) {
        const client_packet *cp = &all_packets[i];
        size_t nok = 0;
        for (size_t k = 0; k <= cp->len; k++) {
            proto_handshake_response r;
            db_error err = {0};
            int rc = parse(cp->bytes, k, &r, &err);
            cr_assert(rc == DB_OK || rc == DB_ERR, "%s prefix %zu: rc %d", cp->name, k, rc);
            if (rc == DB_ERR) {
                cr_assert(err.code == 1043 || err.code == 1251, "%s prefix %zu: code %d", cp->name,
                          k, err.code);
            } else {
                nok++;
                cr_assert_not_null(r.user);
                cr_assert_not_null(r.auth);
                cr_assert_leq(r.auth_len, k);
            }
            arena_reset(test_arena);
        }
        /* Shorter than the fixed part is always an error, and the full packet parses. */
        cr_assert_geq(nok, 2, "%s", cp->name);
        proto_handshake_response r;
        db_error err = {0};
        cr_assert_eq(parse(cp->bytes, 31, &r, &err), DB_ERR, "%s", cp->name);
    }
}

Test(proto_handshake, garbage_never_crashes)
{
    uint64_t state = 0x9E3779B97F4A7C15ull;
    uint8_t bytes[256];
    size_t nok = 0;
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = (size_t)(test_rand_next(&state) % sizeof bytes);
        for (size_t i = 0; i < len; i++) {
            bytes[i] = (uint8_t)test_rand_next(&state);
        }
        /* Half the time make it look like a 4.1 response so the deep paths run. */
        if (len >= 2 && (iter & 1)) {
            bytes[1] |= (uint8_t)(PROTO_CLIENT_PROTOCOL_41 >> 8);
        }
        proto_handshake_response r;
        db_error err = {0};
        int rc = parse((const char *)bytes, len, &r, &err);
        cr_assert(rc == DB_OK || (rc == DB_ERR && err.code != 0), "iteration %d", iter);
        nok += rc == DB_OK;
        if (iter % 256 == 0) {
            arena_reset(test_arena);
        }
    }
    cr_assert_gt(nok, 0, "some garbage is a valid response");
}

/* ---- COM_CHANGE_USER ---- */

#define CHANGE_USER_CAPS                                                                    \
    (PROTO_CLIENT_PROTOCOL_41 | PROTO_CLIENT_SECURE_CONNECTION | PROTO_CLIENT_PLUGIN_AUTH | \
     PROTO_CLIENT_CONNECT_ATTRS | PROTO_CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)

/* As mysql2 sends it: user, 1-byte auth length, database, charset, plugin, attributes. */
/* clang-format off */
static const char CHANGE_USER[] =
    "bob\0"                                    /* user */
    "\x14" TOKEN_SECRET                        /* 1-byte auth length, token */
    "shop\0"                                   /* database */
    "\x2d\x00"                                 /* collation 45 */
    "mysql_native_password\0"                  /* plugin */
    "\x1a"                                     /* attrs: 26 bytes */
    "\x0c" "_client_name" "\x0c" "Node-MySQL-2";
/* clang-format on */

Test(proto_handshake, change_user_full)
{
    uint8_t *p = test_exact_copy(CHANGE_USER, sizeof CHANGE_USER - 1);
    proto_change_user cu;
    db_error err = {0};
    cr_assert_eq(proto_change_user_parse(p, sizeof CHANGE_USER - 1, CHANGE_USER_CAPS, test_arena,
                                         &cu, &err),
                 DB_OK, "%s", err.msg);
    cr_assert_str_eq(cu.user, "bob");
    cr_assert_eq(cu.auth_len, 20);
    cr_assert_eq(memcmp(cu.auth, TOKEN_SECRET, 20), 0);
    cr_assert_str_eq(cu.database, "shop");
    cr_assert_eq(cu.charset, 45);
    cr_assert_str_eq(cu.auth_plugin, "mysql_native_password");
    mem_free(p);
}

Test(proto_handshake, change_user_uses_one_byte_length_not_lenenc)
{
    buf b;
    buf_init(&b);
    buf_append(&b, "bob\0", 4);
    buf_put_u8(&b, 0xFC);
    buf_put_zeros(&b, 252);
    buf_append(&b, "x\0", 2);
    proto_change_user cu;
    db_error err = {0};
    cr_assert_eq(proto_change_user_parse(b.data, b.len, CHANGE_USER_CAPS, test_arena, &cu, &err),
                 DB_OK, "%s", err.msg);
    cr_assert_eq(cu.auth_len, 252);
    cr_assert_str_eq(cu.database, "x");
    cr_assert_eq(cu.charset, 0);
    cr_assert_null(cu.auth_plugin);
    buf_destroy(&b);
}

Test(proto_handshake, change_user_nul_auth_and_defaults)
{
    const char pkt[] = "bob\0"
                       "pw\0"
                       "\0";
    proto_change_user cu;
    db_error err = {0};
    cr_assert_eq(proto_change_user_parse((const uint8_t *)pkt, sizeof pkt - 1,
                                         PROTO_CLIENT_PROTOCOL_41, test_arena, &cu, &err),
                 DB_OK);
    cr_assert_eq(cu.auth_len, 2);
    cr_assert_str_eq(cu.database, "");
    cr_assert_eq(cu.charset, 0);
    cr_assert_null(cu.auth_plugin);

    const char only_user[] = "bob\0";
    cr_assert_eq(proto_change_user_parse((const uint8_t *)only_user, 4, CHANGE_USER_CAPS,
                                         test_arena, &cu, &err),
                 DB_OK);
    cr_assert_str_eq(cu.user, "bob");
    cr_assert_eq(cu.auth_len, 0);
    cr_assert_str_eq(cu.database, "");
}

Test(proto_handshake, change_user_malformed)
{
    proto_change_user cu;
    db_error err = {0};
    cr_assert_eq(proto_change_user_parse(NULL, 0, CHANGE_USER_CAPS, test_arena, &cu, &err), DB_ERR);
    cr_assert_eq(err.code, 1835);
    cr_assert_str_eq(err.sqlstate, "HY000");
    db_error_clear(&err);
    /* Auth length 20 but 3 bytes follow. */
    const char pkt[] = "bob\0\x14xyz";
    cr_assert_eq(proto_change_user_parse((const uint8_t *)pkt, sizeof pkt - 1, CHANGE_USER_CAPS,
                                         test_arena, &cu, &err),
                 DB_ERR);
    cr_assert_eq(err.code, 1835);
}

Test(proto_handshake, change_user_every_prefix)
{
    size_t len = sizeof CHANGE_USER - 1;
    for (size_t k = 0; k <= len; k++) {
        uint8_t *p = test_exact_copy(CHANGE_USER, k);
        proto_change_user cu;
        db_error err = {0};
        int rc = proto_change_user_parse(p, k, CHANGE_USER_CAPS, test_arena, &cu, &err);
        cr_assert(rc == DB_OK || (rc == DB_ERR && err.code == 1835), "prefix %zu", k);
        if (rc == DB_OK) {
            cr_assert_not_null(cu.user);
            cr_assert_not_null(cu.database);
        }
        mem_free(p);
    }
}
