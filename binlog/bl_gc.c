/* SPDX-License-Identifier: Apache-2.0
 * bl_gc: Row Binlog retention over the catalog: which tables' records are expired by their
 * binlog.ttl_seconds and which tablets' partitions are gone. The removal itself is
 * bl_log_cleanup's (one storage commit with a BL_EXTRA_PURGE section). README.md §Retention. */
#include "binlog/bl_int.h"

#include <stdlib.h>

#include "common/mem.h"

typedef struct gc_ctx {
    cat_meta *meta;
    int64_t *parts; /* live partition ids, ascending (cat_meta_partition_ids) */
    size_t nparts;
    uint64_t now_ms;
    bool paused;
} gc_ctx;

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* TSO at or below which table_id's records are expired; 0 = keep (table unknown, or cleanup
 * paused by be.conf / the table's disable_auto_compaction, as Doris pauses it). */
static uint64_t
gc_expire(void *ctx, int64_t table_id)
{
    gc_ctx *g = ctx;
    if (g->paused) {
        return 0;
    }
    uint64_t horizon = 0;
    const cat_catalog *c = cat_meta_read_begin(g->meta);
    for (size_t d = 0; d < cat_db_count(c); d++) {
        const cat_db *db = cat_db_at(c, d);
        for (size_t i = 0; i < db->ntables; i++) {
            const cat_table *t = db->tables[i];
            if (t->id != table_id || t->disable_auto_compaction) {
                continue;
            }
            horizon = bl_ttl_horizon(g->now_ms, t->binlog.ttl_seconds);
        }
    }
    cat_meta_read_end(g->meta);
    return horizon;
}

static bool
gc_dead(void *ctx, uint64_t tablet_id)
{
    gc_ctx *g = ctx;
    int64_t part = stor_tablet_partition_of(tablet_id);
    return bsearch(&part, g->parts, g->nparts, sizeof *g->parts, cmp_i64) == NULL;
}

int
bl_gc(bl_log *L, cat_meta *m, uint64_t now_ms, bool paused, size_t *npurged, db_error *err)
{
    /* Partitions are read before the rowsets (inside bl_log_cleanup): safe, since a binlog
     * rowset's partition is in the catalog before its commit. */
    gc_ctx g = {.meta = m, .now_ms = now_ms, .paused = paused};
    g.nparts = cat_meta_partition_ids(m, &g.parts);
    int rc = bl_log_cleanup(L, gc_expire, gc_dead, &g, npurged, err);
    mem_free(g.parts);
    return rc;
}
