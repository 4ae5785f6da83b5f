#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile AVR images, through host/avrsim.c (tts-avr, tts-avr report,
# tts-bench micro): a FIFO where an image should be is refused at once
# (exit 2, never a wait for a writer), a segment larger than the flash is
# refused, and of 100 copies of avr/tts-20-28.elf with 1 to 8 bytes changed
# (seeded: the same copies on every run; make check the first 30, make
# check-full all 100) none crashes, aborts or hangs the tool: each is
# refused with exit 2 or, where the change left a working image, runs (0)
# or is refused by the device or the host's check (1); report and micro
# on 10 of them (check-full: 20) end 0 or 2. `timeout` only stops a
# hung tool; no check depends on speed. Skips without libsimavr or the
# images.
set -u
. "${srcdir:-.}/tests/avr_lib.sh"

# a FIFO: no writer ever comes; the tools must not wait for one
mkdir fifo && mkfifo fifo/tts-20-28.elf
run 2 "tts-avr --image FIFO info: exit 2 at once" timeout 60 "$AVR" --image fifo/tts-20-28.elf info
grep -q 'not a regular file' err
check $? "... not a regular file, said"
run 2 "tts-avr report with a FIFO for the image: exit 2" \
    timeout 60 "$AVR" --image-dir fifo --params "TTS(20,28)" report
if [ -x "$BENCH" ]; then
    run 2 "tts-bench micro with a FIFO for the image: exit 2" \
        timeout 60 "$BENCH" micro --image-dir fifo
else
    skip "tts-bench micro with a FIFO" "no tts-bench"
fi

# a segment outside the part: refused before simavr reads it
cp "$IMG/tts-20-28.elf" big.elf && chmod u+w big.elf
python3 - big.elf <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
phoff = struct.unpack_from("<I", b, 28)[0]
struct.pack_into("<I", b, phoff + 20, 0x20000)   # the code segment's size: 128 KB
open(sys.argv[1], "wb").write(b)
PY
run 2 "an image whose code segment is larger than the flash: exit 2" "$AVR" --image big.elf info
grep -q "outside the part's flash" err
check $? "... said"

# 100 damaged copies: 1 to 8 bytes changed at random (seed 2026)
"$TTS" keygen --params "TTS(20,28)" -o k >/dev/null 2>&1
printf 1234 >pin && chmod 600 pin
python3 - "$IMG/tts-20-28.elf" <<'PY'
import random, sys
src = open(sys.argv[1], "rb").read()
rng = random.Random(2026)
for i in range(100):
    b = bytearray(src)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(b))
        b[at] = (b[at] + rng.randint(1, 255)) & 0xFF
    open("bad%03d.elf" % i, "wb").write(b)
PY
bad=0 refused=0 ran=0 nimg=0
for f in bad*.elf; do
    # (make check: the first 30)
    [ -z "${TTS_CHECK_FULL:-}" ] && [ $nimg -ge 30 ] && break
    nimg=$((nimg + 1))
    timeout 300 "$AVR" --image "$f" --pin pin program k.sec sign >/dev/null 2>"$f.err"
    rc=$?
    case $rc in
        0 | 1) ran=$((ran + 1)) ;;
        2) refused=$((refused + 1)) ;;
        *) bad=$((bad + 1)); echo "# $f: exit $rc"; head -n 3 "$f.err" | sed 's/^/#   /' ;;
    esac
done
[ $bad = 0 ]
check $? "$nimg damaged images: none crashes, aborts or hangs ($refused refused, exit 2; $ran ran, exit 0 or 1)"
# tts-avr report and tts-bench micro measure an image their own way
bad=0
mkdir one
for f in bad00*.elf ${TTS_CHECK_FULL:+bad01*.elf}; do
    cp "$f" one/tts-20-28.elf
    timeout 300 "$AVR" --image-dir one --params "TTS(20,28)" report >/dev/null 2>"$f.rep"
    rc=$?
    [ $rc = 0 ] || [ $rc = 2 ] || { bad=$((bad + 1)); echo "# report $f: exit $rc"; }
    if [ -x "$BENCH" ]; then
        timeout 300 "$BENCH" micro --image-dir one >/dev/null 2>"$f.mic"
        rc=$?
        [ $rc = 0 ] || [ $rc = 2 ] || { bad=$((bad + 1)); echo "# micro $f: exit $rc"; }
    fi
done
nrep=10
[ -n "${TTS_CHECK_FULL:-}" ] && nrep=20
[ $bad = 0 ]
check $? "$nrep of them measured by tts-avr report and tts-bench micro: exit 0 or 2, nothing else"
tap_end
