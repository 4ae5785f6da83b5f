#!/bin/sh
# SPDX-License-Identifier: MIT
# The tts command-line tool: parameter table, key and signature files
# (tools/tts.1, FILES), exit statuses and the refusal of bad input.
# TTS names the tool (default ./tts); srcdir locates kat/ for the
# cross-check against the published known-answer tests.
set -u
: "${srcdir:=.}"
TTS=${TTS:-./tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS srcdir
tap_real TTS
if [ ! -f "$TTS" ] || [ ! -x "$TTS" ]; then
    echo "not ok 1 - tts binary not found at $TTS"
    exit 99
fi
tap_enter

# refuse TEXT DESC CMD...: CMD exits 2 with one "tts: " line on stderr
# that contains TEXT.
refuse() {
    text=$1 desc=$2
    shift 2
    "$@" > out 2> err
    got=$?
    if [ "$got" = 2 ] && head -n 1 err | grep -q '^tts: ' &&
        grep -qF -- "$text" err; then
        pass "$desc"
    else
        flunk "$desc (exit $got, expected 2 and \"$text\")"
        diag err
    fi
}

size() { wc -c < "$1" | tr -d ' '; }
header() { od -An -tx1 -N8 "$1" | tr -s ' ' | sed 's/^ //; s/ $//'; }
mode() { ls -l "$1" | cut -c1-10; }

# ---- tts params: the published sizes --------------------------------------
"$TTS" params > params.out 2> err
check $? "params exits 0"
cat > params.want <<'EOF'
TTS(16,22) 16 22 6 7 7 101 879 4400 22
TTS(20,26) 20 26 6 10 8 132 1254 7540 26
TTS(20,28) 20 28 8 9 9 167 1399 8680 28
TTS(24,32) 24 32 8 12 10 208 1864 13440 32
TTS(24,34) 24 34 10 11 11 249 2039 15096 34
TTS(28,38) 28 38 10 14 12 300 2594 21812 38
TTS(32,44) 32 44 12 16 14 408 3444 33088 44
TTS(36,50) 36 50 14 18 16 532 4414 47700 50
EOF
sed 1d params.out | awk '{ NF = 10; $1 = $1; print }' > params.got
if cmp -s params.got params.want; then
    pass "params lists the eight sets with the published m n v a b C sk pk sig"
else
    flunk "params lists the eight sets with the published m n v a b C sk pk sig"
    diff params.want params.got | diag
fi
head -n 1 params.out | grep -q '^name .*sk bytes.*pk bytes.*sig bytes.*keygen work$'
check $? "params starts with a header line"
# Key generation's workspace holds at least the synthesis products S and C
# ((2n + 1) n m bytes) and at most 16 KB more.
sed 1d params.out | awk '{ lo = (2 * $3 + 1) * $3 * $2; if ($11 < lo || $11 > lo + 16384) exit 1 }'
check $? "params gives a keygen workspace within 16 KB above (2n + 1) n m"

# ---- keygen -----------------------------------------------------------------
printf '0123456789abcdef0123456789ABCDEF' > seed
# a seed is as secret as a key: the same permission rule
chmod 644 seed
refuse "chmod 600 seed" "keygen --seed of a seed others may read: refused with the chmod" \
    "$TTS" keygen --seed seed -o alice
[ ! -e alice.sec ]
check $? "... and no key written"
chmod 600 seed
run 0 "keygen --seed writes a key pair" "$TTS" keygen --seed seed -o alice
run 0 "keygen with the same seed again" "$TTS" keygen --seed seed -o alice2
cmp -s alice.pub alice2.pub && cmp -s alice.sec alice2.sec
check $? "keygen --seed is deterministic"
[ "$(header alice.pub)" = "54 54 53 50 01 14 1c 00" ]
check $? "public key header: TTS P 1 20 28 0"
[ "$(header alice.sec)" = "54 54 53 53 02 14 1c 00" ]
check $? "secret key header: TTS S 2 20 28 0"
[ "$(size alice.pub)" = 8688 ] && [ "$(size alice.sec)" = 1439 ]
check $? "default set TTS(20,28): files are 8+8680 and 8+32+1399 bytes"
# the binding: bytes 8..39 of the secret key file are the SHA-256 of the
# public key (computed here by sha256sum, not by the tool)
[ "$(tail -c +9 alice.pub | sha256sum | cut -c1-64)" = \
  "$(od -An -tx1 -j8 -N32 alice.sec | tr -d ' \n')" ]
check $? "secret key file: bytes 8..39 are SHA-256 of the public key"
[ "$(mode alice.sec)" = "-rw-------" ]
check $? "secret key file has mode 600"

run 0 "keygen without a seed" "$TTS" keygen -o r1
run 0 "keygen without a seed, again" "$TTS" keygen -o r2
! cmp -s r1.sec r2.sec
check $? "keygen without a seed draws a fresh key each time"

# Every set: file sizes and header from the published table, and a round
# trip.
printf 'a message\n' > msg
while read -r name m n _v _a _b _c sk pk sig; do
    mx=$(printf '%02x' "$m") nx=$(printf '%02x' "$n")
    k=k$m-$n
    "$TTS" keygen --params "$name" --seed seed -o "$k" 2> err &&
        [ "$(size "$k.pub")" = $((8 + pk)) ] &&
        [ "$(size "$k.sec")" = $((40 + sk)) ] &&
        [ "$(header "$k.pub")" = "54 54 53 50 01 $mx $nx 00" ] &&
        [ "$(header "$k.sec")" = "54 54 53 53 02 $mx $nx 00" ] &&
        "$TTS" sign -k "$k.sec" -o "$k.sig" msg 2>> err &&
        [ "$(size "$k.sig")" = $((8 + sig)) ] &&
        [ "$(header "$k.sig")" = "54 54 53 47 01 $mx $nx 00" ] &&
        "$TTS" verify -p "$k.pub" -s "$k.sig" msg > out 2>> err &&
        [ "$(cat out)" = valid ]
    check $? "$name: keygen, sign, verify; files of 8+32+$sk, 8+$pk, 8+$sig bytes"
done < params.want

run 0 "--params accepts tts-16-22" "$TTS" keygen --params tts-16-22 -o small
[ "$(header small.pub)" = "54 54 53 50 01 10 16 00" ]
check $? "--params tts-16-22 makes a TTS(16,22) key"
run 0 "--params=20,26 (attached value) is accepted" \
    "$TTS" keygen --params=20,26 -o mid
refuse "unknown parameter set" "keygen --params with an unknown set" \
    "$TTS" keygen --params "TTS(17,23)" -o nope

head -c 31 seed > seed31 && chmod 600 seed31
refuse "32" "a 31-byte seed file is refused" "$TTS" keygen --seed seed31 -o s31
cat seed seed31 > seed63
chmod 600 seed31 seed63
refuse "32" "a 63-byte seed file is refused" "$TTS" keygen --seed seed63 -o s63
[ ! -e s31.pub ] && [ ! -e s31.sec ] && [ ! -e s63.sec ]
check $? "a refused seed writes no files"

cp alice.pub alice.pub.orig
refuse "already exists" "keygen refuses to overwrite an existing key pair" \
    "$TTS" keygen -o alice
grep -qF -- "--force" err && cmp -s alice.pub alice.pub.orig &&
    cmp -s alice.sec alice2.sec
check $? "the refusal suggests --force and leaves the files unchanged"
cp alice.sec forced.sec && chmod 644 forced.sec
run 0 "keygen --force replaces an existing pair" \
    "$TTS" keygen --force --seed seed -o forced
[ "$(mode forced.sec)" = "-rw-------" ] && cmp -s forced.sec alice.sec
check $? "--force resets a replaced secret key file to mode 600"

# ---- sign and verify --------------------------------------------------------
printf 'Pay Bob 100 euros.\n' > letter
run 0 "sign a file" "$TTS" sign -k alice.sec -o letter.sig letter
[ "$(size letter.sig)" = 36 ] &&
    [ "$(header letter.sig)" = "54 54 53 47 01 14 1c 00" ]
check $? "signature file: header TTS G 1 20 28 0 and 8+28 bytes"
run 0 "verify a valid signature" "$TTS" verify -p alice.pub -s letter.sig letter
[ "$(cat out)" = valid ]
check $? "verify prints \"valid\""

printf 'Pay Bob 900 euros.\n' > forged
run 1 "verify of a modified message exits 1" \
    "$TTS" verify -p alice.pub -s letter.sig forged
[ "$(cat out)" = "INVALID signature" ]
check $? "verify prints \"INVALID signature\""
cp letter.sig flipped.sig && flip flipped.sig 13
run 1 "a flipped signature byte exits 1" \
    "$TTS" verify -p alice.pub -s flipped.sig letter
"$TTS" keygen -o other 2> err
run 1 "a signature under another key of the same set exits 1" \
    "$TTS" verify -p other.pub -s letter.sig letter

# Standard input.
run 0 "sign from standard input via -" "$TTS" sign -k alice.sec -o stdin.sig - \
    < letter
run 0 "verify reads the message from -" \
    "$TTS" verify -p alice.pub -s stdin.sig - < letter
run 0 "sign with no operand reads standard input and writes standard output" \
    sh -c '"$1" sign -k alice.sec --armor < letter > piped.asc' sh "$TTS"
run 0 "verify with no operand reads standard input" \
    "$TTS" verify -p alice.pub -s piped.asc < letter
run 0 "the signature may come from standard input (-s -)" \
    sh -c '"$1" verify -p alice.pub -s - letter < letter.sig' sh "$TTS"
refuse "standard input" "two inputs from standard input are refused" \
    "$TTS" verify -p alice.pub -s - - < letter.sig
head -c 3000000 /dev/zero | tr '\0' 'x' > big
run 0 "sign a 3 MB message" "$TTS" sign -k alice.sec -o big.sig big
run 0 "verify a 3 MB message" "$TTS" verify -p alice.pub -s big.sig - < big

# Armor, alone and mixed with binary files.
run 0 "sign --armor" "$TTS" sign -k alice.sec --armor -o letter.asc letter
[ "$(sed -n 1p letter.asc)" = "-----BEGIN TTS SIGNATURE-----" ] &&
    [ "$(sed -n 2p letter.asc)" = "Params: TTS(20,28)" ] &&
    [ -z "$(sed -n 3p letter.asc)" ] &&
    [ "$(sed -n '$p' letter.asc)" = "-----END TTS SIGNATURE-----" ] &&
    [ "$(wc -l < letter.asc | tr -d ' ')" = 5 ]
check $? "armored signature: BEGIN, Params, blank, base64, END lines"
sed -n 4p letter.asc | base64 -d 2>/dev/null | od -An -tx1 -N8 |
    tr -s ' ' | sed 's/^ //; s/ $//' > hdr.got
[ "$(cat hdr.got)" = "54 54 53 47 01 14 1c 00" ]
check $? "the base64 text holds the binary form, header included"
run 0 "verify an armored signature" "$TTS" verify -p alice.pub -s letter.asc letter
run 0 "keygen --armor" "$TTS" keygen --armor --seed seed -o armored
[ "$(mode armored.sec)" = "-rw-------" ]
check $? "armored secret key file has mode 600"
sed '1,3d;$d' armored.pub > pub.b64
awk 'NR > 1 && prev != 64 { bad = 1 } { prev = length($0) }
     END { exit bad || prev > 64 || prev == 0 }' pub.b64
check $? "armor has 64 base64 characters a line, the last line shorter"
base64 -d < pub.b64 2>/dev/null | cmp -s - alice.pub
check $? "armored public key decodes to the binary public key"
run 0 "armored key, binary signature" \
    "$TTS" verify -p armored.pub -s letter.sig letter
run 0 "binary key, armored signature" \
    "$TTS" verify -p alice.pub -s letter.asc letter
run 0 "sign with an armored secret key" \
    "$TTS" sign -k armored.sec -o armsk.sig letter
run 0 "its signature verifies under the binary public key" \
    "$TTS" verify -p alice.pub -s armsk.sig letter
run 1 "an armored signature of a modified message exits 1" \
    "$TTS" verify -p armored.pub -s letter.asc forged
sed 's/$/\r/' letter.asc > crlf.asc
run 0 "armor with CR LF line ends is accepted" \
    "$TTS" verify -p alice.pub -s crlf.asc letter

# pubkey.
run 0 "pubkey recomputes the public key" "$TTS" pubkey -k alice.sec -o re.pub
cmp -s re.pub alice.pub
check $? "pubkey output equals keygen's public key"
run 0 "pubkey --armor to standard output" \
    sh -c '"$1" pubkey -k alice.sec --armor > re.asc' sh "$TTS"
cmp -s re.asc armored.pub
check $? "armored pubkey output equals keygen --armor's public key"
refuse "already exists" "pubkey refuses to overwrite without --force" \
    "$TTS" pubkey -k alice.sec -o re.pub
refuse "already exists" "sign refuses to overwrite without --force" \
    "$TTS" sign -k alice.sec -o letter.sig letter
run 0 "sign --force overwrites" "$TTS" sign -f -k alice.sec -o letter.sig letter

# ---- wrong set, wrong kind, malformed files --------------------------------
"$TTS" keygen --params "TTS(16,22)" --seed seed -o bob 2> err
"$TTS" sign -k bob.sec -o bob.sig letter 2> err
refuse "TTS(16,22)" "key and signature of different sets exit 2" \
    "$TTS" verify -p alice.pub -s bob.sig letter
grep -qF "TTS(20,28)" err
check $? "the message names both sets"
refuse "signature, expected a public key" "a signature given as public key" \
    "$TTS" verify -p letter.sig -s letter.sig letter
refuse "public key, expected a signature" "a public key given as signature" \
    "$TTS" verify -p alice.pub -s alice.pub letter
cp alice.pub pub.sec && chmod 600 pub.sec
refuse "public key, expected a secret key" "a public key given as secret key" \
    "$TTS" sign -k pub.sec letter

head -c 5 alice.pub > t5.pub
refuse "truncated" "a file shorter than the header" \
    "$TTS" verify -p t5.pub -s letter.sig letter
head -c 8687 alice.pub > t.pub
refuse "truncated" "a public key one byte short" \
    "$TTS" verify -p t.pub -s letter.sig letter
head -c 1406 alice.sec > t.sec && chmod 600 t.sec
refuse "truncated" "a truncated secret key" "$TTS" sign -k t.sec letter
{ cat alice.pub; printf 'x'; } > long.pub
refuse "too long" "a public key with a trailing byte" \
    "$TTS" verify -p long.pub -s letter.sig letter
{ cat alice.sec; head -c 1100000 /dev/zero; } > huge.sec && chmod 600 huge.sec
refuse "too large" "a secret key file over 1 MiB" "$TTS" sign -k huge.sec letter
head -c 2000000 /dev/zero > huge.pub
refuse "too large" "a public key file over 1 MiB" \
    "$TTS" verify -p huge.pub -s letter.sig letter
: > empty.pub
refuse "empty" "an empty public key file" \
    "$TTS" verify -p empty.pub -s letter.sig letter
: > empty.sig
refuse "empty" "an empty signature file" \
    "$TTS" verify -p alice.pub -s empty.sig letter
cp alice.pub magic.pub && poke magic.pub 0 125
refuse "not a TTS file" "a wrong magic" \
    "$TTS" verify -p magic.pub -s letter.sig letter
cp alice.pub kind.pub && poke kind.pub 3 130
refuse "kind" "an unknown kind byte" \
    "$TTS" verify -p kind.pub -s letter.sig letter
cp alice.pub kinds.pub && poke kinds.pub 3 107
refuse "signature, expected a public key" "header kind G given as public key" \
    "$TTS" verify -p kinds.pub -s letter.sig letter
cp alice.pub v2.pub && poke v2.pub 4 002
refuse "version" "format version 2" "$TTS" verify -p v2.pub -s letter.sig letter
cp alice.pub v0.pub && poke v0.pub 4 000
refuse "version" "format version 0" "$TTS" verify -p v0.pub -s letter.sig letter
cp alice.pub res.pub && poke res.pub 7 001
refuse "reserved" "a nonzero reserved byte" \
    "$TTS" verify -p res.pub -s letter.sig letter
cp alice.pub set.pub && poke set.pub 5 021
refuse "unknown parameter set" "an unknown (m,n) in the header" \
    "$TTS" verify -p set.pub -s letter.sig letter
cp alice.sec bad.sec && flip bad.sec 440
refuse "malformed secret key" "a secret key whose s1 is inconsistent (sign)" \
    "$TTS" sign -k bad.sec letter
refuse "malformed secret key" "... and the same key in pubkey" \
    "$TTS" pubkey -k bad.sec -o bad.pub
[ ! -e bad.pub ]
check $? "no public key is written for a malformed secret key"

# Armor defects.
awk 'NR == 4 { $0 = substr($0, 1, 10) "*" substr($0, 12) } { print }' \
    letter.asc > b64.asc
refuse "base64" "armor with a character outside base64" \
    "$TTS" verify -p alice.pub -s b64.asc letter
awk 'NR == 4 { $0 = substr($0, 1, 10) " " substr($0, 11) } { print }' \
    letter.asc > space.asc
refuse "base64" "armor with a space inside the base64" \
    "$TTS" verify -p alice.pub -s space.asc letter
awk 'NR == 4 { $0 = substr($0, 1, 44) } { print }' letter.asc > short.asc
refuse "truncated" "armor whose base64 is cut short" \
    "$TTS" verify -p alice.pub -s short.asc letter
sed '$s/SIGNATURE/PUBLIC KEY/' letter.asc > label.asc
refuse "END line" "armor with mismatched BEGIN and END labels" \
    "$TTS" verify -p alice.pub -s label.asc letter
sed '1s/SIGNATURE/PRIVATE THING/' letter.asc > unk.asc
refuse "BEGIN" "armor with an unknown label" \
    "$TTS" verify -p alice.pub -s unk.asc letter
refuse "signature, expected a public key" "armored signature given as key" \
    "$TTS" verify -p letter.asc -s letter.asc letter
sed '$d' letter.asc > noend.asc
refuse "END" "armor without an END line" \
    "$TTS" verify -p alice.pub -s noend.asc letter
sed 's/^Params: TTS(20,28)$/Params: TTS(16,22)/' letter.asc > params.asc
refuse "Params" "armor whose Params line disagrees with the header" \
    "$TTS" verify -p alice.pub -s params.asc letter
sed '2d' letter.asc > noparams.asc
refuse "Params" "armor without a Params line" \
    "$TTS" verify -p alice.pub -s noparams.asc letter
{ cat letter.asc; echo "trailing"; } > trail.asc
refuse "after the END" "armor with data after the END line" \
    "$TTS" verify -p alice.pub -s trail.asc letter
{ head -n 3 letter.asc; printf 'VFRT\000'; sed 1,3d letter.asc; } > nul.asc
refuse "NUL" "armor with a NUL byte" "$TTS" verify -p alice.pub -s nul.asc letter
{ head -n 3 letter.asc; sed -n 4p letter.asc | cut -c1-20;
  sed -n 4p letter.asc | cut -c21-; sed 1,4d letter.asc; } > wrap.asc
run 0 "armor wrapped at another line length is accepted" \
    "$TTS" verify -p alice.pub -s wrap.asc letter

# ---- paths ------------------------------------------------------------------
mkdir adir
refuse "directory" "a directory as public key" \
    "$TTS" verify -p adir -s letter.sig letter
refuse "directory" "a directory as message" \
    "$TTS" verify -p alice.pub -s letter.sig adir
refuse "directory" "a directory as message to sign" \
    "$TTS" sign -k alice.sec adir
refuse "No such file" "a public key path that does not exist" \
    "$TTS" verify -p missing.pub -s letter.sig letter
refuse "No such file" "a message path that does not exist" \
    "$TTS" sign -k alice.sec -o m.sig missing.txt
[ ! -e m.sig ]
check $? "no signature is written when the message is missing"
if [ "$(id -u)" = 0 ]; then
    skip "an unreadable (mode 000) key file" "running as root"
else
    cp alice.pub locked.pub && chmod 000 locked.pub
    refuse "Permission denied" "an unreadable (mode 000) key file" \
        "$TTS" verify -p locked.pub -s letter.sig letter
fi
refuse "/nonexistent/dir/x.sig" "sign to an unwritable path" \
    "$TTS" sign -k alice.sec -o /nonexistent/dir/x.sig letter
refuse "/nonexistent/dir/x" "keygen to an unwritable path" \
    "$TTS" keygen -o /nonexistent/dir/x
refuse "/nonexistent/dir/x.pub" "pubkey to an unwritable path" \
    "$TTS" pubkey -k alice.sec -o /nonexistent/dir/x.pub
cp alice.sec open.sec && chmod 640 open.sec
refuse "chmod 600" "a group-readable secret key is refused with a chmod hint" \
    "$TTS" sign -k open.sec letter
grep -qF "open.sec" err
check $? "the chmod hint names the file"
chmod 604 open.sec
refuse "chmod 600" "a world-readable secret key is refused" \
    "$TTS" pubkey -k open.sec
chmod 600 open.sec
run 0 "after chmod 600 the key is accepted" "$TTS" sign -k open.sec -o ok.sig letter

# ---- convert: the file format and raw bytes ----------------------------------
"$TTS" keygen -o cv 2>/dev/null && printf 'x' >cv.msg && "$TTS" sign -k cv.sec -o cv.sig cv.msg
for k in pub sec sig; do
    run 0 "convert --raw of the .$k file" "$TTS" convert --raw -o cv.$k.raw cv.$k
done
# the raw bytes are the file's from byte 8 (40 for a secret key)
tail -c +9 cv.pub | cmp -s - cv.pub.raw && tail -c +41 cv.sec | cmp -s - cv.sec.raw &&
    tail -c +9 cv.sig | cmp -s - cv.sig.raw && [ "$(stat -c %a cv.sec.raw)" = 600 ]
check $? "... the raw bytes are the payloads (the secret key's mode 0600)"
for k in pub sec sig; do
    run 0 "convert of raw .$k bytes with --params" "$TTS" convert --params "TTS(20,28)" -o cv2.$k cv.$k.raw
    cmp -s cv2.$k cv.$k
    check $? "... gives the .$k file back byte for byte (the binding recomputed)"
done
run 0 "convert --armor of a raw signature" "$TTS" convert --params 20,28 --armor -o cv.asc cv.sig.raw
run 0 "... verifies against the raw-converted public key" "$TTS" verify -p cv2.pub -s cv.asc cv.msg
refuse "raw bytes need --params" "convert of raw bytes without --params: exit 2" \
    "$TTS" convert -o x cv.pub.raw
refuse "8680 bytes are no key or signature of TTS(16,22)" \
    "convert of raw bytes of another set's size: exit 2" \
    "$TTS" convert --params 16,22 -o x cv.pub.raw
refuse "holds a TTS(20,28) public key, not TTS(16,22)" \
    "convert of a file with another --params: exit 2" \
    "$TTS" convert --params 16,22 -o x cv.pub
# (s1[0], at m^2 = 400: the check s1 = F(A3 s3) sees any change there,
# whatever the key)
cp cv.sec.raw bad.raw && flip bad.raw 400 && chmod 600 bad.raw
refuse "malformed secret key" "convert of a corrupted raw secret key: exit 2" \
    "$TTS" convert --params 20,28 --kind sk -o x bad.raw
chmod 644 cv.sec.raw
refuse "chmod 600" "convert of a raw secret key others may read: exit 2" \
    "$TTS" convert --params 20,28 -o x cv.sec.raw
refuse "exclude each other" "convert --raw --armor: exit 2" \
    "$TTS" convert --raw --armor -o x cv.pub
[ ! -e x ]
check $? "... and no output written by any refusal"

# ---- command line -----------------------------------------------------------
refuse "unknown command" "an unknown command exits 2" "$TTS" frobnicate
[ "$(wc -l <err)" -eq 2 ] && grep -q "unknown command 'frobnicate'" err &&
    grep -q "see 'tts --help'" err
check $? "... names it in one line and points to --help"
refuse "unknown option" "an unknown global option exits 2" "$TTS" --frobnicate
refuse "unknown option" "an unknown command option exits 2" \
    "$TTS" sign --frobnicate -k alice.sec letter
refuse "unknown option" "an unknown short option exits 2" \
    "$TTS" verify -x -p alice.pub -s letter.sig letter
refuse "needs a value" "an option without its value exits 2" \
    "$TTS" sign letter -k
refuse "-k" "sign without -k exits 2" "$TTS" sign letter
refuse "-s" "verify without -s exits 2" "$TTS" verify -p alice.pub letter
refuse "-o" "keygen without -o exits 2" "$TTS" keygen
refuse "more than one" "sign with two files exits 2" \
    "$TTS" sign -k alice.sec letter forged
refuse "unexpected argument" "params with an operand exits 2" "$TTS" params x
refuse "takes no value" "a switch given a value exits 2" \
    "$TTS" sign --armor=yes -k alice.sec letter
refuse "no command" "no command at all exits 2" "$TTS"
run 0 "options after the operand are accepted" \
    "$TTS" verify letter -s letter.sig -p alice.pub
for h in --help help -h; do
    run 0 "tts $h exits 0" "$TTS" $h
    missing=
    for c in params keygen sign verify pubkey; do
        grep -q "^  $c" out || missing="$missing $c"
    done
    [ -z "$missing" ]
    check $? "tts $h mentions every command${missing:+ (missing:$missing)}"
done
run 0 "sign --help exits 0" "$TTS" sign --help
run 0 "--version exits 0" "$TTS" --version
grep -qF "$(sed -n 's/^#define TTS_VERSION_STRING "\(.*\)"$/\1/p' "$srcdir/include/tts.h")" out
check $? "--version shows the version"
TTS_BACKEND=ref "$TTS" --version > out 2> err && grep -q 'backend ref' out
check $? "TTS_BACKEND=ref selects the reference backend"
TTS_BACKEND=ref "$TTS" sign -k alice.sec -o ref.sig letter 2> err &&
    "$TTS" verify -p alice.pub -s ref.sig letter > out 2> err
check $? "a reference-backend signature verifies under the default backend"

# ---- the published known-answer tests --------------------------------------
# Entry 0 of the TTS(16,22) KAT, wrapped in file headers by hand: the tool
# must agree with the NIST API on keys, digest and signature layout.
kat="$srcdir/kat/PQCsignKAT_tts-16-22.rsp"
if ! command -v xxd > /dev/null 2>&1; then
    skip "KAT entry 0 cross-checks" "xxd not found"
elif [ ! -r "$kat" ]; then
    skip "KAT entry 0 cross-checks" "$kat not found"
else
    field() { awk -v k="$1" '$1 == k { print $3; exit }' "$kat"; }
    smlen=$(field smlen) mlen=$(field mlen)
    field msg | xxd -r -p > kat.msg
    { printf 'TTS\120\001\020\026\000'; field pk | xxd -r -p; } > kat.pub
    { printf 'TTS\123\001\020\026\000'; field sk | xxd -r -p; } > kat.sec
    chmod 600 kat.sec
    { printf 'TTS\107\001\020\026\000'; field sm | xxd -r -p |
        tail -c $((smlen - mlen)); } > kat.sig
    run 0 "KAT entry 0: the published signature verifies" \
        "$TTS" verify -p kat.pub -s kat.sig kat.msg
    printf 'x' >> kat.msg
    run 1 "KAT entry 0: ... and not on a longer message" \
        "$TTS" verify -p kat.pub -s kat.sig kat.msg
    # the hand-made file is format 1 (no public-key binding): bound first
    run 0 "KAT entry 0: upgrade-key binds the published secret key to its public key" \
        "$TTS" upgrade-key -k kat.sec -p kat.pub -o katb.sec
    "$TTS" pubkey -k katb.sec -o kat2.pub 2> err && cmp -s kat.pub kat2.pub
    check $? "KAT entry 0: pubkey recomputes the published public key"
    "$TTS" sign -k katb.sec -o kat2.sig letter 2> err &&
        "$TTS" verify -p kat.pub -s kat2.sig letter > out 2> err
    check $? "KAT entry 0: a new signature by the published key verifies"
fi

tap_end
