#!/usr/bin/env python3
"""Planning scaling check against one running Rivulet (bench/planning/run.sh).

Long statements of one shape at growing sizes: set-operation chains, IN lists, CASE chains,
AND / OR chains, `+` chains and wide INSERT ... VALUES. Prints the time of each size and the
ratio to the previous size (a linear planner gives about the ratio of the sizes, ~2x per
doubling; quadratic ~4x). Every result is checked (a wrong answer stops the run); timings never
pass or fail. A case whose size takes longer than --cap seconds skips its larger sizes.
"""
import argparse
import sys
import time

import pymysql


def connect(port):
    return pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True,
                           max_allowed_packet=256 << 20, read_timeout=600)


def q(conn, sql):
    with conn.cursor() as c:
        c.execute(sql)
        return c.fetchall()


# ---- statement generators: (sql, expected rows) ----

def union_all(n):
    return " UNION ALL ".join("SELECT 1" for _ in range(n)), [(1,)] * n


def union_distinct(n):
    sql = " UNION ".join("SELECT %d" % (i % 100) for i in range(n))
    return "SELECT COUNT(*) FROM (%s) d" % sql, [(min(n, 100),)]


def intersect(n):
    return " INTERSECT ".join("SELECT 7" for _ in range(n)), [(7,)]


def except_(n):
    return "SELECT 0 " + "".join(" EXCEPT SELECT %d" % (i + 1) for i in range(n - 1)), [(0,)]


