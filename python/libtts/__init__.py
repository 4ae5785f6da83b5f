# SPDX-License-Identifier: MIT
"""libtts from Python: the TTS signature family over the shared library.

A thin ctypes layer over libtts (no compiled extension): the parameter
table, key generation, signing and verification (of messages and of
digests), the public map, the key check, and the key and signature file
codec of docs/SPEC.md section 11.

Messages, keys, signatures and digests are any bytes-like objects (bytes,
bytearray, memoryview, array.array ...); what counts is their bytes: an
array('I') of two items is an 8-byte message. Results are bytes.

Errors: TypeError for an argument of the wrong type, ValueError for one of
the wrong length or value (verify and verify_digest answer False for a
signature or public key of the wrong length instead), TTSError for what
the library refuses, with its code and message.

The library is loaded from $LIBTTS_LIBRARY (a path), else as "tts" on the
system's library path (ctypes.util.find_library), else as libtts.so.0.

TTS and SFLASH are broken (BROKEN below): this binding serves tests,
measurements and attacks, and must protect nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple, Union

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer as BytesLike
else:
    try:
        from collections.abc import Buffer as BytesLike  # Python 3.12
    except ImportError:
        BytesLike = Union[bytes, bytearray, memoryview]

__all__ = ["TTSError", "Params", "params", "all_params", "keypair", "sign",
           "sign_digest", "verify", "verify_digest", "digest", "pk_eval",
           "sk_check", "pk_from_sk", "encode_file", "decode_file", "backend",
           "version", "BROKEN", "PUBLIC_KEY", "SECRET_KEY", "SIGNATURE", "ARMOR"]

PUBLIC_KEY = ord("P")
"""The kind of a public key file (TTS_FILE_PUBLIC_KEY of tts_file.h)."""
SECRET_KEY = ord("S")
"""The kind of a secret key file (TTS_FILE_SECRET_KEY)."""
SIGNATURE = ord("G")
"""The kind of a signature file (TTS_FILE_SIGNATURE)."""
ARMOR = 1
"""The codec's flag for armored text (TTS_FILE_ARMOR); encode_file(armor=True)."""


def _load() -> ctypes.CDLL:
    env = os.environ.get("LIBTTS_LIBRARY")
    path = env or ctypes.util.find_library("tts") or "libtts.so.0"
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        how = ("$LIBTTS_LIBRARY names %r" % env if env else
               "$LIBTTS_LIBRARY is not set and the system's library path has no libtts")
        raise ImportError(
            "libtts: cannot load the shared library (%s: %s); set LIBTTS_LIBRARY to its path, "
            "e.g. export LIBTTS_LIBRARY=/usr/local/lib/libtts.so.0 (in a build tree, "
            "LIBTTS_LIBRARY=$PWD/.libs/libtts.so)" % (how, e)) from None


_lib = _load()
_P = ctypes.c_void_p
_B = ctypes.c_char_p
_Z = ctypes.c_size_t
_I = ctypes.c_int


def _fn(name: str, res: Any, *args: Any) -> Any:
    try:
        f = getattr(_lib, name)
    except AttributeError:
        raise ImportError("libtts: the library loaded (%s) has no %s: it is older than this "
                          "binding" % (_lib._name, name)) from None
    f.restype, f.argtypes = res, list(args)
    return f


