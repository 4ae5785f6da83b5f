#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed tree as a user gets it: `make install` into a scratch
# DESTDIR, then the three examples built from their installed copies against
# the installed headers and library through pkg-config (tts.pc), and run
# (a key pair, a signature that the installed tts verifies and that the
# verify example accepts, a changed message refused, the NIST API round
# trip); the section 3 pages rendered by man without a warning, the links
# among them resolved; the documents they cite installed beside them.
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
check $? "make install DESTDIR=..."
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
for d in SPEC.md SECURITY.md BENCH.md CARD.md PERFORMANCE.md bench-schema.json LICENSE; do
    [ -s "$R/share/doc/libtts/$d" ] || missing="${missing:-} $d"
done
[ -z "${missing:-}" ]
check $? "docs installed under the doc folder${missing:+ (missing:$missing)}"
tap_end
