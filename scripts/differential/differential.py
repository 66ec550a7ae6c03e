"""Differential test of the WebAuthn relying party: the real `bioauth serve` and py_webauthn (PyPI
`webauthn`), an independent verifier, must agree on accepting or refusing the same responses.

Each case is a named mutation of an honest response from the software authenticator beside this file
(authenticator.py). For each, the real ceremony runs against the server (fresh options, so a fresh
single-use challenge, then the response: accepted = 2xx), and py_webauthn's verify_registration_response
/ verify_authentication_response gets the very same response JSON text, the challenge from the
server's options, origin http://localhost:P, RP id "localhost", user verification required, and for an
assertion the COSE key and counter the server holds for that credential (tracked here: an accepted
assertion moves the stored counter on). For registration it also gets the server's pubKeyCredParams
as supported_pub_key_algs (§7.1: "alg" must be one of pkOptions.pubKeyCredParams). py_webauthn keeps no
credentials: finding the stored record by rawId is the relying party's part, done here (an unknown
rawId is refused before py_webauthn is called, as any RP using it would).

Where the server is stricter than py_webauthn on purpose, by the WebAuthn Level 3 text, the case is in
STRICTER with the reason: there the server must refuse and py_webauthn accept; an entry whose verdicts
agree, or where the server accepts what py_webauthn refuses, fails the run like any disagreement.
Steps are numbered as in the Level 3 editor's draft (w3c/webauthn index.bs).

Usage: differential.py [-v] [SUBSTRING...]   runs the cases whose name contains one of them (all by default);
-v adds both verifiers' messages to every line.
Needs $BIOAUTH_BINARY. One line per case; the last line is "N agreed, N disagreed" (a STRICTER case as
listed counts in neither; an error counts as disagreed); exit 1 on any disagreement or error.
"""
import collections
import hashlib
import json
import os
import secrets
import sys
import time
import traceback
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from authenticator import (AT, BE, BS, ED, EDDSA, ES256, ES384, REMOVE, RS256, UP, UV, Credential, Key,  # noqa: E402
                           attested_credential_data, authenticator_data, b64url, b64url_decode, cbor, client_data)
from webauthn import verify_authentication_response, verify_registration_response  # noqa: E402
from webauthn.helpers import base64url_to_bytes  # noqa: E402
from webauthn.helpers.cose import COSEAlgorithmIdentifier  # noqa: E402
from bioauth_server import BioAuthServer, ServerError  # noqa: E402

RP_ID = "localhost"
PASSWORD = "differential test password"
MAX_PASSKEYS = 10            # per account, the server's default
REQUESTS_PER_MINUTE = 550    # the server allows 600 per address per minute

# Case name → why the server refuses what py_webauthn accepts. Each must be: server refused, py_webauthn accepted.
STRICTER = {
    "auth-discoverable-without-user-handle":
        "§7.2 step 6: a ceremony that identified no user needs response.userHandle (py_webauthn is told the credential, so it never asks)",
    "reg-cross-origin-true":
        "§7.1 step 10: crossOrigin true needs an RP that expects an iframe; none is configured (py_webauthn ignores crossOrigin)",
    "auth-cross-origin-true":
        "§7.2 step 13: crossOrigin true needs an RP that expects an iframe; none is configured (py_webauthn ignores crossOrigin)",
    "reg-top-origin":
        "§7.1 step 11: topOrigin must be a page the RP expects to be framed in; none is configured (py_webauthn ignores topOrigin)",
    "auth-top-origin":
        "§7.2 step 14: topOrigin must be a page the RP expects to be framed in; none is configured (py_webauthn ignores topOrigin)",
    "reg-challenge-padded":
        "§7.1 step 8: C.challenge must equal the base64url encoding (§3: no '=') of the challenge; py_webauthn compares decoded bytes",
    "reg-rawid-not-authdata-credential-id":
        "§5.1.3: rawId is authData's credentialId (§7.1 step 27 stores rawId with authData's key); py_webauthn never compares them",
    "reg-credential-id-1024-bytes":
        "§7.1 step 25: a credentialId over 1023 bytes SHOULD fail the ceremony; py_webauthn has no limit",
    "reg-none-unknown-attstmt-member":
        "§8.7: a none statement is the empty map; py_webauthn only looks for the members it knows (sig, x5c, alg, ...)",
    "reg-attestation-object-without-attstmt":
        "§6.5.4: an attestation object has fmt, attStmt and authData (none: attStmt {}); py_webauthn reads a missing attStmt as empty",
    "reg-authenticator-data-copy-differs":
        "§5.2.1.1: the JSON authenticatorData is the attestation object's authData; py_webauthn ignores the copy",
    "reg-base64url-invalid-character":
        "§3 Base64url Encoding has no other characters (RFC 4648 §3.3: reject them); py_webauthn's urlsafe_b64decode skips them",
    "auth-base64url-padded":
        "§3 Base64url Encoding omits every trailing '='; py_webauthn's decoder accepts padding",
    "auth-attested-credential-data":
        "§6.3.3: an assertion's authenticatorData excludes attestedCredentialData (AT clear); py_webauthn parses it and goes on",
    "auth-backup-eligibility-gained":
        "§7.2 step 19: BE was clear at registration, so currentBe must be clear; py_webauthn has no credential record to compare",
    "auth-backup-eligibility-lost":
        "§7.2 step 19: BE was set at registration, so currentBe must be set; py_webauthn has no credential record to compare",
    "auth-user-handle-of-another-user":
        "§7.2 step 6: userHandle must be the handle of the account owning rawId; py_webauthn does not see user handles",
    "auth-credential-not-in-allow-credentials":
        "§7.2 step 5: a username-first ceremony's allowCredentials lists only that user's passkeys; py_webauthn does not see them",
}


