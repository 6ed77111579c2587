/* FUZZ_SOURCES: common */
/* SPDX-License-Identifier: Apache-2.0
 * libFuzzer harness for the JSON scanner (planner/plan_json.c, compiled in directly: it
 * depends on common/ only). The input is validated and normalized; a normal form must be
 * valid, must normalize to itself, and must agree with the validator. The first line, when
 * it starts with '$', is also parsed as a path and followed over the normal form, and the
 * value helpers run on what it finds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "planner/plan_json.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    arena *a = arena_new(0);
    plan_json_path path = {0};
    bool has_path = false;
    const char *nl = memchr(s, '\n', size);
    if (size > 0 && s[0] == '$' && nl != NULL) {
        has_path = plan__json_path_parse(a, s, (size_t)(nl - s), &path);
    }
    plan_json_err e;
    bool ok = plan__json_valid(s, size, &e);
    size_t nlen = 0;
    char *norm = plan__json_normalize(a, s, size, &nlen, &e);
    if (ok != (norm != NULL)) {
        abort();
    }
    if (norm != NULL) {
        size_t n2 = 0;
        char *again = plan__json_normalize(a, norm, nlen, &n2, &e);
        if (again == NULL || n2 != nlen || memcmp(again, norm, nlen) != 0) {
            abort();
        }
        (void)plan__json_length(norm, nlen);
        (void)plan__json_contains(norm, nlen, norm, nlen);
    }
    if (has_path && nl != NULL) {
        size_t rest = size - (size_t)(nl - s) - 1;
        size_t dlen = 0;
        char *doc = plan__json_normalize(a, nl + 1, rest, &dlen, &e);
        size_t vs, ve;
        if (doc != NULL && plan__json_find(doc, dlen, &path, &vs, &ve)) {
            if (ve < vs || ve > dlen) {
                abort();
            }
            plan_json_kind k = plan__json_kind(doc + vs, ve - vs);
            (void)plan__json_kind_name(k);
            size_t ul;
            if (k == PLAN_JSON_STRING) {
                (void)plan__json_unescape(a, doc + vs, ve - vs, &ul);
            } else if (k == PLAN_JSON_DOUBLE) {
                (void)plan__json_double(doc + vs, ve - vs);
            }
            if (!plan__json_contains(doc, dlen, doc + vs, ve - vs) && k != PLAN_JSON_OBJECT &&
                k != PLAN_JSON_ARRAY && vs == 0) {
                abort();
            }
            size_t ql;
            (void)plan__json_quote(a, doc + vs, ve - vs, &ql);
        }
    }
    arena_free(a);
    return 0;
}
