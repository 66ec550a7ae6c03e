#!/usr/bin/env python3
"""Generate docs/confirmation-vectors.json, the test vectors of transaction confirmations (§4.9).

Usage:
    python3 scripts/make_confirmation_vectors.py          # (re)write docs/confirmation-vectors.json
    python3 scripts/make_confirmation_vectors.py --check  # exit 1 if the file is not what this script makes
    python3 scripts/make_confirmation_vectors.py --stdout # print the JSON instead of writing it

An implementation of docs/protocol/CONFIRMATIONS.md written from the document, not from the Swift
code, so that the vectors hold the Swift contract (ConfirmationRules, ConfirmationText,
ConfirmationDetails.canonicalJSON, ConfirmationMessage) and its ports to the document:
  * the canonical details: RFC 8785 (JCS) for an object whose members are all strings, checked
    against RFC 8785's own examples before anything is written,
  * the text, the details hash and the signed message (ceremony byte 0x04),
  * the rules, which here collect EVERY problem of the details: each invalid case must break
    exactly one rule (one code, one field), so its expected answer does not depend on the order
    in which an implementation checks.
The keys, the registration id, the challenge and the signing are those of
scripts/make_test_vectors.py (imported), so the output is reproducible byte for byte.
Requires Python 3.11 and `cryptography` (>= 44), as that script does.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_test_vectors as tv  # noqa: E402  (the test-only keys, base64url, DER and signing)

from cryptography.hazmat.primitives.asymmetric import ec, ed25519  # noqa: E402

OUT_PATH = Path(__file__).resolve().parent.parent / "docs" / "confirmation-vectors.json"
CONFIRMATION_CEREMONY = 0x04
MAX_CANONICAL_BYTES = 1024
MAX_LENGTH = {"payee_name": 70, "payee_account": 64, "reference": 140, "action": 140}

# Minor units of the ISO 4217 codes the vectors use (ISO 4217 list one, 2025), and codes that are
# not an active currency. The script refuses a code in neither list rather than guess.
MINOR_DIGITS = {"EUR": 2, "USD": 2, "RUB": 2, "JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3, "CLF": 4}
NOT_CURRENCIES = {
    "eur": ("lowercase", "lowercase"),
    "EURO": ("four-letters", "four letters"),
    "": ("empty", "empty"),
    "XXX": ("no-currency", "ISO 4217's 'no currency'"),
    "XAU": ("gold", "gold, a precious metal without minor units"),
    "XTS": ("testing", "ISO 4217's code reserved for testing"),
    "DEM": ("withdrawn", "the Deutsche Mark, withdrawn"),
}


# ------------------------------------------------------------------------------ RFC 8785 ---
def jcs_string(value: str) -> str:
    """RFC 8785 §3.2.2.2: `"` and `\\` escaped, \\b \\t \\n \\f \\r, other controls below U+0020
    as \\u00xx in lowercase hex, everything else (U+007F, U+2028, non-ASCII) as itself."""
    return json.dumps(value, ensure_ascii=False)


def jcs_object(members: dict[str, str]) -> bytes:
    """RFC 8785 for an object of string members: sorted by name as UTF-16 code units, no
    whitespace, UTF-8."""
    names = sorted(members, key=lambda name: name.encode("utf-16-be"))
    body = ",".join(jcs_string(name) + ":" + jcs_string(members[name]) for name in names)
    return ("{" + body + "}").encode("utf-8")


def self_test_jcs() -> None:
    """RFC 8785's examples: §3.2.2.2's string and §3.2.3's member order."""
    escaped = jcs_string("\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/")
    assert escaped == '"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"', escaped
    assert jcs_string("\b\t\n\f\r\u0000\u001f\u007f\u2028") == '"\\b\\t\\n\\f\\r\\u0000\\u001f\u007f\u2028"'
    sorting = {
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\U0001f600": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis",
    }
    order = [name for name, _ in json.loads(jcs_object(sorting)).items()]
    assert order == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"], order


