#!/bin/sh
# SPDX-License-Identifier: MIT
# tts-card's files and messages, on the TTS(20,28) 256-byte image: the
# --eeprom state stored before any answer is released (a failed save is a
# failed session) and held by one session at a time (parallel wrong PINs
# and signatures take turns), a corrupted state file refused, --digest
# always hex (--digest-file for a file), -o - with the report on standard
# error and no binary on a terminal, the PIN prompt's terminal restored on
# a signal, a new PIN with a NUL byte refused, --cut digits only, a killed
# simulator and an unmet --watch reported as what they are.
. "${srcdir:-.}/tests/card_lib.sh"

P="--params 20-28"
pin() { printf '%s' "$1" > "$W/pin.$1" && chmod 600 "$W/pin.$1"; }
pin 2468 && pin 1111 && pin 2222 && pin 3333 && pin 4444 && pin 5555 && pin 6666
"$HELPER" kat "$KAT/PQCsignKAT_tts-20-28.rsp" 0 "$W/seed" "$W/kpk" "$W/ksk" || exit 99
D=$(rnd 20)

# a card with a key and the PIN 2468, in state file $1
fresh_card() {
    rm -f "$1"
    "$TTS_CARD" $P --pin "$W/pin.2468" --eeprom "$1" genkey --seed "$W/seed" > /dev/null 2>&1
}

