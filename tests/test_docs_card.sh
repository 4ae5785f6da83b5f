#!/bin/sh
# SPDX-License-Identifier: MIT
# The card tables of docs/CARD.md and 8051/README.md against `tts-card
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
for d in docs/CARD.md 8051/README.md; do
    : > "$W/missing"
    while IFS= read -r r; do
        case $d:$r in "8051/README.md:| tts-"*) continue ;; esac # the budget is in CARD.md
        grep -qxF "$r" "$srcdir/$d" || echo "$r" >> "$W/missing"
    done < "$W/rows"
    [ ! -s "$W/missing" ]; say $? "$d has every row the report prints for TTS(20,28)"
    sed 's/^/#   missing: /' "$W/missing"
done
echo "1..$t"
exit $fail
