#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile files and a careless user against tts and tts-card:
# corrupted keys never sign, nothing hangs, no key is ever lost, nothing
# is written through a symbolic link or over an input, and the messages
# say what is wrong. The challenge folder's part is in
# tests/hostile_challenge.sh. Needs strace (signals injected at chosen
# system calls) and python3; the card parts need the 8051 images.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
TTS=${TTS:-$top_builddir/tts}
TCARD=$top_builddir/tts-card
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS TCARD
CARD_DIR=$(cd "$top_builddir/8051" 2>/dev/null && pwd)
FAKE=$(cd "$srcdir/tests" && pwd)/fake_s51.py
for tool in strace python3 timeout; do
    command -v $tool >/dev/null 2>&1 || { echo "not ok 1 - $tool is needed"; exit 99; }
done
tap_enter
chmod 755 "$dir"
# refuse TEXT DESC CMD...: exit 2 and TEXT on stderr (a hang guard of 300 s of
# wall time: a card run is bounded by its CPU time, TTS_CARD_TIMEOUT)
refuse() {
    text=$1 desc=$2
    shift 2
    timeout 300 "$@" >out 2>err
    got=$?
    if [ "$got" = 2 ] && grep -qF -- "$text" err; then pass "$desc"; else
        flunk "$desc (exit $got, expected 2 and \"$text\")"
        sed 's/^/#   /' err
    fi
}
# a pair is whole: the secret key loads and gives the public key beside it
whole() { "$TTS" pubkey -k "$1.sec" -o "$1.chk" --force 2>/dev/null && cmp -s "$1.pub" "$1.chk"; }
same() { cmp -s "$1" "$2"; }
# kill CALL N CMD...: run CMD with SIGKILL injected at the N-th CALL
kill_at() {
    call=$1 n=$2
    shift 2
    strace -f -qq -o /dev/null -e trace="$call" -e inject="$call:signal=SIGKILL:when=$n" "$@" >/dev/null 2>&1
}

printf 'a message\n' >msg
# a fixed key: the single-bit case below must keep S1 invertible
printf 'hostile files test seed, 32 B..!' >a.seed && chmod 600 a.seed
"$TTS" keygen --seed a.seed -o a 2>err
check $? "keygen"

