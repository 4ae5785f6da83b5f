#!/bin/sh
# SPDX-License-Identifier: MIT
# The licence: LICENSE is the MIT licence of "the libtts authors", and every
# source, script and build file of the tree (C, headers, shell, Python,
# automake and autoconf files, man pages, the card tests, CI) names it in an
# SPDX line within its first three lines; so do the files the build
# generates from the tree's own generators (8051/card_tables*.h,
# build-aux/sets.am). Files made by autotools and libtool are not the
# project's and are not read.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
. "$srcdir/tests/tap_lib.sh"

grep -q '^MIT License$' "$srcdir/LICENSE" &&
    grep -q '^Copyright (c) [0-9]* the libtts authors$' "$srcdir/LICENSE" &&
    grep -q 'Permission is hereby granted, free of charge' "$srcdir/LICENSE"
check $? "LICENSE is the MIT licence of the libtts authors"

list=$(mktemp) || exit 99
trap 'rm -f "$list"' EXIT
for top in "$srcdir" "$top_builddir"; do
    (cd "$top" && find . \( -name .git -o -name autom4te.cache -o -name 'libtts-*' -o \
        -name build-aux -o -name _build -o -name '.deps' -o -name node_modules -o \
        -name 'pqclean-*' -o -name pqclean \) -prune -o \
        -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' -o -name '*.sh' -o \
        -name '*.py' -o -name '*.am' -o -name '*.card' -o -name '*.1' \) -print |
        grep -v '^\./config\.h$' | sed "s|^\./|$top/|")
done >"$list"
for f in configure.ac Makefile.am tts.pc.in .ci/run build-aux/gen_sets_am.sh build-aux/sets.am build-aux/supercop.sh \
    build-aux/pqclean.sh; do
    [ -f "$srcdir/$f" ] && echo "$srcdir/$f"
done >>"$list"
n=0 bad=""
while read -r f; do
    n=$((n + 1))
    head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT' || bad="$bad $f"
done <"$list"
[ "$n" -gt 200 ] && [ -z "$bad" ]
# (PQClean, fetched into pqclean-VERSION/ and built in pqclean/, is not ours)
check $? "every one of the $n source, script and build files has the SPDX line${bad:+ (missing:$(echo $bad | cut -d' ' -f1-10))}"
grep -q 'MIT' "$srcdir/README.md" && grep -q 'LICENSE' "$srcdir/README.md"
check $? "README names the licence"
tap_end
