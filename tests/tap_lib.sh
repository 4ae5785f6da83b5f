# Shared by the shell test scripts (sourced, like card_lib.sh): TAP-style
# lines "ok N - ..." / "not ok N - ...", a private working folder, and the
# helpers every script uses. The script ends with tap_end.
#
#   tap_abs VAR...    make each named path variable absolute (before tap_enter)
#   tap_enter         create the working folder, remove it on exit, cd there
#   pass / flunk DESC, skip DESC WHY, check STATUS DESC (err shown on failure)
#   diag FILE...      the files as TAP comments
#   run RC DESC CMD...  CMD must exit RC (stdout in out, stderr in err)

tap_abs() {
    for v in "$@"; do
        eval "p=\$$v"
        case $p in /*) ;; *) eval "$v=\$(pwd)/\$p" ;; esac
    done
}

tap_enter() {
    dir=$(mktemp -d) || exit 99
    trap 'rm -rf "$dir"' EXIT
    trap 'exit 1' HUP INT TERM
    cd "$dir" || exit 99
}

t=0
fail=0
pass() { t=$((t + 1)); echo "ok $t - $1"; }
flunk() { t=$((t + 1)); echo "not ok $t - $1"; fail=1; }
skip() { t=$((t + 1)); echo "ok $t - $1 # SKIP $2"; }
diag() { sed 's/^/#   /' "$@" 2>/dev/null; }
check() { if [ "$1" = 0 ]; then pass "$2"; else flunk "$2"; diag err; fi; }

run() {
    want=$1 desc=$2
    shift 2
    "$@" >out 2>err
    got=$?
    if [ "$got" = "$want" ]; then pass "$desc"; else
        flunk "$desc (exit $got, expected $want)"
        diag out err
    fi
}

tap_end() {
    echo "1..$t"
    exit $fail
}
