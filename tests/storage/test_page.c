/* SPDX-License-Identifier: Apache-2.0
 * Unit tests of the segment page codec (storage/stor_page.c): every encoding round-trips edge
 * values, the smallest encoding is chosen, zone maps are right, and malformed pages are rejected
 * with a reason instead of a crash. White-box: includes storage/stor_int.h. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/mem.h"
#include "storage/stor_int.h"

/* ---- helpers ---- */

static stor_vec
vec_i64(arena *a, const int64_t *vals, const bool *is_null, uint32_t n)
{
    stor_vec v = {.kind = STOR_VEC_I64, .n = n};
    v.i64 = arena_alloc(a, (size_t)n * 8 + 1);
    memcpy(v.i64, vals, (size_t)n * 8);
    if (is_null != NULL) {
        v.nulls = arena_calloc(a, 1, (n + 7) / 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            if (is_null[i]) {
                v.nulls[i / 8] |= (uint8_t)(1u << (i % 8));
            }
        }
    }
    return v;
}

/* Strings from (pointer, length) pairs; a NULL pointer is a NULL row. */
static stor_vec
vec_bytes(arena *a, const char *const *s, const size_t *lens, uint32_t n)
{
    stor_vec v = {.kind = STOR_VEC_BYTES, .n = n};
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        total += s[i] != NULL ? lens[i] : 0;
    }
    v.offs = arena_alloc(a, ((size_t)n + 1) * 8);
    v.data = arena_alloc(a, total + 1);
    v.nulls = arena_calloc(a, 1, (n + 7) / 8 + 1);
    v.offs[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t l = 0;
        if (s[i] == NULL) {
            v.nulls[i / 8] |= (uint8_t)(1u << (i % 8));
        } else {
            l = lens[i];
            memcpy(v.data + v.offs[i], s[i], l);
        }
        v.offs[i + 1] = v.offs[i] + l;
    }
    return v;
}

/* Encode all rows of v, decode, and return the decoded vector; *enc gets the encoding. */
static stor_vec
round_trip(arena *a, const stor_vec *v, uint8_t *enc, stor_zone *zone, size_t *enc_len)
{
    buf b;
    buf_init(&b);
    stor__page_encode(v, 0, v->n, &b, enc, zone);
    stor_vec out;
    const char *why =
            stor__page_decode(v->kind, b.data, b.len, v->n, (uint32_t)zone->null_count, a, &out);
    cr_assert_null(why, "decode failed: %s", why);
    if (enc_len != NULL) {
        *enc_len = b.len;
    }
    buf_destroy(&b);
    return out;
}

static void
assert_same(const stor_vec *x, const stor_vec *y)
{
    cr_assert_eq(x->kind, y->kind);
    cr_assert_eq(x->n, y->n);
    for (uint32_t i = 0; i < x->n; i++) {
        bool xn = stor_vec_is_null(x, i), yn = stor_vec_is_null(y, i);
        cr_assert_eq(xn, yn, "row %u null %d vs %d", i, xn, yn);
        if (xn) {
            continue;
        }
        switch (x->kind) {
        case STOR_VEC_I64:
            cr_assert_eq(x->i64[i], y->i64[i], "row %u: %lld vs %lld", i, (long long)x->i64[i],
                         (long long)y->i64[i]);
            break;
        case STOR_VEC_F64:
            cr_assert_eq(memcmp(&x->f64[i], &y->f64[i], 8), 0, "row %u", i);
            break;
        case STOR_VEC_I128:
            cr_assert(x->i128[i] == y->i128[i], "row %u", i);
            break;
        case STOR_VEC_BYTES: {
            uint64_t lx = x->offs[i + 1] - x->offs[i], ly = y->offs[i + 1] - y->offs[i];
            cr_assert_eq(lx, ly, "row %u length", i);
            cr_assert_eq(memcmp(x->data + x->offs[i], y->data + y->offs[i], lx), 0, "row %u", i);
            break;
        }
        }
    }
}

/* ---- integers ---- */

