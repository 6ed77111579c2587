/* SPDX-License-Identifier: Apache-2.0
 * crc32c: CRC-32C with a runtime choice between the SSE4.2 instruction and slicing-by-8 tables.
 * The tables (8 KiB) are built on first use; the choice is made once, under pthread_once.
 * See README.md §crc32c. */
#include "common/crc32c.h"

#include <pthread.h>
#include <string.h>

#define CRC32C_POLY 0x82F63B78u /* reflected Castagnoli polynomial */

typedef uint32_t (*crc_fn)(uint32_t crc, const uint8_t *p, size_t len);

static void crc_init(void);
static uint32_t crc_portable(uint32_t crc, const uint8_t *p, size_t len);
#if defined(__x86_64__)
static uint32_t crc_sse42(uint32_t crc, const uint8_t *p, size_t len);
#endif

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static uint32_t g_table[8][256]; /* g_table[k][b]: CRC of byte b followed by k zero bytes */
static crc_fn g_impl;            /* chosen by crc_init; never changes afterwards */
static bool g_has_hw;

/* Build the slicing tables and pick the implementation for this CPU. */
static void
crc_init(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int k = 0; k < 8; k++) {
            c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1u)));
        }
        g_table[0][b] = c;
    }
    for (int k = 1; k < 8; k++) {
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t c = g_table[k - 1][b];
            g_table[k][b] = (c >> 8) ^ g_table[0][c & 0xFFu];
        }
    }
    g_impl = crc_portable;
    g_has_hw = false;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2")) {
        g_impl = crc_sse42;
        g_has_hw = true;
    }
#endif
}

/* Slicing-by-8 (Intel's "slicing-by-8" scheme): eight table lookups per 8 input bytes.
 * crc is the raw register (already inverted by the caller). */
static uint32_t
crc_portable(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len > 0 && ((uintptr_t)p & 7u) != 0) {
        crc = (crc >> 8) ^ g_table[0][(crc ^ *p++) & 0xFFu];
        len--;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        v ^= crc;
        crc = g_table[7][v & 0xFFu] ^ g_table[6][(v >> 8) & 0xFFu] ^ g_table[5][(v >> 16) & 0xFFu] ^
              g_table[4][(v >> 24) & 0xFFu] ^ g_table[3][(v >> 32) & 0xFFu] ^
              g_table[2][(v >> 40) & 0xFFu] ^ g_table[1][(v >> 48) & 0xFFu] ^ g_table[0][v >> 56];
        p += 8;
        len -= 8;
    }
#endif
    while (len > 0) {
        crc = (crc >> 8) ^ g_table[0][(crc ^ *p++) & 0xFFu];
        len--;
    }
    return crc;
}

#if defined(__x86_64__)
/* The SSE4.2 crc32 instruction computes exactly CRC-32C, 8 bytes per instruction. */
__attribute__((target("sse4.2"))) static uint32_t
crc_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len > 0 && ((uintptr_t)p & 7u) != 0) {
        crc = __builtin_ia32_crc32qi(crc, *p++);
        len--;
    }
    uint64_t c = crc;
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        len -= 8;
    }
    crc = (uint32_t)c;
    while (len > 0) {
        crc = __builtin_ia32_crc32qi(crc, *p++);
        len--;
    }
    return crc;
}
#endif

uint32_t
crc32c_extend(uint32_t crc, const void *p, size_t len)
{
    pthread_once(&g_once, crc_init);
    return ~g_impl(~crc, (const uint8_t *)p, len);
}

uint32_t
crc32c(const void *p, size_t len)
{
    return crc32c_extend(0, p, len);
}

uint32_t
crc32c_extend_portable(uint32_t crc, const void *p, size_t len)
{
    pthread_once(&g_once, crc_init);
    return ~crc_portable(~crc, (const uint8_t *)p, len);
}

uint32_t
crc32c_extend_hw(uint32_t crc, const void *p, size_t len)
{
    pthread_once(&g_once, crc_init);
#if defined(__x86_64__)
    if (g_has_hw) {
        return ~crc_sse42(~crc, (const uint8_t *)p, len);
    }
#endif
    return ~crc_portable(~crc, (const uint8_t *)p, len);
}

bool
crc32c_has_hw(void)
{
    pthread_once(&g_once, crc_init);
    return g_has_hw;
}
