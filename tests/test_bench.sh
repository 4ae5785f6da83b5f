#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-bench: the structure of its output, never its speed. Runs
# `primitives --quick`, `files --quick` and `table`, each with --json,
# --csv and (when gnuplot is on PATH) --plot, and checks:
#  - every scheme present (or skipped visibly), every file size present;
#  - statistics consistent: min <= median <= max, best <= average <= worst,
#    and recomputed here from the per-run samples of the JSON report;
#  - files: per run, total = hash + private-key operation; the text table
#    agrees; the temporary inputs are removed (also when killed);
#  - the JSON valid against docs/bench-schema.json, by a small validator
#    written here (and by python3-jsonschema too when installed); the
#    validator is shown to reject broken reports;
#  - CSV rows agree with the JSON;
#  - charts: non-empty SVG and PNG when gnuplot is present (skipped
#    visibly otherwise), and without gnuplot exit 1 with the script kept;
#  - bad command lines refused with exit 2.
# Checks needing python3 are skipped visibly without it.
set -u
: "${top_builddir:=.}"
: "${srcdir:=.}"
BENCH=${TTS_BENCH:-$top_builddir/tts-bench}
case $BENCH in /*) ;; *) BENCH=$(pwd)/$BENCH ;; esac
SCHEMA=$srcdir/docs/bench-schema.json
case $SCHEMA in /*) ;; *) SCHEMA=$(pwd)/$SCHEMA ;; esac
if [ ! -f "$BENCH" ] || [ ! -x "$BENCH" ]; then
    echo "not ok 1 - tts-bench not found at $BENCH"
    exit 99
fi
# the build's PQClean (configure --with-pqclean), empty without it
PQ=$(sed -n 's/^PQCLEAN_ROOT = //p' "$top_builddir/Makefile" 2>/dev/null)
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' HUP INT TERM
cd "$dir" || exit 99
mkdir tmp
TMPDIR=$dir/tmp
export TMPDIR

t=0
fail=0
ok() { t=$((t + 1)); echo "ok $t - $1"; }
notok() { t=$((t + 1)); fail=1; echo "not ok $t - $1"; }
skip() { t=$((t + 1)); echo "ok $t - $1 # SKIP $2"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1
pycheck() { if [ $have_py = 1 ]; then check "$1" "$2"; else skip "$1" "python3 missing"; fi; }
have_gp=0
command -v gnuplot >/dev/null 2>&1 && have_gp=1
plot_opt() { [ $have_gp = 1 ] && echo "--plot $1"; }

# ---- runs ------------------------------------------------------------------
# shellcheck disable=SC2046
check "primitives --quick runs" \
    '"$BENCH" primitives --quick --json p.json --csv p.csv $(plot_opt plots) >prim.txt 2>prim.err'
# shellcheck disable=SC2046
check "files --quick runs" \
    '"$BENCH" files --quick --json f.json --csv f.csv $(plot_opt plots) >files.txt 2>files.err'
# shellcheck disable=SC2046
check "table runs" '"$BENCH" table --json t.json --csv t.csv $(plot_opt plots) >table.txt 2>table.err'
check "files: temporary inputs removed" '[ -z "$(ls -A tmp)" ]'
# every report says TTS and SFLASH are broken: the text and CSV "# status:"
# lines, the JSON "status" (the schema requires it), the charts' labels
check "every report carries the broken sentence (text, CSV, JSON)" \
    'for r in prim.txt p.csv f.csv t.csv; do grep -q "^# status: TTS and SFLASH are broken: " $r || exit 1; done &&
     grep -q "\"status\": \"TTS and SFLASH are broken: " p.json'
if [ $have_gp = 1 ]; then
    check "the charts mark TTS and SFLASH broken" \
        'grep -q "^\"TTS(20,28) [a-z0-9]* (broken)\"" plots/primitives.dat &&
         grep -q "SFLASH.* (broken)" plots/primitives.dat && ! grep -q "Ed25519.*(broken)" plots/primitives.dat &&
         grep -q "TTS([0-9,]*) (broken)" plots/files.gp &&
         grep -q "^\"TTS(20,28) (broken) sign\"" plots/table.dat &&
         grep -q "^\"SFLASH(26,37) (broken) sign\"" plots/table.dat &&
         grep -q "^\"ECDSA-163 sign\"" plots/table.dat &&
         grep -q "^set title .*TTS and SFLASH are broken" plots/table.gp'
else
    skip "the charts mark TTS and SFLASH broken" "gnuplot missing"
fi
check "--help names every command" \
    '"$BENCH" --help >help.txt && grep -q "primitives" help.txt && grep -q "files" help.txt &&
     grep -q "table" help.txt && grep -q -- "--plot" help.txt'

# ---- bad command lines: exit 2, and no report written ------------------------
refused() { "$BENCH" "$@" >/dev/null 2>&1; [ $? -eq 2 ]; }
check "no command: exit 2" 'refused'
check "unknown command: exit 2" 'refused frobnicate'
check "unknown option: exit 2" 'refused files --frob'
check "-n 0: exit 2" 'refused files -n 0'
check "-n abc: exit 2" 'refused primitives -n abc'
check "-n -3: exit 2" 'refused primitives -n -3'
check "-n without a value: exit 2" 'refused files -n'
check "--json without a value: exit 2" 'refused files --quick --json'
check "--plot without a value: exit 2" 'refused primitives --plot'
check "table --quick: accepted (the table is always quick), CSV and JSON agree on the mode" \
    '"$BENCH" table --quick -n 10 --json tq.json --csv tq.csv >/dev/null 2>&1 &&
     grep -q "^# mode: table$" tq.csv && grep -q "^# quick: true$" tq.csv &&
     grep -q "\"mode\": \"table\"" tq.json'
check "refused run wrote no report" 'refused files --quick --json bad.json -n x && [ ! -e bad.json ]'
check "--json in a missing directory: exit 2" 'refused table --json nodir/t.json'
check "--csv in a missing directory: exit 2" 'refused table --csv nodir/t.csv'
check "--plot at an existing file: exit 2" ': > afile && refused table --plot afile'
check "unwritable --json: exit 2 before measuring" \
    '"$BENCH" files --quick --json nodir/x.json >/dev/null 2>err.txt; [ $? -eq 2 ] &&
     grep -q "nodir/x.json" err.txt'

# ---- primitives: text --------------------------------------------------------
# Every scheme (sect163 curves may be absent from an OpenSSL build: then a
# visible "skipped" line is required).
for s in "TTS(16,22)" "TTS(20,26)" "TTS(20,28)" "TTS(24,32)" "TTS(24,34)" \
    "TTS(28,38)" "TTS(32,44)" "TTS(36,50)" ECDSA-sect163k1 ECDSA-sect163r2 \
    ECDSA-P-256 RSA-PSS-1024 RSA-PSS-2048 RSA-PSS-3072 Ed25519 "SFLASH(26,37)"; do
    if grep -F "$s " prim.txt | grep -q ' verify '; then
        ok "$s in primitives"
    elif grep -F "# skipped: $s" prim.txt >/dev/null; then
        ok "$s skipped visibly"
    else
        notok "$s in primitives"
    fi
done
check "ref backend measured" 'grep -q "^TTS(20,28) *ref " prim.txt'
# The post-quantum peers: measured when the build has PQClean (configure
# --with-pqclean), else each one skipped with the reason.
for s in ML-DSA-44 ML-DSA-65 Falcon-512 SPHINCS+-SHA2-128s SPHINCS+-SHA2-128f; do
    if [ -n "$PQ" ]; then
        check "$s measured (PQClean)" 'grep -F "$s " prim.txt | grep " pqclean " | grep -q " verify "'
    else
        check "$s skipped: built without PQClean" \
            'grep -F "# skipped: $s" prim.txt | grep -q "built without PQClean"'
    fi
done
# columns: scheme backend op runs, then in cycles and in us: med q1 q3 min
# max mean (passport's statistics: quartiles by linear interpolation)
check "primitives: min <= q1 <= median <= q3 <= max, min <= mean <= max in every row" \
    'awk "NF == 16 && (\$3 == \"keygen\" || \$3 == \"sign\" || \$3 == \"verify\") {
        n++; if (\$4 < 1) bad++
        for (b = 5; b <= 11; b += 6)
            if (\$(b+3) > \$(b+1) || \$(b+1) > \$b || \$b > \$(b+2) || \$(b+2) > \$(b+4) ||
                \$(b+3) > \$(b+5) || \$(b+5) > \$(b+4)) bad++ }
        END { exit !(n >= 45 && bad == 0) }" prim.txt'
check "primitives: the header names the quartiles" \
    'grep -q "^scheme  *backend  *op  *runs  *med_cyc  *q1_cyc  *q3_cyc  *min_cyc  *max_cyc  *mean_cyc  *med_us  *q1_us  *q3_us  *min_us  *max_us  *mean_us$" prim.txt'

# ---- files: text -------------------------------------------------------------
# summary rows: scheme size | hash b a w | key op b a w | total b a w | run-1 read
files_rows() { grep -E '^(TTS\(20,28\)|RSA-PSS-2048|ECDSA-P-256|Ed25519ph|Ed25519) ' files.txt |
    awk -F'|' 'NF == 5'; }
for s in "TTS(20,28)" RSA-PSS-2048 ECDSA-P-256 Ed25519ph Ed25519; do
    check "files: $s at 1 KB, 100 KB and 1 MB" \
        '[ "$(files_rows | grep -F "$s " | awk "\$1 == \"$s\"" | wc -l)" -eq 3 ]'
done
check "files: best <= average <= worst in every column" \
    'files_rows | awk -F"|" "{ for (c = 2; c <= 4; c++) { split(\$c, v, \" \");
        if (v[1] != \"-\") { n++; if (v[1] > v[2] + 0.00005 || v[2] > v[3] + 0.00005) bad++ } } }
        END { exit !(n == 39 && bad == 0) }"'
check "files: average total = average hash + average key op (to rounding)" \
    'files_rows | awk -F"|" "{ split(\$2, h, \" \"); split(\$3, k, \" \"); split(\$4, s, \" \");
        if (h[1] == \"-\") next; n++; d = h[2] + k[2] - s[2]; if (d < 0) d = -d;
        if (d > 0.00025) bad++ } END { exit !(n == 12 && bad == 0) }"'
check "files: pure Ed25519 not split" \
    'files_rows | awk "\$1 == \"Ed25519\"" | grep -q "|  *-  *-  *- |  *-  *-  *- |"'
check "files: every signature verified" 'grep -q "every signature verified" files.txt'
check "files: KB defined" 'grep -q "KB = 1024 B" files.txt && grep -q "KB = 1024 B" help.txt'

# ---- JSON: schema --------------------------------------------------------------
cat >validate.py <<"PY"
# A validator for the JSON Schema keywords docs/bench-schema.json uses:
# type, required, properties, additionalProperties, items, enum, minimum,
# $ref (to #/$defs/...), oneOf, and boolean schemas. Unknown keywords
# other than annotations are an error, so the schema cannot silently
# outgrow it.
import json, sys

ANNOT = {"$schema", "$id", "title", "description", "$defs"}

def is_type(v, t):
    if t == "null": return v is None
    if t == "boolean": return isinstance(v, bool)
    if t == "integer": return isinstance(v, int) and not isinstance(v, bool)
    if t == "number": return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "string": return isinstance(v, str)
    if t == "array": return isinstance(v, list)
    if t == "object": return isinstance(v, dict)
    raise ValueError("unknown type " + t)

def same(a, b):
    return type(a) is type(b) and a == b

def errors(v, s, root, path="$"):
    if s is True: return []
    if s is False: return [path + ": no value allowed"]
    out = []
    for k in s:
        if k not in ANNOT | {"type", "required", "properties", "additionalProperties",
                             "items", "enum", "minimum", "$ref", "oneOf"}:
            raise ValueError("validator does not know keyword " + k)
    if "$ref" in s:
        ref = s["$ref"]
        assert ref.startswith("#/$defs/"), ref
        out += errors(v, root["$defs"][ref[len("#/$defs/"):]], root, path)
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            return out + ["%s: %r is not %s" % (path, v, ts)]
    if "enum" in s and not any(same(v, e) for e in s["enum"]):
        out.append("%s: %r not in %r" % (path, v, s["enum"]))
    if "minimum" in s and is_type(v, "number") and v < s["minimum"]:
        out.append("%s: %r < %r" % (path, v, s["minimum"]))
    if isinstance(v, dict):
        for r in s.get("required", []):
            if r not in v: out.append("%s: %s missing" % (path, r))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props: out += errors(x, props[k], root, path + "." + k)
            elif s.get("additionalProperties") is False:
                out.append("%s: unexpected %s" % (path, k))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v): out += errors(x, s["items"], root, "%s[%d]" % (path, i))
    if "oneOf" in s:
        n = sum(1 for b in s["oneOf"] if not errors(v, b, root, path))
        if n != 1: out.append("%s: matches %d of the oneOf branches, not 1" % (path, n))
    return out

def validate(doc, schema):
    return errors(doc, schema, schema)

if __name__ == "__main__":
    schema = json.load(open(sys.argv[1]))
    bad = 0
    for f in sys.argv[2:]:
        e = validate(json.load(open(f)), schema)
        for m in e[:10]: print("# %s: %s" % (f, m))
        bad += bool(e)
    sys.exit(bad)
PY
pycheck "JSON reports valid against the schema (validator of this test)" \
    'python3 validate.py "$SCHEMA" p.json f.json t.json'
pycheck "the validator rejects broken reports" 'python3 - "$SCHEMA" f.json p.json t.json <<"PY"
import copy, json, sys
sys.path.insert(0, ".")
from validate import validate
schema = json.load(open(sys.argv[1]))
f, p, t = (json.load(open(x)) for x in sys.argv[2:5])
def broken(doc, edit):
    d = copy.deepcopy(doc); edit(d); return validate(d, schema)
assert not validate(f, schema)
assert broken(f, lambda d: d["results"][0]["sizes"][0]["steps"]["total"]["ns"].pop("min"))
assert broken(f, lambda d: d["results"][0]["sizes"][0]["steps"].update(total="fast"))
assert broken(f, lambda d: d["results"][0]["sizes"][0].update(verified=False))
assert broken(f, lambda d: d["results"][0]["sizes"][0].update(runs=0))
assert broken(f, lambda d: d["environment"].pop("date"))
assert broken(f, lambda d: d.update(mode="primitives"))
assert broken(f, lambda d: d.update(extra=1))
assert broken(p, lambda d: d["results"][0]["ops"]["sign"]["ns_per_run"].append(-1))
assert broken(p, lambda d: d["results"][0]["ops"].pop("verify"))
assert broken(p, lambda d: d["results"][0].update(pk_bytes=True))
assert broken(t, lambda d: d.pop("table_c"))
assert broken(t, lambda d: d["ratios"][0].update(today="x"))
PY'
if [ $have_py = 1 ] && python3 -c 'import jsonschema' 2>/dev/null; then
    check "JSON reports valid against the schema (python3-jsonschema)" 'python3 - "$SCHEMA" p.json f.json t.json <<"PY"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
for f in sys.argv[2:]:
    jsonschema.Draft202012Validator(schema).validate(json.load(open(f)))
PY'
else
    skip "JSON reports valid against the schema (python3-jsonschema)" "python3-jsonschema missing"
fi

# ---- JSON: contents --------------------------------------------------------------
cat >stats.py <<"PY"
# Statistics recomputed from the per-run samples, against the report's.
def check(st, samples, what):
    s = sorted(samples); n = len(s)
    assert n >= 1, what
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    for k, want in (("min", s[0]), ("max", s[-1]), ("median", med), ("mean", sum(s) / n)):
        assert abs(st[k] - want) <= 0.051, (what, k, st[k], want)
    assert st["min"] <= st["median"] <= st["max"], what
    assert st["min"] <= st["mean"] <= st["max"], what
PY
pycheck "primitives JSON: schemes, environment, statistics from the samples, the peers' sizes" 'python3 - p.json "$PQ" <<"PY"
import json, sys
sys.path.insert(0, ".")
from stats import check
d = json.load(open(sys.argv[1]))
assert d["mode"] == "primitives" and d["quick"] is True and d["runs"] == 15
env = d["environment"]
assert env["cores"] >= 1 and len(env["date"]) == 20 and env["date"].endswith("Z")
names = {r["scheme"] for r in d["results"]}
want = {"TTS(%d,%d)" % mn for mn in [(16,22),(20,26),(20,28),(24,32),(24,34),(28,38),(32,44),(36,50)]}
want |= {"ECDSA-P-256", "RSA-PSS-1024", "RSA-PSS-2048", "RSA-PSS-3072", "Ed25519", "SFLASH(26,37)"}
assert want <= names, want - names
for c in ("sect163k1", "sect163r2"):
    assert "ECDSA-" + c in names or any(c in s for s in d["skipped"]), c
assert any(r["backend"] == "ref" for r in d["results"])
# the sizes of the peers as FIPS 204, the Falcon and the SPHINCS+ specifications
# give them (pk, sk, signature; a Falcon signature is at most 752 B)
sizes = {"ML-DSA-44": (1312, 2560, 2420), "ML-DSA-65": (1952, 4032, 3309),
         "Falcon-512": (897, 1281, 752), "SPHINCS+-SHA2-128s": (32, 64, 7856),
         "SPHINCS+-SHA2-128f": (32, 64, 17088)}
pq = [r for r in d["results"] if r["backend"] == "pqclean"]
if sys.argv[2]:
    assert {r["scheme"] for r in pq} == set(sizes), [r["scheme"] for r in pq]
else:
    assert not pq and all(any(s in k for k in d["skipped"]) for s in sizes)
for r in pq:
    assert (r["pk_bytes"], r["sk_bytes"], r["sig_bytes"]) == sizes[r["scheme"]], r["scheme"]
for r in d["results"]:
    for op in ("keygen", "sign", "verify"):
        o = r["ops"][op]
        assert len(o["ns_per_run"]) == len(o["cycles_per_run"]) == o["runs"], (r["scheme"], op)
        if op != "keygen":
            # (SPHINCS+-128s signs in about a second: 3 runs with --quick)
            assert o["runs"] == (3 if (r["scheme"], op) == ("SPHINCS+-SHA2-128s", "sign") else 15), (r["scheme"], op)
        check(o["ns"], o["ns_per_run"], (r["scheme"], op, "ns"))
        check(o["cycles"], o["cycles_per_run"], (r["scheme"], op, "cycles"))
PY'
pycheck "files JSON: schemes, sizes, total = hash + sign per run, statistics from the samples" \
    'python3 - f.json "$PQ" <<"PY"
import json, sys
sys.path.insert(0, ".")
from stats import check
d = json.load(open(sys.argv[1]))
assert d["mode"] == "files" and d["runs"] == 3
pq = ["ML-DSA-44", "ML-DSA-65", "Falcon-512", "SPHINCS+-SHA2-128s", "SPHINCS+-SHA2-128f"]
assert [r["scheme"] for r in d["results"]] == \
    ["TTS(20,28)", "RSA-PSS-2048", "ECDSA-P-256", "Ed25519ph", "Ed25519"] + (pq if sys.argv[2] else [])
for r in d["results"]:
    # --quick: 1 KB, 100 KB, 1 MB with KB = 1024 B
    assert [z["bytes"] for z in r["sizes"]] == [1024, 102400, 1048576], r["scheme"]
    assert [z["label"] for z in r["sizes"]] == ["1 KB", "100 KB", "1 MB"], r["scheme"]
    split = r["scheme"] not in ["Ed25519"] + pq
    assert (r["hash_step"] is not None) == split, r["scheme"]
    for z in r["sizes"]:
        st = z["steps"]
        assert z["verified"] is True and z["runs"] == 3
        for k in ("read", "total") + (("hash", "sign") if split else ()):
            assert len(st[k]["ns_per_run"]) == 3, (r["scheme"], k)
            check(st[k]["ns"], st[k]["ns_per_run"], (r["scheme"], z["bytes"], k))
        if split:
            for h, s, tot in zip(st["hash"]["ns_per_run"], st["sign"]["ns_per_run"],
                                 st["total"]["ns_per_run"]):
                assert h + s == tot, (r["scheme"], z["bytes"], h, s, tot)
        else:
            assert st["hash"] is None and st["sign"] is None
PY'
pycheck "table JSON: rows of tables B, C and D, ratios from the medians" 'python3 - t.json <<"PY"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["scheme"] for r in d["table_b"]] == ["ECDSA-163", "RSA-PSS-1024", "SFLASH(26,37)", "TTS(20,28)"]
assert [r["set"] for r in d["table_c"]] == ["TTS(%d,%d)" % mn for mn in
    [(16,22),(20,26),(20,28),(24,32),(24,34),(28,38),(32,44),(36,50)]]
b = {r["scheme"]: r for r in d["table_b"]}
assert all(b[s]["today_ms"] is not None for s in b), b  # all four columns measured
assert b["SFLASH(26,37)"]["measured_as"] == "SFLASH(26,37)"
# (a TTS set is measured in the automatic backend, listed first, and in ref)
med, medb = {}, {}
for r in d["results"]:
    for op in r["ops"]:
        med.setdefault((r["scheme"], op), r["ops"][op]["ns"]["median"] / 1e6)
        medb[(r["scheme"], r["backend"], op)] = r["ops"][op]["ns"]["median"] / 1e6
assert [r["backend"] for r in d["table_d"] if r["scheme"] == "TTS(20,28)"] == \
    ["ref", d["environment"]["default_backend"]] or d["environment"]["default_backend"] == "ref"
for r in d["table_d"]:
    if r["backend"] is None:
        assert r["today_ms"] is None and any(r["scheme"] in k for k in d["skipped"]), r
        continue
    for op, v in r["today_ms"].items():
        want = medb[(r["scheme"], r["backend"], op)]
        assert abs(v - want) <= 1e-4 * want, (r, op, want)
for r in d["ratios"]:
    slow, fast = (x.strip() for x in r["ratio"].split("/"))
    (sn, op), (fn, op2) = slow.rsplit(" ", 1), fast.rsplit(" ", 1)
    assert op == op2
    pub = b[sn]["published_ms"][op] / b[fn]["published_ms"][op]
    assert abs(r["published"] - pub) <= 1e-4 * pub, r
    now = med[(b[sn]["measured_as"], op)] / med[(b[fn]["measured_as"], op)]
    assert abs(r["today"] - now) <= 1e-3 * now, (r, now)
PY'

# ---- CSV ---------------------------------------------------------------------------
pycheck "CSV reports agree with the JSON" 'python3 - <<"PY"
import csv, json
def rows(path):
    lines = [l for l in open(path) if not l.startswith("#")]
    meta = [l for l in open(path) if l.startswith("# ")]
    assert any(l.startswith("# cpu: ") for l in meta) and any(l.startswith("# date: ") for l in meta)
    return list(csv.DictReader(lines))
p, f = json.load(open("p.json")), json.load(open("f.json"))
pr = rows("p.csv")
n = sum(4 + r["ops"][op]["runs"] for r in p["results"] for op in r["ops"])
assert len(pr) == n, (len(pr), n)
for r in p["results"]:
    for op, o in r["ops"].items():
        mine = [x for x in pr if x["scheme"] == r["scheme"] and x["backend"] == r["backend"] and x["op"] == op]
        assert float(next(x for x in mine if x["row"] == "median")["ns"]) == o["ns"]["median"]
        assert [int(x["ns"]) for x in mine if x["row"].isdigit()] == o["ns_per_run"]
fr = rows("f.csv")
for r in f["results"]:
    for z in r["sizes"]:
        mine = [x for x in fr if x["scheme"] == r["scheme"] and int(x["bytes"]) == z["bytes"]]
        assert [x["row"] for x in mine] == ["min", "median", "max", "mean", "1", "2", "3"]
        for k, st in z["steps"].items():
            col = [x[k + "_ns"] for x in mine]
            if st is None:
                assert col == [""] * 7
            else:
                assert [int(c) for c in col[4:]] == st["ns_per_run"], (r["scheme"], k)
                assert float(col[1]) == st["ns"]["median"]
tr = rows("t.csv")
assert {x["section"] for x in tr} == {"B", "ratio", "C", "D"} and len(tr) == 4 * 3 + 9 + 8 * 3 + 13 * 3
PY'

# ---- table: text ------------------------------------------------------------------
check "table B rows" 'grep -q "^ECDSA-163 " table.txt && grep -q "^RSA-PSS-1024 " table.txt &&
    grep -q "^TTS(20,28) " table.txt && grep "^SFLASH(26,37)" table.txt | grep -q " 33/16858/2471$" &&
    ! grep -q "not implemented" table.txt'
check "table D: TTS in ref and the automatic backend beside today's schemes" \
    'sed -n "/^Table D/,/^#/p" table.txt >d.txt &&
     [ "$(grep -c "^TTS(20,28) .* broken$" d.txt)" -eq 2 ] && grep -q "^TTS(20,28) *ref " d.txt &&
     [ "$(grep -c "^TTS(36,50) .* broken$" d.txt)" -eq 2 ] && grep -q "^SFLASH(26,37) .* broken$" d.txt &&
     grep -q "^Ed25519 .* classical$" d.txt &&
     (for s in ML-DSA-44 ML-DSA-65 Falcon-512 SPHINCS+-SHA2-128s SPHINCS+-SHA2-128f; do
         if [ -n "$PQ" ]; then grep -q "^$s  *pqclean " d.txt || exit 1
         else grep -q "^$s  *not measured" d.txt || exit 1; fi
     done)'
check "table C: eight sets" '[ "$(grep -c "^TTS([0-9]*,[0-9]*) *|" table.txt)" -eq 8 ]'
check "claimed ratios" 'grep -q "RSA-PSS-1024 sign / TTS(20,28) sign" table.txt &&
    grep -q "ECDSA-163 verify / TTS(20,28) verify" table.txt &&
    grep -q "SFLASH(26,37) sign / TTS(20,28) sign" table.txt'

# ---- charts -------------------------------------------------------------------------
svg_ok() { [ -s "$1" ] && head -c 64 "$1" | grep -q -e '^<?xml' -e '^<svg'; }
png_ok() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
charts="primitives table files-total files-tts-20-28 files-rsa-pss-2048 files-ecdsa-p-256
    files-ed25519ph files-ed25519"
for c in $charts; do
    if [ $have_gp = 1 ]; then
        check "chart $c: SVG and PNG" 'svg_ok "plots/$c.svg" && png_ok "plots/$c.png"'
    else
        skip "chart $c: SVG and PNG" "gnuplot missing"
    fi
done
# Charts obey the file rules: made in a temporary folder, then written like
# any output (a symbolic link replaced, not followed; an existing chart kept
# without --force).
if [ $have_gp = 1 ]; then
    mkdir ch2 && echo precious >victim && ln -s "$dir/victim" ch2/table.svg
    check "--plot --force over a symlinked chart: the link replaced, its target untouched" \
        '"$BENCH" table -n 1 --force --plot ch2 >/dev/null 2>ch2.err &&
         [ "$(cat victim)" = precious ] && [ ! -L ch2/table.svg ] && svg_ok ch2/table.svg'
    echo old >ch2/table.png
    check "--plot without --force over existing charts: exit 1, the charts kept" \
        '"$BENCH" table -n 1 --plot ch2 >/dev/null 2>ch3.err; [ $? -eq 1 ] &&
         [ "$(cat ch2/table.png)" = old ] && grep -q "already exists" ch3.err'
else
    skip "charts obey the file rules" "gnuplot missing"
fi
# Without gnuplot on PATH: the script and data are written, exit 1, said
# on stderr. (PATH keeps ls: the libtool wrapper of an uninstalled
# tts-bench calls it.)
mkdir nogp && ln -s "$(command -v ls)" nogp/ls
check "gnuplot missing: exit 1, script and data kept, message" \
    'PATH=$dir/nogp "$BENCH" files --quick -n 1 --plot np >/dev/null 2>np.err; [ $? -eq 1 ] &&
     [ -s np/files.gp ] && [ -s np/files.dat ] && [ ! -e np/files-total.svg ] &&
     grep -q "gnuplot not found" np.err'

# ---- killed runs leave no temporary files ---------------------------------------------
"$BENCH" files -n 100000 >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ -z "$(ls -A tmp 2>/dev/null)" ]; do
    sleep 0.1
    i=$((i + 1))
done
sleep 0.3
kill -TERM $pid 2>/dev/null
{ wait $pid; } 2>/dev/null
rc=$?
check "files killed by SIGTERM: temporary inputs removed" \
    '[ $i -lt 100 ] && [ $rc -eq 143 ] && [ -z "$(ls -A tmp)" ]'

echo "1..$t"
exit $fail