_count = _fn("tts_params_count", _Z)
_at = _fn("tts_params_at", _P, _Z)
_get = _fn("tts_params_get", _P, _B)
_name = _fn("tts_params_name", _B, _P)
_id = _fn("tts_params_id", _B, _P)
_sizes = {k: _fn("tts_%s_bytes" % k, _Z, _P) for k in ("pk", "sk", "sig", "digest")}
_dims = {k: _fn("tts_params_%s" % k, ctypes.c_uint, _P) for k in ("m", "n", "v", "a", "b", "coeffs")}
_strerror = _fn("tts_strerror", _B, _I)
_keypair = _fn("tts_keypair", _I, _P, _B, _B)
_keypair_seed = _fn("tts_keypair_from_seed", _I, _P, _B, _B, _B)
_sign = _fn("tts_sign", _I, _P, _B, _B, _Z, _B)
_RNG = ctypes.CFUNCTYPE(_I, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8), _Z)
_sign_digest = _fn("tts_sign_digest", _I, _P, _B, _B, _B, _RNG, ctypes.c_void_p)
_verify = _fn("tts_verify", _I, _P, _B, _B, _Z, _B)
_verify_digest = _fn("tts_verify_digest", _I, _P, _B, _B, _B)
_digest = _fn("tts_digest", _I, _P, _B, _B, _Z)
_pk_eval = _fn("tts_pk_eval", _I, _P, _B, _B, _B)
_sk_check = _fn("tts_sk_check", _I, _P, _B)
_pk_from_sk = _fn("tts_pk_from_sk", _I, _P, _B, _B)
_payload_bytes = _fn("tts_file_payload_bytes", _Z, _P, _I)
_encode = _fn("tts_file_encode", _I, _I, _P, _B, ctypes.c_uint,
              ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_Z))
_decode = _fn("tts_file_decode", _I, _B, _Z, _I, ctypes.c_uint,
              ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p),
              ctypes.POINTER(_Z), _B, _Z)
_free = _fn("tts_file_free", None, ctypes.c_void_p, _Z)
_backend = _fn("tts_backend", _B)
_version = _fn("tts_version", _B)
_broken = _fn("tts_broken_note", _B)

BROKEN = str(_broken().decode())
"""The one sentence libtts says about its schemes (tts_broken_note(), the
TTS_BROKEN_NOTE of tts.h, printed by tts --version)."""


class TTSError(Exception):
    """An error the library reports: .code is its TTS_E* code (the class
    attributes below name them, as tts.h does), the message the library's
    tts_strerror text or the codec's reason."""

    OK = 0
    EINVAL = -1
    EBADSIG = -2
    EKEY = -3
    ERETRY = -4
    EBACKEND = -5
    ERNG = -6
    ENOMEM = -7
    EFORMAT = -8

    def __init__(self, code: int, message: Optional[str] = None) -> None:
        self.code = code
        super().__init__(message or _strerror(code).decode())


def _check(rc: int) -> None:
    if rc != TTSError.OK:
        raise TTSError(rc)


class Params:
    """One parameter set of the library's table, from params() or
    all_params() (compare with ==, it is a handle): name ("TTS(20,28)"),
    id ("tts-20-28"), the sizes pk_bytes, sk_bytes, sig_bytes and
    digest_bytes, the dimensions m, n, v, a, b and coeffs."""

    name: str
    id: str
    pk_bytes: int
    sk_bytes: int
    sig_bytes: int
    digest_bytes: int
    m: int
    n: int
    v: int
    a: int
    b: int
    coeffs: int

    def __init__(self, handle: int) -> None:
        self._h = handle
        self.name = _name(handle).decode()
        self.id = _id(handle).decode()
        for k, f in _sizes.items():
            setattr(self, k + "_bytes", f(handle))
        for k, f in _dims.items():
            setattr(self, k, f(handle))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Params) and other._h == self._h

    def __hash__(self) -> int:
        return hash(self._h)

    def __repr__(self) -> str:
        return "Params(%r)" % self.name


def _h(p: object) -> int:
    """The handle of p, TypeError unless p is a Params."""
    if not isinstance(p, Params):
        raise TypeError("a libtts.Params is required (libtts.params(name)), not %s"
                        % type(p).__name__)
    return p._h


def _buf(b: Any, what: str) -> bytes:
    """The bytes of a bytes-like object (all of them, whatever its items)."""
    try:
        return memoryview(b).tobytes()
    except TypeError:
        raise TypeError("%s: a bytes-like object is required, not %s"
                        % (what, type(b).__name__)) from None


