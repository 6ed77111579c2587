/* SPDX-License-Identifier: Apache-2.0
 * plan_json.h: the JSON text scanner behind the JSON column type and the JSON functions
 * (plan_json.c). No tree is built: a value is validated and normalized in one pass into an
 * arena buffer, and paths are followed over the normalized text. Depends on common/ only, so
 * the fuzzer and the unit tests link it alone. See README.md §JSON. */
#ifndef PLANNER_PLAN_JSON_H
#define PLANNER_PLAN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

/* Deepest nesting of arrays and objects a JSON text may have; deeper is an error, not a
 * stack overflow (the scanner is iterative). */
#define PLAN_JSON_MAX_DEPTH 1024

/* Why a text is not JSON: a static message and the byte offset where the scan stopped. */
typedef struct plan_json_err {
    const char *msg;
    size_t pos;
} plan_json_err;

/* True when s[0..len) is exactly one JSON value (RFC 8259: UTF-8, escapes, \u surrogate
 * pairs, numbers), blanks around allowed. Integers beyond the signed 128-bit range and
 * numbers that overflow a double are rejected (Doris cannot hold them). Allocates nothing;
 * e (may be NULL) says why not. */
bool plan__json_valid(const char *s, size_t len, plan_json_err *e);

/* Validate s[0..len) as plan__json_valid does and write its normal form into a: no blanks
 * outside strings; strings keep their characters, escaping only '"', '\\' and control
 * characters (\b \f \n \r \t, others \u00xx), so \u escapes of other characters become
 * UTF-8; integers in decimal (-0 is 0); other numbers as printf("%.15g") (Doris JSONB);
 * object members keep their order and duplicates. Returns the text (NUL-terminated, *out_len
 * bytes, in a), or NULL with e filled when the input is not JSON. Normalizing a normal form
 * returns it unchanged. */
char *plan__json_normalize(arena *a, const char *s, size_t len, size_t *out_len, plan_json_err *e);

/* ---- paths ---- */

typedef enum plan_json_step_kind {
    PLAN_JSON_KEY,   /* .key or ."quoted key" */
    PLAN_JSON_INDEX, /* [n] */
    PLAN_JSON_LAST,  /* [last] or [last-n]: n counted back from the last element */
} plan_json_step_kind;

typedef struct plan_json_step {
    plan_json_step_kind kind;
    const char *key; /* KEY: the name's bytes (points into the path text) */
    size_t klen;
    uint64_t n; /* INDEX: the index; LAST: the distance back from the last element */
} plan_json_step;

typedef struct plan_json_path {
    plan_json_step *steps; /* in the arena given to plan__json_path_parse */
    uint32_t nsteps;
} plan_json_path;

/* Parse a Doris JSON path: `$` followed by steps `.key`, `."key with . or ["`, `[n]`,
 * `[last]`, `[last-n]` (a `.` before `[` is allowed: `$.[1]`). Keys point into p, which must
 * outlive the path. Returns false for anything else (wildcards included). */
bool plan__json_path_parse(arena *a, const char *p, size_t len, plan_json_path *out);

/* Follow path over the JSON text s[0..len), which must be valid (a normal form or any text
 * plan__json_valid accepts). A key step needs an object (the first member with that name
 * wins), an index step an array. Returns true with the value's bytes s[*vs..*ve), false when
 * the path leads nowhere. Allocates nothing. */
bool plan__json_find(const char *s, size_t len, const plan_json_path *path, size_t *vs, size_t *ve);

/* ---- values (each takes one whole value of a normal form) ---- */

typedef enum plan_json_kind {
    PLAN_JSON_NULL,
    PLAN_JSON_BOOL,
    PLAN_JSON_INT,      /* an integer that fits 32 bits */
    PLAN_JSON_BIGINT,   /* an integer that fits 64 bits */
    PLAN_JSON_LARGEINT, /* a wider integer (128 bits) */
    PLAN_JSON_DOUBLE,
    PLAN_JSON_STRING,
    PLAN_JSON_OBJECT,
    PLAN_JSON_ARRAY,
} plan_json_kind;

plan_json_kind plan__json_kind(const char *v, size_t len);
/* Doris's JSON_TYPE name of a kind: null bool int bigint largeint double string object array. */
const char *plan__json_kind_name(plan_json_kind k);
/* The integer value of an INT / BIGINT / LARGEINT value. */
__int128 plan__json_int(const char *v, size_t len);
/* The value of a number. */
double plan__json_double(const char *v, size_t len);
/* Members of an object, elements of an array, 1 for a scalar. */
uint64_t plan__json_length(const char *v, size_t len);
/* The characters of a string value (quotes removed, escapes decoded), in a. */
char *plan__json_unescape(arena *a, const char *v, size_t len, size_t *out_len);
/* MySQL's JSON_CONTAINS: is candidate contained in target (both whole normal-form values)? */
bool plan__json_contains(const char *t, size_t tlen, const char *c, size_t clen);

/* ---- building ---- */

/* s[0..len) as a JSON string literal (quotes added, escaped as the normal form), in a. */
char *plan__json_quote(arena *a, const char *s, size_t len, size_t *out_len);

#endif
