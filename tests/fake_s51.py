#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stand-in for s51 that answers like a broken card (tests/test_hostile.sh).

Called as tts-card calls s51 (-I if=xram[0xffff],in=REQ,out=RESP ...), it
answers every command of REQ: GET INFO correctly for TTS(20,28) (so the
image check passes), SIGN with FAKE_SIGN_LEN bytes, GET CYCLES with
FAKE_CYCLES_LEN bytes, GET COUNTER with 0, everything else with an empty
9000.
"""
import os
import re
import sys

args = " ".join(sys.argv[1:])
m = re.search(r"in=([^,\s]+),out=([^,\s]+)", args)
req, resp = m.group(1), m.group(2)
data = open(req, "rb").read()
out = bytearray()
i = 0
while i + 5 <= len(data):
    ins, lc = data[i + 1], data[i + 4]
    i += 5 + lc + 1
    if ins == 0xFE:
        break
    if ins == 0x10:
        body = bytes([20, 28, 8, 9, 9, 1, 12])
    elif ins == 0x40:
        body = bytes(int(os.environ.get("FAKE_SIGN_LEN", "28")))
    elif ins == 0x16:
        body = bytes(4)
    elif ins in (0x12, 0x14):
        body = b"\x01" * int(os.environ.get("FAKE_CYCLES_LEN", "4"))
    else:
        body = b""
    out += bytes([len(body)]) + body + b"\x90\x00"
open(resp, "wb").write(out)
sys.stdin.read()
print("Simulated 1000 ticks")
