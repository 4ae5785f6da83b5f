#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-challenge: reproducible instances, solution verification, reveal-check
# and the security estimates against an independent big-integer computation.
# top_builddir locates tts-challenge and tts; python3 is needed for the
# independent computations (those checks are skipped without it).
set -u
: "${top_builddir:=.}"
TC=$top_builddir/tts-challenge
TTS=${TTS:-$top_builddir/tts}
EC=${srcdir:-.}/tests/estimate_check.py
HC=${srcdir:-.}/tests/hostile_challenge.sh
. "${srcdir:-.}/tests/tap_lib.sh"
tap_abs TC TTS EC HC
tap_real TC TTS
if [ ! -x "$TC" ] || [ ! -x "$TTS" ]; then
    echo "not ok 1 - tts-challenge or tts not found ($TC, $TTS)"
    exit 99
fi
tap_enter
PY=
command -v python3 >/dev/null 2>&1 && PY=python3

# --- generate ---------------------------------------------------------------
printf '0123456789abcdef0123456789abcdef' >master
printf 'fedcba9876543210fedcba9876543210' >wrong
cp master open && chmod 644 open && chmod 600 master wrong
run 2 "generate --master-seed of a seed others may read: refused" "$TC" \
    generate --params 16,22 --master-seed open --date 2026-12-02 --out g0
grep -q 'chmod 600 open' err && [ ! -e g0 ]
check $? "... with the chmod, and nothing written"
run 0 "generate" "$TC" generate --params tts-16-22,20,26 --instances 3 \
    --master-seed master --date 2026-12-02 --secret-out g1.secret --out g1
run 0 "generate again with the same master seed" "$TC" generate \
    --params 16,22,tts-20-26 --instances 3 --master-seed master \
    --date 2026-12-02 --out g2
diff -r g1 g2 >/dev/null 2>&1
check $? "the two trees are byte-identical"
[ -f g1/tts-16-22/pk.tts ] && [ -f g1/tts-16-22/pk.asc ] &&
    [ -f g1/tts-20-26/manifest.json ] && [ -f g1/tts-16-22/msg-3.txt ] &&
    [ -f g1/tts-16-22/msg-3.digest ] && [ ! -e g1/tts-20-28 ]
