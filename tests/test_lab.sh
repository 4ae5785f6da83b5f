#!/bin/sh
# SPDX-License-Identifier: MIT
# The attack lab: tts-challenge export (every format parsed back by an
# independent reader and evaluated at a genuine signature), toy (a small
# sub-system solved by Singular, the solution checked independently) and
# calibrate (the fit recomputed). python3 is needed; Singular for the
# solver parts (skipped without it). The calibration run itself and the
# toy's random branch are in make check-full (TTS_CHECK_FULL).
set -u
: "${top_builddir:=.}"
TC=$top_builddir/tts-challenge
TTS=$top_builddir/tts
LC=${srcdir:-.}/tests/lab_check.py
. "${srcdir:-.}/tests/tap_lib.sh"
tap_abs TC TTS LC
tap_real TC TTS
if [ ! -x "$TC" ] || [ ! -x "$TTS" ]; then
    echo "not ok 1 - tts-challenge or tts not found ($TC, $TTS)"
    exit 99
fi
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
SING=${TTS_SINGULAR:-$(command -v Singular 2>/dev/null)}
tap_enter

# --- an instance and a genuine signature of its message 1 --------------------
printf '0123456789abcdef0123456789abcdef' >master && chmod 600 master
run 0 "generate a TTS(16,22) instance" "$TC" generate --params 16,22 \
    --instances 2 --master-seed master --date 2026-12-04 --out ch
python3 -c '
import hashlib
m = open("master", "rb").read()
open("iseed", "wb").write(hashlib.sha512(b"libtts challenge instance" + m
                                         + b"TTS(16,22)").digest()[:32])'
chmod 600 iseed && "$TTS" keygen --params 16,22 --seed iseed -o inst >/dev/null 2>&1 &&
    "$TTS" sign -k inst.sec -o sol ch/tts-16-22/msg-1.txt >/dev/null 2>&1 &&
    tail -c 22 sol >sig.raw && cp sig.raw bad.raw && flip bad.raw 5
check $? "a genuine signature from the independently derived instance seed"

# --- export: the four formats ------------------------------------------------
FS=0000000000000000000000000000000000000000000000000000000000000007
for f in singular magma sage mq; do
    run 0 "export $f" "$TC" export ch --message 1 --format $f -o full.$f
    python3 "$LC" eval full.$f $f sig.raw 2>err
    check $? "$f: every equation parsed back is 0 at the signature"
    python3 "$LC" eval full.$f $f bad.raw 2>/dev/null
    [ $? = 1 ]
    check $? "$f: and not 0 at a signature with one byte changed"
    run 0 "export $f --fix 6" "$TC" export ch --set tts-16-22 --message 1 \
        --format $f -o part.$f --fix 6 --fix-seed $FS
    python3 "$LC" reduced full.$f part.$f $f 2>err
    check $? "$f: the reduced system is the full one with the header's values substituted"
done
"$TC" export ch --message 1 --format mq -o again.mq --fix 6 --fix-seed $FS \
    >/dev/null 2>&1 && cmp -s part.mq again.mq
check $? "export --fix with one --fix-seed repeats byte for byte"
grep -q 'w16=' part.mq && ! grep -q 'w15=' part.mq &&
    grep -q '^Number of variables (n) : 16$' part.mq
check $? "--fix 6 fixes w_16..w_21 and leaves 16 unknowns"
# the genuine branch of toy (the issuer's signature fixes w_V..w_{n-1}) and
# fewer equations: the sub-system toy --seed solves, for another solver
# (its fixed values against toy's signature below)
run 0 "export --equations 12 --vars 10 --seed (the genuine branch)" "$TC" export ch \
    --message 2 --format mq -o gen.mq --equations 12 --vars 10 --seed master
[ "$(stat -c %a gen.mq)" = 600 ] && grep -q 'secret file' err
check $? "... written as a secret file (mode 600), with a warning"
"$TC" export ch --message 2 --format mq -o full2.mq >/dev/null 2>&1 &&
    python3 "$LC" reduced full2.mq gen.mq mq 2>err &&
    grep -q '^Number of variables (n) : 10$' gen.mq &&
    grep -q '^Number of equations (m) : 12$' gen.mq
check $? "... 12 equations in w_0..w_9, the full system with w_10..w_21 substituted"
"$TC" export ch --message 1 --format mq -o try1.mq --vars 16 --fix-seed $FS --try 1 \
    >/dev/null 2>&1 && cmp -s part.mq try1.mq &&
    "$TC" export ch --message 1 --format mq -o try2.mq --vars 16 --fix-seed $FS --try 2 \
    >/dev/null 2>&1 && ! cmp -s part.mq try2.mq && grep -q "toy's try 2" try2.mq