def alternating(n):
    sql = "SELECT -1 a" + "".join(" UNION ALL SELECT %d EXCEPT SELECT -1" % i for i in range(n // 2))
    return "SELECT COUNT(*) FROM (%s) d" % sql, [(n // 2,)]


def mixed_types(n):
    vals = ["%d" % 1, "2.5", "'x'", "NULL", "1e3", "CAST('2024-01-02' AS DATE)"]
    sql = " UNION ALL ".join("SELECT %s" % vals[i % len(vals)] for i in range(n))
    return "SELECT COUNT(*), COUNT(DISTINCT a) FROM (%s) d(a)" % sql, None


def tables(n):
    sql = " UNION ALL ".join("SELECT k FROM pb_t WHERE k = %d" % (i % 1000) for i in range(n))
    return "SELECT COUNT(*), SUM(k) FROM (%s) d" % sql, [(n, sum(i % 1000 for i in range(n)))]


def cte(n):
    sql = " UNION ALL ".join("SELECT %d a" % i for i in range(n))
    return "WITH c AS (%s) SELECT COUNT(*), SUM(a) FROM c" % sql, [(n, n * (n - 1) // 2)]


def insert_select(n):
    sql = " UNION ALL ".join("SELECT %d" % i for i in range(n))
    return "INSERT INTO pb_ins %s" % sql, None


def in_ints(n):
    lst = ",".join(str(i * 3) for i in range(n))
    return "SELECT COUNT(*) FROM pb_t WHERE k IN (%s)" % lst, [(len(range(0, 1000, 3)),)]


def in_strings(n):
    lst = ",".join("'s%d'" % (i * 3) for i in range(n))
    return "SELECT COUNT(*) FROM pb_t WHERE s IN (%s)" % lst, [(len(range(0, 1000, 3)),)]


def not_in(n):
    lst = ",".join(str(i * 3) for i in range(n))
    return "SELECT COUNT(*) FROM pb_t WHERE k NOT IN (%s)" % lst, [(1000 - len(range(0, 1000, 3)),)]


def case_simple(n):
    whens = " ".join("WHEN %d THEN %d" % (i, i + 1) for i in range(n))
    return "SELECT SUM(CASE k %s ELSE 0 END) FROM pb_t" % whens, \
        [(sum(k + 1 for k in range(1000) if k < n),)]


def case_searched(n):
    whens = " ".join("WHEN k = %d THEN %d" % (i, i + 1) for i in range(n))
    return "SELECT SUM(CASE %s ELSE 0 END) FROM pb_t" % whens, \
        [(sum(k + 1 for k in range(1000) if k < n),)]


def and_chain(n):
    conds = " AND ".join("k <> %d" % (i + 1000) for i in range(n))
    return "SELECT COUNT(*) FROM pb_t WHERE %s" % conds, [(1000,)]


def or_chain(n):
    conds = " OR ".join("k = %d" % (i * 3) for i in range(n))
    return "SELECT COUNT(*) FROM pb_t WHERE %s" % conds, [(len(range(0, min(1000, 3 * n), 3)),)]


def plus_chain(n):
    return "SELECT SUM(k " + " + 1" * n + ") FROM pb_t", [(sum(range(1000)) + 1000 * n,)]


def values(n):
    rows = ",".join("(%d,%s)" % (i, ",".join(str(i + c) for c in range(1, 10))) for i in range(n))
    return "INSERT INTO pb_wide VALUES %s" % rows, None


CASES = [
    # name, generator, sizes, setup (run before each size)
    ("UNION ALL", union_all, [500, 1000, 2000, 5000, 10000, 20000], None),
    ("UNION DISTINCT", union_distinct, [500, 1000, 2000, 5000, 10000], None),
    ("INTERSECT", intersect, [500, 1000, 2000, 5000, 10000], None),
    ("EXCEPT", except_, [500, 1000, 2000, 5000, 10000], None),
    ("UNION ALL / EXCEPT alternating", alternating, [250, 500, 1000, 2000, 4000, 8000], None),
    ("UNION ALL mixed types", mixed_types, [500, 1000, 2000, 5000, 10000], None),
    ("UNION ALL of table reads", tables, [500, 1000, 2000, 5000], None),
    ("UNION ALL as a CTE", cte, [500, 1000, 2000, 5000, 10000], None),
    ("INSERT ... SELECT UNION ALL", insert_select, [500, 1000, 2000, 5000, 10000],
     "TRUNCATE TABLE pb_ins"),
    ("IN list (INT)", in_ints, [1000, 2000, 5000, 10000, 20000, 50000, 100000], None),
    ("IN list (strings)", in_strings, [1000, 2000, 5000, 10000, 20000, 50000, 100000], None),
    ("NOT IN list", not_in, [1000, 2000, 5000, 10000, 20000, 50000, 100000], None),
    ("CASE k WHEN", case_simple, [500, 1000, 2000, 5000, 10000], None),
    ("CASE WHEN k = ..", case_searched, [500, 1000, 2000, 5000, 10000], None),
    ("AND chain", and_chain, [1000, 2000, 5000, 10000], None),
    ("OR chain", or_chain, [1000, 2000, 5000, 10000], None),
    ("+ chain", plus_chain, [1000, 2000, 5000, 10000], None),
    ("INSERT VALUES (10 cols)", values, [10000, 20000, 50000, 100000], "TRUNCATE TABLE pb_wide"),
]


def setup(conn):
    q(conn, "CREATE DATABASE IF NOT EXISTS bench_planning")
    q(conn, "USE bench_planning")
    q(conn, "DROP TABLE IF EXISTS pb_t FORCE")
    q(conn, "CREATE TABLE pb_t (k INT, s VARCHAR(16)) DUPLICATE KEY(k) "
            "DISTRIBUTED BY HASH(k) BUCKETS 1")
    q(conn, "INSERT INTO pb_t VALUES " + ",".join("(%d,'s%d')" % (i, i) for i in range(1000)))
    q(conn, "DROP TABLE IF EXISTS pb_ins FORCE")
    q(conn, "CREATE TABLE pb_ins (a INT) DUPLICATE KEY(a) DISTRIBUTED BY HASH(a) BUCKETS 1")
    q(conn, "DROP TABLE IF EXISTS pb_wide FORCE")
    q(conn, "CREATE TABLE pb_wide (%s) DUPLICATE KEY(c0) DISTRIBUTED BY HASH(c0) BUCKETS 1"
      % ", ".join("c%d INT" % c for c in range(10)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--cap", type=float, default=30.0, help="skip larger sizes after this (s)")
    ap.add_argument("--only", default="", help="comma-separated case names (substrings)")
    args = ap.parse_args()
    conn = connect(args.port)
    setup(conn)
    only = [s.strip().lower() for s in args.only.split(",") if s.strip()]
    print("%-30s %8s %10s %8s" % ("case", "size", "seconds", "ratio"))
    for name, gen, sizes, pre in CASES:
        if only and not any(o in name.lower() for o in only):
            continue
        prev = None
        for n in sizes:
            sql, want = gen(n)
            if pre:
                q(conn, pre)
            t0 = time.perf_counter()
            try:
                got = q(conn, sql)
            except pymysql.MySQLError as e:
                print("%-30s %8d  error %s" % (name, n, e))
                if isinstance(e, pymysql.err.OperationalError) and e.args[0] in (2006, 2013):
                    sys.exit("bench/planning: the server went away")
                break
            dt = time.perf_counter() - t0
            if want is not None and [tuple(r) for r in got] != want:
                sys.exit("bench/planning: %s n=%d: wrong result %r" % (name, n, got[:3]))
            if gen is insert_select or gen is values:
                cnt = q(conn, "SELECT COUNT(*) FROM %s" % ("pb_ins" if gen is insert_select
                                                           else "pb_wide"))[0][0]
                if cnt != n:
                    sys.exit("bench/planning: %s n=%d: %d rows inserted" % (name, n, cnt))
            ratio = "" if prev is None else "%.2fx" % (dt / prev[1] if prev[1] > 0 else 0)
            print("%-30s %8d %10.3f %8s%s" % (name, n, dt, ratio,
                                               "" if prev is None else
                                               "  (size %.1fx)" % (n / prev[0])), flush=True)
            prev = (n, dt)
            if dt > args.cap:
                print("%-30s %8s  larger sizes skipped (> %.0f s)" % (name, "", args.cap))
                break
    q(conn, "DROP DATABASE bench_planning FORCE")


if __name__ == "__main__":
    main()
