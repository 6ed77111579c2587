/* SPDX-License-Identifier: Apache-2.0
 * Unit tests for catalog/cat_editlog.c: the record codec, append/replay across segments, group
 * commit from 8 threads, torn-tail repair at every byte of the last record, refusal of damage
 * anywhere else (naming file and offset), checkpoints, orphan temp files, interrupted
 * checkpoints, sticky write failures, and kill -9 during an append storm. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cat_testutil.h"
#include "catalog/cat_int.h"
#include "common/buf.h"
#include "common/crc32c.h"
#include "common/log.h"

TestSuite(cat_editlog, .init = tu_setup, .fini = tu_teardown);
TestSuite(cat_record, .init = tu_setup, .fini = tu_teardown);

static const char *seg0(void);
static void fill_log(const char *dir, int n, tu_state *st);
static void *storm_thread(void *arg);

/* The first segment's name in a fresh log (first_seq 1). */
static const char *
seg0(void)
{
    return tu_path("editlog.00000000000000000001");
}

/* Fresh log in dir with n records key i -> 100 + i, then closed. */
static void
fill_log(const char *dir, int n, tu_state *st)
{
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(dir, NULL, st, &err);
    cr_assert_not_null(el, "%s", err.msg);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(tu_set(el, st, (uint64_t)i, 100u + (uint64_t)i), (uint64_t)i + 1);
    }
    cat_editlog_close(el);
}

/* ==== record codec ==================================================================== */

/* The bytes follow README.md §Formats "Record": offsets, little-endian, CRC coverage. */
Test(cat_record, layout_matches_the_documented_table)
{
    buf b;
    buf_init(&b);
    cat__rec_encode(&b, 0x1234, 0x0102030405060708ull, "hello", 5);
    cr_assert_eq(b.len, 18 + 5);
    cr_expect_eq(cat__get_u32(b.data), 5);
    cr_expect_eq(cat__get_u16(b.data + 8), 0x1234);
    cr_expect_eq(b.data[10], 0x08);
    cr_expect_eq(cat__get_u64(b.data + 10), 0x0102030405060708ull);
    cr_expect_eq(memcmp(b.data + 18, "hello", 5), 0);
    uint32_t crc = crc32c_extend(crc32c(b.data, 4), b.data + 8, 10 + 5);
    cr_expect_eq(cat__get_u32(b.data + 4), crc);
    buf_destroy(&b);
}

Test(cat_record, round_trip_of_many_records)
{
    buf b;
    buf_init(&b);
    uint8_t payload[300];
    for (size_t i = 0; i < sizeof payload; i++) {
        payload[i] = (uint8_t)(i * 31);
    }
    for (uint32_t i = 0; i < 200; i++) {
        cat__rec_encode(&b, (uint16_t)(1 + i % 7), 1000 + i, payload, i);
    }
    size_t off = 0;
    for (uint32_t i = 0; i < 200; i++) {
        cat__rec r;
        cr_assert_eq(cat__rec_decode(b.data + off, b.len - off, &r), CAT__REC_OK);
        cr_expect_eq(r.type, 1 + i % 7);
        cr_expect_eq(r.seq, 1000 + i);
        cr_expect_eq(r.len, i);
        cr_expect_eq(r.size, 18 + i);
        cr_expect_eq(memcmp(r.payload, payload, i), 0);
        off += r.size;
    }
    cr_expect_eq(off, b.len);
    buf_destroy(&b);
}

