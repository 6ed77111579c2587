/* SPDX-License-Identifier: Apache-2.0
 * proto_handshake.c: the connection phase. Writes the HandshakeV10 greeting and the
 * AuthSwitchRequest, parses HandshakeResponse41 / SSLRequest and COM_CHANGE_USER, and does the
 * mysql_native_password arithmetic (OpenSSL SHA1, RAND_bytes, CRYPTO_memcmp).
 * See README.md §Formats. */
#include "protocol/proto_int.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <string.h>

#include "common/db_error.h"

#define NATIVE_PLUGIN      "mysql_native_password"
#define SCRAMBLE_PART1_LEN 8  /* scramble bytes before the greeting's filler byte */
#define GREETING_RESERVED  10 /* zero bytes after the auth-data length (no MariaDB caps) */
#define HANDSHAKE_FILLER   23 /* zero bytes closing the response's fixed part */
#define SHA1_LEN           20

static bool is_scramble_char(uint8_t ch);
static void sha1_two(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                     uint8_t out[SHA1_LEN]);
static bool get_auth_response(proto_cursor *c, uint32_t caps, const uint8_t **s, size_t *len);
static bool parse_attrs(proto_cursor *c, arena *a, proto_handshake_response *out);

/* ---- greeting and auth switch ---- */

void
proto_greeting_write(buf *out, const proto_greeting *g)
{
    const char *version = g->server_version != NULL ? g->server_version : "";
    const char *plugin = g->auth_plugin != NULL ? g->auth_plugin : NATIVE_PLUGIN;
    bool has_plugin = (g->capabilities & PROTO_CLIENT_PLUGIN_AUTH) != 0;

    buf_put_u8(out, 10); /* protocol version */
    buf_append(out, version, strlen(version) + 1);
    buf_put_u32le(out, g->connection_id);
    buf_append(out, g->scramble, SCRAMBLE_PART1_LEN);
    buf_put_u8(out, 0);
    buf_put_u16le(out, (uint16_t)(g->capabilities & 0xFFFF));
    buf_put_u8(out, g->charset);
    buf_put_u16le(out, g->status);
    buf_put_u16le(out, (uint16_t)(g->capabilities >> 16));
    /* The auth data length counts the 20 scramble bytes plus the NUL that follows them. */
    buf_put_u8(out, has_plugin ? PROTO_SCRAMBLE_LEN + 1 : 0);
    buf_put_zeros(out, GREETING_RESERVED);
    buf_append(out, g->scramble + SCRAMBLE_PART1_LEN, PROTO_SCRAMBLE_LEN - SCRAMBLE_PART1_LEN);
    buf_put_u8(out, 0);
    if (has_plugin) {
        buf_append(out, plugin, strlen(plugin) + 1);
    }
}

void
proto_auth_switch_write(buf *out, const char *plugin, const uint8_t scramble[PROTO_SCRAMBLE_LEN])
{
    if (plugin == NULL) {
        plugin = NATIVE_PLUGIN;
    }
    buf_put_u8(out, 0xFE);
    buf_append(out, plugin, strlen(plugin) + 1);
    buf_append(out, scramble, PROTO_SCRAMBLE_LEN);
    buf_put_u8(out, 0);
}

/* ---- mysql_native_password ---- */

/* Scramble bytes are printable ASCII other than '$' (I6), so they survive any client that
 * treats the auth data as a C string. */
static bool
is_scramble_char(uint8_t ch)
{
    return ch >= 0x21 && ch <= 0x7E && ch != '$';
}

void
proto_scramble_generate(uint8_t out[PROTO_SCRAMBLE_LEN])
{
    size_t n = 0;
    while (n < PROTO_SCRAMBLE_LEN) {
        uint8_t pool[64];
        int rc = RAND_bytes(pool, (int)sizeof pool);
        /* Failure means OpenSSL could not seed its generator: no safe way to go on. */
        DB_ASSERT(rc == 1);
        /* Rejection sampling keeps every accepted character equally likely. */
        for (size_t i = 0; i < sizeof pool && n < PROTO_SCRAMBLE_LEN; i++) {
            uint8_t ch = pool[i] & 0x7F;
            if (is_scramble_char(ch)) {
                out[n++] = ch;
            }
        }
        OPENSSL_cleanse(pool, sizeof pool);
    }
}

/* SHA1 of a || b, both at most SHA1_LEN bytes (the scramble and a stage-2 hash). */
static void
sha1_two(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, uint8_t out[SHA1_LEN])
{
    uint8_t cat[2 * SHA1_LEN];
    DB_ASSERT(alen <= SHA1_LEN && blen <= SHA1_LEN);
    memcpy(cat, a, alen);
    memcpy(cat + alen, b, blen);
    SHA1(cat, alen + blen, out);
    OPENSSL_cleanse(cat, sizeof cat);
}

