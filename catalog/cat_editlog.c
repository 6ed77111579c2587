/* SPDX-License-Identifier: Apache-2.0
 * cat_editlog: the write-ahead edit log. Typed records with CRC32C in numbered segment files,
 * group commit (one write + one fdatasync per batch of concurrent appends), start-up validation
 * with torn-tail repair, replay through registered handlers, and checkpoint images written
 * atomically (temp file, fsync, rename, fsync directory).
 * See README.md §Formats, §Invariants and §Threads. */
#include "catalog/cat_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/crc32c.h"
#include "common/log.h"
#include "common/mem.h"

#define SEGMENT_BYTES_DEFAULT (64u << 20)
#define SEG_TMP_NAME          "editlog.tmp"
#define IMG_TMP_NAME          "image.tmp"

typedef struct rec_handler {
    uint16_t type;
    const char *name;
    cat_replay_fn fn;
    void *ctx;
} rec_handler;

typedef struct img_section {
    uint16_t id;
    const char *name;
    cat_image_write_fn write_fn;
    cat_image_load_fn load_fn;
    void *ctx;
} img_section;

struct cat_editlog {
    char *dir;              /* immutable after open */
    cat_editlog_config cfg; /* immutable after open, defaults filled in */

    /* Registration tables: written only before replay (single-threaded start-up), read-only
     * afterwards, so they need no lock. Both sorted by type / id. */
    rec_handler *handlers;
    size_t nhandlers;
    img_section *sections;
    size_t nsections;
    bool is_replayed; /* set once by cat_editlog_replay; read by asserts */

    /* Segment list: filled by open, then a leader field (see below). */
    uint64_t *seg_first; /* first sequence number of each segment, ascending (I4) */
    size_t nsegs;        /* segments in the directory; the last is the one appended to */
    bool has_image;
    uint64_t open_image_seq; /* image replay loads; equal to image_seq until a checkpoint */

    /* mu protects every field below except those marked "leader". cv is broadcast whenever
     * durable_seq advances, a leader or checkpoint finishes, or the log fails. */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    buf pending;              /* encoded records not yet handed to a leader (seq order) */
    uint64_t pending_records; /* records in pending */
    uint64_t next_seq;        /* sequence number of the next append (I3) */
    uint64_t durable_seq;     /* records <= durable_seq are on disk (I5) */
    uint64_t image_seq;       /* records <= image_seq are in the newest image */
    bool leader_active;       /* a thread owns the segment fd (group write or checkpoint) */
    bool ckpt_active;         /* a checkpoint holds new appends back */
    bool is_failed;           /* sticky after a failed write/fsync (I7) */
    char fail_msg[256];       /* the failure, for ER_CAT_LOG_FAILED */
    int inject_errno;         /* test hook: next group write fails with this errno */
    uint64_t records_since_image;
    uint64_t bytes_since_image;
    uint64_t appends, syncs, bytes_written, torn_bytes_cut;
    uint64_t segments; /* copy of nsegs for cat_editlog_stats_get (nsegs is a leader field) */

    /* Leader fields: touched only by the thread that set leader_active (or by open/replay/close,
     * when no other thread can use the log). */
    int fd;             /* the last segment, open for writing at its end */
    uint64_t seg_bytes; /* size of the last segment */
    buf writing;        /* the batch being written, swapped with pending */
};

static int io_error(db_error *err, const char *path, int errnum);
static int corrupt(db_error *err, const char *path, uint64_t off, const char *what);
static void path_of(const cat_editlog *el, const char *name, char *out);
static void seg_name(uint64_t first_seq, char *out);
static bool parse_seq_name(const char *name, const char *prefix, uint64_t *seq);
static int write_all(int fd, const void *p, size_t len);
static int fsync_dir(const cat_editlog *el, db_error *err);
static int read_whole(const char *path, uint8_t **data, size_t *len, db_error *err);
static int cmp_u64(const void *a, const void *b);
static int list_dir(cat_editlog *el, uint64_t **images, size_t *nimages, db_error *err);
static int image_parse(cat_editlog *el, const char *path, bool do_load, uint64_t *seq_out,
                       db_error *err);
static bool valid_record_after(const uint8_t *data, size_t off, size_t size, uint64_t expect);
static int seg_scan(cat_editlog *el, size_t idx, bool is_open, uint64_t *expect, db_error *err);
static int seg_truncate(const char *path, uint64_t off, db_error *err);
static int seg_create(cat_editlog *el, uint64_t first_seq, int *fd_out, db_error *err);
static int seg_open_tail(cat_editlog *el, db_error *err);
static const rec_handler *handler_find(const cat_editlog *el, uint16_t type);
static const img_section *section_find(const cat_editlog *el, uint16_t id);
static void group_write_locked(cat_editlog *el);
static void roll_if_full(cat_editlog *el);
static int image_write(cat_editlog *el, uint64_t seq, db_error *err);
static int drop_covered(cat_editlog *el, uint64_t seq, db_error *err);
static int failed_error(const cat_editlog *el, db_error *err);

