# SPDX-License-Identifier: MIT
# Sourced by tests/test_challenge.sh: the challenge folder as an attacker
# or a careless issuer leaves it (each case an exact reproducer).
# Uses its run/refuse/check helpers, $TC, $TTS, and from it: master, g1
# (TTS(16,22) and TTS(20,26), three messages), and with python3 inst.sec
# (the genuine TTS(16,22) key) and sol (its signature of message 2).

# a fresh copy of g1 in folder $1
fresh() { rm -rf "$1" && cp -r g1 "$1"; }
# edit the TTS(16,22) manifest of folder $1 with the sed script $2
edit() { sed "$2" g1/tts-16-22/manifest.json >"$1/tts-16-22/manifest.json"; }

"$TTS" keygen --params 16,22 -o k1 >/dev/null 2>&1
pin=$(tail -c +9 g1/tts-16-22/pk.tts | sha256sum | cut -c1-64)

# --- verify: the attacker's own key -----------------------------------------
fresh h1 && rm h1/tts-16-22/pk.tts && ln -s "$PWD/k1.pub" h1/tts-16-22/pk.tts
"$TTS" sign -k k1.sec -o forged.sig h1/tts-16-22/msg-1.txt 2>/dev/null
refuse "symbolic link" "verify: pk.tts a symlink to the attacker's key" \
    "$TC" verify h1 forged.sig --message 1
fresh h2 && cp k1.pub h2/tts-16-22/pk.tts
refuse "pk_sha256" "verify: pk.tts replaced by the attacker's key" \
    "$TC" verify h2 forged.sig --message 1
# the attacker also rewrites pk_sha256: only the published hash catches it
fresh h3 && cp k1.pub h3/tts-16-22/pk.tts
edit h3 "s/\"pk_sha256\": \"[0-9a-f]*\"/\"pk_sha256\": \"$(tail -c +9 k1.pub | sha256sum | cut -c1-64)\"/"
run 0 "verify: key and pk_sha256 both replaced: VALID under that key" \
    "$TC" verify h3 forged.sig --message 1
grep -q "$pin" out
[ $? -ne 0 ] && grep -q "$(tail -c +9 k1.pub | sha256sum | cut -c1-64)" out
check $? "... printing the hash of the key it used (not the published one)"
refuse "published value" "verify --pk-sha256 (published) refuses that key" \
    "$TC" verify h3 forged.sig --message 1 --pk-sha256 "$pin"
refuse "64 hex digits" "verify --pk-sha256 with a malformed hash" \
    "$TC" verify g1 forged.sig --message 1 --pk-sha256 abc
fresh h4 && rm -r h4/tts-16-22 && ln -s "$PWD/g1/tts-16-22" h4/tts-16-22
refuse "symbolic link" "verify: the instance folder a symlink" \
    "$TC" verify h4 forged.sig --message 1

if [ -f sol ] && [ -f inst.sec ]; then
    run 0 "verify --pk-sha256 with the published hash: VALID" \
        "$TC" verify g1 sol --message 2 --pk-sha256 "$pin"
    fresh h4o && sed '/"status": "broken",/d; s/"historical_prize_usd"/"prize_usd"/' \
        g1/tts-16-22/manifest.json >h4o/tts-16-22/manifest.json
    run 0 "verify: a manifest in the layout issued before \"status\" (prize_usd): VALID" \
        "$TC" verify h4o sol --message 2 --pk-sha256 "$pin"
    # --- the message, its digest and the manifest, edited -------------------
    fresh h5 && printf 'pay the attacker\n' >h5/tts-16-22/msg-2.txt
    "$TTS" sign -k inst.sec -o h5.sig h5/tts-16-22/msg-2.txt 2>/dev/null
    refuse "not the text of challenge message 2" \
        "verify: msg-2.txt replaced (signed by the true key)" \
        "$TC" verify h5 h5.sig --message 2
    # message 2's text, digest and manifest entry put in message 1's slot:
    # the key is pinned, and so is the message (its text is recomputed)
    fresh h9 && cp g1/tts-16-22/msg-2.txt h9/tts-16-22/msg-1.txt &&
        cp g1/tts-16-22/msg-2.digest h9/tts-16-22/msg-1.digest
    d1=$(od -An -tx1 g1/tts-16-22/msg-1.digest | tr -d ' \n')
    d2=$(od -An -tx1 g1/tts-16-22/msg-2.digest | tr -d ' \n')
    edit h9 "s/$d1/$d2/"
    refuse "not the text of challenge message 1" \
        "verify --message 1 --pk-sha256: message 2 moved into slot 1 is not message 1" \
        "$TC" verify h9 sol --message 1 --pk-sha256 "$pin"
    ! grep -q VALID out
    check $? "... and no VALID is printed"
    fresh h6 && printf 'xxxxxxxxxxxxxxxx' >h6/tts-16-22/msg-2.digest
    refuse "msg-2.digest" "verify: msg-2.digest altered" \
        "$TC" verify h6 sol --message 2
    fresh h7 && rm h7/tts-16-22/msg-2.digest
    refuse "missing" "verify: msg-2.digest deleted" "$TC" verify h7 sol --message 2
    fresh h8 && rm h8/tts-16-22/manifest.json
    refuse "manifest.json: missing" "verify: manifest deleted" \
        "$TC" verify h8 sol --message 2
    n=0
    # sed script | what the manifest says then | word of the refusal
    while IFS='|' read -r script desc word; do
        n=$((n + 1))
        fresh "m$n" && edit "m$n" "$script"
        refuse "$word" "verify: manifest with $desc" "$TC" verify "m$n" sol \
            --message 2
    done <<'CASES'
