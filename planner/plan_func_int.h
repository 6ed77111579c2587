/* SPDX-License-Identifier: Apache-2.0
 * plan_func_int.h: type rules of the built-in functions defined outside plan_func.c, for its
 * registry: date/time (plan_func_date.c) and string, hash, regular-expression and math
 * functions (plan_func_str.c). Each sets e->t, e->vk and e->eval like the rules in
 * plan_func.c. Also the small UTF-8 and argument helpers those files share. See README.md
 * §Functions. */
#ifndef PLANNER_PLAN_FUNC_INT_H
#define PLANNER_PLAN_FUNC_INT_H

#include "planner/plan_int.h"

#include <roaring/roaring.h>

/* Name of the internal node `INTERVAL expr unit` (op = its plan_unit); only the
 * grammar builds it, as the second argument of DATE_ADD & co. */
#define PLAN_INTERVAL_FN "%interval"

/* Byte length of the UTF-8 sequence whose lead byte is c (1 for continuation bytes). */
static inline size_t
plan__u8len(unsigned char c)
{
    return c >= 0xF0 ? 4 : (c >= 0xE0 ? 3 : (c >= 0xC0 ? 2 : 1));
}

/* Number of UTF-8 characters in s[0..len). */
static inline size_t
plan__u8_chars(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i += plan__u8len((unsigned char)s[i])) {
        n++;
    }
    return n;
}

/* Byte offset of character nchars (clamped to len). */
static inline size_t
plan__u8_offset(const char *s, size_t len, size_t nchars)
{
    size_t i = 0;
    while (i < len && nchars > 0) {
        i += plan__u8len((unsigned char)s[i]);
        nchars--;
    }
    return i > len ? len : i;
}

/* True when some argument of e is nullable or the NULL literal. */
static inline bool
plan__nullable_args(const plan_expr *e)
{
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (e->args[i]->t.nullable || e->args[i]->vk == PV_NULL) {
            return true;
        }
    }
    return false;
}

/* plan_func_date.c */
int plan__ty_date_part(plan_ectx *cx, plan_expr *e, db_error *err);
/* EXTRACT(unit FROM x): the unit is the call's AST op (a plan_unit). */
int plan__ty_extract(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_format(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_add(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_interval(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_datediff(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_timestampdiff(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_conv(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_from_unixtime(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_str_to_date(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_convert_tz(plan_ectx *cx, plan_expr *e, db_error *err);
/* Doris: YEARS_ADD ... SECONDS_SUB, YEARS_DIFF ... SECONDS_DIFF (end, start), DATE_TRUNC. */
int plan__ty_doris_date_add(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_doris_diff(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_trunc(plan_ectx *cx, plan_expr *e, db_error *err);
/* Week number of y-m-d under MySQL's internal week behaviour bits (calc_week); *year gets
 * the year the week belongs to. Exposed for the unit tests. */
unsigned plan__calc_week(int64_t y, unsigned m, unsigned d, unsigned behaviour, int64_t *year);

/* plan_func_json.c: every JSON function (JSON_*, JSONB_*, GET_JSON_*); checks its own
 * argument counts. */
int plan__ty_json(plan_ectx *cx, plan_expr *e, db_error *err);
/* plan_func_array.c: every Doris array function (ARRAY, ARRAY_*, ARRAYS_OVERLAP, ELEMENT_AT,
 * SIZE, CARDINALITY); the name picks the function. */
int plan__ty_array(plan_ectx *cx, plan_expr *e, db_error *err);

/* plan_func_str.c */
int plan__ty_str_misc2(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_str_int(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_hash(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_regexp(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_math1(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_truncate(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_rand(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_conv(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_elt(plan_ectx *cx, plan_expr *e, db_error *err);
/* FORMAT(x, d), UUID(), NULL_OR_EMPTY(s) / NOT_NULL_OR_EMPTY(s). */
int plan__ty_format(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_uuid(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_null_or_empty(plan_ectx *cx, plan_expr *e, db_error *err);
/* Reflected CRC-32 (ISO-HDLC, as zlib's crc32) of p[0..n). */
uint32_t plan__crc32(const void *p, size_t n);
/* MurmurHash3 x64_128, first 64 bits, as Doris's murmur_hash3_64 (seed 0). */
uint64_t plan__murmur3_64(const void *p, size_t n, uint64_t seed);

/* plan_func_bitmap.c: TO_BITMAP, BITMAP_COUNT, BITMAP_TO_STRING, BITMAP_FROM_STRING,
 * BITMAP_CONTAINS, BITMAP_EMPTY, BITMAP_HASH. A bitmap value is a binary string holding the
 * CRoaring portable serialization of a 32-bit roaring bitmap (README.md §Functions). */
int plan__ty_bitmap(plan_ectx *cx, plan_expr *e, db_error *err);
/* The bitmap serialized in s[0..len) (heap; roaring_bitmap_free it), or NULL when those bytes
 * are not exactly one portable serialization. */
roaring_bitmap_t *plan__bitmap_decode(const char *s, size_t len);
/* bm (run-optimized in place) serialized as a binary string value in a. */
plan_value plan__bitmap_value(arena *a, roaring_bitmap_t *bm);
/* The bitmap element v stands for, as Doris TO_BITMAP reads it: an integer or a decimal-digit
 * string in [0, UINT32_MAX]; false for NULL, negatives, larger values and other text. */
bool plan__bitmap_elem(plan_ectx *cx, const plan_value *v, uint32_t *out);

#endif
