/* SPDX-License-Identifier: Apache-2.0
 * plan_func_date.c: date and time functions with MySQL 8 semantics: parts (YEAR ... WEEK),
 * DATE_FORMAT / STR_TO_DATE, interval arithmetic (DATE_ADD & co., TIMESTAMPADD/DIFF),
 * EXTRACT, DATEDIFF, conversions (DATE, TIME, TO_DAYS, FROM_DAYS, LAST_DAY, MAKEDATE),
 * FROM_UNIXTIME in the session time zone and CONVERT_TZ with numeric offsets; Doris's YEARS_ADD ...
 * SECONDS_SUB, YEARS_DIFF ... SECONDS_DIFF and DATE_TRUNC. Values are microseconds on a
 * proleptic Gregorian wall clock (plan_value). See README.md §Functions. */
#include "planner/plan_func_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/strutil.h"

#define US_PER_SEC  1000000LL
#define US_PER_DAY  (86400LL * US_PER_SEC)
#define DAYNR_EPOCH 719528 /* TO_DAYS('1970-01-01') */

static const char *const month_names[] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const day_names[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                        "Friday", "Saturday", "Sunday"};

/* Broken-down wall clock. */
typedef struct dtm {
    int64_t y;
    unsigned mo, d, h, mi, s;
    int64_t us;   /* microseconds within the second */
    int64_t days; /* days since 1970-01-01 */
} dtm;

static void split_us(int64_t us, dtm *t);
static int64_t floor_div(int64_t a, int64_t b);
static int arg_dt(plan_ectx *cx, const plan_expr *e, uint32_t i, plan_value *v, bool *is_null,
                  db_error *err);
static bool leap(int64_t y);
static unsigned mdays(int64_t y, unsigned m);
static int64_t daynr(int64_t y, unsigned m, unsigned d);
static unsigned week_mode(int64_t mode);
static char *format_dt(plan_ectx *cx, const dtm *t, bool is_time_val, const char *f, size_t fl,
                       size_t *outlen);
static int interval_us(plan_ectx *cx, int unit, const plan_value *n, int64_t *months, int64_t *us,
                       bool *is_null);
static bool add_interval(int64_t base, int64_t months, int64_t us, int64_t *out);
static bool unit_has_time(int unit);
static bool unit_is_simple(int unit);
static int parse_error_at(plan_ectx *cx, const plan_ast *x, db_error *err);
static int64_t months_between(int64_t a, int64_t b);
static int64_t unit_diff(int unit, int64_t a, int64_t b);
static int doris_unit(const char *name, const char **rest);
static bool const_datetime(const plan_expr *x, bool *has_time, int *fsp);
static int trunc_unit(const char *s, size_t len);
static int64_t trunc_to(int unit, int64_t us);

static int64_t
floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static void
split_us(int64_t us, dtm *t)
{
    t->days = floor_div(us, US_PER_DAY);
    int64_t tod = us - t->days * US_PER_DAY;
    plan__civil_from_days(t->days, &t->y, &t->mo, &t->d);
    t->us = tod % US_PER_SEC;
    int64_t secs = tod / US_PER_SEC;
    t->h = (unsigned)(secs / 3600);
    t->mi = (unsigned)(secs / 60 % 60);
    t->s = (unsigned)(secs % 60);
}