Test(cat_record, every_damage_is_detected)
{
    buf b;
    buf_init(&b);
    cat__rec_encode(&b, 7, 42, "0123456789abcdef", 16);
    cat__rec r;
    for (size_t cut = 0; cut < 18; cut++) {
        cr_expect_eq(cat__rec_decode(b.data, cut, &r), CAT__REC_SHORT_HEADER, "cut %zu", cut);
    }
    for (size_t cut = 18; cut < b.len; cut++) {
        cr_expect_eq(cat__rec_decode(b.data, cut, &r), CAT__REC_SHORT_PAYLOAD, "cut %zu", cut);
    }
    /* Any single flipped bit anywhere in the record is caught (length, CRC, type, seq, data). */
    for (size_t bit = 0; bit < b.len * 8; bit++) {
        b.data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        cr_expect_neq(cat__rec_decode(b.data, b.len, &r), CAT__REC_OK, "bit %zu", bit);
        b.data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    cr_expect_eq(cat__rec_decode(b.data, b.len, &r), CAT__REC_OK);
    /* A length beyond the limit is refused before anything is read. */
    cat__set_u32(b.data, CAT_EDITLOG_MAX_PAYLOAD + 1);
    cr_expect_eq(cat__rec_decode(b.data, b.len, &r), CAT__REC_TOO_LONG);
    /* Type 0 with a correct CRC is still not a record. */
    buf_clear(&b);
    cat__rec_encode(&b, 1, 1, "x", 1);
    cat__set_u16(b.data + 8, 0);
    cat__set_u32(b.data + 4, cat__rec_crc(b.data, 1));
    cr_expect_eq(cat__rec_decode(b.data, b.len, &r), CAT__REC_BAD_TYPE);
    buf_destroy(&b);
}

/* ==== append / replay ================================================================= */

Test(cat_editlog, empty_log_opens_and_replays_nothing)
{
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_expect_eq(s.next_seq, 1);
    cr_expect_eq(s.durable_seq, 0);
    cr_expect_eq(s.segments, 1);
    cr_expect_eq(st.nreplayed, 0);
    cr_expect(tu_exists(seg0()));
    cat_editlog_close(el);
}

Test(cat_editlog, round_trip_across_many_segments)
{
    cat_editlog_config cfg = {.segment_bytes = 300};
    tu_state st, st2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el, "%s", err.msg);
    for (uint64_t i = 0; i < 400; i++) {
        cr_assert_eq(tu_set(el, &st, i % TU_NKEYS, i * 7), i + 1);
    }
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_expect_eq(s.appends, 400);
    cr_expect_gt(s.segments, 20, "segments %llu", (unsigned long long)s.segments);
    cat_editlog_close(el);

    char names[128][64];
    cr_expect_eq(tu_list(tu_dir, "editlog.", names, 128), s.segments);
    el = tu_open(tu_dir, &cfg, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.nreplayed, 400);
    cr_expect(st2.in_order);
    cr_expect_eq(st2.last_seq, 400);
    cr_expect_eq(memcmp(st.vals, st2.vals, sizeof st.vals), 0);
    /* Appends continue the numbering after a restart. */
    cr_expect_eq(tu_set(el, &st2, 1, 1), 401);
    cat_editlog_close(el);
}

typedef struct gc_arg {
    cat_editlog *el;
    int id;
    int n;
    uint64_t *seqs; /* n sequence numbers this thread got */
    bool failed;    /* an append failed (asserts stay on the main thread) */
    char msg[512];
} gc_arg;

static void *
gc_thread(void *arg)
{
    gc_arg *a = arg;
    for (int i = 0; i < a->n; i++) {
        uint8_t p[16] = {0};
        uint64_t key = (uint64_t)a->id, val = (uint64_t)i;
        memcpy(p, &key, 8);
        memcpy(p + 8, &val, 8);
        db_error err;
        db_error_clear(&err);
        if (cat_editlog_append(a->el, TU_REC_SET, p, sizeof p, &a->seqs[i], &err) != DB_OK) {
            a->failed = true;
            snprintf(a->msg, sizeof a->msg, "%s", err.msg);
            return NULL;
        }
    }
    return NULL;
}

/* 8 threads x 1000 appends: every append durable and replayed once, in sequence order; the
 * writes were shared (fewer fsyncs than appends). */
Test(cat_editlog, group_commit_8_threads, .timeout = 60)
{
    enum { NT = 8, PER = 1000 };
    tu_state st, st2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el, "%s", err.msg);
    pthread_t th[NT];
    gc_arg args[NT];
    for (int t = 0; t < NT; t++) {
        args[t] = (gc_arg){.el = el, .id = t, .n = PER, .seqs = calloc(PER, sizeof(uint64_t))};
        cr_assert_eq(pthread_create(&th[t], NULL, gc_thread, &args[t]), 0);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        cr_assert_not(args[t].failed, "thread %d: %s", t, args[t].msg);
    }
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_expect_eq(s.appends, NT * PER);
    cr_expect_eq(s.durable_seq, NT * PER);
    cr_expect_lt(s.syncs, NT * PER, "syncs %llu", (unsigned long long)s.syncs);
    cr_log_info("group commit: %d appends, %llu fsyncs", NT * PER, (unsigned long long)s.syncs);
    cat_editlog_close(el);

    /* Each sequence number went to exactly one append, and each thread's grew. */
    uint8_t *seen = calloc(NT * PER + 1, 1);
    for (int t = 0; t < NT; t++) {
        for (int i = 0; i < PER; i++) {
            uint64_t q = args[t].seqs[i];
            cr_assert(q >= 1 && q <= NT * PER);
            cr_assert_eq(seen[q], 0, "seq %llu twice", (unsigned long long)q);
            seen[q] = 1;
            cr_assert(i == 0 || q > args[t].seqs[i - 1]);
        }
        free(args[t].seqs);
    }
    free(seen);
    el = tu_open(tu_dir, NULL, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.nreplayed, NT * PER);
    cr_expect(st2.in_order);
    for (int t = 0; t < NT; t++) {
        cr_expect_eq(st2.vals[t], PER - 1, "thread %d's last value", t);
    }
    cat_editlog_close(el);
}

