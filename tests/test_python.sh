#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python binding (python/libtts, ctypes over the built shared library):
# its unit tests against the C tools, the KATs, hashlib and the C header
# (python/tests), then the README's own install commands run as written in a
# fresh folder, with the network out of reach (proxies pointing at a closed
# port), the package they install checked (version, py.typed, LICENSE), and
# the README's example run with it.
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

# The README's Python section: its first sh block (the install) and its
# python block (the example), taken as written.
sed -n '/^From Python, `python\/`/,/^The NIST API/p' "$srcdir/README.md" >section
awk '/^```sh$/ {on = 1; next} /^```$/ {if (on) exit} on' section >install.sh
awk '/^```python$/ {on = 1; next} /^```$/ {if (on) exit} on' section >example.py
: >err
grep -q 'pip install' install.sh && grep -q 'import libtts' example.py
check $? "README: the Python section has its install commands and its example"
# (on Debian 12, python3 is the distribution's, whose setuptools and wheel
# the install uses; elsewhere the first python3 on the path)
mkdir bin && [ -x /usr/bin/python3 ] && ln -s /usr/bin/python3 bin/python3
mkdir readme && cp -R "$srcdir/python" readme/python && chmod -R u+w readme/python
(cd readme && PATH="$dir/bin:$PATH" PIP_CONFIG_FILE=/dev/null PIP_RETRIES=0 PIP_TIMEOUT=2 \
    http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
    HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 no_proxy= NO_PROXY= \
    sh -e ../install.sh) >pip.out 2>&1
rc=$?
cp pip.out err
if [ $rc != 0 ] && [ ! -x readme/venv/bin/pip ]; then
    skip "README's pip install" "python3 -m venv with pip not available (python3-venv)"
    skip "the installed package" "python3 -m venv with pip not available"
    skip "README's Python example" "python3 -m venv with pip not available"
    diag pip.out | tail -n 3
    tap_end
fi
[ $rc = 0 ] && grep -q -- '--no-index' install.sh
check $? "README's install commands, as written, with no network (pip --no-index)"
(cd / && "$dir/readme/venv/bin/python" "$srcdir/python/tests/installed.py" "$srcdir/LICENSE") >out 2>err
check $? "the installed package: imported from the environment, version the library's, py.typed, LICENSE"
diag out err
# the example's public key file: TTSP, version 1, TTS(20,28) (docs/SPEC.md section 11)
(cd readme && venv/bin/python ../example.py) >out 2>err &&
    [ "$(od -An -tx1 -N8 readme/alice.pub | tr -s ' ' | sed 's/^ //')" = "54 54 53 50 01 14 1c 00" ]
check $? "README's Python example runs with the installed package and writes a TTS(20,28) public key"
tap_end
