#!/usr/bin/python3
"""Crash test for table storage: a seeded DML writer loop, `kill -9` at random moments, restart,
and every table must hold exactly what the acknowledged statements wrote.

    /usr/bin/python3 tests/crash/dml_crash.py --server BIN --workdir DIR [--rounds N] [--seed S]

Set-up: a fresh data directory and one database with three tables: `mow` (UNIQUE KEY merge-on-write,
4 buckets), `dup` (DUPLICATE KEY, 3 buckets) and `part` (DUPLICATE KEY, two RANGE partitions,
2 buckets). Each round runs a seeded workload on one autocommit connection — multi-row INSERTs
(1-200 rows; mow keys from a small key space, so upserts happen), UPDATE mow SET n = n + 1,
DELETE FROM mow WHERE k BETWEEN, DELETE FROM dup WHERE n = x, and explicit BEGIN; INSERT...;
COMMIT transactions over several tables — and kills the server with SIGKILL after a random delay
(0.05-1.5 s). The server is restarted on the same data directory and every table is compared in
full (SELECT k, v, n ... ORDER BY k, v, n and SELECT COUNT(*)) with a Python model that applied
the acknowledged statements in order (mow: a dict, last write wins; dup/part: multisets). The
statement in flight at the kill may or may not have committed, so the tables must equal the model
without it or the model with it; a transaction whose COMMIT was not yet sent must be wholly
absent. The next round continues on the restarted server with the model carried over.

A statement that fails with an SQL error, a server that dies on its own, or a server that does not
come back after the kill is a failure too. Prints `ok round N` / `FAILED round N: ...` and a final
`N passed, N failed`; exits non-zero on failure, keeping the work dir (server.log, statements.log).
The seed fixes the workload and the kill delays, not where exactly the kill lands. Only
127.0.0.1; every wait is bounded.
"""

