/* SPDX-License-Identifier: Apache-2.0
 * plan_value.c: typed scalar values. DECIMAL is a scaled __int128 (precision <= 38, the Doris
 * DECIMALV3 limit); DOUBLE prints like MySQL's my_gcvt (shortest round-trip digits); dates are
 * microseconds on a proleptic Gregorian wall clock. Conversions follow MySQL's rules.
 * See README.md §Data structures. */
#include "planner/plan_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t num_prefix(const char *s, size_t len, size_t *start, bool *is_int);
static size_t u128_to_str(unsigned __int128 v, char *buf);

#define US_PER_SEC 1000000LL
#define US_PER_DAY (86400LL * US_PER_SEC)

plan_value
plan__v_null(void)
{
    plan_value v;
    memset(&v, 0, sizeof v);
    v.kind = PV_NULL;
    return v;
}

plan_value
plan__v_int(int64_t i)
{
    plan_value v = plan__v_null();
    v.kind = PV_INT;
    v.i = i;
    return v;
}

plan_value
plan__v_uint(uint64_t u)
{
    plan_value v = plan__v_null();
    v.kind = PV_INT;
    v.is_unsigned = true;
    v.u = u;
    return v;
}

plan_value
plan__v_double(double d)
{
    plan_value v = plan__v_null();
    v.kind = PV_DOUBLE;
    v.d = d;
    return v;
}

plan_value
plan__v_dec(__int128 d, int scale)
{
    plan_value v = plan__v_null();
    v.kind = PV_DECIMAL;
    v.dec = d;
    v.scale = (uint8_t)scale;
    return v;
}

plan_value
plan__v_str(const char *s, size_t len)
{
    plan_value v = plan__v_null();
    v.kind = PV_STRING;
    v.str.s = s;
    v.str.len = len;
    return v;
}

/* ---- DECIMAL ---- */

__int128
plan__pow10(int n)
{
    __int128 p = 1;
    for (int i = 0; i < n; i++) {
        p *= 10;
    }
    return p;
}

int
plan__dec_digits(__int128 v)
{
    unsigned __int128 u = v < 0 ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
    int n = 0;
    while (u) {
        u /= 10;
        n++;
    }
    return n;
}

bool
plan__dec_rescale(__int128 v, int from, int to, __int128 *out)
{
    if (to >= from) {
        __int128 p = plan__pow10(to - from);
        __int128 r;
        if (to - from > 38 || __builtin_mul_overflow(v, p, &r)) {
            return false;
        }
        *out = r;
        return plan__dec_digits(r) <= PLAN_DEC_MAX_PREC;
    }
    __int128 p = plan__pow10(from - to);
    __int128 q = v / p, rem = v % p;
    if (rem < 0) {
        rem = -rem;
    }
    if (rem * 2 >= p) {
        q += v < 0 ? -1 : 1;
    }
    *out = q;
    return true;
}

double
plan__float_shortest(double d)
{
    if (!isfinite(d) || d == 0) {
        return d;
    }
    char tmp[32];
    float f = (float)d;
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
        if (strtof(tmp, NULL) == f) {
            return strtod(tmp, NULL);
        }
    }
    return d;
}

bool
plan__dec_parse(const char *s, size_t len, __int128 *v, int *scale)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    __int128 acc = 0;
    int digits = 0, sc = 0;
    bool any = false, point = false;
    for (; i < len; i++) {
        char c = s[i];
        if (c == '.' && !point) {
            point = true;
            continue;
        }
        if (c < '0' || c > '9') {
            break;
        }
        any = true;
        if (acc == 0 && c == '0' && !point) {
            continue; /* leading zeros */
        }
        if (digits >= PLAN_DEC_MAX_PREC) {
            return false;
        }
        acc = acc * 10 + (c - '0');
        if (acc != 0 || point) {
            digits++;
        }
        if (point) {
            sc++;
        }
    }
    if (!any || sc > PLAN_DEC_MAX_SCALE) {
        return false;
    }
    *v = neg ? -acc : acc;
    *scale = sc;
    return true;
}

