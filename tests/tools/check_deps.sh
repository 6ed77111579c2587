#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check_deps.sh [ROOT]: enforce the module layering of STYLE.md §2.1 for `make check-deps`.
#
#   common <- conf <- catalog <- storage <- binlog <- stream <- planner <- server
#   protocol depends on common only; server may also include protocol.
#
# Every #include of a module path ("m/..." or <m/...>) in a *.c, *.h, *.def or *.y file under a
# module folder must name either the file's own module (any header, including the generated
# planner/parse.h) or the public header m/m.h of a module the file's module may depend on
# (for common: any common/*.h). A module path starting with "./" or "../" is a violation too.
# Includes without a directory ("x.h") resolve next to the file and are the module's own.
# tests/ and regression/ are exempt. Prints `file:line: <module> may not include <header>` for
# each violation and exits 1 if there is any. ROOT defaults to the repository holding this file.
set -uo pipefail

root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || {
    echo "check_deps: cannot enter $root" >&2
    exit 2
}

layers=(common conf catalog storage binlog stream planner server)
modules=("${layers[@]}" protocol)
# Paths a module must never reach into, even though they are not modules.
foreign=(tests regression build bench)

# allowed_deps <module>: the modules whose public headers <module> may include.
allowed_deps() {
    local m=$1 i deps=()
    if [ "$m" = protocol ]; then
        deps=(common)
    fi
    for i in "${!layers[@]}"; do
        if [ "${layers[$i]}" = "$m" ]; then
            deps=("${layers[@]:0:$i}")
            break
        fi
    done
    if [ "$m" = server ]; then
        deps+=(protocol)
    fi
    echo "${deps[*]}"
}

is_known_prefix() {
    local p=$1 m
    for m in "${modules[@]}" "${foreign[@]}"; do
        if [ "$p" = "$m" ]; then
            return 0
        fi
    done
    return 1
}

violations=0
report() {
    echo "$1:$2: $3 may not include $4"
    violations=$((violations + 1))
}

include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]+)[">]'

for m in "${modules[@]}"; do
    [ -d "$m" ] || continue
    deps=" $(allowed_deps "$m") "
    while IFS= read -r -d '' file; do
        lineno=0
        while IFS= read -r line || [ -n "$line" ]; do
            lineno=$((lineno + 1))
            [[ $line =~ $include_re ]] || continue
            hdr=${BASH_REMATCH[1]}
            if [[ $hdr == ./* || $hdr == ../* ]]; then
                report "$file" "$lineno" "$m" "$hdr"
                continue
            fi
            [[ $hdr == */* ]] || continue # same folder, or a system header
            top=${hdr%%/*}
            is_known_prefix "$top" || continue # a system header such as <sys/stat.h>
            if [ "$top" = "$m" ]; then
                continue # own module: any header
            fi
            if [[ $deps == *" $top "* ]]; then
                if [ "$top" = common ] || [ "$hdr" = "$top/$top.h" ]; then
                    continue
                fi
            fi
            report "$file" "$lineno" "$m" "$hdr"
        done <"$file"
    done < <(find "$m" -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' -o -name '*.y' \) \
        -print0 | sort -z)
done

if [ "$violations" -gt 0 ]; then
    echo "check-deps: $violations layering violation(s); see STYLE.md §2.1" >&2
    exit 1
fi
exit 0
