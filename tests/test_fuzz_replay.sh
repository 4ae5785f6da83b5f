#!/bin/sh
# SPDX-License-Identifier: MIT
# Every committed fuzz input (fuzz/corpus) replayed once through its
# harness, built with clang's sanitizers (make fuzz FUZZ_SECONDS=0): a
# regression in any decoder shows here without a fuzzing run. Skipped
# without clang.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
if ! command -v "${CC_FUZZ:-clang}" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang not found (libFuzzer)"
    exit 0
fi
t=0
fail=0
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
(cd "$top_builddir" && make -s fuzz FUZZ_SECONDS=0) >"$out" 2>&1
st=$?
for h in file verify manifest challenge apdu diff; do
    t=$((t + 1))
    n=$(ls "$srcdir/fuzz/corpus/$h" | wc -l)
    if grep -q "^$h .* ok\$" "$out"; then
        echo "ok $t - fuzz_$h: the $n committed inputs replay without a finding"
    else
        echo "not ok $t - fuzz_$h: the $n committed inputs"
        fail=1
    fi
done
[ $st = 0 ] || { fail=1; sed 's/^/#   /' "$out" | tail -n 40; }
echo "1..$t"
exit $fail