class HarnessError(Exception):
    """The test itself could not run a step (not a verdict of either verifier)."""


# The server and its API.

class Server(BioAuthServer):
    """`bioauth serve` on a free loopback port, until stop() (scripts/lib/bioauth_server.py)."""

    def __init__(self, binary):
        try:
            super().__init__(binary, prefix="bioauth-differential.")
        except ServerError as error:
            raise HarnessError(str(error))


class Api:
    """JSON over HTTP to the server, paced under its per-address limit."""

    def __init__(self, base):
        self.base = base
        self.sent = collections.deque()
        self.count = 0

    def _pace(self):
        now = time.monotonic()
        while self.sent and now - self.sent[0] > 60:
            self.sent.popleft()
        if len(self.sent) >= REQUESTS_PER_MINUTE:
            time.sleep(60.5 - (now - self.sent[0]))
        self.sent.append(time.monotonic())
        self.count += 1

    def post(self, path, body=None, token=None):
        """POST `body` (a dict, or JSON text sent as is, or None for no body); returns (status, decoded JSON or None)."""
        self._pace()
        data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method="POST")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, {"raw": raw[:200].decode("utf-8", "replace")}


# Verdicts.

class ServerVerdict:
    def __init__(self, status, answer):
        self.status = status
        self.answer = answer if isinstance(answer, dict) else {}
        if status == 429 or status >= 500 or status < 200 or 300 <= status < 400:
            raise HarnessError(f"the server answered {status}: {self.answer}")
        self.accepted = 200 <= status < 300

    def _error(self):
        error = self.answer.get("error")
        return error if isinstance(error, dict) else {}

    def short(self):
        return f"server {self.status}" if self.accepted else f"server {self.status} {self._error().get('code', '?')}"

    def detail(self):
        message = "" if self.accepted else self._error().get("message", "")
        return f"{self.short()} ({message})" if message else self.short()


class PyVerdict:
    def __init__(self, accepted, name, message=""):
        self.accepted, self.name, self.message = accepted, name, message

    @staticmethod
    def of(call):
        """Runs a py_webauthn verification: returning is accepting, any exception it raises is refusing."""
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001 - every exception out of py_webauthn is its refusal
            return PyVerdict(False, type(exc).__name__, str(exc))
        return PyVerdict(True, type(result).__name__)

    def short(self):
        return f"py_webauthn {self.name}"

    def detail(self):
        return f"py_webauthn {self.name} ({self.message})" if self.message else self.short()


class Trial:
    """Both verdicts on one response."""

    def __init__(self, server, py):
        self.server, self.py = server, py


# Building responses.

def with_padding(text):
    """The RFC 4648 §3.2 padded form (the 37 bytes of an assertion's authenticatorData take two '=')."""
    if len(text) % 4 == 0:
        raise HarnessError("this value needs no padding; pad another one")
    return text + "=" * (-len(text) % 4)


def _value(replacement, honest):
    """`replacement` for the honest value: None keeps it, a function maps it, anything else replaces it."""
    if replacement is None:
        return honest
    return replacement(honest) if callable(replacement) else replacement


