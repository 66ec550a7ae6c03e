"""Tokens as the test makes and reads them, and PyJWT as a Python backend uses it: the independent
verifier of scripts/access-tokens (PyJWT and cryptography from PyPI)."""
import base64
import json
import urllib.error
import urllib.request

import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from jwt import PyJWKClient

AUDIENCE = "bank-api"               # what A, B and F name in aud, and what both verifiers expect
ALGORITHMS = ["ES256", "EdDSA"]     # what both verifiers accept


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



def jws(header, claims, signature=""):
    """A compact JWS of these parts as given (the signature is base64url text)."""
    return f"{b64url_json(header)}.{b64url_json(claims)}.{signature}"


def signed_with_own_key(claims, kid):
    """A token signed by a P-256 key made here, which no key set holds."""
    key = ec.generate_private_key(ec.SECP256R1())
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": kid, "typ": "at+jwt"})


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
