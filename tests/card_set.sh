#!/bin/sh
# SPDX-License-Identifier: MIT
# One card image family of one set: the test of tests/card-M-N.card (the
# 256-byte image tts-M-N.ihx on s51 -t 8032), tests/card-M-N-128.card
# (the 128-byte image tts-M-N-128.ihx on -t 8051) and tests/card-M-N-rom.card
# (the ROM-sized signing image tts-M-N-rom.ihx on -t 8051); the file's name
# says which (card.am: CARD_LOG_COMPILER; make check runs TTS(20,28)'s
# three, make check-full the others). Inputs come from TTS_TEST_SEED
# (card_lib.sh prints it).
# - the internal RAM the image reaches in a run of every command, measured
#   in s51 (8051/probe-iram.sh): within the part's 256 or 128 bytes, and
#   on -t 8051 nothing written above 0x7F;
# - the on-card key from the KAT seed (entry 0): the KAT public key, byte
#   for byte (for the 128-byte images of n > 32, whose C-twin key set-up
#   takes minutes: the first and the last segment);
# - KAT keys x digests: SIGN equals the host's tts_sign_digest with the
#   card's ChaCha20 stream (tts_card_stream_key), and verifies;
# - 256-byte family: segments in any order, repeated;
# - 128-byte family, n <= 32 (assembly kernels on an internal arena): key
#   set-up, export and signing on -t 8032 with the check above 0x7F
#   (ucsim's -t 8051 drops indirect writes up there); for TTS(20,28) also
#   every command that way, the check's own negative control, the status
#   words, --eeprom, the same signatures as the 256-byte image, equal
#   signing cycles over keys, digests and counters, and equal COMMIT KEY
#   and segment cycles over keys.
# - TTS(20,28): the card's own randomness against a hostile terminal, the
#   PIN, a key with a wrong S1, the tear test with the torn-install attack
#   and the exact cut (tests/card_guard.sh), on the 256-byte image (the
#   tear test on the 128-byte one, whose commands are the same C, in make
#   check-full).
# - the ROM families (rom_tests below; tests/card-M-N-rom4k.card: the 4 KB
#   image tts-M-N-rom4k.ihx; tests/card-20-28-rom4k-nocheck.card: TTS(20,28)'s
#   4 KB image without COMMIT's check, a measurement that make check builds
#   and make neither builds nor installs): PUT KEY + COMMIT KEY of
#   KAT keys and their signatures, on -t 8051 with the check above 0x7F;
#   COMMIT's check refusing bad keys (or, without it, committing them);
#   GENERATE KEY and GET PK SEGMENT absent; the 4 KB images' last byte
#   below 0x1000 and no GET PROFILE; for TTS(20,28) also equal cycles (on
#   the 4 KB images at most 66,640, 224 ms, with the check and without),
#   the same signatures as the 256-byte image, --eeprom and
#   tests/card_guard.sh.
# (TTS(20,28) on the 256-byte image in depth: tests/test_card.sh.)
. "${srcdir:-.}/tests/card_lib.sh"

# same_sigs DESC: three digests signed with key $sk on the 256-byte image
# and on this image ($P): the same signatures
same_sigs() {
    args=""
    for i in 1 2 3; do args="$args sign --digest $(rnd 20)"; done
    "$TTS_CARD" --params 20-28 $PIN put-key $(withpk "$sk") $args > "$W/a.log" 2>&1
    "$TTS_CARD" $P put-key $(withpk "$sk") $args > "$W/b.log" 2>&1
    sign_checks "$W/a.log" 3 && sign_checks "$W/b.log" 3 &&
        [ "$(grep '^sig:' "$W/a.log")" = "$(grep '^sig:' "$W/b.log")" ]
    say $? "$1"
}

