#!/bin/sh
# SPDX-License-Identifier: MIT
# Build one card image and measure it.
#   build-image.sh SRCDIR GEN_TABLES_H M N OUT.ihx [extra sdcc flags]
# Environment: SDCC; KEEP_OBJ=1 keeps OUT.obj/ (the objects and their
# listings). Needs SDCC alone: the internal RAM an image reaches
# with its stack is measured in s51 by the tests (8051/probe-iram.sh).
# Writes OUT.ihx, OUT.map, OUT.sizes ("code N", "sign_code N" (defined
# below), "iram N" (the static part: data, arena, the stack's start),
# "xdata N", ...) and prints one line per image.
set -eu
srcdir=$1 tables=$2 m=$3 n=$4 out=$5
shift 5
SDCC=${SDCC:-sdcc}
base=${out%.ihx}
obj=$base.obj
rm -rf "$obj" && mkdir -p "$obj"
tdir=$(cd "$(dirname "$tables")" && pwd)
# -DCARD_128: the 128-byte internal RAM family: linked for 128 B, measured on
# ucsim's -t 8051, and the large model (C locals and parameters in XDATA:
# internal RAM keeps the registers, the few __data variables and the stack).
# -DCARD_ROM: the ROM-sized signing family (rom.c and the rolled kernels,
# small model, 128 B); with -DCARD_ROM_NO_CHECK, COMMIT KEY without its
# check of the key (a build that measures that check), with
# -DCARD_ROM_POINT_ONLY, its check points alone, without Gauss-Jordan on
# S1 and S3 (the 4 KB images: docs/CARD-IMAGES.md).
mods="main apdu io gf kernels k_matvec k_layer k_gauss k_lm k_pk chacha chacha_block key sign pk"
links="main apdu io kernels k_matvec k_layer chacha chacha_block sign gf k_gauss k_lm k_pk key pk"
case " $* " in
*CARD_128*) isize=128 cpu=8051 model=--model-large ;;
*CARD_ROM*) isize=128 cpu=8051 model=--model-small
    mods="rom rom_key kernels_rom rom_sign k_gauss chacha chacha_block" links=$mods ;;
*) isize=256 cpu=8032 model=--model-small ;;
esac
for f in $mods; do
    $SDCC -mmcs51 $model --std-sdcc11 --opt-code-speed -DTTS_M=$m -DTTS_N=$n "$@" \
        -I"$tdir" -I"$srcdir/8051" -c "$srcdir/8051/$f.c" -o "$obj/$f.rel" \
        >"$obj/$f.log" 2>&1 || { cat "$obj/$f.log" >&2; exit 1; }
done
# XDATA: the firmware's map (X_TOP from card.h) + the linker's XSEG
cat > "$obj/probe.c" <<PROBE
#include "card.h"
XTOP = X_TOP
XKEY = X_KEND - X_KS3
XNVS = NV_STATE_BYTES
XSTAGE = X_KS3 - X_WMAP
#ifdef CARD_ROM
XSIGN = 128 + SIGN_LAYER_BYTES + M + 256 + X_TERMS_BYTES
XGEN = 0
#if defined(CARD_ROM_NO_CHECK) || defined(CARD_ROM_POINT_ONLY)
XCOMMIT = 256 + X_TERMS_BYTES
#else
XCOMMIT = X_WEND - X_A3L + 256 + X_TERMS_BYTES
#endif
#else
XSIGN = 128 + SIGN_LAYER_BYTES + M
XGEN = 128 + X_WEND - X_A3L
XCOMMIT = X_WEND - X_A3L
#endif
XPK = X_WEND - X_A3L
XSOFF = XS_OFF
XV = V
XGFT = GFT_BYTES
#ifdef IA_END
XIAABS = IA_ABS
XIAEND = IA_END
#else
XIAABS = 0
XIAEND = 0
#endif
#ifdef CARD_ROM
XTERMS = X_TERMS
XTUW = T_UW_INIT
#endif
#if defined(ROM_LAYER_GE) && (defined(CARD_ROM_NO_CHECK) || defined(CARD_ROM_POINT_ONLY))
XNOGJ = 1
#else
XNOGJ = 0
#endif
#ifdef IA_ABS
XIATOP = IA_ABS + IA_SIZE
XIASTART = IA_ABS
#else
XIATOP = 0
XIASTART = 0
#endif
PROBE
cpp -P -D__code= -D__xdata= -D__idata= -D__data= -D'__at(x)=' -D__reentrant= \
    -DTTS_M=$m -DTTS_N=$n "$@" -I"$tdir" -I"$srcdir/8051" "$obj/probe.c" > "$obj/probe.i" 2>/dev/null
