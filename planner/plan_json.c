/* SPDX-License-Identifier: Apache-2.0
 * plan_json.c: an allocation-free JSON scanner (RFC 8259) that validates a text and, when
 * given an arena, writes its normal form in the same pass; path parsing and navigation over
 * normal forms; the value helpers behind the JSON functions. Iterative, with the nesting
 * kept in a bit stack bounded by PLAN_JSON_MAX_DEPTH, so no input can exhaust the C stack.
 * See README.md §JSON. */
#include "planner/plan_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Output of the scanner: a growing buffer in an arena (a == NULL: validate only). */
typedef struct jw {
    arena *a;
    char *p;
    size_t len, cap;
} jw;

static void jw_put(jw *w, const char *b, size_t n);
static void jw_byte(jw *w, char c);
static bool is_ws(char c);
static size_t skip_ws(const char *s, size_t n, size_t i);
static bool fail(plan_json_err *e, const char *msg, size_t pos);
static size_t utf8_valid(const unsigned char *s, size_t n, size_t i);
static int hex4(const char *s, size_t n, size_t i, unsigned *out);
static void put_utf8(jw *w, unsigned cp);
static void put_escaped_byte(jw *w, unsigned char c);
static bool scan_string(const char *s, size_t n, size_t *pos, jw *w, plan_json_err *e);
static bool scan_number(const char *s, size_t n, size_t *pos, jw *w, plan_json_err *e);
static bool scan_literal(const char *s, size_t n, size_t *pos, jw *w, plan_json_err *e);
static bool scan(const char *s, size_t n, jw *w, plan_json_err *e);
static size_t skip_string(const char *s, size_t n, size_t i);
static size_t skip_value(const char *s, size_t n, size_t i);
static bool key_equals(const char *s, size_t n, size_t i, const char *key, size_t klen,
                       size_t *after);
static bool scalar_equal(const char *a, size_t alen, const char *b, size_t blen);

/* ======================================================================================
 * Scanner
 * ====================================================================================== */

static void
jw_put(jw *w, const char *b, size_t n)
{
    if (w == NULL || w->a == NULL) {
        return;
    }
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap * 2 > w->len + n + 64 ? w->cap * 2 : w->len + n + 64;
        char *p = arena_alloc(w->a, cap);
        if (w->len) {
            memcpy(p, w->p, w->len);
        }
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->len, b, n);
    w->len += n;
}

static void
jw_byte(jw *w, char c)
{
    jw_put(w, &c, 1);
}

static bool
is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t
skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && is_ws(s[i])) {
        i++;
    }
    return i;
}

static bool
fail(plan_json_err *e, const char *msg, size_t pos)
{
    if (e) {
        e->msg = msg;
        e->pos = pos;
    }
    return false;
}

/* Length of the well-formed UTF-8 sequence at s[i] (no overlongs, surrogates or values past
 * U+10FFFF), 0 when there is none. */
static size_t
utf8_valid(const unsigned char *s, size_t n, size_t i)
{
    unsigned c = s[i];
    if (c < 0x80) {
        return 1;
    }
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) {
            lo = 0xA0;
        } else if (c == 0xED) {
            hi = 0x9F;
        }
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) {
            lo = 0x90;
        } else if (c == 0xF4) {
            hi = 0x8F;
        }
    } else {
        return 0;
    }
    if (n - i < len) {
        return 0;
    }
    if (s[i + 1] < lo || s[i + 1] > hi) {
        return 0;
    }
    for (size_t k = 2; k < len; k++) {
        if (s[i + k] < 0x80 || s[i + k] > 0xBF) {
            return 0;
        }
    }
    return len;
}