static size_t
u128_to_str(unsigned __int128 v, char *buf)
{
    char tmp[48];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++) {
        buf[i] = tmp[n - 1 - i];
    }
    buf[n] = '\0';
    return n;
}

/* ---- DOUBLE ---- */

size_t
plan__double_fmt(double d, char *buf)
{
    if (d == 0 || isnan(d) || isinf(d)) {
        strcpy(buf, "0");
        return 1;
    }
    char e[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, d);
        if (strtod(e, NULL) == d) {
            break;
        }
    }
    /* e is [-]d[.ddd]e[+-]xx: collect the digits and the exponent. */
    char digits[24];
    size_t nd = 0;
    const char *p = e;
    bool neg = *p == '-';
    if (neg) {
        p++;
    }
    for (; *p && *p != 'e'; p++) {
        if (*p != '.') {
            digits[nd++] = *p;
        }
    }
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    int decpt = exp10 + 1;
    size_t o = 0;
    if (neg) {
        buf[o++] = '-';
    }
    if (decpt >= -14 && (decpt <= 15 || (int)nd > decpt)) {
        if (decpt <= 0) {
            buf[o++] = '0';
            buf[o++] = '.';
            for (int i = 0; i < -decpt; i++) {
                buf[o++] = '0';
            }
            memcpy(buf + o, digits, nd);
            o += nd;
        } else if ((int)nd <= decpt) {
            memcpy(buf + o, digits, nd);
            o += nd;
            for (int i = (int)nd; i < decpt; i++) {
                buf[o++] = '0';
            }
        } else {
            memcpy(buf + o, digits, (size_t)decpt);
            o += (size_t)decpt;
            buf[o++] = '.';
            memcpy(buf + o, digits + decpt, nd - (size_t)decpt);
            o += nd - (size_t)decpt;
        }
    } else {
        buf[o++] = digits[0];
        if (nd > 1) {
            buf[o++] = '.';
            memcpy(buf + o, digits + 1, nd - 1);
            o += nd - 1;
        }
        o += (size_t)sprintf(buf + o, "e%d", decpt - 1);
    }
    buf[o] = '\0';
    return o;
}

/* ---- dates (Howard Hinnant's civil-from-days algorithms) ---- */

int64_t
plan__days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void
plan__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}

static bool leap(int64_t y);
static unsigned month_days(int64_t y, unsigned m);