# -- a failed save releases nothing ------------------------------------------
# (the simulator's wrapper swaps the state file for a folder while the card
# runs: the session's save then fails, as on a full disk)
cat > "$W/sab51" <<EOF
#!/bin/sh
n=\$(cat "$W/sab.n" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$W/sab.n"
[ "\$n" = 1 ] && mv "$W/ee" "$W/ee.kept" && mkdir "$W/ee"
exec ${S51:-s51} "\$@"
EOF
chmod 755 "$W/sab51"
sabotaged() { # the session of "$@" on the state file $W/ee, its save made to fail
    rm -rf "$W/ee" "$W/ee.kept" "$W/sab.n" && cp "$W/ee.orig" "$W/ee" && chmod 600 "$W/ee"
    TTS_S51="$W/sab51" "$TTS_CARD" $P --eeprom "$W/ee" "$@" > "$W/out" 2> "$W/err"
}
fresh_card "$W/ee"; say $? "a card with a key in a state file"
cp "$W/ee" "$W/ee.orig"
sabotaged --pin "$W/pin.1111" verify
st=$?
[ $st = 2 ] && ! grep -q '63C' "$W/out" "$W/err" && grep -q 'cannot store' "$W/err" &&
    cmp -s "$W/ee.kept" "$W/ee.orig"
say $? "a wrong PIN whose state cannot be saved: exit 2, no tries-left answer, the state file unchanged (exit $st)"
sabotaged --pin "$W/pin.2468" sign --digest "$D" -o "$W/lost.sig"
st=$?
[ $st = 2 ] && ! grep -q '^sig:' "$W/out" && [ ! -e "$W/lost.sig" ] && cmp -s "$W/ee.kept" "$W/ee.orig"
say $? "a signature whose counter cannot be saved: exit 2, neither shown nor written (exit $st)"
rm -rf "$W/ee" && mv "$W/ee.kept" "$W/ee"
"$TTS_CARD" $P --pin "$W/pin.2468" --eeprom "$W/ee" sign --digest "$D" > "$W/out" 2>&1 &&
    grep -q '^counter: 0$' "$W/out"
say $? "... and the next session signs with counter 0, the one never released"

# -- one session at a time on a state file -------------------------------------
fresh_card "$W/par"
for k in 1111 2222 3333 4444 5555 6666; do
    "$TTS_CARD" $P --pin "$W/pin.$k" --eeprom "$W/par" verify > "$W/par.$k" 2>&1 &
done
wait
tl=$(cat "$W"/par.[1-6]* | grep -o 'status 63C[0-9A-F]\|status 6983' | sort | tr '\n' ' ')
[ "$tl" = "status 63C0 status 63C1 status 63C2 status 6983 status 6983 status 6983 " ]
say $? "six parallel wrong PINs: 2, 1 and 0 tries left once each, then blocked (got: $tl)"
fresh_card "$W/par2"
for k in 1 2 3; do
    "$TTS_CARD" $P --pin "$W/pin.2468" --eeprom "$W/par2" sign --digest "$D" > "$W/sig.$k" 2>&1 &
done
wait
cs=$(cat "$W"/sig.[1-3] | sed -n 's/^counter: //p' | sort | tr '\n' ' ')
[ "$cs" = "0 1 2 " ] && sign_checks "$W/sig.1" 1 && sign_checks "$W/sig.2" 1
say $? "three parallel signatures: counters 0, 1 and 2, one each (got: $cs)"
grep -q 'in use by another tts-card session' "$W"/par.* "$W"/sig.*
say $? "... a session that waits says why"

# -- a corrupted state file ---------------------------------------------------
skb=$(wc -c < "$W/ksk")
fresh_card "$W/ee"
dd if="$W/ee" of="$W/host.sk" bs=1 skip=12 count="$skb" 2>/dev/null
"$HELPER" corrupt 20,28 "$W/host.sk" "$W/host.bad" s1 || exit 99
cp "$W/ee" "$W/bad.ee" &&
    dd if="$W/host.bad" of="$W/bad.ee" bs=1 seek=12 conv=notrunc 2>/dev/null
cp "$W/bad.ee" "$W/bad.orig"
"$TTS_CARD" $P --pin "$W/pin.2468" --eeprom "$W/bad.ee" sign --digest "$D" > "$W/out" 2>&1
st=$?
[ $st = 2 ] && grep -q 'corrupted' "$W/out" && ! grep -q '^sig:' "$W/out" &&
    cmp -s "$W/bad.ee" "$W/bad.orig"
say $? "a state file whose host copy of the key is malformed: refused as corrupted, exit 2 (exit $st)"
cp "$W/ee" "$W/flag.ee" && printf '\002' | dd of="$W/flag.ee" bs=1 seek=$((12 + skb)) conv=notrunc 2>/dev/null
"$TTS_CARD" $P --eeprom "$W/flag.ee" info > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'corrupted' "$W/out"
say $? "a state file with a staging flag out of range: refused as corrupted"
cp "$W/ee" "$W/flag.ee" && printf '\002' | dd of="$W/flag.ee" bs=1 seek=11 conv=notrunc 2>/dev/null
"$TTS_CARD" $P --eeprom "$W/flag.ee" info > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'corrupted' "$W/out"
say $? "a state file with its pending-install flag out of range: refused as corrupted"

# -- --digest is hex, --digest-file is a file ------------------------------------
echo "not a digest" > "$W/$D"
tc=$(cd "$(dirname "$TTS_CARD")" && pwd)/tts-card
id=$(cd "$TTS_CARD_DIR" && pwd)
kargs=$(withpk "$W/ksk")
(cd "$W" && TTS_CARD_DIR=$id "$tc" $P --pin "$W/pin.2468" put-key $kargs sign --digest "$D") \
    > "$W/out" 2>&1
[ $? = 0 ] && sign_checks "$W/out" 1
say $? "sign --digest HEX signs the hex even when a file of that name exists"
unhex "$D" > "$W/d.bin"
"$TTS_CARD" $P --pin "$W/pin.2468" put-key $(withpk "$W/ksk") sign --digest-file "$W/d.bin" > "$W/out" 2>&1
[ $? = 0 ] && sign_checks "$W/out" 1
say $? "sign --digest-file FILE reads the digest from the file"
"$TTS_CARD" $P --pin "$W/pin.2468" put-key $(withpk "$W/ksk") sign --digest "$W/d.bin" > "$W/out" 2>&1
[ $? = 2 ] && grep -q -- '--digest-file' "$W/out"
say $? "sign --digest FILE: refused, pointing to --digest-file"

# -- -o -: the object alone on standard output -----------------------------------
"$TTS_CARD" $P --pin "$W/pin.2468" put-key $(withpk "$W/ksk") sign --digest "$D" -o - \
    > "$W/so" 2> "$W/se"
[ $? = 0 ] && [ "$(wc -c < "$W/so")" = 36 ] && [ "$(head -c 4 "$W/so")" = TTSG ] &&
    grep -q '^sig:' "$W/se" && sign_checks "$W/se" 1
say $? "sign -o -: the signature file alone on standard output, the report on standard error"
"$TTS_CARD" $P --pin "$W/pin.2468" genkey --seed "$W/seed" export-pk -o - \
    > "$W/po" 2> "$W/pe"
[ $? = 0 ] && [ "$(wc -c < "$W/po")" = 8688 ] && grep -q '^export-pk:' "$W/pe"
say $? "export-pk -o -: the public key alone on standard output"
"$TTS_CARD" $P --pin "$W/pin.2468" put-key $(withpk "$W/ksk") sign --digest "$D" -o - sign --digest "$D" -o - \
    > /dev/null 2> "$W/err"
[ $? = 2 ] && grep -q 'one output at most' "$W/err"
say $? "two objects to standard output: refused"

# tty CMD...: CMD on a pseudo-terminal (standard input and output); its
# output in tty.out; with PIN_INT, SIGINT once it has prompted "PIN: ",
# and tty.echo says whether echo was on after it ended; with PIN_IGN the
# tool starts with SIGINT and SIGHUP ignored (as under nohup), and with
# PIN_TYPE that line is typed after the SIGINT
tty_run() {
    python3 - "$@" <<'PY'
import os, signal, sys, termios, time
m, s = os.openpty()
pid = os.fork()
if pid == 0:
    # the test's own start may have SIGINT ignored (a background job of a
    # shell, nohup): the tool is started as from a terminal, with it default
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN if os.environ.get("PIN_IGN") else signal.SIG_DFL)
    os.setsid()
    os.close(m)
    for fd in (0, 1, 2):
        os.dup2(s, fd)
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
deadline = time.time() + 60
sent = False
while time.time() < deadline:
    try:
        import select
        r, _, _ = select.select([m], [], [], 0.2)
        if r:
            d = os.read(m, 4096)
            if not d:
                break
            out += d
    except OSError:
        break
    if os.environ.get("PIN_INT") and not sent and b"PIN: " in out:
        time.sleep(0.2)
        os.kill(pid, signal.SIGINT)
        sent = True
        if os.environ.get("PIN_TYPE"):
            time.sleep(0.2)
            os.write(m, os.environ["PIN_TYPE"].encode() + b"\n")
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        break
else:
    os.kill(pid, signal.SIGKILL)
    _, st = os.waitpid(pid, 0)
open(os.environ["W"] + "/tty.out", "wb").write(out)
echo = termios.tcgetattr(s)[3] & termios.ECHO
open(os.environ["W"] + "/tty.echo", "w").write("on" if echo else "off")
ec = os.waitstatus_to_exitcode(st) if done else 99
sys.exit(128 - ec if ec < 0 else ec)
PY
}
export W
if python3 -c 'import os, pty, termios; os.waitstatus_to_exitcode' 2>/dev/null; then
    tty_run "$TTS_CARD" $P --pin "$W/pin.2468" put-key $(withpk "$W/ksk") sign --digest "$D" -o -
    st=$?
    [ $st = 2 ] && grep -q 'terminal' "$W/tty.out"
    say $? "sign -o - on a terminal: refused (exit $st)"
    PIN_INT=1 tty_run "$TTS_CARD" $P --pin - verify
    st=$?
    [ $st = 130 ] && [ "$(cat "$W/tty.echo")" = on ]
    say $? "SIGINT at the PIN prompt: the tool dies of it (exit $st) and the terminal echoes again"
    PIN_INT=1 PIN_IGN=1 PIN_TYPE=2468 tty_run "$TTS_CARD" $P --pin - verify
    st=$?
    # the line reaches the card: a fresh card has no PIN to verify (6985)
    [ $st = 1 ] && grep -q '6985' "$W/tty.out" && [ "$(cat "$W/tty.echo")" = on ]
    say $? "SIGINT at the PIN prompt of a tool started with it ignored: it stays ignored, the PIN typed after it goes to the card (exit $st)"
