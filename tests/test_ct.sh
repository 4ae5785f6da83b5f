#!/bin/sh
# Constant-time test: key generation and signing with secrets marked
# undefined must run without a single memcheck report; and the harness must
# catch a deliberate secret-dependent branch (negative control).
set -u
: "${top_builddir:=.}" "${VALGRIND:=valgrind}"
prog="$top_builddir/tests/test_ct"
command -v "$VALGRIND" >/dev/null 2>&1 || { echo "# valgrind not found: skipped"; exit 77; }
vg() { "$VALGRIND" -q --error-exitcode=99 --exit-on-first-error=no "$@"; }

vg "$prog" leak >/dev/null 2>&1
if [ $? -ne 99 ]; then
    echo "not ok 1 - negative control: memcheck missed a secret-dependent branch"
    exit 1
fi
echo "ok 1 - negative control: memcheck reports a secret-dependent branch"

vg --track-origins=yes "$prog"
rc=$?
if [ $rc -ne 0 ]; then
    echo "not ok 2 - memcheck reported secret-dependent behaviour (exit $rc)"
    exit 1
fi
echo "ok 2 - keygen and signing constant time for all eight sets"
