#!/usr/bin/python3
"""mysqlclient (MySQLdb, on libmariadb) smoke test: /usr/bin/python3 mysqldb_smoke.py PORT

Connects to 127.0.0.1:PORT as root with no password (text protocol, client-side parameter
interpolation, utf8mb4) and checks values. Exit 0 if all pass.
"""

import sys

import MySQLdb

FAILURES = []


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
    conn = MySQLdb.connect(host="127.0.0.1", port=port, user="root", passwd="", charset="utf8mb4",
                           connect_timeout=10, read_timeout=30, write_timeout=30)
    print("  server version %s" % conn.get_server_info())
    cur = conn.cursor()

    check("SELECT 1", one(cur, "SELECT 1"), ((1,),))
    check("column name of SELECT 1", cur.description[0][0], "1")

    cur.execute("SET @@session.sql_select_limit = 7")
    check("@@sql_select_limit after SET", one(cur, "SELECT @@sql_select_limit"), ((7,),))
    cur.execute("SET @x = 42")
    check("@x after SET @x = 42", one(cur, "SELECT @x"), ((42,),))

    text = "it's a \"quote\" \\ back ☃ 🙂"
    check("SELECT %s, %s round trip", one(cur, "SELECT %s, %s", (text, 12345678901)),
          ((text, 12345678901),))

    try:
        cur.execute("SELEC 1")
        check("SELEC 1 raises", "no error", "ProgrammingError")
    except MySQLdb.ProgrammingError as e:
        check("SELEC 1 error code", e.args[0], 1064)
        check("SELEC 1 SQLSTATE", conn.sqlstate(), "42000")
    except MySQLdb.MySQLError as e:
        check("SELEC 1 error class", repr(e), "ProgrammingError(1064, ...)")
    check("SELECT 1 after the error", one(cur, "SELECT 1"), ((1,),))
    check("@x kept after the error", one(cur, "SELECT @x"), ((42,),))

    # MySQLdb turns autocommit off at connect (SET autocommit=0 if the status bit says on).
    check("get_autocommit() after connect", conn.get_autocommit(), False)
    conn.autocommit(True)
    check("get_autocommit() after autocommit(True)", conn.get_autocommit(), True)
    check("@@autocommit after autocommit(True)", one(cur, "SELECT @@autocommit"), ((1,),))

    conn.ping()
    check("SELECT 2 after COM_PING", one(cur, "SELECT 2"), ((2,),))
    conn.close()
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
