# SPDX-License-Identifier: MIT
# The card keeps its key from the terminal (docs/CARD.md, Threat model):
# guard_family FAMILY [IMAGE] runs, on TTS(20,28) on one image family (8032:
# tts-20-28.ihx on -t 8032; 8051: tts-20-28-128.ihx on -t 8051; rom, rom4k:
# IMAGE, tts-20-28-rom.ihx or -rom4k.ihx, on -t 8051), sourced by tests/card_set.sh after
# tests/card_lib.sh (the tear test of the 8051 family only in make
# check-full; the ROM family, which has no GENERATE KEY and no GET PK
# SEGMENT, tells the keys apart after a cut by their PINs and signatures):
# - the card's own signing randomness: a terminal that signs 41 digests of
#   its choice gets signatures whose differences span all n dimensions
#   (tests/test_card_guard.sh has the control: a terminal that chose the
#   randomness, as SIGN once let it, gets fewer); the same digest twice
#   gives two signatures (the counter);
# - the PIN: SIGN before VERIFY 6982; wrong PINs 63C2, 63C1, 63C0, then 6983
#   for VERIFY and SIGN, across sessions (--eeprom); the right PIN resets
#   the tries; a wrong first byte and a wrong last byte take the same cycles;
# - SET PIN clears the record of PUT bytes (all sk bytes PUT, SET PIN,
#   COMMIT: 6985);
# - a raw key with a wrong S1 (S1[0][0] changed): put-key --pk with the
#   intended public key refuses it (exit 2, nothing sent), put-key without
#   --pk refuses any raw key; sent with its own public key it is committed
#   and signs (a key of another public key: the card binds a key to the
#   points it comes with; bind_checks of tests/card_lib.sh sends the
#   intended key's), and its signature does not verify under the intended
#   public key;
# - the tear test: GENERATE KEY, COMMIT KEY (PUT KEY + COMMIT) and SIGN's
#   counter update cut at many instruction counts (tts-card --cut: the
#   simulator stops there and the card's XDATA is saved; the next session
#   starts a fresh simulator from it), the card then answers with key A or
#   key B whole: segment 0 equals that key's, the PIN of that key verifies,
#   and SIGN gives exactly the host's signature for that key and the counter
#   the card reports, which verifies. The cut points: the instructions
#   around the journal flag's two writes (tts-card --watch), TEAR_WINDOW
#   evenly spread between them (the writes of the active key), TEAR_COARSE
#   over the whole command and NEARLY in its first thirtieth (the PUT KEYs
#   of put-key); for SIGN every SSTEP-th instruction of the 96 before the
#   counter's switch byte is written, that write, and TEAR_COARSE over the
#   rest; for a VERIFY with a wrong PIN every VSTEP-th instruction: the try
#   is counted from its write on, and that write comes before the stored
#   PIN is read. GENERATE KEY and PUT + COMMIT KEY are cut on a card where a
#   session without the PIN has PUT all sk bytes and committed none, also
#   at ACUTS points where a staged key would be left committable, and after
#   every cut of theirs a session without the user's PIN (SET PIN, COMMIT
#   KEY, VERIFY, SIGN) must get no signature under key A or key B (the
#   torn-install attack: docs/CARD.md, Threat model); --cut is exact (the
#   flag unwritten after its write's count minus one). make check (not on
#   the 128-byte image): TEAR_WINDOW 0, TEAR_COARSE 0, NEARLY 1, SSTEP 96,
#   VSTEP 400, ACUTS 3, of the four cuts around the journal's writes the
#   two at the first write and just after the second; make check-full: 10,
#   4, 3, 12, 100, 6, all four. GENERATE KEY is cut as COMMIT KEY in make
#   check-full (not on the ROM family, which has no GENERATE KEY).
#   TEAR_WINDOW, TEAR_COARSE and ACUTS, in the environment, enlarge the
#   sweep (TEAR_WINDOW=3000 cuts about every store
#   to the key area; that takes hours).

