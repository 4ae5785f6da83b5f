#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-avr's files and answers on the simulated UNO (TTS(20,28)): a key
# from `tts keygen` programmed with its PIN, a message's digest signed and
# accepted by `tts verify`, the counter kept in the state file, the
# device's VERIFY refusing another message, a bad digest and a device
# without a key refused with their exit statuses (VERIFY of the all-zero
# signature included), --armor with --raw and tts-card's own --cpu
# refused, an existing output kept without --force, -o - and
# a terminal, parallel sessions taking turns on the state file; the PIN
# (SIGN refused without it, a wrong one spending a try, three blocking
# the device); program --pk (a key whose public key differs refused with
# nothing programmed, raw and hex keys only with --pk); a damaged state
# file refused; tts-avr(1)'s EXAMPLES run as written; TTS(36,50) signed on
# the simulated ATmega2560 and accepted by `tts verify`, and tts-avr
# report's eight sets; and tts-bench micro's table, JSON and CSV. Skips
# without libsimavr or the images.
set -u
. "${srcdir:-.}/tests/avr_lib.sh"
A="$AVR --image-dir $IMG --eeprom dev"

"$TTS" keygen --params "TTS(20,28)" -o k >/dev/null 2>err
check $? "tts keygen TTS(20,28)"
printf 'a message for the UNO' >msg
printf '1234\n' >pin && printf '9999' >bad && chmod 600 pin bad
A="$AVR --image-dir $IMG --eeprom dev"
P="$A --pin pin"
run 2 "program without --pin: exit 2" $A program k.sec
grep -q 'needs --pin' err && [ ! -e dev ]
check $? "... says so, and makes no state file"
run 0 "program the key and its PIN into flash" $P program k.sec
[ "$(stat -c %a dev)" = 600 ]
check $? "the state file (it holds the key) is private"
run 2 "sign without --pin: exit 2 (the device signs only after VERIFY PIN)" $A sign --message msg
run 0 "sign the message's digest (VERIFY PIN first)" $P --report sign --message msg -o s.sig
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
run 2 "a digest of the wrong length: exit 2" $P sign --digest 0011
run 2 "an existing output without --force: exit 2" $P sign --message msg -o s.sig
run 0 "... replaced with --force" $P --force sign --message msg -o s.sig
run 0 "the new signature verifies" "$TTS" verify -p k.pub -s s.sig msg
run 0 "sign -o - to a pipe: the binary tts file" $P sign --message msg -o -
cp out s2.sig && "$TTS" verify -p k.pub -s s2.sig msg >/dev/null 2>&1
check $? "... which tts verify accepts"
script -qec "$P sign --message msg -o -" /dev/null >tty.out 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'refusing to write binary data to a terminal' tty.out
check $? "sign -o - on a terminal: refused, exit 2 (exit $rc)"
"$AVR" --help | grep -q -- '-o FILE|-'
check $? "--help lists -o -"
# the options shared with tts-card (one table, tools/devcli.h), not its own
run 2 "--armor with --raw: exit 2" $P --armor --raw counter
grep -q 'exclude each other' err
check $? "... they exclude each other"
run 2 "tts-card's own --cpu is no option of tts-avr: exit 2" $A --cpu 8051 counter
grep -q -- '--cpu' err
check $? "... and the message names it"

# the PIN: a wrong one spends a try, the right one gives it back; three
# wrong ones block the device, the right one then too
before=$($A counter)
run 1 "a wrong PIN: exit 1" $A --pin bad sign --message msg
grep -q 'wrong PIN (2 tries left)' err && [ "$($A counter)" = "$before" ]
check $? "... 2 tries left, no signature made"
run 0 "verify-pin with the right PIN" $P verify-pin
run 1 "a wrong PIN again" $A --pin bad verify-pin
grep -q 'wrong PIN (2 tries left)' err
check $? "... 2 tries left again: the right PIN gave the try back"
cp dev blocked
B="$AVR --image-dir $IMG --eeprom blocked"
$B --pin bad verify-pin 2>/dev/null; $B --pin bad verify-pin 2>/dev/null
run 1 "the right PIN after three wrong ones: exit 1" $B --pin pin sign --message msg
grep -q 'blocked' err
check $? "... the PIN is blocked"

