#!/bin/sh
# SPDX-License-Identifier: MIT
# The UART build (CARD_UART): one short exchange over ucsim's simulated
# serial line (slow: about 0.4 s of wall time per byte), GET INFO + HALT.
. "${srcdir:-.}/tests/card_lib.sh"
img=$CARD_DIR/tts-20-28-uart.ihx
[ -f "$img" ] || { echo "1..0 # SKIP no UART image"; exit 0; }
"$TTS_CARD" --uart --image "$img" info > "$W/log" 2>&1
st=$?
grep -q '^info: TTS(20,28) m=20 n=28 v=8 a=9 b=9 format=1 segment=12$' "$W/log"
say $(( st | $? )) "GET INFO over the simulated UART"
echo "1..$t"
exit $fail