# ------------------------------------------------------------------- details, text, hash ---
def canonical(details: dict[str, str], confirmation_id: str) -> bytes:
    return jcs_object({**details, "confirmation_id": confirmation_id})


def text_of(details: dict[str, str]) -> dict:
    """The title and lines CONFIRMATIONS.md's "Text" derives from the fields."""
    if details["kind"] == "payment":
        title = f"Pay {details['amount']} {details['currency']} to {details['payee_name']}"
        lines = [f"Account: {details['payee_account']}"] if "payee_account" in details else []
    else:
        title, lines = details["action"], []
    if "reference" in details:
        lines.append(f"Reference: {details['reference']}")
    return {"title": title, "lines": lines}


def confirmation_message(rp_id: str, registration_id: str, challenge: bytes, details_hash: bytes) -> bytes:
    return (
        tv.TAG
        + bytes([CONFIRMATION_CEREMONY])
        + tv.u16_prefixed(rp_id.encode("utf-8"))
        + tv.u16_prefixed(registration_id.encode("utf-8"))
        + tv.u16_prefixed(challenge)
        + tv.u16_prefixed(details_hash)
    )


# ------------------------------------------------------------------------------- the rules ---
# Blocks whose letters look alike (Latin, Greek, Cyrillic) and the phonetic blocks (IPA
# Extensions, Phonetic Extensions and their supplement) no name is written in.
SCRIPT_BLOCKS = {
    "Latin": [(0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xAB30, 0xAB6F)],
    "Greek": [(0x370, 0x3FF), (0x1F00, 0x1FFF)],
    "Cyrillic": [(0x400, 0x52F), (0x1C80, 0x1C8F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F)],
}
PHONETIC_BLOCKS = [(0x250, 0x2AF), (0x1D00, 0x1DBF)]


def in_blocks(char: str, blocks: list[tuple[int, int]]) -> bool:
    return any(low <= ord(char) <= high for low, high in blocks)


def text_rules_broken(text: str, account: bool) -> set[str]:
    """The names of the rules `text` breaks (empty when it may be shown)."""
    broken = set()
    if text == "":
        broken.add("empty")
    if text.startswith(" ") or text.endswith(" ") or "  " in text:
        broken.add("spacing")
    if account:
        if not all(c.isascii() and (c.isalnum() or c in " -./") for c in text):
            broken.add("account_characters")
        return broken
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            broken.add("control")
        elif category == "Cf":
            broken.add("format")
        elif category in ("Co", "Cs", "Cn"):
            broken.add("no_meaning")
        elif category == "Zs" and char != " ":
            broken.add("space")
        if in_blocks(char, PHONETIC_BLOCKS):
            broken.add("phonetic")
    if unicodedata.normalize("NFKC", text) != text:
        broken.add("not_nfkc")
    # str.isalpha (the letter categories) stands in for Unicode's Alphabetic here: in these
    # blocks they differ only in characters the other rules refuse anyway.
    scripts = {name for char in text if char.isalpha() for name, blocks in SCRIPT_BLOCKS.items() if in_blocks(char, blocks)}
    if len(scripts) > 1:
        broken.add("mixed_scripts")
    return broken


def amount_rules_broken(amount: str, currency: str) -> list[tuple[str, str, str]]:
    if currency in NOT_CURRENCIES:
        return [("invalid_currency", "currency", "currency")]
    assert currency in MINOR_DIGITS, f"add {currency!r} to MINOR_DIGITS or NOT_CURRENCIES"
    match = re.fullmatch(r"(0|[1-9][0-9]{0,14})(?:\.([0-9]+))?", amount)
    if match is None:
        return [("invalid_amount", "amount", "amount_format")]
    if len(match.group(2) or "") > MINOR_DIGITS[currency]:
        return [("invalid_amount", "amount", "minor_digits")]
    if not re.search(r"[1-9]", amount):
        return [("invalid_amount", "amount", "zero")]
    return []


SHAPES = {
    "payment": ({"amount", "currency", "payee_name"}, {"amount", "currency", "payee_name", "payee_account", "reference"}),
    "action": ({"action"}, {"action", "reference"}),
}


