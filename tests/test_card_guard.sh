#!/bin/sh
# SPDX-License-Identifier: MIT
# The card's signing randomness (docs/SPEC.md section 7.4): libtts's
# tts_card_stream_key against this test's own reading of the specification
# (card_helper keycheck, on libsodium's ChaCha20), and the control of the
# hostile-terminal check of tests/card_guard.sh: a terminal that chose the
# stream key (as SIGN once let it) gets signatures of 41 digests whose
# differences span fewer than n dimensions. (The card's side, the PIN and
# the tear test, per image family: tests/card_guard.sh, run by
# tests/card-20-28.card and tests/card-20-28-128.card.)
. "${srcdir:-.}/tests/card_lib.sh"
# -- the derivation, against an independent reading of the specification
"$HELPER" keycheck "$(rnd 32)" 4 > "$W/log" 2>&1
say $? "tts_card_stream_key equals the specification's derivation: $(cat "$W/log")"

"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/sA" "$W/pA" "$W/kA" || exit 99

# -- the control: a terminal that chose the stream key got signatures of
# 40 digests whose differences span fewer than n dimensions
: > "$W/fixed"
for i in $(seq 0 40); do
    "$HELPER" signwith 20,28 "$W/kA" "$(rnd 20)" "$(printf '%064d' 1)" |
        cut -d' ' -f1 >> "$W/fixed"
done
rc=$("$HELPER" rank 28 "$W/fixed")
[ "$rc" -lt 28 ]; say $? "control: one stream key for 41 digests: differences of rank $rc < 28"
echo "1..$t"
exit $fail
