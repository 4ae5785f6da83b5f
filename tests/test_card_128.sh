#!/bin/sh
# The 128-byte internal RAM family (8051/tts-M-N-128.ihx) on s51 -t 8051:
# on-card keys and public-key segments equal the KAT's, signatures equal
# the host's tts_sign_digest with the card's ChaCha20 stream, the status
# words, --eeprom, constant signing time. tts-card fills internal RAM
# 0x80..0xFF with 0xA5 before every run on the 8051 and fails if a byte
# changed; ucsim's -t 8051 drops indirect writes up there, so one session of
# every command also runs the 128-byte image on -t 8032 with the same check
# (TTS_CARD_IRAM128), where they would land (for TTS(20,28), and the key
# set-up, export and signing of the other images whose signing runs the
# assembly kernels on an internal arena: TTS(16,22), TTS(20,26), TTS(24,32)).
# In full (every segment, 3 keys x 5 signatures): TTS(16,22), TTS(20,26),
# TTS(20,28), TTS(24,32). Quicker for the four larger sets: GENERATE KEY
# from the KAT seed, the first and the last segment, 1 key x 3 signatures.
. "${srcdir:-.}/tests/card_lib.sh"
[ -f "$CARD_DIR/tts-20-28-128.ihx" ] || { echo "1..0 # SKIP no 128-byte images"; exit 0; }
C51="--cpu 8051"

# -- the check itself: a 12-byte image that writes 0x11 to @R0 = 0x90, then stops
printf ':0C0000007890761190FFFF7473F080FE82\n:00000001FF\n' > "$W/stray.ihx"
echo "iram 40" > "$W/stray.sizes"
TTS_CARD_IRAM128=1 "$TTS_CARD" --cpu 8032 --image "$W/stray.ihx" info > "$W/log" 2>&1
[ $? = 2 ] && grep -q "internal RAM 0x90" "$W/log"
say $? "a write above 0x7F is caught (the 0xA5 fill of 0x80..0xFF)"
# the 8032 images are refused on --cpu 8051
"$TTS_CARD" --cpu 8051 --image "$CARD_DIR/tts-20-28.ihx" info > "$W/log" 2>&1
[ $? = 2 ]; say $? "--cpu 8051 refuses an image that needs more than 128 B"
for set in 16-22 20-26 20-28 24-32 24-34 28-38 32-44 36-50; do
    grep -q '^iram \([0-9]\|[0-9][0-9]\|1[01][0-9]\|12[0-8]\)$' "$CARD_DIR/tts-$set-128.sizes"
    say $? "$set: measured internal RAM <= 128 B ($(sed -n 's/^iram //p' "$CARD_DIR/tts-$set-128.sizes") B)"
done

for set in 16-22 20-26 20-28 24-32 24-34 28-38 32-44 36-50; do
    m=${set%-*} n=${set#*-}
    P="$C51 --params $set $PIN"
    "$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" 0 "$W/seed" "$W/kpk" "$W/ksk" || exit 99
    case $set in
    16-22|20-26|20-28|24-32)
        "$TTS_CARD" $P genkey --seed "$W/seed" export-pk -o "$W/pk-$set" > "$W/log" 2>&1
        st=$?
        cmp -s "$W/pk-$set" "$W/kpk"; say $(( st | $? )) "$set-128: the card's public key from the KAT seed equals the KAT's"
        nk=3 nd=5 ;;
    *)
        g=$(( (n * (n + 3) / 2 + 255 / m - 1) / (255 / m) ))
        last=$((g - 1)) k=$((255 / m * m)) mono=$(( n * (n + 3) / 2 ))
        lastlen=$(( (mono - last * (255 / m)) * m ))
        seg() { dd if="$W/kpk" bs=1 skip=$(( $1 * k )) count=$2 2>/dev/null | hex | tr a-f A-F; }
        "$TTS_CARD" $P genkey --seed "$W/seed" apdu 803000000000 \
            apdu "8030$(printf %04X $last)0000" > "$W/log" 2>&1
        st=$?
        grep -q "^apdu: $(printf %02X $k) $(seg 0 $k) 9000" "$W/log" &&
            grep -q "^apdu: $(printf %02X $lastlen) $(seg $last $lastlen) 9000" "$W/log"
        say $(( st | $? )) "$set-128: on-card key from the KAT seed: first and last segments equal the KAT's"
        nk=1 nd=3 ;;
    esac
    k=0
    while [ $k -lt $nk ]; do
        "$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" $k "$W/s" "$W/p" "$W/k" || exit 99
        args=""
        i=0
        while [ $i -lt $nd ]; do
            args="$args sign --digest $(rnd $m)"
            i=$((i + 1))
        done
        "$TTS_CARD" $P put-key "$W/k" $args > "$W/log" 2>&1
        st=$?
        sign_checks "$W/log" $nd; say $(( st | $? )) "$set-128: key $k: $nd signatures equal the host's and verify"
        k=$((k + 1))
    done
