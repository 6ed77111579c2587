#!/usr/bin/python3
"""Differential test: generated single-table queries on Rivulet and on a private MariaDB.

    /usr/bin/python3 tests/diff/diff_test.py --server BIN --workdir DIR [--queries N] [--seed S]
        [--rows R] [--subqueries M] [--setops K] [--keep] [--verbose]

Starts a fresh Rivulet server (`BIN --data-dir D --port P`) and a private MariaDB (mariadbd from
Debian, `mariadb-install-db` into DIR, loopback port, no grants), creates the same generated
schema in both (Rivulet: Doris DDL; MariaDB: the MySQL equivalent), loads the same generated rows
(fixed seed), then runs N generated queries from a grammar limited to what both engines agree on
and compares the results. See tests/diff/README.md for the grammar and the comparison rules.
Prints every mismatch (query, both results) and `N queries, N mismatches`; exits non-zero on any
mismatch. JOIN-free on purpose (joins are being added elsewhere), except for the M subquery
queries run afterwards (`subquery_queries`: [NOT] EXISTS / [NOT] IN / row IN between the two
tables, correlated or not, in WHERE and in the select list) and the K `setop_queries`
(EXTRACT with every unit, parenthesised set operations).
"""

import argparse
import datetime
import decimal
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

try:
    import pymysql
except ImportError:
    sys.exit("diff_test.py: PyMySQL is missing; run with /usr/bin/python3 (python3-pymysql)")

# The server helpers shared with the crash tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crash"))
from crashlib import READY, connect_retry, free_port, tail  # noqa: E402

DB = "difftest"