Test(stor_page, i64_extremes_plain)
{
    arena *a = arena_new(0);
    int64_t vals[] = {INT64_MIN, INT64_MAX, 0, -1, 1, 42, INT64_MIN, 7};
    bool nulls[] = {false, false, true, false, false, false, false, true};
    stor_vec v = vec_i64(a, vals, nulls, 8);
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_PLAIN, "full 64-bit range must be plain");
    cr_assert_eq(z.null_count, 2);
    cr_assert_eq(z.nrows, 8);
    cr_assert(z.has_minmax);
    cr_assert_eq(z.min_i64, INT64_MIN);
    cr_assert_eq(z.max_i64, INT64_MAX);
    cr_assert_eq(out.i64[2], 0, "NULL slot reads as 0");
    arena_free(a);
}

Test(stor_page, i64_small_range_bitpacked)
{
    arena *a = arena_new(0);
    enum { N = 5000 };
    int64_t *vals = mem_alloc(N * sizeof *vals);
    for (int i = 0; i < N; i++) {
        vals[i] = 1000000 + (i * 7919) % 1000;
    }
    stor_vec v = vec_i64(a, vals, NULL, N);
    uint8_t enc;
    stor_zone z;
    size_t len;
    stor_vec out = round_trip(a, &v, &enc, &z, &len);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_FOR);
    cr_assert_lt(len, (size_t)N * 2, "10-bit values must pack (got %zu bytes)", len);
    cr_assert_eq(z.min_i64, 1000000);
    cr_assert_eq(z.max_i64, 1000999);
    cr_assert_null(out.nulls);
    mem_free(vals);
    arena_free(a);
}

Test(stor_page, i64_every_bit_width)
{
    arena *a = arena_new(0);
    for (unsigned w = 1; w <= 64; w++) {
        enum { N = 67 };
        int64_t vals[N];
        uint64_t span = w == 64 ? UINT64_MAX : (1ull << w) - 1;
        for (int i = 0; i < N; i++) {
            uint64_t d = (uint64_t)i * 0x9E3779B97F4A7C15ull & span;
            vals[i] = (int64_t)((uint64_t)INT64_MIN + d);
        }
        vals[0] = INT64_MIN;
        vals[1] = (int64_t)((uint64_t)INT64_MIN + span);
        stor_vec v = vec_i64(a, vals, NULL, N);
        uint8_t enc;
        stor_zone z;
        stor_vec out = round_trip(a, &v, &enc, &z, NULL);
        assert_same(&v, &out);
        if (w < 56) {
            cr_assert_eq(enc, STOR_ENC_FOR, "width %u", w);
        }
    }
    arena_free(a);
}

Test(stor_page, i64_all_equal_is_width_zero)
{
    arena *a = arena_new(0);
    enum { N = 10000 };
    int64_t *vals = mem_alloc(N * sizeof *vals);
    for (int i = 0; i < N; i++) {
        vals[i] = -123456789;
    }
    stor_vec v = vec_i64(a, vals, NULL, N);
    uint8_t enc;
    stor_zone z;
    size_t len;
    stor_vec out = round_trip(a, &v, &enc, &z, &len);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_FOR);
    cr_assert_eq(len, STOR_PAGE_HEADER_SIZE + 16, "no packed bytes for equal values");
    cr_assert_eq(z.min_i64, -123456789);
    cr_assert_eq(z.max_i64, -123456789);
    mem_free(vals);
    arena_free(a);
}

Test(stor_page, i64_all_null)
{
    arena *a = arena_new(0);
    int64_t vals[20] = {0};
    bool nulls[20];
    for (int i = 0; i < 20; i++) {
        nulls[i] = true;
        vals[i] = i * 1000;
    }
    stor_vec v = vec_i64(a, vals, nulls, 20);
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(z.null_count, 20);
    cr_assert_not(z.has_minmax);
    for (int i = 0; i < 20; i++) {
        cr_assert_eq(out.i64[i], 0);
    }
    arena_free(a);
}

/* ---- doubles and decimals ---- */

