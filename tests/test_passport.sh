#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-bench passport: the ePassport-issuance experiment, by its output and
# never its speed:
#  - every suite runs the whole flow (--runs 1, small input files; the
#    post-quantum peers when the build has PQClean, else listed as
#    skipped), the report has every step, per run each actor's total = the
#    sum of its steps, and the statistics (median and quartiles) agree with
#    the per-run samples; the sizes that travel (EF.SOD with the DS
#    certificate, Terminal Authentication's bytes) and the modelled
#    contactless read times recomputed here; --hash;
#  - the synthetic inputs have their stated sizes and leave no file behind
#    (also when the run is killed);
#  - the tamper check: with PA's data-group comparison disabled (a test
#    switch) the tampered DG2 passes, and the run must fail, exit 1;
#  - the JSON validates against docs/bench-schema.json (python3-jsonschema),
#    and the schema rejects broken reports; CSV agrees with the JSON;
#  - the chart (gnuplot), the published table with its caveat;
#  - --card: Active Authentication on the TTS(20,28) card image in s51,
#    when the card images are built (skipped visibly otherwise);
#  - bad input: one line on stderr, exit 2, no report.
set -u
: "${top_builddir:=.}"
: "${srcdir:=.}"
. "$srcdir/tests/tap_lib.sh"
BENCH=${TTS_BENCH:-$top_builddir/tts-bench}
# the build's PQClean (configure --with-pqclean), empty without it
PQ=$(sed -n 's/^PQCLEAN_ROOT = //p' "$top_builddir/Makefile" 2>/dev/null)
SCHEMA=$srcdir/docs/bench-schema.json
CARD_DIR=$top_builddir/8051
tap_abs BENCH SCHEMA CARD_DIR
if [ ! -x "$BENCH" ]; then
    echo "1..0 # SKIP tts-bench not built (it needs OpenSSL)"
    exit 0
fi
tap_enter
mkdir tmp
TMPDIR=$dir/tmp
export TMPDIR
unset TTS_BENCH_PASSPORT_SKIP_DG_CHECK

have_py=0
command -v python3 >/dev/null 2>&1 && python3 -c 'import jsonschema' 2>/dev/null && have_py=1
pycheck() { # DESC SCRIPT ARGS...: a python check, skipped without jsonschema
    desc=$1
    shift
    if [ $have_py = 0 ]; then skip "$desc" "python3-jsonschema missing"; return; fi
    python3 - "$@" >err 2>&1
    check $? "$desc"
}
have_gp=0
command -v gnuplot >/dev/null 2>&1 && have_gp=1

# small inputs: the ICAO specimen MRZ of a TD1 card, and short binaries
printf 'I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<\n' >mrz.txt
head -c 2048 /dev/urandom >portrait.jpg
head -c 512 /dev/urandom >f1.bin
head -c 600 /dev/urandom >f2.bin
head -c 256 /dev/urandom >sig.jpg
IN="--mrz-file mrz.txt --portrait portrait.jpg --finger1 f1.bin --finger2 f2.bin --signature sig.jpg"

# ---- every suite, one run, small inputs -----------------------------------------
plot=""
[ $have_gp = 1 ] && plot="--plot charts"
# shellcheck disable=SC2086
run 0 "every suite runs the flow once on small inputs" \
    "$BENCH" passport --runs 1 $IN --published --json all.json --csv all.csv $plot
cp out all.txt
for s in ECDSA-P-256 RSA-PSS-2048 Ed25519 "TTS(20,28)" "TTS(36,50)" "SFLASH(26,37)"; do
    grep -q "^$s (" all.txt
    check $? "$s: its step table"
done
for s in ML-DSA-44 ML-DSA-65 Falcon-512 SPHINCS+-SHA2-128s SPHINCS+-SHA2-128f; do
    if [ -n "$PQ" ]; then
        grep -q "^$s (pqclean)" all.txt
        check $? "$s: its step table (PQClean)"
    else
        grep -q "^# skipped: $s: built without PQClean" all.txt
        check $? "$s: skipped, built without PQClean"
    fi
done
grep -q "tampered DG2 failed Passive Authentication" all.txt
check $? "the text states the tamper checks"
grep -q "^caveat: the study's stack is Python over liboqs" all.txt &&
    grep -q "^published beside this run, ms; source: ePassport Issuance PQC Benchmark" all.txt &&
    grep -q "^ECDSA  *0.12  *0.08  *1.6 | ECDSA-P-256 .* the study's classic suite" all.txt &&
    grep -q "^SLH-DSA  *19.00  *1.20  *89.0 | SPHINCS+-SHA2-128f .*set not named" all.txt
