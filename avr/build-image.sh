#!/bin/sh
# SPDX-License-Identifier: MIT
# One AVR image: build-image.sh SRCDIR TABLES M N OUT [flags]
#   SRCDIR  the source tree; TABLES the generated avr_tables.h
#   M N     the set; OUT the ELF image; flags more avr-gcc flags
# Builds the firmware with $AVR_GCC (avr-gcc) and prints its
# static memory budget from the ELF's symbols: flash = code + the GF(256)
# tables (in flash, or the SRAM tables' initial copy) + the secret key +
# the public key (with its zero list); SRAM = the static data (the
# stack's peak is measured by running the image: tts-avr report).
set -eu
srcdir=$1 tables=$2 m=$3 n=$4 out=$5
shift 5
AVR_GCC=${AVR_GCC:-avr-gcc}
nm=${AVR_GCC%gcc}nm
size=${AVR_GCC%gcc}size
mkdir -p "$(dirname "$out")"
# the part: the ATmega328P (an UNO's, 32 KB of flash) when the image fits
# it, else the ATmega2560 (an Arduino Mega's, 256 KB): by the public key's
# size, AVR_PK_LARGE of avr/avr_pk.h
large=$(sed -n 's/^#define AVR_PK_LARGE *\([0-9]*\).*/\1/p' "$srcdir/avr/avr_pk.h")
mcu=atmega328p
[ $((m * n * (n + 3) / 2)) -gt "${large:?AVR_PK_LARGE not found in avr/avr_pk.h}" ] && mcu=atmega2560
# the firmware's C modules, or with -DAVR_KERNEL_TEST the kernels' test
# image (avr/kernel_test.c); gf_tab.c first (its tables open the SRAM)
cmods="main io nvm chacha sign verify"
case " $* " in *" -DAVR_KERNEL_TEST "*) cmods="kernel_test io" ;; esac
set -- "$@" "$srcdir/avr/gf_tab.c"
for f in $cmods; do set -- "$@" "$srcdir/avr/$f.c"; done
for f in chacha_rounds gf_verify gf_matvec gf_solve gf_pmul wipe pk_room; do
    set -- "$@" "$srcdir/avr/$f.S"
done
"$AVR_GCC" -mmcu=$mcu -Os -mrelax -std=gnu99 -Wall -Wextra -Werror \
    -ffunction-sections -fdata-sections -Wl,--gc-sections \
    -DTTS_M="$m" -DTTS_N="$n" -I"$(dirname "$tables")" -I"$srcdir/avr" -o "$out.tmp" "$@"
# symbol sizes (hex) of the keys and tables; text and data, bss
sym() { printf "%d" "0x$("$nm" -S "$out.tmp" | awk -v s="$1" '$4 == s { print $2 } END { print 0 }' | head -n 1)"; }
sk=$(sym avr_sk) pk=$(sym avr_pk) ex=$(sym GF_EXP) lg=$(sym GF_LOG) tab=$(sym gf_tab)
# the kernels' SRAM tables must start a page (avr/gf_tab.c)
if [ "$tab" != 0 ]; then
    at=$("$nm" "$out.tmp" | awk '$3 == "gf_tab" { print $1 }')
    case $at in
    *00) ;;
    *) echo "build-image.sh: gf_tab at 0x$at, not on a 256-byte page" >&2; rm -f "$out.tmp"; exit 1 ;;
    esac
fi
set -- $("$size" -A "$out.tmp" | awk '$1 == ".text" { t = $2 } $1 == ".data" { d = $2 }
    $1 == ".bss" { b = $2 } END { print t + 0, d + 0, b + 0 }')
text=$1 data=$2 bss=$3
flash=$((text + data))
code=$((flash - sk - pk - ex - lg - tab))
mv "$out.tmp" "$out"
printf '  AVR      %-18s %-10s flash %5d B (code %d, tables %d, sk %d, pk %d)  SRAM static %d B\n' \
    "$(basename "$out")" "$mcu" "$flash" "$code" $((ex + lg + tab)) "$sk" "$pk" $((data + bss))
