# Shared by tests/test_card*.sh: locate the tools, skip (77) when the card
# build is absent, TAP-style reporting.
: "${srcdir:=.}" "${top_builddir:=.}"
CARD_DIR=$top_builddir/8051
TTS_CARD=$top_builddir/tts-card
HELPER=$top_builddir/tests/card_helper
KAT=$srcdir/kat
export TTS_CARD_DIR="$CARD_DIR"
if ! command -v "${S51:-s51}" >/dev/null 2>&1 || [ ! -x "$TTS_CARD" ] || [ ! -x "$HELPER" ] ||
   [ ! -f "$CARD_DIR/tts-20-28.ihx" ]; then
    echo "SKIP: the 8051 card build (sdcc, s51) is not configured"
    exit 77
fi
[ -n "${S51:-}" ] && export TTS_S51="$S51"
W=$(mktemp -d "${TMPDIR:-/tmp}/tts-card-test.XXXXXX") || exit 99
trap 'rm -rf "$W"' EXIT
fail=0
t=0
say() { t=$((t + 1)); if [ "$1" = 0 ]; then echo "ok $t - $2"; else echo "not ok $t - $2"; fail=1; fi; }
hex() { od -An -v -tx1 | tr -d ' \n'; }
# Test inputs from a seed (TTS_TEST_SEED, else a fresh one), printed in the
# log so that a failure can be replayed: rnd N gives N bytes of hex, the
# SHA-512 of "seed counter" in turn (the counter lives in a file, as rnd
# runs in subshells).
: "${TTS_TEST_SEED:=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')}"
echo "# inputs from TTS_TEST_SEED=$TTS_TEST_SEED"
echo 0 > "$W/rnd.ctr"
rnd() { # (its variables are prefixed: sh has no locals, callers use n and c)
    _rnd_n=$1 _rnd_out=""
    while [ ${#_rnd_out} -lt $((2 * _rnd_n)) ]; do
        _rnd_c=$(cat "$W/rnd.ctr"); echo $((_rnd_c + 1)) > "$W/rnd.ctr"
        _rnd_out="$_rnd_out$(printf '%s %s' "$TTS_TEST_SEED" "$_rnd_c" | sha512sum | cut -c1-128)"
    done
    printf '%s' "$_rnd_out" | cut -c1-$((2 * _rnd_n))
}
# sign_checks LOG N: N "equals ... verifies" lines and no mismatch
sign_checks() {
    [ "$(grep -c 'sign: equals the host.s signature .*, verifies' "$1")" -eq "$2" ] &&
        ! grep -q 'DIFFERS\|DOES NOT' "$1"
}