/* Four hex digits at s[i]; 0 on success. */
static int
hex4(const char *s, size_t n, size_t i, unsigned *out)
{
    if (n - i < 4) {
        return -1;
    }
    unsigned v = 0;
    for (size_t k = 0; k < 4; k++) {
        char c = s[i + k];
        v <<= 4;
        if (c >= '0' && c <= '9') {
            v |= (unsigned)(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            v |= (unsigned)(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
            v |= (unsigned)(c - 'A' + 10);
        } else {
            return -1;
        }
    }
    *out = v;
    return 0;
}

static void
put_utf8(jw *w, unsigned cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        put_escaped_byte(w, (unsigned char)cp);
        return;
    }
    if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    jw_put(w, b, n);
}

/* One character below U+0080 as the normal form writes it inside a string. */
static void
put_escaped_byte(jw *w, unsigned char c)
{
    switch (c) {
    case '"':
        jw_put(w, "\\\"", 2);
        return;
    case '\\':
        jw_put(w, "\\\\", 2);
        return;
    case '\b':
        jw_put(w, "\\b", 2);
        return;
    case '\f':
        jw_put(w, "\\f", 2);
        return;
    case '\n':
        jw_put(w, "\\n", 2);
        return;
    case '\r':
        jw_put(w, "\\r", 2);
        return;
    case '\t':
        jw_put(w, "\\t", 2);
        return;
    default:
        if (c < 0x20) {
            char b[8];
            snprintf(b, sizeof b, "\\u%04x", c);
            jw_put(w, b, 6);
        } else {
            jw_byte(w, (char)c);
        }
        return;
    }
}

/* The string token at s[*pos] (its opening quote); decoded characters are re-escaped. */
static bool
scan_string(const char *s, size_t n, size_t *pos, jw *w, plan_json_err *e)
{
    size_t i = *pos + 1;
    jw_byte(w, '"');
    for (;;) {
        if (i >= n) {
            return fail(e, "unterminated string", i);
        }
        unsigned char c = (unsigned char)s[i];
        if (c == '"') {
            i++;
            break;
        }
        if (c < 0x20) {
            return fail(e, "control character in string", i);
        }
        if (c == '\\') {
            if (i + 1 >= n) {
                return fail(e, "unterminated string", i);
            }
            char x = s[i + 1];
            i += 2;
            switch (x) {
            case '"':
            case '\\':
            case '/':
                put_escaped_byte(w, (unsigned char)x);
                break;
            case 'b':
                put_escaped_byte(w, '\b');
                break;
            case 'f':
                put_escaped_byte(w, '\f');
                break;
            case 'n':
                put_escaped_byte(w, '\n');
                break;
            case 'r':
                put_escaped_byte(w, '\r');
                break;
            case 't':
                put_escaped_byte(w, '\t');
                break;
            case 'u': {
                unsigned cp;
                if (hex4(s, n, i, &cp) != 0) {
                    return fail(e, "bad \\u escape", i);
                }
                i += 4;
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return fail(e, "lone surrogate in \\u escape", i - 6);
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    unsigned lo;
                    if (n - i < 6 || s[i] != '\\' || s[i + 1] != 'u' ||
                        hex4(s, n, i + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF) {
                        return fail(e, "lone surrogate in \\u escape", i - 6);
                    }
                    i += 6;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                put_utf8(w, cp);
                break;
            }
            default:
                return fail(e, "bad escape in string", i - 2);
            }
            continue;
        }
        size_t k = utf8_valid((const unsigned char *)s, n, i);
        if (k == 0) {
            return fail(e, "invalid UTF-8 in string", i);
        }
        if (k == 1) {
            put_escaped_byte(w, c);
        } else {
            jw_put(w, s + i, k);
        }
        i += k;
    }
    jw_byte(w, '"');
    *pos = i;
    return true;
}

/* The number token at s[*pos]. Integers are written exactly (up to 128 bits); others become
 * a double printed as %.15g. */
static bool
scan_number(const char *s, size_t n, size_t *pos, jw *w, plan_json_err *e)
{
    size_t i = *pos, start = i;
    bool neg = false;
    if (s[i] == '-') {
        neg = true;
        i++;
    }
    if (i >= n || s[i] < '0' || s[i] > '9') {
        return fail(e, "bad number", start);
    }
    size_t int_start = i;
    if (s[i] == '0') {
        i++;
    } else {
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
        }
    }
    size_t int_end = i, frac_start = i, frac_end = i;
    bool is_int = true;
    if (i < n && s[i] == '.') {
        i++;
        frac_start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
        }
        if (i == frac_start) {
            return fail(e, "bad number", start);
        }
        frac_end = i;
        is_int = false;
    }
    long exp = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        size_t es = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (exp < 100000) {
                exp = exp * 10 + (s[i] - '0');
            }
            i++;
        }
        if (i == es) {
            return fail(e, "bad number", start);
        }
        exp = eneg ? -exp : exp;
        is_int = false;
    }
    *pos = i;
    if (is_int) {
        /* 2^127 - 1 or 2^127 for a negative value */
        const unsigned __int128 lim =
                neg ? (unsigned __int128)1 << 127 : ((unsigned __int128)1 << 127) - 1;
        unsigned __int128 v = 0;
        for (size_t k = int_start; k < int_end; k++) {
            unsigned d = (unsigned)(s[k] - '0');
            if (v > (lim - d) / 10) {
                return fail(e, "integer out of range", start);
            }
            v = v * 10 + d;
        }
        if (w && w->a) {
            char b[48];
            size_t bl = sizeof b;
            b[--bl] = '\0';
            do {
                b[--bl] = (char)('0' + (unsigned)(v % 10));
                v /= 10;
            } while (v);
            if (neg && !(int_end - int_start == 1 && s[int_start] == '0')) {
                b[--bl] = '-';
            }
            jw_put(w, b + bl, sizeof b - 1 - bl);
        }
        return true;
    }
    /* Canonical short form for strtod: up to 400 significant digits and an exponent, so
     * tokens of any length fit a stack buffer. */
    char b[480];
    size_t bl = 0;
    if (neg) {
        b[bl++] = '-';
    }
    long dexp = 0; /* value = kept digits * 10^(dexp + exp) */
    bool seen = false;
    size_t kept = 0;
    for (size_t k = int_start; k < int_end; k++) {
        if (!seen && s[k] == '0') {
            continue;
        }
        seen = true;
        if (kept < 400) {
            b[bl++] = s[k];
            kept++;
        } else {
            dexp++;
        }
    }
    for (size_t k = frac_start; k < frac_end; k++) {
        if (!seen && s[k] == '0') {
            dexp--;
            continue;
        }
        seen = true;
        if (kept < 400) {
            b[bl++] = s[k];
            kept++;
            dexp--;
        }
    }
    if (!seen) {
        b[bl++] = '0';
    }
    snprintf(b + bl, sizeof b - bl, "e%ld", exp + dexp);
    double d = strtod(b, NULL);
    if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
        return fail(e, "number out of range", start);
    }
    if (w && w->a) {
        char out[40];
        /* -0.0 prints as 0: "-0" would read back as the integer 0 */
        int m = snprintf(out, sizeof out, "%.15g", d == 0 ? 0.0 : d);
        jw_put(w, out, (size_t)m);
    }
    return true;
}

