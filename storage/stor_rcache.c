/* SPDX-License-Identifier: Apache-2.0
 * stor_rcache: a pool of open segment readers, so a statement does not pay open + trailer +
 * footer + directories + a new zstd context for every segment it touches (point lookups, the
 * MoW stage's old-row reads). A reader is used by one thread at a time: acquire takes an idle
 * reader of the file out of the pool (or opens one), release puts it back. Idle readers are
 * kept in LRU order up to a limit; forget closes the idle readers of a file that is about to be
 * deleted. Segment files are immutable, so a pooled reader never goes stale.
 * See README.md §"Reader pool". */
#include "storage/stor_int.h"

#include <pthread.h>
#include <string.h>

#include "common/mem.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define RC_BUCKETS 4096 /* hash chains; a power of two */

typedef struct rc_entry {
    struct rc_entry *hnext;               /* hash chain */
    struct rc_entry *lru_prev, *lru_next; /* idle list, most recent first */
    uint64_t hash;
    char *path; /* owned */
    stor_segment_reader *r;
} rc_entry;

struct stor_rcache {
    pthread_mutex_t mu; /* protects buckets, the LRU list and nidle; never held across I/O */
    rc_entry *buckets[RC_BUCKETS];
    rc_entry *lru_head, *lru_tail;
    size_t nidle, max_idle;
    uint64_t hits, opens;
};

stor_rcache *
stor_rcache_new(size_t max_idle)
{
    stor_rcache *rc = mem_calloc(1, sizeof *rc);
    pthread_mutex_init(&rc->mu, NULL);
    rc->max_idle = max_idle;
    return rc;
}

static void
lru_unlink(stor_rcache *rc, rc_entry *e)
{
    if (e->lru_prev) {
        e->lru_prev->lru_next = e->lru_next;
    } else {
        rc->lru_head = e->lru_next;
    }
    if (e->lru_next) {
        e->lru_next->lru_prev = e->lru_prev;
    } else {
        rc->lru_tail = e->lru_prev;
    }
    e->lru_prev = e->lru_next = NULL;
}

/* Remove e from its hash chain and the LRU list (mu held). */
static void
entry_unlink(stor_rcache *rc, rc_entry *e)
{
    rc_entry **pp = &rc->buckets[e->hash & (RC_BUCKETS - 1)];
    while (*pp != e) {
        pp = &(*pp)->hnext;
    }
    *pp = e->hnext;
    lru_unlink(rc, e);
    rc->nidle--;
}

static void
entry_free(rc_entry *e)
{
    stor_segment_reader_close(e->r);
    mem_free(e->path);
    mem_free(e);
}

void
stor_rcache_free(stor_rcache *rc)
{
    if (rc == NULL) {
        return;
    }
    while (rc->lru_head) {
        rc_entry *e = rc->lru_head;
        entry_unlink(rc, e);
        entry_free(e);
    }
    pthread_mutex_destroy(&rc->mu);
    mem_free(rc);
}

stor_segment_reader *
stor_rcache_acquire(stor_rcache *rc, const char *path, stor_cache *pages, db_error *err)
{
    uint64_t h = XXH3_64bits(path, strlen(path));
    pthread_mutex_lock(&rc->mu);
    for (rc_entry *e = rc->buckets[h & (RC_BUCKETS - 1)]; e; e = e->hnext) {
        if (e->hash == h && strcmp(e->path, path) == 0) {
            entry_unlink(rc, e);
            rc->hits++;
            pthread_mutex_unlock(&rc->mu);
            stor_segment_reader *r = e->r;
            e->r = NULL;
            mem_free(e->path);
            mem_free(e);
            return r;
        }
    }
    rc->opens++;
    pthread_mutex_unlock(&rc->mu);
    stor_segment_reader *r = stor_segment_reader_open(path, err);
    if (r != NULL && pages != NULL) {
        stor_segment_reader_set_cache(r, pages);
    }
    return r;
}

void
stor_rcache_release(stor_rcache *rc, const char *path, stor_segment_reader *r)
{
    if (r == NULL) {
        return;
    }
    if (rc->max_idle == 0) {
        stor_segment_reader_close(r);
        return;
    }
    stor_segment_reader_trim(r);
    rc_entry *e = mem_calloc(1, sizeof *e);
    e->hash = XXH3_64bits(path, strlen(path));
    e->path = mem_strdup(path);
    e->r = r;
    rc_entry *victim = NULL;
    pthread_mutex_lock(&rc->mu);
    rc_entry **b = &rc->buckets[e->hash & (RC_BUCKETS - 1)];
    e->hnext = *b;
    *b = e;
    e->lru_next = rc->lru_head;
    if (rc->lru_head) {
        rc->lru_head->lru_prev = e;
    } else {
        rc->lru_tail = e;
    }
    rc->lru_head = e;
    rc->nidle++;
    if (rc->nidle > rc->max_idle) {
        victim = rc->lru_tail;
        entry_unlink(rc, victim);
    }
    pthread_mutex_unlock(&rc->mu);
    if (victim) {
        entry_free(victim); /* close outside the lock */
    }
}

void
stor_rcache_forget(stor_rcache *rc, const char *path)
{
    uint64_t h = XXH3_64bits(path, strlen(path));
    rc_entry *gone = NULL;
    pthread_mutex_lock(&rc->mu);
    rc_entry *e = rc->buckets[h & (RC_BUCKETS - 1)];
    while (e) {
        rc_entry *next = e->hnext;
        if (e->hash == h && strcmp(e->path, path) == 0) {
            entry_unlink(rc, e);
            e->hnext = gone;
            gone = e;
        }
        e = next;
    }
    pthread_mutex_unlock(&rc->mu);
    while (gone) {
        rc_entry *next = gone->hnext;
        entry_free(gone);
        gone = next;
    }
}

void
stor_rcache_stats(stor_rcache *rc, uint64_t *hits, uint64_t *opens, size_t *idle)
{
    pthread_mutex_lock(&rc->mu);
    *hits = rc->hits;
    *opens = rc->opens;
    *idle = rc->nidle;
    pthread_mutex_unlock(&rc->mu);
}