def _exact(b: Any, n: int, what: str) -> bytes:
    """_buf, with ValueError unless it holds n bytes."""
    v = _buf(b, what)
    if len(v) != n:
        raise ValueError("%s: %d bytes, expected %d" % (what, len(v), n))
    return v


def all_params() -> List[Params]:
    """The eight sets, in the table's order."""
    return [Params(_at(i)) for i in range(_count())]


def params(name: str) -> Params:
    """The set called name ("TTS(20,28)", "20,28", "tts-20-28");
    ValueError if there is none."""
    if not isinstance(name, str):
        raise TypeError("params: the name is a str, not %s" % type(name).__name__)
    h = _get(name.encode()) if "\0" not in name else None
    if not h:
        raise ValueError("unknown parameter set %r (the sets: %s)"
                         % (name, ", ".join(p.name for p in all_params())))
    return Params(h)


def keypair(p: Params, seed: Optional[BytesLike] = None) -> Tuple[bytes, bytes]:
    """(pk, sk) of set p: from a 32-byte seed (deterministic), else random."""
    h = _h(p)
    s = None if seed is None else _exact(seed, 32, "seed")
    pk, sk = ctypes.create_string_buffer(p.pk_bytes), ctypes.create_string_buffer(p.sk_bytes)
    try:
        _check(_keypair(h, pk, sk) if s is None else _keypair_seed(h, pk, sk, s))
        return pk.raw, sk.raw
    finally:
        ctypes.memset(sk, 0, p.sk_bytes)


def sign(p: Params, sk: BytesLike, msg: BytesLike) -> bytes:
    """The signature of the bytes of msg under sk (fresh randomness from
    the system)."""
    h = _h(p)
    m = _buf(msg, "message")
    sig = ctypes.create_string_buffer(p.sig_bytes)
    _check(_sign(h, sig, m, len(m), _exact(sk, p.sk_bytes, "secret key")))
    return sig.raw


def sign_digest(p: Params, sk: BytesLike, dig: BytesLike,
                rng: Callable[[int], BytesLike]) -> bytes:
    """The signature of an m-byte digest, each attempt's v bytes drawn by
    rng(n), which returns n bytes (for reproducible signatures: tests, the
    card's stream). An exception rng raises is raised again here."""
    h = _h(p)
    d = _exact(dig, p.digest_bytes, "digest")
    key = _exact(sk, p.sk_bytes, "secret key")
    err: List[BaseException] = []

    def cb(_ctx: object, out: object, n: int) -> int:
        try:
            b = _buf(rng(n), "rng(%d)" % n)
            if len(b) != n:
                raise ValueError("rng(%d) gave %d bytes" % (n, len(b)))
            ctypes.memmove(out, b, n)
            return 0
        except Exception as e:  # raised again after the call
            err.append(e)
            return -1
    sig = ctypes.create_string_buffer(p.sig_bytes)
    rc = _sign_digest(h, sig, d, key, _RNG(cb), None)
    if err:
        raise err[0]
    _check(rc)
    return sig.raw


def _verdict(rc: int) -> bool:
    if rc == TTSError.EBADSIG:
        return False
    _check(rc)
    return True


def verify(p: Params, pk: BytesLike, msg: BytesLike, sig: BytesLike) -> bool:
    """True if sig is a signature of the bytes of msg under pk, else False
    (a signature or public key of the wrong length included)."""
    h = _h(p)
    m, s, k = _buf(msg, "message"), _buf(sig, "signature"), _buf(pk, "public key")
    if len(s) != p.sig_bytes or len(k) != p.pk_bytes:
        return False
    return _verdict(_verify(h, s, m, len(m), k))


def verify_digest(p: Params, pk: BytesLike, dig: BytesLike, sig: BytesLike) -> bool:
    """True if sig is a signature of the m-byte digest under pk, else False
    (a signature or public key of the wrong length included); ValueError
    for a digest of the wrong length."""
    h = _h(p)
    d = _exact(dig, p.digest_bytes, "digest")
    s, k = _buf(sig, "signature"), _buf(pk, "public key")
    if len(s) != p.sig_bytes or len(k) != p.pk_bytes:
        return False
    return _verdict(_verify_digest(h, s, d, k))