check $? "--published: the study's figures beside this run, with their source and the caveat"

cat >checks.py <<"PY"
import csv, io, json, sys, jsonschema
ACTORS = {"once": ["pki_keys", "ds_cert", "ta_pki"],
          "issuer": ["load", "chip_keys", "build", "hash", "sign"],
          "terminal": ["pace_t", "decode", "pa_cert", "pa_sod", "pa_dg", "ca_t", "ta_t", "aa_t"],
          "chip": ["pace_c", "ca_c", "ta_c", "aa_c"]}
STEPS = [k for a in ACTORS.values() for k in a]
def read_ms(n, kbps):
    # the model the report states: 9 bits a byte, 223-byte chunks, 24 + 21
    # bytes of overhead a chunk
    chunks = -(-n // 223)
    return (n + chunks * 45) * 9 / kbps
def schema():
    s = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)
def quart(x, p):
    x = sorted(x); h = (len(x) - 1) * p; lo = int(h)
    return x[lo] + ((h - lo) * (x[lo + 1] - x[lo]) if lo + 1 < len(x) else 0)
def check_stats(st, v, what):
    for k, want in (("min", min(v)), ("max", max(v)), ("mean", sum(v) / len(v)),
                    ("q1", quart(v, .25)), ("median", quart(v, .5)), ("q3", quart(v, .75))):
        assert abs(st[k] - want) <= 0.051, (what, k, st[k], want)
    assert st["min"] <= st["q1"] <= st["median"] <= st["q3"] <= st["max"], what
def check_report(d, runs):
    assert d["mode"] == "passport" and d["runs"] == runs
    for r in d["results"]:
        assert r["runs"] == runs and r["verified"] and r["tamper_rejected"], r["suite"]
        st = r["steps"]
        for k in STEPS + ["total_" + a for a in ACTORS]:
            assert len(st[k]["ns_per_run"]) == runs, (r["suite"], k)
            check_stats(st[k]["ns"], st[k]["ns_per_run"], (r["suite"], k))
        for a, steps in ACTORS.items():
            for i in range(runs):
                assert sum(st[k]["ns_per_run"][i] for k in steps) == st["total_" + a]["ns_per_run"][i], (r["suite"], a)
        b = r["bytes"]
        assert b["sod_sent"] == b["sod"] + b["certificate"], r["suite"]
        for kbps in (106, 424, 848):
            want = read_ms(b["sod_sent"] + b["dg"][5], kbps)
            assert abs(r["read_ms"]["kbps_%d" % kbps] - want) <= 0.001, (r["suite"], kbps)
PY

pycheck "all suites: the JSON valid against the schema, every step, each actor's total = sum of its steps, sizes, read times, statistics from the samples" \
    "$SCHEMA" all.json "$PQ" <<"PY"
import json, sys
sys.path.insert(0, ".")
from checks import schema, check_report
d = json.load(open(sys.argv[2]))
schema().validate(d)
check_report(d, 1)
pq = ["ML-DSA-44", "ML-DSA-65", "Falcon-512", "SPHINCS+-SHA2-128s", "SPHINCS+-SHA2-128f"]
assert [r["suite"] for r in d["results"]] == ["ECDSA-P-256", "RSA-PSS-2048", "Ed25519",
    "TTS(20,28)", "TTS(36,50)", "SFLASH(26,37)"] + (pq if sys.argv[3] else [])
assert [(i["name"], i["bytes"], i["file"]) for i in d["inputs"]] == [("mrz", 93, "mrz.txt"),
    ("portrait", 2048, "portrait.jpg"), ("finger1", 512, "f1.bin"), ("finger2", 600, "f2.bin"),
    ("signature", 256, "sig.jpg")]
# one document hash for every suite: SHA-256 by default
assert d["hash"] == "SHA-256" and {r["hash"] for r in d["results"]} == {"SHA-256"}
t = {r["suite"]: r for r in d["results"]}
assert t["TTS(20,28)"]["bytes"]["signature"] == 28 and t["TTS(36,50)"]["bytes"]["aa_pk"] == 47700
assert t["Ed25519"]["bytes"]["certificate"] == 38 + 32 + 2 + 64
# the SOD: header, six (DG number, SHA-256) pairs, the signature's length and itself
assert t["Ed25519"]["bytes"]["sod"] == 8 + 6 * 33 + 2 + 64
# Terminal Authentication: the DV and IS certificates and a signature
assert t["Ed25519"]["bytes"]["ta_to_chip"] == 2 * (38 + 32 + 2 + 64) + 64
assert t["TTS(36,50)"]["bytes"]["dg"][5] > 47700 and t["TTS(36,50)"]["read_ms"]["kbps_106"] > 4000
if sys.argv[3]:
    assert t["ML-DSA-44"]["bytes"]["signature"] == 2420 and t["ML-DSA-44"]["bytes"]["ds_pk"] == 1312
