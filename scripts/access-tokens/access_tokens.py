"""BioAuth's access tokens judged by two verifiers that share no code with the server: PyJWT (PyPI,
with PyJWKClient reading the key set) and the example backend Examples/ResourceServer (jwt-kit),
against real `bioauth serve` processes on loopback.

Servers, all on one SQLite file and so one set of signing keys (a token of B, C or F is validly
signed by a key in A's set; only its claims differ):
    A  --issuer http://127.0.0.1:PA --access-token-audience bank-api --access-token-lifetime 30
    B  like A but --issuer http://127.0.0.1:PB                                  (another issuer)
    C  like A but --access-token-audience other-api                             (another audience)
    F  like A, under `faketime -f +600s`: its tokens' nbf is ten minutes ahead  (not yet valid)
and G on a database of its own with --access-token-algorithm EdDSA. The example backend runs for
A twice: E1 finds A's key set through A's RFC 8414 metadata; E2 reads it from a counting proxy in
this process (--jwks-url), to count its fetches; and once for G.

Scenarios: genuine tokens verify (both verifiers), `POST /transfer` wants a recent step-up, the
example's refetch on an unknown kid is rate-limited, and each hostile token is refused by BOTH
verifiers for the reason named in its case (the example's `error_description`, PyJWT's exception
class), so a refusal for some other reason fails. Last, no token (access or session) appears in
anything a server or the example printed.

Usage: access_tokens.py [SUBSTRING...]   runs the scenarios whose name contains one of them (all by
default; the token-in-logs check always runs). Needs $BIOAUTH_BINARY and $RESOURCE_SERVER_BINARY, and faketime on PATH.
One line per scenario; the last line is "N refused as expected by PyJWT and the example backend,
M scenarios passed, K failed"; exit 1 on any failure.
"""
import base64
import hashlib
import hmac
import json
import os
import queue
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from jwt import PyJWKClient

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from bioauth_server import BioAuthServer, free_port  # noqa: E402

AUDIENCE = "bank-api"
OTHER_AUDIENCE = "other-api"
LIFETIME = 30             # --access-token-lifetime, the server's least
LEEWAY = 1                # the example's --leeway
STEP_UP_MAX_AGE = 8       # the example's --step-up-max-age for POST /transfer
REFETCH_INTERVAL = 10     # E2's --key-refetch-interval
PASSWORD = "access token test password"
PIN = "73952814"
RELYING_PARTY = "localhost"   # bioauth serve's default --relying-party
ALGORITHMS = ["ES256", "EdDSA"]


class Failure(Exception):
    """A scenario's expectation did not hold."""


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_json(value):
    return b64url(json.dumps(value, separators=(",", ":")).encode("utf-8"))


def parts(token):
    header, payload, signature = token.split(".")
    pad = lambda s: s + "=" * (-len(s) % 4)  # noqa: E731
    return (json.loads(base64.urlsafe_b64decode(pad(header))), json.loads(base64.urlsafe_b64decode(pad(payload))), signature)


def http(method, url, body=None, token=None):
    """(status, headers, decoded JSON or None)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, headers, raw = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, error.headers, error.read()
    try:
        return status, headers, json.loads(raw) if raw else None
    except ValueError:
        return status, headers, None


def signed_message(ceremony, registration_id, challenge):
    """docs/PROTOCOL.md §2: "BIOAUTH-V1" NUL, the ceremony byte, then the relying party, the
    registration id and the challenge's bytes, each after its 2-byte big-endian length."""
    def field(data):
        return len(data).to_bytes(2, "big") + data
    raw = base64.urlsafe_b64decode(challenge + "=" * (-len(challenge) % 4))
    return b"BIOAUTH-V1\x00" + bytes([ceremony]) + field(RELYING_PARTY.encode()) + field(registration_id.encode()) + field(raw)


# The processes.

