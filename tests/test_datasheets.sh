#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/sets/tts-M-N.yml, the datasheet of each set, is what
# tools/gen_datasheets.py makes from the tree now (the parameter table, the
# estimator, kat/SHA256SUMS, docs/SECURITY.md's measured break): it cannot
# drift. Beside that comparison, facts checked another way: the file sizes
# of a key made by tts keygen, the KAT hash of the regenerated file list,
# the Support Minors degrees that docs/SECURITY.md quotes.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TTS=${TTS:-$top_builddir/tts}
TC=$top_builddir/tts-challenge
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS TC srcdir top_builddir
tap_real TTS TC
tap_enter
if ! command -v python3 >/dev/null 2>&1; then
    skip "datasheets" "python3 not found"
    tap_end
fi
python3 "$srcdir/tools/gen_datasheets.py" "$TTS" "$TC" "$srcdir" sheets 2>err
check $? "tools/gen_datasheets.py runs"
for f in sheets/*.yml; do
    cmp -s "$f" "$srcdir/docs/sets/${f#sheets/}" || bad="${bad:-} ${f#sheets/}"
done
[ "$(ls sheets | wc -l)" = 8 ] && [ "$(ls "$srcdir"/docs/sets/*.yml | wc -l)" = 8 ] && [ -z "${bad:-}" ]
check $? "docs/sets holds the eight datasheets as the tree makes them now${bad:+ (differ:$bad)}"
"$TTS" keygen --params "TTS(24,34)" -o k >/dev/null 2>&1 &&
    grep -q "^file_bytes: {public_key: $(wc -c <k.pub), secret_key: $(wc -c <k.sec), signature: 42}$" \
        "$srcdir/docs/sets/tts-24-34.yml"
check $? "TTS(24,34): the sheet's file sizes are those of a key tts keygen writes"
h=$(sed -n 's/  PQCsignKAT_tts-36-50.rsp$//p' "$srcdir/kat/SHA256SUMS")
[ -n "$h" ] && grep -q "^  sha256: $h$" "$srcdir/docs/sets/tts-36-50.yml"
check $? "TTS(36,50): the sheet's KAT hash is kat/SHA256SUMS's"
d=$(for f in 16-22 20-26 20-28 24-32 24-34 28-38 32-44 36-50; do
    sed -n 's/.*degree: \([0-9]*\),.*/\1/p' "$srcdir/docs/sets/tts-$f.yml"; done | tr '\n' ' ')
[ "$d" = "2 2 3 3 4 4 4 5 " ] && grep -q ': 2, 2, 3, 3, 4, 4, 4, 5 for the eight sets' "$srcdir/docs/SECURITY.md"
check $? "the Support Minors degrees are those docs/SECURITY.md quotes (got $d)"
! grep -L '^status: broken$' "$srcdir"/docs/sets/*.yml | grep -q .
check $? "every sheet says status: broken"
tap_end