Test(stor_page, f64_specials)
{
    arena *a = arena_new(0);
    double vals[] = {0.0, -0.0, DBL_MAX, -DBL_MAX, DBL_MIN, INFINITY, -INFINITY, NAN, 3.25, 1e-300};
    stor_vec v = {.kind = STOR_VEC_F64, .n = 10, .f64 = vals};
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_PLAIN);
    cr_assert(z.min_f64 == -INFINITY && z.max_f64 == INFINITY, "NaN is skipped in zone maps");
    arena_free(a);
}

Test(stor_page, i128_decimal_extremes)
{
    arena *a = arena_new(0);
    stor_i128 big = 1;
    for (int i = 0; i < 38; i++) {
        big *= 10;
    }
    big -= 1; /* 10^38 - 1, DECIMAL(38) max */
    stor_i128 vals[] = {big, -big, 0, 1, -1, (stor_i128)INT64_MIN * 3, 12345};
    uint8_t nulls[1] = {0x40}; /* row 6 NULL */
    stor_vec v = {.kind = STOR_VEC_I128, .n = 7, .i128 = vals, .nulls = nulls};
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_PLAIN, "values beyond 64 bits stay plain");
    cr_assert(z.min_i128 == -big && z.max_i128 == big);
    cr_assert_eq(z.null_count, 1);
    arena_free(a);
}

/* DECIMALs that fit 64 bits are frame-of-reference coded: every width, negative bases, the
 * int64 extremes, NULL rows; and the packed bytes are what the width says. */
Test(stor_page, i128_fits_64_bits_is_bitpacked)
{
    arena *a = arena_new(0);
    for (unsigned w = 0; w <= 64; w++) {
        enum { N = 131 };
        stor_i128 vals[N];
        uint8_t nulls[(N + 7) / 8 + 1] = {0};
        uint64_t span = w == 64 ? UINT64_MAX : (1ull << w) - 1;
        for (int i = 0; i < N; i++) {
            uint64_t d = (uint64_t)i * 0x9E3779B97F4A7C15ull & span;
            vals[i] = (stor_i128)(int64_t)((uint64_t)INT64_MIN + d);
            if (i % 17 == 5) {
                nulls[i / 8] |= (uint8_t)(1u << (i % 8));
                vals[i] = 0;
            }
        }
        vals[0] = INT64_MIN;
        vals[1] = (stor_i128)(int64_t)((uint64_t)INT64_MIN + span);
        stor_vec v = {.kind = STOR_VEC_I128, .n = N, .i128 = vals, .nulls = nulls};
        uint8_t enc;
        stor_zone z;
        size_t len;
        stor_vec out = round_trip(a, &v, &enc, &z, &len);
        assert_same(&v, &out);
        for (int i = 0; i < N; i++) {
            if (stor_vec_is_null(&v, i)) {
                cr_assert(out.i128[i] == 0, "NULL row %d decodes as 0", i);
            }
        }
        if (w < 60) {
            cr_assert_eq(enc, STOR_ENC_FOR, "width %u", w);
            cr_assert_eq(len, STOR_PAGE_HEADER_SIZE + (N + 7) / 8 + 16 + ((size_t)N * w + 7) / 8,
                         "width %u: header, NULL bitmap, base/width, packed values", w);
        }
    }
    arena_free(a);
}

/* ---- strings ---- */

Test(stor_page, bytes_empty_null_and_1mib)
{
    arena *a = arena_new(0);
    size_t big = 1u << 20;
    char *huge = mem_alloc(big);
    for (size_t i = 0; i < big; i++) {
        huge[i] = (char)('a' + i % 26);
    }
    const char *s[] = {"", NULL, huge, "x", "", "\0\xff", NULL};
    size_t lens[] = {0, 0, big, 1, 0, 2, 0};
    stor_vec v = vec_bytes(a, s, lens, 7);
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(z.null_count, 2);
    cr_assert_eq(z.min_len, 0, "empty string is the min");
    cr_assert_eq(z.max_len, 1, "\"x\" sorts above the 1 MiB \"abc...\" and \"\\0\\xff\"");
    cr_assert_eq(z.max_str[0], 'x');
    cr_assert_not(z.max_truncated);
    mem_free(huge);
    arena_free(a);
}

