# SPDX-License-Identifier: MIT
"""The binding as Python code expects it: bytes counted as bytes, the
built-in exceptions for wrong types and lengths, a verdict (never an
exception) for a signature or key of the wrong length, and a package that
describes itself (version from the library, type hints, docstrings).

Run by tests/test_python.sh with LIBTTS_LIBRARY (the built library) and
SRCDIR (the source tree: include/tts.h, LICENSE, python/) in the
environment. The expected values come from hashlib and from the C header,
not from the binding.
"""
import ast
import ctypes
import hashlib
import inspect
import os
import re
import subprocess
import sys
import typing
import unittest
from array import array

import libtts as t

SRCDIR = os.environ["SRCDIR"]


def header(name):
    with open(os.path.join(SRCDIR, "include", name)) as f:
        return f.read()


class Messages(unittest.TestCase):
    """A message is the bytes of a bytes-like object, however it counts items."""

    def setUp(self):
        self.p = t.params("TTS(20,28)")
        self.pk, self.sk = t.keypair(self.p, bytes(range(32)))

    def test_items_are_not_bytes(self):
        p, pk, sk = self.p, self.pk, self.sk
        sig = t.sign(p, sk, array("I", [1, 2]))
        try:
            self.assertFalse(t.verify(p, pk, array("I", [1, 999999]), sig))
        except TypeError:
            pass
        # what was signed is the 8 bytes of the array, all of them
        a = array("I", [1, 2])
        if t.verify(p, pk, bytes(a), sig) is not True:
            self.fail("the signature of array('I', [1, 2]) is not one of its %d bytes" % len(bytes(a)))
        self.assertFalse(t.verify(p, pk, bytes(a)[:4], sig))

    def test_digest_of_the_bytes(self):
        p = self.p
        for msg in (array("I", [1, 2]), array("d", [0.5] * 3), memoryview(b"abcdef")[::2],
                    bytearray(b"xyz"), b""):
            with self.subTest(repr(msg)):
                want = hashlib.sha512(memoryview(msg).tobytes()).digest()[:p.digest_bytes]
                self.assertEqual(t.digest(p, msg), want)

    def test_not_bytes(self):
        p, pk, sk = self.p, self.pk, self.sk
        sig = t.sign(p, sk, b"m")
        for msg in ("m", 5, [109], None, 1.5):
            with self.subTest(repr(msg)):
                with self.assertRaises(TypeError):
                    t.sign(p, sk, msg)
                with self.assertRaises(TypeError):
                    t.verify(p, pk, msg, sig)
                with self.assertRaises(TypeError):
                    t.digest(p, msg)


class Verdicts(unittest.TestCase):
    """verify and verify_digest: False for any length, TypeError for a type."""

    def test_wrong_lengths_are_false(self):
        p = t.params("TTS(16,22)")
        pk, sk = t.keypair(p, b"\5" * 32)
        sig = t.sign(p, sk, b"m")
        d = t.digest(p, b"m")
        self.assertTrue(t.verify(p, pk, b"m", sig))
        for bad_sig, bad_pk in ((sig[:-1], pk), (sig + b"\0", pk), (b"", pk),
                                (sig, pk[:-1]), (sig, pk + b"\0"), (sig, b"")):
            with self.subTest("%d-byte sig, %d-byte pk" % (len(bad_sig), len(bad_pk))):
                self.assertIs(t.verify(p, bad_pk, b"m", bad_sig), False)
                self.assertIs(t.verify_digest(p, bad_pk, d, bad_sig), False)

    def test_wrong_types_raise(self):
        p = t.params("TTS(16,22)")
        pk, sk = t.keypair(p, b"\5" * 32)
        sig = t.sign(p, sk, b"m")
        for bad in ("x" * p.sig_bytes, p.sig_bytes, None):
            with self.subTest(repr(bad)[:20]):
                with self.assertRaises(TypeError):
                    t.verify(p, pk, b"m", bad)
                with self.assertRaises(TypeError):
                    t.verify(p, bad, b"m", sig)
                with self.assertRaises(TypeError):
                    t.verify_digest(p, pk, t.digest(p, b"m"), bad)
        with self.assertRaises(TypeError):
            t.verify("TTS(16,22)", pk, b"m", sig)


