"""A software WebAuthn authenticator and client for the differential test: it makes credentials
(ES256 on P-256, Ed25519, RS256; ES384 only to be refused), encodes authenticator data, attestation
objects (`none`, `packed` self attestation) and assertions byte by byte, so that every field can be
set to a wrong value on purpose. It imports nothing from py_webauthn: the verifier under test must not
also be the one producing the test data. CBOR is the small CTAP2-canonical encoder below.
"""
import base64
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80

ES256, EDDSA, RS256, ES384 = -7, -8, -257, -35


def b64url(data: bytes) -> str:
    """Base64url without padding, as a browser's toJSON() gives it (WebAuthn L3 §3)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# CBOR (RFC 8949), the subset WebAuthn uses, in the CTAP2 canonical form: definite lengths, the
# shortest heads, map keys sorted by their encoded bytes (shorter first, then bytewise).

def _head(major: int, value: int) -> bytes:
    if value < 24:
        return bytes([major << 5 | value])
    for extra, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if value < 1 << (8 * struct.calcsize(fmt)):
            return bytes([major << 5 | extra]) + struct.pack(fmt, value)
    raise ValueError("integer too large for CBOR")


def cbor(value, canonical=True) -> bytes:
    """CTAP2 canonical CBOR; canonical=False keeps each map's own member order (still shortest heads)."""
    if isinstance(value, bool):
        return b"\xf5" if value else b"\xf4"
    if value is None:
        return b"\xf6"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, (bytes, bytearray)):
        return _head(2, len(value)) + bytes(value)
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _head(3, len(raw)) + raw
    if isinstance(value, (list, tuple)):
        return _head(4, len(value)) + b"".join(cbor(item, canonical) for item in value)
    if isinstance(value, dict):
        items = [(cbor(k, canonical), cbor(v, canonical)) for k, v in value.items()]
        if canonical:
            items.sort(key=lambda kv: (len(kv[0]), kv[0]))
        return _head(5, len(items)) + b"".join(k + v for k, v in items)
    raise TypeError(f"cannot CBOR-encode {type(value).__name__}")


class Key:
    """A credential key pair, its COSE_Key (RFC 9053) and WebAuthn's signature encoding for it."""

    def __init__(self, alg: int):
        self.alg = alg
        if alg == ES256:
            self.private = ec.generate_private_key(ec.SECP256R1())
        elif alg == ES384:
            self.private = ec.generate_private_key(ec.SECP384R1())
        elif alg == EDDSA:
            self.private = ed25519.Ed25519PrivateKey.generate()
        elif alg == RS256:
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            raise ValueError(f"alg {alg}")
        self.public = self.private.public_key()

    def cose(self) -> bytes:
        if self.alg in (ES256, ES384):
            numbers = self.public.public_numbers()
            size = 32 if self.alg == ES256 else 48
            return cbor({1: 2, 3: self.alg, -1: 1 if self.alg == ES256 else 2,
                         -2: numbers.x.to_bytes(size, "big"), -3: numbers.y.to_bytes(size, "big")})
        if self.alg == EDDSA:
            raw = self.public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            return cbor({1: 1, 3: EDDSA, -1: 6, -2: raw})
        numbers = self.public.public_numbers()
        n = numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")
        e = numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")
        return cbor({1: 3, 3: RS256, -1: n, -2: e})

    def spki(self) -> bytes:
        return self.public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)

    def sign(self, data: bytes) -> bytes:
        if self.alg == ES256:
            return self.private.sign(data, ec.ECDSA(hashes.SHA256()))  # ASN.1 DER, as WebAuthn wants
        if self.alg == ES384:
            return self.private.sign(data, ec.ECDSA(hashes.SHA384()))
        if self.alg == EDDSA:
            return self.private.sign(data)
        return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())


def authenticator_data(rp_id: str, flags: int, counter: int, attested: bytes = b"", extensions: bytes = b"") -> bytes:
    """WebAuthn L3 §6.1: rpIdHash ‖ flags ‖ signCount (big-endian) ‖ attested credential data ‖ extensions."""
    return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + counter.to_bytes(4, "big") + attested + extensions


def attested_credential_data(aaguid: bytes, credential_id: bytes, cose_key: bytes) -> bytes:
    """§6.5.1: AAGUID ‖ credentialIdLength (2 bytes, big-endian) ‖ credentialId ‖ credentialPublicKey."""
    return aaguid + len(credential_id).to_bytes(2, "big") + credential_id + cose_key


def client_data(type_: str, challenge: str, origin: str, extra=None) -> bytes:
    """§5.8.1 clientDataJSON, members in the order browsers write them."""
    data = {"type": type_, "challenge": challenge, "origin": origin, "crossOrigin": False}
    for name, value in (extra or {}).items():
        if value is _REMOVE:
            data.pop(name, None)
        else:
            data[name] = value
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


class _Remove:
    def __repr__(self):
        return "REMOVE"


_REMOVE = _Remove()
REMOVE = _REMOVE  # as a value in client data `extra`: leave the member out


class Credential:
    """A credential the software authenticator holds, and what the relying party should now hold of
    it once the server accepted its registration (`registered`, `stored_count`, `user_handle`)."""

    def __init__(self, alg=ES256, backup_eligible=False, backed_up=False, counter=True, credential_id=None):
        self.key = Key(alg)
        self.id = credential_id if credential_id is not None else os.urandom(32)
        self.be = backup_eligible
        self.bs = backed_up
        self.uses_counter = counter  # False: an authenticator without a counter, always 0
        self.aaguid = bytes(16)
        self.registered = False
        self.stored_count = 0      # the counter the server holds for it
        self.user_handle = b""     # the handle of the account it was registered to
        self.owner = None          # that account
        self.cose = self.key.cose()

    def backup_flags(self) -> int:
        return (BE if self.be else 0) | (BS if self.bs else 0)

    def next_counter(self) -> int:
        return self.stored_count + 1 if self.uses_counter else 0
