#!/bin/sh
# SPDX-License-Identifier: MIT
# The internal RAM an image reaches, measured in s51 (the tests run it; the
# build needs SDCC alone):
#   probe-iram.sh IMAGE.ihx M [PREFIX]
# Runs every command once (GET INFO, SET PIN, GENERATE KEY, VERIFY, GET PK
# SEGMENT, SIGN, GET COUNTER, PUT KEY, COMMIT KEY, GET CYCLES, HALT) and
# prints the highest internal RAM byte touched + 1: the firmware fills its
# free RAM above the stack's start with 0xA5 (main.c), and for an image of
# the 128-byte and ROM families (IMAGE ending in -128.ihx, -rom.ihx,
# -rom4k.ihx or -rom4k-nocheck.ihx, run on -t 8051) the
# simulator fills 0x80..0xFF before the run as well, so that a stray
# indirect access up there shows as a figure past 128 (s51 ends a dump
# line early at a code address it has run: a line's bytes are those up to
# the next line's address). Prints -1 if s51
# could not run. PREFIX: a file of commands sent first (the ROM family's
# tests install a key with it, so that COMMIT KEY and SIGN run whole); for
# an image whose .sizes names its arena's start (arena_start: the ROM
# family, whose stack runs up to the arena), a second figure: the highest
# byte touched below the arena + 1, the stack's peak. Environment: S51
# (default s51).
set -eu
img=$1 m=$2
S51=${S51:-s51}
sizes=${img%.ihx}.sizes
ssta=$(sed -n 's/^stack_start //p' "$sizes")
arena=$(sed -n 's/^arena_start //p' "$sizes")
w=$(mktemp -d "${TMPDIR:-/tmp}/tts-probe.XXXXXX")
trap 'rm -rf "$w"' EXIT
{
    [ -z "${3:-}" ] || cat "$3"
    printf '\200\020\000\000\000\000'
    printf '\200\046\000\000\0041234\000'
    printf '\200\040\000\000\040'; head -c 32 /dev/zero; printf '\000'
    printf '\000\040\000\000\0041234\000'
    printf '\200\060\000\000\000\000'
    printf "\\200\\100\\000\\000\\$(printf %03o "$m")"; head -c "$m" /dev/zero; printf '\000'
    printf '\200\026\000\000\000\000'
    printf '\200\042\000\000\001\000\000\200\044\000\000\000\000\200\022\000\000\000\000'
    printf '\200\376\000\000\000\000'
} > "$w/req"
case $img in
*-128.ihx | *-rom.ihx | *-rom4k.ihx | *-rom4k-nocheck.ihx) cpu=8051 script='fill iram_chip 0x80 0xff 0xa5\nrun\ndi 0x00 0x7f\ndump iram_chip 0x80 0xff\nquit\n' ;;
*) cpu=8032 script='run\ndi 0x00 0xff\nquit\n' ;;
esac
if printf "$script" | "$S51" -t $cpu -I if=xram[0xffff],in="$w/req",out="$w/resp" \
        -b "$img" > "$w/out" 2>&1; then
    awk -v s="$ssta" 'function hex(x,  i, v) { v = 0; x = tolower(x); sub(/^0x/, "", x)
            for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
            return v }
        /^0x[0-9a-f][0-9a-f] / && $2 !~ /^0x/ {n++; at[n] = hex($1); for (i = 0; i < 8; i++) v[n, i] = $(i + 2) }
        END {at[n + 1] = 256
            for (k = 1; k <= n; k++) for (i = 0; i < 8 && at[k] + i < at[k + 1]; i++)
                if (at[k] + i >= s && v[k, i] != "a5") {
                    top = at[k] + i; if (b != "" && top < b + 0) below = top }
            print (top ? top + 1 : -1) (b != "" ? " " (below ? below + 1 : -1) : "")}' b="$arena" "$w/out"
else
    echo -1
fi
