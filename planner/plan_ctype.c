/* SPDX-License-Identifier: Apache-2.0
 * plan_ctype.c: case mapping of UTF-8 text for UPPER / LOWER and utf8mb4_general_ci-like
 * comparison. The mapping itself is the C library's (towupper_l / towlower_l in the C.UTF-8
 * LC_CTYPE locale); decoding and encoding UTF-8 is done here so that invalid bytes pass
 * through unchanged. Without that locale only ASCII letters are mapped.
 * See README.md §Decisions where MySQL and Doris differ. */
#include "planner/plan_int.h"

#include <stdint.h>
#include <string.h>
#include <wctype.h>

/* Decoded values at or above this are invalid bytes (INVALID_BASE + byte), never mapped. */
#define INVALID_BASE 0x110000u

static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
static size_t utf8_encode(uint32_t cp, char *out);
static uint32_t map_char(locale_t loc, bool upper, uint32_t cp);

locale_t
plan__ctype_new(void)
{
    return newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

void
plan__ctype_free(locale_t loc)
{
    if (loc != (locale_t)0) {
        freelocale(loc);
    }
}

/* One character of s[0..len) (len > 0): its code point and byte count. Overlong forms,
 * surrogates and truncated sequences are one invalid byte (INVALID_BASE + byte). */
static size_t
utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char b = s[0];
    size_t n;
    uint32_t v, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    if (b >= 0xC2 && b <= 0xDF) {
        n = 2, v = b & 0x1Fu, min = 0x80;
    } else if (b >= 0xE0 && b <= 0xEF) {
        n = 3, v = b & 0x0Fu, min = 0x800;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4, v = b & 0x07u, min = 0x10000;
    } else {
        *cp = INVALID_BASE + b;
        return 1;
    }
    if (len < n) {
        *cp = INVALID_BASE + b;
        return 1;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = INVALID_BASE + b;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = INVALID_BASE + b;
        return 1;
    }
    *cp = v;
    return n;
}

/* UTF-8 bytes of a valid code point into out (room for 4); returns the count. */
static size_t
utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Upper or lower case of one code point; invalid bytes and results that are not valid scalar
 * values are left alone. */
static uint32_t
map_char(locale_t loc, bool upper, uint32_t cp)
{
    if (cp < 0x80 || loc == (locale_t)0) {
        if (upper && cp >= 'a' && cp <= 'z') {
            return cp - 32;
        }
        if (!upper && cp >= 'A' && cp <= 'Z') {
            return cp + 32;
        }
        return cp;
    }
    if (cp >= INVALID_BASE) {
        return cp;
    }
    wint_t m = upper ? towupper_l((wint_t)cp, loc) : towlower_l((wint_t)cp, loc);
    if ((uint32_t)m > 0x10FFFF || ((uint32_t)m >= 0xD800 && (uint32_t)m <= 0xDFFF)) {
        return cp;
    }
    return (uint32_t)m;
}

#include "planner/plan_ci_fold.h"

/* The general_ci weight of one code point: an accented Latin letter weighs as its base letter
 * (plan_ci_fold.h), any other character as its upper case. */
static uint32_t
ci_weight(locale_t loc, uint32_t cp)
{
    if (cp >= 0xC0 && cp < 0x250) {
        size_t lo = 0, hi = sizeof ci_fold / sizeof ci_fold[0];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ci_fold[mid].cp < cp) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo < sizeof ci_fold / sizeof ci_fold[0] && ci_fold[lo].cp == cp) {
            return ci_fold[lo].weight;
        }
    }
    return map_char(loc, true, cp);
}

/* How map_text maps one character. */
typedef enum text_map { TM_LOWER, TM_UPPER, TM_WEIGHT } text_map;

/* s[0..len) with every character mapped (invalid bytes kept) into out (2 * len bytes). */
static size_t
map_text(locale_t loc, text_map how, const char *s, size_t len, char *out)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (cp >= INVALID_BASE) {
            out[o++] = s[i];
        } else {
            char enc[4];
            uint32_t m_cp =
                    how == TM_WEIGHT ? ci_weight(loc, cp) : map_char(loc, how == TM_UPPER, cp);
            size_t m = utf8_encode(m_cp, enc);
            /* A character never grows by more than its own length (2 -> 3 bytes at most). */
            DB_ASSERT(m <= 2 * n);
            memcpy(out + o, enc, m);
            o += m;
        }
        i += n;
    }
    return o;
}

/* ---- the ASCII fast path ----
 * An ASCII character's general_ci weight is its ASCII upper case: ci_weight sends every code
 * point below 0x80 to map_char, which maps only 'a'..'z' there, whatever the locale (checked
 * for all 128 by tests/planner/test_ci_ascii.c). A run of ASCII bytes is a run of one-byte
 * characters, so the character-by-character loops may start right after one. */

