#!/usr/bin/python3
"""Tablet garbage collection: the files of dropped tables and partitions leave the disk, those of
tables in the recycle bin stay, and a restart resurrects nothing.

    /usr/bin/python3 tests/crash/drop_gc.py --server BIN --workdir DIR

Starts the server on a fresh data directory (the helpers of crashlib.py), creates tables and
inserts rows, and notes which tablet directories (D/storage/<tablet id>/) each write created.
Then DROP TABLE ... FORCE, TRUNCATE TABLE and ALTER TABLE DROP PARTITION must empty (or remove)
exactly their directories within a bounded wait (the server's collection runs every 2 s), while a
table dropped without FORCE keeps its files and RECOVER TABLE brings its rows back. A clean
restart and a kill -9 restart must bring back no dropped tablet and keep every surviving row.
Prints `ok: ...` per check and exits non-zero on the first failure. Only 127.0.0.1.
"""

import argparse
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

WAIT_S = 10.0


def tablet_dirs(storage):
    """{tablet dir name: number of regular files} of the storage root."""
    out = {}
    if not os.path.isdir(storage):
        return out
    for name in os.listdir(storage):
        path = os.path.join(storage, name)
        if name.isdigit() and os.path.isdir(path):
            out[name] = sum(1 for f in os.listdir(path)
                            if os.path.isfile(os.path.join(path, f)))
    return out


def with_files(storage):
    return {d for d, n in tablet_dirs(storage).items() if n > 0}


def fail(msg, srv=None):
    print("FAILED: %s" % msg)
    if srv is not None:
        print(srv.tail())
    sys.exit(1)


def check(cond, msg, srv=None):
    if not cond:
        fail(msg, srv)
    print("ok: %s" % msg)


def wait_gone(storage, dirs, srv, what):
    t0 = time.monotonic()
    while time.monotonic() - t0 < WAIT_S:
        if not (with_files(storage) & dirs):
            print("ok: %s: %d tablet directories emptied in %.1f s"
                  % (what, len(dirs), time.monotonic() - t0))
            return
        time.sleep(0.1)
    fail("%s: still holding files after %.0f s: %s"
         % (what, WAIT_S, sorted(with_files(storage) & dirs)), srv)