# make check takes a short sample; make check-full (TTS_CHECK_FULL) sweeps
# more densely and cuts GENERATE KEY too
if [ -n "${TTS_CHECK_FULL:-}" ]; then
    sstep=12 vstep=100 nearly=3 near=4
    TEAR_WINDOW=${TEAR_WINDOW:-10} TEAR_COARSE=${TEAR_COARSE:-4} ACUTS=${ACUTS:-6}
else
    sstep=96 vstep=400 nearly=1 near=2
    TEAR_WINDOW=${TEAR_WINDOW:-0} TEAR_COARSE=${TEAR_COARSE:-0} ACUTS=${ACUTS:-3}
fi
# XDATA of the staged key's last byte, X_STAGE + sk - 1 (8051/card_map.h:
# X_STAGE = 0x0500 for TTS(20,28), sk = 1399); the journal flag X_JRNL is
# 0x301, the counter's switch X_CSEL 0x303, the PIN tries X_TRIES 0x302
LAST_SK_BYTE=0x0A76

"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/sA" "$W/pA" "$W/kA" || exit 99
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 1 "$W/sB" "$W/pB" "$W/kB" || exit 99
printf 'pin-of-A' > "$W/pinA"; printf '97531' > "$W/pinB"; printf '0000' > "$W/pinW"
printf 'xin-of-A' > "$W/pinX"; printf 'pin-of-B' > "$W/pinY"
chmod 600 "$W/pinA" "$W/pinB" "$W/pinW" "$W/pinX" "$W/pinY"
sigs() { grep '^sig:' "$1" | sed 's/^sig: //'; }
# the status word of the N-th apdu line of LOG
swn() { grep '^apdu:' "$1" | sed -n "$2p" | awk '{print $NF}'; }


