/* SPDX-License-Identifier: Apache-2.0
 * plan_func_str.c: string functions (SPLIT_PART, SUBSTRING_INDEX, INSERT, FIELD, ELT, ...),
 * encodings (BIN, OCT, UNHEX, base64, CONV), hashes (MD5, SHA1, SHA2 through OpenSSL EVP;
 * CRC32; Doris's MURMUR_HASH3_64), regular expressions through PCRE2 (REGEXP / RLIKE,
 * REGEXP_LIKE, REGEXP_REPLACE, REGEXP_SUBSTR, Doris's REGEXP_EXTRACT) and the math functions
 * (LN, LOG, trigonometry, SIGN, TRUNCATE, RAND, ...), FORMAT, UUID and Doris's NULL_OR_EMPTY /
 * NOT_NULL_OR_EMPTY. See README.md §Functions. */
#include "planner/plan_func_int.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <math.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

static int eval_args(plan_ectx *cx, const plan_expr *e, plan_value *v, db_error *err);
static plan_value str_out(plan_ectx *cx, const char *s, size_t len, bool bin);
static size_t format_digits(const plan_value *v, int d, char *buf, size_t cap);

/* Evaluate every argument into v[0..nargs). */
static int
eval_args(plan_ectx *cx, const plan_expr *e, plan_value *v, db_error *err)
{
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (plan__eval(cx, e->args[i], &v[i], err) != DB_OK) {
            return DB_ERR;
        }
    }
    return DB_OK;
}

static plan_value
str_out(plan_ectx *cx, const char *s, size_t len, bool bin)
{
    char *b = arena_alloc(cx->a, len + 1);
    memcpy(b, s, len);
    b[len] = '\0';
    plan_value v = plan__v_str(b, len);
    v.is_binary = bin;
    return v;
}

/* ---- hashes ---- */

uint32_t
plan__crc32(const void *p, size_t n)
{
    static uint32_t table[256];
    static bool ready; /* benign race: every thread computes the same table */
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) {
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }
            table[i] = c;
        }
        __atomic_store_n(&ready, true, __ATOMIC_RELEASE);
    }
    const unsigned char *b = p;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c = table[(c ^ b[i]) & 0xFF] ^ (c >> 8);
    }
    return c ^ 0xFFFFFFFFu;
}

static uint64_t
rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t
fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

/* Doris's murmur_hash3_x64_64: MurmurHash3's x64 mixing over 8-byte little-endian blocks
 * with a single 64-bit lane. */
uint64_t
plan__murmur3_64(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *d = p;
    const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    uint64_t h = seed;
    size_t nb = n / 8;
    for (size_t i = 0; i < nb; i++) {
        uint64_t k;
        memcpy(&k, d + i * 8, 8);
        k *= c1;
        k = rotl64(k, 31);
        k *= c2;
        h ^= k;
        h = rotl64(h, 27);
        h = h * 5 + 0x52dce729;
    }
    const unsigned char *t = d + nb * 8;
    uint64_t k = 0;
    for (size_t r = n & 7; r > 0; r--) {
        k ^= (uint64_t)t[r - 1] << (8 * (r - 1));
    }
    if (n & 7) {
        k *= c1;
        k = rotl64(k, 31);
        k *= c2;
        h ^= k;
    }
    h ^= (uint64_t)n;
    return fmix64(h);
}

/* ---- functions returning strings ---- */

enum {
    SF_SPLIT_PART,
    SF_SUBSTRING_INDEX,
    SF_SPACE,
    SF_BIN,
    SF_OCT,
    SF_UNHEX,
    SF_TO_BASE64,
    SF_FROM_BASE64,
    SF_INSERT,
    SF_ELT,
    SF_MD5,
    SF_SHA1,
    SF_SHA2,
};

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int
b64_val(char c)
{
    const char *p = c ? strchr(b64, c) : NULL;
    return p ? (int)(p - b64) : -1;
}

/* MySQL's TO_BASE64 breaks lines after every 76 output characters. */
static plan_value
to_base64(plan_ectx *cx, const unsigned char *s, size_t n)
{
    size_t out = (n + 2) / 3 * 4;
    char *b = arena_alloc(cx->a, out + out / 76 + 2);
    size_t o = 0, col = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < n) {
            v |= (uint32_t)s[i + 1] << 8;
        }
        if (i + 2 < n) {
            v |= s[i + 2];
        }
        if (col == 76) {
            b[o++] = '\n';
            col = 0;
        }
        b[o++] = b64[v >> 18 & 63];
        b[o++] = b64[v >> 12 & 63];
        b[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        b[o++] = i + 2 < n ? b64[v & 63] : '=';
        col += 4;
    }
    return plan__v_str(b, o);
}

static bool
from_base64(plan_ectx *cx, const char *s, size_t n, plan_value *out)
{
    unsigned char *b = arena_alloc(cx->a, n / 4 * 3 + 3);
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0, pad = 0, nq = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            continue;
        }
        if (c == '=') {
            pad++;
            nq++;
            continue;
        }
        int v = b64_val(c);
        if (v < 0 || pad) {
            return false;
        }
        nq++;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            b[o++] = (unsigned char)(acc >> bits);
        }
    }
    if (nq % 4 != 0 || pad > 2) {
        return false;
    }
    *out = plan__v_str((const char *)b, o);
    out->is_binary = true;
    return true;
}

static plan_value
hex_digest(plan_ectx *cx, const EVP_MD *md, const char *s, size_t n)
{
    unsigned char dig[EVP_MAX_MD_SIZE];
    unsigned int dl = 0;
    EVP_Digest(s, n, dig, &dl, md, NULL);
    char *b = arena_alloc(cx->a, dl * 2 + 1);
    for (unsigned i = 0; i < dl; i++) {
        snprintf(b + 2 * i, 3, "%02x", dig[i]);
    }
    return plan__v_str(b, dl * 2);
}