def q(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def count(conn, table):
    return q(conn, "SELECT COUNT(*) FROM %s" % table)[0][0]


def written(storage, conn, sqls):
    """Run sqls; return the tablet directories with files that appeared."""
    before = with_files(storage)
    for s in sqls:
        q(conn, s)
    return with_files(storage) - before


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    work = os.path.join(os.path.abspath(args.workdir), "drop_gc")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    data = os.path.join(work, "data")
    storage = os.path.join(data, "storage")
    srv = Server(os.path.abspath(args.server), data, os.path.join(work, "server.log"))
    srv.start()
    try:
        run(srv, storage)
    finally:
        srv.kill()
    print("drop_gc: all checks passed")


def run(srv, storage):
    conn = srv.connect()
    q(conn, "CREATE DATABASE gc")
    q(conn, "USE gc")
    dup = "DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3"
    rows = ", ".join("(%d, %d)" % (i, i * 10) for i in range(30))
    for t in ("t_force", "t_trunc", "t_bin", "t_keep"):
        q(conn, "CREATE TABLE %s (k INT, v INT) %s" % (t, dup))
    q(conn, "CREATE TABLE t_part (k INT, v INT) DUPLICATE KEY(k) PARTITION BY RANGE(k) "
            "(PARTITION p1 VALUES LESS THAN (15), PARTITION p2 VALUES LESS THAN (100)) "
            "DISTRIBUTED BY HASH(k) BUCKETS 2")
    d_force = written(storage, conn, ["INSERT INTO t_force VALUES " + rows])
    d_trunc = written(storage, conn, ["INSERT INTO t_trunc VALUES " + rows])
    d_bin = written(storage, conn, ["INSERT INTO t_bin VALUES " + rows,
                                    "INSERT INTO t_bin VALUES (100, 1)"])
    d_keep = written(storage, conn, ["INSERT INTO t_keep VALUES " + rows])
    d_p1 = written(storage, conn, ["INSERT INTO t_part VALUES (1, 1), (2, 2), (3, 3), (4, 4)"])
    d_p2 = written(storage, conn, ["INSERT INTO t_part VALUES (20, 1), (30, 2), (40, 3)"])
    for name, d in (("t_force", d_force), ("t_trunc", d_trunc), ("t_bin", d_bin),
                    ("t_keep", d_keep), ("t_part p1", d_p1), ("t_part p2", d_p2)):
        check(len(d) > 0, "%s wrote files in %d tablet directories" % (name, len(d)), srv)

    q(conn, "DROP TABLE t_force FORCE")
    q(conn, "TRUNCATE TABLE t_trunc")
    q(conn, "ALTER TABLE t_part DROP PARTITION p1")
    q(conn, "DROP TABLE t_bin")  # recycle bin: kept
    wait_gone(storage, d_force, srv, "DROP TABLE FORCE")
    wait_gone(storage, d_trunc, srv, "TRUNCATE TABLE")
    wait_gone(storage, d_p1, srv, "DROP PARTITION")
    time.sleep(3)  # more than one collection period
    have = with_files(storage)
    check(d_bin <= have, "the binned table keeps its files", srv)
    check(d_keep <= have and d_p2 <= have, "untouched tables and partitions keep their files", srv)
    check(count(conn, "t_trunc") == 0, "t_trunc is empty after TRUNCATE", srv)
    d_trunc2 = written(storage, conn, ["INSERT INTO t_trunc VALUES (7, 7), (8, 8)"])
    check(len(d_trunc2) > 0 and not (d_trunc2 & d_trunc), "t_trunc writes new tablets", srv)
    q(conn, "RECOVER TABLE t_bin")
    check(count(conn, "t_bin") == 31, "RECOVER TABLE brings back the 31 rows", srv)
    check(count(conn, "t_part") == 3, "t_part keeps the 3 rows of p2", srv)
    # A binned table erased from the bin (a newer binned table of the same name replaces it)
    q(conn, "CREATE TABLE t_erase (k INT, v INT) %s" % dup)
    d_erase = written(storage, conn, ["INSERT INTO t_erase VALUES " + rows])
    check(len(d_erase) > 0, "t_erase wrote files in %d tablet directories" % len(d_erase), srv)
    q(conn, "DROP TABLE t_erase")
    time.sleep(3)
    check(d_erase <= with_files(storage), "binned t_erase keeps its files", srv)
    q(conn, "CREATE TABLE t_erase (k INT, v INT) %s" % dup)
    q(conn, "DROP TABLE t_erase")
    wait_gone(storage, d_erase, srv, "recycle bin entry erased")
    conn.close()

    gone = d_force | d_trunc | d_p1 | d_erase
    expect = {"t_keep": 30, "t_bin": 31, "t_part": 3, "t_trunc": 2}
    for how in ("clean restart", "kill -9 restart"):
        if how == "clean restart":
            check(srv.stop() == 0, "server stopped cleanly", srv)
        else:
            srv.kill()
        srv.start()
        conn = srv.connect()
        q(conn, "USE gc")
        check(not (with_files(storage) & gone), "%s: no dropped tablet came back" % how, srv)
        for t, n in expect.items():
            check(count(conn, t) == n, "%s: %s has %d rows" % (how, t, n), srv)
        conn.close()
        time.sleep(3)  # one collection after the restart drops nothing that lives
        conn = srv.connect()
        q(conn, "USE gc")
        for t, n in expect.items():
            check(count(conn, t) == n, "%s + collection: %s has %d rows" % (how, t, n), srv)
        conn.close()
    check(not (with_files(storage) & gone), "no dropped tablet came back", srv)


if __name__ == "__main__":
    main()
