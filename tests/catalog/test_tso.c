/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for catalog/cat_tso.c: strict monotonicity over 1M allocations with a clock that
 * steps back 10 s, logical overflow, the high-water mark persisted ahead of use, restarts (with
 * and without a checkpoint) strictly above every earlier TSO, concurrency, format and parse. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_testutil.h"
#include "catalog/cat_int.h"

TestSuite(cat_tso, .init = tu_setup, .fini = tu_teardown);

#define T0 UINT64_C(1767225600000) /* 2026-01-01 00:00:00 UTC in ms */

/* A clock the test drives: returns now; every `tick_every` calls it advances by one ms. */
typedef struct fake_clock {
    uint64_t now;
    uint64_t calls;
    uint64_t tick_every; /* 0 = frozen */
} fake_clock;

static uint64_t fake_now(void *ctx);
static cat_editlog *open_with_tso(fake_clock *clk, cat_tso **tso_out);
static uint64_t next_ok(cat_tso *tso);

static uint64_t
fake_now(void *ctx)
{
    fake_clock *c = ctx;
    c->calls++;
    if (c->tick_every != 0 && c->calls % c->tick_every == 0) {
        c->now++;
    }
    return c->now;
}

/* Open the log in tu_dir with a TSO allocator on clk and replay. */
static cat_editlog *
open_with_tso(fake_clock *clk, cat_tso **tso_out)
{
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = cat_editlog_open(tu_dir, NULL, &err);
    cr_assert_not_null(el, "%s", err.msg);
    *tso_out = cat_tso_new(el, fake_now, clk, &err);
    cr_assert_not_null(*tso_out, "%s", err.msg);
    cr_assert_eq(cat_editlog_replay(el, &err), DB_OK, "%s", err.msg);
    return el;
}

static uint64_t
next_ok(cat_tso *tso)
{
    db_error err;
    db_error_clear(&err);
    uint64_t t = 0;
    cr_assert_eq(cat_tso_next(tso, &t, &err), DB_OK, "%s", err.msg);
    return t;
}

Test(cat_tso, split_and_make)
{
    uint64_t t = cat_tso_make(T0, 12345);
    cr_expect_eq(t, (T0 << 18) | 12345);
    cr_expect_eq(cat_tso_physical(t), T0);
    cr_expect_eq(cat_tso_logical(t), 12345);
    cr_expect_eq(cat_tso_logical(cat_tso_make(T0, CAT_TSO_LOGICAL_MAX)), 262143);
}

/* 1M allocations; the clock moves forward 1 ms per 1000 calls and at the halfway point steps
 * back 10 s. Every TSO is strictly greater than the one before, and never below the clock's
 * high point. The high-water mark is written rarely (once per 3 s of physical time). */
Test(cat_tso, monotonic_over_1m_with_clock_step_back, .timeout = 60)
{
    fake_clock clk = {.now = T0, .tick_every = 1000};
    cat_tso *tso;
    cat_editlog *el = open_with_tso(&clk, &tso);
    uint64_t prev = 0, high_phys = 0;
    for (int i = 0; i < 1000000; i++) {
        if (i == 500000) {
            clk.now -= 10000;
        }
        uint64_t t = next_ok(tso);
        cr_assert_gt(t, prev, "allocation %d", i);
        cr_assert_geq(cat_tso_physical(t), high_phys);
        cr_assert_leq(cat_tso_physical(t), cat_tso_hwm(tso), "I2: hwm persisted ahead");
        high_phys = cat_tso_physical(t) > high_phys ? cat_tso_physical(t) : high_phys;
        prev = t;
    }
    cr_expect_eq(cat_tso_current(tso), prev);
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_expect_leq(s.appends, 3, "hwm records: %llu", (unsigned long long)s.appends);
    cr_expect_geq(s.appends, 1);
    cat_editlog_close(el);
    cat_tso_free(tso);
}

