#!/usr/bin/env bash
# SQL-level benchmarks (storage issue): bulk load, upsert and point lookup through the MySQL
# protocol, Rivulet against MariaDB/InnoDB on the same machine. Figures only, no pass/fail.
# Usage: bash bench/sql/run.sh [build-dir]      (default build/release; needs $build/rivulet)
# Env: BENCH_ROWS (default 10000000), BENCH_LOOKUP_SECS (10), BENCH_THREADS (4),
#      BENCH_KEEP=1 keeps the temporary directory.
set -euo pipefail
build=${1:-build/release}
rows=${BENCH_ROWS:-10000000}
cd "$(dirname "$0")/../.."

if [ ! -x "$build/rivulet" ]; then
	echo "bench/sql: $build/rivulet not built (make release)" >&2
	exit 1
fi
if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-server >/dev/null
	else
		echo "bench/sql: mariadbd missing; run: sudo apt-get install -y mariadb-server" >&2
	fi
fi
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)

tmp=$(mktemp -d /tmp/rivulet-bench-sql.XXXXXX)
rv_pid=
my_pid=
cleanup() {
	[ -n "$rv_pid" ] && kill "$rv_pid" 2>/dev/null && wait "$rv_pid" 2>/dev/null
	[ -n "$my_pid" ] && kill "$my_pid" 2>/dev/null && wait "$my_pid" 2>/dev/null
	if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "bench/sql: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_ready() { # port pid name log
	for _ in $(seq 300); do
		if mysql -h127.0.0.1 -P"$1" -uroot -e 'select 1' >/dev/null 2>&1; then return 0; fi
		if ! kill -0 "$2" 2>/dev/null; then
			echo "bench/sql: $3 exited during startup; log:" >&2
			tail -20 "$4" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "bench/sql: $3 not ready after 30 s" >&2
	return 1
}

# ---- Rivulet ----
rv_port=$(free_port)
"$build/rivulet" --data-dir "$tmp/rivulet" --port "$rv_port" >"$tmp/rivulet.log" 2>&1 &
rv_pid=$!
wait_ready "$rv_port" "$rv_pid" rivulet "$tmp/rivulet.log"

# ---- MariaDB (private datadir, loopback only) ----
my_args=()
if [ -x "$mariadbd" ]; then
	mariadb-install-db --no-defaults --datadir="$tmp/mariadb" --auth-root-authentication-method=normal \
		--skip-test-db --user="$(id -un)" >"$tmp/mariadb-install.log" 2>&1
	my_port=$(free_port)
	"$mariadbd" --no-defaults --datadir="$tmp/mariadb" --socket="$tmp/mariadb.sock" \
		--port="$my_port" --bind-address=127.0.0.1 --skip-grant-tables --user="$(id -un)" \
		--innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=1 --max-allowed-packet=64M \
		--pid-file="$tmp/mariadb.pid" --log-error="$tmp/mariadb.err" &
	my_pid=$!
	wait_ready "$my_port" "$my_pid" mariadb "$tmp/mariadb.err"
	my_args=(--my-port "$my_port" --my-pid "$my_pid" --my-datadir "$tmp/mariadb")
else
	echo "bench/sql: no mariadbd; Rivulet figures only" >&2
fi

# ---- client ----
cc -std=c11 -D_GNU_SOURCE -O2 -pthread bench/sql/bench_dml.c \
	$(pkg-config --cflags --libs libmariadb) -o "$build/bench_dml"
echo "== bench_dml (rivulet $("$build/rivulet" --version 2>/dev/null | head -1), $(mariadbd --version 2>/dev/null | awk '{print $3}'))"
"$build/bench_dml" --rows "$rows" --rv-port "$rv_port" --rv-pid "$rv_pid" \
	--rv-storage "$tmp/rivulet/storage" "${my_args[@]}" \
	--lookup-secs "${BENCH_LOOKUP_SECS:-10}" --threads "${BENCH_THREADS:-4}"
if ! kill -0 "$rv_pid" 2>/dev/null; then
	echo "bench/sql: the Rivulet server died; last log lines:" >&2
	tail -20 "$tmp/rivulet.log" >&2
fi