# program --pk: the key must be the one the public key names
"$TTS" convert --raw -o k.raw k.sec >/dev/null 2>&1 && chmod 600 k.raw
check $? "tts convert: the raw secret key"
python3 -c 'import sys; b = bytearray(open("k.raw", "rb").read()); b[1] ^= 0x01
open("k1.raw", "wb").write(b)' && chmod 600 k1.raw
cp dev dev.before
run 2 "a raw key with one S1 entry changed, --pk the intended key: exit 2" \
    $P program k1.raw --pk k.pub
grep -q "public key differs from --pk's" err && grep -q 'nothing sent' err && cmp -s dev dev.before
check $? "... said, and nothing programmed (the state file unchanged)"
run 2 "a raw key without --pk: exit 2" $P program k.raw
grep -q 'bound to no public key' err && grep -q -- '--pk FILE' err && cmp -s dev dev.before
check $? "... said, nothing programmed"
# the PIN as tts-card reads it: a PIN with a NUL byte is refused at
# program, and --pin - takes it from standard input
{ printf 12; printf '\0'; printf 3456; } >nulpin && chmod 600 nulpin
$A --pin nulpin program k.sec >out 2>err
[ $? = 2 ] && grep -q 'NUL byte' err && cmp -s dev dev.before
check $? "program with a PIN holding a NUL byte: exit 2, said, nothing programmed"
printf '1234\n' | $A --pin - sign --message msg -o s4.sig >out 2>err &&
    "$TTS" verify -p k.pub -s s4.sig msg >/dev/null 2>&1
check $? "--pin -: the PIN read from standard input; the signature verifies"
xxd -p k.raw >k.hex && chmod 600 k.hex
run 0 "the hex key with --pk its public key" $P program k.hex --pk k.pub
run 0 "... signs, and tts verify accepts it" $P sign --message msg -o s3.sig
"$TTS" verify -p k.pub -s s3.sig msg >/dev/null 2>&1
check $? "... (tts verify)"
"$TTS" keygen --params "TTS(20,28)" -o other >/dev/null 2>&1
run 2 "a tts key file with --pk another key's: exit 2" $P program k.sec --pk other.pub

# a damaged state file: refused (exit 2), never signed with
cp dev dmg && flip dmg 40
run 2 "a state file with one secret-key byte changed: exit 2" \
    "$AVR" --image-dir "$IMG" --eeprom dmg --pin pin sign --message msg
grep -q 'damaged state file' err
check $? "... a damaged state file, said"
# the same change with the checksum made good again: the key itself is checked
python3 -c 'import hashlib; b = bytearray(open("dmg", "rb").read())
b[-32:] = hashlib.sha256(bytes(b[:-32])).digest(); open("dmg", "wb").write(b)'
run 2 "... with its checksum recomputed: still refused" \
    "$AVR" --image-dir "$IMG" --eeprom dmg --pin pin sign --message msg
grep -q 'damaged state file (the library refuses its secret key\|damaged state file (its secret key' err
check $? "... by the key's own check"

run 1 "a device with no key refuses SIGN: exit 1" "$AVR" --image-dir "$IMG" sign --message msg
head -c 28 /dev/zero >zero.sig
"$TTS" convert --params "TTS(20,28)" --kind sig -o zero.tts zero.sig >/dev/null 2>&1
run 1 "a device with no key: VERIFY of the all-zero signature and digest refused" \
    "$AVR" --image-dir "$IMG" verify zero.tts --digest 0000000000000000000000000000000000000000
grep -q 'no key' out
check $? "... 'no key'"
run 2 "an unknown subcommand: exit 2" $A frob
head -c 4096 "$TTS" >notavr.elf
run 2 "an image that is no AVR ELF: exit 2" "$AVR" --image notavr.elf info
grep -q 'not an AVR ELF image' err
check $? "... and says so"

