"""The account page in a real browser: passkeys with a virtual authenticator, cookie sessions, CSRF.

Run by scripts/test-browser (which installs Chromium and Playwright and finds the server). One line
per scenario, "PASS name" or "FAIL name: reason", then "N passed, N failed"; exit status 1 on any
failure. Each scenario uses its own browser context(s), authenticator and fresh username.
Extra arguments: names (or letters) of scenarios to run, e.g. `a e h`.
"""
import sys
import time
import traceback

from playwright.sync_api import sync_playwright

import bank
from harness import PASSWORD, Server, Tab, check, launch, unique

NOT_USED = "The passkey was not used — verification was cancelled or failed."

notes = {}


def note(name, text):
    notes.setdefault(name, []).append(text)


def passkey_user(ctx, prefix):
    """A new account with a passkey on this tab's authenticator, signed out again."""
    tab = Tab(ctx["browser"], ctx["origin"], problems=ctx["problems"])
    ctx["tabs"].append(tab)
    username = unique(prefix)
    tab.open()
    tab.sign_up(username)
    tab.add_passkey()
    check(len(tab.credentials()) == 1, f"the authenticator holds {len(tab.credentials())} credentials, expected 1")
    tab.sign_out()
    return tab, username


def expect_signed_out(tab, what):
    check(tab.visible("#signed-out-view"), f"{what}: the signed-out view is not shown")
    check(not tab.visible("#signed-in-view"), f"{what}: the signed-in view is shown")
    status, _ = tab.session()
    check(status == 401, f"{what}: GET /web/session answered {status}, expected 401")


def passkey_error(tab):
    """Clicks "Sign in with a passkey" and returns (text, code) of the error shown."""
    tab.click_passkey_sign_in()
    tab.page.wait_for_function(
        "() => document.getElementById('passkey-error').textContent.trim() || !document.getElementById('signed-in-view').hidden")
    check(not tab.visible("#signed-in-view"), "the passkey signed in")
    text, code = tab.wait_text("#passkey-error")
    tab.page.locator("#passkey-sign-in:not([disabled])").wait_for()
    return text, code


# ------------------------------------------------------------------------------------------ scenarios

def a_passkey_sign_in(ctx):
    tab, username = passkey_user(ctx, "alice")
    tab.click_passkey_sign_in()
    tab.wait_signed_in()
    check(tab.text("#current-username") == username, f"header shows {tab.text('#current-username')!r}, not {username!r}")
    status, body = tab.session()
    check(status == 200, f"GET /web/session answered {status}")
    method = body["session"]["authentication"]["method"]
    check(method == "passkey", f"the session's authentication method is {method!r}, not 'passkey'")
    check(body["user"]["username"] == username, "GET /web/session names another user")


def b_passkey_autofill(ctx):
    tab, username = passkey_user(ctx, "bob")
    tab.page.reload()
    # No click: the conditional request started on load is answered by the virtual authenticator.
    tab.wait_signed_in()
    check(tab.text("#current-username") == username, "autofill signed in someone else")
    status, body = tab.session()
    check(status == 200 and body["session"]["authentication"]["method"] == "passkey",
          f"after autofill GET /web/session answered {status} {body}")


def c_user_verification_failed(ctx):
    tab, _ = passkey_user(ctx, "carol")
    tab.set_user_verified(False)
    try:
        text, code = passkey_error(tab)
        check(text, "no error text shown")
        if code == "NotAllowedError":
            check(text == NOT_USED, f"NotAllowedError shown as {text!r}")
        else:
            check(code in ("user_verification_required", "passkey_invalid"),
                  f"unexpected error {code}: {text!r}")
        note("c", f"{code}: {text!r}")
        expect_signed_out(tab, "after failed verification")
    finally:
        tab.set_user_verified(True)


