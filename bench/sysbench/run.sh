#!/usr/bin/env bash
# sysbench OLTP (issue 5): oltp_point_select, oltp_read_only and oltp_insert against Rivulet and
# a private MariaDB started here, in one run; QPS of each and the Rivulet/MariaDB ratio.
# Figures only, no pass/fail (a workload that fails is reported with sysbench's own error).
# Usage: bash bench/sysbench/run.sh [build-dir]      (default build/release; needs $build/rivulet)
# Env: SYSBENCH_ROWS (default 1000000), SYSBENCH_TIME (20 s per workload), SYSBENCH_THREADS (2),
#      SYSBENCH_WORKLOADS (default "oltp_point_select oltp_read_only oltp_insert"),
#      SYSBENCH_KEEP=1 keeps the temporary directory (server logs, sysbench output).
# The table is made by sysbench's own unmodified `prepare` (--tables=1 --table-size=N), once per
# server; the workloads then run in the order above (insert last, it grows the table), with
# --db-ps-mode=auto (server-side prepared statements).
set -euo pipefail
build=${1:-build/release}
rows=${SYSBENCH_ROWS:-1000000}
secs=${SYSBENCH_TIME:-20}
threads=${SYSBENCH_THREADS:-2}
workloads=${SYSBENCH_WORKLOADS:-oltp_point_select oltp_read_only oltp_insert}
cd "$(dirname "$0")/../.."

if [ ! -x "$build/rivulet" ]; then
	echo "bench/sysbench: $build/rivulet not built (make release)" >&2
	exit 1
fi
need=""
command -v sysbench >/dev/null 2>&1 || need="$need sysbench"
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need="$need mariadb-server"
if [ -n "$need" ]; then
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need >/dev/null
	else
		echo "bench/sysbench: missing; run: sudo apt-get install -y$need" >&2
		exit 1
	fi
fi
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)

tmp=$(mktemp -d /tmp/rivulet-bench-sysbench.XXXXXX)
rv_pid=
my_pid=
cleanup() {
	[ -n "$rv_pid" ] && kill "$rv_pid" 2>/dev/null && wait "$rv_pid" 2>/dev/null
	[ -n "$my_pid" ] && kill "$my_pid" 2>/dev/null && wait "$my_pid" 2>/dev/null
	if [ "${SYSBENCH_KEEP:-0}" = 1 ]; then echo "bench/sysbench: kept $tmp"; else rm -rf "$tmp"; fi
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
			echo "bench/sysbench: $3 exited during startup; log:" >&2
			tail -20 "$4" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "bench/sysbench: $3 not ready after 30 s" >&2
	return 1
}

# ---- Rivulet ----
rv_port=$(free_port)
"$build/rivulet" --data-dir "$tmp/rivulet" --port "$rv_port" >"$tmp/rivulet.log" 2>&1 &
rv_pid=$!
wait_ready "$rv_port" "$rv_pid" rivulet "$tmp/rivulet.log"

# ---- MariaDB (private datadir, loopback only; same settings as bench/sql/run.sh) ----
mariadb-install-db --no-defaults --datadir="$tmp/mariadb" --auth-root-authentication-method=normal \
	--skip-test-db --user="$(id -un)" >"$tmp/mariadb-install.log" 2>&1
my_port=$(free_port)
"$mariadbd" --no-defaults --datadir="$tmp/mariadb" --socket="$tmp/mariadb.sock" \
	--port="$my_port" --bind-address=127.0.0.1 --skip-grant-tables --user="$(id -un)" \
	--innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=1 --max-allowed-packet=64M \
	--max-prepared-stmt-count=100000 \
	--pid-file="$tmp/mariadb.pid" --log-error="$tmp/mariadb.err" >"$tmp/mariadbd.out" 2>&1 &
my_pid=$!
wait_ready "$my_port" "$my_pid" mariadb "$tmp/mariadb.err"

