#!/bin/sh
# SPDX-License-Identifier: MIT
# Constant-time test: key generation and signing with secrets marked
# undefined must run without a single memcheck report, on every backend
# valgrind can run (ref, swar, avx2); and the harness must catch a
# deliberate secret-dependent branch (negative control).
#
# gfni is not run here: valgrind 3.19 does not implement GFNI or AVX-512
# (it stops on vgf2p8mulb and hides those CPUID bits from its guest, so the
# library does not even select gfni under it). The gfni kernels are
# branch-free and free of secret-indexed memory by construction (reviewed in
# docs/PERFORMANCE.md) and differential-tested against ref natively in
# tests/test_backends.
#
# make check runs the ref backend (the slowest under memcheck) on three
# sets, the smallest, TTS(20,28) and the largest; make check-full
# (TTS_CHECK_FULL) and the other backends run all eight.
set -u
: "${top_builddir:=.}" "${VALGRIND:=valgrind}"
prog="$top_builddir/tests/test_ct"
command -v "$VALGRIND" >/dev/null 2>&1 || { echo "1..0 # SKIP valgrind not found"; exit 0; }
# Valgrind cannot run AddressSanitizer binaries (both own the shadow memory).
[ "${SANITIZED:-no}" = yes ] && { echo "1..0 # SKIP sanitized build (--enable-sanitizers)"; exit 0; }
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
vg() { "$VALGRIND" -q --error-exitcode=99 --exit-on-first-error=no "$@"; }
t=0
fail=0
say() { t=$((t + 1)); if [ "$1" = 0 ]; then echo "ok $t - $2"; else echo "not ok $t - $2"; fail=1; fi; }

vg "$prog" leak >/dev/null 2>&1
[ $? -eq 99 ]; say $? "negative control: memcheck reports a secret-dependent branch"

# every backend built, but gfni: valgrind cannot run its instructions
for be in $("$prog" backends); do
    [ "$be" = gfni ] && continue
    used=$(TTS_BACKEND=$be vg "$prog" backend 2>/dev/null)
    if [ "$used" != "$be" ]; then
        echo "# backend $be: not built or not supported by this CPU: skipped"
        continue
    fi
    sets="" what="all eight sets"
    if [ "$be" = ref ] && [ -z "${TTS_CHECK_FULL:-}" ]; then
        sets="TTS(16,22) TTS(20,28) TTS(36,50)" what="TTS(16,22), TTS(20,28), TTS(36,50)"
    fi
    # the program's own lines become TAP comments
    # shellcheck disable=SC2086
    TTS_BACKEND=$be vg --track-origins=yes "$prog" $sets >"$out" 2>&1
    st=$?
    sed 's/^/#   /' "$out"
    # as many sets checked as asked for
    [ $st = 0 ] && [ "$(grep -c '^ok - ' "$out")" = "$(if [ -n "$sets" ]; then echo 3; else echo 8; fi)" ]
    say $? "$be: keygen and signing constant time for $what under memcheck"
done
echo "# backend gfni: skipped: valgrind $("$VALGRIND" --version 2>/dev/null | sed 's/valgrind-//') cannot run GFNI/AVX-512 code (see docs/PERFORMANCE.md, constant time)"
echo "1..$t"
exit $fail