# --- 2. a corrupted secret key never signs -----------------------------------
# one bit flipped in the header, the public-key binding, S1, s1 and the last
# byte: refused, nothing written (every byte of every set is flipped in
# process by tests/test_file)
python3 - "$TTS" <<'PY' >flips.log 2>&1
import os, subprocess, sys
tts = sys.argv[1]
orig = open("a.sec", "rb").read()
bad = []
at = [3, 5, 20, 40, 41 + 400, len(orig) - 1]
for i in at:
    b = bytearray(orig); b[i] ^= 1 << (i % 8)
    open("f.sec", "wb").write(b); os.chmod("f.sec", 0o600)
    r = subprocess.run([tts, "sign", "-k", "f.sec", "-o", "f.sig", "msg"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode != 2 or os.path.exists("f.sig"):
        bad.append(i)
        if os.path.exists("f.sig"): os.unlink("f.sig")
print("flips at", at, "accepted at", bad)
sys.exit(1 if bad else 0)
PY
check $? "one-bit flips of a TTS(20,28) secret key file: exit 2, no signature ($(cat flips.log))"
python3 -c '
b = bytearray(open("a.sec","rb").read()); b[40 + 5] ^= 4; open("s1.sec","wb").write(b)'
chmod 600 s1.sec
refuse "does not match the public key it is bound to" \
    "the issue's case: one bit of S1 (invertible still) is named as corruption" \
    "$TTS" sign -k s1.sec -o s1.sig msg
[ ! -e s1.sig ]
check $? "... and no signature file"
# a fault while signing: tts_sign_digest made to return a wrong signature
if [ "${SANITIZED:-no}" = yes ]; then
    skip "a faulty signature is never written" "LD_PRELOAD under the sanitizers"
elif cat >fault.c <<'C' && ${CC:-cc} -shared -fPIC -o fault.so fault.c -ldl 2>err
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
typedef int (*fn)(const void *, uint8_t *, const uint8_t *, const uint8_t *,
                  void *, void *);
int tts_sign_digest(const void *p, uint8_t *sig, const uint8_t *h,
                    const uint8_t *sk, void *rng, void *ctx)
{
    int rc = ((fn)dlsym(RTLD_NEXT, "tts_sign_digest"))(p, sig, h, sk, rng, ctx);
    sig[3] ^= 0x10; /* the fault */
    return rc;
}
C
then
    LD_PRELOAD=$dir/fault.so "$TTS" sign -k a.sec -o fault.sig msg >out 2>err
    [ $? = 2 ] && [ ! -e fault.sig ] && grep -q 'does not verify' err
    check $? "a faulty signature is caught before it is written (exit 2)"
    LD_PRELOAD=$dir/fault.so "$TTS" sign --no-verify -k a.sec -o fault.sig msg 2>err &&
        ! "$TTS" verify -p a.pub -s fault.sig msg >/dev/null 2>&1
    check $? "... and --no-verify skips the check (the fault injection is real)"
else
    skip "a faulty signature is never written" "no C compiler for the fault library"
fi

# --- 3. nothing hangs --------------------------------------------------------
mkfifo fifo
refuse "FIFO" "-k a FIFO without a writer" "$TTS" sign -k fifo msg
refuse "FIFO" "-s a FIFO" "$TTS" verify -p a.pub -s fifo msg
refuse "FIFO" "-p a FIFO" "$TTS" verify -p fifo -s x msg
refuse "FIFO" "the message a FIFO" "$TTS" sign -k a.sec -o f.sig fifo
"$TTS" sign -k a.sec -o a.sig msg 2>err
refuse "device" "verify ... /dev/zero (with a real signature)" \
    "$TTS" verify -p a.pub -s a.sig /dev/zero
timeout 300 "$TTS" verify --max-bytes 1000000 -p a.pub -s a.sig - </dev/zero >out 2>err
[ $? = 2 ] && grep -q 'longer than --max-bytes' err
check $? "a stream on standard input is bounded by --max-bytes"
head -c 100 /dev/zero | "$TTS" sign --max-bytes 100 -k a.sec -o mb.sig - 2>err
check $? "--max-bytes N accepts N bytes"
refuse "positive" "--max-bytes 0 refused" "$TTS" sign --max-bytes 0 -k a.sec msg

# --- 4. no key is ever lost -------------------------------------------------
for call in write fsync rename link; do
    for n in 1 2 3; do
        rm -f k.sec k.pub
        kill_at $call $n "$TTS" keygen -o k
        # neither, or both whole, or (SIGKILL between the two renames) the
        # secret key alone, whole
        if [ ! -e k.sec ] && [ ! -e k.pub ]; then r=0
        elif [ -e k.pub ] && [ -e k.sec ] && whole k; then r=0
        elif [ ! -e k.pub ] && "$TTS" pubkey -k k.sec -o k.pub 2>/dev/null; then r=0
        else r=1; fi
        check $r "keygen killed (SIGKILL) at $call #$n: no part of a key left behind"
    done
done
"$TTS" keygen -o old 2>/dev/null && cp old.sec old.sec.orig && cp old.pub old.pub.orig
for call in write fsync link rename; do
    for n in 1 2 3 4; do
        kill_at $call $n "$TTS" keygen --force -o old
        # the old pair, or the new pair, or the old secret key whole
        if same old.sec old.sec.orig && same old.pub old.pub.orig; then r=0
        elif whole old; then r=0
        elif same old.sec old.sec.orig; then r=0
        else r=1; fi
        check $r "keygen --force killed at $call #$n: a whole secret key survives"
        cp old.sec.orig old.sec && cp old.pub.orig old.pub
    done
done
# two keygen --force -o k at once: A stopped between its two renames (the
# signal comes as its first rename returns), B runs meanwhile; the pair
# left is one run's, never a mix
"$TTS" keygen -o race 2>/dev/null
ino=$(stat -c %i race.pub)
strace -f -qq -o /dev/null -e trace=rename -e inject=rename:signal=SIGSTOP:when=1 \
    "$TTS" keygen --force -o race >/dev/null 2>&1 &
sa=$!
# bounded waits: A's first file renamed and A stopped (seen twice); then B
# finished or waiting for A (its lock blocked, in /proc/locks)
a=""
stopped() { grep -q '^State:.*[Tt] (' /proc/$1/status 2>/dev/null; }
for i in $(seq 1 200); do
    a=$(pgrep -P $sa | head -n 1)
    [ -n "$a" ] && [ "$(stat -c %i race.pub)" != "$ino" ] && stopped $a &&
        sleep 0.1 && stopped $a && break
    a=""
    sleep 0.05
done
timeout 20 "$TTS" keygen --force -o race >/dev/null 2>&1 &
sb=$!
for i in $(seq 1 200); do
    kill -0 $sb 2>/dev/null || break
    b=$(pgrep -P $sb | head -n 1)
    [ -n "$b" ] && grep -q -- "-> FLOCK.* $b " /proc/locks 2>/dev/null && break
    sleep 0.05
done
[ -n "$a" ] && kill -CONT "$a"
wait $sb
wait $sa
[ -n "$a" ] && whole race
check $? "two keygen --force -o k at once (one stopped between its renames): the pair is whole"
# SIGTERM while the pair is committed waits for the pair
strace -f -qq -o /dev/null -e trace=write -e inject=write:signal=SIGTERM:when=2 \
    "$TTS" keygen -o term >/dev/null 2>&1
whole term
check $? "keygen interrupted (SIGTERM) at its second write: the pair is whole"
# --force does not follow a symbolic link
echo precious >victim && chmod 644 victim && ln -s victim l.sec
"$TTS" keygen --force -o l 2>err
[ "$(cat victim)" = precious ] && [ "$(stat -c %a victim)" = 644 ] &&
    [ ! -L l.sec ] && [ "$(stat -c %a l.sec)" = 600 ] && whole l
check $? "keygen --force over a symlink: the link is replaced, its target untouched"
if [ "$(id -u)" = 0 ]; then
    mknod mydev c 1 3 && chmod 666 mydev && ln -s mydev d.sec
    refuse "symbolic link to a device" "keygen --force over a symlink to a device: refused" \
        "$TTS" keygen --force -o d
    [ -c mydev ] && [ "$(stat -c %a mydev)" = 666 ] && [ -L d.sec ] && [ ! -e d.pub ]
    check $? "... the device is not chmod-ed, the link stays, nothing is written"
    ln -s /dev/stdout so.sig
    refuse "standard stream" "sign --force -o a link to /dev/stdout: refused, not replaced" \
        "$TTS" sign --force -k a.sec -o so.sig msg
    [ -L so.sig ] && [ -L /dev/stdout ]
    check $? "... the link stays"
    refuse "system file" "sign --force -o /dev/stdout (stdout a file): refused, /dev untouched" \
        "$TTS" sign --force -k a.sec -o /dev/stdout msg
    [ -L /dev/stdout ]
    check $? "... /dev/stdout is still a link"
else
    skip "symlink to a device" "mknod needs root"
fi
cp msg m2
refuse "is the input" "sign --force -o m2 m2 (output = input)" \
    "$TTS" sign -k a.sec --force -o m2 m2
same m2 msg
check $? "... and m2 is untouched"
ln m2 m2link
refuse "is the input" "... through a hard link" "$TTS" sign -k a.sec --force -o m2link m2
cp a.sec k3.sec && cp a.sec k4.sec
refuse "is the input" "sign -k k3.sec --force -o k3.sec" \
    "$TTS" sign -k k3.sec --force -o k3.sec msg
refuse "is the input" "pubkey -k k4.sec --force -o k4.sec" \
    "$TTS" pubkey -k k4.sec --force -o k4.sec
same k3.sec a.sec && same k4.sec a.sec
check $? "... and both secret keys are untouched"

# --- 5. messages --------------------------------------------------------------
for f in /dev/null /dev/zero; do
    refuse "not a regular file" "-k $f: named as a device" "$TTS" sign -k $f msg
    ! grep -q chmod err
    check $? "... with no chmod hint"
done
refuse "is a directory" "sign -o . says it is a directory" "$TTS" sign -k a.sec -o . msg
mkdir realdir
refuse "is a directory" "keygen -o realdir/ refused" "$TTS" keygen -o realdir/
[ -z "$(ls -A realdir)" ]
check $? "... and nothing is created in it"
refuse "holds a public key" "sign -k alice.pub names the public key" "$TTS" sign -k a.pub msg
! grep -q chmod err
check $? "... with no chmod hint"
cp a.sec open.sec && chmod 644 open.sec
refuse "chmod 600 open.sec" "a secret key others may read: the chmod hint" \
    "$TTS" sign -k open.sec msg
"$TTS" sign -k - msg <open.sec >out 2>err
[ $? = 2 ] && grep -q 'standard input: permissions' err && ! grep -q 'chmod 600 -' err
check $? "-k - from a readable file: no 'chmod 600 -'"
"$TTS" sign -k a.sec --armor -o a.asc msg 2>/dev/null
{ head -n 3 a.asc; tail -n 1 a.asc; } >emptybody.asc
refuse "no base64 text" "an armored file with an empty body" \
    "$TTS" verify -p a.pub -s emptybody.asc msg
# base64: only its alphabet (a lenient decoder reads 0xFF as '/')
"$TTS" keygen --armor --seed a.seed -o arm 2>/dev/null
python3 - <<'PY'
t = open("arm.pub", "rb").read()
head, _, body = t.partition(b"\n\n")
i = body.index(b"/")
open("arm2.pub", "wb").write(head + b"\n\n" + body[:i] + b"\xff" + body[i + 1:])
PY
"$TTS" verify -p arm.pub -s a.sig msg >/dev/null 2>&1 &&
    refuse "invalid base64" "an armored key with byte 0xFF for '/': refused" \
    "$TTS" verify -p arm2.pub -s a.sig msg
# format-1 secret keys (no binding): refused, and bound only by upgrade-key
python3 -c '
b = open("a.sec", "rb").read()
v1 = b[:4] + b"\x01" + b[5:8] + b[40:]
open("v1.sec", "wb").write(v1)
f = bytearray(v1); f[8 + 5] ^= 4; open("v1bad.sec", "wb").write(f)'
chmod 600 v1.sec v1bad.sec
refuse "upgrade-key" "sign -k a format-1 key: refused, naming upgrade-key" \
    "$TTS" sign -k v1.sec -o v1.sig msg
[ ! -e v1.sig ]
check $? "... and no signature"
"$TTS" upgrade-key -k v1.sec -p a.pub -o up.sec 2>err && same up.sec a.sec &&
    [ "$(stat -c %a up.sec)" = 600 ]
check $? "upgrade-key -k v1.sec -p a.pub -o up.sec: the format-2 file of that key"
refuse "does not give the public key" "upgrade-key of a corrupted format-1 key: refused" \
    "$TTS" upgrade-key -k v1bad.sec -p a.pub -o up2.sec
[ ! -e up2.sec ]
check $? "... and nothing written"
"$TTS" verify -p a.pub -s a.sig msg >/dev/full 2>err
[ $? = 2 ] && [ "$(wc -l <err)" = 1 ]
check $? "one standard-output failure: one error line"
: >existing
timeout 300 "$TTS" sign -k a.sec -o existing - </dev/zero >out 2>err
[ $? = 2 ] && grep -q 'already exists' err
check $? "sign -o EXISTING refuses before reading the input (an endless stream)"
# kernel files are regular in name only: a read may block forever
refuse "kernel interface" "sign /proc/self/stat (a /proc input) refused" \
    "$TTS" sign -k a.sec -o proc.sig /proc/self/stat
if [ -r /proc/kmsg ]; then
    refuse "kernel interface" "sign /proc/kmsg (a read that blocks) refused at once" \
        "$TTS" sign -k a.sec -o kmsg.sig /proc/kmsg
else
    skip "sign /proc/kmsg refused at once" "/proc/kmsg not readable"
fi
# every legal name can be written: the temporary's name is short
long=$(printf '%0255d' 0)
"$TTS" sign -k a.sec -o "$long" msg 2>err && [ -s "$long" ] &&
    "$TTS" pubkey -k a.sec -o "${long%0000}.pub" 2>>err && [ -s "${long%0000}.pub" ]
check $? "outputs named with 255 and 255 bytes (251 + .pub) are written"
rm -f "$long" "${long%0000}.pub"
refuse "unexpected" "tts version extra" "$TTS" version extra
refuse "unexpected" "tts help extra" "$TTS" help extra

# --- 6. the old pair survives a failed replacement ---------------------------
"$TTS" keygen -o r 2>/dev/null && cp r.sec r.sec.orig && cp r.pub r.pub.orig
rm r.pub && mkdir r.pub
refuse "is a directory" "keygen --force over a directory k.pub" "$TTS" keygen --force -o r
same r.sec r.sec.orig
check $? "... and the old k.sec survives"
rmdir r.pub && cp r.pub.orig r.pub
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    asnobody "$TTS" version >/dev/null 2>&1; then
    mkdir nb && chmod 777 nb && cp r.sec r.pub nb/ && chmod 666 nb/r.sec && chmod 444 nb/r.pub
    chown 65534 nb/r.sec && chmod 600 nb/r.sec
    asnobody "$TTS" keygen --force -o nb/r >out 2>err
    st=$?
    { [ $st = 0 ] && whole nb/r; } || { [ $st = 2 ] && same nb/r.sec r.sec.orig; }
    check $? "keygen --force over a read-only k.pub (as a non-root user): new pair, or the old one"
else
    skip "read-only k.pub as a non-root user" "needs root, setpriv and a build that user 65534 can run"
fi
if [ "$(id -u)" = 0 ]; then
    mknod myfull c 1 7
    refuse "is a device" "sign --force -o a device node refused" \
        "$TTS" sign --force -k a.sec -o myfull msg
    [ -c myfull ]
    check $? "... and the device node is not deleted"
else
    skip "device node output" "mknod needs root"
fi
mkdir fsz && cp a.sig fsz/old.sig
(trap '' XFSZ; ulimit -f 0; "$TTS" sign --force -k a.sec -o fsz/old.sig msg) >out 2>err
[ $? = 2 ] && same fsz/old.sig a.sig && [ "$(ls -A fsz)" = old.sig ]
check $? "a write that fails (file size limit) keeps the old signature, leaves no temporary"

# --- tts-card: images, answers, the EEPROM state -----------------------------
head -c 3000 /dev/urandom >garbage.ihx
printf ':00000001FF\n' >eof.ihx
printf ':0200000080FE80\n:00000001FF\n' >loop.ihx   # SJMP $: never answers
printf ':0200000080FE81\n:00000001FF\n' >sum.ihx    # a checksum off by one
if [ -x "$TCARD" ]; then
    refuse "Intel HEX" "tts-card: an image of random bytes" "$TCARD" --image garbage.ihx info
    refuse "no data records" "tts-card: an image of only an EOF record" "$TCARD" --image eof.ihx info
    refuse "directory" "tts-card: --image ." "$TCARD" --image . info
    refuse "checksum" "tts-card: a record with a wrong checksum" "$TCARD" --image sum.ihx info
else
    skip "tts-card image checks" "tts-card not built"
fi
if [ -x "$TCARD" ] && command -v s51 >/dev/null 2>&1; then
    # (the GET INFO probe's CPU budget cut to 1 s, TTS_CARD_TIMEOUT)
    refuse "does not answer GET INFO" "tts-card: an image that never answers (its CPU budget)" \
        env TTS_CARD_TIMEOUT=1 "$TCARD" --image loop.ihx info
    # report checks each image first (not 25 minutes of budget per
    # measurement), and --params / --cpu narrow it
    mkdir gdir
    for mn in 16-22 20-26 20-28 24-32 24-34 28-38 32-44 36-50; do
        cp garbage.ihx gdir/tts-$mn.ihx && cp garbage.ihx gdir/tts-$mn-128.ihx
    done
    for mn in 16-22 20-26 20-28 24-32; do
        cp garbage.ihx gdir/tts-$mn-rom.ihx && cp garbage.ihx gdir/tts-$mn-rom4k.ihx
    done
    timeout 600 "$TCARD" --image-dir gdir report >out 2>err
    [ $? = 1 ] && grep -q 'not a card image' err && [ "$(grep -c '(failed)' out)" = 24 ]
    check $? "tts-card report with garbage images: each refused at once, exit 1"
    # an image that loads but never answers: 10 s of image check, not the
    # measurement's budget; and only the set and CPU asked for
    mkdir ldir && cp loop.ihx ldir/tts-16-22.ihx
    TTS_CARD_TIMEOUT=1 timeout 600 "$TCARD" --image-dir ldir --params 16,22 --cpu 8032 report >out 2>err
    [ $? = 1 ] && grep -q 'does not answer GET INFO' err && [ "$(grep -c '(failed)' out)" = 1 ] &&
        grep -q '^| TTS(16,22) |' out && ! grep -q '^| TTS(20,28) |' out &&
        ! grep -q '128-byte family' out
    check $? "tts-card --params 16,22 --cpu 8032 report, an image that never answers: refused within its CPU budget, that set and CPU only"
else
    skip "tts-card: an image that never answers" "no s51"
fi
if [ -x "$TCARD" ] && command -v s51 >/dev/null 2>&1 && [ -f "$CARD_DIR/tts-20-28.ihx" ]; then
    refuse "FIFO" "tts-card: --eeprom a FIFO" "$TCARD" --image-dir "$CARD_DIR" --eeprom fifo info
    refuse "not a regular file" "tts-card: --eeprom /dev/zero" "$TCARD" --image-dir "$CARD_DIR" --eeprom /dev/zero info
    ! grep -q chmod err
    check $? "... with no chmod hint"
    refuse "fits 128 bytes" "tts-card --cpu 8051 with a 256-byte image: the RAM refusal, at once" \
        timeout 300 "$TCARD" --cpu 8051 --image "$CARD_DIR/tts-20-28.ihx" info
    # a simulator whose card answers with the wrong lengths
    printf 'x' >fake.ihx && cp "$CARD_DIR/tts-20-28.ihx" fake.ihx
    TTS_S51=$FAKE FAKE_SIGN_LEN=5 "$TCARD" --image fake.ihx sign -o short.sig >out 2>err
    [ $? = 1 ] && [ ! -e short.sig ] && grep -q 'answered 5 bytes' err
    check $? "tts-card: a 5-byte answer to SIGN is refused, no signature written"
    TTS_S51=$FAKE FAKE_CYCLES_LEN=1 "$TCARD" --image fake.ihx cycles >out 2>err
    [ $? = 1 ] && ! grep -q 16777216 out && grep -q 'answered 1 bytes' err
    check $? "tts-card: a 1-byte GET CYCLES answer is refused"
    if [ -f "$CARD_DIR/tts-16-22.ihx" ]; then
        head -c 32 /dev/urandom >seed && chmod 644 seed
        refuse "chmod 600 seed" "tts-card genkey --seed of a seed others may read: refused" \
            "$TCARD" --image-dir "$CARD_DIR" --params 16,22 genkey --seed seed
        chmod 600 seed
        printf '1357' >pin && chmod 600 pin
        "$TCARD" --image-dir "$CARD_DIR" --params 16,22 --pin pin --eeprom ee genkey --seed seed >out 2>err
        check $? "tts-card: genkey into an EEPROM file"
        # one session more, then a save that fails must keep that state
        "$TCARD" --image-dir "$CARD_DIR" --params 16,22 --eeprom ee info >/dev/null 2>&1
        cp ee ee.orig
        (trap '' XFSZ; ulimit -f 2; "$TCARD" --image-dir "$CARD_DIR" --params 16,22 --eeprom ee info) >out 2>err
        [ $? = 2 ] && same ee ee.orig
        check $? "tts-card: a failed EEPROM save keeps the card's key"
        "$TCARD" --image-dir "$CARD_DIR" --params 16,22 --pin pin --eeprom ee sign >out 2>err
        grep -Eq '\(([1-9][0-9]*) attempts?\)' out
        check $? "tts-card sign prints the attempts it took (not 0)"
        cp ee ee.signed  # (the signature counter advanced)
        refuse "is the input" "tts-card: export-pk -o the EEPROM file" \
            "$TCARD" --image-dir "$CARD_DIR" --params 16,22 --eeprom ee export-pk -o ee
        same ee ee.signed
        check $? "... and the EEPROM file is untouched"
        # an output is never an input, and replaces a file only with --force
        C16="$TCARD --image-dir $CARD_DIR --params 16,22 --pin pin"
        "$TTS" keygen --params 16,22 --seed seed -o c16 2>/dev/null && cp c16.sec c16.orig
        refuse "is the input" "tts-card: put-key k.sec export-pk -o k.sec --force: refused" \
            $C16 --force put-key c16.sec export-pk -o c16.sec
        same c16.sec c16.orig
        check $? "... and the secret key is untouched"
        cp seed seed.orig
        refuse "is the input" "tts-card: genkey --seed seed export-pk -o seed --force: refused" \
            $C16 --force genkey --seed seed export-pk -o seed
        same seed seed.orig
        check $? "... and the seed is untouched"
        printf 'to sign\n' >m.txt && cp m.txt m.orig
        refuse "is the input" "tts-card: sign -o m.txt --message m.txt --force: refused" \
            $C16 --force put-key c16.sec sign -o m.txt --message m.txt
        same m.txt m.orig
        check $? "... and the message is untouched"
        refuse "is the input new.ee" "tts-card: --eeprom NEW export-pk -o NEW: refused" \
            $C16 --eeprom new.ee genkey --seed seed export-pk -o new.ee
        [ ! -e new.ee ]
        check $? "... and nothing is written"
        echo old >old.pk
        refuse "use --force" "tts-card: export-pk -o EXISTING without --force: refused" \
            $C16 genkey --seed seed export-pk -o old.pk
        [ "$(cat old.pk)" = old ]
        check $? "... and the file is untouched"
        $C16 --force genkey --seed seed export-pk -o old.pk >out 2>err &&
            cmp -s c16.pub old.pk
        check $? "tts-card --force: export-pk replaces it (the public key of the seed)"
        refuse "needs a file" "tts-card --eeprom - refused" $C16 --eeprom - info
        # a signal during the card session, SIGKILL too: the simulator is
        # killed, and its request (it holds the raw secret key and the PIN)
        # was never in a named file: nothing is left under $TMPDIR. The
        # simulator: the real one for the image check's short request, then
        # one that never ends.
        cat >slow51 <<EOF
#!/bin/sh
for a in "\$@"; do
    case \$a in *in=*) req=\${a#*in=}; req=\${req%%,*} ;; esac
done
[ "\$(wc -c <"\$req")" -lt 100 ] && exec s51 "\$@"
echo \$\$ >"$dir/slow51.pid"
echo "\$req" >"$dir/slow51.req"
exec sleep 300
EOF
        chmod 755 slow51
        # (SIGINT in make check; SIGTERM and SIGHUP, the same handler, in
        # make check-full)
        sigs="INT KILL"; [ -n "${TTS_CHECK_FULL:-}" ] && sigs="INT TERM HUP KILL"
        for sig in $sigs; do
            T=$dir/ct$sig && mkdir "$T" && rm -f slow51.req slow51.pid
            python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' env TMPDIR="$T" TTS_S51="$dir/slow51" \
                $C16 put-key c16.sec sign >out 2>err &
            cp=$!
            i=0
            while [ $i -lt 600 ] && [ ! -s slow51.req ] && kill -0 $cp 2>/dev/null; do
                sleep 0.05
                i=$((i + 1))
            done
            kill -$sig $cp 2>/dev/null
            { wait $cp; } 2>/dev/null
            rc=$?
            req=$(cat slow51.req 2>/dev/null)
            sp=$(cat slow51.pid 2>/dev/null)
            i=0
            while [ $i -lt 100 ] && [ -n "$sp" ] && kill -0 "$sp" 2>/dev/null; do
                sleep 0.05
                i=$((i + 1))
            done
            alive=0
            [ -n "$sp" ] && kill -0 "$sp" 2>/dev/null && alive=1 && kill -9 "$sp"
            want=$((128 + $(signum $sig)))
            [ "$rc" = $want ] && [ "$req" = /dev/fd/3 ] && [ $alive = 0 ] &&
                [ -z "$(ls -A "$T")" ]
            check $? "tts-card put-key stopped by SIG$sig: simulator killed, its request in no named file, nothing under \$TMPDIR, exit $want (got $rc)"
        done
        ln -s victim ee.link && cp ee ee2
        "$TCARD" --image-dir "$CARD_DIR" --params 16,22 --eeprom ee2 --force export-pk -o ee.link >out 2>err &&
            [ "$(cat victim)" = precious ] && [ ! -L ee.link ]
        check $? "tts-card: export-pk -o a symlink replaces the link, not its target"
    fi
else
    skip "tts-card checks with images" "the card build (sdcc, s51) is not configured"
fi

tap_end