def d_forged_responses(ctx):
    tab, _ = passkey_user(ctx, "dave")
    outcomes = []
    try:
        for bit in ("isBadUV", "isBadUP", "isBogusSignature"):
            tab.override_bits(bad_uv=bit == "isBadUV", bad_up=bit == "isBadUP", bogus_signature=bit == "isBogusSignature")
            try:
                text, code = passkey_error(tab)
            except AssertionError as e:
                raise AssertionError(f"{bit}: {e}") from None
            check(text and text != code, f"{bit}: the error is not in words: {text!r}")
            expected = ("user_verification_required", "passkey_invalid")
            if code == "NotAllowedError":
                # Chromium itself refused the response before the page could send it.
                note("d", f"{bit}: refused by Chromium (NotAllowedError), not by the server")
            else:
                check(code in expected, f"{bit}: the server answered {code} ({text!r}), expected one of {expected}")
            outcomes.append(f"{bit}→{code}")
            expect_signed_out(tab, bit)
    finally:
        tab.override_bits()
    # With honest responses again, the same passkey still works.
    tab.click_passkey_sign_in()
    tab.wait_signed_in()
    note("d", ", ".join(outcomes))


def e_revoked_passkey(ctx):
    tab = Tab(ctx["browser"], ctx["origin"], problems=ctx["problems"])
    ctx["tabs"].append(tab)
    username = unique("erin")
    tab.open()
    tab.sign_up(username)
    tab.add_passkey()
    saved = tab.credentials()
    check(len(saved) == 1, f"the authenticator holds {len(saved)} credentials")
    item = tab.page.locator("[data-testid=passkey-item]").first
    item.locator("[data-testid=passkey-remove]").click()
    check(item.locator("[data-testid=passkey-remove-yes]").is_visible(), "no inline confirmation")
    item.locator("[data-testid=passkey-remove-yes]").click()
    tab.page.locator("[data-testid=passkey-empty]").wait_for()
    status, body = tab.fetch("GET", "/v1/passkeys")
    check(status == 200 and body["passkeys"] == [], f"GET /v1/passkeys after removal: {status} {body}")

    # After the list was drawn the page told the authenticator which passkeys the account accepts.
    time.sleep(0.5)
    accepted = [s for s in tab.signals() if s["name"] == "signalAllAcceptedCredentials"]
    if accepted:
        check(accepted[-1]["options"]["allAcceptedCredentialIds"] == [],
              f"signalAllAcceptedCredentials after removal: {accepted[-1]['options']}")
    if not tab.credentials():
        note("e", "signalAllAcceptedCredentials removed it from the authenticator at once")
        # Put it back, as if it lived on another device that never heard the signal, to reach the
        # server's passkey_unknown answer.
        tab.webauthn("addCredential", credential=saved[0])
    else:
        note("e", "the authenticator kept it after signalAllAcceptedCredentials")

    tab.sign_out()
    text, code = passkey_error(tab)
    check(code == "passkey_unknown", f"passkey sign-in with a removed passkey: {code} ({text!r}), expected passkey_unknown")
    check("not registered" in text, f"the unknown-passkey message is {text!r}")
    expect_signed_out(tab, "after passkey_unknown")
    unknown = [s for s in tab.signals() if s["name"] == "signalUnknownCredential"]
    check(unknown, "the page did not call PublicKeyCredential.signalUnknownCredential")
    options = unknown[-1]["options"]
    # The DevTools protocol gives the id in standard base64; the Signal API takes base64url.
    expected_id = saved[0]["credentialId"].replace("+", "-").replace("/", "_").rstrip("=")
    check(options.get("credentialId") == expected_id and options.get("rpId") == "localhost",
          f"signalUnknownCredential({options}), expected credential {expected_id} on localhost")
    deadline = time.monotonic() + 5
    while tab.credentials() and time.monotonic() < deadline:
        time.sleep(0.2)
    if tab.credentials():
        note("e", "Chromium kept the credential after signalUnknownCredential")
    else:
        note("e", "signalUnknownCredential removed it from the authenticator")