void
proto_native_password_hash(const char *password, size_t len, uint8_t out[20])
{
    uint8_t stage1[SHA1_LEN];
    SHA1((const unsigned char *)password, len, stage1);
    SHA1(stage1, SHA1_LEN, out);
    OPENSSL_cleanse(stage1, sizeof stage1);
}

void
proto_native_scramble(const uint8_t scramble[PROTO_SCRAMBLE_LEN], const char *password, size_t len,
                      uint8_t out[20])
{
    uint8_t stage1[SHA1_LEN];
    uint8_t stage2[SHA1_LEN];
    uint8_t mask[SHA1_LEN];
    SHA1((const unsigned char *)password, len, stage1);
    SHA1(stage1, SHA1_LEN, stage2);
    sha1_two(scramble, PROTO_SCRAMBLE_LEN, stage2, SHA1_LEN, mask);
    for (size_t i = 0; i < SHA1_LEN; i++) {
        out[i] = stage1[i] ^ mask[i];
    }
    OPENSSL_cleanse(stage1, sizeof stage1);
    OPENSSL_cleanse(stage2, sizeof stage2);
    OPENSSL_cleanse(mask, sizeof mask);
}

bool
proto_native_check(const uint8_t scramble[PROTO_SCRAMBLE_LEN], const uint8_t stage2[20],
                   bool has_password, const uint8_t *token, size_t token_len)
{
    if (!has_password) {
        return token_len == 0;
    }
    if (token_len != SHA1_LEN) {
        return false;
    }
    /* token = stage1 XOR SHA1(scramble || stage2), so XOR with the same mask recovers the
     * candidate stage1; it is right iff SHA1(candidate) equals the stored stage2. */
    uint8_t mask[SHA1_LEN];
    uint8_t candidate[SHA1_LEN];
    uint8_t check[SHA1_LEN];
    sha1_two(scramble, PROTO_SCRAMBLE_LEN, stage2, SHA1_LEN, mask);
    for (size_t i = 0; i < SHA1_LEN; i++) {
        candidate[i] = token[i] ^ mask[i];
    }
    SHA1(candidate, SHA1_LEN, check);
    bool is_ok = CRYPTO_memcmp(check, stage2, SHA1_LEN) == 0; /* I9 */
    OPENSSL_cleanse(mask, sizeof mask);
    OPENSSL_cleanse(candidate, sizeof candidate);
    OPENSSL_cleanse(check, sizeof check);
    return is_ok;
}

/* ---- handshake response ---- */

/* The auth response in whichever of the three encodings caps select. */
static bool
get_auth_response(proto_cursor *c, uint32_t caps, const uint8_t **s, size_t *len)
{
    if (caps & PROTO_CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) {
        return proto_get_lenenc_str(c, s, len);
    }
    if (caps & PROTO_CLIENT_SECURE_CONNECTION) {
        proto_cursor save = *c;
        uint8_t n;
        if (!proto_get_u8(c, &n)) {
            return false;
        }
        if (!proto_get_bytes(c, n, s)) {
            *c = save;
            return false;
        }
        *len = n;
        return true;
    }
    return proto_get_nulstr(c, s, len);
}

/* Connect attributes: a lenenc total length, then that many bytes of lenenc key/value pairs.
 * Counts the pairs first so the arrays are allocated once. False on any truncation. */
static bool
parse_attrs(proto_cursor *c, arena *a, proto_handshake_response *out)
{
    const uint8_t *block;
    size_t block_len;
    if (!proto_get_lenenc_str(c, &block, &block_len)) {
        return false;
    }
    proto_cursor pairs;
    size_t n = 0;
    proto_cursor_init(&pairs, block, block_len);
    while (proto_cursor_left(&pairs) > 0) {
        const uint8_t *s;
        size_t len;
        if (!proto_get_lenenc_str(&pairs, &s, &len) || !proto_get_lenenc_str(&pairs, &s, &len)) {
            return false;
        }
        n++;
    }
    out->nattrs = n;
    out->attr_keys = arena_calloc(a, n ? n : 1, sizeof(char *));
    out->attr_values = arena_calloc(a, n ? n : 1, sizeof(char *));
    proto_cursor_init(&pairs, block, block_len);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *k;
        const uint8_t *v;
        size_t klen;
        size_t vlen;
        bool is_ok =
                proto_get_lenenc_str(&pairs, &k, &klen) && proto_get_lenenc_str(&pairs, &v, &vlen);
        DB_ASSERT(is_ok); /* the first pass walked the same bytes */
        out->attr_keys[i] = arena_strndup(a, (const char *)k, klen);
        out->attr_values[i] = arena_strndup(a, (const char *)v, vlen);
    }
    return true;
}