def digest(p: Params, msg: BytesLike) -> bytes:
    """The first m bytes of SHA-512 of the bytes of msg, as signing uses it."""
    h = _h(p)
    m = _buf(msg, "message")
    out = ctypes.create_string_buffer(p.digest_bytes)
    _check(_digest(h, out, m, len(m)))
    return out.raw


def pk_eval(p: Params, pk: BytesLike, w: BytesLike) -> bytes:
    """The public map at w (n bytes): m bytes."""
    h = _h(p)
    out = ctypes.create_string_buffer(p.m)
    _check(_pk_eval(h, out, _exact(w, p.n, "point"), _exact(pk, p.pk_bytes, "public key")))
    return out.raw


def sk_check(p: Params, sk: BytesLike) -> None:
    """None if sk is a well-formed secret key, else TTSError (TTSError.EKEY)."""
    h = _h(p)
    _check(_sk_check(h, _exact(sk, p.sk_bytes, "secret key")))


def pk_from_sk(p: Params, sk: BytesLike) -> bytes:
    """The public key of a secret key (TTSError.EKEY for a malformed one)."""
    h = _h(p)
    pk = ctypes.create_string_buffer(p.pk_bytes)
    _check(_pk_from_sk(h, pk, _exact(sk, p.sk_bytes, "secret key")))
    return pk.raw


def _kind_bytes(h: int, kind: object) -> int:
    """The payload size of kind in the set h, as the codec has it;
    TypeError or ValueError for anything but a kind it knows."""
    if not isinstance(kind, int) or isinstance(kind, bool):
        raise TypeError("kind: PUBLIC_KEY, SECRET_KEY or SIGNATURE, not %s" % type(kind).__name__)
    n = _payload_bytes(h, kind) if -2**31 <= kind < 2**31 else 0
    if not n:
        raise ValueError("kind: PUBLIC_KEY, SECRET_KEY or SIGNATURE, not %r" % kind)
    return int(n)


def encode_file(kind: int, p: Params, payload: BytesLike, armor: bool = False) -> bytes:
    """The tts file image (bytes) of a public key, secret key or signature
    (kind PUBLIC_KEY, SECRET_KEY or SIGNATURE), armored text if armor."""
    h = _h(p)
    pay = _exact(payload, _kind_bytes(h, kind), "payload")
    out, n = ctypes.c_void_p(), _Z()
    _check(_encode(kind, h, pay, ARMOR if armor else 0, ctypes.byref(out), ctypes.byref(n)))
    try:
        return ctypes.string_at(out, n.value)
    finally:
        _free(out, n)


def decode_file(data: BytesLike, kind: int) -> Tuple[Params, bytes]:
    """(Params, payload) of a tts file image (binary or armored) holding an
    object of kind; TTSError (TTSError.EFORMAT) with the codec's reason
    otherwise."""
    _kind_bytes(_at(0), kind)
    img = _buf(data, "data")
    hp, pay, n = ctypes.c_void_p(), ctypes.c_void_p(), _Z()
    err = ctypes.create_string_buffer(512)
    rc = _decode(img, len(img), kind, 0, ctypes.byref(hp), ctypes.byref(pay), ctypes.byref(n),
                 err, len(err))
    if rc != TTSError.OK:
        raise TTSError(rc, err.value.decode(errors="replace") or None)
    try:
        return Params(hp.value), ctypes.string_at(pay, n.value)
    finally:
        _free(pay, n)


def backend() -> str:
    """The backend the library runs ("ref", "avx2", "gfni" ...)."""
    return str(_backend().decode())


def version() -> str:
    """The library's version (tts_version(), the TTS_VERSION_STRING it was
    built with)."""
    return str(_version().decode())


__version__ = version()
"""The library's version, as version() gives it."""