/* ==== record codec ==================================================================== */

uint32_t
cat__rec_crc(const uint8_t *rec, uint32_t len)
{
    uint32_t c = crc32c(rec, 4);
    return crc32c_extend(c, rec + 8, (size_t)CAT_REC_HDR_SIZE - 8 + len);
}

void
cat__rec_encode(buf *out, uint16_t type, uint64_t seq, const void *payload, uint32_t len)
{
    DB_ASSERT(type != 0 && len <= CAT_EDITLOG_MAX_PAYLOAD);
    uint8_t *p = buf_reserve(out, CAT_REC_HDR_SIZE + (size_t)len);
    cat__set_u32(p, len);
    cat__set_u16(p + 8, type);
    cat__set_u64(p + 10, seq);
    if (len > 0) {
        memcpy(p + CAT_REC_HDR_SIZE, payload, len);
    }
    cat__set_u32(p + 4, cat__rec_crc(p, len));
    out->len += CAT_REC_HDR_SIZE + (size_t)len;
}

cat__rec_status
cat__rec_decode(const uint8_t *p, size_t avail, cat__rec *out)
{
    if (avail < CAT_REC_HDR_SIZE) {
        return CAT__REC_SHORT_HEADER;
    }
    uint32_t len = cat__get_u32(p);
    if (len > CAT_EDITLOG_MAX_PAYLOAD) {
        return CAT__REC_TOO_LONG;
    }
    if (avail - CAT_REC_HDR_SIZE < len) {
        return CAT__REC_SHORT_PAYLOAD;
    }
    if (cat__get_u32(p + 4) != cat__rec_crc(p, len)) {
        return CAT__REC_BAD_CRC;
    }
    out->type = cat__get_u16(p + 8);
    if (out->type == 0) {
        return CAT__REC_BAD_TYPE;
    }
    out->seq = cat__get_u64(p + 10);
    out->len = len;
    out->payload = p + CAT_REC_HDR_SIZE;
    out->size = CAT_REC_HDR_SIZE + (size_t)len;
    return CAT__REC_OK;
}

const char *
cat__rec_status_text(cat__rec_status st)
{
    switch (st) {
    case CAT__REC_OK:
        return "ok";
    case CAT__REC_SHORT_HEADER:
        return "record header cut short";
    case CAT__REC_SHORT_PAYLOAD:
        return "record payload cut short";
    case CAT__REC_TOO_LONG:
        return "record length out of range";
    case CAT__REC_BAD_CRC:
        return "record checksum mismatch";
    case CAT__REC_BAD_TYPE:
        return "record type 0";
    }
    return "unknown record status";
}

/* ==== small helpers =================================================================== */

static int
io_error(db_error *err, const char *path, int errnum)
{
    return db_error_set(err, ER_IO_ERROR, path, strerror(errnum));
}

static int
corrupt(db_error *err, const char *path, uint64_t off, const char *what)
{
    return db_error_set(err, ER_CAT_META_CORRUPT, path, (unsigned long long)off, what);
}

static void
path_of(const cat_editlog *el, const char *name, char *out)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", el->dir, name);
    DB_ASSERT(n > 0 && n < PATH_MAX);
}

static void
seg_name(uint64_t first_seq, char *out)
{
    snprintf(out, 64, "editlog.%020" PRIu64, first_seq);
}

/* True if name is exactly prefix followed by CAT_SEQ_DIGITS decimal digits. */
static bool
parse_seq_name(const char *name, const char *prefix, uint64_t *seq)
{
    size_t plen = strlen(prefix);
    if (strncmp(name, prefix, plen) != 0 || strlen(name) != plen + CAT_SEQ_DIGITS) {
        return false;
    }
    uint64_t v = 0;
    for (const char *p = name + plen; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10) {
            return false;
        }
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *seq = v;
    return true;
}