check $? "--vars 16 is --fix 6; --try 1 is the default, --try 2 the next values"
run 2 "--seed with --fix-seed refused" "$TC" export ch --message 1 --format mq -o x \
    --vars 10 --seed master --fix-seed $FS
run 2 "--seed without --fix or --vars refused" "$TC" export ch --message 1 --format mq \
    -o x --seed master
run 2 "--equations 17 of 16 refused" "$TC" export ch --message 1 --format mq -o x \
    --equations 17
run 2 "--vars 10 with --fix 5 refused" "$TC" export ch --message 1 --format mq -o x \
    --vars 10 --fix 5
run 2 "unknown format refused" "$TC" export ch --message 1 --format maple -o x
run 2 "--fix n refused" "$TC" export ch --message 1 --format mq -o x --fix 22
run 2 "--fix-seed without --fix refused" "$TC" export ch --message 1 \
    --format mq -o x --fix-seed $FS
run 2 "message 3 of 2 refused" "$TC" export ch --message 3 --format mq -o x
run 2 "existing output kept" "$TC" export ch --message 1 --format mq \
    -o full.mq
run 0 "--force replaces it" "$TC" export ch --message 1 --format mq \
    -o full.mq --force
cp -r ch hostile && printf '\377' | dd of=hostile/tts-16-22/pk.tts bs=1 \
    seek=100 conv=notrunc 2>/dev/null
run 2 "a public key that differs from the manifest refused" "$TC" export \
    hostile --message 1 --format mq -o x
grep -q 'SHA-256' err
check $? "and the reason names the hash"

# --- an output is never an input, nor named twice --------------------------
cp master master.orig && cp ch/tts-16-22/pk.tts pk.orig
run 2 "toy --json the master seed given as --seed: refused (--force or not)" \
    timeout 240 "$TC" toy ch --message 2 --equations 12 --vars 10 \
    --seed master --json master --force
grep -q 'is the input' err && cmp -s master master.orig
check $? "... as the input, and the master seed is untouched"
run 2 "export -o the folder's pk.tts --force: refused" timeout 240 "$TC" \
    export ch --message 1 --format mq -o ch/tts-16-22/pk.tts --force
grep -q 'is the input' err && cmp -s ch/tts-16-22/pk.tts pk.orig
check $? "... as the input, and pk.tts is untouched"
printf 'keep\n' >R
run 2 "calibrate --json R --csv R --force: refused before any work" \
    timeout 240 "$TC" calibrate --max-seconds 300 --json R --csv R --force
grep -q 'named twice' err && [ "$(cat R)" = keep ]
check $? "... as one file named twice, and R is untouched"
rm R
run 2 "calibrate --json R --csv ./R: refused before the 300 s budget" \
    timeout 240 "$TC" calibrate --max-seconds 300 --json R --csv ./R
grep -q 'named twice' err && [ ! -e R ]
check $? "... and nothing is written"

# Sage, where Debian's python3-sage is installed (it runs under
# /usr/bin/python3): the sage export loads and vanishes at the signature.
SAGEPY=/usr/bin/python3
if [ -x $SAGEPY ] && $SAGEPY -c 'import sage.all' >/dev/null 2>&1; then
    $SAGEPY -c '
import sys
from sage.all import *
exec(open("full.sage").read())
t = a**25
w = list(open("sig.raw", "rb").read())
x = [sum(((b >> i) & 1) * t**i for i in range(8)) for b in w]
ok = all(g(*x) == 0 for g in I.gens()) and len(I.gens()) == 16
x[3] += 1
sys.exit(0 if ok and any(g(*x) != 0 for g in I.gens()) else 1)' >out 2>err
    check $? "Sage loads the export; its ideal vanishes at the signature, not at a changed one"
else
    skip "Sage loads the export" "python3-sage not installed"
fi

# --- Singular -------------------------------------------------------------------
if [ -z "$SING" ] || [ ! -x "$SING" ]; then
    for d in "Singular loads the export" "toy 8 in 8" "toy genuine branch" \
             "toy timeout" "calibrate"; do
        skip "$d" "Singular not installed (apt-get install singular)"
    done
    run 2 "toy without Singular says how to install it" env \
        TTS_SINGULAR=/nonexistent "$TC" toy ch --message 1 --equations 8 \
        --vars 8 --json t.json
    tap_end
fi
python3 "$LC" singular-at full.singular sig.raw >at.sing &&
    "$SING" -q --no-rc full.singular at.sing >out 2>&1 &&
    grep -q '^zeros 1$' out && grep -q '^count 16$' out && ! grep -q '^? ' out