/* Unsigned 64-bit n in base 2..36, upper-case digits. */
static char *
to_base(plan_ectx *cx, uint64_t n, unsigned base, size_t *len)
{
    char tmp[72];
    size_t o = sizeof tmp;
    do {
        unsigned d = (unsigned)(n % base);
        tmp[--o] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
        n /= base;
    } while (n);
    *len = sizeof tmp - o;
    char *b = arena_alloc(cx->a, *len + 1);
    memcpy(b, tmp + o, *len);
    b[*len] = '\0';
    return b;
}

static int
ev_str_misc2(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[8];
    plan_value *va = e->nargs <= 8 ? v : arena_alloc(cx->a, e->nargs * sizeof(plan_value));
    if (eval_args(cx, e, va, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    if (e->op == SF_ELT) {
        if (va[0].kind == PV_NULL) {
            return DB_OK;
        }
        int64_t n = plan__v_to_int(&va[0], NULL);
        if (n < 1 || n >= (int64_t)e->nargs) {
            return DB_OK;
        }
        const char *s;
        size_t len;
        if (plan__v_string(cx, &va[n], &s, &len)) {
            *out = plan__v_str(s, len);
            out->is_binary = e->t.is_binary;
        }
        return DB_OK;
    }
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (va[i].kind == PV_NULL) {
            return DB_OK;
        }
    }
    const char *s = NULL;
    size_t len = 0;
    if (e->op != SF_SPACE && e->op != SF_BIN && e->op != SF_OCT) {
        plan__v_string(cx, &va[0], &s, &len);
    }
    bool bin0 = e->args[0]->t.is_binary;
    switch (e->op) {
    case SF_SPLIT_PART:
    case SF_SUBSTRING_INDEX: {
        const char *d;
        size_t dl;
        plan__v_string(cx, &va[1], &d, &dl);
        int64_t n = plan__v_to_int(&va[2], NULL);
        bool sp = e->op == SF_SPLIT_PART;
        if (dl == 0 || n == 0) {
            *out = sp ? (dl == 0 && n == 1 ? plan__v_str(s, len) : plan__v_null())
                      : plan__v_str("", 0);
            return DB_OK;
        }
        if (n > 0) {
            size_t start = 0, i = 0;
            int64_t k = 0;
            while (i + dl <= len) {
                if (memcmp(s + i, d, dl) == 0) {
                    k++;
                    if (k == n) {
                        *out = sp ? plan__v_str(s + start, i - start) : plan__v_str(s, i);
                        return DB_OK;
                    }
                    i += dl;
                    start = i;
                } else {
                    i++;
                }
            }
            /* fewer delimiters than n */
            *out = sp ? (k == n - 1 ? plan__v_str(s + start, len - start) : plan__v_null())
                      : plan__v_str(s, len);
        } else {
            size_t end = len, i = len;
            int64_t k = 0;
            while (i >= dl) {
                if (memcmp(s + i - dl, d, dl) == 0) {
                    k--;
                    if (k == n) {
                        *out = sp ? plan__v_str(s + i, end - i) : plan__v_str(s + i, len - i);
                        return DB_OK;
                    }
                    i -= dl;
                    end = i;
                } else {
                    i--;
                }
            }
            *out = sp ? (k == n + 1 ? plan__v_str(s, end) : plan__v_null()) : plan__v_str(s, len);
        }
        out->is_binary = bin0;
        return DB_OK;
    }
    case SF_SPACE: {
        int64_t n = plan__v_to_int(&va[0], NULL);
        if (n <= 0) {
            *out = plan__v_str("", 0);
            return DB_OK;
        }
        if (n > cx->max_packet) {
            plan__warn(cx->s, 1301,
                       "Result of space() was larger than max_allowed_packet (%lld) - truncated",
                       (long long)cx->max_packet);
            return DB_OK;
        }
        char *b = arena_alloc(cx->a, (size_t)n + 1);
        memset(b, ' ', (size_t)n);
        *out = plan__v_str(b, (size_t)n);
        return DB_OK;
    }
    case SF_BIN:
    case SF_OCT: {
        uint64_t n = va[0].kind == PV_INT && va[0].is_unsigned
                             ? va[0].u
                             : (uint64_t)plan__v_to_int(&va[0], NULL);
        size_t l;
        char *b = to_base(cx, n, e->op == SF_BIN ? 2 : 8, &l);
        *out = plan__v_str(b, l);
        return DB_OK;
    }
    case SF_UNHEX: {
        size_t nb = (len + 1) / 2, off = len % 2; /* odd length: a leading 0 nibble */
        unsigned char *b = arena_calloc(cx->a, nb + 1, 1);
        for (size_t i = 0; i < len; i++) {
            char c = s[i];
            int x = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
            if (x < 0) {
                return DB_OK;
            }
            size_t pos = i + off;
            b[pos / 2] |= (unsigned char)(pos % 2 ? x : x << 4);
        }
        *out = plan__v_str((const char *)b, nb);
        out->is_binary = true;
        return DB_OK;
    }
    case SF_TO_BASE64:
        *out = to_base64(cx, (const unsigned char *)s, len);
        return DB_OK;
    case SF_FROM_BASE64:
        if (!from_base64(cx, s, len, out)) {
            *out = plan__v_null();
        }
        return DB_OK;
    case SF_INSERT: {
        int64_t pos = plan__v_to_int(&va[1], NULL), n = plan__v_to_int(&va[2], NULL);
        const char *r;
        size_t rl;
        plan__v_string(cx, &va[3], &r, &rl);
        bool bin = bin0 || e->args[3]->t.is_binary;
        int64_t nch = bin ? (int64_t)len : (int64_t)plan__u8_chars(s, len);
        if (pos < 1 || pos > nch) {
            *out = plan__v_str(s, len);
            out->is_binary = bin;
            return DB_OK;
        }
        if (n < 0 || n > nch - pos + 1) {
            n = nch - pos + 1;
        }
        size_t a = bin ? (size_t)pos - 1 : plan__u8_offset(s, len, (size_t)pos - 1);
        size_t b = bin ? a + (size_t)n : a + plan__u8_offset(s + a, len - a, (size_t)n);
        size_t tot = a + rl + (len - b);
        char *o = arena_alloc(cx->a, tot + 1);
        memcpy(o, s, a);
        memcpy(o + a, r, rl);
        memcpy(o + a + rl, s + b, len - b);
        *out = plan__v_str(o, tot);
        out->is_binary = bin;
        return DB_OK;
    }
    case SF_MD5:
        *out = hex_digest(cx, EVP_md5(), s, len);
        return DB_OK;
    case SF_SHA1:
        *out = hex_digest(cx, EVP_sha1(), s, len);
        return DB_OK;
    default: { /* SHA2 */
        int64_t bits = plan__v_to_int(&va[1], NULL);
        const EVP_MD *md = bits == 224                ? EVP_sha224()
                           : bits == 256 || bits == 0 ? EVP_sha256()
                           : bits == 384              ? EVP_sha384()
                           : bits == 512              ? EVP_sha512()
                                                      : NULL;
        if (md) {
            *out = hex_digest(cx, md, s, len);
        }
        return DB_OK;
    }
    }
}

int
plan__ty_str_misc2(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    static const char *const names[] = {
            "split_part",  "substring_index", "space", "bin", "oct",  "unhex", "to_base64",
            "from_base64", "insert",          "elt",   "md5", "sha1", "sha2",
    };
    e->op = -1;
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        if (strcmp(e->name, names[i]) == 0) {
            e->op = i;
        }
    }
    if (strcmp(e->name, "sha") == 0) {
        e->op = SF_SHA1;
    }
    uint32_t l0 = plan__type_strlen(&e->args[0]->t);
    uint32_t len = l0;
    bool nullable = plan__nullable_args(e), bin = false;
    switch (e->op) {
    case SF_SPLIT_PART:
        nullable = true;
        break;
    case SF_SPACE:
        len = 65535;
        nullable = true;
        break;
    case SF_BIN:
        len = 64;
        break;
    case SF_OCT:
        len = 22;
        break;
    case SF_UNHEX:
    case SF_FROM_BASE64:
        len = (l0 + 1) / 2;
        nullable = true;
        bin = true;
        break;
    case SF_TO_BASE64:
        len = (l0 + 2) / 3 * 4 + l0 / 57 + 1;
        break;
    case SF_INSERT:
        len = l0 + plan__type_strlen(&e->args[3]->t);
        bin = e->args[0]->t.is_binary || e->args[3]->t.is_binary;
        break;
    case SF_ELT:
        len = 0;
        for (uint32_t i = 1; i < e->nargs; i++) {
            uint32_t l = plan__type_strlen(&e->args[i]->t);
            len = l > len ? l : len;
            bin |= e->args[i]->t.is_binary;
        }
        nullable = true;
        break;
    case SF_MD5:
        len = 32;
        break;
    case SF_SHA1:
        len = 40;
        break;
    case SF_SHA2:
        len = 128;
        nullable = true;
        break;
    default:
        bin = e->args[0]->t.is_binary;
        break;
    }
    plan__type_string(&e->t, len, nullable);
    e->t.is_binary = bin;
    e->vk = PV_STRING;
    e->eval = ev_str_misc2;
    return DB_OK;
}

