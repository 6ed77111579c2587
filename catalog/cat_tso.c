/* SPDX-License-Identifier: Apache-2.0
 * cat_tso: the TSO allocator. tso = physical_ms << 18 | logical, strictly increasing across
 * clock steps backwards and across restarts: a high-water mark of the physical part is made
 * durable in the edit log (CAT_REC_TSO_HWM, and the CAT_IMG_TSO image section) before any
 * physical value above it is handed out. See README.md §Invariants (I1, I2) and §Formats. */
#include "catalog/cat_int.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/mem.h"

struct cat_tso {
    cat_editlog *el;     /* borrowed; outlives the allocator's use */
    cat_clock_fn now_ms; /* injected clock */
    void *clock_ctx;

    /* mu serializes allocation, including the durable append of a new high-water mark, and
     * protects last_phys, last_logical and has_last. */
    pthread_mutex_t mu;
    uint64_t last_phys;    /* physical part of the last TSO handed out */
    uint32_t last_logical; /* its logical part */
    bool has_last;         /* false until the first cat_tso_next after start */

    /* Lock-free copies read by cat_tso_current and the image writer (which runs inside a
     * checkpoint and must not wait for mu, whose holder may be waiting for that checkpoint). */
    _Atomic uint64_t hwm;      /* persisted high-water mark, physical ms (I2) */
    _Atomic uint64_t last_tso; /* last TSO handed out; 0 = none since start */
};

static int tso_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                      db_error *err);
static int tso_image_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int tso_image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static void hwm_raise(cat_tso *tso, uint64_t v);

uint64_t
cat_clock_realtime_ms(void *ctx)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Replay and image load only ever raise the mark: the largest value seen wins. */
static void
hwm_raise(cat_tso *tso, uint64_t v)
{
    if (v > atomic_load(&tso->hwm)) {
        atomic_store(&tso->hwm, v);
    }
}

static int
tso_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len, db_error *err)
{
    if (len != 8) {
        return db_error_set(err, ER_CAT_BAD_RECORD, (unsigned long long)seq, "TSO high-water mark",
                            "payload is not 8 bytes");
    }
    hwm_raise(ctx, cat__get_u64(payload));
    return DB_OK;
}

static int
tso_image_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    cat_tso *tso = ctx;
    buf_put_u64le(out, atomic_load(&tso->hwm));
    return DB_OK;
}

static int
tso_image_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    if (len != 8) {
        return db_error_set(err, ER_CAT_BAD_RECORD, (unsigned long long)seq, "TSO image section",
                            "section is not 8 bytes");
    }
    hwm_raise(ctx, cat__get_u64(data));
    return DB_OK;
}

cat_tso *
cat_tso_new(cat_editlog *el, cat_clock_fn now_ms, void *ctx, db_error *err)
{
    cat_tso *tso = mem_calloc(1, sizeof *tso);
    tso->el = el;
    tso->now_ms = now_ms != NULL ? now_ms : cat_clock_realtime_ms;
    tso->clock_ctx = ctx;
    pthread_mutex_init(&tso->mu, NULL);
    atomic_init(&tso->hwm, 0);
    atomic_init(&tso->last_tso, 0);
    cat_editlog_register(el, CAT_REC_TSO_HWM, "tso_hwm", tso_replay, tso);
    cat_editlog_register_section(el, CAT_IMG_TSO, "tso", tso_image_write, tso_image_load, tso);
    return tso;
}

void
cat_tso_free(cat_tso *tso)
{
    if (tso == NULL) {
        return;
    }
    pthread_mutex_destroy(&tso->mu);
    mem_free(tso);
}