#define ASCII_HIGH 0x8080808080808080ull
#define ASCII_ONES 0x0101010101010101ull

/* The 8 ASCII bytes of w (no byte >= 0x80) with 'a'..'z' upper-cased. Per byte, b + 0x1F sets
 * bit 7 when b >= 'a' and b + 0x05 when b > 'z', with no carry out of a byte (b < 0x80). */
static inline uint64_t
ascii_upper8(uint64_t w)
{
    uint64_t ge_a = w + 0x1F * ASCII_ONES, gt_z = w + 0x05 * ASCII_ONES;
    return w ^ (((ge_a & ~gt_z) & ASCII_HIGH) >> 2);
}

static inline unsigned char
ascii_upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 32) : c;
}

/* Fold the leading ASCII bytes of s[0..len) into out (upper case); returns how many there
 * were (len when s is pure ASCII). Eight bytes at a time. */
static size_t
ascii_fold_prefix(const char *s, size_t len, char *out)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & ASCII_HIGH) {
            break;
        }
        w = ascii_upper8(w);
        memcpy(out + i, &w, 8);
    }
    for (; i < len && (unsigned char)s[i] < 0x80; i++) {
        out[i] = (char)ascii_upper((unsigned char)s[i]);
    }
    return i;
}

size_t
plan__ci_fold(locale_t loc, const char *s, size_t len, char *out)
{
    size_t i = ascii_fold_prefix(s, len, out);
    if (i == len) {
        return len;
    }
    return i + map_text(loc, TM_WEIGHT, s + i, len - i, out + i);
}

size_t
plan__ci_fold_slow(locale_t loc, const char *s, size_t len, char *out)
{
    return map_text(loc, TM_WEIGHT, s, len, out);
}

const char *
plan__ci_fold_in(plan_ectx *cx, const char *s, size_t *len)
{
    char *out = arena_alloc(cx->a, 2 * *len + 1);
    *len = plan__ci_fold(cx->s->srv ? cx->s->srv->ctype : (locale_t)0, s, *len, out);
    return out;
}

size_t
plan__case_map(locale_t loc, bool upper, const char *s, size_t len, char *out)
{
    return map_text(loc, upper ? TM_UPPER : TM_LOWER, s, len, out);
}

/* plan__cmp_ci over x[i..al) and y[j..bl) (trailing spaces already dropped), character by
 * character. */
static int
cmp_ci_from(locale_t loc, const unsigned char *x, size_t i, size_t al, const unsigned char *y,
            size_t j, size_t bl)
{
    while (i < al && j < bl) {
        uint32_t ca, cb;
        i += utf8_decode(x + i, al - i, &ca);
        j += utf8_decode(y + j, bl - j, &cb);
        /* general_ci weighs a character by its upper case (so 'a' < '_', as MySQL), an
         * accented Latin letter by its base letter ('é' = 'E'). */
        ca = ci_weight(loc, ca);
        cb = ci_weight(loc, cb);
        if (ca != cb) {
            return ca < cb ? -1 : 1;
        }
    }
    return i < al ? 1 : (j < bl ? -1 : 0);
}

static size_t
trim_spaces(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ') {
        len--;
    }
    return len;
}

int
plan__cmp_ci(locale_t loc, const char *a, size_t al, const char *b, size_t bl)
{
    al = trim_spaces(a, al);
    bl = trim_spaces(b, bl);
    /* The common ASCII prefix: equal words are equal weights; a word pair that differs (or
     * holds a non-ASCII byte) goes to the byte loop, which stops at the first non-ASCII byte
     * (both sides are at the same character there: every byte before was one character). */
    size_t n = al < bl ? al : bl, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (((x | y) & ASCII_HIGH) || (x != y && ascii_upper8(x) != ascii_upper8(y))) {
            break;
        }
    }
    for (; i < n; i++) {
        unsigned char ca = (unsigned char)a[i], cb = (unsigned char)b[i];
        if ((ca | cb) & 0x80) {
            break;
        }
        ca = ascii_upper(ca);
        cb = ascii_upper(cb);
        if (ca != cb) {
            return ca < cb ? -1 : 1;
        }
    }
    return cmp_ci_from(loc, (const unsigned char *)a, i, al, (const unsigned char *)b, i, bl);
}

int
plan__cmp_ci_slow(locale_t loc, const char *a, size_t al, const char *b, size_t bl)
{
    al = trim_spaces(a, al);
    bl = trim_spaces(b, bl);
    return cmp_ci_from(loc, (const unsigned char *)a, 0, al, (const unsigned char *)b, 0, bl);
}
