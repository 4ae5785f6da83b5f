# SPDX-License-Identifier: MIT
# Shared by the shell test scripts (sourced, like card_lib.sh): TAP-style
# lines "ok N - ..." / "not ok N - ...", a private working folder, and the
# helpers every script uses. The script ends with tap_end.
#
#   tap_abs VAR...    make each named path variable absolute (before tap_enter)
#   tap_enter         create the working folder, remove it on exit, cd there
#   pass / flunk DESC, skip DESC WHY, check STATUS DESC (err shown on failure)
#   diag FILE...      the files as TAP comments
#   run RC DESC CMD...  CMD must exit RC (stdout in out, stderr in err)
#   sig_at SIG CALL N CMD...  CMD run under strace, signal SIG delivered as
#                     its N-th system call CALL returns; exit status in sigrc
#   signum SIG        the number of SIG (INT, TERM, HUP, KILL)
#   poke FILE OFFSET OCTAL  overwrite one byte; byte FILE OFFSET its value;
#   flip FILE OFFSET  change one byte to another value (whatever it was)
#   tty_run CMD...    CMD with a pseudo-terminal as its standard output
#                     (python3's pty): its status, its output in tty.out
#   tty_refused DESC CMD...  CMD on a terminal refuses binary output: exit 2,
#                     "terminal" said, no attack started (skipped without pty)

tap_abs() {
    for v in "$@"; do
        eval "p=\$$v"
        case $p in /*) ;; *) eval "$v=\$(pwd)/\$p" ;; esac
    done
}

. "${srcdir:-.}/tests/realbin.sh"

tap_enter() {
    dir=$(mktemp -d) || exit 99
    trap 'rm -rf "$dir"' EXIT
    trap 'exit 1' HUP INT TERM
    cd "$dir" || exit 99
}

poke() { printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
byte() { od -An -tu1 -j"$2" -N1 "$1" | tr -d ' '; }
flip() { if [ "$(byte "$1" "$2")" = 0 ]; then poke "$1" "$2" 001; else poke "$1" "$2" 000; fi; }

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

# Deterministic, no sleeps: the signal comes at a chosen system call.
# SIGINT and SIGHUP are set to their default first (a background job of sh
# starts with SIGINT ignored, and a tool keeps a signal it was given
# ignored). Without -f only CMD is traced, not the programs it starts.
sig_at() {
    sig=$1 call=$2 n=$3
    shift 3
    timeout 120 python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' strace -qq -o sig.trace -e trace="$call" \
        -e inject="$call:signal=SIG$sig:when=$n" "$@" >sig.out 2>sig.err
    sigrc=$?
}

signum() {
    case $1 in INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; KILL) echo 9 ;; esac
}

# gone PATTERN: within 5 s no process has PATTERN in its command line
# (those left are then killed, by their ids, so that a failed test leaves
# nothing running either)
gone() {
    i=0
    while [ $i -lt 100 ] && pgrep -f -- "$1" >/dev/null 2>&1; do
        sleep 0.05
        i=$((i + 1))
    done
    left=$(pgrep -f -- "$1")
    [ -n "$left" ] && kill -9 $left 2>/dev/null
    [ -z "$left" ]
}

tap_end() {
    echo "1..$t"
    exit $fail
}

tty_run() {
    python3 - "$@" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
open("tty.out", "wb").write(out)
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
PY
}

tty_refused() {
    desc=$1
    shift
    if ! python3 -c 'import os, pty; os.waitstatus_to_exitcode' 2>/dev/null; then
        skip "$desc" "python3 with pty not found"
        return
    fi
    tty_run "$@"
    st=$?
    [ "$st" = 2 ] && grep -q "terminal" tty.out && ! grep -q "breaking" tty.out
    check $? "$desc (exit $st)"
}
