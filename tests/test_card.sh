#!/bin/sh
# SPDX-License-Identifier: MIT
# TTS(20,28) on the 256-byte image in depth: personalisation, every status
# word of docs/CARD.md (and the key survives each), --eeprom, key files,
# hostile files and paths, the C twins of the assembly kernels and the
# looped matvec (the same signatures), constant signing time over keys,
# digests and counters (keys from TTS_TEST_SEED), exit codes, and a card
# that never stops (stopped on its CPU-time budget). (On-card keys against
# the KAT and signatures against the host for every set and image family:
# tests/card-M-N[-128].card, tests/card_set.sh; the card's own randomness,
# the PIN and the power cuts: tests/card_guard.sh.)
. "${srcdir:-.}/tests/card_lib.sh"

set=20-28 m=20 n=28 P="--params 20-28 $PIN"
sk=$W/k2028
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/s" "$W/p" "$sk" || exit 99
D=$(rnd 20)
# -- every status word, and the key still signs after each error
status_checks ""
"$TTS_CARD" $P apdu 8022057701AA00 apdu 8022057601AA00 $(commit_apdu "$sk") > "$W/log" 2>&1
grep -q '^apdu: 00 6A86$' "$W/log" && grep -q '^apdu: 00 9000$' "$W/log" && grep -q '^apdu: 00 6985$' "$W/log"
say $? "PUT KEY: offset past the end 6A86, last byte 9000, COMMIT of an incomplete key 6985"

# -- apdu, the raw channel: a SIGN's signature printed as the card gave it,
# then the host's verdict on it (the card's key as the host knows it)
want=$("$HELPER" sign 20,28 "$sk" "$D" 0 | cut -d' ' -f1)
"$TTS_CARD" $P put-key $(withpk "$sk") verify apdu "8040000014${D}00" > "$W/log" 2>&1
st=$?
[ $st = 0 ] && grep -q "^apdu: 1C $want 9000\$" "$W/log" &&
    grep -q '^apdu-sign: verifies under the host.s key' "$W/log"
say $? "apdu SIGN: the host's signature for counter 0, and the line apdu-sign: verifies (exit $st)"
"$TTS_CARD" $P --eeprom "$W/ee.un" apdu "8026000004$(printf 2468 | hex)00" $(put_apdus "$sk") \
    $(commit_apdu "$sk") verify apdu "8040000014${D}00" > "$W/log" 2>&1
grep -q '^apdu: 1C [0-9A-F]* 9000$' "$W/log" && grep -q '^apdu-sign: verifies' "$W/log"
say $? "apdu SIGN after an install by raw APDUs: the host tracks the key, apdu-sign: verifies"

# -- --eeprom: a key generated in one invocation signs in the next
rm -f "$W/ee"
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 3 "$W/seed3" "$W/kpk3" "$W/ksk3"
"$TTS_CARD" $P --eeprom "$W/ee" genkey --seed "$W/seed3" > "$W/log" 2>&1; say $? "--eeprom: genkey"
"$TTS_CARD" $P --eeprom "$W/ee" sign --digest "$D" > "$W/log" 2>&1
st=$?; sign_checks "$W/log" 1; say $(( st | $? )) "--eeprom: the next invocation signs with that key"
[ "$(stat -c %a "$W/ee")" = 600 ]; say $? "--eeprom: the state file (it holds the key) has mode 600"
chmod 644 "$W/ee"
"$TTS_CARD" $P --eeprom "$W/ee" info > "$W/log" 2>&1
[ $? = 2 ] && grep -q "chmod 600" "$W/log"; say $? "--eeprom: a world-readable state file is refused with a chmod hint"
chmod 600 "$W/ee"

"$TTS_CARD" --params 20-28 genkey --seed "$W/s" > "$W/log" 2>&1
[ $? = 2 ] && grep -q -- "--pin" "$W/log"; say $? "genkey without --pin: exit 2, asks for it"

