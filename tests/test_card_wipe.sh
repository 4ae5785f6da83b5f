#!/bin/sh
# SPDX-License-Identifier: MIT
# Every exit of tts-card after a secret key is loaded (put-key's key, or
# the key in an --eeprom state file) leaves no copy of it: each exit path
# (success, a card error, a usage or input error found after the key was
# read, a refused key, a failed write, a power cut) runs under valgrind
# memcheck with every kind of leak an error (nothing left allocated), and
# again with tests/card_wipe.c preloaded, which searches every block
# tts-card frees or reallocates for 16 bytes of the key (nothing freed
# unwiped; the shim is built from tests/card_wipe.c with $CC at the
# test's start). Its own control: 16 bytes of the public key, which tts-card
# frees unwiped, are found.
. "${srcdir:-.}/tests/card_lib.sh"

VG=${VALGRIND:-valgrind}
[ "${SANITIZED:-no}" = yes ] && { echo "1..0 # SKIP sanitized build (valgrind and LD_PRELOAD)"; exit 0; }
command -v "$VG" >/dev/null 2>&1 || { echo "1..0 # SKIP no valgrind"; exit 0; }
SHIM=$W/card_wipe.so
${CC:-cc} -shared -fPIC -O2 -o "$SHIM" "$srcdir/tests/card_wipe.c" 2>"$W/cc.err" ||
    { echo "1..0 # SKIP the wipe shim does not build here (glibc only): $(head -c 200 "$W/cc.err")"; exit 0; }
P="--params 20-28 $PIN"
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/s" "$W/p" "$W/k" || exit 99
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 1 "$W/s1" "$W/p1" "$W/k1" || exit 99
KEYPAT=$(dd if="$W/k" bs=1 skip=600 count=16 2>/dev/null | hex)
PKPAT=$(dd if="$W/p" bs=1 skip=600 count=16 2>/dev/null | hex)
D=$(rnd 20)
"$TTS_CARD" $P --eeprom "$W/ee" put-key --pk "$W/p" "$W/k" > /dev/null 2>&1 || exit 99
printf '1357' > "$W/pinw" && chmod 600 "$W/pinw"
: > "$W/exists"

# case WANT DESCRIPTION ARGS...: tts-card ARGS exits WANT under valgrind
# (no leak of any kind, no error) and with the shim (no key freed unwiped)
case_() {
    want=$1 what=$2
    shift 2
    cp "$W/ee" "$W/ee.run" && chmod 600 "$W/ee.run"
    "$VG" -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
        --error-exitcode=99 "$TTS_CARD" "$@" > "$W/vg.out" 2>&1
    v=$?
    cp "$W/ee" "$W/ee.run" && chmod 600 "$W/ee.run"
    rm -f "$W/wipe.log"
    LD_PRELOAD=$SHIM TTS_WIPE_PATTERN=$KEYPAT TTS_WIPE_LOG=$W/wipe.log "$TTS_CARD" "$@" \
        > "$W/sh.out" 2>&1
    w=$?
    [ $v = "$want" ] && [ $w = "$want" ] && [ ! -s "$W/wipe.log" ]
    say $? "$what: exit $want, nothing left allocated, no key freed unwiped (valgrind exit $v, shim exit $w, $(cat "$W/wipe.log" 2>/dev/null | wc -l) unwiped)"
    [ $v = "$want" ] || sed 's/^/#   /' "$W/vg.out" | head -20
}
case_ 0 "put-key, sign" $P put-key --pk "$W/p" "$W/k" sign --digest "$D"
case_ 1 "put-key, a command the card refuses (6D00)" $P put-key --pk "$W/p" "$W/k" apdu 809900000000
case_ 2 "put-key, then an unknown subcommand" $P put-key --pk "$W/p" "$W/k" frob
case_ 2 "put-key, then a malformed digest" $P put-key --pk "$W/p" "$W/k" sign --digest zz
case_ 2 "put-key of a key whose public key is not --pk's" $P put-key --pk "$W/p1" "$W/k"
case_ 2 "put-key, then an output that exists" $P put-key --pk "$W/p" "$W/k" export-pk -o "$W/exists"
case_ 0 "put-key cut by --cut" $P --cut 200000 put-key --pk "$W/p" "$W/k"
case_ 1 "a state file holding the key, a wrong PIN" --params 20-28 --eeprom "$W/ee.run" --pin "$W/pinw" verify
case_ 2 "a state file holding the key, then a malformed digest" $P --eeprom "$W/ee.run" sign --digest zz
if [ -w /dev/full ]; then
    case_ 2 "put-key, sign, the signature's write fails" $P put-key --pk "$W/p" "$W/k" sign --digest "$D" -o /dev/full --force
fi
# the shim's control: the public key is freed unwiped, and found
rm -f "$W/wipe.log"
LD_PRELOAD=$SHIM TTS_WIPE_PATTERN=$PKPAT TTS_WIPE_LOG=$W/wipe.log "$TTS_CARD" $P \
    put-key --pk "$W/p" "$W/k" sign --digest "$D" > /dev/null 2>&1
[ -s "$W/wipe.log" ]
say $? "control: the shim finds the public key, which tts-card frees unwiped"
echo "1..$t"
exit $fail