else
    say 0 "sign -o - on a terminal # SKIP python3 with pty and termios not found"
    say 0 "SIGINT at the PIN prompt # SKIP python3 with pty and termios not found"
fi

# -- a new PIN no terminal can type ----------------------------------------------
printf '12\0004' > "$W/pin.nul" && chmod 600 "$W/pin.nul"
"$TTS_CARD" $P --pin "$W/pin.nul" genkey --seed "$W/seed" > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'NUL' "$W/out" && ! grep -q '^genkey' "$W/out"
say $? "genkey with a PIN that holds a NUL byte: refused"

# -- options and the simulator's end -----------------------------------------------
"$TTS_CARD" $P --cut -5 info > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'bad --cut' "$W/out"
say $? "--cut -5: refused, not wrapped to a huge count"
cat > "$W/k9" <<EOF
#!/bin/sh
for a in "\$@"; do case \$a in *in=*) req=\${a#*in=}; req=\${req%%,*} ;; esac; done
[ "\$(wc -c <"\$req")" -lt 100 ] && exec ${S51:-s51} "\$@"
kill -9 \$\$
EOF
chmod 755 "$W/k9"
TTS_S51="$W/k9" "$TTS_CARD" $P --pin "$W/pin.2468" put-key $(withpk "$W/ksk") > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'killed by signal 9' "$W/out" && ! grep -q 'CPU time;' "$W/out"
say $? "a simulator killed from outside: reported as killed, not as the CPU budget"
TTS_CARD_TIMEOUT=2 "$TTS_CARD" $P --watch 0x7000:2 info > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'did not write XDATA 0x7000 2 times' "$W/out"
say $? "--watch of an address the card never writes: said so"
# (a wrong PIN's VERIFY writes the tries once; two asked: the one seen said)
fresh_card "$W/ee"
TTS_CARD_TIMEOUT=2 "$TTS_CARD" $P --eeprom "$W/ee" --pin "$W/pin.1111" --watch 0x302:2 verify \
    > "$W/out" 2>&1
[ $? = 2 ] && grep -q 'did not write XDATA 0x0302 2 times.* it saw 1: write 1 after [0-9]* instructions$' "$W/out"
say $? "--watch ADDR:2 with one write: the write it saw, with its instruction count"

echo "1..$t"
exit $fail