static bool
scan_literal(const char *s, size_t n, size_t *pos, jw *w, plan_json_err *e)
{
    static const char *const lits[] = {"true", "false", "null"};
    for (size_t k = 0; k < 3; k++) {
        size_t l = strlen(lits[k]);
        if (n - *pos >= l && memcmp(s + *pos, lits[k], l) == 0) {
            jw_put(w, lits[k], l);
            *pos += l;
            return true;
        }
    }
    return fail(e, "invalid value", *pos);
}

/* One whole JSON text: a value with blanks around. The nesting is a bit stack (1 = object). */
static bool
scan(const char *s, size_t n, jw *w, plan_json_err *e)
{
    uint8_t stack[PLAN_JSON_MAX_DEPTH / 8];
    size_t depth = 0;
    size_t i = skip_ws(s, n, 0);
    enum { VALUE, KEY, AFTER } st = VALUE;
    for (;;) {
        if (st == KEY) {
            i = skip_ws(s, n, i);
            if (i >= n || s[i] != '"') {
                return fail(e, "expected a member name", i);
            }
            if (!scan_string(s, n, &i, w, e)) {
                return false;
            }
            i = skip_ws(s, n, i);
            if (i >= n || s[i] != ':') {
                return fail(e, "expected ':'", i);
            }
            jw_byte(w, ':');
            i++;
            st = VALUE;
            continue;
        }
        if (st == AFTER) {
            if (depth == 0) {
                break;
            }
            i = skip_ws(s, n, i);
            bool obj = (stack[(depth - 1) >> 3] >> ((depth - 1) & 7)) & 1;
            if (i < n && s[i] == ',') {
                jw_byte(w, ',');
                i++;
                st = obj ? KEY : VALUE;
                continue;
            }
            if (i < n && s[i] == (obj ? '}' : ']')) {
                jw_byte(w, s[i]);
                i++;
                depth--;
                continue;
            }
            return fail(e, obj ? "expected ',' or '}'" : "expected ',' or ']'", i);
        }
        /* VALUE */
        i = skip_ws(s, n, i);
        if (i >= n) {
            return fail(e, "unexpected end of text", i);
        }
        char c = s[i];
        if (c == '{' || c == '[') {
            if (depth >= PLAN_JSON_MAX_DEPTH) {
                return fail(e, "nesting too deep", i);
            }
            uint8_t bit = (uint8_t)(1u << (depth & 7));
            stack[depth >> 3] = (uint8_t)(c == '{' ? stack[depth >> 3] | bit
                                                   : stack[depth >> 3] & (uint8_t)~bit);
            depth++;
            jw_byte(w, c);
            i = skip_ws(s, n, i + 1);
            if (i < n && s[i] == (c == '{' ? '}' : ']')) {
                jw_byte(w, s[i]);
                i++;
                depth--;
                st = AFTER;
            } else {
                st = c == '{' ? KEY : VALUE;
            }
            continue;
        }
        bool ok;
        if (c == '"') {
            ok = scan_string(s, n, &i, w, e);
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            ok = scan_number(s, n, &i, w, e);
        } else {
            ok = scan_literal(s, n, &i, w, e);
        }
        if (!ok) {
            return false;
        }
        st = AFTER;
    }
    i = skip_ws(s, n, i);
    if (i != n) {
        return fail(e, "unexpected text after the value", i);
    }
    return true;
}

