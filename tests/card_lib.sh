# SPDX-License-Identifier: MIT
# Shared by the card tests: locate the tools, skip the whole test (TAP
# "1..0 # SKIP") when the card build or the simulator (configure's S51) is
# absent, TAP reporting.
: "${srcdir:=.}" "${top_builddir:=.}"
umask 077 # seeds and randomness keys are secret inputs (mode 0600)
CARD_DIR=$top_builddir/8051
TTS_CARD=$top_builddir/tts-card
HELPER=$top_builddir/tests/card_helper
KAT=$srcdir/kat
export TTS_CARD_DIR="$CARD_DIR"
. "$srcdir/tests/realbin.sh"
if ! command -v "${S51:-s51}" >/dev/null 2>&1 || [ ! -x "$TTS_CARD" ] || [ ! -x "$HELPER" ] ||
   [ ! -f "$CARD_DIR/tts-20-28.ihx" ]; then
    echo "1..0 # SKIP the 8051 card build (sdcc, s51) is not configured"
    exit 0
fi
[ -n "${S51:-}" ] && export TTS_S51="$S51"
tap_real TTS_CARD HELPER
W=$(mktemp -d "${TMPDIR:-/tmp}/tts-card-test.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT
# The PIN every test key is installed with (a private file, as tts-card
# wants a PIN file).
printf '2468' > "$W/pin" && chmod 600 "$W/pin" || exit 99
PIN="--pin $W/pin"
fail=0
t=0
say() { t=$((t + 1)); if [ "$1" = 0 ]; then echo "ok $t - $2"; else echo "not ok $t - $2"; fail=1; fi; }
hex() { od -An -v -tx1 | tr -d ' \n'; }
# Test inputs from a seed (TTS_TEST_SEED, else a fresh one), printed in the
# log so that a failure can be replayed: rnd N gives N bytes of hex, the
# SHA-512 of "seed counter" in turn (the counter lives in a file, as rnd
# runs in subshells).
: "${TTS_TEST_SEED:=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')}"
echo "# inputs from TTS_TEST_SEED=$TTS_TEST_SEED"
echo 0 > "$W/rnd.ctr"
rnd() { # (its variables are prefixed: sh has no locals, callers use n and c)
    _rnd_n=$1 _rnd_out=""
    while [ ${#_rnd_out} -lt $((2 * _rnd_n)) ]; do
        _rnd_c=$(cat "$W/rnd.ctr"); echo $((_rnd_c + 1)) > "$W/rnd.ctr"
        _rnd_out="$_rnd_out$(printf '%s %s' "$TTS_TEST_SEED" "$_rnd_c" | sha512sum | cut -c1-128)"
    done
    printf '%s' "$_rnd_out" | cut -c1-$((2 * _rnd_n))
}
# sign_checks LOG N: N "equals ... verifies" lines and no mismatch
sign_checks() {
    [ "$(grep -c 'sign: equals the host.s signature .*, verifies' "$1")" -eq "$2" ] &&
        ! grep -q 'DIFFERS\|DOES NOT' "$1"
}
# unhex HEX: the bytes of HEX on stdout (octal escapes: sh's printf has no \x)
unhex() {
    _uh=$1
    while [ -n "$_uh" ]; do
        _uh_b=${_uh%"${_uh#??}"}
        _uh=${_uh#??}
        printf "\\$(printf %03o "0x$_uh_b")"
    done
}
# ct_cycles OPTIONS K: the SIGN cycles (tts-card --report) of K TTS(20,28)
# keys from seeds drawn with rnd (TTS_TEST_SEED), each installed on a fresh
# card and signing two digests (counters 0 and 1) that the host finds to
# take one attempt
ct_cycles() {
    _ct_i=0
    while [ $_ct_i -lt $2 ]; do
        unhex "$(rnd 32)" > "$W/ts"
        "$HELPER" keygen 20,28 "$W/ts" "$W/tsk" "$W/tpk" || exit 99
        _ct_args=""
        for _ct_c in 0 1; do
            while :; do
                _ct_d=$(rnd 20)
                _ct_a=$("$HELPER" sign 20,28 "$W/tsk" "$_ct_d" $_ct_c | awk '{print $2}')
                [ "$_ct_a" = 1 ] && break
            done
            _ct_args="$_ct_args sign --digest $_ct_d"
        done
        "$TTS_CARD" $1 --report put-key $(withpk "$W/tsk") $_ct_args 2>&1 |
            sed -n 's/^report: sign *\([0-9]*\) cycles.*/\1/p' | tr '\n' ' '
        _ct_i=$((_ct_i + 1))
    done
}
# withpk SK: the put-key arguments "--pk PK SK" for the raw key file SK of
# the set $cset (by default 20,28), PK its own public key (SK.pub, from
# card_helper pk: tts-card takes a raw key only with the public key meant)
withpk() {
    "$HELPER" pk "${cset:-20,28}" "$1" "$1.pub" || return 1
    printf -- '--pk %s %s' "$1.pub" "$1"
}
# put_apdus SK: "apdu HEX" arguments that PUT the whole key file SK (255
# bytes a command)
put_apdus() {
    _pa_hex=$(hex < "$1") _pa_off=0
    while [ -n "$_pa_hex" ]; do
        _pa_c=$(printf '%s' "$_pa_hex" | cut -c1-510)
        _pa_hex=$(printf '%s' "$_pa_hex" | cut -c511-)
        printf 'apdu 8022%04X%02X%s00 ' $_pa_off $((${#_pa_c} / 2)) "$_pa_c"
        _pa_off=$((_pa_off + ${#_pa_c} / 2))
    done
}
# commit_apdu SK [FLIP]: "apdu HEX", COMMIT KEY with the check points of
# key file SK of the set $cset (M,N; by default 20,28) (card_helper
# points, host/cardbind.c; x from rnd); FLIP: that byte of its data
# changed (a wrong point); CA_X in the environment: the x values (hex of 2n
# bytes) instead of random ones
commit_apdu() {
    _ca_s=${cset:-20,28}
    _ca_d=$("$HELPER" points "$_ca_s" "$1" "${CA_X:-$(rnd $((2 * ${_ca_s#*,})))}" ${2:-}) ||
        _ca_d=NOPOINTS # (no hex: tts-card refuses the command, the test fails)
    printf 'apdu 80240000%02X%s00 ' $((${#_ca_d} / 2)) "$_ca_d"
}
# install_apdus SK [MEANT [FLIP]]: the raw APDUs of a whole install of key
# file SK (SET PIN of the test PIN, PUT KEY, COMMIT KEY with the check
# points of key file MEANT, by default SK), for keys tts-card's put-key
# refuses to send (the library's key check) or sends with their own
# points, to test the card's own checks
install_apdus() {
    printf 'apdu 8026000004%s00 ' "$(printf '%s' "$(cat "$W/pin")" | hex)"
    put_apdus "$1"
    commit_apdu "${2:-$1}" ${3:-}
}
# install_x SK XHEX: install_apdus SK with the points' x values XHEX
install_x() {
    CA_X=$2 install_apdus "$1"
}
# bind_checks LABEL: COMMIT KEY's binding of a key to its public key
# (docs/CARD.md, "A faulty key"), on the card of $P with the key $sk of
# the set $cset and digest $D, in one session after put-key $sk: keys
# installed by raw APDUs with the check points of the key meant, and
# refused (6A80) each: S1 changed (still invertible: a well-formed key of
# another public key), s1 changed, s3 changed, the first central coefficient changed
# (meant: $sk with s1 = s3 = 0, so c3 = 0 and the changed key is well
# formed too), S1 singular, S3 singular; the key meant with one byte of a
# point's w, then of its y changed (6A80), with the first point's x = 0
# and with the same x at both points, each point consistent with the key
# (degenerate points: 6A80); a COMMIT without points (Lc 0:
# 6700); the old key then signs; the key meant with its points is
# committed (9000) and signs.
bind_checks() {
    _bc_s=${cset:-20,28}
    for _bc in S1 s1 s3 singular1 singular3 affine0; do
        "$HELPER" corrupt "$_bc_s" "$sk" "$W/b$_bc" $_bc || exit 99
    done
    "$HELPER" corrupt "$_bc_s" "$W/baffine0" "$W/bcoef" coef || exit 99
    _bc_n=${_bc_s#*,}
    _bc_x=$(rnd $_bc_n)
    "$TTS_CARD" $P put-key $(withpk "$sk") $(install_apdus "$W/bS1" "$sk") $(install_apdus "$W/bs1" "$sk") \
        $(install_apdus "$W/bs3" "$sk") \
        $(install_apdus "$W/bcoef" "$W/baffine0") $(install_apdus "$W/bsingular1" "$sk") \
        $(install_apdus "$W/bsingular3" "$sk") $(install_apdus "$sk" "$sk" $_bc_n) \
        $(install_apdus "$sk" "$sk" $((2 * _bc_n))) \
        $(install_x "$sk" "$(printf '%0*d' $((2 * _bc_n)) 0)$(rnd $_bc_n)") \
        $(install_x "$sk" "$_bc_x$_bc_x") \
        apdu "8026000004$(printf '%s' "$(cat "$W/pin")" | hex)00" $(put_apdus "$sk") apdu 802400000000 \
        sign --digest "$D" $(install_apdus "$W/baffine0") sign --digest "$D" > "$W/log" 2>&1
    _bc_st=$?
    _bc_c=$(grep '^apdu:' "$W/log" | awk '$NF != "9000" {print $NF}' | tr '\n' ' ')
    [ $_bc_st = 1 ] && [ "$_bc_c" = "6A80 6A80 6A80 6A80 6A80 6A80 6A80 6A80 6A80 6A80 6700 " ] &&
        [ "$(grep '^apdu:' "$W/log" | tail -n 1)" = "apdu: 00 9000" ] && sign_checks "$W/log" 2
    say $? "$1COMMIT KEY with the points of the key meant refuses keys with S1, s1, s3, a coefficient changed, S1 or S3 singular (6A80), the right key with a wrong point (6A80), with x = 0 at the first point (6A80), with the same x at both points (6A80), no points (6700); the old key signs; the right key and points: committed, signs (got: $_bc_c)"
}
# status_checks LABEL: every status word of docs/CARD.md in order, the key
# still signing after each error, 6985 without a key, keys with a singular
# S1, a singular S3, a bad s1 refused by put-key, and bind_checks; on the card
# of $P (the options selecting image and CPU, and the PIN), with the
# TTS(20,28) key $sk and digest $D. The expected words are those of CLA, INS,
# GET INFO P1, GET INFO Lc, GET CYCLES P1, GENERATE Lc 0, GENERATE Lc 1, PUT
# offset + Lc past the key (2 bytes at 1399 - 2 + 1), PUT 3 bytes at 1398,
# PUT Lc 0, COMMIT without a complete PUT, segment 37 (past the end), GET PK
# SEGMENT Lc 1, SIGN Lc 0, SIGN Lc 1, HALT P1, HALT Lc, GET COUNTER P1,
# GET COUNTER Lc, SET PIN Lc 3, SET PIN Lc 17, SET PIN P1, VERIFY P1, VERIFY
# Lc 3, VERIFY Lc 17, VERIFY under CLA 80 (GENERATE KEY Lc 4), SIGN before
# VERIFY; then a COMMIT without a staged PIN (6985) and a SIGN of the
# unverified session (6982).
status_checks() {
    "$TTS_CARD" $P put-key $(withpk "$sk") \
        apdu 001000000000 apdu 809900000000 apdu 801000010000 apdu 8010000001AA00 \
        apdu 801200010000 apdu 802000000000 apdu 8020000001AA00 \
        apdu 8022057602AAAA00 apdu 8022057701AA00 apdu 802200000000 \
        $(commit_apdu "$sk") apdu 803000250000 apdu 8030000001AA00 \
        apdu 804000000000 apdu 8040000001AA00 apdu 80FE00010000 apdu 80FE000001AA00 \
        apdu 801600010000 apdu 8016000001AA00 apdu 802600000331323300 apdu 8026000011313131313131313131313131313131313100 \
        apdu 80260100043132333400 apdu 00200001043132333400 apdu 002000000331323300 \
        apdu 0020000011313131313131313131313131313131313100 apdu 80200000043132333400 \
        apdu 8040000014${D}00 \
        sign --digest "$D" > "$W/log" 2>&1
    codes=$(grep '^apdu:' "$W/log" | awk '{print $NF}' | tr '\n' ' ')
    [ "$codes" = "6E00 6D00 6A86 6700 6A86 6700 6700 6A86 6A86 6700 6985 6A86 6700 6700 6700 6A86 6700 6A86 6700 6700 6700 6A86 6A86 6700 6700 6700 6982 " ]
    say $? "$1status words in the order of 7.1 (got: $codes)"
    sign_checks "$W/log" 1; say $? "$1after every error the key still signs correctly"
    "$TTS_CARD" $P apdu 8040000014$(rnd 20)00 apdu 803000000000 apdu 00200000043132333400 > "$W/log" 2>&1
    [ "$(grep -c ' 6985$' "$W/log")" -eq 3 ]; say $? "$16985 without an active key (SIGN, GET PK SEGMENT, VERIFY)"
    "$TTS_CARD" $P put-key $(withpk "$sk") $(put_apdus "$sk") $(commit_apdu "$sk") sign --digest "$D" > "$W/log" 2>&1
    [ "$(grep '^apdu:' "$W/log" | awk '{print $NF}' | tr '\n' ' ')" = "9000 9000 9000 9000 9000 9000 6985 " ] &&
        sign_checks "$W/log" 1
    say $? "$1a complete PUT KEY without a new SET PIN: COMMIT 6985, the old key still signs"
    for bad in singular1 singular3 s1; do
        "$HELPER" corrupt 20,28 "$sk" "$W/bad" $bad || exit 99
        "$TTS_CARD" $P put-key "$W/bad" > "$W/log" 2>&1
        [ $? = 2 ] && grep -q 'not a valid secret key' "$W/log" && ! grep -q '^put-key' "$W/log"
        say $? "$1put-key of a key with $bad: refused by the host's key check, exit 2, nothing sent"
    done
    bind_checks "$1"
}