static bool
leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned
month_days(int64_t y, unsigned m)
{
    static const unsigned md[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : md[m - 1];
}

size_t
plan__datetime_fmt(const plan_value *v, char *buf, size_t cap)
{
    int64_t us = v->us;
    if (v->kind == PV_TIME) {
        bool neg = us < 0;
        uint64_t a = neg ? (uint64_t)(-(us + 1)) + 1 : (uint64_t)us;
        uint64_t s = a / US_PER_SEC, frac = a % US_PER_SEC;
        int n = snprintf(buf, cap, "%s%02llu:%02llu:%02llu", neg ? "-" : "",
                         (unsigned long long)(s / 3600), (unsigned long long)(s / 60 % 60),
                         (unsigned long long)(s % 60));
        if (v->scale > 0) {
            char f[8];
            snprintf(f, sizeof f, "%06llu", (unsigned long long)frac);
            n += snprintf(buf + n, cap - (size_t)n, ".%.*s", (int)v->scale, f);
        }
        return (size_t)n;
    }
    int64_t days = us >= 0 ? us / US_PER_DAY : -((-us + US_PER_DAY - 1) / US_PER_DAY);
    int64_t rest = us - days * US_PER_DAY;
    int64_t y;
    unsigned m, d;
    plan__civil_from_days(days, &y, &m, &d);
    int n = snprintf(buf, cap, "%04lld-%02u-%02u", (long long)y, m, d);
    if (v->kind == PV_DATETIME) {
        int64_t s = rest / US_PER_SEC;
        n += snprintf(buf + n, cap - (size_t)n, " %02lld:%02lld:%02lld", (long long)(s / 3600),
                      (long long)(s / 60 % 60), (long long)(s % 60));
        if (v->scale > 0) {
            char f[8];
            snprintf(f, sizeof f, "%06lld", (long long)(rest % US_PER_SEC));
            n += snprintf(buf + n, cap - (size_t)n, ".%.*s", (int)v->scale, f);
        }
    }
    return (size_t)n;
}

bool
plan__parse_datetime(const char *s, size_t len, int64_t *us, bool *has_time)
{
    int64_t g[7] = {0};
    int glen[7] = {0};
    int ng = 0;
    size_t i = 0;
    while (i < len && s[i] == ' ') {
        i++;
    }
    while (i < len && ng < 7) {
        if (s[i] < '0' || s[i] > '9') {
            break;
        }
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (glen[ng] < 18) {
                g[ng] = g[ng] * 10 + (s[i] - '0');
            }
            glen[ng]++;
            i++;
        }
        ng++;
        if (i < len && (s[i] == '-' || s[i] == ':' || s[i] == ' ' || s[i] == 'T' || s[i] == '.' ||
                        s[i] == '/')) {
            i++;
        }
    }
    while (i < len && s[i] == ' ') {
        i++;
    }
    if (i != len || ng == 0) {
        return false;
    }
    if (ng == 1 && (glen[0] == 8 || glen[0] == 14 || glen[0] == 6 || glen[0] == 12)) {
        /* Compact forms YYYYMMDD[HHMMSS] and YYMMDD[HHMMSS]. */
        int64_t v = g[0];
        int yl = (glen[0] == 8 || glen[0] == 14) ? 4 : 2;
        bool t = glen[0] > 8;
        if (t) {
            g[5] = v % 100;
            g[4] = v / 100 % 100;
            g[3] = v / 10000 % 100;
            v /= 1000000;
        }
        g[2] = v % 100;
        g[1] = v / 100 % 100;
        g[0] = v / 10000;
        glen[0] = yl;
        ng = t ? 6 : 3;
    }
    if (ng < 3) {
        return false;
    }
    if (glen[0] <= 2) {
        g[0] += g[0] < 70 ? 2000 : 1900;
    }
    int64_t frac = 0;
    if (ng == 7) {
        int fl = glen[6] > 6 ? 6 : glen[6];
        frac = g[6];
        for (int k = glen[6]; k > 6; k--) {
            frac /= 10;
        }
        for (int k = fl; k < 6; k++) {
            frac *= 10;
        }
    }
    if (g[0] > 9999 || g[1] < 1 || g[1] > 12 || g[2] < 1 ||
        g[2] > month_days(g[0], (unsigned)g[1]) || g[3] > 23 || g[4] > 59 || g[5] > 59) {
        return false;
    }
    int64_t days = plan__days_from_civil(g[0], (unsigned)g[1], (unsigned)g[2]);
    *us = days * US_PER_DAY + ((g[3] * 60 + g[4]) * 60 + g[5]) * US_PER_SEC + frac;
    *has_time = ng > 3;
    return true;
}

