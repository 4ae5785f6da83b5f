#!/bin/sh
# SPDX-License-Identifier: MIT
# The card tables of docs/CARD-IMAGES.md and 8051/README.md against `tts-card
# report` for TTS(20,28): every row the report prints (the signing and key
# generation times of both image families, their sizes, the memory budget)
# is in the documents as printed. The sizes of every image are checked in
# make check (tests/test_docs.sh); this runs the simulations behind the
# times (about half a minute of CPU).
. "${srcdir:-.}/tests/card_lib.sh"

"$TTS_CARD" --params 20-28 report > "$W/report" 2> "$W/err"
say $? "tts-card --params 20-28 report runs"
grep '^| \(TTS(\|tts-\)' "$W/report" > "$W/rows"
[ "$(wc -l < "$W/rows")" -ge 4 ]; say $? "the report has the card tables' and the budget's rows ($(wc -l < "$W/rows"))"
for d in docs/CARD-IMAGES.md 8051/README.md; do
    : > "$W/missing"
    while IFS= read -r r; do
        case $d:$r in "8051/README.md:| tts-"*) continue ;; esac # the budget is in CARD.md
        grep -qxF "$r" "$srcdir/$d" || echo "$r" >> "$W/missing"
    done < "$W/rows"
    [ ! -s "$W/missing" ]; say $? "$d has every row the report prints for TTS(20,28)"
    sed 's/^/#   missing: /' "$W/missing"
done
# the PIN row of docs/CARD.md's protections table: VERIFY's cycles with the
# right PIN and with a wrong one (its last byte), as that section measures
# them (the 8032 image)
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/s" "$W/p" "$W/k" || exit 99
printf '123456' > "$W/pin6" && chmod 600 "$W/pin6" || exit 99
"$TTS_CARD" --pin "$W/pin6" put-key $(withpk "$W/k") apdu "0020000006$(printf 123456 | hex)00" cycles \
    apdu "0020000006$(printf 123457 | hex)00" cycles > "$W/log" 2>&1
v=$(sed -n 's/^cycles: \([0-9]*\) .*/\1/p' "$W/log" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' | tr '\n' ' ')
set -- $v
[ $# = 2 ] && grep -q "| VERIFY $1 with the right PIN, $2 with a wrong one" "$srcdir/docs/CARD.md"
say $? "docs/CARD.md has VERIFY's cycles with the right PIN and a wrong one: $v"
echo "1..$t"
exit $fail
