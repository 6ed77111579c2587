#!/usr/bin/env python3
"""Row Binlog / Table Stream benchmarks against one running Rivulet (bench/binlog/run.sh).

Prints figures and ratios, never pass/fail:
  1. ingest with binlog off vs on (DUP; MoW insert-only; MoW 50% updates with before images);
  2. change reads: @incr DETAIL and MIN_DELTA over all changes, changes/s;
  3. window cost: the same 10k-change window read from a small and a big table (time ratio);
  4. storage: binlog bytes per change record vs raw row bytes;
  5. streams: INSERT ... SELECT from a min_delta stream with ~rows pending changes (changes/s),
     and consuming 10k changes from the small vs the big table (time ratio).
"""
import argparse
import datetime
import os
import time

import pymysql

BATCH = 10000


def connect(port):
    return pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True,
                           max_allowed_packet=256 << 20)


def q(conn, sql):
    with conn.cursor() as c:
        c.execute(sql)
        return c.fetchall()


def timed(conn, statements):
    t0 = time.perf_counter()
    with conn.cursor() as c:
        for s in statements:
            c.execute(s)
    return time.perf_counter() - t0


def value_rows(keys, salt):
    return ",".join("(%d,%d,'c%d',%d.%02d)" % (k, (k * 7919 + salt) % 1000003, k % 1000,
                                                 k % 10000, salt % 100) for k in keys)


def statements(table, keys, salt):
    out = []
    for i in range(0, len(keys), BATCH):
        out.append("INSERT INTO %s VALUES %s" % (table, value_rows(keys[i:i + BATCH], salt)))
    return out


def create(conn, name, mow, binlog, history=True, buckets=8):
    props = []
    if mow:
        props.append('"enable_unique_key_merge_on_write" = "true"')
    if binlog:
        props += ['"binlog.enable" = "true"', '"binlog.format" = "ROW"']
        if mow and history:
            props.append('"binlog.need_historical_value" = "true"')
    q(conn, "DROP TABLE IF EXISTS %s FORCE" % name)
    q(conn, "CREATE TABLE %s (k BIGINT, v BIGINT, c VARCHAR(16), d DECIMAL(10,2)) %s KEY(k) "
            "DISTRIBUTED BY HASH(k) BUCKETS %d PROPERTIES (%s)"
      % (name, "UNIQUE" if mow else "DUPLICATE", buckets, ", ".join(props) or
         '"replication_num" = "1"'))