/* ---- functions returning integers ---- */

enum {
    SI_STRCMP,
    SI_ASCII,
    SI_ORD,
    SI_FIELD,
    SI_FIND_IN_SET,
    SI_CRC32,
    SI_MURMUR3_64,
    SI_STARTS_WITH,
    SI_ENDS_WITH,
};

static int
ev_str_int(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[8];
    plan_value *va = e->nargs <= 8 ? v : arena_alloc(cx->a, e->nargs * sizeof(plan_value));
    if (eval_args(cx, e, va, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    if (e->op == SI_FIELD) {
        *out = plan__v_int(0);
        if (va[0].kind == PV_NULL) {
            return DB_OK;
        }
        for (uint32_t i = 1; i < e->nargs; i++) {
            if (va[i].kind != PV_NULL && plan__compare(cx, e->cmp, &va[0], &va[i]) == 0) {
                *out = plan__v_int(i);
                return DB_OK;
            }
        }
        return DB_OK;
    }
    if (e->op == SI_MURMUR3_64) {
        uint64_t h = 0; /* Doris: seed 0 for the first argument, then chained */
        for (uint32_t i = 0; i < e->nargs; i++) {
            const char *s;
            size_t len;
            if (!plan__v_string(cx, &va[i], &s, &len)) {
                return DB_OK;
            }
            h = plan__murmur3_64(s, len, h);
        }
        *out = plan__v_int((int64_t)h);
        return DB_OK;
    }
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (va[i].kind == PV_NULL) {
            return DB_OK;
        }
    }
    const char *a, *b = NULL;
    size_t al, bl = 0;
    plan__v_string(cx, &va[0], &a, &al);
    if (e->nargs > 1) {
        plan__v_string(cx, &va[1], &b, &bl);
    }
    switch (e->op) {
    case SI_STRCMP: {
        int c = plan__compare(cx, e->cmp, &va[0], &va[1]);
        *out = plan__v_int(c < 0 ? -1 : c > 0);
        return DB_OK;
    }
    case SI_ASCII:
        *out = plan__v_int(al ? (unsigned char)a[0] : 0);
        return DB_OK;
    case SI_ORD: {
        size_t n = al ? (e->args[0]->t.is_binary ? 1 : plan__u8len((unsigned char)a[0])) : 0;
        uint64_t r = 0;
        for (size_t i = 0; i < n && i < al; i++) {
            r = r << 8 | (unsigned char)a[i];
        }
        *out = plan__v_int((int64_t)r);
        return DB_OK;
    }
    case SI_FIND_IN_SET: {
        int64_t idx = 1;
        if (memchr(a, ',', al)) {
            *out = plan__v_int(0);
            return DB_OK;
        }
        size_t st = 0;
        for (size_t i = 0; i <= bl; i++) {
            if (i == bl || b[i] == ',') {
                bool eq = e->cmp == PLAN_CMP_BINARY ? (i - st == al && memcmp(b + st, a, al) == 0)
                                                    : str_ieq(b + st, i - st, a, al);
                if (eq) {
                    *out = plan__v_int(idx);
                    return DB_OK;
                }
                idx++;
                st = i + 1;
            }
        }
        *out = plan__v_int(0);
        return DB_OK;
    }
    case SI_CRC32:
        *out = plan__v_uint(plan__crc32(a, al));
        return DB_OK;
    case SI_STARTS_WITH:
        *out = plan__v_int(bl <= al && memcmp(a, b, bl) == 0);
        return DB_OK;
    default: /* ENDS_WITH */
        *out = plan__v_int(bl <= al && memcmp(a + al - bl, b, bl) == 0);
        return DB_OK;
    }
}

int
plan__ty_str_int(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    static const char *const names[] = {"strcmp",          "ascii",       "ord",
                                        "field",           "find_in_set", "crc32",
                                        "murmur_hash3_64", "starts_with", "ends_with"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        if (strcmp(e->name, names[i]) == 0) {
            e->op = i;
        }
    }
    bool nullable = plan__nullable_args(e);
    uint32_t len = 11;
    bool any_bin = false, all_num = true;
    for (uint32_t i = 0; i < e->nargs; i++) {
        any_bin |= e->args[i]->t.is_binary;
        plan_vkind k = e->args[i]->vk;
        if (k != PV_INT && k != PV_DOUBLE && k != PV_DECIMAL && k != PV_NULL) {
            all_num = false;
        }
    }
    e->cmp = any_bin ? PLAN_CMP_BINARY : PLAN_CMP_STRING;
    switch (e->op) {
    case SI_STRCMP:
        len = 2;
        break;
    case SI_ASCII:
        len = 3;
        break;
    case SI_ORD:
        len = 21;
        break;
    case SI_FIELD:
        nullable = false;
        len = 3;
        if (all_num) {
            e->cmp = PLAN_CMP_DOUBLE;
        }
        break;
    case SI_FIND_IN_SET:
        len = 3;
        break;
    case SI_CRC32:
        len = 10;
        break;
    case SI_MURMUR3_64:
        len = 20;
        break;
    default:
        len = 1;
        break;
    }
    plan__type_bigint(&e->t, len, nullable);
    e->t.is_unsigned = e->op == SI_CRC32 || e->op == SI_ORD;
    if (e->op == SI_STARTS_WITH || e->op == SI_ENDS_WITH) {
        e->t.type = PLAN_TYPE_TINYINT;
    }
    e->vk = PV_INT;
    e->eval = ev_str_int;
    return DB_OK;
}

/* ---- regular expressions (PCRE2) ---- */

enum { RX_LIKE, RX_REPLACE, RX_SUBSTR, RX_EXTRACT };

/* Compile pattern p with MySQL's match_type letters (c i m n u); non-binary arguments are
 * case-insensitive by default, as MySQL's utf8mb4_0900_ai_ci. NULL with *err set on a bad
 * pattern (1139 "Got error '...' from regexp"). */
static pcre2_code *
rx_compile(const plan_expr *e, const char *p, size_t pl, const char *mt, size_t ml, db_error *err)
{
    uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
    bool ci = !e->args[0]->t.is_binary && !e->args[1]->t.is_binary && e->op != RX_EXTRACT;
    for (size_t i = 0; i < ml; i++) {
        switch (mt[i]) {
        case 'c':
            ci = false;
            break;
        case 'i':
            ci = true;
            break;
        case 'm':
            opts |= PCRE2_MULTILINE;
            break;
        case 'n':
            opts |= PCRE2_DOTALL;
            break;
        case 'u':
            break;
        default:
            db_error_set(err, ER_WRONG_ARGUMENTS, e->name);
            return NULL;
        }
    }
    if (ci) {
        opts |= PCRE2_CASELESS;
    }
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)p, pl, opts, &ec, &eo, NULL);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        db_error_set(err, ER_WRONG_ARGUMENTS, e->name);
        snprintf(err->msg, sizeof err->msg, "Got error '%s' from regexp", (const char *)msg);
        err->code = 1139;
        memcpy(err->sqlstate, "42000", 6);
    }
    return re;
}

