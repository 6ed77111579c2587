#!/usr/bin/env bash
# Planning scaling check (issue 12): long statements of one shape at growing sizes (set-operation
# chains of 500..20,000 operands, IN lists of 1k..100k, CASE chains, AND / OR / + chains, wide
# INSERT ... VALUES), the time of each size and the ratio to the previous size (linear: ~2x per
# doubling). Figures only, no pass/fail (results are checked).
# Usage: bash bench/planning/run.sh [build-dir]   (default build/release; needs $build/rivulet)
# Env: BENCH_CAP (seconds after which a case skips its larger sizes, default 30),
#      BENCH_ONLY (comma-separated case names, substrings), BENCH_KEEP=1 keeps the temp directory.
set -euo pipefail
build=${1:-build/release}
cd "$(dirname "$0")/../.."

BENCH_NAME=bench/planning
BENCH_KEEPV=${BENCH_KEEP:-0}
. bench/lib.sh

bench_require_rivulet "$build"
bench_tmp
bench_start_rivulet "$build"
mysql -h127.0.0.1 -P"$rv_port" -uroot -e 'SET GLOBAL max_allowed_packet = 268435456'

echo "== planning: statement size vs time"
/usr/bin/python3 bench/planning/bench_planning.py --port "$rv_port" --cap "${BENCH_CAP:-30}" \
	--only "${BENCH_ONLY:-}" || { bench_check_rivulet_alive; exit 1; }