Test(stor_page, bytes_high_cardinality_plain)
{
    arena *a = arena_new(0);
    enum { N = 2000 };
    const char *s[N];
    size_t lens[N];
    for (int i = 0; i < N; i++) {
        s[i] = arena_sprintf(a, "user-%08d-%x", i, i * 31);
        lens[i] = strlen(s[i]);
    }
    stor_vec v = vec_bytes(a, s, lens, N);
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_PLAIN);
    cr_assert_eq(z.min_len, strlen(s[0]));
    cr_assert_eq(memcmp(z.min_str, s[0], z.min_len), 0);
    cr_assert_eq(memcmp(z.max_str, s[N - 1], z.max_len), 0);
    arena_free(a);
}

Test(stor_page, bytes_low_cardinality_dictionary)
{
    arena *a = arena_new(0);
    enum { N = 3000 };
    static const char *const words[] = {"red", "green", "blue", "", "a much longer colour name"};
    const char *s[N];
    size_t lens[N];
    for (int i = 0; i < N; i++) {
        s[i] = i % 11 == 0 ? NULL : words[i % 5];
        lens[i] = s[i] != NULL ? strlen(s[i]) : 0;
    }
    stor_vec v = vec_bytes(a, s, lens, N);
    uint8_t enc;
    stor_zone z;
    size_t len;
    stor_vec out = round_trip(a, &v, &enc, &z, &len);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_DICT);
    cr_assert_lt(len, (size_t)N, "3-bit codes (got %zu bytes)", len);
    cr_assert_eq(z.min_len, 0);
    cr_assert_eq(z.max_len, 3);
    cr_assert_eq(memcmp(z.max_str, "red", 3), 0);
    arena_free(a);
}

Test(stor_page, bytes_all_equal_and_all_null)
{
    arena *a = arena_new(0);
    enum { N = 100 };
    const char *s[N];
    size_t lens[N];
    for (int i = 0; i < N; i++) {
        s[i] = "same";
        lens[i] = 4;
    }
    stor_vec v = vec_bytes(a, s, lens, N);
    uint8_t enc;
    stor_zone z;
    stor_vec out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_eq(enc, STOR_ENC_DICT);
    for (int i = 0; i < N; i++) {
        s[i] = NULL;
    }
    v = vec_bytes(a, s, lens, N);
    out = round_trip(a, &v, &enc, &z, NULL);
    assert_same(&v, &out);
    cr_assert_not(z.has_minmax);
    cr_assert_eq(z.null_count, N);
    arena_free(a);
}

Test(stor_page, zone_truncates_long_strings)
{
    arena *a = arena_new(0);
    const char *s[] = {"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz-long",
                       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
    size_t lens[] = {strlen(s[0]), strlen(s[1])};
    stor_vec v = vec_bytes(a, s, lens, 2);
    uint8_t enc;
    stor_zone z;
    round_trip(a, &v, &enc, &z, NULL);
    cr_assert_eq(z.min_len, STOR_ZONE_STR_MAX);
    cr_assert_eq(z.max_len, STOR_ZONE_STR_MAX);
    cr_assert(z.max_truncated);
    /* Merging a shorter exact max below the truncated one keeps the truncated one. */
    stor_zone y;
    const char *t[] = {"zzz"};
    size_t tl[] = {3};
    stor_vec w = vec_bytes(a, t, tl, 1);
    round_trip(a, &w, &enc, &y, NULL);
    stor__zone_merge(&y, &z, STOR_VEC_BYTES);
    cr_assert(y.max_truncated);
    cr_assert_eq(y.max_len, STOR_ZONE_STR_MAX);
    cr_assert_eq(y.nrows, 3);
    arena_free(a);
}

/* ---- compression and malformed pages ---- */

Test(stor_page, compress_only_when_smaller)
{
    buf out;
    buf_init(&out);
    uint8_t zeros[4096] = {0};
    cr_assert_eq(stor__page_compress(zeros, sizeof zeros, 3, &out), STOR_COMP_ZSTD);
    cr_assert_lt(out.len, sizeof zeros);
    uint8_t noise[4096];
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise[i] = (uint8_t)x;
    }
    cr_assert_eq(stor__page_compress(noise, sizeof noise, 3, &out), STOR_COMP_NONE);
    buf_destroy(&out);
}

