#!/bin/sh
# The generated tables are committed; each must be exactly what its
# generator writes: ref/central_tables.h from the central map's formulas
# (gen_central), opt/avx2_tables.h from the field (gen_avx2_tables).
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
"$top_builddir/gen_avx2_tables" > "$out" || { echo "gen_avx2_tables failed"; exit 1; }
if cmp -s "$out" "$srcdir/opt/avx2_tables.h"; then
    echo "ok 2 - opt/avx2_tables.h matches gen_avx2_tables"
else
    echo "not ok 2 - opt/avx2_tables.h differs from gen_avx2_tables output:"
    diff "$srcdir/opt/avx2_tables.h" "$out" | head -20
    exit 1
fi
