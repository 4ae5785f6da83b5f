#!/bin/sh
# SPDX-License-Identifier: MIT
# make supercop: the packages crypto_sign/ttsMN/{ref,opt,avx2,gfni} built
# as SUPERCOP 20160716's do builds them (every .c compiled with -DSUPERCOP
# -I. and the include folder, crypto_sign.h and crypto_sign_ttsMN.h made
# from api.h the way do makes them) and linked with -lm alone: no
# libsodium, and a sodium.h on the include path that stops the compiler.
# Run through this project's own harness of try.c's sequence
# (tests/supercop/try_tts.c), each gives the checksums the primitive
# ships (checksumsmall, checksumbig), which the library gives through the
# same harness, and which SUPERCOP's own try.c gave for TTS(20,28) and
# TTS(36,50) (the constants below: try.c linked by hand with the library,
# and an implementation of docs/SPEC.md of its own). Also: the bundled
# SHA-512 and ChaCha20 against libsodium's, every global symbol in the
# package's namespace, the vector implementations refused without their
# ISA, the primitive's and the implementation's files, and the export
# itself: a DESTDIR with a space and a two-word CC through make, and a
# failing export that replaces nothing. make check builds TTS(20,28)'s
# ref and gfni packages (one code path serves the eight sets; the
# checksums of TTS(36,50) come through the library), make check-full all 32; avx2 and gfni
# are built everywhere and run where the CPU has the ISA (else skipped,
# visibly).
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

# SUPERCOP 20160716's crypto_sign/try.c, not computed here
anchor() {
    case $1 in
    tts2028.small) echo 1aad7e9a0a3be50df97fc3b21123aba52172779d604982a73230a4770f9c61a1 ;;
    tts2028.big) echo f946d4ba89169ba95cdf04d7b4d898d725c664fa2d125d8fdf6eb92a23a5714a ;;
    tts3650.small) echo 2e69bba6aed09a996472d891c4b5b2358ac046a5390c4246946d4f8ef9c8ca10 ;;
    tts3650.big) echo 2a378e63c0b51d8085a24af48a055eb98214cc2738c055b6bb03da8e15bb2c26 ;;
    esac
}
# isa_ok IMPL: this CPU runs IMPL's code (x86 Linux: /proc/cpuinfo)
isa_ok() {
    case $1 in
    avx2) grep -qw avx2 /proc/cpuinfo 2>/dev/null ;;
    gfni) grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw gfni /proc/cpuinfo 2>/dev/null ;;
    *) true ;;
    esac
}
isa_flags() {
    case $1 in avx2) echo -mavx2 ;; gfni) echo -mavx2 -mgfni ;; esac
}
x86=no
case $($CC -dumpmachine 2>/dev/null) in x86_64-* | amd64-*) x86=yes ;; esac

# shellcheck disable=SC2086
$CC -std=c11 $CFLAGS -I"$srcdir/supercop" -o prims "$H/prims_check.c" \
    "$srcdir/supercop/tts_prims.c" $LDFLAGS $SOD >err 2>&1 && ./prims >err 2>&1
check $? "supercop/tts_prims.c: SHA-512 (FIPS 180-2's \"abc\", lengths 0..1100) and ChaCha20 (lengths 0..700, four counters, in place) as libsodium's"

sh "$srcdir/build-aux/supercop.sh" "$srcdir" sc "$CC" >out 2>err
check $? "build-aux/supercop.sh (make supercop) exports the packages"
n=$(ls -d sc/crypto_sign/tts*/ref sc/crypto_sign/tts*/opt sc/crypto_sign/tts*/avx2 \
    sc/crypto_sign/tts*/gfni 2>/dev/null | wc -l)
[ "$n" = 32 ]
check $? "32 packages: the eight sets, ref, opt, avx2 and gfni (got $n)"
bad=""
for p in sc/crypto_sign/tts*; do
    for f in checksumsmall checksumbig; do
        grep -qx '[0-9a-f]\{64\}' "$p/$f" 2>/dev/null || bad="$bad $p/$f"
    done
    grep -q 'Yang' "$p/designers" 2>/dev/null || bad="$bad $p/designers"
    grep -q "TTS(" "$p/description" 2>/dev/null || bad="$bad $p/description"
    for d in "$p"/*/; do
        [ -s "$d/implementors" ] || bad="$bad ${d}implementors"
        cmp -s "$d/LICENSE" "$srcdir/LICENSE" || bad="$bad ${d}LICENSE"
        case $d in
        */avx2/ | */gfni/) [ "$(cat "$d/architectures" 2>/dev/null)" = amd64 ] ||
            bad="$bad ${d}architectures" ;;
        *) [ ! -e "$d/architectures" ] || bad="$bad ${d}architectures" ;;
        esac
    done