bool
plan__parse_time(const char *s, size_t len, int64_t *us)
{
    size_t i = 0;
    bool neg = false;
    while (i < len && s[i] == ' ') {
        i++;
    }
    if (i < len && s[i] == '-') {
        neg = true;
        i++;
    }
    int64_t g[4] = {0};
    int glen[4] = {0};
    int ng = 0;
    while (i < len && ng < 4 && s[i] >= '0' && s[i] <= '9') {
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (glen[ng] < 12) {
                g[ng] = g[ng] * 10 + (s[i] - '0');
            }
            glen[ng]++;
            i++;
        }
        ng++;
        if (i < len && (s[i] == ':' || (s[i] == '.' && ng >= 1))) {
            if (s[i] == '.' && ng < 3) {
                /* fraction after fewer groups: shift groups right */
                while (ng < 3) {
                    for (int k = ng; k > 0; k--) {
                        g[k] = g[k - 1];
                        glen[k] = glen[k - 1];
                    }
                    g[0] = 0;
                    glen[0] = 0;
                    ng++;
                }
            }
            i++;
        }
    }
    if (i != len || ng == 0) {
        return false;
    }
    int64_t h, m, sec, frac = 0;
    if (ng == 1) {
        int64_t v = g[0]; /* HHMMSS / MMSS / SS */
        sec = v % 100;
        m = v / 100 % 100;
        h = v / 10000;
    } else if (ng == 2) {
        h = g[0];
        m = g[1];
        sec = 0;
    } else {
        h = g[0];
        m = g[1];
        sec = g[2];
        if (ng == 4) {
            frac = g[3];
            for (int k = glen[3]; k > 6; k--) {
                frac /= 10;
            }
            for (int k = glen[3]; k < 6; k++) {
                frac *= 10;
            }
        }
    }
    if (m > 59 || sec > 59 || h > 838) {
        return false;
    }
    int64_t v = ((h * 60 + m) * 60 + sec) * US_PER_SEC + frac;
    *us = neg ? -v : v;
    return true;
}

/* ---- text form ---- */

const char *
plan__v_text(arena *a, const plan_value *v, size_t *len)
{
    char buf[64];
    size_t n;
    switch ((plan_vkind)v->kind) {
    case PV_NULL:
        *len = 0;
        return NULL;
    case PV_INT:
        n = (size_t)(v->is_unsigned ? snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->u)
                                    : snprintf(buf, sizeof buf, "%lld", (long long)v->i));
        break;
    case PV_DOUBLE:
        n = plan__double_fmt(v->d, buf);
        break;
    case PV_DECIMAL: {
        __int128 d = v->dec;
        bool neg = d < 0;
        unsigned __int128 u = neg ? (unsigned __int128)(-(d + 1)) + 1 : (unsigned __int128)d;
        unsigned __int128 p = (unsigned __int128)plan__pow10(v->scale);
        char ip[48], fp[48];
        u128_to_str(u / p, ip);
        size_t o = 0;
        if (neg && u != 0) {
            buf[o++] = '-';
        }
        o += (size_t)sprintf(buf + o, "%s", ip);
        if (v->scale > 0) {
            size_t fn = u128_to_str(u % p, fp);
            buf[o++] = '.';
            for (size_t k = fn; k < v->scale; k++) {
                buf[o++] = '0';
            }
            memcpy(buf + o, fp, fn);
            o += fn;
        }
        buf[o] = '\0';
        n = o;
        break;
    }
    case PV_STRING:
        *len = v->str.len;
        return v->str.s;
    case PV_DATE:
    case PV_DATETIME:
    case PV_TIME:
        n = plan__datetime_fmt(v, buf, sizeof buf);
        break;
    default:
        n = 0;
        break;
    }
    *len = n;
    return arena_strndup(a, buf, n);
}

/* ---- conversions ---- */

/* The numeric prefix of s (MySQL string-to-number): returns its end; *start after blanks. */
static size_t
num_prefix(const char *s, size_t len, size_t *start, bool *is_int)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
        i++;
    }
    *start = i;
    *is_int = true;
    size_t j = i;
    if (j < len && (s[j] == '-' || s[j] == '+')) {
        j++;
    }
    size_t d0 = j;
    while (j < len && s[j] >= '0' && s[j] <= '9') {
        j++;
    }
    bool digits = j > d0;
    if (j < len && s[j] == '.') {
        size_t f = j + 1;
        while (f < len && s[f] >= '0' && s[f] <= '9') {
            f++;
        }
        if (digits || f > j + 1) {
            digits = true;
            *is_int = false;
            j = f;
        }
    }
    if (!digits) {
        return i;
    }
    if (j < len && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < len && (s[k] == '-' || s[k] == '+')) {
            k++;
        }
        if (k < len && s[k] >= '0' && s[k] <= '9') {
            while (k < len && s[k] >= '0' && s[k] <= '9') {
                k++;
            }
            j = k;
            *is_int = false;
        }
    }
    return j;
}

