#!/usr/bin/env python3
"""Generate docs/test-vectors.json, the BioAuth protocol v1 test vectors.

Usage:
    python3 scripts/make_test_vectors.py          # (re)write docs/test-vectors.json
    python3 scripts/make_test_vectors.py --check  # exit 1 if the file is not what this script makes
    python3 scripts/make_test_vectors.py --stdout # print the JSON instead of writing it

Requires Python 3.11 and the `cryptography` package (>= 44 for RFC 6979 deterministic ECDSA).
The output is byte-for-byte reproducible: fixed keys, fixed inputs, RFC 6979 ECDSA nonces,
Ed25519 (deterministic by design) and a fixed JSON serialisation.

Before writing anything the script checks that
  * every valid vector verifies with `cryptography` and its message re-derives from its fields,
  * every invalid signature fails to verify and is rejected for the stated reason
    (strict-DER/length check -> invalid_signature_encoding, otherwise signature_invalid),
  * every invalid public key is rejected by the same acceptance rules the server applies.
"""

from __future__ import annotations

import argparse
import base64
import json
import struct
import sys
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)

# --------------------------------------------------------------------------------------------
# TEST-ONLY KEYS. These private keys are published on purpose so that anyone can reproduce the
# vectors. They must never be used for anything but tests.
# (Each is SHA-256 of an ASCII label, so their origin is evident.)
# --------------------------------------------------------------------------------------------
# SHA-256("BioAuth TEST ONLY P-256 key 0") -- the P-256 scalar of every ES256 vector.
TEST_ONLY_P256_SCALAR_HEX = "c1c9b36f93e6c517ebb6319637b8bc2596b1dec4fdbd24aee6c09f7defb86cc5"
# SHA-256("BioAuth TEST ONLY P-256 key 1") -- a second P-256 key, only for "signed by another key".
TEST_ONLY_OTHER_P256_SCALAR_HEX = "c7631a85e8e4f1220bdd932f546695dcf2f494aa24163235a5750dbbc97eeabf"
# SHA-256("BioAuth TEST ONLY Ed25519 seed") -- the RFC 8032 32-byte seed of every Ed25519 vector.
TEST_ONLY_ED25519_SEED_HEX = "9076652cfdf5494eb4a1f6e455e4f18d56b5638684826cfa8695dd8b0e506d51"

RP_ID = "bank.example"
RP_ID_NON_ASCII = "b\u00e4nk.example"  # "bänk.example", precomposed U+00E4 (NFC): 12 chars, 13 bytes
OTHER_RP_ID = "evil.example"
REGISTRATION_ID = "reg_0123456789abcdef0123456789abcdef"
CHALLENGE = bytes(range(32))  # 0x00 0x01 ... 0x1f

TAG = b"BIOAUTH-V1\x00"
CEREMONY_BYTES = {"registration": 0x01, "authentication": 0x02}

# P-256 group order n and field prime p.
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF

ES256_SPKI_PREFIX = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200")
ED25519_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")

OUT_PATH = Path(__file__).resolve().parent.parent / "docs" / "test-vectors.json"


# ------------------------------------------------------------------------------ encodings ---
def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    if "=" in text:
        raise ValueError("padding is not allowed")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def u16_prefixed(data: bytes) -> bytes:
    if len(data) > 0xFFFF:
        raise ValueError("field longer than 65535 bytes")
    return struct.pack(">H", len(data)) + data


def signed_message(ceremony: str, rp_id: str, registration_id: str, challenge: bytes) -> bytes:
    return (
        TAG
        + bytes([CEREMONY_BYTES[ceremony]])
        + u16_prefixed(rp_id.encode("utf-8"))
        + u16_prefixed(registration_id.encode("utf-8"))
        + u16_prefixed(challenge)
    )


# --------------------------------------------------------- strict DER ECDSA signature check ---
class EncodingError(ValueError):
    pass


def _der_read_tlv(buf: bytes, pos: int, expected_tag: int) -> tuple[bytes, int]:
    """Read one DER TLV with the given tag; definite short-form length only (all ES256
    signature parts are < 128 bytes, so a long form is never minimal)."""
    if pos >= len(buf):
        raise EncodingError("truncated: missing tag")
    if buf[pos] != expected_tag:
        raise EncodingError(f"expected tag 0x{expected_tag:02x}, got 0x{buf[pos]:02x}")
    if pos + 1 >= len(buf):
        raise EncodingError("truncated: missing length")
    length = buf[pos + 1]
    if length & 0x80:
        raise EncodingError("long-form or indefinite length")
    start = pos + 2
    end = start + length
    if end > len(buf):
        raise EncodingError("truncated: content shorter than length")
    return buf[start:end], end


