#!/usr/bin/env bash
# Row Binlog and Table Stream benchmarks (issues 6 and 7). Figures and ratios only, no pass/fail.
# Usage: bash bench/binlog/run.sh [build-dir]   (default build/release; needs $build/rivulet)
# Env: BENCH_ROWS (rows per ingest run, default 1000000), BENCH_BIG (rows of the big table for
#      the window-cost ratio, default 10000000), BENCH_KEEP=1 keeps the temporary directory.
# Every comparison runs in one server, same data, back to back: this machine is shared and noisy.
set -euo pipefail
build=${1:-build/release}
rows=${BENCH_ROWS:-1000000}
big=${BENCH_BIG:-10000000}
cd "$(dirname "$0")/../.."

BENCH_NAME=bench/binlog
BENCH_KEEPV=${BENCH_KEEP:-0}
. bench/lib.sh

bench_require_rivulet "$build"
bench_tmp
bench_start_rivulet "$build"

/usr/bin/python3 bench/binlog/bench_binlog.py --port "$rv_port" --rows "$rows" --big "$big" \
	--storage "$tmp/rivulet/storage"

# Table Stream concurrency: 8 connections consume one stream in a loop while 2 write; the run
# fails unless delivered = written with zero duplicates (the same check is in make test).
kill "$rv_pid" 2>/dev/null && wait "$rv_pid" 2>/dev/null # the script starts its own server
rv_pid=
echo "== stream concurrency: 8 consumers, 2 writers, 20 s"
/usr/bin/python3 tests/stress/stream_concurrency.py --server "$build/rivulet" --workdir "$tmp/conc" \
	--consumers 8 --writers 2 --seconds 20