bool
plan__json_valid(const char *s, size_t len, plan_json_err *e)
{
    return scan(s, len, NULL, e);
}

char *
plan__json_normalize(arena *a, const char *s, size_t len, size_t *out_len, plan_json_err *e)
{
    jw w = {.a = a};
    size_t cap = len + 16;
    w.p = arena_alloc(a, cap);
    w.cap = cap;
    if (!scan(s, len, &w, e)) {
        return NULL;
    }
    w.p[w.len] = '\0';
    *out_len = w.len;
    return w.p;
}

/* ======================================================================================
 * Paths and navigation
 * ====================================================================================== */

bool
plan__json_path_parse(arena *a, const char *p, size_t len, plan_json_path *out)
{
    out->steps = NULL;
    out->nsteps = 0;
    if (len == 0 || p[0] != '$') {
        return false;
    }
    size_t cap = 0;
    for (size_t k = 0; k < len; k++) {
        cap += p[k] == '.' || p[k] == '[';
    }
    out->steps = arena_calloc(a, cap ? cap : 1, sizeof *out->steps);
    size_t i = 1;
    while (i < len) {
        plan_json_step *st = &out->steps[out->nsteps];
        if (p[i] == '.') {
            i++;
            if (i < len && p[i] == '[') {
                continue; /* `$.[1]` */
            }
            if (i < len && p[i] == '"') {
                size_t ks = ++i;
                while (i < len && p[i] != '"') {
                    i++;
                }
                if (i >= len) {
                    return false;
                }
                st->key = p + ks;
                st->klen = i - ks;
                i++;
            } else {
                size_t ks = i;
                while (i < len && p[i] != '.' && p[i] != '[' && p[i] != '"' && p[i] != ']' &&
                       p[i] != '*' && p[i] != ' ') {
                    i++;
                }
                if (i == ks) {
                    return false;
                }
                st->key = p + ks;
                st->klen = i - ks;
            }
            st->kind = PLAN_JSON_KEY;
            out->nsteps++;
        } else if (p[i] == '[') {
            i++;
            if (len - i >= 4 && memcmp(p + i, "last", 4) == 0) {
                i += 4;
                st->kind = PLAN_JSON_LAST;
                st->n = 0;
                if (i < len && p[i] == '-') {
                    i++;
                    size_t ds = i;
                    while (i < len && p[i] >= '0' && p[i] <= '9' && i - ds < 18) {
                        st->n = st->n * 10 + (uint64_t)(p[i] - '0');
                        i++;
                    }
                    if (i == ds) {
                        return false;
                    }
                }
            } else {
                size_t ds = i;
                st->kind = PLAN_JSON_INDEX;
                st->n = 0;
                while (i < len && p[i] >= '0' && p[i] <= '9' && i - ds < 18) {
                    st->n = st->n * 10 + (uint64_t)(p[i] - '0');
                    i++;
                }
                if (i == ds) {
                    return false;
                }
            }
            if (i >= len || p[i] != ']') {
                return false;
            }
            i++;
            out->nsteps++;
        } else {
            return false;
        }
    }
    return true;
}

