#!/bin/sh
# SPDX-License-Identifier: MIT
# Every exit of tts-avr after a secret key is loaded (program's key file,
# or the key in an --eeprom state file) leaves no copy of it, as
# tests/test_card_wipe.sh holds for tts-card: each exit path (success, a
# device refusal, a usage or input error found after the key was read, a
# refused key, a failed write) runs under valgrind memcheck with every
# kind of leak an error (nothing left allocated), and again with
# tests/card_wipe.c preloaded, which searches every block tts-avr frees or
# reallocates for 16 bytes of the key (nothing freed unwiped). Its control:
# 16 bytes of the public key, which the tool frees unwiped, are found.
set -u
. "${srcdir:-.}/tests/avr_lib.sh"
VG=${VALGRIND:-valgrind}
[ "${SANITIZED:-no}" = yes ] && { echo "1..0 # SKIP sanitized build (valgrind and LD_PRELOAD)"; exit 0; }
command -v "$VG" >/dev/null 2>&1 || { echo "1..0 # SKIP no valgrind"; exit 0; }
CC=$(sed -n 's/^CC = //p' "$top_builddir/Makefile" | head -n 1)
SHIM=$(pwd)/card_wipe.so
${CC:-cc} -shared -fPIC -O2 -o "$SHIM" "$srcdir/tests/card_wipe.c" 2>cc.err ||
    { echo "1..0 # SKIP the wipe shim does not build here (glibc only): $(head -c 200 cc.err)"; exit 0; }
hex() { od -An -v -tx1 | tr -d ' \n'; }

"$TTS" keygen --params "TTS(20,28)" -o k >/dev/null 2>&1 &&
    "$TTS" keygen --params "TTS(20,28)" -o o >/dev/null 2>&1 &&
    "$TTS" convert --raw -o k.raw k.sec >/dev/null 2>&1 &&
    "$TTS" convert --raw -o k.praw k.pub >/dev/null 2>&1 || exit 99
KEYPAT=$(dd if=k.raw bs=1 skip=600 count=16 2>/dev/null | hex)
PKPAT=$(dd if=k.praw bs=1 skip=600 count=16 2>/dev/null | hex)
printf 'a message' >msg && printf '1234' >pin && printf '9999' >bad && chmod 600 pin bad
A="$AVR --image-dir $IMG"
$A --eeprom dev --pin pin program k.sec >/dev/null 2>&1 || exit 99
: >exists

# case_ WANT DESCRIPTION ARGS...: tts-avr ARGS exits WANT under valgrind (no
# leak of any kind, no error) and with the shim (no key freed unwiped)
case_() {
    want=$1 what=$2
    shift 2
    cp dev dev.run && chmod 600 dev.run && rm -f s1.sig s2.sig
    "$VG" -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
        --error-exitcode=99 $A "$@" >vg.out 2>&1
    v=$?
    cp dev dev.run && chmod 600 dev.run && rm -f s1.sig s2.sig
    rm -f wipe.log
    LD_PRELOAD=$SHIM TTS_WIPE_PATTERN=$KEYPAT TTS_WIPE_LOG=$(pwd)/wipe.log $A "$@" >sh.out 2>&1
    w=$?
    [ $v = "$want" ] && [ $w = "$want" ] && [ ! -s wipe.log ]
    check $? "$what: exit $want, nothing left allocated, no key freed unwiped (valgrind exit $v, shim exit $w, $(wc -l <wipe.log 2>/dev/null || echo 0) unwiped)"
    [ $v = "$want" ] || sed 's/^/#   /' vg.out | head -20
}
case_ 0 "program, sign" --eeprom new1 --pin pin program k.sec sign --message msg -o s1.sig
case_ 2 "program, then an unknown subcommand" --eeprom new2 --pin pin program k.sec frob
case_ 2 "program, then a malformed digest" --eeprom new3 --pin pin program k.sec sign --digest zz
case_ 2 "program of a raw key whose public key is not --pk's" --eeprom new4 --pin pin \
    program k.raw --pk o.pub
case_ 2 "program, then an output that exists" --eeprom new5 --pin pin program k.sec \
    sign --message msg -o exists
case_ 1 "a state file holding the key, a wrong PIN" --eeprom dev.run --pin bad sign --message msg
case_ 2 "a state file holding the key, then a malformed digest" --eeprom dev.run --pin pin \
    sign --digest zz
case_ 0 "a state file holding the key, sign" --eeprom dev.run --pin pin sign --message msg -o s2.sig
if [ -w /dev/full ]; then
    case_ 2 "a state file holding the key, the signature's write fails" --eeprom dev.run \
        --pin pin sign --message msg -o /dev/full --force
fi
# the control: the shim finds what is freed unwiped (the public key)
rm -f wipe.log
LD_PRELOAD=$SHIM TTS_WIPE_PATTERN=$PKPAT TTS_WIPE_LOG=$(pwd)/wipe.log $A --eeprom dev.run \
    --pin pin sign --message msg -o s3.sig >/dev/null 2>&1
[ -s wipe.log ]
check $? "the control: 16 bytes of the public key, freed unwiped, are found by the shim"
tap_end