/* write(2) until done; returns 0 or an errno value. */
static int
write_all(int fd, const void *p, size_t len)
{
    const uint8_t *q = p;
    while (len > 0) {
        ssize_t n = write(fd, q, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        q += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Make renames, creations and unlinks in the log directory durable. */
static int
fsync_dir(const cat_editlog *el, db_error *err)
{
    int fd = open(el->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return io_error(err, el->dir, errno);
    }
    int rc = fsync(fd) == 0 ? 0 : errno;
    close(fd);
    return rc == 0 ? DB_OK : io_error(err, el->dir, rc);
}

/* Read a whole file into a heap buffer (*data, free with mem_free). */
static int
read_whole(const char *path, uint8_t **data, size_t *len, db_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return io_error(err, path, errno);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return io_error(err, path, e);
    }
    size_t size = (size_t)st.st_size;
    uint8_t *p = mem_alloc(size);
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, p + got, size - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            mem_free(p);
            return io_error(err, path, e);
        }
        got += (size_t)n;
    }
    close(fd);
    *data = p;
    *len = size;
    return DB_OK;
}

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static const rec_handler *
handler_find(const cat_editlog *el, uint16_t type)
{
    size_t lo = 0, hi = el->nhandlers;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (el->handlers[mid].type == type) {
            return &el->handlers[mid];
        }
        if (el->handlers[mid].type < type) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

static const img_section *
section_find(const cat_editlog *el, uint16_t id)
{
    for (size_t i = 0; i < el->nsections; i++) {
        if (el->sections[i].id == id) {
            return &el->sections[i];
        }
    }
    return NULL;
}

static int
failed_error(const cat_editlog *el, db_error *err)
{
    return db_error_set(err, ER_CAT_LOG_FAILED, el->fail_msg);
}

/* ==== directory listing and start-up scan ============================================= */

/* Collect segment and image names; remove orphan temp files (a crash during a checkpoint or
 * a segment roll leaves them; they were never renamed, so nothing refers to them). */
static int
list_dir(cat_editlog *el, uint64_t **images, size_t *nimages, db_error *err)
{
    DIR *d = opendir(el->dir);
    if (d == NULL) {
        return io_error(err, el->dir, errno);
    }
    size_t cap_s = 0, cap_i = 0;
    struct dirent *de;
    char path[PATH_MAX];
    while ((de = readdir(d)) != NULL) {
        uint64_t seq;
        if (strcmp(de->d_name, IMG_TMP_NAME) == 0 || strcmp(de->d_name, SEG_TMP_NAME) == 0) {
            path_of(el, de->d_name, path);
            log_warn("edit log: removing orphan %s left by an interrupted write", path);
            if (unlink(path) != 0) {
                int e = errno;
                closedir(d);
                return io_error(err, path, e);
            }
        } else if (parse_seq_name(de->d_name, "editlog.", &seq)) {
            if (el->nsegs == cap_s) {
                cap_s = cap_s ? cap_s * 2 : 16;
                el->seg_first = mem_realloc(el->seg_first, cap_s * sizeof(uint64_t));
            }
            el->seg_first[el->nsegs++] = seq;
        } else if (parse_seq_name(de->d_name, "image.", &seq)) {
            if (*nimages == cap_i) {
                cap_i = cap_i ? cap_i * 2 : 4;
                *images = mem_realloc(*images, cap_i * sizeof(uint64_t));
            }
            (*images)[(*nimages)++] = seq;
        }
    }
    closedir(d);
    if (el->nsegs > 1) {
        qsort(el->seg_first, el->nsegs, sizeof(uint64_t), cmp_u64);
    }
    if (*nimages > 1) {
        qsort(*images, *nimages, sizeof(uint64_t), cmp_u64);
    }
    return DB_OK;
}

/* Validate an image file (README.md §Formats, "Image"); with do_load, hand each section to
 * its loader. *seq_out receives the image's sequence number. */
static int
image_parse(cat_editlog *el, const char *path, bool do_load, uint64_t *seq_out, db_error *err)
{
    uint8_t *data;
    size_t size;
    if (read_whole(path, &data, &size, err) != DB_OK) {
        return DB_ERR;
    }
    int rc = DB_ERR;
    if (size < CAT_IMG_HDR_SIZE) {
        corrupt(err, path, 0, "image header cut short");
        goto out;
    }
    if (memcmp(data, CAT_IMG_MAGIC, 8) != 0 || cat__get_u32(data + 24) != crc32c(data, 24)) {
        corrupt(err, path, 0, "bad image header");
        goto out;
    }
    if (cat__get_u32(data + 8) != CAT_FORMAT_VERSION) {
        corrupt(err, path, 8, "unsupported image version");
        goto out;
    }
    uint32_t nsec = cat__get_u32(data + 12);
    uint64_t seq = cat__get_u64(data + 16);
    size_t off = CAT_IMG_HDR_SIZE;
    for (uint32_t i = 0; i < nsec; i++) {
        if (size - off < CAT_IMG_SEC_HDR_SIZE) {
            corrupt(err, path, off, "image section header cut short");
            goto out;
        }
        const uint8_t *h = data + off;
        uint16_t id = cat__get_u16(h);
        uint64_t len = cat__get_u64(h + 8);
        if (len > size - off - CAT_IMG_SEC_HDR_SIZE) {
            corrupt(err, path, off, "image section length out of range");
            goto out;
        }
        uint32_t c = crc32c_extend(crc32c(h, 4), h + 8, 8 + (size_t)len);
        if (c != cat__get_u32(h + 4)) {
            corrupt(err, path, off, "image section checksum mismatch");
            goto out;
        }
        if (do_load) {
            const img_section *s = section_find(el, id);
            if (s == NULL) {
                char what[64];
                snprintf(what, sizeof what, "image section %u has no loader", id);
                corrupt(err, path, off, what);
                goto out;
            }
            if (s->load_fn(s->ctx, seq, h + CAT_IMG_SEC_HDR_SIZE, (size_t)len, err) != DB_OK) {
                goto out;
            }
        }
        off += CAT_IMG_SEC_HDR_SIZE + (size_t)len;
    }
    if (off != size) {
        corrupt(err, path, off, "trailing bytes after the last image section");
        goto out;
    }
    *seq_out = seq;
    rc = DB_OK;
out:
    mem_free(data);
    return rc;
}

/* After a damaged record at off (whose sequence number should have been expect), is there a
 * valid record further on? If so the damage is in the middle of the log, not a torn tail. A
 * candidate must carry a plausible sequence number (record k after the damage has expect + k and
 * starts at least 18 * k bytes later), which keeps the CRC checks to a handful. */
static bool
valid_record_after(const uint8_t *data, size_t off, size_t size, uint64_t expect)
{
    for (size_t p = off + 1; p + CAT_REC_HDR_SIZE <= size; p++) {
        uint64_t seq = cat__get_u64(data + p + 10);
        if (seq < expect || seq - expect > (p - off) / CAT_REC_HDR_SIZE) {
            continue;
        }
        cat__rec r;
        if (cat__rec_decode(data + p, size - p, &r) == CAT__REC_OK) {
            return true;
        }
    }
    return false;
}

static int
seg_truncate(const char *path, uint64_t off, db_error *err)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return io_error(err, path, errno);
    }
    int rc = 0;
    if (ftruncate(fd, (off_t)off) != 0 || fsync(fd) != 0) {
        rc = errno;
    }
    close(fd);
    return rc == 0 ? DB_OK : io_error(err, path, rc);
}