pv() { echo $(( $(sed -n "s/^$1 = //p" "$obj/probe.i") )); }
# (-DCARD_ROM_NO_CHECK: the ROM family without COMMIT KEY's check,
# -DCARD_ROM_POINT_ONLY: with its check points alone; where rs_solve
# solves the layers, nothing calls Gauss-Jordan)
[ "$(pv XNOGJ)" = 1 ] && links="rom rom_key kernels_rom rom_sign chacha chacha_block"
# GFT sits at 0x0100 (1023 bytes; the ROM family's 511); the relocatable
# code starts after it. The signing modules come first, so that their data
# bytes come first (the 128-byte family's SIGN stack starts after them:
# sign.c).
# (CARD_ROM: no C start-up; rom.c's area RVEC, the vectors, at 0, and the
# area RGAP of rom.c and kernels_rom.c in the gap between them and GFT)
gap= code0=0x0500
case " $* " in
*CARD_ROM*) gap="-Wl-bRVEC=0x0000 -Wl-bRGAP=0x0020" code0=$(printf 0x%04X $((0x0100 + $(pv XGFT)))) ;;
esac
# (-DCARD_ROM_FILL_GAP: RGAP right after the vectors, and more functions in
# it, the constants after it: a gap with no byte to spare, checked below;
# -DCARD_ROM_NEAR: RGAP right after the vectors, stream_wipe in it)
case " $* " in
*CARD_ROM_FILL_GAP*|*CARD_ROM_NEAR*) gap="-Wl-bRVEC=0x0000 -Wl-bRGAP=0x0018" ;;
esac
# an awk function: hex(s), the value of the upper-case hex digits s (the
# link map's addresses and lengths; mawk has no strtonum)
awk_hex='function hex(s,  i, v) { for (i = 1; i <= length(s); i++)
    v = v * 16 + index("0123456789ABCDEF", substr(s, i, 1)) - 1; return v }'
link() {
    $SDCC -mmcs51 $model --iram-size $isize --xram-loc 0xFF00 --xram-size 0x00FF \
        -Wl-bGSINIT0=$code0 $gap -o "$obj/img.ihx" $(for f in $links; do echo "$obj/$f.rel"; done) \
        >"$obj/link.log" 2>&1 || { cat "$obj/link.log" >&2; exit 1; }
    if grep -q -i -E 'error|warning' "$obj/link.log"; then cat "$obj/link.log" >&2; exit 1; fi
}
link
# (CARD_ROM: the code areas, GFT included, must not overlap: the areas
# placed by hand are RVEC and RGAP)
case " $* " in
*CARD_ROM*)
    gft=$(awk '$1 == "C:" && $3 == "_GFT" {print $2; exit}' "$obj/img.map")
    awk -v gft=$((0x$gft)) '/ bytes \(REL.*CODE\)/ && $3 != "00000000" && !seen[$1]++ {print $2, $3}
        END {printf "%08X %08X\n", gft, '"$(pv XGFT)"'}' "$obj/img.map" | sort |
    awk "$awk_hex"'{s = hex($1); if (NR > 1 && s < e) exit 1; e = s + hex($2) }' || {
        echo "build-image.sh: $out: code areas overlap (img.map)" >&2; exit 1; } ;;
esac
ia=$(awk '$2 == "_IA" {print $1; exit}' "$obj/img.map")
mapv() { awk -v s="$1" '$1 == "C:" && $3 == s {print $2; exit}' "$obj/img.map"; }
# an arena placed at IA_ABS (card.h): the data bytes end below it
dend=$(( 0x$(mapv s_OSEG) + 0x$(mapv l_OSEG) ))
[ $(( 0x$(mapv s_ISEG) + 0x$(mapv l_ISEG) )) -gt $dend ] && dend=$(( 0x$(mapv s_ISEG) + 0x$(mapv l_ISEG) ))
if [ "$(pv XIAABS)" -gt 0 ] && [ $dend -gt "$(pv XIAABS)" ]; then
    echo "build-image.sh: $out: the data bytes reach past the arena's start $(pv XIAABS)" >&2
    exit 1
fi
# CARD_128_ASM: SIGN's own stack runs from sign_sp up to the arena IA;
# its deepest chain is 16 bytes (sign_run, its 4 pushes around
# stream_byte, stream_byte, then Timer 0's 4 bytes before chacha_block
# holds the interrupts off; measured in s51 with a fill: TTS(20,28)
# reaches sign_sp + 16), so 20 bytes are asked for.
ssp=$(awk '$2 == "_sign_sp" {print $1; exit}' "$obj/img.map")
if [ -n "$ssp" ] && [ $((0x$ia - 0x$ssp - 1)) -lt 20 ]; then
    echo "build-image.sh: $out: SIGN stack 0x$ssp .. IA 0x$ia: fewer than 20 bytes" >&2
    exit 1