int
cat_tso_next(cat_tso *tso, uint64_t *out, db_error *err)
{
    pthread_mutex_lock(&tso->mu);
    int rc = DB_OK;
    uint64_t hwm = atomic_load(&tso->hwm);
    if (!tso->has_last) {
        /* Every TSO of an earlier run has physical <= hwm, so act as if (hwm, MAX) was the
         * last one: the next is above it whatever the clock says. */
        tso->last_phys = hwm;
        tso->last_logical = CAT_TSO_LOGICAL_MAX;
        tso->has_last = true;
    }
    uint64_t now = tso->now_ms(tso->clock_ctx);
    uint64_t phys;
    uint32_t logical;
    if (now > tso->last_phys) {
        phys = now;
        logical = 0;
    } else if (tso->last_logical < CAT_TSO_LOGICAL_MAX) {
        /* Same millisecond, or the clock stepped back: keep the physical part. */
        phys = tso->last_phys;
        logical = tso->last_logical + 1;
    } else {
        /* 2^18 TSOs in one millisecond: borrow the next one instead of waiting for it. */
        phys = tso->last_phys + 1;
        logical = 0;
    }
    if (phys > CAT_TSO_PHYSICAL_MAX) {
        rc = db_error_set(err, ER_CAT_TSO_CLOCK, (unsigned long long)phys);
        goto out;
    }
    if (phys > hwm) {
        /* I2: the mark is durable before any TSO above the old one leaves this function. */
        uint64_t next_hwm = phys + CAT_TSO_HWM_WINDOW_MS;
        if (next_hwm > CAT_TSO_PHYSICAL_MAX) {
            next_hwm = CAT_TSO_PHYSICAL_MAX;
        }
        uint8_t p[8];
        cat__set_u64(p, next_hwm);
        if (cat_editlog_append(tso->el, CAT_REC_TSO_HWM, p, sizeof p, NULL, err) != DB_OK) {
            rc = DB_ERR;
            goto out;
        }
        atomic_store(&tso->hwm, next_hwm);
    }
    uint64_t t = cat_tso_make(phys, logical);
    DB_ASSERT(t > atomic_load(&tso->last_tso)); /* I1 */
    tso->last_phys = phys;
    tso->last_logical = logical;
    atomic_store(&tso->last_tso, t);
    *out = t;
out:
    pthread_mutex_unlock(&tso->mu);
    return rc;
}

uint64_t
cat_tso_current(cat_tso *tso)
{
    uint64_t t = atomic_load(&tso->last_tso);
    if (t != 0) {
        return t;
    }
    uint64_t hwm = atomic_load(&tso->hwm);
    return hwm == 0 ? 0 : cat_tso_make(hwm, CAT_TSO_LOGICAL_MAX);
}

uint64_t
cat_tso_hwm(cat_tso *tso)
{
    return atomic_load(&tso->hwm);
}

char *
cat_tso_format(uint64_t tso, char *out)
{
    uint64_t phys = cat_tso_physical(tso);
    time_t secs = (time_t)(phys / 1000u);
    struct tm tm;
    gmtime_r(&secs, &tm);
    snprintf(out, CAT_TSO_FMT_SIZE, "%04d-%02d-%02d %02d:%02d:%02d.%03u/%u", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned)(phys % 1000u),
             cat_tso_logical(tso));
    return out;
}

bool
cat_tso_parse(const char *s, uint64_t *out)
{
    size_t n = strlen(s);
    if (n > 0 && n <= 20 && strspn(s, "0123456789") == n) {
        uint64_t v = 0;
        for (const char *p = s; *p; p++) {
            uint64_t d = (uint64_t)(*p - '0');
            if (v > (UINT64_MAX - d) / 10) {
                return false;
            }
            v = v * 10 + d;
        }
        *out = v;
        return true;
    }
    static const char shape[] = "dddd-dd-dd dd:dd:dd.ddd/";  /* then the logical part */
    if (n <= sizeof shape - 1 || n > sizeof shape - 1 + 6) { /* logical: 1 to 6 digits */
        return false;
    }
    for (size_t i = 0; i < sizeof shape - 1; i++) {
        bool ok = shape[i] == 'd' ? (s[i] >= '0' && s[i] <= '9') : s[i] == shape[i];
        if (!ok) {
            return false;
        }
    }
    if (strspn(s + sizeof shape - 1, "0123456789") != n - (sizeof shape - 1)) {
        return false;
    }
    int y, mo, d, h, mi, sec, ms, used = 0;
    unsigned logical;
    if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d.%3d/%u%n", &y, &mo, &d, &h, &mi, &sec, &ms, &logical,
               &used) != 8 ||
        (size_t)used != n || y < 1970 || logical > CAT_TSO_LOGICAL_MAX) {
        return false;
    }
    struct tm tm = {.tm_year = y - 1900,
                    .tm_mon = mo - 1,
                    .tm_mday = d,
                    .tm_hour = h,
                    .tm_min = mi,
                    .tm_sec = sec};
    time_t t = timegm(&tm);
    /* timegm normalizes out-of-range fields (Feb 30 becomes Mar 2): reject those. */
    if (t < 0 || tm.tm_year != y - 1900 || tm.tm_mon != mo - 1 || tm.tm_mday != d ||
        tm.tm_hour != h || tm.tm_min != mi || tm.tm_sec != sec) {
        return false;
    }
    uint64_t phys = (uint64_t)t * 1000u + (uint64_t)ms;
    if (phys > CAT_TSO_PHYSICAL_MAX) {
        return false;
    }
    *out = cat_tso_make(phys, logical);
    return true;
}
