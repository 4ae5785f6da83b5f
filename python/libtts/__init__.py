# SPDX-License-Identifier: MIT
"""libtts from Python: the TTS signature family over the shared library.

A thin ctypes layer over libtts (no compiled extension): the parameter
table, key generation, signing and verification (of messages and of
digests), the public map, the key check, and the key and signature file
codec of docs/SPEC.md section 11. Errors are TTSError, with the library's
code and message.

The library is found through $LIBTTS_LIBRARY (a path), else as "tts" on
the system's library path (ctypes.util.find_library), else libtts.so.0.

TTS and SFLASH are broken (BROKEN below): this binding serves tests,
measurements and attacks, and must protect nothing.
"""
import ctypes
import ctypes.util
import os

__all__ = ["TTSError", "Params", "params", "all_params", "keypair", "sign",
           "sign_digest", "verify", "verify_digest", "digest", "pk_eval",
           "sk_check", "pk_from_sk", "encode_file", "decode_file", "backend",
           "version", "BROKEN", "PUBLIC_KEY", "SECRET_KEY", "SIGNATURE", "ARMOR"]

BROKEN = ("TTS and SFLASH are broken: tts-challenge break recovers an equivalent "
          "TTS key from the public key alone by linear algebra in seconds to "
          "minutes (TTS(36,50): minutes on two cores), and forges SFLASH "
          "signatures from the public key alone in under a second (the "
          "Dubois-Fouque-Shamir-Stern attack, CRYPTO 2007); neither may protect "
          "anything.")

# tts_file.h
PUBLIC_KEY, SECRET_KEY, SIGNATURE = ord("P"), ord("S"), ord("G")
ARMOR = 1


def _load():
    path = os.environ.get("LIBTTS_LIBRARY") or ctypes.util.find_library("tts") or "libtts.so.0"
    return ctypes.CDLL(path)


_lib = _load()
_P = ctypes.c_void_p
_B = ctypes.c_char_p
_Z = ctypes.c_size_t


def _fn(name, res, *args):
    f = getattr(_lib, name)
    f.restype, f.argtypes = res, list(args)
    return f


_count = _fn("tts_params_count", _Z)
_at = _fn("tts_params_at", _P, _Z)
_get = _fn("tts_params_get", _P, _B)
_name = _fn("tts_params_name", _B, _P)
_id = _fn("tts_params_id", _B, _P)
_sizes = {k: _fn("tts_%s_bytes" % k, _Z, _P) for k in ("pk", "sk", "sig", "digest")}
_dims = {k: _fn("tts_params_%s" % k, ctypes.c_uint, _P) for k in ("m", "n", "v", "a", "b", "coeffs")}
_strerror = _fn("tts_strerror", _B, ctypes.c_int)
_keypair = _fn("tts_keypair", ctypes.c_int, _P, _B, _B)
_keypair_seed = _fn("tts_keypair_from_seed", ctypes.c_int, _P, _B, _B, _B)
_sign = _fn("tts_sign", ctypes.c_int, _P, _B, _B, _Z, _B)
_RNG = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8), _Z)
_sign_digest = _fn("tts_sign_digest", ctypes.c_int, _P, _B, _B, _B, _RNG, ctypes.c_void_p)
_verify = _fn("tts_verify", ctypes.c_int, _P, _B, _B, _Z, _B)
_verify_digest = _fn("tts_verify_digest", ctypes.c_int, _P, _B, _B, _B)
_digest = _fn("tts_digest", ctypes.c_int, _P, _B, _B, _Z)
_pk_eval = _fn("tts_pk_eval", ctypes.c_int, _P, _B, _B, _B)
_sk_check = _fn("tts_sk_check", ctypes.c_int, _P, _B)
_pk_from_sk = _fn("tts_pk_from_sk", ctypes.c_int, _P, _B, _B)
_encode = _fn("tts_file_encode", ctypes.c_int, ctypes.c_int, _P, _B, ctypes.c_uint,
              ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_Z))
_decode = _fn("tts_file_decode", ctypes.c_int, _B, _Z, ctypes.c_int, ctypes.c_uint,
              ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p),
              ctypes.POINTER(_Z), ctypes.c_char_p, _Z)
_free = _fn("tts_file_free", None, ctypes.c_void_p, _Z)
_backend = _fn("tts_backend", _B)
_version = _fn("tts_version", _B)

TTS_OK, TTS_EBADSIG = 0, -2


class TTSError(Exception):
    """A libtts error: .code is the TTS_E* code, the message the library's."""

    def __init__(self, code, message=None):
        self.code = code
        super().__init__(message or _strerror(code).decode())


def _check(rc):
    if rc != TTS_OK:
        raise TTSError(rc)


class Params:
    """One parameter set of the table (compare with ==, it is a handle)."""

    def __init__(self, handle):
        self._h = handle
        self.name = _name(handle).decode()
        self.id = _id(handle).decode()
        for k, f in _sizes.items():
            setattr(self, k + "_bytes", f(handle))
        for k, f in _dims.items():
            setattr(self, k, f(handle))

    def __eq__(self, other):
        return isinstance(other, Params) and other._h == self._h

    def __hash__(self):
        return hash(self._h)

    def __repr__(self):
        return "Params(%r)" % self.name


