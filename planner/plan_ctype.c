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

size_t
plan__ci_fold(locale_t loc, const char *s, size_t len, char *out)
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

int
plan__cmp_ci(locale_t loc, const char *a, size_t al, const char *b, size_t bl)
{
    while (al > 0 && a[al - 1] == ' ') {
        al--;
    }
    while (bl > 0 && b[bl - 1] == ' ') {
        bl--;
    }
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t i = 0, j = 0;
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