# TTS(36,50) on the ATmega2560 (its public key does not fit the ATmega328P)
"$TTS" keygen --params "TTS(36,50)" -o big >/dev/null 2>err
check $? "tts keygen TTS(36,50)"
B="$AVR --image-dir $IMG --eeprom bigdev --params TTS(36,50) --pin pin"
run 0 "TTS(36,50): program the key into the ATmega2560's flash" $B program big.sec
run 0 "TTS(36,50): sign the message's digest" $B sign --message msg -o big.sig
run 0 "TTS(36,50): tts verify accepts the device's signature" "$TTS" verify -p big.pub -s big.sig msg
run 0 "TTS(36,50): the device's VERIFY accepts it" $B verify big.sig --message msg
# keys made outside this tool chain: the first entry of the known-answer
# files (whose hashes an independent implementation of docs/SPEC.md
# reproduces), programmed as raw keys with --pk, their signatures accepted
# by `tts verify`
for set in 20,28 36,50; do
    python3 - "$srcdir/kat/PQCsignKAT_tts-$(echo $set | tr , -).rsp" <<'PY'
import sys
f = dict(l.strip().split(" = ", 1) for l in open(sys.argv[1]) if " = " in l and l[:3] in ("pk ", "sk "))
open("kat.pk", "wb").write(bytes.fromhex(f["pk"]))
open("kat.sk", "wb").write(bytes.fromhex(f["sk"]))
PY
    chmod 600 kat.sk
    rm -f kat.pub katdev
    "$TTS" convert --params "$set" --kind pk -o kat.pub kat.pk >/dev/null 2>&1
    K="$AVR --image-dir $IMG --eeprom katdev --params $set --pin pin"
    $K program kat.sk --pk kat.pk >out 2>err && rm -f kat.sig && $K sign --message msg -o kat.sig >out 2>err &&
        "$TTS" verify -p kat.pub -s kat.sig msg >out 2>&1
    check $? "TTS($set): the KAT's first key, programmed raw with --pk, signs; tts verify accepts it"
done
"$AVR" --image-dir "$IMG" report >rep8 2>/dev/null
[ "$(grep -c '^| TTS(' rep8)" = 8 ]
check $? "tts-avr report gives the eight sets"

# the state file is held by one session at a time: parallel SIGNs all count
before=$($A counter)
for i in 1 2 3 4; do $P sign --message msg >/dev/null 2>par.$i & done
wait
run 0 "four SIGNs in parallel on one state file" $A counter
[ "$(cat out)" = $((before + 4)) ]
check $? "... the counter went from $before to $((before + 4)) (one session at a time)"

# tts-avr(1)'s EXAMPLES, as written, in a fresh folder
mkdir ex ex/bin && cd ex || exit 99
printf '#!/bin/sh\nexec "%s" "$@"\n' "$TTS" >bin/tts
printf '#!/bin/sh\nexec "%s" "$@"\n' "$AVR" >bin/tts-avr
chmod +x bin/tts bin/tts-avr
sed -n '/^\.SH EXAMPLES/,/^\.fi/p' "$srcdir/tools/tts-avr.1" | sed '1,2d;$d' >examples.sh
PATH=$(pwd)/bin:$PATH TTS_AVR_DIR=$IMG sh -e examples.sh >ex.out 2>ex.err
check $? "tts-avr(1)'s EXAMPLES run ($(wc -l <examples.sh) lines)"
grep -q '^valid' ex.out && grep -q '^1$' ex.out && grep -q '^| TTS(20,28) |' ex.out
check $? "... the signature valid, the counter 1, the report's row"
cd .. || exit 99

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
    grep -q "SIGN $(c 10) B, VERIFY $(c 11) B" "$doc" &&
    grep -q "$(c 3) cycles, $(c 4) ms at 16 MHz" "$srcdir/README.md" &&
    awk -v s="$(c 4)" -v v="$(c 6)" 'BEGIN { exit !(s < 10 && v < 10) }'
check $? "docs/AVR.md's (and README's) TTS(20,28) SIGN and VERIFY cycles and peaks are tts-avr report's ($(c 3), $(c 5)), both under 10 ms"
tap_end