static bool
leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned
mdays(int64_t y, unsigned m)
{
    static const unsigned n[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : n[m - 1];
}

/* MySQL's day number (TO_DAYS). */
static int64_t
daynr(int64_t y, unsigned m, unsigned d)
{
    return plan__days_from_civil(y, m, d) + DAYNR_EPOCH;
}

/* Argument i as a DATE/DATETIME value (strings and numbers are converted, with MySQL's
 * warning when they are not dates; then the result is NULL). TIME takes today's date. */
static int
arg_dt(plan_ectx *cx, const plan_expr *e, uint32_t i, plan_value *v, bool *is_null, db_error *err)
{
    if (plan__eval(cx, e->args[i], v, err) != DB_OK) {
        return DB_ERR;
    }
    *is_null = false;
    if (v->kind == PV_DATE || v->kind == PV_DATETIME) {
        return DB_OK;
    }
    if (v->kind == PV_NULL) {
        *is_null = true;
        return DB_OK;
    }
    if (v->kind == PV_TIME) {
        v->kind = PV_DATETIME;
        v->us += floor_div(cx->now_us, US_PER_DAY) * US_PER_DAY;
        return DB_OK;
    }
    plan_cast c = {PLAN_CAST_DATETIME, -1, 6, PLAN_TYPE_NULL, false};
    plan_value dt;
    if (plan__v_cast(cx, v, &c, &dt, err) != DB_OK) {
        return DB_ERR;
    }
    if (dt.kind == PV_NULL) {
        *is_null = true;
        return DB_OK;
    }
    bool has_time = true;
    if (v->kind == PV_STRING) {
        int64_t us;
        if (plan__parse_datetime(v->str.s, v->str.len, &us, &has_time) && !has_time) {
            dt.kind = PV_DATE;
        }
    }
    *v = dt;
    return DB_OK;
}

/* ---- week numbers (MySQL calc_week) ---- */

enum { WEEK_MONDAY_FIRST = 1, WEEK_YEAR = 2, WEEK_FIRST_WEEKDAY = 4 };

static unsigned
week_mode(int64_t mode)
{
    unsigned f = (unsigned)(mode & 7);
    if (!(f & WEEK_MONDAY_FIRST)) {
        f ^= WEEK_FIRST_WEEKDAY;
    }
    return f;
}

static unsigned
weekday_of(int64_t dnr, bool sunday_first)
{
    return (unsigned)((dnr + 5 + (sunday_first ? 1 : 0)) % 7);
}

unsigned
plan__calc_week(int64_t y, unsigned m, unsigned d, unsigned behaviour, int64_t *year)
{
    int64_t dnr = daynr(y, m, d), first = daynr(y, 1, 1), days;
    bool monday_first = behaviour & WEEK_MONDAY_FIRST;
    bool week_year = behaviour & WEEK_YEAR;
    bool first_weekday = behaviour & WEEK_FIRST_WEEKDAY;
    unsigned wd = weekday_of(first, !monday_first);
    *year = y;
    if (m == 1 && d <= 7 - wd) {
        if (!week_year && ((first_weekday && wd != 0) || (!first_weekday && wd >= 4))) {
            return 0;
        }
        week_year = true;
        (*year)--;
        days = leap(*year) ? 366 : 365;
        first -= days;
        wd = (unsigned)((wd + 53 * 7 - days) % 7);
    }
    if ((first_weekday && wd != 0) || (!first_weekday && wd >= 4)) {
        days = dnr - (first + (7 - wd));
    } else {
        days = dnr - (first - wd);
    }
    if (week_year && days >= 52 * 7) {
        wd = (unsigned)((wd + (leap(*year) ? 366 : 365)) % 7);
        if ((!first_weekday && wd < 4) || (first_weekday && wd == 0)) {
            (*year)++;
            return 1;
        }
    }
    return (unsigned)(days / 7 + 1);
}

/* ---- parts: YEAR MONTH DAY HOUR ... ---- */

enum {
    DP_YEAR,
    DP_QUARTER,
    DP_MONTH,
    DP_DAY,
    DP_DAYOFWEEK,
    DP_DAYOFYEAR,
    DP_WEEKDAY,
    DP_WEEK,
    DP_WEEKOFYEAR,
    DP_YEARWEEK,
    DP_HOUR,
    DP_MINUTE,
    DP_SECOND,
    DP_MICROSECOND,
    DP_TO_DAYS,
    DP_DAYNAME,
    DP_MONTHNAME,
};

static const struct {
    const char *name;
    int op;
} part_names[] = {
        {"year", DP_YEAR},
        {"quarter", DP_QUARTER},
        {"month", DP_MONTH},
        {"day", DP_DAY},
        {"dayofmonth", DP_DAY},
        {"dayofweek", DP_DAYOFWEEK},
        {"dayofyear", DP_DAYOFYEAR},
        {"weekday", DP_WEEKDAY},
        {"week", DP_WEEK},
        {"weekofyear", DP_WEEKOFYEAR},
        {"yearweek", DP_YEARWEEK},
        {"hour", DP_HOUR},
        {"minute", DP_MINUTE},
        {"second", DP_SECOND},
        {"microsecond", DP_MICROSECOND},
        {"to_days", DP_TO_DAYS},
        {"dayname", DP_DAYNAME},
        {"monthname", DP_MONTHNAME},
};

/* v as a DATE / DATETIME (other kinds cast as DATETIME(6); NULL when they are no date). */
static int
as_datetime(plan_ectx *cx, plan_value *v, db_error *err)
{
    if (v->kind == PV_DATE || v->kind == PV_DATETIME) {
        return DB_OK;
    }
    plan_cast c = {PLAN_CAST_DATETIME, -1, 6, PLAN_TYPE_NULL, false};
    plan_value dt;
    if (plan__v_cast(cx, v, &c, &dt, err) != DB_OK) {
        return DB_ERR;
    }
    *v = dt;
    return DB_OK;
}

/* Evaluate x for a time part: a string that reads as a time (no '-' after its first byte, so
 * not a date) becomes a PV_TIME duration; other values are left as they are. */
static int
eval_timeish(plan_ectx *cx, const plan_expr *x, plan_value *v, db_error *err)
{
    if (plan__eval(cx, x, v, err) != DB_OK) {
        return DB_ERR;
    }
    int64_t us;
    if (v->kind == PV_STRING && v->str.len > 1 && !memchr(v->str.s + 1, '-', v->str.len - 1) &&
        plan__parse_time(v->str.s, v->str.len, &us)) {
        v->kind = PV_TIME;
        v->us = us;
    }
    return DB_OK;
}

static int
ev_date_part(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    bool is_null;
    *out = plan__v_null();
    if (e->op >= DP_HOUR && e->op <= DP_MICROSECOND) {
        /* Time parts read TIME values (and strings that are times) as durations. */
        if (eval_timeish(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
        if (v.kind == PV_TIME) {
            int64_t a = v.us < 0 ? -v.us : v.us;
            int64_t r = e->op == DP_HOUR     ? a / (3600 * US_PER_SEC)
                        : e->op == DP_MINUTE ? a / (60 * US_PER_SEC) % 60
                        : e->op == DP_SECOND ? a / US_PER_SEC % 60
                                             : a % US_PER_SEC;
            *out = plan__v_int(r);
            return DB_OK;
        }
        if (as_datetime(cx, &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
    } else {
        if (arg_dt(cx, e, 0, &v, &is_null, err) != DB_OK) {
            return DB_ERR;
        }
        if (is_null) {
            return DB_OK;
        }
    }
    dtm t;
    split_us(v.us, &t);
    int64_t dnr = daynr(t.y, t.mo, t.d), r = 0, yr;
    int64_t mode = 0;
    if (e->nargs > 1) {
        plan_value m;
        if (plan__eval(cx, e->args[1], &m, err) != DB_OK) {
            return DB_ERR;
        }
        if (m.kind == PV_NULL) {
            return DB_OK;
        }
        mode = plan__v_to_int(&m, NULL);
    }
    switch (e->op) {
    case DP_YEAR:
        r = t.y;
        break;
    case DP_QUARTER:
        r = (t.mo + 2) / 3;
        break;
    case DP_MONTH:
        r = t.mo;
        break;
    case DP_DAY:
        r = t.d;
        break;
    case DP_DAYOFWEEK:
        r = weekday_of(dnr, true) + 1;
        break;
    case DP_DAYOFYEAR:
        r = dnr - daynr(t.y, 1, 1) + 1;
        break;
    case DP_WEEKDAY:
        r = weekday_of(dnr, false);
        break;
    case DP_WEEK:
        r = plan__calc_week(t.y, t.mo, t.d, week_mode(mode), &yr);
        break;
    case DP_WEEKOFYEAR:
        r = plan__calc_week(t.y, t.mo, t.d, week_mode(3), &yr);
        break;
    case DP_YEARWEEK: {
        unsigned w = plan__calc_week(t.y, t.mo, t.d, week_mode(mode) | WEEK_YEAR, &yr);
        r = yr * 100 + w;
        break;
    }
    case DP_HOUR:
        r = t.h;
        break;
    case DP_MINUTE:
        r = t.mi;
        break;
    case DP_SECOND:
        r = t.s;
        break;
    case DP_MICROSECOND:
        r = t.us;
        break;
    case DP_TO_DAYS:
        r = dnr;
        break;
    case DP_DAYNAME: {
        const char *n = day_names[weekday_of(dnr, false)];
        *out = plan__v_str(n, strlen(n));
        return DB_OK;
    }
    default: {
        const char *n = month_names[t.mo - 1];
        *out = plan__v_str(n, strlen(n));
        return DB_OK;
    }
    }
    *out = plan__v_int(r);
    return DB_OK;
}

int
plan__ty_date_part(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    for (size_t i = 0; i < sizeof part_names / sizeof part_names[0]; i++) {
        if (strcmp(e->name, part_names[i].name) == 0) {
            e->op = part_names[i].op;
        }
    }
    if (e->op == DP_DAYNAME || e->op == DP_MONTHNAME) {
        plan__type_string(&e->t, 9, true);
        e->vk = PV_STRING;
    } else {
        plan__type_bigint(&e->t, e->op == DP_TO_DAYS || e->op == DP_YEARWEEK ? 7 : 4, true);
        e->vk = PV_INT;
    }
    e->eval = ev_date_part;
    return DB_OK;
}

/* ---- EXTRACT(unit FROM x) (MySQL 8's Item_extract) ---- */

/* The date units (YEAR ... DAY, YEAR_MONTH) read x as a date (TIME takes today's date); the
 * others read it as a time: a TIME, or a string that is one, is a signed duration whose hours
 * are not split into days (EXTRACT(DAY_HOUR FROM '26:30:00') = 26, MySQL; MariaDB says 102),
 * and a date or datetime keeps its day of the month for the DAY_* units. */
static int
ev_extract(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    bool is_null;
    *out = plan__v_null();
    int unit = e->op;
    int64_t r = 0;
    if (!unit_has_time(unit)) {
        if (arg_dt(cx, e, 0, &v, &is_null, err) != DB_OK) {
            return DB_ERR;
        }
        if (is_null) {
            return DB_OK;
        }
        dtm t;
        split_us(v.us, &t);
        int64_t yr;
        switch (unit) {
        case PLAN_UNIT_YEAR:
            r = t.y;
            break;
        case PLAN_UNIT_YEAR_MONTH:
            r = t.y * 100 + t.mo;
            break;
        case PLAN_UNIT_QUARTER:
            r = (t.mo + 2) / 3;
            break;
        case PLAN_UNIT_MONTH:
            r = t.mo;
            break;
        case PLAN_UNIT_WEEK:
            r = plan__calc_week(t.y, t.mo, t.d, week_mode(cx->s->vars[e->slot].i), &yr);
            break;
        default:
            r = t.d;
            break;
        }
        *out = plan__v_int(r);
        return DB_OK;
    }
    if (eval_timeish(cx, e->args[0], &v, err) != DB_OK) {
        return DB_ERR;
    }
    if (v.kind == PV_NULL) {
        return DB_OK;
    }
    if (v.kind == PV_INT || v.kind == PV_DECIMAL || v.kind == PV_DOUBLE) {
        /* a number is [-]hhmmss[.ffffff], as MySQL's TIME conversion reads it */
        int64_t frac_us = 0;
        if (v.kind == PV_DECIMAL) {
            __int128 one = plan__pow10(v.scale);
            __int128 f = v.dec % one;
            frac_us = (int64_t)(v.scale > 6 ? f / plan__pow10(v.scale - 6)
                                            : f * plan__pow10(6 - v.scale));
            v = plan__v_int((int64_t)(v.dec / one));
        } else if (v.kind == PV_DOUBLE) {
            double ip = v.d < 0 ? ceil(v.d) : floor(v.d);
            frac_us = (int64_t)((v.d - ip) * 1e6);
            v = plan__v_int((int64_t)ip);
        }
        plan_cast c = {PLAN_CAST_TIME, -1, 6, PLAN_TYPE_NULL, false};
        plan_value tm;
        if (plan__v_cast(cx, &v, &c, &tm, err) != DB_OK) {
            return DB_ERR;
        }
        if (tm.kind == PV_NULL) {
            return DB_OK;
        }
        v = tm;
        v.us += frac_us;
    }
    int64_t day, hour, min, sec, frac, sign = 1;
    if (v.kind == PV_TIME) {
        int64_t a = v.us;
        if (a < 0) {
            sign = -1;
            a = -a;
        }
        day = 0;
        hour = a / (3600 * US_PER_SEC);
        min = a / (60 * US_PER_SEC) % 60;
        sec = a / US_PER_SEC % 60;
        frac = a % US_PER_SEC;
    } else {
        if (as_datetime(cx, &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
        dtm t;
        split_us(v.us, &t);
        day = t.d;
        hour = t.h;
        min = t.mi;
        sec = t.s;
        frac = t.us;
    }
    switch (unit) {
    case PLAN_UNIT_DAY_HOUR:
        r = day * 100 + hour;
        break;
    case PLAN_UNIT_DAY_MINUTE:
        r = (day * 100 + hour) * 100 + min;
        break;
    case PLAN_UNIT_DAY_SECOND:
        r = ((day * 100 + hour) * 100 + min) * 100 + sec;
        break;
    case PLAN_UNIT_DAY_MICROSECOND:
        r = (((day * 100 + hour) * 100 + min) * 100 + sec) * US_PER_SEC + frac;
        break;
    case PLAN_UNIT_HOUR:
        r = hour;
        break;
    case PLAN_UNIT_HOUR_MINUTE:
        r = hour * 100 + min;
        break;
    case PLAN_UNIT_HOUR_SECOND:
        r = (hour * 100 + min) * 100 + sec;
        break;
    case PLAN_UNIT_HOUR_MICROSECOND:
        r = ((hour * 100 + min) * 100 + sec) * US_PER_SEC + frac;
        break;
    case PLAN_UNIT_MINUTE:
        r = min;
        break;
    case PLAN_UNIT_MINUTE_SECOND:
        r = min * 100 + sec;
        break;
    case PLAN_UNIT_MINUTE_MICROSECOND:
        r = (min * 100 + sec) * US_PER_SEC + frac;
        break;
    case PLAN_UNIT_SECOND:
        r = sec;
        break;
    case PLAN_UNIT_SECOND_MICROSECOND:
        r = sec * US_PER_SEC + frac;
        break;
    default: /* PLAN_UNIT_MICROSECOND */
        r = frac;
        break;
    }
    *out = plan__v_int(r * sign);
    return DB_OK;
}

int
plan__ty_extract(plan_ectx *cx, plan_expr *e, db_error *err)
{
    /* display widths of MySQL 8's Item_extract */
    static const struct {
        int unit;
        uint8_t len;
    } units[] = {
            {PLAN_UNIT_YEAR, 4},
            {PLAN_UNIT_YEAR_MONTH, 6},
            {PLAN_UNIT_QUARTER, 2},
            {PLAN_UNIT_MONTH, 2},
            {PLAN_UNIT_WEEK, 2},
            {PLAN_UNIT_DAY, 2},
            {PLAN_UNIT_DAY_HOUR, 9},
            {PLAN_UNIT_DAY_MINUTE, 11},
            {PLAN_UNIT_DAY_SECOND, 13},
            {PLAN_UNIT_DAY_MICROSECOND, 20},
            {PLAN_UNIT_HOUR, 2},
            {PLAN_UNIT_HOUR_MINUTE, 4},
            {PLAN_UNIT_HOUR_SECOND, 6},
            {PLAN_UNIT_HOUR_MICROSECOND, 13},
            {PLAN_UNIT_MINUTE, 2},
            {PLAN_UNIT_MINUTE_SECOND, 4},
            {PLAN_UNIT_MINUTE_MICROSECOND, 11},
            {PLAN_UNIT_SECOND, 2},
            {PLAN_UNIT_SECOND_MICROSECOND, 9},
            {PLAN_UNIT_MICROSECOND, 2},
    };
    int unit = e->src ? e->src->op : 0;
    uint32_t len = 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (units[i].unit == unit) {
            len = units[i].len;
        }
    }
    if (len == 0) {
        return parse_error_at(cx, e->src, err); /* only the grammar builds this call */
    }
    e->op = unit;
    e->slot = plan__sysvar_find("default_week_format");
    plan__type_bigint(&e->t, len, true);
    e->vk = PV_INT;
    e->eval = ev_extract;
    return DB_OK;
}

/* ---- DATE_FORMAT ---- */

static char *
format_dt(plan_ectx *cx, const dtm *t, bool is_time_val, const char *f, size_t fl, size_t *outlen)
{
    size_t cap = fl * 12 + 16, o = 0;
    char *b = arena_alloc(cx->a, cap);
    int64_t dnr = daynr(t->y, t->mo, t->d), yr;
    for (size_t i = 0; i < fl; i++) {
        if (f[i] != '%' || i + 1 == fl) {
            b[o++] = f[i];
            continue;
        }
        char c = f[++i];
        char *p = b + o;
        size_t room = cap - o;
        int n = 0;
        unsigned h12 = t->h % 12 == 0 ? 12 : t->h % 12;
        switch (c) {
        case 'a':
            n = snprintf(p, room, "%.3s", day_names[weekday_of(dnr, false)]);
            break;
        case 'b':
            n = snprintf(p, room, "%.3s", month_names[t->mo - 1]);
            break;
        case 'c':
            n = snprintf(p, room, "%u", t->mo);
            break;
        case 'D': {
            unsigned dd = t->d;
            const char *suf = (dd / 10 == 1) ? "th"
                              : dd % 10 == 1 ? "st"
                              : dd % 10 == 2 ? "nd"
                              : dd % 10 == 3 ? "rd"
                                             : "th";
            n = snprintf(p, room, "%u%s", dd, suf);
            break;
        }
        case 'd':
            n = snprintf(p, room, "%02u", t->d);
            break;
        case 'e':
            n = snprintf(p, room, "%u", t->d);
            break;
        case 'f':
            n = snprintf(p, room, "%06lld", (long long)t->us);
            break;
        case 'H':
            n = snprintf(p, room, "%02u", t->h);
            break;
        case 'h':
        case 'I':
            n = snprintf(p, room, "%02u", h12);
            break;
        case 'i':
            n = snprintf(p, room, "%02u", t->mi);
            break;
        case 'j':
            n = snprintf(p, room, "%03lld", (long long)(dnr - daynr(t->y, 1, 1) + 1));
            break;
        case 'k':
            n = snprintf(p, room, "%u", t->h);
            break;
        case 'l':
            n = snprintf(p, room, "%u", h12);
            break;
        case 'M':
            n = snprintf(p, room, "%s", month_names[t->mo - 1]);
            break;
        case 'm':
            n = snprintf(p, room, "%02u", t->mo);
            break;
        case 'p':
            n = snprintf(p, room, "%s", t->h % 24 < 12 ? "AM" : "PM");
            break;
        case 'r':
            n = snprintf(p, room, "%02u:%02u:%02u %s", h12, t->mi, t->s,
                         t->h % 24 < 12 ? "AM" : "PM");
            break;
        case 'S':
        case 's':
            n = snprintf(p, room, "%02u", t->s);
            break;
        case 'T':
            n = snprintf(p, room, "%02u:%02u:%02u", t->h, t->mi, t->s);
            break;
        case 'U':
            n = snprintf(p, room, "%02u",
                         plan__calc_week(t->y, t->mo, t->d, WEEK_FIRST_WEEKDAY, &yr));
            break;
        case 'u':
            n = snprintf(p, room, "%02u",
                         plan__calc_week(t->y, t->mo, t->d, WEEK_MONDAY_FIRST, &yr));
            break;
        case 'V':
            n = snprintf(p, room, "%02u",
                         plan__calc_week(t->y, t->mo, t->d, WEEK_YEAR | WEEK_FIRST_WEEKDAY, &yr));
            break;
        case 'v':
            n = snprintf(p, room, "%02u",
                         plan__calc_week(t->y, t->mo, t->d, WEEK_YEAR | WEEK_MONDAY_FIRST, &yr));
            break;
        case 'W':
            n = snprintf(p, room, "%s", day_names[weekday_of(dnr, false)]);
            break;
        case 'w':
            n = snprintf(p, room, "%u", weekday_of(dnr, true));
            break;
        case 'X':
            plan__calc_week(t->y, t->mo, t->d, WEEK_YEAR | WEEK_FIRST_WEEKDAY, &yr);
            n = snprintf(p, room, "%04lld", (long long)yr);
            break;
        case 'x':
            plan__calc_week(t->y, t->mo, t->d, WEEK_YEAR | WEEK_MONDAY_FIRST, &yr);
            n = snprintf(p, room, "%04lld", (long long)yr);
            break;
        case 'Y':
            n = snprintf(p, room, "%04lld", (long long)t->y);
            break;
        case 'y':
            n = snprintf(p, room, "%02lld", (long long)(t->y % 100));
            break;
        default: /* %% and unknown specifiers: the character itself */
            b[o++] = c;
            break;
        }
        (void)is_time_val;
        o += (size_t)(n > 0 ? n : 0);
    }
    *outlen = o;
    return b;
}

static int
ev_date_format(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v, f;
    bool is_null;
    *out = plan__v_null();
    if (e->op == 1) { /* FROM_UNIXTIME(ts, fmt) */
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
        double d = plan__v_to_double(&v, NULL);
        if (d < 0 || d > 32536771199.999999) {
            return DB_OK;
        }
        int64_t secs = (int64_t)d;
        int64_t frac = (int64_t)((d - (double)secs) * 1e6 + 0.5);
        v.kind = PV_DATETIME;
        v.us = (secs + plan__tz_offset(cx->s, secs)) * US_PER_SEC + frac;
        is_null = false;
    } else if (arg_dt(cx, e, 0, &v, &is_null, err) != DB_OK) {
        return DB_ERR;
    }
    if (plan__eval(cx, e->args[1], &f, err) != DB_OK) {
        return DB_ERR;
    }
    const char *fs;
    size_t fl;
    if (is_null || !plan__v_string(cx, &f, &fs, &fl)) {
        return DB_OK;
    }
    dtm t;
    split_us(v.us, &t);
    size_t n;
    char *s = format_dt(cx, &t, false, fs, fl, &n);
    *out = plan__v_str(s, n);
    return DB_OK;
}

int
plan__ty_date_format(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    uint32_t fl = plan__type_strlen(&e->args[1]->t);
    plan__type_string(&e->t, fl > 1000 ? 65535 : fl * 10 + 1, true);
    e->vk = PV_STRING;
    e->op = strcmp(e->name, "from_unixtime") == 0;
    e->eval = ev_date_format;
    return DB_OK;
}

/* ---- interval arithmetic ---- */

static bool
unit_has_time(int unit)
{
    switch (unit) {
    case PLAN_UNIT_DAY:
    case PLAN_UNIT_WEEK:
    case PLAN_UNIT_MONTH:
    case PLAN_UNIT_QUARTER:
    case PLAN_UNIT_YEAR:
    case PLAN_UNIT_YEAR_MONTH:
        return false;
    default:
        return true;
    }
}

/* 1064 quoting the statement from x on, as the grammar would have (MySQL rejects these
 * forms in its grammar; here the unit or operand is checked by the type rule). */
static int
parse_error_at(plan_ectx *cx, const plan_ast *x, db_error *err)
{
    size_t off = x && x->off <= cx->sql_len ? x->off : cx->sql_len;
    int line = 1;
    for (size_t k = 0; k < off; k++) {
        line += cx->sql[k] == '\n';
    }
    char near[96];
    size_t rest = cx->sql_len - off;
    snprintf(near, sizeof near, "%.*s", (int)(rest > 80 ? 80 : rest), cx->sql + off);
    return db_error_set(err, ER_PARSE_ERROR, near, line);
}

static bool
unit_is_simple(int unit)
{
    switch (unit) {
    case PLAN_UNIT_MICROSECOND:
    case PLAN_UNIT_SECOND:
    case PLAN_UNIT_MINUTE:
    case PLAN_UNIT_HOUR:
    case PLAN_UNIT_DAY:
    case PLAN_UNIT_WEEK:
    case PLAN_UNIT_MONTH:
    case PLAN_UNIT_QUARTER:
    case PLAN_UNIT_YEAR:
        return true;
    default:
        return false;
    }
}

/* The interval `n unit` as months + microseconds. Compound units take a string of numbers
 * separated by any non-digits, right-aligned to the unit's fields ('1 2:3' DAY_MINUTE is 1
 * day 2 hours 3 minutes); a leading '-' negates the whole interval. */
static int
interval_us(plan_ectx *cx, int unit, const plan_value *n, int64_t *months, int64_t *us,
            bool *is_null)
{
    *months = 0;
    *us = 0;
    *is_null = n->kind == PV_NULL;
    if (*is_null) {
        return DB_OK;
    }
    static const int64_t sec = US_PER_SEC, min = 60 * US_PER_SEC, hour = 3600 * US_PER_SEC;
    int64_t simple = 0;
    switch (unit) {
    case PLAN_UNIT_MICROSECOND:
        simple = 1;
        break;
    case PLAN_UNIT_SECOND:
        simple = sec;
        break;
    case PLAN_UNIT_MINUTE:
        simple = min;
        break;
    case PLAN_UNIT_HOUR:
        simple = hour;
        break;
    case PLAN_UNIT_DAY:
        simple = US_PER_DAY;
        break;
    case PLAN_UNIT_WEEK:
        simple = 7 * US_PER_DAY;
        break;
    default:
        break;
    }
    if (unit == PLAN_UNIT_SECOND && n->kind != PV_INT && n->kind != PV_STRING) {
        double d = plan__v_to_double(n, NULL); /* INTERVAL 1.5 SECOND keeps the fraction */
        double x = d * 1e6 + (d < 0 ? -0.5 : 0.5);
        if (!(x > -9.2e18 && x < 9.2e18)) {
            *is_null = true; /* far outside any date (and not an int64_t) */
            return DB_OK;
        }
        *us = (int64_t)x;
        return DB_OK;
    }
    if (simple || unit == PLAN_UNIT_MONTH || unit == PLAN_UNIT_QUARTER || unit == PLAN_UNIT_YEAR) {
        int64_t k = plan__v_to_int(n, NULL);
        if (unit == PLAN_UNIT_MONTH || unit == PLAN_UNIT_QUARTER || unit == PLAN_UNIT_YEAR) {
            int64_t f = unit == PLAN_UNIT_MONTH ? 1 : (unit == PLAN_UNIT_QUARTER ? 3 : 12);
            if (__builtin_mul_overflow(k, f, months)) {
                *is_null = true;
            }
        } else if (__builtin_mul_overflow(k, simple, us)) {
            *is_null = true;
        }
        return DB_OK;
    }
    /* compound units: fields and their sizes, most significant first */
    int64_t sizes[5];
    int nf = 0;
    bool ym = false;
    switch (unit) {
    case PLAN_UNIT_SECOND_MICROSECOND:
        sizes[nf++] = sec, sizes[nf++] = 1;
        break;
    case PLAN_UNIT_MINUTE_MICROSECOND:
        sizes[nf++] = min, sizes[nf++] = sec, sizes[nf++] = 1;
        break;
    case PLAN_UNIT_MINUTE_SECOND:
        sizes[nf++] = min, sizes[nf++] = sec;
        break;
    case PLAN_UNIT_HOUR_MICROSECOND:
        sizes[nf++] = hour, sizes[nf++] = min, sizes[nf++] = sec, sizes[nf++] = 1;
        break;
    case PLAN_UNIT_HOUR_SECOND:
        sizes[nf++] = hour, sizes[nf++] = min, sizes[nf++] = sec;
        break;
    case PLAN_UNIT_HOUR_MINUTE:
        sizes[nf++] = hour, sizes[nf++] = min;
        break;
    case PLAN_UNIT_DAY_MICROSECOND:
        sizes[nf++] = US_PER_DAY, sizes[nf++] = hour, sizes[nf++] = min, sizes[nf++] = sec,
        sizes[nf++] = 1;
        break;
    case PLAN_UNIT_DAY_SECOND:
        sizes[nf++] = US_PER_DAY, sizes[nf++] = hour, sizes[nf++] = min, sizes[nf++] = sec;
        break;
    case PLAN_UNIT_DAY_MINUTE:
        sizes[nf++] = US_PER_DAY, sizes[nf++] = hour, sizes[nf++] = min;
        break;
    case PLAN_UNIT_DAY_HOUR:
        sizes[nf++] = US_PER_DAY, sizes[nf++] = hour;
        break;
    default: /* YEAR_MONTH */
        sizes[nf++] = 12, sizes[nf++] = 1;
        ym = true;
        break;
    }
    const char *s;
    size_t len;
    if (!plan__v_string(cx, n, &s, &len)) {
        *is_null = true;
        return DB_OK;
    }
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    bool neg = i < len && s[i] == '-';
    int64_t vals[8];
    size_t digits[8];
    int nv = 0;
    while (i < len && nv < 8) {
        while (i < len && !(s[i] >= '0' && s[i] <= '9')) {
            i++;
        }
        if (i >= len) {
            break;
        }
        int64_t x = 0;
        size_t nd = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            x = x * 10 + (s[i] - '0');
            i++;
            nd++;
            if (x > 1000000000000LL) {
                *is_null = true;
                return DB_OK;
            }
        }
        digits[nv] = nd;
        vals[nv++] = x;
    }
    if (nv > nf) {
        *is_null = true; /* MySQL: more fields than the unit has → NULL */
        return DB_OK;
    }
    int64_t total = 0;
    for (int k = 0; k < nv; k++) {
        int fi = nf - nv + k;
        int64_t x = vals[k];
        if (sizes[fi] == 1 && !ym && k == nv - 1 && nv > 1) {
            /* microseconds are a fraction: '1.5' SECOND_MICROSECOND is 1.5 s */
            for (size_t d = digits[k]; d < 6; d++) {
                x *= 10;
            }
        }
        int64_t part;
        if (__builtin_mul_overflow(x, sizes[fi], &part) ||
            __builtin_add_overflow(total, part, &total)) {
            *is_null = true;
            return DB_OK;
        }
    }
    if (neg) {
        total = -total;
    }
    if (ym) {
        *months = total;
    } else {
        *us = total;
    }
    return DB_OK;
}

/* base + months (day clamped to the month's end) + us; false when outside years 0..9999. */
static bool
add_interval(int64_t base, int64_t months, int64_t us, int64_t *out)
{
    if (months) {
        dtm t;
        split_us(base, &t);
        int64_t m;
        if (__builtin_add_overflow(t.y * 12 + (t.mo - 1), months, &m) || m < 0 || m >= 10000 * 12) {
            return false;
        }
        int64_t y = m / 12;
        unsigned mo = (unsigned)(m % 12) + 1, d = t.d;
        if (d > mdays(y, mo)) {
            d = mdays(y, mo);
        }
        base = plan__days_from_civil(y, mo, d) * US_PER_DAY + (base - t.days * US_PER_DAY);
    }
    int64_t r;
    if (__builtin_add_overflow(base, us, &r)) {
        return false;
    }
    int64_t lo = plan__days_from_civil(0, 1, 1) * US_PER_DAY;
    int64_t hi = plan__days_from_civil(10000, 1, 1) * US_PER_DAY;
    if (r < lo || r >= hi) {
        return false;
    }
    *out = r;
    return true;
}

static int
ev_date_add(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v, n;
    bool is_null, n_null;
    *out = plan__v_null();
    /* args: date, amount (the %interval node's operand, or a day count) */
    uint32_t di = e->negated ? 1 : 0; /* TIMESTAMPADD(unit, n, d): date second */
    if (arg_dt(cx, e, di, &v, &is_null, err) != DB_OK) {
        return DB_ERR;
    }
    const plan_expr *amount = e->args[1 - di];
    if (amount->fn && strcmp(amount->name, PLAN_INTERVAL_FN) == 0) {
        amount = amount->args[0];
    }
    if (plan__eval(cx, amount, &n, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_null) {
        return DB_OK;
    }
    int64_t months, us;
    if (interval_us(cx, e->slot, &n, &months, &us, &n_null) != DB_OK) {
        return DB_ERR;
    }
    if (n_null) {
        return DB_OK;
    }
    if (e->op == 1 && (months == INT64_MIN || us == INT64_MIN)) {
        months = us = INT64_MAX; /* -INT64_MIN: out of range all the same */
    } else if (e->op == 1) {
        months = -months;
        us = -us;
    }
    int64_t r;
    if (!add_interval(v.us, months, us, &r)) {
        plan__warn(cx->s, 1441, "Datetime function: %s field overflow",
                   v.kind == PV_DATE && !unit_has_time(e->slot) ? "date" : "datetime");
        return DB_OK;
    }
    bool as_date = v.kind == PV_DATE && !unit_has_time(e->slot);
    if (e->vk == PV_STRING) {
        plan_value d = plan__v_null();
        d.kind = as_date ? PV_DATE : PV_DATETIME;
        d.us = r;
        d.scale = r % US_PER_SEC != 0 ? 6 : 0;
        char buf[64];
        size_t len = plan__datetime_fmt(&d, buf, sizeof buf);
        char *s = arena_alloc(cx->a, len + 1);
        memcpy(s, buf, len);
        *out = plan__v_str(s, len);
        return DB_OK;
    }
    out->kind = e->vk;
    out->us = r;
    out->scale = e->t.scale;
    return DB_OK;
}

/* DATE_ADD(d, INTERVAL n unit), DATE_SUB, ADDDATE / SUBDATE (also with a day count),
 * TIMESTAMPADD(unit, n, d) (parsed as a call with a %interval second... see parse.y), and
 * the operators d + INTERVAL, INTERVAL + d, d - INTERVAL. MySQL's result type: DATE for a
 * DATE and a date unit, DATETIME for DATE/DATETIME otherwise, a string for string input. */
int
plan__ty_date_add(plan_ectx *cx, plan_expr *e, db_error *err)
{
    const plan_expr *iv = NULL;
    uint32_t di = 0;
    e->op = strcmp(e->name, "date_sub") == 0 || strcmp(e->name, "subdate") == 0;
    if (strcmp(e->name, "timestampadd") == 0) {
        /* TIMESTAMPADD(%interval(n), d) */
        di = 1;
        e->negated = true;
        iv = e->args[0];
    } else {
        e->negated = false;
        iv = e->args[1];
    }
    if (iv->fn && strcmp(iv->name, PLAN_INTERVAL_FN) == 0) {
        e->slot = iv->src ? iv->src->op : PLAN_UNIT_DAY;
    } else if (strcmp(e->name, "adddate") == 0 || strcmp(e->name, "subdate") == 0) {
        e->slot = PLAN_UNIT_DAY;
    } else {
        return parse_error_at(cx, iv->src, err); /* DATE_ADD(d, 1): MySQL's 1064 */
    }
    const plan_expr *d = e->args[di];
    bool has_time = unit_has_time(e->slot);
    int fsp = d->vk == PV_DATETIME ? d->t.scale : 0;
    if (e->slot == PLAN_UNIT_MICROSECOND || e->slot == PLAN_UNIT_SECOND_MICROSECOND ||
        e->slot == PLAN_UNIT_MINUTE_MICROSECOND || e->slot == PLAN_UNIT_HOUR_MICROSECOND ||
        e->slot == PLAN_UNIT_DAY_MICROSECOND) {
        fsp = 6;
    }
    const plan_expr *amount = iv->fn && strcmp(iv->name, PLAN_INTERVAL_FN) == 0 ? iv->args[0] : iv;
    if (e->slot == PLAN_UNIT_SECOND && (amount->vk == PV_DECIMAL || amount->vk == PV_DOUBLE)) {
        fsp = amount->vk == PV_DECIMAL && amount->t.scale < 6 && amount->t.scale > fsp
                      ? amount->t.scale
                      : (amount->vk == PV_DOUBLE ? 6 : fsp);
    }
    if (d->vk == PV_DATE && !has_time) {
        plan__type_datetime(&e->t, PLAN_TYPE_DATE, 0, true);
        e->vk = PV_DATE;
    } else if (d->vk == PV_DATE || d->vk == PV_DATETIME || d->vk == PV_TIME) {
        plan__type_datetime(&e->t, PLAN_TYPE_DATETIME, fsp, true);
        e->vk = PV_DATETIME;
    } else {
        plan__type_string(&e->t, 29, true);
        e->vk = PV_STRING;
    }
    e->eval = ev_date_add;
    return DB_OK;
}

static int
ev_interval(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    (void)cx;
    (void)e;
    (void)out;
    return db_error_set(err, ER_PARSE_ERROR, "INTERVAL", 1);
}

int
plan__ty_interval(plan_ectx *cx, plan_expr *e, db_error *err)
{
    if (!e->src || e->src->op == 0) {
        return parse_error_at(cx, e->src, err);
    }
    e->t = e->args[0]->t;
    e->vk = e->args[0]->vk;
    e->eval = ev_interval;
    return DB_OK;
}

/* ---- differences ---- */

/* Whole months from a to b (wall-clock us), truncated toward zero like MySQL. */
static int64_t
months_between(int64_t a, int64_t b)
{
    int sign = 1;
    if (a > b) {
        int64_t t = a;
        a = b;
        b = t;
        sign = -1;
    }
    dtm x, y;
    split_us(a, &x);
    split_us(b, &y);
    int64_t m = (y.y * 12 + y.mo) - (x.y * 12 + x.mo);
    int64_t tx = a - x.days * US_PER_DAY, ty = b - y.days * US_PER_DAY;
    if (y.d < x.d || (y.d == x.d && ty < tx)) {
        m--;
    }
    return sign * m;
}

static int
ev_datediff(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value a, b;
    bool na, nb;
    *out = plan__v_null();
    uint32_t o = e->op ? 1 : 0; /* TIMESTAMPDIFF: args[0] is the unit */
    if (arg_dt(cx, e, o, &a, &na, err) != DB_OK || arg_dt(cx, e, o + 1, &b, &nb, err) != DB_OK) {
        return DB_ERR;
    }
    if (na || nb) {
        return DB_OK;
    }
    if (!e->op) { /* DATEDIFF(a, b): a - b in days, times ignored */
        *out = plan__v_int(floor_div(a.us, US_PER_DAY) - floor_div(b.us, US_PER_DAY));
        return DB_OK;
    }
    *out = plan__v_int(unit_diff(e->op, a.us, b.us));
    return DB_OK;
}

/* Whole units from a to b (wall-clock us), truncated toward zero: TIMESTAMPDIFF(unit, a, b). */
static int64_t
unit_diff(int unit, int64_t a, int64_t b)
{
    int64_t d = b - a;
    switch (unit) {
    case PLAN_UNIT_MONTH:
        return months_between(a, b);
    case PLAN_UNIT_QUARTER:
        return months_between(a, b) / 3;
    case PLAN_UNIT_YEAR:
        return months_between(a, b) / 12;
    case PLAN_UNIT_WEEK:
        return d / (7 * US_PER_DAY);
    case PLAN_UNIT_DAY:
        return d / US_PER_DAY;
    case PLAN_UNIT_HOUR:
        return d / (3600 * US_PER_SEC);
    case PLAN_UNIT_MINUTE:
        return d / (60 * US_PER_SEC);
    case PLAN_UNIT_SECOND:
        return d / US_PER_SEC;
    default:
        return d;
    }
}

int
plan__ty_datediff(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    e->op = 0;
    plan__type_bigint(&e->t, 7, true);
    e->vk = PV_INT;
    e->eval = ev_datediff;
    return DB_OK;
}

/* TIMESTAMPDIFF(unit, a, b): the grammar passes the unit as a %interval node over a dummy. */
int
plan__ty_timestampdiff(plan_ectx *cx, plan_expr *e, db_error *err)
{
    const plan_expr *u = e->args[0];
    if (!(u->fn && strcmp(u->name, PLAN_INTERVAL_FN) == 0) || !u->src || !u->src->op ||
        !unit_is_simple(u->src->op)) {
        return parse_error_at(cx, u->src, err);
    }
    e->op = u->src->op;
    plan__type_bigint(&e->t, 21, true);
    e->vk = PV_INT;
    e->eval = ev_datediff;
    return DB_OK;
}

/* ---- Doris: YEARS_ADD ... SECONDS_SUB, YEARS_DIFF ... SECONDS_DIFF, DATE_TRUNC ---- */

/* The unit of a Doris function name `<units>_<rest>` (years_add, days_diff, ...): its plan_unit,
 * and *rest points after the underscore; PLAN_UNIT_NONE for another name. */
static int
doris_unit(const char *name, const char **rest)
{
    static const struct {
        const char *word;
        int unit;
    } units[] = {{"years_", PLAN_UNIT_YEAR},    {"months_", PLAN_UNIT_MONTH},
                 {"weeks_", PLAN_UNIT_WEEK},    {"days_", PLAN_UNIT_DAY},
                 {"hours_", PLAN_UNIT_HOUR},    {"minutes_", PLAN_UNIT_MINUTE},
                 {"seconds_", PLAN_UNIT_SECOND}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].word);
        if (strncmp(name, units[i].word, n) == 0) {
            *rest = name + n;
            return units[i].unit;
        }
    }
    *rest = name;
    return 0;
}

/* True when x is a string literal holding a date or datetime; *has_time tells which and *fsp
 * counts its fractional digits (Doris types such a literal as DATE or DATETIME(fsp)). */
static bool
const_datetime(const plan_expr *x, bool *has_time, int *fsp)
{
    *has_time = true;
    *fsp = 0;
    if (!x->src || x->src->kind != PA_STRING || x->vk != PV_STRING) {
        return false;
    }
    const char *s = x->lit.str.s;
    size_t len = x->lit.str.len;
    int64_t us;
    if (!plan__parse_datetime(s, len, &us, has_time)) {
        return false;
    }
    const char *dot = memchr(s, '.', len);
    if (*has_time && dot) {
        for (const char *p = dot + 1; p < s + len && *p >= '0' && *p <= '9' && *fsp < 6; p++) {
            (*fsp)++;
        }
    }
    return true;
}

/* YEARS_ADD(d, n) ... SECONDS_SUB(d, n) (Doris): DATE_ADD(d, INTERVAL n unit), evaluated by
 * ev_date_add with the plain amount as second argument. Doris's result type: DATE for a DATE
 * (or a date-only string literal) and a date unit, DATETIME otherwise (a string column is
 * DATETIME(0), as Doris casts it). */
int
plan__ty_doris_date_add(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    const char *rest;
    e->slot = doris_unit(e->name, &rest);
    e->op = strcmp(rest, "sub") == 0;
    e->negated = false;
    const plan_expr *d = e->args[0];
    bool date_unit = !unit_has_time(e->slot), has_time = true;
    int fsp = 0;
    plan_vkind k = d->vk;
    if (k == PV_STRING && const_datetime(d, &has_time, &fsp)) {
        k = has_time ? PV_DATETIME : PV_DATE;
    } else if (k == PV_DATETIME) {
        fsp = d->t.scale;
    }
    if (k == PV_DATE && date_unit) {
        plan__type_datetime(&e->t, PLAN_TYPE_DATE, 0, true);
        e->vk = PV_DATE;
    } else {
        plan__type_datetime(&e->t, PLAN_TYPE_DATETIME, fsp, true);
        e->vk = PV_DATETIME;
    }
    e->eval = ev_date_add;
    return DB_OK;
}

static int
ev_doris_diff(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value a, b;
    bool na, nb;
    *out = plan__v_null();
    if (arg_dt(cx, e, 0, &a, &na, err) != DB_OK || arg_dt(cx, e, 1, &b, &nb, err) != DB_OK) {
        return DB_ERR;
    }
    if (na || nb) {
        return DB_OK;
    }
    *out = plan__v_int(unit_diff(e->op, b.us, a.us));
    return DB_OK;
}

/* YEARS_DIFF(end, start) ... SECONDS_DIFF (Doris): BIGINT whole units from start to end,
 * truncated toward zero = TIMESTAMPDIFF(unit, start, end). */
int
plan__ty_doris_diff(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    const char *rest;
    e->op = doris_unit(e->name, &rest);
    plan__type_bigint(&e->t, 20, true);
    e->vk = PV_INT;
    e->eval = ev_doris_diff;
    return DB_OK;
}

#define DATE_TRUNC_UNITS "year|quarter|month|week|day|hour|minute|second"

/* The DATE_TRUNC unit named by s[0..len) (case-insensitive), or 0. */
static int
trunc_unit(const char *s, size_t len)
{
    static const struct {
        const char *word;
        int unit;
    } units[] = {{"year", PLAN_UNIT_YEAR},     {"quarter", PLAN_UNIT_QUARTER},
                 {"month", PLAN_UNIT_MONTH},   {"week", PLAN_UNIT_WEEK},
                 {"day", PLAN_UNIT_DAY},       {"hour", PLAN_UNIT_HOUR},
                 {"minute", PLAN_UNIT_MINUTE}, {"second", PLAN_UNIT_SECOND}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (str_ieq(s, len, units[i].word, strlen(units[i].word))) {
            return units[i].unit;
        }
    }
    return 0;
}

/* Start of the unit that holds us (wall-clock microseconds); weeks start on Monday. */
static int64_t
trunc_to(int unit, int64_t us)
{
    dtm t;
    split_us(us, &t);
    int64_t day = t.days * US_PER_DAY;
    switch (unit) {
    case PLAN_UNIT_SECOND:
        return us - t.us;
    case PLAN_UNIT_MINUTE:
        return day + ((int64_t)t.h * 3600 + t.mi * 60) * US_PER_SEC;
    case PLAN_UNIT_HOUR:
        return day + (int64_t)t.h * 3600 * US_PER_SEC;
    case PLAN_UNIT_DAY:
        return day;
    case PLAN_UNIT_WEEK: /* 1970-01-01 was a Thursday: Monday-based weekday 3 */
        return (t.days - (((t.days + 3) % 7 + 7) % 7)) * US_PER_DAY;
    case PLAN_UNIT_MONTH:
        return plan__days_from_civil(t.y, t.mo, 1) * US_PER_DAY;
    case PLAN_UNIT_QUARTER:
        return plan__days_from_civil(t.y, (t.mo - 1) / 3 * 3 + 1, 1) * US_PER_DAY;
    default: /* PLAN_UNIT_YEAR */
        return plan__days_from_civil(t.y, 1, 1) * US_PER_DAY;
    }
}

static int
ev_date_trunc(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    bool is_null;
    *out = plan__v_null();
    if (e->op == 0) { /* the unit is the NULL literal */
        return DB_OK;
    }
    if (arg_dt(cx, e, (uint32_t)e->slot, &v, &is_null, err) != DB_OK) {
        return DB_ERR;
    }
    if (is_null) {
        return DB_OK;
    }
    int64_t r = trunc_to(e->op, v.us);
    if (r < plan__days_from_civil(0, 1, 1) * US_PER_DAY) {
        return DB_OK; /* the Monday of year 0's first week lies before year 0 */
    }
    out->kind = e->vk;
    out->us = e->vk == PV_DATE ? floor_div(r, US_PER_DAY) * US_PER_DAY : r;
    out->scale = e->t.scale;
    return DB_OK;
}

/* DATE_TRUNC(datetime, 'unit') (Doris; the unit-first form DATE_TRUNC('unit', datetime) of
 * later Doris releases is accepted too): the unit must be a string literal naming one of
 * DATE_TRUNC_UNITS (1105 otherwise, Doris's text). The result keeps the argument's type: DATE
 * for DATE, DATETIME(fsp) for DATETIME (fraction zeroed), DATETIME for strings. e->op is the
 * unit (0: NULL unit, always NULL), e->slot the index of the datetime argument. */
int
plan__ty_date_trunc(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    const plan_expr *u = e->args[1];
    e->slot = 0;
    bool lit0 = e->args[0]->src && e->args[0]->src->kind == PA_STRING;
    bool lit1 = u->src && u->src->kind == PA_STRING;
    if (lit0 && !(lit1 && trunc_unit(u->lit.str.s, u->lit.str.len)) &&
        trunc_unit(e->args[0]->lit.str.s, e->args[0]->lit.str.len)) {
        e->slot = 1; /* DATE_TRUNC('unit', datetime) */
        u = e->args[0];
        lit1 = true;
    }
    if (u->vk == PV_NULL) {
        e->op = 0;
    } else if (!lit1) {
        return db_error_set(err, ER_DORIS,
                            "the time unit parameter of date_trunc function must be a string "
                            "constant");
    } else if ((e->op = trunc_unit(u->lit.str.s, u->lit.str.len)) == 0) {
        return db_error_set(
                err, ER_DORIS,
                "date_trunc function time unit param only support argument is " DATE_TRUNC_UNITS);
    }
    const plan_expr *d = e->args[e->slot];
    bool has_time;
    int fsp = 0;
    if (d->vk == PV_DATE) {
        plan__type_datetime(&e->t, PLAN_TYPE_DATE, 0, true);
        e->vk = PV_DATE;
    } else {
        if (d->vk == PV_DATETIME) {
            fsp = d->t.scale;
        } else if (d->vk == PV_STRING) {
            const_datetime(d, &has_time, &fsp);
        }
        plan__type_datetime(&e->t, PLAN_TYPE_DATETIME, fsp, true);
        e->vk = PV_DATETIME;
    }
    e->eval = ev_date_trunc;
    return DB_OK;
}

/* ---- conversions ---- */

enum { DC_DATE, DC_TIME, DC_LAST_DAY, DC_FROM_DAYS, DC_MAKEDATE, DC_FROM_UNIXTIME };

static int
ev_date_conv(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v;
    bool is_null;
    *out = plan__v_null();
    switch (e->op) {
    case DC_DATE:
    case DC_LAST_DAY: {
        if (arg_dt(cx, e, 0, &v, &is_null, err) != DB_OK) {
            return DB_ERR;
        }
        if (is_null) {
            return DB_OK;
        }
        dtm t;
        split_us(v.us, &t);
        out->kind = PV_DATE;
        out->us = (e->op == DC_DATE ? t.days : plan__days_from_civil(t.y, t.mo, mdays(t.y, t.mo))) *
                  US_PER_DAY;
        return DB_OK;
    }
    case DC_TIME: {
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
        int64_t us;
        bool has_time;
        if (v.kind == PV_DATE || v.kind == PV_DATETIME) {
            us = v.us - floor_div(v.us, US_PER_DAY) * US_PER_DAY;
        } else if (v.kind == PV_TIME) {
            us = v.us;
        } else {
            const char *s;
            size_t len;
            plan__v_string(cx, &v, &s, &len);
            bool dateish = len > 1 && memchr(s + 1, '-', len - 1);
            if (dateish && plan__parse_datetime(s, len, &us, &has_time)) {
                us -= floor_div(us, US_PER_DAY) * US_PER_DAY;
            } else if (!plan__parse_time(s, len, &us)) {
                plan__warn(cx->s, 1292, "Truncated incorrect time value: '%.*s'", (int)len, s);
                return DB_OK;
            }
        }
        out->kind = PV_TIME;
        out->us = us;
        out->scale = e->t.scale;
        if (e->args[0]->vk == PV_STRING) { /* MySQL shows the fraction only when present */
            out->scale = us % US_PER_SEC != 0 ? 6 : 0;
        }
        return DB_OK;
    }
    case DC_FROM_DAYS: {
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
        int64_t n = plan__v_to_int(&v, NULL);
        if (n < 366 || n > 3652424) { /* MySQL: '0000-00-00' below year 1; not representable */
            return DB_OK;
        }
        out->kind = PV_DATE;
        out->us = (n - DAYNR_EPOCH) * US_PER_DAY;
        return DB_OK;
    }
    case DC_MAKEDATE: {
        plan_value d;
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK ||
            plan__eval(cx, e->args[1], &d, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL || d.kind == PV_NULL) {
            return DB_OK;
        }
        int64_t y = plan__v_to_int(&v, NULL), doy = plan__v_to_int(&d, NULL);
        if (doy <= 0 || doy > 10000 * 366 || y < 0 || y > 9999) {
            return DB_OK;
        }
        if (y < 70) {
            y += 2000;
        } else if (y < 100) {
            y += 1900;
        }
        int64_t days = plan__days_from_civil(y, 1, 1) + doy - 1;
        if (days >= plan__days_from_civil(10000, 1, 1)) {
            return DB_OK;
        }
        out->kind = PV_DATE;
        out->us = days * US_PER_DAY;
        return DB_OK;
    }
    default: { /* FROM_UNIXTIME(ts): in the session time zone */
        if (plan__eval(cx, e->args[0], &v, err) != DB_OK) {
            return DB_ERR;
        }
        if (v.kind == PV_NULL) {
            return DB_OK;
        }
        __int128 x;
        if (!plan__v_to_dec(&v, 6, &x, NULL) || x < 0 ||
            x > (__int128)32536771199LL * US_PER_SEC + 999999) {
            return DB_OK;
        }
        int64_t secs = (int64_t)(x / US_PER_SEC), frac = (int64_t)(x % US_PER_SEC);
        out->kind = PV_DATETIME;
        out->us = (secs + plan__tz_offset(cx->s, secs)) * US_PER_SEC + frac;
        out->scale = e->t.scale;
        return DB_OK;
    }
    }
}

int
plan__ty_date_conv(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    static const char *const names[] = {"date",      "time",     "last_day",
                                        "from_days", "makedate", "from_unixtime"};
    for (int i = 0; i < 6; i++) {
        if (strcmp(e->name, names[i]) == 0) {
            e->op = i;
        }
    }
    if (strcmp(e->name, "to_date") == 0) { /* Doris: TO_DATE(datetime) = DATE(datetime) */
        e->op = DC_DATE;
    }
    const plan_expr *x = e->args[0];
    if (e->op == DC_TIME) {
        int fsp = x->vk == PV_DATETIME || x->vk == PV_TIME ? x->t.scale : 0;
        if (x->vk == PV_STRING) {
            fsp = 6;
        }
        plan__type_datetime(&e->t, PLAN_TYPE_TIME, fsp > 6 ? 6 : fsp, true);
        e->vk = PV_TIME;
    } else if (e->op == DC_FROM_UNIXTIME) {
        int fsp = x->vk == PV_DECIMAL ? (x->t.scale > 6 ? 6 : x->t.scale)
                                      : (x->vk == PV_INT || x->vk == PV_NULL ? 0 : 6);
        plan__type_datetime(&e->t, PLAN_TYPE_DATETIME, fsp, true);
        e->vk = PV_DATETIME;
    } else {
        plan__type_datetime(&e->t, PLAN_TYPE_DATE, 0, true);
        e->vk = PV_DATE;
    }
    e->eval = ev_date_conv;
    return DB_OK;
}

int
plan__ty_from_unixtime(plan_ectx *cx, plan_expr *e, db_error *err)
{
    return e->nargs == 2 ? plan__ty_date_format(cx, e, err) : plan__ty_date_conv(cx, e, err);
}

/* ---- STR_TO_DATE ---- */

static bool
match_name(const char *s, size_t len, size_t *i, const char *const *names, int n, bool abbr,
           unsigned *idx)
{
    for (int k = 0; k < n; k++) {
        size_t nl = abbr ? 3 : strlen(names[k]);
        if (*i + nl <= len && str_ieq(s + *i, nl, names[k], nl)) {
            *i += nl;
            *idx = (unsigned)k;
            return true;
        }
    }
    return false;
}

static bool
read_num(const char *s, size_t len, size_t *i, int maxd, int64_t *v)
{
    int nd = 0;
    *v = 0;
    while (*i < len && nd < maxd && s[*i] >= '0' && s[*i] <= '9') {
        *v = *v * 10 + (s[*i] - '0');
        (*i)++;
        nd++;
    }
    return nd > 0;
}

/* Parse s by MySQL's format f; false on a mismatch or an invalid date. */
static bool
parse_by_format(const char *s, size_t len, const char *f, size_t fl, int64_t *us)
{
    int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, frac = 0, doy = -1, v;
    int pm = -1;
    size_t i = 0;
    for (size_t k = 0; k < fl; k++) {
        if (f[k] == ' ' || f[k] == '\t') {
            while (i < len && (s[i] == ' ' || s[i] == '\t')) {
                i++;
            }
            continue;
        }
        if (f[k] != '%' || k + 1 == fl) {
            while (i < len && (s[i] == ' ' || s[i] == '\t') && f[k] != s[i]) {
                i++;
            }
            if (i >= len || s[i] != f[k]) {
                return false;
            }
            i++;
            continue;
        }
        char c = f[++k];
        unsigned idx;
        switch (c) {
        case 'Y':
            if (!read_num(s, len, &i, 4, &y)) {
                return false;
            }
            break;
        case 'y':
            if (!read_num(s, len, &i, 2, &y)) {
                return false;
            }
            y += y < 70 ? 2000 : 1900;
            break;
        case 'm':
        case 'c':
            if (!read_num(s, len, &i, 2, &mo)) {
                return false;
            }
            break;
        case 'd':
        case 'e':
            if (!read_num(s, len, &i, 2, &d)) {
                return false;
            }
            break;
        case 'D':
            if (!read_num(s, len, &i, 2, &d) || i + 2 > len) {
                return false;
            }
            i += 2;
            break;
        case 'H':
        case 'k':
        case 'h':
        case 'I':
        case 'l':
            if (!read_num(s, len, &i, 2, &h)) {
                return false;
            }
            break;
        case 'i':
            if (!read_num(s, len, &i, 2, &mi)) {
                return false;
            }
            break;
        case 's':
        case 'S':
            if (!read_num(s, len, &i, 2, &sec)) {
                return false;
            }
            break;
        case 'f': {
            size_t st = i;
            if (!read_num(s, len, &i, 6, &frac)) {
                return false;
            }
            for (size_t n = i - st; n < 6; n++) {
                frac *= 10;
            }
            break;
        }
        case 'j':
            if (!read_num(s, len, &i, 3, &doy)) {
                return false;
            }
            break;
        case 'p':
            if (i + 2 > len) {
                return false;
            }
            if (str_ieq(s + i, 2, "AM", 2)) {
                pm = 0;
            } else if (str_ieq(s + i, 2, "PM", 2)) {
                pm = 1;
            } else {
                return false;
            }
            i += 2;
            break;
        case 'M':
        case 'b':
            if (!match_name(s, len, &i, month_names, 12, c == 'b', &idx)) {
                return false;
            }
            mo = idx + 1;
            break;
        case 'W':
        case 'a':
            if (!match_name(s, len, &i, day_names, 7, c == 'a', &idx)) {
                return false;
            }
            break;
        case 'T':
        case 'r':
            if (!read_num(s, len, &i, 2, &h) || i >= len || s[i++] != ':' ||
                !read_num(s, len, &i, 2, &mi) || i >= len || s[i++] != ':' ||
                !read_num(s, len, &i, 2, &sec)) {
                return false;
            }
            if (c == 'r') {
                while (i < len && s[i] == ' ') {
                    i++;
                }
                if (i + 2 <= len && str_ieq(s + i, 2, "PM", 2)) {
                    pm = 1;
                    i += 2;
                } else if (i + 2 <= len && str_ieq(s + i, 2, "AM", 2)) {
                    pm = 0;
                    i += 2;
                }
            }
            break;
        default: /* %% and others: the literal character */
            if (i >= len || s[i] != c) {
                return false;
            }
            i++;
            break;
        }
        (void)v;
    }
    if (pm >= 0) {
        if (h < 1 || h > 12) {
            return false;
        }
        h = h % 12 + (pm ? 12 : 0);
    }
    if (doy >= 0) {
        if (doy < 1 || doy > (leap(y) ? 366 : 365)) {
            return false;
        }
        int64_t days = plan__days_from_civil(y, 1, 1) + doy - 1;
        *us = days * US_PER_DAY + ((h * 60 + mi) * 60 + sec) * US_PER_SEC + frac;
        return h < 24 && mi < 60 && sec < 60;
    }
    if (y > 9999 || mo > 12 || h > 23 || mi > 59 || sec > 59) {
        return false;
    }
    /* zero parts (NO_ZERO_DATE is on in MySQL 8's default sql_mode): NULL */
    if (mo == 0 || d == 0 || d > (int64_t)mdays(y, (unsigned)mo)) {
        if (!(y == 0 && mo == 0 && d == 0)) {
            return false;
        }
    }
    if (mo == 0) {
        *us = ((h * 60 + mi) * 60 + sec) * US_PER_SEC + frac; /* time only */
        return true;
    }
    *us = plan__days_from_civil(y, (unsigned)mo, (unsigned)d) * US_PER_DAY +
          ((h * 60 + mi) * 60 + sec) * US_PER_SEC + frac;
    return true;
}

static int
ev_str_to_date(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value a, b;
    *out = plan__v_null();
    if (plan__eval(cx, e->args[0], &a, err) != DB_OK ||
        plan__eval(cx, e->args[1], &b, err) != DB_OK) {
        return DB_ERR;
    }
    const char *s, *f;
    size_t len, fl;
    if (!plan__v_string(cx, &a, &s, &len) || !plan__v_string(cx, &b, &f, &fl)) {
        return DB_OK;
    }
    int64_t us;
    if (!parse_by_format(s, len, f, fl, &us) ||
        (e->vk == PV_DATE && us % US_PER_DAY != 0 && false)) {
        const char *what = e->vk == PV_DATE ? "date" : (e->vk == PV_TIME ? "time" : "datetime");
        plan__warn(cx->s, 1411, "Incorrect %s value: '%.*s' for function str_to_date", what,
                   (int)len, s);
        return DB_OK;
    }
    out->kind = e->vk;
    out->us = e->vk == PV_DATE ? floor_div(us, US_PER_DAY) * US_PER_DAY : us;
    out->scale = e->t.scale;
    return DB_OK;
}

/* Result type from a constant format (MySQL): date parts only → DATE, time parts only →
 * TIME, both → DATETIME; %f adds 6 fractional digits. Other formats: DATETIME(6). */
int
plan__ty_str_to_date(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    const plan_ast *f = e->args[1]->src;
    plan_type type = PLAN_TYPE_DATETIME;
    int fsp = 6;
    if (f && f->kind == PA_STRING) {
        bool date = false, time = false, frac = false;
        for (size_t i = 0; i + 1 < f->len; i++) {
            if (f->str[i] != '%') {
                continue;
            }
            char c = f->str[++i];
            if (strchr("YymcdeDjMbWaUuVvXxw", c)) {
                date = true;
            } else if (strchr("HkhIlisSTrp", c)) {
                time = true;
            } else if (c == 'f') {
                time = frac = true;
            }
        }
        fsp = frac ? 6 : 0;
        type = date && time ? PLAN_TYPE_DATETIME : (time ? PLAN_TYPE_TIME : PLAN_TYPE_DATE);
    }
    plan__type_datetime(&e->t, type, type == PLAN_TYPE_DATE ? 0 : fsp, true);
    e->vk = type == PLAN_TYPE_DATE ? PV_DATE : (type == PLAN_TYPE_TIME ? PV_TIME : PV_DATETIME);
    e->eval = ev_str_to_date;
    return DB_OK;
}

/* ---- CONVERT_TZ ---- */

/* '+hh:mm' / '-hh:mm' offsets (MySQL's range -13:59..+14:00); named zones need the zone
 * tables, which MySQL also answers with NULL when they are not loaded. */
static bool
tz_offset_of(const char *s, size_t len, int64_t t, bool is_utc, int64_t *secs)
{
    if (str_ieq(s, len, "SYSTEM", 6)) { /* the server's zone at t (UTC, or wall clock) */
        time_t tt = (time_t)t;
        struct tm tm;
        if (!is_utc) {
            gmtime_r(&tt, &tm);
            tm.tm_isdst = -1;
            tt = mktime(&tm);
        }
        localtime_r(&tt, &tm);
        *secs = tm.tm_gmtoff;
        return true;
    }
    if (len < 4 || len > 6 || (s[0] != '+' && s[0] != '-')) {
        return false;
    }
    size_t i = 1;
    int64_t h, m;
    if (!read_num(s, len, &i, 2, &h) || i >= len || s[i++] != ':' || !read_num(s, len, &i, 2, &m) ||
        i != len || m > 59) {
        return false;
    }
    int64_t off = h * 3600 + m * 60;
    if (s[0] == '-') {
        off = -off;
    }
    if (off > 14 * 3600 || off < -(13 * 3600 + 59 * 60)) {
        return false;
    }
    *secs = off;
    return true;
}

static int
ev_convert_tz(plan_ectx *cx, const plan_expr *e, plan_value *out, db_error *err)
{
    plan_value v, a, b;
    bool is_null;
    *out = plan__v_null();
    if (arg_dt(cx, e, 0, &v, &is_null, err) != DB_OK ||
        plan__eval(cx, e->args[1], &a, err) != DB_OK ||
        plan__eval(cx, e->args[2], &b, err) != DB_OK) {
        return DB_ERR;
    }
    const char *fs, *ts;
    size_t fl, tl;
    int64_t fo, to;
    if (is_null || !plan__v_string(cx, &a, &fs, &fl) || !plan__v_string(cx, &b, &ts, &tl) ||
        !tz_offset_of(fs, fl, floor_div(v.us, US_PER_SEC), false, &fo)) {
        return DB_OK;
    }
    if (!tz_offset_of(ts, tl, floor_div(v.us, US_PER_SEC) - fo, true, &to)) {
        return DB_OK;
    }
    out->kind = PV_DATETIME;
    out->us = v.us + (to - fo) * US_PER_SEC;
    out->scale = e->t.scale;
    if (e->args[0]->vk == PV_STRING) {
        out->scale = out->us % US_PER_SEC != 0 ? 6 : 0;
    }
    return DB_OK;
}

int
plan__ty_convert_tz(plan_ectx *cx, plan_expr *e, db_error *err)
{
    (void)cx;
    (void)err;
    const plan_expr *x = e->args[0];
    plan__type_datetime(&e->t, PLAN_TYPE_DATETIME,
                        x->vk == PV_DATETIME ? x->t.scale : (x->vk == PV_STRING ? 6 : 0), true);
    e->vk = PV_DATETIME;
    e->eval = ev_convert_tz;
    return DB_OK;
}