/* Checkpoints taken while 4 threads append: no record is lost or replayed twice across the
 * image boundary (the image's seq plus the replayed records account for every append). */
Test(cat_editlog, checkpoint_during_concurrent_appends, .timeout = 60)
{
    enum { NT = 4, PER = 300 };
    cat_editlog_config cfg = {.segment_bytes = 1024};
    tu_state st, st2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el, "%s", err.msg);
    pthread_t th[NT];
    gc_arg args[NT];
    for (int t = 0; t < NT; t++) {
        args[t] = (gc_arg){.el = el, .id = t, .n = PER, .seqs = calloc(PER, sizeof(uint64_t))};
        cr_assert_eq(pthread_create(&th[t], NULL, gc_thread, &args[t]), 0);
    }
    int nckpt = 0;
    cat_editlog_stats s;
    do {
        cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
        nckpt++;
        cat_editlog_stats_get(el, &s);
    } while (s.appends < NT * PER);
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        cr_assert_not(args[t].failed, "thread %d: %s", t, args[t].msg);
        free(args[t].seqs);
    }
    cat_editlog_stats_get(el, &s);
    cr_log_info("%d checkpoints during %d appends; last image at %llu", nckpt, NT * PER,
                (unsigned long long)s.image_seq);
    cat_editlog_close(el);
    el = tu_open(tu_dir, &cfg, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect(st2.in_order);
    cr_expect_eq(st2.image_seq + st2.nreplayed, NT * PER);
    if (st2.nreplayed > 0) {
        cr_expect_eq(st2.last_seq, NT * PER);
    }
    cat_editlog_close(el);
}

Test(cat_editlog, oversized_record_is_refused)
{
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el);
    uint8_t dummy = 0;
    cr_expect_eq(
            cat_editlog_append(el, TU_REC_SET, &dummy, CAT_EDITLOG_MAX_PAYLOAD + 1ull, NULL, &err),
            DB_ERR);
    cr_expect_eq(err.code, 1105);
    cr_expect_not_null(strstr(err.msg, "exceeds the limit"), "%s", err.msg);
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_expect_eq(s.next_seq, 1);
    cat_editlog_close(el);
}

/* ==== torn tails and corruption ======================================================= */

/* Cut the last record at every byte offset: open cuts the torn tail (with a warning naming the
 * file and offset), replays the first n-1 records, and the log keeps working. */
Test(cat_editlog, torn_tail_at_every_byte_of_the_last_record, .timeout = 60)
{
    enum { N = 5 };
    tu_state st;
    char pristine[256];
    snprintf(pristine, sizeof pristine, "%s/pristine", tu_dir);
    char logdir[256];
    snprintf(logdir, sizeof logdir, "%s/log", tu_dir);
    char seg[320];
    snprintf(seg, sizeof seg, "%s/editlog.00000000000000000001", logdir);
    fill_log(logdir, N, &st);
    tu_copy_file(seg, pristine);
    long offs[16];
    cr_assert_eq(tu_record_offsets(seg, offs, 16), N);
    long start = offs[N - 1], end = tu_file_size(seg);
    cr_assert_eq(end - start, 18 + 16);
    cr_assert_eq(log_open_file(tu_path("rivulet.log")), 0);

    for (long cut = start; cut < end; cut++) {
        tu_copy_file(pristine, seg);
        tu_truncate(seg, cut);
        tu_state s2;
        db_error err;
        db_error_clear(&err);
        cat_editlog *el = tu_open(logdir, NULL, &s2, &err);
        cr_assert_not_null(el, "cut %ld: %s", cut, err.msg);
        cr_assert_eq(s2.nreplayed, N - 1, "cut %ld", cut);
        cr_assert_eq(tu_file_size(seg), start, "cut %ld", cut);
        cat_editlog_stats s;
        cat_editlog_stats_get(el, &s);
        cr_assert_eq(s.torn_bytes_cut, (uint64_t)(cut - start));
        cr_assert_eq(tu_set(el, &s2, 9, 99), N, "the next append reuses the lost number");
        cat_editlog_close(el);
        el = tu_open(logdir, NULL, &s2, &err);
        cr_assert_not_null(el, "%s", err.msg);
        cr_assert_eq(s2.nreplayed, N);
        cr_assert_eq(s2.vals[9], 99);
        cat_editlog_close(el);
    }
    log_close();
    char *text = tu_read_text(tu_path("rivulet.log"));
    char want[512];
    snprintf(want, sizeof want, "%s: torn record at offset %ld", seg, start);
    cr_expect_not_null(strstr(text, want), "log: %s", text);
    free(text);
}