# hex_last IMG: the highest address an Intel HEX image loads, from its
# data records, in decimal
hex_last() {
    awk 'substr($0, 8, 2) == "00" {
             n = 0; a = 0
             for (i = 2; i <= 7; i++) {
                 d = index("0123456789ABCDEF", toupper(substr($0, i, 1))) - 1
                 if (i <= 3) n = n * 16 + d; else a = a * 16 + d
             }
             if (n && a + n - 1 > hi) hi = a + n - 1
         } END { printf "%d", hi }' "$1"
}

name=$(basename "${1:?usage: card_set.sh tests/card-M-N[-128].card}" .card)
set=${name#card-}
fam=8032
case $set in
*-128) set=${set%-128} fam=8051 ;;
*-rom) set=${set%-rom} fam=rom ;;
*-rom4k) set=${set%-rom4k} fam=rom4k ;;
*-rom4k-nocheck) set=${set%-rom4k-nocheck} fam=rom4k-nocheck ;;
esac
m=${set%-*} n=${set#*-} cset=${set%-*},${set#*-} # (cset: card_lib.sh's commit_apdu)
if [ "${fam#rom}" != $fam ]; then
    img=$CARD_DIR/tts-$set-$fam.ihx isize=128 lbl=$set-$fam
elif [ $fam = 8051 ]; then
    img=$CARD_DIR/tts-$set-128.ihx isize=128 lbl=$set-128
else
    img=$CARD_DIR/tts-$set.ihx isize=256 lbl=$set
fi
[ -f "$img" ] || { echo "1..0 # SKIP no image $img"; exit 0; }
P="--cpu $fam --params $set $PIN"

# -- the ROM family
rom_tests() {
    P="--cpu 8051 --image $img --params $set $PIN"
    "$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" 0 "$W/s0" "$W/p0" "$W/k0" || exit 99
    # the internal RAM of a run of every command with a key installed (SET
    # PIN 1234, PUT KEY, COMMIT KEY first; the probe then verifies 1234 and
    # signs): within 128 B, nothing written above 0x7F, and the stack's peak
    # below the arena
    { printf '\200\046\000\000\0041234\000'
      for a in $(put_apdus "$W/k0" | sed 's/apdu //g'); do unhex "$a"; done
      unhex "$(commit_apdu "$W/k0" | sed 's/apdu //; s/ $//')"; } > "$W/prefix"
    set -- $(S51=${S51:-s51} "$srcdir/8051/probe-iram.sh" "$img" "$m" "$W/prefix")
    as=$(sed -n 's/^arena_start //p' "${img%.ihx}.sizes")
    [ "${1:-0}" -gt 0 ] && [ "$1" -le 128 ] && [ "${2:-0}" -gt 0 ] && [ "$2" -le "$as" ]
    say $? "$lbl: internal RAM reached in a run of every command, with a key: $1 B (the part has 128); the stack up to $2 (the arena starts at $as)"
    # KAT keys x digests, PUT KEY + COMMIT KEY on -t 8051 (tts-card's check
    # above 0x7F on every run)
    nk=2 nd=3
    [ $set = 20-28 ] && [ -n "${TTS_CHECK_FULL:-}" ] && nk=3 nd=5
    kk=0
    while [ $kk -lt $nk ]; do
        [ $kk = 0 ] || "$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" $kk "$W/s$kk" "$W/p$kk" "$W/k$kk" || exit 99
        args="" i=0
        while [ $i -lt $nd ]; do args="$args sign --digest $(rnd $m)"; i=$((i + 1)); done
        "$TTS_CARD" $P put-key $(withpk "$W/k$kk") $args > "$W/log" 2>&1
        st=$?
        sign_checks "$W/log" $nd && ! grep -q "above the 8051" "$W/log"
        say $(( st | $? )) "$lbl: KAT key $kk by PUT KEY + COMMIT KEY: $nd signatures equal the host's and verify"
        kk=$((kk + 1))
    done
    # the term records the card makes at reset (X_TERMS: &x[u], the column
    # or 0x80 | &x[w], p_t) against gen_card.c's table from ref's term tables
    # (t_uw in the image's .sizes), and their third bytes against the L1
    # form of the committed key's coefficients (GF(2^8) mod 0x11B, logs to
    # the base 3); the card's XDATA from --eeprom
    rm -f "$W/ee"
    "$TTS_CARD" $P --eeprom "$W/ee" put-key $(withpk "$W/k0") > "$W/log" 2>&1 &&
    python3 - "$W/ee" "${img%.ihx}.sizes" "$W/k0" "$m" "$n" <<'PY'
import sys
ee, sizes, key = (open(f, "rb").read() for f in sys.argv[1:4])
m, n = int(sys.argv[4]), int(sys.argv[5])
sz = dict(l.split(" ", 1) for l in sizes.decode().splitlines())
skb = len(key)
xram = ee[12 + 4 * skb:]
tuw, base = bytes.fromhex(sz["t_uw"]), int(sz["x_terms"])
lg, v = [0] * 256, 1
for i in range(255):
    lg[v] = i
    v ^= ((v << 1) ^ (0x11B if v & 0x80 else 0)) & 0xFF
co = m * m + m + n * n + n
ok = len(tuw) == 2 * (skb - co)
for t in range(len(tuw) // 2):
    a = base + 256 * (t // 85) + 3 * (t % 85)
    p = key[co + t]
    ok &= xram[a:a + 3] == tuw[2 * t:2 * t + 2] + bytes([lg[p] + 1 if p else 0])
sys.exit(0 if ok else 1)
PY
    say $? "$lbl: the term records made at reset equal gen_card.c's table, with the committed key's coefficients (L1)"
    # a well-formed key full of zeros (card_helper's sparse: s1 = s3 = 0,
    # about a third of the other bytes zero), signing the zero digest, a half-zero one and
    # a random one: the kernels' zero paths (a zero key entry, x value,
    # right-hand side or pivot candidate), which this family masks
    "$HELPER" corrupt "$m,$n" "$W/k0" "$W/sp" sparse || exit 99
    z=$(printf '%0*d' $m 0)
    "$TTS_CARD" $P put-key $(withpk "$W/sp") sign --digest "$z$z" sign --digest "$(rnd $((m / 2)))$z" \
        sign --digest "$(rnd $m)" > "$W/log" 2>&1
    st=$?
    sign_checks "$W/log" 3
    say $(( st | $? )) "$lbl: a sparse key (a third of its bytes 0, s1 = s3 = 0) by PUT KEY + COMMIT KEY: 3 signatures equal the host's and verify"
    # COMMIT's check (bind_checks: keys with S1, s1, a coefficient
    # changed, S1 or S3 singular, a wrong point, no points; the image
    # without the check: committed); GENERATE KEY and GET PK SEGMENT: 6D00
    D=$(rnd $m)
    if [ $fam != rom4k-nocheck ]; then
        sk=$W/k0
        bind_checks "$lbl: "
    fi
    for bad in singular1 singular3 s1 S1; do
        [ $fam = rom4k-nocheck ] || break
        "$HELPER" corrupt "$m,$n" "$W/k0" "$W/bad" $bad || exit 99
        # the card commits it, with the check points of the key meant; the
        # host refuses to send a malformed key (S1 changed is well formed:
        # a key of another public key) and withholds the signatures of a
        # card that holds it (they leak the key meant)
        if [ $bad != S1 ]; then
            "$TTS_CARD" $P put-key "$W/bad" > "$W/log" 2>&1
            [ $? = 2 ] && grep -q 'not a valid secret key' "$W/log"
            say $? "$lbl: put-key of a key with $bad: refused by the host's key check"
        fi
        rm -f "$W/bad.sig"
        "$TTS_CARD" $P $(install_apdus "$W/bad" "$W/k0") sign --digest "$D" -o "$W/bad.sig" \
            > "$W/log" 2>&1
        st=$?
        if [ $bad = S1 ]; then # (the host holds that well-formed key: it signs under it)
            sig=$(sed -n 's/^sig: //p' "$W/log")
            [ "$(grep -c '^apdu: 00 9000$' "$W/log")" -ge 3 ] && [ $st = 0 ] && [ -n "$sig" ] &&
                ! "$HELPER" verify "$m,$n" "$W/p0" "$D" "$sig"
            say $? "$lbl: no COMMIT check: a key with S1 changed and the points of the key meant is committed (raw APDUs); its signature does not verify under the public key meant"
            continue
        fi
        [ "$(grep -c '^apdu: 00 9000$' "$W/log")" -ge 3 ] && [ $st = 1 ] &&
            ! grep -q '^sig:' "$W/log" && grep -q 'withheld' "$W/log" && [ ! -e "$W/bad.sig" ]
        say $? "$lbl: no COMMIT check: a key with $bad and the points of the key meant is committed (raw APDUs); its signature is withheld, exit 1, no file"
    done
    "$TTS_CARD" $P apdu "8020000020$(rnd 32)00" apdu 803000000000 > "$W/log" 2>&1
    [ "$(grep '^apdu:' "$W/log" | awk '{print $NF}' | tr '\n' ' ')" = "6D00 6D00 " ]
    say $? "$lbl: no GENERATE KEY, no GET PK SEGMENT (6D00)"
    if [ $fam != rom ]; then
        # the 8051AH's 4 KB of ROM: the highest address the Intel HEX
        # loads, read from its records (and the build's code_end), and no
        # GET PROFILE (6D00) while GET CYCLES answers
        hi=$(hex_last "$img")
        ce=$(sed -n 's/^code_end //p' "${img%.ihx}.sizes")
        [ -n "$hi" ] && [ "$hi" -le 4095 ] && [ "$(printf '0x%04X' "$hi")" = "$ce" ]
        say $? "$lbl: the whole image in an 8051AH's 4 KB ROM: its last byte at $(printf '0x%04X' "${hi:-0}") (code_end $ce)"
        "$TTS_CARD" $P apdu 801400000000 apdu 801200000000 > "$W/log" 2>&1
        [ "$(grep '^apdu:' "$W/log" | awk '{print $1, $2, $NF}' | tr '\n' ' ')" = "apdu: 00 6D00 apdu: 04 9000 " ]
        say $? "$lbl: no GET PROFILE (6D00); GET CYCLES answers"
    fi
    [ $set = 20-28 ] || return 0
    sk=$W/k0
    # -- the status words in the order of 7.1, those of the two absent
    # commands 6D00 (the other images': card_lib.sh, status_checks), and
    # the key still signing after them
    "$TTS_CARD" $P put-key $(withpk "$sk") \
        apdu 001000000000 apdu 809900000000 apdu 801000010000 apdu 8010000001AA00 \
        apdu 801200010000 apdu 802000000000 apdu 8022057602AAAA00 apdu 8022057701AA00 \
        apdu 802200000000 $(commit_apdu "$sk") apdu 803000250000 \
        apdu 804000000000 apdu 8040000001AA00 apdu 80FE00010000 apdu 80FE000001AA00 \
        apdu 801600010000 apdu 8016000001AA00 apdu 802600000331323300 \
        apdu 8026000011313131313131313131313131313131313100 apdu 80260100043132333400 \
        apdu 00200001043132333400 apdu 002000000331323300 \
        apdu 0020000011313131313131313131313131313131313100 apdu 80200000043132333400 \
        apdu 8040000014${D}00 sign --digest "$D" > "$W/log" 2>&1
    codes=$(grep '^apdu:' "$W/log" | awk '{print $NF}' | tr '\n' ' ')
    [ "$codes" = "6E00 6D00 6A86 6700 6A86 6D00 6A86 6A86 6700 6985 6D00 6700 6700 6A86 6700 6A86 6700 6700 6700 6A86 6A86 6700 6700 6D00 6982 " ] &&
        sign_checks "$W/log" 1
    say $? "$lbl: status words in the order of 7.1, then the key still signs (got: $codes)"
    # -- equal cycles over keys, digests and counters
    nct=3; [ -n "${TTS_CHECK_FULL:-}" ] && nct=5
    cyc=$(ct_cycles "$P" $nct)
    [ "$(echo $cyc | wc -w)" -eq $((2 * nct)) ] && [ "$(echo $cyc | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ]
    say $? "$lbl: signing takes the same cycles for $nct keys x 2 digests and counters (one attempt): $(echo $cyc | cut -d' ' -f1)"
    if [ $fam != rom ]; then
        # TTS(20,28)'s 4 KB image, with COMMIT's check points, and the
        # measurement without them: within the 2004 card's 224 ms on the
        # 8051AH at 3.57 MHz (12T): 224e-3 * 3.57e6 / 12 = 66,640 machine
        # cycles
        c1=$(echo $cyc | cut -d' ' -f1)
        [ -n "$c1" ] && [ "$c1" -le 66640 ]
        say $? "$lbl: SIGN within 224 ms at 3.57 MHz: $c1 machine cycles (at most 66640)"
    fi
    if [ $fam = rom4k-nocheck ]; then
        # the check's price is bytes alone: the image with it signs in the
        # same cycles
        pt=$CARD_DIR/tts-20-28-rom4k.ihx
        cp=$(ct_cycles "--cpu 8051 --image $pt --params $set $PIN" 1 | cut -d' ' -f1)
        [ -n "$cp" ] && [ "$cp" = "$c1" ]
        say $? "$lbl: the 4 KB image with COMMIT's check points (tts-20-28-rom4k.ihx) signs in the same $cp cycles"
    fi
    # -- the same signatures as the 256-byte image
    same_sigs "$lbl: the 256-byte image and the ROM image give the same signatures"
    # -- the ROM image without COMMIT KEY's check (built by make check, to
    # measure that check's size): the same signatures in the same cycles,
    # and a key with a wrong s1 committed (the check is all it leaves out)
    nc=$CARD_DIR/tts-20-28-rom-nocheck.ihx
    if [ $fam = rom ] && [ -f "$nc" ]; then
        "$TTS_CARD" $P --report put-key $(withpk "$sk") sign --digest "$D" > "$W/a.log" 2>&1
        st=$?
        "$TTS_CARD" $P --image "$nc" --report put-key $(withpk "$sk") sign --digest "$D" > "$W/b.log" 2>&1
        st=$((st | $?))
        ca=$(awk '$2 == "sign" {print $3}' "$W/a.log") cb=$(awk '$2 == "sign" {print $3}' "$W/b.log")
        sign_checks "$W/a.log" 1 && sign_checks "$W/b.log" 1 && [ -n "$ca" ] && [ "$ca" = "$cb" ] &&
            [ "$(grep '^sig:' "$W/a.log")" = "$(grep '^sig:' "$W/b.log")" ]
        say $(( st | $? )) "$lbl: without COMMIT's check (-DCARD_ROM_NO_CHECK): the same signature in the same cycles ($cb)"
        "$HELPER" corrupt "$m,$n" "$sk" "$W/bad" s1 || exit 99
        "$TTS_CARD" $P --image "$nc" $(install_apdus "$W/bad" "$sk") > "$W/log" 2>&1
        [ $? = 0 ] && [ "$(grep -c '^apdu: 00 9000$' "$W/log")" -ge 3 ]
        say $? "$lbl: without COMMIT's check: a key with a wrong s1 is committed (raw APDUs)"
    fi
    # -- --eeprom: a key installed in one invocation signs in the next
    rm -f "$W/ee"
    "$TTS_CARD" $P --eeprom "$W/ee" put-key $(withpk "$sk") > "$W/log" 2>&1
    st=$?
    "$TTS_CARD" $P --eeprom "$W/ee" sign --digest "$D" > "$W/log" 2>&1
    st=$((st | $?)); sign_checks "$W/log" 1; say $(( st | $? )) "$lbl: --eeprom: the next invocation signs with the key put"
    # -- the card's randomness, the PIN, the tear test of COMMIT KEY, SIGN
    # and VERIFY
    . "$srcdir/tests/card_guard.sh"
    guard_family $fam "$img"
}
if [ "${fam#rom}" != $fam ]; then
    [ -f "$img" ] || { echo "1..0 # SKIP no image $img"; exit 0; }
    rom_tests
    echo "1..$t"
    exit $fail
fi

# -- internal RAM, measured
ir=$(S51=${S51:-s51} "$srcdir/8051/probe-iram.sh" "$img" "$m")
[ "$ir" -gt 0 ] && [ "$ir" -le $isize ]
say $? "$lbl: internal RAM reached in a run of every command: $ir B (the part has $isize)"
if [ $set-$fam = 20-28-8051 ]; then
    # the probe's own control: a 12-byte image that writes 0x11 to @R0 =
    # 0x90, then stops
    printf ':0C0000007890761190FFFF7473F080FE82\n:00000001FF\n' > "$W/stray.ihx"
    echo "stack_start 8" > "$W/stray.sizes"
    ir=$(S51=${S51:-s51} "$srcdir/8051/probe-iram.sh" "$W/stray.ihx" 20)
    [ "$ir" -gt 128 ]; say $? "control: the probe sees a write to 0x90 on -t 8051 ($ir B)"
fi

# -- on-card key generation from the KAT seed
"$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" 0 "$W/seed" "$W/kpk" "$W/ksk" || exit 99
g=$(( (n * (n + 3) / 2 + 255 / m - 1) / (255 / m) ))
last=$((g - 1)) k=$((255 / m * m)) mono=$(( n * (n + 3) / 2 ))
lastlen=$(( (mono - last * (255 / m)) * m ))
seg() { dd if="$W/kpk" bs=1 skip=$(( $1 * k )) count=$2 2>/dev/null | hex | tr a-f A-F; }
# (the export of the 128-byte images of n > 32 runs the C twins, minutes:
# their first and last segments; for
# TTS(20,28) so in make check, the whole export in make check-full)
if [ $fam = 8051 ] && { [ $n -gt 32 ] || { [ $set = 20-28 ] && [ -z "${TTS_CHECK_FULL:-}" ]; }; }; then
    "$TTS_CARD" $P genkey --seed "$W/seed" apdu 803000000000 \
        apdu "8030$(printf %04X $last)0000" > "$W/log" 2>&1
    st=$?
    grep -q "^apdu: $(printf %02X $k) $(seg 0 $k) 9000" "$W/log" &&
        grep -q "^apdu: $(printf %02X $lastlen) $(seg $last $lastlen) 9000" "$W/log"
    say $(( st | $? )) "$lbl: on-card key from the KAT seed: first and last segments equal the KAT's"
    nk=1 nd=3
    [ $n -le 32 ] && nk=3 nd=5
else
    "$TTS_CARD" $P --raw genkey --seed "$W/seed" export-pk -o "$W/pk" > "$W/log" 2>&1
    st=$?
    cmp -s "$W/pk" "$W/kpk"; say $(( st | $? )) "$lbl: the card's public key from the KAT seed equals the KAT's"
    nk=3 nd=10
    [ $fam = 8051 ] && nd=5
    [ $set-$fam = 20-28-8032 ] && nd=20
    [ -z "${TTS_CHECK_FULL:-}" ] && nk=2
fi

# -- signatures: KAT keys x digests
kk=0
while [ $kk -lt $nk ]; do
    "$HELPER" kat "$KAT/PQCsignKAT_tts-$set.rsp" $kk "$W/s$kk" "$W/p$kk" "$W/k$kk" || exit 99
    args="" i=0
    while [ $i -lt $nd ]; do args="$args sign --digest $(rnd $m)"; i=$((i + 1)); done
    "$TTS_CARD" $P put-key $(withpk "$W/k$kk") $args > "$W/log" 2>&1
    st=$?
    sign_checks "$W/log" $nd; say $(( st | $? )) "$lbl: key $kk: $nd signatures equal the host's and verify"
    kk=$((kk + 1))
done

if [ $fam = 8032 ]; then
    # -- segments in any order, repeated
    "$TTS_CARD" $P put-key $(withpk "$W/k0") apdu "8030$(printf %04X $last)0000" apdu 803000000000 \
        apdu 803000050000 apdu 803000000000 > "$W/log" 2>&1
    seg() { dd if="$W/p0" bs=1 skip=$(( $1 * k )) count=$2 2>/dev/null | hex | tr a-f A-F; }
    grep -q "^apdu: $(printf %02X $lastlen) $(seg $last $lastlen) 9000" "$W/log"; say $? "$lbl: last segment first"
    [ "$(grep -c "^apdu: $(printf %02X $k) $(seg 0 $k) 9000" "$W/log")" -eq 2 ]; say $? "$lbl: segment 0, repeated"
    grep -q "^apdu: $(printf %02X $k) $(seg 5 $k) 9000" "$W/log"; say $? "$lbl: segment 5 out of order"
    # TTS(20,28): the card's randomness, the PIN, the tear test
    [ $set = 20-28 ] && { . "$srcdir/tests/card_guard.sh"; guard_family 8032; }
    echo "1..$t"
    exit $fail
fi

# -- the 128-byte images with the assembly signing kernels (n <= 32) on
# -t 8032 with the check above 0x7F: key generation, a segment, a refused
# COMMIT, the derived segment (both segments 0 the KAT's: 240 bytes for m =
# 16, 20, 24) and a signature
"$HELPER" corrupt "$m,$n" "$W/k0" "$W/bad" s1 || exit 99
if [ $n -le 32 ] && [ $set != 20-28 ]; then
    TTS_CARD_IRAM128=1 "$TTS_CARD" --cpu 8032 $PIN --params $set --image "$img" genkey --seed "$W/seed" \
        apdu 803000000000 put-key $(withpk "$W/k0") $(install_apdus "$W/bad" "$W/k0") apdu 803000000000 \
        sign --digest "$(rnd $m)" > "$W/log" 2>&1
    [ $? = 1 ] && sign_checks "$W/log" 1 && ! grep -q "above the 8051" "$W/log" &&
        [ "$(grep -c "^apdu: F0 $(dd if="$W/kpk" bs=1 count=240 2>/dev/null | hex | tr a-f A-F) 9000" "$W/log")" = 2 ]
    say $? "$lbl: key set-up, export and signing on -t 8032 leave internal RAM 0x80..0xFF untouched"
fi
[ $set = 20-28 ] || { echo "1..$t"; exit $fail; }

# -- TTS(20,28): the check above 0x7F itself, then every command
printf ':0C0000007890761190FFFF7473F080FE82\n:00000001FF\n' > "$W/stray.ihx"
echo "iram 40" > "$W/stray.sizes"
TTS_CARD_IRAM128=1 "$TTS_CARD" --cpu 8032 --image "$W/stray.ihx" info > "$W/log" 2>&1
[ $? = 2 ] && grep -q "internal RAM 0x90" "$W/log"
say $? "control: tts-card catches a write above 0x7F (the 0xA5 fill of 0x80..0xFF)"
"$TTS_CARD" --cpu 8051 --image "$CARD_DIR/tts-20-28.ihx" info > "$W/log" 2>&1
[ $? = 2 ]; say $? "--cpu 8051 refuses an image that needs more than 128 B"
sk=$W/k0
D=$(rnd 20)
# (make check: the key installed by PUT KEY + COMMIT KEY, whose set-up is
# GENERATE KEY's; make check-full: GENERATE KEY and the whole export too)
if [ -n "${TTS_CHECK_FULL:-}" ]; then
    gen="genkey --seed $W/seed export-pk -o $W/pk8032"
    cp "$W/kpk" "$W/pkwant"
else
    gen="apdu 803000000000"
    : > "$W/pk8032"
    : > "$W/pkwant"
fi
TTS_CARD_IRAM128=1 "$TTS_CARD" --cpu 8032 --raw $PIN --image "$img" info cycles \
    $gen put-key $(withpk "$sk") sign --digest "$D" counter \
    cycles apdu 809900000000 $(install_apdus "$W/bad" "$sk") apdu 803000000000 > "$W/log" 2>&1
[ $? = 1 ] && sign_checks "$W/log" 1 && cmp -s "$W/pk8032" "$W/pkwant" && ! grep -q "above the 8051" "$W/log" &&
    grep -q "^apdu: F0 $(dd if="$W/p0" bs=1 count=240 2>/dev/null | hex | tr a-f A-F) 9000" "$W/log"
say $? "every command of the 128-byte image on -t 8032 leaves internal RAM 0x80..0xFF untouched"
# -- every status word, and the key still signs after each error (the
# 256-byte image's in make check: tests/test_card.sh), with COMMIT KEY's
# binding of a key to its public key (bind_checks, in make check too)
if [ -n "${TTS_CHECK_FULL:-}" ]; then
    status_checks "20-28-128: "
else
    bind_checks "20-28-128: "
fi
# -- the same signatures as the 256-byte image
same_sigs "20-28: the 256-byte image and the 128-byte image give the same signatures"
# -- --eeprom: a key installed in one invocation signs in the next
rm -f "$W/ee"
"$TTS_CARD" $P --eeprom "$W/ee" put-key $(withpk "$sk") > "$W/log" 2>&1; say $? "20-28-128: --eeprom: put-key"
"$TTS_CARD" $P --eeprom "$W/ee" sign --digest "$D" > "$W/log" 2>&1
st=$?; sign_checks "$W/log" 1; say $(( st | $? )) "20-28-128: --eeprom: the next invocation signs with that key"
# -- constant time: 3 keys (5 in make check-full), 2 digests each
# (counters 0 and 1), one attempt each: the same cycles
nct=3; [ -n "${TTS_CHECK_FULL:-}" ] && nct=5
cyc=$(ct_cycles "$P" $nct)
[ "$(echo $cyc | wc -w)" -eq $((2 * nct)) ] && [ "$(echo $cyc | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ]
say $? "20-28-128: signing takes the same cycles for $nct keys x 2 digests and counters (one attempt): $(echo $cyc | cut -d' ' -f1)"
# -- key set-up and export run their kernels on the arena (ka_call):
# COMMIT KEY and a GET PK SEGMENT take the same cycles for 3 keys
kc=$(for kk in 0 1 2; do
    "$TTS_CARD" $P --report put-key $(withpk "$W/k$kk") apdu 803000050000 2>&1 |
        sed -n 's/^report: [a-z-]* *\([0-9]*\) cycles.*/\1/p' | tr '\n' ' '; echo; done)
[ "$(echo "$kc" | grep -c '^[0-9]* [0-9]* $')" -eq 3 ] && [ "$(echo "$kc" | sort -u | wc -l)" -eq 1 ]
say $? "20-28-128: COMMIT KEY and a segment take the same cycles for 3 keys: $(echo "$kc" | head -1)"
# -- the card's randomness, the PIN, the tear test (make check-full: the
# code is the 256-byte image's, which make check runs them on)
if [ -n "${TTS_CHECK_FULL:-}" ]; then
    . "$srcdir/tests/card_guard.sh"
    guard_family 8051
fi
echo "1..$t"
exit $fail