done

set=20-28 P="$C51 --params 20-28 $PIN"
sk=$W/k2028
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/s" "$W/p" "$sk" || exit 99
D=$(rnd 20)
# -- every command on -t 8032 with the fill check above 0x7F (and, after a
# refused COMMIT, the segment that derives the public-key cache again)
"$HELPER" corrupt 20,28 "$sk" "$W/bad" s1 || exit 99
TTS_CARD_IRAM128=1 "$TTS_CARD" --cpu 8032 $PIN --image "$CARD_DIR/tts-20-28-128.ihx" info cycles \
    genkey --seed "$W/s" export-pk -o "$W/pk8032" put-key "$sk" sign --digest "$D" counter \
    cycles apdu 809900000000 put-key "$W/bad" apdu 803000000000 > "$W/log" 2>&1
[ $? = 1 ] && sign_checks "$W/log" 1 && cmp -s "$W/pk8032" "$W/p" && ! grep -q "above the 8051" "$W/log" &&
    grep -q "^apdu: F0 $(dd if="$W/p" bs=1 count=240 2>/dev/null | hex | tr a-f A-F) 9000" "$W/log"
say $? "every command of the 128-byte image on -t 8032 leaves internal RAM 0x80..0xFF untouched"
# the other images with the assembly signing kernels (n <= 32): the same
# check for key generation, a segment, a refused COMMIT, the derived
# segment (both segments 0 the KAT's: 240 bytes for m = 16, 20, 24) and a
# signature
for s2 in 16-22 20-26 24-32; do
    m2=${s2%-*}
    "$HELPER" kat "$KAT/PQCsignKAT_tts-$s2.rsp" 0 "$W/s2" "$W/p2" "$W/k2" || exit 99
    "$HELPER" corrupt "${s2%-*},${s2#*-}" "$W/k2" "$W/bad2" s1 || exit 99
    TTS_CARD_IRAM128=1 "$TTS_CARD" --cpu 8032 $PIN --params $s2 --image "$CARD_DIR/tts-$s2-128.ihx" genkey --seed "$W/s2" \
        apdu 803000000000 put-key "$W/k2" put-key "$W/bad2" apdu 803000000000 \
        sign --digest "$(rnd $m2)" > "$W/log" 2>&1
    [ $? = 1 ] && sign_checks "$W/log" 1 && ! grep -q "above the 8051" "$W/log" &&
        [ "$(grep -c "^apdu: F0 $(dd if="$W/p2" bs=1 count=240 2>/dev/null | hex | tr a-f A-F) 9000" "$W/log")" = 2 ]
    say $? "$s2-128: key set-up, export and signing on -t 8032 leave internal RAM 0x80..0xFF untouched"
done
# -- every status word, and the key still signs after each error
status_checks "20-28-128: "
# -- the same signatures as the 8032 image
args=""
for i in 1 2 3; do args="$args sign --digest $(rnd 20)"; done
"$TTS_CARD" --params 20-28 $PIN put-key "$sk" $args > "$W/a.log" 2>&1
"$TTS_CARD" $P put-key "$sk" $args > "$W/b.log" 2>&1
sign_checks "$W/a.log" 3 && sign_checks "$W/b.log" 3 &&
    [ "$(grep '^sig:' "$W/a.log")" = "$(grep '^sig:' "$W/b.log")" ]
say $? "20-28: the 8032 image and the 128-byte image give the same signatures"
# -- --eeprom: a key generated in one invocation signs in the next
rm -f "$W/ee"
"$TTS_CARD" $P --eeprom "$W/ee" genkey --seed "$W/s" > "$W/log" 2>&1; say $? "20-28-128: --eeprom: genkey"
"$TTS_CARD" $P --eeprom "$W/ee" sign --digest "$D" > "$W/log" 2>&1
st=$?; sign_checks "$W/log" 1; say $(( st | $? )) "20-28-128: --eeprom: the next invocation signs with that key"

# -- constant time: 5 random keys, 2 digests each (counters 0 and 1), one
# attempt each: the same cycles
cyc=$(ct_cycles "$P" 5)
[ "$(echo $cyc | wc -w)" -eq 10 ] && [ "$(echo $cyc | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ]
say $? "20-28-128: signing takes the same cycles for 5 keys x 2 digests and counters (one attempt): $(echo $cyc | cut -d' ' -f1)"
echo "1..$t"
exit $fail
