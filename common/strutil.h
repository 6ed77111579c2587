/* SPDX-License-Identifier: Apache-2.0
 * strutil: small string helpers shared by every module: ASCII case folding and SQL LIKE.
 * See common/README.md. */
#ifndef COMMON_STRUTIL_H
#define COMMON_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>

/* ASCII case-insensitive equality of a[0..alen) and b[0..blen). */
bool str_ieq(const char *a, size_t alen, const char *b, size_t blen);
/* ASCII case-insensitive equality of a[0..alen) and the NUL-terminated b. */
bool str_ieqz(const char *a, size_t alen, const char *b);
/* SQL LIKE: `%` any run, `_` one character (UTF-8 aware), escape char esc (usually '\\').
 * Case-insensitive when ci (ASCII folding, as MySQL's *_general_ci for ASCII). */
bool str_like(const char *s, size_t slen, const char *pat, size_t plen, char esc, bool ci);
/* Lower-case ASCII in place. */
void str_lower(char *s, size_t len);

#endif /* COMMON_STRUTIL_H */
