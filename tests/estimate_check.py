# SPDX-License-Identifier: MIT
"""Independent checks of `tts-challenge estimate` (docs/SECURITY.md).

Everything here is recomputed with plain Python integers from the formulas,
never from the tool's own output:

  estimate_check.py hybrid TC EST.json   D_reg and the direct hybrid attack
  estimate_check.py dreg-n1 TC           D_reg(n+1, n) = ceil((n+2)/2)
  estimate_check.py solver TC            the solver degree of `dreg`
  estimate_check.py structural EST.json  MinRank, HighRank, UOV, UOV-R, RBS,
                                         the key-only break, rectangular MinRank
"""
import json
import math
import subprocess
import sys


def series(eqs, nv):
    """Coefficients of (1-z^2)^eqs / (1-z)^nv up to z^(4 eqs + 7), by a
    direct power-series expansion (the tool sums binomials instead)."""
    size = 4 * eqs + 8
    s = [0] * size
    for i in range(eqs + 1):
        if 2 * i < size:
            s[2 * i] = (-1) ** i * math.comb(eqs, i)
    for _ in range(nv):  # divide by (1-z): prefix sums
        acc, out = 0, []
        for c in s:
            acc += c
            out.append(acc)
        s = out
    return s


def dreg(eqs, nv):
    """First non-positive coefficient of the series."""
    return next(d for d, c in enumerate(series(eqs, nv)) if c <= 0)


def solver_degree(eqs, nv):
    """F4's highest degree: D_reg if the coefficient there is negative,
    D_reg + 1 if it is zero."""
    d = dreg(eqs, nv)
    return d + 1 if series(eqs, nv)[d] == 0 else d


def tool_dreg(tc, eqs, nv):
    """(D_reg, solver degree) as `tts-challenge dreg` prints them."""
    out = subprocess.check_output([tc, "dreg", str(eqs), str(nv)]).split()
    if len(out) != 2:
        fail("dreg output", eqs, nv, out)
    return int(out[0]), int(out[1])


def hybrid(eqs, nv, omega):
    """(bits, k) of min over k of 2^(8k) C(nv-k+D, D)^omega."""
    nv = min(nv, eqs)
    best = None
    for k in range(nv):
        d = dreg(eqs, nv - k)
        c = math.comb(nv - k + d, d)
        bits = math.log2(2 ** (8 * k) * c ** 2) if omega == 2 \
            else 8 * k + omega * math.log2(c)
        if best is None or bits < best[0]:
            best = (bits, k)
    return best


def f(x):
    return "%.1f" % x


def fail(*what):
    print("# mismatch", *what)
    sys.exit(1)


def check_hybrid(tc, path):
    for m, nv in [(16, 15), (16, 14), (20, 19), (24, 20), (28, 25), (36, 34),
                  (36, 32), (10, 5), (30, 10)]:
        got = tool_dreg(tc, m, nv)[0]
        if got != dreg(m, nv):
            fail("dreg", m, nv, got, dreg(m, nv))
    est = json.load(open(path))
    if [s["set"] for s in est["sets"]] != ["TTS(16,22)", "TTS(36,50)"]:
        fail("sets", [s["set"] for s in est["sets"]])
    for s in est["sets"]:
        m = s["m"]
        for key, omega in (("hybrid_omega2", 2), ("hybrid_omega2.81", 2.81)):
            bits, k = hybrid(m, m, omega)
            if f(bits) != f(s[key]["bits"]) or k != s[key]["k"]:
                fail(s["set"], key, bits, k, s[key])
        if s["exhaustive_bits"] != 8 * m:
            fail(s["set"], "exhaustive", s["exhaustive_bits"])


def check_dreg_n1(tc):
    # Hilbert series (1+z)^(n+1) (1-z): Froberg's series, proved for n+1
    # forms by Stanley (Adv. Math. 28, 1978); coefficient
    # C(n+1,d) - C(n+1,d-1) is first <= 0 at d = ceil((n+2)/2).
    for n in range(2, 60):
        got = tool_dreg(tc, n + 1, n)[0]
        if got != (n + 3) // 2:
            fail("dreg", n + 1, n, got)


