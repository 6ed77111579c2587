#!/usr/bin/python3
"""Crash test for AUTO_INCREMENT: values are never handed out twice, across `kill -9`.

    /usr/bin/python3 tests/crash/autoinc_crash.py --server BIN --workdir DIR [--rounds N] [--seed S]

A table `ac.t (id BIGINT NOT NULL AUTO_INCREMENT, tok VARCHAR(40), PRIMARY KEY (id))` is a
merge-on-write UNIQUE KEY table, so a repeated id would silently replace an earlier row. Each
round starts the server on the same data directory, one connection inserts multi-row batches
without ids (recording the acknowledged tokens and the ids from the OK packet's last_insert_id),
and the server is killed with SIGKILL after a random delay. After the restart:
  * every acknowledged token is still there, with the id it was given (no id was reused);
  * a new insert gets an id above every id in the table and above every acknowledged id.
A final clean stop and start (the catalog image path) is checked the same way.
Prints `ok round N` / `FAILED round N` and `N passed, N failed`; exits non-zero on failure.
Only 127.0.0.1; every wait is bounded.
"""

import argparse
import os
import random
import shutil
import sys
import threading
import time

try:
    import pymysql
except ImportError:
    sys.exit("autoinc_crash.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)



class State:
    """What the client knows was acknowledged: token -> id, and the highest id seen."""

    def __init__(self):
        self.acked = {}
        self.max_id = 0
        self.errors = []


def insert_batch(cur, st, toks):
    cur.execute("INSERT INTO ac.t (tok) VALUES " + ", ".join("('%s')" % t for t in toks))
    first = cur.lastrowid  # the OK packet's last_insert_id: the statement's first value
    if first <= st.max_id:
        st.errors.append("id %d handed out again (max acknowledged %d)" % (first, st.max_id))
    for i, t in enumerate(toks):  # one connection: a statement's values are consecutive
        st.acked[t] = first + i
    st.max_id = max(st.max_id, first + len(toks) - 1)


def writer(srv, st, rnd, rnd_no, stop):
    try:
        conn = srv.connect()
        cur = conn.cursor()
        seq = 0
        while not stop.is_set():
            n = rnd.randrange(1, 60)
            toks = ["r%d_%d" % (rnd_no, seq + i) for i in range(n)]
            seq += n
            insert_batch(cur, st, toks)
    except (pymysql.err.OperationalError, pymysql.err.InterfaceError, ConnectionError, OSError):
        pass  # the kill


def check(srv, st, label):
    """Acknowledged rows keep their ids; a new value is above everything."""
    conn = srv.connect()
    cur = conn.cursor()
    cur.execute("SELECT tok, id FROM ac.t")
    rows = dict(cur.fetchall())
    bad = [t for t, i in st.acked.items() if rows.get(t) != i]
    if bad:
        st.errors.append("%s: %d acknowledged rows lost or moved, e.g. %s -> %s (want %s)"
                         % (label, len(bad), bad[0], rows.get(bad[0]), st.acked[bad[0]]))
    top = max([st.max_id] + list(rows.values()))
    tok = "check_%s" % label
    insert_batch(cur, st, [tok])
    if st.acked[tok] <= top:
        st.errors.append("%s: new id %d not above %d" % (label, st.acked[tok], top))
    conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    work = os.path.join(os.path.abspath(args.workdir), "autoinc")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"))
    st = State()
    print("autoinc_crash: seed %d, %d rounds" % (seed, args.rounds))
    passed = failed = 0
    try:
        srv.start()
        conn = srv.connect()
        cur = conn.cursor()
        cur.execute("CREATE DATABASE ac")
        cur.execute("CREATE TABLE ac.t (id BIGINT NOT NULL AUTO_INCREMENT, tok VARCHAR(40), "
                    "PRIMARY KEY (id)) ENGINE=InnoDB")
        conn.close()
        for r in range(args.rounds):
            stop = threading.Event()
            th = threading.Thread(target=writer, args=(srv, st, random.Random(rnd.random()), r,
                                                       stop))
            th.start()
            time.sleep(rnd.uniform(0.2, 1.5))
            srv.kill()
            stop.set()
            th.join(30)
            nerr = len(st.errors)
            srv.start()
            check(srv, st, "round%d" % r)
            if len(st.errors) == nerr:
                passed += 1
                print("ok round %d (%d rows acknowledged, max id %d)"
                      % (r, len(st.acked), st.max_id))
            else:
                failed += 1
                print("FAILED round %d: %s" % (r, "; ".join(st.errors[nerr:])))
        nerr = len(st.errors)
        srv.stop()  # clean shutdown: the catalog image holds the counters
        srv.start()
        check(srv, st, "image")
        if len(st.errors) == nerr:
            passed += 1
            print("ok clean restart")
        else:
            failed += 1
            print("FAILED clean restart: %s" % "; ".join(st.errors[nerr:]))
    finally:
        srv.stop()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