int
proto_handshake_response_parse(const uint8_t *p, size_t len, arena *a,
                               proto_handshake_response *out, db_error *err)
{
    memset(out, 0, sizeof *out);
    out->user = "";
    out->auth = proto__dup_bytes(a, NULL, 0);

    proto_cursor c;
    proto_cursor_init(&c, p, len);
    uint16_t caps_low;
    if (!proto_get_u16(&c, &caps_low)) {
        return db_error_set(err, ER_HANDSHAKE_ERROR);
    }
    if (!(caps_low & PROTO_CLIENT_PROTOCOL_41)) {
        /* A pre-4.1 client: its response layout and its password hash are both unsupported. */
        return db_error_set(err, ER_NOT_SUPPORTED_AUTH_MODE);
    }
    proto_cursor_init(&c, p, len);
    const uint8_t *filler;
    if (!proto_get_u32(&c, &out->capabilities) || !proto_get_u32(&c, &out->max_packet) ||
        !proto_get_u8(&c, &out->charset) || !proto_get_bytes(&c, HANDSHAKE_FILLER, &filler)) {
        return db_error_set(err, ER_HANDSHAKE_ERROR);
    }
    uint32_t caps = out->capabilities;
    if (proto_cursor_left(&c) == 0) {
        /* I7: exactly the fixed part. With CLIENT_SSL that is an SSLRequest; without it, a
         * response with no user (tolerated; authentication decides). */
        out->is_ssl_request = (caps & PROTO_CLIENT_SSL) != 0;
        return DB_OK;
    }

    const char *user;
    if (!proto__get_nulstr_dup(&c, a, false, &user)) {
        return db_error_set(err, ER_HANDSHAKE_ERROR);
    }
    out->user = user;
    if (proto_cursor_left(&c) == 0) {
        return DB_OK; /* no auth data at all: an empty token */
    }
    const uint8_t *auth;
    size_t auth_len;
    if (!get_auth_response(&c, caps, &auth, &auth_len)) {
        return db_error_set(err, ER_HANDSHAKE_ERROR);
    }
    out->auth = proto__dup_bytes(a, auth, auth_len);
    out->auth_len = auth_len;

    if (caps & PROTO_CLIENT_CONNECT_WITH_DB) {
        const char *db;
        if (!proto__get_nulstr_dup(&c, a, true, &db)) {
            return db_error_set(err, ER_HANDSHAKE_ERROR);
        }
        out->database = db != NULL && db[0] != '\0' ? db : NULL; /* mysql2 sends "" */
    }
    if (caps & PROTO_CLIENT_PLUGIN_AUTH) {
        /* Some clients end the packet here despite the flag; a name missing its NUL at the very
         * end of the packet is taken as it stands. */
        const uint8_t *s;
        size_t slen;
        if (proto_get_nulstr(&c, &s, &slen)) {
            out->auth_plugin = arena_strndup(a, (const char *)s, slen);
        } else if (proto_cursor_left(&c) > 0 && !(caps & PROTO_CLIENT_CONNECT_ATTRS)) {
            proto_get_rest(&c, &s, &slen);
            out->auth_plugin = arena_strndup(a, (const char *)s, slen);
        } else if (proto_cursor_left(&c) > 0) {
            return db_error_set(err, ER_HANDSHAKE_ERROR);
        }
    }
    if ((caps & PROTO_CLIENT_CONNECT_ATTRS) && proto_cursor_left(&c) > 0) {
        if (!parse_attrs(&c, a, out)) {
            return db_error_set(err, ER_HANDSHAKE_ERROR);
        }
    }
    /* Anything after this (e.g. a zstd level) belongs to capabilities we never offer. */
    return DB_OK;
}

/* ---- COM_CHANGE_USER ---- */

int
proto_change_user_parse(const uint8_t *p, size_t len, uint32_t caps, arena *a,
                        proto_change_user *out, db_error *err)
{
    memset(out, 0, sizeof *out);
    out->database = "";
    out->auth = proto__dup_bytes(a, NULL, 0);

    proto_cursor c;
    proto_cursor_init(&c, p, len);
    const char *user;
    if (!proto__get_nulstr_dup(&c, a, false, &user)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    out->user = user;
    if (proto_cursor_left(&c) == 0) {
        return DB_OK;
    }
    const uint8_t *auth;
    size_t auth_len;
    /* COM_CHANGE_USER has no lenenc form: SECURE_CONNECTION decides alone. */
    if (!get_auth_response(&c, caps & ~PROTO_CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA, &auth,
                           &auth_len)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    out->auth = proto__dup_bytes(a, auth, auth_len);
    out->auth_len = auth_len;

    const char *db;
    if (!proto__get_nulstr_dup(&c, a, true, &db)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    if (db != NULL) {
        out->database = db;
    }
    if (proto_cursor_left(&c) == 0) {
        return DB_OK;
    }
    if ((caps & PROTO_CLIENT_PROTOCOL_41) && !proto_get_u16(&c, &out->charset)) {
        return db_error_set(err, ER_MALFORMED_PACKET);
    }
    if (caps & PROTO_CLIENT_PLUGIN_AUTH) {
        if (!proto__get_nulstr_dup(&c, a, true, &out->auth_plugin)) {
            return db_error_set(err, ER_MALFORMED_PACKET);
        }
    }
    /* Connect attributes may follow; a change of user keeps the connection's original ones. */
    return DB_OK;
}