def problems(details: dict[str, str], confirmation_id: str) -> list[tuple[str, str, str]]:
    """Every (code, field, rule) the details break."""
    if details["kind"] not in SHAPES:
        return [("invalid_confirmation", "kind", "kind")]
    required, allowed = SHAPES[details["kind"]]
    found = [("invalid_confirmation", f, "missing_field") for f in sorted(required - details.keys())]
    found += [("invalid_confirmation", f, "foreign_field") for f in sorted(details.keys() - allowed - {"kind"})]
    for field, limit in MAX_LENGTH.items():
        if field in details:
            if len(details[field]) > limit:
                found.append(("confirmation_too_large", field, "length"))
            rules = text_rules_broken(details[field], account=field == "payee_account")
            found += [("invalid_confirmation_text", field, rule) for rule in sorted(rules)]
    if details["kind"] == "payment" and not required - details.keys():
        found += amount_rules_broken(details["amount"], details["currency"])
    if len(canonical(details, confirmation_id)) > MAX_CANONICAL_BYTES:
        found.append(("confirmation_too_large", "details", "canonical_size"))
    return found


# ------------------------------------------------------------------------------- the cases ---
def confirmation_id(name: str) -> str:
    return "cnf_" + hashlib.sha256(f"BioAuth TEST confirmation {name}".encode()).hexdigest()[:32]


def payment(amount: str, currency: str, payee_name: str, **more: str) -> dict[str, str]:
    return {"kind": "payment", "amount": amount, "currency": currency, "payee_name": payee_name, **more}


def action(what: str, **more: str) -> dict[str, str]:
    return {"kind": "action", "action": what, **more}


