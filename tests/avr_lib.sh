# SPDX-License-Identifier: MIT
# Sourced by the tts-avr test scripts (tests/test_avr_*.sh), after set -u:
# the tools and the images ($TTS, $AVR, $IMG, $BENCH, absolute), tap_lib.sh,
# the working folder entered, and a skip (exit 0) without libsimavr or the
# images.
: "${top_builddir:=.}" "${srcdir:=.}"
TTS=${TTS:-$top_builddir/tts}
AVR=${TTS_AVR:-$top_builddir/tts-avr}
IMG=${AVR_IMAGE_DIR:-$top_builddir/avr}
BENCH=${TTS_BENCH:-$top_builddir/tts-bench}
. "$srcdir/tests/tap_lib.sh"
tap_abs TTS AVR IMG BENCH srcdir
tap_enter

if [ ! -f "$IMG/tts-20-28.elf" ] || ! "$AVR" --image-dir "$IMG" info >/dev/null 2>err; then
    echo "1..0 # SKIP no AVR simulator or images ($(head -n 1 err))"
    exit 0
fi