static bool rest_blank(const char *s, size_t from, size_t len);

static bool
rest_blank(const char *s, size_t from, size_t len)
{
    for (size_t i = from; i < len; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') {
            return false;
        }
    }
    return true;
}

static double str_to_double(const char *s, size_t len, bool *truncated);

static double
str_to_double(const char *s, size_t len, bool *truncated)
{
    size_t start;
    bool is_int;
    size_t end = num_prefix(s, len, &start, &is_int);
    if (truncated) {
        *truncated = end == start || !rest_blank(s, end, len);
    }
    if (end == start) {
        return 0;
    }
    char buf[512];
    size_t n = end - start;
    if (n >= sizeof buf) {
        n = sizeof buf - 1;
    }
    memcpy(buf, s + start, n);
    buf[n] = '\0';
    double d = strtod(buf, NULL);
    if (isinf(d)) {
        d = d > 0 ? 1.7976931348623157e308 : -1.7976931348623157e308;
    }
    return d;
}

double
plan__v_to_double(const plan_value *v, bool *truncated)
{
    if (truncated) {
        *truncated = false;
    }
    switch ((plan_vkind)v->kind) {
    case PV_INT:
        return v->is_unsigned ? (double)v->u : (double)v->i;
    case PV_DOUBLE:
        return v->d;
    case PV_DECIMAL:
        return (double)v->dec / (double)plan__pow10(v->scale);
    case PV_STRING:
        return str_to_double(v->str.s, v->str.len, truncated);
    case PV_DATE:
    case PV_DATETIME: {
        /* MySQL: a datetime in numeric context is YYYYMMDDHHMMSS[.ffffff]. */
        int64_t days = v->us >= 0 ? v->us / US_PER_DAY : -((-v->us + US_PER_DAY - 1) / US_PER_DAY);
        int64_t rest = v->us - days * US_PER_DAY;
        int64_t y;
        unsigned m, d;
        plan__civil_from_days(days, &y, &m, &d);
        double r = (double)(y * 10000 + m * 100 + d);
        if (v->kind == PV_DATETIME) {
            int64_t s = rest / US_PER_SEC;
            r = r * 1000000.0 + (double)((s / 3600) * 10000 + (s / 60 % 60) * 100 + s % 60);
            r += (double)(rest % US_PER_SEC) / 1e6;
        }
        return r;
    }
    case PV_TIME: {
        int64_t a = v->us < 0 ? -v->us : v->us;
        int64_t s = a / US_PER_SEC;
        double r = (double)((s / 3600) * 10000 + (s / 60 % 60) * 100 + s % 60) +
                   (double)(a % US_PER_SEC) / 1e6;
        return v->us < 0 ? -r : r;
    }
    default:
        return 0;
    }
}

int64_t
plan__v_to_int(const plan_value *v, bool *truncated)
{
    if (truncated) {
        *truncated = false;
    }
    switch ((plan_vkind)v->kind) {
    case PV_INT:
        return v->is_unsigned ? (int64_t)v->u : v->i;
    case PV_DECIMAL: {
        __int128 r;
        plan__dec_rescale(v->dec, v->scale, 0, &r);
        if (r > INT64_MAX) {
            return INT64_MAX;
        }
        if (r < INT64_MIN) {
            return INT64_MIN;
        }
        return (int64_t)r;
    }
    case PV_STRING: {
        size_t start;
        bool is_int;
        const char *s = v->str.s;
        size_t end = num_prefix(s, v->str.len, &start, &is_int);
        if (truncated) {
            *truncated = end == start || !is_int || !rest_blank(s, end, v->str.len);
        }
        if (!is_int) {
            /* CAST('1.9' AS SIGNED) reads the integer prefix, as MySQL. */
            size_t i = start;
            if (i < end && (s[i] == '-' || s[i] == '+')) {
                i++;
            }
            while (i < end && s[i] >= '0' && s[i] <= '9') {
                i++;
            }
            end = i;
        }
        bool neg = start < end && s[start] == '-';
        uint64_t acc = 0;
        bool over = false;
        for (size_t i = start; i < end; i++) {
            if (s[i] < '0' || s[i] > '9') {
                continue;
            }
            unsigned d = (unsigned)(s[i] - '0');
            if (acc > (UINT64_MAX - d) / 10) {
                over = true;
                break;
            }
            acc = acc * 10 + d;
        }
        if (neg) {
            return (over || acc > (uint64_t)INT64_MAX + 1) ? INT64_MIN : (int64_t)(0 - acc);
        }
        return over ? (int64_t)UINT64_MAX : (int64_t)acc;
    }
    default: {
        double d = plan__v_to_double(v, truncated);
        d = round(d);
        if (d >= 9223372036854775807.0) {
            return INT64_MAX;
        }
        if (d <= -9223372036854775808.0) {
            return INT64_MIN;
        }
        return (int64_t)d;
    }
    }
}

