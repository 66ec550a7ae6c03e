"""A throwaway `bioauth serve` for the Python test drivers (scripts/browser, scripts/differential,
scripts/access-tokens): the real binary ($BIOAUTH_BINARY) on a free loopback port, over a new SQLite
file (or another server's, to share its data and keys), with the page's origin
`http://localhost:PORT` as its passkey origin; started, awaited ("listening"), stopped.
"""
import os
import queue
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time


def wait_listening(process, output, timeout):
    """Whether `process` printed a line with "listening" on its stdout within `timeout` seconds.
    Every line it prints, then and later, is appended to `output` (a thread reads the pipe, so the
    process never blocks on it)."""
    lines = queue.Queue()

    def pump():
        for raw in process.stdout:
            line = raw.decode("utf-8", "replace")
            output.append(line)
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            continue
        if line is None:
            return False
        if "listening" in line:
            return True
    return False


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerError(Exception):
    """The server would not start."""


class BioAuthServer:
    """`bioauth serve --port P --metrics-port 0 --database <tmp>/db.sqlite --password-cost 10
    --webauthn-origin http://localhost:P`, configured by these flags alone (no BIOAUTH_ variable
    of the caller's leaks in), until stop(). `port` picks the port (free_port() before, to name it
    in `extra_args`); `database` is another server's, shared (it stays when this one stops);
    `wrapper` is a command that runs the binary (`faketime -f +600s`); `output` collects what the
    server prints on stdout."""

    def __init__(self, binary=None, prefix="bioauth-test.", extra_args=(), port=None, database=None, wrapper=()):
        binary = binary or os.environ.get("BIOAUTH_BINARY")
        if not binary:
            raise ServerError("set BIOAUTH_BINARY to the bioauth binary")
        self.binary = binary
        self.port = port or free_port()
        self.origin = f"http://localhost:{self.port}"
        self.workdir = tempfile.mkdtemp(prefix=prefix)
        self.database = database or os.path.join(self.workdir, "db.sqlite")
        self.command = [binary, "serve", "--port", str(self.port), "--metrics-port", "0",
                        "--database", self.database, "--password-cost", "10",
                        "--webauthn-origin", self.origin, *extra_args]
        env = {k: v for k, v in os.environ.items() if not k.startswith("BIOAUTH_")}
        self.env = env
        self.stderr_path = os.path.join(self.workdir, "server.err")
        self.stderr = open(self.stderr_path, "wb")
        self.output = []
        # A wrapper may run the server as its child: both get a process group of their own, which
        # stop() ends as a whole.
        self.wrapped = bool(wrapper)
        self.process = subprocess.Popen([*wrapper, *self.command], stdout=subprocess.PIPE, stderr=self.stderr, stdin=subprocess.DEVNULL,
                                        env=env, start_new_session=self.wrapped)
        if not wait_listening(self.process, self.output, timeout=60):
            self.stop()
            raise ServerError(f"the server did not print a 'listening' line ({shlex.join(self.command)}):\n{self.stderr_tail()}")

    def admin(self, *args):
        """`bioauth admin ARGS --database <this server's>`, as a support desk runs it: its stdout.
        Raises ServerError when it fails."""
        result = subprocess.run([self.binary, "admin", *args, "--database", self.database, "--password-cost", "10"],
                                capture_output=True, text=True, env=self.env, timeout=60)
        if result.returncode != 0:
            raise ServerError(f"bioauth admin {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def logs(self):
        """Everything the server printed so far, stdout and stderr."""
        with open(self.stderr_path, "rb") as f:
            return "".join(self.output) + f.read().decode("utf-8", "replace")

    def stderr_tail(self, limit=4000):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read()[-limit:].decode("utf-8", "replace")
        except OSError:
            return ""

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.wrapped:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
