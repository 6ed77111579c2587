#!/usr/bin/python3
"""Crash test for the catalog: a scripted DDL workload, `kill -9` at random moments, restart,
and the catalog must equal what was acknowledged before the kill.

    /usr/bin/python3 tests/crash/ddl_crash.py --server BIN --workdir DIR [--rounds N] [--seed S]

Each round starts the server on the same data directory, runs DDL statements generated from the
seed on one connection, and kills the server with SIGKILL after a random delay. The client keeps
the list of statements whose reply it received (acknowledged) and the one in flight. After a
restart the catalog (SHOW DATABASES, SHOW TABLES, SHOW CREATE TABLE of everything) must equal the
catalog of a reference server that replays exactly the acknowledged statements, or the
acknowledged ones plus the in-flight one (which may or may not have committed before the kill).
Prints `ok round N` / `FAILED round N` and a final `N passed, N failed`; exits non-zero on failure.
Only 127.0.0.1; every wait is bounded.
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
    sys.exit("ddl_crash.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

SYSTEM_DBS = {"information_schema", "mysql"}


def gen_statements(rnd, n):
    """A deterministic DDL workload over a few databases and tables. Statements may fail (a
    table dropped earlier, say); failures are deterministic, so the reference fails the same."""
    out = []
    for _ in range(n):
        db = "crash_db%d" % rnd.randrange(3)
        t = "t%d" % rnd.randrange(6)
        k = rnd.random()
        if k < 0.10:
            out.append("CREATE DATABASE IF NOT EXISTS %s" % db)
        elif k < 0.45:
            model = rnd.choice(["DUPLICATE KEY(k)", "UNIQUE KEY(k)"])
            props = ['"replication_num" = "1"']
            if rnd.random() < 0.3:
                props += ['"binlog.enable" = "true"', '"binlog.format" = "ROW"',
                          '"binlog.ttl_seconds" = "%d"' % rnd.randrange(60, 100000)]
            out.append("CREATE TABLE IF NOT EXISTS %s.%s (k BIGINT NOT NULL, v VARCHAR(%d), "
                       "d DECIMAL(10, 2) DEFAULT \"1.50\" COMMENT 'amount') %s "
                       "DISTRIBUTED BY HASH(k) BUCKETS %d PROPERTIES (%s)"
                       % (db, t, rnd.randrange(1, 200), model, rnd.randrange(1, 8),
                          ", ".join(props)))
        elif k < 0.60:
            out.append("ALTER TABLE %s.%s ADD COLUMN c%d INT DEFAULT \"%d\""
                       % (db, t, rnd.randrange(1000), rnd.randrange(100)))
        elif k < 0.70:
            out.append("ALTER TABLE %s.%s MODIFY COMMENT 'c%d'" % (db, t, rnd.randrange(1000)))
        elif k < 0.80:
            out.append("DROP TABLE IF EXISTS %s.%s" % (db, t))
        elif k < 0.87:
            out.append("ALTER TABLE %s.%s RENAME t%d" % (db, t, rnd.randrange(6)))
        elif k < 0.92:
            out.append("DROP DATABASE IF EXISTS %s FORCE" % db)
        elif k < 0.95:
            out.append("ALTER DATABASE %s SET PROPERTIES (\"binlog.ttl_seconds\" = \"%d\")"
                       % (db, rnd.randrange(60, 100000)))
        elif k < 0.98:
            # DROP TABLE above (no FORCE) keeps the table in the recycle bin.
            out.append("RECOVER TABLE %s.%s" % (db, t))
        else:
            out.append("TRUNCATE TABLE %s.%s" % (db, t))
    return out


def snapshot(conn):
    """Everything the catalog shows, as a comparable dict."""
    snap = {}
    with conn.cursor() as cur:
        cur.execute("SHOW DATABASES")
        dbs = sorted(r[0] for r in cur.fetchall() if r[0] not in SYSTEM_DBS)
        for db in dbs:
            cur.execute("SHOW CREATE DATABASE `%s`" % db)
            snap[db] = {"": cur.fetchone()[1]}
            cur.execute("SHOW TABLES FROM `%s`" % db)
            for (t,) in sorted(cur.fetchall()):
                cur.execute("SHOW CREATE TABLE `%s`.`%s`" % (db, t))
                snap[db][t] = cur.fetchone()[1]
    return snap


def run_one(conn, sql):
    with conn.cursor() as cur:
        try:
            cur.execute(sql)
        except pymysql.err.OperationalError as e:
            if e.args and e.args[0] in (2006, 2013, 2003):
                raise
        except pymysql.err.MySQLError:
            pass  # deterministic statement errors are part of the workload


def workload(srv, stmts, acked, inflight, stop):
    try:
        conn = srv.connect()
    except pymysql.err.MySQLError:
        return
    try:
        for sql in stmts:
            if stop.is_set():
                return
            inflight[0] = sql
            run_one(conn, sql)
            acked.append(sql)
            inflight[0] = None
    except (pymysql.err.MySQLError, OSError):
        return  # the kill


def replay(binary, workdir, stmts, extra):
    """Snapshots of a fresh reference server after stmts, and after stmts + extra."""
    d = tempfile.mkdtemp(prefix="ref.", dir=workdir)
    ref = Server(binary, os.path.join(d, "data"), os.path.join(d, "server.log"))
    ref.start()
    try:
        conn = ref.connect()
        for sql in stmts:
            run_one(conn, sql)
        a = snapshot(conn)
        b = None
        if extra is not None:
            run_one(conn, extra)
            b = snapshot(conn)
        conn.close()
    finally:
        ref.stop()
    shutil.rmtree(d, ignore_errors=True)
    return a, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--statements", type=int, default=600)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="ddl_crash.", dir=args.workdir)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"))
    print("seed %d, work dir %s" % (seed, work))
    history = []  # every acknowledged statement over all rounds, in order
    passed = failed = 0
    try:
        for rnd_no in range(1, args.rounds + 1):
            restart_s = srv.start()
            stmts = gen_statements(rnd, args.statements)
            acked, inflight, stop = [], [None], threading.Event()
            th = threading.Thread(target=workload, args=(srv, stmts, acked, inflight, stop))
            th.start()
            # Kill once a random number of statements were acknowledged, so the kill always
            # lands in the middle of the workload (usually with a statement in flight).
            target = rnd.randrange(20, max(21, len(stmts) - 20))
            deadline = time.monotonic() + 60
            while len(acked) < target and th.is_alive() and time.monotonic() < deadline:
                time.sleep(0.001)
            srv.kill()
            stop.set()
            th.join(30)
            history.extend(acked)
            restart_s = srv.start()
            conn = srv.connect()
            got = snapshot(conn)
            conn.close()
            want_a, want_b = replay(os.path.abspath(args.server), work, history, inflight[0])
            if got == want_a or (want_b is not None and got == want_b):
                if got == want_b and got != want_a:
                    history.append(inflight[0])  # the in-flight statement had committed
                print("ok round %d (%d acknowledged, restart %.2f s)" % (rnd_no, len(acked),
                                                                        restart_s))
                passed += 1
            else:
                print("FAILED round %d: catalog after restart differs from the acknowledged "
                      "statements (in flight: %r)" % (rnd_no, inflight[0]))
                for db in sorted(set(got) | set(want_a)):
                    if got.get(db) != want_a.get(db):
                        print("  db %s:\n    got  %r\n    want %r" % (db, got.get(db),
                                                                  want_a.get(db)))
                print(srv.tail())
                failed += 1
                break
            srv.stop()
    except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
        print("FAILED: %s" % e)
        failed += 1
    finally:
        srv.kill()
    print("%d passed, %d failed" % (passed, failed))
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