/* A frozen clock: after 2^18 TSOs in one millisecond the physical part advances by 1 ms. */
Test(cat_tso, logical_overflow_advances_physical)
{
    fake_clock clk = {.now = T0};
    cat_tso *tso;
    cat_editlog *el = open_with_tso(&clk, &tso);
    for (uint32_t i = 0; i <= CAT_TSO_LOGICAL_MAX; i++) {
        cr_assert_eq(next_ok(tso), cat_tso_make(T0, i));
    }
    cr_expect_eq(next_ok(tso), cat_tso_make(T0 + 1, 0));
    cr_expect_eq(next_ok(tso), cat_tso_make(T0 + 1, 1));
    /* When the clock catches up the logical part restarts at 0. */
    clk.now = T0 + 5;
    cr_expect_eq(next_ok(tso), cat_tso_make(T0 + 5, 0));
    cat_editlog_close(el);
    cat_tso_free(tso);
}

/* A restart with the clock stepped back a minute still allocates above everything before,
 * and before its first allocation cat_tso_current bounds all earlier TSOs. */
Test(cat_tso, restart_is_strictly_above_previous_values)
{
    fake_clock clk = {.now = T0, .tick_every = 3};
    cat_tso *tso;
    cat_editlog *el = open_with_tso(&clk, &tso);
    uint64_t last = 0;
    for (int i = 0; i < 20000; i++) {
        last = next_ok(tso);
    }
    uint64_t hwm = cat_tso_hwm(tso);
    cr_assert_geq(hwm, cat_tso_physical(last) + 1);
    cat_editlog_close(el);
    cat_tso_free(tso);

    for (int round = 0; round < 3; round++) {
        clk.now = T0 - 60000;
        el = open_with_tso(&clk, &tso);
        cr_expect_eq(cat_tso_hwm(tso), hwm, "round %d", round);
        uint64_t cur = cat_tso_current(tso);
        cr_expect_geq(cur, last);
        uint64_t t = next_ok(tso);
        cr_expect_gt(t, last, "round %d", round);
        cr_expect_gt(t, cur);
        cr_expect_eq(cat_tso_physical(t), hwm + 1);
        last = t;
        hwm = cat_tso_hwm(tso);
        cat_editlog_close(el);
        cat_tso_free(tso);
    }
}

/* After a checkpoint the HWM records' segments are gone: the image section carries the mark. */
Test(cat_tso, checkpoint_carries_the_high_water_mark)
{
    fake_clock clk = {.now = T0};
    cat_tso *tso;
    cat_editlog *el = open_with_tso(&clk, &tso);
    uint64_t last = next_ok(tso);
    uint64_t hwm = cat_tso_hwm(tso);
    cr_expect_eq(hwm, T0 + CAT_TSO_HWM_WINDOW_MS);
    db_error err;
    db_error_clear(&err);
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_assert_eq(s.records_since_image, 0);
    cat_editlog_close(el);
    cat_tso_free(tso);

    clk.now = T0 - 10000;
    el = open_with_tso(&clk, &tso);
    cr_expect_eq(cat_tso_hwm(tso), hwm);
    uint64_t t = next_ok(tso);
    cr_expect_gt(t, last);
    cr_expect_eq(cat_tso_physical(t), hwm + 1);
    cat_editlog_close(el);
    cat_tso_free(tso);
}

/* If the high-water mark cannot be made durable, no TSO is handed out. */
Test(cat_tso, log_failure_hands_out_nothing)
{
    fake_clock clk = {.now = T0};
    cat_tso *tso;
    cat_editlog *el = open_with_tso(&clk, &tso);
    uint64_t first = next_ok(tso);
    clk.now = T0 + 10 * CAT_TSO_HWM_WINDOW_MS; /* beyond the mark: needs a new record */
    cat__editlog_inject_write_error(el, ENOSPC);
    db_error err;
    db_error_clear(&err);
    uint64_t t = 0;
    cr_expect_eq(cat_tso_next(tso, &t, &err), DB_ERR);
    cr_expect_eq(t, 0);
    cr_expect_not_null(strstr(err.msg, "Edit log is unusable"), "%s", err.msg);
    cr_expect_eq(cat_tso_current(tso), first);
    cat_editlog_close(el);
    cat_tso_free(tso);
}

