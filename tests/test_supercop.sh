#!/bin/sh
# SPDX-License-Identifier: MIT
# make supercop: every exported package (crypto_sign/ttsMN/{ref,opt}) built
# by a harness of this test's own (tests/supercop: SUPERCOP's crypto_sign.h
# made from the package's api.h, a deterministic randombytes) from the
# package's files and libsodium alone, run (keypair, sign, open, a flipped
# bit refused), and its key pair and signed message compared, byte for
# byte, with the library's NIST API given the same randomness; the
# package's global symbols all in its namespace. make check builds the
# packages of TTS(16,22) and TTS(20,28), make check-full all sixteen.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
. "$srcdir/tests/tap_lib.sh"
tap_abs srcdir top_builddir
mk() { sed -n "s/^$1 = //p" "$top_builddir/Makefile" | head -n 1; }
CC=$(mk CC) CFLAGS=$(mk CFLAGS) LDFLAGS=$(mk LDFLAGS)
SOD=$(pkg-config --cflags --libs libsodium 2>/dev/null || echo -lsodium)
H=$srcdir/tests/supercop
LIBTTS=$top_builddir/.libs/libtts.a
[ -f "$LIBTTS" ] || LIBTTS="-L$top_builddir/.libs -ltts -Wl,-rpath,$top_builddir/.libs"
tap_enter
sh "$srcdir/build-aux/supercop.sh" "$srcdir" sc "$CC" >out 2>err
check $? "build-aux/supercop.sh (make supercop) exports the packages"
n=$(ls -d sc/crypto_sign/tts*/ref sc/crypto_sign/tts*/opt 2>/dev/null | wc -l)
[ "$n" = 16 ]
check $? "16 packages: the eight sets, ref and opt (got $n)"
# (make check: TTS(16,22) and TTS(20,28); make check-full: all sixteen)
pk=${TTS_CHECK_FULL:+sc/crypto_sign/tts*/*}
for d in ${pk:-sc/crypto_sign/tts1622/* sc/crypto_sign/tts2028/*}; do
    prim=$(basename "$(dirname "$d")") impl=$(basename "$d")
    ns=crypto_sign_${prim}_$impl
    set=$(sed -n 's/^#define CRYPTO_ALGNAME "\(.*\)"$/\1/p' "$d/api.h")
    w=w.$prim.$impl
    mkdir "$w" && cp "$d"/* "$w/" && cp "$H/randombytes.h" "$H/randombytes.c" "$H/harness.c" "$w/"
    {
        echo "#include \"api.h\""
        for f in keypair open; do echo "#define crypto_sign_$f ${ns}_$f"; done
        echo "#define crypto_sign ${ns}"
        echo "int crypto_sign_keypair(unsigned char *, unsigned char *);"
        echo "int crypto_sign(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long, const unsigned char *);"
        echo "int crypto_sign_open(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long, const unsigned char *);"
    } >"$w/crypto_sign.h"
    # the package's sources compiled once: their symbols checked, then
    # linked with the harness
    # shellcheck disable=SC2086
    (cd "$w" && for f in *.c; do
        $CC -std=c11 $CFLAGS -I. -c "$f" -o "${f%.c}.o" || exit 1
    done && $CC $CFLAGS -o pkg *.o $LDFLAGS $SOD && ./pkg >pkg.out) >err 2>&1
    check $? "$prim/$impl: built from its files and libsodium alone; keypair, sign, open, a flipped bit refused"
    # (no object, or a package without its namespace, fails too)
    (cd "$w" && rm harness.o randombytes.o && nm -g --defined-only *.o) >syms 2>&1
    ok=$?
    awk 'NF == 3 {print $3}' syms |
        grep -v "^${ns}_\|^${ns}$\|^__odr_asan\|^__asan\|^__ubsan" >bad.syms
    [ $ok = 0 ] && [ ! -s bad.syms ] && grep -q " T ${ns}_keypair$" syms
    check $? "$prim/$impl: every global symbol in the namespace $ns$( [ -s bad.syms ] && head -n 3 bad.syms | tr '\n' ' ')"
    # shellcheck disable=SC2086
    [ -x "lib.$prim" ] || $CC -std=c11 $CFLAGS -DLIBRARY -DSET="\"$set\"" -I"$srcdir/include" \
        -I"$H" "$H/harness.c" "$H/randombytes.c" -o "lib.$prim" $LIBTTS $LDFLAGS $SOD >err 2>&1
    "./lib.$prim" >lib.out && cmp -s lib.out "$w/pkg.out"
    check $? "$prim/$impl: the same key pair and signed message as the library's"
    rm -rf "$w"
done
tap_end
