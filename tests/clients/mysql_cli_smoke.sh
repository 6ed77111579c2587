#!/usr/bin/env bash
# mysql CLI (MariaDB client) smoke test: mysql_cli_smoke.sh PORT WORKDIR [ssl]
#   default: batch mode (-e and stdin), plaintext (--skip-ssl), and the interactive path in tmux.
#   ssl:     `mysql --ssl` must end up encrypted (status shows "Cipher in use").
# Connects to 127.0.0.1:PORT as root with no password; exit 0 if every check passes.
set -u
PORT=$1
WORK=$2
MODE=${3:-plain}
mkdir -p "$WORK"
# --no-defaults: no ~/.my.cnf or /etc/mysql settings; a private HOME and no history file.
export HOME=$WORK MYSQL_HISTFILE=/dev/null
M=(mysql --no-defaults -h127.0.0.1 -P"$PORT" -uroot --connect-timeout=10)
fails=0

ok() { echo "  ok   $1"; }
bad() {
	echo "  FAIL $1"
	fails=$((fails + 1))
}
# expect NAME GOT WANT
expect() {
	if [ "$2" == "$3" ]; then ok "$1 = $(printf %q "$2")"; else bad "$1: got $(printf %q "$2"), want $(printf %q "$3")"; fi
}
# run ARGS...: runs mysql, sets OUT, ERR, RC
run() {
	OUT=$("${M[@]}" "$@" 2>"$WORK/stderr")
	RC=$?
	ERR=$(cat "$WORK/stderr")
}

if [ "$MODE" = ssl ]; then
	run --ssl -e 'status'
	expect "mysql --ssl exit code" "$RC" 0
	ssl_line=$(grep '^SSL:' <<<"$OUT")
	if grep -q 'Cipher in use is' <<<"$ssl_line"; then
		ok "TLS negotiated: ${ssl_line#SSL:*Cipher in use is }"
	else
		bad "mysql --ssl is not encrypted: server does not offer TLS (status shows '${ssl_line:-no SSL line}'; stderr: ${ERR:-none})"
	fi
	run --ssl -N -B -e 'SELECT 1'
	expect "SELECT 1 with --ssl" "$OUT" 1
	exit $((fails > 0))
fi

# ---- batch mode ----
run -N -B -e 'SELECT 1'
expect "SELECT 1" "$OUT" 1
expect "SELECT 1 exit code" "$RC" 0
expect "SELECT 1 stderr" "$ERR" ""

run --skip-ssl -N -B -e 'SELECT 1'
expect "SELECT 1 without TLS" "$OUT" 1

run -N -B -e 'SET @@session.sql_select_limit = 7; SELECT @@sql_select_limit'
expect "@@sql_select_limit after SET" "$OUT" 7
run -N -B -e 'SET @x = 42; SELECT @x'
expect "@x after SET @x = 42" "$OUT" 42

run -N -B -e 'SELEC 1'
expect "SELEC 1 exit code" "$RC" 1
if grep -Eq '^ERROR 1064 \(42000\)' <<<"$ERR"; then ok "SELEC 1 -> ERROR 1064 (42000)"; else bad "SELEC 1 stderr: $ERR"; fi
# The same connection keeps working after the error (stdin batch, --force goes on).
OUT=$(printf 'SET @x = 42;\nSELEC 1;\nSELECT @x + 1;\n' | "${M[@]}" -N -B --force 2>"$WORK/stderr")
ERR=$(cat "$WORK/stderr")
expect "SELECT @x + 1 after the error, same connection" "$OUT" 43
if grep -Eq '^ERROR 1064 \(42000\) at line 2' <<<"$ERR"; then ok "error reported for line 2"; else bad "--force stderr: $ERR"; fi

run -e 'SELECT @@version_comment LIMIT 1'
expect "version_comment exit code" "$RC" 0
expect "version_comment stderr (no warning at connect)" "$ERR" ""
expect "version_comment header" "$(head -1 <<<"$OUT")" "@@version_comment"
expect "version_comment rows" "$(wc -l <<<"$OUT")" 2
comment=$(sed -n 2p <<<"$OUT")

run -e "SHOW VARIABLES LIKE 'auto%'"
expect "SHOW VARIABLES exit code" "$RC" 0
expect "SHOW VARIABLES stderr" "$ERR" ""
expect "SHOW VARIABLES header" "$(head -1 <<<"$OUT")" "$(printf 'Variable_name\tValue')"
expect "SHOW VARIABLES autocommit row" "$(grep '^autocommit	' <<<"$OUT")" "$(printf 'autocommit\tON')"
expect "SHOW VARIABLES rows not matching auto%" "$(tail -n +2 <<<"$OUT" | grep -vc '^auto')" 0

# The interactive session below opens a database, which takes the client's auto-rehash path
# (SHOW DATABASES, SHOW TABLES, COM_FIELD_LIST per table). information_schema always exists; a
# database of our own comes with CREATE DATABASE (catalog issue).
db=information_schema

# ---- interactive: a real terminal (tmux), banner, a query, `status`, quit ----
if ! command -v tmux >/dev/null; then
	bad "interactive: tmux is not installed"
	exit 1
fi
SOCK=$WORK/tmux.sock
TM=(tmux -S "$SOCK" -f /dev/null)
"${TM[@]}" kill-server 2>/dev/null
# The shell reaps mysql and prints its exit status (tmux's own dead-pane report is racy).
"${TM[@]}" new-session -d -s smoke -x 200 -y 60 \
	"HOME='$WORK' MYSQL_HISTFILE=/dev/null mysql --no-defaults -h127.0.0.1 -P$PORT -uroot --connect-timeout=10 $db; echo \"mysql exit status \$?\"; sleep 60"
pane() { "${TM[@]}" capture-pane -p -J -S -200 -t smoke 2>/dev/null; }
# wait_for REGEX SECONDS
wait_for() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		if pane | grep -Eq "$1"; then return 0; fi
		sleep 0.1
	done
	return 1
}
keys() { "${TM[@]}" send-keys -t smoke -l "$1" && "${TM[@]}" send-keys -t smoke Enter; }

if wait_for "\\[${db:-\\(none\\)}\\]> *\$" 15; then
	ok "interactive prompt with database ${db:-(none)}"
	banner=$(pane | grep -m1 '^Server version: ')
	case "$banner" in
	*"$comment"*) ok "banner: $banner" ;;
	*) bad "banner '$banner' lacks @@version_comment '$comment'" ;;
	esac
	keys 'SELECT 6*7 AS answer \g'
	if wait_for '^\| +42 +\|' 10; then ok "interactive SELECT 6*7 = 42"; else bad "interactive SELECT 6*7: no 42 in the pane"; fi
	keys 'status'
	if wait_for '^Uptime:' 10; then ok "interactive status (COM_STATISTICS)"; else bad "interactive status: no 'Uptime:' line"; fi
	if pane | grep -Eq "^Current database:[[:space:]]*$db\$"; then ok "status: current database '$db'"; else bad "status: current database is not '$db'"; fi
	keys 'quit'
	if wait_for '^Bye' 10; then ok "interactive quit"; else bad "interactive quit: no Bye"; fi
	if wait_for '^mysql exit status 0$' 5; then ok "interactive exit status 0"; else bad "interactive mysql did not exit with status 0 within 5 s"; fi
else
	bad "interactive: no prompt within 15 s"
fi
if [ $fails -gt 0 ]; then
	echo "  --- terminal:"
	pane | grep -v '^$' | tail -40 | sed 's/^/  | /'
fi
"${TM[@]}" kill-server 2>/dev/null
exit $((fails > 0))
