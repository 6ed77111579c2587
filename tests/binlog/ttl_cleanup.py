#!/usr/bin/python3
"""Row Binlog retention cleanup (binlog/README.md "Retention", DORIS_SEMANTICS.md §2.10): expired
binlog rowsets leave binlog() and the disk within a bounded wait, a table with
"disable_auto_compaction" = "true" keeps them, and restarts (clean and kill -9) change neither.

    /usr/bin/python3 tests/binlog/ttl_cleanup.py --server BIN --workdir DIR

Starts the server on a fresh data directory (tests/crash/crashlib.py) and creates:
  `a`    UNIQUE KEY merge-on-write with before images, "binlog.ttl_seconds" = "1"
  `d`    DUPLICATE KEY, "binlog.ttl_seconds" = "1"
  `keep` like `a` with "disable_auto_compaction" = "true" (cleanup paused)
  `pt`   RANGE-partitioned, default TTL (checks binlog()'s "tablet" filter with real tablet ids:
         partition id from SHOW PARTITIONS << 16 | bucket, storage/README.md)
Writes inserts, updates and deletes, then polls up to WAIT_S for binlog() of `a` and `d` to show
0 records and their .blg files to leave <data>/storage/binlog/ (the server's GC job runs every
2 s); `keep` must still show every record after the same wait, @incr must show none of them, and
the base tables stay intact. Then a clean restart and a kill -9 restart must show the same state,
new writes get LSNs above every earlier one, and re-enabling compaction on `keep` lets cleanup
remove its records too. Prints `ok: ...` per check, exits non-zero on the first failure (keeping
the work dir). Only 127.0.0.1; every wait is bounded.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crash"))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

DB = "ttl_cleanup"
WAIT_S = 15.0
MOW = ("UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("
       "\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", "
       "\"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\"")
SCHEMA = [
    "CREATE DATABASE %s" % DB,
    "CREATE TABLE %s.a (k INT, v INT) %s, \"binlog.ttl_seconds\" = \"1\")" % (DB, MOW),
    "CREATE TABLE %s.keep (k INT, v INT) %s, \"binlog.ttl_seconds\" = \"1\", "
    "\"disable_auto_compaction\" = \"true\")" % (DB, MOW),
    "CREATE TABLE %s.d (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 "
    "PROPERTIES (\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\", "
    "\"binlog.ttl_seconds\" = \"1\")" % DB,
    "CREATE TABLE %s.pt (k INT, v INT) UNIQUE KEY(k) PARTITION BY RANGE(k) ("
    "PARTITION p1 VALUES LESS THAN (100), PARTITION p2 VALUES LESS THAN (200)) "
    "DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\", "
    "\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")" % DB,
]
WRITES = [
    "INSERT INTO %s VALUES (1, 10), (2, 20), (3, 30), (4, 40)",
    "UPDATE %s SET v = v + 1 WHERE k <= 2",
    "DELETE FROM %s WHERE k = 3",
]


class Failure(Exception):
    pass


def q(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return [tuple(r) for r in cur.fetchall()]


def one(conn, sql):
    return q(conn, sql)[0][0]


def records(conn, table):
    return q(conn, "SELECT __DORIS_BINLOG_OP__, k, v, __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__ "
                   "FROM binlog(\"table\" = \"%s\") ORDER BY __DORIS_BINLOG_LSN__" % table)


def blg_files(storage, tablets):
    n = 0
    for t in tablets:
        d = os.path.join(storage, "binlog", str(t))
        if os.path.isdir(d):
            n += sum(1 for f in os.listdir(d) if f.endswith(".blg"))
    return n


def tablets_of(conn, table):
    """{partition name: [tablet ids]} from SHOW PARTITIONS (id << 16 | bucket)."""
    out = {}
    with conn.cursor() as cur:
        cur.execute("SHOW PARTITIONS FROM %s" % table)
        cols = [c[0] for c in cur.description]
        for r in cur.fetchall():
            row = dict(zip(cols, r))
            pid, buckets = int(row["PartitionId"]), int(row["Buckets"])
            out[row["PartitionName"]] = [(pid << 16) | b for b in range(buckets)]
    return out


def expect(cond, what):
    if not cond:
        raise Failure(what)
    print("ok: %s" % what, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="ttl_cleanup.", dir=args.workdir)
    data = os.path.join(work, "data")
    storage = os.path.join(data, "storage")
    srv = Server(os.path.abspath(args.server), data, os.path.join(work, "server.log"),
                 start_timeout=30.0, io_timeout=60)
    ok = False
    try:
        srv.start()
        conn = srv.connect()
        for sql in SCHEMA:
            q(conn, sql)
        conn.close()
        srv.database = DB
        conn = srv.connect()
        for t in ("a", "keep", "d", "pt"):
            for w in WRITES:
                if t == "d" and not w.startswith("INSERT"):
                    continue
                q(conn, w % t)
        q(conn, "INSERT INTO pt VALUES (101, 1), (150, 2), (199, 3)")
        tabs = {t: [x for ids in tablets_of(conn, t).values() for x in ids]
                for t in ("a", "keep", "d")}
        keep_recs = records(conn, "keep")
        base = {t: q(conn, "SELECT * FROM %s ORDER BY k" % t) for t in ("a", "keep", "d", "pt")}
        expect(len(records(conn, "a")) == 7 and len(keep_recs) == 7 and len(records(conn, "d")) == 4,
               "records written: a 7, keep 7, d 4")
        expect(blg_files(storage, tabs["a"]) > 0, "a has binlog files on disk")

        # binlog() "tablet" with real tablet ids: each tablet of p2 holds part of p2's records
        pt_tabs = tablets_of(conn, "pt")
        total = one(conn, "SELECT COUNT(*) FROM binlog(\"table\" = \"pt\", \"partition\" = \"p2\")")
        per = [one(conn, "SELECT COUNT(*) FROM binlog(\"table\" = \"pt\", \"tablet\" = \"%d\")" % t)
               for t in pt_tabs["p2"]]
        both = one(conn, "SELECT COUNT(*) FROM binlog(\"table\" = \"pt\", \"tablet\" = \"%s\")"
                   % ",".join(str(t) for t in pt_tabs["p2"]))
        ks = q(conn, "SELECT MIN(k), MAX(k) FROM binlog(\"table\" = \"pt\", \"tablet\" = \"%s\")"
               % ",".join(str(t) for t in pt_tabs["p2"]))[0]
        expect(total == 3 and sum(per) == 3 and both == 3 and ks == (101, 199),
               "binlog() tablet filter: the tablets of p2 hold exactly p2's 3 records (per tablet %s)"
               % per)
        other = one(conn, "SELECT COUNT(*) FROM binlog(\"table\" = \"pt\", \"partition\" = \"p1\", "
                          "\"tablet\" = \"%d\")" % pt_tabs["p2"][0])
        expect(other == 0, "a tablet of p2 with partition p1 selects nothing")

        # cleanup: a and d lose their expired records, keep does not
        t0 = time.monotonic()
        while time.monotonic() - t0 < WAIT_S:
            na, nd = len(records(conn, "a")), len(records(conn, "d"))
            if na == 0 and nd == 0 and blg_files(storage, tabs["a"] + tabs["d"]) == 0:
                break
            time.sleep(0.25)
        waited = time.monotonic() - t0
        expect(len(records(conn, "a")) == 0 and len(records(conn, "d")) == 0,
               "binlog() of a and d empty after %.1f s (limit %.0f s)" % (waited, WAIT_S))
        expect(blg_files(storage, tabs["a"] + tabs["d"]) == 0, "their .blg files are gone")
        time.sleep(max(0.0, 4.0 - waited))  # at least two GC passes over keep
        expect(records(conn, "keep") == keep_recs,
               "keep (disable_auto_compaction) still shows all 7 records, unchanged")
        expect(blg_files(storage, tabs["keep"]) > 0, "keep's .blg files stay")
        expect(one(conn, "SELECT COUNT(*) FROM keep@incr(\"incrementType\" = \"DETAIL\")") == 0,
               "keep@incr DETAIL filters the expired records (0 rows)")
        for t in ("a", "keep", "d", "pt"):
            expect(q(conn, "SELECT * FROM %s ORDER BY k" % t) == base[t],
                   "base table %s unchanged" % t)
        max_lsn = max(r[4] for r in keep_recs)
        conn.close()

        # restarts: clean, then kill -9
        for how in ("clean restart", "kill -9 restart"):
            if how == "clean restart":
                rc = srv.stop()
                expect(rc == 0, "server stopped cleanly (exit status %s)" % rc)
            else:
                srv.kill()
            srv.start()
            conn = srv.connect()
            expect(len(records(conn, "a")) == 0 and len(records(conn, "d")) == 0,
                   "%s: a and d still show no records" % how)
            expect(records(conn, "keep") == keep_recs, "%s: keep shows its 7 records unchanged" % how)
            for t in ("a", "keep", "d", "pt"):
                expect(q(conn, "SELECT * FROM %s ORDER BY k" % t) == base[t],
                       "%s: base table %s unchanged" % (how, t))
            conn.close()

        # new writes after the purge and the restarts: recorded, LSNs above every earlier one
        conn = srv.connect()
        q(conn, "INSERT INTO a VALUES (9, 90)")
        q(conn, "UPDATE a SET v = 91 WHERE k = 9")
        ra = records(conn, "a")
        expect([r[:3] for r in ra] == [(0, 9, 90), (1, 9, 91)] and min(r[4] for r in ra) > max_lsn,
               "new writes to a recorded with LSNs above the purged ones")
        expect(one(conn, "SELECT COUNT(*) FROM a@incr(\"incrementType\" = \"DETAIL\")") == 3,
               "a@incr DETAIL shows the new changes (APPEND, UPDATE_BEFORE, UPDATE_AFTER)")

        # re-enabling compaction lets cleanup remove keep's records
        q(conn, "ALTER TABLE keep SET (\"disable_auto_compaction\" = \"false\")")
        t0 = time.monotonic()
        while time.monotonic() - t0 < WAIT_S and len(records(conn, "keep")) > 0:
            time.sleep(0.25)
        expect(len(records(conn, "keep")) == 0,
               "keep's records removed %.1f s after re-enabling compaction" % (time.monotonic() - t0))
        conn.close()
        srv.kill()
        srv.start()
        conn = srv.connect()
        expect(len(records(conn, "keep")) == 0 and q(conn, "SELECT * FROM keep ORDER BY k") == base["keep"],
               "kill -9 restart: keep still empty in binlog(), its rows intact")
        conn.close()
        ok = True
    except Failure as e:
        print("FAILED: %s" % e)
        print("server log tail:\n" + srv.tail(15))
    except Exception as e:  # noqa: BLE001  (a server or client error is a failure too)
        print("FAILED: %s: %s" % (type(e).__name__, e))
        print("server log tail:\n" + srv.tail(15))
    finally:
        if srv.alive():
            srv.stop()
    if not ok:
        print("work dir kept: %s" % work)
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)
    print("ttl_cleanup: all checks passed")


if __name__ == "__main__":
    main()