check $? "Singular loads the export without error; its I vanishes at the signature"
python3 "$LC" singular-at full.singular bad.raw >at2.sing &&
    "$SING" -q --no-rc full.singular at2.sing >out 2>&1 && grep -q '^zeros 0$' out
check $? "and does not at a changed signature"

# the random branch (make check-full: Singular takes seconds on it)
if [ -n "${TTS_CHECK_FULL:-}" ]; then
    run 0 "toy: 8 equations in 8 unknowns, random fixings" "$TC" toy ch \
        --message 1 --equations 8 --vars 8 --fix-seed $FS --json toy.json
    python3 "$LC" toy full.mq toy.json >/dev/null 2>err
    check $? "toy: w satisfies the 8 kept equations (independent evaluation)"
    python3 -c '
import json, sys
j = json.load(open("toy.json"))
ok = (j["set"] == "TTS(16,22)" and j["message"] == 1
      and j["equations"] == list(range(8)) and j["branch"] == "random"
      and j["status"] == "solved" and j["satisfied"] is True
      and j["tries"] >= 1 and j["solver"].startswith("Singular ")
      and j["predicted_dreg"] == 9 and j["predicted_solver_degree"] == 10
      and j["max_degree"] == 10 and j["seconds"] > 0
      and j["digest"] == open("ch/tts-16-22/msg-1.digest", "rb").read().hex())
sys.exit(0 if ok else 1)' 2>err
    check $? "toy JSON: fields, digest, and the degree Singular reached (10 = D_reg + 1 for 8 in 8)"
fi
run 0 "toy: 12 equations in 10 unknowns, the genuine signature's values" \
    "$TC" toy ch --message 2 --equations 12 --vars 10 --seed master \
    --json toy2.json --full-signature
python3 -c '
import json
j = json.load(open("toy2.json"))
assert j["branch"] == "genuine-signature" and j["tries"] == 1
open("w.raw", "wb").write(bytes.fromhex(j["w"]))' 2>err &&
    "$TC" verify ch w.raw --message 2 --set tts-16-22 >out 2>&1 &&
    grep -q '^VALID' out
check $? "toy genuine branch: the unique solution is a signature (tts-challenge verify)"
python3 -c '
import re, sys
fixed = {int(i): int(v, 16) for i, v in re.findall(r"w(\d+)=([0-9a-f]{2})", open("gen.mq").read())}
w = open("w.raw", "rb").read()
sys.exit(0 if sorted(fixed) == list(range(10, 22)) and all(fixed[i] == w[i] for i in fixed) else 1)'
check $? "export --seed fixed w_10..w_21 to the bytes of that signature"
# the genuine branch's report holds the issuer's signature of a live
# message: a secret file, a warning, and only the V solved unknowns
run 0 "toy genuine branch without --full-signature" "$TC" toy ch \
    --message 2 --equations 12 --vars 10 --seed master --json toy3.json
tail10=$(python3 -c 'import json; print(json.load(open("toy2.json"))["w"][20:])')
[ "$(stat -c %a toy3.json)" = 600 ] && grep -q 'warning' err &&
    python3 -c '
import json, sys
j = json.load(open("toy3.json")); f = json.load(open("toy2.json"))
sys.exit(0 if j["w"] == f["w"][:20] else 1)' &&
    ! grep -q "$tail10" toy3.json && ! grep -q "$tail10" out
check $? "... its report is 0600, a warning is given, and only w_0..w_9 are in it and on the terminal"
[ "$(stat -c %a toy2.json)" = 600 ]
check $? "... and with --full-signature the report is 0600 too"
printf 'fedcba9876543210fedcba9876543210' >wrong && chmod 600 wrong
run 2 "toy: a master seed of another challenge refused" "$TC" toy ch \
    --message 2 --equations 12 --vars 10 --seed wrong --json t.json
run 2 "toy: fewer equations than unknowns refused" "$TC" toy ch \
    --message 1 --equations 8 --vars 9 --json t.json
run 2 "toy without Singular says how to install it" env \
    TTS_SINGULAR=/nonexistent "$TC" toy ch --message 1 --equations 8 \
    --vars 8 --json t.json
grep -q 'apt-get install singular' err
check $? "and names the package"
run 1 "toy: a timeout ends the run with exit 1" "$TC" toy ch --message 1 \
    --equations 12 --vars 12 --seed master --timeout 0.5 --json tt.json
grep -q '"status": "timeout"' tt.json && grep -q '"satisfied": false' tt.json
check $? "and the JSON says timeout"
! grep -q '0\.0\.0' tt.json && ! grep -q 'Groebner basis 0.00' err &&
    grep -q 'timed out after' err && grep -q '"groebner_seconds": null' tt.json