def make_registration(cred, challenge, origin, *, fmt="none", flags=None, counter=0, rp_id=RP_ID,
                      cd_type="webauthn.create", cd_challenge=None, cd_origin=None, cd_extra=None, cd_bytes=None,
                      extensions=None, authdata=None, att_stmt=None, stmt_alg=None, stmt_key=None, sign=None,
                      attestation_map=None, canonical=True, attestation_object=None, fix=None):
    """A RegistrationResponseJSON as a browser's toJSON() gives it, for `cred`, with the named parts replaced:
    `cd_bytes`/`authdata`/`sign`/`attestation_object`/`fix` are functions of the honest value, `attestation_map`
    changes the attestation object's members in place before they are encoded (in their order when not `canonical`)."""
    cdata = client_data(cd_type, _value(cd_challenge, challenge), cd_origin or origin, cd_extra)
    if cd_bytes:
        cdata = cd_bytes(cdata)
    if flags is None:
        flags = UP | UV | AT | cred.backup_flags() | (ED if extensions is not None else 0)
    attested = attested_credential_data(cred.aaguid, cred.id, cred.cose) if flags & AT else b""
    auth = authenticator_data(rp_id, flags, counter, attested, cbor(extensions) if extensions is not None else b"")
    if authdata:
        auth = authdata(auth)
    signed = auth + hashlib.sha256(cdata).digest()
    if att_stmt is None:
        if fmt == "packed":
            att_stmt = {"alg": stmt_alg if stmt_alg is not None else cred.key.alg,
                        "sig": (stmt_key or cred.key).sign(sign(signed) if sign else signed)}
        else:
            att_stmt = {}
    members = {"fmt": fmt, "attStmt": att_stmt, "authData": auth}
    if attestation_map:
        attestation_map(members)
    obj = cbor(members, canonical)
    if attestation_object:
        obj = attestation_object(obj)
    response = {
        "id": b64url(cred.id), "rawId": b64url(cred.id), "type": "public-key", "authenticatorAttachment": "platform",
        "clientExtensionResults": {"credProps": {"rk": True}},
        "response": {"clientDataJSON": b64url(cdata), "authenticatorData": b64url(auth), "transports": ["hybrid", "internal"],
                     "publicKey": b64url(cred.key.spki()), "publicKeyAlgorithm": cred.key.alg, "attestationObject": b64url(obj)},
    }
    if fix:
        fix(response)
    return response


def make_assertion(cred, challenge, origin, *, flags=None, counter=None, rp_id=RP_ID, cd_type="webauthn.get",
                   cd_challenge=None, cd_origin=None, cd_extra=None, cd_bytes=None, extensions=None, attested=False,
                   authdata=None, sign_key=None, sign=None, signature=None, user_handle=None, fix=None):
    """An AuthenticationResponseJSON for `cred`, with the named parts replaced. Returns it and the counter used."""
    cdata = client_data(cd_type, _value(cd_challenge, challenge), cd_origin or origin, cd_extra)
    if cd_bytes:
        cdata = cd_bytes(cdata)
    if flags is None:
        flags = UP | UV | cred.backup_flags() | (ED if extensions is not None else 0) | (AT if attested else 0)
    if counter is None:
        counter = cred.next_counter()
    tail = attested_credential_data(cred.aaguid, cred.id, cred.cose) if attested else b""
    auth = authenticator_data(rp_id, flags, counter, tail, cbor(extensions) if extensions is not None else b"")
    if authdata:
        auth = authdata(auth)
    signed = auth + hashlib.sha256(cdata).digest()
    if signature is None:
        signature = (sign_key or cred.key).sign(sign(signed) if sign else signed)
    response = {
        "id": b64url(cred.id), "rawId": b64url(cred.id), "type": "public-key", "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
        "response": {"clientDataJSON": b64url(cdata), "authenticatorData": b64url(auth), "signature": b64url(signature)},
    }
    handle = cred.user_handle if user_handle is None else user_handle
    if handle is not REMOVE:
        response["response"]["userHandle"] = b64url(handle)
    if fix:
        fix(response)
    return response, counter


# The relying party's side: accounts, stored credentials, ceremonies.

class Account:
    def __init__(self, username, token):
        self.username, self.token = username, token
        self.passkeys = 0
        self.user_handle = None