uint64_t
plan__v_to_uint(const plan_value *v, bool *truncated)
{
    if (v->kind == PV_DOUBLE) {
        if (truncated) {
            *truncated = false;
        }
        double d = round(v->d);
        if (d >= 18446744073709551615.0) {
            return UINT64_MAX;
        }
        if (d < 0) {
            return d <= -9223372036854775808.0 ? (uint64_t)INT64_MIN : (uint64_t)(int64_t)d;
        }
        return (uint64_t)d;
    }
    if (v->kind == PV_DECIMAL && v->dec > 0) {
        __int128 r;
        plan__dec_rescale(v->dec, v->scale, 0, &r);
        if (truncated) {
            *truncated = false;
        }
        return r > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)r;
    }
    return (uint64_t)plan__v_to_int(v, truncated);
}

bool
plan__v_to_dec(const plan_value *v, int scale, __int128 *out, bool *truncated)
{
    if (truncated) {
        *truncated = false;
    }
    switch ((plan_vkind)v->kind) {
    case PV_INT: {
        __int128 x = v->is_unsigned ? (__int128)v->u : (__int128)v->i;
        return plan__dec_rescale(x, 0, scale, out);
    }
    case PV_DECIMAL:
        return plan__dec_rescale(v->dec, v->scale, scale, out);
    case PV_STRING: {
        size_t start;
        bool is_int;
        size_t end = num_prefix(v->str.s, v->str.len, &start, &is_int);
        if (truncated) {
            *truncated = end == start || !rest_blank(v->str.s, end, v->str.len);
        }
        __int128 x;
        int sc;
        if (is_int || memchr(v->str.s + start, 'e', end - start) == NULL) {
            if (end == start) {
                *out = 0;
                return true;
            }
            if (plan__dec_parse(v->str.s + start, end - start, &x, &sc)) {
                return plan__dec_rescale(x, sc, scale, out);
            }
        }
        plan_value d = plan__v_double(str_to_double(v->str.s, v->str.len, NULL));
        return plan__v_to_dec(&d, scale, out, NULL);
    }
    default: {
        double d = plan__v_to_double(v, NULL);
        if (!isfinite(d) || fabs(d) >= 1e38) {
            return false;
        }
        char buf[128];
        snprintf(buf, sizeof buf, "%.*f", scale, d);
        int sc;
        __int128 x;
        if (!plan__dec_parse(buf, strlen(buf), &x, &sc)) {
            return false;
        }
        return plan__dec_rescale(x, sc, scale, out);
    }
    }
}

int
plan__v_truth(const plan_value *v)
{
    switch ((plan_vkind)v->kind) {
    case PV_NULL:
        return -1;
    case PV_INT:
        return v->i != 0;
    case PV_DECIMAL:
        return v->dec != 0;
    case PV_DOUBLE:
        return v->d != 0;
    default:
        return plan__v_to_double(v, NULL) != 0;
    }
}