assert all(r["card"] is None for r in d["results"]) and d["card"] is None
p = d["published"]["rows"]
assert d["published"]["source"].startswith("ePassport Issuance PQC Benchmark")
assert p[0]["measured_as"] == "ECDSA-P-256" and p[0]["today_ms"]["issuer"] > 0
assert [x["measured_as"] for x in p[1:]] == ["ML-DSA-44", "SPHINCS+-SHA2-128f"]
assert all((x["today_ms"] is not None) == bool(sys.argv[3]) for x in p[1:])
PY

pycheck "the schema rejects broken passport reports" "$SCHEMA" all.json <<"PY"
import copy, json, sys
sys.path.insert(0, ".")
from checks import schema
v = schema()
d = json.load(open(sys.argv[2]))
def broken(edit):
    x = copy.deepcopy(d); edit(x)
    return not v.is_valid(x)
assert v.is_valid(d)
assert broken(lambda x: x["results"][0]["steps"].pop("pa_sod"))
assert broken(lambda x: x["results"][0]["steps"].pop("total_chip"))
assert broken(lambda x: x["results"][0].pop("read_ms"))
assert broken(lambda x: x["results"][0]["bytes"].pop("sod_sent"))
assert broken(lambda x: x["results"][0]["steps"]["sign"]["ns"].pop("q3"))
assert broken(lambda x: x["results"][0].update(tamper_rejected=False))
assert broken(lambda x: x["results"][0].update(verified=False))
assert broken(lambda x: x["results"][0]["steps"]["aa_c"].update(where="chip"))
assert broken(lambda x: x["results"][0].update(suite="ML-DSA-87"))
assert broken(lambda x: x.pop("inputs"))
assert broken(lambda x: x.update(extra=1))
PY

pycheck "CSV: the JSON's aggregates and runs, row by row" all.json all.csv <<"PY"
import csv, io, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(io.StringIO("".join(l for l in open(sys.argv[2]) if not l.startswith("#")))))
assert len(rows) == sum(len(r["steps"]) * (6 + r["runs"]) for r in d["results"]), len(rows)
for r in d["results"]:
    for k, st in r["steps"].items():
        mine = [x for x in rows if x["suite"] == r["suite"] and x["step"] == k]
        assert {x["actor"] for x in mine} == {next(s["role"] for s in d["steps"] if s["step"] == k)}
        assert [x["row"] for x in mine] == ["min", "q1", "median", "q3", "max", "mean", "1"], (r["suite"], k)
        assert float(mine[2]["ns"]) == st["ns"]["median"] and int(mine[6]["ns"]) == st["ns_per_run"][0]
PY

