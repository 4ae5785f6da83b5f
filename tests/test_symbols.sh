#!/bin/sh
# SPDX-License-Identifier: MIT
# Every symbol the shared library exports carries the tts_ prefix.
set -u
: "${top_builddir:=.}"
lib="$top_builddir/.libs/libtts.so"
[ -f "$lib" ] || { echo "1..0 # SKIP no shared library built"; exit 0; }
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[A-Z]/ && $3 !~ /^tts_/ {print $3}')
if [ -n "$bad" ]; then
    echo "not ok 1 - symbols outside the tts_ namespace:"; echo "$bad"; exit 1
fi
count=$(nm -D --defined-only "$lib" | awk '$2 ~ /[A-Z]/' | wc -l)
[ "$count" -gt 30 ] || { echo "not ok 1 - only $count exported symbols"; exit 1; }
echo "ok 1 - all $count exported symbols start with tts_"
# The exported list is frozen: what the library exports is exactly
# tests/abi.txt (a change to the ABI changes that file, visibly, and the
# libtool version with it). The build hides everything else.
nm -D --defined-only "$lib" | awk '$2 ~ /[A-Z]/ {print $3}' | LC_ALL=C sort > abi.now
if ! LC_ALL=C sort "${srcdir:-.}/tests/abi.txt" | cmp -s - abi.now; then
    echo "not ok 2 - the exported symbols differ from tests/abi.txt:"
    LC_ALL=C sort "${srcdir:-.}/tests/abi.txt" | diff - abi.now | sed 's/^/#   /'
    rm -f abi.now; exit 1
fi
rm -f abi.now
echo "ok 2 - the $count exported symbols are exactly tests/abi.txt"
# Every function tts.h declares is exported (the header is the API).
missing=""
for f in $(sed -n 's/^TTS_API \(TTS_WUR \)\{0,1\}[^(]*[ *]\(tts_[a-z0-9_]*\)(.*/\2/p' "${srcdir:-.}/include/tts.h"); do
    grep -qx "$f" "${srcdir:-.}/tests/abi.txt" || missing="$missing $f"
done
if [ -n "$missing" ]; then echo "not ok 3 - declared but not exported:$missing"; exit 1; fi
echo "ok 3 - every TTS_API function of tts.h is exported"
# One version: the header, configure and the library agree.
v=$(sed -n 's/^#define TTS_VERSION_STRING "\(.*\)"$/\1/p' "${srcdir:-.}/include/tts.h")
pv=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
got=$("${TTS:-$top_builddir/tts}" version | sed -n 's/^tts (libtts) \([^,]*\),.*/\1/p')
if [ "$v" != "$pv" ] || [ "$v" != "$got" ]; then
    echo "not ok 4 - versions differ: tts.h $v, configure $pv, tts_version() $got"; exit 1
fi
echo "ok 4 - version $v in tts.h, configure and tts_version()"
# The library never calls (nor defines) NIST's global randombytes, which
# libsodium also exports: randomness comes from callbacks or randombytes_buf.
if nm -D "$lib" | awk '$NF == "randombytes"' | grep -q .; then
    echo "not ok 5 - libtts references the global randombytes"; exit 1
fi
echo "ok 5 - libtts neither defines nor calls a global randombytes"
echo "1..5"