guard_family() {
    fam=$1
    F="--cpu $fam --params 20-28"
    rom=0
    case $fam in rom*) rom=1 F="--cpu 8051 --image $2 --params 20-28" ;; esac
    # -- a hostile terminal: 41 digests of its choice, then the last one again
    # (the ROM image, whose stream key is chacha.c's as on the others: make
    # check-full)
    if [ $rom = 0 ] || [ -n "${TTS_CHECK_FULL:-}" ]; then
        args="" last=""
        for i in $(seq 0 40); do last=$(rnd 20); args="$args sign --digest $last"; done
        "$TTS_CARD" $F --pin "$W/pinA" put-key --pk "$W/pA" "$W/kA" $args sign --digest "$last" > "$W/log" 2>&1
        st=$?
        sign_checks "$W/log" 42; say $(( st | $? )) "$fam: 42 signatures equal the host's (tts_card_stream_key, counters 0..41) and verify"
        sigs "$W/log" | head -41 > "$W/s41"
        r=$("$HELPER" rank 28 "$W/s41")
        [ "$r" = 28 ]; say $? "$fam: 41 digests chosen by the terminal: differences of rank $r = n"
        [ "$(sigs "$W/log" | sed -n 41p)" != "$(sigs "$W/log" | sed -n 42p)" ] &&
            [ "$(grep '^counter:' "$W/log" | tail -2 | tr '\n' ' ')" = "counter: 40 counter: 41 " ]
        say $? "$fam: the same digest signed twice (counters 40, 41): two different signatures"
    fi

    # -- the PIN, across sessions
    E=$W/ee.$fam
    rm -f "$E"
    "$TTS_CARD" $F --pin "$W/pinA" --eeprom "$E" put-key --pk "$W/pA" "$W/kA" > "$W/log" 2>&1 || say 1 "$fam: put-key"
    D=$(rnd 20)
    "$TTS_CARD" $F --eeprom "$E" apdu "8040000014${D}00" > "$W/log" 2>&1
    [ "$(swn "$W/log" 1)" = 6982 ]; say $? "$fam: SIGN before VERIFY: 6982"
    codes=""
    for k in 1 2 3 4; do
        "$TTS_CARD" $F --eeprom "$E" --pin "$W/pinW" verify > "$W/log" 2>&1
        codes="$codes$(sed -n 's/.*card status \([0-9A-F]*\).*/\1/p' "$W/log") "
    done
    [ "$codes" = "63C2 63C1 63C0 6983 " ]; say $? "$fam: wrong PINs in 4 sessions: $codes"
    "$TTS_CARD" $F --eeprom "$E" --pin "$W/pinA" verify apdu "8040000014${D}00" > "$W/log" 2>&1
    [ $? = 1 ] && grep -q 'card status 6983' "$W/log" && [ "$(swn "$W/log" 1)" = 6983 ]
    say $? "$fam: blocked: the right PIN gets 6983, and so does SIGN"
    rm -f "$E"
    "$TTS_CARD" $F --pin "$W/pinA" --eeprom "$E" put-key --pk "$W/pA" "$W/kA" > "$W/log" 2>&1
    "$TTS_CARD" $F --eeprom "$E" --pin "$W/pinW" verify > /dev/null 2>&1
    "$TTS_CARD" $F --eeprom "$E" --pin "$W/pinY" verify > /dev/null 2>&1
    "$TTS_CARD" $F --eeprom "$E" --pin "$W/pinA" verify sign --digest "$D" > "$W/log" 2>&1
    st=$?
    sign_checks "$W/log" 1
    say $(( st | $? )) "$fam: two wrong PINs, then the right one: verified, signs"
    "$TTS_CARD" $F --eeprom "$E" --report apdu 002000000000 \
        apdu "0020000008$(printf 'xin-of-A' | hex)00" apdu "0020000008$(printf 'pin-of-B' | hex)00" \
        apdu 002000000000 > "$W/log" 2>&1
    c1=$(grep '^report: apdu' "$W/log" | sed -n 2p | awk '{print $3}')
    c2=$(grep '^report: apdu' "$W/log" | sed -n 3p | awk '{print $3}')
    [ "$(swn "$W/log" 1) $(swn "$W/log" 2) $(swn "$W/log" 3) $(swn "$W/log" 4)" = "63C3 63C2 63C1 63C1" ] &&
        [ -n "$c1" ] && [ "$c1" = "$c2" ]
    say $? "$fam: the tries were reset to 3; a wrong first byte and a wrong last byte: $c1 and $c2 cycles"

    # -- a key of another public key: S1[0][0] changed (S1 is free in a TTS
    # key: tts_sk_check accepts it). put-key with the intended public key
    # (--pk) refuses it before the card runs (exit 2, the state file
    # unchanged); without --pk a raw key is refused too; sent with its own
    # public key (a key of another public key, which replaces the key) it
    # is committed and signs on every image, its signature not valid under
    # the intended public key (docs/CARD.md, "A faulty key": with the
    # intended key's points it is refused, tests/card_lib.sh's bind_checks)
    "$HELPER" corrupt 20,28 "$W/kA" "$W/kS1" S1 || exit 99
    "$HELPER" pk 20,28 "$W/kS1" "$W/pS1" || exit 99
    rm -f "$W/Ek" && cp "$E" "$W/Ek.orig" && cp "$E" "$W/Ek"
    "$TTS_CARD" $F --pin "$W/pinA" --eeprom "$W/Ek" info put-key --pk "$W/pA" "$W/kS1" > "$W/log" 2>&1
    st=$?
    [ $st = 2 ] && grep -q "differs from --pk" "$W/log" && ! grep -q '^info:\|^put-key' "$W/log" &&
        cmp -s "$W/Ek" "$W/Ek.orig"
    say $? "$fam: put-key --pk of a raw key with S1[0][0] changed: refused, exit 2, nothing sent (got $st)"
    "$TTS_CARD" $F --pin "$W/pinA" --eeprom "$W/Ek" info put-key "$W/kA" > "$W/log" 2>&1
    st=$?
    [ $st = 2 ] && grep -q "give the public key it must have with --pk" "$W/log" &&
        ! grep -q '^info:\|^put-key' "$W/log" && cmp -s "$W/Ek" "$W/Ek.orig"
    say $? "$fam: put-key of a raw key without --pk: refused, exit 2, nothing sent (got $st)"
    "$TTS_CARD" $F --pin "$W/pinA" put-key --pk "$W/pS1" "$W/kS1" sign --digest "$D" > "$W/log" 2>&1
    st=$?
    s=$(sigs "$W/log")
    [ $st = 0 ] && grep -q 'put-key: committed' "$W/log" && [ -n "$s" ] &&
        ! "$HELPER" verify 20,28 "$W/pA" "$D" "$s"
    say $? "$fam: that key with its own public key is committed and signs; its signature does not verify under the intended public key"

    # -- the tear test (make check: on the 256-byte image only, whose
    # sessions are the quicker; make check-full: both)
    [ $fam = 8051 ] && [ -z "${TTS_CHECK_FULL:-}" ] && return 0
    rm -f "$W/E0"
    "$TTS_CARD" $F --pin "$W/pinA" --eeprom "$W/E0" put-key --pk "$W/pA" "$W/kA" sign --digest "$D" > "$W/log" 2>&1 ||
        say 1 "$fam: tear test: key A"
    # the attacker's staging: a session without any PIN PUTs every byte
    # of the key (arbitrary bytes) and commits nothing; key A still signs
    puts="" o=0
    while [ $o -lt 1399 ]; do
        l=$((1399 - o)); [ $l -gt 255 ] && l=255
        puts="$puts apdu 8022$(printf '%04X%02X' $o $l)$(rnd $l)00"
        o=$((o + l))
    done
    cp "$W/E0" "$W/E0x"
    "$TTS_CARD" $F --eeprom "$W/E0x" --pin "$W/pinA" $puts verify sign --digest "$D" > "$W/log" 2>&1
    st=$?
    sign_checks "$W/log" 1
    [ $(( st | $? )) = 0 ] && [ "$(grep '^apdu:' "$W/log" | awk '{print $NF}' | sort -u)" = 9000 ]
    say $? "$fam: a session without the PIN PUTs all 1399 bytes of a key, commits none: key A still signs"
    # within one session: a SET PIN after the PUTs clears their record
    # (COMMIT 6985, key A still signs); SET PIN, the PUTs, COMMIT install
    setpin="apdu 8026000008$(printf 'pin-of-B' | hex)00"
    cp "$W/E0" "$W/Es"
    "$TTS_CARD" $F --eeprom "$W/Es" --pin "$W/pinA" $setpin $(put_apdus "$W/kB") $setpin \
        $(commit_apdu "$W/kB") verify sign --digest "$D" > "$W/log" 2>&1
    sign_checks "$W/log" 1 && [ "$(grep '^apdu:' "$W/log" | tail -1 | awk '{print $NF}')" = 6985 ]
    r1=$?
    "$TTS_CARD" $F --eeprom "$W/Es" $setpin $(put_apdus "$W/kB") $(commit_apdu "$W/kB") > "$W/log" 2>&1
    [ $r1 = 0 ] && [ "$(grep '^apdu:' "$W/log" | tail -1 | awk '{print $NF}')" = 9000 ] &&
        "$TTS_CARD" $F --eeprom "$W/Es" --pin "$W/pinY" verify > /dev/null 2>&1
    say $? "$fam: SET PIN clears the record of PUT bytes: all sk bytes PUT, SET PIN again, COMMIT 6985 and key A signs; SET PIN, PUT, COMMIT installs key B"
    segA=$(dd if="$W/pA" bs=1 count=240 2>/dev/null | hex | tr a-f A-F)
    segB=$(dd if="$W/pB" bs=1 count=240 2>/dev/null | hex | tr a-f A-F)
    D2=$(rnd 20)
    # tear_check NAME CUT: after the cut at CUT (card in $W/Ec), key A or B
    # whole; its PIN verifies; SIGN is the host's for that key and counter
    tear_check() {
        if [ $rom = 1 ]; then # no segments: the PIN tells the key
            "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pinA" verify counter \
                apdu "8040000014${D2}00" > "$W/c.log" 2>&1
            seg=$segB
            grep -q '^verify: ok' "$W/c.log" && seg=$segA
        else
            "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pinA" apdu 803000000000 verify counter \
                apdu "8040000014${D2}00" > "$W/c.log" 2>&1
            seg=$(grep '^apdu:' "$W/c.log" | head -1 | awk '{print $3}')
        fi
        if [ "$seg" = "$segA" ]; then k=A
        elif [ "$seg" = "$segB" ]; then k=B
            "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pinB" verify counter \
                apdu "8040000014${D2}00" > "$W/c.log" 2>&1
        else echo "# $1: cut at $2: segment 0 is neither key's: $(head -c 80 "$W/c.log")"; return 1
        fi
        ctr=$(sed -n 's/^counter: //p' "$W/c.log")
        sig=$(grep '^apdu:' "$W/c.log" | tail -1)
        want=$("$HELPER" sign 20,28 "$W/k$k" "$D2" "$ctr" | cut -d' ' -f1)
        if ! grep -q '^verify: ok' "$W/c.log" || [ "$sig" != "apdu: 1C $want 9000" ] ||
           ! "$HELPER" verify 20,28 "$W/p$k" "$D2" "$want"; then
            echo "# $1: cut at $2: key $k, counter $ctr: $(tr '\n' ' ' < "$W/c.log" | cut -c1-300)"
            return 1
        fi
        echo "$k $ctr" >> "$W/tear.$1"
    }
    # attack_check NAME CUT: a session without the user's PIN after the
    # cut (on a copy of $W/Ec) sends SET PIN (its own), COMMIT KEY (with
    # key B's check points, the most it could know), VERIFY
    # (its PIN), SIGN; no signature it gets verifies under key A (the
    # user's old key) or key B (the new one)
    attack_check() {
        cp "$W/Ec" "$W/Ea"
        "$TTS_CARD" $F --eeprom "$W/Ea" apdu "8026000008$(printf 'xin-of-A' | hex)00" \
            $(commit_apdu "$W/kB") apdu "0020000008$(printf 'xin-of-A' | hex)00" \
            apdu "8040000014${D2}00" > "$W/a.log" 2>&1
        asig=$(grep '^apdu:' "$W/a.log" | sed -n 4p | awk '$NF == "9000" {print $3}')
        if [ -n "$asig" ] && { "$HELPER" verify 20,28 "$W/pA" "$D2" "$asig" ||
                               "$HELPER" verify 20,28 "$W/pB" "$D2" "$asig"; }; then
            echo "# $1: cut at $2: a session without the user's PIN got a signature under the user's key"
            return 1
        fi
        echo "$(swn "$W/a.log" 2)" >> "$W/attack.$1"
    }
    # tear NAME ADDR HITS SUBCOMMAND...: cut SUBCOMMAND (on key A's card;
    # GENERATE and COMMIT KEY on the card the attacker staged, $W/E0x)
    # around the HITS writes to ADDR and over its whole length; for
    # GENERATE and COMMIT KEY also where the attacks of attack_check
    # would find a key to commit (ACUTS evenly between the last PUT and the
    # journal flag, or over the last third of GENERATE KEY before it), and
    # attack_check after every cut
    tear() {
        name=$1 addr=$2 hits=$3
        shift 3
        base=$W/E0 att=0
        case $name in GENERATE-KEY|COMMIT-KEY) base=$W/E0x att=1 ;; esac
        cp "$base" "$W/Ec"
        "$TTS_CARD" $F --eeprom "$W/Ec" --watch "$addr:$hits" "$@" > "$W/w.log" 2>&1
        x1=$(sed -n 's/^watch: write 1 .* after \([0-9]*\) .*/\1/p' "$W/w.log")
        x2=$(sed -n "s/^watch: write $hits .* after \\([0-9]*\\) .*/\\1/p" "$W/w.log")
        total=$(sed -n 's/^instructions: //p' "$W/w.log")
        [ -n "$x1" ] && [ -n "$x2" ] && [ -n "$total" ] || { say 1 "$fam: $name: no watch ($(head -c 200 "$W/w.log"))"; return; }
        if [ "$hits" = 1 ]; then # the counter: every 12th instruction of the 96 before its switch
            cuts="$(seq $((x1 - 96)) $sstep $((x1 - 1))) $x1 $((x1 + 1))"
        else # (and 4 in the first 1/30: the PUT KEYs of put-key)
            cuts="$(echo $x1 $((x2 + 1)) $((x1 - 1)) $x2 | cut -d' ' -f1-$near)
                  $(seq $x1 $(( (x2 - x1) / (TEAR_WINDOW + 1) + 1 )) $x2 | sed 1d)
                  $(seq 1 $((x1 / 120 + 1)) $((x1 / 30)) | sed 1d | head -n $nearly)"
        fi
        if [ $name = COMMIT-KEY ]; then # from the last PUT's write of the key's last byte
            cp "$base" "$W/Ec"
            "$TTS_CARD" $F --eeprom "$W/Ec" --watch "$LAST_SK_BYTE:1" "$@" > "$W/w.log" 2>&1
            y1=$(sed -n 's/^watch: write 1 .* after \([0-9]*\) .*/\1/p' "$W/w.log")
            [ -n "$y1" ] || { say 1 "$fam: $name: no watch of the key's last byte"; return; }
            cuts="$cuts $((y1 + 40)) $(seq $y1 $(( (x1 - y1) / (ACUTS + 1) + 1 )) $x1 | sed 1d)"
        elif [ $name = GENERATE-KEY ]; then
            cuts="$cuts $(seq $((2 * x1 / 3)) $(( x1 / 3 / (ACUTS + 1) + 1 )) $x1 | sed 1d)"
        fi
        cuts=$(echo $cuts $(seq 1 $(( total / (TEAR_COARSE + 1) + 1 )) "$total" | sed 1d) |
               tr ' ' '\n' | sort -n -u)
        : > "$W/tear.$name"
        : > "$W/attack.$name"
        bad=0 n=0
        for c in $cuts; do
            cp "$base" "$W/Ec"
            "$TTS_CARD" $F --eeprom "$W/Ec" --cut "$c" "$@" > /dev/null 2>&1 || bad=1
            if [ $att = 1 ]; then attack_check "$name" "$c" || bad=1; fi
            tear_check "$name" "$c" || bad=1
            n=$((n + 1))
        done
        nA=$(grep -c '^A' "$W/tear.$name") nB=$(grep -c '^B' "$W/tear.$name")
        [ $bad = 0 ] && [ $((nA + nB)) = $n ]
        say $? "$fam: tear test, $name: $n cut points (the watched writes at $x1 and $x2 of $total instructions): key A whole $nA times, key B $nB"
        if [ $att = 1 ]; then
            [ $bad = 0 ] && [ "$(wc -l < "$W/attack.$name")" = $n ]
            say $? "$fam: torn install, $name: after each of the $n cuts a session without the user's PIN (SET PIN, COMMIT KEY, VERIFY, SIGN) gets no signature under key A or B; its COMMIT KEY answered: $(sort "$W/attack.$name" | uniq -c | tr -s ' \n' ' ')"
        fi
        tears=$((tears + n))
    }
    tears=0
    : > "$W/tear.GENERATE-KEY"
    # (GENERATE KEY's cuts in make check-full: make check keeps to PUT +
    # COMMIT, the same journal and the same attack)
    [ $rom = 0 ] && [ -n "${TTS_CHECK_FULL:-}" ] &&
        tear "GENERATE-KEY" 0x301 2 --pin "$W/pinB" genkey --seed "$W/sB"
    tear "COMMIT-KEY" 0x301 2 --pin "$W/pinB" put-key --pk "$W/pB" "$W/kB"
    # --cut is exact: after x1 - 1 instructions (x1 counts the journal
    # flag's first write) the flag is not written and key A stays; after x1
    # it is, and the reset installs key B (both by their PINs)
    got=""
    for c in $((x1 - 1)) $x1; do
        cp "$W/E0" "$W/Ec"
        "$TTS_CARD" $F --eeprom "$W/Ec" --cut "$c" --pin "$W/pinB" put-key --pk "$W/pB" "$W/kB" > "$W/c.log" 2>&1
        n=$(sed -n 's/^instructions: //p' "$W/c.log")
        k=-
        "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pinA" verify > "$W/vA.$c" 2>&1 && k=A
        "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pinB" verify > "$W/vB.$c" 2>&1 && k=$k"B"
        got="$got$((n - c)):$k "
    done
    [ "$got" = "0:A 0:-B " ]
    say $? "$fam: --cut is exact: cut after $((x1 - 1)) and $x1 instructions (the journal flag's first write the $x1-th): instructions past the cut and the key after it: $got"
    [ "$got" = "0:A 0:-B " ] || sed 's/^/#   /' "$W/c.log" "$W/vA.$((x1 - 1))" "$W/vB.$((x1 - 1))" | head -20
    # a cut after COMMIT KEY installed key B, before its answer (x2 + 1:
    # the journal flag cleared), and one before the journal (x1 - 1: key A
    # stays): the state file keeps the staged key, and the next session
    # settles which key took (the first segment of the card's public key,
    # on the ROM images its first signature) and signs under it, exit 0;
    # the session after it needs no settling
    settle_check() { # CUT KEY VERDICT [SUBCOMMAND...]: by default put-key of key B
        c=$1 k=$2 v=$3
        shift 3
        [ $# = 0 ] && set -- put-key --pk "$W/pB" "$W/kB"
        cp "$W/E0" "$W/Ec"
        "$TTS_CARD" $F --eeprom "$W/Ec" --cut "$c" --pin "$W/pinB" "$@" > "$W/c.log" 2>&1
        grep -q '^cut: a key install before its answer' "$W/c.log" || return 1
        set -- "$c" "$k" "$v"
        "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pin$2" sign --digest "$D2" > "$W/c.log" 2>&1 &&
            sign_checks "$W/c.log" 1 && grep -q "^settle: .* $3" "$W/c.log" &&
            "$TTS_CARD" $F --eeprom "$W/Ec" --pin "$W/pin$2" sign --digest "$D2" > "$W/c.log" 2>&1 &&
            sign_checks "$W/c.log" 1 && ! grep -q '^settle' "$W/c.log"
    }
    settle_check $((x2 + 1)) B "took: the card holds the new key"
    say $? "$fam: COMMIT KEY cut after its install, before its answer: the next session settles it (key B took) and signs under key B, exit 0"
    settle_check $((x1 - 1)) A "did not take: the card holds its old key"
    r=$?
    say $r "$fam: COMMIT KEY cut before its journal: the next session settles it (key A stays) and signs under key A, exit 0"
    [ $r = 0 ] || sed 's/^/#   /' "$W/c.log" | head -20
    # GENERATE KEY (not on the ROM family) cut after its journal, before
    # its answer: settled by the first segment of the card's public key
    if [ $rom = 0 ]; then
        cp "$W/E0" "$W/Ec"
        "$TTS_CARD" $F --eeprom "$W/Ec" --watch 0x301:2 --pin "$W/pinB" genkey --seed "$W/sB" \
            > "$W/w.log" 2>&1
        g2=$(sed -n 's/^watch: write 2 .* after \([0-9]*\) .*/\1/p' "$W/w.log")
        [ -n "$g2" ] && settle_check $((g2 + 1)) B "took: the card holds the new key" \
            genkey --seed "$W/sB"
        say $? "$fam: GENERATE KEY cut after its install, before its answer: the next session settles it (key B took) and signs under key B, exit 0"
    fi
    # SIGN: counter 1 on E0; after any cut 1 or 2, with key A
    tear "SIGN-counter" 0x303 1 --pin "$W/pinA" sign --digest "$D"
    [ "$(sort -u "$W/tear.SIGN-counter" | tr '\n' ' ')" = "A 1 A 2 " ]
    say $? "$fam: tear test, SIGN: the counter after a cut is 1 or 2, both seen: $(sort -u "$W/tear.SIGN-counter" | tr '\n' ' ')"
    [ "$(cut -d' ' -f1 "$W/tear.GENERATE-KEY" "$W/tear.COMMIT-KEY" | sort -u | tr '\n' ' ')" = "A B " ]
    say $? "$fam: tear test: cuts left the old key and the new one (both seen)"
    # VERIFY: a wrong PIN's try is counted before the comparison, so no cut
    # after that write gives it back (Lc = 0 asks for the tries left)
    cp "$W/E0" "$W/Ec"
    "$TTS_CARD" $F --eeprom "$W/Ec" --watch 0x302:1 --pin "$W/pinW" verify > "$W/w.log" 2>&1
    x1=$(sed -n 's/^watch: write 1 .* after \([0-9]*\) .*/\1/p' "$W/w.log")
    total=$(sed -n 's/^instructions: //p' "$W/w.log")
    bad=0 n=0 seen=""
    # (the ROM image's VERIFY is the shortest: a finer step, an eighth in
    # make check-full, a half in make check)
    if [ $rom = 1 ]; then
        if [ -n "${TTS_CHECK_FULL:-}" ]; then vstep=$((vstep / 8)); else vstep=$((vstep / 2)); fi
    fi
    for c in $(seq $((x1 - 40)) $vstep "$total") "$x1"; do
        cp "$W/E0" "$W/Ec"
        "$TTS_CARD" $F --eeprom "$W/Ec" --cut "$c" --pin "$W/pinW" verify > /dev/null 2>&1
        "$TTS_CARD" $F --eeprom "$W/Ec" apdu 002000000000 > "$W/c.log" 2>&1
        sw=$(swn "$W/c.log" 1)
        if [ "$c" -lt "$x1" ]; then [ "$sw" = 63C3 ] || bad=1; else [ "$sw" = 63C2 ] || bad=1; fi
        seen="$seen$sw "
        n=$((n + 1))
    done
    # ... and the write comes before the first read of the stored PIN
    cp "$W/E0" "$W/Ec"
    "$TTS_CARD" $F --eeprom "$W/Ec" --watch 0x311:1:r --pin "$W/pinW" verify > "$W/w.log" 2>&1
    xr=$(sed -n 's/^watch: read 1 .* after \([0-9]*\) .*/\1/p' "$W/w.log")
    [ -n "$x1" ] && [ -n "$xr" ] && [ "$x1" -lt "$xr" ] && [ $bad = 0 ] && [ $n -gt 3 ]
    say $? "$fam: tear test, VERIFY with a wrong PIN: $n cut points, 3 tries before the write at $x1, 2 from it on; the stored PIN first read at $xr"
    tears=$((tears + n))
    echo "# $fam: $tears cut points in all"
}
