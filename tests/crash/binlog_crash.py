#!/usr/bin/python3
"""Crash test for Row Binlog: a seeded writer on a merge-on-write table with before images, `kill -9`
at random moments, restart, and the change records must match exactly what was acknowledged.

    /usr/bin/python3 tests/crash/binlog_crash.py --server BIN --workdir DIR [--rounds N] [--seed S]

Set-up: a fresh data directory, one database, one table `b` (UNIQUE KEY merge-on-write, 4 buckets,
"binlog.enable" = "true", "binlog.format" = "ROW", "binlog.need_historical_value" = "true").
Each round runs a seeded workload on one autocommit connection: multi-row INSERTs (1-30 rows from
a small key space, so most are updates; duplicate keys inside one statement), INSERTs with the
delete sign, UPDATE b SET n = n + 1, DELETE ... WHERE k BETWEEN, and BEGIN; INSERT ...; COMMIT. The
server is killed with SIGKILL after a random delay (0.05-1.5 s) and restarted. Then:

1. every record binlog() showed after the previous restart is still there, unchanged (op, key,
   values, before images, TSO, LSN);
2. the records, grouped by TSO in TSO order, are exactly the records the acknowledged statements
   produce (DORIS_SEMANTICS.md §2.3: op 0 absent key, op 1 present key with the old values as before
   image, op 2 delete of a present key with the old values in both images, nothing for absent keys;
   one record per key and statement or transaction, one TSO per commit), optionally followed by
   those of the statement in flight at the kill (all of its records or none);
3. LSNs are unique, and ordering by (TSO, LSN) equals ordering by LSN;
4. replaying the records in LSN order (op 0/1 set the row, op 2 removes it) gives the table.

At the same time two more connections write table `c` (like `b`, 3 buckets): upserts of 1-10
distinct keys stamped with a value unique to the statement, and small range deletes. Their commit
order is not known in advance, so `c` is checked by invariants: each acknowledged stamp has one
record per key it wrote, all with one TSO; a stamp in flight at the kill has all of them or none;
no other stamp appears; in LSN order each record's before image is the key's previous after image
(op 0 only for an absent key); records from before the kill are unchanged; replay equals `c`.

A statement that fails with an SQL error, a server that dies by itself or does not come back is a
failure too. Prints `ok round N` / `FAILED round N: ...` and `N passed, N failed`; exits non-zero
on failure, keeping the work dir (server.log, statements.log). Only 127.0.0.1; waits are bounded.
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
    sys.exit("binlog_crash.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

DB = "binlog_crash"
KEYS = 200
HANG_S = 10.0
CONN_ERRORS = (2003, 2006, 2013, 2014, 2055)

SCHEMA = [
    "CREATE DATABASE %s" % DB,
    "CREATE TABLE %s.b (k INT, v VARCHAR(20), n BIGINT) UNIQUE KEY(k) "
    "DISTRIBUTED BY HASH(k) BUCKETS 4 PROPERTIES (\"replication_num\" = \"1\", "
    "\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", "
    "\"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\")" % DB,
    "CREATE TABLE %s.c (k INT, n BIGINT) UNIQUE KEY(k) "
    "DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES (\"replication_num\" = \"1\", "
    "\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", "
    "\"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\")" % DB,
]
C_WRITERS = 2
C_KEYS = 60
C_RECORDS_SQL = ("SELECT __DORIS_BINLOG_OP__, k, n, __BEFORE__n__, __DORIS_BINLOG_TSO__, "
                 "__DORIS_BINLOG_LSN__ FROM binlog(\"table\" = \"c\") "
                 "ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__")

RECORDS_SQL = ("SELECT __DORIS_BINLOG_OP__, k, v, n, __BEFORE__v__, __BEFORE__n__, "
               "__DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__ FROM binlog(\"table\" = \"b\") "
               "ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__")

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

# ---------------------------------------------------------------------------------------------
# Workload ops (each acknowledged as a unit):
#   ("ins", rows)        INSERT INTO b (k, v, n) VALUES ...        rows may repeat a key
#   ("sign", keys)       INSERT INTO b (k, v, n, __DORIS_DELETE_SIGN__) VALUES (k, 'x', 0, 1), ...
#   ("upd", x)           UPDATE b SET n = n + 1 WHERE k % 7 = x
#   ("del", a, c)        DELETE FROM b WHERE k BETWEEN a AND c
#   ("txn", [rows...])   BEGIN; INSERT ...; ...; COMMIT
# n is never NULL, so every UPDATE changes the rows it matches.
# ---------------------------------------------------------------------------------------------


def gen_rows(rnd):
    return [(rnd.randrange(KEYS), "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(1, 21))),
             rnd.randrange(-(1 << 40), 1 << 40)) for _ in range(rnd.randrange(1, 31))]


def gen_ops(rnd, count):
    ops = []
    for _ in range(count):
        r = rnd.random()
        if r < 0.45:
            ops.append(("ins", gen_rows(rnd)))
        elif r < 0.55:
            ops.append(("sign", sorted(set(rnd.randrange(KEYS) for _ in range(rnd.randrange(1, 6))))))
        elif r < 0.70:
            ops.append(("upd", rnd.randrange(7)))
        elif r < 0.82:
            a = rnd.randrange(KEYS)
            ops.append(("del", a, a + rnd.randrange(10)))
        else:
            ops.append(("txn", [gen_rows(rnd) for _ in range(rnd.randrange(2, 4))]))
    return ops


def lit(x):
    if isinstance(x, int):
        return str(x)
    return "'" + pymysql.converters.escape_string(x) + "'"


def ins_sql(rows):
    return "INSERT INTO b (k, v, n) VALUES " + ", ".join(
        "(%s, %s, %s)" % tuple(map(lit, r)) for r in rows)


def sql_of(op):
    kind = op[0]
    if kind == "ins":
        return [ins_sql(op[1])]
    if kind == "sign":
        return ["INSERT INTO b (k, v, n, __DORIS_DELETE_SIGN__) VALUES "
                + ", ".join("(%d, 'x', 0, 1)" % k for k in op[1])]
    if kind == "upd":
        return ["UPDATE b SET n = n + 1 WHERE k %% 7 = %d" % op[1]]
    if kind == "del":
        return ["DELETE FROM b WHERE k BETWEEN %d AND %d" % (op[1], op[2])]
    if kind == "txn":
        return ["BEGIN"] + [ins_sql(rows) for rows in op[1]] + ["COMMIT"]
    raise ValueError(op)


def describe(op):
    s = "; ".join(sql_of(op))
    return s if len(s) < 120 else s[:110] + "..."


def apply(state, op):
    """Apply op to state ({k: (v, n)}) in place; return its records as a sorted list of
    (op, k, v, n, before_v, before_n)."""
    kind = op[0]
    final = {}  # k -> new (v, n) or None (deleted), in the order of the statement
    if kind == "ins":
        for k, v, n in op[1]:
            final[k] = (v, n)
    elif kind == "txn":
        for rows in op[1]:
            for k, v, n in rows:
                final[k] = (v, n)
    elif kind == "sign":
        for k in op[1]:
            final[k] = None
    elif kind == "upd":
        for k, (v, n) in state.items():
            if k % 7 == op[1]:
                final[k] = (v, n + 1)
    elif kind == "del":
        for k in state:
            if op[1] <= k <= op[2]:
                final[k] = None
    recs = []
    for k, new in final.items():
        old = state.get(k)
        if new is None:
            if old is not None:
                recs.append((2, k, old[0], old[1], old[0], old[1]))
                del state[k]
        elif old is None:
            recs.append((0, k, new[0], new[1], None, None))
            state[k] = new
        else:
            recs.append((1, k, new[0], new[1], old[0], old[1]))
            state[k] = new
    return sorted(recs, key=lambda r: (r[1], r[0]))


def fetch(conn):
    with conn.cursor() as cur:
        cur.execute(RECORDS_SQL)
        recs = [tuple(r) for r in cur.fetchall()]
        cur.execute("SELECT k, v, n FROM b ORDER BY k")
        table = {r[0]: (r[1], r[2]) for r in cur.fetchall()}
    return recs, table


def groups(recs):
    """Records (ordered by TSO, LSN) as [(tso, sorted records without TSO/LSN)]."""
    out = []
    for r in recs:
        if not out or out[-1][0] != r[6]:
            out.append((r[6], []))
        out[-1][1].append(r[:6])
    return [(t, sorted(g, key=lambda x: (x[1], x[0]))) for t, g in out]


def check(recs, table, old_recs, expected):
    """Problems (strings) of the records after a restart; expected = record groups of the
    acknowledged ops (all rounds, in order)."""
    problems = []
    # 1. the records seen after the previous restart are unchanged
    if recs[:len(old_recs)] != old_recs:
        lost = [r for r in old_recs if r not in set(recs)]
        problems.append("records from before the kill changed: %d of %d missing or altered, e.g. %s"
                        % (len(lost), len(old_recs), lost[:3]))
    # 3. LSN unique and consistent with TSO
    lsns = [r[7] for r in recs]
    if len(set(lsns)) != len(lsns):
        problems.append("duplicate LSNs")
    if lsns != sorted(lsns):
        problems.append("ordering by (TSO, LSN) differs from ordering by LSN")
    # 2. one group per acknowledged op that changed something
    got = groups(recs)
    want = [g for g in expected if g]
    if len(got) < len(want) or [g for _, g in got[:len(want)]] != want:
        first = next((i for i in range(min(len(got), len(want))) if got[i][1] != want[i]), None)
        if first is None:
            problems.append("%d commits with records, %d acknowledged ones changed rows"
                            % (len(got), len(want)))
        else:
            problems.append("commit %d (of %d acknowledged): records %s, want %s"
                            % (first + 1, len(want), got[first][1][:4], want[first][:4]))
    # 4. replay equals the table
    state = {}
    for r in sorted(recs, key=lambda r: r[7]):
        if r[0] == 2:
            state.pop(r[1], None)
        else:
            state[r[1]] = (r[2], r[3])
    if state != table:
        diff = [k for k in set(state) | set(table) if state.get(k) != table.get(k)]
        problems.append("replaying the records gives a different table at %d keys, e.g. k=%s: "
                        "replay %s, table %s" % (len(diff), diff[0], state.get(diff[0]),
                                                 table.get(diff[0])))
    return problems, len(got) - len(want)


# ---------------------------------------------------------------------------------------------
# Concurrent writers on table c: C_WRITERS threads upsert stamped rows (n = a stamp unique to the
# statement, keys distinct within it) and delete small key ranges, at the same time as the
# workload on b. Their order is not known in advance, so c is checked by invariants: each
# acknowledged stamp has exactly one record per key it wrote, all with one TSO; a stamp in flight
# at the kill has all of them or none; no other stamp appears; in LSN order every record's before
# image is the key's previous after image (op 0 only for an absent key); replay equals the table.
# ---------------------------------------------------------------------------------------------


def c_writer(srv, wid, seed, st, stop, killing):
    rnd = random.Random(seed)
    try:
        conn = srv.connect()
    except pymysql.err.MySQLError as e:
        st["error"] = "c writer %d connect: %s" % (wid, e)
        return
    seq = 0
    try:
        with conn.cursor() as cur:
            while not stop.is_set():
                if rnd.random() < 0.2:
                    a = rnd.randrange(C_KEYS)
                    st["inflight"][wid] = None
                    cur.execute("DELETE FROM c WHERE k BETWEEN %d AND %d" % (a, a + 2))
                    continue
                seq += 1
                stamp = (st["round"] * 100 + wid) * 1000000 + seq
                keys = sorted(set(rnd.randrange(C_KEYS) for _ in range(rnd.randrange(1, 11))))
                st["inflight"][wid] = (stamp, keys)
                cur.execute("INSERT INTO c (k, n) VALUES "
                            + ", ".join("(%d, %d)" % (k, stamp) for k in keys))
                st["acked"][stamp] = keys
                st["inflight"][wid] = None
    except pymysql.err.OperationalError as e:
        if not (e.args and e.args[0] in CONN_ERRORS):
            st["error"] = "c writer %d: %s" % (wid, e)
        elif not killing.is_set():
            st["lost"] = str(e)
    except pymysql.err.MySQLError as e:
        if not (isinstance(e, pymysql.err.InterfaceError) and killing.is_set()):
            st["error"] = "c writer %d: %s" % (wid, e)
    except OSError as e:
        if not killing.is_set():
            st["lost"] = str(e)
    finally:
        try:
            conn.close()
        except Exception:
            pass


def check_c(recs, table, old_recs, acked, inflight):
    """Problems of table c's records (see above); acked = {stamp: keys} of every round,
    inflight = [(stamp, keys)] of this kill."""
    problems = []
    if recs[:len(old_recs)] != old_recs:
        problems.append("c: records from before the kill changed")
    lsns = [r[5] for r in recs]
    if len(set(lsns)) != len(lsns) or lsns != sorted(lsns):
        problems.append("c: LSNs not unique or not in TSO order")
    by_stamp = {}
    for op, k, n, bn, tso, lsn in recs:
        if op != 2:
            by_stamp.setdefault(n, []).append((k, tso))
    flying = dict(inflight)
    for stamp, got in sorted(by_stamp.items()):
        keys = sorted(k for k, _ in got)
        want = acked.get(stamp, flying.get(stamp))
        if want is None:
            problems.append("c: records of stamp %d that no statement wrote: keys %s" % (stamp, keys))
        elif keys != want or len(set(t for _, t in got)) != 1:
            problems.append("c: stamp %d: records for keys %s (%d TSOs), statement wrote %s"
                            % (stamp, keys, len(set(t for _, t in got)), want))
    for stamp in acked:
        if stamp not in by_stamp:
            problems.append("c: acknowledged stamp %d has no records" % stamp)
            break
    state = {}
    for op, k, n, bn, tso, lsn in sorted(recs, key=lambda r: r[5]):
        if op == 0 and k in state or op != 0 and state.get(k, "absent") != bn:
            problems.append("c: record (op %d, k %d, n %s, before %s) does not follow the key's "
                            "previous record (%s)" % (op, k, n, bn, state.get(k, "absent")))
            break
        if op == 2:
            del state[k]
        else:
            state[k] = n
    if state != table:
        problems.append("c: replaying the records gives a different table")
    return problems


def fetch_c(conn):
    with conn.cursor() as cur:
        cur.execute(C_RECORDS_SQL)
        recs = [tuple(r) for r in cur.fetchall()]
        cur.execute("SELECT k, n FROM c")
        table = dict(cur.fetchall())
    return recs, table


def workload(srv, ops, st, stop, killing, oplog):
    try:
        conn = srv.connect()
    except pymysql.err.MySQLError as e:
        st["error"] = "connect: %s" % e
        return
    try:
        with conn.cursor() as cur:
            for op in ops:
                if stop.is_set():
                    return
                stmts = sql_of(op)
                st["inflight"], st["commit_sent"] = op, False
                for i, sql in enumerate(stmts):
                    if i == len(stmts) - 1:
                        st["commit_sent"] = True
                    oplog.write(sql + "\n")
                    st["sent_at"] = time.monotonic()
                    cur.execute(sql)
                    st["sent_at"] = None
                oplog.write("-- ack\n")
                st["acked"].append(op)
                st["inflight"] = None
    except pymysql.err.OperationalError as e:
        if not (e.args and e.args[0] in CONN_ERRORS):
            st["error"] = "%s: %s" % (describe(st["inflight"]), e)
        elif not killing.is_set():
            st["lost"] = str(e)
    except pymysql.err.MySQLError as e:
        if isinstance(e, pymysql.err.InterfaceError) and killing.is_set():
            return
        st["error"] = "%s: %s" % (describe(st["inflight"]) if st["inflight"] else "-", e)
    except OSError as e:
        if not killing.is_set():
            st["lost"] = str(e)
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
    ap.add_argument("--ops", type=int, default=2000, help="ops generated per round (upper bound)")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="binlog_crash.", dir=args.workdir)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"), start_timeout=30.0, io_timeout=60)
    oplog = open(os.path.join(work, "statements.log"), "w", buffering=1)
    print("seed %d, work dir %s" % (seed, work), flush=True)
    state, expected, old_recs = {}, [], []
    c_acked, c_old = {}, []
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
            ops = gen_ops(rnd, args.ops)
            delay = rnd.uniform(0.05, 1.5)
            oplog.write("-- round %d (kill after %.3f s)\n" % (rnd_no, delay))
            st = {"acked": [], "inflight": None, "commit_sent": False, "error": None,
                  "lost": None, "sent_at": None}
            stop, killing = threading.Event(), threading.Event()
            th = threading.Thread(target=workload, args=(srv, ops, st, stop, killing, oplog))
            cst = {"round": rnd_no, "acked": {}, "inflight": [None] * C_WRITERS, "error": None,
                   "lost": None}
            cths = [threading.Thread(target=c_writer, args=(srv, w, rnd.randrange(1 << 30), cst,
                                                            stop, killing))
                    for w in range(C_WRITERS)]
            th.start()
            for t in cths:
                t.start()
            t_end = time.monotonic() + delay
            while time.monotonic() < t_end and th.is_alive() and srv.alive():
                time.sleep(0.005)
            sent = st["sent_at"]
            if th.is_alive() and sent is not None and time.monotonic() - sent > 1.0:
                while (th.is_alive() and srv.alive() and st["sent_at"] == sent
                       and time.monotonic() - sent < HANG_S):
                    time.sleep(0.01)
                if th.is_alive() and srv.alive() and st["sent_at"] == sent:
                    st["hung"] = time.monotonic() - sent
            if not th.is_alive():
                t_end = time.monotonic() + 3
                while srv.alive() and time.monotonic() < t_end:
                    time.sleep(0.01)
            crashed = not srv.alive()
            rc = srv.proc.returncode if crashed else None
            killing.set()
            srv.kill()
            stop.set()
            th.join(90)
            for t in cths:
                t.join(90)
            if any(t.is_alive() for t in cths):
                raise RuntimeError("round %d: a writer of c did not stop" % rnd_no)
            c_acked.update(cst["acked"])
            if th.is_alive():
                raise RuntimeError("round %d: workload thread did not stop" % rnd_no)
            oplog.write("-- SIGKILL\n")
            acked, inflight = st["acked"], st["inflight"]
            for op in acked:
                expected.append(apply(state, op))
            problems = []
            if crashed:
                problems.append("server died by itself (exit status %s)" % rc)
            if st["lost"] and not crashed:
                problems.append("server dropped the connection before the kill (%s)" % st["lost"])
            if st.get("hung"):
                problems.append("no reply after %.0f s to %s" % (st["hung"], describe(inflight)))
            if st["error"]:
                problems.append("statement failed: %s" % st["error"])
            if cst["error"]:
                problems.append("statement failed: %s" % cst["error"])
            if cst["lost"] and not crashed:
                problems.append("server dropped a c writer's connection before the kill (%s)"
                                % cst["lost"])
            recs = None
            try:
                restart_s = srv.start()
                conn = srv.connect()
                recs, table = fetch(conn)
                crecs, ctable = fetch_c(conn)
                conn.close()
            except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
                problems.append("restart after the kill failed: %s" % e)
            if recs is not None:
                # without the in-flight op, then with it (all of its records or none)
                p1, extra = check(recs, table, old_recs, expected)
                if not p1 and extra:
                    p1 = ["%d commits with records beyond the acknowledged ones" % extra]
                if p1 and inflight is not None and st["commit_sent"]:
                    s2 = dict(state)
                    g = apply(s2, inflight)
                    p2, extra2 = check(recs, table, old_recs, expected + [g])
                    if not p2 and extra2:
                        p2 = ["%d commits with records beyond the acknowledged ones" % extra2]
                    if not p2:
                        state, p1 = s2, []
                        expected.append(g)
                    else:
                        p1 = ["without the in-flight op: " + "; ".join(p1),
                              "with it: " + "; ".join(p2)]
                problems += p1
                old_recs = recs
                problems += check_c(crecs, ctable, c_old, c_acked,
                                    [f for f in cst["inflight"] if f is not None])
                for f in cst["inflight"]:  # an in-flight stamp that committed counts from now on
                    if f is not None and any(r[2] == f[0] and r[0] != 2 for r in crecs):
                        c_acked[f[0]] = f[1]
                c_old = crecs
            if problems:
                print("FAILED round %d: %s" % (rnd_no, "\n  ".join(problems)))
                print("  %d ops acknowledged this round; in flight: %s (final statement sent: %s)"
                      % (len(acked), describe(inflight) if inflight else "-", st["commit_sent"]))
                print("  server log tail:\n" + srv.tail(15))
                failed += 1
                break
            print("ok round %d (%d ops acknowledged, in flight %s, %d records, %d rows; c: %d "
                  "stamps acknowledged, %d records; restart %.2f s)"
                  % (rnd_no, len(acked), inflight[0] if inflight else "-", len(recs), len(state),
                     len(cst["acked"]), len(crecs), restart_s), flush=True)
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
