#!/bin/sh
# SPDX-License-Identifier: MIT
# The small programs, run once each: tts-speed (its report's shape, not its
# times), icount (every operation, bad arguments refused) and the README's
# demonstration (tools/demo.sh); and the options and man page of every
# installed program.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
SPEED=$top_builddir/tts-speed
ICOUNT=$top_builddir/icount
TTS=${TTS:-$top_builddir/tts}
. "$srcdir/tests/tap_lib.sh"
tap_abs SPEED ICOUNT TTS srcdir top_builddir
tap_real SPEED ICOUNT TTS
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

# every installed program: --help (exit 0), --version (the package's
# version), a bad option named in one line that points to --help (exit 2),
# and a man page that man renders
ver=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
for p in tts tts-card tts-avr tts-challenge tts-bench tts-genkat tts-speed; do
    exe=$top_builddir/$p
    [ -x "$exe" ] || { skip "$p: --help, --version, a bad option" "not built"; continue; }
    "$exe" --help >out 2>err && [ -s out ]
    check $? "$p --help: exit 0, the usage on standard output"
    "$exe" --version >out 2>err && grep -q "^$p (libtts) $ver" out
    check $? "$p --version: $p (libtts) $ver"
    "$exe" --bogus-option >out 2>err
    [ $? = 2 ] && [ "$(wc -l <err)" -le 2 ] && grep -q -- "--bogus-option" err &&
        grep -q -- "--help" err
    check $? "$p --bogus-option: exit 2, named in one line, then a pointer to --help"
done
# COMMAND --help, for every command of the tools with commands
for c in keygen sign verify pubkey upgrade-key convert params; do
    "$top_builddir/tts" $c --help >out 2>err && grep -q '^usage: tts ' out
    check $? "tts $c --help: exit 0, the usage"
done
if [ -x "$top_builddir/tts-challenge" ]; then
    for c in estimate generate verify reveal-check dreg structure export toy calibrate break forge; do
        "$top_builddir/tts-challenge" $c --help >out 2>err && grep -q '^usage: tts-challenge ' out
        check $? "tts-challenge $c --help: exit 0, the usage"
    done
else
    skip "tts-challenge COMMAND --help" "not built"
fi
if command -v man >/dev/null 2>&1; then
    for page in tools/tts.1 tools/tts-card.1 tools/tts-avr.1 tools/tts-challenge.1 tools/tts-bench.1 \
                kat/tts-genkat.1 bench/tts-speed.1; do
        MANWIDTH=80 man -l "$srcdir/$page" >out 2>err && [ "$(wc -l <out)" -gt 20 ] &&
            ! grep -q 'warning' err
        check $? "man -l $page renders without warnings"
    done
else
    skip "man -l of the seven man pages" "man is not installed"
fi
tap_end