class Server(BioAuthServer):
    """`bioauth serve` with access tokens (see the module's docstring)."""

    def __init__(self, issuer_port=None, audience=AUDIENCE, database=None, wrapper=(), extra_args=()):
        port = free_port()
        self.issuer = f"http://127.0.0.1:{issuer_port or port}"
        super().__init__(prefix="bioauth-access-tokens.", port=port, database=database, wrapper=wrapper, extra_args=[
            "--issuer", self.issuer, "--access-token-audience", audience,
            "--access-token-lifetime", str(LIFETIME), "--log-level", "debug", *extra_args])
        self.base = f"http://127.0.0.1:{port}"
        self.tokens = []  # every session and access token it handed out, for the log check

    def sign_in(self, username):
        status, _, answer = http("POST", self.base + "/v1/sessions/password", {"username": username, "password": PASSWORD})
        if status not in (200, 201):
            raise Failure(f"password sign-in: {status} {answer}")
        self.tokens.append(answer["session_token"])
        return answer["session_token"]

    def sign_up(self):
        username = f"tokens-{secrets.token_hex(5)}"
        status, _, answer = http("POST", self.base + "/v1/users", {"username": username, "password": PASSWORD})
        if status != 201:
            raise Failure(f"sign-up: {status} {answer}")
        if answer and answer.get("session_token"):
            self.tokens.append(answer["session_token"])
        return username

    def pin_session(self, session):
        """Sets a PIN with a new PIN key (P-256, made here, as the phone's hardware would) from a
        password session, then signs in with it (docs/PROTOCOL.md §4.3): the PIN session's token."""
        key = ec.generate_private_key(ec.SECP256R1())
        point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        status, _, started = http("PUT", self.base + "/v1/users/me/pin",
                                  {"pin": PIN, "algorithm": "ES256", "public_key": b64url(point)}, token=session)
        if status not in (200, 201):
            raise Failure(f"setPin: {status} {started}")
        registration = started["registration_id"]
        signature = key.sign(signed_message(0x01, registration, started["challenge"]), ec.ECDSA(hashes.SHA256()))
        status, _, answer = http("POST", self.base + f"/v1/biometric/registrations/{registration}/verify",
                                 {"signature": b64url(signature)}, token=session)
        if status not in (200, 201):
            raise Failure(f"verifyRegistration of the PIN key: {status} {answer}")
        status, _, challenge = http("POST", self.base + "/v1/biometric/challenges", {"registration_id": registration})
        if status not in (200, 201):
            raise Failure(f"createChallenge: {status} {challenge}")
        signature = key.sign(signed_message(0x02, registration, challenge["challenge"]), ec.ECDSA(hashes.SHA256()))
        status, _, answer = http("POST", self.base + "/v1/sessions/pin",
                                 {"challenge_id": challenge["challenge_id"], "signature": b64url(signature), "pin": PIN})
        if status not in (200, 201):
            raise Failure(f"PIN sign-in: {status} {answer}")
        self.tokens.append(answer["session_token"])
        return answer["session_token"]

    def access_token(self, session):
        """POST /v1/sessions/current/access-token: the token, after checking the answer's shape."""
        status, _, answer = http("POST", self.base + "/v1/sessions/current/access-token", {}, token=session)
        if status != 200:
            raise Failure(f"minting an access token: {status} {answer}")
        if answer.get("token_type") != "Bearer" or not isinstance(answer.get("expires_in"), int) or "expires_at" not in answer:
            raise Failure(f"the access-token answer's shape: {sorted(answer)}")
        self.tokens.append(answer["access_token"])
        return answer["access_token"]