class World:
    def __init__(self, server):
        self.server = server
        self.origin = server.origin
        self.api = Api(f"http://127.0.0.1:{server.port}")
        self.accounts = []
        self.records = {}  # credential id → Credential the server accepted: the RP's credential records

    def new_account(self):
        username = f"diff-{secrets.token_hex(5)}"
        status, answer = self.api.post("/v1/users", {"username": username, "password": PASSWORD})
        if status != 201:
            raise HarnessError(f"creating a user: {status} {answer}")
        status, answer = self.api.post("/v1/sessions/password", {"username": username, "password": PASSWORD})
        if status not in (200, 201) or not answer.get("session_token"):
            raise HarnessError(f"password sign-in: {status} {answer}")
        account = Account(username, answer["session_token"])
        self.accounts.append(account)
        return account

    def account(self):
        """An account with room for one more passkey."""
        for account in self.accounts:
            if account.passkeys < MAX_PASSKEYS:
                return account
        return self.new_account()

    def register(self, cred, account=None, **mutations):
        """Runs a registration ceremony with `cred`'s response, mutated; both verdicts."""
        account = account or self.account()
        status, options = self.api.post("/v1/passkeys/registration-options", token=account.token)
        if status != 201:
            raise HarnessError(f"registration options: {status} {options}")
        public_key = options["public_key"]
        challenge = public_key["challenge"]
        account.user_handle = b64url_decode(public_key["user"]["id"])
        offered = [COSEAlgorithmIdentifier(p["alg"]) for p in public_key["pubKeyCredParams"]]
        counter = mutations.get("counter", 0)
        text = json.dumps(make_registration(cred, challenge, self.origin, **mutations), separators=(",", ":"))
        py = PyVerdict.of(lambda: verify_registration_response(
            credential=text, expected_challenge=b64url_decode(challenge), expected_origin=self.origin, expected_rp_id=RP_ID,
            require_user_verification=True, supported_pub_key_algs=offered))
        body = '{"ceremony_id":%s,"credential":%s}' % (json.dumps(options["ceremony_id"]), text)
        server = ServerVerdict(*self.api.post("/v1/passkeys", body, token=account.token))
        if server.accepted:
            cred.registered, cred.owner, cred.user_handle, cred.stored_count = True, account, account.user_handle, counter
            account.passkeys += 1
            self.records[cred.id] = cred
        return Trial(server, py)

    def authenticate(self, cred, username=None, **mutations):
        """Runs a sign-in ceremony (discoverable, or username-first) with `cred`'s assertion, mutated; both verdicts."""
        status, options = self.api.post("/v1/passkeys/authentication-options", {} if username is None else {"username": username})
        if status != 201:
            raise HarnessError(f"authentication options: {status} {options}")
        challenge = options["public_key"]["challenge"]
        response, counter = make_assertion(cred, challenge, self.origin, **mutations)
        text = json.dumps(response, separators=(",", ":"))
        # The RP's part before py_webauthn: find the credential record by rawId.
        try:
            record = self.records.get(base64url_to_bytes(response["rawId"]))
        except Exception as exc:  # noqa: BLE001
            record, lookup = None, PyVerdict(False, type(exc).__name__, "rawId does not decode")
        else:
            lookup = PyVerdict(False, "no-credential-record", "the RP stores no credential with this rawId")
        if record is None:
            py = lookup
        else:
            py = PyVerdict.of(lambda: verify_authentication_response(
                credential=text, expected_challenge=b64url_decode(challenge), expected_origin=self.origin, expected_rp_id=RP_ID,
                credential_public_key=record.cose, credential_current_sign_count=record.stored_count,
                require_user_verification=True))
        body = '{"ceremony_id":%s,"credential":%s}' % (json.dumps(options["ceremony_id"]), text)
        server = ServerVerdict(*self.api.post("/v1/sessions/passkey", body))
        if server.accepted and record is not None and counter > record.stored_count:
            record.stored_count = counter
        return Trial(server, py)

    # Set-up steps inside a case: both verifiers must accept them, or the case cannot say anything.

    def registered(self, cred, account=None, **mutations):
        trial = self.register(cred, account=account, **mutations)
        if not (trial.server.accepted and trial.py.accepted):
            raise HarnessError(f"set-up registration refused: {trial.server.detail()} / {trial.py.detail()}")
        return cred

    def signed_in(self, cred, **mutations):
        trial = self.authenticate(cred, **mutations)
        if not (trial.server.accepted and trial.py.accepted):
            raise HarnessError(f"set-up sign-in refused: {trial.server.detail()} / {trial.py.detail()}")


