"""Screenshots of the account page (run by scripts/screenshots): the signed-out and the signed-in
views at desktop (1280x800) and phone (390x844) widths, full page, into docs/web/ (or argv[1]). The
signed-in view shows a payment approved with the passkey and another one pending."""
import os
import sys

from playwright.sync_api import sync_playwright

import bank
from harness import Server, Tab, launch

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def settle(tab):
    tab.page.evaluate("document.activeElement && document.activeElement.blur()")
    tab.page.wait_for_load_state("networkidle")
    tab.page.evaluate("document.fonts.ready")


def shoot(tab, viewport, path):
    tab.page.set_viewport_size(viewport)
    tab.page.evaluate("window.scrollTo(0, 0)")
    settle(tab)
    tab.page.screenshot(path=path, full_page=True)
    print(f"wrote {path}", flush=True)


def approve_one_of_two(tab, server):
    """The bank asks for two payments; the first is approved with the passkey, the second waits."""
    credential = bank.service_credential(server)
    _, web = tab.session()
    paid = bank.create_payment(server, credential, web["user"]["id"], "42.00", "City Power Ltd", "Invoice 2026-118")
    bank.create_payment(server, credential, web["user"]["id"], "1250.00", "Alice Example", "Rent December")
    tab.page.click("#refresh-confirmations")
    tab.page.locator(f"[data-testid=confirmation-item][data-id='{paid['id']}'] [data-testid=confirmation-approve]").click()
    tab.page.locator(f"[data-testid=confirmation-item][data-id='{paid['id']}'][data-status=approved]").wait_for()


def main(out):
    os.makedirs(out, exist_ok=True)
    server = Server()
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            tab = Tab(browser, server.origin, viewport=DESKTOP)
            # The signed-out view, before any passkey exists (so autofill has nothing to offer).
            tab.open()
            shoot(tab, DESKTOP, os.path.join(out, "signed-out.png"))
            shoot(tab, PHONE, os.path.join(out, "signed-out-phone.png"))
            tab.page.set_viewport_size(DESKTOP)
            tab.sign_up("ada.lovelace")
            tab.add_passkey()
            tab.sign_out()
            tab.click_passkey_sign_in()
            tab.wait_signed_in()
            approve_one_of_two(tab, server)
            tab.page.locator("[data-testid=activity-item]").first.wait_for()
            shoot(tab, DESKTOP, os.path.join(out, "account.png"))
            shoot(tab, PHONE, os.path.join(out, "account-phone.png"))
            tab.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join("docs", "web"))
