#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed tree as a user gets it: `make install` into a scratch
# DESTDIR, then the three examples built from their installed copies against
# the installed headers and library through pkg-config (tts.pc), and run
# (a key pair, a signature that the installed tts verifies and that the
# verify example accepts, a changed message refused, the NIST API round
# trip); the section 3 pages rendered by man without a warning, the links
# among them resolved, a page for every function of the headers; the link
# pages of the source tree rendered there by man -l; the documents they
# cite, AUTHORS, NEWS and CITATION.cff installed beside them.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
. "$srcdir/tests/tap_lib.sh"
tap_abs srcdir top_builddir
mk() { sed -n "s/^$1 = //p" "$top_builddir/Makefile" | head -n 1; }
CC=$(mk CC) CFLAGS=$(mk CFLAGS) LDFLAGS=$(mk LDFLAGS) prefix=$(mk prefix)
tap_enter
if ! command -v pkg-config >/dev/null 2>&1; then
    skip "the installed tree" "pkg-config not found"
    tap_end
fi
make -C "$top_builddir" install DESTDIR="$dir/root" >make.out 2>&1
rc=$?
[ $rc = 0 ] || tail -n 20 make.out >err
check $rc "make install DESTDIR=..."
R=$dir/root$prefix
export PKG_CONFIG_PATH="$R/lib/pkgconfig" LD_LIBRARY_PATH="$R/lib"
flags=$(pkg-config --define-variable=prefix="$R" --cflags --libs tts 2>err)
check $? "pkg-config finds the installed tts.pc ($flags)"
ex=$R/share/doc/libtts/examples
for e in sign verify nist_api; do
    # shellcheck disable=SC2086
    $CC -std=c11 -Wall -Wextra -Werror $CFLAGS "$ex/$e.c" -o "$e" $flags $LDFLAGS 2>err
    check $? "examples/$e.c builds from its installed copy against the installed tree"
done
echo "a letter" >msg
run 0 "examples/sign makes a key pair and signs" ./sign "TTS(20,28)" msg k.pub m.sig
run 0 "the installed tts verifies its signature" "$R/bin/tts" verify -p k.pub -s m.sig msg
run 0 "examples/verify accepts it" ./verify k.pub m.sig msg
echo "another letter" >msg2
run 1 "examples/verify refuses it for another message" ./verify k.pub m.sig msg2
run 0 "examples/nist_api: the round trip, a flipped bit refused (TTS(24,32))" ./nist_api "TTS(24,32)"
for pg in tts_params tts_keypair tts_sign tts_file_encode tts_backend tts_crypto_sign \
    tts_verify tts_sk_check; do
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -M "$R/share/man" 3 "$pg" >page 2>err
    [ $? = 0 ] && [ ! -s err ] && grep -q "^NAME" page && grep -q "RETURN VALUE" page
    check $? "man 3 $pg renders from the installed tree without a warning"
done
# man 3 NAME for every function the installed headers declare: the page
# found names it (in its NAME section: the page that describes it)
sed -n 's/^TTS_API[^(]*[ *]\(tts_[a-z0-9_]*\)(.*/\1/p' "$R/include/tts.h" "$R/include/tts_file.h" |
    sort -u >fns
bad=""
while read -r fn; do
    LC_ALL=C.UTF-8 MANWIDTH=200 man --warnings -M "$R/share/man" 3 "$fn" >page 2>err
    [ $? = 0 ] && [ ! -s err ] && sed -n '/^NAME/,/^SYNOPSIS/p' page | grep -qw -- "$fn" ||
        bad="$bad $fn"
done <fns
[ "$(wc -l <fns)" -ge 48 ] && [ -z "$bad" ]
check $? "man 3 NAME finds a page naming each of the $(wc -l <fns) functions of tts.h and tts_file.h${bad:+ (not:$bad)}"
# in the source tree, a link page renders by its path (man -l)
bad=""
for f in "$srcdir"/man/*.3; do
    b=$(basename "$f" .3)
    (cd "$srcdir" && LC_ALL=C.UTF-8 MANWIDTH=200 man --warnings -l "man/$b.3") >page 2>err
    [ $? = 0 ] && [ ! -s err ] && grep -qw -- "$b" page || bad="$bad $b"
done
[ -z "$bad" ]
check $? "man -l man/NAME.3 renders every page and link in the source tree${bad:+ (not:$bad)}"
for d in SPEC.md SECURITY.md BENCH.md CARD.md PERFORMANCE.md SFLASH.md AVR.md bench-schema.json LICENSE \
    AUTHORS NEWS CITATION.cff; do
    [ -s "$R/share/doc/libtts/$d" ] || missing="${missing:-} $d"
done
[ -z "${missing:-}" ]
check $? "docs installed under the doc folder${missing:+ (missing:$missing)}"
tap_end