# The cases.

CASES = []


def case(name):
    def add(fn):
        CASES.append((name, fn))
        return fn
    return add


def reg(name, make=lambda: Credential(), **mutations):
    """A registration case: a new credential from `make`, its response mutated."""
    case(name)(lambda w: w.register(make(), **mutations))


def auth(name, make=lambda: Credential(), **mutations):
    """An authentication case: a new credential from `make`, registered honestly, then its assertion mutated."""
    case(name)(lambda w: w.authenticate(w.registered(make()), **mutations))


def replace_in_json(path, change):
    """A `fix` that replaces response[...path] with change(old value)."""
    def fix(response):
        target = response
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = change(target[path[-1]])
    return fix


def other_origin(port_delta=0, scheme="http", host="localhost", suffix=""):
    return lambda origin: f"{scheme}://{host}:{int(origin.rsplit(':', 1)[1]) + port_delta}{suffix}"


OTHER_ORIGINS = {
    "other-host": other_origin(host="example.com"),
    "other-port": other_origin(port_delta=1),
    "https": other_origin(scheme="https"),
    "trailing-slash": other_origin(suffix="/"),
}


def insert_char(text):
    return text[:8] + "!" + text[8:]


P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
ED25519_ORDER = 2**252 + 27742317777372353535851937790883648493


def _high_s(signature):
    """The same ECDSA signature with s replaced by n - s: valid too (ECDSA is malleable; WebAuthn does not ask for low s)."""
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
    r, s = decode_dss_signature(signature)
    return encode_dss_signature(r, P256_ORDER - s)


def _unreduced_s(signature):
    """An Ed25519 signature with S + L in place of S: RFC 8032 §5.1.7 requires S < L."""
    s = int.from_bytes(signature[32:], "little") + ED25519_ORDER
    return signature[:32] + s.to_bytes(32, "little")


def der_to_raw(signature):
    """An ES256 DER signature as r ‖ s (the COSE form, which WebAuthn does not use)."""
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    r, s = decode_dss_signature(signature)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


# Registration.
reg("reg-honest-es256-none")
reg("reg-honest-ed25519-none", lambda: Credential(EDDSA))
reg("reg-honest-rs256-none", lambda: Credential(RS256))
reg("reg-honest-es256-packed-self", fmt="packed")
reg("reg-honest-ed25519-packed-self", lambda: Credential(EDDSA), fmt="packed")
reg("reg-honest-rs256-packed-self", lambda: Credential(RS256), fmt="packed")
reg("reg-backup-eligible", lambda: Credential(backup_eligible=True))
reg("reg-backup-eligible-and-backed-up", lambda: Credential(backup_eligible=True, backed_up=True))
reg("reg-extensions-in-authdata", extensions={"credProtect": 2})
reg("reg-nonzero-counter", counter=7)
reg("reg-credential-id-1023-bytes", lambda: Credential(credential_id=os.urandom(1023)))
reg("reg-client-data-extra-members", cd_extra={"other_keys_can_be_added_here": "do not compare clientDataJSON against a template",
                                                "someFutureMember": {"a": [1, 2]}})
reg("reg-client-data-without-cross-origin", cd_extra={"crossOrigin": REMOVE})
reg("reg-user-not-verified", flags=UP | AT)
reg("reg-user-not-present", flags=UV | AT)
reg("reg-backed-up-not-eligible", flags=UP | UV | AT | BS)
reg("reg-attested-data-missing", flags=UP | UV)
reg("reg-type-webauthn-get", cd_type="webauthn.get")
reg("reg-wrong-challenge", cd_challenge=b64url(os.urandom(32)))
reg("reg-challenge-padded", cd_challenge=with_padding)
for _label, _origin in OTHER_ORIGINS.items():
    case(f"reg-origin-{_label}")(lambda w, o=_origin: w.register(Credential(), cd_origin=o(w.origin)))