s/"digest": "\([0-9a-f]\)/"digest": "f\1/|a digest changed (one more digit)|digest
/"index": 2/s/"digest": "[0-9a-f]*"/"digest": "00000000000000000000000000000000"/|the digest of message 2 changed|digest
s/"pk_sha256": "0/"pk_sha256": "1/;s/"pk_sha256": "\([1-9a-f]\)/"pk_sha256": "0/|pk_sha256 changed|pk_sha256
s/"set": "TTS(16,22)"/"set": "TTS(20,26)"/|the set changed|m
s/"m": 16/"m": 20/|m changed|"m"
s/"file": "msg-2.txt"/"file": "..\/..\/k1.pub"/|file ../../k1.pub|plain file name
s/"file": "msg-2.txt"/"file": "\/etc\/passwd"/|file /etc/passwd|plain file name
s/"index": 3/"index": 2/|a duplicate index|index
s/"historical_prize_usd"/"set"/|a duplicate key|duplicate key
s/"n": 22,/"n": 22/|broken JSON (a comma missing)|JSON
$s/$/ {}/|trailing garbage|after the document
s/"challenge"/"extra": 1, "challenge"/|an unknown field|unexpected field
/"digest_bytes"/d|a field missing|missing
s/"m": 16/"m": "16"/|m as a string|expected a number
CASES
    # raw solutions (a solver writes bytes, not our file format)
    tail -c 22 sol >raw.sig
    run 0 "verify: a raw 22-byte solution with --set" "$TC" verify g1 raw.sig \
        --message 2 --set 16,22
    mkdir only && cp -r g1/tts-16-22 only/
    run 0 "verify: a raw solution, the set from the only folder" \
        "$TC" verify only raw.sig --message 2
    head -c 21 raw.sig >raw21.sig
    refuse "exactly 22" "verify: a raw solution of the wrong size" \
        "$TC" verify only raw21.sig --message 2
    refuse "--set" "verify: a raw solution where the set is ambiguous" \
        "$TC" verify g1 raw.sig --message 2
fi

# --- nothing blocks: FIFOs -------------------------------------------------
fresh f1 && rm f1/tts-16-22/pk.tts && mkfifo f1/tts-16-22/pk.tts
timeout 300 "$TC" verify f1 forged.sig --message 1 >out 2>err
[ $? = 2 ] && grep -q 'not a regular file' err
check $? "verify: a FIFO as pk.tts is refused at once (no hang)"
mkfifo fifo.sig
timeout 300 "$TC" verify g1 fifo.sig --message 1 >out 2>err
[ $? = 2 ] && grep -q 'FIFO' err
check $? "verify: a FIFO as the solution is refused at once"

# --- an interrupted generate leaves nothing behind ----------------------------
# (the signal as the first instance folder is made inside the temporary;
# mkdirat where the C library, or an emulator, makes folders with it)
if command -v strace >/dev/null 2>&1; then
    for sig in INT TERM HUP; do
        sig_at $sig mkdir,mkdirat 2 "$TC" generate --params all --instances 2 \
            --date 2026-12-02 --master-seed master --secret-out gs$sig.secret \
            --out gs$sig
        want=$((128 + $(signum $sig)))
        [ "$sigrc" = $want ] && [ ! -e gs$sig ] && [ ! -e gs$sig.secret ] &&
            [ -z "$(ls -d gs$sig.tmp-* 2>/dev/null)" ]
        check $? "generate stopped by SIG$sig mid-run: no folder, no temporary, no seed, exit $want (got $sigrc)"
    done
else
    skip "an interrupted generate leaves nothing behind" "strace missing"
fi

# --- names from a folder are escaped before they are printed -----------------
fresh e1 && : >"e1/tts-16-22/$(printf 'x\nOK: 2 of 2 instances match the revealed seed\n\033[2K')"
run 1 "reveal-check: a file named with newlines and an escape sequence" \
    "$TC" reveal-check e1 master
! grep -q '^OK' out && ! grep -q "$(printf '\033')" out &&
    grep -q 'x\\x0aOK' out && tail -n 1 out | grep -q '^MISMATCH'
