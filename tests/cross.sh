#!/bin/bash
# SPDX-License-Identifier: MIT
# Cross build and test under qemu-user: bash tests/cross.sh ARCH, ARCH one
# of aarch64 (little-endian, with the neon backend) and s390x (big-endian:
# ref and swar). As root it first installs the cross compiler, qemu-user and
# the foreign-architecture libraries (dpkg --add-architecture, apt-get);
# otherwise they must be there already (CROSS_NO_INSTALL=1 skips the step;
# CROSS_INSTALL_ONLY=1 does it alone, so that the two architectures can
# then run side by side without two apt-get at once).
#
# The sources are copied (the files git tracks, as they are in the work
# tree; or, outside git, the tree without build products)
# to $CROSS_DIR/src (default /tmp/libtts-cross-ARCH) so that an in-tree
# native build does not stop the out-of-tree configure; the build is in
# $CROSS_DIR/build (--host=ARCH-linux-gnu, card images off). binfmt is not
# needed: $CROSS_DIR/run holds one wrapper script per program that execs
# qemu-ARCH on the real binary (see qprefix below), and the shell tests
# are run with top_builddir pointing there, the Check suites through it.
#
# Runs: the Check suites (test_field, test_params, test_scheme, test_api,
# test_backends, test_sflash), test_gen.sh, test_kat.sh (the first 10
# entries of all eight sets byte for byte for every backend the
# architecture has, and the full 100-entry files against kat/SHA256SUMS),
# test_tool.sh, test_symbols.sh, test_challenge.sh, test_bench.sh (the
# tests that need no card and no valgrind), then tts-speed once per backend
# as a smoke test (its figures are emulator times, not timings). Ends with
# "N passed, N failed" and exits 1 if anything failed.
set -u
arch=${1:-}
case $arch in
aarch64) deb=arm64; host=aarch64-linux-gnu; backends="ref swar neon" ;;
s390x) deb=s390x; host=s390x-linux-gnu; backends="ref swar" ;;
*) echo "usage: bash tests/cross.sh aarch64|s390x" >&2; exit 2 ;;
esac
qemu=qemu-$arch
src=$(cd "$(dirname "$0")/.." && pwd) || exit 2
work=${CROSS_DIR:-/tmp/libtts-cross-$arch}
jobs=${CROSS_JOBS:-2}
t0=$(date +%s)
step() { printf '\n--- %s (%d s)\n' "$1" $(($(date +%s) - t0)); }
die() { echo "cross.sh: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

# ---- toolchain and foreign libraries ---------------------------------------
sysroot=$work/sysroot
if [ "$(id -u)" = 0 ] && [ -z "${CROSS_NO_INSTALL:-}" ]; then
    step "install the $host toolchain, qemu-user and the $deb libraries"
    export DEBIAN_FRONTEND=noninteractive
    if ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
        dpkg --add-architecture "$deb" || die "dpkg --add-architecture $deb failed"
        apt-get update -qq || die "apt-get update failed"
    fi
    apt-get install -y -qq --no-install-recommends \
        build-essential autoconf automake libtool pkg-config git python3 \
        "gcc-$host" "binutils-$host" "libc6-dev-$deb-cross" qemu-user \
        "libsodium-dev:$deb" "check:$deb" "libgmp-dev:$deb" >/dev/null ||
        die "apt-get install failed"
    # libssl-dev is Multi-Arch: same; when the archive has no build of the
    # native version for $deb (bookworm-security lacks s390x), it cannot
    # be installed beside the native one: unpack it into a private sysroot.
    if ! apt-get install -y -qq --no-install-recommends "libssl-dev:$deb" >/dev/null 2>&1; then
        echo "# libssl-dev:$deb not co-installable with the native libssl-dev: unpacked into $sysroot"
        rm -rf "$sysroot" && mkdir -p "$sysroot/debs" || die "mkdir $sysroot"
        (cd "$sysroot/debs" && chmod 777 . && apt-get download -qq "libssl-dev:$deb" "libssl3:$deb") ||
            die "apt-get download libssl-dev:$deb failed"
        for d in "$sysroot"/debs/*.deb; do dpkg -x "$d" "$sysroot" || die "dpkg -x $d"; done
    fi
fi
[ -n "${CROSS_INSTALL_ONLY:-}" ] && exit 0
command -v "$host-gcc" >/dev/null || die "$host-gcc not found (run as root to install gcc-$host)"
command -v "$qemu" >/dev/null || die "$qemu not found (install qemu-user)"

# ---- sources, configure, build -----------------------------------------------
step "copy the sources to $work/src"
rm -rf "$work/src" "$work/build" "$work/run" && mkdir -p "$work/src" "$work/build" "$work/run/tests" ||
    die "cannot create $work"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked files only (as they are in the work tree): untracked build
    # products of a native build (tts-bench, ...) in the source directory
    # would be found through VPATH and taken as up to date
    (cd "$src" && git ls-files -z -c | xargs -0 tar -cf - --no-recursion) |
        tar -xf - -C "$work/src" || die "copying the sources failed"
else
    (cd "$src" && tar -cf - --exclude=./.git --exclude='*.o' --exclude='*.lo' --exclude=.libs \
        --exclude=.deps --exclude=config.status --exclude=Makefile .) | tar -xf - -C "$work/src" ||
        die "copying the sources failed"
fi
(cd "$work/src" && autoreconf -fi >/dev/null 2>&1) || die "autoreconf failed"

step "configure --host=$host"
export PKG_CONFIG_LIBDIR=/usr/lib/$host/pkgconfig:/usr/share/pkgconfig
export PKG_CONFIG_PATH=
set -- --host="$host" --enable-werror --disable-card --disable-avr --disable-cortexm --disable-ctgrind
b=$work/build
ldpath=$b/.libs
if [ -d "$sysroot/usr/lib/$host" ]; then
    set -- "$@" CRYPTO_CFLAGS="-I$sysroot/usr/include -I$sysroot/usr/include/$host" \
        CRYPTO_LIBS="-L$sysroot/usr/lib/$host -lcrypto"
    ldpath=$ldpath:$sysroot/usr/lib/$host
fi
(cd "$work/build" && "$work/src/configure" "$@" > configure.out 2>&1) ||
    { tail -30 "$work/build/configure.out"; die "configure failed (see $work/build/config.log)"; }
sed -n '/libtts .*/,$p' "$work/build/configure.out"

step "build (library, tools, tests)"
check_progs="tests/test_field tests/test_params tests/test_scheme tests/test_api tests/test_backends tests/test_file tests/test_fileio tests/test_sflash tests/test_challenge_lib tests/test_break tests/test_ref_alone"
(cd "$work/build" && make -j"$jobs" >make.out 2>&1 && make -j"$jobs" $check_progs >>make.out 2>&1) ||
    { tail -40 "$work/build/make.out"; die "build failed"; }

# ---- qemu wrappers -------------------------------------------------------------
# libtool leaves a shell wrapper at PROG and the binary in .libs/ when it
# links against the uninstalled shared libtts: run the latter, with .libs
# on the guest's library path.
# The guest's loader and libc: those of the multiarch libc6:$deb when it
# is installed (it is, by the foreign -dev packages), else those of the
# cross toolchain (-L /usr/$host). Never a mix: the cross package's ld.so
# with the multiarch libc (which the loader finds first) is another
# version of glibc, and the guest then dies at start ("stack smashing").
qbin=$(command -v "$qemu") # absolute: test_bench.sh runs tts-bench with a bare PATH
qprefix="-L /usr/$host"
[ -e "/usr/lib/$host/libc.so.6" ] && qprefix=
for p in tts tts-genkat tts-challenge tts-bench tts-speed gen_central gen_avx2_tables $check_progs; do
    bin=$b/$p
    d=$(dirname "$p")
    [ -f "$b/$d/.libs/$(basename "$p")" ] && bin=$b/$d/.libs/$(basename "$p")
    [ -f "$bin" ] || die "$p was not built"
    printf '#!/bin/sh\nexec %s %s -E LD_LIBRARY_PATH=%s %s "$@"\n' \
        "$qbin" "$qprefix" "$ldpath" "$bin" > "$work/run/$p"
    chmod +x "$work/run/$p"
done
ln -s "$b/.libs" "$work/run/.libs"
ln -s "$b/config.h" "$work/run/config.h" # test_symbols.sh compares the version
# test_symbols.sh runs nm on the shared library: the cross nm reads it.
mkdir -p "$work/run/bin" && ln -sf "$(command -v "$host-nm")" "$work/run/bin/nm"

step "smoke: the backends tts-genkat sees"
"$work/run/tts-genkat" -p || die "$qemu cannot run tts-genkat"
for be in $backends; do
    got=$(TTS_BACKEND=$be "$work/run/tts-genkat" -p)
    [ "$got" = "$be" ] || die "backend $be not selectable under $qemu (got $got)"
done

# ---- tests -------------------------------------------------------------------
passed=0
failed=0
skipped=0
failures=""
logs=$work/logs
mkdir -p "$logs"
# result NAME RC: exit status 0 passes, 77 skips (automake), anything else fails
result() {
    case $2 in
    0) passed=$((passed + 1)); echo "PASS: $1" ;;
    77) skipped=$((skipped + 1)); echo "SKIP: $1" ;;
    *) failed=$((failed + 1)); failures="$failures $1"; echo "FAIL: $1 (exit $2)"; tail -25 "$logs/$1.log" ;;
    esac
}
runtest() {
    name=$1
    shift
    local s
    s=$(date +%s)
    "$@" > "$logs/$name.log" 2>&1
    rc=$?
    result "$name" $rc
    echo "      ($(($(date +%s) - s)) s; log $logs/$name.log)"
}

