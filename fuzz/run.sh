#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the libFuzzer harnesses with clang and run each for a bounded time.
#   run.sh SRCDIR BUILDDIR [HARNESS ...]
# Environment: FUZZ_SECONDS (per harness, default 60; 0: replay the
# committed corpus fuzz/corpus/NAME once, no new inputs), CC_FUZZ (clang),
# AVX2_CFLAGS and GFNI_CFLAGS (from configure; empty: backend not built),
# SODIUM_CFLAGS, SODIUM_LIBS, LIB_SOURCES (the library's sources, from
# Makefile.am). BUILDDIR holds configure's config.h.
# Prints one line per harness with its executions; exit 1 if any harness
# found a crash, a leak or a broken invariant (the input is kept in
# BUILDDIR/fuzz-out/NAME/crash-*).
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
shift 2
secs=${FUZZ_SECONDS:-60}
cc=${CC_FUZZ:-clang}
all="file verify manifest challenge apdu diff"
list=${*:-$all}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: $cc not found (libFuzzer needs clang)" >&2
    exit 2
fi
out=$build/fuzz-out
mkdir -p "$out"
san="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
cflags="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L ${SODIUM_CFLAGS:-}"
inc="-I$build -I$src/include -I$src/ref -I$src/tools -I$src/challenge -I$src/common -I$src/fuzz"

# The library and the file modules, once, as objects with the harness flags
# (-fsanitize=fuzzer-no-link: instrumented, no main).
obj=$out/obj
mkdir -p "$obj"
lib=""
compile() { # compile SRC [extra flags]
    s=$1; shift
    o=$obj/$(echo "$s" | tr / _).o
    $cc $cflags $inc -fsanitize=fuzzer-no-link,address,undefined "$@" -c "$src/$s" -o "$o" || exit 2
    lib="$lib $o"
}
[ -n "${LIB_SOURCES:-}" ] || { echo "fuzz: LIB_SOURCES not set (run make fuzz)" >&2; exit 2; }
for s in $LIB_SOURCES common/ttsfile.c common/fileio.c common/fileio_proc.c tools/cli.c tools/challenge_io.c challenge/instance.c \
    challenge/manifest.c challenge/sets.c challenge/sflash_break.c challenge/gf128la.c challenge/gfla.c \
    common/json.c challenge/folder.c challenge/verify.c; do
    case $s in *.c) compile "$s" ;; esac
done
grep -q '^#define TTS_HAVE_AVX2 1' "$build/config.h" && compile opt/kernels_avx2.c ${AVX2_CFLAGS:--mavx2}
grep -q '^#define TTS_HAVE_GFNI 1' "$build/config.h" && compile opt/kernels_gfni.c ${GFNI_CFLAGS:--mavx2 -mgfni}

# The card's command logic needs the generated tables of TTS(20,28).
$cc -std=c11 -I"$src/include" -I"$src/ref" -I"$build" "$src/8051/gen_card.c" -o "$obj/gen_card" &&
    mkdir -p "$obj/card" && "$obj/gen_card" "$obj/card" || exit 2

status=0
printf '%-10s %12s %10s %8s  %s\n' harness executions exec/s seconds result
for h in $list; do
    extra=""
    maxlen=4096
    case $h in
        apdu) extra="-DCARD_HOST -DTTS_M=20 -DTTS_N=28 -I$obj/card -I$src/8051 $src/8051/apdu.c" ;;
        verify) maxlen=48000 ;;
        diff) maxlen=600 ;;
        file|manifest) ;;
        challenge) maxlen=16000 ;;
        *) echo "fuzz: unknown harness $h" >&2; exit 2 ;;
    esac
    bin=$out/fuzz_$h
    # shellcheck disable=SC2086
    $cc $cflags $inc $san "$src/fuzz/fuzz_$h.c" $extra $lib ${SODIUM_LIBS:--lsodium} -o "$bin" || exit 2
    work=$out/$h
    mkdir -p "$work/corpus"
    t0=$(date +%s)
    if [ "$secs" = 0 ]; then
        # every committed input once (the files themselves, no mutation)
        (cd "$work" && "$bin" -runs=0 -max_len=$maxlen -timeout=20 \
            -print_final_stats=1 "$src/fuzz/corpus/$h" > log 2>&1)
    else
        (cd "$work" && "$bin" -max_total_time="$secs" -max_len=$maxlen -timeout=20 \
            -print_final_stats=1 corpus "$src/fuzz/corpus/$h" > log 2>&1)
    fi
    rc=$?
    t1=$(date +%s)
    ex=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -n 1)
    if [ $rc = 0 ]; then res=ok; else res="FAILED (rc $rc, see $work/log)"; status=1; fi
    printf '%-10s %12s %10s %8s  %s\n' "$h" "${ex:-?}" "${rate:-?}" $((t1 - t0)) "$res"
    [ $rc = 0 ] || tail -n 30 "$work/log" >&2
done
exit $status
