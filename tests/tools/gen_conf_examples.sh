#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerate fe.conf.example and be.conf.example from conf/conf.def (cfg_write_example).
# Run from anywhere after changing conf/conf.def; tests/conf/test_config.c fails until the
# checked-in files equal the generated ones. Compiles conf/ and common/ only, into a temp dir.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/gen.c" <<'CSRC'
#include <stdio.h>
#include <string.h>

#include "conf/conf.h"

int main(int argc, char **argv);

int
main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "fe") != 0 && strcmp(argv[1], "be") != 0)) {
        fprintf(stderr, "usage: gen fe|be\n");
        return 2;
    }
    cfg_write_example(stdout, strcmp(argv[1], "fe") == 0 ? CFG_FE : CFG_BE);
    return ferror(stdout) ? 1 : 0;
}
CSRC

${CC:-gcc} -std=c11 -D_GNU_SOURCE -I"$root" -o "$tmp/gen" "$tmp/gen.c" "$root"/conf/*.c \
    "$root"/common/*.c -pthread
"$tmp/gen" fe >"$root/fe.conf.example"
"$tmp/gen" be >"$root/be.conf.example"
echo "wrote $root/fe.conf.example and $root/be.conf.example"