def du(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def next_second_utc(conn):
    """Sleep to the next whole second and return it as 'YYYY-MM-DD HH:MM:SS' (UTC)."""
    now = time.time()
    target = int(now) + 1
    time.sleep(target - now + 0.05)
    return datetime.datetime.utcfromtimestamp(target).strftime("%Y-%m-%d %H:%M:%S")


def ingest(conn, rows):
    print("== ingest: binlog off vs on (%d rows, %d-row INSERT statements)" % (rows, BATCH))
    keys = list(range(rows))
    cases = []
    # DUP
    for name, mow, on in (("dup_off", False, False), ("dup_on", False, True)):
        create(conn, name, mow, on)
    stmts = {n: statements(n, keys, 1) for n in ("dup_off", "dup_on")}
    t = {n: timed(conn, stmts[n]) for n in ("dup_off", "dup_on")}
    cases.append(("DUP", t["dup_off"], t["dup_on"]))
    # MoW insert-only
    for name, on in (("mow_off", False), ("mow_on", True)):
        create(conn, name, True, on)
    stmts = {n: statements(n, keys, 1) for n in ("mow_off", "mow_on")}
    t = {n: timed(conn, stmts[n]) for n in ("mow_off", "mow_on")}
    cases.append(("MoW insert-only", t["mow_off"], t["mow_on"]))
    # MoW 50% updates with before images: half the keys exist already
    for name, on in (("upd_off", False), ("upd_on", True)):
        create(conn, name, True, on)
        timed(conn, statements(name, list(range(0, rows, 2)), 1))
    stmts = {n: statements(n, keys, 2) for n in ("upd_off", "upd_on")}
    t = {n: timed(conn, stmts[n]) for n in ("upd_off", "upd_on")}
    cases.append(("MoW 50% updates, before images", t["upd_off"], t["upd_on"]))
    for what, off, on in cases:
        print("  %-34s off %8.0f rows/s   on %8.0f rows/s   loss %5.1f%%"
              % (what, rows / off, rows / on, 100.0 * (1 - off / on)))


def change_reads(conn, rows):
    print("== change reads (@incr over every change of upd_on)")
    n = q(conn, "SELECT COUNT(*) FROM binlog('table' = 'upd_on')")[0][0]
    for mode in ("DETAIL", "MIN_DELTA", "APPEND_ONLY"):
        t0 = time.perf_counter()
        out = q(conn, "SELECT COUNT(*) FROM upd_on@incr('incrementType' = '%s')" % mode)[0][0]
        dt = time.perf_counter() - t0
        print("  %-11s %8d records -> %8d rows in %.3f s: %10.0f changes/s"
              % (mode, n, out, dt, n / dt))


def table_bytes(conn, storage_dir, table):
    """Bytes of the segment files of table's tablets (tablet id = partition id << 16 | bucket)."""
    parts = {int(r[0]) for r in q(conn, "SHOW PARTITIONS FROM %s" % table)}
    total = 0
    for name in os.listdir(storage_dir):
        if name.isdigit() and int(name) >> 16 in parts:
            total += du(os.path.join(storage_dir, name))
    return total


def storage(conn, storage_dir):
    print("== storage: binlog files are hard links of the data segments; the extra bytes are the")
    print("   op and before-image columns stored next to the rows (table on vs off, same rows)")
    raw = 8 + 8 + 4 + 16  # value bytes of one row: BIGINT, BIGINT, ~4-byte VARCHAR, DECIMAL
    for off, on in (("dup_off", "dup_on"), ("mow_off", "mow_on"), ("upd_off", "upd_on")):
        recs = q(conn, "SELECT COUNT(*) FROM binlog('table' = '%s')" % on)[0][0]
        b_off, b_on = table_bytes(conn, storage_dir, off), table_bytes(conn, storage_dir, on)
        print("  %-7s %8d records: data %.1f MB off, %.1f MB on: %+.1f bytes/record "
              "(raw row %d bytes)" % (on, recs, b_off / 1e6, b_on / 1e6,
                                      (b_on - b_off) / max(recs, 1), raw))


def window_cost(conn, small, big):
    print("== window cost: 10k changes read from a %d-row and a %d-row table" % (small, big))
    res = {}
    for name, n in (("w_small", small), ("w_big", big)):
        create(conn, name, True, True)
        keys = list(range(n))
        for i in range(0, n, 100000):
            timed(conn, statements(name, keys[i:i + 100000], 1))
        q(conn, "CREATE STREAM IF NOT EXISTS %s_s ON TABLE %s" % (name, name))
    start = next_second_utc(conn)
    q(conn, "SET time_zone = '+00:00'")
    for name, n in (("w_small", small), ("w_big", big)):
        step = max(1, n // 10000)
        timed(conn, statements(name, list(range(0, n, step))[:10000], 3))
    for name in ("w_small", "w_big"):
        best = None
        for _ in range(3):
            t0 = time.perf_counter()
            out = q(conn, "SELECT COUNT(*) FROM %s@incr('startTimestamp' = '%s', "
                          "'incrementType' = 'DETAIL')" % (name, start))[0][0]
            dt = time.perf_counter() - t0
            best = dt if best is None else min(best, dt)
        res[name] = best
        print("  %-8s @incr window: %d change rows in %.4f s" % (name, out, best))
    print("  time ratio big/small: %.2f (target <= 2)" % (res["w_big"] / res["w_small"]))
    # streams: consume the same 10k changes
    cons = {}
    for name in ("w_small", "w_big"):
        create(conn, name + "_t", True, False)
        t0 = time.perf_counter()
        q(conn, "INSERT INTO %s_t (k, v, c, d, __DORIS_DELETE_SIGN__) SELECT k, v, c, d, "
                "CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END "
                "FROM %s_s WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN "
                "('APPEND', 'UPDATE_AFTER', 'DELETE')" % (name, name))
        cons[name] = time.perf_counter() - t0
        print("  %-8s stream consumption of 10k changes: %.4f s" % (name, cons[name]))
    print("  stream lag ratio big/small: %.2f (target <= 2)" % (cons["w_big"] / cons["w_small"]))


def stream_throughput(conn, rows):
    print("== stream consumption throughput (min_delta -> UNIQUE target)")
    create(conn, "st_src", True, True)
    create(conn, "st_dst", True, False)
    q(conn, "CREATE STREAM IF NOT EXISTS st_s ON TABLE st_src")
    timed(conn, statements("st_src", list(range(rows)), 1))
    t0 = time.perf_counter()
    q(conn, "INSERT INTO st_dst (k, v, c, d, __DORIS_DELETE_SIGN__) SELECT k, v, c, d, "
            "CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END FROM st_s "
            "WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER', 'DELETE')")
    dt = time.perf_counter() - t0
    print("  %d pending changes consumed in %.3f s: %.0f changes/s (target >= 1M/s)"
          % (rows, dt, rows / dt))
    same = q(conn, "SELECT (SELECT COUNT(*) FROM st_src) = (SELECT COUNT(*) FROM st_dst)")[0][0]
    print("  target equals base row count: %s" % bool(same))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--big", type=int, default=10000000)
    ap.add_argument("--small", type=int, default=100000)
    ap.add_argument("--storage", required=True)
    a = ap.parse_args()
    conn = connect(a.port)
    q(conn, "CREATE DATABASE IF NOT EXISTS bench")
    q(conn, "USE bench")
    ingest(conn, a.rows)
    change_reads(conn, a.rows)
    storage(conn, a.storage)
    stream_throughput(conn, a.rows)
    window_cost(conn, a.small, a.big)


if __name__ == "__main__":
    main()
