#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent checks of tts-challenge export, toy and calibrate.

Its own GF(2^8) arithmetic (0x11B for libtts bytes, 0x11D for the files),
its own isomorphism (found here from the minimal polynomial, not read from
the C tables), and its own parsers of the four formats.

  lab_check.py eval FILE FORMAT SIGFILE   every equation is 0 at the signature
  lab_check.py reduced FULL PART FORMAT   PART is FULL with the fixed values
                                          of PART's header substituted
  lab_check.py singular-at FILE SIGFILE   Singular lines mapping I at SIGFILE
  lab_check.py toy FULL.mq JSON           the toy's w satisfies its equations
  lab_check.py fit CSV JSON               the fit recomputed from the CSV
"""
import json
import math
import re
import sys


def mul(x, y, poly):
    r = 0
    while y:
        if y & 1:
            r ^= x
        y >>= 1
        x <<= 1
        if x & 0x100:
            x ^= poly
    return r


def power(x, e, poly):
    r = 1
    for _ in range(e):
        r = mul(r, x, poly)
    return r


# a^e in GF(2)[a]/0x11D, a = 0x02
EXP = [power(2, e, 0x11D) for e in range(255)]
assert len(set(EXP)) == 255, "0x02 generates GF(2)[a]/0x11D"


def find_phi():
    """The images of t: roots of t^8+t^4+t^3+t+1 among 0x11D bytes; the
    exporter's choice is documented as a^25, which must be one of them."""
    roots = [e for e in range(255)
             if power(EXP[e], 8, 0x11D) ^ power(EXP[e], 4, 0x11D)
             ^ power(EXP[e], 3, 0x11D) ^ EXP[e] ^ 1 == 0]
    assert 25 in roots, roots
    img = [power(EXP[25], i, 0x11D) for i in range(8)]
    phi = []
    for b in range(256):
        y = 0
        for i in range(8):
            if b >> i & 1:
                y ^= img[i]
        phi.append(y)
    for x in range(256):
        for y in range(0, 256, 7):
            assert phi[mul(x, y, 0x11B)] == mul(phi[x], phi[y], 0x11D)
    return phi


PHI = find_phi()
PHI_INV = [0] * 256
for b, y in enumerate(PHI):
    PHI_INV[y] = b


def fail(msg):
    print("lab_check: " + msg, file=sys.stderr)
    sys.exit(1)


# ---- parsing: a system is a list of dicts {monomial: 0x11D byte}, with a
# monomial a sorted tuple of variable indices (w_i) ----

def header(text):
    """The facts of the header comment: fixed values, table, equations."""
    fixed = {}
    for v, b in re.findall(r"\bw(\d+)=([0-9a-f]{2})\b", text):
        fixed[int(v)] = int(b, 16)
    table = []
    for line in text.splitlines():
        m = re.match(r"^(?://|#)  ((?: [0-9a-f]{2}){16})$", line)
        if m:
            table += [int(x, 16) for x in m.group(1).split()]
    if table != PHI_INV:
        fail("the header's inverse table differs from the isomorphism")
    m = re.search(r"for k = ([0-9,]+) \(", text)
    eqs = [int(x) for x in m.group(1).split(",")]
    return fixed, eqs


def parse_cas(text, fmt):
    body = "\n".join(l for l in text.splitlines()
                     if not l.startswith("//") and not l.startswith("#"))
    pats = {"singular": r"ideal I =(.*?);",
            "magma": r"ideal<R \|(.*?)>;",
            "sage": r"R\.ideal\(\[(.*?)\]\)"}
    m = re.search(pats[fmt], body, re.S)
    if not m:
        fail("no ideal in the %s file" % fmt)
    pw = "**" if fmt == "sage" else "^"
    system = []
    for p in m.group(1).split(","):
        p = "".join(p.split())
        poly = {}
        for term in p.split("+"):
            coef, mono = 1, []
            for f in re.split(r"(?<!\*)\*(?!\*)", term):
                base, _, e = f.partition(pw)
                e = int(e) if e else 1
                if base == "a":
                    coef = mul(coef, EXP[e % 255], 0x11D)
                elif base == "1":
                    pass
                elif base == "0":
                    coef = 0
                elif re.fullmatch(r"w\d+", base):
                    mono += [int(base[1:])] * e
                else:
                    fail("unknown factor %r" % f)
            if len(mono) > 2:
                fail("degree above 2: %r" % term)
            key = tuple(sorted(mono))
            poly[key] = poly.get(key, 0) ^ coef
        system.append({k: c for k, c in poly.items() if c})
    return system


def parse_mq(text):
    lines = [l for l in text.splitlines() if not l.startswith("#")]
    if not lines[0].startswith("Galois Field : GF(2)[x] / x^8 + x^4 + x^3 + x^2 + 1"):
        fail("mq: field line")
    nv = int(re.search(r"Number of variables \(n\) : (\d+)", text).group(1))
    ne = int(re.search(r"Number of equations \(m\) : (\d+)", text).group(1))
    star = lines.index("*********************")
    rows = [l for l in lines[star + 1:] if l.strip()]
    if len(rows) != ne:
        fail("mq: %d rows for %d equations" % (len(rows), ne))
    # the variables, in order, from the header's unknowns and fixed names
    fixed, _ = header(text)
    n = int(re.search(r"unknowns: \d+ of the (\d+) signature bytes",
                      text).group(1))
    names = [i for i in range(n) if i not in fixed]
    if len(names) != nv:
        fail("mq: %d unknowns named, %d declared" % (len(names), nv))
    monos = [(names[i], names[j]) for j in range(nv) for i in range(j + 1)]
    monos += [(names[i],) for i in range(nv)] + [()]
    system = []
    for r in rows:
        if not r.endswith(" ;"):
            fail("mq: row without ' ;'")
        cs = [int(x, 16) for x in r[:-2].split()]
        if len(cs) != len(monos):
            fail("mq: %d coefficients, expected %d" % (len(cs), len(monos)))
        system.append({tuple(sorted(mo)): c for mo, c in zip(monos, cs) if c})
    return system


