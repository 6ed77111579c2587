#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build and run every libFuzzer harness tests/fuzz/fuzz_*.c (make fuzz).
#
# Each harness names the modules it needs in one comment line, e.g.
#     /* FUZZ_SOURCES: common protocol */   (or a " * FUZZ_SOURCES: ..." line in a block comment)
# and is compiled with clang -fsanitize=fuzzer,address,undefined together with every .c file of
# those modules (server/main.c excluded; planner/parse.y is run through lemon when planner is
# listed). libc malloc is used (no jemalloc), as in the ASan build.
#
# Environment:
#   FUZZ_SECONDS  seconds per harness (default 60)
#   FUZZ_ONLY     run only this harness, e.g. FUZZ_ONLY=fuzz_packet
#   FUZZ_OUT      build/output directory (default build/fuzz)
#   FUZZ_ARGS     extra libFuzzer arguments, e.g. "-max_len=65536"
# Corpora grow in $FUZZ_OUT/corpus/<harness> (seeded from tests/fuzz/seeds/<harness> if present);
# crashing inputs land in $FUZZ_OUT/artifacts/<harness>/. Exit status is non-zero when any
# harness fails to build or finds a bug.
set -euo pipefail

cd "$(dirname "$0")/../.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_OUT=${FUZZ_OUT:-build/fuzz}
FUZZ_ARGS=${FUZZ_ARGS:-}
CC=${FUZZ_CC:-clang}
CFLAGS=(-std=c11 -D_GNU_SOURCE -I. -g -O1 -fno-omit-frame-pointer
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
    -Wall -Wextra -Wno-unused-parameter)
PKGS="libuv libzstd libssl libcrypto libxxhash libpcre2-8"

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "fuzz: $CC not found; as root run:"
    echo "  apt-get update && apt-get install -y clang"
    exit 1
fi

# The libFuzzer runtime ships separately from the compiler on Debian.
mkdir -p "$FUZZ_OUT"
probe="$FUZZ_OUT/.probe"
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
    >"$probe.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" 2>/dev/null; then
    major=$("$CC" -dumpversion | cut -d. -f1)
    echo "fuzz: the libFuzzer runtime for $CC is missing; as root run:"
    echo "  apt-get update && apt-get install -y libclang-rt-${major}-dev"
    exit 1
fi
rm -f "$probe" "$probe.c"

libs=()
for p in $PKGS; do
    if pkg-config --exists "$p"; then
        read -r -a more <<<"$(pkg-config --libs "$p")"
        libs+=("${more[@]}")
    fi
done
libs+=(-lroaring -lm -pthread)

# Print the .c files of the modules named on the harness's FUZZ_SOURCES line.
sources_of() {
    local harness=$1 line mod
    line=$(grep -m1 -o 'FUZZ_SOURCES:[^*]*' "$harness" || true)
    if [ -z "$line" ]; then
        echo "fuzz: $harness has no FUZZ_SOURCES line" >&2
        return 1
    fi
    for mod in ${line#FUZZ_SOURCES:}; do
        if [ ! -d "$mod" ]; then
            echo "fuzz: $harness names unknown module '$mod'" >&2
            return 1
        fi
        for f in "$mod"/*.c; do
            [ -e "$f" ] || continue
            [ "$f" = server/main.c ] && continue
            echo "$f"
        done
    done
}

status=0
ran=0
for harness in tests/fuzz/fuzz_*.c; do
    [ -e "$harness" ] || continue
    name=$(basename "$harness" .c)
    if [ -n "${FUZZ_ONLY:-}" ] && [ "$FUZZ_ONLY" != "$name" ]; then
        continue
    fi
    ran=$((ran + 1))
    if ! srcs=$(sources_of "$harness"); then
        status=1
        continue
    fi
    read -r -d '' -a src_list <<<"$srcs" || true
    extra=()
    if grep -qx 'planner/.*' <<<"$srcs" && [ -f planner/parse.y ]; then
        gen="$FUZZ_OUT/gen"
        mkdir -p "$gen/planner"
        lemon -q -T/usr/share/lemon/lempar.c -d"$gen/planner" planner/parse.y
        extra+=(-I"$gen" -Iplanner "$gen/planner/parse.c")
    fi
    bin="$FUZZ_OUT/$name"
    echo "== build $name (${#src_list[@]} sources)"
    if ! "$CC" "${CFLAGS[@]}" $(pkg-config --cflags $PKGS 2>/dev/null) -o "$bin" "$harness" \
        "${src_list[@]}" "${extra[@]}" "${libs[@]}"; then
        echo "fuzz: $name failed to build"
        status=1
        continue
    fi
    corpus="$FUZZ_OUT/corpus/$name"
    artifacts="$FUZZ_OUT/artifacts/$name"
    mkdir -p "$corpus" "$artifacts"
    seeds=()
    if [ -d "tests/fuzz/seeds/$name" ]; then
        seeds=("tests/fuzz/seeds/$name")
    fi
    echo "== run $name for ${FUZZ_SECONDS}s"
    # shellcheck disable=SC2086
    if ! "$bin" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
        -artifact_prefix="$artifacts/" $FUZZ_ARGS "$corpus" "${seeds[@]}"; then
        echo "fuzz: $name FAILED; reproduce with: $bin $artifacts/<crash-file>"
        status=1
    fi
done
if [ "$ran" -eq 0 ]; then
    echo "fuzz: no harness matched"
    exit 1
fi
exit $status
