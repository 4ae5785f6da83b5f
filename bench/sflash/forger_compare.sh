#!/bin/sh
# SPDX-License-Identifier: MIT
# Two builds of the SFLASH forger side by side, interleaved on the same
# keys (docs/SFLASH.md, "The forger's speed"):
#
#   forger_compare.sh A B SFLASH_TOOL [KEYS [FORGERIES]]
#
# A and B are two builds of bench/sflash/sflash-forger-time (say, before
# and after a change), SFLASH_TOOL is tests/sflash_tool. For i = 1 to KEYS
# (default 32) the SFLASH(26,37) key of seed byte i is made, then A and B
# each recover a key from it and make FORGERIES (default 2000) forgeries
# (hash, forge, check, every one verified afterwards), A first for odd i,
# B first for even i, so that a change of load falls on both. One row per
# key: the key recovery's CPU seconds and the CPU microseconds of one
# forgery under A and under B, and A/B; then the medians, and the median,
# least and greatest of the per-key ratios.
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "usage: forger_compare.sh A B SFLASH_TOOL [KEYS [FORGERIES]]" >&2
    exit 2
fi
A=$1 B=$2 ST=$3 KEYS=${4:-32} FORGERIES=${5:-2000}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT INT TERM
one() { # PROGRAM KEY: "recovery_s forge_us"
    "$1" "$2" "$FORGERIES" | sed 's/recovery_s=//; s/forge_us=//'
}
printf '%-4s %12s %12s %7s %12s %12s %7s\n' key "A rec. s" "B rec. s" A/B \
    "A forge us" "B forge us" A/B
i=1
while [ "$i" -le "$KEYS" ]; do
    "$ST" keygen "$i" "$dir/k.pub" || exit 2
    if [ $((i % 2)) = 1 ]; then
        a=$(one "$A" "$dir/k.pub") && b=$(one "$B" "$dir/k.pub") || exit 1
    else
        b=$(one "$B" "$dir/k.pub") && a=$(one "$A" "$dir/k.pub") || exit 1
    fi
    echo "$i $a $b" >>"$dir/rows"
    i=$((i + 1))
done
awk '
function median(v, n,   i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
    n++
    ar[n] = $2; af[n] = $3; br[n] = $4; bf[n] = $5
    rr[n] = $2 / $4; rf[n] = $3 / $5
    printf "%-4s %12.4f %12.4f %7.2f %12.2f %12.2f %7.2f\n", $1, $2, $4, rr[n], $3, $5, rf[n]
    if (n == 1 || rr[n] < rrmin) rrmin = rr[n]
    if (n == 1 || rr[n] > rrmax) rrmax = rr[n]
    if (n == 1 || rf[n] < rfmin) rfmin = rf[n]
    if (n == 1 || rf[n] > rfmax) rfmax = rf[n]
}
END {
    if (!n) exit 1
    printf "median %10.4f %12.4f %7.2f %12.2f %12.2f %7.2f\n", median(ar, n), median(br, n),
        median(ar, n) / median(br, n), median(af, n), median(bf, n), median(af, n) / median(bf, n)
    printf "key recovery A/B: median %.2f, %.2f to %.2f over %d keys\n", median(rr, n), rrmin, rrmax, n
    printf "forgery A/B: median %.2f, %.2f to %.2f over %d keys\n", median(rf, n), rfmin, rfmax, n
}' "$dir/rows"