/* Damage any byte of the last record (a torn write that left garbage instead of a short file):
 * still a torn tail, cut off. */
Test(cat_editlog, garbage_in_the_last_record_is_a_torn_tail, .timeout = 60)
{
    enum { N = 4 };
    tu_state st;
    fill_log(tu_dir, N, &st);
    char pristine[256];
    snprintf(pristine, sizeof pristine, "%s/pristine", tu_dir);
    tu_copy_file(seg0(), pristine);
    long offs[8];
    cr_assert_eq(tu_record_offsets(seg0(), offs, 8), N);
    long start = offs[N - 1], end = tu_file_size(seg0());
    for (long off = start; off < end; off++) {
        tu_copy_file(pristine, seg0());
        tu_flip_byte(seg0(), off);
        tu_state s2;
        db_error err;
        db_error_clear(&err);
        cat_editlog *el = tu_open(tu_dir, NULL, &s2, &err);
        cr_assert_not_null(el, "flip at %ld: %s", off, err.msg);
        cr_assert_eq(s2.nreplayed, N - 1, "flip at %ld", off);
        cr_assert_eq(tu_file_size(seg0()), start);
        cat_editlog_close(el);
    }
}

/* A zero-filled tail (the file grew but the data never reached the disk) is a torn tail too. */
Test(cat_editlog, zero_filled_tail_is_cut)
{
    tu_state st;
    fill_log(tu_dir, 3, &st);
    long size = tu_file_size(seg0());
    tu_truncate(seg0(), size + 4096);
    tu_state s2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &s2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(s2.nreplayed, 3);
    cr_expect_eq(tu_file_size(seg0()), size);
    cat_editlog_close(el);
}

/* A bad CRC in the middle of the last segment (valid records follow) refuses to start, naming
 * the file and the offset of the damaged record; the file is left untouched. */
Test(cat_editlog, crc_corruption_in_the_middle_is_refused)
{
    enum { N = 6 };
    tu_state st;
    fill_log(tu_dir, N, &st);
    long offs[8];
    cr_assert_eq(tu_record_offsets(seg0(), offs, 8), N);
    long size = tu_file_size(seg0());
    for (int victim = 0; victim < N - 1; victim++) {
        for (long delta = 0; delta < 34; delta += 11) {
            long off = offs[victim] + delta;
            tu_flip_byte(seg0(), off);
            tu_state s2;
            db_error err;
            db_error_clear(&err);
            cr_assert_null(tu_open(tu_dir, NULL, &s2, &err), "record %d", victim);
            cr_expect_eq(err.code, 1105);
            char want[256];
            snprintf(want, sizeof want, "Metadata file '%s' is corrupt at offset %ld: ", seg0(),
                     offs[victim]);
            cr_expect_not_null(strstr(err.msg, want), "got: %s\nwant: %s", err.msg, want);
            cr_expect_eq(tu_file_size(seg0()), size, "nothing was cut");
            tu_flip_byte(seg0(), off);
        }
    }
    tu_state s3;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &s3, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(s3.nreplayed, N);
    cat_editlog_close(el);
}

/* Damage at the end of a segment that is not the last one is never a torn tail: that segment
 * was complete and synced before the next one began. */
Test(cat_editlog, damage_in_an_earlier_segment_is_refused)
{
    cat_editlog_config cfg = {.segment_bytes = 100};
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el);
    for (int i = 0; i < 20; i++) {
        tu_set(el, &st, (uint64_t)i, (uint64_t)i);
    }
    cat_editlog_close(el);
    char names[64][64];
    size_t n = tu_list(tu_dir, "editlog.", names, 64);
    cr_assert_gt(n, 3);
    const char *victim = tu_path(names[1]);
    long offs[16];
    size_t nrec = tu_record_offsets(victim, offs, 16);
    cr_assert_geq(nrec, 1);
    long size = tu_file_size(victim);
    tu_truncate(victim, size - 1);
    cr_assert_null(tu_open(tu_dir, &cfg, &st, &err));
    char want[256];
    snprintf(want, sizeof want, "'%s' is corrupt at offset %ld", victim, offs[nrec - 1]);
    cr_expect_not_null(strstr(err.msg, want), "%s", err.msg);
    cr_expect_eq(tu_file_size(victim), size - 1, "an earlier segment is never cut");
}