# -- key files: private, in any of the forms tts writes
TTS_TOOL=$top_builddir/tts
cp "$W/ksk3" "$W/open.sk" && chmod 644 "$W/open.sk"
"$TTS_CARD" $P put-key "$W/open.sk" > "$W/log" 2>&1
[ $? = 2 ] && grep -q "chmod 600" "$W/log"; say $? "put-key: a world-readable key file is refused with a chmod hint"
if [ -x "$TTS_TOOL" ]; then
    "$TTS_TOOL" keygen --seed "$W/seed3" -o "$W/tk" > /dev/null 2>&1 &&
        "$TTS_TOOL" keygen --armor --seed "$W/seed3" -o "$W/ta" > /dev/null 2>&1
    "$TTS_CARD" $P put-key "$W/tk.sec" sign --digest "$D" \
        put-key "$W/ta.sec" sign --digest "$D" > "$W/log" 2>&1
    st=$?; sign_checks "$W/log" 2; say $(( st | $? )) "put-key accepts tts secret-key files, binary and armored"
    "$TTS_CARD" $P put-key --pk "$W/ta.pub" "$W/tk.sec" sign --digest "$D" > "$W/log" 2>&1
    st=$?; sign_checks "$W/log" 1; say $(( st | $? )) "put-key --pk of an armored public-key file with its binary secret-key file"
    "$TTS_CARD" $P put-key --pk "$W/p" "$W/tk.sec" > "$W/log" 2>&1
    [ $? = 2 ] && grep -q 'differs from --pk' "$W/log" && ! grep -q '^put-key' "$W/log"
    say $? "put-key --pk of another public key than the key file's: exit 2, nothing sent"
    "$TTS_TOOL" keygen --params 16,22 --seed "$W/seed3" -o "$W/t16" > /dev/null 2>&1
    "$TTS_CARD" $P put-key "$W/t16.sec" > "$W/log" 2>&1
    [ $? = 2 ] && grep -q "TTS(16,22)" "$W/log"; say $? "put-key of a key of another set: exit 2, names the set"
    # -- the card's outputs are tts files: tts verifies them, both forms
    printf 'a message signed on the card\n' > "$W/msg"
    "$TTS_CARD" $P --eeprom "$W/ee" export-pk -o "$W/card.pub" sign --message "$W/msg" -o "$W/card.sig" \
        > "$W/log" 2>&1 &&
        "$TTS_TOOL" verify -p "$W/card.pub" -s "$W/card.sig" "$W/msg" > /dev/null 2>&1
    say $? "tts verify accepts the public key and signature tts-card writes (binary)"
    cmp -s "$W/card.pub" "$W/tk.pub"; say $? "the card's public-key file equals tts keygen's from the same seed"
    # (make check: the armored and raw public keys, a whole export each, in
    # make check-full; the signatures in both)
    if [ -n "${TTS_CHECK_FULL:-}" ]; then
        "$TTS_CARD" $P --armor --eeprom "$W/ee" export-pk -o "$W/card.apub" sign --message "$W/msg" \
            -o "$W/card.asig" > "$W/log" 2>&1 && head -n 1 "$W/card.apub" | grep -q '^-----BEGIN'
        st=$?; rpk="export-pk -o $W/card.rpub"
    else
        "$TTS_TOOL" convert --armor -o "$W/card.apub" "$W/card.pub" > /dev/null 2>&1 &&
            "$TTS_CARD" $P --armor --eeprom "$W/ee" sign --message "$W/msg" -o "$W/card.asig" > "$W/log" 2>&1
        st=$?; rpk=""
    fi
    [ $st = 0 ] && head -n 1 "$W/card.asig" | grep -q '^-----BEGIN' &&
        "$TTS_TOOL" verify -p "$W/card.apub" -s "$W/card.asig" "$W/msg" > /dev/null 2>&1
    say $? "tts verify accepts the public key and signature tts-card writes (--armor)"
    printf 'another message\n' > "$W/msg2"
    "$TTS_TOOL" verify -p "$W/card.pub" -s "$W/card.sig" "$W/msg2" > /dev/null 2>&1
    [ $? = 1 ]; say $? "control: the card's signature of one message does not verify another (exit 1)"
    # shellcheck disable=SC2086
    "$TTS_CARD" $P --raw --eeprom "$W/ee" $rpk sign --message "$W/msg" -o "$W/card.rsig" > "$W/log" 2>&1 &&
        { [ -z "$rpk" ] || cmp -s "$W/card.rpub" "$W/kpk3"; } &&
        [ "$(wc -c < "$W/card.rsig")" -eq 28 ] &&
        "$TTS_TOOL" convert --params 20-28 -o "$W/conv.sig" "$W/card.rsig" > /dev/null 2>&1 &&
        "$TTS_TOOL" verify -p "$W/card.pub" -s "$W/conv.sig" "$W/msg" > /dev/null 2>&1
    say $? "--raw: ${rpk:+the bare public key (the KAT's) and }a 28-byte signature that tts convert makes a file of"
    "$TTS_CARD" $P --raw --armor info > "$W/log" 2>&1
    [ $? = 2 ] && grep -q "exclude" "$W/log"; say $? "--raw with --armor: exit 2, says why"