/* Every truncation of an encoded page is rejected; every single-byte change either decodes to
 * something or is rejected, never reads out of bounds (run under ASan). */
static void
mangle_all(const stor_vec *v)
{
    arena *a = arena_new(0);
    buf b;
    buf_init(&b);
    uint8_t enc;
    stor_zone z;
    stor__page_encode(v, 0, v->n, &b, &enc, &z);
    for (size_t len = 0; len < b.len; len++) {
        uint8_t *copy = mem_alloc(len + 1);
        memcpy(copy, b.data, len);
        stor_vec out;
        const char *why =
                stor__page_decode(v->kind, copy, len, v->n, (uint32_t)z.null_count, a, &out);
        cr_assert_not_null(why, "truncated page of %zu/%zu bytes accepted", len, b.len);
        mem_free(copy);
    }
    for (size_t i = 0; i < b.len; i++) {
        for (int bit = 0; bit < 8; bit++) {
            uint8_t *copy = mem_alloc(b.len);
            memcpy(copy, b.data, b.len);
            copy[i] ^= (uint8_t)(1u << bit);
            stor_vec out;
            (void)stor__page_decode(v->kind, copy, b.len, v->n, (uint32_t)z.null_count, a, &out);
            mem_free(copy);
            arena_reset(a);
        }
    }
    buf_destroy(&b);
    arena_free(a);
}

Test(stor_page, malformed_pages_rejected)
{
    arena *a = arena_new(0);
    int64_t iv[] = {5, 9, 7, 5, 6, 8, 100};
    bool in[] = {false, true, false, false, false, false, false};
    stor_vec v = vec_i64(a, iv, in, 7);
    mangle_all(&v);
    int64_t wide[] = {INT64_MIN, INT64_MAX, 3};
    v = vec_i64(a, wide, NULL, 3);
    mangle_all(&v);
    const char *s[] = {"ab", "cd", "ab", NULL, "ab", "cd", "ab", "ab"};
    size_t lens[] = {2, 2, 2, 0, 2, 2, 2, 2};
    v = vec_bytes(a, s, lens, 8);
    mangle_all(&v);
    const char *p[] = {"one", "two", "three", NULL};
    size_t pl[] = {3, 3, 5, 0};
    v = vec_bytes(a, p, pl, 4);
    mangle_all(&v);
    double d[] = {1.5, 2.5};
    stor_vec dv = {.kind = STOR_VEC_F64, .n = 2, .f64 = d};
    mangle_all(&dv);
    arena_free(a);
}

Test(stor_page, directory_counts_must_match)
{
    arena *a = arena_new(0);
    int64_t iv[] = {1, 2, 3};
    bool in[] = {false, true, false};
    stor_vec v = vec_i64(a, iv, in, 3);
    buf b;
    buf_init(&b);
    uint8_t enc;
    stor_zone z;
    stor__page_encode(&v, 0, 3, &b, &enc, &z);
    stor_vec out;
    cr_assert_not_null(stor__page_decode(STOR_VEC_I64, b.data, b.len, 4, 1, a, &out));
    cr_assert_not_null(stor__page_decode(STOR_VEC_I64, b.data, b.len, 3, 0, a, &out));
    cr_assert_not_null(stor__page_decode(STOR_VEC_BYTES, b.data, b.len, 3, 1, a, &out),
                       "an integer page is not a string page");
    cr_assert_null(stor__page_decode(STOR_VEC_I64, b.data, b.len, 3, 1, a, &out));
    buf_destroy(&b);
    arena_free(a);
}

/* ---- page views: sub-range decode and binary search ---- */

/* Random page of kind k shaped to hit encoding want (PLAIN / FOR / DICT), optional NULLs,
 * ascending (NULLs first) when sorted. */
