#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-avr's files and answers on the simulated UNO (TTS(20,28)): a key
# from `tts keygen` programmed, a message's digest signed and accepted by
# `tts verify`, the counter kept in the state file, the device's VERIFY
# refusing another message, a bad digest and a device without a key
# refused with their exit statuses, an existing output kept without
# --force, parallel sessions taking turns on the state file; TTS(36,50)
# signed on the simulated ATmega2560 and accepted by `tts verify`, and
# tts-avr report's eight sets; and tts-bench micro's table, JSON and CSV.
# Skips without libsimavr or the images.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TTS=${TTS:-$top_builddir/tts}
AVR=${TTS_AVR:-$top_builddir/tts-avr}
IMG=${AVR_IMAGE_DIR:-$top_builddir/avr}
BENCH=${TTS_BENCH:-$top_builddir/tts-bench}
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS AVR IMG BENCH srcdir
tap_enter

if [ ! -f "$IMG/tts-20-28.elf" ] || ! "$AVR" --image-dir "$IMG" info >/dev/null 2>err; then
    echo "1..0 # SKIP no AVR simulator or images ($(head -n 1 err))"
    exit 0
fi
A="$AVR --image-dir $IMG --eeprom dev"

"$TTS" keygen --params "TTS(20,28)" -o k >/dev/null 2>err
check $? "tts keygen TTS(20,28)"
printf 'a message for the UNO' >msg
run 0 "program the key into flash" $A program k.sec
[ "$(stat -c %a dev)" = 600 ]
check $? "the state file (it holds the key) is private"
run 0 "sign the message's digest" $A --report sign --message msg -o s.sig
grep -q '^report: SIGN [0-9]* cycles' err
check $? "--report gives SIGN's cycles"
run 0 "tts verify accepts the device's signature" "$TTS" verify -p k.pub -s s.sig msg
run 0 "the counter advanced (kept in the state file)" $A counter
[ "$(cat out)" = 1 ]
check $? "... to 1"
run 0 "the device's VERIFY accepts it" $A verify s.sig --message msg
printf 'another message' >msg2
run 1 "the device's VERIFY refuses it for another message" $A verify s.sig --message msg2
grep -q refused out
check $? "... and says so"
run 2 "a digest of the wrong length: exit 2" $A sign --digest 0011
run 2 "an existing output without --force: exit 2" $A sign --message msg -o s.sig
run 0 "... replaced with --force" $A --force sign --message msg -o s.sig
run 0 "the new signature verifies" "$TTS" verify -p k.pub -s s.sig msg
run 1 "a device with no key refuses SIGN: exit 1" "$AVR" --image-dir "$IMG" sign --message msg
run 2 "an unknown subcommand: exit 2" $A frob
head -c 4096 "$TTS" >notavr.elf
run 2 "an image that is no AVR ELF: exit 2" "$AVR" --image notavr.elf info
grep -q 'not an AVR ELF image' err
check $? "... and says so"

# TTS(36,50) on the ATmega2560 (its public key does not fit the ATmega328P)
"$TTS" keygen --params "TTS(36,50)" -o big >/dev/null 2>err
check $? "tts keygen TTS(36,50)"
B="$AVR --image-dir $IMG --eeprom bigdev --params TTS(36,50)"
run 0 "TTS(36,50): program the key into the ATmega2560's flash" $B program big.sec
run 0 "TTS(36,50): sign the message's digest" $B sign --message msg -o big.sig
run 0 "TTS(36,50): tts verify accepts the device's signature" "$TTS" verify -p big.pub -s big.sig msg
run 0 "TTS(36,50): the device's VERIFY accepts it" $B verify big.sig --message msg
"$AVR" --image-dir "$IMG" report >rep8 2>/dev/null
[ "$(grep -c '^| TTS(' rep8)" = 8 ]
check $? "tts-avr report gives the eight sets"