fi
# CARD_128_ASM: the set-up kernels run on the whole arena (kernels.c:
# ka_call), so the kernels' argument bytes (k_*, ka_sp) lie below IA.
if [ -n "$ssp" ]; then
    for a in $(awk '$3 ~ /^(kernels|k_)/ && $2 ~ /^_ka?_/ {print $1}' "$obj/img.map"); do
        [ $((0x$a)) -lt $((0x$ia)) ] || {
            echo "build-image.sh: $out: a kernel argument byte at 0x$a, in the arena IA" >&2; exit 1; }
    done
fi
# CARD_ROM: the stack runs from the linker's stack segment up to the arena
# IA at the top of the 128 bytes; its deepest chain is 19 bytes (the
# command (rom.c jumps to SIGN), stream_take_k with its push, cc_fill,
# chacha_block_prof with its two pushes, chacha_block with its two before
# it holds the interrupts off, and the Timer 0 interrupt's 4 bytes), 22
# where v does not divide 64 (stream_take_k's byte path: its two pushes
# and stream_byte before cc_fill); the peak of a run is measured in s51 by
# the tests (probe-iram.sh). CARD_ROM_4K: its rolled ChaCha20 rounds call
# their steps while the state is at 0x40..0x7F, so the chain into them
# stays below 0x40: the command, stream_take_k with its push, cc_fill,
# chacha_block with its two pushes and a step, 13 bytes (17 where v does
# not divide 64; 4 more with GET PROFILE's chacha_block_prof).
case " $* " in
*CARD_ROM*)
    ss=$((0x$(awk '/s_SSEG/ {print $2; exit}' "$obj/img.map")))
    need=19
    [ $(( 64 % $(pv XV) )) -eq 0 ] || need=22
    if [ $(( $(pv XIASTART) - ss )) -lt $need ]; then
        echo "build-image.sh: $out: stack $ss .. IA $(pv XIASTART): fewer than $need bytes" >&2
        exit 1
    fi
    case " $* " in
    *CARD_ROM_4K*)
        need=13
        [ $(( 64 % $(pv XV) )) -eq 0 ] || need=17
        case " $* " in *CARD_ROM_NO_PROFILE*) ;; *) need=$((need + 4)) ;; esac
        if [ $(( 0x40 - ss )) -lt $need ]; then
            echo "build-image.sh: $out: stack $ss .. the ChaCha20 state at 64: fewer than $need bytes" >&2
            exit 1
        fi ;;
    esac ;;
esac
cp "$obj/img.ihx" "$out"
cp "$obj/img.map" "$base.map"

# code: every CODE area of the map (tables included)
code=$(awk '/ bytes \(.*CODE\)/ && !seen[$1 $2]++ {s += $5} END {print s+0}' "$base.map")
# sign_code: the bytes of the SIGN path, a plain sum of object sizes: GFT
# (1023) + sign.c, chacha.c, chacha_block.c and the signing kernels, k_matvec.c and
# k_layer.c (CSEG + CONST: the copy, the matvecs, the layer build with its
# generated term code, the solver, or their C twins), and in a C-twin
# image gf.c (gmul, and the term table the twins read) and k_gauss.c (the
# twins' solver). Not counted: the command loop (main.c, apdu.c, io.c),
# which every command shares.
relsz() { # relsz FILE AREA: hex size of AREA in a .rel, in decimal
    awk -v a="$2" '$1 == "A" && $2 == a {print $4; exit}' "$1" | { read h || h=0; echo $((0x${h:-0})); }
}
objsz() { # objsz MODULE...: CSEG + CONST of the objects
    t=0
    for o in "$@"; do t=$((t + $(relsz "$obj/$o.rel" CSEG) + $(relsz "$obj/$o.rel" CONST))); done
    echo $t
}
# In the ROM family: GFT (511: exp alone) + kernels_rom.c and rom_sign.c
# (the signing kernels, the layer solver, SIGN's flow, the term records'
# writers, central_eval; CSEG + CONST: the run tables and the layer table;
# RGAP: the helpers in the gap below GFT) + chacha.c and chacha_block.c;
# the command layer (rom.c, rom_key.c) and COMMIT's Gauss-Jordan
# (k_gauss.c) are not counted.
case " $* " in
*CARD_ROM*)
    sign_code=$(($(pv XGFT) + $(objsz kernels_rom rom_sign chacha chacha_block) +
                 $(relsz "$obj/kernels_rom.rel" RGAP) + $(relsz "$obj/rom_sign.rel" RGAP))) ;;