fi

# -- hostile files and paths (refused before the simulator starts: exit 2)
refuse() { # refuse DESCRIPTION ARGS...: exit 2 and a message naming the problem
    d=$1; shift
    "$TTS_CARD" $P "$@" > "$W/log" 2>&1
    st=$?
    [ $st = 2 ] && [ -s "$W/log" ]; say $? "$d: exit 2 with a message (got $st)"
}
mkdir -p "$W/dir"
: > "$W/empty"
head -c 31 /dev/urandom > "$W/s31" && chmod 600 "$W/s31"
head -c 2000000 /dev/zero > "$W/huge"
printf '12345678901234567' > "$W/s17" && chmod 600 "$W/s17"
ln -sf "$W/loop" "$W/loop"
refuse "genkey --seed of a missing file" genkey --seed "$W/missing"
refuse "genkey --seed of a directory" genkey --seed "$W/dir"
refuse "genkey --seed of an empty file" genkey --seed "$W/empty"
refuse "genkey --seed of 31 bytes" genkey --seed "$W/s31"
refuse "genkey --seed of a 2 MB file" genkey --seed "$W/huge"
refuse "genkey --seed of a symlink loop (unreadable even for root)" genkey --seed "$W/loop"
refuse "genkey without --seed" genkey
refuse "sign --digest of 19 bytes" sign --digest 00112233445566778899aabbccddeeff001122
refuse "sign --digest with a non-hex character" sign --digest 00112233445566778899aabbccddeeff0011223g
refuse "sign --rand (the terminal chooses no randomness)" sign --rand "$W/s31"
refuse "--pin of an empty file" --pin "$W/empty" info
refuse "--pin of 17 bytes" --pin "$W/s17" info
refuse "put-key of a truncated key" put-key "$W/s31"
refuse "an --eeprom file of another set" --eeprom "$W/ee" --params 16,22 info
refuse "--mhz 0" --mhz 0 info
refuse "--cpu 6502" --cpu 6502 info
"$TTS_CARD" $P --eeprom "$W/ee" export-pk -o "$W/nodir/pk" > "$W/log" 2>&1
[ $? = 2 ] && grep -q "nodir" "$W/log"; say $? "export-pk to a path in a missing directory: exit 2, names it"
if [ -w /dev/full ]; then
    "$TTS_CARD" $P --eeprom "$W/ee" export-pk -o /dev/full > "$W/log" 2>&1
    [ $? = 2 ] && grep -q "/dev/full" "$W/log"; say $? "export-pk to a full device: exit 2, names it"
fi

# -- the C twins of the kernels give the same signatures
if [ -f "$CARD_DIR/tts-20-28-c.ihx" ]; then
    args=""
    for i in 1 2 3; do args="$args sign --digest $(rnd 20)"; done
    "$TTS_CARD" $P put-key $(withpk "$sk") $args > "$W/a.log" 2>&1
    "$TTS_CARD" $P --image "$CARD_DIR/tts-20-28-c.ihx" put-key $(withpk "$sk") $args > "$W/c.log" 2>&1
    sign_checks "$W/a.log" 3 && sign_checks "$W/c.log" 3 &&
        [ "$(grep '^sig:' "$W/a.log")" = "$(grep '^sig:' "$W/c.log")" ]
    say $? "assembly kernels and their C twins give the same signatures"
    if [ -f "$CARD_DIR/tts-20-28-loop.ihx" ]; then
        "$TTS_CARD" $P --image "$CARD_DIR/tts-20-28-loop.ihx" put-key $(withpk "$sk") $args > "$W/l.log" 2>&1
        sign_checks "$W/l.log" 3 && [ "$(grep '^sig:' "$W/a.log")" = "$(grep '^sig:' "$W/l.log")" ]
        say $? "the looped signing matvec (-DCARD_MV_LOOP) gives the same signatures"
    fi
