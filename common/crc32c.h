/* SPDX-License-Identifier: Apache-2.0
 * crc32c: CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of every on-disk
 * record and page (edit log, image, segment pages). Uses the SSE4.2 `crc32` instruction when the
 * CPU has it and a portable slicing-by-8 table otherwise; both give identical results.
 * See common/README.md §crc32c. */
#ifndef COMMON_CRC32C_H
#define COMMON_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CRC-32C of p[0..len). crc32c("123456789", 9) == 0xE3069283. Any thread; never fails. */
uint32_t crc32c(const void *p, size_t len);

/* Continue a CRC: crc32c_extend(crc32c(a, n), b, m) == CRC-32C of a followed by b, and
 * crc32c_extend(0, p, len) == crc32c(p, len). The pre/post inversion is handled inside. */
uint32_t crc32c_extend(uint32_t crc, const void *p, size_t len);

/* The two implementations behind crc32c_extend, for tests and benchmarks. crc32c_extend_hw uses
 * the SSE4.2 instruction when crc32c_has_hw() is true (x86-64 with SSE4.2) and is the portable
 * code otherwise. */
uint32_t crc32c_extend_portable(uint32_t crc, const void *p, size_t len);
uint32_t crc32c_extend_hw(uint32_t crc, const void *p, size_t len);
bool crc32c_has_hw(void);

#endif /* COMMON_CRC32C_H */