*)
    twins=0 # (a C-twin image: no matvec_k)
    awk '$3 == "_matvec_k" {f = 1} END {exit !f}' "$obj/img.map" || twins=$(objsz gf k_gauss)
    sign_code=$(($(pv XGFT) + $(objsz sign chacha chacha_block k_matvec k_layer) + twins)) ;;
esac
xtop=$(pv XTOP)
xkey=$(pv XKEY)
# The memory budget (docs/CARD-IMAGES.md): non-volatile = the active key in its
# internal form (xkey: S3, S1, coefficients, s1, s3) + the PUT KEY staging
# copy and its bitmap (xstage); work = what each command uses beyond them,
# from card.h's map: ChaCha20's page (128); SIGN: the layer system and u;
# GENERATE, COMMIT and GET PK SEGMENT: the public-key cache (A3, A1, p_t c3,
# the per-i scalars) and the Gauss work that derives it, with c3 (X_A3L ..
# X_WEND; GENERATE builds the raw key in the staging area, counted there);
# in the ROM family SIGN and COMMIT also read LOGLO's page (256, X_LOGT)
# and the term records (X_TERMS);
# plus the linker's XSEG (globals; the arena IA in the 128-byte family);
# the command and response buffers (2 x 255) are counted apart (io).
xstage=$(pv XSTAGE)
xseg_d=$((0x$(awk '/^XSEG / {print $3; exit}' "$base.map")))
w_sign=$(( $(pv XSIGN) + xseg_d ))
w_gen=$(( $(pv XGEN) + xseg_d ))
w_commit=$(( $(pv XCOMMIT) + xseg_d ))
w_pk=$(( $(pv XPK) + xseg_d ))
case " $* " in *CARD_ROM*) w_gen=0 w_pk=0 ;; esac # (no GENERATE KEY, no GET PK SEGMENT)
xseg=$(awk '/^XSEG / {print $3; exit}' "$base.map")
xdata=$((xtop + 0x${xseg:-0}))
# (the 256-byte family with an arena at IA_ABS: main.c moves the stack to
# IA_END)
ssta=$((0x$(awk '/s_SSEG/ {print $2; exit}' "$base.map")))
[ "$(pv XIAEND)" -gt 0 ] && ssta=$(pv XIAEND)
# internal RAM, static: the data bytes, the arena, the stack's start
# (the peak with the stack: 8051/probe-iram.sh, in the tests)
iram=$ssta
[ "$(pv XIATOP)" -gt "$iram" ] && iram=$(pv XIATOP)
{
    echo "code $code"
    echo "sign_code $sign_code"
    echo "iram $iram"
    echo "xdata $xdata"
    echo "xdata_key $xkey"
    echo "stack_start $ssta"
    echo "xdata_stage $xstage"
    echo "xdata_nv_state $(pv XNVS)"
    echo "xdata_io 510"
    echo "work_sign $w_sign"
    echo "work_genkey $w_gen"
    echo "work_commit $w_commit"
    echo "work_pk $w_pk"
    case " $* " in *CARD_ROM*)
        echo "arena_start $(pv XIASTART)"
        # the last code byte (the 8051AH's on-chip ROM ends at 0x0FFF)
        awk "$awk_hex"'/ bytes \(.*CODE\)/ {s = hex($2); l = hex($3); if (l && s + l - 1 > e) e = s + l - 1}
            END {printf "code_end 0x%04X\n", e}' "$base.map"
        # the term records' first two bytes as gen_card.c lists them
        # (T_UW_INIT), the tests' reference for the card's own (X_TERMS)
        echo "x_terms $(pv XTERMS)"
        printf 't_uw '
        sed -n 's/^XTUW = { *//p' "$obj/probe.i" | tr -d '}' | tr ',' '\n' |
            while read -r e; do printf '%02x' $(( $e )); done
        echo ;;
    esac
} > "$base.sizes"
if [ "$iram" -gt "$isize" ]; then
    echo "build-image.sh: $(basename "$out"): internal RAM $iram B: past the part's $isize B" >&2
    rm -f "$out"
    exit 1
fi
printf '  CARD     %-18s code %5d B (sign %4d B)  internal RAM %3d B (static)  XDATA %5d B (key %d)\n' \
    "$(basename "$out")" "$code" "$sign_code" "$iram" "$xdata" "$xkey"
printf '  CARD     %-18s budget: NV key %d + PUT staging %d + state %d B; XRAM work SIGN %d, GENERATE %d, COMMIT %d, PK SEGMENT %d B (+ 510 B I/O)\n' \
    "$(basename "$out")" "$xkey" "$xstage" "$(pv XNVS)" "$w_sign" "$w_gen" "$w_commit" "$w_pk"
[ -n "${KEEP_OBJ:-}" ] || rm -rf "$obj"