check $? "folders hold keys, messages, digests and manifests"
[ "$(stat -c %a g1.secret 2>/dev/null)" = 600 ] &&
    cmp -s master g1.secret && [ ! -e g1/master-seed.secret ] &&
    [ "$(ls g1)" = "index.json
tts-16-22
tts-20-26" ]
check $? "master seed kept outside the folder with mode 0600; the folder holds the index and the instances only"
[ "$(wc -c <g1/tts-16-22/msg-2.digest)" -eq 16 ]
check $? "digests hold m bytes"
grep -q 'issued: 2026-12-02' g1/tts-16-22/msg-1.txt &&
    grep -q 'TTS(16,22)' g1/tts-16-22/msg-1.txt &&
    grep -q 'message: 1 of 3' g1/tts-16-22/msg-1.txt
check $? "messages name dimension, instance and date"
run 0 "generate --discard-secret" "$TC" generate --params 16,22 \
    --master-seed master --date 2026-12-02 --discard-secret --out g3
[ ! -e g3/master-seed.secret ] && cmp -s g1/tts-16-22/pk.tts g3/tts-16-22/pk.tts
check $? "--discard-secret writes no secret, same key"
run 0 "generate with a random master seed" "$TC" generate --params 16,22 \
    --instances 1 --date 2026-12-02 --secret-out g4.secret --out g4
cmp -s g1/tts-16-22/pk.tts g4/tts-16-22/pk.tts
[ $? -ne 0 ] && [ "$(wc -c <g4.secret)" -eq 32 ]
check $? "random master seed gives another key"
run 2 "generate without --date refused" "$TC" generate --params 16,22 \
    --master-seed master --out g5
run 2 "generate with a bad date refused" "$TC" generate --params 16,22 \
    --master-seed master --date 2026-13-01 --out g5
run 2 "generate into an existing challenge refused" "$TC" generate \
    --params 16,22 --master-seed master --date 2026-12-02 --out g1
printf 'short' >short && chmod 600 short
run 2 "short master seed refused" "$TC" generate --params 16,22 \
    --master-seed short --date 2026-12-02 --out g6
run 2 "unknown set refused" "$TC" generate --params 17,22 \
    --master-seed master --date 2026-12-02 --out g7

# --- a genuine signature from the recomputed instance secret ----------------
if [ -n "$PY" ]; then
    $PY -c '
import hashlib, sys
m = open("master", "rb").read()
open("iseed", "wb").write(hashlib.sha512(b"libtts challenge instance" + m
                                         + b"TTS(16,22)").digest()[:32])
c = hashlib.sha512(b"libtts challenge commitment"
                   + open("iseed", "rb").read()).hexdigest()
man = open("g1/tts-16-22/manifest.json").read()
pk = open("g1/tts-16-22/pk.tts", "rb").read()[8:]
sys.exit(0 if c in man and hashlib.sha256(pk).hexdigest() in man else 1)'
    check $? "manifest commitment and pk hash match an independent SHA-512"
    chmod 600 iseed
    run 0 "tts keygen from the instance seed" "$TTS" keygen --params 16,22 \
        --seed iseed -o inst
    cmp -s inst.pub g1/tts-16-22/pk.tts
    check $? "instance seed reproduces the published public key"
    run 0 "sign challenge message 2" "$TTS" sign -k inst.sec -o sol \
        g1/tts-16-22/msg-2.txt
    run 0 "sign armored" "$TTS" sign -k inst.sec --armor -o sol.asc \
        g1/tts-16-22/msg-2.txt
    run 0 "genuine solution VALID" "$TC" verify g1 sol --message 2
    grep -q '^VALID' out
    check $? "prints VALID"
    run 0 "armored solution VALID" "$TC" verify g1 sol.asc --message 2
    run 1 "solution for another message INVALID" "$TC" verify g1 sol \
        --message 1
    grep -q '^INVALID' out
    check $? "prints INVALID"
    # every byte of the signature payload (offsets 8..29) altered
    bad=0
    $PY -c '
b = open("sol", "rb").read()
for i in range(8, 30):
    f = bytearray(b); f[i] ^= 0x01 << (i % 8)
    open("flip%d" % i, "wb").write(f)'
    i=8
    while [ $i -lt 30 ]; do
        [ -f flip$i ] || bad=1
        "$TC" verify g1 flip$i --message 2 >/dev/null 2>&1
        [ $? -eq 1 ] || bad=1
        i=$((i + 1))
    done
    check $bad "every flipped signature byte INVALID (exit 1)"
    # every byte of the message altered (in a copy of the tree)
    rm -rf alt && cp -r g1 alt
    $PY -c '
import subprocess, sys
p = "alt/tts-16-22/msg-2.txt"
orig = open(p, "rb").read()
for i in range(len(orig)):
    b = bytearray(orig); b[i] ^= 0x01 << (i % 8)
    open(p, "wb").write(b)
    r = subprocess.call([sys.argv[1], "verify", "alt", "sol", "--message",
                         "2"], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
    if r != 2:
        print("# message byte", i, "exit", r); sys.exit(1)
open(p, "wb").write(orig)
sys.exit(subprocess.call([sys.argv[1], "verify", "alt", "sol", "--message",
                          "2"], stdout=subprocess.DEVNULL))' "$TC"
    check $? "every altered message byte refused (exit 2: its digest is not the manifest's), the original VALID"
    head -c 20 sol >trunc
    run 2 "truncated solution refused (exit 2)" "$TC" verify g1 trunc \
        --message 2
    printf 'garbage that is no signature at all\n' >junk
    run 2 "malformed solution refused" "$TC" verify g1 junk --message 2
    $PY -c '
b = bytearray(open("sol", "rb").read()); b[5] = 36; b[6] = 50
open("other", "wb").write(b)'
    run 2 "solution for a set without challenge refused" "$TC" verify g1 \
        other --message 2
    run 2 "missing message refused" "$TC" verify g1 sol --message 9
    run 2 "message 0 refused" "$TC" verify g1 sol --message 0
    run 2 "verify without --message refused" "$TC" verify g1 sol
    run 2 "public key (not a signature) refused" "$TC" verify g1 \
        g1/tts-16-22/pk.tts --message 2
else
    skip "genuine solution checks" "python3 not found"
fi

# --- reveal-check -----------------------------------------------------------
run 0 "reveal-check with the right seed" "$TC" reveal-check g1 master
grep -q '^OK: 2 of 2' out
check $? "both instances match"
run 1 "reveal-check with a wrong seed" "$TC" reveal-check g1 wrong
grep -q MISMATCH out
check $? "reports MISMATCH"
run 2 "reveal-check with a short seed" "$TC" reveal-check g1 short
run 2 "reveal-check of an empty folder" "$TC" reveal-check g6x master
rm -rf alt && cp -r g1 alt &&
    cp g4/tts-16-22/pk.tts alt/tts-16-22/pk.tts
run 1 "reveal-check detects a swapped public key" "$TC" reveal-check \
    alt master

# --- hostile files and paths: exit 2 and a message naming the problem ------
# refuse WORD DESC CMD...: exit 2 and WORD (a fixed string) on stderr
refuse() {
    word=$1 desc=$2
    shift 2
    "$@" >out 2>err
    got=$?
    if [ "$got" = 2 ] && grep -qF -- "$word" err; then pass "$desc"; else
        flunk "$desc (exit $got, expected 2 and \"$word\")"
        sed 's/^/#   /' out err
    fi
}
mkdir adir
: >empty && chmod 600 empty
ln -s loop loop
head -c 2000000 /dev/zero >huge
refuse "directory" "master seed that is a directory" "$TC" generate \
    --params 16,22 --master-seed adir --date 2026-12-02 --out h1
refuse "fewer" "empty master seed" "$TC" generate --params 16,22 \
    --master-seed empty --date 2026-12-02 --out h1
refuse "loop" "master seed path that is a symlink loop" "$TC" generate \
    --params 16,22 --master-seed loop --date 2026-12-02 --out h1
refuse "No such file" "missing master seed" "$TC" generate --params 16,22 \
    --master-seed nonexistent --date 2026-12-02 --out h1
for k in 0 -1 1001 abc; do
    refuse "instances" "--instances $k refused" "$TC" generate \
        --params 16,22 --instances $k --master-seed master \
        --date 2026-12-02 --out h1
done
refuse "nodir" "--out inside a missing directory" "$TC" generate \
    --params 16,22 --master-seed master --date 2026-12-02 --out nodir/h1
refuse "master" "--out that is an existing file" "$TC" generate \
    --params 16,22 --master-seed master --date 2026-12-02 --out master
[ ! -e h1 ] && [ ! -e nodir ]
check $? "refused generate runs leave no folder behind"
refuse "directory" "solution that is a directory" "$TC" verify g1 adir \
    --message 1
refuse "empty" "empty solution" "$TC" verify g1 empty --message 1
refuse "too large" "2 MB solution" "$TC" verify g1 huge --message 1
refuse "loop" "solution path that is a symlink loop" "$TC" verify g1 loop \
    --message 1
"$TTS" keygen --params 16,22 --seed master -o hk >/dev/null 2>&1 &&
    "$TTS" sign -k hk.sec -o hsig master >/dev/null 2>&1
refuse "No such file" "challenge folder that does not exist" "$TC" verify \
    nowhere hsig --message 1
if [ -f sol.asc ]; then
    { head -n 3 sol.asc; printf 'VFRT\000'; sed 1,3d sol.asc; } >nul.asc
    refuse "NUL" "armored solution with a NUL byte" "$TC" verify g1 nul.asc \
        --message 2
fi
rm -rf nul && cp -r g1 nul && printf '\000' >>nul/tts-16-22/manifest.json
run 1 "reveal-check: manifest with a NUL byte is a difference" "$TC" \
    reveal-check nul master
grep -q 'nul/tts-16-22/manifest.json: differs' out
check $? "... naming the manifest"
[ -f sol ] && refuse "NUL" "verify: manifest with a NUL byte" "$TC" verify \
    nul sol --message 2
rm -rf bad && cp -r g1 bad &&
    sed 's/"commitment": "\([0-9a-f]*\)[0-9a-f]"/"commitment": "\1X"/' \
        g1/tts-16-22/manifest.json >bad/tts-16-22/manifest.json
run 1 "reveal-check: a malformed commitment is a difference" "$TC" \
    reveal-check bad master
[ -f sol ] && refuse "commitment" "verify: manifest with a malformed commitment" \
    "$TC" verify bad sol --message 2
refuse "directory" "revealed seed that is a directory" "$TC" reveal-check \
    g1 adir
if [ "$(id -u)" = 0 ]; then
    skip "unreadable (mode 000) master seed" "running as root (the symlink loop above covers an unreadable path)"
else
    cp master locked && chmod 000 locked
    refuse "Permission denied" "unreadable (mode 000) master seed" "$TC" \
        generate --params 16,22 --master-seed locked --date 2026-12-02 \
        --out h1
fi
refuse "unexpected" "estimate with an unknown option" "$TC" estimate --bogus
refuse "params" "estimate --params without a value" "$TC" estimate --params

# --- estimate ---------------------------------------------------------------
run 0 "estimate" "$TC" estimate
[ "$(grep -c '^TTS(' out)" -eq 8 ]
check $? "estimate prints all eight sets"
grep -q '^TTS(36,50) *128 *36000' out
check $? "claimed bits and prize from the challenge table"
run 0 "estimate --json" "$TC" estimate --json --params 16,22,tts-36-50
cp out est.json
run 0 "dreg 16 16" "$TC" dreg 16 16
[ "$(cat out)" = "17 18" ]
check $? "D_reg(m, m) = m + 1 ((1-z^2)^m/(1-z)^m = (1+z)^m), series 0 there: solver m + 2"
run 0 "dreg 16 12" "$TC" dreg 16 12
[ "$(cat out)" = "5 5" ]
check $? "D_reg(16, 12) = 5, series negative there: solver degree 5"
if [ -n "$PY" ]; then
    $PY "$EC" hybrid "$TC" est.json
    check $? "D_reg and hybrid costs match an independent computation"
    $PY "$EC" dreg-n1 "$TC"
    check $? "D_reg(n+1, n) = ceil((n+2)/2) for n = 2..59"
    $PY "$EC" solver "$TC"
    check $? "solver degree matches an independent series for 1 <= NV <= M <= 40"
    run 0 "estimate --json all" "$TC" estimate --json
    cp out estall.json
    $PY "$EC" structural estall.json
    check $? "structural attack costs match an independent computation"
else
    skip "independent estimate check" "python3 not found"
fi
# --- structure: the toy MinRank attack ----------------------------------------
echo 5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a >toy.seed
S=toy.seed
run 0 "structure: toy key (4,5,3) broken" "$TC" structure --seed $S
[ "$(grep -c 'matches the secret' out)" = 2 ] && grep -q 'not a challenge key' out
check $? "structure: span and kernel recovered and checked against the secret"
run 1 "structure: the TTS(16,22) shape does not fall in 2000 tries" "$TC" \
    structure --seed $S --size 6,7,7 --tries 2000
[ "$(grep -c 'does NOT match the secret' out)" = 2 ]
check $? "structure: a failed recovery is reported as a mismatch"
run 2 "structure: odd v refused" "$TC" structure --size 5,7,3
printf 'ZZ' >short.seed
run 2 "structure: short seed refused" "$TC" structure --seed short.seed
printf 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' >raw.seed
run 0 "structure: a raw 32-byte seed file" "$TC" structure --seed raw.seed
run 2 "estimate of an unknown set refused" "$TC" estimate --params 99,99
run 2 "unknown command refused" "$TC" frobnicate

. "$HC"

tap_end
