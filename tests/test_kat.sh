#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerate the full 100-entry KAT files in the build tree with the
# automatically chosen (best) backend, check their SHA-256 against
# kat/SHA256SUMS (computed by an independent implementation of the spec),
# check the committed 10-entry files against kat/SHA256SUMS.10, and check
# that each committed file is a byte-exact prefix of the full one. Then, for
# every backend built (tts-genkat -l), regenerate the first 10 entries of
# every set with TTS_BACKEND set and compare them byte for byte with the
# committed files; a backend not built or not supported by this CPU is
# skipped, and said so.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
out="$top_builddir/tests/kat-out"
gen="$top_builddir/tts-genkat"
rm -rf "$out" && mkdir -p "$out" || exit 99
fail=0
t=0
say() { t=$((t + 1)); if [ "$1" = 0 ]; then echo "ok $t - $2"; else echo "not ok $t - $2"; fail=1; fi; }

best=$(env -u TTS_BACKEND "$gen" -p)
env -u TTS_BACKEND "$gen" -d "$out"; say $? "tts-genkat ($best backend) wrote the eight full files"
kat_src=$(cd "$srcdir/kat" && pwd) || exit 99
(cd "$out" && sha256sum -c --strict "$kat_src/SHA256SUMS")
say $? "full 100-entry files ($best) match kat/SHA256SUMS"
(cd "$kat_src" && sha256sum -c --strict SHA256SUMS.10)
say $? "committed 10-entry files match kat/SHA256SUMS.10"
for f in "$srcdir"/kat/PQCsignKAT_tts-*.rsp; do
    b=$(basename "$f")
    len=$(wc -c < "$f")
    head -c "$len" "$out/$b" | cmp -s - "$f"
    say $? "$b: committed entries 0..9 equal the regenerated ones byte for byte"
    n=$(grep -c '^count = ' "$f")
    [ "$n" -eq 10 ]; say $? "$b: committed file holds 10 entries"
done

skipped=""
for be in $("$gen" -l); do
    used=$(TTS_BACKEND=$be "$gen" -p)
    if [ "$used" != "$be" ]; then
        echo "# backend $be: not built or not supported by this CPU: skipped"
        skipped="$skipped $be"
        continue
    fi
    d="$out/$be"
    mkdir -p "$d" || exit 99
    TTS_BACKEND=$be "$gen" -n 10 -d "$d"
    say $? "$be: tts-genkat wrote the first 10 entries of the eight sets"
    bad=0
    for f in "$srcdir"/kat/PQCsignKAT_tts-*.rsp; do
        cmp -s "$f" "$d/$(basename "$f")" || { echo "# $be: $(basename "$f") differs"; bad=1; }
    done
    say $bad "$be: entries 0..9 of all eight sets equal the committed files byte for byte"
done
[ -n "$skipped" ] && echo "# skipped backends:$skipped"
echo "1..$t"
exit $fail
