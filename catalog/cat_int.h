/* SPDX-License-Identifier: Apache-2.0
 * cat_int.h: declarations private to catalog/ (shared by the cat_*.c files and white-box unit
 * tests): the edit-log record codec, file-format constants and little-endian helpers.
 * See README.md §Formats. */
#ifndef CATALOG_CAT_INT_H
#define CATALOG_CAT_INT_H

#include "catalog/catalog.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/buf.h"

/* ---- file formats (README.md §Formats) ---- */
#define CAT_FORMAT_VERSION   1u
#define CAT_SEG_MAGIC        "RVLTELOG" /* 8 bytes, no NUL on disk */
#define CAT_SEG_HDR_SIZE     32u
#define CAT_REC_HDR_SIZE     18u
#define CAT_IMG_MAGIC        "RVLTIMAG"
#define CAT_IMG_HDR_SIZE     32u
#define CAT_IMG_SEC_HDR_SIZE 16u
#define CAT_SEQ_DIGITS       20 /* file names carry sequence numbers as 20 decimal digits */

/* ---- record codec ---- */

/* Result of decoding the bytes at one offset of a segment. */
typedef enum cat__rec_status {
    CAT__REC_OK = 0,
    CAT__REC_SHORT_HEADER,  /* fewer than CAT_REC_HDR_SIZE bytes left */
    CAT__REC_SHORT_PAYLOAD, /* the length field points past the end of the data */
    CAT__REC_TOO_LONG,      /* the length field exceeds CAT_EDITLOG_MAX_PAYLOAD */
    CAT__REC_BAD_CRC,       /* the CRC32C does not match the bytes */
    CAT__REC_BAD_TYPE,      /* type 0, which no writer produces */
} cat__rec_status;

/* One decoded record; payload points into the decoded bytes. */
typedef struct cat__rec {
    uint16_t type;
    uint64_t seq;
    uint32_t len;           /* payload bytes */
    const uint8_t *payload; /* inside the caller's buffer */
    size_t size;            /* CAT_REC_HDR_SIZE + len: bytes the record occupies */
} cat__rec;

/* Append the encoding of one record to out (README.md §Formats, "Record"). len must be at
 * most CAT_EDITLOG_MAX_PAYLOAD and type non-zero (asserted). */
void cat__rec_encode(buf *out, uint16_t type, uint64_t seq, const void *payload, uint32_t len);

/* Decode the record at p[0..avail). On CAT__REC_OK fills *out; otherwise *out is undefined. */
cat__rec_status cat__rec_decode(const uint8_t *p, size_t avail, cat__rec *out);

/* Short English text for a status, used in ER_CAT_META_CORRUPT messages. */
const char *cat__rec_status_text(cat__rec_status st);

/* The CRC32C stored in a record: over bytes [0,4) and [8, 18 + len), i.e. every byte of the
 * record except the CRC field itself. */
uint32_t cat__rec_crc(const uint8_t *rec, uint32_t len);

/* Test hook: the next group write fails with errno_value as if write(2) had failed (0 = off).
 * Lets tests reach the sticky-failure path without a broken disk. */
void cat__editlog_inject_write_error(cat_editlog *el, int errno_value);

/* ---- little-endian helpers ---- */
static inline uint16_t
cat__get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t
cat__get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t
cat__get_u64(const uint8_t *p)
{
    return (uint64_t)cat__get_u32(p) | ((uint64_t)cat__get_u32(p + 4) << 32);
}

static inline void
cat__set_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void
cat__set_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline void
cat__set_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* Users of a catalog: created before replay (registers record types and an image section). */
cat_users *cat_users_new(cat_editlog *log);
void cat_users_free(cat_users *us);

#endif /* CATALOG_CAT_INT_H */
