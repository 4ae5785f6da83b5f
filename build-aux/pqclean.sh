#!/bin/sh
# SPDX-License-Identifier: MIT
# The post-quantum peers of tts-bench: PQClean's portable C ("clean")
# implementations, as the npm package pqclean ships them (its Node bindings
# are not used). Nothing of PQClean is committed to this tree.
#
#   pqclean.sh fetch [DEST]   npm pack pqclean@VERSION, check the tarball's
#                             SHA-512 against the one recorded below, unpack
#                             it as DEST (default: ./pqclean-VERSION), a new
#                             folder: an existing DEST is never removed or
#                             written; one that holds this package, its files
#                             checked (verify), is kept, any other is refused
#   pqclean.sh verify DIR     the files the build uses (common/ and each
#                             scheme's clean/) against the digest recorded
#                             below: exit 0 equal, 1 not
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
# SHA-256 of the sorted "sha256  path" lines of the files tree_digest lists,
# as the tarball above unpacks them
TREE_SHA256=d6ca54ea9f0f2db3fda2060b68860e6638c6aca78c63cb7db698611679443195
SCHEMES="ml-dsa-44 ml-dsa-65 falcon-512 sphincs-sha2-128s-simple sphincs-sha2-128f-simple"
COMMON="fips202.c sha2.c randombytes.c"

die() { echo "pqclean.sh: $*" >&2; exit 1; }
refuse() { echo "pqclean.sh: $*" >&2; exit 2; }

root_of() {
    for r in "$1/deps/PQClean" "$1/package/deps/PQClean" "$1"; do
        if [ -f "$r/crypto_sign/ml-dsa-44/clean/api.h" ] && [ -f "$r/common/fips202.c" ]; then
            echo "$r"
            return 0
        fi
    done
    return 1
}

# The digest of what the build compiles under a PQClean root: every entry
# (files and links, not folders) of common/ and of each scheme's clean/.
tree_digest() {
    (cd "$1" && {
        dirs="common"
        for s in $SCHEMES; do dirs="$dirs crypto_sign/$s/clean"; done
        # shellcheck disable=SC2086
        find $dirs ! -type d -print | LC_ALL=C sort | while IFS= read -r f; do
            h=$(sha256sum <"$f" 2>/dev/null | cut -d' ' -f1) || h=unreadable
            printf '%s  %s\n' "${h:-unreadable}" "$f"
        done
    }) 2>/dev/null | sha256sum | cut -d' ' -f1
}

verified() {
    r=$(root_of "$1") && [ "$(tree_digest "$r")" = "$TREE_SHA256" ]
}

case "${1:-}" in
fetch)
    [ $# -le 2 ] || refuse "usage: pqclean.sh fetch [DEST]"
    dest=${2:-./pqclean-$VERSION}
    [ -n "$dest" ] || refuse "fetch: an empty DEST"
    if [ -e "$dest" ] || [ -L "$dest" ]; then
        if verified "$dest"; then
            echo "pqclean.sh: $dest holds pqclean $VERSION already (its files checked against the recorded digest)"
            exit 0
        fi
        refuse "$dest exists and is not pqclean $VERSION as fetched (its files differ from the recorded digest, or it is not a PQClean tree): nothing was changed; remove it yourself to fetch again, or name a new folder"
    fi
    parent=$(dirname "$dest")
    [ -d "$parent" ] || refuse "fetch: $parent is not a folder"
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
    [ "$(tree_digest "$tmp/x/package/deps/PQClean")" = "$TREE_SHA256" ] ||
        die "pqclean-$VERSION.tgz unpacks to files other than the recorded digest's: refused"
    # -T: never into a folder made meanwhile; -n: never over anything
    mv -n -T "$tmp/x/package" "$dest" && [ ! -e "$tmp/x/package" ] ||
        die "cannot move the package to $dest (nothing there was changed)"
    echo "pqclean.sh: pqclean $VERSION (SHA-512 checked) in $dest"
    ;;
verify)
    [ $# -eq 2 ] || refuse "usage: pqclean.sh verify DIR"
    r=$(root_of "$2") || { echo "pqclean.sh: $2 holds no PQClean tree" >&2; exit 1; }
    got=$(tree_digest "$r")
    [ "$got" = "$TREE_SHA256" ] || {
        echo "pqclean.sh: $r: its files differ from pqclean $VERSION's recorded digest (got $got): fetch again into a new folder" >&2
        exit 1
    }
    echo "pqclean.sh: $r: pqclean $VERSION, its files equal to the recorded digest"
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
    refuse "usage: pqclean.sh fetch [DEST] | verify DIR | root DIR | schemes | build ROOT OUT CC CFLAGS AR"
    ;;
esac
