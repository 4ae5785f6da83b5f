#!/bin/sh
# tts-bench: structure of its output, never its speed. Runs
# `tts-bench primitives --quick --json F` and `tts-bench table`; checks that
# every scheme is present, min <= median <= max in every row, and that the
# JSON parses (python3 -m json.tool; skipped, exit 77, without python3).
set -u
: "${top_builddir:=.}"
BENCH=${TTS_BENCH:-$top_builddir/tts-bench}
case $BENCH in /*) ;; *) BENCH=$(pwd)/$BENCH ;; esac
if [ ! -f "$BENCH" ] || [ ! -x "$BENCH" ]; then
    echo "not ok 1 - tts-bench not found at $BENCH"
    exit 99
fi
command -v python3 >/dev/null 2>&1 || { echo "# python3 missing: skipped"; exit 77; }
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' HUP INT TERM
cd "$dir" || exit 99

t=0
fail=0
ok() { t=$((t + 1)); echo "ok $t - $1"; }
notok() { t=$((t + 1)); fail=1; echo "not ok $t - $1"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

check "primitives --quick --json runs" \
    '"$BENCH" primitives --quick --json out.json --csv out.csv >prim.txt 2>prim.err'
check "table runs" '"$BENCH" table >table.txt 2>table.err'
check "--help" '"$BENCH" --help >/dev/null'
check "bad command refused" '! "$BENCH" frobnicate >/dev/null 2>&1'
check "JSON parses" 'python3 -m json.tool out.json >/dev/null'

# Every scheme in the text report and in the JSON (sect163 curves may be
# absent from an OpenSSL build: then a visible "skipped" line is required).
for s in "TTS(16,22)" "TTS(20,26)" "TTS(20,28)" "TTS(24,32)" "TTS(24,34)" \
    "TTS(28,38)" "TTS(32,44)" "TTS(36,50)" ECDSA-sect163k1 ECDSA-sect163r2 \
    ECDSA-P-256 RSA-PSS-1024 RSA-PSS-2048 RSA-PSS-3072 Ed25519; do
    if grep -F "$s " prim.txt | grep -q ' verify '; then
        ok "$s in primitives"
    elif grep -F "# skipped: $s" prim.txt >/dev/null; then
        ok "$s skipped visibly"
    else
        notok "$s in primitives"
    fi
done
check "ref backend measured" 'grep -q "^TTS(20,28) *ref " prim.txt'

# min <= median <= max, cycles and us, every row (columns: scheme backend
# op runs med min max mean med_us min_us max_us mean_us).
check "min <= median <= max in every text row" \
    'awk "NF == 12 && (\$3 == \"keygen\" || \$3 == \"sign\" || \$3 == \"verify\") {
        n++; if (\$4 < 1 || \$6 > \$5 || \$5 > \$7 || \$10 > \$9 || \$9 > \$11) bad++ }
        END { exit !(n >= 45 && bad == 0) }" prim.txt'

check "JSON: schemes, sizes, statistics consistent" 'python3 - out.json <<"PY"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "tts-bench" and d["mode"] == "primitives"
env = d["environment"]
for k in ("cpu", "cores", "compiler", "openssl", "libsodium", "libtts",
          "default_backend", "cycle_source", "date"):
    assert k in env, k
names = {r["scheme"] for r in d["results"]}
want = {"TTS(%d,%d)" % mn for mn in [(16,22),(20,26),(20,28),(24,32),(24,34),(28,38),(32,44),(36,50)]}
want |= {"ECDSA-P-256", "RSA-PSS-1024", "RSA-PSS-2048", "RSA-PSS-3072", "Ed25519"}
assert want <= names, want - names
for c in ("sect163k1", "sect163r2"):
    assert "ECDSA-" + c in names or any(c in s for s in d["skipped"]), c
for r in d["results"]:
    assert r["pk_bytes"] > 0 and r["sk_bytes"] > 0 and r["sig_bytes"] > 0, r["scheme"]
    for op in ("keygen", "sign", "verify"):
        o = r["ops"][op]
        assert o["runs"] >= 1, (r["scheme"], op)
        for u in ("cycles", "ns"):
            s = o[u]
            assert s["min"] <= s["median"] <= s["max"], (r["scheme"], op, u)
            assert s["min"] <= s["mean"] <= s["max"], (r["scheme"], op, u)
PY'

check "CSV: header and one row per text row" '
    [ "$(grep -c "^scheme,family,backend,op,runs," out.csv)" -eq 1 ] &&
    [ "$(grep -c "^\"" out.csv)" -eq "$(awk "NF == 12 && \$4 ~ /^[0-9]+\$/" prim.txt | wc -l)" ] &&
    grep -q "^# cpu: " out.csv'

check "table B rows" 'grep -q "^ECDSA-163 " table.txt && grep -q "^RSA-PSS-1024 " table.txt &&
    grep -q "^TTS(20,28) " table.txt && grep "^SFLASH(26,37)" table.txt | grep -q "not implemented"'
check "table C: eight sets" '[ "$(grep -c "^TTS([0-9]*,[0-9]*) *|" table.txt)" -eq 8 ]'
check "claimed ratios" 'grep -q "RSA-PSS-1024 sign / TTS(20,28) sign" table.txt &&
    grep -q "ECDSA-163 verify / TTS(20,28) verify" table.txt'

echo "1..$t"
exit $fail