reg("reg-cross-origin-true", cd_extra={"crossOrigin": True})
case("reg-top-origin")(lambda w: w.register(Credential(), cd_extra={"crossOrigin": True, "topOrigin": w.origin}))
reg("reg-rp-id-hash-of-another-rp", rp_id="example.com")
reg("reg-packed-self-bogus-signature", fmt="packed", att_stmt={"alg": ES256, "sig": os.urandom(70)})
reg("reg-packed-self-signature-over-other-data", fmt="packed", sign=lambda signed: signed[:-32] + hashlib.sha256(b"other").digest())
reg("reg-packed-self-wrong-alg", fmt="packed", stmt_alg=RS256)
reg("reg-packed-self-signed-by-another-key", fmt="packed", stmt_key=Key(ES256))
reg("reg-authdata-truncated", authdata=lambda a: a[:-5])
reg("reg-authdata-trailing-bytes", authdata=lambda a: a + b"\x00\x00")
reg("reg-rawid-not-authdata-credential-id", fix=lambda r, other=b64url(os.urandom(32)): r.update(id=other, rawId=other))
reg("reg-id-not-base64url-of-rawid", fix=lambda r: r.update(id=b64url(os.urandom(32))))
reg("reg-alg-not-offered-es384", lambda: Credential(ES384))
reg("reg-none-with-signature", att_stmt={"sig": os.urandom(64)})
reg("reg-none-unknown-attstmt-member", att_stmt={"note": "x"})
reg("reg-unknown-format", fmt="example-format")
reg("reg-format-none-wrong-case", fmt="None")
reg("reg-attestation-object-not-cbor", attestation_object=lambda obj: b"\xff" + obj)
reg("reg-attestation-object-without-attstmt", attestation_map=lambda m: m.pop("attStmt"))
reg("reg-attestation-object-extra-member", attestation_map=lambda m: m.update(epAtt=False))
reg("reg-attestation-object-members-not-canonical", attestation_map=lambda m: _reverse(m), canonical=False)
reg("reg-cose-key-members-not-canonical", lambda: _cose_not_canonical(Credential()))
reg("reg-ed-flag-without-extensions", flags=UP | UV | AT | ED)
reg("reg-credential-id-1024-bytes", lambda: Credential(credential_id=os.urandom(1024)))
reg("reg-authenticator-data-copy-differs", fix=replace_in_json(("response", "authenticatorData"),
                                                               lambda a: b64url(b64url_decode(a)[:-1] + b"\x00")))
reg("reg-authenticator-data-copy-absent", fix=lambda r: r["response"].pop("authenticatorData"))
reg("reg-client-data-not-json", cd_bytes=lambda cd: b"webauthn.create " + cd)
reg("reg-client-data-utf8-bom", cd_bytes=lambda cd: b"\xef\xbb\xbf" + cd)
reg("reg-credential-type-not-public-key", fix=lambda r: r.update(type="password"))
reg("reg-base64url-invalid-character", fix=replace_in_json(("response", "clientDataJSON"), insert_char))
reg("reg-base64url-impossible-length", fix=replace_in_json(("response", "attestationObject"), lambda t: t + "A" * ((1 - len(t)) % 4)))


# Authentication.
# Probed and left out, as neither side is wrong by the specification: clientDataJSON with an invalid UTF-8 byte
# in an extra member (the server accepts, as §7.2 step 8's "UTF-8 decode" replaces it with U+FFFD; py_webauthn
# refuses), and with a duplicated member (the server reads the first "origin", Python's json the last; §7.2
# step 9 leaves the JSON parser to the implementation).
auth("auth-honest-es256")
auth("auth-honest-ed25519", lambda: Credential(EDDSA))
auth("auth-honest-rs256", lambda: Credential(RS256))
auth("auth-honest-backup-eligible-and-backed-up", lambda: Credential(backup_eligible=True, backed_up=True))
case("auth-honest-username-first")(lambda w: _username_first(w))
case("auth-username-first-without-user-handle")(lambda w: _username_first(w, user_handle=REMOVE))
# §7.2 step 6: a ceremony that named no user must refuse a response without userHandle (STRICTER).
auth("auth-discoverable-without-user-handle", user_handle=REMOVE)
auth("auth-extensions-in-authdata", extensions={"appid": False})
auth("auth-client-data-extra-members", cd_extra={"other_keys_can_be_added_here": "x", "someFutureMember": True})
auth("auth-client-data-utf8-bom", cd_bytes=lambda cd: b"\xef\xbb\xbf" + cd)
auth("auth-user-not-verified", flags=UP)
auth("auth-user-not-present", flags=UV)
auth("auth-backed-up-not-eligible", flags=UP | UV | BS)
case("auth-backup-state-changes")(lambda w: w.authenticate(w.registered(Credential(backup_eligible=True)), flags=UP | UV | BE | BS))
case("auth-backup-eligibility-gained")(lambda w: w.authenticate(w.registered(Credential()), flags=UP | UV | BE))
case("auth-backup-eligibility-lost")(lambda w: w.authenticate(w.registered(Credential(backup_eligible=True)), flags=UP | UV))
auth("auth-type-webauthn-create", cd_type="webauthn.create")
auth("auth-wrong-challenge", cd_challenge=b64url(os.urandom(32)))
for _label, _origin in OTHER_ORIGINS.items():
    case(f"auth-origin-{_label}")(lambda w, o=_origin: w.authenticate(w.registered(Credential()), cd_origin=o(w.origin)))
