#!/bin/sh
# SPDX-License-Identifier: MIT
# make supercop: SUPERCOP's layout of every parameter set,
#   DEST/crypto_sign/ttsMN/ref   the portable reference code alone
#   DEST/crypto_sign/ttsMN/opt   the same with the portable 64-bit (swar)
#                                kernels
#   DEST/crypto_sign/ttsMN/avx2  opt with the avx2 kernels, compiled for
#                                AVX2 (#error without __AVX2__)
#   DEST/crypto_sign/ttsMN/gfni  opt with the gfni kernels, compiled for
#                                AVX2 + GFNI (#error without __GFNI__)
# each with api.h, the crypto_sign API over SUPERCOP's crypto_sign.h and
# randombytes.h (supercop/supercop.c), the library sources it needs, and in
# place of libsodium, which SUPERCOP does not link, supercop/tts_prims.{c,h}
# (SHA-512, ChaCha20, a wipe; every `#include <sodium.h>` of the copies
# points there): the link line needs nothing beyond -lm. Also
# goal-constbranch and goal-constindex (signing and key generation branch
# and index memory only on public data: docs/SPEC.md), implementors, the
# licence (LICENSE), `architectures` (amd64) for avx2 and gfni, and
# namespace.h, included first by every source, which renames every global
# symbol into the implementation's namespace (crypto_sign_ttsMN_IMPL_...),
# as SUPERCOP's checknamespace asks. Each primitive gets designers,
# description, and checksumsmall and checksumbig (supercop/checksums, which
# tests/test_supercop.sh recomputes the way SUPERCOP's try.c does).
#
# Usage: supercop.sh SRCDIR DEST [CC]   (CC may be several words, as
# "ccache gcc"; it compiles the sources once to list their symbols, with
# -mavx2 and -mgfni for the vector implementations, so it must be a
# compiler for x86-64.) Every package is
# written to a temporary folder beside it and renamed into place once all
# of them are complete: a failure replaces nothing.
set -eu
if [ $# -lt 2 ] || [ -z "$1" ] || [ -z "$2" ]; then
    echo "usage: supercop.sh SRCDIR DEST [CC]" >&2
    exit 2
fi
src=$1 dest=$2 cc=${3:-cc}
sc=$src/supercop
# am_list FRAGMENT VAR...: the files the variables list in an automake
# fragment, one a line (the build's lists: ref/ref.am, opt/opt.am)
am_list() {
    f=$1
    shift
    for v in "$@"; do
        awk -v v="$v" '$1 == v && $2 == "=" { on = 1; $1 = $2 = "" }
            on { more = sub(/\\$/, ""); print; if (!more) exit }' "$f"
    done | tr -s ' \t' '\n\n' | sed '/^$/d'
}
# The library's sources as the build lists them, less what a crypto_sign
# package has no use for: the file codec (ref/file.c) and the CPUID probe
# (opt/cpu.c: below); an ISA's kernels are its convenience library's.
lib=$(am_list "$src/ref/ref.am" REF_SOURCES REF_HDRS | grep -v '^ref/file\.c$')
opt=$(am_list "$src/opt/opt.am" OPT_SOURCES OPT_HDRS | grep -v '^opt/cpu\.c$\|^opt/simd_impl\.h$')
avx2=$(am_list "$src/opt/opt.am" libtts_avx2_la_SOURCES)
gfni=$(am_list "$src/opt/opt.am" libtts_gfni_la_SOURCES)
for v in lib opt avx2 gfni; do
    eval "[ -n \"\$$v\" ]" || { echo "supercop.sh: no $v sources in ref/ref.am, opt/opt.am" >&2; exit 1; }
done
sets=$(sed -n 's/^TTS_SET(\([0-9]*\), *\([0-9]*\), *\([0-9]*\), *\([0-9]*\), *\([0-9]*\),.*/\1 \2 \3 \4 \5/p' \
    "$src/include/tts_sets.def")
[ -n "$sets" ] || { echo "supercop.sh: no sets in $src/include/tts_sets.def" >&2; exit 1; }

tmp=$(mktemp -d)
staged="$tmp/staged" # two lines a package: its temporary folder, its place
: >"$staged"
# on any failure, the temporaries go; the packages in place stay as they were
# shellcheck disable=SC2154
trap 'status=$?; while IFS= read -r t && IFS= read -r d; do rm -rf "$t"; done <"$staged"
    rm -rf "$tmp"; exit $status' EXIT
trap 'exit 1' HUP INT TERM

# impl_files IMPL: the files of IMPL, as FOLDER/NAME under SRCDIR
impl_files() {
    echo "$lib"
    case $1 in
    ref) echo ref/dispatch_ref.c ;;
    opt) echo "$opt" ;;
    avx2) echo "$opt" && echo "$avx2" && echo opt/simd_impl.h ;;
    gfni) echo "$opt" && echo "$gfni" && echo opt/simd_impl.h ;;
    esac
    # (opt/cpu.c's CPUID needs the compiler's <cpuid.h>, which SUPERCOP's
    # own cpuid.h hides; a vector implementation is compiled for its ISA
    # and probes nothing: supercop/probe.c)
    case $1 in avx2 | gfni) echo supercop/probe.c ;; esac
    echo include/tts.h
    echo include/tts_sets.def
    echo supercop/tts_prims.c
    echo supercop/tts_prims.h
}
isa_flags() {
    case $1 in avx2) echo -mavx2 ;; gfni) echo -mavx2 -mgfni ;; esac
}