step "Check suites under $qemu"
for p in $check_progs; do
    runtest "$(basename "$p")" "$work/run/$p"
done

step "shell tests under $qemu"
for t in test_gen test_kat test_tool test_symbols test_challenge test_bench; do
    runtest "$t.sh" env srcdir="$work/src" top_builddir="$work/run" TTS="$work/run/tts" \
        PATH="$work/run/bin:$PATH" sh "$work/src/tests/$t.sh"
done
# every backend of this architecture went through the 10-entry KATs
for be in $backends; do
    grep -q "^ok .* - $be: entries 0..9 of all eight sets equal the committed files" "$logs/test_kat.sh.log"
    result "kat-$be" $?
done

step "tts-speed once per backend (a smoke test: emulator times are no timings)"
for be in $backends; do
    runtest "speed-$be" "$work/run/tts-speed" -r 10 -b "$be" "TTS(20,28)" "TTS(36,50)"
    sed 's/^/      /' "$logs/speed-$be.log"
    grep -q 'emulat' "$logs/speed-$be.log" || { echo "      (tts-speed did not say it runs emulated)"; }
done

printf '\n%s (%s, %d s):%s\n' "cross.sh $arch" "$host" $(($(date +%s) - t0)) \
    "${failures:+ failed:$failures}"
[ "$skipped" -gt 0 ] && echo "# $skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
