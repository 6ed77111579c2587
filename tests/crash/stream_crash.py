#!/usr/bin/python3
"""Crash test for Table Streams: writers and two consuming pipelines, `kill -9` at random moments,
restart; consumption must stay exactly once (rows and offsets in one commit record).

    /usr/bin/python3 tests/crash/stream_crash.py --server BIN --workdir DIR [--rounds N] [--seed S]

Set-up: a fresh data directory, one database with
- `b` — the base table: UNIQUE KEY merge-on-write, two RANGE partitions (k < 100, k < 200),
  3 buckets, Row Binlog with before images (`binlog.need_historical_value`);
- `t` — the sync target: UNIQUE KEY merge-on-write with the same columns;
- `clog` — a DUPLICATE KEY change log: the base columns, the change type, sequence and LSN.
A few rows are written to both partitions, then two streams are created: `s_min` (min_delta)
and `s_det` (detail), so every partition has a creation offset, and `t` is loaded from
`s_min@snapshot()` (the seed's "sync the existing data first").

Each round two writer threads run seeded INSERTs (upserts of 1-10 keys), delete-sign INSERTs,
UPDATE b SET n = n + 1, DELETE ... WHERE k BETWEEN and BEGIN; INSERT; INSERT; COMMIT on `b`,
while one consumer loops the seed-000 sync pipeline

    INSERT INTO t (k, v, n, __DORIS_DELETE_SIGN__)
    SELECT k, v, n, CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END
    FROM s_min WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER', 'DELETE')

and another copies `s_det` into `clog` (a third of the time inside BEGIN ... COMMIT). The server is killed with SIGKILL after a random delay
and restarted. After each restart:
1. `t` equals `s_min@snapshot()` — the base table at the stream's offsets — because the target
   rows and the offsets commit together (stream/README.md I4);
2. `clog` holds every (sequence, LSN, change type) once, and exactly the changes of `binlog()` of
   each partition in (creation offset, current offset of `s_det`] — op 0 → APPEND, op 1 →
   UPDATE_BEFORE (before image) + UPDATE_AFTER, op 2 → DELETE (before image), with their values:
   no gap, no duplicate, nothing beyond the offset;
3. the rows of `clog` from before the kill are unchanged.
At the end the writers stop, both streams are consumed once more, and then `t` must equal `b`
and `clog` must hold every change of `binlog()` since the creation offsets.

Connection errors at the kill are expected; any other SQL error, a server that dies by itself or
does not come back is a failure. Prints `ok round N` / `FAILED round N: ...` and `N passed, N
failed`; exits non-zero on failure, keeping the work dir (server.log, statements.log). Only
127.0.0.1; every wait is bounded.
"""

import argparse
import os
import random
import shutil
import sys
import tempfile
import threading
import time

try:
    import pymysql