echo "== sysbench $(sysbench --version | awk '{print $2}'): rivulet $("$build/rivulet" --version 2>/dev/null | head -1)," \
	"MariaDB $("$mariadbd" --version 2>/dev/null | awk '{print $3}'); $rows rows, $threads threads, $secs s each"

# sb NAME PORT WORKLOAD CMD: runs sysbench, output in $tmp/NAME.WORKLOAD.CMD.out; returns its status
sb() {
	local name=$1 port=$2 wl=$3 cmd=$4
	timeout $((secs * 3 + 1800)) sysbench "$wl" --db-driver=mysql --mysql-host=127.0.0.1 \
		--mysql-port="$port" --mysql-user=root --mysql-password= --mysql-db=sbtest \
		--tables=1 --table-size="$rows" --threads="$threads" --time="$secs" \
		--db-ps-mode=auto --report-interval=0 --rand-seed=42 "$cmd" \
		>"$tmp/$name.$wl.$cmd.out" 2>&1
}
# what went wrong, as sysbench printed it
sb_error() {
	grep -m3 -E 'FATAL|error|Error|ERROR' "$1" || tail -3 "$1"
}

declare -A qps sums
for side in rivulet:$rv_port:$rv_pid mariadb:$my_port:$my_pid; do
	IFS=: read -r name port pid <<<"$side"
	mysql -h127.0.0.1 -P"$port" -uroot -e 'CREATE DATABASE sbtest'
	t0=$(date +%s.%N)
	if sb "$name" "$port" oltp_read_only prepare; then
		printf '%-8s prepare   %d rows in %.1f s\n' "$name" "$rows" "$(echo "$(date +%s.%N) - $t0" | bc)"
	else
		echo "$name prepare FAILED: $(sb_error "$tmp/$name.oltp_read_only.prepare.out")"
		continue
	fi
	# prepare's k/c/pad values are random (not seeded), so only the key set is checked
	sums[$name]=$(mysql -h127.0.0.1 -P"$port" -uroot -N -B -e "SELECT COUNT(*), MIN(id), MAX(id),
		COUNT(DISTINCT id) FROM sbtest.sbtest1" 2>&1 | tr '\t' ' ')
	for wl in $workloads; do
		if sb "$name" "$port" "$wl" run; then
			q=$(awk '/queries:/ {gsub(/\(/, "", $3); print $3; exit}' "$tmp/$name.$wl.run.out")
			tps=$(awk '/transactions:/ {gsub(/\(/, "", $3); print $3; exit}' "$tmp/$name.$wl.run.out")
			lat=$(awk '/avg:/ {print $2; exit}' "$tmp/$name.$wl.run.out")
			qps[$name.$wl]=$q
			printf '%-8s %-18s %10s q/s  %9s tps  avg %s ms\n' "$name" "$wl" "$q" "$tps" "$lat"
		else
			echo "$name $wl FAILED: $(sb_error "$tmp/$name.$wl.run.out")"
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "bench/sysbench: the $name server died; last log lines:" >&2
			tail -20 "$tmp/$name.log" "$tmp/mariadb.err" 2>/dev/null | tail -20 >&2
			break
		fi
	done
done

if [ "${sums[rivulet]:-}" != "$rows 1 $rows $rows" ] || [ "${sums[mariadb]:-}" != "$rows 1 $rows $rows" ]; then
	echo "bench/sysbench: after prepare, expected COUNT(*) MIN(id) MAX(id) COUNT(DISTINCT id) = $rows 1 $rows $rows:"
	echo "  rivulet: ${sums[rivulet]:-}"
	echo "  mariadb: ${sums[mariadb]:-}"
fi
echo "== ratio Rivulet/MariaDB (QPS)"
for wl in $workloads; do
	r=${qps[rivulet.$wl]:-} m=${qps[mariadb.$wl]:-}
	if [ -n "$r" ] && [ -n "$m" ]; then
		printf '%-18s %.3fx\n' "$wl" "$(echo "scale=4; $r / $m" | bc)"
	else
		printf '%-18s n/a (a side failed)\n' "$wl"
	fi
done
