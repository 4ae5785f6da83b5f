#!/bin/sh
# Every symbol the shared library exports carries the tts_ prefix.
set -u
: "${top_builddir:=.}"
lib="$top_builddir/.libs/libtts.so"
[ -f "$lib" ] || { echo "# no shared library built: skipped"; exit 77; }
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[A-Z]/ && $3 !~ /^tts_/ {print $3}')
if [ -n "$bad" ]; then
    echo "not ok 1 - symbols outside the tts_ namespace:"; echo "$bad"; exit 1
fi
count=$(nm -D --defined-only "$lib" | awk '$2 ~ /[A-Z]/' | wc -l)
[ "$count" -gt 30 ] || { echo "not ok 1 - only $count exported symbols"; exit 1; }
echo "ok 1 - all $count exported symbols start with tts_"
# The library never calls (nor defines) NIST's global randombytes, which
# libsodium also exports: randomness comes from callbacks or randombytes_buf.
if nm -D "$lib" | awk '$NF == "randombytes"' | grep -q .; then
    echo "not ok 2 - libtts references the global randombytes"; exit 1
fi
echo "ok 2 - libtts neither defines nor calls a global randombytes"
