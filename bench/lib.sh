# bench/lib.sh — shared start/stop of a Rivulet server and a private MariaDB for the SQL-level
# benchmarks. Source it after `set -euo pipefail` and `cd` to the repository root, with
#   BENCH_NAME   prefix of messages and of the temporary directory (e.g. bench/analytics)
#   BENCH_KEEPV  1 keeps the temporary directory at exit
# Provides: bench_require_rivulet BUILD, bench_ensure_mariadb, bench_tmp (creates $tmp, sets
# the EXIT trap), bench_start_rivulet BUILD (sets rv_port rv_pid), bench_start_mariadb [extra
# mariadbd args...] (sets my_port my_pid; InnoDB, buffer pool 512M, flush_log_at_trx_commit=1,
# loopback only, temporary datadir $tmp/mariadb), free_port, wait_ready.

rv_pid=
my_pid=
tmp=
mariadbd=

bench_require_rivulet() { # build-dir
	if [ ! -x "$1/rivulet" ]; then
		echo "$BENCH_NAME: $1/rivulet not built (make release)" >&2
		exit 1
	fi
}

bench_ensure_mariadb() {
	if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
		if [ "$(id -u)" = 0 ]; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-server >/dev/null
		else
			echo "$BENCH_NAME: mariadbd missing; run: sudo apt-get install -y mariadb-server" >&2
		fi
	fi
	mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
}

bench_cleanup() {
	[ -n "$rv_pid" ] && kill "$rv_pid" 2>/dev/null && wait "$rv_pid" 2>/dev/null
	[ -n "$my_pid" ] && kill "$my_pid" 2>/dev/null && wait "$my_pid" 2>/dev/null
	if [ -n "$tmp" ]; then
		if [ "${BENCH_KEEPV:-0}" = 1 ]; then echo "$BENCH_NAME: kept $tmp"; else rm -rf "$tmp"; fi
	fi
}

bench_tmp() {
	tmp=$(mktemp -d "/tmp/rivulet-${BENCH_NAME//\//-}.XXXXXX")
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

wait_ready() { # port pid name log
	for _ in $(seq 300); do
		if mysql -h127.0.0.1 -P"$1" -uroot -e 'select 1' >/dev/null 2>&1; then return 0; fi
		if ! kill -0 "$2" 2>/dev/null; then
			echo "$BENCH_NAME: $3 exited during startup; log:" >&2
			tail -20 "$4" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "$BENCH_NAME: $3 not ready after 30 s" >&2
	return 1
}

bench_start_rivulet() { # build-dir
	rv_port=$(free_port)
	"$1/rivulet" --data-dir "$tmp/rivulet" --port "$rv_port" >"$tmp/rivulet.log" 2>&1 &
	rv_pid=$!
	wait_ready "$rv_port" "$rv_pid" rivulet "$tmp/rivulet.log"
}

bench_start_mariadb() { # [extra mariadbd args...]
	mariadb-install-db --no-defaults --datadir="$tmp/mariadb" --auth-root-authentication-method=normal \
		--skip-test-db --user="$(id -un)" >"$tmp/mariadb-install.log" 2>&1
	my_port=$(free_port)
	"$mariadbd" --no-defaults --datadir="$tmp/mariadb" --socket="$tmp/mariadb.sock" \
		--port="$my_port" --bind-address=127.0.0.1 --skip-grant-tables --user="$(id -un)" \
		--innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=1 --max-allowed-packet=64M \
		"$@" --pid-file="$tmp/mariadb.pid" --log-error="$tmp/mariadb.err" &
	my_pid=$!
	wait_ready "$my_port" "$my_pid" mariadb "$tmp/mariadb.err"
}

bench_check_rivulet_alive() {
	if ! kill -0 "$rv_pid" 2>/dev/null; then
		echo "$BENCH_NAME: the Rivulet server died; last log lines:" >&2
		tail -20 "$tmp/rivulet.log" >&2
	fi
}
