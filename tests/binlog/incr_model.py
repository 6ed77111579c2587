#!/usr/bin/python3
"""Randomized model test of Row Binlog incremental reads (issue "Row Binlog", DORIS_SEMANTICS.md
§2.3-§2.6, decisions R3 and R14): random writes on a merge-on-write table with before images and
on a Duplicate Key table, then `t@incr(...)` in every mode over random windows, compared with an
in-test model of the same changes.

    /usr/bin/python3 tests/binlog/incr_model.py --server BIN --workdir DIR [--ops N] [--windows N]
                                                 [--seed S]

The model knows nothing of the server's storage: it tracks the table state the statements leave
and, per statement (or explicit transaction), the record each touched key must produce:
  key absent before, present after        -> insert (op 0) with the final values
  key present before, present after        -> update: before = start values, after = final
  key present before, absent after         -> delete with the start values
  key absent before and after              -> nothing
(one record per key per commit: a commit's writes to a key fold, last write wins). Statements are
separated by a few milliseconds and a client-side time mark is taken in each gap, so the window
[mark_a, mark_b) holds exactly the commits a+1 .. b (each commit's TSO is checked to lie between
its marks). Expected output per window (§2.5):
  APPEND_ONLY  one APPEND (0) per insert record
  DETAIL       insert -> APPEND (0); update -> UPDATE_BEFORE (2) + UPDATE_AFTER (3); delete ->
               DELETE (1) with the start values
  MIN_DELTA    per key, state before the window's first record vs after its last: APPEND /
               UPDATE_BEFORE + UPDATE_AFTER (also when the values end equal, R3) / DELETE /
               nothing
  Duplicate Key tables read APPEND_ONLY in every mode.
Results are compared as multisets of (k, v, s, op); DETAIL rows must also group by
__DORIS_BINLOG_TSO__ exactly into the model's commits, in commit order. Some MIN_DELTA windows
are re-read with /*+ SET_VAR(batch_size=1) */ and must not change. Windows without a start
(everything retained) and without an end are included. Prints one summary line; exits non-zero
at the first mismatch with the window, the mode, and both row sets, keeping the work dir.
"""

import argparse
import collections
import datetime
import os
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crash"))
from crashlib import Server  # noqa: E402  (server start/kill/stop/connect helpers)

DB = "incr_model"
KEYS = 16  # small key space: inserts of existing keys, deletes of absent ones, re-inserts
MOW = ("UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES ("
       "\"enable_unique_key_merge_on_write\" = \"true\", \"binlog.enable\" = \"true\", "
       "\"binlog.format\" = \"ROW\", \"binlog.need_historical_value\" = \"true\")")
DUP = ("DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("
       "\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")")
APPEND, DELETE, UB, UA = 0, 1, 2, 3


class Failure(Exception):
    pass


