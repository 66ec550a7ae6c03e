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
class), so a refusal for some other reason fails. Then a key retired with `bioauth admin
signing-keys retire` gives way to a new one the example fetches once. Last, no token (access or
session) appears in anything a server or the example printed.

Beside it: processes.py (the servers, the example, the proxy), tokens.py (making and reading
tokens, and the PyJWT verifier).

Usage: access_tokens.py [SUBSTRING...]   runs the scenarios whose name contains one of them (all by
default; the token-in-logs check always runs). Needs $BIOAUTH_BINARY and $RESOURCE_SERVER_BINARY, and faketime on PATH.
One line per scenario; the last line is "N refused as expected by PyJWT and the example backend,
M scenarios passed, K failed"; exit 1 on any failure.
"""
import hashlib
import hmac
import os
import secrets
import sys
import time
import traceback

import jwt
from cryptography.hazmat.primitives import serialization

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from processes import LEEWAY, LIFETIME, PASSWORD, STEP_UP_MAX_AGE, CountingProxy, Example, Server  # noqa: E402
from tokens import (ALGORITHMS, Failure, PyJWTVerifier, b64url, b64url_json, http, jws, parts,  # noqa: E402
                    signed_with_own_key)

OTHER_AUDIENCE = "other-api"
REFETCH_INTERVAL = 15     # E2's --key-refetch-interval


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


def rotated_key_is_fetched(run):
    """Last, as it changes the shared keys: `bioauth admin signing-keys retire` replaces the signing
    key in the database; a server started afterwards signs with the new one, whose kid the counted
    example has never seen. Its key set, now read from that server, holds both keys (the retired
    one until its tokens have expired); the example fetches it once and accepts the token."""
    old_token = run.genuine()[1]
    old_kid = parts(old_token)[0]["kid"]
    if run.counted.call("GET", "/balance", old_token)[0] != 200:
        raise Failure("the counted example refused a token of the current key")
    run.a.signing_keys("retire", old_kid)
    fresh = Server(issuer_port=run.a.port, database=run.a.database)
    run.others.append(fresh)
    token = fresh.access_token(fresh.sign_in(run.username))
    new_kid = parts(token)[0]["kid"]
    kids = {key["kid"] for key in http("GET", fresh.base + "/.well-known/jwks.json")[2]["keys"]}
    if new_kid == old_kid or not {old_kid, new_kid} <= kids:
        raise Failure(f"after retiring the signing key: new token's kid {'unchanged' if new_kid == old_kid else 'new'}, "
                      f"{len(kids)} keys in the set, the retired one {'in' if old_kid in kids else 'not in'} it")
    run.proxy.upstream = fresh.base
    time.sleep(max(0.0, run.proxy.last + REFETCH_INTERVAL + 0.5 - time.monotonic()))
    before = run.proxy.fetches
    status, challenge, _ = run.counted.call("GET", "/balance", token)
    if status != 200 or run.proxy.fetches - before != 1:
        raise Failure(f"a token of the new key: {status} {challenge!r}, {run.proxy.fetches - before} fetches (expected 200, one)")
    return "the retired key stays in the set; the new key's token: one fetch of the key set, then 200"


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
    ("rotated-key-is-fetched", rotated_key_is_fetched),
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
