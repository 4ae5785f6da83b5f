#!/bin/sh
# The small programs, run once each: tts-speed (its report's shape, not its
# times), icount (every operation, bad arguments refused) and the README's
# demonstration (tools/demo.sh).
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
SPEED=$top_builddir/tts-speed
ICOUNT=$top_builddir/icount
TTS=${TTS:-$top_builddir/tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs SPEED ICOUNT TTS srcdir
tap_enter

run 0 "tts-speed -r 10 TTS(16,22) TTS(20,28)" "$SPEED" -r 10 "TTS(16,22)" "TTS(20,28)"
grep -q 'TTS(16,22)' out && grep -q 'TTS(20,28)' out && grep -qi 'keygen' out &&
    grep -qi 'sign' out && grep -qi 'verify' out
check $? "... reports key generation, signing and verification of both sets"
run 2 "tts-speed with an unknown set: exit 2" "$SPEED" -r 10 "TTS(99,99)"
for be in ref swar; do
    for op in verify sign keygen; do
        run 0 "icount TTS(16,22) $op 2 $be" "$ICOUNT" "TTS(16,22)" $op 2 $be
    done
done
run 2 "icount with an unknown operation: exit 2" "$ICOUNT" "TTS(16,22)" frob 2 ref
run 2 "icount with a bad count: exit 2" "$ICOUNT" "TTS(16,22)" verify 2x ref
run 0 "tools/demo.sh" sh "$srcdir/tools/demo.sh" "$TTS"
grep -q 'Demo done' out && grep -q 'OK\|valid' out
check $? "... verifies the signature, rejects the forgery and ends"
tap_end
