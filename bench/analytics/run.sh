#!/usr/bin/env bash
# Analytics benchmark (issue 5): a fact table f (default 10M rows) and a 10k-row dimension dim,
# loaded into Rivulet (DUPLICATE KEY, 8 buckets) and into a private MariaDB (InnoDB) started here;
# five analytic queries timed on both (3 runs: best and median), results compared, ratio
# MariaDB/Rivulet (issue 5 target >= 10x) and rows/s per core. Figures only, no pass/fail.
# Usage: bash bench/analytics/run.sh [build-dir]      (default build/release; needs $build/rivulet)
# Env: ANALYTICS_ROWS (default 10000000), ANALYTICS_RUNS (3), ANALYTICS_KEEP=1 keeps the
#      temporary directory (server logs).
set -euo pipefail
build=${1:-build/release}
rows=${ANALYTICS_ROWS:-10000000}
cd "$(dirname "$0")/../.."
BENCH_NAME=bench/analytics
BENCH_KEEPV=${ANALYTICS_KEEP:-0}
. bench/lib.sh

bench_require_rivulet "$build"
bench_ensure_mariadb
bench_tmp
bench_start_rivulet "$build"
my_args=()
if [ -x "$mariadbd" ]; then
	bench_start_mariadb
	my_args=(--my-port "$my_port")
else
	echo "$BENCH_NAME: no mariadbd; Rivulet figures only" >&2
fi

cc -std=c11 -D_GNU_SOURCE -O2 bench/analytics/bench_analytics.c \
	$(pkg-config --cflags --libs libmariadb) -lm -o "$build/bench_analytics"
echo "== bench_analytics (rivulet $("$build/rivulet" --version 2>/dev/null | head -1), $("$mariadbd" --version 2>/dev/null | awk '{print $3}'))"
"$build/bench_analytics" --rows "$rows" --runs "${ANALYTICS_RUNS:-3}" --rv-port "$rv_port" "${my_args[@]}"
bench_check_rivulet_alive