/* Read and check segment idx. *expect is the sequence number its first record must carry
 * (0 = the first segment: take it from the header); on return, the next one after it.
 * At open (is_open): a damaged tail of the last segment is cut off, counters are updated.
 * At replay: records after the image go to their handlers; any damage is an error. */
static int
seg_scan(cat_editlog *el, size_t idx, bool is_open, uint64_t *expect, db_error *err)
{
    char name[64], path[PATH_MAX], what[160];
    seg_name(el->seg_first[idx], name);
    path_of(el, name, path);
    uint8_t *data;
    size_t size;
    if (read_whole(path, &data, &size, err) != DB_OK) {
        return DB_ERR;
    }
    int rc = DB_ERR;
    bool is_last = idx + 1 == el->nsegs;
    if (size < CAT_SEG_HDR_SIZE || memcmp(data, CAT_SEG_MAGIC, 8) != 0 ||
        cat__get_u32(data + 24) != crc32c(data, 24)) {
        corrupt(err, path, 0, "bad segment header");
        goto out;
    }
    if (cat__get_u32(data + 8) != CAT_FORMAT_VERSION) {
        corrupt(err, path, 8, "unsupported segment version");
        goto out;
    }
    uint64_t first = cat__get_u64(data + 16);
    if (first != el->seg_first[idx] || (*expect != 0 && first != *expect)) {
        snprintf(what, sizeof what, "segment starts at record %" PRIu64 ", expected %" PRIu64,
                 first, *expect ? *expect : el->seg_first[idx]);
        corrupt(err, path, 16, what);
        goto out;
    }
    *expect = first;
    size_t off = CAT_SEG_HDR_SIZE;
    while (off < size) {
        cat__rec r;
        cat__rec_status st = cat__rec_decode(data + off, size - off, &r);
        if (st != CAT__REC_OK) {
            /* I6: only the unsynced tail of the last segment may be torn. */
            if (is_open && is_last && !valid_record_after(data, off, size, *expect)) {
                log_warn("edit log: %s: torn record at offset %zu (%s), cutting off %zu bytes",
                         path, off, cat__rec_status_text(st), size - off);
                if (seg_truncate(path, off, err) != DB_OK) {
                    goto out;
                }
                el->torn_bytes_cut += size - off;
                size = off;
                break;
            }
            corrupt(err, path, off, cat__rec_status_text(st));
            goto out;
        }
        if (r.seq != *expect) { /* I3 */
            snprintf(what, sizeof what, "record %" PRIu64 " where %" PRIu64 " was expected", r.seq,
                     *expect);
            corrupt(err, path, off, what);
            goto out;
        }
        if (r.seq > el->open_image_seq) {
            if (is_open) {
                el->records_since_image++;
                el->bytes_since_image += r.size;
            } else {
                const rec_handler *h = handler_find(el, r.type);
                if (h == NULL) {
                    snprintf(what, sizeof what, "record type %u has no replay handler", r.type);
                    corrupt(err, path, off, what);
                    goto out;
                }
                if (h->fn(h->ctx, r.type, r.seq, r.payload, r.len, err) != DB_OK) {
                    goto out;
                }
            }
        }
        (*expect)++;
        off += r.size;
    }
    if (is_last) {
        el->seg_bytes = size;
    }
    rc = DB_OK;
out:
    mem_free(data);
    return rc;
}

