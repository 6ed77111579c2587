/* SPDX-License-Identifier: Apache-2.0
 * proto_int.h: helpers shared by the protocol module's own files (proto_packet.c,
 * proto_handshake.c, proto_response.c). Never included outside protocol/ except by white-box
 * tests. See README.md §Formats. */
#ifndef PROTOCOL_PROTO_INT_H
#define PROTOCOL_PROTO_INT_H

#include "protocol/protocol.h"

/* Bytes in a packet header: 3-byte little-endian payload length, 1-byte sequence id. */
#define PROTO_HEADER_LEN 4

/* Fixed part of a HandshakeResponse41 / SSLRequest: caps, max packet, charset, 23 filler. */
#define PROTO_HANDSHAKE_FIXED_LEN 32

/* Arena copy of p[0..len). Never NULL, even for len 0, so callers can hand out a pointer
 * without a special case. */
const uint8_t *proto__dup_bytes(arena *a, const uint8_t *p, size_t len);

/* Read a NUL-terminated string and return it as a NUL-terminated arena copy. When the cursor is
 * already at the end and is_optional, *out is set to NULL and true is returned. Otherwise a
 * missing NUL fails (cursor unchanged). */
bool proto__get_nulstr_dup(proto_cursor *c, arena *a, bool is_optional, const char **out);

#endif /* PROTOCOL_PROTO_INT_H */