def _der_positive_integer(content: bytes) -> int:
    if len(content) == 0:
        raise EncodingError("empty INTEGER")
    if content[0] & 0x80:
        raise EncodingError("negative INTEGER (high bit set without leading 0x00)")
    if len(content) > 1 and content[0] == 0x00 and not (content[1] & 0x80):
        raise EncodingError("non-minimal INTEGER (superfluous leading 0x00)")
    return int.from_bytes(content, "big")


def parse_strict_der_ecdsa(sig: bytes) -> tuple[int, int]:
    """The server's ES256 signature rule: exactly SEQUENCE { INTEGER r, INTEGER s } in DER,
    short-form lengths, minimal positive INTEGERs, 0 < r < n, 0 < s < n, no trailing bytes."""
    seq, end = _der_read_tlv(sig, 0, 0x30)
    if end != len(sig):
        raise EncodingError("trailing bytes after the SEQUENCE")
    r_content, pos = _der_read_tlv(seq, 0, 0x02)
    s_content, pos = _der_read_tlv(seq, pos, 0x02)
    if pos != len(seq):
        raise EncodingError("extra bytes inside the SEQUENCE")
    r = _der_positive_integer(r_content)
    s = _der_positive_integer(s_content)
    if not (0 < r < P256_N) or not (0 < s < P256_N):
        raise EncodingError("r or s outside 1..n-1")
    return r, s


def der_integer(content: bytes) -> bytes:
    assert len(content) < 0x80
    return b"\x02" + bytes([len(content)]) + content


def der_sequence(content: bytes) -> bytes:
    assert len(content) < 0x80
    return b"\x30" + bytes([len(content)]) + content


def minimal_int_bytes(value: int) -> bytes:
    """Minimal DER INTEGER content for a non-negative value."""
    raw = value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")
    return b"\x00" + raw if raw[0] & 0x80 else raw


# ------------------------------------------------------------------ public key acceptance ---
def load_public_key(algorithm: str, key: bytes):
    """The server's public-key rule (raises ValueError on rejection):
    ES256:   65 bytes 04||X||Y on P-256, or the 91-byte canonical SPKI of such a point
             (id-ecPublicKey + prime256v1, uncompressed), nothing else.
    Ed25519: the raw 32 bytes, or the 44-byte canonical SPKI (id-Ed25519), nothing else."""
    if algorithm == "ES256":
        if len(key) == 65 and key[0] == 0x04:
            return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        if key[:1] == b"\x30":
            pub = serialization.load_der_public_key(key)
            if not isinstance(pub, ec.EllipticCurvePublicKey) or not isinstance(pub.curve, ec.SECP256R1):
                raise ValueError("SPKI is not a P-256 key")
            if spki(pub) != key or not key.startswith(ES256_SPKI_PREFIX) or len(key) != 91:
                raise ValueError("SPKI is not the canonical uncompressed encoding")
            return pub
        raise ValueError("ES256 key is neither a 65-byte uncompressed point nor SPKI")
    if algorithm == "Ed25519":
        if len(key) == 32:
            return ed25519.Ed25519PublicKey.from_public_bytes(key)
        if key[:1] == b"\x30":
            pub = serialization.load_der_public_key(key)
            if not isinstance(pub, ed25519.Ed25519PublicKey):
                raise ValueError("SPKI is not an Ed25519 key")
            if spki(pub) != key or len(key) != 44:
                raise ValueError("SPKI is not canonical")
            return pub
        raise ValueError("Ed25519 key is neither 32 raw bytes nor SPKI")
    raise ValueError(f"unsupported algorithm {algorithm}")


def spki(pub) -> bytes:
    return pub.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def x963(pub: ec.EllipticCurvePublicKey) -> bytes:
    return pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def raw_ed25519(pub: ed25519.Ed25519PublicKey) -> bytes:
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


