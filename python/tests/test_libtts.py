# SPDX-License-Identifier: MIT
"""The Python binding against the C tools and the KATs, byte for byte.

Run by tests/test_python.sh with LIBTTS_LIBRARY (the built library), TTS
(the tts tool) and KAT (the folder of PQCsignKAT_*.rsp) in the environment.
"""
import os
import subprocess
import tempfile
import unittest

import libtts as t

TTS = os.environ["TTS"]
KAT = os.environ["KAT"]


def kat0(p):
    """The fields of entry 0 of the set's committed KAT file."""
    e = {}
    with open(os.path.join(KAT, "PQCsignKAT_%s.rsp" % p.id)) as f:
        for line in f:
            if line.startswith("count = 1"):
                break
            if " = " in line:
                k, v = line.strip().split(" = ")
                e[k] = v
    return {k: bytes.fromhex(v) for k, v in e.items() if k in ("seed", "msg", "pk", "sk", "sm")}


def tool(*args):
    return subprocess.run([TTS] + list(args), capture_output=True)


class Table(unittest.TestCase):
    def test_table(self):
        out = tool("params").stdout.decode().splitlines()[1:]
        ps = t.all_params()
        self.assertEqual(len(ps), 8)
        for line, p in zip(out, ps):
            f = line.split()
            self.assertEqual(f[0], p.name)
            self.assertEqual([int(x) for x in f[1:10]],
                             [p.m, p.n, p.v, p.a, p.b, p.coeffs, p.sk_bytes, p.pk_bytes, p.sig_bytes])
            self.assertEqual(p.id, "tts-%d-%d" % (p.m, p.n))
            self.assertEqual(t.params(p.id), p)
            self.assertEqual(t.params("%d,%d" % (p.m, p.n)), p)

    def test_errors(self):
        with self.assertRaises(ValueError):
            t.params("TTS(99,99)")
        p = t.params("TTS(16,22)")
        with self.assertRaises(ValueError) as c:
            t.sign(p, b"\0" * 3, b"m")
        self.assertIn("secret key", str(c.exception))
        with self.assertRaises(t.TTSError) as c:
            t.decode_file(b"TTS", t.PUBLIC_KEY)
        self.assertEqual(c.exception.code, -8)
        self.assertTrue(str(c.exception))
        # the one sentence, as the library's header has it (tts --version)
        self.assertEqual(t.BROKEN, tool("--version").stdout.decode().splitlines()[1])


class Kat(unittest.TestCase):
    def test_entry0_every_set(self):
        for p in t.all_params():
            with self.subTest(p.name):
                e = kat0(p)
                sig = e["sm"][len(e["msg"]):]
                self.assertTrue(t.verify(p, e["pk"], e["msg"], sig))
                self.assertFalse(t.verify(p, e["pk"], e["msg"] + b"x", sig))
                self.assertTrue(t.verify_digest(p, e["pk"], t.digest(p, e["msg"]), sig))
                t.sk_check(p, e["sk"])
                self.assertEqual(t.pk_from_sk(p, e["sk"]), e["pk"])
                self.assertEqual(t.pk_eval(p, e["pk"], sig), t.digest(p, e["msg"]))


class AgainstTheTool(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        os.chmod(self.d.name, 0o700)

    def tearDown(self):
        self.d.cleanup()

    def path(self, name):
        return os.path.join(self.d.name, name)

    def test_keygen_files_byte_for_byte(self):
        for name in ("TTS(16,22)", "TTS(20,28)", "TTS(36,50)"):
            p = t.params(name)
            seed = bytes(range(32))
            with open(os.path.join(self.d.name, "seed"), "wb") as f:
                f.write(seed)
            os.chmod(self.path("seed"), 0o600)
            r = tool("keygen", "--params", name, "--seed", self.path("seed"), "--force",
                     "-o", self.path("k"))
            self.assertEqual(r.returncode, 0, r.stderr)
            pk, sk = t.keypair(p, seed)
            with open(self.path("k.pub"), "rb") as f:
                self.assertEqual(f.read(), t.encode_file(t.PUBLIC_KEY, p, pk))
            with open(self.path("k.sec"), "rb") as f:
                self.assertEqual(f.read(), t.encode_file(t.SECRET_KEY, p, sk))
            r = tool("keygen", "--params", name, "--seed", self.path("seed"), "--force",
                     "--armor", "-o", self.path("a"))
            with open(self.path("a.pub"), "rb") as f:
                self.assertEqual(f.read(), t.encode_file(t.PUBLIC_KEY, p, pk, armor=True))
            with open(self.path("a.sec"), "rb") as f:
                q, back = t.decode_file(f.read(), t.SECRET_KEY)
                self.assertEqual((q, back), (p, sk))

    def test_signatures_cross(self):
        p = t.params("TTS(24,34)")
        pk, sk = t.keypair(p)
        msg = b"signed in Python, verified by tts"
        with open(self.path("m"), "wb") as f:
            f.write(msg)
        for name, kind, data in (("k.pub", t.PUBLIC_KEY, pk), ("k.sec", t.SECRET_KEY, sk),
                                 ("m.sig", t.SIGNATURE, t.sign(p, sk, msg))):
            with open(self.path(name), "wb") as f:
                f.write(t.encode_file(kind, p, data))
        os.chmod(self.path("k.sec"), 0o600)
        r = tool("verify", "-p", self.path("k.pub"), "-s", self.path("m.sig"), self.path("m"))
        self.assertEqual(r.returncode, 0, r.stderr)
        r = tool("sign", "-k", self.path("k.sec"), "-o", self.path("t.sig"), self.path("m"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("t.sig"), "rb") as f:
            q, sig = t.decode_file(f.read(), t.SIGNATURE)
        self.assertEqual(q, p)
        self.assertTrue(t.verify(p, pk, msg, sig))

    def test_sign_digest_reproducible(self):
        p = t.params("TTS(20,28)")
        pk, sk = t.keypair(p, b"\1" * 32)
        d = t.digest(p, b"x")
        s1 = t.sign_digest(p, sk, d, lambda n: b"\7" * n)
        s2 = t.sign_digest(p, sk, d, lambda n: b"\7" * n)
        self.assertEqual(s1, s2)
        self.assertTrue(t.verify_digest(p, pk, d, s1))


if __name__ == "__main__":
    unittest.main()