/* Index just past the string token at s[i] (valid text). */
static size_t
skip_string(const char *s, size_t n, size_t i)
{
    i++;
    while (i < n && s[i] != '"') {
        i += s[i] == '\\' ? 2 : 1;
    }
    return i < n ? i + 1 : n;
}

/* Index just past the value starting at s[i] (valid text, blanks allowed inside). */
static size_t
skip_value(const char *s, size_t n, size_t i)
{
    if (i >= n) {
        return n;
    }
    char c = s[i];
    if (c == '"') {
        return skip_string(s, n, i);
    }
    if (c == '{' || c == '[') {
        size_t depth = 0;
        while (i < n) {
            c = s[i];
            if (c == '"') {
                i = skip_string(s, n, i);
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    return i + 1;
                }
            }
            i++;
        }
        return n;
    }
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_ws(s[i])) {
        i++;
    }
    return i;
}

/* Does the string token at s[i] decode to key[0..klen)? *after = just past the token. */
static bool
key_equals(const char *s, size_t n, size_t i, const char *key, size_t klen, size_t *after)
{
    size_t end = skip_string(s, n, i);
    *after = end;
    size_t k = 0;
    i++;
    while (i < end - 1) {
        unsigned char c = (unsigned char)s[i];
        char buf[4];
        size_t bl = 1;
        if (c != '\\') {
            buf[0] = (char)c;
            i++;
        } else {
            char x = s[i + 1];
            i += 2;
            switch (x) {
            case 'b':
                buf[0] = '\b';
                break;
            case 'f':
                buf[0] = '\f';
                break;
            case 'n':
                buf[0] = '\n';
                break;
            case 'r':
                buf[0] = '\r';
                break;
            case 't':
                buf[0] = '\t';
                break;
            case 'u': {
                unsigned cp = 0, lo = 0;
                if (hex4(s, n, i, &cp) != 0) {
                    return false;
                }
                i += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF && hex4(s, n, i + 2, &lo) == 0) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
                if (cp < 0x80) {
                    buf[0] = (char)cp;
                    bl = 1;
                } else if (cp < 0x800) {
                    buf[0] = (char)(0xC0 | (cp >> 6));
                    buf[1] = (char)(0x80 | (cp & 0x3F));
                    bl = 2;
                } else if (cp < 0x10000) {
                    buf[0] = (char)(0xE0 | (cp >> 12));
                    buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    buf[2] = (char)(0x80 | (cp & 0x3F));
                    bl = 3;
                } else {
                    buf[0] = (char)(0xF0 | (cp >> 18));
                    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
                    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    buf[3] = (char)(0x80 | (cp & 0x3F));
                    bl = 4;
                }
                break;
            }
            default:
                buf[0] = x;
                break;
            }
        }
        if (klen - k < bl || memcmp(key + k, buf, bl) != 0) {
            return false;
        }
        k += bl;
    }
    return k == klen;
}

bool
plan__json_find(const char *s, size_t len, const plan_json_path *path, size_t *vs, size_t *ve)
{
    size_t i = skip_ws(s, len, 0);
    for (uint32_t k = 0; k < path->nsteps; k++) {
        const plan_json_step *st = &path->steps[k];
        if (i >= len) {
            return false;
        }
        if (st->kind == PLAN_JSON_KEY) {
            if (s[i] != '{') {
                return false;
            }
            i = skip_ws(s, len, i + 1);
            bool found = false;
            while (i < len && s[i] == '"') {
                size_t after;
                bool eq = key_equals(s, len, i, st->key, st->klen, &after);
                i = skip_ws(s, len, after);
                i = skip_ws(s, len, i + 1); /* the ':' */
                if (eq) {
                    found = true;
                    break;
                }
                i = skip_ws(s, len, skip_value(s, len, i));
                if (i < len && s[i] == ',') {
                    i = skip_ws(s, len, i + 1);
                }
            }
            if (!found) {
                return false;
            }
            continue;
        }
        if (s[i] != '[') {
            return false;
        }
        uint64_t want = st->n;
        if (st->kind == PLAN_JSON_LAST) {
            uint64_t cnt = plan__json_length(s + i, len - i);
            if (want >= cnt) {
                return false;
            }
            want = cnt - 1 - want;
        }
        i = skip_ws(s, len, i + 1);
        if (i < len && s[i] == ']') {
            return false;
        }
        for (uint64_t e = 0; e < want; e++) {
            i = skip_ws(s, len, skip_value(s, len, i));
            if (i >= len || s[i] != ',') {
                return false;
            }
            i = skip_ws(s, len, i + 1);
        }
    }
    if (i >= len) {
        return false;
    }
    *vs = i;
    *ve = skip_value(s, len, i);
    return true;
}

