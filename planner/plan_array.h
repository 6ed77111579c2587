/* SPDX-License-Identifier: Apache-2.0
 * plan_array.h: the text form of Doris ARRAY values (plan_array.c). An ARRAY value is a string
 * holding its canonical text, as Doris 2.1 prints arrays over the MySQL protocol: `[1, 2,
 * null]`, `["a", "b"]`, `["2024-01-02"]`, `[[1], []]`. This module scans array texts element
 * by element (no tree, no allocation), builds canonical texts in an arena and reads element
 * types from the catalog's `inner` text. Element conversion (to the element type) is the
 * caller's: plan_dml.c for columns, plan_func_array.c for functions. Depends on common/ only
 * (plus the plain cat_type struct), so the fuzzer and the unit tests link it alone. See
 * README.md §ARRAY. */
#ifndef PLANNER_PLAN_ARRAY_H
#define PLANNER_PLAN_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "common/arena.h"

/* What one element of an array text is. */
typedef enum plan_arr_kind {
    PLAN_ARR_NULL,  /* null / NULL, unquoted */
    PLAN_ARR_STR,   /* "..." or '...': s/len are the bytes between the quotes, escapes kept */
    PLAN_ARR_ARRAY, /* a nested array: s/len span its brackets */
    PLAN_ARR_BARE,  /* anything else (a number, true): s/len the token without blanks */
} plan_arr_kind;

typedef struct plan_arr_elem {
    plan_arr_kind kind;
    char quote; /* PLAN_ARR_STR: '"' or '\'' */
    const char *s;
    size_t len;
} plan_arr_elem;

/* A scan over one array text. */
typedef struct plan_arr_iter {
    const char *s;
    size_t len;
    size_t pos;
    bool first; /* no element read yet */
    bool done;  /* the closing bracket was read */
} plan_arr_iter;

/* Starts a scan of s[0..len): blanks, then '['. False when the text does not start an array. */
bool plan__arr_begin(plan_arr_iter *it, const char *s, size_t len);

/* The next element into *e: 1 for an element, 0 at the end (the closing ']' followed only by
 * blanks), -1 when the text is malformed (unterminated quote or bracket, empty element,
 * missing comma, a quote or bracket inside a bare token, text after the array). Allocates
 * nothing; nesting depth is counted, not recursed. */
int plan__arr_next(plan_arr_iter *it, plan_arr_elem *e);

/* Number of elements of a well-formed array text, or -1 when it is malformed. */
int64_t plan__arr_count(const char *s, size_t len);

/* The characters of a PLAN_ARR_STR element: backslash escapes (\" \' \\ \n \t \r \b \f \0)
 * removed into dst (at least len bytes). Returns the length written. */
size_t plan__arr_unescape(const char *s, size_t len, char *dst);

/* ---- building canonical texts ---- */

/* A growing text in an arena (the old block stays in the arena when it grows). */
typedef struct plan_arr_out {
    arena *a;
    char *p;
    size_t len, cap;
    uint32_t n; /* elements written */
} plan_arr_out;

void plan__arr_out_init(plan_arr_out *o, arena *a);
void plan__arr_out_raw(plan_arr_out *o, const char *s, size_t len);
/* Element separators: call before each element (writes "[" or ", "). */
void plan__arr_out_sep(plan_arr_out *o);
/* One element as written (numbers, nested arrays). */
void plan__arr_out_elem(plan_arr_out *o, const char *s, size_t len);
/* One string element, double-quoted with '"' and '\\' escaped. */
void plan__arr_out_str(plan_arr_out *o, const char *s, size_t len);
void plan__arr_out_null(plan_arr_out *o);
/* Closes the array ("]", or "[]" when empty); returns the NUL-terminated text. */
const char *plan__arr_out_end(plan_arr_out *o, size_t *len);

/* ---- element types ---- */

/* The type named by SQL text such as `int`, `decimal(10,2)`, `varchar(20)`, `text`,
 * `datetime(3)`, `array<int>` (the catalog's cat_type.inner of an ARRAY). False for text that
 * names no type Rivulet can hold in an array (json, map, variant, unknown words). */
bool plan__arr_type_parse(const char *s, size_t len, cat_type *out);

/* True when elements of type t print quoted (strings, dates, datetimes). */
bool plan__arr_type_quoted(const cat_type *t);

#endif