def action_of_size(total: int, name: str) -> dict[str, str]:
    """An action whose canonical details take exactly `total` bytes: 4-byte U+20000 characters
    (CJK, no rule refuses them), topped up with ASCII letters."""
    base = len(canonical(action("", reference=""), confirmation_id(name)))
    room = total - base
    wide = min(140, room // 4)
    action_text = "\U00020000" * wide + "a" * min(140 - wide, room - 4 * wide)
    rest = room - len(action_text.encode())
    reference = "\U00020000" * min(140, rest // 4)
    reference += "b" * (rest - len(reference.encode()))
    details = action(action_text, reference=reference)
    assert len(canonical(details, confirmation_id(name))) == total
    return details


VALID = [
    ("payment-all-fields", payment("12.50", "EUR", "Alice Example", payee_account="DE89 3704 0044 0532 0130 00", reference="Invoice 42")),
    ("payment-minimal", payment("5", "EUR", "Bob")),
    ("payment-jpy", payment("1000", "JPY", "株式会社 山田", reference="請求書 7")),
    ("payment-bhd", payment("0.125", "BHD", "Łukasz Müller-Øre")),
    ("payment-cyrillic", payment("5", "RUB", "Сергей Иванов", reference="Счёт 7")),
    ("payment-greek", payment("40.00", "EUR", "Ελένη Παπαδοπούλου")),
    ("payment-clf-four-digits", payment("0.0001", "CLF", "Fondo de Ahorro")),
    ("payment-largest-amount", payment("999999999999999.99", "USD", "A")),
    ("payment-json-escapes", payment("1.00", "EUR", "O'Brien & \"Sons\"", reference="C:\\Orders\\7")),
    ("payment-longest-fields", payment("1.00", "EUR", "N" * 70, payee_account="A" * 64, reference="r" * 140)),
    ("action", action("Add Bob Example as a payee")),
    ("action-with-reference", action("Raise the card limit to 5000 EUR", reference="R-1")),
    ("action-canonical-1024-bytes", action_of_size(1024, "action-canonical-1024-bytes")),
]

ALICE = payment("1.00", "EUR", "Alice")


def with_field(field: str, value: str, base: dict[str, str] = ALICE) -> dict[str, str]:
    return {**base, field: value}


def without(field: str, base: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in base.items() if name != field}


# (name, details, code, field, rule, why)
INVALID = [
    ("kind-unknown", {"kind": "loan", "action": "Take a loan"}, "invalid_confirmation", "kind", "kind", "a kind that is neither payment nor action"),
    ("payment-without-amount", without("amount", ALICE), "invalid_confirmation", "amount", "missing_field", "a payment needs amount"),
    ("payment-without-currency", without("currency", ALICE), "invalid_confirmation", "currency", "missing_field", "a payment needs currency"),
    ("payment-without-payee-name", without("payee_name", ALICE), "invalid_confirmation", "payee_name", "missing_field", "a payment needs payee_name"),
    ("payment-with-action", with_field("action", "Pay"), "invalid_confirmation", "action", "foreign_field", "a payment has no action"),
    ("action-without-action", {"kind": "action", "reference": "R-1"}, "invalid_confirmation", "action", "missing_field", "an action needs action"),
    ("action-with-amount", action("Pay", amount="1.00"), "invalid_confirmation", "amount", "foreign_field", "an action has no amount"),
    ("action-with-currency", action("Pay", currency="EUR"), "invalid_confirmation", "currency", "foreign_field", "an action has no currency"),
    ("action-with-payee-name", action("Pay", payee_name="Bob"), "invalid_confirmation", "payee_name", "foreign_field", "an action has no payee"),
    ("action-with-payee-account", action("Pay", payee_account="DE89"), "invalid_confirmation", "payee_account", "foreign_field", "an action has no account"),
    ("payment-with-unknown-member", with_field("memo", "Not shown"), "invalid_confirmation", "memo", "foreign_field", "a member no version shows"),
]
for name, amount, why in [
    ("empty", "", "empty"),
    ("comma", "1,00", "a comma for the point"),
    ("trailing-point", "1.", "a point without digits after it"),
    ("leading-point", ".5", "no digit before the point"),
    ("leading-zero", "01.00", "a leading zero"),
    ("minus", "-1", "a sign"),
    ("plus", "+1", "a sign"),
    ("exponent", "1e3", "an exponent"),
    ("space", " 1", "a space"),
    ("line-feed", "1.00\n", "a line feed after it"),
    ("full-width-digit", "\uff11", "a full-width digit one"),
    ("arabic-indic-digit", "\u0661", "an Arabic-Indic digit one"),
    ("16-digits", "1000000000000000", "16 integer digits"),
]:
    INVALID.append((f"amount-{name}", with_field("amount", amount), "invalid_amount", "amount", "amount_format", f"not a plain decimal: {why}"))
INVALID += [
    ("amount-zero", with_field("amount", "0"), "invalid_amount", "amount", "zero", "zero"),
    ("amount-zero-with-fraction", with_field("amount", "0.00"), "invalid_amount", "amount", "zero", "zero, written with cents"),
    ("amount-eur-three-digits", with_field("amount", "1.234"), "invalid_amount", "amount", "minor_digits", "EUR has 2 digits after the point"),
    ("amount-jpy-fraction", payment("1.5", "JPY", "Alice"), "invalid_amount", "amount", "minor_digits", "JPY has none"),
    ("amount-jpy-zero-fraction", payment("100.0", "JPY", "Alice"), "invalid_amount", "amount", "minor_digits", "JPY has none, not even .0"),
    ("amount-bhd-four-digits", payment("0.1234", "BHD", "Alice"), "invalid_amount", "amount", "minor_digits", "BHD has 3"),
]
for currency, (name, why) in NOT_CURRENCIES.items():
    INVALID.append((f"currency-{name}", with_field("currency", currency), "invalid_currency", "currency", "currency", f"not an active ISO 4217 code: {why}"))
for name, payee, rule, why in [
    ("bidi-override", "Alice\u202eevil", "format", "a right-to-left override U+202E"),
    ("zero-width-space", "Alice\u200b", "format", "a zero-width space U+200B"),
    ("zero-width-joiner", "Ali\u200dce", "format", "a zero-width joiner U+200D"),
    ("byte-order-mark", "\ufeffAlice", "format", "a byte order mark U+FEFF"),
    ("line-feed", "Alice\nBob", "control", "a line feed"),
    ("bell", "Alice\u0007", "control", "a bell U+0007"),
    ("next-line", "Alice\u0085Bob", "control", "a next line U+0085"),
    ("line-separator", "Alice\u2028Bob", "control", "a line separator U+2028"),
    ("private-use", "Alice\ue000", "no_meaning", "a private-use character U+E000"),
    ("unassigned", "Alice\u0378", "no_meaning", "an unassigned code point U+0378"),
    ("no-break-space", "Alice\u00a0Bob", "space", "a no-break space U+00A0"),
    ("ideographic-space", "Alice\u3000Bob", "space", "an ideographic space U+3000"),
    ("double-space", "Alice  Bob", "spacing", "two spaces in a row"),
    ("leading-space", " Alice", "spacing", "a space at the start"),
    ("trailing-space", "Alice ", "spacing", "a space at the end"),
    ("empty", "", "empty", "empty: the field is left out instead"),
    ("latin-cyrillic", "P\u0430ypal", "mixed_scripts", "Latin with a Cyrillic а U+0430"),
    ("latin-greek", "\u0391lice", "mixed_scripts", "Latin with a Greek capital alpha U+0391"),
    ("full-width", "\uff21\uff2c\uff29\uff23\uff25", "not_nfkc", "full-width letters"),
    ("mathematical-bold", "\U0001d400lice", "not_nfkc", "a mathematical bold capital A U+1D400"),
    ("ligature", "\ufb01nance", "not_nfkc", "the ligature ﬁ U+FB01"),
    ("combining-mark", "e\u0301clair", "not_nfkc", "an e and a combining acute accent, not composed to é"),
    ("circled-digit", "\u2460 Alice", "not_nfkc", "a circled digit one U+2460"),
    ("ipa-letter", "\u0251lice", "phonetic", "the IPA letter ɑ U+0251"),
    ("small-capital", "\u1d00lice", "phonetic", "the small capital ᴀ U+1D00 of the Phonetic Extensions"),
]:
    INVALID.append((f"payee-name-{name}", with_field("payee_name", payee), "invalid_confirmation_text", "payee_name", rule, why))
INVALID += [
    ("reference-bidi-override", with_field("reference", "Invoice \u202e24"), "invalid_confirmation_text", "reference", "format", "a right-to-left override in the reference"),
    ("action-zero-width", action("Add Bob\u200b as a payee"), "invalid_confirmation_text", "action", "format", "a zero-width space in the action"),
    ("action-tab", action("Add\tBob"), "invalid_confirmation_text", "action", "control", "a tab in the action"),
    ("account-non-ascii", with_field("payee_account", "DE89 3704 \u00fc"), "invalid_confirmation_text", "payee_account", "account_characters", "an account with a non-ASCII letter"),
    ("account-one-dot-leader", with_field("payee_account", "DE89\u20241"), "invalid_confirmation_text", "payee_account", "account_characters", "an account with U+2024, which looks like a point"),
    ("account-full-width-digit", with_field("payee_account", "DE\uff18\uff19"), "invalid_confirmation_text", "payee_account", "account_characters", "an account with full-width digits"),
    ("account-underscore", with_field("payee_account", "DE89_3704"), "invalid_confirmation_text", "payee_account", "account_characters", "an account with a character outside -./"),
    ("account-double-space", with_field("payee_account", "DE89  3704"), "invalid_confirmation_text", "payee_account", "spacing", "an account with two spaces in a row"),
    ("payee-name-71", with_field("payee_name", "N" * 71), "confirmation_too_large", "payee_name", "length", "payee_name longer than 70 characters"),
    ("payee-account-65", with_field("payee_account", "A" * 65), "confirmation_too_large", "payee_account", "length", "payee_account longer than 64 characters"),
    ("reference-141", with_field("reference", "r" * 141), "confirmation_too_large", "reference", "length", "reference longer than 140 characters"),
    ("action-141", action("a" * 141), "confirmation_too_large", "action", "length", "action longer than 140 characters"),
    ("action-141-wide", action("\U00020000" * 141), "confirmation_too_large", "action", "length", "141 characters (not bytes or UTF-16 units) are too many"),
    ("canonical-1025-bytes", action_of_size(1025, "canonical-1025-bytes"), "confirmation_too_large", "details", "canonical_size", "canonical details of 1,025 bytes, every field within its length"),
]


# ------------------------------------------------------------------------------ building ---
def build() -> dict:
    tv.self_test_rfc6979()
    self_test_jcs()
    p256 = ec.derive_private_key(int(tv.TEST_ONLY_P256_SCALAR_HEX, 16), ec.SECP256R1())
    ed = ed25519.Ed25519PrivateKey.from_private_bytes(bytes.fromhex(tv.TEST_ONLY_ED25519_SEED_HEX))
    keys = {"ES256": tv.x963(p256.public_key()), "Ed25519": tv.raw_ed25519(ed.public_key())}

    names = [name for name, *_ in VALID + INVALID]
    assert len(names) == len(set(names)), "case names repeat"
    valid = []
    for name, details in VALID:
        cid = confirmation_id(name)
        assert problems(details, cid) == [], (name, problems(details, cid))
        canonical_bytes = canonical(details, cid)
        details_hash = hashlib.sha256(canonical_bytes).digest()
        message = confirmation_message(tv.RP_ID, tv.REGISTRATION_ID, tv.CHALLENGE, details_hash)
        signatures = {"ES256": tv.es256_sign(p256, message), "Ed25519": ed.sign(message)}
        for algorithm, signature in signatures.items():
            assert tv.server_verify(algorithm, keys[algorithm], message, signature) is None, name
        valid.append(
            {
                "name": name,
                "confirmation_id": cid,
                "details": details,
                "canonical_json": canonical_bytes.decode("utf-8"),
                "details_hash": tv.b64url(details_hash),
                "text": text_of(details),
                "message_hex": message.hex(),
                "signatures": {algorithm: tv.b64url(signature) for algorithm, signature in signatures.items()},
            }
        )
    invalid = []
    for name, details, code, field, rule, why in INVALID:
        cid = confirmation_id(name)
        found = problems(details, cid)
        assert {(c, f) for c, f, _ in found} == {(code, field)}, (name, found)
        assert rule in {r for _, _, r in found}, (name, found)
        invalid.append({"name": name, "confirmation_id": cid, "details": details, "code": code, "field": field, "why": why})
    return {
        "description": (
            "BioAuth confirmation test vectors (docs/protocol/CONFIRMATIONS.md), generated by "
            "scripts/make_confirmation_vectors.py. 'valid': details every implementation accepts; "
            "check canonical_json (RFC 8785, UTF-8), details_hash (SHA-256 of it, base64url), "
            "text (title and lines), message_hex (the confirmation message: ceremony byte 0x04, "
            "rp_id, registration_id and challenge below, details_hash) and that both signatures "
            "verify with public_keys (TEST-ONLY keys of scripts/make_test_vectors.py; ES256 in "
            "strict DER with RFC 6979 nonces, Ed25519). 'invalid': details refused with code and "
            "field; each breaks exactly one rule, so the answer does not depend on the order of "
            "the checks."
        ),
        "rp_id": tv.RP_ID,
        "registration_id": tv.REGISTRATION_ID,
        "challenge": tv.b64url(tv.CHALLENGE),
        "public_keys": {algorithm: tv.b64url(key) for algorithm, key in keys.items()},
        "valid": valid,
        "invalid": invalid,
    }


def visible(char: str) -> str:
    """`char` as JSON writes it inside a string, escaped when it is invisible or combining, so
    the file shows no direction override or zero-width character to a reader."""
    if unicodedata.category(char)[0] in "CMZ" and char not in " \n":
        units = char.encode("utf-16-be")
        return "".join(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2))
    return char


def render(doc: dict) -> str:
    text = "".join(visible(char) for char in json.dumps(doc, indent=2, ensure_ascii=False))
    assert json.loads(text) == doc
    return text + "\n"


def main() -> int:
    return tv.main(lambda: render(build()), OUT_PATH, "scripts/make_confirmation_vectors.py", __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