# ------------------------------------------------------------------------ verification ------
def server_verify(algorithm: str, public_key: bytes, message: bytes, signature: bytes) -> str | None:
    """Return None if accepted, else the error code the server must answer."""
    pub = load_public_key(algorithm, public_key)  # keys in signature vectors are always valid
    if algorithm == "ES256":
        try:
            parse_strict_der_ecdsa(signature)
        except EncodingError:
            return "invalid_signature_encoding"
        try:
            pub.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "signature_invalid"
        return None
    if algorithm == "Ed25519":
        if len(signature) != 64:
            return "invalid_signature_encoding"
        try:
            pub.verify(signature, message)
        except InvalidSignature:
            return "signature_invalid"
        return None
    raise ValueError(algorithm)


def cryptography_accepts(algorithm: str, public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Independent check with `cryptography` alone, without the strict-encoding pre-check."""
    pub = load_public_key(algorithm, public_key)
    try:
        if algorithm == "ES256":
            pub.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        else:
            pub.verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


# ------------------------------------------------------------------------ self-tests --------
def self_test_rfc6979() -> None:
    """RFC 6979 A.2.5 (P-256, SHA-256, message "sample") to prove the nonce is RFC 6979."""
    key = ec.derive_private_key(
        0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721, ec.SECP256R1()
    )
    r, s = decode_dss_signature(key.sign(b"sample", ec.ECDSA(hashes.SHA256(), deterministic_signing=True)))
    assert r == 0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716, "RFC 6979 r mismatch"
    assert s == 0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8, "RFC 6979 s mismatch"


def self_test_der_parser() -> None:
    good = der_sequence(der_integer(b"\x01") + der_integer(b"\x00\x80"))
    assert parse_strict_der_ecdsa(good) == (1, 0x80)
    for bad in [
        b"",
        b"\x30\x00",
        der_sequence(der_integer(b"\x00\x01") + der_integer(b"\x01")),  # non-minimal
        der_sequence(der_integer(b"\x80") + der_integer(b"\x01")),  # negative
        der_sequence(der_integer(b"\x00") + der_integer(b"\x01")),  # r = 0
        der_sequence(der_integer(b"\x01") + der_integer(b"\x01")) + b"\x00",  # trailing
        der_sequence(der_integer(b"\x01") + der_integer(b"\x01") + b"\x00"),  # extra inside
        der_sequence(der_integer(b"\x01")),  # missing s
        b"\x30\x81\x06" + der_integer(b"\x01") + der_integer(b"\x01"),  # long form
    ]:
        try:
            parse_strict_der_ecdsa(bad)
        except EncodingError:
            continue
        raise AssertionError(f"strict DER parser accepted {bad.hex()}")


# ------------------------------------------------------------------------ construction ------
def es256_sign(key: ec.EllipticCurvePrivateKey, message: bytes) -> bytes:
    return key.sign(message, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))


def build() -> dict:
    self_test_rfc6979()
    self_test_der_parser()

    p256 = ec.derive_private_key(int(TEST_ONLY_P256_SCALAR_HEX, 16), ec.SECP256R1())
    p256_other = ec.derive_private_key(int(TEST_ONLY_OTHER_P256_SCALAR_HEX, 16), ec.SECP256R1())
    ed = ed25519.Ed25519PrivateKey.from_private_bytes(bytes.fromhex(TEST_ONLY_ED25519_SEED_HEX))

    p256_pub = p256.public_key()
    ed_pub = ed.public_key()
    keys = {
        ("ES256", "x963"): x963(p256_pub),
        ("ES256", "spki"): spki(p256_pub),
        ("Ed25519", "raw"): raw_ed25519(ed_pub),
        ("Ed25519", "spki"): spki(ed_pub),
    }
    assert keys[("ES256", "spki")] == ES256_SPKI_PREFIX + keys[("ES256", "x963")]
    assert keys[("Ed25519", "spki")] == ED25519_SPKI_PREFIX + keys[("Ed25519", "raw")]

    def sign(algorithm: str, message: bytes) -> bytes:
        return es256_sign(p256, message) if algorithm == "ES256" else ed.sign(message)

    # ---- valid ---------------------------------------------------------------------------
    valid = []
    private_hex = {"ES256": TEST_ONLY_P256_SCALAR_HEX, "Ed25519": TEST_ONLY_ED25519_SEED_HEX}
    cases = [
        ("ES256", "x963"),
        ("ES256", "spki"),
        ("Ed25519", "raw"),
        ("Ed25519", "spki"),
    ]
    for algorithm, encoding in cases:
        for ceremony in ("registration", "authentication"):
            valid.append((f"{algorithm.lower()}-{encoding}-{ceremony}", algorithm, encoding, ceremony, RP_ID))
    valid.append(("es256-x963-authentication-utf8-rp-id", "ES256", "x963", "authentication", RP_ID_NON_ASCII))

    valid_out = []
    for name, algorithm, encoding, ceremony, rp_id in valid:
        message = signed_message(ceremony, rp_id, REGISTRATION_ID, CHALLENGE)
        signature = sign(algorithm, message)
        assert sign(algorithm, message) == signature, "signing is not deterministic"
        public_key = keys[(algorithm, encoding)]
        assert server_verify(algorithm, public_key, message, signature) is None, name
        assert cryptography_accepts(algorithm, public_key, message, signature), name
        valid_out.append(
            {
                "name": name,
                "algorithm": algorithm,
                "ceremony": ceremony,
                "rp_id": rp_id,
                "registration_id": REGISTRATION_ID,
                "challenge": b64url(CHALLENGE),
                "private_key_hex": private_hex[algorithm],
                "public_key": b64url(public_key),
                "public_key_encoding": encoding,
                "message_hex": message.hex(),
                "signature": b64url(signature),
            }
        )

    # Every valid vector's message must re-derive from its own fields.
    for v in valid_out:
        rebuilt = signed_message(v["ceremony"], v["rp_id"], v["registration_id"], b64url_decode(v["challenge"]))
        assert rebuilt.hex() == v["message_hex"], v["name"]
    utf8_vec = valid_out[-1]
    assert len(utf8_vec["rp_id"]) == 12 and len(utf8_vec["rp_id"].encode("utf-8")) == 13
    assert bytes.fromhex(utf8_vec["message_hex"])[12:14] == b"\x00\x0d"

    # ---- invalid signatures ----------------------------------------------------------------
    reg_msg = signed_message("registration", RP_ID, REGISTRATION_ID, CHALLENGE)
    auth_msg = signed_message("authentication", RP_ID, REGISTRATION_ID, CHALLENGE)
    es_key = keys[("ES256", "x963")]
    ed_key = keys[("Ed25519", "raw")]

    good_der = es256_sign(p256, reg_msg)
    r, s = decode_dss_signature(good_der)
    r_bytes, s_bytes = r.to_bytes(32, "big"), s.to_bytes(32, "big")
    # The fixed key was chosen so that this r has its high bit set (DER needs a 0x00 pad) and s
    # has it clear, which lets the vectors below show both the needed and the superfluous pad.
    assert r >> 255 == 1 and s >> 255 == 0, "test key no longer gives the intended r/s shape"
    assert good_der == der_sequence(der_integer(b"\x00" + r_bytes) + der_integer(minimal_int_bytes(s)))
    r_der = der_integer(minimal_int_bytes(r))
    s_der = der_integer(minimal_int_bytes(s))

    ed_good = ed.sign(reg_msg)

    invalid_specs = [
        (
            "es256-non-minimal-integer-r",
            "ES256", es_key, "x963", reg_msg,
            der_sequence(der_integer(b"\x00\x00" + r_bytes) + s_der),
            "invalid_signature_encoding",
            "r is encoded as 00 00 <32 bytes>: one 0x00 is needed because r's high bit is set, "
            "the second is superfluous, so the INTEGER is not minimal",
        ),
        (
            "es256-non-minimal-integer-s",
            "ES256", es_key, "x963", reg_msg,
            der_sequence(r_der + der_integer(b"\x00" + s_bytes)),
            "invalid_signature_encoding",
            "s (high bit clear) is encoded with a superfluous leading 0x00",
        ),
        (
            "es256-long-form-length",
            "ES256", es_key, "x963", reg_msg,
            b"\x30\x81" + good_der[1:],
            "invalid_signature_encoding",
            "the SEQUENCE length is written in long form (30 81 45) although the short form (30 45) fits",
        ),
        (
            "es256-trailing-byte",
            "ES256", es_key, "x963", reg_msg,
            good_der + b"\x00",
            "invalid_signature_encoding",
            "one 0x00 byte follows the complete SEQUENCE",
        ),
        (
            "es256-negative-r",
            "ES256", es_key, "x963", reg_msg,
            der_sequence(der_integer(r_bytes) + s_der),
            "invalid_signature_encoding",
            "r is written as 32 bytes whose high bit is set, without the leading 0x00: "
            "as a DER INTEGER that is a negative number",
        ),
        (
            "es256-r-zero",
            "ES256", es_key, "x963", reg_msg,
            der_sequence(der_integer(b"\x00") + s_der),
            "invalid_signature_encoding",
            "r = 0 (02 01 00) is well-formed DER but outside 1..n-1",
        ),
        (
            "es256-r-equals-n",
            "ES256", es_key, "x963", reg_msg,
            der_sequence(der_integer(minimal_int_bytes(P256_N)) + s_der),
            "invalid_signature_encoding",
            "r = n (the P-256 group order) is well-formed DER but outside 1..n-1",
        ),
        (
            "es256-raw-r-s",
            "ES256", es_key, "x963", reg_msg,
            r_bytes + s_bytes,
            "invalid_signature_encoding",
            "the raw 64-byte r||s form (CryptoKit rawRepresentation, JWS/WebCrypto) instead of DER",
        ),
        (
            "es256-empty",
            "ES256", es_key, "x963", reg_msg,
            b"",
            "invalid_signature_encoding",
            "zero bytes (the JSON value is the empty string, which is valid base64url, so this is "
            "an encoding error and not invalid_request)",
        ),
        (
            "es256-authentication-signature-for-registration",
            "ES256", es_key, "x963", reg_msg,
            es256_sign(p256, auth_msg),
            "signature_invalid",
            "a valid strict-DER signature by the right key, but over the authentication message "
            "(ceremony byte 0x02) while the registration message (0x01) is verified",
        ),
        (
            "es256-signed-by-another-key",
            "ES256", es_key, "x963", reg_msg,
            es256_sign(p256_other, reg_msg),
            "signature_invalid",
            "a valid strict-DER signature over the right message, made by a different P-256 key "
            "(scalar TEST_ONLY_OTHER_P256_SCALAR_HEX in the script)",
        ),
        (
            "ed25519-63-bytes",
            "Ed25519", ed_key, "raw", reg_msg,
            ed_good[:63],
            "invalid_signature_encoding",
            "the valid Ed25519 signature with its last byte removed: not 64 bytes",
        ),
        (
            "ed25519-65-bytes",
            "Ed25519", ed_key, "raw", reg_msg,
            ed_good + b"\x00",
            "invalid_signature_encoding",
            "the valid Ed25519 signature with a 0x00 appended: not 64 bytes",
        ),
        (
            "ed25519-signature-over-other-message",
            "Ed25519", ed_key, "raw", reg_msg,
            ed.sign(signed_message("registration", OTHER_RP_ID, REGISTRATION_ID, CHALLENGE)),
            "signature_invalid",
            "a valid 64-byte signature by the right key over the registration message built with "
            "rp_id \"evil.example\" instead of \"bank.example\"",
        ),
        (
            "es256-key-given-ed25519-signature",
            "ES256", es_key, "x963", reg_msg,
            ed_good,
            "invalid_signature_encoding",
            "a 64-byte Ed25519 signature of the right message presented for the ES256 "
            "registration: not a DER SEQUENCE",
        ),
    ]

    invalid_out = []
    for name, algorithm, public_key, encoding, message, signature, expected, why in invalid_specs:
        got = server_verify(algorithm, public_key, message, signature)
        assert got == expected, f"{name}: expected {expected}, strict check gave {got}"
        assert not cryptography_accepts(algorithm, public_key, message, signature), f"{name} verifies"
        invalid_out.append(
            {
                "name": name,
                "algorithm": algorithm,
                "public_key": b64url(public_key),
                "public_key_encoding": encoding,
                "message_hex": message.hex(),
                "signature": b64url(signature),
                "expected_error": expected,
                "why": why,
            }
        )

    # ---- invalid public keys ---------------------------------------------------------------
    point = keys[("ES256", "x963")]
    x, y = point[1:33], point[33:65]
    y_off = ((int.from_bytes(y, "big") + 1) % P256_P).to_bytes(32, "big")
    compressed = p256_pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
    assert compressed[0] in (0x02, 0x03)
    # The compressed-key vector has the 0x02 prefix: the fixed key's Y is even.
    assert compressed[0] == 0x02, "test key no longer has an even Y"
    # `cryptography` itself would accept the compressed point; it is rejected by protocol rule.
    assert x963(ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), compressed)) == point

    bad_keys = [
        (
            "es256-x963-point-not-on-curve",
            "ES256", b"\x04" + x + y_off,
            "65 bytes 04||X||Y where Y is the valid key's Y plus 1: the point is not on P-256",
        ),
        (
            "es256-x963-compressed-point",
            "ES256", compressed,
            "the valid key as a 33-byte compressed point (02||X): only the uncompressed form is accepted",
        ),
        (
            "es256-x963-missing-04-prefix",
            "ES256", x + y,
            "the 64 bytes X||Y without the leading 0x04",
        ),
        (
            "es256-spki-with-ed25519-oid",
            "ES256", keys[("Ed25519", "spki")],
            "a well-formed SPKI of the valid Ed25519 key (OID 1.3.101.112) submitted with algorithm ES256",
        ),
        (
            "ed25519-raw-31-bytes",
            "Ed25519", keys[("Ed25519", "raw")][:31],
            "the valid raw Ed25519 key with its last byte removed: 31 bytes",
        ),
        (
            "es256-spki-trailing-garbage",
            "ES256", keys[("ES256", "spki")] + b"\x00",
            "the valid ES256 SPKI followed by one 0x00 byte",
        ),
    ]
    bad_keys_out = []
    for name, algorithm, key, why in bad_keys:
        try:
            load_public_key(algorithm, key)
        except ValueError:
            pass
        else:
            raise AssertionError(f"{name}: public key accepted")
        bad_keys_out.append({"name": name, "algorithm": algorithm, "public_key": b64url(key), "why": why})

    return {
        "description": (
            "BioAuth protocol v1 test vectors, generated by scripts/make_test_vectors.py (see "
            "docs/PROTOCOL.md). Binary values are base64url without padding, except *_hex fields. "
            "The private keys are TEST-ONLY and public. ES256 = ECDSA P-256 over SHA-256(message) "
            "with a strict-DER signature (these were made with RFC 6979 deterministic nonces; "
            "verifiers must accept any nonce and either s or n-s); Ed25519 = RFC 8032 over message. "
            "'valid' must verify. 'invalid' must be rejected with expected_error (the "
            "invalid_signature_encoding ones by the encoding check, before any challenge is "
            "consumed). 'invalid_public_keys' must be rejected at registration with 400 "
            "invalid_public_key."
        ),
        "message_layout": (
            '"BIOAUTH-V1" 0x00 (11 bytes) || ceremony (1 byte: 0x01 registration, 0x02 authentication) '
            "|| u16be(len(rp_id)) || rp_id (UTF-8) || u16be(len(registration_id)) || registration_id "
            "(UTF-8) || u16be(len(challenge)) || challenge (32 raw bytes)"
        ),
        "valid": valid_out,
        "invalid": invalid_out,
        "invalid_public_keys": bad_keys_out,
    }


def render(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main(make=None, out_path: Path | None = None, script: str = "scripts/make_test_vectors.py", description: str | None = None) -> int:
    """Writes (or with --check compares, or with --stdout prints) what `make` renders to `out_path`:
    this script's vectors by default; make_confirmation_vectors.py passes its own."""
    make = make or (lambda: render(build()))
    out_path = out_path or OUT_PATH
    parser = argparse.ArgumentParser(description=description or __doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help=f"compare with {out_path.relative_to(out_path.parents[1])}, do not write")
    mode.add_argument("--stdout", action="store_true", help="print the JSON instead of writing it")
    args = parser.parse_args()

    text = make()
    assert make() == text, "output is not reproducible"

    if args.stdout:
        sys.stdout.write(text)
        return 0
    if args.check:
        current = out_path.read_text(encoding="utf-8") if out_path.exists() else None
        if current != text:
            print(f"{out_path} is out of date; run {script}", file=sys.stderr)
            return 1
        print(f"{out_path} is up to date")
        return 0
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(text, encoding="utf-8")
    print(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
