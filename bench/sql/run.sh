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

BENCH_NAME=bench/sql
BENCH_KEEPV=${BENCH_KEEP:-0}
. bench/lib.sh

bench_require_rivulet "$build"
bench_ensure_mariadb
bench_tmp
bench_start_rivulet "$build"

# ---- MariaDB (private datadir, loopback only) ----
my_args=()
if [ -x "$mariadbd" ]; then
	bench_start_mariadb
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
bench_check_rivulet_alive
