/* SPDX-License-Identifier: Apache-2.0
 * Packet framing: proto_packet_next / _write / _begin / _end, including the 16 MiB split and
 * join at exactly 0xFFFFFF and 2 * 0xFFFFFF + 5 payload bytes, DB_AGAIN on partial input and
 * max_len enforcement. See protocol/README.md §Formats "Packet header". */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/db_error.h"
#include "common/mem.h"
#include "protocol/protocol.h"
#include "tests/protocol/proto_test.h"

#define CHUNK     PROTO_MAX_PACKET_CHUNK
#define BIG_LIMIT ((size_t)1 << 30)

static uint8_t *make_payload(size_t len);
static void check_framing(const buf *wire, size_t len, uint8_t seq0);
static void check_begin_end_matches_write(size_t len);

/* A payload whose bytes depend on their offset, so a misplaced chunk shows. */
static uint8_t *
make_payload(size_t len)
{
    uint8_t *p = mem_alloc(len);
    for (size_t i = 0; i < len; i++) {
        p[i] = (uint8_t)(i * 7 + (i >> 24));
    }
    return p;
}

/* Walk the physical packets of wire by hand: chunks of CHUNK bytes, then one shorter (maybe
 * empty) chunk; consecutive sequence ids from seq0. */
static void
check_framing(const buf *wire, size_t len, uint8_t seq0)
{
    size_t off = 0;
    size_t left = len;
    uint8_t seq = seq0;
    for (;;) {
        cr_assert_leq(off + 4, wire->len);
        const uint8_t *h = wire->data + off;
        size_t chunk = (size_t)h[0] | ((size_t)h[1] << 8) | ((size_t)h[2] << 16);
        size_t want = left < CHUNK ? left : CHUNK;
        cr_assert_eq(chunk, want, "chunk at %zu: %zu, want %zu", off, chunk, want);
        cr_assert_eq(h[3], seq);
        seq++;
        off += 4 + chunk;
        left -= chunk;
        if (chunk < CHUNK) {
            break;
        }
    }
    cr_assert_eq(off, wire->len);
    cr_assert_eq(left, 0);
}

Test(proto_packet, single_packet_round_trip)
{
    buf wire;
    buf joined;
    buf_init(&wire);
    buf_init(&joined);
    uint8_t seq = 3;
    proto_packet_write(&wire, (const uint8_t *)"\x03SELECT 1", 9, &seq);
    cr_assert_eq(seq, 4);
    cr_assert_eq(wire.len, 13);
    cr_assert_eq(memcmp(wire.data, "\x09\x00\x00\x03\x03SELECT 1", 13), 0);

    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    int rc = proto_packet_next(wire.data, wire.len, 1024, &joined, &pkt, &used, &err);
    cr_assert_eq(rc, DB_OK);
    cr_assert_eq(used, 13);
    cr_assert_eq(pkt.len, 9);
    cr_assert_eq(pkt.seq, 3);
    cr_assert_eq(pkt.payload, wire.data + 4, "one physical packet is not copied");
    cr_assert_eq(joined.len, 0);
    buf_destroy(&wire);
    buf_destroy(&joined);
}

Test(proto_packet, empty_payload_is_one_empty_packet)
{
    buf wire;
    buf_init(&wire);
    uint8_t seq = 0;
    proto_packet_write(&wire, NULL, 0, &seq);
    cr_assert_eq(wire.len, 4);
    cr_assert_eq(memcmp(wire.data, "\x00\x00\x00\x00", 4), 0);
    cr_assert_eq(seq, 1);

    buf joined;
    buf_init(&joined);
    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    cr_assert_eq(proto_packet_next(wire.data, wire.len, 0, &joined, &pkt, &used, &err), DB_OK);
    cr_assert_eq(pkt.len, 0);
    cr_assert_eq(used, 4);
    buf_destroy(&wire);
    buf_destroy(&joined);
}

Test(proto_packet, sequence_id_wraps_at_256)
{
    buf wire;
    buf_init(&wire);
    uint8_t seq = 255;
    proto_packet_write(&wire, (const uint8_t *)"a", 1, &seq);
    proto_packet_write(&wire, (const uint8_t *)"b", 1, &seq);
    cr_assert_eq(wire.data[3], 255);
    cr_assert_eq(wire.data[8], 0);
    cr_assert_eq(seq, 1);
    buf_destroy(&wire);
}