def q(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return [tuple(r) for r in cur.fetchall()]


def now_ms():
    return int(time.time() * 1000)


def ts_text(ms):
    dt = datetime.datetime.fromtimestamp(ms / 1000.0, tz=datetime.timezone.utc)
    return dt.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (ms % 1000)


def sql_str(s):
    return "NULL" if s is None else "'%s'" % s


class Model:
    """Table states and the records of each commit."""

    def __init__(self):
        self.m = {}        # k -> (v, s): the MoW table now
        self.commits = []  # per commit: {"m": [(kind, k, before, after)], "d": [(k, v, s)]}

    def begin(self):
        self.start = dict(self.m)
        self.touched = []  # MoW keys written by this commit, first-touch order
        self.dup = []

    def touch(self, k):
        if k not in self.touched:
            self.touched.append(k)

    def end(self):
        recs = []
        for k in self.touched:
            before, after = self.start.get(k), self.m.get(k)
            if before is None and after is not None:
                recs.append(("ins", k, None, after))
            elif before is not None and after is not None:
                recs.append(("upd", k, before, after))
            elif before is not None:
                recs.append(("del", k, before, None))
        self.commits.append({"m": recs, "d": list(self.dup)})


def random_row(rnd):
    return rnd.randrange(-50, 1000), rnd.choice([None, "a", "b", "xy", "zzz", ""])


def gen_statement(rnd, model, in_txn, txn_keys):
    """One random statement on m or d; applies it to the model. Inside a transaction the
    statements touch disjoint keys (a transaction's reads see only committed rows)."""
    free = [k for k in range(KEYS) if k not in txn_keys]
    kind = rnd.choice(["ins", "ins", "ins_many", "upd", "del", "dup"])
    if not free and kind != "dup":
        kind = "dup"
    if kind in ("ins", "ins_many"):
        n = 1 if kind == "ins" else rnd.randint(2, 5)
        ks = [rnd.choice(free) for _ in range(n)]
        if in_txn:
            ks = list(dict.fromkeys(ks))
        rows = [(k,) + random_row(rnd) for k in ks]
        for k, v, s in rows:  # duplicates of a key in one statement: the last one wins
            model.m[k] = (v, s)
            model.touch(k)
            txn_keys.add(k)
        return "INSERT INTO m VALUES " + ", ".join("(%d, %d, %s)" % (k, v, sql_str(s))
                                                   for k, v, s in rows)
    if kind == "upd":
        ks = rnd.sample(free, min(len(free), rnd.randint(1, 4)))
        d = rnd.randint(-3, 3)
        s = rnd.choice([None, "u", "vv"])
        for k in ks:
            if k in model.m:
                v0, _ = model.m[k]
                model.m[k] = (v0 + d, s)
                model.touch(k)
            txn_keys.add(k)
        return "UPDATE m SET v = v + %d, s = %s WHERE k IN (%s)" % (
            d, sql_str(s), ", ".join(str(k) for k in ks))
    if kind == "del":
        ks = rnd.sample(free, min(len(free), rnd.randint(1, 3)))
        for k in ks:
            if k in model.m:
                del model.m[k]
                model.touch(k)
            txn_keys.add(k)
        return "DELETE FROM m WHERE k IN (%s)" % ", ".join(str(k) for k in ks)
    rows = [(rnd.randrange(KEYS),) + random_row(rnd) for _ in range(rnd.randint(1, 4))]
    model.dup.extend(rows)
    return "INSERT INTO d VALUES " + ", ".join("(%d, %d, %s)" % (k, v, sql_str(s))
                                               for k, v, s in rows)


def expected_mow(commits, mode):
    out = []
    if mode == "APPEND_ONLY":
        for c in commits:
            out += [(k, a[0], a[1], APPEND) for kind, k, b, a in c["m"] if kind == "ins"]
    elif mode == "DETAIL":
        for c in commits:
            for kind, k, b, a in c["m"]:
                if kind == "ins":
                    out.append((k, a[0], a[1], APPEND))
                elif kind == "upd":
                    out += [(k, b[0], b[1], UB), (k, a[0], a[1], UA)]
                else:
                    out.append((k, b[0], b[1], DELETE))
    else:  # MIN_DELTA
        first, last = {}, {}
        for c in commits:
            for rec in c["m"]:
                first.setdefault(rec[1], rec)
                last[rec[1]] = rec
        for k, f in first.items():
            l = last[k]
            start = None if f[0] == "ins" else f[2]
            end = None if l[0] == "del" else l[3]
            if start is None and end is not None:
                out.append((k, end[0], end[1], APPEND))
            elif start is not None and end is not None:
                out += [(k, start[0], start[1], UB), (k, end[0], end[1], UA)]
            elif start is not None:
                out.append((k, start[0], start[1], DELETE))
    return out


def expected_dup(commits):
    return [(k, v, s, APPEND) for c in commits for k, v, s in c["d"]]


def incr(conn, table, lo, hi, mode, hint=""):
    params = []
    if lo is not None:
        params.append("\"startTimestamp\" = \"%s\"" % ts_text(lo))
    if hi is not None:
        params.append("\"endTimestamp\" = \"%s\"" % ts_text(hi))
    params.append("\"incrementType\" = \"%s\"" % mode)
    return q(conn, "SELECT %s k, v, s, __DORIS_BINLOG_OP__, __DORIS_BINLOG_TSO__, "
                   "__DORIS_BINLOG_LSN__ FROM %s@incr(%s)" % (hint, table, ", ".join(params)))


def same(rows, want):
    return collections.Counter(r[:4] for r in rows) == collections.Counter(want)


def check_window(conn, model, marks, a, b, hint_every, stats):
    """Window [marks[a], marks[b]) = commits a .. b-1 (marks[0] is before the first commit);
    a None bound is an open window."""
    lo = marks[a] if a is not None else None
    hi = marks[b] if b is not None else None
    commits = model.commits[(a or 0):(b if b is not None else len(model.commits))]
    what = "window [%s, %s) = commits %d..%d" % (
        ts_text(lo) if lo else "-", ts_text(hi) if hi else "-", a or 0,
        (b if b is not None else len(model.commits)) - 1)
    for mode in ("APPEND_ONLY", "DETAIL", "MIN_DELTA"):
        want = expected_mow(commits, mode)
        rows = incr(conn, "m", lo, hi, mode)
        stats["rows"] += len(rows)
        if not same(rows, want):
            raise Failure("%s, m, %s:\n  got  %s\n  want %s" % (
                what, mode, sorted(r[:4] for r in rows), sorted(want)))
        if mode == "DETAIL":
            # Rows group by TSO exactly into the commits, in commit order; UPDATE_BEFORE and
            # UPDATE_AFTER of one update share TSO and LSN (R14).
            by_tso = collections.OrderedDict()
            for r in sorted(rows, key=lambda r: (r[4], r[5], -r[3])):
                by_tso.setdefault(r[4], []).append(r)
            groups = [g for g in by_tso.values()]
            want_groups = [expected_mow([c], "DETAIL") for c in commits if c["m"]]
            if len(groups) != len(want_groups) or not all(
                    same(g, w) for g, w in zip(groups, want_groups)):
                raise Failure("%s, m, DETAIL: rows do not group by TSO into the commits:\n"
                              "  got  %s\n  want %s" % (what, groups, want_groups))
            for r in rows:
                if r[3] == UB and not any(x[3] == UA and x[0] == r[0] and x[4] == r[4]
                                          and x[5] == r[5] for x in rows):
                    raise Failure("%s: UPDATE_BEFORE %r has no UPDATE_AFTER with its TSO/LSN"
                                  % (what, r))
        if mode == "MIN_DELTA" and stats["windows"] % hint_every == 0:
            again = incr(conn, "m", lo, hi, mode, "/*+ SET_VAR(batch_size=1) */")
            if not same(again, want):
                raise Failure("%s, m, MIN_DELTA with batch_size=1 differs:\n  got  %s\n  want %s"
                              % (what, sorted(r[:4] for r in again), sorted(want)))
        rows = incr(conn, "d", lo, hi, mode)
        stats["rows"] += len(rows)
        if not same(rows, expected_dup(commits)):
            raise Failure("%s, d (duplicate key), %s:\n  got  %s\n  want %s" % (
                what, mode, sorted(r[:4] for r in rows), sorted(expected_dup(commits))))
    stats["windows"] += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--ops", type=int, default=80, help="commits (statements or transactions)")
    ap.add_argument("--windows", type=int, default=40)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rnd = random.Random(seed)
    os.makedirs(args.workdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="incr_model.", dir=args.workdir)
    srv = Server(os.path.abspath(args.server), os.path.join(work, "data"),
                 os.path.join(work, "server.log"), start_timeout=30.0, io_timeout=120)
    ok = False
    t0 = time.monotonic()
    try:
        srv.start()
        conn = srv.connect()
        q(conn, "CREATE DATABASE %s" % DB)
        q(conn, "CREATE TABLE %s.m (k INT, v INT, s VARCHAR(8)) %s" % (DB, MOW))
        q(conn, "CREATE TABLE %s.d (k INT, v INT, s VARCHAR(8)) %s" % (DB, DUP))
        conn.close()
        srv.database = DB
        conn = srv.connect()
        q(conn, "SET time_zone = '+00:00'")
        model = Model()
        time.sleep(0.003)
        marks = [now_ms()]
        time.sleep(0.003)
        last_tso = 0
        for i in range(args.ops):
            model.begin()
            t_begin = now_ms()
            if rnd.random() < 0.25:
                keys = set()
                stmts = [gen_statement(rnd, model, True, keys) for _ in range(rnd.randint(2, 4))]
                q(conn, "BEGIN")
                for s in stmts:
                    q(conn, s)
                q(conn, "COMMIT")
            else:
                q(conn, gen_statement(rnd, model, False, set()))
            t_end = now_ms()
            model.end()
            tso = q(conn, "SELECT current_tso()")[0][0]
            phys = tso >> 18
            wrote = bool(model.commits[-1]["m"] or model.commits[-1]["d"])
            if tso < last_tso or (wrote and tso == last_tso):
                raise Failure("commit %d: TSO %d after %d" % (i, tso, last_tso))
            if tso != last_tso and not (t_begin <= phys <= t_end):
                # (a statement that changed nothing may commit nothing: no new TSO)
                raise Failure("test assumption: commit %d got TSO %d (%d ms), outside the "
                              "client's [%d, %d] ms" % (i, tso, phys, t_begin, t_end))
            last_tso = tso
            time.sleep(0.003)
            marks.append(now_ms())
            time.sleep(0.003)
        # The base table equals the model (the model's own sanity).
        got = {r[0]: (r[1], r[2]) for r in q(conn, "SELECT k, v, s FROM m")}
        if got != model.m:
            raise Failure("table m differs from the model:\n  got  %s\n  want %s"
                          % (sorted(got.items()), sorted(model.m.items())))
        stats = {"windows": 0, "rows": 0}
        n = len(model.commits)
        windows = [(None, None), (0, None), (None, n), (0, 0), (n, n)]
        for _ in range(args.windows):
            a = rnd.randint(0, n)
            b = rnd.randint(0, n)
            windows.append((min(a, b), max(a, b)))
        windows += [(rnd.randint(0, n), None) for _ in range(3)]
        for a, b in windows:
            check_window(conn, model, marks, a, b, 3, stats)
        nrec = sum(len(c["m"]) for c in model.commits)
        print("incr_model: %d commits (%d MoW records, %d DUP rows), %d windows x 3 modes, "
              "%d rows compared, seed %d, %.1f s"
              % (n, nrec, sum(len(c["d"]) for c in model.commits), stats["windows"],
                 stats["rows"], seed, time.monotonic() - t0), flush=True)
        ok = True
    except Failure as e:
        print("FAILED incr_model (seed %d): %s" % (seed, e), flush=True)
    except Exception as e:  # noqa: BLE001
        print("FAILED incr_model (seed %d): %s: %s\n%s" % (seed, type(e).__name__, e,
                                                         srv.tail()), flush=True)
    finally:
        if srv.alive():
            rc = srv.stop()
            if rc != 0 and ok:
                print("FAILED incr_model: server exit status %r\n%s" % (rc, srv.tail()))
                ok = False
    if ok:
        shutil.rmtree(work, ignore_errors=True)
        return 0
    print("work dir kept: %s" % work)
    return 1


if __name__ == "__main__":
    sys.exit(main())
