#!/usr/bin/env bash
# Build and run every bench/bench_*.c against the release library. Figures only, no pass/fail
# on timing. Usage: bash bench/run.sh build/release
set -euo pipefail
build=${1:-build/release}
for src in bench/bench_*.c; do
	name=$(basename "$src" .c)
	cc -std=c11 -D_GNU_SOURCE -O2 -I. -pthread "$src" "$build/librivulet.a" \
		$(pkg-config --libs libuv libssl libcrypto libzstd libxxhash) -lroaring -ljemalloc -lm -o "$build/$name"
	echo "== $name"
	"$build/$name"
done