/* A missing middle segment is a gap in the sequence numbers: refused. */
Test(cat_editlog, missing_segment_is_refused)
{
    cat_editlog_config cfg = {.segment_bytes = 100};
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el);
    for (int i = 0; i < 20; i++) {
        tu_set(el, &st, (uint64_t)i, (uint64_t)i);
    }
    cat_editlog_close(el);
    char names[64][64];
    size_t n = tu_list(tu_dir, "editlog.", names, 64);
    cr_assert_gt(n, 3);
    cr_assert_eq(unlink(tu_path(names[2])), 0);
    cr_assert_null(tu_open(tu_dir, &cfg, &st, &err));
    cr_expect_not_null(strstr(err.msg, names[3]), "%s", err.msg);
    cr_expect_not_null(strstr(err.msg, "segment starts at record"), "%s", err.msg);
}

Test(cat_editlog, bad_segment_header_is_refused)
{
    tu_state st;
    fill_log(tu_dir, 2, &st);
    tu_flip_byte(seg0(), 3);
    db_error err;
    db_error_clear(&err);
    cr_assert_null(tu_open(tu_dir, NULL, &st, &err));
    cr_expect_not_null(strstr(err.msg, "at offset 0: bad segment header"), "%s", err.msg);
}

Test(cat_editlog, unknown_record_type_is_refused_at_replay)
{
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el);
    tu_set(el, &st, 1, 1);
    cr_assert_eq(cat_editlog_append(el, TU_REC_OTHER, "zz", 2, NULL, &err), DB_OK);
    cat_editlog_close(el);
    long offs[4];
    cr_assert_eq(tu_record_offsets(seg0(), offs, 4), 2);
    cr_assert_null(tu_open(tu_dir, NULL, &st, &err));
    char want[256];
    snprintf(want, sizeof want, "'%s' is corrupt at offset %ld: record type %d has no replay",
             seg0(), offs[1], TU_REC_OTHER);
    cr_expect_not_null(strstr(err.msg, want), "%s", err.msg);
}

/* After a failed write or fsync the log refuses appends (fsyncgate); acknowledged records are
 * still there after a restart. */
Test(cat_editlog, write_failure_is_sticky)
{
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el);
    tu_set(el, &st, 1, 11);
    tu_set(el, &st, 2, 22);
    cat__editlog_inject_write_error(el, EIO);
    cr_expect_eq(cat_editlog_append(el, TU_REC_SET, "0123456789abcdef", 16, NULL, &err), DB_ERR);
    cr_expect_not_null(strstr(err.msg, "Edit log is unusable after a write failure"), "%s",
                       err.msg);
    cr_expect_not_null(strstr(err.msg, strerror(EIO)), "%s", err.msg);
    db_error_clear(&err);
    cr_expect_eq(cat_editlog_append(el, TU_REC_SET, "0123456789abcdef", 16, NULL, &err), DB_ERR);
    db_error_clear(&err);
    cr_expect_eq(cat_editlog_checkpoint(el, &err), DB_ERR);
    cat_editlog_close(el);
    tu_state s2;
    el = tu_open(tu_dir, NULL, &s2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(s2.nreplayed, 2);
    cr_expect_eq(s2.vals[2], 22);
    cat_editlog_close(el);
}

/* ==== checkpoint ====================================================================== */

