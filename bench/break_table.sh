#!/bin/sh
# SPDX-License-Identifier: MIT
# The table of docs/SECURITY.md section 1.3: every set broken from a
# challenge instance issued with --discard-secret, on one thread and on
# two, each forgery checked by `tts-challenge verify` against the published
# key hash. Usage: bench/break_table.sh [SET...] (default: all eight), run
# from the build folder (TC=path/to/tts-challenge to choose another).
set -u
TC=${TC:-./tts-challenge}
sets=${*:-"tts-16-22 tts-20-26 tts-20-28 tts-24-32 tts-24-34 tts-28-38 tts-32-44 tts-36-50"}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' HUP INT TERM
"$TC" generate --params "$(echo $sets | tr ' ' ,)" --instances 1 --date 2026-12-05 \
    --discard-secret --out "$dir/ch" >/dev/null || exit 2
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([^\",}]*\).*/\1/p" "$2" | head -n 1; }
echo "# $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores;" \
    "$(${CC:-cc} --version 2>/dev/null | head -n 1)"
echo "| set | unknowns | solver | 1 thread (s) | 2 threads (s) | forgery |"
echo "|---|---|---|---|---|---|"
for s in $sets; do
    pin=$(field pk_sha256 "$dir/ch/$s/manifest.json")
    row="| $s"
    verdict=VALID
    for th in 1 2; do
        if ! "$TC" break "$dir/ch" --set "$s" --message 1 -o "$dir/out$th" --threads "$th" \
            --json "$dir/$s-$th.json" --quiet --force >/dev/null 2>"$dir/err"; then
            verdict="break failed: $(cat "$dir/err")"
            continue
        fi
        "$TC" verify "$dir/ch" "$dir/out$th/$s-msg-1.sig" --message 1 --pk-sha256 "$pin" \
            >/dev/null 2>&1 || verdict=INVALID
        [ "$th" = 1 ] && row="$row | $(field unknowns "$dir/$s-1.json") | $(field solver "$dir/$s-1.json")"
        row="$row | $(field total_seconds "$dir/$s-$th.json")"
    done
    echo "$row | $verdict |"
done
echo "# backend $(field backend "$dir/$(echo $sets | cut -d ' ' -f 1)-1.json")"
