#!/bin/sh
# ref/central_tables.h is committed; it must be exactly what gen_central
# writes from the formulas.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
"$top_builddir/gen_central" > "$out" || { echo "gen_central failed"; exit 1; }
if cmp -s "$out" "$srcdir/ref/central_tables.h"; then
    echo "ok 1 - ref/central_tables.h matches gen_central"
else
    echo "not ok 1 - ref/central_tables.h differs from gen_central output:"
    diff "$srcdir/ref/central_tables.h" "$out" | head -20
    exit 1
fi