except ImportError:
    sys.exit("stream_crash.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

DB = "stream_crash"
KEYS = 200
PARTS = ("p1", "p2")
WRITERS = 2
CONN_ERRORS = (2003, 2006, 2013, 2014, 2055)
MOW = ("\"enable_unique_key_merge_on_write\" = \"true\", \"replication_num\" = \"1\"")

SCHEMA = [
    "CREATE DATABASE %s" % DB,
    "CREATE TABLE %s.b (k INT, v VARCHAR(20), n BIGINT) UNIQUE KEY(k) "
    "PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN (100), "
    "PARTITION p2 VALUES LESS THAN (%d)) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES (%s, "
    "\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\", "
    "\"binlog.need_historical_value\" = \"true\")" % (DB, KEYS, MOW),
    "CREATE TABLE %s.t (k INT, v VARCHAR(20), n BIGINT) UNIQUE KEY(k) "
    "DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES (%s)" % (DB, MOW),
    "CREATE TABLE %s.clog (k INT, v VARCHAR(20), n BIGINT, ct VARCHAR(16), seq BIGINT, "
    "lsn BIGINT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 "
    "PROPERTIES (\"replication_num\" = \"1\")" % DB,
    "INSERT INTO %s.b VALUES (1, 'init', 1), (2, 'init', 2), (150, 'init', 150)" % DB,
    "CREATE STREAM %s.s_min ON TABLE %s.b PROPERTIES (\"type\" = \"min_delta\")" % (DB, DB),
    "CREATE STREAM %s.s_det ON TABLE %s.b PROPERTIES (\"type\" = \"detail\")" % (DB, DB),
    "INSERT INTO %s.t SELECT * FROM %s.s_min@snapshot()" % (DB, DB),
]

SYNC = ("INSERT INTO t (k, v, n, __DORIS_DELETE_SIGN__) "
        "SELECT k, v, n, CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END "
        "FROM s_min WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER', 'DELETE')")
COPY = ("INSERT INTO clog SELECT k, v, n, __DORIS_STREAM_CHANGE_TYPE_COL__, "
        "__DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__ FROM s_det")
CLOG_SQL = "SELECT k, v, n, ct, seq, lsn FROM clog"
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def lit(x):
    if x is None:
        return "NULL"
    if isinstance(x, int):
        return str(x)
    return "'" + pymysql.converters.escape_string(x) + "'"


def gen_stmts(rnd):
    """One unit of writer work: a list of statements (a transaction when it starts with BEGIN)."""
    def ins():
        rows = [(rnd.randrange(KEYS), "".join(rnd.choice(ALPHABET)
                                                for _ in range(rnd.randrange(1, 21))),
                 rnd.randrange(-(1 << 40), 1 << 40)) for _ in range(rnd.randrange(1, 11))]
        return "INSERT INTO b (k, v, n) VALUES " + ", ".join(
            "(%s, %s, %s)" % tuple(map(lit, r)) for r in rows)
    r = rnd.random()
    if r < 0.45:
        return [ins()]
    if r < 0.55:
        keys = sorted(set(rnd.randrange(KEYS) for _ in range(rnd.randrange(1, 5))))
        return ["INSERT INTO b (k, v, n, __DORIS_DELETE_SIGN__) VALUES "
                + ", ".join("(%d, 'x', 0, 1)" % k for k in keys)]
    if r < 0.70:
        return ["UPDATE b SET n = n + 1 WHERE k %% 13 = %d" % rnd.randrange(13)]
    if r < 0.85:
        a = rnd.randrange(KEYS)
        return ["DELETE FROM b WHERE k BETWEEN %d AND %d" % (a, a + rnd.randrange(6))]
    return ["BEGIN", ins(), ins(), "COMMIT"]


def conn_error(e):
    return (isinstance(e, pymysql.err.OperationalError) and e.args and e.args[0] in CONN_ERRORS
            or isinstance(e, (pymysql.err.InterfaceError, OSError)))


def worker(srv, name, seed, stop, killing, st, oplog, kind):
    """kind: 'writer' (seeded DML on b) or a consuming statement run in a loop."""
    rnd = random.Random(seed)
    try:
        conn = srv.connect()
    except pymysql.err.MySQLError as e:
        st["errors"].append("%s connect: %s" % (name, e))
        return
    sql = None
    try:
        with conn.cursor() as cur:
            while not stop.is_set():
                if kind == "writer":
                    stmts = gen_stmts(rnd)
                    for sql in stmts:
                        oplog.write("%s: %s\n" % (name, sql[:200]))
                        cur.execute(sql)
                    st["writes"] += 1
                else:
                    # the copy sometimes consumes inside BEGIN ... COMMIT (R11): the offsets
                    # then ride on the COMMIT's record
                    txn = kind == COPY and rnd.random() < 0.3
                    for sql in (["BEGIN", kind, "COMMIT"] if txn else [kind]):
                        cur.execute(sql)
                    st["consumed"][name] += 1
                    time.sleep(rnd.uniform(0, 0.05))
    except Exception as e:  # noqa: BLE001
        if conn_error(e) and (killing.is_set() or not srv.alive()):
            return
        st["errors"].append("%s: %s: %r" % (name, (sql or "-")[:120], e))
    finally:
        try:
            conn.close()
        except Exception:  # noqa: BLE001
            pass


def expand(rec):
    """The detail rows of one binlog() record (op, k, v, n, bv, bn, tso, lsn)."""
    op, k, v, n, bv, bn, tso, lsn = rec
    if op == 0:
        return [(k, v, n, "APPEND", tso, lsn)]
    if op == 1:
        return [(k, bv, bn, "UPDATE_BEFORE", tso, lsn), (k, v, n, "UPDATE_AFTER", tso, lsn)]
    return [(k, bv, bn, "DELETE", tso, lsn)]


def offsets(cur, stream):
    cur.execute("SELECT UNIT, CONSUMPTION_STATUS FROM information_schema.table_stream_consumption "
                "WHERE DB_NAME = '%s' AND STREAM_NAME = '%s'" % (DB, stream))
    return {u: (int(c) if c not in (None, "N/A") else None) for u, c in cur.fetchall()}


def expected_clog(cur, created, upto):
    """The detail rows of each partition's records in (created[p], upto[p]]."""
    rows = []
    for p in PARTS:
        cur.execute("SELECT __DORIS_BINLOG_OP__, k, v, n, __BEFORE__v__, __BEFORE__n__, "
                    "__DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__ FROM binlog(\"table\" = \"b\", "
                    "\"partition\" = \"%s\")" % p)
        for rec in cur.fetchall():
            if created[p] < rec[6] <= (upto.get(p) or created[p]):
                rows.extend(expand(tuple(rec)))
    return rows


def check(conn, created, old_clog, final=False):
    """Problems after a restart (or at the end when final); returns (problems, clog rows)."""
    problems = []
    with conn.cursor() as cur:
        cur.execute("SELECT k, v, n FROM t ORDER BY k")
        target = [tuple(r) for r in cur.fetchall()]
        cur.execute("SELECT k, v, n FROM %s ORDER BY k" % ("b" if final else "s_min@snapshot()"))
        want = [tuple(r) for r in cur.fetchall()]
        upto = offsets(cur, "s_det")
        cur.execute(CLOG_SQL)
        clog = [tuple(r) for r in cur.fetchall()]
        expect = expected_clog(cur, created, upto)
    what = "b" if final else "s_min@snapshot()"
    if target != want:
        td, wd = dict((r[0], r[1:]) for r in target), dict((r[0], r[1:]) for r in want)
        diff = sorted(k for k in set(td) | set(wd) if td.get(k) != wd.get(k))
        problems.append("t differs from %s at %d keys, e.g. k=%d: t %s, %s %s"
                        % (what, len(diff), diff[0], td.get(diff[0]), what, wd.get(diff[0])))
    ids = [(r[4], r[5], r[3]) for r in clog]
    if len(set(ids)) != len(ids):
        dup = [i for i in set(ids) if ids.count(i) > 1]
        problems.append("clog: %d (sequence, LSN, change type) more than once, e.g. %s"
                        % (len(dup), dup[:3]))
    got, exp = sorted(clog, key=repr), sorted(expect, key=repr)
    if got != exp:
        gs, es = set(clog), set(expect)
        problems.append("clog differs from binlog() up to the offsets of s_det: %d missing "
                        "(e.g. %s), %d extra (e.g. %s)"
                        % (len(es - gs), sorted(es - gs, key=repr)[:2], len(gs - es),
                           sorted(gs - es, key=repr)[:2]))
    lost = set(old_clog) - set(clog)
    if lost:
        problems.append("clog: %d rows from before the kill are gone" % len(lost))
    return problems, clog


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="stream_crash.", dir=args.workdir)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"), start_timeout=30.0, io_timeout=60)
    oplog = open(os.path.join(work, "statements.log"), "w", buffering=1)
    print("seed %d, work dir %s" % (seed, work), flush=True)
    passed = failed = 0
    old_clog = []
    try:
        srv.start()
        conn = srv.connect()
        with conn.cursor() as cur:
            for sql in SCHEMA:
                oplog.write(sql + "\n")
                cur.execute(sql)
            created = offsets(cur, "s_det")
            if set(created) != set(PARTS) or None in created.values():
                raise RuntimeError("s_det has no creation offset per partition: %s" % created)
        conn.close()
        srv.database = DB
        for rnd_no in range(1, args.rounds + 2):
            last = rnd_no == args.rounds + 1  # a clean round: stop, consume once more, compare
            delay = 2.0 if last else rnd.uniform(0.3, 2.5)
            oplog.write("-- round %d (%s after %.3f s)\n"
                        % (rnd_no, "stop" if last else "SIGKILL", delay))
            st = {"errors": [], "writes": 0, "consumed": {"sync": 0, "copy": 0}}
            stop, killing = threading.Event(), threading.Event()
            ths = [threading.Thread(target=worker, args=(srv, "writer%d" % w, rnd.randrange(1 << 30),
                                                         stop, killing, st, oplog, "writer"))
                   for w in range(WRITERS)]
            ths.append(threading.Thread(target=worker, args=(srv, "sync", rnd.randrange(1 << 30),
                                                             stop, killing, st, oplog, SYNC)))
            ths.append(threading.Thread(target=worker, args=(srv, "copy", rnd.randrange(1 << 30),
                                                             stop, killing, st, oplog, COPY)))
            for t in ths:
                t.start()
            t_end = time.monotonic() + delay
            while time.monotonic() < t_end and srv.alive() and not st["errors"]:
                time.sleep(0.005)
            crashed = not srv.alive()
            rc = srv.proc.returncode if crashed else None
            if not last:
                killing.set()
                srv.kill()
            stop.set()
            for t in ths:
                t.join(90)
            if any(t.is_alive() for t in ths):
                raise RuntimeError("round %d: a worker did not stop" % rnd_no)
            oplog.write("-- %s\n" % ("stopped" if last else "SIGKILL"))
            problems = list(st["errors"])
            if crashed:
                problems.append("server died by itself (exit status %s)" % rc)
            try:
                if not last:
                    restart_s = srv.start()
                conn = srv.connect()
                if last:
                    with conn.cursor() as cur:
                        cur.execute(SYNC)
                        cur.execute(COPY)
                        cur.execute("SELECT COUNT(*) FROM s_min")
                        left = cur.fetchone()[0]
                        cur.execute("SELECT COUNT(*) FROM s_det")
                        left += cur.fetchone()[0]
                    if left:
                        problems.append("%d changes pending after the final consumption" % left)
                p, clog = check(conn, created, old_clog, final=last)
                conn.close()
                problems += p
                old_clog = clog
            except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
                problems.append("restart or check failed: %s" % e)
            name = "final" if last else "round %d" % rnd_no
            if problems:
                print("FAILED %s: %s" % (name, "\n  ".join(problems)))
                print("  server log tail:\n" + srv.tail(15))
                failed += 1
                break
            print("ok %s (%d writes, %d syncs, %d copies acknowledged; change log %d rows%s)"
                  % (name, st["writes"], st["consumed"]["sync"], st["consumed"]["copy"],
                     len(old_clog), "" if last else "; restart %.2f s" % restart_s), flush=True)
            passed += 1
    except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
        print("FAILED: %s" % e)
        failed += 1
    finally:
        srv.kill()
        oplog.close()
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        print("work dir kept: %s" % work)
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