Test(proto_packet, pipelined_packets_are_read_in_order)
{
    /* Connector/J writes several commands before reading; each call must take exactly one. */
    buf wire;
    buf joined;
    buf_init(&wire);
    buf_init(&joined);
    uint8_t seq = 0;
    proto_packet_write(&wire, (const uint8_t *)"\x0e", 1, &seq);
    seq = 0;
    proto_packet_write(&wire, (const uint8_t *)"\x03SELECT 2", 9, &seq);

    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    cr_assert_eq(proto_packet_next(wire.data, wire.len, 64, &joined, &pkt, &used, &err), DB_OK);
    cr_assert_eq(used, 5);
    cr_assert_eq(pkt.len, 1);
    cr_assert_eq(pkt.payload[0], PROTO_COM_PING);
    size_t off = used;
    cr_assert_eq(proto_packet_next(wire.data + off, wire.len - off, 64, &joined, &pkt, &used, &err),
                 DB_OK);
    cr_assert_eq(used, 13);
    cr_assert_eq(memcmp(pkt.payload, "\x03SELECT 2", 9), 0);
    buf_destroy(&wire);
    buf_destroy(&joined);
}

Test(proto_packet, partial_header_and_payload_give_again)
{
    const uint8_t wire[] = {0x05, 0x00, 0x00, 0x00, 0x03, 'S', 'H', 'O', 'W'};
    buf joined;
    buf_init(&joined);
    for (size_t k = 0; k < sizeof wire; k++) {
        uint8_t *copy = test_exact_copy(wire, k);
        proto_packet pkt;
        size_t used = 77;
        db_error err = {0};
        int rc = proto_packet_next(copy, k, 64, &joined, &pkt, &used, &err);
        cr_assert_eq(rc, DB_AGAIN, "prefix %zu", k);
        cr_assert_eq(used, 77, "nothing consumed on DB_AGAIN");
        cr_assert_eq(err.code, 0);
        mem_free(copy);
    }
    buf_destroy(&joined);
}

Test(proto_packet, max_len_is_enforced_from_the_header)
{
    /* Only the header of a 100-byte packet has arrived: refused already. */
    const uint8_t hdr[] = {100, 0, 0, 0};
    buf joined;
    buf_init(&joined);
    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    cr_assert_eq(proto_packet_next(hdr, sizeof hdr, 99, &joined, &pkt, &used, &err), DB_ERR);
    cr_assert_eq(err.code, 1153);
    cr_assert_str_eq(err.sqlstate, "08S01");

    /* Exactly max_len is fine (and then only waits for the body). */
    db_error_clear(&err);
    cr_assert_eq(proto_packet_next(hdr, sizeof hdr, 100, &joined, &pkt, &used, &err), DB_AGAIN);
    cr_assert_eq(err.code, 0);
    buf_destroy(&joined);
}

Test(proto_packet, split_at_exactly_one_chunk)
{
    size_t len = CHUNK;
    uint8_t *payload = make_payload(len);
    buf wire;
    buf joined;
    buf_init(&wire);
    buf_init(&joined);
    uint8_t seq = 0;
    proto_packet_write(&wire, payload, len, &seq);
    cr_assert_eq(seq, 2, "a full chunk is followed by an empty packet");
    cr_assert_eq(wire.len, len + 8);
    check_framing(&wire, len, 0);
    cr_assert_eq(memcmp(wire.data + wire.len - 4, "\x00\x00\x00\x01", 4), 0);

    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    cr_assert_eq(proto_packet_next(wire.data, wire.len, BIG_LIMIT, &joined, &pkt, &used, &err),
                 DB_OK);
    cr_assert_eq(used, wire.len);
    cr_assert_eq(pkt.len, len);
    cr_assert_eq(pkt.seq, 1, "seq of the last physical packet");
    cr_assert_eq(pkt.payload, joined.data);
    cr_assert_eq(memcmp(pkt.payload, payload, len), 0);

    /* Without the trailing empty packet the logical packet is not complete. */
    cr_assert_eq(proto_packet_next(wire.data, wire.len - 4, BIG_LIMIT, &joined, &pkt, &used, &err),
                 DB_AGAIN);
    /* max_len of exactly the payload accepts it; one less refuses it. */
    cr_assert_eq(proto_packet_next(wire.data, wire.len, len, &joined, &pkt, &used, &err), DB_OK);
    cr_assert_eq(proto_packet_next(wire.data, wire.len, len - 1, &joined, &pkt, &used, &err),
                 DB_ERR);
    cr_assert_eq(err.code, 1153);
    buf_destroy(&wire);
    buf_destroy(&joined);
    mem_free(payload);
}