auth("auth-cross-origin-true", cd_extra={"crossOrigin": True})
case("auth-top-origin")(lambda w: w.authenticate(w.registered(Credential()), cd_extra={"crossOrigin": True, "topOrigin": w.origin}))
auth("auth-rp-id-hash-of-another-rp", rp_id="example.com")
auth("auth-bogus-signature", signature=os.urandom(71))
auth("auth-empty-signature", signature=b"")
auth("auth-signature-over-other-client-data", sign=lambda signed: signed[:-32] + hashlib.sha256(b"{}").digest())
auth("auth-signature-over-authdata-only", sign=lambda signed: signed[:-32])
auth("auth-ed25519-signature-over-other-data", lambda: Credential(EDDSA), sign=lambda signed: signed + b"\x00")
auth("auth-rs256-bogus-signature", lambda: Credential(RS256), signature=os.urandom(256))
auth("auth-es256-signature-high-s", fix=replace_in_json(("response", "signature"), lambda s: b64url(_high_s(b64url_decode(s)))))
auth("auth-ed25519-signature-s-not-reduced", lambda: Credential(EDDSA),
     fix=replace_in_json(("response", "signature"), lambda s: b64url(_unreduced_s(b64url_decode(s)))))
auth("auth-es256-signature-not-der", fix=replace_in_json(("response", "signature"),
                                                                    lambda s: b64url(der_to_raw(b64url_decode(s)))))
case("auth-signed-by-another-credential")(lambda w: w.authenticate(w.registered(Credential()), sign_key=Key(ES256)))
auth("auth-authdata-truncated", authdata=lambda a: a[:36])
auth("auth-authdata-trailing-bytes", authdata=lambda a: a + b"\x00")
auth("auth-at-flag-without-attested-data", flags=UP | UV | AT)
auth("auth-attested-credential-data", attested=True)
case("auth-rawid-of-another-credential")(lambda w: _rawid_of_another(w))
auth("auth-id-not-base64url-of-rawid", fix=lambda r: r.update(id=b64url(os.urandom(32))))
auth("auth-credential-type-not-public-key", fix=lambda r: r.update(type="password"))
case("auth-counter-regression")(lambda w: _counter_replay(w, first=5, then=5))
case("auth-counter-lower")(lambda w: _counter_replay(w, first=9, then=4))
case("auth-counter-reset-to-zero")(lambda w: _counter_replay(w, first=3, then=0))
case("auth-counter-increases")(lambda w: _counter_replay(w, first=3, then=4))
auth("auth-counters-zero", lambda: Credential(counter=False))
auth("auth-counter-maximum", counter=0xFFFFFFFF)
case("auth-counters-zero-twice")(lambda w: _counter_zero_twice(w))
case("auth-user-handle-of-another-user")(lambda w: _user_handle_of_another(w))
case("auth-unregistered-credential")(lambda w: _unregistered(w))
case("auth-credential-not-in-allow-credentials")(lambda w: _not_allowed(w))
auth("auth-base64url-padded", fix=replace_in_json(("response", "authenticatorData"), with_padding))
auth("auth-base64url-impossible-length", fix=replace_in_json(("response", "authenticatorData"), lambda t: t + "A" * ((1 - len(t)) % 4)))
auth("auth-client-data-not-json", cd_bytes=lambda cd: cd[:-1])


def _reverse(members):
    reordered = dict(reversed(list(members.items())))
    members.clear()
    members.update(reordered)


def _cose_not_canonical(cred):
    """The credential with its COSE_Key members in the order alg, kty, y, x, crv (valid CBOR, not CTAP2 canonical)."""
    numbers = cred.key.public.public_numbers()
    cred.cose = cbor({3: ES256, 1: 2, -3: numbers.y.to_bytes(32, "big"), -2: numbers.x.to_bytes(32, "big"), -1: 1}, canonical=False)
    return cred