/* Create segment editlog.<first_seq> atomically: header into editlog.tmp, fdatasync, rename,
 * fsync the directory (I4: a segment file always has a whole header). *fd_out is left open for
 * appending at offset CAT_SEG_HDR_SIZE. */
static int
seg_create(cat_editlog *el, uint64_t first_seq, int *fd_out, db_error *err)
{
    char tmp[PATH_MAX], name[64], path[PATH_MAX];
    path_of(el, SEG_TMP_NAME, tmp);
    seg_name(first_seq, name);
    path_of(el, name, path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return io_error(err, tmp, errno);
    }
    uint8_t h[CAT_SEG_HDR_SIZE] = {0};
    memcpy(h, CAT_SEG_MAGIC, 8);
    cat__set_u32(h + 8, CAT_FORMAT_VERSION);
    cat__set_u64(h + 16, first_seq);
    cat__set_u32(h + 24, crc32c(h, 24));
    int e = write_all(fd, h, sizeof h);
    if (e == 0 && fdatasync(fd) != 0) {
        e = errno;
    }
    if (e == 0 && rename(tmp, path) != 0) {
        e = errno;
    }
    if (e != 0) {
        close(fd);
        unlink(tmp);
        return io_error(err, path, e);
    }
    if (fsync_dir(el, err) != DB_OK) {
        close(fd);
        return DB_ERR;
    }
    *fd_out = fd;
    return DB_OK;
}

/* Open the last segment for appending (or create the first one). */
static int
seg_open_tail(cat_editlog *el, db_error *err)
{
    if (el->nsegs == 0) {
        el->seg_first = mem_realloc(el->seg_first, sizeof(uint64_t));
        el->seg_first[0] = el->next_seq;
        el->seg_bytes = CAT_SEG_HDR_SIZE;
        el->nsegs = 1;
        return seg_create(el, el->next_seq, &el->fd, err);
    }
    char name[64], path[PATH_MAX];
    seg_name(el->seg_first[el->nsegs - 1], name);
    path_of(el, name, path);
    el->fd = open(path, O_WRONLY | O_CLOEXEC);
    if (el->fd < 0 || lseek(el->fd, (off_t)el->seg_bytes, SEEK_SET) < 0) {
        return io_error(err, path, errno);
    }
    return DB_OK;
}

/* ==== open / register / replay / close ================================================= */

cat_editlog *
cat_editlog_open(const char *dir, const cat_editlog_config *cfg, db_error *err)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        io_error(err, dir, errno);
        return NULL;
    }
    cat_editlog *el = mem_calloc(1, sizeof *el);
    el->dir = mem_strdup(dir);
    el->fd = -1;
    if (cfg != NULL) {
        el->cfg = *cfg;
    }
    if (el->cfg.segment_bytes == 0) {
        el->cfg.segment_bytes = SEGMENT_BYTES_DEFAULT;
    }
    pthread_mutex_init(&el->mu, NULL);
    pthread_cond_init(&el->cv, NULL);
    buf_init(&el->pending);
    buf_init(&el->writing);

    uint64_t *images = NULL;
    size_t nimages = 0;
    char name[64], path[PATH_MAX];
    if (list_dir(el, &images, &nimages, err) != DB_OK) {
        goto fail;
    }
    if (nimages > 0) {
        /* The newest image wins; a damaged newest image is an error, never a silent fallback
         * to an older one whose segments may already be gone. */
        uint64_t seq;
        snprintf(name, sizeof name, "image.%020" PRIu64, images[nimages - 1]);
        path_of(el, name, path);
        if (image_parse(el, path, false, &seq, err) != DB_OK) {
            goto fail;
        }
        if (seq != images[nimages - 1]) {
            corrupt(err, path, 16, "image sequence number differs from its file name");
            goto fail;
        }
        el->has_image = true;
        el->image_seq = el->open_image_seq = seq;
        for (size_t i = 0; i + 1 < nimages; i++) {
            snprintf(name, sizeof name, "image.%020" PRIu64, images[i]);
            path_of(el, name, path);
            log_info("edit log: removing superseded %s", path);
            unlink(path);
        }
    }
    /* Segments whose every record is in the image (the next segment starts at or before
     * image_seq + 1) are left over from a checkpoint interrupted before its deletions. */
    size_t ndrop = 0;
    while (ndrop + 1 < el->nsegs && el->seg_first[ndrop + 1] <= el->image_seq + 1) {
        seg_name(el->seg_first[ndrop], name);
        path_of(el, name, path);
        log_info("edit log: removing %s, covered by image %" PRIu64, path, el->image_seq);
        if (unlink(path) != 0) {
            io_error(err, path, errno);
            goto fail;
        }
        ndrop++;
    }
    if (ndrop > 0) {
        memmove(el->seg_first, el->seg_first + ndrop, (el->nsegs - ndrop) * sizeof(uint64_t));
        el->nsegs -= ndrop;
    }
    if (el->nsegs > 0 && el->seg_first[0] > el->image_seq + 1) {
        seg_name(el->seg_first[0], name);
        path_of(el, name, path);
        corrupt(err, path, 16, "records between the image and this segment are missing");
        goto fail;
    }
    uint64_t expect = 0;
    for (size_t i = 0; i < el->nsegs; i++) {
        if (seg_scan(el, i, true, &expect, err) != DB_OK) {
            goto fail;
        }
    }
    if (el->nsegs > 0 && expect <= el->image_seq) {
        seg_name(el->seg_first[el->nsegs - 1], name);
        path_of(el, name, path);
        corrupt(err, path, el->seg_bytes, "log ends before the last record of the image");
        goto fail;
    }
    el->next_seq = el->nsegs > 0 ? expect : el->image_seq + 1;
    el->durable_seq = el->next_seq - 1;
    if (seg_open_tail(el, err) != DB_OK) {
        goto fail;
    }
    el->segments = el->nsegs;
    mem_free(images);
    return el;