check $? "... naming no version Singular did not report and no Groebner basis time it did not reach"
# a solver whose output is not understood: said once, with no "solution"
printf '#!/bin/sh\necho hello\n' >fakesing && chmod 755 fakesing
run 2 "toy with a solver that prints nonsense: refused" env \
    TTS_SINGULAR=$dir/fakesing "$TC" toy ch --message 1 --equations 8 \
    --vars 8 --fix-seed $FS --json fake.json
grep -q 'not understood' err && ! grep -q 'solution after' err
check $? "... saying so, without a \"solution after\" line before it"
# a size that times out is reported with the time it took (as in the CSV)
printf '#!/bin/sh\nexec sleep 30\n' >slowsing && chmod 755 slowsing
run 0 "calibrate with a solver that never answers: stops at its 2 s budget" \
    env TTS_SINGULAR=$dir/slowsing "$TC" calibrate --max-seconds 2 \
    --json slow.json --csv slow.csv
grep -q 'timed out after [1-9][0-9.]* s' err && ! grep -q 'timed out, 0.00 s' err &&
    [ "$(sed -n 2p slow.csv | cut -d, -f6)" = timeout ]
check $? "... its progress line gives the seconds the CSV gives, not 0.00"

# --- a signal leaves nothing running and nothing behind ---------------------
# (the signal as the tool first polls the solver's output: Singular runs)
for sig in INT TERM HUP; do
    T=$dir/lt$sig && mkdir "$T"
    sig_at $sig poll 1 env TMPDIR="$T" "$TC" toy ch --message 1 --equations 14 \
        --vars 14 --fix-seed $FS --timeout 60 --json sig$sig.json
    gone "$T/"
    g=$?
    want=$((128 + $(signum $sig)))
    [ "$sigrc" = $want ] && [ $g = 0 ] && [ -z "$(ls -A "$T")" ] && [ ! -e sig$sig.json ]
    check $? "toy stopped by SIG$sig while Singular runs: Singular killed, no script left, exit $want (got $sigrc)"
done
# a TMPDIR that begins with '-' is a folder, never an option of the solver
mkdir ./-lab
run 0 "toy with TMPDIR=-lab (a relative folder beginning with '-')" env \
    TMPDIR=-lab "$TC" toy ch --message 1 --equations 6 --vars 6 \
    --fix-seed $FS --json dash.json
[ -z "$(ls -A ./-lab)" ] && grep -q '"status": "solved"' dash.json
check $? "... solved, and nothing left in it"

# the calibration itself (8 s of Singular and a chart): make check-full
if [ -z "${TTS_CHECK_FULL:-}" ]; then
    skip "calibrate: stopped by SIGTERM; 8 s, its chart and fit" "make check-full runs it"
    tap_end
fi
T=$dir/ltcal && mkdir "$T"
sig_at TERM poll 1 env TMPDIR="$T" "$TC" calibrate --max-seconds 60 \
    --json sigcal.json --csv sigcal.csv
gone "$T/"
[ $? = 0 ] && [ "$sigrc" = 143 ] && [ -z "$(ls -A "$T")" ] && [ ! -e sigcal.json ] &&
    [ ! -e sigcal.csv ]
check $? "calibrate stopped by SIGTERM: Singular killed, nothing left, no report, exit 143"
mkdir "q'plot" && echo precious >victim && ln -s "$PWD/victim" "q'plot/calibration.svg"
run 0 "calibrate for 8 s" "$TC" calibrate --max-seconds 8 --json cal.json \
    --csv cal.csv --plot "q'plot" --force
[ "$(cat victim)" = precious ] && [ ! -L "q'plot/calibration.svg" ] &&
    grep -q '<svg' "q'plot/calibration.svg" && ! grep -q 'not found' err
check $? "calibrate --plot \"q'plot\" --force: a chart over a symlink replaces the link, not its target"
mkdir pl2 && echo old >pl2/calibration.svg
run 2 "calibrate --plot DIR over an existing chart without --force: refused before the budget" \
    timeout 240 "$TC" calibrate --max-seconds 300 --json c2.json --csv c2.csv --plot pl2
[ "$(cat pl2/calibration.svg)" = old ] && [ ! -e c2.json ]
check $? "... and the chart is untouched"
python3 "$LC" fit cal.csv cal.json 2>err &&
    [ "$(sed -n 2p cal.csv | cut -d, -f6)" = solved ]
check $? "calibrate: CSV and JSON agree, the fit recomputed, degrees D_reg or D_reg + 1"
tap_end
