#!/bin/sh
# SPDX-License-Identifier: MIT
# The post-quantum peers of tts-bench: PQClean's portable C ("clean")
# implementations, as the npm package pqclean ships them (its Node bindings
# are not used). Nothing of PQClean is committed to this tree.
#
#   pqclean.sh fetch [DEST]   npm pack pqclean@VERSION, check the tarball's
#                             SHA-512 against the one recorded below, unpack
#                             it into DEST (default: ./pqclean-VERSION)
#   pqclean.sh root DIR       the PQClean root under DIR (an unpacked
#                             package, or PQClean itself), or exit 1
#   pqclean.sh schemes        the schemes built, one a line
#   pqclean.sh build ROOT OUT CC CFLAGS AR
#                             compiles the schemes and PQClean's common code
#                             into OUT/libpqpeers.a (PQClean's own -O3)
set -eu

VERSION=0.8.1
# npm's integrity string of pqclean-0.8.1.tgz (sha512-...), in hex
SHA512=fb916d92700976236d5418b22e2296dce9da9e172a496cb8e0a09a673d6d10b85a969e477ee21cc4db17f6e4b4b7b9dedad11673b3417781a989005319320904
SCHEMES="ml-dsa-44 ml-dsa-65 falcon-512 sphincs-sha2-128s-simple sphincs-sha2-128f-simple"
COMMON="fips202.c sha2.c randombytes.c"

die() { echo "pqclean.sh: $*" >&2; exit 1; }

root_of() {
    for r in "$1/deps/PQClean" "$1/package/deps/PQClean" "$1"; do
        if [ -f "$r/crypto_sign/ml-dsa-44/clean/api.h" ] && [ -f "$r/common/fips202.c" ]; then
            echo "$r"
            return 0
        fi
    done
    return 1
}

case "${1:-}" in
fetch)
    dest=${2:-./pqclean-$VERSION}
    if root_of "$dest" >/dev/null; then
        echo "pqclean.sh: $dest holds pqclean $VERSION already"
        exit 0
    fi
    command -v npm >/dev/null 2>&1 || die "npm is not installed (apt-get install npm); tts-bench is built without the post-quantum peers"
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqclean.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT INT TERM
    (cd "$tmp" && npm pack --silent "pqclean@$VERSION" >/dev/null) ||
        die "npm pack pqclean@$VERSION failed (no network?)"
    got=$(sha512sum "$tmp/pqclean-$VERSION.tgz" | cut -d' ' -f1)
    [ "$got" = "$SHA512" ] ||
        die "pqclean-$VERSION.tgz: SHA-512 $got, not the recorded $SHA512: refused"
    mkdir -p "$tmp/x" && tar -xzf "$tmp/pqclean-$VERSION.tgz" -C "$tmp/x" ||
        die "cannot unpack pqclean-$VERSION.tgz"
    rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && mv "$tmp/x/package" "$dest" ||
        die "cannot move the package to $dest"
    echo "pqclean.sh: pqclean $VERSION (SHA-512 checked) in $dest"
    ;;
root)
    root_of "${2:?DIR}" || exit 1
    ;;
schemes)
    for s in $SCHEMES; do echo "$s"; done
    ;;
build)
    [ $# -eq 6 ] || die "usage: pqclean.sh build ROOT OUT CC CFLAGS AR"
    root=$2 out=$3 cc=$4 cflags=$5 ar=$6
    mkdir -p "$out/obj"
    objs=""
    for f in $COMMON; do
        o=$out/obj/common-${f%.c}.o
        # shellcheck disable=SC2086
        $cc $cflags -O3 -std=c99 -I"$root/common" -c "$root/common/$f" -o "$o" || exit 1
        objs="$objs $o"
    done
    for s in $SCHEMES; do
        d=$root/crypto_sign/$s/clean
        for c in "$d"/*.c; do
            o=$out/obj/$s-$(basename "${c%.c}").o
            # shellcheck disable=SC2086
            $cc $cflags -O3 -std=c99 -I"$root/common" -I"$d" -c "$c" -o "$o" || exit 1
            objs="$objs $o"
        done
    done
    rm -f "$out/libpqpeers.a"
    # shellcheck disable=SC2086
    $ar cr "$out/libpqpeers.a" $objs && rm -rf "$out/obj"
    ;;
*)
    die "usage: pqclean.sh fetch [DEST] | root DIR | schemes | build ROOT OUT CC CFLAGS AR"
    ;;
esac