def parse(path, fmt):
    text = open(path).read()
    header(text)
    return text, (parse_mq(text) if fmt == "mq" else parse_cas(text, fmt))


def evaluate(poly, w):
    """poly at w (libtts bytes, indexed by variable), in 0x11D."""
    acc = 0
    for mono, c in poly.items():
        for i in mono:
            c = mul(c, PHI[w[i]], 0x11D)
        acc ^= c
    return acc


def substitute(poly, fixed):
    out = {}
    for mono, c in poly.items():
        rest = []
        for i in mono:
            if i in fixed:
                c = mul(c, PHI[fixed[i]], 0x11D)
            else:
                rest.append(i)
        key = tuple(rest)
        out[key] = out.get(key, 0) ^ c
    return {k: c for k, c in out.items() if c}


def main(argv):
    cmd = argv[1]
    if cmd == "eval":
        _, system = parse(argv[2], argv[3])
        w = list(open(argv[4], "rb").read())
        bad = [k for k, p in enumerate(system) if evaluate(p, w)]
        if bad or not system:
            fail("equations %s are not 0 at the signature" % bad)
    elif cmd == "reduced":
        _, full = parse(argv[2], argv[4])
        text, part = parse(argv[3], argv[4])
        fixed, eqs = header(text)
        if not fixed:
            fail("no fixed values in the header")
        for e, k in enumerate(eqs):
            if substitute(full[k], fixed) != part[e]:
                fail("equation %d differs from the substituted full one" % k)
    elif cmd == "singular-at":
        # a Singular script mapping the ring's w<i> to the signature bytes
        text = open(argv[2]).read()
        names = re.search(r"ring r = \(2\^8,a\),\((.*?)\),dp;", text).group(1)
        w = list(open(argv[3], "rb").read())
        vals = []
        for v in names.split(","):
            y = PHI[w[int(v[1:])]]
            vals.append("0" if y == 0 else "a^%d" % EXP.index(y))
        print("map tts_at = r, %s;\nideal tts_v = tts_at(I);\n"
              "\"zeros \" + string(size(tts_v) == 0);\n"
              "\"count \" + string(ncols(I));\nquit;" % ",".join(vals))
    elif cmd == "toy":
        _, full = parse(argv[2], "mq")
        j = json.load(open(argv[3]))
        w = list(bytes.fromhex(j["w"]))
        if len(w) != 22 or not j["equations"]:
            fail("toy: w or equations missing")
        bad = [k for k in j["equations"] if evaluate(full[k], w)]
        if bad:
            fail("toy: w fails equations %s" % bad)
        other = [k for k in range(len(full)) if k not in j["equations"]
                 and evaluate(full[k], w)]
        print("toy: w satisfies the %d kept equations (and %d of the %d "
              "others)" % (len(j["equations"]),
                           len(full) - len(j["equations"]) - len(other),
                           len(full) - len(j["equations"])))
    elif cmd == "fit":
        rows = [r.split(",") for r in open(argv[2]).read().split("\n")[1:]
                if r]
        j = json.load(open(argv[3]))
        pts = [(float(r[8]), math.log2(float(r[7]))) for r in rows
               if r[9] == "1"]
        if len(pts) != j["fit"]["points"] or len(rows) != j["run"]:
            fail("fit: the CSV and the JSON disagree on the points")
        if len(pts) >= 3:
            n = len(pts)
            sx = sum(x for x, _ in pts)
            sy = sum(y for _, y in pts)
            sxx = sum(x * x for x, _ in pts)
            sxy = sum(x * y for x, y in pts)
            den = n * sxx - sx * sx
            slope = (n * sxy - sx * sy) / den
            icpt = (sy - slope * sx) / n
            # the files hold seconds to 3 decimals and model bits to 2: the
            # fit of the unrounded values may differ from this one by what
            # that rounding can move it (slope and intercept are linear in
            # the y_i; an x error counts as slope * 0.005 in y)
            tol_s = tol_i = 1e-9
            for x, y in pts:
                sec = 2.0 ** y
                dy = (math.log2(sec + 0.0005) - math.log2(max(sec - 0.0005,
                                                              1e-12))) / 2
                dy += abs(slope) * 0.005
                a = (n * x - sx) / den          # d slope / d y_i
                b = 1.0 / n - a * sx / n        # d intercept / d y_i
                tol_s += abs(a) * dy
                tol_i += abs(b) * dy
            if abs(slope - j["fit"]["slope"]) > tol_s or \
                    abs(icpt - j["fit"]["intercept"]) > tol_i:
                fail("fit: slope %.4f intercept %.4f (rounding allows %.4f, "
                     "%.4f), the JSON says %s" % (slope, icpt, tol_s, tol_i,
                                                 j["fit"]))
        for r in rows:
            if int(r[3]) not in (int(r[2]), int(r[2]) + 1):
                fail("fit: predicted solver degree not D_reg or D_reg + 1")
    else:
        fail("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