class Example:
    """The example backend (Examples/ResourceServer) on a free loopback port, until stop()."""

    def __init__(self, issuer, extra_args=()):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        binary = os.environ["RESOURCE_SERVER_BINARY"]
        self.workdir = tempfile.mkdtemp(prefix="bioauth-resource-server.")
        self.stderr_path = os.path.join(self.workdir, "stderr")
        self.stderr = open(self.stderr_path, "wb")
        self.command = [binary, "--issuer", issuer, "--audience", AUDIENCE, "--port", str(self.port),
                        "--leeway", str(LEEWAY), "--step-up-max-age", str(STEP_UP_MAX_AGE), *extra_args]
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=self.stderr, stdin=subprocess.DEVNULL)
        self.output = []
        lines = queue.Queue()

        def pump():
            for raw in self.process.stdout:
                self.output.append(raw.decode("utf-8", "replace"))
                lines.put(self.output[-1])
            lines.put(None)
        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            if "listening" in line:
                return
        self.stop()
        raise Failure(f"the example backend did not start: {self.logs()[-2000:]}")

    def call(self, method, path, token):
        """(status, the WWW-Authenticate header or None, body)."""
        status, headers, body = http(method, self.base + path, token=token)
        return status, headers.get("WWW-Authenticate"), body

    def logs(self):
        with open(self.stderr_path, "rb") as f:
            return "".join(self.output) + f.read().decode("utf-8", "replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.stderr.close()


class CountingProxy:
    """GET on loopback, passed on to `upstream` (its status, body and Cache-Control), counted."""

    def __init__(self, upstream):
        self.fetches = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                proxy.fetches += 1
                with urllib.request.urlopen(upstream + self.path, timeout=10) as answer:
                    body, cache = answer.read(), answer.headers.get("Cache-Control")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if cache:
                    self.send_header("Cache-Control", cache)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


# The two verifiers.

class PyJWTVerifier:
    """What a Python backend does with PyJWT: the key set from the issuer's RFC 8414 metadata
    through PyJWKClient, then jwt.decode with the algorithms, issuer and audience it expects."""

    def __init__(self, issuer):
        status, _, metadata = http("GET", issuer + "/.well-known/oauth-authorization-server")
        if status != 200 or metadata.get("issuer") != issuer or not metadata.get("jwks_uri"):
            raise Failure(f"the RFC 8414 metadata: {status} {metadata}")
        self.issuer = issuer
        self.jwks_uri = metadata["jwks_uri"]
        self.client = PyJWKClient(self.jwks_uri)

    def verify(self, token):
        """The claims, or the exception PyJWT raised."""
        if jwt.get_unverified_header(token).get("typ") != "at+jwt":
            raise jwt.InvalidTokenError("typ is not at+jwt")
        key = self.client.get_signing_key_from_jwt(token)
        return jwt.decode(token, key.key, algorithms=ALGORITHMS, issuer=self.issuer, audience=AUDIENCE,
                          options={"require": ["exp", "iat", "iss", "aud", "sub", "jti"]})

    def verdict(self, token):
        """None if PyJWT accepted the token, else its exception's class name."""
        try:
            self.verify(token)
        except jwt.PyJWTError as error:
            return type(error).__name__
        return None


class Run:
    """The processes and what the scenarios share."""

    def __init__(self):
        self.a = Server()
        self.others = []
        self.others.append(Server(database=self.a.database))                              # B: its own issuer
        self.b = self.others[-1]
        self.others.append(Server(issuer_port=self.a.port, audience=OTHER_AUDIENCE, database=self.a.database))
        self.c = self.others[-1]
        faketime = ["env", "FAKETIME_DONT_FAKE_MONOTONIC=1", "faketime", "-f", "+600s"]
        self.others.append(Server(issuer_port=self.a.port, database=self.a.database, wrapper=faketime))
        self.f = self.others[-1]
        self.pyjwt = PyJWTVerifier(self.a.issuer)
        self.example = Example(self.a.issuer)
        self.proxy = CountingProxy(self.a.base)
        self.counted = Example(self.a.issuer, ["--jwks-url", self.proxy.url + "/.well-known/jwks.json",
                                              "--key-refetch-interval", str(REFETCH_INTERVAL)])
        self.examples = [self.example, self.counted]
        self.refused = 0
        self.username = self.a.sign_up()

    def servers(self):
        return [self.a, *self.others]

    def genuine(self, server=None):
        """A fresh session of the shared user on `server` (A by default) and a token minted for it."""
        server = server or self.a
        session = server.sign_in(self.username)
        return session, server.access_token(session)

    def refused_by_both(self, token, example_reason, pyjwt_error):
        """The example answers 401 invalid_token with `example_reason`, PyJWT raises `pyjwt_error`."""
        status, challenge, _ = self.example.call("GET", "/balance", token)
        expected = f'Bearer error="invalid_token", error_description="{example_reason}"'
        if status != 401 or challenge != expected:
            raise Failure(f"the example answered {status} {challenge!r}, expected 401 {expected!r}")
        verdict = self.pyjwt.verdict(token)
        if verdict != pyjwt_error:
            raise Failure(f"PyJWT: {verdict or 'accepted'}, expected {pyjwt_error}")
        self.refused += 1
        return f"example 401 ({example_reason}), PyJWT {pyjwt_error}"

    def stop(self):
        for process in [*self.examples, *self.others, self.a]:
            try:
                process.stop()
            except Exception:  # noqa: BLE001 - stopping the rest matters more
                pass
        self.proxy.stop()


# Building hostile tokens.

def jws(header, claims, signature=""):
    return f"{b64url_json(header)}.{b64url_json(claims)}.{signature}"


def signed_with_own_key(claims, kid):
    """A token signed by a P-256 key made here, which no key set holds."""
    key = ec.generate_private_key(ec.SECP256R1())
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": kid, "typ": "at+jwt"})


def key_set(run):
    status, headers, body = http("GET", run.pyjwt.jwks_uri)
    if status != 200 or not body.get("keys"):
        raise Failure(f"the key set: {status} {body}")
    return body, headers


# Scenarios: each returns what it showed, or raises Failure.

def genuine_token_verifies(run):
    _, token = run.genuine()
    header, claims, _ = parts(token)
    if header.get("typ") != "at+jwt" or header.get("alg") not in ALGORITHMS or not header.get("kid"):
        raise Failure(f"the header: {header}")
    try:
        decoded = run.pyjwt.verify(token)
    except jwt.PyJWTError as error:
        raise Failure(f"PyJWT refused a genuine token: {type(error).__name__}: {error}")
    if decoded["exp"] - decoded["iat"] != LIFETIME or "pwd" not in decoded.get("amr", []) or not decoded.get("sid"):
        raise Failure(f"the claims: {sorted(decoded)} amr {decoded.get('amr')} lifetime {decoded['exp'] - decoded['iat']}")
    status, _, body = run.example.call("GET", "/balance", token)
    if status != 200 or body.get("account") != claims["sub"]:
        raise Failure(f"the example answered {status} {body}")
    return f"{header['alg']}, amr {claims['amr']}, {LIFETIME} s: PyJWT accepts, the example's GET /balance is 200 for sub"


def eddsa_token_verifies(run):
    """A server of its own (its own database and so its own keys) told --access-token-algorithm
    EdDSA, and an example backend for it."""
    server = Server(extra_args=["--access-token-algorithm", "EdDSA"])
    run.others.append(server)
    run.examples.append(Example(server.issuer))
    session = server.sign_in(server.sign_up())
    token = server.access_token(session)
    header, claims, _ = parts(token)
    if header.get("alg") != "EdDSA":
        raise Failure(f"the header: {header}")
    try:
        PyJWTVerifier(server.issuer).verify(token)
    except jwt.PyJWTError as error:
        raise Failure(f"PyJWT refused a genuine EdDSA token: {type(error).__name__}: {error}")
    status, _, body = run.examples[-1].call("GET", "/balance", token)
    if status != 200 or body.get("account") != claims["sub"]:
        raise Failure(f"the example answered {status} {body}")
    return "Ed25519: PyJWT accepts, the example's GET /balance is 200"


def key_set_is_cacheable(run):
    body, headers = key_set(run)
    cache = headers.get("Cache-Control") or ""
    if "max-age=" not in cache:
        raise Failure(f"Cache-Control: {cache!r}")
    if any("d" in key for key in body["keys"]):
        raise Failure("the key set holds a private key")
    return f"{len(body['keys'])} key(s), Cache-Control {cache!r}, no private part"


def transfer_wants_recent_step_up(run):
    session, token = run.genuine()
    status, _, body = run.example.call("POST", "/transfer", token)
    if status != 200:
        raise Failure(f"right after a password sign-in (a strong factor), POST /transfer: {status} {body}")
    time.sleep(STEP_UP_MAX_AGE + 2)
    token = run.a.access_token(session)
    status, challenge, _ = run.example.call("POST", "/transfer", token)
    if status != 401 or not (challenge or "").startswith('Bearer error="insufficient_user_authentication"') \
            or f"max_age={STEP_UP_MAX_AGE}" not in challenge:
        raise Failure(f"a step-up {STEP_UP_MAX_AGE + 2} s old: {status} {challenge!r}")
    status, _, _ = run.example.call("GET", "/balance", token)
    if status != 200:
        raise Failure(f"GET /balance with that token: {status}")
    status, _, answer = http("POST", run.a.base + "/v1/sessions/current/reauthenticate", {"password": PASSWORD}, token=session)
    if status != 200:
        raise Failure(f"reauthenticate: {status} {answer}")
    status, _, body = run.example.call("POST", "/transfer", run.a.access_token(session))
    if status != 200:
        raise Failure(f"after re-authenticating, POST /transfer: {status} {body}")
    return f"fresh step-up 200; {STEP_UP_MAX_AGE + 2} s old 401 insufficient_user_authentication (GET /balance 200); re-authenticated 200"


def made_up_kids(run, claims, count):
    """Sends `count` tokens with made-up kids to E2; returns (key-set fetches, seconds it took)."""
    before, started = run.proxy.fetches, time.monotonic()
    for _ in range(count):
        status, challenge, _ = run.counted.call("GET", "/balance", signed_with_own_key(claims, f"made-up-{secrets.token_hex(6)}"))
        if status != 401 or "kid is not in the key set" not in (challenge or ""):
            raise Failure(f"a made-up kid: {status} {challenge!r}")
    return run.proxy.fetches - before, time.monotonic() - started


def pin_session_has_no_step_up(run):
    """A PIN never counts as a strong factor: its session's token has no step_up_at, so POST
    /transfer is refused however fresh the token; GET /balance takes it."""
    session = run.a.pin_session(run.a.sign_in(run.username))
    token = run.a.access_token(session)
    try:
        claims = run.pyjwt.verify(token)
    except jwt.PyJWTError as error:
        raise Failure(f"PyJWT refused a PIN session's token: {type(error).__name__}: {error}")
    if "step_up_at" in claims or "pin" not in claims.get("amr", []):
        raise Failure(f"a PIN session's claims: amr {claims.get('amr')}, step_up_at {claims.get('step_up_at')}")
    status, challenge, _ = run.example.call("POST", "/transfer", token)
    if status != 401 or not (challenge or "").startswith('Bearer error="insufficient_user_authentication"'):
        raise Failure(f"POST /transfer with a PIN session's token: {status} {challenge!r}")
    status, _, _ = run.example.call("GET", "/balance", token)
    if status != 200:
        raise Failure(f"GET /balance with a PIN session's token: {status}")
    return f"amr {claims['amr']}, no step_up_at: POST /transfer 401 insufficient_user_authentication, GET /balance 200"


def unknown_kid_refetch_is_rate_limited(run):
    _, token = run.genuine()
    claims = parts(token)[1]
    asked = time.monotonic()
    status, _, _ = run.counted.call("GET", "/balance", token)
    fetched_by = time.monotonic()
    if status != 200 or run.proxy.fetches != 1:
        raise Failure(f"a genuine token at the counted example: {status}, {run.proxy.fetches} fetches")
    fetches, _ = made_up_kids(run, claims, 40)
    if time.monotonic() - asked >= REFETCH_INTERVAL:
        raise Failure(f"the first 40 made-up kids took over {REFETCH_INTERVAL} s: inconclusive")
    if fetches != 0:
        raise Failure(f"40 made-up kids within {REFETCH_INTERVAL} s of a fetch: {fetches} fetches, expected none")
    time.sleep(max(0.0, fetched_by + REFETCH_INTERVAL + 0.5 - time.monotonic()))
    fetches, took = made_up_kids(run, claims, 40)
    if took >= REFETCH_INTERVAL:
        raise Failure(f"the next 40 made-up kids took over {REFETCH_INTERVAL} s: inconclusive")
    if fetches != 1:
        raise Failure(f"40 made-up kids after {REFETCH_INTERVAL} s: {fetches} fetches, expected one (the first unknown kid's)")
    status, _, _ = run.counted.call("GET", "/balance", token)
    if status != 200:
        raise Failure(f"a genuine token afterwards: {status}")
    return f"40 made-up kids within {REFETCH_INTERVAL} s of a fetch: none; 40 more after it: one; the genuine token still 200"


def alg_none(run):
    header, claims, _ = parts(run.genuine()[1])
    return run.refused_by_both(jws({**header, "alg": "none"}, claims), "alg is not allowed", "InvalidAlgorithmError")


def hs256_with_the_public_key(run):
    header, claims, _ = parts(run.genuine()[1])
    body, _ = key_set(run)
    jwk = next(key for key in body["keys"] if key["kid"] == header["kid"])
    pem = jwt.PyJWK(jwk).key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    forged_header = {**header, "alg": "HS256"}
    signing_input = f"{b64url_json(forged_header)}.{b64url_json(claims)}"
    signature = b64url(hmac.new(pem, signing_input.encode("ascii"), hashlib.sha256).digest())
    return run.refused_by_both(f"{signing_input}.{signature}", "alg is not allowed", "InvalidAlgorithmError")


def kid_not_in_the_set(run):
    claims = parts(run.genuine()[1])[1]
    return run.refused_by_both(signed_with_own_key(claims, f"not-in-set-{secrets.token_hex(6)}"), "kid is not in the key set", "PyJWKClientError")


def in_the_set(run, token):
    """Checks that the token's kid is in A's key set: it is validly signed, only its claims are wrong."""
    kids = {key["kid"] for key in key_set(run)[0]["keys"]}
    if parts(token)[0]["kid"] not in kids:
        raise Failure("the token's kid is not in A's key set, so it does not show what it should")


def another_issuer(run):
    token = run.genuine(run.b)[1]
    in_the_set(run, token)
    return "signed by a key in the set; " + run.refused_by_both(token, "iss is not the issuer", "InvalidIssuerError")


def another_audience(run):
    token = run.genuine(run.c)[1]
    in_the_set(run, token)
    return "signed by a key in the set; " + run.refused_by_both(token, "aud does not include this service", "InvalidAudienceError")


def not_yet_valid(run):
    token = run.genuine(run.f)[1]
    in_the_set(run, token)
    nbf = parts(token)[1].get("nbf", 0)
    if nbf < time.time() + 500:
        raise Failure(f"F's token has nbf {nbf - time.time():.0f} s from now; faketime did not move its clock")
    return "signed by a key in the set, nbf +600 s; " + run.refused_by_both(token, "the token is not valid yet", "ImmatureSignatureError")


def tampered_payload(run):
    header, claims, signature = parts(run.genuine()[1])
    claims["sub"] = claims["sub"][:-1] + ("0" if claims["sub"][-1] != "0" else "1")
    return "sub changed; " + run.refused_by_both(jws(header, claims, signature), "the signature does not verify", "InvalidSignatureError")


def revoked_session_stops_new_tokens(run):
    """Also mints the tokens that `expired` and `revoked-session-after-its-lifetime` judge later."""
    _, run.late_token = run.genuine()
    session, run.revoked_token = run.genuine()
    status, _, _ = http("DELETE", run.a.base + "/v1/sessions/current", token=session)
    if status not in (200, 204):
        raise Failure(f"sign-out: {status}")
    status, _, answer = http("POST", run.a.base + "/v1/sessions/current/access-token", {}, token=session)
    if status != 401:
        raise Failure(f"a token for a signed-out session: {status} {answer}")
    status, _, _ = run.example.call("GET", "/balance", run.revoked_token)
    if status != 200:
        raise Failure(f"the token minted before sign-out, within its lifetime: {status}")
    return f"after sign-out no new token (401); the one minted before lives on, at most {LIFETIME} s (documented)"


def wait_past(token):
    exp = parts(token)[1]["exp"]
    time.sleep(max(0.0, exp + LEEWAY + 1 - time.time()))


def expired(run):
    if not hasattr(run, "late_token"):
        revoked_session_stops_new_tokens(run)
    wait_past(run.late_token)
    return run.refused_by_both(run.late_token, "the token has expired", "ExpiredSignatureError")


def revoked_session_after_its_lifetime(run):
    if not hasattr(run, "revoked_token"):
        revoked_session_stops_new_tokens(run)
    wait_past(run.revoked_token)
    return run.refused_by_both(run.revoked_token, "the token has expired", "ExpiredSignatureError")


def no_token_in_logs(run):
    """No session or access token, nor an access token's payload or signature alone, in anything a
    server or the example printed (servers at --log-level debug)."""
    secrets_seen = []
    for server in run.servers():
        for token in server.tokens:
            secrets_seen.append(token)
            if token.count(".") == 2:
                secrets_seen.extend(token.split(".")[1:])
    logs = [(f"bioauth serve on {server.port}", server.logs()) for server in run.servers()]
    logs += [(f"the example backend on {example.port}", example.logs()) for example in run.examples]
    for name, text in logs:
        leaked = sum(1 for secret in secrets_seen if secret in text)
        if leaked:
            raise Failure(f"{leaked} token strings appear in what {name} printed")
    return f"{len(secrets_seen)} token strings, none in {len(logs)} processes' output ({sum(len(t) for _, t in logs)} bytes)"


# Refused by both verifiers: counted in the summary.
HOSTILE = [
    ("alg-none", alg_none),
    ("hs256-with-the-public-key", hs256_with_the_public_key),
    ("kid-not-in-the-set", kid_not_in_the_set),
    ("another-issuer", another_issuer),
    ("another-audience", another_audience),
    ("not-yet-valid", not_yet_valid),
    ("tampered-payload", tampered_payload),
]
SCENARIOS = [
    ("genuine-token-verifies", genuine_token_verifies),
    ("eddsa-token-verifies", eddsa_token_verifies),
    ("key-set-is-cacheable", key_set_is_cacheable),
    ("revoked-session-stops-new-tokens", revoked_session_stops_new_tokens),
    ("transfer-wants-recent-step-up", transfer_wants_recent_step_up),
    ("pin-session-has-no-step-up", pin_session_has_no_step_up),
    ("unknown-kid-refetch-is-rate-limited", unknown_kid_refetch_is_rate_limited),
    *HOSTILE,
    ("expired", expired),
    ("revoked-session-after-its-lifetime", revoked_session_after_its_lifetime),
    ("no-token-in-logs", no_token_in_logs),
]


def main(filters):
    started = time.monotonic()
    chosen = [(name, scenario) for name, scenario in SCENARIOS
              if not filters or name == "no-token-in-logs" or any(f in name for f in filters)]
    try:
        run = Run()
    except Exception as error:  # noqa: BLE001 - the setup's failure is the run's
        print(f"FAIL setup: {error}")
        return 1
    print(f"setup: {len(run.servers())} servers, {len(run.examples)} example backends ({time.monotonic() - started:.1f} s)", flush=True)
    passed = failed = 0
    try:
        for name, scenario in chosen:
            try:
                began = time.monotonic()
                detail = scenario(run)
                passed += 1
                print(f"PASS {name}: {detail} ({time.monotonic() - began:.1f} s)", flush=True)
            except Exception as error:  # noqa: BLE001 - one scenario's failure must not hide the rest
                failed += 1
                print(f"FAIL {name}: {error}", flush=True)
                if not isinstance(error, Failure):
                    traceback.print_exc()
    finally:
        run.stop()
    print(f"{run.refused} refused as expected by PyJWT and the example backend, "
          f"{passed} scenarios passed, {failed} failed ({time.monotonic() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
