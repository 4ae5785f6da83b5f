#!/bin/sh
# SPDX-License-Identifier: MIT
# SFLASH(26,37) instances of the challenge: generate writes sflash-26-37/
# (the raw 16,858-byte key, messages, digests as SFLASH hashes them, a
# manifest that says "broken" and has no prize); break DIR forges message
# 1 from the public key alone and verify --pk-sha256 calls it VALID;
# tampered forgeries INVALID; reveal-check and estimate know the set.
# Independent checks: the digests from sha1sum, the forgery by bench/sflash's
# sflash_verify (tests/sflash_tool), the key's hash by sha256sum.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TC=$top_builddir/tts-challenge
ST=$top_builddir/tests/sflash_tool
. "$srcdir/tests/tap_lib.sh"
tap_abs TC ST srcdir
tap_real TC ST
if [ ! -x "$TC" ]; then
    echo "not ok 1 - tts-challenge not found ($TC)"
    exit 99
fi
tap_enter
S="SFLASH(26,37)"

if [ ! -x "$ST" ]; then
    # a build without OpenSSL: the set is refused, with the reason
    "$TC" generate --params "$S" --date 2026-12-06 --discard-secret --out ch >out 2>err
    [ $? = 2 ] && grep -q OpenSSL err && [ ! -e ch ]
    check $? "without OpenSSL, generate --params $S is refused (exit 2), saying why"
    tap_end
fi

run 0 "generate --params \"tts-16-22,$S\" --discard-secret" \
    "$TC" generate --params "tts-16-22,$S" --instances 2 --date 2026-12-06 \
    --discard-secret --out ch
D=ch/sflash-26-37
[ "$(ls $D | tr '\n' ' ')" = "manifest.json msg-1.digest msg-1.txt msg-2.digest msg-2.txt pk.sflash " ] &&
    [ "$(wc -c <$D/pk.sflash)" -eq 16858 ] && [ "$(wc -c <$D/msg-1.digest)" -eq 23 ]
check $? "sflash-26-37/: the raw 16,858-byte key, two messages, 23-byte digests, the manifest"
grep -q '"sets": \["TTS(16,22)", "SFLASH(26,37)"\]' ch/index.json
check $? "index.json lists both sets"
grep -q '"status": "broken",' $D/manifest.json &&
    grep -q '"prize": "none: SFLASH was never part of the TTS challenge",' $D/manifest.json &&
    ! grep -q 'prize_usd' $D/manifest.json &&
    grep -q '"status": "broken",' ch/tts-16-22/manifest.json &&
    grep -q '"historical_prize_usd": 1000,' ch/tts-16-22/manifest.json
check $? "the manifests say broken; TTS's prize is historical, SFLASH has none"

# V = SHA-1(M) || the first 22 bits of SHA-1(SHA-1(M)), 2 zero bits
hexbytes() { od -An -tx1 -v "$1" | tr -d ' \n'; }
m1=$(sha1sum <$D/msg-1.txt | cut -c1-40)
# the 20 bytes of hex $1, as printf octal escapes (sh's printf has no \x)
octal() {
    echo "$1" | awk '{ h = "0123456789abcdef"; for (i = 1; i < length($0); i += 2) {
        v = 16 * (index(h, substr($0, i, 1)) - 1) + index(h, substr($0, i + 1, 1)) - 1
        printf "\\%03o", v } }'
}
m2=$(printf "$(octal "$m1")" | sha1sum | cut -c1-40)
last=$(printf '%02x' $((0x$(echo "$m2" | cut -c5-6) & 0xfc)))
want="$m1$(echo "$m2" | cut -c1-4)$last"
[ "$(hexbytes $D/msg-1.digest)" = "$want" ] &&
    grep -q "\"digest\": \"$want\"" $D/manifest.json
check $? "digest of message 1 = SHA-1(M) || 22 bits of SHA-1(SHA-1(M)) (sha1sum)"
pub=$(sha256sum <$D/pk.sflash | cut -c1-64)
grep -q "\"pk_sha256\": \"$pub\"" $D/manifest.json
check $? "the manifest's pk_sha256 is the key file's SHA-256 (sha256sum)"

# the sequence a user runs: break, then verify against the published hash
run 0 "break ch --set \"$S\" --message 1 -o forged" \
    "$TC" break ch --set "$S" --message 1 -o forged --quiet
F=forged/sflash-26-37-msg-1.sig
[ "$(wc -c <$F)" -eq 33 ]
check $? "... writes forged/sflash-26-37-msg-1.sig, 33 bytes"
run 0 "verify ch FORGERY --message 1 --pk-sha256 PUBLISHED: exit 0" \
    "$TC" verify ch $F --message 1 --set "$S" --pk-sha256 "$pub"
grep -q "^VALID: signature of $S challenge message 1 .*(the published value)" out
check $? "... VALID"
run 0 "sflash_verify (bench/sflash) accepts the forgery of msg-1.txt" \
    "$ST" verify $D/pk.sflash $D/msg-1.txt $F
run 1 "the forgery of message 1 as message 2: INVALID (exit 1)" \
    "$TC" verify ch $F --message 2 --set "$S"
cp $F bad.sig && flip bad.sig 5
run 1 "a forgery with one byte changed: exit 1" \
    "$TC" verify ch bad.sig --message 1 --set "$S" --pk-sha256 "$pub"
grep -q "^INVALID" out
check $? "... INVALID"
cp $F pad.sig && poke pad.sig 32 "$(printf '%03o' $(( $(byte $F 32) | 1 )))"
run 1 "a forgery with a pad bit set: INVALID (exit 1)" \
    "$TC" verify ch pad.sig --message 1 --set "$S"
head -c 32 $F >short.sig
run 2 "a 32-byte solution: refused (exit 2)" "$TC" verify ch short.sig --message 1 --set "$S"
other=$(echo "$pub" | tr 0-9a-f 1-9a-f0)
run 2 "verify --pk-sha256 of another key: refused (exit 2)" \
    "$TC" verify ch $F --message 1 --set "$S" --pk-sha256 "$other"
cp -r ch ch2 && flip ch2/sflash-26-37/pk.sflash 100
run 2 "a key file changed after issue: refused (exit 2)" \
    "$TC" verify ch2 $F --message 1 --set "$S"

# reveal-check: the seed reproduces the folder; a changed digest is found
head -c 32 /dev/zero >seed && chmod 600 seed
run 0 "generate --params \"$S\" --master-seed" \
    "$TC" generate --params "$S" --instances 1 --date 2026-12-06 --master-seed seed --out r
run 0 "reveal-check of the SFLASH folder" "$TC" reveal-check r seed
flip r/sflash-26-37/msg-1.digest 3
run 1 "reveal-check: a changed digest is a difference" "$TC" reveal-check r seed
grep -q "r/sflash-26-37/msg-1.digest: differs" out
check $? "... naming the file"

run 0 "estimate --params \"$S\"" "$TC" estimate --params "$S"
grep -q "^$S .*broken.*recovered an equivalent key in [0-9.]* s .*kernel 4)" out
check $? "... prints the measured break, not a claimed figure"
tap_end
