/* SPDX-License-Identifier: Apache-2.0
 * strutil: ASCII folding and a backtracking-free LIKE matcher. */
#include "common/strutil.h"

#include <string.h>

static unsigned char fold(unsigned char c);
static size_t utf8_len(unsigned char c);

static unsigned char
fold(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

/* Bytes in the UTF-8 sequence that starts with c (1 for stray continuation bytes). */
static size_t
utf8_len(unsigned char c)
{
    if (c >= 0xF0) {
        return 4;
    }
    if (c >= 0xE0) {
        return 3;
    }
    if (c >= 0xC0) {
        return 2;
    }
    return 1;
}

bool
str_ieq(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen != blen) {
        return false;
    }
    for (size_t i = 0; i < alen; i++) {
        if (fold((unsigned char)a[i]) != fold((unsigned char)b[i])) {
            return false;
        }
    }
    return true;
}

bool
str_ieqz(const char *a, size_t alen, const char *b)
{
    return str_ieq(a, alen, b, strlen(b));
}

void
str_lower(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        s[i] = (char)fold((unsigned char)s[i]);
    }
}

/* Iterative matcher with one saved position for the last `%` (the classic glob algorithm):
 * linear in practice and never recursive, so hostile patterns cannot blow the stack. */
bool
str_like(const char *s, size_t slen, const char *pat, size_t plen, char esc, bool ci)
{
    size_t si = 0, pi = 0;
    size_t star_p = (size_t)-1, star_s = 0;
    while (si < slen) {
        if (pi < plen && pat[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < plen && pat[pi] == '_') {
            si += utf8_len((unsigned char)s[si]);
            if (si > slen) {
                si = slen;
            }
            pi++;
            continue;
        }
        if (pi < plen) {
            size_t q = pi;
            if (pat[q] == esc && q + 1 < plen) {
                q++;
            }
            unsigned char pc = (unsigned char)pat[q], sc = (unsigned char)s[si];
            if (ci ? fold(pc) == fold(sc) : pc == sc) {
                si++;
                pi = q + 1;
                continue;
            }
        }
        if (star_p == (size_t)-1) {
            return false;
        }
        star_s += utf8_len((unsigned char)s[star_s]);
        if (star_s > slen) {
            star_s = slen;
        }
        si = star_s;
        pi = star_p;
    }
    while (pi < plen && pat[pi] == '%') {
        pi++;
    }
    return pi == plen;
}