static int
ev_regexp(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[6];
    if (eval_args(cx, e, v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (v[i].kind == PV_NULL) {
            return DB_OK;
        }
    }
    const char *s, *p, *mt = NULL;
    size_t sl, pl, ml = 0;
    plan__v_string(cx, &v[0], &s, &sl);
    plan__v_string(cx, &v[1], &p, &pl);
    uint32_t mti = e->op == RX_LIKE ? 2 : (e->op == RX_REPLACE ? 5 : (e->op == RX_SUBSTR ? 4 : 9));
    if (e->nargs > mti) {
        plan__v_string(cx, &v[mti], &mt, &ml);
    }
    pcre2_code *re = rx_compile(e, p, pl, mt, ml, err);
    if (!re) {
        return DB_ERR;
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = DB_OK;
    int64_t pos = 1;
    if ((e->op == RX_REPLACE && e->nargs > 3) || (e->op == RX_SUBSTR && e->nargs > 2)) {
        pos = plan__v_to_int(&v[e->op == RX_REPLACE ? 3 : 2], NULL);
        if (pos < 1 || (size_t)pos > plan__u8_chars(s, sl) + 1) {
            rc = db_error_set(err, ER_WRONG_ARGUMENTS, e->name);
            snprintf(err->msg, sizeof err->msg,
                     "Index out of bounds in regular expression "
                     "search.");
            err->code = 3686;
            goto done;
        }
    }
    size_t start = plan__u8_offset(s, sl, (size_t)pos - 1);
    switch (e->op) {
    case RX_LIKE: {
        int m = pcre2_match(re, (PCRE2_SPTR)s, sl, 0, 0, md, NULL);
        *out = plan__v_int(m >= 0);
        if (e->negated) {
            out->i = !out->i;
        }
        break;
    }
    case RX_SUBSTR: {
        int64_t occ = e->nargs > 3 ? plan__v_to_int(&v[3], NULL) : 1;
        size_t at = start;
        for (int64_t k = 0; k < (occ < 1 ? 1 : occ); k++) {
            int m = pcre2_match(re, (PCRE2_SPTR)s, sl, at, 0, md, NULL);
            if (m < 0) {
                goto done;
            }
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            if (k + 1 == (occ < 1 ? 1 : occ)) {
                *out = str_out(cx, s + ov[0], ov[1] - ov[0], e->t.is_binary);
                break;
            }
            at = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
            if (at > sl) {
                goto done;
            }
        }
        break;
    }
    case RX_EXTRACT: { /* Doris: group n of the first match, '' when none */
        int64_t g = plan__v_to_int(&v[2], NULL);
        int m = pcre2_match(re, (PCRE2_SPTR)s, sl, 0, 0, md, NULL);
        if (m < 0 || g < 0 || g >= m) {
            *out = plan__v_str("", 0);
            break;
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (ov[2 * g] == PCRE2_UNSET) {
            *out = plan__v_str("", 0);
            break;
        }
        *out = str_out(cx, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g], false);
        break;
    }
    default: { /* REPLACE: all matches from pos, or only the occurrence-th */
        const char *r;
        size_t rl;
        plan__v_string(cx, &v[2], &r, &rl);
        int64_t occ = e->nargs > 4 ? plan__v_to_int(&v[4], NULL) : 0;
        size_t cap = sl * 2 + rl * 4 + 64, o = 0;
        char *b = arena_alloc(cx->a, cap);
        memcpy(b, s, start);
        o = start;
        size_t at = start;
        int64_t k = 0;
        while (at <= sl) {
            int m = pcre2_match(re, (PCRE2_SPTR)s, sl, at, 0, md, NULL);
            if (m < 0) {
                break;
            }
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            k++;
            bool take = occ <= 0 || k == occ;
            size_t keep_to = take ? ov[0] : ov[1];
            /* copy the text before the match (and the match itself when skipped) */
            size_t need = o + (keep_to - at) + rl * 4 + (sl - ov[1]) + 16;
            for (int gi = 0; gi < m; gi++) {
                need += ov[2 * gi + 1] - ov[2 * gi];
            }
            if (need > cap) {
                size_t ncap = need * 2;
                char *nb = arena_alloc(cx->a, ncap);
                memcpy(nb, b, o);
                b = nb;
                cap = ncap;
            }
            memcpy(b + o, s + at, keep_to - at);
            o += keep_to - at;
            if (take) { /* $n / \n group references, as MySQL's ICU replacement */
                for (size_t i = 0; i < rl; i++) {
                    if ((r[i] == '$' || r[i] == '\\') && i + 1 < rl && r[i + 1] >= '0' &&
                        r[i + 1] <= '9') {
                        int gi = r[++i] - '0';
                        if (gi < m && ov[2 * gi] != PCRE2_UNSET) {
                            size_t gl = ov[2 * gi + 1] - ov[2 * gi];
                            if (o + gl + rl + (sl - ov[1]) + 16 > cap) {
                                size_t ncap = (o + gl + rl + sl) * 2 + 64;
                                char *nb = arena_alloc(cx->a, ncap);
                                memcpy(nb, b, o);
                                b = nb;
                                cap = ncap;
                            }
                            memcpy(b + o, s + ov[2 * gi], gl);
                            o += gl;
                        }
                        continue;
                    }
                    if (r[i] == '\\' && i + 1 < rl) {
                        i++;
                    }
                    b[o++] = r[i];
                }
            }
            if (ov[1] == ov[0]) { /* empty match: copy one character and move on */
                if (ov[1] >= sl) {
                    at = sl + 1;
                    break;
                }
                size_t cl = plan__u8len((unsigned char)s[ov[1]]);
                memcpy(b + o, s + ov[1], cl);
                o += cl;
                at = ov[1] + cl;
            } else {
                at = ov[1];
            }
            if (occ > 0 && k == occ) {
                break;
            }
        }
        if (at < sl) {
            memcpy(b + o, s + at, sl - at);
            o += sl - at;
        }
        *out = plan__v_str(b, o);
        out->is_binary = e->t.is_binary;
        break;
    }
    }
done:
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return rc;
}

int
plan__ty_regexp(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    bool nullable = plan__nullable_args(e);
    if (strcmp(e->name, "regexp_like") == 0) {
        e->op = RX_LIKE;
        plan__type_bigint(&e->t, 1, nullable);
        e->vk = PV_INT;
    } else {
        e->op = strcmp(e->name, "regexp_replace") == 0  ? RX_REPLACE
                : strcmp(e->name, "regexp_substr") == 0 ? RX_SUBSTR
                                                        : RX_EXTRACT;
        uint32_t len = plan__type_strlen(&e->args[0]->t);
        if (e->op == RX_REPLACE) {
            len = len * 2 + plan__type_strlen(&e->args[2]->t);
        }
        plan__type_string(&e->t, len, e->op == RX_SUBSTR || nullable);
        e->t.is_binary = e->args[0]->t.is_binary;
        e->vk = PV_STRING;
    }
    e->eval = ev_regexp;
    return DB_OK;
}

/* ---- math ---- */

enum {
    MF_LN,
    MF_LOG,
    MF_LOG2,
    MF_LOG10,
    MF_EXP,
    MF_SIN,
    MF_COS,
    MF_TAN,
    MF_ASIN,
    MF_ACOS,
    MF_ATAN,
    MF_ATAN2,
    MF_COT,
    MF_DEGREES,
    MF_RADIANS,
    MF_PI,
    MF_SIGN,
};

static int
ev_math1(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[2];
    if (eval_args(cx, e, v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    if (e->op == MF_PI) {
        *out = plan__v_double(M_PI);
        return DB_OK;
    }
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (v[i].kind == PV_NULL) {
            return DB_OK;
        }
    }
    if (e->op == MF_SIGN) {
        int s;
        if (v[0].kind == PV_INT) {
            s = v[0].is_unsigned ? v[0].u > 0 : (v[0].i > 0) - (v[0].i < 0);
        } else if (v[0].kind == PV_DECIMAL) {
            s = (v[0].dec > 0) - (v[0].dec < 0);
        } else {
            double d = plan__v_to_double(&v[0], NULL);
            s = (d > 0) - (d < 0);
        }
        *out = plan__v_int(s);
        return DB_OK;
    }
    double x = plan__v_to_double(&v[0], NULL),
           y = e->nargs > 1 ? plan__v_to_double(&v[1], NULL) : 0;
    double r;
    bool invalid_log = false;
    switch (e->op) {
    case MF_LN:
        invalid_log = x <= 0;
        r = log(x);
        break;
    case MF_LOG:
        if (e->nargs == 2) { /* LOG(b, x) */
            invalid_log = x <= 0 || x == 1 || y <= 0;
            r = log(y) / log(x);
        } else {
            invalid_log = x <= 0;
            r = log(x);
        }
        break;
    case MF_LOG2:
        invalid_log = x <= 0;
        r = log2(x);
        break;
    case MF_LOG10:
        invalid_log = x <= 0;
        r = log10(x);
        break;
    case MF_EXP:
        r = exp(x);
        break;
    case MF_SIN:
        r = sin(x);
        break;
    case MF_COS:
        r = cos(x);
        break;
    case MF_TAN:
        r = tan(x);
        break;
    case MF_ASIN:
        if (x < -1 || x > 1) {
            return DB_OK;
        }
        r = asin(x);
        break;
    case MF_ACOS:
        if (x < -1 || x > 1) {
            return DB_OK;
        }
        r = acos(x);
        break;
    case MF_ATAN:
        r = e->nargs == 2 ? atan2(x, y) : atan(x);
        break;
    case MF_ATAN2:
        r = atan2(x, y);
        break;
    case MF_COT:
        if (tan(x) == 0) {
            return plan__out_of_range(cx, e, "DOUBLE", err);
        }
        r = 1.0 / tan(x);
        break;
    case MF_DEGREES:
        r = x * (180.0 / M_PI);
        break;
    default:
        r = x * (M_PI / 180.0);
        break;
    }
    if (invalid_log) {
        plan__warn(cx->s, 3020, "Invalid argument for logarithm");
        return DB_OK;
    }
    if (!isfinite(r)) {
        return plan__out_of_range(cx, e, "DOUBLE", err);
    }
    *out = plan__v_double(r);
    return DB_OK;
}

int
plan__ty_math1(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    static const char *const names[] = {"ln",  "log",     "log2",    "log10", "exp",  "sin",
                                        "cos", "tan",     "asin",    "acos",  "atan", "atan2",
                                        "cot", "degrees", "radians", "pi",    "sign"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        if (strcmp(e->name, names[i]) == 0) {
            e->op = i;
        }
    }
    if (e->op == MF_SIGN) {
        plan__type_bigint(&e->t, 2, plan__nullable_args(e));
        e->vk = PV_INT;
    } else {
        plan__type_double(&e->t, e->op != MF_PI);
        e->vk = PV_DOUBLE;
        if (e->op == MF_PI) {
            e->t.scale = 6; /* MySQL shows PI() with 6 decimals */
            e->t.length = 8;
        }
    }
    e->eval = ev_math1;
    return DB_OK;
}

/* TRUNCATE(x, d): toward zero at d decimals (d < 0: digits left of the point). */
static int
ev_truncate(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[2];
    if (eval_args(cx, e, v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    if (v[0].kind == PV_NULL || v[1].kind == PV_NULL) {
        return DB_OK;
    }
    int64_t d = plan__v_to_int(&v[1], NULL);
    d = d > 30 ? 30 : (d < -38 ? -38 : d);
    if (e->vk == PV_DOUBLE) {
        double x = plan__v_to_double(&v[0], NULL), p = pow(10.0, (double)(d < 0 ? -d : d));
        double r = d >= 0 ? trunc(x * p) / p : trunc(x / p) * p;
        *out = plan__v_double(isfinite(r) ? r : x);
        return DB_OK;
    }
    int scale = v[0].kind == PV_DECIMAL ? v[0].scale : 0;
    __int128 x;
    if (!plan__v_to_dec(&v[0], scale, &x, NULL)) {
        return plan__out_of_range(cx, e, "DECIMAL", err);
    }
    int keep = d < 0 ? 0 : (int)d;
    __int128 r = x;
    if (keep < scale) {
        r = x / plan__pow10(scale - keep);
    } else {
        keep = scale;
    }
    if (d < 0) {
        __int128 p = plan__pow10((int)-d);
        r = r / p * p;
    }
    if (e->vk == PV_INT) {
        *out = e->t.is_unsigned ? plan__v_uint((uint64_t)r) : plan__v_int((int64_t)r);
        return DB_OK;
    }
    if (!plan__dec_rescale(r, keep, e->t.scale, &r)) {
        return plan__out_of_range(cx, e, "DECIMAL", err);
    }
    *out = plan__v_dec(r, e->t.scale);
    return DB_OK;
}

int
plan__ty_truncate(plan_ectx *cx, plan_expr *e, db_error *err)
{
    const plan_expr *x = e->args[0];
    bool nullable = plan__nullable_args(e);
    if (x->vk == PV_INT || x->vk == PV_NULL) {
        e->t = x->t;
        e->t.type = PLAN_TYPE_BIGINT;
        e->t.nullable = nullable;
        e->vk = PV_INT;
    } else if (x->vk == PV_DECIMAL) {
        int d = x->t.scale;
        const plan_ast *a = e->args[1]->src;
        if (a && (a->kind == PA_INT ||
                  (a->kind == PA_UNARY && a->nargs == 1 && a->args[0]->kind == PA_INT))) {
            plan_value v;
            if (plan__eval(cx, e->args[1], &v, err) != DB_OK) {
                return DB_ERR;
            }
            int64_t dd = plan__v_to_int(&v, NULL);
            d = dd < 0 ? 0 : (dd > x->t.scale ? x->t.scale : (int)dd);
        }
        int p = x->t.precision - x->t.scale + d;
        plan__type_decimal(&e->t, p < 1 ? 1 : p, d, nullable);
        e->vk = PV_DECIMAL;
    } else {
        plan__type_double(&e->t, nullable);
        e->vk = PV_DOUBLE;
    }
    e->eval = ev_truncate;
    return DB_OK;
}

/* RAND([seed]): MySQL's generator (two 30-bit states); a constant seed restarts it per
 * statement, so RAND(3) gives MySQL's sequence. */
typedef struct rand_state {
    uint64_t s1, s2;
    bool init;
} rand_state;

static int
ev_rand(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    rand_state *st = (rand_state *)e->lit.str.s;
    const uint64_t max = 0x3FFFFFFFULL;
    if (e->nargs == 1) {
        plan_value v;
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (!st->init || e->args[0]->src == NULL || e->args[0]->src->kind != PA_INT) {
            uint64_t seed = (uint64_t)(uint32_t)(v.kind == PV_NULL ? 0 : plan__v_to_int(&v, NULL));
            st->s1 = (seed * 0x10001 + 55555555) % max;
            st->s2 = (seed * 0x10000001) % max;
            st->init = true;
        }
    } else if (!st->init) {
        uint64_t seed = (uint64_t)cx->now_utc_us ^ (uint64_t)(uintptr_t)st;
        st->s1 = seed % max;
        st->s2 = (seed >> 20) % max;
        st->init = true;
    }
    st->s1 = (st->s1 * 3 + st->s2) % max;
    st->s2 = (st->s1 + st->s2 + 33) % max;
    *out = plan__v_double((double)st->s1 / (double)max);
    return DB_OK;
}

int
plan__ty_rand(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)err;
    rand_state *st = arena_calloc(cx->a, 1, sizeof *st);
    e->lit.str.s = (const char *)st;
    plan__type_double(&e->t, false);
    e->vk = PV_DOUBLE;
    e->eval = ev_rand;
    return DB_OK;
}

/* CONV(n, from, to): bases 2..36; a negative to-base prints signed. Invalid digits end the
 * number (MySQL); a bad base is NULL. */
static int
ev_conv(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[3];
    if (eval_args(cx, e, v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    if (v[0].kind == PV_NULL || v[1].kind == PV_NULL || v[2].kind == PV_NULL) {
        return DB_OK;
    }
    int64_t fb = plan__v_to_int(&v[1], NULL), tb = plan__v_to_int(&v[2], NULL);
    int64_t afb = fb < 0 ? -fb : fb, atb = tb < 0 ? -tb : tb;
    if (afb < 2 || afb > 36 || atb < 2 || atb > 36) {
        return DB_OK;
    }
    const char *s;
    size_t len;
    plan__v_string(cx, &v[0], &s, &len);
    size_t i = 0;
    while (i < len && s[i] == ' ') {
        i++;
    }
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    uint64_t n = 0;
    bool overflow = false;
    for (; i < len; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'z' ? c - 'a' + 10
                : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                       : 99;
        if (d >= afb) {
            break;
        }
        if (__builtin_mul_overflow(n, (uint64_t)afb, &n) ||
            __builtin_add_overflow(n, (uint64_t)d, &n)) {
            overflow = true;
        }
    }
    if (overflow) {
        n = UINT64_MAX;
    }
    if (fb < 0 && neg) {
        /* signed input */
    }
    uint64_t val = neg ? (uint64_t)0 - n : n;
    bool print_neg = false;
    if (tb < 0 && (int64_t)val < 0) {
        print_neg = true;
        val = (uint64_t)0 - val;
    }
    size_t l;
    char *digits = to_base(cx, val, (unsigned)atb, &l);
    if (print_neg) {
        char *b = arena_alloc(cx->a, l + 2);
        b[0] = '-';
        memcpy(b + 1, digits, l + 1);
        *out = plan__v_str(b, l + 1);
    } else {
        *out = plan__v_str(digits, l);
    }
    return DB_OK;
}

int
plan__ty_conv(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, 64, true);
    e->vk = PV_STRING;
    e->eval = ev_conv;
    return DB_OK;
}

int
plan__ty_elt(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return plan__ty_str_misc2(cx, e, err);
}

/* ---- FORMAT, UUID, NULL_OR_EMPTY ---- */

/* x as plain digits `[-]int[.frac]` with exactly d (0..30) decimals into buf: exact values
 * (integers, DECIMAL) rounded half away from zero, others as DOUBLE rounded with rint (MySQL's
 * my_double_round). Returns the length. */
static size_t
format_digits(const plan_value *v, int d, char *buf, size_t cap)
{
    if (v->kind == PV_INT || v->kind == PV_DECIMAL) {
        int scale = v->kind == PV_DECIMAL ? v->scale : 0;
        __int128 x =
                v->kind == PV_DECIMAL ? v->dec : (v->is_unsigned ? (__int128)(uint64_t)v->i : v->i);
        int keep = d < scale ? d : scale;
        if (!plan__dec_rescale(x, scale, keep, &x)) {
            keep = scale; /* rounding to fewer digits cannot overflow */
        }
        bool neg = x < 0;
        unsigned __int128 m = neg ? -(unsigned __int128)x : (unsigned __int128)x;
        char rev[48];
        size_t n = 0;
        do {
            rev[n++] = (char)('0' + (int)(m % 10));
            m /= 10;
        } while (m > 0 || n <= (size_t)keep);
        size_t len = 0;
        if (neg) {
            buf[len++] = '-';
        }
        while (n > 0) {
            buf[len++] = rev[--n];
            if (n == (size_t)keep && keep > 0) {
                buf[len++] = '.';
            }
        }
        if (d > 0 && keep == 0) {
            buf[len++] = '.';
        }
        for (int k = keep; k < d; k++) {
            buf[len++] = '0';
        }
        return len;
    }
    double x = plan__v_to_double(v, NULL), p = pow(10.0, (double)d), r = rint(x * p) / p;
    if (!isfinite(x * p)) {
        r = x;
    }
    int n = snprintf(buf, cap, "%.*f", d, r);
    return n < 0 ? 0 : ((size_t)n >= cap ? cap - 1 : (size_t)n);
}

/* FORMAT(x, d) (MySQL, en_US): x rounded to d decimals (negative d is 0, at most 30), the
 * integer part grouped by three with ','. */
static int
ev_format(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v[2];
    if (eval_args(cx, e, v, err) != DB_OK) {
        return DB_ERR;
    }
    *out = plan__v_null();
    if (v[0].kind == PV_NULL || v[1].kind == PV_NULL) {
        return DB_OK;
    }
    int64_t d = plan__v_to_int(&v[1], NULL);
    d = d < 0 ? 0 : (d > 30 ? 30 : d);
    char digits[400];
    size_t len = format_digits(&v[0], (int)d, digits, sizeof digits);
    size_t sign = len > 0 && digits[0] == '-';
    const char *dot = memchr(digits, '.', len);
    size_t ilen = (dot ? (size_t)(dot - digits) : len) - sign;
    size_t ncomma = ilen > 0 ? (ilen - 1) / 3 : 0;
    char *b = arena_alloc(cx->a, len + ncomma + 1);
    size_t o = 0;
    if (sign) {
        b[o++] = '-';
    }
    for (size_t i = 0; i < ilen; i++) {
        b[o++] = digits[sign + i];
        if (i + 1 < ilen && (ilen - i - 1) % 3 == 0) {
            b[o++] = ',';
        }
    }
    memcpy(b + o, digits + sign + ilen, len - sign - ilen);
    o += len - sign - ilen;
    b[o] = '\0';
    *out = plan__v_str(b, o);
    return DB_OK;
}

int
plan__ty_format(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    uint32_t n = plan__type_strlen(&e->args[0]->t);
    n = n > 400 ? 400 : n;
    plan__type_string(&e->t, n + n / 3 + 32, plan__nullable_args(e));
    e->vk = PV_STRING;
    e->eval = ev_format;
    return DB_OK;
}

/* UUID() (Doris): a random (version 4, RFC 4122 variant) UUID, 36 lower-case characters. */
static int
ev_uuid(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)e;
    unsigned char r[16];
    if (RAND_bytes(r, sizeof r) != 1) {
        return db_error_set(err, ER_DORIS, "no random bytes for uuid()");
    }
    r[6] = (unsigned char)((r[6] & 0x0F) | 0x40);
    r[8] = (unsigned char)((r[8] & 0x3F) | 0x80);
    static const char hx[] = "0123456789abcdef";
    char *b = arena_alloc(cx->a, 37);
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            b[o++] = '-';
        }
        b[o++] = hx[r[i] >> 4];
        b[o++] = hx[r[i] & 15];
    }
    b[o] = '\0';
    *out = plan__v_str(b, o);
    return DB_OK;
}

int
plan__ty_uuid(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    plan__type_string(&e->t, 36, false);
    e->vk = PV_STRING;
    e->eval = ev_uuid;
    return DB_OK;
}

/* NULL_OR_EMPTY(s) / NOT_NULL_OR_EMPTY(s) (Doris): BOOLEAN, never NULL; ' ' is not empty. */
static int
ev_null_or_empty(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    const char *s;
    size_t len = 0;
    bool empty = !plan__v_string(cx, &v, &s, &len) || len == 0;
    *out = plan__v_int(empty != (e->op == 1));
    return DB_OK;
}

int
plan__ty_null_or_empty(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = strcmp(e->name, "not_null_or_empty") == 0;
    plan__type_bigint(&e->t, 1, false);
    e->t.type = PLAN_TYPE_TINYINT;
    e->vk = PV_INT;
    e->eval = ev_null_or_empty;
    return DB_OK;
}