fail:
    mem_free(images);
    cat_editlog_close(el);
    return NULL;
}

void
cat_editlog_register(cat_editlog *el, uint16_t type, const char *name, cat_replay_fn fn, void *ctx)
{
    DB_ASSERT(!el->is_replayed && type != 0 && fn != NULL && handler_find(el, type) == NULL);
    el->handlers = mem_realloc(el->handlers, (el->nhandlers + 1) * sizeof(rec_handler));
    size_t i = el->nhandlers;
    while (i > 0 && el->handlers[i - 1].type > type) {
        el->handlers[i] = el->handlers[i - 1];
        i--;
    }
    el->handlers[i] = (rec_handler){type, name, fn, ctx};
    el->nhandlers++;
}

void
cat_editlog_register_section(cat_editlog *el, uint16_t id, const char *name,
                             cat_image_write_fn write_fn, cat_image_load_fn load_fn, void *ctx)
{
    DB_ASSERT(!el->is_replayed && id != 0 && write_fn != NULL && load_fn != NULL);
    DB_ASSERT(section_find(el, id) == NULL);
    el->sections = mem_realloc(el->sections, (el->nsections + 1) * sizeof(img_section));
    size_t i = el->nsections;
    while (i > 0 && el->sections[i - 1].id > id) {
        el->sections[i] = el->sections[i - 1];
        i--;
    }
    el->sections[i] = (img_section){id, name, write_fn, load_fn, ctx};
    el->nsections++;
}

int
cat_editlog_replay(cat_editlog *el, db_error *err)
{
    DB_ASSERT(!el->is_replayed);
    char name[64], path[PATH_MAX];
    if (el->has_image) {
        uint64_t seq;
        snprintf(name, sizeof name, "image.%020" PRIu64, el->open_image_seq);
        path_of(el, name, path);
        if (image_parse(el, path, true, &seq, err) != DB_OK) {
            return DB_ERR;
        }
    }
    uint64_t expect = 0;
    for (size_t i = 0; i < el->nsegs; i++) {
        if (seg_scan(el, i, false, &expect, err) != DB_OK) {
            return DB_ERR;
        }
    }
    el->is_replayed = true;
    return DB_OK;
}

void
cat_editlog_close(cat_editlog *el)
{
    if (el == NULL) {
        return;
    }
    DB_ASSERT(!el->leader_active && !el->ckpt_active);
    if (el->fd >= 0) {
        close(el->fd);
    }
    pthread_mutex_destroy(&el->mu);
    pthread_cond_destroy(&el->cv);
    buf_destroy(&el->pending);
    buf_destroy(&el->writing);
    mem_free(el->handlers);
    mem_free(el->sections);
    mem_free(el->seg_first);
    mem_free(el->dir);
    mem_free(el);
}

/* ==== append: group commit ============================================================= */

/* Become the leader: write every pending record with one write(2) and one fdatasync. Called
 * and returns with mu held; drops it during the I/O. Other appenders keep filling pending
 * meanwhile; they are written by the next leader. */