def f_sign_out_everywhere_else(ctx):
    username = unique("frank")
    first = Tab(ctx["browser"], ctx["origin"], authenticator=False, problems=ctx["problems"])
    second = Tab(ctx["browser"], ctx["origin"], authenticator=False, problems=ctx["problems"])
    ctx["tabs"] += [first, second]
    first.open()
    first.sign_up(username)
    second.open()
    second.sign_in_password(username)
    second.wait_signed_in()
    first.page.reload()
    first.wait_signed_in()
    sessions = first.page.locator("[data-testid=session-item]")
    first.page.wait_for_function("() => document.querySelectorAll('[data-testid=session-item]').length === 2")
    check(sessions.locator("[data-testid=session-current]").count() == 1, "no single 'This browser' session")
    check(sessions.nth(0).get_attribute("data-current") == "true", "the current session is not listed first")
    first.page.click("#sign-out-others")
    first.confirm_if_asked(PASSWORD, "#sessions-status, #sessions-error")
    first.page.wait_for_function("() => document.querySelectorAll('[data-testid=session-item]').length === 1")
    check(not first.text("#sessions-error"), f"error: {first.text('#sessions-error')}")
    second.page.reload()
    second.wait_signed_out()
    expect_signed_out(second, "the other browser")
    first.page.reload()
    first.wait_signed_in()
    # The activity loads after the page shows the session: wait for it, at most the default timeout.
    try:
        first.page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=activity-text]')].some(e => e.textContent === 'Signed out everywhere else')")
    except Exception:
        pass
    events = first.page.locator("[data-testid=activity-text]").all_inner_texts()
    check("Signed out everywhere else" in events, f"activity does not show it: {events}")