def _username_first(w, **mutations):
    cred = w.registered(Credential())
    return w.authenticate(cred, username=cred.owner.username, **mutations)


def _rawid_of_another(w):
    """rawId names a second registered credential of the same account; the first one signs."""
    account = w.new_account()
    signer = w.registered(Credential(), account=account)
    named = w.registered(Credential(), account=account)
    return w.authenticate(signer, fix=lambda r: r.update(id=b64url(named.id), rawId=b64url(named.id)))


def _counter_replay(w, first, then):
    cred = w.registered(Credential())
    w.signed_in(cred, counter=first)
    return w.authenticate(cred, counter=then)


def _counter_zero_twice(w):
    cred = w.registered(Credential(counter=False))
    w.signed_in(cred)
    return w.authenticate(cred)


def _unregistered(w):
    """A credential the server never saw, claiming the user handle of an account that has a passkey."""
    known = w.registered(Credential())
    stranger = Credential()
    stranger.user_handle = known.user_handle
    return w.authenticate(stranger)


def _user_handle_of_another(w):
    cred = w.registered(Credential())
    other = w.new_account()
    w.registered(Credential(), account=other)  # learns the other account's handle
    return w.authenticate(cred, user_handle=other.user_handle)


def _not_allowed(w):
    """A username-first ceremony for one account, answered by another account's passkey."""
    cred = w.registered(Credential())
    other = w.new_account()
    w.registered(Credential(), account=other)
    return w.authenticate(cred, username=other.username)


# Running and comparing.

def verdict_word(accepted):
    return "accepted" if accepted else "refused"


def main(argv):
    binary = os.environ.get("BIOAUTH_BINARY")
    if not binary:
        print("differential: set BIOAUTH_BINARY", file=sys.stderr)
        return 2
    names = [name for name, _ in CASES]
    duplicates = {n for n in names if names.count(n) > 1}
    unknown = set(STRICTER) - set(names)
    if duplicates or unknown:
        print(f"differential: duplicate case names {sorted(duplicates)}, STRICTER entries without a case {sorted(unknown)}")
        print("0 agreed, 1 disagreed")
        return 1
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    selected = [(n, fn) for n, fn in CASES if not argv or any(a in n for a in argv)]
    agreed = stricter = disagreed = 0
    started = time.monotonic()
    try:
        server = Server(binary)
    except HarnessError as exc:
        print(f"ERROR server: {exc}")
        print("0 agreed, 1 disagreed")
        return 1
    try:
        world = World(server)
        for name, run in selected:
            try:
                trial = run(world)
            except HarnessError as exc:
                print(f"ERROR {name}: {exc}", flush=True)
                disagreed += 1
                continue
            except Exception:  # noqa: BLE001
                print(f"ERROR {name}: {traceback.format_exc().strip()}", flush=True)
                disagreed += 1
                continue
            s, p = trial.server, trial.py
            both = f"({s.detail()} / {p.detail()})" if verbose else f"({s.short()} / {p.short()})"
            if name in STRICTER:
                if not s.accepted and p.accepted:
                    print(f"STRICTER {name}: {STRICTER[name]} {both}", flush=True)
                    stricter += 1
                else:
                    print(f"DISAGREE {name}: listed as STRICTER (server refuses, py_webauthn accepts) but server "
                          f"{verdict_word(s.accepted)}, py_webauthn {verdict_word(p.accepted)} ({s.detail()} / {p.detail()})", flush=True)
                    disagreed += 1
            elif s.accepted == p.accepted:
                print(f"AGREE {name}: both {verdict_word(s.accepted)} {both}", flush=True)
                agreed += 1
            else:
                print(f"DISAGREE {name}: server {verdict_word(s.accepted)}, py_webauthn {verdict_word(p.accepted)} "
                      f"({s.detail()} / {p.detail()})", flush=True)
                disagreed += 1
    finally:
        server.stop()
    print(f"{len(selected)} cases in {time.monotonic() - started:.1f}s ({world.api.count} requests): {agreed} agreed, "
          f"{stricter} stricter by the specification (as listed), {disagreed} disagreed or failed")
    print(f"{agreed} agreed, {disagreed} disagreed")
    return 1 if disagreed or not selected else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
