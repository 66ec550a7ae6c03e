"""The bank's backend in the confirmation scenario: a service credential made with `bioauth admin`,
confirmations created and read over HTTP with it, and the message a passkey must sign for one,
built here independently of the server (docs/protocol/CONFIRMATIONS.md)."""
import hashlib
import json
import re
import struct
import subprocess
import urllib.error
import urllib.request


def service_credential(server, name="bank"):
    """`bioauth admin service-credentials create --name NAME` on the server's database: the
    credential it shows once."""
    result = subprocess.run([server.binary, "admin", "service-credentials", "create", "--name", name, "--database", server.database],
                            capture_output=True, text=True, env=server.env, timeout=60, check=True)
    printed = result.stdout
    found = re.search(r"\b(bsc_[A-Za-z0-9_-]+)", printed)
    if not found:
        raise AssertionError(f"no service credential in: {printed!r}")
    return found.group(1)


def call(server, credential, method, path, body=None):
    """One call of the backend: (status, JSON body)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.origin + path, data=data, method=method, headers={
        "Authorization": f"Bearer {credential}", "Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def create_payment(server, credential, user_id, amount, payee, reference=None):
    details = {"kind": "payment", "amount": amount, "currency": "EUR", "payee_name": payee}
    if reference:
        details["reference"] = reference
    status, body = call(server, credential, "POST", "/v1/service/confirmations", {"user_id": user_id, "details": details})
    if status != 201:
        raise AssertionError(f"creating a confirmation answered {status}: {body}")
    return body


def get(server, credential, confirmation_id):
    status, body = call(server, credential, "GET", f"/v1/service/confirmations/{confirmation_id}")
    if status != 200:
        raise AssertionError(f"reading confirmation {confirmation_id} answered {status}: {body}")
    return body


def details_hash(details, confirmation_id):
    """SHA-256 of the canonical details: RFC 8785 over string members (sorted, no whitespace; the
    scenario's values are ASCII, so JSON's default escaping is JCS's)."""
    canonical = json.dumps({**details, "confirmation_id": confirmation_id}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).digest()


def field(value):
    return struct.pack(">H", len(value)) + value


def message(rp_id, challenge, digest):
    """"BIOAUTH-V1" 0x00 | 0x04 | rp_id | registration_id (empty) | challenge | details_hash, each u16-prefixed."""
    return b"BIOAUTH-V1\x00\x04" + field(rp_id.encode()) + field(b"") + field(challenge) + field(digest)
