#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-challenge break and forge from the command line: challenge instances
# issued with --discard-secret (no secret exists anywhere) broken from
# pk.tts alone and their messages forged, each forgery checked by `verify`
# pinned to the published key hash; a plain public key broken and the
# signature checked by `tts verify`; the equivalent key file (0600, the file
# rule, forge); keys with no TTS structure (exit 1); bad input (exit 2).
# TTS_BREAK_CLI_SETS adds sets; TTS_CHECK_FULL (make check-full) adds the other
# sets but TTS(36,50).
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

# (tests/test_break breaks the four smallest sets in process; the command
# line needs two of them in make check)
sets="tts-16-22 tts-20-28 ${TTS_BREAK_CLI_SETS:-${TTS_CHECK_FULL:+tts-20-26 tts-24-32 tts-24-34 tts-28-38 tts-32-44}}"
list=$(echo $sets | tr ' ' ',')
run 0 "generate instances with --discard-secret ($list)" "$TC" generate \
    --params "$list" --instances 2 --date 2026-12-05 --discard-secret --out ch
for s in $sets; do
    pin=$(sed -n 's/.*"pk_sha256": "\([0-9a-f]*\)".*/\1/p' ch/$s/manifest.json)
    run 0 "$s: break from pk.tts alone, messages 1 and 2" "$TC" break ch --set "$s" \
        --message 1 --message 2 -o forged --pk-sha256 "$pin" --json "$s.json" --quiet
    for i in 1 2; do
        run 0 "$s: the forgery of message $i is VALID under the published key" \
            "$TC" verify ch "forged/$s-msg-$i.sig" --message "$i" --pk-sha256 "$pin"
    done
    run 1 "$s: a forgery does not answer another message" \
        "$TC" verify ch "forged/$s-msg-1.sig" --message 2 --pk-sha256 "$pin"
    grep -q '"result": "key recovered"' "$s.json" && grep -q '"unknowns": ' "$s.json" &&
        grep -q '"total_seconds": ' "$s.json"
    check $? "$s: the JSON report says what was done"
    # README's table of the break: this set's Support Minors unknowns and solver
    u=$(sed -n 's/.*"unknowns": \([0-9]*\),.*/\1/p' "$s.json")
    sol=$(sed -n 's/.*"solver": "\([a-z]*\)".*/\1/p' "$s.json")
    uc=$(printf '%s' "$u" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
    name=$(echo "$s" | sed 's/^tts-\([0-9]*\)-\([0-9]*\)$/TTS(\1,\2)/')
    grep -q "^| $name | $uc | $sol |" "$srcdir/README.md"
    check $? "$s: README's table of the break quotes its $uc unknowns and the $sol solver"
done

# a plain public key, the key file and forge
run 0 "tts keygen" "$TTS" keygen --params "TTS(20,28)" -o k
echo "a message the key's owner never signed" >m1
echo "another one" >m2
run 0 "break --pk with --key-out" "$TC" break --pk k.pub --message m1 -o m1.sig \
    --key-out k.eqk --quiet
run 0 "tts verify accepts the forgery" "$TTS" verify -p k.pub -s m1.sig m1
[ "$(stat -c %a k.eqk)" = 600 ]
check $? "the equivalent key is written with mode 0600"
run 0 "forge signs another message with the key file" "$TC" forge --key k.eqk \
    --message m2 -o m2.sig
run 0 "tts verify accepts it" "$TTS" verify -p k.pub -s m2.sig m2
run 2 "forge refuses to replace its output without --force" "$TC" forge --key k.eqk \
    --message m2 -o m2.sig
run 2 "break refuses an existing --key-out before any work" "$TC" break --pk k.pub \
    --message m1 -o m3.sig --key-out k.eqk
[ ! -e m3.sig ]
check $? "... and wrote nothing"
chmod 644 k.eqk
run 2 "forge refuses a key file others can read" "$TC" forge --key k.eqk \
    --message m2 -o m4.sig
chmod 600 k.eqk
cp k.eqk bad.eqk
flip bad.eqk 300
run 2 "forge refuses a corrupted key file" "$TC" forge --key bad.eqk --message m2 -o m5.sig
grep -q checksum err
check $? "... saying why"
(umask 077; printf '0123456789abcdef0123456789abcdef' >run.seed)
run 0 "the same --seed gives the same key file" "$TC" break --pk k.pub --message m1 \
    -o s1.sig --key-out s1.eqk --seed run.seed --quiet
chmod 600 s1.eqk
run 0 "... twice" "$TC" break --pk k.pub --message m1 -o s2.sig --key-out s2.eqk \
    --seed run.seed --quiet
cmp -s s1.eqk s2.eqk
check $? "... byte for byte"

# no TTS structure: exit 1, a clear reason, no output
python3 - <<'PY' 2>/dev/null || head -c 8 k.pub >rand.pub
import os
d = bytearray(open("k.pub", "rb").read())
d[8:] = os.urandom(len(d) - 8)
open("rand.pub", "wb").write(d)
PY
if [ "$(wc -c <rand.pub)" -gt 8 ]; then
    run 1 "a random quadratic map: no TTS structure" "$TC" break --pk rand.pub \
        --message m1 -o r.sig --quiet
    grep -q "no TTS structure found" err && [ ! -e r.sig ]
    check $? "... said, and no signature written"
else
    skip "a random quadratic map" "python3 not found"
    skip "... said" "python3 not found"
fi

# bad input
run 2 "break without arguments" "$TC" break
run 2 "break --pk without -o" "$TC" break --pk k.pub --message m1
run 2 "break --pk with a bad digest" "$TC" break --pk k.pub --digest 00 -o x.sig
run 2 "break with an unknown solver" "$TC" break --pk k.pub --message m1 -o x.sig \
    --solver magic
run 2 "break of a folder with an unknown set" "$TC" break ch --set "TTS(1,2)" \
    --message 1 -o out2
run 2 "break with a wrong published key hash" "$TC" break ch --set tts-16-22 \
    --message 1 -o out3 --pk-sha256 "$(printf '%064d' 0)"
run 2 "break of a secret key file" "$TC" break --pk k.sec --message m1 -o x.sig
run 2 "forge without --key" "$TC" forge --message m1 -o x.sig
cp k.pub k2.pub
run 2 "break refuses to write its signature over the public key, even with --force" \
    "$TC" break --pk k2.pub --message m1 -o k2.pub --force
cmp -s k.pub k2.pub
check $? "... which is unchanged"
run 2 "forge refuses to write over its key" "$TC" forge --key k.eqk --message m1 -o k.eqk --force
run 2 "break refuses one name for two outputs" "$TC" break --pk k.pub --message m1 \
    -o same.out --key-out same.out
tap_end