/* ======================================================================================
 * Values
 * ====================================================================================== */

plan_json_kind
plan__json_kind(const char *v, size_t len)
{
    if (len == 0) {
        return PLAN_JSON_NULL;
    }
    switch (v[0]) {
    case '{':
        return PLAN_JSON_OBJECT;
    case '[':
        return PLAN_JSON_ARRAY;
    case '"':
        return PLAN_JSON_STRING;
    case 't':
    case 'f':
        return PLAN_JSON_BOOL;
    case 'n':
        return PLAN_JSON_NULL;
    default:
        break;
    }
    for (size_t i = 0; i < len; i++) {
        if (v[i] == '.' || v[i] == 'e' || v[i] == 'E') {
            return PLAN_JSON_DOUBLE;
        }
    }
    __int128 x = plan__json_int(v, len);
    if (x >= INT32_MIN && x <= INT32_MAX) {
        return PLAN_JSON_INT;
    }
    if (x >= INT64_MIN && x <= INT64_MAX) {
        return PLAN_JSON_BIGINT;
    }
    return PLAN_JSON_LARGEINT;
}

const char *
plan__json_kind_name(plan_json_kind k)
{
    static const char *const names[] = {
            [PLAN_JSON_NULL] = "null",         [PLAN_JSON_BOOL] = "bool",
            [PLAN_JSON_INT] = "int",           [PLAN_JSON_BIGINT] = "bigint",
            [PLAN_JSON_LARGEINT] = "largeint", [PLAN_JSON_DOUBLE] = "double",
            [PLAN_JSON_STRING] = "string",     [PLAN_JSON_OBJECT] = "object",
            [PLAN_JSON_ARRAY] = "array",
    };
    return names[k];
}

__int128
plan__json_int(const char *v, size_t len)
{
    size_t i = 0;
    bool neg = len > 0 && v[0] == '-';
    i += neg;
    unsigned __int128 x = 0;
    for (; i < len && v[i] >= '0' && v[i] <= '9'; i++) {
        x = x * 10 + (unsigned)(v[i] - '0');
    }
    return neg ? (__int128)(0 - x) : (__int128)x;
}

double
plan__json_double(const char *v, size_t len)
{
    char b[64];
    if (len >= sizeof b) {
        len = sizeof b - 1; /* a normal form prints doubles in at most 23 bytes */
    }
    memcpy(b, v, len);
    b[len] = '\0';
    return strtod(b, NULL);
}

uint64_t
plan__json_length(const char *v, size_t len)
{
    if (len == 0 || (v[0] != '[' && v[0] != '{')) {
        return 1;
    }
    size_t i = skip_ws(v, len, 1);
    if (i < len && (v[i] == ']' || v[i] == '}')) {
        return 0;
    }
    uint64_t cnt = 0;
    bool obj = v[0] == '{';
    while (i < len) {
        if (obj) {
            i = skip_ws(v, len, skip_string(v, len, i));
            i = skip_ws(v, len, i + 1);
        }
        i = skip_ws(v, len, skip_value(v, len, i));
        cnt++;
        if (i >= len || v[i] != ',') {
            break;
        }
        i = skip_ws(v, len, i + 1);
    }
    return cnt;
}

char *
plan__json_unescape(arena *a, const char *v, size_t len, size_t *out_len)
{
    char *out = arena_alloc(a, len + 1);
    size_t o = 0;
    size_t i = 1, end = len > 0 ? len - 1 : 0;
    while (i < end) {
        if (v[i] != '\\') {
            out[o++] = v[i++];
            continue;
        }
        char x = v[i + 1];
        i += 2;
        switch (x) {
        case 'b':
            out[o++] = '\b';
            break;
        case 'f':
            out[o++] = '\f';
            break;
        case 'n':
            out[o++] = '\n';
            break;
        case 'r':
            out[o++] = '\r';
            break;
        case 't':
            out[o++] = '\t';
            break;
        case 'u': { /* the normal form keeps \u only below U+0020 */
            unsigned cp = 0;
            if (hex4(v, len, i, &cp) == 0) {
                i += 4;
            }
            out[o++] = (char)(cp < 0x80 ? cp : '?');
            break;
        }
        default:
            out[o++] = x;
            break;
        }
    }
    out[o] = '\0';
    *out_len = o;
    return out;
}