fi

# -- constant time: 3 keys (5 in make check-full, from TTS_TEST_SEED), 2
# digests each (counters 0 and 1), one attempt each: the same cycles
nct=3; [ -n "${TTS_CHECK_FULL:-}" ] && nct=5
cyc=$(ct_cycles "$P" $nct)
[ "$(echo $cyc | wc -w)" -eq $((2 * nct)) ] && [ "$(echo $cyc | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ]
say $? "signing takes the same cycles for $nct keys x 2 digests and counters (one attempt): $(echo $cyc | cut -d' ' -f1)"
# -- the documents quote that figure (README, docs/CARD.md, docs/BENCH.md)
c1=$(echo $cyc | cut -d' ' -f1)
cc=$(printf '%s' "$c1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
ms=$(awk -v c="$c1" 'BEGIN { printf "%.1f", c * 12 / 3570 }')
ok=0
for d in README.md docs/CARD.md docs/BENCH.md; do
    if ! grep -qE "$cc (machine )?cycles" "$srcdir/$d" || ! grep -q "$ms ms" "$srcdir/$d"; then
        echo "# $d does not quote $cc cycles, $ms ms"
        ok=1
    fi
done
say $ok "README.md, docs/CARD.md and docs/BENCH.md quote this signature's $cc cycles and $ms ms"

# -- a card that never stops is stopped on its CPU-time budget
# (TTS_CARD_TIMEOUT, CPU seconds of the simulator: the machine's load does
# not count), here the GET INFO that tts-card sends before every session
printf ':03000000020000FB\n:00000001FF\n' > "$W/spin.ihx"
TTS_CARD_TIMEOUT=1 "$TTS_CARD" --image "$W/spin.ihx" info > "$W/log" 2>&1
[ $? = 2 ] && grep -q "more than 1 s of CPU time" "$W/log"
say $? "an image that never halts: stopped after 1 s of CPU time, exit 2"

# -- exit codes
"$TTS_CARD" $P bogus > /dev/null 2>&1; [ $? = 2 ]; say $? "usage error: exit 2"
"$TTS_CARD" --bogus info > /dev/null 2> "$W/err"; [ $? = 2 ] && [ "$(wc -l < "$W/err")" = 2 ] &&
    grep -q "unknown option '--bogus'" "$W/err"
say $? "an unknown option: exit 2, named in one line, --help pointed to"
"$TTS_CARD" --version | grep -q '^tts-card (libtts) '; say $? "--version"
"$TTS_CARD" $P apdu 001000000000 > /dev/null 2>&1; [ $? = 1 ]; say $? "card error status: exit 1"
"$TTS_CARD" --params 99,99 info > /dev/null 2>&1; [ $? = 2 ]; say $? "unknown set: exit 2"

# tts-card report on one set and CPU: the measured row and the budget of
# both images, the stored key in the spec's 1,399 bytes, SIGN within the
# 2004 card's 198 ms on the 8032 (deterministic: simulated cycles)
"$TTS_CARD" --image-dir "$CARD_DIR" --params 20,28 --cpu 8032 report > "$W/rep" 2>&1
st=$?
row=$(grep '^| TTS(20,28) |' "$W/rep")
ms=$(echo "$row" | awk -F'|' '{print $3}' | awk '{print $1}')
[ $st = 0 ] && [ -n "$ms" ] && awk -v x="$ms" 'BEGIN { exit !(x > 100 && x <= 198) }' &&
    grep -q '^| tts-20-28.ihx | [0-9]* | 1399 |' "$W/rep" &&
    grep -q '^| tts-20-28-128.ihx | 128 | 1399 |' "$W/rep" && ! grep -q '^| TTS(16,22) |' "$W/rep"
say $? "tts-card report --params 20,28 --cpu 8032: SIGN $ms ms (<= 198), both images' budgets, a 1399-byte key"
echo "1..$t"
exit $fail
