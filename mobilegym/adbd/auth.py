"""ADB's RSA authentication, device side: the keys a served phone accepts, and the check of a host's signature.

A host (the adb server, adbutils, adb-shell...) signs the 20-byte token the device sends with its private key
(``~/.android/adbkey``), as an RSA PKCS#1 v1.5 signature of a SHA-1 digest whose value is the token. The device
accepts it when one of its authorized public keys (``adbkey.pub`` lines: Android's RSA key structure in base64,
then an optional ``user@host``) verifies it.
"""
from __future__ import annotations

import base64
import os
import struct
from dataclasses import dataclass
from pathlib import Path

TOKEN_SIZE = 20
KEY_WORDS = 64  # a 2048-bit modulus in 32-bit words
KEY_STRUCT = struct.Struct(f"<II{KEY_WORDS}I{KEY_WORDS}II")  # words, n0inv, n, rr, exponent
SHA1_DIGEST_INFO = bytes.fromhex("3021300906052b0e03021a05000414")
AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3  # AUTH's arg0


class AuthKeyError(ValueError):
    """An authorized-keys file or line that is not an adbkey.pub key."""


@dataclass(frozen=True)
class PublicKey:
    modulus: int
    exponent: int
    comment: str = ""

    @classmethod
    def parse(cls, line: str) -> "PublicKey":
        """A key from an ``adbkey.pub`` line."""
        blob, _, comment = line.strip().partition(" ")
        try:
            raw = base64.b64decode(blob, validate=True)
        except ValueError:
            raise AuthKeyError("not base64: an ADB public key line is the contents of adbkey.pub") from None
        if len(raw) != KEY_STRUCT.size:
            raise AuthKeyError(f"an ADB public key has {KEY_STRUCT.size} bytes, this one {len(raw)}")
        fields = KEY_STRUCT.unpack(raw)
        if fields[0] != KEY_WORDS:
            raise AuthKeyError(f"an ADB public key has a {KEY_WORDS * 32}-bit modulus, this one {fields[0] * 32}")
        words, exponent = fields[2:2 + KEY_WORDS], fields[-1]
        modulus = sum(word << (32 * i) for i, word in enumerate(words))  # least significant word first
        return cls(modulus, exponent, comment.strip())

    def verifies(self, token: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this key's PKCS#1 v1.5 signature of ``token`` as a SHA-1 digest."""
        size = (self.modulus.bit_length() + 7) // 8
        value = int.from_bytes(signature, "big")
        if len(signature) != size or value >= self.modulus:
            return False
        padded = pow(value, self.exponent, self.modulus).to_bytes(size, "big")
        body = SHA1_DIGEST_INFO + token
        return padded == b"\x00\x01" + b"\xff" * (size - len(body) - 3) + b"\x00" + body


def load_keys(path: str | os.PathLike[str]) -> tuple[PublicKey, ...]:
    """The keys of an authorized-keys file: one adbkey.pub line each (blank lines and ``#`` comments aside)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AuthKeyError(f"cannot read the ADB keys file {path}: {exc}") from None
    keys = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                keys.append(PublicKey.parse(line))
            except AuthKeyError as exc:
                raise AuthKeyError(f"{path}:{number}: {exc}") from None
    if not keys:
        raise AuthKeyError(f"{path} holds no ADB public key (copy a host's ~/.android/adbkey.pub into it)")
    return tuple(keys)


class Authenticator:
    """The device's side of the AUTH exchange for one connection: a fresh token, the check of its signature."""

    def __init__(self, keys: tuple[PublicKey, ...]) -> None:
        self.keys = keys
        self.token = b""

    def new_token(self) -> bytes:
        self.token = os.urandom(TOKEN_SIZE)
        return self.token

    def accepts(self, signature: bytes) -> bool:
        return bool(self.token) and any(key.verifies(self.token, signature) for key in self.keys)
