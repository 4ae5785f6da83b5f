#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's demonstration: the eight sets, a key, a signed file, a
# verified signature and a rejected forgery. Usage: demo.sh PATH-TO-tts
set -eu
tts=${1:-./tts}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

echo "== The eight TTS Challenge parameter sets (sizes in bytes)"
"$tts" params
echo
echo "== A TTS(20,28) key pair"
"$tts" keygen --params "TTS(20,28)" -o "$dir/alice"
ls -l "$dir/alice.pub" "$dir/alice.sec" | awk '{print "   ", $1, $5, $NF}' | sed "s|$dir/||"
echo
echo "== Sign a file and verify the signature"
printf 'Pay Bob 100 euros.\n' > "$dir/letter.txt"
"$tts" sign -k "$dir/alice.sec" -o "$dir/letter.sig" "$dir/letter.txt"
printf '    tts verify: '
"$tts" verify -p "$dir/alice.pub" -s "$dir/letter.sig" "$dir/letter.txt"
echo
echo "== A forgery: the same signature on an altered file must be rejected"
printf 'Pay Bob 900 euros.\n' > "$dir/forged.txt"
printf '    tts verify: '
if "$tts" verify -p "$dir/alice.pub" -s "$dir/letter.sig" "$dir/forged.txt"; then
    echo "demo: the forgery was accepted" >&2
    exit 1
fi
echo
echo "Demo done. $("$tts" --version | sed -n 2p)"