static void
group_write_locked(cat_editlog *el)
{
    DB_ASSERT(!el->leader_active && el->pending.len > 0);
    el->leader_active = true;
    buf tmp = el->writing;
    el->writing = el->pending;
    el->pending = tmp;
    uint64_t last = el->next_seq - 1;
    uint64_t nrec = el->pending_records;
    el->pending_records = 0;
    int inject = el->inject_errno;
    el->inject_errno = 0;
    pthread_mutex_unlock(&el->mu);

    int e = inject != 0 ? inject : write_all(el->fd, el->writing.data, el->writing.len);
    if (e == 0 && fdatasync(el->fd) != 0) {
        e = errno;
    }

    pthread_mutex_lock(&el->mu);
    if (e != 0) {
        /* I7: after a failed fsync the page cache may have dropped our dirty pages, so nothing
         * written since the last good fsync can be trusted; stop here, recover at restart. */
        el->is_failed = true;
        snprintf(el->fail_msg, sizeof el->fail_msg, "I/O error on segment %" PRIu64 ": %s",
                 el->seg_first[el->nsegs - 1], strerror(e));
    } else {
        el->durable_seq = last; /* I5 */
        el->syncs++;
        el->bytes_written += el->writing.len;
        el->records_since_image += nrec;
        el->bytes_since_image += el->writing.len;
        el->seg_bytes += el->writing.len;
        if (el->seg_bytes >= el->cfg.segment_bytes) {
            roll_if_full(el);
        }
    }
    buf_clear(&el->writing);
    el->leader_active = false;
    pthread_cond_broadcast(&el->cv);
}

/* Start a new segment at durable_seq + 1; the records still pending go there. Called by the
 * leader with mu held. A failure is not fatal: the old segment stays in use and the next group
 * write tries again (it is logged, since no caller is waiting for this error). */
static void
roll_if_full(cat_editlog *el)
{
    uint64_t first = el->durable_seq + 1;
    pthread_mutex_unlock(&el->mu);
    int fd;
    db_error e;
    db_error_clear(&e);
    int rc = seg_create(el, first, &fd, &e);
    pthread_mutex_lock(&el->mu);
    if (rc != DB_OK) {
        log_warn("edit log: cannot start a new segment, staying on the current one: %s", e.msg);
        return;
    }
    close(el->fd);
    el->fd = fd;
    el->seg_bytes = CAT_SEG_HDR_SIZE;
    el->seg_first = mem_realloc(el->seg_first, (el->nsegs + 1) * sizeof(uint64_t));
    el->seg_first[el->nsegs++] = first;
    el->segments = el->nsegs;
}

int
cat_editlog_append(cat_editlog *el, uint16_t type, const void *payload, size_t len,
                   uint64_t *seq_out, db_error *err)
{
    DB_ASSERT(type != 0);
    if (len > CAT_EDITLOG_MAX_PAYLOAD) {
        return db_error_set(err, ER_CAT_RECORD_TOO_LARGE, (unsigned long long)len,
                            (unsigned long long)CAT_EDITLOG_MAX_PAYLOAD);
    }
    pthread_mutex_lock(&el->mu);
    DB_ASSERT(el->is_replayed);
    while (el->ckpt_active && !el->is_failed) {
        pthread_cond_wait(&el->cv, &el->mu);
    }
    int rc = DB_OK;
    if (el->is_failed) {
        rc = failed_error(el, err);
        goto out;
    }
    uint64_t seq = el->next_seq++;
    cat__rec_encode(&el->pending, type, seq, payload, (uint32_t)len);
    el->pending_records++;
    el->appends++;
    while (el->durable_seq < seq) {
        if (el->is_failed) {
            rc = failed_error(el, err);
            goto out;
        }
        if (el->leader_active) {
            pthread_cond_wait(&el->cv, &el->mu);
        } else {
            group_write_locked(el);
        }
    }
    if (seq_out != NULL) {
        *seq_out = seq;
    }
out:
    pthread_mutex_unlock(&el->mu);
    return rc;
}

/* ==== checkpoint ======================================================================= */

/* Write every section into image.tmp, fsync, rename to image.<seq>, fsync the directory. */
static int
image_write(cat_editlog *el, uint64_t seq, db_error *err)
{
    char tmp[PATH_MAX], name[64], path[PATH_MAX];
    path_of(el, IMG_TMP_NAME, tmp);
    snprintf(name, sizeof name, "image.%020" PRIu64, seq);
    path_of(el, name, path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return io_error(err, tmp, errno);
    }
    int rc = DB_ERR, e = 0;
    uint8_t h[CAT_IMG_HDR_SIZE] = {0};
    memcpy(h, CAT_IMG_MAGIC, 8);
    cat__set_u32(h + 8, CAT_FORMAT_VERSION);
    cat__set_u32(h + 12, (uint32_t)el->nsections);
    cat__set_u64(h + 16, seq);
    cat__set_u32(h + 24, crc32c(h, 24));
    buf sec;
    buf_init(&sec);
    e = write_all(fd, h, sizeof h);
    for (size_t i = 0; e == 0 && i < el->nsections; i++) {
        const img_section *s = &el->sections[i];
        buf_clear(&sec);
        buf_put_zeros(&sec, CAT_IMG_SEC_HDR_SIZE);
        if (s->write_fn(s->ctx, seq, &sec, err) != DB_OK) {
            goto out;
        }
        uint8_t *sh = sec.data;
        uint64_t len = sec.len - CAT_IMG_SEC_HDR_SIZE;
        cat__set_u16(sh, s->id);
        cat__set_u64(sh + 8, len);
        cat__set_u32(sh + 4, crc32c_extend(crc32c(sh, 4), sh + 8, 8 + (size_t)len));
        e = write_all(fd, sec.data, sec.len);
    }
    if (e == 0 && fsync(fd) != 0) {
        e = errno;
    }
    if (e == 0 && rename(tmp, path) != 0) {
        e = errno;
    }
    if (e != 0) {
        io_error(err, tmp, e);
        goto out;
    }
    close(fd);
    fd = -1;
    rc = fsync_dir(el, err);
out:
    buf_destroy(&sec);
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    return rc;
}

