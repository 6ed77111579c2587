/* SPDX-License-Identifier: Apache-2.0
 * stream.h: Table Stream consumption offsets. A stream (a catalog object, cat_table.stream)
 * remembers per base partition the commit TSO consumed so far. Offsets move only inside a
 * storage commit record, in a STRM_EXTRA_ADVANCE section carried by the statement that consumed
 * (INSERT ... SELECT FROM stream): the section is checked under the engine's commit mutex
 * (compare-and-set on every partition: a concurrent consumer that committed first makes this
 * commit fail with "target offset already consumed") and applied at publish and replay, so the
 * rows written and the offsets advanced are durable together (I4). README.md §Formats. */
#ifndef STREAM_STREAM_H
#define STREAM_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "common/buf.h"
#include "common/db_error.h"
#include "storage/storage.h"

enum { STRM_EXTRA_ADVANCE = CAT_REC_STREAM_FIRST + 0 };  /* storage commit section kind */
enum { STRM_IMG_OFFSETS = CAT_IMG_STORAGE_FIRST + 200 }; /* image section: every advanced offset */

typedef struct strm_state strm_state;

/* Register the advance section (handler and check) with e and the image section with log:
 * after stor_engine_new, before the replay. Heap object (strm_free). */
strm_state *strm_new(stor_engine *e, cat_editlog *log);
void strm_free(strm_state *S);

/* Where a partition of a stream stands before a read. */
typedef enum strm_prev_kind {
    STRM_PREV_NONE = 0,     /* no offset: the partition is read whole (historical scan) */
    STRM_PREV_INIT = 1,     /* the offset taken at creation (cat_stream.init) */
    STRM_PREV_ADVANCED = 2, /* an offset a consumption committed */
    /* No offset, and the read was the stream's initial rows (show_initial_rows = true, a
     * partition the base table had at CREATE STREAM): as NONE, but a lost compare-and-set is
     * "history offset already consumed" (E22) instead of "target ..." (E21). Only in
     * STRM_EXTRA_ADVANCE sections; readers see NONE. */
    STRM_PREV_INITIAL_ROWS = 3,
} strm_prev_kind;

/* The advanced offset of (stream_id, part_id): true with *tso and *last_ms (wall ms of the
 * consumption) when one was committed. Any thread. */
bool strm_offset(strm_state *S, int64_t stream_id, int64_t part_id, uint64_t *tso,
                 int64_t *last_ms);

/* One partition advance of a consuming statement. */
typedef struct strm_advance {
    int64_t stream_id, part_id;
    uint8_t prev_kind; /* strm_prev_kind seen when the statement read */
    uint64_t prev_tso; /* that offset (0 for NONE) */
    uint64_t next_tso; /* the upper bound the statement read */
} strm_advance;

/* Encode the advances of one statement into out (a STRM_EXTRA_ADVANCE section): db and stream
 * names are kept for the error message of a lost compare-and-set. now_ms is the consumption's
 * wall time. */
void strm_encode_advance(buf *out, const char *db, const char *stream, int64_t now_ms,
                         const strm_advance *adv, size_t n);

/* Forget the offsets of streams for which keep(ctx, stream_id) is false (dropped streams);
 * in memory only: the next image leaves them out, and a replay that applies their old records
 * again is harmless (no stream reads them). Returns how many entries went. */
size_t strm_forget(strm_state *S, bool (*keep)(void *ctx, int64_t stream_id), void *ctx);

#endif /* STREAM_STREAM_H */