Test(cat_tso, clock_out_of_range_is_an_error)
{
    fake_clock clk = {.now = CAT_TSO_PHYSICAL_MAX + 1};
    cat_tso *tso;
    cat_editlog *el = open_with_tso(&clk, &tso);
    db_error err;
    db_error_clear(&err);
    uint64_t t = 0;
    cr_expect_eq(cat_tso_next(tso, &t, &err), DB_ERR);
    cr_expect_not_null(strstr(err.msg, "out of range"), "%s", err.msg);
    cat_editlog_close(el);
    cat_tso_free(tso);
}

typedef struct conc_arg {
    cat_tso *tso;
    uint64_t *out;
    int n;
    bool failed;
} conc_arg;

static void *
conc_thread(void *arg)
{
    conc_arg *a = arg;
    for (int i = 0; i < a->n; i++) {
        db_error err;
        db_error_clear(&err);
        if (cat_tso_next(a->tso, &a->out[i], &err) != DB_OK) {
            a->failed = true;
            return NULL;
        }
    }
    return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* 4 threads on the real clock: all TSOs distinct, each thread's increasing. */
Test(cat_tso, concurrent_allocations_are_unique, .timeout = 60)
{
    enum { NT = 4, PER = 50000 };
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = cat_editlog_open(tu_dir, NULL, &err);
    cr_assert_not_null(el);
    cat_tso *tso = cat_tso_new(el, cat_clock_realtime_ms, NULL, &err);
    cr_assert_eq(cat_editlog_replay(el, &err), DB_OK);
    uint64_t *all = calloc(NT * PER, sizeof(uint64_t));
    pthread_t th[NT];
    conc_arg args[NT];
    for (int t = 0; t < NT; t++) {
        args[t] = (conc_arg){tso, all + t * PER, PER, false};
        cr_assert_eq(pthread_create(&th[t], NULL, conc_thread, &args[t]), 0);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        cr_assert_not(args[t].failed);
        for (int i = 1; i < PER; i++) {
            cr_assert_gt(args[t].out[i], args[t].out[i - 1]);
        }
    }
    qsort(all, NT * PER, sizeof(uint64_t), cmp_u64);
    for (int i = 1; i < NT * PER; i++) {
        cr_assert_neq(all[i], all[i - 1], "duplicate TSO");
    }
    cr_expect_eq(cat_tso_current(tso), all[NT * PER - 1]);
    free(all);
    cat_editlog_close(el);
    cat_tso_free(tso);
}

Test(cat_tso, format_and_parse)
{
    char b[CAT_TSO_FMT_SIZE];
    uint64_t t = cat_tso_make(T0 + 123, 45);
    cr_expect_str_eq(cat_tso_format(t, b), "2026-01-01 00:00:00.123/45");
    uint64_t back = 0;
    cr_expect(cat_tso_parse(b, &back));
    cr_expect_eq(back, t);
    cr_expect(cat_tso_parse("463264725811527725", &back));
    cr_expect_eq(back, 463264725811527725ull);
    uint64_t big = cat_tso_make(CAT_TSO_PHYSICAL_MAX - 5, CAT_TSO_LOGICAL_MAX);
    cr_expect(cat_tso_parse(cat_tso_format(big, b), &back));
    cr_expect_eq(back, big);
    cr_expect(cat_tso_parse("18446744073709551615", &back));
    const char *bad[] = {"",
                         "18446744073709551616",
                         "-1",
                         "12a",
                         "2026-02-30 00:00:00.000/0",
                         "2026-01-01 00:00:00.000/262144",
                         "2026-01-01 00:00:00.000/",
                         "2026-01-01 00:00:00.000/1x",
                         "2026-01-01T00:00:00.000/1",
                         "2026-01-01 00:00:00.00/1",
                         " 2026-01-01 00:00:00.000/1",
                         "1969-12-31 23:59:59.999/0",
                         "2026-01-01 24:00:00.000/0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_not(cat_tso_parse(bad[i], &back), "accepted '%s'", bad[i]);
    }
}