Test(cat_editlog, checkpoint_then_replay_equals_the_state)
{
    cat_editlog_config cfg = {.segment_bytes = 400};
    tu_state st, st2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el);
    for (uint64_t i = 0; i < 300; i++) {
        tu_set(el, &st, (i * 13) % TU_NKEYS, i);
    }
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
    char names[64][64];
    cr_expect_eq(tu_list(tu_dir, "image.", names, 64), 1);
    cr_expect_str_eq(names[0], "image.00000000000000000300");
    cr_expect_eq(tu_list(tu_dir, "editlog.", names, 64), 1, "covered segments are gone");
    cr_expect_str_eq(names[0], "editlog.00000000000000000301");
    for (uint64_t i = 0; i < 50; i++) {
        tu_set(el, &st, i, 5000 + i);
    }
    cat_editlog_close(el);

    el = tu_open(tu_dir, &cfg, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.image_seq, 300);
    cr_expect_eq(st2.nreplayed, 50);
    cr_expect(st2.in_order);
    cr_expect_eq(st2.napplied, 350);
    cr_expect_eq(memcmp(st.vals, st2.vals, sizeof st.vals), 0);

    /* A second checkpoint replaces the first image. */
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(tu_list(tu_dir, "image.", names, 64), 1);
    cr_expect_str_eq(names[0], "image.00000000000000000350");
    cat_editlog_stats s;
    cat_editlog_stats_get(el, &s);
    cr_expect_eq(s.image_seq, 350);
    cr_expect_eq(s.records_since_image, 0);
    cat_editlog_close(el);
    el = tu_open(tu_dir, &cfg, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.nreplayed, 0);
    cr_expect_eq(memcmp(st.vals, st2.vals, sizeof st.vals), 0);
    /* A checkpoint with nothing new keeps the same image and segment. */
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
    cr_expect_eq(tu_list(tu_dir, "editlog.", names, 64), 1);
    cat_editlog_close(el);
}

/* A crash between the image rename and the deletions leaves the old image and covered
 * segments behind; open removes them and replays from the new image. */
Test(cat_editlog, interrupted_checkpoint_leftovers_are_removed)
{
    cat_editlog_config cfg = {.segment_bytes = 200};
    tu_state st, st2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el);
    for (uint64_t i = 0; i < 40; i++) {
        tu_set(el, &st, i, i + 1);
    }
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK);
    for (uint64_t i = 0; i < 40; i++) {
        tu_set(el, &st, i, i + 2);
    }
    /* Save what the second checkpoint will delete. */
    char names[64][64];
    size_t n = tu_list(tu_dir, "editlog.", names, 64);
    cr_assert_gt(n, 2);
    char saved[64][64];
    for (size_t i = 0; i < n; i++) {
        snprintf(saved[i], 64, "%s", names[i]);
        char to[128];
        snprintf(to, sizeof to, "save.%s", names[i]);
        tu_copy_file(tu_path(names[i]), tu_path(to));
    }
    tu_copy_file(tu_path("image.00000000000000000040"), tu_path("save.image"));
    for (uint64_t i = 0; i < 5; i++) {
        tu_set(el, &st, i, i + 3);
    }
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK);
    for (uint64_t i = 0; i < 5; i++) {
        tu_set(el, &st, 100 + i, 7);
    }
    cat_editlog_close(el);
    /* Put the deleted files back, as if the crash had come before the deletions. */
    for (size_t i = 0; i < n; i++) {
        char from[128];
        snprintf(from, sizeof from, "save.%s", saved[i]);
        tu_copy_file(tu_path(from), tu_path(saved[i]));
        unlink(tu_path(from));
    }
    tu_copy_file(tu_path("save.image"), tu_path("image.00000000000000000040"));
    unlink(tu_path("save.image"));

    el = tu_open(tu_dir, &cfg, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.image_seq, 85);
    cr_expect_eq(st2.nreplayed, 5);
    cr_expect_eq(memcmp(st.vals, st2.vals, sizeof st.vals), 0);
    cr_expect_eq(tu_list(tu_dir, "image.", names, 64), 1);
    cr_expect_str_eq(names[0], "image.00000000000000000085");
    /* Only the segments after the image remain (the last 5 records rolled into a second). */
    cr_assert_geq(tu_list(tu_dir, "editlog.", names, 64), 1);
    cr_expect_str_eq(names[0], "editlog.00000000000000000086");
    cat_editlog_close(el);
}

/* A crash after the image rename but before the new segment was created leaves a segment whose
 * records the image already holds; appends continue in it and replay skips the covered ones. */
Test(cat_editlog, segment_partly_covered_by_the_image)
{
    tu_state st, st2;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el);
    for (uint64_t i = 0; i < 10; i++) {
        tu_set(el, &st, i, i + 1);
    }
    tu_copy_file(seg0(), tu_path("save"));
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
    cat_editlog_close(el);
    cr_assert_eq(unlink(tu_path("editlog.00000000000000000011")), 0);
    tu_copy_file(tu_path("save"), seg0());

    el = tu_open(tu_dir, NULL, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.image_seq, 10);
    cr_expect_eq(st2.nreplayed, 0, "records in the image are not replayed again");
    cr_expect_eq(st2.napplied, 10);
    for (uint64_t i = 0; i < 5; i++) {
        cr_expect_eq(tu_set(el, &st2, 20 + i, 3), 11 + i);
    }
    cat_editlog_close(el);
    el = tu_open(tu_dir, NULL, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_eq(st2.nreplayed, 5);
    cr_expect_eq(st2.napplied, 15);
    cr_expect_eq(st2.vals[24], 3);
    cr_expect_eq(st2.vals[9], 10);
    cat_editlog_close(el);
}

