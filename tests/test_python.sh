#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python binding (python/libtts, ctypes over the built shared library):
# its unit tests against the C tools and the KATs (python/tests), then the
# package installed by pip into a fresh virtual environment, offline, with
# the system's setuptools (pip install ./python), and imported from there.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TTS=${TTS:-$top_builddir/tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS srcdir top_builddir
lib=$top_builddir/.libs/libtts.so
tap_enter
if ! command -v python3 >/dev/null 2>&1 || [ ! -f "$lib" ]; then
    skip "the Python binding" "python3 or the shared library not found"
    tap_end
fi
if [ "${SANITIZED:-no}" = yes ]; then
    skip "the Python binding" "a sanitized libtts cannot be loaded into python3"
    tap_end
fi
export LIBTTS_LIBRARY="$lib" TTS KAT="$srcdir/kat" SRCDIR="$srcdir"
PYTHONPATH="$srcdir/python" python3 -m unittest discover -s "$srcdir/python/tests" >out 2>err
check $? "python/tests: the binding against tts, the KATs, hashlib and tts.h; its errors, hints and docstrings"
diag err | tail -n 3
# (the distribution's python3, whose setuptools and wheel the install uses)
syspy=/usr/bin/python3
[ -x "$syspy" ] || syspy=python3
if "$syspy" -m venv --system-site-packages venv >/dev/null 2>&1 && [ -x venv/bin/pip ]; then
    cp -R "$srcdir/python" pkg && chmod -R u+w pkg
    venv/bin/pip install --no-index --no-build-isolation ./pkg >pip.out 2>&1
    check $? "pip install ./python into a virtual environment, offline"
    diag pip.out | tail -n 3
    (cd / && "$dir/venv/bin/python" -c 'import libtts, sys
p = libtts.params("TTS(20,28)")
pk, sk = libtts.keypair(p)
sig = libtts.sign(p, sk, b"m")
sys.exit(0 if libtts.verify(p, pk, b"m", sig) and libtts.__file__.startswith(sys.prefix) else 1)') \
        >out 2>err
    check $? "python -c 'import libtts' from the installed package: a key, a signature, verified"
else
    skip "pip install ./python" "python3 -m venv with pip not available (python3-venv)"
    skip "import libtts from the installed package" "python3 -m venv with pip not available"
fi
tap_end
