"""The processes of scripts/access-tokens: `bioauth serve` with access tokens (signing up, in, with a
PIN, minting), the example backend Examples/ResourceServer, and a counting proxy for its key set."""
import base64
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from bioauth_server import BioAuthServer, free_port, wait_listening  # noqa: E402
from tokens import AUDIENCE, Failure, b64url, http  # noqa: E402

LIFETIME = 30             # --access-token-lifetime, the server's least
LEEWAY = 1                # the example's --leeway
STEP_UP_MAX_AGE = 8       # the example's --step-up-max-age for POST /transfer
PASSWORD = "access token test password"
PIN = "73952814"
RELYING_PARTY = "localhost"   # bioauth serve's default --relying-party


def signed_message(ceremony, registration_id, challenge):
    """docs/PROTOCOL.md §2: "BIOAUTH-V1" NUL, the ceremony byte, then the relying party, the
    registration id and the challenge's bytes, each after its 2-byte big-endian length."""
    def field(data):
        return len(data).to_bytes(2, "big") + data
    raw = base64.urlsafe_b64decode(challenge + "=" * (-len(challenge) % 4))
    return b"BIOAUTH-V1\x00" + bytes([ceremony]) + field(RELYING_PARTY.encode()) + field(registration_id.encode()) + field(raw)



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

    def signing_keys(self, *args):
        """`bioauth admin signing-keys ARGS` on this server's database, as an operator runs it."""
        result = subprocess.run([self.binary, "admin", "signing-keys", *args, "--database", self.database],
                                capture_output=True, text=True, env=self.env, timeout=60)
        if result.returncode != 0:
            raise Failure(f"bioauth admin signing-keys {' '.join(args)}: {result.stderr.strip()}")
        return result.stdout

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
        if wait_listening(self.process, self.output, timeout=30):
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
        shutil.rmtree(self.workdir, ignore_errors=True)


class CountingProxy:
    """GET on loopback, passed on to `upstream` (its status, body and Cache-Control), counted;
    `last` is when the last one came (time.monotonic())."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.fetches = 0
        self.last = 0.0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                proxy.fetches += 1
                proxy.last = time.monotonic()
                with urllib.request.urlopen(proxy.upstream + self.path, timeout=10) as answer:
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