static stor_vec
random_page(arena *a, stor_vec_kind k, uint8_t want, uint32_t n, bool with_nulls, bool sorted,
            unsigned *seed)
{
    stor_vec v = {.kind = k, .n = n};
    v.nulls = with_nulls ? arena_calloc(a, 1, (n + 7) / 8 + 1) : NULL;
    uint32_t nnull = with_nulls ? (uint32_t)rand_r(seed) % (n / 4 + 1) : 0;
    for (uint32_t i = 0; i < n; i++) {
        bool is_null = sorted ? i < nnull : with_nulls && rand_r(seed) % 5 == 0;
        if (is_null) {
            v.nulls[i / 8] |= (uint8_t)(1u << (i % 8));
        }
    }
    uint64_t acc = 0; /* sorted: running value */
    switch (k) {
    case STOR_VEC_I64:
        v.i64 = arena_alloc(a, (size_t)n * 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t r = ((uint64_t)rand_r(seed) << 32) ^ (uint64_t)rand_r(seed);
            if (sorted) {
                acc += r % 3;
                v.i64[i] = want == STOR_ENC_FOR
                                   ? (int64_t)acc - 1000
                                   : (int64_t)((uint64_t)INT64_MIN + i * (UINT64_MAX / n) + acc);
            } else {
                v.i64[i] = want == STOR_ENC_FOR ? (int64_t)(r % 1000) - 500
                           : i == 0             ? INT64_MIN
                                                : (int64_t)(r * 0x9E3779B97F4A7C15ull);
            }
            v.i64[i] = stor_vec_is_null(&v, i) ? 0 : v.i64[i];
        }
        break;
    case STOR_VEC_F64:
        v.f64 = arena_alloc(a, (size_t)n * 8 + 1);
        for (uint32_t i = 0; i < n; i++) {
            double d = sorted ? (double)i * 0.5 - 100 : (double)rand_r(seed) / 7.0 - 1e6;
            v.f64[i] = stor_vec_is_null(&v, i) ? 0 : d;
        }
        break;
    case STOR_VEC_I128:
        v.i128 = arena_alloc(a, (size_t)n * 16 + 1);
        for (uint32_t i = 0; i < n; i++) {
            stor_i128 x = sorted ? (stor_i128)i * ((stor_i128)1 << 70) - ((stor_i128)1 << 90)
                                 : ((stor_i128)rand_r(seed) << 80) - (stor_i128)rand_r(seed);
            if (want == STOR_ENC_FOR) { /* fits 64 bits: DECIMAL(18) and below */
                x = sorted ? (stor_i128)i * 1000 - 500000
                           : (stor_i128)rand_r(seed) * 3 - (stor_i128)rand_r(seed) * 5;
            }
            v.i128[i] = stor_vec_is_null(&v, i) ? 0 : x;
        }
        break;
    case STOR_VEC_BYTES: {
        v.offs = arena_alloc(a, ((size_t)n + 1) * 8);
        v.data = arena_alloc(a, (size_t)n * 12 + 1);
        v.offs[0] = 0;
        for (uint32_t i = 0; i < n; i++) {
            char s[16];
            int l = 0;
            if (!stor_vec_is_null(&v, i)) {
                uint32_t x = sorted ? (want == STOR_ENC_DICT ? i / 4 : i)
                                    : (want == STOR_ENC_DICT ? (uint32_t)rand_r(seed) % 7
                                                             : (uint32_t)rand_r(seed));
                if (sorted) {
                    l = snprintf(s, sizeof s, "k%08u", x);
                } else if (want == STOR_ENC_DICT) {
                    l = snprintf(s, sizeof s, "%.*s", (int)(x % 11), "abcdefghijk" + x % 3);
                } else {
                    l = snprintf(s, sizeof s, "%u", x);
                }
                if (!sorted && want != STOR_ENC_DICT && x % 13 == 0) {
                    l = 0; /* empty string, not NULL */
                }
            }
            memcpy(v.data + v.offs[i], s, (size_t)l);
            v.offs[i + 1] = v.offs[i] + (uint64_t)l;
        }
        break;
    }
    }
    return v;
}

