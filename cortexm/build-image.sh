#!/bin/sh
# SPDX-License-Identifier: MIT
# The Cortex-M3 image: build-image.sh SRCDIR TABLES M N OUT
# Builds avr/'s SIGN and VERIFY (their C twins) with cortexm/main.c for
# QEMU's lm3s6965evb with $ARM_GCC (arm-none-eabi-gcc), no C library, and
# prints its code (flash, with the GF(256) tables; the keys are loaded
# apart) and static RAM (with the 1 KB EEPROM array). That array is RAM,
# erased at every reset: each boot signs under the counters 0, 1, 2 again.
# A check of the code on a 32-bit core, not a device to sign with.
set -eu
srcdir=$1 tables=$2 m=$3 n=$4 out=$5
ARM_GCC=${ARM_GCC:-arm-none-eabi-gcc}
size=${ARM_GCC%gcc}size
mkdir -p "$(dirname "$out")"
"$ARM_GCC" -mcpu=cortex-m3 -mthumb -Os -std=gnu99 -Wall -Wextra -Werror \
    -ffreestanding -nostdlib -nostdinc -isystem "$("$ARM_GCC" -print-file-name=include)" \
    -ffunction-sections -fdata-sections -Wl,--gc-sections \
    -DTTS_M="$m" -DTTS_N="$n" -DAVR_C_KERNELS \
    -I"$srcdir/cortexm/shim" -I"$(dirname "$tables")" -I"$srcdir/avr" \
    -T"$srcdir/cortexm/cm.ld" -o "$out.tmp" \
    "$srcdir/cortexm/main.c" "$srcdir/avr/sign.c" "$srcdir/avr/verify.c" \
    "$srcdir/avr/chacha.c" "$srcdir/avr/nvm.c" -lgcc
set -- $("$size" -A "$out.tmp" | awk '$1 == ".text" { t = $2 } $1 == ".data" { d = $2 }
    $1 == ".bss" { b = $2 } END { print t + 0, d + 0, b + 0 }')
mv "$out.tmp" "$out"
printf '  CM3      %-18s code %d B (with the tables)  RAM static %d B (with the 1024 B EEPROM array, erased at every reset: a test build, its counter restarts at 0)\n' \
    "$(basename "$out")" $(($1 + $2)) $(($2 + $3))
