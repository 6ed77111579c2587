#!/usr/bin/python3
"""PyMySQL smoke test: /usr/bin/python3 pymysql_smoke.py PORT

Connects to 127.0.0.1:PORT as root with no password, the way applications use PyMySQL (text
protocol, client-side parameter interpolation, utf8mb4), and checks values. Exit 0 if all pass.
"""

import decimal
import sys

import pymysql
import pymysql.err

FAILURES = []

# PyMySQL drops the SQLSTATE of an ERR packet; keep the last one seen.
_raise = pymysql.err.raise_mysql_exception
LAST_SQLSTATE = [None]


def _raise_keep_state(data):
    LAST_SQLSTATE[0] = data[4:9].decode("ascii", "replace") if data[3:4] == b"#" else None
    _raise(data)


pymysql.err.raise_mysql_exception = _raise_keep_state


def check(what, got, want):
    if got == want:
        print("  ok   %s = %r" % (what, got))
    else:
        print("  FAIL %s: got %r, want %r" % (what, got, want))
        FAILURES.append(what)


def one(cur, sql, args=None):
    cur.execute(sql, args)
    return cur.fetchall()


def main():
    port = int(sys.argv[1])
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", password="",
                           charset="utf8mb4", connect_timeout=10, read_timeout=30, write_timeout=30)
    print("  server version %s" % conn.get_server_info())
    cur = conn.cursor()

    check("SELECT 1", one(cur, "SELECT 1"), ((1,),))
    check("column name of SELECT 1", cur.description[0][0], "1")

    cur.execute("SET @@session.sql_select_limit = 7")
    check("@@sql_select_limit after SET", one(cur, "SELECT @@sql_select_limit"), ((7,),))
    cur.execute("SET @x = 42")
    check("@x after SET @x = 42", one(cur, "SELECT @x"), ((42,),))

    # Client-side interpolation: PyMySQL escapes with backslashes and sends utf8mb4 text.
    text = "it's a \"quote\" \\ back ☃ 🙂"
    check("SELECT %s, %s round trip", one(cur, "SELECT %s, %s", (text, 12345678901)),
          ((text, 12345678901),))

    try:
        cur.execute("SELEC 1")
        check("SELEC 1 raises", "no error", "ProgrammingError")
    except pymysql.err.ProgrammingError as e:
        check("SELEC 1 error code", e.args[0], 1064)
        check("SELEC 1 SQLSTATE", LAST_SQLSTATE[0], "42000")
    except pymysql.err.MySQLError as e:
        check("SELEC 1 error class", repr(e), "ProgrammingError(1064, ...)")
    check("SELECT 1 after the error", one(cur, "SELECT 1"), ((1,),))
    check("@x kept after the error", one(cur, "SELECT @x"), ((42,),))

    # PyMySQL asks for autocommit off at connect (SET AUTOCOMMIT = 0 if the server's status bit
    # says on) and get_autocommit() reads the status bit of the last OK/EOF.
    check("get_autocommit() after connect", conn.get_autocommit(), False)
    conn.autocommit(True)
    check("get_autocommit() after autocommit(True)", conn.get_autocommit(), True)
    check("@@autocommit after autocommit(True)", one(cur, "SELECT @@autocommit"), ((1,),))

    conn.ping(reconnect=False)
    check("SELECT 2 after COM_PING", one(cur, "SELECT 2"), ((2,),))

    # Table data: executemany of a parameterised INSERT (PyMySQL folds it into one multi-row
    # INSERT), UPDATE/DELETE row counts, and begin()/rollback()/commit() transactions.
    cur.execute("DROP DATABASE IF EXISTS clients_pymysql FORCE")
    cur.execute("CREATE DATABASE clients_pymysql")
    cur.execute("USE clients_pymysql")
    cur.execute("CREATE TABLE t (k INT, v VARCHAR(20), x DECIMAL(10,2)) UNIQUE KEY(k) "
                "DISTRIBUTED BY HASH(k) BUCKETS 3 "
                "PROPERTIES (\"enable_unique_key_merge_on_write\" = \"true\")")
    n = cur.executemany("INSERT INTO t VALUES (%s, %s, %s)",
                        [(i, "v%d" % i, i * 1.5) for i in range(1000)])
    check("executemany INSERT rowcount", n, 1000)
    check("COUNT/SUM after executemany", one(cur, "SELECT COUNT(*), SUM(x) FROM t"),
          ((1000, decimal.Decimal("749250.00")),))
    check("UPDATE rowcount", cur.execute("UPDATE t SET v = 'u' WHERE k < 10"), 10)
    check("DELETE rowcount", cur.execute("DELETE FROM t WHERE k >= 990"), 10)
    conn.begin()
    cur.execute("INSERT INTO t VALUES (5000, %s, 1)", ("rolled back",))
    conn.rollback()
    check("row of a rolled back transaction", one(cur, "SELECT COUNT(*) FROM t WHERE k = 5000"),
          ((0,),))
    conn.begin()
    cur.execute("INSERT INTO t VALUES (5000, %s, 1)", (text[:20],))
    conn.commit()
    check("row of a committed transaction", one(cur, "SELECT v FROM t WHERE k = 5000"),
          ((text[:20],),))
    # One INSERT ... VALUES statement of 100,000 rows (about 3 MB of text).
    cur.execute("CREATE TABLE big (k BIGINT, v VARCHAR(16)) DUPLICATE KEY(k) "
                "DISTRIBUTED BY HASH(k) BUCKETS 4")
    values = ",".join("(%d,'row%d')" % (i, i % 97) for i in range(100000))
    check("100k-row INSERT rowcount", cur.execute("INSERT INTO big VALUES " + values), 100000)
    check("100k-row INSERT contents", one(cur, "SELECT COUNT(*), SUM(k), MAX(v) FROM big"),
          ((100000, decimal.Decimal(4999950000), "row96"),))
    cur.execute("DROP DATABASE clients_pymysql FORCE")
    conn.close()
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
