#!/bin/sh
# SPDX-License-Identifier: MIT
# The documents against the software: the figures they quote that a
# command prints deterministically are the ones it prints (sizes of the
# sets and of the files), and no document speaks of the history of its own
# writing (issue numbers, closing notes) or names a build machine's paths.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
TTS=${TTS:-$top_builddir/tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS srcdir top_builddir
tap_real TTS
tap_enter

# docs/SPEC.md section 3: the table is `tts params` (its first ten columns)
"$TTS" params | tail -n +2 | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10}' >params.txt
sed -n '/^## 3\. Parameter sets/,/^## 4\./p' "$srcdir/docs/SPEC.md" |
    grep '^| TTS(' | tr -d '|' | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10}' >spec.txt
[ -s spec.txt ] && cmp -s params.txt spec.txt
check $? "docs/SPEC.md section 3: the parameter table is what tts params prints"

# docs/SPEC.md section 11: the TTS(20,28) file sizes
"$TTS" keygen -o k 2>err && printf 'm' >m && "$TTS" sign -k k.sec -o m.sig m 2>>err
sizes="$(wc -c <k.pub) $(wc -c <k.sec) $(wc -c <m.sig)"
[ "$sizes" = "8688 1439 36" ] &&
    grep -q '8688, 8 + 32 + 1399 = 1439 and 8 + 28 = 36 bytes' "$srcdir/docs/SPEC.md" &&
    [ "$(od -An -tx1 -N8 k.pub | tr -s ' ' | sed 's/^ //')" = "54 54 53 50 01 14 1c 00" ] &&
    grep -q '`54 54 53 50 01 14 1c 00`' "$srcdir/docs/SPEC.md"
check $? "docs/SPEC.md section 11: TTS(20,28) files of $sizes bytes, the public key's first bytes"

# broken, said the same way everywhere: the one sentence (TTS_BROKEN_NOTE,
# printed by tts --version) in the README, the documents and tts-bench's
# page, and nothing that calls TTS "of research interest" alone
note=$("$TTS" --version | sed -n 2p)
missing=""
for f in README.md docs/SPEC.md docs/SECURITY.md docs/BENCH.md docs/CARD.md \
    docs/CARD-IMAGES.md docs/PERFORMANCE.md tools/tts-bench.1 tools/tts-card.1 kat/tts-genkat.1 bench/tts-speed.1; do
    tr '\n' ' ' <"$srcdir/$f" | sed 's/> //g; s/\*\*//g; s/  */ /g' | grep -qF -- "$note" ||
        missing="$missing $f"
done
case $note in "TTS and SFLASH are broken: "*) ;; *) missing="$missing (tts --version)" ;; esac
[ -z "$missing" ]
check $? "the broken sentence of tts.h in README, SPEC, SECURITY, BENCH, CARD, PERFORMANCE, tts-bench(1), tts-card(1), tts-genkat(1) and tts-speed(1)${missing:+ (missing in:$missing)}"
! grep -rqi "research interest" "$srcdir/include" "$srcdir/tools" "$srcdir/bench" "$srcdir/docs" \
    "$srcdir/README.md"
check $? "no \"research interest\" left in include, tools, bench, docs or README"

