"""Shared set-up for the browser scenarios and the screenshots: a throwaway `bioauth serve` on a free
loopback port, headless Debian Chromium through Playwright, and a CTAP2 virtual authenticator (the
Chrome DevTools Protocol's WebAuthn domain) on each page.

The server is the real one, $BIOAUTH_BINARY, started by scripts/lib/bioauth_server.py as
    bioauth serve --port P --metrics-port 0 --database <tmpdir>/db.sqlite --password-cost 10 --webauthn-origin http://localhost:P \
        --requests-per-minute 100000
"""
import os
import secrets
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from bioauth_server import BioAuthServer, ServerError  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "correct horse battery staple"

# Wraps the Signal API so that scenarios can see what the page told the authenticator. Playwright
# adds this through the DevTools protocol, so the page's Content-Security-Policy does not apply.
SIGNAL_SPY = """
(() => {
  window.__signals = [];
  const PKC = window.PublicKeyCredential;
  if (!PKC) return;
  for (const name of ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']) {
    const original = PKC[name];
    if (typeof original !== 'function') continue;
    PKC[name] = function (options) {
      window.__signals.push({ name, options: JSON.parse(JSON.stringify(options)) });
      return original.call(PKC, options);
    };
  }
})();
"""


# A page load is some 30 requests from one address (the page, its style sheet and ES modules, the
# session and the four lists), and the scenarios load many pages a minute: the per-address request
# limit is raised so that it refuses none of them (RequestLimitTests hold the limit itself).
REQUEST_LIMIT = ("--requests-per-minute", "100000")


class Server(BioAuthServer):
    """`bioauth serve` on a free port, until stop() (scripts/lib/bioauth_server.py)."""

    def __init__(self, extra_args=()):
        try:
            super().__init__(prefix="bioauth-browser.", extra_args=(*REQUEST_LIMIT, *extra_args))
        except ServerError as error:
            raise SystemExit(f"harness: {error}")


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])


def unique(prefix):
    return f"{prefix}-{secrets.token_hex(4)}"


class Tab:
    """One browser context with one page and, when asked, a virtual authenticator on that page."""

    def __init__(self, browser, origin, authenticator=True, viewport=None, problems=None):
        self.origin = origin
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800})
        self.context.set_default_timeout(15000)
        self.context.add_init_script(SIGNAL_SPY)
        self.page = self.context.new_page()
        self.problems = problems if problems is not None else []
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("console", self._console)
        self.cdp = None
        self.authenticator = None
        if authenticator:
            self.cdp = self.context.new_cdp_session(self.page)
            self.cdp.send("WebAuthn.enable", {"enableUI": False})
            self.authenticator = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
                "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True,
            }})["authenticatorId"]

    def _console(self, message):
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.problems.append(f"CSP violation: {text}")
        elif message.type == "error" and "Failed to load resource" not in text:
            self.problems.append(f"console error: {text}")

    def close(self):
        try:
            self.context.close()
        except Exception:
            pass

    # ---------------------------------------------------------------- the virtual authenticator

    def webauthn(self, method, **params):
        return self.cdp.send(f"WebAuthn.{method}", {"authenticatorId": self.authenticator, **params})

    def credentials(self):
        return self.webauthn("getCredentials")["credentials"]

    def set_user_verified(self, verified):
        self.webauthn("setUserVerified", isUserVerified=verified)

    def override_bits(self, bogus_signature=False, bad_uv=False, bad_up=False):
        self.webauthn("setResponseOverrideBits", isBogusSignature=bogus_signature, isBadUV=bad_uv, isBadUP=bad_up)

    # ---------------------------------------------------------------- the page

    def open(self):
        response = self.page.goto(self.origin + "/")
        self.page.wait_for_selector("#app-loading", state="hidden")
        return response

    def visible(self, selector):
        return self.page.locator(selector).is_visible()

    def wait_signed_in(self, timeout=15000):
        self.page.locator("#signed-in-view").wait_for(state="visible", timeout=timeout)

    def wait_signed_out(self, timeout=15000):
        self.page.locator("#signed-out-view").wait_for(state="visible", timeout=timeout)

    def text(self, selector):
        return self.page.locator(selector).inner_text().strip()

    def wait_text(self, selector, timeout=15000):
        """Waits until the element has text, and returns it with its data-code."""
        handle = self.page.wait_for_function(
            """s => [...document.querySelectorAll(s)].find(e => e.textContent.trim().length > 0)""",
            arg=selector, timeout=timeout)
        element = handle.as_element()
        return element.inner_text().strip(), element.get_attribute("data-code")

    def session(self):
        """GET /web/session from inside the page: (status, body)."""
        return self.fetch("GET", "/web/session")

    def fetch(self, method, path, body=None, headers=None):
        result = self.page.evaluate(
            """async ([method, path, body, headers]) => {
                const init = { method, credentials: 'same-origin', headers: headers || {} };
                if (body !== null) init.body = JSON.stringify(body);
                const r = await fetch(path, init);
                const text = await r.text();
                let json = null;
                try { json = text ? JSON.parse(text) : null; } catch (_) {}
                return { status: r.status, body: json };
            }""", [method, path, body, headers])
        return result["status"], result["body"]

    def signals(self):
        return self.page.evaluate("window.__signals || []")

    def sign_up(self, username, password=PASSWORD):
        self.page.click("#show-sign-up")
        self.page.fill("#sign-up-username", username)
        self.page.fill("#sign-up-password", password)
        self.page.click("#sign-up-submit")
        self.wait_signed_in()
        self.page.wait_for_function(
            "u => document.getElementById('current-username').textContent === u", arg=username)

    def sign_in_password(self, username, password=PASSWORD):
        self.page.fill("#sign-in-username", username)
        self.page.fill("#sign-in-password", password)
        self.page.click("#sign-in-submit")

    def sign_out(self):
        self.page.click("#sign-out")
        self.wait_signed_out()

    def confirm_if_asked(self, password, trigger_done, timeout=15000):
        """After an action that may need a recent sign-in: when "Confirm it's you" appears, enter the
        password. `trigger_done` is a selector whose text means the action finished."""
        self.page.wait_for_function(
            """s => {
                const panel = document.getElementById('reauth-panel');
                const done = [...document.querySelectorAll(s)].some(e => e.textContent.trim().length > 0);
                return (panel && !panel.hidden) || done;
            }""", arg=trigger_done, timeout=timeout)
        if self.visible("#reauth-panel"):
            self.page.fill("#reauth-password", password)
            self.page.click("#reauth-submit")
            self.page.locator("#reauth-panel").wait_for(state="hidden")
            return True
        return False

    def add_passkey(self, password=PASSWORD):
        before = self.page.locator("[data-testid=passkey-item]").count()
        self.page.click("#add-passkey")
        self.confirm_if_asked(password, "#passkeys-status, #passkeys-error")
        self.page.wait_for_function(
            """n => document.querySelectorAll('[data-testid=passkey-item]').length > n
                   || document.getElementById('passkeys-error').textContent.trim().length > 0""", arg=before)
        error = self.text("#passkeys-error")
        if error:
            raise AssertionError(f"adding a passkey failed: {error} ({self.page.get_attribute('#passkeys-error', 'data-code')})")

    def click_passkey_sign_in(self):
        self.page.locator("#passkey-sign-in:not([disabled])").wait_for()
        self.page.click("#passkey-sign-in")


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)