check $? "... its name is escaped: no forged OK line, no escape byte, MISMATCH last"
refuse "v even" "structure --size -4294967292,5,3 refused (not read as 4,5,3)" \
    "$TC" structure --size -4294967292,5,3

# --- reveal-check compares every file ---------------------------------------
n=0
for f in pk.asc msg-2.txt msg-2.digest manifest.json; do
    n=$((n + 1))
    fresh "r$n" && printf 'x' >>"r$n/tts-16-22/$f"
    run 1 "reveal-check: $f altered" "$TC" reveal-check "r$n" master
    grep -q "r$n/tts-16-22/$f: differs" out
    check $? "... names $f"
done
fresh r5 && sed 's/"historical_prize_usd": 1000/"historical_prize_usd": 1000000/' \
    g1/tts-16-22/manifest.json >r5/tts-16-22/manifest.json
run 1 "reveal-check: a manifest field (the prize) changed" "$TC" \
    reveal-check r5 master
# a manifest issued before "status": no status line, "prize_usd" for
# "historical_prize_usd"; read by verify and reveal-check as it stands
fresh r5o && sed '/"status": "broken",/d; s/"historical_prize_usd"/"prize_usd"/' \
    g1/tts-16-22/manifest.json >r5o/tts-16-22/manifest.json
grep -q '"prize_usd": 1000,' r5o/tts-16-22/manifest.json &&
    ! grep -q status r5o/tts-16-22/manifest.json
check $? "a manifest in the layout issued before \"status\""
run 0 "reveal-check: that manifest matches the revealed seed" "$TC" \
    reveal-check r5o master
sed -i 's/"prize_usd": 1000,/"prize_usd": 1001,/' r5o/tts-16-22/manifest.json
run 1 "reveal-check: ... with its prize changed, a difference" "$TC" \
    reveal-check r5o master
sed -i 's/"prize_usd": 1001,/"prize_usd": 1000, "status": "broken",/' \
    r5o/tts-16-22/manifest.json
run 1 "reveal-check: ... with prize_usd and status mixed, a difference" "$TC" \
    reveal-check r5o master
fresh r6 && rm -r r6/tts-20-26
run 1 "reveal-check: a deleted instance folder" "$TC" reveal-check r6 master
grep -q 'r6/tts-20-26: missing' out
check $? "... is named"
fresh r7 && : >r7/tts-16-22/extra.txt
run 1 "reveal-check: a file that is not part of the challenge" "$TC" \
    reveal-check r7 master
fresh r8 && rm r8/tts-16-22/msg-3.txt
run 1 "reveal-check: a deleted message" "$TC" reveal-check r8 master
grep -q 'msg-3.txt: missing' out
check $? "... is named"
refuse "No such file" "reveal-check of a folder that does not exist" \
    "$TC" reveal-check nodir master

# --- generate: the secret, the date, the list, all or nothing --------------
refuse "--secret-out" "generate from a random seed without --secret-out" \
    "$TC" generate --params 16,22 --date 2026-12-02 --out s1
refuse "inside the folder" "generate --secret-out inside DIR" \
    "$TC" generate --params 16,22 --date 2026-12-02 --out s2 \
    --secret-out s2/seed
refuse "inside the folder" "generate --secret-out inside DIR (by ./ and ..)" \
    "$TC" generate --params 16,22 --date 2026-12-02 --out s2 \
    --secret-out ./s2/../s2/x/../seed
[ ! -e s1 ] && [ ! -e s2 ]
check $? "refused generate runs create nothing"
mkdir -p p1/tts-20-28
refuse "not empty" "generate into a folder that holds files" "$TC" generate \
    --params all --instances 1 --date 2026-12-02 --master-seed master \
    --secret-out p1.secret --out p1
[ "$(ls p1)" = tts-20-28 ] && [ -z "$(ls p1/tts-20-28)" ] && [ ! -e p1.secret ]
check $? "... and leaves nothing behind (no secret, no instance folder)"
mkdir p2
run 0 "generate into an empty folder" "$TC" generate --params 16,22 \
    --instances 1 --date 2026-12-02 --master-seed master --out p2
for d in 2026-02-31 2026-02-29 2026-04-31 2026-00-10 2026-1-01; do
    refuse "date" "generate --date $d refused" "$TC" generate --params 16,22 \
        --date "$d" --master-seed master --out d1
done
run 0 "generate --date 2024-02-29 (a leap day)" "$TC" generate --params 16,22 \
    --instances 1 --date 2024-02-29 --master-seed master --out d2
list=tts-16-22
i=1
while [ $i -lt 65 ]; do list="$list,tts-16-22"; i=$((i + 1)); done
refuse "more than 64" "generate --params with 65 items" "$TC" generate \
    --params "$list" --date 2026-12-02 --master-seed master --out d3
refuse "usage" "dreg with one argument" "$TC" dreg 5
refuse "unexpected" "help with an argument" "$TC" help extra