class Errors(unittest.TestCase):
    """ValueError for a wrong length or value, TypeError for a wrong type."""

    def test_params(self):
        with self.assertRaises(TypeError):
            t.params(b"TTS(20,28)")
        with self.assertRaises(TypeError):
            t.params(20)
        with self.assertRaises(ValueError) as c:
            t.params("TTS(99,99)")
        self.assertIn("TTS(99,99)", str(c.exception))

    def test_lengths(self):
        p = t.params("TTS(16,22)")
        pk, sk = t.keypair(p, b"\5" * 32)
        d = t.digest(p, b"m")
        cases = {
            "sign, short sk": lambda: t.sign(p, sk[:-1], b"m"),
            "sign_digest, short sk": lambda: t.sign_digest(p, sk[:3], d, os.urandom),
            "sign_digest, long digest": lambda: t.sign_digest(p, sk, d + b"\0", os.urandom),
            "sign_digest, rng short": lambda: t.sign_digest(p, sk, d, lambda n: b"\0"),
            "keypair, 31-byte seed": lambda: t.keypair(p, b"\0" * 31),
            "verify_digest, short digest": lambda: t.verify_digest(p, pk, d[:-1], b"\0" * p.sig_bytes),
            "pk_eval, short point": lambda: t.pk_eval(p, pk, b"\0" * (p.n - 1)),
            "pk_eval, short pk": lambda: t.pk_eval(p, pk[:-1], b"\0" * p.n),
            "sk_check, long sk": lambda: t.sk_check(p, sk + b"\0"),
            "pk_from_sk, short sk": lambda: t.pk_from_sk(p, sk[:-1]),
            "encode_file, short payload": lambda: t.encode_file(t.PUBLIC_KEY, p, pk[:-1]),
            "encode_file, unknown kind": lambda: t.encode_file(ord("X"), p, pk),
            "decode_file, unknown kind": lambda: t.decode_file(t.encode_file(t.PUBLIC_KEY, p, pk),
                                                              ord("X")),
        }
        for what, call in cases.items():
            with self.subTest(what):
                with self.assertRaises(ValueError):
                    call()

    def test_types(self):
        p = t.params("TTS(16,22)")
        pk, sk = t.keypair(p, b"\5" * 32)
        cases = {
            "sign, str sk": lambda: t.sign(p, "s" * p.sk_bytes, b"m"),
            "keypair, int seed": lambda: t.keypair(p, 32),
            "keypair, a name": lambda: t.keypair("TTS(16,22)"),
            "digest, a name": lambda: t.digest("TTS(16,22)", b"m"),
            "encode_file, str kind": lambda: t.encode_file("P", p, pk),
            "decode_file, str data": lambda: t.decode_file("TTSP", t.PUBLIC_KEY),
            "sign_digest, rng gives str": lambda: t.sign_digest(p, sk, t.digest(p, b"m"),
                                                                lambda n: "x" * n),
        }
        for what, call in cases.items():
            with self.subTest(what):
                with self.assertRaises(TypeError):
                    call()

    def test_library_errors(self):
        # what only the library can tell stays a TTSError, with its message
        with self.assertRaises(t.TTSError) as c:
            t.decode_file(b"TTS", t.PUBLIC_KEY)
        self.assertEqual(c.exception.code, -8)
        p = t.params("TTS(16,22)")
        with self.assertRaises(t.TTSError) as c:
            t.sk_check(p, b"\0" * p.sk_bytes)
        self.assertEqual(c.exception.code, -3)