Test(stor_page, view_rows_match_full_decode)
{
    struct {
        stor_vec_kind k;
        uint8_t want;
    } cases[] = {{STOR_VEC_I64, STOR_ENC_PLAIN}, {STOR_VEC_I64, STOR_ENC_FOR},
                 {STOR_VEC_F64, STOR_ENC_PLAIN}, {STOR_VEC_I128, STOR_ENC_PLAIN},
                 {STOR_VEC_I128, STOR_ENC_FOR},  {STOR_VEC_BYTES, STOR_ENC_PLAIN},
                 {STOR_VEC_BYTES, STOR_ENC_DICT}};
    unsigned seed = 12345;
    arena *a = arena_new(0);
    buf b;
    buf_init(&b);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int iter = 0; iter < 24; iter++) {
            arena_reset(a);
            uint32_t n = iter < 3 ? (uint32_t)iter + 1 : 1 + (uint32_t)rand_r(&seed) % 3000;
            bool with_nulls = iter % 2 == 1;
            stor_vec v =
                    random_page(a, cases[c].k, cases[c].want, n, with_nulls, iter % 3 == 0, &seed);
            uint8_t enc;
            stor_zone z;
            stor__page_encode(&v, 0, n, &b, &enc, &z);
            if (n > 64) {
                cr_assert_eq(enc, cases[c].want, "case %zu iter %d n %u: encoding %u", c, iter, n,
                             enc);
            }
            stor_vec full;
            cr_assert_null(
                    stor__page_decode(v.kind, b.data, b.len, n, (uint32_t)z.null_count, a, &full));
            stor__page_view pv;
            cr_assert_null(
                    stor__page_view_init(&pv, v.kind, b.data, b.len, n, (uint32_t)z.null_count, a));
            /* edges, then random slices */
            for (int t = 0; t < 40; t++) {
                uint32_t from, cnt;
                if (t == 0) {
                    from = 0, cnt = 1;
                } else if (t == 1) {
                    from = n - 1, cnt = 1;
                } else if (t == 2) {
                    from = 0, cnt = n;
                } else if (t == 3) {
                    from = n, cnt = 0;
                } else {
                    from = (uint32_t)rand_r(&seed) % n;
                    cnt = 1 + (uint32_t)rand_r(&seed) % (t % 2 ? 8 : n - from);
                    cnt = cnt > n - from ? n - from : cnt;
                }
                stor_vec got;
                cr_assert_null(stor__page_view_rows(&pv, from, cnt, a, &got));
                /* slice of the full decode, compared row by row */
                cr_assert_eq(got.n, cnt);
                for (uint32_t i = 0; i < cnt; i++) {
                    uint32_t r = from + i;
                    cr_assert_eq(stor_vec_is_null(&got, i), stor_vec_is_null(&full, r),
                                 "case %zu row %u", c, r);
                    switch (v.kind) {
                    case STOR_VEC_I64:
                        cr_assert_eq(got.i64[i], full.i64[r], "case %zu row %u", c, r);
                        break;
                    case STOR_VEC_F64:
                        cr_assert_eq(memcmp(&got.f64[i], &full.f64[r], 8), 0);
                        break;
                    case STOR_VEC_I128:
                        cr_assert(got.i128[i] == full.i128[r]);
                        break;
                    case STOR_VEC_BYTES: {
                        uint64_t lg = got.offs[i + 1] - got.offs[i];
                        uint64_t lf = full.offs[r + 1] - full.offs[r];
                        cr_assert_eq(lg, lf, "case %zu row %u", c, r);
                        cr_assert_eq(memcmp(got.data + got.offs[i], full.data + full.offs[r], lg),
                                     0);
                        break;
                    }
                    }
                }
            }
        }
    }
    buf_destroy(&b);
    arena_free(a);
}

