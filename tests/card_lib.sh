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
rnd() { head -c "$1" /dev/urandom | hex; }
# sign_checks LOG N: N "equals ... verifies" lines and no mismatch
sign_checks() {
    [ "$(grep -c 'sign: equals the host.s signature .*, verifies' "$1")" -eq "$2" ] &&
        ! grep -q 'DIFFERS\|DOES NOT' "$1"
}
