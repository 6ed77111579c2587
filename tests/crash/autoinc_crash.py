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
import signal
import socket
import subprocess
import sys
import threading
import time

try:
    import pymysql
except ImportError:
    sys.exit("autoinc_crash.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

HOST = "127.0.0.1"
READY = b"ready for connections"


def free_port():
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """A server process on a fixed data directory; may be started again after a kill
    (the helpers of ddl_crash.py)."""

    def __init__(self, binary, datadir, logpath):
        self.binary, self.datadir, self.logpath = binary, datadir, logpath
        self.proc = None
        self.port = None

    def start(self, timeout=20.0):
        self.port = free_port()
        os.makedirs(self.datadir, exist_ok=True)
        start = os.path.getsize(self.logpath) if os.path.exists(self.logpath) else 0
        log = open(self.logpath, "ab")
        t0 = time.monotonic()
        self.proc = subprocess.Popen([self.binary, "--data-dir", self.datadir,
                                      "--port", str(self.port)],
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        log.close()
        while time.monotonic() - t0 < timeout:
            with open(self.logpath, "rb") as f:
                f.seek(start)
                if READY in f.read():
                    return time.monotonic() - t0
            if self.proc.poll() is not None:
                raise RuntimeError("server exited with %s at start-up:\n%s"
                                   % (self.proc.returncode, self.tail()))
            time.sleep(0.02)
        self.kill()
        raise RuntimeError("server not ready within %.0f s:\n%s" % (timeout, self.tail()))

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
        return self.proc.returncode if self.proc else None

    def tail(self, n=30):
        try:
            with open(self.logpath, "rb") as f:
                lines = f.read().splitlines()[-n:]
            return b"\n".join(lines).decode("utf-8", "replace")
        except OSError:
            return ""

    def connect(self):
        return pymysql.connect(host=HOST, port=self.port, user="root", password="",
                               charset="utf8mb4", autocommit=True, connect_timeout=10,
                               read_timeout=30, write_timeout=30)


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