class Package(unittest.TestCase):
    """What the package says about itself comes from the library."""

    def test_version(self):
        lib = ctypes.CDLL(os.environ["LIBTTS_LIBRARY"])
        lib.tts_version.restype = ctypes.c_char_p
        want = re.search(r'#define TTS_VERSION_STRING "([^"]+)"', header("tts.h")).group(1)
        self.assertEqual(lib.tts_version().decode(), want)
        self.assertEqual(t.__version__, want)
        self.assertEqual(t.version(), want)
        with open(os.path.join(SRCDIR, "python", "pyproject.toml")) as f:
            self.assertIn('\nversion = "%s"\n' % want, f.read())

    def test_header_constants(self):
        h = header("tts.h") + header("tts_file.h")
        codes = {k: int(v) for k, v in re.findall(r"#define TTS_(OK|E[A-Z]+)\s+\(?(-?\d+)\)?", h)}
        self.assertGreaterEqual(len(codes), 9)
        self.assertEqual({k: getattr(t.TTSError, k) for k in codes}, codes)
        for k in ("PUBLIC_KEY", "SECRET_KEY", "SIGNATURE"):
            self.assertEqual(getattr(t, k), ord(re.search(r"#define TTS_FILE_%s\s+'(.)'" % k, h).group(1)))
        self.assertEqual(t.ARMOR, int(re.search(r"#define TTS_FILE_ARMOR\s+(\d+)u", h).group(1)))
        note = re.search(r"#define TTS_BROKEN_NOTE((?:.*\\\n)*.*)\n", h).group(1)
        self.assertEqual(t.BROKEN, "".join(re.findall(r'"([^"]*)"', note)))

    def test_docstrings(self):
        src = inspect.getsource(t)
        documented = set()
        body = ast.parse(src).body
        for node, nxt in zip(body, body[1:]):
            if (isinstance(node, ast.Assign) and isinstance(nxt, ast.Expr)
                    and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str)):
                documented.update(n.id for n in node.targets if isinstance(n, ast.Name))
        for name in t.__all__ + ["__version__"]:
            with self.subTest(name):
                obj = getattr(t, name)
                if inspect.isfunction(obj) or inspect.isclass(obj):
                    self.assertTrue(obj.__doc__ and obj.__doc__.strip(), name)
                else:
                    self.assertIn(name, documented)
        for name, m in inspect.getmembers(t.Params, inspect.isfunction):
            if not name.startswith("_"):
                self.assertTrue(m.__doc__, name)

    def test_type_hints(self):
        funcs = [getattr(t, n) for n in t.__all__ if inspect.isfunction(getattr(t, n))]
        funcs += [t.Params.__init__, t.TTSError.__init__]
        self.assertGreaterEqual(len(funcs), 16)
        for f in funcs:
            with self.subTest(f.__qualname__):
                hints = typing.get_type_hints(f)
                params = [n for n in inspect.signature(f).parameters if n != "self"]
                self.assertEqual(sorted(set(params) - set(hints)), [])
                self.assertIn("return", hints)
        pkg = os.path.dirname(t.__file__)
        self.assertTrue(os.path.isfile(os.path.join(pkg, "py.typed")))

    def test_import_error_names_the_variable(self):
        env = dict(os.environ, LIBTTS_LIBRARY="/nonexistent/libtts.so",
                   PYTHONPATH=os.path.dirname(os.path.dirname(t.__file__)))
        r = subprocess.run([sys.executable, "-c", "import libtts"], env=env,
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        last = r.stderr.strip().splitlines()[-1]
        self.assertTrue(last.startswith("ImportError: "), last)
        self.assertIn("/nonexistent/libtts.so", last)
        self.assertIn("LIBTTS_LIBRARY=", last)

    def test_license_beside_the_package(self):
        with open(os.path.join(SRCDIR, "LICENSE"), "rb") as a, \
                open(os.path.join(SRCDIR, "python", "LICENSE"), "rb") as b:
            self.assertEqual(a.read(), b.read())


if __name__ == "__main__":
    unittest.main()