# the state file is held by one session at a time: parallel SIGNs all count
before=$($A counter)
for i in 1 2 3 4; do $A sign --message msg >/dev/null 2>par.$i & done
wait
run 0 "four SIGNs in parallel on one state file" $A counter
[ "$(cat out)" = $((before + 4)) ]
check $? "... the counter went from $before to $((before + 4)) (one session at a time)"

# tts-bench micro: TTS's measured rows beside the study's and the cited ones
if [ -x "$BENCH" ] && command -v python3 >/dev/null 2>&1; then
    run 0 "tts-bench micro" "$BENCH" micro --image-dir "$IMG" --json m.json --csv m.csv
    grep -q '^| TTS(20,28) (broken) | ATmega328P 16 MHz (simavr) | [0-9]* | [0-9]* | [0-9.]* | [0-9.]* |$' out &&
        grep -q '^| RSA-1024 | ATmega328P 16 MHz | ~2048 | 1340 | 8504.00 | 727955.00 |$' out &&
        grep -q '^| ECC-163 | ATmega328P 16 MHz | ~7168 | 934 | 42011.00 | 20686.00 |$' out
    check $? "... prints TTS(20,28) measured and the study's RSA-1024 and ECC-163 rows"
    # Ed25519 (Hutter and Schwabe, AFRICACRYPT 2013: 23,216,241 and 32,634,713 cycles, at
    # 16 MHz 1451.02 and 2039.67 ms) among the signatures, before the key-exchange table
    sed -n '/^Signatures:/,/^Key exchange/p' out >sigs
    grep -q '^| Ed25519 | 8-bit AVR ATmega (cycles) | - | - | 2039.67 | 1451.02 |$' sigs &&
        grep -q '^| TTS(20,28) (broken) |' sigs && ! grep -q '^| RSA-1024 |' sigs &&
        sed -n '/^Key exchange/,$p' out | grep -q '^| RSA-1024 |'
    check $? "... Ed25519 among the signatures beside TTS, the study's rows apart (key exchange)"
    python3 - m.json >out 2>err <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["scheme"]: r for r in d["rows"]}
t = rows["TTS(20,28)"]
assert d["mode"] == "micro" and t["measured"] and t["sign_cycles"] > 0
assert abs(t["sign_ms"] - t["sign_cycles"] / 16000.0) < 0.001
assert not rows["X25519"]["measured"] and rows["X25519"]["source"]
assert rows["Ed25519"]["kind"] == "signature" and rows["RSA-1024"]["kind"] == "key exchange"
assert rows["Ed25519"]["sign_cycles"] == 23216241 and rows["Ed25519"]["verify_cycles"] == 32634713
PY
    check $? "... its JSON: the measured row's ms are its cycles at 16 MHz, the cited rows have sources"
    grep -q '^TTS(20,28),1,' m.csv
    check $? "... its CSV has the measured row"
else
    skip "tts-bench micro" "no tts-bench (OpenSSL) or no python3"
fi
# docs/AVR.md's TTS(20,28) figures are those tts-avr report gives now
"$AVR" --image-dir "$IMG" report >rep 2>/dev/null
row=$(grep '^| TTS(20,28) |' rep)
c() { echo "$row" | awk -F'|' -v k="$1" '{gsub(/ /, "", $k); print $k}' | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
doc=$srcdir/docs/AVR.md
[ -n "$row" ] && grep -q "$(c 4) ms ($(c 3) cycles)" "$doc" && grep -q "$(c 6) ms ($(c 5) cycles)" "$doc" &&
    grep -q "SIGN $(c 10) B, VERIFY $(c 11) B" "$doc" && grep -q "$(c 3) cycles, $(c 4) ms at 16 MHz" "$srcdir/README.md"
check $? "docs/AVR.md's (and README's) TTS(20,28) SIGN and VERIFY cycles and peaks are tts-avr report's ($(c 3), $(c 5))"
tap_end