/* Linear reference of stor__page_view_bound on a decoded sorted vector. */
static uint32_t
bound_ref(const stor_vec *v, uint32_t from, uint32_t to, const stor_key *k, bool upper)
{
    for (uint32_t i = from; i < to; i++) {
        if (stor_vec_is_null(v, i)) {
            continue;
        }
        if (k == NULL) {
            return upper ? to : i;
        }
        int c = 0;
        switch (v->kind) {
        case STOR_VEC_I64:
            c = v->i64[i] < k->i64 ? -1 : v->i64[i] > k->i64;
            break;
        case STOR_VEC_F64:
            c = v->f64[i] < k->f64 ? -1 : v->f64[i] > k->f64;
            break;
        case STOR_VEC_I128:
            c = v->i128[i] < k->i128 ? -1 : v->i128[i] > k->i128;
            break;
        case STOR_VEC_BYTES:
            c = stor__bytes_cmp(v->data + v->offs[i], v->offs[i + 1] - v->offs[i], k->str, k->len);
            break;
        }
        if (upper ? c > 0 : c >= 0) {
            return i;
        }
    }
    return to;
}

Test(stor_page, view_bound_matches_linear_search)
{
    struct {
        stor_vec_kind k;
        uint8_t want;
    } cases[] = {{STOR_VEC_I64, STOR_ENC_PLAIN}, {STOR_VEC_I64, STOR_ENC_FOR},
                 {STOR_VEC_F64, STOR_ENC_PLAIN}, {STOR_VEC_I128, STOR_ENC_PLAIN},
                 {STOR_VEC_I128, STOR_ENC_FOR},  {STOR_VEC_BYTES, STOR_ENC_PLAIN},
                 {STOR_VEC_BYTES, STOR_ENC_DICT}};
    unsigned seed = 777;
    arena *a = arena_new(0);
    buf b;
    buf_init(&b);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int iter = 0; iter < 8; iter++) {
            arena_reset(a);
            uint32_t n = 1 + (uint32_t)rand_r(&seed) % 2000;
            stor_vec v = random_page(a, cases[c].k, cases[c].want, n, iter % 2 == 1, true, &seed);
            uint8_t enc;
            stor_zone z;
            stor__page_encode(&v, 0, n, &b, &enc, &z);
            stor_vec full;
            cr_assert_null(
                    stor__page_decode(v.kind, b.data, b.len, n, (uint32_t)z.null_count, a, &full));
            stor__page_view pv;
            cr_assert_null(
                    stor__page_view_init(&pv, v.kind, b.data, b.len, n, (uint32_t)z.null_count, a));
            for (int t = 0; t < 60; t++) {
                /* keys: existing values (first/last/random rows), and off-by-one neighbours */
                uint32_t r = t == 0 ? 0 : t == 1 ? n - 1 : (uint32_t)rand_r(&seed) % n;
                stor_key k = {0};
                char s[24];
                switch (v.kind) {
                case STOR_VEC_I64:
                    k.i64 = (int64_t)((uint64_t)full.i64[r] + (uint64_t)(t % 3) - 1); /* wraps */
                    break;
                case STOR_VEC_F64:
                    k.f64 = full.f64[r] + ((t % 3) - 1) * 0.25;
                    break;
                case STOR_VEC_I128:
                    k.i128 = full.i128[r] + (t % 3) - 1;
                    break;
                case STOR_VEC_BYTES: {
                    size_t l = full.offs[r + 1] - full.offs[r];
                    memcpy(s, full.data + full.offs[r], l);
                    if (t % 3 == 0 && l > 0) {
                        l--; /* a prefix: below */
                    } else if (t % 3 == 2) {
                        s[l++] = '\x01'; /* just above */
                    }
                    k.str = (const uint8_t *)s;
                    k.len = l;
                    break;
                }
                }
                uint32_t from = t % 4 == 0 ? (uint32_t)rand_r(&seed) % n : 0;
                uint32_t to = t % 5 == 0 ? from + (uint32_t)rand_r(&seed) % (n - from + 1) : n;
                for (int upper = 0; upper < 2; upper++) {
                    const stor_key *kp = t == 7 ? NULL : &k;
                    uint32_t pos = UINT32_MAX;
                    cr_assert_null(stor__page_view_bound(&pv, from, to, kp, upper, &pos));
                    cr_assert_eq(pos, bound_ref(&full, from, to, kp, upper),
                                 "case %zu t %d upper %d", c, t, upper);
                }
            }
        }
    }
    buf_destroy(&b);
    arena_free(a);
}