done
[ -z "$(find sc/crypto_sign -name '.*.new.*')" ] || bad="$bad (a temporary left)"
[ -z "$bad" ]
check $? "each primitive ships checksumsmall, checksumbig, designers, description; each implementation implementors, LICENSE; avx2 and gfni architectures${bad:+:$bad}"
grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]sodium\.h' sc/crypto_sign/*/*/* >inc 2>&1
[ ! -s inc ]
check $? "no source of any package includes sodium.h$( [ -s inc ] && head -n 2 inc | tr '\n' ' ')"

# SUPERCOP's include folder, as far as a crypto_sign package sees it (its
# cpuid.h, which hides the compiler's, stops the compile), and a sodium.h
# that fails the compile if any source reaches it
mkdir include poison
cp "$H/randombytes.h" include/
echo '#error "SUPERCOP'"'"'s include folder has a cpuid.h of its own (the CPU'"'"'s name), not the compiler'"'"'s"' \
    >include/cpuid.h
echo '#error "a SUPERCOP package must not include sodium.h"' >poison/sodium.h

# package PRIM IMPL FOLDER: crypto_sign.h and crypto_sign_PRIM.h as do
# writes them (api.h's CRYPTO_ names to the implementation's, the
# prototypes, the operation's names to the implementation's)
package() {
    prim=$1 opi=crypto_sign_$1_$2 op=crypto_sign_$1 macros="_open _keypair _BYTES _SECRETKEYBYTES _PUBLICKEYBYTES _DETERMINISTIC"
    {
        echo "#include \"$op.h\""
        for x in $macros; do echo "#define crypto_sign$x $op$x"; done
        echo "#define crypto_sign $op"
    } >"$3/crypto_sign.h"
    {
        sed "s/[ 	]CRYPTO_/ ${opi}_/g" "$3/api.h"
        echo "extern int $opi(unsigned char *,unsigned long long *,const unsigned char *,unsigned long long,const unsigned char *);"
        echo "extern int ${opi}_open(unsigned char *,unsigned long long *,const unsigned char *,unsigned long long,const unsigned char *);"
        echo "extern int ${opi}_keypair(unsigned char *,unsigned char *);"
        for x in $macros; do echo "#define $op$x $opi$x"; done
        echo "#define $op $opi"
    } >"$3/$op.h"
}

# library PRIM SET small|big: the library's checksum through the harness,
# once (lib.PRIM.VARIANT.out), and SUPERCOP's where the anchors have it
library() {
    [ -f "lib.$1.$3.out" ] && return
    # shellcheck disable=SC2086,SC2046
    $CC -std=c11 $CFLAGS -DLIBRARY -DSET="\"$2\"" $([ $3 = small ] && echo -DSMALL) \
        -I"$srcdir/include" -I"$H" "$H/try_tts.c" -o "lib.$1.$3" $LIBTTS $LDFLAGS $SOD -lm >err 2>&1 &&
        "./lib.$1.$3" >"lib.$1.$3.out" 2>err
    check $? "$1: the library through the harness of try.c ($3)"
    a=$(anchor "$1.$3")
    if [ -n "$a" ]; then
        [ "$(cat "lib.$1.$3.out")" = "$a" ]
        check $? "$1: checksum$3 $(cat "lib.$1.$3.out") is SUPERCOP try.c's"
    fi
}
# the anchors first (TTS(36,50)'s library run takes a fraction of a second)
for v in small big; do
    library tts2028 20,28 $v
    library tts3650 36,50 $v
done

