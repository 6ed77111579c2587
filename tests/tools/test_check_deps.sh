#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Self-test of check_deps.sh: builds a scratch source tree in a temporary directory (never
# touches the repository), first with legal includes only, then with one violation of each kind,
# and compares the script's output and exit status with what the layering rules demand.
# Usage: bash tests/tools/test_check_deps.sh   (prints "ok" and exits 0 on success)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# put <file> <line>...: write lines to a file of the scratch tree.
put() {
    local f=$tmp/$1
    shift
    mkdir -p "$(dirname "$f")"
    printf '%s\n' "$@" >"$f"
}

# ---- a tree with legal includes only ----
put common/arena.c '#include "common/arena.h"' '#include "common/mem.h"' '#include <stdio.h>'
put conf/conf.h '#include "common/db_error.h"' '#include "conf/conf.def"'
put conf/cfg_config.c '#include "conf/conf.h"' '#include <sys/stat.h>' '#include "common/mem.h"'
put catalog/cat_edit.c '#include "catalog/cat_int.h"' '#include "cat_int.h"' \
    '#include "conf/conf.h"' '#include "common/anything.h"'
put storage/stor_seg.c '#include "catalog/catalog.h"' '#include "conf/conf.h"'
put binlog/bl_writer.c '#include "storage/storage.h"' '#include "catalog/catalog.h"'
put stream/strm_scan.c '#include "binlog/binlog.h"' '#include "storage/storage.h"'
put planner/parse.y '%include {' '#include "planner/plan_int.h"' '}'
put planner/plan_exec.c '#include "planner/parse.h"' '#include "stream/stream.h"' \
    '#include "binlog/binlog.h"'
put protocol/proto_packet.c '#include "protocol/proto_int.h"' '#include "common/buf.h"'
put server/srv_main.c '#include "server/srv_int.h"' '#include "planner/planner.h"' \
    '#include "protocol/protocol.h"' '#include "conf/conf.h"' '#include "catalog/catalog.h"'
put tests/conf/test_x.c '#include "server/srv_int.h"' '#include "conf/cfg_int.h"'
put regression/runner/r.c '#include "planner/plan_int.h"'

out=$(bash "$here/check_deps.sh" "$tmp" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "clean tree: exit $rc"
[ -z "$out" ] || fail "clean tree printed: $out"

# ---- one violation of each kind ----
put common/log.c '#include "common/log.h"' '#include "conf/conf.h"'
put conf/cfg_bad.c '#include "conf/conf.h"' '' '#include "catalog/catalog.h"'
put catalog/cat_bad.c '#include "conf/cfg_int.h"'
put storage/stor_bad.c '#include "../common/arena.h"'
put binlog/bl_bad.c '#include "tests/util.h"'
put stream/strm_bad.h '  #  include <binlog/bl_int.h>'
put planner/plan_bad.c '#include "protocol/protocol.h"' '#include "server/server.h"'
put protocol/proto_bad.c '#include "common/db_error.h"' '#include "conf/conf.h"'
put server/srv_bad.c '#include "planner/parse.h"' '#include "protocol/proto_int.h"'
put conf/conf.def '#include "storage/storage.h"'

expected="binlog/bl_bad.c:1: binlog may not include tests/util.h
catalog/cat_bad.c:1: catalog may not include conf/cfg_int.h
common/log.c:2: common may not include conf/conf.h
conf/cfg_bad.c:3: conf may not include catalog/catalog.h
conf/conf.def:1: conf may not include storage/storage.h
planner/plan_bad.c:1: planner may not include protocol/protocol.h
planner/plan_bad.c:2: planner may not include server/server.h
protocol/proto_bad.c:2: protocol may not include conf/conf.h
server/srv_bad.c:1: server may not include planner/parse.h
server/srv_bad.c:2: server may not include protocol/proto_int.h
storage/stor_bad.c:1: storage may not include ../common/arena.h
stream/strm_bad.h:1: stream may not include binlog/bl_int.h"

out=$(bash "$here/check_deps.sh" "$tmp" 2>/dev/null)
rc=$?
[ "$rc" -eq 1 ] || fail "bad tree: exit $rc, want 1"
got=$(printf '%s\n' "$out" | sort)
if [ "$got" != "$expected" ]; then
    fail "bad tree output differs:"
    diff <(printf '%s\n' "$expected") <(printf '%s\n' "$got")
fi
summary=$(bash "$here/check_deps.sh" "$tmp" 2>&1 >/dev/null)
[[ $summary == *"12 layering violation(s)"* ]] || fail "summary: $summary"

if [ "$failures" -gt 0 ]; then
    echo "test_check_deps: $failures failure(s)"
    exit 1
fi
echo ok
