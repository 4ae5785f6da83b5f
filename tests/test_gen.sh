#!/bin/sh
# SPDX-License-Identifier: MIT
# The generated tables are committed; each must be exactly what its
# generator writes: ref/central_tables.h from the central map's formulas
# (gen_central), opt/avx2_tables.h from the field (gen_avx2_tables), and
# the per-set automake fragments from the set list (build-aux/gen_sets_am.sh).
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
# The per-set automake lists and card rules, from include/tts_sets.def.
n=3
for what in lists:build-aux/sets.am card-rules:8051/card-rules.am; do
    mode=${what%%:*} file=${what#*:}
    sh "$srcdir/build-aux/gen_sets_am.sh" "$mode" > "$out" || { echo "gen_sets_am.sh $mode failed"; exit 1; }
    if cmp -s "$out" "$srcdir/$file"; then
        echo "ok $n - $file matches build-aux/gen_sets_am.sh $mode"
    else
        echo "not ok $n - $file differs from build-aux/gen_sets_am.sh $mode (run it, then autoreconf):"
        diff "$srcdir/$file" "$out" | head -20
        exit 1
    fi
    n=$((n + 1))
done
# Every set has its card test file in each image family (the lists of
# build-aux/sets.am name them; the two ROM families for n <= 32, and
# TTS(20,28)'s 4 KB measurement without a check), and no other card test
# file is there.
want=$(sed -n 's/^TTS_SET( *\([0-9]*\), *\([0-9]*\),.*/\1-\2/p' "$srcdir/include/tts_sets.def" |
       awk -F- '{print "card-" $0 ".card"; print "card-" $0 "-128.card"
                 if ($2 <= 32) { print "card-" $0 "-rom.card"; print "card-" $0 "-rom4k.card" }
                 if ($0 == "20-28") print "card-" $0 "-rom4k-nocheck.card" }' | sort)
have=$(cd "$srcdir/tests" && ls card-*.card | sort)
if [ "$want" = "$have" ]; then
    echo "ok $n - every set in include/tts_sets.def has tests/card-M-N.card and tests/card-M-N-128.card (and -rom.card, -rom4k.card for n <= 32; TTS(20,28) -rom4k-nocheck.card), and no other set"
else
    echo "not ok $n - card test files out of step with include/tts_sets.def:"
    echo "# want: $(echo $want)"
    echo "# have: $(echo $have)"
    exit 1
fi
echo "1..$n"