def all_params():
    """The eight sets, in the table's order."""
    return [Params(_at(i)) for i in range(_count())]


def params(name):
    """The set called name ("TTS(20,28)", "20,28", "tts-20-28"); TTSError if none."""
    h = _get(name.encode())
    if not h:
        raise TTSError(-1, "unknown parameter set %r" % name)
    return Params(h)


def _bytes(b, n, what):
    b = bytes(b)
    if len(b) != n:
        raise TTSError(-1, "%s: %d bytes, expected %d" % (what, len(b), n))
    return b


def keypair(p, seed=None):
    """(pk, sk) of set p: from a 32-byte seed (deterministic), else random."""
    pk, sk = ctypes.create_string_buffer(p.pk_bytes), ctypes.create_string_buffer(p.sk_bytes)
    try:
        if seed is None:
            _check(_keypair(p._h, pk, sk))
        else:
            _check(_keypair_seed(p._h, pk, sk, _bytes(seed, 32, "seed")))
        return pk.raw, sk.raw
    finally:
        ctypes.memset(sk, 0, p.sk_bytes)


def sign(p, sk, msg):
    """The signature of msg under sk (fresh randomness from the system)."""
    sig = ctypes.create_string_buffer(p.sig_bytes)
    _check(_sign(p._h, sig, bytes(msg), len(msg), _bytes(sk, p.sk_bytes, "secret key")))
    return sig.raw


def sign_digest(p, sk, dig, rng):
    """The signature of an m-byte digest, each attempt's v bytes drawn by
    rng(n) -> bytes (for reproducible signatures: tests, the card's stream)."""
    err = []

    def cb(_ctx, out, n):
        try:
            b = bytes(rng(n))
            if len(b) != n:
                raise ValueError("rng gave %d bytes, not %d" % (len(b), n))
            ctypes.memmove(out, b, n)
            return 0
        except Exception as e:  # reported after the call
            err.append(e)
            return -1
    sig = ctypes.create_string_buffer(p.sig_bytes)
    rc = _sign_digest(p._h, sig, _bytes(dig, p.digest_bytes, "digest"),
                      _bytes(sk, p.sk_bytes, "secret key"), _RNG(cb), None)
    if err:
        raise err[0]
    _check(rc)
    return sig.raw


def _verdict(rc):
    if rc == TTS_EBADSIG:
        return False
    _check(rc)
    return True


def verify(p, pk, msg, sig):
    """True if sig is a signature of msg under pk, else False."""
    return _verdict(_verify(p._h, _bytes(sig, p.sig_bytes, "signature"), bytes(msg), len(msg),
                            _bytes(pk, p.pk_bytes, "public key")))


def verify_digest(p, pk, dig, sig):
    return _verdict(_verify_digest(p._h, _bytes(sig, p.sig_bytes, "signature"),
                                   _bytes(dig, p.digest_bytes, "digest"),
                                   _bytes(pk, p.pk_bytes, "public key")))


def digest(p, msg):
    """The first m bytes of SHA-512(msg), as signing uses it."""
    out = ctypes.create_string_buffer(p.digest_bytes)
    _check(_digest(p._h, out, bytes(msg), len(msg)))
    return out.raw


def pk_eval(p, pk, w):
    """The public map at w (n bytes): m bytes."""
    out = ctypes.create_string_buffer(p.m)
    _check(_pk_eval(p._h, out, _bytes(w, p.n, "point"), _bytes(pk, p.pk_bytes, "public key")))
    return out.raw


def sk_check(p, sk):
    """None if sk is a well-formed secret key, else TTSError (TTS_EKEY)."""
    _check(_sk_check(p._h, _bytes(sk, p.sk_bytes, "secret key")))


def pk_from_sk(p, sk):
    pk = ctypes.create_string_buffer(p.pk_bytes)
    _check(_pk_from_sk(p._h, pk, _bytes(sk, p.sk_bytes, "secret key")))
    return pk.raw


def encode_file(kind, p, payload, armor=False):
    """The tts file image (bytes) of a public key, secret key or signature."""
    out, n = ctypes.c_void_p(), _Z()
    pay = _bytes(payload, {PUBLIC_KEY: p.pk_bytes, SECRET_KEY: p.sk_bytes,
                           SIGNATURE: p.sig_bytes}.get(kind, -1), "payload")
    _check(_encode(kind, p._h, pay, ARMOR if armor else 0, ctypes.byref(out), ctypes.byref(n)))
    try:
        return ctypes.string_at(out, n.value)
    finally:
        _free(out, n)


def decode_file(data, kind):
    """(Params, payload) of a tts file image holding an object of kind;
    TTSError with the codec's reason otherwise."""
    hp, pay, n = ctypes.c_void_p(), ctypes.c_void_p(), _Z()
    err = ctypes.create_string_buffer(512)
    data = bytes(data)
    rc = _decode(data, len(data), kind, 0, ctypes.byref(hp), ctypes.byref(pay), ctypes.byref(n),
                 err, len(err))
    if rc != TTS_OK:
        raise TTSError(rc, err.value.decode(errors="replace") or None)
    try:
        return Params(hp.value), ctypes.string_at(pay, n.value)
    finally:
        _free(pay, n)


def backend():
    return _backend().decode()


def version():
    return _version().decode()