def check_solver(tc):
    # Both cases occur: (16, 16) has the series (1+z)^16, exactly 0 at
    # D_reg = 17 (solver degree 18); (16, 12) is negative at D_reg = 5.
    zero = neg = 0
    for eqs in range(1, 41):
        for nv in range(1, eqs + 1):
            d, sd = tool_dreg(tc, eqs, nv)
            want = solver_degree(eqs, nv)
            if (d, sd) != (dreg(eqs, nv), want):
                fail("solver degree", eqs, nv, d, sd, want)
            if sd == d + 1:
                zero += 1
            else:
                neg += 1
    if not zero or not neg:
        fail("solver degree cases", zero, neg)
    print("# solver degree: %d pairs D_reg + 1 (zero), %d pairs D_reg" % (zero, neg))


# Published secret-key sizes (TTS Challenge): a and b are derived from them
# (sk = m(m+1) + n(n+1) + C, C = (a+2)(v-1) + b(b+1), a + 2 + b = m), not
# read from the library's parameter table.
SK = {(16, 22): 879, (20, 26): 1254, (20, 28): 1399, (24, 32): 1864,
      (24, 34): 2039, (28, 38): 2594, (32, 44): 3444, (36, 50): 4414}


def check_structural(path):
    est = json.load(open(path))
    if len(est["sets"]) != 8:
        fail("sets", len(est["sets"]))
    q = 256
    for s in est["sets"]:
        m, n = s["m"], s["n"]
        v = n - m
        ab = [(a, m - 2 - a) for a in range(m - 1)
              if m * (m + 1) + n * (n + 1) + (a + 2) * (v - 1)
              + (m - 2 - a) * (m - 1 - a) == SK[(m, n)]]
        if len(ab) != 1:
            fail(s["set"], "layer sizes", ab)
        a, b = ab[0]
        # MinRank: groups (layer 1), (+mu1), (+mu2), (all) with their
        # supports; alternating polar forms: support - equations (not + 1)
        e = min((v - 1 + a) - a, (v - 1 + a) - (a + 1),
                (v + a) - (a + 2), n - m)
        if e != v - 2 or s["minrank"]["q_exponent"] != e:
            fail(s["set"], "MinRank exponent", e, s["minrank"])
        want = {
            "minrank": math.log2(q ** e * m * (3 * n * n - m * m) // 6),
            "highrank": math.log2(q ** b * n ** 3 // 6),
            "uov": math.log2(q ** (n - 2 * b - 1) * b ** 4),
        }
        for key, bits in want.items():
            if f(bits) != f(s[key]["bits"]):
                fail(s["set"], key, bits, s[key])
        for key, (eqs, nv) in (("uov_reconciliation", (m, n - b)),
                               ("band_separation", (n + m - 1, n))):
            for om, omega in (("omega2", 2), ("omega2.81", 2.81)):
                bits, k = hybrid(eqs, nv, omega)
                if f(bits) != f(s[key][om]["bits"]) or k != s[key][om]["k"]:
                    fail(s["set"], key, om, bits, k, s[key][om])
        # the key-only break and Beullens' rectangular MinRank: Support
        # Minors at degree 1, the fewest forms b + d whose equations (rows
        # C(b+d, d-1)) reach the unknowns (slice C(b+d, d)) less one;
        # Wiedemann: 2 N^2 (row weight + 1)
        for key, (slice_, nrows) in (("key_only_break", (v - 1, n - 1)),
                                     ("rectangular_minrank", (n - b - 1, n))):
            d = 1
            while nrows * math.comb(b + d, d - 1) < slice_ * math.comb(b + d, d) - 1:
                d += 1
            unk = slice_ * math.comb(b + d, d)
            weight = (b + 1) * slice_
            bits = math.log2(2 * unk * unk * (weight + 1))
            got = s[key]
            if (got["unknowns"] != unk or got["forms"] != b + d or got["row_weight"] != weight
                    or f(bits) != f(got["bits"])):
                fail(s["set"], key, unk, b + d, weight, bits, got)
        rows = [s["exhaustive_bits"], s["hybrid_omega2"]["bits"]] + \
            [s[key]["bits"] for key in want] + \
            [s["uov_reconciliation"]["omega2"]["bits"],
             s["band_separation"]["omega2"]["bits"],
             s["key_only_break"]["bits"], s["rectangular_minrank"]["bits"]]
        if s["best"]["bits"] != min(rows) or s["best"]["attack"] != "break":
            fail(s["set"], "best", s["best"], rows)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "hybrid":
        check_hybrid(sys.argv[2], sys.argv[3])
    elif cmd == "dreg-n1":
        check_dreg_n1(sys.argv[2])
    elif cmd == "solver":
        check_solver(sys.argv[2])
    elif cmd == "structural":
        check_structural(sys.argv[2])
    else:
        sys.exit("unknown check " + cmd)