Test(proto_packet, split_two_chunks_plus_five)
{
    size_t len = 2 * (size_t)CHUNK + 5;
    uint8_t *payload = make_payload(len);
    buf wire;
    buf joined;
    buf_init(&wire);
    buf_init(&joined);
    uint8_t seq = 7;
    proto_packet_write(&wire, payload, len, &seq);
    cr_assert_eq(seq, 10);
    cr_assert_eq(wire.len, len + 12);
    check_framing(&wire, len, 7);

    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    cr_assert_eq(proto_packet_next(wire.data, wire.len, BIG_LIMIT, &joined, &pkt, &used, &err),
                 DB_OK);
    cr_assert_eq(used, wire.len);
    cr_assert_eq(pkt.len, len);
    cr_assert_eq(pkt.seq, 9);
    cr_assert_eq(memcmp(pkt.payload, payload, len), 0);

    /* Cut points: inside the first header, inside the first chunk, between chunks, inside the
     * second header, inside the third header, one byte short of the end. */
    const size_t cuts[] = {
            2, 4 + 100, 4 + CHUNK, 4 + CHUNK + 2, 8 + 2 * (size_t)CHUNK + 3, wire.len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        cr_assert_eq(proto_packet_next(wire.data, cuts[i], BIG_LIMIT, &joined, &pkt, &used, &err),
                     DB_AGAIN, "cut at %zu", cuts[i]);
    }
    /* The limit trips on the third header, before the third chunk's bytes are there. */
    cr_assert_eq(proto_packet_next(wire.data, 8 + 2 * (size_t)CHUNK + 4, len - 1, &joined, &pkt,
                                   &used, &err),
                 DB_ERR);
    cr_assert_eq(err.code, 1153);
    buf_destroy(&wire);
    buf_destroy(&joined);
    mem_free(payload);
}

Test(proto_packet, begin_end_small)
{
    buf out;
    buf_init(&out);
    buf_append(&out, "xyz", 3); /* an earlier packet still in the buffer */
    uint8_t seq = 1;
    size_t begin = proto_packet_begin(&out);
    cr_assert_eq(begin, 3);
    buf_append(&out, "\x00\x00\x00\x02\x00\x00\x00", 7);
    proto_packet_end(&out, begin, &seq);
    cr_assert_eq(seq, 2);
    cr_assert_eq(out.len, 14);
    cr_assert_eq(memcmp(out.data, "xyz\x07\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00", 14), 0);

    /* An empty payload is one empty packet. */
    begin = proto_packet_begin(&out);
    proto_packet_end(&out, begin, &seq);
    cr_assert_eq(out.len, 18);
    cr_assert_eq(memcmp(out.data + 14, "\x00\x00\x00\x02", 4), 0);
    buf_destroy(&out);
}

/* begin/end must produce the very bytes proto_packet_write produces, split path included. */
static void
check_begin_end_matches_write(size_t len)
{
    uint8_t *payload = make_payload(len);
    buf expect;
    buf got;
    buf_init(&expect);
    buf_init(&got);
    buf_append(&expect, "pre", 3);
    buf_append(&got, "pre", 3);
    uint8_t seq_w = 250;
    uint8_t seq_b = 250;
    proto_packet_write(&expect, payload, len, &seq_w);
    size_t begin = proto_packet_begin(&got);
    buf_append(&got, payload, len);
    proto_packet_end(&got, begin, &seq_b);
    cr_assert_eq(seq_b, seq_w);
    cr_assert_eq(got.len, expect.len, "len %zu: %zu vs %zu", len, got.len, expect.len);
    cr_assert_eq(memcmp(got.data, expect.data, got.len), 0, "len %zu", len);

    buf joined;
    buf_init(&joined);
    proto_packet pkt;
    size_t used = 0;
    db_error err = {0};
    cr_assert_eq(
            proto_packet_next(got.data + 3, got.len - 3, BIG_LIMIT, &joined, &pkt, &used, &err),
            DB_OK);
    cr_assert_eq(pkt.len, len);
    cr_assert_eq(memcmp(pkt.payload, payload, len), 0);
    buf_destroy(&joined);
    buf_destroy(&expect);
    buf_destroy(&got);
    mem_free(payload);
}

Test(proto_packet, begin_end_below_chunk)
{
    check_begin_end_matches_write(CHUNK - 1);
}

Test(proto_packet, begin_end_splits_exactly_one_chunk)
{
    check_begin_end_matches_write(CHUNK);
}

Test(proto_packet, begin_end_splits_two_chunks_plus_five)
{
    check_begin_end_matches_write(2 * (size_t)CHUNK + 5);
}

Test(proto_packet, begin_end_splits_exactly_two_chunks)
{
    check_begin_end_matches_write(2 * (size_t)CHUNK);
}
