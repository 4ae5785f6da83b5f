#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of the tree: tools/ holds the command lines, and no library
# below them reaches up into it. No file of challenge/, bench/, host/ or
# common/ includes a header that lives in tools/. An `#include "x.h"` is
# resolved as the compiler would: the including file's own folder first,
# then the folders the build puts on the include path (include/, common/,
# host/, ref/, opt/, 8051/, avr/, kat/, cortexm/, challenge/, bench/); a
# header found only in tools/ is a breach, and so is any path through
# tools/ ("tools/cli.h", "../tools/cli.h").
set -u
: "${srcdir:=.}"
. "$srcdir/tests/tap_lib.sh"
tap_abs srcdir
cd "$srcdir" || exit 99
below="challenge bench host common"
path="include common host ref opt 8051 avr kat cortexm challenge bench"
# does the header $2, included from folder $1, resolve outside tools/?
resolves_below() {
    case $2 in
    tools/* | */tools/*) return 1 ;;
    */*) [ -f "$1/$2" ] || [ -f "$2" ] && return 0 ;;
    esac
    [ -f "$1/$2" ] && return 0
    for d in $path; do
        [ -f "$d/$2" ] && return 0
    done
    return 1
}
# the breaches of the tree in the current folder, one "file:header" a
# line; the count of quoted includes read goes to the file n
scan() {
    n=0
    for d in $below; do
        [ -d "$d" ] || continue
        for f in $(find "$d" -name '*.[ch]' | sort); do
            for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
                n=$((n + 1))
                resolves_below "$(dirname "$f")" "$h" && continue
                # a header of nowhere (generated, or a system one in
                # quotes) is not this test's matter; one of tools/ is
                case $h in tools/* | */tools/*) echo "$f:$h"; continue ;; esac
                [ -f "tools/$(basename "$h")" ] && echo "$f:$h"
            done
        done
    done
    echo "$n" >"$tmp/n"
}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
bad=$(scan | tr '\n' ' ')
n=$(cat "$tmp/n")
[ "$n" -gt 0 ]
check $? "the libraries' quoted includes were read ($n)"
[ -z "$bad" ]
check $? "no file of $below includes a header of tools/${bad:+ (found: $bad)}"
# the scan sees a breach: a tree whose bench/ includes a header of tools/
# (by name, and by a path through tools/), and whose host/ includes its own
mkdir "$tmp/t" "$tmp/t/bench" "$tmp/t/tools" "$tmp/t/host"
: >"$tmp/t/tools/probe_only.h"
: >"$tmp/t/host/probe_host.h"
printf '#include "probe_only.h"\n#include "../tools/probe_only.h"\n#include "probe_host.h"\n' \
    >"$tmp/t/bench/probe.c"
printf '#include "probe_host.h"\n' >"$tmp/t/host/probe.c"
got=$(cd "$tmp/t" && scan | tr '\n' ' ')
b=bench/probe
[ "$got" = "$b.c:probe_only.h $b.c:../tools/probe_only.h " ]
check $? "a probe tree's two breaches are found, its lawful includes not (found: $got)"
tap_end
