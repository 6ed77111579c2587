#!/usr/bin/env bash
# MariaDB Connector/ODBC smoke test through unixODBC isql: odbc_smoke.sh PORT WORKDIR
# Writes a private odbcinst.ini/odbc.ini in WORKDIR (ODBCSYSINI/ODBCINI). Exit 0 if every check passes.
#
# Connector/ODBC 3.1.15 (Debian 12) sends every statement that returns rows as COM_STMT_PREPARE +
# COM_STMT_EXECUTE, even through SQLExecDirect; there is no DSN option to avoid that (NO_SSPS is a
# MySQL Connector/ODBC option that this driver ignores; MariaDB's PREPONCLIENT arrived in 3.2).
# So the SELECT checks here need server-side prepared statements. isql -e (SQLExecDirect) at least
# sends the SETs as text COM_QUERY, and a first isql run checks the connect on its own.
set -u
PORT=$1
WORK=$2
mkdir -p "$WORK"
fails=0
ok() { echo "  ok   $1"; }
bad() {
	echo "  FAIL $1"
	fails=$((fails + 1))
}

driver=$(dpkg -L odbc-mariadb 2>/dev/null | grep '/libmaodbc\.so$' | head -1)
[ -n "$driver" ] || driver=$(find /usr/lib /usr/local/lib -name libmaodbc.so 2>/dev/null | head -1)
if [ -z "$driver" ]; then
	bad "libmaodbc.so not found (Debian package odbc-mariadb)"
	exit 1
fi
cat >"$WORK/odbcinst.ini" <<EOF
[MariaDB]
Description = MariaDB Connector/ODBC
Driver = $driver
EOF
cat >"$WORK/odbc.ini" <<EOF
[rivulet]
Driver = MariaDB
SERVER = 127.0.0.1
PORT = $PORT
USER = root
PASSWORD =
EOF
export ODBCSYSINI=$WORK ODBCINI=$WORK/odbc.ini

# SQLConnect alone: the driver's connect-time SETs (SQL_AUTO_IS_NULL, autocommit, session_track_*)
# must all succeed or the connect fails.
out=$(printf 'SET @y = 1\n' | timeout 60 isql -b -v -e -c -d'|' rivulet 2>&1)
rc=$?
if [ "$rc" = 0 ] && [ -z "$out" ]; then ok "SQLConnect and a text SET"; else bad "connect: exit $rc: $out"; fi

# -b batch, -v diagnostics, -e SQLExecDirect, -c column names, -d'|' delimited rows: each result set
# is a header line then one line per row.
out=$(printf 'SELECT 1\nSET @@session.sql_select_limit = 7\nSELECT @@sql_select_limit\nSET @x = 42\nSELECT @x\nSELEC 1\nSELECT 2 AS two\n' |
	timeout 60 isql -b -v -e -c -d'|' rivulet 2>"$WORK/isql.err")
rc=$?
err=$(cat "$WORK/isql.err")
# pair NAME HEADER VALUE: a result set with that one column header and that one value
pair() {
	if printf '%s\n' "$out" | awk -v a="$2" -v b="$3" 'p == a && $0 == b { f = 1 } { p = $0 } END { exit !f }'; then
		ok "$1 = $3"
	else
		bad "$1: no result set '$2' = '$3'"
	fi
}
if [ "$rc" = 0 ]; then ok "isql exit code 0"; else bad "isql exit code $rc: $err"; fi
pair "SELECT 1" 1 1
pair "@@sql_select_limit after SET" @@sql_select_limit 7
pair "@x after SET @x = 42" @x 42
# isql prints ODBC 2 SQLSTATEs (42000 -> 37000) and no native error number.
errline=$(grep -m1 -E '^\[(37000|42000)\].*syntax.*SELEC 1' <<<"$out")
if [ -n "$errline" ]; then ok "SELEC 1 -> ${errline:0:60}..."; else bad "SELEC 1: no [37000]/[42000] syntax error line"; fi
if [ "$(tail -n 2 <<<"$out")" == "$(printf 'two\n2')" ]; then
	ok "SELECT 2 AS two after the error = 2"
else
	bad "SELECT 2 AS two after the error: last lines $(printf %q "$(tail -n 2 <<<"$out")")"
fi
# Catalog functions: SQLTables / SQLColumns (isql `help` and `help t`) over a real table. The
# driver sends the INFORMATION_SCHEMA queries of design/clients/catalog_queries.md.
printf 'CREATE DATABASE IF NOT EXISTS conformance_odbc\nCREATE TABLE IF NOT EXISTS conformance_odbc.t (id BIGINT NOT NULL, name VARCHAR(20), amount DECIMAL(12, 2)) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1\n' |
	timeout 60 isql -b rivulet >/dev/null 2>&1
sed -i 's/^USER = root/DATABASE = conformance_odbc\nUSER = root/' "$WORK/odbc.ini"
tables=$(printf 'help\n' | timeout 60 isql -b -v -c -d'|' rivulet 2>&1)
if grep -q '^conformance_odbc|[^|]*|t|TABLE|' <<<"$tables"; then
	ok "SQLTables lists conformance_odbc.t as TABLE"
else
	bad "SQLTables: no row for conformance_odbc.t: $(printf %q "$tables")"
fi
cols=$(printf 'help t\n' | timeout 60 isql -b -v -c -d'|' rivulet 2>&1)
colnames=$(awk -F'|' '$3 == "t" { printf "%s:%s ", $4, $6 }' <<<"$cols")
if [ "$colnames" = "id:BIGINT name:VARCHAR amount:DECIMAL " ]; then
	ok "SQLColumns lists id, name, amount with their types"
else
	bad "SQLColumns: got '$colnames' from $(printf %q "$cols")"
fi
sed -i '/^DATABASE = conformance_odbc$/d' "$WORK/odbc.ini"
printf 'DROP DATABASE conformance_odbc\n' | timeout 60 isql -b rivulet >/dev/null 2>&1

if grep -qi 'prepared statement' <<<"$out"; then
	echo "  note: the server refused COM_STMT_PREPARE; Connector/ODBC 3.1 prepares every SELECT"
fi
if [ $fails -gt 0 ]; then
	echo "  --- isql stdout:"
	printf '%s\n' "$out" | sed 's/^/  | /'
	echo "  --- isql stderr:"
	printf '%s\n' "$err" | sed 's/^/  | /'
fi
exit $((fails > 0))
