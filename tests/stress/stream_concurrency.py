#!/usr/bin/python3
"""Concurrent consumption of one Table Stream: no change is delivered twice or lost.

    /usr/bin/python3 tests/stress/stream_concurrency.py --server BIN --workdir DIR
        [--consumers 8] [--writers 2] [--seconds 8] [--seed S]

Starts a fresh server on a free loopback port (data under DIR), creates a DUPLICATE KEY base
table `src` with Row Binlog (two RANGE partitions, so a consumption advances several partitions
at once) holding three rows, an append_only stream `s` on it with show_initial_rows = true (so
the first consumption reads both partitions' initial rows and the consumers race for it: the
"history" check) and a DUPLICATE KEY table `log`.

For --seconds, --writers connections insert batches of 1-20 rows with ids unique to the run,
while --consumers connections each loop `INSERT INTO log SELECT id, w, seq, lsn FROM s`. When two
consume the same window, the later commit must fail with `target offset already consumed:
<db>-<stream>-<partition>-<next> vs <stored>` (seed 000, DORIS_SEMANTICS.md §2.7 E21) and write
nothing; the loser retries. `history offset already consumed: ...` (E22) is right only for a
loser that read initial rows, so never for a consumer that has already committed once (its
reads start at advanced offsets; stream/README.md). Any other error fails the run. After the
writers stop, one last consumption; then the ids in `log` must be exactly the initial ids and
those the writers had acknowledged, each once, and every row must carry the TSO and LSN of its
own change record, as binlog() shows it (initial rows too: the binlog is complete).

Prints `ok stream_concurrency (...)` or `FAILED stream_concurrency: ...`; exits non-zero on
failure, keeping the work dir (server.log). Only 127.0.0.1; every wait is bounded.
"""

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time

try:
    import pymysql
except ImportError:
    sys.exit("stream_concurrency.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crash"))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

DB = "stream_conc"
SPLIT = 1 << 40  # ids below go to partition p1, the others to p2
INITIAL = (-1, -2, 2 * SPLIT - 1)  # rows before the stream, in both partitions
CONFLICT = re.compile(r"^(target|history) offset already consumed: " + DB
                      + r"-s-\d+-\d+ vs (\d+|N/A|none|-?\d+)")

SCHEMA = [
    "CREATE DATABASE %s" % DB,
    "CREATE TABLE %s.src (id BIGINT, w INT, pad VARCHAR(32)) DUPLICATE KEY(id) "
    "PARTITION BY RANGE(id) (PARTITION p1 VALUES LESS THAN (%d), "
    "PARTITION p2 VALUES LESS THAN (%d)) DISTRIBUTED BY HASH(id) BUCKETS 2 "
    "PROPERTIES (\"replication_num\" = \"1\", \"binlog.enable\" = \"true\", "
    "\"binlog.format\" = \"ROW\")" % (DB, SPLIT, 2 * SPLIT),
    "CREATE TABLE %s.log (id BIGINT, w INT, seq BIGINT, lsn BIGINT) DUPLICATE KEY(id) "
    "DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES (\"replication_num\" = \"1\")" % DB,
    "INSERT INTO %s.src VALUES %s" % (DB, ", ".join("(%d, 0, 'initial')" % i for i in INITIAL)),
    "CREATE STREAM %s.s ON TABLE %s.src PROPERTIES (\"type\" = \"append_only\", "
    "\"show_initial_rows\" = \"true\")" % (DB, DB),
]
CONSUME = ("INSERT INTO log SELECT id, w, __DORIS_STREAM_SEQUENCE_COL__, "
           "__DORIS_STREAM_LSN_COL__ FROM s")


def writer(srv, wid, seed, stop, st):
    rnd = random.Random(seed)
    seq = 0
    try:
        conn = srv.connect()
        with conn.cursor() as cur:
            while not stop.is_set():
                rows = []
                for _ in range(rnd.randrange(1, 21)):
                    seq += 1
                    ident = (wid << 32) | seq
                    if rnd.random() < 0.5:
                        ident += SPLIT
                    rows.append(ident)
                cur.execute("INSERT INTO src VALUES " + ", ".join(
                    "(%d, %d, 'w%d')" % (i, wid, wid) for i in rows))
                st["written"].update(rows)
                st["batches"] += 1
        conn.close()
    except Exception as e:  # noqa: BLE001  any failure of a writer fails the run
        st["errors"].append("writer %d: %r" % (wid, e))