def g_change_password(ctx):
    username = unique("grace")
    new_password = "a brand new passphrase"
    tab = Tab(ctx["browser"], ctx["origin"], authenticator=False, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    tab.sign_up(username)
    # A wrong current password is refused in words.
    tab.page.fill("#current-password", "not the password")
    tab.page.fill("#new-password", new_password)
    tab.page.click("#change-password-submit")
    asked = tab.confirm_if_asked(PASSWORD, "#password-status, #password-error")
    text, code = tab.wait_text("#password-error")
    check(code == "invalid_credentials", f"wrong current password: {code} ({text!r})")
    # The right one.
    tab.page.fill("#current-password", PASSWORD)
    tab.page.fill("#new-password", new_password)
    tab.page.click("#change-password-submit")
    asked = tab.confirm_if_asked(PASSWORD, "#password-status, #password-error") or asked
    text, _ = tab.wait_text("#password-status, #password-error")
    check(not tab.text("#password-error"), f"changing the password failed: {tab.text('#password-error')}")
    note("g", "with the 'Confirm it's you' prompt" if asked else "no re-authentication was asked")
    tab.sign_out()
    tab.sign_in_password(username, PASSWORD)
    text, code = tab.wait_text("#sign-in-error")
    check(code == "invalid_credentials", f"the old password: {code} ({text!r})")
    tab.sign_in_password(username, new_password)
    tab.wait_signed_in()
    check(tab.text("#current-username") == username, "signed in as someone else")


def l_one_time_password(ctx):
    username = unique("leo")
    new_password = "leo's own new passphrase"
    tab = Tab(ctx["browser"], ctx["origin"], authenticator=False, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    tab.sign_up(username)
    tab.sign_out()
    # The support desk recovers the account and reads out the one-time password.
    printed = ctx["server"].admin("recover", username)
    line = next((l for l in printed.splitlines() if l.startswith("one-time password")), "")
    one_time = line.rsplit(" ", 1)[-1]
    check(one_time.count("-") == 4, f"no one-time password in: {printed!r}")
    tab.sign_in_password(username, one_time)
    tab.page.locator("#password-reset-view").wait_for(state="visible")
    check(not tab.visible("#signed-in-view"), "the account is shown before a new password is set")
    status, body = tab.session()
    check(status == 200 and body["session"].get("password_change_required") is True, f"GET /web/session: {status} {body}")
    tab.page.fill("#password-reset-new", new_password)
    tab.page.click("#password-reset-submit")
    tab.wait_signed_in()
    tab.sign_out()
    tab.sign_in_password(username, one_time)
    text, code = tab.wait_text("#sign-in-error")
    check(code == "invalid_credentials", f"the one-time password a second time: {code} ({text!r})")
    tab.sign_in_password(username, new_password)
    tab.wait_signed_in()


def m_reauthenticate_with_passkey(ctx):
    # A server of its own whose step-up window is one minute, so that the session goes stale.
    server = Server(extra_args=("--step-up-minutes", "1"))
    ctx["servers"].append(server)
    tab = Tab(ctx["browser"], server.origin, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    tab.sign_up(unique("mia"))
    tab.add_passkey()
    time.sleep(61)
    tab.page.fill("#current-password", PASSWORD)
    tab.page.fill("#new-password", "mia's next passphrase")
    tab.page.click("#change-password-submit")
    tab.page.locator("#reauth-panel").wait_for(state="visible")
    check(tab.visible("#reauth-passkey"), "'Confirm it's you' does not offer the passkey")
    tab.page.click("#reauth-passkey")
    tab.page.locator("#reauth-panel").wait_for(state="hidden")
    tab.wait_text("#password-status, #password-error")
    check(not tab.text("#password-error"), f"changing the password after the passkey failed: {tab.text('#password-error')}")
    status, body = tab.session()
    check(status == 200 and "passkey" in body["session"]["factors"], f"the session's factors: {body['session'].get('factors')}")


# Records the challenge of each navigator.credentials.get but passkey autofill's (conditional), so
# that the scenario can check what the passkey signed. Added through the DevTools protocol, so the page's policy does not apply.
GET_SPY = """
(() => {
  window.__gets = [];
  const original = navigator.credentials.get.bind(navigator.credentials);
  navigator.credentials.get = (options) => {
    const challenge = options && options.publicKey && options.publicKey.challenge;
    if (challenge && options.mediation !== 'conditional') window.__gets.push(Array.from(new Uint8Array(challenge.buffer || challenge)));
    return original(options);
  };
})();
"""


def confirmation_row(tab, confirmation_id):
    return tab.page.locator(f"[data-testid=confirmation-item][data-id='{confirmation_id}']")


def q_confirm_with_passkey(ctx):
    server = ctx["server"]
    tab = Tab(ctx["browser"], ctx["origin"], problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.context.add_init_script(GET_SPY)
    tab.open()
    tab.sign_up(unique("quinn"))
    tab.add_passkey()
    _, web = tab.session()
    credential = bank.service_credential(server, unique("bank"))
    pay = bank.create_payment(server, credential, web["user"]["id"], "12.50", "Alice Example", "Invoice 42")
    other = bank.create_payment(server, credential, web["user"]["id"], "99.00", "Bob Example")
    tab.page.click("#refresh-confirmations")
    confirmation_row(tab, other["id"]).wait_for()
    row = confirmation_row(tab, pay["id"])
    title = row.locator("[data-testid=confirmation-title]").inner_text().strip()
    lines = row.locator("[data-testid=confirmation-lines]").inner_text().split("\n")
    check(title == "Pay 12.50 EUR to Alice Example", f"the pending payment reads {title!r}")
    check([l.strip() for l in lines if l.strip()] == ["Reference: Invoice 42"], f"its lines read {lines!r}")

    # An authenticator that answers with the UV flag clear: refused in words, still pending.
    tab.override_bits(bad_uv=True)
    row.locator("[data-testid=confirmation-approve]").click()
    text, code = tab.wait_text(f"[data-id='{pay['id']}'] [data-testid=confirmation-error]")
    check(code == "user_verification_required", f"a clear UV flag: {code} ({text!r})")
    check(bank.get(server, credential, pay["id"])["status"] == "pending", "a clear UV flag changed the payment")
    tab.override_bits()
    row.locator("[data-testid=confirmation-approve]:not([disabled])").click()
    tab.page.locator(f"[data-testid=confirmation-item][data-id='{pay['id']}'][data-status=approved]").wait_for()
    text, _ = tab.wait_text("#confirmations-status")
    check(text == "Approved: Pay 12.50 EUR to Alice Example.", f"the status line reads {text!r}")
    badge = confirmation_row(tab, pay["id"]).locator("[data-testid=confirmation-status]").inner_text().strip()
    check(badge == "approved", f"the approved row's badge reads {badge!r}")
    seen = bank.get(server, credential, pay["id"])
    check(seen["status"] == "approved" and seen.get("factor") == "passkey" and seen.get("receipt"),
          f"the bank reads {seen['status']} / {seen.get('factor')} / receipt {bool(seen.get('receipt'))}")
    # What the passkey signed: the confirmation's message, rebuilt here from the details.
    gets = tab.page.evaluate("window.__gets")
    check(len(gets) == 2, f"{len(gets)} WebAuthn requests, expected 2")
    signed = bytes(gets[-1])
    expected = bank.message("localhost", signed[-66:-34], bank.details_hash(pay["details"], pay["id"]))
    check(signed == expected, f"the WebAuthn challenge is not the payment's message: {signed.hex()}")

    row = confirmation_row(tab, other["id"])
    row.locator("[data-testid=confirmation-decline]").click()
    tab.page.locator(f"[data-testid=confirmation-item][data-id='{other['id']}'][data-status=declined]").wait_for()
    seen = bank.get(server, credential, other["id"])
    check(seen["status"] == "declined", f"the bank reads the declined payment as {seen['status']}")
    check(not tab.text("#confirmations-error"), f"the section shows an error: {tab.text('#confirmations-error')}")


def h_csrf_and_headers(ctx):
    tab = Tab(ctx["browser"], ctx["origin"], authenticator=False, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    response = tab.open()
    csp = response.headers.get("content-security-policy")
    check(csp, "GET / has no Content-Security-Policy")
    check("unsafe-inline" not in csp and "unsafe-eval" not in csp, f"the CSP allows inline code: {csp}")
    check("script-src 'self'" in csp, f"the CSP's script-src: {csp}")
    tab.sign_up(unique("heidi"))
    status, body = tab.fetch("POST", "/v1/passkeys/registration-options", {}, {"Content-Type": "application/json"})
    code = (body or {}).get("error", {}).get("code")
    check(status == 403 and code == "csrf_failed", f"POST without X-CSRF-Token: {status} {code}")
    _, web = tab.session()
    status, body = tab.fetch("POST", "/v1/passkeys/registration-options", {},
                             {"Content-Type": "application/json", "X-CSRF-Token": "not-the-token"})
    check(status == 403, f"POST with a wrong X-CSRF-Token: {status} {body}")
    # The right token from another origin is refused too (Playwright's request API sends the cookie).
    forged = tab.context.request.post(ctx["origin"] + "/v1/passkeys/registration-options", data="{}", headers={
        "Content-Type": "application/json", "X-CSRF-Token": web["csrf_token"], "Origin": "http://evil.example"})
    check(forged.status == 403, f"POST from Origin http://evil.example: {forged.status}")
    cookies = tab.context.cookies()
    check(cookies, "no cookie was set")
    for cookie in cookies:
        check(cookie["httpOnly"], f"cookie {cookie['name']} is not HttpOnly")
        check(cookie["sameSite"] == "Strict", f"cookie {cookie['name']} is SameSite={cookie['sameSite']}")
    check(tab.page.evaluate("document.cookie") == "", "the page can read a cookie")
    note("h", ", ".join(c["name"] for c in cookies))


def j_manage_passkeys(ctx):
    """Adding a second passkey on the same authenticator, renaming, and a cancelled removal."""
    tab = Tab(ctx["browser"], ctx["origin"], problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    tab.sign_up(unique("judy"))
    tab.add_passkey()
    tab.page.click("#add-passkey")
    tab.confirm_if_asked(PASSWORD, "#passkeys-status, #passkeys-error")
    text, code = tab.wait_text("#passkeys-error")
    check(text == "This device already has a passkey for your account.", f"a second passkey: {code} {text!r}")
    check(len(tab.credentials()) == 1, "the authenticator made a second credential")
    item = tab.page.locator("[data-testid=passkey-item]").first
    item.locator("[data-testid=passkey-rename]").click()
    item.locator("[data-testid=passkey-label-input]").fill("Work laptop")
    item.locator("[data-testid=passkey-save]").click()
    tab.confirm_if_asked(PASSWORD, "#passkeys-status, [data-testid=passkey-item-error]")
    tab.page.wait_for_function(
        "() => document.querySelector('[data-testid=passkey-label]').textContent === 'Work laptop'")
    status, body = tab.fetch("GET", "/v1/passkeys")
    check(status == 200 and [p["label"] for p in body["passkeys"]] == ["Work laptop"], f"after renaming: {body}")
    item = tab.page.locator("[data-testid=passkey-item]").first
    item.locator("[data-testid=passkey-remove]").click()
    item.locator("[data-testid=passkey-remove-no]").click()
    check(tab.page.locator("[data-testid=passkey-item]").count() == 1, "'No' removed the passkey")
    tab.page.click("#refresh-activity")
    tab.page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=activity-text]')].some(e => e.textContent === 'Renamed a passkey')")
    events = tab.page.locator("[data-testid=activity-text]").all_inner_texts()
    check("Added a passkey" in events, f"activity: {events}")


def p256_public_key():
    """A fresh P-256 public key as SubjectPublicKeyInfo DER, base64url (openssl, from Debian)."""
    import base64
    import subprocess
    private = subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout"], capture_output=True, check=True).stdout
    der = subprocess.run(["openssl", "ec", "-pubout", "-outform", "DER"], input=private, capture_output=True, check=True).stdout
    return base64.urlsafe_b64encode(der).rstrip(b"=").decode()


def n_device_key_evidence(ctx):
    """Under --key-attestation prefer, each device key shows what the server found of its evidence."""
    server = Server(extra_args=("--key-attestation", "prefer", "--app-attest-app-id", "ABCDE12345.com.example.bank"))
    ctx["servers"].append(server)
    tab = Tab(ctx["browser"], server.origin, authenticator=False, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    tab.sign_up(unique("nadia"))
    _, web = tab.session()
    headers = {"Content-Type": "application/json", "X-CSRF-Token": web["csrf_token"]}
    status, issued = tab.fetch("POST", "/v1/biometric/attestation-challenges", {}, headers)
    check(status == 201 and issued["mode"] == "prefer", f"attestation challenge: {status} {issued}")
    plain = {"algorithm": "ES256", "public_key": p256_public_key(), "label": "Plain phone"}
    status, body = tab.fetch("POST", "/v1/biometric/registrations", plain, headers)
    check(status == 201, f"a key without evidence: {status} {body}")
    odd = {"algorithm": "ES256", "public_key": p256_public_key(), "label": "Odd phone",
           "key_attestation": {"format": "apple-app-attest", "challenge": issued["challenge"]}}
    status, body = tab.fetch("POST", "/v1/biometric/registrations", odd, headers)
    check(status == 201, f"a key with unusable evidence: {status} {body}")
    tab.page.reload()
    tab.page.wait_for_selector("#app-loading", state="hidden")
    tab.page.wait_for_function("() => document.querySelectorAll('[data-testid=device-item]').length === 2")
    badges = {}
    for item in tab.page.locator("[data-testid=device-item]").all():
        label = item.locator("[data-testid=device-label]").inner_text()
        badges[label] = [(b.inner_text(), b.get_attribute("title")) for b in item.locator(".badge").all()]
    check(("no hardware evidence", None) in badges.get("Plain phone", []), f"badges: {badges}")
    check(("hardware not verified", "evidence_malformed") in badges.get("Odd phone", []), f"badges: {badges}")


def o_passkeys_refused_under_require(ctx):
    """Under --key-attestation require with unattested passkeys, adding one is refused in words, before any prompt."""
    server = Server(extra_args=("--key-attestation", "require", "--app-attest-app-id", "ABCDE12345.com.example.bank"))
    ctx["servers"].append(server)
    tab = Tab(ctx["browser"], server.origin, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    tab.sign_up(unique("olga"))
    tab.page.click("#add-passkey")
    text, code = tab.wait_text("#passkeys-error")
    check(code == "attestation_required" and text.startswith("Passkeys cannot be added here"), f"refusal: {code} {text!r}")
    check(len(tab.credentials()) == 0, "the authenticator made a credential")
    check(tab.page.locator("[data-testid=passkey-item]").count() == 0, "a passkey is listed")


def k_errors_in_words(ctx):
    """Sign-up and sign-in refusals are explained in words next to their form."""
    tab = Tab(ctx["browser"], ctx["origin"], authenticator=False, problems=ctx["problems"])
    ctx["tabs"].append(tab)
    tab.open()
    username = unique("kim")
    tab.sign_up(username)
    tab.sign_out()
    # A control character: refused by any username rule.
    cases = [("bad\tname", PASSWORD, "invalid_username"), (username, PASSWORD, "username_taken"),
             (unique("kim"), "short", None)]
    tab.page.click("#show-sign-up")
    for name, password, expected in cases:
        tab.page.fill("#sign-up-username", name)
        tab.page.fill("#sign-up-password", password)
        tab.page.click("#sign-up-submit")
        text, code = tab.wait_text("#sign-up-error")
        check(text and " " in text and text != code, f"sign-up {name!r}: not in words: {text!r}")
        if expected:
            check(code == expected, f"sign-up {name!r}: {code} ({text!r}), expected {expected}")
        tab.page.wait_for_function("() => !document.getElementById('sign-up-submit').disabled")
    tab.page.click("#show-sign-in")
    tab.sign_in_password(username, "wrong password")
    text, code = tab.wait_text("#sign-in-error")
    check(code == "invalid_credentials" and "not right" in text, f"wrong password: {code} ({text!r})")
    check(tab.page.locator("#sign-in-error").get_attribute("role") == "alert", "the error is not role=alert")
    expect_signed_out(tab, "after refusals")


def i_page_problems(ctx):
    """No CSP violation, uncaught error or console error in any page the other scenarios opened."""
    check(not ctx["problems"], "; ".join(ctx["problems"][:5]))


SCENARIOS = [
    ("a-passkey-sign-in", a_passkey_sign_in),
    ("b-passkey-autofill", b_passkey_autofill),
    ("c-user-verification-failed", c_user_verification_failed),
    ("d-forged-responses-refused", d_forged_responses),
    ("e-revoked-passkey-unknown", e_revoked_passkey),
    ("f-sign-out-everywhere-else", f_sign_out_everywhere_else),
    ("g-change-password", g_change_password),
    ("h-csrf-csp-cookie", h_csrf_and_headers),
    ("j-manage-passkeys", j_manage_passkeys),
    ("k-errors-in-words", k_errors_in_words),
    ("l-one-time-password", l_one_time_password),
    ("m-reauthenticate-with-passkey", m_reauthenticate_with_passkey),
    ("n-device-key-evidence", n_device_key_evidence),
    ("o-passkeys-refused-under-require", o_passkeys_refused_under_require),
    ("q-confirm-with-passkey", q_confirm_with_passkey),
    ("z-no-csp-violations-or-errors", i_page_problems),
]


def main(selected):
    wanted = [(n, f) for n, f in SCENARIOS if not selected or any(n == s or n.startswith(s + "-") for s in selected)]
    if not wanted:
        raise SystemExit(f"no scenario matches {selected}; known: {[n for n, _ in SCENARIOS]}")
    server = Server()
    passed = failed = 0
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            print(f"browser: Chromium {browser.version} against {' '.join(server.command[:1])} on {server.origin}", flush=True)
            problems = []
            for name, scenario in wanted:
                ctx = {"browser": browser, "origin": server.origin, "server": server, "servers": [], "tabs": [], "problems": problems}
                started = time.monotonic()
                try:
                    scenario(ctx)
                except Exception as e:  # noqa: BLE001 - a scenario's failure is reported, not raised
                    failed += 1
                    reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                    print(f"FAIL {name}: {reason}", flush=True)
                    if not isinstance(e, AssertionError):
                        traceback.print_exc(file=sys.stderr)
                    if not server.alive():
                        print(f"  the server exited: {server.stderr_tail(1500)}", flush=True)
                else:
                    passed += 1
                    letter = name.split("-")[0]
                    extra = f" ({'; '.join(notes[letter])})" if letter in notes else ""
                    print(f"PASS {name} [{time.monotonic() - started:.1f}s]{extra}", flush=True)
                finally:
                    for tab in ctx["tabs"]:
                        tab.close()
                    for extra in ctx["servers"]:
                        extra.stop()
            browser.close()
    finally:
        server.stop()
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
