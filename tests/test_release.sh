#!/bin/sh
# SPDX-License-Identifier: MIT
# The release as a reader meets it: one version everywhere it is printed
# (the header, configure, tts --version, tts.pc, the Python package, the
# man pages, CITATION.cff, NEWS); a CITATION.cff with the keys CFF 1.2.0
# requires; AUTHORS saying who "the libtts authors" are; the README's
# "Citing" section; the credit for TTS's designers and for the first break
# of enhanced TTS; no claim of a polynomial-time break; the SFLASH result
# named an equivalent-key forgery.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TTS=${TTS:-$top_builddir/tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS srcdir top_builddir
tap_real TTS
tap_enter
S=$srcdir

# one version: TTS_VERSION_STRING of include/tts.h is the source
ver=$(sed -n 's/^#define TTS_VERSION_STRING "\(.*\)"$/\1/p' "$S/include/tts.h")
echo "$ver" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$'
check $? "include/tts.h's TTS_VERSION_STRING is a version ($ver)"
bad=""
pv=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
[ "$pv" = "$ver" ] || bad="$bad configure($pv)"
tv=$("$TTS" --version | sed -n '1s/^tts (libtts) \([^,]*\),.*/\1/p')
[ "$tv" = "$ver" ] || bad="$bad tts--version($tv)"
pc=$(sed -n 's/^Version: //p' "$top_builddir/tts.pc")
[ "$pc" = "$ver" ] || bad="$bad tts.pc($pc)"
py=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$S/python/pyproject.toml")
[ "$py" = "$ver" ] || bad="$bad pyproject.toml($py)"
cff=$(sed -n 's/^version: "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$S/CITATION.cff" 2>/dev/null)
[ "$cff" = "$ver" ] || bad="$bad CITATION.cff($cff)"
news=$(sed -n 's/^libtts \([0-9.]*\) (.*/\1/p' "$S/NEWS" 2>/dev/null | head -n 1)
[ "$news" = "$ver" ] || bad="$bad NEWS($news)"
for f in "$S"/tools/*.1 "$S"/bench/*.1 "$S"/kat/*.1 "$S"/man/*.3; do
    th=$(grep '^\.TH ' "$f") || continue # (a .so link page has none)
    case $th in *"\"libtts $ver\""*) ;; *) bad="$bad $(basename "$f")" ;; esac
done
[ -z "$bad" ]
check $? "version $ver in configure, tts --version, tts.pc, pyproject.toml, CITATION.cff, NEWS and every man page${bad:+ (not in:$bad)}"

# NEWS: the release's entry, dated, then the one before it
sed -n 's/^libtts \([0-9.]*\) (\([0-9-]*\))$/\1 \2/p' "$S/NEWS" 2>/dev/null >news.txt
[ "$(wc -l <news.txt)" -ge 2 ] && [ "$(sed -n 2p news.txt | cut -d' ' -f1)" = 0.1.0 ] &&
    [ "$(sed -n '/^libtts 0\.1\.0/,$p' "$S/NEWS" | wc -l)" -gt 3 ] &&
    [ "$(sed -n "/^libtts $ver/,/^libtts 0\\.1\\.0/p" "$S/NEWS" | grep -c '^- ')" -ge 8 ]
check $? "NEWS: what $ver adds (eight items at least) above the 0.1.0 entry"

# CITATION.cff: the keys CFF 1.2.0's schema requires, and the release's own
cff_keys="cff-version message title authors"
missing=""
for k in $cff_keys type license version date-released; do
    grep -q "^$k:" "$S/CITATION.cff" 2>/dev/null || missing="$missing $k"
done
grep -q '^cff-version: "\{0,1\}1\.2\.0"\{0,1\}$' "$S/CITATION.cff" 2>/dev/null ||
    missing="$missing cff-version-1.2.0"
date=$(sed -n 's/^date-released: "\{0,1\}\([0-9-]*\)"\{0,1\}$/\1/p' "$S/CITATION.cff" 2>/dev/null)
[ "$date" = "$(sed -n 1p news.txt | cut -d' ' -f2)" ] || missing="$missing date-released=NEWS"
grep -q '^license: MIT$' "$S/CITATION.cff" 2>/dev/null || missing="$missing license-MIT"
[ -z "$missing" ]
check $? "CITATION.cff: cff-version 1.2.0, message, title, authors, the version and NEWS's date, MIT${missing:+ (missing:$missing)}"
if python3 -c 'import yaml' 2>/dev/null; then
    python3 - "$S/CITATION.cff" >err 2>&1 <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert isinstance(d, dict), "not a mapping"
for k in ("cff-version", "message", "title", "authors"):
    assert k in d, k
assert d["cff-version"] == "1.2.0"
assert isinstance(d["authors"], list) and d["authors"], "authors"
for a in d["authors"]:
    assert isinstance(a, dict) and (a.get("name") or a.get("family-names")), a
assert d.get("type") == "software"
for r in d.get("references", []):
    for k in ("type", "title", "authors"):
        assert k in r, (r.get("title"), k)
PY
    check $? "CITATION.cff parses as YAML: every author a person or an entity, every reference typed, titled, authored"
else
    skip "CITATION.cff parses as YAML" "python3 with PyYAML not found"
fi

# "broken" where a user of each program looks: tts-speed's output and
# --version, tts-genkat's --help, tts.pc's Description
note=$("$TTS" --version | sed -n 2p)
missing=""
SPEED=$top_builddir/tts-speed GENKAT=$top_builddir/tts-genkat
tap_real SPEED GENKAT
"$SPEED" -r 10 -b ref "TTS(16,22)" 2>&1 | grep -qxF "# status: $note" || missing="$missing tts-speed"
"$SPEED" --version | grep -qxF "$note" || missing="$missing tts-speed--version"
if [ -x "$GENKAT" ]; then
    "$GENKAT" --help | tr '\n' ' ' | grep -qF "$note" || missing="$missing tts-genkat--help"
fi
grep '^Description:' "$top_builddir/tts.pc" | grep -q 'broken' || missing="$missing tts.pc"
[ -n "$note" ] && [ -z "$missing" ]
check $? "\"broken\" in tts-speed's output, tts-genkat --help and tts.pc (table B's chart: test_bench)${missing:+ (missing:$missing)}"

: >err
# AUTHORS says who the libtts authors are; the README says how to cite
grep -q 'the libtts authors' "$S/AUTHORS" 2>/dev/null &&
    grep -q 'Copyright (c) [0-9]* the libtts authors' "$S/LICENSE"
check $? "AUTHORS names the libtts authors of LICENSE"
sed -n '/^## Citing/,/^## /p' "$S/README.md" >citing.txt
grep -q 'CITATION.cff' citing.txt && grep -q "libtts $ver" citing.txt
check $? "README: a Citing section that points to CITATION.cff and names libtts $ver"

# credit where readers look: the README's banner names TTS's designers and
# the first break of enhanced TTS; SECURITY.md and the datasheets' README
# too
head -n 16 "$S/README.md" | tr '\n' ' ' | sed 's/> //g; s/  */ /g' >banner.txt
missing=""
for w in "Thomae" "Wolf" "AFRICACRYPT 2012" "Cross-Terms" "Bo-Yin Yang" "Jiun-Ming Chen" \
    "ACISP 2005" "CHES 2004"; do
    grep -qF -- "$w" banner.txt || missing="$missing '$w'"
done
[ -z "$missing" ]
check $? "README's opening credits TTS's designers and papers and Thomae-Wolf's break${missing:+ (missing:$missing)}"

: >err
# no "polynomial time" (the break is not polynomial: docs/SECURITY.md)
grep -rniI "polynomial[- ]time" "$S/README.md" "$S/docs" "$S/tools" "$S/bench" "$S/man" \
    "$S/kat" "$S/challenge" "$S/include" "$S/8051" "$S/avr" "$S/python" >err 2>/dev/null
[ $? = 1 ]
check $? "no \"polynomial time\" in the README, the documents, the man pages or the sources"

# SFLASH: the result is an equivalent key, not the secret key
bad=""
for f in README.md docs/SECURITY.md docs/SFLASH.md tools/tts-challenge.1; do
    tr '\n' ' ' <"$S/$f" | sed 's/  */ /g' | grep -qi 'equivalent[- ]key forgery' ||
        bad="$bad $f"
done
tr '\n' ' ' <"$S/README.md" | grep -qi 'recovers a C\* key' && bad="$bad README(C* key)"
grep -qi 'Bouillaguet' "$S/README.md" || bad="$bad README(Bouillaguet)"
[ -z "$bad" ]
check $? "the SFLASH result called an equivalent-key forgery${bad:+ (not in:$bad)}"
tap_end
