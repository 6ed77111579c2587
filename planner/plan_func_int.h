/* SPDX-License-Identifier: Apache-2.0
 * plan_func_int.h: type rules of the built-in functions defined outside plan_func.c, for its
 * registry: date/time (plan_func_date.c) and string, hash, regular-expression and math
 * functions (plan_func_str.c). Each sets e->t, e->vk and e->eval like the rules in
 * plan_func.c. See README.md §Functions. */
#ifndef PLANNER_PLAN_FUNC_INT_H
#define PLANNER_PLAN_FUNC_INT_H

#include "planner/plan_int.h"

/* Name of the internal node `INTERVAL expr unit` (op = the unit's TK_* code); only the
 * grammar builds it, as the second argument of DATE_ADD & co. */
#define PLAN_INTERVAL_FN "%interval"

/* plan_func_date.c */
int plan__ty_date_part(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_format(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_add(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_interval(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_datediff(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_timestampdiff(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_date_conv(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_from_unixtime(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_str_to_date(plan_ectx *cx, plan_expr *e, db_error *err);
int plan__ty_convert_tz(plan_ectx *cx, plan_expr *e, db_error *err);
/* Week number of y-m-d under MySQL's internal week behaviour bits (calc_week); *year gets
 * the year the week belongs to. Exposed for the unit tests. */
unsigned plan__calc_week(int64_t y, unsigned m, unsigned d, unsigned behaviour, int64_t *year);

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
/* Reflected CRC-32 (ISO-HDLC, as zlib's crc32) of p[0..n). */
uint32_t plan__crc32(const void *p, size_t n);
/* MurmurHash3 x64_128, first 64 bits, as Doris's murmur_hash3_64 (seed 0). */
uint64_t plan__murmur3_64(const void *p, size_t n, uint64_t seed);

#endif
