#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-challenge break, forge and export under the file rules: the break's
# checkpoint (never an input, never a FIFO or a link, never a file that is
# not a checkpoint of the same key, removed only when it is the run's), the
# secret equivalent key never on a terminal, forgeries bound to the
# instance and verified before they are written, a random map refused by
# the Wiedemann solver after two sequences, the folder mode's messages and
# OUTDIR checked before the attack, export's warning for standard output.
# (The checkpoint's writing, its mode and its resumption: tests/test_break.)
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TC=$top_builddir/tts-challenge
TTS=${TTS:-$top_builddir/tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs TC TTS srcdir
tap_real TC TTS
if [ ! -x "$TC" ] || [ ! -x "$TTS" ]; then
    echo "not ok 1 - tts-challenge or tts not found ($TC, $TTS)"
    exit 99
fi
tap_enter

"$TTS" keygen --params "TTS(16,22)" -o k >/dev/null 2>&1 &&
    "$TTS" keygen --params "TTS(16,22)" -o other >/dev/null 2>&1
check $? "two TTS(16,22) key pairs"
echo "a message" >m1

# --- the checkpoint ----------------------------------------------------------
echo "a user's document" >doc.txt
cp doc.txt doc.orig
run 2 "--checkpoint naming a file that is not a checkpoint: refused" \
    "$TC" break --pk k.pub --message m1 -o a.sig --checkpoint doc.txt --quiet
cmp -s doc.txt doc.orig && [ ! -e a.sig ] && grep -q "not a checkpoint" err
check $? "... the file is kept as it was, no signature written, the reason said"
cp k.pub k.orig
run 2 "--checkpoint naming the run's --pk input: refused" \
    "$TC" break --pk k.pub --message m1 -o b.sig --checkpoint k.pub --quiet
cmp -s k.pub k.orig && grep -q "is an input of the run" err
check $? "... the public key is kept, the reason said"
ln k.pub k.hard
run 2 "--checkpoint naming the --pk input through a hard link: refused" \
    "$TC" break --pk k.pub --message m1 -o b.sig --checkpoint k.hard --quiet
cmp -s k.pub k.orig
check $? "... the public key is kept"
run 2 "--checkpoint naming the --message input: refused" \
    "$TC" break --pk k.pub --message m1 -o b.sig --checkpoint m1 --quiet
[ "$(cat m1)" = "a message" ]
check $? "... the message is kept"
mkfifo fifo
run 2 "--checkpoint naming a FIFO: refused, without blocking" \
    timeout 60 "$TC" break --pk k.pub --message m1 -o c.sig --checkpoint fifo --quiet
grep -q "not a regular file" err
check $? "... the reason said"
ln -s doc.txt link
run 2 "--checkpoint naming a symbolic link: refused" \
    "$TC" break --pk k.pub --message m1 -o d.sig --checkpoint link --quiet
cmp -s doc.txt doc.orig && [ -L link ]
check $? "... the link and its target are kept"
run 0 "--checkpoint naming a new file: the break runs" \
    "$TC" break --pk k.pub --message m1 -o e.sig --checkpoint new.ckpt --quiet
[ ! -e new.ckpt ] && "$TTS" verify -p k.pub -s e.sig m1 >/dev/null 2>&1
check $? "... leaves no checkpoint behind, and its forgery verifies"

# --- the equivalent key never on a terminal ------------------------------------
if python3 -c 'import os, pty; os.waitstatus_to_exitcode' 2>/dev/null; then
    tty_run "$TC" break --pk k.pub --message m1 -o f.sig --key-out - --quiet
    st=$?
    [ "$st" = 2 ] && grep -q "terminal" tty.out && [ ! -e f.sig ]
    check $? "break --key-out - on a terminal: refused (exit $st) before the attack"
    "$TC" break --pk k.pub --message m1 -o g.sig --key-out - --quiet >g.eqk 2>err
    [ $? = 0 ] && [ "$(wc -c <g.eqk)" -gt 1000 ]
    check $? "break --key-out - into a pipe or file is written"
else
    skip "break --key-out - on a terminal" "python3 with pty not found"
    skip "break --key-out - into a file" "python3 with pty not found"
fi

# --- forge: the key bound to the instance, every forgery verified --------------
run 0 "generate a TTS(16,22) instance with --discard-secret" "$TC" generate \
    --params 16,22 --instances 2 --date 2026-12-05 --discard-secret --out ch
run 0 "an equivalent key of another public key" "$TC" break --pk other.pub --message m1 \
    -o h.sig --key-out other.eqk --quiet
run 2 "forge DIR with a key recovered from another public key: exit 2" \
    "$TC" forge --key other.eqk ch --message 1 -o forged
[ ! -e forged/tts-16-22-msg-1.sig ] && grep -q "another public key" err
check $? "... no forgery written, the reason said"
run 0 "the instance's own key" "$TC" break ch --set tts-16-22 --key-out inst.eqk --quiet
run 0 "forge DIR with the instance's key" "$TC" forge --key inst.eqk ch --message 1 -o forged
run 0 "... its forgery is VALID" "$TC" verify ch forged/tts-16-22-msg-1.sig --message 1
pin=$(sed -n 's/.*"pk_sha256": "\([0-9a-f]*\)".*/\1/p' ch/tts-16-22/manifest.json)
run 2 "forge --key K --message FILE with --pk-sha256 of another key: exit 2" \
    "$TC" forge --key other.eqk --message m1 -o i.sig --pk-sha256 "$pin"
[ ! -e i.sig ]
check $? "... no forgery written"

# --- the folder mode checks its messages and OUTDIR before the attack ----------
run 2 "break DIR --message 1 --message 9 (the folder has 2): refused before the attack" \
    "$TC" break ch --set tts-16-22 --message 1 --message 9 -o out9
! grep -q "breaking" err && [ ! -e out9 ]
check $? "... nothing attacked, nothing written"
echo x >afile
run 2 "break DIR -o FILE (not a folder): refused before the attack" \
    "$TC" break ch --set tts-16-22 --message 1 -o afile
! grep -q "breaking" err && [ "$(cat afile)" = x ]
check $? "... nothing attacked, the file kept"
run 2 "break DIR with a forgery already in OUTDIR: refused before the attack" \
    "$TC" break ch --set tts-16-22 --message 1 -o forged
! grep -q "breaking" err
check $? "... nothing attacked (--force replaces it)"

# --- a random quadratic map: the Wiedemann solver's refusal is final after two
python3 -c '
import os
d = bytearray(open("k.pub", "rb").read())
d[8:] = os.urandom(len(d) - 8)
open("rand.pub", "wb").write(d)'
run 1 "a random map, --solver wiedemann: no TTS structure" "$TC" break --pk rand.pub \
    --message m1 -o r.sig --solver wiedemann --json r.json --quiet
grep -q '"attempts": 2,' r.json && grep -q "two Wiedemann sequences" err
check $? "... after two attempts, not three (the JSON report's attempts)"

# --- --pk-sha256 with --pk: checked before the attack ---------------------------
fpin=$(sha256sum k.pub | cut -c1-64)
kpin=$("$TC" break --pk k.pub --message m1 -o p0.sig --json p0.json --quiet >/dev/null 2>&1 &&
    sed -n 's/.*"pk_sha256": "\([0-9a-f]*\)".*/\1/p' p0.json)
run 0 "break --pk --pk-sha256 of the key file: the break runs" \
    "$TC" break --pk k.pub --message m1 -o p1.sig --pk-sha256 "$fpin" --quiet
run 0 "break --pk --pk-sha256 of the public key it holds (the report's pk_sha256)" \
    "$TC" break --pk k.pub --message m1 -o p2.sig --pk-sha256 "$kpin" --quiet
run 2 "break --pk --pk-sha256 of another key: exit 2" \
    "$TC" break --pk k.pub --message m1 -o p3.sig --pk-sha256 "$(sha256sum other.pub | cut -c1-64)"
! grep -q "breaking" err && [ ! -e p3.sig ] && grep -q "not --pk-sha256" err
check $? "... before the attack, nothing written, the reason said"
run 2 "break --pk --pk-sha256 zz: exit 2" \
    "$TC" break --pk k.pub --message m1 -o p4.sig --pk-sha256 zz --quiet
[ ! -e p4.sig ] && grep -q "64 hex digits" err
check $? "... nothing written, the form said"

# --- a message named twice: refused before the attack ---------------------------
run 2 "break DIR --message 1 --message 1: refused" \
    "$TC" break ch --set tts-16-22 --message 1 --message 1 -o twice
! grep -q "breaking" err && [ ! -e twice ] && grep -q "given twice" err
check $? "... before the attack, nothing written"

# --- binary signatures never on a terminal ----------------------------------------
tty_refused "break --pk -o - on a terminal: refused before the attack" \
    "$TC" break --pk k.pub --message m1 -o - --quiet
tty_refused "forge -o - on a terminal: refused" "$TC" forge --key inst.eqk --message m1 -o -
"$TC" forge --key inst.eqk --message m1 -o - >pipe.sig 2>err
[ $? = 0 ] && [ -s pipe.sig ]
check $? "forge -o - into a pipe or file is written"

# --- export's warning names where the secret goes ----------------------------
printf '0123456789abcdef0123456789abcdef' >master && chmod 600 master
"$TC" generate --params 16,22 --instances 2 --master-seed master --date 2026-12-04 \
    --out live >/dev/null 2>&1
"$TC" export live --message 2 --format mq -o - --equations 12 --vars 10 --seed master \
    >gen.mq 2>err
[ $? = 0 ] && ! grep -q "0600" err && grep -q "standard output" err
check $? "export --seed -o -: the warning says standard output, not mode 0600"
tap_end