/* An image newer than the end of the log means acknowledged records vanished: refused. */
Test(cat_editlog, log_shorter_than_the_image_is_refused)
{
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el);
    for (uint64_t i = 0; i < 10; i++) {
        tu_set(el, &st, i, i + 1);
    }
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK, "%s", err.msg);
    cat_editlog_close(el);
    cr_assert_eq(unlink(tu_path("editlog.00000000000000000011")), 0);
    /* Recreate segment 1 with only 5 records. */
    tu_state st2;
    char other[256];
    snprintf(other, sizeof other, "%s/other", tu_dir);
    fill_log(other, 5, &st2);
    char from[320];
    snprintf(from, sizeof from, "%s/editlog.00000000000000000001", other);
    tu_copy_file(from, seg0());
    cr_assert_null(tu_open(tu_dir, NULL, &st, &err));
    cr_expect_not_null(strstr(err.msg, "log ends before the last record of the image"), "%s",
                       err.msg);
}

Test(cat_editlog, orphan_temp_files_are_removed)
{
    tu_state st, st2;
    fill_log(tu_dir, 3, &st);
    FILE *f = fopen(tu_path("image.tmp"), "w");
    cr_assert_not_null(f);
    fputs("half an image", f);
    fclose(f);
    f = fopen(tu_path("editlog.tmp"), "w");
    cr_assert_not_null(f);
    fclose(f);
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st2, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect_not(tu_exists(tu_path("image.tmp")));
    cr_expect_not(tu_exists(tu_path("editlog.tmp")));
    cr_expect_eq(st2.nreplayed, 3);
    cr_expect_eq(memcmp(st.vals, st2.vals, sizeof st.vals), 0);
    cat_editlog_close(el);
}

Test(cat_editlog, corrupt_image_is_refused)
{
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el);
    tu_set(el, &st, 1, 1);
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK);
    cat_editlog_close(el);
    const char *img = tu_path("image.00000000000000000001");
    tu_flip_byte(img, 32 + 16 + 100);
    cr_assert_null(tu_open(tu_dir, NULL, &st, &err));
    char want[256];
    snprintf(want, sizeof want, "'%s' is corrupt at offset 32: image section checksum", img);
    cr_expect_not_null(strstr(err.msg, want), "%s", err.msg);
}

Test(cat_editlog, checkpoint_due_by_records_and_bytes)
{
    cat_editlog_config cfg = {.checkpoint_records = 10};
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el);
    for (int i = 0; i < 9; i++) {
        tu_set(el, &st, 1, 1);
    }
    cr_expect_not(cat_editlog_checkpoint_due(el));
    tu_set(el, &st, 1, 1);
    cr_expect(cat_editlog_checkpoint_due(el));
    cat_editlog_close(el);
    /* The count survives a restart (replayed records count). */
    el = tu_open(tu_dir, &cfg, &st, &err);
    cr_assert_not_null(el);
    cr_expect(cat_editlog_checkpoint_due(el));
    cr_assert_eq(cat_editlog_checkpoint(el, &err), DB_OK);
    cr_expect_not(cat_editlog_checkpoint_due(el));
    cat_editlog_close(el);

    cat_editlog_config cfg2 = {.checkpoint_bytes = 5 * 34};
    el = tu_open(tu_dir, &cfg2, &st, &err);
    cr_assert_not_null(el);
    for (int i = 0; i < 4; i++) {
        tu_set(el, &st, 1, 1);
    }
    cr_expect_not(cat_editlog_checkpoint_due(el));
    tu_set(el, &st, 1, 1);
    cr_expect(cat_editlog_checkpoint_due(el));
    cat_editlog_close(el);
}

/* Start-up over 10,000 tables' worth of log (10,000 records of 200 bytes) takes well under a
 * second. The segment is built here from the documented format (README.md §Formats), which also
 * checks the segment header layout independently of the writer. */
