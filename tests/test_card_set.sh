#!/bin/sh
# One set on the card (CARD_SET=M-N, set by the tests/test_card_M_N.sh
# wrappers, one test each so that make -j runs them side by side): the
# on-card key from the KAT seed (entry 0) equals the KAT public key byte for
# byte, and 3 KAT keys x 10 digests sign exactly as the host's
# tts_sign_digest with the card's ChaCha20 stream (TTS(20,28) and
# TTS(16,22): the key only; test_card.sh covers them in depth). Inputs come
# from TTS_TEST_SEED (card_lib.sh prints it).
. "${srcdir:-.}/tests/card_lib.sh"
set=${CARD_SET:?CARD_SET=M-N}
m=${set%-*}
"$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" 0 "$W/seed" "$W/kpk" "$W/ksk" || exit 99
"$TTS_CARD" --params $set $PIN genkey --seed "$W/seed" export-pk -o "$W/pk" > "$W/log" 2>&1
st=$?
cmp -s "$W/pk" "$W/kpk"; say $(( st | $? )) "$set: the card's public key from the KAT seed equals the KAT's"
case $set in 16-22|20-28) echo "1..$t"; exit $fail ;; esac
for k in 0 1 2; do
    "$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" $k "$W/s" "$W/p" "$W/k" || exit 99
    args=""
    for i in 0 1 2 3 4 5 6 7 8 9; do
        args="$args sign --digest $(rnd $m)"
    done
    "$TTS_CARD" --params $set $PIN put-key "$W/k" $args > "$W/log" 2>&1
    st=$?
    sign_checks "$W/log" 10; say $(( st | $? )) "$set: key $k: 10 signatures equal the host's and verify"
done
echo "1..$t"
exit $fail