def consumer(srv, cid, stop, st, start):
    rnd = random.Random(cid)
    try:
        conn = srv.connect()
        start.wait(30)  # all consumers race for the first (whole-partition) read
        committed = False
        with conn.cursor() as cur:
            while not stop.is_set():
                try:
                    n = cur.execute(CONSUME)
                    committed = True
                    st["commits"] += 1
                    st["rows"] += n
                except pymysql.err.MySQLError as e:
                    msg = e.args[1] if len(e.args) > 1 else str(e)
                    msg = msg.split("detailMessage = ", 1)[-1]
                    if CONFLICT.match(msg):
                        kind = msg.split(" ", 1)[0]
                        st["conflicts"][kind] += 1
                        if kind == "history" and committed:
                            st["errors"].append("consumer %d: %s after its own consumption"
                                                % (cid, msg))
                            return
                        time.sleep(rnd.uniform(0, 0.005))
                        continue
                    raise
        conn.close()
    except Exception as e:  # noqa: BLE001
        st["errors"].append("consumer %d: %r" % (cid, e))


def run(srv, args, rnd):
    conn = srv.connect()
    with conn.cursor() as cur:
        for sql in SCHEMA:
            cur.execute(sql)
    conn.close()
    srv.database = DB
    st = {"written": set(), "batches": 0, "commits": 0, "rows": 0, "errors": [],
          "conflicts": {"target": 0, "history": 0}}
    wstop, cstop = threading.Event(), threading.Event()
    ws = [threading.Thread(target=writer, args=(srv, w + 1, rnd.randrange(1 << 30), wstop, st))
          for w in range(args.writers)]
    start = threading.Barrier(args.consumers)
    cs = [threading.Thread(target=consumer, args=(srv, c, cstop, st, start))
          for c in range(args.consumers)]
    for t in cs + ws:
        t.start()
    time.sleep(args.seconds)
    wstop.set()
    for t in ws:
        t.join(60)
    time.sleep(0.3)  # the consumers race over the last windows
    cstop.set()
    for t in cs:
        t.join(60)
    if any(t.is_alive() for t in cs + ws):
        return ["a writer or consumer did not stop within 60 s"], st
    problems = list(st["errors"])
    conn = srv.connect()
    with conn.cursor() as cur:
        cur.execute(CONSUME)  # what the loop left
        cur.execute("SELECT COUNT(*) FROM s")
        pending = cur.fetchone()[0]
        cur.execute("SELECT id, seq, lsn FROM log")
        got = cur.fetchall()
        cur.execute("SELECT COUNT(*) FROM src")
        base = cur.fetchone()[0]
        cur.execute("SELECT id, __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__ "
                    "FROM binlog(\"table\" = \"src\")")
        records = set(cur.fetchall())
    conn.close()
    ids = [r[0] for r in got]
    written = st["written"] | set(INITIAL)
    if pending:
        problems.append("%d rows still pending after the final consumption" % pending)
    if len(ids) != len(set(ids)):
        dup = sorted(i for i in set(ids) if ids.count(i) > 1)
        problems.append("%d ids delivered more than once, e.g. %s" % (len(dup), dup[:5]))
    # every row carries its own record's TSO and LSN, initial rows (read whole) included
    pairs = [(r[1], r[2]) for r in got]
    if len(set(pairs)) != len(pairs):
        problems.append("(sequence, LSN) pairs delivered more than once")
    strange = set(tuple(r) for r in got) - records
    if strange:
        problems.append("%d rows whose (id, sequence, LSN) is no binlog() record, e.g. %s"
                        % (len(strange), sorted(strange)[:3]))
    missing = written - set(ids)
    extra = set(ids) - written
    if missing:
        problems.append("%d acknowledged rows never delivered, e.g. %s"
                        % (len(missing), sorted(missing)[:5]))
    if extra:
        problems.append("%d delivered rows nobody wrote, e.g. %s" % (len(extra), sorted(extra)[:5]))
    if base != len(written):
        problems.append("src holds %d rows, %d written" % (base, len(written)))
    if st["commits"] < 2:
        problems.append("only %d consumptions committed" % st["commits"])
    return problems, st


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--consumers", type=int, default=8)
    ap.add_argument("--writers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=8.0, help="how long the writers write")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="stream_conc.", dir=args.workdir)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"), start_timeout=30.0, io_timeout=60)
    print("seed %d, work dir %s" % (seed, work), flush=True)
    t0 = time.monotonic()
    try:
        srv.start()
        problems, st = run(srv, args, rnd)
        if srv.alive():
            rc = srv.stop()
            if rc not in (0, None):
                problems.append("server exit status %s at SIGTERM" % rc)
        else:
            problems.append("server died (exit status %s)" % srv.proc.returncode)
    except (RuntimeError, pymysql.err.MySQLError, OSError) as e:
        problems, st = ["%s" % e], None
    finally:
        srv.kill()
    if problems:
        print("FAILED stream_concurrency: " + "\n  ".join(problems))
        print("  server log tail:\n" + srv.tail(15))
        print("work dir kept: %s" % work)
        sys.exit(1)
    print("ok stream_concurrency (%d rows in %d batches, %d consumptions committed, "
          "%d target / %d history conflicts retried, %.1f s)"
          % (len(st["written"]), st["batches"], st["commits"], st["conflicts"]["target"],
             st["conflicts"]["history"], time.monotonic() - t0))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