# one header style for every man page: the package and its version, the
# section's title (1: User Commands; 3: the programmer's manual)
ver=$(sed -n 's/^#define TTS_VERSION_STRING "\(.*\)"$/\1/p' "$srcdir/include/tts.h")
bad=""
for f in "$srcdir"/tools/*.1 "$srcdir"/bench/*.1 "$srcdir"/kat/*.1 "$srcdir"/man/*.3; do
    th=$(grep '^\.TH ' "$f") || continue # (a .so link page has none)
    case $f in
    *.1) want="\"libtts $ver\" \"User Commands\"" ;;
    *) want="\"libtts $ver\" \"libtts Programmer's Manual\"" ;;
    esac
    case $th in *"$want") ;; *) bad="$bad $(basename "$f")" ;; esac
done
[ -n "$ver" ] && [ -z "$bad" ]
check $? "every man page's header names libtts $ver and its section's title${bad:+ (not:$bad)}"

# docs/CARD-IMAGES.md and 8051/README.md: the card images' sizes are the build's
# (8051/*.sizes): the memory-budget rows whole, and the code, iram and
# xdata columns of the card tables (the timing columns: tests/test_docs_card.sh)
# bad_verdict N WHAT SKIPPED WHY: WHAT passes if the file bad is empty; with
# N = 0 (nothing to check) SKIPPED is skipped for WHY
bad_verdict() {
    if [ "$1" = 0 ]; then
        skip "$3" "$4"
    else
        [ ! -s bad ]
        check $? "$2"
        diag bad
    fi
}
sizes_of() { # sizes_of IMAGE KEY
    awk -v k="$2" '$1 == k { print $2 }' "$top_builddir/8051/$1.sizes"
}
nimg=0
: >bad
for f in "$top_builddir"/8051/tts-*.sizes; do
    [ -f "$f" ] || continue
    img=$(basename "$f" .sizes)
    # (the measurements of make check: not in the report's tables)
    case $img in *-c|*-uart|*-loop|*-rom-nocheck|*-rom4k-nocheck) continue ;; esac
    nimg=$((nimg + 1))
    row="| $img.ihx |"
    for k in iram xdata_key xdata_stage xdata_nv_state work_sign work_genkey work_commit work_pk code sign_code; do
        row="$row $(sizes_of "$img" $k) |"
    done
    grep -qxF "$row" "$srcdir/docs/CARD-IMAGES.md" || echo "docs/CARD-IMAGES.md lacks the budget row: $row" >>bad
    set=$(echo "$img" | sed 's/^tts-\([0-9]*\)-\([0-9]*\).*/TTS(\1,\2)/')
    # the row of this set in the card table of this image's family (tables
    # told apart by their header: `tts-card report` prints them so)
    case $img in
        *-128) hdr='| set | sign 12T ms (core + ChaCha20) | keygen+pk 12T s |' docs=docs/CARD-IMAGES.md
               tail="| $(sizes_of "$img" code) | $(sizes_of "$img" iram) | $(sizes_of "$img" xdata) |" ;;
        *-rom) hdr='| set | sign 12T ms (core + ChaCha20) | sign cycles |' docs="docs/CARD-IMAGES.md 8051/README.md"
               tail="| $(sizes_of "$img" code) | $(sizes_of "$img" code_end) | $(sizes_of "$img" iram) | $(sizes_of "$img" xdata_key) | $(sizes_of "$img" xdata) |" ;;
        *-rom4k) hdr='| set | sign 12T ms | sign cycles |' docs="docs/CARD-IMAGES.md 8051/README.md"
               tail="| $(sizes_of "$img" code) | $(sizes_of "$img" code_end) | $(sizes_of "$img" iram) | $(sizes_of "$img" xdata_key) | $(sizes_of "$img" xdata) |" ;;
        *) hdr='| set | sign 12T ms (core + ChaCha20) | sign 4T ms' docs="docs/CARD-IMAGES.md 8051/README.md"
           tail="| $(sizes_of "$img" code) | $(sizes_of "$img" iram) | $(sizes_of "$img" xdata) |" ;;
    esac
    for d in $docs; do
        awk -v s="| $set |" -v h="$hdr" '
            index($0, "| set |") == 1 { in_t = index($0, h) == 1 }
            in_t && index($0, s) == 1 { print }' "$srcdir/$d" >rows
        [ -s rows ] || { echo "$d: no card-table row of $img" >>bad; continue; }
        while IFS= read -r r; do
            case $r in *"$tail") ;; *) echo "$d: $r (the build: $tail)" >>bad ;; esac
        done <rows
    done
done
bad_verdict $nimg "docs/CARD-IMAGES.md and 8051/README.md: the $nimg card images' sizes are the build's" \
    "docs/CARD-IMAGES.md and 8051/README.md: the card images' sizes" "no card build"