full=${TTS_CHECK_FULL:+sc/crypto_sign/tts*/*/}
# (make check: TTS(20,28)'s ref and gfni, the portable code and the vector
# code with its ISA guard; opt, avx2 and the other sets in check-full)
for d in ${full:-sc/crypto_sign/tts2028/ref/ sc/crypto_sign/tts2028/gfni/}; do
    d=${d%/}
    prim=$(basename "$(dirname "$d")") impl=$(basename "$d")
    ns=crypto_sign_${prim}_$impl
    set=$(sed -n 's/^#define CRYPTO_ALGNAME "\(.*\)"$/\1/p' "$d/api.h")
    w=w.$prim.$impl
    mkdir "$w" && cp "$d"/* "$w/" && package "$prim" "$impl" "$w"
    # every .c of the package, as do compiles them, then try's two builds
    # shellcheck disable=SC2086,SC2046
    (cd "$w" && for f in *.c; do
        $CC $CFLAGS $(isa_flags "$impl") -DSUPERCOP -I. -I../include -I../poison -c "$f" || exit 1
    done && for v in small big; do
        $CC $CFLAGS $(isa_flags "$impl") -I. -I../include -I../poison \
            $([ $v = small ] && echo -DSMALL) -o "try.$v" "$H/try_tts.c" *.o $LDFLAGS -lm || exit 1
    done) >err 2>&1
    check $? "$prim/$impl: built as SUPERCOP builds it, linked with -lm alone"
    # (no object, or a package without its namespace, fails too)
    (cd "$w" && nm -g --defined-only *.o) >syms 2>&1
    ok=$?
    awk 'NF == 3 {print $3}' syms |
        grep -v "^${ns}_\|^${ns}$\|^__odr_asan\|^__asan\|^__ubsan" >bad.syms
    [ $ok = 0 ] && [ ! -s bad.syms ] && grep -q " T ${ns}_keypair$" syms
    check $? "$prim/$impl: every global symbol in the namespace $ns$( [ -s bad.syms ] && head -n 3 bad.syms | tr '\n' ' ')"
    for v in small big; do
        library "$prim" "$set" $v
        if ! isa_ok "$impl"; then
            skip "$prim/$impl: checksum$v" "this CPU lacks $impl"
            continue
        fi
        (cd "$w" && "./try.$v") >"$w/$v.out" 2>err
        ok=$?
        [ $ok = 0 ] && [ "$(cat "$w/$v.out")" = "$(cat "$d/../checksum$v")" ] &&
            cmp -s "$w/$v.out" "lib.$prim.$v.out"
        check $? "$prim/$impl: try's checksum$v $(cat "$w/$v.out") is the shipped one and the library's"
    done
    case $impl in
    avx2 | gfni)
        if [ $x86 = yes ]; then
            ! (cd "$w" && $CC -mno-avx2 -mno-gfni -DSUPERCOP -I. -I../include -c supercop.c \
                -o guard.o) >err 2>&1 && grep -q "needs AVX2" err
            check $? "$prim/$impl: refused (#error) by a compiler without $impl"
        fi
        ;;
    esac
    rm -rf "$w"
done

# DESTDIR with a space and a two-word CC, through make: the package goes to
# "x/a b", and x/a's own package is left alone
mkdir -p "x/a/crypto_sign/tts1622/ref"
echo mine >x/a/crypto_sign/tts1622/ref/keep
${MAKE:-make} -s -C "$top_builddir" supercop DESTDIR="$PWD/x/a b" CC="env $CC" >out 2>err
ok=$?
[ $ok = 0 ] && [ -f "x/a b/crypto_sign/tts1622/ref/api.h" ] &&
    [ -f "x/a b/crypto_sign/tts3650/gfni/namespace.h" ] &&
    [ "$(cat x/a/crypto_sign/tts1622/ref/keep 2>/dev/null)" = mine ] &&
    [ "$(ls x/a/crypto_sign/tts1622)" = ref ] && [ "$(ls x/a/crypto_sign)" = tts1622 ]
check $? "make supercop DESTDIR=\"x/a b\" CC=\"env $CC\": written to x/a b, x/a untouched"

# a failing export (the compiler refuses -mgfni, so the last implementation
# cannot be listed) replaces nothing: the packages in place stay as they were
printf '#!/bin/sh\nfor a; do [ "$a" = -mgfni ] && exit 1; done\nexec %s "$@"\n' "$CC" >badcc
chmod +x badcc
cp -R "x/a b" y
echo mine >y/crypto_sign/tts1622/ref/keep
sh "$srcdir/build-aux/supercop.sh" "$srcdir" y "$PWD/badcc" >out 2>err
ok=$?
[ $ok != 0 ] && grep -q 'could not compile' err &&
    [ "$(cat y/crypto_sign/tts1622/ref/keep 2>/dev/null)" = mine ] &&
    diff -r -x keep "x/a b" y >/dev/null && [ -z "$(find y -name '.*.new.*' -o -name '.old.*')" ]
check $? "a failing export (exit $ok) replaces nothing and leaves no temporary"
# one list: the packages take the library's sources from ref/ref.am and
# opt/opt.am, so a source the build adds is packaged (a copy of the tree
# whose ref/ref.am names one more file)
mkdir -p t2
cp -R "$srcdir/ref" "$srcdir/opt" "$srcdir/include" "$srcdir/supercop" "$srcdir/LICENSE" t2/
chmod -R u+w t2
x=extra_probe # (a file of the copy only)
sed "s|^REF_SOURCES = ref/params.c|REF_SOURCES = ref/$x.c ref/params.c|" \
    "$srcdir/ref/ref.am" >t2/ref/ref.am
printf '/* SPDX-License-Identifier: MIT */\ntypedef int tts_extra_probe;\n' >"t2/ref/$x.c"
sh "$srcdir/build-aux/supercop.sh" t2 z "$CC" >out 2>err
ok=$?
[ $ok = 0 ] && [ -f "z/crypto_sign/tts2028/ref/$x.c" ] &&
    [ -f "z/crypto_sign/tts2028/gfni/$x.c" ] && [ ! -f z/crypto_sign/tts2028/ref/file.c ] &&
    [ ! -f z/crypto_sign/tts2028/opt/cpu.c ] && [ -f z/crypto_sign/tts2028/avx2/kernels_avx2.c ]
check $? "the packages' sources are the build's lists (ref/ref.am, opt/opt.am): a file added there is packaged (exit $ok)"
tap_end