/* After image.<seq> is durable: make sure the current segment starts after seq, then delete
 * the older segments and images (I8). The caller is the leader. */
static int
drop_covered(cat_editlog *el, uint64_t seq, db_error *err)
{
    char name[64], path[PATH_MAX];
    if (el->seg_first[el->nsegs - 1] <= seq) {
        int fd;
        if (seg_create(el, seq + 1, &fd, err) != DB_OK) {
            return DB_ERR;
        }
        close(el->fd);
        el->fd = fd;
        el->seg_bytes = CAT_SEG_HDR_SIZE;
        el->seg_first = mem_realloc(el->seg_first, (el->nsegs + 1) * sizeof(uint64_t));
        el->seg_first[el->nsegs++] = seq + 1;
    }
    while (el->nsegs > 1) {
        seg_name(el->seg_first[0], name);
        path_of(el, name, path);
        if (unlink(path) != 0 && errno != ENOENT) {
            return io_error(err, path, errno);
        }
        memmove(el->seg_first, el->seg_first + 1, (el->nsegs - 1) * sizeof(uint64_t));
        el->nsegs--;
    }
    if (el->has_image && el->image_seq != seq) {
        snprintf(name, sizeof name, "image.%020" PRIu64, el->image_seq);
        path_of(el, name, path);
        if (unlink(path) != 0 && errno != ENOENT) {
            return io_error(err, path, errno);
        }
    }
    return fsync_dir(el, err);
}

int
cat_editlog_checkpoint(cat_editlog *el, db_error *err)
{
    pthread_mutex_lock(&el->mu);
    DB_ASSERT(el->is_replayed);
    while (el->ckpt_active) {
        pthread_cond_wait(&el->cv, &el->mu);
    }
    el->ckpt_active = true;
    /* Drain: records already encoded must be durable before the image is cut at durable_seq. */
    while (!el->is_failed && (el->leader_active || el->pending.len > 0)) {
        if (el->leader_active) {
            pthread_cond_wait(&el->cv, &el->mu);
        } else {
            group_write_locked(el);
        }
    }
    int rc = DB_OK;
    if (el->is_failed) {
        rc = failed_error(el, err);
        el->ckpt_active = false;
        pthread_cond_broadcast(&el->cv);
        pthread_mutex_unlock(&el->mu);
        return rc;
    }
    el->leader_active = true;
    uint64_t seq = el->durable_seq;
    pthread_mutex_unlock(&el->mu);

    rc = image_write(el, seq, err);
    bool has_new_image = rc == DB_OK;
    if (rc == DB_OK) {
        rc = drop_covered(el, seq, err);
    }

    pthread_mutex_lock(&el->mu);
    if (has_new_image) {
        el->has_image = true;
        el->image_seq = seq;
        el->records_since_image = 0;
        el->bytes_since_image = 0;
    }
    el->segments = el->nsegs;
    el->leader_active = false;
    el->ckpt_active = false;
    pthread_cond_broadcast(&el->cv);
    pthread_mutex_unlock(&el->mu);
    return rc;
}

bool
cat_editlog_checkpoint_due(cat_editlog *el)
{
    pthread_mutex_lock(&el->mu);
    bool due = (el->cfg.checkpoint_records > 0 &&
                el->records_since_image >= el->cfg.checkpoint_records) ||
               (el->cfg.checkpoint_bytes > 0 && el->bytes_since_image >= el->cfg.checkpoint_bytes);
    pthread_mutex_unlock(&el->mu);
    return due;
}

void
cat_editlog_stats_get(cat_editlog *el, cat_editlog_stats *out)
{
    pthread_mutex_lock(&el->mu);
    *out = (cat_editlog_stats){
            .next_seq = el->next_seq,
            .durable_seq = el->durable_seq,
            .image_seq = el->image_seq,
            .appends = el->appends,
            .syncs = el->syncs,
            .bytes_written = el->bytes_written,
            .records_since_image = el->records_since_image,
            .bytes_since_image = el->bytes_since_image,
            .segments = el->segments,
            .torn_bytes_cut = el->torn_bytes_cut,
    };
    pthread_mutex_unlock(&el->mu);
}

void
cat__editlog_inject_write_error(cat_editlog *el, int errno_value)
{
    pthread_mutex_lock(&el->mu);
    el->inject_errno = errno_value;
    pthread_mutex_unlock(&el->mu);
}