Test(cat_editlog, open_and_replay_of_10000_records_is_fast, .timeout = 30)
{
    enum { N = 10000, PAY = 200 };
    buf b;
    buf_init(&b);
    uint8_t h[32] = {0};
    memcpy(h, "RVLTELOG", 8);
    cat__set_u32(h + 8, 1);
    cat__set_u64(h + 16, 1);
    cat__set_u32(h + 24, crc32c(h, 24));
    buf_append(&b, h, sizeof h);
    uint8_t p[PAY];
    memset(p, 0, sizeof p);
    for (uint64_t i = 0; i < N; i++) {
        cat__set_u64(p, i % TU_NKEYS);
        cat__set_u64(p + 8, i);
        cat__rec_encode(&b, TU_REC_SET, i + 1, p, PAY);
    }
    FILE *f = fopen(seg0(), "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(b.data, 1, b.len, f), b.len);
    fclose(f);
    buf_destroy(&b);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert_not_null(el, "%s", err.msg);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_log_info("open + replay of %d records: %.1f ms", N, secs * 1e3);
    cr_expect_eq(st.nreplayed, N);
    cr_expect(st.in_order);
    cr_expect_eq(st.vals[(N - 1) % TU_NKEYS], N - 1);
    cr_expect_lt(secs, 1.0, "start-up took %.3f s", secs);
    cat_editlog_close(el);
}

/* ==== kill -9 during an append storm ================================================== */

typedef struct storm_arg {
    cat_editlog *el;
    int id;
    int ack_fd;
    pthread_mutex_t *ack_mu;
} storm_arg;

/* Append forever; after each acknowledged append report (seq, key, value) on the pipe. */
static void *
storm_thread(void *arg)
{
    storm_arg *a = arg;
    for (uint64_t i = 0;; i++) {
        uint8_t p[16];
        uint64_t key = (uint64_t)a->id, val = i;
        memcpy(p, &key, 8);
        memcpy(p + 8, &val, 8);
        db_error err;
        db_error_clear(&err);
        uint64_t seq;
        if (cat_editlog_append(a->el, TU_REC_SET, p, sizeof p, &seq, &err) != DB_OK) {
            _exit(3);
        }
        uint64_t msg[3] = {seq, key, val};
        pthread_mutex_lock(a->ack_mu);
        if (write(a->ack_fd, msg, sizeof msg) != (ssize_t)sizeof msg) {
            _exit(4);
        }
        pthread_mutex_unlock(a->ack_mu);
    }
    return NULL;
}

/* Every append acknowledged before SIGKILL is replayed after it; replay is gap-free. */
Test(cat_editlog, kill_9_during_append_storm_loses_nothing_acknowledged, .timeout = 60)
{
    enum { NT = 4, ACKS = 300 };
    int pfd[2];
    cr_assert_eq(pipe(pfd), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(pfd[0]);
        cat_editlog_config cfg = {.segment_bytes = 2048};
        tu_state st;
        db_error err;
        db_error_clear(&err);
        cat_editlog *el = tu_open(tu_dir, &cfg, &st, &err);
        if (el == NULL) {
            _exit(2);
        }
        static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
        static storm_arg args[NT];
        pthread_t th[NT];
        for (int t = 0; t < NT; t++) {
            args[t] = (storm_arg){el, t, pfd[1], &mu};
            pthread_create(&th[t], NULL, storm_thread, &args[t]);
        }
        for (;;) {
            pause();
        }
    }
    close(pfd[1]);
    uint64_t acked_val[NT];
    int has_ack[NT] = {0};
    uint64_t max_seq = 0;
    size_t nack = 0;
    uint64_t msg[3];
    while (nack < ACKS && read(pfd[0], msg, sizeof msg) == (ssize_t)sizeof msg) {
        acked_val[msg[1]] = msg[2];
        has_ack[msg[1]] = 1;
        max_seq = msg[0] > max_seq ? msg[0] : max_seq;
        nack++;
    }
    cr_assert_eq(nack, ACKS, "the child died early");
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    /* Acknowledgements that were in flight when the child died count too. */
    while (read(pfd[0], msg, sizeof msg) == (ssize_t)sizeof msg) {
        acked_val[msg[1]] = msg[2];
        has_ack[msg[1]] = 1;
        max_seq = msg[0] > max_seq ? msg[0] : max_seq;
    }
    close(pfd[0]);

    tu_state st;
    db_error err;
    db_error_clear(&err);
    cat_editlog *el = tu_open(tu_dir, NULL, &st, &err);
    cr_assert_not_null(el, "%s", err.msg);
    cr_expect(st.in_order);
    cr_expect_geq(st.last_seq, max_seq);
    for (int t = 0; t < NT; t++) {
        if (has_ack[t]) {
            cr_expect_geq(st.vals[t], acked_val[t], "thread %d", t);
        }
    }
    cat_editlog_close(el);
}
