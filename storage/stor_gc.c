/* SPDX-License-Identifier: Apache-2.0
 * stor_gc: the maintenance rules that need the catalog's view of which partitions are alive:
 * tablet garbage collection and the background compaction filter. server/ schedules them;
 * the rules live here, next to the tablets they act on. See README.md §"Dropping tablets". */
#include "storage/storage.h"

#include <stdlib.h>
#include <strings.h>

#include "common/mem.h"

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int
stor_gc_tablets(stor_engine *e, cat_meta *m, size_t *ndropped, db_error *err)
{
    /* Tablets first, partitions second: a partition is in the catalog before any write creates
     * one of its tablets (DDL commits first), so every tablet listed here whose partition is
     * missing from the later catalog view was dropped, truncated away or erased from the
     * recycle bin. The other order could drop the first tablet of a table created between the
     * two reads. */
    uint64_t *tablets = NULL;
    size_t ntablets = stor_engine_tablet_ids(e, &tablets);
    int64_t *parts = NULL;
    size_t nparts = cat_meta_partition_ids(m, &parts);
    size_t ngarbage = 0;
    for (size_t i = 0; i < ntablets; i++) {
        int64_t part = stor_tablet_partition_of(tablets[i]);
        if (bsearch(&part, parts, nparts, sizeof *parts, cmp_i64) == NULL) {
            tablets[ngarbage++] = tablets[i];
        }
    }
    int rc = DB_OK;
    if (ngarbage > 0) {
        rc = stor_engine_drop_tablets(e, tablets, ngarbage, err);
    }
    if (ndropped != NULL) {
        *ndropped = rc == DB_OK ? ngarbage : 0;
    }
    mem_free(parts);
    mem_free(tablets);
    return rc;
}

bool
stor_catalog_compaction_allow(void *ctx, uint64_t tablet_id)
{
    const stor_catalog_ctx *sc = ctx;
    int64_t part_id = stor_tablet_partition_of(tablet_id);
    const cat_catalog *c = cat_meta_read_begin(sc->meta);
    const cat_table *owner = NULL;
    for (size_t d = 0; owner == NULL && d < cat_db_count(c); d++) {
        const cat_db *db = cat_db_at(c, d);
        for (size_t i = 0; owner == NULL && i < db->ntables; i++) {
            const cat_table *t = db->tables[i];
            for (size_t p = 0; owner == NULL && p < t->nparts; p++) {
                owner = t->parts[p].id == part_id ? t : NULL;
            }
            /* Temporary partitions are written (INSERT ... TEMPORARY PARTITION) and compacted
             * like formal ones. */
            for (size_t p = 0; owner == NULL && p < t->ntmp_parts; p++) {
                owner = t->tmp_parts[p].id == part_id ? t : NULL;
            }
        }
    }
    bool allowed = owner != NULL && !owner->disable_auto_compaction;
    int32_t sign_uid = -1;
    for (size_t i = 0; allowed && owner->mow && i < owner->ncols; i++) {
        if (strcasecmp(owner->cols[i].name, CAT_COL_DELETE_SIGN) == 0) {
            sign_uid = owner->cols[i].uid;
        }
    }
    cat_meta_read_end(sc->meta);
    stor_tablet *t = allowed ? stor_engine_tablet(sc->engine, tablet_id, false) : NULL;
    if (t != NULL) {
        stor_tablet_set_delete_sign_uid(t, sign_uid);
    }
    return allowed;
}