/* Equality of two scalars in normal form: numbers by value, the rest by bytes. */
static bool
scalar_equal(const char *a, size_t alen, const char *b, size_t blen)
{
    plan_json_kind ka = plan__json_kind(a, alen), kb = plan__json_kind(b, blen);
    bool na = ka >= PLAN_JSON_INT && ka <= PLAN_JSON_DOUBLE;
    bool nb = kb >= PLAN_JSON_INT && kb <= PLAN_JSON_DOUBLE;
    if (na && nb) {
        if (ka != PLAN_JSON_DOUBLE && kb != PLAN_JSON_DOUBLE) {
            return plan__json_int(a, alen) == plan__json_int(b, blen);
        }
        return plan__json_double(a, alen) == plan__json_double(b, blen);
    }
    return alen == blen && memcmp(a, b, alen) == 0;
}

bool
plan__json_contains(const char *t, size_t tlen, const char *c, size_t clen)
{
    plan_json_kind kt = plan__json_kind(t, tlen), kc = plan__json_kind(c, clen);
    if (kt == PLAN_JSON_ARRAY) {
        if (kc == PLAN_JSON_ARRAY) { /* every candidate element is in the target */
            size_t i = skip_ws(c, clen, 1);
            while (i < clen && c[i] != ']') {
                size_t e = skip_value(c, clen, i);
                if (!plan__json_contains(t, tlen, c + i, e - i)) {
                    return false;
                }
                i = skip_ws(c, clen, e);
                i = skip_ws(c, clen, i + (i < clen && c[i] == ','));
            }
            return true;
        }
        size_t i = skip_ws(t, tlen, 1); /* some target element contains the candidate */
        while (i < tlen && t[i] != ']') {
            size_t e = skip_value(t, tlen, i);
            if (plan__json_contains(t + i, e - i, c, clen)) {
                return true;
            }
            i = skip_ws(t, tlen, e);
            i = skip_ws(t, tlen, i + (i < tlen && t[i] == ','));
        }
        return false;
    }
    if (kt == PLAN_JSON_OBJECT) {
        if (kc != PLAN_JSON_OBJECT) {
            return false;
        }
        size_t i = skip_ws(c, clen, 1);
        while (i < clen && c[i] == '"') {
            size_t ke = skip_string(c, clen, i);
            size_t vs = skip_ws(c, clen, skip_ws(c, clen, ke) + 1);
            size_t ve = skip_value(c, clen, vs);
            /* the member of the same name in the target: names in normal form are equal
             * exactly when their tokens are */
            size_t j = skip_ws(t, tlen, 1);
            bool ok = false;
            while (j < tlen && t[j] == '"') {
                size_t tke = skip_string(t, tlen, j);
                size_t tvs = skip_ws(t, tlen, skip_ws(t, tlen, tke) + 1);
                size_t tve = skip_value(t, tlen, tvs);
                if (tke - j == ke - i && memcmp(t + j, c + i, ke - i) == 0 &&
                    plan__json_contains(t + tvs, tve - tvs, c + vs, ve - vs)) {
                    ok = true;
                    break;
                }
                j = skip_ws(t, tlen, tve);
                j = skip_ws(t, tlen, j + (j < tlen && t[j] == ','));
            }
            if (!ok) {
                return false;
            }
            i = skip_ws(c, clen, ve);
            i = skip_ws(c, clen, i + (i < clen && c[i] == ','));
        }
        return true;
    }
    if (kc == PLAN_JSON_ARRAY || kc == PLAN_JSON_OBJECT) {
        return false;
    }
    return scalar_equal(t, tlen, c, clen);
}

/* ======================================================================================
 * Building
 * ====================================================================================== */

char *
plan__json_quote(arena *a, const char *s, size_t len, size_t *out_len)
{
    jw w = {.a = a};
    w.cap = len + 16;
    w.p = arena_alloc(a, w.cap);
    jw_byte(&w, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            put_escaped_byte(&w, c);
        } else {
            jw_byte(&w, (char)c);
        }
    }
    jw_byte(&w, '"');
    w.p[w.len] = '\0';
    *out_len = w.len;
    return w.p;
}