if [ $have_gp = 1 ]; then
    [ -s charts/passport.svg ] && head -c 64 charts/passport.svg | grep -q -e '^<?xml' -e '^<svg' &&
        [ "$(head -c 8 charts/passport.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        grep -q '^"issuer, per document" ' charts/passport.dat && grep -q 'errorbars' charts/passport.gp &&
        grep -q 'median of 1 runs' charts/passport.gp && [ -s charts/passport-steps.svg ] &&
        grep -q '^"inspection: SOD verified" ' charts/passport-steps.dat &&
        grep -q 'title "TTS(20,28) (broken)"' charts/passport.gp &&
        ! grep -q 'title "Ed25519 (broken)"' charts/passport.gp
    check $? "--plot: the totals per actor and the signature steps, SVG and PNG, runs in the caption, broken suites marked"
    if gnuplot -e 'set terminal' 2>&1 | grep -q pdfcairo; then
        [ "$(head -c 5 charts/passport.pdf)" = "%PDF-" ]
        check $? "--plot: the charts also as PDF"
    else
        skip "--plot: the charts also as PDF" "gnuplot without pdfcairo"
    fi
else
    skip "--plot: passport.svg and passport.png" "gnuplot missing"
fi

# ---- the synthetic inputs, three runs ---------------------------------------------
run 0 "synthetic inputs, three runs" "$BENCH" passport --suite "tts(20,28)" --runs 3 --json syn.json
cp out syn.txt
[ -z "$(ls -A tmp)" ]
check $? "the synthetic input files removed"
grep -q "^# inputs: mrz 90 B (synthetic), portrait 20480 B (synthetic), finger1 12288 B (synthetic), finger2 12288 B (synthetic), signature 6144 B (synthetic)$" syn.txt
check $? "synthetic inputs of the stated sizes"
pycheck "synthetic: the JSON valid, three runs, quartiles from the samples" "$SCHEMA" syn.json <<"PY"
import json, sys
sys.path.insert(0, ".")
from checks import schema, check_report
d = json.load(open(sys.argv[2]))
schema().validate(d)
check_report(d, 3)
assert [r["suite"] for r in d["results"]] == ["TTS(20,28)"]
assert [i["bytes"] for i in d["inputs"]] == [90, 20480, 12288, 12288, 6144]
assert all(i["file"] is None for i in d["inputs"])
PY

"$BENCH" passport --suite Ed25519 --runs 1 --json - >so.json 2>so.err
check $? "--json -: the report on standard output"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' so.json 2>err &&
    grep -q "Ed25519" so.err
check $? "... standard output holds the JSON report alone, the text went to standard error"
"$BENCH" passport --suite Ed25519 --runs 1 --csv - >so.csv 2>so.err &&
    ! grep -q "^# cpu: .*cores" so.csv && grep -q "^# cpu: .*cores" so.err &&
    grep -q "^# mode: passport" so.csv
check $? "--csv -: standard output holds the CSV report alone"
run 2 "--json - --csv -: one report on standard output, refused" \
    "$BENCH" passport --suite Ed25519 --runs 1 --json - --csv -
grep -q "one report on standard output" err
check $? "... saying why"

run 0 "--hash sha512" "$BENCH" passport --suite Ed25519 --runs 1 --hash sha512 --json h.json
pycheck "--hash sha512: the JSON says so, the SOD holds 64-byte hashes" "$SCHEMA" h.json <<"PY"
import json, sys
sys.path.insert(0, ".")
from checks import schema
d = json.load(open(sys.argv[2]))
schema().validate(d)
assert d["hash"] == "SHA-512" and d["results"][0]["hash"] == "SHA-512"
assert d["results"][0]["bytes"]["sod"] == 8 + 6 * 65 + 2 + 64
PY

# A run killed by SIGTERM leaves no temporary inputs: while it writes them
# (its 3rd write is the third input) and after the measurement (the 6th,
# the first line of the report).
if command -v strace >/dev/null 2>&1; then
    for n in 3 6; do
        sig_at TERM write $n "$BENCH" passport --suite Ed25519 --runs 2
        [ "$sigrc" -eq 143 ] && [ -z "$(ls -A tmp)" ]
        check $? "killed by SIGTERM at write $n: the temporary inputs removed"
    done
else
    skip "killed by SIGTERM: the temporary inputs removed" "strace missing"
fi

# ---- the tamper check can fail -----------------------------------------------------
TTS_BENCH_PASSPORT_SKIP_DG_CHECK=1 "$BENCH" passport --suite Ed25519 --runs 1 --json tamper.json >out 2>err
rc=$?
[ $rc -eq 1 ] && grep -q "a tampered DG2 passed Passive Authentication" err && [ ! -e tamper.json ]
check $? "PA blind to the data groups: the tampered DG2 passes, and the run fails (exit 1, no report)"

# ---- --card -----------------------------------------------------------------------
if command -v "${S51:-s51}" >/dev/null 2>&1 && [ -f "$CARD_DIR/tts-20-28.ihx" ]; then
    [ -n "${S51:-}" ] && export TTS_S51="$S51"
    run 0 "--card: Active Authentication on the TTS(20,28) card image" \
        env TTS_CARD_DIR="$CARD_DIR" "$BENCH" passport --card --suite "TTS(20,28)" --suite Ed25519 --runs 2 --json card.json
    cp out card.txt
    grep -q "^Active Authentication on the card (8032 core, 3.57 MHz, 12T" card.txt &&
        grep -q "^TTS(20,28) .*tts-20-28.ihx  *[0-9][0-9]* " card.txt &&
        grep -q "^Ed25519 .*(host only)" card.txt
    check $? "--card: the card's SIGN cycles and time beside the host's, the host-only suite said"
    pycheck "--card: the JSON valid; simulated time = cycles x 12 / 3.57 MHz" "$SCHEMA" card.json <<"PY"
import json, sys
sys.path.insert(0, ".")
from checks import schema, check_report
d = json.load(open(sys.argv[2]))
schema().validate(d)
check_report(d, 2)
assert d["card"] == {"cpu": "8032", "mhz": 3.57, "clocks_per_cycle": 12}
t, e = (next(r for r in d["results"] if r["suite"] == s) for s in ("TTS(20,28)", "Ed25519"))
assert t["card"]["image"].endswith("tts-20-28.ihx")
assert e["card"] is None and "aa_card_chip" not in e["steps"]
cyc = t["card"]["sign_cycles_per_run"]
assert len(cyc) == 2 and all(c > 10000 for c in cyc)
assert t["steps"]["aa_card_chip"]["where"] == "card" and t["steps"]["aa_card_terminal"]["where"] == "host"
for c, ns in zip(cyc, t["steps"]["aa_card_chip"]["ns_per_run"]):
    assert abs(ns - c * 12 * 1000 / 3.57) <= 1, (c, ns)
PY
    # the card session's own messages carry the tool's name
    env TTS_CARD_DIR="$CARD_DIR" TTS_S51="$dir/nowhere/s51" "$BENCH" passport --card \
        --suite "TTS(20,28)" >out 2>err
    rc=$?
    [ $rc -eq 2 ] && grep -q "^tts-bench: could not run .*nowhere/s51" err && ! grep -q "tts-card" err
    check $? "--card with no simulator: exit 2, every message in tts-bench's name (got $rc)"
else
    skip "--card: Active Authentication on the card image" "the 8051 card build (sdcc, s51) is not configured"
    skip "--card: the card's figures beside the host's" "no card build"
    skip "--card: the JSON" "no card build"
    skip "--card with no simulator: the messages in tts-bench's name" "no card build"
fi
# An absent image: refused before any measurement.
env TTS_CARD_DIR="$dir/nowhere" "$BENCH" passport --card --suite "TTS(20,28)" >out 2>err
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "no card image .*nowhere/tts-20-28.ihx" err
check $? "--card without the image: one line, exit 2"
"$BENCH" passport --card --suite Ed25519 >out 2>err
[ $? -eq 2 ] && grep -q "needs a TTS suite" err
check $? "--card without a TTS suite: exit 2"

# ---- bad input: one line on stderr, exit 2, no report --------------------------------
refused() { # DESC PATTERN ARGS...
    desc=$1 pat=$2
    shift 2
    "$BENCH" passport --json bad.json "$@" >out 2>err
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q -- "$pat" err && [ ! -e bad.json ]; then
        pass "$desc"
    else
        flunk "$desc (exit $rc)"
        diag err
    fi
}
printf 'P<UTOERIKSSON<<ANNA\n' >short.txt
printf 'p<utoeriksson<<anna<maria<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n' >lower.txt
: >empty.bin
refused "a missing input file" "portrait: nosuch.jpg: No such file or directory" --portrait nosuch.jpg
refused "a folder as input" "finger1: tmp is a directory" --finger1 tmp
mkfifo fifo && refused "a FIFO as input (refused, not waited on)" "finger2: fifo.*not a regular file" --finger2 fifo
if [ -e /proc/kmsg ]; then
    refused "a kernel file that blocks its reader (/proc/kmsg): refused, not waited on" \
        "portrait: /proc/kmsg.*not a regular file" --portrait /proc/kmsg
else
    skip "a kernel file that blocks its reader" "no /proc/kmsg"
fi
refused "an empty input file" "signature: empty.bin: empty" --signature empty.bin
refused "an MRZ of the wrong length" "not a machine readable zone" --mrz-file short.txt
refused "an MRZ in lower case" "not a machine readable zone" --mrz-file lower.txt
refused "--runs 0" "wants 1..100000" --runs 0
refused "--runs abc" "wants 1..100000" --runs abc
refused "--runs -1" "wants 1..100000" --runs -1
refused "--runs 99999999999999999999" "wants 1..100000" --runs 99999999999999999999
refused "an unknown suite" 'unknown suite "ML-DSA-87"' --suite ML-DSA-87
refused "an unknown --hash" 'unknown --hash "md5"' --hash md5
if [ -z "$PQ" ]; then
    refused "a post-quantum suite without PQClean" "ML-DSA-44 needs PQClean" --suite ML-DSA-44
fi
refused "--suite without a value" "needs a value" --suite
refused "an unknown option" 'unknown option "--frob"' --frob
refused "--json in a missing folder" "nodir" --suite Ed25519 --runs 1 --json nodir/x.json
[ -z "$(ls -A tmp)" ]
check $? "refused runs leave no temporary inputs"

tap_end
