#!/usr/bin/env bash
# Client smoke tests against a live server: bash tests/clients/run.sh BIN WORKDIR
#
# Starts a fresh BIN on a free port of 127.0.0.1 (fe.conf/be.conf and data in a temporary
# directory under WORKDIR), runs every client test below against it, stops it with SIGTERM and
# checks that it exits 0. Prints `ok <client>` / `FAILED <client>` lines and `N passed, N failed`;
# exits non-zero on any failure, after printing the test's output and the server log tail.
# CLIENTS="pymysql jdbc" runs a subset. See tests/clients/README.md.
set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 BIN WORKDIR" >&2
	exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(readlink -f "$1")
mkdir -p "$2"
WORKDIR=$(cd "$2" && pwd)
PY=/usr/bin/python3 # Debian's interpreter: python3-pymysql / python3-mysqldb live there
ALL_CLIENTS="mysql mysql-ssl pymysql mysqldb jdbc odbc node"
CLIENTS=${CLIENTS:-$ALL_CLIENTS}
TEST_TIMEOUT=120 # per client test, seconds

if [ ! -x "$BIN" ]; then
	echo "run.sh: server binary $1 is missing or not executable" >&2
	exit 2
fi
RUN=$(mktemp -d "$WORKDIR/run.XXXXXX")
SERVER_PID=
LOG=

stop_server() { # SIGTERM, wait up to $1 s; sets STOP_RC (exit code, or "timeout")
	STOP_RC=
	[ -n "$SERVER_PID" ] || return
	kill -TERM "$SERVER_PID" 2>/dev/null
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		if ! kill -0 "$SERVER_PID" 2>/dev/null; then
			wait "$SERVER_PID"
			STOP_RC=$?
			SERVER_PID=
			return
		fi
		sleep 0.1
	done
	STOP_RC=timeout
	kill -KILL "$SERVER_PID" 2>/dev/null
	wait "$SERVER_PID" 2>/dev/null
	SERVER_PID=
}
cleanup() {
	if [ -n "$SERVER_PID" ]; then
		kill -KILL "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_server() { # sets PORT, SERVER_PID, LOG; returns non-zero if no ready line within 20 s
	local attempt i http
	for attempt in 1 2 3; do
		PORT=$(free_port)
		http=$(free_port)
		while [ "$http" = "$PORT" ]; do http=$(free_port); done
		local dir=$RUN/server$attempt
		mkdir -p "$dir"
		cat >"$dir/fe.conf" <<-EOF
			query_port = $PORT
			http_port = $http
			meta_dir = $dir/data/meta
		EOF
		cat >"$dir/be.conf" <<-EOF
			storage_root_path = $dir/data/storage
		EOF
		LOG=$dir/server.log
		: >"$LOG"
		"$BIN" --fe-conf "$dir/fe.conf" --be-conf "$dir/be.conf" </dev/null >"$LOG" 2>&1 &
		SERVER_PID=$!
		for ((i = 0; i < 200; i++)); do
			if grep -q 'ready for connections' "$LOG"; then return 0; fi
			kill -0 "$SERVER_PID" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$SERVER_PID" 2>/dev/null; then
			echo "server: no 'ready for connections' line within 20 s"
			return 1
		fi
		wait "$SERVER_PID"
		echo "server: exited with code $? before it was ready"
		SERVER_PID=
		grep -qi 'in use' "$LOG" || return 1 # otherwise: lost a port race, try again
	done
	return 1
}

# ---- the client tests: each gets its own directory; output goes to $RUN/<name>.out ----
t_mysql() { bash "$HERE/mysql_cli_smoke.sh" "$PORT" "$1"; }
t_mysql-ssl() { bash "$HERE/mysql_cli_smoke.sh" "$PORT" "$1" ssl; }
t_pymysql() { "$PY" "$HERE/pymysql_smoke.py" "$PORT"; }
t_mysqldb() { "$PY" "$HERE/mysqldb_smoke.py" "$PORT"; }
t_jdbc() {
	local jar=/usr/share/java/mariadb-java-client.jar
	if [ ! -f "$jar" ]; then
		echo "  FAIL $jar missing (Debian package libmariadb-java)"
		return 1
	fi
	javac -d "$1" -cp "$jar" "$HERE/JdbcSmoke.java" || return 1
	java -cp "$1:$jar" JdbcSmoke "$PORT"
}
t_odbc() { bash "$HERE/odbc_smoke.sh" "$PORT" "$1"; }
t_node() {
	local dir=$HERE/node
	if [ ! -d "$dir/node_modules/mysql2" ]; then
		echo "  npm install (node_modules missing)"
		(cd "$dir" && npm install --no-audit --no-fund --loglevel=error) || {
			echo "  FAIL npm install failed (is the npm registry reachable?)"
			return 1
		}
	fi
	node "$dir/smoke.js" "$PORT"
}

passed=0
failed=0
failed_names=
report() { # NAME RC
	if [ "$2" = 0 ]; then
		echo "ok $1"
		passed=$((passed + 1))
	else
		echo "FAILED $1"
		failed=$((failed + 1))
		failed_names="$failed_names $1"
	fi
}

if ! start_server; then
	report server-start 1
	echo "--- server log tail ($LOG)"
	tail -n 40 "$LOG"
	echo "$passed passed, $failed failed"
	exit 1
fi

for c in $CLIENTS; do
	if ! declare -F "t_$c" >/dev/null; then
		echo "run.sh: unknown client test '$c' (known: $ALL_CLIENTS)" >&2
		report "$c" 1
		continue
	fi
	if [ -z "$SERVER_PID" ] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
		echo "  server is no longer running"
		report "$c" 1
		continue
	fi
	mkdir -p "$RUN/$c"
	# timeout runs the test in its own process group and kills all of it on expiry
	timeout -k 5 "$TEST_TIMEOUT" bash -c "$(declare -f "t_$c"); $(declare -p HERE PY PORT); t_$c \"\$1\"" \
		_ "$RUN/$c" >"$RUN/$c.out" 2>&1 </dev/null
	rc=$?
	# the interactive mysql check runs a tmux server outside the test's process group
	[ -S "$RUN/$c/tmux.sock" ] && tmux -S "$RUN/$c/tmux.sock" kill-server 2>/dev/null
	[ $rc = 124 ] && echo "  FAIL timed out after $TEST_TIMEOUT s" >>"$RUN/$c.out"
	report "$c" $rc
	if [ $rc != 0 ]; then
		sed 's/^/  /' "$RUN/$c.out" | head -n 80
	fi
done

if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
	stop_server 10
	if [ "$STOP_RC" = 0 ]; then
		report server-shutdown 0
	else
		echo "  SIGTERM: exit status $STOP_RC (want 0 within 10 s)"
		report server-shutdown 1
	fi
else
	echo "  server died during the tests"
	report server-alive 1
fi

if [ $failed -gt 0 ]; then
	echo "--- server log tail ($LOG)"
	tail -n 40 "$LOG"
	echo "--- test outputs and data kept in $RUN"
	echo "failed:$failed_names"
else
	rm -rf "$RUN"
fi
echo "$passed passed, $failed failed"
[ $failed = 0 ]