import argparse
import collections
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
    sys.exit("dml_crash.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

DB = "dml_crash"
TABLES = ("mow", "dup", "part")
MOW_KEYS = 300          # small key space: INSERTs into mow are mostly upserts
PART_MAX = 100000       # partition p2 ends here
HANG_NOTE_S = 1.0       # a statement outstanding this long at kill time is waited for...
HANG_S = 10.0           # ...up to this long before it counts as hung
CONN_ERRORS = (2003, 2006, 2013, 2014, 2055)

SCHEMA = [
    "CREATE DATABASE %s" % DB,
    "CREATE TABLE %s.mow (k INT, v VARCHAR(20), n BIGINT) UNIQUE KEY(k) "
    "DISTRIBUTED BY HASH(k) BUCKETS 4 PROPERTIES (\"replication_num\" = \"1\", "
    "\"enable_unique_key_merge_on_write\" = \"true\")" % DB,
    "CREATE TABLE %s.dup (k INT, v VARCHAR(20), n BIGINT) DUPLICATE KEY(k) "
    "DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES (\"replication_num\" = \"1\")" % DB,
    "CREATE TABLE %s.part (k INT, v VARCHAR(20), n BIGINT) DUPLICATE KEY(k) "
    "PARTITION BY RANGE(k) (PARTITION p1 VALUES LESS THAN (1000), "
    "PARTITION p2 VALUES LESS THAN (%d)) DISTRIBUTED BY HASH(k) BUCKETS 2 "
    "PROPERTIES (\"replication_num\" = \"1\")" % (DB, PART_MAX),
]


# ---------------------------------------------------------------------------------------------
# Workload: each op is a unit that is either acknowledged or in flight at the kill.
#   ("ins", table, rows)              one multi-row INSERT
#   ("upd", x)                        UPDATE mow SET n = n + 1 WHERE k % 7 = x
#   ("delmow", a, b)                  DELETE FROM mow WHERE k BETWEEN a AND b
#   ("deldup", x)                     DELETE FROM dup WHERE n = x
#   ("txn", [("ins", table, rows), ...])   BEGIN; INSERT ...; ...; COMMIT
# ---------------------------------------------------------------------------------------------

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-"


def gen_v(rnd):
    r = rnd.random()
    if r < 0.05:
        return None
    if r < 0.08:
        return ""
    return "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(1, 21)))


def gen_rows(rnd, table):
    rows = []
    for _ in range(rnd.randrange(1, 201)):
        if table == "mow":
            k = rnd.randrange(MOW_KEYS)
            n = None if rnd.random() < 0.05 else rnd.randrange(-(1 << 40), 1 << 40)
        elif table == "dup":
            k = rnd.randrange(5000)
            n = None if rnd.random() < 0.05 else rnd.randrange(60)  # DELETE WHERE n = x hits
        else:
            # about half the rows in each partition
            k = rnd.randrange(1000) if rnd.random() < 0.5 else rnd.randrange(1000, PART_MAX)
            n = None if rnd.random() < 0.05 else rnd.randrange(-(1 << 62), 1 << 62)
        rows.append((k, gen_v(rnd), n))
    return rows


def gen_ops(rnd, count, txn=True):
    ops = []
    for _ in range(count):
        r = rnd.random()
        if r < 0.22:
            ops.append(("ins", "mow", gen_rows(rnd, "mow")))
        elif r < 0.36:
            ops.append(("ins", "dup", gen_rows(rnd, "dup")))
        elif r < 0.50:
            ops.append(("ins", "part", gen_rows(rnd, "part")))
        elif r < 0.60:
            ops.append(("upd", rnd.randrange(7)))
        elif r < 0.68:
            a = rnd.randrange(MOW_KEYS)
            ops.append(("delmow", a, a + rnd.randrange(30)))
        elif r < 0.75 or not txn:
            ops.append(("deldup", rnd.randrange(60)))
        else:
            parts = [("ins", t, gen_rows(rnd, t))
                     for t in (rnd.choice(TABLES) for _ in range(rnd.randrange(2, 5)))]
            ops.append(("txn", parts))
    return ops


def lit(x):
    if x is None:
        return "NULL"
    if isinstance(x, int):
        return str(x)
    return "'" + pymysql.converters.escape_string(x) + "'"


def sql_of(op):
    """The statements of an op, in order."""
    kind = op[0]
    if kind == "ins":
        return ["INSERT INTO %s (k, v, n) VALUES %s"
                % (op[1], ", ".join("(%s, %s, %s)" % tuple(map(lit, r)) for r in op[2]))]
    if kind == "upd":
        return ["UPDATE mow SET n = n + 1 WHERE k %% 7 = %d" % op[1]]
    if kind == "delmow":
        return ["DELETE FROM mow WHERE k BETWEEN %d AND %d" % (op[1], op[2])]
    if kind == "deldup":
        return ["DELETE FROM dup WHERE n = %d" % op[1]]
    if kind == "txn":
        return ["BEGIN"] + [sql_of(p)[0] for p in op[1]] + ["COMMIT"]
    raise ValueError(op)


def describe(op):
    """A statement or transaction, with long INSERTs shortened."""
    if op[0] == "txn":
        return "BEGIN; " + "; ".join(describe(p) for p in op[1]) + "; COMMIT"
    sql = sql_of(op)[0]
    if op[0] == "ins" and len(sql) > 90:
        return sql[:80] + "... (%d rows)" % len(op[2])
    return sql


class Model:
    """Expected contents: mow as {k: (v, n)}, dup and part as lists of (k, v, n)."""

    def __init__(self):
        self.mow = {}
        self.dup = []
        self.part = []

    def copy(self):
        m = Model()
        m.mow, m.dup, m.part = dict(self.mow), list(self.dup), list(self.part)
        return m

    def apply(self, op):
        kind = op[0]
        if kind == "ins":
            if op[1] == "mow":
                for k, v, n in op[2]:
                    self.mow[k] = (v, n)  # last write wins, also within one statement
            else:
                getattr(self, op[1]).extend(op[2])
        elif kind == "upd":
            for k, (v, n) in list(self.mow.items()):
                if k % 7 == op[1]:
                    self.mow[k] = (v, None if n is None else n + 1)
        elif kind == "delmow":
            for k in [k for k in self.mow if op[1] <= k <= op[2]]:
                del self.mow[k]
        elif kind == "deldup":
            self.dup = [r for r in self.dup if r[2] != op[1]]  # NULL = x is not true
        elif kind == "txn":
            for p in op[1]:
                self.apply(p)

    def rows(self, table):
        if table == "mow":
            return [(k, v, n) for k, (v, n) in self.mow.items()]
        return getattr(self, table)


def sort_key(row):
    return tuple((x is not None, x) for x in row)


def fetch(conn):
    got = {}
    with conn.cursor() as cur:
        for t in TABLES:
            cur.execute("SELECT k, v, n FROM %s ORDER BY k, v, n" % t)
            rows = [tuple(r) for r in cur.fetchall()]
            cur.execute("SELECT COUNT(*) FROM %s" % t)
            got[t] = (rows, cur.fetchone()[0])
    return got


def diff(got, model):
    """None if got equals the model, else a short description of the difference."""
    out = []
    for t in TABLES:
        rows, count = got[t]
        want = sorted(model.rows(t), key=sort_key)
        have = sorted(rows, key=sort_key)
        if have == want and count == len(want):
            continue
        ch, cw = collections.Counter(have), collections.Counter(want)
        missing = list((cw - ch).elements())
        extra = list((ch - cw).elements())
        out.append("%s: %d rows (COUNT(*) %d), want %d; %d missing %s; %d extra %s"
                   % (t, len(have), count, len(want), len(missing), sorted(missing, key=sort_key)[:5],
                      len(extra), sorted(extra, key=sort_key)[:5]))
    return "\n    ".join(out) or None


def workload(srv, ops, state, stop, killing, oplog):
    """Run ops in order; state["acked"] lists acknowledged ops, state["inflight"] the op sent
    without a reply, state["commit_sent"] whether its final statement (COMMIT / the statement
    itself) was sent; state["lost"] is set when the connection broke before the kill."""
    try:
        conn = srv.connect()
    except pymysql.err.MySQLError as e:
        state["error"] = "connect: %s" % e
        return
    try:
        with conn.cursor() as cur:
            for op in ops:
                if stop.is_set():
                    return
                stmts = sql_of(op)
                state["inflight"], state["commit_sent"] = op, False
                for i, sql in enumerate(stmts):
                    if i == len(stmts) - 1:
                        state["commit_sent"] = True  # set before sending: conservative
                    oplog.write(sql + "\n")
                    state["sent_at"] = time.monotonic()
                    cur.execute(sql)
                    state["sent_at"] = None
                oplog.write("-- ack\n")
                state["acked"].append(op)
                state["inflight"] = None
    except pymysql.err.OperationalError as e:
        if not (e.args and e.args[0] in CONN_ERRORS):
            state["error"] = "%s: %s" % (describe(state["inflight"]), e)
        elif not killing.is_set():
            state["lost"] = str(e)
    except pymysql.err.MySQLError as e:
        if isinstance(e, pymysql.err.InterfaceError) and killing.is_set():
            return  # the kill
        state["error"] = "%s: %s" % (describe(state["inflight"]), e)
    except OSError as e:
        if not killing.is_set():
            state["lost"] = str(e)
    finally:
        try:
            conn.close()
        except Exception:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--ops", type=int, default=3000, help="ops generated per round (upper bound)")
    ap.add_argument("--no-txn", action="store_true", help="diagnostic: no BEGIN/COMMIT ops")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="dml_crash.", dir=args.workdir)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"), start_timeout=30.0, io_timeout=60)
    oplog = open(os.path.join(work, "statements.log"), "w", buffering=1)
    print("seed %d, work dir %s" % (seed, work), flush=True)
    model = Model()
    passed = failed = 0
    try:
        srv.start()
        conn = srv.connect()
        with conn.cursor() as cur:
            for sql in SCHEMA:
                oplog.write(sql + "\n")
                cur.execute(sql)
        conn.close()
        srv.database = DB
        for rnd_no in range(1, args.rounds + 1):
            ops = gen_ops(rnd, args.ops, txn=not args.no_txn)
            delay = rnd.uniform(0.05, 1.5)
            oplog.write("-- round %d (kill after %.3f s)\n" % (rnd_no, delay))
            state = {"acked": [], "inflight": None, "commit_sent": False, "error": None,
                     "lost": None, "sent_at": None}
            stop, killing = threading.Event(), threading.Event()
            th = threading.Thread(target=workload, args=(srv, ops, state, stop, killing, oplog))
            th.start()
            t_end = time.monotonic() + delay
            while time.monotonic() < t_end and th.is_alive() and srv.alive():
                time.sleep(0.005)
            sent = state["sent_at"]
            if th.is_alive() and sent is not None and time.monotonic() - sent > HANG_NOTE_S:
                # A slow statement at kill time: give it up to HANG_S to reply before calling
                # it hung (the kill then still lands, with or without it in flight).
                while (th.is_alive() and srv.alive() and state["sent_at"] == sent
                       and time.monotonic() - sent < HANG_S):
                    time.sleep(0.01)
                if th.is_alive() and srv.alive() and state["sent_at"] == sent:
                    state["hung"] = time.monotonic() - sent
            if not th.is_alive():
                # The workload ended before the kill (a dropped connection, an error): give a
                # crashing server time to exit, so its exit status is reported.
                t_end = time.monotonic() + 3
                while srv.alive() and time.monotonic() < t_end:
                    time.sleep(0.01)
            crashed = not srv.alive()
            rc = srv.proc.returncode if crashed else None
            killing.set()
            srv.kill()
            stop.set()
            th.join(90)
            if th.is_alive():
                raise RuntimeError("round %d: workload thread did not stop" % rnd_no)
            oplog.write("-- SIGKILL\n")
            acked, inflight = state["acked"], state["inflight"]
            before = model.copy()
            for op in acked:
                before.apply(op)
            problems = []
            if crashed:
                problems.append("server died by itself (exit status %s) during %s"
                                % (rc, describe(inflight) if inflight else "idle"))
            if state["lost"] and not crashed:
                problems.append("server dropped the connection before the kill (%s) during %s"
                                % (state["lost"], describe(inflight) if inflight else "idle"))
            if state.get("hung"):
                problems.append("no reply after %.0f s (server alive, hung) to %s"
                                % (state["hung"], describe(inflight) if inflight else "?"))
            if state["error"]:
                problems.append("statement failed: %s" % state["error"])
            try:
                restart_s = srv.start()
                conn = srv.connect()
                got = fetch(conn)
                conn.close()
            except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
                problems.append("restart after the kill failed: %s" % e)
                got = None
            after = None
            if inflight is not None and state["commit_sent"]:
                after = before.copy()
                after.apply(inflight)
            if got is not None:
                d_before = diff(got, before)
                d_after = diff(got, after) if after is not None else "n/a"
                if d_before is None:
                    model = before
                elif d_after is None:
                    model = after  # the in-flight op had committed
                else:
                    problems.append("tables differ from the acknowledged statements\n"
                                    "    without the in-flight op: %s" % d_before
                                    + ("\n    with it: %s" % d_after if after else ""))
            if problems:
                print("FAILED round %d: %s" % (rnd_no, "\n  ".join(problems)))
                print("  %d ops acknowledged this round; last: %s"
                      % (len(acked), describe(acked[-1]) if acked else "-"))
                print("  in flight: %s (final statement sent: %s)"
                      % (describe(inflight) if inflight else "-", state["commit_sent"]))
                print("  server log tail:\n" + srv.tail(15))
                failed += 1
                break
            print("ok round %d (%d ops acknowledged, in flight %s, rows mow %d dup %d part %d, "
                  "restart %.2f s)" % (rnd_no, len(acked), inflight[0] if inflight else "-",
                                       len(model.mow), len(model.dup), len(model.part),
                                       restart_s), flush=True)
            passed += 1
    except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
        print("FAILED: %s" % e)
        failed += 1
    finally:
        srv.kill()
        oplog.close()
    print("%d passed, %d failed (seed %d)" % (passed, failed, seed))
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("kept %s (server.log, statements.log)" % work)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