class Rivulet:
    def __init__(self, binary, workdir):
        self.log = os.path.join(workdir, "rivulet.log")
        self.port = free_port()
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([binary, "--data-dir", os.path.join(workdir, "rivulet"),
                                          "--port", str(self.port)],
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 20:
            with open(self.log, "rb") as f:
                if READY in f.read():
                    return
            if self.proc.poll() is not None:
                raise RuntimeError("rivulet exited with %s at start-up:\n%s"
                                   % (self.proc.returncode, tail(self.log)))
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("rivulet not ready within 20 s:\n" + tail(self.log))

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class MariaDB:
    """mariadbd --no-defaults on a private datadir, as bench/sql/run.sh does."""

    def __init__(self, workdir):
        mariadbd = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
        if not os.path.exists(mariadbd) and os.getuid() == 0:
            subprocess.run(["apt-get", "install", "-y", "-q", "mariadb-server"],
                           env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
                           stdout=subprocess.DEVNULL, check=False)
        if not os.path.exists(mariadbd):
            raise RuntimeError("mariadbd missing; run: apt-get install -y mariadb-server")
        datadir = os.path.join(workdir, "mariadb")
        user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
        self.log = os.path.join(workdir, "mariadb.err")
        with open(os.path.join(workdir, "mariadb-install.log"), "wb") as log:
            r = subprocess.run(["mariadb-install-db", "--no-defaults", "--datadir=" + datadir,
                                "--auth-root-authentication-method=normal", "--skip-test-db",
                                "--user=" + user], stdout=log, stderr=log, timeout=120)
        if r.returncode != 0:
            raise RuntimeError("mariadb-install-db failed:\n"
                               + tail(os.path.join(workdir, "mariadb-install.log")))
        self.port = free_port()
        self.proc = subprocess.Popen(
            [mariadbd, "--no-defaults", "--datadir=" + datadir,
             "--socket=" + os.path.join(workdir, "mariadb.sock"), "--port=%d" % self.port,
             "--bind-address=127.0.0.1", "--skip-grant-tables", "--user=" + user,
             "--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=2",
             "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
             "--pid-file=" + os.path.join(workdir, "mariadb.pid"), "--log-error=" + self.log],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            connect_retry(self.port, timeout=30, proc=self.proc, what="mariadbd").close()
        except RuntimeError as e:
            self.stop()
            raise RuntimeError("%s\n%s" % (e, tail(self.log)))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


# ---------------------------------------------------------------- schema and data

# (name, Doris type, MySQL type, kind). kind: int, dec, dbl, str, date.
COLS = [("id", "INT", "INT", "int"), ("k", "INT", "INT", "int"), ("c", "INT", "INT", "int"),
        ("a", "INT", "INT", "int"), ("b", "BIGINT", "BIGINT", "int"),
        ("d", "DECIMAL(10,2)", "DECIMAL(10,2)", "dec"), ("f", "DOUBLE", "DOUBLE", "dbl"),
        ("s", "VARCHAR(20)", "VARCHAR(20)", "str"), ("dt", "DATE", "DATE", "date")]
KIND = {c[0]: c[3] for c in COLS}
WORDS = ["apple", "Apple", "APPLE", "banana", "Banana", "cherry", "kiwi", "KIWI", "lime", "mango",
         "Mango", "pear", "x", "X", "ab", "aB", "zeta", "a_b", "100%", "o'neil", "", "b\\s"]
# Accented letters: utf8mb4_general_ci compares 'é' = 'E' and 'ß' = 's', so both servers sort and
# group 'Éclair' with the e's (Rivulet: plan_ctype.c weights). Part of the default data;
# --no-accents leaves them out.
ACCENTED = ["café", "CAFÉ", "Éclair", "naïve", "Naïve", "ß"]


def tables():
    """(name, Doris DDL, MySQL DDL). Key columns lead, as Doris wants."""
    def cols(kind_idx, order):
        return ", ".join("%s %s%s" % (c[0], c[kind_idx], " NOT NULL" if c[0] in ("id", "k") else "")
                         for c in order)
    by = {c[0]: c for c in COLS}
    uniq_order = [by["id"]] + [c for c in COLS if c[0] != "id"]
    dup_order = [by["k"], by["id"]] + [c for c in COLS if c[0] not in ("k", "id")]
    return [
        ("tu", "CREATE TABLE tu (%s) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3 "
               "PROPERTIES(\"replication_num\" = \"1\", "
               "\"enable_unique_key_merge_on_write\" = \"true\")" % cols(1, uniq_order),
         "CREATE TABLE tu (%s, PRIMARY KEY(id)) ENGINE=InnoDB" % cols(2, uniq_order)),
        ("td", "CREATE TABLE td (%s) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 4 "
               "PROPERTIES(\"replication_num\" = \"1\")" % cols(1, dup_order),
         "CREATE TABLE td (%s) ENGINE=InnoDB" % cols(2, dup_order)),
    ]


def gen_row(rnd, ident, k):
    def maybe(v, p=0.12):
        return None if rnd.random() < p else v
    day = datetime.date(1995, 1, 1) + datetime.timedelta(days=rnd.randrange(12000))
    return {
        "id": ident, "k": k,
        "c": maybe(rnd.randrange(8)),
        "a": maybe(rnd.randint(-1000, 1000)),
        "b": maybe(rnd.randint(-10 ** 6, 10 ** 6)),
        "d": maybe(decimal.Decimal(rnd.randint(-99999, 99999)) / 100),
        "f": maybe(rnd.randint(-4000, 4000) / 4.0),
        "s": maybe(rnd.choice(WORDS)),
        "dt": maybe(day),
    }


def sql_lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "''") + "'"
    if isinstance(v, datetime.date):
        return "'" + v.isoformat() + "'"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def load_statements(rnd, nrows):
    """Statements run on both servers, identical text except the upsert (Rivulet: INSERT into
    the UNIQUE KEY table replaces; MariaDB: REPLACE INTO)."""
    out = []  # (rivulet sql, mariadb sql)
    names = [c[0] for c in COLS]
    for table in ("tu", "td"):
        rows = []
        for i in range(1, nrows + 1):
            k = i if table == "tu" else rnd.randrange(1, nrows // 3 + 2)
            rows.append(gen_row(rnd, i, k))
        for j in range(0, len(rows), 100):
            vals = ", ".join("(" + ", ".join(sql_lit(r[n]) for n in names) + ")"
                             for r in rows[j:j + 100])
            sql = "INSERT INTO %s (%s) VALUES %s" % (table, ", ".join(names), vals)
            out.append((sql, sql))
    # upsert a tenth of tu's keys with new values
    ups = [gen_row(rnd, i, i) for i in sorted(rnd.sample(range(1, nrows + 1), nrows // 10))]
    vals = ", ".join("(" + ", ".join(sql_lit(r[n]) for n in names) + ")" for r in ups)
    out.append(("INSERT INTO tu (%s) VALUES %s" % (", ".join(names), vals),
                "REPLACE INTO tu (%s) VALUES %s" % (", ".join(names), vals)))
    # deletes (MoW delete bitmaps on tu, delete predicates on td)
    for table in ("tu", "td"):
        for _ in range(3):
            lo = rnd.randrange(1, nrows)
            sql = "DELETE FROM %s WHERE id BETWEEN %d AND %d" % (table, lo, lo + rnd.randrange(1, 8))
            out.append((sql, sql))
    # then a second upsert batch touching some deleted keys again
    ups = [gen_row(rnd, i, i) for i in sorted(rnd.sample(range(1, nrows + 1), nrows // 20))]
    vals = ", ".join("(" + ", ".join(sql_lit(r[n]) for n in names) + ")" for r in ups)
    out.append(("INSERT INTO tu (%s) VALUES %s" % (", ".join(names), vals),
                "REPLACE INTO tu (%s) VALUES %s" % (", ".join(names), vals)))
    return out


# UPDATE assignments: (target, expression, columns it reads). Values stay in range and within
# VARCHAR(20); k is td's DUPLICATE key (a key column updated).
ASSIGNS = [("a", "a + 1", "a"), ("a", "c * 10 - a", "ac"), ("a", "NULL", ""), ("b", "b - a", "ab"),
           ("c", "IF(c > 3, c - 1, c)", "c"), ("c", "c", "c"), ("k", "k + 1", "k"),
           ("k", "IFNULL(c, 0) + 1", "c"), ("s", "UPPER(s)", "s"), ("s", "LOWER(s)", "s"),
           ("s", "SUBSTRING(s, 1, 3)", "s"), ("s", "CONCAT(IFNULL(SUBSTRING(s, 1, 2), ''), 'x')",
                                                "s"),
           ("d", "d + 1.5", "d"), ("f", "f + 0.25", "f"), ("f", "f", "f"), ("dt", "NULL", "")]


def dml_statements(rnd, gen, nrows, n):
    """n UPDATE statements on td (a DUPLICATE table on Rivulet, a table without keys on
    MariaDB: delete-by-location plus insert there) and REPLACE batches on tu, run on both
    servers with the affected rows compared (MySQL's changed rows / 1 per new row, 2 per
    replaced row). Assignments never read a column assigned before them in the statement
    (MySQL evaluates them left to right, Rivulet against the old row)."""
    names = [c[0] for c in COLS]
    out = []
    for i in range(n):
        if i % 5 == 4:
            ups = [gen_row(rnd, j, j) for j in sorted(rnd.sample(range(1, nrows + 50), 8))]
            if rnd.random() < 0.3:
                ups.append(dict(ups[0], s="dup"))  # the same key twice in one statement
            vals = ", ".join("(" + ", ".join(sql_lit(r[c]) for c in names) + ")" for r in ups)
            out.append("REPLACE INTO tu (%s) VALUES %s" % (", ".join(names), vals))
            continue
        sets, assigned = [], set()
        for tgt, expr, reads in rnd.sample(ASSIGNS, rnd.randint(1, 3)):
            if tgt in assigned or any(c in assigned for c in reads):
                continue
            assigned.add(tgt)
            sets.append("%s = %s" % (tgt, expr))
        where = " WHERE " + gen.cond() if rnd.random() < 0.85 else ""
        out.append("UPDATE td SET %s%s" % (", ".join(sets), where))
    return out


# ---------------------------------------------------------------- query grammar

class Gen:
    """Expressions carry a kind (int, dec, dbl, str, date, bool). Literal ranges keep integer
    arithmetic far from overflow; doubles are multiples of 0.25 so sums are exact."""

    def __init__(self, rnd):
        self.r = rnd

    def pick(self, *opts):
        return self.r.choice(opts)

    def col(self, kind):
        return self.r.choice([c[0] for c in COLS if c[3] == kind])

    def int_lit(self):
        return str(self.r.choice([0, 1, 2, 3, 5, 7, 10, 100, 500, -1, -3, -250]))

    def expr(self, kind, depth=0):
        r = self.r
        leaf = depth >= 2 or r.random() < 0.45
        if kind == "int":
            if leaf:
                return self.col("int") if r.random() < 0.8 else self.int_lit()
            return self.pick(
                lambda: "(%s %s %s)" % (self.expr("int", depth + 1), r.choice("+-"),
                                        self.expr("int", depth + 1)),
                lambda: "(%s * %s)" % (self.expr("int", depth + 1), r.randint(-3, 4)),
                lambda: "CASE WHEN %s THEN %s ELSE %s END" % (
                    self.cond(depth + 1), self.expr("int", depth + 1), self.expr("int", depth + 1)),
                lambda: "CASE %s WHEN %d THEN %s WHEN %d THEN %s END" % (
                    self.col("int"), r.randrange(8), self.expr("int", depth + 1), r.randrange(8),
                    self.int_lit()),
                lambda: "IF(%s, %s, %s)" % (self.cond(depth + 1), self.expr("int", depth + 1),
                                           self.expr("int", depth + 1)),
                lambda: "IFNULL(%s, %s)" % (self.expr("int", depth + 1), self.int_lit()),
                lambda: "COALESCE(%s, %s, %s)" % (self.col("int"), self.col("int"),
                                                  self.int_lit()),
                lambda: "LENGTH(%s)" % self.expr("str", depth + 1),
                lambda: "YEAR(%s)" % self.expr("date", depth + 1),
                lambda: "MONTH(%s)" % self.expr("date", depth + 1),
            )()
        if kind == "dec":
            if leaf:
                return "d" if r.random() < 0.85 else r.choice(["1.25", "-3.50", "0.01", "100.00"])
            return self.pick(
                lambda: "(%s %s %s)" % (self.expr("dec", depth + 1), r.choice("+-"),
                                        self.expr(r.choice(["dec", "int"]), depth + 1)),
                lambda: "(d * %d)" % r.randint(-3, 3),
                lambda: "IFNULL(d, %s)" % r.choice(["0", "1.50", "-2.25"]),
                lambda: "IF(%s, d, %s)" % (self.cond(depth + 1), r.choice(["0.00", "9.99"])),
                lambda: "CASE WHEN %s THEN d ELSE %s END" % (self.cond(depth + 1),
                                                            self.col("int")),
            )()
        if kind == "dbl":
            if leaf:
                return "f" if r.random() < 0.85 else r.choice(["f", "(f + 0.25)"])
            return self.pick(
                lambda: "(f %s %s)" % (r.choice("+-"), self.expr(r.choice(["dbl", "int"]),
                                                                 depth + 1)),
                lambda: "(f * %d)" % r.randint(-3, 3),
                lambda: "IFNULL(f, 0.5)",
                lambda: "COALESCE(f, %s, 2.5)" % self.col("int"),
            )()
        if kind == "str":
            if leaf:
                return "s" if r.random() < 0.85 else sql_lit(r.choice(WORDS))
            return self.pick(
                lambda: "CONCAT(%s, %s)" % (self.expr("str", depth + 1), sql_lit(r.choice(
                    ["-", "x", "Z", ""]))),
                lambda: "CONCAT(%s, '/', %s)" % (self.expr("str", depth + 1),
                                                 self.expr("str", depth + 1)),
                lambda: "UPPER(%s)" % self.expr("str", depth + 1),
                lambda: "LOWER(%s)" % self.expr("str", depth + 1),
                lambda: "SUBSTRING(%s, %d)" % (self.expr("str", depth + 1),
                                               r.choice([1, 2, 3, -2])),
                lambda: "SUBSTRING(%s, %d, %d)" % (self.expr("str", depth + 1),
                                                   r.choice([1, 2, 4]), r.choice([1, 2, 3])),
                lambda: "IFNULL(%s, 'none')" % self.expr("str", depth + 1),
                lambda: "COALESCE(s, 'none')",
                lambda: "CONCAT(%s, ':', %s)" % (self.expr("str", depth + 1),
                                                 r.choice(["a", "c", "d", "id", "(a + 1)"])),
                lambda: "DATE_FORMAT(dt, %s)" % sql_lit(r.choice(
                    ["%Y-%m-%d", "%Y/%m", "%d.%m.%y", "%Y%m%d", "%M %e", "%b %D %Y", "%j",
                     "%W", "%a %c", "%U %u", "%V/%X", "%v/%x", "%w", "%H:%i:%s %p", "100%%",
                     "%T %r", "%f", "%k %l %h %I"])),
                lambda: "CASE WHEN %s THEN %s ELSE %s END" % (
                    self.cond(depth + 1), self.expr("str", depth + 1), sql_lit(r.choice(WORDS))),
            )()
        if kind == "date":
            return "dt"
        raise ValueError(kind)

    def lit_for(self, kind):
        r = self.r
        if kind == "int":
            return str(r.randint(-600, 600)) if r.random() < 0.7 else str(r.randrange(8))
        if kind == "dec":
            return str(decimal.Decimal(r.randint(-99999, 99999)) / 100)
        if kind == "dbl":
            return repr(r.randint(-4000, 4000) / 4.0)
        if kind == "str":
            return sql_lit(r.choice(WORDS + ["b", "m", "Z"]))
        if kind == "date":
            return sql_lit(datetime.date(1995, 1, 1)
                           + datetime.timedelta(days=r.randrange(12000)))
        raise ValueError(kind)

    def cond(self, depth=0):
        r = self.r
        if depth < 2 and r.random() < 0.35:
            return self.pick(
                lambda: "(%s AND %s)" % (self.cond(depth + 1), self.cond(depth + 1)),
                lambda: "(%s OR %s)" % (self.cond(depth + 1), self.cond(depth + 1)),
                lambda: "NOT (%s)" % self.cond(depth + 1),
            )()
        kind = r.choice(["int", "int", "int", "dec", "dbl", "str", "str", "date"])
        e = self.expr(kind, depth + 1) if kind != "date" and r.random() < 0.7 else self.col(kind)
        op = r.random()
        if op < 0.45:
            return "%s %s %s" % (e, r.choice(["=", "<>", "!=", "<", "<=", ">", ">="]),
                                 self.lit_for(kind))
        if op < 0.58:
            lo, hi = sorted([self.lit_for(kind), self.lit_for(kind)],
                            key=lambda x: float(x) if kind in ("int", "dec", "dbl") else x)
            if r.random() < 0.1:
                lo, hi = hi, lo  # empty range
            return "%s %sBETWEEN %s AND %s" % (e, r.choice(["", "NOT "]), lo, hi)
        if op < 0.72:
            items = [self.lit_for(kind) for _ in range(r.randint(1, 4))]
            if r.random() < 0.15:
                items.append("NULL")  # x NOT IN (.., NULL) is never true
            items = ", ".join(items)
            return "%s %sIN (%s)" % (e, r.choice(["", "NOT "]), items)
        if op < 0.85:
            return "%s IS %sNULL" % (self.col(kind), r.choice(["", "NOT "]))
        if kind == "str":
            pat = r.choice(["a%", "%e", "%an%", "_", "__", "k_w%", "%\\_%", "%\\%", "A%",
                            "%P%", "x", "%"])
            return "%s %sLIKE %s" % (e, r.choice(["", "NOT "]), sql_lit(pat))
        if kind == "int":
            if r.random() < 0.5:  # int against a decimal literal
                return "%s %s %s" % (e, r.choice(["<", ">=", "=", "<>"]),
                                     r.choice(["2.5", "-0.5", "100.25", "3.0"]))
            return "%s %s %s" % (e, r.choice(["<", ">=", "="]), self.expr("int", 2))
        return "%s IS NOT NULL" % self.col(kind)

    def agg(self):
        r = self.r
        kind = r.choice(["int", "int", "dec", "dbl", "str", "date"])
        if kind in ("str", "date"):
            e = self.expr(kind, 1) if kind == "str" else "dt"
            f = r.choice(["MIN", "MAX", "COUNT"])
            return "%s(%s)" % (f, e), kind if f != "COUNT" else "int"
        e = self.expr(kind, 1)
        f = r.choice(["COUNT", "SUM", "MIN", "MAX", "AVG"])
        if f == "COUNT" and r.random() < 0.4:
            return "COUNT(*)", "int"
        if f == "COUNT" and r.random() < 0.4:
            return "COUNT(DISTINCT %s)" % r.choice(["c", "s", "UPPER(s)", "YEAR(dt)", "d", e]), "int"
        return "%s(%s)" % (f, e), kind

    def query(self):
        """Returns (sql, fold): fold=True means group representatives / DISTINCT may pick any
        case variant of a general_ci string, so string values compare case-insensitively."""
        r = self.r
        table = r.choice(["tu", "td"])
        where = " WHERE " + self.cond() if r.random() < 0.75 else ""
        shape = r.random()
        fold = False
        if shape < 0.40:  # plain projection with the unique id: fully deterministic
            exprs = ["id"] + [self.expr(r.choice(["int", "int", "dec", "dbl", "str", "str",
                                                  "date"])) for _ in range(r.randint(1, 4))]
            r.shuffle(exprs)
            sel = ", ".join(exprs)
            tail_ = ""
        elif shape < 0.55:  # DISTINCT
            kinds = [r.choice(["int", "str", "str", "date", "dec"]) for _ in range(r.randint(1, 2))]
            exprs = [self.expr(k) if k != "int" else r.choice(["c", "YEAR(dt)", "MONTH(dt)",
                                                               "(c * 2)", "IFNULL(c, -1)"])
                     for k in kinds]
            sel = "DISTINCT " + ", ".join(exprs)
            tail_ = ""
            fold = True
        else:  # aggregation, with or without GROUP BY
            keys = []
            if r.random() < 0.85:
                pool = ["c", "s", "UPPER(s)", "YEAR(dt)", "MONTH(dt)", "(c + 1)", "IFNULL(c, 9)",
                        "SUBSTRING(s, 1, 1)", "LENGTH(s)", "k" if table == "td" else "c",
                        "CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END",
                        "DATE_FORMAT(dt, '%Y')"]
                keys = r.sample(pool, r.randint(1, 2))
            aggs = [self.agg()[0] for _ in range(r.randint(1, 4))]
            exprs = keys + aggs
            sel = ", ".join(exprs)
            tail_ = ""
            if keys:
                tail_ = " GROUP BY " + ", ".join(
                    str(i + 1) if r.random() < 0.25 else key for i, key in enumerate(keys))
                if r.random() < 0.35:
                    a, kind = self.agg()
                    while kind not in ("int", "dec", "dbl"):
                        a, kind = self.agg()
                    tail_ += " HAVING %s %s %s" % (a, r.choice([">", "<", ">=", "<>"]),
                                                   self.lit_for("int" if kind == "int" else kind))
                    if r.random() < 0.3:
                        tail_ += " AND COUNT(*) > %d" % r.randint(0, 3)
            fold = True
        n = len(exprs)
        by_text = not sel.startswith("DISTINCT") and r.random() < 0.3  # expressions, not ordinals
        # A bare integer in ORDER BY is an ordinal, so those stay ordinals; MariaDB also rejects
        # `ORDER BY -1` (1054 Unknown column '-1'), which Rivulet takes as a constant.
        order = ", ".join("%s%s" % (exprs[i] if by_text and not exprs[i].lstrip("-").isdigit()
                                    else i + 1,
                                    r.choice(["", "", " DESC", " ASC"])) for i in range(n))
        sql = "SELECT %s FROM %s%s%s ORDER BY %s" % (sel, table, where, tail_, order)
        if r.random() < 0.3:
            lim = r.choice([1, 3, 10, 25])
            off = r.choice([None, None, 0, 2, 7])
            if sel.startswith("DISTINCT") and not any(has_col(e) for e in exprs):
                # MariaDB 10.11 bug: SELECT DISTINCT <constants> FROM t LIMIT 7, 25 returns the
                # row (it ignores the OFFSET); Rivulet's empty result is right.
                off = None
            if off is None:
                sql += " LIMIT %d" % lim
            elif r.random() < 0.5:
                sql += " LIMIT %d OFFSET %d" % (lim, off)
            else:
                sql += " LIMIT %d, %d" % (off, lim)
        return sql, fold


def subquery_queries(rnd, n):
    """n queries with [NOT] EXISTS / [NOT] IN / row IN subqueries between the tables: in WHERE
    (decorrelated into semi / anti joins, plan_semijoin.c) and in the select list (evaluated
    per row, plan_subquery.c), correlated by equality or not, NULLs on both sides."""
    ints = ["c", "c", "a", "k"]
    out = []
    for _ in range(n):
        o, i = rnd.choice([("tu", "td"), ("td", "tu"), ("tu", "tu"), ("td", "td")])
        corr = "i.%s = o.%s" % (rnd.choice(ints), rnd.choice(ints))
        extra = rnd.choice(["", " AND i.a > %d" % rnd.choice([-300, 0, 500]), " AND i.s <> 'kiwi'",
                            " AND i.c IS NOT NULL", " AND i.id < o.id"])
        only = " WHERE " + extra[5:] if extra and "o." not in extra else ""
        v1, v2, w1, w2 = (rnd.choice(ints) for _ in range(4))
        neg = rnd.choice(["", "NOT "])
        form = rnd.randrange(8)
        if form == 0:
            pred = "%sEXISTS (SELECT 1 FROM %s i WHERE %s%s)" % (neg, i, corr, extra)
        elif form == 1:
            pred = "o.%s %sIN (SELECT i.%s FROM %s i WHERE %s%s)" % (v1, neg, v2, i, corr, extra)
        elif form == 2:
            pred = "o.%s %sIN (SELECT i.%s FROM %s i%s)" % (v1, neg, v2, i, only)
        elif form == 3:
            pred = "(o.%s, o.%s) %sIN (SELECT i.%s, i.%s FROM %s i%s)" % (v1, w1, neg, v2, w2, i,
                                                                       only)
        elif form == 4:
            pred = "o.s %sIN (SELECT i.s FROM %s i WHERE %s)" % (neg, i, corr)
        elif form == 5:
            pred = "NOT (o.%s IN (SELECT i.%s FROM %s i WHERE %s))" % (v1, v2, i, corr)
        elif form == 6:
            pred = "(o.c, o.%s) %sIN ((%d, %d), (%d, NULL), (NULL, 1))" % (
                w1, neg, rnd.randrange(8), rnd.randrange(8), rnd.randrange(8))
        else:
            pred = "(o.c, o.a) %s (%d, %d)" % (rnd.choice(["=", "<>", "<", ">=", "<=>"]),
                                              rnd.randrange(8), rnd.randint(-1000, 1000))
        if rnd.random() < 0.3:
            out.append("SELECT id, %s AS p FROM %s o ORDER BY id" % (pred, o))
        else:
            pre = rnd.choice(["", "", "o.c > 2 AND ", "o.s IS NOT NULL AND "])
            out.append("SELECT id FROM %s o WHERE %s%s ORDER BY id" % (o, pre, pred))
    return out


EXTRACT_UNITS = ["MICROSECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER",
                 "YEAR", "SECOND_MICROSECOND", "MINUTE_MICROSECOND", "MINUTE_SECOND",
                 "HOUR_MICROSECOND", "HOUR_SECOND", "HOUR_MINUTE", "DAY_MICROSECOND",
                 "DAY_SECOND", "DAY_MINUTE", "DAY_HOUR", "YEAR_MONTH"]


def setop_queries(rnd, n):
    """n queries: EXTRACT(unit FROM dt) with every unit (a DATE, where MariaDB and MySQL 8
    agree), and nested set operations with parentheses (INTERSECT binding tighter, ORDER BY /
    LIMIT inside an operand's parentheses, parenthesised derived-table bodies). One int column
    per operand, so a LIMIT after ORDER BY 1 picks the same values on both."""
    out = []

    def branch():
        col = rnd.choice(["c", "a % 7", "MOD(b, 5)", "LENGTH(s)", "EXTRACT(MONTH FROM dt) % 4",
                          "c + 1"])
        where = rnd.choice(["", "", " WHERE c > 2", " WHERE a < 0", " WHERE s IS NOT NULL",
                            " WHERE id %% %d = 0" % rnd.randint(2, 5)])
        return "SELECT %s AS v FROM %s%s" % (col, rnd.choice(["tu", "td"]), where)

    def operand(depth, ops):
        if depth < 1 and rnd.random() < 0.3:
            # nested chains are unions: MariaDB 10.11 loses rows of `((X) INTERSECT ALL (Y))
            # UNION ALL (Z)` (duplicates of X INTERSECT ALL Y) and can hang on nested EXCEPT ALL
            return "(%s)" % setop(depth + 1, [o for o in ops if o.startswith("UNION")])
        if rnd.random() < 0.4:
            tail = " ORDER BY 1%s LIMIT %d" % (rnd.choice(["", " DESC"]), rnd.randint(1, 12)) \
                if rnd.random() < 0.5 else ""
            return "(%s%s)" % (branch(), tail)
        return branch()

    def setop(depth, ops=None):
        # One chain is all DISTINCT or all ALL: MariaDB 10.11 mixes them up (`(SELECT 1
        # INTERSECT SELECT 1 UNION ALL SELECT 1) UNION ALL SELECT 1` is 3 rows, it says 2).
        # INTERSECT ALL / EXCEPT ALL are left out: MariaDB 10.11 takes minutes over these
        # tables (query/setop.sql has them).
        ops = ops or rnd.choice([["UNION", "UNION DISTINCT", "INTERSECT", "EXCEPT"],
                                 ["UNION ALL"]])
        q = operand(depth, ops)
        for _ in range(rnd.randint(1, 2)):
            q += " %s %s" % (rnd.choice(ops), operand(depth, ops))
        return q

    for _ in range(n):
        form = rnd.randrange(4)
        if form == 0:
            units = rnd.sample(EXTRACT_UNITS, 4)
            where = "" if rnd.random() < 0.5 else " WHERE EXTRACT(%s FROM dt) > %d" % (
                rnd.choice(EXTRACT_UNITS), rnd.randrange(40))
            out.append("SELECT id, %s FROM %s%s ORDER BY id" % (
                ", ".join("EXTRACT(%s FROM dt)" % u for u in units), rnd.choice(["tu", "td"]),
                where))
        elif form == 1:
            out.append("SELECT v, COUNT(*) FROM (%s) q GROUP BY v ORDER BY v" % setop(0))
        elif form == 2:
            ops = ["UNION ALL"]
            out.append("SELECT * FROM ((%s) UNION ALL (%s)) q ORDER BY 1" % (setop(1, ops),
                                                                            operand(1, ops)))
        else:
            out.append("%s ORDER BY 1" % setop(0))
    return out


def has_col(expr):
    """Whether an expression references a column (string literals removed first)."""
    return re.search(r"\b(%s)\b" % "|".join(c[0] for c in COLS),
                     re.sub(r"'(?:[^'\\]|''|\\.)*'", "''", expr)) is not None


# ---------------------------------------------------------------- comparison

def norm(v):
    if v is None:
        return None
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    if isinstance(v, bool):
        return decimal.Decimal(int(v))
    if isinstance(v, int):
        return decimal.Decimal(v)
    if isinstance(v, (decimal.Decimal, float, str)):
        return v
    if isinstance(v, (datetime.date, datetime.datetime, datetime.timedelta)):
        return str(v)
    return repr(v)


def val_eq(x, y, fold):
    if x is None or y is None:
        return x is None and y is None
    xn = isinstance(x, (decimal.Decimal, float))
    yn = isinstance(y, (decimal.Decimal, float))
    if xn and yn:
        if isinstance(x, decimal.Decimal) and isinstance(y, decimal.Decimal):
            return x == y
        fx, fy = float(x), float(y)
        return math.isclose(fx, fy, rel_tol=1e-9, abs_tol=1e-9)
    if xn or yn:
        return False
    if fold:
        return ci_key(x) == ci_key(y)
    return x == y


def ci_key(s):
    """A general_ci-like key: which of several equal spellings a server shows (MIN, DISTINCT,
    GROUP BY) is not defined, so compare 'É' = 'e' = 'E' and 'ß' = 's'."""
    out = []
    for ch in s:
        if ch in "ßſ":
            out.append("S")
            continue
        base = unicodedata.normalize("NFD", ch)[0]
        out.append(base.upper() if len(base.upper()) == 1 else ch.upper())
    return "".join(out)


def rows_eq(a, b, fold):
    if len(a) != len(b):
        return False
    for ra, rb in zip(a, b):
        if len(ra) != len(rb) or not all(val_eq(x, y, fold) for x, y in zip(ra, rb)):
            return False
    return True


def results_match(rv, my, fold):
    """Both results are ('ok', rows) or ('err', text). Order is checked with strings folded
    (general_ci ties between case variants may come in either order); values exactly, except
    case in `fold` queries."""
    if rv[0] != "ok" or my[0] != "ok":
        return False
    if not rows_eq(rv[1], my[1], True):
        return False
    if fold or rows_eq(rv[1], my[1], False):
        return True
    key = lambda row: tuple((0, "") if v is None else (1, float(v)) if isinstance(
        v, (decimal.Decimal, float)) else (2, v) for v in row)
    return rows_eq(sorted(rv[1], key=key), sorted(my[1], key=key), False)


def run(conn, sql):
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return ("ok", [tuple(norm(v) for v in row) for row in cur.fetchall()])
    except pymysql.err.MySQLError as e:
        return ("err", "%s" % (e,))


def first_diff(a, b):
    """Index of the first row that differs (strings folded), or None."""
    if a[0] != "ok" or b[0] != "ok":
        return None
    for i, (ra, rb) in enumerate(zip(a[1], b[1])):
        if not rows_eq([ra], [rb], True):
            return i
    return min(len(a[1]), len(b[1]))


def show(res, at=None, limit=12):
    if res[0] == "err":
        return "    ERROR " + res[1]
    rows = res[1]
    start = 0 if at is None or at < limit // 2 else at - 2
    lines = ["    %s[%d] " % (">" if i == at else " ", i)
             + " | ".join("NULL" if v is None else str(v) for v in rows[i])
             for i in range(start, min(len(rows), start + limit))]
    if start > 0 or len(rows) > start + limit:
        lines.append("    ... (%d rows)" % len(rows))
    if not rows:
        lines.append("    (empty)")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--queries", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--subqueries", type=int, default=300,
                    help="subquery queries run after the generated ones")
    ap.add_argument("--setops", type=int, default=200,
                    help="EXTRACT and parenthesised set-operation queries run last")
    ap.add_argument("--dml", type=int, default=60,
                    help="UPDATE (td) / REPLACE (tu) statements after the load")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--no-accents", action="store_true",
                    help="leave the accented strings out of the data")
    ap.add_argument("--max-report", type=int, default=30, help="mismatches printed in full")
    args = ap.parse_args()

    if not args.no_accents:
        WORDS.extend(ACCENTED)
    os.makedirs(args.workdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="diff.", dir=os.path.abspath(args.workdir))
    t0 = time.monotonic()
    rv = my = None
    failed = True
    try:
        rv = Rivulet(os.path.abspath(args.server), tmp)
        my = MariaDB(tmp)
        rc, mc = connect_retry(rv.port), connect_retry(my.port)
        for conn, charset in ((rc, ""), (mc, " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci")):
            with conn.cursor() as cur:
                cur.execute("CREATE DATABASE %s%s" % (DB, charset))
                cur.execute("USE " + DB)
        rnd = random.Random(args.seed)
        for name, rddl, mddl in tables():
            for conn, ddl in ((rc, rddl), (mc, mddl)):
                with conn.cursor() as cur:
                    cur.execute(ddl)
        for rsql, msql in load_statements(rnd, args.rows):
            rc.cursor().execute(rsql)
            mc.cursor().execute(msql)
        dml_bad = 0
        for sql in dml_statements(rnd, Gen(random.Random(args.seed + 3)), args.rows, args.dml):
            counts = []
            for conn in (rc, mc):
                with conn.cursor() as cur:
                    try:
                        counts.append(cur.execute(sql))
                    except pymysql.err.MySQLError as e:
                        counts.append("ERROR %s" % (e,))
            if args.verbose:
                print(sql)
            if counts[0] != counts[1]:
                dml_bad += 1
                print("DML MISMATCH: %s\n  rivulet: %s\n  mariadb: %s" % (sql, counts[0], counts[1]))
        if dml_bad:
            print("FAILED: %d DML statements differ in their affected rows" % dml_bad)
            return 1
        setup = time.monotonic() - t0
        # sanity: the loaded contents are the same
        for t in ("tu", "td"):
            q = "SELECT %s FROM %s ORDER BY id" % (", ".join(c[0] for c in COLS), t)
            a, b = run(rc, q), run(mc, q)
            if not results_match(a, b, False):
                print("FAILED load: contents of %s differ\n  rivulet:\n%s\n  mariadb:\n%s"
                      % (t, show(a), show(b)))
                return 1

        gen = Gen(random.Random(args.seed + 1))
        mismatches = 0
        both_err = 0
        subq = subquery_queries(random.Random(args.seed + 2), args.subqueries)
        subq += setop_queries(random.Random(args.seed + 3), args.setops)
        for i in range(args.queries + len(subq)):
            sql, fold = gen.query() if i < args.queries else (subq[i - args.queries], False)
            a, b = run(rc, sql), run(mc, sql)
            if args.verbose:
                print(sql)
            if a[0] == "err" and b[0] == "err":
                both_err += 1  # a grammar bug, not an engine difference: still a failure
            if not results_match(a, b, fold):
                mismatches += 1
                if mismatches <= args.max_report:
                    at = first_diff(a, b)
                    print("MISMATCH #%d (query %d):\n  %s\n  rivulet:\n%s\n  mariadb:\n%s\n"
                          % (mismatches, i, sql, show(a, at), show(b, at)))
                if not rv.alive():
                    print("FAILED: the Rivulet server died at query %d; log tail:\n%s"
                          % (i, tail(rv.log)))
                    return 1
        print("%d queries, %d mismatches (%d failed on both), %d rows per table, seed %d, "
              "setup %.1f s, total %.1f s"
              % (args.queries + len(subq), mismatches, both_err, args.rows, args.seed, setup,
                 time.monotonic() - t0))
        failed = mismatches > 0
        return 1 if failed else 0
    except Exception as e:  # noqa: BLE001 - any setup failure fails the test with a reason
        print("FAILED: %s: %s" % (type(e).__name__, e))
        if rv is not None:
            print("rivulet log tail:\n" + tail(rv.log))
        return 1
    finally:
        if rv is not None:
            rv.stop()
        if my is not None:
            my.stop()
        if failed or args.keep:
            print("diff_test: kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