# the ROM images' last code byte (an 8051AH's ROM ends at 0x0FFF), and the
# sizes of TTS(20,28)'s ROM image without COMMIT's check
# (tts-20-28-rom-nocheck, built by make check) and of its 4 KB image with
# the check points (within 0x0FFF), as docs/CARD-IMAGES.md gives them
: >bad
nrom=0
for f in "$top_builddir"/8051/tts-*-rom*.sizes; do
    [ -f "$f" ] || continue
    img=$(basename "$f" .sizes)
    nrom=$((nrom + 1))
    e=$(sizes_of "$img" code_end)
    grep -q "at $e\b\|up to $e\b" "$srcdir/docs/CARD-IMAGES.md" || echo "docs/CARD-IMAGES.md lacks $img's last code byte $e" >>bad
    case $img in *-rom-nocheck)
        c=$(sizes_of "$img" code | sed 's/\([0-9]\)\([0-9][0-9][0-9]\)$/\1,\2/')
        past=$(( $e - 0x0FFF ))
        grep -q "without COMMIT's check.*$c B" "$srcdir/docs/CARD-IMAGES.md" &&
            grep -q "$past B past 0x0FFF" "$srcdir/docs/CARD-IMAGES.md" ||
            echo "docs/CARD-IMAGES.md lacks the size without COMMIT's check: $c B, $past B past 0x0FFF" >>bad ;;
    tts-20-28-rom4k)
        c=$(sizes_of "$img" code | sed 's/\([0-9]\)\([0-9][0-9][0-9]\)$/\1,\2/')
        spare=$(( 0x0FFF - $e ))
        grep -q "$c B up to $e, $spare B to spare" "$srcdir/docs/CARD-IMAGES.md" ||
            echo "docs/CARD-IMAGES.md lacks the size of TTS(20,28)'s 4 KB image: $c B up to $e, $spare B to spare" >>bad ;;
    esac
done
bad_verdict $nrom "docs/CARD-IMAGES.md: the $nrom ROM images' last code byte (and the size without COMMIT's check) are the build's" \
    "docs/CARD-IMAGES.md: the ROM images' last code byte" "no ROM image"

# the documents speak of the software, not of their writing
docs="$srcdir/README.md $srcdir/docs $srcdir/tools/*.1 $srcdir/kat/*.1 $srcdir/bench/*.1"
# shellcheck disable=SC2086
grep -rn -i -E 'issue [0-9]|issue #[0-9]|closing note|/work/|/home/[a-z]' $docs >hits 2>/dev/null
[ ! -s hits ]
check $? "README, docs/ and the man pages name no issue, closing note or machine path"
diag hits

# docs/PERFORMANCE.md's tts-speed samples are as tts-speed prints them:
# its header line, and data lines of backend, set, operation, four cycle
# counts and the microseconds (no elided line)
SPEED=$top_builddir/tts-speed
tap_real SPEED
"$SPEED" -r 10 -b ref "TTS(16,22)" 2>err | grep '^backend ' >speed.hdr
grep -E '^(gfni|avx2|swar|ref|neon) +TTS\(' "$srcdir/docs/PERFORMANCE.md" >speed.rows
grep -E '^backend +set +op ' "$srcdir/docs/PERFORMANCE.md" | sort -u >doc.hdr
awk 'NF != 8 || $4 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ || $8 !~ /^[0-9.]+$/' speed.rows >bad
[ -s speed.hdr ] && [ -s speed.rows ] && cmp -s speed.hdr doc.hdr && [ ! -s bad ]
check $? "docs/PERFORMANCE.md: tts-speed's lines as it prints them$(test -s bad && echo " (not: $(head -n 1 bad))")"

# the README's first commands, run with every program they call faked (a
# log of its arguments): npm is installed only where it is missing, so
# that a machine with NodeSource's Node.js (whose nodejs conflicts with
# Debian's npm) and one without Node.js both get through
awk '/^```sh$/ { n++; next } n == 1 && /^```$/ { exit } n == 1' "$srcdir/README.md" >first.sh
mkdir fake && : >fake/log
for p in apt-get sh autoreconf make npm; do
    printf '#!/bin/sh\necho "${0##*/} $*" >>"%s/fake/log"\n' "$(pwd)" >"fake/$p"
    chmod +x "fake/$p"
done
cp fake/make configure
PATH=$(pwd)/fake /bin/sh first.sh >/dev/null 2>&1
cp fake/log err
grep -q '^apt-get install' fake/log && ! grep -q '^apt-get install.* npm\( \|$\)' fake/log
check $? "README's first command, npm present: apt-get is not asked for npm"
rm fake/npm && : >fake/log
PATH=$(pwd)/fake /bin/sh first.sh >/dev/null 2>&1
cp fake/log err
grep -q '^apt-get install.* npm\( \|$\)' fake/log && grep -q '^make demo' fake/log
check $? "README's first command, npm missing: apt-get installs it, and the build goes on"
tap_end