# write_impl M N V A B IMPL FOLDER
write_impl() {
    m=$1 n=$2 v=$3 a=$4 b=$5 impl=$6 d=$7
    for f in $(impl_files "$impl"); do
        # the library's sources call libsodium; the copies call tts_prims
        sed 's|^#include <sodium\.h>$|#include "tts_prims.h"|' "$src/$f" >"$d/${f##*/}"
    done
    if grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]sodium\.h' "$d"/* >"$tmp/left"; then
        echo "supercop.sh: $(head -n 1 "$tmp/left") still includes sodium.h" >&2
        exit 1
    fi
    cp "$sc/supercop.c" "$sc/implementors" "$d/"
    cp "$src/LICENSE" "$d/LICENSE"
    case $impl in
    avx2 | gfni)
        cp "$sc/package_$impl.h" "$d/package.h"
        cp "$sc/architectures" "$d/"
        ;;
    esac
    cat >"$d/api.h" <<EOT
/* SPDX-License-Identifier: MIT */
/* TTS($m,$n) for SUPERCOP (libtts, $impl). TTS is broken (docs/SECURITY.md of
 * libtts): measured and tested, it protects nothing. */
#define CRYPTO_SECRETKEYBYTES $((m * (m + 1) + n * (n + 1) + (a + 2) * (v - 1) + b * (b + 1)))
#define CRYPTO_PUBLICKEYBYTES $((m * n * (n + 3) / 2))
#define CRYPTO_BYTES $n
#define CRYPTO_ALGNAME "TTS($m,$n)"
EOT
    : >"$d/goal-constbranch"
    : >"$d/goal-constindex"
    # namespace.h (and package.h) first in every source but these two
    for f in "$d"/*.c "$d"/*.h; do
        case ${f##*/} in namespace.h | api.h | package.h) continue ;; esac
        {
            sed -n 1p "$f"
            echo '#include "namespace.h"'
            [ -f "$d/package.h" ] && echo '#include "package.h"'
            sed 1d "$f"
        } >"$f.t"
        mv "$f.t" "$f"
    done
    # the global symbols the sources define (the same list for every set:
    # found once an implementation), renamed
    if [ ! -s "$tmp/syms.$impl" ]; then
        rm -rf "$tmp/o" && mkdir "$tmp/o"
        : >"$d/namespace.h"
        for f in "$d"/*.c; do
            [ "${f##*/}" = supercop.c ] && continue
            # $cc and the flags unquoted: CC may be a command and its arguments
            # shellcheck disable=SC2046
            if ! $cc -std=c11 -O0 $(isa_flags "$impl") -c -I"$d" "$f" \
                -o "$tmp/o/${f##*/}.o" 2>"$tmp/cc.err"; then
                echo "supercop.sh: $cc could not compile ${f##*/} for $impl:" >&2
                head -n 5 "$tmp/cc.err" >&2
                exit 1
            fi
        done
        nm -g --defined-only "$tmp"/o/*.o | awk 'NF == 3 {print $3}' | sort -u >"$tmp/syms.$impl"
        [ -s "$tmp/syms.$impl" ] || { echo "supercop.sh: no symbols found for $impl" >&2; exit 1; }
    fi
    ns=crypto_sign_tts$m${n}_$impl
    {
        echo "/* SPDX-License-Identifier: MIT */"
        echo "/* Generated by make supercop: every global symbol of the sources in"
        echo " * this implementation's namespace. */"
        echo "#ifndef TTS_SUPERCOP_NAMESPACE_H"
        echo "#define TTS_SUPERCOP_NAMESPACE_H"
        while read -r s; do echo "#define $s ${ns}_$s"; done <"$tmp/syms.$impl"
        echo "#endif"
    } >"$d/namespace.h"
}

# write_primitive M N FOLDER: the primitive's own files
write_primitive() {
    m=$1 n=$2 d=$3
    line=$(grep "^tts$m$n " "$sc/checksums") || {
        echo "supercop.sh: no checksums of tts$m$n in $sc/checksums" >&2
        exit 1
    }
    echo "$line" | awk '{print $2}' >"$d/checksumsmall"
    echo "$line" | awk '{print $3}' >"$d/checksumbig"
    cp "$sc/designers" "$d/"
    echo "TTS($m,$n) multivariate signatures over GF(256), broken (libtts)" >"$d/description"
}

mkdir -p "$dest/crypto_sign"
echo "$sets" | while read -r m n v a b; do
    p=$dest/crypto_sign/tts$m$n
    mkdir -p "$p"
    for impl in ref opt avx2 gfni; do
        t=$(mktemp -d "$p/.$impl.new.XXXXXX")
        printf '%s\n%s\n' "$t" "$p/$impl" >>"$staged"
        write_impl "$m" "$n" "$v" "$a" "$b" $impl "$t"
    done
    t=$(mktemp -d "$p/.files.new.XXXXXX")
    printf '%s\n-\n' "$t" >>"$staged"
    write_primitive "$m" "$n" "$t"
done

# all written: into place (the primitive's files one by one, each package
# as a whole, the old one removed after the new one is in)
while IFS= read -r t && IFS= read -r d; do
    if [ "$d" = - ]; then
        for f in "$t"/*; do mv -f "$f" "${t%/*}/${f##*/}"; done
        rmdir "$t"
    else
        if [ -e "$d" ] || [ -L "$d" ]; then
            old=$(mktemp -d "${d%/*}/.old.XXXXXX")
            mv "$d" "$old/"
            mv "$t" "$d"
            rm -rf "$old"
        else
            mv "$t" "$d"
        fi
    fi
done <"$staged"
: >"$staged"
echo "supercop.sh: crypto_sign/tts*/{ref,opt,avx2,gfni} written to $dest"
